"""The documentation site (mkdocs.yml, docs/) builds with warnings as
errors: every page in the navigation, every link and anchor found, every
module's docstrings rendered (issue 30). Its ``>>>`` examples run in
tests/test_doctests.py.

One strict build of the whole site (a few seconds of CPU), plus a control:
a small site with a broken link to a repository file must fail the same
way, so the check can fail."""

from __future__ import annotations

import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import solvers

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# one xdist worker runs the tests on the built site, so the site is built once
on_the_site = pytest.mark.xdist_group("docs-site")


def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "-f", str(config), "-d", str(site)],
                          cwd=config.parent, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = mkdocs_build(ROOT / "mkdocs.yml", out)
    assert result.returncode == 0, result.stderr[-4000:]
    return out


@on_the_site
def test_the_site_builds_strictly(site):
    for page in ("index.html", "cli/index.html", "rules/coast-to-coast/index.html",
                 "engine-protocol/index.html", "benchmarks/speed/index.html",
                 "api/package/index.html", "api/kernels/index.html"):
        assert (site / page).is_file(), page


@on_the_site
def test_the_api_reference_renders_docstrings(site):
    html = (site / "api" / "package" / "index.html").read_text("utf-8")
    assert 'id="solvers.load_game"' in html
    assert "Build a game by its short name" in html          # load_game's docstring
    assert ":func:" not in html and ":mod:" not in html       # roles became code spans
    kernels = (site / "api" / "kernels" / "index.html").read_text("utf-8")
    assert 'id="solvers._core.c2c"' in kernels                # read from the compiled module


@on_the_site
def test_a_repository_link_shows_its_path(site):
    # docs/rules link ../../src/solvers/game.py: on the site, its path instead of a dead link.
    html = (site / "rules" / "switchbacks" / "index.html").read_text("utf-8")
    assert "src/solvers/game.py" in html and 'href="../../src/' not in html


def test_every_module_is_in_the_api_reference():
    """Each module of the package is named on an API page, itself or under a
    package shown with its submodules, so a new module is not left out."""
    named, with_submodules = set(), set()
    for page in (DOCS / "api").rglob("*.md"):
        for m in re.finditer(r"^::: (\S+)\n((?:    .*\n)*)", page.read_text("utf-8"), re.M):
            named.add(m.group(1))
            if "show_submodules: true" in m.group(2):
                with_submodules.add(m.group(1))
    # A regular install also holds solvers.cli (the command line, whose page is
    # docs/cli.md and whose help is `solve --help`) inside the package.
    modules = ["solvers"] + [i.name for i in pkgutil.walk_packages(solvers.__path__, "solvers.")
                             if not i.name.startswith("solvers.cli")]
    missing = [name for name in modules
               if name not in named and not any(name.startswith(p + ".") for p in with_submodules)]
    assert missing == []


def test_a_broken_link_fails_the_build(tmp_path):
    """The control: a page linking to a repository file that does not exist,
    and one to a missing anchor, each fail the strict build."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "there.py").write_text("")
    hook = (ROOT / "tools" / "mkdocs_hooks.py").read_text()
    (tmp_path / "hooks.py").write_text(hook)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nhooks: [hooks.py]\nvalidation: {anchors: warn}\n"
        "nav: [index.md]\n")
    good = "# A\n\n[there](../src/there.py) and [a](#a)\n"
    (tmp_path / "docs" / "index.md").write_text(good)
    ok = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert ok.returncode == 0, ok.stderr
    assert "<code>src/there.py</code>" in (tmp_path / "site" / "index.html").read_text()
    for broken in ("[gone](../src/gone.py)", "[b](#no-such-heading)"):
        (tmp_path / "docs" / "index.md").write_text(good + broken + "\n")
        bad = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
        assert bad.returncode != 0 and "WARNING" in bad.stderr, broken


def test_the_docstring_converter_examples():
    """tools/griffe_roles.py is outside the package: its examples run here."""
    import doctest
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_roles", ROOT / "tools" / "griffe_roles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0
    # A bracket in a code span stays; one in prose is escaped; roles become code.
    assert module.to_markdown("`a[0]` and b[1] by :meth:`State.clone`") == \
        "`a[0]` and b\\[1\\] by `State.clone`"


def test_the_getting_started_page_opens_with_the_readmes_two_commands():
    """The site's first page gives the README's two commands, word for word
    (the test command is the one CI runs)."""
    def first_block(text: str) -> str:
        return re.search(r"```bash\n(.*?)```", text, re.S).group(1)

    readme = first_block((ROOT / "README.md").read_text("utf-8"))
    assert readme.count("\n") == 2 and readme.startswith("pip install . && solve c2c")
    assert first_block((DOCS / "index.md").read_text("utf-8")) == readme
