"""A Griffe extension for the documentation site (mkdocs.yml).

The docstrings are written as plain text, to be read by ``help()``; the API
reference renders them as Markdown. So that they say the same there:

* a Sphinx role (``:func:`load_game```) becomes a code span;
* a ``>>>`` example becomes a fenced code block (Markdown would run it into
  the paragraph);
* a square bracket in prose is escaped (Markdown would take
  ``moves[0]["move"]`` for a link to a reference named ``"move"``).

The compiled kernels (``solvers._core``) have no Python source to read, and
an editable install keeps them outside ``src/solvers``: any Griffe has not
found are added to the ``solvers`` package by importing them, so that
their docstrings reach the API reference too.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:mod|func|class|meth|attr|data|exc|obj):`~?([^`]+)`")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_BRACKET = re.compile(r"(?<!\\)([\[\]])")     # not escaped yet: converting twice changes nothing


def _escape_brackets(line: str) -> str:
    """Square brackets outside code spans, escaped."""
    out, last = [], 0
    for m in _CODE_SPAN.finditer(line):
        out.append(_BRACKET.sub(r"\\\1", line[last:m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_BRACKET.sub(r"\\\1", line[last:]))
    return "".join(out)


def to_markdown(text: str) -> str:
    r"""A plain-text docstring as Markdown that says the same.

    >>> to_markdown("Use :func:`f` on x[0].\n\n>>> f([1])\n2\n\nDone.").split("\n")
    ['Use `f` on x\\[0\\].', '', '```pycon', '>>> f([1])', '2', '```', '', 'Done.']
    >>> once = to_markdown("x[0]\n\n>>> f()\n1")
    >>> to_markdown(once) == once
    True
    >>> to_markdown("Pickled::\n\n    >>> f()\n    1").split("\n")[2:]
    ['    >>> f()', '    1']
    """
    out: list[str] = []
    example = code = fenced = False
    example_indent = ""
    previous_blank = True
    for line in _ROLE.sub(r"`\1`", text).split("\n"):
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if example:
            if stripped:
                out.append(line)
                continue
            out.append(example_indent + "```")
            example = False
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced              # a fence of its own (or of a first pass)
            out.append(line)
        elif fenced:
            out.append(line)
        elif not stripped:
            out.append(line)
        elif len(indent) >= 4 and (previous_blank or code):
            code = True                      # an indented block: code already
            out.append(line)
        elif stripped.startswith(">>>"):
            example, example_indent = True, indent
            out.extend([example_indent + "```pycon", line])
        else:
            code = False
            out.append(_escape_brackets(line))
        previous_blank = not stripped
    if example:
        out.append(example_indent + "```")
    return "\n".join(out)


def _convert(obj: griffe.Object) -> None:
    """The docstrings of an inspected object and of its members, recursively."""
    if obj.docstring is not None:
        obj.docstring.value = to_markdown(obj.docstring.value)
    for member in obj.members.values():
        if not member.is_alias:
            _convert(member)


class SphinxRoles(griffe.Extension):
    """Every docstring as Markdown; the kernels added to ``solvers``."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # An editable install maps src/_core to solvers._core, which Griffe
        # does not see in src/solvers; a regular install has the folder, and
        # Griffe may or may not have read its compiled modules.
        if pkg.path != "solvers":
            return
        if pkg.docstring is not None:        # the root package's own is not an on_object
            pkg.docstring.value = to_markdown(pkg.docstring.value)
        core_py = importlib.import_module("solvers._core")
        if "_core" in pkg.members:
            core = pkg.members["_core"]
        else:
            core = griffe.Module("_core", parent=pkg)
            if core_py.__doc__:
                core.docstring = griffe.Docstring(to_markdown(core_py.__doc__), parent=core)
            pkg.set_member("_core", core)
        for info in pkgutil.iter_modules(core_py.__path__):
            if info.name not in core.members:
                module = griffe.inspect(info.name, parent=core)
                _convert(module)
                core.set_member(info.name, module)
