"""The engine protocol, one request at a time: :class:`Session`.

A session holds one game in progress. :meth:`Session.handle` takes one
request (a decoded JSON object) and returns one reply; it never raises for
anything a frontend can send. The protocol is described in
``docs/engine-protocol.md`` and its messages in ``schema.json``.

>>> session = Session()
>>> session.handle({"id": 1, "cmd": "new", "game": "c2c", "seed": 3,
...                 "options": {"challenge": "The Alamo"}})["result"]["phase"]
'chance'
>>> session.handle({"id": 2, "cmd": "deal"})["result"]["moves"]      # the 4 setup cards
['deal Phipps Conservatory and Botanical Gardens', 'deal Freedom Trail', 'deal Gateway Arch', 'deal Chase Field']
>>> reply = session.handle({"id": 3, "cmd": "go", "iterations": 200})
>>> reply["result"]["move"].startswith("cross ")
True
>>> session.handle({"id": 4, "cmd": "apply", "move": "cross Nowhere"})["error"]["code"]
'illegal_move'

The server (:mod:`solvers.engine.server`) runs ``go`` in a worker thread
through :meth:`Session.prepare_go`, so that ``stop`` and ``quit`` are read
while it searches.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any, TypeGuard

import solvers

from ..agents import agent_names, load_agent, parse_agent_spec
from ..agents.base import agent_class, seat_view
from ..errors import SolversError
from ..game import CHANCE, TERMINAL, State, observed_move
from ..limits import MAX_ITERATIONS, MAX_SECONDS, MAX_SEED, check_seconds, check_seed, check_whole
from ..rng import SplitMix64
from .positions import build_game, check_setup, load_position, native_position, save_position

PROTOCOL = "solvers-engine"
PROTOCOL_VERSION = 1
# The budget bounds of a go (solvers.limits); tests may lower them.
MAX_TIME = MAX_SECONDS
MAX_ID_LENGTH = 200
AGENT_SEED_SALT = 0x656E67696E65  # "engine": the agents' seeds differ from the deal's
# The resampled views that decide whether another seat's score is public
# (see Session.public_scores); their seeds are fixed, never the deal's.
PUBLIC_SCORE_VIEWS = (0x5C0_0001, 0x5C0_0002, 0x5C0_0003)

COMMANDS = ("hello", "new", "position", "undo", "apply", "deal", "legal", "go", "stop", "state",
            "quit", "record")
# The fields each command takes besides "id" and "cmd".
FIELDS: dict[str, tuple[str, ...]] = {
    "hello": (),
    "new": ("game", "players", "seed", "options", "seats"),
    "position": ("position", "seats"),
    "undo": ("ply",),
    "apply": ("move", "action"),
    "deal": ("count", "view"),
    "legal": (),
    "go": ("agent", "options", "time", "iterations", "seat", "view"),
    "stop": (),
    "state": ("seat",),
    "quit": (),
    "record": ("seat", "names"),
}
# Commands that change the game: refused while a go is running.
MUTATING = ("new", "position", "undo", "apply", "deal", "go")


class RequestError(SolversError):
    """A request the engine refuses: an error ``code`` and a one-line message."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _one_line(text: str) -> str:
    line = " ".join(str(text).split())
    return line[:500] if line else "error"


def _finite(x: float) -> float:
    x = float(x)
    return x if math.isfinite(x) else 0.0


def phase_of(state: State) -> str:
    """``"chance"``, ``"decision"`` or ``"over"``."""
    player = state.current_player()
    if player == TERMINAL:
        return "over"
    if player == CHANCE:
        return "chance"
    return "decision"


class GoJob:
    """One running ``go``: a search that :meth:`stop` may cut short."""

    def __init__(self, request_id: Any, work: Callable[["GoJob"], dict[str, Any]]):
        self.request_id = request_id
        self._work = work
        self._lock = threading.Lock()
        self._search: Any = None
        self.stopped = False
        self.done = threading.Event()      # the search has ended
        self.replied = threading.Event()   # its reply is written (set by the server)

    def attach(self, search: Any) -> None:
        """Register the search to stop; stops it at once when a stop came first."""
        with self._lock:
            self._search = search
            if self.stopped:
                search.stop()

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            if self._search is not None:
                self._search.stop()

    @property
    def cut_short(self) -> bool:
        """Whether a stop reached a search that it can end early."""
        with self._lock:
            return self.stopped and self._search is not None

    def run(self) -> dict[str, Any]:
        return self._work(self)


class Session:
    """One game in progress and the protocol commands over it.

    ``handle(request) -> reply``: requests are dicts with ``cmd`` and an
    optional ``id`` (echoed); replies are ``{"id", "cmd", "result"}`` or
    ``{"id", "cmd", "error": {"code", "message"}}``. A refused request
    leaves the game exactly as it was.
    """

    def __init__(self) -> None:
        self.game: Any = None
        self.state: State | None = None
        self.setup: dict[str, Any] = {}     # filled by new / position
        self.moves: list[str] = []
        # One entry per move played (see _note): who moved, and how every seat reads it.
        self._log: list[dict[str, Any]] = []
        # What undo replays: the loaded moves as strings, then the action ids
        # played here (a string may match several copies of one tile).
        self._replay: list[str | int] = []
        # Seat mode: the seats this connection plays (None: the referee, who sees all).
        self.seats: tuple[int, ...] | None = None
        self.closed = False
        self._agent_rng = SplitMix64(AGENT_SEED_SALT)
        self._lock = threading.Lock()
        self._job: GoJob | None = None
        self._hello: dict[str, Any] | None = None

    # ------------------------------------------------------------ dispatch
    def handle_line(self, line: str | bytes) -> dict[str, Any]:
        """Decode one line of JSON and handle it (a parse error is a reply)."""
        try:
            request = decode(line)
        except RequestError as e:
            return error_reply(None, None, e.code, str(e))
        return self.handle(request)

    def handle(self, request: Any) -> dict[str, Any]:
        """One request, one reply. ``go`` runs here to the end; a server uses
        :meth:`prepare_go` to run it in another thread instead."""
        try:
            rid, cmd = self.check_request(request)
        except RequestError as e:
            return error_reply(_safe_id(request), _safe_cmd(request), e.code, str(e))
        if cmd == "go":
            try:
                job = self.prepare_go(request)
            except RequestError as e:
                return error_reply(rid, cmd, e.code, str(e))
            except Exception as e:  # a bug: keep serving, show the traceback on stderr
                traceback.print_exc(file=sys.stderr)
                return error_reply(rid, cmd, "internal_error", f"{type(e).__name__}: {e}")
            return self.finish_go(job)
        return self._guarded(rid, cmd, request)

    def _guarded(self, rid: Any, cmd: str, request: dict[str, Any]) -> dict[str, Any]:
        try:
            with self._lock:
                changes = cmd in MUTATING and not (cmd == "position" and "position" not in request)
                if changes and self._job is not None:
                    raise RequestError("busy", f"a go is running: send stop first, then {cmd}")
                result = getattr(self, f"cmd_{cmd}")(request)
        except RequestError as e:
            return error_reply(rid, cmd, e.code, str(e))
        except SolversError as e:
            return error_reply(rid, cmd, "bad_request", str(e))
        except Exception as e:  # a bug: keep serving, show the traceback on stderr
            traceback.print_exc(file=sys.stderr)
            return error_reply(rid, cmd, "internal_error", f"{type(e).__name__}: {e}")
        return {"id": rid, "cmd": cmd, "result": result}

    @staticmethod
    def check_request(request: Any) -> tuple[Any, str]:
        """The ``id`` and ``cmd`` of a well-formed request; RequestError else."""
        if not isinstance(request, dict):
            raise RequestError("bad_request", "a request is a JSON object with a 'cmd'")
        rid = request.get("id")
        if not (rid is None or _is_int(rid) or (isinstance(rid, str) and len(rid) <= MAX_ID_LENGTH)):
            raise RequestError("bad_request", f"'id' should be a string (at most {MAX_ID_LENGTH} "
                                              "characters), an integer or null")
        cmd = request.get("cmd")
        if not isinstance(cmd, str):
            raise RequestError("bad_request", "a request needs 'cmd', a command name")
        if cmd not in FIELDS:
            raise RequestError("unknown_command", f"unknown command {cmd[:50]!r}; the commands are "
                                                  + ", ".join(COMMANDS))
        for key in request:
            if key not in ("id", "cmd") and key not in FIELDS[cmd]:
                raise RequestError("bad_request", f"{cmd} takes no field {str(key)[:50]!r}"
                                   + (f"; it takes {', '.join(FIELDS[cmd])}" if FIELDS[cmd] else ""))
        return rid, cmd

    # ------------------------------------------------------------ helpers
    def _need_game(self) -> State:
        if self.state is None:
            raise RequestError("no_game", "no game yet: send new or position first")
        return self.state

    def status(self) -> dict[str, Any]:
        """Where the game stands: phase, seat to move, moves played; the
        results once it is over."""
        state = self._need_game()
        player = state.current_player()
        out: dict[str, Any] = {
            "game": self.setup["game"],
            "players": self.game.num_players,
            "phase": phase_of(state),
            "to_move": player if player >= 0 else None,
            "ply": len(self.moves),
        }
        if player == TERMINAL:
            out["scores"] = [int(s) for s in state.scores()]
            out["returns"] = [_finite(r) for r in state.returns()]
        return out

    def _seat(self, value: Any, state: State) -> int:
        players = self.game.num_players
        if value is None:
            if players == 1:
                return 0
            raise RequestError("bad_request", f"give 'seat': this game has {players} players")
        if not _is_int(value) or not 0 <= value < players:
            raise RequestError("bad_request", f"'seat' should be a seat from 0 to {players - 1}")
        return value

    # ------------------------------------------------------------ seat mode
    @staticmethod
    def _check_seats(value: Any, players: int) -> tuple[int, ...]:
        """The ``seats`` of a ``new`` or ``position``: distinct seats of the game."""
        if (not isinstance(value, list) or not value or len(value) > players
                or not all(_is_int(s) and 0 <= s < players for s in value)
                or len(set(value)) != len(value)):
            raise RequestError("bad_request", "'seats' should list the seats this connection plays, "
                                              f"at least one, each once, from 0 to {players - 1}")
        return tuple(sorted(value))

    def _hide(self, what: str) -> RequestError:
        return RequestError("hidden", f"in seat mode (seats {list(self.seats or ())}) {what}")

    def _view(self, request: dict[str, Any], state: State) -> int | None:
        """Whose eyes the moves in a reply are written for: None for the
        referee; in seat mode the request's ``view``, by default the
        connection's only seat or else its seat to move."""
        value = request.get("view")
        if self.seats is None:
            if value is not None:
                raise RequestError("bad_request", "'view' is for seat mode (new or position with 'seats')")
            return None
        if value is not None:
            if not _is_int(value) or value not in self.seats:
                raise RequestError("bad_request", f"'view' should be one of this connection's seats "
                                                  f"{list(self.seats)}")
            return value
        if len(self.seats) == 1:
            return self.seats[0]
        if state.current_player() in self.seats:
            return state.current_player()
        raise RequestError("bad_request", f"give 'view': this connection plays seats {list(self.seats)}, "
                                          "so say whose eyes the moves are written for")

    @staticmethod
    def _seen(state: State, action: int, view: int | None) -> str:
        """``action`` (about to be applied) as ``view`` reads it (None: whole)."""
        return observed_move(state, action, view)

    # ------------------------------------------------------------ commands
    def cmd_hello(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._hello is None:
            self._hello = describe_engine()
        return self._hello

    def cmd_new(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            setup = check_setup(request)
            game = build_game(setup)
        except RequestError:
            raise
        except SolversError as e:
            raise RequestError("invalid_option", str(e)) from None
        setup["players"] = game.num_players
        seats = None
        if request.get("seats") is not None:
            seats = self._check_seats(request["seats"], game.num_players)
            if request.get("seed") is None:
                # The seed dictates the whole deal: a seat-mode client that
                # did not choose one never learns it.
                setup["seed"] = secrets.randbelow(MAX_SEED)
        state = game.new_initial_state(setup["seed"])
        self._install(setup, game, state, [], seats, log=[])
        return self.status()

    def _install(self, setup: dict[str, Any], game: Any, state: State, moves: list[str],
                 seats: tuple[int, ...] | None, log: list[dict[str, Any]] | None = None) -> None:
        self.setup, self.game, self.state, self.moves = setup, game, state, moves
        self._replay = list(moves)
        self._log = self._replayed_log(setup, moves) if log is None else log
        self.seats = seats
        self._agent_rng = SplitMix64(setup["seed"] ^ AGENT_SEED_SALT)

    def cmd_position(self, request: dict[str, Any]) -> dict[str, Any]:
        if "position" not in request:
            if "seats" in request:
                raise RequestError("bad_request", "'seats' goes with a 'position' to load")
            state = self._need_game()
            if self.seats is not None:
                raise self._hide("the position is not given out: it names every card dealt and the "
                                 "seed that deals the rest (take moves back with undo)")
            out = {"position": save_position(self.setup, self.moves)}
            native = native_position(self.setup["game"], state)
            if native is not None:
                out["native"] = native
            return out
        try:
            setup, state, moves = load_position(request["position"])
        except SolversError as e:
            raise RequestError("invalid_position", str(e)) from None
        seats = None
        if request.get("seats") is not None:
            seats = self._check_seats(request["seats"], state.game.num_players)
        self._install(setup, state.game, state, moves, seats)
        return self.status()

    def _played(self, action: int, text: str) -> None:
        self.moves.append(text)
        self._replay.append(action)

    def _note(self, state: State, action: int) -> None:
        """Log ``action``, about to be applied to ``state``: the mover, and
        for every seat the move as that seat reads it and whether it sees
        the action whole (the ``log`` of a ``state`` reply)."""
        player = state.current_player()
        seats = range(self.game.num_players)
        observe = getattr(state, "action_observation", None)
        self._log.append({
            "mover": "chance" if player == CHANCE else int(player),
            "action": int(action),
            "seen": [self._seen(state, action, s) for s in seats],
            "whole": [observe is None or observe(action, s) == action for s in seats],
        })

    def _replayed_log(self, setup: dict[str, Any], moves: list[str]) -> list[dict[str, Any]]:
        """The log of a loaded position: its moves replayed from the start."""
        if not moves:
            return []
        _, state, _ = load_position(save_position(setup, []))
        self._log = []
        for move in moves:
            action = state.string_to_action(move)
            self._note(state, action)
            state.apply_action(action)
        return self._log

    def log_for(self, seat: int) -> list[dict[str, Any]]:
        """Every move so far as ``seat`` observes it: ``mover`` (a seat or
        ``"chance"``), ``move`` (the text that seat reads) and ``action``
        (None when the seat does not see the move whole)."""
        return [{"mover": e["mover"], "move": e["seen"][seat],
                 "action": e["action"] if e["whole"][seat] else None} for e in self._log]

    def public_scores(self, state: State, seat: int) -> list[int | None]:
        """Each player's score as far as ``seat`` may know it, else None.

        Its own score always; at the end every score; before that another
        player's score only when it is the same in several views of the
        state for ``seat`` (:func:`seat_view` redealt with fixed seeds), so
        it depends on nothing ``seat`` cannot see (a sheet with moves the
        seat has not seen yet, a hidden scoring card) and the number given
        is read from those views, never from the real state."""
        players = self.game.num_players
        if state.is_terminal():
            return [int(s) for s in state.scores()]
        out: list[int | None] = [None] * players
        out[seat] = int(state.scores()[seat])
        if players == 1:
            return out
        try:
            if hasattr(state, "resample"):
                views = [state.resample(seat, SplitMix64(k)) for k in PUBLIC_SCORE_VIEWS]
            else:
                views = [state]          # nothing hidden: every score is public
            rows = [[int(x) for x in v.scores()] for v in views]
        except (SolversError, ValueError):
            return out                    # no view to read from right now
        for p in range(players):
            if p != seat and all(r[p] == rows[0][p] for r in rows):
                out[p] = rows[0][p]
        return out

    def cmd_undo(self, request: dict[str, Any]) -> dict[str, Any]:
        """Back to the game as it stood after ``ply`` moves: the moves are
        replayed from the start, so the seed deals the same cards again."""
        self._need_game()
        ply = request.get("ply")
        if not _is_int(ply) or not 0 <= ply <= len(self.moves):
            raise RequestError("bad_request", f"'ply' should be a whole number from 0 to {len(self.moves)} "
                                              "(the moves played so far)")
        try:
            replay = self._replay[:ply]
            setup, state, moves = load_position(save_position(self.setup, replay))
        except SolversError as e:  # the moves replayed once already: a bug if this fails
            raise RequestError("internal_error", str(e)) from None
        self._install(setup, state.game, state, moves, self.seats, log=self._log[:ply])
        self._replay = replay
        return self.status()

    def cmd_apply(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._need_game()
        if ("move" in request) == ("action" in request):
            raise RequestError("bad_request", "apply takes one of 'move' (a string) or 'action' (an id)")
        if state.is_terminal():
            raise RequestError("illegal_move", "the game is over: no more moves")
        if self.seats is not None:
            # Another seat's moves and the chance outcomes could only be
            # checked against what the connection may not see.
            if state.is_chance_node():
                raise self._hide("the engine deals: send deal")
            if state.current_player() not in self.seats:
                raise self._hide(f"seat {state.current_player()} is played by the engine: send go")
        if "move" in request:
            move = request["move"]
            if not isinstance(move, str):
                raise RequestError("bad_request", "'move' should be a move string, e.g. from legal")
            try:
                action = state.string_to_action(move)
            except SolversError:
                raise RequestError("illegal_move", f"{move[:80]!r} is not a legal move here "
                                                   "(send legal for the list)") from None
        else:
            action = request["action"]
            legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            if not _is_int(action) or action not in legal:
                raise RequestError("illegal_move", f"action {str(action)[:40]} is not legal here "
                                                   "(send legal for the list)")
        text = state.action_to_string(action)
        self._note(state, action)
        state.apply_action(action)
        self._played(action, text)
        return {"action": action, "move": text, **self.status()}

    def cmd_deal(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._need_game()
        count = request.get("count")
        if count is not None and (not _is_int(count) or count < 1):
            raise RequestError("bad_request", "'count' should be a whole number >= 1")
        view = self._view(request, state)
        dealt: list[str] = []
        while state.is_chance_node() and (count is None or len(dealt) < count):
            action = state.seeded_outcome()
            text = state.action_to_string(action)
            dealt.append(self._seen(state, action, view))
            self._note(state, action)
            state.apply_action(action)
            self._played(action, text)
        return {"moves": dealt, **self.status()}

    def cmd_legal(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._need_game()
        if self.seats is not None and not state.is_terminal() and state.current_player() not in self.seats:
            raise self._hide("legal lists moves only when one of these seats is to move"
                             + (" (the outcomes left would tell the hidden cards)"
                                if state.is_chance_node() else ""))
        if state.is_chance_node():
            rows = [{"action": a, "move": state.action_to_string(a), "probability": _finite(p)}
                    for a, p in state.chance_outcomes()]
        elif state.is_terminal():
            rows = []
        else:
            rows = [{"action": a, "move": state.action_to_string(a)} for a in state.legal_actions()]
        return {"moves": rows, **self.status()}

    def cmd_state(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self._need_game()
        seat = request.get("seat")
        if self.seats is not None:
            if seat is None and len(self.seats) == 1:
                seat = self.seats[0]
            if seat is not None and seat not in self.seats:
                raise self._hide(f"state shows only these seats' views, not seat {str(seat)[:20]}")
        seat = self._seat(seat, state)
        out = {"seat": seat, **self.status(),
               "view": json.loads(json.dumps(state.information_state(seat)))}
        if state.current_player() == seat:
            out["legal"] = [{"action": a, "move": state.action_to_string(a)}
                            for a in state.legal_actions()]
        if not state.is_terminal():
            # Only the seat's own score: another sheet may hold moves it cannot see yet.
            out["score"] = int(state.scores()[seat])
        else:
            rows = self._breakdown(state)
            if rows is not None:
                out["breakdown"] = rows
        out["public_scores"] = self.public_scores(state, seat)
        out["log"] = self.log_for(seat)
        annotate = self._web_hook("annotate")
        if annotate is not None:
            # What the rules derive for drawing, only what the seat may know
            # (the contract of solvers.web); round-tripped as JSON like the view.
            out["annotations"] = json.loads(json.dumps(annotate(state, seat)))
        return out

    def _web_hook(self, name: str) -> Callable[..., Any] | None:
        """The function ``name`` of the game's web module (``GameInfo.web``),
        or None when the game has no web module or the module lacks it."""
        from importlib import import_module

        from ..registry import game_info

        web = game_info(self.setup["game"]).web
        if web is None:
            return None
        return getattr(import_module(web), name, None)

    def _breakdown(self, state: State) -> list[list[dict[str, Any]]] | None:
        """Each seat's final score item by item, from the game's web module
        (its ``breakdown(state)``); None when it has none."""
        fn = self._web_hook("breakdown")
        if fn is None:
            return None
        # Items worth nothing are left out (docs/engine-protocol.md).
        return [[{"item": str(r["item"]), "points": _number(r["points"])} for r in seat
                 if _number(r["points"]) != 0]
                for seat in fn(state)]

    def cmd_record(self, request: dict[str, Any]) -> dict[str, Any]:
        """The game so far as a game record (:mod:`solvers.record`) written
        through ``seat``'s eyes: in seat mode one of the connection's seats
        (by default its only one), never more than that seat may see; in
        referee mode any seat, or none for the referee's record. Replayed
        from the start, as ``undo`` does."""
        state = self._need_game()
        seat = request.get("seat")
        if self.seats is not None:
            if seat is None and len(self.seats) == 1:
                seat = self.seats[0]
            if seat is None:
                raise RequestError("bad_request", f"give 'seat': this connection plays seats "
                                                  f"{list(self.seats)}")
            if seat not in self.seats:
                raise self._hide(f"a record is written only through these seats' eyes, "
                                 f"not seat {str(seat)[:20]}'s")
        if seat is not None:
            seat = self._seat(seat, state)
        names = request.get("names")
        if names is not None and (not isinstance(names, list) or len(names) != self.game.num_players
                                  or not all(isinstance(n, str) and len(n) <= 100 for n in names)):
            raise RequestError("bad_request", f"'names' should list {self.game.num_players} names "
                                              "(strings of at most 100 characters), one a seat")
        if "start" in self.setup:
            raise RequestError("bad_request", "a game loaded from a position of the game's own format "
                                              "has no record from its start")
        from ..record import Recorder

        try:
            _, replay, _ = load_position(save_position(self.setup, []))
            recorder = Recorder(self.game, replay, seat=seat, names=names,
                                options=self.setup.get("options") or {})
            for item in self._replay:
                action = replay.string_to_action(item) if isinstance(item, str) else item
                recorder.step(replay, action)
                replay.apply_action(action)
        except SolversError as e:  # the moves replayed once already: a bug if this fails
            raise RequestError("internal_error", str(e)) from None
        return {"record": json.loads(json.dumps(recorder.to_json(replay)))}

    def cmd_stop(self, request: dict[str, Any]) -> dict[str, Any]:
        job = self._job
        if job is None:
            return {"stopped": False, "go": None}
        job.stop()
        return {"stopped": True, "go": job.request_id}

    def cmd_quit(self, request: dict[str, Any]) -> dict[str, Any]:
        job = self._job
        if job is not None:
            job.stop()
        self.closed = True
        return {"bye": True}

    # ------------------------------------------------------------ go
    def prepare_go(self, request: dict[str, Any]) -> GoJob:
        """Check a ``go`` and claim the session for it (RequestError when it
        is refused); run the returned job with :meth:`finish_go`."""
        rid, cmd = self.check_request(request)
        with self._lock:
            if self._job is not None:
                raise RequestError("busy", "a go is already running: send stop first")
            state = self._need_game()
            player = state.current_player()
            if player == CHANCE:
                raise RequestError("wrong_phase", "a chance node is not a decision: send deal, "
                                                  "or apply the outcome")
            if player == TERMINAL:
                raise RequestError("wrong_phase", "the game is over: there is no move to make")
            seat = request.get("seat")
            if seat is not None and not _is_int(seat):
                raise RequestError("bad_request", "'seat' should be a seat number")
            if seat is not None and seat != player:
                raise RequestError("not_to_move", f"seat {seat} is not to move; seat {player} is")
            # Seat mode: a seat the connection does not play is the engine's
            # to move; the reply says only what the viewing seat sees of it.
            plays = self.seats is not None and player not in self.seats
            # (A hint for a seat it plays ranks that seat's own moves: no view needed.)
            view = self._view(request, state) if plays or "view" in request else None
            kind, options, drew_seed = self._agent_request(request)
            try:
                agent = load_agent(kind, self.game, **options)
            except (SolversError, TypeError) as e:
                raise RequestError("invalid_option", str(e).splitlines()[0] if str(e) else
                                   "bad agent options") from None
            # The search starts from what the seat knows and nothing more.
            try:
                root = seat_view(state, player)
            except SolversError as e:
                raise RequestError("search_failed", str(e)) from None
            if plays:
                job = GoJob(rid, lambda j: self._play(j, agent, kind, root, player, view))
            else:
                job = GoJob(rid, lambda j: self._search(j, agent, kind, root, player))
            self._job = job
            if drew_seed:
                self._agent_rng.next()
        return job

    def finish_go(self, job: GoJob) -> dict[str, Any]:
        """Run a prepared job to its end (or its stop) and release the session."""
        try:
            result = job.run()
            reply = {"id": job.request_id, "cmd": "go", "result": result}
        except SolversError as e:
            reply = error_reply(job.request_id, "go", "search_failed", str(e))
        except Exception as e:  # a bug: keep serving
            traceback.print_exc(file=sys.stderr)
            reply = error_reply(job.request_id, "go", "internal_error", f"{type(e).__name__}: {e}")
        finally:
            with self._lock:
                self._job = None
            job.done.set()
        return reply

    def _agent_request(self, request: dict[str, Any]) -> tuple[str, dict[str, Any], bool]:
        """The agent kind and its checked options (budget included); whether
        the seed is the session's next one (to be drawn if the go is accepted)."""
        spec = request.get("agent", "mcts")
        if not isinstance(spec, str):
            raise RequestError("bad_request", "'agent' should be an agent name such as 'mcts'")
        try:
            kind, options = parse_agent_spec(spec)
        except SolversError as e:
            raise RequestError("invalid_option", str(e)) from None
        extra = request.get("options", {})
        if extra is None:
            extra = {}
        if not isinstance(extra, dict):
            raise RequestError("bad_request", "'options' should be an object of agent options")
        for key, value in extra.items():
            if key in options:
                raise RequestError("bad_request", f"agent option {key!r} is given twice")
            if not (value is None or isinstance(value, (str, bool, int, float))):
                raise RequestError("bad_request", f"agent option {key!r} should be a string, number or null")
            if isinstance(value, float) and not math.isfinite(value):
                raise RequestError("bad_request", f"agent option {key!r} should be finite")
            options[key] = value
        if kind not in agent_names():
            raise RequestError("invalid_option", f"unknown agent {kind[:50]!r}; the agents are "
                                                 + ", ".join(agent_names()))
        try:
            takes = agent_class(kind).options
        except SolversError as e:
            raise RequestError("invalid_option", str(e)) from None
        for key in options:
            if key not in takes:
                raise RequestError("invalid_option", f"unknown option {str(key)[:50]!r} for a {kind} "
                                                     f"agent; it takes {', '.join(takes)}")
        budget: dict[str, Any] = {}
        for key in ("time", "iterations"):
            if key in request and key in options:
                raise RequestError("bad_request", f"give {key!r} once: in the request or in the options")
            if key in request:
                budget[key] = _budget(key, request[key], "bad_request")
            elif key in options and kind == "mcts":
                options[key] = _budget(key, options[key], "invalid_option")
        if kind == "mcts":
            options.update(budget)
        drew_seed = "seed" not in options
        if drew_seed:
            # Peek: the session's generator moves on only when the go is accepted.
            options["seed"] = SplitMix64(self._agent_rng.state).next()
        else:
            try:
                check_seed("agent option 'seed'", options["seed"])
            except SolversError as e:
                raise RequestError("invalid_option", str(e)) from None
        return kind, options, drew_seed

    def _search(self, job: GoJob, agent: Any, kind: str, root: State, player: int) -> dict[str, Any]:
        start = time.perf_counter()
        iterations = 0
        if kind == "mcts" and not agent.near_end(root):
            from ..search.mcts import make_parallel_search

            search = make_parallel_search(root, threads=agent.search_threads(), iterations=agent.iterations,
                                          time=agent.time, backend=agent.backend, c=agent.c,
                                          seed=agent.rng.next(), rollout_plies=agent.rollout_plies,
                                          max_nodes=agent.max_nodes, rollout=agent.rollout,
                                          model=agent.model, mix=agent.mix)
            job.attach(search)
            r = search.run(iterations=agent.iterations, time=agent.time)
            iterations = r.iterations
            rows = [_row(root, a, v, n) for a, n, v in r.rows()]
            seen = {row["action"] for row in rows}
            # Actions the budget never tried come last, unvisited.
            rows += [_row(root, a, 0.0, 0) for a in root.legal_actions() if a not in seen]
        else:
            if agent.stoppable:
                job.attach(agent)         # a stop ends its search (Agent.stop)
            rows = agent.analyse(root)
        seconds = time.perf_counter() - start
        ranked = [{"action": int(r["action"]), "move": r["move"], "value": _finite(r["value"]),
                   "visits": int(r["visits"])} for r in rows]
        best = ranked[0]
        return {"seat": player, "agent": kind, "action": best["action"], "move": best["move"],
                "value": best["value"], "ranked": ranked, "iterations": int(iterations),
                "seconds": round(seconds, 6), "stopped": job.cut_short}


    def _play(self, job: GoJob, agent: Any, kind: str, root: State, player: int,
              view: int | None) -> dict[str, Any]:
        """A go for a seat the engine plays (seat mode): search as
        :meth:`_search`, play the best move, and say only what ``view`` sees
        of it (no action id, ranking, value or search count: they could tell
        the seat's hidden cards)."""
        found = self._search(job, agent, kind, root, player)
        with self._lock:
            state = self._need_game()
            action = found["action"]
            seen = self._seen(state, action, view)
            text = state.action_to_string(action)
            self._note(state, action)
            state.apply_action(action)
            self._played(action, text)
            return {"seat": player, "agent": kind, "played": True, "move": seen,
                    "stopped": found["stopped"], **self.status()}


def _budget(key: str, value: Any, code: str) -> float | int:
    """A checked ``time`` (seconds) or ``iterations`` budget (:mod:`solvers.limits`)."""
    try:
        if key == "time":
            return check_seconds("'time'", value, maximum=MAX_TIME)
        return check_whole("'iterations'", value, 1, MAX_ITERATIONS)
    except SolversError as e:
        raise RequestError(code, str(e)) from None


def _number(x: Any) -> int | float:
    """A whole number as an int, else a finite float (JSON-ready)."""
    x = _finite(x)
    return int(x) if x == int(x) else x


def _row(state: State, action: int, value: float, visits: int) -> dict[str, Any]:
    return {"action": action, "move": state.action_to_string(action), "value": float(value),
            "visits": int(visits)}


# ---------------------------------------------------------------- framing
def decode(line: str | bytes) -> Any:
    """One request from one line of JSON; RequestError ``parse_error`` else.

    >>> decode('{"cmd": "hello"}')
    {'cmd': 'hello'}
    """
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise RequestError("parse_error", "a request line should be UTF-8 text") from None
    try:
        return json.loads(line, parse_constant=_no_constant)
    except RequestError:
        raise
    except (ValueError, RecursionError) as e:
        raise RequestError("parse_error", f"not valid JSON: {_one_line(str(e))[:200]}") from None


def _no_constant(name: str) -> Any:
    raise RequestError("parse_error", f"not valid JSON: {name} is not a number")


def encode(reply: dict[str, Any]) -> str:
    """One reply as one line of ASCII JSON: no character inside it can pass
    for a line break, whatever a client's line reader splits on."""
    return json.dumps(reply, separators=(",", ":"), allow_nan=False)


def error_reply(rid: Any, cmd: str | None, code: str, message: str) -> dict[str, Any]:
    reply: dict[str, Any] = {"id": rid}
    if cmd is not None:
        reply["cmd"] = cmd
    reply["error"] = {"code": code, "message": _one_line(message)}
    return reply


def _safe_id(request: Any) -> Any:
    if isinstance(request, dict):
        rid = request.get("id")
        if rid is None or _is_int(rid) or (isinstance(rid, str) and len(rid) <= MAX_ID_LENGTH):
            return rid
    return None


def _safe_cmd(request: Any) -> str | None:
    if isinstance(request, dict) and request.get("cmd") in FIELDS:
        return request["cmd"]
    return None


# ---------------------------------------------------------------- hello
def _first_line(doc: str | None) -> str:
    """The first paragraph of a docstring as plain text (no reST markup)."""
    text = " ".join((doc or "").strip().split("\n\n")[0].split())
    text = re.sub(r":\w+:`([^`]*)`", r"\1", text)
    return text.replace("``", "")


def describe_engine() -> dict[str, Any]:
    """The ``hello`` result: versions, games (seats and options), agents."""
    from ..registry import games as game_records

    games = [{
        "name": info.name,
        "title": info.title,
        "players": info.player_counts(),
        "default_players": info.default_players,
        "options": info.option_names,
        "positions": ["history"] + ([info.name] if info.position is not None else []),
        "default_budget": dict(info.default_budget),
    } for info in game_records()]
    agents = []
    for name in agent_names():
        try:
            cls = agent_class(name)
        except SolversError:
            continue          # an optional agent whose extra is not installed
        agents.append({"name": name, "options": list(cls.options),
                       "budget": name == "mcts", "stoppable": cls.stoppable,
                       "about": _first_line(cls.__doc__)})
    return {"protocol": PROTOCOL, "protocol_version": PROTOCOL_VERSION,
            "version": solvers.__version__, "commands": list(COMMANDS),
            "games": games, "agents": agents}
