"""Fixtures shared by tests/ and benchmarks/."""

from __future__ import annotations

import sys

import pytest


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
