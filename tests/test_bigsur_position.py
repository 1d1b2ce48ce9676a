"""Big Sur positions (what a player sees at the table, as JSON): round trips
through the reference and the kernel, and one-line errors."""

import copy
import json

import pytest

from solvers.errors import SolversError
from solvers.games.bigsur.kernel import STATE_FIELDS
from solvers.games.bigsur.position import load_position, parse_position, state_to_position
from solvers.games.bigsur.reference import BigSur
from solvers.rng import SplitMix64

# What a position file does not carry: turn counts, and the player's own pile below its top.
NOT_IN_FILE = ("turns", "pile")


def turn_starts(players, seed):
    """Reference states at the start of turns (and after taking two cards) of a random game."""
    state = BigSur(players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        if (state.step == "take" and state.taken == 0) or (state.step == "build" and not state.used
                                                          and not state.recycled
                                                          and state.taken == 2 and not state.claimed):
            yield state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])


def view(state, player):
    info = state.information_state(player)
    return {k: v for k, v in info.items() if k not in NOT_IN_FILE}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_trip_keeps_what_the_player_sees(players):
    for state in list(turn_starts(players, seed=players))[::5]:
        data = json.loads(json.dumps(state_to_position(state)))
        again = parse_position(data, reference=True)
        mover = state.current_player()
        assert view(again, mover) == view(state, mover)
        assert again.legal_actions() == state.legal_actions()


def test_kernel_position_equals_reference_position(tmp_path):
    state = list(turn_starts(3, seed=8))[10]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(dict(state_to_position(state), seed=4)))
    ref = load_position(path, reference=True)
    ker = load_position(path)
    assert {f: getattr(ker, f) for f in STATE_FIELDS} == {f: getattr(ref, f) for f in STATE_FIELDS}
    assert ker.legal_actions() == ref.legal_actions()


BASE = state_to_position(next(turn_starts(2, seed=1)))


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["highways"][1].append(d["depot"][0]), "already in"),
    (lambda d: d.update(players=5), "'players'"),
    (lambda d: d["hand"].append(69), "not used with 2 players"),
    (lambda d: d["hand_sizes"].__setitem__(0, 9), "'hand_sizes' says 9"),
    (lambda d: d.update(row=["Golden Gate Bridge"]), "unknown Landmark"),
    (lambda d: d["depot"].pop(), "Depot should hold"),
    (lambda d: d["hand_sizes"].__setitem__(1, 40), "unseen cards"),
    (lambda d: d.update(colour=1), "unknown key"),
    (lambda d: d["piles"].__setitem__(0, {"size": 2}), "top card"),
])
def test_bad_positions_give_one_line(edit, words):
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(SolversError) as e:
        parse_position(data, reference=True, source="p.json")
    assert words in str(e.value) and "\n" not in str(e.value), str(e.value)
