"""Every shipped learned model against copies of plain MCTS, at equal time.

For each game whose record names a model (``GameInfo.model``) and each seat
count a file ships for, the default ``mcts`` (which searches with the
model) sits in one seat and a copy of ``mcts:...,model=none`` in every
other, seats rotated (:mod:`solvers.tournament`; a shared first place
counts as a share). Targets (issue 31): with 2 seats at least 65% of the
games; with 3 and 4 seats at least 1.5 times the fair share of wins (50%
and 37.5%).

The size comes from the environment:

* ``SOLVERS_LEARNED_SEATS_TIME`` seconds a move for every seat (default
  0.1), each search on one thread,
* ``SOLVERS_LEARNED_SEATS_GAMES`` games a match (default 200),
* ``SOLVERS_LEARNED_SEATS_WORKERS`` games side by side (default 2: on the
  project's 2-core machine each search has a core to itself).

Under ``--benchmark-disable`` (CI) each match is 2 games at 50 simulations
a move and only the bookkeeping is checked; the headline is then the same
every run (seeded, no clock).
"""

from __future__ import annotations

import os

import pytest

from solvers import load_game
from solvers.benchtrack import headline, table_rows
from solvers.learn.model import shipped_model_path
from solvers.registry import games as game_records
from solvers.tournament import run_tournament

TARGETS = {2: 0.65, 3: 0.5, 4: 0.375}


def shipped() -> list[tuple[str, int]]:
    """(game, seats) for every model file the package ships."""
    return [(info.name, seats) for info in game_records() if info.model
            for seats in range(max(2, info.min_players), info.max_players + 1)
            if shipped_model_path(load_game(info.name, players=seats)) is not None]


@pytest.mark.parametrize(("game", "seats"), shipped(), ids=lambda v: str(v))
def bench_learned_against_plain_copies(benchmark, game, seats):
    quick = benchmark.disabled and "SOLVERS_LEARNED_SEATS_GAMES" not in os.environ
    if quick:
        budget, games, workers = "iterations=50", 2, 1
    else:
        budget = f"time={float(os.environ.get('SOLVERS_LEARNED_SEATS_TIME', '0.1')):g}"
        games = int(os.environ.get("SOLVERS_LEARNED_SEATS_GAMES", "200"))
        workers = int(os.environ.get("SOLVERS_LEARNED_SEATS_WORKERS", "2"))
    learned = f"mcts:{budget},threads=1,model=default"
    plain = f"mcts:{budget},threads=1,model=none"
    agents = [learned] + [plain] * (seats - 1)

    def match():
        return run_tournament(game, agents, games=games, players=seats, seed=seats,
                              workers=workers)

    result = benchmark.pedantic(match, rounds=1, iterations=1)
    me, *others = result.agents
    assert me.games == games and sum(a.wins for a in result.agents) == pytest.approx(games)
    rest = sum(a.mean_score for a in others) / len(others)
    headline(benchmark, f"{game} {seats} seats, mean score + 1, model / {plain}",
             me.mean_score + 1, rest + 1, against=f"{plain} (the copies' mean score + 1)",
             kind="strength")
    lo, hi = me.ci95
    fair = 1 / seats
    benchmark.extra_info.update({"games": games, "wins": round(me.wins, 2),
                                 "win_rate": round(me.win_rate, 4),
                                 "ci95": [round(lo, 4), round(hi, 4)], "target": TARGETS[seats]})
    a_move = budget.removeprefix("time=") + " s" if budget.startswith("time=") else budget
    table_rows(benchmark, [{
        "game": game, "seats": seats, "a move": a_move, "opponents": f"{seats - 1} x `{plain}`",
        "games": games, "model's wins": round(me.wins, 2), "win share": round(me.win_rate, 3),
        "95% interval": f"{lo:.3f}-{hi:.3f}", "x fair share": round(me.win_rate / fair, 2),
        "target": TARGETS[seats], "model's mean points": round(me.mean_score, 2),
        "theirs": round(rest, 2)}])
    print(f"\n{game}, {seats} seats, {games} games at {budget}: the model won {me.wins:g} "
          f"({me.win_rate:.1%}, 95% {lo:.1%}-{hi:.1%}; target {TARGETS[seats]:.1%}) against "
          f"{seats - 1} x {plain}")
