"""Tournaments: the agent-list rule, seat rotation, the JSON contract of
`solve tournament`, and bad input."""

import json

import pytest

import solvers
from solvers.cli.main import main
from solvers.errors import SolversError
from solvers.stats import wilson_interval
from solvers.tournament import plan_games, resume_tournament, run_tournament, split_agent_list


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("text,specs", [
    ("mcts:time=1,greedy", ["mcts:time=1", "greedy"]),
    ("mcts:time=1,c=2,greedy", ["mcts:time=1,c=2", "greedy"]),
    ("random, mcts:iterations=9,rollout=random ,mcts", ["random", "mcts:iterations=9,rollout=random", "mcts"]),
    ("mcts,iterations=5,random", ["mcts:iterations=5", "random"]),
])
def test_agent_list_rule(text, specs):
    assert split_agent_list(text) == specs


def test_agent_list_cannot_start_with_an_option():
    with pytest.raises(SolversError, match="before any agent"):
        split_agent_list("time=1,mcts")


def test_seats_rotate_and_blocks_share_a_deal():
    jobs = plan_games("switchbacks", 3, ["a", "b", "c"], games=6, seed=2)
    assert [j.seating for j in jobs[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert len({j.deal_seed for j in jobs[:3]}) == 1
    assert jobs[3].deal_seed != jobs[0].deal_seed
    # Every agent plays every seat equally often.
    for agent in range(3):
        seats = [j.seating.index(agent) for j in jobs]
        assert sorted(seats) == [0, 0, 1, 1, 2, 2]


def test_solo_games_give_every_agent_the_same_deals():
    jobs = plan_games("c2c", 1, ["greedy", "random"], games=3, seed=4)
    assert len(jobs) == 6
    assert [j.deal_seed for j in jobs[0::2]] == [j.deal_seed for j in jobs[1::2]]


def test_wins_add_up_and_replay_from_the_seed():
    a = run_tournament("switchbacks", "mcts:iterations=60,random", games=4, seed=3)
    b = run_tournament("switchbacks", ["mcts:iterations=60", "random"], games=4, seed=3, workers=2)
    assert _timeless(a.to_json()["agents"]) == _timeless(b.to_json()["agents"])
    assert sum(x.wins for x in a.agents) == pytest.approx(4.0)
    for x in a.agents:
        assert x.games == 4
        assert x.ci95 == pytest.approx(wilson_interval(x.wins, 4))
        assert x.score_ci95[0] <= x.mean_score <= x.score_ci95[1]


def test_fewer_agents_than_seats():
    r = run_tournament("switchbacks", ["greedy", "random"], games=2, players=3, seed=1)
    assert r.players == 3 and sum(x.wins for x in r.agents) == pytest.approx(2.0)
    assert [sum(x.seat_games) for x in r.agents] == [3, 3]


def test_cli_json_contract(capsys):
    code, out, err = run(capsys, "tournament", "switchbacks", "--agents", "mcts:iterations=50,c=2,greedy",
                         "--games", "3", "--seed", "5", "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "switchbacks" and data["games"] == 3
    assert [a["spec"] for a in data["agents"]] == ["mcts:iterations=50,c=2", "greedy"]
    for a in data["agents"]:
        assert set(a) >= {"spec", "wins", "win_rate", "ci95", "mean_score"}
        assert a["win_rate"] == pytest.approx(a["wins"] / 3, abs=1e-6)  # printed to 6 places
        lo, hi = a["ci95"]
        assert 0.0 <= lo <= a["win_rate"] <= hi <= 1.0
        assert (a["wins"] * 2) == int(a["wins"] * 2)        # halves for shared wins
    assert sum(a["wins"] for a in data["agents"]) == pytest.approx(3.0)


def test_cli_solo_c2c(capsys):
    code, out, err = run(capsys, "tournament", "c2c", "--agent", "greedy", "--agent", "random",
                         "--games", "2", "--challenge", "The Alamo", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["players"] == 1
    for a in data["agents"]:
        assert a["games"] == 2 and a["mean_score"] >= 0


def test_cli_table(capsys):
    code, out, _ = run(capsys, "tournament", "switchbacks", "--agents", "greedy,random", "--games", "2")
    assert code == 0
    assert "win rate" in out and "greedy" in out and "random" in out


@pytest.mark.parametrize("argv,needle", [
    (["tournament", "chess", "--agents", "greedy,random"], "unknown game"),
    (["tournament", "switchbacks", "--agents", "greedy,randon"], "random"),
    (["tournament", "switchbacks", "--agents", "greedy"], "takes 2 agents, but 1 agent was given"),
    (["tournament", "switchbacks", "--agents", "mcts:speed=3,greedy"], "unknown option"),
    (["tournament", "switchbacks", "--agents", "greedy,random", "--players", "5"], "5"),
    (["tournament", "switchbacks"], "give the agents"),
    (["tournament", "switchbacks", "--agents", "greedy,random", "--challenge", "The Alamo"], "c2c"),
])
def test_cli_bad_input_is_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err


def test_every_game_in_the_library_can_hold_a_tournament():
    for name in solvers.game_names():
        r = run_tournament(name, ["random", "greedy"], games=2, seed=0)
        assert r.game == name and all(a.games == 2 for a in r.agents)


# ------------------------------------------------------------ saved and resumed
AGENTS = ["mcts:iterations=40", "greedy", "random"]


def _records(path):
    """The saved games, their thinking times left out (they differ from run to run)."""
    rows = json.loads(open(path).read())["records"]
    for r in rows:
        r["think"] = [t[1:] for t in r["think"]]   # decisions and simulations: fixed by the seed
    return rows


def _timeless(agents):
    return [{k: v for k, v in a.items() if k != "seconds_per_move"} for a in agents]


def test_a_resumed_tournament_plays_what_the_uninterrupted_one_plays(tmp_path):
    whole, part = tmp_path / "whole.json", tmp_path / "part.json"
    full = run_tournament("switchbacks", AGENTS, games=6, players=3, seed=7, save=whole)
    run_tournament("switchbacks", AGENTS, games=4, players=3, seed=7, save=part)
    assert len(_records(part)) == 4
    again = resume_tournament(part, games=6, workers=2)
    # The independent answer is the run that was never cut: the same six
    # games, seat for seat, and so the same table.
    assert _records(part) == _records(whole)
    assert _timeless(again.to_json()["agents"]) == _timeless(full.to_json()["agents"])
    saved = json.loads(part.read_text())
    assert [s["games"] for s in saved["sessions"]] == [4, 2]
    assert _timeless(saved["result"]["agents"]) == _timeless(full.to_json()["agents"])


def test_an_interrupted_tournament_keeps_the_games_it_finished(tmp_path):
    path = tmp_path / "t.json"
    seen = []

    def stop_after_two(n):
        seen.append(n)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament("switchbacks", AGENTS[:2], games=5, seed=3, save=path, progress=stop_after_two)
    assert [r["index"] for r in _records(path)] == [0, 1]
    left = []
    r = resume_tournament(path, progress=left.append)
    assert len(left) == 3                       # only the missing games were played
    assert _timeless(r.to_json()["agents"]) == _timeless(run_tournament(
        "switchbacks", AGENTS[:2], games=5, seed=3).to_json()["agents"])


def test_a_solo_tournament_can_be_finished_but_not_extended(tmp_path):
    path = tmp_path / "solo.json"
    run_tournament("c2c", ["greedy", "random"], games=2, seed=1, save=path,
                   challenge="The Alamo")
    with pytest.raises(SolversError, match="ask for 2 games"):
        resume_tournament(path, games=3)
    assert len(_records(path)) == 4


def test_a_file_of_games_planned_otherwise_is_refused(tmp_path):
    path = tmp_path / "t.json"
    run_tournament("switchbacks", AGENTS[:2], games=2, seed=3, save=path)
    data = json.loads(path.read_text())
    data["records"][1]["deal"] ^= 1               # a game dealt from another seed
    path.write_text(json.dumps(data))
    with pytest.raises(SolversError, match="game 1 is not the game"):
        resume_tournament(path, games=3)


def test_cli_save_then_resume(capsys, tmp_path):
    path = tmp_path / "match.json"
    code, out, err = run(capsys, "tournament", "switchbacks", "--agents", "mcts:iterations=40,greedy",
                         "--games", "2", "--seed", "4", "--workers", "1", "--save", path)
    assert code == 0, err
    assert "Saved to" in out and "2 games played now" in out
    assert "mcts:iterations=40 40 simulations in" in out
    code, out, err = run(capsys, "tournament", "switchbacks", "--resume", path, "--games", "4",
                         "--workers", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 4 and data["seed"] == 4 and data["saved"] == str(path)
    assert [a["spec"] for a in data["agents"]] == ["mcts:iterations=40", "greedy"]
    assert len(_records(path)) == 4
    # The budget each side really had, kept across the two runs: 40 simulations
    # at every decision of the search (a forced move is not asked).
    mcts = data["agents"][0]
    assert mcts["simulations_per_move"] == 40.0 and mcts["decisions"] > 0
    assert mcts["decisions"] == sum(t[0] for r in _records(path) for s, t in enumerate(r["think"])
                                    if r["seating"][s] == 0)


@pytest.mark.parametrize("extra,needle", [
    (["--seed", "9"], "has seed 4, not 9"),
    (["--agents", "greedy,random"], "agents are mcts:iterations=40, greedy"),
    (["--players", "3"], "2 seats a game, not 3"),
    (["--games", "1"], "ask for at least that many"),
    (["--save", "{path}"], None),                 # saving back to the resumed file is allowed
])
def test_cli_resume_with_other_settings_is_one_line(capsys, tmp_path, extra, needle):
    path = tmp_path / "match.json"
    assert run(capsys, "tournament", "switchbacks", "--agents", "mcts:iterations=40,greedy",
               "--games", "2", "--seed", "4", "--workers", "1", "--save", path)[0] == 0
    before = path.read_bytes()
    extra = [str(path) if x == "{path}" else x for x in extra]
    code, out, err = run(capsys, "tournament", "switchbacks", "--resume", path, "--workers", "1", *extra)
    if needle is None:
        assert code == 0, err
        return
    assert code == 2
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in err, err
    assert path.read_bytes() == before            # a refused resume leaves the file alone


@pytest.mark.parametrize("content,needle", [
    (b"{not json", "not JSON"),
    (b'{"format": "solvers-ladder"}', "no \"format\": \"solvers-tournament\""),
    (b'[1, 2]', "no \"format\""),
])
def test_cli_resume_of_a_bad_file_is_one_line(capsys, tmp_path, content, needle):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, _, err = run(capsys, "tournament", "switchbacks", "--resume", path)
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == content


def test_cli_save_refuses_an_existing_file(capsys, tmp_path):
    path = tmp_path / "taken.json"
    path.write_text("mine")
    code, _, err = run(capsys, "tournament", "switchbacks", "--agents", "greedy,random", "--save", path)
    assert code == 2 and "the file exists" in err
    assert path.read_text() == "mine"


def test_a_saved_tournament_renders_as_a_docs_table(tmp_path):
    from solvers.benchtrack import update_tables

    path = tmp_path / "t.json"
    run_tournament("switchbacks", ["greedy", "random", "random"], games=3, players=3, seed=7,
                   save=path)
    data = json.loads(path.read_text())
    # Hand-made results: agent 0 wins games 0 and 1 and shares game 2 with
    # agent 1; so 2.5 of 3 (2.50 x its fair share of one in three), 0.5 and 0.
    for rec in data["records"]:
        seat = {a: s for s, a in enumerate(rec["seating"])}
        rec["returns"] = [0.0] * 3
        if rec["index"] == 2:
            rec["returns"][seat[0]] = rec["returns"][seat[1]] = 0.5
        else:
            rec["returns"][seat[0]] = 1.0
    path.write_text(json.dumps(data))
    doc = "Above.\n<!-- bench-table tournament t.json -->\nold\n<!-- /bench-table -->\nBelow.\n"
    text = update_tables(doc, tmp_path)
    assert text.startswith("Above.\n<!-- bench-table tournament t.json -->\n<sub>From tournament "
                           "`t.json`: switchbacks, 3 seats, 3 games, 1 with a shared first place")
    assert text.endswith("<!-- /bench-table -->\nBelow.\n") and "old" not in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| `")]
    lo, hi = wilson_interval(2.5, 3)
    assert rows[0][:7] == ["| `greedy`", "3", "2.5", "83.3%", f"{lo:.1%}-{hi:.1%}", "2.50",
                           f"{3 * lo:.2f}-{3 * hi:.2f}"]
    assert [r[2] for r in rows] == ["2.5", "0.5", "0"]
    # Two seats: no fair-share columns (the target there is a win share).
    two = tmp_path / "two.json"
    run_tournament("switchbacks", ["greedy", "random"], games=2, seed=7, save=two)
    text = update_tables("<!-- bench-table tournament two.json -->\n<!-- /bench-table -->\n", tmp_path)
    assert "x fair share" not in text and "2 seats, 2 games" in text


def test_kill_stops_a_background_tournament_with_every_finished_game_saved(tmp_path):
    # A run left in the background (nohup, a script's `&`) ignores Ctrl-C;
    # `kill PID` (SIGTERM) is how it is stopped. The file is written at
    # most every 2 s while games finish, so the games of the last second
    # reach it only if SIGTERM saves on the way out, as Ctrl-C does.
    import signal
    import sys
    import time

    from cli_helpers import own_session

    path = tmp_path / "t.json"
    argv = [sys.executable, "-c", "from solvers.cli.main import run; run()", "tournament",
            "switchbacks", "--agent", "greedy", "--agent", "random", "--games", "100000",
            "--seed", "1", "--workers", "2", "--save", str(path)]
    with own_session(argv) as proc:
        deadline = time.monotonic() + 60
        first = 0
        while not first and time.monotonic() < deadline:   # the first write, after 2 s
            time.sleep(0.05)
            if path.exists():
                first = len(json.loads(path.read_text())["records"])
        assert first, "no games saved within a minute"
        time.sleep(1.0)              # games finish; the next write is a second away
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert [l for l in err.splitlines() if l.strip()] == ["solve: terminated"]
    saved = json.loads(path.read_text())
    assert len(saved["records"]) > first                 # the last second's games too
    assert saved["sessions"][-1]["games"] == len(saved["records"])
    assert sum(a["wins"] for a in saved["result"]["agents"]) <= len(saved["records"])


def test_the_command_line_gives_sigterm_back_as_it_found_it(capsys):
    import signal

    before = signal.getsignal(signal.SIGTERM)
    assert main(["tournament", "switchbacks", "--agent", "greedy", "--agent", "random",
                 "--games", "1", "--workers", "1"]) == 0
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_solo_tournament_table_counts_deals(tmp_path):
    from solvers.tournament import load_tournament, tournament_markdown

    path = tmp_path / "solo.json"
    run_tournament("c2c", ["greedy", "random"], games=2, players=1, seed=1, save=path)
    text = tournament_markdown(load_tournament(path), str(path))
    # 2 deals, each played by both agents: 4 games in the file, 2 per agent.
    assert "1 seat, 2 deals (each played by every agent)" in text and "(4 games, " in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| `")]
    assert [r[1] for r in rows] == ["2", "2"] and "x fair share" not in text
