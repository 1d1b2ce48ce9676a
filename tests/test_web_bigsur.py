"""Big Sur's browser data (solvers.games.bigsur.web): the board is JSON and
matches the card file and the game; its action table names the moves as the
game does; the breakdown adds up to the scores of finished games (kernel and
reference, every player count) and itemises the rulebook's example; the
annotations are the rules' Stretches and tell a seat nothing it cannot see;
the drawing's Stretch brackets are the annotations the engine sent and the
rules' Stretches."""

from __future__ import annotations

import json
import random
import re

import pytest
from web_helpers import play_out, wait

import solvers
from solvers.errors import SolversError
from solvers.games.bigsur import web
from solvers.games.bigsur.highway import parse_highway
from solvers.games.bigsur.scoring import Spot, find_stretches, score_highway


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_is_json_and_matches_the_cards(players, reference):
    game = solvers.load_game("bigsur", players=players, reference=reference)
    b = web.board(game)
    assert json.loads(json.dumps(b)) == b
    cards = game.cards
    assert [c["number"] for c in b["cards"]] == list(range(1, len(cards.highway) + 1))
    for drawn, card in zip(b["cards"], cards.highway):
        assert (tuple(drawn["scenery"]), drawn["miles"], tuple(drawn["cost"]), drawn["material"]) == \
            (card.scenery, card.miles, card.cost, card.material)
        assert drawn["persistent"] == card.persistent
        assert drawn["bonus"] == (card.bonus.text if card.bonus else None)
        assert (drawn["short"] is None) == (card.bonus is None)
    for drawn, lm in zip(b["landmarks"], cards.landmarks):
        assert (drawn["name"], tuple(drawn["scenery"])) == (lm.name, lm.scenery)
        assert drawn["ability"]["text"] == lm.ability.text and drawn["short"]
    assert len(b["landmarks"]) == len(cards.landmarks)
    assert b["deck"] == list(game.deck) and b["turns_each"] == game.turns_each == 7
    assert b["players"] == players
    assert len(b["actions"]) == game.num_distinct_actions()
    # The setup the drawing shows: the Depot and the Landmark row of a dealt game.
    state = game.new_initial_state(seed=1)
    state.apply_seeded_chance()
    view = state.information_state(0)
    assert len(view["depot"]) == b["depot_size"] and len(view["row"]) == b["landmark_row"]
    assert view["deck"] == len(b["deck"]) - players * 2 - b["depot_size"]


def move_text(b, state, action: int) -> str:
    """The game's words for ``action``, rebuilt from the board's action table."""
    kind, *args = b["actions"][action]
    names = {l["number"]: l["name"] for l in b["landmarks"]}
    if kind == "take":
        return f"take {args[0]} from the Depot"
    if kind == "draw":
        return "draw from the deck"
    if kind == "build":
        return f"build {args[0]}"
    if kind == "end":
        return f"at the {args[0]} end"
    if kind == "discard":
        return f"discard {args[0]}"
    if kind == "finish":
        counts, recycle = args
        parts = [f"persistent {m.capitalize()}" for m, k in zip(b["materials"], counts) for _ in range(k)]
        parts += ["recycling"] if recycle else []
        return "pay" + (" with " + ", ".join(parts) if parts else "")
    if kind == "top":
        return f"{args[0].capitalize()} on top"
    if kind == "claim":
        return f"claim {names[args[0]]}"
    if kind == "place":
        scenery, pos = args
        card = state.highways[state.current_player()][pos]
        return f"place above {card} (position {pos}, {scenery.capitalize()} Stretch)"
    if kind == "end_turn":
        return "end turn"
    if kind == "landmark":
        return f"reveal Landmark {names[args[0]]}"
    assert kind == "card"
    return str(args[0])


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_the_action_table_names_the_moves_as_the_game_does(players, reference):
    game = solvers.load_game("bigsur", players=players, reference=reference)
    b = web.board(game)
    kinds = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            for a in actions:
                text = move_text(b, state, a)
                said = state.action_to_string(a)
                if b["actions"][a][0] == "card":       # a card dealt, drawn or refilled: the same card
                    m = re.fullmatch(r"(?:player \d+ draws |refill the Depot with |deal )(\d+)(?: to .*)?", said)
                    assert m and m.group(1) == text, (said, text)
                else:
                    assert said == text
                kinds.add(b["actions"][a][0])
            state.apply_action(state.seeded_outcome() if state.is_chance_node() else rng.choice(actions))
    # Random games reach every kind of decision (placing needs a Stretch: most do).
    assert {"take", "draw", "build", "discard", "finish", "claim", "place", "end_turn", "card",
            "landmark"} <= kinds


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_breakdown_sums_to_the_scores(players, reference):
    game = solvers.load_game("bigsur", players=players, reference=reference)
    for seed in range(5):
        state = play_out(game, 100 * players + seed)
        rows = web.breakdown(state)
        assert len(rows) == players
        for seat, seat_rows in enumerate(rows):
            assert sum(r["points"] for r in seat_rows) == state.scores()[seat]
            assert all(r["points"] > 0 and isinstance(r["item"], str) for r in seat_rows)
            items = [r["item"] for r in seat_rows]
            assert len(items) == len(set(items)), "one row per item (the page's table is keyed by it)"
            # Stretch rows: each Stretch of the rules, its miles.
            stretches = find_stretches(state.spots(seat))
            assert sorted(r["points"] for r in seat_rows if " Stretch" in r["item"]) == \
                sorted(s.miles for s in stretches)


def test_breakdown_of_the_rulebook_example():
    # docs/rules/big-sur.md: Field 6, Ocean 6, Mountain 7, bonus 4, one Landmark 3, its ability 4: 30.
    from pathlib import Path

    raw = json.loads((Path(__file__).parents[1] / "examples/bigsur/rulebook-highway.json").read_text())
    rows = web.highway_rows(parse_highway(raw))
    assert {r["item"]: r["points"] for r in rows} == {
        "Ocean Stretch": 6, "Mountain Stretch": 7, "Field Stretch": 6, "2-Mile Bonus (card 3): 1 per Scenery type": 4,
        "Landmarks claimed": 3, "Landmark Bixby Creek Bridge": 4}
    assert sum(r["points"] for r in rows) == 30


def test_the_short_labels_cover_every_kind():
    from solvers.games.bigsur.data import ABILITY_KINDS, BONUS_KINDS

    assert set(web._BONUS_SHORT) == set(BONUS_KINDS)
    assert set(web._ABILITY_SHORT) == set(ABILITY_KINDS)
    b = web.board(solvers.load_game("bigsur", players=4))
    assert all(len(line) <= 20 for c in b["cards"] if c["short"] for line in c["short"])


# ------------------------------------------------------------------ annotations
def builder(table):
    """A random move preferring to place and claim Landmarks and to build
    (random play rarely claims one)."""
    def policy(state, rng):
        legal = state.legal_actions()
        for kind in ("place", "claim", "build"):
            wanted = [a for a in legal if table[a][0] == kind]
            if wanted and rng.random() < 0.9:
                return rng.choice(wanted)
        return rng.choice(legal)
    return policy


def assert_annotations_are_the_rules(state):
    ann = web.annotate(state, 0)
    assert json.loads(json.dumps(ann)) == ann
    assert all(web.annotate(state, seat) == ann for seat in range(state.game.num_players))
    assert len(ann["stretches"]) == state.game.num_players
    for seat, found in enumerate(ann["stretches"]):
        spots = state.spots(seat)
        rules = find_stretches(spots)
        assert [(s["scenery"], s["first"], s["last"], s["icons"], s["miles"]) for s in found] == \
            [(s.scenery, s.first, s.last, s.icons, s.miles) for s in rules]
        for s in found:
            assert s["cards"] == state.highways[seat][s["first"]:s["last"] + 1]
            marks = state.marks[seat]
            assert s["claimed"] == any(marks.get(c, (0, None))[1] == s["scenery"] for c in s["cards"])
    return ann


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 4])
def test_annotate_is_the_rules_stretches(players, reference):
    game = solvers.load_game("bigsur", players=players, reference=reference)
    policy = builder(web.action_table(game))
    claimed = stretches = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while True:
            if rng.random() < 0.1 or state.is_terminal():
                ann = assert_annotations_are_the_rules(state)
                stretches += sum(len(f) for f in ann["stretches"])
                claimed += sum(s["claimed"] for f in ann["stretches"] for s in f)
            if state.is_terminal():
                break
            state.apply_action(state.seeded_outcome() if state.is_chance_node() else policy(state, rng))
        # At the end, each Stretch is a row of the final breakdown, its miles the points.
        for seat, rows in enumerate(web.breakdown(state)):
            assert sorted(r["points"] for r in rows if re.fullmatch(r"[A-Z][a-z]+ Stretch( \(\d+\))?", r["item"])) \
                == sorted(s["miles"] for s in web.annotate(state, seat)["stretches"][seat])
    assert stretches > 0 and claimed > 0


def test_annotate_of_the_rulebook_example():
    from pathlib import Path

    raw = json.loads((Path(__file__).parents[1] / "examples/bigsur/rulebook-highway.json").read_text())
    highway = parse_highway(raw)
    found = web.stretches(highway)
    assert [(s["scenery"], s["miles"]) for s in found] == [("ocean", 6), ("mountain", 7), ("field", 6)]
    assert [s["claimed"] for s in found] == [any(highway[k].claimed == s["scenery"] for k in
                                                 range(s["first"], s["last"] + 1)) for s in found]
    assert sum(s["claimed"] for s in found) == 1


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players, seed", [(2, 4), (3, 2), (4, 3)])
def test_annotate_tells_a_seat_nothing_it_cannot_see(players, seed, reference):
    """Twins that differ only in what a seat cannot see (everything hidden
    from it re-dealt: other hands, piles below their tops, the decks) give
    that seat equal annotations."""
    game = solvers.load_game("bigsur", players=players, reference=reference)
    policy = builder(web.action_table(game))
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    checked = differ = stretches = 0
    while not state.is_terminal():
        if not state.is_chance_node() and rng.random() < 0.15:
            for seat in range(players):
                try:
                    twin = state.resample(seat, seed + checked)
                except SolversError:
                    continue                  # another player is choosing a payment
                assert twin.information_state(seat) == state.information_state(seat)
                assert web.annotate(twin, seat) == web.annotate(state, seat)
                checked += 1
                differ += (twin.hands, twin.order) != (state.hands, state.order)
                stretches += sum(map(len, web.annotate(state, seat)["stretches"]))
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else policy(state, rng))
    assert checked > 10 and differ > 10 and stretches > 0




def test_the_drawing_shows_the_rules_stretches_and_no_hidden_card(chromium, web_server, screenshots):
    """A game between two AIs in the browser; at the end the brackets drawn
    under each Highway are the annotations the engine sent, which are the
    rules' Stretches (with their miles), and the only hand drawn is the
    seat's own."""
    from solvers.games.bigsur.data import load_cards

    chromium.get(f"{web_server}/?game=bigsur")
    wait(chromium, "document.getElementById('game').value === 'bigsur'", timeout=300)
    for key, value in (("players", 3), ("seat-0", "ai"), ("seat-1", "ai"), ("seat-2", "ai"), ("seed", 11),
                       ("budget-kind", "iterations"), ("budget", 10)):
        chromium.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                                "e.dispatchEvent(new Event('change'));", key, str(value))
    chromium.find_element("id", "new").click()
    wait(chromium, "document.body.dataset.turn === 'over' && window.solversPlay.state.view "
                    "&& window.solversPlay.state.view.step === 'over'", timeout=300)
    chromium.save_screenshot(str(screenshots / "play-bigsur-ai-over.png"))
    chromium.execute_script("document.getElementById('breakdown').scrollIntoView()")
    chromium.save_screenshot(str(screenshots / "play-bigsur-ai-breakdown.png"))
    status = chromium.execute_script("return window.solversPlay.state.status")
    totals = [int(e.text) for e in chromium.find_elements("css selector", "#breakdown-table [data-total]")]
    assert totals == status["scores"]
    view = chromium.execute_script("return window.solversPlay.state.view")
    annotations = chromium.execute_script("return window.solversPlay.state.annotations")
    cards = load_cards()
    found = 0
    for seat, highway in enumerate(view["highways"]):
        marks = view["landmarks"][seat]
        spots = [Spot(cards.card(c), cards.landmark(marks[str(c)][0]), marks[str(c)][1]) if str(c) in marks
                 else Spot(cards.card(c)) for c in highway]
        want = sorted((s.scenery, s.first, s.last, s.miles) for s in find_stretches(spots))
        sent = annotations["stretches"][seat]
        assert sent == web.stretches(spots)
        drawn = chromium.execute_script(
            "return [...document.querySelectorAll(`#board g.highway[data-seat='${arguments[0]}'] g.stretch`)]"
            ".map((e) => [e.dataset.stretch, +e.dataset.first, +e.dataset.last, +e.dataset.miles,"
            " e.dataset.claimed === 'true'])", seat)
        assert sorted(map(tuple, drawn)) == sorted((s["scenery"], s["first"], s["last"], s["miles"], s["claimed"])
                                                   for s in sent)
        assert sorted(d[:4] for d in map(tuple, drawn)) == want
        found += len(want)
        assert score_highway(spots).total >= sum(s[3] for s in want)
    assert found > 0
    # Cards drawn face up: the Depot, the seat's hand, the Highways; nothing else.
    shown = chromium.execute_script(
        "return [...document.querySelectorAll('#board [data-card]')].map((e) => [e.dataset.place || '', +e.dataset.card])")
    hand = sorted(c for place, c in shown if place == "hand")
    assert hand == sorted(view["hand"])
    visible = set(view["depot"]) | set(view["hand"]) | {c for h in view["highways"] for c in h}
    assert {c for _, c in shown} <= visible


# One human decision: the board's offer of the most advanced kind (place a
# Landmark, claim one, choose an end, discard to pay, build, take), else the
# list's first payment / "on top" choice, else its last button (end turn).
CLICK_BOARD_FIRST = """
const order = ['place', 'claim', 'end', 'discard', 'build', 'take', 'draw', 'finish', 'top', 'end_turn'];
const b = window.solversPlay.state.board;
const onBoard = [...document.querySelectorAll('#board [data-action]')];
const listed = [...document.querySelectorAll('#moves [data-action]')];
const kind = (e) => b.actions[Number(e.dataset.action)][0];
onBoard.sort((x, y) => order.indexOf(kind(x)) - order.indexOf(kind(y)));
const paying = listed.filter((e) => ['finish', 'top'].includes(kind(e)));
const target = onBoard[0] || paying[0] || listed[listed.length - 1];
const out = {kind: kind(target), via: target.closest('#board') ? 'board' : 'list',
             step: window.solversPlay.state.view.step, ply: window.solversPlay.state.status.ply,
             board: onBoard.map((e) => Number(e.dataset.action)), list: listed.map((e) => Number(e.dataset.action))};
target.dispatchEvent(new MouseEvent('click', {bubbles: true}));
return out;
"""


def test_building_and_claiming_by_clicking_the_board(chromium, web_server, screenshots):
    """A human who builds whatever the board offers: hand cards, the ends of
    the Highway and the cards to discard are clicked on the board, and the
    Highway grows by one card per build."""
    chromium.get(f"{web_server}/?game=bigsur")
    wait(chromium, "document.getElementById('game').value === 'bigsur'", timeout=300)
    for key, value in (("players", 2), ("seat-0", "human"), ("seat-1", "ai"), ("seed", 3),
                       ("budget-kind", "iterations"), ("budget", 10)):
        chromium.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                                "e.dispatchEvent(new Event('change'));", key, str(value))
    chromium.find_element("id", "new").click()
    clicked: dict[tuple[str, str], int] = {}
    shot = set()
    for _ in range(2000):
        turn = wait(chromium, "!window.solversPlay.state.busy && ['human', 'over'].includes(document.body.dataset.turn)"
                               " && document.body.dataset.turn", timeout=300)
        if turn == "over":
            break
        view = chromium.execute_script("return window.solversPlay.state.view")
        if view["step"] not in shot:
            shot.add(view["step"])
            chromium.save_screenshot(str(screenshots / f"play-bigsur-step-{view['step']}.png"))
        offered = chromium.execute_script(CLICK_BOARD_FIRST)
        assert set(offered["board"]) <= set(offered["list"])
        clicked[(offered["kind"], offered["via"])] = clicked.get((offered["kind"], offered["via"]), 0) + 1
        wait(chromium, f"window.solversPlay.state.status.ply > {offered['ply']}", timeout=60)
    else:
        pytest.fail("the game did not end")
    chromium.save_screenshot(str(screenshots / "play-bigsur-builder-over.png"))
    for kind in ("take", "build", "end", "discard"):
        assert clicked.get((kind, "board")), (kind, clicked)
    # Every move is on the board now (issue 28), the payments' ends and the turn's end too.
    assert not any(via == "list" for kind, via in clicked), clicked
    final = chromium.execute_script("return window.solversPlay.state.view.highways[0].length")
    assert final == clicked[("build", "board")] >= 3
