"""Switchbacks rules, checked on the reference and on the kernel."""

import pytest

import solvers
from solvers.errors import IllegalActionError, SolversError
from solvers.games.switchbacks.data import load_map, parse_map
from solvers.games.switchbacks.position import expected_counts, load_position
from solvers.games.switchbacks.reference import Switchbacks

MAP = load_map()
IMPLS = ["reference", "kernel"]
SETUP = {2: (2, 16), 3: (1, 11), 4: (1, 8)}  # set-aside tiles and hikers per player


def game(impl, players=2):
    return solvers.load_game("switchbacks", players=players, reference=(impl == "reference"))


def dealt(impl, players=2, seed=0):
    state = game(impl, players).new_initial_state(seed=seed)
    state.apply_seeded_chance()
    return state


def position(players, tiles, hikers, waiting=None, safe=True):
    """A valid position dict holding ``tiles`` (hex -> tile) and ``hikers``
    ((hex, player, kind) triples), padded with filler tiles so that enough
    turns have passed for the hikers and the ``waiting`` buddy pairs
    (a list per player). With ``safe`` the fillers are never consecutive with
    each other or with the tiles given, so they cannot make or extend a path."""
    waiting = waiting or [0] * players
    g = Switchbacks(players)
    board = dict(tiles)
    used = set(board.values())
    fillers = []
    for t in range(1, g.num_tiles + 1):
        if not ({t - 1, t, t + 1} & (used | set(fillers))) or (not safe and t not in used):
            fillers.append(t)
    moves = list(waiting)
    for _, q, kind in hikers:
        moves[q] += 1 if kind == "solo" else 2
    free_hexes = [h for h in range(MAP.num_hexes) if h not in board]
    if MAP.centre not in board:
        board[MAP.centre] = fillers.pop(0)
        free_hexes.remove(MAP.centre)

    def turns_of(q, n):
        return n // players + (1 if q < n % players else 0)

    n = len(board) - 1
    while any(turns_of(q, n) < moves[q] for q in range(players)) or n % players:
        board[free_hexes.pop(0)] = fillers.pop(0)
        n += 1
    hands_n, stack_n = expected_counts(g, n, False)
    rest = [t for t in range(1, g.num_tiles + 1) if t not in board.values()]
    aside = [[rest.pop() for _ in range(g.set_aside_each)] for _ in range(players)]
    hands = [[rest.pop() for _ in range(k)] for k in hands_n]
    assert len(rest) == stack_n
    placed = [0] * players
    for _, q, kind in hikers:
        placed[q] += 1 if kind == "solo" else 2
    return {
        "players": players,
        "map": {str(h): t for h, t in board.items()},
        "hikers": [{"hex": h, "player": q, "kind": k} for h, q, k in hikers],
        "hands": hands,
        "set_aside": aside,
        "unplaced": [{"solo": g.hikers_each - placed[q] - 2 * waiting[q], "buddies": waiting[q]}
                     for q in range(players)],
        "stack": rest,
    }


def scores_of(players, tiles, hikers):
    pos = position(players, tiles, hikers)
    ref = load_position(pos, reference=True)
    ker = load_position(pos)
    assert ref.scores() == ker.scores()
    return ref.scores()


def assert_adjacent_chain(*hexes):
    for a, b in zip(hexes, hexes[1:]):
        assert MAP.adjacent(a, b), (a, b)


# --- the map -------------------------------------------------------------

def test_map_is_a_radius_three_hexagon():
    assert MAP.num_hexes == 37 and MAP.tiles == 37
    degree = sorted(bin(n).count("1") for n in MAP.neighbours)
    # 6 corners with 3 neighbours, 12 other rim hexes with 4, 19 inner hexes with 6
    assert degree == [3] * 6 + [4] * 12 + [6] * 19
    assert MAP.hexes[MAP.centre] == (0, 0)
    for a in range(MAP.num_hexes):
        for b in MAP.neighbour_ids(a):
            assert MAP.adjacent(b, a)


def test_map_file_is_checked():
    raw = MAP.to_json()
    raw["hexes"].append(raw["hexes"][0])
    with pytest.raises(SolversError, match="listed twice"):
        parse_map(raw)
    raw = MAP.to_json()
    raw["players"]["5"] = {"set_aside": 1, "hikers": 8}
    with pytest.raises(SolversError, match="player count"):
        parse_map(raw)
    raw = MAP.to_json()
    raw["tiles"] = 49  # shares evenly, but more tiles than hexes
    with pytest.raises(SolversError, match="hexes"):
        parse_map(raw)
    assert parse_map(MAP.to_json()).neighbours == MAP.neighbours


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [1, 5, "2"])
def test_player_count_is_checked(impl, players):
    with pytest.raises(SolversError, match="2, 3, 4 players"):
        game(impl, players)


# --- setup -----------------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_follows_the_table(impl, players):
    aside, hikers = SETUP[players]
    state = dealt(impl, players, seed=players)
    assert list(state.board) == [MAP.centre]
    assert [len(s) for s in state.set_aside] == [aside] * players
    assert [len(h) for h in state.hands] == [3] * players
    assert state.solo == [hikers] * players and state.buddies == [0] * players
    assert state.current_player() == 0 and state.step == "explore"
    everything = set(state.board.values()) | set(state.stack())
    for q in range(players):
        everything |= state.hands[q] | state.set_aside[q]
    assert everything == set(range(1, 38))
    assert len(state.stack()) == 37 - 1 - players * aside - 3 * players


@pytest.mark.parametrize("impl", IMPLS)
def test_setup_deals_one_tile_at_a_time_in_seat_order(impl):
    state = game(impl, 3).new_initial_state(seed=9)
    where = []
    while state.is_chance_node():
        before = (dict(state.board), [set(s) for s in state.set_aside], [set(h) for h in state.hands])
        tile = state.seeded_outcome() - state.game.DEAL_BASE + 1
        state.apply_action(state.seeded_outcome())
        if state.board != before[0]:
            where.append(("centre", -1))
        for q in range(3):
            if state.set_aside[q] != before[1][q]:
                where.append(("set_aside", q))
                assert state.set_aside[q] - before[1][q] == {tile}
            if state.hands[q] != before[2][q]:
                where.append(("hand", q))
    assert where == [("centre", -1)] + [("set_aside", q) for q in range(3)] + [
        ("hand", q) for _ in range(3) for q in range(3)]


@pytest.mark.parametrize("impl", IMPLS)
def test_explicit_and_seeded_outcomes_mix(impl):
    state = game(impl).new_initial_state(seed=4)
    g = state.game
    order = state.order
    top = state.seeded_outcome()
    chosen = g.deal_action(37) if top != g.deal_action(37) else g.deal_action(36)
    state.apply_action(chosen)
    assert state.board == {MAP.centre: chosen - g.DEAL_BASE + 1}
    i = order.index(chosen - g.DEAL_BASE + 1)
    order[0], order[i] = order[i], order[0]  # the chosen tile is swapped to the top
    assert state.order == order
    seen = {chosen}
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        assert state.seeded_outcome() in outcomes and not seen & set(outcomes)
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        seen.add(state.seeded_outcome())
        state.apply_action(state.seeded_outcome())


# --- a turn ---------------------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_explore_puts_a_hand_tile_on_any_empty_hex(impl):
    state = dealt(impl)
    hand = sorted(state.hands[0])
    empty = [h for h in range(37) if h != MAP.centre]
    assert state.legal_actions() == [(t - 1) * 37 + h for t in hand for h in empty]
    far = 0  # a corner, not touching the centre tile
    state.apply_action(state.string_to_action(f"explore {hand[1]} on hex {far}"))
    assert state.board[far] == hand[1] and hand[1] not in state.hands[0]
    assert state.just_explored == far and state.step == "hike"
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["buddy up", "hike solo"]


@pytest.mark.parametrize("impl", IMPLS)
def test_hike_places_only_on_the_tile_just_explored(impl):
    state = dealt(impl)
    state.apply_action(state.legal_actions()[0])
    here = state.just_explored
    state.apply_action(state.string_to_action("hike solo"))
    assert state.hikers == {here: (0, 1)} and state.solo[0] == 15
    assert state.is_chance_node() and state.just_explored == here
    with pytest.raises(IllegalActionError):
        state.apply_action(state.game.HIKE_SOLO)


@pytest.mark.parametrize("impl", IMPLS)
def test_buddies_are_placed_only_after_pairing_up(impl):
    state = dealt(impl)
    g = state.game
    state.apply_action(state.legal_actions()[0])
    assert g.HIKE_BUDDIES not in state.legal_actions()
    first = state.just_explored
    state.apply_action(g.BUDDY_UP)
    assert state.solo[0] == 14 and state.buddies[0] == 1 and state.hikers == {}
    state.apply_seeded_chance()
    state.apply_action(state.legal_actions()[0])  # player 1
    state.apply_action(g.HIKE_SOLO)
    state.apply_seeded_chance()
    state.apply_action(state.legal_actions()[-1])  # player 0 again
    assert state.legal_actions() == [g.BUDDY_UP, g.HIKE_SOLO, g.HIKE_BUDDIES]
    state.apply_action(g.HIKE_BUDDIES)
    assert state.hikers[state.just_explored] == (0, 2) and first not in state.hikers
    assert state.buddies[0] == 0 and state.solo[0] == 14


@pytest.mark.parametrize("impl", IMPLS)
def test_several_pairs_may_wait(impl):
    # The rules limit a buddy-up to two hikers, not the number of waiting pairs.
    state = dealt(impl)
    g = state.game
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
        state.apply_action(g.BUDDY_UP)
        state.apply_seeded_chance()
        state.apply_action(state.legal_actions()[0])
        state.apply_action(g.HIKE_SOLO)
        state.apply_seeded_chance()
    assert state.buddies[0] == 2 and state.solo[0] == 12


def hike_position(solo, buddies):
    """Player 0 to explore, holding ``solo`` solo hikers and ``buddies`` pairs
    (the rest of their 16 hikers on earlier tiles)."""
    on_map = 16 - solo - 2 * buddies
    tiles, hikers, hexes = {}, [], [h for h in range(37) if h != MAP.centre]
    t = 1
    while on_map > 0:
        h = hexes.pop(0)
        kind = "buddies" if on_map >= 2 else "solo"
        tiles[h] = t
        hikers.append((h, 0, kind))
        on_map -= 2 if kind == "buddies" else 1
        t += 1
    return position(2, tiles, hikers, waiting=[buddies, 0], safe=False)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("solo,buddies,options", [
    (16, 0, ["buddy up", "hike solo"]),
    (2, 1, ["buddy up", "hike solo", "hike buddies"]),
    (1, 1, ["hike solo", "hike buddies"]),
    (3, 2, ["buddy up", "hike solo", "hike buddies"]),
])
def test_hike_choices(impl, solo, buddies, options):
    state = load_position(hike_position(solo, buddies), reference=(impl == "reference"))
    state.apply_action(state.legal_actions()[0])
    assert [state.action_to_string(a) for a in state.legal_actions()] == options


def few_hikers_game(impl, hikers=3):
    """A 2-player game on a map file giving each player only ``hikers`` hikers."""
    raw = MAP.to_json()
    raw["players"]["2"]["hikers"] = hikers
    return solvers.load_game("switchbacks", players=2, reference=(impl == "reference"),
                             map=parse_map(raw, "few hikers"))


def play_turn(state, choice=None):
    """Player to move explores their lowest tile on the first empty hex, then
    makes ``choice`` if a choice is left to make. Returns the hex explored."""
    state.apply_seeded_chance()
    action = state.legal_actions()[0]
    state.apply_action(action)
    if choice is not None:
        state.apply_action(state.string_to_action(choice))
    state.apply_seeded_chance()
    return action % 37


@pytest.mark.parametrize("impl", IMPLS)
def test_forced_hikes_are_played_automatically(impl):
    state = few_hikers_game(impl).new_initial_state(seed=2)
    g = state.game
    play_turn(state, "buddy up")        # player 0: 1 solo hiker, 1 pair
    play_turn(state, "hike solo")       # player 1: 2 solo hikers
    here = play_turn(state, "hike solo")  # player 0: a pair only
    assert state.hikers[here] == (0, 1)
    play_turn(state, "hike solo")       # player 1: 1 solo hiker
    length = len(state.history)
    here = play_turn(state)             # player 0 must place the pair
    assert len(state.history) == length + 2  # the explore and the draw, nothing else
    assert state.hikers[here] == (0, 2) and state.buddies[0] == 0
    here = play_turn(state)             # player 1 must place the last solo hiker
    assert state.hikers[here] == (1, 1) and state.solo[1] == 0
    assert state.history.count(g.BUDDY_UP) == 1
    here = play_turn(state)             # player 0 has nothing left: no hike step at all
    assert here not in state.hikers and state.current_player() == 1
    assert sum(c for o, c in state.hikers.values() if o == 0) == 3


# --- drawing and the end -------------------------------------------------

@pytest.mark.parametrize("impl", IMPLS)
def test_draw_goes_to_the_player_and_only_they_see_it(impl):
    state = dealt(impl)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.game.HIKE_SOLO)
    other_view = state.information_state(1)
    tile = state.seeded_outcome() - state.game.DEAL_BASE + 1
    assert state.action_to_string(state.seeded_outcome()) == f"player 0 draws {tile}"
    state.apply_action(state.seeded_outcome())
    assert tile in state.hands[0] and len(state.hands[0]) == 3
    assert tile in state.information_state(0)["hand"]
    view = state.information_state(1)
    assert tile not in view["hand"]
    assert view["hand"] == other_view["hand"] and view["hand_sizes"] == [3, 3]
    assert state.current_player() == 1


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_ends_when_every_hand_is_empty(impl, players):
    state = game(impl, players).new_initial_state(seed=11)
    explores = [0] * players
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        if state.step == "explore":
            explores[state.current_player()] += 1
            assert state.hands[state.current_player()]
        state.apply_action(state.legal_actions()[-1])
    aside, hikers = SETUP[players]
    assert explores == [(37 - 1 - players * aside) // players] * players
    assert len(state.board) == 37 - players * aside
    assert all(not h for h in state.hands) and state.stack() == []
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.legal_actions() == [] and state.current_player() == solvers.TERMINAL


@pytest.mark.parametrize("impl", IMPLS)
def test_returns_are_win_shares(impl):
    tiles = {0: 1, 1: 2, 2: 3, 3: 4, 9: 30, 10: 31, 11: 32, 12: 33}
    hikers = [(0, 0, "solo"), (1, 0, "solo"), (9, 1, "solo")]
    pos = position(2, tiles, hikers)
    # play it to the end with moves that cannot make a path (a fresh corner each time)
    state = load_position(pos, reference=(impl == "reference"))
    assert state.scores() == [2, 1]
    while not state.is_terminal():
        state.apply_seeded_chance()
        if state.is_terminal():
            break
        if state.step == "hike":
            state.apply_action(state.game.BUDDY_UP if state.game.BUDDY_UP in state.legal_actions()
                               else state.legal_actions()[0])
            continue
        state.apply_action(state.legal_actions()[0])
    scores = state.scores()
    best = max(scores)
    winners = [q for q in range(2) if scores[q] == best]
    assert state.returns() == [1 / len(winners) if q in winners else 0.0 for q in range(2)]


# --- scoring: the rulebook's examples built as positions -----------------

def test_a_path_of_four_consecutive_tiles_scores_its_hikers():
    hexes = (9, 10, 5, 6)
    assert_adjacent_chain(*hexes)
    tiles = dict(zip(hexes, (12, 13, 14, 15)))
    hikers = [(h, 0, "solo") for h in hexes]
    assert scores_of(2, tiles, hikers) == [4, 0]


def test_three_tiles_are_not_a_path_until_the_fourth_joins():
    hexes = (9, 10, 5, 6)
    tiles = dict(zip(hexes[:3], (12, 13, 14)))
    hikers = [(h, 0, "solo") for h in hexes[:3]]
    assert scores_of(2, tiles, hikers) == [0, 0]
    tiles[6] = 15
    assert scores_of(2, tiles, hikers) == [3, 0]


def test_neighbours_that_are_not_consecutive_score_nothing():
    assert MAP.adjacent(22, 23)
    tiles = {22: 19, 23: 4}
    hikers = [(22, 1, "solo"), (23, 1, "buddies")]
    assert scores_of(2, tiles, hikers) == [0, 0]


def test_a_broken_run_scores_nothing():
    assert_adjacent_chain(28, 29)
    assert_adjacent_chain(35, 36)
    assert not MAP.adjacent(29, 35)
    tiles = {28: 23, 29: 24, 35: 25, 36: 26}
    hikers = [(h, 2, "solo") for h in tiles]
    assert scores_of(3, tiles, hikers) == [0, 0, 0]


def test_a_shared_path_scores_for_both_players():
    hexes = (1, 2, 3, 8)
    assert_adjacent_chain(*hexes)
    tiles = dict(zip(hexes, (30, 31, 32, 33)))
    hikers = [(1, 0, "solo"), (2, 0, "solo"), (3, 1, "solo"), (8, 1, "solo")]
    assert scores_of(2, tiles, hikers) == [2, 2]


def test_buddies_score_two_and_a_long_path_scores_everywhere():
    assert_adjacent_chain(15, 16, 17, 24, 23, 22)
    tiles = {15: 5, 16: 6, 17: 7, 24: 8, 23: 9, 22: 10}
    hikers = [(15, 0, "buddies"), (22, 1, "solo"), (24, 3, "buddies")]
    assert scores_of(4, tiles, hikers) == [2, 1, 0, 2]


def test_consecutive_tiles_apart_score_nothing():
    tiles = {0: 12, 3: 13, 33: 14, 36: 15}
    hikers = [(h, 0, "solo") for h in tiles]
    assert scores_of(2, tiles, hikers) == [0, 0]


def test_the_centre_tile_can_be_part_of_a_path():
    assert_adjacent_chain(16, 17, MAP.centre, 19)
    tiles = {16: 20, 17: 21, MAP.centre: 22, 19: 23}
    hikers = [(16, 0, "solo"), (19, 1, "solo")]
    assert scores_of(2, tiles, hikers) == [1, 1]
