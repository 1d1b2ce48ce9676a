"""`solve santacruz`: positions (replayed records), bad input as one error
line with exit 2, analyse and play on small budgets."""

import json
import random

import pytest

from cli_helpers import one_error_line, run
from solvers.cli.santacruz import parse_move
from solvers.errors import SolversError
from solvers.games.santacruz.kernel import SantaCruzKernel
from solvers.games.santacruz.position import load_position, parse_position, state_to_position


def played(players, seed, moves):
    state = SantaCruzKernel(players).new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state.apply_seeded_chance()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    state.apply_seeded_chance()
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_round_trip(players):
    state = played(players, players, 80)
    data = json.loads(json.dumps(state_to_position(state)))
    again = parse_position(data)
    ref = parse_position(data, reference=True)
    for q in range(players):
        assert again.information_state(q) == state.information_state(q)
        assert ref.information_state(q) == state.information_state(q)
    assert again.legal_actions() == state.legal_actions()


def test_a_position_may_leave_chance_to_the_seed_or_write_it():
    state = parse_position({"players": 2, "seed": 9, "moves": []})
    assert state.step == "choose"
    first_tile = state_to_position(state)["moves"][0]
    g = state.game
    # write the first tile as another coast tile: the replay follows the file
    other = next(t for t in g.island.tiles_of("coast") if g.TILE + t != first_tile)
    words = f"lay {g.island.tiles[other].describe()} on site 0"
    written = parse_position({"players": 2, "seed": 9, "moves": [words]})
    assert g.island.tiles[written.site_tile[0]].describe() == g.island.tiles[other].describe()


BAD = [
    ("{not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"players": 2}', "missing key 'seed'"),
    ('{"players": 5, "seed": 1}', "2, 3 or 4 players"),
    ('{"players": 2, "seed": 1, "moves": ["fly to the moon"]}', "move 1"),
    ('{"players": 2, "seed": 1, "extra": 1}', "unknown key"),
    ('{"players": 2, "seed": 1, "board": "/no/such/island.json"}', "cannot read island file"),
    ('{"game": "switchbacks", "players": 2, "seed": 1}', "not a Santa Cruz"),
]


@pytest.mark.parametrize("content,needle", BAD)
def test_bad_positions_give_one_error_line(capsys, tmp_path, content, needle):
    path = tmp_path / "pos.json"
    path.write_text(content)
    code, out, err = run(capsys, "santacruz", "analyse", path, "--iterations", "10")
    assert code == 2 and out == ""
    assert needle in one_error_line(err)


def test_a_bad_board_file_is_one_error_line(capsys, tmp_path):
    bad = tmp_path / "island.json"
    bad.write_text('{"schema": 1}')
    code, _, err = run(capsys, "santacruz", "play", "--board", bad, "--seed", "1")
    assert code == 2 and "island file" in one_error_line(err)


def test_analyse_ranks_the_legal_moves(capsys, tmp_path):
    state = played(2, 4, 30)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(state_to_position(state)))
    code, out, err = run(capsys, "santacruz", "analyse", path, "--iterations", "300", "--json")
    assert code == 0, err
    data = json.loads(out)
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert data["legal_moves"] == len(legal) and {m["move"] for m in data["moves"]} <= legal
    assert data["to_move"] == state.current_player()
    code, out, _ = run(capsys, "santacruz", "analyse", path, "--iterations", "100")
    assert code == 0 and "win share" in out


def test_play_a_whole_game_in_the_terminal(capsys, monkeypatch):
    moves = "1\nhint\nnonsense\nauto\n" + "auto\n" * 400
    code, out, _ = run(capsys, "santacruz", "play", "--ai", "random", "--seed", "3", "--no-color",
                       stdin=moves, monkeypatch=monkeypatch)
    assert code == 0
    assert "Final scores" in out and "AI suggests" in out and "round 2" in out
    assert "Your move" not in out.split("Final scores")[1]


def test_quitting_play(capsys, monkeypatch):
    code, out, _ = run(capsys, "santacruz", "play", "--ai", "greedy", "--seed", "1", "--no-color",
                       stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0 and "Game abandoned" in out


def test_typed_site_numbers():
    state = played(2, 2, 0)
    while state.step != "land":
        state.apply_action(state.legal_actions()[0])
        state.apply_seeded_chance()
    site = state.legal_actions()[0]
    assert parse_move(state, str(site)) == site
    taken = next(s for s in range(state.game.num_sites) if s not in state.legal_actions())
    with pytest.raises(SolversError):
        parse_move(state, str(taken))
