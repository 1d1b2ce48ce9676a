"""Game data files (JSON) shipped with the package, and reading a user's own.

Each game's loader checks its schema; this module only reads the text and
turns I/O and JSON errors into one-line :class:`~solvers.errors.SolversError`.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import SolversError


def builtin_json(name: str) -> Any:
    """A data file shipped in this package, decoded."""
    return json.loads(resources.files(__name__).joinpath(name).read_text("utf-8"))


def read_text(path: str | Path, what: str) -> str:
    """A user's text file (``what`` names it in errors: "deal file")."""
    try:
        return Path(path).read_text("utf-8")
    except OSError as e:
        raise SolversError(f"cannot read {what} {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SolversError(f"{what} {path}: not UTF-8 text") from None


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
