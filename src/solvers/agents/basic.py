"""Agents that do not search: uniformly random, and greedy on the score sheet."""

from __future__ import annotations

from typing import Any

from ..game import Game, State
from ..limits import check_whole
from ..rng import SplitMix64
from .base import Agent, register


@register("random")
class RandomAgent(Agent):
    """Plays a legal action uniformly at random (seeded).

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> RandomAgent(game, seed=3).step(game.new_initial_state())
    0
    """

    def _step(self, view: State) -> int:
        legal = view.legal_actions()
        return legal[self.rng.below(len(legal))]

    def _analyse(self, view: State) -> list[dict[str, Any]]:
        """Every legal action with value 0: a random agent has no preference."""
        return [self._row(view, a, 0.0) for a in view.legal_actions()]


@register("greedy")
class GreedyAgent(Agent):
    """Plays the action with the best immediate score for the player to move.

    Each legal action is applied and ``scores()[player]`` read, nothing
    further resolved. Where that score depends on something the player
    cannot see (a face-down Santa Cruz tile a river build reveals, say), the
    score is the mean over ``samples`` re-deals of the hidden cards
    (default 8): the expected immediate score given what the player knows.
    Ties are broken at random (seeded). ``value`` is that mean score and
    ``visits`` the number of re-deals.
    """

    options = ("seed", "samples")

    def __init__(self, game: Game, seed: int | None = None, samples: int = 8):
        super().__init__(game, seed)
        self.samples = check_whole("samples", samples, 1)

    def _analyse(self, view: State) -> list[dict[str, Any]]:
        player = view.current_player()
        legal = view.legal_actions()
        if hasattr(view, "resample"):
            rng = SplitMix64(self.rng.next())
            worlds = [view.resample(player, rng) for _ in range(self.samples)]
        else:
            worlds = [view]
        scored = []
        for action in legal:
            total = 0.0
            for world in worlds:
                child = world.clone()
                child.apply_action(action)
                total += child.scores()[player]
            scored.append((total / len(worlds), self.rng.next(), action))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [self._row(view, a, s, len(worlds)) for s, _, a in scored]
