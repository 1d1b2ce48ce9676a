"""Switchbacks in the browser (``solve serve``): the map's geometry, what
every action id means and the final score breakdown, for ``board.js``
beside this module.

:func:`board` gives the drawing everything static: each hex with its axial
coordinate and its centre on the page (pointy-top hexes of side
``hex_size``), the neighbours of each hex (for the trails between
consecutive numbers), the setup of the player count, and what every action
id means, so that the page never decodes moves itself:
``["explore", tile, hex]``, ``["buddy_up", None, None]``,
``["hike_solo", None, None]``, ``["hike_buddies", None, None]`` or
``["deal", tile, None]`` (a chance action).

>>> import solvers
>>> b = board(solvers.load_game("switchbacks", players=2))
>>> len(b["hexes"]), b["centre"], b["hexes"][18]["q"], b["hexes"][18]["r"]
(37, 18, 0, 0)
>>> b["actions"][11 * 37 + 18], b["actions"][37 * 37 + 1]     # explore 12 on hex 18; hike solo
(['explore', 12, 18], ['hike_solo', None, None])

:func:`breakdown` splits each seat's final score by complete hiking path
(the rulebook scores each hiker on a complete path, a buddy pair as two).
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import SolversError
from .data import SwitchbacksMap

HEX_SIZE = 34.0          # SVG units from a hex's centre to a corner
PAD = 6.0                # margin around the map


def _map_of(game: Any) -> SwitchbacksMap:
    m = getattr(game, "map", None)
    if not isinstance(m, SwitchbacksMap):
        raise SolversError("board() takes a Switchbacks game (solvers.load_game('switchbacks', ...))")
    return m


def action_meaning(game: Any, action: int) -> list[Any]:
    """``[kind, tile, hex]`` for one action id (see the module doc)."""
    if action < game.BUDDY_UP:
        tile, hex_id = divmod(action, game.num_hexes)
        return ["explore", tile + 1, hex_id]
    if action == game.BUDDY_UP:
        return ["buddy_up", None, None]
    if action == game.HIKE_SOLO:
        return ["hike_solo", None, None]
    if action == game.HIKE_BUDDIES:
        return ["hike_buddies", None, None]
    return ["deal", action - game.DEAL_BASE + 1, None]


def board(game: Any) -> dict[str, Any]:
    """Static data for drawing ``game`` (a built Switchbacks game): see the module doc."""
    m = _map_of(game)
    s = HEX_SIZE
    w = math.sqrt(3) * s
    pts = [(w * (q + r / 2), 1.5 * s * r) for q, r in m.hexes]
    x0 = min(x for x, _ in pts) - w / 2 - PAD
    y0 = min(y for _, y in pts) - s - PAD
    hexes = [{"id": h, "q": q, "r": r,
              "x": round(pts[h][0] - x0, 2), "y": round(pts[h][1] - y0, 2),
              "neighbours": m.neighbour_ids(h)}
             for h, (q, r) in enumerate(m.hexes)]
    return {
        "game": "switchbacks",
        "players": game.num_players,
        "hex_size": s,
        "width": round(max(x for x, _ in pts) + w / 2 + PAD - x0, 2),
        "height": round(max(y for _, y in pts) + s + PAD - y0, 2),
        "hexes": hexes,
        "centre": m.centre,
        "tiles": m.tiles,
        "hand_size": m.hand_size,
        "min_run": m.min_run,
        "set_aside": game.set_aside_each,
        "hikers": game.hikers_each,
        "actions": [action_meaning(game, a) for a in range(game.num_distinct_actions())],
    }


def runs(m: SwitchbacksMap, tiles_on_map: dict[int, int]) -> list[list[int]]:
    """The maximal runs of consecutive tiles on neighbouring hexes, as lists
    of tiles in ascending order (a tile alone is a run of one), given the
    map ``hex -> tile``.

    >>> from solvers.games.switchbacks.data import load_map
    >>> runs(load_map(), {18: 5, 19: 6, 20: 7, 0: 8, 12: 9})
    [[5, 6, 7], [8], [9]]
    """
    where = {t: h for h, t in tiles_on_map.items()}
    out = []
    for tile in sorted(where):
        if tile - 1 in where and m.adjacent(where[tile - 1], where[tile]):
            continue                      # inside a run started earlier
        run = [tile]
        while run[-1] + 1 in where and m.adjacent(where[run[-1]], where[run[-1] + 1]):
            run.append(run[-1] + 1)
        out.append(run)
    return out


def breakdown(state: Any) -> list[list[dict[str, Any]]]:
    """Each seat's score as ``{"item", "points"}`` rows summing to it: one
    row per complete hiking path the seat has hikers on (``"Path 5-8"``,
    1 point a solo hiker, 2 a buddy pair); paths worth nothing to a seat are
    left out."""
    m = _map_of(state.game)
    hex_of = {t: h for h, t in state.board.items()}
    out: list[list[dict[str, Any]]] = [[] for _ in range(state.game.num_players)]
    for run in runs(m, dict(state.board)):
        if len(run) < m.min_run:
            continue
        points = [0] * state.game.num_players
        for tile in run:
            hiker = state.hikers.get(hex_of[tile])
            if hiker is not None:
                points[hiker[0]] += hiker[1]
        for seat, p in enumerate(points):
            if p:
                out[seat].append({"item": f"Path {run[0]}-{run[-1]}", "points": p})
    return out
