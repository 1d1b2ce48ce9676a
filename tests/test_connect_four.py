"""The Connect Four kernel against a plain reference and OpenSpiel's
``connect_four`` in lock-step, its playout policy and fused playout against
the move-by-move loop, and both MCTS implementations on forced wins."""

import ctypes
import pickle
from ctypes import c_double, c_int, c_uint64

import pytest
from connect_four_reference import Grid, replay, winning_moves
from gamedef_ctypes import gamedef_of, state_pointer
from scipy.stats import chi2_contingency, chisquare

from solvers._core import mcts as cmcts
from solvers._core.connect_four import ConnectFour
from solvers.errors import IllegalActionError, SolversError
from solvers.game import TERMINAL, State
from solvers.rng import SplitMix64
from solvers.search import mcts_search

# Significance level of each statistical test below; seeds are fixed, so a
# run either always passes or always fails.
ALPHA = 0.001


def random_game_moves(rng: SplitMix64, careful: bool):
    """A game's moves from the reference: uniformly random, or (``careful``)
    avoiding four in a row whenever possible, so that draws happen too."""
    grid = Grid()
    while grid.winner is None:
        legal = grid.legal()
        if careful:
            quiet = [c for c in legal if c not in grid.wins_now(grid.to_move)]
            legal = quiet or legal
        move = legal[rng.below(len(legal))]
        grid.play(move)
        yield move


# --- the rules --------------------------------------------------------------

def test_lock_step_with_the_reference_through_the_face_and_the_c_table():
    game = ConnectFour()
    gd = gamedef_of(game)
    assert (gd.name, gd.num_players, gd.max_actions, gd.num_distinct_actions,
            gd.max_game_length, gd.public_decisions) == (b"connect_four", 2, 7, 7, 42, 1)
    out = (c_int * 7)()
    ret = (c_double * 2)()
    rng = SplitMix64(1)
    ends = {0: 0, 1: 0, 2: 0}
    for g in range(300):
        state = game.new_initial_state()
        assert gd.state_size == len(state._raw())
        grid = Grid()
        st = state_pointer(state)
        for i, move in enumerate(random_game_moves(rng, careful=g % 2 == 1)):
            if i % 2:                                   # alternately through the C table
                gd.apply_action(gd.params, st, move)
                state.history.append(move)
            else:
                state.apply_action(move)
            grid.play(move)
            player = TERMINAL if grid.winner is not None else grid.to_move
            assert state.current_player() == gd.current_player(gd.params, st) == player
            n = gd.legal_actions(gd.params, st, out)
            assert state.legal_actions() == list(out[:n]) == grid.legal()
            gd.returns(gd.params, st, ret)
            assert state.returns() == list(ret) == grid.returns()
            assert state.is_terminal() == (grid.winner is not None)
            assert str(state) == grid.picture()
        ends[grid.winner] += 1
        assert state.scores() == [int(grid.winner == 0), int(grid.winner == 1)]
    assert min(ends.values()) > 10, ends        # wins for each seat and draws were all walked


def test_lock_step_with_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    theirs_game = pyspiel.load_game("connect_four")
    game = ConnectFour(playout=False)
    rng = SplitMix64(2)
    for g in range(200):
        ours, theirs = game.new_initial_state(), theirs_game.new_initial_state()
        for move in random_game_moves(rng, careful=g % 2 == 1):
            player = ours.current_player()
            assert player == theirs.current_player()
            assert ours.legal_actions() == list(theirs.legal_actions())
            assert [ours.action_to_string(a) for a in ours.legal_actions()] == \
                [theirs.action_to_string(player, a) for a in theirs.legal_actions()]
            ours.apply_action(move)
            theirs.apply_action(move)
            assert str(ours) == str(theirs)
            assert ours.is_terminal() == theirs.is_terminal()
            if ours.is_terminal():                     # +1/-1/0 there, 1/0/0.5 here
                assert ours.returns() == [(r + 1) / 2 for r in theirs.returns()]
        assert ours.is_terminal() and ours.current_player() == theirs.current_player() == TERMINAL


def test_state_face_bad_moves_copies_and_pickles():
    game = ConnectFour()
    state = game.new_initial_state()
    assert isinstance(state, State)
    for move in (3, 3, 3, 3, 3, 3):
        state.apply_action(move)
    before = state._raw()
    for bad in (3, 7, -1, "3", 2.0, True):
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
    assert state._raw() == before and state.legal_actions() == [0, 1, 2, 4, 5, 6]
    assert state.string_to_action("X4") == 4 and state.action_to_string(4) == "x4"
    with pytest.raises(IllegalActionError):
        state.string_to_action("x3")
    with pytest.raises(SolversError):
        state.seeded_outcome()
    copy = state.clone()
    copy.apply_action(0)
    assert copy != state and state._raw() == before
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.history == state.history
    assert again.game.fused_playout and not pickle.loads(pickle.dumps(ConnectFour(False))).fused_playout
    view = state.information_state(1)
    assert view["board"] == str(state).splitlines() and view["to_move"] == 0
    assert state.cell(3, 5) == "o" and state.cell(3, 0) == "x" and state.cell(0, 0) == "."
    with pytest.raises(SolversError):
        state.information_state(2)


# --- the playout policy and the fused playout ---------------------------------

def test_rollout_action_wins_else_blocks_else_any_column():
    game = ConnectFour()
    gd = gamedef_of(game)
    rng = SplitMix64(3)
    draw = c_uint64(4)
    seen = {"win": 0, "block": 0, "free": 0}
    for _ in range(150):
        state, grid = game.new_initial_state(), Grid()
        for move in random_game_moves(rng, careful=True):
            if grid.winner is not None:
                break
            win, block = grid.wins_now(grid.to_move), grid.wins_now(1 - grid.to_move)
            allowed, kind = (win, "win") if win else (block, "block") if block else (grid.legal(), "free")
            seen[kind] += 1
            picks = {gd.rollout_action(gd.params, state_pointer(state), ctypes.byref(draw)) for _ in range(12)}
            assert picks <= set(allowed), (grid.picture(), picks, allowed)
            if len(allowed) > 1 and kind != "free":
                assert len(picks) > 1                    # ties are broken at random
            state.apply_action(move)
            grid.play(move)
    assert min(seen.values()) > 50, seen
    # nothing to win or block: every open column equally often
    state = game.new_initial_state()
    counts = [0] * 7
    for _ in range(7000):
        counts[gd.rollout_action(gd.params, state_pointer(state), ctypes.byref(draw))] += 1
    assert chisquare(counts).pvalue > ALPHA, counts


def ending(state) -> tuple[int, int]:
    """(winner or 2 for a draw, stones on the board) of a finished game."""
    ret = state.returns()
    return (2 if ret[0] == ret[1] else ret.index(1.0)), len(str(state).replace("\n", "").replace(".", ""))


def heights(state) -> list[int]:
    rows = str(state).splitlines()
    return [sum(row[c] != "." for row in rows) for c in range(7)]


def homogeneous(a: list, b: list, alpha: float) -> tuple[bool, float]:
    """A chi-square test that two samples of labels come from one
    distribution (labels seen fewer than 10 times in all are pooled)."""
    labels = sorted(set(a) | set(b), key=repr)
    total = {x: a.count(x) + b.count(x) for x in labels}
    rare = [x for x in labels if total[x] < 10]
    keep = [x for x in labels if total[x] >= 10]
    table = [[s.count(x) for x in keep] + [sum(s.count(x) for x in rare)] for s in (a, b)]
    if not rare:
        table = [row[:-1] for row in table]
    if len(table[0]) < 2:
        return True, 1.0
    p = chi2_contingency(table).pvalue
    return p > alpha, p


@pytest.mark.parametrize("seats", [0b00, 0b01, 0b10, 0b11])
@pytest.mark.parametrize("opening", [(), (3, 3, 4, 2, 2, 4, 1, 5)])
def test_fused_playout_plays_like_the_move_by_move_loop(seats, opening):
    """The fused playout and the search's loop (rollout_action for the seats
    in ``seats``, a uniformly random legal column for the other) end games
    alike: the same distribution of (winner, length) and of each column's
    final height, by chi-square tests at ALPHA / 8 each (8 tests)."""
    game = ConnectFour()
    gd = gamedef_of(game)
    assert gd.playout and not gamedef_of(ConnectFour(playout=False)).playout
    start = game.new_initial_state()
    for move in opening:
        start.apply_action(move)
    samples = 2500
    rng = c_uint64(11 + seats)
    pick = SplitMix64(12 + seats)
    out = (c_int * 7)()
    fused, loop = [], []
    for _ in range(samples):
        end = start.clone()
        gd.playout(gd.params, state_pointer(end), ctypes.byref(rng), seats)
        assert end.is_terminal()
        fused.append(end)
        end = start.clone()
        st = state_pointer(end)
        while (player := gd.current_player(gd.params, st)) != TERMINAL:
            if (seats >> player) & 1:
                action = gd.rollout_action(gd.params, st, ctypes.byref(rng))
            else:
                action = out[pick.below(gd.legal_actions(gd.params, st, out))]
            gd.apply_action(gd.params, st, action)
        loop.append(end)
    assert all(lawful_end(str(end), ending(end)[0]) for end in fused[:300])
    tests = [([ending(s) for s in fused], [ending(s) for s in loop])]
    tests += [([heights(s)[c] for s in fused], [heights(s)[c] for s in loop]) for c in range(7)]
    for i, (a, b) in enumerate(tests):
        ok, p = homogeneous(a, b, ALPHA / len(tests))
        assert ok, (i, p)
    assert len({ending(s) for s in fused}) > 5                 # the playouts do vary


def lawful_end(picture: str, winner: int) -> bool:
    """Whether ``picture`` is a finished game won by ``winner`` (2: drawn):
    stones rest on stones, the seats took turns, the winner (who moved
    last) has four in a row and the loser none; a draw fills the grid."""
    rows = picture.splitlines()[::-1]
    grid = Grid()
    grid.columns = [[{"x": 0, "o": 1}[row[c]] for row in rows if row[c] != "."] for c in range(7)]
    if any(row[c] != "." and r and rows[r - 1][c] == "." for r, row in enumerate(rows) for c in range(7)):
        return False
    stones = [sum(col.count(s) for col in grid.columns) for s in (0, 1)]
    fours = [any(grid.line_through(c, r, s) for c in range(7) for r in range(len(grid.columns[c]))
                 if grid.columns[c][r] == s) for s in (0, 1)]
    if winner == 2:
        return stones == [21, 21] and not any(fours)
    return fours[winner] and not fours[1 - winner] and stones[0] - stones[1] == 1 - winner


# --- MCTS on forced wins --------------------------------------------------------

# Positions (moves from the empty grid) where the player to move forces a
# win, with the number of own moves it takes; the winning first moves are
# found by the reference's exhaustive search.
FORCED_WINS = [
    ((0, 0, 1, 1, 2, 2), 1),                                              # x completes the bottom row
    ((3, 3, 2, 2), 2),                                                    # an open three: two threats
    ((1, 6, 3, 3, 1, 5, 4, 0, 1, 4, 5, 2, 0, 5, 6, 1, 2), 3),
    ((3, 1, 2, 1, 2, 6, 2, 6, 6, 4, 4, 3, 6, 0, 3, 6, 5, 2), 3),
]
ITERATIONS = 20000
# OpenSpiel's returns are +1/-1 and ours 1/0: c/2 on ours ranks children as c does there.
OPENSPIEL_C = 1.4


def forced_win(moves, own_moves):
    grid = replay(moves)
    wins = winning_moves(grid, own_moves)
    assert wins and set(wins) != set(grid.legal())            # a real choice with a right answer
    assert own_moves == 1 or not winning_moves(grid, own_moves - 1)   # and no quicker win
    return wins


@pytest.mark.parametrize("moves,own_moves", FORCED_WINS)
@pytest.mark.parametrize("fused", [True, False])
def test_our_mcts_finds_the_forced_win(moves, own_moves, fused):
    wins = forced_win(moves, own_moves)
    state = ConnectFour(playout=fused).new_initial_state()
    for m in moves:
        state.apply_action(m)
    for seed in range(3):
        r = mcts_search(state, iterations=ITERATIONS, seed=seed, c=OPENSPIEL_C / 2, rollout="random")
        assert r.action in wins, (moves, seed, r.rows())


@pytest.mark.parametrize("moves,own_moves", FORCED_WINS)
def test_openspiel_mcts_finds_the_forced_win(moves, own_moves):
    pyspiel = pytest.importorskip("pyspiel")
    wins = forced_win(moves, own_moves)
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for m in moves:
        state.apply_action(m)
    for seed in range(3):
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed), OPENSPIEL_C, ITERATIONS,
                              1000, False, seed, False)
        assert bot.step(state) in wins, (moves, seed)


def test_search_over_the_c_table_runs_with_and_without_the_fused_playout():
    for fused in (True, False):
        game = ConnectFour(playout=fused)
        assert cmcts.gamedef_flags(game._gamedef_capsule()) == {
            "playout": fused, "rollout_action": True, "public_decisions": True}
        state = game.new_initial_state()
        for mode in cmcts.ROLLOUTS:
            search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game,
                                  rollout=mode)
            r = search.run(iterations=3000)
            assert sum(r["visits"]) == 3000 and search._check_tree() == r["nodes"]
    # Search(playout=False) on the fused table plays the move-by-move loop:
    # the same search as the table without a playout, and not the fused one
    fused, loop = ConnectFour(), ConnectFour(playout=False)
    state = fused.new_initial_state()

    def run(game, **kw):
        search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=5, owner=game,
                              rollout="random", **kw)
        return search.run(iterations=2000) | {"seconds": 0}

    assert run(fused, playout=False) == run(loop) != run(fused)
