"""Text drawings of a state for the environments' ``render_mode="ansi"``.

A game's record names its terminal renderer (``GameInfo.renderer``, a
module). The drawing is always of :func:`~solvers.agents.base.seat_view`
of the state for the seat drawn for, so nothing that seat cannot see can
reach the picture, whatever the renderer draws. Renderers come in two
shapes, and :func:`draw_text` takes either, so this module never names a
game:

* the common interface, ``draw(state, seat, color) -> str``;
* the older per-game functions, found by name: ``table_text(state, seat,
  color)``, or a board (``draw_board`` / ``draw_map``, ``(state, color)``)
  followed by ``describe_player(state, player, viewer=seat)`` for each seat.

A renderer with neither (or no renderer at all) falls back to the seat's
information state, one field a line; so does a moment at which the game
cannot make the seat's view (Big Sur refuses to re-deal while another seat
is paying face down).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..agents.base import seat_view
from ..errors import SolversError


def draw_text(info: Any, state: Any, seat: int) -> str:
    """``state`` drawn for ``seat`` (plain text, no colour), ``info`` being
    the game's record."""
    try:
        view = seat_view(state, seat)
    except SolversError:
        # A moment the game cannot re-deal for this seat (Big Sur while
        # another seat pays face down): the seat's information, as text.
        return _information_text(state, seat).rstrip("\n") + "\n"
    module = _renderer(info)
    body = None
    if module is not None:
        body = _draw_with(module, view, seat)
    if body is None:
        body = _information_text(view, seat)
    return body.rstrip("\n") + "\n"


def _renderer(info: Any) -> Any:
    if not info.renderer:
        return None
    try:
        return import_module(info.renderer)
    except ImportError:
        return None


def _draw_with(module: Any, view: Any, seat: int) -> str | None:
    draw = getattr(module, "draw", None)
    if callable(draw):
        return str(draw(view, seat, False))
    table = getattr(module, "table_text", None)
    if callable(table):
        return str(table(view, seat, False))
    board = getattr(module, "draw_board", None) or getattr(module, "draw_map", None)
    describe = getattr(module, "describe_player", None)
    if callable(board) and callable(describe):
        lines = [str(board(view, color=False))]
        lines += [str(describe(view, q, viewer=seat)) for q in range(view.game.num_players)]
        return "\n".join(lines)
    return None


def _information_text(view: Any, seat: int) -> str:
    info = view.information_state(seat)
    return "\n".join(f"{key}: {value}" for key, value in info.items())


__all__ = ["draw_text"]
