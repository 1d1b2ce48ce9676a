"""Switchbacks positions as JSON: set up a game in the middle, save one.

A position is a JSON object; hexes are the ids of the map file (0..36 on the
standard board, 18 the centre) and tiles their numbers (1..37)::

    {
      "game": "switchbacks",
      "players": 2,
      "to_move": 0,
      "step": "explore",
      "just_explored": null,
      "map": {"18": 20, "17": 12, "11": 13},
      "hikers": [{"hex": 17, "player": 0, "kind": "solo"},
                 {"hex": 11, "player": 1, "kind": "solo"}],
      "hands": [[1, 2, 3], [4, 5, 6]],
      "set_aside": [[7, 8], [9, 10]],
      "unplaced": [{"solo": 15, "buddies": 0}, {"solo": 15, "buddies": 0}],
      "seed": 0
    }

Required: ``players``, ``map`` (hex -> tile), ``hikers`` (a list; ``kind``
is ``"solo"`` or ``"buddies"``), ``hands`` and ``set_aside`` (one list of
tiles per player), ``unplaced`` (each player's hikers not yet on the map:
solo hikers and waiting buddy pairs). Optional: ``game``; ``tiles`` (must be
the game's tile count); ``to_move`` and ``step`` (``"explore"`` by default,
``"hike"`` after exploring, ``"draw"`` before drawing, ``"over"`` at the end;
``just_explored`` names the hex explored this turn for ``"hike"`` and
``"draw"``); ``stack`` (top first; when it is left out the stack is every tile
not listed elsewhere, shuffled with ``SplitMix64(seed)``, ``seed`` 0 unless
given). Positions start after the setup deal.

The number of tiles on the map fixes how many turns have been played, hence
whose turn it is, every hand size and the stack size; a position must agree
with them. Each check failing raises one :class:`~solvers.errors.SolversError`
with a one-line message.

>>> pos = {"players": 2, "map": {"18": 20}, "hikers": [],
...        "hands": [[1, 2, 3], [4, 5, 6]], "set_aside": [[7, 8], [9, 10]],
...        "unplaced": [{"solo": 16, "buddies": 0}, {"solo": 16, "buddies": 0}]}
>>> state = load_position(pos, reference=True)
>>> state.current_player(), len(state.stack())
(0, 26)
>>> state_to_position(state)["hands"]
[[1, 2, 3], [4, 5, 6]]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import SolversError
from ...game import State
from ...rng import SplitMix64
from .data import SwitchbacksMap
from .reference import STEPS, Switchbacks

REQUIRED = ("players", "map", "hikers", "hands", "set_aside", "unplaced")
OPTIONAL = ("game", "tiles", "to_move", "step", "just_explored", "stack", "seed")
KINDS = {"solo": 1, "buddies": 2}


def _fail(what: str) -> SolversError:
    return SolversError(f"position: {what}")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _tile_list(value: Any, what: str, tiles: int) -> list[int]:
    if not isinstance(value, list) or not all(_is_int(t) for t in value):
        raise _fail(f"{what} should be a list of tile numbers")
    for t in value:
        if not 1 <= t <= tiles:
            raise _fail(f"{what} holds {t}, which is not a tile (1..{tiles})")
    return list(value)


def _per_player(value: Any, key: str, players: int) -> list[Any]:
    if not isinstance(value, list) or len(value) != players:
        raise _fail(f"{key!r} should be a list with one entry per player ({players})")
    return value


def expected_counts(game: Switchbacks, turns: int, mid_turn: bool) -> tuple[list[int], int]:
    """Hand sizes and stack size after ``turns`` complete turns (and the
    explore of the next turn when ``mid_turn``)."""
    p = game.num_players
    hands = [game.hand_size] * p
    stack = game.num_tiles - game.setup_deals
    for i in range(turns):
        hands[i % p] -= 1
        if stack:
            hands[i % p] += 1
            stack -= 1
    if mid_turn:
        hands[turns % p] -= 1
    return hands, stack


def parse_position(raw: Any, reference: bool = False,
                   map: SwitchbacksMap | str | None = None) -> State:
    """Check a decoded position and build the state (kernel unless ``reference``)."""
    if not isinstance(raw, dict):
        raise _fail("the top level should be a JSON object")
    if raw.get("game", "switchbacks") != "switchbacks":
        raise _fail(f"this is a position of {raw['game']!r}, not a Switchbacks position")
    unknown = [key for key in raw if key not in REQUIRED and key not in OPTIONAL]
    if unknown and not any(key in raw for key in REQUIRED):
        raise _fail(f"this is not a Switchbacks position (it has {unknown[0]!r} and none of "
                    f"{', '.join(repr(k) for k in REQUIRED)})")
    if unknown:
        raise _fail(f"unknown key {unknown[0]!r}")
    for key in REQUIRED:
        if key not in raw:
            raise _fail(f"missing key {key!r}")
    players = raw["players"]
    if not _is_int(players):
        raise _fail(f"'players' should be an integer, not {type(players).__name__}")
    game = Switchbacks(players=players, map=map)
    m, T, H = game.map, game.num_tiles, game.num_hexes
    if "tiles" in raw and raw["tiles"] != T:
        raise _fail(f"the position has {raw['tiles']!r} tiles but Switchbacks has {T}")

    # The map.
    if not isinstance(raw["map"], dict):
        raise _fail("'map' should map hexes to tiles")
    board: dict[int, int] = {}
    for key, tile in raw["map"].items():
        try:
            h = int(key)
        except (TypeError, ValueError):
            raise _fail(f"map key {key!r} is not a hex id") from None
        if not 0 <= h < H or str(h) != str(key).strip():
            raise _fail(f"map key {key!r} is not a hex id (0..{H - 1})")
        if h in board:
            raise _fail(f"hex {h} is listed twice in the map")
        if not _is_int(tile) or not 1 <= tile <= T:
            raise _fail(f"hex {h} holds {tile!r}, which is not a tile (1..{T})")
        board[h] = tile
    if m.centre not in board:
        raise _fail(f"the centre hex {m.centre} should hold the starting tile")

    hands = [_tile_list(x, f"the hand of player {q}", T)
             for q, x in enumerate(_per_player(raw["hands"], "hands", players))]
    aside = [_tile_list(x, f"the set-aside tiles of player {q}", T)
             for q, x in enumerate(_per_player(raw["set_aside"], "set_aside", players))]
    stack = None
    if raw.get("stack") is not None:
        stack = _tile_list(raw["stack"], "the stack", T)
    seen: set[int] = set()
    listed = list(board.values()) + [t for h in hands for t in h] + [t for s in aside for t in s]
    listed += stack or []
    for t in listed:
        if t in seen:
            raise _fail(f"tile {t} appears twice")
        seen.add(t)
    if stack is None:
        seed = raw.get("seed", 0)
        if not _is_int(seed):
            raise _fail(f"'seed' should be an integer, not {type(seed).__name__}")
        stack = sorted(set(range(1, T + 1)) - seen)
        SplitMix64(seed).shuffle(stack)
    elif len(listed) != T:
        raise _fail(f"the position holds {len(listed)} tiles but Switchbacks has {T}")

    # Hikers.
    if not isinstance(raw["hikers"], list):
        raise _fail("'hikers' should be a list of {hex, player, kind}")
    hikers: dict[int, tuple[int, int]] = {}
    for i, entry in enumerate(raw["hikers"]):
        if not isinstance(entry, dict) or set(entry) != {"hex", "player", "kind"}:
            raise _fail(f"hikers[{i}] should be {{\"hex\": h, \"player\": p, \"kind\": \"solo\" or \"buddies\"}}")
        h, q, kind = entry["hex"], entry["player"], entry["kind"]
        if not _is_int(h) or not 0 <= h < H:
            raise _fail(f"hikers[{i}] stands on {h!r}, which is not a hex id")
        if not _is_int(q) or not 0 <= q < players:
            raise _fail(f"hikers[{i}] belong to player {q!r}, but a {players}-player game "
                        f"has players 0 to {players - 1}")
        if kind not in KINDS:
            raise _fail(f"hikers[{i}] are {kind!r}; the kind is 'solo' or 'buddies'")
        if h not in board:
            raise _fail(f"hikers stand on hex {h}, which is not explored")
        if h == m.centre:
            raise _fail("hikers stand on the centre tile, which nobody explored")
        if h in hikers:
            if hikers[h][0] != q:
                raise _fail(f"hex {h} holds hikers of more than one player")
            raise _fail(f"hex {h} holds hikers of player {q} twice")
        hikers[h] = (q, KINDS[kind])
    unplaced = _per_player(raw["unplaced"], "unplaced", players)
    solo, buddies = [], []
    for q, u in enumerate(unplaced):
        if (not isinstance(u, dict) or set(u) != {"solo", "buddies"}
                or not all(_is_int(u[k]) and u[k] >= 0 for k in u)):
            raise _fail(f"unplaced[{q}] should be {{\"solo\": n, \"buddies\": n}} with n >= 0")
        solo.append(u["solo"])
        buddies.append(u["buddies"])
        total = u["solo"] + 2 * u["buddies"] + sum(c for o, c in hikers.values() if o == q)
        if total != game.hikers_each:
            raise _fail(f"player {q} has {total} hikers; a {players}-player game gives each "
                        f"{game.hikers_each}")

    # Whose turn, hand and stack sizes.
    step = raw.get("step", "explore")
    if step not in STEPS or step == "deal":
        raise _fail(f"step {step!r} should be 'explore', 'hike', 'draw' or 'over'")
    mid_turn = step in ("hike", "draw")
    just = raw.get("just_explored")
    if mid_turn:
        if not _is_int(just) or just not in board or just == m.centre:
            raise _fail(f"step {step!r} needs 'just_explored', an explored hex other than the centre")
        if step == "hike" and just in hikers:
            raise _fail(f"hikers already stand on hex {just}, explored this turn")
        if step == "draw" and not stack:
            raise _fail("there is nothing to draw: the stack is empty")
    elif just is not None:
        raise _fail(f"'just_explored' belongs to steps 'hike' and 'draw', not {step!r}")
    turns = len(board) - 1 - mid_turn
    total_turns = players * game.turns_each
    if turns > total_turns or (turns == total_turns and step != "over"):
        if step == "explore" and turns == total_turns:
            step = "over"
        else:
            raise _fail(f"{len(board)} tiles on the map do not fit step {step!r}")
    if step == "over" and turns != total_turns:
        raise _fail(f"the game is over only when all {total_turns + 1} tiles are on the map")
    want_hands, want_stack = expected_counts(game, turns, mid_turn)
    for q in range(players):
        if len(aside[q]) != game.set_aside_each:
            raise _fail(f"player {q} has {len(aside[q])} set-aside tiles; a {players}-player "
                        f"game gives each {game.set_aside_each}")
        if len(hands[q]) != want_hands[q]:
            raise _fail(f"player {q} holds {len(hands[q])} tiles but should hold {want_hands[q]} "
                        f"with {len(board)} tiles on the map")
    if len(stack) != want_stack:
        raise _fail(f"the stack has {len(stack)} tiles but should have {want_stack} "
                    f"with {len(board)} tiles on the map")
    player = turns % players if step != "over" else (total_turns - 1) % players
    to_move = raw.get("to_move", player)
    if step != "over" and to_move != player:
        raise _fail(f"with {len(board)} tiles on the map it is player {player}'s turn, "
                    f"not {to_move!r}'s")
    # Each turn buddies up or places hikers at most once.
    for q in range(players):
        done = turns // players + (1 if q < turns % players else 0)
        if step == "draw" and q == player:
            done += 1
        moves = sum(1 for o, c in hikers.values() if o == q) + buddies[q] + sum(
            1 for o, c in hikers.values() if o == q and c == 2)
        if moves > done:
            raise _fail(f"player {q} made {moves} hiking moves in {done} turns")

    state = game.new_initial_state(0)
    dealt = sorted(set(range(1, T + 1)) - set(stack))
    state.order = dealt + list(stack)
    state.pos = len(dealt)
    state.board = board
    state.hikers = hikers
    state.hands = [set(h) for h in hands]
    state.set_aside = [set(s) for s in aside]
    state.solo, state.buddies = solo, buddies
    state.player = player
    state.step = step
    state.just_explored = just if mid_turn else None
    if step == "hike":
        state._settle_hike()
    if reference:
        return state
    from .kernel import SwitchbacksKernel

    return SwitchbacksKernel(players=players, map=game.map).from_reference(state)


def load_position(path_or_dict: str | Path | dict[str, Any], reference: bool = False,
                  map: SwitchbacksMap | str | None = None) -> State:
    """A state from a position file or an already decoded dict (kernel state
    unless ``reference``)."""
    if isinstance(path_or_dict, dict):
        return parse_position(path_or_dict, reference, map)
    from ...data import read_json

    return parse_position(read_json(path_or_dict, "position file"), reference, map)


def state_to_position(state: Any) -> dict[str, Any]:
    """The position of a state (reference or kernel) as a JSON-friendly dict;
    ``load_position`` of it gives the same position back."""
    if state.step == "deal":
        raise SolversError("position: positions start after the setup deal")
    g = state.game
    return {
        "game": "switchbacks",
        "players": g.num_players,
        "tiles": g.num_tiles,
        "to_move": state.player,
        "step": state.step,
        "just_explored": state.just_explored,
        "map": {str(h): t for h, t in sorted(state.board.items())},
        "hikers": [
            {"hex": h, "player": o, "kind": "solo" if c == 1 else "buddies"}
            for h, (o, c) in sorted(state.hikers.items())
        ],
        "hands": [sorted(h) for h in state.hands],
        "set_aside": [sorted(s) for s in state.set_aside],
        "unplaced": [{"solo": s, "buddies": b} for s, b in zip(state.solo, state.buddies, strict=True)],
        "stack": list(state.order[state.pos:]),
    }


__all__ = ["load_position", "parse_position", "state_to_position", "expected_counts"]
