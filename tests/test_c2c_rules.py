"""Coast to Coast rules, checked on the reference and on the kernel."""

import pytest

import solvers
from solvers.errors import IllegalActionError, SolversError, UnknownNameError
from solvers.games.c2c.challenges import required_locations
from solvers.games.c2c.data import load_map
from solvers.games.c2c.reference import CoastToCoast, Sheet

MAP = load_map()
IMPLS = ["reference", "kernel"]


def ids(*names):
    return [MAP.location(n).id for n in names]


def game(impl, **options):
    return solvers.load_game("c2c", reference=(impl == "reference"), **options)


def play(state, *moves):
    """Apply moves given as strings; chance nodes are dealt from the seeded deck."""
    for move in moves:
        state.apply_seeded_chance()
        state.apply_action(state.string_to_action(move))
    return state


# --- scoring tables (the reference is the rules of record) ---------------

def sheet_state(circled, exact=()):
    state = CoastToCoast(1).new_initial_state(seed=0)
    state.sheets[0] = Sheet(circled=set(ids(*circled)), exact=set(ids(*exact)))
    return state


def test_rulebook_example_i90_runs_score_eleven():
    i90 = [l.name for l in MAP.locations if l.highway == "I-90"]
    state = sheet_state([i90[0], i90[1], i90[2], i90[3], i90[7]])
    assert state.score_breakdown()["highways"] == 11


@pytest.mark.parametrize("length,points", list(enumerate([0, 1, 3, 6, 10, 15, 21, 28, 36, 45])))
def test_highway_table(length, points):
    i90 = [l.name for l in MAP.locations if l.highway == "I-90"]
    assert sheet_state(i90[:length]).score_breakdown()["highways"] == points


@pytest.mark.parametrize("typ,points", [("tree", 16), ("yellow", 16), ("red", 12),
                                        ("building", 12), ("city", 8), ("monument", 8)])
def test_type_table(typ, points):
    members = [l.name for l in MAP.locations if l.type == typ]
    full = sheet_state(members).score_breakdown()
    assert full["types"] == points
    assert sheet_state(members[:-1]).score_breakdown()["types"] == 0


@pytest.mark.parametrize("region", range(1, 10))
def test_region_bonus(region):
    members = [l.name for l in MAP.locations if l.region == region]
    assert sheet_state(members).score_breakdown()["regions"] == 6
    assert sheet_state(members[1:]).score_breakdown()["regions"] == 0


def test_exact_matches_score_two_each():
    s = sheet_state(["Hollywood", "Chase Field", "The Alamo"], exact=["Chase Field", "The Alamo"])
    assert s.score_breakdown()["exact"] == 4


def test_total_is_sum_of_categories():
    s = sheet_state(["Hollywood", "Chase Field", "The Alamo", "Bourbon Street",
                     "Las Vegas Strip", "Beale Street"], exact=["The Alamo"])
    b = s.score_breakdown()
    # I-10 run of 4 (10) + I-40 singles (1 + 1); all 4 cities (8); exact 2.
    assert (b["highways"], b["types"], b["regions"], b["exact"]) == (12, 8, 0, 2)
    assert b["total"] == 22


@pytest.mark.parametrize("card,count", [("Empire State Building", 9), ("The Alamo", 10),
                                        ("Cedar Point", 16), ("Wrigley Field", 16)])
def test_required_counts(card, count):
    assert len(required_locations(MAP, card)) == count
    assert len(CoastToCoast(1, challenge=card).required()) == count


def test_map_has_27_solid_and_23_dashed_lines_and_is_connected():
    assert len(MAP.solid_lines) == 27 and len(MAP.dashed_lines) == 23


# --- play, on both implementations ---------------------------------------

CONNECT_DEAL = ids(
    "Space Needle", "Freedom Trail", "Hollywood", "Disney World",
    "Mount Rushmore", "Cedar Point", "Oklahoma City Zoo", "Negro Leagues Baseball Museum",
    "Yellowstone National Park", "Great Smoky Mountains", "The Alamo", "Beale Street",
)


def connect_state(impl):
    state = game(impl).state_from_deal(CONNECT_DEAL)
    return play(
        state,
        "cross Disney World",
        "cross Cedar Point",
        "circle Yellowstone National Park with Mount Rushmore",
        "circle Las Vegas Strip with Oklahoma City Zoo",
        "circle Chase Field with Negro Leagues Baseball Museum",
    )


@pytest.mark.parametrize("impl", IMPLS)
def test_setup_circles_the_three_cards_not_crossed(impl):
    state = game(impl).state_from_deal(CONNECT_DEAL)
    play(state, "cross Disney World")
    info = state.information_state(0)
    assert info["sheet"]["circled"] == sorted(ids("Space Needle", "Freedom Trail", "Hollywood"))
    assert info["sheet"]["crossed"] == ids("Disney World")
    assert info["sheet"]["exact"] == []  # starting circles are never exact matches


@pytest.mark.parametrize("impl", IMPLS)
def test_crossed_off_circle_no_longer_connects(impl):
    wanted = "circle Great Salt Lake with Great Smoky Mountains"
    keep = play(connect_state(impl), "cross The Alamo")
    assert wanted in [keep.action_to_string(a) for a in keep.legal_actions()]
    lost = play(connect_state(impl), "cross Yellowstone National Park")
    assert wanted not in [lost.action_to_string(a) for a in lost.legal_actions()]
    info = lost.information_state(0)
    assert MAP.location("Yellowstone National Park").id not in info["sheet"]["circled"]
    assert MAP.location("Yellowstone National Park").id in info["sheet"]["crossed"]


SKIP_DEAL = ids(
    "Disney World", "Gulf Shores", "Bourbon Street", "Freedom Trail",
    "Empire State Building", "Las Vegas Strip", "Myrtle Beach", "Niagara Falls",
)


@pytest.mark.parametrize("impl", IMPLS)
def test_circling_is_compulsory_and_only_dead_cards_are_skipped(impl):
    state = game(impl).state_from_deal(SKIP_DEAL)
    play(state, "cross Freedom Trail", "cross Niagara Falls",
         "circle Great Smoky Mountains with Las Vegas Strip")
    # Myrtle Beach can still be used, so the round is not over for the player.
    assert state.current_player() == 0
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    assert moves and all(m.endswith("with Myrtle Beach") for m in moves)
    play(state, "circle Phipps Conservatory and Botanical Gardens with Myrtle Beach")
    # The Empire State Building card matches nothing reachable: it is skipped.
    assert state.is_chance_node()
    assert state.plan()["rounds"][0]["circles"][-1] == ["Empire State Building", None]


@pytest.mark.parametrize("impl", IMPLS)
def test_exact_match_is_recorded(impl):
    state = game(impl).state_from_deal(CONNECT_DEAL)
    play(state, "cross Disney World", "cross Cedar Point",
         "circle Yellowstone National Park with Mount Rushmore",
         "circle Las Vegas Strip with Oklahoma City Zoo")
    before = state.scores()[0]
    play(state, "circle Chase Field with Negro Leagues Baseball Museum")
    assert state.scores()[0] > before
    # An exact match: the card's own location.
    deal = CONNECT_DEAL[:4] + ids("Yellowstone National Park") + CONNECT_DEAL[5:8]
    state2 = game(impl).state_from_deal(deal)
    play(state2, "cross Disney World", "cross Cedar Point",
         "circle Yellowstone National Park with Yellowstone National Park")
    assert state2.information_state(0)["sheet"]["exact"] == ids("Yellowstone National Park")
    assert state2.score_breakdown(0)["exact"] == 2


@pytest.mark.parametrize("impl", IMPLS)
def test_illegal_action_leaves_state_unchanged(impl):
    state = game(impl).state_from_deal(CONNECT_DEAL)
    play(state, "cross Disney World")
    state.apply_seeded_chance()
    before = state.information_state(0)
    with pytest.raises(IllegalActionError):
        state.apply_action(MAP.location("Wrigley Field").id)  # not one of the round's cards
    with pytest.raises(IllegalActionError):
        state.string_to_action("circle Narnia with Hollywood")
    assert state.information_state(0) == before


@pytest.mark.parametrize("impl", IMPLS)
def test_lost_challenge_scores_zero(impl):
    g = game(impl, challenge="Wrigley Field")
    state = g.new_initial_state(seed=5)
    while not state.is_terminal():
        state.apply_seeded_chance()
        if not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    if state.challenge_won():
        assert state.returns() == [float(state.scores()[0])]
    else:
        assert state.returns() == [0.0]


@pytest.mark.parametrize("impl", IMPLS)
def test_challenge_card_is_out_of_the_deck(impl):
    g = game(impl, challenge="The Alamo")
    alamo = MAP.location("The Alamo").id
    for seed in range(20):
        state = g.new_initial_state(seed=seed)
        assert alamo not in [a for a, _ in state.chance_outcomes()]


@pytest.mark.parametrize("impl", IMPLS)
def test_same_seed_same_game(impl):
    a = game(impl, players=3).new_initial_state(seed=42)
    b = game(impl, players=3).new_initial_state(seed=42)
    a.apply_seeded_chance()
    b.apply_seeded_chance()
    assert a.information_state(1) == b.information_state(1)


def test_multiplayer_tie_break_on_highways():
    state = CoastToCoast(2).new_initial_state(seed=0)
    # Same total, player 1 has more highway points.
    state.sheets[0] = Sheet(circled=set(ids("Hollywood", "Las Vegas Strip")), exact=set())
    state.sheets[1] = Sheet(circled=set(ids("Hollywood", "Chase Field")), exact=set())
    state.round = 6
    assert state.scores() == [2, 3]
    state.sheets[0].exact = set()
    state.sheets[1] = Sheet(circled=set(ids("Space Needle", "Golden Gate Bridge")), exact=set())
    assert state.returns() == [0.5, 0.5]  # 2 highway points each, no other points: shared


@pytest.mark.parametrize("bad", [{"players": 0}, {"players": 5}, {"players": 2, "challenge": "The Alamo"}])
def test_bad_options(bad):
    with pytest.raises(SolversError):
        solvers.load_game("c2c", reference=True, **bad)


def test_unknown_challenge_names_nearest():
    with pytest.raises(UnknownNameError, match="Wrigley Field"):
        solvers.load_game("c2c", reference=True, challenge="Wrigly Feild")
