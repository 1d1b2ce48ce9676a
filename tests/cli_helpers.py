"""Helpers shared by the command-line tests: run `solve` in-process and
check that a refusal is one clean line."""

from __future__ import annotations

import io

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
