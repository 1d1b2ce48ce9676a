"""Every ``>>>`` example of the installed package runs here: the Python
modules of ``solvers``, the compiled kernels (``solvers._core``) and the
command line (``solvers.cli``, installed from ``cli/``). They are found by
importing the installed package, not by collecting files under ``src/``, so
the examples run the same against an editable and a regular install. A
module of an optional extra that is not installed (OpenSpiel) is left out,
and the report header says so (conftest.py).

The pages of the documentation site (``docs/``, mkdocs.yml) run here too:
every ``>>>`` example on a page, the page being one doctest (its examples
share their names, top to bottom), with the lines that open and close a
fenced code block read as blank lines."""

import doctest
import importlib
import importlib.util
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import solvers

# module -> the optional package it needs
_OPTIONAL = {"solvers.interop.openspiel": "pyspiel", "solvers.web.app": "starlette",
             "solvers.envs.aec": "pettingzoo", "solvers.envs.solo": "gymnasium"}


def _modules():
    # solvers._core and solvers.cli live outside src/solvers in the source
    # tree (an editable install maps them), so they are walked by name too.
    seen = set()
    for package in ("solvers", "solvers._core", "solvers.cli"):
        path = importlib.import_module(package).__path__
        for info in pkgutil.walk_packages(path, package + "."):
            need = _OPTIONAL.get(info.name)
            if info.name in seen or (need is not None and importlib.util.find_spec(need) is None):
                continue
            seen.add(info.name)
            yield importlib.import_module(info.name)


def _docstrings():
    finder = doctest.DocTestFinder(exclude_empty=True)
    if True:
        for module in _modules():
            seen = set()
            for test in finder.find(module):
                # Cython lists a docstring twice: as itself and in __test__.
                key = (test.docstring, test.lineno)
                if not test.examples or key in seen:
                    continue
                seen.add(key)
                yield pytest.param(test, id=test.name)


DOCS = Path(__file__).resolve().parents[1] / "docs"
_FENCE = re.compile(r"^\s*(```|~~~)")


def _pages():
    parser = doctest.DocTestParser()
    for page in sorted(DOCS.rglob("*.md")):
        name = page.relative_to(DOCS.parent).as_posix()
        text = "\n".join("" if _FENCE.match(line) else line
                         for line in page.read_text("utf-8").splitlines())
        test = parser.get_doctest(text, {"__name__": name}, name, str(page), 0)
        if test.examples:
            yield pytest.param(test, id=name)


@pytest.mark.parametrize("test", list(_docstrings()) + list(_pages()))
def test_docstring_examples(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)


def test_the_kernels_and_the_package_have_examples_to_run():
    names = {part for p in _docstrings() for part in p.values[0].name.split(".")}
    assert {"c2c", "mcts", "endgame", "toygames", "registry", "game", "tournament"} <= names


def test_the_documentation_pages_have_examples_to_run():
    pages = {p.values[0].name for p in _pages()}
    assert "docs/python.md" in pages


def test_a_fence_closes_an_example_and_a_wrong_output_fails(tmp_path, monkeypatch):
    """A page's example ends at its fence (the closing line is not taken for
    output), and an example whose output is wrong fails (the control)."""
    (tmp_path / "page.md").write_text("```pycon\n>>> 1 + 1\n2\n```\n\n```pycon\n>>> 2 + 2\n5\n```\n")
    monkeypatch.setattr(sys.modules[__name__], "DOCS", tmp_path)
    [param] = list(_pages())
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(param.values[0], out=lambda _: None)
    assert (result.attempted, result.failed) == (2, 1)
