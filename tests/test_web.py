"""``solve serve`` without a browser: the JSON API, the engine over a
WebSocket (the protocol's replies, errors, stop, a closed socket), the final
breakdown and the annotations in the protocol, the command line (127.0.0.1,
the missing extra)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import jsonschema
import pytest
from web_helpers import search_threads, serve_in_thread
from websockets.sync.client import connect

import solvers
from solvers.engine import Session, load_schema
from solvers.registry import games, load_object

SCHEMA = load_schema()
REPLY = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/reply"})


def checked(reply: dict) -> dict:
    errors = list(REPLY.iter_errors(reply))
    assert not errors, f"{reply} breaks the schema: {errors[0].message}"
    return reply


def get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.headers.get("Content-Type", ""), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


def ws_url(web_server: str) -> str:
    return web_server.replace("http://", "ws://") + "/ws"


class Socket:
    """A WebSocket client that sends requests and reads replies as JSON."""

    def __init__(self, url: str):
        self.ws = connect(url, max_size=None).__enter__()

    def send(self, request) -> None:
        self.ws.send(request if isinstance(request, (str, bytes)) else json.dumps(request))

    def recv(self, timeout: float = 30) -> dict:
        return checked(json.loads(self.ws.recv(timeout)))

    def ask(self, request) -> dict:
        self.send(request)
        return self.recv()

    def close(self) -> None:
        self.ws.close()


# ------------------------------------------------------------------ HTTP
def test_games_list_is_the_registry(web_server):
    status, kind, body = get(web_server + "/api/games")
    assert status == 200 and kind.startswith("application/json")
    listed = {g["name"]: g for g in json.loads(body)["games"]}
    assert set(listed) == {g.name for g in games()}
    for info in games():
        g = listed[info.name]
        assert g["title"] == info.title
        assert g["players"] == list(range(info.min_players, info.max_players + 1))
        assert [o["name"] for o in g["options"]] == [o.name for o in info.options]
        assert g["default_budget"] == info.default_budget
        assert g["web"] == (info.web is not None)


@pytest.mark.parametrize("name", [g.name for g in games() if g.web])
def test_board_and_board_js_of_every_drawn_game(web_server, name):
    info = solvers.registry.game_info(name)
    for players in (info.min_players, info.max_players):
        status, _, body = get(f"{web_server}/api/games/{name}/board?players={players}")
        assert status == 200, body
        module = load_object(info.web)
        expected = module.board(solvers.load_game(name, players=players))
        assert json.loads(body) == json.loads(json.dumps(expected))
    status, kind, js = get(f"{web_server}/games/{name}/board.js")
    assert status == 200 and "javascript" in kind
    assert "export function draw" in js


def test_http_errors_are_one_line_json(web_server):
    no_web = [g.name for g in games() if not g.web]
    cases = [("/api/games/nosuchgame/board", 404), ("/games/nosuchgame/board.js", 404),
             ("/api/games/c2c/board?players=9", 400), ("/api/games/c2c/board?players=x", 400),
             ("/api/games/c2c/board?colour=red", 400), ("/api/tasks/12345", 404)]
    cases += [(f"/games/{n}/board.js", 404) for n in no_web]
    for path, code in cases:
        status, kind, body = get(web_server + path)
        assert status == code, (path, body)
        error = json.loads(body)["error"]
        assert error and "\n" not in error and "Traceback" not in error


def test_pages_are_served_without_outside_resources(web_server):
    for path in ("/", "/solve", "/atlas", "/static/play.js", "/static/style.css"):
        status, _, body = get(web_server + path)
        assert status == 200, path
        assert "http://" not in body.replace("http://www.w3.org", "") and "https://" not in body, path


def test_a_task_refuses_bad_input_with_one_line(web_server):
    request = urllib.request.Request(web_server + "/api/games/c2c/tasks/solve",
                                     data=json.dumps({"deal": ["Hollywood"]}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        tid = json.loads(r.read())["task"]
    for _ in range(100):
        reply = json.loads(get(f"{web_server}/api/tasks/{tid}")[2])
        if reply["done"]:
            break
        time.sleep(0.1)
    assert "1 cards listed, but a deal has 24" in reply["error"]
    request = urllib.request.Request(web_server + "/api/games/c2c/tasks/nothing", data=b"{}")
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=30)
    assert e.value.code == 404


# ------------------------------------------------------------------ the socket
def test_socket_speaks_the_engine_protocol(web_server):
    """The same requests give the same replies as an in-process Session."""
    requests = [{"id": 1, "cmd": "new", "game": "c2c", "seed": 7, "options": {"challenge": "The Alamo"}},
                {"id": 2, "cmd": "deal"}, {"id": 3, "cmd": "state", "seat": 0},
                {"id": 4, "cmd": "go", "iterations": 300}, {"id": "x", "cmd": "legal"},
                {"id": 5, "cmd": "apply", "move": "cross oklahoma city zoo"},
                {"id": 6, "cmd": "position"}]
    session, sock = Session(), Socket(ws_url(web_server))
    try:
        for request in requests:
            got, want = sock.ask(request), session.handle(request)
            if request["cmd"] == "go":
                got["result"].pop("seconds"), want["result"].pop("seconds")
            assert got == want
    finally:
        sock.close()


def test_malformed_messages_get_protocol_errors(web_server):
    sock = Socket(ws_url(web_server))
    try:
        cases = [("{not json", None, "parse_error"), ("[1, 2]", None, "bad_request"),
                 ('{"id": 3}', 3, "bad_request"), ('{"id": 4, "cmd": "dance"}', 4, "unknown_command"),
                 ('{"id": 5, "cmd": "apply", "move": "x"}', 5, "no_game"),
                 ('{"id": 6, "cmd": "new", "game": "c2c", "colour": 1}', 6, "bad_request"),
                 ('{"id": 7, "cmd": "new", "game": "chess"}', 7, "invalid_option"),
                 (b"\xff\xfe{}", None, "parse_error"), ("NaN", None, "parse_error"),
                 ('{"id": [1], "cmd": "hello"}', None, "bad_request"),
                 ("x" * ((1 << 20) + 10), None, "parse_error")]
        for message, rid, code in cases:
            reply = sock.ask(message)
            assert reply["id"] == rid and reply["error"]["code"] == code, (message[:30], reply)
        # ... and the session still serves.
        assert sock.ask({"id": 8, "cmd": "new", "game": "c2c"})["result"]["phase"] == "chance"
    finally:
        sock.close()


def test_stop_answers_go_first_then_stop(web_server):
    sock = Socket(ws_url(web_server))
    try:
        sock.ask({"id": 1, "cmd": "new", "game": "c2c", "seed": 1})
        sock.ask({"id": 2, "cmd": "deal"})
        sock.send({"id": 3, "cmd": "go", "time": 60})
        time.sleep(0.3)
        busy = sock.ask({"id": 4, "cmd": "apply", "action": 0})
        assert busy["error"]["code"] == "busy"
        start = time.perf_counter()
        sock.send({"id": 5, "cmd": "stop"})
        first, second = sock.recv(), sock.recv()
        assert time.perf_counter() - start < 2
        assert first["id"] == 3 and first["result"]["stopped"] is True
        assert second == {"id": 5, "cmd": "stop", "result": {"stopped": True, "go": 3}}
        assert sock.ask({"id": 6, "cmd": "apply", "action": first["result"]["action"]})["result"]
    finally:
        sock.close()


def test_sessions_are_independent(web_server):
    a, b = Socket(ws_url(web_server)), Socket(ws_url(web_server))
    try:
        a.ask({"id": 1, "cmd": "new", "game": "c2c", "seed": 1})
        b.ask({"id": 1, "cmd": "new", "game": "c2c", "seed": 2, "players": 2})
        a.ask({"id": 2, "cmd": "deal"})
        assert b.ask({"id": 2, "cmd": "legal"})["result"]["ply"] == 0     # b still at the start
        assert a.ask({"id": 3, "cmd": "legal"})["result"]["players"] == 1
    finally:
        a.close(), b.close()


def test_other_web_sites_cannot_open_the_socket_or_start_jobs(web_server):
    from websockets.exceptions import InvalidStatus

    with pytest.raises(InvalidStatus) as e:
        connect(ws_url(web_server), origin="https://example.com").__enter__()
    assert e.value.response.status_code == 403
    own = connect(ws_url(web_server), origin=web_server).__enter__()     # the app's own pages
    own.send('{"id": 1, "cmd": "hello"}')
    assert json.loads(own.recv(30))["result"]["protocol"] == "solvers-engine"
    own.close()
    request = urllib.request.Request(web_server + "/api/games/c2c/tasks/solve", data=b'{"seed": 1}',
                                     headers={"Origin": "https://example.com"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(request, timeout=30)
    assert e.value.code == 403


def test_quit_closes_the_socket(web_server):
    sock = Socket(ws_url(web_server))
    assert sock.ask({"id": 1, "cmd": "quit"})["result"] == {"bye": True}
    from websockets.exceptions import ConnectionClosed

    with pytest.raises(ConnectionClosed):
        sock.ws.recv(5)


@pytest.fixture
def server_in_this_process():
    """The app served by uvicorn in a thread of this process (its threads
    can be watched); yields the socket's address."""
    with serve_in_thread() as url:
        yield ws_url(url)


def test_a_closed_socket_stops_its_search(server_in_this_process):
    before = search_threads()
    sock = Socket(server_in_this_process)
    sock.ask({"id": 1, "cmd": "new", "game": "c2c"})
    sock.ask({"id": 2, "cmd": "deal"})
    sock.send({"id": 3, "cmd": "go", "time": 600})
    deadline = time.time() + 10
    while search_threads() == before and time.time() < deadline:
        time.sleep(0.02)
    assert search_threads() == before + 1
    sock.close()
    deadline = time.time() + 5
    while search_threads() > before and time.time() < deadline:
        time.sleep(0.02)
    assert search_threads() == before


# ------------------------------------------------------------------ breakdown
@pytest.mark.parametrize("name", [g.name for g in games() if g.web])
def test_state_at_the_end_carries_the_breakdown(name):
    info = solvers.registry.game_info(name)
    for players in info.player_counts():
        session = Session()
        session.handle({"id": 1, "cmd": "new", "game": name, "players": players, "seed": 11})
        status = session.handle({"id": 2, "cmd": "deal"})["result"]
        rng = __import__("random").Random(players)
        while status["phase"] != "over":
            if status["phase"] == "chance":
                status = session.handle({"id": 3, "cmd": "deal"})["result"]
                continue
            state = checked(session.handle({"id": 4, "cmd": "state", "seat": status["to_move"]}))
            assert "breakdown" not in state["result"]
            move = rng.choice(state["result"]["legal"])
            status = session.handle({"id": 5, "cmd": "apply", "action": move["action"]})["result"]
        for seat in range(players):
            reply = checked(session.handle({"id": 6, "cmd": "state", "seat": seat}))["result"]
            rows = reply["breakdown"]
            assert len(rows) == players
            assert [sum(r["points"] for r in seat_rows) for seat_rows in rows] == reply["scores"]


# ------------------------------------------------------------------ annotations
def web_annotate(name: str):
    """The game's web module's annotate, or None."""
    from importlib import import_module

    web = solvers.registry.game_info(name).web
    return getattr(import_module(web), "annotate", None) if web else None


@pytest.mark.parametrize("name", [g.name for g in games()])
def test_state_carries_annotations_exactly_for_games_whose_web_module_defines_annotate(name):
    """Every state reply of a game whose web module defines annotate(state,
    seat) has ``annotations``, its answer for that seat; no other has it."""
    annotate = web_annotate(name)
    info = solvers.registry.game_info(name)
    players = info.default_players
    session = Session()
    session.handle({"id": 1, "cmd": "new", "game": name, "players": players, "seed": 3})
    rng = __import__("random").Random(3)
    asked = 0
    for ply in range(400):
        status = checked(session.handle({"id": 2, "cmd": "legal"}))["result"]
        if ply % 7 == 0 or status["phase"] == "over":
            for seat in range(players):
                reply = checked(session.handle({"id": 3, "cmd": "state", "seat": seat}))["result"]
                assert ("annotations" in reply) == (annotate is not None)
                if annotate is not None:
                    assert reply["annotations"] == json.loads(json.dumps(annotate(session.state, seat)))
                asked += 1
        if status["phase"] == "over":
            break
        if status["phase"] == "chance":
            session.handle({"id": 4, "cmd": "deal"})
        else:
            move = rng.choice(status["moves"])
            session.handle({"id": 5, "cmd": "apply", "action": move["action"]})
    assert asked > players


def test_annotations_come_from_any_web_module_that_defines_annotate(monkeypatch):
    """Nothing about a game in the session: give a web module another
    annotate (or one, if it has none) and its state replies carry it, per
    seat; take it away and they leave the key out."""
    from importlib import import_module

    name = next(g.name for g in games() if g.web)
    module = import_module(solvers.registry.game_info(name).web)
    monkeypatch.setattr(module, "annotate", lambda state, seat: {"seat": seat, "ply": len(state.history)},
                        raising=False)
    session = Session()
    session.handle({"id": 1, "cmd": "new", "game": name, "seed": 1})
    reply = checked(session.handle({"id": 2, "cmd": "state", "seat": 0}))["result"]
    assert reply["annotations"] == {"seat": 0, "ply": len(session.state.history)}
    monkeypatch.delattr(module, "annotate")
    assert "annotations" not in checked(session.handle({"id": 3, "cmd": "state", "seat": 0}))["result"]


# ------------------------------------------------------------------ command line
def test_serve_binds_loopback_by_default(web_server):
    assert web_server.startswith("http://127.0.0.1:")
    port = int(web_server.rsplit(":", 1)[1])
    if not os.path.exists("/proc/net/tcp"):        # not Linux: the printed address must do
        return
    listening = []
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            if state == "0A" and int(local.split(":")[1], 16) == port:
                listening.append(local.split(":")[0])
    assert listening == ["0100007F"]          # 127.0.0.1, nothing else


def test_serve_without_the_web_extra_says_what_to_install():
    code = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None\n"
            "from solvers.cli.main import main; sys.exit(main(['serve']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.strip().splitlines() == ['solve: error: solve serve needs starlette: pip install "solvers[web]"']


def test_serve_refuses_a_port_in_use(web_server):
    port = web_server.rsplit(":", 1)[1]
    r = subprocess.run([sys.executable, "-m", "solvers.cli.main", "serve", "--port", port],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and f"cannot listen on 127.0.0.1:{port}" in r.stderr
