"""Switchbacks' bounds on a state's final points and returns
(``score_bounds``, ``return_bounds``: ``GameDef.state_bounds``, which the
exact search prunes with), checked against independent answers: every
continuation of small positions enumerated on the pure-Python reference,
random playouts to the end from every stage of the game, and the exact
search without the bounds, which must give the same values."""

from __future__ import annotations

import pytest
from test_endgame import switchbacks_lockstep

import solvers
from solvers._core import endgame as cend
from solvers.rng import SplitMix64


def lockstep(players: int, left: int, seed: int):
    """Reference and kernel states in lock-step, random play until ``left``
    tiles remain (tests/test_endgame.py's helper)."""
    return switchbacks_lockstep(left, seed, players)


def final_scores(state, memo) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The least and the most points each seat can end with from ``state``
    (a reference state), over every continuation: every move and every
    draw."""
    if state.is_terminal():
        s = tuple(state.scores())
        return s, s
    key = (frozenset(state.board.items()), frozenset(state.hikers.items()),
           tuple(frozenset(h) for h in state.hands), tuple(state.solo), tuple(state.buddies),
           state.player, state.step, state.just_explored, frozenset(state.stack()))
    if key not in memo:
        moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                 else state.legal_actions())
        least = most = None
        for a in moves:
            child = state.clone()
            child.apply_action(a)
            lo, hi = final_scores(child, memo)
            least = lo if least is None else tuple(map(min, least, lo))
            most = hi if most is None else tuple(map(max, most, hi))
        memo[key] = (least, most)
    return memo[key]


@pytest.mark.parametrize("players, left, seeds", [(2, 3, range(12)), (3, 3, range(8)),
                                                 (4, 4, range(6))])
def test_score_bounds_hold_over_every_continuation(players, left, seeds):
    tight = below_naive = 0
    for seed in seeds:
        ref, ker = lockstep(players, left, seed)
        least, most = final_scores(ref, {})
        lo, hi = ker.score_bounds()
        assert lo == ker.scores() == ref.scores()
        for q in range(players):
            assert lo[q] <= least[q] and most[q] <= hi[q], (seed, q, lo, hi, least, most)
        tight += sum(hi[q] == most[q] for q in range(players))
        # The naive bound: every hiker on the map and every one still to place scores.
        naive = [sum(n for owner, n in ref.hikers.values() if owner == q)
                 + ref.solo[q] + 2 * ref.buddies[q] for q in range(players)]
        below_naive += sum(hi[q] < naive[q] for q in range(players))
    # Controls: the bounds are often exact, and they see more than the naive one.
    assert tight >= len(seeds) * players // 2
    assert below_naive >= len(seeds)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_score_and_return_bounds_hold_in_random_playouts(players):
    """From states at every stage (the deal, explore, hike and draw steps),
    random continuations end within the bounds."""
    game = solvers.load_game("switchbacks", players=players)
    rng = SplitMix64(40 + players)
    checked = settled = 0
    for _game in range(6):
        state = game.new_initial_state(seed=rng.next())
        ply = 0
        while not state.is_terminal():
            if ply % 5 == 0:
                lo, hi = state.score_bounds()
                rlo, rhi = state.return_bounds()
                settled += lo == hi
                for _ in range(4):
                    end = state.clone()
                    while not end.is_terminal():
                        legal = ([a for a, _ in end.chance_outcomes()] if end.is_chance_node()
                                 else end.legal_actions())
                        end.apply_action(legal[rng.below(len(legal))])
                    pts, ret = end.scores(), end.returns()
                    assert all(lo[q] <= pts[q] <= hi[q] for q in range(players)), (lo, hi, pts)
                    assert all(rlo[q] - 1e-12 <= ret[q] <= rhi[q] + 1e-12 for q in range(players))
                    checked += 1
            legal = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            state.apply_action(legal[rng.below(len(legal))])
            ply += 1
        lo, hi = state.score_bounds()
        assert lo == hi == state.scores()
        assert state.return_bounds() == (state.returns(), state.returns())
    assert checked > 200 and settled >= 1


# (players, [(tiles left, seed)]): random-play positions, some of them with
# moves of different values (most 4-seat positions are dead already).
SEARCHED = [(2, [(5 + seed % 3, seed) for seed in range(18)]),
            (3, [(5 + seed % 2, seed) for seed in range(6)]),
            (4, [(5, 24), (6, 19), (6, 24), (6, 33), (5, 0), (6, 1)])]


@pytest.mark.parametrize("players, positions", SEARCHED, ids=["2", "3", "4"])
def test_the_search_with_bounds_gives_the_values_of_the_search_without(players, positions):
    """Every value and every move's value equal with and without the game's
    bounds (the search without them checked against a naive search in
    tests/test_endgame.py), in fewer nodes."""
    with_nodes = without_nodes = 0
    values = set()
    for left, seed in positions:
        _, state = lockstep(players, left, seed)
        game = state.game
        kw = {"owner": game, "return_bounds": getattr(game, "return_bounds", None)}
        plain = cend.Solver(game._gamedef_capsule(), state_bounds=False, **kw)
        bounded = cend.Solver(game._gamedef_capsule(), **kw)
        a = plain.solve(state._state_capsule(), per_action=True, line=False)
        b = bounded.solve(state._state_capsule(), per_action=True, line=False)
        assert b["value"] == pytest.approx(a["value"], abs=1e-9)
        rows_a, rows_b = dict(a["action_values"]), dict(b["action_values"])
        assert rows_a.keys() == rows_b.keys()
        for action, vec in rows_a.items():
            assert rows_b[action] == pytest.approx(vec, abs=1e-9), (action, rows_b[action], vec)
            values.add(tuple(round(x, 6) for x in vec))
        with_nodes += b["nodes"]
        without_nodes += a["nodes"]
    assert len(values) >= 2                 # not all dead: moves or positions of different values
    assert with_nodes < without_nodes
