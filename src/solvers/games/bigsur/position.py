"""A Big Sur position as a person at the table sees it, as JSON, for
``solve bigsur analyse``.

The file describes the table at the start of a player's turn (or after they
took their two cards), from that player's seat::

    {
      "players": 2,
      "to_move": 0,
      "taken": 0,
      "highways": [[12, {"card": 5, "landmark": "McWay Falls"}], [40, 41]],
      "hand": [3, 7],
      "hand_sizes": [2, 4],
      "piles": [{"size": 3, "top": 17}, {"size": 0}],
      "depot": [1, 2, 8, 9, 30],
      "row": ["Bixby Creek Bridge", "Nepenthe", "Hearst Castle", "Point Lobos", "Kirk Creek"],
      "seed": 0
    }

``highways`` use the entries of a highway file (:mod:`.highway`: card
numbers, Landmarks by name or number, ``"stretch"`` optional); ``hand`` is
the hand of the player to move and ``hand_sizes`` every player's hand size;
``piles`` gives each discard pile's size and top card; ``depot`` and ``row``
are the face-up cards; ``taken`` (0, 1 or 2; default 0) says how many cards
the player to move has taken this turn. Everything the player cannot see
(the other hands, the piles below their tops, the Highway deck and the
Landmark deck) is dealt at random from the cards not on the table, with
``SplitMix64(seed)`` (``seed`` defaults to 0); the search re-deals it anyway.

>>> state = parse_position(reference=True, raw={"players": 2, "to_move": 1, "highways": [[], []],
...     "hand": [3, 7], "hand_sizes": [2, 2], "piles": [{"size": 0}, {"size": 0}],
...     "depot": [1, 2, 8, 9, 30], "row": [1, 2, 3, 4, 5]})
>>> state.current_player(), state.step, len(state.order) - state.pos
(1, 'take', 28)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...data import read_json
from ...errors import SolversError
from ...rng import SplitMix64
from .data import DEPOT_SIZE, LANDMARK_ROW, CardSet, load_cards
from .highway import parse_highway
from .reference import BigSur, BigSurState

KEYS = {"game", "players", "to_move", "taken", "highways", "hand", "hand_sizes", "piles", "depot", "row",
        "seed", "about"}


def _fail(source: str, what: str) -> SolversError:
    return SolversError(f"position {source}: {what}")


def _int(raw: dict[str, Any], key: str, low: int, high: int, source: str, default: Any = None) -> int:
    value = raw.get(key, default)
    if value is None:
        raise _fail(source, f"missing key {key!r}")
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(source, f"{key!r} should be a whole number from {low} to {high}")
    return value


def _list(raw: dict[str, Any], key: str, source: str, length: int | None = None) -> list[Any]:
    value = raw.get(key)
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length}"
        raise _fail(source, f"{key!r} should be a list{size}")
    return value


def parse_position(raw: Any, reference: bool = False, cards: CardSet | str | None = None,
                   source: str = "<input>") -> Any:
    """Check a decoded position and build the state (the kernel's unless
    ``reference``)."""
    cards = load_cards(cards)
    if not isinstance(raw, dict):
        raise _fail(source, "the top level should be a JSON object")
    if raw.get("game", "bigsur") != "bigsur":
        raise _fail(source, f"this is a position of {raw['game']!r}, not of 'bigsur'")
    extra = sorted(set(raw) - KEYS)
    if extra:
        raise _fail(source, f"unknown key {extra[0]!r}")
    players = _int(raw, "players", 2, 4, source)
    game = BigSur(players, cards)
    to_move = _int(raw, "to_move", 0, players - 1, source)
    taken = _int(raw, "taken", 0, 2, source, default=0)
    seed = _int(raw, "seed", 0, 2**63, source, default=0)
    deck = set(game.deck)
    seen: dict[int, str] = {}

    def claim_card(c: Any, where: str) -> int:
        if isinstance(c, bool) or not isinstance(c, int):
            raise _fail(source, f"{where}: a card is a number")
        try:
            cards.card(c)
        except SolversError as e:
            raise _fail(source, f"{where}: {e}") from None
        if c not in deck:
            raise _fail(source, f"{where}: card {c} is not used with {players} players")
        if c in seen:
            raise _fail(source, f"{where}: card {c} is already in {seen[c]}")
        seen[c] = where
        return c

    state = game.new_initial_state(seed=seed)
    highways_raw = _list(raw, "highways", source, players)
    landmarks_used: dict[int, str] = {}
    for q, entries in enumerate(highways_raw):
        where = f"the highway of player {q}"
        if not isinstance(entries, list):
            raise _fail(source, f"{where} should be a list")
        if not entries:
            continue
        spots = parse_highway({"highway": entries}, cards, f"{source} ({where})")
        if len(spots) > game.max_highway:
            raise _fail(source, f"{where} holds more cards than a player can build")
        for spot in spots:
            if spot.card.number == 0:
                raise _fail(source, f"{where}: give cards by number, not described inline")
            claim_card(spot.card.number, where)
            state.highways[q].append(spot.card.number)
            if spot.landmark is not None:
                if spot.landmark.number == 0:
                    raise _fail(source, f"{where}: give Landmarks by name or number")
                if spot.landmark.number in landmarks_used:
                    raise _fail(source, f"{where}: {spot.landmark.name} is already in "
                                        f"{landmarks_used[spot.landmark.number]}")
                landmarks_used[spot.landmark.number] = where
                state.marks[q][spot.card.number] = (spot.landmark.number, spot.claimed)
    hand = [claim_card(c, "the hand") for c in _list(raw, "hand", source)]
    sizes = _list(raw, "hand_sizes", source, players)
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in sizes):
        raise _fail(source, "'hand_sizes' should list whole numbers")
    if sizes[to_move] != len(hand):
        raise _fail(source, f"'hand' lists {len(hand)} cards but 'hand_sizes' says {sizes[to_move]}")
    piles = _list(raw, "piles", source, players)
    tops: list[int | None] = []
    for q, pile in enumerate(piles):
        where = f"the discard pile of player {q}"
        if not isinstance(pile, dict) or not set(pile) <= {"size", "top"}:
            raise _fail(source, f"{where} should be {{\"size\": n, \"top\": card}}")
        size = _int(pile, "size", 0, len(deck), source)
        if size and "top" not in pile:
            raise _fail(source, f"{where}: give its top card")
        if not size and pile.get("top") is not None:
            raise _fail(source, f"{where}: an empty pile has no top card")
        tops.append(claim_card(pile["top"], where) if size else None)
    depot = [claim_card(c, "the Depot") for c in _list(raw, "depot", source)]
    if not DEPOT_SIZE - taken <= len(depot) <= DEPOT_SIZE:
        raise _fail(source, f"the Depot should hold {DEPOT_SIZE - taken} to {DEPOT_SIZE} cards")
    row = []
    for l in _list(raw, "row", source):
        try:
            lm = cards.landmark(l)
        except SolversError as e:
            raise _fail(source, f"the Landmark row: {e}") from None
        if lm.number in landmarks_used:
            raise _fail(source, f"the Landmark row: {lm.name} is already in "
                                f"{landmarks_used[lm.number]}")
        landmarks_used[lm.number] = "the Landmark row"
        row.append(lm.number)
    if len(row) > LANDMARK_ROW:
        raise _fail(source, f"the Landmark row holds at most {LANDMARK_ROW} Landmarks")
    # Everything else is hidden from the player to move: deal it.
    hidden = sorted(deck - set(seen))
    needed = sum(sizes[q] for q in range(players) if q != to_move) + sum(
        max(0, p["size"] - 1) for p in piles)
    deck_left = len(hidden) - needed
    if deck_left < 0:
        raise _fail(source, f"the hands and piles need {needed} unseen cards but only "
                            f"{len(hidden)} are left")
    if deck_left == 0 and taken == 0:
        raise _fail(source, "the Highway deck would be empty: the game is over")
    rng = SplitMix64(seed)
    rng.shuffle(hidden)
    k = 0
    state.hands[to_move] = set(hand)
    for q in range(players):
        if q != to_move:
            state.hands[q] = set(hidden[k:k + sizes[q]])
            k += sizes[q]
    for q in range(players):
        below = max(0, piles[q]["size"] - 1)
        top = tops[q]
        state.piles[q] = hidden[k:k + below] + ([top] if top is not None else [])
        k += below
    rest = hidden[k:]
    state.order = _deck_order(state, rest)
    state.pos = len(state.order) - len(rest)
    state.depot = set(depot)
    lhidden = sorted(set(range(1, game.num_landmarks + 1)) - set(landmarks_used))
    rng.shuffle(lhidden)
    state.lorder = [l for l in range(1, game.num_landmarks + 1) if l in landmarks_used] + lhidden
    state.lpos = len(landmarks_used)
    state.row = set(row)
    state.player = to_move
    state.taken = taken
    state.step = "take" if taken < 2 else "build"
    state.history = []
    if reference:
        return state
    from .kernel import BigSurKernel

    return BigSurKernel(players, cards).from_reference(state)


def _deck_order(state: BigSurState, rest: list[int]) -> list[int]:
    """The deck as an order whose face-down part is ``rest`` (top first),
    preceded by every other card of the game (already dealt)."""
    dealt = sorted(set(state.game.deck) - set(rest))
    return dealt + list(rest)


def load_position(path: str | Path, cards: CardSet | str | None = None, reference: bool = False) -> Any:
    """Load and check a position file (the kernel's state by default)."""
    return parse_position(read_json(path, "position"), reference, cards, str(path))


def state_to_position(state: Any) -> dict[str, Any]:
    """The position file of ``state`` seen by the player to move, at the
    start of their turn or after taking cards (nothing built yet)."""
    if state.step not in ("take", "build") or state.used or state.recycled:
        raise SolversError("a position is written at the start of a turn or after taking cards")
    player = state.player
    cards = state.game.cards
    highways = []
    for q, road in enumerate(state.highways):
        entries: list[Any] = []
        for c in road:
            mark = state.marks[q].get(c)
            entries.append(c if mark is None else
                           {"card": c, "landmark": cards.landmark(mark[0]).name, "stretch": mark[1]})
        highways.append(entries)
    return {
        "game": "bigsur", "players": state.game.num_players, "to_move": state.player, "taken": state.taken,
        "highways": highways, "hand": sorted(state.hands[player]),
        "hand_sizes": [len(h) for h in state.hands],
        "piles": [{"size": len(p), "top": p[-1]} if p else {"size": 0} for p in state.piles],
        "depot": sorted(state.depot),
        "row": [cards.landmark(l).name for l in sorted(state.row)],
    }
