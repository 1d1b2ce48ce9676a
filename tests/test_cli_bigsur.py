"""`solve bigsur score`: the rulebook's example scores 30, broken down; bad
input is one error line and exit status 2."""

import json
from pathlib import Path

import pytest

from cli_helpers import one_error_line, run
from solvers.data import builtin_json

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "bigsur" / "rulebook-highway.json")


@pytest.fixture
def write(tmp_path):
    def make(data, name="h.json"):
        p = tmp_path / name
        p.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(p)
    return make


def test_rulebook_example_scores_30(capsys):
    code, out, _ = run(capsys, "bigsur", "score", EXAMPLE)
    assert code == 0
    assert "Field (cards 1, 2, 3: 3 + 1 + 2 = 6 miles)" in out
    assert "Mountain (cards 4, 5: 3 + 4 = 7 miles)" in out
    assert "Forest: no Stretch" in out
    assert out.split()[-1] == "30"


def test_json_breakdown(capsys):
    code, out, _ = run(capsys, "bigsur", "score", EXAMPLE, "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 30
    got = {(s["scenery"], s["miles"], tuple(s["positions"])) for s in data["stretches"]}
    assert got == {("field", 6, (1, 2, 3)), ("ocean", 6, (2, 3, 4)), ("mountain", 7, (4, 5))}
    assert [b["points"] for b in data["bonuses"]] == [4]
    assert data["landmarks"]["count"] == 1 and data["landmarks"]["points"] == 3


def test_cards_by_number_from_the_card_file(capsys, write):
    cards = builtin_json("big_sur.json")["highway"]
    ocean = [c["number"] for c in cards if c["scenery"].count("ocean") == 1][:3]
    miles = sum(c["miles"] for c in cards if c["number"] in ocean)
    path = write({"highway": ocean[:2] + [{"card": ocean[2], "landmark": "Point Sur Lighthouse"}]})
    code, out, _ = run(capsys, "bigsur", "score", path, "--json")
    data = json.loads(out)
    assert code == 0
    assert {(s["scenery"], s["miles"]) for s in data["stretches"]} >= {("ocean", miles)}
    assert data["landmarks"]["abilities"] == [
        {"position": 3, "name": "Point Sur Lighthouse", "text": "Score 3 points.", "points": 3}]


@pytest.mark.parametrize("content, words", [
    ({"highway": [70]}, "no Highway card 70"),
    ({"highway": [4, 9, 4]}, "already card 1"),
    ({"highway": [{"scenery": ["ocean", "field"], "miles": 2, "landmark": "McWay Falls"}]},
     "not in a qualifying Stretch"),
    ({"highway": [{"scenery": ["ocean", "field"], "miles": 5}]}, "'miles' should be"),
    ({"highway": [{"scenery": ["ocean", "field"], "miles": 1, "bonus": {"kind": "stretches", "points": 1}}]},
     "only 2-mile cards"),
    ({"road": []}, "a list 'highway'"),
    ("{oops", "not valid JSON"),
])
def test_bad_input_is_one_line(capsys, write, content, words):
    code, _, err = run(capsys, "bigsur", "score", write(content))
    line = one_error_line(err)
    assert code == 2 and words in line, line


def test_missing_file_and_bad_card_file(capsys, write, tmp_path):
    code, _, err = run(capsys, "bigsur", "score", str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in one_error_line(err)
    code, _, err = run(capsys, "bigsur", "score", EXAMPLE, "--cards", write({"schema": 2}, "c.json"))
    assert code == 2 and "card file" in one_error_line(err)


def test_a_users_card_file(capsys, write):
    raw = builtin_json("big_sur.json")
    raw["landmarks"][2]["name"] = "Point Sur Light"
    cards = write(raw, "cards.json")
    ocean = [c["number"] for c in raw["highway"] if c["scenery"].count("ocean") == 1][:3]
    path = write({"highway": ocean[:2] + [{"card": ocean[2], "landmark": "Point Sur Light"}]})
    code, out, _ = run(capsys, "bigsur", "score", path, "--cards", cards, "--json")
    assert code == 0 and json.loads(out)["landmarks"]["placed"][0]["name"] == "Point Sur Light"
    code, _, err = run(capsys, "bigsur", "score", path)  # not a name in the built-in set
    assert code == 2 and "Point Sur Light" in one_error_line(err)


# ------------------------------------------------------------- play
def test_play_a_whole_game_from_scripted_input(capsys, monkeypatch):
    # Bad input first (answered with the help line), then always the first move.
    script = "foo\nmoves\ntable\n" + "1\n" * 400
    code, out, err = run(capsys, "bigsur", "play", "--ai", "mcts:iterations=20", "--seed", "4",
                         "--no-color", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "'foo' is not a legal move" in out
    assert "Depot:" in out and "Landmarks:" in out and "Your hand (2):" in out
    assert "Final scores: you:" in out
    assert "you: take" in out and "player 1: " in out


def test_play_quit_and_bad_options(capsys, monkeypatch, write):
    code, out, _ = run(capsys, "bigsur", "play", "--ai", "random", "--seed", "1", "--players", "3",
                       stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and "Game abandoned." in out
    code, _, err = run(capsys, "bigsur", "play", "--ai", "wizard", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 2 and "wizard" in one_error_line(err)
    code, _, err = run(capsys, "bigsur", "play", "--cards", write("[]", "c.json"), stdin="quit\n",
                       monkeypatch=monkeypatch)
    assert code == 2 and "card file" in one_error_line(err)


def test_parse_move_short_forms():
    from solvers.cli.bigsur import parse_move
    from solvers.errors import SolversError
    from solvers.games.bigsur.kernel import BigSurKernel

    state = BigSurKernel(2).new_initial_state(seed=5)
    state.apply_seeded_chance()
    assert parse_move(state, "draw") == state.game.DRAW
    card = min(state.depot)
    assert parse_move(state, f"Take {card} from the  depot") == card - 1
    with pytest.raises(SolversError, match="not a legal move"):
        parse_move(state, "end")      # two cards must be taken first


# ------------------------------------------------------------- analyse
def test_analyse_ranks_legal_moves(capsys, write):
    from solvers.games.bigsur.position import state_to_position
    from solvers.games.bigsur.reference import BigSur

    state = BigSur(2).new_initial_state(seed=6)
    state.apply_seeded_chance()
    path = write(state_to_position(state), "pos.json")
    code, out, err = run(capsys, "bigsur", "analyse", path, "--iterations", "200", "--json")
    assert code == 0, err
    data = json.loads(out)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert data["to_move"] == 0 and data["legal_moves"] == len(legal)
    assert {m["move"] for m in data["moves"]} <= legal
    code, out, _ = run(capsys, "bigsur", "analyse", path, "--iterations", "50", "--top", "3")
    assert code == 0 and "Player 0 to move" in out


def test_analyse_bad_position_is_one_line(capsys, write):
    code, _, err = run(capsys, "bigsur", "analyse", write({"players": 2}, "pos.json"))
    assert code == 2 and "position" in one_error_line(err)
