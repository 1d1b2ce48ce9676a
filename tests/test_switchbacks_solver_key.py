"""Switchbacks' key for the exact search (``GameDef.solver_key``): tiles that
can no longer end on a complete path are anonymous in it, and the search
merges children of equal keys. Checked against values computed without the
key (the plain hash, itself checked against a naive search in
tests/test_endgame.py)."""

from __future__ import annotations

import itertools

import pytest
from test_endgame import switchbacks_lockstep

from solvers._core import endgame as cend


def exact(state, canonical: bool, per_action: bool = False) -> dict:
    game = state.game
    solver = cend.Solver(game._gamedef_capsule(), owner=game, canonical=canonical,
                         return_bounds=getattr(game, "return_bounds", None))
    return solver.solve(state._state_capsule(), per_action=per_action, line=True)


def swapped(ref, a: int, b: int):
    """The reference state with tiles ``a`` and ``b`` exchanged everywhere
    (deck order, map, hands, set-aside piles)."""
    twin = ref.clone()
    other = {a: b, b: a}
    twin.order = [other.get(t, t) for t in ref.order]
    twin.board = {h: other.get(t, t) for h, t in ref.board.items()}
    twin.hands = [{other.get(t, t) for t in hand} for hand in ref.hands]
    twin.set_aside = [{other.get(t, t) for t in pile} for pile in ref.set_aside]
    return twin


def where(ref, tile: int) -> str:
    """"map", "aside", "hand Q" or "stack"."""
    if tile in ref.board.values():
        return "map"
    if any(tile in pile for pile in ref.set_aside):
        return "aside"
    for q, hand in enumerate(ref.hands):
        if tile in hand:
            return f"hand {q}"
    return "stack"


def test_twins_that_differ_only_in_tiles_that_cannot_score_share_a_key_and_a_value():
    """Twin positions: two tiles exchanged. Where both can no longer score
    (in a hand, in the stack, or one of them on the map) the twins share
    the key, and their exact values (searched without it) agree. The
    control: exchanging a tile that may still score with one that cannot
    changes the key, and some of those twins are worth different amounts."""
    equal_keys = differ_unplaced = differ_map = 0
    control_keys = control_values = 0
    for seed in range(12):
        ref, ker = switchbacks_lockstep(6 + seed % 2, seed, 2)
        game = ker.game
        live = set(ker.live_tiles())
        tiles = [t for t in range(1, game.num_tiles + 1) if where(ref, t) != "aside"]
        dead = [t for t in tiles if t not in live]
        for a, b in itertools.combinations(dead, 2):
            if where(ref, a) == where(ref, b):
                continue                     # the same place: nothing is told apart
            twin = game.from_reference(swapped(ref, a, b))
            if twin.solver_key() != ker.solver_key():
                continue                     # (a tile moved onto the map may score there)
            equal_keys += 1
            if "map" in (where(ref, a), where(ref, b)):
                differ_map += 1
            else:
                differ_unplaced += 1
            assert exact(twin, False)["value"] == pytest.approx(exact(ker, False)["value"], abs=1e-9)
        unplaced = [t for t in tiles if where(ref, t) != "map"]
        for a in [t for t in unplaced if t in live][:3]:
            for b in [t for t in unplaced if t not in live and where(ref, t) != where(ref, a)][:2]:
                twin = game.from_reference(swapped(ref, a, b))
                assert twin.solver_key() != ker.solver_key()
                control_keys += 1
                if exact(twin, False)["value"] != pytest.approx(exact(ker, False)["value"], abs=1e-9):
                    control_values += 1
    # (94 unplaced pairs, 1,113 with one on the map, 24 controls, 2 of them
    # worth different amounts, when this was written)
    assert differ_unplaced >= 50 and differ_map >= 500 and equal_keys == differ_unplaced + differ_map
    assert control_keys >= 20 and control_values >= 1


# (players, [(tiles left, seed)]): random-play positions.
POSITIONS = [(2, [(6 + seed % 3, seed) for seed in range(12)]),
             (3, [(5 + seed % 2, seed) for seed in range(6)]),
             (4, [(5 + seed % 2, seed) for seed in range(6)])]


@pytest.mark.parametrize("players, positions", POSITIONS, ids=["2", "3", "4"])
def test_the_search_by_keys_gives_every_value_of_the_search_by_hash(players, positions):
    """Every move's value equal with and without the key, in fewer nodes,
    and the principal line legal move by move (a table entry may come from
    another position of the same key)."""
    by_key = by_hash = 0
    for left, seed in positions:
        _, state = switchbacks_lockstep(left, seed, players)
        plain = exact(state, False, per_action=True)
        keyed = exact(state, True, per_action=True)
        assert keyed["value"] == pytest.approx(plain["value"], abs=1e-9)
        rows = dict(plain["action_values"])
        assert [a for a, _ in keyed["action_values"]] == list(rows)
        for action, vec in keyed["action_values"]:
            assert vec == pytest.approx(rows[action], abs=1e-9), action
        for r in (keyed, exact(state, True)):
            replay = state.clone()
            for action in r["line"]:
                assert action in replay.legal_actions()
                replay.apply_action(action)
        by_key += keyed["nodes"]
        by_hash += plain["nodes"]
    assert by_key < by_hash
