"""The Starlette app behind ``solve serve`` (see :mod:`solvers.web`).

Imported only when the server runs: it needs the ``[web]`` extra.

>>> app = create_app()
>>> [r.path for r in app.routes if r.path.startswith(("/api", "/ws"))]
['/ws', '/api/games', '/api/games/{name}/board', '/api/games/{name}/rules', '/api/games/{name}/tasks/{task}', '/api/tasks/{tid}']
"""  # noqa: E501 (a doctest's output line)

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from functools import lru_cache
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import solvers

from ..engine.server import MAX_LINE, QUIT_WAIT, STOP_WAIT
from ..engine.session import GoJob, RequestError, Session, _safe_cmd, _safe_id, decode, encode, error_reply
from ..errors import SolversError
from ..registry import game_info
from . import game_list

STATIC = Path(str(resources.files(__package__).joinpath("static")))
PAGES = {"/": "play.html", "/play": "play.html", "/solve": "solve.html", "/atlas": "atlas.html",
         "/analysis": "analysis.html"}
MAX_TASKS_RUNNING = 2
MAX_TASKS_KEPT = 50
MAX_BODY = 1 << 20
MAX_UPLOAD = 1 << 18     # bytes of JSON in one uploaded data file (the built-in ones: < 20 KB)
SEARCH_NICE = 5          # the searches' niceness, relative to the event loop (Linux)
QUEUE_FACTOR = 2         # searches that may wait for a slot, per slot
# Every response: no inline script or style, nothing from other sites, never
# inside another site's frame, no guessing of content types.
SECURITY_HEADERS = {
    "content-security-policy": ("default-src 'self'; script-src 'self'; style-src 'self'; "
                                "img-src 'self' data:; connect-src 'self'; object-src 'none'; "
                                "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin",
}


def default_searches() -> int:
    """Searches the server runs at once by default: one per core."""
    return max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------ who may ask
def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header as (name, port), the name lower-case and an IPv6
    address without its brackets; None when it is malformed.

    >>> split_host("LocalHost:8000"), split_host("[::1]:80"), split_host("127.0.0.1")
    (('localhost', 8000), ('::1', 80), ('127.0.0.1', None))
    >>> split_host("a:b:c") is None, split_host("[::1") is None
    (True, True)
    """
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return None
        name, rest = value[1:end], value[end + 1:]
    else:
        name, sep, port = value.partition(":")
        rest = sep + port
    if not name:
        return None
    if not rest:
        return name, None
    if rest[0] != ":" or not rest[1:].isdigit() or len(rest) > 6:
        return None
    return name, int(rest[1:])


def _ip(name: str) -> Any:
    import ipaddress

    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


class HostCheck:
    """Which ``Host`` headers the server answers: a loopback name
    (``localhost``, an address of 127.0.0.0/8, ``::1``) on any port, and
    the address it was started on with its port (for a wildcard address
    such as 0.0.0.0, any IP address with its port). A web page that
    rebinds its own domain name to 127.0.0.1 sends its own name as the
    Host, and is refused (DNS rebinding).

    >>> check = HostCheck("127.0.0.1", 8000)
    >>> [check.allows(h) for h in ("127.0.0.1:8000", "localhost:8000", "[::1]:9", "evil.example:8000")]
    [True, True, True, False]
    >>> lan = HostCheck("192.168.1.5", 8000)
    >>> lan.allows("192.168.1.5:8000"), lan.allows("192.168.1.5:8001"), lan.allows(None)
    (True, False, False)
    """

    def __init__(self, host: str | tuple[str, ...] | None = None, port: int | None = None):
        names = (host,) if isinstance(host, str) else tuple(host or ())
        self.hosts = {name.strip("[]").lower() for name in names}
        self.port = port
        ips = [_ip(name.split("%")[0]) for name in self.hosts]
        self.wildcard = any(ip is not None and ip.is_unspecified for ip in ips)

    def allows(self, header: str | None) -> bool:
        parts = split_host(header) if header else None
        if parts is None:
            return False
        name, port = parts
        ip = _ip(name)
        if name == "localhost" or (ip is not None and ip.is_loopback):
            return True
        if self.port is None or port != self.port:
            return False
        return name in self.hosts or (self.wildcard and ip is not None)


class Guard:
    """ASGI middleware in front of the whole app: refuses a request whose
    ``Host`` the :class:`HostCheck` does not allow (HTTP 403; a WebSocket is
    closed before its handshake completes, which the client sees as a 403)
    and adds :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: Any, hosts: HostCheck):
        self.app, self.hosts = app, hosts
        self.headers = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http":
            async def send_with_headers(message: Any) -> None:
                if message["type"] == "http.response.start":
                    message = {**message, "headers": [*message.get("headers", []), *self.headers]}
                await send(message)
            reply = send_with_headers
        else:
            reply = send
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
        if not self.hosts.allows(host):
            if kind == "http":
                await _error(403, "this server answers only requests for its own address "
                                  "(Host header: a loopback name or the address it listens on)"
                             )(scope, receive, reply)
            else:
                await receive()                       # websocket.connect
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, reply)


# ------------------------------------------------------------------ data files
def _file_option_error(info: Any, key: str, value: Any) -> str | None:
    """Why a web request's value for option ``key`` is refused, or None.
    The server reads no file a request names: a data file comes as its
    content (a JSON object of at most MAX_UPLOAD bytes), never a path."""
    try:
        option = info.option(key)
    except SolversError:
        return None                  # the engine names the unknown option
    if not option.names_a_file or value is None:
        return None
    if isinstance(value, str):
        return (f"option {key!r}: the web server reads no files on the server; leave it out for "
                f"the built-in one, or upload the file (its JSON content)")
    if not isinstance(value, dict):
        return f"option {key!r} should be the uploaded file's content, a JSON object"
    if len(json.dumps(value, separators=(",", ":"))) > MAX_UPLOAD:
        return f"option {key!r}: the uploaded file is larger than {MAX_UPLOAD // 1024} KiB"
    return None


def web_options_error(game: Any, options: Any) -> str | None:
    """The first refusal of :func:`_file_option_error` among a web request's
    game options, or None (also when the game or the options are malformed:
    the engine's own checks say so)."""
    if not isinstance(game, str) or not isinstance(options, dict):
        return None
    try:
        info = game_info(game)
    except SolversError:
        return None
    for key, value in options.items():
        message = _file_option_error(info, key, value)
        if message is not None:
            return message
    return None


def web_position_error(position: Any) -> str | None:
    """As :func:`web_options_error`, for a ``position`` request: the history
    position's options, and in a game's own format (a native ``start``)
    any key named like a data-file option that holds text (Santa Cruz's
    ``board`` path)."""
    if not isinstance(position, dict):
        return None
    game = position.get("game")
    message = web_options_error(game, position.get("options"))
    if message is not None:
        return message
    try:
        info = game_info(game) if isinstance(game, str) else None
    except SolversError:
        return None
    if info is None:
        return None
    native = position.get("start", position if "moves" not in position else None)
    if isinstance(native, dict):
        for option in info.file_options:
            if isinstance(native.get(option.name), str):
                return (f"position {option.name!r}: the web server reads no files on the server; "
                        f"a position from the web uses the built-in {option.name} or an uploaded one")
    return None


class WebSession(Session):
    """The engine session of one browser tab: :class:`Session`, except that
    it reads no file a request names (see :func:`web_options_error`)."""

    def cmd_new(self, request: dict[str, Any]) -> dict[str, Any]:
        message = web_options_error(request.get("game"), request.get("options"))
        if message is not None:
            raise RequestError("invalid_option", message)
        return super().cmd_new(request)

    def cmd_position(self, request: dict[str, Any]) -> dict[str, Any]:
        message = web_position_error(request.get("position"))
        if message is not None:
            raise RequestError("invalid_position", message)
        return super().cmd_position(request)


# ------------------------------------------------------------------ searches
class SearchSlots:
    """The server's cap on searches: ``running`` at once, ``waiting`` more
    queued for a slot; a ``go`` beyond both is refused (``busy``). The
    searches of many tabs (or of a hostile page opening sockets) would
    otherwise all run at once, each in its own thread."""

    def __init__(self, running: int, waiting: int):
        self.max_running, self.max_admitted = running, running + waiting
        self.running = self.admitted = 0
        self.cond = threading.Condition()

    def enter(self) -> bool:
        """Admit one more search (running or waiting), or False when full."""
        with self.cond:
            if self.admitted >= self.max_admitted:
                return False
            self.admitted += 1
            return True

    def take(self, stopped: Callable[[], bool]) -> bool:
        """Wait for a slot (an admitted search); False when ``stopped()``
        became true first (a stopped search ends at once, slot or not)."""
        with self.cond:
            while self.running >= self.max_running:
                if stopped():
                    return False
                self.cond.wait(0.05)
            self.running += 1
            return True

    def leave(self, took: bool) -> None:
        with self.cond:
            self.admitted -= 1
            if took:
                self.running -= 1
            self.cond.notify()

    def busy_message(self) -> str:
        return (f"the server is busy: {self.max_running} searches are running and "
                f"{self.max_admitted - self.max_running} more are waiting; try again when one ends")


# ------------------------------------------------------------------ the socket
def lower_priority() -> None:
    """Run this thread (a search) at a lower priority than the event loop.

    The searches of many tabs keep every core busy until their budgets end;
    the loop that reads the sockets and starts them needs the CPU only now
    and then, but at once: otherwise the last of many simultaneous requests
    waits for the loop. (Linux sets a priority per thread; elsewhere this
    does nothing.)"""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SEARCH_NICE)
    except (AttributeError, OSError):
        pass


class SocketEngine:
    """One WebSocket's engine session: the protocol of ``solve engine`` with
    one message per request and per reply instead of one line."""

    def __init__(self, websocket: WebSocket, slots: SearchSlots):
        self.ws = websocket
        self.session = WebSession()
        self.slots = slots
        self.loop = asyncio.get_running_loop()
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closed = False

    def post(self, reply: dict[str, Any]) -> None:
        """Queue a reply (from the event loop)."""
        self.outbox.put_nowait(reply)

    def post_threadsafe(self, reply: dict[str, Any]) -> None:
        """Queue a reply from another thread."""
        try:
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, reply)
        except RuntimeError:       # the loop is gone: the server is shutting down
            pass

    async def send_loop(self) -> None:
        while True:
            reply = await self.outbox.get()
            if reply is None:
                return
            try:
                await self.ws.send_text(encode(reply))
            except Exception:       # the tab went away; the reader notices it
                self.closed = True
                return

    def _start_go(self, job: GoJob) -> None:
        def work() -> None:
            lower_priority()
            took = self.slots.take(lambda: job.stopped)
            try:
                reply = self.session.finish_go(job)
            finally:
                self.slots.leave(took)
            self.post_threadsafe(reply)
            job.replied.set()

        threading.Thread(target=work, name="solvers-web-go", daemon=True).start()

    async def feed(self, data: str | bytes | None) -> bool:
        """Handle one message; False once the session has quit."""
        session = self.session
        if data is None:
            return True
        if len(data) > MAX_LINE:
            self.post(error_reply(None, None, "parse_error",
                                  f"a request is longer than {MAX_LINE} bytes"))
            return True
        request: Any = None
        try:
            request = decode(data)
            rid, cmd = session.check_request(request)
        except RequestError as e:
            self.post(error_reply(_safe_id(request), _safe_cmd(request), e.code, str(e)))
            return True
        if cmd == "go":
            if not self.slots.enter():
                self.post(error_reply(rid, cmd, "busy", self.slots.busy_message()))
                return True
            try:
                # Here, not in a worker: it takes a millisecond, and a hop through
                # the thread pool costs more on a busy machine.
                job = session.prepare_go(request)
            except RequestError as e:
                self.slots.leave(False)
                self.post(error_reply(rid, cmd, e.code, str(e)))
            except Exception as e:  # a bug: keep serving
                self.slots.leave(False)
                traceback.print_exc(file=sys.stderr)
                self.post(error_reply(rid, cmd, "internal_error", f"{type(e).__name__}: {e}"))
            else:
                self._start_go(job)
            return True
        running = session._job
        reply = await run_in_threadpool(session.handle, request)
        if cmd in ("stop", "quit") and "result" in reply and running is not None:
            # The go's reply goes out first (queued by its thread), then the stop's.
            waited = await run_in_threadpool(running.replied.wait,
                                             STOP_WAIT if cmd == "stop" else QUIT_WAIT)
            if cmd == "stop" and not waited:
                reply["result"]["stopped"] = False
        self.post(reply)
        return not session.closed

    def close(self) -> None:
        """The tab went away: stop its search."""
        self.closed = True
        job = self.session._job
        if job is not None:
            job.stop()
        self.session.closed = True
        self.outbox.put_nowait(None)


def same_origin(headers: Any) -> bool:
    """Whether a request comes from this server's own pages (or from a
    program, which sends no ``Origin``). Browsers let any web site open a
    WebSocket to 127.0.0.1 or post a form to it; this refuses them.

    >>> same_origin({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"})
    True
    >>> same_origin({"host": "127.0.0.1:8000", "origin": "https://example.com"})
    False
    >>> same_origin({"host": "127.0.0.1:8000"})
    True
    """
    from urllib.parse import urlsplit

    origin = headers.get("origin")
    if origin is None:
        return True
    try:
        return urlsplit(origin).netloc.lower() == str(headers.get("host", "")).lower()
    except ValueError:
        return False


async def engine_socket(websocket: WebSocket) -> None:
    if not same_origin(websocket.headers):
        await websocket.close(code=1008)       # before accepting: the handshake gets a 403
        return
    await websocket.accept()
    engine = SocketEngine(websocket, websocket.app.state.searches)
    sender = asyncio.create_task(engine.send_loop())
    try:
        while not engine.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text")
            if data is None:
                data = message.get("bytes")
            if not await engine.feed(data):
                engine.outbox.put_nowait(None)
                await sender
                await websocket.close()
                break
    except WebSocketDisconnect:
        pass
    finally:
        engine.close()
        if not sender.done():
            try:
                await asyncio.wait_for(sender, 1.0)
            except (asyncio.TimeoutError, Exception):
                sender.cancel()


# ------------------------------------------------------------------ games
def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(message.split())[:500]}, status_code=status)


def _web_module(name: str) -> Any:
    info = game_info(name)
    if info.web is None:
        raise SolversError(f"{info.title} has no browser drawing yet")
    return import_module(info.web)


@lru_cache(maxsize=64)
def _board(name: str, players: int | None, options_json: str) -> str:
    """The board data as JSON text, cached by the options (as canonical JSON)."""
    info = game_info(name)
    module = _web_module(name)
    game = solvers.load_game(info.name, players=players or info.default_players,
                             **json.loads(options_json))
    return json.dumps(module.board(game), separators=(",", ":"))


async def api_games(request: Request) -> Response:
    return JSONResponse({"version": solvers.__version__, "games": game_list(),
                         "max_upload": MAX_UPLOAD})


async def _json_body(request: Request, what: str) -> tuple[Any, Response | None]:
    """The decoded JSON body of a POST (empty: ``{}``), or the error reply:
    403 unless it comes from this server's own pages (``what`` starts that
    message), 413 beyond MAX_BODY bytes, 400 for text that is not JSON."""
    if not same_origin(request.headers):
        return None, _error(403, f"{what} from this server's own pages")
    body = await request.body()
    if len(body) > MAX_BODY:
        return None, _error(413, "the request body is too long")
    try:
        return json.loads(body or b"{}"), None
    except ValueError:
        return None, _error(400, "the request body is not valid JSON")


def _board_options(name: str, options: dict[str, Any], from_query: bool) -> dict[str, Any]:
    """A board request's game options, checked: text from a query string is
    read as each option's type; a data file only as an uploaded object."""
    info = game_info(name)
    out = {}
    for key, value in options.items():
        option = info.option(key)
        if from_query and option.names_a_file:
            raise SolversError(f"option {key!r}: the web server reads no files on the server; "
                               f"leave it out for the built-in one, or POST the file's content")
        message = _file_option_error(info, key, value)
        if message is not None:
            raise SolversError(message)
        out[key] = option.parse(value) if from_query else value
    return out


async def api_board(request: Request) -> Response:
    """``GET ?players=N&option=text`` or ``POST {"players", "options"}`` (a
    game on an uploaded data file): the game's drawing data."""
    name = request.path_params["name"]
    try:
        if request.method == "POST":
            params, refused = await _json_body(request, "boards are asked for")
            if refused is not None:
                return refused
            if not isinstance(params, dict) or set(params) - {"players", "options"}:
                raise SolversError('the body is {"players": N, "options": {...}}')
            players = params.get("players")
            if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
                raise SolversError("players should be a whole number")
            options = params.get("options") or {}
            if not isinstance(options, dict):
                raise SolversError("options should be an object of game options")
            options = _board_options(name, options, from_query=False)
        else:
            query = dict(request.query_params)
            players_text = query.pop("players", None)
            players = None
            if players_text is not None:
                if not players_text.isdigit():
                    raise SolversError(f"players should be a number, not {players_text[:20]!r}")
                players = int(players_text)
            options = _board_options(name, query, from_query=True)
        key = json.dumps(options, sort_keys=True, separators=(",", ":"))
        text = await run_in_threadpool(_board, name, players, key)
    except SolversError as e:
        return _error(404 if "no browser drawing" in str(e) or "unknown game" in str(e).lower()
                      else 400, str(e))
    return Response(text, media_type="application/json")


def rules_text(name: str) -> str:
    """The Markdown of a game's rules page (``docs/rules/<page>``, which the
    package installs as ``solvers.rules``; a source checkout that is not
    installed reads the docs folder). The file name comes from the game's
    record, never from a request."""
    page = game_info(name).rules_page
    try:
        return resources.files("solvers.rules").joinpath(page).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        pass
    source = Path(solvers.__file__).resolve().parents[2] / "docs" / "rules" / page
    try:
        return source.read_text("utf-8")
    except OSError:
        raise SolversError(f"{game_info(name).title}: its rules page {page} is not installed") from None


@lru_cache(maxsize=16)
def _rules_tree(name: str) -> list[Any]:
    from .markdown import render_tree

    return render_tree(rules_text(name))


async def api_rules(request: Request) -> Response:
    """``GET``: the game's rules page, rendered from our Markdown as a tree
    of elements (``[tag, {attribute: value}, child...]``, a child a node or
    text; :func:`solvers.web.markdown.render_tree`) that the page builds
    element by element: every character of the file arrives as text."""
    name = request.path_params["name"]
    try:
        info = game_info(name)
        tree = await run_in_threadpool(_rules_tree, info.name)
    except SolversError as e:
        return _error(404, str(e))
    return JSONResponse({"game": info.name, "title": info.title, "page": info.rules_page,
                         "nodes": tree})


async def board_js(request: Request) -> Response:
    name = request.path_params["name"]
    try:
        info = game_info(name)
    except SolversError as e:
        return _error(404, str(e))
    if info.web is None:
        return _error(404, f"{info.title} has no browser drawing yet")
    package = info.web.rpartition(".")[0]
    try:
        text = resources.files(package).joinpath("board.js").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return _error(404, f"{info.title} has no board.js")
    return Response(text, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


# ------------------------------------------------------------------ tasks
class TaskProgress:
    """What a task function is given as ``progress``: call it with ``(done,
    total)``; ``stop`` is set when the job is cancelled (``DELETE
    /api/tasks/<ID>``), for a function that can stop its work early."""

    def __init__(self, task: "Task"):
        self.task = task
        self.stop = threading.Event()

    def __call__(self, done: int, total: int) -> None:
        self.task.report(done, total)


class Task:
    """A longer job of a game's web module, run in a thread."""

    def __init__(self, fn: Any, params: Any):
        self.fn, self.params = fn, params
        self.control = TaskProgress(self)
        self.progress = [0, 0]
        self.result: Any = None
        self.error: str | None = None
        self.done = threading.Event()
        self.started = time.time()

    def report(self, done: int, total: int) -> None:
        self.progress = [int(done), int(total)]

    def run(self) -> None:
        try:
            self.result = self.fn(self.params, self.control)
        except SolversError as e:
            self.error = str(e).splitlines()[0] if str(e) else "error"
        except Exception as e:  # a bug: say so
            traceback.print_exc(file=sys.stderr)
            self.error = f"internal error: {type(e).__name__}: {e}"
        finally:
            self.done.set()

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"done": self.done.is_set(), "progress": self.progress,
                               "seconds": round(time.time() - self.started, 3),
                               "cancelled": self.control.stop.is_set()}
        if self.done.is_set():
            out["error" if self.error is not None else "result"] = (
                self.error if self.error is not None else self.result)
        return out


class TaskStore:
    def __init__(self) -> None:
        self.tasks: dict[str, Task] = {}
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def start(self, fn: Any, params: Any) -> str:
        with self.lock:
            running = sum(not t.done.is_set() for t in self.tasks.values())
            if running >= MAX_TASKS_RUNNING:
                raise SolversError(f"{running} jobs are running already: wait for one to end")
            finished = [k for k, t in self.tasks.items() if t.done.is_set()]
            for key in finished[:max(0, len(self.tasks) - MAX_TASKS_KEPT + 1)]:
                del self.tasks[key]        # the oldest finished jobs
            tid = str(next(self.ids))
            task = self.tasks[tid] = Task(fn, params)
        threading.Thread(target=task.run, name=f"solvers-web-task-{tid}", daemon=True).start()
        return tid


async def api_task_start(request: Request) -> Response:
    name, task_name = request.path_params["name"], request.path_params["task"]
    try:
        tasks = getattr(_web_module(name), "TASKS", {})
    except SolversError as e:
        return _error(404, str(e))
    if task_name not in tasks:
        return _error(404, f"{name} has no task {task_name[:40]!r}; it has "
                           f"{', '.join(sorted(tasks)) or 'none'}")
    params, refused = await _json_body(request, "jobs are started")
    if refused is not None:
        return refused
    # A task that took a data file would take it as content too, never a path.
    message = web_options_error(name, {k: v for k, v in params.items()
                                       if k in game_info(name).option_names}
                                if isinstance(params, dict) else None)
    if message is not None:
        return _error(400, message)
    store: TaskStore = request.app.state.tasks
    try:
        tid = store.start(tasks[task_name], params)
    except SolversError as e:
        return _error(429, str(e))
    return JSONResponse({"task": tid})


async def api_task(request: Request) -> Response:
    task = request.app.state.tasks.tasks.get(request.path_params["tid"])
    if task is None:
        return _error(404, "no such task")
    if request.method == "DELETE":
        # Cancel: only from the server's own pages, like starting a job.
        if not same_origin(request.headers):
            return _error(403, "a job is cancelled only from this server's own pages")
        task.control.stop.set()
    return JSONResponse(task.as_json())


# ------------------------------------------------------------------ pages
def _page(file: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / file, media_type="text/html")
    return page


def analysis_routes() -> list[Any]:
    """The analysis page's routes (:mod:`solvers.web.analysis`)."""
    from .analysis import ROUTES

    return list(ROUTES)


def create_app(host: str | tuple[str, ...] | None = None, port: int | None = None,
               searches: int | None = None) -> Starlette:
    """The web app: pages, the engine socket and the JSON API, behind the
    :class:`Guard`. ``host`` (a name or several: as given and as bound) and
    ``port``: the address the server listens on (allowed as a ``Host``
    besides the loopback names); ``searches``: how
    many run at once (default: one per core), as many again per slot
    (:data:`QUEUE_FACTOR`) wait, more are refused as busy."""
    routes: list[Any] = [Route(path, _page(file)) for path, file in PAGES.items()]
    routes += [
        WebSocketRoute("/ws", engine_socket),
        Route("/api/games", api_games),
        Route("/api/games/{name}/board", api_board, methods=["GET", "POST"]),
        Route("/api/games/{name}/rules", api_rules),
        Route("/api/games/{name}/tasks/{task}", api_task_start, methods=["POST"]),
        Route("/api/tasks/{tid}", api_task, methods=["GET", "DELETE"]),
        Route("/games/{name}/board.js", board_js),
        *analysis_routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    running = default_searches() if searches is None else searches
    if running < 1:
        raise SolversError("the server needs room for at least 1 search")
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=HostCheck(host, port))])
    app.state.tasks = TaskStore()
    app.state.searches = SearchSlots(running, QUEUE_FACTOR * running)
    return app
