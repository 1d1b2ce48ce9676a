"""Big Sur's hook for game records (:mod:`solvers.record`): the seat's view
as the kernel's struct (:func:`solvers.record.save_kernel_view`), written
at the seat's own decisions, at chance steps and at the end.

The struct of the view is everything the seat knows (its whole discard
pile, the turns played, the build in progress) with what it cannot see
dealt afresh from a fixed seed. At another seat's decisions nothing is
written: that seat may be paying face down, which ``seat`` has not seen, and
the seat's view cannot be dealt then; those steps are rebuilt by replaying
the moves the seat saw from its last decision. Records written before this
format (the table position of :mod:`.position`) still load.
"""

from __future__ import annotations

from typing import Any

from ...errors import SolversError


def save_view(state: Any, seat: int | None) -> dict[str, Any] | None:
    """The kernel view of ``seat`` at its own decisions, at chance steps and
    at the end (where the view can be dealt); None elsewhere (and for the referee, whose record replays its moves).

        >>> import solvers
        >>> game = solvers.load_game("bigsur", players=2)
        >>> state = game.new_initial_state(seed=1)
        >>> state.apply_seeded_chance()
        >>> seat = state.current_player()
        >>> save_view(state, seat)["view"], save_view(state, 1 - seat)
        ('kernel-raw', None)
    """
    from ...game import CHANCE
    from ...record import save_kernel_view

    if seat is None or (not state.is_terminal() and state.current_player() not in (seat, CHANCE)):
        return None
    try:
        return save_kernel_view(state, seat)
    except SolversError:          # a moment the seat's view cannot be dealt
        return None


def load_view(raw: dict[str, Any], game: Any) -> Any:
    """The state of a position :func:`save_view` wrote (or, from an older
    record, a table position of :mod:`.position`), on ``game``."""
    from ...record import load_kernel_view

    if raw.get("view") is not None:
        return load_kernel_view(raw, game)
    from .position import parse_position

    return parse_position(raw, cards=game.cards, source="in the record")
