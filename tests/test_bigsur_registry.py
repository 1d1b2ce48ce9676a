"""Big Sur through its record: load_game by name, the engine protocol, a
tournament, the OpenSpiel adapter and every agent kind."""

import pytest

import solvers
from solvers.agents import load_agent
from solvers.engine.session import Session
from solvers.games.bigsur.reference import BigSur
from solvers.rng import SplitMix64
from solvers.tournament import run_tournament


def test_load_game_by_name_and_alias():
    assert solvers.load_game("bigsur").num_players == 2
    assert type(solvers.load_game("Big Sur", 3)).__name__ == "BigSurKernel"
    assert isinstance(solvers.load_game("big-sur", 4, reference=True), BigSur)
    with pytest.raises(solvers.SolversError, match="2, 3 or 4 players"):
        solvers.load_game("bigsur", 5)


def test_engine_plays_big_sur_like_the_reference():
    session = Session()
    hello = session.handle({"id": 1, "cmd": "hello"})["result"]
    entry = next(g for g in hello["games"] if g["name"] == "bigsur")
    assert entry["players"] == [2, 3, 4] and entry["title"] == "Big Sur"
    reply = session.handle({"id": 2, "cmd": "new", "game": "big-sur", "players": 2, "seed": 7})
    assert "error" not in reply, reply
    ref = BigSur(2).new_initial_state(seed=7)
    rng = SplitMix64(7)
    for _ in range(5000):
        legal = session.handle({"cmd": "legal"})["result"]
        if legal["phase"] == "over":
            break
        if legal["phase"] == "chance":
            assert "error" not in session.handle({"cmd": "deal"})
            ref.apply_seeded_chance()    # the engine deals until someone must decide
            continue
        moves = [m["move"] for m in legal["moves"]]
        assert moves == [ref.action_to_string(a) for a in ref.legal_actions()]
        pick = rng.below(len(moves))
        assert "error" not in session.handle({"cmd": "apply", "move": moves[pick]})
        ref.apply_action(ref.legal_actions()[pick])
    assert session.state.is_terminal() and ref.is_terminal()
    assert session.state.scores() == ref.scores()
    session.handle({"id": 4, "cmd": "new", "game": "bigsur", "seed": 1})
    session.handle({"id": 5, "cmd": "deal"})
    go = session.handle({"id": 6, "cmd": "go", "iterations": 50})["result"]
    assert go["move"].startswith(("take", "draw"))


def test_tournament_runs_big_sur():
    result = run_tournament("bigsur", ["greedy", "random"], games=2, players=2, seed=3)
    assert sum(a.wins for a in result.agents) == pytest.approx(2)


@pytest.mark.parametrize("kind, options", [("random", {}), ("greedy", {}),
                                           ("mcts", {"iterations": 30}),
                                           ("mcts", {"iterations": 30, "backend": "python"})])
def test_every_agent_kind_plays_a_legal_move(kind, options):
    game = solvers.load_game("bigsur", 3)
    state = game.new_initial_state(seed=2)
    state.apply_seeded_chance()
    agent = load_agent(kind, game, seed=1, **options)
    rng = SplitMix64(1)
    for _ in range(12):       # into the build step of the first turn
        state.apply_seeded_chance()
        assert agent.step(state) in state.legal_actions()
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])


def test_endgame_agent_near_the_end():
    game = solvers.load_game("bigsur", 2)
    state = game.new_initial_state(seed=4)
    rng = SplitMix64(4)
    while not state.is_terminal() and len(state.order) - state.pos > 2:
        state.apply_seeded_chance()
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    state.apply_seeded_chance()
    agent = load_agent("endgame", game, seed=1, samples=1)
    if not state.is_terminal():
        try:
            assert agent.step(state) in state.legal_actions()
        except solvers.SolversError as e:   # too large to solve exactly is a clean refusal
            assert "\n" not in str(e)


def test_openspiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    from solvers.interop.openspiel import register_games

    assert "solvers_bigsur" in register_games()
    game = pyspiel.load_game("solvers_bigsur", {"players": 3})
    state = game.new_initial_state()
    rng = SplitMix64(5)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.below(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    assert sum(state.returns()) == pytest.approx(1.0)
