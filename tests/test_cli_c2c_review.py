"""`solve c2c review GAME.json`: a saved game against hindsight and against
the online player's estimate; bad files give one line and exit status 2."""

import json

import pytest

import solvers
from cli_helpers import one_error_line, run
from solvers.agents import load_agent


def played_game(challenge, seed, players=1, stop=None):
    """A game played by the greedy agent, as `play --save` writes it."""
    game = solvers.load_game("c2c", players=players, challenge=challenge)
    state = game.new_initial_state(seed=seed)
    agent = load_agent("greedy", game, seed=1)
    moves = []
    while not state.is_terminal() and (stop is None or len(moves) < stop):
        action = state.seeded_outcome() if state.is_chance_node() else agent.step(state)
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    record = {"game": "c2c", "players": players, "options": {"challenge": challenge} if challenge else {},
              "seed": seed, "moves": moves}
    return record, state


@pytest.mark.parametrize("challenge,seed", [("The Alamo", 3), (None, 5)])
def test_review_reports_the_hindsight_optimum_of_deal(capsys, tmp_path, challenge, seed):
    record, final = played_game(challenge, seed)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--json", "--samples", "4")
    assert code == 0, err
    got = json.loads(out)
    assert got["score"] == final.returns()[0]
    # The deal as the cards dealt, written as a deal file for --deal.
    deal = [m[len("deal "):] for m in record["moves"] if m.startswith("deal ")]
    assert got["deal"] == deal and len(deal) == 24
    deal_path = tmp_path / "deal.txt"
    deal_path.write_text("\n".join(deal) + "\n")
    extra = ["--challenge", challenge] if challenge else []
    code, out, err = run(capsys, "c2c", "--deal", deal_path, "--json", *extra)
    assert code == 0, err
    best = json.loads(out)
    assert got["hindsight"]["score"] == best["score"]
    assert got["hindsight"]["won"] == best["won"]
    assert got["hindsight"]["score"] >= got["score"]
    for d in got["costliest"]:
        assert d["cost"] > 0 and d["played"] != d["preferred"]


def test_review_names_a_costly_blunder(capsys, tmp_path):
    # The Alamo, seed 3: greedy crosses off a setup card the challenge needs
    # nearby, and the win is gone from round 0 (hindsight could win it).
    record, final = played_game("The Alamo", 3)
    assert final.challenge_won() is False
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--samples", "8")
    assert code == 0, err
    assert "could have been won" in out
    assert "prefer" in out


def _bad(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    return path


@pytest.mark.parametrize("content,words", [
    ("not json at all", "not JSON"),
    ("[1, 2, 3]", "JSON object"),
    ('{"game": "switchbacks", "players": 2, "seed": 1, "moves": []}', "Coast to Coast"),
    ('{"game": "c2c", "seed": 1, "moves": ["deal Nowhere Land"]}', "move 0"),
    ('{"game": "c2c", "seed": 1, "moves": "deal Gateway Arch"}', "moves"),
    ('{"game": "c2c", "seed": 1, "moves": [], "colour": "red"}', "unknown key"),
])
def test_bad_review_files(capsys, tmp_path, content, words):
    code, _, err = run(capsys, "c2c", "review", _bad(tmp_path, content))
    assert code == 2
    assert words in one_error_line(err)


def test_unfinished_and_multiplayer_games_are_refused(capsys, tmp_path):
    record, _ = played_game("The Alamo", 3, stop=10)
    code, _, err = run(capsys, "c2c", "review", _bad(tmp_path, json.dumps(record)))
    assert code == 2 and "not finished" in one_error_line(err)
    record, _ = played_game(None, 3, players=2)
    code, _, err = run(capsys, "c2c", "review", _bad(tmp_path, json.dumps(record)))
    assert code == 2 and "solo" in one_error_line(err)
    code, _, err = run(capsys, "c2c", "review", tmp_path / "missing.json")
    assert code == 2 and "missing.json" in one_error_line(err)
