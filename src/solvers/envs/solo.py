"""A one-seat game as a Gymnasium environment (:func:`solvers.envs.solo_env`).

The observation is the game's encoding for seat 0 (the same vector as the
AEC environment's ``observation``), the action a library action id
(``Discrete(num_distinct_actions())``), and ``info["action_mask"]`` marks
the legal ones. Chance is resolved inside, as the deal's seed dictates:
``reset(seed=s)`` deals the game of ``new_initial_state(seed=s)``. The
reward is 0 until the game ends, then its return (for solo Coast to Coast
the score, 0 for a lost challenge). An illegal action ends the episode with
``illegal_reward`` and ``info["illegal"] = True``.

    >>> import solvers.envs
    >>> env = solvers.envs.solo_env("c2c", challenge="The Alamo")
    >>> obs, info = env.reset(seed=3)
    >>> obs.shape, int(info["action_mask"].sum())     # cross off one of the 4 setup cards
    ((203,), 4)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..errors import SolversError
from .encoding import Encoder
from .render import draw_text


class SoloEnv(gymnasium.Env):
    """A one-seat game of the library as a Gymnasium environment."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, game: Any, info: Any, render_mode: str | None = None,
                 illegal_reward: float = -1.0) -> None:
        if game.num_players != 1:
            raise SolversError(f"a solo environment needs a one-seat game, not {game.num_players} seats")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SolversError(f"render_mode should be human or ansi, not {render_mode!r}")
        self.game = game
        self.info = info
        self.encoder = Encoder.of(game, info)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        n = game.num_distinct_actions()
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32)
        self.state: Any = None
        self.game_seed: int | None = None

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal():
            mask[self.state.legal_actions()] = 1
        return mask

    def _obs(self) -> tuple[np.ndarray, dict[str, Any]]:
        return self.encoder.encode(self.state, 0), {"action_mask": self._mask()}

    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_initial_state(seed=self.game_seed)
        self.state.apply_seeded_chance()
        if self.render_mode == "human":
            self.render()
        return self._obs()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise SolversError("call reset() before step()")
        if self.state.is_terminal():
            raise SolversError("the game is over: call reset()")
        action = int(action)
        if action not in self.state.legal_actions():
            obs, info = self._obs()
            info["illegal"] = True
            return obs, self.illegal_reward, True, False, info
        self.state.apply_action(action)
        self.state.apply_seeded_chance()
        done = self.state.is_terminal()
        reward = float(self.state.returns()[0]) if done else 0.0
        obs, info = self._obs()
        if self.render_mode == "human":
            self.render()
        return obs, reward, done, False, info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        s = self.state
        now = f"the game is over: return {s.returns()[0]:g}" if s.is_terminal() else "to move"
        text = f"{self.info.title}: {now}\n" + draw_text(self.info, s, 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text


__all__ = ["SoloEnv"]
