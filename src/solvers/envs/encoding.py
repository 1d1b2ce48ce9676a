"""Finding a game's observation encoding through its record (``GameInfo.encoding``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

import numpy as np

from ..errors import SolversError
from ..registry import game_info, load_object


@dataclass(frozen=True)
class Encoder:
    """A game's ``encode(state, seat)`` and the fixed shape of its arrays.

    >>> import solvers
    >>> game = solvers.load_game("switchbacks", players=2)
    >>> enc = Encoder.of(game)
    >>> state = game.new_initial_state(seed=2)
    >>> state.apply_seeded_chance()
    >>> enc.encode(state, 0).shape == enc.shape
    True
    """

    function: Callable[[Any, int], np.ndarray]
    shape: tuple[int, ...]

    @classmethod
    def of(cls, game: Any, info: Any = None) -> "Encoder":
        """The encoder of a built game, from its record; SolversError (one
        line) when the record names none."""
        info = info if info is not None else game_info(game.name)
        if not info.encoding:
            raise SolversError(f"{info.name} has no observation encoding (its record's 'encoding')")
        module, _, name = info.encoding.partition(":")
        function = load_object(info.encoding)
        shape = getattr(import_module(module), "shape", None)
        if shape is None:
            raise SolversError(f"{module} defines {name} but not shape(game)")
        return cls(function, tuple(int(x) for x in shape(game)))

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation of ``state`` (float32, the encoder's shape)."""
        out = np.asarray(self.function(state, seat), dtype=np.float32)
        if out.shape != self.shape:
            raise SolversError(f"the encoding gave shape {out.shape}, not {self.shape}")
        return out


__all__ = ["Encoder"]
