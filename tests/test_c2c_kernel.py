"""The Coast to Coast kernel against the reference, and its C interface.

The reference (:mod:`solvers.games.c2c.reference`) is the rules of record:
random games are played through both in lock-step and everything a caller
can observe must agree at every step.
"""

from __future__ import annotations

import copy
import ctypes
import gc
import json
import pickle
import random
from collections import Counter
from importlib import resources

import pytest
from scipy.stats import chisquare, ks_2samp, ttest_ind

import solvers
from solvers.errors import IllegalActionError, SolversError, UnknownNameError
from solvers.game import CHANCE, State
from solvers.games.c2c.data import parse_map
from solvers.games.c2c.kernel import CoastToCoastKernel, play_random_games, random_scores
from solvers.games.c2c.reference import CoastToCoast
from solvers.rng import SplitMix64

HIDDEN = -2
CONFIGS = [(1, None), (1, "The Alamo"), (1, "Wrigley Field"), (2, None), (3, None), (4, None)]


# --- helpers -----------------------------------------------------------------

def small_map():
    """A valid map unlike the sheet: 26 locations, highways listed backwards
    (plus one with no location), other points and a type with no location."""
    raw = json.loads(resources.files("solvers.data").joinpath("coast_to_coast.json").read_text("utf-8"))
    raw["highways"] = list(reversed(raw["highways"])) + ["I-5"]
    raw["highway_points"] = [0, 2, 3, 7, 8, 14, 15, 21, 22, 30, 31]
    raw["region_points"] = 4
    raw["exact_match_points"] = 3
    raw["types"] = raw["types"] + [{"name": "ghost", "points": 5}]
    for loc in reversed([l["name"] for l in raw["locations"]]):
        if len(raw["locations"]) == 26:
            break
        trial = dict(raw)
        trial["locations"] = [l for l in raw["locations"] if l["name"] != loc]
        for key in ("solid_lines", "dashed_lines"):
            trial[key] = [pair for pair in raw[key] if loc not in pair]
        try:
            parse_map(trial, "test")
        except SolversError:
            continue  # removing it would cut the map in two
        raw = trial
    return parse_map(raw, "test")


SMALL = small_map()


def assert_same(kernel, ref, players):
    assert kernel.current_player() == ref.current_player()
    assert kernel.is_terminal() == ref.is_terminal()
    assert kernel.legal_actions() == ref.legal_actions()
    for p in range(players):
        assert kernel.information_state(p) == ref.information_state(p)
        assert kernel.plan(p) == ref.plan(p)
    assert kernel.scores() == ref.scores()
    assert kernel.returns() == ref.returns()


def lockstep(kgame, rgame, seed, check_every_step=True):
    """Play one random game through both; return the kernel's final state."""
    players = rgame.num_players
    rng = random.Random(seed)
    k, r = kgame.new_initial_state(seed), rgame.new_initial_state(seed)
    while True:
        if check_every_step or r.is_terminal():
            assert_same(k, r, players)
        if r.is_terminal():
            break
        if r.is_chance_node():
            assert k.chance_outcomes() == r.chance_outcomes()
            assert k.seeded_outcome() == r.seeded_outcome()
            # Mostly the seeded card, sometimes another: both swap it into place.
            a = r.seeded_outcome() if rng.random() < 0.7 else rng.choice(r.legal_actions())
        else:
            a = rng.choice(r.legal_actions())
        assert k.action_to_string(a) == r.action_to_string(a)
        k.apply_action(a)
        r.apply_action(a)
    assert str(k) == str(r)
    assert k.history == r.history and k.order == r.order
    assert k.sheets == r.sheets and k.round_start == r.round_start
    assert k.challenge_won() == r.challenge_won()
    for p in range(players):
        assert k.score_breakdown(p) == r.score_breakdown(p)
    return k


def random_state(game, seed, steps):
    """A state ``steps`` random actions into a game (chance: seeded)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def play_out(state, seed):
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# --- the kernel plays the reference's game -------------------------------------

@pytest.mark.parametrize("players,challenge", CONFIGS)
def test_lockstep_with_reference(players, challenge, sweep):
    kgame, rgame = CoastToCoastKernel(players, challenge), CoastToCoast(players, challenge)
    games = 500 if players < 3 else 400
    for seed in range(sweep(games, games // 6)):
        lockstep(kgame, rgame, 1000 * players + seed)


@pytest.mark.parametrize("players,challenge", [(1, None), (1, 3), (2, None)])
def test_lockstep_on_another_map(players, challenge):
    assert SMALL.n == 26
    kgame = CoastToCoastKernel(players, challenge, map=SMALL)
    rgame = CoastToCoast(players, challenge, map=SMALL)
    assert kgame.num_distinct_actions() == 26 + 26 * 26
    for seed in range(60):
        lockstep(kgame, rgame, seed)


def test_lockstep_from_a_deal():
    deal = [5, 17, 2, 30, 11, 9, 24, 1, 0, 31, 13, 6]
    kgame, rgame = CoastToCoastKernel(2), CoastToCoast(2)
    k, r = kgame.state_from_deal(deal), rgame.state_from_deal(deal)
    assert k.order == r.order
    rng = random.Random(4)
    while not r.is_terminal():
        assert_same(k, r, 2)
        a = r.seeded_outcome() if r.is_chance_node() else rng.choice(r.legal_actions())
        k.apply_action(a)
        r.apply_action(a)
    assert k.scores() == r.scores()
    with pytest.raises(SolversError):
        kgame.state_from_deal([5, 5])


def test_load_game_gives_the_kernel_by_default():
    game = solvers.load_game("c2c", players=2)
    assert isinstance(game, CoastToCoastKernel) and game.reference is False
    assert game.name == "c2c" and game.num_players == 2 and game.map.n == 32
    state = game.new_initial_state(seed=1)
    assert isinstance(state, State)
    assert game.setup_cards() == CoastToCoast(2).setup_cards()
    one = CoastToCoastKernel(1, challenge="The Alamo")
    assert one.required() == CoastToCoast(1, challenge="The Alamo").required() != set()


@pytest.mark.parametrize("bad", [{"players": 0}, {"players": 5}, {"players": 2, "challenge": "The Alamo"},
                                 {"challenge": 32}, {"challenge": -1}, {"challenge": True}])
def test_bad_options_raise(bad):
    with pytest.raises(SolversError):
        CoastToCoastKernel(**bad)


def test_unknown_challenge_is_named():
    with pytest.raises(UnknownNameError, match="Wrigley Field"):
        CoastToCoastKernel(challenge="Wrigly Feild")


# --- the Python state ---------------------------------------------------------

def test_clone_is_independent():
    game = CoastToCoastKernel(2)
    state = random_state(game, 3, 30)
    raw, history, info = state._raw(), list(state.history), state.information_state(0)
    twin = state.clone()
    for copied in (twin, copy.copy(state), copy.deepcopy(state)):
        assert copied._raw() == raw
    play_out(twin, 1)
    assert twin.is_terminal() and not state.is_terminal()
    assert state._raw() == raw and state.history == history
    assert state.information_state(0) == info
    play_out(state, 2)
    assert twin.history != state.history


@pytest.mark.parametrize("players", [1, 3])
def test_illegal_actions_leave_the_state_unchanged(players):
    game = CoastToCoastKernel(players)
    for seed in range(20):
        state = random_state(game, seed, seed * 3)
        raw, history = state._raw(), list(state.history)
        legal = set(state.legal_actions())
        bad = [a for a in range(game.num_distinct_actions()) if a not in legal]
        for action in bad + [-1, game.num_distinct_actions(), 10**30, 1.0, "3", None]:
            with pytest.raises(IllegalActionError):
                state.apply_action(action)
            assert state._raw() == raw and state.history == history
    terminal = play_out(random_state(game, 1, 200), 1)
    with pytest.raises(IllegalActionError):
        terminal.apply_action(0)
    with pytest.raises(SolversError):
        terminal.seeded_outcome()


def test_views_check_their_arguments():
    state = CoastToCoastKernel(2).new_initial_state(seed=1)
    for bad in (-1, 2, "0"):
        with pytest.raises(SolversError):
            state.information_state(bad)
        with pytest.raises(SolversError):
            state.plan(bad)
    with pytest.raises(SolversError):
        state.action_to_string(10**6)
    with pytest.raises(TypeError):
        type(state)()


def test_string_to_action_round_trips():
    state = random_state(CoastToCoastKernel(1), 5, 12)
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a).upper()) == a
    with pytest.raises(IllegalActionError):
        state.string_to_action("circle Narnia with Hollywood")


def test_raw_round_trip_and_pickle():
    game = CoastToCoastKernel(3)
    state = random_state(game, 8, 40)
    again = game._state_from_raw(state._raw(), state.history)
    assert again._raw() == state._raw() and again.history == state.history
    assert again.information_state(1) == state.information_state(1)
    with pytest.raises(SolversError):
        again._from_raw(b"short")
    restored = pickle.loads(pickle.dumps(state))
    assert restored._raw() == state._raw() and restored.history == state.history
    assert restored.legal_actions() == state.legal_actions()


# --- the C interface ------------------------------------------------------------

_F = ctypes.CFUNCTYPE
_P, _I, _D, _U = ctypes.c_void_p, ctypes.c_int, ctypes.c_double, ctypes.c_uint64


class GameDefC(ctypes.Structure):
    """game_api.h's GameDef, read through ctypes."""

    _fields_ = [
        ("name", ctypes.c_char_p), ("num_players", _I), ("max_actions", _I),
        ("num_distinct_actions", _I), ("max_game_length", _I),
        ("state_size", ctypes.c_size_t), ("params", _P),
        ("current_player", _F(_I, _P, _P)),
        ("legal_actions", _F(_I, _P, _P, ctypes.POINTER(_I))),
        ("apply_action", _F(None, _P, _P, _I)),
        ("chance_outcomes", _F(_I, _P, _P, ctypes.POINTER(_I), ctypes.POINTER(_D))),
        ("sample_chance", _F(_I, _P, _P, ctypes.POINTER(_U))),
        ("returns", _F(None, _P, _P, ctypes.POINTER(_D))),
        ("determinize", _F(None, _P, _P, _I, ctypes.POINTER(_U))),
        ("action_observation", _F(_I, _P, _P, _I, _I)),
        ("hash", _F(_U, _P, _P)),
        ("rollout_action", _F(_I, _P, _P, ctypes.POINTER(_U))),
    ]


def capsule_pointer(capsule, name):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    return get(capsule, name)


def test_capsules_carry_the_game_table():
    game = CoastToCoastKernel(2)
    capsule = game._gamedef_capsule()
    assert type(capsule).__name__ == "PyCapsule"
    g = GameDefC.from_address(capsule_pointer(capsule, b"solvers.GameDef"))
    assert (g.name, g.num_players) == (b"c2c", 2)
    assert g.num_distinct_actions == game.num_distinct_actions() == 32 + 32 * 32
    state = game.new_initial_state(seed=2)
    assert g.state_size == len(state._raw())
    assert capsule_pointer(state._state_capsule(), b"solvers.State")
    del game
    gc.collect()
    assert g.name == b"c2c"  # the capsule keeps the game's tables alive


@pytest.mark.parametrize("players,challenge", [(1, "The Alamo"), (3, None)])
def test_c_functions_play_the_same_game(players, challenge):
    """Drive the GameDef function pointers on a copy of the struct in step
    with the Python state: same player, actions, outcomes, states."""
    game = CoastToCoastKernel(players, challenge)
    cap = game._gamedef_capsule()
    g = GameDefC.from_address(capsule_pointer(cap, b"solvers.GameDef"))
    out = (_I * g.max_actions)()
    probs = (_D * g.max_actions)()
    rets = (_D * players)()
    longest = widest = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        buf = ctypes.create_string_buffer(state._raw(), g.state_size)
        rng = random.Random(seed)
        while True:
            assert g.current_player(g.params, buf) == state.current_player()
            n = g.legal_actions(g.params, buf, out)
            assert list(out[:n]) == state.legal_actions()
            widest = max(widest, n)
            if state.is_terminal():
                break
            if state.is_chance_node():
                n = g.chance_outcomes(g.params, buf, out, probs)
                assert [(out[i], probs[i]) for i in range(n)] == state.chance_outcomes()
                seed64 = _U(seed)
                a = g.sample_chance(g.params, buf, ctypes.byref(seed64))
                assert a in state.legal_actions()
            else:
                a = rng.choice(state.legal_actions())
                seed64 = _U(seed + len(state.history))
                assert g.rollout_action(g.params, buf, ctypes.byref(seed64)) in state.legal_actions()
            g.apply_action(g.params, buf, a)
            state.apply_action(a)
            assert buf.raw == state._raw()
            assert g.hash(g.params, buf) == state._hash()
        longest = max(longest, len(state.history))
        g.returns(g.params, buf, rets)
        assert list(rets) == state._search_returns()
    assert widest <= g.max_actions and longest <= g.max_game_length


def expected_utility(state, players, challenge):
    """GameDef.returns as documented, from the Python views."""
    scores = state.scores()
    if players == 1 and challenge is None:
        return [scores[0] / 100]
    if players == 1:
        return [1 + scores[0] / 1000 if state.challenge_won() else 0.0]
    keys = [(scores[p], state.score_breakdown(p)["highways"]) for p in range(players)]
    winners = [p for p in range(players) if keys[p] == max(keys)]
    return [1 / len(winners) if p in winners else 0.0 for p in range(players)]


def test_search_returns_match_the_rulebook_returns():
    for players, challenge in CONFIGS:
        game = CoastToCoastKernel(players, challenge)
        for seed in range(40):
            state = random_state(game, seed, 10 + seed)
            if not state.is_terminal():  # an estimate from the sheets so far
                assert state._search_returns() == expected_utility(state, players, challenge)
            play_out(state, seed)
            python, search, score = state.returns(), state._search_returns(), state.scores()[0]
            assert search == expected_utility(state, players, challenge)
            if players > 1:
                assert search == python
            elif challenge is None:
                assert search == [score / 100] and python == [float(score)]
            elif state.challenge_won():
                assert python == [float(score)] and search == [1 + score / 1000]
            else:
                assert python == [0.0] and search == [0.0]


def test_hash_follows_the_position():
    game = CoastToCoastKernel(2)
    hashes = set()
    for seed in range(30):
        state = random_state(game, seed, 25)
        assert state.clone()._hash() == state._hash()
        hashes.add(state._hash())
        before = state._hash()
        state.apply_action(state.legal_actions()[0])
        assert state._hash() != before
    assert len(hashes) == 30


def test_action_observation_hides_private_cards_and_moves_within_a_round():
    game = CoastToCoastKernel(3)
    state = game.new_initial_state(seed=4)
    for i in range(game.setup_cards()):
        card = state.seeded_outcome()
        for p in range(3):
            seen = state.action_observation(card, p)
            private_of = i // 2 if i < 6 else None
            assert seen == (card if private_of in (None, p) else HIDDEN)
        state.apply_action(card)
    # Seat 0 crosses off in the setup: it sees its move, the others only
    # that its turn passed (one key for every cross-off it could make).
    legal = state.legal_actions()
    assert [state.action_observation(a, 0) for a in legal] == legal
    for p in (1, 2):
        assert len({state.action_observation(a, p) for a in legal}) == 1
        assert state.action_observation(legal[0], p) not in legal
    solo = CoastToCoastKernel(1).new_initial_state(seed=4)
    assert solo.action_observation(solo.seeded_outcome(), 0) == solo.seeded_outcome()


def setup_is_consistent(state, players):
    """Every seat that crossed off in the setup used exactly its own 4 cards."""
    assert sorted(state.order) == sorted(state.game.deck)
    assert state.dealt == state.order[:state.pos]
    for q, sheet in enumerate(state.sheets):
        if sheet.crosses:
            cards = set(state.visible_cards(q))
            assert sheet.circled | sheet.crossed == cards and len(sheet.circled) == 3
            assert {k for k, _ in sheet.circles[0]} == sheet.circled


def test_determinize_in_the_setup_redeals_other_private_cards():
    players = 3
    game = CoastToCoastKernel(players)
    changed = Counter()
    for seed in range(12):
        state = game.new_initial_state(seed)
        state.apply_seeded_chance()
        rng = random.Random(seed)
        state.apply_action(rng.choice(state.legal_actions()))   # seat 0 crosses off
        state.apply_action(rng.choice(state.legal_actions()))   # seat 1 crosses off
        for me in range(players):
            info = state.information_state(me)
            for k in range(15):
                other = state.resample(me, SplitMix64(100 * seed + k))
                assert other.information_state(me) == info
                assert other.visible_cards(me) == state.visible_cards(me)
                setup_is_consistent(other, players)
                for q in range(players):
                    if q != me and other.order[2 * q: 2 * q + 2] != state.order[2 * q: 2 * q + 2]:
                        changed[q] += 1
                assert other.order[:2 * players + 2][2 * me: 2 * me + 2] == state.order[2 * me: 2 * me + 2]
                assert other.order[2 * players: 2 * players + 2] == state.order[2 * players: 2 * players + 2]
                play_out(other, k)  # still a game that plays to its end
    assert all(changed[q] > 0 for q in range(players))


def test_determinize_mid_deal_and_in_rounds():
    game = CoastToCoastKernel(2)
    state = game.new_initial_state(seed=9)
    for _ in range(3):
        state.apply_action(state.seeded_outcome())   # seat 0's two cards, one of seat 1's
    other = state.resample(1, SplitMix64(1))
    assert other.information_state(1) == state.information_state(1)
    assert other.order[2] == state.order[2]          # seat 1's own card stays
    for seed in range(10):
        mid = random_state(game, seed, 30 + seed)
        if mid.is_terminal():
            continue
        for me in range(2):
            again = mid.resample(me, SplitMix64(seed))
            assert again.information_state(me) == mid.information_state(me)
            assert again.order[:mid.pos] == mid.order[:mid.pos]   # nothing seen moves
            assert sorted(again.order[mid.pos:]) == sorted(mid.order[mid.pos:])
            # Own sheet and the others' sheets as the round began are known;
            # the others' moves of this round are not (the round is simultaneous).
            assert again.sheets[me] == mid.sheets[me]
            assert again.round_start == mid.round_start
        assert any(mid.resample(0, SplitMix64(s)).order != mid.order for s in range(5))


def test_determinize_deals_the_unseen_cards_uniformly():
    state = random_state(CoastToCoastKernel(1), 2, 12)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    rest = [a for a, _ in state.chance_outcomes()]
    draws = 40 * len(rest)
    seen = Counter(state.resample(0, SplitMix64(i)).seeded_outcome() for i in range(draws))
    assert set(seen) == set(rest)
    # Chi-square goodness of fit to uniform at the 0.1% level (fixed seeds).
    assert chisquare([seen[c] for c in rest]).pvalue > 0.001


# --- random playouts in C ------------------------------------------------------

def test_random_playouts_in_c_match_python_random_play():
    game = CoastToCoastKernel(1)
    assert play_random_games(game, 50, seed=3) == play_random_games(game, 50, seed=3)
    assert random_scores(game, 20, seed=1).shape == (20, 1)
    assert play_random_games(game, 50, seed=3) != play_random_games(game, 50, seed=4)
    c_scores = random_scores(game, 20000, seed=5)[:, 0]
    rng = random.Random(5)
    ref = CoastToCoast(1)
    py_scores = []
    for seed in range(1000):
        state = ref.new_initial_state(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        py_scores.append(state.scores()[0])
    # The same score distribution: Welch's t test on the means and a
    # two-sample Kolmogorov-Smirnov test on the whole distribution, each at
    # the 0.1% level (fixed seeds). The score spread is about 10, so the
    # t test alone notices a shift of about 1.1 points (3.3 standard errors).
    assert ttest_ind(c_scores, py_scores, equal_var=False).pvalue > 0.001
    assert ks_2samp(c_scores, py_scores).pvalue > 0.001
    scores = random_scores(CoastToCoastKernel(4), 200, seed=1)
    assert scores.shape == (200, 4) and scores.min() >= 0


def test_determinize_hides_the_other_seats_moves_of_this_round():
    """Two games that differ only in what seat 0 did this round look the
    same to seat 1, so seat 1's re-deals from one seed are the same too."""
    game = CoastToCoastKernel(2)
    differ = 0
    for seed in range(8):
        base = game.new_initial_state(seed)
        for _ in range(3 + seed % 3):          # play into some round
            while not base.is_chance_node() and not base.is_terminal():
                base.apply_action(base.legal_actions()[0])
            base.apply_seeded_chance()
        twins = []
        for pick in (0, -1):
            s = base.clone()
            while s.current_player() == 0:
                s.apply_action(s.legal_actions()[pick])
            twins.append(s)
        a, b = twins
        assert a.current_player() == b.current_player() == 1
        assert a.information_state(1) == b.information_state(1)
        differ += a.sheets[0] != b.sheets[0]
        ra, rb = a.resample(1, SplitMix64(seed)), b.resample(1, SplitMix64(seed))
        assert ra.sheets == rb.sheets and ra.order == rb.order
        play_out(ra, seed)
    assert differ > 0
