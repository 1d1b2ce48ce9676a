"""The Switchbacks kernel against the reference rules, and its C interface."""

import ctypes
from ctypes import c_double, c_int, c_uint64

import pytest
from gamedef_ctypes import GameDef, capsule_pointer, play_move_by_move
from scipy.stats import chisquare

import solvers
from solvers.errors import IllegalActionError, SolversError
from solvers.game import CHANCE, State
from solvers.games.switchbacks.data import load_map
from solvers.games.switchbacks.kernel import SwitchbacksKernel
from solvers.games.switchbacks.reference import Switchbacks
from solvers.rng import SplitMix64

MAP = load_map()
FIELDS = ("order", "pos", "board", "hikers", "hands", "set_aside", "solo", "buddies",
          "player", "step", "just_explored")
GAME_HIDDEN = -2


def fields(state):
    return {f: getattr(state, f) for f in FIELDS}


def path_seeking_move(state, rng):
    """Mostly a move that puts a tile next to its number +-1 (so paths form
    and scores are not all zero), otherwise any legal move."""
    legal = state.legal_actions()
    if state.step == "explore" and rng.below(4):
        where = {t: h for h, t in state.board.items()}
        good = []
        for a in legal:
            tile, hex_id = divmod(a, 37)
            tile += 1
            if any(n in where and MAP.adjacent(where[n], hex_id) for n in (tile - 1, tile + 1)):
                good.append(a)
        if good:
            return good[rng.below(len(good))]
    return legal[rng.below(len(legal))]


def lockstep(players, seed, check_views=True):
    """Play one game through both implementations, comparing at every step."""
    ker = SwitchbacksKernel(players).new_initial_state(seed=seed)
    ref = Switchbacks(players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while True:
        assert ker.current_player() == ref.current_player()
        assert ker.legal_actions() == ref.legal_actions()
        assert ker.scores() == ref.scores()
        assert ker.returns() == ref.returns()
        if check_views:
            assert fields(ker) == fields(ref)
            for p in range(players):
                assert ker.information_state(p) == ref.information_state(p)
        if ref.is_terminal():
            assert ker.is_terminal()
            return ref.scores()
        if ref.is_chance_node():
            assert ker.chance_outcomes() == ref.chance_outcomes()
            assert ker.seeded_outcome() == ref.seeded_outcome()
            # mostly the seeded tile, sometimes another one
            outcomes = ref.legal_actions()
            action = ref.seeded_outcome() if rng.below(3) else outcomes[rng.below(len(outcomes))]
        else:
            action = path_seeking_move(ref, rng)
        assert ker.action_to_string(action) == ref.action_to_string(action)
        ker.apply_action(action)
        ref.apply_action(action)


@pytest.mark.parametrize("players,games", [(2, 1200), (3, 900), (4, 900)])
def test_kernel_plays_exactly_like_the_reference(players, games, sweep):
    totals = [0] * players
    for seed in range(sweep(games, games // 4)):
        # the full comparison (fields and every view) on every third game
        scores = lockstep(players, 1000 * players + seed, check_views=seed % 3 == 0)
        totals = [a + b for a, b in zip(totals, scores)]
    assert sum(totals) > 0  # the games did score, so scoring was compared too


def test_load_game_gives_the_kernel_by_default():
    game = solvers.load_game("switchbacks", players=3)
    assert isinstance(game, SwitchbacksKernel) and not game.reference
    state = game.new_initial_state(seed=1)
    assert isinstance(state, State)
    assert game.num_distinct_actions() == 37 * 37 + 3 + 37


def test_clone_is_independent():
    state = SwitchbacksKernel(2).new_initial_state(seed=3)
    state.apply_seeded_chance()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[5])
    assert state.board == {MAP.centre: state.board[MAP.centre]} and len(copy.board) == 2
    assert state.history != copy.history and state._raw() != copy._raw()
    assert state.clone()._raw() == state._raw()


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("bad", [-1, 10**20, 37 * 37 + 2, "explore", 1.0, None])
def test_illegal_action_leaves_the_state_unchanged(reference, bad):
    state = solvers.load_game("switchbacks", 2, reference=reference).new_initial_state(seed=8)
    state.apply_seeded_chance()
    state.apply_action(state.legal_actions()[0])  # now at the hike step
    before = fields(state), list(state.history)
    with pytest.raises(IllegalActionError):
        state.apply_action(bad)
    with pytest.raises(IllegalActionError):
        state.apply_action(0)  # an explore action during the hike step
    assert (fields(state), state.history) == before


def test_seeded_outcome_only_at_chance_nodes():
    state = SwitchbacksKernel(2).new_initial_state(seed=8)
    state.apply_seeded_chance()
    with pytest.raises(SolversError):
        state.seeded_outcome()
    assert state.chance_outcomes() == []


# --- hidden information --------------------------------------------------

def midgame_states(players, seed, reference=False):
    """States along one seeded game, one per decision."""
    game = solvers.load_game("switchbacks", players, reference=reference)
    state = game.new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        yield state.clone()
        state.apply_action(path_seeking_move(state, rng))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_what_the_player_knows(players):
    changed = 0
    for i, state in enumerate(midgame_states(players, seed=players)):
        if i % 5:
            continue
        ref = Switchbacks(players).new_initial_state(seed=players)
        for p in range(players):
            other = state.resample(p, seed=i * 10 + p)
            assert other.information_state(p) == state.information_state(p)
            changed += any(other.information_state(q) != state.information_state(q)
                           for q in range(players) if q != p) or other.order != state.order
            # the same re-deal as the reference's resample
            for f in FIELDS:
                setattr(ref, f, getattr(state, f))
            ref.hands = [set(h) for h in state.hands]
            ref.set_aside = [set(s) for s in state.set_aside]
            assert fields(ref.resample(p, seed=i * 10 + p)) == fields(other)
    assert changed > 0


@pytest.mark.parametrize("reference", [False, True])
def test_resample_with_a_generator_advances_it(reference):
    state = list(midgame_states(2, seed=9, reference=reference))[10]
    rng = SplitMix64(42)
    first = state.resample(1, rng)
    assert rng.state != 42
    second = state.resample(1, rng)
    assert fields(first) == fields(state.resample(1, 42))
    assert fields(second) != fields(first)
    assert second.information_state(1) == state.information_state(1)
    check = SplitMix64(42)
    check.shuffle(list(range(len(state.hands[0]) + len(state.set_aside[0]) + len(state.stack()))))
    assert rng.state != check.state  # advanced twice, by two shuffles
    check.shuffle(list(range(len(state.hands[0]) + len(state.set_aside[0]) + len(state.stack()))))
    assert rng.state == check.state


def test_resampled_state_plays_on():
    for state in list(midgame_states(3, seed=5))[::10]:
        other = state.resample(1, seed=7)
        while not other.is_terminal():
            other.apply_action(other.legal_actions()[0] if not other.is_chance_node()
                               else other.seeded_outcome())
        assert sum(other.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("reference", [False, True])
def test_information_state_hides_the_other_hands_and_the_stack(reference):
    game = solvers.load_game("switchbacks", 2, reference=reference)
    a = game.new_initial_state(seed=21)
    a.apply_seeded_chance()
    # b: the same map and the same own tiles for player 0, but other hidden
    # tiles for player 1 and a different stack
    b = a.resample(0, seed=99)
    assert b.hands[1] != a.hands[1] or b.set_aside[1] != a.set_aside[1]
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(1) != b.information_state(1)
    view = a.information_state(0)
    assert view["hand"] == sorted(a.hands[0]) and view["set_aside"] == sorted(a.set_aside[0])
    assert view["hand_sizes"] == [3, 3] and view["stack"] == len(a.stack())
    hidden = a.hands[1] | a.set_aside[1] | set(a.stack())
    # the only lists of tiles in the view are the map and the player's own
    tile_lists = [v for k, v in view.items() if isinstance(v, list) and k not in
                  ("hand_sizes", "set_aside_sizes", "unplaced")]
    assert tile_lists == [view["hand"], view["set_aside"]]
    assert not hidden & (set(view["hand"]) | set(view["set_aside"]) | set(view["board"].values()))


def test_action_observation_hides_other_players_tiles():
    state = SwitchbacksKernel(3).new_initial_state(seed=4)
    seen = []
    while state.is_chance_node():
        a = state.seeded_outcome()
        seen.append([state.action_observation(a, p) for p in range(3)])
        state.apply_action(a)
    assert seen[0] == [seen[0][0]] * 3 and seen[0][0] >= 0  # the centre tile is public
    for k, obs in enumerate(seen[1:]):
        seat = k % 3  # set-aside then hands, seat by seat
        assert [o != GAME_HIDDEN for o in obs] == [p == seat for p in range(3)]
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.game.HIKE_SOLO)
    a = state.seeded_outcome()
    assert [state.action_observation(a, p) for p in range(3)] == [a, GAME_HIDDEN, GAME_HIDDEN]
    state.apply_action(a)
    explore = state.legal_actions()[0]
    assert [state.action_observation(explore, p) for p in range(3)] == [explore] * 3


def test_hash_follows_the_position_not_the_history():
    states = list(midgame_states(2, seed=13))
    hashes = [s.hash() for s in states]
    assert len(set(hashes)) == len(hashes)
    s = states[20]
    ref = Switchbacks(2).new_initial_state(seed=0)
    for f in FIELDS:
        setattr(ref, f, getattr(s, f))
    ref.hands = [set(h) for h in s.hands]
    ref.set_aside = [set(x) for x in s.set_aside]
    rebuilt = s.game.from_reference(ref)
    assert rebuilt.hash() == s.hash() and rebuilt.history == [] and rebuilt._raw() == s._raw()
    other = s.resample(0, seed=3)
    assert (other.hash() == s.hash()) == (other.hands == s.hands and other.set_aside == s.set_aside)


# --- the C interface, called through ctypes ------------------------------

@pytest.mark.parametrize("players", [2, 4])
def test_gamedef_plays_like_the_reference(players):
    game = SwitchbacksKernel(players)
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    assert gd.name == b"switchbacks" and gd.num_players == players
    assert gd.num_distinct_actions == game.num_distinct_actions()
    out = (c_int * gd.max_actions)()
    probs = (c_double * gd.max_actions)()
    ret = (c_double * players)()
    for seed in range(20):
        ker = game.new_initial_state(seed=seed)
        assert gd.state_size == len(ker._raw())
        st = capsule_pointer(ker._state_capsule(), b"solvers.State")
        ref = Switchbacks(players).new_initial_state(seed=seed)
        rng = c_uint64(seed)
        pyrng = SplitMix64(seed + 1)
        length = 0
        while True:
            player = gd.current_player(gd.params, st)
            assert player == ref.current_player()
            n = gd.legal_actions(gd.params, st, out)
            assert n <= gd.max_actions and list(out[:n]) == ref.legal_actions()
            assert gd.hash(gd.params, st) == ker.hash()
            assert gd.solver_key(gd.params, st) == ker.solver_key()
            if player >= 0:
                assert gd.rollout_action(gd.params, st, ctypes.byref(rng)) in ref.legal_actions()
            if ref.is_terminal():
                break
            if player == CHANCE:
                n = gd.chance_outcomes(gd.params, st, out, probs)
                assert list(zip(out[:n], probs[:n])) == ref.chance_outcomes()
                action = gd.sample_chance(gd.params, st, ctypes.byref(rng))
                assert action in out[:n]
            else:
                action = path_seeking_move(ref, pyrng)
            receiver = None  # who gets the tile at a chance node (-1: the centre, public)
            if ref.step == "draw":
                receiver = ref.player
            elif ref.step == "deal":
                receiver = game.deal_destination(ref.pos)[1]
            for p in range(players):
                seen = gd.action_observation(gd.params, st, action, p)
                hidden = receiver is not None and receiver not in (-1, p)
                assert seen == (GAME_HIDDEN if hidden else action) == ref.action_observation(action, p)
            gd.apply_action(gd.params, st, action)
            ref.apply_action(action)
            length += 1
        assert length <= gd.max_game_length
        gd.returns(gd.params, st, ret)
        assert list(ret) == ref.returns() == ker.returns()


def test_gamedef_determinize_matches_resample():
    game = SwitchbacksKernel(3)
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    for state in list(midgame_states(3, seed=2))[::7]:
        copy = state.clone()
        st = capsule_pointer(copy._state_capsule(), b"solvers.State")
        gd.determinize(gd.params, st, 2, ctypes.byref(c_uint64(77)))
        assert copy._raw() == state.resample(2, seed=77)._raw()
        assert copy.information_state(2) == state.information_state(2)


def test_play_random_games_is_seeded():
    game = SwitchbacksKernel(2)
    a = game.play_random_games(200, seed=5)
    assert a == game.play_random_games(200, seed=5)
    assert a != game.play_random_games(200, seed=6)
    assert len(a) == 2 and all(0 <= x <= 16 for x in a)
    with pytest.raises(SolversError):
        game.play_random_games(0, seed=1)


@pytest.mark.parametrize("reference", [False, True])
def test_resample_depends_only_on_what_the_player_sees(reference):
    """Two states a player cannot tell apart re-deal identically from one seed,
    so a search seeded alike cannot tell them apart either."""
    tested = 0
    for i, state in enumerate(midgame_states(3, seed=11, reference=reference)):
        if i % 4:
            continue
        for p in range(3):
            twin = state.resample(p, seed=1000 + i)        # differs only in hidden tiles
            assert twin.information_state(p) == state.information_state(p)
            tested += fields(twin) != fields(state)
            assert fields(twin.resample(p, seed=7)) == fields(state.resample(p, seed=7))
    assert tested > 0


def rollout_counts(game, state, draws, seed=5):
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    st = capsule_pointer(state._state_capsule(), b"solvers.State")
    rng = c_uint64(seed)
    counts = {}
    for _ in range(draws):
        a = gd.rollout_action(gd.params, st, ctypes.byref(rng))
        counts[a] = counts.get(a, 0) + 1
    return counts


def test_playout_policy_without_weights_is_uniform_over_the_legal_moves():
    game = SwitchbacksKernel(2)
    game.core.playout_weights = (0, 0, 0)
    state = game.new_initial_state(seed=3)
    state.apply_seeded_chance()
    legal = state.legal_actions()
    counts = rollout_counts(game, state, 1000 * len(legal))
    assert set(counts) == set(legal)
    # Chi-square goodness of fit to uniform at the 0.1% level (fixed seed:
    # a uniform sampler fails this with probability 0.001; one move of the
    # 108 drawn 50% too often fails it).
    assert chisquare([counts[a] for a in legal]).pvalue > 0.001


def next_to_its_number(state, tile, hex_id):
    where = {t: h for h, t in state.board.items()}
    nb = state.game.map.neighbours
    return any(t in where and (nb[hex_id] >> where[t]) & 1 for t in (tile - 1, tile + 1))


def test_playout_policy_grows_paths():
    """With the default weights a playout explore goes next to its number
    +-1 about link/256 of the time (plus the random moves that happen to),
    and a hike on such a tile puts hikers there."""
    game = SwitchbacksKernel(2)
    link, hike, buddy = game.core.playout_weights
    assert (link, hike, buddy) == (230, 240, 200)
    tested = 0
    for state in midgame_states(2, seed=8):
        if state.step != "explore" or state.current_player() < 0:
            continue
        nh = game.num_hexes
        legal = state.legal_actions()
        linking = [a for a in legal if next_to_its_number(state, a // nh + 1, a % nh)]
        if not linking or len(linking) == len(legal):
            continue
        draws = 4000
        counts = rollout_counts(game, state, draws, seed=tested)
        assert set(counts) <= set(legal)
        share = sum(counts.get(a, 0) for a in linking) / draws
        floor = link / 256 + (1 - link / 256) * len(linking) / len(legal)
        assert abs(share - floor) < 0.03, (share, floor)
        # and the hike that follows, on a linking tile with both options left
        after = state.clone()
        after.apply_action(linking[0])
        if after.step == "hike" and game.HIKE_BUDDIES in after.legal_actions():
            counts = rollout_counts(game, after, 2000, seed=tested)
            share = counts.get(game.HIKE_BUDDIES, 0) / 2000
            n = len(after.legal_actions())
            assert abs(share - (hike / 256 + (1 - hike / 256) / n)) < 0.04
        tested += 1
    assert tested >= 3
    with pytest.raises(SolversError):
        game.core.playout_weights = (0, 300, 0)
    with pytest.raises(SolversError):
        game.core.playout_weights = "strong"
    assert game.core.playout_weights == (link, hike, buddy)


def hikers_of(state, q):
    """Seat q's hikers, placed or not (a buddy pair counts two)."""
    placed = sum(count for owner, count in state.hikers.values() if owner == q)
    return placed + state.solo[q] + 2 * state.buddies[q]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gamedef_playout_ends_in_a_position_the_rules_allow(players):
    game = SwitchbacksKernel(players)
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    assert gd.public_decisions == 1
    starts = list(midgame_states(players, seed=20 + players))[::3]
    # a state in the setup deal and one at a draw are finished first
    first = game.new_initial_state(seed=5)
    for _ in range(3):
        first.apply_action(first.seeded_outcome())
    starts.append(first)
    drawing = starts[1].clone()
    while drawing.step != "draw":
        drawing.apply_action(drawing.legal_actions()[0])
    starts.append(drawing)
    every = (1 << players) - 1
    for i, start in enumerate(starts):
        end = start.clone()
        seats = (every, 0, 1 << (i % players))[i % 3]     # who plays the policy
        gd.playout(gd.params, capsule_pointer(end._state_capsule(), b"solvers.State"),
                   ctypes.byref(c_uint64(i)), seats)
        assert end.is_terminal() and end.step == "over" and end.just_explored is None
        assert all(not hand for hand in end.hands) and end.stack() == []
        assert sorted(end.order) == list(range(1, game.num_tiles + 1))
        if start.step == "deal":
            assert all(len(pile) == game.set_aside_each for pile in end.set_aside)
        else:
            assert end.set_aside == start.set_aside
        aside = set().union(*end.set_aside)
        assert set(end.board.values()) == set(range(1, game.num_tiles + 1)) - aside
        assert all(end.board[h] == t for h, t in start.board.items())
        assert all(end.hikers[h] == v for h, v in start.hikers.items())
        new_hexes = set(end.board) - set(start.board)
        if start.step == "hike":                        # its hike is still to come
            new_hexes.add(start.just_explored)
        assert set(end.hikers) - set(start.hikers) <= new_hexes
        for q in range(players):
            assert hikers_of(end, q) == hikers_of(start, q)
            assert end.solo[q] >= 0 and end.buddies[q] >= 0
        ref = Switchbacks(players).new_initial_state(seed=0)
        for f in FIELDS:
            setattr(ref, f, getattr(end, f))
        assert end.scores() == ref.scores() and end.returns() == ref.returns()


@pytest.mark.parametrize("seats", [0b11, 0b01, 0b10, 0])
def test_gamedef_playout_follows_the_move_by_move_policy(seats):
    """One playout call and the loop over rollout_action (for the seats that
    play the policy; uniformly random legal moves for the others) and
    sample_chance play alike: mean scores and hikers left agree within
    sampling error."""
    game = SwitchbacksKernel(2)
    gd = GameDef.from_address(capsule_pointer(game._gamedef_capsule(), b"solvers.GameDef"))
    start = list(midgame_states(2, seed=4))[8]
    samples = 2000
    rng = c_uint64(11)
    pick = SplitMix64(12)

    def summary(end):
        return end.scores() + [end.solo[0], end.buddies[0], end.solo[1], end.buddies[1]]

    fast, slow = [], []
    for _ in range(samples):
        end = start.clone()
        gd.playout(gd.params, capsule_pointer(end._state_capsule(), b"solvers.State"), ctypes.byref(rng),
                   seats)
        fast.append(summary(end))
        end = start.clone()
        play_move_by_move(gd, capsule_pointer(end._state_capsule(), b"solvers.State"), rng, seats, pick.below)
        slow.append(summary(end))
    for k in range(len(fast[0])):
        a = [row[k] for row in fast]
        b = [row[k] for row in slow]
        mean_a, mean_b = sum(a) / samples, sum(b) / samples
        var = sum((x - mean_a) ** 2 for x in a) / samples + sum((x - mean_b) ** 2 for x in b) / samples
        assert abs(mean_a - mean_b) <= 4.5 * (var / samples) ** 0.5 + 1e-9, (k, mean_a, mean_b)
    assert len({tuple(row) for row in fast}) > 10        # the playouts do vary
