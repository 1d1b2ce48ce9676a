"""Bridges to other game-AI libraries. :mod:`solvers.interop.openspiel`
registers every game with OpenSpiel (optional extra ``openspiel``)."""
