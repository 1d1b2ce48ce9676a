import faulthandler
import os

import pytest

#: A test still running after this many seconds is taken for hung (the
#: slowest take well under a minute): the stacks of all its threads are
#: written to the run's stderr and its process ends, so that the run stops
#: with the place where it waited instead of at CI's time limit (under
#: pytest-xdist the worker is replaced and the test reported as failed).
#: $SOLVERS_TEST_HANG_SECONDS changes it.
HANG_SECONDS = float(os.environ.get("SOLVERS_TEST_HANG_SECONDS", "600"))


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
    # The stderr the run started with: while a test runs, pytest captures
    # file descriptor 2, and a hung test never hands its capture back.
    config._solvers_stderr = os.fdopen(os.dup(2), "w")


def pytest_unconfigure(config):
    stream = getattr(config, "_solvers_stderr", None)
    if stream is not None:
        stream.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=item.config._solvers_stderr)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


def pytest_collection_modifyitems(config, items):
    # (The tests on Ray are grouped in ../conftest.py.)
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
