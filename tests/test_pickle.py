"""Every game's states survive pickling mid-game (issue 16): states cross
process boundaries (worker processes, Ray, web sessions).

Generic over every registered game (``solvers.registry.games()``), every
player count its record allows, the kernel and the reference, and the toy
games: a state pickled at several
points of a seeded game comes back as the same position (same player,
legal actions, chance outcomes, seeded deal and every seat's information
state), and both copies then play the rest of the game identically under
the same seeded moves.
"""

from __future__ import annotations

import pickle
import random

import pytest

import solvers
from solvers._core.connect_four import ConnectFour
from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.registry import games


def setups() -> list[tuple[str, int, bool]]:
    """(game, players, reference) for every game and player count."""
    return [(info.name, players, reference) for info in games()
            for players in range(info.min_players, info.max_players + 1)
            for reference in (False, True)]


TOYS = {"tictactoe": TicTacToe, "pig": lambda: Pig(players=3, target=9, die=3, max_turns=4),
        "highcard": lambda: HighCard(players=3, hand=2), "connect_four": ConnectFour}


def snapshot(state) -> dict:
    """Everything a player or a search can ask of a position."""
    players = state.game.num_players
    view = {
        "player": state.current_player(),
        "terminal": state.is_terminal(),
        "legal": state.legal_actions(),
        "history": list(state.history),
        "information": [state.information_state(p) for p in range(players)],
    }
    if state.is_terminal():
        view["returns"] = state.returns()
        view["scores"] = state.scores()
    elif state.is_chance_node():
        view["chance"] = state.chance_outcomes()
        view["seeded"] = state.seeded_outcome()
    return view


def next_action(state, rng: random.Random) -> int:
    if state.is_chance_node():
        return state.seeded_outcome() if rng.random() < 0.5 else rng.choice(state.legal_actions())
    return rng.choice(state.legal_actions())


def check_round_trips(game, seed: int) -> int:
    """Pickle a seeded game's state every few actions; each copy must play
    on exactly like the original. Returns the number of states checked."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    checked = 0
    while True:
        copy = pickle.loads(pickle.dumps(state))
        assert type(copy) is type(state)
        assert copy.game.num_players == game.num_players
        # Both play the rest of the game under the same moves.
        fork = rng.getstate()
        a, b = state.clone(), copy
        rng_a, rng_b = random.Random(), random.Random()
        rng_a.setstate(fork)
        rng_b.setstate(fork)
        while True:
            assert snapshot(b) == snapshot(a)
            if a.is_terminal():
                break
            action = next_action(a, rng_a)
            assert next_action(b, rng_b) == action
            a.apply_action(action)
            b.apply_action(action)
        checked += 1
        if state.is_terminal():
            return checked
        for _ in range(rng.randint(1, 9)):
            if state.is_terminal():
                break
            state.apply_action(next_action(state, rng))


@pytest.mark.parametrize("name,players,reference", setups())
def test_states_pickle_mid_game_and_play_on_identically(name, players, reference):
    game = solvers.load_game(name, players, reference=reference)
    assert check_round_trips(game, seed=players + 10) >= 3


@pytest.mark.parametrize("name", sorted(TOYS))
def test_toy_states_pickle_mid_game(name):
    assert check_round_trips(TOYS[name](), seed=3) >= 2


def test_a_pickled_game_keeps_its_options():
    game = solvers.load_game("switchbacks", 3)
    game.core.playout_weights = (10, 20, 30)
    again = pickle.loads(pickle.dumps(game))
    assert again.num_players == 3 and again.core.playout_weights == (10, 20, 30)
    pig = pickle.loads(pickle.dumps(Pig(players=3, target=9, die=5, max_turns=4)))
    assert pig.options == {"players": 3, "target": 9, "die": 5, "max_turns": 4}
