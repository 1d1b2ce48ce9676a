"""Big Sur in the browser (``solve serve``): the card data and the score
breakdown, for ``board.js`` beside this module.

:func:`board` gives the drawing everything static: every Highway card (its
Scenery, Mile tag, cost, the Material its back supplies, its Persistent
Material or 2-Mile Bonus, with a short label for the card face), every
Landmark (Scenery, ability, short label), the constants of the rules the
drawing needs (the Stretch threshold, the Depot and row sizes, the turns)
and what every action id means, so the page never decodes moves itself.

>>> import solvers
>>> b = board(solvers.load_game("bigsur", players=2))
>>> len(b["cards"]), len(b["landmarks"]), len(b["deck"]), b["turns_each"]
(69, 20, 37, 7)
>>> b["cards"][0]["short"], b["landmarks"][0]["short"]
(['1 per Scenery', 'type'], '+4 points')
>>> b["actions"][0], b["actions"][69], b["actions"][70]
(['take', 1], ['draw'], ['build', 1])

:func:`breakdown` splits each seat's final score as the rulebook's Example
Scoring does: each Stretch, each 2-Mile Bonus, the Landmark count and each
Landmark's points.

:func:`annotate` gives the drawing every Highway's Stretches as the rules
find them (the brackets under the cards), all public (the contract of
:mod:`solvers.web`).
"""

from __future__ import annotations

from typing import Any

from ...errors import SolversError
from ..common import check_player
from .data import (
    DEPOT_SIZE,
    LANDMARK_COUNT_TABLE,
    LANDMARK_ROW,
    MATERIALS,
    MIN_STRETCH_ICONS,
    SCENERY,
    Bonus,
    CardSet,
)
from .reference import FINISH
from .scoring import Spot, find_stretches, score_highway, stretch_used

#: Short words for the face of a card, per 2-Mile Bonus kind: up to two lines.
_BONUS_SHORT = {
    "scenery_types": ("{points} per Scenery", "type"),
    "scenery_icons": ("{points} per", "{Scenery} icon"),
    "stretches": ("{points} per Stretch",),
    "landmarks": ("{points} per Landmark",),
    "one_mile_cards": ("{points} per", "1-mile card"),
    "material_cards": ("{points} per card", "of {Material}"),
    "double_icons": ("{points} per", "double icon"),
    "long_stretch": ("{points} for a Stretch", "of {miles}+ miles"),
    "scenery_stretch": ("{points} for a", "{Scenery} Stretch"),
    "cards": ("{points} for every", "{per} cards"),
}
_ABILITY_SHORT = {
    "points": "+{points} points",
    "mile_tag": "card below +{miles} {mile_word}",
    "material": "supplies {Material}",
}


def _words(template: str, bonus: Bonus) -> str:
    values = dict(bonus.params)
    for key in ("scenery", "material"):
        if key in values:
            values[key.capitalize()] = values[key].capitalize()
    if "miles" in values:
        values["mile_word"] = "mile" if values["miles"] == 1 else "miles"
    return template.format(**values)


def bonus_short(bonus: Bonus) -> list[str]:
    """A 2-Mile Bonus in at most two short lines (its full ``text`` otherwise).

    >>> from solvers.games.bigsur.data import load_cards
    >>> bonus_short(load_cards().card(1).bonus)
    ['1 per Scenery', 'type']
    """
    lines = _BONUS_SHORT.get(bonus.kind)
    return [_words(t, bonus) for t in lines] if lines else [bonus.text]


def ability_short(ability: Bonus) -> str:
    """A Landmark ability in a few words (its full ``text`` otherwise)."""
    template = _ABILITY_SHORT.get(ability.kind)
    return _words(template, ability) if template else ability.text


def _cards_of(game: Any) -> CardSet:
    cards = getattr(game, "cards", None)
    if not isinstance(cards, CardSet):
        raise SolversError("board() takes a Big Sur game (solvers.load_game('bigsur', ...))")
    return cards


def action_table(game: Any) -> list[list[Any]]:
    """What each action id means, as ``[kind, ...]``: ``take c``, ``draw``,
    ``build c``, ``end left|right``, ``discard c``, ``finish [counts per
    Material] recycle``, ``top m``, ``claim l``, ``place scenery position``,
    ``end_turn``, and the chance outcomes ``card c`` and ``landmark l``."""
    n, lm = game.num_cards, game.num_landmarks
    table: list[list[Any]] = [["take", c] for c in range(1, n + 1)]
    table.append(["draw"])
    table += [["build", c] for c in range(1, n + 1)]
    table += [["end", "left"], ["end", "right"]]
    table += [["discard", c] for c in range(1, n + 1)]
    table += [["finish", list(counts), recycle] for counts, recycle in FINISH]
    table += [["top", m] for m in MATERIALS]
    table += [["claim", l] for l in range(1, lm + 1)]
    table += [["place", s, pos] for s in SCENERY for pos in range(game.max_highway)]
    table.append(["end_turn"])
    table += [["card", c] for c in range(1, n + 1)]
    table += [["landmark", l] for l in range(1, lm + 1)]
    return table


def board(game: Any) -> dict[str, Any]:
    """Static data for drawing ``game`` (a built Big Sur game): see the module doc."""
    cards = _cards_of(game)
    return {
        "game": "bigsur",
        "players": game.num_players,
        "scenery": list(SCENERY),
        "materials": list(MATERIALS),
        "min_stretch_icons": MIN_STRETCH_ICONS,
        "depot_size": DEPOT_SIZE,
        "landmark_row": LANDMARK_ROW,
        "landmark_count_points": [list(r) for r in LANDMARK_COUNT_TABLE],
        "turns_each": game.turns_each,
        "deck": list(game.deck),
        "cards": [{
            "number": c.number, "scenery": list(c.scenery), "miles": c.miles, "cost": list(c.cost),
            "material": c.material, "persistent": c.persistent,
            "bonus": c.bonus.text if c.bonus else None,
            "short": bonus_short(c.bonus) if c.bonus else None,
        } for c in cards.highway],
        "landmarks": [{
            "number": l.number, "name": l.name, "scenery": list(l.scenery),
            "ability": l.ability.to_json(), "short": ability_short(l.ability),
        } for l in cards.landmarks],
        "actions": action_table(game),
    }


def highway_rows(highway: list[Spot]) -> list[dict[str, Any]]:
    """One Highway's points item by item, as the rulebook's Example Scoring:
    each Stretch, each 2-Mile Bonus, the Landmark count, each Landmark's
    points. Items worth nothing are left out.

    >>> from solvers.games.bigsur.highway import parse_highway
    >>> highway_rows(parse_highway({"highway": [
    ...     {"scenery": ["ocean", "ocean"], "miles": 4},
    ...     {"scenery": ["ocean", "field"], "miles": 2, "landmark": "Point Sur Lighthouse"}]}))
    [{'item': 'Ocean Stretch', 'points': 6}, {'item': 'Landmarks claimed', 'points': 3}, {'item': 'Landmark Point Sur Lighthouse', 'points': 3}]
    """  # noqa: E501 (a doctest's output line)
    parts = score_highway(highway)
    rows = []
    seen: dict[str, int] = {}
    for s in parts.stretches:
        seen[s.scenery] = seen.get(s.scenery, 0) + 1
        name = f"{s.scenery.capitalize()} Stretch" + (f" ({seen[s.scenery]})" if seen[s.scenery] > 1 else "")
        rows.append({"item": name, "points": s.miles})
    for pos, _text, points in parts.bonuses:
        card = highway[pos].card
        label = f"#{card.number}" if card.number else f"(card {pos + 1})"
        if points:
            rows.append({"item": f"2-Mile Bonus {label}: {' '.join(bonus_short(card.bonus))}",
                         "points": points})
    if parts.landmark_count_points:
        rows.append({"item": "Landmarks claimed", "points": parts.landmark_count_points})
    for pos, _text, points in parts.abilities:
        if points:
            rows.append({"item": f"Landmark {highway[pos].landmark.name}", "points": points})
    return rows


def breakdown(state: Any) -> list[list[dict[str, Any]]]:
    """Each seat's final score as ``{"item", "points"}`` rows summing to it."""
    _cards_of(state.game)
    return [highway_rows(state.spots(seat)) for seat in range(state.game.num_players)]


def stretches(highway: list[Spot]) -> list[dict[str, Any]]:
    """The Stretches of one Highway as :func:`.scoring.find_stretches` finds
    them (by Scenery type, then left to right), as JSON: ``{"scenery",
    "first", "last"`` (positions, inclusive), ``"cards"`` (their numbers),
    ``"icons", "miles"`` (Landmark Mile-tag changes counted) and
    ``"claimed"}`` (a Landmark was claimed through it: it cannot claim
    another, :func:`.scoring.stretch_used`).

    >>> from solvers.games.bigsur.highway import parse_highway
    >>> stretches(parse_highway({"highway": [
    ...     {"scenery": ["ocean", "ocean"], "miles": 4},
    ...     {"scenery": ["ocean", "field"], "miles": 2, "landmark": "Point Sur Lighthouse"}]}))
    [{'scenery': 'ocean', 'first': 0, 'last': 1, 'cards': [0, 0], 'icons': 3, 'miles': 6, 'claimed': True}]
    """
    return [{"scenery": s.scenery, "first": s.first, "last": s.last,
             "cards": [highway[k].card.number for k in s.positions],
             "icons": s.icons, "miles": s.miles, "claimed": stretch_used(highway, s)}
            for s in find_stretches(highway)]


def annotate(state: Any, seat: int) -> dict[str, Any]:
    """What the rules derive from ``state`` for drawing it, for ``seat``:
    ``stretches``, one list per seat of that Highway's Stretches
    (:func:`stretches`).

    Only what the seat may know: every Highway and the Landmarks on it are
    public (``docs/rules/big-sur.md``, "Hidden information"), and a Stretch
    depends on nothing else, so the answer is the same for every seat and
    for positions that differ only in hands, piles below their tops or the
    decks.

    >>> import solvers
    >>> state = solvers.load_game("bigsur", players=2).new_initial_state(seed=1)
    >>> annotate(state, 0)
    {'stretches': [[], []]}
    """
    _cards_of(state.game)
    check_player(state.game, seat)
    return {"stretches": [stretches(state.spots(p)) for p in range(state.game.num_players)]}
