"""Drawing a Switchbacks map as text: one line per row of hexes, each row
shifted by half a hex so that neighbours touch as on the board.
Presentation only; the rules live in :mod:`solvers.games.switchbacks`.

>>> import solvers
>>> state = solvers.load_game("switchbacks", 2).new_initial_state(seed=5)
>>> state.apply_seeded_chance()
>>> print(draw_map(state, color=False).splitlines()[3])
 ·15   ·16   ·17  [36 ]  ·19   ·20   ·21
"""

from __future__ import annotations

from typing import Any

SEAT_LETTERS = "abcd"
SEAT_COLOURS = ("blue", "red", "green", "yellow")   # the hikers' colours in the box
CELL = 6


def cell_text(state: Any, hex_id: int) -> tuple[str, str]:
    """The 5-character text of one hex and its rich style.

    ``[23a]``: tile 23 with a solo hiker of seat a (``A``: a buddy pair);
    ``[23 ]``: a tile without hikers; ``·07``: the empty hex 7.
    """
    tile = state.board.get(hex_id)
    if tile is None:
        return f" ·{hex_id:02d} ", "dim"
    mark, style = " ", ""
    if hex_id in state.hikers:
        owner, count = state.hikers[hex_id]
        mark = SEAT_LETTERS[owner].upper() if count == 2 else SEAT_LETTERS[owner]
        style = f"bold {SEAT_COLOURS[owner]}"
    if hex_id == state.just_explored:
        style = (style + " reverse").strip()
    return f"[{tile:>2}{mark}]", style


def complete_hexes(state: Any) -> set[int]:
    """The hexes whose tile lies on a run of ``min_run`` or more consecutive
    numbers, each next to the one before (the hiking paths that score)."""
    m = state.game.map
    where = {t: h for h, t in state.board.items()}
    done: set[int] = set()
    for tile, h in where.items():
        if tile - 1 in where and m.adjacent(where[tile - 1], h):
            continue                       # not the start of a run
        run = [h]
        t = tile
        while t + 1 in where and m.adjacent(where[t], where[t + 1]):
            t += 1
            run.append(where[t])
        if len(run) >= m.min_run:
            done.update(run)
    return done


def draw_map(state: Any, color: bool = True) -> str:
    """The map as lines of text (rich markup when ``color``).

    In colour mode the tiles on a complete hiking path are underlined and
    each seat's hikers have their colour.
    """
    m = state.game.map
    xs = {h: q + r / 2 for h, (q, r) in enumerate(m.hexes)}
    xmin = min(xs.values())
    rows: dict[int, list[int]] = {}
    for h, (_q, r) in enumerate(m.hexes):
        rows.setdefault(r, []).append(h)
    complete = complete_hexes(state) if color else set()
    lines = []
    for r in sorted(rows):
        hexes = sorted(rows[r], key=lambda h: xs[h])
        line, width = "", 0
        for h in hexes:
            col = round((xs[h] - xmin) * CELL)
            pad = " " * max(0, col - width)
            text, style = cell_text(state, h)
            if h in complete:
                style = (style + " underline").strip()
            if color:
                text = text.replace("[", "\\[")
                line += pad + (f"[{style}]{text}[/{style}]" if style else text)
            else:
                line += pad + text
            width = col + len(text)
        lines.append(line.rstrip())
    return "\n".join(lines)


def legend(players: int, you: int | None = 0) -> str:
    """What the marks of :func:`draw_map` mean, and each seat's letter."""
    seats = ", ".join(f"{SEAT_LETTERS[p]} = player {p}" + (" (you)" if p == you else "")
                      for p in range(players))
    return ("[23a] tile 23 with a solo hiker of a, [23A] with a buddy pair; ·07 the empty hex 7; "
            f"{seats}")


def describe_player(state: Any, player: int, viewer: int | None = None) -> str:
    """One line about a player's hikers and score (and hand when ``viewer`` is them)."""
    solo, buddies = state.solo[player], state.buddies[player]
    score = state.scores()[player]
    text = (f"player {player} ({SEAT_LETTERS[player]}): score {score}, unplaced {solo} solo"
            f" + {buddies} buddy pair{'s' if buddies != 1 else ''}")
    hand_size = len(state.hands[player])
    if viewer == player:
        hand = " ".join(str(t) for t in sorted(state.hands[player]))
        aside = " ".join(str(t) for t in sorted(state.set_aside[player]))
        text += f"; hand {hand or '-'}; set aside {aside or '-'}"
    else:
        text += f"; {hand_size} tile{'' if hand_size == 1 else 's'} in hand"
    return text
