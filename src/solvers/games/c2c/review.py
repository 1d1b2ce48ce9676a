"""Review a solo game someone played: what it scored, what hindsight could
score on the same deal, and the decisions that cost the most.

A game is the engine's history position (``docs/engine-protocol.md``), the
JSON that ``solve c2c play --save`` writes: ``game``, ``players``,
``options`` (the challenge), ``seed`` and every move from the start in
words, the cards dealt among them.

When a challenge was lost that hindsight wins, the review also names the
round after whose moves no play could win it any more (hindsight with the
moves so far fixed: which round lost it, not whether that was bad play).
Without a challenge it says, the same way, how many points each round left
behind: the drop of the best score still possible after that round's moves.

The cost of a decision is judged as the player could have judged it then,
the unrevealed cards unknown, never by hindsight, which would blame bad
luck on the player. The judge of the setup and rounds 1-3 is the player
``solve c2c play`` hints with (:func:`solvers.games.c2c.online.game_hint_player`):

- in a solo challenge whose learned values ship (``judge="learned"``), the
  learned value (:mod:`solvers.games.c2c.values`) of the best end of the
  round still reachable after the move
  (:func:`solvers.agents.c2c_online.learned_move_values`);
- elsewhere (``judge="futures"``), the strong search's own estimate
  (:mod:`solvers.agents.c2c_pimc`: the same re-dealt futures for every
  legal move).

With a challenge the move preferred is the one the player would make: the
greatest chance of completing it, then the greatest expected rulebook
score (the winning score times that chance, a lost challenge scoring 0);
a decision's cost is the chance it gave away, in percentage points (ties
in chance: none). Without a challenge the move preferred has the greatest
expected final score, and the cost is the expected points given away. In
rounds 4 and 5 both are exact instead
(:func:`solvers.agents.c2c_online.exact_move_values`: every hand the
unseen cards can make, each played as well as it can be).

    >>> import solvers
    >>> game = solvers.load_game("c2c", challenge="Empire State Building")
    >>> state = game.new_initial_state(seed=4)
    >>> moves = []
    >>> while not state.is_terminal():
    ...     if state.is_chance_node():
    ...         a = state.seeded_outcome()
    ...     else:
    ...         a = state.legal_actions()[0]
    ...     moves.append(state.action_to_string(a)); state.apply_action(a)
    >>> record = {"game": "c2c", "options": {"challenge": "Empire State Building"},
    ...           "seed": 4, "moves": moves}
    >>> r = review_game(record, samples=4, width=8, time_limit=10)
    >>> r.score == state.returns()[0], r.hindsight_score >= r.score
    (True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import SolversError
from ...rng import SplitMix64, seed_from


@dataclass
class Decision:
    """One decision of the game, judged by the online player's estimate."""

    index: int                 # the decision's number in the game, from 0
    round: int
    played: str
    preferred: str
    played_value: float        # expected rulebook score of the move played
    preferred_value: float
    played_win_rate: float | None      # with a challenge
    preferred_win_rate: float | None

    @property
    def cost(self) -> float:
        """With a challenge the chance of completing it given away, in
        percentage points; without one the expected points given away."""
        if self.played_win_rate is not None and self.preferred_win_rate is not None:
            return 100.0 * (self.preferred_win_rate - self.played_win_rate)
        return self.preferred_value - self.played_value


@dataclass
class Review:
    challenge: str | None
    deal: list[str]
    score: int
    won: bool | None
    hindsight_status: str
    hindsight_score: int | None
    hindsight_won: bool | None
    decisions: list[Decision] = field(default_factory=list)
    #: With a challenge lost that hindsight wins: the round (0: the setup)
    #: after whose moves no play could win it any more.
    lost_in_round: int | None = None
    #: Without a challenge: the points each stage (the setup, then rounds 1
    #: to 5) left behind against hindsight, the best score still possible
    #: falling after its moves; they add up to hindsight minus the score.
    #: None when a solve was not proven within the time limit.
    points_lost: list[int] | None = None
    #: What judged the setup and rounds 1-3: ``"learned"`` or ``"futures"``.
    judge: str = "futures"

    @property
    def cost_unit(self) -> str:
        """What a decision's cost counts: ``"chance"`` (percentage points of
        completing the challenge) or ``"points"`` (expected points)."""
        return "points" if self.challenge is None else "chance"

    def costliest(self, top: int) -> list[Decision]:
        """The ``top`` decisions that cost the most (ties: the earlier first)."""
        ranked = sorted((d for d in self.decisions if d.cost > 1e-9),
                        key=lambda d: (-d.cost, d.index))
        return ranked[:top]

    def as_dict(self, top: int = 5) -> dict[str, Any]:
        return {
            "challenge": self.challenge, "deal": self.deal, "score": self.score, "won": self.won,
            "judge": self.judge, "cost_unit": self.cost_unit,
            "hindsight": {"status": self.hindsight_status, "score": self.hindsight_score,
                          "won": self.hindsight_won, "lost_in_round": self.lost_in_round,
                          "points_lost_by_round": self.points_lost},
            "costliest": [{"decision": d.index, "round": d.round, "played": d.played,
                           "preferred": d.preferred, "cost": round(d.cost, 2),
                           "played_value": round(d.played_value, 2),
                           "preferred_value": round(d.preferred_value, 2),
                           "played_win_rate": d.played_win_rate,
                           "preferred_win_rate": d.preferred_win_rate}
                          for d in self.costliest(top)],
        }


def sheet_key(state: Any, player: int = 0) -> tuple[frozenset, frozenset, frozenset]:
    """A sheet as what it scores and allows: its circles, cross-offs and
    exact matches (the order they were made in left out)."""
    sheet = state.sheets[player]
    return frozenset(sheet.circled), frozenset(sheet.crossed), frozenset(sheet.exact)


def round_ends(start: Any) -> dict[tuple[frozenset, frozenset, frozenset], tuple[Any, int, Any]]:
    """Every distinct sheet the solo round under way can end with, from
    ``start`` (a decision of that round, on the kernel or the reference):
    ``{sheet_key: (state before the round's last move, that move, state at
    the round's end)}``, the first way found of reaching each sheet.

    No card is revealed within a round, so the round's moves can be chosen
    as a whole: these are the choices a player has, and judging each end on
    re-dealt futures judges the round as one decision.

        >>> import solvers
        >>> state = solvers.load_game("c2c").new_initial_state(seed=2)
        >>> state.apply_seeded_chance()
        >>> len(round_ends(state))      # the setup: cross off one of four
        4
    """
    found: dict = {}
    r = start.round

    def walk(s: Any, before: Any, last: Any) -> None:
        if s.is_chance_node() or s.is_terminal() or s.round != r:
            found.setdefault(sheet_key(s), (before, last, s))
            return
        for a in s.legal_actions():
            t = s.clone()
            t.apply_action(a)
            walk(t, s, a)

    if start.is_chance_node() or start.is_terminal():
        raise SolversError("round_ends starts from a player's decision")
    walk(start, None, None)
    return found


def _expected(rate: float, mean: float, challenge: bool) -> float:
    return rate * mean if challenge else mean


#: How the setup and rounds 1-3 may be judged (``review_game``'s ``judge``).
JUDGES = ("auto", "learned", "futures")


def review_game(record: Any, samples: int = 48, width: int = 24, seed: int = 0,
                time_limit: float = 30.0, judge: str = "auto") -> Review:
    """Replay a saved solo game (see the module docstring) and review it.

    ``judge`` picks what values the moves of the setup and rounds 1-3:
    ``learned`` (the shipped learned values; SolversError where none ship),
    ``futures`` (``samples`` re-dealt futures, beam ``width``) or ``auto``
    (the first where the hints play with it). ``time_limit`` bounds the
    hindsight solve. SolversError when the record is not a finished solo
    Coast to Coast game.
    """
    from ...agents.c2c_online import EXACT_FROM, end_key, exact_move_values, learned_move_values
    from ...agents.c2c_pimc import move_values
    from ...engine.positions import load_position
    from ...optimize.c2c import decisive_round, hindsight_by_round, hindsight_optimum, played_prefix

    if not isinstance(record, dict):
        raise SolversError("a saved game should be a JSON object")
    final: Any   # a Coast to Coast state
    setup, final, _ = load_position(record)
    if setup["game"] != "c2c":
        raise SolversError(f"a review is of a Coast to Coast game, not {setup['game']}")
    if setup["players"] != 1:
        raise SolversError("a review is of a solo game (players 1)")
    if not final.is_terminal():
        raise SolversError("the saved game is not finished: a review needs every card dealt")
    game = final.game
    challenge = game.challenge is not None
    values = _judge_values(game, judge)
    names = [loc.name for loc in game.map.locations]
    rng = SplitMix64(seed_from(seed))
    state = game.new_initial_state(setup["seed"])
    deal: list[int] = []
    decisions: list[Decision] = []
    for action in final.history:
        if state.is_chance_node():
            deal.append(action)
        else:
            legal = state.legal_actions()
            if len(legal) > 1:
                if state.round >= EXACT_FROM:
                    exact = exact_move_values(state)
                    worth = {a: exact[a][1] for a in legal}
                    rate = {a: exact[a][0] for a in legal}
                elif values is not None:
                    learned = learned_move_values(state, values)
                    worth = {a: learned[a][1] for a in legal}
                    rate = {a: learned[a][0] for a in legal}
                else:
                    rows = move_values(state, legal, samples, width, rng.next(), challenge)
                    worth = {a: _expected(r, m, challenge)
                             for a, (r, m, _, _) in zip(legal, rows, strict=True)}
                    rate = {a: r for a, (r, _, _, _) in zip(legal, rows, strict=True)}
                # The player's own ranking (agents.c2c_online.end_key).
                best = max(legal, key=lambda a: end_key(rate[a], worth[a], challenge))
                decisions.append(Decision(
                    len(decisions), state.round, state.action_to_string(action),
                    state.action_to_string(best), worth[action], worth[best],
                    rate[action] if challenge else None, rate[best] if challenge else None))
            else:
                decisions.append(Decision(len(decisions), state.round,
                                          state.action_to_string(action),
                                          state.action_to_string(action), 0.0, 0.0, None, None))
        state.apply_action(action)
    hs = hindsight_optimum(deal, challenge=game.challenge, map=game.map, time_limit=time_limit)
    lost_in = None
    if challenge and hs.won and not final.challenge_won():
        lost_in = decisive_round(deal, final.plan(0), game.challenge, game.map, time_limit)
    points_lost = None
    if not challenge:
        # Rounds 0-4: after round 5's moves the best left is the score made.
        plan = final.plan(0)
        steps = [hs] + hindsight_by_round(deal, played_prefix(plan, len(plan["rounds"]) - 1),
                                          map=game.map, time_limit=time_limit)
        if all(h.status == "optimal" for h in steps):
            bests: list[Any] = [h.score for h in steps] + [int(final.returns()[0])]
            points_lost = [a - b for a, b in zip(bests, bests[1:], strict=False)]
    return Review(
        challenge=names[game.challenge] if challenge else None,
        deal=[names[c] for c in deal],
        score=int(final.returns()[0]),
        won=final.challenge_won(),
        hindsight_status=hs.status,
        hindsight_score=hs.score,
        hindsight_won=hs.won,
        decisions=decisions,
        lost_in_round=lost_in,
        points_lost=points_lost,
        judge="futures" if values is None else "learned",
    )


def _judge_values(game: Any, judge: str) -> Any:
    """The learned values judging the setup and rounds 1-3 (see
    :func:`review_game`), or None for the re-dealt futures."""
    from .online import LEARNED_ONLINE, game_hint_player
    from .values import builtin_name, builtin_values

    if judge not in JUDGES:
        raise SolversError(f"judge should be one of {', '.join(JUDGES)}, not {judge!r}")
    if judge == "futures" or (judge == "auto" and game_hint_player(game) != LEARNED_ONLINE):
        return None
    values = builtin_values(game.map, game.challenge)
    if values is None:
        what = "no challenge" if game.challenge is None else \
            f"the challenge {game.map.locations[game.challenge].name}"
        raise SolversError(f"no learned values ship for {what} "
                           f"({builtin_name(game.map, game.challenge)}): judge by futures")
    return values

