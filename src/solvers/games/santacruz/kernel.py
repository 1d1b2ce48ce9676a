"""Santa Cruz on the Cython kernel: the same rules, action ids and seeded
chance as :mod:`.reference`, on 64-bit site masks.

>>> game = SantaCruzKernel(players=2)
>>> state = game.new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> state.step, state.action_to_string(state.legal_actions()[0])
('choose', 'choose set A (River)')
>>> len(game.play_random_games(100, seed=1))  # mean score per seat, played in C
2

The C level: ``game._gamedef_capsule()`` is a PyCapsule "solvers.GameDef"
for search modules (keep ``game`` alive while it is used) and
``state._state_capsule()`` a PyCapsule "solvers.State".
"""

from __future__ import annotations

from typing import Any

from ...errors import SolversError
from ...game import Game, State
from ...rng import seed_from
from ..._core.santa_cruz import KernelState, SantaCruzCore  # type: ignore[import-not-found]
from .data import SantaCruzIsland
from .reference import SantaCruz, SantaCruzState, describe_action, information_view, observe, render


class SantaCruzKernel(Game):
    """Santa Cruz on the C kernel; built like :class:`.reference.SantaCruz`."""

    name = "santacruz"
    reference = False
    return_bounds = (0.0, 1.0)     # GameDef.returns: 1 for the winner
    default_rollout = "policy"

    def __init__(self, players: int = 2, board: SantaCruzIsland | str | None = None):
        rules = SantaCruz(players=players, board=board)  # validates the options
        self.rules = rules
        self.island = rules.island
        self.num_players = rules.num_players
        for attr in ("num_sites", "num_sets", "num_cards", "num_tiles", "dealt_each", "SET",
                     "PLAY_SHIP", "PLAY_ROAD", "PLAY_RIVER", "PLAY_DOUBLE", "PLAY_SCORE", "DISCARD",
                     "TILE", "CARD", "BIRD", "coast", "volcano", "on_river", "first_choice_order"):
            setattr(self, attr, getattr(rules, attr))
        self.core = SantaCruzCore(rules)

    def num_distinct_actions(self) -> int:
        return self.rules.num_distinct_actions()

    def new_initial_state(self, seed: int | None = None) -> "SantaCruzKernelState":
        state = SantaCruzKernelState.__new__(SantaCruzKernelState)
        state._start(self.core, self, seed_from(seed))
        return state

    def from_reference(self, ref: SantaCruzState) -> "SantaCruzKernelState":
        """The kernel state with the same fields as a reference state (its
        history is not copied)."""
        state = SantaCruzKernelState.__new__(SantaCruzKernelState)
        state._load(self.core, self, ref)
        return state

    def play_random_games(self, n: int, seed: int = 0) -> list[float]:
        """Play ``n`` uniformly random games in C; the mean score of each seat."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise SolversError(f"the number of games should be an int, not {type(n).__name__}")
        return self.core.play_random_games(n, seed_from(seed))

    def state_from_raw(self, raw: bytes) -> "SantaCruzKernelState":
        state = self.new_initial_state(0)
        state._set_raw(raw)
        return state

    def _gamedef_capsule(self) -> Any:
        return self.core.gamedef_capsule()

    def __reduce__(self):
        return (SantaCruzKernel, (self.num_players, self.island))

    def __repr__(self) -> str:
        return f"SantaCruzKernel(players={self.num_players})"


class SantaCruzKernelState(KernelState, State):
    """A position of Santa Cruz held in a C struct; the interface and field
    names of :class:`.reference.SantaCruzState`."""

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def information_state(self, player: int) -> dict[str, Any]:
        return information_view(self, player)

    def own_sites(self, p: int) -> int:
        return sum(1 << s for s, occ in enumerate(self.occupants) if p in occ)

    def __str__(self) -> str:
        return render(self)


__all__ = ["SantaCruzKernel", "SantaCruzKernelState", "observe"]
