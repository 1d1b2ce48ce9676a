"""Game-agnostic search: MCTS, information-set MCTS, exact endgame search.

* :func:`mcts_search` / :func:`make_search` - UCT with chance nodes, max^n
  backup for several players and single-observer ISMCTS for hidden
  information; C speed when the state offers its C tables, pure Python
  otherwise (:mod:`solvers.search.mcts`).
* :func:`solve_endgame` / :func:`expected_endgame` - alpha-beta, max^n and
  expectimax to the end of the game (:mod:`solvers.search.endgame`).
"""

from .endgame import EndgameResult, expected_endgame, solve_endgame
from .mcts import MCTS, RandomRolloutEvaluator, SearchNode, SearchResult, make_search, mcts_search

__all__ = [
    "EndgameResult", "expected_endgame", "solve_endgame",
    "MCTS", "RandomRolloutEvaluator", "SearchNode", "SearchResult", "make_search", "mcts_search",
]
