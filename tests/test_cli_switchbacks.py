"""`solve switchbacks`: bad positions give one error line (exit 2); analyse,
endgame and play work on small budgets."""

import json

import pytest

import solvers
from cli_helpers import one_error_line, run
from solvers.cli.switchbacks import parse_move
from solvers.cli.render_switchbacks import complete_hexes, draw_map
from solvers.games.switchbacks.position import load_position, state_to_position
from solvers.rng import SplitMix64


def near_end(tiles_left, seed):
    """A 2-player game played at random until the hands hold ``tiles_left``
    tiles in all (the stack is empty by then)."""
    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while True:
        state.apply_seeded_chance()
        if state.is_terminal():
            return state
        if state.step == "explore" and sum(len(h) for h in state.hands) <= tiles_left:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])


@pytest.fixture
def position_file(tmp_path):
    def write(data, name="pos.json"):
        p = tmp_path / name
        p.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(p)
    return write


OPENING = {"players": 2, "map": {"18": 20}, "hikers": [],
           "hands": [[1, 2, 3], [4, 5, 6]], "set_aside": [[7, 8], [9, 10]],
           "unplaced": [{"solo": 16, "buddies": 0}, {"solo": 16, "buddies": 0}]}


# ------------------------------------------------------------- bad input
@pytest.mark.parametrize("content,needle", [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"players": 2}', "missing key"),
])
@pytest.mark.parametrize("command", ["analyse", "endgame"])
def test_malformed_position_file(capsys, position_file, content, needle, command):
    code, out, err = run(capsys, "switchbacks", command, position_file(content))
    assert code == 2
    assert needle in one_error_line(err)
    assert out == ""


@pytest.mark.parametrize("change,needle", [
    (lambda d: d["hands"][0].append(4), "twice"),
    (lambda d: d["hands"][1].pop(), "should hold"),
    (lambda d: d["map"].update({"40": 11}), "not a hex id"),
    (lambda d: d.update(players=5), "players"),
    (lambda d: d["hikers"].append({"hex": 18, "player": 0, "kind": "solo"}), "centre"),
])
def test_invalid_position_is_refused(capsys, position_file, change, needle):
    data = json.loads(json.dumps(OPENING))
    change(data)
    code, _, err = run(capsys, "switchbacks", "endgame", position_file(data))
    assert code == 2
    assert needle in one_error_line(err)


def test_missing_position_file(capsys, tmp_path):
    code, _, err = run(capsys, "switchbacks", "analyse", tmp_path / "nope.json")
    assert code == 2
    assert "cannot read" in one_error_line(err)


def test_bad_agent_spec(capsys, position_file):
    code, _, err = run(capsys, "switchbacks", "analyse", position_file(OPENING), "--ai", "mtcs")
    assert code == 2
    assert "mcts" in one_error_line(err)


def test_too_large_endgame_gives_one_line(capsys, position_file):
    code, _, err = run(capsys, "switchbacks", "endgame", position_file(OPENING), "--max-nodes", "1000")
    assert code == 2
    assert "too large: 1000 nodes searched" in one_error_line(err)


# ------------------------------------------------------------- analyse
def test_analyse_json_ranks_legal_moves(capsys, position_file):
    state = near_end(6, seed=11)
    path = position_file(state_to_position(state))
    code, out, err = run(capsys, "switchbacks", "analyse", path, "--iterations", "400", "--top", "5",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["to_move"] == state.current_player()
    assert data["legal_moves"] == len(state.legal_actions())
    moves = data["moves"]
    assert 1 <= len(moves) <= 5
    visits = [m["visits"] for m in moves]
    assert visits == sorted(visits, reverse=True) and sum(visits) > 0
    for m in moves:
        assert m["action"] in state.legal_actions()
        assert m["move"] == state.action_to_string(m["action"])
        assert 0.0 <= m["value"] <= 1.0


def test_analyse_table(capsys, position_file):
    code, out, err = run(capsys, "switchbacks", "analyse", position_file(OPENING), "--iterations",
                         "300")
    assert code == 0, err
    assert "explore" in out and "win share" in out and "[20 ]" in out


# ------------------------------------------------------------- endgame
def test_endgame_json_is_proven_and_consistent(capsys, position_file):
    state = near_end(4, seed=5)
    path = position_file(state_to_position(state))
    code, out, err = run(capsys, "switchbacks", "endgame", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"] is True
    assert abs(sum(data["value"]) - 1.0) < 1e-9
    # The value is that of the best move, and the line starts with it.
    p = data["to_move"]
    best = max(m["value"][p] - m["value"][1 - p] for m in data["moves"])
    assert data["value"][p] - data["value"][1 - p] == pytest.approx(best)
    assert data["line"][0] == data["best"]
    # Replaying the line (no chance left: the stack is empty) ends the game
    # with returns equal to the proven value.
    st = load_position(path)
    for words in data["line"]:
        st.apply_action(st.string_to_action(words))
    assert st.is_terminal()
    assert st.returns() == pytest.approx(data["value"])
    assert data["line_scores"] == st.scores()


def test_endgame_text_and_sampled(capsys, position_file):
    path = position_file(state_to_position(near_end(4, seed=8)))
    code, out, _ = run(capsys, "switchbacks", "endgame", path)
    assert code == 0 and "Best move" in out and "proven" in out
    code, out, _ = run(capsys, "switchbacks", "endgame", path, "--samples", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is False and all(m["samples"] == 3 for m in data["moves"])


@pytest.mark.parametrize("seed", [0, 2])
def test_endgame_text_lists_the_moves_as_the_json_ranks_them(capsys, position_file, seed):
    # Seed 0: every one of the 16 moves is worth the same; seed 2: three
    # different values. The text says so, or lists the first ten of the
    # JSON's ranking with their values and how many it leaves out.
    path = position_file(state_to_position(near_end(4, seed)))
    code, out, err = run(capsys, "switchbacks", "endgame", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    values = [m["value"][data["to_move"]] for m in data["moves"]]
    assert len(values) == 16
    code, text, err = run(capsys, "switchbacks", "endgame", path)
    assert code == 0, err
    if seed == 0:
        assert len(set(values)) == 1
        assert "All 16 moves have this value" in text
        assert "explore" not in text.split("Best line:")[1].split("\n", 1)[1]
        return
    assert len(set(values)) > 1 and "All 16" not in text
    lines = text.split("best first")[1].splitlines()[1:]
    for m, line in zip(data["moves"][:10], lines[:10], strict=True):
        assert line.split() == [*m["move"].split(), f"{m['value'][data['to_move']]:.3f}"]
    assert lines[10].strip() == "... and 6 more moves (--json lists every one)"


# ------------------------------------------------------------- play
def test_play_a_whole_game_from_scripted_input(capsys, monkeypatch):
    # Bad input first (answered with a hint line), then always the first
    # listed move.
    script = "99 1\nfoo\nmoves\n" + "1\n" * 80
    code, out, err = run(capsys, "switchbacks", "play", "--ai", "mcts:iterations=30", "--seed", "4",
                         "--no-color", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "tile 99 is not in your hand" in out
    assert "'foo' is not a legal move" in out
    assert "Final scores: you:" in out
    assert "you: explore" in out and "player 1 (b): explore" in out


def test_play_quit(capsys, monkeypatch):
    code, out, _ = run(capsys, "switchbacks", "play", "--ai", "random", "--seed", "1", "--players", "3",
                       stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and "Game abandoned." in out


def test_parse_move_shorthand():
    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=5)
    state.apply_seeded_chance()
    tile = min(state.hands[0])
    assert parse_move(state, f"{tile} 3") == state.game.explore_action(tile, 3)
    assert parse_move(state, f"explore {tile} on hex 4") == state.game.explore_action(tile, 4)
    with pytest.raises(solvers.SolversError, match="already explored"):
        parse_move(state, f"{tile} 18")


def test_map_drawing_marks_hikers_and_paths():
    state = near_end(0, seed=3)
    text = draw_map(state, color=False)
    assert len(text.splitlines()) == 7
    for h, t in state.board.items():
        assert f"{t:>2}" in text
    for h, (owner, count) in state.hikers.items():
        mark = "ab"[owner].upper() if count == 2 else "ab"[owner]
        assert f"[{state.board[h]:>2}{mark}]" in text
    # The complete paths are exactly the hexes that score.
    complete = complete_hexes(state)
    scored = [0, 0]
    for h, (owner, count) in state.hikers.items():
        if h in complete:
            scored[owner] += count
    assert scored == state.scores()
