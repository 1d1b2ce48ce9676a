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
from ...rng import SplitMix64, seed_from
from .data import CoastMap, load_map
from .reference import CARDS_PER_ROUND, ROUNDS, CoastToCoast

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
        if not cards and text[0] in "{[":
            raise SolversError(f"{source} looks like JSON; a deal file lists one location "
                               f"name per line")
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


def shuffle_seeds(seed: int, shuffles: int) -> list[int]:
    """The seed of each random shuffle of a report, drawn from one SplitMix64."""
    rng = SplitMix64(seed_from(seed))
    return [rng.next() for _ in range(shuffles)]


def shuffle_deal(game_or_challenge: CoastToCoast | str | int | None, seed: int,
                 map: CoastMap | str | None = None) -> list[int]:
    """The 24 cards a solo game deals from ``seed`` (setup first, then the rounds).

    It is the reference game's own seeded deck, so an online player given
    the same seed sees the same cards::

        >>> deal = shuffle_deal("The Alamo", seed=1)
        >>> len(deal), len(set(deal))
        (24, 24)
    """
    if isinstance(game_or_challenge, CoastToCoast):
        game = game_or_challenge
    else:
        game = CoastToCoast(players=1, challenge=game_or_challenge,
                            map=map if isinstance(map, CoastMap) else load_map(map))
    if game.num_players != 1:
        raise SolversError("shuffle_deal is for the solo game")
    state = game.new_initial_state(seed=seed)
    return list(state.order[:SOLO_DEAL_LENGTH])


def shuffle_deals(m: CoastMap, challenge: int | None, count: int, seed: int) -> list[list[int]]:
    """The deals of the ``count`` shuffles a report with ``seed`` uses."""
    game = CoastToCoast(players=1, challenge=challenge, map=m)
    return [shuffle_deal(game, s) for s in shuffle_seeds(seed, count)]
