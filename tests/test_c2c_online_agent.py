"""Coast to Coast's online player (solvers.agents.c2c_online): exact in the
last two rounds, checked against a brute-force walk over legal moves; the
same as its early agent before them; bad options refused in one line."""

from __future__ import annotations

import pytest

import solvers
from solvers.errors import SolversError
from solvers.games.c2c.deal import shuffle_deals
from solvers.games.c2c.online import play_deal
from solvers.games.c2c.review import round_ends


def _at_round(game, seed, rnd):
    state = game.new_initial_state(seed=seed)
    agent = solvers.load_agent("mcts", game, iterations=100, seed=seed)
    while state.is_chance_node() or state.round < rnd:
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    return state


def _finish_round(state, agent):
    r = state.round
    while not state.is_terminal() and not state.is_chance_node() and state.round == r:
        state.apply_action(agent.step(state))
    return state


@pytest.mark.parametrize("challenge", [None, "Wrigley Field"])
def test_the_last_round_is_played_best(challenge):
    """In round 5 the player ends with the best sheet its cards allow (a
    win first, then the rulebook's points: none for a lost challenge),
    found here by walking every legal line of the round."""
    game = solvers.load_game("c2c", challenge=challenge)

    def value(end):
        won = int(bool(end.challenge_won())) if challenge else 1
        return won, won * end.scores()[0]

    # (with the challenge, seeds 6 and 11 reach round 5 with some ends that
    # complete it and some that do not)
    for seed in (1, 2, 6, 11):
        state = _at_round(game, seed, 5)
        best = max(value(end) for _, _, end in round_ends(state).values())
        end = _finish_round(state.clone(), solvers.load_agent("online", game, early="report", seed=0))
        assert value(end) == best


def test_round_four_takes_the_end_of_the_best_exact_value():
    game = solvers.load_game("c2c")
    state = _at_round(game, 4, 4)
    agent = solvers.load_agent("online", game, early="report", seed=0)
    values = {end: points for end, _, _, points in state.end_values()}
    best = max(values.values())
    rows = agent.analyse(state)
    assert rows[0]["action"] == agent.step(state)
    assert rows[0]["value"] == pytest.approx(best)
    assert [r["value"] for r in rows] == sorted((r["value"] for r in rows), reverse=True)
    end = _finish_round(state.clone(), agent)
    sheet = end.sheets[0]
    key = tuple(sum(1 << i for i in s) for s in (sheet.circled, sheet.crossed, sheet.exact))
    assert values[key] == pytest.approx(best)
    # control: the ends are not all of one value, so the choice mattered
    assert min(values.values()) < best


def test_before_the_exact_rounds_it_plays_as_its_early_agent():
    """Paired: the same seed gives the early agent's very game when no
    round is exact, and the same moves up to round 4 otherwise."""
    m = solvers.load_game("c2c").map
    deals = shuffle_deals(m, None, 3, 5)
    for i, deal in enumerate(deals):
        alone = play_deal(m, None, deal, "mcts:iterations=300", i)
        assert play_deal(m, None, deal, "online:early=report,exact=0", i) == \
            play_deal(m, None, deal, "mcts:iterations=2000", i)
        assert alone is not None
    game = solvers.load_game("c2c")
    a = solvers.load_agent("online", game, early="report", seed=4)
    b = solvers.load_agent("mcts", game, iterations=2000, seed=4)
    state = game.state_from_deal(deals[0])
    while state.is_chance_node() or state.round < 4:
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        move = a.step(state)
        assert move == b.step(state)
        state.apply_action(move)


def test_search_from_hands_the_later_learned_rounds_back_to_the_early_agent():
    """``learned=4,search_from=1``: the setup as the learned player plays it
    (the learned value of the setup's ends), rounds 1-3 as the early agent
    alone would (the same seed, asked only from round 1: its random stream
    then matches), rounds 4-5 exactly. The control: the learned player
    without ``search_from`` plays some decision of rounds 1-3 otherwise,
    so the hand-over is seen."""
    game = solvers.load_game("c2c")
    m = game.map
    differs = 0
    for i, deal in enumerate(shuffle_deals(m, None, 3, 5)):
        mixed = solvers.load_agent("online", game, early="report", learned=4, search_from=1,
                                   seed=i)
        learned = solvers.load_agent("online", game, early="report", learned=4, seed=i)
        early = solvers.load_agent("mcts", game, iterations=2000, seed=i)
        state = game.state_from_deal(deal)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
                continue
            move = mixed.step(state)
            if state.round == 0:
                assert move == learned.step(state)
            elif state.round < 4:
                assert move == early.step(state)
                differs += move != learned.step(state.clone())
            state.apply_action(move)
    assert differs > 0


@pytest.mark.parametrize("options, needle", [
    ({"early": "fast"}, "early should be one of strong, report"),
    ({"exact": 3}, "exact should be 0, 1 or 2"),
    ({"learned": 2, "search_from": 2}, "search_from=2 .* needs learned=3 or more"),
    ({"learned": 4, "search_from": 4}, "search_from should be a whole number from 0 to 3"),
    ({"learned": 4, "search_from": 3, "exact_hands": 8}, "no search_from"),
])
def test_bad_options_are_one_error(options, needle):
    with pytest.raises(SolversError, match=needle):
        solvers.load_agent("online", solvers.load_game("c2c"), **options)


@pytest.mark.parametrize("players", [1, 2])
def test_it_plays_on_the_kernel_only(players):
    with pytest.raises(SolversError, match="Coast to Coast on the kernel"):
        solvers.load_agent("online", solvers.load_game("c2c", players=players, reference=True))


def test_a_stop_reaches_the_early_agent():
    """A stop (the engine's, from another thread) ends the early agent's
    search; the exact rounds are bounded work and finish."""
    import threading
    import time

    game = solvers.load_game("c2c")
    agent = solvers.load_agent("online", game, early="strong", seed=1)
    assert agent.stoppable and not agent.early._stopped
    state = game.new_initial_state(seed=4)
    state.apply_seeded_chance()
    out: list = []
    worker = threading.Thread(target=lambda: out.append(agent.analyse(state)), daemon=True)
    worker.start()
    time.sleep(0.05)
    agent.stop()
    worker.join(5)
    assert not worker.is_alive() and agent.early._stopped
    assert sorted(r["action"] for r in out[0]) == sorted(state.legal_actions())
