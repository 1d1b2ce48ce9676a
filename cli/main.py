"""The ``solve`` command: entry point and error handling.

Every error a user can cause (a typo in a name, a malformed file) is a
``SolversError``; it is printed as one line on stderr and the command exits
with status 2. Usage mistakes caught by click exit with 2 as well, and so
does a command group run without a command (``solve``, ``solve c2c``): its
help goes to stderr (``--help`` prints it on stdout and exits 0). A job of
a parallel run that fails (``solvers.parallel.JobError``) is one line too,
naming the job, with exit status 1.

Ctrl-C ends a command with status 130, and SIGTERM (``kill PID``, the way
to stop a run left in the background, where Ctrl-C cannot reach it) with
143; either is raised where the command is, so a long run saves what it
has finished first (``solve tournament --save``, ``solve ladder --save``,
``solve train``'s checkpoint).
"""

from __future__ import annotations

import signal
import sys
import threading
from typing import Any

import click

import solvers
from solvers.errors import SolversError
from solvers.parallel import JobError
from solvers.registry import games, load_object

from .bench import bench
from .common import NoCommand
from .engine import engine
from .ladder import ladder
from .serve import serve
from .tournament import tournament
from .train import train
from .verbs import game_group

#: A group run without a command: ours, and click's own (click 8.2 on).
NO_COMMAND: tuple[type[click.UsageError], ...] = (NoCommand,) + tuple(
    t for t in (getattr(click.exceptions, "NoArgsIsHelpError", None),) if t is not None)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(solvers.__version__, prog_name="solve")
def cli() -> None:
    """Play and solve Coast to Coast, Switchbacks, Big Sur and Santa Cruz.

    \b
    Examples:
      solve c2c --challenge "Wrigley Field"     can it be won, how often, how well?
      solve c2c --deal my-shuffle.txt           the best play for a shuffle you played
      solve c2c --all-challenges --csv          every challenge in one table
      solve c2c play --challenge "The Alamo"    play a solo challenge, with hints
      solve switchbacks play --players 2        play Switchbacks against the AI
      solve bigsur score HIGHWAY.json           a Big Sur Highway's score, broken down
      solve tournament switchbacks --agents mcts:time=0.5,greedy --games 20
      solve ladder switchbacks --games 20 --save ladder.json   Elo ratings of the agents
      solve engine                              serve an AI over JSON lines (docs/engine-protocol.md)
      solve serve                               play and solve in the browser (pip install ".[web]")
      solve bench compare                       the benchmarks' ratios, last two saved runs

    Run 'solve GAME --help' for a game's commands.
    """


# Each game's command group comes from its record (solvers.registry): the
# common verbs (solvers.cli.verbs), added to the game's own group if it has one.
for command in [game_group(g, load_object(g.cli) if g.cli else None) for g in games()] + [
        tournament, ladder, train, engine, serve, bench]:
    cli.add_command(command)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread as Ctrl-C's KeyboardInterrupt is,
    so that the same clean-up runs (files saved, workers stopped)."""


def _terminate(signum: int, frame: Any) -> None:
    raise Terminated()


def _catch_sigterm() -> Any:
    """Turn SIGTERM into :class:`Terminated` while a command runs, when
    this is the main thread and nobody else handles SIGTERM; what to put
    back afterwards (None: nothing was changed)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return None
    return signal.signal(signal.SIGTERM, _terminate)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    previous = _catch_sigterm()
    try:
        return _main(argv)
    except Terminated:
        click.echo("solve: terminated", err=True)
        return 143
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main(argv: list[str] | None) -> int:
    try:
        code = cli.main(args=argv, prog_name="solve", standalone_mode=False)
    except SolversError as e:
        click.echo(f"solve: error: {e}", err=True)
        return 2
    except JobError as e:              # a job of a parallel run raised: not the user's input
        click.echo(f"solve: error: {e}", err=True)
        return 1
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.UsageError as e:
        if isinstance(e, NO_COMMAND):
            # A group run bare: its help, on stderr, as a usage error.
            click.echo(e.format_message(), err=True)
            return 2
        where = e.ctx.command_path if e.ctx is not None else "solve"
        click.echo(f"solve: error: {e.format_message()} (see '{where} --help')", err=True)
        return 2
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.exceptions.Abort as e:
        if isinstance(e.__cause__, Terminated):
            raise e.__cause__ from None
        click.echo("solve: aborted", err=True)
        return 130
    except Terminated:
        raise
    except KeyboardInterrupt:
        click.echo("solve: interrupted", err=True)
        return 130
    # Without standalone mode, click returns the code of a ctx.exit(code)
    # (and a command's return value, which ours never give).
    return code if isinstance(code, int) and not isinstance(code, bool) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
