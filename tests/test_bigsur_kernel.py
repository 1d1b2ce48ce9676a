"""The Big Sur kernel against the reference rules, and its C interface."""

import ctypes
from collections import Counter
from ctypes import c_double, c_int, c_uint64

import pytest

from solvers.errors import IllegalActionError, SolversError
from solvers.game import CHANCE
from solvers.games.bigsur.kernel import BigSurKernel
from solvers.games.bigsur.reference import FINISH, BigSur
from solvers.rng import SplitMix64
from test_switchbacks_kernel import GameDef, capsule_pointer

FIELDS = ("order", "pos", "lorder", "lpos", "highways", "marks", "hands", "piles", "depot", "row",
          "player", "step", "turns", "taken", "used", "recycled", "claimed", "building", "end",
          "paying", "pay_finish", "claiming")
KERNELS = {p: BigSurKernel(p) for p in (2, 3, 4)}
RULES = {p: BigSur(p) for p in (2, 3, 4)}


def fields(state):
    return {f: getattr(state, f) for f in FIELDS}


def builder_move(state, rng):
    """A legal move that favours building and claiming (so Highways grow,
    payments use every source and Landmarks are claimed); else any move."""
    g = state.game
    legal = state.legal_actions()
    if state.step == "build" and rng.below(8):
        claims = [a for a in legal if g.CLAIM_BASE <= a < g.PLACE_BASE]
        builds = [a for a in legal if g.BUILD_BASE <= a < g.LEFT]
        pick = claims or builds
        if pick:
            return pick[rng.below(len(pick))]
    return legal[rng.below(len(legal))]


def kind_of(g, action):
    if action >= g.CARD_BASE:
        return "chance"
    for name, base in (("end turn", g.END_TURN), ("place", g.PLACE_BASE), ("claim", g.CLAIM_BASE),
                       ("top", g.TOP_BASE), ("finish", g.FINISH_BASE), ("discard", g.DISCARD_BASE),
                       ("left", g.LEFT), ("build", g.BUILD_BASE), ("draw", g.DRAW), ("take", 0)):
        if action >= base:
            return name
    return "take"


def lockstep(players, seed, seen, check_views=True):
    """One game through both implementations, compared at every step."""
    ker = KERNELS[players].new_initial_state(seed=seed)
    ref = RULES[players].new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    g = ref.game
    while True:
        assert ker.current_player() == ref.current_player()
        assert ker.legal_actions() == ref.legal_actions()
        if check_views:
            assert fields(ker) == fields(ref)
            for p in range(players):
                assert ker.information_state(p) == ref.information_state(p)
        if ref.is_terminal():
            assert ker.is_terminal()
            assert ker.scores() == ref.scores() and ker.returns() == ref.returns()
            return ref.scores()
        if ref.is_chance_node():
            assert ker.chance_outcomes() == ref.chance_outcomes()
            assert ker.seeded_outcome() == ref.seeded_outcome()
            outcomes = ref.legal_actions()
            action = ref.seeded_outcome() if rng.below(3) else outcomes[rng.below(len(outcomes))]
        else:
            action = builder_move(ref, rng)
            kind = kind_of(g, action)
            seen[kind] += 1
            if kind == "finish":
                counts, recycle = FINISH[action - g.FINISH_BASE]
                seen["persistent"] += sum(counts) > 0
                seen["recycle"] += recycle
        for p in range(players):
            assert ker.action_observation(action, p) == ref.action_observation(action, p)
        assert ker.action_to_string(action) == ref.action_to_string(action)
        ker.apply_action(action)
        ref.apply_action(action)


@pytest.mark.parametrize("players,games", [(2, 60), (3, 40), (4, 30)])
def test_kernel_plays_exactly_like_the_reference(players, games, sweep):
    seen = Counter()
    totals = [0] * players
    for seed in range(sweep(games, games // 2)):
        scores = lockstep(players, 1000 * players + seed, seen, check_views=seed % 2 == 0)
        totals = [a + b for a, b in zip(totals, scores)]
    assert sum(totals) > 0
    # every kind of decision, and every way to pay, was compared
    for kind in ("take", "draw", "build", "left", "discard", "finish", "top", "claim", "place",
                 "end turn", "persistent", "recycle"):
        assert seen[kind] > 0, (kind, seen)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_equals_reference_over_thousands_of_games(players):
    seen = Counter()
    for seed in range(2000):
        lockstep(players, 50_000 + 1000 * players + seed, seen, check_views=seed % 10 == 0)


def test_illegal_action_leaves_the_state_unchanged():
    state = KERNELS[2].new_initial_state(seed=1)
    state.apply_seeded_chance()
    raw = state._raw()
    for bad in (KERNELS[2].END_TURN, -1, 10**6, "draw", True):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    assert state._raw() == raw


def midgame_states(players, seed):
    state = KERNELS[players].new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        yield state.clone()
        state.apply_action(builder_move(state, rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resample_matches_the_reference_and_keeps_what_the_player_knows(players):
    for state in list(midgame_states(players, seed=5))[::9]:
        seat = state.current_player()
        ref = RULES[players].new_initial_state(seed=5)
        for a in state.history:
            ref.apply_action(a)
        for seed in (1, 2):
            k, r = state.resample(seat, seed), ref.resample(seat, seed)
            assert fields(k) == fields(r)
            assert k.information_state(seat) == state.information_state(seat)
        gen = SplitMix64(9)
        state.resample(seat, gen)
        assert gen.state != 9


def test_gamedef_plays_like_the_reference():
    players = 3
    game = KERNELS[players]
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    assert gd.name == b"bigsur" and gd.num_players == players
    assert gd.num_distinct_actions == game.num_distinct_actions()
    out = (c_int * gd.max_actions)()
    probs = (c_double * gd.max_actions)()
    ret = (c_double * players)()
    for seed in range(6):
        ker = game.new_initial_state(seed=seed)
        assert gd.state_size == len(ker._raw())
        st = capsule_pointer(ker._state_capsule(), b"solvers.State")
        ref = RULES[players].new_initial_state(seed=seed)
        rng = c_uint64(seed)
        length = 0
        while True:
            player = gd.current_player(gd.params, st)
            assert player == ref.current_player()
            n = gd.legal_actions(gd.params, st, out)
            assert n <= gd.max_actions and list(out[:n]) == ref.legal_actions()
            assert gd.hash(gd.params, st) == ker.hash()
            if ref.is_terminal():
                break
            if player == CHANCE:
                n = gd.chance_outcomes(gd.params, st, out, probs)
                assert list(zip(out[:n], probs[:n])) == ref.chance_outcomes()
                action = gd.sample_chance(gd.params, st, ctypes.byref(rng))
                assert action in out[:n]
            else:
                action = gd.rollout_action(gd.params, st, ctypes.byref(rng))
                assert action in ref.legal_actions()
            gd.apply_action(gd.params, st, action)
            ref.apply_action(action)
            length += 1
        assert length <= gd.max_game_length
        gd.returns(gd.params, st, ret)
        assert list(ret) == ref.returns()


def test_gamedef_determinize_matches_resample():
    game = KERNELS[4]
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    for state in list(midgame_states(4, seed=2))[::11]:
        seat = state.current_player()
        copy = state.clone()
        st = capsule_pointer(copy._state_capsule(), b"solvers.State")
        gd.determinize(gd.params, st, seat, ctypes.byref(c_uint64(77)))
        assert copy._raw() == state.resample(seat, seed=77)._raw()


def test_hash_tells_positions_apart():
    hashes = {s.hash() for s in midgame_states(2, seed=3)}
    states = list(midgame_states(2, seed=3))
    assert len(hashes) == len({s._raw() for s in states})


def test_play_random_games_is_seeded():
    game = KERNELS[2]
    assert game.play_random_games(50, seed=4) == game.play_random_games(50, seed=4)
    assert game.play_random_games(50, seed=4) != game.play_random_games(50, seed=5)
    with pytest.raises(SolversError):
        game.play_random_games(0)


def test_playout_weights_are_checked():
    core = BigSurKernel(2).core
    core.playout_weights = (0, 0)
    assert core.playout_weights == (0, 0)
    with pytest.raises(SolversError):
        core.playout_weights = (300, 0)


def test_kernel_scores_any_highway_like_the_reference():
    """Random Highways of 0-16 cards with 0-7 Landmarks (every bonus kind,
    Mile-tag changes, the whole Landmark count table), scored by the kernel
    and by the reference's scoring."""
    rules = RULES[4]
    cards = rules.cards
    rng = SplitMix64(11)
    counts = Counter()
    for _ in range(400):
        ref = rules.new_initial_state(seed=0)
        pool = list(rules.deck)
        rng.shuffle(pool)
        lms = list(range(1, rules.num_landmarks + 1))
        rng.shuffle(lms)
        for q in range(4):
            road = [pool.pop() for _ in range(rng.below(17))]
            ref.highways[q] = road
            for c in road[:min(rng.below(8), len(lms))]:
                lm = lms.pop()
                ref.marks[q][c] = (lm, cards.landmark(lm).scenery[0])
                counts[len(ref.marks[q])] += 1
        ker = KERNELS[4].from_reference(ref)
        assert ker.scores() == ref.scores()
    assert counts[5] and counts[7]


def play_out(ker, ref, rng, lockstep_steps):
    """Random moves from a re-dealt pair to the end of the game: the kernel
    all the way, the reference alongside for its first ``lockstep_steps``
    moves (the legal actions never empty, the two always equal)."""
    steps = 0
    while not ker.is_terminal():
        legal = ker.legal_actions()
        assert legal, f"no legal action at step {ker.step!r} after a re-deal"
        if ref is not None:
            assert ref.legal_actions() == legal
        action = ker.seeded_outcome() if ker.is_chance_node() else legal[rng.below(len(legal))]
        ker.apply_action(action)
        if ref is not None:
            ref.apply_action(action)
            steps += 1
            if steps == lockstep_steps:
                ref = None
    if ref is not None:
        assert ref.is_terminal() and ref.returns() == ker.returns()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_redeal_for_any_seat_mid_turn_leaves_a_playable_position(players, sweep):
    """At every decision of random games, re-deal for every seat (the player
    to move or not, in the middle of a build too): both implementations deal
    alike, the seat's view is unchanged, the player to move has a legal
    action, and the game plays on to the end from the re-dealt state (the
    reference in step at least until the pending build is over)."""
    checked = refused = 0
    for seed in range(sweep(6, 2)):
        ker = KERNELS[players].new_initial_state(seed=seed)
        ref = RULES[players].new_initial_state(seed=seed)
        rng = SplitMix64(1000 + seed)
        while not ker.is_terminal():
            if not ker.is_chance_node():
                for seat in range(players):
                    redeal_seed = rng.below(1 << 32)
                    try:
                        k = ker.resample(seat, redeal_seed)
                    except SolversError:
                        # only refused while another player has chosen part of a payment
                        assert ker.step in ("pay", "top") and ker.player != seat and ker.paying
                        with pytest.raises(SolversError):
                            ref.resample(seat, redeal_seed)
                        refused += 1
                        continue
                    r = ref.resample(seat, redeal_seed)
                    assert fields(k) == fields(r)
                    assert k.information_state(seat) == ker.information_state(seat)
                    assert r.information_state(seat) == ref.information_state(seat)
                    assert k.legal_actions() and k.legal_actions() == r.legal_actions()
                    pending = ker.step in ("end", "pay", "top")
                    play_out(k, r, rng, lockstep_steps=40 if pending else 3)
                    checked += 1
            action = ker.seeded_outcome() if ker.is_chance_node() else builder_move(ker, rng)
            ker.apply_action(action)
            ref.apply_action(action)
    assert checked > 0 and refused > 0
