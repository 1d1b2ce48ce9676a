"""Engine protocol timing, measured through a real ``solve engine`` process.

Targets (issue 4), each reported as a ratio to a baseline from the same run:

* a ``go`` with a 1 s budget answers within 1.1 s of wall time, request
  written to reply read: ``go_wall / budget <= 1.1``;
* a ``stop`` sent while a ``go`` searches is answered within 50 ms (the
  ``go`` reply, with its best move so far, comes first); the baseline is a
  ``hello`` round trip through the same pipes, recorded next to it.

``benchmark.extra_info`` records every figure. Under ``--benchmark-disable``
each part runs once on a tiny budget and only the replies are checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from solvers.benchtrack import headline

ROOT = Path(__file__).resolve().parents[1]
GO_BUDGET = 1.0
GO_RATIO = 1.1
STOP_TARGET = 0.050


class EngineProcess:
    """``solve engine`` in a child process, driven line by line."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "solvers.cli.main", "engine"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
        self.next_id = 0

    def send(self, cmd: str, **fields) -> int:
        self.next_id += 1
        line = json.dumps({"id": self.next_id, "cmd": cmd, **fields}) + "\n"
        self.proc.stdin.write(line.encode())
        self.proc.stdin.flush()
        return self.next_id

    def read(self) -> dict:
        return json.loads(self.proc.stdout.readline())

    def call(self, cmd: str, **fields) -> dict:
        rid = self.send(cmd, **fields)
        reply = self.read()
        assert reply["id"] == rid and "result" in reply, reply
        return reply["result"]

    def close(self) -> None:
        self.call("quit")
        self.proc.stdin.close()
        assert self.proc.wait(30) == 0

    def start_game(self) -> None:
        self.call("new", game="c2c", seed=3, options={"challenge": "Wrigley Field"})
        assert self.call("deal")["phase"] == "decision"


def timed_go(engine: EngineProcess, budget: float) -> tuple[float, dict]:
    start = time.perf_counter()
    result = engine.call("go", time=budget)
    return time.perf_counter() - start, result


def bench_go_answers_within_its_time_budget(benchmark):
    engine = EngineProcess()
    try:
        engine.start_game()
        if benchmark.disabled:
            # The best of 5: a go's own overhead, not a scheduler's hiccup
            # on a shared machine (one 20 ms go swung from 1.2 to 1.5x).
            runs = benchmark(lambda: [timed_go(engine, 0.02) for _ in range(5)])
            assert all(r["iterations"] > 0 and not r["stopped"] for _, r in runs)
            headline(benchmark, "wall time of a timed go / its time budget",
                     min(w for w, _ in runs), 0.02,
                     against="the go's time budget", higher_is_better=False, target=GO_RATIO)
            return
        walls = []

        def run() -> dict:
            wall, result = timed_go(engine, GO_BUDGET)
            walls.append(wall)
            return result

        result = benchmark.pedantic(run, rounds=3, iterations=1)
        worst = max(walls)
        benchmark.extra_info.update({
            "budget_s": GO_BUDGET, "wall_s": walls, "worst_ratio": worst / GO_BUDGET,
            "target_ratio": GO_RATIO, "iterations": result["iterations"],
        })
        headline(benchmark, "wall time of a timed go / its time budget", worst, GO_BUDGET,
                 against="the go's time budget", higher_is_better=False, target=GO_RATIO)
        assert worst / GO_BUDGET <= GO_RATIO, walls
    finally:
        engine.close()


def stop_latency(engine: EngineProcess, search_for: float) -> tuple[float, float, dict, dict]:
    """Start a long go, let it search ``search_for`` seconds, time a hello
    round trip while it searches, then stop it: the seconds from writing
    stop to reading its reply, the hello's seconds, and both go replies.

    The hello is answered by the same reader thread as the stop, with the
    same search running beside it, so the ratio of the two is like for like:
    on a busy machine both wait alike for their thread to be scheduled."""
    go_id = engine.send("go", time=3600)
    time.sleep(search_for)
    start = time.perf_counter()
    engine.call("hello")
    hello = time.perf_counter() - start
    start = time.perf_counter()
    stop_id = engine.send("stop")
    go = engine.read()
    stop = engine.read()
    latency = time.perf_counter() - start
    assert go["id"] == go_id and stop["id"] == stop_id, (go, stop)
    return latency, hello, go["result"], stop["result"]


def bench_stop_answers_at_once(benchmark):
    engine = EngineProcess()
    try:
        engine.start_game()
        figure = "stop's reply time during a search / a hello's during the same search"
        against = "a hello round trip while the same search runs"
        if benchmark.disabled:
            # quick: the best of 5 stops against the best of their 5 hellos
            # (a stop against an idle hello swung from 3x to 22x with the
            # machine's load; the real fault, a stop that waits for the
            # search to end, would be hundreds)
            runs = [benchmark(stop_latency, engine, 0.05)]       # the fixture times one call
            runs += [stop_latency(engine, 0.05) for _ in range(4)]
            for _, _, go, stop in runs:
                assert go["stopped"] and stop["stopped"] and go["iterations"] > 0
            headline(benchmark, figure, min(r[0] for r in runs), min(r[1] for r in runs),
                     against=against, higher_is_better=False)
            return
        latencies, hellos = [], []

        def run():
            latency, hello, go, stop = stop_latency(engine, 0.3)
            latencies.append(latency)
            hellos.append(hello)
            assert go["stopped"] and stop["stopped"]

        benchmark.pedantic(run, rounds=5, iterations=1)
        worst = max(latencies)
        baseline = min(hellos)
        benchmark.extra_info.update({
            "stop_s": latencies, "worst_stop_s": worst, "target_s": STOP_TARGET,
            "hello_during_search_s": hellos, "stop_to_hello_ratio": worst / baseline,
        })
        headline(benchmark, figure, worst, baseline, against=against, higher_is_better=False)
        assert worst <= STOP_TARGET, latencies
    finally:
        engine.close()
