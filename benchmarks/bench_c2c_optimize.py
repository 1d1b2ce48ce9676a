"""How fast the hindsight model proves optimality, against a plain time-indexed model.

Both models are run in the same process on the same seeded deals with one
CP-SAT worker. The plain model has a variable per location and time step
(15 circle steps after the setup) and no preprocessing; ours is
:func:`solvers.optimize.c2c.hindsight_optimum`. Reported in
``extra_info``: median and worst time to prove, share proven, and the ratio
of the two medians (the baseline's time is capped by its time limit, so the
ratio is a lower bound on the speed-up). A second baseline is our own model
started cold (``beam_width=0``: no plan from the kernel's beam search).

A third benchmark decides whether a challenge can be won on each of 300
seeded shuffles (five challenges, the ceiling's own path) and compares the
time a shuffle with CP-SAT deciding every shuffle on its own (no precheck,
no beam).

Under ``--benchmark-disable`` (CI) only one short deal (and ten shuffles)
is solved.
"""

from __future__ import annotations

import statistics
import time

from ortools.sat.python import cp_model

from solvers.benchtrack import headline
from solvers.games.c2c.data import load_map
from solvers.optimize.c2c import (
    Deal, ShuffleJob, hindsight_optimum, score_terms, shuffle_deal, shuffle_seeds,
)
from solvers.rng import SplitMix64

MAP = load_map()


def _bits(mask):
    return [i for i in range(MAP.n) if mask >> i & 1]


def plain_time_indexed(deal, rounds=5, time_limit=10.0):
    """The textbook model: which card circles which location at each step.

    Returns (status name, objective, wall time)."""
    d = Deal.of(deal, rounds=rounds)
    model = cp_model.CpModel()
    nb = [_bits(MAP.neighbours[l]) for l in range(MAP.n)]
    x = {k: model.new_bool_var(f"x{k}") for cs in d.cards for k in cs}
    for cs in d.cards:
        model.add_exactly_one(x[k] for k in cs)
    setup = {k: x[k].Not() for k in d.cards[0]}
    steps = [(r, s) for r in range(1, rounds + 1) for s in range(3)]
    z = {}
    for t, (r, _) in enumerate(steps):
        for k in d.cards[r]:
            for l in _bits(MAP.matches[k]):
                z[k, l, t] = model.new_bool_var(f"z{k}_{l}_{t}")
        model.add_at_most_one(v for (k, l, tt), v in z.items() if tt == t)
    for k in x:
        model.add(x[k] + sum(v for (kk, _, _), v in z.items() if kk == k) <= 1)
    circ_at = {(l, t): [v for (k, ll, tt), v in z.items() if ll == l and tt == t]
               for l in range(MAP.n) for t in range(len(steps))}
    for l in range(MAP.n):
        model.add(sum(v for t in range(len(steps)) for v in circ_at[l, t])
                  + (1 - x[l] if l in setup else 0) <= 1)
        if l in d.round_of:
            for t, (r, _) in enumerate(steps):
                if r >= d.round_of[l]:
                    for v in circ_at[l, t]:
                        model.add_implication(v, x[l].Not())

    def before(m, t):      # circled before step t, as a linear expression
        return sum(v for tt in range(t) for v in circ_at[m, tt]) + (1 - x[m] if m in setup else 0)

    for t, (r, _) in enumerate(steps):
        for l in range(MAP.n):
            if not circ_at[l, t]:
                continue
            here = sum(circ_at[l, t])
            present = []
            for m in nb[l]:
                p = model.new_bool_var("")
                model.add(p <= before(m, t))
                if m in d.round_of and d.round_of[m] <= r:
                    model.add_implication(p, x[m].Not())
                present.append(p)
            model.add(sum(present) >= here)
    # Compulsory circling at the end of each round.
    for r in range(1, rounds + 1):
        end = max(t for t, (rr, _) in enumerate(steps) if rr == r) + 1

        def crossed(l):
            return x[l] if l in d.round_of and d.round_of[l] <= r else 0

        free, present = {}, {}
        for l in range(MAP.n):
            free[l] = model.new_bool_var("")
            model.add(before(l, end) + crossed(l) + free[l] >= 1)
            present[l] = model.new_bool_var("")
            model.add(present[l] >= before(l, end) - crossed(l))
        for k in d.cards[r]:
            skip = model.new_bool_var("")
            model.add(skip + x[k] + sum(v for (kk, _, _), v in z.items() if kk == k) == 1)
            for l in _bits(MAP.matches[k]):
                if l in setup:
                    continue
                for m in nb[l]:
                    model.add_bool_or([skip.Not(), free[l].Not(), present[m].Not()])
    final = {}
    for l in range(MAP.n):
        f = model.new_bool_var(f"f{l}")
        model.add(f <= before(l, len(steps)))
        if l in x:
            model.add_implication(f, x[l].Not())
        final[l] = f
    exact = [2 * v for (k, l, t), v in z.items() if k == l]
    model.maximize(sum(score_terms(model, MAP, final)) + sum(exact))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    start = time.perf_counter()
    code = solver.solve(model)
    return solver.status_name(code), solver.objective_value, time.perf_counter() - start


def _deals(count):
    rng = SplitMix64(2026)
    return [shuffle_deal(None, rng.next()) for _ in range(count)]


TARGET_MEDIAN_S = 1.0
# Issue 29's goals on the 30 deals of the full run (recorded, not asserted).
GOAL_MEDIAN_S, GOAL_WORST_S = 0.25, 1.0
GOAL_FEASIBILITY_MS = 10.0


def test_bench_hindsight_vs_plain_model(benchmark, request):
    quick = request.config.getoption("benchmark_disable", False)
    ours_deals = _deals(1 if quick else 30)
    base_deals = ours_deals[:1] if quick else ours_deals[:3]
    base_limit = 3.0 if quick else 15.0
    if quick:
        ours_deals = [d[:12] for d in ours_deals]
        base_deals = [d[:12] for d in base_deals]
    rounds = 2 if quick else 5

    ours = []

    def run():
        ours.clear()
        for deal in ours_deals:
            ours.append(hindsight_optimum(deal, rounds=rounds, time_limit=30))

    benchmark.pedantic(run, rounds=1, iterations=1)
    base = [plain_time_indexed(d, rounds=rounds, time_limit=base_limit) for d in base_deals]
    # The same model without the kernel's beam-search plan to start from.
    cold = [hindsight_optimum(d, rounds=rounds, time_limit=30, beam_width=0) for d in ours_deals]

    ours_t = [r.wall_time for r in ours]
    base_t = [t for _, _, t in base]
    info = {
        "deals": len(ours),
        "median_s": statistics.median(ours_t),
        "max_s": max(ours_t),
        "share_proven": sum(r.status == "optimal" for r in ours) / len(ours),
        "deterministic_median": statistics.median(r.deterministic_time for r in ours),
        "deterministic_max": max(r.deterministic_time for r in ours),
        "goal_median_s": GOAL_MEDIAN_S,
        "goal_worst_s": GOAL_WORST_S,
        "baseline_median_s": statistics.median(base_t),
        "baseline_share_proven": sum(s == "OPTIMAL" for s, _, _ in base) / len(base),
        "baseline_time_limit_s": base_limit,
    }
    info["speedup_vs_baseline"] = info["baseline_median_s"] / max(info["median_s"], 1e-9)
    info["no_beam_median_s"] = statistics.median(r.wall_time for r in cold)
    info["speedup_vs_no_beam"] = info["no_beam_median_s"] / max(info["median_s"], 1e-9)
    benchmark.extra_info.update(info)
    shared = ours_t[:len(base_t)]
    headline(benchmark, "median time to the optimum, the plain time-indexed model / ours (shared deals)",
             statistics.median(base_t), max(statistics.median(shared), 1e-9),
             against="the plain time-indexed CP-SAT model (its time limit counted when it is not proven)")
    print(f"\nhindsight optimum, {len(ours)} deals, no challenge: median {info['median_s']:.2f} s, "
          f"worst {info['max_s']:.2f} s (solver deterministic time: median "
          f"{info['deterministic_median']:.2f}, worst {info['deterministic_max']:.2f}), "
          f"{info['share_proven']:.0%} proven; without the beam start "
          f"median {info['no_beam_median_s']:.2f} s ({info['speedup_vs_no_beam']:.1f}x slower); plain "
          f"time-indexed model proves {info['baseline_share_proven']:.0%} within {base_limit:g} s")
    for r, c in zip(ours, cold):
        assert c.status == "optimal" and c.score == r.score
    # On the shared deals the plain model never does better than ours, and
    # where it proves its value optimal the two optima are the same.
    for r, (status, value, _) in zip(ours, base):
        assert r.status == "optimal"
        if status == "OPTIMAL":
            assert abs(value - r.score) < 1e-6, (value, r.score)
        else:
            assert value <= r.score + 1e-6
    assert info["share_proven"] >= info["baseline_share_proven"]
    # A deal small enough (the setup and one round) for the plain model to
    # prove: both optima are the same number.
    small = ours_deals[0][:8]
    status, value, _ = plain_time_indexed(small, rounds=1, time_limit=30)
    proven = hindsight_optimum(small, rounds=1, time_limit=30)
    assert status == "OPTIMAL" and proven.status == "optimal" and abs(value - proven.score) < 1e-6
    if not quick:   # the target: a median of 1 s or less per deal, one core
        info["target_median_s"] = TARGET_MEDIAN_S
        assert info["median_s"] <= TARGET_MEDIAN_S, f"median {info['median_s']:.2f} s per deal"


def test_bench_hindsight_with_challenges(benchmark, request):
    """Random deals, each with a random challenge card (best winning score or infeasible)."""
    quick = request.config.getoption("benchmark_disable", False)
    rng = SplitMix64(7)
    cases = []
    for _ in range(1 if quick else 10):
        challenge = MAP.locations[rng.below(MAP.n)].name
        cases.append((challenge, shuffle_deal(challenge, rng.next())))
    results = []

    def run():
        results.clear()
        for challenge, deal in cases:
            results.append(hindsight_optimum(deal, challenge=challenge, time_limit=30))

    benchmark.pedantic(run, rounds=1, iterations=1)
    times = [r.wall_time for r in results]
    plain = [hindsight_optimum(deal, time_limit=30).wall_time for _, deal in cases]
    headline(benchmark, "median proof time with a challenge card / without one, the same deals",
             statistics.median(times), max(statistics.median(plain), 1e-9),
             against="the same deals' optimum without a challenge", higher_is_better=False)
    benchmark.extra_info.update({
        "deals": len(results),
        "median_s": statistics.median(times),
        "max_s": max(times),
        "share_proven": sum(r.status in ("optimal", "infeasible") for r in results) / len(results),
        "share_winnable": sum(r.won is True for r in results) / len(results),
    })
    print(f"\nhindsight optimum, {len(results)} deals with a random challenge: median "
          f"{statistics.median(times):.2f} s, worst {max(times):.2f} s")
    assert all(r.status in ("optimal", "infeasible") for r in results)
    if not quick:
        median = statistics.median(times)
        assert median <= TARGET_MEDIAN_S, f"median {median:.2f} s per deal"


FEASIBILITY_CHALLENGES = ("Cedar Point", "Wrigley Field", "Empire State Building", "Space Needle",
                          "Golden Gate Bridge")


def test_bench_challenge_feasibility(benchmark, request):
    """Can the challenge be won on this shuffle? 60 shuffles of five challenges."""
    quick = request.config.getoption("benchmark_disable", False)
    per = 10 if quick else 60
    challenges = FEASIBILITY_CHALLENGES[:1] if quick else FEASIBILITY_CHALLENGES
    items = [(MAP.location(name).id, i, seed) for name in challenges
             for i, seed in enumerate(shuffle_seeds(0, per))]
    outcomes = []

    def run():
        outcomes.clear()
        for ch, i, seed in items:
            outcomes.append(ShuffleJob(ch, MAP, 60.0)((i, seed)))

    benchmark.pedantic(run, rounds=1, iterations=1)
    ours_s = sum(o.wall_time for o in outcomes)
    # The same question put to CP-SAT on every shuffle, nothing before it.
    start = time.perf_counter()
    plain = [hindsight_optimum(o.deal, ch, MAP, objective=False, beam_width=0, time_limit=60)
             for (ch, _, _), o in zip(items, outcomes)]
    plain_s = time.perf_counter() - start
    ms = 1000 * ours_s / len(items)
    headline(benchmark, "time to decide a challenge on a shuffle, CP-SAT alone / ours",
             plain_s, ours_s, against="the CP-SAT feasibility model on every shuffle "
             "(no precheck, no beam search)")
    benchmark.extra_info.update({
        "shuffles": len(items),
        "ms_a_shuffle": ms,
        "cp_sat_alone_ms_a_shuffle": 1000 * plain_s / len(items),
        "won": sum(o.won is True for o in outcomes),
        "by_precheck": sum(o.how == "precheck" for o in outcomes),
        "goal_ms_a_shuffle": GOAL_FEASIBILITY_MS,
    })
    print(f"\nchallenge feasibility, {len(items)} shuffles: {ms:.1f} ms a shuffle "
          f"({sum(o.won is True for o in outcomes)} won, {sum(o.how == 'precheck' for o in outcomes)} "
          f"lost by the precheck); CP-SAT alone {1000 * plain_s / len(items):.1f} ms a shuffle")
    # Exact both ways: the same verdict on every shuffle.
    for o, p in zip(outcomes, plain):
        assert p.status in ("feasible", "infeasible")
        assert o.won is (p.status == "feasible")
