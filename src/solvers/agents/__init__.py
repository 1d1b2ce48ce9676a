"""Agents: one API for every game.

>>> from solvers.agents import load_agent, parse_agent_spec
>>> from solvers._core.toygames import TicTacToe
>>> game = TicTacToe()
>>> kind, options = parse_agent_spec("mcts:iterations=300,seed=2")
>>> agent = load_agent(kind, game, **options)
>>> state = game.new_initial_state()
>>> for a in (0, 3, 1, 4):          # x to move, two in the top row
...     state.apply_action(a)
>>> agent.analyse(state)[0]["move"]
'x at c1'

Kinds: ``random``, ``greedy`` (best immediate score), ``mcts``
(information-set MCTS, optionally handing over to the exact endgame search)
``endgame`` (exact search, averaged over determinisations), and for Coast
to Coast ``pimc`` (perfect-information Monte Carlo) and ``online`` (the
player whose last two rounds are exact; with several seats each seat's
round is played as its own solo round).
"""

from .base import Agent, agent_names, load_agent, parse_agent_spec
from .basic import GreedyAgent, RandomAgent
from .c2c_online import OnlineAgent
from .c2c_pimc import PIMCAgent
from .searching import EndgameAgent, MCTSAgent

__all__ = ["Agent", "agent_names", "load_agent", "parse_agent_spec", "RandomAgent", "GreedyAgent",
           "MCTSAgent", "EndgameAgent", "PIMCAgent", "OnlineAgent"]
