"""`solve c2c review GAME.json`: a saved game against hindsight and against
the online player's estimate; bad files give one line and exit status 2."""

import json

import pytest

import solvers
from cli_helpers import one_error_line, run
from solvers.agents import load_agent


def played_game(challenge, seed, players=1, stop=None, kind="greedy", **options):
    """A game played by an agent (greedy unless told), as `play --save` writes it."""
    game = solvers.load_game("c2c", players=players, challenge=challenge)
    state = game.new_initial_state(seed=seed)
    agent = load_agent(kind, game, seed=1, **options)
    moves = []
    while not state.is_terminal() and (stop is None or len(moves) < stop):
        action = state.seeded_outcome() if state.is_chance_node() else agent.step(state)
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    record = {"game": "c2c", "players": players, "options": {"challenge": challenge} if challenge else {},
              "seed": seed, "moves": moves}
    return record, state


_REVIEWED: dict = {}


def reviewed(capsys, tmp_path, challenge, seed):
    """The greedy game of ``played_game(challenge, seed)``, its final state and
    ``solve c2c review GAME.json --json --samples 4`` of it (code, stdout,
    stderr): made once per worker, as two tests read the same review (they
    share an xdist group, so one worker runs both)."""
    key = (challenge, seed)
    if key not in _REVIEWED:
        record, final = played_game(challenge, seed)
        path = tmp_path / "reviewed.json"
        path.write_text(json.dumps(record))
        _REVIEWED[key] = record, final, run(capsys, "c2c", "review", path, "--json", "--samples", "4")
    return _REVIEWED[key]


@pytest.mark.parametrize("challenge,seed", [
    ("The Alamo", 3), pytest.param(None, 5, marks=pytest.mark.xdist_group("c2c-review-greedy-5"))])
def test_review_reports_the_hindsight_optimum_of_deal(capsys, tmp_path, challenge, seed):
    record, final, (code, out, err) = reviewed(capsys, tmp_path, challenge, seed)
    assert code == 0, err
    got = json.loads(out)
    assert got["score"] == final.returns()[0]
    # The deal as the cards dealt, written as a deal file for --deal.
    deal = [m[len("deal "):] for m in record["moves"] if m.startswith("deal ")]
    assert got["deal"] == deal and len(deal) == 24
    deal_path = tmp_path / "deal.txt"
    deal_path.write_text("\n".join(deal) + "\n")
    extra = ["--challenge", challenge] if challenge else []
    code, out, err = run(capsys, "c2c", "--deal", deal_path, "--json", *extra)
    assert code == 0, err
    best = json.loads(out)
    assert got["hindsight"]["score"] == best["score"]
    assert got["hindsight"]["won"] == best["won"]
    assert got["hindsight"]["score"] >= got["score"]
    for d in got["costliest"]:
        assert d["cost"] > 0 and d["played"] != d["preferred"]


def test_review_names_a_costly_blunder(capsys, tmp_path):
    # The Alamo, seed 3: greedy crosses off a setup card the challenge needs
    # nearby, and the win is gone from round 0 (hindsight could win it).
    record, final = played_game("The Alamo", 3)
    assert final.challenge_won() is False
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--samples", "8")
    assert code == 0, err
    assert "could have been won" in out
    assert "prefer" in out


def test_review_names_the_round_that_lost_the_challenge(capsys, tmp_path):
    from solvers.games.c2c.plan import replay_plan
    from solvers.optimize.c2c import hindsight_optimum

    # Gateway Arch, seed 4: MCTS with 200 iterations loses it, hindsight wins it.
    record, final = played_game("Gateway Arch", 4, kind="mcts", iterations=200)
    assert final.challenge_won() is False
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--json", "--samples", "4")
    assert code == 0, err
    r = json.loads(out)["hindsight"]["lost_in_round"]
    assert r is not None and r > 0
    deal = [final.map.location(m[len("deal "):]).id for m in record["moves"]
            if m.startswith("deal ")]
    plan = final.plan(0)
    # Before round r's moves a win was still there: a plan that keeps the
    # moves so far and wins, checked by replaying it with the rules.
    if r > 0:
        kept = {"setup_cross": plan["setup_cross"], "rounds": plan["rounds"][:r - 1]}
        best = hindsight_optimum(deal, challenge="Gateway Arch", objective=False, played=kept)
        assert best.won and replay_plan(deal, best.plan, "Gateway Arch").challenge_won()
        assert best.plan["setup_cross"] == plan["setup_cross"]
    # After them, none.
    lost = {"setup_cross": plan["setup_cross"], "rounds": plan["rounds"][:r]}
    assert hindsight_optimum(deal, challenge="Gateway Arch", played=lost).status == "infeasible"
    code, out, err = run(capsys, "c2c", "review", path, "--samples", "4")
    when = "at the setup" if r == 0 else f"in round {r}"
    assert f"It was lost {when}" in out
    # A won challenge has no such round.
    won, state = played_game("The Alamo", 1, kind="mcts", iterations=200)
    assert state.challenge_won()
    path.write_text(json.dumps(won))
    code, out, err = run(capsys, "c2c", "review", path, "--json", "--samples", "4")
    assert json.loads(out)["hindsight"]["lost_in_round"] is None


def _record_of_plan(seed, plan):
    """A saved solo game (no challenge) whose moves are ``plan``'s (played
    through the reference rules, then written as the kernel writes moves)."""
    from solvers.games.c2c.plan import replay_plan

    state = solvers.load_game("c2c").new_initial_state(seed=seed)
    moves = []
    for action in replay_plan(state.order[:24], plan).history:
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    assert state.is_terminal()
    return {"game": "c2c", "players": 1, "options": {}, "seed": seed, "moves": moves}, state


@pytest.mark.xdist_group("c2c-review-greedy-5")
def test_review_says_what_each_round_left_behind(capsys, tmp_path):
    from solvers.optimize.c2c import hindsight_optimum

    record, final, (code, out, err) = reviewed(capsys, tmp_path, None, 5)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert code == 0, err
    got = json.loads(out)
    lost, best = got["hindsight"]["points_lost_by_round"], got["hindsight"]["score"]
    assert len(lost) == 6 and min(lost) >= 0 and sum(lost) == best - got["score"] > 0
    deal = [final.map.location(m[len("deal "):]).id for m in record["moves"]
            if m.startswith("deal ")]
    # The setup's share another way: the best play with its cross-off forced.
    setup = final.map.location(final.plan(0)["setup_cross"]).id
    assert lost[0] == best - hindsight_optimum(deal, cross_off=[setup]).score
    # Round 5's share another way: its cards are all seen when it starts, so
    # the kernel's beam over that one round (wide enough to be exhaustive)
    # finds its best; the greedy player's round 5 fell short of it by lost[5].
    start = solvers.load_game("c2c").new_initial_state(seed=5)
    for m in record["moves"]:
        if start.round == 5 and not start.is_chance_node():
            break
        start.apply_action(start.string_to_action(m))
    last_round = start.sampled_outcomes(start.legal_actions(), 1, 4096, seed=0).max()
    assert lost[5] == last_round - got["score"]
    code, out, err = run(capsys, "c2c", "review", path, "--samples", "4")
    assert "Points left behind against hindsight" in out and f"round 5 {lost[5]}." in out
    # The hindsight plan played as a game leaves nothing behind anywhere.
    plan = hindsight_optimum(deal).plan
    record, state = _record_of_plan(5, plan)
    assert state.returns()[0] == best
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--json", "--samples", "4")
    assert json.loads(out)["hindsight"]["points_lost_by_round"] == [0] * 6


def _bad(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content)
    return path


@pytest.mark.parametrize("content,words", [
    ("not json at all", "not valid JSON"),
    ("[1, 2, 3]", "JSON object"),
    ('{"game": "switchbacks", "players": 2, "seed": 1, "moves": []}', "Coast to Coast"),
    ('{"game": "c2c", "seed": 1, "moves": ["deal Nowhere Land"]}', "move 0"),
    ('{"game": "c2c", "seed": 1, "moves": "deal Gateway Arch"}', "moves"),
    ('{"game": "c2c", "seed": 1, "moves": [], "colour": "red"}', "unknown key"),
])
def test_bad_review_files(capsys, tmp_path, content, words):
    code, _, err = run(capsys, "c2c", "review", _bad(tmp_path, content))
    assert code == 2
    assert words in one_error_line(err)


def test_unfinished_and_multiplayer_games_are_reviewed(capsys, tmp_path):
    # The generic review takes them; the hindsight report needs a finished
    # solo game and says so in a note.
    record, _ = played_game("The Alamo", 3, stop=10)
    code, out, err = run(capsys, "c2c", "review", _bad(tmp_path, json.dumps(record)), "--iterations", "20")
    assert code == 0, err
    assert "not finished" in out and "Your score" not in out
    record, _ = played_game(None, 3, players=2)
    code, out, err = run(capsys, "c2c", "review", _bad(tmp_path, json.dumps(record)), "--iterations", "20",
                         "--json")
    assert code == 0, err
    got = json.loads(out)
    assert got["players"] == 2 and got["measure"] == "win chance" and "hindsight" not in got
    code, _, err = run(capsys, "c2c", "review", tmp_path / "missing.json")
    assert code == 2 and "missing.json" in one_error_line(err)


def test_the_last_two_rounds_are_judged_exactly():
    """In rounds 4 and 5 a decision's preferred worth is the exact best:
    the best end's value (round 4: over every hand of round 5; round 5:
    walked move by move here), not an estimate on sampled futures."""
    from solvers.games.c2c.review import review_game, round_ends

    record, final = played_game(None, 5)
    r = review_game(record, samples=4, width=8, time_limit=10)
    state = solvers.load_game("c2c").new_initial_state(seed=5)
    exact, k = 0, 0
    for action in final.history:
        if not state.is_chance_node():
            d = r.decisions[k]
            assert d.played == state.action_to_string(action) and d.round == state.round
            k += 1
            if len(state.legal_actions()) > 1 and state.round >= 4:
                if state.round == 4:
                    best = max(points for _, _, _, points in state.end_values())
                else:
                    best = max(end.scores()[0] for _, _, end in round_ends(state).values())
                assert d.preferred_value == pytest.approx(best)
                assert d.played_value <= d.preferred_value + 1e-9
                exact += 1
        state.apply_action(action)
    assert exact >= 4


def _learned_best(values, state, start, challenge):
    """The learned (win, points) of the best end of ``start``'s round still
    reachable from ``start`` (a state of the round under way at ``state``),
    ends found by the Python walk of review.round_ends, not the kernel's."""
    from solvers.games.c2c.review import round_ends
    from solvers.games.c2c.values import unseen_cards

    def mask(locations):
        return sum(1 << int(i) for i in locations)

    if start.is_chance_node() or start.round != state.round:
        keys = [(start.sheets[0].circled, start.sheets[0].crossed, start.sheets[0].exact)]
    else:
        keys = list(round_ends(start))
    ends = [(mask(c), mask(x), mask(e)) for c, x, e in keys]
    rows = values.values(state.round, ends, unseen_cards(state))
    win, points = max(rows.tolist(), key=lambda wp: (wp[0], wp[1]) if challenge else (wp[1], 0))
    return win, points


def test_a_challenge_whose_values_ship_is_judged_by_them_before_round_4():
    """Wrigley Field ships learned values: each decision of the setup and
    rounds 1-3 is judged by the learned value of the best end still
    reachable after the move, the ends walked here in Python; rounds 4-5
    stay exact. Control: judged by re-dealt futures the same game gets
    other values."""
    from solvers.games.c2c.review import review_game
    from solvers.games.c2c.values import builtin_values

    # MCTS keeps this challenge alive to the end (it wins it): the rounds
    # 1-3 have ends of several values to rank.
    record, final = played_game("Wrigley Field", 6, kind="mcts", iterations=200)
    r = review_game(record, time_limit=10)
    assert r.judge == "learned"
    game = solvers.load_game("c2c", challenge="Wrigley Field")
    values = builtin_values(game.map, game.challenge)
    state = game.new_initial_state(seed=2)
    k, alive, costly = 0, 0, 0
    for action in final.history:
        if not state.is_chance_node():
            d = r.decisions[k]
            k += 1
            legal = state.legal_actions()
            if len(legal) > 1 and state.round < 4:
                worth = {}
                for a in legal:
                    child = state.clone()
                    child.apply_action(a)
                    worth[a] = _learned_best(values, state, child, True)
                # The hints' ranking: the chance first, then the points.
                best = max(worth.values())
                assert d.played_value == pytest.approx(worth[action][1])
                assert d.played_win_rate == pytest.approx(worth[action][0])
                assert d.preferred_value == pytest.approx(best[1])
                assert d.preferred_win_rate == pytest.approx(best[0])
                assert d.cost == pytest.approx(100 * (best[0] - worth[action][0]))
                if state.round >= 1:
                    alive += d.played_win_rate > 0
                    costly += d.cost > 1e-9
        state.apply_action(action)
    assert alive >= 6 and costly >= 1
    futures = review_game(record, samples=4, width=8, time_limit=10, judge="futures")
    assert futures.judge == "futures"
    early = [(d.played_value, d.preferred_value) for d in r.decisions if d.round < 4]
    assert early != [(d.played_value, d.preferred_value) for d in futures.decisions if d.round < 4]
    late = [(d.played_value, d.preferred_value) for d in r.decisions if d.round >= 4]
    assert late == [(d.played_value, d.preferred_value) for d in futures.decisions if d.round >= 4]


def _rankings_differ(values, state):
    """Whether the move of the best chance and the move of the best expected
    score differ at ``state`` (found with the kernel's ends: a search for a
    test position, checked below on the Python walk's)."""
    from solvers.agents.c2c_online import learned_move_values

    worth = learned_move_values(state, values).values()
    return max(worth) != max(worth, key=lambda wp: (wp[1], wp[0]))


def test_in_a_challenge_the_review_prefers_the_hints_move():
    """The hints rank a challenge's moves by the chance of completing it
    first, the expected score only between equal chances; the review's
    preferred move and its cost (the chance given away) follow them. On
    the first greedy game of Wrigley Field with a decision before round 4
    where the move of the best chance is not the move of the best expected
    score (the control), the review prefers the first."""
    from solvers.games.c2c.review import review_game
    from solvers.games.c2c.values import builtin_values

    game = solvers.load_game("c2c", challenge="Wrigley Field")
    values = builtin_values(game.map, game.challenge)
    found = None
    for seed in range(60):
        record, _ = played_game("Wrigley Field", seed)
        state = game.new_initial_state(seed=seed)
        k = 0
        for move in record["moves"]:
            if not state.is_chance_node():
                if state.round < 4 and len(state.legal_actions()) > 1 \
                        and _rankings_differ(values, state):
                    found = record, state.clone(), k
                    break
                k += 1
            state.apply_action(state.string_to_action(move))
        if found:
            break
    assert found, "no greedy game of 60 where the two rankings differ"
    record, state, k = found
    worth = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        worth[a] = _learned_best(values, state, child, True)
    by_chance = max(worth.values())
    by_points = max(worth.values(), key=lambda wp: (wp[1], wp[0]))
    assert by_chance[0] > by_points[0] and by_chance[1] < by_points[1]
    r = review_game(record, time_limit=10)
    assert r.judge == "learned" and r.cost_unit == "chance"
    d = r.decisions[k]
    assert d.round == state.round
    assert (d.preferred_win_rate, d.preferred_value) == pytest.approx(by_chance)
    assert d.cost == pytest.approx(100 * (by_chance[0] - d.played_win_rate))


def test_the_judge_option(capsys, tmp_path):
    # auto: the learned values where the hints play with them (a challenge
    # whose values ship), futures elsewhere; asking for learned values that
    # do not ship is a note naming the cure, the generic review still shown.
    for challenge, judge in (("Wrigley Field", "learned"), ("The Alamo", "futures"),
                             (None, "futures")):
        record, _ = played_game(challenge, 4)
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        code, out, err = run(capsys, "c2c", "review", path, "--json", "--samples", "2",
                             "--iterations", "20")
        assert code == 0, err
        assert json.loads(out)["judge"] == judge
    code, out, err = run(capsys, "c2c", "review", path, "--judge", "learned", "--iterations", "20")
    assert code == 0, err
    assert "by the learned values before round 4" in out
    record, _ = played_game("The Alamo", 4)
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "c2c", "review", path, "--judge", "learned", "--iterations", "20")
    assert code == 0, err
    assert "no learned values ship for the challenge The Alamo" in out
    code, _, err = run(capsys, "c2c", "review", path, "--judge", "hindsight")
    assert code == 2 and "hindsight" in one_error_line(err)
