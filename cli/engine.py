"""``solve engine``: the AI of every game behind newline-delimited JSON.

A frontend (web app, bot, game table) spawns ``solve engine`` and writes one
JSON request per line on its stdin; each gets one JSON reply line on stdout
with the same ``id``. Nothing else is ever written to stdout (logs and
tracebacks go to stderr). The protocol: ``docs/engine-protocol.md``.
"""

from __future__ import annotations

import os
import sys
import threading

import click


@click.command("engine")
def engine() -> None:
    """Serve the AI over stdin/stdout: one JSON request a line, one reply a line.

    \b
    Example session (> request, < reply):
      > {"id": 1, "cmd": "new", "game": "c2c", "seed": 7, "options": {"challenge": "The Alamo"}}
      < {"id":1,"cmd":"new","result":{"game":"c2c","players":1,"phase":"chance",...}}
      > {"id": 2, "cmd": "deal"}
      < {"id":2,"cmd":"deal","result":{"moves":["deal Oklahoma City Zoo",...],...}}
      > {"id": 3, "cmd": "go", "time": 1}
      < {"id":3,"cmd":"go","result":{...,"move":"cross Oklahoma City Zoo",...}}
      > {"id": 4, "cmd": "apply", "move": "cross Oklahoma City Zoo"}
      < {"id":4,"cmd":"apply","result":{...}}
      > {"id": 5, "cmd": "quit"}
      < {"id":5,"cmd":"quit","result":{"bye":true}}

    Commands: hello, new, position, undo, apply, deal, legal, go, stop, state,
    quit. Without "seats" a connection is the referee and sees every card;
    "new" with "seats": [0] plays those seats only: every reply shows what
    they may see, the engine deals and plays the other seats (go), and a
    game without a seed gets a secret one. See docs/engine-protocol.md.
    """
    from solvers.engine import serve

    output = sys.stdout.buffer
    sys.stdout.flush()
    sys.stdout = sys.stderr          # stray prints must never reach the protocol stream
    code = serve(sys.stdin.buffer, output)
    try:
        output.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass
    if any(t.name == "solvers-engine-go" and t.is_alive() for t in threading.enumerate()):
        # A search that cannot be interrupted is still running: leave without it.
        sys.stderr.flush()
        os._exit(code)
    if code:
        sys.exit(code)
