import os

import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the long sweeps marked 'slow'")


def pytest_configure(config):
    # Test modules that size a hypothesis run at import time read this
    # (tests/test_engine_fuzz.py): the full sweep only with --runslow.
    os.environ["SOLVERS_TEST_RUNSLOW"] = "1" if config.getoption("--runslow") else "0"
    # The secret that signs kernel views in game records (solvers.record):
    # one for this run, outside the user's home.
    if "SOLVERS_CONFIG_DIR" not in os.environ:
        import tempfile

        os.environ["SOLVERS_CONFIG_DIR"] = tempfile.mkdtemp(prefix="solvers-config-")


RAY_FIXTURES = {"ray_instance", "ray_by_value", "ray_head_with_token"}


def uses_ray(item) -> bool:
    """A test that may start or join a Ray instance: it asks for a Ray
    fixture, runs with ``backend="ray"``, or names Ray (the ones that run
    Ray in a subprocess)."""
    callspec = getattr(item, "callspec", None)
    return (bool(RAY_FIXTURES & set(getattr(item, "fixturenames", ())))
            or (callspec is not None and callspec.params.get("backend") == "ray")
            or "ray" in item.originalname.split("_"))


def pytest_collection_modifyitems(config, items):
    # Under pytest-xdist (`-n auto --dist loadgroup`, the README's command)
    # the tests on a real local Ray instance share one worker: two Ray
    # instances starting side by side on a small machine time out. The
    # tests of the local backend beside them run on any worker.
    for item in items:
        if uses_ray(item):
            item.add_marker(pytest.mark.xdist_group("ray"))
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="long sweep: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def sweep(request):
    """``sweep(full, quick)``: how many random games a differential sweep
    plays: ``full`` with ``--runslow``, ``quick`` in the everyday run (the
    same checks on fewer games, so the suite stays within its minutes)."""
    slow = request.config.getoption("--runslow")
    return lambda full, quick: full if slow else quick
