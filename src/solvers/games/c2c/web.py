"""Coast to Coast in the browser (``solve serve``): the map's data and the
score breakdown, for ``board.js`` beside this module.

:func:`board` gives the drawing everything static: each location with its
name, code, highway, region, type and a position on the map; the solid and
dashed lines; the scoring tables; and what every action id means (the
location it marks and the card it uses), so the page never decodes moves
itself. The map file has no coordinates, so positions come from
``solvers/data/coast_to_coast_places.json``: the approximate latitude and
longitude of each real landmark, projected with an Albers equal-area conic
(the usual projection of maps of the contiguous United States). A map file
whose locations are not in that table is laid out on a grid instead: regions
from west to east, highways from north to south, the order the sheet's lines
follow.

>>> import solvers
>>> b = board(solvers.load_game("c2c", players=1, challenge="The Alamo"))
>>> len(b["locations"]), b["locations"][0]["name"], b["layout"]
(32, 'Space Needle', 'geographic')
>>> b["actions"][0], b["actions"][32 + 26 * 32 + 20]     # cross Space Needle; circle Las Vegas with Hollywood
([0, None], [20, 26])

:func:`breakdown` splits each seat's final score into the sheet's items
(each highway, each completed type and region, the exact matches) and
:data:`TASKS` are the longer jobs the Solve and Atlas pages run: the
hindsight optimum of one shuffle and the challenge table.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...data import builtin_json
from ...errors import SolversError
from .data import CoastMap

PLACES_FILE = "coast_to_coast_places.json"
# Albers equal-area conic for the contiguous United States.
_PHI1, _PHI2, _PHI0, _LAM0 = 29.5, 45.5, 37.5, -96.0
_SCALE = 1000.0          # SVG units per Earth radius


def albers(lat: float, lon: float) -> tuple[float, float]:
    """Map coordinates (x east, y south, SVG style) of a point of the USA.

    >>> x, y = albers(37.5, -96.0)          # the centre of the projection
    >>> abs(x) < 1e-9 and abs(y) < 1e-9
    True
    >>> albers(47.6, -122.3)[0] < 0 < albers(25.8, -80.2)[1]    # Seattle west, Miami south
    True
    """
    p1, p2, p0 = (math.radians(v) for v in (_PHI1, _PHI2, _PHI0))
    n = (math.sin(p1) + math.sin(p2)) / 2
    c = math.cos(p1) ** 2 + 2 * n * math.sin(p1)
    rho0 = math.sqrt(c - 2 * n * math.sin(p0)) / n
    phi, lam = math.radians(lat), math.radians(lon - _LAM0)
    rho = math.sqrt(c - 2 * n * math.sin(phi)) / n
    theta = n * lam
    x = rho * math.sin(theta)
    y = rho0 - rho * math.cos(theta)
    return x * _SCALE, -y * _SCALE


def _map_of(game: Any) -> CoastMap:
    m = getattr(game, "map", None)
    if not isinstance(m, CoastMap):
        raise SolversError("board() takes a Coast to Coast game (solvers.load_game('c2c', ...))")
    return m


def positions(m: CoastMap) -> tuple[str, list[tuple[float, float]], list[tuple[float, float]]]:
    """(layout, a position per location id, the country's outline) for map ``m``:
    ``"geographic"`` when every location is in the places table, else ``"grid"``
    (no outline)."""
    table = builtin_json(PLACES_FILE)
    places = table["places"]
    if all(loc.name in places for loc in m.locations):
        pts = [albers(*places[loc.name]) for loc in m.locations]
        outline = [albers(lat, lon) for lat, lon in table["outline"]]
        return "geographic", pts, outline
    regions = sorted({loc.region for loc in m.locations})
    step = 100.0
    pts = [(regions.index(loc.region) * step, m.highways.index(loc.highway) * step)
           for loc in m.locations]
    return "grid", pts, []


def board(game: Any) -> dict[str, Any]:
    """Static data for drawing ``game`` (a built Coast to Coast game): see the module doc."""
    m = _map_of(game)
    layout, pts, outline = positions(m)
    xs = [p[0] for p in pts + outline]
    ys = [p[1] for p in pts + outline]
    pad = 40.0
    x0, y0 = min(xs) - pad, min(ys) - pad
    n = m.n
    locations = [{
        "id": loc.id, "name": loc.name, "code": m.codes[loc.id], "state": loc.state,
        "highway": loc.highway, "region": loc.region, "type": loc.type,
        "x": round(pts[loc.id][0] - x0, 1), "y": round(pts[loc.id][1] - y0, 1),
    } for loc in m.locations]
    actions: list[list[int | None]] = [[loc, None] for loc in range(n)]
    actions += [[a % n, a // n] for a in range(n * n)]
    challenge = getattr(game, "challenge", None)
    required = sorted(game.required()) if challenge is not None else []
    return {
        "game": "c2c",
        "layout": layout,
        "width": round(max(xs) + pad - x0, 1),
        "height": round(max(ys) + pad - y0, 1),
        "outline": [[round(x - x0, 1), round(y - y0, 1)] for x, y in outline],
        "locations": locations,
        "solid": [list(p) for p in m.solid_lines],
        "dashed": [list(p) for p in m.dashed_lines],
        "highways": list(m.highways),
        "regions": list(m.regions),
        "types": [{"name": t, "label": m.type_labels[t], "points": m.type_points[t]} for t in m.types],
        "highway_points": list(m.highway_points),
        "region_points": m.region_points,
        "exact_points": m.exact_match_points,
        "players": game.num_players,
        "challenge": challenge,
        "required": required,
        "actions": actions,
    }


def sheet_rows(m: CoastMap, circled: set[int], exact: set[int]) -> list[dict[str, Any]]:
    """One sheet's points item by item: each highway's runs, each completed
    type and region, the exact matches (circled ones only). Items worth
    nothing are left out.

    >>> from solvers.games.c2c.data import load_map
    >>> m = load_map()
    >>> sheet_rows(m, set(range(9)), set())[0]       # the whole of I-90
    {'item': 'Highway I-90', 'points': 45}
    """
    mask = sum(1 << c for c in circled)
    rows: list[dict[str, Any]] = []
    for hw in m.highways:
        pts = m.highway_score(mask & m.highway_masks[hw])
        if pts:
            rows.append({"item": f"Highway {hw}", "points": pts})
    for t in m.types:
        if m.type_masks[t] & ~mask == 0:
            rows.append({"item": f"Every {m.type_labels[t]}", "points": m.type_points[t]})
    for r in m.regions:
        if m.region_masks[r] & ~mask == 0:
            rows.append({"item": f"Region {r} complete", "points": m.region_points})
    k = len(exact & circled)
    if k:
        rows.append({"item": f"Exact matches ({k})", "points": m.exact_match_points * k})
    return rows


def breakdown(state: Any) -> list[list[dict[str, Any]]]:
    """Each seat's final score as ``{"item", "points"}`` rows summing to it."""
    m = _map_of(state.game)
    out = []
    for seat in range(state.game.num_players):
        sheet = state.information_state(seat)["sheet"]
        out.append(sheet_rows(m, set(sheet["circled"]), set(sheet["exact"])))
    return out


# ------------------------------------------------------------------ tasks
def _challenge(m: CoastMap, value: Any) -> int | None:
    from .challenges import challenge_id

    if value in (None, ""):
        return None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise SolversError("'challenge' should be a location name")
    return challenge_id(m, value)


def solve(params: dict[str, Any], progress: Callable[[int, int], None]) -> dict[str, Any]:
    """The Solve page: the proven best itinerary of one solo shuffle.

    ``params``: ``deal`` (24 location names, the 4 setup cards then 4 per
    round, as ``solve c2c --deal`` reads them) or ``seed`` (the shuffle a
    solo game with that seed deals, as ``solve c2c play`` and the engine's
    ``new`` deal it); optional ``challenge`` (a location name) and
    ``time_limit`` (seconds for CP-SAT, default 30). The result is what
    ``solve c2c --deal --json`` prints, plus ``sheets``: the sheet after the
    setup and after each round of the plan (for drawing it round by round)
    and ``required``, the challenge's locations. ``progress.stop`` (the
    server's cancel, when it has one) stops the solver: the job ends as an
    error saying so.
    """
    from ...optimize.c2c import hindsight_optimum
    from .challenges import required_locations
    from .data import load_map
    from .deal import parse_deal, shuffle_deal
    from .plan import replay_plan

    if not isinstance(params, dict):
        raise SolversError("the request is a JSON object")
    unknown = set(params) - {"deal", "seed", "challenge", "time_limit"}
    if unknown:
        raise SolversError(f"unknown field {sorted(unknown)[0]!r}: give deal or seed, "
                           "challenge, time_limit")
    m = load_map()
    ch = _challenge(m, params.get("challenge"))
    deal_in, seed = params.get("deal"), params.get("seed")
    if (deal_in is None) == (seed is None):
        raise SolversError("give either a deal (24 location names) or a seed")
    if deal_in is not None:
        if isinstance(deal_in, str):
            deal_in = deal_in.splitlines()
        if not isinstance(deal_in, list) or not all(isinstance(x, str) for x in deal_in):
            raise SolversError("'deal' should be 24 location names")
        deal = parse_deal(deal_in, m, ch, source="deal")
    else:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
            raise SolversError("'seed' should be a whole number from 0 to 2**64 - 1")
        deal = shuffle_deal(ch, seed, map=m)
    limit = params.get("time_limit", 30.0)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0.1 <= limit <= 600:
        raise SolversError("'time_limit' should be seconds from 0.1 to 600")
    progress(0, 1)
    stop = getattr(progress, "stop", None)
    try:
        result = hindsight_optimum(deal, challenge=ch, map=m, time_limit=float(limit), stop=stop)
    except SolversError:
        if stop is not None and stop.is_set():
            raise SolversError("cancelled: the solver was stopped before it started") from None
        raise
    if stop is not None and stop.is_set() and result.status == "stopped":
        raise SolversError(f"cancelled: the solver was stopped after {result.wall_time:.1f} s")
    progress(1, 1)
    names = [l.name for l in m.locations]
    sheets = []
    if result.plan:
        # The sheet after the setup and after each round, each replayed by the rules.
        for r in range(len(result.plan["rounds"]) + 1):
            part = {"setup_cross": result.plan["setup_cross"], "rounds": result.plan["rounds"][:r]}
            step = replay_plan(deal, part, ch, m)
            sheets.append({"round": r, **step.information_state(0)["sheet"],
                           "score": step.score_breakdown(0)["total"]})
    return {
        "deal": [names[c] for c in deal],
        "challenge": None if ch is None else names[ch],
        "required": [] if ch is None else [r.name for r in required_locations(m, ch)],
        "status": result.status,
        "score": result.score,
        "won": result.won,
        "bound": result.bound,
        "seconds": round(result.wall_time, 3),
        "plan": result.plan,
        "sheets": sheets,
    }


def atlas(params: dict[str, Any], progress: Callable[[int, int], None]) -> dict[str, Any]:
    """The Atlas page: every challenge's ceiling (hindsight win rate) and
    online rate with their 95% intervals over ``shuffles`` seeded shuffles
    (default 3, at most 50), in the layout of ``solve c2c --all-challenges
    --json`` (without the per-challenge best possible shuffle, the slow part
    of that report: ``feasible`` and ``best_score`` are null), the online
    player of each challenge that of ``--online auto`` (:func:`report_player`).
    ``challenges`` (location names) limits it to those; ``progress(done,
    total)`` after each challenge. About a third of a second per challenge
    and shuffle on one core."""
    from ...optimize.c2c import ceiling
    from .challenges import required_locations
    from .data import load_map
    from .online import AUTO, online_results, report_player

    if not isinstance(params, dict):
        raise SolversError("the request is a JSON object")
    unknown = set(params) - {"shuffles", "seed", "time_limit", "challenges"}
    if unknown:
        raise SolversError(f"unknown field {sorted(unknown)[0]!r}: give shuffles, seed, "
                           "time_limit, challenges")
    shuffles, seed = params.get("shuffles", 3), params.get("seed", 0)
    limit = params.get("time_limit", 10.0)
    if isinstance(shuffles, bool) or not isinstance(shuffles, int) or not 1 <= shuffles <= 50:
        raise SolversError("'shuffles' should be a whole number from 1 to 50")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise SolversError("'seed' should be a whole number from 0 to 2**63 - 1")
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) or not 0.1 <= limit <= 600:
        raise SolversError("'time_limit' should be seconds from 0.1 to 600")
    m = load_map()
    picked = params.get("challenges")
    if picked is None:
        todo = list(m.locations)
    elif isinstance(picked, list) and picked and all(isinstance(x, str) for x in picked):
        todo = [m.location(x) for x in picked]
    else:
        raise SolversError("'challenges' should be a list of location names (or left out: all)")
    rows: list[dict[str, Any]] = []
    progress(0, len(todo))
    for loc in todo:
        ceil = ceiling(loc.id, shuffles=shuffles, seed=seed, workers=1, map=m,
                       time_limit=float(limit))
        player = report_player(m, loc.id)
        online = online_results(m, loc.id, shuffles=shuffles, seed=seed, workers=1,
                                agent_spec=player)
        rows.append({
            "challenge": loc.name, "required": len(required_locations(m, loc.id)),
            "feasible": None, "best_score": None,
            "ceiling": ceil.rate, "ceiling_ci95": [ceil.low, ceil.high],
            "online": online.rate, "online_ci95": list(online.ci95), "online_agent": player,
        })
        progress(len(rows), len(todo))
    rows.sort(key=lambda r: (-r["ceiling"], -r["online"], r["required"], r["challenge"]))
    return {"shuffles": shuffles, "seed": seed, "online_agent": AUTO, "challenges": rows}


#: Longer jobs the server runs in a thread for this game's pages
#: (``POST /api/games/c2c/tasks/<name>``, see :mod:`solvers.web`).
TASKS: dict[str, Callable[[dict[str, Any], Callable[[int, int], None]], dict[str, Any]]] = {
    "solve": solve,
    "atlas": atlas,
}
