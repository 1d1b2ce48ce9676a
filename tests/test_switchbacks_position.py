"""Switchbacks positions: JSON round trips and validation."""

import copy
import json

import pytest

from solvers.errors import SolversError
from solvers.games.switchbacks.position import load_position, state_to_position
from solvers.games.switchbacks.reference import Switchbacks
from solvers.games.switchbacks.kernel import SwitchbacksKernelState
from solvers.rng import SplitMix64


def played(players, seed, decisions, reference=True):
    """A seeded game after ``decisions`` random decisions (chance resolved)."""
    import solvers

    state = solvers.load_game("switchbacks", players, reference=reference).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    done = 0
    while not state.is_terminal() and done < decisions:
        state.apply_seeded_chance()
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
        done += 1
    return state


def views(state):
    return [state.information_state(p) for p in range(state.game.num_players)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reference", [False, True])
def test_round_trip_keeps_the_game(players, reference):
    for decisions in range(0, 80, 7):
        state = played(players, seed=decisions, decisions=decisions, reference=reference)
        if state.step == "deal":
            continue
        pos = json.loads(json.dumps(state_to_position(state)))
        for as_reference in (False, True):
            back = load_position(pos, reference=as_reference)
            assert isinstance(back, SwitchbacksKernelState) != as_reference
            assert views(back) == views(state)
            assert back.stack() == state.stack() and back.scores() == state.scores()
            assert back.legal_actions() == state.legal_actions()
            assert state_to_position(back) == pos
        # and both play on identically
        a, b = load_position(pos), load_position(pos, reference=True)
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            action = a.seeded_outcome() if a.is_chance_node() else a.legal_actions()[-1]
            a.apply_action(action)
            b.apply_action(action)
        assert b.is_terminal() and a.returns() == b.returns()


def test_position_file(tmp_path):
    state = played(3, seed=4, decisions=20)
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(state_to_position(state)))
    assert views(load_position(path)) == views(state)
    assert views(load_position(str(path), reference=True)) == views(state)
    with pytest.raises(SolversError, match="cannot read"):
        load_position(tmp_path / "missing.json")
    path.write_text("{not json")
    with pytest.raises(SolversError, match="not valid JSON"):
        load_position(path)


def test_unknown_stack_is_the_rest_shuffled_by_the_seed():
    pos = state_to_position(played(2, seed=6, decisions=10))
    full = list(pos["stack"])
    del pos["stack"]
    a = load_position(dict(pos, seed=1), reference=True)
    b = load_position(dict(pos, seed=1))
    c = load_position(dict(pos, seed=2), reference=True)
    assert a.stack() == b.stack() and sorted(a.stack()) == sorted(full)
    assert c.stack() != a.stack() and sorted(c.stack()) == sorted(full)


def test_terminal_and_mid_turn_positions():
    end = played(2, seed=3, decisions=1000)
    assert end.is_terminal()
    back = load_position(state_to_position(end))
    assert back.is_terminal() and back.returns() == end.returns()
    hike = played(2, seed=3, decisions=0)
    hike.apply_seeded_chance()
    hike.apply_action(hike.legal_actions()[0])
    assert hike.step == "hike"
    back = load_position(state_to_position(hike))
    assert back.step == "hike" and back.just_explored == hike.just_explored
    assert back.legal_actions() == hike.legal_actions()
    hike.apply_action(hike.legal_actions()[0])
    assert hike.step == "draw"
    back = load_position(state_to_position(hike), reference=True)
    assert back.is_chance_node() and back.chance_outcomes() == hike.chance_outcomes()


def test_no_position_during_the_setup_deal():
    state = Switchbacks(2).new_initial_state(seed=1)
    state.apply_action(state.seeded_outcome())
    with pytest.raises(SolversError, match="after the setup"):
        state_to_position(state)


# --- validation ------------------------------------------------------------

def at_explore(state):
    while state.step != "explore":
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else state.legal_actions()[0])
    return state


BASE = state_to_position(at_explore(played(2, seed=12, decisions=12)))


def first_hiker_hex(pos):
    return pos["hikers"][0]["hex"]


def empty_hex(pos):
    return next(h for h in range(37) if str(h) not in pos["map"])


def dup_tile(p):
    p["hands"][0][0] = p["hands"][1][0]


def hiker_on_unexplored(p):
    p["hikers"][0]["hex"] = empty_hex(p)


def two_players_on_a_tile(p):
    p["hikers"].append({"hex": first_hiker_hex(p), "player": 1 - p["hikers"][0]["player"],
                        "kind": "solo"})


def one_player_twice_on_a_tile(p):
    p["hikers"].append(dict(p["hikers"][0]))


def hiker_on_centre(p):
    p["hikers"][0]["hex"] = 18


def too_many_hikers(p):
    p["unplaced"][0]["solo"] += 1


def too_few_hikers(p):
    p["unplaced"][1]["solo"] -= 2


def hand_too_big(p):
    p["hands"][0].append(p["stack"].pop())


def hand_too_small(p):
    p["stack"].append(p["hands"][1].pop())


def aside_wrong(p):
    p["set_aside"][0].append(p["stack"].pop())


def unknown_key(p):
    p["colour"] = "red"


def bad_type(p):
    p["players"] = "two"


def bad_hands_type(p):
    p["hands"] = {"0": [1, 2, 3]}


def missing_key(p):
    del p["hands"]


def missing_tile(p):
    p["stack"].pop()


def tile_count(p):
    p["tiles"] = 40


def not_a_tile(p):
    p["stack"][0] = 38


def wrong_turn(p):
    p["to_move"] = 1 - p["to_move"]


def bad_step(p):
    p["step"] = "climb"


def hike_without_hex(p):
    p["step"] = "hike"


def hex_out_of_range(p):
    p["map"]["40"] = p["stack"].pop()


def bad_hiker_kind(p):
    p["hikers"][0]["kind"] = "trio"


def other_game(p):
    p["game"] = "c2c"


def too_many_pairs(p):
    p["unplaced"][0]["solo"] -= 10
    p["unplaced"][0]["buddies"] += 5


@pytest.mark.parametrize("mutate,message", [
    (dup_tile, "appears twice"),
    (hiker_on_unexplored, "not explored"),
    (two_players_on_a_tile, "more than one player"),
    (one_player_twice_on_a_tile, "twice"),
    (hiker_on_centre, "centre tile"),
    (too_many_hikers, "has 17 hikers; a 2-player game gives each 16"),
    (too_few_hikers, "has 14 hikers"),
    (hand_too_big, "holds 4 tiles but should hold 3"),
    (hand_too_small, "holds 2 tiles but should hold 3"),
    (aside_wrong, "3 set-aside tiles"),
    (unknown_key, "unknown key 'colour'"),
    (bad_type, "'players' should be an integer"),
    (bad_hands_type, "one entry per player"),
    (missing_key, "missing key 'hands'"),
    (missing_tile, "holds 36 tiles but Switchbacks has 37"),
    (tile_count, "40 tiles but Switchbacks has 37"),
    (not_a_tile, "38, which is not a tile"),
    (wrong_turn, "turn"),
    (bad_step, "step 'climb'"),
    (hike_without_hex, "just_explored"),
    (hex_out_of_range, "not a hex id"),
    (bad_hiker_kind, "'solo' or 'buddies'"),
    (other_game, "not a Switchbacks position"),
    (too_many_pairs, "hiking moves"),
])
def test_bad_positions_are_refused(mutate, message):
    assert load_position(BASE).information_state(0)  # the base position is fine
    pos = copy.deepcopy(BASE)
    mutate(pos)
    for reference in (False, True):
        with pytest.raises(SolversError, match=message) as info:
            load_position(pos, reference=reference)
        assert "\n" not in str(info.value) and str(info.value).startswith("position: ")


def test_base_position_has_what_the_mutations_need():
    assert BASE["hikers"] and BASE["stack"] and BASE["to_move"] in (0, 1)
    assert BASE["unplaced"][1]["solo"] >= 2


def test_position_for_three_players_checks_counts():
    pos = state_to_position(played(3, seed=2, decisions=9))
    pos["set_aside"][2].append(pos["stack"].pop())
    with pytest.raises(SolversError, match="player 2 has 2 set-aside tiles; a 3-player game gives each 1"):
        load_position(pos)
    pos = state_to_position(played(3, seed=2, decisions=9))
    pos["players"] = 4
    with pytest.raises(SolversError, match="one entry per player"):
        load_position(pos)


def test_the_documented_example_position_loads():
    """The JSON example at the top of the position module is a position the
    loader accepts, with the map, hands and hikers it shows."""
    import solvers.games.switchbacks.position as module
    doc = module.__doc__
    text = doc[doc.index("\n    {") + 1: doc.index("\n    }") + 6]
    raw = json.loads(text)
    state = load_position(raw, reference=True)
    out = state_to_position(state)
    assert out["map"] == raw["map"] and out["hands"] == raw["hands"]
    assert out["set_aside"] == raw["set_aside"] and out["unplaced"] == raw["unplaced"]
    assert state.current_player() == raw["to_move"]
