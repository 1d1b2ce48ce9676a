"""Big Sur card data: the shipped file meets every constraint of the
reconstructed set (docs/rules/big-sur.md), and bad files give one line."""

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from solvers.data import builtin_json
from solvers.errors import SolversError
from solvers.games.bigsur.data import (
    ABILITY_KINDS, BONUS_KINDS, MATERIALS, SCENERY, load_cards, parse_cards,
)

CARDS = load_cards()
RAW = builtin_json("big_sur.json")
ROOT = Path(__file__).resolve().parent.parent


def subset(players):
    return [c for c in CARDS.highway if players in c.players]


def test_counts_and_player_split():
    assert len(CARDS.highway) == 69
    assert len(CARDS.landmarks) == 20
    split = Counter(c.players for c in CARDS.highway)
    assert split == {(2, 3, 4): 37, (3, 4): 16, (4,): 16}
    assert [len(subset(p)) for p in (2, 3, 4)] == [37, 53, 69]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_count_gets_seven_turns(players):
    # Independent arithmetic: 2 cards dealt to each player, 5 to the Depot,
    # then 2 cards leave the deck per turn.
    left = len(subset(players)) - 2 * players - 5
    assert left == 2 * 7 * players
    assert CARDS.turns_each(players) == 7


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scenery_and_materials_balanced_in_every_subset(players):
    cards = subset(players)
    icons = Counter(s for c in cards for s in c.scenery)
    backs = Counter(c.material for c in cards)
    assert set(icons) == set(SCENERY) and set(backs) == set(MATERIALS)
    assert max(icons.values()) - min(icons.values()) <= 2, icons
    assert max(backs.values()) - min(backs.values()) <= 1, backs


def test_cards_show_two_icons_and_some_doubles():
    assert all(len(c.scenery) == 2 for c in CARDS.highway)
    doubles = [c for c in CARDS.highway if c.scenery[0] == c.scenery[1]]
    assert 0 < len(doubles) < len(CARDS.highway) // 3
    assert {c.scenery[0] for c in doubles} == set(SCENERY)


def test_costs_rise_with_miles():
    by_miles = {m: {len(c.cost) for c in CARDS.highway if c.miles == m} for m in (1, 2, 3, 4)}
    assert all(by_miles[m] for m in by_miles), "every Mile tag 1-4 is used"
    assert all(2 <= len(c.cost) <= 3 for c in CARDS.highway)
    for m in (1, 2, 3):
        assert max(by_miles[m]) <= min(by_miles[m + 1])
    assert by_miles[4] == {3}


def test_persistent_materials_and_bonuses_where_the_rulebook_puts_them():
    for c in CARDS.highway:
        assert (c.persistent is not None) == (c.miles == 1), c
        assert (c.bonus is not None) == (c.miles == 2), c


def test_bonus_vocabulary():
    assert len(BONUS_KINDS) >= 8
    used = {c.bonus.kind for c in CARDS.highway if c.bonus}
    assert len(used) >= 8
    texts = {c.bonus.text for c in CARDS.highway if c.bonus}
    assert "Score 1 point for each type of Scenery in your Highway." in texts


def test_landmarks():
    assert len({l.name for l in CARDS.landmarks}) == 20
    for name in ("Bixby Creek Bridge", "McWay Falls", "Point Sur Lighthouse", "Hearst Castle"):
        assert CARDS.landmark(name).name == name
    assert all(1 <= len(l.scenery) <= 2 for l in CARDS.landmarks)
    shown = Counter(s for l in CARDS.landmarks for s in l.scenery)
    assert set(shown) == set(SCENERY) and max(shown.values()) - min(shown.values()) <= 1
    kinds = {l.ability.kind for l in CARDS.landmarks}
    assert kinds == set(ABILITY_KINDS) == {"points", "mile_tag", "material"}
    assert any(l.ability.text == "Score 4 points." for l in CARDS.landmarks)


def test_every_text_is_generated_from_its_parameters():
    # Rebuild every text from the parameters with plain string formatting.
    for raw in RAW["highway"]:
        if "bonus" in raw:
            b = raw["bonus"]
            assert b["text"].startswith(f"Score {b['points']} point")
            for key in ("scenery", "material"):
                if key in b:
                    assert b[key].capitalize() in b["text"]
    for raw in RAW["landmarks"]:
        a = raw["ability"]
        if a["kind"] == "points":
            assert a["text"] == f"Score {a['points']} points."
        elif a["kind"] == "material":
            assert a["material"].capitalize() in a["text"]
        else:
            assert f"counts {a['miles']} more" in a["text"]


def test_generator_reproduces_the_shipped_file():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "make_big_sur_cards.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def broken(edit):
    raw = copy.deepcopy(RAW)
    edit(raw)
    return raw


@pytest.mark.parametrize("edit, words", [
    (lambda r: r["highway"][0].update(scenery=["ocean", "desert"]), "not a Scenery"),
    (lambda r: r["highway"][0]["bonus"].update(text="Score 9 points."), "does not match"),
    (lambda r: r["highway"][0].update(miles=7), "between 1 and 4"),
    (lambda r: r["highway"].pop(), "same number of turns"),
    (lambda r: r["landmarks"][1].update(name=r["landmarks"][0]["name"]), "used twice"),
    (lambda r: r["landmarks"][0]["ability"].update(kind="fly"), "unknown kind"),
    (lambda r: r.update(colour="red"), "unknown key"),
    (lambda r: r["highway"][3].pop("material"), "not a Material"),
])
def test_bad_card_files_give_one_line(edit, words):
    with pytest.raises(SolversError) as e:
        parse_cards(broken(edit), "test.json")
    assert words in str(e.value) and "\n" not in str(e.value)


def test_load_a_users_file(tmp_path):
    path = tmp_path / "cards.json"
    raw = broken(lambda r: r["landmarks"][0].update(name="Bixby Bridge"))
    path.write_text(json.dumps(raw))
    assert load_cards(path).landmark(1).name == "Bixby Bridge"
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(SolversError, match="not valid JSON"):
        load_cards(tmp_path / "bad.json")
    with pytest.raises(SolversError, match="cannot read"):
        load_cards(tmp_path / "missing.json")
