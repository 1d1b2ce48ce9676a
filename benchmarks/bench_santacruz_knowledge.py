"""Santa Cruz: what round one teaches the AI (issue 10, section 4).

The MCTS agent plays 2-player games against ``greedy`` (seats rotated) twice
over the same deals: once as it always plays, and once with its re-deals in
round two also shuffling the free inland tiles revealed in round one
(``SantaCruzCore.forget_round_one``), as if it had not seen them. Reported:
the agent's share of the points scored in round two (its round-two points
over both players' round-two points) in each arm, and its win rate. Nothing
is asserted about the difference (it is a measurement, not a target).

Size from the environment: ``SOLVERS_KNOWLEDGE_GAMES`` (default 100) games
per arm at ``SOLVERS_KNOWLEDGE_TIME`` (default 1) seconds a move. Under
``--benchmark-disable`` each arm is 2 games at 0.02 s a move and only the
bookkeeping is checked.
"""

from __future__ import annotations

import os

from solvers.agents import load_agent
from solvers.benchtrack import headline
from solvers.games.santacruz.kernel import SantaCruzKernel


def arm(forget: bool, games: int, budget: dict[str, float], seed: int = 2026) -> dict[str, float]:
    """Play ``games`` games of MCTS against greedy; the MCTS seat's round-two
    share of points, mean round-two points of both sides, and its win rate."""
    game = SantaCruzKernel(2)
    game.core.forget_round_one = forget
    ours = theirs = wins = 0.0
    for i in range(games):
        seat = i % 2
        agents = [None, None]
        agents[seat] = load_agent("mcts", game, seed=seed + i, **budget)
        agents[1 - seat] = load_agent("greedy", game, seed=seed + 1000 + i)
        state = game.new_initial_state(seed=seed + 5000 + i // 2)   # each deal from both seats
        after_one = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
                continue
            if after_one is None and state.round == 2:
                after_one = state.scores()
            state.apply_action(agents[state.current_player()].step(state))
        final = state.scores()
        ours += final[seat] - after_one[seat]
        theirs += final[1 - seat] - after_one[1 - seat]
        wins += state.returns()[seat]
    return {"round_two_share": ours / (ours + theirs), "round_two_points": ours / games,
            "greedy_round_two_points": theirs / games, "win_rate": wins / games}


def bench_santacruz_round_two_knowledge(benchmark):
    quick = benchmark.disabled and "SOLVERS_KNOWLEDGE_GAMES" not in os.environ
    games = 2 if quick else int(os.environ.get("SOLVERS_KNOWLEDGE_GAMES", "100"))
    seconds = float(os.environ.get("SOLVERS_KNOWLEDGE_TIME", "1"))
    # quick: a fixed iteration budget, so that the figure is the same on
    # every run and the gate compares like with like (2 games at a time
    # budget swung from 0.76 to 1.09)
    budget = {"iterations": 100} if quick else {"time": seconds}
    result = {}

    def run():
        result["knows"] = arm(False, games, budget)
        result["forgets"] = arm(True, games, budget)

    benchmark.pedantic(run, rounds=1, iterations=1)
    for r in result.values():
        assert 0.0 <= r["round_two_share"] <= 1.0 and 0.0 <= r["win_rate"] <= 1.0
    benchmark.extra_info.update({"games": games, "budget_per_move": budget, **result})
    headline(benchmark, "share of round-two points against greedy, keeping round one's tiles / forgetting them",
             result["knows"]["round_two_share"], max(result["forgets"]["round_two_share"], 0.01),
             against="the same search forgetting round one (share at least 0.01)", kind="strength")
    if not quick:
        k, f = result["knows"], result["forgets"]
        print(f"\nSanta Cruz round two vs greedy, {games} games at {seconds:g} s/move: share of "
              f"round-two points {k['round_two_share']:.3f} keeping round one's tiles, "
              f"{f['round_two_share']:.3f} forgetting them (wins {k['win_rate']:.0%} / {f['win_rate']:.0%})")
