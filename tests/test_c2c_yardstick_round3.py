"""The round-3 yardstick of solo Coast to Coast (sampled round-4 hands).

Checked against an independent valuation: the round-3 ends walked move by
move through the legal moves (``review.round_ends``, not the kernel's
``round_ends``), each candidate's round-4 hands dealt from the same seeds,
every round-4 end found by the same plain walk and valued by the kernel's
exact last-round expectation of that sheet (``last_round_value``, checked
against a brute force over every hand elsewhere), not by ``end_values``.
"""

from __future__ import annotations

import json
import random

import pytest

import solvers
from solvers.agents import load_agent
from solvers.agents.c2c_online import end_key, load_values
from solvers.errors import SolversError
from solvers.games.c2c.data import load_map
from solvers.games.c2c.deal import shuffle_deals
from solvers.games.c2c.review import round_ends as walked_ends
from solvers.games.c2c.values import builtin_file, deal_hand
from solvers.games.c2c.yardstick import RoundThreeJob, hand_seed, round_three_yardstick

MAP = load_map()


def masks(key):
    return tuple(sum(1 << i for i in part) for part in key)


def independent_position(deal, seed, spec, hands, candidates, challenge=None):
    """(best's and player's values on the second half of the hands, the
    number of round-3 ends), computed without ``end_values`` or the
    kernel's ``round_ends``."""
    game = solvers.load_game("c2c", players=1, challenge=challenge)
    kind, _, rest = spec.partition(":")
    options = dict(o.split("=") for o in rest.split(",") if o)
    options = {k: int(v) if v.isdigit() else v for k, v in options.items()}
    agent = load_agent(kind, game, seed=seed, **options)
    state = game.state_from_deal(deal)
    while state.is_chance_node() or state.round < 3:
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    ends = walked_ends(state)                        # {frozensets: (before, move, end state)}
    keys = sorted(masks(k) for k in ends)
    by_mask = {masks(k): v[2] for k, v in ends.items()}
    learned = load_values(game, "default").of_round(state, keys)
    ch = challenge is not None
    ranked = sorted(range(len(keys)), key=lambda i: end_key(*learned[i], ch), reverse=True)
    cands = [keys[i] for i in ranked[:candidates]]
    while not state.is_chance_node() and state.round == 3:
        state.apply_action(agent.step(state))
    sheet = state.sheets[0]
    mine = masks((sheet.circled, sheet.crossed, sheet.exact))
    if mine not in cands:
        cands.append(mine)
    halves = {}
    for end in cands:
        values = []
        for j in range(2 * hands):
            dealt = deal_hand(by_mask[end], random.Random(hand_seed(seed, j)))
            round4 = walked_ends(dealt)
            values.append(max((s.last_round_value(None) for _, _, s in round4.values()),
                              key=lambda v: end_key(v[0], v[1], ch)))
        a, b = values[:hands], values[hands:]
        halves[end] = ([sum(x) / hands for x in zip(*a, strict=True)], [sum(x) / hands for x in zip(*b, strict=True)])
    best = max(cands, key=lambda e: end_key(*halves[e][0], ch))
    return halves[best][1], halves[mine][1], len(keys)


@pytest.mark.parametrize("index", [0, 1])
def test_a_position_matches_an_independent_valuation(index):
    deal = shuffle_deals(MAP, None, 2, 0)[index]
    job = RoundThreeJob(MAP, None, "mcts:iterations=200", hands=2, candidates=2, values="default")
    got = job((index, deal, 11 + index))
    best, mine, n_ends = independent_position(deal, 11 + index, "mcts:iterations=200", 2, 2)
    assert got.ends == n_ends
    assert (got.best_win, got.best_points) == pytest.approx(tuple(best), abs=1e-9)
    assert (got.win, got.points) == pytest.approx(tuple(mine), abs=1e-9)


def test_the_same_hands_meet_every_candidate():
    """Common random numbers: after round 3 the unseen cards do not depend
    on the end chosen, so a hand seed deals the same four cards to each."""
    game = solvers.load_game("c2c", players=1)
    state = game.state_from_deal(shuffle_deals(MAP, None, 1, 3)[0])
    agent = load_agent("random", game, seed=1)
    while state.is_chance_node() or state.round < 3:
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    from solvers.games.c2c.values import walk_to
    ends = [e for e, _ in state.round_ends()]
    hands = set()
    for end in (ends[0], ends[-1]):
        dealt = deal_hand(walk_to(state, end), random.Random(hand_seed(5, 0)))
        hands.add(frozenset(dealt.order[dealt.pos - 4:dealt.pos]))
    assert ends[0] != ends[-1] and len(hands) == 1
    # control: another hand seed deals another hand
    other = deal_hand(walk_to(state, ends[0]), random.Random(hand_seed(5, 1)))
    assert frozenset(other.order[other.pos - 4:other.pos]) not in hands


def test_a_weak_player_loses_more_than_the_learned_one():
    """The yardstick tells players apart: uniformly random round-3 moves
    lose more than the learned player's on the same deals and hands."""
    weak = round_three_yardstick(MAP, None, "random", 2, seed=4, hands=1, candidates=2)
    learned = round_three_yardstick(MAP, None, "online:early=report,learned=4", 2, seed=4,
                                    hands=1, candidates=2)
    assert weak.positions == learned.positions == 2
    assert weak.loss_points > learned.loss_points + 1.0
    assert learned.optimal >= 1


def a_challenge_without_values() -> str:
    """A challenge card whose learned values the package does not ship
    (picked, not named: the shipped list grows)."""
    return next(loc.name for loc in MAP.locations if builtin_file(MAP, loc.id) is None)


def test_bad_input_is_one_error():
    with pytest.raises(SolversError, match="hands"):
        round_three_yardstick(MAP, None, "random", 1, hands=0)
    with pytest.raises(SolversError, match="no learned values ship"):
        round_three_yardstick(MAP, a_challenge_without_values(), "random", 1)


def test_the_cli_round_three(capsys):
    from cli_helpers import one_error_line, run

    code, out, err = run(capsys, "c2c", "yardstick", "--round", "3", "--player", "random",
                         "--positions", "1", "--hands", "1", "--candidates", "1", "--workers", "1",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["round"] == 3 and data["hands"] == 1 and data["positions"] == 1
    code, _, err = run(capsys, "c2c", "yardstick", "--round", "3", "-c", a_challenge_without_values())
    assert code == 2 and "--values FILE" in one_error_line(err)
