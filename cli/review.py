"""``solve GAME review GAME.json``: review any game's record.

:func:`make_review` builds the command for one game from its record
(:class:`solvers.registry.GameInfo`); it never names a game. It reads a game
record (:mod:`solvers.record`; an engine history position, the format
``solve c2c play --save`` wrote before records, is converted), reviews it
with MCTS (:func:`solvers.review.review_record`) and prints
:func:`solvers.review.format_review`, or the review as JSON.

A game may add a report of its own through ``GameInfo.review_extra``, a
``"module:attribute"`` naming an object with

* ``options``: a list of :class:`click.Option` the command also takes;
* ``run(record, seed, top, **options) -> (data, lines) | None``: a dict
  merged into the JSON output and the lines printed after the review
  (None: nothing to add for this record). SolversError for a record it
  cannot report on: the command prints the message as a note and goes on.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from solvers.errors import SolversError
from solvers.registry import GameInfo, load_object

from .common import ITERATIONS, SEED, out, print_json


def _extra(info: GameInfo) -> Any:
    return load_object(info.review_extra) if info.review_extra else None


def _progress(done: int, total: int) -> None:
    click.echo(f"\rreviewing step {done}/{total}", err=True, nl=done == total)


def make_review(info: GameInfo) -> click.Command:
    """The ``review`` command of ``info``'s game (see the module docstring)."""
    extra = _extra(info)

    def review(game_file: str, iterations: int, seed: int, as_json: bool, top: int,
               **extra_options: Any) -> None:
        from solvers.record import load_record
        from solvers.review import format_review, review_record

        record = load_record(game_file)
        if record.game != info.name:
            raise SolversError(f"{game_file}: this is a record of {record.info.title}, "
                               f"not of {info.title}")
        show = _progress if sys.stderr.isatty() and not as_json else None
        r = review_record(record, budget=iterations, seed=seed, progress=show)
        added: tuple[dict[str, Any], list[str]] | None = None
        note = None
        if extra is not None:
            try:
                added = extra.run(record, seed=seed, top=top, **extra_options)
            except SolversError as e:
                note = str(e)
        if as_json:
            data = r.to_json(top)
            if added is not None:
                data.update(added[0])
            if note is not None:
                data["note"] = note
            print_json(data)
            return
        out.print(format_review(r, top), markup=False)
        if added is not None:
            out.print("")
            for line in added[1]:
                out.print(line, markup=False)
        if note is not None:
            out.print(f"\n({note})", markup=False)

    review.__doc__ = (
        f"""Review a {info.title} game record move by move.

    \b
    Each decision of the record's seat (every player's in a referee record)
    is searched with MCTS from what the mover could see, and graded by how
    much it lost against the move the search prefers: inaccuracy, mistake or
    blunder. Values are win chances with several players, the expected
    score alone. A small budget is quick and noisy: give more --iterations
    for a steadier review.
    \b
    Example:
      solve {info.name} review game.json --iterations 400 --top 8
    """)
    command = click.command("review")(review)
    params = [
        click.Argument(["game_file"], metavar="GAME.json"),
        click.Option(["--iterations"], type=ITERATIONS, default=200, show_default=True,
                     help="MCTS iterations for each search (one or three a step)."),
        click.Option(["--seed"], type=SEED, default=0, show_default=True,
                     help="Seed of the searches: the same seed gives the same review."),
        click.Option(["--json", "as_json"], is_flag=True, help="Print the review as JSON."),
        click.Option(["--top"], type=click.IntRange(1), default=5, show_default=True,
                     help="How many of the costliest decisions to list."),
    ]
    command.params = params + list(getattr(extra, "options", []) if extra is not None else [])
    return command


__all__ = ["make_review"]
