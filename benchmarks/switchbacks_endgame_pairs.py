"""Does Switchbacks' hand-over to the exact search play the last tiles better?

Paired endgames, 2 seats: each position is where a game of the plain search
(``mcts:time=0.1,threads=1,endgame_plies=0`` in both seats, seeded by the
position's number) first comes within 18 plies of the end by the random
playouts' count (the hand-over's own test). From there the rest is played
twice, the default timed search (which hands over) in seat 0 and then in
seat 1, the plain search at the same time in the other; the same draws both
times. A pair scores the default's mean return over its two games, so a
position already decided whoever plays it scores 0.5, and the mean over the
pairs (with a 95% normal interval) says how much better or worse the
default plays the end. One JSON line a position::

    python benchmarks/switchbacks_endgame_pairs.py --time 1 --positions 200 --out pairs.jsonl

Each pair takes about 20 s at 1 s a move (one core); a search has a core to
itself only when nothing else runs.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import solvers
from solvers.agents.searching import HAND_OVER_PLAYOUTS
from solvers.search.mcts import playout_plies


def plain(game, seconds: float, seed: int):
    return solvers.load_agent("mcts", game, time=seconds, threads=1, endgame_plies=0, seed=seed)


def near_the_end(game, number: int):
    """The first decision within the game's hand-over plies of the end in a
    game of the plain search at 0.1 s a move; None when the game ends first."""
    state = game.new_initial_state(seed=number)
    seats = [plain(game, 0.1, number * 10 + k) for k in range(2)]
    while True:
        state.apply_seeded_chance()
        if state.is_terminal():
            return None
        if playout_plies(state, HAND_OVER_PLAYOUTS, 0) <= game.default_endgame_plies:
            return state
        state.apply_action(seats[state.current_player()].step(state))


def play_out(game, state, default_seat: int, seconds: float, number: int) -> float:
    """The default's return when it plays ``default_seat`` from ``state``."""
    state = state.clone()
    seats = [solvers.load_agent("mcts", game, time=seconds, threads=1, seed=number * 7 + s)
             if s == default_seat else plain(game, seconds, number * 7 + s) for s in range(2)]
    while True:
        state.apply_seeded_chance()
        if state.is_terminal():
            return state.returns()[default_seat]
        state.apply_action(seats[state.current_player()].step(state))


def summary(rows: list[dict]) -> str:
    scores = [sum(r["default"]) / 2 for r in rows]
    n = len(scores)
    mean = sum(scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / max(1, n - 1) / n)
    better = sum(1 for s in scores if s > 0.5)
    worse = sum(1 for s in scores if s < 0.5)
    return (f"{n} positions: the default scores {mean:.4f} (95% interval {mean - 1.96 * spread:.4f}"
            f"-{mean + 1.96 * spread:.4f}); it did better from {better}, worse from {worse}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move in the endgames")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--start", type=int, default=0, help="the first position's number")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, appended to")
    args = parser.parse_args()
    game = solvers.load_game("switchbacks", players=2)
    rows = []
    with args.out.open("a") as out:
        for number in range(args.start, args.start + args.positions):
            start = time.perf_counter()
            state = near_the_end(game, number)
            if state is None:
                continue
            row = {"position": number,
                   "default": [play_out(game, state, seat, args.time, number) for seat in (0, 1)],
                   "seconds": round(time.perf_counter() - start, 1)}
            rows.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
    if rows:
        print(summary(rows))


if __name__ == "__main__":
    main()
