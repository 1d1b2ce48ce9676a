"""Search speed and memory: our MCTS against OpenSpiel's on the same game,
what the fused playout gains on Switchbacks, the endgame solver, the tree's
memory.

Each target is measured against something run in the same process:

* **MCTS against OpenSpiel, on connect_four** (``bench_mcts_speed_vs_openspiel``,
  needs the ``openspiel`` extra): our C search on our Connect Four kernel
  against OpenSpiel's C++ ``MCTSBot`` on its ``connect_four``, from the empty
  grid. Both get the same budget (the same number of iterations, one new
  leaf and one rollout each: ``RandomRolloutEvaluator(n_rollouts=1)`` there,
  ``rollout="random"`` here, uniformly random moves to the end of the game),
  the same exploration (``uct_c=1.4`` on OpenSpiel's +1/-1 returns, ``c=0.7``
  on our 1/0 returns, which ranks children alike), ``solve=False`` so that
  OpenSpiel does not stop early on a proven value, and the same timing
  scope: creating the start state, building the searcher, searching,
  choosing the move and freeing the tree. Target: our iterations per second
  at least 3x OpenSpiel's, with the rollouts played move by move through
  the C game table (``ConnectFour(playout=False)``, as OpenSpiel does through
  its ``State``). Printed alongside: the rate with the kernel's fused
  playout.
* **Equal iterations, Connect Four** (``bench_mcts_connect_four_match_vs_openspiel``):
  a 40-game match of the two searches at 5,000 iterations a move, seats
  alternating, so that an iteration is seen to buy as much on each side.
* **Fused playout on Switchbacks** (``bench_switchbacks_fused_playout``): the
  same search from the 2-player opening with the agent's rollouts, through
  ``GameDef.playout`` (one call per rollout) and move by move
  (``Search(playout=False)``). A figure, not a target: it says how much of
  our Switchbacks speed comes from the fusion.
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
from solvers._core.connect_four import ConnectFour
from solvers.benchtrack import best_rates, headline
from solvers.rng import SplitMix64
from solvers.search import solve_endgame

SPEED_RATIO = 3.0
ENDGAME_SECONDS = 1.0
ENDGAME_TILES = 8
MEMORY_LIMIT = 1 << 30
# OpenSpiel's exploration constant; ours is half of it (returns 1/0 against +1/-1).
OPENSPIEL_C = 1.4


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


def our_move(game: ConnectFour, iterations: int, seed: int) -> tuple[int, float]:
    """Our move from the empty grid and the seconds it took: the start state,
    the search (uniformly random rollouts), the move, the tree freed."""
    start = time.perf_counter()
    state = game.new_initial_state()
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), c=OPENSPIEL_C / 2, seed=seed,
                          owner=game, rollout="random", max_nodes=iterations + 1)
    action = search.run(iterations=iterations)["action"]
    del search
    return action, time.perf_counter() - start


def openspiel_move(pyspiel, game, iterations: int, seed: int) -> tuple[int, float]:
    """OpenSpiel's move from the empty grid and the seconds it took, in the
    same scope: ``MCTSBot.step`` searches, picks the most visited child and
    frees its tree before it returns."""
    start = time.perf_counter()
    state = game.new_initial_state()
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), OPENSPIEL_C, iterations,
                          4000, False, seed, False)
    action = bot.step(state)
    del bot
    return action, time.perf_counter() - start


def race(pyspiel, iterations: int, rounds: int) -> dict[str, float]:
    """Best iterations per second of each side over ``rounds`` rounds, the
    sides taking turns within a round so that a busy machine slows them alike."""
    theirs = pyspiel.load_game("connect_four")
    loop, fused = ConnectFour(playout=False), ConnectFour(playout=True)
    best = {"openspiel": 0.0, "ours_move_by_move": 0.0, "ours_fused": 0.0}
    for r in range(rounds):
        for name, run in (("openspiel", lambda: openspiel_move(pyspiel, theirs, iterations, r)),
                          ("ours_move_by_move", lambda: our_move(loop, iterations, r)),
                          ("ours_fused", lambda: our_move(fused, iterations, r))):
            action, seconds = run()
            assert action in range(7)
            best[name] = max(best[name], iterations / seconds)
    return best


def bench_mcts_speed_vs_openspiel(benchmark):
    pyspiel = pytest.importorskip("pyspiel")
    figure = "MCTS iterations/s on connect_four, ours (move by move) / OpenSpiel's MCTSBot"
    against = "OpenSpiel's C++ MCTSBot, the same game and settings"
    if benchmark.disabled:
        rates = benchmark(race, pyspiel, 300, 3)
        assert all(r > 0 for r in rates.values())
        headline(benchmark, figure, rates["ours_move_by_move"], rates["openspiel"], against=against,
                 target=SPEED_RATIO)
        return
    iterations = 100_000
    rates = benchmark.pedantic(race, args=(pyspiel, iterations, 5), rounds=1, iterations=1)
    ratio = rates["ours_move_by_move"] / rates["openspiel"]
    fused_ratio = rates["ours_fused"] / rates["openspiel"]
    benchmark.extra_info.update({"game": "connect_four", "iterations": iterations,
                                 **{f"{k}_iterations_per_s": round(v) for k, v in rates.items()},
                                 "ratio_move_by_move": round(ratio, 2), "ratio_fused": round(fused_ratio, 2)})
    headline(benchmark, figure, rates["ours_move_by_move"], rates["openspiel"], against=against,
             target=SPEED_RATIO)
    print(f"\nMCTS on connect_four, {iterations} iterations from the empty grid, random rollouts: "
          f"OpenSpiel MCTSBot {rates['openspiel']:.0f} it/s; ours move by move "
          f"{rates['ours_move_by_move']:.0f} it/s ({ratio:.1f}x), ours fused playout "
          f"{rates['ours_fused']:.0f} it/s ({fused_ratio:.1f}x) (target {SPEED_RATIO:g}x move by move)")
    assert ratio >= SPEED_RATIO, f"only {ratio:.1f}x OpenSpiel's C++ MCTS on connect_four"


def equal_iterations_match(pyspiel, games: int, iterations: int) -> float:
    """Our points (1 a win, 0.5 a draw) in ``games`` games of Connect Four
    against OpenSpiel's MCTSBot, both with ``iterations`` per move and the
    settings of the race, seats alternating."""
    theirs_game, game = pyspiel.load_game("connect_four"), ConnectFour()
    points = 0.0
    for g in range(games):
        ours_seat = g % 2
        ours, theirs = game.new_initial_state(), theirs_game.new_initial_state()
        while not ours.is_terminal():
            seed = 1000 * g + len(ours.history)
            if ours.current_player() == ours_seat:
                search = cmcts.Search(game._gamedef_capsule(), ours._state_capsule(), c=OPENSPIEL_C / 2,
                                      seed=seed, owner=game, rollout="random", max_nodes=iterations + 1)
                move = search.run(iterations=iterations)["action"]
            else:
                move = pyspiel.MCTSBot(theirs_game, pyspiel.RandomRolloutEvaluator(1, seed), OPENSPIEL_C,
                                       iterations, 4000, False, seed, False).step(theirs)
            ours.apply_action(move)
            theirs.apply_action(move)
        points += ours.returns()[ours_seat]
    return points


def bench_mcts_connect_four_match_vs_openspiel(benchmark):
    """What an iteration buys on each side: a match at equal iterations. A
    figure with a loose check (our search is not far weaker per iteration,
    which would make the speed race meaningless): at least a quarter of the
    points."""
    pyspiel = pytest.importorskip("pyspiel")
    games, iterations = (2, 50) if benchmark.disabled else (40, 5000)
    points = benchmark.pedantic(equal_iterations_match, args=(pyspiel, games, iterations), rounds=1,
                                iterations=1)
    assert 0 <= points <= games
    headline(benchmark, f"Connect Four points at {iterations} iterations a move, ours / OpenSpiel's",
             points, max(games - points, 0.5), against="OpenSpiel's MCTSBot, equal iterations (points at least 0.5)",
             kind="strength")
    if benchmark.disabled:
        return
    benchmark.extra_info.update({"games": games, "iterations_per_move": iterations, "our_points": points})
    print(f"\nConnect Four at {iterations} iterations a move, ours vs OpenSpiel MCTSBot: "
          f"{points:g} - {games - points:g} over {games} games")
    assert points >= games / 4


def switchbacks_rates(iterations: int, rounds: int) -> dict[str, float]:
    """Best iterations per second from the Switchbacks opening with the
    agent's rollouts, fused and move by move, taking turns."""
    game, state = opening()
    best = {"fused": 0.0, "move_by_move": 0.0}
    for r in range(rounds):
        for name in best:
            search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=r, owner=game,
                                  rollout=game.default_rollout, playout=name == "fused")
            start = time.perf_counter()
            search.run(iterations=iterations)
            best[name] = max(best[name], iterations / (time.perf_counter() - start))
    return best


def bench_switchbacks_fused_playout(benchmark):
    figure, against = "Switchbacks MCTS iterations/s, fused playout / move by move", "the same search, rollouts move by move"
    if benchmark.disabled:
        rates = benchmark(switchbacks_rates, 300, 3)
        assert all(r > 0 for r in rates.values())
        headline(benchmark, figure, rates["fused"], rates["move_by_move"], against=against)
        return
    iterations = 100_000
    rates = benchmark.pedantic(switchbacks_rates, args=(iterations, 3), rounds=1, iterations=1)
    gain = rates["fused"] / rates["move_by_move"]
    benchmark.extra_info.update({"switchbacks_fused_iterations_per_s": round(rates["fused"]),
                                 "switchbacks_move_by_move_iterations_per_s": round(rates["move_by_move"]),
                                 "fused_playout_speedup": round(gain, 2)})
    headline(benchmark, figure, rates["fused"], rates["move_by_move"], against=against)
    print(f"\nSwitchbacks MCTS, fused playout vs move-by-move loop ({opening()[0].default_rollout!r} "
          f"rollouts): {rates['fused']:.0f} vs {rates['move_by_move']:.0f} it/s, {gain:.2f}x")
    assert gain > 0


def prove(state, max_nodes: int):
    return solve_endgame(state, per_action=False, line=True, max_nodes=max_nodes)


def timed_proof(state, max_nodes: int) -> tuple[bool, int, float]:
    start = time.perf_counter()
    try:
        r = prove(state, max_nodes)
    except solvers.SolversError:
        return False, max_nodes, time.perf_counter() - start
    return True, r.nodes, time.perf_counter() - start


def c_vs_python_proof(state, rounds: int) -> tuple[float, float]:
    """(C, Python) proofs a second of one position's value, the best of
    ``rounds``, the sides taking turns; the two values must agree."""
    def rate(backend):
        start = time.perf_counter()
        r = solve_endgame(state, per_action=False, backend=backend)
        seconds = time.perf_counter() - start
        values[backend] = r.value
        return 1.0 / seconds

    values = {}
    best = best_rates({"c": lambda r: rate("auto"), "python": lambda r: rate("python")}, rounds)
    assert values["auto"] == pytest.approx(values["python"])
    return best["c"], best["python"]


ENDGAME_FIGURE = "Switchbacks endgame proofs/s with 6 tiles left, C solver / Python solver"


def bench_endgame_eight_tiles(benchmark):
    if benchmark.disabled:
        small = near_end(4, seed=3)
        r = benchmark(prove, small, 1_000_000)
        assert abs(sum(r.value) - 1.0) < 1e-9 and r.action in small.legal_actions()
        c_rate, py_rate = c_vs_python_proof(near_end(6, seed=3), 3)
        headline(benchmark, ENDGAME_FIGURE, c_rate, py_rate, against="the Python solver (no table)")
        return
    c_rate, py_rate = c_vs_python_proof(near_end(6, seed=3), 3)
    headline(benchmark, ENDGAME_FIGURE, c_rate, py_rate, against="the Python solver (no table)")
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


_MEMORY_PROBE = """
import json, resource, sys
from solvers._core import mcts as cmcts
sys.path.insert(0, sys.argv[2])
from bench_search_speed import opening
def resident():
    # The resident size now (Linux), else the peak so far: imports can raise
    # the peak above what the search adds, hiding its growth.
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
game, state = opening()
before = resident()
search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
search.run(iterations=int(sys.argv[1]))
peak = resident()
print(json.dumps({"iterations": search.iterations, "nodes": search.nodes_used,
                  "memory_bytes": search.memory_bytes, "before": before, "peak": peak,
                  "node_bytes": cmcts.NODE_BYTES}))
"""


def bench_mcts_memory_million_iterations(benchmark):
    """The search's memory: the growth of the resident size of a fresh
    process while it searches (a peak raised by an earlier test would hide it)."""
    import json
    import os
    import subprocess
    import sys

    iterations = 200_000 if benchmark.disabled else 1_000_000
    here = os.path.dirname(os.path.abspath(__file__))

    def big_search():
        out = subprocess.run([sys.executable, "-c", _MEMORY_PROBE, str(iterations), here],
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    r = benchmark.pedantic(big_search, rounds=1, iterations=1)
    before, peak = r["before"], r["peak"]
    assert r["iterations"] == iterations
    assert r["nodes"] <= iterations + 1
    assert r["memory_bytes"] >= r["nodes"] * r["node_bytes"]
    benchmark.extra_info.update({"iterations": iterations, "nodes": r["nodes"],
                                 "memory_bytes": r["memory_bytes"],
                                 "peak_rss_growth_bytes": max(0, peak - before)})
    headline(benchmark, "resident growth while searching / the search's node pools", max(1, peak - before),
             r["memory_bytes"], against="the bytes of the search's node pools", higher_is_better=False,
             kind="memory")
    if not benchmark.disabled:
        print(f"\nMCTS {iterations} iterations: {r['nodes']} nodes, pool "
              f"{r['memory_bytes'] / 2**20:.0f} MiB, peak RSS grew {(peak - before) / 2**20:.0f} MiB "
              f"(fresh process)")
    assert r["memory_bytes"] < MEMORY_LIMIT
    assert peak - before < MEMORY_LIMIT
