"""Coast to Coast over every shuffle: can a challenge be won at all, and how well?

Here the deal is a decision too. The model chooses the three starting
circles, which card circles which location and in what order, and builds the
deal from that afterwards::

    >>> from solvers.optimize.c2c_shuffles import best_over_shuffles
    >>> best = best_over_shuffles("Empire State Building")
    >>> best.feasible, best.status
    (True, 'optimal')

Why a small model is enough. Whatever the shuffle, a game circles at most 3
starting locations and 15 more, each joined to a location circled before
it, each with its own card (never the challenge card, never a setup card),
and a card circles a location only if they share a characteristic. The set
``E`` of locations ever circled therefore grows from the three starts, and
the rulebook score of ``E`` plus 2 points per card circling its own
location is at least the score of the game (scores only grow with the
itinerary). So the model below, which knows nothing of rounds, crosses or
compulsory circling, is a relaxation: when it is infeasible no shuffle wins,
and its optimum bounds every shuffle.

Its optimum is also reachable. Order the circles by the model's ``order``
variables, deal them three per round with their own cards, and give each
round (and the setup) one more card whose location is not in ``E`` to cross
off. If the plan uses all 15 round circles (it is first extended with
circles that can only add points), no card is ever skipped, so compulsory
circling holds, and the plan replays through the reference rules to the
model's score. That replay is done every time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from ..errors import SolversError
from ..games.c2c.data import CoastMap
from ..games.c2c.reference import CARDS_PER_ROUND, ROUNDS
from .c2c import (
    _STATUS,
    SETUP_CARDS,
    Plan,
    _as_map,
    _bits,
    _challenge_id,
    replay_plan,
    score_terms,
)

START_CIRCLES = SETUP_CARDS - 1
ROUND_CIRCLES = (CARDS_PER_ROUND - 1) * ROUNDS


@dataclass
class BestOverShuffles:
    """What :func:`best_over_shuffles` found.

    ``deal`` and ``plan`` are one shuffle and one play that reach ``score``
    (the plan uses the JSON contract of :func:`~solvers.optimize.c2c.hindsight_optimum`).
    ``canonical`` says they are the canonical optimum (see
    :func:`best_over_shuffles`): the same for any number of workers, on any
    backend.
    """

    challenge: str | None
    feasible: bool | None
    score: int | None
    status: str
    bound: float | None
    deal: list[int] | None
    plan: Plan | None
    wall_time: float
    canonical: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class _FreeVars:
    start: dict[int, Any]
    use: dict[tuple[int, int], Any]     # (card, location)
    ever: dict[int, Any]
    order: dict[int, Any]
    parent: dict[tuple[int, int], Any]  # (location, the neighbour it hangs on)


def add_starting_circles(model: cp_model.CpModel, coast: CoastMap, challenge: int | None) -> dict:
    """Three starting circles, made by their own setup cards."""
    start = {l: model.new_bool_var(f"start_{l}") for l in range(coast.n) if l != challenge}
    model.add(sum(start.values()) == START_CIRCLES)
    return start


def add_cards_circle_matching_locations(model: cp_model.CpModel, coast: CoastMap,
                                        challenge: int | None, start: dict) -> tuple[dict, dict]:
    """Each card circles at most one location sharing a characteristic with it
    (a setup card none); each location is circled at most once; 15 round circles."""
    use = {(k, l): model.new_bool_var(f"use_{k}_{l}")
           for k in range(coast.n) if k != challenge
           for l in _bits(coast.matches[k])}
    for k in range(coast.n):
        if k == challenge:
            continue
        model.add(start[k] + sum(use[k, l] for l in _bits(coast.matches[k])) <= 1)
    ever = {}
    for l in range(coast.n):
        by_card = [use[k, l] for k in range(coast.n) if (k, l) in use]
        e = model.new_bool_var(f"ever_{l}")
        model.add(e == sum(by_card) + start.get(l, 0))
        ever[l] = e
    model.add(sum(use.values()) <= ROUND_CIRCLES)
    return use, ever


def add_each_circle_hangs_on_an_earlier_one(model: cp_model.CpModel, coast: CoastMap,
                                            start: dict, ever: dict) -> tuple[dict, dict]:
    """Every circle but the starting ones has a parent: a neighbour circled
    before it (``order`` strictly smaller), so the circles can be drawn in
    order of ``order``."""
    top = START_CIRCLES + ROUND_CIRCLES
    order = {l: model.new_int_var(0, top, f"order_{l}") for l in range(coast.n)}
    parent = {}
    for l in range(coast.n):
        arcs = []
        for m in _bits(coast.neighbours[l]):
            p = model.new_bool_var(f"parent_{l}_{m}")
            model.add_implication(p, ever[m])
            model.add(order[l] >= order[m] + 1).only_enforce_if(p)
            parent[l, m] = p
            arcs.append(p)
        model.add(sum(arcs) == ever[l] - start.get(l, 0))
        if l in start:
            model.add(order[l] == 0).only_enforce_if(start[l])
    return order, parent


def add_challenge_circled(model: cp_model.CpModel, coast: CoastMap, challenge: int | None,
                          ever: dict) -> None:
    """Every location the challenge card names is circled."""
    if challenge is None:
        return
    for l in _bits(coast.required_mask(challenge)):
        model.add(ever[l] == 1)


def _build(coast: CoastMap, challenge: int | None,
           cross_room: bool) -> tuple[cp_model.CpModel, _FreeVars, Any]:
    """The model, its variables and its objective (the score to maximise)."""
    model = cp_model.CpModel()
    start = add_starting_circles(model, coast, challenge)
    use, ever = add_cards_circle_matching_locations(model, coast, challenge, start)
    order, parent = add_each_circle_hangs_on_an_earlier_one(model, coast, start, ever)
    add_challenge_circled(model, coast, challenge, ever)
    if cross_room:
        # Six cards, unused and showing a location never circled, to cross off.
        spare = []
        for k in range(coast.n):
            if k == challenge:
                continue
            z = model.new_bool_var(f"spare_{k}")
            model.add_implication(z, ever[k].Not())
            for l in _bits(coast.matches[k]):
                model.add_implication(z, use[k, l].Not())
            model.add_implication(z, start[k].Not())
            spare.append(z)
        model.add(sum(spare) >= ROUNDS + 1)
    exact = [coast.exact_match_points * use[k, k] for k in range(coast.n) if (k, k) in use]
    objective = sum(score_terms(model, coast, ever)) + sum(exact)
    model.maximize(objective)
    return model, _FreeVars(start, use, ever, order, parent), objective


def _solver(time_limit: float, workers: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    solver.parameters.num_workers = workers
    return solver


#: Card ids are below 32 (``MAX_LOCATIONS``), so twelve of them, written as
#: the digits of one number in base 32, stay below 2**60: a CP-SAT objective.
_BASE = 32
_DIGITS = 12


def _fix(model: cp_model.CpModel, solver: cp_model.CpSolver, variables: list[Any]) -> None:
    """Fix ``variables`` to their values in ``solver``'s solution."""
    for x in variables:
        model.add(x == solver.value(x))


def _hint(model: cp_model.CpModel, solver: cp_model.CpSolver) -> None:
    """Start the next solve from ``solver``'s solution (it stays feasible)."""
    model.clear_hints()
    values = solver.response_proto.solution
    for i in range(len(values)):
        model.add_hint(model.get_int_var_from_proto_index(i), values[i])


def _canonical(model: cp_model.CpModel, v: _FreeVars, objective: Any, solver: cp_model.CpSolver,
               time_limit: float) -> tuple[cp_model.CpSolver, bool]:
    """The canonical one among the optimal solutions of ``model``, whatever
    the solver returned first: with the score fixed at the optimum, the
    lexicographically least (1) set of circled locations (as a bit mask,
    location 0 the lowest bit), then (2) set of starting circles, then (3)
    card circling each other circled location, taken in location order.
    Each stage minimises a weighted sum with one optimum (distinct choices
    have distinct sums) and fixes it, so the answer does not depend on
    the search, the number of workers, or which machine ran it.

    Returns the solver holding the last solution and whether every stage
    was proven optimal (if one runs out of ``time_limit`` the solution so
    far, optimal but not canonical, is returned).
    """
    model.add(objective == round(solver.objective_value))
    ever = [v.ever[l] for l in sorted(v.ever)]
    starts = [v.start[l] for l in sorted(v.start)]

    def stage(terms: list[tuple[int, Any]]) -> bool:
        nonlocal solver
        _hint(model, solver)
        model.minimize(sum(w * x for w, x in terms))
        # One worker with the full linear relaxation, which bounds these
        # weighted sums well. Measured on the 32 challenges: 10 s for all
        # the stages with it, 68 s without, and 179 s with two workers
        # (whose portfolio drops that setting).
        nxt = _solver(time_limit, 1)
        nxt.parameters.linearization_level = 2
        if nxt.solve(model) != cp_model.OPTIMAL:
            return False
        solver = nxt
        _fix(model, solver, [x for _, x in terms])
        return True

    if not stage([(1 << i, x) for i, x in enumerate(ever)]):
        return solver, False
    if not stage([(1 << i, x) for i, x in enumerate(starts)]):
        return solver, False
    # Every circled location but the starting ones has exactly one card.
    by_card = sorted(l for l in v.ever if solver.value(v.ever[l])
                     and not (l in v.start and solver.value(v.start[l])))
    card = {}
    for l in by_card:
        card[l] = model.new_int_var(0, _BASE - 1, f"card_of_{l}")
        model.add(card[l] == sum(k * lit for (k, m), lit in v.use.items() if m == l))
    for first in range(0, len(by_card), _DIGITS):
        group = by_card[first:first + _DIGITS]
        # The first location of the group is the most significant digit.
        terms = [(_BASE ** (len(group) - 1 - i), card[l]) for i, l in enumerate(group)]
        if not stage(terms):
            return solver, False
    return solver, True


def _in_drawing_order(coast: CoastMap, starts: list[int],
                      circles: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``circles`` ((card, location) pairs) in an order in which each joins a
    location circled before it: at each step the lowest-numbered location
    that can be drawn. It depends on the circles only, not on the order the
    solver gave them. The model guarantees that such an order exists, and
    drawing a location never stops another from being drawable."""
    circled = set(starts)
    left = sorted(circles, key=lambda c: c[1])
    ordered = []
    while left:
        i = next((i for i, (_, l) in enumerate(left)
                  if any(coast.neighbours[l] >> m & 1 for m in circled)), None)
        if i is None:
            raise RuntimeError("the model's circles are not joined to its starting circles")
        k, l = left.pop(i)
        ordered.append((k, l))
        circled.add(l)
    return ordered


def _deal_and_plan(coast: CoastMap, challenge: int | None, starts: list[int],
                   circles: list[tuple[int, int]]) -> tuple[list[int], Plan] | None:
    """Turn ordered (card, location) circles into a deal and a plan, after
    extending them to 15 circles. ``None`` if no six cards are left to cross."""
    names = [l.name for l in coast.locations]
    circled = set(starts) | {l for _, l in circles}
    used = set(starts) | {k for k, _ in circles}
    deck = [k for k in range(coast.n) if k != challenge]
    circles = list(circles)
    while len(circles) < ROUND_CIRCLES:
        best = None
        for l in range(coast.n):
            if l in circled or not any(coast.neighbours[l] >> m & 1 for m in circled):
                continue
            for k in deck:
                if k in used or not coast.matches[k] >> l & 1:
                    continue
                # Prefer an exact match, then a card whose own location is circled.
                key = (k == l, k in circled)
                if best is None or key > best[0]:
                    best = (key, k, l)
        if best is None:
            break
        _, k, l = best
        circles.append((k, l))
        circled.add(l)
        used.add(k)
    crossable = [k for k in deck if k not in used and k not in circled]
    rounds_needed = ROUNDS
    if len(crossable) < rounds_needed + 1 or len(circles) < ROUND_CIRCLES:
        return None
    crosses = crossable[:rounds_needed + 1]
    deal = list(starts) + [crosses[0]]
    plan_rounds = []
    for r in range(ROUNDS):
        chunk = circles[3 * r: 3 * r + 3]
        deal += [k for k, _ in chunk] + [crosses[r + 1]]
        plan_rounds.append({"cross": names[crosses[r + 1]],
                            "circles": [[names[k], names[l]] for k, l in chunk]})
    return deal, {"setup_cross": names[crosses[0]], "rounds": plan_rounds}


def best_over_shuffles(challenge: str | int | None, map: CoastMap | str | None = None,
                       time_limit: float = 60.0, workers: int = 1) -> BestOverShuffles:
    """Whether any shuffle and play wins ``challenge``, and the best winning score.

    ``feasible`` is ``False`` only when the relaxation (see the module
    docstring) is proven infeasible, which proves no shuffle wins. The
    returned deal and plan are replayed through the reference rules.

    Many shuffles reach the best score, and CP-SAT with several workers
    returns whichever it met first. Once the best score is proven, the
    returned deal and plan are made canonical (a few more solves, see
    :func:`_canonical`), so they are the same whatever ``workers`` is;
    ``canonical`` is False only when one of those solves ran out of
    ``time_limit`` (seconds for each solve). Their cost, measured over the
    32 challenges in one process: 10 s on top of the 17 s of the first
    solves with one worker (x0.6), 17 s on top of 64 s with two (x0.3).
    """
    start_time = time.perf_counter()
    if not time_limit > 0:
        raise SolversError(f"time_limit should be positive, not {time_limit!r}")
    if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
        raise SolversError(f"workers should be a positive int, not {workers!r}")
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    name = None if ch is None else coast.locations[ch].name
    relaxed_bound: float | None = None
    for cross_room in (False, True):
        model, v, objective = _build(coast, ch, cross_room)
        solver = _solver(time_limit, workers)
        code = solver.solve(model)
        status = _STATUS.get(code, "unknown")
        if code == cp_model.INFEASIBLE and not cross_room:
            return BestOverShuffles(name, False, None, "infeasible", None, None, None,
                                    time.perf_counter() - start_time)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        if relaxed_bound is None:
            relaxed_bound = solver.best_objective_bound
        claimed = round(solver.objective_value)
        canonical = False
        if code == cp_model.OPTIMAL:
            solver, canonical = _canonical(model, v, objective, solver, time_limit)
        val = solver.boolean_value
        starts = sorted(l for l, lit in v.start.items() if val(lit))
        made = _in_drawing_order(coast, starts, [kl for kl, lit in v.use.items() if val(lit)])
        built = _deal_and_plan(coast, ch, starts, made)
        if built is None:
            continue          # try again, keeping six cards free to cross off
        deal, plan = built
        state = replay_plan(deal, plan, ch, coast)
        score = state.score_breakdown()["total"]
        if state.challenge_won() is False:
            raise RuntimeError(f"the plan built for {name} does not win on replay")
        if score < claimed:
            raise RuntimeError(f"the model scores {claimed} but the replay {score}")
        # Optimal only if the replayed score meets the relaxation's bound.
        status = "optimal" if relaxed_bound is not None and score >= relaxed_bound - 1e-6 else "feasible"
        return BestOverShuffles(name, True, score, status, relaxed_bound, deal, plan,
                                time.perf_counter() - start_time, canonical)
    return BestOverShuffles(name, None, None, "unknown", relaxed_bound, None, None,
                            time.perf_counter() - start_time)
