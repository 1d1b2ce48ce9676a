"""Positions for the engine protocol: load, save, and the per-game hooks.

Every game has the **history position**, a game built from its options and
seed and then the moves from the start, as a person would write them::

    {"game": "c2c", "players": 1, "options": {"challenge": "The Alamo"},
     "seed": 3, "moves": ["deal Beale Street", "deal Freedom Trail"]}

A game with a position format of its own (Switchbacks: a map, hands, a
stack; :mod:`solvers.games.switchbacks.position`) may also be loaded in that
format, bare or as the ``start`` of a history position::

    {"game": "switchbacks", "players": 2, "start": {...}, "moves": ["explore 3 on hex 17"]}

A game added later needs nothing here: it gets the history position for
free, and may declare a native format in its record
(:class:`solvers.registry.GameInfo` ``position``).

>>> setup, state, moves = load_position({"game": "c2c", "seed": 3, "moves": []})
>>> setup["game"], state.is_chance_node(), moves
('c2c', True, [])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

import solvers

from ..errors import SolversError
from ..game import Game, State
from ..limits import check_seed
from ..registry import game_info

HISTORY_KEYS = ("game", "players", "options", "seed", "moves", "start")
MAX_MOVES = 10_000


def native_format(name: str) -> tuple[Callable[[dict[str, Any]], State],
                                      Callable[[State], dict[str, Any]]] | None:
    """(load, save) of a game's own position format, from its record, or
    None: ``load(dict) -> State`` (a kernel state; SolversError when the
    position fails its checks) and ``save(State) -> dict`` (SolversError at a
    moment it cannot express)."""
    return game_info(name).native_format()


def game_option_names(name: str) -> list[str]:
    """The keyword options of a game's constructor besides ``players``, from its record.

    >>> game_option_names("c2c")
    ['challenge', 'map']
    """
    return game_info(name).option_names


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def check_setup(raw: dict[str, Any], what: str = "new") -> dict[str, Any]:
    """Check ``game``, ``players``, ``options`` and ``seed`` of a request or a
    position and return them normalised (``game`` canonical, ``seed`` 0 when
    left out). Raises SolversError with a one-line message."""
    name = raw.get("game")
    if not isinstance(name, str):
        raise SolversError(f"{what}: 'game' should be a game name, one of {', '.join(solvers.game_names())}")
    name = solvers.canonical_game_name(name)
    players = raw.get("players")
    if players is not None and not _is_int(players):
        raise SolversError(f"{what}: 'players' should be a whole number")
    options = raw.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise SolversError(f"{what}: 'options' should be an object of game options")
    info = game_info(name)
    for key, value in options.items():
        try:
            option = info.option(key)
        except SolversError as e:
            raise SolversError(f"{what}: {e}") from None
        if isinstance(value, dict) and option.names_a_file:
            continue            # the file's content, read by build_game
        if not (value is None or isinstance(value, (str, bool, int, float))):
            raise SolversError(f"{what}: option {key!r} should be a string, number or null"
                               + (", or the file's content (a JSON object)" if option.names_a_file
                                  else ""))
    seed = raw.get("seed", 0)
    if seed is None:
        seed = 0
    check_seed(f"{what}: 'seed'", seed)
    return {"game": name, "players": players, "options": dict(options), "seed": seed}


def build_game(setup: dict[str, Any]) -> Game:
    """The kernel game of a checked setup; SolversError for bad options."""
    try:
        return solvers.load_game(setup["game"], setup["players"], **setup["options"])
    except TypeError as e:  # an option of the wrong type deep in a constructor
        raise SolversError(f"bad options for {setup['game']}: {str(e).splitlines()[0]}") from None


def apply_moves(state: State, moves: Any, what: str) -> list[str]:
    """Apply move strings (or action ids) to ``state`` in order; the canonical
    strings of the moves played. Raises SolversError naming the bad move."""
    if not isinstance(moves, list):
        raise SolversError(f"{what}: 'moves' should be a list of move strings")
    if len(moves) > MAX_MOVES:
        raise SolversError(f"{what}: more than {MAX_MOVES} moves")
    played = []
    for i, move in enumerate(moves):
        if isinstance(move, str):
            try:
                action = state.string_to_action(move)
            except SolversError:
                raise SolversError(f"{what}: move {i} ({move!r}) is not legal there") from None
        elif _is_int(move):
            action = move
            legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            if action not in legal:
                raise SolversError(f"{what}: move {i} (action {move}) is not legal there")
        else:
            raise SolversError(f"{what}: move {i} should be a move string")
        played.append(state.action_to_string(action))
        state.apply_action(action)
    return played


def load_position(raw: Any) -> tuple[dict[str, Any], State, list[str]]:
    """A position (history or native) as ``(setup, state, moves)``:
    ``setup`` holds ``game``, ``players``, ``options``, ``seed`` and, for a
    native start, ``start`` (the native position, normalised)."""
    if not isinstance(raw, dict):
        raise SolversError("position: should be a JSON object")
    name = raw.get("game")
    if not isinstance(name, str):
        raise SolversError("position: 'game' should name the game")
    name = solvers.canonical_game_name(name)
    native = native_format(name)
    if "moves" not in raw and "start" not in raw:
        if native is None:
            raise SolversError(f"position: {name} positions list their 'moves' from the start")
        raw = {"game": name, "start": raw, "moves": []}
    for key in raw:
        if key not in HISTORY_KEYS:
            raise SolversError(f"position: unknown key {key!r}")
    if "start" in raw:
        if native is None:
            raise SolversError(f"position: {name} has no position format of its own for 'start'")
        if "options" in raw and raw["options"]:
            raise SolversError("position: a 'start' position carries its own options")
        start = raw["start"]
        if not isinstance(start, dict):
            raise SolversError("position: 'start' should be a JSON object")
        load, save = native
        state = load(start)
        setup = check_setup({"game": name, "players": state.game.num_players,
                             "seed": raw.get("seed", start.get("seed", 0))}, "position")
        if raw.get("players") not in (None, state.game.num_players):
            raise SolversError(f"position: 'players' is {raw['players']!r} but the start has "
                               f"{state.game.num_players}")
        setup["start"] = save(state)
    else:
        setup = check_setup(raw, "position")
        game = build_game(setup)
        setup["players"] = game.num_players
        state = game.new_initial_state(setup["seed"])
    moves = apply_moves(state, raw.get("moves", []), "position")
    return setup, state, moves


def save_position(setup: dict[str, Any], moves: list[str] | list[str | int]) -> dict[str, Any]:
    """The history position of a session: its setup and the moves played."""
    pos: dict[str, Any] = {"game": setup["game"], "players": setup["players"]}
    if "start" in setup:
        pos["start"] = setup["start"]
        pos["seed"] = setup["seed"]
    else:
        pos["options"] = setup["options"]
        pos["seed"] = setup["seed"]
    pos["moves"] = list(moves)
    return pos


def native_position(game_name: str, state: State) -> dict[str, Any] | None:
    """The game's own position format of ``state``, or None (no format, or
    one that cannot express this moment, like the setup deal)."""
    native = native_format(game_name)
    if native is None:
        return None
    try:
        return native[1](state)
    except SolversError:
        return None
