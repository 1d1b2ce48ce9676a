"""One way to run many independent jobs: on this machine's cores or on Ray.

The library's heavy work (hindsight solves of shuffles, online-player games,
tournament games) is a picklable job mapped over seeded items. :func:`run_jobs`
does that mapping and yields ``(index, result)`` pairs as jobs finish, on one
of two backends:

* ``local`` (the default): worker processes on this machine. With one
  worker the jobs run in this process, one after the other.
* ``ray``: Ray tasks (``pip install 'solvers[ray]'``; Ray is imported only
  when this backend is chosen). ``address`` is a running cluster to join
  (``"auto"`` finds one started with ``ray start --head`` on this machine;
  ``"HOST:PORT"`` joins another); without one, ``RAY_ADDRESS`` is honoured,
  and otherwise a local Ray instance is started with ``workers`` CPUs.
  Short jobs travel to Ray's workers in batches (about a quarter of a
  second of work each, judged from the jobs already done), since Ray pays a
  few milliseconds a task.

Seeds belong to the items, never to the workers, so the results do not
depend on the backend or on how many workers there are::

    >>> from solvers.parallel import run_jobs
    >>> sorted(run_jobs(abs, [-3, 1, -2]))
    [(0, 3), (1, 1), (2, 2)]

Faults: a job that raises stops the run with a :class:`JobError` naming the
item and the error (the remaining jobs are cancelled); a worker process that
dies is replaced and its job run again (up to ``retries`` times); a worker
process ends when the process that started it dies, even by ``kill -9``
(none is left running for good); a Ray
address where no cluster answers fails within seconds with a
:class:`~solvers.errors.SolversError`; an interrupt (Ctrl-C) or an error
stops every worker process this run started.
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from .errors import SolversError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
#: How long a Ray address may take to answer before the run gives up.
CONNECT_TIMEOUT = 10.0
RAY_HINT = "the ray backend needs Ray: pip install 'solvers[ray]'"


class JobError(RuntimeError):
    """A job raised (or its worker died too often): ``index`` and ``item``
    say which one; the message is one line."""

    def __init__(self, index: int, item: Any, why: str, detail: str = ""):
        self.index = index
        self.item = item
        self.why = why
        self.detail = detail         # the worker's traceback, for debugging
        shown = repr(item)
        if len(shown) > 80:
            shown = shown[:77] + "..."
        super().__init__(f"job {index} ({shown}) failed: {why}")


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def check_backend(backend: str, address: str | None = None) -> str:
    """Check a backend choice before any work: the name, and for ``ray`` that
    Ray can be imported. SolversError (one line) otherwise.

    >>> check_backend("local")
    'local'
    """
    if backend not in BACKENDS:
        raise SolversError(f"unknown backend {backend!r}; the backends are {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise SolversError("--address is for the ray backend (--backend ray)")
    if backend == "ray":
        _import_ray()
    return backend


def run_jobs(job: Callable[[T], R], items: Iterable[T], *, workers: int | None = 1,
             backend: str = "local", address: str | None = None, retries: int = 2,
             progress: Callable[[int, int], None] | None = None) -> Iterator[tuple[int, R]]:
    """Run ``job(item)`` for every item; yield ``(index, result)`` as each
    finishes (in no fixed order: sort by index for a stable report).

    ``job`` and the items must be picklable (a module-level function and
    plain data). ``workers`` is the number of jobs run at once (None: every
    core here, or every CPU of the Ray cluster). ``progress(done, total)``
    is called after each result. ``retries`` is how often a job whose worker
    process died is run again. Raises :class:`JobError` when a job raises.
    """
    check_backend(backend, address)
    items = list(items)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise SolversError(f"workers should be a whole number >= 1, not {workers!r}")
    total = len(items)
    if backend == "ray":
        results = _run_ray(job, items, workers, address, retries)
    elif (workers or default_workers()) <= 1 or total <= 1:
        results = _run_here(job, items)
    else:
        results = _run_local(job, items, min(workers or default_workers(), total), retries)
    done = 0
    for index, result in results:
        done += 1
        if progress is not None:
            progress(done, total)
        yield index, result


def run_jobs_saving(job: Callable[[T], R], items: Iterable[T], keep: Callable[[int, R], None],
                    write: Callable[[], None] | None, *, every: float = 2.0,
                    progress: Callable[[int], None] | None = None, **kwargs: Any) -> None:
    """:func:`run_jobs` for a long run saved as it goes: each result is
    handed to ``keep(index, result)`` as it arrives, then ``progress(1)``;
    ``write()`` (the caller's save of what it kept) runs at most every
    ``every`` seconds and once more when the loop ends, however it ends (a
    job's error, Ctrl-C, SIGTERM turned into an exception), so a saved
    file never lacks a result that arrived.

        >>> kept = {}
        >>> run_jobs_saving(abs, [-1, 2], kept.__setitem__, lambda: print(sorted(kept)))
        [0, 1]
    """
    last = time.monotonic()
    try:
        for index, result in run_jobs(job, items, **kwargs):
            keep(index, result)
            if progress is not None:
                progress(1)
            if write is not None and time.monotonic() - last >= every:
                write()
                last = time.monotonic()
    finally:
        if write is not None:
            write()


def map_jobs(job: Callable[[T], R], items: Iterable[T], **kwargs: Any) -> list[R]:
    """The results of :func:`run_jobs` in the items' order.

    >>> map_jobs(abs, [-1, 2, -3], workers=2)
    [1, 2, 3]
    """
    items = list(items)
    out: list[Any] = [None] * len(items)
    for index, result in run_jobs(job, items, **kwargs):
        out[index] = result
    return out


# ------------------------------------------------------------------ here
def _run_here(job: Callable[[T], R], items: list[T]) -> Iterator[tuple[int, R]]:
    for index, item in enumerate(items):
        try:
            result = job(item)
        except Exception as e:
            raise JobError(index, item, _why(e), traceback.format_exc()) from e
        yield index, result


def _why(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


# ------------------------------------------------------------------ local processes
#: How often a worker checks that the process that started it is alive
#: (the portable watch of :func:`_die_with_parent`), in seconds.
PARENT_POLL = 0.5
_PR_SET_PDEATHSIG = 1          # from <linux/prctl.h>


def _die_with_parent(parent: int) -> None:
    """Make this worker end when ``parent`` (the process running the jobs)
    dies, even by ``kill -9``, which gives it no chance to stop its workers.

    On Linux the kernel sends SIGKILL at once (``prctl(PR_SET_PDEATHSIG)``,
    through ctypes; strictly it fires when the *thread* that started the
    worker ends, and :func:`_run_local` stops its workers before its
    thread can). Everywhere, a daemon thread also checks every
    :data:`PARENT_POLL` seconds that the parent is still there (an orphan
    is handed to another parent) and exits if not: the fallback where prctl
    is missing. A parent that died before either was set up is caught by
    the first check."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)

    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=watch, name="solvers-parent-watch", daemon=True).start()


def _worker_main(conn: Any, job: Callable[[Any], Any], parent: int | None = None) -> None:
    """A worker process: run jobs sent over ``conn`` until told to stop, or
    until ``parent`` (the pid of the process that started it) dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the parent decides on Ctrl-C
    if parent is not None:
        _die_with_parent(parent)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        index, item = msg
        try:
            reply: tuple[Any, ...] = ("ok", index, job(item))
        except Exception as e:
            reply = ("error", index, _why(e), traceback.format_exc())
        try:
            conn.send(reply)
        except Exception as e:          # an unpicklable result
            conn.send(("error", index, f"the result cannot be sent back: {_why(e)}", ""))


class _Worker:
    def __init__(self, ctx: Any, job: Callable[[Any], Any]):
        parent, child = ctx.Pipe()
        self.conn = parent
        self.process = ctx.Process(target=_worker_main, args=(child, job, os.getpid()),
                                   daemon=True)
        self.process.start()
        child.close()
        self.pending: deque[int] = deque()     # jobs sent, oldest (the running one) first

    def stop(self, wait: float) -> None:
        try:
            self.conn.send(None)
        except Exception:
            pass
        self.process.join(wait)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        self.conn.close()


#: A job waits in its worker's pipe behind the running one only when its
#: message is this small: a pipe holds it without blocking the sender.
AHEAD_BYTES = 16 * 1024


def _run_local(job: Callable[[T], R], items: list[T], workers: int,
               retries: int) -> Iterator[tuple[int, R]]:
    """Each worker gets a second job while it runs one (when the job's
    message is small), so that it starts the next at once instead of
    waiting a pipe's round trip for this process to answer."""
    import multiprocessing as mp
    from multiprocessing.connection import wait
    from multiprocessing.reduction import ForkingPickler

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    queue = deque(range(len(items)))
    attempts = [0] * len(items)
    pool: list[_Worker] = []
    finished = 0
    clean = False
    try:
        pool = [_Worker(ctx, job) for _ in range(workers)]

        def feed(w: _Worker) -> None:
            """Keep ``w`` running a job and, if it fits, one more behind it."""
            while queue and len(w.pending) < 2:
                if w.pending and len(queue) <= len(pool):
                    return          # the last jobs wait for a free worker, not behind a job
                message = bytes(ForkingPickler.dumps((queue[0], items[queue[0]])))
                if w.pending and len(message) > AHEAD_BYTES:
                    return
                index = queue.popleft()
                attempts[index] += 1
                w.pending.append(index)
                w.conn.send_bytes(message)

        for w in pool:
            feed(w)
        while finished < len(items):
            busy = [w for w in pool if w.pending]
            ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy])
            for w in busy:
                if w.conn in ready or w.conn.poll():
                    try:
                        msg = w.conn.recv()
                    except (EOFError, OSError):
                        msg = None           # died while answering: handled below
                    if msg is not None:
                        if msg[0] == "error":
                            _, index, why, detail = msg
                            raise JobError(index, items[index], why, detail)
                        w.pending.popleft()
                        finished += 1
                        yield msg[1], msg[2]
                        feed(w)
                        continue
                if w.process.sentinel in ready and not w.process.is_alive():
                    index = w.pending[0]
                    code = w.process.exitcode
                    w.stop(0.0)
                    for waiting in list(w.pending)[1:]:
                        attempts[waiting] -= 1       # never started
                    queue.extendleft(reversed(w.pending))
                    pool[pool.index(w)] = fresh = _Worker(ctx, job)
                    if attempts[index] > retries:
                        raise JobError(index, items[index],
                                       f"its worker process died {attempts[index]} times "
                                       f"(exit code {code})")
                    feed(fresh)
        clean = True
    finally:
        for w in pool:
            w.stop(2.0 if clean else 0.0)


# ------------------------------------------------------------------ ray
def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise SolversError(RAY_HINT) from None
    return ray


_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _probe(address: str) -> None:
    """Fail fast (SolversError) unless a gRPC server (as Ray's is) answers at
    ``HOST:PORT``: Ray's own client retries a dead or foreign address for
    minutes. The probe sends the HTTP/2 greeting and wants HTTP/2 settings back."""
    target = address.split("://", 1)[-1]
    host, _, port = target.rpartition(":")
    if not host or not port.isdigit():
        raise SolversError(f"a Ray address is 'auto' or HOST:PORT, not {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT / 2) as sock:
            sock.settimeout(CONNECT_TIMEOUT / 2)
            sock.sendall(_HTTP2_PREFACE)
            head = b""
            while len(head) < 9:
                chunk = sock.recv(9 - len(head))
                if not chunk:
                    break
                head += chunk
    except OSError as e:
        raise SolversError(f"no Ray cluster answers at {address} ({_why(e)})") from None
    if len(head) < 9 or head[3] != 4:          # frame type 4: SETTINGS
        raise SolversError(f"no Ray cluster answers at {address} (something else listens there)")


@contextmanager
def _stderr_silenced() -> Iterator[None]:
    """File descriptor 2 points to /dev/null inside: Ray's C++ client logs
    each failed call there, which :func:`_check_token` reports in one line."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


TOKEN_HINT = ("set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN to the cluster's token (or "
              "RAY_AUTH_TOKEN_PATH to a file holding it; 'ray get-auth-token' on the head prints it)")


def _check_token(ray: Any, address: str) -> None:
    """Fail fast (SolversError, one line) when the cluster at ``address``
    wants an authentication token that this process does not send: Ray's own
    join retries it for about 20 s and logs a line a second. One small call
    to the cluster's control store (GCS) settles it in milliseconds; any
    other outcome is left to ``ray.init``."""
    try:
        from ray._raylet import GcsClient  # type: ignore[attr-defined]  # Ray's own, untyped
        from ray.exceptions import AuthenticationError
    except ImportError:                 # a Ray without token authentication
        return
    try:
        with _stderr_silenced():
            GcsClient(address=address).internal_kv_get(b"solvers-probe", b"solvers",
                                                       timeout=CONNECT_TIMEOUT / 2)
    except AuthenticationError:
        if os.environ.get("RAY_AUTH_MODE", "").lower() == "token":
            raise SolversError(f"the Ray cluster at {address} refused this process's "
                               f"authentication token: {TOKEN_HINT}") from None
        raise SolversError(f"the Ray cluster at {address} needs an authentication token: "
                           f"{TOKEN_HINT}") from None
    except Exception:                   # anything else: ray.init says what it is
        return


_RAY_OWNED = False       # whether this process started the Ray instance it uses

#: Ray's settings for a local instance this process starts. Ray runs its
#: workers 15 steps nicer than the process that started it (to keep its own
#: daemons responsive), so on a busy machine they got a sliver of a core:
#: 4 Wrigley Field ceiling solves took 7.5 s on 2 Ray workers against 0.41 s
#: on the local backend's 2 (three other busy processes on the 2 cores).
#: At 0 its workers run at the caller's priority, as the local backend's do.
LOCAL_RAY_CONFIG: dict[str, Any] = {"worker_niceness": 0}


def ray_connect(address: str | None = None, workers: int | None = None) -> Any:
    """Ray, initialised: joined to ``address`` (or ``RAY_ADDRESS``), or a
    local instance with ``workers`` CPUs started now (its workers at this
    process's priority, :data:`LOCAL_RAY_CONFIG`). Reuses an instance this
    process already joined. SolversError (one line) when it cannot. The
    caller's SIGTERM handler stays in place (Ray's driver would replace it)."""
    global _RAY_OWNED
    ray = _import_ray()
    if ray.is_initialized():
        return ray
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address is not None and address != "auto" and address != "local":
        _probe(address)
        _check_token(ray, address)
    start = time.monotonic()
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                              "logging_level": "ERROR", "configure_logging": True}
    on_sigterm = signal.getsignal(signal.SIGTERM)
    try:
        if address is None or address == "local":
            ray.init(address="local", num_cpus=workers or default_workers(),
                     _system_config=LOCAL_RAY_CONFIG, **kwargs)
            _RAY_OWNED = True
        else:
            ray.init(address=address, **kwargs)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        if address == "auto":
            raise SolversError("no running Ray cluster found (--address auto): start one with "
                               "'ray start --head', or leave --address out") from None
        raise SolversError(f"cannot join the Ray cluster at {address} after "
                           f"{time.monotonic() - start:.0f} s: {_why(e)[:200]}") from None
    if callable(on_sigterm) and threading.current_thread() is threading.main_thread():
        # Ray's driver puts in a SIGTERM handler of its own, which writes a
        # stack and ends the process: keep the caller's (its clean-up saves).
        signal.signal(signal.SIGTERM, on_sigterm)
    return ray


def ray_shutdown() -> None:
    """Stop the Ray instance this process started (and its workers)."""
    global _RAY_OWNED
    ray = _import_ray()
    if ray.is_initialized():
        ray.shutdown()
    _RAY_OWNED = False


def _ray_call(job: Callable[[Any], Any], batch: list[tuple[int, Any]]) -> tuple[list, Any, float]:
    """Run a batch of jobs in a Ray worker: ``(results, error, seconds)``
    where ``results`` lists ``(index, result)`` and ``error`` is None or
    ``(index, why, detail)`` for the job that raised (the batch stops there)."""
    start = time.perf_counter()
    out = []
    for index, item in batch:
        try:
            out.append((index, job(item)))
        except Exception as e:
            return out, (index, _why(e), traceback.format_exc()), time.perf_counter() - start
    return out, None, time.perf_counter() - start


#: Ray hands a worker its next task only once the previous one's answer is
#: back (about 5 ms a task, measured on this machine), so short jobs travel
#: in batches of about this many seconds of work (judged from the jobs that
#: finished so far), and at most ``MAX_BATCH`` jobs.
BATCH_SECONDS = 0.25
MAX_BATCH = 64


_REMOTE: dict[int, Any] = {}


def _run_ray(job: Callable[[T], R], items: list[T], workers: int | None, address: str | None,
             retries: int) -> Iterator[tuple[int, R]]:
    ray = ray_connect(address, workers)
    key = retries
    if key not in _REMOTE:
        _REMOTE[key] = ray.remote(num_cpus=1, max_retries=retries)(_ray_call)
    remote = _REMOTE[key]
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    group = None
    if workers is not None and workers < cpus:
        # Fewer than the cluster has: reserve ``workers`` CPUs for this run
        # (a placement group) so that no more jobs than that run at once; the
        # jobs wait until the group is placed, as they would for free CPUs.
        from ray.util.scheduling_strategies import PlacementGroupSchedulingStrategy

        group = ray.util.placement_group([{"CPU": 1}] * workers)
        remote = remote.options(scheduling_strategy=PlacementGroupSchedulingStrategy(group))
    # As many tasks again as CPUs wait in Ray's queue: a CPU that finishes a
    # task starts the next one on the same warm worker, instead of waiting
    # for this process to hand it out (a round trip of about 18 ms a task,
    # measured). Ray runs one task per CPU, so at most ``workers`` run.
    window = 2 * min(cpus, workers or cpus)
    job_ref = ray.put(job)
    queue = deque(range(len(items)))
    pending: dict[Any, list[int]] = {}
    batch, spent, ran = 1, 0.0, 0       # the first tasks carry one job each
    clean = False
    try:
        while queue or pending:
            while queue and len(pending) < window:
                # No larger than a fair share of what is left, so that the
                # last batches do not keep one worker busy while others idle.
                size = max(1, min(batch, len(queue) // window))
                indices = [queue.popleft() for _ in range(size)]
                ref = remote.remote(job_ref, [(i, items[i]) for i in indices])
                pending[ref] = indices
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                indices = pending.pop(ref)
                try:
                    results, error, seconds = ray.get(ref)
                except Exception as e:        # the worker died more than retries times
                    index = indices[0]
                    why = f"its Ray task failed: {_why(e)[:200]}"
                    raise JobError(index, items[index], why) from None
                for index, value in results:
                    yield index, value
                if error is not None:
                    index, why, detail = error
                    raise JobError(index, items[index], why, detail)
                spent, ran = spent + seconds, ran + len(results)
                batch = max(1, min(MAX_BATCH, int(BATCH_SECONDS * ran / max(spent, 1e-9))))
        clean = True
    finally:
        if group is not None:
            try:
                ray.util.remove_placement_group(group)
            except Exception:
                pass
        if not clean and _RAY_OWNED:
            # Our own instance: shutting it down ends its workers. Cancelling
            # each task first raced with the answers still arriving (Ray 2.60's
            # core worker then aborted the process: "Tried to complete task
            # that was not pending", status 1, before the caller could save).
            ray_shutdown()
        elif not clean:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    pass


__all__ = ["run_jobs", "map_jobs", "check_backend", "JobError", "BACKENDS", "default_workers",
           "ray_connect", "ray_shutdown"]
