"""The engine protocol's seat mode: a connection that plays given seats gets
only what those seats may see.

The main check, for every game with hidden information and 2 to 4 players:
twin games that differ only in what seat 0 cannot see (tests/seat_twins.py)
give byte-identical reply streams in seat mode, through the Python Session
and through the real ``solve engine`` process, for as long as seat 0 cannot
tell them apart; no reply names a move seat 0 saw only in part. The control:
in referee mode the same sessions' replies differ and name those moves.
Then the rules of the mode one by one: the secret seed, what is refused,
the views of a hot-seat connection, undo."""

from __future__ import annotations

import json
import subprocess

import pytest
from seat_twins import (CASES, normal, referee_requests, referee_run, run, seat_script,
                        twin_positions)
from test_engine import ENGINE_CMD, REQUEST, ROOT, check as checked, err as refused, ok, served_pipe

from solvers.engine import Session


@pytest.fixture(scope="module")
def twins():
    """Per case: the twin positions, the seat-mode requests for each, the
    hidden moves of the stretch, and the string the twins differ in."""
    out = {}
    for game, players in CASES:
        a, b, differ = twin_positions(game, players)
        requests_a, requests_b, replies, hidden = seat_script(Session(), Session(), a, b)
        for reply in replies:
            checked(reply)
        for request in requests_a:
            assert not list(REQUEST.iter_errors(request)), request
        out[game, players] = (requests_a, requests_b, hidden, differ)
    return out


def quoted(text: str) -> str:
    return json.dumps(text)


@pytest.mark.parametrize("game, players", CASES)
def test_twins_give_the_same_replies_in_seat_mode(twins, game, players):
    requests_a, requests_b, hidden, differ = twins[game, players]
    commands = [r["cmd"] for r in requests_a]
    # The stretch is worth checking: the engine played other seats in it
    # and moves went by that seat 0 saw only in part.
    assert commands.count("go") >= 1 and hidden, commands
    lines_a = run(Session().handle, requests_a)
    lines_b = run(Session().handle, requests_b)
    assert lines_a == lines_b
    stream = "\n".join(lines_a)
    for text in hidden + [differ]:
        assert quoted(text) not in stream, f"seat mode shows seat 0 {text!r}"
    # Control: the referee sees the difference, and the hidden moves by name.
    referee_a = referee_run(Session(), referee_requests(requests_a, players))
    referee_b = referee_run(Session(), referee_requests(requests_b, players))
    assert referee_a != referee_b
    assert all(quoted(text) in "\n".join(referee_a) for text in hidden + [differ])


class EngineProcess:
    """``solve engine`` as a child process: one request line, one reply line."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, cwd=ROOT)

    def ask(self, request: dict) -> str:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        return line

    def close(self) -> None:
        self.proc.stdin.close()
        assert self.proc.wait(30) == 0


@pytest.fixture(scope="module")
def engines():
    pair = EngineProcess(), EngineProcess()
    yield pair
    for engine in pair:
        engine.close()


@pytest.mark.parametrize("game, players", CASES)
def test_twins_give_byte_identical_lines_from_solve_engine(twins, engines, game, players):
    requests_a, requests_b, hidden, differ = twins[game, players]
    lines_a = [engines[0].ask(r) for r in requests_a]
    lines_b = [engines[1].ask(r) for r in requests_b]
    # Byte for byte, but for the wall time of a hint (seconds).
    assert [normal(x) for x in lines_a] == [normal(x) for x in lines_b]
    # The same lines as the Python session writes.
    assert [normal(x) for x in lines_a] == run(Session().handle, requests_a)
    for text in hidden + [differ]:
        assert quoted(text) not in "".join(lines_a)
    # Control: the same process in referee mode tells the twins apart.
    ref = referee_requests(requests_a, players)[:1] + [{"id": "save", "cmd": "position"}]
    ref_b = referee_requests(requests_b, players)[:1] + [{"id": "save", "cmd": "position"}]
    assert [engines[0].ask(r) for r in ref] != [engines[1].ask(r) for r in ref_b]


# ------------------------------------------------------------------ the rules of the mode
def test_without_a_seed_the_deal_is_secret_and_differs():
    deals = []
    for _ in range(2):
        session = Session()
        ok(session, {"cmd": "new", "game": "switchbacks", "players": 2, "seats": [0]})
        seed = session.setup["seed"]
        replies = [session.handle({"cmd": "deal"}), session.handle({"cmd": "state"}),
                   session.handle({"cmd": "hello"})]
        assert refused(session, {"cmd": "position"}) == "hidden"
        assert str(seed) not in json.dumps(replies)
        deals.append(replies[0]["result"]["moves"])
    assert deals[0] != deals[1]
    # Referee mode keeps its default seed 0, and a given seed deals the same in both modes.
    referee, seat = Session(), Session()
    ok(referee, {"cmd": "new", "game": "switchbacks", "players": 2})
    assert referee.setup["seed"] == 0
    ok(seat, {"cmd": "new", "game": "switchbacks", "players": 2, "seed": 0, "seats": [0]})
    ok(referee, {"cmd": "deal"})
    ok(seat, {"cmd": "deal"})
    assert referee.moves == seat.moves


def test_seat_mode_refuses_what_would_show_other_seats():
    session = Session()
    ok(session, {"cmd": "new", "game": "bigsur", "players": 2, "seed": 5, "seats": [0]})
    assert refused(session, {"cmd": "legal"}) == "hidden"              # the outcomes left
    assert refused(session, {"cmd": "apply", "action": 0}) == "hidden"  # the frontend may not deal
    dealt = ok(session, {"cmd": "deal"})["moves"]
    assert "deal a card to player 1" in dealt and not any("to player 1" in m and "a card" not in m
                                                          for m in dealt)
    assert refused(session, {"cmd": "state", "seat": 1}) == "hidden"
    assert refused(session, {"cmd": "position"}) == "hidden"
    assert refused(session, {"cmd": "deal", "view": 1}) == "bad_request"   # not its seat
    mine = ok(session, {"cmd": "state"})
    assert mine["seat"] == 0 and mine["legal"]
    while session.state.current_player() != 1:
        status = session.status()
        if status["phase"] == "chance":
            ok(session, {"cmd": "deal"})
        else:
            ok(session, {"cmd": "apply", "action": ok(session, {"cmd": "legal"})["moves"][-1]["action"]})
    assert refused(session, {"cmd": "legal"}) == "hidden"
    assert refused(session, {"cmd": "apply", "move": "draw from the deck"}) == "hidden"
    before = len(session.moves)
    played = ok(session, {"cmd": "go", "agent": "greedy"})
    assert played["played"] is True and len(session.moves) == before + 1
    assert set(played) == {"seat", "agent", "played", "move", "stopped", "game", "players", "phase",
                           "to_move", "ply"}
    assert played["ply"] == before + 1
    # Referee mode refuses what belongs to seat mode.
    referee = Session()
    ok(referee, {"cmd": "new", "game": "bigsur", "players": 2})
    assert refused(referee, {"cmd": "deal", "view": 0}) == "bad_request"
    assert refused(referee, {"cmd": "position", "seats": [0]}) == "bad_request"
    for bad in ([], [2], [0, 0], [0, 1, 1], "0", [True]):
        assert refused(referee, {"cmd": "new", "game": "bigsur", "players": 2, "seats": bad}) == "bad_request"


def test_a_hot_seat_connection_chooses_whose_eyes():
    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "players": 3, "seed": 2, "seats": [0, 1]})
    assert refused(session, {"cmd": "deal"}) == "bad_request"         # whose eyes?
    seen = {}
    for view in (0, 1):
        twin = Session()
        ok(twin, {"cmd": "new", "game": "switchbacks", "players": 3, "seed": 2, "seats": [0, 1]})
        seen[view] = ok(twin, {"cmd": "deal", "view": view})["moves"]
    ok(session, {"cmd": "deal", "view": 0})
    referee = session.moves
    for view in (0, 1):
        assert len(seen[view]) == len(referee)
        for full, shown in zip(referee, seen[view]):
            # A tile dealt or set aside for a seat is seen by that seat only.
            hidden = "player" in full and f"player {view}" not in full
            assert (shown != full) == hidden, (view, full, shown)
    assert seen[0] != seen[1]
    assert ok(session, {"cmd": "state", "seat": 1})["seat"] == 1
    assert refused(session, {"cmd": "state", "seat": 2}) == "hidden"
    assert refused(session, {"cmd": "state"}) == "bad_request"         # which of its seats?


def test_undo_replays_the_same_cards_and_keeps_the_mode():
    session = Session()
    ok(session, {"cmd": "new", "game": "santacruz", "players": 2, "seats": [0]})
    first = ok(session, {"cmd": "deal"})
    view = ok(session, {"cmd": "state"})["view"]
    while len(session.moves) < first["ply"] + 6 and session.status()["phase"] != "over":
        status = session.status()
        if status["phase"] == "chance":
            ok(session, {"cmd": "deal"})
        elif status["to_move"] == 0:
            ok(session, {"cmd": "apply", "action": ok(session, {"cmd": "legal"})["moves"][0]["action"]})
        else:
            ok(session, {"cmd": "go", "agent": "random"})
    assert ok(session, {"cmd": "undo", "ply": first["ply"]})["ply"] == first["ply"]
    assert ok(session, {"cmd": "state"})["view"] == view
    assert refused(session, {"cmd": "position"}) == "hidden"
    assert ok(session, {"cmd": "undo", "ply": 0})["phase"] == "chance"
    assert ok(session, {"cmd": "deal"})["moves"] == first["moves"]
    assert refused(session, {"cmd": "undo", "ply": 10_000}) == "bad_request"
    # Referee mode: undo is the documented save, cut and load.
    referee = Session()
    ok(referee, {"cmd": "new", "game": "c2c", "players": 2, "seed": 3})
    ok(referee, {"cmd": "deal"})
    saved = ok(referee, {"cmd": "position"})["position"]
    ok(referee, {"cmd": "undo", "ply": 3})
    assert ok(referee, {"cmd": "position"})["position"] == {**saved, "moves": saved["moves"][:3]}


def test_stop_ends_a_go_the_engine_plays_and_the_move_is_played():
    # Seat 1 is the engine's: a long go, a state read while it searches,
    # then stop; the go replies first, having played its best move so far.
    with served_pipe() as (w, output):
        w.write(b'{"id":1,"cmd":"new","game":"switchbacks","players":2,"seed":2,"seats":[1]}\n'
                b'{"id":2,"cmd":"deal"}\n{"id":3,"cmd":"go","time":60}\n{"id":4,"cmd":"state"}\n'
                b'{"id":5,"cmd":"deal"}\n{"id":6,"cmd":"stop"}\n{"id":7,"cmd":"state"}\n'
                b'{"id":8,"cmd":"quit"}\n')
    replies = [checked(json.loads(line)) for line in output.getvalue().decode().splitlines()]
    ids = [r["id"] for r in replies]
    assert sorted(ids) == list(range(1, 9)) and ids.index(3) < ids.index(6) < ids.index(7)
    by_id = {r["id"]: r for r in replies}
    assert by_id[2]["result"]["to_move"] == 0
    go = by_id[3]["result"]
    assert go["played"] and go["stopped"] and go["seat"] == 0 and go["ply"] == by_id[2]["result"]["ply"] + 1
    assert by_id[4]["result"]["seat"] == 1 and by_id[5]["error"]["code"] == "busy"
    assert by_id[6]["result"] == {"stopped": True, "go": 3}
    assert by_id[7]["result"]["ply"] == go["ply"]
