"""Bad input a new user typed (issue 11, items 1-10): every case is one error
line with exit status 2, refused before any work starts; and input that
should be read is read (UTF-8 byte-order marks, typographic apostrophes, the
sheet's three-letter codes)."""

from __future__ import annotations

import inspect
import io
import json
import pickle
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

import solvers
import solvers.engine.session  # noqa: F401  (registers RequestError)
from cli_helpers import one_error_line, run
from solvers.errors import SolversError
from solvers.games.c2c.data import load_map
from solvers.games.c2c.deal import parse_deal, shuffle_deal
from solvers.games.switchbacks.position import state_to_position

MAP = load_map()
NAMES = [l.name for l in MAP.locations]
BINARY = bytes(range(128, 256)) * 4          # no UTF-8 text starts with these bytes
BOM = b"\xef\xbb\xbf"


def a_position() -> dict:
    """A Switchbacks position after the setup deal (seed 3)."""
    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=3)
    state.apply_seeded_chance()
    return state_to_position(state)


def binary_stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# ---------------------------------------------------------------- item 1
@pytest.mark.parametrize("argv", [
    ["switchbacks", "analyse", "{file}"],
    ["switchbacks", "endgame", "{file}"],
    ["switchbacks", "play", "--map", "{file}"],
    ["c2c", "--challenge", "The Alamo", "--map", "{file}"],
    ["c2c", "--deal", "{file}"],
])
def test_a_file_that_is_not_utf8_is_one_line(capsys, tmp_path, argv):
    p = tmp_path / "binary.bin"
    p.write_bytes(BINARY)
    code, out, err = run(capsys, *[a.format(file=p) for a in argv])
    assert code == 2
    assert "not UTF-8 text" in one_error_line(err)


# ---------------------------------------------------------------- item 2
def error_classes(cls=SolversError):
    found = {cls}
    for sub in cls.__subclasses__():
        found |= error_classes(sub)
    return found


EXAMPLES = {
    "SolversError": lambda c: c("a bad input"),
    "IllegalActionError": lambda c: c("'cross Nowhere' is not a legal move here"),
    "UnknownNameError": lambda c: c("location", "Hollywod", NAMES),
    "RequestError": lambda c: c("bad_request", "'time' should be seconds"),
    "Cancelled": lambda c: c("the review was cancelled"),
}


def test_every_error_class_has_an_example():
    assert {c.__name__ for c in error_classes()} <= set(EXAMPLES), \
        "a new SolversError subclass: add it to EXAMPLES"


@pytest.mark.parametrize("cls", sorted(error_classes(), key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_every_error_survives_pickling(cls):
    error = EXAMPLES[cls.__name__](cls)
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is cls
    assert str(back) == str(error)
    assert back.__dict__ == error.__dict__
    assert isinstance(back, SolversError)


def _raise_unknown(name: str) -> None:
    MAP.location(name)


def test_an_error_raised_in_a_worker_comes_back_as_itself():
    with ProcessPoolExecutor(max_workers=1) as pool:
        with pytest.raises(solvers.UnknownNameError, match="Hollywood"):
            pool.submit(_raise_unknown, "Hollywod").result()


@pytest.mark.parametrize("argv", [
    ["c2c", "--challenge", "The Alamo", "--online", "bogus", "--shuffles", "2", "--workers", "2"],
    ["c2c", "--all-challenges", "--online", "mcts:iterations=0", "--shuffles", "1"],
    ["c2c", "--challenge", "The Alamo", "--online", "mcts:colour=2", "--shuffles", "2"],
    ["tournament", "c2c", "--agents", "mcts,bogus", "--workers", "2"],
])
def test_a_bad_agent_spec_is_refused_before_any_work(capsys, argv):
    start = time.perf_counter()
    code, out, err = run(capsys, *argv)
    assert code == 2
    one_error_line(err)
    assert time.perf_counter() - start < 5     # no CP-SAT, no games played


# ---------------------------------------------------------------- item 3
@pytest.mark.parametrize("target,needle", [
    ("notes.txt", "cannot draw a 'txt' file"),
    ("notes", "give the file an ending"),
    ("missing-folder/plot.png", "does not exist"),
])
def test_plot_path_is_checked_before_the_computation(capsys, tmp_path, target, needle):
    pytest.importorskip("matplotlib")
    start = time.perf_counter()
    code, _, err = run(capsys, "c2c", "--all-challenges", "--plot", tmp_path / target,
                       "--shuffles", "1")
    assert code == 2
    assert needle in one_error_line(err)
    assert time.perf_counter() - start < 5     # refused before 32 challenges are solved


def test_plot_extra_is_spelt_as_in_the_readme(monkeypatch, capsys, tmp_path):
    import builtins

    real = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    code, _, err = run(capsys, "c2c", "--all-challenges", "--plot", tmp_path / "p.png")
    assert code == 2
    assert 'pip install ".[plot]"' in one_error_line(err)
    readme = (__import__("pathlib").Path(__file__).parents[1] / "README.md").read_text()
    assert 'pip install ".[plot]"' in readme


# ---------------------------------------------------------------- item 4
@pytest.mark.parametrize("argv", [
    ["switchbacks", "analyse", "{pos}", "--time", "0"],
    ["switchbacks", "analyse", "{pos}", "--time", "-1"],
    ["switchbacks", "analyse", "{pos}", "--iterations", "0"],
    ["switchbacks", "analyse", "{pos}", "--ai", "mcts:time=0"],
    ["switchbacks", "play", "--time", "0"],
    ["switchbacks", "play", "--ai", "mcts:time=0"],
    ["c2c", "play", "--ai", "mcts:time=0"],
    ["c2c", "play", "--ai", "mcts:iterations=0"],
    ["c2c", "--challenge", "The Alamo", "--online", "mcts:time=0"],
    ["c2c", "--challenge", "The Alamo", "--shuffles", "0"],
    ["c2c", "--challenge", "The Alamo", "--time-limit", "0"],
    ["tournament", "switchbacks", "--agents", "mcts:time=0,greedy"],
    ["tournament", "switchbacks", "--agents", "mcts,greedy", "--games", "0"],
    ["tournament", "switchbacks", "--agents", "openspiel:time=0,greedy"],
])
def test_an_empty_budget_is_refused(capsys, tmp_path, argv):
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(a_position()))
    code, out, err = run(capsys, *[a.format(pos=pos) for a in argv])
    assert code == 2
    one_error_line(err)
    assert "0.000" not in out


def test_the_library_refuses_a_zero_time_too():
    game = solvers.load_game("switchbacks", 2)
    with pytest.raises(SolversError, match="more than 0"):
        solvers.load_agent("mcts", game, time=0)
    from solvers.search import mcts_search

    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    with pytest.raises(SolversError, match="more than 0"):
        mcts_search(state, time=0)


# ---------------------------------------------------------- items 5 and 6
def test_binary_deal_on_stdin_is_not_utf8(capsys, monkeypatch):
    binary_stdin(monkeypatch, BINARY)
    code, out, err = run(capsys, "c2c", "--deal", "-")
    assert code == 2
    assert one_error_line(err) == "solve: error: deal file stdin: not UTF-8 text"


def test_text_deal_on_stdin_still_reads(capsys, monkeypatch):
    # Only 3 cards: read correctly, then refused for the count (no solver run).
    binary_stdin(monkeypatch, BOM + "\n".join(NAMES[:3]).encode())
    code, out, err = run(capsys, "c2c", "--deal", "-")
    assert code == 2
    assert "3 cards listed" in one_error_line(err)


@pytest.mark.parametrize("command", ["analyse", "endgame"])
def test_position_file_with_a_byte_order_mark(capsys, tmp_path, command):
    pos = a_position()
    p = tmp_path / "pos.json"
    p.write_bytes(BOM + json.dumps(pos).encode())
    extra = ["--iterations", "50", "--json"] if command == "analyse" else ["--max-nodes", "10", "--json"]
    code, out, err = run(capsys, "switchbacks", command, p, *extra)
    # analyse runs; endgame reads the file and then gives up on the node budget
    if command == "analyse":
        assert code == 0, err
        assert json.loads(out)["to_move"] == pos["to_move"]
    else:
        assert code == 2 and "too large: 10 nodes searched" in one_error_line(err)


def test_map_file_with_a_byte_order_mark(capsys, tmp_path):
    p = tmp_path / "map.json"
    p.write_bytes(BOM + json.dumps(MAP.to_json()).encode())
    assert load_map(str(p)).n == MAP.n


# ----------------------------------------------------------------- item 7
def test_deal_file_with_bom_codes_and_typographic_apostrophes(tmp_path):
    from solvers.data import read_text

    deal = shuffle_deal(None, seed=4)
    lines = []
    for i, c in enumerate(deal):
        name = NAMES[c]
        if i % 3 == 0:                                   # the legend's code
            lines.append(MAP.codes[c].lower() if i % 2 else MAP.codes[c])
        else:                                            # typographic apostrophes
            lines.append(name.replace("'", "\u2019"))
    p = tmp_path / "deal.txt"
    p.write_bytes(BOM + "\n".join(lines).encode("utf-8"))
    assert parse_deal(read_text(p, "deal file").splitlines(), MAP) == deal


def test_codes_are_the_legend_of_the_drawn_sheet():
    from solvers.cli.render_c2c import draw_sheet

    legend = draw_sheet(MAP, set()).split("[ABC] circled")[1]
    for loc in MAP.locations:
        code = MAP.codes[loc.id]
        assert f"{code} {loc.name}" in legend
        assert MAP.location(code) == loc
        assert MAP.location(code.lower()) == loc
    assert len(set(MAP.codes.values())) == MAP.n


def test_typographic_apostrophe_in_a_challenge_name(capsys):
    # "Pike’s Peak" is found (then --csv without --all-challenges is refused:
    # nothing is computed, but the name was read first by the map).
    assert MAP.location("Pike\u2018s Peak").name == "Pike's Peak"
    code, _, err = run(capsys, "c2c", "play", "--challenge", "Pike\u2019s Peek", "--seed", "1")
    assert code == 2
    assert "Pike's Peak" in one_error_line(err)


# ----------------------------------------------------------------- item 8
def test_csv_and_json_together_are_refused(capsys):
    code, out, err = run(capsys, "c2c", "--all-challenges", "--csv", "--json")
    assert code == 2
    assert "--csv and --json" in one_error_line(err)
    assert out == ""


# ----------------------------------------------------------------- item 9
@pytest.mark.parametrize("argv", [
    ["c2c", "--challenge", "The Alamo", "--shuffles", "99999999999999999999"],
    ["c2c", "--all-challenges", "--shuffles", "100001"],
    ["tournament", "switchbacks", "--agents", "mcts,greedy", "--games", "99999999999"],
    ["switchbacks", "analyse", "pos.json", "--iterations", "99999999999999"],
    ["switchbacks", "endgame", "pos.json", "--samples", "99999999999"],
])
def test_absurd_counts_are_refused(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    line = one_error_line(err)
    assert "range" in line or "between" in line or "<=" in line or " to " in line, line


# ---------------------------------------------------------------- item 10
def test_one_agent_for_a_two_player_tournament(capsys):
    code, _, err = run(capsys, "tournament", "switchbacks", "--agents", "greedy")
    assert code == 2
    line = one_error_line(err)
    assert "takes 2 agents, but 1 agent was given" in line
    assert "2 to 2" not in line


def test_hikers_of_a_player_who_is_not_there(capsys, tmp_path):
    pos = a_position()
    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=3)
    state.apply_seeded_chance()
    explored = next(h for h in range(37) if h != 18 and h not in state.board)
    # Put one explored tile with a hiker of player 5 on the map.
    tile = pos["hands"][0].pop()
    pos["map"][str(explored)] = tile
    pos["hikers"] = [{"hex": explored, "player": 5, "kind": "solo"}]
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(pos))
    code, _, err = run(capsys, "switchbacks", "analyse", p)
    assert code == 2
    assert "hikers[0] belong to player 5, but a 2-player game has players 0 to 1" in one_error_line(err)


@pytest.mark.parametrize("content", [
    {"game": "c2c", "players": 1, "options": {"challenge": "The Alamo"}, "seed": 3, "moves": []},
    {"challenge": "The Alamo", "required": [], "best_score": 116},
])
@pytest.mark.parametrize("command", ["analyse", "endgame"])
def test_a_coast_to_coast_file_is_not_a_switchbacks_position(capsys, tmp_path, content, command):
    p = tmp_path / "c2c.json"
    p.write_text(json.dumps(content))
    code, _, err = run(capsys, "switchbacks", command, p)
    assert code == 2
    line = one_error_line(err)
    assert "not a Switchbacks position" in line
    assert "unknown key" not in line


def test_plural_everywhere():
    from solvers.cli.common import plural

    assert [plural(n, "tile") for n in (0, 1, 2)] == ["0 tiles", "1 tile", "2 tiles"]
    src = inspect.getsource(__import__("solvers.cli.switchbacks", fromlist=["x"]))
    assert " tiles\")" not in src and "} tiles" not in src


# ------------------------------------------------- second pass, same kind
def test_a_json_file_is_not_a_deal_file(capsys, tmp_path):
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(a_position()))
    code, _, err = run(capsys, "c2c", "--deal", p)
    assert code == 2
    assert "looks like JSON" in one_error_line(err)


def test_an_unknown_game_lists_the_games(capsys):
    code, _, err = run(capsys, "tournament", "chess", "--agents", "greedy")
    assert code == 2
    line = one_error_line(err)
    for name in solvers.game_names():
        assert name in line
