"""The Santa Cruz island file: the shipped island meets the spec, and bad
files fail with one clear line."""

import copy
import json
from collections import Counter

import pytest

from solvers.data import builtin_json
from solvers.errors import SolversError
from solvers.games.santacruz.data import draw_island, load_island, parse_island

ISLAND = load_island()
RAW = builtin_json("santa_cruz.json")


def test_counts_meet_the_spec():
    kinds = Counter(s.kind for s in ISLAND.sites)
    assert ISLAND.num_sites == 49 and set(kinds) == {"coast", "land", "volcano"}
    assert len(ISLAND.tiles) == 54
    assert sum(ISLAND.bird_tokens.values()) == 22 and set(ISLAND.bird_tokens) == {1, 2, 3}
    assert ISLAND.supply == {"house": 8, "church": 3, "lighthouse": 2}
    assert ISLAND.scoring_dealt == {2: 4, 3: 3, 4: 2}
    assert len(ISLAND.scoring_cards) == 16
    assert [len(s.hand()) for s in ISLAND.building_sets] == [7, 7, 7, 7]
    assert all(s.cards.get("double") == 1 for s in ISLAND.building_sets)
    by_name = {s.name: s.cards for s in ISLAND.building_sets}
    assert by_name["River"] == {"ship": 1, "road": 2, "river": 3, "double": 1}
    assert by_name["Road"] == {"ship": 1, "road": 4, "river": 1, "double": 1}


def test_a_large_island_around_a_volcano_and_two_small_islands():
    islands = Counter(s.island for s in ISLAND.sites)
    assert len(islands) == 3
    large = max(islands, key=islands.get)
    assert all(islands[i] < islands[large] // 4 for i in islands if i != large)
    volcano = [s for s in ISLAND.sites if s.kind == "volcano"]
    assert volcano and all(s.island == large for s in volcano)
    # the volcano sits inside: no volcano site is on the coast row or column ends
    coast_of_large = [s for s in ISLAND.sites if s.island == large and s.kind == "coast"]
    assert min(s.y for s in coast_of_large) < min(s.y for s in volcano)
    assert max(s.y for s in coast_of_large) > max(s.y for s in volcano)


def test_every_site_is_reachable_by_road_or_coast():
    # a ship reaches every coastal site; from there roads must lead everywhere
    reached = {i for i, s in enumerate(ISLAND.sites) if s.kind == "coast"}
    frontier = list(reached)
    while frontier:
        a = frontier.pop()
        for b in ISLAND.road_neighbours(a):
            if b not in reached:
                reached.add(b)
                frontier.append(b)
    assert reached == set(range(ISLAND.num_sites))


def test_three_rivers_run_across_the_large_island_to_the_sea():
    assert len(ISLAND.rivers) == 3
    seen = set()
    for river in ISLAND.rivers:
        kinds = [ISLAND.sites[s].kind for s in river.sites]
        assert kinds[-1] == "coast" and "coast" not in kinds[:-1]
        assert {ISLAND.sites[s].island for s in river.sites} == {"large"}
        assert not seen & set(river.sites)
        seen |= set(river.sites)
        for a, b in zip(river.sites, river.sites[1:]):   # neighbours on the drawing
            sa, sb = ISLAND.sites[a], ISLAND.sites[b]
            assert (abs(sa.x - sb.x), abs(sa.y - sb.y)) in {(2, 0), (1, 1)}


def test_tile_kinds_match_site_kinds():
    tiles = Counter(t.kind for t in ISLAND.tiles)
    sites = Counter(s.kind for s in ISLAND.sites)
    assert set(tiles) == set(sites)
    assert all(tiles[k] >= sites[k] for k in sites)
    assert all(t.building != "lighthouse" or t.kind == "coast" for t in ISLAND.tiles)
    # every resource and the fish bonus appear; enough bird tiles to draw from
    assert {t.resource for t in ISLAND.tiles} >= {"fish", "sheep", "wood", "sugar", "gold"}
    assert any(t.fish_bonus for t in ISLAND.tiles)
    assert sum(t.bird for t in ISLAND.tiles) >= 8


def test_scoring_cards_as_the_spec_fixes_them():
    cards = {c.name: c for c in ISLAND.scoring_cards}
    for name in ("4 houses", "Variety", "Street"):
        assert cards[name].points == 6
    assert cards["4 houses"].need == 4 and cards["Street"].need == 4
    for where in ("coast", "river", "volcano"):
        assert any(c.kind == "per_building" and c.where == where and c.points == 3
                   for c in ISLAND.scoring_cards)
    assert cards["Birds"].points == 2 and cards["Volcano eruption"].points == 2
    singles = {c.resources[0] for c in ISLAND.scoring_cards if c.kind == "resource" and len(c.resources) == 1}
    pairs = {frozenset(c.resources) for c in ISLAND.scoring_cards if len(c.resources) == 2}
    assert singles == {"fish", "sheep", "wood", "sugar", "gold"}
    assert pairs == {frozenset({"sheep", "fish"}), frozenset({"sugar", "wood"}), frozenset({"gold", "sheep"})}
    assert all(c.points == 7 and c.one == 3 for c in ISLAND.scoring_cards if len(c.resources) == 2)


def test_the_drawing_shows_every_site_once():
    text = draw_island(ISLAND)
    for i, s in enumerate(ISLAND.sites):
        assert text.count(f"{s.kind[0]}{i:02d}") == 1
    assert "~" in text


def broken(change):
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


BAD = {
    "unknown key": (lambda r: r.update(extra=1), "unknown key 'extra'"),
    "site kind": (lambda r: r["sites"][3].update(kind="swamp"), "sites[3].kind"),
    "road to nowhere": (lambda r: r["roads"].append([0, 99]), "roads["),
    "road twice": (lambda r: r["roads"].append(list(reversed(r["roads"][0]))), "joined twice"),
    "too few tiles": (lambda r: r.update(tiles=[t for t in r["tiles"] if t["kind"] != "volcano"][:-1]
                                         + [t for t in r["tiles"] if t["kind"] == "volcano"][:5]),
                      "too few for the 6 volcano sites"),
    "lighthouse inland": (lambda r: next(t for t in r["tiles"] if t["kind"] == "land").update(building="lighthouse"),
                          "lighthouse"),
    "bonus without fish": (lambda r: next(t for t in r["tiles"] if t.get("resource") == "sheep").update(fish_bonus=1),
                           "fish bonus"),
    "uneven sets": (lambda r: r["building_sets"][2]["cards"].update(ship=5), "same number of cards"),
    "pair without one": (lambda r: r["scoring_cards"][13].pop("one"), "'one'"),
    "not an object": (lambda r: r.clear() or r.update(schema=1), "missing"),
    "points not int": (lambda r: r["tiles"][0].update(points="3"), "should be an integer"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_files_fail_with_one_line(name, tmp_path):
    change, words = BAD[name]
    path = tmp_path / "island.json"
    path.write_text(json.dumps(broken(change)))
    with pytest.raises(SolversError) as err:
        load_island(path)
    message = str(err.value)
    assert "\n" not in message and str(path) in message and words in message


def test_unreadable_and_invalid_json(tmp_path):
    with pytest.raises(SolversError, match="cannot read island file"):
        load_island(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(SolversError, match="not valid JSON"):
        load_island(bad)


def test_the_shipped_file_round_trips_through_the_checker():
    assert parse_island(copy.deepcopy(RAW)) == ISLAND


def test_the_docs_picture_is_the_shipped_island():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "rules" / "santa-cruz.md").read_text("utf-8")
    picture = doc.split("The drawing (site kind letter and id")[1].split("```")[1].strip("\n")
    assert picture == draw_island(ISLAND)
