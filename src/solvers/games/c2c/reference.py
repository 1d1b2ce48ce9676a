"""Coast to Coast, the rules as plain Python: the reference implementation.

This module is the documentation of record for the rules. It favours clarity
over speed (sets of location ids, one method per step of a round); the Cython
kernel ``solvers._core.c2c`` implements the same rules on 32-bit boards, and
random differential tests hold the two equal.

The rules, and every decision where the rulebook is silent, in prose:
``docs/rules/coast-to-coast.md`` (decisions under
``docs/rules/coast-to-coast.md#decisions-where-the-rulebook-is-silent``);
this module implements, among others, ``docs/rules/coast-to-coast.md#setup-deal-order``,
``docs/rules/coast-to-coast.md#setup-circles-not-exact``,
``docs/rules/coast-to-coast.md#circling-is-compulsory``,
``docs/rules/coast-to-coast.md#crossed-circles-leave``,
``docs/rules/coast-to-coast.md#seat-order``,
``docs/rules/coast-to-coast.md#challenge-card-out-of-deck`` and
``docs/rules/coast-to-coast.md#win-shares``. How a game unfolds as actions:

* **Setup** (round 0). Chance deals the setup cards one at a time: 4 in solo;
  with several players 2 private cards to each seat in turn, then 2 public
  cards. Each player then crosses off one location of the 4 cards they see;
  the other 3 are circled as starting locations (never exact matches).
* **Rounds 1-5.** Chance reveals 4 cards. Each player in seat order crosses
  off one of the 4 locations exactly (a circled one leaves the itinerary),
  then circles with the other 3 cards, one action per circle, in any order.
  A circle must share a highway, region or type with its card, be neither
  circled nor crossed off, and be joined by a line to a location circled now.
  Circling is compulsory: the player's part of the round ends only when no
  unused card has a legal location; the cards left over are skipped.
  Players act one after another, but nothing one does limits another, so
  this is the same game as the simultaneous one on paper.

Action ids (``n`` = number of locations, 32 on the standard sheet):

* chance: the card dealt, ``0..n-1`` (a card shows exactly one location, so
  card id = location id);
* cross off location ``l``: ``l``;
* circle location ``l`` using card ``k``: ``n + k * n + l``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import IllegalActionError, SolversError
from ...game import CHANCE, TERMINAL, Game, State
from ...rng import SplitMix64, seed_from
from .data import CoastMap, load_map

ROUNDS = 5
CARDS_PER_ROUND = 4
MAX_PLAYERS = 4
HIDDEN = -2  # action_observation of a move the observer does not see (GAME_HIDDEN in C)


def describe_hidden(state: Any, action: int, viewer: int, seen: int) -> str:
    """The public part of ``action`` for ``viewer`` (reference or kernel
    state; ``seen`` is :meth:`CoastState.action_observation`): a private
    setup card dealt to another seat, or another seat's move of the current
    round, which shows only whether that seat goes on or its turn passes,
    and, when the move ends the round, the location circled and whether it
    is an exact match (docs/rules/coast-to-coast.md, hidden information)."""
    n = state.map.n
    if state.is_chance_node():
        return f"deal a private setup card to player {len(state.dealt) // 2}"
    mover = state.current_player()
    if seen == HIDDEN:
        return f"player {mover} marks their sheet (shown at the end of the round)"
    if (state.step == "cross" and seen == n) or (state.step != "cross" and seen == 0):
        return f"player {mover} makes their last mark of the round (shown at the end of the round)"
    card, loc = divmod(action - n, n)
    exact = " (an exact match)" if card == loc else ""
    return f"player {mover} circles {state.map.locations[loc].name}{exact}"


@dataclass
class Sheet:
    """One player's score sheet: what is circled, crossed off and how."""

    circled: set[int] = field(default_factory=set)
    crossed: set[int] = field(default_factory=set)
    exact: set[int] = field(default_factory=set)
    # The round tracker: per round (0 = setup) the card crossed off and the
    # circles made in order, (card, location) or (card, None) for a skip.
    crosses: list[int] = field(default_factory=list)
    circles: list[list[tuple[int, int | None]]] = field(default_factory=list)

    def copy(self) -> "Sheet":
        return Sheet(
            set(self.circled), set(self.crossed), set(self.exact),
            list(self.crosses), [list(r) for r in self.circles],
        )


class CoastToCoast(Game):
    """Coast to Coast with its options fixed (see :func:`solvers.load_game`)."""

    name = "c2c"
    reference = True

    def __init__(self, players: int = 1, challenge: str | int | None = None,
                 map: CoastMap | str | None = None):
        if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
            raise SolversError(f"Coast to Coast is for 1 to {MAX_PLAYERS} players, not {players!r}")
        self.map = map if isinstance(map, CoastMap) else load_map(map)
        self.num_players = players
        if challenge is not None and players != 1:
            raise SolversError("a challenge card is for the solo game (players=1)")
        if isinstance(challenge, str):
            challenge = self.map.location(challenge).id
        elif challenge is not None and (
            isinstance(challenge, bool) or not isinstance(challenge, int)
            or not 0 <= challenge < self.map.n
        ):
            raise SolversError(f"challenge should be a location name or id, not {challenge!r}")
        self.challenge: int | None = challenge
        n = self.map.n
        self.deck = [c for c in range(n) if c != challenge]
        needed = self.setup_cards() + ROUNDS * CARDS_PER_ROUND
        if needed > len(self.deck):
            raise SolversError(
                f"{players} players need {needed} cards but the deck has {len(self.deck)}"
            )

    def setup_cards(self) -> int:
        return 4 if self.num_players == 1 else 2 * self.num_players + 2

    def num_distinct_actions(self) -> int:
        return self.map.n + self.map.n * self.map.n

    def required(self) -> set[int]:
        """The locations the challenge demands (empty without a challenge)."""
        if self.challenge is None:
            return set()
        return set(_ids(self.map.required_mask(self.challenge)))

    def new_initial_state(self, seed: int | None = None) -> "CoastState":
        return CoastState(self, seed_from(seed))

    def state_from_deal(self, deal: list[int]) -> "CoastState":
        """A state whose seeded outcomes deal ``deal`` first (setup, then rounds)."""
        state = CoastState(self, 0)
        state.set_deal(deal)
        return state

    def __repr__(self) -> str:
        ch = "" if self.challenge is None else f", challenge={self.map.locations[self.challenge].name!r}"
        return f"CoastToCoast(players={self.num_players}{ch}, reference=True)"


def _ids(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class CoastState(State):
    """A position of Coast to Coast (reference implementation)."""

    def __init__(self, game: CoastToCoast, seed: int):
        self.game: CoastToCoast = game
        self.map = game.map
        self.order = list(game.deck)
        SplitMix64(seed).shuffle(self.order)
        self.pos = 0                      # cards dealt so far
        self.round = 0                    # 0 = setup, 1..5, 6 = over
        self.dealt: list[int] = []        # cards dealt this round, in order
        self.player = 0                   # whose decision it is
        self.step = "cross"               # "cross" or "circle"
        self.used: set[int] = set()       # cards of this round the player has used
        self.sheets = [Sheet() for _ in range(game.num_players)]
        self.round_start = [s.copy() for s in self.sheets]
        self.history: list[int] = []

    # ----- dealing -------------------------------------------------------
    def set_deal(self, deal: list[int]) -> None:
        """Put ``deal`` at the top of the seeded deck order."""
        if len(set(deal)) != len(deal) or any(c not in self.game.deck for c in deal):
            raise SolversError("a deal must list distinct cards of the deck")
        rest = [c for c in self.order if c not in set(deal)]
        self.order = list(deal) + rest

    def cards_needed(self) -> int:
        return self.game.setup_cards() if self.round == 0 else CARDS_PER_ROUND

    def visible_cards(self, player: int) -> list[int]:
        """The cards ``player`` uses this round (setup: own private + public)."""
        if self.round == 0 and self.game.num_players > 1:
            p2 = 2 * self.game.num_players
            return self.dealt[2 * player: 2 * player + 2] + self.dealt[p2: p2 + 2]
        return list(self.dealt)

    # ----- the State interface -------------------------------------------
    def current_player(self) -> int:
        if self.round > ROUNDS:
            return TERMINAL
        if len(self.dealt) < self.cards_needed():
            return CHANCE
        return self.player

    def is_terminal(self) -> bool:
        return self.round > ROUNDS

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        rest = sorted(self.order[self.pos:])
        return [(c, 1.0 / len(rest)) for c in rest]

    def seeded_outcome(self) -> int:
        if not self.is_chance_node():
            raise SolversError("not a chance node")
        return self.order[self.pos]

    def legal_actions(self) -> list[int]:
        player = self.current_player()
        if player == CHANCE:
            return [c for c, _ in self.chance_outcomes()]
        if player == TERMINAL:
            return []
        if self.step == "cross":
            return sorted(self.visible_cards(player))
        return sorted(self._circle_actions(player))

    def _circle_actions(self, player: int) -> list[int]:
        if self.round == 0:
            return []  # setup circles are made by the cross-off itself
        n = self.map.n
        sheet = self.sheets[player]
        reachable: set[int] = set()
        for c in sheet.circled:
            reachable |= set(_ids(self.map.neighbours[c]))
        free = reachable - sheet.circled - sheet.crossed
        actions = []
        for card in self.dealt:
            if card in self.used:
                continue
            for loc in free:
                if self.map.matches[card] >> loc & 1:
                    actions.append(n + card * n + loc)
        return actions

    def apply_action(self, action: int) -> None:
        if not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        if self.is_chance_node():
            self._deal(action)
        elif self.step == "cross":
            self._cross(action)
        else:
            n = self.map.n
            card, loc = divmod(action - n, n)
            self._circle(card, loc)
        self._settle()

    def _deal(self, card: int) -> None:
        i = self.order.index(card, self.pos)
        self.order[self.pos], self.order[i] = self.order[i], self.order[self.pos]
        self.pos += 1
        self.dealt.append(card)

    def _cross(self, loc: int) -> None:
        sheet = self.sheets[self.player]
        sheet.crossed.add(loc)
        sheet.circled.discard(loc)
        sheet.crosses.append(loc)
        sheet.circles.append([])
        self.used = {loc}
        if self.round == 0:
            # The other setup locations become the starting circles.
            for card in self.visible_cards(self.player):
                if card != loc:
                    sheet.circled.add(card)
                    sheet.circles[-1].append((card, card))
            self.used = set(self.visible_cards(self.player))
        self.step = "circle"

    def _circle(self, card: int, loc: int) -> None:
        sheet = self.sheets[self.player]
        sheet.circled.add(loc)
        if card == loc:
            sheet.exact.add(loc)
        sheet.circles[-1].append((card, loc))
        self.used.add(card)

    def _settle(self) -> None:
        """Move on when the current player has nothing left to circle."""
        while (
            self.round <= ROUNDS
            and not self.is_chance_node()
            and self.step == "circle"
            and not self._circle_actions(self.player)
        ):
            sheet = self.sheets[self.player]
            for card in self.visible_cards(self.player):
                if card not in self.used:
                    sheet.circles[-1].append((card, None))  # skipped
            self.step = "cross"
            self.used = set()
            self.player += 1
            if self.player == self.game.num_players:
                self.player = 0
                self.round += 1
                self.dealt = []
                self.round_start = [s.copy() for s in self.sheets]

    def clone(self) -> "CoastState":
        other = object.__new__(CoastState)
        other.game, other.map = self.game, self.map
        other.order = list(self.order)
        other.pos, other.round, other.player, other.step = self.pos, self.round, self.player, self.step
        other.dealt = list(self.dealt)
        other.used = set(self.used)
        other.sheets = [s.copy() for s in self.sheets]
        other.round_start = [s.copy() for s in self.round_start]
        other.history = list(self.history)
        return other

    # ----- hidden information --------------------------------------------
    def resample(self, player: int, seed: int | SplitMix64) -> "CoastState":
        """A copy in which everything ``player`` cannot see is dealt afresh
        (docs/rules/coast-to-coast.md, hidden information).

        The undealt deck and, in the setup with several players, the other
        seats' private cards are gathered in ascending order (so nothing
        hidden leaks), shuffled from ``seed`` (or one draw of the generator
        ``seed``, which advances) and dealt back, as the kernel's
        ``determinize`` does. The other seats that have finished their turn
        this round then make it afresh from their sheets as the round began:
        uniformly random legal moves here (the kernel uses its playout
        policy), so nothing of their real choices remains.
        """
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < self.game.num_players:
            raise SolversError(f"no player {player!r} in a {self.game.num_players}-player game")
        # As the kernel's resample: one draw of a generator seeds the re-deal.
        rng = SplitMix64(seed_from(seed.next() if isinstance(seed, SplitMix64) else seed))
        other = self.clone()
        n = self.game.num_players
        slots: list[int] = []
        if self.round == 0 and n > 1:
            for q in range(n):
                if q != player:
                    slots += range(2 * q, min(2 * q + 2, len(self.dealt)))
        private = len(slots)
        slots += range(self.pos, len(self.order))
        cards = sorted(self.order[i] for i in slots)
        rng.shuffle(cards)
        for j, i in enumerate(slots):
            other.order[i] = cards[j]
            if j < private:
                other.dealt[i] = cards[j]   # in the setup dealt[i] is order[i]
        if n > 1 and self.round <= ROUNDS and len(self.dealt) >= self.cards_needed():
            for q in range(self.player):
                if q != player:
                    other._replay_turn(q, rng)
        other.history = []
        return other

    def _replay_turn(self, q: int, rng: SplitMix64) -> None:
        """Seat ``q``'s turn of this round made afresh at random, from its
        sheet as the round began."""
        turn = self.clone()
        turn.sheets[q] = self.round_start[q].copy()
        turn.player, turn.step, turn.used = q, "cross", set()
        while turn.player == q and turn.round == self.round:
            legal = turn.legal_actions()
            turn.apply_action(legal[rng.below(len(legal))])
        self.sheets[q] = turn.sheets[q]

    # ----- scoring -------------------------------------------------------
    def score_breakdown(self, player: int = 0) -> dict[str, int]:
        """Points by category for ``player``'s itinerary as it stands."""
        m = self.map
        circled = self.sheets[player].circled
        mask = sum(1 << c for c in circled)
        highways = m.highway_score(mask)
        types = sum(m.type_points[t] for t in m.types if m.type_masks[t] & ~mask == 0)
        regions = m.region_points * sum(1 for r in m.regions if m.region_masks[r] & ~mask == 0)
        exact = m.exact_match_points * len(self.sheets[player].exact & circled)
        return {"highways": highways, "types": types, "regions": regions,
                "exact": exact, "total": highways + types + regions + exact}

    def scores(self) -> list[int]:
        return [self.score_breakdown(p)["total"] for p in range(self.game.num_players)]

    def challenge_won(self) -> bool | None:
        """Whether the solo challenge is complete (None without a challenge)."""
        if self.game.challenge is None:
            return None
        return self.game.required() <= self.sheets[0].circled

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        scores = self.scores()
        if self.game.num_players == 1:
            return [0.0 if self.challenge_won() is False else float(scores[0])]
        keys = [(s, self.score_breakdown(p)["highways"]) for p, s in enumerate(scores)]
        best = max(keys)
        winners = [p for p, k in enumerate(keys) if k == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(len(keys))]

    # ----- names and views -------------------------------------------------
    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def action_to_string(self, action: int) -> str:
        m, n = self.map, self.map.n
        if self.is_chance_node():
            return f"deal {m.locations[action].name}"
        if action < n:
            return f"cross {m.locations[action].name}"
        card, loc = divmod(action - n, n)
        return f"circle {m.locations[loc].name} with {m.locations[card].name}"

    def information_state(self, player: int) -> dict[str, Any]:
        """What ``player`` knows: the public cards, their own private cards,
        their own sheet, and the other sheets as they stood at the start of
        the round (the rounds are simultaneous on paper)."""
        if not 0 <= player < self.game.num_players:
            raise SolversError(f"no player {player} in a {self.game.num_players}-player game")
        seen = self.visible_cards(player) if self.round <= ROUNDS else []
        if self.round == 0 and self.game.num_players > 1:
            p2 = 2 * self.game.num_players
            seen = [c for c in seen if c in self.dealt[2 * player: 2 * player + 2]
                    or c in self.dealt[p2:]]

        def sheet_view(s: Sheet) -> dict[str, Any]:
            return {"circled": sorted(s.circled), "crossed": sorted(s.crossed),
                    "exact": sorted(s.exact)}

        others = {
            str(q): sheet_view(self.round_start[q])
            for q in range(self.game.num_players) if q != player
        }
        return {
            "game": "c2c",
            "player": player,
            "challenge": self.game.challenge,
            "round": self.round,
            "to_move": self.current_player(),
            "step": self.step,
            "cards": sorted(seen),
            "used": sorted(self.used) if self.player == player else [],
            "sheet": sheet_view(self.sheets[player]),
            "others": others,
        }

    def action_observation(self, action: int, player: int) -> int:
        """``action`` as ``player`` sees it, for information-set search: two
        legal actions give the same key exactly when they leave ``player``'s
        :meth:`information_state` the same.

        A private setup card dealt to another seat is :data:`HIDDEN`; every
        other card is seen. The seat to move sees its own move. Another
        seat's move stays hidden until the round ends: ``player`` only learns
        whether that seat goes on (:data:`HIDDEN`) or its turn passes (the
        id of a move of the other step: a circle ``n`` after a cross-off, a
        cross-off ``0`` after a circle). The move that ends the round shows
        on the sheet: the location and whether the circle is an exact match,
        not the card (any other card reads as one fixed non-matching card).

        >>> game = CoastToCoast(players=2)
        >>> state = game.new_initial_state(seed=1)
        >>> state.action_observation(state.legal_actions()[0], 1)  # seat 0's card
        -2
        """
        n = self.map.n
        if self.is_chance_node():
            private = 2 * self.game.num_players
            seat = len(self.dealt) // 2
            if self.round == 0 and self.game.num_players > 1 and len(self.dealt) < private \
                    and seat != player:
                return HIDDEN
            return action
        if self.player == player:
            return action
        after = self.clone()
        after.apply_action(action)
        if after.round != self.round:
            if self.step == "cross":
                return action
            card, loc = divmod(action - n, n)
            shown = loc if card == loc else (1 if loc == 0 else 0)
            return n + shown * n + loc
        if after.player != self.player:
            return n if self.step == "cross" else 0
        return HIDDEN

    def plan(self, player: int = 0) -> dict[str, Any]:
        """The player's sheet as the JSON plan of the command line."""
        names = [l.name for l in self.map.locations]
        s = self.sheets[player]
        rounds = []
        for r in range(1, len(s.crosses)):
            rounds.append({
                "cross": names[s.crosses[r]],
                "circles": [[names[k], None if l is None else names[l]] for k, l in s.circles[r]],
            })
        return {"setup_cross": names[s.crosses[0]] if s.crosses else None, "rounds": rounds}

    def __str__(self) -> str:
        names = [l.name for l in self.map.locations]
        lines = [f"round {self.round}, to move {self.current_player()}, dealt: "
                 + ", ".join(names[c] for c in self.dealt)]
        for p, s in enumerate(self.sheets):
            lines.append(f"player {p}: circled {sorted(s.circled)} crossed {sorted(s.crossed)}"
                         f" exact {sorted(s.exact)} score {self.score_breakdown(p)['total']}")
        return "\n".join(lines)
