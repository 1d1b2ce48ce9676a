"""One record per game (solvers.registry): the generic tools learn a game from
its record alone.

The fake game is the toy Pig (solvers._core.toygames), registered through
the same ``register`` call the library's own games go through. Nothing in
the engine, the tournament runner, the CLI or the OpenSpiel adapter knows
it; each is checked against Pig built and played directly.
"""

from __future__ import annotations

import pytest

import solvers
from solvers._core.toygames import Pig
from solvers.engine.session import Session
from solvers.errors import SolversError
from solvers.registry import GameInfo, GameOption, game_info, games, register, unregister

from cli_helpers import one_error_line, run


def _check_die(value, options):
    """The record's own check: a die has 2 to 20 faces."""
    if not 2 <= value <= 20:
        raise SolversError(f"a die has 2 to 20 faces, not {value}")


PIG = GameInfo(
    name="pig", title="Pig", aliases=("pig-dice",),
    min_players=1, max_players=4, default_players=2,
    options=(GameOption("target", int, 10, "points that win"),
             GameOption("die", int, 4, "faces of the die", check=f"{__name__}:_check_die"),
             GameOption("max_turns", int, 8, "turns before the game stops")),
    chance="explicit", information="perfect", constant_sum=True,
    reference="solvers._core.toygames:Pig", kernel="solvers._core.toygames:Pig",
    default_budget={"iterations": 200},
)


@pytest.fixture
def pig():
    register(PIG)
    try:
        yield PIG
    finally:
        unregister("pig")


def _play_direct(game, seed, pick):
    """Play ``game`` from ``seed`` with seeded chance; ``pick(state)`` moves."""
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else pick(state))
    return state


# ------------------------------------------------------------- the records
def test_library_games_come_from_their_records():
    assert [g.name for g in games()] == solvers.game_names()
    assert solvers.canonical_game_name("Coast to Coast") == "c2c"
    c2c = game_info("c2c")
    assert (c2c.min_players, c2c.max_players, c2c.default_players) == (1, 4, 1)
    assert c2c.option_names == ["challenge", "map"]
    assert game_info("switchbacks").position is not None and c2c.position is None
    # Every class and hook a record names can be imported.
    for info in games():
        assert info.game_class().__name__ and info.game_class(reference=True).__name__
        if info.native_format() is not None:
            load, save = info.native_format()
            assert callable(load) and callable(save)
        for path in (info.cli, info.renderer):
            if path:
                __import__(path.partition(":")[0])
        assert solvers.load_game(info.name).num_players == info.default_players


def test_options_are_checked_by_the_record(pig):
    with pytest.raises(SolversError, match="has no option 'colour'"):
        solvers.load_game("pig", colour="red")
    with pytest.raises(SolversError, match="'target' should be a int"):
        solvers.load_game("pig", target="ten")
    with pytest.raises(SolversError, match="2 to 20 faces"):
        solvers.load_game("pig", die=30)
    with pytest.raises(ValueError, match="already registered"):
        register(PIG)


def test_a_registered_game_loads_by_name_and_alias(pig):
    assert "pig" in solvers.game_names()
    game = solvers.load_game("Pig-Dice", target=6)
    assert game.num_players == 2
    direct = Pig(players=2, target=6)
    always_roll = lambda s: 1 if 1 in s.legal_actions() else s.legal_actions()[0]  # noqa: E731
    a = _play_direct(game, 5, always_roll)
    b = _play_direct(direct, 5, always_roll)
    assert a.returns() == b.returns() and a.scores() == b.scores()
    unregister("pig")
    assert "pig" not in solvers.game_names()
    with pytest.raises(SolversError, match="unknown game"):
        solvers.load_game("pig")
    register(PIG)


# ------------------------------------------------------------- the engine
def test_engine_plays_a_registered_game(pig):
    session = Session()
    hello = session.handle({"id": 1, "cmd": "hello"})["result"]
    entry = next(g for g in hello["games"] if g["name"] == "pig")
    assert entry["players"] == [1, 2, 3, 4] and entry["default_players"] == 2
    assert entry["options"] == ["target", "die", "max_turns"]
    assert entry["positions"] == ["history"] and entry["title"] == "Pig"
    reply = session.handle({"id": 2, "cmd": "new", "game": "pig-dice", "players": 3, "seed": 9,
                            "options": {"target": 6}})
    assert "error" not in reply, reply
    # Play the engine's game to its end, every seat rolling while it may,
    # and the same game directly; the scores agree.
    for _ in range(500):
        legal = session.handle({"cmd": "legal"})["result"]
        if legal["phase"] == "over":
            break
        if legal["phase"] == "chance":
            assert "error" not in session.handle({"cmd": "deal"})
            continue
        move = "roll" if "roll" in [m["move"] for m in legal["moves"]] else "hold"
        assert "error" not in session.handle({"cmd": "apply", "move": move})
    direct = _play_direct(Pig(players=3, target=6), 9,
                          lambda s: 1 if 1 in s.legal_actions() else 0)
    assert session.state.is_terminal()
    assert session.state.scores() == direct.scores()
    bad = session.handle({"id": 3, "cmd": "new", "game": "pig", "options": {"die": 40}})
    assert bad["error"]["message"] == "a die has 2 to 20 faces, not 40"
    session.handle({"id": 4, "cmd": "new", "game": "pig", "seed": 1})
    session.handle({"id": 5, "cmd": "deal"})
    go = session.handle({"id": 6, "cmd": "go", "iterations": 50})["result"]
    assert go["move"] in ("roll", "hold")


# ------------------------------------------------------------- tournaments
def test_tournament_runs_a_registered_game(pig):
    from solvers.agents import load_agent
    from solvers.tournament import plan_games, run_tournament

    r = run_tournament("pig", ["greedy", "random"], games=6, seed=4, target=8)
    assert r.game == "pig" and r.players == 2
    assert sum(a.wins for a in r.agents) == pytest.approx(6)
    # The same games, replayed on Pig built directly.
    wins = [0.0, 0.0]
    for job in plan_games("pig", 2, ["greedy", "random"], 6, r.seed, (("target", 8),)):
        game = Pig(players=2, target=8)
        agents = [load_agent(job.specs[a], game, seed=job.agent_seeds[s])
                  for s, a in enumerate(job.seating)]
        end = _play_direct(game, job.deal_seed, lambda s: agents[s.current_player()].step(s)
                           if len(s.legal_actions()) > 1 else s.legal_actions()[0])
        for s, a in enumerate(job.seating):
            wins[a] += end.returns()[s]
    assert [a.wins for a in r.agents] == pytest.approx(wins)


def test_tournament_cli_takes_a_registered_games_options(pig, capsys):
    code, out, err = run(capsys, "tournament", "pig", "--option", "target=6", "--option", "die=3",
                         "--agents", "random,greedy", "--games", "2", "--workers", "1", "--json")
    assert code == 0, err
    assert '"game": "pig"' in out
    code, out, err = run(capsys, "tournament", "pig", "--challenge", "x", "--agents", "random,greedy")
    assert code == 2 and "pig has no option 'challenge'" in one_error_line(err)
    code, out, err = run(capsys, "tournament", "pig", "--option", "target=six",
                         "--agents", "random,greedy")
    assert code == 2 and "'target' should be a int" in one_error_line(err)


def test_challenge_shorthand_still_works(capsys):
    code, out, err = run(capsys, "tournament", "c2c", "--challenge", "The Alamo",
                         "--agents", "greedy", "--games", "1", "--workers", "1", "--json")
    assert code == 0, err
    code, _, err = run(capsys, "tournament", "switchbacks", "--challenge", "The Alamo",
                       "--agents", "greedy,random")
    line = one_error_line(err)
    assert code == 2 and "switchbacks has no option 'challenge' (games with one: c2c)" in line


# ------------------------------------------------------------- OpenSpiel
def test_openspiel_adapter_serves_a_registered_game(pig):
    pyspiel = pytest.importorskip("pyspiel")
    import numpy as np

    from solvers.interop.openspiel import load_openspiel_game, register_games

    assert "solvers_pig" in register_games()
    game = load_openspiel_game("pig", players=3, target=6)
    gt = game.get_type()
    assert gt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM    # 1 seat is a score
    assert (gt.min_num_players, gt.max_num_players) == (1, 4)
    assert game.num_players() == 3 and game.utility_sum() == pytest.approx(1.0)
    assert game.max_game_length() == Pig(players=3, target=6).max_game_length()
    assert game.get_parameters()["target"] == 6
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    mirror = Pig(players=3, target=6).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            a = int(rng.choice(actions, p=probs))
        else:
            assert state.legal_actions() == mirror.legal_actions()
            a = int(rng.choice(state.legal_actions()))
        state.apply_action(a)
        mirror.apply_action(a)
    assert mirror.is_terminal()
    assert state.returns() == pytest.approx(mirror.returns())
    assert sum(state.returns()) == pytest.approx(1.0)
