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

from ..._core.santa_cruz import KernelState, SantaCruzCore  # type: ignore[import-not-found]
from ...game import State
from ..kernel_game import KernelGame
from .data import SantaCruzIsland
from .reference import SantaCruz, SantaCruzState, describe_action, describe_hidden, information_view, observe, render


class SantaCruzKernel(KernelGame):
    """Santa Cruz on the C kernel; built like :class:`.reference.SantaCruz`."""

    name = "santacruz"
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

    def from_reference(self, ref: SantaCruzState) -> "SantaCruzKernelState":
        """The kernel state with the same fields as a reference state (its
        history is not copied)."""
        state = self.state_class.__new__(self.state_class)
        state._load(self.core, self, ref)
        return state

    def _features_capsule(self) -> Any:
        """A PyCapsule "solvers.Features" (``_core/eval_api.h``): the evaluation
        features a learned model reads inside the C search, each computed from
        what one seat may see (names: :attr:`feature_names`; the table is in
        docs/learning.md)."""
        return self.core.features_capsule()

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The names of the evaluation features, in order."""
        return tuple(self.core.feature_names)

    def __reduce__(self):
        return (SantaCruzKernel, (self.num_players, self.island))


class SantaCruzKernelState(KernelState, State):
    """A position of Santa Cruz held in a C struct; the interface and field
    names of :class:`.reference.SantaCruzState`."""

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def information_state(self, player: int) -> dict[str, Any]:
        return information_view(self, player)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def own_sites(self, p: int) -> int:
        return sum(1 << s for s, occ in enumerate(self.occupants) if p in occ)

    def __str__(self) -> str:
        return render(self)


__all__ = ["SantaCruzKernel", "SantaCruzKernelState", "observe"]


SantaCruzKernel.state_class = SantaCruzKernelState
