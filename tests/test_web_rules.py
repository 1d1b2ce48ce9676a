"""The rules pages of ``solve serve`` (``GET /api/games/<name>/rules``), the
small Markdown renderer behind them, how the pages are installed, and the
player counts of a game option (Coast to Coast's solo challenge)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

import solvers
from solvers.engine import Session
from solvers.errors import SolversError
from solvers.registry import game_info, games
from solvers.web.markdown import TAGS, render, render_tree

ROOT = Path(__file__).resolve().parents[1]
EVIL = '<script>alert(1)</script> <img src=x onerror="alert(2)"> [go](javascript:alert(3)) &amp;'


def walk(nodes):
    for node in nodes:
        if isinstance(node, list):
            yield node
            yield from walk(node[2:])


def text_of(nodes) -> str:
    return "".join(n if isinstance(n, str) else text_of(n[2:]) for n in nodes)


def test_markup_in_the_markdown_stays_text():
    html = render(f"# Title\n\n{EVIL}\n\n* `<b>` **<i>x</i>**")
    assert "<script" not in html and "<img" not in html and "<i>" not in html and "javascript" not in html
    assert "&lt;script&gt;" in html and "&amp;amp;" in html
    tree = render_tree(EVIL)
    assert all(node[0] in TAGS for node in walk(tree))
    assert text_of(tree).startswith("<script>alert(1)</script> <img src=x onerror=")


@pytest.mark.parametrize("name", [g.name for g in games()])
def test_every_rules_page_renders(name):
    page = ROOT / "docs" / "rules" / game_info(name).rules_page
    source = page.read_text("utf-8")
    tree = render_tree(source)
    nodes = list(walk(tree))
    assert nodes[0][0] == "h2" and game_info(name).title.split()[0] in text_of(nodes[0][2:])
    for node in nodes:
        assert node[0] in TAGS and set(node[1]) <= set(TAGS[node[0]]), node[:2]
        if node[0] == "a":
            assert re.match(r"^(https?://|#)", node[1]["href"]), node
    # Every heading of the source is a heading on the page, and its text shows.
    headings = re.findall(r"^#{1,6}\s+(.*)$", source, re.M)
    assert sum(n[0].startswith("h") for n in nodes) == len(headings)
    # Nothing is lost: the text is most of the source (the rest is markup).
    assert len(text_of(tree)) > 0.75 * len(source)


def test_the_rules_api(web_server):
    with urllib.request.urlopen(f"{web_server}/api/games/switchbacks/rules", timeout=20) as r:
        body = json.loads(r.read())
    assert body["page"] == "switchbacks.md" and body["title"] == "Switchbacks"
    assert text_of(body["nodes"]).count("hex") > 10
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"{web_server}/api/games/nosuchgame/rules", timeout=20)
    assert e.value.code == 404


def test_the_rules_are_package_data_of_one_copy():
    """pyproject maps docs/rules into the package solvers.rules (no second copy)."""
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"solvers.rules" = "docs/rules"' in text and '"solvers.rules" = ["*.md"]' in text
    assert '"solvers.rules"' in (ROOT / "setup.py").read_text("utf-8")
    assert not list((ROOT / "src").rglob("coast-to-coast.md"))


@pytest.mark.slow
def test_the_wheel_holds_the_rules(tmp_path):
    env = {"SOLVERS_ONLY": "none", "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path), str(ROOT)], check=True, env=env, timeout=300)
    names = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    for g in games():
        assert f"solvers/rules/{g.rules_page}" in names


def test_an_option_applies_to_its_player_counts():
    assert game_info("c2c").option("challenge").players == (1,)
    solvers.load_game("c2c", players=1, challenge="The Alamo")
    with pytest.raises(SolversError, match="applies only with 1 player, not 2"):
        solvers.load_game("c2c", players=2, challenge="The Alamo")
    reply = Session().handle({"cmd": "new", "game": "c2c", "players": 3, "options": {"challenge": "The Alamo"}})
    assert reply["error"]["code"] == "invalid_option" and "only with 1 player" in reply["error"]["message"]
    listed = {o["name"]: o["players"] for g in solvers.web.game_list() if g["name"] == "c2c"
              for o in g["options"]}
    assert listed == {"challenge": [1], "map": None}
