"""Game records (solvers.record): round trips for every game, replays that
match the reference implementation, seat records that hide what the seat
cannot see (twin games give the same bytes), and one-line errors for bad
files."""

from __future__ import annotations

import json

import pytest

import solvers
from random_play import random_game
from seat_twins import twin_positions
from solvers.engine.positions import load_position
from solvers.errors import SolversError
from solvers.files import MAX_FILE_BYTES
from solvers.record import Recorder, dumps, load_record, record_game, save_record
from solvers.rng import SplitMix64

CASES = [("c2c", 1), ("c2c", 2), ("switchbacks", 2), ("bigsur", 2), ("santacruz", 2)]


@pytest.fixture(scope="module")
def games():
    return {case: random_game(*case) for case in CASES}


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("seat", [None, 0])
def test_round_trip(games, case, seat, tmp_path):
    name, players = case
    actions, end = games[case]
    game = solvers.load_game(name, players)
    raw = record_game(game, actions, seat=seat, names=[f"p{k}" for k in range(players)],
                      meta={"note": "test"})
    assert raw["format"] == "solvers-record" and raw["game"] == name and raw["seat"] == seat
    assert len(raw["steps"]) == len(actions)
    assert raw["final"]["returns"] == [float(r) for r in end.returns()]
    path = tmp_path / "game.json"
    save_record(path, raw)
    rec = load_record(path)
    assert dumps(rec.to_json()) == dumps(raw) == path.read_text()
    assert rec.names == [f"p{k}" for k in range(players)] and rec.meta == {"note": "test"}
    hidden = [s for s in rec.steps if s.action is None]
    if seat is None:
        assert not hidden and [s.action for s in rec.steps] == actions
    for i in rec.decisions():
        assert rec.steps[i].mover == (rec.steps[i].mover if seat is None else seat)


@pytest.mark.parametrize("case", CASES)
def test_referee_replay_matches_the_reference(games, case):
    """state_at(i) of a referee record is the state before step i, as the
    reference implementation plays the same actions."""
    name, players = case
    actions, _ = games[case]
    rec = load_record(record_game(solvers.load_game(name, players), actions))
    ref = solvers.load_game(name, players, reference=True).new_initial_state(seed=0)
    for i in range(0, len(actions) + 1, max(1, len(actions) // 12)):
        while len(ref.history) < i:
            ref.apply_action(actions[len(ref.history)])
        got = rec.state_at(i)
        assert got.current_player() == ref.current_player(), i
        assert got.is_terminal() == ref.is_terminal()
        if not ref.is_terminal() and not ref.is_chance_node():
            assert sorted(got.legal_actions()) == sorted(ref.legal_actions()), i
        assert list(got.scores()) == list(ref.scores()), i
        for p in range(players):
            assert got.information_state(p) == ref.information_state(p), (i, p)
    end = rec.state_at(len(actions))
    assert end.is_terminal() and list(end.returns()) == rec.returns


def test_recorder_matches_record_game():
    game = solvers.load_game("switchbacks", 2)
    actions, _ = random_game("switchbacks", 2, plies=30)
    state = game.new_initial_state(seed=3)
    rec = Recorder(game, state, seat=1)
    for a in actions:
        rec.step(state, a)
        state.apply_action(a)
    assert dumps(rec.to_json(state)) == dumps(record_game(game, actions, seat=1))
    assert "returns" not in rec.to_json(state)["final"]


@pytest.mark.parametrize("name", ["c2c", "switchbacks", "bigsur", "santacruz"])
def test_twins_give_the_same_seat_record(name):
    """Two games that differ only in what seat 0 cannot see: byte-identical
    seat-0 records; the records of the seat that saw the difference (and
    the referee's) differ."""
    a, b, _ = twin_positions(name, 2)
    recs = {}
    for key, pos in (("a", a), ("b", b)):
        _, state, _ = load_position(pos)
        game = state.game
        recs[key] = {seat: dumps(record_game(game, list(state.history), seat=seat, seed=pos["seed"]))
                     for seat in (0, 1, None)}
    assert recs["a"][0] == recs["b"][0]
    assert recs["a"][None] != recs["b"][None]
    if name != "santacruz":          # there the twins differ in what nobody sees
        assert recs["a"][1] != recs["b"][1]


def test_seat_record_hides_moves_and_rebuilds_the_view():
    actions, _ = random_game("switchbacks", 2)
    game = solvers.load_game("switchbacks", 2)
    rec = load_record(record_game(game, actions, seat=0))
    hidden = [i for i, s in enumerate(rec.steps) if s.action is None]
    assert hidden and all(rec.steps[i].mover != 0 for i in hidden)
    from solvers.agents.base import seat_view
    state = game.new_initial_state(seed=3)
    for i, a in enumerate(actions):
        if rec.steps[i].mover == 0:
            view = rec.state_at(i)
            assert view.information_state(0) == seat_view(state, 0).information_state(0)
        state.apply_action(a)


def test_old_saved_game_converts():
    actions, end = random_game("c2c", 1, seed=4)
    state = solvers.load_game("c2c", 1).new_initial_state(seed=4)
    moves = []
    for a in actions:
        moves.append(state.action_to_string(a))
        state.apply_action(a)
    rec = load_record({"game": "c2c", "players": 1, "options": {}, "seed": 4, "moves": moves})
    assert rec.seat is None and [s.action for s in rec.steps] == actions
    assert rec.returns == list(end.returns())


def _one_line(e: SolversError) -> str:
    text = str(e)
    assert "\n" not in text and text
    return text


@pytest.fixture(scope="module")
def good():
    actions, _ = random_game("c2c", 1)
    return record_game(solvers.load_game("c2c", 1), actions)


def test_bad_records(good, tmp_path):
    def refused(raw, words):
        with pytest.raises(SolversError) as e:
            load_record(raw)
        assert words in _one_line(e.value), str(e.value)

    path = tmp_path / "bad.json"
    path.write_text("not json")
    refused(str(path), "not valid JSON")
    path.write_text(dumps(good)[:200])
    refused(str(path), "not valid JSON")                      # truncated
    with open(tmp_path / "huge.json", "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    refused(str(tmp_path / "huge.json"), "huge.json")
    path.write_text("[1, 2]")
    refused(str(path), "JSON object")
    refused({**good, "format": "other"}, "not a game record")
    refused({**good, "version": 9}, "version")
    refused({**good, "colour": 1}, "unknown key")
    refused({**good, "game": "chess"}, "chess")
    refused({**good, "players": 7}, "players")
    refused({**good, "steps": "x"}, "steps")
    steps = [dict(s) for s in good["steps"]]
    decision = next(i for i, s in enumerate(steps) if s["mover"] == 0)
    steps[decision] = {**steps[decision], "action": 10 ** 6}
    refused({**good, "steps": steps}, f"step {decision}")     # an illegal move
    steps = [dict(s) for s in good["steps"]]
    steps[decision] = {**steps[decision], "move": "something else"}
    refused({**good, "steps": steps}, "is not action")
    refused({**good, "steps": good["steps"][:5] + good["steps"][6:]}, "record: step")
    refused({**good, "final": {**good["final"], "returns": [999.0]}}, "returns")
    refused({**good, "steps": [{"mover": 0}]}, "step 0")
    with pytest.raises(SolversError):
        save_record(tmp_path / "no" / "such" / "dir.json", good)


# ------------------------------------------------ kernel views (record_view)
KERNEL_CASES = [("c2c", 2), ("santacruz", 2)]
# Big Sur writes kernel views too, at its own decisions and chance steps
# (another seat's face-down payment is not rebuilt: no stand-ins there).
VIEW_GAMES = [n for n, _ in KERNEL_CASES] + ["bigsur"]


@pytest.fixture(scope="module")
def kernel_records():
    """A seat-0 record of a whole random game of each case, and the states
    of the game before each step (the last: the end)."""
    out = {}
    for name, players in KERNEL_CASES:
        game = solvers.load_game(name, players)
        actions, _ = random_game(name, players, seed=5)
        state = game.new_initial_state(seed=5)
        states = []
        for a in actions:
            states.append(state.clone())
            state.apply_action(a)
        states.append(state)
        out[name] = (record_game(game, actions, seat=0, seed=5), states)
    return out


@pytest.mark.parametrize("name", [n for n, _ in KERNEL_CASES])
def test_kernel_view_seat_records_rebuild_every_step(kernel_records, name):
    """Every step of a seat record loads, and the seat knows there what it
    knew in the game (its information state)."""
    raw, states = kernel_records[name]
    rec = load_record(raw)
    assert len(states) == len(rec.steps) + 1
    hidden = [i for i, s in enumerate(rec.steps) if s.action is None]
    assert hidden, "the game should hide some moves from seat 0"
    for i, state in enumerate(states):
        view = rec.state_at(i)
        assert view.information_state(0) == state.information_state(0), i
        assert view.current_player() == state.current_player(), i
    # The seat's own steps always hold a position (the review starts there).
    own = [s for s in rec.steps if s.mover == 0]
    assert own and all(s.position is not None and s.position["view"] == "kernel-raw" for s in own)


def test_without_stand_ins_c2c_cannot_rebuild_another_seat_s_turn(kernel_records, monkeypatch):
    """The control of the test above: Coast to Coast writes no position
    while another seat plays its turn, so without stand-in moves those steps
    do not rebuild."""
    import dataclasses

    from solvers import record as record_module

    raw, _ = kernel_records["c2c"]
    info = record_module._info("c2c")
    monkeypatch.setattr(record_module, "_info",
                        lambda name: dataclasses.replace(info, record_stand_ins=False))
    rec = load_record(raw)
    blank = [i for i, s in enumerate(rec.steps) if s.position is None]
    assert blank
    with pytest.raises(SolversError):
        for i in blank:
            rec.state_at(i + 1)


@pytest.mark.parametrize("name", [n for n, _ in KERNEL_CASES])
def test_kernel_view_twins(name):
    """Twin games (they differ only in what seat 0 cannot see) give the same
    seat-0 record, which holds kernel views and rebuilds every step; the
    referee's records of the twins differ."""
    a, b, _ = twin_positions(name, 2)
    texts, referee = [], []
    for pos in (a, b):
        _, state, _ = load_position(pos)
        raw = record_game(state.game, list(state.history), seat=0, seed=pos["seed"])
        texts.append(dumps(raw))
        referee.append(dumps(record_game(state.game, list(state.history), seed=pos["seed"])))
        rec = load_record(raw)
        assert sum(s.position is not None and s.position.get("view") == "kernel-raw"
                   for s in rec.steps) >= len(rec.steps) // 2
        for i in range(len(rec.steps) + 1):
            rec.state_at(i)
    assert texts[0] == texts[1]
    assert referee[0] != referee[1]


def test_santa_cruz_referee_records_keep_the_game_s_own_positions():
    actions, _ = random_game("santacruz", 2, plies=12)
    raw = record_game(solvers.load_game("santacruz", 2), actions)
    assert all(s["position"]["game"] == "santacruz" and "moves" in s["position"] for s in raw["steps"])
    assert load_record(raw).state_at(12).information_state(1) is not None


@pytest.mark.parametrize("change,words", [
    (lambda p: {**p, "data": ("A" if p["data"][5] != "A" else "B").join([p["data"][:5], p["data"][6:]])},
     "step"),
    (lambda p: {**p, "data": "not base64!"}, "not base64"),
    (lambda p: {**p, "data": "aGVsbG8="}, "not a compressed state"),
    (lambda p: {**p, "bytes": p["bytes"] + 1}, "bytes"),
    (lambda p: {**p, "check": "0" * 16}, "does not match its 'check'"),
    (lambda p: {**p, "view": "other"}, "unknown view"),
    (lambda p: {**p, "colour": 1}, "unknown key"),
    (lambda p: {k: v for k, v in p.items() if k != "check"}, "'check'"),
])
@pytest.mark.parametrize("name", [n for n, _ in KERNEL_CASES])
def test_a_corrupted_kernel_view_is_one_line(kernel_records, name, change, words):
    raw, _ = kernel_records[name]
    own = next(i for i, s in enumerate(raw["steps"]) if s["mover"] == 0 and i > 3)
    steps = [dict(s) for s in raw["steps"]]
    steps[own]["position"] = change(steps[own]["position"])
    with pytest.raises(SolversError) as e:
        load_record({**raw, "steps": steps}).state_at(own)
    text = _one_line(e.value)
    assert f"step {own}" in text and words in text, text


@pytest.mark.parametrize("name", VIEW_GAMES)
def test_kernel_views_are_canonical(name):
    """At every step of a game, the view written for a seat is the same
    after everything the seat cannot see is dealt afresh (resample): it
    holds nothing of the hidden deal."""
    from solvers.registry import game_info, load_object

    save = load_object(game_info(name).record_view.save)
    game = solvers.load_game(name, 2)
    state = game.new_initial_state(seed=2)
    rng = SplitMix64(9)
    written = 0
    while not state.is_terminal():
        for seat in (0, 1):
            pos = save(state, seat)
            if pos is not None:
                written += 1
                assert save(state.resample(seat, SplitMix64(rng.next())), seat) == pos
        legal = state.legal_actions()
        state.apply_action(state.seeded_outcome() if state.is_chance_node()
                           else legal[rng.below(len(legal))])
    assert written > 50


def test_a_kernel_view_written_by_another_installation_never_reaches_the_kernel(
        kernel_records, monkeypatch):
    """Kernel views are signed with this installation's key: the same
    record signed with another key (a file from someone else, or forged)
    is refused at a step that needs its view, in one line, before any
    struct is handed to the kernel; with this installation's key it loads."""
    import solvers.record as rec

    raw, _ = kernel_records["santacruz"]
    own = next(i for i, s in enumerate(raw["steps"]) if s["mover"] == 0 and i > 3
               and (s.get("position") or {}).get("view") == rec.KERNEL_VIEW)
    assert load_record(raw).state_at(own) is not None          # control: our own key
    monkeypatch.setattr(rec, "_KEY", b"another installation's secret!!")
    reached = []
    monkeypatch.setattr(type(solvers.load_game("santacruz", 2)), "state_from_raw",
                        lambda self, blob: reached.append(blob), raising=False)
    with pytest.raises(SolversError) as e:
        load_record(raw).state_at(own)
    text = _one_line(e.value)
    assert f"step {own}" in text and "another installation" in text, text
    assert reached == []
