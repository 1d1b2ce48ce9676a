"""The analysis page of ``solve serve``: a saved game stepped through move by
move, with the AI's evaluation chart and its costliest moves (issue 28).

The page (``/analysis``: ``static/analysis.html``, ``analysis.js``,
``analysis.css``) reads a game record (:mod:`solvers.record`) from a file
the user uploads, or the game just finished on the Play page, and sends it
here as JSON: the server never reads a path a request names. Two routes:

* ``POST /analysis/frames`` with ``{"record": {...}, "seat": S}``: what
  the page draws at each step, ``{"game", "players", "seat", "names",
  "options", "moves": [{"mover", "move"}], "frames": [{"status", "view",
  "annotations", "breakdown"}]}``, one frame per position (before each
  step, and the final one), each drawn from the position the record holds
  for that step through the record's seat's eyes (``seat``: for a referee
  record, whose view to draw; a seat's record is drawn only as that seat);
* ``POST /analysis/review`` with ``{"record", "iterations", "seed"}``
  starts the review (:func:`solvers.review.review_record`) as a
  background job of the app's :class:`~solvers.web.app.TaskStore` (polled
  at ``GET /api/tasks/<ID>`` like every job); ``POST
  /analysis/review/<ID>/cancel`` ends it at its next step.

The work is bounded: a record of at most :data:`MAX_STEPS` steps (and the
app's body limit), at most :data:`MAX_ITERATIONS` search iterations a
search (the review searches each step once or a few times). A bad record is refused with a 4xx
status and one line of text.

>>> [r.path for r in ROUTES]
['/analysis/frames', '/analysis/review', '/analysis/review/{tid}/cancel']
"""

from __future__ import annotations

import json
import math
import threading
from importlib import import_module
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import SolversError
from ..game import TERMINAL, observed_move
from ..registry import game_info

MAX_STEPS = 2000          # steps of a record the server draws or reviews
MAX_STAND_IN_MOVES = 20000  # moves tried while rebuilding a seat's record with stand-ins
MAX_ITERATIONS = 5000     # search iterations the review may spend on one step
DEFAULT_ITERATIONS = 200


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:500] or "error"},
                        status_code=status)


def _finite(x: Any) -> float:
    x = float(x)
    return x if math.isfinite(x) else 0.0


def _jsonable(value: Any) -> Any:
    """``value`` round-tripped through JSON (tuples to lists, keys to text)."""
    return json.loads(json.dumps(value))


def _path_refusal(raw: dict[str, Any]) -> str | None:
    """Why a record from the web is refused before it is read, or None: an
    option or a position that names a data file by its path (the server
    reads no file a request names; a data file comes as its content)."""
    from .app import web_options_error

    game = raw.get("game")
    message = web_options_error(game, raw.get("options") or {})
    if message is not None or not isinstance(game, str):
        return message
    try:
        info = game_info(game)
    except SolversError:
        return None                      # the record's own checks name the game
    final = raw.get("final")
    positions = [s.get("position") for s in raw.get("steps") or [] if isinstance(s, dict)]
    positions.append(final.get("position") if isinstance(final, dict) else None)
    for position in positions:
        if not isinstance(position, dict):
            continue
        for option in info.file_options:
            if isinstance(position.get(option.name), str):
                return (f"a position names the {option.name} file {str(position[option.name])[:60]!r}: "
                        f"the web server reads no files on the server (save the game with the "
                        f"{option.name} built in or uploaded)")
    return None


def load_web_record(body: Any) -> Any:
    """The :class:`solvers.record.Record` in a request body ``{"record":
    {...}, ...}``, checked: SolversError (one line) for anything else."""
    if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
        raise SolversError('the body is {"record": {...}}: a game record, as "Save game" writes it')
    raw = body["record"]
    steps = raw.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_STEPS:
        raise SolversError(f"the record has {len(steps)} steps; the server takes at most {MAX_STEPS}")
    message = _path_refusal(raw)
    if message is not None:
        raise SolversError(message)
    try:
        from ..record import load_record
    except ImportError:                     # pragma: no cover - an install without records
        raise SolversError("this server cannot read game records (no solvers.record)") from None
    try:
        return load_record(raw)
    except SolversError:
        raise
    except RecursionError:
        raise SolversError("the record is nested too deeply to read") from None
    except Exception as e:                  # the record's own checks should say: keep it one line
        raise SolversError(f"not a valid game record: {type(e).__name__}: {e}") from None


def _status(state: Any, game: str, ply: int) -> dict[str, Any]:
    """The engine's status of ``state`` (docs/engine-protocol.md), ``ply`` the step."""
    player = state.current_player()
    phase = "over" if player == TERMINAL else "decision" if player >= 0 else "chance"
    out: dict[str, Any] = {"game": game, "players": state.game.num_players, "phase": phase,
                           "to_move": player if player >= 0 else None, "ply": ply}
    if player == TERMINAL:
        out["scores"] = [int(s) for s in state.scores()]
        out["returns"] = [_finite(r) for r in state.returns()]
    return out


def _words(text: str) -> str:
    return " ".join(str(text).lower().split())


def stand_in_states(record: Any, budget: int = MAX_STAND_IN_MOVES) -> list[Any]:
    """For a seat's record: a state per position, from the start, whose
    information state for the seat is the one the seat had there; as many
    positions as a replay consistent with the record reaches within
    ``budget`` moves (all of them when one is found).

    A step the seat did not see whole (its ``action`` is null) is replayed
    with a stand-in: a legal move the seat reads in the same words, so that
    the seat's view is the same (two games that differ only in what it
    cannot see give it the same view); when a later move the seat saw is
    not legal after a stand-in, the next stand-in is tried (depth first).
    Everything the seat cannot see in these states is made up: only the
    seat's information state (and what is derived from it) is used."""
    seat, steps = record.seat, record.steps
    state = record.game_object.new_initial_state(seed=0)
    path, choices = [state], list[list[Any]]()
    # A hidden card is often shown later, when it is played: a stand-in that
    # a seat plays later is tried first (the soonest first), one that a
    # later deal names openly last (that card is still in the deck).
    later: list[dict[int, tuple[int, int]]] = [{} for _ in range(len(steps) + 1)]
    for k in range(len(steps) - 1, -1, -1):
        later[k] = dict(later[k + 1])
        if steps[k].action is not None:
            later[k][steps[k].action] = (2, k) if steps[k].is_chance else (0, k)

    def candidates(state: Any, step: Any, k: int) -> list[int]:
        if state.is_terminal():
            return []
        legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else list(state.legal_actions()))
        if step.action is not None:
            return [step.action] if step.action in legal else []
        want = _words(step.move)
        fits = [a for a in legal if _words(observed_move(state, a, seat)) == want]
        soon = later[k + 1]
        return sorted(fits, key=lambda a: (*soon.get(a, (1, 0)), a))

    k, best = 0, [state]
    while k < len(steps):
        if budget <= 0:
            return best
        if len(path) > len(best):
            best = list(path)
        if len(choices) == k:
            choices.append([candidates(path[k], steps[k], k), 0])
        options, index = choices[k]
        if index >= len(options):          # no stand-in fits: back to the last choice
            choices.pop()
            if k == 0:
                return best
            path.pop()
            k -= 1
            choices[k][1] += 1
            continue
        nxt = path[k].clone()
        nxt.apply_action(options[index])
        budget -= 1
        path.append(nxt)
        k += 1
    return path


def frames(record: Any, seat: Any = None) -> dict[str, Any]:
    """What the page draws at every position of ``record`` (see the module
    docstring); ``seat``: whose view of a referee record to draw. A position
    the record cannot rebuild (a seat's record of a game without a position
    format, after a move the seat did not see whole) is a frame with
    ``missing``, the reason, instead of a view."""
    info = game_info(record.game)
    recorded, players = record.seat, int(record.players)
    if recorded is not None:
        if seat is not None and seat != recorded:
            raise SolversError(f"this record is seat {recorded}'s: it shows only what that seat saw")
        view = int(recorded)
    elif seat is None:
        view = 0
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise SolversError(f"'seat' should be a seat from 0 to {players - 1}")
    else:
        view = seat
    web = import_module(info.web) if info.web else None
    annotate = getattr(web, "annotate", None)
    breakdown = getattr(web, "breakdown", None)
    out_frames: list[dict[str, Any]] = []
    stand_ins: list[Any] | None = None           # None: not looked for yet
    for i in range(len(record.steps) + 1):
        rebuilt = False
        try:
            state = record.state_at(i)
        except SolversError as e:
            if stand_ins is None:
                stand_ins = stand_in_states(record) if recorded is not None else []
            if i >= len(stand_ins):
                out_frames.append({"status": None, "missing": str(e).splitlines()[0] if str(e) else
                                   "the record holds no position here"})
                continue
            state, rebuilt = stand_ins[i], True
        frame: dict[str, Any] = {"status": _status(state, record.game, i),
                                 "view": _jsonable(state.information_state(view))}
        if rebuilt:
            # The other seats' scores would come from made-up cards: only the
            # record's own results are shown.
            frame["status"].pop("scores", None)
            frame["status"].pop("returns", None)
            if state.is_terminal() and record.returns is not None:
                frame["status"]["returns"] = [_finite(r) for r in record.returns]
            frame["rebuilt"] = True
        if annotate is not None:
            frame["annotations"] = _jsonable(annotate(state, view))
        if breakdown is not None and state.is_terminal() and not rebuilt:
            frame["breakdown"] = [[{"item": str(r["item"]), "points": r["points"]} for r in rows]
                                  for rows in _jsonable(breakdown(state))]
        out_frames.append(frame)
    return {"game": record.game, "title": info.title, "players": players, "seat": recorded,
            "view_seat": view, "names": list(record.names), "options": dict(record.options),
            "moves": [{"mover": s.mover, "move": s.move} for s in record.steps],
            "frames": out_frames}


async def _body(request: Request) -> tuple[Any, Response | None]:
    from .app import _json_body  # the app's own checks: origin, size, JSON

    try:
        return await _json_body(request, "records are read")
    except RecursionError:
        return None, _error(400, "the request body is nested too deeply to read")


async def api_frames(request: Request) -> Response:
    body, refused = await _body(request)
    if refused is not None:
        return refused
    try:
        if isinstance(body, dict) and set(body) - {"record", "seat"}:
            raise SolversError('the body is {"record": {...}, "seat": S}; '
                               f"no {sorted(set(body) - {'record', 'seat'})[0][:40]!r}")
        record = load_web_record(body)
        result = await run_in_threadpool(frames, record, body.get("seat"))
    except SolversError as e:
        return _error(400, str(e).splitlines()[0] if str(e) else "bad record")
    return JSONResponse(result)


def review_budget(body: dict[str, Any]) -> dict[str, Any]:
    """The review's budget a step from a request, within the server's caps."""
    out: dict[str, Any] = {}
    if "iterations" in body and body["iterations"] is not None:
        n = body["iterations"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_ITERATIONS:
            raise SolversError(f"'iterations' should be a whole number from 1 to {MAX_ITERATIONS}")
        out["iterations"] = n
    if not out:
        out["iterations"] = DEFAULT_ITERATIONS
    return out


class Cancelled(SolversError):
    """The review was cancelled from the page."""


def _cancels(app: Any) -> dict[str, threading.Event]:
    cancels = getattr(app.state, "analysis_cancels", None)
    if cancels is None:
        cancels = app.state.analysis_cancels = {}
    return cancels


def run_review(record: Any, budget: dict[str, Any], seed: int, cancel: threading.Event,
               report: Any) -> dict[str, Any]:
    """The review of ``record`` as JSON (one job); ends with :class:`Cancelled`
    at the first step after ``cancel`` is set."""
    from ..review import review_record

    def progress(done: int, total: int) -> None:
        if cancel.is_set():
            raise Cancelled("review cancelled")
        report(done, total)

    if cancel.is_set():
        raise Cancelled("review cancelled")
    review = review_record(record, budget=budget, seed=seed, progress=progress)
    if cancel.is_set():
        raise Cancelled("review cancelled")
    out = review.to_json()
    return out if isinstance(out, dict) else json.loads(out)


async def api_review(request: Request) -> Response:
    body, refused = await _body(request)
    if refused is not None:
        return refused
    try:
        allowed = {"record", "iterations", "seed"}
        if isinstance(body, dict) and set(body) - allowed:
            raise SolversError(f"a review takes {', '.join(sorted(allowed))}; "
                               f"not {sorted(set(body) - allowed)[0][:40]!r}")
        record = load_web_record(body)
        budget = review_budget(body)
        seed = body.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 53:
            raise SolversError("'seed' should be a whole number from 0 to 2^53 - 1")
        try:
            import_module("solvers.review")
        except ImportError:
            raise SolversError("this server cannot review games yet (no solvers.review)") from None
    except SolversError as e:
        return _error(400, str(e).splitlines()[0] if str(e) else "bad record")
    cancel = threading.Event()
    store = request.app.state.tasks
    try:
        tid = store.start(lambda params, report: run_review(record, budget, seed, cancel, report), None)
    except SolversError as e:
        return _error(429, str(e))
    cancels = _cancels(request.app)
    for key in [k for k in cancels if k not in store.tasks]:
        del cancels[key]                  # jobs the store no longer keeps
    cancels[tid] = cancel
    return JSONResponse({"task": tid, "budget": budget})


async def api_review_cancel(request: Request) -> Response:
    from .app import same_origin

    if not same_origin(request.headers):
        return _error(403, "reviews are cancelled from this server's own pages")
    cancel = _cancels(request.app).get(request.path_params["tid"])
    if cancel is None:
        return _error(404, "no such review")
    cancel.set()
    return JSONResponse({"cancelled": True})


ROUTES = [
    Route("/analysis/frames", api_frames, methods=["POST"]),
    Route("/analysis/review", api_review, methods=["POST"]),
    Route("/analysis/review/{tid}/cancel", api_review_cancel, methods=["POST"]),
]
