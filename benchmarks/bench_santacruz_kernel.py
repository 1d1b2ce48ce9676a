"""Santa Cruz: random games per second, kernel against reference, at 2 and 4
players.

Both figures are measured in the same run and the target is a ratio: the C
playouts (``play_random_games``) should be at least 100 times as fast as the
pure-Python reference playing the same kind of games. The ratio is asserted
only when benchmarks are enabled; under ``--benchmark-disable`` every part
runs once on a few games.
"""

import pytest

from bench_switchbacks_kernel import games_per_second, random_games
from solvers.games.santacruz.kernel import SantaCruzKernel
from solvers.games.santacruz.reference import SantaCruz

TARGET_RATIO = 100.0


@pytest.mark.parametrize("players", [2, 4])
def bench_santacruz_random_games_kernel_vs_reference(benchmark, players):
    quick = benchmark.disabled
    kernel, reference = SantaCruzKernel(players), SantaCruz(players)
    ref_games, ker_games = (3, 100) if quick else (100, 20_000)
    ref_rate = games_per_second(lambda: random_games(reference, ref_games, 1), ref_games,
                                1 if quick else 3)
    ker_rate = games_per_second(lambda: kernel.play_random_games(ker_games, 1), ker_games,
                                1 if quick else 5)
    ratio = ker_rate / ref_rate
    benchmark.extra_info.update({
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_games_per_s": round(ker_rate, 1),
        "ratio": round(ratio, 1),
        "target_ratio": TARGET_RATIO,
    })
    print(f"\nSanta Cruz {players}p random games/s: reference {ref_rate:.0f}, kernel {ker_rate:.0f}, "
          f"ratio {ratio:.0f}x (target {TARGET_RATIO:.0f}x)")
    means = benchmark.pedantic(kernel.play_random_games, args=(ker_games, 2),
                               rounds=1 if quick else 5, iterations=1)
    assert len(means) == players
    if not quick:
        assert ratio >= TARGET_RATIO
