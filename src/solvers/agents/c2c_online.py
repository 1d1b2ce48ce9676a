"""Coast to Coast's online player: the last two rounds played exactly.

With several seats, each seat's decisions are played as its own solo round
(see :class:`OnlineAgent`).

In solo Coast to Coast no card is revealed within a round, so a round is one
decision: which of the sheets its four cards allow to end with
(:meth:`CoastKernelState.round_ends`). Before the last round the value of an
end is known exactly: the expectation, over every hand the unseen cards can
make, of the best last round from it; in the last round it is the end's own
score (:meth:`CoastKernelState.end_values`, in C). So from round 4 on this
player takes the end of the highest value (with a challenge, the chance of
completing it first, then the points) and plays a move that keeps that end
reachable: no online player can do better over those two rounds in
expectation. Before round 4 each end can be valued by a learned value of
the sheet after that round (``learned``: how many of the rounds before the
exact ones; :mod:`solvers.games.c2c.values`); the rounds before those are
handed to another agent (``early``).

    >>> import solvers
    >>> game = solvers.load_game("c2c")
    >>> agent = solvers.load_agent("online", game, early="report", seed=1)
    >>> state = game.new_initial_state(seed=3)
    >>> state.apply_seeded_chance()
    >>> agent.step(state) in state.legal_actions()
    True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
    """The Coast to Coast online player (this module's docstring), solo or seat by seat.

    Options: ``seed``; ``early``: who plays the rounds before the exact ones,
    ``strong`` (the strong player of :func:`solvers.games.c2c.online.strong_online`,
    the default) or ``report`` (the reports' cheap player); ``exact``: how
    many of the last rounds are played exactly, 2 (the default), 1 or 0
    (then ``early`` plays the whole game, for comparisons); ``learned``:
    how many rounds before those take the end of the best learned value,
    0 (the default) to 4 (the setup and rounds 1-3); ``values``: the
    learned values, ``default`` (those shipped for this game) or a file of
    ``solve train c2c``; ``hands``: in the learned rounds before round 3,
    look one round further: the ``keep`` ends of the best learned value are
    each valued again by the mean, over ``hands`` hands of the next round
    drawn from the unseen cards, of the best next end under the next
    round's learned value (0, the default: no look ahead);
    ``exact_hands``: in round 3 (a learned round), the ``keep`` ends of the
    best learned value are each valued again by the mean, over
    ``exact_hands`` round-4 hands drawn from the unseen cards (the same
    hands for every end), of the best round-4 end valued exactly; the end
    so chosen is kept for the rest of the round (0, the default: none);
    ``search_from``: the round (1-3) from which ``early`` plays again until
    the exact rounds, the learned values ranking only the rounds before it
    (0, the default: every learned round by the values). Without a
    challenge ``early=strong,learned=4,search_from=1`` (the learned value
    for the setup, the strong search for rounds 1-3) is measured in
    docs/learning.md: about half a point above the strong search alone,
    within the noise.

    ``value`` in :meth:`analyse` rows of the exact rounds: with a challenge
    the chance of completing it (``value_kind`` ``"chance"``), otherwise the
    expected final points (``"points"``); before them, the early agent's.

    With several seats every decision is played as the solo round of the
    seat's own sheet (:meth:`CoastKernelState.seat_as_solo`: its sheet, its
    cards and the set of cards it has not seen), by the same rules as solo:
    the sheets never interact, so the player makes the most of its own
    sheet and does not look at the others' (the values are the seat's
    expected points, ``value_kind`` ``"points"``).

        >>> import solvers
        >>> game = solvers.load_game("c2c", players=2)
        >>> agent = solvers.load_agent("online", game, early="report", learned=4, seed=1)
        >>> state = game.new_initial_state(seed=3)
        >>> state.apply_seeded_chance()
        >>> agent.step(state) in state.legal_actions()
        True
    """

    options = ("seed", "early", "exact", "learned", "values", "hands", "keep", "exact_hands",
               "search_from")
    stoppable = True

    def __init__(self, game: Game, seed: int | None = None, early: str = "strong", exact: int = 2,
                 learned: int = 0, values: str = "default", hands: int = 0, keep: int = 8,
                 exact_hands: int = 0, search_from: int = 0):
        super().__init__(game, seed)
        if getattr(game, "name", None) != "c2c" or getattr(game, "reference", False):
            raise SolversError("the online agent plays Coast to Coast on the kernel "
                               "(load_game('c2c'), not the reference)")
        from ..games.c2c.kernel import CoastToCoastKernel
        from ..games.c2c.online import REPORT_ONLINE, strong_online

        # With several seats each decision is played as the solo round of
        # the seat's own sheet (CoastKernelState.seat_as_solo): the sheets
        # never interact, so the seat plays for the most points it can get.
        self.solo: Game | None = None
        if game.num_players > 1:
            coast: Any = game
            self.solo = CoastToCoastKernel(players=1, map=coast.map)
            game = self.solo
        self.challenge = getattr(game, "challenge", None) is not None
        specs = {"strong": strong_online(self.challenge), "report": REPORT_ONLINE}
        if early not in specs:
            raise SolversError(f"early should be one of {', '.join(specs)}, not {early!r}")
        self.exact = check_whole("exact", exact, 0)
        if self.exact > 2:
            raise SolversError(f"exact should be 0, 1 or 2 rounds, not {exact}")
        self.learned = check_whole("learned", learned, 0)
        if self.learned and self.exact < 2:
            raise SolversError("learned rounds need exact=2 (their values are fitted to "
                               "the exact last two rounds)")
        if self.learned > 4:
            raise SolversError(f"learned should be at most 4 rounds (the setup and rounds 1-3), "
                               f"not {learned}")
        self.values = load_values(game, values) if self.learned else None
        self.hands = check_whole("hands", hands, 0, 10_000)
        self.keep = check_whole("keep", keep, 1, 10_000)
        self.exact_hands = check_whole("exact_hands", exact_hands, 0, 10_000)
        self.search_from = check_whole("search_from", search_from, 0, 3)
        first_learned = EXACT_FROM - self.learned
        if self.search_from and not first_learned < self.search_from:
            raise SolversError(f"search_from={self.search_from} hands rounds back to early "
                               f"after some learned ones: it needs learned={EXACT_FROM - self.search_from + 1} "
                               f"or more (learned={self.learned})")
        if self.exact_hands and (not self.learned or self.search_from):
            raise SolversError("exact_hands looks ahead from a learned round 3: it needs "
                               "learned=1 or more and no search_from")
        # The end the round-3 look ahead chose, for the round's later decisions.
        self._plan: tuple[tuple[int, int], tuple[int, int, int]] | None = None
        self.early_spec = specs[early]
        kind, options = parse_agent_spec(self.early_spec)
        # The same seed: until the exact rounds this player plays exactly as
        # ``early`` would alone, so a comparison of the two is paired.
        self.early = load_agent(kind, game, seed=seed, **options)
        self._memo: tuple[tuple[int, int], dict[tuple[int, int, int], tuple[float, float]]] \
            | None = None

    def stop(self) -> None:
        super().stop()
        self.early.stop()

    def _exact_round(self, view: Any) -> bool:
        return bool(view.round >= 6 - self.exact)     # rounds 1..5; exact=0: never

    def _learned_round(self, view: Any) -> bool:
        return bool(view.round >= 6 - self.exact - self.learned
                    and not (self.search_from and view.round >= self.search_from))

    def _ends(self, view: Any) -> list[tuple[tuple[int, int, int], int, float, float]]:
        """The round's ends with their exact values (``end_values``), from
        the memo when an earlier decision of the round valued them all."""
        ends = view.round_ends()
        known = self._remembered(view, [e for e, _ in ends])
        if known is not None:
            return [(e, a, w, p) for (e, a), (w, p) in zip(ends, known, strict=True)]
        rows = view.end_values()
        self._remember(view, [(e, (w, p)) for e, _, w, p in rows])
        return rows

    # An end's value is a function of the end, the round and the set of
    # cards not seen (exact or learned alike), and no card is revealed
    # within a round: so the values the round's first decision computed
    # serve its later decisions, whose ends are among them. The memo holds
    # one round's values, keyed by (round, the unseen cards).
    def _remembered(self, view: Any, ends: list) -> list[tuple[float, float]] | None:
        from ..games.c2c.values import unseen_cards

        memo = self._memo
        if memo is None or memo[0] != (view.round, unseen_cards(view)):
            return None
        table = memo[1]
        if not all(e in table for e in ends):
            return None
        return [table[e] for e in ends]

    def _remember(self, view: Any, rows: list) -> None:
        from ..games.c2c.values import unseen_cards

        key = (view.round, unseen_cards(view))
        if self._memo is None or self._memo[0] != key:
            self._memo = (key, {})
        self._memo[1].update(rows)

    def _solo_view(self, view: Any) -> Any:
        """The decision as a solo round (several seats), else ``view``."""
        return view if self.solo is None else view.seat_as_solo(self.solo)

    def _step(self, view: State) -> int:
        view = self._solo_view(view)
        if self._exact_round(view):
            return self._best_end_move(view)
        if self._learned_round(view):
            return self._best_learned_move(view)
        return self.early._step(view)

    def _learned_ends(self, view: Any, ends: list) -> list[tuple[tuple[float, float], int]]:
        """The round's ``ends`` (``view.round_ends()``) as (ranking key,
        first move), by the learned value."""
        assert self.values is not None
        keys = [e for e, _ in ends]
        vals = self._remembered(view, keys)
        if vals is None:
            vals = self.values.of_round(view, keys)
            self._remember(view, list(zip(keys, vals, strict=True)))
        return [(end_key(w, p, self.challenge), a) for (w, p), (_, a) in zip(vals, ends,
                                                                           strict=True)]

    def _best_learned_move(self, view: Any) -> int:
        ends = view.round_ends()
        if self.exact_hands and view.round == EXACT_FROM - 1:
            return self._planned_move(view, ends)
        ranked = self._learned_ends(view, ends)
        if self.hands and view.round < EXACT_FROM - 1:
            ranked = self._looked_ahead(view, ends, ranked)
        return int(max(ranked, key=lambda e: e[0])[1])

    def _planned_move(self, view: Any, ends: list) -> int:
        """Round 3 with ``exact_hands``: the move toward the end the look
        ahead chose at the round's first decision (chosen now if this is
        it, or if that end is no longer reachable)."""
        import random

        from ..games.c2c.values import unseen_cards

        key = (int(view.round), unseen_cards(view))
        moves = dict(ends)
        if self._plan is not None and self._plan[0] == key and self._plan[1] in moves:
            return int(moves[self._plan[1]])
        # The same hands for every end: the ends are compared on equal luck.
        seeds = [self.rng.next() for _ in range(self.exact_hands)]
        scored = self._mean_best_next(view, ends, self._learned_ends(view, ends),
                                      lambda: (random.Random(k) for k in seeds),
                                      lambda dealt: [(w, p) for _, _, w, p in dealt.end_values()])
        i = max(range(len(scored)), key=lambda k: scored[k][0])     # the first of equals
        self._plan = (key, scored[i][2])
        return int(scored[i][1])

    def _looked_ahead(self, view: Any, ends: list, ranked: list) -> list:
        """The ``keep`` best ends, each valued by the mean best of the next
        round over ``hands`` sampled hands (:func:`values.deal_hand`: drawn
        from the unseen cards, never their order)."""
        import random

        assert self.values is not None
        values = self.values
        rng = random.Random(self.rng.next())
        # One stream through every end: each end gets hands of its own.
        scored = self._mean_best_next(view, ends, ranked, lambda: [rng] * self.hands,
                                      lambda dealt: values.of_round(
                                          dealt, [e for e, _ in dealt.round_ends()]))
        return [(k, a) for k, a, _ in scored]

    def _mean_best_next(self, view: Any, ends: list, ranked: list,
                        hands: Callable[[], Iterable[Any]],
                        next_values: Callable[[Any], list]) -> list:
        """The ``keep`` best of ``ends`` by ``ranked``, in that order, each as
        (the ranking key of its mean, over the hands of ``hands()`` (a random
        stream a hand), of the best next-round end under ``next_values``;
        its first move; the end)."""
        from ..games.c2c.values import deal_hand, walk_to

        top = sorted(range(len(ends)), key=lambda i: ranked[i][0], reverse=True)[:self.keep]
        out = []
        for i in top:
            after = walk_to(view, ends[i][0])
            total_w = total_p = 0.0
            count = 0
            for rng in hands():
                w, p = max(next_values(deal_hand(after, rng)),
                           key=lambda wp: end_key(wp[0], wp[1], self.challenge))
                total_w += w
                total_p += p
                count += 1
            out.append((end_key(total_w / count, total_p / count, self.challenge), ranked[i][1],
                        ends[i][0]))
        return out

    def _best_end_move(self, view: Any) -> int:
        """The first move toward the best end (the first of equals in the
        ends' sorted order)."""
        best = max(self._ends(view), key=lambda e: end_key(e[2], e[3], self.challenge))
        return int(best[1])

    def _analyse(self, view: State) -> list[dict[str, Any]]:
        view = self._solo_view(view)
        if self._learned_round(view) and not self._exact_round(view):
            return self._learned_rows(view)
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


    def _learned_rows(self, view: Any) -> list[dict[str, Any]]:
        """Each legal move valued by the best end still reachable after it
        under the learned value (the step move first among equals)."""
        assert self.values is not None
        best = learned_move_values(view, self.values)
        chosen = self._best_learned_move(view)
        # The move step() plays first (with ``hands`` it may not be the best
        # by this round's value alone), then by value.
        rows = sorted(((a == chosen, end_key(w, p, self.challenge), -a, w if self.challenge else p)
                       for a, (w, p) in best.items()), reverse=True)
        kind = "chance" if self.challenge else "points"
        return [self._row(view, -a, v, 0, kind) for _, _, a, v in rows]


def load_values(game: Any, values: str) -> Any:
    """The learned values an online agent plays with: ``default`` (the
    package's for this game) or a value file's path."""
    from ..games.c2c.values import LEARNED, SheetValues, builtin_name, builtin_values

    challenge = getattr(game, "challenge", None)
    if values == "default":
        v = builtin_values(game.map, challenge)
        if v is None:
            what = "no challenge" if challenge is None else \
                f"the challenge {game.map.locations[challenge].name}"
            raise SolversError(f"no learned values ship for {what} "
                               f"({builtin_name(game.map, challenge)}): make them with "
                               "'solve train c2c' and pass values=FILE")
    else:
        v = SheetValues.load(values, game.map)
    if v.challenge != challenge:
        made = "no challenge" if v.challenge is None else game.map.locations[v.challenge].name
        raise SolversError(f"the value file was made for another game ({made})")
    missing = [r for r in LEARNED if r not in v.nets]
    if missing:
        raise SolversError(f"the value file has no value after round {missing[0]}")
    return v


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


def learned_move_values(state: Any, values: Any) -> dict[int, tuple[float, float]]:
    """Every legal move of a solo decision before round 4 valued by the
    learned value of the round's ends (``values``, a
    :class:`solvers.games.c2c.values.SheetValues`): ``{action: (chance of
    completing the challenge, expected final points)}``, each the best end
    still reachable after the move, as :func:`exact_move_values` does with
    the exact values."""
    challenge = getattr(state.game, "challenge", None) is not None
    out = {}
    for a in state.legal_actions():
        child: Any = state.clone()
        child.apply_action(a)
        if child.is_chance_node() or child.round != state.round:
            sheet = child.sheets[0]
            ends = [(_mask(sheet.circled), _mask(sheet.crossed), _mask(sheet.exact))]
        else:
            ends = [e for e, _ in child.round_ends()]
        # The ends of ``child`` are ends of the round under way in ``state``:
        # the same round, the same cards not seen.
        win, points = max(values.of_round(state, ends),
                          key=lambda wp: end_key(wp[0], wp[1], challenge))
        out[a] = (float(win), float(points))
    return out


def _mask(locations: Any) -> int:
    m = 0
    for i in locations:
        m |= 1 << int(i)
    return m


__all__ = ["OnlineAgent", "EXACT_FROM", "end_key", "exact_move_values", "learned_move_values"]
