"""Code quality and packaging, as CI checks them (through the README's test
command): ``ruff`` and ``mypy`` over ``src/solvers`` and ``cli/`` are clean
under the configuration in pyproject.toml, and the wheel holds everything
the package needs: installed alone in a fresh virtual environment it runs
``solve c2c`` and ``solve engine`` for every game from a directory outside
the source tree.

The wheel is the one the README's test command builds (``dist/``), or the
one named by ``SOLVERS_WHEEL``; without either, one is built here."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "_core"
PACKAGE = ROOT / "src" / "solvers"
RULES = ROOT / "docs" / "rules"


def _tool(module: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m module args`` from the source root (where pyproject.toml
    configures it); skip when the tool is not installed (the test extra has it)."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed: pip install \".[test]\"")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout)


def test_ruff_is_clean():
    proc = _tool("ruff", "check", "--no-cache", "src/solvers", "cli")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_is_clean():
    # The files and settings are in pyproject.toml ([tool.mypy]).
    proc = _tool("mypy")
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --- the wheel ---------------------------------------------------------------

def _tracked(folder: Path) -> list[Path]:
    """The files of ``folder`` under version control (every file, outside a
    git checkout), caches left out."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", str(folder)], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode()
        files = [ROOT / name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in folder.rglob("*") if p.is_file()]
    return sorted(p for p in files if "__pycache__" not in p.parts and p.suffix not in (".pyc", ".so"))


def expected_data() -> list[str]:
    """Every file the installed package must hold besides its Python
    modules and kernels, as paths inside the wheel: each non-.py file of
    src/solvers (maps, cards, the island, board.js, the web app's static
    files, the engine schema, models ...), the rules pages (solvers.rules)
    and the kernels' .pxd and .h files (solvers._core)."""
    names = [f"solvers/{p.relative_to(PACKAGE).as_posix()}" for p in _tracked(PACKAGE) if p.suffix != ".py"]
    names += [f"solvers/rules/{p.name}" for p in _tracked(RULES) if p.suffix == ".md"]
    names += [f"solvers/_core/{p.name}" for p in _tracked(CORE) if p.suffix in (".pxd", ".h")]
    return sorted(names)


def test_expected_data_names_the_known_files():
    # The list the wheel is checked against is not empty by mistake.
    names = expected_data()
    for name in ("solvers/data/coast_to_coast.json", "solvers/data/santa_cruz.json",
                 "solvers/games/c2c/board.js", "solvers/engine/schema.json", "solvers/rules/README.md",
                 "solvers/_core/game_api.h", "solvers/_core/c2c.pxd"):
        assert name in names
    assert any(n.startswith("solvers/web/static/") for n in names)
    assert not any(n.endswith(".py") for n in names)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel under test: $SOLVERS_WHEEL, else the newest dist/solvers-*.whl
    (the README's test command builds it), else one built now."""
    if os.environ.get("SOLVERS_WHEEL"):
        return Path(os.environ["SOLVERS_WHEEL"]).resolve()
    built = sorted((ROOT / "dist").glob("solvers-*.whl"), key=lambda p: p.stat().st_mtime)
    if built:
        return built[-1]
    out = tmp_path_factory.mktemp("wheel")
    # With Cython here (the development install) no isolated build env is needed.
    isolation = ["--no-build-isolation"] if importlib.util.find_spec("Cython") else []
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", *isolation, "-w", str(out),
                    str(ROOT)], check=True, timeout=1800)
    return next(out.glob("solvers-*.whl"))


@pytest.mark.xdist_group("wheel")   # one worker builds the wheel and the venv once
def test_the_wheel_holds_the_package_data_and_every_kernel(wheel):
    inside = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in expected_data() if name not in inside]
    assert not missing, f"{wheel.name} lacks {missing} (package-data in pyproject.toml; a stale wheel? rebuild it)"
    kernels = {name.split("/")[-1].split(".")[0] for name in inside
               if name.startswith("solvers/_core/") and name.endswith((".so", ".pyd"))}
    assert kernels == {p.stem for p in CORE.glob("*.pyx")}
    assert "solvers/cli/main.py" in inside


@pytest.fixture(scope="module")
def fresh(wheel, tmp_path_factory) -> tuple[Path, Path]:
    """A fresh virtual environment holding only the wheel (its dependencies
    come from this interpreter's site-packages), and an empty directory
    outside the source tree to run in."""
    home = tmp_path_factory.mktemp("fresh")
    env = home / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(env)
    python = env / ("Scripts" if os.name == "nt" else "bin") / "python"
    # The dependencies: this interpreter's site-packages, after the venv's own
    # (a path in a .pth file is appended; its own .pth files, such as an
    # editable install's finder, are not run).
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    outer = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (Path(site) / "_outer_site.pth").write_text("".join(p + "\n" for p in outer))
    # This interpreter's pip installs into the new environment, even though
    # solvers is installed here too (the console script lands in its bin/).
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    "--ignore-installed", "--no-compile", str(wheel)], check=True, timeout=600)
    work = home / "work"
    work.mkdir()
    return python, work


def _run(fresh: tuple[Path, Path], args: list[str]) -> subprocess.CompletedProcess:
    python, work = fresh
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    return subprocess.run(args, cwd=work, capture_output=True, text=True, timeout=300, env=environ)


@pytest.mark.xdist_group("wheel")   # one worker builds the wheel and the venv once
def test_the_fresh_environment_imports_the_wheel_and_finds_its_data(fresh):
    python, work = fresh
    script = (
        "import importlib.resources, json, solvers, solvers._core.c2c\n"
        "root = importlib.resources.files('solvers')\n"
        f"names = {json.dumps(expected_data())}\n"
        "print(json.dumps({'file': solvers.__file__, 'kernel': solvers._core.c2c.__file__,\n"
        "    'missing': [n for n in names if not root.joinpath(n.split('/', 1)[1]).is_file()]}))\n"
    )
    proc = _run(fresh, [str(python), "-c", script])
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    venv_dir = python.parent.parent
    # The wheel's copy, not the source tree's nor this environment's.
    assert Path(found["file"]).is_relative_to(venv_dir), found
    assert Path(found["kernel"]).is_relative_to(venv_dir), found
    assert found["missing"] == []


@pytest.mark.xdist_group("wheel")   # one worker builds the wheel and the venv once
def test_the_headline_command_runs_from_the_wheel(fresh):
    python, _ = fresh
    solve = python.parent / "solve"
    proc = _run(fresh, [str(solve), "c2c", "--challenge", "Wrigley Field", "--shuffles", "2", "--seed", "1"])
    assert proc.returncode == 0, proc.stderr
    assert "Wrigley Field" in proc.stdout
    assert "LLW Little League World Series" in proc.stdout    # the map's legend: the map data loaded


@pytest.mark.xdist_group("wheel")   # one worker builds the wheel and the venv once
def test_the_engine_plays_every_game_from_the_wheel(fresh):
    # Each game's data (map, cards, island) loads, its kernel deals and the
    # AI moves, each request answered before the next is sent.
    python, work = fresh
    games = ["c2c", "switchbacks", "bigsur", "santacruz"]
    environ = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.Popen([str(python.parent / "solve"), "engine"], cwd=work, env=environ, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def ask(request: dict) -> dict:
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        assert reply["id"] == request["id"] and "error" not in reply, reply
        return reply["result"]

    try:
        assert {g["name"] for g in ask({"id": "hello", "cmd": "hello"})["games"]} == set(games)
        for game in games:
            assert ask({"id": "new", "cmd": "new", "game": game, "seed": 3})["game"] == game
            assert ask({"id": "deal", "cmd": "deal"})["phase"] == "decision"
            legal = {m["action"]: m["move"] for m in ask({"id": "legal", "cmd": "legal"})["moves"]}
            go = ask({"id": "go", "cmd": "go", "iterations": 30})
            assert legal.get(go["action"]) == go["move"], (game, go)
            assert ask({"id": "apply", "cmd": "apply", "move": go["move"]})["game"] == game
        assert ask({"id": "quit", "cmd": "quit"}) == {"bye": True}
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        err = proc.stderr.read() if proc.stderr else ""
        proc.wait()
    assert "Traceback" not in err, err
