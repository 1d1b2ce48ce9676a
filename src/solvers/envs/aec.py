"""The PettingZoo AEC environment of any game in the library (:func:`solvers.envs.env`).

It follows the conventions of PettingZoo's ``classic`` family:

* agents ``player_0 .. player_{P-1}``, the game's seats;
* ``observe(agent)`` is ``{"observation": encode(state, seat), "action_mask":
  mask}``: the game's encoding (its record's ``encoding``) of what that
  seat may see, and a mask over the game's action ids (all zeros for an
  agent that is not to act);
* a discrete action is the library's action id (``Discrete(num_distinct_actions())``);
* chance is resolved inside the environment: every chance outcome is the
  one the deal's seed dictates (``State.seeded_outcome``); ``reset(seed=s)``
  deals the same game as ``load_game(...).new_initial_state(seed=s)``, and
  ``reset()`` without a seed deals from a seed drawn from the environment's
  generator (seeded by the last ``reset(seed=...)``);
* rewards are zero until the game ends, then each seat's ``returns()``;
* :func:`solvers.envs.env` wraps the raw environment as the classic ones
  are (an illegal action ends the game with ``illegal_reward`` for the
  offender; bounds and call order checked).

    >>> import solvers.envs
    >>> env = solvers.envs.env("switchbacks", players=2)
    >>> env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
    ('player_0', (1573,), 108)
    >>> env.unwrapped.state.action_to_string(74)
    'explore 3 on hex 0'
    >>> env.step(74)
    >>> env.agent_selection                   # the same turn goes on: hike or buddy up
    'player_0'
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..errors import SolversError
from .encoding import Encoder
from .render import draw_text

RENDER_MODES = ["human", "ansi"]


class SolversAECEnv(AECEnv):
    """A game of the library as a PettingZoo AEC environment (build it with
    :func:`solvers.envs.env` or :func:`solvers.envs.raw_env`)."""

    metadata = {"render_modes": RENDER_MODES, "name": "solvers_v0", "is_parallelizable": False}

    def __init__(self, game: Any, info: Any, render_mode: str | None = None,
                 render_seat: int | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise SolversError(f"render_mode should be one of {', '.join(RENDER_MODES)}, "
                               f"not {render_mode!r}")
        players = game.num_players
        if render_seat is not None and not 0 <= render_seat < players:
            raise SolversError(f"render_seat should be a seat 0..{players - 1}, not {render_seat!r}")
        self.game = game
        self.info = info
        self.encoder = Encoder.of(game, info)
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.metadata = {**self.metadata, "name": f"solvers_{info.name}_v0"}
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n = game.num_distinct_actions()
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, self.encoder.shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            }) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self.state: Any = None
        self.game_seed: int | None = None

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # ------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ the game
    def seat(self, agent: str) -> int:
        """The seat of an agent name."""
        return self.agent_name_mapping[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            self.game_seed = int(seed)
        else:
            if self._np_random is None:
                self._np_random, _ = seeding.np_random()
            self.game_seed = int(self._np_random.integers(0, 2**63 - 1))
        self.state = self.game.new_initial_state(seed=self.game_seed)
        self.state.apply_seeded_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.encoder.encode(self.state, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))     # IllegalActionError for a move that is not legal
        self.state.apply_seeded_chance()
        self._clear_rewards()
        if self.state.is_terminal():
            returns = self.state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self.seat(a)])
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------ drawing
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        seat = self.render_seat
        if seat is None:
            seat = self.seat(self.agent_selection) if self.agent_selection else 0
        text = self._header(seat) + draw_text(self.info, self.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _header(self, seat: int) -> str:
        s = self.state
        if s.is_terminal():
            now = "the game is over: returns " + ", ".join(f"{r:g}" for r in s.returns())
        else:
            now = f"player {s.current_player()} to move"
        return f"{self.info.title}, drawn for player {seat}: {now}\n"

    def close(self) -> None:
        pass


__all__ = ["SolversAECEnv", "RENDER_MODES"]
