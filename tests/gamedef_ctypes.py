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
