"""The online player against the hindsight optimum on the same shuffles."""

from solvers.games.c2c.data import load_map
from solvers.games.c2c.deal import shuffle_deals
from solvers.games.c2c.online import online_results, play_deal
from solvers.optimize.c2c import ceiling, hindsight_optimum

MAP = load_map()


def test_online_never_beats_hindsight():
    ch = MAP.location("Baseball Hall of Fame").id
    n, seed = 6, 3
    online = online_results(MAP, ch, shuffles=n, seed=seed, workers=1,
                            agent_spec="mcts:iterations=300")
    ceil = ceiling(ch, shuffles=n, seed=seed, workers=1)
    deals = shuffle_deals(MAP, ch, n, seed)
    for i, outcome in enumerate(ceil.outcomes):
        assert outcome.deal == deals[i]
        if online.won[i]:
            assert outcome.won is True
            best = hindsight_optimum(deals[i], challenge=ch)
            assert best.status == "optimal"
            assert online.scores[i] <= best.score
    assert online.wins <= ceil.won


def test_online_play_is_seeded():
    ch = MAP.location("The Alamo").id
    deal = shuffle_deals(MAP, ch, 1, 9)[0]
    a = play_deal(MAP, ch, deal, "mcts:iterations=200", seed=5)
    b = play_deal(MAP, ch, deal, "mcts:iterations=200", seed=5)
    assert a == b
