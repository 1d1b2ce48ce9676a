"""The rules pages in docs/rules/: every place that cites them finds what it
cites, nothing points outside the repository, and the pictures of the
numbering agree with the code.

Anchors are those GitHub gives a page: one per heading (its text in lower
case, punctuation dropped, spaces as hyphens, ``-1``, ``-2``... for repeats)
and one per explicit ``<a id="...">`` or ``<a name="...">``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solvers.games.c2c.data import load_map as load_c2c_map
from solvers.games.switchbacks.data import load_map as load_switchbacks_map

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules"
SCANNED = ("src", "cli", "tests", "benchmarks", "docs", "README.md")
# Build products and caches are not sources (Cython writes src/_core/*.c).
SKIPPED_SUFFIXES = {".c", ".cpp", ".so", ".pyd", ".html", ".pyc", ".png", ".o"}
SKIPPED_PARTS = {"__pycache__", "build", "node_modules", ".pytest_cache", ".benchmarks"}
# Spelt in two pieces so that this file does not name them itself.
OUTSIDE = ("shared/" + "rules", "shared/" + "spec")
REFERENCE = re.compile(r"docs/rules/([A-Za-z0-9_.-]+\.md)(?:#([A-Za-z0-9_-]+))?")
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([A-Za-z0-9_-]+))?\)")   # [text](path#anchor)


def github_slug(heading: str) -> str:
    """The anchor GitHub makes from a heading's text.

    >>> github_slug("Actions and turns, for frontend authors")
    'actions-and-turns-for-frontend-authors'
    >>> github_slug("What `optimal` means: A & B")
    'what-optimal-means-a--b'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link keeps its words
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """Every anchor of a Markdown page (headings outside code blocks, and
    explicit ids)."""
    found: set[str] = set()
    counts: dict[str, int] = {}
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            continue
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = github_slug(m.group(1))
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", markdown))
    return found


def scanned_files() -> list[Path]:
    files = []
    for name in SCANNED:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in paths:
            if path.suffix in SKIPPED_SUFFIXES or SKIPPED_PARTS & set(path.parts):
                continue
            if any(part.endswith(".egg-info") for part in path.parts):
                continue
            files.append(path)
    return files


def read(path: Path) -> str | None:
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError:
        return None                    # not text


def rules_references(files: list[Path]) -> list[tuple[str, str, str | None]]:
    """(where, page, anchor or None) for every ``docs/rules/...`` in ``files``."""
    refs = []
    for path in files:
        text = read(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for page, anchor in REFERENCE.findall(line):
                refs.append((f"{path.relative_to(ROOT)}:{number}", page, anchor or None))
    return refs


def missing_targets(refs: list[tuple[str, str, str | None]]) -> list[str]:
    """The references whose page or anchor does not exist, as messages."""
    problems = []
    cache: dict[str, set[str] | None] = {}
    for where, page, anchor in refs:
        if page not in cache:
            doc = RULES / page
            cache[page] = anchors(doc.read_text("utf-8")) if doc.is_file() else None
        found = cache[page]
        if found is None:
            problems.append(f"{where}: docs/rules/{page} does not exist")
        elif anchor is not None and anchor not in found:
            problems.append(f"{where}: docs/rules/{page} has no anchor #{anchor}")
    return problems


def test_nothing_points_outside_the_repository():
    offenders = []
    for path in scanned_files():
        text = read(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if any(word in line for word in OUTSIDE):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "rules are cited from docs/rules/, not from outside:\n" + "\n".join(offenders)


def test_every_cited_rules_anchor_exists():
    refs = rules_references(scanned_files())
    # The reference implementations cite their pages; an empty scan would pass vacuously.
    pages = {page for _, page, _ in refs}
    assert {"coast-to-coast.md", "switchbacks.md"} <= pages
    assert sum(1 for _, _, anchor in refs if anchor) >= 10
    assert missing_targets(refs) == []


def test_links_inside_the_rules_pages_resolve():
    problems = []
    for doc in sorted(RULES.glob("*.md")):
        text = doc.read_text("utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            for path, anchor in LINK.findall(line):
                if "://" in path:
                    continue
                target = (doc.parent / path).resolve() if path else doc
                if not target.exists():
                    problems.append(f"{doc.name}:{number}: no file {path}")
                elif anchor and target.suffix == ".md" and anchor not in anchors(target.read_text("utf-8")):
                    problems.append(f"{doc.name}:{number}: {target.name} has no anchor #{anchor}")
    assert problems == []


def test_the_checker_sees_a_broken_anchor():
    """The check itself can fail: a made-up anchor and a made-up page are reported."""
    refs = [("x.py:1", "switchbacks.md", "no-such-decision"),
            ("x.py:2", "no-such-game.md", None),
            ("x.py:3", "switchbacks.md", "complete-path")]
    pages = "docs/" + "rules"          # in two pieces, or the scan would find these lines
    assert missing_targets(refs) == [
        f"x.py:1: {pages}/switchbacks.md has no anchor #no-such-decision",
        f"x.py:2: {pages}/no-such-game.md does not exist",
    ]


def test_heading_anchors_follow_github():
    page = "# A b\n## Setup\n```\n# not a heading\n```\n## Setup\n<a id=\"x-1\"></a>\n### Why? (2)\n"
    assert anchors(page) == {"a-b", "setup", "setup-1", "x-1", "why-2"}


def block(page: str, name: str) -> str:
    """The text between ``<!-- name:start ...-->`` and ``<!-- name:end -->``."""
    text = (RULES / page).read_text("utf-8")
    m = re.search(rf"<!-- {name}:start[^>]*-->\n(.*?)<!-- {name}:end -->", text, re.S)
    assert m, f"{page} has no {name} block"
    return m.group(1)


def test_coast_to_coast_location_table_matches_the_data():
    rows = [line.strip("|").split("|") for line in block("coast-to-coast.md", "c2c-locations").splitlines()
            if re.match(r"\|\s*\d", line)]
    table = [tuple(cell.strip() for cell in row) for row in rows]
    m = load_c2c_map()
    assert table == [(str(l.id), l.name, l.highway, str(l.region), l.type) for l in m.locations]


def test_coast_to_coast_grid_places_each_id_on_its_highway_and_region():
    lines = [l for l in block("coast-to-coast.md", "c2c-grid").splitlines() if not l.startswith("```")]
    header, rows = lines[0], lines[1:]
    # Column of each region number in the header (its last character).
    region_end = {int(x.group()): x.end() for x in re.finditer(r"\d+", header)}
    m = load_c2c_map()
    seen = {}
    for row in rows:
        highway = row.split()[0]
        for x in re.finditer(r"\d+", row[len(highway):]):
            region = next(r for r, end in region_end.items() if end == x.end() + len(highway))
            seen[int(x.group())] = (highway, region)
    assert seen == {l.id: (l.highway, l.region) for l in m.locations}
    # Solid lines ('-' between two ids in a row) are exactly the data file's.
    drawn = set()
    for row in rows:
        ids = [int(x) for x in re.findall(r"\d+", row.split(maxsplit=1)[1])]
        links = re.findall(r"\d+(-+)(?=\d)", row)
        assert len(links) == len(ids) - 1
        drawn |= {(a, b) for a, b in zip(ids, ids[1:])}
    assert drawn == set(m.solid_lines)


def test_switchbacks_hex_picture_matches_the_map():
    lines = [l for l in block("switchbacks.md", "switchbacks-hexes").splitlines()
             if l and not l.startswith("```")]
    m = load_switchbacks_map()
    ids, offsets = [], set()
    for row, line in enumerate(lines):
        for x in re.finditer(r"\d+", line):
            h = int(x.group())
            q, r = m.hexes[h]
            assert r == row - len(lines) // 2, f"hex {h} drawn in the wrong row"
            offsets.add(x.end() - 4 * q - 2 * r)   # each q step is 4 columns, each row 2
            ids.append(h)
    assert sorted(ids) == list(range(m.num_hexes)) and len(ids) == m.num_hexes
    assert len(offsets) == 1, "the picture's columns do not follow the axial coordinates"
