"""Coast to Coast with 2-4 seats: the online player against the plain search.

The online player (``online:early=report,learned=4``) plays each seat's
decisions as that seat's own solo round (``CoastKernelState.seat_as_solo``):
the learned values of a sheet before round 4, the exact last two rounds.
It meets copies of plain MCTS with seats rotated (:mod:`solvers.tournament`;
a shared first place counts as a share). Targets (issue 31): with 2 seats
at least 65% of the games; with 3 and 4 seats at least 1.5 times the fair
share of wins (50% and 37.5%).

The size comes from the environment:

* ``SOLVERS_C2C_SEATS_GAMES`` games a match (default 200 with 2 seats, 100
  with 3 and 4),
* ``SOLVERS_C2C_SEATS_ITERATIONS`` the plain search's simulations a move
  (default 20,000; about 250,000 is one second of one idle core of this
  project's machine),
* ``SOLVERS_C2C_SEATS_WORKERS`` processes (default 1).

An iteration budget, not a time, so that the machine's load cannot change
the games. Under ``--benchmark-disable`` (CI) each match is 2 games against
50 simulations a move and only the bookkeeping is checked; the headline is
then the same every run (seeded, no clock).
"""

from __future__ import annotations

import os

import pytest

from solvers.benchtrack import headline, table_rows
from solvers.tournament import run_tournament

ONLINE = "online:early=report,learned=4"
TARGETS = {2: 0.65, 3: 0.5, 4: 0.375}


@pytest.mark.parametrize("seats", [2, 3, 4])
def bench_online_against_plain_search(benchmark, seats):
    quick = benchmark.disabled and "SOLVERS_C2C_SEATS_GAMES" not in os.environ
    if quick:
        games, iterations, workers = 2, 50, 1
    else:
        games = int(os.environ.get("SOLVERS_C2C_SEATS_GAMES", "200" if seats == 2 else "100"))
        iterations = int(os.environ.get("SOLVERS_C2C_SEATS_ITERATIONS", "20000"))
        workers = int(os.environ.get("SOLVERS_C2C_SEATS_WORKERS", "1"))
    plain = f"mcts:iterations={iterations},threads=1"
    agents = [ONLINE] + [plain] * (seats - 1)

    def match():
        return run_tournament("c2c", agents, games=games, players=seats, seed=0, workers=workers)

    result = benchmark.pedantic(match, rounds=1, iterations=1)
    me, *others = result.agents
    assert me.games == games and sum(a.wins for a in result.agents) == pytest.approx(games)
    rest = sum(a.mean_score for a in others) / len(others)
    headline(benchmark, f"c2c {seats} seats, mean score + 1, online / {plain}", me.mean_score + 1,
             rest + 1, against=f"{plain} (the copies' mean score + 1)", kind="strength")
    lo, hi = me.ci95
    fair = 1 / seats
    benchmark.extra_info.update({"games": games, "wins": me.wins, "win_rate": round(me.win_rate, 4),
                                 "ci95": [round(lo, 4), round(hi, 4)], "target": TARGETS[seats]})
    table_rows(benchmark, [{
        "seats": seats, "opponents": f"{seats - 1} x `{plain}`", "games": games,
        "online's wins": me.wins, "win share": round(me.win_rate, 3),
        "95% interval": f"{lo:.3f}-{hi:.3f}", "x fair share": round(me.win_rate / fair, 2),
        "target": TARGETS[seats], "online's mean score": round(me.mean_score, 2),
        "their mean score": round(rest, 2)}])
    print(f"\n{seats} seats, {games} games: online won {me.wins:g} ({me.win_rate:.1%}, 95% "
          f"{lo:.1%}-{hi:.1%}; target {TARGETS[seats]:.1%}) against {seats - 1} x {plain}")
    if not quick:
        assert me.win_rate >= TARGETS[seats]
