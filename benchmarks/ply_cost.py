"""What a ply costs through a kernel's Python face, against the C loop.

Shared by the ``bench_*_kernel.py`` files (issue 29): ``python_ply_us``
plays random games through ``legal_actions`` / ``apply_action`` in a
Python loop (chance by ``seeded_outcome``, moves from ``random.Random``,
whose draw costs about as much as a method call: the figure is the kernel's
face, not a slow generator); ``c_ply_us`` plays random games in C through
the game's ``GameDef`` (:func:`solvers.batch.random_games`) in the same
process. Their ratio is the headline, lower is better; the target is
``TARGET_US`` per ply in Python.
"""

from __future__ import annotations

import random
from time import process_time

from solvers.batch import random_games
from solvers.benchtrack import best_rates, headline

TARGET_US = 0.5


def python_games(game, n: int, seed: int) -> int:
    """Play ``n`` random games through the public API; the plies played."""
    rng = random.Random(seed)
    draw = rng.random
    plies = 0
    for _ in range(n):
        state = game.new_initial_state(seed=rng.getrandbits(64))
        is_terminal, is_chance = state.is_terminal, state.is_chance_node
        legal_actions, apply_action = state.legal_actions, state.apply_action
        while not is_terminal():
            if is_chance():
                apply_action(state.seeded_outcome())
            else:
                legal = legal_actions()
                apply_action(legal[int(draw() * len(legal))])
            plies += 1
    return plies


def ply_costs(game, py_games: int, c_games: int, repeats: int) -> tuple[float, float]:
    """(Python, C) microseconds per ply, each the best of ``repeats`` rounds
    (the two sides taking turns, solvers.benchtrack.best_rates), in CPU
    time: both sides are one thread, and on shared cores CPU time leaves
    out the waits for another process."""
    def python(_round):
        start = process_time()
        plies = python_games(game, py_games, 1)
        return plies / (process_time() - start)

    def c(_round):
        start = process_time()
        plies = int(random_games(game, c_games, seed=1).lengths.sum())
        return plies / (process_time() - start)

    rates = best_rates({"python": python, "c": c}, repeats)
    return 1e6 / rates["python"], 1e6 / rates["c"]


def bench_ply_cost(benchmark, game, label: str) -> None:
    """The body of every ``bench_python_ply_cost``: record the two figures
    and the headline; under ``--benchmark-disable`` a few games only."""
    quick = benchmark.disabled
    py_us, c_us = ply_costs(game, 30 if quick else 300, 1000 if quick else 20_000, 3 if quick else 5)
    benchmark.extra_info.update({
        "python_us_per_ply": round(py_us, 4),
        "c_us_per_ply": round(c_us, 4),
        "ratio": round(py_us / c_us, 2),
        "target_us_per_ply": TARGET_US,
    })
    headline(benchmark, "us per ply, Python loop over legal_actions/apply_action / C random game",
             py_us, c_us, against="random games in C through the GameDef (solvers.batch)",
             higher_is_better=False)
    print(f"\n{label}: {py_us:.3f} us a ply through the Python API, {c_us:.3f} us in C "
          f"(x{py_us / c_us:.1f}; target {TARGET_US} us)")
    benchmark.pedantic(python_games, args=(game, 3 if quick else 50, 2), rounds=1, iterations=1)
