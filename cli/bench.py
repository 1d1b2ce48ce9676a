"""``solve bench``: the benchmarks' headline ratios across saved runs.

The figures come from ``benchmarks/`` (each a ratio timed in the same
process, :mod:`solvers.benchtrack`). A run is saved by
``python -m pytest benchmarks --benchmark-autosave`` (enabled runs, by
pytest-benchmark) or ``python -m pytest benchmarks --benchmark-disable
--ratios-autosave`` (quick runs); both land under ``.benchmarks/``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from solvers import benchtrack
from solvers.errors import SolversError
from solvers.files import check_output_path, write_atomic

DEFAULT_BASELINE = "benchmarks/baseline.json"


def _runs(paths: tuple[str, ...], last: int | None, folder: str, mode: str | None) -> list[dict]:
    """The runs named, else the last ``last`` (default 2) saved under ``folder``."""
    if paths:
        return [benchtrack.load_run(p) for p in paths]
    found = benchtrack.list_runs(folder, mode)
    if not found:
        raise SolversError(f"no saved runs under {folder}/ (save one with: python -m pytest "
                           "benchmarks --benchmark-disable --ratios-autosave)")
    return [benchtrack.load_run(p) for p in found[-(last or 2):]]


def _check_last(last: int | None) -> None:
    if last is not None and last < 1:
        raise SolversError(f"--last should be at least 1, not {last}")


_runs_options = [
    click.option("--last", type=int, default=None, help="the last N saved runs (default 2)"),
    click.option("--runs", "folder", default=benchtrack.DEFAULT_RUNS, show_default=True,
                 help="the folder of saved runs"),
    click.option("--mode", type=click.Choice(["quick", "full"]), default=None,
                 help="only runs of one kind (quick: --benchmark-disable)"),
]


def runs_options(f):
    for option in reversed(_runs_options):
        f = option(f)
    return f


@click.group("bench")
def bench() -> None:
    """Track the benchmarks' headline ratios across saved runs.

    Every benchmark in benchmarks/ records one headline figure: a ratio of
    ours over a baseline timed in the same process (the reference rules,
    OpenSpiel's bot, one worker...), so that figures from a busy and an idle
    machine compare.

    \b
    Examples:
      python -m pytest benchmarks --benchmark-disable --ratios-autosave   # save a quick run
      python -m pytest benchmarks --benchmark-autosave                    # save a full run
      solve bench compare                    the last two saved runs side by side
      solve bench compare --last 5 --mode quick
      solve bench gate .benchmarks/quick/0003_1a2b3c4d_quick.json
      solve bench history --plot ratios.png  every figure across the saved runs
      solve bench table RUN.json --kind speed   a Markdown table for the docs
      solve bench baseline RUN1 RUN2 RUN3 --out benchmarks/baseline.json
    """


@bench.command("compare")
@click.argument("paths", nargs=-1)
@runs_options
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON")
def compare_cmd(paths: tuple[str, ...], last: int | None, folder: str, mode: str | None,
                as_json: bool) -> None:
    """Saved runs side by side: each figure's ratio and its change.

    PATHS are saved runs (pytest-benchmark's JSON or a quick run's); without
    them, the last two saved under .benchmarks/. The change is from the
    first run that has the figure to the last, signed so that + is better.

    \b
    Example:
      solve bench compare .benchmarks/quick/0001_*.json .benchmarks/quick/0002_*.json
    """
    _check_last(last)
    runs = _runs(paths, last, folder, mode)
    if as_json:
        click.echo(json.dumps({"runs": [benchtrack.run_label(r) for r in runs],
                               "figures": benchtrack.compare(runs)}, indent=1))
    else:
        click.echo(benchtrack.format_compare(runs))


@bench.command("gate")
@click.argument("path")
@click.option("--baseline", default=DEFAULT_BASELINE, show_default=True,
              help="the stored baseline (ratios and tolerances)")
def gate_cmd(path: str, baseline: str) -> None:
    """Fail (exit 1) when a figure of a saved run fell past its tolerance.

    Each failing figure is one line naming the benchmark, its baseline and
    the new figure. The quick runs of CI do the same at the end of the test
    session (benchmarks/conftest.py).

    \b
    Example:
      solve bench gate .benchmarks/quick/0004_1a2b3c4d_quick.json
    """
    run = benchtrack.load_run(path)
    base = benchtrack.load_baseline(baseline)
    lines = benchtrack.gate(run, base)
    checked = sum(1 for k in benchtrack.figures(run) if k in base["figures"])
    for line in lines:
        click.echo(f"REGRESSION {line}", err=True)
    if lines:
        raise click.exceptions.Exit(1)
    click.echo(f"{checked} figures within their tolerance of {baseline}")


@bench.command("table")
@click.argument("path", required=False)
@click.option("--kind", type=click.Choice(["speed", "strength", "memory", "rows"]), default=None,
              help="only headline figures of one kind; 'rows': the rows benchmarks kept for a "
                   "docs table (solvers.benchtrack.table_rows)")
@click.option("--only", default=None, metavar="PREFIX",
              help="with --kind rows: only the benchmarks whose key starts with PREFIX "
                   "(several: separated by commas), "
                   "e.g. bench_c2c_online_strength::bench_challenge_wins")
@click.option("--update", "markdown", default=None, metavar="FILE.md",
              help="rewrite every generated table of FILE.md from the run its marker names")
@runs_options
def table_cmd(path: str | None, kind: str | None, only: str | None, markdown: str | None,
              last: int | None, folder: str, mode: str | None) -> None:
    """A saved run's figures as a Markdown table (the docs' speed tables).

    Without PATH, the newest saved run. The table's first line names the run
    and its commit. With --update, the tables of a Markdown file that sit
    between '<!-- bench-table KIND RUN.json -->' and '<!-- /bench-table -->'
    are made anew from the runs named there (how docs/benchmarks/speed.md's
    and strength.md's are kept; a marker's run path is relative to its
    file). KIND is speed, strength, memory or all (headline figures),
    'rows PREFIX' (the rows benchmarks kept) or ladder (a saved ladder).

    \b
    Examples:
      solve bench table benchmarks/results/speed.json --kind speed
      solve bench table --update docs/benchmarks/speed.md
      solve bench table c2c-strength.json --kind rows --only bench_c2c_online_strength::
    """
    if markdown is not None:
        from solvers.files import read_file

        text = read_file(markdown, "Markdown file").decode("utf-8")
        new = benchtrack.update_tables(text, Path(markdown).resolve().parent)
        blocks = benchtrack.table_blocks(text)
        if new != text:
            write_atomic(markdown, new, "Markdown file")
        click.echo(f"{len(blocks)} tables in {markdown} {'updated' if new != text else 'already up to date'}")
        return
    run = _runs((path,) if path else (), 1, folder, mode)[-1]
    if kind == "rows":
        click.echo(benchtrack.rows_table(run, only), nl=False)
        return
    if only is not None:
        raise SolversError("--only goes with --kind rows")
    click.echo(benchtrack.markdown_table(run, kind), nl=False)


@bench.command("history")
@click.argument("figure", required=False)
@runs_options
@click.option("--plot", "plot_path", default=None, metavar="FILE.png",
              help='draw the ratios across the runs (pip install ".[plot]")')
def history_cmd(figure: str | None, last: int | None, folder: str, mode: str | None,
                plot_path: str | None) -> None:
    """One figure (or every figure) across the saved runs.

    FIGURE is a benchmark's name as compare prints it, or a part of it
    (``c2c_kernel``); without it, every figure. Default: the last 20 runs.

    \b
    Example:
      solve bench history kernel_vs_reference --plot kernels.png
    """
    _check_last(last)
    if plot_path:
        check_output_path(plot_path, "plot")
    runs = _runs((), last or 20, folder, mode)
    keys = [r["benchmark"] for r in benchtrack.compare(runs)]
    if figure:
        keys = [k for k in keys if figure in k]
        if not keys:
            raise SolversError(f"no saved figure matches {figure!r}")
    for key in keys:
        points = benchtrack.history(runs, key)
        click.echo(f"{key}: " + ", ".join(f"{label} {benchtrack.ratio_text(v)}" for label, v in points))
    if plot_path:
        click.echo(f"plot written to {benchtrack.plot_history(runs, keys, plot_path)}")


@bench.command("baseline")
@click.argument("paths", nargs=-1, required=True)
@click.option("--out", default=DEFAULT_BASELINE, show_default=True, help="the baseline file to write")
def baseline_cmd(paths: tuple[str, ...], out: str) -> None:
    """Make the gate's baseline from several saved runs of one mode.

    Each figure gets the median ratio and a tolerance from the runs' spread
    (1.5 x (largest / smallest - 1), kept within 25%-80%). Commit the file
    with the change that earns it.

    \b
    Example:
      solve bench baseline .benchmarks/quick/000[1-5]_*.json
    """
    runs = [benchtrack.load_run(p) for p in paths]
    data = benchtrack.make_baseline(runs)
    check_output_path(out, "baseline")
    written = write_atomic(out, json.dumps(data, indent=1) + "\n", "baseline")
    click.echo(f"{len(data['figures'])} figures from {len(runs)} runs written to "
               f"{Path(written).name}")
