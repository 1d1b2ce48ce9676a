"""The engine over two byte streams: newline-delimited JSON, one reply a line.

The calling thread reads requests; a ``go`` runs in a worker thread, so the
reader keeps answering ``stop``, ``quit`` and the read-only commands while it
searches. Every reply is one line, written under a lock and flushed.

>>> import io
>>> out = io.BytesIO()
>>> serve(io.BytesIO(b'{"id": 1, "cmd": "hello"}\\n{"id": 2, "cmd": "quit"}\\n'), out)
0
>>> [line[:24] for line in out.getvalue().decode().splitlines()]
['{"id":1,"cmd":"hello","r', '{"id":2,"cmd":"quit","re']
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Iterator
from typing import Any, BinaryIO

from .session import GoJob, RequestError, Session, _safe_cmd, _safe_id, decode, encode, error_reply

MAX_LINE = 1 << 20       # bytes in one request line
STOP_WAIT = 0.5          # seconds a stop waits for the go's reply (MCTS stops in milliseconds)
QUIT_WAIT = 1.0


class ReplyWriter:
    """Writes replies to a byte stream, one line each, whole and flushed."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream
        self.lock = threading.Lock()
        self.broken = False

    def write(self, reply: dict[str, Any]) -> None:
        data = (encode(reply) + "\n").encode("utf-8")
        with self.lock:
            if self.broken:
                return
            try:
                self.stream.write(data)
                self.stream.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.broken = True   # the frontend went away


def request_lines(stream: BinaryIO, limit: int = MAX_LINE) -> Iterator[bytes | None]:
    """The lines of ``stream``; None for a line longer than ``limit`` bytes
    (its rest is skipped)."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:
                more = stream.readline(limit + 1)
                if not more or more.endswith(b"\n"):
                    break
            yield None
            continue
        yield line


class Engine:
    """A :class:`Session` served over streams (see :func:`serve`)."""

    def __init__(self, output: BinaryIO, session: Session | None = None):
        self.session = session or Session()
        self.writer = ReplyWriter(output)
        self.worker: threading.Thread | None = None

    def _start_go(self, job: GoJob) -> None:
        def work() -> None:
            reply = self.session.finish_go(job)
            self.writer.write(reply)
            job.replied.set()

        self.worker = threading.Thread(target=work, name="solvers-engine-go", daemon=True)
        self.worker.start()

    def feed(self, line: bytes | None) -> bool:
        """Handle one request line; False once the engine should quit."""
        session, write = self.session, self.writer.write
        if line is None:
            write(error_reply(None, None, "parse_error", f"a request line is longer than {MAX_LINE} bytes"))
            return True
        if not line.strip():
            return True
        request: Any = None
        try:
            request = decode(line)
            rid, cmd = session.check_request(request)
        except RequestError as e:
            write(error_reply(_safe_id(request), _safe_cmd(request), e.code, str(e)))
            return True
        if cmd == "go":
            try:
                job = session.prepare_go(request)
            except RequestError as e:
                write(error_reply(rid, cmd, e.code, str(e)))
            except Exception as e:  # a bug: keep serving
                traceback.print_exc(file=sys.stderr)
                write(error_reply(rid, cmd, "internal_error", f"{type(e).__name__}: {e}"))
            else:
                self._start_go(job)
            return True
        running = session._job
        reply = session.handle(request)
        if cmd in ("stop", "quit") and "result" in reply and running is not None:
            # The go answers first (with the best move so far), then the stop.
            running.replied.wait(STOP_WAIT if cmd == "stop" else QUIT_WAIT)
            if cmd == "stop" and not running.replied.is_set():
                reply["result"]["stopped"] = False   # an agent that cannot be interrupted
        write(reply)
        return not session.closed

    def run(self, input: BinaryIO) -> int:
        """Serve until ``quit`` or the end of the input; the exit status."""
        for line in request_lines(input):
            if not self.feed(line) or self.writer.broken:
                break
        else:
            job = self.session._job
            if job is not None:                   # end of input: stop a search
                job.stop()
                job.replied.wait(QUIT_WAIT)
        return 0


def serve(input: BinaryIO, output: BinaryIO, session: Session | None = None) -> int:
    """Run the engine protocol: requests from ``input``, replies to ``output``
    (byte streams, e.g. ``sys.stdin.buffer``); returns the exit status."""
    return Engine(output, session).run(input)
