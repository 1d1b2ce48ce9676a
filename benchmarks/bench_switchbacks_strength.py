"""Playing strength of MCTS at Switchbacks, 2 players, a fixed time per move.

Targets (issue 3), each the MCTS agent's win rate over a match with seats
rotated (:mod:`solvers.tournament`; a shared first place counts as half):

* at least 95% against ``random``;
* at least 70% against ``greedy``;
* at least 60% against OpenSpiel's ISMCTS bot given the same time per move
  (the Python bot, :class:`solvers.interop.openspiel.TimedISMCTSBot`; the
  C++ ``pyspiel.ISMCTSBot`` crashes on Python-defined games).

A full match is long (about 30 MCTS decisions a game), so the size is set
from the environment:

* ``SOLVERS_STRENGTH_GAMES`` games per opponent (default 100 when
  benchmarks are enabled),
* ``SOLVERS_STRENGTH_TIME`` seconds per move (default 1),
* ``SOLVERS_STRENGTH_WORKERS`` processes (default 1: a time budget is only
  fair when each search has a core to itself).

Under ``--benchmark-disable`` (CI) each match is 2 games on small fixed budgets
and only the bookkeeping is checked. With benchmarks enabled the win rate
(point estimate) is asserted against the target; ``extra_info`` and the
printed line give the 95% Wilson interval.
"""

from __future__ import annotations

import os

import pytest

from solvers.benchtrack import headline, table_rows
from solvers.tournament import run_tournament

TARGETS = {"random": 0.95, "greedy": 0.70, "openspiel": 0.60}


def match_size(benchmark, default_games: int = 100) -> tuple[int, float, int, bool]:
    quick = benchmark.disabled and "SOLVERS_STRENGTH_GAMES" not in os.environ
    if quick:
        return 2, 0.02, 1, True
    games = int(os.environ.get("SOLVERS_STRENGTH_GAMES", str(default_games)))
    seconds = float(os.environ.get("SOLVERS_STRENGTH_TIME", "1"))
    workers = int(os.environ.get("SOLVERS_STRENGTH_WORKERS", "1"))
    return games, seconds, workers, False


def strength(benchmark, opponent: str, game: str = "switchbacks",
             targets: dict[str, float] = TARGETS, default_games: int | dict[str, int] = 100) -> None:
    """One match of MCTS against ``opponent`` at ``game`` (2 players), its
    win rate asserted against ``targets[opponent]`` when benchmarks run.
    ``default_games`` is the match size (or one per opponent). The quick run
    (CI) checks the bookkeeping only, on small fixed budgets (50 iterations
    a move; OpenSpiel's bot 3 simulations, its first only expanding the
    root), so that its length does not hang on the machine's speed."""
    if isinstance(default_games, dict):
        default_games = default_games.get(opponent, 100)
    games, seconds, workers, quick = match_size(benchmark, default_games)
    if quick:
        ours, os_budget = "mcts:iterations=50", "simulations=3"
    else:
        ours, os_budget = f"mcts:time={seconds:g}", f"time={seconds:g}"
    theirs = opponent if opponent != "openspiel" else f"openspiel:{os_budget}"

    def match():
        return run_tournament(game, [ours, theirs], games=games, players=2, seed=2026,
                              workers=workers)

    result = benchmark.pedantic(match, rounds=1, iterations=1)
    me, them = result.agents
    assert me.wins + them.wins == pytest.approx(games)
    assert me.games == them.games == games
    # The headline: points a game plus one, ours over the opponent's (the
    # one keeps a scoreless side from giving 0 or no ratio). On the quick
    # run's fixed budgets the match is the same every time (seeded, no clock).
    headline(benchmark, f"{game} mean score a game + 1, MCTS ({ours}) / {theirs}", me.mean_score + 1,
             them.mean_score + 1, against=f"{theirs} (its mean score + 1)", kind="strength")
    benchmark.extra_info["win_rate"] = round(me.win_rate, 4)
    lo, hi = me.ci95
    table_rows(benchmark, [{
        "game": game, "MCTS": f"`{ours}`", "opponent": f"`{theirs}`", "games": games,
        "MCTS wins": f"{me.win_rate:.1%}", "95% interval": f"{lo:.1%}-{hi:.1%}",
        "mean score (MCTS - opponent)": f"{me.mean_score:.2f} - {them.mean_score:.2f}",
        "target": f"{targets[opponent]:.0%}"}])
    if quick:
        return
    benchmark.extra_info.update({
        "opponent": theirs, "games": games, "seconds_per_move": seconds, "wins": me.wins,
        "win_rate": round(me.win_rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
        "shared_wins": result.draws, "mean_score": round(me.mean_score, 3),
        "opponent_mean_score": round(them.mean_score, 3), "target": targets[opponent],
    })
    print(f"\n{game} MCTS {seconds:g} s/move vs {theirs}: {me.wins:g}/{games} = {me.win_rate:.1%} "
          f"(95% CI {lo:.1%}-{hi:.1%}; {result.draws} shared), mean score {me.mean_score:.2f} "
          f"vs {them.mean_score:.2f}; target {targets[opponent]:.0%}")
    assert me.win_rate >= targets[opponent], (
        f"MCTS wins {me.win_rate:.1%} against {theirs}, below {targets[opponent]:.0%}")


def bench_mcts_vs_random(benchmark):
    strength(benchmark, "random")


def bench_mcts_vs_greedy(benchmark):
    strength(benchmark, "greedy")


def bench_mcts_vs_openspiel_ismcts(benchmark):
    pytest.importorskip("pyspiel")
    strength(benchmark, "openspiel")
