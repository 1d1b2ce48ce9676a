"""Reading a shuffle a person actually played: one location name per line.

A deal file lists 24 cards: the 4 setup cards, then the 4 cards of each of
the 5 rounds. Names are case-insensitive; blank lines and lines starting with
``#`` are ignored.

>>> from solvers.games.c2c.data import load_map
>>> parse_deal(["Hollywood", "chase field"], load_map(), expected=2)
[26, 27]
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import SolversError
from .data import CoastMap
from .reference import CARDS_PER_ROUND, ROUNDS

SOLO_DEAL_LENGTH = 4 + ROUNDS * CARDS_PER_ROUND


def parse_deal(lines: Iterable[str], m: CoastMap, challenge: int | None = None,
               expected: int = SOLO_DEAL_LENGTH, source: str = "deal") -> list[int]:
    """Card ids from the deal's lines, checked: count, duplicates, challenge card."""
    cards: list[int] = []
    where: dict[int, int] = {}
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            loc = m.location(text)
        except SolversError as e:
            raise SolversError(f"{source}, line {number}: {e}") from None
        if loc.id in where:
            raise SolversError(
                f"{source}, line {number}: {loc.name} is dealt twice (first on line {where[loc.id]})"
            )
        if challenge is not None and loc.id == challenge:
            raise SolversError(
                f"{source}, line {number}: {loc.name} is the challenge card, which is out of the deck"
            )
        where[loc.id] = number
        cards.append(loc.id)
    if len(cards) != expected:
        raise SolversError(
            f"{source}: {len(cards)} cards listed, but a deal has {expected} "
            f"(4 setup cards, then 4 for each of {ROUNDS} rounds)"
        )
    return cards


def shuffle_seeds(seed: int, count: int) -> list[int]:
    """The seeds of the ``count`` random shuffles a report uses for ``seed``."""
    from ...rng import SplitMix64, seed_from

    r = SplitMix64(seed_from(seed))
    return [r.next() for _ in range(count)]


def shuffle_deals(m: CoastMap, challenge: int | None, count: int, seed: int) -> list[list[int]]:
    """The 24-card deals of those shuffles: the first 24 cards of each seeded deck."""
    from .reference import CoastToCoast

    game = CoastToCoast(1, challenge=challenge, map=m)
    return [game.new_initial_state(s).order[:SOLO_DEAL_LENGTH] for s in shuffle_seeds(seed, count)]
