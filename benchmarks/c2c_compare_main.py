"""Same answers as the committed code: hindsight proofs and feasibility, old against new.

Loads ``src/solvers/optimize/c2c.py`` as it is on a git revision (by default
``b62553f``, the last one before the feasibility fast path and the flow
precheck) next to the working copy, runs both in this process on the same
seeded deals and prints the status and score of each, the wall times and the
solver's deterministic times, and their ratios (old / new). Any difference
in status, score or win is listed and makes the exit status 1::

    python benchmarks/c2c_compare_main.py --deals 30 --shuffles 60
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solvers.games.c2c.data import load_map
from solvers.optimize import c2c as new
from solvers.rng import SplitMix64

CHALLENGES = ("Cedar Point", "Wrigley Field", "Empire State Building", "Space Needle",
              "Golden Gate Bridge")


def load_revision(rev: str):
    """The module c2c.py of git revision ``rev``, imported as a sibling of ours."""
    root = Path(__file__).resolve().parents[1]
    text = subprocess.run(["git", "show", f"{rev}:src/solvers/optimize/c2c.py"], cwd=root,
                          check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "c2c_old.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("solvers.optimize._c2c_old", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _decide(mod, deal, ch, coast):
    start = time.perf_counter()
    if mod.obviously_lost(deal, ch, coast):
        return False, "precheck", time.perf_counter() - start, 0.0
    r = mod.hindsight_optimum(deal, ch, coast, objective=False, time_limit=60)
    won = True if r.status == "feasible" else False if r.status == "infeasible" else None
    return won, "model", time.perf_counter() - start, r.deterministic_time


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="b62553f")
    ap.add_argument("--deals", type=int, default=30, help="proofs of the optimum (0: none)")
    ap.add_argument("--shuffles", type=int, default=60, help="feasibility shuffles per challenge")
    args = ap.parse_args()
    old = load_revision(args.rev)
    coast = load_map()
    diffs = []
    rng = SplitMix64(2026)       # the deals of benchmarks/bench_c2c_optimize.py
    deals = [new.shuffle_deal(None, rng.next()) for _ in range(args.deals)]
    rows = []
    for i, deal in enumerate(deals):
        a = old.hindsight_optimum(deal, time_limit=60)
        b = new.hindsight_optimum(deal, time_limit=60)
        if (a.status, a.score) != (b.status, b.score):
            diffs.append(("proof", i, (a.status, a.score), (b.status, b.score)))
        rows.append((a.wall_time, b.wall_time, a.deterministic_time, b.deterministic_time))
        print(f"deal {i}: {a.status} {a.score} / {b.status} {b.score}  wall {a.wall_time:.2f} / "
              f"{b.wall_time:.2f} s  det {a.deterministic_time:.2f} / {b.deterministic_time:.2f}",
              flush=True)
    if rows:
        cols = list(zip(*rows))
        print(f"proofs, {len(rows)} deals (old / new): wall median {statistics.median(cols[0]):.3f}"
              f" / {statistics.median(cols[1]):.3f} s, worst {max(cols[0]):.3f} / "
              f"{max(cols[1]):.3f} s; deterministic median {statistics.median(cols[2]):.3f} / "
              f"{statistics.median(cols[3]):.3f}, worst {max(cols[2]):.3f} / {max(cols[3]):.3f}; "
              f"total wall ratio {sum(cols[0]) / sum(cols[1]):.2f}")
    if args.shuffles:
        totals = {"old": [0.0, 0.0], "new": [0.0, 0.0]}
        count = 0
        for name in CHALLENGES:
            ch = coast.location(name).id
            for i, seed in enumerate(new.shuffle_seeds(0, args.shuffles)):
                deal = new.shuffle_deal(ch, seed, coast)
                a = _decide(old, deal, ch, coast)
                b = _decide(new, deal, ch, coast)
                count += 1
                for key, r in (("old", a), ("new", b)):
                    totals[key][0] += r[2]
                    totals[key][1] += r[3]
                if a[0] != b[0]:
                    diffs.append(("feasibility", name, i, a[:2], b[:2]))
        (ow, od), (nw, nd) = totals["old"], totals["new"]
        print(f"feasibility, {count} shuffles (old / new): {1000 * ow / count:.1f} / "
              f"{1000 * nw / count:.1f} ms a shuffle (x{ow / nw:.2f}); solver deterministic time "
              f"{od:.2f} / {nd:.2f} in total")
    for d in diffs:
        print("DIFFERENT:", d)
    print("same answers" if not diffs else f"{len(diffs)} different answers")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
