"""Exact endgames on Switchbacks positions from uniformly random play.

The positions: a 2-player game played uniformly at random (moves from a
seeded stream, draws from the game's seed) and every decision node met
while exactly ``left`` tiles are still to be played (hands and stack),
so both the first move of a turn (two or three tiles to choose from) and
the placing steps (up to 30 moves) are in the set. The targets
(issue 29):

* **Per-action cost** (``bench_endgame_per_action_cost``): every root
  move's exact value (``solve_endgame(per_action=True)``, what ``solve
  switchbacks endgame`` asks for) costs at most 2x the nodes of the value
  alone, summed over the positions, both in the same process. Headline:
  per-action nodes / value-only nodes (lower is better; target 2). The same
  ratio on positions from games between two MCTS players (300 iterations a
  move, 7 tiles left), the kind a user asks about, is printed and kept in
  ``extra_info`` (``self_play``); most random-play positions are dead
  draws or decided, where every move ties the best and each tie costs a
  proof of its own, which is the dearest case for per-action values.
* **Proof time** (``bench_endgame_proof_time``): 10 tiles left proven within
  1 s value only and 2 s per action; 12 tiles within 10 s. Headline: the
  nodes of the worst value-only proof with 10 tiles left, in millions
  (lower is better; a count of work, the same on any machine); the seconds
  against the targets are printed and kept in ``extra_info``. A proof that
  gives up at the node budget counts what it spent (a lower bound) and is
  reported as not proven. The figures for every size are in ``extra_info`` and
  printed.

* **The game's bounds** (``bench_endgame_state_bounds``): the nodes of
  value-only solves without Switchbacks' bounds on a state's points
  (``GameDef.state_bounds``) over those with them, on the random-play
  positions of the per-action figure, both in the same process (higher is
  better; the seconds are kept in ``extra_info``).
* **The game's key** (``bench_endgame_solver_key``): the same solves keyed
  by the full hash over those keyed by Switchbacks' key for exact search
  (``GameDef.solver_key``: the tiles that can no longer score and the
  empty hexes no path can cross made anonymous, children of equal keys
  searched once), both with the bounds.

Under ``--benchmark-disable`` (quick mode, CI) the same figures are taken
on small positions (6 tiles left for the per-action cost, 9 for the
proof time), so the ratio gate watches the same code paths.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import solvers
from solvers.agents import load_agent
from solvers.benchtrack import headline
from solvers.rng import SplitMix64
from solvers.search import solve_endgame

PER_ACTION_TARGET = 2.0


def tiles_left(state) -> int:
    return sum(len(h) for h in state.hands) + len(state.stack())


def random_play_positions(left: int, seed: int) -> Iterator:
    """Every decision node of one uniformly random 2-player game while
    exactly ``left`` tiles are still to be played."""
    state = solvers.load_game("switchbacks", players=2).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal() and tiles_left(state) >= left:
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        legal = state.legal_actions()
        if tiles_left(state) == left:
            yield state.clone()
        state.apply_action(legal[rng.below(len(legal))])


def self_play_position(left: int, seed: int, iterations: int):
    """The first decision node with at most ``left`` tiles still to play in
    a 2-player game between two seeded MCTS players of ``iterations`` a
    move (draws from the game's seed); None if the game ends first."""
    game = solvers.load_game("switchbacks", players=2)
    state = game.new_initial_state(seed=seed)
    agents = [load_agent("mcts", game, iterations=iterations, seed=2 * seed + i) for i in range(2)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        elif tiles_left(state) <= left:
            return state
        else:
            state.apply_action(agents[state.current_player()].step(state))
    return None


def timed(state, per_action: bool, max_nodes: int, **options: bool) -> dict:
    """One solve: proven, nodes, seconds (and the result when proven);
    ``bounds=False`` without the game's bounds, ``canonical=False`` without
    its key for exact search."""
    start = time.perf_counter()
    try:
        r = solve_endgame(state, per_action=per_action, line=False, max_nodes=max_nodes, **options)
    except solvers.SolversError:
        return {"proven": False, "nodes": max_nodes, "seconds": time.perf_counter() - start}
    return {"proven": True, "nodes": r.nodes, "seconds": time.perf_counter() - start, "result": r}


def per_action_cost(positions: list, max_nodes: int) -> dict:
    """Nodes and seconds of value-only and per-action solves of every
    ``(seed, position)``, both solved; the per-action best row must equal
    the value."""
    rows = []
    for seed, state in positions:
        value = timed(state, False, max_nodes)
        each = timed(state, True, max_nodes * 40)
        if not (value["proven"] and each["proven"]):
            continue
        best = each["result"].action_values[0][1]
        assert best == pytest.approx(value["result"].value)
        rows.append({"seed": seed, "moves": len(state.legal_actions()),
                     "value_nodes": value["nodes"], "per_action_nodes": each["nodes"],
                     "value_s": round(value["seconds"], 3),
                     "per_action_s": round(each["seconds"], 3)})
    return {"rows": rows,
            "value_nodes": sum(r["value_nodes"] for r in rows),
            "per_action_nodes": sum(r["per_action_nodes"] for r in rows),
            "worst": max(r["per_action_nodes"] / r["value_nodes"] for r in rows)}


def bench_endgame_per_action_cost(benchmark):
    left, seeds = (6, range(3)) if benchmark.disabled else (8, range(4))
    # quick: 5 tiles left, one game of 30 iterations a move
    played, games, iterations = (5, range(1), 30) if benchmark.disabled else (7, range(8), 300)
    figure = ("Switchbacks endgame nodes, per-action values / value only, random-play positions "
              "(target 2)")
    random_play = [(seed, st) for seed in seeds for st in random_play_positions(left, seed)]
    cost = benchmark.pedantic(per_action_cost, args=(random_play, 30_000_000), rounds=1, iterations=1)
    assert cost["rows"]
    ratio_total = cost["per_action_nodes"] / cost["value_nodes"]
    self_play = [(seed, st) for seed in games
                 if (st := self_play_position(played, seed, iterations)) is not None]
    mcts = per_action_cost(self_play, 30_000_000)
    assert mcts["rows"]
    mcts_ratio = mcts["per_action_nodes"] / mcts["value_nodes"]
    benchmark.extra_info.update({"tiles_left": left, "positions": len(cost["rows"]),
                                 "worst_position_ratio": round(cost["worst"], 2),
                                 "total_ratio": round(ratio_total, 2), "rows": cost["rows"],
                                 "self_play": {"tiles_left": played, "iterations": iterations,
                                               "positions": len(mcts["rows"]),
                                               "total_ratio": round(mcts_ratio, 2),
                                               "worst_position_ratio": round(mcts["worst"], 2),
                                               "rows": mcts["rows"]}})
    headline(benchmark, figure, cost["per_action_nodes"], cost["value_nodes"],
             against="the value-only solve of the same positions", higher_is_better=False)
    print(f"\n{left} tiles left, {len(cost['rows'])} positions: per-action / value-only nodes "
          f"{ratio_total:.2f}x in total, {cost['worst']:.2f}x at worst (target {PER_ACTION_TARGET:g}x)")
    print(f"self-play ({iterations} iterations a move), {played} tiles left, {len(mcts['rows'])} "
          f"positions: {mcts_ratio:.2f}x in total, {mcts['worst']:.2f}x at worst")


def proof_ladder(sizes: list[tuple[int, bool, int]], seeds: range) -> dict:
    """For each (tiles left, per_action, node budget): the first decision
    node of each seed's game at that size, solved; worst seconds and nodes."""
    out = {}
    for left, per_action, budget in sizes:
        runs = []
        for seed in seeds:
            state = next(random_play_positions(left, seed), None)
            if state is None:
                continue
            r = timed(state, per_action, budget)
            runs.append({"seed": seed, "proven": r["proven"], "nodes": r["nodes"],
                         "seconds": round(r["seconds"], 3)})
        out[f"{left}{'_per_action' if per_action else ''}"] = {
            "proven": all(r["proven"] for r in runs), "worst_seconds": max(r["seconds"] for r in runs),
            "worst_nodes": max(r["nodes"] for r in runs), "runs": runs}
    return out


def bench_endgame_proof_time(benchmark):
    if benchmark.disabled:
        head = "9"
        sizes, seeds = [(9, False, 5_000_000)], range(2)
    else:
        head = "10"
        sizes = [(8, False, 20_000_000), (8, True, 20_000_000), (10, False, 20_000_000),
                 (10, True, 20_000_000), (12, False, 20_000_000)]
        seeds = range(3)
    ladder = benchmark.pedantic(proof_ladder, args=(sizes, seeds), rounds=1, iterations=1)
    main = ladder[head]
    benchmark.extra_info.update({"ladder": ladder, "targets_s": {"10": 1.0, "10_per_action": 2.0,
                                                                 "12": 10.0}})
    # The gated figure is the work, not the time: the nodes the worst proof
    # searched (the same on every machine, so the gate cannot flap on a
    # loaded one), in millions; the seconds against the targets are printed
    # and kept in extra_info.
    headline(benchmark, "Switchbacks endgame proof nodes, random play, worst position (millions)",
             main["worst_nodes"], 1_000_000, against=f"one million nodes, with {head} tiles left",
             higher_is_better=False)
    for key, row in ladder.items():
        print(f"\n{key} tiles left: {'proven' if row['proven'] else 'NOT proven'}, worst "
              f"{row['worst_seconds']:.2f} s, {row['worst_nodes']} nodes")


def option_gain(positions: list, max_nodes: int, option: str) -> dict:
    """Value-only solves of every ``(seed, position)`` with and without a
    solver option (``bounds``, ``canonical``): the same values, and the
    nodes and seconds of each."""
    rows = []
    for seed, state in positions:
        plain = timed(state, False, max_nodes, **{option: False})
        bounded = timed(state, False, max_nodes)
        assert plain["proven"] and bounded["proven"]
        assert bounded["result"].value == pytest.approx(plain["result"].value)
        rows.append({"seed": seed, "without_nodes": plain["nodes"], "with_nodes": bounded["nodes"],
                     "without_s": round(plain["seconds"], 4), "with_s": round(bounded["seconds"], 4)})
    return {"rows": rows, "without_nodes": sum(r["without_nodes"] for r in rows),
            "with_nodes": sum(r["with_nodes"] for r in rows),
            "without_s": sum(r["without_s"] for r in rows), "with_s": sum(r["with_s"] for r in rows)}


def option_bench(benchmark, option: str, figure: str, against: str, words: tuple[str, str]) -> None:
    """Value-only nodes without / with a solver option on the per-action
    figure's random-play positions (see :func:`option_gain`)."""
    left, seeds = (6, range(3)) if benchmark.disabled else (8, range(4))
    positions = [(seed, st) for seed in seeds for st in random_play_positions(left, seed)]
    gain = benchmark.pedantic(option_gain, args=(positions, 30_000_000, option), rounds=1, iterations=1)
    benchmark.extra_info.update({"tiles_left": left, "positions": len(gain["rows"]), **gain})
    headline(benchmark, figure, gain["without_nodes"], gain["with_nodes"], against=against,
             higher_is_better=True)
    print(f"\n{left} tiles left, {len(gain['rows'])} positions: {gain['without_nodes']} nodes {words[0]}, "
          f"{gain['with_nodes']} {words[1]} ({gain['without_nodes'] / gain['with_nodes']:.2f}x); "
          f"{gain['without_s']:.2f} s against {gain['with_s']:.2f} s")


def bench_endgame_state_bounds(benchmark):
    option_bench(benchmark, "bounds", "Switchbacks endgame nodes, value only, without / with the game's bounds",
                 "the same solves with GameDef.state_bounds", ("without the game's bounds", "with"))


def bench_endgame_solver_key(benchmark):
    option_bench(benchmark, "canonical",
                 "Switchbacks endgame nodes, value only, keyed by the hash / by the game's key",
                 "the same solves keyed by GameDef.solver_key", ("by the hash", "by the game's key"))
