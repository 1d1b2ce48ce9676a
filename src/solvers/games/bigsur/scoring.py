"""Scoring a Big Sur Highway: Stretches, 2-Mile Bonuses and Landmarks.

A Highway is a list of :class:`Spot` from left to right: a Highway card, and
the Landmark above it (if any) with the Scenery type of the Stretch that
claimed it. The rules as the library reads them: ``docs/rules/big-sur.md``.

A Stretch is a maximal run of side-by-side cards that all show one Scenery
type and hold at least 3 icons of it (a double icon counts 2); it scores the
sum of its cards' Mile tags, after Landmark Mile-tag changes.

>>> from solvers.games.bigsur.data import HighwayCard
>>> def card(a, b, miles):
...     return Spot(HighwayCard(0, (a, b), miles, ("stone", "water"), "stone", (4,)))
>>> road = [card("field", "ocean", 4), card("ocean", "ocean", 2)]
>>> [(s.scenery, s.miles) for s in find_stretches(road)]
[('ocean', 6)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .data import LANDMARK_COUNT_TABLE, MIN_STRETCH_ICONS, SCENERY, HighwayCard, Landmark


@dataclass(frozen=True)
class Spot:
    """One card of a Highway, with the Landmark above it (if any) and the
    Scenery type of the Stretch through which that Landmark was claimed."""

    card: HighwayCard
    landmark: Landmark | None = None
    claimed: str | None = None

    def miles(self) -> int:
        """The card's Mile tag, changed by a ``mile_tag`` Landmark above it."""
        extra = 0
        if self.landmark is not None and self.landmark.ability.kind == "mile_tag":
            extra = self.landmark.ability.get("miles")
        return self.card.miles + extra


@dataclass(frozen=True)
class Stretch:
    """A run of cards ``first..last`` (positions, inclusive) scoring ``miles``."""

    scenery: str
    first: int
    last: int
    icons: int
    miles: int

    @property
    def positions(self) -> list[int]:
        return list(range(self.first, self.last + 1))


def runs(highway: list[Spot], scenery: str) -> list[tuple[int, int, int]]:
    """Maximal runs of cards showing ``scenery``: (first, last, icons)."""
    out = []
    i = 0
    while i < len(highway):
        if highway[i].card.icons(scenery) == 0:
            i += 1
            continue
        j, icons = i, 0
        while j < len(highway) and highway[j].card.icons(scenery):
            icons += highway[j].card.icons(scenery)
            j += 1
        out.append((i, j - 1, icons))
        i = j
    return out


def find_stretches(highway: list[Spot]) -> list[Stretch]:
    """Every Stretch of the Highway, by Scenery type (in ``SCENERY`` order),
    then left to right."""
    out = []
    for kind in SCENERY:
        for first, last, icons in runs(highway, kind):
            if icons >= MIN_STRETCH_ICONS:
                miles = sum(highway[k].miles() for k in range(first, last + 1))
                out.append(Stretch(kind, first, last, icons, miles))
    return out


def stretch_at(highway: list[Spot], scenery: str, position: int) -> Stretch | None:
    """The ``scenery`` Stretch that holds the card at ``position``, if any."""
    for s in find_stretches(highway):
        if s.scenery == scenery and s.first <= position <= s.last:
            return s
    return None


def stretch_used(highway: list[Spot], stretch: Stretch) -> bool:
    """True once a Landmark claimed through this Stretch's type sits above one of its cards."""
    return any(highway[k].landmark is not None and highway[k].claimed == stretch.scenery
               for k in stretch.positions)


def landmark_count_points(count: int) -> int:
    """Points for the number of Landmarks in a Highway.

    >>> [landmark_count_points(n) for n in range(7)]
    [0, 3, 3, 5, 5, 8, 8]
    """
    for at_least, points in LANDMARK_COUNT_TABLE:
        if count >= at_least:
            return points
    return 0


def bonus_points(kind: str, params: dict[str, Any], highway: list[Spot],
                 stretches: list[Stretch]) -> int:
    """What a 2-Mile Bonus scores in this Highway."""
    points = params.get("points", 0)
    cards = [s.card for s in highway]
    if kind == "scenery_types":
        return points * len({k for c in cards for k in c.scenery})
    if kind == "scenery_icons":
        return points * sum(c.icons(params["scenery"]) for c in cards)
    if kind == "stretches":
        return points * len(stretches)
    if kind == "landmarks":
        return points * sum(1 for s in highway if s.landmark is not None)
    if kind == "one_mile_cards":
        return points * sum(1 for s in highway if s.miles() == 1)
    if kind == "material_cards":
        return points * sum(1 for c in cards if c.material == params["material"])
    if kind == "double_icons":
        return points * sum(1 for c in cards if c.scenery[0] == c.scenery[1])
    if kind == "long_stretch":
        return points if any(s.miles >= params["miles"] for s in stretches) else 0
    if kind == "scenery_stretch":
        return points if any(s.scenery == params["scenery"] for s in stretches) else 0
    if kind == "cards":
        return points * (len(cards) // params["per"])
    raise ValueError(f"unknown bonus kind {kind!r}")


@dataclass
class Breakdown:
    """A Highway's score, itemised as the rulebook's Example Scoring does."""

    stretches: list[Stretch] = field(default_factory=list)
    bonuses: list[tuple[int, str, int]] = field(default_factory=list)     # (position, text, points)
    landmarks: int = 0
    landmark_count_points: int = 0
    abilities: list[tuple[int, str, int]] = field(default_factory=list)   # (position, text, points)

    @property
    def total(self) -> int:
        return (sum(s.miles for s in self.stretches) + sum(b[2] for b in self.bonuses)
                + self.landmark_count_points + sum(a[2] for a in self.abilities))


def score_highway(highway: list[Spot]) -> Breakdown:
    """The itemised score of a finished (or unfinished) Highway."""
    stretches = find_stretches(highway)
    out = Breakdown(stretches=stretches)
    for pos, spot in enumerate(highway):
        bonus = spot.card.bonus
        if bonus is not None:
            out.bonuses.append((pos, bonus.text,
                                bonus_points(bonus.kind, dict(bonus.params), highway, stretches)))
    placed = [(pos, s.landmark) for pos, s in enumerate(highway) if s.landmark is not None]
    out.landmarks = len(placed)
    out.landmark_count_points = landmark_count_points(len(placed))
    for pos, landmark in placed:
        ability = landmark.ability
        if ability.kind == "points":
            out.abilities.append((pos, ability.text, ability.get("points")))
    return out


def score(highway: list[Spot]) -> int:
    """The total score of a Highway."""
    return score_highway(highway).total
