"""Coast to Coast game data: the locations, the lines between them and the
scoring tables, loaded from a JSON file and checked.

The default file ``solvers/data/coast_to_coast.json`` follows the project's
map decisions (``docs/rules/coast-to-coast.md#solid-lines``,
``docs/rules/coast-to-coast.md#dashed-lines``; every field is described in
``docs/rules/coast-to-coast.md#the-data-file-and-how-to-replace-it``); a
user with the real player sheet can transcribe it into the
same schema and load it with ``load_map(path)`` (``--map FILE`` on the
command line).

Location ids are assigned by highway (in the file's highway order) and then
by region, so the locations of one highway are consecutive bits of a 32-bit
word and "a continuous line along one highway" is a run of set bits
(``docs/rules/coast-to-coast.md#highway-runs``). That is
what lets the kernel score highways with shifts and masks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ...data import builtin_json, read_json, schema_problem
from ...errors import SolversError, UnknownNameError

MAX_LOCATIONS = 32
CODE_STOP_WORDS = {"the", "of", "and", "at"}
# Apostrophes and quotes a keyboard or a word processor may put in a name.
APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"})


def normalise_name(name: str) -> str:
    """A name as compared: lower case, single spaces, plain apostrophes.

    >>> normalise_name("  Pike’s   Peak ")
    "pike's peak"
    """
    return " ".join(name.translate(APOSTROPHES).lower().split())


@dataclass(frozen=True)
class Location:
    id: int
    name: str
    state: str
    highway: str
    region: int
    type: str

    def shares_characteristic(self, other: "Location") -> bool:
        """True when the two share a highway, a region or a type."""
        return (
            self.highway == other.highway
            or self.region == other.region
            or self.type == other.type
        )


@dataclass(frozen=True)
class CoastMap:
    """Everything about the player sheet that the rules need."""

    locations: tuple[Location, ...]
    highways: tuple[str, ...]
    types: tuple[str, ...]
    type_points: dict[str, int]
    type_labels: dict[str, str]
    highway_points: tuple[int, ...]
    region_points: int
    exact_match_points: int
    solid_lines: tuple[tuple[int, int], ...]
    dashed_lines: tuple[tuple[int, int], ...]
    source: str = "built-in"
    # Derived tables (bit masks over location ids).
    neighbours: tuple[int, ...] = field(default=(), repr=False)
    matches: tuple[int, ...] = field(default=(), repr=False)
    highway_masks: dict[str, int] = field(default_factory=dict, repr=False)
    region_masks: dict[int, int] = field(default_factory=dict, repr=False)
    type_masks: dict[str, int] = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return len(self.locations)

    @property
    def regions(self) -> tuple[int, ...]:
        return tuple(sorted(self.region_masks))

    def location(self, name: str) -> Location:
        """The location called ``name``, or a helpful error.

        Case, runs of spaces and typographic apostrophes are ignored, and the
        three-letter code of the drawn sheet's legend (:attr:`codes`) names a
        location too::

            >>> m = load_map()
            >>> m.location("pike’s  PEAK").name, m.location("spn").name
            ("Pike's Peak", 'Space Needle')
        """
        key = normalise_name(name)
        for loc in self.locations:
            if normalise_name(loc.name) == key:
                return loc
        by_code = {c.lower(): i for i, c in self.codes.items()}
        if key in by_code:
            return self.locations[by_code[key]]
        raise UnknownNameError("location", name, [l.name for l in self.locations])

    @cached_property
    def codes(self) -> dict[int, str]:
        """A unique three-letter code per location id, as the drawn sheet
        shows it: the initials of up to three words (small words like "of"
        left out), else the first letters; clashes take a later letter."""
        codes: dict[int, str] = {}
        used: set[str] = set()
        for loc in self.locations:
            words = [w for w in loc.name.replace("'", "").replace("-", " ").split()
                     if w.lower() not in CODE_STOP_WORDS] or loc.name.split()
            if len(words) >= 3:
                base = "".join(w[0] for w in words[:3])
            elif len(words) == 2:
                base = words[0][:2] + words[1][0]
            else:
                base = words[0][:3]
            base = base.upper().ljust(3, "X")
            code, k = base, 0
            letters = "".join(words).upper()
            while code in used:
                code = base[:2] + (letters[2 + k] if 2 + k < len(letters) else str(k))
                k += 1
            used.add(code)
            codes[loc.id] = code
        return codes

    def required_mask(self, challenge: int) -> int:
        """Locations a solo challenge card demands: its highway, region or type."""
        return self.matches[challenge]

    def names(self, mask: int) -> list[str]:
        return [loc.name for loc in self.locations if mask >> loc.id & 1]

    def highway_score(self, mask: int) -> int:
        """Points for the highway runs in ``mask`` (a set of circled ids)."""
        total = 0
        for hw in self.highways:
            run = 0
            for loc in self.locations:
                if loc.highway != hw:
                    continue
                if mask >> loc.id & 1:
                    run += 1
                else:
                    total += self.highway_points[run]
                    run = 0
            total += self.highway_points[run]
        return total

    def to_json(self) -> dict[str, Any]:
        name = {l.id: l.name for l in self.locations}
        return {
            "schema": 1,
            "highways": list(self.highways),
            "highway_points": list(self.highway_points),
            "region_points": self.region_points,
            "exact_match_points": self.exact_match_points,
            "types": [
                {"name": t, "label": self.type_labels[t], "points": self.type_points[t]}
                for t in self.types
            ],
            "locations": [
                {"name": l.name, "state": l.state, "highway": l.highway,
                 "region": l.region, "type": l.type}
                for l in self.locations
            ],
            "solid_lines": [[name[a], name[b]] for a, b in self.solid_lines],
            "dashed_lines": [[name[a], name[b]] for a, b in self.dashed_lines],
        }


def _fail(source: str, what: str) -> SolversError:
    return SolversError(f"map file {source}: {what}")


def _require(obj: Any, key: str, kind: type, source: str, where: str = "") -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _fail(source, f"missing key {key!r}{where}")
    value = obj[key]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise _fail(source, f"{key!r}{where} should be {kind.__name__}, not {type(value).__name__}")
    return value


def _circle_that_costs_points(points: list[int]) -> str:
    """Why a circle could lower a sheet's highway points with this table
    (empty when none can). A circle that joins a run of ``a`` to a run of
    ``b`` (either may be 0: extending a run, or a run of one) must score at
    least what the two scored apart. The rules make circling compulsory
    and the exact searches rely on a circle never costing points
    (docs/rules/coast-to-coast.md#circling-is-compulsory); the printed
    table (1, 3, 6, 10, ...) passes.

    >>> _circle_that_costs_points([0, 1, 3, 6])
    ''
    >>> _circle_that_costs_points([0, 6, 8, 9])
    'a run of 3 scores 9, less than runs of 1 and 1 apart (12)'
    >>> _circle_that_costs_points([0, 4, 3])
    'a run of 2 scores 3, less than a run of 1 (4)'
    """
    for n in range(2, len(points)):
        for a in range((n - 1) // 2, -1, -1):   # a <= b, the most even split first
            b = n - 1 - a
            if points[n] < points[a] + points[b]:
                parts = f"runs of {a} and {b} apart" if a else f"a run of {b}"
                return (f"a run of {n} scores {points[n]}, less than {parts} "
                        f"({points[a] + points[b]})")
    return ""


def _not_negative(source: str, what: str, points: int) -> None:
    """A bonus a circle can complete may not be negative (a circle never costs points)."""
    if points < 0:
        raise _fail(source, f"{what} should be 0 or more (a circle never costs points), "
                            f"not {points}")


def parse_map(raw: Any, source: str = "built-in") -> CoastMap:
    """Check a decoded map file and build the :class:`CoastMap` from it."""
    if not isinstance(raw, dict):
        raise _fail(source, "the top level should be a JSON object")
    problem = schema_problem(raw, required=False)
    if problem:
        raise _fail(source, problem)
    highways = _require(raw, "highways", list, source)
    if not highways or not all(isinstance(h, str) and h for h in highways):
        raise _fail(source, "'highways' should be a non-empty list of names")
    if len(set(highways)) != len(highways):
        raise _fail(source, "a highway is listed twice")
    hp = _require(raw, "highway_points", list, source)
    if not hp or hp[0] != 0 or not all(isinstance(p, int) and p >= 0 for p in hp):
        raise _fail(source, "'highway_points' should be [0, points for 1, points for 2, ...]")
    costly = _circle_that_costs_points(hp)
    if costly:
        raise _fail(source, f"'highway_points' should never let a circle cost points: {costly}")
    region_points = _require(raw, "region_points", int, source)
    exact_points = _require(raw, "exact_match_points", int, source)
    _not_negative(source, "'region_points'", region_points)
    _not_negative(source, "'exact_match_points'", exact_points)
    types_raw = _require(raw, "types", list, source)
    types: list[str] = []
    type_points: dict[str, int] = {}
    labels: dict[str, str] = {}
    for i, t in enumerate(types_raw):
        where = f" in types[{i}]"
        tname = _require(t, "name", str, source, where)
        if tname in type_points:
            raise _fail(source, f"type {tname!r} is listed twice")
        types.append(tname)
        type_points[tname] = _require(t, "points", int, source, where)
        _not_negative(source, f"'points'{where}", type_points[tname])
        labels[tname] = t.get("label", tname) if isinstance(t.get("label", tname), str) else tname
    locs_raw = _require(raw, "locations", list, source)
    if not 2 <= len(locs_raw) <= MAX_LOCATIONS:
        raise _fail(source, f"there should be 2 to {MAX_LOCATIONS} locations, not {len(locs_raw)}")
    parsed = []
    seen: set[str] = set()
    for i, l in enumerate(locs_raw):
        where = f" in locations[{i}]"
        name = _require(l, "name", str, source, where).strip()
        if not name or name.lower() in seen:
            raise _fail(source, f"location name {name!r} is empty or listed twice")
        seen.add(name.lower())
        hw = _require(l, "highway", str, source, where)
        if hw not in highways:
            raise _fail(source, f"location {name!r} is on unknown highway {hw!r}")
        region = _require(l, "region", int, source, where)
        typ = _require(l, "type", str, source, where)
        if typ not in type_points:
            raise _fail(source, f"location {name!r} has unknown type {typ!r}")
        parsed.append((highways.index(hw), region, i, name, l.get("state", ""), hw, typ))
    # Ids by highway, then by region along it (the file's order breaks ties).
    parsed.sort()
    for hw in highways:
        regions = [p[1] for p in parsed if p[5] == hw]
        if len(set(regions)) != len(regions):
            raise _fail(source, f"two locations of {hw} share a region, so their order is unclear")
        if len(regions) >= len(hp):
            raise _fail(source, f"'highway_points' has no entry for a run of {len(regions)} on {hw}")
    locations = tuple(
        Location(i, p[3], str(p[4]), p[5], p[1], p[6]) for i, p in enumerate(parsed)
    )
    by_name = {l.name.lower(): l.id for l in locations}

    def lines(key: str) -> tuple[tuple[int, int], ...]:
        out = []
        for j, pair in enumerate(_require(raw, key, list, source)):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
                raise _fail(source, f"{key}[{j}] should be a pair of location names")
            ids = []
            for x in pair:
                if x.lower() not in by_name:
                    raise _fail(source, f"{key}[{j}] names unknown location {x!r}")
                ids.append(by_name[x.lower()])
            a, b = ids
            if a == b:
                raise _fail(source, f"{key}[{j}] joins {pair[0]!r} to itself")
            out.append((min(a, b), max(a, b)))
        return tuple(out)

    solid = lines("solid_lines")
    dashed = lines("dashed_lines")
    if len(set(solid + dashed)) != len(solid) + len(dashed):
        raise _fail(source, "a line is listed twice")
    n = len(locations)
    neighbours = [0] * n
    for a, b in solid + dashed:
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
    # One connected map, or some locations could never be reached.
    reach, frontier = 1, 1
    while frontier:
        new = 0
        for i in range(n):
            if frontier >> i & 1:
                new |= neighbours[i]
        frontier = new & ~reach
        reach |= new
    if reach != (1 << n) - 1:
        cut = [l.name for l in locations if not reach >> l.id & 1]
        raise _fail(source, f"the map is not connected: {', '.join(cut[:3])} cannot be reached")
    hw_masks = {h: sum(1 << l.id for l in locations if l.highway == h) for h in highways}
    reg_masks: dict[int, int] = {}
    for l in locations:
        reg_masks[l.region] = reg_masks.get(l.region, 0) | 1 << l.id
    type_masks = {t: sum(1 << l.id for l in locations if l.type == t) for t in types}
    matches = tuple(
        hw_masks[l.highway] | reg_masks[l.region] | type_masks[l.type] for l in locations
    )
    return CoastMap(
        locations=locations,
        highways=tuple(highways),
        types=tuple(types),
        type_points=type_points,
        type_labels=labels,
        highway_points=tuple(hp),
        region_points=region_points,
        exact_match_points=exact_points,
        solid_lines=solid,
        dashed_lines=dashed,
        source=source,
        neighbours=tuple(neighbours),
        matches=matches,
        highway_masks=hw_masks,
        region_masks=reg_masks,
        type_masks=type_masks,
    )


_DEFAULT: CoastMap | None = None


def load_map(path: str | Path | None = None) -> CoastMap:
    """Load and check a map file; ``None`` gives the built-in sheet."""
    global _DEFAULT
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = parse_map(builtin_json("coast_to_coast.json"))
        return _DEFAULT
    return parse_map(read_json(path, "map file"), str(path))
