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


# --- the kernel's round ends in C, and the last round exactly ----------------------

def _mask(locations):
    return sum(1 << i for i in locations)


def _key_of(masks):
    circled, crossed, exact = masks
    return tuple(frozenset(i for i in range(32) if m >> i & 1) for m in (circled, crossed, exact))


def _every_decision(game, seed, rounds=range(6)):
    """Every decision of a randomly played solo game (kernel states)."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        if state.round in rounds:
            yield state.clone()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("challenge", [None, "Wrigley Field"])
def test_kernel_round_ends_equal_the_reference_walk(challenge):
    """At the first decision of every round (reference rules, walked move
    by move) and at every decision of kernel games (the plain walk over
    legal moves), the C enumeration finds the same ends; each end's move
    is legal and keeps that end reachable."""
    for seed in (0, 1):
        for rnd, (kernel, ref) in _positions(seed).items():
            assert {_key_of(e) for e, _ in kernel.round_ends()} == _layered_ends(ref), f"round {rnd}"
    game = solvers.load_game("c2c", challenge=challenge)
    seen = 0
    for seed in range(6):
        for state in _every_decision(game, 10 + seed):
            fast = state.round_ends()
            assert fast == sorted(fast) and len({e for e, _ in fast}) == len(fast)
            assert {_key_of(e) for e, _ in fast} == set(round_ends(state))
            for end, action in fast:
                child = state.clone()
                child.apply_action(action)          # legal, or this raises
                if child.is_chance_node() or child.is_terminal() or child.round != state.round:
                    assert _key_of(end) == sheet_key(child)
                else:
                    assert end in {e for e, _ in child.round_ends()}
            seen += 1
    assert seen > 100


def test_kernel_round_ends_on_another_map():
    from test_c2c_kernel import SMALL

    from solvers.games.c2c.kernel import CoastToCoastKernel
    from solvers.games.c2c.reference import CoastToCoast

    kgame, rgame = CoastToCoastKernel(1, None, map=SMALL), CoastToCoast(1, None, map=SMALL)
    rng = random.Random(5)
    k, r = kgame.new_initial_state(seed=5), rgame.new_initial_state(seed=5)
    checked = 0
    while not k.is_terminal():
        a = k.seeded_outcome() if k.is_chance_node() else rng.choice(k.legal_actions())
        if not k.is_chance_node():
            assert {_key_of(e) for e, _ in k.round_ends()} == set(round_ends(r))
            checked += 1
        k.apply_action(a)
        r.apply_action(a)
    assert checked > 10


def _before_last_round(game, seed):
    """A solo game played by a small MCTS just before the last round's
    cards (with a challenge, one that may still be completed)."""
    state = game.new_initial_state(seed=seed)
    agent = solvers.load_agent("mcts", game, iterations=200, seed=seed)
    while not (state.is_chance_node() and state.round == 5 and not state.dealt):
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    return state


@pytest.mark.parametrize("challenge,seed,other_map", [(None, 100, False), ("Wrigley Field", 0, False),
                                                      (None, 100, True)])
def test_last_round_value_is_the_mean_over_every_hand(challenge, seed, other_map):
    """Against brute force: deal each hand of the unseen cards in turn, walk
    every way to play it (the plain walk over legal moves) and keep the best
    end, a win first; the mean over all hands, a lost challenge scoring 0.
    Also on another map whose runs' points are uneven (2, 3, 7, 8, ...: the
    tables decline it, the memoised search answers)."""
    import itertools

    from test_c2c_kernel import SMALL

    game = solvers.load_game("c2c", challenge=challenge, **({"map": SMALL} if other_map else {}))
    state = _before_last_round(game, seed)
    unseen = list(state.chance_outcomes())
    unseen = [a if isinstance(a, int) else a[0] for a in unseen]
    wins = points = 0
    hands = list(itertools.combinations(unseen, 4))
    for hand in hands:
        dealt = state.clone()
        for card in hand:
            dealt.apply_action(card)
        best = max(((1 if challenge is None else int(bool(end.challenge_won())), end.scores()[0])
                    for _, _, end in round_ends(dealt).values()))
        wins += best[0]
        points += best[0] * best[1]
    win, mean = state.last_round_value(None)
    assert win == pytest.approx(wins / len(hands)) and mean == pytest.approx(points / len(hands))
    assert 0 < win <= 1 and mean > 0
    # control: another sheet (one circle fewer) is valued differently
    sheet = state.sheets[0]
    fewer = sorted(sheet.circled)[1:]
    other = state.last_round_value((_mask(fewer), _mask(sheet.crossed), _mask(sheet.exact)))
    assert other != (win, mean)


def test_a_sheet_whose_challenge_is_out_of_reach_is_worth_nothing():
    """The last round circles three locations at most and never circles a
    crossed-off one: a sheet missing four required locations, or with one
    crossed off, cannot complete the challenge whatever the hand, and a
    lost challenge scores nothing. The control: the same position missing
    three (the brute-force test above) is worth a win in most hands."""
    game = solvers.load_game("c2c", challenge="Wrigley Field")
    state = _before_last_round(game, 0)
    required = game.map.required_mask(game.challenge)
    sheet = state.sheets[0]
    circled, crossed, exact = _mask(sheet.circled), _mask(sheet.crossed), _mask(sheet.exact)
    assert bin(required & ~circled).count("1") == 3 and not required & crossed
    win, points = state.last_round_value(None)
    assert win > 0.5 and points > 40
    have = [i for i in range(32) if required & circled >> i & 1]
    lost_one = 1 << have[-1]
    # one more required location missing (uncircled): four to circle in three
    assert state.last_round_value((circled & ~lost_one, crossed, exact & ~lost_one)) == (0.0, 0.0)
    # a required location crossed off
    assert state.last_round_value((circled & ~lost_one, crossed | lost_one,
                                   exact & ~lost_one)) == (0.0, 0.0)
    # without the challenge the same sheets are worth points
    free = solvers.load_game("c2c").new_initial_state(seed=0)
    assert free.last_round_value((circled & ~lost_one, crossed | lost_one, exact & ~lost_one),
                                 unseen=_unseen_mask(state))[1] > 40


def _unseen_mask(state):
    """The cards a solo player has not seen, at a chance node, as a mask."""
    return _mask(a if isinstance(a, int) else a[0] for a in state.chance_outcomes())


def test_end_values_in_the_last_two_rounds():
    game = solvers.load_game("c2c")
    four = next(_every_decision(game, 7, rounds=[4]))
    ends = four.end_values()
    assert [(e, a) for e, a, _, _ in ends] == four.round_ends()
    for end, _, win, points in ends[:5]:
        assert (win, points) == four.last_round_value(end)
    five = next(_every_decision(game, 7, rounds=[5]))
    for end, _, win, points in five.end_values():
        circled, _, exact = end
        assert win == 1.0 and points == _score(circled, exact)
    three = next(_every_decision(game, 7, rounds=[3]))
    with pytest.raises(SolversError, match="last two rounds"):
        three.end_values()
    duo = solvers.load_game("c2c", players=2).new_initial_state(seed=1)
    duo.apply_seeded_chance()
    with pytest.raises(SolversError, match="solo"):
        duo.round_ends()


def _score(circled, exact):
    """The rulebook score of a sheet, by the reference rules' own scoring."""
    from solvers.games.c2c.reference import CoastToCoast

    ref = CoastToCoast(1, None).new_initial_state(seed=0)
    ref.sheets[0].circled = {i for i in range(32) if circled >> i & 1}
    ref.sheets[0].exact = {i for i in range(32) if exact >> i & 1}
    return ref.scores()[0]


@pytest.mark.parametrize("challenge", [None, "Wrigley Field", "Cedar Point"])
def test_the_two_last_round_algorithms_agree_on_every_end(challenge):
    """last_round_value has two algorithms: the tables of every way to
    circle (the default) and a memoised search of each hand's circles (the
    brute-force test above checks the default on whole positions). On every
    end of round 4 of seeded games, and on sheets with a circle taken away
    (so that crossing off a circled location, the tables' other case, comes
    up), both give the same numbers, to the last bit; the control: the
    values differ between sheets, so agreeing is not a given."""
    from solvers.games.c2c.values import unseen_cards

    game = solvers.load_game("c2c", challenge=challenge)
    checked, values, circled_cards, positions = 0, set(), 0, 0
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        agent = solvers.load_agent("online", game, early="report", learned=4, seed=seed)
        while not (state.round == 4 and not state.is_chance_node()):
            state.apply_action(state.seeded_outcome() if state.is_chance_node()
                               else agent.step(state))
        unseen = unseen_cards(state)
        ends = [e for e, _ in state.round_ends()]
        if challenge is not None:       # the ends that may still complete it
            ends = [e for e in ends if state.last_round_value(e, unseen)[0] > 0]
            if not ends:
                continue
        positions += 1
        if positions > 3:
            break
        for circled, crossed, exact in ends[:40]:
            for sheet in ((circled, crossed, exact),
                          (circled & ~(circled & -circled), crossed, exact)):
                table = state.last_round_value(sheet, unseen, method="table")
                assert table == state.last_round_value(sheet, unseen, method="memo"), sheet
                assert table == state.last_round_value(sheet, unseen)
                values.add(table)
                circled_cards += bool(sheet[0] & unseen)
                checked += 1
    assert checked >= 60 and circled_cards > 10 and len(values) > 20


def test_the_tables_leave_a_deck_of_more_than_sixteen_cards_to_the_search():
    """Over 16 unseen cards the tables decline (None) and the default is the
    memoised search's answer."""
    state = solvers.load_game("c2c").new_initial_state(seed=2)
    state.apply_seeded_chance()
    state.apply_action(state.legal_actions()[0])          # the setup: 3 circles
    assert bin(_unseen_mask(state)).count("1") > 16
    assert state.last_round_value(None, method="table") is None
    assert state.last_round_value(None) == state.last_round_value(None, method="memo")
    with pytest.raises(SolversError, match="method"):
        state.last_round_value(None, method="fast")


def test_the_tables_leave_a_map_whose_runs_are_not_convex_to_the_search(tmp_path):
    """The tables bound a cross off of a circled card by what its circle is
    worth now, which holds when a run's points grow by at least as much
    with each circle (1, 3, 6, 10, ...). On a map whose runs do not (a
    circle still never costs points there, or the loader would refuse the
    map) they decline (None), and the default is the memoised search's
    answer; the control: the printed map's positions are taken by the
    tables."""
    import json

    from solvers.games.c2c.data import load_map
    from solvers.games.c2c.values import unseen_cards

    raw = solvers.load_game("c2c").map.to_json()
    raw["highway_points"] = [0, 2, 3, 7, 8, 14, 15, 21, 22, 30]
    (tmp_path / "concave.json").write_text(json.dumps(raw))
    for m, taken in ((load_map(str(tmp_path / "concave.json")), False), (None, True)):
        game = solvers.load_game("c2c", map=m) if m is not None else solvers.load_game("c2c")
        state = game.new_initial_state(seed=4)
        agent = solvers.load_agent("mcts", game, iterations=50, seed=4)
        while not (state.round == 4 and not state.is_chance_node()):
            state.apply_action(state.seeded_outcome() if state.is_chance_node()
                               else agent.step(state))
        unseen = unseen_cards(state)
        for end, _ in state.round_ends()[:10]:
            table = state.last_round_value(end, unseen, method="table")
            assert (table is not None) == taken
            assert state.last_round_value(end, unseen) == \
                state.last_round_value(end, unseen, method="memo")
