"""Files (issue 27, section 3): every file the library reads is a regular
file of bounded size, read by one reader; every file the command line
writes is checked before any work and written whole or not at all.

The commands fed an endless or blocking "file" run in subprocesses under a
memory limit and a timeout, so that a regression fails the test instead of
taking the machine down."""

from __future__ import annotations

import io
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
from solvers.files import MAX_FILE_BYTES, check_output_path, read_file, read_stream, write_atomic

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


# ------------------------------------------------------------------ writing
def test_an_output_path_is_checked_for_real(tmp_path):
    assert check_output_path(tmp_path / "a.json", "--save") == str(tmp_path / "a.json")
    for path, words in ((tmp_path / "no" / "a.json", "does not exist"),
                        (tmp_path, "is a folder"),
                        ("/proc/x.png", "cannot write in the folder /proc"),
                        ("/dev/null", "is not a regular file")):
        with pytest.raises(SolversError, match=words):
            check_output_path(path, "--save")
    assert list(tmp_path.iterdir()) == []          # the probe file is gone


def test_a_failed_write_leaves_the_old_file_whole(tmp_path):
    target = tmp_path / "g.json"
    target.write_text("the old game\n")

    def half_then_fail(f):
        f.write(b"half a ")
        raise OSError(28, "No space left on device")

    with pytest.raises(SolversError, match="cannot write game file .*No space left on device"):
        write_atomic(target, half_then_fail, "game file")
    assert target.read_text() == "the old game\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]     # no temporary left
    assert write_atomic(target, "new\n", "game file") == str(target)
    assert target.read_text() == "new\n"
    with pytest.raises(FileExistsError):
        write_atomic(target, "newer\n", "game file", replace=False)
    assert target.read_text() == "new\n"


def test_written_files_get_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "new.json", "{}\n")
        kept = tmp_path / "kept.json"
        kept.write_text("")
        os.chmod(kept, 0o600)
        write_atomic(kept, "{}\n")
    finally:
        os.umask(old)
    assert (tmp_path / "new.json").stat().st_mode & 0o777 == 0o644
    assert kept.stat().st_mode & 0o777 == 0o600


# ------------------------------------------------------------------ saving a game
def test_an_abandoned_game_does_not_replace_a_finished_one(capsys, monkeypatch, tmp_path):
    finished = (ROOT / "examples" / "c2c-game.json").read_text()
    target = tmp_path / "g.json"
    target.write_text(finished)
    code, out, _ = run(capsys, "c2c", "play", "--seed", "1", "--save", target, stdin="",
                       monkeypatch=monkeypatch)
    assert code == 0
    assert target.read_text() == finished
    side = tmp_path / "g-unfinished.json"
    assert f"Game saved to {side}" in out and "g.json exists" in out
    assert len(json.loads(side.read_text())["steps"]) == 4          # the setup deal only
    # Again: the next free name, never one that exists.
    code, out, _ = run(capsys, "c2c", "play", "--seed", "1", "--save", target, stdin="",
                       monkeypatch=monkeypatch)
    assert f"Game saved to {tmp_path / 'g-unfinished-2.json'}" in out
    assert target.read_text() == finished
    # Where no file is, the abandoned game goes to the name given.
    fresh = tmp_path / "fresh.json"
    code, out, _ = run(capsys, "c2c", "play", "--seed", "1", "--save", fresh, stdin="",
                       monkeypatch=monkeypatch)
    assert f"Game saved to {fresh}" in out and len(json.loads(fresh.read_text())["steps"]) == 4


@pytest.mark.parametrize("target,words", [
    ("/nonexistent/x.json", "the folder /nonexistent does not exist"),
    ("/proc/x.json", "cannot write in the folder /proc"),
])
def test_a_save_path_is_checked_before_the_game(capsys, monkeypatch, target, words):
    code, out, err = run(capsys, "c2c", "play", "--seed", "1", "--save", target, stdin="quit\n",
                         monkeypatch=monkeypatch)
    assert "Coast to Coast, seed" not in out                # no game was started
    assert code == 2
    assert words in one_error_line(err)


def test_switchbacks_save_asks_before_replacing_a_file_it_did_not_write(capsys, monkeypatch,
                                                                        tmp_path):
    other = tmp_path / "notes.json"
    other.write_text("mine\n")
    mine = tmp_path / "pos.json"
    typed = (f"save {other}\n\n"              # exists: asked, Enter says no
             f"save {mine}\nsave {mine}\n"     # this game's own file: replaced without asking
             f"save {tmp_path / 'none' / 'x.json'}\nquit\n")
    code, out, _ = run(capsys, "switchbacks", "play", "--seed", "2", "--ai", "random",
                       "--no-color", stdin=typed, monkeypatch=monkeypatch)
    assert code == 0
    assert other.read_text() == "mine\n"
    assert "exists: replace it?" in out and "Not saved." in out
    assert out.count(f"Saved to {mine}") == 2
    assert json.loads(mine.read_text())["players"] == 2
    assert "does not exist" in out


# ------------------------------------------------------------------ the plot
def _quick_reports(monkeypatch, during=None):
    """Make --all-challenges cheap: each challenge's report is made up on
    the spot (``during()`` runs with the first one)."""
    import solvers.cli.c2c as c2c_cli

    def fake(m, ch, *args, **kwargs):
        if during is not None and ch == 0:
            during()
        return {"challenge": m.locations[ch].name, "required_count": 16, "feasible": True,
                "best_score": 100 + ch, "ceiling": {"rate": 0.5, "ci95": [0.4, 0.6]},
                "online": {"rate": 0.25, "ci95": [0.2, 0.3], "agent": "mcts:iterations=2000"}}

    monkeypatch.setattr(c2c_cli, "challenge_report", fake)


def test_an_unwritable_plot_is_refused_before_any_work(capsys, monkeypatch):
    pytest.importorskip("matplotlib")

    def no_work(*args, **kwargs):
        raise AssertionError("the challenges were computed before the --plot path was checked")

    monkeypatch.setattr("solvers.cli.c2c.challenge_report", no_work)
    code, _, err = run(capsys, "c2c", "--all-challenges", "--plot", "/proc/x.png", "--shuffles", "1")
    assert code == 2
    assert "--plot /proc/x.png: cannot write in the folder /proc" in one_error_line(err)


@pytest.mark.parametrize("fmt", [[], ["--csv"], ["--json"]])
def test_the_table_is_printed_even_when_the_plot_cannot_be_written(capsys, monkeypatch, tmp_path,
                                                                   fmt):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "plots"
    folder.mkdir()
    _quick_reports(monkeypatch, during=folder.rmdir)     # the folder goes away mid-run
    code, out, err = run(capsys, "c2c", "--all-challenges", "--plot", folder / "p.png",
                         "--shuffles", "1", *fmt)
    assert "Wrigley Field" in out                       # every row is there
    assert out.count("The Alamo") == 1
    assert code == 2
    assert "cannot write plot" in one_error_line(err)


def test_a_plot_is_written_whole(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    _quick_reports(monkeypatch)
    target = tmp_path / "p.svg"
    code, out, err = run(capsys, "c2c", "--all-challenges", "--plot", target, "--shuffles", "1",
                         "--csv")
    assert code == 0, err
    assert target.read_text().rstrip().endswith("</svg>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.svg"]


def test_a_read_only_file_and_a_link_are_treated_as_open_would(tmp_path, monkeypatch):
    target = tmp_path / "real.json"
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert write_atomic(link, "new\n") == str(target)
    assert link.is_symlink() and target.read_text() == "new\n"      # written through
    os.chmod(target, 0o444)
    if os.geteuid() == 0:          # root may write any file: pretend to be a user
        monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK)
    with pytest.raises(SolversError, match="read-only"):
        check_output_path(target, "--save")     # a rename would replace it all the same


class _Terminal(io.StringIO):
    """Typed input that claims to come from a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_end_of_game_offer_asks_before_replacing(capsys, monkeypatch, tmp_path):
    finished = tmp_path / "finished.json"
    finished.write_text("a finished game\n")
    typed = "\n".join(["quit",                              # abandon at once
                       str(tmp_path / "no" / "x.json"),    # no such folder: asked again
                       str(finished), "",                  # exists: Enter keeps it
                       str(tmp_path / "new.json")]) + "\n"
    monkeypatch.setattr("sys.stdin", _Terminal(typed))
    code, out, _ = run(capsys, "c2c", "play", "--seed", "1")
    assert code == 0
    assert "does not exist" in out and "exists: replace it?" in out
    assert finished.read_text() == "a finished game\n"
    assert f"Game saved to {tmp_path / 'new.json'}" in out
    assert len(json.loads((tmp_path / "new.json").read_text())["steps"]) == 4


@pytest.mark.parametrize("failure,status", [(KeyboardInterrupt, 130),
                                            (lambda: SolversError("the AI gave up"), 2)])
def test_a_game_cut_short_by_an_error_is_still_saved(capsys, monkeypatch, tmp_path, failure,
                                                     status):
    from solvers.cli.verbs import Play

    calls = []

    def ask_then_fail(self):
        calls.append(1)
        if len(calls) == 2:
            raise failure()
        return self.state.legal_actions()[0]

    monkeypatch.setattr(Play, "decide", ask_then_fail)
    target = tmp_path / "g.json"
    code, out, err = run(capsys, "c2c", "play", "--seed", "1", "--ai", "random", "--save", target)
    assert code == status and f"Game saved to {target}" in out
    moves = [s["move"] for s in json.loads(target.read_text())["steps"]]
    # the setup deal, the one move made, and the deal of round 1
    assert len(moves) == 9 and moves[4].startswith("cross ")
