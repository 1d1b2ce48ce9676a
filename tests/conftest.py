import pytest


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run the long sweeps marked 'slow'")


def pytest_collection_modifyitems(config, items):
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
