"""``solve serve``: play and solve in the browser, over the engine protocol.

A small Starlette app (the ``[web]`` extra: ``pip install "solvers[web]"``),
run by uvicorn on 127.0.0.1 unless told otherwise. Everything about the games
comes from :mod:`solvers.registry`; the server never names a game.

* ``/`` (Play), ``/solve``, ``/atlas``: plain HTML, CSS and JavaScript pages
  from ``solvers/web/static`` (no build step, nothing from other sites).
* ``/analysis``: a saved game (a :mod:`solvers.record` file the page
  uploads as JSON, or the Play page's game via its "Analyse" button)
  stepped through move by move, with the AI's review as an evaluation chart
  and its costliest moves; its routes are in :mod:`solvers.web.analysis`.
* ``/ws``: a WebSocket speaking the engine protocol (``docs/engine-protocol.md``),
  one JSON request per text message, one reply per message; each socket is
  one :class:`solvers.engine.Session`, so every tab has its own game. ``go``
  runs in a thread, ``stop`` ends it, a closed socket stops it. The Play
  page plays its human seats in seat mode (``new`` with ``seats``): the
  engine deals and plays the AI seats, and no message the page receives
  holds a card those seats may not see.
* ``GET /api/games``: the registry (names, titles, seat counts, options,
  default budgets, whether the game has a browser drawing; each option's
  ``players``, the seat counts it applies to, or null for any).
* ``GET /api/games/<name>/board?players=N&option=value``: the static drawing
  data, ``board(game)`` of the game's web module (``GameInfo.web``);
  ``POST`` to the same address with ``{"players", "options"}`` as JSON for
  a game on an uploaded data file (a map object in ``options``).
* ``GET /games/<name>/board.js``: the ES module that draws the game, read
  from the web module's package.
* ``GET /api/games/<name>/rules``: the game's rules page (``docs/rules``,
  installed as the package ``solvers.rules``) as a tree of elements built
  from our Markdown (:mod:`solvers.web.markdown`; every character of the
  file arrives as text), shown in the Play page's rules panel.
* ``POST /api/games/<name>/tasks/<task>`` (a JSON body) starts one of the web
  module's ``TASKS`` (longer jobs such as Coast to Coast's hindsight optimum)
  in a thread and answers ``{"task": ID}``; ``GET /api/tasks/<ID>`` answers
  ``{"done", "progress": [done, total], "cancelled", "result" | "error"}``;
  ``DELETE /api/tasks/<ID>`` (from the server's own pages) cancels it: the
  task function's ``progress`` argument carries ``stop``, an event it may
  watch to end its work early (Coast to Coast's solve stops CP-SAT).

What the server accepts (a hostile web page open in the same browser can
send requests to it too): only requests whose ``Host`` is a loopback name
(``localhost``, ``127.0.0.0/8``, ``[::1]``) or the address it listens on
(refusing DNS rebinding); a socket or a job only from its own pages
(``Origin``); no server file paths at all (an option that names a data file
comes as the file's content, at most :data:`solvers.web.app.MAX_UPLOAD`
bytes of JSON); at most ``--searches`` searches at once, a short queue, and
``busy`` beyond it. Every response carries a Content-Security-Policy
without inline script, ``frame-ancestors 'none'`` and ``nosniff``.

A game's web module (``solvers.games.<name>.web``) defines ``board(game) ->
dict``, ``breakdown(state) -> list[list[{"item", "points"}]]`` (the final
score, shown at the end of a game and added to the protocol's ``state``
reply) and optionally ``annotate(state, seat) -> dict`` and ``TASKS``; its
package holds ``board.js``, which exports ``draw(svg, ctx)`` and may import
the shared SVG helpers of ``/static/svg.js`` (the page's
context: the board data, the engine status, the seat's view, the legal
moves, ``play(action)``, the hint, the breakdown, the annotations, the
seats' names and ``last``, the last move as the replies wrote it for the
viewer). ``svg.js`` also gives every board the hint's badges (a badge plays
exactly its hinted move) and ``previousView(ctx)``, the view drawn before
the last move(s), from which a board marks what the last move changed
(views only, so nothing the seat may not see).

``annotate(state, seat)`` (optional) gives the drawing what the rules derive
from a position, so that ``board.js`` holds no game logic (issue 14: only
drawing and sending moves): a JSON-able dict of facts such as a game's
paths, Stretches or points so far, computed in Python by the game's own
rules code (never a second implementation). Its contract:

* it tells ``seat`` only what ``seat`` may know: a function of
  ``state.information_state(seat)`` in effect, so two states that differ
  only in what the seat cannot see give equal annotations (the tests hold
  every game to this with twin positions);
* it works on the reference and the kernel states alike, at any point of a
  game (chance nodes and the end included), and does not change the state;
* the keys are the game's own, documented in its web module.

The engine session adds it to every ``state`` reply as ``annotations`` (for
games whose web module defines it; the key is absent otherwise) and the Play
page passes it to ``draw`` as ``ctx.annotations``.

>>> from solvers.web import game_list
>>> [g["name"] for g in game_list()][:1]
['bigsur']
"""

from __future__ import annotations

from typing import Any

from ..registry import games

WEB_EXTRA = 'pip install "solvers[web]"'


def game_list() -> list[dict[str, Any]]:
    """What ``GET /api/games`` answers: one record per registered game."""
    return [{
        "name": g.name,
        "title": g.title,
        "players": g.player_counts(),
        "default_players": g.default_players,
        "options": [{"name": o.name, "help": o.help,
                     "default": o.default if isinstance(o.default, (str, int, float, bool)) else None,
                     "types": [t.__name__ for t in o.types if t is not object],
                     "file": o.names_a_file,
                     "players": list(o.players) if o.players is not None else None}
                    for o in g.options],
        "default_budget": dict(g.default_budget),
        "web": g.web is not None,
    } for g in games()]


def missing_dependencies() -> str | None:
    """None when the web extra is installed, else the name of what is missing."""
    import importlib.util

    for module in ("starlette", "uvicorn", "websockets"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


__all__ = ["WEB_EXTRA", "game_list", "missing_dependencies"]
