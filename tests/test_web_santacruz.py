"""Santa Cruz's browser data (solvers.games.santacruz.web): the board is JSON
and matches the island; its action table names the moves as the game does;
the breakdown adds up to the scores of finished games (kernel and
reference, every player count) and its items agree with what the final
position shows; the annotations (sets in play, scoring cards held) are the
rules' and tell a seat nothing it cannot see."""

from __future__ import annotations

import copy
import itertools
import json
import math
import random

import pytest
from web_helpers import play_out

import solvers
from solvers.data import builtin_json
from solvers.games.santacruz import web
from solvers.games.santacruz.data import load_island, parse_island


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_is_json_and_matches_the_island(players, reference):
    game = solvers.load_game("santacruz", players=players, reference=reference)
    b = web.board(game)
    assert json.loads(json.dumps(b)) == b
    isl = load_island()
    assert b["players"] == players
    assert [s["id"] for s in b["sites"]] == list(range(isl.num_sites)) == list(range(49))
    assert [(s["kind"], s["island"]) for s in b["sites"]] == [(s.kind, s.island) for s in isl.sites]
    assert sorted(map(tuple, b["roads"])) == sorted(isl.roads)
    assert [(r["name"], tuple(r["sites"])) for r in b["rivers"]] == [(r.name, r.sites) for r in isl.rivers]
    assert len(b["rivers"]) == 3
    assert [(t["kind"], t["building"], t["points"], t["resource"], t["fish_bonus"], t["bird"])
            for t in b["tiles"]] == [(t.kind, t.building, t.points, t.resource, t.fish_bonus, t.bird)
                                     for t in isl.tiles]
    assert [(s["letter"], s["name"], s["cards"]) for s in b["sets"]] == \
        [(s.letter, s.name, s.hand()) for s in isl.building_sets]
    assert [c["name"] for c in b["scoring_cards"]] == [c.name for c in isl.scoring_cards]
    assert b["supply"] == isl.supply
    assert len(b["actions"]) == game.num_distinct_actions()


def test_layout_follows_the_island_file():
    b = web.board(solvers.load_game("santacruz"))
    isl = load_island()
    pts = [(s["x"], s["y"]) for s in b["sites"]]
    assert all(0 < x < b["width"] and 0 < y < b["height"] for x, y in pts)
    # The file's order: left to right and top to bottom stay so on the drawing.
    for (i, a), (j, c) in itertools.combinations(enumerate(isl.sites), 2):
        assert (a.x < c.x) == (pts[i][0] < pts[j][0]) and (a.y < c.y) == (pts[i][1] < pts[j][1])
    # No two hexagons overlap: centres at least two inner radii apart.
    inner = b["hex"] * math.sqrt(3) / 2
    closest = min(math.dist(p, q) for p, q in itertools.combinations(pts, 2))
    assert closest >= 2 * inner
    # Every road of the shipped island joins drawing neighbours (one hexagon step).
    for a, c in isl.roads:
        assert math.dist(pts[a], pts[c]) == pytest.approx(closest, abs=0.2)


def test_the_scoring_card_summaries_name_their_points():
    isl = load_island()
    b = web.board(solvers.load_game("santacruz"))
    for card, shown in zip(isl.scoring_cards, b["scoring_cards"]):
        assert str(card.points) in shown["text"] and shown["kind"] == card.kind
    assert b["scoring_cards"][7]["text"] == "-2 per volcano building"       # Volcano eruption


def expected_name(b, state, action) -> str:
    """The words the game should use for ``action``, from the board's table."""
    kind, arg = b["actions"][action]
    if kind == "site":
        return f"{'land on' if state.step == 'land' else 'build on'} site {arg}"
    if kind == "set":
        return f"choose set {b['sets'][arg]['letter']} ({b['sets'][arg]['name']})"
    if kind == "play":
        return f"play {arg}"
    if kind == "double":
        return f"play double {arg}"
    if kind in ("score", "discard"):
        return f"{kind} {b['scoring_cards'][arg]['name']}"
    if kind == "tile":
        t = b["tiles"][arg]
        words = [t["building"], str(t["points"])]
        if t["resource"]:
            words.append(t["resource"] + (f"+{t['fish_bonus']}" if t["fish_bonus"] else ""))
        if t["bird"]:
            words.append("bird")
        return f"lay {' '.join(words)} on site"
    if kind == "card":
        return b["scoring_cards"][arg]["name"]
    assert kind == "bird"
    return f"worth {arg}"


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_action_table_names_the_moves_as_the_game_does(players, reference):
    game = solvers.load_game("santacruz", players=players, reference=reference)
    b = web.board(game)
    seen = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            for a in actions:
                name = state.action_to_string(a)
                want = expected_name(b, state, a)
                assert name == want or (b["actions"][a][0] in ("tile", "card", "bird") and want in name), \
                    (a, name, want)
                seen.add(b["actions"][a][0])
            state.apply_action(state.seeded_outcome() if state.is_chance_node() else rng.choice(actions))
    assert seen == {"site", "set", "play", "double", "score", "discard", "tile", "card", "bird"}


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_breakdown_sums_to_the_scores(players, reference):
    game = solvers.load_game("santacruz", players=players, reference=reference)
    isl = game.island
    for seed in range(5):
        state = play_out(game, 100 * players + seed)
        rows = web.breakdown(state)
        assert len(rows) == players
        items = [r["item"] for r in rows[0]]
        assert len(set(items)) == len(items)
        for seat, seat_rows in enumerate(rows):
            assert [r["item"] for r in seat_rows] == items, "every seat has the same items"
            assert sum(r["points"] for r in seat_rows) == state.scores()[seat]
            got = {r["item"]: r["points"] for r in seat_rows}
            view = state.information_state(seat)
            # The markers' starting spaces: seat 1 on 0, then clockwise 1, 2, ...
            assert got["Starting space"] == (seat - 1) % players
            assert got["Bird tokens"] == sum(view["birds"])
            # Round two's cards are the ones played in round two.
            played = {isl.scoring_cards[c].name for p in view["played_score"] for c in p}
            assert {i[len("Round 2 card: "):] for i in items if i.startswith("Round 2 card: ")} == played
            # Round two's buildings still stand unless a volcano erupted.
            if "Volcano eruption" not in played:
                standing = sum(isl.tiles[view["tiles"][s]].points
                               for s, owners in view["buildings"].items() if seat in owners)
                assert got["Round 2 buildings"] == standing
            for card in played:          # only the eruption takes points away
                points = got[f"Round 2 card: {card}"]
                assert points <= 0 if card == "Volcano eruption" else points >= 0


def test_breakdown_without_a_history_is_the_score():
    game = solvers.load_game("santacruz", players=2)
    state = play_out(game, 7)
    bare = game.state_from_raw(state._raw())
    assert bare.is_terminal() and bare.history == []
    assert web.breakdown(bare) == [[{"item": "Score", "points": s}] for s in state.scores()]


@pytest.mark.parametrize("reference", [False, True])
def test_breakdown_when_an_eruption_stops_a_marker_on_0(reference):
    # An island whose land is all volcano and whose eruption costs 20 a
    # building: markers often stop on 0, and the eruption's row is what it took.
    raw = copy.deepcopy(builtin_json("santa_cruz.json"))
    for item in raw["sites"] + raw["tiles"]:
        if item["kind"] == "land":
            item["kind"] = "volcano"
    for card in raw["scoring_cards"]:
        if card["kind"] == "eruption":
            card["points"] = 20
    game = solvers.load_game("santacruz", players=2, board=parse_island(raw, "test"), reference=reference)
    stopped = 0
    for seed in range(6):
        state = play_out(game, seed)
        for seat, rows in enumerate(web.breakdown(state)):
            assert sum(r["points"] for r in rows) == state.scores()[seat]
            stopped += sum(1 for r in rows if r["item"].endswith("Volcano eruption") and r["points"] % 20)
    assert stopped > 0


# ------------------------------------------------------------------ annotations
def assert_annotations_are_the_rules(state):
    n = state.game.num_players
    taken = {k for k in state.set_of if k >= 0}
    for seat in range(n):
        ann = web.annotate(state, seat)
        view = state.information_state(seat)
        assert json.loads(json.dumps(ann)) == ann
        # The sets in play: the rules' free sets and the taken ones.
        if hasattr(state, "free_sets"):                     # the reference
            assert sorted(set(state.free_sets()) | taken) == ann["sets_in_play"]
        assert ann["sets_in_play"] == (list(range(len(web.board(state.game)["sets"]))) if state.round == 1
                                       else sorted(int(k) for k in view["set_scoring"]))
        # The cards held: the hand, and the round-two draw until the discard.
        apart = [view["has_drawn"][q] and not view["has_discarded"][q] for q in range(n)]
        assert ann["cards_held"] == [view["hand_sizes"][q] + apart[q] for q in range(n)]
        assert ann["hand"][:view["hand_sizes"][seat]] == view["hand"]
        assert ann["drawn"] == (view["drawn"] if apart[seat] else None)
        assert ann["hand"] == view["hand"] + ([view["drawn"]] if apart[seat] else [])
        if state.step == "discard" and state.current_player() == seat:
            assert sorted(ann["hand"]) == [a - state.game.DISCARD for a in state.legal_actions()]


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_annotate_is_the_rules_sets_and_cards(players, reference):
    game = solvers.load_game("santacruz", players=players, reference=reference)
    steps = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while True:
            if not state.is_chance_node() and (rng.random() < 0.2 or state.step in ("discard", "over")):
                assert_annotations_are_the_rules(state)
                steps.add((state.round, state.step))
            if state.is_terminal():
                break
            state.apply_action(state.seeded_outcome() if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
    assert {(2, "discard"), (2, "play"), (1, "play")} <= steps


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_annotate_tells_a_seat_nothing_it_cannot_see(players, seed, reference):
    """Twins that differ only in what a seat cannot see (everything hidden
    from it re-dealt) give that seat equal annotations."""
    game = solvers.load_game("santacruz", players=players, reference=reference)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    checked = differ = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.3:
            for seat in range(players):
                twin = state.resample(seat, seed + checked)
                assert twin.information_state(seat) == state.information_state(seat)
                assert web.annotate(twin, seat) == web.annotate(state, seat)
                checked += 1
                differ += [sorted(h) for h in twin.hand_score] != [sorted(h) for h in state.hand_score] \
                    or list(twin.drawn) != list(state.drawn)
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else rng.choice(state.legal_actions()))
    assert checked > 10 and differ > 5
