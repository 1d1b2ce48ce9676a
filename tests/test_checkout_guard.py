"""The run stops when the imported solvers is not this checkout's source.

pip keeps an installed solvers when handed a wheel of the same version, so
CI once ran today's tests against an older install. The root conftest.py
compares the installed files with src/solvers before any test runs.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _guard():
    spec = importlib.util.spec_from_file_location("solvers_root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


SOURCE = {"__init__.py": b"x = 1\n", "web/static/play.js": b"let a;\n", "batch.py": b"y = 2\n"}


def test_a_matching_install_and_an_editable_one_pass(tmp_path):
    stale_files = _guard().stale_files
    source = _tree(tmp_path / "src", SOURCE)
    installed = _tree(tmp_path / "site", {**SOURCE, "_core/mcts.so": b"\0", "rules/a.md": b"#"})
    assert stale_files(source, installed) == []
    assert stale_files(source, source) == []


def test_a_missing_module_and_a_changed_file_are_named(tmp_path):
    stale_files = _guard().stale_files
    source = _tree(tmp_path / "src", SOURCE)
    old = {"__init__.py": b"x = 1\n", "web/static/play.js": b"let b;\n"}  # control: differs
    installed = _tree(tmp_path / "site", old)
    assert stale_files(source, installed) == ["batch.py", "web/static/play.js"]


def test_compiled_and_cached_files_are_not_compared(tmp_path):
    stale_files = _guard().stale_files
    source = _tree(tmp_path / "src", {**SOURCE, "__pycache__/x.pyc": b"1", "_core/k.so": b"2"})
    installed = _tree(tmp_path / "site", SOURCE)
    assert stale_files(source, installed) == []


def test_pytest_stops_in_one_line_on_a_stale_install(tmp_path):
    # A copy of the package with one module left out stands in for the old
    # install; a run of one passing test must stop first, with exit code 4.
    import shutil

    import solvers

    fake = tmp_path / "site"
    shutil.copytree(Path(solvers.__file__).parent, fake / "solvers",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (fake / "solvers" / "batch.py").unlink()
    test = f"{Path(__file__).relative_to(ROOT)}::test_compiled_and_cached_files_are_not_compared"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
         "-c", str(ROOT / "pyproject.toml"), test],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**_env(), "PYTHONPATH": str(fake)})
    assert proc.returncode == 4, proc.stdout + proc.stderr
    assert "not this checkout's src/solvers (batch.py missing or different)" in proc.stdout + proc.stderr


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
