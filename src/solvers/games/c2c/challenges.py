"""Solo challenges: which locations a challenge card demands, and why.

>>> from solvers.games.c2c.data import load_map
>>> m = load_map()
>>> req = required_locations(m, "Empire State Building")
>>> len(req), req[0].name, req[0].reasons
(9, 'Space Needle', ('type building',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

from ...errors import SolversError
from .data import CoastMap


@dataclass(frozen=True)
class Requirement:
    """A location the challenge demands and the characteristics it shares with the card."""

    id: int
    name: str
    reasons: tuple[str, ...]


@overload
def challenge_id(m: CoastMap, challenge: str | int) -> int: ...
@overload
def challenge_id(m: CoastMap, challenge: None) -> None: ...
def challenge_id(m: CoastMap, challenge: str | int | None) -> int | None:
    """The location id of a challenge card given by name or id (None stays None)."""
    if challenge is None:
        return None
    if isinstance(challenge, bool) or not isinstance(challenge, (int, str)):
        raise SolversError(f"a challenge is a location name or id, not {challenge!r}")
    if isinstance(challenge, str):
        return m.location(challenge).id
    if not 0 <= challenge < m.n:
        raise SolversError(f"no location {challenge} on a map of {m.n} locations")
    return challenge


def required_locations(m: CoastMap, challenge: str | int) -> list[Requirement]:
    """Every location sharing the card's highway, region or type, in id order."""
    card = m.locations[challenge_id(m, challenge)]
    out = []
    for loc in m.locations:
        reasons = []
        if loc.highway == card.highway:
            reasons.append(f"highway {card.highway}")
        if loc.region == card.region:
            reasons.append(f"region {card.region}")
        if loc.type == card.type:
            reasons.append(f"type {card.type}")
        if reasons:
            out.append(Requirement(loc.id, loc.name, tuple(reasons)))
    return out
