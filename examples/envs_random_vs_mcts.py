"""A random masked policy against the library's MCTS, through the PettingZoo environment.

Seat 0 (``player_0``) picks uniformly among the legal actions of its
observation's ``action_mask``; every other seat is an MCTS agent
(``solvers.load_agent("mcts", ...)``) that sees only its own seat's view.
Each game is dealt by ``env.reset(seed=SEED + i)``, so a run replays
exactly. Needs ``pip install 'solvers[envs]'``::

    python examples/envs_random_vs_mcts.py --game switchbacks --players 3 --games 4 --iterations 200
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import solvers
import solvers.envs
from solvers.errors import SolversError


def play(game: str, players: int, games: int, iterations: int, seed: int) -> list[list[float]]:
    """The rewards of each seat in each game."""
    env = solvers.envs.env(game, players=players)
    raw = env.unwrapped
    mcts = solvers.load_agent("mcts", raw.game, iterations=iterations, seed=seed)
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        env.reset(seed=seed + g)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            elif raw.seat(agent) == 0:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            else:
                action = mcts.step(raw.state)      # the agent searches its seat's view only
            env.step(action)
        results.append([totals[a] for a in env.possible_agents])
    env.close()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="switchbacks", help="a game's name (solve --help lists them)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=200, help="MCTS iterations a move")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        if args.players < 2:
            raise SolversError("random against MCTS needs at least 2 players")
        if args.games < 1 or args.iterations < 1:
            raise SolversError("--games and --iterations should be at least 1")
        results = play(args.game, args.players, args.games, args.iterations, args.seed)
    except SolversError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    others = "seat 1" if args.players == 2 else f"seats 1-{args.players - 1}"
    print(f"{args.game}, {args.players} players: seat 0 random (masked), {others} "
          f"MCTS ({args.iterations} iterations a move)")
    for i, rewards in enumerate(results):
        print(f"game {i + 1} (seed {args.seed + i}): " + "  ".join(
            f"player_{q} {r:g}" for q, r in enumerate(rewards)))
    means = np.mean(results, axis=0)
    print("mean reward: " + "  ".join(f"player_{q} {m:.3f}" for q, m in enumerate(means)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
