"""Coast to Coast: rules (``reference``), data (``data``) and the kernel wrapper."""
