"""``solve tournament``: agents play many games, seats rotated, win rates
with 95% intervals. The work is done by :mod:`solvers.tournament`."""

from __future__ import annotations

import os

import click

import solvers
from solvers.errors import SolversError
from solvers.registry import game_info, games
from solvers.tournament import TournamentResult, load_tournament, run_tournament, split_agent_list

from .common import (
    MAX_GAMES,
    SEED,
    backend_options,
    default_workers,
    out,
    percent,
    plural,
    print_json,
    progress,
    save_resume_options,
    save_target,
    start_backend,
)


@click.command("tournament")
@click.argument("game_name", metavar="GAME")
@click.option("--agents", "agent_list", metavar="LIST",
              help="The agents, separated by commas, e.g. 'mcts:time=1,c=2,greedy'. A piece "
                   "holding '=' (and not starting 'kind:') is an option of the agent before "
                   "it; any other piece starts a new agent.")
@click.option("--agent", "agent_each", multiple=True, metavar="SPEC",
              help="One agent spec; repeat for each agent (an alternative to --agents).")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=None,
              metavar="N", help=f"Games to play, 1 to {MAX_GAMES:,} (deals per agent in a "
                                "1-player game) [default: 20, or the resumed file's].")
@click.option("--players", type=click.IntRange(1, 4), default=None, metavar="P",
              help="Seats per game [default: the game's own, more if more agents are given; "
                   "or the resumed file's].")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the deals and of every agent's choices [default: 0, or the "
                   "resumed file's].")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Games played side by side [default: all cores; with Ray, all the "
                   "cluster's CPUs].")
@backend_options
@click.option("--option", "game_options", multiple=True, metavar="NAME=VALUE",
              help="A game option, e.g. challenge=\"The Alamo\" for c2c; repeat for more. "
                   "A game's options are listed by 'solve engine' (hello).")
@click.option("--challenge", metavar="NAME",
              help="Short for --option challenge=NAME (games with a challenge card, e.g. c2c).")
@click.option("--data", "data_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="The game's data file (another map, player sheet, card set or island in "
                   "the JSON schema of the built-in one): short for --option NAME=FILE with "
                   "the game's file option (map, cards, board).")
@click.option("--map", "map_file", hidden=True, type=click.Path(dir_okay=False))
@save_resume_options(
    "Save the games played and the results to FILE as they finish (JSON), so that a long "
    "match survives an interruption; an existing FILE is refused unless it is the --resume "
    "file.",
    "Read a saved tournament and play only the games it lacks (the rest of an interrupted "
    "run, or more games with --games); its agents, seats, seed and game options are kept. "
    "Saved back to FILE unless --save names another.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def tournament(game_name: str, agent_list: str | None, agent_each: tuple[str, ...],
               games: int | None, players: int | None, seed: int | None, workers: int | None,
               game_options: tuple[str, ...], challenge: str | None, map_file: str | None,
               as_json: bool, backend: str, address: str | None, data_file: str | None,
               save_file: str | None, resume_file: str | None) -> None:
    """Agents play GAME against each other; win rates and mean scores.

    \b
    solve tournament switchbacks --agents mcts:time=1,greedy --games 100
    solve tournament switchbacks --agent mcts:iterations=2000,c=2 --agent random
    solve tournament c2c --challenge "The Alamo" --agents mcts,greedy --json
    solve tournament c2c --option challenge="The Alamo" --agents mcts,greedy
    solve tournament bigsur --agents mcts:time=1,random --games 200 --save match.json
    solve tournament bigsur --resume match.json          (after an interruption)
    solve tournament bigsur --resume match.json --games 400            (200 more)

    Seats rotate from game to game, and the rotations of one block share a
    deal. A shared first place counts as a half win (a third for three).
    In a 1-player game each agent plays every deal alone, and a game is won
    when its return is above 0 (the challenge card was completed, or
    without one, anything was scored). Intervals are 95%: Wilson for win
    rates, normal for mean scores. GAME is any game of 'solve --help'. Agent kinds:
    random, greedy, mcts, endgame, and openspiel (OpenSpiel's ISMCTS bot,
    with the 'openspiel' extra installed).
    """
    name = solvers.canonical_game_name(game_name)
    if agent_list and agent_each:
        raise click.UsageError("give the agents with --agents or with --agent, not both")
    saved = None
    if resume_file is not None:
        saved = load_tournament(resume_file)
        if saved.game != name:
            raise SolversError(f"{resume_file}: this tournament is of {saved.game}, not {name}")
    save = save_target(save_file, resume_file)
    specs: list[str]
    if agent_list:
        specs = split_agent_list(agent_list)
    elif agent_each:
        specs = [s.strip() for s in agent_each]
    elif saved is not None:
        specs = list(saved.specs)
    else:
        raise click.UsageError("give the agents, e.g. --agents mcts:time=1,greedy")
    shorthands: dict[str, str | None] = {"challenge": challenge, "map": map_file}
    if data_file is not None:
        files = game_info(name).file_options
        if not files:
            raise SolversError(f"--data: {name} takes no data file")
        if shorthands.get(files[0].name) not in (None, data_file):
            raise click.UsageError(f"--data and --{files[0].name} name two files: give one")
        shorthands[files[0].name] = data_file
    options = parse_game_options(name, game_options, **shorthands)
    if saved is not None:
        # The file's settings hold; a flag that names other ones is refused
        # by run_tournament's check of the plan, naming both.
        players = saved.players if players is None else players
        seed = saved.seed if seed is None else seed
        games = saved.games if games is None else games
        if not options:
            options = dict(saved.options)
    games = 20 if games is None else games
    seed = 0 if seed is None else seed
    start_backend(backend, address, workers)
    if workers is None:
        workers = default_workers() if backend == "local" else None
    kept = 0 if saved is None else len(saved.records)
    total = max(0, _total_games(name, specs, games, players, options) - kept)
    with progress(f"{name} tournament", total) as advance:
        result = run_tournament(name, specs, games, players=players, seed=seed, workers=workers,
                                progress=advance, backend=backend, address=address,
                                save=save, resume=saved, **options)
    if as_json:
        data = result.to_json()
        if save is not None:
            data["saved"] = os.path.abspath(save)
        print_json(data)
    else:
        show(result, challenge=options.get("challenge"), workers=workers)
        if save is not None:
            out.print(f"Saved to {save} ({plural(kept, 'game')} from the file, "
                      f"{plural(total, 'game')} played now).")


def parse_game_options(name: str, pairs: tuple[str, ...], **shorthands: str | None) -> dict:
    """``NAME=VALUE`` pairs (and shorthand flags such as ``--challenge``, each
    the option of its own name) as the game's options, typed by its record.
    SolversError for an option the game does not have or a bad value."""
    info = game_info(name)
    options: dict = {}
    given = [(key, value) for key, value in shorthands.items() if value is not None]
    for key, _ in given:
        if key not in info.option_names:
            having = [g.name for g in games() if key in g.option_names]
            raise SolversError(f"--{key}: {name} has no option {key!r} (games with one: "
                               f"{', '.join(having) or 'none'})")
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise SolversError(f"--option takes NAME=VALUE, not {pair!r}")
        given.append((key.strip(), value))
    for key, value in given:
        if key in options:
            raise SolversError(f"game option {key!r} is given twice")
        options[key] = info.option(key).parse(value)
    info.check_options(options)
    return options


def _total_games(name: str, specs: list[str], games: int, players: int | None,
                 options: dict) -> int:
    try:
        seats = players or solvers.load_game(name, **options).num_players
    except SolversError:
        return games
    return games * len(specs) if seats == 1 else games


def _wins(x: float) -> str:
    """A win count, whole or to two decimals (shared first places are fractions)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def show(result: TournamentResult, challenge: str | None = None, workers: int | None = None) -> None:
    """The results as a table that fits 80 columns: each value with its 95%
    interval written "low to high" (a mean score may be negative)."""
    from rich import box
    from rich.table import Table

    solo = result.players == 1
    what = plural(result.games, "deal") + " per agent" if solo else plural(result.games, "game")
    title = (f"{result.game}{'' if challenge is None else ', challenge ' + challenge}, {what}, "
             f"{plural(result.players, 'player')}, seed {result.seed}")
    t = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    same = len({a.games for a in result.agents}) == 1   # then the title says how many
    t.add_column("agent", overflow="fold")
    if not same:
        t.add_column("games", justify="right", no_wrap=True)
    t.add_column("wins", justify="right", no_wrap=True)
    t.add_column("win rate (95% CI)", justify="right", no_wrap=True)
    t.add_column("mean score (95% CI)", justify="right", no_wrap=True)
    for a in result.agents:
        t.add_row(a.spec, *([] if same else [str(a.games)]), _wins(a.wins),
                  f"{percent(a.win_rate)} ({100 * a.ci95[0]:.1f} to {100 * a.ci95[1]:.1f})",
                  f"{a.mean_score:.2f} ({a.score_ci95[0]:.2f} to {a.score_ci95[1]:.2f})")
    out.print(t)
    if result.players > 2:                # wins told against a fair share too
        p = result.players
        out.print(f"Wins as a multiple of the fair share (one game in {p}), 95% CI:")
        for a in result.agents:
            out.print(f"  {a.spec} {a.win_rate * p:.2f}x ({a.ci95[0] * p:.2f} to {a.ci95[1] * p:.2f})")
    if not solo and result.draws:
        out.print(f"{plural(result.draws, 'game')} ended with a shared first place "
                  "(each winner counted a share).")
    thought = [a for a in result.agents if a.simulations_per_move]
    if thought:
        out.print("A move: " + "; ".join(
            f"{a.spec} {a.simulations_per_move:,.0f} simulations in {_seconds(a.seconds_per_move)}"
            for a in thought) + ".")
    on = "" if workers is None else f" on {plural(workers, 'worker')}"
    out.print(f"Time: {result.seconds:.1f} s{on}.")


def _seconds(x: float | None) -> str:
    """A thinking time: 1.00 s, 82.3 ms."""
    if x is None:
        return "?"
    return f"{x:.2f} s" if x >= 1 else f"{1000 * x:.3g} ms"
