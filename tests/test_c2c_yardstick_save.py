"""A yardstick saved as it goes and resumed (``solve c2c yardstick --save /
--resume``): an interrupted run continued gives what one run gives, the
saved positions are used rather than measured again, and a file of other
settings or a broken one is one clear error that leaves the file as it was."""

from __future__ import annotations

import json

import pytest
from cli_helpers import one_error_line, run

from solvers.errors import SolversError
from solvers.games.c2c.data import load_map
from solvers.games.c2c.yardstick import load_yardstick, round_three_yardstick, yardstick

MAP = load_map()
WEAK = "mcts:iterations=30"


class Stop(Exception):
    pass


def stop_after(n):
    seen = []

    def progress(k):
        seen.append(k)
        if len(seen) >= n:
            raise Stop
    return progress


def test_an_interrupted_run_resumed_gives_the_answer_of_one_run(tmp_path):
    path = str(tmp_path / "y.json")
    with pytest.raises(Stop):
        yardstick(MAP, None, WEAK, 3, seed=2, save=path, progress=stop_after(1))
    saved = load_yardstick(path)
    assert [p.index for p in saved.rows] == [0] and saved.positions == 3
    resumed = yardstick(MAP, None, WEAK, 3, seed=2, save=path, resume=saved)
    fresh = yardstick(MAP, None, WEAK, 3, seed=2)           # the independent answer
    assert resumed.rows == fresh.rows and resumed.to_json() == fresh.to_json()
    again = load_yardstick(path)
    assert again.rows == list(fresh.rows) and len(again.sessions) == 2
    assert [s["positions"] for s in again.sessions] == [1, 2]


def test_the_saved_positions_are_kept_not_measured_again(tmp_path):
    """A position altered in the file comes back altered: the resumed run
    read it instead of playing its deal again (the control: the same
    positions played afresh)."""
    path = tmp_path / "y.json"
    yardstick(MAP, None, WEAK, 2, seed=2, save=str(path))
    data = json.loads(path.read_text())
    row = data["rows"][0]
    row["points"] = row["best_points"] - 40.0
    path.write_text(json.dumps(data))
    resumed = yardstick(MAP, None, WEAK, 3, seed=2, resume=load_yardstick(str(path)))
    fresh = yardstick(MAP, None, WEAK, 3, seed=2)
    assert resumed.rows[1:] == fresh.rows[1:]
    assert resumed.rows[0].points == pytest.approx(fresh.rows[0].best_points - 40.0)
    assert resumed.loss_points > fresh.loss_points + 5


def test_the_cli_resumes_with_the_files_settings(tmp_path, capsys):
    """Round 3: the resumed run takes the player, sampling and seed from the
    file (none is given again) and keeps the first position as saved."""
    path = str(tmp_path / "y3.json")
    args = ["c2c", "yardstick", "--round", "3", "--player", "random", "--hands", "1",
            "--candidates", "1", "--seed", "3", "--workers", "1"]
    code, out, err = run(capsys, *args, "--positions", "1", "--save", path, "--json")
    assert code == 0, err
    first = load_yardstick(path).rows
    assert json.loads(out)["saved"] == path
    code, out, err = run(capsys, "c2c", "yardstick", "--resume", path, "--positions", "2",
                         "--workers", "1")
    assert code == 0, err
    assert "random, 2 round-3 positions (seed 3)" in out
    assert "1 position from the file, 1 position measured now" in out
    saved = load_yardstick(path)
    assert saved.rows[:1] == first and len(saved.rows) == 2
    assert (saved.settings.hands, saved.settings.candidates, saved.settings.seed) == (1, 1, 3)


@pytest.mark.parametrize("flags, needle", [
    (["--player", "mcts:iterations=31"], "measured with --player 'mcts:iterations=30', not "
                                         "'mcts:iterations=31'"),
    (["-c", "Wrigley Field"], "measured with --challenge none, not 'Wrigley Field'"),
    (["--seed", "5"], "measured with --seed 2, not 5"),
    (["--round", "3"], "measured with --round 4, not 3"),
    (["--positions", "1"], "the first 2 deals; ask for --positions 2 or more"),
])
def test_a_resume_that_changes_a_setting_is_refused(tmp_path, capsys, flags, needle):
    path = tmp_path / "y.json"
    yardstick(MAP, None, WEAK, 2, seed=2, save=str(path))
    before = path.read_bytes()
    code, _, err = run(capsys, "c2c", "yardstick", "--resume", str(path), "--workers", "1", *flags)
    assert code == 2 and needle in one_error_line(err)
    assert path.read_bytes() == before


def test_save_refuses_an_existing_file_that_is_not_resumed(tmp_path, capsys):
    path = tmp_path / "y.json"
    path.write_text("keep me")
    code, _, err = run(capsys, "c2c", "yardstick", "--player", WEAK, "--positions", "1",
                       "--save", str(path))
    assert code == 2 and "--resume" in one_error_line(err)
    assert path.read_text() == "keep me"


@pytest.mark.parametrize("edit, needle", [
    (lambda d: d.update(format="solvers-tournament"), "no \"format\""),
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d.update(round=5), "\"round\""),
    (lambda d: d.update(hands=4), "belong to round 3"),
    (lambda d: d["rows"].append(dict(d["rows"][0])), "listed twice"),
    (lambda d: d["rows"][0].update(index=7), "\"index\" should be 0 to 1"),
    (lambda d: d["rows"][0].update(points="lots"), "should be numbers"),
    (lambda d: d["rows"][0].pop("win"), "should be an object of"),
])
def test_a_broken_file_is_one_error(tmp_path, capsys, edit, needle):
    path = tmp_path / "y.json"
    yardstick(MAP, None, WEAK, 2, seed=2, save=str(path))
    load_yardstick(str(path))                       # the control: the file as written reads
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(SolversError, match="not a yardstick file"):
        load_yardstick(str(path))
    code, _, err = run(capsys, "c2c", "yardstick", "--resume", str(path))
    assert code == 2 and needle in one_error_line(err)
    (tmp_path / "n.json").write_text("{not json")
    code, _, err = run(capsys, "c2c", "yardstick", "--resume", str(tmp_path / "n.json"))
    assert code == 2 and "not JSON" in one_error_line(err)


def test_round_three_and_round_four_files_do_not_mix(tmp_path):
    path = str(tmp_path / "y.json")
    round_three_yardstick(MAP, None, "random", 1, seed=3, hands=1, candidates=1, save=path)
    saved = load_yardstick(path)
    assert saved.settings.round == 3 and saved.settings.values == "default"
    with pytest.raises(SolversError, match="--round 3, not 4"):
        yardstick(MAP, None, "random", 1, seed=3, resume=saved)
    with pytest.raises(SolversError, match="--hands 1, not 2"):
        round_three_yardstick(MAP, None, "random", 1, seed=3, hands=2, candidates=1, resume=saved)


def test_a_seed_out_of_range_is_refused_before_any_work(tmp_path):
    path = tmp_path / "y.json"
    with pytest.raises(SolversError, match="seed should be a whole number"):
        yardstick(MAP, None, WEAK, 1, seed=-1, save=str(path))
    assert not path.exists()
