"""How near an online player comes to the best any online player could do
over the last two rounds of solo Coast to Coast, exactly.

From a round-4 position (the sheet after round 3 and round 4's four cards,
the rest of the deck unseen), the best an online player can expect is the
best, over the ends round 4 allows, of the exact expectation of round 5
over every hand of the unseen cards (:meth:`CoastKernelState.end_values`,
computed in C). A player's expected loss there is that best minus the
value of the end the player chose: zero when it chose a best end, and no
luck of the cards in it, since both sides are exact expectations over the
same last round.

The positions come from the player's own games: each seeded deal is played
by the player up to round 4, then its round-4 choice is compared with the
best. With a challenge the values are the chance of completing it (the
loss in percentage points) and the expected points (a lost challenge
scoring none); without one, the expected points.

    >>> from solvers.games.c2c.data import load_map
    >>> summary = yardstick(load_map(), None, "mcts:iterations=30", positions=2, seed=0)
    >>> summary.positions, 0 <= summary.optimal <= 2, summary.loss_points >= 0
    (2, True, True)

From round 3 (:func:`round_three_yardstick`) exactness is out of reach (a
round-3 end would need every round-4 hand, each with every round-4 end
valued exactly: minutes an end), so the best is sampled: each candidate
end is valued by the mean, over sampled round-4 hands, of the best round-4
end valued exactly; one half of the hands picks the best candidate and the
other half values it and the player's end, so the loss it reports is, in
expectation, at most the true one (see that function).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...errors import SolversError
from ...limits import MAX_SEED
from ...stats import mean_interval
from .data import CoastMap

EPS = 1e-9


@dataclass(frozen=True)
class Position:
    """One round-4 position: the best ends' values and the player's."""

    index: int
    ends: int                 # distinct ends the round allowed
    best_win: float
    best_points: float
    win: float                # the player's end
    points: float

    @property
    def optimal(self) -> bool:
        return self.win >= self.best_win - EPS and self.points >= self.best_points - EPS


@dataclass(frozen=True)
class Yardstick:
    """The summary over the positions (intervals: 95%, over positions)."""

    player: str
    challenge: str | None
    positions: int
    optimal: int              # positions where the player chose a best end
    loss_points: float
    loss_points_ci: tuple[float, float]
    loss_win: float           # chance of completing the challenge lost (0 without one)
    loss_win_ci: tuple[float, float]
    best_points: float        # the best's mean expected points
    best_win: float
    rows: tuple[Position, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "challenge": self.challenge, "positions": self.positions,
                "optimal": self.optimal, "loss_points": self.loss_points,
                "loss_points_ci95": list(self.loss_points_ci), "loss_win": self.loss_win,
                "loss_win_ci95": list(self.loss_win_ci), "best_points": self.best_points,
                "best_win": self.best_win}


def played_to(round_: int, m: CoastMap, challenge: int | None, agent_spec: str, deal: list[int],
              seed: int) -> tuple[Any, Any, Any]:
    """(game, agent, state): ``deal`` played by the agent (seeded ``seed``)
    up to the first decision of round ``round_``."""
    import solvers
    from solvers.agents import load_agent, parse_agent_spec

    game: Any = solvers.load_game("c2c", players=1, challenge=challenge, map=m)
    kind, options = parse_agent_spec(agent_spec)
    options.setdefault("seed", seed)
    agent = load_agent(kind, game, **options)
    state = game.state_from_deal(deal)
    while state.is_chance_node() or state.round < round_:
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    return game, agent, state


@dataclass(frozen=True)
class YardstickJob:
    """Play one deal with the player to round 4 and compare its round-4 end
    with the best (the job :func:`yardstick` maps over ``(index, deal,
    seed)``; picklable for :mod:`solvers.parallel`)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str

    def __call__(self, item: tuple[int, list[int], int]) -> Position:
        index, deal, seed = item
        _, agent, state = played_to(4, self.map, self.challenge, self.agent_spec, deal, seed)
        values = {end: (win, points) for end, _, win, points in state.end_values()}
        challenge = self.challenge is not None
        best = max(values.values(), key=lambda v: _rank(v[0], v[1], challenge))
        while not state.is_chance_node() and state.round == 4:
            state.apply_action(agent.step(state))
        win, points = values[_sheet_key(state)]
        return Position(index, len(values), best[0], best[1], win, points)


def yardstick(m: CoastMap, challenge: str | int | None, agent_spec: str, positions: int,
              seed: int = 0, workers: int | None = 1, backend: str = "local",
              address: str | None = None,
              progress: Callable[[int], None] | None = None) -> Yardstick:
    """The player ``agent_spec``'s expected loss against the exact online
    best of the last two rounds, on the round-4 positions of ``positions``
    seeded deals (:func:`solvers.games.c2c.deal.shuffle_deals`; deal ``i``'s
    agent seeded ``seed + i``), ``workers`` at a time on ``backend``;
    ``progress(1)`` after each position."""
    from ...parallel import run_jobs
    from .challenges import challenge_id
    from .deal import shuffle_deals
    from .online import check_agent_spec

    cid = challenge_id(m, challenge) if isinstance(challenge, str) else challenge
    check_agent_spec(m, cid, agent_spec)
    if isinstance(positions, bool) or not isinstance(positions, int) or positions < 1:
        raise SolversError(f"positions should be a whole number >= 1, not {positions!r}")
    deals = shuffle_deals(m, cid, positions, seed)
    items = [(i, deal, (seed + i) % MAX_SEED) for i, deal in enumerate(deals)]
    found = []
    for _, p in run_jobs(YardstickJob(m, cid, agent_spec), items, workers=workers, backend=backend,
                         address=address):
        found.append(p)
        if progress is not None:
            progress(1)
    return _summary(m, cid, agent_spec, found)


def _sheet_key(state: Any) -> tuple[int, int, int]:
    sheet = state.sheets[0]
    return tuple(sum(1 << i for i in s) for s in (sheet.circled, sheet.crossed, sheet.exact))  # type: ignore[return-value]


def hand_seed(seed: int, j: int) -> int:
    """The seed of the ``j``-th sampled round-4 hand of a position whose
    job was seeded ``seed``: the same hands for every candidate end."""
    return (seed * 1_000_003 + 7919 * (j + 1)) % MAX_SEED


def best_next_round(after: Any, rng: random.Random, challenge: bool) -> tuple[float, float]:
    """The best a player can expect from the sheet of ``after`` (a solo
    state at the chance node after round 3) when the next round brings the
    hand ``rng`` draws from the unseen cards: the best round-4 end, each
    valued exactly over round 5 (:meth:`CoastKernelState.end_values`)."""
    from .values import deal_hand

    dealt = deal_hand(after, rng)
    return max(((w, p) for _, _, w, p in dealt.end_values()),
               key=lambda v: _rank(v[0], v[1], challenge))


def _rank(win: float, points: float, challenge: bool) -> tuple[float, float]:
    from ...agents.c2c_online import end_key

    return end_key(win, points, challenge)


@dataclass(frozen=True)
class RoundThreeJob:
    """Play one deal with the player to round 3 and compare its round-3 end
    with the best of the candidates by sampled round-4 hands (the job
    :func:`round_three_yardstick` maps over ``(index, deal, seed)``)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str
    hands: int                # sampled round-4 hands in each half
    candidates: int           # ends ranked best by the learned value
    values: str               # "default" or a value file

    def __call__(self, item: tuple[int, list[int], int]) -> Position:
        from ...agents.c2c_online import load_values
        from .values import walk_to

        index, deal, seed = item
        game, agent, state = played_to(3, self.map, self.challenge, self.agent_spec, deal, seed)
        challenge = self.challenge is not None
        start = state.clone()
        ends = [e for e, _ in start.round_ends()]
        learned = load_values(game, self.values).of_round(start, ends)
        order = sorted(range(len(ends)), reverse=True,
                       key=lambda i: _rank(learned[i][0], learned[i][1], challenge))
        candidates = [ends[i] for i in order[:self.candidates]]
        while not state.is_chance_node() and state.round == 3:
            state.apply_action(agent.step(state))
        mine = _sheet_key(state)
        if mine not in candidates:
            candidates.append(mine)
        # Every candidate meets the same hands (common random numbers): the
        # unseen cards after round 3 are the same whichever end is chosen.
        seeds = [hand_seed(seed, j) for j in range(2 * self.hands)]
        half: dict[tuple[int, int, int], tuple[tuple[float, float], tuple[float, float]]] = {}
        for end in candidates:
            after = walk_to(start, end)
            got = [best_next_round(after, random.Random(s), challenge) for s in seeds]
            a, b = got[:self.hands], got[self.hands:]
            half[end] = ((sum(w for w, _ in a) / len(a), sum(p for _, p in a) / len(a)),
                         (sum(w for w, _ in b) / len(b), sum(p for _, p in b) / len(b)))
        # The first half picks (ties: the learned order), the second values.
        best = max(candidates, key=lambda e: _rank(half[e][0][0], half[e][0][1], challenge))
        (bw, bp), (w, p) = half[best][1], half[mine][1]
        return Position(index, len(ends), bw, bp, w, p)


def round_three_yardstick(m: CoastMap, challenge: str | int | None, agent_spec: str, positions: int,
                          seed: int = 0, hands: int = 16, candidates: int = 8,
                          values: str = "default", workers: int | None = 1, backend: str = "local",
                          address: str | None = None,
                          progress: Callable[[int], None] | None = None) -> Yardstick:
    """The player's expected loss in round 3 against the best of sampled
    online play, on the round-3 positions of ``positions`` seeded deals
    (the deals and seeds of :func:`yardstick`).

    At each position the round's ends are ranked by the learned value of a
    sheet after round 3 (``values``: the package's, or a file of ``solve
    train c2c``), and the ``candidates`` best and the player's own end are
    each valued on ``2 * hands`` sampled round-4 hands, the same for every
    end, by the best round-4 end under the exact value of round 5. The
    candidate best on the first ``hands`` is the best; the loss is its mean
    on the other ``hands`` minus the player's end's there. Valued on hands
    it was not chosen on, the best's estimate is unbiased for an end that
    is at most the true best, so in expectation the loss is at most the
    player's true loss against the best online play of the last three
    rounds (and can come out below 0 at one position). ``optimal`` counts
    the positions where the player's end was the one picked."""
    from ...parallel import run_jobs
    from .challenges import challenge_id
    from .deal import shuffle_deals
    from .online import check_agent_spec

    cid = challenge_id(m, challenge) if isinstance(challenge, str) else challenge
    check_agent_spec(m, cid, agent_spec)
    for name, value, low in (("positions", positions, 1), ("hands", hands, 1),
                             ("candidates", candidates, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise SolversError(f"{name} should be a whole number >= {low}, not {value!r}")
    import solvers

    from ...agents.c2c_online import load_values

    load_values(solvers.load_game("c2c", players=1, challenge=cid, map=m), values)  # checked now
    deals = shuffle_deals(m, cid, positions, seed)
    items = [(i, deal, (seed + i) % MAX_SEED) for i, deal in enumerate(deals)]
    job = RoundThreeJob(m, cid, agent_spec, hands, candidates, values)
    found = []
    for _, p in run_jobs(job, items, workers=workers, backend=backend, address=address):
        found.append(p)
        if progress is not None:
            progress(1)
    return _summary(m, cid, agent_spec, found)


def _summary(m: CoastMap, cid: int | None, agent_spec: str, found: list[Position]) -> Yardstick:
    rows = sorted(found, key=lambda p: p.index)
    lp, lp_lo, lp_hi = mean_interval([p.best_points - p.points for p in rows])
    lw, lw_lo, lw_hi = mean_interval([p.best_win - p.win for p in rows])
    name = m.locations[cid].name if cid is not None else None
    return Yardstick(agent_spec, name, len(rows), sum(p.optimal for p in rows), lp, (lp_lo, lp_hi),
                     lw, (lw_lo, lw_hi), sum(p.best_points for p in rows) / len(rows),
                     sum(p.best_win for p in rows) / len(rows), tuple(rows))


__all__ = ["Position", "RoundThreeJob", "Yardstick", "YardstickJob", "best_next_round",
           "hand_seed", "played_to", "round_three_yardstick", "yardstick"]
