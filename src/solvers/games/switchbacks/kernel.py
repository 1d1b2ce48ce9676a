"""Switchbacks on the Cython kernel: same rules, action ids and seeded
dealing as :mod:`.reference`, about a hundred times faster.

>>> import solvers
>>> game = solvers.load_game("switchbacks", players=2)
>>> state = game.new_initial_state(seed=5)
>>> state.apply_seeded_chance()
>>> state.board, state.action_to_string(state.legal_actions()[0])
({18: 36}, 'explore 2 on hex 0')
>>> len(game.play_random_games(100, seed=1))  # mean score per seat, played in C
2

The C level: ``game._gamedef_capsule()`` is a PyCapsule "solvers.GameDef"
for search modules and ``state._state_capsule()`` a PyCapsule
"solvers.State" pointing at the state's struct; each keeps its game's
tables or its state alive. ``GameDef.returns`` gives the same win shares as
``state.returns()``. Games and states pickle (a state as its struct's
bytes and its history).
"""

from __future__ import annotations

from typing import Any

from ..._core.switchbacks import KernelState, SwitchbacksCore  # type: ignore[import-not-found]
from ...errors import SolversError
from ...game import State
from ...rng import seed_from
from ..kernel_game import KernelGame
from .data import SwitchbacksMap
from .reference import Switchbacks, SwitchbacksState, describe_action, describe_hidden, information_view, render


class SwitchbacksKernel(KernelGame):
    """Switchbacks on the C kernel; built like :class:`.reference.Switchbacks`."""

    name = "switchbacks"
    return_bounds = (0.0, 1.0)     # GameDef.returns are win shares
    # MCTS rollouts: the searching player follows the playout policy, the
    # others move at random. With every seat on the policy, a rollout is a
    # race against opponents who make 5-7 points, and the search took risks
    # that left it with no complete path (a 0-0 tie) in 32 of 200 games
    # against random play at 0.05 s a move; with "own", 16 of 200 (issue 3's
    # notes).
    default_rollout = "own"

    def __init__(self, players: int = 2, map: SwitchbacksMap | str | None = None):
        rules = Switchbacks(players=players, map=map)  # validates the options
        self.rules = rules
        self.map = rules.map
        self.num_players = rules.num_players
        if self.num_players == 2:
            # The last 8 tiles or so searched exactly: at 0.1 s a move that
            # played level with the plain search at 1 s (100.5 of 200 games;
            # docs/learning.md, "Measurements"). With 3 seats (max^n, the
            # last 12 plies) it did worse than the plain search, so it is off.
            self.default_endgame_plies = 18
            self.default_endgame_nodes = 300_000
        for attr in ("set_aside_each", "hikers_each", "num_tiles", "num_hexes", "hand_size",
                     "setup_deals", "turns_each", "BUDDY_UP", "HIKE_SOLO", "HIKE_BUDDIES",
                     "DEAL_BASE"):
            setattr(self, attr, getattr(rules, attr))
        m = self.map
        self.core = SwitchbacksCore(
            players, m.num_hexes, m.tiles, m.centre, rules.set_aside_each, m.hand_size,
            rules.hikers_each, m.min_run, list(m.neighbours),
        )

    def explore_action(self, tile: int, hex_id: int) -> int:
        return self.rules.explore_action(tile, hex_id)

    def deal_action(self, tile: int) -> int:
        return self.rules.deal_action(tile)

    def deal_destination(self, k: int) -> tuple[str, int]:
        return self.rules.deal_destination(k)

    def from_reference(self, ref: SwitchbacksState) -> "SwitchbacksKernelState":
        """The kernel state with the same fields as a reference state (its
        history is not copied)."""
        state = self.state_class.__new__(self.state_class)
        state._load(self.core, self, list(ref.order), ref.pos, ref.board, ref.hikers,
                    ref.hands, ref.set_aside, ref.solo, ref.buddies, ref.player, ref.step,
                    ref.just_explored)
        return state

    def play_random_games(self, n: int, seed: int = 0) -> list[float]:
        """Play ``n`` uniformly random games in C; the mean score of each seat."""
        return play_random_games(self, n, seed)

    def _features_capsule(self) -> Any:
        """A PyCapsule "solvers.Features" (``_core/eval_api.h``): the evaluation
        features a learned model reads inside the C search, each computed from
        what one seat may see (names: :attr:`feature_names`)."""
        return self.core.features_capsule()

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The names of the evaluation features, in order."""
        return self.core.feature_names

    def __reduce__(self):
        return (_rebuild_game, (self.num_players, self.map, self.core.playout_weights))


def _rebuild_game(players: int, map: SwitchbacksMap, weights: tuple) -> SwitchbacksKernel:
    """A pickled :class:`SwitchbacksKernel` again, playout weights included."""
    game = SwitchbacksKernel(players, map)
    game.core.playout_weights = weights
    return game


def play_random_games(game: SwitchbacksKernel, n: int, seed: int) -> list[float]:
    """Play ``n`` games entirely in C, chance and moves uniformly at random
    from ``SplitMix64(seed)``; the mean score of each seat.

    >>> play_random_games(SwitchbacksKernel(2), 2000, seed=1)
    [0.083, 0.0845]
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise SolversError(f"the number of games should be an int, not {type(n).__name__}")
    return game.core.play_random_games(n, seed_from(seed))


class SwitchbacksKernelState(KernelState, State):
    """A position of Switchbacks held in a C struct; the interface and field
    names of :class:`.reference.SwitchbacksState`."""

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def information_state(self, player: int) -> dict[str, Any]:
        return information_view(self, player)

    def stack(self) -> list[int]:
        """The tiles still to be drawn, top first."""
        return self.order[self.pos:]

    def __str__(self) -> str:
        return render(self)


SwitchbacksKernel.state_class = SwitchbacksKernelState
