"""The Node.js example client (examples/node/play.js) plays whole games
against ``solve engine`` in a subprocess; the games it reports are replayed
in-process and must be legal, finished games with the reported result."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.engine import Session

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "examples" / "node" / "play.js"
NODE = shutil.which("node")
ENGINE = f"{sys.executable} -m solvers.cli.main engine"

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def play(*args: str) -> dict:
    proc = subprocess.run([NODE, str(CLIENT), "--engine", ENGINE, *args], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def replay(position: dict) -> dict:
    session = Session()
    reply = session.handle({"cmd": "position", "position": position})
    assert "result" in reply, reply
    return reply["result"]


@pytest.mark.parametrize("args", [
    ("--game", "switchbacks", "--seed", "3", "--iterations", "150", "--stop-demo"),
    ("--game", "c2c", "--players", "2", "--seed", "5", "--iterations", "150"),
])
def test_node_client_plays_a_game_against_the_engine(args):
    result = play(*args)
    final = replay(result["position"])
    assert final["phase"] == "over"
    assert final["scores"] == result["scores"] and final["returns"] == result["returns"]
    assert len(result["position"]["moves"]) == result["plies"] == final["ply"]
    assert result["seat"] == 1 and result["engine_moves"] > 0
    if "--stop-demo" in args:
        assert result["stop"]["stopped"] and result["stop"]["iterations"] > 0


def test_node_client_solo_challenge_is_the_engine_alone():
    result = play("--game", "c2c", "--challenge", "The Alamo", "--seed", "2", "--iterations", "100")
    assert result["seat"] is None and result["players"] == 1
    final = replay(result["position"])
    assert final["phase"] == "over" and final["returns"] == result["returns"]
    assert result["position"]["options"] == {"challenge": "The Alamo"}
