"""The `solve c2c` command: bad input gives one line and exit code 2."""

import json
from pathlib import Path

import pytest

from cli_helpers import one_error_line, run
from solvers.games.c2c.data import load_map

MAP = load_map()
NAMES = [l.name for l in MAP.locations]


def test_help_teaches(capsys):
    code, out, _ = run(capsys, "c2c", "--help")
    assert code == 0
    assert "--challenge" in out and "--deal" in out and "--all-challenges" in out


def test_unknown_challenge_names_the_nearest(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "Wrigly Field")
    assert code == 2
    assert "Wrigley Field" in one_error_line(err)


@pytest.fixture
def deal_file(tmp_path):
    def write(lines):
        p = tmp_path / "deal.txt"
        p.write_text("\n".join(lines) + "\n")
        return str(p)
    return write


def test_deal_with_wrong_count(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23]))
    assert code == 2
    assert "23 cards" in one_error_line(err)


def test_deal_with_a_duplicate(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23] + [NAMES[3]]))
    assert code == 2
    assert "twice" in one_error_line(err)


def test_deal_holding_the_challenge_card(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:24]), "--challenge", NAMES[5])
    assert code == 2
    assert "challenge card" in one_error_line(err)


def test_deal_with_unknown_location(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23] + ["Hollywod"]))
    assert code == 2
    line = one_error_line(err)
    assert "line 24" in line and "Hollywood" in line


def test_missing_deal_file(capsys, tmp_path):
    code, _, err = run(capsys, "c2c", "--deal", str(tmp_path / "nope.txt"))
    assert code == 2
    assert "cannot read" in one_error_line(err)


@pytest.mark.parametrize("content,needle", [
    ("{not json", "not valid JSON"),
    ('{"highways": []}', "highways"),
    ("[]", "JSON object"),
])
def test_malformed_map_file(capsys, tmp_path, content, needle):
    p = tmp_path / "map.json"
    p.write_text(content)
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert needle in one_error_line(err)


def test_map_file_with_unknown_line_end(capsys, tmp_path):
    data = MAP.to_json()
    data["solid_lines"][0] = ["Space Needle", "Atlantis"]
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert "Atlantis" in one_error_line(err)


def test_disconnected_map_is_refused(capsys, tmp_path):
    data = MAP.to_json()
    data["dashed_lines"] = []
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert "not connected" in one_error_line(err)


@pytest.mark.parametrize("points,refused", [
    ([0, 6, 8, 9, 10, 11, 12, 13, 14, 15], "a run of 3 scores 9, less than runs of 1 and 1 apart (12)"),
    ([0, 4, 3, 6, 10, 15, 21, 28, 36, 45], "a run of 2 scores 3, less than a run of 1 (4)"),
    ([0, 2, 3, 7, 8, 14, 15, 21, 22, 30, 31], None),   # not convex, yet no circle costs points
])
def test_a_map_whose_circles_could_cost_points_is_refused(capsys, tmp_path, deal_file, points,
                                                         refused):
    """Circling is compulsory and the exact searches take a circle to be
    worth at least nothing: a points table where joining two runs (or
    extending one) scores less than before is one error line; the control
    (a table that is uneven but never pays less for a circle) is taken."""
    data = MAP.to_json()
    data["highway_points"] = points
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    from solvers.games.c2c.deal import shuffle_deal

    deal = deal_file([NAMES[c] for c in shuffle_deal(None, 3)])
    code, out, err = run(capsys, "c2c", "--map", str(p), "--deal", deal, "--json")
    if refused is None:
        assert code == 0, err
        assert json.loads(out)["status"] == "optimal"
    else:
        assert code == 2
        assert refused in one_error_line(err)


@pytest.mark.parametrize("change,needle", [
    (lambda d: d.update(region_points=-1), "'region_points' should be 0 or more"),
    (lambda d: d.update(exact_match_points=-2), "'exact_match_points' should be 0 or more"),
    (lambda d: d["types"][0].update(points=-5), "'points' in types[0] should be 0 or more"),
])
def test_a_map_whose_bonuses_cost_points_is_refused(capsys, tmp_path, change, needle):
    """A negative bonus would let a circle (completing a region or a type,
    or an exact match) cost points: one error line."""
    data = MAP.to_json()
    change(data)
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert needle in one_error_line(err)


def test_csv_needs_all_challenges(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--csv")
    assert code == 2
    assert "--csv goes with --all-challenges" in one_error_line(err)


def test_bad_option_value(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--shuffles", "zero")
    assert code == 2
    assert "--shuffles" in one_error_line(err)


# --- working commands, end to end (small budgets) ----------------------------

def test_deal_json_contract(capsys, deal_file, monkeypatch):
    from solvers.games.c2c.deal import shuffle_deal
    from solvers.games.c2c.plan import replay_plan

    deal = shuffle_deal("Empire State Building", 11)
    names = [NAMES[c] for c in deal]
    code, out, err = run(capsys, "c2c", "--deal", "-", "--challenge", "empire state building",
                         "--json", stdin="\n".join(names) + "\n", monkeypatch=monkeypatch)
    assert code == 0, err
    data = json.loads(out)
    assert data["deal"] == names
    assert data["challenge"] == "Empire State Building"
    assert data["status"] == "optimal"
    assert data["won"] is True and isinstance(data["score"], int)
    plan = data["plan"]
    assert set(plan) >= {"setup_cross", "rounds"} and len(plan["rounds"]) == 5
    for rnd in plan["rounds"]:
        assert isinstance(rnd["cross"], str)
        assert all(len(c) == 2 for c in rnd["circles"])
    state = replay_plan(deal, plan, "Empire State Building")
    assert state.returns() == [float(data["score"])]


def test_deal_json_for_a_deal_that_cannot_win(capsys, monkeypatch):
    # Shuffle 74 of The Alamo deals four required locations in the setup:
    # one of them is crossed off, so the challenge is lost whatever is played.
    from solvers.games.c2c.deal import shuffle_deal
    from solvers.games.c2c.data import load_map

    coast = load_map()
    deal = shuffle_deal("The Alamo", 74)
    need = coast.required_mask(coast.location("The Alamo").id)
    assert all(need >> c & 1 for c in deal[:4])
    names = [NAMES[c] for c in deal]
    code, out, err = run(capsys, "c2c", "--deal", "-", "--challenge", "the alamo",
                         "--json", stdin="\n".join(names) + "\n", monkeypatch=monkeypatch)
    assert code == 0, err
    data = json.loads(out)
    assert (data["status"], data["won"]) == ("infeasible", False)


def test_deal_text_report_draws_the_map(capsys, deal_file):
    from solvers.games.c2c.deal import shuffle_deal

    path = deal_file([NAMES[c] for c in shuffle_deal(None, 3)])
    code, out, err = run(capsys, "c2c", "--deal", path)
    assert code == 0, err
    assert "Best score" in out and "I-90" in out and "Round 5" in out


def test_challenge_report_json(capsys):
    code, out, err = run(capsys, "c2c", "--challenge", "The Alamo", "--shuffles", "3",
                         "--workers", "1", "--online", "mcts:iterations=50", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["challenge"] == "The Alamo" and data["required_count"] == 10
    assert {r["name"] for r in data["required"]} >= {"The Alamo", "Hollywood"}
    assert data["feasible"] is True and data["feasibility_status"] == "optimal"
    assert data["ceiling"]["wins"] <= 3 and data["online"]["wins"] <= 3
    assert data["online"]["wins"] <= data["ceiling"]["wins"] + data["ceiling"]["undecided"]
    lo, hi = data["ceiling"]["ci95"]
    assert 0 <= lo <= data["ceiling"]["rate"] <= hi <= 1


def test_play_a_solo_challenge_from_scripted_input(capsys, monkeypatch):
    # Always take the first listed move; ask for one hint on the way.
    script = "hint\n" + "1\n" * 40
    code, out, err = run(capsys, "c2c", "play", "--challenge", "The Alamo", "--seed", "4",
                         "--ai", "mcts:iterations=100", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "AI suggests" in out
    assert "Final score" in out


def test_play_quits_cleanly(capsys, monkeypatch):
    code, out, err = run(capsys, "c2c", "play", "--players", "2", "--seed", "1",
                         "--ai", "random", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 0, err
    assert "abandoned" in out


def test_deal_with_no_itinerary_within_the_time_limit(capsys, monkeypatch):
    # CP-SAT can stop at the time limit without any solution ("unknown"): the
    # report says so in one line instead of drawing a plan it does not have.
    import solvers.optimize.c2c as opt

    def no_solution(deal, **_kwargs):
        return opt.HindsightResult("unknown", None, None, None, None, 0.1, list(deal))

    monkeypatch.setattr(opt, "hindsight_optimum", no_solution)
    deal = Path(__file__).resolve().parents[1] / "examples" / "c2c-deal.txt"
    code, out, err = run(capsys, "c2c", "--deal", deal, "--time-limit", "0.1")
    assert code == 0, err
    assert "no itinerary found within the time limit" in out.lower()
    assert "Traceback" not in err


def test_yardstick_json_and_text(capsys):
    """The online agent plays rounds 4-5 exactly, so it loses nothing there;
    a small search, on the same deals, loses something (the control)."""
    code, out, err = run(capsys, "c2c", "yardstick", "--player", "online:early=report",
                         "--positions", "3", "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["positions"] == 3 and data["optimal"] == 3 and data["loss_points"] == 0.0
    code, out, err = run(capsys, "c2c", "yardstick", "--player", "mcts:iterations=30",
                         "--positions", "3", "--workers", "1", "--json")
    weak = json.loads(out)
    assert code == 0 and weak["loss_points"] > 0 and weak["best_points"] > 0
    code, out, err = run(capsys, "c2c", "yardstick", "-c", "Wrigley Field", "--player",
                         "mcts:iterations=30", "--positions", "2", "--workers", "1")
    assert code == 0 and "challenge Wrigley Field" in out and "chance of completing it" in out


@pytest.mark.parametrize("argv, needle", [
    (["--player", "nope"], "unknown agent 'nope'"),
    (["--player", "online", "--positions", "0"], "--positions"),
    (["-c", "Nowhere"], "unknown location 'Nowhere'"),
])
def test_yardstick_refuses_bad_input_in_one_line(capsys, argv, needle):
    code, _, err = run(capsys, "c2c", "yardstick", *argv)
    assert code == 2 and needle in one_error_line(err)


def test_a_solo_hint_reads_an_expected_score_as_points(capsys, monkeypatch):
    """pimc and the online agent value moves in points (a lost challenge
    scoring 0) or in the chance of completing a challenge, not on the MCTS
    scale: the hint says so, rather than multiplying 98 points by 100."""
    import re

    script = "hint\n" + "1\n" * 40
    code, out, err = run(capsys, "c2c", "play", "--seed", "4", "--ai",
                         "pimc:samples=4,width=8,refine=0", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    scores = [float(x) for x in re.findall(r"expected final score ([0-9.]+)", out)]
    assert scores and all(20 < s < 250 for s in scores), out
    # control: the MCTS hint of the same position is on its own scale
    code, out, err = run(capsys, "c2c", "play", "--seed", "4", "--ai", "mcts:iterations=100",
                         stdin=script, monkeypatch=monkeypatch)
    assert code == 0 and "expected final score" not in out and "expected score" in out


def test_a_challenge_hint_of_the_online_agent_is_a_chance():
    import solvers
    from solvers.cli.verbs import row_value_words
    from solvers.registry import game_info

    info = game_info("c2c")
    game = solvers.load_game("c2c", challenge="The Alamo")
    assert row_value_words(info, game, {"value": 0.625, "value_kind": "chance"}) == \
        "chance to complete the challenge 62%"
    assert row_value_words(info, game, {"value": 97.25, "value_kind": "points"}) == \
        "expected final score 97.2"
    assert row_value_words(info, game, {"value": 0.826}) == "win chance about 83% (value 0.83)"


def test_a_two_player_hint_of_the_online_agent_is_the_seats_own_points(capsys, monkeypatch):
    """With two seats the online agent values moves by the seat's own
    expected points (it plays its own sheet): the hint says so, not a win
    share; the control, the MCTS hint of the same game, is a win share."""
    import re

    script = "hint\n" + "1\n" * 40
    code, out, err = run(capsys, "c2c", "play", "--players", "2", "--seed", "4", "--ai",
                         "online:early=report,learned=4", stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    scores = [float(x) for x in re.findall(r"expected final score ([0-9.]+)", out)]
    assert scores and all(20 < s < 250 for s in scores), out
    assert "does not weigh the others'" in out and "win share" not in out
    code, out, err = run(capsys, "c2c", "play", "--players", "2", "--seed", "4", "--ai",
                         "mcts:iterations=100", stdin=script, monkeypatch=monkeypatch)
    assert code == 0 and "expected final score" not in out and "win share" in out


def test_a_challenge_with_learned_values_hints_with_the_learned_player(capsys, monkeypatch):
    """Without --ai a solo challenge whose values ship (Wrigley Field) is
    played and hinted by the learned player (its hints are chances of
    completing the challenge); one without (The Alamo) and the game
    without a challenge keep the strong search until round 4."""
    import solvers
    from solvers.cli.play_c2c import default_ai
    from solvers.games.c2c.online import LEARNED_ONLINE, hint_player

    assert default_ai(solvers.load_game("c2c", challenge="Wrigley Field")) == LEARNED_ONLINE
    assert default_ai(solvers.load_game("c2c", challenge="The Alamo")) == hint_player(1, True)
    assert default_ai(solvers.load_game("c2c")) == hint_player(1, False) != LEARNED_ONLINE
    script = "hint\n" + "1\n" * 40
    code, out, err = run(capsys, "c2c", "play", "--challenge", "Wrigley Field", "--seed", "5",
                         stdin=script, monkeypatch=monkeypatch)
    assert code == 0, err
    assert "chance to complete the challenge" in out and "Final score" in out


def test_the_challenge_report_plays_the_learned_player_where_values_ship(capsys):
    # --online auto (the default): Wrigley Field ships learned values, so its
    # report plays the learned player, the same wins as that player alone on
    # the same shuffles; The Alamo has none and plays the reports' MCTS with
    # the last two rounds exact. A spec given by hand is played as given.
    from solvers.games.c2c.online import EXACT_REPORT_ONLINE, LEARNED_ONLINE, online_results

    m = load_map()
    for name, player in (("Wrigley Field", LEARNED_ONLINE), ("The Alamo", EXACT_REPORT_ONLINE)):
        code, out, err = run(capsys, "c2c", "--challenge", name, "--shuffles", "4", "--seed", "3",
                             "--workers", "1", "--json")
        assert code == 0, err
        got = json.loads(out)["online"]
        alone = online_results(m, m.location(name).id, 4, 3, 1, player)
        assert got["agent"] == player and got["wins"] == alone.wins
    code, out, err = run(capsys, "c2c", "--challenge", "Wrigley Field", "--shuffles", "2",
                         "--workers", "1", "--online", "mcts:iterations=50", "--json")
    assert code == 0, err
    assert json.loads(out)["online"]["agent"] == "mcts:iterations=50"
