"""Agents: one API for every game (``solvers.load_agent``)."""
