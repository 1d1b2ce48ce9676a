"""Every ``>>>`` example of the installed package runs here: the Python
modules of ``solvers``, the compiled kernels (``solvers._core``) and the
command line (``solvers.cli``, installed from ``cli/``). They are found by
importing the installed package, not by collecting files under ``src/``, so
the examples run the same against an editable and a regular install. A
module of an optional extra that is not installed (OpenSpiel) is left out,
and the report header says so (conftest.py)."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import solvers

# module -> the optional package it needs
_OPTIONAL = {"solvers.interop.openspiel": "pyspiel", "solvers.web.app": "starlette"}


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


@pytest.mark.parametrize("test", list(_docstrings()))
def test_docstring_examples(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = []
    result = runner.run(test, out=out.append)
    assert result.failed == 0, "".join(out)


def test_the_kernels_and_the_package_have_examples_to_run():
    names = {part for p in _docstrings() for part in p.values[0].name.split(".")}
    assert {"c2c", "mcts", "endgame", "toygames", "registry", "game", "tournament"} <= names
