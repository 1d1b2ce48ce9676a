"""Learned values of solo Coast to Coast sheets (solvers.games.c2c.values):
the features against independent counts, the network against functions it
must fit (and a control it must not), the file against corruption, the
training's determinism and resumption, and the online agent's learned
rounds against an independent walk over every end."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

import solvers
from solvers.errors import SolversError
from solvers.games.c2c import values as V
from solvers.games.c2c.review import round_ends as reference_round_ends


def _positions(game, rounds=(0, 1, 2, 3), seeds=(1, 2, 3)):
    """The first decision of each round in ``rounds`` of some seeded random games."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        dealt = False
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.seeded_outcome())
                dealt = True
                continue
            if dealt and s.round in rounds:
                out.append(s.clone())
            dealt = False
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return out


def _mask(locations):
    return sum(1 << int(i) for i in locations)


def _sheets(game, n=60):
    """Sheets (circled, crossed, exact) and unseen masks met in random games."""
    rows = []
    for s in _positions(game, rounds=(1, 2, 3, 4, 5))[:n]:
        sh = s.sheets[0]
        rows.append((_mask(sh.circled), _mask(sh.crossed), _mask(sh.exact), V.unseen_cards(s), s))
    return rows


def test_features_agree_with_independent_counts():
    game = solvers.load_game("c2c")
    m = game.map
    f = V.SheetFeatures(m)
    rows = _sheets(game)
    c, x, e, u = (np.array([r[k] for r in rows], np.uint32) for k in range(4))
    # the points: the kernel's own score of each sheet
    assert f.score(c, e).tolist() == [r[4].score_breakdown(0)["total"] for r in rows]
    feats = f(c, x, e, u)
    n = m.n
    for k, (cc, xx, _ee, uu, _) in enumerate(rows):
        free = [i for i in range(n) if not (cc | xx) >> i & 1]
        room = [i for i in free if any(cc >> j & 1 for j in range(n) if m.neighbours[i] >> j & 1)]
        assert feats[k, 0:n].tolist() == [float(cc >> i & 1) for i in range(n)]
        assert feats[k, n:2 * n].tolist() == [float(xx >> i & 1) for i in range(n)]
        assert feats[k, 3 * n:4 * n].tolist() == [float(i in room) for i in range(n)]
        takers = [sum(1 for card in range(n) if uu >> card & 1 and m.matches[card] >> i & 1) / 16
                  if i in free else 0.0 for i in range(n)]
        assert feats[k, 7 * n:8 * n].tolist() == pytest.approx(takers)
    # control: the features tell different sheets apart
    assert len({feats[k].tobytes() for k in range(len(rows))}) > len(rows) // 2


def test_the_round_ends_are_reached_by_walking():
    game = solvers.load_game("c2c")
    for s in _positions(game, rounds=(1, 3), seeds=(4,))[:3]:
        ends = s.round_ends()
        for end, _ in random.Random(0).sample(ends, min(5, len(ends))):
            after = V.walk_to(s, end)
            sh = after.sheets[0]
            assert (_mask(sh.circled), _mask(sh.crossed), _mask(sh.exact)) == end
            assert after.is_chance_node() or after.is_terminal()
    with pytest.raises(SolversError, match="not an end"):
        V.walk_to(s, (0, 0, 0))


def test_the_network_fits_what_it_should_and_not_noise():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(3000, 12)).astype(np.float32)
    points = 50 + 10 * np.maximum(x[:, 0] + x[:, 1], 0) - 5 * x[:, 2] * (x[:, 3] > 0)
    y = np.stack([np.ones(len(x)), points], axis=1)
    net, fit = V.fit_net(x, y, seed=0, hidden=(32, 16), epochs=30, batch=64)
    assert fit["rmse_points"] < 0.2 * fit["sd_points"]
    again, _ = V.fit_net(x, y, seed=0, hidden=(32, 16), epochs=30, batch=64)
    assert np.array_equal(net.predict(x[:50]), again.predict(x[:50]))    # seeded
    # control: targets unrelated to the inputs are not fitted
    _, noise = V.fit_net(x, np.stack([np.ones(len(x)), rng.permutation(points)], axis=1),
                         seed=0, hidden=(32, 16), epochs=30)
    assert noise["rmse_points"] > 0.9 * noise["sd_points"]


@pytest.fixture(scope="module")
def tiny_values(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("values") / "v.npz")
    values = V.train(None, out=path, seed=0, positions=3, ends=2, player="mcts:iterations=20",
                     hidden=(8,), epochs=2)
    return path, values


def test_training_is_seeded_resumable_and_the_same_on_any_worker_count(tmp_path, tiny_values,
                                                                        monkeypatch):
    path, values = tiny_values
    other = str(tmp_path / "w2.npz")
    monkeypatch.setattr(V, "POSITIONS_A_JOB", 2)    # two jobs a boundary, one on each worker
    again = V.train(None, out=other, seed=0, positions=3, ends=2, player="mcts:iterations=20",
                    hidden=(8,), epochs=2, workers=2)
    monkeypatch.undo()
    sheets = [(7, 8, 0), (0b111000, 1, 0b1000)]
    for r in V.LEARNED:
        assert np.array_equal(values.values(r, sheets, 0xFFFF0), again.values(r, sheets, 0xFFFF0))
    # stopped after the first boundary's samples, then resumed: the same values
    stopped = str(tmp_path / "stopped.npz")

    def stop(stage, done, total):
        if stage == "after round 2" and done == 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        V.train(None, out=stopped, seed=0, positions=3, ends=2, player="mcts:iterations=20",
                hidden=(8,), epochs=2, progress=stop)
    import os
    assert os.path.exists(stopped + ".ckpt.npz") and not os.path.exists(stopped)
    # The first sitting's time as if it had lasted an hour: the record adds it.
    with np.load(stopped + ".ckpt.npz") as f:
        kept = {k: f[k] for k in f.files}
    assert kept.pop("sittings") == 1 and 0 < kept.pop("seconds") < 3600
    config = json.loads(str(kept.pop("config")))
    V._write_checkpoint(stopped + ".ckpt.npz", config, {**kept, "seconds": np.array(3600.0),
                                                        "sittings": np.array(1)})
    resumed = V.train(None, out=stopped, seed=0, positions=3, ends=2, player="mcts:iterations=20",
                      hidden=(8,), epochs=2, resume=True)
    for r in V.LEARNED:
        assert np.array_equal(values.values(r, sheets, 0xFFFF0), resumed.values(r, sheets, 0xFFFF0))
    assert not os.path.exists(stopped + ".ckpt.npz")
    assert resumed.training["sittings"] == 2 and resumed.training["seconds"] >= 3600
    assert values.training["sittings"] == 1 and values.training["seconds"] < 3600
    # a checkpoint whose time is not one number is one error, not a traceback
    V._write_checkpoint(stopped + ".ckpt.npz", config, {**kept, "seconds": np.zeros(2)})
    with pytest.raises(SolversError, match="cannot resume"):
        V.train(None, out=stopped, seed=0, positions=3, ends=2, player="mcts:iterations=20",
                hidden=(8,), epochs=2, resume=True)
    # a checkpoint of other settings is refused, not mixed in
    V._write_checkpoint(str(tmp_path / "x.npz.ckpt.npz"), {"seed": "other"}, {})
    with pytest.raises(SolversError, match="other settings"):
        V.train(None, out=str(tmp_path / "x.npz"), seed=0, positions=3, ends=2, resume=True)
    # control: another seed gives other values
    third = V.train(None, out=str(tmp_path / "s1.npz"), seed=1, positions=3, ends=2,
                    player="mcts:iterations=20", hidden=(8,), epochs=2)
    assert not np.array_equal(values.values(3, sheets, 0xFFFF0), third.values(3, sheets, 0xFFFF0))


def test_a_run_with_more_positions_grows_from_a_kept_checkpoint(tmp_path, monkeypatch):
    """--keep-checkpoint leaves a finished run's samples; a run with more
    positions resumed from it makes again only what it cannot share (the
    round-3 jobs cut otherwise, every later boundary) and ends with the
    values of a run made from nothing; a checkpoint of other settings is
    still refused."""
    import os

    monkeypatch.setattr(V, "POSITIONS_A_JOB", 2)   # jobs of 2: [0, 2) is shared, [2, 3) not
    made = []
    real = V.run_sample_job
    monkeypatch.setattr(V, "run_sample_job", lambda job: made.append(job.boundary) or real(job))
    small = str(tmp_path / "grow.npz")
    opts = {"seed": 0, "ends": 2, "player": "mcts:iterations=20", "hidden": (8,), "epochs": 2}
    V.train(None, out=small, positions=3, keep_checkpoint=True, **opts)
    assert os.path.exists(small) and os.path.exists(small + ".ckpt.npz")
    made.clear()
    grown = V.train(None, out=small, positions=5, resume=True, **opts)
    assert sorted(made) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]      # round 3: 2 jobs of 3
    assert grown.training["grown_from"] == 3 and grown.training["sittings"] == 2
    assert not os.path.exists(small + ".ckpt.npz")
    made.clear()
    fresh = V.train(None, out=str(tmp_path / "fresh.npz"), positions=5, **opts)
    assert sorted(made).count(3) == 3 and "grown_from" not in fresh.training    # control
    sheets = [(7, 8, 0), (0b111000, 1, 0b1000)]
    for r in V.LEARNED:
        assert np.array_equal(grown.values(r, sheets, 0xFFFF0), fresh.values(r, sheets, 0xFFFF0))
    # other settings than the positions: refused, as before
    V.train(None, out=small, positions=3, keep_checkpoint=True, **opts)
    with pytest.raises(SolversError, match="other settings"):
        V.train(None, out=small, positions=5, resume=True, **{**opts, "ends": 3})


def test_the_file_round_trips_and_bad_files_are_one_error(tmp_path, tiny_values):
    path, values = tiny_values
    m = solvers.load_game("c2c").map
    loaded = V.SheetValues.load(path, m)
    sheets = [(7, 8, 0), (0b111000, 1, 0b1000)]
    assert np.array_equal(loaded.values(1, sheets, 0xFFFF0), values.values(1, sheets, 0xFFFF0))
    data = open(path, "rb").read()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(SolversError, match="cannot read the value file"):
        V.SheetValues.load(str(cut), m)
    other = tmp_path / "other.npz"
    np.savez(other, meta=np.array('{"format": "something else"}'))
    with pytest.raises(SolversError, match="not a Coast to Coast value file"):
        V.SheetValues.load(str(other), m)
    big = tmp_path / "big.npz"
    np.savez_compressed(big, meta=np.array("{}"), zeros=np.zeros(V.MAX_UNPACKED // 8 + 1))
    assert big.stat().st_size < 1_000_000
    with pytest.raises(SolversError, match="unpacks to over"):
        V.SheetValues.load(str(big), m)
    # a network of the wrong shape
    buf = io.BytesIO()
    loaded.nets[1].mean = loaded.nets[1].mean[:-1]
    loaded.save(buf)
    with pytest.raises(SolversError, match="does not fit"):
        V.SheetValues.from_bytes(buf.getvalue(), m, "x")
    # made for another game
    with pytest.raises(SolversError, match="another game"):
        solvers.load_agent("online", solvers.load_game("c2c", challenge="Cedar Point"),
                           learned=4, values=path)


def test_the_learned_rounds_take_the_best_end_of_an_independent_walk(tiny_values):
    """In each learned round the agent's move keeps reachable the end of the
    best learned value among every end the reference walk finds."""
    path, values = tiny_values
    game = solvers.load_game("c2c")
    agent = solvers.load_agent("online", game, early="report", learned=4, values=path, seed=0)
    checked = 0
    for s in _positions(game, rounds=(0, 1, 2, 3), seeds=(5, 6, 7)):
        ends = reference_round_ends(s)
        keys = [tuple(_mask(part) for part in key) for key in ends]
        vals = values.values(s.round, keys, V.unseen_cards(s))[:, 1]
        best = keys[int(np.argmax(vals))]
        move = agent.step(s)
        child = s.clone()
        child.apply_action(move)
        if child.is_chance_node() or child.round != s.round:
            sh = child.sheets[0]
            reach = {(_mask(sh.circled), _mask(sh.crossed), _mask(sh.exact))}
        else:
            reach = {e for e, _ in child.round_ends()}
        assert best in reach
        rows = agent.analyse(s)
        assert rows[0]["action"] == move and rows[0]["value"] == pytest.approx(vals.max(), abs=1e-3)
        checked += 1
    assert checked > 10
    # control: the ends' values differ, so the choice mattered
    assert vals.max() > vals.min()


def test_a_target_over_several_hands_is_the_mean_of_their_best_ends(tiny_values):
    """sample_values(hands=K): each end's target is the mean over K hands of
    the best next-round end, found here by the reference walk and valued by
    the learned values (the hands are dealt from the same seeded stream)."""
    _, values = tiny_values
    game = solvers.load_game("c2c")
    positions = [(seed, s) for seed, s in enumerate(_positions(game, rounds=(1,), seeds=(8, 9)))]
    ends = 2

    def targets(hands):
        out = []
        for seed, s in positions:
            rng = random.Random(seed * 8 + 1)
            listed = [e for e, _ in s.round_ends()]
            for end in rng.sample(listed, min(ends, len(listed))):
                after = V.walk_to(s, end)
                best = []
                for _ in range(hands):
                    dealt = V.deal_hand(after, rng)
                    keys = [tuple(_mask(part) for part in key) for key in reference_round_ends(dealt)]
                    best.append(values.values(2, keys, V.unseen_cards(dealt))[:, 1].max())
                out.append(np.mean(best))
        return out

    three, one = targets(3), targets(1)
    assert V.sample_values(game, 1, positions, ends, values.of_round, hands=3).points == \
        pytest.approx(three, abs=1e-4)
    assert V.sample_values(game, 1, positions, ends, values.of_round).points == \
        pytest.approx(one, abs=1e-4)
    # control: the hands' mean is not the single hand's value
    assert np.abs(np.array(three) - np.array(one)).max() > 1e-3


@pytest.mark.parametrize("options, needle", [
    ({"learned": 5}, "learned should be at most 4"),
    ({"learned": 2, "exact": 1}, "learned rounds need exact=2"),
    ({"learned": 1, "values": "/nonexistent/v.npz"}, "cannot read value file"),
    ({"exact_hands": 4}, "needs learned=1"),
    ({"learned": 1, "exact_hands": -1}, "exact_hands"),
])
def test_bad_learned_options_are_one_error(options, needle):
    with pytest.raises(SolversError, match=needle):
        solvers.load_agent("online", solvers.load_game("c2c"), **options)


def test_solve_train_c2c_makes_a_file_the_online_agent_plays(capsys, tmp_path):
    """The command end to end on a tiny run: the file it names loads, holds a
    value after the setup and each of rounds 1-3, records its command, and
    is what ``online:learned=4,values=FILE`` plays."""
    import json

    from cli_helpers import run

    out = tmp_path / "mine.npz"
    code, stdout, _ = run(capsys, "train", "c2c", "--games", "1", "--iterations", "10",
                          "--workers", "1", "--out", out, "--json")
    assert code == 0, stdout
    summary = json.loads(stdout)
    assert summary["file"] == str(out) and summary["player"] == "mcts:iterations=10"
    assert sorted(summary["fit"]) == ["0", "1", "2", "3"]
    assert "solve train" in summary["command"] or summary["command"].startswith("solve")
    game = solvers.load_game("c2c")
    loaded = V.SheetValues.load(str(out), game.map)
    assert sorted(loaded.nets) == [0, 1, 2, 3] and loaded.challenge is None
    # a second pass: the positions of the learned player of the first file,
    # two hands a target
    second = tmp_path / "second.npz"
    spec = f"online:early=report,learned=4,values={out}"
    code, stdout, _ = run(capsys, "train", "c2c", "--games", "1", "--player", spec,
                          "--hands", "2", "--workers", "1", "--out", second, "--json")
    assert code == 0, stdout
    summary = json.loads(stdout)
    assert summary["player"] == spec and summary["hands"] == 2
    assert sorted(V.SheetValues.load(str(second), game.map).nets) == [0, 1, 2, 3]
    code, stdout, _ = run(capsys, "tournament", "c2c", "--agents",
                          f"online:early=report,learned=4,values={out}", "--games", "1",
                          "--json")
    assert code == 0, stdout


@pytest.mark.parametrize("argv, needle", [
    (["train", "c2c", "--challenge", "Nowhere Field"], "Nowhere"),
    (["train", "switchbacks", "--challenge", "Wrigley Field"], "--challenge"),
    (["train", "c2c", "--players", "2", "--challenge", "Wrigley Field"], "--challenge"),
    (["train", "switchbacks", "--hands", "4"], "--hands"),
    (["train", "switchbacks", "--player", "random"], "--player"),
    (["train", "c2c", "--player", "random", "--iterations", "5"], "--iterations"),
    (["train", "c2c", "--player", "online:early=nowhere"], "nowhere"),
])
def test_solve_train_refuses_a_challenge_it_cannot_train_in_one_line(capsys, argv, needle):
    from cli_helpers import one_error_line, run

    code, _, err = run(capsys, *argv)
    assert code != 0 and needle in one_error_line(err)


def test_a_challenge_run_with_no_sheet_still_alive_is_one_error_line(capsys, tmp_path):
    """Positions of a player so weak that every sheet after round 3 has lost
    the challenge leave nothing to fit: one error line naming the cure, no
    file (it used to fit a network to nothing and fail in a worker on its
    NaN weights). Control: the same tiny run without a challenge makes its
    file (test_solve_train_c2c_makes_a_file_the_online_agent_plays)."""
    from cli_helpers import one_error_line, run

    out = tmp_path / "none.npz"
    code, _, err = run(capsys, "train", "c2c", "--challenge", "Wrigley Field", "--games", "2",
                       "--iterations", "10", "--workers", "1", "--out", out)
    line = one_error_line(err)
    assert code != 0 and "after round 3: 0 sheet(s)" in line and "--games" in line
    assert not out.exists()
    # without a challenge every end counts, but one sample is still too few
    with pytest.raises(SolversError, match="1 sheet.* were sampled, too few"):
        V.train(None, out=str(tmp_path / "one.npz"), positions=1, ends=1,
                player="mcts:iterations=5", hidden=(4,), epochs=1)


def test_the_rounds_memo_plays_as_a_fresh_agent_would(tiny_values):
    """One agent through whole games (its memo of the round's end values
    serving later decisions) plays at every decision the move a fresh
    agent, with no memo, plays there: learned rounds and exact ones."""
    path, _ = tiny_values
    game = solvers.load_game("c2c")
    spec = {"early": "report", "learned": 4, "values": path}
    hits = 0
    for seed in (11, 12):
        agent = solvers.load_agent("online", game, seed=seed, **spec)
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.seeded_outcome())
                continue
            keys = [e for e, _ in s.round_ends()]
            hits += agent._remembered(s, keys) is not None
            move = agent.step(s)
            assert move == solvers.load_agent("online", game, seed=seed, **spec).step(s)
            s.apply_action(move)
    assert hits > 10      # control: later decisions of a round were served by the memo


def test_inference_runs_blas_on_one_thread_and_gives_the_rest_back():
    """The learned values' products run with one BLAS thread (a threaded
    BLAS spins on a second core after each small product, time a search
    needs); the caller's thread count is back afterwards; the values are
    those of the same products with every thread. In a fresh process: the
    thread that first sets OpenBLAS's count keeps it (threadpoolctl), and
    in this one another test's thread may have."""
    import subprocess
    import sys

    script = """
import json
import numpy as np
import threadpoolctl
import solvers
from solvers.games.c2c import values as V

def blas():
    return max(i["num_threads"] for i in threadpoolctl.threadpool_info()
               if i["user_api"] == "blas")

game = solvers.load_game("c2c")
values = V.builtin_values(game.map, None)
state = game.new_initial_state(seed=5)
while state.is_chance_node() or state.round < 2:
    state.apply_action(state.seeded_outcome() if state.is_chance_node()
                       else state.legal_actions()[0])
ends = [e for e, _ in state.round_ends()]
seen, predict = [], V.ValueNet.predict
V.ValueNet.predict = lambda net, x: (seen.append(blas()), predict(net, x))[1]
with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
    got = values.of_round(state, ends)
    V.ValueNet.predict = predict
    after = blas()
    a = np.array(ends, np.uint32)
    x = values.features(a[:, 0], a[:, 1], a[:, 2],
                        np.full(len(a), V.unseen_cards(state), np.uint32))
    threaded = values.nets[2].predict(x)[:, 1]
print(json.dumps({"seen": seen, "after": after, "ends": len(ends),
                  "gap": float(np.abs(np.array([p for _, p in got]) - threaded).max())}))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r["seen"] == [1]
    assert r["after"] == 2          # control: two threads asked, two outside the values
    assert r["ends"] > 1 and r["gap"] < 1e-3
