"""The ``>>>`` examples that ``--doctest-modules`` cannot reach: the
compiled kernels (``solvers._core``: pytest collects doctests from ``.py``
files only) and the command line (``solvers.cli``, installed from ``cli/``).
The pure-Python package's examples run through ``--doctest-modules``
(pyproject.toml)."""

import doctest
import importlib
import pkgutil

import pytest

import solvers._core
import solvers.cli


def _docstrings():
    finder = doctest.DocTestFinder(exclude_empty=True)
    for package in (solvers._core, solvers.cli):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
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


def test_the_kernels_have_examples_to_run():
    names = {p.values[0].name.split(".")[2] for p in _docstrings()}
    assert {"c2c", "mcts", "endgame", "toygames"} <= names
