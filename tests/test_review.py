"""Reviews of game records (solvers.review, ``solve GAME review``): a move
that throws a challenge away is a blunder and the search's own choice is
not graded; every game's saved record reviews through the command line;
the same seed gives the same review; bad files are one line."""

from __future__ import annotations

import json

import pytest

import solvers
from cli_helpers import one_error_line, run
from random_play import random_game
from solvers.files import MAX_FILE_BYTES
from solvers.record import dumps, load_record, record_game, save_record
from solvers.review import format_review, grade_of, review_record
from solvers.rng import SplitMix64

CHALLENGE = "Empire State Building"
CASES = [("c2c", 1), ("c2c", 2), ("switchbacks", 2), ("bigsur", 2), ("santacruz", 2)]


def random_actions(name: str, players: int, seed: int = 3, plies: int | None = None,
                   **options) -> list[int]:
    return random_game(name, players, seed, plies, **options)[0]


def setup_and(move: str) -> tuple[dict, list[int]]:
    """The record of the Empire State Building challenge, seed 0: the setup
    deal, then ``move`` (the first decision)."""
    game = solvers.load_game("c2c", challenge=CHALLENGE)
    state = game.new_initial_state(seed=0)
    actions = []
    while state.is_chance_node():
        actions.append(state.seeded_outcome())
        state.apply_action(actions[-1])
    actions.append(state.string_to_action(move))
    return record_game(game, actions, options={"challenge": CHALLENGE}), actions


def test_the_forfeit_is_lost_by_the_reference_rules():
    """Crossing Mall of America (a location the challenge needs) loses the
    challenge whatever follows: random playouts of the reference all score 0;
    crossing Chase Field can still win."""
    _, actions = setup_and("cross Mall of America")
    wins = {}
    for move in ("cross Mall of America", "cross Chase Field"):
        ref = solvers.load_game("c2c", challenge=CHALLENGE, reference=True).new_initial_state(seed=0)
        for a in actions[:-1]:
            ref.apply_action(a)
        ref.apply_action(ref.string_to_action(move))
        rng = SplitMix64(7)
        won = 0
        for _ in range(40):
            s = ref.clone()
            while not s.is_terminal():
                if s.is_chance_node():
                    outcomes = s.chance_outcomes()
                    s.apply_action(outcomes[rng.below(len(outcomes))][0])
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[rng.below(len(legal))])
            won += s.returns()[0] > 0
        wins[move] = won
    assert wins["cross Mall of America"] == 0


@pytest.fixture(scope="module")
def forfeit_reviews():
    return {move: review_record(setup_and(move)[0], budget=200, seed=1)
            for move in ("cross Mall of America", "cross Chase Field")}


def test_a_forfeit_is_a_blunder_and_the_best_move_is_not_graded(forfeit_reviews):
    bad = forfeit_reviews["cross Mall of America"]
    assert bad.measure == "win chance"
    last = bad.points[-1]
    assert last.graded and last.move == "cross Mall of America"
    assert last.played_value == 0.0             # every future of a lost challenge scores 0
    assert last.grade == "blunder" and last.loss >= 0.2
    assert last.best != "cross Mall of America"
    assert [p.step for p in bad.costliest(3)] == [last.step]
    good = forfeit_reviews["cross Chase Field"].points[-1]
    assert good.graded and good.grade is None
    assert not any(p.graded for p in bad.points[:-1])    # the deal is chance
    text = format_review(bad)
    assert "blunder" in text and "cross Mall of America" in text and "win chance" in text


def test_grades_and_determinism():
    assert [grade_of(x, "win chance") for x in (0.0, 0.049, 0.05, 0.1, 0.2, 1.0)] == \
        [None, None, "inaccuracy", "mistake", "blunder", "blunder"]
    assert grade_of(12, "expected score") == "blunder" and grade_of(2.9, "expected score") is None
    record = record_game(solvers.load_game("switchbacks", 2), random_actions("switchbacks", 2, plies=40),
                         seat=0)
    seen = []
    a = review_record(record, budget=30, seed=5, progress=lambda done, total: seen.append((done, total)))
    b = review_record(record, budget=30, seed=5)
    assert a.to_json() == b.to_json()
    assert seen == [(k, 40) for k in range(1, 41)]
    assert all(p.graded == (p.mover == 0 and p.best is not None) for p in a.points)
    assert not any(p.graded for p in a.points if p.mover != 0)
    with pytest.raises(solvers.SolversError):
        review_record(record, budget={"time": 1})


def test_solo_values_are_expected_scores():
    game = solvers.load_game("c2c")
    actions = random_actions("c2c", 1, seed=4)
    r = review_record(record_game(game, actions), budget=20, seed=0)
    assert r.measure == "expected score"
    state = game.new_initial_state(seed=4)
    for a in actions:
        state.apply_action(a)
    assert r.points[-1].value == [pytest.approx(state.returns()[0])]   # the end: the score itself
    assert "expected score" in format_review(r) and "win chance" not in format_review(r)


@pytest.mark.parametrize("name,players", CASES)
def test_every_game_reviews_through_the_command_line(capsys, tmp_path, name, players):
    # Solo: a challenge, whose hindsight report is the quicker one.
    options = {"challenge": CHALLENGE} if players == 1 else {}
    actions = random_actions(name, players, **options)
    path = tmp_path / "game.json"
    save_record(path, record_game(solvers.load_game(name, players, **options), actions, options=options))
    extra = ["--samples", "1", "--time-limit", "0.3"] if name == "c2c" else []
    code, out, err = run(capsys, name, "review", path, "--iterations", "8", "--json", "--top", "2", *extra)
    assert code == 0, err
    got = json.loads(out)
    assert got["game"] == name and len(got["points"]) == len(actions) and got["seat"] is None
    assert all(p["value"] is not None and len(p["value"]) == players for p in got["points"])
    if players > 1:
        assert all(0.0 <= v <= 1.0 for p in got["points"] for v in p["value"])
    graded = [p for p in got["points"] if "grade" in p]
    assert graded and all(p["mover"] != "chance" for p in graded)
    assert len(got["worst"]) <= 2
    assert ("hindsight" in got) == (players == 1)
    if players == 1:
        assert got["score"] == 0 or got["won"]      # the hindsight report, merged
    code, out, err = run(capsys, name, "review", path, "--iterations", "8", "--top", "3", *extra)
    assert code == 0, err
    assert "Review of a" in out and "over the game" in out


def test_twin_records_review_the_same():
    from seat_twins import twin_positions
    from solvers.engine.positions import load_position

    texts = []
    for pos in twin_positions("switchbacks", 2)[:2]:
        _, state, _ = load_position(pos)
        record = record_game(state.game, list(state.history), seat=0, seed=pos["seed"])
        texts.append(json.dumps(review_record(record, budget=10, seed=2).to_json()))
    assert texts[0] == texts[1]


def test_help_has_an_example(capsys):
    code, out, _ = run(capsys, "switchbacks", "review", "--help")
    assert code == 0 and "solve switchbacks review game.json" in out and "--iterations" in out


@pytest.fixture(scope="module")
def good_text():
    return dumps(record_game(solvers.load_game("switchbacks", 2), random_actions("switchbacks", 2, plies=30)))


@pytest.mark.parametrize("mangle,words", [
    (lambda t: "not json", "not valid JSON"),
    (lambda t: t[:len(t) // 2], "not valid JSON"),                             # truncated
    (lambda t: t.replace('"solvers-record"', '"other"'), "not a game record"),
    (lambda t: t.replace('"version": 1', '"version": 2'), "version"),
    (lambda t: json.dumps({**json.loads(t), "steps": [
        {**s, "action": 99999} if i == 20 else s for i, s in enumerate(json.loads(t)["steps"])]}),
     "step 20"),                                                              # an illegal move
    (lambda t: t.replace('"game": "switchbacks"', '"game": "c2c"'), "step 0"),
])
def test_bad_files_are_one_line(capsys, tmp_path, good_text, mangle, words):
    path = tmp_path / "bad.json"
    path.write_text(mangle(good_text))
    code, _, err = run(capsys, "switchbacks", "review", path, "--iterations", "5")
    assert code == 2
    assert words in one_error_line(err)


def test_huge_and_other_games_files(capsys, tmp_path, good_text):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)
    code, _, err = run(capsys, "switchbacks", "review", path)
    assert code == 2 and "huge.json" in one_error_line(err)
    path = tmp_path / "game.json"
    path.write_text(good_text)
    code, _, err = run(capsys, "bigsur", "review", path)
    assert code == 2 and "Switchbacks" in one_error_line(err)
    assert load_record(str(path)).game == "switchbacks"


def test_a_big_sur_seat_record_grades_the_seat_s_turns():
    """Big Sur's seat records hold the seat's view at its turns
    (GameInfo.record_view), so its decisions are graded, nobody else's."""
    record = record_game(solvers.load_game("bigsur", 2), random_actions("bigsur", 2, plies=60), seat=0)
    r = review_record(record, budget=10, seed=0)
    graded = r.graded()
    assert len(graded) >= 3 and all(p.mover == 0 for p in graded)


@pytest.mark.parametrize("name,plies", [("c2c", None), ("santacruz", 90)])
def test_kernel_view_seat_records_grade_the_seat_s_decisions(name, plies):
    """Coast to Coast and Santa Cruz seat records hold the seat's view
    (GameInfo.record_view, the kernel's struct), so every step is judged
    and every decision of the seat with a choice is graded, nobody else's."""
    game = solvers.load_game(name, 2)
    actions = random_actions(name, 2, seed=6, plies=plies)
    record = record_game(game, actions, seat=0, seed=6)
    r = review_record(record, budget=8, seed=0)
    assert len(r.points) == len(actions)
    assert all(p.value is not None for p in r.points)
    assert "not judged" not in format_review(r)
    state = game.new_initial_state(seed=6)
    choices = []
    for i, a in enumerate(actions):
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            choices.append(i)
        state.apply_action(a)
    assert choices and [p.step for p in r.points if p.graded] == choices
