"""A solo round's possible end sheets (review.round_ends): the kernel's walk
against the reference rules' walk from the same positions."""

import random

import pytest

import solvers
from solvers.errors import SolversError
from solvers.games.c2c.review import round_ends, sheet_key


def _positions(seed):
    """The first decision of each round of a randomly played solo game, on
    the kernel and on the reference (same deal, same moves)."""
    kernel = solvers.load_game("c2c").new_initial_state(seed=seed)
    ref_game = solvers.load_game("c2c", reference=True)
    rng = random.Random(seed)
    starts, history = {}, []
    while not kernel.is_terminal():
        if kernel.is_chance_node():
            a = kernel.seeded_outcome()
        else:
            if kernel.round not in starts:
                ref = ref_game.new_initial_state(seed=0)
                for h in history:
                    ref.apply_action(h)
                starts[kernel.round] = (kernel.clone(), ref)
            a = rng.choice(kernel.legal_actions())
        history.append(a)
        kernel.apply_action(a)
    return starts


def _layered_ends(start):
    """The same question answered another way: breadth first, one move at a
    time, merging positions reached by the same moves in another order."""
    r = start.round
    layer, ends = {(sheet_key(start), frozenset()): start}, set()
    while layer:
        nxt = {}
        for state in layer.values():
            for a in state.legal_actions():
                t = state.clone()
                t.apply_action(a)
                if t.is_chance_node() or t.is_terminal() or t.round != r:
                    ends.add(sheet_key(t))
                else:
                    nxt[(sheet_key(t), frozenset(t.history))] = t
        layer = nxt
    return ends


@pytest.mark.parametrize("seed", [0, 1])
def test_round_ends_agree_with_the_reference(seed):
    for rnd, (kernel, ref) in _positions(seed).items():
        assert sheet_key(kernel) == sheet_key(ref)
        ends = round_ends(kernel)
        assert set(ends) == _layered_ends(ref), f"round {rnd}"
        crossed = len(kernel.sheets[0].crossed)
        for key, (before, last, end) in ends.items():
            assert sheet_key(end) == key
            after = before.clone()
            after.apply_action(last)
            assert sheet_key(after) == key
            assert len(key[1]) == crossed + 1       # the round's one cross-off
        if rnd == 0:
            assert len(ends) == 4                  # the setup: cross one of four


def test_round_ends_needs_a_decision():
    state = solvers.load_game("c2c").new_initial_state(seed=0)
    with pytest.raises(SolversError):
        round_ends(state)
