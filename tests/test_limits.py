"""Seeds and budgets are checked before any work, and every entry point
refuses the same values in the same words (issue 27, section 4): the agents
themselves (the Python API), the command line and the engine. Also the
usage errors that exited 0 or hung: a bare command group, a map of an
unknown schema, a hint that fails in the middle of a game."""

from __future__ import annotations

import json
import time

import pytest

import solvers
from cli_helpers import one_error_line, run
from solvers.engine import Session
from solvers.errors import SolversError
from solvers.limits import MAX_ITERATIONS, MAX_NODES, MAX_SECONDS, MAX_SEED

GAME = solvers.load_game("c2c", players=1)

# (agent option, value, the words every entry point refuses it with)
BAD = [
    ("time", 1e12, "should be seconds, more than 0 and at most 86400, not 1000000000000.0"),
    ("time", float("inf"), "should be seconds, more than 0 and at most 86400, not inf"),
    ("time", float("nan"), "should be seconds, more than 0 and at most 86400, not nan"),
    ("time", 0, "should be seconds, more than 0 and at most 86400, not 0"),
    ("iterations", 10_000_000_000_000,
     "should be a whole number from 1 to 1000000000, not 10000000000000"),
    ("iterations", 0, "should be a whole number from 1 to 1000000000, not 0"),
    ("seed", -1, "should be a whole number from 0 to 2**64 - 1, not -1"),
    ("seed", 10**26, "should be a whole number from 0 to 2**64 - 1, not 100000000000000000000000000"),
]


@pytest.mark.parametrize("key, value, words", BAD, ids=[f"{k}={v}" for k, v, _ in BAD])
def test_the_agent_and_the_engine_refuse_the_same_values_in_the_same_words(key, value, words):
    with pytest.raises(SolversError) as refused:
        solvers.load_agent("mcts", GAME, **{key: value})
    assert str(refused.value).endswith(words)
    session = Session()
    session.handle({"id": 1, "cmd": "new", "game": "c2c", "seed": 3})
    session.handle({"id": 2, "cmd": "deal"})
    if isinstance(value, float) and value != value or value == float("inf"):
        return                   # JSON has no NaN or infinity: the engine never sees them
    reply = session.handle({"id": 3, "cmd": "go", "options": {key: value}})
    assert reply["error"]["code"] == "invalid_option"
    assert reply["error"]["message"].endswith(words)


@pytest.mark.parametrize("spec, words", [
    ("mcts:time=1e12", "time should be seconds, more than 0 and at most 86400"),
    ("mcts:time=inf", "time should be seconds, more than 0 and at most 86400, not inf"),
    ("mcts:iterations=10000000000000", "iterations should be a whole number from 1 to 1000000000"),
    ("mcts:seed=-1", "seed should be a whole number from 0 to 2**64 - 1"),
    ("mcts:max_nodes=3000000000", f"max_nodes should be a whole number from 1 to {MAX_NODES}"),
    ("pimc:samples=10000000000000", "samples should be a whole number from 1 to 1000000000"),
])
def test_an_online_budget_is_refused_before_any_work(capsys, spec, words):
    start = time.monotonic()
    code, out, err = run(capsys, "c2c", "--challenge", "Gateway Arch", "--shuffles", "1",
                         "--online", spec, "--json")
    assert time.monotonic() - start < 5          # no solve ran, no game was played
    assert code == 2 and out == ""
    assert words in one_error_line(err)


@pytest.mark.parametrize("argv, option", [
    (["c2c", "--challenge", "Gateway Arch", "--seed", "-1"], "--seed"),
    (["c2c", "--challenge", "Gateway Arch", "--seed", str(10**26)], "--seed"),
    (["c2c", "--challenge", "Gateway Arch", "--time-limit", "inf"], "--time-limit"),
    (["c2c", "--challenge", "Gateway Arch", "--time-limit", "nan"], "--time-limit"),
    (["c2c", "play", "--seed", "-1"], "--seed"),
    (["c2c", "play", "--time", "inf"], "--time"),
    (["tournament", "switchbacks", "--agents", "greedy,random", "--seed", "-5"], "--seed"),
    (["switchbacks", "play", "--time", "inf"], "--time"),
    (["bigsur", "play", "--time", "1e12"], "--time"),
    (["santacruz", "play", "--time", "inf"], "--time"),
    (["santacruz", "analyse", "x.json", "--iterations", "10000000000000"], "--iterations"),
])
def test_the_command_line_refuses_what_the_engine_refuses(capsys, argv, option):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert f"Invalid value for '{option}': it should be" in line


def test_an_agent_seed_given_in_a_tournament_spec_is_checked(capsys):
    code, _, err = run(capsys, "tournament", "switchbacks", "--agents", "mcts:seed=-1,greedy")
    assert code == 2
    assert "seed should be a whole number from 0 to 2**64 - 1, not -1" in one_error_line(err)


def test_the_bounds_themselves_are_accepted():
    agent = solvers.load_agent("mcts", GAME, seed=MAX_SEED - 1, iterations=MAX_ITERATIONS,
                               time=MAX_SECONDS, max_nodes=MAX_NODES)
    assert (agent.seed, agent.iterations, agent.time) == (MAX_SEED - 1, MAX_ITERATIONS, MAX_SECONDS)
    session = Session()
    reply = session.handle({"id": 1, "cmd": "new", "game": "c2c", "seed": MAX_SEED - 1})
    assert "result" in reply, reply


# ------------------------------------------------------------ terminal play
def test_a_play_ai_with_an_absurd_budget_is_refused_at_the_start(capsys, monkeypatch):
    code, out, err = run(capsys, "c2c", "play", "--ai", "mcts:iterations=10000000000000",
                         "--seed", "1", stdin="hint\nquit\n", monkeypatch=monkeypatch)
    assert code == 2 and "Your move" not in out
    assert "iterations should be a whole number from 1 to 1000000000" in one_error_line(err)


def test_a_failing_hint_never_ends_the_game(capsys, monkeypatch, tmp_path):
    from solvers.agents.searching import MCTSAgent

    def broken(self, state):
        raise SolversError("the search ran out of nodes")

    monkeypatch.setattr(MCTSAgent, "analyse", broken)
    saved = tmp_path / "game.json"
    code, out, err = run(capsys, "c2c", "play", "--ai", "mcts:iterations=50", "--seed", "1",
                         "--save", saved, stdin="hint\n1\nquit\n", monkeypatch=monkeypatch)
    assert code == 0, err
    assert "No hint: the AI failed (the search ran out of nodes). Your move." in out
    assert "Game abandoned." in out
    steps = json.loads(saved.read_text())["steps"]      # a solvers.record game record
    assert steps[4]["mover"] == 0 and steps[4]["move"].startswith("cross ")
    # (the move typed after the failed hint was played: after the 4 cards dealt)


# ------------------------------------------------------------ usage errors
@pytest.mark.parametrize("argv", [[], ["c2c"], ["c2c", "--seed", "3"], ["switchbacks"],
                                  ["bigsur"], ["santacruz"]])
def test_a_command_group_run_bare_is_a_usage_error(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("Usage: solve") and "Commands:" in err


@pytest.mark.parametrize("argv", [["--help"], ["c2c", "--help"], ["c2c", "play", "--help"],
                                  ["switchbacks", "--help"]])
def test_help_asked_for_is_printed_and_exits_0(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.startswith("Usage: solve") and err == ""


@pytest.mark.parametrize("game, argv", [
    ("c2c", ["c2c", "--challenge", "Gateway Arch", "--map", "{path}"]),
    ("switchbacks", ["switchbacks", "play", "--map", "{path}"]),
])
def test_a_map_of_another_schema_is_refused(capsys, tmp_path, game, argv):
    if game == "c2c":
        from solvers.games.c2c.data import load_map
    else:
        from solvers.games.switchbacks.data import load_map
    raw = load_map().to_json()
    raw["schema"] = 99
    path = tmp_path / "map.json"
    path.write_text(json.dumps(raw))
    code, out, err = run(capsys, *[a.format(path=path) for a in argv])
    assert code == 2 and out == ""
    assert one_error_line(err).endswith("schema 99 is not known (this version reads schema 1)")
    del raw["schema"]                        # older maps without the key still load
    path.write_text(json.dumps(raw))
    assert load_map(path).to_json()["schema"] == 1
