"""The ``solve`` command line."""
