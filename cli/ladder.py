"""``solve ladder``: players meet in pairs (every pair by default), one Elo
scale for all, 95% intervals from a bootstrap over games. The work is done
by :mod:`solvers.ladder`."""

from __future__ import annotations

import os

import click

import solvers
from solvers.errors import SolversError
from solvers.ladder import DEFAULT_TIMES, Ladder, LadderTable, default_players, plot_ladder, timed_players
from solvers.tournament import split_agent_list

from .common import (
    MAX_GAMES,
    SEED,
    backend_options,
    default_workers,
    out,
    plural,
    print_json,
    progress,
    save_resume_options,
    save_target,
    start_backend,
)
from .tournament import parse_game_options


def _times(text: str | None) -> list[float]:
    if text is None:
        return list(DEFAULT_TIMES)
    from solvers.limits import check_seconds

    times = []
    for piece in filter(None, (p.strip() for p in text.split(","))):
        try:
            value = float(piece)
        except ValueError:
            raise SolversError(f"--times takes seconds separated by commas, not {piece!r}") from None
        times.append(check_seconds("--times", value))
    if not times:
        raise SolversError("--times takes seconds separated by commas, e.g. 0.05,0.2,1,5")
    return times


@click.command("ladder")
@click.argument("game_name", metavar="GAME")
@click.option("--players", "player_list", metavar="LIST",
              help="The players, agent specs separated by commas, e.g. "
                   "'random,greedy,mcts:time=0.2' (a piece holding '=' is an option of the "
                   "player before it) [default: random, greedy, OpenSpiel's ISMCTS where it "
                   "runs, and mcts at each of --times].")
@click.option("--timed", "timed_kinds", multiple=True, metavar="KIND",
              help="Add KIND (an agent kind, with options if any: 'mcts:c=2') at each of "
                   "--times seconds a move; repeat for more kinds.")
@click.option("--times", "times_text", metavar="LIST",
              help="The seconds a move of the timed players [default: 0.05,0.2,1,5].")
@click.option("--against", "against_list", metavar="LIST",
              help="New players (all of them, without --resume) meet only these players "
                   "(agent specs, as --players), e.g. a new 'mcts:time=5' rated against "
                   "'mcts:time=1' alone; a resumed file's pairings stay [default: everyone].")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=None, metavar="N",
              help="Games a pairing (deals for a 1-seat game) [default: 10, or the "
                   "resumed file's].")
@click.option("--seats", type=click.IntRange(1, 4), default=None, metavar="P",
              help="Seats a game [default: the game's own, or the resumed file's].")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the deals, the players' choices and the bootstrap [default: 0, "
                   "or the resumed file's].")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Games played side by side [default: all cores; with Ray, all the "
                   "cluster's CPUs].")
@backend_options
@click.option("--option", "game_options", multiple=True, metavar="NAME=VALUE",
              help="A game option, e.g. challenge=\"The Alamo\" for c2c; repeat for more.")
@save_resume_options(
    "Save the games played and the table to FILE as they finish (JSON); an existing FILE is "
    "refused unless it is the --resume file.",
    "Read a saved ladder and play only the games it lacks (new players, more games); saved "
    "back to FILE unless --save names another.")
@click.option("--prior", type=click.FloatRange(0, 1000), default=1.0, show_default=True,
              help="Drawn virtual games added to each pairing (keeps a clean sweep finite).")
@click.option("--bootstrap", "bootstraps", type=click.IntRange(0, 100_000), default=1000,
              show_default=True, metavar="B", help="Bootstrap resamples for the 95% intervals.")
@click.option("--plot", "plot_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Draw rating against measured time a move (.png, .svg or .pdf; needs "
                   "matplotlib: pip install \".[plot]\").")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def ladder(game_name: str, player_list: str | None, timed_kinds: tuple[str, ...],
           times_text: str | None, against_list: str | None, games: int | None,
           seats: int | None, seed: int | None, workers: int | None, backend: str,
           address: str | None, game_options: tuple[str, ...],
           save_file: str | None, resume_file: str | None, prior: float, bootstraps: int,
           plot_file: str | None, as_json: bool) -> None:
    """A rating ladder at GAME: players meet in pairs (every pair by default), Elo ratings.

    \b
    solve ladder switchbacks --games 20 --save ladder.json
    solve ladder switchbacks --resume ladder.json --games 40      (20 more a pairing)
    solve ladder switchbacks --resume ladder.json --timed mcts:model=sb.json
    solve ladder switchbacks --resume ladder.json --times 5 --timed mcts --against mcts:time=1
    solve ladder bigsur --players random,greedy,mcts:iterations=200 --plot ladder.png

    Seats alternate from game to game and both seatings share a deal; with
    more than two seats a pair fills them in turn and each game gives a
    pairwise result for every seat of one against every seat of the other
    (by return, then score). In a 1-seat game every player plays the same
    deals. Ratings: Bradley-Terry by maximum likelihood on the Elo scale,
    random (else the first player) at 0; intervals: 95%, a bootstrap over
    each pairing's games. Each row says what it measures: equal time (a
    time a move), equal budget (simulations a move) or the player's own,
    and the time and simulations a move measured.
    """
    name = solvers.canonical_game_name(game_name)
    options = parse_game_options(name, game_options)
    if plot_file is not None:
        from .c2c import check_plot_path

        check_plot_path(plot_file)
    save = save_target(save_file, resume_file)
    times = _times(times_text)
    players: list[str] | None = None
    if player_list is not None:
        players = split_agent_list(player_list)
    if timed_kinds:
        if players is None and resume_file is None:
            players = default_players(name, seats, times=times, **options)
        elif players is None:
            players = list(Ladder(name, resume=resume_file).players)
        players = players + [p for p in timed_players(timed_kinds, times) if p not in players]
    elif players is None and times_text is not None and resume_file is None:
        players = default_players(name, seats, times=times, **options)
    lad = Ladder(name, players, games, seats=seats, seed=seed, resume=resume_file,
                 against=against_list, **options)
    start_backend(backend, address, workers)
    if workers is None:
        workers = default_workers() if backend == "local" else None
    todo = len(lad.missing())
    with progress(f"{name} ladder", todo) as advance:
        lad.play(workers=workers, backend=backend, address=address, progress=advance, save=save)
    table = lad.table(prior=prior, bootstraps=bootstraps)
    if save is not None:
        lad.save(save, table)
    if plot_file is not None:
        plot_ladder(table, plot_file)
    if as_json:
        data = table.to_json()
        if save is not None:
            data["saved"] = os.path.abspath(save)
        print_json(data)
    else:
        show(table, workers=workers, saved=save, plot=plot_file)


def _rating(x: float) -> str:
    return "inf" if x == float("inf") else "-inf" if x == float("-inf") else f"{x:.0f}"


def _measures(measures: str, budget: str) -> str:
    """A row's budget, short: "time 0.2 s", "budget 500 sims", "own: no search"."""
    short = budget.replace(" a move", "").replace("simulations", "sims").replace("its ", "")
    if measures == "equal time":
        return f"time {short}"
    if measures == "equal budget":
        return f"budget {short}"
    return f"own: {short}"


def _seconds(x: float) -> str:
    """Seconds a move, in s or ms.

    >>> _seconds(0.0024), _seconds(1.53), _seconds(0.0000147)
    ('2.4 ms', '1.53 s', '0.015 ms')
    """
    return f"{x:.3g} s" if x >= 0.1 else f"{1000 * x:.2g} ms"


def show(table: LadderTable, workers: int | None = None, saved: str | None = None,
         plot: str | None = None) -> None:
    """The table, best first: rating with its 95% interval, games, the share
    of pairwise results won, what the row measures and the budget measured."""
    from rich import box
    from rich.table import Table

    title = (f"{table.game}, {plural(table.seats, 'seat')}, "
             f"{plural(table.games, 'deal' if table.seats == 1 else 'game')} a pairing, "
             f"seed {table.seed}; Elo, {table.anchor} = 0")
    same = len({r.games for r in table.rows}) == 1
    if same:
        title += f"; {plural(table.rows[0].games, 'game')} each"
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    t.add_column("player", overflow="fold")
    t.add_column("rating (95% CI)", justify="right", no_wrap=True)
    if not same:
        t.add_column("games", justify="right", no_wrap=True)
    t.add_column("score", justify="right", no_wrap=True)
    t.add_column("measures", overflow="fold")
    t.add_column("measured a move", justify="right", no_wrap=True)
    for r in table.rows:
        sims = f", {r.simulations_per_move:,.0f} sims" if r.simulations_per_move else ""
        t.add_row(r.spec, f"{_rating(r.rating)} ({_rating(r.ci95[0])} to {_rating(r.ci95[1])})",
                  *([] if same else [str(r.games)]), f"{100 * r.score:.0f}%", _measures(r.measures, r.budget),
                  f"{_seconds(r.seconds_per_move)}{sims}")
    out.print(t)
    out.print(f"Played {plural(table.played, 'game')}"
              f"{'' if not table.reused else f', {table.reused:g} read from the file'}"
              f"{'' if workers is None else ' on ' + plural(workers, 'worker')}"
              f" in {table.seconds:.1f} s; prior {table.prior:g} drawn game(s) a pairing, "
              f"{table.bootstraps:,} bootstrap resamples.")
    if saved:
        out.print(f"Saved to {saved}.")
    if plot:
        out.print(f"Plot: {plot}.")
