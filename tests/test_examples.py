"""The files in examples/ load and do what examples/README.md says; the
README's promises about them hold (issue 11, item 18)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import solvers
from cli_helpers import run
from solvers.data import read_text
from solvers.games.c2c.data import load_map
from solvers.games.c2c.deal import parse_deal, shuffle_deal

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
MAP = load_map()


def test_the_deal_file_is_the_shuffle_it_claims():
    lines = read_text(EXAMPLES / "c2c-deal.txt", "deal file").splitlines()
    alamo = MAP.location("The Alamo").id
    deal = parse_deal(lines, MAP, alamo)
    assert deal == shuffle_deal("The Alamo", seed=3)      # "the same shuffle as c2c-game.json"


def test_the_saved_game_replays():
    from solvers.engine.positions import load_position

    record = json.loads((EXAMPLES / "c2c-game.json").read_text())
    setup, state, moves = load_position(record)
    assert state.is_terminal() and state.challenge_won() is True
    dealt = [m[len("deal "):] for m in moves if m.startswith("deal ")]
    assert [MAP.location(n).id for n in dealt] == shuffle_deal("The Alamo", seed=3)
    # The same moves in the pure-Python rules give the same sheet.
    ref = solvers.load_game("c2c", 1, reference=True, challenge="The Alamo").new_initial_state(seed=3)
    for m in moves:
        ref.apply_action(ref.string_to_action(m))
    assert ref.scores() == state.scores()


def test_the_switchbacks_position_analyses(capsys):
    code, out, err = run(capsys, "switchbacks", "analyse", EXAMPLES / "switchbacks-position.json",
                         "--iterations", "100", "--json")
    assert code == 0, err
    data = json.loads(out)
    raw = json.loads((EXAMPLES / "switchbacks-position.json").read_text())
    assert data["to_move"] == raw["to_move"] == 0


def test_the_switchbacks_endgame_solves_to_the_end(capsys):
    code, out, err = run(capsys, "switchbacks", "endgame", EXAMPLES / "switchbacks-endgame.json",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"] and data["line_scores"] is not None
    # The line's final scores decide the value: the best final sheet wins.
    scores = data["line_scores"]
    best = max(scores)
    assert data["value"] == [(1 / scores.count(best) if s == best else 0.0) for s in scores]


def test_every_example_the_readme_names_exists():
    # The README, examples/README.md and the documentation site's pages.
    pages = [EXAMPLES / "README.md", ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    text = "".join(p.read_text() for p in pages)
    for name in re.findall(r"examples/([\w./-]+)", text):
        assert (EXAMPLES / name).exists(), name


@pytest.mark.parametrize("argv", [
    ["c2c"], ["c2c", "play"], ["switchbacks", "play"], ["switchbacks", "analyse"],
    ["switchbacks", "endgame"], ["tournament"], ["bigsur", "score"], ["santacruz", "play"],
])
def test_every_command_that_makes_a_game_takes_data(capsys, argv):
    code, out, _ = run(capsys, *argv, "--help")
    assert code == 0 and "--data FILE" in out


def test_switchbacks_play_reads_a_map_file(capsys, monkeypatch, tmp_path):
    from solvers.data import builtin_json

    data = builtin_json("switchbacks.json")
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, out, err = run(capsys, "switchbacks", "play", "--map", p, "--ai", "greedy", "--seed", "1",
                         "--no-color", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0, err
    p.write_text(json.dumps({**data, "hexes": []}))
    code, out, err = run(capsys, "switchbacks", "play", "--map", p, "--seed", "1")
    assert code == 2 and str(p) in err


def test_the_position_docstring_example_loads():
    from solvers.games.switchbacks import position

    block = re.search(r"::\n\n(    \{.*?\n    \})", position.__doc__, re.S).group(1)
    state = position.load_position(json.loads(block))
    assert state.current_player() == 0 and len(state.board) == 3
