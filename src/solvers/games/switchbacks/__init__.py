"""Switchbacks: rules (``reference``), data (``data``), the kernel wrapper (``kernel``) and JSON positions (``position``)."""
