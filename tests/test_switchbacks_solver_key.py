"""Switchbacks' key for the exact search (``GameDef.solver_key``): tiles that
can no longer end on a complete path, and empty hexes no path can cross,
are anonymous in it, and the search merges children of equal keys. Checked against values computed without the
key (the plain hash, itself checked against a naive search in
tests/test_endgame.py)."""

from __future__ import annotations

import itertools

import pytest
from test_endgame import switchbacks_lockstep

from solvers._core import endgame as cend
from solvers.rng import SplitMix64


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
    # (94 unplaced pairs, 1,112 with one on the map, 24 controls, 2 of them
    # worth different amounts, when this was written)
    assert differ_unplaced >= 50 and differ_map >= 500 and equal_keys == differ_unplaced + differ_map
    assert control_keys >= 20 and control_values >= 1


def test_a_twin_read_from_the_table_answers_a_legal_best_move():
    """One solver, two twins of one key (two tiles that cannot score
    exchanged between a hand and elsewhere): the second's answer is read
    from the first's table entry, whose move may name a tile the second
    does not hold. The answer must be legal and best (against every move's
    value searched by the hash)."""
    checked = 0
    for seed in range(40):
        ref, ker = switchbacks_lockstep(6 + seed % 3, seed, 2)
        if ker.step != "explore":           # its moves name tiles
            continue
        game = ker.game
        live = set(ker.live_tiles())
        held = [t for t in ref.hands[ref.player] if t not in live]
        others = [t for t in range(1, game.num_tiles + 1)
                  if t not in live and where(ref, t) not in ("aside", f"hand {ref.player}")]
        for a, b in itertools.product(held[:2], others[:3]):
            twin = game.from_reference(swapped(ref, a, b))
            if twin.solver_key() != ker.solver_key():
                continue
            solver = cend.Solver(game._gamedef_capsule(), owner=game, return_bounds=game.return_bounds)
            solver.solve(ker._state_capsule(), line=False)
            move = solver.solve(twin._state_capsule(), line=False)["action"]
            rows = dict(exact(twin, False, per_action=True)["action_values"])
            best = max(v[ref.player] for v in rows.values())
            assert move in rows and rows[move][ref.player] == pytest.approx(best, abs=1e-9)
            checked += 1
    assert checked >= 20


def test_a_tile_that_may_score_still_in_the_stack_is_named_by_the_key():
    """The plain hash leaves the stack out (it is what the rest leaves);
    the key, leaving out which tile is which among those that cannot
    score, must name the stack's tiles that may. Twins: such a tile
    exchanged with one on the map that cannot score (which then may lie
    dead on that hex while the other waits in the stack): never the same
    key. Without the stack in the key, 2 of these twins shared it."""
    twins = 0
    for seed in range(40):
        ref, ker = switchbacks_lockstep(6 + seed % 4, seed, 2)
        game = ker.game
        live = set(ker.live_tiles())
        waiting = [t for t in live if where(ref, t) == "stack"]
        lying = [t for t in range(1, game.num_tiles + 1) if where(ref, t) == "map" and t not in live]
        for a in waiting:
            for b in lying:
                twin = game.from_reference(swapped(ref, a, b))
                assert twin.solver_key() != ker.solver_key(), (seed, a, b)
                twins += 1
    assert twins >= 500


def moved(ref, tile: int, hex_id: int):
    """The reference state with ``tile`` (on the map, no hikers on it)
    moved to the empty hex ``hex_id``."""
    twin = ref.clone()
    old = next(h for h, t in ref.board.items() if t == tile)
    del twin.board[old]
    twin.board[hex_id] = tile
    return twin


def test_twins_that_differ_only_in_hexes_no_path_can_cross_share_a_key_and_a_value():
    """Twin positions: a tile that can no longer score moved from its hex
    to an empty hex that no path can cross (outside open_hexes): where they
    share the key, their exact values (searched without it) agree. The
    control:
    moved to an empty hex a path may still cross, the key differs, and some
    of those twins are worth different amounts."""
    same = control_keys = control_values = 0
    for seed in range(10):
        ref, ker = switchbacks_lockstep(6 + seed % 2, seed, 2)
        game = ker.game
        live, open_ = set(ker.live_tiles()), set(ker.open_hexes())
        empty = [h for h in range(game.num_hexes) if h not in ref.board]
        movable = [t for h, t in ref.board.items()
                   if t not in live and h not in ref.hikers and h != ref.just_explored]
        value = exact(ker, False)["value"]
        for tile in movable[:2]:
            for hex_id in empty:
                twin = game.from_reference(moved(ref, tile, hex_id))
                if hex_id in open_:
                    assert twin.solver_key() != ker.solver_key()
                    control_keys += 1
                    if exact(twin, False)["value"] != pytest.approx(value, abs=1e-9):
                        control_values += 1
                elif twin.solver_key() == ker.solver_key():
                    # (not always: the hex it left may be one a path can
                    # cross, or the tests of what can still score may read
                    # the other hex's being empty)
                    same += 1
                    assert exact(twin, False)["value"] == pytest.approx(value, abs=1e-9)
    # (135, 48 and 2 when this was written)
    assert same >= 60 and control_keys >= 20 and control_values >= 1


def path_seeking_end(ref, rng: SplitMix64):
    """Play ``ref`` (a reference state) to the end: chance by the seeded
    deck, moves mostly putting a tile beside its number plus or minus one
    (so that complete paths are made), else at random."""
    state = ref.clone()
    g, m = state.game, state.game.map
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        legal = state.legal_actions()
        if state.step == "explore" and rng.below(10) < 8:
            where = {t: h for h, t in state.board.items()}
            near = [a for a in legal if any(
                n in where and m.adjacent(where[n], a % g.num_hexes)
                for n in (a // g.num_hexes, a // g.num_hexes + 2))]   # (tile - 1, tile + 1)
            legal = near or legal
        state.apply_action(legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_hex_and_tile_a_later_path_takes_was_open_and_live(players):
    """What the key leaves out must never matter: in continuations played
    to the end (mostly laying tiles beside their neighbours in number), a
    complete path crosses only hexes that were on the map or open, and
    only tiles that were live, in the position the continuation started
    from."""
    crossed = tiles = 0
    rng = SplitMix64(players)
    for seed in range(30):
        ref, ker = switchbacks_lockstep(8 + seed % 7, seed, players)
        open_, live = set(ker.open_hexes()), set(ker.live_tiles())
        for _ in range(6):
            end = path_seeking_end(ref, rng)
            for hex_id, tile in end.board.items():
                if end.on_complete_path(hex_id):
                    assert tile in live, (seed, tile)
                    tiles += 1
                    if hex_id not in ref.board:
                        assert hex_id in open_, (seed, hex_id, tile)
                        crossed += 1
    # (153/262, 131/248 and 102/162 with 2, 3 and 4 players when this was written)
    assert crossed >= 60 and tiles >= 100


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
        alone = exact(state, True)
        # The value-only answer's move (from the table, whose entry may have
        # come from another position of the same key) is a best one.
        mover = state.current_player()
        assert rows[alone["action"]][mover] == pytest.approx(plain["value"][mover], abs=1e-9)
        for r in (keyed, alone):
            replay = state.clone()
            for action in r["line"]:
                assert action in replay.legal_actions()
                replay.apply_action(action)
                if players == 2 and not replay.is_terminal():
                    # Best play keeps the value (each move of the line comes
                    # from the table, maybe from another position of the key).
                    v = exact(replay, False)["value"]
                    assert v[0] - v[1] == pytest.approx(plain["value"][0] - plain["value"][1], abs=1e-9)
        by_key += keyed["nodes"]
        by_hash += plain["nodes"]
    assert by_key < by_hash
