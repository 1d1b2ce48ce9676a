"""Santa Cruz as a fixed-size vector for learning environments.

:func:`encode` reads only ``state.information_state(seat)`` (what the seat
may see) and the island's data, so two states that differ only in what the
seat cannot see (the face-down tiles, the other seats' scoring cards and
bird tokens, the order of the bag and the pile) give the same vector.
Blocks about every seat list the viewer first, then the next seats in
turn; ``docs/envs.md`` describes each one::

    >>> import solvers
    >>> game = solvers.load_game("santacruz", players=2)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> encode(state, 0).shape == shape(game) == (layout(game).size,)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...envs.layout import Layout, per_game, relative
from .reference import BUILD_KINDS, CARD_KINDS

STEPS = ("layout", "deal", "choose", "discard", "land", "play", "build", "bird", "draw", "over")
BUILDINGS = ("house", "church", "lighthouse")
ROUNDS = 2
#: Points are divided by this (and capped at 1) in the ``score`` block.
SCORE_SCALE = 200


@per_game
def layout(game: Any) -> Layout:
    """The blocks of the vector for ``game`` (``S`` sites, ``T`` tiles, ``C``
    scoring cards, ``B`` building sets, ``P`` seats)."""
    isl = game.island
    s, t, c, b, p = game.num_sites, len(isl.tiles), len(isl.scoring_cards), len(isl.building_sets), \
        game.num_players
    birds = sum(isl.bird_tokens.values())
    return (Layout().seat_blocks(p)
            .block("step", len(STEPS), "one-hot: the step of the game (" + ", ".join(STEPS) + ")")
            .block("round", ROUNDS, "one-hot: the round (1, 2)")
            .block("start", p, "one-hot: the seat that starts the round, counted from this seat")
            .block("sites_laid", 1, f"the sites that hold a tile / {s}")
            .block("tiles", s * t, f"for each site, one-hot over the {t} tiles: the face-up tile on it "
                   f"(index site * {t} + tile)")
            .block("buildings", s * p, f"1 where a seat (from this seat) has built on a site "
                   f"(index site * {p} + seat)")
            .block("supply", p * len(BUILDINGS), "each seat's buildings left (house, church, "
                   "lighthouse), each / its starting supply")
            .block("score", p, f"each seat's points / {SCORE_SCALE} (capped at 1), from this seat")
            .block("place", p * p, f"each seat's place on the score track, one-hot over {p} places "
                   f"(index seat * {p} + place)")
            .block("birds", len(isl.bird_tokens), "this seat's bird tokens of each value (1, 2, 3), "
                   "each / the tokens of that value")
            .block("bird_counts", p, f"each seat's bird tokens / {birds}, from this seat")
            .block("bag", 1, f"the tiles left in the bag / {t}")
            .block("pile", 1, f"the scoring cards left in the pile / {c}")
            .block("sets", p * b, f"one-hot: each seat's building set (index seat * {b} + set)")
            .block("set_scoring", b * c, f"the scoring cards dealt with each building set "
                   f"(index set * {c} + card)")
            .block("hand_build", p * len(CARD_KINDS), "each seat's building cards in hand (ship, road, "
                   "river, double), each / 4")
            .block("hand", c, "the scoring cards in this seat's hand")
            .block("hand_sizes", p, f"each seat's scoring cards in hand / {c}, from this seat")
            .block("played_build", p * len(CARD_KINDS), "the building cards each seat has played this "
                   "round (ship, road, river, double), each / 4")
            .block("played_score", p * c, f"the scoring cards each seat has played (index seat * {c} + card)")
            .block("drawn", c, "one-hot: the scoring card this seat has drawn (zeros when none)")
            .block("has_drawn", p, "1 for each seat (from this seat) that has drawn a scoring card")
            .block("discarded", c, "one-hot: the scoring card this seat has discarded (zeros when none)")
            .block("has_discarded", p, "1 for each seat (from this seat) that has discarded one")
            .block("order", p * p, f"the seat at each position of the play order, one-hot from this "
                   f"seat (index position * {p} + seat)")
            .block("order_pos", 1, f"the position reached in the play order / {p}")
            .block("privilege_used", 1, "1 when the starting seat's privilege was used")
            .block("build_kind", len(BUILD_KINDS), "one-hot: the building card being played (ship, "
                   "road, river; zeros when none)")
            .block("builds_left", 1, "the buildings it still lets the player build / 4")
            .block("double", 1, "1 when it is played as a double"))


def shape(game: Any) -> tuple[int, ...]:
    """The shape of :func:`encode`'s array for ``game``."""
    return (layout(game).size,)


def encode(state: Any, seat: int) -> np.ndarray:
    """``seat``'s view of ``state`` as a float32 vector in [0, 1]."""
    game = state.game
    isl = game.island
    info = state.information_state(seat)
    t, c, b, p = len(isl.tiles), len(isl.scoring_cards), len(isl.building_sets), game.num_players
    v = layout(game).new()

    def rel(q: int) -> int:
        return relative(seat, q, p)

    v.seat_blocks(seat, info, STEPS)
    if 1 <= info["round"] <= ROUNDS:
        v.onehot("round", info["round"] - 1)
    if 0 <= info["start"] < p:
        v.onehot("start", rel(info["start"]))
    v.scalar("sites_laid", info["sites_laid"], game.num_sites)
    for site, tile in info["tiles"].items():
        v.set("tiles", int(site) * t + tile)
    for site, owners in info["buildings"].items():
        for q in owners:
            v.set("buildings", int(site) * p + rel(q))
    for q in range(p):
        r = rel(q)
        for k, kind in enumerate(BUILDINGS):
            v.scalar("supply", info["supply"][q][kind], isl.supply[kind], r * len(BUILDINGS) + k)
        v.scalar("score", info["score"][q], SCORE_SCALE, r)
        v.scalar("bird_counts", info["bird_counts"][q], sum(isl.bird_tokens.values()), r)
        if info["sets"][q] >= 0:
            v.set("sets", r * b + info["sets"][q])
        for k, kind in enumerate(CARD_KINDS):
            v.scalar("hand_build", info["hand_build"][q][kind], 4, r * len(CARD_KINDS) + k)
            v.scalar("played_build", info["played_build"][q].count(kind), 4, r * len(CARD_KINDS) + k)
        v.scalar("hand_sizes", info["hand_sizes"][q], c, r)
        v.bits("played_score", (r * c + x for x in info["played_score"][q]))
        v.set("has_drawn", r, float(bool(info["has_drawn"][q])))
        v.set("has_discarded", r, float(bool(info["has_discarded"][q])))
    for place, q in enumerate(info["track"]):
        v.set("place", rel(q) * p + place)
    values = sorted(isl.bird_tokens)
    for value in values:
        v.scalar("birds", info["birds"].count(value), isl.bird_tokens[value], values.index(value))
    v.scalar("bag", info["bag"], t)
    v.scalar("pile", info["pile"], c)
    for k, cards in info["set_scoring"].items():
        v.bits("set_scoring", (int(k) * c + x for x in cards))
    v.bits("hand", info["hand"])
    if info["drawn"] >= 0:
        v.set("drawn", info["drawn"])
    if info["discarded"] >= 0:
        v.set("discarded", info["discarded"])
    for position, q in enumerate(info["order"]):
        v.set("order", position * p + rel(q))
    v.scalar("order_pos", info["order_pos"], p)
    v.set("privilege_used", 0, float(bool(info["privilege_used"])))
    kind, left, double = info["build"]
    if kind in BUILD_KINDS:
        v.onehot("build_kind", BUILD_KINDS.index(kind))
    v.scalar("builds_left", left, 4)
    v.set("double", 0, float(bool(double)))
    return v.array


__all__ = ["layout", "shape", "encode", "STEPS"]
