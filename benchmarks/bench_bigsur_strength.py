"""Playing strength of MCTS at Big Sur, 2 players, a fixed time per move.

Targets (issue 9), each the MCTS agent's win rate over a match with seats
rotated (:mod:`solvers.tournament`; a shared first place counts as half):

* at least 95% against ``random`` (100 games);
* at least 75% against ``greedy`` (100 games);
* at least 60% against OpenSpiel's ISMCTS bot given the same time per move
  (60 games).

A decision is one small step of a turn (take, build, pay, claim...), so a
game holds a few hundred MCTS decisions and a full match at 1 s per move
takes hours. The size comes from the environment as for Switchbacks
(``SOLVERS_STRENGTH_GAMES``, ``SOLVERS_STRENGTH_TIME``,
``SOLVERS_STRENGTH_WORKERS``; :mod:`bench_switchbacks_strength`). Under
``--benchmark-disable`` each match is 2 games on small fixed budgets and only the
bookkeeping is checked.
"""

from __future__ import annotations

import pytest

from bench_switchbacks_strength import strength

TARGETS = {"random": 0.95, "greedy": 0.75, "openspiel": 0.60}


def bench_bigsur_mcts_vs_random(benchmark):
    strength(benchmark, "random", game="bigsur", targets=TARGETS)


def bench_bigsur_mcts_vs_greedy(benchmark):
    strength(benchmark, "greedy", game="bigsur", targets=TARGETS)


def bench_bigsur_mcts_vs_openspiel_ismcts(benchmark):
    pytest.importorskip("pyspiel")
    strength(benchmark, "openspiel", game="bigsur", targets=TARGETS, default_games=60)
