"""Random solo Coast to Coast games per second: the Cython kernel against the
pure-Python reference, both measured in this process.

Target: the kernel plays random games at least 100 times as fast as the
reference. ``benchmark.extra_info`` records both rates and the ratio (plus the
kernel driven through its Python methods, for information). Under
``--benchmark-disable`` everything runs once on a few games and only the
results are checked, not the speed.
"""

from __future__ import annotations

import time

from solvers.benchtrack import best_rates, headline
from solvers.games.c2c.kernel import CoastToCoastKernel, play_random_games
from solvers.games.c2c.reference import CoastToCoast
from solvers.rng import SplitMix64

TARGET_RATIO = 100.0


def python_random_games(game, n: int, seed: int) -> float:
    """Mean score of ``n`` random games played through the Python interface."""
    rng = SplitMix64(seed)
    total = 0
    for _ in range(n):
        state = game.new_initial_state(rng.next())
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
        total += state.scores()[0]
    return total / n


def games_per_second(play, game, n: int, seed: int, repeats: int = 3) -> tuple[float, float]:
    """Best rate of a few runs, and the mean score of the last."""
    best, mean = 0.0, 0.0
    for r in range(repeats):
        start = time.perf_counter()
        mean = play(game, n, seed + r)
        best = max(best, n / (time.perf_counter() - start))
    return best, mean


def bench_c2c_random_solo_games(benchmark):
    kernel, reference = CoastToCoastKernel(players=1), CoastToCoast(players=1)
    figure, against = "random solo games/s, kernel / reference", "the pure-Python reference rules"
    if benchmark.disabled:
        mean = benchmark(play_random_games, kernel, 200, 1)
        ref_mean = python_random_games(reference, 5, 1)
        assert 0 < mean < 200 and 0 < ref_mean < 200
        rates = best_rates({"reference": lambda r: games_per_second(python_random_games, reference, 10, 1, 1)[0],
                            "kernel": lambda r: games_per_second(play_random_games, kernel, 2000, 1, 1)[0]},
                           5)
        headline(benchmark, figure, rates["kernel"], rates["reference"], against=against,
                 target=TARGET_RATIO)
        return
    games = 20000
    ref_rate, ref_mean = games_per_second(python_random_games, reference, 150, 1)
    py_rate, _ = games_per_second(python_random_games, kernel, 1500, 1)
    mean = benchmark.pedantic(play_random_games, args=(kernel, games, 1), rounds=5, iterations=1)
    kernel_rate = games / benchmark.stats.stats.min
    ratio = kernel_rate / ref_rate
    benchmark.extra_info.update({
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_games_per_s": round(kernel_rate, 1),
        "ratio": round(ratio, 1),
        "kernel_python_api_games_per_s": round(py_rate, 1),
        "kernel_python_api_ratio": round(py_rate / ref_rate, 1),
        "mean_score_kernel": round(mean, 2),
        "mean_score_reference": round(ref_mean, 2),
    })
    headline(benchmark, figure, kernel_rate, ref_rate, against=against, target=TARGET_RATIO)
    print(f"\nrandom solo games/s: reference {ref_rate:.0f}, kernel {kernel_rate:.0f} "
          f"(ratio {ratio:.0f}x); kernel via Python methods {py_rate:.0f} "
          f"({py_rate / ref_rate:.0f}x)")
    assert abs(mean - ref_mean) < 5  # the same game: similar random scores
    assert ratio >= TARGET_RATIO, f"kernel only {ratio:.0f}x the reference"


def bench_python_ply_cost(benchmark):
    """Microseconds a ply through ``legal_actions`` / ``apply_action`` in a
    Python loop, and its ratio to a ply of the C random game (issue 29:
    target 0.5 us; see ply_cost.py)."""
    from ply_cost import bench_ply_cost
    bench_ply_cost(benchmark, CoastToCoastKernel(2), "Coast to Coast 2p")
