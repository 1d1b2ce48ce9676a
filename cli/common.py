"""Small presentation helpers shared by the commands: output, progress bars."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from solvers.errors import SolversError
from solvers.game import observed_move
from solvers.limits import MAX_ITERATIONS, MAX_SECONDS, check_seconds, check_seed, check_whole
from solvers.parallel import default_workers  # noqa: F401  (the commands import it from here)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


def backend_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--backend local|ray`` and ``--address``, for every command that
    takes ``--workers`` (see :mod:`solvers.parallel`)."""
    command = click.option(
        "--address", metavar="ADDRESS", default=None,
        help="With --backend ray: the cluster to join, 'auto' (one started with "
             "'ray start --head' here) or HOST:PORT [default: $RAY_ADDRESS, else a "
             "local Ray instance].")(command)
    return click.option(
        "--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
        help="Where the jobs run: processes on this machine, or Ray tasks "
             "(pip install 'solvers[ray]').")(command)


def save_resume_options(save_help: str, resume_help: str) -> Callable[..., Any]:
    """``--save FILE`` and ``--resume FILE`` (the parameters ``save_file``
    and ``resume_file``; :func:`save_target` decides where the results go),
    for the commands whose long runs are saved as they go."""
    def add(command: Callable[..., Any]) -> Callable[..., Any]:
        for name, text in (("resume", resume_help), ("save", save_help)):
            command = click.option(f"--{name}", f"{name}_file", metavar="FILE",
                                   type=click.Path(dir_okay=False), help=text)(command)
        return command
    return add


class NoCommand(click.UsageError):
    """A command run with nothing to do: its help, shown on stderr by
    ``solve``, which exits with status 2 as for any usage error."""

    def __init__(self, ctx: click.Context):
        super().__init__(ctx.get_help(), ctx=ctx)


class MainThreadStdout:
    """``sys.stdout`` while a command uses Ray: what this process's main
    thread writes (the report) goes to the real stdout, what any other
    thread writes goes to stderr. Ray's driver prints its warnings (a worker
    died, a task is retried) on stdout from threads of its own, whatever
    its logging options, and they would corrupt a ``--json`` report."""

    def __init__(self, stdout: Any, stderr: Any):
        self.stdout = stdout
        self.stderr = stderr

    def _target(self) -> Any:
        return self.stdout if threading.current_thread() is threading.main_thread() else self.stderr

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        for stream in (self.stdout, self.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stdout, name)


def start_backend(backend: str, address: str | None, workers: int | None) -> None:
    """Check the backend before any work: Ray installed, the cluster joined
    (SolversError, one line, otherwise); a cluster without a CPU gets one
    note on stderr, for its jobs will wait. With Ray, stdout keeps only what
    the command itself prints (:class:`MainThreadStdout`)."""
    from solvers.parallel import check_backend, ray_connect

    check_backend(backend, address)
    if backend == "ray":
        ray = ray_connect(address, workers)
        if ray.cluster_resources().get("CPU", 0) < 1:
            # Not an error: an autoscaling cluster adds nodes for waiting jobs.
            at = f" at {address}" if address not in (None, "auto", "local") else ""
            click.echo(f"solve: note: the Ray cluster{at} has no CPU: the jobs wait until a "
                       "node with CPUs joins it (Ctrl-C stops)", err=True)
        if not isinstance(sys.stdout, MainThreadStdout):
            # For good: Ray's threads outlive the command (a late warning
            # after the report must not land on stdout either).
            sys.stdout = MainThreadStdout(sys.stdout, sys.stderr)


# The largest counts the commands accept: a run of this size already takes
# hours to days (a shuffle costs about a second of CP-SAT plus a game of the
# online player; a tournament game seconds to minutes), so a larger count is a
# typo, refused before any work starts. Seeds and search budgets are bounded
# by solvers.limits, as the agents and the engine bound them.
MAX_SHUFFLES = 100_000
MAX_GAMES = 100_000
JSON_DIGITS = 6


class Checked(click.ParamType):
    """A number read by ``base`` (click.INT or click.FLOAT) and checked by
    ``check`` (one of :mod:`solvers.limits`' functions), so that the command
    line refuses exactly what the library and the engine refuse, in the same
    words, as a usage error (exit status 2)."""

    def __init__(self, name: str, base: click.ParamType, check: Callable[[Any], Any]):
        self.name = name
        self.base = base
        self.check = check

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            value = self.base.convert(value, param, ctx)
        try:
            return self.check(value)
        except SolversError as e:
            self.fail(str(e), param, ctx)


#: A seed: 0 to 2**64 - 1.
SEED = Checked("seed", click.INT, lambda v: check_seed("it", v))
#: A search's iterations: 1 to MAX_ITERATIONS.
ITERATIONS = Checked("iterations", click.INT, lambda v: check_whole("it", v, 1, MAX_ITERATIONS))


def seconds_type(minimum: float | None = None, maximum: float = MAX_SECONDS) -> Checked:
    """Seconds: more than 0 (at least ``minimum``), at most ``maximum``, finite."""
    return Checked("seconds", click.FLOAT,
                   lambda v: check_seconds("it", v, maximum=maximum, minimum=minimum))


def plural(count: int | float, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless the count is one.

    >>> plural(1, "game"), plural(3, "tile"), plural(2, "buddy pair"), plural(0, "match", "matches")
    ('1 game', '3 tiles', '2 buddy pairs', '0 matches')
    """
    return f"{count:g} {word if count == 1 else (many or word + 's')}"


def rounded(data: Any, digits: int = JSON_DIGITS) -> Any:
    """``data`` with every float rounded to ``digits`` decimals, so that
    printed reports carry no float noise.

    >>> rounded({"gap": 0.09999999999999998, "ci95": [0.9999999999999999, 1], "n": 3})
    {'gap': 0.1, 'ci95': [1.0, 1], 'n': 3}
    """
    if isinstance(data, float):
        return round(data, digits)
    if isinstance(data, dict):
        return {k: rounded(v, digits) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [rounded(v, digits) for v in data]
    return data


def print_json(data: Any) -> None:
    """``data`` as indented JSON on stdout, floats :func:`rounded`."""
    sys.stdout.write(json.dumps(rounded(data), indent=2) + "\n")


def seconds_option(default: float | None, help: str, **kwargs: Any) -> Callable:
    """A ``--time S`` option: seconds, more than 0 and at most a day."""
    return click.option("--time", "seconds", type=seconds_type(), default=default, metavar="S",
                        help=help, **kwargs)


def make_agent(spec: str, game: Any, seed: int, time: float | None = None,
               iterations: int | None = None, model: str | None = None) -> Any:
    """An agent from a spec (checked: kind, options and their values);
    ``time``/``iterations`` fill in an MCTS budget that the spec leaves out,
    ``seed`` a seed it leaves out, and ``model`` (``--model``) an MCTS
    spec's learned evaluation."""
    from solvers.agents import load_agent, parse_agent_spec

    kind, options = parse_agent_spec(spec)
    options.setdefault("seed", seed)
    if model is not None:
        if kind != "mcts":
            raise SolversError(f"--model is for an MCTS AI, not {kind!r} (--ai mcts:...)")
        if "model" in options:
            raise SolversError("the model is given twice: in --ai's spec and by --model")
        options["model"] = model
    if kind.strip().lower() == "mcts" and "time" not in options and "iterations" not in options:
        if time is not None and iterations is None:
            options["time"] = time
        if iterations is not None:
            options["iterations"] = iterations
    return load_agent(kind, game, **options)


def model_option() -> Callable[[Any], Any]:
    """``--model``: the learned evaluation of an MCTS AI."""
    return click.option("--model", metavar="FILE|none", default=None,
                        help="The MCTS AI's learned evaluation: a model file ('solve train'), "
                             "'none' (rollouts only) or 'default' [default: the model the "
                             "package ships for the game and seat count, if any; else none].")


#: Off a terminal (a log file, ``nohup``, CI) long work writes a plain
#: progress line to stderr at most this often, the first after as long.
LOG_EVERY = 60.0


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


class ProgressLog:
    """Progress as plain lines for a log: ``label: 12/144 (8%), 14m02s
    so far, about 2h31m left``, written only when :data:`LOG_EVERY`
    seconds have passed since the start or the last line (and at the end,
    once a line was written), so that short work writes nothing."""

    def __init__(self, label: str, clock: Callable[[], float] = time.monotonic):
        self.label, self.clock = label, clock
        self.start = self.last = clock()
        self.wrote = False

    def update(self, done: int, total: int) -> None:
        now = self.clock()
        if total <= 0 or (now - self.last < LOG_EVERY and not (self.wrote and done >= total)):
            return
        self.last, self.wrote = now, True
        spent = now - self.start
        line = f"{self.label}: {done}/{total} ({100 * done // total}%), {_clock(spent)} so far"
        if 0 < done < total:
            line += f", about {_clock(spent * (total - done) / done)} left"
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


@contextmanager
def progress(label: str, total: int, force: bool = False) -> Iterator[Callable[..., None]]:
    """A progress bar on stderr (on a terminal, or with ``force``; off a
    terminal a :class:`ProgressLog` line now and then); yields advance(n)."""
    if total <= 0:
        yield lambda n=1: None
        return
    if not (err.is_terminal or force):
        log, done = ProgressLog(label), [0]

        def advance(n: int = 1) -> None:
            done[0] += n
            log.update(done[0], total)

        yield advance
        return
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=err, transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n=1: bar.advance(task, n)


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def play_until_seat_zero(state: Any, ai: Any, announce: Callable[[int, str], None]) -> bool:
    """Deal chance from the game's seed and let ``ai`` move every seat but 0,
    calling ``announce(seat, move)`` for each AI move, in the words seat 0
    may read (a card another seat discards face down stays unnamed); True
    when seat 0 is to move, False when the game is over."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_seeded_chance()
            continue
        seat = state.current_player()
        if seat == 0:
            return True
        action = ai.step(state)
        move = observed_move(state, action, 0)   # as seat 0 sees it
        own = f"player {seat} "
        announce(seat, move[len(own):] if move.startswith(own) else move)
        state.apply_action(action)
    return False


def analysis(game: str, position: str, state: Any, agent: Any, spec: str, seed: int,
             top: int) -> dict[str, Any]:
    """The agent's ranking of the moves of ``state`` as the JSON of
    ``solve GAME analyse``: the best ``top`` moves with rank, words, action,
    mean value and visits."""
    rows = agent.analyse(state)
    return {
        "game": game, "position": position, "to_move": state.current_player(), "step": state.step,
        "agent": spec, "seed": seed,
        "moves": [{"rank": i, "move": r["move"], "action": r["action"], "value": round(r["value"], 4),
                   "visits": r["visits"], **({"value_kind": r["value_kind"]} if "value_kind" in r else {})}
                  for i, r in enumerate(rows[:top], 1)],
        "legal_moves": len(rows),
    }


def print_analysis(data: dict[str, Any], value_label: str = "win share") -> None:
    """The table of an :func:`analysis`."""
    from rich.table import Table

    shown, total = len(data["moves"]), data["legal_moves"]
    t = Table(title=f"Player {data['to_move']} to move ({data['step']}), {data['agent']}: "
                    f"best {shown} of {total} moves")
    for col in ("#", "move", value_label, "visits"):
        t.add_column(col, justify="left" if col == "move" else "right")
    for r in data["moves"]:
        t.add_row(str(r["rank"]), r["move"], f"{r['value']:.3f}", str(r["visits"]))
    out.print(t)


def save_target(save_file: str | None, resume_file: str | None) -> str | None:
    """Where the games go: ``--save``, else the ``--resume`` file. A
    ``--save`` file that exists is refused unless it is the resumed one."""
    if save_file is None:
        return resume_file
    import os

    from solvers.files import check_output_path

    target = check_output_path(save_file, "--save")
    same = resume_file is not None and os.path.realpath(resume_file) == target
    if os.path.exists(target) and not same:
        raise SolversError(f"--save {save_file}: the file exists; continue it with "
                           f"--resume {save_file}, or name another file")
    return save_file
