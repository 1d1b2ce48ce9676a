"""Files (issue 27, section 3): every file the library reads is a regular
file of bounded size, read by one reader.

The commands fed an endless or blocking "file" run in subprocesses under a
memory limit and a timeout, so that a regression fails the test instead of
taking the machine down."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cli_helpers import one_error_line, run
from solvers.errors import SolversError
from solvers.files import MAX_FILE_BYTES, read_file, read_stream

ROOT = Path(__file__).resolve().parents[1]
MEMORY_LIMIT = 3 * 1024 ** 3        # bytes of address space for a subprocess
TIMEOUT = 60.0                      # seconds; every refusal takes well under one


def _limited() -> None:
    """preexec_fn: cap the subprocess's memory, so an endless read fails fast."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _run_limited(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                              preexec_fn=_limited, **kwargs)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        pytest.fail(f"{argv[:3]} still running after {TIMEOUT} s; output so far:\n{out}")


@pytest.fixture
def bad_files(tmp_path):
    """Things that are not a user's file, by name: devices that never end,
    a named pipe nobody writes to, a folder, and a regular file one byte
    over the limit."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)      # sparse: costs no disk
    folder = tmp_path / "folder.json"
    folder.mkdir()
    return {"/dev/zero": ("/dev/zero", "a device"), "/dev/urandom": ("/dev/urandom", "a device"),
            "fifo": (str(fifo), "a named pipe"), "folder": (str(folder), "a folder"),
            "big": (str(big), "larger than 4 MiB")}


# ------------------------------------------------------------------ the reader
def test_the_reader_refuses_what_is_not_a_bounded_regular_file(bad_files, tmp_path):
    # In this process only for cases that cannot hang or eat memory once
    # the open and the fstat are right: the subprocess tests cover the rest.
    for name in ("folder", "big"):
        path, words = bad_files[name]
        with pytest.raises(SolversError, match=f"cannot read map file {path}: .*{words}"):
            read_file(path, "map file")
    small = tmp_path / "small.json"
    small.write_bytes(b"x" * 100)
    assert read_file(small, "map file") == b"x" * 100
    with pytest.raises(SolversError, match="larger than 99 bytes"):
        read_file(small, "map file", limit=99)
    assert read_file(small, "map file", limit=100) == b"x" * 100


def test_a_stream_is_read_up_to_the_limit_and_no_further():
    import io

    stream = io.BytesIO(b"y" * 50)
    with pytest.raises(SolversError, match="deal file stdin: larger than 10 bytes"):
        read_stream(stream, "deal file", limit=10)
    assert stream.tell() == 11                    # the rest was never read
    assert read_stream(io.BytesIO(b"abc"), "deal file", limit=3) == b"abc"


def test_deeply_nested_json_is_one_line(capsys, tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 200_000)
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--map", p)
    assert code == 2 and "nested too deeply" in one_error_line(err)


CLI_SCRIPT = textwrap.dedent("""
    # Runs each case through the CLI in this one process (one start-up for
    # all of them); prints one JSON line per case as soon as it is done.
    import contextlib, io, json, sys
    from solvers.cli.main import main

    for case in json.loads(sys.argv[1]):
        if case.get("stdin"):
            sys.stdin = open(case["stdin"], "rb")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(case["argv"])
        print(json.dumps([case["argv"], code, err.getvalue()]), flush=True)
""")


def _cli_cases(bad_files, tmp_path) -> list[tuple[dict, str]]:
    """(case, words of its error) for every command that reads a file."""
    cases = []
    for name, (path, words) in bad_files.items():
        cases.append(({"argv": ["c2c", "--deal", path]}, words))
    fifo = bad_files["fifo"][0]
    zero = "/dev/zero"
    for argv in (["c2c", "--challenge", "The Alamo", "--map", fifo],
                 ["c2c", "play", "--map", fifo],
                 ["c2c", "review", fifo],
                 ["switchbacks", "analyse", fifo], ["switchbacks", "endgame", fifo],
                 ["switchbacks", "play", "--map", fifo],
                 ["bigsur", "score", fifo], ["bigsur", "analyse", fifo],
                 ["bigsur", "play", "--cards", fifo],
                 ["santacruz", "play", "--board", fifo], ["santacruz", "analyse", fifo],
                 ["tournament", "c2c", "--agents", "random", "--map", fifo]):
        cases.append(({"argv": argv}, "a named pipe"))
        cases.append(({"argv": [zero if a == fifo else a for a in argv]}, "a device"))
    # A position that names an island file, which is a pipe.
    position = tmp_path / "santacruz-position.json"
    position.write_text(json.dumps({"players": 2, "seed": 1, "board": fifo, "moves": []}))
    cases.append(({"argv": ["santacruz", "analyse", str(position)]}, "a named pipe"))
    # '-' is standard input: allowed to be a device or a pipe, but bounded.
    for dev in ("/dev/zero", "/dev/urandom"):
        cases.append(({"argv": ["c2c", "--deal", "-"], "stdin": dev}, "larger than 4 MiB"))
    return cases


def test_every_command_refuses_endless_blocking_and_huge_files(bad_files, tmp_path):
    cases = _cli_cases(bad_files, tmp_path)
    proc = _run_limited([sys.executable, "-c", CLI_SCRIPT, json.dumps([c for c, _ in cases])])
    lines = proc.stdout.splitlines()
    assert len(lines) == len(cases), proc.stderr[-2000:]
    for (case, words), line in zip(cases, lines):
        argv, code, err = json.loads(line)
        assert code == 2, (argv, err)
        assert words in one_error_line(err), (argv, err)
        assert "cannot read" in err, (argv, err)


def test_the_engine_refuses_endless_blocking_and_huge_files(bad_files):
    requests, expected = [], []
    for name, (path, words) in bad_files.items():
        requests.append({"cmd": "new", "game": "c2c", "options": {"map": path}})
        expected.append(words)
    fifo = bad_files["fifo"][0]
    for game, option in (("switchbacks", "map"), ("bigsur", "cards"), ("santacruz", "board")):
        for path, words in ((fifo, "a named pipe"), ("/dev/zero", "a device")):
            requests.append({"cmd": "new", "game": game, "options": {option: path}})
            expected.append(words)
    requests.append({"cmd": "position", "position": {"game": "santacruz", "players": 2, "seed": 1,
                                                     "options": {"board": fifo}, "moves": []}})
    expected.append("a named pipe")
    lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(requests))
    lines += json.dumps({"id": "end", "cmd": "quit"}) + "\n"
    proc = _run_limited([sys.executable, "-m", "solvers.cli.main", "engine"], input=lines)
    replies = [json.loads(l) for l in proc.stdout.splitlines()]
    assert len(replies) == len(requests) + 1, proc.stderr[-2000:]
    for i, (reply, words) in enumerate(zip(replies, expected)):
        assert reply["id"] == i
        assert "error" in reply and words in reply["error"]["message"], (requests[i], reply)
    assert replies[-1]["result"] == {"bye": True}
