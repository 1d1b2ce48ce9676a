"""Santa Cruz, the rules as plain Python: the reference implementation.

This module is the rules of record in code; ``docs/rules/santa-cruz.md``
explains them in words, with every decision the library takes where the
printed rules are silent. It favours clarity over speed.

How a game unfolds as actions (``S`` sites, ``K`` building sets, ``C``
scoring cards, ``T`` tiles; 49, 4, 16 and 54 on the shipped island):

* **layout** (chance): site by site in id order, a tile of the site's kind.
  Coastal tiles are seen by all, the others by nobody.
* **deal** (chance): the scoring cards, one at a time round the table from
  seat 0; each is seen only by its receiver.
* **choose**: round one, seat 0 first, then counterclockwise (N-1, ... 1);
  seat 1 chose last, starts on 0 points and moves first, the others clockwise
  start on 1, 2, ... points. Round two: from the back of the track forward;
  the last set is taken without a decision.
* round two only: **draw** (chance, seat order, secret) before choosing and
  **discard** (secret) after it, in the choosing order.
* **land**: each player in turn order chooses a free coastal site.
* **play**: the player to move plays one card; a building card is followed by
  one or two **build** decisions (a site) and, on a bird tile, a **bird**
  chance node (the token's value, secret to its drawer). A play with no
  target ends at once; a face-down river target that asks for a building the
  player lacks fails (a double river still makes its second build).
* After round two, bird tokens are scored and the game is **over**.

Action ids:

* ``site`` (land or build there): ``0 .. S-1``;
* choose set ``k``: ``S + k``;
* play ship / road / river: ``PLAY_SHIP``, ``PLAY_ROAD``, ``PLAY_RIVER``; a
  double move of one of those kinds: ``PLAY_DOUBLE + 0/1/2``;
* play scoring card ``c`` ("score River"): ``PLAY_SCORE + c``; discard it: ``DISCARD + c``;
* chance: tile ``t`` laid: ``TILE + t``; scoring card ``c`` dealt or drawn:
  ``CARD + c``; a bird token of value ``v``: ``BIRD + v - 1``.

Seeded chance: ``SplitMix64(seed)`` shuffles, in this order, the coast, land
and volcano tiles, the scoring cards and the bird bag; the seeded outcome is
always the next one in its shuffled order.

>>> game = SantaCruz(players=2)
>>> state = game.new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> state.step, state.current_player(), state.action_to_string(state.legal_actions()[0])
('choose', 0, 'choose set A (River)')
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...errors import IllegalActionError, SolversError
from ...game import CHANCE, TERMINAL, Game, State
from ...rng import SplitMix64, seed_from
from .data import BUILDINGS, CARD_KINDS, SITE_KINDS, SantaCruzIsland, load_island

STEPS = ("layout", "deal", "choose", "draw", "discard", "land", "play", "build", "bird", "over")
BUILD_KINDS = ("ship", "road", "river")
HIDDEN = -2  # action_observation of something the observer does not see (GAME_HIDDEN in C)
CHANCE_STEPS = ("layout", "deal", "draw", "bird")


class SantaCruz(Game):
    """Santa Cruz with its options fixed (see :func:`solvers.load_game`).

    >>> SantaCruz(players=3).num_distinct_actions()
    164
    """

    name = "santacruz"
    reference = True

    def __init__(self, players: int = 2, board: SantaCruzIsland | str | None = None):
        # ``board``: an island file (docs/rules/santa-cruz.md) or a loaded island
        self.island = board if isinstance(board, SantaCruzIsland) else load_island(board)
        if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
            raise SolversError(f"Santa Cruz is for 2, 3 or 4 players, not {players!r}")
        isl = self.island
        self.num_players = players
        self.num_sites = isl.num_sites
        self.num_sets = len(isl.building_sets)
        self.num_cards = len(isl.scoring_cards)
        self.num_tiles = len(isl.tiles)
        self.dealt_each = isl.scoring_dealt[players]
        s = self.num_sites
        self.SET = s
        self.PLAY_SHIP = s + self.num_sets
        self.PLAY_ROAD = self.PLAY_SHIP + 1
        self.PLAY_RIVER = self.PLAY_SHIP + 2
        self.PLAY_DOUBLE = self.PLAY_SHIP + 3
        self.PLAY_SCORE = self.PLAY_SHIP + 6
        self.DISCARD = self.PLAY_SCORE + self.num_cards
        self.TILE = self.DISCARD + self.num_cards
        self.CARD = self.TILE + self.num_tiles
        self.BIRD = self.CARD + self.num_cards
        self.coast = isl.mask_of("coast")
        self.volcano = isl.mask_of("volcano")
        self.on_river = isl.mask_of("river")
        # round one: seat 0 chooses first, then counterclockwise
        self.first_choice_order = [0] + list(range(players - 1, 0, -1))

    def num_distinct_actions(self) -> int:
        return self.BIRD + 3

    def new_initial_state(self, seed: int | None = None) -> "SantaCruzState":
        return SantaCruzState(self, seed_from(seed))

    def __repr__(self) -> str:
        return f"SantaCruz(players={self.num_players}, reference=True)"


class SantaCruzState(State):
    """A position of Santa Cruz (reference implementation).

    Public fields (read by views, positions and the kernel tests):
    ``tile_order`` (per site kind, the box's shuffled order; the first
    ``tile_pos[kind]`` are laid), ``site_tile`` (site -> tile id, -1 before the
    layout reaches it), ``face_up`` (site mask), ``occupants`` (site -> seats,
    in arrival order), ``supply`` (seat -> building -> left), ``deck`` and
    ``deck_pos`` (scoring cards), ``bag`` and ``bag_pos`` (bird values),
    ``birds`` (seat -> values drawn), ``hand_build`` (seat -> kind -> count),
    ``hand_score`` (seat -> set of card ids), ``played_build`` and
    ``played_score`` (this round), ``set_of`` (seat -> set index),
    ``set_scoring`` (set -> scoring cards played with it in round one),
    ``score``, ``arrival`` and ``clock`` (the track), ``round``, ``start``
    (first seat of the round), ``privilege_used``, ``step``, ``player``,
    ``order`` and ``order_pos`` (choosing / discarding / landing order),
    ``drawn`` and ``discarded`` (round two), ``build_kind``, ``builds_left``,
    ``double``; ``seed`` and ``history`` replay the game (:mod:`.position`).
    """

    def __init__(self, game: SantaCruz, seed: int):
        self.game: SantaCruz = game
        self.seed: int | None = seed
        isl = game.island
        n = game.num_players
        rng = SplitMix64(seed)
        self.tile_order: dict[str, list[int]] = {}
        for kind in SITE_KINDS:
            order = isl.tiles_of(kind)
            rng.shuffle(order)
            self.tile_order[kind] = order
        self.tile_pos = {kind: 0 for kind in SITE_KINDS}
        self.deck = list(range(game.num_cards))
        rng.shuffle(self.deck)
        self.deck_pos = 0
        self.bag = [v for v in (1, 2, 3) for _ in range(isl.bird_tokens[v])]
        rng.shuffle(self.bag)
        self.bag_pos = 0
        self.site_tile = [-1] * game.num_sites
        self.face_up = 0
        self.occupants: list[list[int]] = [[] for _ in range(game.num_sites)]
        self.supply = [dict(isl.supply) for _ in range(n)]
        self.birds: list[list[int]] = [[] for _ in range(n)]
        self.hand_build = [dict.fromkeys(("ship", "road", "river", "double"), 0) for _ in range(n)]
        self.hand_score: list[set[int]] = [set() for _ in range(n)]
        self.played_build: list[list[str]] = [[] for _ in range(n)]
        self.played_score: list[list[int]] = [[] for _ in range(n)]
        self.set_of = [-1] * n
        self.set_scoring: dict[int, list[int]] = {}
        self.score = [0] * n
        self.arrival = [0] * n
        self.clock = 0
        self.round = 1
        self.start = 0
        self.privilege_used = False
        self.step = "layout"
        self.player = 0
        self.order: list[int] = []
        self.order_pos = 0
        self.drawn = [-1] * n
        self.discarded = [-1] * n
        self.build_kind = ""
        self.builds_left = 0
        self.double = False
        self.history: list[int] = []
        self._layout_next()

    # ----- the State interface -------------------------------------------
    def current_player(self) -> int:
        if self.step in CHANCE_STEPS:
            return CHANCE
        if self.step == "over":
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.step == "over"

    def _chance_pile(self) -> tuple[list[int], int, int]:
        """The shuffled pile the next chance outcome comes from, its position
        and the action base."""
        g = self.game
        if self.step == "layout":
            kind = g.island.sites[self.layout_site()].kind
            return self.tile_order[kind], self.tile_pos[kind], g.TILE
        if self.step in ("deal", "draw"):
            return self.deck, self.deck_pos, g.CARD
        return self.bag, self.bag_pos, g.BIRD - 1

    def layout_site(self) -> int:
        """The site the next tile of the layout goes to."""
        return sum(self.tile_pos.values())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        pile, pos, base = self._chance_pile()
        rest = pile[pos:]
        counts: dict[int, int] = {}
        for item in rest:
            counts[item] = counts.get(item, 0) + 1
        return [(base + item, c / len(rest)) for item, c in sorted(counts.items())]

    def seeded_outcome(self) -> int:
        if not self.is_chance_node():
            raise SolversError("not a chance node")
        pile, pos, base = self._chance_pile()
        return base + pile[pos]

    def legal_actions(self) -> list[int]:
        g = self.game
        step = self.step
        if step in CHANCE_STEPS:
            return [a for a, _ in self.chance_outcomes()]
        if step == "choose":
            return [g.SET + k for k in self.free_sets()]
        if step == "discard":
            return [g.DISCARD + c for c in sorted(scoring_cards_held(self, self.player))]
        if step == "land":
            return _bits(self.targets("ship"))
        if step == "build":
            return _bits(self.targets(self.build_kind))
        if step == "play":
            hand = self.hand_build[self.player]
            actions = [g.PLAY_SHIP + i for i, k in enumerate(BUILD_KINDS) if hand[k]]
            if hand["double"]:
                actions += [g.PLAY_DOUBLE + i for i in range(3)]
            return actions + [g.PLAY_SCORE + c for c in sorted(self.hand_score[self.player])]
        return []

    def apply_action(self, action: int) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        g = self.game
        step = self.step
        if step in CHANCE_STEPS:
            pile, pos, base = self._chance_pile()
            item = action - base
            i = pile.index(item, pos)
            pile[pos], pile[i] = pile[i], pile[pos]
            if step == "layout":
                self._lay(item)
            elif step == "deal":
                self._deal(item)
            elif step == "draw":
                self._draw(item)
            else:
                self._bird(item)
        elif step == "choose":
            self._choose(action - g.SET)
        elif step == "discard":
            self._discard(action - g.DISCARD)
        elif step in ("land", "build"):
            self._build(action)
        else:
            self._play(action)

    # ----- setup ---------------------------------------------------------
    def _layout_next(self) -> None:
        if self.layout_site() == self.game.num_sites:
            self.step = "deal"

    def _lay(self, tile: int) -> None:
        site = self.layout_site()
        kind = self.game.island.sites[site].kind
        self.tile_pos[kind] += 1
        self.site_tile[site] = tile
        if kind == "coast":
            self.face_up |= 1 << site
        self._layout_next()

    def _deal(self, card: int) -> None:
        g = self.game
        self.hand_score[self.deck_pos % g.num_players].add(card)
        self.deck_pos += 1
        if self.deck_pos == g.num_players * g.dealt_each:
            self.order = list(g.first_choice_order)
            self.order_pos = 0
            self._next_chooser()

    def free_sets(self) -> list[int]:
        """The building sets still to be taken: round one all the unchosen
        sets, round two the sets used in round one."""
        taken = {k for k in self.set_of if k >= 0}
        return [k for k in sets_in_play(self) if k not in taken]

    def _next_chooser(self) -> None:
        if self.order_pos == len(self.order):
            self._sets_chosen()
            return
        self.step = "choose"
        self.player = self.order[self.order_pos]
        free = self.free_sets()
        if len(free) == 1:           # the leader takes the last set
            self._choose(free[0])

    def _choose(self, k: int) -> None:
        p = self.player
        self.set_of[p] = k
        self.hand_build[p] = dict(self.game.island.building_sets[k].cards)
        for kind in ("ship", "road", "river", "double"):
            self.hand_build[p].setdefault(kind, 0)
        if self.round == 2:
            self.hand_score[p] = set(self.set_scoring[k])
        self.order_pos += 1
        self._next_chooser()

    def _sets_chosen(self) -> None:
        n = self.game.num_players
        if self.round == 1:
            self.start = self.order[-1]
            for i in range(n):
                seat = (self.start + i) % n
                self.score[seat] = i
                self.arrival[seat] = self.clock
                self.clock += 1
            self._start_landing()
        else:
            self.order_pos = 0
            self.step = "discard"
            self.player = self.order[0]

    def _discard(self, card: int) -> None:
        p = self.player
        self.hand_score[p].add(self.drawn[p])
        self.hand_score[p].discard(card)
        self.discarded[p] = card
        self.order_pos += 1
        if self.order_pos < len(self.order):
            self.player = self.order[self.order_pos]
        else:
            self.start = self.order[0]
            self._start_landing()

    def _start_landing(self) -> None:
        n = self.game.num_players
        self.order = [(self.start + i) % n for i in range(n)]
        self.order_pos = 0
        self.privilege_used = False
        self.step = "land"
        self.player = self.start
        self._settle_land()

    def _settle_land(self) -> None:
        """Skip players who cannot land (no free coastal site they can fill)."""
        while self.step == "land" and not self.targets("ship"):
            self._next_lander()

    def _next_lander(self) -> None:
        self.order_pos += 1
        if self.order_pos < len(self.order):
            self.player = self.order[self.order_pos]
        else:
            self.step = "play"
            self.player = self.start

    # ----- where a card may build ----------------------------------------
    def last_seat(self) -> int:
        """The last player in this round's turn order (the sharing privilege)."""
        return (self.start - 1) % self.game.num_players

    def own_sites(self, p: int) -> int:
        return sum(1 << s for s, occ in enumerate(self.occupants) if p in occ)

    def targets(self, kind: str) -> int:
        """The sites the player to move may build on with a ``kind`` build
        (``ship`` also for landing), as a mask: docs/rules/santa-cruz.md#where-a-card-may-build
        and #sharing."""
        g, isl, p = self.game, self.game.island, self.player
        mine = self.own_sites(p)
        if kind == "ship":
            reach = g.coast
        elif kind == "road":
            reach = 0
            for s in _bits(mine):
                reach |= isl.road_masks[s]
        else:
            reach = 0
            for m in isl.river_sites:
                if m & mine:
                    reach |= m
        share = p == self.last_seat() and not self.privilege_used
        out = 0
        for s in _bits(reach & ~mine):
            occ = self.occupants[s]
            if occ and not (share and len(occ) == 1):
                continue
            if self.face_up >> s & 1:
                if self.supply[p][isl.tiles[self.site_tile[s]].building] == 0:
                    continue
            elif kind != "river":
                continue
            out |= 1 << s
        return out

    # ----- playing cards -------------------------------------------------
    def _play(self, action: int) -> None:
        g, p = self.game, self.player
        if action >= g.PLAY_SCORE:
            card = action - g.PLAY_SCORE
            self.hand_score[p].remove(card)
            self.played_score[p].append(card)
            self._score_card(card)
            self._end_turn()
            return
        if action >= g.PLAY_DOUBLE:
            self.hand_build[p]["double"] -= 1
            self.played_build[p].append("double")
            self.build_kind = BUILD_KINDS[action - g.PLAY_DOUBLE]
            self.builds_left = 2
            self.double = True
        else:
            kind = BUILD_KINDS[action - g.PLAY_SHIP]
            self.hand_build[p][kind] -= 1
            self.played_build[p].append(kind)
            self.build_kind = kind
            self.builds_left = 1
            self.double = False
        self._next_build()

    def _next_build(self) -> None:
        """Start the card's next build, or end the card when none is left or
        nothing can be reached."""
        if self.builds_left and self.targets(self.build_kind):
            self.step = "build"
            return
        self._end_turn()

    def _build(self, site: int) -> None:
        """Land or build on ``site`` (docs/rules/santa-cruz.md#a-failed-build
        for a face-down river tile asking for a building the player lacks)."""
        isl, p = self.game.island, self.player
        landing = self.step == "land"
        was_down = not self.face_up >> site & 1
        self.face_up |= 1 << site
        tile = isl.tiles[self.site_tile[site]]
        if not landing:
            self.builds_left -= 1
        if was_down and self.supply[p][tile.building] == 0:
            # a face-down river tile asking for a building the player lacks
            if self.build_kind == "river":
                self._next_build()       # the two-river exception
            else:
                self.builds_left = 0
                self._end_turn()
            return
        if self.occupants[site]:
            self.privilege_used = True
        self.occupants[site].append(p)
        self.supply[p][tile.building] -= 1
        self._move(p, tile.points)
        self.face_up |= isl.road_masks[site] | isl.river_masks[site]
        if tile.bird and self.bag_pos < len(self.bag):
            self.step = "bird"      # resumed by _bird; build_kind is "" when landing
            return
        self._after_build(landing)

    def _bird(self, value: int) -> None:
        self.birds[self.player].append(value)
        self.bag_pos += 1
        self._after_build(self.build_kind == "")

    def _after_build(self, landing: bool) -> None:
        if landing:
            self.step = "land"
            self._next_lander()
            self._settle_land()
        else:
            self._next_build()

    def _end_turn(self) -> None:
        g = self.game
        self.builds_left = 0
        self.build_kind = ""
        self.double = False
        if self.player == self.last_seat() and not self.hand_score[self.player] \
                and not any(self.hand_build[self.player].values()):
            self._end_round()
            return
        self.step = "play"
        self.player = (self.player + 1) % g.num_players

    # ----- scoring -------------------------------------------------------
    def _move(self, p: int, points: int) -> None:
        """Move seat ``p``'s marker; it goes behind markers already there
        (docs/rules/santa-cruz.md#the-track)."""
        if points == 0:
            return
        self.score[p] = max(0, self.score[p] + points)
        self.arrival[p] = self.clock
        self.clock += 1

    def card_points(self, card: int, p: int) -> int:
        """What scoring card ``card`` pays seat ``p`` now (negative for the
        eruption): docs/rules/santa-cruz.md#scoring-cards."""
        isl = self.game.island
        c = isl.scoring_cards[card]
        mine = self.own_sites(p)
        tiles = [isl.tiles[self.site_tile[s]] for s in _bits(mine)]
        if c.kind == "houses":
            return c.points if sum(t.building == "house" for t in tiles) >= c.need else 0
        if c.kind == "variety":
            return c.points if {t.building for t in tiles} >= set(BUILDINGS) else 0
        if c.kind == "street":
            return c.points if largest_group(isl.road_masks, mine) >= c.need else 0
        if c.kind == "per_building":
            where = {"coast": self.game.coast, "river": self.game.on_river,
                     "volcano": self.game.volcano}[c.where]
            return c.points * bin(mine & where).count("1")
        if c.kind == "birds":
            return c.points * len(self.birds[p])
        if c.kind == "eruption":
            return -c.points * bin(mine & self.game.volcano).count("1")
        held = {t.resource for t in tiles}
        have = sum(r in held for r in c.resources)
        points = c.points if have == len(c.resources) else (c.one if have else 0)
        if "fish" in c.resources:
            points += sum(t.fish_bonus for t in tiles if t.resource == "fish")
        return points

    def _score_card(self, card: int) -> None:
        g = self.game
        n = g.num_players
        for i in range(n):
            q = (self.player + i) % n
            self._move(q, self.card_points(card, q))
        if g.island.scoring_cards[card].kind == "eruption":
            for s in _bits(g.volcano):
                self.occupants[s] = []

    # ----- rounds ----------------------------------------------------------
    def ranking(self) -> list[int]:
        """Seats from the front of the track to the back."""
        return sorted(range(self.game.num_players), key=lambda q: (-self.score[q], self.arrival[q]))

    def _end_round(self) -> None:
        """Round two's setup (docs/rules/santa-cruz.md#round-two), or the
        final bird scoring (#end)."""
        g, n = self.game, self.game.num_players
        if self.round == 2:
            for i in range(n):
                q = (self.last_seat() + i) % n
                self._move(q, sum(self.birds[q]))
            self.step = "over"
            return
        for p in range(n):
            self.set_scoring[self.set_of[p]] = list(self.played_score[p])
        self.round = 2
        self.occupants = [[] for _ in range(g.num_sites)]
        self.supply = [dict(g.island.supply) for _ in range(n)]
        self.played_build = [[] for _ in range(n)]
        self.played_score = [[] for _ in range(n)]
        self.set_of = [-1] * n
        self.order = self.ranking()[::-1]
        self.order_pos = 0
        self.step = "draw"
        self.player = 0

    def _draw(self, card: int) -> None:
        self.drawn[self.player] = card
        self.deck_pos += 1
        if self.player + 1 < self.game.num_players:
            self.player += 1
        else:
            self._next_chooser()

    def scores(self) -> list[int]:
        return list(self.score)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        winner = self.ranking()[0]
        return [1.0 if q == winner else 0.0 for q in range(self.game.num_players)]

    def clone(self) -> "SantaCruzState":
        other = object.__new__(SantaCruzState)
        for key, value in self.__dict__.items():
            if isinstance(value, list):
                value = [list(v) if isinstance(v, list) else set(v) if isinstance(v, set)
                         else dict(v) if isinstance(v, dict) else v for v in value]
            elif isinstance(value, dict):
                value = {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
            setattr(other, key, value)
        return other

    # ----- hidden information --------------------------------------------
    def resample(self, player: int, seed: int | SplitMix64) -> "SantaCruzState":
        """A copy in which everything ``player`` cannot see is dealt afresh:
        face-down and unlaid tiles (per kind), the other players' bird-token
        values and the bag, the other players' scoring cards, round-two draws
        and discards, and the scoring pile. Each hidden pool is gathered in
        ascending order (so nothing hidden leaks into the result), shuffled
        with ``SplitMix64(seed)`` (or the generator ``seed`` itself) and dealt
        back with every size kept (docs/rules/santa-cruz.md#hidden-information)."""
        check_player(self.game, player)
        rng = seed if isinstance(seed, SplitMix64) else SplitMix64(seed_from(seed))
        return redeal(self, player, rng)

    def action_observation(self, action: int, player: int) -> int:
        """What ``player`` sees of ``action``: the action itself or ``HIDDEN``."""
        return observe(self, action, player)

    def information_state(self, player: int) -> dict[str, Any]:
        return information_view(self, player)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def __str__(self) -> str:
        return render(self)


# ----- helpers shared with the kernel wrapper --------------------------------
def sets_in_play(state: Any) -> list[int]:
    """The building sets in play this round (taken or not): round one every
    set, round two the sets used in round one (``docs/rules/santa-cruz.md``,
    Round two)."""
    return list(range(state.game.num_sets)) if state.round == 1 else sorted(state.set_scoring)


def scoring_cards_held(state: Any, seat: int) -> list[int]:
    """The scoring cards ``seat`` holds: its hand in ascending order, then,
    in round two between the draw and the discard, the card it drew (held
    apart until it discards one of them)."""
    held = sorted(state.hand_score[seat])
    drawn = state.drawn[seat]
    if drawn >= 0 and state.discarded[seat] < 0 and drawn not in held:
        held.append(drawn)
    return held


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def largest_group(road_masks: tuple[int, ...] | list[int], sites: int) -> int:
    """The most sites of ``sites`` joined to each other by roads through sites
    of ``sites``.

    >>> largest_group([0b10, 0b101, 0b10, 0], 0b1111)
    3
    """
    best = 0
    left = sites
    while left:
        seed = left & -left
        group = seed
        frontier = seed
        while frontier:
            grow = 0
            for s in _bits(frontier):
                grow |= road_masks[s]
            frontier = grow & sites & ~group
            group |= frontier
        left &= ~group
        best = max(best, bin(group).count("1"))
    return best


def check_player(game: Any, player: int) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < game.num_players:
        raise SolversError(f"no player {player!r} in a {game.num_players}-player game")


def redeal(state: Any, player: int, rng: SplitMix64) -> Any:
    """:meth:`SantaCruzState.resample` on a clone (reference fields)."""
    g = state.game
    isl = g.island
    n = g.num_players
    other = state.clone()
    # tiles: per kind, the face-down laid tiles and the box
    for kind in SITE_KINDS:
        down = [s for s in isl.sites_of(kind) if other.site_tile[s] >= 0 and not other.face_up >> s & 1]
        pos = other.tile_pos[kind]
        pool = sorted([other.site_tile[s] for s in down] + other.tile_order[kind][pos:])
        rng.shuffle(pool)
        for i, s in enumerate(down):
            other.site_tile[s] = pool[i]
        other.tile_order[kind][pos:] = pool[len(down):]
        # keep the laid prefix of the order consistent with the sites
        other.tile_order[kind][:pos] = [other.site_tile[s] for s in isl.sites_of(kind)[:pos]]
    # bird tokens
    pool = sorted([v for q in range(n) if q != player for v in other.birds[q]] + other.bag[other.bag_pos:])
    rng.shuffle(pool)
    k = 0
    for q in range(n):
        if q != player:
            m = len(other.birds[q])
            other.birds[q] = pool[k:k + m]
            k += m
    other.bag[other.bag_pos:] = pool[k:]
    # scoring cards
    if other.round == 1:
        pool = [c for q in range(n) if q != player for c in other.hand_score[q]]
    else:
        # a drawn card is public once played (it is not one of the set's cards)
        secret = [q for q in range(n) if q != player and other.drawn[q] >= 0
                  and other.drawn[q] not in other.played_score[q]]
        pool = [other.drawn[q] for q in secret]
    pool = sorted(pool + other.deck[other.deck_pos:])
    rng.shuffle(pool)
    k = 0
    for q in range(n):
        if q == player:
            continue
        if other.round == 1:
            m = len(other.hand_score[q])
            other.hand_score[q] = set(pool[k:k + m])
            k += m
        else:
            if q in secret:
                other.drawn[q] = pool[k]
                k += 1
            if other.discarded[q] >= 0:
                played = set(other.played_score[q])
                options = sorted((set(other.set_scoring[other.set_of[q]]) | {other.drawn[q]}) - played)
                out = options[rng.below(len(options))]
                other.discarded[q] = out
                other.hand_score[q] = set(options) - {out}
    other.deck[other.deck_pos:] = pool[k:]
    # The dealt parts of the pile and the bag record who got what (and, once
    # the hidden cards and tokens are re-dealt, no longer match them):
    # rewritten as what is off the pile and out of the bag, ascending, they
    # tell nothing (the kernel does the same).
    other.deck[:other.deck_pos] = sorted(set(range(g.num_cards)) - set(other.deck[other.deck_pos:]))
    left = Counter(other.bag[other.bag_pos:])
    drawn = Counter(state.bag) - left
    other.bag[:other.bag_pos] = sorted(drawn.elements())
    return other


def observe(state: Any, action: int, player: int) -> int:
    """What ``player`` sees of ``action`` in ``state`` (reference or kernel)."""
    g = state.game
    step = state.step
    if step == "layout":
        kind = g.island.sites[state.layout_site()].kind
        return action if kind == "coast" else HIDDEN
    if step == "deal":
        return action if state.deck_pos % g.num_players == player else HIDDEN
    if step in ("draw", "bird", "discard"):
        return action if state.player == player else HIDDEN
    if step == "play" and g.PLAY_DOUBLE <= action < g.PLAY_SCORE \
            and not state.targets(BUILD_KINDS[action - g.PLAY_DOUBLE]):
        # a double move with nothing to build ends at once: every such kind
        # leaves the same position, so all see it as the first of them
        return g.PLAY_DOUBLE + next(k for k, kind in enumerate(BUILD_KINDS) if not state.targets(kind))
    return action


def describe_hidden(state: Any, action: int, viewer: int, seen: int) -> str:
    """The public part of ``action`` for ``viewer``, who does not see it
    whole (``seen`` is its :func:`observe`): a tile laid face down, a
    scoring card dealt, drawn or discarded face down, a bird token drawn."""
    g = state.game
    if seen >= 0:  # an action with the same effect as ``action``
        return describe_action(state, seen)
    if state.step == "layout":
        return f"lay a tile face down on site {state.layout_site()}"
    if state.step == "deal":
        return f"deal a scoring card to player {state.deck_pos % g.num_players}"
    if state.step == "draw":
        return f"player {state.player} draws a scoring card"
    if state.step == "bird":
        return f"player {state.player} draws a bird token"
    if state.step == "discard":
        return f"player {state.player} discards a scoring card face down"
    return f"player {state.player} makes a hidden move"


def information_view(state: Any, player: int) -> dict[str, Any]:
    """The information state of ``player`` from the public fields of a state
    (reference or kernel)."""
    g = state.game
    check_player(g, player)
    n = g.num_players
    isl = g.island
    up = state.face_up
    return {
        "game": "santacruz",
        "players": n,
        "player": player,
        "to_move": state.current_player(),
        "turn_of": state.player,
        "step": state.step,
        "round": state.round,
        "start": state.start,
        "sites_laid": sum(1 for t in state.site_tile if t >= 0),
        "tiles": {str(s): state.site_tile[s] for s in range(g.num_sites) if up >> s & 1},
        "buildings": {str(s): list(o) for s, o in enumerate(state.occupants) if o},
        "supply": [dict(s) for s in state.supply],
        "score": list(state.score),
        "track": state.ranking(),
        "birds": sorted(state.birds[player]),
        "bird_counts": [len(b) for b in state.birds],
        "bag": len(state.bag) - state.bag_pos,
        "pile": len(state.deck) - state.deck_pos,
        "sets": list(state.set_of),
        "set_scoring": {str(k): sorted(v) for k, v in sorted(state.set_scoring.items())},
        "hand_build": [dict(h) for h in state.hand_build],
        "hand": sorted(state.hand_score[player]),
        "hand_sizes": [len(h) for h in state.hand_score],
        "played_build": [sorted(b, key=CARD_KINDS.index) for b in state.played_build],
        "played_score": [sorted(c) for c in state.played_score],
        "drawn": state.drawn[player],
        "has_drawn": [d >= 0 for d in state.drawn],
        "discarded": state.discarded[player],
        "has_discarded": [d >= 0 for d in state.discarded],
        "order": list(state.order),
        "order_pos": state.order_pos,
        "privilege_used": state.privilege_used,
        "build": [state.build_kind, state.builds_left, state.double],
        "island": isl.source,
    }


def describe_action(state: Any, action: int) -> str:
    """The words for ``action`` in ``state`` (reference or kernel)."""
    g = state.game
    isl = g.island
    if action >= g.BIRD:
        return f"player {state.player} draws a bird token worth {action - g.BIRD + 1}"
    if action >= g.CARD:
        card = isl.scoring_cards[action - g.CARD].name
        if state.step == "deal":
            return f"deal {card} to player {state.deck_pos % g.num_players}"
        return f"player {state.player} draws {card}"
    if action >= g.TILE:
        return f"lay {isl.tiles[action - g.TILE].describe()} on site {state.layout_site()}"
    if action >= g.DISCARD:
        return f"discard {isl.scoring_cards[action - g.DISCARD].name}"
    if action >= g.PLAY_SCORE:
        return f"score {isl.scoring_cards[action - g.PLAY_SCORE].name}"
    if action >= g.PLAY_DOUBLE:
        return f"play double {BUILD_KINDS[action - g.PLAY_DOUBLE]}"
    if action >= g.PLAY_SHIP:
        return f"play {BUILD_KINDS[action - g.PLAY_SHIP]}"
    if action >= g.SET:
        b = isl.building_sets[action - g.SET]
        return f"choose set {b.letter} ({b.name})"
    verb = "land on" if state.step == "land" else "build on"
    return f"{verb} site {action}"


def render(state: Any) -> str:
    """The island: a site with buildings shows the seat letters (a-d) and its
    id (``a06``; a shared site ``ab6``), a free face-up site its building's
    initial (``H07``, ``C15``, ``L04``), a face-down one ``?``; then the track."""
    from .data import draw_island

    g = state.game
    isl = g.island
    labels = {}
    for s in range(g.num_sites):
        occ = state.occupants[s]
        if occ:
            owners = "".join("abcd"[q] for q in occ)
            labels[s] = owners + (f"{s:02d}" if len(owners) == 1 else str(s % 10))
        elif state.face_up >> s & 1:
            labels[s] = isl.tiles[state.site_tile[s]].building[0].upper() + f"{s:02d}"
        elif state.site_tile[s] >= 0:
            labels[s] = f"?{s:02d}"
    track = ", ".join(f"{'abcd'[q]} {state.score[q]}" for q in state.ranking())
    return (draw_island(isl, labels) + f"\nround {state.round}, step {state.step}, "
            f"to move {state.current_player()}, track (front first): {track}")
