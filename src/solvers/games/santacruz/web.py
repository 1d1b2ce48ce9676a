"""Santa Cruz in the browser (``solve serve``): the island's data and the
score breakdown, for ``board.js`` beside this module.

:func:`board` gives the drawing everything static: each site with its kind,
island and a position (the island file's ``x``/``y``, the layout the
terminal drawing uses: ``x`` in half steps, so a site's six neighbours sit
on a hexagonal grid), the roads, the rivers from source to mouth, every tile
in the box (a face-up tile in a seat's view is a tile id), the building sets,
the scoring cards with a one-line summary, and what every action id means
(``["site", s]``, ``["set", k]``, ``["play", kind]``, ``["double", kind]``,
``["score", c]``, ``["discard", c]`` and the chance moves), so the page never
decodes moves itself.

>>> import solvers
>>> b = board(solvers.load_game("santacruz", players=2))
>>> len(b["sites"]), b["sites"][0]["kind"], len(b["rivers"]), len(b["tiles"])
(49, 'coast', 3, 54)
>>> b["actions"][0], b["actions"][49], b["actions"][53], b["actions"][58], b["actions"][59]
(['site', 0], ['set', 0], ['play', 'ship'], ['double', 'river'], ['score', 0])

:func:`breakdown` splits each seat's final score the way the rulebook moves
the markers: the starting space, the tiles' points of each round's
buildings, each scoring card played (a card scores for every player), and
the bird tokens at the end.

:func:`annotate` gives the drawing what the rules derive about the sets and
the scoring cards: the sets in play this round, how many scoring cards each
seat holds, and the seat's own (the contract of :mod:`solvers.web`).
"""

from __future__ import annotations

import math
from typing import Any

from ...errors import SolversError
from .data import BUILDINGS, SantaCruzIsland, ScoringCard
from .reference import BUILD_KINDS, SantaCruz, SantaCruzState, check_player, scoring_cards_held, sets_in_play

DX = 30.0                 # SVG units per half step of x (neighbours in a row: 60 apart)
DY = DX * math.sqrt(3)    # a row below: neighbours at the same distance (a hexagonal grid)
PAD = 40.0


def _rules(game: Any) -> SantaCruz:
    """The reference rules of a built Santa Cruz game (kernel or reference)."""
    rules = getattr(game, "rules", game)
    if not isinstance(rules, SantaCruz):
        raise SolversError("board() takes a Santa Cruz game (solvers.load_game('santacruz', ...))")
    return rules


def card_text(card: ScoringCard) -> str:
    """What a scoring card pays, in a few words.

    >>> from solvers.games.santacruz.data import load_island
    >>> [card_text(c) for c in load_island().scoring_cards[:3]]
    ['6 for 4 houses', '6 for house, church, lighthouse', '6 for 4 joined by roads']
    """
    if card.kind == "houses":
        return f"{card.points} for {card.need} houses"
    if card.kind == "variety":
        return f"{card.points} for {', '.join(BUILDINGS)}"
    if card.kind == "street":
        return f"{card.points} for {card.need} joined by roads"
    if card.kind == "per_building":
        return f"{card.points} per {card.where} building"
    if card.kind == "birds":
        return f"{card.points} per bird token"
    if card.kind == "eruption":
        return f"-{card.points} per volcano building"
    fish = " +fish bonus" if "fish" in card.resources else ""
    if len(card.resources) == 1:
        return f"{card.points} for {card.resources[0]}{fish}"
    return f"{card.points} both, {card.one} one{fish}"


def action_table(rules: SantaCruz) -> list[list[Any]]:
    """What each action id means, indexed by id (see the module doc)."""
    out: list[list[Any]] = [["site", s] for s in range(rules.num_sites)]
    out += [["set", k] for k in range(rules.num_sets)]
    out += [["play", kind] for kind in BUILD_KINDS]
    out += [["double", kind] for kind in BUILD_KINDS]
    out += [["score", c] for c in range(rules.num_cards)]
    out += [["discard", c] for c in range(rules.num_cards)]
    out += [["tile", t] for t in range(rules.num_tiles)]
    out += [["card", c] for c in range(rules.num_cards)]
    out += [["bird", v] for v in (1, 2, 3)]
    return out


def board(game: Any) -> dict[str, Any]:
    """Static data for drawing ``game`` (a built Santa Cruz game): see the module doc."""
    rules = _rules(game)
    isl: SantaCruzIsland = rules.island
    x0 = min(s.x for s in isl.sites)
    y0 = min(s.y for s in isl.sites)
    sites = [{
        "id": i, "kind": s.kind, "island": s.island,
        "x": round(PAD + (s.x - x0) * DX, 1), "y": round(PAD + (s.y - y0) * DY, 1),
    } for i, s in enumerate(isl.sites)]
    return {
        "game": "santacruz",
        "players": rules.num_players,
        "width": round(2 * PAD + (max(s.x for s in isl.sites) - x0) * DX, 1),
        "height": round(2 * PAD + (max(s.y for s in isl.sites) - y0) * DY, 1),
        "hex": round(2 * DX / math.sqrt(3) - 1.5, 1),    # a hexagon's radius, a small gap between
        "sites": sites,
        "roads": [list(r) for r in isl.roads],
        "rivers": [{"name": r.name, "sites": list(r.sites)} for r in isl.rivers],
        "tiles": [{"kind": t.kind, "building": t.building, "points": t.points,
                   "resource": t.resource, "fish_bonus": t.fish_bonus, "bird": t.bird}
                  for t in isl.tiles],
        "supply": dict(isl.supply),
        "sets": [{"letter": b.letter, "name": b.name, "cards": b.hand()} for b in isl.building_sets],
        "scoring_cards": [{"name": c.name, "kind": c.kind, "text": card_text(c)}
                          for c in isl.scoring_cards],
        "rounds": 2,
        "island": isl.source,
        "actions": action_table(rules),
    }


# ------------------------------------------------------------------ breakdown
class _Replay(SantaCruzState):
    """The reference rules replaying a game, noting each marker move under
    the item that made it (``label``, set before each move is applied).
    ``labels`` are the items in the order they came up in the game."""

    def __init__(self, game: SantaCruz):
        super().__init__(game, 0)
        self.label = ""
        self.labels: list[str] = []
        self.items: list[dict[str, int]] = [{} for _ in range(game.num_players)]

    def use(self, label: str) -> None:
        self.label = label
        if label not in self.labels:
            self.labels.append(label)

    def _move(self, p: int, points: int) -> None:
        before = self.score[p]
        super()._move(p, points)
        # what the marker really moved (it stops on 0)
        self.items[p][self.label] = self.items[p].get(self.label, 0) + self.score[p] - before

    def _sets_chosen(self) -> None:
        first = self.round == 1
        super()._sets_chosen()
        if first:                           # the markers' starting spaces
            self.use("Starting space")
            for p in range(self.game.num_players):
                self.items[p][self.label] = self.score[p]

    def _end_round(self) -> None:
        if self.round == 2:
            self.use("Bird tokens")
        super()._end_round()


def replay_items(state: Any) -> tuple[list[str], list[dict[str, int]]] | None:
    """The items in the order they came up and each seat's points by item,
    from replaying ``state``'s history with the reference rules; None when
    the history does not give the state's scores (a state rebuilt without
    its history, say)."""
    rules = _rules(state.game)
    isl = rules.island
    r = _Replay(rules)
    try:
        for action in state.history:
            if r.step in ("land", "build"):
                r.use(f"Round {r.round} buildings")
            elif r.step == "play" and action >= rules.PLAY_SCORE:
                r.use(f"Round {r.round} card: {isl.scoring_cards[action - rules.PLAY_SCORE].name}")
            r.apply_action(action)
    except SolversError:
        return None
    if r.score != list(state.scores()):
        return None
    return r.labels, r.items


def breakdown(state: Any) -> list[list[dict[str, Any]]]:
    """Each seat's final score as ``{"item", "points"}`` rows summing to it,
    the same items for every seat (a scoring card scores for everybody, 0
    included); one "Score" row per seat when the history cannot be
    replayed."""
    replay = replay_items(state)
    if replay is None:
        return [[{"item": "Score", "points": int(s)}] for s in state.scores()]
    labels, items = replay
    return [[{"item": k, "points": seat.get(k, 0)} for k in labels] for seat in items]


def annotate(state: Any, seat: int) -> dict[str, Any]:
    """What the rules derive from ``state`` for drawing it, for ``seat``:

    * ``sets_in_play``: the building sets in play this round, taken or not
      (round two: the sets used in round one), :func:`.reference.sets_in_play`;
    * ``cards_held``: how many scoring cards each seat holds (in round two
      the drawn card counts until the discard);
    * ``hand``: the scoring cards ``seat`` holds, its hand ascending, then the
      card it drew while still held apart, :func:`.reference.scoring_cards_held`;
    * ``drawn``: that card (``seat``'s round-two draw before its discard),
      else None;
    * ``birds``: once the game is over, every seat's bird-token values
      ascending (the end scores them in public, marker by marker); until
      then None (the others' values are secret).

    Only what the seat may know (``docs/rules/santa-cruz.md``, Hidden
    information): which sets came into round two is public, of the other
    seats only the number of cards they hold, which the sizes of their hands
    and whether they have drawn and discarded give, and the others' bird
    values only after they were scored.

    >>> import solvers
    >>> state = solvers.load_game("santacruz", players=2).new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> ann = annotate(state, 0)
    >>> ann["sets_in_play"], ann["cards_held"], ann["drawn"], ann["hand"] == state.information_state(0)["hand"]
    ([0, 1, 2, 3], [4, 4], None, True)
    """
    rules = _rules(state.game)
    check_player(rules, seat)
    held = scoring_cards_held(state, seat)
    drawn = state.drawn[seat]
    return {
        "sets_in_play": sets_in_play(state),
        "cards_held": [len(scoring_cards_held(state, q)) for q in range(rules.num_players)],
        "hand": held,
        "drawn": drawn if drawn in held and drawn not in state.hand_score[seat] else None,
        "birds": ([sorted(int(x) for x in state.birds[q]) for q in range(rules.num_players)]
                  if state.is_terminal() else None),
    }
