"""Agents: the load/parse API, step/analyse contracts, seeds, hidden information."""

import pytest

from solvers._core.toygames import HighCard, Pig, TicTacToe
from solvers.agents import Agent, agent_names, load_agent, parse_agent_spec
from solvers.errors import SolversError, UnknownNameError
from solvers.search import solve_endgame

KINDS = ["random", "greedy", "mcts", "endgame"]
FAST = {"mcts": {"iterations": 300}, "endgame": {"samples": 4}}


def make(kind, game, seed=1, **extra):
    return load_agent(kind, game, seed=seed, **{**FAST.get(kind, {}), **extra})


def play(state, actions):
    for a in actions:
        state.apply_action(a)
    return state


def positions():
    """A decision in each toy: perfect information, chance, hidden cards."""
    ttt = play(TicTacToe().new_initial_state(), [4, 0])
    pig = play(Pig(players=2, target=8, die=3, max_turns=3).new_initial_state(), [1, 2])
    hc = HighCard(players=3).new_initial_state(seed=2)
    hc.apply_seeded_chance()
    return [ttt, pig, hc]


def test_agent_names():
    # The four built-in kinds, Coast to Coast's own pimc (tests/test_c2c_pimc.py)
    # and online (tests/test_c2c_online_agent.py), and OpenSpiel's ISMCTS bot
    # behind the optional extra.
    assert agent_names() == sorted(KINDS + ["online", "openspiel", "pimc"])


@pytest.mark.parametrize("kind", KINDS)
def test_step_and_analyse_contracts(kind):
    for state in positions():
        agent = make(kind, state.game)
        assert isinstance(agent, Agent)
        before = state.clone()
        action = agent.step(state)
        assert action in state.legal_actions()
        rows = agent.analyse(state)
        assert state == before                       # agents never move the state
        assert sorted(r["action"] for r in rows) == state.legal_actions()
        for r in rows:
            assert set(r) == {"action", "move", "value", "visits"}
            assert r["move"] == state.action_to_string(r["action"])
            assert isinstance(r["value"], float) and isinstance(r["visits"], int)
        if kind == "mcts":
            visits = [r["visits"] for r in rows]
            assert visits == sorted(visits, reverse=True)
        if kind in ("greedy", "endgame"):
            values = [r["value"] for r in rows]
            assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("kind", KINDS)
def test_chance_and_terminal_are_not_decisions(kind):
    chance = play(Pig().new_initial_state(), [1])
    agent = make(kind, chance.game)
    with pytest.raises(SolversError, match="chance"):
        agent.step(chance)
    with pytest.raises(SolversError, match="chance"):
        agent.analyse(chance)
    over = play(TicTacToe().new_initial_state(), [0, 3, 1, 4, 2])
    with pytest.raises(SolversError, match="over"):
        make(kind, over.game).step(over)


def self_play(kind, game, seed, **opts):
    state = game.new_initial_state(seed=seed)
    agents = [make(kind, game, seed=seed + p, **opts) for p in range(game.num_players)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(agents[state.current_player()].step(state))
    return state.history


@pytest.mark.parametrize("kind", KINDS)
def test_same_seed_same_game(kind):
    game = HighCard(players=3)
    assert self_play(kind, game, 5) == self_play(kind, game, 5)


def test_seeds_change_random_and_mcts_choices():
    game = HighCard(players=3)
    assert len({tuple(self_play("random", game, s)) for s in range(6)}) > 1
    state = play(Pig(players=2, target=30, die=6, max_turns=40).new_initial_state(), [1, 3])
    runs = {tuple(r["visits"] for r in make("mcts", state.game, seed=s).analyse(state)) for s in range(4)}
    assert len(runs) > 1


def test_greedy_takes_the_best_immediate_score():
    # Pig: with a turn total of 3, holding banks it (+3 now), rolling scores nothing yet.
    state = play(Pig(players=2, target=20, die=3, max_turns=6).new_initial_state(), [1, 2])
    rows = make("greedy", state.game).analyse(state)
    assert [r["action"] for r in rows] == [0, 1]
    assert [r["value"] for r in rows] == [3.0, 0.0]


def test_greedy_breaks_ties_at_random_with_its_seed():
    state = Pig(players=2).new_initial_state()         # turn total 0: hold == roll
    picks = {make("greedy", state.game, seed=s).step(state) for s in range(12)}
    assert picks == {0, 1}
    assert make("greedy", state.game, seed=3).step(state) == make("greedy", state.game, seed=3).step(state)


def two_deals_alike_for_seat_0():
    game = HighCard(players=2, hand=3, extra=2)
    a = play(game.new_initial_state(), [7, 6, 4, 5, 2, 3])
    b = play(game.new_initial_state(), [7, 6, 4, 1, 2, 0])
    assert a.information_state(0) == b.information_state(0)
    assert solve_endgame(a).value != solve_endgame(b).value     # the deals matter
    return a, b


@pytest.mark.parametrize("kind,opts", [
    ("mcts", {}), ("mcts", {"backend": "python"}), ("endgame", {}), ("endgame", {"backend": "python"}),
    ("mcts", {"endgame_plies": 20}),
])
def test_agents_only_use_what_the_player_to_move_knows(kind, opts):
    a, b = two_deals_alike_for_seat_0()
    assert make(kind, a.game, seed=4, **opts).analyse(a) == make(kind, b.game, seed=4, **opts).analyse(b)


def test_endgame_agent_never_loses_tictactoe():
    game = TicTacToe()
    for seed in range(4):
        for seat in (0, 1):
            state = game.new_initial_state()
            players = {seat: make("endgame", game, seed=seed, samples=1), 1 - seat: make("random", game, seed=seed)}
            while not state.is_terminal():
                state.apply_action(players[state.current_player()].step(state))
            assert state.returns()[seat] >= 0.5


def test_mcts_hands_over_to_the_exact_endgame():
    state = play(TicTacToe().new_initial_state(), [4, 0, 8, 2])     # x must block at b1 (1)
    exact = solve_endgame(state, per_action=True)
    rows = make("mcts", state.game, endgame_plies=9, samples=2).analyse(state)
    assert rows[0]["action"] == exact.action == 1
    assert {r["action"]: r["value"] for r in rows} == {a: v[0] for a, v, _ in exact.action_values}
    assert all(r["visits"] == 2 for r in rows)                      # samples, not MCTS visits
    # Too few plies allowed: plain MCTS visits instead.
    rows = make("mcts", state.game, endgame_plies=1).analyse(state)
    assert sum(r["visits"] for r in rows) == 300


def test_mcts_falls_back_when_the_endgame_is_too_large():
    state = Pig(players=2, target=30, die=6, max_turns=40).new_initial_state()
    rows = make("mcts", state.game, endgame_plies=10_000, endgame_nodes=50).analyse(state)
    assert sum(r["visits"] for r in rows) == 300


def late_switchbacks(players, tiles_left_plies=12, seed=4):
    """A Switchbacks decision whose random playouts end within a dozen plies."""
    from solvers import load_game
    from solvers.search.mcts import playout_plies

    state = load_game("switchbacks", players=players).new_initial_state(seed=seed)
    state.apply_seeded_chance()
    k = 0
    while playout_plies(state, 8, 0) > tiles_left_plies:
        legal = state.legal_actions()
        state.apply_action(legal[k % len(legal)])
        k += 7
        state.apply_seeded_chance()
    assert state.current_player() >= 0 and not state.is_terminal()
    return state


def test_switchbacks_with_two_seats_searches_its_last_tiles_exactly_by_default():
    state = late_switchbacks(2)
    timed = make("mcts", state.game, iterations=None, time=1.0)   # (settled in milliseconds)
    assert (timed.endgame_plies, timed.endgame_nodes) == (18, 300_000)
    rows = timed.analyse(state)
    assert all(1 <= r["visits"] <= 8 for r in rows)            # re-deals solved, not MCTS visits
    # Controls: the same position searched by MCTS alone.
    rows = make("mcts", state.game, iterations=None, time=0.05, endgame_plies=0).analyse(state)
    assert sum(r["visits"] for r in rows) > 100
    counted = make("mcts", state.game)                           # an iteration budget: plain MCTS
    assert counted.endgame_plies == 0
    assert sum(r["visits"] for r in counted.analyse(state)) == 300
    assert make("mcts", state.game, iterations=None, time=0.05, backend="python").endgame_plies == 0
    three = late_switchbacks(3)
    assert make("mcts", three.game, iterations=None, time=0.05).endgame_plies == 0


def test_a_time_budget_bounds_the_exact_endgame_search_too():
    # Far from the end with a large node budget the exact search would run
    # for about a minute; at the time budget it gives up (no re-deal solved)
    # and MCTS answers in its own budget.
    import time

    state = late_switchbacks(2, tiles_left_plies=40)
    agent = make("mcts", state.game, iterations=None, time=0.3, endgame_plies=1000,
                 endgame_nodes=50_000_000)
    start = time.perf_counter()
    rows = agent.analyse(state)
    assert time.perf_counter() - start < 10.0
    assert sum(r["visits"] for r in rows) > 8                  # MCTS visits, not re-deals


@pytest.mark.parametrize("backend", ["c", "python"])
def test_mcts_agent_time_budget(backend):
    state = positions()[2]
    agent = make("mcts", state.game, iterations=None, time=0.05, backend=backend)
    assert agent.step(state) in state.legal_actions()


def test_load_agent_errors():
    game = TicTacToe()
    with pytest.raises(UnknownNameError, match="mcts"):
        load_agent("mcst", game)
    with pytest.raises(SolversError, match="unknown option 'iters'"):
        load_agent("mcts", game, iters=3)
    with pytest.raises(SolversError, match="unknown option"):
        load_agent("random", game, iterations=3)
    for bad in [{"iterations": 0}, {"iterations": 1.5}, {"time": -1}, {"c": -0.1}, {"c": "x"},
                {"endgame_plies": -1}, {"backend": "gpu"}, {"samples": 0}]:
        with pytest.raises(SolversError):
            load_agent("mcts", game, **bad)
    for bad in [{"samples": 0}, {"mode": "minimax"}, {"max_nodes": 0}]:
        with pytest.raises(SolversError):
            load_agent("endgame", game, **bad)


def test_parse_agent_spec():
    assert parse_agent_spec("mcts:time=1,c=1.4") == ("mcts", {"time": 1, "c": 1.4})
    assert parse_agent_spec(" Greedy ") == ("greedy", {})
    assert parse_agent_spec("mcts:backend=python, seed=7") == ("mcts", {"backend": "python", "seed": 7})
    assert parse_agent_spec("mcts:time=none") == ("mcts", {"time": None})
    kind, opts = parse_agent_spec("mcts:iterations=50,seed=3")
    assert load_agent(kind, TicTacToe(), **opts).iterations == 50
    for bad in ["", ":x=1", "mcts:time", "mcts:=3", "mcts:c=1,c=2", None]:
        with pytest.raises(SolversError):
            parse_agent_spec(bad)


def test_mcts_agent_on_the_c2c_kernel():
    import solvers

    game = solvers.load_game("c2c", players=2)
    state = game.new_initial_state(seed=3)
    state.apply_seeded_chance()
    agent = load_agent("mcts", game, iterations=500, seed=1)
    rows = agent.analyse(state)
    assert agent.step(state) in state.legal_actions()
    assert sorted(r["action"] for r in rows) == state.legal_actions()
    assert sum(r["visits"] for r in rows) == 500


def test_mcts_agent_never_loses_tictactoe_to_random():
    game = TicTacToe()
    for seed in range(4):
        for seat in (0, 1):
            players = {seat: make("mcts", game, seed=seed, iterations=2000), 1 - seat: make("random", game, seed=seed)}
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(players[state.current_player()].step(state))
            assert state.returns()[seat] >= 0.5
