"""A search owns the memory it reads.

The capsules a kernel hands to search modules keep alive the object that
holds what they point at, and MCTS and the endgame solver keep the game's
capsule, so a caller may let go of the game and the state as soon as the
search is built (without ``owner=``). Every game of ``solvers.game_names()``
and the toy games are checked: a search built from objects that were then
dropped and collected gives the same answer as one whose game was kept, the
objects stay alive exactly as long as the search or capsule needs them, and
are freed after it.
"""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any, Callable

import pytest

import solvers
from solvers._core import endgame as cendgame
from solvers._core import mcts as cmcts
from solvers._core.connect_four import ConnectFour
from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.errors import SolversError

# name -> a function building a fresh kernel game
GAMES: dict[str, Callable[[], Any]] = {
    **{name: (lambda name=name: solvers.load_game(name)) for name in solvers.game_names()},
    "tictactoe": TicTacToe,
    "pig": lambda: Pig(players=2, target=8, die=3, max_turns=3),
    "highcard": lambda: HighCard(players=3),
    "connect_four": ConnectFour,
}


def play_seeded(state, rng: random.Random, plies: int) -> list[int]:
    """Play up to ``plies`` actions (chance by the state's seed, moves by
    ``rng``); the actions played."""
    played = []
    while len(played) < plies and not state.is_terminal():
        if state.is_chance_node():
            a = state.seeded_outcome()
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        played.append(a)
    return played


def decision_node(game, seed: int):
    """A position a few moves into a game, with a decision to make."""
    state = game.new_initial_state(seed=seed)
    play_seeded(state, random.Random(seed), 2)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    assert not state.is_terminal()
    return state


def near_the_end(game, seed: int, left: int = 3):
    """The position ``left`` actions before the end of a seeded game."""
    state = game.new_initial_state(seed=seed)
    actions = play_seeded(state, random.Random(seed), 10_000)
    state = game.new_initial_state(seed=seed)
    for a in actions[:len(actions) - left]:
        state.apply_action(a)
    return state


def is_kernel_object(obj) -> bool:
    """An instance of an extension type of ``solvers._core`` (or of a subclass)."""
    return any(cls.__module__.startswith("solvers._core") for cls in type(obj).__mro__)


def kernel_objects(*objects) -> list[weakref.ref]:
    """Weak references to the kernel objects among ``objects`` and their
    attributes: whatever memory a capsule of theirs may point into."""
    found = []
    for obj in objects:
        found += [v for v in [obj, *getattr(obj, "__dict__", {}).values()] if is_kernel_object(v)]
    assert found
    return [weakref.ref(o) for o in found]


def collect() -> None:
    for _ in range(3):
        gc.collect()


@pytest.fixture(autouse=True)
def _frozen_heap():
    """The objects alive before the test are moved out of the collector's
    reach for its duration (``gc.freeze``): ``collect()`` then walks only
    what the test made, not the whole heap of a long pytest worker (seconds
    a test in the full suite). What the test made is still collected: an
    older object only ever keeps it alive, as a real reference would."""
    gc.freeze()
    yield
    gc.unfreeze()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mcts_without_owner_keeps_its_game_alive(name):
    make = GAMES[name]
    kept_game = make()
    kept_state = decision_node(kept_game, seed=4)
    expected = cmcts.Search(kept_game._gamedef_capsule(), kept_state._state_capsule(),
                            seed=9).run(iterations=300)

    game = make()
    state = decision_node(game, seed=4)
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=9)
    game_refs = kernel_objects(game)
    del game, state
    collect()
    assert all(r() is not None for r in game_refs), "the search let its game be freed"
    got = search.run(iterations=300)
    assert (got["action"], got["visits"], got["values"]) == \
        (expected["action"], expected["visits"], expected["values"])
    del search
    collect()
    assert all(r() is None for r in game_refs), "the game outlived its search"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_endgame_without_owner_keeps_game_and_state_alive(name):
    make = GAMES[name]
    kept_game = make()
    bounds = getattr(kept_game, "return_bounds", None)
    expected = cendgame.Solver(kept_game._gamedef_capsule(), return_bounds=bounds).solve(
        near_the_end(kept_game, seed=2)._state_capsule())

    game = make()
    solver = cendgame.Solver(game._gamedef_capsule(), return_bounds=bounds)
    state_capsule = near_the_end(game, seed=2)._state_capsule()   # only the capsule holds the state
    game_refs = kernel_objects(game)
    del game
    collect()
    assert all(r() is not None for r in game_refs), "the solver let its game be freed"
    got = solver.solve(state_capsule)
    assert (got["value"], got["action"], got["line"]) == \
        (expected["value"], expected["action"], expected["line"])
    del solver, state_capsule
    collect()
    assert all(r() is None for r in game_refs), "the game outlived its solver"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_state_capsule_keeps_its_state_alive(name):
    game = GAMES[name]()
    state = decision_node(game, seed=1)
    legal = state.legal_actions()
    capsule = state._state_capsule()
    state_refs = kernel_objects(state)
    del state
    collect()
    assert all(r() is not None for r in state_refs), "the capsule let its state be freed"
    # The capsule still reads the position: a search from it sees the same moves.
    got = cmcts.Search(game._gamedef_capsule(), capsule, seed=1).run(iterations=50)
    assert set(got["actions"]) <= set(legal) and got["action"] in legal
    del capsule
    collect()
    assert all(r() is None for r in state_refs), "the state outlived its capsule"


def test_a_capsule_that_does_not_own_its_memory_is_refused():
    import ctypes

    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    name = ctypes.create_string_buffer(b"solvers.GameDef")
    bare = new_capsule(ctypes.addressof(name), name, None)   # valid name, no owner
    state = TicTacToe().new_initial_state()
    with pytest.raises(SolversError, match="does not keep its memory alive"):
        cmcts.Search(bare, state._state_capsule())
    with pytest.raises(SolversError, match="does not keep its memory alive"):
        cendgame.Solver(bare)
