"""A pytest plugin for tools/sanitize.sh: refuse to run the suite unless
every kernel (``solvers._core.<name>``) is imported from the instrumented
build in ``$SOLVERS_SANITIZED_LIB``, so a run that silently picked up the
ordinary in-place kernels cannot pass for a sanitized one.

    SOLVERS_SANITIZED_LIB=build/sanitize/lib python -m pytest -p sanitized_kernels
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from pathlib import Path


def kernels_outside(lib: str) -> list[str]:
    """The kernel modules not loaded from ``lib`` (with where they came from)."""
    import solvers._core as core

    root = Path(lib).resolve()
    wrong = []
    names = [m.name for m in pkgutil.iter_modules(core.__path__) if not m.ispkg]
    if not names:
        return [f"no kernel found in {list(core.__path__)}"]
    for name in names:
        module = importlib.import_module(f"solvers._core.{name}")
        where = Path(module.__file__ or "").resolve()
        if root not in where.parents:
            wrong.append(f"solvers._core.{name} from {where}")
    return wrong


def pytest_configure(config) -> None:
    lib = os.environ.get("SOLVERS_SANITIZED_LIB")
    if not lib:
        raise RuntimeError("sanitized_kernels: set SOLVERS_SANITIZED_LIB to the instrumented build")
    wrong = kernels_outside(lib)
    if wrong:
        raise RuntimeError("not the sanitized kernels: " + "; ".join(wrong))
