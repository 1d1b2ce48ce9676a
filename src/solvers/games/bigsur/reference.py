"""Big Sur, the rules as plain Python: the reference implementation.

This module is the rules of record for the library; how the rulebook is
read: ``docs/rules/big-sur.md``; every decision where it is silent:
``docs/rules/big-sur.md#decisions-where-the-rulebook-is-silent``.
Highway cards are numbered ``1..N`` and Landmarks ``1..L`` as in the card
file (:mod:`.data`); seats are ``0..players-1`` and seat 0 starts.

How a game unfolds as actions:

* **Setup** (chance, one card per action): the Highway deck (the cards for
  this player count) and the Landmark deck are shuffled with
  ``SplitMix64(seed)`` (Highway first, then Landmarks, one generator); two
  cards go to each player in seat order, one at a time, then five to the
  Depot, then five Landmarks to the row.
* **A turn** is split into small decisions of the same player:

  1. *take*, twice: ``TAKE c`` takes card ``c`` from the Depot, ``DRAW``
     draws the deck's top card (a chance node follows; only the drawer sees
     the card). The Depot is not refilled during the turn.
  2. *build*, any number of times: ``BUILD c`` picks a hand card, ``LEFT`` /
     ``RIGHT`` picks the end (asked only when the Highway has two or more
     cards: with one card both ends give mirror images), then the payment:
     ``DISCARD c`` for each hand card given up, in increasing card number,
     then ``FINISH k``, the Persistent Materials and Recycling used
     (:data:`FINISH`); ``TOP m`` says which Material ends on top of the
     discard pile when the discarded cards show more than one. Only choices
     that lead to a complete, exact payment are offered, so each distinct
     way to pay (by the cards, Persistent Materials and Recycling it
     consumes) is one path.
  3. *claim*, at most once: ``CLAIM l`` takes Landmark ``l`` from the row,
     ``PLACE`` puts it above a card of an unused qualifying Stretch that
     holds no Landmark (``place_action(scenery, position)``); a new
     Landmark is revealed (chance) and the turn ends.
  4. ``END_TURN`` (when not claiming): the Depot is refilled from the deck
     (chance, one card per action); when the deck is then empty the game is
     over.

* **Scoring** (:mod:`.scoring`): Stretches, 2-Mile Bonuses, the Landmark
  count table and Landmark abilities. ``returns()`` gives win shares (ties
  shared), ``scores()`` the points.

>>> game = BigSur(players=2)
>>> state = game.new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> state.current_player(), len(state.hands[0]), len(state.depot), len(state.row)
(0, 2, 5, 5)
>>> state.action_to_string(game.DRAW)
'draw from the deck'
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product
from typing import Any

from ...errors import IllegalActionError, SolversError
from ...game import CHANCE, TERMINAL, Game, State
from ...rng import SplitMix64, seed_from
from ..common import check_player, win_shares
from .data import (
    DEPOT_SIZE,
    HAND_AT_SETUP,
    LANDMARK_ROW,
    MATERIALS,
    SCENERY,
    TAKE_PER_TURN,
    CardSet,
    load_cards,
)
from .scoring import Spot, find_stretches, score_highway, stretch_used

HIDDEN = -2  # action_observation of something the observer does not see (GAME_HIDDEN in C)
CHANCE_STEPS = ("deal", "draw", "reveal", "refill")
REDEAL_TRIES = 64  # re-deals tried by resample before it keeps the cards (BS_REDEAL_TRIES in C)


def _finish_table() -> list[tuple[tuple[int, ...], int]]:
    """Every (Persistent Materials used per Material, Recycling used) with at
    most 3 Materials in all (no card costs more than 3)."""
    table = []
    for recycle in (0, 1):
        for total in range(0, 4 - recycle):
            for counts in product(range(total + 1), repeat=len(MATERIALS)):
                if sum(counts) == total:
                    table.append((counts, recycle))
    return table


#: ``FINISH k`` ends a payment using ``FINISH[k]``: (count of each Material
#: supplied by Persistent Materials, 1 if Recycling supplies one Material).
FINISH: list[tuple[tuple[int, ...], int]] = _finish_table()
_FINISH_INDEX = {entry: k for k, entry in enumerate(FINISH)}

Payment = tuple[tuple[int, ...], tuple[int, ...], int]  # (discarded cards, persistent counts, recycle)


class BigSur(Game):
    """Big Sur with its options fixed (see :func:`solvers.load_game`).

    ``cards`` is a card file path or a loaded :class:`~.data.CardSet`
    (default: the reconstructed set shipped with the package).

    >>> BigSur(players=3).turns_each
    7
    """

    name = "bigsur"
    reference = True

    def __init__(self, players: int = 2, cards: CardSet | str | None = None):
        self.cards = load_cards(cards)
        self.cards.check_players(players)
        self.num_players = players
        self.deck = self.cards.deck_for(players)
        self.turns_each = self.cards.turns_each(players)
        n, lm = len(self.cards.highway), len(self.cards.landmarks)
        self.num_cards, self.num_landmarks = n, lm
        #: The most cards a Highway can hold: every card a player ever takes.
        self.max_highway = HAND_AT_SETUP + TAKE_PER_TURN * max(
            self.cards.turns_each(p) for p in (2, 3, 4))
        self.DRAW = n
        self.BUILD_BASE = n + 1
        self.LEFT = 2 * n + 1
        self.RIGHT = 2 * n + 2
        self.DISCARD_BASE = 2 * n + 3
        self.FINISH_BASE = 3 * n + 3
        self.TOP_BASE = self.FINISH_BASE + len(FINISH)
        self.CLAIM_BASE = self.TOP_BASE + len(MATERIALS)
        self.PLACE_BASE = self.CLAIM_BASE + lm
        self.END_TURN = self.PLACE_BASE + len(SCENERY) * self.max_highway
        self.CARD_BASE = self.END_TURN + 1
        self.LANDMARK_BASE = self.CARD_BASE + n
        # A bound on the actions of one game: the setup deals; per turn two
        # takes and two draws, the end, a claim, its placement and reveal
        # and two refills; per card ever built at most 13 decisions (build,
        # end, 9 discards, pay, top).
        self.max_game_length = (players * (self.turns_each * 10 + self.max_highway * 13)
                                + len(self.deck) + lm)

    def num_distinct_actions(self) -> int:
        return self.LANDMARK_BASE + self.num_landmarks

    def place_action(self, scenery: str, position: int) -> int:
        """The action that places the claimed Landmark above the card at
        ``position`` (0 = leftmost), through the ``scenery`` Stretch."""
        return self.PLACE_BASE + SCENERY.index(scenery) * self.max_highway + position

    def finish_action(self, persistent: dict[str, int] | None = None, recycle: bool = False) -> int:
        """The ``FINISH`` action using these Persistent Materials and Recycling."""
        counts = tuple((persistent or {}).get(m, 0) for m in MATERIALS)
        return self.FINISH_BASE + _FINISH_INDEX[(counts, int(recycle))]

    def new_initial_state(self, seed: int | None = None) -> "BigSurState":
        return BigSurState(self, seed_from(seed))

    def __repr__(self) -> str:
        return f"BigSur(players={self.num_players}, reference=True)"


class BigSurState(State):
    """A position of Big Sur (reference implementation).

    Plain data: ``highways`` (card numbers left to right, per player),
    ``marks`` (per player: card -> (Landmark, Scenery type it was claimed
    through)), ``hands`` (sets), ``piles`` (discard piles, bottom to top),
    ``order``/``pos`` (the Highway deck; ``order[pos:]`` is still face down),
    ``depot``, ``lorder``/``lpos`` and ``row`` (Landmarks), ``player``,
    ``step``, and what this turn has used: ``taken``, ``used`` (Persistent
    sources), ``recycled``; a build in progress: ``building``, ``end``,
    ``paying``, ``pay_finish``; a claim in progress: ``claiming``.
    """

    def __init__(self, game: BigSur, seed: int):
        self.game: BigSur = game
        p = game.num_players
        rng = SplitMix64(seed)
        self.order = list(game.deck)
        rng.shuffle(self.order)
        self.lorder = list(range(1, game.num_landmarks + 1))
        rng.shuffle(self.lorder)
        self.pos = 0
        self.lpos = 0
        self.highways: list[list[int]] = [[] for _ in range(p)]
        self.marks: list[dict[int, tuple[int, str]]] = [{} for _ in range(p)]
        self.hands: list[set[int]] = [set() for _ in range(p)]
        self.piles: list[list[int]] = [[] for _ in range(p)]
        self.depot: set[int] = set()
        self.row: set[int] = set()
        self.player = 0
        self.step = "deal"
        self.turns = [0] * p
        self._new_turn()
        self.history: list[int] = []

    def _new_turn(self) -> None:
        self.taken = 0
        self.used: set[tuple[str, int]] = set()
        self.recycled = False
        self.claimed = False
        self.building: int | None = None
        self.end: str | None = None
        self.paying: list[int] = []
        self.pay_finish: tuple[tuple[int, ...], int] | None = None
        self.claiming: int | None = None
        self._options: list[Payment] | None = None

    # ----- the State interface -------------------------------------------
    def current_player(self) -> int:
        if self.step in CHANCE_STEPS:
            return CHANCE
        if self.step == "over":
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.step == "over"

    def deck_left(self) -> list[int]:
        """The Highway cards still face down, top first."""
        return self.order[self.pos:]

    def _deals_landmark(self) -> bool:
        if self.step == "reveal":
            return True
        return self.step == "deal" and self.pos == self.game.num_players * HAND_AT_SETUP + DEPOT_SIZE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        g = self.game
        if self._deals_landmark():
            rest = sorted(self.lorder[self.lpos:])
            return [(g.LANDMARK_BASE + l - 1, 1.0 / len(rest)) for l in rest]
        rest = sorted(self.deck_left())
        return [(g.CARD_BASE + c - 1, 1.0 / len(rest)) for c in rest]

    def seeded_outcome(self) -> int:
        if not self.is_chance_node():
            raise SolversError("not a chance node")
        if self._deals_landmark():
            return self.game.LANDMARK_BASE + self.lorder[self.lpos] - 1
        return self.game.CARD_BASE + self.order[self.pos] - 1

    def legal_actions(self) -> list[int]:
        g, p = self.game, self.player
        step = self.step
        if step in CHANCE_STEPS:
            return [a for a, _ in self.chance_outcomes()]
        if step == "take":
            acts = sorted(c - 1 for c in self.depot)
            if self.pos < len(self.order):
                acts.append(g.DRAW)
            return acts
        if step == "build":
            acts = [g.BUILD_BASE + c - 1 for c in sorted(self.hands[p]) if self.payments(c)]
            if not self.claimed:
                acts += [g.CLAIM_BASE + l - 1 for l in sorted(self.row) if self.placements(l)]
            return acts + [g.END_TURN]
        if step == "end":
            return [g.LEFT, g.RIGHT]
        if step == "pay":
            return self._pay_actions()
        if step == "top":
            return [g.TOP_BASE + MATERIALS.index(m) for m in self._top_choices()]
        if step == "place":
            return sorted(g.place_action(k, pos) for k, pos in self.placements(self.claiming))
        return []

    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        g, step = self.game, self.step
        if step in CHANCE_STEPS:
            if self._deals_landmark():
                self._reveal(action - g.LANDMARK_BASE + 1)
            else:
                self._deal(action - g.CARD_BASE + 1)
        elif step == "take":
            if action == g.DRAW:
                self.step = "draw"
            else:
                self.depot.remove(action + 1)
                self.hands[self.player].add(action + 1)
                self._took()
        elif step == "build":
            if action == g.END_TURN:
                self._end_turn()
            elif action >= g.CLAIM_BASE:
                self.claiming = action - g.CLAIM_BASE + 1
                self.step = "place"
            else:
                self.building = action - g.BUILD_BASE + 1
                self._options = None
                if len(self.highways[self.player]) >= 2:
                    self.end = None
                    self.step = "end"
                else:
                    self.end = "right"
                    self.step = "pay"
        elif step == "end":
            self.end = "left" if action == g.LEFT else "right"
            self.step = "pay"
        elif step == "pay":
            if action < g.FINISH_BASE:
                self.paying.append(action - g.DISCARD_BASE + 1)
            else:
                self.pay_finish = FINISH[action - g.FINISH_BASE]
                tops = self._top_choices()
                if len(tops) > 1:
                    self.step = "top"
                else:
                    self._complete_build(tops[0] if tops else None)
        elif step == "top":
            self._complete_build(MATERIALS[action - g.TOP_BASE])
        elif step == "place":
            k, pos = divmod(action - g.PLACE_BASE, g.max_highway)
            self._place(SCENERY[k], pos)

    # ----- chance ---------------------------------------------------------
    def _draw_card(self, card: int) -> None:
        i = self.order.index(card, self.pos)
        self.order[self.pos], self.order[i] = self.order[i], self.order[self.pos]
        self.pos += 1

    def _deal(self, card: int) -> None:
        self._draw_card(card)
        n = self.game.num_players
        if self.step == "deal":
            k = self.pos - 1
            if k < n * HAND_AT_SETUP:
                self.hands[k % n].add(card)
            else:
                self.depot.add(card)
        elif self.step == "draw":
            self.hands[self.player].add(card)
            self._took()
        else:  # refill
            self.depot.add(card)
            self._after_refill()

    def _reveal(self, landmark: int) -> None:
        i = self.lorder.index(landmark, self.lpos)
        self.lorder[self.lpos], self.lorder[i] = self.lorder[i], self.lorder[self.lpos]
        self.lpos += 1
        self.row.add(landmark)
        if self.step == "deal":
            if len(self.row) == LANDMARK_ROW or self.lpos == len(self.lorder):
                self.player = 0
                self.step = "take"
        else:
            self._end_turn()

    def _took(self) -> None:
        self.taken += 1
        self.step = "build" if self.taken == TAKE_PER_TURN else "take"

    def _end_turn(self) -> None:
        self.turns[self.player] += 1
        self.step = "refill"
        self._after_refill()

    def _after_refill(self) -> None:
        if len(self.depot) < DEPOT_SIZE and self.pos < len(self.order):
            return  # another refill card to come
        if self.pos == len(self.order):
            self.step = "over"
            return
        self.player = (self.player + 1) % self.game.num_players
        self._new_turn()
        self.step = "take"

    # ----- paying -----------------------------------------------------------
    def persistent_sources(self, player: int) -> list[tuple[tuple[str, int], str]]:
        """Every Persistent Material ``player`` may still use this turn:
        ((``"card"``, number) or (``"landmark"``, number), Material), built
        1-mile cards in card order, then Landmarks that supply a Material."""
        cards = self.game.cards
        out = []
        for c in sorted(self.highways[player]):
            if cards.card(c).persistent and ("card", c) not in self.used:
                out.append((("card", c), cards.card(c).persistent))
        for l, _ in sorted(self.marks[player].values()):
            ability = cards.landmark(l).ability
            if ability.kind == "material" and ("landmark", l) not in self.used:
                out.append((("landmark", l), ability.get("material")))
        return out

    def pile_top(self, player: int) -> int | None:
        """The card on top of ``player``'s discard pile."""
        return self.piles[player][-1] if self.piles[player] else None

    def payments(self, card: int) -> list[Payment]:
        """Every distinct exact way for the player to move to pay for ``card``:
        (cards discarded, ascending; Persistent Materials used per Material;
        1 if Recycling is used). See :func:`enumerate_payments`."""
        p = self.player
        top = self.pile_top(p)
        cards = self.game.cards
        return enumerate_payments(
            cost=cards.card(card).cost,
            hand={c: cards.card(c).material for c in self.hands[p] if c != card},
            persistent=Counter(m for _, m in self.persistent_sources(p)),
            recycle_top=None if self.recycled else (cards.card(top).material if top else ""),
        )

    def _current_options(self) -> list[Payment]:
        if self._options is None:
            self._options = self.payments(self.building)
        return self._options

    def _pay_actions(self) -> list[int]:
        g = self.game
        k = len(self.paying)
        prefix = tuple(self.paying)
        acts = set()
        for discards, counts, recycle in self._current_options():
            if discards[:k] != prefix:
                continue
            if len(discards) > k:
                acts.add(g.DISCARD_BASE + discards[k] - 1)
            else:
                acts.add(g.FINISH_BASE + _FINISH_INDEX[(counts, recycle)])
        return sorted(acts)

    def _top_choices(self) -> list[str]:
        cards = self.game.cards
        return sorted({cards.card(c).material for c in self.paying}, key=MATERIALS.index)

    def _complete_build(self, top_material: str | None) -> None:
        p, cards = self.player, self.game.cards
        counts, recycle = self.pay_finish
        for m, k in zip(MATERIALS, counts, strict=True):
            sources = [s for s, mat in self.persistent_sources(p) if mat == m]
            self.used.update(sources[:k])
        if recycle:
            self.recycled = True
        discards = sorted(self.paying)
        if discards:
            top = min(c for c in discards if cards.card(c).material == top_material)
            self.piles[p] += [c for c in discards if c != top] + [top]
            self.hands[p] -= set(discards)
        self.hands[p].remove(self.building)
        if self.end == "left":
            self.highways[p].insert(0, self.building)
        else:
            self.highways[p].append(self.building)
        self.building, self.paying, self.pay_finish, self._options = None, [], None, None
        self.end = None
        self.step = "build"

    # ----- Landmarks -----------------------------------------------------------
    def spots(self, player: int) -> list[Spot]:
        """``player``'s Highway as :class:`~.scoring.Spot` s, left to right."""
        cards = self.game.cards
        out = []
        for c in self.highways[player]:
            mark = self.marks[player].get(c)
            if mark is None:
                out.append(Spot(cards.card(c)))
            else:
                out.append(Spot(cards.card(c), cards.landmark(mark[0]), mark[1]))
        return out

    def placements(self, landmark: int) -> list[tuple[str, int]]:
        """Where the player to move may place ``landmark``: (Scenery type of
        an unused qualifying Stretch, position of one of its cards holding no
        Landmark)."""
        highway = self.spots(self.player)
        wanted = self.game.cards.landmark(landmark).scenery
        out = []
        for s in find_stretches(highway):
            if s.scenery in wanted and not stretch_used(highway, s):
                out += [(s.scenery, k) for k in s.positions if highway[k].landmark is None]
        return out

    def _place(self, scenery: str, position: int) -> None:
        p = self.player
        card = self.highways[p][position]
        self.marks[p][card] = (self.claiming, scenery)
        self.row.remove(self.claiming)
        self.claiming = None
        self.claimed = True
        if self.lpos < len(self.lorder):
            self.step = "reveal"
        else:
            self._end_turn()

    # ----- scoring ----------------------------------------------------------------
    def scores(self) -> list[int]:
        return [score_highway(self.spots(p)).total for p in range(self.game.num_players)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return win_shares(self.scores())

    def clone(self) -> "BigSurState":
        other = object.__new__(BigSurState)
        other.__dict__.update(self.__dict__)
        other.order, other.lorder = list(self.order), list(self.lorder)
        other.highways = [list(h) for h in self.highways]
        other.marks = [dict(m) for m in self.marks]
        other.hands = [set(h) for h in self.hands]
        other.piles = [list(pl) for pl in self.piles]
        other.depot, other.row = set(self.depot), set(self.row)
        other.turns = list(self.turns)
        other.used = set(self.used)
        other.paying = list(self.paying)
        other.history = list(self.history)
        return other

    # ----- hidden information -------------------------------------------------------
    def resample(self, player: int, seed: int | SplitMix64) -> "BigSurState":
        """A copy in which everything ``player`` cannot see is dealt afresh.

        Hidden from ``player``: the other players' hands and their discard
        piles below the top card, the Highway deck and the Landmark deck. The
        hidden Highway cards are gathered in ascending order (so the result
        depends only on what ``player`` sees), shuffled with
        ``SplitMix64(seed)`` (or the generator ``seed`` itself) and dealt
        back seat by seat (hand, then the pile below its top), then to the
        deck; then the Landmark deck is shuffled the same way. Every size
        stays as it was. Not while another player is choosing the cards of a
        payment (their choices so far are hidden and constrain the rest).
        While another player builds a card (named aloud, so it stays in their
        hand), the deal is redone until their hand can still pay for it; after
        ``REDEAL_TRIES`` failed deals the Highway cards are left as they are.
        """
        check_player(self.game, player)
        if self.step in ("pay", "top") and self.player != player and self.paying:
            raise SolversError("cannot resample while another player is paying")
        rng = seed if isinstance(seed, SplitMix64) else SplitMix64(seed_from(seed))
        other = self.clone()
        n = self.game.num_players
        mover = self.player
        # A card another player is building was named aloud: it stays in
        # their hand, and their re-dealt hand must still be able to pay it.
        pending = self.building if mover != player and self.building is not None else None
        hidden: list[int] = []
        for q in range(n):
            if q != player:
                hidden += [c for c in self.hands[q] if c != pending] + self.piles[q][:-1]
        hidden += self.deck_left()
        for _ in range(REDEAL_TRIES):
            hidden.sort()
            rng.shuffle(hidden)
            k = 0
            for q in range(n):
                if q != player:
                    size = len(self.hands[q]) - (1 if q == mover and pending is not None else 0)
                    other.hands[q] = set(hidden[k:k + size])
                    k += size
                    below = len(self.piles[q]) - 1
                    if below > 0:
                        other.piles[q] = hidden[k:k + below] + self.piles[q][-1:]
                        k += below
            other.order[self.pos:] = hidden[k:]
            if pending is None:
                break
            other.hands[mover].add(pending)
            if other.payments(pending):
                break
        else:  # no re-deal let the pending build be paid: keep the cards as they are
            other.hands = [set(h) for h in self.hands]
            other.piles = [list(pile) for pile in self.piles]
            other.order = list(self.order)
        # The dealt part of the order records who got what (and, once the
        # hands are re-dealt, no longer matches them): rewritten as the
        # deck's cards off the stack in ascending order, it tells nothing
        # (the kernel does the same).
        other.order[:self.pos] = sorted(set(self.order) - set(other.order[self.pos:]))
        rest = sorted(self.lorder[self.lpos:])
        rng.shuffle(rest)
        other.lorder[self.lpos:] = rest
        other._options = None
        return other

    def action_observation(self, action: int, player: int) -> int:
        """What ``player`` sees of ``action``: the action itself, or
        ``HIDDEN`` for a card dealt or drawn into another player's hand and
        for a card another player discards."""
        g = self.game
        if self.step == "deal" and not self._deals_landmark():
            k = self.pos
            if k < g.num_players * HAND_AT_SETUP and k % g.num_players != player:
                return HIDDEN
        if self.step == "draw" and self.player != player:
            return HIDDEN
        if self.step == "pay" and self.player != player and action < g.FINISH_BASE:
            return HIDDEN
        return action

    def information_state(self, player: int) -> dict[str, Any]:
        """What ``player`` knows: every Highway and Landmark, the Depot and
        the Landmark row, their own hand and discard pile, the top card and
        size of the other piles, and only the sizes of the rest."""
        return information_view(self, player)

    # ----- names and views ----------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def __str__(self) -> str:
        return render(self)


# ----- payments -------------------------------------------------------------------
def enumerate_payments(cost: tuple[str, ...], hand: dict[int, str], persistent: Counter,
                       recycle_top: str | None) -> list[Payment]:
    """Every distinct exact payment of ``cost``.

    ``hand`` maps the cards that may be discarded to their Material,
    ``persistent`` counts the Persistent Materials still usable this turn,
    ``recycle_top`` is the Material on top of the discard pile (``""`` for an
    empty pile; ``None`` when Recycling was already used this turn). Each
    Material of the cost is supplied by exactly one of: a discarded card of
    that Material, three discarded cards (any), a Persistent Material, or
    Recycling, which supplies the Material of the pile's top card or of any
    card discarded in this payment (the player orders the discards).

    A payment is (discarded cards ascending, Persistent Materials used per
    Material in ``MATERIALS`` order, 1 if Recycling is used), sorted.

    >>> enumerate_payments(("stone", "water"), {3: "stone", 5: "water", 8: "stone"}, Counter(), None)
    [((3, 5), (0, 0, 0, 0, 0), 0), ((5, 8), (0, 0, 0, 0, 0), 0)]
    >>> enumerate_payments(("stone",), {3: "water"}, Counter({"stone": 1}), "stone")
    [((), (0, 0, 0, 0, 0), 1), ((), (1, 0, 0, 0, 0), 0)]
    """
    found: set[Payment] = set()
    need = Counter(cost)
    kinds = sorted(need, key=MATERIALS.index)
    by_material: dict[str, list[int]] = {}
    for c, m in sorted(hand.items()):
        by_material.setdefault(m, []).append(c)
    # Persistent Materials used, per Material of the cost.
    for used in product(*[range(min(need[m], persistent.get(m, 0)) + 1) for m in kinds]):
        rest = need - Counter(dict(zip(kinds, used, strict=True)))
        counts = tuple(dict(zip(kinds, used, strict=True)).get(m, 0) for m in MATERIALS)
        recycle_options: list[str | None] = [None]
        if recycle_top is not None:
            recycle_options += [m for m in kinds if rest[m] > 0]
        for recycled in recycle_options:
            left = rest - Counter([recycled]) if recycled else rest
            left_kinds = [m for m in kinds if left[m] > 0]
            # Singles per Material; the remaining slots are paid by triples.
            for singles in product(*[range(left[m] + 1) for m in left_kinds]):
                triples = sum(left.values()) - sum(singles)
                pools = [combinations(by_material.get(m, []), k) for m, k in zip(left_kinds, singles, strict=True)]
                for chosen in product(*pools):
                    single_cards = {c for group in chosen for c in group}
                    others = [c for c in sorted(hand) if c not in single_cards]
                    for wild in combinations(others, 3 * triples):
                        discards = tuple(sorted(single_cards | set(wild)))
                        if recycled and recycled != recycle_top and not any(
                                hand[c] == recycled for c in discards):
                            continue
                        found.add((discards, counts, 1 if recycled else 0))
    return sorted(found)


# ----- helpers shared with a kernel wrapper ------------------------------------------
def information_view(state: Any, player: int) -> dict[str, Any]:
    """The information state of ``player`` from the public fields of a state."""
    game = state.game
    check_player(game, player)
    n = game.num_players
    own_turn = state.player == player
    return {
        "game": "bigsur",
        "players": n,
        "player": player,
        "to_move": state.current_player(),
        "turn_of": state.player,
        "step": state.step,
        "highways": [list(h) for h in state.highways],
        "landmarks": [{str(c): list(v) for c, v in sorted(m.items())} for m in state.marks],
        "hand": sorted(state.hands[player]),
        "hand_sizes": [len(h) for h in state.hands],
        "pile": list(state.piles[player]),
        "pile_tops": [pl[-1] if pl else None for pl in state.piles],
        "pile_sizes": [len(pl) for pl in state.piles],
        "depot": sorted(state.depot),
        "row": sorted(state.row),
        "deck": len(state.order) - state.pos,
        "landmark_deck": len(state.lorder) - state.lpos,
        "turns": list(state.turns),
        "taken": state.taken,
        "used": sorted([list(u) for u in state.used]),
        "recycled": state.recycled,
        "claimed": state.claimed,
        "building": state.building,
        "end": state.end,
        "paying": list(state.paying) if own_turn else len(state.paying),
        "pay_finish": ([list(state.pay_finish[0]), state.pay_finish[1]]
                       if state.pay_finish is not None else None),
        "claiming": state.claiming,
    }


def describe_hidden(state: Any, action: int, viewer: int, seen: int) -> str:
    """The public part of ``action`` for ``viewer``, who does not see it: a
    card dealt or drawn into another hand, a card another player discards."""
    g = state.game
    if state.is_chance_node():
        if state.step == "draw":
            return f"player {state.player} draws a card"
        return f"deal a card to player {state.pos % g.num_players}"
    if state.step == "pay":
        return f"player {state.player} discards a card face down"
    return f"player {state.player} makes a hidden move"


def describe_action(state: Any, action: int) -> str:
    """The words for ``action`` in ``state``."""
    g = state.game
    cards = g.cards
    if state.is_chance_node():
        if action >= g.LANDMARK_BASE:
            return f"reveal Landmark {cards.landmark(action - g.LANDMARK_BASE + 1).name}"
        card = action - g.CARD_BASE + 1
        if state.step == "draw":
            return f"player {state.player} draws {card}"
        if state.step == "refill":
            return f"refill the Depot with {card}"
        if state.pos < g.num_players * HAND_AT_SETUP:
            return f"deal {card} to player {state.pos % g.num_players}"
        return f"deal {card} to the Depot"
    if action < g.DRAW:
        return f"take {action + 1} from the Depot"
    if action == g.DRAW:
        return "draw from the deck"
    if action < g.LEFT:
        return f"build {action - g.BUILD_BASE + 1}"
    if action == g.LEFT:
        return "at the left end"
    if action == g.RIGHT:
        return "at the right end"
    if action < g.FINISH_BASE:
        return f"discard {action - g.DISCARD_BASE + 1}"
    if action < g.TOP_BASE:
        counts, recycle = FINISH[action - g.FINISH_BASE]
        parts = [f"persistent {m.capitalize()}" for m, k in zip(MATERIALS, counts, strict=True) for _ in range(k)]
        if recycle:
            parts.append("recycling")
        return "pay" + (" with " + ", ".join(parts) if parts else "")
    if action < g.CLAIM_BASE:
        return f"{MATERIALS[action - g.TOP_BASE].capitalize()} on top"
    if action < g.PLACE_BASE:
        return f"claim {cards.landmark(action - g.CLAIM_BASE + 1).name}"
    if action < g.END_TURN:
        k, pos = divmod(action - g.PLACE_BASE, g.max_highway)
        highway = state.highways[state.player]
        card = highway[pos] if pos < len(highway) else "?"
        return f"place above {card} (position {pos}, {SCENERY[k].capitalize()} Stretch)"
    return "end turn"


def render(state: Any) -> str:
    """A plain-text view of the table: each Highway, the Depot and Landmark row."""
    cards = state.game.cards
    lines = []
    for p, highway in enumerate(state.highways):
        parts = []
        for c in highway:
            card = cards.card(c)
            text = f"{c}:{card.scenery[0][:2]}{card.scenery[1][:2]}{card.miles}"
            if c in state.marks[p]:
                text += f"[L{state.marks[p][c][0]}]"
            parts.append(text)
        lines.append(f"player {p}: " + (" ".join(parts) or "(no cards)"))
    lines.append(f"depot {sorted(state.depot)}, Landmarks {sorted(state.row)}, "
                 f"deck {len(state.order) - state.pos}")
    lines.append(f"step {state.step}, to move {state.current_player()}, scores {state.scores()}")
    return "\n".join(lines)
