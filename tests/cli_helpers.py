"""Helpers shared by the command-line tests: run `solve` in-process and
check that a refusal is one clean line."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

from solvers.cli.main import main


def run(capsys, *argv, stdin=None, monkeypatch=None):
    """Exit code, stdout and stderr of ``solve ARGV`` (``stdin`` fed as text)."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_error_line(err):
    """The single non-blank line of ``err``; no traceback allowed."""
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@contextlib.contextmanager
def own_session(argv, **kwargs):
    """``argv`` started in a session of its own (stdout dropped, stderr as
    text): yields the process, and kills it and everything it started if
    it is still running at the end of the block (a failed check included)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stderr.close()


def _read_some(master: int, wait: float) -> bytes | None:
    """What the terminal printed within ``wait`` seconds (b"" for nothing),
    or None once it is closed."""
    ready, _, _ = select.select([master], [], [], wait)
    if not ready:
        return b""
    try:
        return os.read(master, 65536)
    except OSError:
        return None


def run_in_terminal(argv: list[str], replies: list[tuple[str, str]], timeout: float = 60.0) -> str:
    """Run ``solve ARGV`` in a pseudo-terminal; for each (pattern, line),
    wait for the pattern in the output, then type the line. The output."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "200", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-c", "from solvers.cli.main import run; run()", *argv],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        for pattern, line in replies:
            while not re.search(pattern.encode(), seen):
                if time.monotonic() > deadline:
                    raise AssertionError(f"timed out waiting for {pattern!r}:\n{seen.decode()[-2000:]}")
                more = _read_some(master, 0.5)
                if more is None:
                    break
                seen += more
            seen += b"\n<<typed>>\n"
            os.write(master, line.encode() + b"\r")
        while proc.poll() is None and time.monotonic() < deadline:
            more = _read_some(master, 0.2)
            if more is None:
                break
            seen += more
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
    return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", seen.decode(errors="replace"))
