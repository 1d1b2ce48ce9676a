"""Reports (issue 11, items 13-16): JSON without float noise, the tournament
table, the --plot figure, and the endgame agent before a match."""

from __future__ import annotations

import io
import json
import re
import time

import pytest

from cli_helpers import one_error_line, run
from solvers.stats import wilson_interval


# ---------------------------------------------------------------- item 13
def test_printed_json_has_no_float_noise(capsys):
    from solvers.cli.common import print_json

    noisy = {"gap": 0.7 - 0.6, "ci95": [0.1 + 0.2, 1 - 1e-16], "n": 3, "name": "x",
             "rows": [{"value": 2 / 3}]}
    print_json(noisy)
    text = capsys.readouterr().out
    assert "0.09999999999999998" not in text and "0.30000000000000004" not in text
    data = json.loads(text)
    assert data == {"gap": 0.1, "ci95": [0.3, 1.0], "n": 3, "name": "x",
                    "rows": [{"value": 0.666667}]}


def test_tournament_json_is_rounded(capsys):
    code, out, err = run(capsys, "tournament", "switchbacks", "--agents", "random,greedy,random",
                         "--players", "3", "--games", "3", "--workers", "1", "--json")
    assert code == 0, err
    for number in re.findall(r"-?\d+\.\d+", out):
        assert len(number.split(".")[1]) <= 6, number


# ---------------------------------------------------------------- item 14
def a_result(games=3):
    from solvers.tournament import AgentResult, TournamentResult

    agents = [
        AgentResult("mcts:iterations=2000,c=2", games, 7 / 3, 7 / 9, wilson_interval(7 / 3, games),
                    2.33, (-0.02, 4.69)),
        AgentResult("greedy", games, 2 / 3, 2 / 9, wilson_interval(2 / 3, games), 1.5, (0.5, 2.5)),
        AgentResult("random", games, 0.0, 0.0, wilson_interval(0, games), -1.25, (-3.0, 0.5)),
    ]
    return TournamentResult("switchbacks", 3, games, 0, agents, draws=1, seconds=12.34)


def table(capsys, result, **kw):
    from solvers.cli.common import out
    from solvers.cli.tournament import show

    old = out.width
    out.width = 80
    try:
        show(result, **kw)
    finally:
        out.width = old
    return capsys.readouterr().out


def test_tournament_table_fits_and_reads(capsys):
    text = table(capsys, a_result(), workers=2)
    lines = text.splitlines()
    assert all(len(l) <= 80 for l in lines)
    assert any("mcts:iterations=2000,c=2" in l for l in lines)        # not wrapped
    assert "2.33" in text and "2.33333" not in text                   # wins
    assert "-0.02 to 4.69" in text and "-0.02-4.69" not in text       # an interval
    assert "1 game ended with a shared first place" in text
    assert "1 games" not in text
    assert re.search(r"^Time: 12\.3 s on 2 workers\.$", text, re.M)


def test_tournament_title_names_the_challenge_and_counts(capsys):
    from solvers.tournament import AgentResult, TournamentResult

    solo = TournamentResult("c2c", 1, 1, 0, [AgentResult("greedy", 1, 1.0, 1.0, (0.2, 1.0), 98.0,
                                                          (98.0, 98.0))], draws=0, seconds=0.5)
    text = table(capsys, solo, challenge="The Alamo")
    title = text.splitlines()[0]
    assert "challenge The Alamo" in title
    assert "1 deal per agent" in title and "1 player," in title
    assert "1 deals" not in text and "1 players" not in text


# ---------------------------------------------------------------- item 15
def rows():
    out = []
    for i, (c, o) in enumerate([(100, 100), (100, 92), (98, 80), (70, 45), (20, 3), (0, 0)]):
        out.append({"challenge": f"challenge {i}", "ceiling": c / 100, "online": o / 100,
                    "ceiling_ci95": list(wilson_interval(c, 100)),
                    "online_ci95": list(wilson_interval(o, 100))})
    return out


def test_the_plot_has_intervals_a_clear_legend_and_room_at_100(tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.container import ErrorbarContainer

    from solvers.cli.c2c import challenge_figure

    fig = challenge_figure(rows(), 100)
    ax = fig.axes[0]
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2                                  # ceiling and online, with intervals
    low, high = ax.get_ylim()
    assert low < 0 and high > 1                            # 0% and 100% points off the frame
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    assert legend.y0 >= ax.get_window_extent(renderer).y1 - 1   # above the axes, over no point


def test_the_plot_says_where_it_wrote(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from solvers.cli.c2c import plot_challenges

    target = tmp_path / "challenges.png"
    plot_challenges(rows(), str(target), 100)
    assert target.read_bytes()[:4] == b"\x89PNG"
    assert f"Plot written to {target}" in capsys.readouterr().err


# ---------------------------------------------------------------- item 16
@pytest.mark.parametrize("argv", [
    ["tournament", "c2c", "--challenge", "The Alamo", "--agents", "endgame,greedy"],
    ["tournament", "switchbacks", "--agents", "endgame,greedy"],
    ["c2c", "--challenge", "The Alamo", "--online", "endgame"],
    ["c2c", "play", "--ai", "endgame"],
    ["switchbacks", "play", "--ai", "endgame"],
])
def test_the_endgame_agent_is_refused_before_a_whole_game(capsys, argv):
    start = time.perf_counter()
    code, out, err = run(capsys, *argv)
    assert code == 2
    line = one_error_line(err)
    assert "endgame agent" in line and "mcts:endgame_plies" in line
    assert time.perf_counter() - start < 20
    assert "Your move" not in out


def test_the_endgame_agent_still_plays_a_game_it_can_solve():
    from solvers._core.toygames import TicTacToe
    from solvers.agents import load_agent

    load_agent("endgame", TicTacToe()).check_match()     # no refusal


def full_rows():
    out = rows()
    for i, r in enumerate(out):
        r.update(required=9 + i, feasible=r["ceiling"] > 0, best_score=None if r["ceiling"] == 0 else 120)
    return out


def test_the_challenge_csv_carries_each_rate_with_its_interval(capsys):
    import csv as csvmod

    from solvers.cli.c2c import write_challenge_csv

    write_challenge_csv(full_rows())
    table = list(csvmod.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 6
    for row, (c, o) in zip(table, [(100, 100), (100, 92), (98, 80), (70, 45), (20, 3), (0, 0)]):
        for key, wins in (("ceiling", c), ("online", o)):
            lo, hi = wilson_interval(wins, 100)          # independent of the rows' own numbers
            assert float(row[f"{key}_low"]) == pytest.approx(lo, abs=1e-4)
            assert float(row[f"{key}_high"]) == pytest.approx(hi, abs=1e-4)
            assert float(row[f"{key}_low"]) <= float(row[key]) <= float(row[f"{key}_high"])


def test_the_challenge_table_shows_intervals(capsys):
    from solvers.cli.c2c import challenge_table
    from solvers.cli.common import out

    out.print(challenge_table(full_rows(), 100, 0))
    text = capsys.readouterr().out
    assert "95% intervals" in text and "70% (" in text
    lo, hi = wilson_interval(70, 100)
    assert f"{100 * lo:.0f}-{100 * hi:.0f}" in text          # challenge 3's ceiling, 61-78


def test_off_a_terminal_long_work_logs_a_plain_progress_line_now_and_then(capsys):
    from solvers.cli.common import LOG_EVERY, ProgressLog

    now = [100.0]
    log = ProgressLog("bigsur tournament", clock=lambda: now[0])
    for t, done in [(10, 1), (59, 2), (161, 3), (170, 4), (3700, 9), (3740, 10)]:
        now[0] = 100.0 + t
        log.update(done, 10)
    lines = capsys.readouterr().err.splitlines()
    assert LOG_EVERY == 60
    # Hand-computed: 3 of 10 after 161 s leaves 7 x 161 / 3 = 375.7 s; the
    # next line waits a minute, but the end is always said once a line was.
    assert lines == ["bigsur tournament: 3/10 (30%), 2m41s so far, about 6m15s left",
                     "bigsur tournament: 9/10 (90%), 1h01m so far, about 6m51s left",
                     "bigsur tournament: 10/10 (100%), 1h02m so far"]


def test_a_tournament_logs_progress_only_when_work_is_long(capsys, monkeypatch):
    argv = ["tournament", "switchbacks", "--agent", "random", "--agent", "greedy",
            "--games", 4, "--seed", 1, "--workers", 1]
    code, _, err = run(capsys, *argv)
    assert code == 0 and "tournament:" not in err        # short work: no log lines
    monkeypatch.setattr("solvers.cli.common.LOG_EVERY", 0.0)
    code, _, err = run(capsys, *argv)
    lines = [l for l in err.splitlines() if "tournament:" in l]
    assert code == 0 and lines[-1].startswith("switchbacks tournament: 4/4 (100%), 0m0")
    assert [l.split(":")[1].split()[0] for l in lines] == ["1/4", "2/4", "3/4", "4/4"]


def test_a_three_seat_tournament_table_tells_wins_against_the_fair_share(capsys):
    argv = ["tournament", "bigsur", "--players", 3, "--agent", "greedy", "--agent", "random",
            "--agent", "random", "--games", 6, "--seed", 0, "--workers", 1]
    code, out, _ = run(capsys, *argv, "--json")
    agents = json.loads(out)["agents"]
    code2, text, _ = run(capsys, *argv)
    assert code == code2 == 0
    lines = text.splitlines()
    at = lines.index("Wins as a multiple of the fair share (one game in 3), 95% CI:")
    # x fair = wins / games x 3 seats, from the JSON's counts, with Wilson's interval x 3
    want = []
    for a in agents:
        lo, hi = wilson_interval(a["wins"], a["games"])
        want.append(f"  {a['spec']} {a['wins'] / a['games'] * 3:.2f}x ({3 * lo:.2f} to {3 * hi:.2f})")
    assert lines[at + 1:at + 4] == want
    code, text2, _ = run(capsys, "tournament", "switchbacks", "--agent", "greedy", "--agent",
                         "random", "--games", 2, "--workers", 1)
    assert code == 0 and "fair share" not in text2                # two seats: the win rate says it
