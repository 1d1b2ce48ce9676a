"""Santa Cruz's learned leaf evaluation (``sc_features`` in
``_core/santa_cruz.pyx``, docs/learning.md): the C features against a
separate Python computation from the reference rules' state, the features
and the searcher's value on twins that differ only in what the seat cannot
see (through ``Search`` and the MCTS agent), and a tiny ``solve train
santacruz`` run that makes a loadable model."""

from __future__ import annotations

import json
import struct

import pytest
from learned_twins import twin_value_checks

import solvers
from solvers._core.mcts import features_info, features_of
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.learn.model import Model, load_model
from solvers.learn.train import train
from solvers.rng import SplitMix64

GAME = "santacruz"
HIDDEN = -2
BLOCK = ("score", "birds", "bird_tokens", "buildings", "my_cards_pay", "cards_held",
         "build_cards", "reach_best")


def feats(state, seat):
    g = state.game
    return features_of(g._gamedef_capsule(), g._features_capsule(), state._state_capsule(), seat)


def as_bytes(values):
    """The floats as C wrote them (byte-identical twins, not merely close)."""
    return struct.pack(f"{len(values)}f", *values)


def random_history(players, seed):
    """A whole game played at random on the kernel (chance as seeded)."""
    state = solvers.load_game(GAME, players=players).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(state.seeded_outcome() if state.is_chance_node()
                           else legal[rng.below(len(legal))])
    return list(state.history)


def positions(players, seeds=range(1, 5), fractions=(0.35, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 1.0),
              reference=False):
    """(seed, state) at points of random games from the first decision on
    (decisions and chance nodes alike); with ``reference``, also the same
    position on the pure-Python rules."""
    kernel = solvers.load_game(GAME, players=players)
    ref_game = solvers.load_game(GAME, players=players, reference=True) if reference else None
    for seed in seeds:
        history = random_history(players, seed)
        for f in fractions:
            stop = int(len(history) * f)
            state = kernel.new_initial_state(seed=seed)
            for a in history[:stop]:
                state.apply_action(a)
            if state.step in ("layout", "deal"):
                continue
            if ref_game is None:
                yield seed, state
                continue
            ref = ref_game.new_initial_state(seed=seed)
            for a in history[:stop]:
                ref.apply_action(a)
            yield seed, state, ref


# ------------------------------------------------------------ an independent computation
def python_features(ref, seat):
    """The features of docs/learning.md computed from the reference state's
    fields and the island's lists (roads as pairs, rivers as site lists), not
    from the kernel's masks."""
    g, isl = ref.game, ref.game.island
    n = g.num_players
    coast = {i for i, site in enumerate(isl.sites) if site.kind == "coast"}
    road_nb: dict[int, set[int]] = {i: set() for i in range(isl.num_sites)}
    for a, b in isl.roads:
        road_nb[a].add(b)
        road_nb[b].add(a)
    rivers = [set(r.sites) for r in isl.rivers]
    occupied = {x for x, occ in enumerate(ref.occupants) if occ}
    unseen_tokens = [v for v, count in isl.bird_tokens.items() for _ in range(count)]
    for v in ref.birds[seat]:
        unseen_tokens.remove(v)
    mean_token = sum(unseen_tokens) / len(unseen_tokens) if unseen_tokens else 0.0

    def mine(q):
        return {x for x, occ in enumerate(ref.occupants) if q in occ}

    def best_reach(q):
        hand = ref.hand_build[q]
        double = hand["double"] > 0
        sites: set[int] = set()
        if hand["ship"] or double:
            sites |= coast
        if hand["road"] or double:
            for x in mine(q):
                sites |= road_nb[x]
        if hand["river"] or double:
            for r in rivers:
                if r & mine(q):
                    sites |= r
        best = 0
        for x in sites - occupied:
            if ref.face_up >> x & 1:
                tile = isl.tiles[ref.site_tile[x]]
                if ref.supply[q][tile.building] > 0:
                    best = max(best, tile.points)
        return best

    def birds(q):
        return sum(ref.birds[q]) if q == seat else len(ref.birds[q]) * mean_token

    def block(q):
        h = ref.hand_build[q]
        return [ref.score[q], birds(q), len(ref.birds[q]), len(mine(q)),
                sum(ref.card_points(c, q) for c in ref.hand_score[seat]),
                len(ref.hand_score[q]), h["ship"] + h["road"] + h["river"] + 2 * h["double"],
                best_reach(q)]

    own = block(seat)
    others_list = [block(q) for q in range(n) if q != seat]
    others = [sum(col) / len(others_list) for col in zip(*others_list, strict=True)]
    per_hand = isl.hand_size(n)
    played = sum(len(ref.played_build[q]) + len(ref.played_score[q]) for q in range(n))
    if ref.step == "over":
        progress = 1.0
    elif ref.step in ("layout", "deal"):
        progress = 0.0
    else:
        progress = min(1.0, ((ref.round - 1) * n * per_hand + played) / (2 * n * per_hand))
    over = ref.step == "over"
    totals = [ref.score[q] + (0 if over else birds(q)) for q in range(n)]
    best_other = max(totals[q] for q in range(n) if q != seat)
    ahead = 1.0 if totals[seat] > best_other else 0.5 if totals[seat] == best_other else 0.0
    return (own + others + [v * progress for v in own] + [v * progress for v in others]
            + [progress, 1.0 if ref.current_player() == seat else 0.0,
               1.0 if ref.round == 2 else 0.0, totals[seat] - best_other, ahead,
               ahead * progress, 1.0])


def test_the_layout_and_its_names():
    game = solvers.load_game(GAME, players=3)
    info = features_info(game._features_capsule())
    assert info == {"game": "santacruz", "version": 1, "num_features": 39}
    names = game.feature_names
    assert len(names) == 39 and len(set(names)) == 39
    assert names[:8] == tuple(f"own:{b}" for b in BLOCK)
    assert names[24:32] == tuple(f"others*progress:{b}" for b in BLOCK)
    assert names[-1] == "bias"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_match_an_independent_python_computation(players):
    """The C floats against :func:`python_features` on positions of random
    games, for every seat; the positions cover both rounds, chance nodes,
    the end, and non-zero values of every feature."""
    game = solvers.load_game(GAME, players=players)
    names = game.feature_names
    seen = set()
    rounds = set()
    count = 0
    for _, state, ref in positions(players, reference=True):
        rounds.add((ref.round, ref.step))
        for seat in range(players):
            got = feats(state, seat)
            want = python_features(ref, seat)
            for name, g, w in zip(names, got, want, strict=True):
                assert g == pytest.approx(w, rel=1e-5, abs=1e-4), (name, ref.step, seat)
                if w:
                    seen.add(name)
            count += 1
    assert count >= 20 * players
    assert {r for r, _ in rounds} == {1, 2}
    assert any(step in ("bird", "draw") for _, step in rounds)
    assert (2, "over") in rounds
    assert seen == set(names), set(names) - seen      # every feature non-zero somewhere


# ------------------------------------------------------------ hidden information
@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_ignore_what_the_seat_cannot_see(players):
    """Twins (the state and a re-deal of everything ``seat`` cannot see:
    face-down tiles, the others' scoring cards, draws, discards and bird
    tokens, the pile and the bag) give ``seat`` byte-identical features;
    control: the twins do differ in what is hidden, and some other seat (who
    sees its own re-dealt cards or tokens) gets other features."""
    differ = other_changed = 0
    for seed, state in positions(players):
        for seat in range(players):
            for k in range(2):
                twin = state.resample(seat, seed * 31 + k)
                assert as_bytes(feats(twin, seat)) == as_bytes(feats(state, seat))
                if twin._raw() != state._raw():
                    differ += 1
                if any(feats(twin, q) != feats(state, q) for q in range(players) if q != seat):
                    other_changed += 1
    assert differ > 20 and other_changed > 5


def hidden_deal_twin(state, steps=("layout", "deal", "draw", "bird")):
    """The twin made from the rules' public interface alone (not from
    ``resample``): in ``state``'s history, the latest chance outcome the
    seat to move did not see (a tile laid face down, a scoring card dealt to
    or drawn by another seat, another seat's bird token) exchanged with
    another outcome there (only at the chance ``steps``) and the game
    replayed; kept when the seat to move's information state is unchanged.
    None when no such exchange works."""
    game, history = state.game, list(state.history)
    viewer = state.current_player()
    walk = game.new_initial_state(seed=state.seed)
    hidden = []
    for i, a in enumerate(history):
        if walk.step in steps and walk.action_observation(a, viewer) == HIDDEN:
            hidden.append((i, a, [o for o, _ in walk.chance_outcomes() if o != a]))
        walk.apply_action(a)
    want = state.information_state(viewer)
    for i, a, others in reversed(hidden):
        for b in others:
            twin_history = list(history)
            twin_history[i] = b
            later = [j for j in range(i + 1, len(history)) if history[j] == b]
            if later:
                twin_history[later[0]] = a
            twin = game.new_initial_state(seed=state.seed)
            try:
                for x in twin_history:
                    twin.apply_action(x)
            except SolversError:
                continue
            if (twin.current_player() == viewer and twin.information_state(viewer) == want
                    and twin._raw() != state._raw()):
                return twin
    return None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_features_ignore_a_swapped_hidden_deal(players):
    """The same with twins from a hidden deal swapped in the history: a
    scoring card of another seat (dealt or drawn), a bird token of another
    seat, a face-down tile; control: some seat who can see the swapped card
    or token gets other features."""
    checked = {"cards": 0, "tokens": 0, "tiles": 0}
    changed = 0
    kinds = {"cards": ("deal", "draw"), "tokens": ("bird",), "tiles": ("layout",)}
    for _, state in positions(players, seeds=range(1, 6), fractions=(0.5, 0.65, 0.8)):
        if state.is_chance_node() or state.is_terminal():
            continue
        viewer = state.current_player()
        for kind, steps in kinds.items():
            twin = hidden_deal_twin(state, steps)
            if twin is None:
                continue
            assert as_bytes(feats(twin, viewer)) == as_bytes(feats(state, viewer)), kind
            changed += any(feats(twin, q) != feats(state, q) for q in range(players) if q != viewer)
            checked[kind] += 1
    assert min(checked.values()) >= 2 and changed >= 3, checked


def random_model(game, seed=5, value_sum=1.0, **play):
    rng = SplitMix64(seed)
    n = features_info(game._features_capsule())["num_features"]
    # small weights: the features are counts and points of tens
    w = [((rng.next() >> 11) / 2.0**53 - 0.5) * 0.1 for _ in range(n)]
    return Model(game=GAME, players=game.num_players, feature_version=1, feature_names=[],
                 weights=w, bias=0.1, value_sum=value_sum, **play)


@pytest.mark.parametrize("players", [2, 3])
def test_the_searchers_value_ignores_what_it_cannot_see(players):
    """The model's value for the searching seat (and, with two seats, the
    whole vector) is the same on twins; control: without the constant-sum
    share, another seat's own value changes on some twin."""
    game = solvers.load_game(GAME, players=players)
    model = random_model(game)
    own = random_model(game, value_sum=0.0)
    changed = checked = 0
    for seed, state in positions(players):
        if state.is_chance_node() or state.is_terminal():
            continue
        seat = state.current_player()
        for k in range(3):
            twin = state.resample(seat, seed * 7 + k)
            changed += twin_value_checks(game, model, own, state, twin, seat)
            checked += 1
    assert checked > 10 and changed > 0


@pytest.mark.parametrize("players", [2, 4])
def test_the_agent_with_a_model_ignores_what_it_cannot_see(players, tmp_path):
    """The MCTS agent with a model (a truncated rollout valued by the model,
    and the model alone) ranks the moves alike, to the value, on twins: a
    re-deal of what the seat to move cannot see and a hidden deal swapped;
    control: the twins differ."""
    game = solvers.load_game(GAME, players=players)
    path = tmp_path / "m.json"
    random_model(game, seed=9).save(path)
    checked = 0
    for seed, state in positions(players, seeds=range(1, 3), fractions=(0.4, 0.75)):
        if state.is_chance_node() or state.is_terminal():
            continue
        seat = state.current_player()
        twins = [state.resample(seat, seed + 100), hidden_deal_twin(state)]
        for twin in twins:
            if twin is None:
                continue
            assert twin._raw() != state._raw()
            for options in ({"mix": 0.0, "rollout_plies": 6}, {"mix": 1.0}):
                rows = [load_agent("mcts", game, seed=3, iterations=120, model=str(path),
                                   **options).analyse(s) for s in (state, twin)]
                assert rows[0] == rows[1], options
            checked += 1
    assert checked >= 3


# ------------------------------------------------------------ training
@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A Santa Cruz model trained in seconds (the pipeline check)."""
    out = tmp_path_factory.mktemp("model") / "tiny.json"
    model = train(GAME, out=out, seed=3, games=2, iterations=20, eval_games=2)
    return out, model


def test_training_makes_a_loadable_santa_cruz_model(tiny):
    out, model = tiny
    game = solvers.load_game(GAME, players=2)
    loaded = load_model(out)
    assert loaded.game == GAME and loaded.players == 2 and loaded.weights == model.weights
    assert len(loaded.weights) == 39 and loaded.feature_names == list(game.feature_names)
    t = loaded.training
    assert t["games"] == 2 and t["iterations"] == 20 and t["samples"] > 100
    assert "solve train santacruz" in t["command"]
    assert loaded.strength["games"] == 2
    loaded.check_game(game)
    agent = load_agent("mcts", game, seed=1, iterations=50, model=str(out))
    _, state = next(positions(2, seeds=[2], fractions=[0.5]))
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    assert agent.step(state) in state.legal_actions()


def test_a_model_for_another_game_or_layout_is_refused(tiny, tmp_path):
    out, _ = tiny
    good = json.loads(out.read_text())
    game = solvers.load_game(GAME, players=2)
    cases = {
        "game.json": (dict(good, game="switchbacks"), "is for switchbacks"),
        "seats.json": (dict(good, players=3), "is for 3 players"),
        "count.json": (dict(good, weights=good["weights"][:36],
                            features=dict(good["features"], count=36,
                                          names=good["features"]["names"][:36])), "retrain"),
        "version.json": (dict(good, features=dict(good["features"], version=2)), "retrain"),
    }
    for name, (content, words) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(content))
        with pytest.raises(SolversError, match=words) as e:
            load_agent("mcts", game, model=str(path))
        assert "\n" not in str(e.value)
    # and a Santa Cruz model handed to Switchbacks
    with pytest.raises(SolversError, match="is for santacruz") as e:
        load_agent("mcts", solvers.load_game("switchbacks", players=2), model=str(out))
    assert "\n" not in str(e.value)


def test_solve_train_santacruz_command(tmp_path, capsys):
    from cli_helpers import one_error_line, run

    out = tmp_path / "m.json"
    code, stdout, stderr = run(capsys, "train", "santacruz", "--games", "1", "--iterations", "10",
                               "--eval-games", "0", "--out", out, "--seed", "2")
    assert code == 0, stderr
    assert "model:" in stdout and load_model(out).training["games"] == 1
    code, stdout, stderr = run(capsys, "tournament", "santacruz", "--games", "1", "--workers", "1",
                               "--agents", f"mcts:iterations=10,model={out},mcts:iterations=10")
    assert code == 0, stderr
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(json.loads(out.read_text()), game="switchbacks")))
    code, stdout, stderr = run(capsys, "tournament", "santacruz", "--games", "1", "--workers", "1",
                               "--agents", f"mcts:iterations=5,model={bad},random")
    assert code == 2 and "switchbacks" in one_error_line(stderr)
