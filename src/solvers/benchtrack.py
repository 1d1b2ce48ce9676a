"""Benchmark figures tracked over time: headline ratios, saved runs, a gate.

Absolute times on a shared machine swing by 2x from one run to the next, so
every benchmark in ``benchmarks/`` states its result as a **ratio measured in
the same process**: ours over the baseline it names (the pure-Python
reference, OpenSpiel's bot, one worker, the plain model, a time budget).
:func:`headline` stores that figure in pytest-benchmark's
``benchmark.extra_info["headline"]``:

    >>> class Bench:                      # stands in for pytest-benchmark's fixture
    ...     extra_info: dict = {}
    >>> h = headline(Bench, "random games/s, kernel / reference", 5200.0, 40.0,
    ...              against="the reference rules", target=100)
    >>> h["ratio"], h["better"]
    (130.0, 'higher')

A **run** is pytest-benchmark's saved JSON (``--benchmark-autosave`` writes
one per enabled run under ``.benchmarks/``), or the same shape written by
``benchmarks/conftest.py`` for a quick run (``--ratios-autosave``: under
``--benchmark-disable`` pytest-benchmark saves nothing). :func:`load_run`
reads either; :func:`figures` takes the headlines out of it, keyed by the
benchmark's name (file stem and test name, ``bench_c2c_kernel::bench_c2c_random_solo_games``).

:func:`compare` puts runs side by side, :func:`gate` checks a run against a
stored baseline (``benchmarks/baseline.json``: a ratio and a tolerance per
figure, the tolerance chosen from the figure's run-to-run spread, see
:func:`make_baseline`) and :func:`markdown_table` prints the docs' speed tables.
The ``solve bench`` command is the command-line face of all of it.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import statistics
import subprocess
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .errors import SolversError
from .files import read_file, write_atomic

#: The schema tag of a baseline file.
BASELINE_SCHEMA = "solvers-bench-baseline/1"
#: A tolerance never below this share of the baseline: ratios of quick runs
#: are measured on a few milliseconds of work each.
MIN_TOLERANCE = 0.25
#: Nor above it: a gate that accepts any figure gates nothing.
MAX_TOLERANCE = 0.8
#: The tolerance is this many times the spread (max/min - 1) seen over the
#: runs a baseline is made from.
SPREAD_FACTOR = 1.5
#: Where runs are saved by default.
DEFAULT_RUNS = ".benchmarks"


# ---------------------------------------------------------------- recording
def headline(benchmark: Any, figure: str, ours: float, baseline: float, *, against: str,
             higher_is_better: bool = True, target: float | None = None,
             kind: str = "speed") -> dict[str, Any]:
    """Record a benchmark's headline figure: ``ours / baseline``.

    ``figure`` says what is measured on both sides ("random games/s, kernel /
    reference"); ``against`` names the baseline; ``higher_is_better`` is False
    for figures where less is better (latency over a budget); ``target`` is the
    ratio the benchmark asserts, if any; ``kind`` is ``"speed"``, ``"strength"``
    or ``"memory"`` (the docs' tables are grouped by it). Also returned.
    """
    if not (isinstance(ours, (int, float)) and isinstance(baseline, (int, float))):
        raise TypeError("headline: ours and baseline are numbers")
    if baseline <= 0 or not math.isfinite(baseline) or not math.isfinite(ours):
        raise ValueError(f"headline {figure!r}: the baseline must be a positive number, not {baseline}")
    record = {
        "figure": figure,
        "ratio": round(ours / baseline, 6),
        "ours": ours,
        "baseline": baseline,
        "against": against,
        "better": "higher" if higher_is_better else "lower",
        "target": target,
        "kind": kind,
    }
    benchmark.extra_info["headline"] = record
    return record


def best_rates(runs: dict[str, Any], repeats: int) -> dict[str, float]:
    """The best rate of each side over ``repeats`` rounds, the sides taking
    turns within every round, so that a busy moment of the machine slows
    one round of both sides rather than all of one side. Each value of
    ``runs`` is a function of the round number returning a rate.

    >>> best_rates({"a": lambda r: [1.0, 3.0][r], "b": lambda r: 2.0}, 2)
    {'a': 3.0, 'b': 2.0}
    """
    best = dict.fromkeys(runs, 0.0)
    for r in range(repeats):
        for name, run in runs.items():
            best[name] = max(best[name], float(run(r)))
    return best


# ------------------------------------------------------------------- runs
def git_commit(cwd: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """``{"id", "dirty"}`` of the checkout at ``cwd`` (id None outside git)."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                             text=True, timeout=10).stdout.strip() or None
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                                    cwd=cwd, capture_output=True, text=True,
                                    timeout=10).stdout.strip())
    except (OSError, subprocess.SubprocessError):
        sha, dirty = None, False
    return {"id": sha, "dirty": dirty}


def run_stamp() -> dict[str, Any]:
    """Who is playing a saved file's games now: ``{"commit", "dirty",
    "version", "date"}``, the commit of the source checkout the library runs
    from (``None`` for an installed copy)."""
    from . import __version__

    here = Path(__file__).resolve().parent
    commit = git_commit(here) if (here.parent.parent / ".git").exists() else \
        {"id": None, "dirty": False}
    return {"commit": commit["id"], "dirty": commit["dirty"], "version": __version__,
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}


class RunLog:
    """The runs that made a saved file (a tournament, a ladder, a
    yardstick): the file's earlier ones, then this one, stamped
    (:func:`run_stamp`) when it first adds something.

        >>> log = RunLog([{"commit": None, "games": 3}])
        >>> len(log.runs("games", 0)), log.runs("games", 2)[-1]["games"]
        (1, 2)
    """

    def __init__(self, earlier: list[dict[str, Any]] | None = None):
        self.earlier = list(earlier or [])
        self.stamp: dict[str, Any] | None = None

    def runs(self, what: str, count: int) -> list[dict[str, Any]]:
        """The earlier runs, and this one with ``{what: count}`` if ``count``."""
        if not count:
            return list(self.earlier)
        if self.stamp is None:
            self.stamp = run_stamp()
        return self.earlier + [dict(self.stamp, **{what: count})]


def make_run(entries: list[dict[str, Any]], mode: str, commit: dict[str, Any] | None = None,
             when: datetime | None = None) -> dict[str, Any]:
    """A run in pytest-benchmark's saved shape from ``entries`` (each
    ``{"name", "fullname", "extra_info"}``), for a quick run's file."""
    when = when or datetime.now(timezone.utc)
    return {
        "machine_info": {"node": platform.node(), "machine": platform.machine(),
                         "python_version": platform.python_version(), "cpu_count": os.cpu_count()},
        "commit_info": commit if commit is not None else git_commit(),
        "datetime": when.isoformat(timespec="seconds"),
        "solvers": {"mode": mode},
        "benchmarks": [{"name": e["name"], "fullname": e["fullname"], "stats": None,
                        "extra_info": e.get("extra_info", {})} for e in entries],
    }


def run_filename(run: dict[str, Any], number: int) -> str:
    """``0007_1a2b3c4d_quick.json``: the number, the commit's first 8 digits, the mode."""
    sha = (run.get("commit_info") or {}).get("id") or "nocommit"
    dirty = "-dirty" if (run.get("commit_info") or {}).get("dirty") else ""
    return f"{number:04d}_{sha[:8]}{dirty}_{run_mode(run)}.json"


def save_run(run: dict[str, Any], folder: str | os.PathLike[str] = DEFAULT_RUNS) -> str:
    """Write ``run`` into ``folder`` under the next number (pytest-benchmark
    numbers its own saves the same way); the path written."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    numbers = [int(p.name[:4]) for p in path.glob("[0-9][0-9][0-9][0-9]_*.json")]
    target = path / run_filename(run, max(numbers, default=0) + 1)
    return write_atomic(str(target), json.dumps(run, indent=1) + "\n", "benchmark run")


def load_run(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A saved run (pytest-benchmark's or a quick run's); SolversError (one
    line) when the file is not one."""
    text = read_file(str(path), "benchmark run")
    try:
        run = json.loads(text)
    except json.JSONDecodeError as e:
        raise SolversError(f"{path}: not a benchmark run (bad JSON: {e.msg} at line {e.lineno})") from None
    if not isinstance(run, dict) or not isinstance(run.get("benchmarks"), list):
        raise SolversError(f"{path}: not a benchmark run (no 'benchmarks' list)")
    run.setdefault("_path", str(path))
    return run


def run_mode(run: dict[str, Any]) -> str:
    """``"quick"`` (benchmarks disabled, each once) or ``"full"``."""
    return str((run.get("solvers") or {}).get("mode", "full"))


def run_label(run: dict[str, Any]) -> str:
    """A short name for a run: its file's number and the commit."""
    name = Path(run.get("_path", "")).stem
    number = name[:4] if name[:4].isdigit() else "run"
    sha = ((run.get("commit_info") or {}).get("id") or "?")[:8]
    return f"{number}@{sha}"


def benchmark_key(entry: dict[str, Any]) -> str:
    """``bench_file::test_name[param]`` for an entry of a run."""
    full = str(entry.get("fullname") or entry.get("name"))
    file_part, _, test = full.rpartition("::")
    stem = Path(file_part).stem if file_part else ""
    return f"{stem}::{test}" if stem else test


def figures(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The headline of every benchmark of ``run`` that recorded one."""
    out: dict[str, dict[str, Any]] = {}
    for entry in run["benchmarks"]:
        h = (entry.get("extra_info") or {}).get("headline")
        if isinstance(h, dict) and isinstance(h.get("ratio"), (int, float)):
            out[benchmark_key(entry)] = h
    return out


def list_runs(folder: str | os.PathLike[str] = DEFAULT_RUNS, mode: str | None = None) -> list[str]:
    """Saved runs under ``folder`` (any depth: pytest-benchmark saves under a
    machine folder), oldest first by file number then time; ``mode`` keeps one kind."""
    root = Path(folder)
    if not root.is_dir():
        return []
    paths = sorted(root.rglob("[0-9][0-9][0-9][0-9]_*.json"), key=lambda p: (p.stat().st_mtime, p.name))
    if mode is None:
        return [str(p) for p in paths]
    return [str(p) for p in paths if run_mode(load_run(p)) == mode]


# ---------------------------------------------------------------- compare
def change(old: float, new: float, better: str) -> float:
    """The relative change from ``old`` to ``new``, signed so that positive
    is better (a lower-is-better figure that fell is a gain)."""
    rel = new / old - 1.0 if old else math.inf
    return rel if better == "higher" else -rel


def compare(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per figure found in any of ``runs``: its ratio in each (None
    where absent) and the change from the first run that has it to the last."""
    keys: list[str] = []
    per_run = [figures(r) for r in runs]
    for f in per_run:
        keys.extend(k for k in f if k not in keys)
    rows = []
    for key in keys:
        ratios = [f[key]["ratio"] if key in f else None for f in per_run]
        info = next(f[key] for f in per_run if key in f)
        present = [r for r in ratios if r is not None]
        rows.append({"benchmark": key, "figure": info["figure"], "better": info["better"],
                     "ratios": ratios,
                     "change": change(present[0], present[-1], info["better"]) if len(present) > 1 else None})
    return rows


def format_compare(runs: list[dict[str, Any]]) -> str:
    """:func:`compare` as a text table."""
    rows = compare(runs)
    labels = [run_label(r) for r in runs]
    head = ["benchmark", *labels, "change"]
    body = [[r["benchmark"], *("-" if x is None else ratio_text(x) for x in r["ratios"]),
             "" if r["change"] is None else f"{100 * r['change']:+.1f}%"] for r in rows]
    widths = [max(len(str(row[i])) for row in [head, *body]) for i in range(len(head))]
    lines = ["  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths, strict=True))) for row in [head, *body]]
    note = "ratios are ours / the baseline each benchmark names; change: + is better"
    return "\n".join(lines + ["", note])


# ------------------------------------------------------------------- gate
def load_baseline(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A baseline file (:func:`make_baseline`); SolversError (one line) otherwise."""
    text = read_file(str(path), "baseline")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SolversError(f"{path}: not a baseline (bad JSON: {e.msg} at line {e.lineno})") from None
    if not isinstance(data, dict) or data.get("schema") != BASELINE_SCHEMA \
            or not isinstance(data.get("figures"), dict):
        raise SolversError(f"{path}: not a baseline (its \"schema\" should be {BASELINE_SCHEMA!r})")
    return data


def gate(run: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """One line per figure of ``run`` that fell further below its baseline
    than the baseline's tolerance allows (empty: the run passes). A value
    that one of the baseline's own runs gave (within its ``spread``) always
    passes: for a figure whose runs spread wider than
    :data:`MAX_TOLERANCE`, such as a web page's round trips over a few
    milliseconds, the tolerance alone would fail runs like those the
    baseline was made of. Figures the baseline lacks, and baseline figures
    the run did not measure, pass; a baseline made from runs of another
    mode (quick/full) is refused."""
    if baseline.get("mode") and baseline["mode"] != run_mode(run):
        raise SolversError(f"the baseline is of {baseline['mode']} runs and this run is {run_mode(run)}")
    failures = []
    for key, h in figures(run).items():
        base = baseline["figures"].get(key)
        if base is None:
            continue
        ratio, ref, tol = h["ratio"], base["ratio"], base["tolerance"]
        seen = base.get("spread") or [ref, ref]
        if base.get("better", "higher") == "higher":
            floor = min(ref * (1 - tol), seen[0])
            if ratio < floor:
                failures.append(f"{key}: {h['figure']} fell to {ratio_text(ratio)} (baseline "
                                f"{ratio_text(ref)}, tolerance {tol:.0%}: at least {ratio_text(floor)})")
        else:
            ceiling = max(ref * (1 + tol), seen[1])
            if ratio > ceiling:
                failures.append(f"{key}: {h['figure']} rose to {ratio_text(ratio)} (baseline "
                                f"{ratio_text(ref)}, tolerance {tol:.0%}: at most {ratio_text(ceiling)}; "
                                f"lower is better)")
    return failures


def tolerance_from(ratios: list[float]) -> float:
    """The tolerance of a figure whose runs gave ``ratios``: the spread seen
    (largest over smallest, minus 1) times :data:`SPREAD_FACTOR`, kept
    between :data:`MIN_TOLERANCE` and :data:`MAX_TOLERANCE`.

    >>> tolerance_from([10.0, 11.0, 10.5])      # 10% spread -> the floor
    0.25
    >>> round(tolerance_from([10.0, 13.0]), 2)  # 30% spread -> 45%
    0.45
    """
    lo, hi = min(ratios), max(ratios)
    spread = hi / lo - 1.0 if lo > 0 else math.inf
    return min(MAX_TOLERANCE, max(MIN_TOLERANCE, SPREAD_FACTOR * spread))


def make_baseline(runs: list[dict[str, Any]], note: str = "") -> dict[str, Any]:
    """A baseline from several runs of the same mode: per figure the median
    ratio and a tolerance from the spread of the runs (:func:`tolerance_from`).
    Figures seen in only one run get the largest tolerance (no spread known)."""
    if not runs:
        raise SolversError("a baseline needs at least one saved run")
    modes = {run_mode(r) for r in runs}
    if len(modes) > 1:
        raise SolversError(f"a baseline is made from runs of one mode, not {sorted(modes)}")
    seen: dict[str, list[float]] = {}
    info: dict[str, dict[str, Any]] = {}
    for run in runs:
        for key, h in figures(run).items():
            seen.setdefault(key, []).append(float(h["ratio"]))
            info[key] = h
    out = {}
    for key in sorted(seen):
        ratios = seen[key]
        out[key] = {"figure": info[key]["figure"], "better": info[key]["better"],
                    "ratio": round(statistics.median(ratios), 6),
                    "tolerance": round(tolerance_from(ratios) if len(ratios) > 1 else MAX_TOLERANCE, 3),
                    "spread": [round(min(ratios), 6), round(max(ratios), 6)], "runs": len(ratios)}
    commits = sorted({((r.get("commit_info") or {}).get("id") or "?")[:8] for r in runs})
    return {"schema": BASELINE_SCHEMA, "mode": modes.pop(), "made_from": commits,
            "note": note or (f"median of {len(runs)} runs; tolerance = {SPREAD_FACTOR} x the spread "
                             f"(max/min - 1), kept within {MIN_TOLERANCE:.0%}-{MAX_TOLERANCE:.0%}"),
            "figures": out}


# ----------------------------------------------------------------- tables
def markdown_table(run: dict[str, Any], kind: str | None = None) -> str:
    """The headline figures of ``run`` (of one ``kind``, or all) as a
    Markdown table, with a line naming the run and its commit."""
    rows = [(k, h) for k, h in figures(run).items() if kind is None or h.get("kind", "speed") == kind]
    lines = [_run_line(run, "; ratios are ours / the baseline, timed in the same process."), "",
             "| benchmark | figure | against | ours | baseline | ratio | target |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for key, h in rows:
        target = h.get("target")
        arrow = "" if h["better"] == "higher" else " (lower is better)"
        lines.append(f"| `{key}` | {h['figure']}{arrow} | {h['against']} | {_num(h['ours'])} | "
                     f"{_num(h['baseline'])} | {ratio_text(h['ratio'])}x | "
                     f"{'' if target is None else f'{target:g}x'} |")
    return "\n".join(lines) + "\n"


def ratio_text(x: float) -> str:
    """A ratio for people: three significant digits, no exponent.

    >>> ratio_text(2718.3), ratio_text(1.1734), ratio_text(0.0421)
    ('2,718', '1.17', '0.0421')
    """
    if abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def _num(x: float) -> str:
    if isinstance(x, int) or float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.3g}" if abs(x) < 100 else f"{x:,.0f}"


def table_rows(benchmark: Any, rows: list[dict[str, Any]]) -> None:
    """Keep ``rows`` (each a column name -> a value, in column order) in
    ``benchmark.extra_info["rows"]``: the lines a docs table prints from a
    saved run (:func:`rows_table`), for results that are more than a ratio
    (a match, a per-round analysis). Values should be text or numbers."""
    json.dumps(rows)                          # fail in the benchmark, not at save time
    benchmark.extra_info["rows"] = rows


def _run_line(run: dict[str, Any], what: str) -> str:
    commit = run.get("commit_info") or {}
    sha = (commit.get("id") or "unknown")[:12] + (" (uncommitted changes)" if commit.get("dirty") else "")
    return (f"<sub>From run `{Path(run.get('_path', 'run')).name}` ({run_mode(run)} mode), "
            f"commit `{sha}`, {str(run.get('datetime', ''))[:19]}{what}</sub>")


def rows_table(run: dict[str, Any], only: str | None = None) -> str:
    """The rows kept by :func:`table_rows` in the benchmarks of ``run``
    whose key (``bench_file::test[param]``) starts with ``only`` (one
    prefix, or several separated by commas; all if None), as one Markdown
    table, in the run's order, with a line naming the run and its commit.
    SolversError if none kept rows."""
    prefixes = None if only is None else tuple(p for p in only.split(",") if p)
    rows: list[dict[str, Any]] = []
    for entry in run["benchmarks"]:
        kept = (entry.get("extra_info") or {}).get("rows")
        if isinstance(kept, list) and (prefixes is None or benchmark_key(entry).startswith(prefixes)):
            rows.extend(r for r in kept if isinstance(r, dict))
    if not rows:
        raise SolversError(f"{run.get('_path', 'the run')}: no benchmark "
                           f"{'matching ' + repr(only) + ' ' if only else ''}kept table rows "
                           "(solvers.benchtrack.table_rows)")
    columns: list[str] = []
    for r in rows:
        columns += [c for c in r if c not in columns]
    right = [all(isinstance(r.get(c), (int, float)) or r.get(c) in (None, "") for r in rows)
             for c in columns]
    lines = [_run_line(run, "."), "", "| " + " | ".join(columns) + " |",
             "| " + " | ".join("---:" if x else "---" for x in right) + " |"]
    for r in rows:
        cells = []
        for c in columns:
            v = r.get(c)
            # numbers as the benchmark rounded them, with thousands marked
            cells.append("" if v is None else format(v, ",") if isinstance(v, (int, float))
                         and not isinstance(v, bool) else str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _ladder_block(path: Path, shown: str, only: str | None) -> str:
    from .ladder import ladder_markdown, load_ladder

    lad, table = load_ladder(path)
    return ladder_markdown(table, shown, lad.sessions, len(lad.results))


def _tournament_block(path: Path, shown: str, only: str | None) -> str:
    from .tournament import load_tournament, tournament_markdown

    return tournament_markdown(load_tournament(path), shown)


def _run_block(kind: str) -> Callable[[Path, str, str | None], str]:
    def render(path: Path, shown: str, only: str | None) -> str:
        run = load_run(path)
        run["_path"] = shown
        if kind == "rows":
            return rows_table(run, only)
        return markdown_table(run, None if kind == "all" else kind)
    return render


#: What each KIND of a docs block is made from: a saved ladder or
#: tournament, a run's kept rows, or a run's headline figures (of one
#: kind, or all).
BLOCK_RENDERERS: dict[str, Callable[[Path, str, str | None], str]] = {
    "ladder": _ladder_block, "tournament": _tournament_block,
    "rows": _run_block("rows"), "all": _run_block("all"),
    **{k: _run_block(k) for k in ("speed", "strength", "memory")},
}

#: A generated table in a Markdown file: the opening marker names the kind,
#: the file (relative to the Markdown file's folder) and, for ``rows``, the
#: benchmarks whose rows it shows (a key prefix).
_BLOCK = re.compile(r"(<!-- bench-table (?P<kind>\w+) (?P<path>\S+)(?: (?P<only>\S+))? -->\n)"
                    r"(?P<body>.*?)(<!-- /bench-table -->)", re.S)


def update_tables(text: str, folder: str | os.PathLike[str]) -> str:
    """``text`` (a Markdown file's) with every block between
    ``<!-- bench-table KIND FILE.json [ONLY] -->`` and ``<!-- /bench-table -->``
    made anew from that file (:data:`BLOCK_RENDERERS`); ``folder`` is where
    relative paths start. docs/benchmarks/speed.md and strength.md are kept
    this way. SolversError for an unknown KIND."""
    def fill(m: re.Match[str]) -> str:
        render = BLOCK_RENDERERS.get(m["kind"])
        if render is None:
            raise SolversError(f"bench-table {m['kind']}: not a kind of table "
                               f"({', '.join(sorted(BLOCK_RENDERERS))})")
        return m.group(1) + render(Path(folder) / m["path"], m["path"], m["only"]) + m.group(6)

    return _BLOCK.sub(fill, text)


def table_blocks(text: str) -> list[tuple[str, str]]:
    """(kind, run path) of every generated table in ``text``."""
    return [(m["kind"], m["path"]) for m in _BLOCK.finditer(text)]


def history(runs: list[dict[str, Any]], key: str) -> list[tuple[str, float]]:
    """``(run label, ratio)`` of one figure across ``runs`` (runs without it left out)."""
    out = []
    for run in runs:
        h = figures(run).get(key)
        if h is not None:
            out.append((run_label(run), float(h["ratio"])))
    return out


def plot_history(runs: list[dict[str, Any]], keys: list[str], path: str) -> str:
    """A PNG of each figure's ratio across ``runs`` (``.[plot]``: matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SolversError('plotting needs matplotlib: pip install "solvers[plot]"') from None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for key in keys:
        points = history(runs, key)
        if points:
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=key)
    ax.set_ylabel("ratio (ours / baseline)")
    ax.set_xlabel("run")
    ax.set_title("benchmark ratios across runs")
    ax.grid(alpha=0.3)
    if keys:
        ax.legend(fontsize=7)
    fig.autofmt_xdate()
    fig.tight_layout()
    tmp = f"{path}.tmp.png"
    fig.savefig(tmp, dpi=110)
    plt.close(fig)
    os.replace(tmp, path)
    return path


__all__ = ["headline", "best_rates", "make_run", "save_run", "load_run", "figures", "list_runs", "compare",
           "format_compare", "load_baseline", "gate", "tolerance_from", "make_baseline",
           "markdown_table", "rows_table", "table_rows", "update_tables", "table_blocks", "history",
           "plot_history", "git_commit", "run_mode", "run_label"]
