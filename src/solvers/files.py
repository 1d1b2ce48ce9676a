"""Reading a user's files with a size limit.

Every file the library reads on a user's behalf (deal files, maps, card and
island files, positions, saved games) goes through :func:`read_file`: the
path is opened without blocking (a named pipe with no writer cannot hang the
open), anything but a regular file is refused (a folder, a named pipe, a
device such as ``/dev/zero`` or ``/dev/urandom``), and at most
:data:`MAX_FILE_BYTES` are read: a larger file is refused, it is never read
whole. Standard input, when the user asked for it with ``-``, is read by
:func:`read_stream` under the same limit. Each refusal is one
:class:`~solvers.errors.SolversError` line naming the file.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO, Any

from .errors import SolversError

#: The most bytes a user's file may hold. The largest built-in data file is
#: about 17 kB and a saved game a few kB, so this is far beyond any real
#: file and still small enough to read whole without harm.
MAX_FILE_BYTES = 4 * 1024 * 1024
_CHUNK = 64 * 1024


def _size_text(limit: int) -> str:
    """``limit`` in words: ``4 MiB``, ``10 kiB`` or ``100 bytes``.

    >>> _size_text(4 * 1024 * 1024), _size_text(10 * 1024), _size_text(100)
    ('4 MiB', '10 kiB', '100 bytes')
    """
    for unit, size in (("MiB", 1024 * 1024), ("kiB", 1024)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def _too_large(what: str, source: str, limit: int) -> SolversError:
    return SolversError(f"cannot read {what} {source}: larger than {_size_text(limit)}, "
                        f"the most a {what} may hold")


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_file(path: str | Path, what: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the user's file ``path`` (``what`` names it in errors:
    "deal file"); SolversError, one line, when it cannot be opened, is not a
    regular file, or holds more than ``limit`` bytes.

    >>> read_file("/dev/zero", "deal file")
    Traceback (most recent call last):
    ...
    solvers.errors.SolversError: cannot read deal file /dev/zero: it is a device, not a regular file
    """
    source = str(path)
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_BINARY", 0))
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise SolversError(f"cannot read {what} {source}: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise SolversError(f"cannot read {what} {source}: it is {_kind(mode)}, "
                               "not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        raise SolversError(f"cannot read {what} {source}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    if got > limit:
        raise _too_large(what, source, limit)
    return b"".join(chunks)


def read_stream(stream: IO[Any], what: str, source: str = "stdin",
                limit: int = MAX_FILE_BYTES) -> bytes | str:
    """At most ``limit`` bytes (characters, for a text stream) of a stream
    the user chose to give, such as standard input with ``-``; more is one
    error line, and the rest is never read."""
    try:
        data = stream.read(limit + 1)
    except OSError as e:
        raise SolversError(f"cannot read {what} {source}: {e.strerror or e}") from None
    if len(data) > limit:
        raise _too_large(what, source, limit)
    return data


__all__ = ["MAX_FILE_BYTES", "read_file", "read_stream"]
