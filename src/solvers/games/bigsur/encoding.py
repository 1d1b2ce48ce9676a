"""Big Sur as a fixed-size vector for learning environments.

:func:`encode` reads only ``state.information_state(seat)`` (what the seat
may see) and the game's card file, so two states that differ only in what
the seat cannot see (the other hands, the cards under the other discard
piles' tops, the order of the decks, another seat's face-down payment) give
the same vector. Blocks about every seat list the viewer first, then the
next seats in turn; ``docs/envs.md`` describes each one::

    >>> import solvers
    >>> game = solvers.load_game("bigsur", players=2)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> encode(state, 0).shape == shape(game) == (layout(game).size,)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...envs.layout import Layout, per_game, relative
from .data import TAKE_PER_TURN

STEPS = ("deal", "take", "draw", "build", "end", "pay", "top", "place", "reveal", "refill", "over")
ENDS = ("left", "right")


@per_game
def layout(game: Any) -> Layout:
    """The blocks of the vector for ``game`` (``N`` Highway cards, ``L``
    Landmarks, Highways of at most ``M`` cards, ``P`` seats)."""
    n, lm, m, p = game.num_cards, game.num_landmarks, game.max_highway, game.num_players
    deck = len(game.deck)
    return (Layout().seat_blocks(p)
            .block("step", len(STEPS), "one-hot: the step of the turn (" + ", ".join(STEPS) + ")")
            .block("highways", p * m * n, f"each seat's Highway (from this seat), left to right: for "
                   f"each of its {m} places, one-hot over the {n} cards (index (seat * {m} + place) "
                   f"* {n} + card - 1)")
            .block("landmark_above", p * m, f"1 where a Landmark stands above a place of a Highway "
                   f"(index seat * {m} + place)")
            .block("landmarks", p * lm, f"the Landmarks each seat has placed (index seat * {lm} + "
                   "landmark - 1)")
            .block("hand", n, "the cards in this seat's hand (index card - 1)")
            .block("hand_sizes", p, f"each seat's hand size / {n}, from this seat")
            .block("pile", n, "the cards in this seat's own discard pile")
            .block("pile_tops", p * n, f"one-hot: the top card of each seat's discard pile "
                   f"(index seat * {n} + card - 1; zeros for an empty pile)")
            .block("pile_sizes", p, f"each seat's discard pile size / {n}, from this seat")
            .block("depot", n, "the cards in the Depot")
            .block("row", lm, "the Landmarks in the row")
            .block("deck", 1, f"the cards left in the Highway deck / {deck}")
            .block("landmark_deck", 1, f"the Landmarks left in their deck / {lm}")
            .block("turns", p, f"the turns each seat has taken / {game.turns_each}, from this seat")
            .block("taken", 1, f"the cards taken this turn / {TAKE_PER_TURN}")
            .block("used_cards", n, "built cards whose Persistent Material was used this turn")
            .block("used_landmarks", lm, "Landmarks whose Material was used this turn")
            .block("recycled", 1, "1 when Recycling was used this turn")
            .block("claimed", 1, "1 when a Landmark was claimed this turn")
            .block("building", n, "one-hot: the card being built (zeros when none)")
            .block("end", len(ENDS), "one-hot: the end of the Highway it goes to (left, right)")
            .block("paying", n, "the cards this seat has discarded so far for the build (own turn)")
            .block("paying_count", 1, f"the cards discarded so far for the build / {n} (any turn)")
            .block("pay_finish", 1, "1 when the Persistent Materials and Recycling of the payment "
                   "are chosen")
            .block("claiming", lm, "one-hot: the Landmark being placed (zeros when none)"))


def shape(game: Any) -> tuple[int, ...]:
    """The shape of :func:`encode`'s array for ``game``."""
    return (layout(game).size,)


def encode(state: Any, seat: int) -> np.ndarray:
    """``seat``'s view of ``state`` as a float32 vector in [0, 1]."""
    game = state.game
    info = state.information_state(seat)
    n, lm, m, p = game.num_cards, game.num_landmarks, game.max_highway, game.num_players
    v = layout(game).new()
    v.seat_blocks(seat, info, STEPS)
    for q in range(p):
        r = relative(seat, q, p)
        road = info["highways"][q]
        marks = info["landmarks"][q]
        for place, card in enumerate(road[:m]):
            v.set("highways", (r * m + place) * n + card - 1)
            if str(card) in marks:
                v.set("landmark_above", r * m + place)
        for mark in marks.values():
            v.set("landmarks", r * lm + mark[0] - 1)
        v.scalar("hand_sizes", info["hand_sizes"][q], n, r)
        top = info["pile_tops"][q]
        if top is not None:
            v.set("pile_tops", r * n + top - 1)
        v.scalar("pile_sizes", info["pile_sizes"][q], n, r)
        v.scalar("turns", info["turns"][q], game.turns_each, r)
    v.bits("hand", (c - 1 for c in info["hand"]))
    v.bits("pile", (c - 1 for c in info["pile"]))
    v.bits("depot", (c - 1 for c in info["depot"]))
    v.bits("row", (x - 1 for x in info["row"]))
    v.scalar("deck", info["deck"], len(game.deck))
    v.scalar("landmark_deck", info["landmark_deck"], lm)
    v.scalar("taken", info["taken"], TAKE_PER_TURN)
    for kind, number in info["used"]:
        v.set("used_cards" if kind == "card" else "used_landmarks", number - 1)
    v.set("recycled", 0, float(bool(info["recycled"])))
    v.set("claimed", 0, float(bool(info["claimed"])))
    if info["building"] is not None:
        v.set("building", info["building"] - 1)
    if info["end"] in ENDS:
        v.onehot("end", ENDS.index(info["end"]))
    paying = info["paying"]
    if isinstance(paying, list):
        v.bits("paying", (c - 1 for c in paying))
        v.scalar("paying_count", len(paying), n)
    else:
        v.scalar("paying_count", paying, n)
    v.set("pay_finish", 0, float(info["pay_finish"] is not None))
    if info["claiming"] is not None:
        v.set("claiming", info["claiming"] - 1)
    return v.array


__all__ = ["layout", "shape", "encode", "STEPS"]
