"""The engine protocol (``solve engine``): in-process sessions, the server
over pipes, one real subprocess, the schema and the documented session."""

from __future__ import annotations

import copy
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import jsonschema
import pytest

import solvers
import solvers.rng
from solvers.agents import agent_names, load_agent
from solvers.engine import Session, load_schema, serve
from solvers.games.switchbacks.position import load_position, state_to_position

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_schema()
REPLY = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/reply"})
REQUEST = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/request"})
ENGINE_CMD = [sys.executable, "-m", "solvers.cli.main", "engine"]


def check(reply: dict) -> dict:
    """The reply, after checking it against the schema."""
    errors = sorted(REPLY.iter_errors(reply), key=str)
    assert not errors, f"{reply} breaks the schema: {errors[0].message}"
    return reply


def ok(session: Session, request: dict) -> dict:
    reply = check(session.handle(request))
    assert "result" in reply, reply
    assert reply["id"] == request.get("id") and reply["cmd"] == request["cmd"]
    return reply["result"]


def err(session: Session, request: dict) -> str:
    reply = check(session.handle(request))
    assert "error" in reply, reply
    return reply["error"]["code"]


def snapshot(session: Session, rng: bool = True) -> str:
    """Everything about the game a request could change (with the state of
    the generator that seeds the agents, unless ``rng`` is false)."""
    if session.state is None:
        return "no game"
    state = session.state
    views = [state.information_state(p) for p in range(session.game.num_players)]
    legal = state.legal_actions()
    return json.dumps([session.setup, session.moves, views, legal, state.current_player(),
                       session._agent_rng.state if rng else None], sort_keys=True, default=str)


def play_out(session: Session, iterations: int = 60) -> list[dict]:
    """Deal and let the engine play every seat to the end; the replies."""
    replies = []
    status = ok(session, {"id": "s", "cmd": "legal"})
    while status["phase"] != "over":
        if status["phase"] == "chance":
            status = ok(session, {"id": "d", "cmd": "deal"})
            continue
        go = ok(session, {"id": "g", "cmd": "go", "iterations": iterations, "seat": status["to_move"]})
        replies.append(go)
        status = ok(session, {"id": "a", "cmd": "apply", "move": go["move"]})
        assert status["move"] == go["move"]
    return replies


# ------------------------------------------------------------------ schema
def test_schema_is_valid_and_covers_every_command():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    session = Session()
    hello = ok(session, {"id": 1, "cmd": "hello"})
    for cmd in hello["commands"]:
        assert f"request_{cmd}" in SCHEMA["$defs"] and f"result_{cmd}" in SCHEMA["$defs"]
    assert not list(REQUEST.iter_errors({"cmd": "go", "time": 1, "seat": 0}))
    assert list(REQUEST.iter_errors({"cmd": "go", "time": 1, "budget": 3}))      # unknown field
    assert list(REPLY.iter_errors({"id": 1, "cmd": "go", "result": {"move": "x"}}))


def openspiel_installed() -> bool:
    """Whether the optional ``openspiel`` extra can be imported here."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def test_hello_lists_every_game_and_agent():
    hello = ok(Session(), {"id": "h", "cmd": "hello"})
    assert hello["version"] == solvers.__version__
    assert [g["name"] for g in hello["games"]] == solvers.game_names()
    # Every agent, except OpenSpiel's bot when its optional extra is missing.
    expected = [a for a in agent_names() if a != "openspiel" or openspiel_installed()]
    assert [a["name"] for a in hello["agents"]] == expected
    games = {g["name"]: g for g in hello["games"]}
    assert games["c2c"]["players"] == [1, 2, 3, 4] and "challenge" in games["c2c"]["options"]
    assert games["switchbacks"]["players"] == [2, 3, 4]
    assert "switchbacks" in games["switchbacks"]["positions"]
    mcts = next(a for a in hello["agents"] if a["name"] == "mcts")
    assert mcts["stoppable"] and "c" in mcts["options"]


def test_hello_without_openspiel_lists_the_other_agents(tmp_path):
    # A machine without the optional extra, in a subprocess: ``import
    # pyspiel`` fails there as it does when open_spiel is not installed.
    (tmp_path / "pyspiel.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'pyspiel' (simulated)\")\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    proc = subprocess.run(ENGINE_CMD, input='{"id":1,"cmd":"hello"}\n{"id":2,"cmd":"quit"}\n',
                          text=True, capture_output=True, timeout=120, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr
    hello = check(json.loads(proc.stdout.splitlines()[0]))["result"]
    assert [a["name"] for a in hello["agents"]] == [a for a in agent_names() if a != "openspiel"]
    assert [g["name"] for g in hello["games"]] == solvers.game_names()


# ------------------------------------------------------------------ full games
@pytest.mark.parametrize("new", [
    {"game": "c2c", "seed": 5, "options": {"challenge": "The Alamo"}},
    {"game": "c2c", "players": 2, "seed": 2},
    {"game": "switchbacks", "players": 3, "seed": 8},
])
def test_engine_plays_a_whole_game_and_the_position_replays_it(new):
    session = Session()
    start = ok(session, {"id": 0, "cmd": "new", **new})
    assert start["phase"] == "chance" and start["ply"] == 0
    gos = play_out(session)
    final = ok(session, {"id": 9, "cmd": "legal"})
    assert final["phase"] == "over" and final["moves"] == []
    assert final["scores"] == list(session.state.scores())
    assert final["returns"] == list(session.state.returns())
    assert all(g["move"] == g["ranked"][0]["move"] for g in gos)
    # The saved position is the game: loading it gives the same state.
    saved = ok(session, {"id": 10, "cmd": "position"})["position"]
    assert len(saved["moves"]) == final["ply"]
    other = Session()
    loaded = ok(other, {"id": 11, "cmd": "position", "position": json.loads(json.dumps(saved))})
    assert loaded["phase"] == "over" and loaded["scores"] == final["scores"]
    assert snapshot(other, rng=False) == snapshot(session, rng=False)


def test_go_matches_the_library_agent_for_the_same_seed():
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "seed": 11, "options": {"challenge": "Wrigley Field"}})
    ok(session, {"cmd": "deal"})
    go = ok(session, {"cmd": "go", "iterations": 400, "options": {"seed": 7, "c": 1.2}})
    agent = load_agent("mcts", session.game, iterations=400, seed=7, c=1.2)
    rows = agent.analyse(session.state)
    assert [(r["move"], r["visits"]) for r in rows] == [(r["move"], r["visits"]) for r in go["ranked"]]
    assert go["value"] == pytest.approx(rows[0]["value"])
    assert go["iterations"] == 400 and not go["stopped"]


def test_go_with_the_strong_c2c_player_matches_the_library_agent():
    # The engine's hint can be Coast to Coast's strong online player (pimc).
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "seed": 11})
    ok(session, {"cmd": "deal"})
    go = ok(session, {"cmd": "go", "agent": "pimc", "options": {"seed": 7, "samples": 4, "width": 8}})
    rows = load_agent("pimc", session.game, seed=7, samples=4, width=8).analyse(session.state)
    assert go["agent"] == "pimc" and go["action"] == rows[0]["action"]
    assert [(r["move"], r["value"]) for r in rows] == [(r["move"], r["value"]) for r in go["ranked"]]
    assert go["action"] in session.state.legal_actions()


def test_same_requests_give_the_same_game():
    def run() -> list:
        session = Session()
        ok(session, {"cmd": "new", "game": "switchbacks", "seed": 3})
        return [(g["move"], g["ranked"]) for g in play_out(session, iterations=40)]

    assert run() == run()


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts:c=2,rollout=random"])
def test_every_agent_kind_answers(agent):
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "players": 2, "seed": 4})
    ok(session, {"cmd": "deal"})
    go = ok(session, {"cmd": "go", "agent": agent, "iterations": 50})
    legal = {m["move"] for m in ok(session, {"cmd": "legal"})["moves"]}
    assert go["move"] in legal and {r["move"] for r in go["ranked"]} == legal


def test_apply_by_action_id_and_deal_count():
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "seed": 1})
    dealt = ok(session, {"cmd": "deal", "count": 3})
    assert len(dealt["moves"]) == 3 and dealt["phase"] == "chance"
    outcomes = ok(session, {"cmd": "legal"})["moves"]
    assert len(outcomes) == session.game.map.n - 3                # no challenge card: 32 - 3
    outcome = outcomes[5]
    assert outcome["probability"] == pytest.approx(1 / len(outcomes))
    applied = ok(session, {"cmd": "apply", "action": outcome["action"]})
    assert applied["move"] == outcome["move"] and applied["phase"] == "decision"
    assert ok(session, {"cmd": "deal"})["moves"] == []          # nothing to deal at a decision
    first = ok(session, {"cmd": "legal"})["moves"][0]
    shouted = "  " + first["move"].upper().replace(" ", "   ") + " "
    assert ok(session, {"cmd": "apply", "move": shouted})["move"] == first["move"]


# ------------------------------------------------------------------ hidden information
def _switchbacks_twins(seed: int = 4):
    """Two Switchbacks positions that seat 0 cannot tell apart: seat 1's hand
    and the stack order differ."""
    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "seed": seed})
    ok(session, {"cmd": "deal"})
    pos = state_to_position(session.state)
    twin = copy.deepcopy(pos)
    twin["hands"][1][0], twin["stack"][3] = twin["stack"][3], twin["hands"][1][0]
    twin["stack"].reverse()
    return pos, twin


def test_go_uses_only_what_the_seat_knows():
    pos, twin = _switchbacks_twins()
    assert pos["hands"][1] != twin["hands"][1]
    results, views = [], []
    for start in (pos, twin):
        session = Session()
        ok(session, {"cmd": "position", "position": {"game": "switchbacks", "start": start, "seed": 9}})
        views.append(ok(session, {"cmd": "state", "seat": 0}))
        go = ok(session, {"cmd": "go", "iterations": 1500, "seat": 0})
        results.append([(r["move"], r["visits"], r["value"]) for r in go["ranked"]])
    assert views[0] == views[1]
    assert results[0] == results[1]


def test_c2c_go_ignores_the_undealt_cards_and_other_private_cards():
    # Seat 0 of a 2-player game: seat 1's private setup cards and the deck order differ.
    base = ["deal Hollywood", "deal Space Needle", "deal Gateway Arch", "deal Grand Canyon",
            "deal Mall of America", "deal Niagara Falls"]
    twin = list(base)
    twin[2:4] = ["deal The Alamo", "deal Beale Street"]
    results = []
    for seed, moves in ((1, base), (2, twin)):
        session = Session()
        status = ok(session, {"cmd": "position", "position": {"game": "c2c", "players": 2, "seed": seed,
                                                              "moves": moves}})
        assert status["to_move"] == 0
        results.append((ok(session, {"cmd": "state", "seat": 0})["view"],
                        ok(session, {"cmd": "go", "iterations": 800, "options": {"seed": 5}})["ranked"]))
    assert results[0] == results[1]


def _c2c_round_twins(in_setup: bool):
    """Two 2-player Coast to Coast games in which seat 0 has made different
    moves this round; seat 1, to move, has not seen them yet."""
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "players": 2, "seed": 3})
    ok(session, {"cmd": "deal"})
    if not in_setup:
        for seat in (0, 1):
            while session.state.current_player() == seat:
                ok(session, {"cmd": "apply", "move": ok(session, {"cmd": "legal"})["moves"][0]["move"]})
        ok(session, {"cmd": "deal"})
    base = ok(session, {"cmd": "position"})["position"]
    twins = []
    for pick in (0, 1):
        twin = Session()
        ok(twin, {"cmd": "position", "position": base})
        while twin.state.current_player() == 0:
            moves = ok(twin, {"cmd": "legal"})["moves"]
            ok(twin, {"cmd": "apply", "move": moves[pick % len(moves)]["move"]})
        assert twin.state.current_player() == 1
        twins.append(twin)
    assert twins[0].moves != twins[1].moves
    return twins


@pytest.mark.parametrize("in_setup", [True, False])
def test_c2c_go_does_not_see_this_rounds_earlier_moves(in_setup):
    twins = _c2c_round_twins(in_setup)
    views = [ok(t, {"cmd": "state", "seat": 1})["view"] for t in twins]
    assert views[0] == views[1]
    gos = [ok(t, {"cmd": "go", "iterations": 1000, "options": {"seed": 1}})["ranked"] for t in twins]
    assert gos[0] == gos[1]


def _engine_twins(game, players, seed, decisions):
    """Two engine sessions of one game played ``decisions`` decisions in,
    differing only in what the seat to move cannot see: for Switchbacks
    another seat's set-aside tile (swapped with the top of the stack), for
    Coast to Coast the order of the undealt deck (another seed, the same
    moves)."""
    session = Session()
    ok(session, {"cmd": "new", "game": game, "players": players, "seed": seed})
    rng = solvers.rng.SplitMix64(seed)
    done = 0
    while (done < decisions or session.state.is_chance_node()
           or len(session.state.legal_actions()) < 3):
        status = ok(session, {"cmd": "legal"})
        if status["phase"] == "chance":
            ok(session, {"cmd": "deal"})
            continue
        moves = status["moves"]
        ok(session, {"cmd": "apply", "move": moves[rng.below(len(moves))]["move"]})
        done += 1
    saved = ok(session, {"cmd": "position"})
    position = copy.deepcopy(saved["native"] if game == "switchbacks" else saved["position"])
    if game == "switchbacks":
        mover = session.state.current_player()
        other = (mover + 1) % players
        kept, drawn = position["set_aside"][other][0], position["stack"][0]
        position["set_aside"][other][0], position["stack"][0] = drawn, kept
    else:
        position["seed"] = seed + 100
    twin = Session()
    ok(twin, {"cmd": "position", "position": position})
    return session, twin


@pytest.mark.parametrize("game, players, seed, decisions",
                         [("switchbacks", 3, 2, 20), ("c2c", 3, 5, 30), ("c2c", 4, 6, 12)])
def test_go_is_the_same_for_twins_that_differ_in_what_the_seat_cannot_see(game, players, seed,
                                                                         decisions):
    from solvers.search import mcts_search

    twins = _engine_twins(game, players, seed, decisions)
    seat = twins[0].state.current_player()
    assert twins[1].state.current_player() == seat
    views = [ok(t, {"cmd": "state", "seat": seat})["view"] for t in twins]
    assert views[0] == views[1]
    gos = [ok(t, {"cmd": "go", "iterations": 800, "options": {"seed": 4}})["ranked"] for t in twins]
    assert gos[0] == gos[1]
    # Control: the twins really differ; searched as they are, without
    # re-dealing what the seat cannot see, they give different answers.
    real = [mcts_search(t.state, iterations=800, seed=4, determinize=False) for t in twins]
    assert (real[0].actions, real[0].visits) != (real[1].actions, real[1].visits)


def test_state_shows_a_seat_its_own_view_and_moves_only_on_its_turn():
    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "players": 2, "seed": 6})
    ok(session, {"cmd": "deal"})
    for seat in (0, 1):
        view = ok(session, {"cmd": "state", "seat": seat})
        assert view["view"] == session.state.information_state(seat)
        assert view["view"]["hand"] == sorted(session.state.hands[seat])
        assert ("legal" in view) == (seat == session.state.current_player())
    legal = ok(session, {"cmd": "legal"})["moves"]
    assert ok(session, {"cmd": "state", "seat": 0})["legal"] == legal
    assert err(session, {"cmd": "state"}) == "bad_request"        # which seat?
    assert err(session, {"cmd": "go", "seat": 1}) == "not_to_move"


# ------------------------------------------------------------------ errors
BAD_REQUESTS = [
    ({"cmd": "fly"}, "unknown_command"),
    ({"id": 3}, "bad_request"),
    ({"cmd": "apply", "move": "cross Atlantis"}, "illegal_move"),
    ({"cmd": "apply", "action": 10**9}, "illegal_move"),
    ({"cmd": "apply", "action": True}, "illegal_move"),
    ({"cmd": "apply"}, "bad_request"),
    ({"cmd": "apply", "move": "x", "action": 1}, "bad_request"),
    ({"cmd": "apply", "move": ["x"]}, "bad_request"),
    ({"cmd": "go", "time": -1}, "bad_request"),
    ({"cmd": "go", "time": 1e9}, "bad_request"),
    ({"cmd": "go", "iterations": 0}, "bad_request"),
    ({"cmd": "go", "agent": "oracle"}, "invalid_option"),
    ({"cmd": "go", "options": {"depth": 3}}, "invalid_option"),
    ({"cmd": "go", "options": {"c": "high"}}, "invalid_option"),
    ({"cmd": "go", "iterations": 5, "options": {"iterations": 5}}, "bad_request"),
    ({"cmd": "go", "seat": 1}, "not_to_move"),
    ({"cmd": "go", "ponder": True}, "bad_request"),
    ({"cmd": "new", "game": "chess"}, "invalid_option"),
    ({"cmd": "new", "game": "c2c", "players": 9}, "invalid_option"),
    ({"cmd": "new", "game": "c2c", "options": {"challenge": "Atlantis"}}, "invalid_option"),
    ({"cmd": "new", "game": "c2c", "options": {"colour": "red"}}, "invalid_option"),
    ({"cmd": "new", "game": "c2c", "seed": -1}, "invalid_option"),
    ({"cmd": "position", "position": {"game": "c2c", "moves": ["deal Hollywood", "cross Hollywood"]}},
     "invalid_position"),
    ({"cmd": "position", "position": {"game": "c2c"}}, "invalid_position"),
    ({"cmd": "position", "position": {"game": "switchbacks", "players": 2, "map": {}}}, "invalid_position"),
    ({"cmd": "position", "position": [1, 2]}, "invalid_position"),
    ({"cmd": "state", "seat": 7}, "bad_request"),
    ({"cmd": "deal", "count": 0}, "bad_request"),
]


@pytest.mark.parametrize("request_, code", BAD_REQUESTS, ids=[str(i) for i in range(len(BAD_REQUESTS))])
def test_bad_requests_are_error_replies_and_change_nothing(request_, code):
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "players": 1, "seed": 2})
    ok(session, {"cmd": "deal"})
    ok(session, {"cmd": "apply", "move": ok(session, {"cmd": "legal"})["moves"][1]["move"]})
    assert ok(session, {"cmd": "deal"})["phase"] == "decision"      # round 1
    before = snapshot(session)
    request = {"id": "bad", **request_}
    reply = check(session.handle(request))
    assert reply["error"]["code"] == code, reply
    assert reply["id"] == request["id"]
    assert "\n" not in reply["error"]["message"]
    assert snapshot(session) == before
    assert "result" in session.handle({"id": 1, "cmd": "legal"})          # still serving


def test_requests_before_a_game_and_malformed_lines():
    session = Session()
    for cmd in ("apply", "legal", "state", "deal", "go", "position"):
        assert err(session, {"cmd": cmd}) == "no_game"
    for line in ("{", "[1,", '{"cmd": NaN}', "\xff", b"\xff\xfe", '"hello"', "1e999999", "[" * 100_000):
        reply = check(session.handle_line(line))
        assert reply["id"] is None and reply["error"]["code"] in ("parse_error", "bad_request")
    assert err(session, {"id": {"a": 1}, "cmd": "hello"}) == "bad_request"
    assert ok(session, {"id": "x" * 200, "cmd": "hello"})["protocol"] == "solvers-engine"


# ------------------------------------------------------------------ stop and busy
def test_stop_ends_a_running_go_with_the_best_so_far_and_busy_guards_the_game():
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "seed": 3, "options": {"challenge": "The Alamo"}})
    ok(session, {"cmd": "deal"})
    before = snapshot(session, rng=False)     # an accepted go draws its seed: the rest stays
    job = session.prepare_go({"id": "long", "cmd": "go", "time": 60})
    box = {}
    worker = threading.Thread(target=lambda: box.setdefault("reply", session.finish_go(job)))
    worker.start()
    while job._search is None and worker.is_alive():   # wait until it searches
        time.sleep(0.01)
    time.sleep(0.05)
    try:
        assert err(session, {"cmd": "apply", "action": session.state.legal_actions()[0]}) == "busy"
        assert err(session, {"cmd": "go", "iterations": 10}) == "busy"
        assert err(session, {"cmd": "new", "game": "c2c"}) == "busy"
        assert ok(session, {"cmd": "legal"})["phase"] == "decision"    # reading is fine
        assert ok(session, {"cmd": "position"})["position"]["moves"] == session.moves
    finally:
        stopped = ok(session, {"id": "s", "cmd": "stop"})
        worker.join(30)
    assert stopped == {"stopped": True, "go": "long"}
    reply = check(box["reply"])
    assert reply["id"] == "long" and reply["result"]["stopped"]
    assert reply["result"]["seconds"] < 30 and reply["result"]["iterations"] > 0
    assert snapshot(session, rng=False) == before
    assert ok(session, {"cmd": "stop"}) == {"stopped": False, "go": None}
    assert ok(session, {"cmd": "go", "iterations": 20})["iterations"] == 20


@contextmanager
def served_pipe():
    """serve() on a thread reading a pipe: yields (writer, output buffer);
    on leaving, the pipe is closed and the server must finish."""
    read_fd, write_fd = os.pipe()
    output = io.BytesIO()
    with os.fdopen(read_fd, "rb") as inp:
        server = threading.Thread(target=serve, args=(inp, output))
        server.start()
        with os.fdopen(write_fd, "wb", buffering=0) as w:
            yield w, output
        server.join(30)
        assert not server.is_alive()


def test_server_reads_stop_while_go_runs():
    # serve() over a pipe: the reader answers stop while the worker searches.
    with served_pipe() as (w, output):
        w.write(b'{"id":1,"cmd":"new","game":"switchbacks","seed":2}\n{"id":2,"cmd":"deal"}\n')
        w.write(b'{"id":3,"cmd":"go","time":60}\n{"id":4,"cmd":"legal"}\n')
        w.write(b'{"id":5,"cmd":"apply","move":"buddy up"}\n{"id":6,"cmd":"stop"}\n')
        w.write(b'{"id":7,"cmd":"quit"}\n')
    replies = [check(json.loads(line)) for line in output.getvalue().decode().splitlines()]
    ids = [r["id"] for r in replies]
    assert sorted(ids) == [1, 2, 3, 4, 5, 6, 7]
    assert ids.index(3) < ids.index(6) < ids.index(7)         # the go answers before its stop
    by_id = {r["id"]: r for r in replies}
    assert by_id[3]["result"]["stopped"] and by_id[5]["error"]["code"] == "busy"
    assert by_id[6]["result"] == {"stopped": True, "go": 3}


def test_stop_of_an_agent_that_cannot_be_interrupted(monkeypatch):
    # An agent without a stop: the stop reply says so, and the go answers later.
    from solvers.agents.base import _REGISTRY, Agent

    class Sleepy(Agent):
        kind = "sleepy"

        def _analyse(self, state):
            time.sleep(0.8)
            return [self._row(state, a, 0.0) for a in state.legal_actions()]

    monkeypatch.setitem(_REGISTRY, "sleepy", Sleepy)
    requests = [{"id": 1, "cmd": "new", "game": "c2c", "seed": 1}, {"id": 2, "cmd": "deal"},
                {"id": 3, "cmd": "go", "agent": "sleepy"}, {"id": 4, "cmd": "stop"}]
    with served_pipe() as (w, output):
        w.write("".join(json.dumps(r) + "\n" for r in requests).encode())
        while b'"id":4' not in output.getvalue():
            time.sleep(0.01)
        w.write(b'{"id":5,"cmd":"legal"}\n')
        while b'"id":3' not in output.getvalue():
            time.sleep(0.01)
    replies = [check(json.loads(line)) for line in output.getvalue().decode().splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 4, 5, 3]
    assert replies[2]["result"] == {"stopped": False, "go": 3}
    assert replies[4]["result"]["agent"] == "sleepy" and not replies[4]["result"]["stopped"]


# ------------------------------------------------------------------ positions
def test_native_switchbacks_position_with_moves_and_back():
    pos, _ = _switchbacks_twins(seed=12)
    session = Session()
    bare = ok(session, {"cmd": "position", "position": pos})
    assert bare["phase"] == "decision" and bare["ply"] == 0
    first = ok(session, {"cmd": "legal"})["moves"][7]["move"]
    ok(session, {"cmd": "apply", "move": first})
    saved = ok(session, {"cmd": "position"})
    assert saved["position"]["start"] == state_to_position(load_position(pos))
    assert saved["position"]["moves"] == [first]
    assert saved["native"] == state_to_position(session.state)
    again = Session()
    ok(again, {"cmd": "position", "position": saved["position"]})
    assert snapshot(again) == snapshot(session)
    broken = copy.deepcopy(pos)
    broken["hands"][0].append(broken["stack"].pop())
    before = snapshot(session)
    assert err(session, {"cmd": "position", "position": broken}) == "invalid_position"
    assert snapshot(session) == before


def test_a_timed_switchbacks_go_searches_the_last_tiles_exactly():
    # Early on the search streams MCTS iterations; near the end (Switchbacks
    # with 2 seats, a time budget) the re-deals are solved exactly instead.
    from test_agents import late_switchbacks

    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "seed": 5})
    ok(session, {"cmd": "deal"})
    early = ok(session, {"cmd": "go", "time": 0.05, "options": {"seed": 1}})
    assert early["iterations"] > 100 and sum(r["visits"] for r in early["ranked"]) > 100
    ok(session, {"cmd": "position", "position": state_to_position(late_switchbacks(2))})
    late = ok(session, {"cmd": "go", "time": 1.0, "options": {"seed": 1}})     # settled in milliseconds
    assert late["iterations"] == 0 and all(1 <= r["visits"] <= 8 for r in late["ranked"])
    plain = ok(session, {"cmd": "go", "time": 0.05, "options": {"seed": 1, "endgame_plies": 0}})
    assert plain["iterations"] > 100                            # the control: MCTS there too


# ------------------------------------------------------------------ the real process
def test_solve_engine_subprocess_session():
    requests = [
        {"id": 1, "cmd": "hello"},
        {"id": 2, "cmd": "new", "game": "c2c", "seed": 7, "options": {"challenge": "The Alamo"}},
        "this is not json",
        {"id": 3, "cmd": "deal"},
        {"id": "go", "cmd": "go", "iterations": 300},
        {"id": 4, "cmd": "apply", "move": "cross Nowhere"},
        {"id": 5, "cmd": "quit"},
    ]
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    # The go must finish before quit is read: send quit only after the go reply.
    proc = subprocess.Popen(ENGINE_CMD, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    lines = text.splitlines(keepends=True)
    replies = []
    for line in lines:
        proc.stdin.write(line)
        proc.stdin.flush()
        replies.append(json.loads(proc.stdout.readline()))
    proc.stdin.close()
    assert proc.wait(30) == 0
    assert proc.stdout.read() == ""
    for reply in replies:
        check(reply)
    assert [r["id"] for r in replies] == [1, 2, None, 3, "go", 4, 5]
    assert replies[2]["error"]["code"] == "parse_error"
    assert replies[4]["result"]["iterations"] == 300 and replies[4]["result"]["move"].startswith("cross ")
    assert replies[5]["error"]["code"] == "illegal_move"
    assert replies[6]["result"] == {"bye": True}


def test_end_of_input_ends_the_engine():
    proc = subprocess.run(ENGINE_CMD, input='{"id":1,"cmd":"new","game":"switchbacks"}\n', text=True,
                          capture_output=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["result"]["phase"] == "chance"


# ------------------------------------------------------------------ the document
def test_documented_session_replays():
    """Every '>' line of the example session in docs/engine-protocol.md is sent
    in order; each '<' line is the reply (a line ending in '...' is a prefix)."""
    doc = (ROOT / "docs" / "engine-protocol.md").read_text("utf-8")
    blocks = re.findall(r"<!-- example-session -->\s*```text\n(.*?)```", doc, re.S)
    assert len(blocks) == 2, "the example sessions (referee mode, seat mode) are missing"
    for block in blocks:
        _replay_documented(block)


def _replay_documented(block: str) -> None:
    session = Session()
    pending = None
    count = 0
    for line in block.splitlines():
        if line.startswith("> "):
            reply = check(session.handle_line(line[2:]))
            if "result" in reply:
                assert not list(REQUEST.iter_errors(json.loads(line[2:]))), line
            pending = json.dumps(reply, separators=(",", ":"))
            count += 1
        elif line.startswith("< "):
            want = line[2:]
            assert pending is not None, line
            if want.endswith("..."):
                assert pending.startswith(want[:-3]), f"\n{pending}\n{want}"
            else:
                assert pending == want
            pending = None
    assert count >= 10
