"""The learned leaf evaluation (solvers.learn, _core/eval_api.h, the model in
the C search): features that read only the seat's information (twins), the
C value against an independent Python one, the model file's checks, the
training pipeline (tiny, resumable) and ``solve train``."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from learned_twins import twin_value_checks
from random_play import random_game

import solvers
from solvers._core.mcts import Search, features_info, features_of
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.learn.model import Model, load_model, model_from_json, resolve_model
from solvers.learn.train import fit_logistic, train
from solvers.rng import SplitMix64

GAME = "switchbacks"


@pytest.fixture(scope="module")
def game():
    return solvers.load_game(GAME, players=2)


def feats(state, seat):
    g = state.game
    return features_of(g._gamedef_capsule(), g._features_capsule(), state._state_capsule(), seat)


def mid_states(players=2, seeds=range(1, 7), plies=(14, 30, 50)):
    """Positions of random games, decisions and chance nodes alike."""
    for seed in seeds:
        for n in plies:
            _, state = random_game(GAME, players, seed=seed, plies=n)
            if not state.is_terminal():
                yield state


def random_model(game, seed=5, value_sum=1.0):
    rng = SplitMix64(seed)
    n = features_info(game._features_capsule())["num_features"]
    w = [((rng.next() >> 11) / 2.0**53 - 0.5) * 0.6 for _ in range(n)]
    return Model(game=GAME, players=game.num_players, feature_version=1, feature_names=[],
                 weights=w, bias=0.1, value_sum=value_sum)


# ------------------------------------------------------------ hidden information
@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_ignore_what_the_seat_cannot_see(players):
    """Twins (the state and a re-deal of everything ``seat`` cannot see) give
    ``seat`` the same features; control: the twins do differ, and some other
    seat (who sees its own re-dealt hand) gets other features."""
    differ = other_changed = 0
    for state in mid_states(players):
        for seat in range(players):
            twin = state.resample(seat, 99)
            assert feats(twin, seat) == feats(state, seat)
            if twin._raw() != state._raw():
                differ += 1
            if any(feats(twin, q) != feats(state, q) for q in range(players) if q != seat):
                other_changed += 1
    assert differ > 10 and other_changed > 0


def test_the_searchers_value_ignores_what_it_cannot_see(game):
    """The model's value for the searching seat (and, with two seats, the
    whole vector) is the same on twins; control: without the constant-sum
    share, the other seat's own value changes on some twin."""
    model = random_model(game)
    own = random_model(game, value_sum=0.0)
    changed = 0
    for state in mid_states():
        if state.is_chance_node():
            continue
        seat = state.current_player()
        twin = state.resample(seat, 7)
        changed += twin_value_checks(game, model, own, state, twin, seat)
    assert changed > 0


def test_features_are_the_hand_made_counts():
    """One position by hand: tiles 5-6-7-8 on a chain of hexes (0-1-2-3)
    with seat 0's pair on 6 score 2 points; seat 1's hiker on 20 (hex 24,
    with empty neighbours) sits on a run of one tile, three short, alive
    (19 and 21 not on the map; 21 is in seat 0's hand)."""
    from solvers.games.switchbacks.position import parse_position

    pos = {
        "players": 2, "to_move": 1,
        "map": {"0": 5, "1": 6, "2": 7, "3": 8, "24": 20, "18": 30},
        "hikers": [{"hex": 1, "player": 0, "kind": "buddies"},
                   {"hex": 24, "player": 1, "kind": "solo"}],
        "hands": [[21, 1, 2], [3, 4, 9]], "set_aside": [[10, 11], [12, 13]],
        "unplaced": [{"solo": 12, "buddies": 1}, {"solo": 13, "buddies": 1}],
    }
    state = parse_position(pos)
    names = state.game.feature_names
    f0 = dict(zip(names, feats(state, 0)))
    f1 = dict(zip(names, feats(state, 1)))
    assert f0["own:points"] == 2 and f1["others:points"] == 2 and f1["own:points"] == 0
    assert f0["others:need3_alive"] == 1 and f1["own:need3_alive"] == 1
    assert f0["own:unplaced"] == 14 and f0["others:unplaced"] == 15 and f1["own:unplaced"] == 15
    assert f0["own:pairs_waiting"] == 1 and f1["to_move"] == 1 and f0["to_move"] == 0
    assert f0["hand_links"] == 1          # 21 beside 20; 1 and 2 have no number +-1 on the map
    assert f1["hand_links"] == 2          # 4 beside 5 (hex 0), 9 beside 8 (hex 3); 3 none
    assert f0["bias"] == 1 and f0["progress"] == pytest.approx(5 / 32)
    assert sum(v for k, v in f0.items() if k.startswith("own:") and k[4:] in (
        "need1_held", "need1_open", "need2_alive", "dead")) == 0


# ------------------------------------------------------------ the value in C
@pytest.mark.parametrize("value_sum", [1.0, 0.0])
def test_c_value_matches_the_python_formula(game, value_sum):
    model = random_model(game, value_sum=value_sum)
    n = 0
    for state in mid_states():
        if state.is_chance_node():
            continue
        s = Search(game._gamedef_capsule(), state._state_capsule(), **model.search_options(game))
        want = model.value([feats(state, q) for q in range(2)], state.current_player())
        got = s.leaf_value(state._state_capsule())
        assert got == pytest.approx(want, abs=1e-5)
        n += 1
    assert n > 5


def test_a_model_only_search_values_each_move_by_the_model(game):
    """mix=1: no rollout; after one iteration per root move, each move's
    value is the model's value of the position it leads to."""
    _, state = random_game(GAME, 2, seed=4, plies=40)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    model = random_model(game)
    me = state.current_player()
    legal = state.legal_actions()
    s = Search(game._gamedef_capsule(), state._state_capsule(), seed=3, mix=1.0,
               **model.search_options(game))
    r = s.run(iterations=len(legal))
    assert sorted(r["actions"]) == legal and set(r["visits"]) == {1}
    for a, v in zip(r["actions"], r["values"]):
        child = state.clone()
        child.apply_action(a)
        if child.is_terminal():
            want = child.returns()[me]
        else:
            want = model.value([feats(child, q) for q in range(2)], me)[me]
        assert v == pytest.approx(want, abs=1e-5)


def test_model_none_is_the_plain_search(game):
    _, state = random_game(GAME, 2, seed=2, plies=30)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    plain = load_agent("mcts", game, seed=4, iterations=300, model="none").analyse(state)
    from solvers.rng import seed_from
    from solvers.search.mcts import mcts_search

    rng = SplitMix64(seed_from(4))
    r = mcts_search(state, iterations=300, seed=rng.next(), rollout="own")
    assert [row["action"] for row in plain][:len(r.actions)] == r.actions


# ------------------------------------------------------------ the model file
@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A model trained in seconds (the CI check of the pipeline)."""
    out = tmp_path_factory.mktemp("model") / "tiny.json"
    model = train(GAME, out=out, seed=3, games=2, iterations=20, eval_games=2)
    return out, model


def test_training_makes_a_model_with_its_record(tiny, game):
    out, model = tiny
    loaded = load_model(out)
    assert loaded.weights == model.weights and len(loaded.weights) == 36
    t = loaded.training
    assert t["seed"] == 3 and t["games"] == 2 and t["iterations"] == 20 and t["samples"] > 100
    assert "solve train switchbacks" in t["command"]
    s = loaded.strength
    assert s["games"] == 2 and 0 <= s["win_rate"] <= 1 and s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
    assert not (out.parent / (out.name + ".ckpt.npz")).exists()
    loaded.check_game(game)
    agent = load_agent("mcts", game, seed=1, iterations=50, model=str(out))
    _, state = random_game(GAME, 2, seed=1, plies=20)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    assert agent.step(state) in state.legal_actions()


def test_training_resumes_to_the_same_model(tmp_path):
    """Two games, then resumed to three, fit the same model as three at once."""
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    ckpt = tmp_path / "a.json.ckpt.npz"
    # A stopped run keeps its checkpoint: stop after two games of three.
    def stop_after_two(stage, done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(GAME, out=a, seed=8, games=3, iterations=15, eval_games=0,
              checkpoint_seconds=3600, progress=stop_after_two)
    assert ckpt.exists()           # written when the run stopped, not by the clock
    # The first sitting's self-play as if it had lasted an hour: the record adds it.
    with np.load(ckpt) as f:
        kept = {k: f[k] for k in f.files}
    assert int(kept["sittings"]) == 1 and 0 < float(kept["seconds"]) < 3600
    np.savez_compressed(ckpt, **{**kept, "seconds": np.array(3600.0)})
    resumed = train(GAME, out=a, seed=8, games=3, iterations=15, eval_games=0, resume=True)
    whole = train(GAME, out=b, seed=8, games=3, iterations=15, eval_games=0)
    assert resumed.weights == whole.weights
    assert resumed.training["samples"] == whole.training["samples"]
    assert resumed.training["sittings"] == 2 and resumed.training["self_play_seconds"] >= 3600
    assert whole.training["sittings"] == 1 and whole.training["self_play_seconds"] < 3600
    np.savez_compressed(ckpt, **{**kept, "seconds": np.zeros(2)})    # its time not one number
    with pytest.raises(SolversError, match="cannot resume"):
        train(GAME, out=a, seed=8, games=3, iterations=15, eval_games=0, resume=True)
    ckpt.write_bytes(b"junk")
    with pytest.raises(SolversError, match="cannot resume"):
        train(GAME, out=a, seed=8, games=3, iterations=15, eval_games=0, resume=True)
    with pytest.raises(KeyboardInterrupt):
        train(GAME, out=a, seed=8, games=3, iterations=15, eval_games=0,
              progress=stop_after_two)
    with pytest.raises(SolversError, match="cannot resume"):     # other options
        train(GAME, out=a, seed=9, games=3, iterations=15, eval_games=0, resume=True)


def test_self_play_on_two_workers_keeps_the_games_order(tmp_path):
    """Games played side by side give the samples of each game, one after
    the other in game order: those of calling the self-play of each game by
    its index, one at a time; a checkpoint after every game holds them."""
    from solvers.learn.train import TrainConfig, _self_play, game_seeds, self_play_game

    game = solvers.load_game(GAME)
    config = TrainConfig(game=GAME, players=2, seed=6, games=5, iterations=12)
    xs, ys, seen = [], [], []
    ckpt = tmp_path / "m.json.ckpt.npz"

    def watch(stage, done, total):
        seen.append(done)

    done = _self_play(config, 1, xs, ys, ckpt, 36, 0.0, watch, workers=2)
    assert done == 5 and seen == [2, 3, 4, 5] and len(xs) == 4
    for i, (x, y) in enumerate(zip(xs, ys), start=1):
        want_x, want_y = self_play_game(game, 12, *game_seeds(6, i))
        assert np.array_equal(x, want_x) and np.array_equal(y, want_y)
    with np.load(ckpt) as data:
        assert int(data["games_done"]) == 5
        assert np.array_equal(data["x"], np.concatenate(xs))


def _write(tmp_path, name, content):
    p = tmp_path / name
    p.write_text(content if isinstance(content, str) else json.dumps(content))
    return str(p)


def test_bad_model_files_are_one_clear_error(tiny, tmp_path, game):
    out, _ = tiny
    good = json.loads(out.read_text())
    cases = {
        "missing.json": None,
        "notjson.json": "{not json",
        "other.json": dict(good, format="something"),
        "short.json": dict(good, weights=good["weights"][:-1]),
        "nan.json": json.dumps(good).replace(str(good["weights"][0]), "NaN", 1),
        "game.json": dict(good, game="bigsur"),
        "seats.json": dict(good, players=3),
        "version.json": dict(good, features=dict(good["features"], version=99)),
        "mix.json": dict(good, play={"mix": 2}),
    }
    for name, content in cases.items():
        path = str(tmp_path / name) if content is None else _write(tmp_path, name, content)
        with pytest.raises(SolversError) as e:
            load_agent("mcts", game, model=path)
        assert "\n" not in str(e.value) and ("model" in str(e.value))
    with pytest.raises(SolversError, match="no model ships"):
        resolve_model("default", game) if solvers.registry.game_info(GAME).model is None else \
            resolve_model("default", solvers.load_game(GAME, players=4))
    with pytest.raises(SolversError, match="C search only"):
        load_agent("mcts", game, model=str(out), backend="python")
    with pytest.raises(SolversError, match="mix"):
        load_agent("mcts", game, model=str(out), mix=1.5)
    assert model_from_json(good).weights == good["weights"]


def test_a_spec_saying_model_none_plays_without_a_shipped_model(tiny, game, monkeypatch):
    """Where a model ships, an agent spec's 'model=none' (read as None)
    still means no model; an agent given no model option takes the shipped
    one."""
    import solvers.learn.model as model_module
    from solvers.agents import parse_agent_spec

    out, _ = tiny
    monkeypatch.setattr(model_module, "shipped_model_path", lambda g: out)
    kind, options = parse_agent_spec("mcts:iterations=50,model=none")
    assert options["model"] is None
    assert load_agent(kind, game, **options).model is None
    assert load_agent("mcts", game, iterations=50, model="NONE").model is None
    assert load_agent("mcts", game, iterations=50).model.weights == load_model(out).weights
    kind, options = parse_agent_spec("mcts:iterations=50,model=default")
    assert load_agent(kind, game, **options).model.weights == load_model(out).weights


def test_the_model_round_trips_and_checks_its_fields(tiny):
    _, model = tiny
    raw = model.to_json()
    again = model_from_json(json.loads(json.dumps(raw)))
    assert again.to_json() == raw
    assert math.isclose(sum(again.value([[0.0] * 36, [0.0] * 36], 0)), 1.0)


def test_fit_logistic_recovers_known_weights():
    """Targets drawn from a known logistic model: the fit finds its weights."""
    import numpy as np

    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=(20000, 2))])
    w = np.array([0.3, 1.5, -0.7])
    y = (rng.random(20000) < 1 / (1 + np.exp(-x @ w))).astype(float)
    assert fit_logistic(x, y, ridge=1e-6) == pytest.approx(w, abs=0.06)


# ------------------------------------------------------------ the command
def test_solve_train_command(tmp_path, capsys):
    from cli_helpers import one_error_line, run

    out = tmp_path / "m.json"
    code, stdout, stderr = run(capsys, "train", "switchbacks", "--games", "1", "--iterations", "10",
                               "--eval-games", "0", "--out", out, "--seed", "2")
    assert code == 0, stderr
    assert "model:" in stdout and load_model(out).training["games"] == 1
    code, stdout, stderr = run(capsys, "tournament", "switchbacks", "--games", "1", "--workers", "1",
                               "--agents", f"mcts:iterations=5,model={tmp_path}/nothing.json,random")
    assert code == 2 and "not found" in one_error_line(stderr)
    code, stdout, stderr = run(capsys, "train", "connect-four-nonexistent")
    assert code == 2 and one_error_line(stderr)


def test_with_three_seats_the_strength_match_seats_the_model_once(tmp_path, capsys, monkeypatch):
    """The model in one seat, a copy of plain MCTS in each other: the fair
    share of the wins is a third (two seats with the model would flatter it)."""
    from cli_helpers import run

    import solvers.tournament as tournament

    seen = []
    real = tournament.run_tournament

    def spy(game, specs, games, **kw):
        seen.append(list(specs))
        return real(game, specs, games, **kw)

    monkeypatch.setattr(tournament, "run_tournament", spy)
    out = tmp_path / "m3.json"
    code, stdout, stderr = run(capsys, "train", GAME, "--players", "3", "--games", "1",
                               "--iterations", "10", "--eval-games", "3", "--workers", "1",
                               "--out", out, "--seed", "2")
    assert code == 0, stderr
    [specs] = seen
    assert len(specs) == 3 and f"model={out}" in specs[0]
    assert specs[1] == specs[2] == "mcts:iterations=10,threads=1,model=none"
    s = load_model(out).strength
    assert s["games"] == 3 and s["opponents"] == 2 and s["fair_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert "against 2 copies of 'mcts:iterations=10,threads=1,model=none'" in stdout
    assert "a fair share is 33.3%" in stdout


def test_the_engine_searches_with_the_model(tiny, tmp_path):
    """``go`` with ``model``: a model of zero weights played alone (mix 1)
    values every move at exactly 0.5; without it, rollouts give other values."""
    from solvers.engine import Session

    out, _ = tiny
    flat = json.loads(out.read_text())
    flat["weights"] = [0.0] * len(flat["weights"])
    path = _write(tmp_path, "flat.json", flat)
    s = Session()
    s.handle({"id": 1, "cmd": "new", "game": GAME, "players": 2, "seed": 3})
    s.handle({"id": 2, "cmd": "deal"})
    values = {}
    for model in (path, "none"):
        r = s.handle({"id": 3, "cmd": "go", "iterations": 300,
                      "options": {"model": model, "mix": 1}})
        values[model] = {row["value"] for row in r["result"]["ranked"] if row["visits"]}
    assert values[path] == {0.5} and values["none"] != {0.5}


def test_the_model_flag_of_analyse_and_play(tiny, tmp_path, capsys):
    """``--model FILE|none`` sets an MCTS AI's learned evaluation: analyse
    ranks as the same spec with ``model=`` does (and, the control, not as
    with none); a model for a non-MCTS AI, twice, or a missing file is one
    error line before any work."""
    from cli_helpers import one_error_line, run

    from solvers.games.switchbacks.position import state_to_position

    out, _ = tiny
    _, state = random_game(GAME, 2, seed=3, plies=30)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(state_to_position(state)))

    def ranked(*args):
        code, stdout, stderr = run(capsys, "switchbacks", "analyse", pos, "--iterations", "300",
                                   "--json", *args)
        assert code == 0, stderr
        data = json.loads(stdout)
        return data, [(m["action"], m["visits"]) for m in data["moves"]]

    data, with_flag = ranked("--model", str(out))
    assert f"model={out}" in json.dumps(data)
    assert ranked("--ai", f"mcts:model={out}")[1] == with_flag
    assert ranked("--model", "none")[1] == ranked("--ai", "mcts:model=none")[1] != with_flag
    for args, needle in ((("--ai", "greedy", "--model", "none"), "for an MCTS AI"),
                         (("--ai", "mcts:model=none", "--model", "none"), "given twice"),
                         (("--model", str(tmp_path / "missing.json")), "missing.json")):
        code, _, stderr = run(capsys, "switchbacks", "analyse", pos, "--iterations", "10", *args)
        assert code == 2 and needle in one_error_line(stderr), stderr
    code, _, stderr = run(capsys, "switchbacks", "play", "--model", "nothing.json", "--seed", "1")
    assert code == 2 and "nothing.json" in one_error_line(stderr)


def test_a_second_generation_plays_its_self_play_with_the_earlier_model(tiny, tmp_path, capsys):
    """``self_play_model``: each self-play game is the one the searches with
    that model play (called here on its own), not plain MCTS's (the
    control); the file is named in the training record, and a checkpoint of
    another self-play model is not resumed."""
    from cli_helpers import one_error_line, run

    from solvers.learn.train import TrainConfig, _self_play, game_seeds, self_play_game

    out, model = tiny
    game = solvers.load_game(GAME)
    text = json.dumps(load_model(out).to_json(), sort_keys=True)
    config = TrainConfig(game=GAME, players=2, seed=4, games=2, iterations=30, self_play_model=text)
    xs, ys = [], []
    _self_play(config, 0, xs, ys, tmp_path / "c.npz", 36, 3600.0, None, workers=1)
    for i, x in enumerate(xs):
        seeds = game_seeds(4, i)
        assert np.array_equal(x, self_play_game(game, 30, *seeds, model=load_model(out))[0])
        assert not np.array_equal(x, self_play_game(game, 30, *seeds)[0])
    second = train(GAME, out=tmp_path / "g2.json", seed=4, games=2, iterations=30, eval_games=0,
                   self_play_model=out)
    assert second.training["self_play_model"]["file"] == str(out)

    def stop(stage, done, total):
        if done == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train(GAME, out=tmp_path / "g3.json", seed=4, games=2, iterations=30, eval_games=0,
              self_play_model=out, progress=stop)
    with pytest.raises(SolversError, match="cannot resume"):
        train(GAME, out=tmp_path / "g3.json", seed=4, games=2, iterations=30, eval_games=0,
              resume=True)
    code, _, stderr = run(capsys, "train", "c2c", "--self-play-model", str(out), "--games", "1")
    assert code == 2 and "--player" in one_error_line(stderr)
