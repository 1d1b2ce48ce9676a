"""``solve c2c review GAME.json``: a played solo game against hindsight and
against the strong online player's judgement at each decision."""

from __future__ import annotations

from typing import Any

import click

from solvers.data import read_json
from solvers.errors import SolversError

from .common import SEED, out, print_json, seconds_type


def read_game(path: str) -> dict:
    """The saved game at ``path`` as a JSON object (SolversError otherwise)."""
    record = read_json(path, "game file")
    if not isinstance(record, dict):
        raise SolversError(f"{path}: a saved game is a JSON object")
    return record


@click.command("review")
@click.argument("game_file", metavar="GAME.json")
@click.option("--top", type=click.IntRange(1), default=5, show_default=True,
              help="How many of the costliest decisions to list.")
@click.option("--samples", type=click.IntRange(1), default=48, show_default=True,
              help="Re-dealt futures judging each decision's moves before round 4 "
                   "(rounds 4 and 5 are judged exactly).")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the re-deals.")
@click.option("--time-limit", type=seconds_type(0.1), default=30.0, show_default=True,
              metavar="S", help="Seconds allowed to the hindsight solve.")
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
def review(game_file: str, top: int, samples: int, seed: int, time_limit: float,
           as_json: bool) -> None:
    """Review a solo game you played (saved by 'solve c2c play --save').

    \b
    The score you made, the best score with hindsight on the same deal,
    whether the challenge could have been won (and, if you lost it, in which
    round it was lost; without a challenge, the points each round left
    behind against hindsight), and the decisions that cost
    the most by the online player's estimate at that moment (seeing only the
    cards you had seen), each with the move it prefers. In rounds 4 and 5
    that estimate is exact: every hand the unseen cards could still make,
    each played as well as it can be.
    \b
    solve c2c review game.json
    """
    from solvers.games.c2c.review import review_game

    r = review_game(read_game(game_file), samples=samples, seed=seed, time_limit=time_limit)
    if as_json:
        print_json(r.as_dict(top))
        return
    for line in hindsight_lines(r, top):
        out.print(line)


def hindsight_lines(r: Any, top: int) -> list[str]:
    """The report of :func:`solvers.games.c2c.review.review_game` as lines
    (rich markup: bold)."""
    lines = []
    title = "Review" + ("" if r.challenge is None else f", challenge {r.challenge}")
    lines.append(f"[bold]{title}[/bold]")
    won = "" if r.won is None else (" (challenge won)" if r.won else " (challenge lost)")
    lines.append(f"Your score: [bold]{r.score}[/bold]{won}")
    if r.hindsight_status == "infeasible":
        lines.append("With hindsight: this deal could not win the challenge, whatever the play (proven).")
    else:
        proven = "proven" if r.hindsight_status == "optimal" else f"best found, {r.hindsight_status}"
        lines.append(f"With hindsight: {r.hindsight_score} ({proven})"
                     + ("; the challenge could have been won" if r.hindsight_won else ""))
    if r.lost_in_round is not None:
        when = "at the setup" if r.lost_in_round == 0 else f"in round {r.lost_in_round}"
        lines.append(f"It was lost {when}: after those moves no play could win it "
                     "(hindsight, with your moves so far fixed).")
    if r.points_lost is not None:
        stages = ["setup"] + [f"round {k}" for k in range(1, len(r.points_lost))]
        lines.append("Points left behind against hindsight (the best score still possible after "
                     "each stage's moves): "
                     + ", ".join(f"{s} {p}" for s, p in zip(stages, r.points_lost, strict=True)) + ".")
    worst = r.costliest(top)
    if not worst:
        lines.append("No decision cost anything by the online player's estimate.")
        return lines
    lines.append("Costliest decisions (expected points lost, as judged with the cards seen then):")
    for d in worst:
        rates = ("" if d.played_win_rate is None else
                 f", win chance {d.played_win_rate:.0%} -> {d.preferred_win_rate:.0%}")
        lines.append(f"  round {d.round}, decision {d.index + 1}: played '{d.played}', "
                     f"prefer '{d.preferred}' (-{d.cost:.1f}{rates})")
    return lines


class HindsightExtra:
    """What ``solve c2c review`` adds to the generic review of a finished
    solo game (``GameInfo.review_extra``, :mod:`solvers.cli.review`): the
    score against hindsight on the same deal and the online player's
    costliest decisions, as :func:`solvers.games.c2c.review.review_game`."""

    options = [
        click.Option(["--samples"], type=click.IntRange(1), default=48, show_default=True,
                     help="Solo: re-dealt futures judging each decision for the hindsight report."),
        click.Option(["--time-limit"], type=seconds_type(0.1), default=30.0, show_default=True,
                     metavar="S", help="Solo: seconds allowed to the hindsight solve."),
    ]

    def run(self, record: Any, seed: int, top: int, samples: int = 48,
            time_limit: float = 30.0) -> tuple[dict, list[str]] | None:
        from solvers.games.c2c.record import history_position
        from solvers.games.c2c.review import review_game

        if record.players != 1:
            return None
        if record.returns is None:
            raise SolversError("the game is not finished: the hindsight report needs every card dealt")
        r = review_game(history_position(record), samples=samples, seed=seed, time_limit=time_limit)
        return r.as_dict(top), [_plain(line) for line in hindsight_lines(r, top)]


def _plain(line: str) -> str:
    return line.replace("[bold]", "").replace("[/bold]", "")


#: The hook ``GameInfo.review_extra`` names.
EXTRA = HindsightExtra()
