"""Switchbacks: random 2-player games per second, kernel against reference.

Both figures are measured in the same run and the target is a ratio: the C
playouts (``play_random_games``) should be at least 100 times as fast as the
pure-Python reference playing the same kind of games. The ratio is asserted
only when benchmarks are enabled; under ``--benchmark-disable`` every part
runs once on a few games.
"""

from time import perf_counter

from solvers.benchtrack import best_rates, headline
from solvers.games.switchbacks.kernel import SwitchbacksKernel
from solvers.games.switchbacks.reference import Switchbacks
from solvers.rng import SplitMix64

TARGET_RATIO = 100.0


def random_games(game, n, seed):
    """``n`` games with uniformly random moves through the Python interface;
    chance follows each game's seeded deck (itself uniformly shuffled)."""
    rng = SplitMix64(seed)
    total = 0
    for _ in range(n):
        state = game.new_initial_state(seed=rng.next())
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
        total += sum(state.scores())
    return total


def kernel_vs_reference(kernel, reference, ref_games: int, ker_games: int,
                        repeats: int) -> tuple[float, float]:
    """(reference, kernel) random games per second: the best of ``repeats``
    rounds, the two sides taking turns in each (solvers.benchtrack.best_rates)."""
    def rate(run, n):
        start = perf_counter()
        run()
        return n / (perf_counter() - start)

    best = best_rates({
        "reference": lambda r: rate(lambda: random_games(reference, ref_games, 1), ref_games),
        "kernel": lambda r: rate(lambda: kernel.play_random_games(ker_games, 1), ker_games),
    }, repeats)
    return best["reference"], best["kernel"]


def games_per_second(run, n, repeats):
    best = float("inf")
    for _ in range(repeats):
        start = perf_counter()
        run()
        best = min(best, perf_counter() - start)
    return n / best


def bench_random_games_kernel_vs_reference(benchmark):
    quick = benchmark.disabled
    kernel, reference = SwitchbacksKernel(2), Switchbacks(2)
    ref_games, ker_games = (5, 1000) if quick else (300, 50_000)
    ref_rate, ker_rate = kernel_vs_reference(kernel, reference, ref_games, ker_games,
                                             5 if quick else 3)
    ratio = ker_rate / ref_rate
    benchmark.extra_info.update({
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_games_per_s": round(ker_rate, 1),
        "ratio": round(ratio, 1),
        "target_ratio": TARGET_RATIO,
    })
    headline(benchmark, "random 2-player games/s, kernel / reference", ker_rate, ref_rate,
             against="the pure-Python reference rules", target=TARGET_RATIO)
    print(f"\nSwitchbacks 2p random games/s: reference {ref_rate:.0f}, kernel {ker_rate:.0f}, "
          f"ratio {ratio:.0f}x (target {TARGET_RATIO:.0f}x)")
    means = benchmark.pedantic(kernel.play_random_games, args=(ker_games, 2),
                               rounds=1 if quick else 5, iterations=1)
    assert len(means) == 2
    if not quick:
        assert ratio >= TARGET_RATIO


def bench_python_interface_kernel_vs_reference(benchmark):
    """The same random games driven from Python through ``apply_action``:
    the cost an agent written in Python pays (reported, not asserted)."""
    quick = benchmark.disabled
    kernel, reference = SwitchbacksKernel(2), Switchbacks(2)
    n = 3 if quick else 200
    rates = best_rates({"reference": lambda r: games_per_second(lambda: random_games(reference, n, 3), n, 1),
                        "kernel": lambda r: games_per_second(lambda: random_games(kernel, n, 3), n, 1)},
                       3)
    ref_rate, ker_rate = rates["reference"], rates["kernel"]
    benchmark.extra_info.update({
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_python_games_per_s": round(ker_rate, 1),
        "ratio": round(ker_rate / ref_rate, 2),
    })
    headline(benchmark, "random games/s through the Python interface, kernel / reference",
             ker_rate, ref_rate, against="the pure-Python reference rules")
    # the two implementations play the very same games
    assert random_games(kernel, 3, 4) == random_games(reference, 3, 4)
    benchmark.pedantic(random_games, args=(kernel, n, 5), rounds=1, iterations=1)


def bench_python_ply_cost(benchmark):
    """Microseconds a ply through ``legal_actions`` / ``apply_action`` in a
    Python loop, and its ratio to a ply of the C random game (issue 29:
    target 0.5 us; see ply_cost.py)."""
    from ply_cost import bench_ply_cost
    bench_ply_cost(benchmark, SwitchbacksKernel(2), "Switchbacks 2p")
