"""Benchmark tracking (solvers.benchtrack, `solve bench`, benchmarks/conftest.py).

The comparisons and the gate are checked on hand-made runs whose expected
output is worked out by hand here; a real quick run of one benchmark file is
saved, compared and gated through the command line; and the gate inside a
pytest session fails it with one line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import one_error_line, run
from solvers import benchtrack

ROOT = Path(__file__).resolve().parents[1]
FIXED_RUN = Path(__file__).with_name("data") / "bench_run.json"


def entry(key: str, ratio: float, better: str = "higher", kind: str = "speed") -> dict:
    file, _, test = key.partition("::")
    return {"name": test, "fullname": f"benchmarks/{file}.py::{test}",
            "extra_info": {"headline": {"figure": f"figure of {test}", "ratio": ratio, "ours": ratio,
                                        "baseline": 1.0, "against": "one", "better": better,
                                        "target": None, "kind": kind}}}


def make(entries: list[dict], sha: str, mode: str = "quick") -> dict:
    return benchtrack.make_run(entries, mode, commit={"id": sha, "dirty": False})


def write_run(folder: Path, number: int, run: dict) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / benchtrack.run_filename(run, number)
    path.write_text(json.dumps(run))
    return path


# --------------------------------------------------------------- the model
def test_headline_is_the_ratio_of_the_two_sides():
    class Bench:
        extra_info: dict = {}

    h = benchtrack.headline(Bench, "x / y", 30.0, 12.0, against="y")
    assert h["ratio"] == 2.5 and Bench.extra_info["headline"] is h
    with pytest.raises(ValueError):
        benchtrack.headline(Bench, "x / y", 3.0, 0.0, against="y")


def test_compare_lines_up_figures_and_signs_the_change():
    a = make([entry("bench_a::speed", 100.0), entry("bench_a::latency", 2.0, "lower")], "a" * 40)
    b = make([entry("bench_a::speed", 80.0), entry("bench_a::latency", 1.0, "lower"),
              entry("bench_b::new", 5.0)], "b" * 40)
    rows = {r["benchmark"]: r for r in benchtrack.compare([a, b])}
    assert rows["bench_a::speed"]["ratios"] == [100.0, 80.0]
    assert rows["bench_a::speed"]["change"] == pytest.approx(-0.20)     # 100 -> 80: 20% worse
    assert rows["bench_a::latency"]["change"] == pytest.approx(0.50)    # 2 -> 1, lower is better
    assert rows["bench_b::new"]["ratios"] == [None, 5.0] and rows["bench_b::new"]["change"] is None


def test_gate_fails_only_past_the_tolerance():
    base = {"schema": benchtrack.BASELINE_SCHEMA, "mode": "quick", "figures": {
        "bench_a::speed": {"ratio": 100.0, "tolerance": 0.25, "better": "higher"},
        "bench_a::latency": {"ratio": 2.0, "tolerance": 0.5, "better": "lower"}}}
    # within: 76 >= 100 * 0.75 and 2.9 <= 2 * 1.5
    ok = make([entry("bench_a::speed", 76.0), entry("bench_a::latency", 2.9, "lower")], "c" * 40)
    assert benchtrack.gate(ok, base) == []
    # past: 74 < 75, and 3.1 > 3.0
    bad = make([entry("bench_a::speed", 74.0), entry("bench_a::latency", 3.1, "lower")], "d" * 40)
    lines = benchtrack.gate(bad, base)
    assert len(lines) == 2
    assert lines[0].startswith("bench_a::speed:") and "74" in lines[0] and "baseline 100" in lines[0]
    assert "at least 75" in lines[0]
    assert lines[1].startswith("bench_a::latency:") and "at most 3" in lines[1]
    # a figure without a baseline passes; a baseline of the other mode is refused
    assert benchtrack.gate(make([entry("bench_z::other", 0.001)], "e" * 40), base) == []
    with pytest.raises(benchtrack.SolversError):
        benchtrack.gate(make([entry("bench_a::speed", 74.0)], "f" * 40, mode="full"), base)


def test_gate_passes_a_value_the_baselines_own_runs_gave():
    """A figure whose runs spread wider than the largest tolerance (13 to 29
    around 15, capped at 80%: at most 27) passes anything up to its runs'
    worst, 29, and fails past it; a tight figure keeps its tolerance."""
    base = {"schema": benchtrack.BASELINE_SCHEMA, "mode": "quick", "figures": {
        "bench_w::click": {"ratio": 15.0, "tolerance": 0.8, "better": "lower",
                           "spread": [13.0, 29.0]},
        "bench_w::rate": {"ratio": 10.0, "tolerance": 0.8, "better": "higher",
                          "spread": [1.0, 20.0]},
        "bench_w::tight": {"ratio": 10.0, "tolerance": 0.25, "better": "higher",
                           "spread": [9.5, 10.5]}}}
    ok = make([entry("bench_w::click", 28.5, "lower"), entry("bench_w::rate", 1.5),
               entry("bench_w::tight", 7.6)], "a" * 40)
    assert benchtrack.gate(ok, base) == []
    bad = make([entry("bench_w::click", 29.5, "lower"), entry("bench_w::rate", 0.9),
                entry("bench_w::tight", 7.4)], "b" * 40)
    lines = benchtrack.gate(bad, base)
    assert [line.split(":")[0] + "::" + line.split("::")[1].split(":")[0] for line in lines] == \
        ["bench_w::click", "bench_w::rate", "bench_w::tight"]
    assert "at most 29" in lines[0] and "at least 1" in lines[1] and "at least 7.5" in lines[2]


def test_baseline_takes_the_median_and_a_tolerance_from_the_spread():
    runs = [make([entry("bench_a::speed", r)], f"{i}" * 40) for i, r in enumerate((10.0, 12.0, 11.0))]
    base = benchtrack.make_baseline(runs)
    fig = base["figures"]["bench_a::speed"]
    assert fig["ratio"] == 11.0 and fig["spread"] == [10.0, 12.0] and fig["runs"] == 3
    assert fig["tolerance"] == pytest.approx(0.30)            # 1.5 x (12/10 - 1)
    single = benchtrack.make_baseline(runs[:1])["figures"]["bench_a::speed"]
    assert single["tolerance"] == benchtrack.MAX_TOLERANCE    # no spread known


def test_markdown_table_of_a_fixed_run():
    run = benchtrack.load_run(FIXED_RUN)
    assert benchtrack.markdown_table(run, "speed") == (
        "<sub>From run `bench_run.json` (full mode), commit `0123456789ab`, "
        "2026-12-01T10:00:00; ratios are ours / the baseline, timed in the same process.</sub>\n"
        "\n"
        "| benchmark | figure | against | ours | baseline | ratio | target |\n"
        "| --- | --- | --- | ---: | ---: | ---: | ---: |\n"
        "| `bench_c2c_kernel::bench_c2c_random_solo_games` | random solo games/s, kernel / reference"
        " | the pure-Python reference rules | 412,000 | 350 | 1,177x | 100x |\n"
        "| `bench_engine::bench_stop_answers_at_once` | stop's reply time during a search / a hello"
        " round trip (lower is better) | the engine's hello round trip | 0.0021 | 0.0007 | 3x |  |\n")
    strength = benchtrack.markdown_table(run, "strength")
    assert "bench_switchbacks_strength::bench_mcts_vs_greedy" in strength and "c2c_kernel" not in strength



def test_rows_table_prints_the_rows_benchmarks_kept():
    """Rows kept by two benchmarks (one of them parametrized) become one
    table in the run's order; columns in first-seen order, numbers right
    aligned and formatted as the other tables; ``only`` picks by key
    prefix. Expected text worked out by hand."""
    class Fake:
        extra_info: dict = {}

    a, b, c = Fake(), Fake(), Fake()
    a.extra_info, b.extra_info, c.extra_info = {}, {}, {}
    benchtrack.table_rows(a, [{"deal": "first", "wins": 92, "ratio": 0.713}])
    benchtrack.table_rows(b, [{"deal": "second", "wins": 1500, "ms": None}])
    benchtrack.table_rows(c, [{"other": "x"}])
    run = make([{"name": "bench_w[a]", "fullname": "benchmarks/bench_s.py::bench_w[a]",
                 "extra_info": a.extra_info},
                {"name": "bench_w[b]", "fullname": "benchmarks/bench_s.py::bench_w[b]",
                 "extra_info": b.extra_info},
                {"name": "bench_v", "fullname": "benchmarks/bench_s.py::bench_v", "extra_info": c.extra_info},
                entry("bench_s::bench_u", 2.0)], "0123456789abcdef", mode="full")
    run["datetime"], run["_path"] = "2026-12-04T02:00:00+00:00", "dir/s.json"
    assert benchtrack.rows_table(run, "bench_s::bench_w") == (
        "<sub>From run `s.json` (full mode), commit `0123456789ab`, 2026-12-04T02:00:00.</sub>\n"
        "\n"
        "| deal | wins | ratio | ms |\n"
        "| --- | ---: | ---: | ---: |\n"
        "| first | 92 | 0.713 |  |\n"
        "| second | 1,500 |  |  |\n")
    assert "| other |" in benchtrack.rows_table(run) and "| x |" in benchtrack.rows_table(run)
    both = benchtrack.rows_table(run, "bench_s::bench_w[b],bench_s::bench_v").splitlines()
    assert both[2] == "| deal | wins | ms | other |" and len(both) == 6
    with pytest.raises(benchtrack.SolversError, match="no benchmark matching 'bench_s::bench_u'"):
        benchtrack.rows_table(run, "bench_s::bench_u")     # it kept a headline only
    with pytest.raises(TypeError):
        benchtrack.table_rows(a, [{"x": object()}])        # refused at once, not at save time


def test_update_tables_fills_rows_blocks_and_refuses_an_unknown_kind(tmp_path):
    class Fake:
        extra_info: dict = {}

    b = Fake()
    b.extra_info = {}
    benchtrack.table_rows(b, [{"match": "one", "won": 3}])
    run = make([{"name": "bench_m", "fullname": "benchmarks/bench_s.py::bench_m",
                 "extra_info": b.extra_info}], "abcdef0123456789", mode="full")
    (tmp_path / "r.json").write_text(json.dumps(run))
    page = "# P\n<!-- bench-table rows r.json bench_s::bench_m -->\nold\n<!-- /bench-table -->\n"
    new = benchtrack.update_tables(page, tmp_path)
    assert "old" not in new and "| one | 3 |" in new and "commit `abcdef012345`" in new
    assert benchtrack.update_tables(new, tmp_path) == new
    with pytest.raises(benchtrack.SolversError, match="bench-table sped: not a kind of table"):
        benchtrack.update_tables(page.replace("rows", "sped"), tmp_path)


# ------------------------------------------------------------ the command
def test_compare_command_on_saved_runs(capsys, tmp_path):
    folder = tmp_path / "runs"
    write_run(folder, 1, make([entry("bench_a::speed", 100.0)], "a" * 40))
    write_run(folder, 2, make([entry("bench_a::speed", 90.0)], "b" * 40))
    code, out, _ = run(capsys, "bench", "compare", "--runs", folder)
    assert code == 0
    line = next(l for l in out.splitlines() if l.startswith("bench_a::speed"))
    assert line.split()[1:] == ["100", "90", "-10.0%"]
    code, out, _ = run(capsys, "bench", "compare", "--runs", folder, "--json")
    assert json.loads(out)["figures"][0]["ratios"] == [100.0, 90.0]


def test_bench_commands_refuse_bad_input_in_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "bench", "compare", "--runs", tmp_path)
    assert code == 2 and "no saved runs" in one_error_line(err)
    junk = tmp_path / "junk.json"
    junk.write_text("{\"benchmarks\": 3}")
    code, _, err = run(capsys, "bench", "gate", junk)
    assert code == 2 and "not a benchmark run" in one_error_line(err)
    code, _, err = run(capsys, "bench", "compare", "--last", "0")
    assert code == 2 and "--last" in one_error_line(err)
    code, _, err = run(capsys, "bench", "table", FIXED_RUN, "--only", "bench_engine")
    assert code == 2 and "--only goes with --kind rows" in one_error_line(err)
    code, _, err = run(capsys, "bench", "table", FIXED_RUN, "--kind", "rows")
    assert code == 2 and "kept table rows" in one_error_line(err)


def quick_run(tmp_path: Path, *extra: str, bench: str = "benchmarks/bench_c2c_kernel.py",
              ) -> subprocess.CompletedProcess:
    """One benchmark file run quick in a child pytest, its ratios saved."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(
        [sys.executable, "-m", "pytest", bench, "--benchmark-disable", "-q", "-p", "no:cacheprovider",
         "--ratios-save", str(tmp_path / "run.json"), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)


def test_a_quick_run_is_gated_and_round_trips_through_compare(capsys, tmp_path):
    """One quick run of one benchmark file in a child pytest: the session's
    gate, against a baseline it cannot reach, fails it with one line; the
    run it saved reads back through compare and gate."""
    key = "bench_c2c_kernel::bench_c2c_random_solo_games"
    tight = tmp_path / "tight.json"
    tight.write_text(json.dumps({"schema": benchtrack.BASELINE_SCHEMA, "mode": "quick", "figures": {
        key: {"ratio": 1e9, "tolerance": 0.25, "better": "higher", "figure": "x"}}}))
    done = quick_run(tmp_path, "--ratio-baseline", str(tight), "-k", "bench_c2c_random_solo_games")
    assert done.returncode == 1, done.stdout + done.stderr
    regressions = [l for l in done.stdout.splitlines() if l.startswith("REGRESSION ")]
    assert len(regressions) == 1 and key in regressions[0] and "baseline 1,000,000,000" in regressions[0]

    saved = tmp_path / "run.json"
    run_data = benchtrack.load_run(saved)
    figs = benchtrack.figures(run_data)
    assert list(figs) == [key] and figs[key]["ratio"] > 1
    assert benchtrack.run_mode(run_data) == "quick"
    code, out, _ = run(capsys, "bench", "compare", saved, saved)
    assert code == 0 and key in out and "+0.0%" in out
    loose = tmp_path / "loose.json"
    loose.write_text(json.dumps({"schema": benchtrack.BASELINE_SCHEMA, "mode": "quick", "figures": {
        key: {"ratio": figs[key]["ratio"], "tolerance": 0.25, "better": "higher"}}}))
    code, out, _ = run(capsys, "bench", "gate", saved, "--baseline", loose)
    assert code == 0 and "1 figures within" in out
    code, _, err = run(capsys, "bench", "gate", saved, "--baseline", tight)
    assert code == 1 and err.startswith(f"REGRESSION {key}:")


def test_the_stored_baseline_covers_every_benchmark():
    """benchmarks/baseline.json (what CI gates on) names every benchmark that
    records a headline, so that a new benchmark is not silently ungated."""
    base = benchtrack.load_baseline(ROOT / "benchmarks" / "baseline.json")
    assert base["mode"] == "quick"
    names = set()
    for path in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        text = path.read_text()
        if "headline(" in text or "strength(" in text:
            names.add(path.stem)
    gated = {k.split("::")[0] for k in base["figures"]}
    assert names <= gated, sorted(names - gated)
    for fig in base["figures"].values():
        assert benchtrack.MIN_TOLERANCE <= fig["tolerance"] <= benchtrack.MAX_TOLERANCE


def test_the_speed_tables_are_generated_from_their_saved_runs():
    """Every table between bench-table markers on the site's speed page
    (docs/benchmarks/speed.md, where the README's tables moved) is exactly
    what `solve bench table --update docs/benchmarks/speed.md` makes from
    the run it names (a path relative to the page)."""
    page = ROOT / "docs" / "benchmarks" / "speed.md"
    text = page.read_text()
    blocks = benchtrack.table_blocks(text)
    assert ("speed", "../../benchmarks/results/speed.json") in blocks
    assert benchtrack.update_tables(text, page.parent) == text
    # a control: a figure edited by hand is put back
    edited = re.sub(r"\| [0-9][0-9,.]*x \|", "| 0.5x |", text, count=1)
    assert edited != text and benchtrack.update_tables(edited, page.parent) == text


def test_the_ladder_tables_are_generated_from_their_saved_ladders():
    """The strength page's ladder tables are exactly what `solve bench table
    --update docs/benchmarks/strength.md` makes from the saved ladders."""
    page = ROOT / "docs" / "benchmarks" / "strength.md"
    text = page.read_text()
    blocks = [path for kind, path in benchtrack.table_blocks(text) if kind == "ladder"]
    assert "../../benchmarks/results/ladder-switchbacks.json" in blocks
    assert benchtrack.update_tables(text, page.parent) == text
    # a control: a rating edited by hand is put back
    edited = re.sub(r"\| \+[0-9]+ \|", "| +1 |", text, count=1)
    assert edited != text and benchtrack.update_tables(edited, page.parent) == text
