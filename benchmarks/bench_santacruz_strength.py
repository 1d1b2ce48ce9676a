"""Playing strength of MCTS at Santa Cruz, 2 players, a fixed time per move.

Targets (issue 10), each the MCTS agent's win rate over a match with seats
rotated (:mod:`solvers.tournament`):

* at least 95% against ``random`` (100 games);
* at least 75% against ``greedy`` (100 games);
* at least 60% against OpenSpiel's ISMCTS bot given the same time per move
  (60 games).

The match size comes from the environment as for Switchbacks
(``SOLVERS_STRENGTH_GAMES``, ``SOLVERS_STRENGTH_TIME``,
``SOLVERS_STRENGTH_WORKERS``; see bench_switchbacks_strength.py, whose
``strength`` runs the matches). A game has about 45 decisions per seat, so
a full 100-game match at 1 s a move takes over two hours. Under
``--benchmark-disable`` each match is 2 games on small fixed budgets and
only the bookkeeping is checked.
"""

from __future__ import annotations

import pytest

from bench_switchbacks_strength import strength

TARGETS = {"random": 0.95, "greedy": 0.75, "openspiel": 0.60}
GAMES = {"random": 100, "greedy": 100, "openspiel": 60}


def bench_santacruz_mcts_vs_random(benchmark):
    strength(benchmark, "random", "santacruz", TARGETS, GAMES)


def bench_santacruz_mcts_vs_greedy(benchmark):
    strength(benchmark, "greedy", "santacruz", TARGETS, GAMES)


def bench_santacruz_mcts_vs_openspiel_ismcts(benchmark):
    pytest.importorskip("pyspiel")
    strength(benchmark, "openspiel", "santacruz", TARGETS, GAMES)
