"""Search speed and memory: MCTS iterations per second (C against the Python
fallback, measured in the same process), the node pool of a large search, and
endgame nodes per second.

Targets are ratios to a baseline from the same run, never absolute times:

* C MCTS at least 10x the Python MCTS on the same toy game (the Python search
  runs over the toy's C-backed Python methods, so this compares the search
  loops alone), and at least 100x on Coast to Coast, where the baseline is the
  Python search over the pure-Python reference rules;
* a million-iteration search keeps its tree well under 1 GB;
* the C endgame solver (with its transposition table) at least 20x the
  Python reference solver (without one) on a small Pig endgame.

``benchmark.extra_info`` records every figure. Under ``--benchmark-disable``
each part runs once on a tiny budget and only results are checked.
"""

from __future__ import annotations

import time

import pytest

import solvers
from solvers._core import mcts as cmcts
from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.benchtrack import headline
from solvers.search import make_search, mcts_search, solve_endgame

MCTS_TOY_RATIO = 10.0
MCTS_C2C_RATIO = 100.0
ENDGAME_RATIO = 20.0


def iterations_per_second(state, backend: str, iterations: int, repeats: int = 3) -> float:
    best = 0.0
    for r in range(repeats):
        search = make_search(state, backend=backend, seed=r)
        start = time.perf_counter()
        search.run(iterations=iterations)
        best = max(best, iterations / (time.perf_counter() - start))
    return best


def c_search(game, state, iterations: int, seed: int = 1) -> dict:
    return cmcts.search(game._gamedef_capsule(), state._state_capsule(), iterations=iterations,
                        seed=seed, owner=game)


def c_rate_of(benchmark, game, state, n: int) -> tuple[dict, float]:
    """One C search of ``n`` iterations under the fixture (once when
    disabled): its result and its iterations per second."""
    start = time.perf_counter()
    r = benchmark(c_search, game, state, n)
    return r, n / (time.perf_counter() - start)


def bench_mcts_tictactoe_c_vs_python(benchmark):
    game = TicTacToe()
    state = game.new_initial_state()
    figure, against = "MCTS iterations/s on tic-tac-toe, C / Python", "the Python MCTS"
    if benchmark.disabled:
        r, c_rate = c_rate_of(benchmark, game, state, 3000)
        assert r["iterations"] == 3000 and r["action"] in range(9)
        py_rate = iterations_per_second(state, "python", 100, repeats=3)
        c_rate = max(c_rate, iterations_per_second(state, "c", 3000, repeats=2))
        headline(benchmark, figure, c_rate, py_rate, against=against, target=MCTS_TOY_RATIO)
        return
    n = 200_000
    py_rate = iterations_per_second(state, "python", 3000)
    benchmark.pedantic(c_search, args=(game, state, n), rounds=5, iterations=1)
    c_rate = n / benchmark.stats.stats.min
    ratio = c_rate / py_rate
    benchmark.extra_info.update({"c_iterations_per_s": round(c_rate), "python_iterations_per_s": round(py_rate),
                                 "ratio": round(ratio, 1)})
    headline(benchmark, figure, c_rate, py_rate, against=against, target=MCTS_TOY_RATIO)
    print(f"\ntic-tac-toe MCTS iterations/s: C {c_rate:.0f}, Python {py_rate:.0f} ({ratio:.0f}x)")
    assert ratio >= MCTS_TOY_RATIO, f"C MCTS only {ratio:.0f}x the Python search"


def bench_mcts_hidden_cards_c(benchmark):
    """ISMCTS with a determinisation per iteration (3 players, hidden hands)."""
    game = HighCard(players=3)
    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    figure, against = "ISMCTS iterations/s, 3-player high card, C / Python", "the Python MCTS"
    if benchmark.disabled:
        r, c_rate = c_rate_of(benchmark, game, state, 3000)
        assert r["iterations"] == 3000
        py_rate = iterations_per_second(state, "python", 100, repeats=3)
        c_rate = max(c_rate, iterations_per_second(state, "c", 3000, repeats=2))
        headline(benchmark, figure, c_rate, py_rate, against=against, target=MCTS_TOY_RATIO)
        return
    n = 200_000
    py_rate = iterations_per_second(state, "python", 3000)
    benchmark.pedantic(c_search, args=(game, state, n), rounds=5, iterations=1)
    c_rate = n / benchmark.stats.stats.min
    benchmark.extra_info.update({"c_iterations_per_s": round(c_rate), "python_iterations_per_s": round(py_rate),
                                 "ratio": round(c_rate / py_rate, 1)})
    headline(benchmark, figure, c_rate, py_rate, against=against, target=MCTS_TOY_RATIO)
    print(f"\nhigh-card ISMCTS iterations/s: C {c_rate:.0f}, Python {py_rate:.0f} ({c_rate / py_rate:.0f}x)")
    assert c_rate / py_rate >= MCTS_TOY_RATIO


def c2c_opening(reference: bool, players: int = 1):
    game = solvers.load_game("c2c", players=players, reference=reference)
    state = game.new_initial_state(seed=7)
    state.apply_seeded_chance()
    return game, state


def bench_mcts_c2c_kernel_vs_reference(benchmark):
    game, state = c2c_opening(False)
    _, ref_state = c2c_opening(True)
    figure = "MCTS iterations/s, solo Coast to Coast, C kernel / Python over the reference"
    against = "the Python MCTS on the pure-Python reference rules"
    if benchmark.disabled:
        r, c_rate = c_rate_of(benchmark, game, state, 1000)
        assert r["iterations"] == 1000
        ref_rate = iterations_per_second(ref_state, "python", 4, repeats=2)
        c_rate = max(c_rate, iterations_per_second(state, "c", 1000, repeats=2))
        headline(benchmark, figure, c_rate, ref_rate, against=against, target=MCTS_C2C_RATIO)
        return
    n = 100_000
    ref_rate = iterations_per_second(ref_state, "python", 40, repeats=2)
    benchmark.pedantic(c_search, args=(game, state, n), rounds=3, iterations=1)
    c_rate = n / benchmark.stats.stats.min
    ratio = c_rate / ref_rate
    benchmark.extra_info.update({"c_iterations_per_s": round(c_rate),
                                 "python_reference_iterations_per_s": round(ref_rate, 1),
                                 "ratio": round(ratio, 1)})
    headline(benchmark, figure, c_rate, ref_rate, against=against, target=MCTS_C2C_RATIO)
    print(f"\nCoast to Coast solo MCTS iterations/s: C kernel {c_rate:.0f}, "
          f"Python over the reference {ref_rate:.1f} ({ratio:.0f}x)")
    assert ratio >= MCTS_C2C_RATIO


def bench_mcts_memory_of_a_large_search(benchmark):
    """A million iterations (a thousand when disabled) on 3-player Coast to
    Coast: the node and edge pools (one node and one edge per tree node, at
    least), against 1 GB."""
    game, state = c2c_opening(False, players=3)
    n = 1000 if benchmark.disabled else 1_000_000

    def run():
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
        result = search.run(iterations=n)
        return result, search.memory_bytes

    result, pool = benchmark.pedantic(run, rounds=1, iterations=1)
    per_node = cmcts.NODE_BYTES + cmcts.EDGE_BYTES
    used = result["nodes"] * per_node
    benchmark.extra_info.update({"iterations": n, "nodes": result["nodes"], "node_bytes": cmcts.NODE_BYTES,
                                 "edge_bytes": cmcts.EDGE_BYTES, "tree_mb": round(used / 2**20, 1),
                                 "pool_mb": round(pool / 2**20, 1),
                                 "iterations_per_s": round(n / result["seconds"])})
    headline(benchmark, "node pools allocated / bytes the tree uses", pool, used,
             against="the tree's own nodes and edges", higher_is_better=False, kind="memory")
    print(f"\n{n} iterations: {result['nodes']} nodes x ({cmcts.NODE_BYTES} + {cmcts.EDGE_BYTES}) B = "
          f"{used / 2**20:.1f} MB (pools allocated {pool / 2**20:.1f} MB), "
          f"{n / result['seconds']:.0f} iterations/s")
    assert used <= pool
    assert result["nodes"] <= n + 1
    assert pool < 2**30 // 4


def bench_endgame_c_vs_python(benchmark):
    state = Pig(players=2, target=8, die=3, max_turns=4).new_initial_state()
    figure, against = "exact endgame on Pig, time of the Python solver / the C solver", "the Python solver (no table)"
    if benchmark.disabled:
        small = Pig(players=2, target=6, die=3, max_turns=3).new_initial_state()
        start = time.perf_counter()
        r = benchmark(solve_endgame, small)
        c_time = time.perf_counter() - start
        start = time.perf_counter()
        py = solve_endgame(small, backend="python")
        py_time = time.perf_counter() - start
        assert r.value == pytest.approx(py.value)
        headline(benchmark, figure, py_time, c_time, against=against, target=ENDGAME_RATIO)
        return
    start = time.perf_counter()
    py = solve_endgame(state, backend="python")
    py_time = time.perf_counter() - start
    r = benchmark.pedantic(solve_endgame, args=(state,), rounds=5, iterations=1)
    c_time = benchmark.stats.stats.min
    assert r.value == pytest.approx(py.value)
    ratio = py_time / c_time
    benchmark.extra_info.update({"c_seconds": c_time, "c_nodes": r.nodes, "python_seconds": py_time,
                                 "python_nodes": py.nodes, "ratio": round(ratio, 1)})
    headline(benchmark, figure, py_time, c_time, against=against, target=ENDGAME_RATIO)
    print(f"\nPig endgame: C {c_time * 1e3:.2f} ms ({r.nodes} nodes, with table), "
          f"Python {py_time * 1e3:.0f} ms ({py.nodes} nodes, no table) ({ratio:.0f}x)")
    assert ratio >= ENDGAME_RATIO
