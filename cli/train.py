"""``solve train GAME``: a learned leaf evaluation by self-play
(:mod:`solvers.learn.train`), with a progress bar and its strength at the end."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

import solvers
from solvers.learn.train import train as run_training

from .common import MAX_GAMES, SEED, err, out, percent, print_json


@contextmanager
def _stages() -> Iterator[Callable[[str, int, int], None]]:
    """progress(stage, done, total) as one rich bar per stage (on a terminal)."""
    if not err.is_terminal:
        yield lambda stage, done, total: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err, transient=True) as bar:
        tasks: dict[str, Any] = {}

        def advance(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done, total=total)

        yield advance


@click.command("train")
@click.argument("game_name", metavar="GAME")
@click.option("--out", "out_path", metavar="FILE", type=click.Path(dir_okay=False),
              default=None, help="Where to write the model [default: GAME-Pp.model.json].")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of every self-play game and of the strength match.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=200, show_default=True,
              metavar="N", help="Self-play games.")
@click.option("--iterations", type=click.IntRange(1, 1_000_000), default=300, show_default=True,
              metavar="N", help="MCTS iterations a move in self-play (and in the strength match).")
@click.option("--players", type=click.IntRange(1, 4), default=None, metavar="P",
              help="Seats [default: the game's own].")
@click.option("--eval-games", type=click.IntRange(0, MAX_GAMES), default=40, show_default=True,
              metavar="N", help="Games of the strength match at the end (0: none).")
@click.option("--mix", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Play setting saved in the model: its weight at a leaf against a rollout "
                   "(1: the model alone, no rollout).")
@click.option("--rollout-plies", type=click.IntRange(0, 10_000), default=10, show_default=True,
              metavar="K", help="Play setting saved in the model: rollouts stop after K actions "
                                "and the model values the position there (0: to the end).")
@click.option("--resume", is_flag=True,
              help="Go on from the checkpoint FILE.ckpt.npz a stopped run left.")
@click.option("--json", "as_json", is_flag=True, help="Print the model's record as JSON.")
def train(game_name: str, out_path: str | None, seed: int, games: int, iterations: int,
          players: int | None, eval_games: int, mix: float, rollout_plies: int, resume: bool,
          as_json: bool) -> None:
    """Train a learned evaluation for GAME by self-play.

    \b
    solve train switchbacks --games 200 --seed 1
    solve train switchbacks --games 2 --iterations 20 --eval-games 2   (a quick check)

    Plain MCTS plays itself; each position gives every seat's features (what
    that seat may see, never a hidden card) and its final return; a logistic
    model is fitted to them. The model is evaluated in C at the search's
    leaves: play it with 'mcts:model=FILE'. At the end a match against plain
    MCTS at the same iterations gives its strength (seats rotated, 95%
    interval). A stopped run goes on with --resume. See docs/learning.md.
    """
    name = solvers.canonical_game_name(game_name)
    if out_path is None:
        p = players or solvers.load_game(name).num_players
        out_path = f"{name}-{p}p.model.json"
    command = "solve train " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == [
        "train"] else f"solve train {name} --seed {seed} --games {games} --iterations {iterations}"
    with _stages() as advance:
        model = run_training(name, out=out_path, seed=seed, games=games, iterations=iterations,
                             players=players, resume=resume, eval_games=eval_games,
                             command=command, progress=advance, mix=mix,
                             rollout_plies=rollout_plies)
    if as_json:
        print_json(model.to_json())
        return
    t = model.training
    out.print(f"model: {out_path} ({t['features']} features, {t['samples']:,} samples from "
              f"{t['games']} games, log loss {t['log_loss']})")
    s = model.strength
    if s:
        lo, hi = s["ci95"]
        out.print(f"strength: {s['wins']:g} wins in {s['games']} games against "
                  f"'{s['opponent']}': {percent(s['win_rate'])} (95% {percent(lo)}-{percent(hi)})")
