"""Coast to Coast's strong online player: perfect-information Monte Carlo
over the kernel's hindsight beam search.

The player to move sees the sheets and the cards revealed so far, never the
rest of the deck. For a decision it re-deals what it has not seen
``samples`` times (the same futures for every candidate move), and on each
future lets the beam search (``width`` sheets) finish its own sheet as if
the future were known. A move's worth is what those finished sheets score:

* with a solo challenge, first how many of the futures still win the
  challenge, then the mean score of those wins;
* otherwise the mean final score of its own sheet (with several players
  too: the others' sheets do not change what one's own can score).

Knowing the future flatters every move alike, so the ranking is sound even
though each value is optimistic; the clairvoyant cost of a move that throws
away the only card able to reach a required location shows in every future
where no later card reaches it. A second stage spends ``refine`` more
samples on the best ``keep`` moves of the first, so close calls are settled
on more futures.

    >>> import solvers
    >>> game = solvers.load_game("c2c", challenge="The Alamo")
    >>> agent = solvers.load_agent("pimc", game, samples=4, width=8, seed=1)
    >>> state = game.new_initial_state(seed=3)
    >>> state.apply_seeded_chance()
    >>> agent.step(state) in state.legal_actions()
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import SolversError
from ..game import Game, State
from ..limits import check_whole
from .base import Agent, register, seat_view
from .searching import _choice

# How a future is played out: with hindsight of all its cards, or one round
# at a time (search the round's cards, keep the best valued sheet).
LOOKAHEADS = ("hindsight", "round")


# The beam's look-ahead weights, as the hindsight optimum uses them
# (solvers.optimize.c2c.beam_plan, tuned there against proven optima).
BEAM_HOPE = 4
BEAM_PARTIAL = 4


class StopFlag:
    """A byte the C loop of ``sampled_outcomes`` reads before each sample:
    :meth:`stop` (from another thread) ends it there."""

    def __init__(self) -> None:
        self.flag = np.zeros(1, dtype=np.uint8)

    def stop(self) -> None:
        self.flag[0] = 1

    @property
    def stopped(self) -> bool:
        return bool(self.flag[0])


def move_values(state: Any, actions: list[int], samples: int, width: int, seed: int,
                challenge: bool, by_round: bool = False,
                stop: StopFlag | None = None) -> list[tuple[float, float, int, float]]:
    """Per action ``(win rate, mean score, samples, mean missing)`` over
    re-dealt futures (:meth:`CoastKernelState.sampled_outcomes`). Without a
    challenge the win rate is 1.0 and the mean covers every sample; with one
    the mean covers the winning samples (0.0 when none wins) and ``mean
    missing`` is the mean count of required locations the lost samples'
    best sheets miss, over all samples (0.0 when every sample wins).
    After a ``stop`` the rows cover the samples finished before it (none:
    an empty list)."""
    table = state.sampled_outcomes(actions, samples, width, seed, hope=BEAM_HOPE,
                                   partial=BEAM_PARTIAL, by_round=by_round,
                                   stop=None if stop is None else stop.flag)
    samples = table.shape[1]
    if samples == 0:
        return []
    rows = []
    for line in table:
        won = line >= 0
        wins = int(won.sum())
        if challenge:
            mean = float(line[won].mean()) if wins else 0.0
        else:
            mean = float(line.mean())
        missing = float(-line[~won].sum()) / samples
        rows.append((wins / samples, mean, samples, missing))
    return rows


def _merge(a: tuple[float, float, int, float],
           b: tuple[float, float, int, float]) -> tuple[float, float, int, float]:
    """Two estimates of one move over disjoint samples, as one."""
    (ra, ma, na, xa), (rb, mb, nb, xb) = a, b
    wa, wb = ra * na, rb * nb
    wins = wa + wb
    mean = (ma * wa + mb * wb) / wins if wins else 0.0
    return wins / (na + nb), mean, na + nb, (xa * na + xb * nb) / (na + nb)


@register("pimc")
class PIMCAgent(Agent):
    """Perfect-information Monte Carlo for Coast to Coast (this module's
    docstring tells how it judges a move).

    Options: ``seed``; ``samples`` (futures per move, default 24);
    ``width`` (the beam's sheets, default 24); ``keep`` and ``refine``: the
    ``keep`` best moves of the first stage get ``refine`` more futures each
    (defaults 4 and 48; ``refine=0`` stops after one stage); ``lookahead``:
    ``hindsight`` (the beam sees the whole sampled future) or ``round`` (it
    sees one round at a time and keeps its best valued sheet at each round's
    end, a player without foresight).

    Ranking: with a challenge by the share of futures won, then the mean
    winning score; when no future wins, by the fewest required locations
    missed on average; otherwise by the mean final score. ``value`` is the
    expected final score of one's own sheet after the move (a lost challenge
    scoring 0: the share won times the mean winning score); ``visits``
    counts the futures a move was judged on. :meth:`stop` ends the search
    with the futures judged so far.
    """

    options = ("seed", "samples", "width", "keep", "refine", "lookahead")
    stoppable = True

    def __init__(self, game: Game, seed: int | None = None, samples: int = 24, width: int = 24,
                 keep: int = 4, refine: int = 48, lookahead: str = "hindsight"):
        super().__init__(game, seed)
        if getattr(game, "name", None) != "c2c" or getattr(game, "reference", False):
            raise SolversError("the pimc agent plays Coast to Coast on the kernel "
                               "(load_game('c2c'), not the reference)")
        self.samples = check_whole("samples", samples, 1)
        self.width = check_whole("width", width, 1)
        self.keep = check_whole("keep", keep, 1)
        self.refine = check_whole("refine", refine, 0)
        self.by_round = _choice("lookahead", lookahead, LOOKAHEADS) == "round"
        self.challenge = game.num_players == 1 and getattr(game, "challenge", None) is not None
        self._flag = self._track(StopFlag())

    def _key(self, est: tuple[float, float, int, float]) -> tuple[float, float]:
        rate, mean, _, missing = est
        if not self.challenge:
            return (mean, 0.0)
        # No future won: the move whose futures come closest (fewest required
        # locations missed) is the best hope.
        return (rate, mean) if rate > 0 else (0.0, -missing)

    def estimates(self, state: State) -> dict[int, tuple[float, float, int, float]]:
        """Every legal action's ``(win rate, mean score, samples, mean missing)``
        (:func:`move_values`), judged on the mover's view (:func:`.base.seat_view`)."""
        state = seat_view(state, self._check(state))
        return self._estimates(state)

    def _estimates(self, state: State) -> dict[int, tuple[float, float, int, float]]:
        actions = state.legal_actions()
        seed = self.rng.next()
        if len(actions) == 1:
            return {actions[0]: (1.0, 0.0, 0, 0.0)}
        est = dict(zip(actions, move_values(state, actions, self.samples, self.width, seed,
                                            self.challenge, self.by_round, self._flag), strict=False))
        if self.refine and len(actions) > 1 and est:
            ranked = sorted(actions, key=lambda a: self._key(est[a]), reverse=True)[:self.keep]
            more = move_values(state, ranked, self.refine, self.width, self.rng.next(),
                               self.challenge, self.by_round, self._flag)
            for a, e in zip(ranked, more, strict=False):
                est[a] = _merge(est[a], e)
        return est

    def _analyse(self, state: State) -> list[dict[str, Any]]:
        est = self._estimates(state)
        if not est:                     # stopped before the first future was judged
            return self._unsearched(state)
        order = sorted(est, key=lambda a: self._key(est[a]), reverse=True)
        return [self._row(state, a, est[a][0] * est[a][1], est[a][2], "points") for a in order]


__all__ = ["PIMCAgent", "move_values"]
