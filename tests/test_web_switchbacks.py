"""Switchbacks' browser data (solvers.games.switchbacks.web) and drawing
(board.js): the board is JSON and matches the map (hexes, neighbours,
setup; the drawn centres touch exactly when the game calls hexes
neighbours); the action table names every move as the game does; the
breakdown adds up to the scores of finished games (kernel and reference,
every player count) and names the complete paths the rules score; the
annotations (paths, points so far) are the rules' and tell a seat nothing
it cannot see; in Chromium, the points, trails and hand drawn during a game
are the annotations the engine sent and the game's."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from web_helpers import play_out

import solvers
from solvers.errors import SolversError
from solvers.games.switchbacks import web


def path_builder(state, rng: random.Random) -> int:
    """A random move, preferring to put a tile next to its number's
    neighbour (t - 1 or t + 1) and to hike: random play almost never
    completes a path, so its breakdowns would be empty."""
    legal = state.legal_actions()
    g = state.game
    if state.step != "explore":       # mostly hike, so that the paths carry hikers
        hike = [a for a in legal if a != g.BUDDY_UP]
        return rng.choice(hike if hike and rng.random() < 0.8 else legal)
    where = {t: h for h, t in state.board.items()}
    good = [a for a in legal
            if any(t in where and g.map.adjacent(where[t], a % g.num_hexes)
                   for t in (a // g.num_hexes, a // g.num_hexes + 2))]
    return rng.choice(good or legal)




# ------------------------------------------------------------------ board
@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_is_json_and_matches_the_map(players, reference):
    game = solvers.load_game("switchbacks", players=players, reference=reference)
    b = web.board(game)
    assert json.loads(json.dumps(b)) == b
    m = game.map
    assert [(h["q"], h["r"]) for h in b["hexes"]] == list(m.hexes)
    assert [h["id"] for h in b["hexes"]] == list(range(m.num_hexes))
    assert [sorted(h["neighbours"]) for h in b["hexes"]] == [sorted(m.neighbour_ids(h)) for h in range(m.num_hexes)]
    assert (b["centre"], b["tiles"], b["hand_size"], b["min_run"]) == (m.centre, m.tiles, m.hand_size, m.min_run)
    assert (b["set_aside"], b["hikers"], b["players"]) == (game.set_aside_each, game.hikers_each, players)
    assert len(b["actions"]) == game.num_distinct_actions()
    # The drawing: hexes inside the picture, touching exactly their neighbours.
    s = b["hex_size"]
    for h in b["hexes"]:
        assert s <= h["x"] <= b["width"] - s * math.sqrt(3) / 2 and s <= h["y"] <= b["height"] - s
    for a in b["hexes"]:
        for c in b["hexes"]:
            if a["id"] < c["id"]:
                d = math.hypot(a["x"] - c["x"], a["y"] - c["y"])
                assert (abs(d - s * math.sqrt(3)) < 0.05) == m.adjacent(a["id"], c["id"]), (a, c)
                assert d > s * math.sqrt(3) - 0.05


def test_the_centre_is_drawn_in_the_middle_and_rows_go_down():
    b = web.board(solvers.load_game("switchbacks"))
    c = b["hexes"][b["centre"]]
    assert c["x"] == pytest.approx(b["width"] / 2, abs=0.02) and c["y"] == pytest.approx(b["height"] / 2, abs=0.02)
    # The numbering of docs/rules/switchbacks.md: top row first, left to right.
    ys = [h["y"] for h in b["hexes"]]
    assert ys == sorted(ys) and b["hexes"][0]["x"] < b["hexes"][3]["x"]


def test_board_refuses_another_game():
    with pytest.raises(SolversError, match="Switchbacks game"):
        web.board(solvers.load_game("c2c"))


def expected_text(meaning) -> str:
    """What the game's action_to_string should say for an action table entry
    (a pattern for chance actions, whose words depend on where the tile goes)."""
    kind, tile, hex_id = meaning
    return {"explore": f"explore {tile} on hex {hex_id}", "buddy_up": "buddy up",
            "hike_solo": "hike solo", "hike_buddies": "hike buddies"}.get(kind, f"deal {tile}")


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_action_table_names_the_moves_as_the_game_does(players, reference):
    game = solvers.load_game("switchbacks", players=players, reference=reference)
    b = web.board(game)
    kinds = set()
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                       else state.legal_actions())
            for a in actions:
                kind, tile, _ = b["actions"][a]
                kinds.add(kind)
                text = state.action_to_string(a)
                if kind == "deal":
                    assert state.is_chance_node()
                    assert int(re.search(r"(?:reveal|aside|deal|draws) (\d+)", text).group(1)) == tile, text
                else:
                    assert text == expected_text(b["actions"][a])
                    assert state.string_to_action(text) == a
            a = state.seeded_outcome() if state.is_chance_node() else path_builder(state, rng)
            state.apply_action(a)
    assert kinds == {"deal", "explore", "buddy_up", "hike_solo", "hike_buddies"}


# ------------------------------------------------------------------ breakdown
@pytest.mark.parametrize("players", [2, 3, 4])
def test_breakdown_sums_to_the_scores(players):
    ref = solvers.load_game("switchbacks", players=players, reference=True)
    kernel = solvers.load_game("switchbacks", players=players)
    scored = 0
    for seed in range(6):
        state = play_out(ref, 100 * players + seed, path_builder)
        rows = web.breakdown(state)
        assert len(rows) == players
        for seat, seat_rows in enumerate(rows):
            assert sum(r["points"] for r in seat_rows) == state.scores()[seat]
            assert all(r["points"] > 0 and isinstance(r["item"], str) for r in seat_rows)
            for r in seat_rows:
                # Each item is a complete path of the rules, and the seat's hikers on it.
                low, high = map(int, re.fullmatch(r"Path (\d+)-(\d+)", r["item"]).groups())
                hexes = [h for h, t in state.board.items() if low <= t <= high]
                assert len(hexes) == high - low + 1 >= ref.map.min_run
                assert state.run_length(low) == high - low + 1
                assert all(state.on_complete_path(h) for h in hexes)
                assert r["points"] == sum(state.hikers[h][1] for h in hexes
                                          if h in state.hikers and state.hikers[h][0] == seat)
        scored += sum(state.scores())
        # The kernel, replaying the same game, breaks it down the same way.
        twin = kernel.new_initial_state(seed=100 * players + seed)
        for a in state.history:
            twin.apply_action(a)
        assert twin.is_terminal() and twin.scores() == state.scores()
        assert web.breakdown(twin) == rows
    assert scored > 0


@pytest.mark.parametrize("players", [2, 4])
def test_breakdown_of_kernel_games(players):
    game = solvers.load_game("switchbacks", players=players)
    for seed in range(4):
        state = play_out(game, seed, path_builder)
        rows = web.breakdown(state)
        assert [sum(r["points"] for r in seat) for seat in rows] == state.scores()


def test_breakdown_of_a_known_map():
    game = solvers.load_game("switchbacks", players=2, reference=True)
    state = game.new_initial_state(seed=1)
    # 5 6 7 8 along the middle row (hexes 18-21), 9 far away, 3 4 too short.
    state.board = {18: 5, 19: 6, 20: 7, 21: 8, 0: 9, 33: 3, 34: 4}
    state.hikers = {18: (0, 1), 20: (1, 2), 21: (0, 2), 0: (1, 1), 33: (0, 2)}
    assert state.scores() == [3, 2]
    assert web.breakdown(state) == [[{"item": "Path 5-8", "points": 3}], [{"item": "Path 5-8", "points": 2}]]


# ------------------------------------------------------------------ annotations
def assert_annotations_are_the_rules(state, ref_state):
    """annotate(state) against the rules: ``ref_state`` is the same position
    in the reference (its run_length, on_complete_path and scores)."""
    m = ref_state.game.map
    for seat in range(state.game.num_players):
        ann = web.annotate(state, seat)
        assert json.loads(json.dumps(ann)) == ann
        assert ann == web.annotate(state, 0)                 # nothing in it is private
        assert ann["points"] == state.scores() == ref_state.scores()
    # The paths cover the map once, each a maximal run of the rules.
    assert sorted(t for p in ann["paths"] for t in p["tiles"]) == sorted(ref_state.board.values())
    assert [p["tiles"][0] for p in ann["paths"]] == sorted(p["tiles"][0] for p in ann["paths"])
    for p in ann["paths"]:
        tiles, hexes = p["tiles"], p["hexes"]
        assert tiles == list(range(tiles[0], tiles[0] + len(tiles)))
        assert [ref_state.board[h] for h in hexes] == tiles
        assert all(m.adjacent(a, b) for a, b in zip(hexes, hexes[1:]))
        assert all(ref_state.run_length(t) == len(tiles) for t in tiles)
        assert all(ref_state.on_complete_path(h) == p["complete"] for h in hexes)
        assert p["complete"] == (len(tiles) >= m.min_run)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_annotate_is_the_rules_paths_and_points(players):
    kernel = solvers.load_game("switchbacks", players=players)
    ref = solvers.load_game("switchbacks", players=players, reference=True)
    complete = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = kernel.new_initial_state(seed=50 + seed)
        rules = ref.new_initial_state(seed=50 + seed)
        while True:
            if rng.random() < 0.3 or state.is_terminal():
                assert_annotations_are_the_rules(state, rules)
                assert_annotations_are_the_rules(rules, rules)
                assert web.annotate(state, 0) == web.annotate(rules, 0)
            if state.is_terminal():
                break
            a = state.seeded_outcome() if state.is_chance_node() else path_builder(state, rng)
            state.apply_action(a)
            rules.apply_action(a)
        # At the end the points so far are the final scores, item by item.
        ann = web.annotate(state, 0)
        assert ann["points"] == [sum(r["points"] for r in rows) for rows in web.breakdown(state)]
        complete += sum(p["complete"] for p in ann["paths"])
    assert complete > 0


def test_annotate_of_a_known_map():
    game = solvers.load_game("switchbacks", players=2, reference=True)
    state = game.new_initial_state(seed=1)
    state.board = {18: 5, 19: 6, 20: 7, 21: 8, 0: 9, 33: 3, 34: 4}
    state.hikers = {18: (0, 1), 20: (1, 2), 21: (0, 2), 0: (1, 1), 33: (0, 2)}
    assert web.annotate(state, 1) == {
        "paths": [{"tiles": [3, 4], "hexes": [33, 34], "complete": False},
                  {"tiles": [5, 6, 7, 8], "hexes": [18, 19, 20, 21], "complete": True},
                  {"tiles": [9], "hexes": [0], "complete": False}],
        "points": [3, 2]}
    with pytest.raises(SolversError):
        web.annotate(state, 2)


@pytest.mark.parametrize("players, tiles_left, seed", [(2, 20, 1), (3, 18, 2), (4, 14, 3), (4, 6, 15)])
def test_annotate_tells_a_seat_nothing_it_cannot_see(players, tiles_left, seed):
    """Twins that differ only in what the seat to move cannot see (another
    seat's set-aside tiles, swapped with the stack or that seat's hand; a
    re-deal of everything hidden) give the seat equal annotations."""
    from test_hidden_twins import assert_twins, hand_twin, played_until, set_aside_twin

    state = played_until("switchbacks", players, seed,
                         lambda s: sum(len(h) for h in s.hands) <= tiles_left)
    mover = state.current_player()
    twins = [hand_twin(state), state.resample(mover, seed)]
    if state.stack():
        twins.append(set_aside_twin(state))
    for twin in twins:
        assert_twins(state, twin)
        assert (twin.set_aside, twin.hands, twin.stack()) != (state.set_aside, state.hands, state.stack())
        assert web.annotate(twin, mover) == web.annotate(state, mover)
    assert web.annotate(state, mover)["paths"]


# ------------------------------------------------------------------ the drawing, in Chromium
def test_the_drawing_shows_the_games_points_trails_and_hand(chromium, web_server, screenshots):
    """Play seat 0 by clicking (tile in hand, then hex; the hike buttons),
    choosing moves that build paths; after every move, what is drawn is
    checked against the annotations the page received and the game rebuilt
    in Python from the engine's moves. The page plays in seat mode, so it
    cannot give out the position: a referee session in Python plays the
    same requests (the same seed, the AI's go and the hint) alongside."""
    from web_helpers import open_play, settled, start_game, wait

    from solvers.engine import Session
    from solvers.engine.positions import load_position

    mirror = Session()
    mirror.handle({"cmd": "new", "game": "switchbacks", "players": 2, "seed": 11})

    def catch_up() -> dict:
        """The mirror dealt and played the AI up to seat 0's turn (or the end),
        as the page's engine did; its position."""
        while True:
            st = mirror.status()
            if st["phase"] == "chance":
                mirror.handle({"cmd": "deal"})
            elif st["phase"] == "over" or st["to_move"] == 0:
                return mirror.handle({"cmd": "position"})["result"]["position"]
            else:
                go = mirror.handle({"cmd": "go", "agent": "mcts", "seat": st["to_move"], "iterations": 30})
                mirror.handle({"cmd": "apply", "action": go["result"]["action"]})

    open_play(chromium, web_server, "switchbacks")
    start_game(chromium, "switchbacks", 2, ["human", "ai"], seed=11, budget=("iterations", 30))
    rules = solvers.load_game("switchbacks", players=2, reference=True)
    rng = random.Random(3)
    turns = 0
    while True:
        over = settled(chromium) == "over"
        position = catch_up()
        assert chromium.execute_script("return window.solversPlay.state.status.ply") == len(position["moves"])
        setup, _, moves = load_position(position)
        state = rules.new_initial_state(seed=setup["seed"])     # the reference, replayed
        for move in moves:
            state.apply_action(state.string_to_action(move))
        drawn = chromium.execute_script("""
            const q = (s) => [...document.querySelectorAll(s)];
            return {scores: q('#board g.seat').map((e) => Number(e.dataset.score)),
                    hand: q('#board g.hand').map((e) => Number(e.dataset.tile)),
                    trails: q('#board line.trail').length,
                    complete: q('#board line.trail.complete').length,
                    hikers: q('#board g.marks circle.hiker').length,
                    annotations: window.solversPlay.state.annotations};""")
        ann = drawn["annotations"]
        assert ann == web.annotate(state, 0)                  # what the engine sent: the rules'
        assert drawn["scores"] == ann["points"] == state.scores()
        assert drawn["trails"] == sum(len(p["hexes"]) - 1 for p in ann["paths"])
        assert drawn["complete"] == sum(len(p["hexes"]) - 1 for p in ann["paths"] if p["complete"])
        assert drawn["hand"] == sorted(state.hands[0])          # the human's own hand, nothing else
        where = {t: h for h, t in state.board.items()}
        pairs = [t for t in where if t + 1 in where and state.game.map.adjacent(where[t], where[t + 1])]
        assert drawn["trails"] == len(pairs)
        assert drawn["complete"] == sum(state.on_complete_path(where[t]) for t in pairs)
        assert drawn["hikers"] == sum(c for _, c in state.hikers.values())
        if over:
            break
        action = path_builder(state, rng)
        ply = len(position["moves"])
        if state.step == "explore":
            tile = action // state.game.num_hexes
            chromium.execute_script(
                "const t = document.querySelector(`#board g.hand[data-tile='${arguments[0]}']`);"
                "t.dispatchEvent(new MouseEvent('click', {bubbles: true}));", tile + 1)
            turns += 1
            if turns == 5:
                chromium.find_element("id", "hint-button").click()
                wait(chromium, "document.querySelectorAll('#hint-list li').length > 0", what="the hint")
                mirror.handle({"cmd": "go", "agent": "mcts", "seat": 0, "iterations": 30})
                chromium.save_screenshot(str(screenshots / "play-switchbacks-hint.png"))
        target = chromium.find_element("css selector", f"#board [data-action='{action}']")
        chromium.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));", target)
        wait(chromium, f"window.solversPlay.state.status.ply > {ply}", what="the move")
        assert "result" in mirror.handle({"cmd": "apply", "action": action})
    chromium.execute_script("document.getElementById('breakdown').scrollIntoView()")
    chromium.save_screenshot(str(screenshots / "play-switchbacks-built.png"))
    assert sum(state.scores()) > 0 and turns == state.game.turns_each
