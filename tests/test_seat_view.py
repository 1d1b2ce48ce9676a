"""Every agent decides from what the seat to move may know: twin positions
that differ only in what that seat cannot see get the same move and the
same reported values, from every agent kind, in every game and player
count, through the Python API and through ``solve engine``.

The twins are made here from the rules' public interface alone, never from
the games' own ``resample`` (which the agents' view is built on):

* **a hidden deal swapped**: in the history of a game, a chance outcome or
  a move the seat to move did not see (a card dealt to another hand, a tile
  laid face down, a bird token drawn, a tile set aside, a card discarded
  face down, another seat's mark made this round in Coast to Coast) is
  exchanged with another outcome or legal move there (and that one's later
  appearance, if any); the game is replayed, and kept only when the seat to
  move's ``information_state`` is exactly what it was;
* **another deck order**: the same history replayed on another seed, so the
  cards still to come lie in another order.

Each pair has a control: the twins really differ, for a seat that can see
the swapped card (its ``information_state`` differs) or, for the deck order,
in what the next deal would bring.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import solvers
from solvers.agents.base import seat_view
from solvers.errors import SolversError
from solvers.rng import SplitMix64

HIDDEN = -2

GAMES = [("c2c", 1), ("c2c", 2), ("c2c", 3), ("c2c", 4),
         ("switchbacks", 2), ("switchbacks", 3), ("switchbacks", 4),
         ("bigsur", 2), ("bigsur", 3), ("bigsur", 4),
         ("santacruz", 2), ("santacruz", 3), ("santacruz", 4)]

# Cheap settings of every agent kind (the mechanism is the same at any budget).
AGENTS = {
    "random": {},
    "greedy": {"samples": 4},
    "mcts": {"iterations": 150},
    "pimc": {"samples": 3, "width": 4, "refine": 0},
    "online": {"early": "report"},
    # the online agent with the shipped learned values before round 4
    "online-learned": {"early": "report", "learned": 4},
    # and with round 3's look ahead on sampled hands of round 4
    "online-look": {"early": "report", "learned": 4, "exact_hands": 1, "keep": 2},
}


def replay(game, seed, history):
    """The game of ``seed`` with ``history`` applied (chance included)."""
    state = game.new_initial_state(seed=seed)
    for a in history:
        state.apply_action(a)
    return state


def played(name, players, seed, fraction, reference=False):
    """A kernel game played at random (chance as seeded) for ``fraction`` of
    its length, then on to a decision of the last seat (the pure-Python
    reference rules with ``reference``)."""
    game = solvers.load_game(name, players=players, reference=reference)
    rng = SplitMix64(seed)
    full = game.new_initial_state(seed=seed)
    length = 0
    while not full.is_terminal():
        legal = full.legal_actions()
        full.apply_action(full.seeded_outcome() if full.is_chance_node()
                          else legal[rng.below(len(legal))])
        length += 1
    # From there, on to a decision of the last seat (in Coast to Coast the
    # moves of the others earlier in the round are then hidden from it).
    stop = int(length * fraction)
    state = replay(game, seed, full.history[:stop])
    for a in full.history[stop:]:
        if not state.is_chance_node() and state.current_player() == players - 1:
            break
        state.apply_action(a)
    assert not state.is_terminal() and not state.is_chance_node()
    return state


def hidden_deal_twin(state, seed, where=lambda walk: True):
    """``state`` with one chance outcome or move the seat to move did not
    see exchanged for another (latest first), replayed; None when no exchange
    keeps the seat's information state while changing the game. ``where``
    picks the moments whose outcome may be exchanged."""
    game, history = state.game, list(state.history)
    viewer = state.current_player()
    walk = game.new_initial_state(seed=seed)
    hidden = []
    for i, a in enumerate(history):
        if walk.action_observation(a, viewer) == HIDDEN and where(walk):
            outcomes = ([o for o, _ in walk.chance_outcomes()] if walk.is_chance_node()
                        else walk.legal_actions())
            hidden.append((i, a, [o for o in outcomes if o != a]))
        walk.apply_action(a)
    want = state.information_state(viewer)
    for i, a, others in reversed(hidden):
        for b in others:
            twin_history = list(history)
            twin_history[i] = b
            later = [j for j in range(i + 1, len(history)) if history[j] == b]
            if later:
                twin_history[later[0]] = a
            try:
                twin = replay(game, seed, twin_history)
            except SolversError:
                continue
            if (twin.current_player() == viewer and twin.information_state(viewer) == want
                    and sees_difference(state, twin)):
                return twin
    return None


def deck_twin(state, seed):
    """The same history on another seed: another order of the cards to come."""
    return replay(state.game, seed + 1000, state.history)


def sees_difference(state, twin):
    """The control: some seat that can see it tells the twins apart, or
    (for the deck order, which nobody sees) the next deals differ."""
    viewer = state.current_player()
    n = state.game.num_players
    if any(state.information_state(q) != twin.information_state(q) for q in range(n) if q != viewer):
        return True
    # The referee's view: play both on with the same decisions until a deal.
    a, b = state.clone(), twin.clone()
    rng = SplitMix64(5)
    while not a.is_terminal():
        if a.is_chance_node():
            if not b.is_chance_node() or b.seeded_outcome() != a.seeded_outcome():
                return True
            move = a.seeded_outcome()
        else:
            legal = a.legal_actions()
            if b.legal_actions() != legal:
                return True
            move = legal[rng.below(len(legal))]
        a.apply_action(move)
        b.apply_action(move)
    return a.returns() != b.returns()


def twins_of(name, players):
    """(kind, state, twin, (state's seed, twin's seed)) for a game: a hidden deal swapped (in the
    middle and late in the game) and another deck order."""
    pairs = []
    for k, fraction in enumerate((0.3, 0.7)):
        seed = 11 + 7 * k + players
        state = played(name, players, seed, fraction)
        twin = hidden_deal_twin(state, seed)
        if twin is not None:
            pairs.append(("hidden deal", state, twin, (seed, seed)))
        deck = deck_twin(state, seed)
        if sees_difference(state, deck):   # (no cards left to come: no such twin)
            pairs.append(("deck order", state, deck, (seed, seed + 1000)))
    assert pairs
    return pairs


def rows_of(agent_kind, state, seed=3):
    options = dict(AGENTS[agent_kind])
    kind = agent_kind.partition("-")[0]
    agent = solvers.load_agent(kind, state.game, seed=seed, **options)
    return agent.analyse(state), solvers.load_agent(kind, state.game, seed=seed, **options).step(state)


def kinds_for(name, players):
    return [k for k in AGENTS if (k != "pimc" or name == "c2c")
            and (not k.startswith("online") or name == "c2c")]


@pytest.mark.parametrize("name, players", GAMES, ids=[f"{n}-{p}" for n, p in GAMES])
def test_every_agent_ignores_what_the_seat_cannot_see(name, players):
    pairs = twins_of(name, players)
    if players > 1:
        assert any(kind == "hidden deal" for kind, *_ in pairs), "no hidden deal to swap"
    for kind, state, twin, _ in pairs:
        viewer = state.current_player()
        assert twin.information_state(viewer) == state.information_state(viewer)
        assert twin.legal_actions() == state.legal_actions()
        assert sees_difference(state, twin), f"{kind}: the twins do not differ"
        # The view itself: the same state for both, to the byte (the kernels'
        # records of past deals included), and what the seat knows.
        views = [seat_view(s, viewer) for s in (state, twin)]
        assert views[0]._raw() == views[1]._raw(), kind
        assert views[0].information_state(viewer) == state.information_state(viewer)
        for agent_kind in kinds_for(name, players):
            assert rows_of(agent_kind, state) == rows_of(agent_kind, twin), (kind, agent_kind)


REFERENCE = [("c2c", 1), ("c2c", 3), ("switchbacks", 3), ("bigsur", 3), ("santacruz", 3)]


@pytest.mark.parametrize("name, players", REFERENCE, ids=[f"{n}-{p}" for n, p in REFERENCE])
def test_agents_on_the_reference_rules_ignore_what_the_seat_cannot_see(name, players):
    """The same on the pure-Python reference games (Python MCTS), whose
    views come from their own ``resample``: equal views field by field."""
    checked = 0
    for seed in (11 + players, 18 + players):
        state = played(name, players, seed, 0.7, reference=True)
        viewer = state.current_player()
        for twin in (hidden_deal_twin(state, seed), deck_twin(state, seed)):
            if twin is None or not sees_difference(state, twin):
                continue
            views = [seat_view(s, viewer) for s in (state, twin)]
            assert views[0].__dict__ == views[1].__dict__
            for kind in ("random", "greedy", "mcts"):
                options = dict(AGENTS[kind])
                if kind == "mcts":
                    options.update(iterations=20, backend="python")
                rows = [solvers.load_agent(kind, s.game, seed=3, **options).analyse(s) for s in (state, twin)]
                assert rows[0] == rows[1], kind
            checked += 1
    assert checked


def test_the_c2c_reference_resample_is_the_kernels_redeal():
    """Coast to Coast's reference ``resample`` (new) re-deals the unseen
    cards exactly as the kernel's ``determinize`` does, and keeps what the
    seat knows; the control: the re-dealt deck is another order."""
    other_order = 0
    for players in (1, 2, 3):
        ref, ker = (solvers.load_game("c2c", players, reference=r) for r in (True, False))
        for seed in range(12):
            r, k, rng = ref.new_initial_state(seed=seed), ker.new_initial_state(seed=seed), SplitMix64(seed)
            for _ in range(rng.below(40)):
                legal = r.legal_actions()
                a = r.seeded_outcome() if r.is_chance_node() else legal[rng.below(len(legal))]
                r.apply_action(a)
                k.apply_action(a)
            if r.is_chance_node():
                continue
            viewer = r.current_player()
            rr, kk = r.resample(viewer, SplitMix64(5)), k.resample(viewer, SplitMix64(5))
            assert rr.information_state(viewer) == r.information_state(viewer)
            # The seats before the viewer replay their turn (at random in the
            # reference, by the playout policy in the kernel): the deck alike.
            assert rr.order == kk.order
            other_order += rr.order[rr.pos:] != r.order[r.pos:]
    assert other_order >= 20


# A late position where the exact search settles each re-deal quickly.
ENDGAME = [("c2c", 2), ("c2c", 3), ("switchbacks", 2), ("switchbacks", 3), ("switchbacks", 4),
           ("bigsur", 2), ("santacruz", 2), ("santacruz", 3)]


def late_twins(name, players):
    """A late position (the endgame agent can settle it) and a twin."""
    game = solvers.load_game(name, players=players)
    for seed in range(40, 80):
        state = played(name, players, seed, 0.97)
        twin = hidden_deal_twin(state, seed) or deck_twin(state, seed)
        if not sees_difference(state, twin):
            continue
        try:
            solvers.load_agent("endgame", game, samples=1, max_nodes=200_000).analyse(state)
        except SolversError:
            continue
        return state, twin
    pytest.fail(f"no late {name} position with hidden information within reach")


@pytest.mark.parametrize("name, players", ENDGAME, ids=[f"{n}-{p}" for n, p in ENDGAME])
def test_the_endgame_agent_ignores_what_the_seat_cannot_see(name, players):
    state, twin = late_twins(name, players)
    rows = [solvers.load_agent("endgame", s.game, samples=3, seed=4, max_nodes=2_000_000).analyse(s)
            for s in (state, twin)]
    assert rows[0] == rows[1]


def test_openspiel_agent_ignores_what_the_seat_cannot_see():
    pytest.importorskip("pyspiel")
    for name, players in (("santacruz", 2), ("bigsur", 3), ("switchbacks", 2), ("c2c", 2)):
        for kind, state, twin, _ in twins_of(name, players)[:2]:
            rows = [solvers.load_agent("openspiel", s.game, simulations=15, seed=2).analyse(s)
                    for s in (state, state, twin)]
            assert rows[0] == rows[1], (name, "the same seed, another answer")
            assert rows[0] == rows[2], (name, kind)


def immediate_scores(state):
    """Each legal action's score for the mover, on the real state (what
    greedy judged by before it saw only the view)."""
    mover = state.current_player()
    out = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out.append(child.scores()[mover])
    return out


def build_twins(games=20):
    """Santa Cruz, 2 players: at the first build of each game that may go
    onto a face-down tile, the position and a twin with another tile face
    down on such a site, with the seed (the state, twin, seed)."""
    out = []
    for seed in range(games):
        game = solvers.load_game("santacruz", players=2)
        state, rng = game.new_initial_state(seed=seed), SplitMix64(seed)
        while not state.is_terminal():
            if not state.is_chance_node() and state.step == "build":
                down = {site for site in state.legal_actions() if not state.face_up >> site & 1}
                twin = down and hidden_deal_twin(state, seed, where=lambda walk: walk.step == "layout"
                                                 and walk.layout_site() in down)
                if twin:
                    out.append((state, twin, seed))
                    break
            legal = state.legal_actions()
            state.apply_action(state.seeded_outcome() if state.is_chance_node()
                               else legal[rng.below(len(legal))])
    return out


def test_greedy_ignores_the_face_down_tile_it_would_build_on():
    """Santa Cruz's greedy judges a build by its points: on the real states
    the twins' face-down tiles change those points (the control); greedy's
    answers, through the view, do not."""
    pairs = build_twins()
    differ = sum(immediate_scores(state) != immediate_scores(twin) for state, twin, _ in pairs)
    assert len(pairs) >= 15 and differ >= 10, (len(pairs), differ)
    for state, twin, _ in pairs:
        assert rows_of("greedy", state) == rows_of("greedy", twin)


# ------------------------------------------------------------------ the engine
def engine_replies(requests):
    """The replies of a real ``solve engine`` to ``requests``, each sent when
    the one before has been answered (a ``go`` runs in the background)."""
    proc = subprocess.Popen([sys.executable, "-m", "solvers.cli.main", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    replies = []
    try:
        for r in requests:
            proc.stdin.write(json.dumps(r) + "\n")
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                assert line, "the engine stopped"
                reply = json.loads(line)
                if reply.get("id") == r["id"]:
                    break
            if isinstance(reply.get("result"), dict):
                reply["result"].pop("seconds", None)
            replies.append(reply)
    finally:
        proc.stdin.close()
        proc.wait(60)
    return replies


def position_of(state, seed, name, players):
    """The history position (seed and move strings) that replays to ``state``."""
    walk = state.game.new_initial_state(seed=seed)
    moves = []
    for a in state.history:
        moves.append(walk.action_to_string(a))
        walk.apply_action(a)
    return {"game": name, "players": players, "seed": seed, "moves": moves}


def test_engine_go_ignores_what_the_seat_cannot_see():
    """``go`` through a real ``solve engine`` for every game, player count and
    agent kind, on both twins: the same replies, values included."""
    requests, rid = [], 0
    expected_pairs = []
    for name, players in GAMES:
        for kind, state, twin, seeds in twins_of(name, players)[:2]:
            group = []
            for s, seed in zip((state, twin), seeds):
                ids = []
                rid += 1
                requests.append({"id": rid, "cmd": "position",
                                 "position": position_of(s, seed, name, players)})
                for agent_kind in kinds_for(name, players):
                    rid += 1
                    spec = agent_kind.partition("-")[0] + "".join(
                        (":" if i == 0 else ",") + f"{k}={v}" for i, (k, v) in enumerate(AGENTS[agent_kind].items()))
                    requests.append({"id": rid, "cmd": "go", "agent": spec, "options": {"seed": 9}})
                    ids.append(rid)
                group.append(ids)
            expected_pairs.append((name, players, kind, group))
    # Santa Cruz builds onto face-down tiles, where greedy's points would tell.
    for state, twin, seed in build_twins(10):
        group = []
        for s in (state, twin):
            rid += 2
            requests.append({"id": rid - 1, "cmd": "position",
                             "position": position_of(s, seed, "santacruz", 2)})
            requests.append({"id": rid, "cmd": "go", "agent": "greedy", "options": {"seed": 9}})
            group.append([rid])
        expected_pairs.append(("santacruz", 2, "face-down tile", group))
    replies = {r["id"]: r for r in engine_replies(requests)}
    assert all("result" in r for r in replies.values()), [r for r in replies.values() if "error" in r][:1]
    for name, players, kind, (a, b) in expected_pairs:
        for x, y in zip(a, b):
            assert replies[x]["result"] == replies[y]["result"], (name, players, kind, replies[x]["result"]["agent"])
