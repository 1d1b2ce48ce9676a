"""Santa Cruz game data: the island, its tiles, bird tokens and cards,
loaded from a JSON file and checked.

The default file ``solvers/data/santa_cruz.json`` holds the reconstructed
island described in ``docs/rules/santa-cruz.md``: 49 building sites (coast,
land, volcano) on a large island around a volcano and two small islands, the
roads, three rivers, 54 tiles, 22 bird tokens, four building-card sets of
seven and the 16 scoring cards. A transcription of the real board in the same
schema loads with ``load_island(path)`` (and ``--board FILE`` on the command
line). A site's id is its position in the file; at most 64 sites, so that one
64-bit word holds a set of sites.

>>> island = load_island()
>>> island.num_sites, len(island.tiles), len(island.rivers)
(49, 54, 3)
>>> island.sites[0].kind, sorted(island.road_neighbours(6))
('coast', [0, 1, 5, 7, 15])
>>> island.scoring_cards[13].name, island.building_sets[0].hand()
('Sheep + fish', ['ship', 'road', 'road', 'river', 'river', 'river', 'double'])
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...data import builtin_json, read_json, schema_problem
from ...errors import SolversError

MAX_SITES = 64
PLAYER_COUNTS = (2, 3, 4)
SITE_KINDS = ("coast", "land", "volcano")
BUILDINGS = ("house", "church", "lighthouse")
RESOURCES = ("fish", "sheep", "wood", "sugar", "gold")
CARD_KINDS = ("ship", "road", "river", "double")
SCORING_KINDS = ("houses", "variety", "street", "per_building", "birds", "eruption", "resource")
PLACES = ("coast", "river", "volcano")


@dataclass(frozen=True)
class Site:
    """A building site: where it is drawn, its kind and its island."""

    x: int
    y: int
    kind: str
    island: str


@dataclass(frozen=True)
class River:
    name: str
    sites: tuple[int, ...]  # source to mouth


@dataclass(frozen=True)
class Tile:
    """A site tile: the building it asks for, its points at once, a resource
    or animal (or None), the fish bonus "+" and whether it shows a bird."""

    kind: str
    building: str
    points: int
    resource: str | None = None
    fish_bonus: int = 0
    bird: bool = False

    def describe(self) -> str:
        """``church 3 sheep bird``, say."""
        words = [self.building, str(self.points)]
        if self.resource:
            words.append(self.resource + (f"+{self.fish_bonus}" if self.fish_bonus else ""))
        if self.bird:
            words.append("bird")
        return " ".join(words)


@dataclass(frozen=True)
class BuildingSet:
    letter: str
    name: str
    cards: dict[str, int]

    def hand(self) -> list[str]:
        """The set's cards by kind, in the order of ``CARD_KINDS``."""
        return [k for k in CARD_KINDS for _ in range(self.cards.get(k, 0))]


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card. ``kind`` says what it counts (see docs/rules/santa-cruz.md):

    * ``houses``: ``points`` once for at least ``need`` houses;
    * ``variety``: ``points`` once for a house, a church and a lighthouse;
    * ``street``: ``points`` once for ``need`` buildings joined by roads;
    * ``per_building``: ``points`` per building on a ``where`` site;
    * ``birds``: ``points`` per bird token held;
    * ``eruption``: minus ``points`` per building on a volcano site, which
      are then destroyed;
    * ``resource``: ``points`` for every one of ``resources`` held, ``one``
      for some but not all (a single resource pays ``points``); cards with
      fish add the fish bonuses.
    """

    name: str
    kind: str
    points: int
    need: int = 0
    where: str = ""
    resources: tuple[str, ...] = ()
    one: int = 0


@dataclass(frozen=True)
class SantaCruzIsland:
    """The board, the tiles, the tokens, the supply and the cards."""

    sites: tuple[Site, ...]
    roads: tuple[tuple[int, int], ...]
    rivers: tuple[River, ...]
    tiles: tuple[Tile, ...]
    bird_tokens: dict[int, int]          # value -> how many
    supply: dict[str, int]               # building -> how many each player has
    scoring_dealt: dict[int, int]        # players -> scoring cards dealt to each
    building_sets: tuple[BuildingSet, ...]
    scoring_cards: tuple[ScoringCard, ...]
    source: str = "built-in"
    road_masks: tuple[int, ...] = field(default=(), repr=False)    # site -> sites joined by road
    river_masks: tuple[int, ...] = field(default=(), repr=False)   # site -> neighbours along a river
    river_sites: tuple[int, ...] = field(default=(), repr=False)   # river -> its sites as a mask

    @property
    def num_sites(self) -> int:
        return len(self.sites)

    def mask_of(self, kind: str) -> int:
        """The sites of one kind (``coast``, ``land``, ``volcano``) or
        ``river`` (on any river) as a bit mask."""
        if kind == "river":
            mask = 0
            for m in self.river_sites:
                mask |= m
            return mask
        return sum(1 << i for i, s in enumerate(self.sites) if s.kind == kind)

    def road_neighbours(self, site: int) -> list[int]:
        return _bits(self.road_masks[site])

    def river_neighbours(self, site: int) -> list[int]:
        return _bits(self.river_masks[site])

    def rivers_of(self, site: int) -> list[int]:
        """The rivers (by index) that run past ``site``."""
        return [r for r, m in enumerate(self.river_sites) if m >> site & 1]

    def tiles_of(self, kind: str) -> list[int]:
        """The tile ids of one kind, ascending."""
        return [t for t, tile in enumerate(self.tiles) if tile.kind == kind]

    def sites_of(self, kind: str) -> list[int]:
        return [i for i, s in enumerate(self.sites) if s.kind == kind]

    def hand_size(self, players: int) -> int:
        """Cards in each hand: a building set plus the scoring cards dealt."""
        return len(self.building_sets[0].hand()) + self.scoring_dealt[players]


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


class _Checker:
    """Reads one island file, failing with one line that names the file."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, what: str) -> SolversError:
        return SolversError(f"island file {self.source}: {what}")

    def obj(self, value: Any, where: str, required: set[str],
            optional: set[str] | frozenset[str] = frozenset()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(f"{where} should be a JSON object")
        missing = sorted(required - set(value))
        if missing:
            raise self.fail(f"{where} is missing {missing[0]!r}")
        extra = sorted(set(value) - required - set(optional))
        if extra:
            raise self.fail(f"{where} has an unknown key {extra[0]!r}")
        return value

    def int(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{where} should be an integer, not {type(value).__name__}")
        if not low <= value <= high:
            raise self.fail(f"{where} should be between {low} and {high}, not {value}")
        return value

    def choice(self, value: Any, where: str, options: tuple[str, ...]) -> str:
        if value not in options:
            raise self.fail(f"{where} should be one of {', '.join(options)}, not {value!r}")
        return value

    def list(self, value: Any, where: str, low: builtins.int = 0, high: builtins.int = 10_000) -> builtins.list:
        if not isinstance(value, list):
            raise self.fail(f"{where} should be a list")
        if not low <= len(value) <= high:
            raise self.fail(f"{where} should hold {low} to {high} entries, not {len(value)}")
        return value

    def str(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} should be a non-empty string")
        return value

    def counts(self, value: Any, where: builtins.str, keys: tuple[builtins.str, ...],
               high: builtins.int) -> dict[builtins.str, builtins.int]:
        raw = self.obj(value, where, set(keys))
        return {k: self.int(raw[k], f"{where}[{k!r}]", 0, high) for k in keys}


def parse_island(raw: Any, source: str = "built-in") -> SantaCruzIsland:
    """Check a decoded island file and build the :class:`SantaCruzIsland`."""
    c = _Checker(source)
    top = c.obj(raw, "the top level", {"schema", "sites", "roads", "rivers", "tiles", "bird_tokens",
                                       "supply", "scoring_cards_dealt", "building_sets",
                                       "scoring_cards"}, {"about"})
    problem = schema_problem(top)
    if problem:
        raise c.fail(problem)
    sites = []
    for i, s in enumerate(c.list(top["sites"], "'sites'", 1, MAX_SITES)):
        w = f"sites[{i}]"
        s = c.obj(s, w, {"x", "y", "kind", "island"})
        sites.append(Site(c.int(s["x"], f"{w}.x", 0, 200), c.int(s["y"], f"{w}.y", 0, 100),
                          c.choice(s["kind"], f"{w}.kind", SITE_KINDS), c.str(s["island"], f"{w}.island")))
    if len({(s.x, s.y) for s in sites}) != len(sites):
        raise c.fail("two sites share the same x and y")
    n = len(sites)

    def site_id(value: Any, where: str) -> int:
        return c.int(value, where, 0, n - 1)

    road_masks = [0] * n
    roads = []
    for i, r in enumerate(c.list(top["roads"], "'roads'")):
        pair = c.list(r, f"roads[{i}]", 2, 2)
        a, b = site_id(pair[0], f"roads[{i}][0]"), site_id(pair[1], f"roads[{i}][1]")
        if a == b:
            raise c.fail(f"roads[{i}] joins site {a} to itself")
        if road_masks[a] >> b & 1:
            raise c.fail(f"roads[{i}]: sites {a} and {b} are joined twice")
        road_masks[a] |= 1 << b
        road_masks[b] |= 1 << a
        roads.append((min(a, b), max(a, b)))
    rivers = []
    river_masks = [0] * n
    river_sites = []
    for i, r in enumerate(c.list(top["rivers"], "'rivers'", 1, 8)):
        w = f"rivers[{i}]"
        r = c.obj(r, w, {"name", "sites"})
        ids = [site_id(v, f"{w}.sites[{k}]") for k, v in enumerate(c.list(r["sites"], f"{w}.sites", 2, n))]
        if len(set(ids)) != len(ids):
            raise c.fail(f"{w} passes a site twice")
        for a, b in zip(ids, ids[1:], strict=False):
            river_masks[a] |= 1 << b
            river_masks[b] |= 1 << a
        river_sites.append(sum(1 << s for s in ids))
        rivers.append(River(c.str(r["name"], f"{w}.name"), tuple(ids)))
    tiles = []
    for i, t in enumerate(c.list(top["tiles"], "'tiles'", 1, 255)):
        w = f"tiles[{i}]"
        t = c.obj(t, w, {"kind", "building", "points"}, {"resource", "fish_bonus", "bird"})
        kind = c.choice(t["kind"], f"{w}.kind", SITE_KINDS)
        building = c.choice(t["building"], f"{w}.building", BUILDINGS)
        if building == "lighthouse" and kind != "coast":
            raise c.fail(f"{w} puts a lighthouse on a {kind} tile (lighthouses stand on the coast)")
        resource = t.get("resource")
        if resource is not None:
            c.choice(resource, f"{w}.resource", RESOURCES)
        bonus = c.int(t.get("fish_bonus", 0), f"{w}.fish_bonus", 0, 9)
        if bonus and resource != "fish":
            raise c.fail(f"{w} has a fish bonus but shows no fish")
        bird = t.get("bird", False)
        if not isinstance(bird, bool):
            raise c.fail(f"{w}.bird should be true or false")
        tiles.append(Tile(kind, building, c.int(t["points"], f"{w}.points", 0, 20), resource, bonus, bird))
    for kind in SITE_KINDS:
        have = sum(1 for t in tiles if t.kind == kind)
        need = sum(1 for s in sites if s.kind == kind)
        if have < need:
            raise c.fail(f"{have} {kind} tiles are too few for the {need} {kind} sites")
    tokens = c.counts(top["bird_tokens"], "'bird_tokens'", ("1", "2", "3"), 99)
    supply = c.counts(top["supply"], "'supply'", BUILDINGS, 20)
    dealt = c.counts(top["scoring_cards_dealt"], "'scoring_cards_dealt'", ("2", "3", "4"), 16)
    sets = []
    for i, bs in enumerate(c.list(top["building_sets"], "'building_sets'", max(PLAYER_COUNTS), 8)):
        w = f"building_sets[{i}]"
        bs = c.obj(bs, w, {"letter", "name", "cards"})
        cards = c.obj(bs["cards"], f"{w}.cards", set(), set(CARD_KINDS))
        cards = {k: c.int(v, f"{w}.cards[{k!r}]", 0, 20) for k, v in cards.items()}
        sets.append(BuildingSet(c.str(bs["letter"], f"{w}.letter"), c.str(bs["name"], f"{w}.name"), cards))
    sizes = {len(s.hand()) for s in sets}
    if len(sizes) != 1 or 0 in sizes:
        raise c.fail("every building set should hold the same number of cards, at least one")
    scoring = []
    for i, s in enumerate(c.list(top["scoring_cards"], "'scoring_cards'", 1, 32)):
        w = f"scoring_cards[{i}]"
        s = c.obj(s, w, {"name", "kind", "points"}, {"need", "where", "resources", "one"})
        kind = c.choice(s["kind"], f"{w}.kind", SCORING_KINDS)
        card = ScoringCard(c.str(s["name"], f"{w}.name"), kind, c.int(s["points"], f"{w}.points", 0, 50))
        if kind in ("houses", "street"):
            card = ScoringCard(card.name, kind, card.points, need=c.int(s.get("need"), f"{w}.need", 1, 20))
        elif kind == "per_building":
            card = ScoringCard(card.name, kind, card.points, where=c.choice(s.get("where"), f"{w}.where", PLACES))
        elif kind == "resource":
            listed = c.list(s.get("resources"), f"{w}.resources", 1, 2)
            res = tuple(c.choice(r, f"{w}.resources", RESOURCES) for r in listed)
            if len(set(res)) != len(res):
                raise c.fail(f"{w} names a resource twice")
            one = c.int(s.get("one", 0), f"{w}.one", 0, 50) if len(res) == 2 else 0
            if len(res) == 2 and "one" not in s:
                raise c.fail(f"{w} pairs two resources but has no 'one' (points for one of them)")
            card = ScoringCard(card.name, kind, card.points, resources=res, one=one)
        scoring.append(card)
    scoring_dealt = {int(k): v for k, v in dealt.items()}
    for p, k in scoring_dealt.items():
        if p * k + p > len(scoring):
            raise c.fail(f"{len(scoring)} scoring cards are too few to deal {k} each to {p} players "
                         "and draw one each in round two")
    return SantaCruzIsland(
        sites=tuple(sites), roads=tuple(roads), rivers=tuple(rivers), tiles=tuple(tiles),
        bird_tokens={int(k): v for k, v in tokens.items()}, supply=supply,
        scoring_dealt=scoring_dealt, building_sets=tuple(sets), scoring_cards=tuple(scoring),
        source=source, road_masks=tuple(road_masks), river_masks=tuple(river_masks),
        river_sites=tuple(river_sites),
    )


_DEFAULT: SantaCruzIsland | None = None


def load_island(path: str | Path | None = None) -> SantaCruzIsland:
    """Load and check an island file; ``None`` gives the built-in island."""
    global _DEFAULT
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = parse_island(builtin_json("santa_cruz.json"))
        return _DEFAULT
    return parse_island(read_json(path, "island file"), str(path))


def draw_island(island: SantaCruzIsland, labels: dict[int, str] | None = None) -> str:
    """The island as text: each site as a three-character label (by default
    its kind letter and id, ``c07``), roads as ``-``, ``/`` and ``\\``, river
    reaches as ``~``.

    >>> print(draw_island(load_island()).splitlines()[0])
                                     c00   c01   c02   c03   c04
    """
    labels = labels or {}
    width = 3 * max(s.x for s in island.sites) + 4
    height = 2 * max(s.y for s in island.sites) + 1
    grid = [[" "] * width for _ in range(height)]

    def link(a: int, b: int, mark: str | None) -> None:
        sa, sb = island.sites[a], island.sites[b]
        if (sa.y, sa.x) > (sb.y, sb.x):
            sa, sb = sb, sa
        if sa.y == sb.y and sb.x - sa.x == 2:
            for col in (3 * sa.x + 3, 3 * sa.x + 4, 3 * sa.x + 5):
                grid[2 * sa.y][col] = mark or "-"
        elif sb.y == sa.y + 1 and abs(sb.x - sa.x) == 1:
            col = 3 * sa.x + (3 if sb.x > sa.x else 0)
            grid[2 * sa.y + 1][col] = mark or ("\\" if sb.x > sa.x else "/")
        # other links (not between drawing neighbours) are listed, not drawn

    for a, b in island.roads:
        link(a, b, None)
    for r in island.rivers:
        for a, b in zip(r.sites, r.sites[1:], strict=False):
            link(a, b, "~")
    for i, s in enumerate(island.sites):
        text = labels.get(i, f"{s.kind[0]}{i:02d}")[:3].ljust(3)
        for k, ch in enumerate(text):
            grid[2 * s.y][3 * s.x + k] = ch
    return "\n".join("".join(row).rstrip() for row in grid)
