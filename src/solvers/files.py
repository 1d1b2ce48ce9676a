"""Reading a user's files with a size limit, and writing results so that
nothing is lost.

Every file the library reads on a user's behalf (deal files, maps, card and
island files, positions, saved games) goes through :func:`read_file`: the
path is opened without blocking (a named pipe with no writer cannot hang the
open), anything but a regular file is refused (a folder, a named pipe, a
device such as ``/dev/zero`` or ``/dev/urandom``), and at most
:data:`MAX_FILE_BYTES` are read: a larger file is refused, it is never read
whole. Standard input, when the user asked for it with ``-``, is read by
:func:`read_stream` under the same limit. Each refusal is one
:class:`~solvers.errors.SolversError` line naming the file.

Every file the command line writes (a saved game, a saved position, a plot)
is checked first by :func:`check_output_path`, before any work, and then
written by :func:`write_atomic`: to a temporary file in the same folder,
renamed over the target only once it is whole, so that a crash or a full
disk never leaves half a file and never destroys the old one.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable
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


def read_saved_json(path: str | Path, what: str, format: str, version: int,
                    limit: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """The JSON object of a file the library saved (``what``: "tournament
    file") whose ``"format"`` is ``format`` and ``"version"`` is
    ``version``; SolversError "PATH: not a WHAT: why" otherwise, as
    :func:`read_file` for a file it cannot read."""
    def bad(why: str) -> SolversError:
        return SolversError(f"{path}: not a {what}: {why}")

    raw = read_file(path, what, limit=limit)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise bad(f"not JSON ({e})") from None
    if not isinstance(data, dict) or data.get("format") != format:
        raise bad(f"it has no \"format\": \"{format}\"")
    if data.get("version") != version:
        raise bad(f"version {data.get('version')!r}; this library reads {version}")
    return data


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


# ------------------------------------------------------------------ writing
def check_output_path(path: str | Path, what: str) -> str:
    """Refuse, before any work, a file that cannot be written: a folder,
    something that is not a regular file, a folder that does not exist or
    in which a file cannot be created (tried for real: a temporary file is
    made and removed, so that ``/proc`` or a read-only disk is caught even
    for root), or an existing file the user may not write (a rename would
    replace it all the same). ``what`` names the option in the error
    (``--save``). The absolute path (links resolved), on success."""
    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise SolversError(f"{what} {path}: is a folder; name a file in it")
    if os.path.lexists(target) and not os.path.isfile(target):
        raise SolversError(f"{what} {path}: is not a regular file")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise SolversError(f"{what} {path}: the file is read-only")
    if not os.path.isdir(folder):
        raise SolversError(f"{what} {path}: the folder {folder} does not exist")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".solvers-", suffix=".tmp")
    except OSError as e:
        raise SolversError(f"{what} {path}: cannot write in the folder {folder} "
                           f"({e.strerror or e})") from None
    os.close(fd)
    os.unlink(probe)
    return target


def write_atomic(path: str | Path, data: bytes | str | Callable[[IO[bytes]], None],
                 what: str = "file", replace: bool = True) -> str:
    """Write ``data`` (bytes, text written as UTF-8, or a function that
    writes to a binary file) to ``path`` all at once: into a temporary file
    in the same folder, flushed to disk, then renamed over ``path``. A
    failure at any point leaves ``path`` as it was and no temporary file
    behind; it is one SolversError line. With ``replace=False`` an existing
    ``path`` is never replaced: FileExistsError instead (checked as the file
    is put in place, so another program cannot slip one in between). A
    symbolic link is written through, as ``open`` would, not replaced. The
    absolute path written."""
    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target)
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.",
                                    suffix=".tmp")
    except OSError as e:
        raise SolversError(f"cannot write {what} {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        try:      # the permissions a plain open() would have left
            mode = (stat.S_IMODE(os.stat(target).st_mode) if os.path.isfile(target)
                    else 0o666 & ~_umask())
            os.chmod(temp, mode)
        except OSError:
            pass
        if replace:
            os.replace(temp, target)
        else:
            _publish_new(temp, target)
    except BaseException as e:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(e, FileExistsError) and not replace:
            raise
        if isinstance(e, (OSError, ValueError)):
            raise SolversError(f"cannot write {what} {path}: "
                               f"{getattr(e, 'strerror', None) or e}") from None
        raise
    return target


def _publish_new(temp: str, target: str) -> None:
    """Give the whole file ``temp`` the name ``target`` unless that exists
    (FileExistsError): a hard link fails on an existing name atomically; on
    a file system without hard links, a check just before the rename."""
    try:
        os.link(temp, target)
    except FileExistsError:
        raise
    except OSError:
        if os.path.lexists(target):
            raise FileExistsError(target) from None
        os.replace(temp, target)
        return
    os.unlink(temp)


def _umask() -> int:
    """The process's umask, so that a written file gets the permissions a
    plain ``open`` would have given it (a temporary file is made private).
    Read from ``/proc`` where it can be, since setting it and setting it
    back is not safe while other threads create files."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


__all__ = ["MAX_FILE_BYTES", "read_file", "read_saved_json", "read_stream", "check_output_path", "write_atomic"]
