"""Twin games for the seat-mode tests: two history positions that differ only
in what seat 0 cannot see, and a scripted seat-mode session over them.

Shared by tests/test_seat_mode.py (the Python Session and ``solve engine``)
and tests/test_web.py (the raw WebSocket of ``solve serve``).

A twin is found the same way for every game: play a game at random, then
take a move that seat 0 did not see whole (a card dealt to another hand, a
face-down tile, a set-aside tile, another seat's mark on its sheet during a
round) and put another move in its place that seat 0 would have read in the
same words; keep the first such swap after
which the rest of the history still replays and seat 0's information state
is the same. The twins then share every public move and seat 0's own cards.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

import solvers
from solvers.engine import Session
from solvers.engine.positions import load_position
from solvers.errors import SolversError
from solvers.rng import SplitMix64

#: Every game with hidden information, at every count of 2 to 4 players.
CASES = [(game, players) for game in ("c2c", "switchbacks", "bigsur", "santacruz")
         for players in (2, 3, 4)]
#: How far into a game the twins are made (plies, chance outcomes included).
# None: just after the first decision seat 0 does not see whole.
TWIN_PLY: dict[str, int | None] = {"c2c": None, "switchbacks": 16, "bigsur": 30, "santacruz": 40}
ITERATIONS = 30          # the budget of every go in the scripts: small and exact (not timed)
MAX_REQUESTS = 40


def history(game: str, players: int, seed: int, plies: int) -> list[str]:
    """The move strings of a game played at random (chance as seeded)."""
    state = solvers.load_game(game, players=players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    moves = []
    while len(moves) < plies and not state.is_terminal():
        legal = state.legal_actions()
        action = state.seeded_outcome() if state.is_chance_node() else legal[rng.below(len(legal))]
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


@cache
def twin_positions(game: str, players: int, seed: int = 1) -> tuple[dict, dict, str]:
    """Two history positions, equal for seat 0, and the full string of the
    hidden move in which the first differs from the second (cached: do not
    change them)."""
    start = TWIN_PLY[game]
    if start is None:
        start = _after_first_hidden_decision(game, players, seed)
    for plies in range(start, 0, -1):
        found = _twins_at(game, players, seed, plies)
        if found is not None:
            return found
    raise AssertionError(f"no twin found for {game} with {players} players")


def _after_first_hidden_decision(game: str, players: int, seed: int) -> int:
    """The ply just after the first decision that seat 0 does not see whole
    after the setup (Coast to Coast: another seat's first mark of round 1, so
    that the twins stay alike while the others mark their sheets)."""
    moves = history(game, players, seed, 200)
    _, state, _ = load_position({"game": game, "players": players, "seed": seed, "moves": []})
    for i, text in enumerate(moves):
        action = state.string_to_action(text)
        if (not state.is_chance_node() and state.observed_move(action, 0) != text
                and getattr(state, "round", 1) >= 1):       # past Coast to Coast's setup
            return i + 1
        state.apply_action(action)
    raise AssertionError(f"{game}: no hidden decision in the first 200 plies")


def _twins_at(game: str, players: int, seed: int, plies: int) -> tuple[dict, dict, str] | None:
    moves = history(game, players, seed, plies)
    position = {"game": game, "players": players, "seed": seed, "moves": moves}
    _, end, _ = load_position(position)
    for i in reversed(range(len(moves))):
        _, before, _ = load_position({**position, "moves": moves[:i]})
        action = before.string_to_action(moves[i])
        seen = before.observed_move(action, 0)
        if seen == moves[i]:
            continue
        others = ([a for a, _ in before.chance_outcomes()] if before.is_chance_node()
                  else before.legal_actions())
        for other in others:
            if other == action or before.observed_move(other, 0) != seen:
                continue
            twin = {**position, "moves": moves[:i] + [before.action_to_string(other)] + moves[i + 1:]}
            try:
                _, twin_end, _ = load_position(twin)
            except SolversError:
                continue        # a later move used the card that is gone now
            if (twin_end.information_state(0) == end.information_state(0)
                    and twin_end.current_player() == end.current_player()):
                return position, twin, moves[i]
    return None


def seat_script(a: Session, b: Session, position_a: dict, position_b: dict,
                seats: list[int] = [0]) -> tuple[list[dict], list[dict], list[dict], list[str]]:
    """Drive the twins through one seat-mode session in lockstep, for as
    long as seat 0 cannot tell them apart (its information state is equal).

    Returns the requests for twin a and for twin b (they differ only in the
    position loaded), twin a's replies, and the full strings of the moves
    that seat 0 did not see whole in that stretch (from twin a's record)."""
    first = [{"id": 0, "cmd": "position", "position": position_a, "seats": seats},
             {"id": 0, "cmd": "position", "position": position_b, "seats": seats}]
    requests: list[dict] = []
    replies: list[dict] = []
    kept = [0]           # the moves played in the stretch (twin a's record)

    def step(request: dict, request_b: dict | None = None) -> dict | None:
        reply = a.handle(request)
        b.handle(request_b or request)
        if a.state.information_state(0) != b.state.information_state(0):
            return None          # now seat 0 can tell them apart: the stretch ends here
        requests.append(request)
        replies.append(reply)
        kept[0] = len(a.moves)
        return reply

    reply = step(first[0], first[1])
    assert reply is not None and "result" in reply, reply
    start = len(a.moves)
    n = 1
    for probe in ({"cmd": "position"}, {"cmd": "state", "seat": 1}, {"cmd": "legal"}):
        step({"id": n, **probe})
        n += 1
    while len(requests) < MAX_REQUESTS:
        status = a.status()
        if status["phase"] == "over":
            break
        if status["phase"] == "chance":
            request = {"cmd": "deal", "count": 1}
        elif status["to_move"] in seats:
            if step({"id": n, "cmd": "state"}) is None:
                break
            hint = step({"id": n + 1, "cmd": "go", "iterations": ITERATIONS})
            if hint is None:
                break
            n += 2
            request = {"cmd": "apply", "action": hint["result"]["action"]}
        else:
            request = {"cmd": "go", "iterations": ITERATIONS}
        if step({"id": n, **request}) is None:
            break
        n += 1
    # The moves of the stretch that seat 0 read only in part, as the referee writes them.
    _, state, _ = load_position(position_a)
    hidden = []
    for text in a.moves[start:kept[0]]:
        action = state.string_to_action(text)
        if state.observed_move(action, 0) != text:
            hidden.append(text)
        state.apply_action(action)
    return requests, [first[1]] + requests[1:], replies, hidden


def referee_requests(requests: list[dict], players: int) -> list[dict]:
    """The same session in referee mode: no seats; the engine's own moves
    become a go and an apply of the move it names; every seat's state and
    the saved position at the end."""
    out = []
    for r in requests:
        r = {k: v for k, v in r.items() if k not in ("seats", "view")}
        if r["cmd"] == "state" and "seat" not in r:
            r["seat"] = 0
        out.append(r)
    out += [{"id": "s%d" % s, "cmd": "state", "seat": s} for s in range(players)]
    out.append({"id": "save", "cmd": "position"})
    return out


def run(ask: Callable[[dict], Any], requests: list[dict]) -> list[str]:
    """Each reply of ``requests`` as the line the engine writes."""
    return [normal(ask(r)) for r in requests]


def normal(reply: Any) -> str:
    """A reply as one line of JSON with its wall time (``seconds``, the one
    field that is not a function of the requests) set to 0."""
    text = reply if isinstance(reply, str) else json.dumps(reply, separators=(",", ":"))
    return re.sub(r'"seconds":[-+0-9.eE]+', '"seconds":0', text.strip())


def referee_run(session: Session, requests: list[dict]) -> list[str]:
    """Referee mode: a go for a seat the seat-mode session let the engine
    play is followed by applying the move it chose."""
    lines = []
    for r in requests:
        seat_to_move = session.state.current_player() if session.state is not None else None
        reply = session.handle(r)
        lines.append(normal(reply))
        if r["cmd"] == "go" and "result" in reply and seat_to_move != 0:
            lines.append(normal(session.handle({"cmd": "apply", "action": reply["result"]["action"]})))
    return lines


def assert_twins_draw_alike(name: str, players: int, draw) -> None:
    """``draw(state, seat, color)`` (a terminal renderer) shows seat 0 the
    same screen, in colour and without, on the twins of ``name``; the
    control: the full view (seat None) tells them apart."""
    from solvers.engine.positions import load_position

    a, b, hidden = twin_positions(name, players)
    _, one, _ = load_position(a)
    _, two, _ = load_position(b)
    for state in (one, two):
        state.apply_seeded_chance()
    assert draw(one, 0, color=True) == draw(two, 0, color=True)
    assert draw(one, 0, color=False) == draw(two, 0, color=False)
    assert draw(one, None, color=False) != draw(two, None, color=False), hidden
