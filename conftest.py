"""Fixtures shared by tests/ and benchmarks/.

The package's ``>>>`` examples run in tests/test_doctests.py; a module that
needs an optional extra is left out there when the extra is absent, and the
report header says so.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

# module -> the import it needs (as in tests/test_doctests.py)
_OPTIONAL = {"solvers.interop.openspiel": "pyspiel"}


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_LEFT_OUT = [name for name, need in _OPTIONAL.items() if not _installed(need)]


def pytest_report_header(config):
    if _LEFT_OUT:
        return [f"doctests left out, optional extra absent: {', '.join(_LEFT_OUT)}"]
    return []


@pytest.fixture(scope="session")
def ray_instance():
    """One local Ray instance for the whole session (2 CPUs, no dashboard):
    Ray takes seconds to start, so every Ray test and benchmark shares it.
    Skips when Ray is not installed."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR")
    yield ray
    ray.shutdown()


@pytest.fixture
def ray_by_value(ray_instance, request):
    """The Ray instance, with the requesting test module's own functions
    sent to Ray's workers by value (they cannot import a test module)."""
    ray_instance.cloudpickle.register_pickle_by_value(sys.modules[request.module.__name__])
    return ray_instance
