"""Santa Cruz rules on hand-built positions (docs/rules/santa-cruz.md).

Expected answers come from the island's geometry and the rules in words,
computed here, not from the implementation."""

import random

import pytest

from solvers.errors import IllegalActionError
from solvers.games.santacruz.data import load_island
from solvers.games.santacruz.reference import SantaCruz

ISLAND = load_island()
COAST = {i for i, s in enumerate(ISLAND.sites) if s.kind == "coast"}
WEST, EAST, SOUTH = (list(r.sites) for r in ISLAND.rivers)
# plain tiles per kind (a house, no resource, no bird) and some special ones
PLAIN = {"coast": 24, "land": 43, "volcano": 53}
CARD = {c.name: i for i, c in enumerate(ISLAND.scoring_cards)}


def tile(building, kind, resource=None, bonus=0, bird=False):
    """The id of a tile with exactly these features (the island has one)."""
    for t, x in enumerate(ISLAND.tiles):
        if (x.building, x.kind, x.resource, x.fish_bonus, x.bird) == (building, kind, resource, bonus, bird):
            return t
    raise LookupError((building, kind, resource, bonus, bird))


def blank(players=2, player=1):
    """A round-one position at the play step: plain tiles everywhere (coast
    face up, the rest face down), no buildings, every hand empty; seat
    ``player`` to move. With 2 players seat 1 starts, so seat 0 is last and
    holds the sharing privilege."""
    g = SantaCruz(players)
    st = g.new_initial_state(seed=0)
    while st.step != "land":
        st.apply_action(st.seeded_outcome() if st.is_chance_node() else st.legal_actions()[0])
    st.site_tile = [PLAIN[s.kind] for s in ISLAND.sites]
    st.face_up = sum(1 << s for s in COAST)
    st.hand_build = [dict(ship=0, road=0, river=0, double=0) for _ in range(players)]
    st.hand_score = [set() for _ in range(players)]
    st.step, st.player = "play", player
    st.score = [0] * players
    st.arrival = list(range(players))
    st.clock = players
    return st


def put(st, seat, *sites):
    for s in sites:
        st.occupants[s].append(seat)
        st.supply[seat][ISLAND.tiles[st.site_tile[s]].building] -= 1
        st.face_up |= 1 << s


def give(st, seat, **cards):
    for k, v in cards.items():
        st.hand_build[seat][k] += v


def sites(actions):
    return set(a for a in actions if a < ISLAND.num_sites)


def play(st, text):
    st.apply_action(st.string_to_action(text))


# ----- where each card builds ------------------------------------------------
def test_ship_reaches_every_free_coastal_site_with_a_building_left():
    st = blank()
    put(st, 0, 0)
    put(st, 1, 1)
    give(st, 1, ship=1, road=1)      # keep a card so the round goes on
    play(st, "play ship")
    assert st.step == "build" and sites(st.legal_actions()) == COAST - {0, 1}
    # without houses, only the coastal sites asking for something else
    st2 = blank()
    give(st2, 1, ship=1, road=1)
    lighthouse = tile("lighthouse", "coast")
    st2.site_tile[11] = lighthouse
    st2.supply[1]["house"] = 0
    play(st2, "play ship")
    assert sites(st2.legal_actions()) == {11}


def test_road_reaches_only_face_up_sites_joined_to_own_buildings():
    st = blank()
    put(st, 1, 14)                      # land, on the West river
    put(st, 0, 13)                      # the opponent's building next to it
    for s in ISLAND.road_neighbours(14):
        st.face_up |= 1 << s
    give(st, 1, road=1, ship=1)
    play(st, "play road")
    want = set(ISLAND.road_neighbours(14)) - {13}
    assert sites(st.legal_actions()) == want and want == {5, 23}
    # a face-down neighbour cannot be reached by road
    st2 = blank()
    put(st2, 1, 14)
    st2.face_up &= ~(1 << 23)
    give(st2, 1, road=1, ship=1)
    play(st2, "play road")
    assert sites(st2.legal_actions()) == {5, 13}   # both coastal, 23 face down


def test_river_reaches_any_free_site_of_a_river_with_an_own_building_even_face_down():
    st = blank()
    put(st, 1, 14)                      # West river
    give(st, 1, river=1, ship=1)
    play(st, "play river")
    assert sites(st.legal_actions()) == set(WEST) - {14}
    assert not st.face_up >> 16 & 1     # the volcano source is still face down
    # no building on a river: a river card reaches nothing and is spent
    st2 = blank()
    put(st2, 1, 0)
    give(st2, 1, river=1, ship=1)
    play(st2, "play river")
    assert st2.step == "play" and st2.player == 0 and st2.hand_build[1]["river"] == 0


def test_building_scores_reveals_and_draws_a_bird():
    st = blank()
    put(st, 1, 14)
    bird_church = tile("church", "land", "wood", bird=True)   # 2 points
    st.site_tile[15] = bird_church
    give(st, 1, river=1, ship=1)
    play(st, "play river")
    st.apply_action(15)
    assert st.occupants[15] == [1] and st.score[1] == 2 and st.supply[1]["church"] == 2
    assert st.step == "bird" and st.is_chance_node()
    joined = set(ISLAND.road_neighbours(15)) | set(ISLAND.river_neighbours(15))
    assert all(st.face_up >> s & 1 for s in joined | {15})
    st.apply_action(st.seeded_outcome())
    assert len(st.birds[1]) == 1 and st.step == "play" and st.player == 0


def test_double_move_builds_twice_and_the_second_may_use_the_first():
    st = blank()
    put(st, 1, 0)                       # coast; road to 6 only
    st.face_up |= 1 << 6
    give(st, 1, double=1, ship=1)
    play(st, "play double road")
    assert sites(st.legal_actions()) == {6}
    st.apply_action(6)
    assert st.step == "build"
    assert sites(st.legal_actions()) == {s for s in ISLAND.road_neighbours(6) if s != 0}
    st.apply_action(7)
    assert st.step == "play" and st.player == 0 and st.hand_build[1]["double"] == 0


def test_a_double_move_with_no_target_ends_at_once():
    st = blank()
    give(st, 1, double=1, ship=1)
    play(st, "play double road")        # no buildings: a road reaches nothing
    assert st.step == "play" and st.player == 0 and st.hand_build[1]["double"] == 0


def test_a_failed_build_ends_the_card():
    st = blank()
    put(st, 1, 14)
    st.supply[1]["church"] = 0
    st.site_tile[15] = tile("church", "land", "sheep")          # face down
    give(st, 1, river=1, ship=1)
    play(st, "play river")
    st.apply_action(15)                 # turned over: a church, none left
    assert st.face_up >> 15 & 1 and st.occupants[15] == [] and st.score[1] == 0
    assert st.step == "play" and st.player == 0


def test_the_two_river_exception():
    st = blank()
    put(st, 1, 14)
    st.supply[1]["church"] = 0
    st.site_tile[15] = tile("church", "land", "sheep")
    give(st, 1, double=1, ship=1)
    play(st, "play double river")
    st.apply_action(15)                 # the first build fails ...
    assert st.occupants[15] == [] and st.step == "build" and st.player == 1
    assert sites(st.legal_actions()) == set(WEST) - {14, 15}
    st.apply_action(22)                 # ... and the second is still made
    assert st.occupants[22] == [1]


# ----- sharing ---------------------------------------------------------------
def test_sharing_once_per_round_for_the_last_player_never_with_oneself():
    st = blank()
    assert st.start == 1 and st.last_seat() == 0
    put(st, 1, 0, 1, 2)
    put(st, 0, 3)
    give(st, 0, ship=3)
    give(st, 1, ship=3)
    st.player = 1
    play(st, "play ship")               # seat 1 is not last: no sharing
    assert not sites(st.legal_actions()) & {0, 1, 2, 3}
    st.apply_action(4)
    play(st, "play ship")               # seat 0 may join seat 1, not itself
    assert {0, 1, 2, 4} <= sites(st.legal_actions()) and 3 not in st.legal_actions()
    st.apply_action(1)
    assert st.occupants[1] == [1, 0] and st.privilege_used
    play(st, "play ship")               # seat 1
    st.apply_action(5)
    play(st, "play ship")               # seat 0: the privilege is spent for the round
    assert not sites(st.legal_actions()) & {0, 1, 2, 3, 4}


def test_sharing_at_landing():
    g = SantaCruz(2)
    st = g.new_initial_state(seed=4)
    while st.step != "land":
        st.apply_action(st.seeded_outcome() if st.is_chance_node() else st.legal_actions()[0])
    assert st.player == 1
    st.apply_action(min(s for s in COAST if ISLAND.tiles[st.site_tile[s]].building == "house"))
    st.apply_seeded_chance()
    first = next(s for s, o in enumerate(st.occupants) if o)
    assert st.player == 0 and first in st.legal_actions()
    st.apply_action(first)
    assert st.occupants[first] == [1, 0] and st.privilege_used


# ----- scoring cards ---------------------------------------------------------
def scored(st, card, seat=1):
    st.hand_score[seat].add(CARD[card])
    give(st, seat, ship=1)
    before = list(st.score)
    st.player = seat
    play(st, f"score {card}")
    return [a - b for a, b in zip(st.score, before)]


def test_four_houses_variety_street():
    st = blank()
    put(st, 1, 0, 1, 2, 3)              # four coastal houses
    put(st, 0, 11, 12, 20)              # three houses on the west island
    assert scored(st, "4 houses") == [0, 6]
    st = blank()
    st.site_tile[0] = tile("lighthouse", "coast")
    st.site_tile[6] = tile("church", "land", "sheep")
    put(st, 1, 0, 6, 7)                 # lighthouse, church, house
    put(st, 0, 1, 2)
    assert scored(st, "Variety") == [0, 6]
    st = blank()
    put(st, 1, 6, 0, 1, 5)              # 6 joined by roads to 0, 1 and 5: a branch
    put(st, 0, 11, 12, 20, 29)          # three on the west island, one in the east
    assert scored(st, "Street") == [0, 6]
    st = blank()
    put(st, 1, 0, 6, 2, 4)              # 0-6 joined, 2 and 4 apart
    assert scored(st, "Street") == [0, 0]


def test_coast_river_volcano_birds():
    st = blank()
    put(st, 1, 21, 14, 16)              # river mouth (coast), river land, river volcano
    put(st, 0, 0, 25)
    assert scored(st, "Coast") == [3, 3]
    assert scored(st, "River") == [3, 9]
    assert scored(st, "Volcano") == [3, 3]
    st.birds = [[3, 3, 1], [1]]
    assert scored(st, "Birds") == [6, 2]


def test_resource_cards_pair_cards_and_the_fish_bonus():
    st = blank()
    st.site_tile[0] = tile("lighthouse", "coast", "fish", 2)
    st.site_tile[1] = tile("house", "coast", "fish", 1)
    st.site_tile[2] = tile("house", "coast", "sheep")
    st.site_tile[3] = tile("house", "coast", "fish")
    st.site_tile[4] = tile("house", "coast", "wood", bird=True)
    put(st, 1, 0, 1, 2)                 # fish (+2, +1) and sheep
    put(st, 0, 3)                       # fish, no bonus
    assert scored(st, "Fish") == [4, 4 + 3]
    assert scored(st, "Sheep") == [0, 4]
    assert scored(st, "Sheep + fish") == [3, 7 + 3]
    assert scored(st, "Sugar + wood") == [0, 0]
    put(st, 0, 4)
    assert scored(st, "Sugar + wood") == [3, 0]
    assert scored(st, "Gold + sheep") == [0, 3]


def test_the_eruption():
    st = blank()
    put(st, 1, 16, 25, 0)               # two volcano buildings
    put(st, 0, 34)
    st.score = [10, 20]
    delta = scored(st, "Volcano eruption")
    assert delta == [-2, -4]
    assert all(not st.occupants[s] for s in (16, 25, 34)) and st.occupants[0] == [1]
    assert st.supply[1]["house"] == 8 - 3  # destroyed buildings stay out of the supply
    # the volcano site is free again at once
    st2 = blank()
    put(st2, 1, 26)                        # East river; its source 25 is a volcano site
    put(st2, 0, 25)
    st2.hand_score[0].add(CARD["Volcano eruption"])
    give(st2, 0, ship=1)
    give(st2, 1, river=1, ship=1)
    st2.player = 0
    play(st2, "score Volcano eruption")
    play(st2, "play river")
    assert 25 in st2.legal_actions()


def test_the_track_keeps_arrival_order_also_backwards():
    st = blank()
    put(st, 1, 16)                      # seat 1 loses 2 in the eruption
    st.score = [10, 12]
    st.arrival = [5, 6]
    st.clock = 7
    scored(st, "Volcano eruption", seat=0)
    assert st.score == [10, 10] and st.ranking() == [0, 1]   # 1 joined behind 0
    st = blank()
    put(st, 0, 16)
    st.score = [12, 10]
    st.arrival = [5, 6]
    st.clock = 7
    scored(st, "Volcano eruption", seat=1)
    assert st.score == [10, 10] and st.ranking() == [1, 0]
    # past 49: scores keep counting; only equal scores are ordered by arrival
    st = blank()
    put(st, 0, 0, 1)
    put(st, 1, 2, 3)
    st.score = [48, 49]
    scored(st, "Coast", seat=1)         # seat 1 moves first: 55, then seat 0: 54
    assert st.score == [54, 55]
    st.score = [49, 49]
    scored(st, "Coast", seat=0)
    assert st.score == [55, 55] and st.ranking() == [0, 1]


def test_the_marker_of_the_player_who_plays_moves_first():
    st = blank(players=3, player=0)
    for q, s in enumerate((0, 1, 2)):
        put(st, q, s)
    st.score = [0, 0, 0]
    scored(st, "Coast", seat=2)
    assert st.ranking() == [2, 0, 1]


# ----- rounds, set choice and the end ---------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_one_set_choice_order_and_starting_points(players):
    g = SantaCruz(players)
    st = g.new_initial_state(seed=1)
    st.apply_seeded_chance()
    choosers = []
    while st.step == "choose":
        choosers.append(st.player)
        st.apply_action(st.legal_actions()[-1])
    want = [0] + list(range(players - 1, 0, -1))
    assert choosers == want[: len(choosers)] and len(choosers) >= players - 1
    assert st.step == "land" and st.player == 1
    assert [st.score[(1 + i) % players] for i in range(players)] == list(range(players))
    assert all(len(h) == {2: 4, 3: 3, 4: 2}[players] for h in st.hand_score)


def to_round_two(players, seed):
    g = SantaCruz(players)
    st = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while st.round == 1:
        st.apply_action(st.seeded_outcome() if st.is_chance_node() else rng.choice(st.legal_actions()))
    return st, rng


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_two_draw_choice_order_and_discard(players):
    st, rng = to_round_two(players, seed=players)
    assert st.step == "draw" and all(not o for o in st.occupants)
    assert all(s == ISLAND.supply for s in st.supply)
    used = {k: list(v) for k, v in st.set_scoring.items()}
    assert len(used) == players
    for q in range(players):
        assert st.player == q and st.is_chance_node()
        st.apply_action(st.seeded_outcome())
    # the furthest behind chooses first: lowest score, at equal scores the later arrival
    behind_first = sorted(range(players), key=lambda q: (st.score[q], -st.arrival[q]))
    choosers = []
    while st.step == "choose":
        choosers.append(st.player)
        assert set(st.free_sets()) <= set(used)
        k = rng.choice(st.free_sets())
        st.apply_action(st.game.SET + k)
        assert st.hand_score[choosers[-1]] == set(used[k])
    assert choosers == behind_first[:players - 1]          # the leader takes the last set
    assert sorted(st.set_of) == sorted(used)
    for q in behind_first:
        assert st.step == "discard" and st.player == q
        hand = st.hand_score[q] | {st.drawn[q]}
        assert set(a - st.game.DISCARD for a in st.legal_actions()) == hand
        out = st.drawn[q] if q == behind_first[0] else min(hand)   # the new card may go
        st.apply_action(st.game.DISCARD + out)
        assert st.hand_score[q] == hand - {out}
    assert st.step == "land" and st.player == behind_first[0] and st.start == behind_first[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_final_bird_scoring(players):
    st, rng = to_round_two(players, seed=10 + players)
    while True:
        if st.is_chance_node():
            st.apply_action(st.seeded_outcome())
            continue
        last = st.last_seat()
        if st.step == "play" and st.player == last and \
                len(st.hand_score[last]) + sum(st.hand_build[last].values()) == 1 and \
                all(not st.hand_score[q] and not any(st.hand_build[q].values())
                    for q in range(players) if q != last):
            break
        st.apply_action(rng.choice(st.legal_actions()))
    # replace the last card by one that scores nothing, then watch the birds
    st.hand_build[last] = dict(ship=0, road=0, river=0, double=0)
    st.hand_score[last] = {CARD["Volcano eruption"]}
    for s in range(ISLAND.num_sites):
        if ISLAND.sites[s].kind == "volcano":
            st.occupants[s] = []
    st.birds = [[3, 1][: q % 3] + [2] * (q == 0) for q in range(players)]
    before = list(st.score)
    st.apply_action(st.game.PLAY_SCORE + CARD["Volcano eruption"])
    assert st.is_terminal()
    assert st.score == [b + sum(x) for b, x in zip(before, st.birds)]
    movers = [(last + i) % players for i in range(players) if st.birds[(last + i) % players]]
    assert sorted(movers, key=lambda q: st.arrival[q]) == movers
    best = max(range(players), key=lambda q: (st.score[q], -st.arrival[q]))
    assert st.returns()[best] == 1.0 and sum(st.returns()) == 1.0


# ----- hidden information ----------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_information_states_leak_nothing_hidden(players):
    g = SantaCruz(players)
    changed = 0
    for seed in range(3):
        st = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        k = 0
        while not st.is_terminal():
            if k % 5 == 0:
                for q in range(players):
                    other = st.resample(q, seed * 1000 + k)
                    assert other.information_state(q) == st.information_state(q)
                    assert other.legal_actions() == st.legal_actions() or st.current_player() != q
                    hidden = (other.site_tile, other.birds, other.hand_score, other.deck, other.drawn)
                    changed += hidden != (st.site_tile, st.birds, st.hand_score, st.deck, st.drawn)
            a = st.seeded_outcome() if st.is_chance_node() else rng.choice(st.legal_actions())
            for q in range(players):
                seen = st.action_observation(a, q)
                if seen not in (a, -2):
                    # a double move with nothing to build: seen as another
                    # double move that leaves the very same position
                    assert g.PLAY_DOUBLE <= min(a, seen) and max(a, seen) < g.PLAY_SCORE
                    left, shown = st.clone(), st.clone()
                    left.apply_action(a)
                    shown.apply_action(seen)
                    assert left.information_state(q) == shown.information_state(q)
            st.apply_action(a)
            k += 1
    assert changed > 100        # the re-deal does change what is hidden


def test_what_a_seat_sees_of_chance():
    g = SantaCruz(2)
    st = g.new_initial_state(seed=2)
    seen = {0: [], 1: []}
    while st.is_chance_node():
        a = st.seeded_outcome()
        for q in (0, 1):
            seen[q].append(st.action_observation(a, q))
        st.apply_action(a)
    coast_laid = len(COAST)
    for q in (0, 1):
        tiles = seen[q][: ISLAND.num_sites]
        assert sum(x != -2 for x in tiles) == coast_laid
        cards = seen[q][ISLAND.num_sites:]
        assert sum(x != -2 for x in cards) == 4 and len(cards) == 8
    info = st.information_state(0)
    assert set(info["tiles"]) == {str(s) for s in COAST}
    assert info["hand"] == sorted(st.hand_score[0]) and info["hand_sizes"] == [4, 4]


def test_illegal_moves_leave_the_state_alone():
    st = blank()
    give(st, 1, ship=1)
    before = st.information_state(1)
    for bad in (-1, 10_000, st.game.PLAY_ROAD, "ship", True):
        with pytest.raises(IllegalActionError):
            st.apply_action(bad)
    assert st.information_state(1) == before
