"""Santa Cruz in the terminal: what :mod:`solvers.cli.verbs` needs of the
game (its record's ``renderer`` and ``move_reader``)."""

from __future__ import annotations

from typing import Any

from . import read_santacruz, render_santacruz


def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The island, the tiles, the piles left and every player, their secrets
    shown to ``seat`` only (``seat`` None: everybody's)."""
    return render_santacruz.draw(state, seat, color)


def seat_label(seat: int) -> str:
    """A seat as the board marks it: ``player 1 (b)``."""
    from .render_santacruz import SEAT_LETTERS

    return f"player {seat} ({SEAT_LETTERS[seat]})"


def value_words(game: Any, value: float) -> str:
    return f"win share {value:.3f}"


def value_note(game: Any) -> str:
    return ("win share: the AI's estimate of your share of first place after the move "
            "(1 a sure win, 0 a sure loss)")


#: A bare number typed at the prompt is a site (``5`` lands on site 5), not
#: the 5th listed move (``#5`` is that): :func:`solvers.cli.verbs` hands it
#: to the reader.
READS_NUMBERS = True

#: The game's move reader (its record's ``move_reader``).
parse_move = read_santacruz.read_move

#: What the reader understands, for the prompt's ``help``.
HELP = read_santacruz.HELP

