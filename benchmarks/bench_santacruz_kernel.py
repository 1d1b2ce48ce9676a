"""Santa Cruz: random games per second, kernel against reference, at 2 and 4
players.

Both figures are measured in the same run and the target is a ratio: the C
playouts (``play_random_games``) should be at least 100 times as fast as the
pure-Python reference playing the same kind of games. The ratio is asserted
only when benchmarks are enabled; under ``--benchmark-disable`` every part
runs once on a few games.
"""

from time import perf_counter

import pytest

from bench_switchbacks_kernel import kernel_vs_reference
from solvers.benchtrack import headline
from solvers.games.santacruz.kernel import SantaCruzKernel
from solvers.games.santacruz.reference import SantaCruz

TARGET_RATIO = 100.0


@pytest.mark.parametrize("players", [2, 4])
def bench_santacruz_random_games_kernel_vs_reference(benchmark, players):
    quick = benchmark.disabled
    kernel, reference = SantaCruzKernel(players), SantaCruz(players)
    ref_games, ker_games = (3, 300) if quick else (100, 20_000)
    ref_rate, ker_rate = kernel_vs_reference(kernel, reference, ref_games, ker_games,
                                             5 if quick else 3)
    ratio = ker_rate / ref_rate
    benchmark.extra_info.update({
        "reference_games_per_s": round(ref_rate, 1),
        "kernel_games_per_s": round(ker_rate, 1),
        "ratio": round(ratio, 1),
        "target_ratio": TARGET_RATIO,
    })
    headline(benchmark, f"random {players}-player games/s, kernel / reference", ker_rate, ref_rate,
             against="the pure-Python reference rules", target=TARGET_RATIO)
    print(f"\nSanta Cruz {players}p random games/s: reference {ref_rate:.0f}, kernel {ker_rate:.0f}, "
          f"ratio {ratio:.0f}x (target {TARGET_RATIO:.0f}x)")
    means = benchmark.pedantic(kernel.play_random_games, args=(ker_games, 2),
                               rounds=1 if quick else 5, iterations=1)
    assert len(means) == players
    if not quick:
        assert ratio >= TARGET_RATIO


MCTS_RATIO = 1.0


def c_iterations_per_second(game, state, iterations: int, repeats: int = 3) -> float:
    """Our C MCTS from ``state`` with the game's default rollouts: the best
    iterations per second of ``repeats`` searches."""
    from solvers._core import mcts as cmcts

    best = 0.0
    for r in range(repeats):
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=r, owner=game,
                              rollout=game.default_rollout)
        start = perf_counter()
        search.run(iterations=iterations)
        best = max(best, iterations / (perf_counter() - start))
    return best


def bench_santacruz_mcts_speed_vs_openspiel(benchmark):
    """MCTS iterations per second from the Santa Cruz opening (2 players,
    hidden information re-dealt every iteration, the game's default
    rollouts) against OpenSpiel's C++ ``MCTSBot`` simulations per second on
    ``connect_four`` in the same run; target at least 1x."""
    pyspiel = pytest.importorskip("pyspiel")

    game = SantaCruzKernel(2)
    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    c4 = pyspiel.load_game("connect_four")

    def openspiel_rate(simulations: int, repeats: int) -> float:
        best = 0.0
        for r in range(repeats):
            bot = pyspiel.MCTSBot(c4, pyspiel.RandomRolloutEvaluator(1, r), 1.4, simulations,
                                  1000, False, r, False)
            start = perf_counter()
            bot.step(c4.new_initial_state())
            best = max(best, simulations / (perf_counter() - start))
        return best

    figure = "MCTS iterations/s, Santa Cruz 2p opening / OpenSpiel MCTSBot on connect_four"
    against = "OpenSpiel's C++ MCTSBot simulations/s (connect_four)"
    if benchmark.disabled:
        ours = benchmark(c_iterations_per_second, game, state, 300, 3)
        theirs = openspiel_rate(300, 3)
        assert ours > 0 and theirs > 0
        headline(benchmark, figure, ours, theirs, against=against, target=MCTS_RATIO)
        return
    n = 50_000
    theirs = openspiel_rate(20_000, 3)
    benchmark.pedantic(c_iterations_per_second, args=(game, state, n, 1), rounds=3, iterations=1)
    ours = n / benchmark.stats.stats.min
    ratio = ours / theirs
    benchmark.extra_info.update({"santacruz_iterations_per_s": round(ours),
                                 "openspiel_connect_four_simulations_per_s": round(theirs),
                                 "ratio": round(ratio, 2), "target_ratio": MCTS_RATIO})
    headline(benchmark, figure, ours, theirs, against=against, target=MCTS_RATIO)
    print(f"\nMCTS: Santa Cruz opening {ours:.0f} it/s, OpenSpiel MCTSBot connect_four "
          f"{theirs:.0f} sims/s: {ratio:.1f}x (target {MCTS_RATIO:g}x)")
    assert ratio >= MCTS_RATIO


def bench_python_ply_cost(benchmark):
    """Microseconds a ply through ``legal_actions`` / ``apply_action`` in a
    Python loop, and its ratio to a ply of the C random game (issue 29:
    target 0.5 us; see ply_cost.py)."""
    from ply_cost import bench_ply_cost
    bench_ply_cost(benchmark, SantaCruzKernel(2), "Santa Cruz 2p")
