"""Santa Cruz through the generic tools: load_game, the engine protocol,
tournaments (API and command line) and the OpenSpiel adapter."""

from __future__ import annotations

import pytest

import solvers
from cli_helpers import one_error_line, run
from solvers.engine.session import Session
from solvers.games.santacruz.reference import SantaCruz


def test_load_game_by_name_alias_and_board(tmp_path):
    game = solvers.load_game("Santa Cruz", 3)
    assert game.num_players == 3 and not game.reference
    assert solvers.load_game("santa-cruz", reference=True).num_players == 2
    with pytest.raises(solvers.SolversError, match="island file"):
        solvers.load_game("santacruz", board=str(tmp_path / "none.json"))
    with pytest.raises(solvers.SolversError):
        solvers.load_game("santacruz", 5)


def test_engine_plays_santacruz_to_the_end():
    session = Session()
    hello = session.handle({"id": 1, "cmd": "hello"})["result"]
    assert any(g["name"] == "santacruz" for g in hello["games"])
    reply = session.handle({"id": 2, "cmd": "new", "game": "santacruz", "players": 2, "seed": 4})
    assert "error" not in reply, reply
    go_done = False
    for _ in range(2000):
        legal = session.handle({"cmd": "legal"})["result"]
        if legal["phase"] == "over":
            break
        if legal["phase"] == "chance":
            assert "error" not in session.handle({"cmd": "deal"})
            continue
        if not go_done:
            go = session.handle({"id": 3, "cmd": "go", "iterations": 50})
            assert "error" not in go, go
            assert go["result"]["move"] in [m["move"] for m in legal["moves"]]
            go_done = True
        assert "error" not in session.handle({"cmd": "apply", "move": legal["moves"][0]["move"]})
    assert session.state.is_terminal()
    # the same game played directly on the reference gives the same scores
    ref = SantaCruz(2).new_initial_state(seed=4)
    while not ref.is_terminal():
        ref.apply_action(ref.seeded_outcome() if ref.is_chance_node() else ref.legal_actions()[0])
    assert session.state.scores() == ref.scores()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tournament_runs_santacruz(players):
    from solvers.tournament import run_tournament

    agents = ["mcts:iterations=40", "greedy", "random", "random"][:players]
    r = run_tournament("santacruz", agents, games=players, players=players, seed=3, workers=1)
    assert r.game == "santacruz" and r.players == players
    assert sum(a.wins for a in r.agents) == pytest.approx(players)


def test_tournament_command_takes_the_board_option(capsys, tmp_path):
    code, out, err = run(capsys, "tournament", "santacruz", "--agents", "greedy,random",
                         "--games", "2", "--workers", "1", "--json")
    assert code == 0, err
    assert '"game": "santacruz"' in out
    bad = tmp_path / "island.json"
    bad.write_text("[]")
    code, _, err = run(capsys, "tournament", "santacruz", "--option", f"board={bad}",
                       "--agents", "greedy,random", "--games", "2")
    assert code == 2 and "island file" in one_error_line(err)


def test_openspiel_serves_santacruz():
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np

    from solvers.interop.openspiel import load_openspiel_game, register_games

    assert "solvers_santacruz" in register_games()
    game = load_openspiel_game("santacruz", players=3)
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    mirror = SantaCruz(3).new_initial_state(seed=0)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            a = int(rng.choice(actions, p=probs))
        else:
            assert state.legal_actions() == mirror.legal_actions()
            a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        mirror.apply_action(a)
    assert mirror.is_terminal()
    assert state.returns() == pytest.approx(mirror.returns())
