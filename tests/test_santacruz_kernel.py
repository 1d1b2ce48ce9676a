"""The Santa Cruz kernel equals the reference: random differential games at
every player count, re-deals, observations and loaded positions."""

import ctypes
import random
from ctypes import c_uint64

import pytest

from solvers.errors import IllegalActionError, SolversError
from solvers.games.santacruz.kernel import SantaCruzKernel
from solvers.games.santacruz.reference import SantaCruz
from test_switchbacks_kernel import GameDef, capsule_pointer


def hidden(state):
    """Everything a re-deal may change, in a form both implementations share."""
    return {
        "site_tile": list(state.site_tile),
        "tile_order": {k: list(v) for k, v in state.tile_order.items()},
        "birds": [sorted(b) for b in state.birds],
        "bag": list(state.bag)[state.bag_pos:],
        "hands": [sorted(h) for h in state.hand_score],
        "deck": list(state.deck)[state.deck_pos:],
        "drawn": list(state.drawn),
        "discarded": list(state.discarded),
    }


def same(ref, ker, players):
    assert ker.current_player() == ref.current_player()
    assert ker.legal_actions() == ref.legal_actions()
    assert ker.scores() == ref.scores() and ker.returns() == ref.returns()
    assert [(a, round(p, 12)) for a, p in ker.chance_outcomes()] == \
        [(a, round(p, 12)) for a, p in ref.chance_outcomes()]
    for q in range(players):
        assert ker.information_state(q) == ref.information_state(q)
    assert hidden(ker) == hidden(ref)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_equals_reference_in_random_games(players):
    ref_game, ker_game = SantaCruz(players), SantaCruzKernel(players)
    for seed in range(12):
        ref, ker = ref_game.new_initial_state(seed), ker_game.new_initial_state(seed)
        rng = random.Random(seed)
        k = 0
        while True:
            same(ref, ker, players)
            if ref.is_terminal():
                break
            if k % 9 == 0:
                for q in range(players):
                    r2, k2 = ref.resample(q, seed * 7919 + k), ker.resample(q, seed * 7919 + k)
                    assert hidden(k2) == hidden(r2)
                    assert k2.information_state(q) == ref.information_state(q)
            if ref.is_chance_node():
                a = ref.seeded_outcome() if rng.random() < 0.7 else rng.choice(ref.legal_actions())
                assert ker.seeded_outcome() == ref.seeded_outcome()
            else:
                a = rng.choice(ref.legal_actions())
                names = [" ".join(ref.action_to_string(b).lower().split()) for b in ref.legal_actions()]
                assert len(set(names)) == len(names)     # every move can be typed
            assert ker.action_to_string(a) == ref.action_to_string(a)
            for q in range(players):
                assert ker.action_observation(a, q) == ref.action_observation(a, q)
            ref.apply_action(a)
            ker.apply_action(a)
            k += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_positions_load_into_the_kernel(players):
    ref_game, ker_game = SantaCruz(players), SantaCruzKernel(players)
    ref = ref_game.new_initial_state(5)
    rng = random.Random(5)
    while not ref.is_terminal():
        if rng.random() < 0.1:
            ker = ker_game.from_reference(ref)
            same(ref, ker, players)
            a = rng.choice(ref.legal_actions())
            ref2 = ref.clone()
            ref2.apply_action(a)
            ker.apply_action(a)
            same(ref2, ker, players)
        ref.apply_action(rng.choice(ref.legal_actions()))


def test_the_kernel_rejects_illegal_moves_and_keeps_its_state():
    game = SantaCruzKernel(2)
    state = game.new_initial_state(1)
    state.apply_seeded_chance()
    before = state.information_state(0)
    for bad in (-1, 10_000, game.PLAY_ROAD, "x", True):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    assert state.information_state(0) == before
    with pytest.raises(SolversError):
        state.resample(5, 1)


def test_random_games_in_c_finish_with_plausible_scores():
    for players in (2, 3, 4):
        means = SantaCruzKernel(players).play_random_games(200, seed=players)
        assert len(means) == players and all(20 < m < 200 for m in means)


def test_clone_is_independent_and_the_hash_follows_the_state():
    game = SantaCruzKernel(3)
    state = game.new_initial_state(2)
    state.apply_seeded_chance()
    other = state.clone()
    assert other.hash() == state.hash()
    other.apply_action(other.legal_actions()[0])
    assert other.hash() != state.hash() and state.step == "choose"
    raw = other._raw()
    assert game.state_from_raw(raw).information_state(0) == other.information_state(0)


def hand_built_positions():
    """The rules tests' corner cases, as reference positions."""
    from test_santacruz_rules import CARD, blank, give, put, tile

    out = {}
    st = blank()                        # a face-down river church, no church left
    put(st, 1, 14)
    st.supply[1]["church"] = 0
    st.site_tile[15] = tile("church", "land", "sheep")
    give(st, 1, double=1, river=1, ship=1)
    out["failed river builds"] = st
    st = blank()                        # sharing for seat 0 (last), not for seat 1
    put(st, 1, 0, 1, 2)
    put(st, 0, 3, 16)
    give(st, 0, ship=2, double=1)
    give(st, 1, ship=2, double=1)
    out["sharing"] = st
    st = blank()                        # every scoring card with mixed holdings
    st.site_tile[0] = tile("lighthouse", "coast", "fish", 2)
    st.site_tile[1] = tile("house", "coast", "fish", 1)
    st.site_tile[2] = tile("house", "coast", "sheep")
    st.site_tile[6] = tile("church", "land", "sheep")
    put(st, 1, 0, 1, 2, 6, 16, 25)
    put(st, 0, 3, 34, 14)
    st.birds = [[2], [1, 3]]
    st.hand_score[1] = set(CARD.values())
    st.hand_score[0] = {CARD["Volcano eruption"]}
    give(st, 1, ship=1)
    give(st, 0, ship=1)
    out["scoring"] = st
    return out


@pytest.mark.parametrize("name", ["failed river builds", "sharing", "scoring"])
def test_kernel_equals_reference_on_hand_built_positions(name):
    start = hand_built_positions()[name]
    game = SantaCruzKernel(start.game.num_players)

    def walk(ref, ker, depth):
        same(ref, ker, ref.game.num_players)
        if depth == 0 or ref.is_terminal():
            return
        for a in ref.legal_actions():
            r2, k2 = ref.clone(), ker.clone()
            r2.apply_action(a)
            k2.apply_action(a)
            walk(r2, k2, depth - 1)

    walk(start, game.from_reference(start), 4)


def searched_redeal(game, state, seat, seed):
    """``state`` re-dealt for ``seat`` by the search's own determinize (the
    GameDef's, through ctypes), as MCTS does at each iteration."""
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    copy = state.clone()
    st = capsule_pointer(copy._state_capsule(), b"solvers.State")
    gd.determinize(gd.params, st, seat, ctypes.byref(c_uint64(seed)))
    return copy


def test_forgetting_round_one_reshuffles_only_its_free_inland_reveals():
    game = SantaCruzKernel(2)
    state = game.new_initial_state(seed=8)
    rng = random.Random(8)
    while state.round == 1 or state.step not in ("play", "build"):
        state.apply_action(state.seeded_outcome() if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    coast = game.coast
    occupied = {s for s, o in enumerate(state.occupants) if o}
    free_seen = [s for s in range(game.num_sites)
                 if state.face_up >> s & 1 and not coast >> s & 1 and s not in occupied]
    assert free_seen
    q = state.current_player()
    try:
        game.core.forget_round_one = True
        moved = set()
        for seed in range(20):
            other = searched_redeal(game, state, q, seed)
            assert other.legal_actions() == state.legal_actions()
            moved |= {s for s in range(game.num_sites) if other.site_tile[s] != state.site_tile[s]
                      and state.face_up >> s & 1}
            # The rules' resample (an agent's view of the seat) never forgets.
            view = state.resample(q, seed)
            assert all(view.site_tile[s] == state.site_tile[s]
                       for s in range(game.num_sites) if state.face_up >> s & 1)
        assert moved and moved <= set(free_seen)
    finally:
        game.core.forget_round_one = False
    for seed in range(20):
        other = searched_redeal(game, state, q, seed)
        assert all(other.site_tile[s] == state.site_tile[s]
                   for s in range(game.num_sites) if state.face_up >> s & 1)
