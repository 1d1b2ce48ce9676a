"""Switchbacks in the terminal: what :mod:`solvers.cli.verbs` needs of the
game (its record's ``renderer`` and ``move_reader``): the board drawn for
a seat, a typed move read, the words of an AI's value."""

from __future__ import annotations

from typing import Any

from solvers.errors import SolversError

from .common import plural
from .render_switchbacks import describe_player, draw_map, legend

VALUE_NOTE = ("win share: the AI's estimate of your share of first place after the move "
              "(1 a sure win, 0.5 a first place shared by two, 0 a sure loss)")


def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The map, its legend and every player: hands shown to ``seat`` only
    (``seat`` None: every hand), the stack's size and, at a hike step of
    ``seat``, the question asked."""
    players = state.game.num_players
    lines = [draw_map(state, color=color), legend(players, you=seat)]
    for p in range(players):
        lines.append("  " + describe_player(state, p, viewer=p if seat is None else seat))
    if not state.is_terminal():
        lines.append(f"  stack: {plural(state.game.num_tiles - state.pos, 'tile')}")
        if (state.step == "hike" and not state.is_chance_node()
                and state.current_player() == seat):
            lines.append(f"  {hike_prompt(state, state.legal_actions())}?")
    return "\n".join(lines)


def seat_label(seat: int) -> str:
    """A seat as the board marks it: ``player 1 (b)``."""
    from .render_switchbacks import SEAT_LETTERS

    return f"player {seat} ({SEAT_LETTERS[seat]})"


def value_words(game: Any, value: float) -> str:
    return f"win share {value:.3f}"


def value_note(game: Any) -> str:
    return VALUE_NOTE


def parse_move(state: Any, text: str) -> int:
    """A move typed by a player: a shorthand ``TILE HEX`` (``12 5``,
    ``12@5``), or the words of :meth:`action_to_string`."""
    words = text.replace("@", " ").replace(",", " ").split()
    if state.step == "explore" and len(words) == 2 and all(w.isdigit() for w in words):
        tile, hex_id = int(words[0]), int(words[1])
        g = state.game
        if tile not in state.hands[state.player]:
            raise SolversError(f"tile {tile} is not in your hand")
        if not 0 <= hex_id < g.num_hexes:
            raise SolversError(f"there is no hex {hex_id} (0..{g.num_hexes - 1})")
        if hex_id in state.board:
            raise SolversError(f"hex {hex_id} is already explored")
        return g.explore_action(tile, hex_id)
    return state.string_to_action(text)


def hike_prompt(state: Any, legal: list[int]) -> str:
    """The question of a hike step, naming only the kinds of move offered:
    "Buddy up or hike", "Hike" or "Buddy up"."""
    g = state.game
    buddy = g.BUDDY_UP in legal
    hike = any(a in (g.HIKE_SOLO, g.HIKE_BUDDIES) for a in legal)
    return "Buddy up or hike" if buddy and hike else ("Buddy up" if buddy else "Hike")
