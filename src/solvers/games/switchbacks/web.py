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

:func:`annotate` gives the drawing what the rules derive from the map: the
runs of consecutive numbers (the trails, complete or not) and each seat's
points so far, all public (the contract of :mod:`solvers.web`).
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import SolversError
from ..common import check_player
from .data import SwitchbacksMap
from .reference import runs

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


def breakdown(state: Any) -> list[list[dict[str, Any]]]:
    """Each seat's score as ``{"item", "points"}`` rows summing to it: one
    row per complete hiking path the seat has hikers on (``"Path 5-8"``,
    1 point a solo hiker, 2 a buddy pair); paths worth nothing to a seat are
    left out."""
    m = _map_of(state.game)
    hex_of = {t: h for h, t in state.board.items()}
    out: list[list[dict[str, Any]]] = [[] for _ in range(state.game.num_players)]
    for run in runs(m, state.board):
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


def annotate(state: Any, seat: int) -> dict[str, Any]:
    """What the rules derive from ``state`` for drawing it, for ``seat``:

    * ``paths``: every run of consecutive tiles on neighbouring hexes (a
      tile alone is a run of one), by lowest tile, as ``{"tiles": [...],
      "hexes": [...], "complete": bool}`` (``tiles`` ascending, ``hexes``
      the hex of each tile, ``complete`` once it has ``min_run`` tiles: its
      hikers score);
    * ``points``: each seat's points so far, ``state.scores()``.

    Only what the seat may know: the map and every hiker are public
    (``docs/rules/switchbacks.md#hidden-information``), and the paths and
    the points depend on nothing else, so the answer is the same for every
    seat and for positions that differ only in hands, set-aside tiles or
    the stack. The runs are the rules' own (:func:`.reference.runs`), the
    points the game's scoring (the kernel's for a kernel state).

    >>> import solvers
    >>> state = solvers.load_game("switchbacks", players=2).new_initial_state(seed=5)
    >>> state.apply_seeded_chance()
    >>> annotate(state, 0)
    {'paths': [{'tiles': [36], 'hexes': [18], 'complete': False}], 'points': [0, 0]}
    """
    m = _map_of(state.game)
    check_player(state.game, seat)
    hex_of = {t: h for h, t in state.board.items()}
    return {
        "paths": [{"tiles": run, "hexes": [hex_of[t] for t in run], "complete": len(run) >= m.min_run}
                  for run in runs(m, state.board)],
        "points": [int(p) for p in state.scores()],
    }
