"""Switchbacks, the rules as plain Python: the reference implementation.

This module is the documentation of record for the rules. It favours clarity
over speed (a dict for the map, sets for hands); the Cython kernel
``solvers._core.switchbacks`` implements the same rules on 64-bit boards and
random differential tests hold the two equal.

The rules, and every decision where the rulebook is silent, in prose:
``docs/rules/switchbacks.md`` (decisions under
``docs/rules/switchbacks.md#decisions-where-the-rulebook-is-silent``).
Tiles are numbered ``1..37``; hexes are the ids ``0..36`` of
``solvers/data/switchbacks.json`` (hex 18 is the centre; a picture of the
numbering: ``docs/rules/switchbacks.md#the-map-and-the-tiles``). Among the
decisions: ``docs/rules/switchbacks.md#first-player``,
``docs/rules/switchbacks.md#setup-deal-order``,
``docs/rules/switchbacks.md#forced-hike-step``,
``docs/rules/switchbacks.md#complete-path`` and
``docs/rules/switchbacks.md#win-shares``.

How a game unfolds as actions:

* **Setup** (chance, one tile per action, from a deck shuffled with
  ``SplitMix64(seed)``): the first tile is revealed in the centre hex; then
  each player in seat order gets one set-aside tile, as many times as the
  player count asks (twice with 2 players, once with 3 or 4); then each
  player in seat order gets one hand tile, three times round the table.
* **A turn** of the player in seat ``p`` (seat 0 starts):

  1. *explore*: one action ``(tile - 1) * 37 + hex`` puts a tile of the hand
     on an empty hex. (One action rather than two small ones keeps a turn
     short; there are at most 3 x 36 of them.)
  2. *buddy up or hike*: ``BUDDY_UP`` pairs two unplaced solo hikers,
     ``HIKE_SOLO`` puts a solo hiker on the tile just explored,
     ``HIKE_BUDDIES`` puts a waiting buddy pair there. Buddy up needs two
     solo hikers and pairs exactly two; any number of pairs may wait. When
     only one of the three is possible it is played automatically (it is not
     an action of the history); when none is, the step is skipped.
  3. *draw* (chance): while the stack is not empty the player draws one
     tile; only they see it.

  Play passes to the next seat. Once every hand is empty the game is over.
* **Scoring**: a tile is on a complete path when its run of consecutive
  numbers ``v, v+1, ...`` (each tile adjacent to the next) has at least 4
  tiles. Each hiker on such a tile scores 1, a buddy pair 2. ``returns()``
  gives win shares (shared ties split), ``scores()`` the points.

Action ids (``T`` tiles, ``H`` hexes; 37 and 37 on the standard board):

* explore tile ``t`` on hex ``h``: ``(t - 1) * H + h``;
* ``BUDDY_UP = T * H``, ``HIKE_SOLO = T * H + 1``, ``HIKE_BUDDIES = T * H + 2``;
* chance, tile ``t`` is dealt or drawn: ``T * H + 3 + (t - 1)``.

>>> game = Switchbacks(players=2)
>>> state = game.new_initial_state(seed=5)
>>> state.apply_seeded_chance()
>>> state.current_player(), len(state.hands[0]), state.board
(0, 3, {18: 36})
>>> state.action_to_string(state.legal_actions()[0])
'explore 2 on hex 0'
"""

from __future__ import annotations

from typing import Any

from ...errors import IllegalActionError, SolversError
from ...game import CHANCE, TERMINAL, Game, State
from ...rng import SplitMix64, seed_from
from ..common import check_player, win_shares
from .data import SwitchbacksMap, load_map

STEPS = ("deal", "explore", "hike", "draw", "over")
HIDDEN = -2  # action_observation of a tile the observer does not see (GAME_HIDDEN in C)


class Switchbacks(Game):
    """Switchbacks with its options fixed (see :func:`solvers.load_game`).

    >>> Switchbacks(players=3).num_distinct_actions()
    1409
    """

    name = "switchbacks"
    reference = True

    def __init__(self, players: int = 2, map: SwitchbacksMap | str | None = None):
        self.map = map if isinstance(map, SwitchbacksMap) else load_map(map)
        setup = self.map.setup(players)
        self.num_players = players
        self.set_aside_each = setup.set_aside
        self.hikers_each = setup.hikers
        self.num_tiles = self.map.tiles
        self.num_hexes = self.map.num_hexes
        self.hand_size = self.map.hand_size
        p = players
        self.setup_deals = 1 + p * self.set_aside_each + p * self.hand_size
        self.turns_each = (self.num_tiles - 1 - p * self.set_aside_each) // p
        explore = self.num_tiles * self.num_hexes
        self.BUDDY_UP = explore
        self.HIKE_SOLO = explore + 1
        self.HIKE_BUDDIES = explore + 2
        self.DEAL_BASE = explore + 3

    def num_distinct_actions(self) -> int:
        return self.DEAL_BASE + self.num_tiles

    def explore_action(self, tile: int, hex_id: int) -> int:
        """The action id that explores ``tile`` on ``hex_id``."""
        return (tile - 1) * self.num_hexes + hex_id

    def deal_action(self, tile: int) -> int:
        """The chance action id that deals or draws ``tile``."""
        return self.DEAL_BASE + tile - 1

    def deal_destination(self, k: int) -> tuple[str, int]:
        """Where the ``k``-th setup tile goes: ("centre", -1), ("set_aside", seat)
        or ("hand", seat)."""
        p = self.num_players
        if k == 0:
            return ("centre", -1)
        k -= 1
        if k < p * self.set_aside_each:
            return ("set_aside", k % p)
        return ("hand", (k - p * self.set_aside_each) % p)

    def new_initial_state(self, seed: int | None = None) -> "SwitchbacksState":
        return SwitchbacksState(self, seed_from(seed))

    def __repr__(self) -> str:
        return f"Switchbacks(players={self.num_players}, reference=True)"


class SwitchbacksState(State):
    """A position of Switchbacks (reference implementation).

    The fields are plain data that :mod:`.position` reads and writes:
    ``board`` (hex -> tile), ``hikers`` (hex -> (player, 1 or 2)), ``hands``
    and ``set_aside`` (sets of tiles per player), ``solo`` and ``buddies``
    (unplaced solo hikers and waiting pairs per player), ``order`` and ``pos``
    (the deck; ``order[pos:]`` is the stack, top first), ``player``, ``step``
    (one of ``STEPS``) and ``just_explored`` (the hex explored this turn).
    """

    def __init__(self, game: Switchbacks, seed: int):
        self.game: Switchbacks = game
        p = game.num_players
        self.order = list(range(1, game.num_tiles + 1))
        SplitMix64(seed).shuffle(self.order)
        self.pos = 0
        self.board: dict[int, int] = {}
        self.hikers: dict[int, tuple[int, int]] = {}
        self.hands: list[set[int]] = [set() for _ in range(p)]
        self.set_aside: list[set[int]] = [set() for _ in range(p)]
        self.solo = [game.hikers_each] * p
        self.buddies = [0] * p
        self.player = 0
        self.step = "deal"
        self.just_explored: int | None = None
        self.history: list[int] = []

    # ----- the State interface -------------------------------------------
    def current_player(self) -> int:
        if self.step in ("deal", "draw"):
            return CHANCE
        if self.step == "over":
            return TERMINAL
        return self.player

    def is_terminal(self) -> bool:
        return self.step == "over"

    def stack(self) -> list[int]:
        """The tiles still to be drawn, top first."""
        return self.order[self.pos:]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            return []
        rest = sorted(self.stack())
        return [(self.game.deal_action(t), 1.0 / len(rest)) for t in rest]

    def seeded_outcome(self) -> int:
        if not self.is_chance_node():
            raise SolversError("not a chance node")
        return self.game.deal_action(self.order[self.pos])

    def hike_options(self) -> list[int]:
        """What the player may do after exploring, in action order."""
        g, p = self.game, self.player
        options = []
        if self.solo[p] >= 2:
            options.append(g.BUDDY_UP)
        if self.solo[p] >= 1:
            options.append(g.HIKE_SOLO)
        if self.buddies[p] >= 1:
            options.append(g.HIKE_BUDDIES)
        return options

    def legal_actions(self) -> list[int]:
        if self.step in ("deal", "draw"):
            return [a for a, _ in self.chance_outcomes()]
        if self.step == "explore":
            g = self.game
            empty = [h for h in range(g.num_hexes) if h not in self.board]
            return [g.explore_action(t, h) for t in sorted(self.hands[self.player]) for h in empty]
        if self.step == "hike":
            return self.hike_options()
        return []

    def apply_action(self, action: int) -> None:
        if not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        g = self.game
        if self.step in ("deal", "draw"):
            self._deal(action - g.DEAL_BASE + 1)
        elif self.step == "explore":
            tile, hex_id = divmod(action, g.num_hexes)
            self._explore(tile + 1, hex_id)
        else:
            self._hike(action)

    def _deal(self, tile: int) -> None:
        i = self.order.index(tile, self.pos)
        self.order[self.pos], self.order[i] = self.order[i], self.order[self.pos]
        self.pos += 1
        if self.step == "draw":
            self.hands[self.player].add(tile)
            self._end_turn()
            return
        where, seat = self.game.deal_destination(self.pos - 1)
        if where == "centre":
            self.board[self.game.map.centre] = tile
        elif where == "set_aside":
            self.set_aside[seat].add(tile)
        else:
            self.hands[seat].add(tile)
        if self.pos == self.game.setup_deals:
            self.player = self.game.num_players - 1
            self._end_turn()

    def _explore(self, tile: int, hex_id: int) -> None:
        self.hands[self.player].remove(tile)
        self.board[hex_id] = tile
        self.just_explored = hex_id
        self.step = "hike"
        self._settle_hike()

    def _settle_hike(self) -> None:
        """Play a forced hike step at once, skip an impossible one."""
        options = self.hike_options()
        if len(options) == 1:
            self._hike(options[0])
        elif not options:
            self._after_hike()

    def _hike(self, action: int) -> None:
        g, p, here = self.game, self.player, self.just_explored
        if action == g.BUDDY_UP:
            self.solo[p] -= 2
            self.buddies[p] += 1
        elif action == g.HIKE_SOLO:
            self.solo[p] -= 1
            assert here is not None      # a hike follows an explore
            self.hikers[here] = (p, 1)
        else:
            self.buddies[p] -= 1
            assert here is not None
            self.hikers[here] = (p, 2)
        self._after_hike()

    def _after_hike(self) -> None:
        if self.pos < len(self.order):
            self.step = "draw"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Pass to the next seat that still holds tiles; the game ends when none does."""
        self.just_explored = None
        n = self.game.num_players
        for i in range(1, n + 1):
            seat = (self.player + i) % n
            if self.hands[seat]:
                self.player = seat
                self.step = "explore"
                return
        self.step = "over"

    def clone(self) -> "SwitchbacksState":
        other = object.__new__(SwitchbacksState)
        other.game = self.game
        other.order = list(self.order)
        other.pos = self.pos
        other.board = dict(self.board)
        other.hikers = dict(self.hikers)
        other.hands = [set(h) for h in self.hands]
        other.set_aside = [set(s) for s in self.set_aside]
        other.solo = list(self.solo)
        other.buddies = list(self.buddies)
        other.player, other.step, other.just_explored = self.player, self.step, self.just_explored
        other.history = list(self.history)
        return other

    # ----- hidden information --------------------------------------------
    def resample(self, player: int, seed: int | SplitMix64) -> "SwitchbacksState":
        """A copy in which everything ``player`` cannot see is dealt afresh.

        The tiles hidden from ``player`` (the other players' hands and
        set-aside tiles, and the stack) are gathered in ascending order (so
        the result depends only on what ``player`` can see), shuffled with
        ``SplitMix64(seed)`` (or with the generator ``seed`` itself, which
        advances) and dealt back seat by seat (hand, then set-aside), then the
        stack, so every size stays as it was; the dealt part of ``order`` is
        rewritten in ascending order. The kernel's ``determinize`` does
        exactly the same.
        """
        check_player(self.game, player)
        rng = seed if isinstance(seed, SplitMix64) else SplitMix64(seed_from(seed))
        other = self.clone()
        hidden: list[int] = []
        for q in range(self.game.num_players):
            if q != player:
                hidden += list(self.hands[q]) + list(self.set_aside[q])
        hidden += self.stack()
        hidden.sort()      # from a canonical order, so nothing hidden leaks
        rng.shuffle(hidden)
        k = 0
        for q in range(self.game.num_players):
            if q != player:
                n = len(self.hands[q])
                other.hands[q] = set(hidden[k:k + n])
                k += n
                n = len(self.set_aside[q])
                other.set_aside[q] = set(hidden[k:k + n])
                k += n
        other.order[self.pos:] = hidden[k:]
        # The dealt part of the order records who got what: rewritten as
        # the tiles off the stack in ascending order, it tells nothing.
        other.order[:self.pos] = sorted(set(range(1, self.game.num_tiles + 1)) - set(hidden[k:]))
        return other

    def action_observation(self, action: int, player: int) -> int:
        """What ``player`` sees of ``action``: the action itself, or ``HIDDEN``
        for a tile dealt or drawn into another player's hand or set-aside pile."""
        if self.step == "draw" and self.player != player:
            return HIDDEN
        if self.step == "deal":
            seat = self.game.deal_destination(self.pos)[1]
            if seat >= 0 and seat != player:
                return HIDDEN
        return action

    def information_state(self, player: int) -> dict[str, Any]:
        """What ``player`` knows: the map, every hiker, their own hand and
        set-aside tiles, and only the sizes of the rest."""
        return information_view(self, player)

    # ----- scoring -------------------------------------------------------
    def run_length(self, tile: int) -> int:
        """The length of the run of consecutive, adjacent tiles through ``tile``
        (0 when ``tile`` is not on the map)."""
        return len(run_through(self.game.map, self.board, tile))

    def on_complete_path(self, hex_id: int) -> bool:
        """True when the tile on ``hex_id`` lies on a run of 4 or more."""
        tile = self.board.get(hex_id)
        return tile is not None and self.run_length(tile) >= self.game.map.min_run

    def scores(self) -> list[int]:
        points = [0] * self.game.num_players
        for hex_id, (owner, count) in self.hikers.items():
            if self.on_complete_path(hex_id):
                points[owner] += count
        return points

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return win_shares(self.scores())

    # ----- names and views -------------------------------------------------
    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def __str__(self) -> str:
        return render(self)


# ----- helpers shared with the kernel wrapper --------------------------------
def run_through(m: SwitchbacksMap, board: dict[int, int], tile: int) -> list[int]:
    """The run of consecutive tiles on neighbouring hexes through ``tile``,
    in ascending order, given the map ``hex -> tile`` (empty when ``tile``
    is not on the map). A run of ``m.min_run`` or more is a complete path
    (``docs/rules/switchbacks.md#complete-path``).

    >>> from solvers.games.switchbacks.data import load_map
    >>> run_through(load_map(), {18: 5, 19: 6, 20: 7, 0: 8}, 6)
    [5, 6, 7]
    """
    where = {t: h for h, t in board.items()}
    if tile not in where:
        return []
    low = high = tile
    while low - 1 in where and m.adjacent(where[low - 1], where[low]):
        low -= 1
    while high + 1 in where and m.adjacent(where[high], where[high + 1]):
        high += 1
    return list(range(low, high + 1))


def runs(m: SwitchbacksMap, board: dict[int, int]) -> list[list[int]]:
    """Every maximal run of consecutive tiles on neighbouring hexes (a tile
    alone is a run of one), as lists of tiles in ascending order, by their
    lowest tile, given the map ``hex -> tile``.

    >>> from solvers.games.switchbacks.data import load_map
    >>> runs(load_map(), {18: 5, 19: 6, 20: 7, 0: 8, 12: 9})
    [[5, 6, 7], [8], [9]]
    """
    out: list[list[int]] = []
    for tile in sorted(board.values()):
        if not out or tile not in out[-1]:
            out.append(run_through(m, board, tile))
    return out


def information_view(state: Any, player: int) -> dict[str, Any]:
    """The information state of ``player`` from the public fields of a state
    (reference or kernel)."""
    game = state.game
    check_player(game, player)
    return {
        "game": "switchbacks",
        "players": game.num_players,
        "player": player,
        "to_move": state.current_player(),
        "turn_of": state.player,
        "step": state.step,
        "board": {str(h): t for h, t in sorted(state.board.items())},
        "hikers": {str(h): list(v) for h, v in sorted(state.hikers.items())},
        "just_explored": state.just_explored,
        "hand": sorted(state.hands[player]),
        "set_aside": sorted(state.set_aside[player]),
        "hand_sizes": [len(h) for h in state.hands],
        "set_aside_sizes": [len(s) for s in state.set_aside],
        "unplaced": [[s, b] for s, b in zip(state.solo, state.buddies, strict=True)],
        "stack": game.num_tiles - state.pos,
    }


def describe_hidden(state: Any, action: int, viewer: int, seen: int) -> str:
    """The public part of ``action`` for ``viewer``, who does not see it: a
    tile dealt or drawn into another player's hand or set-aside pile."""
    g = state.game
    if state.step == "draw":
        return f"player {state.player} draws a tile"
    where, seat = g.deal_destination(state.pos)
    if where == "set_aside":
        return f"set aside a tile for player {seat}"
    return f"deal a tile to player {seat}"


def describe_action(state: Any, action: int) -> str:
    """The words for ``action`` in ``state`` (reference or kernel)."""
    g = state.game
    if state.is_chance_node():
        tile = action - g.DEAL_BASE + 1
        if state.step == "draw":
            return f"player {state.player} draws {tile}"
        where, seat = g.deal_destination(state.pos)
        if where == "centre":
            return f"reveal {tile} in the centre"
        if where == "set_aside":
            return f"set aside {tile} for player {seat}"
        return f"deal {tile} to player {seat}"
    if action == g.BUDDY_UP:
        return "buddy up"
    if action == g.HIKE_SOLO:
        return "hike solo"
    if action == g.HIKE_BUDDIES:
        return "hike buddies"
    tile, hex_id = divmod(action, g.num_hexes)
    return f"explore {tile + 1} on hex {hex_id}"


def render(state: Any) -> str:
    """The map as rows of hexes: ``12`` a tile, ``12a`` with a solo hiker of
    player 0, ``12A`` with a buddy pair of player 0, ``.`` an empty hex."""
    m = state.game.map
    rows: dict[int, list[tuple[int, int]]] = {}
    for h, (q, r) in enumerate(m.hexes):
        rows.setdefault(r, []).append((q, h))
    lines = []
    for r in sorted(rows):
        cells = []
        for _, h in sorted(rows[r]):
            tile = state.board.get(h)
            text = "." if tile is None else str(tile)
            if h in state.hikers:
                owner, count = state.hikers[h]
                mark = "abcd"[owner]
                text += mark.upper() if count == 2 else mark
            cells.append(f"{text:>4}")
        lines.append("  " * abs(r) + "".join(cells))
    lines.append(
        f"step {state.step}, to move {state.current_player()}, stack {state.game.num_tiles - state.pos}, "
        f"scores {state.scores()}"
    )
    return "\n".join(lines)
