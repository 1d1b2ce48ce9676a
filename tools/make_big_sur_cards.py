"""Write the reconstructed Big Sur card set, ``src/solvers/data/big_sur.json``.

The rulebook does not print the cards, so the library ships a set built here
to honour everything that is known of the real ones (docs/rules/big-sur.md):
69 Highway cards split 37/16/16 by player count, Scenery and Materials
balanced in every player-count subset, costs rising with miles, a Persistent
Material on every 1-mile card, a 2-Mile Bonus on every 2-mile card, and 20
Landmarks named after stops on California Route 1.

The set is deterministic: a seeded search picks Scenery pairs until every
subset is balanced. Run from the repository root::

    python tools/make_big_sur_cards.py            # rewrites the data file
    python tools/make_big_sur_cards.py --check    # exit 1 if the file differs
"""

from __future__ import annotations

import json
import sys
from itertools import combinations
from pathlib import Path

from solvers.games.bigsur.data import (
    ABILITY_KINDS, BONUS_KINDS, MATERIALS, SCENERY, ability_text, bonus_text, parse_cards,
)
from solvers.rng import SplitMix64

OUT = Path(__file__).resolve().parent.parent / "src" / "solvers" / "data" / "big_sur.json"

# (player counts, cards, miles 1/2/3/4 in that group)
GROUPS = (((2, 3, 4), 37, (11, 11, 9, 6)), ((3, 4), 16, (5, 5, 4, 2)), ((4,), 16, (5, 5, 4, 2)))
COST_SIZE = {1: 2, 2: 2, 3: 3, 4: 3}
DOUBLES_PER_GROUP = {37: 5, 16: 3}

# The 2-Mile Bonuses, group by group (kind, params).
BONUSES = (
    [("scenery_types", {"points": 1}), ("scenery_icons", {"scenery": "ocean", "points": 1}),
     ("scenery_icons", {"scenery": "forest", "points": 1}), ("stretches", {"points": 2}),
     ("landmarks", {"points": 2}), ("one_mile_cards", {"points": 1}),
     ("material_cards", {"material": "stone", "points": 1}), ("double_icons", {"points": 2}),
     ("long_stretch", {"miles": 8, "points": 3}), ("scenery_stretch", {"scenery": "mountain", "points": 3}),
     ("cards", {"per": 3, "points": 1})],
    [("scenery_types", {"points": 1}), ("scenery_icons", {"scenery": "mountain", "points": 1}),
     ("scenery_icons", {"scenery": "flower", "points": 1}),
     ("material_cards", {"material": "water", "points": 1}),
     ("scenery_stretch", {"scenery": "field", "points": 3})],
    [("scenery_icons", {"scenery": "field", "points": 1}),
     ("material_cards", {"material": "timber", "points": 1}),
     ("long_stretch", {"miles": 10, "points": 4}), ("scenery_stretch", {"scenery": "ocean", "points": 3}),
     ("material_cards", {"material": "steel", "points": 1})],
)

LANDMARKS = (
    ("Bixby Creek Bridge", ("ocean", "mountain"), ("points", {"points": 4})),
    ("McWay Falls", ("ocean", "forest"), ("mile_tag", {"miles": 1})),
    ("Point Sur Lighthouse", ("ocean",), ("points", {"points": 3})),
    ("Pfeiffer Beach", ("ocean", "flower"), ("material", {"material": "water"})),
    ("Nepenthe", ("mountain", "flower"), ("points", {"points": 4})),
    ("Piedras Blancas Light Station", ("ocean", "field"), ("mile_tag", {"miles": 1})),
    ("Hearst Castle", ("flower", "field"), ("points", {"points": 5})),
    ("Point Lobos", ("forest",), ("material", {"material": "stone"})),
    ("Carmel Mission", ("field",), ("material", {"material": "timber"})),
    ("Garrapata State Park", ("flower",), ("points", {"points": 3})),
    ("Rocky Creek Bridge", ("mountain",), ("material", {"material": "engineering"})),
    ("Andrew Molera State Park", ("forest", "field"), ("points", {"points": 3})),
    ("Pfeiffer Big Sur State Park", ("forest", "mountain"), ("mile_tag", {"miles": 2})),
    ("Partington Cove", ("forest", "flower"), ("material", {"material": "steel"})),
    ("Limekiln State Park", ("forest",), ("mile_tag", {"miles": 1})),
    ("Ragged Point", ("mountain", "field"), ("points", {"points": 4})),
    ("Sand Dollar Beach", ("ocean",), ("mile_tag", {"miles": 2})),
    ("Elephant Seal Vista Point", ("field",), ("points", {"points": 5})),
    ("Kirk Creek", ("flower",), ("mile_tag", {"miles": 1})),
    ("Big Creek Bridge", ("mountain",), ("points", {"points": 5})),
)


def balanced(counts: dict[str, int], slack: int) -> bool:
    return max(counts.values()) - min(counts.values()) <= slack


def scenery_for(rng: SplitMix64, sizes: list[int]) -> list[list[tuple[str, str]]]:
    """Scenery pairs for each group, balanced (icons within 2) in every
    cumulative subset, with a fixed number of double icons per group."""
    pairs = list(combinations(SCENERY, 2))
    while True:
        groups, counts, ok = [], {s: 0 for s in SCENERY}, True
        for size in sizes:
            doubles = DOUBLES_PER_GROUP[size]
            combo = [(s, s) for s in SCENERY]
            rng.shuffle(combo)
            picks = combo[:doubles]
            while len(picks) < size:
                picks.append(pairs[rng.below(len(pairs))])
            rng.shuffle(picks)
            for a, b in picks:
                counts[a] += 1
                counts[b] += 1
            groups.append(picks)
            ok = ok and balanced(counts, 2)
        if ok:
            return groups


def build() -> dict:
    rng = SplitMix64(2026)
    groups = scenery_for(rng, [size for _, size, _ in GROUPS])
    cards, number, persistent_i, cost_i = [], 1, 0, 0
    for (players, size, miles_split), picks, bonuses in zip(GROUPS, groups, BONUSES):
        miles = [m for m, n in enumerate(miles_split, start=1) for _ in range(n)]
        rng.shuffle(miles)
        bonus_iter = iter(bonuses)
        for k in range(size):
            m = miles[k]
            card = {
                "number": number, "scenery": list(picks[k]), "miles": m,
                "material": MATERIALS[(number - 1) % len(MATERIALS)],
                "players": list(players),
            }
            cost = []
            for _ in range(COST_SIZE[m]):
                cost.append(MATERIALS[(cost_i * 2 + rng.below(2)) % len(MATERIALS)])
                cost_i += 1
            card["cost"] = sorted(cost)
            if m == 1:
                card["persistent"] = MATERIALS[persistent_i % len(MATERIALS)]
                persistent_i += 1
            if m == 2:
                kind, params = next(bonus_iter)
                assert kind in BONUS_KINDS
                card["bonus"] = {"kind": kind, **params, "text": bonus_text(kind, params)}
            cards.append(card)
            number += 1
    landmarks = []
    for i, (name, scenery, (kind, params)) in enumerate(LANDMARKS, start=1):
        assert kind in ABILITY_KINDS
        landmarks.append({"number": i, "name": name, "scenery": list(scenery),
                          "ability": {"kind": kind, **params, "text": ability_text(kind, params)}})
    return {
        "about": ("Big Sur cards: a reconstructed set (the rulebook does not print the cards), "
                  "written by tools/make_big_sur_cards.py. Each Highway card: its number, two "
                  "Scenery icons (the same type twice is a double icon), its Mile tag, its "
                  "cost in Materials, the Material on its back, the player counts it is used "
                  "with, a Persistent Material (1-mile cards) or a 2-Mile Bonus (2-mile "
                  "cards). Each Landmark: a stop on California Route 1, the Scenery a "
                  "qualifying Stretch must show, and its ability. Every 'text' is generated "
                  "from the parameters beside it and checked at load. See docs/rules/big-sur.md."),
        "schema": 1,
        "highway": cards,
        "landmarks": landmarks,
    }


def dump(data: dict) -> str:
    lines = ["{", f' "about": {json.dumps(data["about"])},', ' "schema": 1,', ' "highway": [']
    lines += ["  " + json.dumps(c) + ("," if i < len(data["highway"]) - 1 else "")
              for i, c in enumerate(data["highway"])]
    lines += [" ],", ' "landmarks": [']
    lines += ["  " + json.dumps(l) + ("," if i < len(data["landmarks"]) - 1 else "")
              for i, l in enumerate(data["landmarks"])]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    data = build()
    parse_cards(data, "generated")
    text = dump(data)
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text("utf-8") == text
        print("up to date" if same else f"{OUT} differs from the generator")
        return 0 if same else 1
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
