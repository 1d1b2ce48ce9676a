"""Switchbacks as a fixed-size vector for learning environments.

:func:`encode` reads only ``state.information_state(seat)`` (what the seat
may see) and the game's sizes, so two states that differ only in what the
seat cannot see (the tiles in other hands and set-aside piles, the order of
the stack) give the same vector. Blocks about every seat list the viewer
first, then the next seats in turn; ``docs/envs.md`` describes each one::

    >>> import solvers
    >>> game = solvers.load_game("switchbacks", players=3)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> encode(state, 1).shape == shape(game) == (layout(game).size,)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...envs.layout import Layout, per_game, relative

STEPS = ("deal", "explore", "hike", "draw", "over")


@per_game
def layout(game: Any) -> Layout:
    """The blocks of the vector for ``game`` (``H`` hexes, ``T`` tiles, ``P`` seats)."""
    h, t, p = game.num_hexes, game.num_tiles, game.num_players
    return (Layout().seat_blocks(p)
            .block("step", len(STEPS), "one-hot: the step of the turn (" + ", ".join(STEPS) + ")")
            .block("board", h * t, f"for each hex, one-hot over the {t} tiles: the tile on it "
                   f"(index hex * {t} + tile - 1)")
            .block("hikers", h * p, f"for each hex and seat (from this seat), the hikers of that "
                   f"seat on it / 2 (1 = a buddy pair; index hex * {p} + seat)")
            .block("just_explored", h, "one-hot: the hex explored this turn (zeros when none)")
            .block("hand", t, "the tiles in this seat's hand (index tile - 1)")
            .block("set_aside", t, "this seat's set-aside tiles (index tile - 1)")
            .block("hand_sizes", p, f"each seat's hand size / {t}, from this seat")
            .block("set_aside_sizes", p, f"each seat's set-aside pile size / {t}, from this seat")
            .block("solo", p, f"each seat's unplaced solo hikers / {game.hikers_each}, from this seat")
            .block("buddies", p, f"each seat's waiting buddy pairs / {game.hikers_each // 2}, "
                   "from this seat")
            .block("stack", 1, f"the tiles left in the stack / {t}"))


def shape(game: Any) -> tuple[int, ...]:
    """The shape of :func:`encode`'s array for ``game``."""
    return (layout(game).size,)


def encode(state: Any, seat: int) -> np.ndarray:
    """``seat``'s view of ``state`` as a float32 vector in [0, 1]."""
    game = state.game
    info = state.information_state(seat)
    t, p = game.num_tiles, game.num_players
    v = layout(game).new()
    v.seat_blocks(seat, info, STEPS)
    for hex_id, tile in info["board"].items():
        v.set("board", int(hex_id) * t + tile - 1)
    for hex_id, (owner, count) in info["hikers"].items():
        v.set("hikers", int(hex_id) * p + relative(seat, owner, p), count / 2)
    explored = info["just_explored"]
    if explored is not None and explored >= 0:
        v.onehot("just_explored", explored)
    v.bits("hand", (x - 1 for x in info["hand"]))
    v.bits("set_aside", (x - 1 for x in info["set_aside"]))
    pairs = max(game.hikers_each // 2, 1)
    for q in range(p):
        r = relative(seat, q, p)
        v.scalar("hand_sizes", info["hand_sizes"][q], t, r)
        v.scalar("set_aside_sizes", info["set_aside_sizes"][q], t, r)
        solo, buddies = info["unplaced"][q]
        v.scalar("solo", solo, game.hikers_each, r)
        v.scalar("buddies", buddies, pairs, r)
    v.scalar("stack", info["stack"], t)
    return v.array


__all__ = ["layout", "shape", "encode", "STEPS"]
