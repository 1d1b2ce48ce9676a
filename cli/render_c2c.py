"""Drawing a Coast to Coast sheet as text: highways are rows (west to east),
regions are columns, solid lines run along the rows and dashed lines down
the columns. Presentation only; the rules live in solvers.games.c2c."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from solvers.games.c2c.data import CoastMap

CELL = 5          # "[ABC]"
GAP = 3           # "───" between two cells


def short_codes(m: CoastMap) -> dict[int, str]:
    """A unique 3-letter code for each location (:attr:`CoastMap.codes`;
    location names may be typed as these codes too)."""
    return m.codes


def draw_sheet(m: CoastMap, circled: set[int], crossed: AbstractSet[int] = frozenset(),
               exact: AbstractSet[int] = frozenset(), required: AbstractSet[int] = frozenset(),
               legend: bool = True) -> str:
    """The sheet as lines of text.

    ``[ABC]`` circled, ``{ABC}`` circled with an exact match, ``xABCx``
    crossed off, `` abc `` untouched; a ``!`` marks a required location that
    is not circled.
    """
    codes = short_codes(m)
    regions = list(m.regions)
    col = {r: i for i, r in enumerate(regions)}
    grid: dict[tuple[int, int], int] = {}
    for loc in m.locations:
        grid[(m.highways.index(loc.highway), col[loc.region])] = loc.id
    solid = set(m.solid_lines)
    dashed = set(m.dashed_lines)
    width = 6

    def cell(i: int) -> str:
        c = codes[i]
        if i in crossed:
            return f"x{c}x"
        if i in circled:
            return f"{{{c}}}" if i in exact else f"[{c}]"
        mark = "!" if i in required else " "
        return f"{mark}{c.lower()} "

    header = " " * width + "".join(str(r).center(CELL) + " " * GAP for r in regions)
    lines = [header.rstrip()]
    rows = len(m.highways)
    # For each column, the dashed segments as (upper row, lower row).
    spans: dict[int, list[tuple[int, int]]] = {}
    for a, b in dashed:
        ra, rb = m.highways.index(m.locations[a].highway), m.highways.index(m.locations[b].highway)
        if m.locations[a].region == m.locations[b].region:
            spans.setdefault(col[m.locations[a].region], []).append((min(ra, rb), max(ra, rb)))
    for row in range(rows):
        text = m.highways[row].ljust(width)
        ids_in_row = sorted(c for (r, c) in grid if r == row)
        for c in range(len(regions)):
            here = grid.get((row, c))
            if here is not None:
                text += cell(here)
            else:
                inside = any(
                    a < c < b and (grid[(row, a)], grid[(row, b)]) in solid
                    for a, b in zip(ids_in_row, ids_in_row[1:], strict=False)
                )
                through = any(a < row < b for a, b in spans.get(c, []))
                fill = "─" if inside else " "
                text += fill * 2 + ("┆" if through else fill) + fill * 2
            nxt = next((x for x in ids_in_row if x > c), None)
            joined = (
                here is not None or any(a < c for a in ids_in_row)
            ) and nxt is not None and any(
                a <= c < b and (min(grid[(row, a)], grid[(row, b)]), max(grid[(row, a)], grid[(row, b)])) in solid
                for a, b in zip(ids_in_row, ids_in_row[1:], strict=False)
            )
            text += "─" * GAP if joined else " " * GAP
        lines.append(text.rstrip())
        if row < rows - 1:
            below = " " * width
            for c in range(len(regions)):
                down = any(a <= row < b for a, b in spans.get(c, []))
                below += ("┆".center(CELL) if down else " " * CELL) + " " * GAP
            lines.append(below.rstrip())
    if legend:
        lines.append("")
        lines.append("[ABC] circled   {ABC} exact match   xABCx crossed off   !abc required, missing")
        names = [f"{codes[l.id]} {l.name}" for l in m.locations]
        half = (len(names) + 1) // 2
        for left, right in zip(names[:half], names[half:] + [""], strict=False):
            lines.append(f"  {left:<42}{right}")
    return "\n".join(lines)
