"""Time of the Coast to Coast reports with their default settings.

Targets: ``solve c2c --challenge NAME`` under a minute on 2 cores, and
``solve c2c --all-challenges`` (all 32 challenges, default shuffles) within
10 minutes on 2 cores. The full run of all 32 challenges takes minutes, so it
happens only when benchmarks are enabled and ``SOLVERS_BENCH_ALL=1`` is set;
otherwise one challenge is timed with the defaults (enabled) or a tiny
report runs once (``--benchmark-disable``). The online player's win rate is
recorded next to the hindsight ceiling on the same shuffles.
"""

from __future__ import annotations

import os
import time

from solvers.benchtrack import headline
from solvers.cli.c2c import DEFAULT_ONLINE, DEFAULT_SHUFFLES, DEFAULT_SHUFFLES_ALL, challenge_report
from solvers.games.c2c.data import load_map

MAP = load_map()
WORKERS = 2


def online_share(benchmark, data: dict, spec: str) -> None:
    """The headline: the online player's win rate over hindsight's (the
    shuffles it could have won), both on the report's shuffles, +0.01 each
    so that a shuffle set without a win still gives a ratio."""
    headline(benchmark, f"challenge win rate, online player ({spec}) / hindsight ceiling",
             data["online"]["rate"] + 0.01, data["ceiling"]["rate"] + 0.01,
             against="the hindsight ceiling on the same shuffles (+0.01 each)", kind="strength")


def bench_challenge_report_defaults(benchmark):
    ch = MAP.location("Wrigley Field").id
    if benchmark.disabled:
        data = benchmark(challenge_report, MAP, ch, 2, 0, 1, "mcts:iterations=50", 10.0)
        assert data["required_count"] == 16
        online_share(benchmark, data, "mcts:iterations=50")
        return
    data = benchmark.pedantic(challenge_report, args=(MAP, ch, DEFAULT_SHUFFLES, 0, WORKERS,
                                                      DEFAULT_ONLINE, 30.0), rounds=1, iterations=1)
    seconds = benchmark.stats.stats.max
    benchmark.extra_info.update({
        "seconds": seconds, "target_seconds": 60, "ceiling": data["ceiling"]["rate"],
        "online": data["online"]["rate"], "shuffles": DEFAULT_SHUFFLES,
    })
    online_share(benchmark, data, data["online"]["agent"])     # auto, resolved
    assert seconds <= 60


def bench_all_challenges_defaults(benchmark):
    if benchmark.disabled or os.environ.get("SOLVERS_BENCH_ALL") != "1":
        ch = MAP.location("Empire State Building").id
        data = benchmark(challenge_report, MAP, ch, 1, 0, 1, "mcts:iterations=20", 10.0)
        assert data["required_count"] == 9
        online_share(benchmark, data, "mcts:iterations=20")
        return

    def run_all():
        start = time.perf_counter()
        rows = [challenge_report(MAP, loc.id, DEFAULT_SHUFFLES_ALL, 0, WORKERS, DEFAULT_ONLINE, 30.0)
                for loc in MAP.locations]
        return rows, time.perf_counter() - start

    rows, seconds = benchmark.pedantic(run_all, rounds=1, iterations=1)
    benchmark.extra_info.update({
        "seconds": seconds, "target_seconds": 600,
        "ceiling": {r["challenge"]: r["ceiling"]["rate"] for r in rows},
        "online": {r["challenge"]: r["online"]["rate"] for r in rows},
    })
    headline(benchmark, f"challenge win rate over all challenges, online ({DEFAULT_ONLINE}) / hindsight",
             sum(r["online"]["rate"] for r in rows) + 0.01, sum(r["ceiling"]["rate"] for r in rows) + 0.01,
             against="the hindsight ceiling on the same shuffles (+0.01 each)", kind="strength")
    assert seconds <= 600
