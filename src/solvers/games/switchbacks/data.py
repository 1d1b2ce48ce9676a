"""Switchbacks game data: the hex map, the tiles and the setup per player
count, loaded from a JSON file and checked.

The default file ``solvers/data/switchbacks.json`` holds the radius-3 hexagon
of 37 hexes (``docs/rules/switchbacks.md#hex-map``; the fields are described
in ``docs/rules/switchbacks.md#the-data-file-and-how-to-replace-it``) and the
setup table of the rulebook. Hexes are given in axial
coordinates ``[q, r]``; a hex's id is its position in the file, and two hexes
are adjacent when their coordinates differ by one of the six axial
directions. Another map (up to 64 hexes and 64 tiles, so that one 64-bit word
holds a set of hexes or of tiles) can be loaded with ``load_map(path)``.

>>> m = load_map()
>>> m.num_hexes, m.tiles, m.centre, m.hexes[m.centre]
(37, 37, 18, (0, 0))
>>> m.setup(2)
PlayerCountSetup(set_aside=2, hikers=16)
>>> sorted(m.neighbour_ids(18))
[11, 12, 17, 19, 24, 25]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...data import builtin_json, read_json, schema_problem
from ...errors import SolversError

MAX_HEXES = 64
MAX_TILES = 64
MAX_HIKERS = 100
PLAYER_COUNTS = (2, 3, 4)
# The six axial directions: neighbours of (q, r) are (q + dq, r + dr).
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@dataclass(frozen=True)
class PlayerCountSetup:
    """What each player gets at setup for one player count."""

    set_aside: int
    hikers: int


@dataclass(frozen=True)
class SwitchbacksMap:
    """The map board, the tiles and the setup table."""

    hexes: tuple[tuple[int, int], ...]
    centre: int
    tiles: int
    hand_size: int
    min_run: int
    setups: dict[int, PlayerCountSetup]
    source: str = "built-in"
    neighbours: tuple[int, ...] = field(default=(), repr=False)  # bit masks over hex ids

    @property
    def num_hexes(self) -> int:
        return len(self.hexes)

    def neighbour_ids(self, hex_id: int) -> list[int]:
        """The hexes that share an edge with ``hex_id``."""
        mask = self.neighbours[hex_id]
        return [h for h in range(self.num_hexes) if mask >> h & 1]

    def adjacent(self, a: int, b: int) -> bool:
        return bool(self.neighbours[a] >> b & 1)

    def setup(self, players: int) -> PlayerCountSetup:
        """The setup for ``players`` seats, or a SolversError if there is none."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.setups:
            counts = ", ".join(str(p) for p in sorted(self.setups))
            raise SolversError(f"Switchbacks is for {counts} players, not {players!r}")
        return self.setups[players]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "tiles": self.tiles,
            "hand_size": self.hand_size,
            "min_run": self.min_run,
            "centre": list(self.hexes[self.centre]),
            "players": {
                str(p): {"set_aside": s.set_aside, "hikers": s.hikers}
                for p, s in sorted(self.setups.items())
            },
            "hexes": [list(h) for h in self.hexes],
        }


def _fail(source: str, what: str) -> SolversError:
    return SolversError(f"map file {source}: {what}")


def _int(raw: dict[str, Any], key: str, source: str, low: int, high: int, where: str = "") -> int:
    if key not in raw:
        raise _fail(source, f"missing key {key!r}{where}")
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(source, f"{key!r}{where} should be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise _fail(source, f"{key!r}{where} should be between {low} and {high}, not {value}")
    return value


def _coords(value: Any, source: str, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise _fail(source, f"{where} should be a pair of integers [q, r]")
    return value[0], value[1]


def parse_map(raw: Any, source: str = "built-in") -> SwitchbacksMap:
    """Check a decoded map file and build the :class:`SwitchbacksMap`."""
    if not isinstance(raw, dict):
        raise _fail(source, "the top level should be a JSON object")
    known = {"about", "schema", "tiles", "hand_size", "min_run", "centre", "players", "hexes"}
    extra = sorted(set(raw) - known)
    if extra:
        raise _fail(source, f"unknown key {extra[0]!r}")
    problem = schema_problem(raw, required=False)
    if problem:
        raise _fail(source, problem)
    tiles = _int(raw, "tiles", source, 4, MAX_TILES)
    hand_size = _int(raw, "hand_size", source, 1, 10)
    min_run = _int(raw, "min_run", source, 2, tiles)
    if not isinstance(raw.get("hexes"), list):
        raise _fail(source, "'hexes' should be a list of [q, r] pairs")
    hexes = [_coords(h, source, f"hexes[{i}]") for i, h in enumerate(raw["hexes"])]
    if not 1 <= len(hexes) <= MAX_HEXES:
        raise _fail(source, f"there should be 1 to {MAX_HEXES} hexes, not {len(hexes)}")
    if len(set(hexes)) != len(hexes):
        dup = next(h for h in hexes if hexes.count(h) > 1)
        raise _fail(source, f"hex {list(dup)} is listed twice")
    if "centre" not in raw:
        raise _fail(source, "missing key 'centre'")
    centre_xy = _coords(raw["centre"], source, "'centre'")
    if centre_xy not in hexes:
        raise _fail(source, f"the centre {list(centre_xy)} is not one of the hexes")
    players = raw.get("players")
    if not isinstance(players, dict) or not players:
        raise _fail(source, "'players' should map player counts to their setup")
    setups: dict[int, PlayerCountSetup] = {}
    for key, value in players.items():
        if key not in {str(p) for p in PLAYER_COUNTS}:
            raise _fail(source, f"player count {key!r} should be one of 2, 3, 4")
        where = f" for {key} players"
        if not isinstance(value, dict) or set(value) != {"set_aside", "hikers"}:
            raise _fail(source, f"the setup{where} should be {{\"set_aside\": n, \"hikers\": n}}")
        p = int(key)
        s = PlayerCountSetup(
            _int(value, "set_aside", source, 0, tiles, where),
            _int(value, "hikers", source, 1, MAX_HIKERS, where),
        )
        played = tiles - 1 - p * s.set_aside
        if played < p * hand_size:
            raise _fail(source, f"{tiles} tiles are too few to set aside and deal hands{where}")
        if played % p:
            raise _fail(source, f"the {played} tiles in play do not share evenly{where}")
        if played + 1 > len(hexes):
            raise _fail(source, f"{played + 1} tiles are played{where} but the map has {len(hexes)} hexes")
        setups[p] = s
    index = {xy: i for i, xy in enumerate(hexes)}
    neighbours = []
    for q, r in hexes:
        mask = 0
        for dq, dr in DIRECTIONS:
            j = index.get((q + dq, r + dr))
            if j is not None:
                mask |= 1 << j
        neighbours.append(mask)
    return SwitchbacksMap(
        hexes=tuple(hexes), centre=index[centre_xy], tiles=tiles, hand_size=hand_size,
        min_run=min_run, setups=setups, source=source, neighbours=tuple(neighbours),
    )


_DEFAULT: SwitchbacksMap | None = None


def load_map(path: str | Path | None = None) -> SwitchbacksMap:
    """Load and check a map file; ``None`` gives the built-in board."""
    global _DEFAULT
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = parse_map(builtin_json("switchbacks.json"))
        return _DEFAULT
    return parse_map(read_json(path, "map file"), str(path))
