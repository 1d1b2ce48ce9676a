"""Game data files (JSON) shipped with the package, and reading a user's own.

Each game's loader checks its schema; this module only reads the text (with
the size limit and the checks of :mod:`solvers.files`) and turns I/O and
JSON errors into one-line :class:`~solvers.errors.SolversError`.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import SolversError
from ..files import read_file, read_stream


def builtin_json(name: str) -> Any:
    """A data file shipped in this package, decoded."""
    return json.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))


def decode_text(data: bytes | str, what: str, source: str) -> str:
    """Text from a user's bytes: UTF-8, with or without a byte-order mark
    (as some editors save it); anything else is one error line::

        >>> decode_text(b"\\xef\\xbb\\xbfHollywood\\n", "deal file", "stdin")
        'Hollywood\\n'
        >>> decode_text(b"\\xff\\xfe", "deal file", "stdin")
        Traceback (most recent call last):
        ...
        solvers.errors.SolversError: deal file stdin: not UTF-8 text
    """
    if isinstance(data, str):
        return data[1:] if data.startswith("\ufeff") else data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SolversError(f"{what} {source}: not UTF-8 text") from None


def read_text(path: str | Path, what: str) -> str:
    """A user's text file (``what`` names it in errors: "deal file"), read
    by :func:`solvers.files.read_file` (a regular file, at most
    :data:`~solvers.files.MAX_FILE_BYTES`) and decoded by :func:`decode_text`."""
    return decode_text(read_file(path, what), what, str(path))


def read_stdin_text(what: str) -> str:
    """Standard input, when the user gave ``-`` for a file, decoded by
    :func:`decode_text` and read under the same size limit as a file."""
    stream = getattr(sys.stdin, "buffer", sys.stdin)   # bytes when stdin has them
    return decode_text(read_stream(stream, what, "stdin"), what, "stdin")


def read_json(path: str | Path, what: str = "map file") -> Any:
    """A user's JSON file, decoded; errors name the file and the place."""
    source = str(path)
    text = read_text(path, what)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SolversError(
            f"{what} {source}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    except RecursionError:
        raise SolversError(f"{what} {source}: JSON nested too deeply to read") from None


#: The version of the data-file formats (maps, card and island files) this
#: release reads.
SCHEMA = 1


def schema_problem(raw: dict[str, Any], required: bool = True) -> str | None:
    """What is wrong with a data file's ``"schema"`` (the version of its
    format), or None. A file of another version is refused rather than
    misread; without the key it is refused when ``required`` (else taken as
    this version, for the formats that did not always have the key)::

        >>> schema_problem({"schema": 99})
        'schema 99 is not known (this version reads schema 1)'
        >>> schema_problem({}, required=False) is None
        True
    """
    if "schema" not in raw:
        return f"missing key 'schema' (this version reads schema {SCHEMA})" if required else None
    value = raw["schema"]
    if isinstance(value, bool) or value != SCHEMA:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        return f"schema {shown} is not known (this version reads schema {SCHEMA})"
    return None
