"""Coast to Coast's online player: the last two rounds played exactly.

In solo Coast to Coast no card is revealed within a round, so a round is one
decision: which of the sheets its four cards allow to end with
(:meth:`CoastKernelState.round_ends`). Before the last round the value of an
end is known exactly: the expectation, over every hand the unseen cards can
make, of the best last round from it; in the last round it is the end's own
score (:meth:`CoastKernelState.end_values`, in C). So from round 4 on this
player takes the end of the highest value (with a challenge, the chance of
completing it first, then the points) and plays a move that keeps that end
reachable: no online player can do better over those two rounds in
expectation. Before round 4 it hands the decision to another agent
(``early``), until a learned value of the earlier rounds' ends takes over.

    >>> import solvers
    >>> game = solvers.load_game("c2c")
    >>> agent = solvers.load_agent("online", game, early="report", seed=1)
    >>> state = game.new_initial_state(seed=3)
    >>> state.apply_seeded_chance()
    >>> agent.step(state) in state.legal_actions()
    True
"""

from __future__ import annotations

from typing import Any

from ..errors import SolversError
from ..game import Game, State
from ..limits import check_whole
from .base import Agent, load_agent, parse_agent_spec, register

#: The round from which the ends are valued exactly (the last two of five).
EXACT_FROM = 4


def end_key(win: float, points: float, challenge: bool) -> tuple[float, float]:
    """How ends are ranked: a challenge's chance first, then the expected
    points (a lost challenge scoring none)."""
    return (win, points) if challenge else (points, 0.0)


@register("online")
class OnlineAgent(Agent):
    """The solo Coast to Coast online player (this module's docstring).

    Options: ``seed``; ``early``: who plays the rounds before the exact ones,
    ``strong`` (the strong player of :func:`solvers.games.c2c.online.strong_online`,
    the default) or ``report`` (the reports' cheap player); ``exact``: how
    many of the last rounds are played exactly, 2 (the default), 1 or 0
    (then ``early`` plays the whole game, for comparisons).

    ``value`` in :meth:`analyse` rows of the exact rounds: with a challenge
    the chance of completing it (``value_kind`` ``"chance"``), otherwise the
    expected final points (``"points"``); before them, the early agent's.
    """

    options = ("seed", "early", "exact")
    stoppable = True

    def __init__(self, game: Game, seed: int | None = None, early: str = "strong", exact: int = 2):
        super().__init__(game, seed)
        if getattr(game, "name", None) != "c2c" or getattr(game, "reference", False) \
                or game.num_players != 1:
            raise SolversError("the online agent plays solo Coast to Coast on the kernel "
                               "(load_game('c2c'), not the reference)")
        from ..games.c2c.online import REPORT_ONLINE, strong_online

        self.challenge = getattr(game, "challenge", None) is not None
        specs = {"strong": strong_online(self.challenge), "report": REPORT_ONLINE}
        if early not in specs:
            raise SolversError(f"early should be one of {', '.join(specs)}, not {early!r}")
        self.exact = check_whole("exact", exact, 0)
        if self.exact > 2:
            raise SolversError(f"exact should be 0, 1 or 2 rounds, not {exact}")
        self.early_spec = specs[early]
        kind, options = parse_agent_spec(self.early_spec)
        # The same seed: until the exact rounds this player plays exactly as
        # ``early`` would alone, so a comparison of the two is paired.
        self.early = load_agent(kind, game, seed=seed, **options)

    def stop(self) -> None:
        super().stop()
        self.early.stop()

    def _exact_round(self, view: Any) -> bool:
        return bool(view.round >= 6 - self.exact)     # rounds 1..5; exact=0: never

    def _ends(self, view: Any) -> list[tuple[tuple[int, int, int], int, float, float]]:
        return view.end_values()

    def _step(self, view: State) -> int:
        if not self._exact_round(view):
            return self.early._step(view)
        return self._best_end_move(view)

    def _best_end_move(self, view: Any) -> int:
        """The first move toward the best end (the first of equals in the
        ends' sorted order)."""
        best = max(self._ends(view), key=lambda e: end_key(e[2], e[3], self.challenge))
        return int(best[1])

    def _analyse(self, view: State) -> list[dict[str, Any]]:
        if not self._exact_round(view):
            return self.early._analyse(view)
        values = exact_move_values(view)
        rows = [(end_key(win, points, self.challenge), a, win if self.challenge else points)
                for a, (win, points) in values.items()]
        rows.sort(key=lambda r: r[0], reverse=True)
        # The move step() plays leads to the best end, so it is one of the
        # best: put it first among equals, so that both agree.
        chosen = self._best_end_move(view)
        rows.sort(key=lambda r: (r[0], r[1] == chosen), reverse=True)
        kind = "chance" if self.challenge else "points"
        return [self._row(view, a, v, 0, kind) for _, a, v in rows]


def exact_move_values(state: Any) -> dict[int, tuple[float, float]]:
    """Every legal move of a solo decision in round 4 or 5, valued exactly:
    ``{action: (chance of completing the challenge, expected final points)}``
    (a lost challenge scoring 0; the chance is 1 without a challenge), each
    the best end still reachable after the move, played as well as it can
    be (:meth:`CoastKernelState.end_values`)."""
    challenge = getattr(state.game, "challenge", None) is not None
    out = {}
    for a in state.legal_actions():
        child: Any = state.clone()
        child.apply_action(a)
        if child.is_chance_node() or child.is_terminal() or child.round != state.round:
            sheet = child.sheets[0]
            if state.round < 5:
                win, points = state.last_round_value(
                    (_mask(sheet.circled), _mask(sheet.crossed), _mask(sheet.exact)))
            else:
                win = 1.0 if not challenge or child.challenge_won() else 0.0
                points = win * float(child.scores()[0])
        else:
            win, points = max(((w, p) for _, _, w, p in child.end_values()),
                              key=lambda wp: end_key(wp[0], wp[1], challenge))
        out[a] = (float(win), float(points))
    return out


def _mask(locations: Any) -> int:
    m = 0
    for i in locations:
        m |= 1 << int(i)
    return m


__all__ = ["OnlineAgent", "EXACT_FROM", "end_key", "exact_move_values"]
