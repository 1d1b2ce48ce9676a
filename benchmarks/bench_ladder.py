"""A rating ladder (solvers.ladder) at a chosen size: every pair of players
meets, Bradley-Terry ratings on the Elo scale with random at 0, and the
table (rating, 95% bootstrap interval, what each row measures and the time
and simulations a move measured) printed and kept in ``extra_info``.

The size comes from the environment:

* ``SOLVERS_LADDER_GAME`` (default ``switchbacks``);
* ``SOLVERS_LADDER_PLAYERS``: the players, a comma list of agent specs
  (default: random, greedy, OpenSpiel's ISMCTS where it runs, and ``mcts``
  at each of the times);
* ``SOLVERS_LADDER_TIMES``: the seconds a move of the timed players
  (default ``0.05,0.2,1,5``), ``SOLVERS_LADDER_TIMED`` the timed kinds
  (default ``mcts``, several separated by ``;``; the learned player is
  ``mcts:model=FILE``);
* ``SOLVERS_LADDER_GAMES`` games a pairing (default 20);
* ``SOLVERS_LADDER_WORKERS`` (default 1: a time budget is only fair when
  each search has the cores to itself);
* ``SOLVERS_LADDER_SAVE``: a file to save the ladder to, and resume it from
  when it exists (a long ladder can be run in pieces);
* ``SOLVERS_LADDER_PLOT``: a file for the plot of rating against time.

Under ``--benchmark-disable`` (the quick run, CI) the ladder is small and
fixed: random, greedy and ``mcts`` at 25 and 100 iterations a move at
Switchbacks, 4 games a pairing, about two seconds; iteration budgets make
it the same every time. The headline is the fitted expected score of the
strongest ``mcts`` player against random, over 0.5 (an even match).
"""

from __future__ import annotations

import os

import pytest

from solvers.benchtrack import headline
from solvers.ladder import Ladder, default_players, plot_ladder, timed_players
from solvers.tournament import split_agent_list

QUICK_PLAYERS = ["random", "greedy", "mcts:iterations=25", "mcts:iterations=100"]


def _size(benchmark) -> dict:
    env = os.environ
    quick = benchmark.disabled and not any(k.startswith("SOLVERS_LADDER_") for k in env)
    if quick:
        return {"game": "switchbacks", "players": QUICK_PLAYERS, "games": 4, "workers": 1,
                "save": None, "plot": None, "quick": True}
    game = env.get("SOLVERS_LADDER_GAME", "switchbacks")
    times = [float(t) for t in env.get("SOLVERS_LADDER_TIMES", "0.05,0.2,1,5").split(",") if t]
    kinds = [k for k in env.get("SOLVERS_LADDER_TIMED", "mcts").split(";") if k.strip()]
    if "SOLVERS_LADDER_PLAYERS" in env:
        players = split_agent_list(env["SOLVERS_LADDER_PLAYERS"])
    else:
        players = default_players(game, times=times, timed=()) + timed_players(kinds, times)
    return {"game": game, "players": players, "games": int(env.get("SOLVERS_LADDER_GAMES", "20")),
            "workers": int(env.get("SOLVERS_LADDER_WORKERS", "1")),
            "save": env.get("SOLVERS_LADDER_SAVE"), "plot": env.get("SOLVERS_LADDER_PLOT"),
            "quick": False}


def bench_ladder(benchmark):
    size = _size(benchmark)
    save = size["save"]
    resume = save if save and os.path.exists(save) else None

    def run():
        lad = Ladder(size["game"], size["players"], size["games"], resume=resume)
        lad.play(workers=size["workers"], save=save)
        return lad

    lad = benchmark.pedantic(run, rounds=1, iterations=1)
    table = lad.table()
    if save:
        lad.save(save, table)
    if size["plot"]:
        plot_ladder(table, size["plot"])
    assert lad.missing() == []
    assert sorted(r.spec for r in table.rows) == sorted(size["players"])
    pairs = len(size["players"]) * (len(size["players"]) - 1) // 2
    assert len(table.pairs) == pairs
    rows = {r.spec: r for r in table.rows}
    assert rows[table.anchor].rating == 0
    searching = [r for r in table.rows if r.spec.startswith("mcts")]
    if not searching:
        pytest.skip("no mcts player in this ladder: no headline")
    top = max(searching, key=lambda r: (r.simulations_per_move, r.seconds_per_move))
    expected = 1 / (1 + 10 ** (-top.rating / 400))
    headline(benchmark, f"{size['game']} ladder: expected score of {top.spec} against "
                        f"{table.anchor} (Bradley-Terry fit) / 0.5", expected, 0.5,
             against="an even match (0.5)", kind="strength")
    benchmark.extra_info["table"] = table.to_json()
    print(f"\n{size['game']} ladder, {size['games']} games a pairing "
          f"({table.played} played, {table.reused} read), {table.seconds:.1f} s:")
    for r in table.rows:
        print(f"  {r.spec:28s} {r.rating:7.0f} ({r.ci95[0]:.0f} to {r.ci95[1]:.0f})  "
              f"{r.measures}: {r.budget}; measured {r.seconds_per_move:.3g} s, "
              f"{r.simulations_per_move:,.0f} sims a move")
