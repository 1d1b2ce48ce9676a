"""Coast to Coast's browser data (solvers.games.c2c.web): the board is JSON,
matches the map and the game's own move names; the breakdown adds up to the
scores of finished games (kernel and reference, every player count); the
Solve task agrees with the optimiser and the rules."""

from __future__ import annotations

import json
import random

import pytest
from web_helpers import play_out

import solvers
from solvers.errors import SolversError
from solvers.games.c2c import web
from solvers.games.c2c.data import load_map, parse_map


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_board_is_json_and_matches_the_map(players):
    game = solvers.load_game("c2c", players=players)
    b = web.board(game)
    assert json.loads(json.dumps(b)) == b
    m = game.map
    assert [l["name"] for l in b["locations"]] == [l.name for l in m.locations]
    assert [l["id"] for l in b["locations"]] == list(range(m.n))
    assert {(l["highway"], l["region"], l["type"]) for l in b["locations"]} == \
        {(l.highway, l.region, l.type) for l in m.locations}
    assert b["solid"] == [list(p) for p in m.solid_lines]
    assert b["dashed"] == [list(p) for p in m.dashed_lines]
    points = [(l["x"], l["y"]) for l in b["locations"]]
    assert len(set(points)) == m.n
    assert all(0 < x < b["width"] and 0 < y < b["height"] for x, y in points)
    assert len(b["actions"]) == game.num_distinct_actions()


def test_positions_are_geographic():
    b = web.board(solvers.load_game("c2c"))
    at = {l["name"]: (l["x"], l["y"]) for l in b["locations"]}
    # West is left, north is up (the places table, projected).
    assert at["Golden Gate Bridge"][0] < at["Great Salt Lake"][0] < at["Gateway Arch"][0] < at["Freedom Trail"][0]
    assert at["Space Needle"][1] < at["Hollywood"][1]
    assert at["Mall of America"][1] < at["The Alamo"][1]
    assert b["layout"] == "geographic" and len(b["outline"]) > 20


def test_a_map_without_coordinates_is_drawn_on_a_grid():
    raw = load_map().to_json()
    raw["locations"][0]["name"] = "Somewhere New"
    for line in raw["solid_lines"] + raw["dashed_lines"]:
        line[:] = ["Somewhere New" if n == "Space Needle" else n for n in line]
    m = parse_map(raw, "test")
    b = web.board(solvers.load_game("c2c", map=m))
    assert b["layout"] == "grid" and b["outline"] == []
    cells = {(l["x"], l["y"]) for l in b["locations"]}
    assert len(cells) == m.n


@pytest.mark.parametrize("players", [1, 2])
def test_the_action_table_names_the_moves_as_the_game_does(players):
    game = solvers.load_game("c2c", players=players, reference=True)
    b = web.board(game)
    names = [l["name"] for l in b["locations"]]
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
                continue
            for a in state.legal_actions():
                loc, card = b["actions"][a]
                text = f"cross {names[loc]}" if card is None else f"circle {names[loc]} with {names[card]}"
                assert state.action_to_string(a) == text
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("reference", [False, True])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_breakdown_sums_to_the_scores(players, reference):
    game = solvers.load_game("c2c", players=players, reference=reference)
    for seed in range(6):
        state = play_out(game, 100 * players + seed)
        rows = web.breakdown(state)
        assert len(rows) == players
        for seat, seat_rows in enumerate(rows):
            assert sum(r["points"] for r in seat_rows) == state.scores()[seat]
            parts = state.score_breakdown(seat)
            highway = sum(r["points"] for r in seat_rows if r["item"].startswith("Highway "))
            assert highway == parts["highways"]
            assert all(r["points"] > 0 and isinstance(r["item"], str) for r in seat_rows)


def test_breakdown_of_a_full_sheet():
    m = load_map()
    rows = web.sheet_rows(m, set(range(m.n)), set())
    assert sum(r["points"] for r in rows if r["item"].startswith("Every ")) == sum(m.type_points.values())
    assert sum(1 for r in rows if r["item"].startswith("Region ")) == len(m.regions)


def test_solve_task_agrees_with_the_optimiser_and_the_rules():
    from solvers.games.c2c.deal import shuffle_deal
    from solvers.games.c2c.plan import replay_plan
    from solvers.optimize.c2c import hindsight_optimum

    m = load_map()
    seen = []
    result = web.solve({"seed": 3, "challenge": "The Alamo"}, lambda d, t: seen.append((d, t)))
    deal = shuffle_deal("The Alamo", seed=3)
    assert result["deal"] == [m.locations[c].name for c in deal]
    direct = hindsight_optimum(deal, challenge="The Alamo", map=m)
    assert (result["status"], result["score"], result["won"]) == (direct.status, direct.score, direct.won)
    final = replay_plan(deal, result["plan"], "The Alamo", m)
    assert result["sheets"][-1]["circled"] == sorted(final.sheets[0].circled)
    assert result["sheets"][-1]["score"] == result["score"]
    assert [s["round"] for s in result["sheets"]] == list(range(6))
    assert seen[-1] == (1, 1)
    by_names = web.solve({"deal": result["deal"], "challenge": "The Alamo"}, lambda d, t: None)
    assert by_names["score"] == result["score"]


@pytest.mark.parametrize("params, message", [
    ({}, "either a deal"), ({"seed": 1, "deal": ["x"]}, "either a deal"),
    ({"seed": -1}, "'seed'"), ({"seed": 1, "time_limit": 0}, "'time_limit'"),
    ({"deal": "Hollywood\nHollywood"}, "dealt twice"), ({"seed": 1, "colour": 2}, "unknown field"),
    ({"seed": 1, "challenge": "Nowhere"}, "Nowhere"),
])
def test_solve_task_refuses_bad_input(params, message):
    with pytest.raises(SolversError, match=message):
        web.solve(params, lambda d, t: None)


def test_atlas_task_rows_and_refusals():
    # Each challenge's online player is the reports' (--online auto): the
    # learned player where values ship (Wrigley Field), elsewhere MCTS with
    # the last two rounds exact.
    from solvers.games.c2c.online import EXACT_REPORT_ONLINE, LEARNED_ONLINE, online_results

    m = load_map()
    table = web.atlas({"shuffles": 2, "challenges": ["Hollywood", "Wrigley Field"]},
                      lambda d, t: None)
    assert sorted(r["challenge"] for r in table["challenges"]) == ["Hollywood", "Wrigley Field"]
    assert table["online_agent"] == "auto"
    for name, player in (("Hollywood", EXACT_REPORT_ONLINE), ("Wrigley Field", LEARNED_ONLINE)):
        row = next(r for r in table["challenges"] if r["challenge"] == name)
        online = online_results(m, m.location(name).id, shuffles=2, seed=0, workers=1,
                                agent_spec=player)
        assert row["online_agent"] == player
        assert row["online"] == online.rate and row["online_ci95"] == list(online.ci95)
    for bad in ({"shuffles": 0}, {"shuffles": 1, "challenges": []}, {"seed": "x"}, {"what": 1}):
        with pytest.raises(SolversError):
            web.atlas(bad, lambda d, t: None)
