"""The learned models the package ships (a game's record names them:
``GameInfo.model``; docs/learning.md): the default MCTS agent searches with
the shipped file's weights (or network) and play settings, read here straight from the
JSON, where a file ships for the seat count, and exactly as plain MCTS
where none does, with the pure-Python search, or with cards of the user's
own; each file says how it was made and how strong it measured."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from random_play import random_game

import solvers
from solvers.agents import load_agent, parse_agent_spec
from solvers.learn.model import Model
from solvers.registry import games
from solvers.rng import SplitMix64, seed_from
from solvers.search.mcts import mcts_search

SHIPPING = [info for info in games() if info.model]


def test_some_game_ships_a_model():
    """The tests below are not empty: Big Sur ships its models for 2, 3 and 4 seats."""
    [bigsur] = [info for info in SHIPPING if info.name == "bigsur"]
    assert all(_file(bigsur, players) for players in (2, 3, 4))


def _file(info: Any, players: int) -> Path | None:
    package, _, name = info.model.partition(":")
    path = Path(str(resources.files(package).joinpath(name.format(players=players))))
    return path if path.is_file() else None


def _decision(name: str, players: int, seed: int) -> Any:
    _, state = random_game(name, players, seed=seed, plies=12 * players)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    return state


def _by_hand(state: Any, raw: dict[str, Any] | None, agent_seed: int, iterations: int,
             threads: int = 1) -> list:
    """The first search an ``mcts`` agent seeded ``agent_seed`` makes, built
    here from the file's fields (None: no model)."""
    seed = SplitMix64(seed_from(agent_seed)).next()
    if raw is None:
        r = mcts_search(state, iterations=iterations, seed=seed, threads=threads,
                        rollout=getattr(state.game, "default_rollout", "policy"))
    else:
        net = raw["kind"] == "mlp"
        model = Model(game=raw["game"], players=raw["players"],
                      feature_version=raw["features"]["version"],
                      feature_names=raw["features"]["names"],
                      weights=[] if net else raw["weights"], bias=0.0 if net else raw["bias"],
                      kind=raw["kind"], link=raw["link"], value_sum=raw["value_sum"],
                      layers=[(layer["w"], layer["b"]) for layer in raw["layers"]] if net else [])
        r = mcts_search(state, iterations=iterations, seed=seed, model=model, threads=threads,
                        mix=raw["play"]["mix"], rollout_plies=raw["play"]["rollout_plies"],
                        rollout=getattr(state.game, "default_rollout", "policy"))
    return [(a, n) for a, n, _ in r.rows()]


def _rows(agent: Any, state: Any) -> list:
    return [(row["action"], row["visits"]) for row in agent.analyse(state) if row["visits"]]


@pytest.mark.parametrize("info", SHIPPING, ids=lambda info: info.name)
def test_the_default_agent_searches_with_the_shipped_file(info):
    shipped = 0
    for players in range(info.min_players, info.max_players + 1):
        game = solvers.load_game(info.name, players=players)
        path = _file(info, players)
        raw = None if path is None else json.loads(path.read_text())
        shipped += raw is not None
        state = _decision(info.name, players, seed=players)
        agent = load_agent("mcts", game, seed=5, iterations=400)
        assert _rows(agent, state) == _by_hand(state, raw, 5, 400)
        plain = _by_hand(state, None, 5, 400)
        assert _rows(load_agent("mcts", game, seed=5, iterations=400, model="none"), state) == plain
        kind, options = parse_agent_spec("mcts:iterations=400,model=none")   # as a match reads it
        assert _rows(load_agent(kind, game, seed=5, **options), state) == plain
        if raw is not None:
            # the control: with the model the search differs from plain MCTS
            assert _by_hand(state, raw, 5, 400) != plain
            assert raw["game"] == info.name and raw["players"] == players
            # every tree of a parallel search reads it too
            two = load_agent("mcts", game, seed=5, iterations=400, threads=2)
            assert _rows(two, state) == _by_hand(state, raw, 5, 400, threads=2) \
                != _by_hand(state, None, 5, 400, threads=2)
    assert shipped >= 1


@pytest.mark.parametrize("info", SHIPPING, ids=lambda info: info.name)
def test_the_python_search_plays_without_the_model(info):
    players = next(p for p in range(info.min_players, info.max_players + 1) if _file(info, p))
    game = solvers.load_game(info.name, players=players)
    assert load_agent("mcts", game, backend="python").model is None
    assert load_agent("mcts", game).model is not None
    with pytest.raises(solvers.SolversError, match="C search only"):
        load_agent("mcts", game, backend="python", model="default")


@pytest.mark.parametrize("info", SHIPPING, ids=lambda info: info.name)
def test_each_shipped_file_says_how_it_was_made_and_how_strong_it_is(info):
    for players in range(info.min_players, info.max_players + 1):
        path = _file(info, players)
        if path is None:
            continue
        raw = json.loads(path.read_text())
        t = raw["training"]
        assert t["command"].startswith(f"solve train {info.name}") and t["samples"] > 0
        assert isinstance(t["seed"], int) and t["games"] > 0 and t["iterations"] > 0
        s = raw["strength"]
        assert s["games"] >= 200 and s["ci95"][0] <= s["win_rate"] <= s["ci95"][1]
        assert s["opponent"] and s["player"]
        assert s["command"].startswith(("solve ladder", "solve tournament"))
