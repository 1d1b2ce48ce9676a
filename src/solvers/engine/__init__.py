"""``solve engine``: drive an AI for any game from another program.

Like UCI for chess or GTP for Go: a frontend spawns ``solve engine`` and
talks newline-delimited JSON on stdin and stdout, one reply per request,
each with the request's ``id``. The protocol is in
``docs/engine-protocol.md``, the messages in ``schema.json`` (package data,
:func:`load_schema`).

* :class:`Session` handles one request dict and returns one reply dict
  (in-process, no threads needed);
* :func:`serve` runs the protocol over two text streams: a reader thread
  keeps reading while a ``go`` searches in a worker thread, so ``stop`` and
  ``quit`` are answered at once.

>>> session = Session()
>>> session.handle({"id": "a", "cmd": "hello"})["result"]["protocol"]
'solvers-engine'
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from .server import serve
from .session import PROTOCOL, PROTOCOL_VERSION, RequestError, Session, decode, encode


@lru_cache(maxsize=1)
def load_schema() -> dict[str, Any]:
    """The JSON Schema of the protocol's requests and replies."""
    return json.loads(resources.files(__package__).joinpath("schema.json").read_text("utf-8"))


__all__ = ["PROTOCOL", "PROTOCOL_VERSION", "RequestError", "Session", "decode", "encode",
           "load_schema", "serve"]
