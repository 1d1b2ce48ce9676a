"""How close can an online player come to the hindsight ceiling at all?

The ceiling (:func:`~solvers.optimize.c2c.ceiling`) lets the player see the
whole deal before the first decision. A player at the table sees the four
setup cards, crosses one off, and only then the rest, round by round. This
module measures a player half-way between the two, the *setup relaxation*:
it decides the setup's cross-off seeing only the four setup cards, like a
person, and then learns the whole rest of the deal. Whatever an online
player can do, this player can do too (it knows at least as much at every
decision), so its win rate bounds every online player's from above; it is
tighter than the ceiling whenever the right cross-off depends on cards not
yet seen (Brown, Smith and Sun 2010, "Information relaxations and duality
in stochastic dynamic programs", give the general construction).

For one set of setup cards ``S`` the relaxed player wins with probability
``max_k P(win | S, cross off k)``, the probability taken over the rest of
the deck. Each ``P`` is estimated on the same ``futures`` re-deals of the
unseen cards, each decided exactly with CP-SAT
(:func:`~solvers.optimize.c2c.hindsight_optimum` with ``cross_off``). The
maximum of estimates is biased upwards, which keeps the bound a bound. On
the same re-deals the ceiling is the share that some cross-off wins, so
``bound / ceiling`` is the largest share of the ceiling any online player
can keep (up to sampling)::

    >>> r = setup_relaxation("Empire State Building", shuffles=1, futures=2, seed=3)
    >>> 0 <= r.bound <= r.ceiling <= 1
    True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import SolversError
from ..games.c2c.data import CoastMap
from ..games.c2c.deal import SOLO_DEAL_LENGTH, shuffle_deal, shuffle_seeds
from ..rng import SplitMix64, seed_from
from ..stats import mean_interval
from .c2c import SETUP_CARDS, _as_map, _challenge_id, hindsight_optimum, obviously_lost


@dataclass
class RelaxedShuffle:
    """One shuffle's setup cards and, per cross-off, how many of the
    ``futures`` re-deals of the rest that cross-off can still win."""

    index: int
    seed: int
    setup: list[int]
    futures: int
    wins: dict[int, int]          # setup card crossed off -> futures won
    any_wins: int                 # futures some cross-off wins (the ceiling's count)
    wall_time: float

    @property
    def best(self) -> float:
        """The relaxed player's chance: the best cross-off's share."""
        return max(self.wins.values()) / self.futures

    @property
    def ceiling(self) -> float:
        return self.any_wins / self.futures


@dataclass
class RelaxationResult:
    """The setup relaxation over ``shuffles`` shuffles: ``bound`` and
    ``ceiling`` are mean chances over the shuffles' setups, each with a 95%
    normal interval; ``ratio`` is ``bound / ceiling``."""

    challenge: str
    shuffles: int
    futures: int
    bound: float
    bound_ci95: tuple[float, float]
    ceiling: float
    ceiling_ci95: tuple[float, float]
    ratio: float
    outcomes: list[RelaxedShuffle] = field(default_factory=list)
    wall_time: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "outcomes"}
        out["outcomes"] = [dict(o.__dict__, wins={str(k): n for k, n in o.wins.items()})
                           for o in self.outcomes]
        return out


def future_deals(setup: list[int], challenge: int, coast: CoastMap, count: int,
                 seed: int) -> list[list[int]]:
    """``count`` deals that start with ``setup``, the other cards of the deck
    shuffled anew for each (one SplitMix64 stream from ``seed``)."""
    rest = [c for c in range(coast.n) if c != challenge and c not in setup]
    rng = SplitMix64(seed_from(seed))
    deals = []
    need = SOLO_DEAL_LENGTH - SETUP_CARDS
    for _ in range(count):
        cards = list(rest)
        rng.shuffle(cards)
        deals.append(list(setup) + cards[:need])
    return deals


def _winnable_crosses(deal: list[int], challenge: int, coast: CoastMap,
                      time_limit: float) -> set[int] | None:
    """The setup cards whose cross-off still wins ``deal`` (None: undecided)."""
    if obviously_lost(deal, challenge, coast):
        return set()
    free = hindsight_optimum(deal, challenge, coast, time_limit=time_limit, objective=False)
    if free.status == "infeasible":
        return set()
    if free.status != "feasible" or free.plan is None:
        return None
    first = coast.location(free.plan["setup_cross"]).id
    out = {first}
    required = coast.required_mask(challenge)
    for k in deal[:SETUP_CARDS]:
        if k == first or required >> k & 1:       # crossing off a required location loses
            continue
        r = hindsight_optimum(deal, challenge, coast, time_limit=time_limit, objective=False,
                              cross_off=[k])
        if r.status == "feasible":
            out.add(k)
        elif r.status != "infeasible":
            return None
    return out


@dataclass(frozen=True)
class RelaxationJob:
    """One shuffle of :func:`setup_relaxation` (picklable, for
    :mod:`solvers.parallel`): items are ``(index, seed)``."""

    challenge: int
    coast: CoastMap
    futures: int
    time_limit: float

    def __call__(self, item: tuple[int, int]) -> RelaxedShuffle:
        start = time.perf_counter()
        index, seed = item
        setup = shuffle_deal(self.challenge, seed, self.coast)[:SETUP_CARDS]
        wins = dict.fromkeys(setup, 0)
        any_wins = 0
        for deal in future_deals(setup, self.challenge, self.coast, self.futures, seed):
            crosses = _winnable_crosses(deal, self.challenge, self.coast, self.time_limit)
            if crosses is None:
                raise SolversError(f"a re-deal of shuffle {index} was not decided in "
                                   f"{self.time_limit:g} s; raise the time limit")
            any_wins += bool(crosses)
            for k in crosses:
                wins[k] += 1
        return RelaxedShuffle(index, seed, list(setup), self.futures, wins, any_wins,
                              time.perf_counter() - start)


def _mean_ci(xs: list[float]) -> tuple[float, tuple[float, float]]:
    mean, low, high = mean_interval(xs) if xs else (0.0, 0.0, 1.0)
    return mean, (max(0.0, low), min(1.0, high))


def setup_relaxation(challenge: str | int, shuffles: int = 100, futures: int = 32, seed: int = 0,
                     workers: int | None = 1, time_limit: float = 30.0,
                     map: CoastMap | str | None = None,
                     progress: Callable[[int, int, RelaxedShuffle], None] | None = None,
                     backend: str = "local", address: str | None = None) -> RelaxationResult:
    """The setup relaxation's win rate against the ceiling's, on the setups
    of the ``shuffles`` shuffles a report with ``seed`` plays (see the
    module's docstring); ``futures`` re-deals of the rest per setup."""
    from ..parallel import run_jobs

    start = time.perf_counter()
    coast = _as_map(map)
    ch = _challenge_id(coast, challenge)
    if ch is None:
        raise SolversError("the relaxation is about a challenge; name one")
    for name, value in (("shuffles", shuffles), ("futures", futures)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise SolversError(f"{name} should be a positive count, not {value!r}")
    outcomes: list[RelaxedShuffle] = []
    job = RelaxationJob(ch, coast, futures, time_limit)
    for _, o in run_jobs(job, list(enumerate(shuffle_seeds(seed, shuffles))), workers=workers,
                         backend=backend, address=address):
        outcomes.append(o)
        if progress is not None:
            progress(len(outcomes), shuffles, o)
    outcomes.sort(key=lambda o: o.index)
    bound, bound_ci = _mean_ci([o.best for o in outcomes])
    top, top_ci = _mean_ci([o.ceiling for o in outcomes])
    return RelaxationResult(coast.locations[ch].name, shuffles, futures, bound, bound_ci, top,
                            top_ci, bound / top if top else 0.0, outcomes,
                            time.perf_counter() - start)


__all__ = ["setup_relaxation", "RelaxationResult", "RelaxedShuffle", "RelaxationJob",
           "future_deals"]
