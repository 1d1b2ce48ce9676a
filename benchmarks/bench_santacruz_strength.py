"""Playing strength of MCTS at Santa Cruz, 2 players, a fixed time per move.

Targets (issue 10), each the MCTS agent's win rate over a match with seats
rotated (:mod:`solvers.tournament`):

* at least 95% against ``random`` (100 games);
* at least 75% against ``greedy`` (100 games);
* at least 60% against OpenSpiel's ISMCTS bot given the same time per move
  (60 games).

The match size comes from the environment as for Switchbacks
(``SOLVERS_STRENGTH_GAMES``, ``SOLVERS_STRENGTH_TIME``,
``SOLVERS_STRENGTH_WORKERS``; see bench_switchbacks_strength.py). A game has
about 45 decisions per seat, so a full 100-game match at 1 s a move takes
well over an hour. Under ``--benchmark-disable`` each match is 2 games at
0.02 s a move and only the bookkeeping is checked.
"""

from __future__ import annotations

import pytest

from bench_switchbacks_strength import match_size
from solvers.tournament import run_tournament

TARGETS = {"random": 0.95, "greedy": 0.75, "openspiel": 0.60}
DEFAULT_GAMES = {"random": 100, "greedy": 100, "openspiel": 60}


def strength(benchmark, opponent: str) -> None:
    games, seconds, workers, quick = match_size(benchmark)
    if not quick and games == 100:
        games = DEFAULT_GAMES[opponent]
    ours = f"mcts:time={seconds:g}"
    theirs = opponent if opponent != "openspiel" else f"openspiel:time={seconds:g}"

    def match():
        return run_tournament("santacruz", [ours, theirs], games=games, players=2, seed=2026,
                              workers=workers)

    result = benchmark.pedantic(match, rounds=1, iterations=1)
    me, them = result.agents
    assert me.wins + them.wins == pytest.approx(games)
    assert me.games == them.games == games
    if quick:
        return
    lo, hi = me.ci95
    benchmark.extra_info.update({
        "opponent": theirs, "games": games, "seconds_per_move": seconds, "wins": me.wins,
        "win_rate": round(me.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
        "mean_score": round(me.mean_score, 3), "opponent_mean_score": round(them.mean_score, 3),
        "target": TARGETS[opponent],
    })
    print(f"\nSanta Cruz MCTS {seconds:g} s/move vs {theirs}: {me.wins:g}/{games} = {me.win_rate:.1%} "
          f"(95% CI {lo:.1%}-{hi:.1%}), mean score {me.mean_score:.2f} vs {them.mean_score:.2f}; "
          f"target {TARGETS[opponent]:.0%}")
    assert me.win_rate >= TARGETS[opponent], (
        f"MCTS wins {me.win_rate:.1%} against {theirs}, below {TARGETS[opponent]:.0%}")


def bench_santacruz_mcts_vs_random(benchmark):
    strength(benchmark, "random")


def bench_santacruz_mcts_vs_greedy(benchmark):
    strength(benchmark, "greedy")


def bench_santacruz_mcts_vs_openspiel_ismcts(benchmark):
    pytest.importorskip("pyspiel")
    strength(benchmark, "openspiel")
