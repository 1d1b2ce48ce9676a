"""What ``solve serve`` accepts and refuses, tried as a hostile web page
would (issue 27, section 2): a foreign ``Host`` (DNS rebinding), server file
paths in any option, searches that outlive their socket or crowd the
server, HTML built from data strings, and the headers of every response.

Each test here failed on the code before the fix (4739c70): foreign Hosts
were served, paths were read (a copy of the built-in map by its path gave
200), the endgame search ran on after its socket closed, every ``go`` of a
burst ran at once, the headers were absent and the status line was HTML.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from web_helpers import open_play, search_threads, serve_in_thread, settled, start_game
from websockets.sync.client import connect

import solvers
from solvers.data import builtin_json
from solvers.registry import game_info, games, load_object

# The options that name a data file (test_the_registry_marks_every_data_file checks the list).
FILE_OPTIONS = [("bigsur", "cards"), ("c2c", "map"), ("santacruz", "board"), ("switchbacks", "map")]
BUILTIN = {"c2c": "coast_to_coast.json", "switchbacks": "switchbacks.json",
           "bigsur": "big_sur.json", "santacruz": "santa_cruz.json"}
EVIL = '<img src=x onerror="window.__xss = 1">'


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def request(url: str, path: str, method: str = "GET", headers: dict | None = None,
            body: bytes | None = None) -> tuple[int, dict[str, str], str]:
    """One HTTP request to the server with the given headers (Host included)."""
    conn = http.client.HTTPConnection("127.0.0.1", port_of(url), timeout=20)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


def handshake(url: str, host: str, origin: str) -> int:
    """The HTTP status a WebSocket handshake to /ws gets (101: accepted)."""
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=20) as s:
        s.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                   "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                   f"Sec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n").encode())
        head = b""
        while b"\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    return int(head.split(b"\r\n")[0].split()[1])


class Socket:
    def __init__(self, url: str):
        self.ws = connect(url.replace("http://", "ws://") + "/ws", max_size=None).__enter__()

    def ask(self, message: dict, timeout: float = 30) -> dict:
        self.ws.send(json.dumps(message))
        return json.loads(self.ws.recv(timeout))

    def close(self) -> None:
        self.ws.close()


# ------------------------------------------------------------------ Host
def test_a_foreign_host_is_refused_over_http_and_the_socket(web_server):
    """DNS rebinding: a page of evil.example whose name now points at
    127.0.0.1 sends its own name as the Host (and as the Origin)."""
    port = port_of(web_server)
    evil = f"evil.example:{port}"
    origin = f"http://{evil}"
    foreign = {"Host": evil, "Origin": origin}
    for path in ("/", "/api/games", "/api/games/c2c/board?players=1", "/static/play.js"):
        status, _, body = request(web_server, path, headers=foreign)
        assert status == 403, (path, status)
        assert "Host" in json.loads(body)["error"]
    status, _, _ = request(web_server, "/api/games/c2c/tasks/solve", "POST", foreign, b'{"seed": 1}')
    assert status == 403
    assert handshake(web_server, evil, origin) == 403
    # The server's own names are served, with their own Origin.
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"127.0.0.2:{port}"):
        assert request(web_server, "/api/games", headers={"Host": host})[0] == 200, host
        assert handshake(web_server, host, f"http://{host}") == 101, host


def test_which_hosts_are_allowed():
    from solvers.web.app import HostCheck

    loop = HostCheck(("127.0.0.1",), 8000)
    assert all(loop.allows(h) for h in ("127.0.0.1:8000", "127.9.9.9:1", "localhost", "LOCALHOST:8000",
                                         "[::1]:8000"))
    assert not any(loop.allows(h) for h in (None, "", "evil.example:8000", "evil.example",
                                             "localhost.evil.example:8000", "127.0.0.1.nip.io:8000",
                                             "10.0.0.1:8000", "[::1", "127.0.0.1:80:80"))
    lan = HostCheck(("myhost.lan", "192.168.1.5"), 8000)
    assert lan.allows("myhost.lan:8000") and lan.allows("192.168.1.5:8000")
    assert not lan.allows("myhost.lan:8001") and not lan.allows("other.lan:8000")
    anywhere = HostCheck(("0.0.0.0",), 8000)
    assert anywhere.allows("192.168.1.5:8000") and not anywhere.allows("evil.example:8000")


# ------------------------------------------------------------------ no server paths
def test_the_registry_marks_every_data_file():
    marked = sorted((g.name, o.name) for g in games() for o in g.options if o.names_a_file)
    assert marked == FILE_OPTIONS
    # ... and says so to the pages, which offer an upload for each.
    from solvers.web import game_list

    listed = sorted((g["name"], o["name"]) for g in game_list() for o in g["options"] if o["file"])
    assert listed == FILE_OPTIONS


def test_the_web_api_reads_no_file_a_request_names(web_server, tmp_path):
    """Every path gets the same one-line refusal at once, whether the file
    exists, is readable, is a device or blocks: the server reads none."""
    copies = {}
    for game, file in BUILTIN.items():      # valid files: the old server drew them (200)
        copies[game] = tmp_path / file
        copies[game].write_text(json.dumps(builtin_json(file)))
    # The devices last: the old server read /dev/zero until it ran out of memory.
    devices = ["/nonexistent", "/etc/shadow", "/dev/zero", "/dev/stdin"]
    copy = copies["santacruz"]
    for game, option in FILE_OPTIONS:
        paths = [str(copies[game])] + devices
        players = game_info(game).default_players
        answers = set()
        for path in paths:
            start = time.perf_counter()
            status, _, body = request(web_server, f"/api/games/{game}/board?players={players}&"
                                      + urllib.parse.urlencode({option: path}))
            assert time.perf_counter() - start < 5
            assert status == 400, (game, path, body)
            answers.add(body)
        assert len(answers) == 1, answers          # nothing tells whether a file exists
        assert "reads no files" in answers.pop()
    sock = Socket(web_server)
    try:
        for game, option in FILE_OPTIONS:
            messages = set()
            for path in [str(copies[game])] + devices:
                reply = sock.ask({"id": 1, "cmd": "new", "game": game, "options": {option: path}})
                assert reply["error"]["code"] == "invalid_option", reply
                messages.add(reply["error"]["message"])
                reply = sock.ask({"id": 2, "cmd": "position", "position": {
                    "game": game, "options": {option: path}, "moves": []}})
                assert reply["error"]["code"] == "invalid_position", reply
                messages.add(reply["error"]["message"])
            assert len(messages) == 1 and "reads no files" in messages.pop()
        # Santa Cruz's own position format names its island file: refused too.
        reply = sock.ask({"id": 3, "cmd": "position", "position": {
            "game": "santacruz", "start": {"players": 2, "seed": 1, "board": str(copy), "moves": []},
            "moves": []}})
        assert reply["error"]["code"] == "invalid_position" and "reads no files" in reply["error"]["message"]
        assert sock.ask({"id": 4, "cmd": "new", "game": "c2c"})["result"]["phase"] == "chance"
    finally:
        sock.close()
    # The task API: a job's body names no file either.
    status, _, body = request(web_server, "/api/games/c2c/tasks/solve", "POST", {},
                              json.dumps({"seed": 1, "map": str(copies["c2c"])}).encode())
    assert status == 400 and "reads no files" in json.loads(body)["error"]


def renamed_map(old: str, new: str) -> dict:
    """The built-in Coast to Coast map with one location renamed everywhere."""
    def walk(x):
        if isinstance(x, dict):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return new if x == old else x
    return walk(builtin_json("coast_to_coast.json"))


@pytest.mark.parametrize("game,option", FILE_OPTIONS)
def test_a_data_file_is_uploaded_as_its_content(web_server, game, option):
    """The content (the JSON object) gives the same board as the built-in
    file, over POST and the socket, and survives a position round trip."""
    content = builtin_json(BUILTIN[game])
    info = game_info(game)
    body = json.dumps({"players": info.default_players, "options": {option: content}}).encode()
    status, headers, text = request(web_server, f"/api/games/{game}/board", "POST",
                                    {"Content-Type": "application/json"}, body)
    assert status == 200, text
    expected = json.loads(json.dumps(
        load_object(info.web).board(solvers.load_game(game, info.default_players))))
    got = json.loads(text)
    if game == "santacruz":           # where the island came from
        assert (got.pop("island"), expected.pop("island")) == ("<content>", "built-in")
    assert got == expected
    sock = Socket(web_server)
    try:
        reply = sock.ask({"id": 1, "cmd": "new", "game": game, "seed": 5, "options": {option: content}})
        assert reply["result"]["phase"] == "chance", reply
        sock.ask({"id": 2, "cmd": "deal"})
        saved = sock.ask({"id": 3, "cmd": "position"})["result"]["position"]
        assert saved["options"] == {option: content}
        again = sock.ask({"id": 4, "cmd": "position", "position": saved})
        assert again["result"]["ply"] == len(saved["moves"]) > 0
        bad = sock.ask({"id": 5, "cmd": "new", "game": game, "options": {option: {"schema": 1}}})
        assert bad["error"]["code"] == "invalid_option" and "<content>" in bad["error"]["message"]
        listed = sock.ask({"id": 6, "cmd": "new", "game": game, "options": {option: [1, 2]}})
        assert "a JSON object" in listed["error"]["message"]
    finally:
        sock.close()


def test_an_upload_is_size_limited(web_server):
    from solvers.web.app import MAX_UPLOAD

    big = renamed_map("Hollywood", "Hollywood")
    big["about"] = "x" * MAX_UPLOAD
    body = json.dumps({"players": 1, "options": {"map": big}}).encode()
    status, _, text = request(web_server, "/api/games/c2c/board", "POST", {}, body)
    assert status == 400 and "larger than" in json.loads(text)["error"]
    sock = Socket(web_server)
    try:
        reply = sock.ask({"id": 1, "cmd": "new", "game": "c2c", "options": {"map": big}})
        assert reply["error"]["code"] == "invalid_option" and "larger than" in reply["error"]["message"]
    finally:
        sock.close()
    status, _, _ = request(web_server, "/api/games/c2c/board", "POST", {"Origin": "https://example.com"},
                           json.dumps({"players": 1}).encode())
    assert status == 403


def test_the_engine_on_stdin_still_takes_paths_and_content(tmp_path):
    """``solve engine`` is the user's own process: a path is theirs to give."""
    from solvers.engine import Session

    path = tmp_path / "map.json"
    path.write_text(json.dumps(renamed_map("Hollywood", "Tinseltown")))
    session = Session()
    assert session.handle({"id": 1, "cmd": "new", "game": "c2c",
                           "options": {"map": str(path), "challenge": "Tinseltown"}})["result"]
    assert session.game.map.location("Tinseltown")
    content = renamed_map("Hollywood", "Tinseltown")
    assert session.handle({"id": 2, "cmd": "new", "game": "c2c", "options": {"map": content}})["result"]
    assert session.game.map.location("Tinseltown")


# ------------------------------------------------------------------ headers
def test_every_response_carries_the_security_headers(web_server):
    port = port_of(web_server)
    paths = ["/", "/play", "/solve", "/atlas", "/static/play.js", "/static/style.css",
             "/games/c2c/board.js", "/api/games", "/api/games/c2c/board?players=1",
             "/api/games/nosuch/board", "/nothing-here", "/api/tasks/999"]
    for path in paths:
        for host in (f"127.0.0.1:{port}", f"evil.example:{port}"):     # the 403 too
            status, headers, _ = request(web_server, path, headers={"Host": host})
            csp = headers.get("content-security-policy", "")
            directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
            assert directives.get("script-src") == ["'self'"], (path, csp)
            assert directives.get("frame-ancestors") == ["'none'"], (path, csp)
            assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
            assert headers.get("x-content-type-options") == "nosniff", path


def test_pages_hold_no_inline_script_or_style(web_server):
    import re

    for path in ("/", "/solve", "/atlas"):
        html = request(web_server, path)[2]
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (path, tag)
        assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), path
        assert not re.search(r"\son[a-z]+\s*=", html), path
        assert " style=" not in html and "<style" not in html, path


def test_no_page_script_builds_html_from_strings():
    root = Path(solvers.__file__).parent
    scripts = list((root / "web" / "static").glob("*.js")) + list((root / "games").glob("*/board.js"))
    assert len(scripts) > 6
    for script in scripts:
        text = script.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, (script.name, sink)


def test_a_location_named_with_html_shows_as_text(chromium, web_server, tmp_path):
    """A custom map uploaded on the Play page whose challenge location's
    name is HTML: the status line shows the name, runs nothing."""
    m = renamed_map("Hollywood", EVIL)
    path = tmp_path / "evil-map.json"
    path.write_text(json.dumps(m))
    challenge = [loc["name"] for loc in m["locations"]].index(EVIL)
    open_play(chromium, web_server, "c2c")
    assert chromium.find_element("id", "opt-map").get_attribute("type") == "file"
    start_game(chromium, "c2c", 1, ["human"], seed=3, budget=("iterations", 50),
               options={"map": path, "challenge": challenge})
    settled(chromium)
    status = chromium.execute_script("return document.getElementById('status').textContent")
    assert f"challenge {EVIL}" in status, status
    assert chromium.execute_script("return document.querySelectorAll('#status img, #status *[onerror]').length") == 0
    time.sleep(0.2)
    assert chromium.execute_script("return window.__xss === undefined")
    assert chromium.execute_script("return document.querySelectorAll('#board img').length") == 0


# ------------------------------------------------------------------ searches end
def _started_endgame(sock: Socket) -> None:
    """A solo Coast to Coast game at its first decision, with an exact
    endgame search of 64 determinisations running (minutes of work)."""
    sock.ask({"id": 1, "cmd": "new", "game": "c2c", "seed": 1})
    sock.ask({"id": 2, "cmd": "deal"})
    sock.ws.send(json.dumps({"id": 3, "cmd": "go", "agent": "endgame", "options": {"samples": 64}}))


def _wait_threads(target: int, seconds: float) -> int:
    deadline = time.time() + seconds
    while search_threads() != target and time.time() < deadline:
        time.sleep(0.02)
    return search_threads()


STOP_CASES = [
    ("endgame", {"samples": 64}, "c2c", 1),
    ("endgame", {"samples": 64, "backend": "python"}, "c2c", 1),
    ("pimc", {"samples": 200_000, "refine": 0}, "c2c", 1),
    ("mcts", {"iterations": 10**9, "endgame_plies": 200, "endgame_nodes": 10**9}, "c2c", 1),
    ("mcts", {"iterations": 10**9}, "switchbacks", 2),
    ("openspiel", {"simulations": 10**8}, "c2c", 2),
]


@pytest.mark.parametrize("kind,options,game,players", STOP_CASES)
def test_every_search_agent_stops_from_another_thread(kind, options, game, players):
    """Each of these analyses would run for minutes; a stop ends it within
    a second with a ranking of every legal move."""
    from solvers.agents import agent_names, load_agent

    if kind not in agent_names():
        pytest.skip(f"the {kind} agent's extra is not installed")
    state = solvers.load_game(game, players).new_initial_state(seed=4)
    state.apply_seeded_chance()
    agent = load_agent(kind, state.game, seed=1, **options)
    assert agent.stoppable
    out: list = []
    worker = threading.Thread(target=lambda: out.append(agent.analyse(state)), daemon=True)
    worker.start()
    time.sleep(0.3)
    assert worker.is_alive(), "the search ended before the stop: make it longer"
    start = time.perf_counter()
    agent.stop()
    worker.join(5)
    assert not worker.is_alive() and time.perf_counter() - start < 2
    assert sorted(r["action"] for r in out[0]) == sorted(state.legal_actions())


@pytest.mark.parametrize("backend", ["c", "python"])
def test_a_stop_before_the_first_sample_gives_an_empty_stopped_result(backend):
    from solvers._core.toygames import TicTacToe
    from solvers.search.endgame import expected_endgame

    state = TicTacToe().new_initial_state()
    state.apply_action(4)
    full = expected_endgame(state, samples=3, seed=2, backend=backend)
    assert not full.stopped and full.samples == 3 and full.action is not None
    seen = []
    none = expected_endgame(state, samples=3, seed=2, backend=backend,
                            track=lambda solver: (seen.append(solver), solver.stop()))
    assert none.stopped and none.samples == 0 and none.action is None and none.action_values == []
    assert len(seen) == 1


def test_the_endgame_search_ends_on_stop_and_when_its_socket_closes():
    with serve_in_thread() as url:
        before = search_threads()
        sock = Socket(url)
        _started_endgame(sock)
        assert _wait_threads(before + 1, 10) == before + 1
        time.sleep(0.3)
        start = time.perf_counter()
        sock.ws.send(json.dumps({"id": 4, "cmd": "stop"}))
        go = json.loads(sock.ws.recv(10))
        assert go["id"] == 3 and go["result"]["stopped"] is True, go
        assert time.perf_counter() - start < 2
        assert json.loads(sock.ws.recv(10))["result"] == {"stopped": True, "go": 3}
        assert _wait_threads(before, 5) == before
        # Closing the socket ends it too.
        sock.ws.send(json.dumps({"id": 5, "cmd": "go", "agent": "endgame", "options": {"samples": 64}}))
        assert _wait_threads(before + 1, 10) == before + 1
        time.sleep(0.3)
        sock.close()
        assert _wait_threads(before, 3) == before


def test_stop_ends_an_endgame_search_in_solve_engine():
    proc = subprocess.Popen([sys.executable, "-m", "solvers.cli.main", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        for line in ('{"id": 1, "cmd": "new", "game": "c2c", "seed": 1}', '{"id": 2, "cmd": "deal"}'):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            assert "result" in json.loads(proc.stdout.readline())
        proc.stdin.write('{"id": 3, "cmd": "go", "agent": "endgame", "options": {"samples": 64}}\n')
        proc.stdin.flush()
        time.sleep(1.0)
        start = time.perf_counter()
        proc.stdin.write('{"id": 4, "cmd": "stop"}\n')
        proc.stdin.flush()
        go = json.loads(proc.stdout.readline())
        assert time.perf_counter() - start < 2
        assert go["id"] == 3 and go["result"]["stopped"] is True, go
        assert json.loads(proc.stdout.readline())["result"]["stopped"] is True
    finally:
        proc.kill()
        proc.wait(10)


# ------------------------------------------------------------------ a cap on searches
def test_a_burst_of_searches_runs_a_few_at_a_time_and_refuses_the_rest():
    """One slot and two places in the queue: of ten simultaneous ``go
    time=0.4``, three run one after another and seven are told ``busy``."""
    with serve_in_thread(searches=1) as url:
        socks = [Socket(url) for _ in range(10)]
        try:
            for sock in socks:
                sock.ask({"id": 1, "cmd": "new", "game": "c2c", "seed": 2})
                sock.ask({"id": 2, "cmd": "deal"})
            start = time.perf_counter()
            for sock in socks:
                sock.ws.send(json.dumps({"id": 3, "cmd": "go", "time": 0.4}))
            replies: list = [None] * len(socks)

            def read(k: int) -> None:          # each reply timed as it arrives
                replies[k] = (json.loads(socks[k].ws.recv(30)), time.perf_counter() - start)
            readers = [threading.Thread(target=read, args=(k,)) for k in range(len(socks))]
            for reader in readers:
                reader.start()
            for reader in readers:
                reader.join(30)
            busy = [r for r, _ in replies if "error" in r]
            done = sorted(t for r, t in replies if "result" in r)
            assert all(r["error"]["code"] == "busy" and "busy" in r["error"]["message"] for r in busy)
            assert len(busy) >= 5, replies
            assert 1 <= len(done) <= 5
            # One at a time: each search ran its 0.4 s after the one before.
            assert all(b - a > 0.3 for a, b in zip(done, done[1:])), done
            # A search waiting for the slot ends at once on stop.
            socks[0].ws.send(json.dumps({"id": 4, "cmd": "go", "time": 30}))
            time.sleep(0.2)
            socks[1].ws.send(json.dumps({"id": 4, "cmd": "go", "time": 30}))
            time.sleep(0.2)
            t0 = time.perf_counter()
            socks[1].ws.send(json.dumps({"id": 5, "cmd": "stop"}))
            waiting = json.loads(socks[1].ws.recv(5))
            assert waiting["id"] == 4 and waiting["result"]["stopped"] is True
            assert time.perf_counter() - t0 < 1.5
        finally:
            for sock in socks:
                sock.close()
