"""The Analysis page of ``solve serve`` (issue 28) in a real headless
Chromium, its server routes, and the engine's ``record`` request.

For every game with a browser drawing: a saved game (a record made here
with :mod:`solvers.record`) opens from an uploaded file, the chart has one
point per move once reviewed, and stepping through it changes the board.
A bad upload gives one readable line on the page; the routes refuse bad
and oversized records with a 4xx and one line. Hidden information: twin
games (tests/seat_twins.py) give the same ``record`` reply in seat mode and
the same frames, while their referee records differ (the control)."""

from __future__ import annotations

import importlib.util
import json
import random
import urllib.error
import urllib.request

import pytest
from web_helpers import open_play, settled, start_game, wait

import solvers
from seat_twins import twin_positions
from solvers.engine import Session
from solvers.registry import games

WEB_GAMES = [g.name for g in games() if g.web]
HAS_REVIEW = importlib.util.find_spec("solvers.review") is not None
REVIEW_ITERATIONS = 2           # the review's budget a move in these tests: tiny
STEPS = 40                      # the saved games: their first 40 steps (a game saved before its end)


# ------------------------------------------------------------------ records
def played_actions(game, seed: int, limit: int | None = None) -> list[int]:
    """The actions of a game played at random (chance as seeded)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    actions = []
    while not state.is_terminal() and (limit is None or len(actions) < limit):
        action = state.seeded_outcome() if state.is_chance_node() else rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    return actions


def make_record(name: str, seat: int | None = 0, seed: int = 3, limit: int | None = None) -> dict:
    from solvers.record import record_game

    info = solvers.registry.game_info(name)
    players = 2 if info.max_players >= 2 else 1
    game = solvers.load_game(name, players=players)
    actions = played_actions(game, seed, limit)
    return record_game(game, actions, seat=seat, names=[f"P{s}" for s in range(players)], seed=seed)


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, tuple[dict, str]]:
    """A game of each drawn game, its first STEPS steps, seat 0's record: (record, file)."""
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for name in WEB_GAMES:
        record = make_record(name, limit=STEPS)
        path = folder / f"{name}.json"
        path.write_text(json.dumps(record))
        out[name] = (record, str(path))
    return out


def fake_review(record: dict) -> dict:
    """A review of the documented shape (for a server without solvers.review):
    one point per step, the values a known ramp, one blunder."""
    n = len(record["steps"])
    points = [{"value": i / max(1, n - 1), "grade": None, "best": None, "best_value": None,
               "played_value": None, "loss": None} for i in range(n)]
    decision = next(i for i, s in enumerate(record["steps"]) if s["mover"] == record["seat"])
    points[decision].update(grade="blunder", best="a better move", best_value=0.9, played_value=0.2,
                            loss=0.7)
    return {"points": points}


# ------------------------------------------------------------------ the page
def open_analysis(driver, url: str, path: str) -> None:
    driver.get(f"{url}/analysis")
    wait(driver, "window.solversAnalysis !== undefined", what="the page")
    before = driver.execute_script("return window.solversAnalysis.draws")
    driver.find_element("id", "record-file").send_keys(path)
    wait(driver, f"window.solversAnalysis.draws > {before} && document.body.dataset.loaded === 'yes'",
         what="the record to open")


def review_on_page(driver, record: dict) -> None:
    """Review the game on the page (the real job), or show a fake review."""
    if HAS_REVIEW:
        driver.execute_script("document.getElementById('review-iterations').value = arguments[0]",
                              REVIEW_ITERATIONS)
        driver.find_element("id", "review-start").click()
        wait(driver, "window.solversAnalysis.state.points !== null", timeout=120, what="the review")
    else:
        driver.execute_script("window.solversAnalysis.showReview(arguments[0])", fake_review(record))


BOARD = "return document.getElementById('board').innerHTML"
AT = "return window.solversAnalysis.state.at"


@pytest.mark.parametrize("game", WEB_GAMES)
def test_chart_has_one_point_per_move_and_stepping_changes_the_board(
        chromium, web_server, screenshots, records, game):
    record, path = records[game]
    n = len(record["steps"])
    open_analysis(chromium, web_server, path)
    assert chromium.execute_script(AT) == 0
    assert len(chromium.find_elements("css selector", "#move-list li")) == n
    review_on_page(chromium, record)
    points = chromium.find_elements("css selector", "#eval-chart circle.point")
    assert len(points) == n
    assert [int(p.get_attribute("data-step")) for p in points] == list(range(n))
    # Each point is the review's value after that move (None where the review
    # could not judge it: a step the record cannot rebuild for its seat).
    review = chromium.execute_script("return window.solversAnalysis.state.review")
    expected = [p["value"] for p in review["points"]]
    values = chromium.execute_script("return window.solversAnalysis.state.points.map((p) => p.value)")
    assert values == expected
    unknown = chromium.find_elements("css selector", "#eval-chart circle.unknown")
    assert len(unknown) == sum(v is None for v in expected)
    assert sum(v is not None for v in expected) > 0
    if game == "switchbacks":           # its records hold every position
        assert sum(v is None for v in expected) <= 10
    # Stepping: the arrow keys and the buttons move one step; the board changes.
    start = chromium.execute_script(BOARD)
    body = chromium.find_element("css selector", "body")
    boards = {start}
    for k in range(1, min(n, 5) + 1):
        body.send_keys("\ue014")                         # the right arrow
        assert chromium.execute_script(AT) == k
        boards.add(chromium.execute_script(BOARD))
    assert len(boards) > 1, "stepping through the game never changed the board"
    chromium.find_element("id", "prev").click()
    assert chromium.execute_script(AT) == min(n, 5) - 1
    chromium.find_element("id", "last").click()
    assert chromium.execute_script(AT) == n
    assert chromium.execute_script(BOARD) != start
    # A click on a chart point goes to the position after that move.
    chromium.execute_script("document.querySelector('#eval-chart circle.point[data-step=\"2\"]')"
                            ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
    assert chromium.execute_script(AT) == 3
    assert "3." in chromium.find_element("id", "move-detail").text
    chromium.save_screenshot(str(screenshots / f"analysis-{game}.png"))


def test_costliest_moves_are_listed_with_the_preferred_move(chromium, web_server, records):
    record, path = records["c2c"]
    open_analysis(chromium, web_server, path)
    review = fake_review(record)
    chromium.execute_script("window.solversAnalysis.showReview(arguments[0])", review)
    marked = [i for i, p in enumerate(review["points"]) if p["grade"]]
    items = chromium.find_elements("css selector", "#costly li[data-step]")
    assert [int(li.get_attribute("data-step")) for li in items] == marked
    assert "blunder" in items[0].text and "a better move" in items[0].text
    items[0].click()
    assert chromium.execute_script(AT) == marked[0] + 1
    dot = chromium.find_element("css selector", f"#eval-chart circle[data-step=\"{marked[0]}\"]")
    assert dot.get_attribute("data-grade") == "blunder"
    assert "??" in chromium.find_element("css selector", f"#move-list li[data-step=\"{marked[0]}\"]").text


def error_line(driver) -> str:
    return wait(driver, "document.getElementById('error').textContent", what="an error line")


def test_a_bad_upload_gives_one_readable_line(chromium, web_server, tmp_path, records):
    not_json = tmp_path / "notes.json"
    not_json.write_text("this is not { JSON")
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"format": "solvers-record", "version": 1, "game": "c2c",
                                 "players": 1, "steps": "none", "final": {}}))
    for path, words in ((not_json, "notes.json is not a saved game"), (wrong, "'steps'")):
        chromium.get(f"{web_server}/analysis")
        wait(chromium, "window.solversAnalysis !== undefined")
        chromium.find_element("id", "record-file").send_keys(str(path))
        text = error_line(chromium)
        assert words in text and "\n" not in text and len(text) < 300, text
        assert "Traceback" not in text
        assert chromium.execute_script("return document.body.dataset.loaded") == "no"


def test_the_play_page_saves_and_analyses_its_game(chromium, web_server):
    open_play(chromium, web_server, "c2c")
    start_game(chromium, "c2c", 2, ["human", "ai"], seed=6, budget=("iterations", 10))
    for _ in range(3):
        settled(chromium)
        ply = chromium.execute_script("return window.solversPlay.state.status.ply")
        chromium.find_element("css selector", "#moves [data-action]").click()
        wait(chromium, f"window.solversPlay.state.status.ply > {ply}")
    settled(chromium)
    chromium.find_element("id", "save-game").click()
    saved = wait(chromium, "window.solversPlayExtra.lastRecord")
    assert saved["format"] == "solvers-record" and saved["seat"] == 0
    assert len(saved["steps"]) == chromium.execute_script("return window.solversPlay.state.status.ply")
    first = chromium.current_window_handle
    chromium.find_element("id", "analyse-game").click()
    wait(chromium, "true")
    for _ in range(100):
        if len(chromium.window_handles) > 1:
            break
        chromium.implicitly_wait(0.05)
    other = [h for h in chromium.window_handles if h != first][0]
    chromium.switch_to.window(other)
    try:
        wait(chromium, "document.body && document.body.dataset.loaded === 'yes'", what="the analysis")
        assert len(chromium.find_elements("css selector", "#move-list li")) == len(saved["steps"])
        assert chromium.execute_script("return window.solversAnalysis.state.data.seat") == 0
    finally:
        chromium.close()
        chromium.switch_to.window(first)


# ------------------------------------------------------------------ the routes
def post(url: str, body: bytes | dict, origin: str | None = None) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if origin:
        headers["Origin"] = origin
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_routes_refuse_bad_and_oversized_records_with_one_line(web_server, records):
    from solvers.web.analysis import MAX_ITERATIONS, MAX_STEPS

    record = records["switchbacks"][0]
    frames = web_server + "/analysis/frames"
    review = web_server + "/analysis/review"
    tiny = {"mover": "chance", "move": "x", "action": 0, "position": None}
    many = {**record, "steps": [tiny] * (MAX_STEPS + 1)}
    path_option = {**record, "options": {"map": "/etc/passwd"}}
    cases = [
        (frames, b"{not json", 400, "not valid JSON"),
        (frames, b" " * (2 << 20), 413, "too long"),
        (frames, {"record": many}, 400, f"at most {MAX_STEPS}"),
        (frames, {"record": [1, 2]}, 400, '{"record"'),
        (frames, {"record": {**record, "version": 9}}, 400, "version"),
        (frames, {"record": {**record, "game": "chess"}}, 400, "chess"),
        (frames, {"record": path_option}, 400, "reads no files"),
        (frames, {"record": record, "seat": 1}, 400, "seat 0's"),
        (frames, {"record": record, "extra": 1}, 400, "extra"),
        (review, {"record": record, "iterations": MAX_ITERATIONS + 1}, 400, "iterations"),
        (review, {"record": record, "time": 60}, 400, "time"),
        (review, {"record": record, "seed": -1}, 400, "seed"),
        (review, {"record": {"format": "solvers-record"}}, 400, "version"),
    ]
    for url, body, status, words in cases:
        got, reply = post(url, body)
        assert got == status, (words, got, reply)
        assert set(reply) == {"error"} and "\n" not in reply["error"], reply
        assert words in reply["error"], (words, reply)
    got, reply = post(frames, {"record": record}, origin="https://evil.example")
    assert got == 403 and "own pages" in reply["error"]
    got, reply = post(web_server + "/analysis/review/999/cancel", {})
    assert got == 404


FRAME_GAMES = WEB_GAMES


@pytest.mark.parametrize("game", FRAME_GAMES)
def test_frames_show_the_seat_its_own_view_at_every_step(web_server, records, game):
    """Each frame the record holds is the seat's information state in the
    game that was played (replayed here in full, an independent answer); a
    frame rebuilt with stand-ins (the record holds no position there) says
    so. Switchbacks' records hold every position, so all its frames match."""
    record = records[game][0]
    got, reply = post(web_server + "/analysis/frames", {"record": record})
    assert got == 200, reply
    assert len(reply["frames"]) == len(record["steps"]) + 1
    assert [m["move"] for m in reply["moves"]] == [s["move"] for s in record["steps"]]
    info = solvers.registry.game_info(game)
    full = solvers.load_game(game, players=record["players"]).new_initial_state(seed=3)
    actions = played_actions(full.game, 3)
    drawn = 0
    for i, frame in enumerate(reply["frames"]):
        if frame["status"] is not None:
            drawn += 1
            if not frame.get("rebuilt") or game == "switchbacks":
                assert frame["view"] == json.loads(json.dumps(full.information_state(0))), i
            assert frame["status"]["ply"] == i
        if i < len(actions):
            full.apply_action(actions[i])
    assert drawn >= len(reply["frames"]) // 3, f"{info.title}: only {drawn} frames drawn"


@pytest.mark.skipif(not HAS_REVIEW, reason="no solvers.review yet")
def test_a_review_job_reports_progress_and_can_be_cancelled(web_server, records):
    import time

    record = records["switchbacks"][0]
    got, reply = post(web_server + "/analysis/review", {"record": record, "iterations": 3000})
    assert got == 200, reply
    tid = reply["task"]
    deadline = time.time() + 30
    while time.time() < deadline:
        with urllib.request.urlopen(f"{web_server}/api/tasks/{tid}") as r:
            status = json.loads(r.read())
        if status["progress"][0] > 0:
            break
        time.sleep(0.05)
    assert not status["done"] and status["progress"][1] == len(record["steps"]), status
    got, cancelled = post(f"{web_server}/analysis/review/{tid}/cancel", {})
    assert got == 200 and cancelled == {"cancelled": True}
    deadline = time.time() + 30
    while time.time() < deadline:
        with urllib.request.urlopen(f"{web_server}/api/tasks/{tid}") as r:
            status = json.loads(r.read())
        if status["done"]:
            break
        time.sleep(0.1)
    assert status["done"] and status["error"] == "review cancelled", status


# ------------------------------------------------------------------ hidden information
TWIN_GAMES = ["c2c", "switchbacks", "bigsur", "santacruz"]


@pytest.mark.parametrize("game", TWIN_GAMES)
def test_twins_give_the_same_record_in_seat_mode(game):
    a, b, differ = twin_positions(game, 2)
    replies = []
    for position in (a, b):
        session = Session()
        assert "result" in session.handle({"cmd": "position", "position": position, "seats": [0]})
        replies.append(json.dumps(session.handle({"id": 1, "cmd": "record"})))
        refused = session.handle({"id": 2, "cmd": "record", "seat": 1})
        assert refused["error"]["code"] == "hidden"
    assert replies[0] == replies[1]
    assert json.dumps(differ) not in replies[0]
    record = json.loads(replies[0])["result"]["record"]
    assert record["seat"] == 0 and len(record["steps"]) == len(a["moves"])
    # The control: the referee's records of the twins differ.
    referee = []
    for position in (a, b):
        session = Session()
        session.handle({"cmd": "position", "position": position})
        referee.append(json.dumps(session.handle({"id": 1, "cmd": "record"})))
    assert referee[0] != referee[1]
    assert json.dumps(differ) in referee[0]


@pytest.mark.parametrize("game", TWIN_GAMES)
def test_twins_give_the_same_frames(web_server, game):
    a, b, differ = twin_positions(game, 2)
    seat_frames, referee_frames = [], []
    for position in (a, b):
        session = Session()
        session.handle({"cmd": "position", "position": position})
        seat_record = session.handle({"cmd": "record", "seat": 0})["result"]["record"]
        referee_record = session.handle({"cmd": "record"})["result"]["record"]
        got, reply = post(web_server + "/analysis/frames", {"record": seat_record})
        assert got == 200, reply
        seat_frames.append(json.dumps(reply))
        got, reply = post(web_server + "/analysis/frames", {"record": referee_record, "seat": 1})
        assert got == 200, reply
        referee_frames.append(json.dumps(reply))
    assert seat_frames[0] == seat_frames[1]
    assert json.dumps(differ) not in seat_frames[0]
    assert referee_frames[0] != referee_frames[1]        # the control: seat 1 sees the difference


STEP_ALL = """
const text = () => ['board', 'status', 'move-list', 'eval-chart', 'costly', 'move-detail']
  .map((id) => document.getElementById(id).innerHTML).join('|');
document.getElementById('first').click();
const pages = [text()];
for (let i = 0; i < arguments[0]; i++) {
  document.getElementById('next').click();
  pages.push(text());
}
return pages;
"""


@pytest.mark.parametrize("game", ["c2c", "santacruz"])
def test_the_page_shows_twins_alike(chromium, web_server, tmp_path, game):
    """Seat 0's records of twin games, opened and reviewed on the page: every
    step looks the same; the referee's records (the control) do not."""
    a, b, differ = twin_positions(game, 2)
    shown = {}
    for kind in ("seat", "referee"):
        for name, position in (("a", a), ("b", b)):
            session = Session()
            session.handle({"cmd": "position", "position": position})
            fields = {"seat": 0} if kind == "seat" else {}
            record = session.handle({"cmd": "record", **fields})["result"]["record"]
            path = tmp_path / f"{kind}-{name}.json"
            path.write_text(json.dumps(record))
            open_analysis(chromium, web_server, str(path))
            if kind == "seat":
                review_on_page(chromium, record)
            # Every step, stepped through on the page (the Next button's own code).
            shown[kind, name] = chromium.execute_script(STEP_ALL, len(record["steps"]))
    assert shown["seat", "a"] == shown["seat", "b"]
    assert differ not in json.dumps(shown["seat", "a"])
    assert shown["referee", "a"] != shown["referee", "b"]
