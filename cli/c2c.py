"""``solve c2c``: Coast to Coast challenges, hindsight optima and play."""

from __future__ import annotations

import csv
import os
import sys
from typing import Any

import click

from solvers.data import read_stdin_text, read_text
from solvers.errors import SolversError
from solvers.files import check_output_path, write_atomic
from solvers.games.c2c.challenges import challenge_id, required_locations
from solvers.games.c2c.data import CoastMap, load_map
from solvers.games.c2c.deal import parse_deal
from solvers.games.c2c.online import (
    AUTO,
    EXACT_REPORT_ONLINE,
    LEARNED_ONLINE,
    REPORT_ONLINE,
    report_player,
)

from .common import (
    MAX_SHUFFLES,
    SEED,
    NoCommand,
    backend_options,
    default_workers,
    out,
    percent,
    plural,
    print_json,
    progress,
    save_resume_options,
    save_target,
    seconds_type,
    start_backend,
)
from .render_c2c import draw_sheet

DEFAULT_SHUFFLES = 100
DEFAULT_SHUFFLES_ALL = 100
DEFAULT_ONLINE = AUTO
PLOT_EXTRA = 'pip install ".[plot]"'


def _load_map(map_file: str | None) -> CoastMap:
    return load_map(map_file)


def _read_deal(path: str, m: CoastMap, challenge: int | None) -> list[int]:
    if path == "-":
        text = read_stdin_text("deal file")
        return parse_deal(text.splitlines(), m, challenge, source="stdin")
    return parse_deal(read_text(path, "deal file").splitlines(), m, challenge, source=path)


def check_plot_path(path: str) -> None:
    """Refuse a --plot file before any work: matplotlib missing, a format it
    cannot write (from the file's ending), or a file that cannot be written
    there (:func:`solvers.files.check_output_path`)."""
    try:
        import matplotlib
    except ImportError:
        raise SolversError(f"--plot needs matplotlib: {PLOT_EXTRA}") from None
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    kinds = Figure().canvas.get_supported_filetypes()
    ending = os.path.splitext(path)[1].lower().lstrip(".")
    if ending not in kinds:
        raise SolversError(f"--plot {path}: cannot draw a {ending!r} file; name it "
                           f"{', '.join('.' + k for k in ('png', 'svg', 'pdf') if k in kinds)}"
                           if ending else
                           f"--plot {path}: give the file an ending that names its format "
                           f"(.png, .svg, .pdf)")
    check_output_path(path, "--plot")


@click.group("c2c", invoke_without_command=True)
@click.option("--challenge", "-c", metavar="NAME",
              help="A solo challenge card, e.g. \"Wrigley Field\" (case-insensitive).")
@click.option("--deal", "deal_file", metavar="FILE",
              help="A shuffle you played: 24 location names, one per line "
                   "(4 setup cards, then 4 per round); '-' reads stdin.")
@click.option("--all-challenges", is_flag=True, help="Report all 32 challenges in one table.")
@click.option("--shuffles", type=click.IntRange(1, MAX_SHUFFLES), metavar="N",
              help=f"Random shuffles for the win rates, 1 to {MAX_SHUFFLES:,} (each costs about "
                   f"a second) [default: {DEFAULT_SHUFFLES}, "
                   f"{DEFAULT_SHUFFLES_ALL} per challenge with --all-challenges].")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the shuffles and of the online player.")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Jobs run side by side [default: all cores; with Ray, all the cluster's "
                   "CPUs].")
@backend_options
@click.option("--online", "online_spec", default=DEFAULT_ONLINE, show_default=True, metavar="SPEC",
              help="The online player (sees only revealed cards), as an agent spec; 'auto': "
                   f"the learned player ({LEARNED_ONLINE}) where values ship for the "
                   f"challenge, else {EXACT_REPORT_ONLINE}.")
@click.option("--time-limit", type=seconds_type(0.1), default=30.0, show_default=True,
              metavar="S", help="Seconds allowed to each CP-SAT solve.")
@click.option("--data", "map_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Another player sheet (map) in the JSON schema of the built-in one "
                   "(also --map).")
@click.option("--map", "old_map_file", hidden=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="With --all-challenges: print CSV.")
@click.option("--plot", metavar="FILE.png", type=click.Path(dir_okay=False),
              help="With --all-challenges: plot ceiling and online rate with their 95% "
                   "intervals (.png, .svg or .pdf; needs matplotlib: " + PLOT_EXTRA + ").")
@click.pass_context
def c2c(ctx: click.Context, challenge: str | None, deal_file: str | None, all_challenges: bool,
        shuffles: int | None, seed: int, workers: int | None, online_spec: str,
        time_limit: float, map_file: str | None, as_json: bool, as_csv: bool,
        plot: str | None, backend: str, address: str | None, old_map_file: str | None) -> None:
    """Coast to Coast: solo challenges, optimal itineraries, play.

    \b
    solve c2c --challenge "Wrigley Field"
        The 16 required locations and why, whether any shuffle can win it and
        the best possible score (proven with CP-SAT), the share of random
        shuffles that can be won with hindsight (the ceiling) and the share an
        online player wins seeing only the revealed cards, and one winning
        itinerary drawn as a map.
    solve c2c --deal FILE [--challenge NAME]
        The best possible play for a shuffle you played, proven optimal.
    solve c2c --all-challenges [--csv | --json] [--plot FILE.png]
        All 32 challenges in one table, sorted by difficulty.
    solve c2c play --challenge NAME
        Play a challenge (or a game against AI players) in the terminal.
    solve c2c review GAME.json
        A game you played and saved: its score, the hindsight best, and the
        decisions that cost the most.
    """
    if ctx.invoked_subcommand is not None:
        return
    map_file = map_file or old_map_file
    if workers is None and backend == "local":
        workers = default_workers()
    if as_csv and as_json:
        raise click.UsageError("--csv and --json do not go together: choose one")
    if as_csv and not all_challenges:
        raise click.UsageError("--csv goes with --all-challenges")
    if plot and not all_challenges:
        raise click.UsageError("--plot goes with --all-challenges")
    m = _load_map(map_file)
    if plot:
        check_plot_path(plot)
    if all_challenges or (challenge is not None and deal_file is None):
        from solvers.games.c2c.online import check_agent_spec

        check_agent_spec(m, None, online_spec)   # before any work, not in a worker
    if deal_file is not None:
        if all_challenges:
            raise click.UsageError("--deal and --all-challenges do not go together")
        ch = challenge_id(m, challenge) if challenge is not None else None
        deal = _read_deal(deal_file, m, ch)
        report_deal(m, deal, ch, time_limit, as_json)
    elif all_challenges:
        if challenge is not None:
            raise click.UsageError("--challenge and --all-challenges do not go together")
        start_backend(backend, address, workers)
        report_all(m, shuffles or DEFAULT_SHUFFLES_ALL, seed, workers,
                   online_spec, time_limit, as_json, as_csv, plot, backend, address)
    elif challenge is not None:
        ch = challenge_id(m, challenge)
        start_backend(backend, address, workers)
        report_challenge(m, ch, shuffles or DEFAULT_SHUFFLES, seed, workers,
                         online_spec, time_limit, as_json, backend, address)
    else:
        raise NoCommand(ctx)


# ---------------------------------------------------------------- --deal
def report_deal(m: CoastMap, deal: list[int], ch: int | None, time_limit: float,
                as_json: bool) -> None:
    from solvers.optimize.c2c import hindsight_optimum

    result = hindsight_optimum(deal, challenge=ch, map=m, time_limit=time_limit)
    names = [l.name for l in m.locations]
    data = {
        "deal": [names[c] for c in deal],
        "challenge": None if ch is None else names[ch],
        "status": result.status,
        "score": result.score,
        "won": result.won,
        "bound": result.bound,
        "seconds": round(result.wall_time, 3),
        "plan": result.plan,
    }
    if as_json:
        print_json(data)
        return
    title = f"Hindsight optimum{'' if ch is None else ', challenge ' + names[ch]}"
    out.print(f"[bold]{title}[/bold]")
    if result.status == "infeasible":
        out.print("This shuffle cannot win the challenge, whatever the play (proven).")
        return
    if result.plan is None:              # the solver stopped before it found any itinerary
        out.print(f"No itinerary found within the time limit ({time_limit:g} s): allow more with --time-limit.")
        return
    proven = "proven optimal" if result.status == "optimal" else f"best found; bound {result.bound}"
    out.print(f"Best score: [bold]{result.score}[/bold] ({proven}, {result.wall_time:.2f} s)")
    print_plan(m, result.plan, deal, ch)


def print_plan(m: CoastMap, plan: dict[str, Any], deal: list[int], ch: int | None) -> None:
    from solvers.games.c2c.plan import replay_plan

    state = replay_plan(deal, plan, ch, m)
    names = [l.name for l in m.locations]
    out.print(f"Setup: circle {', '.join(names[c] for c in deal[:4] if names[c] != plan['setup_cross'])};"
              f" cross off {plan['setup_cross']}")
    for r, rnd in enumerate(plan["rounds"], start=1):
        parts = []
        for card, loc in rnd["circles"]:
            if loc is None:
                parts.append(f"skip {card}")
            elif loc == card:
                parts.append(f"{loc} (exact)")
            else:
                parts.append(f"{loc} with {card}")
        out.print(f"Round {r}: cross off {rnd['cross']}; circle " + "; ".join(parts))
    b = state.score_breakdown(0)
    out.print(f"Score: highways {b['highways']} + types {b['types']} + regions {b['regions']}"
              f" + exact {b['exact']} = [bold]{b['total']}[/bold]")
    info = state.information_state(0)["sheet"]
    required = set() if ch is None else {r.id for r in required_locations(m, ch)}
    out.print(draw_sheet(m, set(info["circled"]), set(info["crossed"]), set(info["exact"]), required))


# ------------------------------------------------------------ --challenge
def challenge_report(m: CoastMap, ch: int, shuffles: int, seed: int, workers: int | None,
                     online_spec: str, time_limit: float, bars: bool = True,
                     backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Everything `solve c2c --challenge` reports, as a JSON-friendly dict.
    The shuffles' solves and games run on ``backend`` (solvers.parallel);
    the search for the best shuffle is one CP-SAT model, here."""
    from solvers.games.c2c.online import online_results
    from solvers.optimize.c2c import best_over_shuffles, ceiling

    names = [l.name for l in m.locations]
    if online_spec == AUTO:
        online_spec = report_player(m, ch)
    req = required_locations(m, ch)
    best = best_over_shuffles(ch, map=m, time_limit=time_limit,
                              workers=workers or default_workers())
    with progress(f"hindsight, {names[ch]}", shuffles) as advance:
        ceil = ceiling(ch, shuffles=shuffles, seed=seed, workers=workers, map=m,
                       time_limit=time_limit, progress=lambda *_: advance(1),
                       backend=backend, address=address)
    with progress(f"online player, {names[ch]}", shuffles) as advance:
        online = online_results(m, ch, shuffles=shuffles, seed=seed, workers=workers,
                                agent_spec=online_spec, progress=lambda *_: advance(1),
                                backend=backend, address=address)
    return {
        "challenge": names[ch],
        "required": [{"name": r.name, "why": list(r.reasons)} for r in req],
        "required_count": len(req),
        "feasible": best.feasible,
        "feasibility_status": best.status,
        "best_score": best.score,
        "best_deal": None if best.deal is None else [names[c] for c in best.deal],
        "best_plan": best.plan,
        "shuffles": shuffles,
        "seed": seed,
        "ceiling": {"wins": ceil.won, "decided": ceil.won + ceil.lost, "rate": ceil.rate,
                    "ci95": [ceil.low, ceil.high], "undecided": ceil.unknown},
        "online": {"agent": online_spec, "wins": online.wins, "rate": online.rate,
                   "ci95": list(online.ci95), "mean_winning_score": online.mean_winning_score},
        "gap": ceil.rate - online.rate,
    }


def report_challenge(m: CoastMap, ch: int, shuffles: int, seed: int, workers: int | None,
                     online_spec: str, time_limit: float, as_json: bool,
                     backend: str = "local", address: str | None = None) -> None:
    data = challenge_report(m, ch, shuffles, seed, workers, online_spec, time_limit,
                            backend=backend, address=address)
    if as_json:
        print_json(data)
        return
    out.print(f"[bold]Challenge: {data['challenge']}[/bold] — circle all {data['required_count']} of:")
    for r in data["required"]:
        out.print(f"  {r['name']:<44} {', '.join(r['why'])}")
    if not data["feasible"]:
        out.print("\n[bold red]No shuffle can win this challenge[/bold red] (proven by CP-SAT).")
    else:
        status = "proven" if data["feasibility_status"] == "optimal" else "best found"
        out.print(f"\nFeasible: yes. Best possible winning score over all shuffles: "
                  f"[bold]{data['best_score']}[/bold] ({status}).")
    c, o = data["ceiling"], data["online"]
    out.print(f"Over {shuffles} random shuffles (seed {seed}):")
    out.print(f"  ceiling (hindsight, every card known):  {c['wins']:>4}/{c['decided']} = "
              f"{percent(c['rate'])}  95% CI {percent(c['ci95'][0])} to {percent(c['ci95'][1])}"
              + (f"  ({c['undecided']} undecided in the time limit)" if c["undecided"] else ""))
    out.print(f"  online player ({o['agent']}): {o['wins']:>4}/{shuffles} = "
              f"{percent(o['rate'])}  95% CI {percent(o['ci95'][0])} to {percent(o['ci95'][1])}")
    out.print(f"  gap to the ceiling: {percent(data['gap'])}")
    if data["feasible"] and data["best_plan"]:
        out.print("\n[bold]A winning itinerary[/bold] (the best possible shuffle):")
        deal = [m.location(n).id for n in data["best_deal"]]
        print_plan(m, data["best_plan"], deal, ch)


# --------------------------------------------------------- --all-challenges
def report_all(m: CoastMap, shuffles: int, seed: int, workers: int | None, online_spec: str,
               time_limit: float, as_json: bool, as_csv: bool, plot: str | None,
               backend: str = "local", address: str | None = None) -> None:
    if plot:
        check_plot_path(plot)
    rows = []
    with progress("challenges", m.n) as advance:
        for loc in m.locations:
            d = challenge_report(m, loc.id, shuffles, seed, workers, online_spec, time_limit,
                                 backend=backend, address=address)
            rows.append({
                "challenge": d["challenge"], "required": d["required_count"],
                "feasible": d["feasible"], "best_score": d["best_score"],
                "ceiling": d["ceiling"]["rate"], "ceiling_ci95": d["ceiling"]["ci95"],
                "online": d["online"]["rate"], "online_ci95": d["online"]["ci95"],
                "online_agent": d["online"]["agent"],
            })
            advance(1)
    rows.sort(key=lambda r: (-r["ceiling"], -r["online"], r["required"], r["challenge"]))
    if as_json:
        print_json({"shuffles": shuffles, "seed": seed, "online_agent": online_spec, "challenges": rows})
    elif as_csv:
        write_challenge_csv(rows)
    else:
        out.print(challenge_table(rows, shuffles, seed))
    if plot:            # after the table: a plot that cannot be written loses nothing else
        sys.stdout.flush()
        plot_challenges(rows, plot, shuffles)


def _interval(ci: list[float] | tuple[float, float]) -> str:
    """A 95% interval in whole percent, as the table shows it: ``62-79``."""
    return f"{100 * ci[0]:.0f}-{100 * ci[1]:.0f}"


def write_challenge_csv(rows: list[dict[str, Any]]) -> None:
    """The challenge table as CSV on stdout: rates and their 95% (Wilson)
    interval bounds as fractions."""
    w = csv.writer(sys.stdout)
    w.writerow(["challenge", "required", "feasible", "best_score", "ceiling", "ceiling_low",
                "ceiling_high", "online", "online_low", "online_high", "online_agent"])
    for r in rows:
        w.writerow([r["challenge"], r["required"], r["feasible"], r["best_score"],
                    f"{r['ceiling']:.4f}", f"{r['ceiling_ci95'][0]:.4f}", f"{r['ceiling_ci95'][1]:.4f}",
                    f"{r['online']:.4f}", f"{r['online_ci95'][0]:.4f}", f"{r['online_ci95'][1]:.4f}",
                    r.get("online_agent", "")])


def challenge_table(rows: list[dict[str, Any]], shuffles: int, seed: int) -> Any:
    """The challenge table for the terminal: each rate in whole percent with
    its 95% interval, e.g. ``70% (60-78)``. When the rows' online players
    differ (``--online auto``), those of the less common one are marked
    ``*`` and the caption names both."""
    from collections import Counter

    from rich.table import Table

    agents = Counter(r.get("online_agent") for r in rows)
    usual = agents.most_common(1)[0][0] if agents else None
    t = Table(title=f"Coast to Coast challenges, easiest first ({shuffles} shuffles each, "
                    f"seed {seed}; rates with 95% intervals)")
    for col in ("challenge", "needs", "winnable", "best", "ceiling", "online"):
        t.add_column(col, justify="left" if col == "challenge" else "right")
    for r in rows:
        mark = " *" if r.get("online_agent") != usual else ""
        t.add_row(r["challenge"], str(r["required"]), "yes" if r["feasible"] else "no",
                  "-" if r["best_score"] is None else str(r["best_score"]),
                  f"{100 * r['ceiling']:.0f}% ({_interval(r['ceiling_ci95'])})",
                  f"{100 * r['online']:.0f}% ({_interval(r['online_ci95'])}){mark}")
    if usual is not None:
        others = sorted(a for a in agents if a != usual and a is not None)
        t.caption = f"online player: {usual}" + "".join(f"; * {a}" for a in others)
    return t


def plot_challenges(rows: list[dict[str, Any]], path: str, shuffles: int) -> None:
    """Write :func:`challenge_figure` to ``path`` (all at once: a failure
    leaves no half-written file, and an old file as it was) and say where,
    on stderr."""
    import matplotlib.pyplot as plt

    fig = challenge_figure(rows, shuffles)
    kind = os.path.splitext(path)[1].lower().lstrip(".")
    try:
        where = write_atomic(path, lambda f: fig.savefig(f, format=kind, dpi=120), "plot")
    finally:
        plt.close(fig)
    click.echo(f"Plot written to {where}", err=True)


def challenge_figure(rows: list[dict[str, Any]], shuffles: int) -> Any:
    """Ceiling and online rate per challenge, each with its 95% interval as
    an error bar; the legend sits above the axes so it hides no point, and
    the axis runs a little past 0% and 100% so those points stay off the frame."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    fig, ax = plt.subplots(figsize=(11, 5.5))
    x = list(range(len(rows)))
    for key, marker, label, shift in (("ceiling", "o", "ceiling (hindsight, every card known)", -0.12),
                                      ("online", "s", "online player (revealed cards only)", 0.12)):
        y = [r[key] for r in rows]
        low = [max(0.0, v - r[f"{key}_ci95"][0]) for v, r in zip(y, rows, strict=True)]
        high = [max(0.0, r[f"{key}_ci95"][1] - v) for v, r in zip(y, rows, strict=True)]
        ax.errorbar([i + shift for i in x], y, yerr=[low, high], fmt=marker + "-", capsize=2,
                    markersize=4, linewidth=1, elinewidth=0.8, label=label)
    ax.set_xticks(x, [r["challenge"] for r in rows], rotation=75, ha="right", fontsize=7)
    ax.set_ylabel(f"share of {shuffles} shuffles won (95% interval)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(-0.04, 1.06)
    ax.set_xlim(-0.6, len(rows) - 0.4)
    ax.grid(axis="y", linewidth=0.3)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False, fontsize=9)
    ax.set_title("Coast to Coast solo challenges, easiest first", pad=26)
    fig.tight_layout()
    return fig


# 'play', 'analyse', 'endgame', 'score' and 'review' are the common verbs
# (solvers.cli.verbs.game_group adds them; the review's hindsight report is
# the record's review_extra, solvers.cli.review_c2c).


# ---------------------------------------------------------------- yardstick
@c2c.command("yardstick")
@click.option("--player", "player_spec", default=REPORT_ONLINE, show_default=True, metavar="SPEC",
              help="The online player measured, as an agent spec.")
@click.option("--challenge", "-c", metavar="NAME",
              help="A solo challenge card [default: none, the score alone].")
@click.option("--positions", type=click.IntRange(1, MAX_SHUFFLES), default=100, show_default=True,
              metavar="N", help="Positions, one from each of N seeded deals.")
@click.option("--round", "from_round", type=click.IntRange(3, 4), default=4, show_default=True,
              metavar="R", help="The round the positions are taken at: 4 (the last two rounds, "
                                "exactly) or 3 (the last three, round 4's hands sampled).")
@click.option("--hands", type=click.IntRange(1, 10_000), default=16, show_default=True,
              metavar="N", help="With --round 3: sampled round-4 hands in each half (one half "
                                "picks the best end, the other values it).")
@click.option("--candidates", type=click.IntRange(1, 10_000), default=8, show_default=True,
              metavar="K", help="With --round 3: the ends valued, the K best by the learned "
                                "value (and the player's own).")
@click.option("--values", "values_file", default="default", show_default=True, metavar="FILE",
              help="With --round 3: the learned values that rank the candidates "
                   "('default': the package's for this challenge, or a 'solve train c2c' file).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the deals and of the player.")
@click.option("--workers", type=click.IntRange(1), default=None, metavar="W",
              help="Jobs run side by side [default: all cores; with Ray, all the cluster's CPUs].")
@backend_options
@click.option("--data", "map_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Another player sheet (map) in the JSON schema of the built-in one.")
@save_resume_options(
    "Save the positions measured and the result to FILE (JSON) as they finish, so that a long "
    "run survives an interruption; an existing FILE is refused unless it is the --resume file.",
    "Read a saved yardstick and measure only the positions it lacks (the rest of an "
    "interrupted run, or more with --positions); its player, challenge, round, seed and "
    "sampling are kept. Saved back to FILE unless --save names another.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def yardstick_cmd(player_spec: str, challenge: str | None, positions: int, from_round: int,
                  hands: int, candidates: int, values_file: str, seed: int,
                  workers: int | None, backend: str, address: str | None, map_file: str | None,
                  save_file: str | None, resume_file: str | None, as_json: bool) -> None:
    """How near a player comes to the best possible online play of the last
    two rounds, exactly (or of the last three, sampled).

    Each seeded deal is played by the player up to round 4. There the best
    any player who sees only the revealed cards can expect is known exactly:
    the best, over the sheets round 4's cards allow, of the average over
    every hand round 5 can bring of the best last round. The player's
    expected loss is that best minus what the sheet it chose can expect
    (with a challenge: in chance of completing it, and in points).

    With --round 3 the positions are taken at round 3, and each of the
    --candidates ends the learned value ranks best (and the player's own)
    is valued by the best round-4 end, valued exactly, on 2 x --hands
    sampled round-4 hands, the same for every end: the first half picks the
    best end, the second values it and the player's. The loss so measured
    is, on average, at most the true one (a lower bound, not an estimate of
    it), and can come out below 0 at one position. About 30 s a position
    with the defaults.

    \b
    Examples:
      solve c2c yardstick --player mcts:iterations=2000 --positions 200
      solve c2c yardstick -c "Wrigley Field" --player online --json
      solve c2c yardstick --round 3 --player online:early=report,learned=4 --positions 50
      solve c2c yardstick --round 3 -c "Cedar Point" --positions 40 --save y.json
      solve c2c yardstick --resume y.json                 (after an interruption)
      solve c2c yardstick --resume y.json --positions 80  (40 more)
    """
    from solvers.games.c2c.yardstick import load_yardstick, round_three_yardstick, yardstick

    saved = None
    if resume_file is not None:
        # The file's settings hold where no flag names others; a flag that
        # does is refused by the run's check, naming both.
        saved = load_yardstick(resume_file)
        source = click.get_current_context().get_parameter_source
        st = saved.settings

        def given(name: str) -> bool:
            return source(name) not in (None, click.core.ParameterSource.DEFAULT)

        player_spec = player_spec if given("player_spec") else st.player
        challenge = challenge if given("challenge") else st.challenge
        from_round = from_round if given("from_round") else st.round
        seed = seed if given("seed") else st.seed
        positions = positions if given("positions") else saved.positions
        if st.round == 3:
            hands = hands if given("hands") or st.hands is None else st.hands
            candidates = candidates if given("candidates") or st.candidates is None \
                else st.candidates
            values_file = values_file if given("values_file") or st.values is None else st.values
    save = save_target(save_file, resume_file)
    m = _load_map(map_file)
    ch = challenge_id(m, challenge) if challenge is not None else None
    from solvers.games.c2c.online import check_agent_spec

    check_agent_spec(m, ch, player_spec)
    if from_round == 3:
        import solvers
        from solvers.agents.c2c_online import load_values

        try:
            load_values(solvers.load_game("c2c", players=1, challenge=ch, map=m), values_file)
        except SolversError as e:
            raise SolversError(str(e).replace("values=FILE", "--values FILE")) from None
    if workers is None and backend == "local":
        workers = default_workers()
    start_backend(backend, address, workers)
    kept = 0 if saved is None else len(saved.rows)
    with progress(f"round-{from_round} positions", max(0, positions - kept)) as advance:
        if from_round == 3:
            y = round_three_yardstick(m, ch, player_spec, positions, seed=seed, hands=hands,
                                      candidates=candidates, values=values_file, workers=workers,
                                      backend=backend, address=address, progress=advance,
                                      save=save, resume=saved)
        else:
            y = yardstick(m, ch, player_spec, positions, seed=seed, workers=workers,
                          backend=backend, address=address, progress=advance, save=save,
                          resume=saved)
    if as_json:
        data = y.to_json()
        data["round"] = from_round
        if from_round == 3:
            data.update({"hands": hands, "candidates": candidates, "values": values_file,
                         "loss_is": "a lower bound in expectation (sampled round-4 hands)"})
        if save is not None:
            data["saved"] = os.path.abspath(save)
        print_json(data)
        return
    lo, hi = y.loss_points_ci
    out.print(f"{y.player}, {y.positions} round-{from_round} positions (seed {seed})"
              + (f", challenge {y.challenge}" if y.challenge else ", no challenge") + ":")
    if from_round == 3:
        out.print(f"  ({candidates} candidate ends and the player's, each on 2 x {hands} sampled "
                  "round-4 hands: the losses below are lower bounds on average)")
    chose = "the end picked as best" if from_round == 3 else "a best end"
    out.print(f"  chose {chose} in {y.optimal} of {y.positions} ({percent(y.optimal / y.positions)})")
    if y.challenge:
        wlo, whi = y.loss_win_ci
        out.print(f"  chance of completing it: best {percent(y.best_win)}, lost "
                  f"{100 * y.loss_win:.2f} points (95%: {100 * wlo:.2f} to {100 * whi:.2f})")
    out.print(f"  expected points: best {y.best_points:.2f}, lost {y.loss_points:.3f} "
              f"(95%: {lo:.3f} to {hi:.3f})")
    if save is not None:
        out.print(f"Saved to {save} ({plural(kept, 'position')} from the file, "
                  f"{plural(y.positions - kept, 'position')} measured now).")
