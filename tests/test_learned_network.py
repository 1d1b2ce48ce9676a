"""A learned leaf evaluation of kind "mlp" (a small network, solvers.learn.net,
evaluated in C at the search's leaves): the C value against a numpy forward
pass written here and against a network whose output is known by hand; the
searcher's value on twins; the model file's checks; the fit; and ``solve
train --hidden``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from learned_twins import twin_value_checks
from random_play import random_game

import solvers
from solvers._core.mcts import Search, features_info, features_of
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.learn.model import Model, load_model, model_from_json
from solvers.learn.train import fit_logistic, fit_network, log_loss, train


def feats(state, seat):
    g = state.game
    return features_of(g._gamedef_capsule(), g._features_capsule(), state._state_capsule(), seat)


def net_model(game, hidden=(16, 8), seed=5, value_sum=1.0, link="logistic"):
    """A model with random layers (weights small enough that the logistic
    output is not saturated)."""
    rng = np.random.default_rng(seed)
    n = features_info(game._features_capsule())["num_features"]
    sizes = (n, *hidden, 1)
    layers = [((rng.normal(size=(a, b)) * 0.4 / np.sqrt(a)).tolist(),
               (rng.normal(size=b) * 0.1).tolist()) for a, b in zip(sizes, sizes[1:])]
    return Model(game=game.name, players=game.num_players, feature_version=1, feature_names=[],
                 weights=[], kind="mlp", layers=layers, link=link, value_sum=value_sum)


def numpy_value(model, f):
    """The network's output for one seat's features, in numpy (ReLU between
    layers), through the logistic link."""
    h = np.asarray(f, np.float64)
    for k, (w, b) in enumerate(model.layers):
        h = h @ np.asarray(w) + np.asarray(b)
        if k < len(model.layers) - 1:
            h = np.maximum(h, 0)
    z = float(h[0])
    return 1 / (1 + np.exp(-z)) if model.link == "logistic" else z


def decisions(name, players=2, seeds=range(1, 5), plies=(10, 30, 50)):
    for seed in seeds:
        for n in plies:
            _, state = random_game(name, players, seed=seed, plies=n)
            while state.is_chance_node():
                state.apply_action(state.seeded_outcome())
            if not state.is_terminal():
                yield state


@pytest.mark.parametrize("name,players", [("switchbacks", 2), ("bigsur", 2), ("bigsur", 3),
                                          ("santacruz", 2)])
@pytest.mark.parametrize("hidden", [(16, 8), (5,)])
def test_c_network_matches_numpy(name, players, hidden):
    """Every seat's value at a leaf, without sharing (value_sum 0), is the
    numpy forward pass of its features; with sharing, the searcher's value
    is too."""
    game = solvers.load_game(name, players=players)
    own = net_model(game, hidden, value_sum=0.0)
    shared = net_model(game, hidden)
    n = 0
    for state in decisions(name, players):
        f = [feats(state, q) for q in range(players)]
        want = [numpy_value(own, f[q]) for q in range(players)]
        s = Search(game._gamedef_capsule(), state._state_capsule(), **own.search_options(game))
        assert s.leaf_value(state._state_capsule()) == pytest.approx(want, abs=1e-5)
        me = state.current_player()
        s = Search(game._gamedef_capsule(), state._state_capsule(), **shared.search_options(game))
        assert s.leaf_value(state._state_capsule())[me] == pytest.approx(want[me], abs=1e-5)
        assert shared.value(f, me) == pytest.approx(s.leaf_value(state._state_capsule()), abs=1e-5)
        n += 1
    assert n >= 6
    # Control: another network gives other values.
    other = net_model(game, hidden, seed=6, value_sum=0.0)
    s = Search(game._gamedef_capsule(), state._state_capsule(), **other.search_options(game))
    assert s.leaf_value(state._state_capsule()) != pytest.approx(want, abs=1e-5)


def test_a_network_known_by_hand():
    """Two ReLU units of +f and -f summed give |f|; with the identity link the
    value is the absolute value of a chosen feature (and of a difference of
    two, which is sometimes negative)."""
    game = solvers.load_game("bigsur", players=2)
    n = features_info(game._features_capsule())["num_features"]
    names = list(game.feature_names)
    a, b = names.index("own:points"), names.index("others:points")
    w = [[0.0, 0.0] for _ in range(n)]
    w[a] = [1.0, -1.0]
    w[b] = [-1.0, 1.0]
    model = Model(game="bigsur", players=2, feature_version=1, feature_names=[], weights=[],
                  kind="mlp", link="identity", value_sum=0.0,
                  layers=[(w, [0.0, 0.0]), ([[1.0], [1.0]], [0.5])])
    seen = set()
    for state in decisions("bigsur", seeds=range(1, 9), plies=(40, 80, 120)):
        s = Search(game._gamedef_capsule(), state._state_capsule(), **model.search_options(game))
        got = s.leaf_value(state._state_capsule())
        for q in range(2):
            f = feats(state, q)
            assert got[q] == pytest.approx(abs(f[a] - f[b]) + 0.5, abs=1e-6)
            seen.add(np.sign(f[a] - f[b]))
    assert seen >= {-1.0, 1.0}      # both units were the live one somewhere


@pytest.mark.parametrize("name,players", [("bigsur", 2), ("bigsur", 3), ("switchbacks", 2)])
def test_the_searchers_network_value_ignores_what_it_cannot_see(name, players):
    """Twins (everything the searcher cannot see re-dealt) give the searcher
    the same network value; control: without sharing, another seat's value
    changes on some twin."""
    game = solvers.load_game(name, players=players)
    shared, own = net_model(game), net_model(game, value_sum=0.0)
    changed = 0
    for state in decisions(name, players):
        seat = state.current_player()
        twin = state.resample(seat, 7)
        changed += twin_value_checks(game, shared, own, state, twin, seat)
    assert changed > 0


def test_a_network_plays_in_the_search_and_the_agent():
    """The agent searches with the network, the same seed the same analysis;
    control: plain MCTS with that seed values the moves otherwise."""
    game = solvers.load_game("bigsur", players=2)
    model = net_model(game)
    model.mix, model.rollout_plies = 0.0, 10
    state = next(decisions("bigsur"))
    agent = load_agent("mcts", game, seed=1, iterations=200, model=model)
    assert agent.step(state) in state.legal_actions()

    def values(m):
        rows = load_agent("mcts", game, seed=1, iterations=200, model=m).analyse(state)
        return [(r["action"], r["value"]) for r in rows]

    assert values(model) == values(model) != values("none")


# ------------------------------------------------------------ the file
def _good(game):
    model = net_model(game)
    return json.loads(json.dumps(model.to_json()))


def test_a_network_model_round_trips(tmp_path):
    game = solvers.load_game("bigsur", players=2)
    raw = _good(game)
    assert raw["kind"] == "mlp" and "weights" not in raw and len(raw["layers"]) == 3
    path = tmp_path / "net.json"
    path.write_text(json.dumps(raw))
    loaded = load_model(path)
    loaded.check_game(game)
    assert loaded.to_json() == raw and loaded.num_features == 38


def test_bad_network_files_are_one_clear_error(tmp_path):
    game = solvers.load_game("bigsur", players=2)
    good = _good(game)
    layers = good["layers"]
    cases = {
        "no-layers.json": {k: v for k, v in good.items() if k != "layers"},
        "short-input.json": dict(good, layers=[dict(layers[0], w=layers[0]["w"][:-1])]
                                 + layers[1:]),
        "chain.json": dict(good, layers=[layers[0], layers[2]]),
        "two-outputs.json": dict(good, layers=layers[:2]),
        "ragged.json": dict(good, layers=[dict(layers[0], w=[r[:-1] for r in layers[0]["w"]])]
                            + layers[1:]),
        "nan.json": dict(good, layers=[dict(layers[0], b=[float("nan")] * 16)] + layers[1:]),
        "text.json": dict(good, layers=["layer"]),
        "deep.json": dict(good, layers=[layers[0]] + [{"w": [[0.0] * 16] * 16, "b": [0.0] * 16}] * 8
                          + [{"w": [[0.0]] * 16, "b": [0.0]}]),
        "huge.json": dict(good, layers=[{"w": [[0.0] * 4096] * 38, "b": [0.0] * 4096},
                                        {"w": [[0.0] * 1100] * 4096, "b": [0.0] * 1100},
                                        {"w": [[0.0]] * 1100, "b": [0.0]}]),
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(content).replace("NaN", "NaN"))
        with pytest.raises(SolversError) as e:
            load_agent("mcts", game, model=str(path))
        assert "\n" not in str(e.value) and "model" in str(e.value), name
    # The C search refuses a malformed network by itself too.
    f = game._features_capsule()
    state = next(decisions("bigsur"))
    for bad in ([([[0.0]] * 38, [0.0, 0.0])], [([[0.0]] * 37, [0.0])], []):
        with pytest.raises(SolversError):
            Search(game._gamedef_capsule(), state._state_capsule(), features=f, layers=bad)
    with pytest.raises(SolversError, match="not both"):
        Search(game._gamedef_capsule(), state._state_capsule(), features=f,
               layers=[([[0.0]] * 38, [0.0])], weights=[0.0] * 38)


# ------------------------------------------------------------ the fit
def test_fit_network_learns_what_a_logistic_model_cannot():
    """Results drawn from a known non-linear rule (the win chance depends on
    |x1|): the network's held-out loss comes near the rule's own loss, the
    logistic regression stays near a coin's, and the network reads the raw
    inputs (the standardisation folded into its first layer)."""
    rng = np.random.default_rng(0)
    n = 40000
    x = np.column_stack([np.ones(n), rng.normal(2.0, 3.0, n), rng.normal(size=n)]).astype(np.float32)
    p = 1 / (1 + np.exp(-(1.5 * np.abs(x[:, 1] - 2.0) / 3.0 - 1.2)))
    y = (rng.random(n) < p).astype(np.float64)
    layers, report = fit_network(x, y, (16,), seed=1, epochs=30)
    test = slice(n - n // 10, n)
    truth = float(-np.mean(y[test] * np.log(p[test]) + (1 - y[test]) * np.log(1 - p[test])))
    assert report["held_out_log_loss"] < truth + 0.01
    linear = log_loss(x[test], y[test], fit_logistic(x[:n - n // 10], y[:n - n // 10]))
    assert linear > truth + 0.05
    h = x[test].astype(np.float64)
    for k, (w, b) in enumerate(layers):
        h = h @ w + b
        if k < len(layers) - 1:
            h = np.maximum(h, 0)
    assert log_loss(np.column_stack([h[:, 0]]), y[test], np.ones(1)) == pytest.approx(
        report["held_out_log_loss"], abs=1e-4)
    again, _ = fit_network(x, y, (16,), seed=1, epochs=30)
    assert all((a[0] == b[0]).all() and (a[1] == b[1]).all() for a, b in zip(layers, again))


def test_training_a_network_and_solve_train_hidden(tmp_path, capsys):
    from cli_helpers import one_error_line, run

    out = tmp_path / "net.json"
    model = train("bigsur", out=out, seed=2, games=3, iterations=10, eval_games=0, hidden=(8,))
    loaded = load_model(out)
    assert loaded.kind == "mlp" and [len(b) for _, b in loaded.layers] == [8, 1]
    assert loaded.training["hidden"] == [8] and loaded.to_json() == model.to_json()
    code, stdout, stderr = run(capsys, "train", "bigsur", "--games", "2", "--iterations", "10",
                               "--eval-games", "1", "--hidden", "6,4", "--workers", "1",
                               "--out", tmp_path / "cli.json")
    assert code == 0, stderr
    assert "hidden layers 6x4" in stdout and "held out" in stdout
    assert load_model(tmp_path / "cli.json").strength["games"] == 1
    for bad in ("0", "a,b", "", "1,2,3,4,5,6,7,8"):
        code, _, stderr = run(capsys, "train", "bigsur", "--games", "1", "--hidden", bad)
        assert code == 2 and "--hidden" in one_error_line(stderr)
    code, _, stderr = run(capsys, "train", "c2c", "--games", "1", "--hidden", "8")
    assert code == 2 and "--hidden" in one_error_line(stderr)
    with pytest.raises(SolversError, match="too few samples"):
        fit_network(np.zeros((5, 3), np.float32), np.zeros(5), (4,), seed=0)
    assert model_from_json(json.loads(out.read_text())).layers == loaded.layers
