"""The Play page's protocol on the raw WebSocket of ``solve serve``: a
seat-mode session never receives a card its seat cannot see.

Twin games (tests/seat_twins.py) give the same socket messages for seat 0,
for every game and 2 to 4 players; and whole games played as the Play page
plays them (the engine deals and plays the AI seats) never carry a move that
seat 0 saw only in part, checked against the game's own record."""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from seat_twins import CASES, normal, run, seat_script, twin_positions
from solvers.engine import Session
from solvers.engine.positions import load_position


class Socket:
    """One engine session over the server's WebSocket: the raw messages."""

    def __init__(self, url: str):
        self.ws = connect(url.replace("http://", "ws://") + "/ws", max_size=None).__enter__()
        self.received: list[str] = []

    def ask(self, request: dict) -> str:
        self.ws.send(json.dumps(request))
        message = self.ws.recv(60)
        self.received.append(message)
        return message

    def close(self) -> None:
        self.ws.close()


@pytest.mark.parametrize("game, players", CASES)
def test_twins_give_the_same_socket_messages(web_server, game, players):
    a, b, differ = twin_positions(game, players)
    requests_a, requests_b, _, hidden = seat_script(Session(), Session(), a, b)
    streams = []
    for requests in (requests_a, requests_b):
        socket = Socket(web_server)
        streams.append(run(socket.ask, requests))
        socket.close()
    assert streams[0] == streams[1]
    assert streams[0] == run(Session().handle, requests_a)     # the engine's own replies
    for text in hidden + [differ]:
        assert json.dumps(text) not in "".join(streams[0])


def play_page_game(ask, game: str, players: int, seed: int) -> list[dict]:
    """A whole game the way the Play page plays it with one human at seat 0:
    seat mode, the engine deals and plays the other seats, the human takes
    the first legal move; the requests sent."""
    sent = []

    def send(request: dict) -> dict:
        sent.append(request)
        return json.loads(ask(request))

    status = send({"id": 1, "cmd": "new", "game": game, "players": players, "seed": seed,
                   "seats": [0]})["result"]
    n = 2
    while status["phase"] != "over":
        if status["phase"] == "chance":
            status = send({"id": n, "cmd": "deal", "view": 0})["result"]
        elif status["to_move"] == 0:
            view = send({"id": n, "cmd": "state", "seat": 0})["result"]
            status = send({"id": n + 1, "cmd": "apply", "action": view["legal"][0]["action"]})["result"]
            n += 1
        else:
            send({"id": n, "cmd": "state", "seat": 0})
            status = send({"id": n + 1, "cmd": "go", "agent": "mcts", "seat": status["to_move"],
                           "iterations": 10, "view": 0})["result"]
            assert status["played"] is True
            n += 1
        n += 1
    send({"id": n, "cmd": "state", "seat": 0})
    return sent


@pytest.mark.parametrize("game, players", [("c2c", 2), ("switchbacks", 3), ("bigsur", 2),
                                           ("santacruz", 4)])
def test_a_played_game_never_shows_seat_0_a_hidden_move(web_server, game, players):
    socket = Socket(web_server)
    requests = play_page_game(socket.ask, game, players, seed=7)
    socket.close()
    # The game's own record (the same requests in an engine session) says
    # which moves seat 0 saw only in part.
    session = Session()
    assert run(session.handle, requests) == [normal(m) for m in socket.received]
    _, state, _ = load_position({"game": game, "players": players, "seed": 7, "moves": []})
    hidden, whole = [], set()
    for text in session.moves:
        action = state.string_to_action(text)
        (whole.add if state.observed_move(action, 0) == text else hidden.append)(text)
        state.apply_action(action)
    # A hidden move may share its words with one seat 0 may read (Coast to
    # Coast: two seats cross off the same public card): those cannot tell.
    for message in socket.received:
        whole.update(m["move"] for m in json.loads(message).get("result", {}).get("legal", []))
    hidden = [text for text in hidden if text not in whole]
    assert session.state.is_terminal() and len(hidden) >= 5, hidden
    messages = "".join(socket.received)
    leaked = [text for text in hidden if json.dumps(text) in messages]
    assert not leaked, f"seat 0 received {leaked[:3]}"
    # What seat 0 may read of the other seats is there: their hidden moves in part.
    assert "player 1" in messages


# ------------------------------------------------------------------ the page, in Chromium
RECORD = """
window.seatFrames = {sent: [], received: []};
const ws = window.solversPlay.engine.ws;
ws.addEventListener('message', (e) => window.seatFrames.received.push(JSON.parse(e.data)));
const send = ws.send.bind(ws);
ws.send = (data) => { window.seatFrames.sent.push(JSON.parse(data)); send(data); };
"""
# A move by clicking the last button of the list (in Big Sur it ends a turn soonest).
CLICK_LAST = """
const listed = [...document.querySelectorAll('#moves [data-action]')];
const ply = window.solversPlay.state.status.ply;
listed[listed.length - 1].dispatchEvent(new MouseEvent('click', {bubbles: true}));
return ply;
"""


def test_hot_seat_shows_only_the_seat_to_move_after_passing_the_device(chromium, web_server):
    from web_helpers import open_play, start_game, wait

    open_play(chromium, web_server, "bigsur")
    wait(chromium, "window.solversPlay.engine.ws && window.solversPlay.engine.ws.readyState === 1")
    chromium.execute_script(RECORD)
    start_game(chromium, "bigsur", 3, ["human", "ai", "human"], seed=4, budget=("iterations", 10))
    turn = "document.body.dataset.turn"
    for _ in range(200):      # seat 0 plays its turn, the AI seat 1, then the device goes to seat 2
        # (The pass screen comes inside the last human move, which stays busy until the click.)
        now = wait(chromium, f"({turn} === 'pass' || (!window.solversPlay.state.busy && {turn} === 'human'))"
                             f" && {turn}")
        if now == "pass":
            break
        ply = chromium.execute_script(CLICK_LAST)
        wait(chromium, f"window.solversPlay.state.status.ply > {ply}")
    else:
        pytest.fail("the device was never passed")
    frames = chromium.execute_script("return window.seatFrames")
    shown = chromium.execute_script(
        "return {pass: document.getElementById('pass').classList.contains('on'),"
        " who: document.getElementById('pass-who').textContent,"
        " board: document.getElementById('board').childElementCount,"
        " view: window.solversPlay.state.view, moves: document.querySelectorAll('#moves button').length}")
    assert shown == {"pass": True, "who": "Pass the device to Seat 2 (human).", "board": 0, "view": None,
                     "moves": 0}
    new = next(r for r in frames["sent"] if r["cmd"] == "new")
    assert new["seats"] == [0, 2]
    # Nothing of seat 2 was asked for before the device was passed.
    assert {r.get("seat") for r in frames["sent"] if r["cmd"] == "state"} == {0}
    chromium.find_element("id", "pass-ready").click()
    wait(chromium, f"{turn} === 'human' && window.solversPlay.state.view !== null")
    assert chromium.execute_script("return window.solversPlay.state.view.player") == 2
    assert chromium.execute_script("return window.solversPlay.state.viewSeat") == 2
    # What the page received: the AI's moves played by the engine, nothing
    # ranked or valued; no card dealt to the AI seat by name.
    frames = chromium.execute_script("return window.seatFrames")
    plays = [r["result"] for r in frames["received"] if r.get("cmd") == "go" and "result" in r]
    assert plays and all(p["played"] and "ranked" not in p and "value" not in p for p in plays)
    text = json.dumps(frames["received"])
    assert "deal a card to player 1" in text
    assert not __import__("re").search(r"(deal \d+ to|draws \d+ )player 1|player 1 draws \d+", text)
