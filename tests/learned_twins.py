"""Shared by the learned-evaluation tests (tests/test_learned*.py): a
model's values of a position and of its twin, as the search reads them."""

from __future__ import annotations

from typing import Any


def twin_leaf_values(game: Any, model: Any, state: Any, twin: Any) -> tuple[list, list]:
    """A learned ``model``'s leaf values of ``state`` and of its ``twin``,
    both read by one search rooted at ``state`` (solvers._core.mcts)."""
    from solvers._core.mcts import Search

    s = Search(game._gamedef_capsule(), state._state_capsule(), **model.search_options(game))
    return s.leaf_value(state._state_capsule()), s.leaf_value(twin._state_capsule())


def twin_value_checks(game: Any, shared: Any, own: Any, state: Any, twin: Any, seat: int) -> bool:
    """Asserts that the constant-sum model ``shared`` gives ``seat`` (the
    searcher) the same value on ``state`` and its ``twin`` (with two seats,
    the same vector), and that ``own`` (no sharing) does for the searcher;
    returns whether ``own``'s vector differs there (the control: another
    seat's own value can change with what the searcher cannot see)."""
    a, b = twin_leaf_values(game, shared, state, twin)
    assert a[seat] == b[seat]
    if game.num_players == 2:
        assert a == b
    a, b = twin_leaf_values(game, own, state, twin)
    assert a[seat] == b[seat]
    return a != b
