"""A short stress of every kernel, for the sanitizer build (tools/sanitize.sh).

It drives the C code along every path the public API reaches, for every
registered game (``solvers.registry.games()``) at every player count and for
the kernel-only games (``solvers._core.toygames``, ``connect_four``):

* random games from seeded deals, with clones, re-deals (``resample``),
  pickling, information states, action names, and illegal actions of every
  kind at every node (each must be refused and leave the state unchanged);
* MCTS from positions of those games in every rollout mode, with and
  without determinization, small node pools, cut-off rollouts, a search
  stopped from another thread and a search whose game was dropped;
* exact endgame proofs near the end of games (small tables that must grow,
  both modes for two players, per-action values, expected values);
* Coast to Coast beam plans over random deals, widths, rounds and
  challenges.

The sanitizers do the checking; this script checks only what the API
promises (refused actions, legal answers) and prints what it ran. Every
choice comes from ``--seed``.

    python tools/sanitize_stress.py --games 2 --iterations 200
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import random
import threading
import time
from typing import Any, Iterator

import solvers
from solvers._core import endgame as cendgame
from solvers._core import mcts as cmcts
from solvers._core.connect_four import ConnectFour
from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.errors import IllegalActionError, SolversError
from solvers.registry import games
from solvers.rng import SplitMix64

BAD_ACTIONS: list[Any] = [-1, -2, -(2**31), 2**31, 2**63, 2**64 + 3, 10**30, 1.0, "1", None, True]


def setups() -> Iterator[tuple[str, Any]]:
    """(label, kernel game) for every game and player count, then the toys."""
    for info in games():
        for players in range(info.min_players, info.max_players + 1):
            yield f"{info.name}/{players}", solvers.load_game(info.name, players)
    yield "tictactoe", TicTacToe()
    yield "connect_four", ConnectFour()
    yield "connect_four/stepwise", ConnectFour(playout=False)
    for players in (1, 2, 4):
        yield f"pig/{players}", Pig(players=players, target=12, die=4, max_turns=4)
    for players in (2, 3):
        yield f"highcard/{players}", HighCard(players=players, hand=3, extra=2)


def raw(state) -> Any:
    return state._raw() if hasattr(state, "_raw") else None


def refuse_illegal(game, state, rng: random.Random) -> int:
    """Try illegal actions; each must raise and leave the state as it was."""
    legal = set(state.legal_actions())
    before = (raw(state), list(state.history))
    n = game.num_distinct_actions()
    tries = BAD_ACTIONS + [n, n + rng.randrange(1, 1000)]
    tries += [a for a in rng.sample(range(n), min(n, 6)) if a not in legal]
    count = 0
    for bad in tries:
        if bad in legal:        # (True and 1.0 equal the action 1)
            continue
        try:
            state.apply_action(bad)
        except (IllegalActionError, SolversError):
            count += 1
        else:
            raise AssertionError(f"{game!r}: the illegal action {bad!r} was accepted")
        assert (raw(state), list(state.history)) == before, f"{game!r}: a refused action changed the state"
    return count


def resample(state, rng: random.Random):
    if not hasattr(state, "resample") or state.is_terminal():
        return state
    player = rng.randrange(state.game.num_players)
    try:
        return state.resample(player, SplitMix64(rng.getrandbits(64)))
    except SolversError:        # a game may refuse a re-deal at some points
        return state


def random_game(game, rng: random.Random, stats: dict[str, int]) -> list:
    """One random game with every kind of call; some decision positions."""
    state = game.new_initial_state(seed=rng.getrandbits(64))
    positions = []
    while not state.is_terminal():
        stats["illegal"] += refuse_illegal(game, state, rng)
        legal = state.legal_actions()
        for p in range(game.num_players):
            state.information_state(p)
        state.action_to_string(legal[0])
        r = rng.random()
        if r < 0.1:
            state = state.clone()
        elif r < 0.15:
            state = pickle.loads(pickle.dumps(state))
        elif r < 0.25 and not state.is_chance_node():
            state = resample(state, rng)
            stats["resamples"] += 1
            legal = state.legal_actions()
            assert legal, f"{game!r}: a re-deal left a decision with no legal action"
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            a = state.seeded_outcome() if rng.random() < 0.5 else rng.choice(legal)
        else:
            a = rng.choice(legal)
            if rng.random() < 0.2:
                positions.append(state.clone())
        state.apply_action(a)
        stats["actions"] += 1
    state.returns()
    state.scores()
    stats["games"] += 1
    return positions


def stress_mcts(game, state, rng: random.Random, iterations: int, stats: dict[str, int]) -> None:
    legal = set(state.legal_actions())
    for rollout in cmcts.ROLLOUTS:
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(),
                              seed=rng.getrandbits(64), rollout=rollout,
                              determinize=rng.random() < 0.8,
                              rollout_plies=rng.choice([0, 0, 1, 3]),
                              max_nodes=rng.choice([1, 7, 100, iterations + 1]),
                              c=rng.choice([0.0, 0.7, 1.4, 5.0]))
        result = search.run(iterations=iterations)
        result = search.run(iterations=iterations // 4 + 1)       # search on
        assert result["action"] is None or result["action"] in legal
        stats["mcts_iterations"] += result["iterations"]
    # Stopped from another thread.
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=rng.getrandbits(64))
    stopper = threading.Timer(0.005, search.stop)
    stopper.start()
    result = search.run(time=5.0)
    stopper.join()
    assert result["action"] is None or result["action"] in legal   # (None: stopped before a visit)
    stats["mcts_stopped"] += 1
    # Nobody but the search holds the game and the state.
    fresh, copy = pickle.loads(pickle.dumps((game, state)))
    search = cmcts.Search(fresh._gamedef_capsule(), copy._state_capsule(), seed=1)
    del fresh, copy
    gc.collect()
    search.run(iterations=50)
    stats["mcts_searches"] += len(cmcts.ROLLOUTS) + 2


def near_end(game, rng: random.Random, left: int):
    """A position ``left`` actions before the end of a random game."""
    seed = rng.getrandbits(64)
    state = game.new_initial_state(seed=seed)
    actions = []
    while not state.is_terminal():
        a = state.seeded_outcome() if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(a)
        actions.append(a)
    state = game.new_initial_state(seed=seed)
    for a in actions[:max(0, len(actions) - left)]:
        state.apply_action(a)
    return state


def stress_endgame(game, rng: random.Random, proofs: int, stats: dict[str, int]) -> None:
    bounds = getattr(game, "return_bounds", None)
    modes = ["auto", "maxn"] + (["alphabeta"] if game.num_players == 2 else [])
    for _ in range(proofs):
        state = near_end(game, rng, rng.randint(1, 5))
        if state.is_terminal():
            continue
        solver = cendgame.Solver(game._gamedef_capsule(), mode=rng.choice(modes),
                                 tt_bits=rng.choice([4, 6, 12]), max_nodes=200_000,
                                 return_bounds=bounds if rng.random() < 0.7 else None)
        try:
            result = solver.solve(state._state_capsule(), per_action=rng.random() < 0.5)
        except SolversError:            # too large for the node budget: fine
            stats["endgame_given_up"] += 1
            continue
        assert len(result["value"]) == game.num_players
        stats["endgame_proofs"] += 1
        if not state.is_chance_node():
            player = state.current_player()
            try:
                solver.expected(state._state_capsule(), player, 2, rng.getrandbits(64))
                stats["endgame_expected"] += 1
            except SolversError:
                stats["endgame_given_up"] += 1


def stress_beam(rng: random.Random, plans: int, stats: dict[str, int]) -> None:
    """Coast to Coast beam plans (a kernel feature of its own)."""
    if "c2c" not in solvers.game_names():
        return
    from solvers.games.c2c.data import load_map
    from solvers.games.c2c.kernel import CoastToCoastKernel

    coast = load_map()
    for _ in range(plans):
        challenge = rng.choice([None] + list(range(coast.n)))
        deck = [c for c in range(coast.n) if c != challenge]
        core = CoastToCoastKernel(1)._core if challenge is None else \
            solvers.load_game("c2c", challenge=coast.locations[challenge].name)._core
        rounds = rng.randint(0, 5)
        cards = rng.sample(deck, 4 + 4 * rounds)
        width = rng.choice([1, 2, 3, 7, 64, 512, 2048])
        required = coast.required_mask(challenge) if challenge is not None else 0
        found = core.hindsight_beam(cards, rounds=rounds, width=width, required=required,
                                    hope=rng.randint(0, 8), partial=rng.randint(0, 8))
        assert found is None or found[0] >= 0
        stats["beam_plans"] += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--games", type=int, default=12, help="random games per setup")
    ap.add_argument("--searches", type=int, default=4, help="positions searched per setup")
    ap.add_argument("--iterations", type=int, default=1000, help="MCTS iterations per search")
    ap.add_argument("--proofs", type=int, default=10, help="endgame proofs per setup")
    ap.add_argument("--beams", type=int, default=40, help="Coast to Coast beam plans")
    args = ap.parse_args(argv)
    if os.environ.get("SOLVERS_SANITIZED_LIB"):       # under tools/sanitize.sh
        from sanitized_kernels import kernels_outside

        wrong = kernels_outside(os.environ["SOLVERS_SANITIZED_LIB"])
        if wrong:
            raise SystemExit("not the sanitized kernels: " + "; ".join(wrong))
    rng = random.Random(args.seed)
    stats: dict[str, int] = {k: 0 for k in (
        "games", "actions", "illegal", "resamples", "mcts_searches", "mcts_iterations",
        "mcts_stopped", "endgame_proofs", "endgame_expected", "endgame_given_up", "beam_plans")}
    start = time.perf_counter()
    for label, game in setups():
        t0 = time.perf_counter()
        positions = []
        for _ in range(args.games):
            positions += random_game(game, rng, stats)
        for state in rng.sample(positions, min(args.searches, len(positions))):
            stress_mcts(game, state, rng, args.iterations, stats)
        stress_endgame(game, rng, args.proofs, stats)
        print(f"{label:14s} {time.perf_counter() - t0:6.1f} s", flush=True)
    stress_beam(rng, args.beams, stats)
    print(", ".join(f"{k} {v}" for k, v in stats.items()))
    print(f"stress done in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
