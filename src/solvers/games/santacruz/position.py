"""Santa Cruz positions as JSON: a game's seed and its moves, replayed.

A Santa Cruz position holds much that nobody sees (face-down tiles, the
scoring pile, bird tokens), so a position file is the record of a game
rather than a snapshot: the player count, optionally an island file, the
seed that shuffled the tiles, cards and bird bag, and the moves so far, each
as its words (``"choose set A (River)"``, ``"land on site 13"``, ``"play
double road"``) or its action id. Chance moves may be written too (``"lay
church 3 sheep on site 6"``, ``"deal Coast to player 1"``); a chance move
left out is taken from the seed. This is also how a real game is entered:
write the tiles as they were laid and the cards as they were dealt.

>>> data = {"game": "santacruz", "players": 2, "seed": 3,
...         "moves": ["choose set A (River)", "choose set C (Ship)"]}
>>> state = parse_position(data)
>>> state.step, state.player, state.score
('land', 1, [1, 0])
>>> state_to_position(state)["moves"][-2:]
['choose set A (River)', 'choose set C (Ship)']
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...data import read_json
from ...errors import SolversError

KEYS = {"game", "players", "seed", "board", "moves"}


def _fail(what: str) -> SolversError:
    return SolversError(f"position: {what}")


def parse_position(data: Any, reference: bool = False) -> Any:
    """The state a position dict describes (the kernel's, or the reference's
    with ``reference=True``); one-line SolversError for a bad position."""
    from .kernel import SantaCruzKernel
    from .reference import SantaCruz

    if not isinstance(data, dict):
        raise _fail("should be a JSON object")
    extra = sorted(set(data) - KEYS)
    if extra:
        raise _fail(f"unknown key {extra[0]!r} (known: {', '.join(sorted(KEYS))})")
    if data.get("game", "santacruz") != "santacruz":
        raise _fail(f"this is a {data['game']!r} position, not a Santa Cruz one")
    for key in ("players", "seed"):
        if key not in data:
            raise _fail(f"missing key {key!r}")
        if isinstance(data[key], bool) or not isinstance(data[key], int):
            raise _fail(f"{key!r} should be an integer")
    board = data.get("board")
    if board is not None and not isinstance(board, str):
        raise _fail("'board' should be the path of an island file")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise _fail("'moves' should be a list")
    cls = SantaCruz if reference else SantaCruzKernel
    game = cls(players=data["players"], board=board)
    state = game.new_initial_state(seed=data["seed"])
    for i, move in enumerate(moves):
        if isinstance(move, bool) or not isinstance(move, (int, str)):
            raise _fail(f"move {i + 1} should be words or an action id, not {move!r}")
        while True:
            action = _action(state, move)
            if action is not None:
                break
            if not state.is_chance_node():
                shown = move if isinstance(move, str) else f"action {move}"
                raise _fail(f"move {i + 1} ({shown!r}) is not legal here "
                            f"({state.step} step, player {state.current_player()})")
            state.apply_action(state.seeded_outcome())
        state.apply_action(action)
    state.apply_seeded_chance()
    return state


def _action(state: Any, move: int | str) -> int | None:
    """The legal action ``move`` names in ``state``, or None."""
    if state.is_terminal():
        return None
    if isinstance(move, int):
        return move if move in state.legal_actions() else None
    try:
        return state.string_to_action(move)
    except SolversError:
        return None


def load_position(path: str | Path, reference: bool = False) -> Any:
    """The state of a position file."""
    return parse_position(read_json(path, "position file"), reference=reference)


def state_to_position(state: Any) -> dict[str, Any]:
    """The position dict that replays to ``state`` (its seed and history;
    decisions in words, chance moves as action ids)."""
    if getattr(state, "seed", None) is None:
        raise SolversError("position: this state was not played from a seed, so it has no record")
    replay = state.game.new_initial_state(seed=state.seed)
    moves: list[int | str] = []
    for action in state.history:
        # chance moves as ids: tiles that look alike are still different tiles
        moves.append(action if replay.is_chance_node() else replay.action_to_string(action))
        replay.apply_action(action)
    data: dict[str, Any] = {"game": "santacruz", "players": state.game.num_players,
                            "seed": state.seed, "moves": moves}
    if state.game.island.source != "built-in":
        data["board"] = state.game.island.source
    return data
