"""Our games as OpenSpiel games (optional extra ``openspiel``)."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import solvers  # noqa: E402
from solvers.interop.openspiel import (  # noqa: E402
    SolversState, ismcts_bot, load_openspiel_game, register_games,
)


def test_every_game_is_registered():
    names = register_games()
    assert names == [f"solvers_{n}" for n in solvers.game_names()]
    for name in names:
        assert name in pyspiel.registered_names()
    assert register_games() == names          # idempotent


@pytest.mark.parametrize("name,params", [("switchbacks", {"players": 3}),
                                         ("c2c", {"players": 1, "challenge": "The Alamo"}),
                                         ("c2c", {"players": 2})])
def test_random_playthrough_matches_our_game(name, params):
    game = load_openspiel_game(name, **params)
    ours = solvers.load_game(name, **params)
    assert game.num_players() == ours.num_players
    assert game.num_distinct_actions() == ours.num_distinct_actions()
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    mirror = ours.new_initial_state(seed=0)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0)
            a = int(rng.choice(actions, p=probs))
        else:
            assert state.legal_actions() == mirror.legal_actions()
            a = int(rng.choice(state.legal_actions()))
            assert state.action_to_string(state.current_player(), a) == mirror.action_to_string(a)
        state.apply_action(a)
        mirror.apply_action(a)
        assert len(state.history()) <= game.max_game_length()
    assert state.returns() == pytest.approx(mirror.returns())
    assert mirror.is_terminal()


def test_clone_is_independent():
    game = load_openspiel_game("switchbacks")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    twin = state.clone()
    assert twin.history() == state.history()
    twin.apply_action(twin.legal_actions()[0])
    assert len(twin.inner.board) == len(state.inner.board) + 1


def test_resample_keeps_the_information_state():
    game = load_openspiel_game("switchbacks", players=2)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    for _ in range(30):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    p = state.current_player()
    key = state.information_state_string(p)
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    other_hands = set()
    for _ in range(5):
        twin = state.resample_from_infostate(p, sampler)
        assert isinstance(twin, SolversState)
        assert twin.information_state_string(p) == key
        other_hands.add(frozenset(twin.inner.hands[1 - p]))
    assert len(other_hands) > 1                # the hidden hand really is re-dealt
    assert state.information_state_string(1 - p) != key


def test_openspiel_ismcts_bot_plays_switchbacks():
    game = load_openspiel_game("switchbacks")
    bot = ismcts_bot(game, seconds=None, simulations=20, seed=1)
    state = game.new_initial_state()
    moves = 0
    rng = np.random.RandomState(0)
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        a = int(bot.step(state))
        assert a in state.legal_actions()
        state.apply_action(a)
        moves += 1
    assert moves == 12


def test_a_timed_ismcts_bot_moves_even_without_time():
    # Found under the sanitizers (everything slower): when the time ran out
    # after one simulation, which only expands the root, OpenSpiel's final
    # policy asserted that the root had been visited.
    game = load_openspiel_game("switchbacks")
    bot = ismcts_bot(game, seconds=1e-9, seed=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(actions, p=probs)))
    assert int(bot.step(state)) in state.legal_actions()
    assert bot.simulations >= 2


def test_openspiel_agent_in_a_tournament():
    from solvers.tournament import run_tournament

    r = run_tournament("switchbacks", ["openspiel:simulations=10", "random"], games=2, seed=1)
    assert sum(a.wins for a in r.agents) == pytest.approx(2.0)


def test_bad_agent_option():
    with pytest.raises(solvers.SolversError, match="simulations"):
        solvers.load_agent("openspiel", solvers.load_game("switchbacks"), simulations=0)


@pytest.mark.parametrize("name", ["switchbacks", "c2c"])
def test_openspiel_random_simulation_checks_pass(name):
    # OpenSpiel's own C++ consistency checks (clones, legal actions, chance
    # probabilities, returns) over random games.
    pyspiel.random_sim_test(load_openspiel_game(name), num_sims=2, serialize=False, verbose=False)
