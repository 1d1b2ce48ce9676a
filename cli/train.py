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
from solvers.errors import SolversError
from solvers.learn.train import train as run_training
from solvers.registry import game_info

from .common import MAX_GAMES, SEED, ProgressLog, err, out, percent, print_json


@contextmanager
def _stages() -> Iterator[Callable[[str, int, int], None]]:
    """progress(stage, done, total) as one rich bar per stage (on a
    terminal; off one, a ``ProgressLog`` line now and then)."""
    if not err.is_terminal:
        logs: dict[str, ProgressLog] = {}

        def log(stage: str, done: int, total: int) -> None:
            logs.setdefault(stage, ProgressLog(stage)).update(done, total)

        yield log
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
@click.option("--iterations", type=click.IntRange(1, 1_000_000), default=None, metavar="N",
              help="MCTS iterations a move in self-play (and in the strength match) "
                   "[default: 300; solo Coast to Coast: 2000, the player whose games give "
                   "the positions].")
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
              help="Go on from the checkpoint FILE.ckpt.npz a stopped run left (solo "
                   "values: or one of fewer or more --games, whose round-3 samples it keeps).")
@click.option("--keep-checkpoint", is_flag=True,
              help="Solo values: leave FILE.ckpt.npz when done, so that a later run with "
                   "more --games and --resume grows from its samples.")
@click.option("--challenge", metavar="NAME",
              help="Solo Coast to Coast: train the values of this challenge card.")
@click.option("--player", metavar="SPEC",
              help="Solo values: the agent whose games give the positions [default: "
                   "mcts:iterations=2000]; the learned player of an earlier file "
                   "('online:early=report,learned=4,values=FILE') makes a second pass.")
@click.option("--hands", type=click.IntRange(1, 1000), default=None, metavar="K",
              help="Solo values: hands of the next round a sample averages, after the setup "
                   "and rounds 1-2 [default: 1]; more make less noisy targets, each costing "
                   "a round's ends.")
@click.option("--self-play-model", metavar="FILE", default=None,
              help="A model the self-play searches use, with its play settings: a second "
                   "generation learns from stronger play [default: none, plain MCTS].")
@click.option("--hidden", metavar="WIDTHS", default=None,
              help="Fit a small network with hidden layers of these widths (e.g. '32' or "
                   "'64,32'; ReLU units, evaluated in C at the leaves) instead of a logistic "
                   "regression [default: none].")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Games played side by side, in self-play and the strength match "
                   "[default: all cores]; the model is the same on any number.")
@click.option("--json", "as_json", is_flag=True, help="Print the model's record as JSON.")
def train(game_name: str, out_path: str | None, seed: int, games: int, iterations: int | None,
          players: int | None, eval_games: int, mix: float, rollout_plies: int, resume: bool,
          keep_checkpoint: bool, challenge: str | None, player: str | None, hands: int | None,
          self_play_model: str | None, hidden: str | None, workers: int | None,
          as_json: bool) -> None:
    """Train a learned evaluation for GAME by self-play.

    \b
    solve train switchbacks --games 200 --seed 1
    solve train bigsur --games 3000 --hidden 32 --rollout-plies 40   (a network)
    solve train switchbacks --games 2 --iterations 20 --eval-games 2   (a quick check)
    solve train c2c --games 4800                    (solo: the values between rounds)
    solve train c2c --challenge "Wrigley Field" --games 4800

    Solo Coast to Coast learns instead the value of a sheet after each round
    before the last two, backward from round 3 to the setup (fitted value
    iteration, docs/learning.md): --games is the positions a round, played
    by the challenge reports' player; the file (default: the package's name
    for it) is what 'online:learned=4,values=FILE' plays with.

    Plain MCTS plays itself; each position gives every seat's features (what
    that seat may see, never a hidden card) and its final return; a logistic
    model (with --hidden, a small network) is fitted to them. The model is
    evaluated in C at the search's leaves: play it with 'mcts:model=FILE'.
    At the end a match against plain MCTS at the same iterations gives its
    strength (seats rotated, 95% interval). A checkpoint is kept every minute and when the run stops
    (Ctrl-C included); a stopped run goes on with --resume. See
    docs/learning.md.
    """
    name = solvers.canonical_game_name(game_name)
    info = game_info(name)
    seats = players or info.default_players
    if challenge is not None and (seats != 1 or info.solo_trainer is None):
        raise SolversError("--challenge: only solo values of a game with a challenge card are "
                           "trained with one (solve train c2c --challenge NAME)")
    for flag, given in (("--hands", hands), ("--player", player),
                        ("--keep-checkpoint", keep_checkpoint or None)):
        if given is not None and (seats != 1 or info.solo_trainer is None):
            raise SolversError(f"{flag}: only solo values take it (solve train c2c {flag} ...)")
    widths = _widths(hidden)
    if hidden is not None and seats == 1 and info.solo_trainer is not None:
        raise SolversError("--hidden: solo values have their own network (docs/learning.md)")
    if self_play_model is not None and seats == 1 and info.solo_trainer is not None:
        raise SolversError("--self-play-model: solo values take --player instead "
                           "(solve train c2c --player 'online:learned=4,values=FILE')")
    if seats == 1 and info.solo_trainer is not None:
        _train_solo(name, info.solo_trainer, out_path, seed, games, iterations, workers, resume,
                    challenge, hands or 1, player, as_json, keep_checkpoint)
        return
    iterations = iterations or 300
    if out_path is None:
        p = players or solvers.load_game(name).num_players
        out_path = f"{name}-{p}p.model.json"
    command = "solve train " + " ".join(shlex.quote(a) for a in sys.argv[2:]) if sys.argv[1:2] == [
        "train"] else f"solve train {name} --seed {seed} --games {games} --iterations {iterations}"
    with _stages() as advance:
        model = run_training(name, out=out_path, seed=seed, games=games, iterations=iterations,
                             players=players, resume=resume, eval_games=eval_games,
                             command=command, progress=advance, mix=mix,
                             rollout_plies=rollout_plies, workers=workers,
                             self_play_model=self_play_model, hidden=widths)
    if as_json:
        print_json(model.to_json())
        return
    t = model.training
    shape = f", hidden layers {'x'.join(map(str, t['hidden']))}" if t.get("hidden") else ""
    held = " held out" if t.get("hidden") else ""
    out.print(f"model: {out_path} ({t['features']} features{shape}, {t['samples']:,} samples "
              f"from {t['games']} games, log loss{held} {t['log_loss']})")
    s = model.strength
    if s:
        lo, hi = s["ci95"]
        n = s.get("opponents", 1)
        them = f"'{s['opponent']}'" if n == 1 else f"{n} copies of '{s['opponent']}'"
        share = "" if n == 1 else f"; a fair share is {percent(s['fair_share'])}"
        out.print(f"strength: {s['wins']:g} wins in {s['games']} games against {them}: "
                  f"{percent(s['win_rate'])} (95% {percent(lo)}-{percent(hi)}){share}")


def _widths(hidden: str | None) -> tuple[int, ...]:
    """--hidden '64,32' as (64, 32); one error line for anything else."""
    if hidden is None:
        return ()
    try:
        widths = tuple(int(w) for w in hidden.split(","))
    except ValueError:
        widths = ()
    if not widths or not all(1 <= w <= 1024 for w in widths) or len(widths) > 7:
        raise SolversError(f"--hidden: 1 to 7 layer widths from 1 to 1024, comma-separated "
                           f"(e.g. '32' or '64,32'), not {hidden!r}")
    return widths


def _train_solo(name: str, trainer: str, out_path: str | None, seed: int, games: int,
                iterations: int | None, workers: int | None, resume: bool, challenge: str | None,
                hands: int, player: str | None, as_json: bool, keep_checkpoint: bool) -> None:
    """The record's solo trainer (solvers.games.c2c.values.train_solo for c2c)."""
    from solvers.parallel import default_workers
    from solvers.registry import load_object

    from .tournament import parse_game_options

    options = parse_game_options(name, (), challenge=challenge)
    command = "solve train " + " ".join(shlex.quote(a) for a in sys.argv[2:]) \
        if sys.argv[1:2] == ["train"] else f"solve train {name} --seed {seed} --games {games}"
    with _stages() as advance:
        summary = load_object(trainer)(options, out=out_path, seed=seed, games=games,
                                     workers=workers or default_workers(), resume=resume,
                                     command=command, progress=advance,
                                     iterations=iterations, hands=hands, player=player,
                                     keep_checkpoint=keep_checkpoint)
    if as_json:
        print_json(summary)
        return
    out.print(f"values: {summary['file']} ({summary['features']} features, "
              f"{summary['positions']:,} positions a round, {summary['seconds']} s)")
    for r, fit in sorted(summary["fit"].items(), reverse=True):
        when = f"after round {r}" if r != "0" else "after the setup"
        out.print(f"  {when}: {fit['samples']:,} samples, held-out error "
                  f"{fit['rmse_points']:.2f} points (their spread {fit['sd_points']:.2f})")
