"""Coast to Coast with hindsight: the best itinerary for a deal known in advance.

A CP-SAT model of one solo game whose 24 cards (4 for setup, then 4 in each
of 5 rounds) are all known. Its optimum bounds what any player can score on
that shuffle; with a challenge card it says whether the shuffle can be won
at all and the best winning score::

    >>> from solvers.optimize.c2c import hindsight_optimum, shuffle_deal
    >>> deal = shuffle_deal("Empire State Building", seed=3)
    >>> result = hindsight_optimum(deal, challenge="Empire State Building")
    >>> result.status in ("optimal", "infeasible")
    True

The model, one function per rule (all facts about the deal that do not
depend on the player are worked out before the model is built):

* every dealt card is dealt in one known round, so a location can only be
  crossed off in the round its card shows up (``x[k]``, one per round);
* ``a[k, l]``: card ``k`` circles location ``l`` (only pairs that match and
  that a quick reachability sweep allows);
* ``C[l, r]``: ``l`` has been circled by the end of round ``r`` (a location
  is circled once at most, never after it is crossed off);
* a circle of a round hangs on a location that was present when the round
  began (depth 0), or on a circle of the same round made before it (depth
  1 and 2: a round has three circles, so the chains are short and acyclic by
  construction, which also gives the order in which to draw them);
* a card that circles nothing was skipped, so at the end of its round no
  free location matching it touches the itinerary (the player may leave
  skipped cards to the end of the round, so that test is exact);
* one depth per circle, the lowest it can have, so that equal plans are
  not searched twice;
* the score: a run of ``N`` circled locations along a highway scores
  ``N(N+1)/2``, the number of unbroken stretches inside it, so the highway
  points are a sum over stretches ``y[i..j] <= y[i..j-1], y[i+1..j]`` of
  weight one (other point tables use the second difference as weights);
  completed types and regions; exact matches ``a[k, k]``.

Every plan the solver returns is replayed through the reference rules
(:mod:`solvers.games.c2c.reference`) and its score checked. The points are
only bounded from above in the model (the objective wants them), so a plan
that is merely feasible may replay to more than the solver claimed; an
optimal one replays to exactly the optimum.

The solver starts from a good plan: a beam search over the known deal in
the kernel (:meth:`solvers._core.c2c.GameCore.hindsight_beam`, about 0.1 s)
whose moves are fixed in a copy of the model, so that every variable gets a
hinted value. It then has to prove that plan best, or find the few points
it misses.

Solver settings, measured on random deals with one worker: full linear
relaxation (``linearization_level=2``) without extra cutting planes
(``cut_level=0``), branching led by the linear relaxation
(``search_branching=LP_SEARCH``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from .._core.c2c import GameCore
from ..errors import SolversError
from ..games.c2c.challenges import challenge_id
from ..games.c2c.data import CoastMap, load_map
from ..games.c2c.deal import shuffle_deal, shuffle_seeds
from ..games.c2c.plan import replay_plan
from ..games.c2c.reference import CARDS_PER_ROUND, ROUNDS
from ..stats import wilson_interval

SETUP_CARDS = 4
Plan = dict[str, Any]
Literal = Any  # a CP-SAT Boolean variable, its negation, or a Python bool


# ---------------------------------------------------------------------------
# Inputs: map, challenge, deal
# ---------------------------------------------------------------------------

def _as_map(map: CoastMap | str | None) -> CoastMap:
    return map if isinstance(map, CoastMap) else load_map(map)


def _challenge_id(coast: CoastMap, challenge: str | int | None) -> int | None:
    return challenge_id(coast, challenge)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


@dataclass(frozen=True)
class Deal:
    """A known deal, split into rounds (round 0 is the setup).

    >>> d = Deal.of(list(range(12)), rounds=2)
    >>> d.cards[1], d.round_of[5]
    ((4, 5, 6, 7), 1)
    """

    cards: tuple[tuple[int, ...], ...]
    round_of: dict[int, int]

    @property
    def rounds(self) -> int:
        return len(self.cards) - 1

    @staticmethod
    def of(deal: Sequence[int], rounds: int = ROUNDS, n: int = 32,
           challenge: int | None = None) -> "Deal":
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 0 <= rounds <= ROUNDS:
            raise SolversError(f"rounds should be 0 to {ROUNDS}, not {rounds!r}")
        want = SETUP_CARDS + CARDS_PER_ROUND * rounds
        deal = list(deal)
        if len(deal) != want:
            raise SolversError(f"a deal of {rounds} rounds has {want} cards, not {len(deal)}")
        if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n for c in deal):
            raise SolversError(f"a deal lists card ids 0..{n - 1}")
        if len(set(deal)) != len(deal):
            raise SolversError("a deal must not list a card twice")
        if challenge is not None and challenge in deal:
            raise SolversError("the challenge card is out of the deck, so it cannot be dealt")
        cards = [tuple(deal[:SETUP_CARDS])]
        for r in range(rounds):
            start = SETUP_CARDS + CARDS_PER_ROUND * r
            cards.append(tuple(deal[start:start + CARDS_PER_ROUND]))
        round_of = {c: r for r, cs in enumerate(cards) for c in cs}
        return Deal(tuple(cards), round_of)

    def flat(self) -> list[int]:
        return [c for cs in self.cards for c in cs]


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------

@dataclass
class _Vars:
    """The decision variables, by name."""

    x: dict[int, Any] = field(default_factory=dict)                  # card crossed off
    a: dict[tuple[int, int], Any] = field(default_factory=dict)      # (card, loc): card circles loc
    depth: dict[tuple[int, int, int], Any] = field(default_factory=dict)  # (loc, round, depth)
    circled_by: dict[tuple[int, int], Literal] = field(default_factory=dict)  # C[l, r]
    skip: dict[int, Literal] = field(default_factory=dict)
    final: dict[int, Literal] = field(default_factory=dict)


class _Sheet:
    """Facts about a deal that do not depend on the player's choices."""

    def __init__(self, coast: CoastMap, deal: Deal, required: int):
        self.map, self.deal, self.required = coast, deal, required
        self.n = coast.n
        self.setup = set(deal.cards[0])
        self.nbrs = [_bits(coast.neighbours[l]) for l in range(self.n)]
        # reach[r][j]: locations a circle at depth j of round r might take,
        # ignoring which card pays for it (an over-estimate, so it is sound).
        self.reach: list[list[set[int]]] = [[set(self.setup)]]
        seen = set(self.setup)
        for r in range(1, deal.rounds + 1):
            wanted = 0
            for k in deal.cards[r]:
                wanted |= coast.matches[k]
            levels, frontier = [], seen
            for _ in range(3):
                nxt = {m for l in frontier for m in self.nbrs[l]
                       if wanted >> m & 1 and m not in self.setup}
                levels.append(nxt)
                frontier = nxt
            self.reach.append(levels)
            for lv in levels:
                seen |= lv
        self.ever = seen

    def can_circle(self, k: int, l: int, r: int) -> bool:
        return (self.map.matches[k] >> l & 1 == 1 and l not in self.setup
                and any(l in lv for lv in self.reach[r]))


def _clause(model: cp_model.CpModel, lits: Sequence[Literal]) -> None:
    """Add OR(lits), folding the Python constants True/False."""
    out = []
    for lit in lits:
        if lit is True:
            return
        if lit is False:
            continue
        out.append(lit)
    if not out:
        raise _Impossible()
    model.add_bool_or(out)


class _Impossible(Exception):
    """A clause with no literal left: the model is infeasible as stated."""


def _neg(lit: Literal) -> Literal:
    if isinstance(lit, bool):
        return not lit
    return lit.Not()


def add_setup(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """Setup: cross off one of the four cards, circle the other three."""
    for cards in sheet.deal.cards:
        for k in cards:
            v.x[k] = model.new_bool_var(f"cross_{k}")
    for k in sheet.deal.cards[0]:
        v.circled_by[k, 0] = v.x[k].Not()


def add_cross_off_each_round(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """Exactly one card of each round (and of the setup) is crossed off."""
    for cards in sheet.deal.cards:
        model.add_exactly_one(v.x[k] for k in cards)


def add_circles_match_their_card(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """A card circles at most one location that shares a highway, region or
    type with it; a location is circled once at most and never once crossed off."""
    deal = sheet.deal
    for r in range(1, deal.rounds + 1):
        for k in deal.cards[r]:
            for l in range(sheet.n):
                if sheet.can_circle(k, l, r):
                    v.a[k, l] = model.new_bool_var(f"circle_{l}_with_{k}")
            uses = [v.a[k, l] for l in range(sheet.n) if (k, l) in v.a]
            v.skip[k] = model.new_bool_var(f"skip_{k}")
            model.add_exactly_one([v.x[k], v.skip[k], *uses])
    for l in range(sheet.n):
        prev: Literal = v.circled_by.get((l, 0), False)
        v.circled_by[l, 0] = prev
        for r in range(1, deal.rounds + 1):
            now = [v.a[k, l] for k in deal.cards[r] if (k, l) in v.a]
            if now:
                cum = model.new_bool_var(f"circled_{l}_by_{r}")
                model.add(cum == sum(now) + (prev if not isinstance(prev, bool) else int(prev)))
                prev = cum
                lr = deal.round_of.get(l)
                if lr is not None and lr <= r:
                    for lit in now:          # crossed off first, so never circled after
                        model.add_implication(lit, v.x[l].Not())
            v.circled_by[l, r] = prev


def _present_when_round_starts(model: cp_model.CpModel, sheet: _Sheet, v: _Vars,
                               m: int, r: int, cache: dict[tuple[int, int], Literal]) -> Literal:
    """Literal that is true only if ``m`` is circled and not crossed off when
    round ``r`` starts circling (after its cross-off)."""
    if (m, r) in cache:
        return cache[m, r]
    before = v.circled_by[m, r - 1]
    lr = sheet.deal.round_of.get(m)
    if before is False or lr is None or lr > r:
        lit = before
    elif lr == 0:
        lit = before                      # setup circles: circled iff not crossed
    else:
        lit = model.new_bool_var(f"present_{m}_in_{r}")
        model.add_implication(lit, before)
        model.add_implication(lit, v.x[m].Not())
        model.add_bool_or([lit, before.Not(), v.x[m]])
    cache[m, r] = lit
    return lit


def add_connected_to_an_earlier_circle(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """Each circle of a round is joined by a line to a location already in the
    itinerary: one present when the round began (depth 0) or a circle of this
    round at the depth just below."""
    deal, cache = sheet.deal, dict[Any, Any]()
    for r in range(1, deal.rounds + 1):
        for l in range(sheet.n):
            now = [v.a[k, l] for k in deal.cards[r] if (k, l) in v.a]
            if not now:
                continue
            depths = []
            for j, level in enumerate(sheet.reach[r]):
                if l in level:
                    v.depth[l, r, j] = model.new_bool_var(f"depth_{l}_{r}_{j}")
                    depths.append(v.depth[l, r, j])
            model.add(sum(depths) == sum(now))
        for l in range(sheet.n):
            for j in range(3):
                d = v.depth.get((l, r, j))
                if d is None:
                    continue
                if j == 0:
                    supports = [_present_when_round_starts(model, sheet, v, m, r, cache)
                                for m in sheet.nbrs[l]]
                else:
                    supports = [v.depth[m, r, j - 1] for m in sheet.nbrs[l]
                                if (m, r, j - 1) in v.depth]
                _clause(model, [d.Not(), *supports])
                # One depth per circle: the lowest it can have.
                for below in range(j):
                    for m in sheet.nbrs[l]:
                        if below == 0:
                            lower = _present_when_round_starts(model, sheet, v, m, r, cache)
                        else:
                            lower = v.depth.get((m, r, below - 1), False)
                        if lower is not False:
                            _clause(model, [d.Not(), _neg(lower)])


def add_compulsory_circling(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """A skipped card has, at the end of its round, no free matching location
    joined to a circled one."""
    deal = sheet.deal
    for r in range(1, deal.rounds + 1):

        def crossed(l: int) -> Literal:
            lr = deal.round_of.get(l)
            return v.x[l] if lr is not None and lr <= r else False  # noqa: B023 (used in this iteration only)

        for k in deal.cards[r]:
            for l in _bits(sheet.map.matches[k]):
                if l in sheet.setup:
                    continue                     # circled or crossed since setup
                free_l = [v.circled_by[l, r], crossed(l)]   # l is not free if one holds
                for m in sheet.nbrs[l]:
                    present_m = v.circled_by[m, r]
                    if present_m is False:
                        continue
                    _clause(model, [v.skip[k].Not(), *free_l, _neg(present_m), crossed(m)])


def add_final_itinerary(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """``final[l]``: circled at the end and not crossed off (upper bounds are
    enough because the objective and the challenge only ever want it true)."""
    last = sheet.deal.rounds
    for l in range(sheet.n):
        c = v.circled_by[l, last]
        if c is False:
            v.final[l] = False
            continue
        f = model.new_bool_var(f"final_{l}")
        model.add_implication(f, c)
        if l in sheet.deal.round_of:
            model.add_implication(f, v.x[l].Not())
        if any(w < 0 for w in _highway_weights(sheet.map.highway_points)):
            # A points table that is not convex makes some stretches cost
            # points, so the solver must not be free to leave f false.
            model.add_bool_or([f, _neg(c)] + ([v.x[l]] if l in sheet.deal.round_of else []))
        v.final[l] = f


def add_challenge(model: cp_model.CpModel, sheet: _Sheet, v: _Vars) -> None:
    """Every location the challenge card names is in the final itinerary."""
    for l in _bits(sheet.required):
        if v.final[l] is False:
            raise _Impossible()
        model.add(v.final[l] == 1)


def _highway_weights(points: Sequence[int]) -> list[int]:
    """Weight of an unbroken stretch of each length so that a run scores the
    sum over its stretches: the second difference of the points table."""
    p = list(points)
    return [0] + [p[i] - 2 * p[i - 1] + (p[i - 2] if i >= 2 else 0) for i in range(1, len(p))]


def score_terms(model: cp_model.CpModel, coast: CoastMap, final: dict[int, Literal]) -> list:
    """The rulebook score of the final itinerary as a list of linear terms."""
    terms: list = []
    w = _highway_weights(coast.highway_points)
    exact_runs = any(x < 0 for x in w)
    for hw in coast.highways:
        ids = _bits(coast.highway_masks[hw])
        stretch: dict[tuple[int, int], Literal] = {}
        for length in range(1, len(ids) + 1):
            for s in range(len(ids) - length + 1):
                i, j = ids[s], ids[s + length - 1]
                if length == 1:
                    y = final[i]
                else:
                    left, right = stretch[i, ids[s + length - 2]], stretch[ids[s + 1], j]
                    if left is False or right is False:
                        y = False
                    else:
                        y = model.new_bool_var(f"run_{i}_{j}")
                        model.add_implication(y, left)
                        model.add_implication(y, right)
                        if exact_runs:
                            model.add_bool_or([y, left.Not(), right.Not()])
                stretch[i, j] = y
                if y is not False and w[length]:
                    terms.append(w[length] * y)
    for group, pts in [(coast.type_masks[t], coast.type_points[t]) for t in coast.types] + \
                      [(coast.region_masks[g], coast.region_points) for g in coast.regions]:
        members = [final[l] for l in _bits(group)]
        if any(f is False for f in members) or not pts:
            continue
        done = model.new_bool_var("complete")
        for f in members:
            model.add_implication(done, f)
        terms.append(pts * done)
    return terms


@dataclass
class HindsightResult:
    """What :func:`hindsight_optimum` found.

    ``score`` is the rulebook score of ``plan`` (with a challenge, the score
    of a won game); ``bound`` is the solver's proven upper bound.
    """

    status: str
    score: int | None
    won: bool | None
    plan: Plan | None
    bound: float | None
    wall_time: float
    deal: list[int]
    deterministic_time: float = 0.0   # the solver's own work measure, steady under load

    def as_dict(self) -> dict[str, Any]:
        return {"status": self.status, "score": self.score, "won": self.won, "plan": self.plan,
                "bound": self.bound, "wall_time": self.wall_time, "deal": self.deal}


_STATUS = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
           cp_model.INFEASIBLE: "infeasible", cp_model.UNKNOWN: "unknown",
           cp_model.MODEL_INVALID: "unknown"}


def build_model(sheet: _Sheet, with_objective: bool = True) -> tuple[cp_model.CpModel, _Vars]:
    """The whole model for one deal; raises ``_Impossible`` when it is
    infeasible before search starts."""
    model, v = cp_model.CpModel(), _Vars()
    add_setup(model, sheet, v)
    add_cross_off_each_round(model, sheet, v)
    add_circles_match_their_card(model, sheet, v)
    add_connected_to_an_earlier_circle(model, sheet, v)
    add_compulsory_circling(model, sheet, v)
    add_final_itinerary(model, sheet, v)
    add_challenge(model, sheet, v)
    if with_objective:
        exact = [sheet.map.exact_match_points * v.a[k, k] for (k, l) in v.a if k == l]
        model.maximize(sum(score_terms(model, sheet.map, v.final)) + sum(exact))
    return model, v


def _extract_plan(solver: cp_model.CpSolver, sheet: _Sheet, v: _Vars) -> Plan:
    names = [l.name for l in sheet.map.locations]
    deal = sheet.deal
    val = solver.boolean_value
    crosses = [next(k for k in cards if val(v.x[k])) for cards in deal.cards]
    rounds = []
    for r in range(1, deal.rounds + 1):
        made = []
        for (k, l), lit in v.a.items():
            if deal.round_of[k] == r and val(lit):
                depth = next(j for j in range(3) if (l, r, j) in v.depth and val(v.depth[l, r, j]))
                made.append((depth, k, l))
        made.sort()
        used = {k for _, k, _ in made} | {crosses[r]}
        circles: list[list[str | None]] = [[names[k], names[l]] for _, k, l in made]
        circles += [[names[k], None] for k in deal.cards[r] if k not in used]
        rounds.append({"cross": names[crosses[r]], "circles": circles})
    return {"setup_cross": names[crosses[0]], "rounds": rounds}


def _moves_of(plan: Plan, coast: CoastMap) -> tuple[set[int], set[tuple[int, int]]]:
    """A legal plan's moves: the locations it crosses off, its (card,
    location) circles."""
    ids = {l.name.lower(): l.id for l in coast.locations}
    crossed = {ids[plan["setup_cross"].lower()]} | {ids[r["cross"].lower()] for r in plan["rounds"]}
    pairs = {(ids[c.lower()], ids[w.lower()]) for r in plan["rounds"]
             for c, w in r["circles"] if w is not None}
    return crossed, pairs


def _plan_literals(sheet: _Sheet, v: _Vars, plan: Plan) -> list[tuple[Any, bool]]:
    """The cross-off and circle literals of ``plan``, each with its value."""
    crossed, pairs = _moves_of(plan, sheet.map)
    out = [(lit, k in crossed) for k, lit in v.x.items()]
    out += [(lit, key in pairs) for key, lit in v.a.items()]
    return out


def _add_plan_hint(model: cp_model.CpModel, sheet: _Sheet, v: _Vars, plan: Plan) -> bool:
    """Hint every variable of ``model`` with its value under ``plan``.

    The plan fixes the cross-offs and circles; the other variables (depths,
    runs, bonuses) follow from them, so a copy of the model with those moves
    fixed is solved (its presolve does nearly all the work) and its whole
    solution becomes the hint. A hint of the moves alone leaves the solver
    to complete it, which it does poorly. False (no hint given) when the
    plan does not fit the model, which a legal plan always does.
    """
    fixed = model.clone()
    for lit, value in _plan_literals(sheet, v, plan):
        fixed.add(fixed.get_int_var_from_proto_index(lit.index) == int(value))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 5.0
    if solver.solve(fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False
    values = solver.response_proto.solution
    for i in range(len(model.proto.variables)):
        model.add_hint(model.get_int_var_from_proto_index(i), values[i])
    return True


def _played_moves(d: Deal, coast: CoastMap, plan: Plan) -> tuple[set[int], set[int],
                                                                  set[tuple[int, int]]]:
    """The moves ``plan`` made, checked against the deal: (the cards of its
    setup and rounds, those crossed off, the (card, location) circles)."""
    ids = {l.name.lower(): l.id for l in coast.locations}

    def card(name: Any, cards: Sequence[int], where: str) -> int:
        k = ids.get(name.lower()) if isinstance(name, str) else None
        if k is None or k not in cards:
            raise SolversError(f"played: {name!r} is not a card of {where}")
        return k

    if not isinstance(plan, dict) or not isinstance(plan.get("rounds"), list):
        raise SolversError("played should be a plan: {'setup_cross': ..., 'rounds': [...]}")
    if len(plan["rounds"]) > d.rounds:
        raise SolversError(f"played has {len(plan['rounds'])} rounds; the deal has {d.rounds}")
    cards = set(d.cards[0])
    crossed = {card(plan.get("setup_cross"), d.cards[0], "the setup")}
    circles: set[tuple[int, int]] = set()
    for r, rnd in enumerate(plan["rounds"], start=1):
        cards |= set(d.cards[r])
        crossed.add(card(rnd.get("cross"), d.cards[r], f"round {r}"))
        for c, w in rnd.get("circles", []):
            c = card(c, d.cards[r], f"round {r}")
            if w is not None:
                if not isinstance(w, str) or w.lower() not in ids:
                    raise SolversError(f"played: unknown location {w!r}")
                circles.add((c, ids[w.lower()]))
    return cards, crossed, circles


def _fixed_literals(v: _Vars, cards: set[int], crossed: set[int],
                    circles: set[tuple[int, int]]) -> list[tuple[Any, bool]]:
    """The model's cross-off and circle literals of ``cards``, with the values
    the played moves give them (the later cards' literals stay free)."""
    out = [(lit, k in crossed) for k, lit in v.x.items() if k in cards]
    out += [(lit, key in circles) for key, lit in v.a.items() if key[0] in cards]
    return out


def _follows(plan: Plan, coast: CoastMap, cards: set[int], crossed: set[int],
             circles: set[tuple[int, int]]) -> bool:
    """Whether ``plan`` makes the played moves (the same cross-offs and
    circles with the played rounds' cards)."""
    own_crossed, own_circles = _moves_of(plan, coast)
    return (own_crossed & cards == crossed
            and {p for p in own_circles if p[0] in cards} == circles)


def _crosses_off(plan: Plan, cards: Sequence[int], coast: CoastMap) -> bool:
    """Whether ``plan`` crosses off every card of ``cards``."""
    names = {plan["setup_cross"].lower()} | {r["cross"].lower() for r in plan["rounds"]}
    return all(coast.locations[k].name.lower() in names for k in cards)


def beam_plan(deal: Sequence[int], challenge: str | int | None = None,
              map: CoastMap | str | None = None, rounds: int = ROUNDS,
              width: int = 8192) -> tuple[int, Plan] | None:
    """A good plan for a known deal, quickly, by beam search in the kernel:
    its score and the plan (the JSON contract of :func:`hindsight_optimum`),
    or None when the beam kept no sheet that wins ``challenge``. Not proven
    best; :func:`hindsight_optimum` starts from it::

        >>> score, plan = beam_plan(shuffle_deal(None, seed=5)[:12], rounds=2)
        >>> replay_plan(shuffle_deal(None, seed=5)[:12], plan).score_breakdown()["total"] == score
        True
    """
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    d = Deal.of(deal, rounds=rounds, n=coast.n, challenge=ch)
    core = GameCore(coast, 1, ch, [c for c in range(coast.n) if c != ch])
    # hope / partial: the beam's look-ahead weights (quarter points per
    # card to come whose location is still free, and for part-done types
    # and regions), tuned on random deals against proven optima.
    found = core.hindsight_beam(d.flat(), rounds=rounds, width=width,
                                required=coast.required_mask(ch) if ch is not None else 0,
                                hope=4, partial=4)
    if found is None:
        return None
    score, moves = found
    names = [l.name for l in coast.locations]
    plan = {"setup_cross": names[moves[0][0]],
            "rounds": [{"cross": names[cross],
                        "circles": [[names[k], names[l] if l >= 0 else None] for k, l in circles]}
                       for cross, circles in moves[1:]]}
    return score, plan


# Beam widths tried before the widest one when only feasibility is asked.
# On 300 shuffles of five challenges (the 251 the precheck leaves) widths 8,
# 32, 128 and 512 found a win on 139, 175, 197 and 217, for 2%, 5%, 22% and
# 100% of the widest one's time.
_FEASIBILITY_WIDTHS = (8, 32, 128)


def hindsight_optimum(deal: Sequence[int], challenge: str | int | None = None,
                      map: CoastMap | str | None = None, rounds: int = ROUNDS,
                      time_limit: float = 30.0, workers: int = 1,
                      hint: Plan | None = None, objective: bool = True,
                      beam_width: int | None = None,
                      cross_off: Sequence[int] = (),
                      played: Plan | None = None,
                      stop: threading.Event | None = None,
                      work_limit: float | None = None) -> HindsightResult:
    """The best play of a known deal.

    ``deal`` lists card ids: the 4 setup cards, then 4 per round (``rounds``
    below 5 plays a shortened game). With a ``challenge`` the plan must
    circle every location the challenge names, and ``status`` is
    ``"infeasible"`` when no play wins. ``objective=False`` only asks
    whether the challenge can be won (faster; a winning plan the beam
    search finds settles it without the solver). The search starts from
    ``hint`` if given, else from :func:`beam_plan` (``beam_width`` sheets
    kept per move: by default 8192 for the best score, and for the
    yes-or-no question widths 8, 32, 128, then 512, stopping at the first
    win, which measured fastest; 0 turns it off).
    ``cross_off`` lists dealt cards the plan must cross off (decisions
    already taken, such as the setup's): the best play given them.
    ``played`` is a plan of the setup and the first rounds (the JSON
    contract, as a game's ``plan()`` gives it midway): those moves are
    fixed and the rest is played best, so a status ``"infeasible"`` says
    the challenge was already lost after them. The plan is replayed
    through the reference rules before it is returned. ``stop`` (an event
    another thread may set) ends the work early: before the solver starts,
    a :class:`~solvers.errors.SolversError`; during its search, CP-SAT
    stops within a moment and the result is the best plan found so far
    with status ``"stopped"`` (none when it had found none).
    ``work_limit`` caps the solver's deterministic time (its own measure of
    work, the same on a fast or a loaded machine, roughly seconds of one
    quiet core): with one worker a run stopped by it gives the same answer
    wherever it runs, which ``time_limit`` does not promise::

        >>> r = hindsight_optimum(shuffle_deal(None, seed=5)[:12], rounds=2)
        >>> r.status, r.score == r.bound
        ('optimal', True)
    """
    start = time.perf_counter()
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    d = Deal.of(deal, rounds=rounds, n=coast.n, challenge=ch)
    if not time_limit > 0:
        raise SolversError(f"time_limit should be positive, not {time_limit!r}")
    if work_limit is not None and (isinstance(work_limit, bool)
                                   or not isinstance(work_limit, (int, float))
                                   or not work_limit > 0):
        raise SolversError(f"work_limit should be a positive number (the solver's "
                           f"deterministic time), not {work_limit!r}")
    if not isinstance(workers, int) or workers < 1:
        raise SolversError(f"workers should be a positive int, not {workers!r}")
    default_width = beam_width is None and not objective
    if beam_width is None:
        beam_width = 8192 if objective else 512
    if not isinstance(beam_width, int) or isinstance(beam_width, bool) or beam_width < 0:
        raise SolversError(f"beam_width should be a count (0: no beam search), not {beam_width!r}")
    cross_off = list(cross_off)
    if any(k not in d.round_of for k in cross_off):
        raise SolversError("cross_off lists cards of the deal")
    if len({d.round_of[k] for k in cross_off}) != len(cross_off):
        raise SolversError("cross_off lists one card a round at most")
    required = coast.required_mask(ch) if ch is not None else 0
    sheet = _Sheet(coast, d, required)
    deal_list = d.flat()
    fixed = _played_moves(d, coast, played) if played is not None else None
    if hint is None and beam_width:
        # For the yes-or-no question narrow beams come first: most winnable
        # deals are settled by one of them for a fraction of the widest
        # one's cost, and a win is a win whichever beam found it.
        widths = [w for w in _FEASIBILITY_WIDTHS if w < beam_width] if default_width else []
        for width in widths + [beam_width]:
            found = beam_plan(deal_list, ch, coast, rounds, width)
            if found is not None and not _crosses_off(found[1], cross_off, coast):
                found = None
            if found is not None and fixed is not None and not _follows(found[1], coast, *fixed):
                found = None
            if found is not None:
                hint = found[1]
                if not objective:        # a winning plan settles the question
                    state = replay_plan(deal_list, hint, ch, coast)
                    return HindsightResult("feasible", state.score_breakdown()["total"],
                                           state.challenge_won(), hint, None,
                                           time.perf_counter() - start, deal_list)
                break
    try:
        model, v = build_model(sheet, with_objective=objective)
    except _Impossible:
        return HindsightResult("infeasible", None, False if ch is not None else None, None,
                               None, time.perf_counter() - start, deal_list)
    for k in cross_off:
        model.add(v.x[k] == 1)
    if fixed is not None:
        for lit, value in _fixed_literals(v, *fixed):
            model.add(lit == int(value))
    if hint is not None:
        _add_plan_hint(model, sheet, v, hint)
    if stop is not None and stop.is_set():
        raise SolversError("stopped before the solver started")
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = float(time_limit)
    if work_limit is not None:
        solver.parameters.max_deterministic_time = float(work_limit)
    solver.parameters.num_workers = workers
    # Measured on random deals (one worker): the full linear relaxation pays
    # for itself, the extra cutting planes on top of it do not, and
    # branching led by the relaxation proves the hinted plan best (or finds
    # the better one) about twice as fast as the default search.
    solver.parameters.linearization_level = 2
    solver.parameters.cut_level = 0
    if objective:
        solver.parameters.search_branching = cp_model.LP_SEARCH
    else:
        # The yes-or-no question gets there in about half the solver's
        # deterministic time without presolve's probing (31 shuffles the
        # beams could not win, 18 winnable: 0.71 against 1.30 in total),
        # and a quarter sooner again with one light round of presolve
        # (1.51 s against 1.99 s of wall time, the same work after it).
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.max_presolve_iterations = 1
        solver.parameters.symmetry_level = 0
        solver.parameters.presolve_use_bva = False
    if stop is None:
        code = solver.solve(model)
    else:
        # A watcher ends the search when `stop` is set (CP-SAT's stop_search
        # is safe to call from another thread), and itself once it ends.
        finished = threading.Event()

        def watch() -> None:
            while not finished.is_set():
                if stop.wait(0.05):
                    solver.stop_search()
                    return

        watcher = threading.Thread(target=watch, name="solvers-c2c-stop", daemon=True)
        watcher.start()
        try:
            code = solver.solve(model)
        finally:
            finished.set()
            watcher.join()
    status = _STATUS.get(code, "unknown")
    if stop is not None and stop.is_set() and status not in ("optimal", "infeasible"):
        status = "stopped"
    if not objective and status == "optimal":
        status = "feasible"
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        won = False if (ch is not None and status == "infeasible") else None
        return HindsightResult(status, None, won, None, None, time.perf_counter() - start, deal_list,
                               solver.deterministic_time)
    plan = _extract_plan(solver, sheet, v)
    state = replay_plan(deal_list, plan, ch, coast)
    score = state.score_breakdown()["total"]
    # The model only bounds the points from above (a run or a bonus may be
    # left unclaimed in a solution that is not optimal), so the replay can
    # only score more, and exactly as much once the solver proved optimality.
    if objective:
        claimed = round(solver.objective_value)
        if score < claimed or (status == "optimal" and score != claimed):
            raise RuntimeError(f"the model scores {claimed} but the replay scores {score}")
    won = state.challenge_won()
    if won is False:
        raise RuntimeError("the model's plan does not win the challenge on replay")
    bound = solver.best_objective_bound if objective else None
    return HindsightResult(status, score, won, plan, bound, time.perf_counter() - start, deal_list,
                           solver.deterministic_time)


# ---------------------------------------------------------------------------
# Win-rate ceiling over random shuffles
# ---------------------------------------------------------------------------

def obviously_lost(deal: Sequence[int], challenge: str | int, map: CoastMap | str | None = None,
                   rounds: int = ROUNDS) -> bool:
    """Cheap exact tests that a deal cannot win ``challenge`` (no false alarms).

    * a round (or the setup) whose four cards all show required locations
      forces crossing one of them off;
    * more required locations than circles the game has room for;
    * the required locations outside the setup cannot each get a card of
      their own (:func:`_required_cards_missing`).

    >>> from solvers.games.c2c.data import load_map
    >>> esb = load_map().location("Empire State Building").id
    >>> required = [l for l in range(32) if load_map().matches[esb] >> l & 1 and l != esb]
    >>> obviously_lost(required[:4] + list(range(20, 32))[:4], esb, rounds=1)
    True
    """
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    d = Deal.of(deal, rounds=rounds, n=coast.n, challenge=ch)
    assert ch is not None          # a challenge was given
    need = coast.required_mask(ch)
    if any(all(need >> k & 1 for k in cards) for cards in d.cards):
        return True
    if bin(need).count("1") > (SETUP_CARDS - 1) + (CARDS_PER_ROUND - 1) * d.rounds:
        return True
    return _required_cards_missing(_Sheet(coast, d, need))


def _required_cards_missing(sheet: _Sheet) -> bool:
    """Whether the required locations outside the setup cannot each be given
    a card of their own (assumes no round is all required, see
    :func:`obviously_lost`).

    A required location that is not a setup card is circled once, by a card
    of rounds 1 on that matches it and that the reachability sweep lets
    circle it there (:meth:`_Sheet.can_circle`). Each card circles once at
    most, and each round crosses off one card that is not required (crossing
    off a required location loses), so a round lends at most all its
    required cards and all but one of the others. Those are the capacities
    of a small flow network; a maximum flow short of the required count
    proves the deal lost. Every real win is such a flow, so the test never
    calls a winnable deal lost.
    """
    deal = sheet.deal
    targets = [l for l in _bits(sheet.required) if l not in sheet.setup]
    if not targets:
        return False
    # Nodes: 0 source, 1 sink, then locations, cards, one node per round for
    # the cards that are not required (capacity: their count less one).
    node: dict[Any, int] = {}

    def at(key: Any) -> int:
        if key not in node:
            node[key] = len(node) + 2
        return node[key]

    cap: dict[tuple[int, int], int] = {}
    out: dict[int, list[int]] = {}

    def arc(a: int, b: int, c: int) -> None:
        if (a, b) not in cap:
            out.setdefault(a, []).append(b)
            out.setdefault(b, []).append(a)
            cap[a, b] = 0
            cap.setdefault((b, a), 0)
        cap[a, b] += c

    for r in range(1, deal.rounds + 1):
        spare = [k for k in deal.cards[r] if not sheet.required >> k & 1]
        if len(spare) > 1:
            arc(at(("round", r)), 1, len(spare) - 1)
        for k in deal.cards[r]:
            arc(at(("card", k)), at(("round", r)) if k in spare else 1, 1)
    for l in targets:
        arc(0, at(("loc", l)), 1)
        for r in range(1, deal.rounds + 1):
            for k in deal.cards[r]:
                if sheet.can_circle(k, l, r):
                    arc(at(("loc", l)), at(("card", k)), 1)
    flow = 0
    while True:                      # augmenting paths, breadth first
        parent = {0: 0}
        queue = [0]
        for a in queue:
            for b in out.get(a, ()):
                if b not in parent and cap[a, b] > 0:
                    parent[b] = a
                    queue.append(b)
            if 1 in parent:
                break
        if 1 not in parent:
            return flow < len(targets)
        b = 1
        while b != 0:
            a = parent[b]
            cap[a, b] -= 1
            cap[b, a] += 1
            b = a
        flow += 1


@dataclass
class ShuffleOutcome:
    """One shuffle of :func:`ceiling`: ``won`` is None when the solver ran out of time."""

    index: int
    seed: int
    deal: list[int]
    won: bool | None
    how: str            # "precheck" or "model"
    wall_time: float


@dataclass
class CeilingResult:
    """How often a challenge can be won with hindsight, with a Wilson 95% interval
    over the shuffles that were decided."""

    challenge: str
    shuffles: int
    won: int
    lost: int
    unknown: int
    rate: float
    low: float
    high: float
    outcomes: list[ShuffleOutcome]
    wall_time: float

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "outcomes"}
        out["outcomes"] = [o.__dict__ for o in self.outcomes]
        return out


def _decide_shuffle(index: int, seed: int, challenge: int, coast: CoastMap,
                    time_limit: float) -> ShuffleOutcome:
    start = time.perf_counter()
    deal = shuffle_deal(challenge, seed, coast)
    if obviously_lost(deal, challenge, coast):
        return ShuffleOutcome(index, seed, deal, False, "precheck", time.perf_counter() - start)
    res = hindsight_optimum(deal, challenge, coast, time_limit=time_limit, objective=False)
    won = True if res.status == "feasible" else False if res.status == "infeasible" else None
    return ShuffleOutcome(index, seed, deal, won, "model", time.perf_counter() - start)


@dataclass(frozen=True)
class ShuffleJob:
    """Decide one shuffle of a ceiling: the job :func:`ceiling` maps over
    ``(index, seed)`` items (picklable, for :mod:`solvers.parallel`)."""

    challenge: int
    coast: CoastMap
    time_limit: float

    def __call__(self, item: tuple[int, int]) -> ShuffleOutcome:
        index, seed = item
        return _decide_shuffle(index, seed, self.challenge, self.coast, self.time_limit)


def played_prefix(plan: Plan, rounds: int) -> Plan:
    """The setup and the first ``rounds`` rounds of ``plan``, as a plan."""
    return {"setup_cross": plan["setup_cross"], "rounds": plan["rounds"][:rounds]}


def hindsight_by_round(deal: Sequence[int], plan: Plan, challenge: str | int | None = None,
                       map: CoastMap | str | None = None,
                       time_limit: float = 30.0) -> list[HindsightResult]:
    """The best play with hindsight once the moves of ``plan`` are fixed
    up to the setup, up to round 1, and so on to its last round
    (:func:`hindsight_optimum` ``played=``). Without a challenge the score
    can only fall from one to the next: the drop is what that round's moves
    left behind."""
    return [hindsight_optimum(deal, challenge=challenge, map=map, time_limit=time_limit,
                              played=played_prefix(plan, r))
            for r in range(len(plan["rounds"]) + 1)]


def decisive_round(deal: Sequence[int], plan: Plan, challenge: str | int,
                   map: CoastMap | str | None = None, time_limit: float = 30.0) -> int | None:
    """The first round (0: the setup) after whose moves of ``plan`` the deal
    could no longer win ``challenge`` (hindsight with the moves so far fixed,
    :func:`hindsight_optimum` ``played=``); None when it never became lost
    or a solve ran out of time before that was settled."""
    for r in range(len(plan["rounds"]) + 1):
        result = hindsight_optimum(deal, challenge=challenge, map=map, objective=False,
                                   played=played_prefix(plan, r), time_limit=time_limit)
        if result.status == "infeasible":
            return r
        if result.won is not True:
            return None
    return None


def ceiling(challenge: str | int, shuffles: int = 100, seed: int = 0, workers: int | None = 1,
            time_limit: float = 30.0, map: CoastMap | str | None = None,
            progress: Callable[[int, int, ShuffleOutcome], None] | None = None,
            backend: str = "local", address: str | None = None) -> CeilingResult:
    """The share of random shuffles on which ``challenge`` can be won at all.

    Shuffle ``i`` uses the ``i``-th number of ``SplitMix64(seed)`` as the
    seed of the reference game's deck (see :func:`shuffle_deal`), so an
    online player run with the same seeds sees the same deals. Each shuffle
    is decided with hindsight, ``workers`` at a time on ``backend``
    (:func:`solvers.parallel.run_jobs`: ``local`` processes or ``ray`` at
    ``address``); ``progress(done, total, outcome)`` is called as each one
    finishes::

        >>> r = ceiling("Empire State Building", shuffles=2, seed=1)
        >>> r.won + r.lost + r.unknown
        2
    """
    from ..parallel import run_jobs

    start = time.perf_counter()
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    if ch is None:
        raise SolversError("the ceiling is about a challenge; name one")
    if not isinstance(shuffles, int) or isinstance(shuffles, bool) or shuffles < 0:
        raise SolversError(f"shuffles should be a count, not {shuffles!r}")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)
                                or workers < 1):
        raise SolversError(f"workers should be a positive int, not {workers!r}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SolversError(f"seed should be an int, not {seed!r}")
    if not time_limit > 0:
        raise SolversError(f"time_limit should be positive, not {time_limit!r}")
    seeds = shuffle_seeds(seed, shuffles)
    outcomes: list[ShuffleOutcome] = []
    for _, o in run_jobs(ShuffleJob(ch, coast, time_limit), list(enumerate(seeds)),
                         workers=workers, backend=backend, address=address):
        outcomes.append(o)
        if progress is not None:
            progress(len(outcomes), shuffles, o)
    outcomes.sort(key=lambda o: o.index)
    won = sum(o.won is True for o in outcomes)
    lost = sum(o.won is False for o in outcomes)
    unknown = shuffles - won - lost
    low, high = wilson_interval(won, won + lost)
    rate = won / (won + lost) if won + lost else 0.0
    return CeilingResult(coast.locations[ch].name, shuffles, won, lost, unknown, rate, low, high,
                         outcomes, time.perf_counter() - start)


from .c2c_shuffles import BestOverShuffles, best_over_shuffles  # noqa: E402  (re-export)

__all__ = [
    "Deal", "HindsightResult", "hindsight_optimum", "decisive_round", "hindsight_by_round",
    "played_prefix", "beam_plan", "replay_plan", "shuffle_deal",
    "obviously_lost", "ShuffleOutcome", "ShuffleJob", "CeilingResult", "ceiling", "wilson_interval",
    "shuffle_seeds", "BestOverShuffles", "best_over_shuffles",
]
