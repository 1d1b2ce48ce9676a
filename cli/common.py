"""Small presentation helpers shared by the commands: output, progress bars."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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


def start_backend(backend: str, address: str | None, workers: int | None) -> None:
    """Check the backend before any work: Ray installed, the cluster joined
    (SolversError, one line, otherwise)."""
    from solvers.parallel import check_backend, ray_connect

    check_backend(backend, address)
    if backend == "ray":
        ray_connect(address, workers)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@contextmanager
def progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr (shown only on a terminal); yields advance(n)."""
    if not err.is_terminal or total <= 0:
        yield lambda n=1: None
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
    calling ``announce(seat, move)`` for each AI move; True when seat 0 is to
    move, False when the game is over."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_seeded_chance()
            continue
        seat = state.current_player()
        if seat == 0:
            return True
        action = ai.step(state)
        announce(seat, state.action_to_string(action))
        state.apply_action(action)
    return False


def ask_move(state: Any, ai: Any, parse: Callable[[str], int], *, help_line: str,
             value_label: str = "value",
             commands: Mapping[str, Callable[[], int | None]] | None = None) -> int | None:
    """Prompt until the player names a legal move; None when they quit.

    Understood everywhere: ``quit``/``exit``/``q`` (or end of input),
    ``hint``/``?`` (the AI's three best moves), a move's number in
    ``state.legal_actions()``; any other word in ``commands`` runs it (an
    action it returns is played, None asks again); anything else goes to
    ``parse``, whose SolversError is shown with ``help_line``.
    """
    from solvers.errors import SolversError

    legal = state.legal_actions()
    while True:
        try:
            text = click.prompt("Your move", default="", show_default=False).strip()
        except (click.exceptions.Abort, EOFError):
            return None
        if not text:
            continue
        low = text.lower()
        if low in ("quit", "exit", "q"):
            return None
        if low in ("hint", "?"):
            for row in ai.analyse(state)[:3]:
                out.print(f"  AI suggests: {row['move']}  ({value_label} {row['value']:.3f}, "
                          f"{row['visits']} visits)")
            continue
        if commands and low in commands:
            action = commands[low]()
            if action is not None:
                return action
            continue
        if low.isdigit() and 1 <= int(low) <= len(legal):
            return legal[int(low) - 1]
        try:
            return parse(text)
        except SolversError as e:
            out.print(f"  {e}. {help_line}")


def agent_from_spec(spec: str, game: Any, seed: int, time: float | None = None,
                    iterations: int | None = None) -> Any:
    """An agent from a spec (``mcts:iterations=500``); ``time`` or
    ``iterations`` fill in an MCTS budget that the spec leaves out
    (``iterations`` first)."""
    from solvers.agents import load_agent, parse_agent_spec

    kind, options = parse_agent_spec(spec)
    options.setdefault("seed", seed)
    if kind == "mcts" and "time" not in options and "iterations" not in options:
        if iterations is not None:
            options["iterations"] = iterations
        elif time is not None:
            options["time"] = time
    return load_agent(kind, game, **options)


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
                   "visits": r["visits"]} for i, r in enumerate(rows[:top], 1)],
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
