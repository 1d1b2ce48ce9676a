"""Fuzzing the engine protocol with hypothesis: random malformed or
illegal requests in-process (25 runs of 50; 200 with --runslow), then shorter bursts through
the real ``solve engine`` process. Every reply must fit the schema and echo
the id; no request may crash the engine or reach ``internal_error``; a
refused request must leave the game exactly as it was."""

from __future__ import annotations

import io
import os
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import solvers.engine.session as engine_session
from solvers.engine import Session, load_schema
from solvers.engine.server import Engine
from solvers.engine.session import COMMANDS, FIELDS

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = load_schema()
REPLY = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/reply"})
ERROR_REPLY = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/error_reply"})
_valid_results: set[str] = set()


def schema_errors(reply: dict) -> list:
    """What in ``reply`` breaks the schema (error replies, the bulk, are checked
    against their own definition, which the full one selects for them; a
    result already checked once is not checked again)."""
    if "error" in reply and "result" not in reply:
        return list(ERROR_REPLY.iter_errors(reply))
    key = json.dumps(reply, sort_keys=True)
    if key in _valid_results:
        return []
    errors = list(REPLY.iter_errors(reply))
    if not errors:
        _valid_results.add(key)
    return errors
# 10,000 requests in-process with --runslow, 1,250 in the everyday run
# (tests/conftest.py sets SOLVERS_TEST_RUNSLOW before the modules import).
SLOW = os.environ.get("SOLVERS_TEST_RUNSLOW") == "1"
RUNS, PER_RUN = (200 if SLOW else 25), 50
BURSTS = 6 if SLOW else 2     # bursts of 150 lines through the real process


@pytest.fixture(scope="module", autouse=True)
def small_budgets():
    # A fuzzed go that happens to be valid must stay quick: cap its budget.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(engine_session, "MAX_TIME", 0.005)
        mp.setattr(engine_session, "MAX_ITERATIONS", 200)
        yield


# ------------------------------------------------------------------ strategies
leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=24),
)
json_value = st.recursive(leaf, lambda inner: st.lists(inner, max_size=3)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=5)
near_moves = st.sampled_from([
    "cross Hollywood", "CROSS   hollywood", "deal Hollywood", "circle Hollywood with The Alamo",
    "cross", "", " ", "explore 3 on hex 17", "explore 99 on hex 99", "hike solo", "buddy up",
    "hike buddies", "deal 5 to player 1", "player 0 draws 23", "reveal 4 in the centre", "quit",
])
interesting = st.one_of(
    near_moves,
    st.sampled_from([-1, 0, 1, 2, 3, 7, 1369, 10**6, 2**64, -(2**63), 0.5, 1e308, True, False,
                     "c2c", "switchbacks", "chess", "C2C", "The Alamo", "Atlantis", "mcts", "greedy",
                     "random", "mcts:c=-1", "mcts:bogus=1", "mcts:iterations=0", "mcts:time=1e9", ":",
                     "mcts:", "greedy:seed=x", "endgame:samples=0"]),
    st.fixed_dictionaries({}, optional={"challenge": st.sampled_from(["The Alamo", "Nowhere", 3, -1, None]),
                                        "map": st.sampled_from(["/nonexistent.json", 5, ""]),
                                        "colour": st.just("red")}),
    st.fixed_dictionaries({}, optional={"c": st.sampled_from([-1, "x", None, 1e300]),
                                        "seed": st.sampled_from([-5, 2**64, "s", 1.5]),
                                        "time": st.sampled_from([0, -1, 1e9, "1"]),
                                        "iterations": st.sampled_from([0, -3, 2.5, 10**12]),
                                        "rollout": st.sampled_from(["policy?", 3]),
                                        "depth": st.just(3)}),
    st.fixed_dictionaries({"game": st.sampled_from(["c2c", "switchbacks", "go", 3])},
                          optional={"moves": st.lists(near_moves, max_size=3),
                                    "players": st.integers(-1, 6), "seed": st.integers(-2, 3),
                                    "start": json_value, "map": json_value, "stack": json_value}),
)
field_names = st.sampled_from(sorted({f for fs in FIELDS.values() for f in fs})
                              + ["budget", "ponder", "Move", "seat ", "params"])
commands = st.sampled_from(list(COMMANDS) + ["", "Go", "APPLY", "fly", "go ", "help"])
ids = st.one_of(st.none(), st.integers(-(2**40), 2**40), st.text(max_size=12), st.just("x" * 201),
                st.lists(st.integers(), max_size=2), st.floats(allow_nan=False, allow_infinity=False))


@st.composite
def requests(draw, allowed=None):
    """A request object, nearly always malformed or illegal somewhere."""
    cmd = draw(st.sampled_from(allowed) if allowed else commands)
    req = {"cmd": cmd} if draw(st.integers(0, 9)) else {}
    if draw(st.booleans()):
        req["id"] = draw(ids)
    for name in draw(st.lists(field_names, max_size=3, unique=True)):
        req[name] = draw(st.one_of(interesting, json_value))
    if cmd == "go" and draw(st.booleans()):
        req["agent"] = draw(st.sampled_from(["mcts", "greedy", "random", "oracle", "mcts:c=0"]))
    return req


def mangle(text: str, cut: int) -> str:
    return text[: cut % (len(text) + 1)] + text[cut % (len(text) + 1) + 1:]


@st.composite
def lines(draw, allowed=None) -> bytes:
    """One request line: JSON of a request, of any value, mangled JSON, or noise."""
    kind = draw(st.integers(0, 9))
    if kind <= 4:
        return json.dumps(draw(requests(allowed))).encode()
    if kind == 5:
        return json.dumps(draw(json_value)).encode()
    if kind == 6:
        return mangle(json.dumps(draw(requests(allowed))), draw(st.integers(0, 400))).encode()
    if kind == 7:
        return draw(st.text(max_size=40)).replace("\n", " ").encode("utf-8", "surrogatepass")
    if kind == 8:
        return draw(st.binary(max_size=40)).replace(b"\n", b" ")
    return (json.dumps(draw(requests(allowed)))[:-1] + ', "cmd": "hello"}').encode()


# ------------------------------------------------------------------ helpers
def snapshot(session: Session) -> str:
    state = session.state
    views = [state.information_state(p) for p in range(session.game.num_players)]
    return json.dumps([session.setup, session.moves, views, state.legal_actions(),
                       state.current_player(), session._agent_rng.state], sort_keys=True, default=str)


def expected_id(line: bytes):
    try:
        request = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if isinstance(request, dict):
        rid = request.get("id")
        if rid is None or (isinstance(rid, int) and not isinstance(rid, bool)) or (
                isinstance(rid, str) and len(rid) <= 200):
            return rid
    return None


def started(game: str) -> Session:
    session = Session()
    new = {"c2c": {"cmd": "new", "game": "c2c", "seed": 1, "options": {"challenge": "The Alamo"}},
           "switchbacks": {"cmd": "new", "game": "switchbacks", "players": 3, "seed": 1}}[game]
    assert "result" in session.handle(new)
    assert session.handle({"cmd": "deal"})["result"]["phase"] == "decision"
    return session


# ------------------------------------------------------------------ in-process: 1,250 requests (10,000 with --runslow)
@settings(max_examples=RUNS, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(game=st.sampled_from(["c2c", "switchbacks"]),
       burst=st.lists(lines(), min_size=PER_RUN, max_size=PER_RUN))
def test_fuzzed_requests_never_break_the_session(game, burst):
    session = started(game)
    for line in burst:
        before = snapshot(session)
        try:
            reply = session.handle_line(line)
        except Exception as e:  # pragma: no cover - the failure this test looks for
            pytest.fail(f"{line!r} raised {type(e).__name__}: {e}")
        errors = schema_errors(reply)
        assert not errors, f"{line!r} -> {reply}: {errors[0].message}"
        assert reply["id"] == expected_id(line), (line, reply)
        if "error" in reply:
            assert reply["error"]["code"] != "internal_error", (line, reply)
            assert snapshot(session) == before, line
    assert "result" in session.handle({"cmd": "legal"})


# ------------------------------------------------------------------ the real process
BURST_COMMANDS = [c for c in COMMANDS if c not in ("go", "stop", "quit")] + ["fly"]


def _in_process_replies(game_lines: list[bytes]) -> list[dict]:
    out = io.BytesIO()
    engine = Engine(out)
    for line in game_lines:
        engine.feed(None if line is None else line + b"\n")   # as the reader passes it
    return [json.loads(x) for x in out.getvalue().split(b"\n")[:-1]]


@settings(max_examples=BURSTS, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.large_base_example])
@given(burst=st.lists(lines(BURST_COMMANDS), min_size=150, max_size=150))
def test_engine_process_keeps_serving_after_a_burst(burst):
    start = [b'{"id":"n","cmd":"new","game":"switchbacks","seed":5}', b'{"id":"d","cmd":"deal"}']
    tail = [b'{"id":"end","cmd":"position"}', b'{"id":"hi","cmd":"hello"}']
    # A line longer than the limit is refused too, and the engine reads on.
    huge = b'{"cmd":"apply","move":"' + b"x" * (1 << 20) + b'"}'
    sent = start + burst + [huge] + tail
    proc = subprocess.run([sys.executable, "-m", "solvers.cli.main", "engine"],
                          input=b"".join(line + b"\n" for line in sent) + b'{"id":"q","cmd":"quit"}\n',
                          capture_output=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert proc.stdout.isascii()
    replies = [json.loads(x) for x in proc.stdout.split(b"\n")[:-1]]
    for reply in replies:
        assert not schema_errors(reply), reply
        assert reply.get("error", {}).get("code") != "internal_error", reply
    assert replies[-1] == {"id": "q", "cmd": "quit", "result": {"bye": True}}
    assert replies[-2]["id"] == "hi" and replies[-2]["result"]["protocol"] == "solvers-engine"
    assert replies[-4]["error"]["code"] == "parse_error"              # the huge line
    # The process gives exactly the replies of an in-process engine fed the same lines.
    assert replies[:-1] == _in_process_replies(sent[:-3] + [None] + tail)
