"""``solve tournament``: agents play many games, seats rotated, win rates
with 95% intervals. The work is done by :mod:`solvers.tournament`."""

from __future__ import annotations

import click

import solvers
from solvers.errors import SolversError
from solvers.tournament import TournamentResult, run_tournament, split_agent_list

from .common import default_workers, out, percent, print_json, progress


@click.command("tournament")
@click.argument("game_name", metavar="GAME")
@click.option("--agents", "agent_list", metavar="LIST",
              help="The agents, separated by commas, e.g. 'mcts:time=1,c=2,greedy'. A piece "
                   "holding '=' (and not starting 'kind:') is an option of the agent before "
                   "it; any other piece starts a new agent.")
@click.option("--agent", "agent_each", multiple=True, metavar="SPEC",
              help="One agent spec; repeat for each agent (an alternative to --agents).")
@click.option("--games", type=click.IntRange(1), default=20, show_default=True, metavar="N",
              help="Games to play (deals per agent in a 1-player game).")
@click.option("--players", type=click.IntRange(1, 4), default=None, metavar="P",
              help="Seats per game [default: the game's own, more if more agents are given].")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the deals and of every agent's choices.")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Processes playing games side by side [default: all cores].")
@click.option("--challenge", metavar="NAME", help="Coast to Coast only: the solo challenge card.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def tournament(game_name: str, agent_list: str | None, agent_each: tuple[str, ...], games: int,
               players: int | None, seed: int, workers: int | None, challenge: str | None,
               as_json: bool) -> None:
    """Agents play GAME against each other; win rates and mean scores.

    \b
    solve tournament switchbacks --agents mcts:time=1,greedy --games 100
    solve tournament switchbacks --agent mcts:iterations=2000,c=2 --agent random
    solve tournament c2c --challenge "The Alamo" --agents mcts,greedy --json

    Seats rotate from game to game, and the rotations of one block share a
    deal. A shared first place counts as a half win (a third for three).
    In a 1-player game each agent plays every deal alone, and a game is won
    when its return is above 0 (the challenge card was completed, or
    without one, anything was scored). Intervals are 95%: Wilson for win
    rates, normal for mean scores. Games: c2c, switchbacks. Agent kinds:
    random, greedy, mcts, endgame, and openspiel (OpenSpiel's ISMCTS bot,
    with the 'openspiel' extra installed).
    """
    name = solvers.canonical_game_name(game_name)
    if agent_list and agent_each:
        raise click.UsageError("give the agents with --agents or with --agent, not both")
    if agent_list:
        specs = split_agent_list(agent_list)
    elif agent_each:
        specs = [s.strip() for s in agent_each]
    else:
        raise click.UsageError("give the agents, e.g. --agents mcts:time=1,greedy")
    options = {}
    if challenge is not None:
        if name != "c2c":
            raise click.UsageError("--challenge belongs to Coast to Coast (c2c)")
        options["challenge"] = challenge
    workers = workers or default_workers()
    total = _total_games(name, specs, games, players, options)
    with progress(f"{name} tournament", total) as advance:
        result = run_tournament(name, specs, games, players=players, seed=seed, workers=workers,
                                progress=advance, **options)
    if as_json:
        print_json(result.to_json())
    else:
        show(result)


def _total_games(name: str, specs: list[str], games: int, players: int | None,
                 options: dict) -> int:
    try:
        seats = players or solvers.load_game(name, **options).num_players
    except SolversError:
        return games
    return games * len(specs) if seats == 1 else games


def show(result: TournamentResult) -> None:
    """The results as a table."""
    from rich.table import Table

    solo = result.players == 1
    title = (f"{result.game}, {result.games} {'deals' if solo else 'games'}, "
             f"{result.players} player{'s' if result.players > 1 else ''}, seed {result.seed}")
    t = Table(title=title)
    t.add_column("agent", overflow="fold")
    for col in ("games", "wins", "win rate", "95% CI", "mean score", "95% CI "):
        t.add_column(col, justify="right", no_wrap=True)
    for a in result.agents:
        wins = f"{a.wins:g}"
        t.add_row(a.spec, str(a.games), wins, percent(a.win_rate),
                  f"{percent(a.ci95[0])}-{percent(a.ci95[1])}", f"{a.mean_score:.2f}",
                  f"{a.score_ci95[0]:.2f}-{a.score_ci95[1]:.2f}")
    out.print(t)
    if not solo and result.draws:
        out.print(f"{result.draws} game(s) ended with a shared first place (counted as shares).")
    out.print(f"{result.seconds:.1f} s")
