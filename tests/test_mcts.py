"""Monte Carlo tree search, C and Python: forced moves, chance, several
players, hidden information, seeds, stopping and bad input."""

import threading
import time

import pytest

from solvers._core import mcts as cmcts
from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.errors import SolversError
from solvers.search import MCTS, RandomRolloutEvaluator, make_search, mcts_search
from solvers.rng import SplitMix64

BACKENDS = ["c", "python"]
# Python is ~100x slower: give it a budget that still converges on the toys.
BUDGET = {"c": 20000, "python": 3000}


def play(state, actions):
    for a in actions:
        state.apply_action(a)
    return state


def naive_values(state):
    """Plain max^n / expectimax: each player maximises its own return."""
    if state.is_terminal():
        return state.returns()
    if state.is_chance_node():
        out = [0.0] * state.game.num_players
        for a, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(a)
            out = [x + p * y for x, y in zip(out, naive_values(child))]
        return out
    p = state.current_player()
    best = None
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        v = naive_values(child)
        if best is None or v[p] > best[p]:
            best = v
    return best


def child_values(state):
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[a] = naive_values(child)
    return out


@pytest.mark.parametrize("backend", BACKENDS)
def test_tictactoe_takes_the_win(backend):
    # x: a1 b1, o: a2 b2; x completes the top row with c1 (cell 2).
    state = play(TicTacToe().new_initial_state(), [0, 3, 1, 4])
    r = mcts_search(state, iterations=BUDGET[backend], seed=5, backend=backend)
    assert r.action == 2
    assert r.backend == backend
    assert r.values[0] > 0.95


@pytest.mark.parametrize("backend", BACKENDS)
def test_tictactoe_blocks_the_threat(backend):
    # x: a1 b1, o: b2; o to move must block at c1 (cell 2).
    state = play(TicTacToe().new_initial_state(), [0, 4, 1])
    r = mcts_search(state, iterations=BUDGET[backend], seed=7, backend=backend)
    assert r.action == 2
    assert r.player == 1


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("prefix", [[], [1, 2, 1, 1]])   # start; turn total 5
def test_converges_on_a_chance_toy(backend, prefix):
    game = Pig(players=1, target=8, die=3, max_turns=2)
    state = play(game.new_initial_state(), prefix)
    exact = {a: v[0] for a, v in child_values(state).items()}
    best = max(exact, key=exact.get)
    assert abs(exact[0] - exact[1]) > 0.05          # the position has a clear answer
    # The mean of UCT's visits approaches the best value from below as the
    # exploration of worse moves fades: a longer search for this check.
    n = 5 * BUDGET[backend]
    r = mcts_search(state, iterations=n, seed=11, backend=backend)
    assert r.action == best
    assert r.values[0] == pytest.approx(exact[best], abs=0.08)
    assert sum(r.visits) == r.iterations == n


@pytest.mark.parametrize("backend", BACKENDS)
def test_three_players_each_maximise_their_own_return(backend):
    # Last turn of the game, seat 0 holds 6 + a turn total of 3 while the others
    # have 7 and 0: holding wins for sure, rolling risks a one.
    game = Pig(players=3, target=12, die=3, max_turns=4)
    state = game.new_initial_state()
    play(state, [1, 2, 1, 2, 0])        # seat 0 banks 6
    play(state, [1, 2, 1, 1, 1, 1, 0])  # seat 1 banks 7
    play(state, [1, 0])                 # seat 2 rolls a one
    play(state, [1, 2])                 # seat 0: turn total 3, last turn
    assert state.current_player() == 0 and state.scores() == [6, 7, 0]
    exact = child_values(state)
    assert exact[0] == [1.0, 0.0, 0.0] and exact[1][0] < 1.0
    r = mcts_search(state, iterations=BUDGET[backend], seed=3, backend=backend)
    assert r.action == 0
    for vec in r.value_vectors:
        assert len(vec) == 3 and sum(vec) == pytest.approx(1.0)


def test_three_players_on_a_hidden_card_game_give_win_shares():
    state = HighCard(players=3).new_initial_state(seed=9)
    state.apply_seeded_chance()
    r = mcts_search(state, iterations=5000, seed=1)
    assert sorted(r.actions) == state.legal_actions()
    for vec in r.value_vectors:
        assert sum(vec) == pytest.approx(1.0)


def two_deals_alike_for_seat_0():
    """Two HighCard states that differ only in the cards seat 0 cannot see."""
    game = HighCard(players=2, hand=3, extra=2)   # cards 0..7
    # deals alternate: seat 0, seat 1, ...
    a = play(game.new_initial_state(), [7, 6, 4, 5, 2, 3])   # seat 1: 6 5 3, out: 0 1
    b = play(game.new_initial_state(), [7, 6, 4, 1, 2, 0])   # seat 1: 6 1 0, out: 3 5
    assert a.information_state(0) == b.information_state(0)
    assert a.information_state(1) != b.information_state(1)
    return a, b


@pytest.mark.parametrize("backend", BACKENDS)
def test_ismcts_never_reads_hidden_cards(backend):
    a, b = two_deals_alike_for_seat_0()
    n = BUDGET[backend] // 4
    ra = mcts_search(a, iterations=n, seed=21, backend=backend)
    rb = mcts_search(b, iterations=n, seed=21, backend=backend)
    assert (ra.actions, ra.visits, ra.values) == (rb.actions, rb.visits, rb.values)
    # The same search reading the true deal does tell the states apart,
    # so the equality above is not an accident of the position.
    pa = mcts_search(a, iterations=n, seed=21, backend=backend, determinize=False)
    pb = mcts_search(b, iterations=n, seed=21, backend=backend, determinize=False)
    assert (pa.visits, pa.values) != (pb.visits, pb.values)


class PeekState:
    """A small game where hidden and seen draws follow a decision: seat 0
    bets 0 or 1; chance deals seat 1 a card 0..5 face down; seat 1 folds (0)
    or calls (1); chance turns a public card 0..5 face up. A call pays the
    higher of the seat's card and the public card against the bet."""

    class game:
        num_players = 2

    def __init__(self):
        self.history = []

    def clone(self):
        other = PeekState()
        other.history = list(self.history)
        return other

    def current_player(self):
        return (0, -1, 1, -1, -4)[len(self.history)]

    def is_chance_node(self):
        return self.current_player() == -1

    def is_terminal(self):
        return len(self.history) == 4

    def legal_actions(self):
        return list(range(6)) if self.is_chance_node() else [0, 1]

    def chance_outcomes(self):
        return [(c, 1 / 6) for c in range(6)]

    def apply_action(self, action):
        assert action in self.legal_actions()
        self.history.append(action)

    def action_observation(self, action, player):
        return -2 if len(self.history) == 1 and player == 0 else action

    def returns(self):
        bet, card, call, public = self.history
        gain = (max(card, public) / 5 - 0.5 - bet / 4) if call else 0.0
        return [-gain, gain]


def test_a_hidden_draw_is_one_node_a_seen_draw_one_per_card():
    # Seat 0 searches: under each of its bets the face-down deal to seat 1
    # has one child (what seat 0 sees), however many cards were drawn there;
    # the face-up card below has one child per card.
    search = MCTS(PeekState(), seed=3)
    search.run(iterations=3000)
    assert sorted(search.root.children) == [0, 1]
    for bet in search.root.children.values():
        assert list(bet.children) == [-2] and bet.visits > 100
        hidden = bet.children[-2]
        assert sorted(hidden.children) == [0, 1]          # seat 1's fold and call, seen
        for reply in hidden.children.values():
            if reply.visits >= 30:
                assert sorted(reply.children) == list(range(6))


@pytest.mark.parametrize("backend", BACKENDS)
def test_same_seed_same_search_other_seed_other_search(backend):
    state = HighCard(players=3).new_initial_state(seed=4)
    state.apply_seeded_chance()
    n = BUDGET[backend] // 4
    r1 = mcts_search(state, iterations=n, seed=8, backend=backend)
    r2 = mcts_search(state, iterations=n, seed=8, backend=backend)
    r3 = mcts_search(state, iterations=n, seed=9, backend=backend)
    assert (r1.actions, r1.visits, r1.values) == (r2.actions, r2.visits, r2.values)
    assert (r1.visits, r1.values) != (r3.visits, r3.values)


def test_search_leaves_the_state_alone():
    state = HighCard(players=2).new_initial_state(seed=3)
    state.apply_seeded_chance()
    before = (state.clone(), list(state.history))
    for backend in BACKENDS:
        mcts_search(state, iterations=300, seed=1, backend=backend)
    assert state == before[0] and state.history == before[1]


def test_run_continues_and_stop_interrupts_from_another_thread():
    game = Pig(players=2, target=30, die=6, max_turns=40)
    state = game.new_initial_state()
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
    first = search.run(iterations=100)
    assert first["iterations"] == 100
    assert search.run(iterations=50)["iterations"] == 150
    out = {}
    worker = threading.Thread(target=lambda: out.update(search.run(time=60.0)))
    started = time.perf_counter()
    worker.start()
    time.sleep(0.2)
    search.stop()
    worker.join(10.0)
    assert not worker.is_alive()
    assert time.perf_counter() - started < 10.0
    assert out["iterations"] > 150 and out["action"] in (0, 1)


@pytest.mark.parametrize("backend", BACKENDS)
def test_stop_before_run_returns_at_once_then_searching_resumes(backend):
    state = Pig(players=2, target=30, die=6, max_turns=40).new_initial_state()
    search = make_search(state, backend=backend, seed=1)
    search.stop()
    assert search.run(iterations=100).iterations == 0
    assert search.run(iterations=100).iterations == 100


def test_one_run_at_a_time():
    game = Pig(players=2, target=30, die=6, max_turns=40)
    state = game.new_initial_state()
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
    worker = threading.Thread(target=lambda: search.run(time=30.0))
    worker.start()
    time.sleep(0.1)
    try:
        with pytest.raises(SolversError, match="running"):
            search.run(iterations=10)
        with pytest.raises(SolversError, match="running"):
            search.result()
    finally:
        search.stop()
        worker.join(10.0)
    assert search.result()["iterations"] > 0


def test_time_budget_ends_the_search():
    state = Pig(players=2, target=30, die=6, max_turns=40).new_initial_state()
    started = time.perf_counter()
    r = mcts_search(state, time=0.2, seed=1)
    assert 0.15 < time.perf_counter() - started < 2.0
    assert r.iterations > 0 and r.seconds == pytest.approx(0.2, abs=0.1)


def test_python_search_stops_and_continues():
    state = Pig(players=2, target=30, die=6, max_turns=40).new_initial_state()
    search = make_search(state, backend="python", seed=1)
    assert isinstance(search, MCTS)
    assert search.run(iterations=20).iterations == 20
    assert search.run(iterations=10).iterations == 30


def test_node_pool_is_bounded():
    game = HighCard(players=3)
    state = game.new_initial_state(seed=2)
    state.apply_seeded_chance()
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, max_nodes=50,
                          owner=game)
    r = search.run(iterations=20000)
    assert r["nodes"] == 50 and search.nodes_used == 50
    # the node pool holds exactly max_nodes nodes; the edge pool (children
    # lists, in blocks up to half again as long as their lists) comes on top
    assert 50 * cmcts.NODE_BYTES < search.memory_bytes <= 50 * (cmcts.NODE_BYTES + 4 * cmcts.EDGE_BYTES)
    assert search._check_tree() == 50
    assert r["action"] in state.legal_actions() and sum(r["visits"]) == 20000


def test_python_node_bound():
    state = HighCard(players=3).new_initial_state(seed=2)
    state.apply_seeded_chance()
    r = make_search(state, backend="python", seed=1, max_nodes=20).run(iterations=500)
    assert r.nodes == 20 and sum(r.visits) == 500


def test_one_new_node_per_iteration_at_most():
    game = Pig(players=2, target=30, die=6, max_turns=40)
    state = game.new_initial_state()
    r = mcts_search(state, iterations=1000, seed=1)
    assert 1 < r.nodes <= 1001


def test_rollout_cap_uses_returns_where_the_rollout_stops():
    # Pig returns 0 for everyone before the end: with 1-ply rollouts from a
    # long game every value stays 0.
    state = Pig(players=2, target=50, die=6, max_turns=60).new_initial_state()
    r = mcts_search(state, iterations=200, seed=1, rollout_plies=1)
    assert all(v == 0.0 for v in r.values)
    r = mcts_search(state, iterations=200, seed=1)
    assert any(v > 0.0 for v in r.values)


def test_random_rollout_evaluator_reaches_the_end():
    state = HighCard(players=3).new_initial_state(seed=1)
    value = RandomRolloutEvaluator().evaluate(state.clone(), SplitMix64(1))
    assert sum(value) == pytest.approx(1.0)
    assert RandomRolloutEvaluator(rollout_plies=2).evaluate(state.clone(), SplitMix64(1)) == [0.0] * 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_bad_roots_and_budgets_raise(backend):
    game = TicTacToe()
    over = play(game.new_initial_state(), [0, 3, 1, 4, 2])
    assert over.is_terminal()
    with pytest.raises(SolversError, match="over"):
        mcts_search(over, iterations=10, backend=backend)
    chance = Pig().new_initial_state()
    chance.apply_action(1)
    with pytest.raises(SolversError, match="chance"):
        mcts_search(chance, iterations=10, backend=backend)
    fresh = game.new_initial_state()
    for bad in [{}, {"iterations": -1}, {"iterations": 2.5}, {"time": -1}, {"iterations": True}]:
        with pytest.raises(SolversError):
            mcts_search(fresh, backend=backend, **bad)
    with pytest.raises(SolversError):
        mcts_search(fresh, iterations=10, c=-1.0, backend=backend)


def test_bad_capsules_and_options_raise():
    game = TicTacToe()
    state = game.new_initial_state()
    with pytest.raises(SolversError, match="GameDef"):
        cmcts.Search(state._state_capsule(), state._state_capsule())
    with pytest.raises(SolversError, match="State"):
        cmcts.Search(game._gamedef_capsule(), game._gamedef_capsule())
    with pytest.raises(SolversError):
        cmcts.Search(game._gamedef_capsule(), state._state_capsule(), max_nodes=0)
    with pytest.raises(SolversError, match="backend"):
        make_search(state, backend="gpu")
    with pytest.raises(SolversError, match="no C tables"):
        make_search(_PurePython(state), backend="c")


class _PurePython:
    """A toy state seen only through the Python interface (no capsules)."""

    def __init__(self, inner):
        self._inner = inner
        self.game = inner.game

    def __getattr__(self, name):
        if name in ("_state_capsule", "resample", "action_observation"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def clone(self):
        return _PurePython(self._inner.clone())


def test_python_fallback_without_resample_treats_the_state_as_visible():
    a, b = two_deals_alike_for_seat_0()
    ra = mcts_search(_PurePython(a), iterations=600, seed=4)
    rb = mcts_search(_PurePython(b), iterations=600, seed=4)
    assert ra.backend == "python"
    assert sorted(ra.actions) == a.legal_actions()
    assert (ra.visits, ra.values) != (rb.visits, rb.values)


@pytest.mark.parametrize("make", [TicTacToe, lambda: Pig(players=3), lambda: HighCard(players=3)])
def test_toy_games_keep_the_state_contract(make):
    """The toys stand in for real kernels, so they must follow the contract."""
    game = make()
    rng = SplitMix64(17)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            before = state.clone()
            with pytest.raises(SolversError):
                state.apply_action(10_000)
            assert state == before
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                assert state.seeded_outcome() in [a for a, _ in outcomes]
                state.apply_action(state.seeded_outcome())
                continue
            p = state.current_player()
            view = state.information_state(p)
            other = state.resample(p, rng)
            assert other.information_state(p) == view and other.legal_actions() == state.legal_actions()
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
        assert len(state.history) <= game.max_game_length()
        assert sum(state.returns()) == pytest.approx(1.0 if game.num_players > 1 else state.returns()[0])


def test_high_card_resample_changes_only_hidden_cards():
    state = HighCard(players=3).new_initial_state(seed=3)
    state.apply_seeded_chance()
    rng = SplitMix64(1)
    views = {p: state.information_state(p) for p in range(3)}
    samples = [state.resample(0, rng) for _ in range(10)]
    assert all(s.information_state(0) == views[0] for s in samples)
    assert any(s.information_state(1) != views[1] for s in samples)
    with pytest.raises(TypeError):
        type(state)()


def player_counts(name):
    """The seat counts ``name`` accepts (probed: a game refuses the others)."""
    import solvers
    counts = []
    for players in range(1, 9):
        try:
            solvers.load_game(name, players=players)
        except SolversError:
            continue
        counts.append(players)
    return counts


def _observation_cases():
    """Every library game at every seat count, kernel and reference, and the
    toy games of the C tables; with the number of random games to walk."""
    import solvers
    for name in solvers.game_names():
        for players in player_counts(name):
            for reference in (False, True):
                game = solvers.load_game(name, players=players, reference=reference)
                if hasattr(game.new_initial_state(seed=0), "action_observation"):
                    yield pytest.param(game, 2, id=f"{name}-{players}p{'-ref' if reference else ''}")
    yield pytest.param(HighCard(players=3), 20, id="highcard")
    yield pytest.param(Pig(players=2, target=30, die=6, max_turns=40), 20, id="pig")
    yield pytest.param(TicTacToe(), 20, id="tictactoe")


def check_observations(state, public_decisions):
    """At one node: for each observer q and legal actions a, b, the keys
    ``action_observation(a, q)`` and ``(b, q)`` are equal exactly when the
    two actions leave ``information_state(q)`` equal. The seat making a
    decision is the exception one way: it sees its own move, so it may tell
    apart two moves that its (memoryless) information state later confuses,
    never the other way round. With ``public_decisions`` every decision is
    seen as itself by everyone."""
    legal = state.legal_actions()
    mover = state.current_player()
    after = []
    for a in legal:
        child = state.clone()
        child.apply_action(a)
        after.append(child)
    for q in range(state.game.num_players):
        keys = [state.action_observation(a, q) for a in legal]
        if public_decisions and not state.is_chance_node():
            assert keys == legal, (q, state.history)
        views = [child.information_state(q) for child in after]
        for i in range(len(legal)):
            for j in range(i):
                same_view, same_key = views[i] == views[j], keys[i] == keys[j]
                if same_view and not same_key and q == mover:
                    continue
                assert same_view == same_key, (
                    f"seat {q}: {legal[j]} and {legal[i]} leave its information state "
                    f"{'equal' if same_view else 'different'}, keys {keys[j]} and {keys[i]}",
                    state.history)


@pytest.mark.parametrize("game, games", list(_observation_cases()))
def test_action_observation_matches_information_state(game, games):
    """A key is what the observer learns: checked against
    ``information_state`` at every node of random games (chance included),
    and the ``public_decisions`` flag of the C tables against the keys."""
    capsule = getattr(game, "_gamedef_capsule", None)
    public = bool(capsule and cmcts.gamedef_flags(capsule())["public_decisions"])
    rng = SplitMix64(3)
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            check_observations(state, public)
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])


@pytest.mark.parametrize("iterations", [1, 500, 60_000])
def test_tree_links_hold_as_edge_blocks_grow_and_move(iterations):
    # 60 000 Switchbacks iterations grow some children lists to ~50 entries
    # through every block size and compact the edge pool on the way.
    import solvers
    game = solvers.load_game("switchbacks", players=2)
    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    # (uniformly random rollouts: their wider trees are the ones that compact)
    search = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=2, owner=game,
                          rollout="random")
    r = search.run(iterations=iterations)
    assert search._check_tree() == search.nodes_used == r["nodes"] <= iterations + 1
    assert sum(r["visits"]) == iterations
    assert (search._compactions > 0) == (iterations > 10_000)
    assert search.memory_bytes >= search.nodes_used * (cmcts.NODE_BYTES + cmcts.EDGE_BYTES)
    again = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=2, owner=game,
                         rollout="random")
    assert again.run(iterations=iterations) | {"seconds": 0} == r | {"seconds": 0}


def test_playout_hook_serves_every_rollout_mode():
    import solvers
    game = solvers.load_game("switchbacks", players=2)
    assert cmcts.gamedef_flags(game._gamedef_capsule())["playout"]
    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    for kw in ({}, {"rollout": "random"}, {"rollout": "own"}, {"rollout_plies": 4}):
        r = cmcts.Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game,
                         **kw).run(iterations=3000)
        assert r["action"] in state.legal_actions() and sum(r["visits"]) == 3000


def test_rollout_modes_name_who_plays_the_policy():
    import solvers
    from solvers.search.mcts import ROLLOUTS, make_search

    assert ROLLOUTS == cmcts.ROLLOUTS
    sb = solvers.load_game("switchbacks", players=2)
    state = sb.new_initial_state(seed=4)
    state.apply_seeded_chance()
    runs = {mode: mcts_search(state, iterations=2000, seed=3, rollout=mode) for mode in ROLLOUTS}
    assert len({tuple(r.visits) for r in runs.values()}) == 3      # three different searches
    assert tuple(mcts_search(state, iterations=2000, seed=3).visits) == tuple(runs["own"].visits)
    assert solvers.load_agent("mcts", sb).rollout == "own" == sb.default_rollout
    # one player: "own" is every seat
    solo = solvers.load_game("c2c", players=1)
    state = solo.new_initial_state(seed=2)
    state.apply_seeded_chance()
    a, b = (mcts_search(state, iterations=1500, seed=9, rollout=m) for m in ("own", "policy"))
    assert (a.actions, a.visits, a.values) == (b.actions, b.visits, b.values)
    assert solvers.load_agent("mcts", solo).rollout == "policy"
    for bad in ("greedy", "", 3):
        with pytest.raises(SolversError):
            make_search(state, rollout=bad)
        with pytest.raises(SolversError):
            solvers.load_agent("mcts", solo, rollout=bad)
    with pytest.raises(SolversError):
        cmcts.Search(solo._gamedef_capsule(), state._state_capsule(), owner=solo, rollout="most")


@pytest.mark.parametrize("backend", ["c", "python"])
def test_the_game_names_the_exploration_constant_when_the_caller_does_not(backend, monkeypatch):
    import solvers
    from solvers.agents.searching import MCTSAgent

    game = solvers.load_game("switchbacks", reference=(backend == "python"))
    state = game.new_initial_state(seed=3)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())

    def visits(**kw):
        r = mcts_search(state, iterations=300, seed=5, backend=backend, **kw)
        return list(zip(r.actions, r.visits))

    assert visits() == visits(c=1.4)                   # no game sets its own: UCB's usual 1.4
    monkeypatch.setattr(type(game), "default_c", 0.2)
    assert visits() == visits(c=0.2) != visits(c=1.4)  # the control: c changes the search
    assert MCTSAgent(game).c == 0.2 and MCTSAgent(game, c=2).c == 2.0
