"""solvers.batch against the games played one by one (issue 29).

Every batch game is replayed through the reference rules (each action must
be legal there, and the game must end with the same returns after as many
actions) and through the kernel's own Python face; StateBatch steps are
compared with the same actions applied state by state.
"""

from __future__ import annotations

import numpy as np
import pytest

import solvers
from solvers.batch import StateBatch, random_games
from solvers.errors import IllegalActionError, SolversError

GAMES = ["switchbacks", "santacruz", "c2c", "bigsur"]


@pytest.fixture(scope="module", params=GAMES)
def pair(request):
    """(kernel game, reference game), two players."""
    name = request.param
    return solvers.load_game(name, players=2), solvers.load_game(name, players=2, reference=True)


def replay(game, seed: int, actions) -> object:
    """The state after ``actions`` from ``game``'s initial state for ``seed``;
    every action must be legal when it is played."""
    state = game.new_initial_state(seed=seed)
    for a in actions:
        assert not state.is_terminal()
        assert a in state.legal_actions(), (a, len(state.history))
        state.apply_action(a)
    return state


@pytest.mark.parametrize("policy", [None, "policy"])
def test_random_games_replay_through_reference(pair, policy):
    kernel, reference = pair
    seed = 11
    r = random_games(kernel, 12, seed=seed, policy=policy, histories=True)
    assert r.returns.shape == (12, 2) and r.lengths.shape == (12,)
    for i in range(12):
        n = int(r.lengths[i])
        actions = [int(a) for a in r.histories[i, :n]]
        assert (r.histories[i, n:] == -1).all()
        ref = replay(reference, seed, actions)
        assert ref.is_terminal()
        assert ref.returns() == pytest.approx(list(r.returns[i]))
        ker = replay(kernel, seed, actions)
        assert ker.is_terminal() and ker.history == actions
        assert ker.returns() == pytest.approx(list(r.returns[i]))


def test_random_games_deterministic(pair):
    kernel, _ = pair
    a = random_games(kernel, 40, seed=5, histories=True)
    b = random_games(kernel, 40, seed=5, histories=True, threads=2)
    c = random_games(kernel, 10, seed=5, histories=True)
    d = random_games(kernel, 40, seed=6, histories=True)
    assert (a.histories == b.histories).all() and (a.returns == b.returns).all()
    assert (a.histories[:10] == c.histories).all() and (a.lengths[:10] == c.lengths).all()
    assert not (a.histories == d.histories).all()
    assert a.histories is not None and random_games(kernel, 3, seed=5).histories is None


def test_random_games_from_a_state(pair):
    kernel, reference = pair
    state = kernel.new_initial_state(seed=3)
    for _ in range(10):
        legal = state.legal_actions()
        state.apply_action(legal[len(legal) // 2])
    r = random_games(kernel, 5, seed=1, state=state, histories=True)
    for i in range(5):
        n = int(r.lengths[i])
        ref = replay(reference, 3, state.history + [int(a) for a in r.histories[i, :n]])
        assert ref.is_terminal() and ref.returns() == pytest.approx(list(r.returns[i]))
    assert len(state.history) == 10          # the state itself did not move


def test_state_batch_matches_one_by_one(pair):
    kernel, _ = pair
    states = [kernel.new_initial_state(seed=s) for s in range(6)]
    batch = StateBatch(kernel, [s.clone() for s in states])
    step = 0
    while not batch.all_over():
        acts, counts = batch.legal_actions()
        players = batch.current_players()
        for i, s in enumerate(states):
            legal = [] if s.is_terminal() else s.legal_actions()
            assert list(acts[i, :counts[i]]) == legal
            assert players[i] == (-4 if s.is_terminal() else s.current_player())
        moves = batch.random_actions(seed=step)
        for i, s in enumerate(states):
            assert (moves[i] == -1) == s.is_terminal()
            if moves[i] >= 0:
                s.apply_action(int(moves[i]))
        batch.apply(moves)
        step += 1
    for i, s in enumerate(states):
        assert batch.state(i).history == s.history
        assert batch.state(i)._raw() == s._raw()
    assert (batch.returns() == np.array([s._search_returns() if hasattr(s, "_search_returns")
                                         else s.returns() for s in states])).all()


def test_state_batch_illegal_action_changes_nothing(pair):
    kernel, _ = pair
    states = [kernel.new_initial_state(seed=s) for s in range(3)]
    batch = StateBatch(kernel, states)
    before = [batch.state(i)._raw() for i in range(3)]
    moves = batch.random_actions(seed=1)
    moves[2] = kernel.num_distinct_actions() + 5
    with pytest.raises(IllegalActionError, match="state 2"):
        batch.apply(moves)
    assert [batch.state(i)._raw() for i in range(3)] == before
    with pytest.raises(SolversError, match="expected 3 actions"):
        batch.apply([0, 1])


def test_errors():
    ref = solvers.load_game("switchbacks", reference=True)
    with pytest.raises(SolversError, match="no C kernel"):
        random_games(ref, 3)
    game = solvers.load_game("switchbacks")
    with pytest.raises(SolversError, match="whole number"):
        random_games(game, -1)
    with pytest.raises(SolversError, match="no seat 5"):
        random_games(game, 3, policy=[5])
    with pytest.raises(SolversError, match="unknown policy"):
        random_games(game, 3, policy="greedy")
    with pytest.raises(SolversError, match="game name"):
        random_games(game, 3, players=2)
    with pytest.raises(SolversError, match="expected states"):
        random_games(game, 3, state=solvers.load_game("santacruz").new_initial_state(seed=1))
    assert random_games("switchbacks", 0).returns.shape == (0, 2)


@pytest.mark.parametrize("name", GAMES)
def test_apply_action_errors_unchanged(name):
    """The fast path of apply_action keeps the old errors: anything but a
    legal action raises IllegalActionError and leaves the state alone."""
    game = solvers.load_game(name, players=2)
    state = game.new_initial_state(seed=2)
    raw = state._raw()
    for bad in (-1, 10**30, -(10**30), "3", 2.0, None, game.num_distinct_actions()):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    legal = state.legal_actions()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    with pytest.raises(IllegalActionError, match=f"action {illegal} is not legal"):
        state.apply_action(illegal)
    assert state._raw() == raw and state.history == []
    state.apply_action(np.int64(legal[0]) if name == "c2c" else legal[0])
    assert state.history == [legal[0]] and type(state.history[0]) is int
