"""Hidden information at search level: twin games that differ only in what
the player to move cannot see must get the same search, in the middle and
late game, with 3-4 players, and through the MCTS agent's hand-over to the
exact endgame search. Each pair has a control: searched without re-dealing
the hidden part (the state as it really is), the twins do differ, so the
equality is not an accident of the position.

Switchbacks twins differ in another seat's set-aside tile (swapped with a
tile of the stack); Coast to Coast twins in another seat's private setup card
and the deck order (the setup), or in the order of the undealt deck."""

from __future__ import annotations

import pytest

import solvers
from solvers.games.switchbacks.position import load_position, state_to_position
from solvers.rng import SplitMix64
from solvers.search import mcts_search, solve_endgame


def search_rows(state, determinize=True, iterations=1500):
    r = mcts_search(state, iterations=iterations, seed=7, determinize=determinize)
    return list(zip(r.actions, r.visits, [round(v, 12) for v in r.values]))


def assert_twins(a, b):
    """The twins look the same to the seat to move."""
    mover = a.current_player()
    assert b.current_player() == mover
    assert a.information_state(mover) == b.information_state(mover)
    assert a.legal_actions() == b.legal_actions()


# --- Switchbacks ---------------------------------------------------------------

def played_until(name, players, seed, stop):
    """A kernel game of ``name`` played at random (chance as seeded) until
    ``stop(state)`` holds at a decision."""
    state = solvers.load_game(name, players=players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while state.is_chance_node() or not stop(state):
        legal = state.legal_actions()
        state.apply_action(state.seeded_outcome() if state.is_chance_node()
                           else legal[rng.below(len(legal))])
    return state


def switchbacks_at(players, tiles_left, seed):
    """A game played until at most ``tiles_left`` tiles (hands and stack)
    remain, at a decision with a tile still on the stack."""
    state = played_until("switchbacks", players, seed,
                         lambda s: sum(len(h) for h in s.hands) + len(s.stack()) <= tiles_left)
    assert state.stack(), "no tile left to draw: the twins would not differ"
    return state


def set_aside_twin(state):
    """The same position with another seat's set-aside tile swapped with the
    top tile of the stack: nothing the player to move can see changes."""
    mover = state.current_player()
    pos = state_to_position(state)
    other = (mover + 1) % state.game.num_players
    kept, drawn = pos["set_aside"][other][0], pos["stack"][0]
    pos["set_aside"][other] = sorted([drawn] + pos["set_aside"][other][1:])
    pos["stack"][0] = kept
    return load_position(pos)


@pytest.mark.parametrize("players, tiles_left, seed", [(3, 18, 1), (4, 20, 2), (4, 14, 3)])
def test_switchbacks_mcts_ignores_other_set_aside_tiles(players, tiles_left, seed):
    state = switchbacks_at(players, tiles_left, seed)
    twin = set_aside_twin(state)
    assert_twins(state, twin)
    assert state.set_aside != twin.set_aside
    assert search_rows(state) == search_rows(twin)
    # Control: searched as they really are, the twins differ.
    assert search_rows(state, determinize=False) != search_rows(twin, determinize=False)


def hand_twin(state):
    """The same position with another seat's set-aside tile swapped with a
    tile of that seat's hand (the stack is empty late in the game, so this
    is the hidden part that still matters)."""
    mover = state.current_player()
    pos = state_to_position(state)
    n = state.game.num_players
    other = next(q for q in ((mover + k) % n for k in range(1, n)) if pos["hands"][q])
    kept, held = pos["set_aside"][other][0], pos["hands"][other][0]
    pos["set_aside"][other] = sorted([held] + pos["set_aside"][other][1:])
    pos["hands"][other] = sorted([kept] + pos["hands"][other][1:])
    return load_position(pos)


def switchbacks_late(players, tiles_left, seed):
    """A game played until the hands hold at most ``tiles_left`` tiles."""
    return played_until("switchbacks", players, seed,
                        lambda s: sum(len(h) for h in s.hands) <= tiles_left)


@pytest.mark.parametrize("players, tiles_left, seed", [(3, 5, 6), (3, 5, 8), (4, 6, 15)])
def test_switchbacks_endgame_hand_over_ignores_what_others_hold(players, tiles_left, seed):
    # Late enough that the MCTS agent hands over to the exact endgame search
    # (over re-deals of what the player to move cannot see).
    state = switchbacks_late(players, tiles_left, seed)
    twin = hand_twin(state)
    assert_twins(state, twin)
    assert state.set_aside != twin.set_aside and state.hands != twin.hands
    rows = []
    for s in (state, twin):
        agent = solvers.load_agent("mcts", s.game, iterations=300, seed=3, endgame_plies=400,
                                   endgame_nodes=1_000_000, samples=4)
        rows.append(agent.analyse(s))
    assert rows[0] == rows[1]
    # The hand-over happened: each move's count is the re-deals it was legal in.
    assert all(row["visits"] <= 4 for row in rows[0])
    # Control: the exact values of the real positions differ.
    values = [solve_endgame(s, per_action=True).action_values for s in (state, twin)]
    assert values[0] != values[1]


def test_switchbacks_default_timed_player_ignores_what_the_other_seat_holds():
    # With 2 seats a timed search hands the last tiles to the exact search by
    # default (Game.default_endgame_plies): that too sees only the seat's view.
    state = switchbacks_late(2, 4, 2)
    twin = hand_twin(state)
    assert_twins(state, twin)
    assert state.hands != twin.hands
    # (A budget the exact search never reaches: its answer is not cut by the clock.)
    rows = [solvers.load_agent("mcts", s.game, time=30, seed=3).analyse(s) for s in (state, twin)]
    assert rows[0] == rows[1]
    assert all(row["visits"] <= 8 for row in rows[0])      # re-deals, so the rows are not timed
    values = [solve_endgame(s, per_action=True).action_values for s in (state, twin)]
    assert values[0] != values[1]


# --- Coast to Coast ----------------------------------------------------------------

def c2c_replayed(players, history, seed):
    """A kernel game with ``history`` applied to the deck of ``seed``: the
    dealt cards are the history's, the undealt order is the seed's."""
    state = solvers.load_game("c2c", players=players).new_initial_state(seed=seed)
    for a in history:
        state.apply_action(a)
    return state


def c2c_at(players, rounds, seed):
    """A game played at random into round ``rounds``, its cards dealt, the
    seat to move at its cross-off."""
    return played_until("c2c", players, seed, lambda s: s.round >= rounds)


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_c2c_setup_search_ignores_other_private_cards_and_the_deck_order(players, seed):
    state = c2c_at(players, 0, seed)
    history = list(state.history)
    # Seat 1's first private card (the 3rd card dealt) becomes a card that
    # was never dealt, and the deck below is in another order.
    undealt = [c for c in state.order[state.pos:]]
    twin_history = list(history)
    twin_history[2] = undealt[0]
    twin = c2c_replayed(players, twin_history, seed + 100)
    assert state.current_player() == 0
    assert_twins(state, twin)
    assert state.visible_cards(1) != twin.visible_cards(1)
    assert search_rows(state) == search_rows(twin)
    assert search_rows(state, determinize=False) != search_rows(twin, determinize=False)


@pytest.mark.parametrize("players, rounds, seed", [(3, 2, 3), (4, 3, 4), (3, 4, 5)])
def test_c2c_search_ignores_the_order_of_the_undealt_deck(players, rounds, seed):
    state = c2c_at(players, rounds, seed)
    twin = c2c_replayed(players, state.history, seed + 100)
    assert_twins(state, twin)
    assert state.order[state.pos:] != twin.order[twin.pos:]
    assert search_rows(state) == search_rows(twin)
    assert search_rows(state, determinize=False) != search_rows(twin, determinize=False)
    if rounds == 4:
        # The agent the command line uses, endgame hand-over allowed (it
        # falls back to MCTS when the endgame is too large): the same too.
        rows = [solvers.load_agent("mcts", state.game, iterations=400, seed=2, endgame_plies=400,
                                   endgame_nodes=100_000, samples=3).analyse(s) for s in (state, twin)]
        assert rows[0] == rows[1]
