"""Coast to Coast's hooks for game records and reviews (:mod:`solvers.record`,
:mod:`solvers.review`): what a review's values are, and the hindsight report
``solve c2c review`` adds for a solo game (:mod:`solvers.cli.review_c2c`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import SolversError


def _score(value: float) -> float:
    # Solo without a challenge the search utility is score / 100.
    return 100.0 * value


def _challenge(value: float) -> float:
    # Solo with a challenge the utility is 0 for a lost challenge, else
    # 1 + score / 1000: its mean is the chance of winning it plus at most a
    # tenth, so it is read as a win chance (capped at 1).
    return min(1.0, value)


def _share(value: float) -> float:
    return value


def review_measure(game: Any) -> tuple[str, Callable[[float], float]]:
    """(label, convert) of a review's values (see ``GameInfo.review_measure``):
    with several seats win chances; solo the expected score, or with a
    challenge the chance of winning it (approximate: the search's utility
    adds a thousandth per point to a won challenge)."""
    if game.num_players > 1:
        return "win chance", _share
    if game.challenge is None:
        return "expected score", _score
    return "win chance", _challenge


def history_position(record: Any) -> dict[str, Any]:
    """The engine history position of a record whose every step is known
    (a referee record, or a solo seat record): what
    :func:`solvers.games.c2c.review.review_game` reads."""
    if any(step.action is None for step in record.steps):
        raise SolversError("the record hides some moves, so there is no hindsight review")
    state = record.game_object.new_initial_state(seed=0)
    moves = []
    for step in record.steps:
        moves.append(state.action_to_string(step.action))
        state.apply_action(step.action)
    return {"game": "c2c", "players": record.players, "options": dict(record.options), "seed": 0,
            "moves": moves}


def save_view(state: Any, seat: int | None) -> dict[str, Any] | None:
    """The position of ``seat``'s view of ``state`` for a record
    (``GameInfo.record_view``): the kernel's struct of the view
    (:func:`solvers.record.save_kernel_view`), except while another seat is
    to move. The view keeps that seat's marks of the turn it is playing
    (the search of the seat to move needs them), which ``seat`` has not
    seen, so none is written there: the record rebuilds those steps with
    stand-in moves that read as the seat read them (``record_stand_ins``).

        >>> import solvers
        >>> game = solvers.load_game("c2c", players=2)
        >>> state = game.new_initial_state(seed=1)
        >>> state.apply_seeded_chance()
        >>> save_view(state, 0)["view"], save_view(state, 1 - state.current_player())
        ('kernel-raw', None)
    """
    from ...game import CHANCE
    from ...record import save_kernel_view

    if seat is not None and not state.is_terminal() and state.current_player() not in (seat, CHANCE):
        return None
    return save_kernel_view(state, seat)
