"""Cython kernels. Each ``<game>.pyx`` here is built as ``solvers._core.<game>``."""
