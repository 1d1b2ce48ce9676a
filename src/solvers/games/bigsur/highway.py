"""A Highway typed in by a person, for ``solve bigsur score``.

The file is a JSON object whose ``highway`` lists the cards from left to
right. Each entry is a card number from the card file, or an object:

* ``{"card": 12}``, optionally with ``"landmark"``;
* or a card described inline, for players with the printed cards:
  ``{"scenery": ["field", "ocean"], "miles": 3}``, optionally with
  ``"bonus"`` (2-mile cards: ``{"kind": "scenery_types", "points": 1}``) and
  ``"landmark"``.

A ``landmark`` is a Landmark number or name from the card file, or inline:
``{"scenery": ["mountain"], "ability": {"kind": "points", "points": 4}}``
(``name`` optional). ``"stretch": "mountain"`` beside it names the Scenery
type of the Stretch it was claimed through; when left out, the library finds
an assignment in which every Landmark sits on a card of its own qualifying
Stretch, and reports the file as wrong if there is none. Bonus and ability
kinds: ``docs/rules/big-sur.md``.

>>> spots = parse_highway({"highway": [
...     {"scenery": ["ocean", "ocean"], "miles": 4},
...     {"scenery": ["ocean", "field"], "miles": 2, "landmark": "Point Sur Lighthouse"}]})
>>> from .scoring import score
>>> score(spots)   # Ocean 4 + 2, one Landmark 3, its ability 3
12
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from ...data import read_json
from ...errors import SolversError
from .data import (
    ABILITY_KINDS,
    BONUS_KINDS,
    SCENERY,
    CardSet,
    HighwayCard,
    Landmark,
    ability_text,
    bonus_text,
    load_cards,
    parse_bonus,
)
from .scoring import Spot, find_stretches


def _fail(source: str, what: str) -> SolversError:
    return SolversError(f"highway file {source}: {what}")


def _scenery(value: Any, source: str, where: str, count: tuple[int, int]) -> tuple[str, ...]:
    low, high = count
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise _fail(source, f"{where}: 'scenery' should list {low}-{high} Scenery icons"
                    if low != high else f"{where}: 'scenery' should list {low} Scenery icons")
    out = []
    for s in value:
        if not isinstance(s, str) or s.lower() not in SCENERY:
            raise _fail(source, f"{where}: {s!r} is not a Scenery type ({', '.join(SCENERY)})")
        out.append(s.lower())
    return tuple(out)


def _card_error(e: SolversError, source: str, where: str) -> SolversError:
    return _fail(source, f"{where}: {e}")


def _landmark(raw: Any, cards: CardSet, source: str, where: str) -> Landmark:
    if isinstance(raw, (int, str)) and not isinstance(raw, bool):
        try:
            return cards.landmark(raw)
        except SolversError as e:
            raise _card_error(e, source, where) from None
    if not isinstance(raw, dict):
        raise _fail(source, f"{where}: a Landmark is a number, a name or an object")
    extra = sorted(set(raw) - {"name", "scenery", "ability"})
    if extra:
        raise _fail(source, f"{where}: unknown Landmark key {extra[0]!r}")
    scenery = _scenery(raw.get("scenery"), source, where + " Landmark", (1, 2))
    try:
        ability = parse_bonus(raw.get("ability"), ABILITY_KINDS, source, where + " ability", ability_text)
    except SolversError as e:
        raise SolversError(str(e).replace("card file", "highway file", 1)) from None
    name = raw.get("name", f"Landmark at {where}")
    if not isinstance(name, str):
        raise _fail(source, f"{where}: the Landmark name should be a string")
    return Landmark(0, name, scenery, ability)


def parse_highway(raw: Any, cards: CardSet | None = None, source: str = "<input>") -> list[Spot]:
    """Check a decoded highway file and build its :class:`~.scoring.Spot` list."""
    cards = load_cards(cards)
    if not isinstance(raw, dict) or not isinstance(raw.get("highway"), list):
        raise _fail(source, "the file should be a JSON object with a list 'highway'")
    extra = sorted(set(raw) - {"highway", "about"})
    if extra:
        raise _fail(source, f"unknown key {extra[0]!r}")
    entries = raw["highway"]
    if not entries:
        raise _fail(source, "'highway' lists no cards")
    seen_cards: dict[int, int] = {}
    seen_landmarks: dict[int, int] = {}
    placed: list[tuple[HighwayCard, Landmark | None, str | None]] = []
    for i, entry in enumerate(entries):
        where = f"card {i + 1} of the highway"
        if isinstance(entry, int) and not isinstance(entry, bool):
            entry = {"card": entry}
        if not isinstance(entry, dict):
            raise _fail(source, f"{where}: a card is a number or an object")
        extra = sorted(set(entry) - {"card", "scenery", "miles", "bonus", "landmark", "stretch"})
        if extra:
            raise _fail(source, f"{where}: unknown key {extra[0]!r}")
        if "card" in entry:
            if set(entry) & {"scenery", "miles", "bonus"}:
                raise _fail(source, f"{where}: give either 'card' or an inline description, not both")
            try:
                card = cards.card(entry["card"])
            except SolversError as e:
                raise _card_error(e, source, where) from None
            if card.number in seen_cards:
                raise _fail(source, f"{where}: card {card.number} is already card "
                                    f"{seen_cards[card.number]} of the highway")
            seen_cards[card.number] = i + 1
        else:
            icons = _scenery(entry.get("scenery"), source, where, (2, 2))
            miles = entry.get("miles")
            if isinstance(miles, bool) or not isinstance(miles, int) or not 1 <= miles <= 4:
                raise _fail(source, f"{where}: 'miles' should be 1, 2, 3 or 4")
            bonus = None
            if entry.get("bonus") is not None:
                if miles != 2:
                    raise _fail(source, f"{where}: only 2-mile cards have a 2-Mile Bonus")
                try:
                    bonus = parse_bonus(entry["bonus"], BONUS_KINDS, source, where + " bonus", bonus_text)
                except SolversError as e:
                    raise SolversError(str(e).replace("card file", "highway file", 1)) from None
            card = HighwayCard(0, icons, miles, (), "", (), None, bonus)
        landmark = None
        claimed = None
        if entry.get("landmark") is not None:
            landmark = _landmark(entry["landmark"], cards, source, where)
            if landmark.number:
                if landmark.number in seen_landmarks:
                    raise _fail(source, f"{where}: {landmark.name} is already on card "
                                        f"{seen_landmarks[landmark.number]}")
                seen_landmarks[landmark.number] = i + 1
            if entry.get("stretch") is not None:
                claimed = _scenery([entry["stretch"]], source, where + " stretch", (1, 1))[0]
                if claimed not in landmark.scenery:
                    raise _fail(source, f"{where}: {landmark.name} does not show {claimed}")
        elif entry.get("stretch") is not None:
            raise _fail(source, f"{where}: 'stretch' goes with a 'landmark'")
        placed.append((card, landmark, claimed))
    return _assign_stretches(placed, source)


def _assign_stretches(placed: list[tuple[HighwayCard, Landmark | None, str | None]],
                      source: str) -> list[Spot]:
    """Give each Landmark the Stretch it was claimed through: each Landmark
    a distinct Stretch of a type it shows, holding its card."""
    bare = [Spot(card) for card, _, _ in placed]
    stretches = find_stretches(bare)
    holders = [i for i, (_, lm, _) in enumerate(placed) if lm is not None]
    options: dict[int, list[int]] = {}
    for i in holders:
        _, lm, claimed = placed[i]
        assert lm is not None            # a holder
        wanted = (claimed,) if claimed else lm.scenery
        options[i] = [k for k, s in enumerate(stretches)
                      if s.scenery in wanted and s.first <= i <= s.last]
        if not options[i]:
            kinds = " or ".join(k.capitalize() for k in wanted)
            raise _fail(source, f"card {i + 1} of the highway: {lm.name} is not in a qualifying "
                                f"Stretch ({kinds})")
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for k in options[i]:
            if k in seen:
                continue
            seen.add(k)
            if k not in owner or augment(owner[k], seen):
                owner[k] = i
                return True
        return False

    for i in holders:
        if not augment(i, set()):
            raise _fail(source, f"card {i + 1} of the highway: {cast(Landmark, placed[i][1]).name} has no "
                                "qualifying Stretch of its own (each Stretch claims one Landmark)")
    by_card = {i: stretches[k].scenery for k, i in owner.items()}
    return [Spot(card, lm, by_card.get(i)) for i, (card, lm, _) in enumerate(placed)]


def load_highway(path: str | Path, cards: CardSet | str | None = None) -> list[Spot]:
    """Load and check a highway file."""
    return parse_highway(read_json(path, "highway file"), load_cards(cards), str(path))
