"""The strong Coast to Coast player (pimc): legal, deterministic, blind to
unrevealed cards, never above hindsight."""

import pytest

import solvers
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.games.c2c.deal import shuffle_deal
from solvers.optimize.c2c import hindsight_optimum

SMALL = dict(samples=6, width=8, refine=6, keep=2)


def play(game, deal, seed, **options):
    """Play ``deal`` (None: the seeded deal of ``seed``) with a fresh pimc
    agent in every seat; (moves in words, final state)."""
    agent = load_agent("pimc", game, seed=seed, **{**SMALL, **options})
    state = game.state_from_deal(deal) if deal is not None else game.new_initial_state(seed=seed)
    moves = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            action = agent.step(state)
            assert action in state.legal_actions()
            moves.append(state.action_to_string(action))
            state.apply_action(action)
    return moves, state


def test_legal_and_deterministic_for_a_seed():
    game = solvers.load_game("c2c", challenge="The Alamo")
    deal = shuffle_deal("The Alamo", 5)
    first, _ = play(game, deal, seed=3)
    again, _ = play(game, deal, seed=3)
    assert first == again
    other = [play(game, deal, seed=s)[0] for s in (4, 5, 6)]
    assert any(o != first for o in other)      # the seed matters


def _decisions_until(game, deal, agent, last_round):
    """The agent's moves on ``deal`` while the round is at most ``last_round``."""
    state = game.state_from_deal(deal)
    moves = []
    while not state.is_terminal() and state.round <= last_round:
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            action = agent.step(state)
            moves.append(state.action_to_string(action))
            state.apply_action(action)
    return moves


@pytest.mark.parametrize("challenge", [None, "Wrigley Field"])
def test_never_sees_an_unrevealed_card(challenge):
    # Two deals that agree on the setup and rounds 1-2 and differ in every
    # later card's place (and in which cards come at all): the moves of the
    # first three rounds must be identical.
    game = solvers.load_game("c2c", challenge=challenge)
    deal = shuffle_deal(challenge, 8)
    unused = [c for c in game.deck if c not in deal]
    other = deal[:12] + unused[:2] + list(reversed(deal[12:]))[:10]
    assert len(set(other)) == 24 and other[:12] == deal[:12] and other[12:] != deal[12:]
    a = _decisions_until(game, deal, load_agent("pimc", game, seed=1, **SMALL), 2)
    b = _decisions_until(game, other, load_agent("pimc", game, seed=1, **SMALL), 2)
    assert len(a) >= 5 and a == b


@pytest.mark.parametrize("challenge,seed", [(None, 2), (None, 7), ("The Alamo", 1),
                                            ("Gateway Arch", 4)])
def test_never_beats_hindsight(challenge, seed):
    game = solvers.load_game("c2c", challenge=challenge)
    deal = shuffle_deal(challenge, seed)
    _, state = play(game, deal, seed=0, samples=12, width=16)
    best = hindsight_optimum(deal, challenge=challenge, time_limit=60)
    assert best.status in ("optimal", "infeasible")
    score = state.returns()[0]
    if challenge is None:
        assert score <= best.score
    elif state.challenge_won():
        assert best.won and score <= best.score
    # and the player is not absurd: within 25 points of the clairvoyant
    if best.score is not None and (challenge is None or state.challenge_won()):
        assert score >= best.score - 25


def test_plays_several_players():
    moves, state = play(solvers.load_game("c2c", players=3), None, seed=2)
    assert len(state.scores()) == 3 and len(moves) > 3 * 20


def test_refuses_other_games_and_bad_options():
    with pytest.raises(SolversError):
        load_agent("pimc", solvers.load_game("switchbacks", players=2))
    with pytest.raises(SolversError):
        load_agent("pimc", solvers.load_game("c2c"), samples=0)


@pytest.mark.parametrize("by_round", [False, True])
def test_sampled_outcomes_match_the_beam_on_a_known_future(by_round):
    # In the last round the future holds no card: the per-move beam is an
    # exhaustive search of the round, so each move's value is the best
    # finish after it, checked here by brute force over the round's moves.
    game = solvers.load_game("c2c")
    state = game.new_initial_state(seed=6)
    while not (state.round == 5 and state.step == "cross" and not state.is_chance_node()):
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(state.legal_actions()[-1])

    def best_finish(s):
        if s.is_terminal():
            return s.returns()[0]
        best = -1
        for a in s.legal_actions():
            t = s.clone()
            t.apply_action(a)
            best = max(best, best_finish(t))
        return best

    actions = state.legal_actions()
    got = state.sampled_outcomes(actions, 2, 4096, seed=0, by_round=by_round)
    for a, row in zip(actions, got):
        t = state.clone()
        t.apply_action(a)
        assert list(row) == [best_finish(t)] * 2


# Wrigley Field, seeded shuffle 17 of seed 0 (solvers.optimize.c2c.ceiling):
# hindsight wins it; MCTS (mcts:iterations=2000, the online player before
# pimc) loses it on every seed tried, pimc wins it.
FORESIGHT_DEAL = [
    "Empire State Building", "Golden Gate Bridge", "Mount Rushmore", "Niagara Falls",
    "Great Smoky Mountains", "Children's Museum of Indianapolis", "Beale Street", "Chase Field",
    "College World Series", "Disney World", "Negro Leagues Baseball Museum", "Oklahoma City Zoo",
    "Cedar Point", "Yellowstone National Park", "Great Salt Lake", "Gateway Arch",
    "Bourbon Street", "Space Needle", "Gulf Shores", "Little League World Series",
    "Baseball Hall of Fame", "Phipps Conservatory and Botanical Gardens", "Pike's Peak",
    "Freedom Trail",
]


def test_wins_a_challenge_deal_that_mcts_loses():
    from solvers.games.c2c.deal import parse_deal
    from solvers.games.c2c.online import play_deal, strong_online

    game = solvers.load_game("c2c", challenge="Wrigley Field")
    deal = parse_deal(FORESIGHT_DEAL, game.map, game.challenge)
    assert hindsight_optimum(deal, challenge="Wrigley Field", objective=False).won
    for seed in (0, 1, 2):
        assert play_deal(game.map, game.challenge, deal, "mcts:iterations=2000", seed)[0] is False
    for seed in (0, 1):
        won, _ = play_deal(game.map, game.challenge, deal, "pimc:samples=8,width=16,refine=16,keep=2",
                           seed)
        assert won
    # The strong player of solo challenges (MCTS with ten times the iterations) wins it too.
    for seed in (0, 1):
        assert play_deal(game.map, game.challenge, deal, strong_online(challenge=True), seed)[0]
