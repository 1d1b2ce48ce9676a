"""Search speed and memory on Switchbacks (issue 3's targets).

Targets, each measured against something run in the same process:

* **MCTS iterations per second** from the Switchbacks opening (our C
  search, 2 players, hidden hands re-dealt every iteration, rollouts as
  the MCTS agent plays them: the game's ``default_rollout``) at least 3x
  OpenSpiel's C++ ``MCTSBot`` simulations per second on ``connect_four``
  (random rollouts, one per simulation). Printed alongside: our rate with
  uniformly random rollouts too, like for like. Needs the ``openspiel``
  extra.
* **Endgame**: the exact search proves a 2-player Switchbacks position with
  8 tiles left to play (3 in each hand and 2 on the stack: the last two
  draws are chance nodes) within 1 s. Printed alongside: the same solver
  on 4, 5, 6 tiles left, so the growth is visible.
* **Memory**: a search of 1M iterations keeps its tree under 1 GB, read
  both from ``Search.memory_bytes`` and from the process's peak RSS.

Under ``--benchmark-disable`` (CI) every part runs once on a tiny budget and
only results are checked.
"""

from __future__ import annotations

import resource
import time

import pytest

import solvers
from solvers._core import mcts as cmcts
from solvers.rng import SplitMix64
from solvers.search import solve_endgame

SPEED_RATIO = 3.0
ENDGAME_SECONDS = 1.0
ENDGAME_TILES = 8
MEMORY_LIMIT = 1 << 30


def opening(seed: int = 1):
    game = solvers.load_game("switchbacks", players=2)
    state = game.new_initial_state(seed=seed)
    state.apply_seeded_chance()
    return game, state


def tiles_left(state) -> int:
    """Tiles still to be played: every hand plus the stack."""
    return sum(len(h) for h in state.hands) + len(state.stack())


def near_end(left: int, seed: int):
    """A 2-player game played at random until ``left`` tiles are still to be
    played (hands and stack); hikers are kept back (buddying up two turns in
    three) so that there is still something to play for."""
    game = solvers.load_game("switchbacks", players=2)
    state = game.new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while True:
        state.apply_seeded_chance()
        if state.is_terminal() or (state.step == "explore" and tiles_left(state) <= left):
            return state
        legal = state.legal_actions()
        if state.step == "hike" and game.BUDDY_UP in legal and rng.below(3):
            state.apply_action(game.BUDDY_UP)
        else:
            state.apply_action(legal[rng.below(len(legal))])


def c_iterations_per_second(game, state, iterations: int, repeats: int = 3,
                            rollout: str | None = None) -> float:
    best = 0.0
    for r in range(repeats):
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=r, owner=game,
                              rollout=rollout or game.default_rollout)
        start = time.perf_counter()
        search.run(iterations=iterations)
        best = max(best, iterations / (time.perf_counter() - start))
    return best


def bench_mcts_speed_vs_openspiel(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    game, state = opening()
    c4 = pyspiel.load_game("connect_four")

    def openspiel_rate(simulations: int, repeats: int = 3) -> float:
        best = 0.0
        for r in range(repeats):
            bot = pyspiel.MCTSBot(c4, pyspiel.RandomRolloutEvaluator(1, r), 1.4, simulations,
                                  1000, False, r, False)
            start = time.perf_counter()
            bot.step(c4.new_initial_state())
            best = max(best, simulations / (time.perf_counter() - start))
        return best

    if benchmark.disabled:
        r = benchmark(c_iterations_per_second, game, state, 500, 1)
        assert r > 0 and openspiel_rate(200, 1) > 0
        return
    n = 200_000
    theirs = openspiel_rate(20_000)
    benchmark.pedantic(c_iterations_per_second, args=(game, state, n, 1), rounds=3, iterations=1)
    ours = n / benchmark.stats.stats.min
    uniform = c_iterations_per_second(game, state, n, 3, rollout="random")
    ratio = ours / theirs
    benchmark.extra_info.update({"switchbacks_iterations_per_s": round(ours),
                                 "rollout": game.default_rollout,
                                 "switchbacks_random_rollouts_per_s": round(uniform),
                                 "openspiel_connect_four_simulations_per_s": round(theirs),
                                 "ratio": round(ratio, 2), "ratio_random_rollouts": round(uniform / theirs, 2)})
    print(f"\nMCTS: Switchbacks opening {ours:.0f} it/s (C, {game.default_rollout!r} rollouts; "
          f"{uniform:.0f} with random rollouts), OpenSpiel MCTSBot connect_four {theirs:.0f} sims/s: "
          f"{ratio:.1f}x ({uniform / theirs:.1f}x) (target {SPEED_RATIO:g}x)")
    assert ratio >= SPEED_RATIO, f"only {ratio:.1f}x OpenSpiel's C++ MCTS"


def prove(state, max_nodes: int):
    return solve_endgame(state, per_action=False, line=True, max_nodes=max_nodes)


def timed_proof(state, max_nodes: int) -> tuple[bool, int, float]:
    start = time.perf_counter()
    try:
        r = prove(state, max_nodes)
    except solvers.SolversError:
        return False, max_nodes, time.perf_counter() - start
    return True, r.nodes, time.perf_counter() - start


def bench_endgame_eight_tiles(benchmark):
    if benchmark.disabled:
        small = near_end(4, seed=3)
        r = benchmark(prove, small, 1_000_000)
        assert abs(sum(r.value) - 1.0) < 1e-9 and r.action in small.legal_actions()
        return
    ladder = {}
    for left in (4, 5, 6):
        ok, nodes, seconds = timed_proof(near_end(left, seed=3), 5_000_000)
        ladder[left] = {"proven": ok, "nodes": nodes, "seconds": round(seconds, 3)}
    state = near_end(ENDGAME_TILES, seed=3)
    assert tiles_left(state) == ENDGAME_TILES and len(state.stack()) == 2
    budget = 20_000_000
    result = {}

    def run():
        result["proof"] = timed_proof(state, budget)

    benchmark.pedantic(run, rounds=1, iterations=1)
    proven, nodes, seconds = result["proof"]
    rate = nodes / seconds
    benchmark.extra_info.update({"tiles_left": ENDGAME_TILES, "proven": proven, "seconds": round(seconds, 3),
                                 "nodes": nodes, "nodes_per_s": round(rate), "ladder": ladder})
    print(f"\nendgame, {ENDGAME_TILES} tiles left: {'proven' if proven else 'NOT proven'} after "
          f"{nodes} nodes in {seconds:.2f} s ({rate:.0f} nodes/s); smaller: {ladder}")
    assert proven and seconds <= ENDGAME_SECONDS, (
        f"{ENDGAME_TILES} tiles left: {'proven in %.2f s' % seconds if proven else 'not proven'} "
        f"within {nodes} nodes (target {ENDGAME_SECONDS:g} s)")


def bench_mcts_memory_million_iterations(benchmark):
    game, state = opening()
    iterations = 20_000 if benchmark.disabled else 1_000_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    def big_search():
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
        search.run(iterations=iterations)
        return search

    search = benchmark.pedantic(big_search, rounds=1, iterations=1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert search.iterations == iterations
    assert search.nodes_used <= iterations + 1
    assert search.memory_bytes >= search.nodes_used * cmcts.NODE_BYTES
    benchmark.extra_info.update({"iterations": iterations, "nodes": search.nodes_used,
                                 "memory_bytes": search.memory_bytes,
                                 "peak_rss_growth_bytes": max(0, peak - before)})
    if not benchmark.disabled:
        print(f"\nMCTS {iterations} iterations: {search.nodes_used} nodes, pool "
              f"{search.memory_bytes / 2**20:.0f} MiB, peak RSS grew {(peak - before) / 2**20:.0f} MiB")
    assert search.memory_bytes < MEMORY_LIMIT
    assert peak - before < MEMORY_LIMIT
