"""Big Sur's playout: the policy draws as documented, and the fused
``GameDef.playout`` plays like the move-by-move loop a search would run
(``rollout_action`` for the policy seats, uniformly random legal moves for
the others, ``sample_chance`` for chance).

The statistical tests use fixed seeds and a chi-square test at significance
ALPHA (divided among the tests of one function, Bonferroni), so they are
deterministic; a wrong distribution fails them.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from ctypes import c_uint64

import pytest

from solvers.games.bigsur.kernel import BigSurKernel
from solvers.rng import SplitMix64
from test_bigsur_kernel import KERNELS, midgame_states
from gamedef_ctypes import GameDef, capsule_pointer, play_move_by_move

stats = pytest.importorskip("scipy.stats")

ALPHA = 0.001


def gamedef(game) -> GameDef:
    return GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))


def pointer(state) -> int:
    return capsule_pointer(state._state_capsule(), b"solvers.State")


def loop_playout(gd, state, rng: c_uint64, seats: int) -> None:
    """The move-by-move loop of mcts.pyx's rollout (uniform choices by rng.h's
    rng_below on the same generator, as there), through the C table."""
    play_move_by_move(gd, pointer(state), rng, seats, lambda n: below(rng, n) if n > 1 else 0)


def below(rng: c_uint64, n: int) -> int:
    """rng.h's rng_below on a C generator state (SplitMix64, then modulo)."""
    gen = SplitMix64(0)
    gen.state = rng.value
    value = gen.below(n)
    rng.value = gen.state
    return value


def fused_playout(gd, state, rng: c_uint64, seats: int) -> None:
    gd.playout(gd.params, pointer(state), ctypes.byref(rng), seats)


def starts(players: int, seed: int) -> list:
    """Positions to play out from: the first decision, and midgame ones at
    every step of a turn (mid-payment among them)."""
    states = list(midgame_states(players, seed=seed))
    picked = [states[0]]
    seen = set()
    for s in states:
        if s.step not in seen or (s.step == "pay" and s.paying and "paying" not in seen):
            picked.append(s)
            seen.add(s.step)
            if s.step == "pay" and s.paying:
                seen.add("paying")
    assert {"take", "build", "end", "pay", "top", "paying"} <= seen
    return picked


def masks(players: int) -> list[int]:
    every = (1 << players) - 1
    return [every, 0] + [1 << q for q in range(players)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fused_playout_replays_the_loop_draw_for_draw(players):
    """The kernel's playout makes the loop's random draws in the loop's
    order, so from one generator state both end in the same position."""
    game = KERNELS[players]
    gd = gamedef(game)
    for i, start in enumerate(starts(players, seed=30 + players)):
        for seats in masks(players):
            a, b = start.clone(), start.clone()
            seed = 1000 * i + seats
            rng_a, rng_b = c_uint64(seed), c_uint64(seed)
            fused_playout(gd, a, rng_a, seats)
            loop_playout(gd, b, rng_b, seats)
            assert a.is_terminal() and b.is_terminal()
            assert a._raw() == b._raw(), (i, seats, start.step)
            assert rng_a.value == rng_b.value


def summary(state) -> tuple:
    """What a playout's end is compared on: the winner(s) and how many cards
    each Highway holds (binned so every class is well populated)."""
    scores = state.scores()
    best = max(scores)
    winners = tuple(q for q, s in enumerate(scores) if s == best)
    return winners, tuple(min(len(h), 7) // 2 for h in state.highways)


def chi_square_p(a: list, b: list) -> float:
    """p-value of the two-sample chi-square test of homogeneity; classes
    rarer than 5 in both samples together are pooled."""
    ca, cb = Counter(a), Counter(b)
    keys = sorted(set(ca) | set(cb), key=repr)
    rare = [k for k in keys if ca[k] + cb[k] < 10]
    rows = [[ca[k] for k in keys if k not in rare], [cb[k] for k in keys if k not in rare]]
    if rare:
        rows[0].append(sum(ca[k] for k in rare))
        rows[1].append(sum(cb[k] for k in rare))
    if len(rows[0]) < 2:
        return 1.0
    return stats.chi2_contingency(rows)[1]


@pytest.mark.parametrize("players", [2, 3])
def test_fused_playout_has_the_loops_distribution(players):
    """Independent generators for the two ways: the distribution of each
    summary of the end (winners, Highway sizes) agrees for every mask of
    policy seats (chi-square, ALPHA split over the tests)."""
    game = KERNELS[players]
    gd = gamedef(game)
    start = starts(players, seed=40 + players)[0]
    samples = 300
    tests = masks(players)
    for seats in tests:
        ends = {"fused": [], "loop": []}
        for way, play, seed in (("fused", fused_playout, 1), ("loop", loop_playout, 2)):
            seeds = SplitMix64(seed * 7919 + seats)
            for _ in range(samples):
                end = start.clone()
                play(gd, end, c_uint64(seeds.next()), seats)
                ends[way].append(summary(end))
        for k in range(1 + players):
            pick = (lambda s: s[0]) if k == 0 else (lambda s, q=k - 1: s[1][q])
            p = chi_square_p([pick(s) for s in ends["fused"]], [pick(s) for s in ends["loop"]])
            assert p > ALPHA / (len(tests) * (1 + players)), (seats, k, p)


def test_playout_policy_draws_uniformly_over_the_legal_choices():
    """Where the policy picks among the legal actions (taking a card,
    choosing an end, paying: finishing when the discards can pay, else
    discarding, naming the top Material), it draws each with equal chance:
    chi-square against uniform over the reference's legal actions."""
    game = BigSurKernel(2)
    gd = gamedef(game)
    rng = c_uint64(3)
    checked = Counter()
    cases = []
    for seed in range(8, 40):
        for state in midgame_states(2, seed=seed):
            legal = state.legal_actions()
            if state.step == "pay":
                kind = "finish" if legal[-1] >= game.FINISH_BASE else "discard"
                expected = [a for a in legal if a >= game.FINISH_BASE] or legal
            elif state.step in ("take", "end", "top"):
                kind, expected = state.step, legal
            else:
                continue
            if len(expected) > 1 and checked[kind] < 12:
                checked[kind] += 1
                cases.append((state, expected))
    for state, expected in cases:
        st = pointer(state)
        draws = Counter(gd.rollout_action(gd.params, st, ctypes.byref(rng)) for _ in range(40 * len(expected)))
        assert set(draws) <= set(expected)
        p = stats.chisquare([draws[a] for a in expected]).pvalue
        assert p > ALPHA / len(cases), (state.step, expected, draws)
    assert checked == {"take": 12, "end": 12, "top": 12, "discard": 12, "finish": 12}, checked
