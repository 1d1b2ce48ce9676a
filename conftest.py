"""Fixtures shared by tests/ and benchmarks/.

The package's ``>>>`` examples run in tests/test_doctests.py; a module that
needs an optional extra is left out there when the extra is absent, and the
report header says so.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

# module -> the import it needs (as in tests/test_doctests.py)
_OPTIONAL = {"solvers.interop.openspiel": "pyspiel", "solvers.web.app": "starlette"}


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_LEFT_OUT = [name for name, need in _OPTIONAL.items() if not _installed(need)]


# ------------------------------------------------- the solvers under test
_SOURCE = Path(__file__).resolve().parent / "src" / "solvers"
_BUILT = {".so", ".pyd", ".pyc"}


def stale_files(source: Path, installed: Path) -> list[str]:
    """The files of the package source ``source`` that the imported package
    at ``installed`` lacks or holds with other bytes (paths relative to
    ``source``, sorted). Empty when both are the same folder (an editable
    install) or the install matches the source file for file."""
    if source.resolve() == installed.resolve():
        return []
    stale = []
    for path in sorted(source.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in _BUILT:
            continue
        rel = path.relative_to(source)
        twin = installed / rel
        if not twin.is_file() or twin.read_bytes() != path.read_bytes():
            stale.append(rel.as_posix())
    return stale


def pytest_configure(config):
    # pip takes a wheel of an already installed version as satisfied and
    # keeps the old files, so a run could test yesterday's package against
    # today's tests. Stop at once with one line instead.
    if not _SOURCE.is_dir() or hasattr(config, "workerinput"):
        return  # xdist's workers import what the controller already checked
    spec = importlib.util.find_spec("solvers")
    if spec is None or spec.origin is None:
        return  # the tests say themselves that solvers is not installed
    installed = Path(spec.origin).parent
    stale = stale_files(_SOURCE, installed)
    if stale:
        more = f" and {len(stale) - 1} more" if len(stale) > 1 else ""
        pytest.exit(f"the solvers imported from {installed} is not this checkout's src/solvers "
                    f"({stale[0]}{more} missing or different): pip uninstall -y solvers, then "
                    "run the README's test command", returncode=4)


def pytest_report_header(config):
    if _LEFT_OUT:
        return [f"doctests left out, optional extra absent: {', '.join(_LEFT_OUT)}"]
    return []


# ------------------------------------------------------------ Ray
RAY_FIXTURES = {"ray_instance", "ray_by_value", "ray_head_with_token"}


def uses_ray(item) -> bool:
    """A test that may start or join a Ray instance: it asks for a Ray
    fixture, runs with ``backend="ray"``, or names Ray (the ones that run
    Ray in a subprocess)."""
    callspec = getattr(item, "callspec", None)
    return (bool(RAY_FIXTURES & set(getattr(item, "fixturenames", ())))
            or (callspec is not None and callspec.params.get("backend") == "ray")
            or "ray" in item.originalname.split("_"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # Under pytest-xdist (`-n auto --dist loadgroup`, the README's command)
    # the tests on Ray share one worker, which runs them one after another:
    # two Ray instances starting side by side on a small machine time out.
    # First, before xdist's own hook reads the groups off the markers (it
    # would not see them after).
    for item in items:
        if uses_ray(item):
            item.add_marker(pytest.mark.xdist_group("ray"))


def _ray_if_running():
    ray = sys.modules.get("ray")
    return ray if ray is not None and ray.is_initialized() else None


@pytest.fixture
def ray_instance():
    """A local Ray instance (2 CPUs, no dashboard), started by the first
    test that asks and kept for the Ray tests straight after it: Ray takes
    seconds to start. Skips when Ray is not installed."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        from solvers.parallel import LOCAL_RAY_CONFIG

        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="ERROR", _system_config=LOCAL_RAY_CONFIG)
    return ray


def uses_ray_in_process(item) -> bool:
    """A Ray test that joins this process's instance (a Ray fixture, or
    ``backend="ray"``); the other Ray tests start Ray in a subprocess."""
    callspec = getattr(item, "callspec", None)
    return (bool(RAY_FIXTURES & set(getattr(item, "fixturenames", ())))
            or (callspec is not None and callspec.params.get("backend") == "ray"))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # A test that starts Ray in a subprocess gets the machine's only
    # instance of ours: the worker's own, kept from the Ray test before it,
    # stops first (a worker crashed once in CI, "node down: Not properly
    # terminated", while such a test started a second instance beside it).
    ray = _ray_if_running()
    if ray is not None and uses_ray(item) and not uses_ray_in_process(item):
        ray.shutdown()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    # Stop Ray once its stretch of tests is over, so that the rest of the
    # worker's tests do not run (and fork their worker processes) beside
    # Ray's threads and daemons.
    ray = _ray_if_running()
    if ray is not None and (nextitem is None or not uses_ray(nextitem)):
        ray.shutdown()


@pytest.fixture
def ray_by_value(ray_instance, request):
    """The Ray instance, with the requesting test module's own functions
    sent to Ray's workers by value (they cannot import a test module)."""
    ray_instance.cloudpickle.register_pickle_by_value(sys.modules[request.module.__name__])
    return ray_instance


# ------------------------------------------------------------ the web app
def _browser_paths() -> tuple[str | None, str | None]:
    """(chromium, chromedriver): $SOLVERS_CHROMIUM / $SOLVERS_CHROMEDRIVER or
    the system's (Debian's chromium and chromium-driver packages)."""
    import os
    import shutil

    browser = os.environ.get("SOLVERS_CHROMIUM") or next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    driver = os.environ.get("SOLVERS_CHROMEDRIVER") or shutil.which("chromedriver")
    return browser, driver


@pytest.fixture(scope="session")
def web_server():
    """``solve serve --port 0`` in a child process for the whole session;
    yields its address (``http://127.0.0.1:PORT``)."""
    import subprocess

    proc = subprocess.Popen([sys.executable, "-m", "solvers.cli.main", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("Serving on "):
        proc.kill()
        raise RuntimeError(f"solve serve did not start: {line!r} {proc.stderr.read()[:2000]}")
    url = line.split()[2].rstrip("/")
    yield url
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def screenshots(tmp_path_factory):
    """Where the browser tests save their screenshots: $SOLVERS_SCREENSHOTS
    or a folder under pytest's temporary directory."""
    import os
    from pathlib import Path

    folder = os.environ.get("SOLVERS_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def chromium():
    """A headless Chromium driven by Selenium, for the session. Skips only
    when no Chromium (or its driver) is installed on this machine."""
    browser, driver_path = _browser_paths()
    if browser is None or driver_path is None:
        pytest.skip("no chromium/chromedriver on this machine (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()
