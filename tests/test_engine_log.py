"""The ``log`` and ``public_scores`` of the engine's ``state`` reply: every
move as the viewing seat reads it, and the scores that seat may know.

Hidden information: twin positions that differ only in a move seat 0 did
not see whole (tests/seat_twins.py) give seat 0 the same log and the same
public scores; the control is the seat that did see that move, whose logs
tell the twins apart.
"""

from __future__ import annotations

import pytest

from seat_twins import CASES, twin_positions
from solvers.engine import Session
from solvers.engine.positions import load_position


def ok(session: Session, request: dict) -> dict:
    reply = session.handle(request)
    assert "result" in reply, reply
    return reply["result"]


def loaded(position: dict, seats: list[int] | None = None) -> Session:
    session = Session()
    request = {"cmd": "position", "position": position}
    if seats is not None:
        request["seats"] = seats
    ok(session, request)
    return session


def test_the_log_of_a_solo_game_by_hand():
    session = Session()
    ok(session, {"cmd": "new", "game": "c2c", "seed": 3, "options": {"challenge": "The Alamo"}})
    dealt = ok(session, {"cmd": "deal"})["moves"]
    move = ok(session, {"cmd": "legal"})["moves"][0]
    ok(session, {"cmd": "apply", "action": move["action"]})
    st = ok(session, {"cmd": "state"})
    assert [e["move"] for e in st["log"]] == dealt + [move["move"]]
    assert [e["mover"] for e in st["log"]] == ["chance"] * len(dealt) + [0]
    assert st["log"][-1]["action"] == move["action"]
    assert all(e["action"] is not None for e in st["log"])      # solo: nothing hidden
    assert st["public_scores"] == [st["score"]]
    # undo takes the moves off the log; a position loaded again replays it.
    ok(session, {"cmd": "undo", "ply": len(dealt)})
    assert ok(session, {"cmd": "state"})["log"] == st["log"][:-1]
    position = ok(session, {"cmd": "position"})["position"]
    assert ok(loaded(position), {"cmd": "state"})["log"] == st["log"][:-1]


def test_a_hidden_move_reads_as_the_table_sees_it():
    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "players": 2, "seed": 1})
    ok(session, {"cmd": "deal", "count": 2})       # the centre tile, a tile set aside for seat 0
    for seat, whole in ((0, True), (1, False)):
        entry = ok(session, {"cmd": "state", "seat": seat})["log"][1]
        assert entry["mover"] == "chance"
        assert (entry["action"] is not None) is whole
        assert (entry["move"] == "set aside a tile for player 0") is not whole


@pytest.mark.parametrize("game,players", CASES)
def test_twins_give_seat_0_the_same_log(game, players):
    a, b, differ = twin_positions(game, players)
    views = [ok(loaded(p), {"cmd": "state", "seat": 0}) for p in (a, b)]
    assert views[0]["log"] == views[1]["log"]
    assert views[0]["public_scores"] == views[1]["public_scores"]
    assert differ not in [e["move"] for e in views[0]["log"]]
    # In seat mode too (the page's way), and the same there.
    seat_mode = [ok(loaded(p, [0]), {"cmd": "state"}) for p in (a, b)]
    assert seat_mode[0]["log"] == seat_mode[1]["log"] == views[0]["log"]
    # Control: the seat that saw the move whole reads the twins apart.
    texts = {}
    for p in (a, b):
        _, state, moves = load_position(p)
        texts[p["moves"] == a["moves"]] = moves
    i = next(k for k, (x, y) in enumerate(zip(texts[True], texts[False])) if x != y)
    session = loaded(a)
    witnesses = [s for s in range(players)
                 if ok(session, {"cmd": "state", "seat": s})["log"][i]["move"] == differ]
    if not witnesses:           # a face-down tile: nobody sees it, but the twins differ
        assert texts[True][i] == differ != texts[False][i]
        return
    logs = [ok(loaded(p), {"cmd": "state", "seat": witnesses[0]})["log"] for p in (a, b)]
    assert logs[0] != logs[1]


def test_public_scores_hide_what_is_unseen_and_show_the_rest():
    # Switchbacks: the map and the hikers are public, so every score is.
    session = Session()
    ok(session, {"cmd": "new", "game": "switchbacks", "players": 2, "seed": 5})
    ok(session, {"cmd": "deal"})
    st = ok(session, {"cmd": "state", "seat": 0})
    assert st["public_scores"] == [int(x) for x in session.state.scores()]


@pytest.mark.parametrize("game", ["c2c", "switchbacks", "bigsur", "santacruz"])
def test_the_log_reads_as_a_record_through_the_seat(game):
    """The log agrees with solvers.record (written independently): each step's
    mover, move and action of a record through seat 1."""
    from solvers.record import Recorder
    from solvers.rng import SplitMix64

    session = Session()
    ok(session, {"cmd": "new", "game": game, "players": 3 if game != "c2c" else 2, "seed": 11})
    state = session.state
    recorder = Recorder(state.game, state.clone(), seat=1)
    rng = SplitMix64(5)
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = state.seeded_outcome()
        else:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))]
        recorder.step(state, action)
        ok(session, {"cmd": "apply", "action": action})
    log = ok(session, {"cmd": "state", "seat": 1})["log"]
    assert log == [{k: s[k] for k in ("mover", "move", "action")} for s in recorder.steps]
    assert any(e["action"] is None for e in log)        # something was hidden from seat 1
