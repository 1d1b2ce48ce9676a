"""Small rules helpers that several games share: checking a seat number and
turning final scores into win shares.

>>> win_shares([5, 7, 7])
[0.0, 0.5, 0.5]
"""

from __future__ import annotations

from typing import Any

from ..errors import SolversError


def check_player(game: Any, player: int) -> None:
    """SolversError (one line) unless ``player`` is a seat of ``game``."""
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players:
        raise SolversError(f"no player {player!r} in a {game.num_players}-player game")


def win_shares(scores: list[int]) -> list[float]:
    """1 for the sole winner, a shared first place split evenly.

    >>> win_shares([30, 30, 12])
    [0.5, 0.5, 0.0]
    """
    best = max(scores)
    winners = sum(1 for s in scores if s == best)
    return [1.0 / winners if s == best else 0.0 for s in scores]
