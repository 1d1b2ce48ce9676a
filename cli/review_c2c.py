"""What ``solve c2c review GAME.json`` adds for a solo game: the score
against hindsight on the same deal and the decisions that cost the most, by
the online player's judgement at each decision
(:func:`solvers.games.c2c.review.review_game`)."""

from __future__ import annotations

from typing import Any

import click

from solvers.errors import SolversError
from solvers.games.c2c.review import JUDGES

from .common import seconds_type


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
    judge = "the learned values" if r.judge == "learned" else "re-dealt futures"
    lost = ("chance of completing the challenge lost" if r.cost_unit == "chance"
            else "expected points lost")
    lines.append(f"Costliest decisions ({lost}, as judged with the cards seen then: "
                 f"by {judge} before round 4, exactly from round 4):")
    for d in worst:
        if d.played_win_rate is None:
            cost = f"-{d.cost:.1f} points"
        else:
            cost = (f"win chance {d.played_win_rate:.0%} -> {d.preferred_win_rate:.0%}: "
                    f"-{d.cost:.1f} percentage points; expected score {d.played_value:.1f} -> "
                    f"{d.preferred_value:.1f}")
        lines.append(f"  round {d.round}, decision {d.index + 1}: played '{d.played}', "
                     f"prefer '{d.preferred}' ({cost})")
    return lines


class HindsightExtra:
    """What ``solve c2c review`` adds to the generic review of a finished
    solo game (``GameInfo.review_extra``, :mod:`solvers.cli.review`): the
    score against hindsight on the same deal and the online player's
    costliest decisions, as :func:`solvers.games.c2c.review.review_game`."""

    options = [
        click.Option(["--samples"], type=click.IntRange(1), default=48, show_default=True,
                     help="Solo: re-dealt futures judging each decision before round 4 "
                          "for the hindsight report (with --judge futures)."),
        click.Option(["--time-limit"], type=seconds_type(0.1), default=30.0, show_default=True,
                     metavar="S", help="Solo: seconds allowed to the hindsight solve."),
        click.Option(["--judge"], type=click.Choice(JUDGES), default="auto", show_default=True,
                     help="Solo: what values the setup's and rounds 1-3's moves for the "
                          "hindsight report: the learned values that ship for a challenge, "
                          "re-dealt futures, or auto (the learned values where the hints "
                          "play with them). Rounds 4-5 are judged exactly."),
    ]

    def run(self, record: Any, seed: int, top: int, samples: int = 48,
            time_limit: float = 30.0, judge: str = "auto") -> tuple[dict, list[str]] | None:
        from solvers.games.c2c.record import history_position
        from solvers.games.c2c.review import review_game

        if record.players != 1:
            return None
        if record.returns is None:
            raise SolversError("the game is not finished: the hindsight report needs every card dealt")
        r = review_game(history_position(record), samples=samples, seed=seed, time_limit=time_limit,
                        judge=judge)
        return r.as_dict(top), [_plain(line) for line in hindsight_lines(r, top)]


def _plain(line: str) -> str:
    return line.replace("[bold]", "").replace("[/bold]", "")


#: The hook ``GameInfo.review_extra`` names.
EXTRA = HindsightExtra()
