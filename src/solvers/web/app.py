"""The Starlette app behind ``solve serve`` (see :mod:`solvers.web`).

Imported only when the server runs: it needs the ``[web]`` extra.

>>> app = create_app()
>>> [r.path for r in app.routes if r.path.startswith(("/api", "/ws"))]
['/ws', '/api/games', '/api/games/{name}/board', '/api/games/{name}/tasks/{task}', '/api/tasks/{tid}']
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import threading
import time
import traceback
from functools import lru_cache
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import solvers

from ..engine.server import MAX_LINE, QUIT_WAIT, STOP_WAIT
from ..engine.session import (GoJob, RequestError, Session, _safe_cmd, _safe_id, decode, encode,
                              error_reply)
from ..errors import SolversError
from ..registry import game_info
from . import game_list

STATIC = Path(str(resources.files(__package__).joinpath("static")))
PAGES = {"/": "play.html", "/play": "play.html", "/solve": "solve.html", "/atlas": "atlas.html"}
MAX_TASKS_RUNNING = 2
MAX_TASKS_KEPT = 50
MAX_BODY = 1 << 20
SEARCH_NICE = 5          # the searches' niceness, relative to the event loop (Linux)


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

    def __init__(self, websocket: WebSocket):
        self.ws = websocket
        self.session = Session()
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
            reply = self.session.finish_go(job)
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
            try:
                # Here, not in a worker: it takes a millisecond, and a hop through
                # the thread pool costs more on a busy machine.
                job = session.prepare_go(request)
            except RequestError as e:
                self.post(error_reply(rid, cmd, e.code, str(e)))
            except Exception as e:  # a bug: keep serving
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
    engine = SocketEngine(websocket)
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
def _board(name: str, players: int | None, options: tuple[tuple[str, str], ...]) -> str:
    info = game_info(name)
    module = _web_module(name)
    parsed = {key: info.option(key).parse(text) for key, text in options}
    game = solvers.load_game(info.name, players=players or info.default_players, **parsed)
    return json.dumps(module.board(game), separators=(",", ":"))


async def api_games(request: Request) -> Response:
    return JSONResponse({"version": solvers.__version__, "games": game_list()})


async def api_board(request: Request) -> Response:
    name = request.path_params["name"]
    query = dict(request.query_params)
    players_text = query.pop("players", None)
    try:
        players = None
        if players_text is not None:
            if not players_text.isdigit():
                raise SolversError(f"players should be a number, not {players_text[:20]!r}")
            players = int(players_text)
        text = await run_in_threadpool(_board, name, players, tuple(sorted(query.items())))
    except SolversError as e:
        return _error(404 if "no browser drawing" in str(e) or "unknown game" in str(e).lower()
                      else 400, str(e))
    return Response(text, media_type="application/json")


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
class Task:
    """A longer job of a game's web module, run in a thread."""

    def __init__(self, fn: Any, params: Any):
        self.fn, self.params = fn, params
        self.progress = [0, 0]
        self.result: Any = None
        self.error: str | None = None
        self.done = threading.Event()
        self.started = time.time()

    def report(self, done: int, total: int) -> None:
        self.progress = [int(done), int(total)]

    def run(self) -> None:
        try:
            self.result = self.fn(self.params, self.report)
        except SolversError as e:
            self.error = str(e).splitlines()[0] if str(e) else "error"
        except Exception as e:  # a bug: say so
            traceback.print_exc(file=sys.stderr)
            self.error = f"internal error: {type(e).__name__}: {e}"
        finally:
            self.done.set()

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"done": self.done.is_set(), "progress": self.progress,
                               "seconds": round(time.time() - self.started, 3)}
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
    if not same_origin(request.headers):
        return _error(403, "jobs are started from this server's own pages")
    body = await request.body()
    if len(body) > MAX_BODY:
        return _error(413, "the request body is too long")
    try:
        params = json.loads(body or b"{}")
    except ValueError:
        return _error(400, "the request body is not valid JSON")
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
    return JSONResponse(task.as_json())


# ------------------------------------------------------------------ pages
def _page(file: str) -> Any:
    async def page(request: Request) -> Response:
        return FileResponse(STATIC / file, media_type="text/html")
    return page


def create_app() -> Starlette:
    """The web app: pages, the engine socket and the JSON API."""
    routes: list[Any] = [Route(path, _page(file)) for path, file in PAGES.items()]
    routes += [
        WebSocketRoute("/ws", engine_socket),
        Route("/api/games", api_games),
        Route("/api/games/{name}/board", api_board),
        Route("/api/games/{name}/tasks/{task}", api_task_start, methods=["POST"]),
        Route("/api/tasks/{tid}", api_task),
        Route("/games/{name}/board.js", board_js),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.tasks = TaskStore()
    return app
