"""Big Sur's learned leaf evaluation (docs/learning.md): the kernel's
features against a separate Python computation from the state's accessors
and the reference scoring, twins that differ only in what a seat cannot
see, the searcher's value on such twins, and a tiny ``solve train bigsur``
run whose model the agent loads (and a model for another game refused)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from learned_twins import twin_value_checks
from random_play import random_game

import solvers
from solvers._core.mcts import features_info, features_of
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.games.bigsur.data import SCENERY
from solvers.games.bigsur.scoring import find_stretches, runs, score, stretch_used
from solvers.learn.model import Model, load_model
from solvers.rng import SplitMix64

GAME = "bigsur"
#: The steps in which the player to move is within its turn (REVEAL and
#: REFILL come after the turn has ended).
IN_TURN = ("take", "draw", "build", "end", "pay", "top", "place")


def feats(state: Any, seat: int) -> list[float]:
    g = state.game
    return features_of(g._gamedef_capsule(), g._features_capsule(), state._state_capsule(), seat)


def _played(players: int, seed: int, iterations: int, stops: tuple[int, ...]) -> Iterator[Any]:
    """Positions of one game of plain MCTS at ``iterations`` a move (it
    builds long Highways and claims Landmarks, as random play seldom does),
    after each number of plies in ``stops``."""
    game = solvers.load_game(GAME, players=players)
    agent = load_agent("mcts", game, seed=seed, iterations=iterations, threads=1, model="none")
    state = game.new_initial_state(seed=seed)
    ply = 0
    while not state.is_terminal() and ply <= max(stops):
        if ply in stops:
            yield state.clone()
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(agent.step(state))
        ply += 1


def positions(players: int) -> Iterator[Any]:
    """Positions of random games and of small searches, chance nodes and
    decisions alike, from the first turn to the last."""
    for seed in range(1, 5):
        for plies in (20, 45, 70, 100, 130, 160):
            _, state = random_game(GAME, players, seed=seed, plies=plies * players // 2)
            if not state.is_terminal():
                yield state
    for seed in range(1, 4):
        yield from _played(players, seed, 40, tuple(range(20 + seed, 600, 9)))


# ------------------------------------------------------------ an independent computation
def expected_features(state: Any, seat: int) -> dict[str, float]:
    """The features by their definitions in docs/learning.md, from the
    state's Python accessors, the card data and the reference scoring
    (solvers.games.bigsur.scoring), not from the kernel's C."""
    game = state.game
    cards = game.cards
    players = game.num_players
    row_types = {t for lm in state.row for t in cards.landmark(lm).scenery}

    def end_runs(spots: list[Any]) -> list[tuple[str, int, int]]:
        """(type, icons, miles) of each distinct run touching an end."""
        out = []
        for t in SCENERY:
            for first, last, icons in runs(spots, t):
                if first == 0 or last == len(spots) - 1:
                    out.append((t, icons, sum(spots[k].miles() for k in range(first, last + 1))))
        return out

    def block(r: int) -> list[float]:
        spots = state.spots(r)
        claim = {s.scenery for s in find_stretches(spots) if not stretch_used(spots, s)
                 and any(spots[k].landmark is None for k in s.positions)}
        ends = end_runs(spots)
        persistent = sum(1 for sp in spots if sp.card.persistent is not None) + sum(
            1 for sp in spots if sp.landmark is not None and sp.landmark.ability.kind == "material")
        return [score(spots), len(spots), sum(1 for sp in spots if sp.landmark is not None),
                len(claim & row_types), sum(m for _, i, m in ends if i >= 3),
                sum(1 for _, i, _ in ends if i == 2), persistent, len(state.hands[r])]

    def gain(card: Any, spots: list[Any]) -> int:
        if not spots:
            return 0
        best = 0
        for at in (0, len(spots) - 1):
            g = 0
            for t in set(card.scenery):
                icons = miles = 0
                for first, last, n in runs(spots, t):
                    if first <= at <= last:
                        icons, miles = n, sum(spots[k].miles() for k in range(first, last + 1))
                if icons + card.icons(t) >= 3:
                    g += card.miles + (miles if icons < 3 else 0)
            best = max(best, g)
        return best

    own = block(seat)
    others = [sum(col) / (players - 1) for col in zip(*(block(r) for r in range(players) if r != seat), strict=True)]
    setup = 2 * players + 5
    prog = min(1.0, max(0.0, (state.pos - setup) / (len(game.deck) - setup)))
    hand = [cards.card(c) for c in state.hands[seat]]
    values = own + others + [v * prog for v in own] + [v * prog for v in others] + [
        prog, 1.0 if state.player == seat and state.step in IN_TURN else 0.0,
        game.turns_each - state.turns[seat], sum(gain(c, state.spots(seat)) for c in hand),
        sum(c.miles for c in hand), 1.0]
    return dict(zip(game.feature_names, values, strict=True))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_match_an_independent_computation(players):
    """Every feature of every seat equals the Python computation, and every
    feature is nonzero somewhere (so none is checked only as a zero)."""
    game = solvers.load_game(GAME, players=players)
    names = game.feature_names
    assert len(names) == len(set(names)) == features_info(game._features_capsule())["num_features"] == 38
    seen_nonzero: set[str] = set()
    n = 0
    for state in positions(players):
        for seat in range(players):
            got = dict(zip(names, feats(state, seat), strict=True))
            want = expected_features(state, seat)
            for name in names:
                assert got[name] == pytest.approx(want[name], rel=1e-5, abs=1e-5), (name, seat, n)
                if got[name]:
                    seen_nonzero.add(name)
        n += 1
    assert n > 30
    assert seen_nonzero == set(names)


def test_features_of_a_finished_game_score_the_highways():
    _, state = random_game(GAME, 2, seed=5)
    assert state.is_terminal()
    for seat in (0, 1):
        f = dict(zip(state.game.feature_names, feats(state, seat), strict=True))
        assert f["own:points"] == state.scores()[seat] and f["others:points"] == state.scores()[1 - seat]
        assert f["progress"] == 1 and f["turns_left"] == 0 and f["to_move"] == 0


# ------------------------------------------------------------ hidden information
@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_ignore_what_the_seat_cannot_see(players):
    """Twins (the state and a re-deal of everything ``seat`` cannot see:
    other hands, piles below their tops, both decks) give ``seat`` the same
    features, to the bit; control: the twins differ, and some other seat
    (who sees its own re-dealt hand) gets other features. (A state in which
    another seat has chosen discards cannot be re-dealt for ``seat``.)"""
    differ = other_changed = tried = 0
    for state in positions(players):
        for seat in range(players):
            try:
                twin = state.resample(seat, 99 + seat)
            except SolversError:
                continue
            tried += 1
            assert feats(twin, seat) == feats(state, seat)
            if twin.hands != state.hands:
                differ += 1
            if any(feats(twin, q) != feats(state, q) for q in range(players) if q != seat):
                other_changed += 1
    assert tried > 30 and differ > tried // 2 and other_changed > tried // 3


def random_model(game: Any, seed: int = 5, value_sum: float = 1.0) -> Model:
    rng = SplitMix64(seed)
    n = features_info(game._features_capsule())["num_features"]
    w = [((rng.next() >> 11) / 2.0**53 - 0.5) * 0.3 for _ in range(n)]
    return Model(game=GAME, players=game.num_players, feature_version=1, feature_names=[],
                 weights=w, bias=0.1, value_sum=value_sum)


@pytest.mark.parametrize("players", [2, 3])
def test_the_searchers_value_ignores_what_it_cannot_see(players):
    """Through the C search: the model's value for the searching seat (and,
    with two seats, the whole vector) is the same on twins; control: without
    the constant-sum share, another seat's own value changes on some twin."""
    game = solvers.load_game(GAME, players=players)
    model = random_model(game)
    own = random_model(game, value_sum=0.0)
    changed = n = 0
    for state in positions(players):
        if state.is_chance_node():
            continue
        seat = state.current_player()
        twin = state.resample(seat, 7)
        changed += twin_value_checks(game, model, own, state, twin, seat)
        n += 1
    assert n > 20 and changed > 0


def test_the_agents_choice_ignores_what_it_cannot_see(tmp_path):
    """The agent with a model (a 10-ply rollout valued by it) picks the same
    move and ranks the moves alike on twins, searching with one seed;
    control: the twins' hidden cards differ. The search re-deals the hidden
    cards at every iteration, so this checks the agent's whole path; a leak
    in the features themselves is caught by the tests above (a copy whose
    hand_gain read the next seat's hand passed this one)."""
    game = solvers.load_game(GAME, players=2)
    path = tmp_path / "m.json"
    random_model(game).save(path)
    differ = n = 0
    for state in positions(2):
        if state.is_chance_node() or len(state.legal_actions()) < 2:
            continue
        seat = state.current_player()
        twin = state.resample(seat, 11)
        differ += twin.hands[1 - seat] != state.hands[1 - seat]
        rows = []
        for s in (state, twin):
            agent = load_agent("mcts", game, seed=3, iterations=200, threads=1, model=str(path),
                               rollout_plies=10)
            rows.append([(r["action"], r["visits"], round(r["value"], 12)) for r in agent.analyse(s)])
        assert rows[0] == rows[1]
        n += 1
        if n == 12:
            break
    assert n == 12 and differ > 6


# ------------------------------------------------------------ training and the model file
@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """``solve train bigsur`` in seconds: two games, a few iterations."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    from solvers.cli.main import main

    out = tmp_path_factory.mktemp("model") / "tiny.json"
    stdout, stderr = io.StringIO(), io.StringIO()
    with redirect_stdout(stdout), redirect_stderr(stderr):
        code = main(["train", "bigsur", "--games", "2", "--iterations", "10", "--eval-games", "2",
                     "--seed", "4", "--out", str(out)])
    assert code in (0, None), stderr.getvalue()
    assert "model:" in stdout.getvalue()
    return out


def test_solve_train_bigsur_makes_a_loadable_model(tiny):
    model = load_model(tiny)
    game = solvers.load_game(GAME, players=2)
    model.check_game(game)
    assert model.game == GAME and model.players == 2 and len(model.weights) == 38
    assert model.feature_names == list(game.feature_names)
    t = model.training
    assert t["games"] == 2 and t["iterations"] == 10 and t["samples"] > 100
    assert "solve train bigsur" in t["command"] and model.strength["games"] == 2
    agent = load_agent("mcts", game, seed=1, iterations=50, model=str(tiny), rollout_plies=5)
    _, state = random_game(GAME, 2, seed=2, plies=40)
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    assert agent.step(state) in state.legal_actions()


def test_a_model_for_another_game_or_layout_is_one_error_line(tiny, tmp_path):
    """A real Switchbacks model, or a Big Sur file edited to another game,
    feature count, version or seat count: one SolversError line each."""
    from solvers.learn.train import train

    sb = tmp_path / "sb.json"
    train("switchbacks", out=sb, seed=1, games=1, iterations=5, eval_games=0)
    good = json.loads(tiny.read_text())
    feats39 = dict(good["features"], count=39, names=good["features"]["names"] + ["extra"])
    cases: dict[str, tuple[Any, str]] = {
        "sb.json": (None, "is for switchbacks, not bigsur"),
        "game.json": (dict(good, game="switchbacks"), "is for switchbacks, not bigsur"),
        "count.json": (dict(good, weights=good["weights"] + [0.0], features=feats39),
                       "(39 features), but this kernel has version 1 (38): retrain it"),
        "short.json": (dict(good, weights=good["weights"][:37]), "37 weights for 38 features"),
        "version.json": (dict(good, features=dict(good["features"], version=2)),
                         "version 2 (38 features), but this kernel has version 1"),
        "seats.json": (dict(good, players=3), "for 3 players, not 2"),
    }
    game = solvers.load_game(GAME, players=2)
    for name, (content, words) in cases.items():
        path = tmp_path / name
        if content is not None:
            path.write_text(json.dumps(content))
        with pytest.raises(SolversError) as e:
            load_agent("mcts", game, model=str(path))
        assert "\n" not in str(e.value) and words in str(e.value), (name, str(e.value))
    with pytest.raises(SolversError, match="for 2 players, not 3"):
        load_agent("mcts", solvers.load_game(GAME, players=3), model=str(tiny))


def test_solve_train_refuses_bad_options_in_one_line(capsys):
    from cli_helpers import one_error_line, run

    code, _, stderr = run(capsys, "tournament", "bigsur", "--games", "1", "--workers", "1",
                          "--agents", "mcts:iterations=5,model=/nonexistent/m.json,random")
    assert code == 2 and "not found" in one_error_line(stderr)
    code, _, stderr = run(capsys, "train", "bigsur", "--games", "1", "--mix", "3", "--out", "/tmp/x.json")
    assert code == 2 and "mix" in one_error_line(stderr)


def test_cards_of_the_users_own_play_without_the_shipped_model(tmp_path):
    """The shipped model learned the package's cards: with another card
    file the default search is plain MCTS; the package's cards given as a
    file are still the package's (the control)."""
    from solvers.games.bigsur.data import load_cards

    cards = load_cards(None).to_json()
    same = tmp_path / "same.json"
    same.write_text(json.dumps(cards))
    cards["highway"][1]["miles"] -= 1
    other = tmp_path / "other.json"
    other.write_text(json.dumps(cards))
    assert load_agent("mcts", solvers.load_game(GAME)).model is not None
    assert load_agent("mcts", solvers.load_game(GAME, cards=str(same))).model is not None
    game = solvers.load_game(GAME, cards=str(other))
    assert game.custom_data and load_agent("mcts", game).model is None
    assert load_agent("mcts", game, model="none").model is None
    with pytest.raises(SolversError, match="no model ships"):
        load_agent("mcts", game, model="default")
