"""Coast to Coast as a fixed-size vector for learning environments.

:func:`encode` reads only ``state.information_state(seat)`` (what the seat
may see) and the game's static data, so two states that differ only in
what the seat cannot see give the same vector. The blocks, in order, are
listed by :func:`layout` and described in ``docs/envs.md``::

    >>> import solvers
    >>> game = solvers.load_game("c2c", players=2)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> encode(state, 0).shape == shape(game) == (layout(game).size,)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...envs.layout import Layout, per_game, relative
from .reference import ROUNDS

STEPS = ("cross", "circle")


@per_game
def layout(game: Any) -> Layout:
    """The blocks of the vector for ``game`` (``n`` locations, ``P`` seats)."""
    n, p = game.map.n, game.num_players
    out = (Layout().seat_blocks(p, turn_of=False)
           .block("round", ROUNDS + 2, "one-hot: the round, 0 the setup, 6 once the game is over")
           .block("step", len(STEPS), "one-hot: the step of the seat to act, cross off or circle")
           .block("cards", n, "the cards this seat sees now, by location id (a card names one location)")
           .block("used", n, "the cards this seat has already used this round (its own turn only)")
           .block("circled", n, "this seat's circled locations")
           .block("crossed", n, "this seat's crossed-off locations")
           .block("exact", n, "this seat's circles made with an exact match")
           .block("required", n, "the locations the solo challenge card demands (zeros without one)"))
    if p > 1:
        for key in ("circled", "crossed", "exact"):
            out.block(f"others_{key}", (p - 1) * n,
                      f"each other seat's {key} locations as they stood at the start of the round, "
                      f"next seat first ({n} per seat)")
    return out


def shape(game: Any) -> tuple[int, ...]:
    """The shape of :func:`encode`'s array for ``game``."""
    return (layout(game).size,)


def encode(state: Any, seat: int) -> np.ndarray:
    """``seat``'s view of ``state`` as a float32 vector in [0, 1]."""
    game = state.game
    info = state.information_state(seat)
    n, p = game.map.n, game.num_players
    v = layout(game).new()
    v.seat_blocks(seat, info, STEPS)
    v.onehot("round", min(int(info["round"]), ROUNDS + 1))
    v.bits("cards", info["cards"]).bits("used", info["used"])
    sheet = info["sheet"]
    for key in ("circled", "crossed", "exact"):
        v.bits(key, sheet[key])
    v.bits("required", sorted(game.required()))
    for q, other in info["others"].items():
        base = (relative(seat, int(q), p) - 1) * n
        for key in ("circled", "crossed", "exact"):
            v.bits(f"others_{key}", (base + i for i in other[key]))
    return v.array


__all__ = ["layout", "shape", "encode", "STEPS"]
