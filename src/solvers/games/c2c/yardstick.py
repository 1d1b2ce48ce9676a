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
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class YardstickJob:
    """Play one deal with the player to round 4 and compare its round-4 end
    with the best (the job :func:`yardstick` maps over ``(index, deal,
    seed)``; picklable for :mod:`solvers.parallel`)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str

    def __call__(self, item: tuple[int, list[int], int]) -> Position:
        import solvers
        from solvers.agents import load_agent, parse_agent_spec

        index, deal, seed = item
        game: Any = solvers.load_game("c2c", players=1, challenge=self.challenge, map=self.map)
        kind, options = parse_agent_spec(self.agent_spec)
        options.setdefault("seed", seed)
        agent = load_agent(kind, game, **options)
        state = game.state_from_deal(deal)
        while state.is_chance_node() or state.round < 4:
            state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
        values = {end: (win, points) for end, _, win, points in state.end_values()}
        challenge = self.challenge is not None
        best = max(values.values(), key=lambda v: v if challenge else (v[1], v[0]))
        while not state.is_chance_node() and state.round == 4:
            state.apply_action(agent.step(state))
        sheet = state.sheets[0]
        key = tuple(sum(1 << i for i in s) for s in (sheet.circled, sheet.crossed, sheet.exact))
        win, points = values[key]
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
    rows = sorted(found, key=lambda p: p.index)
    lp, lp_lo, lp_hi = mean_interval([p.best_points - p.points for p in rows])
    lw, lw_lo, lw_hi = mean_interval([p.best_win - p.win for p in rows])
    name = m.locations[cid].name if cid is not None else None
    return Yardstick(agent_spec, name, len(rows), sum(p.optimal for p in rows), lp, (lp_lo, lp_hi),
                     lw, (lw_lo, lw_hi), sum(p.best_points for p in rows) / len(rows),
                     sum(p.best_win for p in rows) / len(rows), tuple(rows))


__all__ = ["Position", "Yardstick", "YardstickJob", "yardstick"]
