"""Agents that do not search: uniformly random, and greedy on the score sheet."""

from __future__ import annotations

from typing import Any

from ..game import State
from .base import Agent, register


@register("random")
class RandomAgent(Agent):
    """Plays a legal action uniformly at random (seeded).

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> RandomAgent(game, seed=3).step(game.new_initial_state())
    0
    """

    def step(self, state: State) -> int:
        self._check(state)
        legal = state.legal_actions()
        return legal[self.rng.below(len(legal))]

    def analyse(self, state: State) -> list[dict[str, Any]]:
        """Every legal action with value 0: a random agent has no preference."""
        self._check(state)
        return [self._row(state, a, 0.0) for a in state.legal_actions()]


@register("greedy")
class GreedyAgent(Agent):
    """Plays the action with the best immediate score for the player to move:
    each legal action is applied to a clone, nothing further is resolved, and
    ``scores()[player]`` is compared; ties are broken at random (seeded)."""

    def analyse(self, state: State) -> list[dict[str, Any]]:
        player = self._check(state)
        scored = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            scored.append((child.scores()[player], self.rng.next(), action))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [self._row(state, a, s) for s, _, a in scored]
