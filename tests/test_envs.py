"""solvers.envs: every game and player count as a PettingZoo AEC environment,
solo Coast to Coast as a Gymnasium one (issue 30, item 1).

Checked by PettingZoo's own ``api_test``, ``seed_test`` and ``render_test``
and by Gymnasium's ``check_env``; then what those cannot know: the deal of
``reset(seed=s)``, the rewards against a replay of the same game outside
the environment, hand-read blocks of each encoding, and hidden information
(an observation and a drawing for a seat are identical on twin states that
differ only in what the seat cannot see; the twins differ for a seat that
can see the difference).
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

import solvers  # noqa: E402
import solvers.envs  # noqa: E402
from seat_twins import CASES as TWIN_CASES, twin_positions  # noqa: E402
from solvers.agents.base import seat_view  # noqa: E402
from solvers.envs.encoding import Encoder  # noqa: E402
from solvers.envs.render import draw_text  # noqa: E402
from solvers.engine.positions import load_position  # noqa: E402
from solvers.errors import SolversError  # noqa: E402
from solvers.registry import GameInfo, games, load_object, register, unregister  # noqa: E402
from solvers.rng import SplitMix64  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CASES = [(info.name, p) for info in games() for p in info.player_counts()]
#: What PettingZoo's api_test says of every dict observation outside its own
#: list of classic environments (it names them): expected, not a fault.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be")


def no_unexpected_warnings(caught: list) -> None:
    others = [str(w.message) for w in caught
              if not any(str(w.message).startswith(e) for e in EXPECTED_WARNINGS)]
    assert not others, others


def play_random(env, seed: int, limit: int = 100000) -> list[int]:
    """Play a wrapped env to the end with masked random actions; the actions."""
    rng = np.random.default_rng(seed)
    played = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append(action)
        env.step(action)
    return played


# ------------------------------------------------------------------ the checkers
@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_api_seed_and_render_tests(name, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(solvers.envs.env(name, players=players), num_cycles=8)
    no_unexpected_warnings(caught)
    seed_test(lambda: solvers.envs.env(name, players=players), num_cycles=8)

    def make(render_mode=None):
        return solvers.envs.env(name, players=players, render_mode=render_mode)

    seen = []
    render_test(make, custom_tests={"ansi": lambda text: seen.append(text) or isinstance(text, str)})
    title = solvers.registry.game_info(name).title
    assert seen and all(t.startswith(f"{title}, drawn for player ") for t in seen)


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CASES)
def test_pettingzoo_api_test_whole_games(name, players):
    api_test(solvers.envs.env(name, players=players), num_cycles=2000)
    seed_test(lambda: solvers.envs.env(name, players=players), num_cycles=2000)


@pytest.mark.parametrize("challenge", [None, "The Alamo"])
def test_gymnasium_check_env_solo(challenge):
    import gymnasium

    assert solvers.envs.register_gymnasium() == ["solvers/c2c-solo-v0"]
    env = gymnasium.make("solvers/c2c-solo-v0", challenge=challenge, render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)          # with a spec: every render mode is tried too
    assert not caught, [str(w.message) for w in caught]
    assert env.unwrapped.game.challenge == (None if challenge is None else
                                            env.unwrapped.game.map.location(challenge).id)


# ------------------------------------------------------------------ the game inside
@pytest.mark.parametrize("name,players", [("c2c", 2), ("switchbacks", 3), ("bigsur", 2), ("santacruz", 4)])
def test_a_whole_game_rewards_the_returns_of_the_same_game_replayed(name, players):
    env = solvers.envs.env(name, players=players)
    env.reset(seed=11)
    rewards = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(3)
    played = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert not np.any(obs["observation"] < 0) and not np.any(obs["observation"] > 1)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        played.append(action)
        env.step(action)
    assert env.agents == []
    # The same deal and decisions outside the environment: chance as seeded.
    state = solvers.load_game(name, players=players).new_initial_state(seed=11)
    for action in played:
        state.apply_seeded_chance()
        assert action in state.legal_actions()
        state.apply_action(action)
    state.apply_seeded_chance()
    assert state.is_terminal()
    assert [rewards[f"player_{q}"] for q in range(players)] == state.returns()
    assert abs(sum(rewards.values()) - 1.0) < 1e-9        # win shares


def test_reset_deals_the_game_of_its_seed_and_reset_without_seed_follows_the_generator():
    env = solvers.envs.env("switchbacks", players=2)
    env.reset(seed=5)
    state = solvers.load_game("switchbacks", players=2).new_initial_state(seed=5)
    state.apply_seeded_chance()
    obs = env.observe(env.agent_selection)
    assert env.agent_selection == f"player_{state.current_player()}"
    assert np.array_equal(obs["observation"], Encoder.of(state.game).encode(state, state.current_player()))
    assert sorted(np.flatnonzero(obs["action_mask"])) == state.legal_actions()
    env.reset()
    first = env.unwrapped.game_seed
    env.reset(seed=5)
    env.reset()
    assert env.unwrapped.game_seed == first != 5


def test_only_the_agent_to_act_has_a_mask():
    env = solvers.envs.env("bigsur", players=3)
    env.reset(seed=2)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_an_illegal_action_ends_the_game_as_in_the_classic_environments():
    env = solvers.envs.env("santacruz", players=2, illegal_reward=-1)
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def test_the_raw_environment_refuses_an_illegal_action_and_keeps_the_state():
    env = solvers.envs.raw_env("c2c", players=1)
    env.reset(seed=3)
    before = env.observe("player_0")["observation"].copy()
    with pytest.raises(SolversError):
        env.step(_illegal(env))
    assert np.array_equal(env.observe("player_0")["observation"], before)


def _illegal(env) -> int:
    mask = env.observe(env.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_the_solo_environment_rewards_the_score_and_zero_for_a_lost_challenge():
    for challenge in (None, "Wrigley Field"):
        env = solvers.envs.solo_env("c2c", challenge=challenge)
        obs, info = env.reset(seed=4)
        rng = np.random.default_rng(4)
        total, done, played = 0.0, False, []
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            played.append(action)
            obs, reward, done, truncated, info = env.step(action)
            total += reward
            assert not truncated
        state = solvers.load_game("c2c", 1, challenge=challenge).new_initial_state(seed=4)
        for a in played:
            state.apply_seeded_chance()
            state.apply_action(a)
        state.apply_seeded_chance()
        expected = state.scores()[0] if state.challenge_won() is not False else 0
        assert total == expected == state.returns()[0]
        assert not info["action_mask"].any()
        # Random play scores without a challenge and loses Wrigley Field's.
        assert (total > 0) if challenge is None else (state.challenge_won() is False and total == 0)
    # An illegal action ends the episode with the illegal reward.
    env = solvers.envs.solo_env("c2c", illegal_reward=-5)
    obs, info = env.reset(seed=1)
    _, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, done, info["illegal"]) == (-5, True, True)


def test_the_observation_of_the_solo_env_is_the_aec_observation():
    gym = solvers.envs.solo_env("c2c", challenge="The Alamo")
    aec = solvers.envs.env("c2c", players=1, challenge="The Alamo")
    obs, info = gym.reset(seed=9)
    aec.reset(seed=9)
    assert np.array_equal(obs, aec.observe("player_0")["observation"])
    assert np.array_equal(info["action_mask"], aec.observe("player_0")["action_mask"])


# ------------------------------------------------------------------ errors
def test_bad_arguments_are_one_line_errors():
    for call in (lambda: solvers.envs.env("no such game"),
                 lambda: solvers.envs.env("bigsur", players=1),
                 lambda: solvers.envs.env("switchbacks", players=9),
                 lambda: solvers.envs.env("bigsur", players=2, render_mode="rgb_array"),
                 lambda: solvers.envs.env("bigsur", players=2, render_seat=2),
                 lambda: solvers.envs.solo_env("switchbacks"),
                 lambda: solvers.envs.solo_env("c2c", challenge="Nowhere")):
        with pytest.raises(SolversError) as err:
            call()
        assert "\n" not in str(err.value)


def test_a_game_without_an_encoding_says_so():
    info = GameInfo(name="pigenv", title="Pig", min_players=1, max_players=2, default_players=2,
                    reference="solvers._core.toygames:Pig", kernel="solvers._core.toygames:Pig",
                    max_game_length=200)
    register(info)
    try:
        with pytest.raises(SolversError, match="pigenv has no observation encoding"):
            solvers.envs.env("pigenv", players=2)
    finally:
        unregister("pigenv")


def test_import_solvers_imports_no_environment_library():
    code = ("import sys, solvers, solvers.envs, solvers.registry\n"
            "from solvers.games.bigsur import encoding\n"
            "g = solvers.load_game('bigsur', players=2); s = g.new_initial_state(seed=1)\n"
            "s.apply_seeded_chance(); encoding.encode(s, 0)\n"
            "assert 'pettingzoo' not in sys.modules and 'gymnasium' not in sys.modules, 'imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


# ------------------------------------------------------------------ the encodings
def random_states(name: str, players: int, seed: int, every: int = 7, limit: int = 400):
    """Decision states of a random game, one in ``every``."""
    state = solvers.load_game(name, players=players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    k = 0
    while not state.is_terminal() and k < limit:
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        if k % every == 0:
            yield state.clone()
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
        k += 1
    yield state


def block(game, name, vector):
    info = solvers.registry.game_info(game.name)
    layout = load_object(info.encoding.split(":")[0] + ":layout")(game)
    b = layout.get(name)
    return vector[b.offset:b.offset + b.size]


def test_hand_read_blocks_of_coast_to_coast():
    game = solvers.load_game("c2c", players=1, challenge="The Alamo")
    state = game.new_initial_state(seed=3)
    state.apply_seeded_chance()
    v = Encoder.of(game).encode(state, 0)
    n = game.map.n
    cards = np.flatnonzero(block(game, "cards", v)).tolist()
    assert cards == sorted(state.information_state(0)["cards"]) and len(cards) == 4
    assert block(game, "round", v).tolist() == [1, 0, 0, 0, 0, 0, 0]
    assert block(game, "step", v).tolist() == [1, 0]                   # cross off first
    assert np.flatnonzero(block(game, "required", v)).tolist() == sorted(game.required())
    assert len(block(game, "circled", v)) == n and not block(game, "circled", v).any()


def test_hand_read_blocks_of_switchbacks():
    game = solvers.load_game("switchbacks", players=3)
    for state in random_states("switchbacks", 3, seed=8, every=11):
        v = Encoder.of(game).encode(state, 1)
        board = block(game, "board", v).reshape(game.num_hexes, game.num_tiles)
        assert {h: int(np.argmax(row)) + 1 for h, row in enumerate(board) if row.any()} == state.board
        assert sorted(np.flatnonzero(block(game, "hand", v)) + 1) == sorted(state.hands[1])
        hikers = block(game, "hikers", v).reshape(game.num_hexes, 3)
        for h, (owner, count) in state.hikers.items():
            assert hikers[h, (owner - 1) % 3] == count / 2


def test_hand_read_blocks_of_big_sur():
    game = solvers.load_game("bigsur", players=2)
    m, n = game.max_highway, game.num_cards
    for state in random_states("bigsur", 2, seed=4, every=13):
        v = Encoder.of(game).encode(state, 1)
        roads = block(game, "highways", v).reshape(2, m, n)
        for seat, rel in ((1, 0), (0, 1)):
            assert [int(np.argmax(r)) + 1 for r in roads[rel] if r.any()] == list(state.highways[seat])
        assert sorted(np.flatnonzero(block(game, "depot", v)) + 1) == sorted(state.depot)


def test_hand_read_blocks_of_santa_cruz():
    game = solvers.load_game("santacruz", players=2)
    t = len(game.island.tiles)
    for state in random_states("santacruz", 2, seed=6, every=9):
        v = Encoder.of(game).encode(state, 0)
        tiles = block(game, "tiles", v).reshape(game.num_sites, t)
        up = {s: int(np.argmax(r)) for s, r in enumerate(tiles) if r.any()}
        assert up == {s: state.site_tile[s] for s in range(game.num_sites) if state.face_up >> s & 1}
        assert block(game, "score", v).tolist() == pytest.approx([min(x / 200, 1) for x in state.score])


@pytest.mark.parametrize("name,players", CASES)
def test_the_encoding_fits_its_shape_and_bounds_through_a_game(name, players, monkeypatch):
    from solvers.envs.layout import Vector

    # No value is clipped: every count stays within the bound the docs give
    # (Santa Cruz's points alone are capped, docs/envs.md).
    over = []
    original = Vector.set

    def checked(self, block, index, value=1.0):
        if not 0 <= value <= 1 and block != "score":
            over.append((block, index, value))
        return original(self, block, index, value)

    monkeypatch.setattr(Vector, "set", checked)
    game = solvers.load_game(name, players=players)
    enc = Encoder.of(game)
    for state in random_states(name, players, seed=players, every=5):
        for seat in range(players):
            v = enc.encode(state, seat)
            assert v.shape == enc.shape and v.dtype == np.float32
            assert v.min() >= 0 and v.max() <= 1 and v[:players].tolist() == np.eye(players)[seat].tolist()
    assert not over, over[:5]


def test_docs_describe_every_block_of_every_game():
    text = (ROOT / "docs" / "envs.md").read_text()
    for info in games():
        game = solvers.load_game(info.name, players=info.max_players)
        layout = load_object(info.encoding.split(":")[0] + ":layout")(game)
        for b in layout.blocks:
            assert f"`{b.name}`" in text, (info.name, b.name)


# ------------------------------------------------------------------ hidden information
def _env_at(name: str, players: int, state, seat: int):
    """A raw env (ansi drawing for ``seat``) whose game is at ``state``."""
    env = solvers.envs.raw_env(name, players=players, render_mode="ansi", render_seat=seat)
    env.reset(seed=0)
    env.state = state
    env.agent_selection = env.possible_agents[max(state.current_player(), 0)]
    return env


@pytest.mark.parametrize("name,players", TWIN_CASES)
def test_twins_give_the_seat_the_same_observation_and_drawing(name, players):
    a, b, hidden = twin_positions(name, players)
    _, sa, _ = load_position(a)
    _, sb, _ = load_position(b)
    ea, eb = _env_at(name, players, sa, 0), _env_at(name, players, sb, 0)
    assert np.array_equal(ea.observe("player_0")["observation"], eb.observe("player_0")["observation"])
    assert np.array_equal(ea.observe("player_0")["action_mask"], eb.observe("player_0")["action_mask"])
    assert ea.render() == eb.render()
    # Control: the twins do differ, for a seat that sees the move in which
    # they differ, or (a tile laid face down, seen by no one yet) for the
    # referee, in the game's own position format of the whole state.
    others_see = any(not np.array_equal(ea.observe(f"player_{q}")["observation"],
                                        eb.observe(f"player_{q}")["observation"])
                     for q in range(1, players))
    if not others_see:
        fmt = solvers.registry.game_info(name).native_format()
        assert (str(sa) != str(sb)) if fmt is None else fmt[1](sa) != fmt[1](sb), hidden


@pytest.mark.parametrize("name,players", [("c2c", 3), ("switchbacks", 2), ("bigsur", 3), ("santacruz", 2)])
def test_a_state_and_its_seat_view_look_the_same_to_the_seat_through_a_game(name, players):
    enc = Encoder.of(solvers.load_game(name, players=players))
    differ = refused = 0
    for state in random_states(name, players, seed=21, every=6):
        if state.is_terminal():
            continue
        try:
            view = seat_view(state, 0)
        except SolversError:       # Big Sur: no view while another seat pays face down
            text = draw_text(solvers.registry.game_info(name), state, 0)
            assert text == draw_text(solvers.registry.game_info(name), state.clone(), 0)
            assert "paying: " in text and str(state.information_state(0)["paying"]) in text
            refused += 1
            continue
        assert np.array_equal(enc.encode(state, 0), enc.encode(view, 0))
        differ += any(not np.array_equal(enc.encode(state, q), enc.encode(view, q))
                      for q in range(1, players))
    assert differ > 0          # control: the re-dealt hidden part shows to the other seats


# ------------------------------------------------------------------ the example
def _example():
    import importlib.util

    spec = importlib.util.spec_from_file_location("envs_example", ROOT / "examples" / "envs_random_vs_mcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_plays_random_against_mcts(capsys):
    example = _example()
    assert example.main(["--game", "switchbacks", "--players", "2", "--games", "2",
                         "--iterations", "4", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("switchbacks, 2 players: seat 0 random (masked), seat 1 MCTS")
    games_ = [ln for ln in lines if ln.startswith("game ")]
    assert len(games_) == 2 and lines[-1].startswith("mean reward: player_0 ")
    for ln in games_:
        rewards = [float(x) for x in ln.split()[5::2]]
        assert sum(rewards) == pytest.approx(1.0)
    # The same run replays exactly (every choice from --seed).
    assert example.play("switchbacks", 2, 2, 4, 3) == [
        [float(x) for x in ln.split()[5::2]] for ln in games_]
    assert example.main(["--game", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


@pytest.mark.parametrize("name,players", [("c2c", 2), ("switchbacks", 2), ("bigsur", 3), ("santacruz", 4)])
def test_the_kernel_and_the_reference_give_the_same_observations(name, players):
    """The encodings read only the information states, which the kernel and
    the pure-Python rules give alike: the same vectors for the same game."""
    kernel = solvers.envs.env(name, players=players)
    reference = solvers.envs.env(name, players=players, reference=True)
    kernel.reset(seed=3)
    reference.reset(seed=3)
    assert not isinstance(reference.unwrapped.state, type(kernel.unwrapped.state))
    rng = np.random.default_rng(0)
    for agent in kernel.agent_iter(150):
        assert reference.agent_selection == agent
        obs, _, terminated, truncated, _ = kernel.last()
        for a in kernel.possible_agents:
            k, r = kernel.observe(a), reference.observe(a)
            assert np.array_equal(k["observation"], r["observation"])
            assert np.array_equal(k["action_mask"], r["action_mask"])
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        kernel.step(action)
        reference.step(action)


def test_without_the_extra_building_an_environment_says_how_to_install_it():
    code = ("import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
            "import solvers.envs\n"
            "from solvers.errors import SolversError\n"
            "for make in (lambda: solvers.envs.env('c2c'), lambda: solvers.envs.solo_env('c2c')):\n"
            "    try:\n"
            "        make()\n"
            "    except SolversError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "solvers.envs needs pettingzoo: pip install 'solvers[envs]'",
        "solvers.envs needs gymnasium: pip install 'solvers[envs]'"]
