"""Tracking the benchmarks' headline ratios (solvers.benchtrack).

Every benchmark records its headline figure, a ratio measured in the same
process, with ``solvers.benchtrack.headline``. This file collects them:

* ``--ratios-autosave`` saves the run under ``.benchmarks/quick/`` (or
  ``--ratios-save FILE``), in pytest-benchmark's JSON shape, also under
  ``--benchmark-disable`` where pytest-benchmark itself saves nothing.
  Enabled runs are saved by pytest-benchmark's own ``--benchmark-autosave``
  (the headline is in each benchmark's ``extra_info``).
* The **regression gate**: after a quick run (``--benchmark-disable``, as CI
  runs), every figure measured is checked against ``benchmarks/baseline.json``
  (``solve bench gate`` does the same for a saved run); a figure below its
  baseline by more than its tolerance fails the session with one line naming
  the benchmark, the baseline and the new figure. ``--no-ratio-gate`` turns
  it off; ``--ratio-baseline FILE`` uses another baseline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from solvers import benchtrack
from solvers.files import write_atomic

BASELINE = Path(__file__).with_name("baseline.json")


def pytest_addoption(parser):
    group = parser.getgroup("solvers-bench", "benchmark ratio tracking (solvers.benchtrack)")
    group.addoption("--ratios-autosave", action="store_true", default=False,
                    help="save this run's headline ratios under .benchmarks/quick/ "
                         "(enabled runs: use --benchmark-autosave)")
    group.addoption("--ratios-save", metavar="FILE", default=None,
                    help="save this run's headline ratios to FILE")
    group.addoption("--no-ratio-gate", action="store_true", default=False,
                    help="do not check quick runs against the stored baseline")
    group.addoption("--ratio-baseline", metavar="FILE", default=str(BASELINE),
                    help="the baseline the gate checks against (default: benchmarks/baseline.json)")


_CONTROLLER: dict = {}


def pytest_configure(config):
    _CONTROLLER["config"] = config
    config._solvers_headlines = []        # entries of this run's benchmarks with a headline
    config._solvers_gate_lines = []


def _is_worker(config) -> bool:
    """Whether this process is a pytest-xdist worker (whose results the
    controller gathers from the test reports)."""
    return hasattr(config, "workerinput")


def pytest_collection_modifyitems(config, items):
    # Under pytest-xdist (`-n 2 --dist loadgroup`) the benchmarks run one
    # after another on one worker, never two side by side.
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.path)).parent == here:
            item.add_marker(pytest.mark.xdist_group("benchmarks"))


@pytest.fixture(autouse=True)
def _collect_headline(request):
    yield
    bench = request.node.funcargs.get("benchmark") if hasattr(request.node, "funcargs") else None
    if bench is not None and isinstance(bench.extra_info.get("headline"), dict):
        entry = {"name": request.node.name, "fullname": request.node.nodeid,
                 "extra_info": dict(bench.extra_info), "quick": bool(bench.disabled)}
        if _is_worker(request.config):
            # travels to the controller with the teardown report
            request.node.user_properties.append(("solvers_headline", json.dumps(entry)))
        else:
            request.config._solvers_headlines.append(entry)


def pytest_runtest_logreport(report):
    """On the controller of an xdist run: the headlines the workers sent."""
    if report.when != "teardown":
        return
    config = _CONTROLLER.get("config")
    if config is None or _is_worker(config):
        return
    for key, value in getattr(report, "user_properties", ()):
        if key == "solvers_headline":
            config._solvers_headlines.append(json.loads(value))


def _mode(entries) -> str:
    return "quick" if entries and all(e["quick"] for e in entries) else "full"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    config = session.config
    entries = getattr(config, "_solvers_headlines", [])
    if not entries or _is_worker(config):
        return
    run = benchtrack.make_run(entries, _mode(entries))
    if config.getoption("--ratios-save"):
        write_atomic(config.getoption("--ratios-save"), json.dumps(run, indent=1) + "\n",
                     "benchmark run")
    if config.getoption("--ratios-autosave"):
        root = Path(str(config.rootpath)) / benchtrack.DEFAULT_RUNS / "quick"
        config._solvers_saved = benchtrack.save_run(run, root)
    baseline_path = Path(config.getoption("--ratio-baseline"))
    if config.getoption("--no-ratio-gate") or run["solvers"]["mode"] != "quick" \
            or not baseline_path.is_file():
        return
    baseline = benchtrack.load_baseline(baseline_path)
    lines = benchtrack.gate(run, baseline)
    config._solvers_gate_lines = lines
    config._solvers_gate_checked = sum(1 for k in benchtrack.figures(run) if k in baseline["figures"])
    if lines and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    saved = getattr(config, "_solvers_saved", None)
    if saved:
        terminalreporter.write_line(f"benchmark ratios saved to {saved}")
    checked = getattr(config, "_solvers_gate_checked", None)
    if checked is None:
        return
    lines = config._solvers_gate_lines
    if lines:
        terminalreporter.section("benchmark regression gate", red=True)
        for line in lines:
            terminalreporter.write_line(f"REGRESSION {line}", red=True)
    else:
        terminalreporter.write_line(f"benchmark regression gate: {checked} ratios within their "
                                    f"tolerance of {config.getoption('--ratio-baseline')}")
