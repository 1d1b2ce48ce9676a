"""Big Sur rules on the reference (docs/rules/big-sur.md), checked against
hand-computed cases and naive independent re-implementations."""

import random
from collections import Counter

import pytest

from solvers.errors import IllegalActionError, SolversError
from solvers.games.bigsur.data import MATERIALS, HighwayCard, Landmark, Bonus, load_cards
from solvers.games.bigsur.highway import load_highway, parse_highway
from solvers.games.bigsur.reference import FINISH, HIDDEN, BigSur, enumerate_payments
from solvers.games.bigsur.scoring import Spot, find_stretches, score, score_highway

CARDS = load_cards()
EXAMPLE = "examples/bigsur/rulebook-highway.json"


def spot(a, b, miles, landmark=None, claimed=None):
    return Spot(HighwayCard(0, (a, b), miles, ("stone", "stone"), "stone", (4,)), landmark, claimed)


def stretches(road):
    return sorted((s.scenery, s.first, s.last, s.miles) for s in find_stretches(road))


# ----- the rulebook's Stretch examples ------------------------------------------------
def test_three_icons_over_two_cards_with_a_double_icon():
    road = [spot("ocean", "ocean", 4), spot("ocean", "forest", 2)]
    assert stretches(road) == [("ocean", 0, 1, 6)]


def test_four_icon_stretch_of_eight_miles():
    road = [spot("field", "ocean", 2), spot("field", "forest", 2),
            spot("mountain", "field", 3), spot("field", "flower", 1)]
    assert stretches(road) == [("field", 0, 3, 8)]


def test_two_icons_and_one_icon_are_no_stretch():
    road = [spot("ocean", "forest", 3), spot("ocean", "field", 2), spot("flower", "mountain", 4)]
    assert stretches(road) == []
    assert score(road) == 0


def test_runs_of_one_type_separated_by_another_are_separate_stretches():
    road = [spot("ocean", "ocean", 1), spot("ocean", "field", 2), spot("forest", "field", 3),
            spot("ocean", "forest", 4), spot("ocean", "ocean", 1)]
    # Ocean 1+2 | Forest 3+4 (2 icons only) | Ocean 4+1; Field 2+3 has 2 icons.
    assert stretches(road) == [("ocean", 0, 1, 3), ("ocean", 3, 4, 5)]
    assert score(road) == 8


def test_example_scoring_totals_30():
    b = score_highway(load_highway(EXAMPLE))
    assert sorted((s.scenery, s.miles) for s in b.stretches) == [
        ("field", 6), ("mountain", 7), ("ocean", 6)]
    assert [p for _, _, p in b.bonuses] == [4]
    assert (b.landmarks, b.landmark_count_points, [p for _, _, p in b.abilities]) == (1, 3, [4])
    assert b.total == 30


def test_mile_tag_change_lengthens_every_stretch_the_card_is_in():
    plus2 = Landmark(1, "x", ("field",), Bonus("mile_tag", (("miles", 2),), ""))
    road = [spot("field", "ocean", 1), spot("field", "ocean", 1, plus2, "field"),
            spot("field", "ocean", 1)]
    # Field and Ocean both 1+3+1 = 5; one Landmark scores 3.
    assert stretches(road) == [("field", 0, 2, 5), ("ocean", 0, 2, 5)]
    assert score(road) == 13


def test_landmark_count_table():
    points = Landmark(1, "x", ("ocean",), Bonus("points", (("points", 1),), ""))
    for count, table in [(1, 3), (2, 3), (3, 5), (4, 5), (5, 8), (6, 8)]:
        road = [spot("ocean", "ocean", 1, points if i < count else None, "ocean") for i in range(6)]
        # One Ocean Stretch of 6 miles, each Landmark's ability 1.
        assert score(road) == 6 + table + count


# ----- the score file -------------------------------------------------------------------
def test_highway_file_errors_are_one_line(tmp_path):
    def bad(data):
        with pytest.raises(SolversError) as e:
            parse_highway(data, source="h.json")
        assert "\n" not in str(e.value)
        return str(e.value)

    assert "no Highway card 99" in bad({"highway": [99]})
    assert "already card 1" in bad({"highway": [5, 5]})
    assert "not in" in bad({"highway": [{"scenery": ["ocean", "field"], "miles": 2,
                                         "landmark": "Point Sur Lighthouse"}]})
    lone = {"scenery": ["ocean", "ocean"], "miles": 1}
    # One Ocean Stretch cannot hold two Landmarks.
    assert "of its own" in bad({"highway": [
        dict(lone, landmark="Point Sur Lighthouse"), dict(lone, landmark="Sand Dollar Beach")]})
    assert "not a Scenery" in bad({"highway": [{"scenery": ["sea", "ocean"], "miles": 1}]})
    assert "unknown Landmark" in bad({"highway": [dict(lone, landmark="Golden Gate")]})
    assert "JSON object" in bad([1, 2])


def test_overlapping_stretches_may_each_claim_in_a_file():
    road = {"highway": [{"scenery": ["ocean", "field"], "miles": 1},
                        {"scenery": ["ocean", "field"], "miles": 1, "landmark": "Point Sur Lighthouse"},
                        {"scenery": ["ocean", "field"], "miles": 1, "landmark": "Carmel Mission"}]}
    spots = parse_highway(road)
    assert [s.claimed for s in spots] == [None, "ocean", "field"]


# ----- payments ---------------------------------------------------------------------------
def naive_payments(cost, hand, persistent, recycle_top):
    """Every exact payment by playing out every order of supplies, one
    Material at a time, as a player at the table would."""
    found = set()

    def go(need, left, pers, recycle_ok, top, discards, used_p, recycled):
        if not need:
            counts = tuple(used_p.get(m, 0) for m in MATERIALS)
            found.add((tuple(sorted(discards)), counts, int(recycled)))
            return
        for m in set(need):
            rest = list(need)
            rest.remove(m)
            for c in left:
                if hand[c] == m:
                    go(rest, left - {c}, pers, recycle_ok, m, discards + [c], used_p, recycled)
            for trio in _trios(sorted(left)):
                for last in trio:  # the player orders the three; any may end on top
                    go(rest, left - set(trio), pers, recycle_ok, hand[last], discards + list(trio),
                       used_p, recycled)
            if pers.get(m, 0) > used_p.get(m, 0):
                go(rest, left, pers, recycle_ok, top, discards, used_p + Counter([m]), recycled)
            if recycle_ok and top == m:
                go(rest, left, pers, False, top, discards, used_p, True)

    go(list(cost), frozenset(hand), persistent, recycle_top is not None, recycle_top or None,
       [], Counter(), False)
    return sorted(found)


def _trios(cards):
    from itertools import combinations
    return list(combinations(cards, 3))


@pytest.mark.parametrize("seed", range(40))
def test_payments_match_a_naive_search(seed):
    r = random.Random(seed)
    cost = tuple(sorted(r.choice(MATERIALS) for _ in range(r.choice([2, 3]))))
    hand = {c: r.choice(MATERIALS) for c in r.sample(range(1, 70), r.randint(0, 7))}
    persistent = Counter(r.choice(MATERIALS) for _ in range(r.randint(0, 3)))
    recycle_top = r.choice([None, "", *MATERIALS])
    assert enumerate_payments(cost, hand, persistent, recycle_top) == naive_payments(
        cost, hand, persistent, recycle_top)


def test_payment_source_limits():
    # Cost Stone + Stone; one Stone card, one Persistent Stone, a Stone on the pile.
    pays = enumerate_payments(("stone", "stone"), {7: "stone", 9: "water"}, Counter({"stone": 1}), "stone")
    stone = MATERIALS.index("stone")
    for discards, counts, recycle in pays:
        assert counts[stone] <= 1 and recycle <= 1
        singles = sum(1 for c in discards if c == 7)
        assert singles + counts[stone] + recycle + (len(discards) - singles) // 3 == 2
    # Exactly: card+persistent, card+recycle, persistent+recycle.
    assert pays == [((), (1, 0, 0, 0, 0), 1), ((7,), (0, 0, 0, 0, 0), 1), ((7,), (1, 0, 0, 0, 0), 0)]
    # Two cards cannot make a three-for-one; three can.
    assert enumerate_payments(("steel",), {1: "stone", 2: "water"}, Counter(), None) == []
    assert enumerate_payments(("steel",), {1: "stone", 2: "water", 3: "timber"}, Counter(), None) == [
        ((1, 2, 3), (0, 0, 0, 0, 0), 0)]


def card_with(**want):
    return next(c.number for c in CARDS.highway
                if all(getattr(c, k) == v for k, v in want.items()))


def at_build(players=2, seed=0):
    g = BigSur(players)
    s = g.new_initial_state(seed=seed)
    s.apply_seeded_chance()
    while s.step == "take" or s.is_chance_node():
        s.apply_action(s.seeded_outcome() if s.is_chance_node() else s.legal_actions()[0])
    return g, s


def play(s, *words):
    for w in words:
        s.apply_action(s.string_to_action(w))


def singles_for(cost, taken):
    """A distinct card for each Material of ``cost``, none of ``taken``."""
    out = []
    for m in cost:
        out.append(next(c for c in CARDS.deck_for(2) if CARDS.card(c).material == m
                        and c not in taken and c not in out))
    return out


def test_persistent_material_and_recycling_once_per_turn():
    g, s = at_build()
    base = next(c for c in CARDS.deck_for(2) if CARDS.card(c).miles == 1)
    m = CARDS.card(base).persistent
    i = MATERIALS.index(m)
    t1, t2 = [c for c in CARDS.deck_for(2) if c != base and m in CARDS.card(c).cost][:2]
    payers = singles_for(CARDS.card(t1).cost + CARDS.card(t2).cost, {base, t1, t2})
    s.highways[0], s.piles[0] = [base], [payers[0]]
    s.hands[0] = {t1, t2, *payers[1:]}
    assert any(p[1][i] == 1 and p[2] == 0 for p in s.payments(t1))
    assert any(p[2] == 1 for p in s.payments(t1))
    # Build t1 using the Persistent Material (and Recycling if it can).
    pay = next(p for p in s.payments(t1) if p[1][i] == 1)
    play(s, f"build {t1}")
    for c in pay[0]:
        play(s, f"discard {c}")
    s.apply_action(g.FINISH_BASE + FINISH.index((pay[1], pay[2])))
    if s.step == "top":
        s.apply_action(s.legal_actions()[0])
    assert s.step == "build" and t1 in s.highways[0]
    # Same turn: the Persistent Material of ``base`` is spent.
    assert all(p[1][i] == 0 for p in s.payments(t2))
    s.recycled = True
    assert all(p[2] == 0 for p in s.payments(t2))
    # Next turn both are back.
    s._new_turn()
    s.step = "build"
    assert any(p[1][i] == 1 for p in s.payments(t2))


# ----- claims -------------------------------------------------------------------------------
def road_state(cards_left_to_right, row):
    g, s = at_build()
    s.highways[0] = list(cards_left_to_right)
    s.row = set(row)
    return g, s


def three(kind, other):
    """Three cards each showing ``kind`` once, and ``other`` on none of them."""
    return [c.number for c in CARDS.highway if kind in c.scenery and other not in c.scenery
            and c.scenery[0] != c.scenery[1]][:3]


def test_a_stretch_claims_one_landmark_and_a_card_holds_one():
    ocean_lm = [l.number for l in CARDS.landmarks if l.scenery == ("ocean",)]
    g, s = road_state(three("ocean", "field"), ocean_lm)
    first, second = ocean_lm[:2]
    assert sorted(pos for _, pos in s.placements(first)) == [0, 1, 2]
    play(s, f"claim {CARDS.landmark(first).name}")
    s.apply_action(g.place_action("ocean", 1))
    assert s.marks[0][s.highways[0][1]] == (first, "ocean")
    assert s.is_chance_node()  # a new Landmark is revealed and the turn ends
    s.apply_seeded_chance()
    s.player, s.step, s.claimed = 0, "build", False
    assert s.placements(second) == []  # the Ocean Stretch is used


def test_overlapping_stretches_each_claim_on_different_cards():
    both = [c.number for c in CARDS.highway if set(c.scenery) == {"ocean", "field"}][:3]
    g, s = road_state(both, [])
    ocean = next(l.number for l in CARDS.landmarks if l.scenery == ("ocean",))
    field = next(l.number for l in CARDS.landmarks if l.scenery == ("field",))
    s.marks[0][both[0]] = (ocean, "ocean")
    s.row = {field}
    assert sorted(s.placements(field)) == [("field", 1), ("field", 2)]


def test_one_claim_a_turn():
    both = [c.number for c in CARDS.highway if set(c.scenery) == {"ocean", "field"}][:3]
    g, s = road_state(both, [])
    ocean = next(l.number for l in CARDS.landmarks if l.scenery == ("ocean",))
    field = next(l.number for l in CARDS.landmarks if l.scenery == ("field",))
    s.row = {ocean, field}
    assert g.CLAIM_BASE + field - 1 in s.legal_actions()
    s.claimed = True
    assert not any(g.CLAIM_BASE <= a < g.PLACE_BASE for a in s.legal_actions())
    s.claimed = False
    play(s, f"claim {CARDS.landmark(ocean).name}")
    s.apply_action(g.place_action("ocean", 0))
    s.apply_seeded_chance()  # reveal, then the Depot refill ends the turn
    assert s.player == 1 and s.step == "take"


# ----- turn structure ----------------------------------------------------------------------
def test_depot_does_not_refill_mid_turn():
    g = BigSur(2)
    s = g.new_initial_state(seed=4)
    s.apply_seeded_chance()
    depot = sorted(s.depot)
    s.apply_action(depot[0] - 1)          # take a Depot card
    assert len(s.depot) == 4 and not s.is_chance_node()
    s.apply_action(sorted(s.depot)[0] - 1)
    assert len(s.depot) == 3 and s.step == "build"
    s.apply_action(g.END_TURN)
    assert s.is_chance_node() and s.step == "refill"
    s.apply_seeded_chance()
    assert len(s.depot) == 5 and s.player == 1


def random_game(players, seed):
    g = BigSur(players)
    s = g.new_initial_state(seed=seed)
    r = random.Random(seed)
    turns = [0] * players
    last = None
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.seeded_outcome())
            continue
        if s.current_player() != last:  # a new turn: another player decides
            last = s.current_player()
            turns[last] += 1
        acts = s.legal_actions()
        s.apply_action(r.choice(acts))
    return s, turns


@pytest.mark.parametrize("players", [2, 3, 4])
def test_equal_turns_at_every_player_count(players):
    for seed in range(3):
        s, turns = random_game(players, seed)
        # Every player had 7 turns, counted from who decides, not from the
        # state's own counter.
        assert turns == [7] * players
        cards = sum(len(h) for h in s.hands) + sum(len(h) for h in s.highways) + \
            sum(len(p) for p in s.piles) + len(s.depot)
        assert cards == len(CARDS.deck_for(players))


def test_same_seed_same_game_and_illegal_actions_change_nothing():
    a, _ = random_game(3, 11)
    b, _ = random_game(3, 11)
    assert a.history == b.history and a.scores() == b.scores()
    g = BigSur(2)
    s = g.new_initial_state(seed=1)
    s.apply_seeded_chance()
    before = s.information_state(0)
    with pytest.raises(IllegalActionError):
        s.apply_action(g.END_TURN)
    assert s.information_state(0) == before


# ----- hidden information ----------------------------------------------------------------------
def test_information_state_twins():
    g, s = at_build(players=3, seed=2)
    twin = s.clone()
    # Swap a card of player 1's hand with one deep in the deck, and reorder
    # the Landmark deck: player 0 cannot see either.
    mine = sorted(twin.hands[1])[0]
    deep = twin.order[-1]
    twin.hands[1] = (twin.hands[1] - {mine}) | {deep}
    twin.order[-1] = mine
    twin.lorder[twin.lpos:] = list(reversed(twin.lorder[twin.lpos:]))
    assert twin.information_state(0) == s.information_state(0)
    assert twin.information_state(2) == s.information_state(2)
    assert twin.information_state(1) != s.information_state(1)
    # A discard pile below its top is hidden too; its top is not.
    s.piles[2], twin.piles[2] = [5, 6, 7], [9, 6, 7]
    assert twin.information_state(0) == s.information_state(0)
    twin.piles[2] = [5, 6, 8]
    assert twin.information_state(0) != s.information_state(0)


def test_resample_keeps_what_the_player_sees():
    for seed in range(5):
        g, s = at_build(players=4, seed=seed)
        r = s.resample(0, seed)
        assert r.information_state(0) == s.information_state(0)
        assert r.hands[1:] != s.hands[1:] or r.order != s.order


def test_action_observation_hides_draws_and_discards():
    g = BigSur(2)
    s = g.new_initial_state(seed=0)
    first = s.seeded_outcome()   # the first card goes to player 0's hand
    assert s.action_observation(first, 0) == first and s.action_observation(first, 1) == HIDDEN
    s.apply_seeded_chance()
    s.apply_action(g.DRAW)
    drawn = s.seeded_outcome()
    assert s.action_observation(drawn, 1) == HIDDEN and s.action_observation(drawn, 0) == drawn
