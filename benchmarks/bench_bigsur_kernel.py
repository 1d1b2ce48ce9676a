"""Big Sur: random games per second, kernel against reference, at 2, 3 and 4
players.

Both figures come from the same run and the target is a ratio: the C
playouts (``play_random_games``) should be at least 100 times as fast as the
pure-Python reference playing the same kind of games (uniformly random moves,
chance from the seeded decks). The ratio is asserted only when benchmarks
are enabled; under ``--benchmark-disable`` every part runs once on a few
games.
"""

import pytest

from bench_switchbacks_kernel import kernel_vs_reference
from solvers.benchtrack import headline
from solvers.games.bigsur.kernel import BigSurKernel
from solvers.games.bigsur.reference import BigSur

TARGET_RATIO = 100.0


@pytest.mark.parametrize("players", [2, 3, 4])
def bench_random_games_kernel_vs_reference(benchmark, players):
    quick = benchmark.disabled
    kernel, reference = BigSurKernel(players), BigSur(players)
    ref_games, ker_games = (3, 300) if quick else (60, 10_000)
    ref_rate, ker_rate = kernel_vs_reference(kernel, reference, ref_games, ker_games,
                                             5 if quick else 3)
    ratio = ker_rate / ref_rate
    benchmark.extra_info.update({
        "players": players,
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_games_per_s": round(ker_rate, 1),
        "ratio": round(ratio, 1),
        "target_ratio": TARGET_RATIO,
    })
    headline(benchmark, f"random {players}-player games/s, kernel / reference", ker_rate, ref_rate,
             against="the pure-Python reference rules", target=TARGET_RATIO)
    print(f"\nBig Sur {players}p random games/s: reference {ref_rate:.1f}, kernel {ker_rate:.0f}, "
          f"ratio {ratio:.0f}x (target {TARGET_RATIO:.0f}x)")
    means = benchmark.pedantic(kernel.play_random_games, args=(ker_games, 2),
                               rounds=1 if quick else 3, iterations=1)
    assert len(means) == players
    if not quick:
        assert ratio >= TARGET_RATIO


def bench_python_ply_cost(benchmark):
    """Microseconds a ply through ``legal_actions`` / ``apply_action`` in a
    Python loop, and its ratio to a ply of the C random game (issue 29:
    target 0.5 us; see ply_cost.py)."""
    from ply_cost import bench_ply_cost
    bench_ply_cost(benchmark, BigSurKernel(2), "Big Sur 2p")
