"""The C game table (``src/_core/game_api.h``) seen through ctypes, so tests
can call a kernel's ``GameDef`` functions exactly as a search does."""

from __future__ import annotations

import ctypes
from ctypes import CFUNCTYPE, POINTER, c_char_p, c_double, c_int, c_size_t, c_uint, c_uint64, c_void_p

VP = c_void_p


class GameDef(ctypes.Structure):
    """``struct GameDef``, field for field."""

    _fields_ = [
        ("name", c_char_p), ("num_players", c_int), ("max_actions", c_int),
        ("num_distinct_actions", c_int), ("max_game_length", c_int), ("state_size", c_size_t),
        ("params", VP),
        ("current_player", CFUNCTYPE(c_int, VP, VP)),
        ("legal_actions", CFUNCTYPE(c_int, VP, VP, POINTER(c_int))),
        ("apply_action", CFUNCTYPE(None, VP, VP, c_int)),
        ("chance_outcomes", CFUNCTYPE(c_int, VP, VP, POINTER(c_int), POINTER(c_double))),
        ("sample_chance", CFUNCTYPE(c_int, VP, VP, POINTER(c_uint64))),
        ("returns", CFUNCTYPE(None, VP, VP, POINTER(c_double))),
        ("determinize", CFUNCTYPE(None, VP, VP, c_int, POINTER(c_uint64))),
        ("action_observation", CFUNCTYPE(c_int, VP, VP, c_int, c_int)),
        ("hash", CFUNCTYPE(c_uint64, VP, VP)),
        ("rollout_action", CFUNCTYPE(c_int, VP, VP, POINTER(c_uint64))),
        ("playout", CFUNCTYPE(None, VP, VP, POINTER(c_uint64), c_uint)),
        ("public_decisions", c_int),
        ("state_bounds", CFUNCTYPE(None, VP, VP, POINTER(c_double), POINTER(c_double))),
        ("solver_key", CFUNCTYPE(c_uint64, VP, VP)),
    ]


def capsule_pointer(capsule, name: bytes) -> int:
    """The address inside a capsule, after checking its name."""
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = c_char_p, [ctypes.py_object]
    assert get_name(capsule) == name
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = c_void_p, [ctypes.py_object, c_char_p]
    return get(capsule, name)


def gamedef_of(game) -> GameDef:
    """The table behind ``game._gamedef_capsule()`` (valid while ``game`` lives)."""
    return GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))


def state_pointer(state) -> int:
    """The struct behind ``state._state_capsule()`` (valid while ``state`` lives)."""
    return capsule_pointer(state._state_capsule(), b"solvers.State")


def play_move_by_move(gd: GameDef, st: int, rng: c_uint64, policy_seats: int, uniform) -> None:
    """The loop a search runs when a game has no fused ``playout``: chance by
    ``sample_chance``, the seats in ``policy_seats`` by ``rollout_action``
    (both drawing from ``rng``), the others the legal action at index
    ``uniform(n)`` of the ``n`` legal ones; until the game ends."""
    out = (ctypes.c_int * gd.max_actions)()
    while True:
        player = gd.current_player(gd.params, st)
        if player == -4:                      # GAME_TERMINAL
            return
        if player == -1:                      # GAME_CHANCE
            action = gd.sample_chance(gd.params, st, ctypes.byref(rng))
        elif (policy_seats >> player) & 1:
            action = gd.rollout_action(gd.params, st, ctypes.byref(rng))
        else:
            n = gd.legal_actions(gd.params, st, out)
            action = out[uniform(n)]
        gd.apply_action(gd.params, st, action)
