"""Big Sur card data: the Highway cards and the Landmarks, loaded from JSON
and checked.

The rulebook describes the cards but does not print them, so the package
ships a reconstructed set (``solvers/data/big_sur.json``) that honours what
is known of the real ones; ``load_cards(path)`` loads any other file of the
same schema, for instance a transcription of the printed cards. What the
file holds and why: ``docs/rules/big-sur.md``.

>>> cards = load_cards()
>>> len(cards.highway), len(cards.landmarks)
(69, 20)
>>> [len(cards.deck_for(p)) for p in (2, 3, 4)]
[37, 53, 69]
>>> cards.turns_each(3)
7
>>> cards.card(1).describe()
'#1 Forest/Field, 2 miles, cost Engineering+Stone, back Stone, bonus: Score 1 point for each type of Scenery in your Highway.'
>>> bonus_text("scenery_types", {"points": 1})
'Score 1 point for each type of Scenery in your Highway.'
"""  # noqa: E501 (a doctest's output line)

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...data import builtin_json, read_json, schema_problem
from ...errors import SolversError

SCENERY = ("ocean", "forest", "mountain", "flower", "field")
MATERIALS = ("stone", "water", "timber", "engineering", "steel")
PLAYER_COUNTS = (2, 3, 4)
HAND_AT_SETUP = 2
DEPOT_SIZE = 5
LANDMARK_ROW = 5
TAKE_PER_TURN = 2
MIN_STRETCH_ICONS = 3
#: Points for the number of Landmarks in a Highway: (at least n, points).
LANDMARK_COUNT_TABLE = ((5, 8), (3, 5), (1, 3))
MAX_HIGHWAY_CARDS = 128
MAX_LANDMARKS = 64

# ----- the 2-Mile Bonus vocabulary -------------------------------------------
#: kind -> the parameters it takes (beside ``points``) and the words it prints.
BONUS_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "scenery_types": ((), "Score {points} for each type of Scenery in your Highway."),
    "scenery_icons": (("scenery",), "Score {points} for each {Scenery} icon in your Highway."),
    "stretches": ((), "Score {points} for each Stretch in your Highway."),
    "landmarks": ((), "Score {points} for each Landmark in your Highway."),
    "one_mile_cards": ((), "Score {points} for each 1-mile card in your Highway."),
    "material_cards": (("material",), "Score {points} for each card in your Highway "
                                      "that supplies {Material}."),
    "double_icons": ((), "Score {points} for each card with a double icon in your Highway."),
    "long_stretch": (("miles",), "Score {points} if your Highway has a Stretch of "
                                 "{miles} miles or more."),
    "scenery_stretch": (("scenery",), "Score {points} if your Highway has a {Scenery} Stretch."),
    "cards": (("per",), "Score {points} for every {per} cards in your Highway."),
}

# ----- the Landmark ability vocabulary -----------------------------------------
ABILITY_KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "points": (("points",), "Score {points}."),
    "mile_tag": (("miles",), "The Highway card below this Landmark counts {miles} more "
                             "{mile_word} in every Stretch it is in."),
    "material": (("material",), "Supplies 1 {Material} once per turn when you build, "
                                "like a Persistent Material."),
}


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def _words(template: str, params: dict[str, Any]) -> str:
    values = dict(params)
    if "points" in values:
        values["points"] = _points(values["points"])
    if "scenery" in values:
        values["Scenery"] = values["scenery"].capitalize()
    if "material" in values:
        values["Material"] = values["material"].capitalize()
    if "miles" in values:
        values["mile_word"] = "mile" if values["miles"] == 1 else "miles"
    return template.format(**values)


def bonus_text(kind: str, params: dict[str, Any]) -> str:
    """The plain-English words of a 2-Mile Bonus, from its kind and parameters.

    >>> bonus_text("long_stretch", {"points": 3, "miles": 8})
    'Score 3 points if your Highway has a Stretch of 8 miles or more.'
    """
    return _words(BONUS_KINDS[kind][1], params)


def ability_text(kind: str, params: dict[str, Any]) -> str:
    """The plain-English words of a Landmark ability.

    >>> ability_text("points", {"points": 4})
    'Score 4 points.'
    >>> ability_text("mile_tag", {"miles": 1})
    'The Highway card below this Landmark counts 1 more mile in every Stretch it is in.'
    """
    return _words(ABILITY_KINDS[kind][1], params)


@dataclass(frozen=True)
class Bonus:
    """A 2-Mile Bonus (scored at game end) or a Landmark ability."""

    kind: str
    params: tuple[tuple[str, Any], ...]
    text: str

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.params).get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **dict(self.params), "text": self.text}


@dataclass(frozen=True)
class HighwayCard:
    """One Highway card: front (Scenery, Mile tag, cost, bonus or Persistent
    Material) and back (the Material it supplies when discarded)."""

    number: int
    scenery: tuple[str, ...]
    miles: int
    cost: tuple[str, ...]
    material: str
    players: tuple[int, ...]
    persistent: str | None = None
    bonus: Bonus | None = None

    def icons(self, kind: str) -> int:
        """How many icons of Scenery ``kind`` the card shows (0, 1 or 2)."""
        return self.scenery.count(kind)

    def describe(self) -> str:
        text = (f"#{self.number} {'/'.join(s.capitalize() for s in self.scenery)}, "
                f"{self.miles} mile{'s' if self.miles != 1 else ''}, "
                f"cost {'+'.join(m.capitalize() for m in self.cost)}, "
                f"back {self.material.capitalize()}")
        if self.persistent:
            text += f", persistent {self.persistent.capitalize()}"
        if self.bonus:
            text += f", bonus: {self.bonus.text}"
        return text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number, "scenery": list(self.scenery), "miles": self.miles,
            "cost": list(self.cost), "material": self.material, "players": list(self.players),
        }
        if self.persistent:
            out["persistent"] = self.persistent
        if self.bonus:
            out["bonus"] = self.bonus.to_json()
        return out


@dataclass(frozen=True)
class Landmark:
    """A Landmark: the Scenery a qualifying Stretch must show, and an ability."""

    number: int
    name: str
    scenery: tuple[str, ...]
    ability: Bonus

    def describe(self) -> str:
        icons = " or ".join(s.capitalize() for s in self.scenery)
        return f"L{self.number} {self.name} ({icons}): {self.ability.text}"

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "scenery": list(self.scenery),
                "ability": self.ability.to_json()}


@dataclass(frozen=True)
class CardSet:
    """All Highway cards and Landmarks of one card file."""

    highway: tuple[HighwayCard, ...]
    landmarks: tuple[Landmark, ...]
    source: str = "built-in"
    _by_name: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def card(self, number: int) -> HighwayCard:
        """Highway card ``number`` (1-based)."""
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(self.highway):
            raise SolversError(f"there is no Highway card {number!r} (cards are 1-{len(self.highway)})")
        return self.highway[number - 1]

    def landmark(self, key: int | str) -> Landmark:
        """Landmark by number (1-based) or by name (case-insensitive)."""
        if isinstance(key, str):
            from ...errors import UnknownNameError

            number = self._by_name.get(key.lower().strip())
            if number is None:
                raise UnknownNameError("Landmark", key, [l.name for l in self.landmarks])
            return self.landmarks[number - 1]
        if isinstance(key, bool) or not isinstance(key, int) or not 1 <= key <= len(self.landmarks):
            raise SolversError(f"there is no Landmark {key!r} (Landmarks are 1-{len(self.landmarks)})")
        return self.landmarks[key - 1]

    def deck_for(self, players: int) -> list[int]:
        """The numbers of the Highway cards used with ``players`` seats."""
        return [c.number for c in self.highway if players in c.players]

    def turns_each(self, players: int) -> int:
        """How many turns each player gets: after dealing the hands and the
        Depot, each turn takes two cards from the deck."""
        left = len(self.deck_for(players)) - players * HAND_AT_SETUP - DEPOT_SIZE
        return left // (TAKE_PER_TURN * players)

    def check_players(self, players: int) -> None:
        if isinstance(players, bool) or not isinstance(players, int) or players not in PLAYER_COUNTS:
            raise SolversError(f"Big Sur is for 2, 3 or 4 players, not {players!r}")

    def to_json(self) -> dict[str, Any]:
        return {"schema": 1, "highway": [c.to_json() for c in self.highway],
                "landmarks": [l.to_json() for l in self.landmarks]}


# ----- checking a file ----------------------------------------------------------
def _fail(source: str, what: str) -> SolversError:
    return SolversError(f"card file {source}: {what}")


def _int(raw: dict[str, Any], key: str, low: int, high: int, source: str, where: str) -> int:
    if key not in raw:
        raise _fail(source, f"{where}: missing key {key!r}")
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(source, f"{where}: {key!r} should be an integer")
    if not low <= value <= high:
        raise _fail(source, f"{where}: {key!r} should be between {low} and {high}, not {value}")
    return value


def _word(value: Any, vocabulary: tuple[str, ...], kind: str, source: str, where: str) -> str:
    if not isinstance(value, str) or value.lower() not in vocabulary:
        raise _fail(source, f"{where}: {value!r} is not a {kind} (one of {', '.join(vocabulary)})")
    return value.lower()


def _keys(raw: Any, allowed: set[str], source: str, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _fail(source, f"{where} should be a JSON object")
    extra = sorted(set(raw) - allowed)
    if extra:
        raise _fail(source, f"{where}: unknown key {extra[0]!r}")
    return raw


def parse_bonus(raw: Any, vocabulary: dict[str, tuple[tuple[str, ...], str]], source: str,
                where: str, make_text: Any) -> Bonus:
    """Check a bonus or ability object ``{"kind": ..., params..., "text": ...}``.
    The text is generated from the parameters; a ``text`` given in the file
    must be exactly those words."""
    if not isinstance(raw, dict) or "kind" not in raw:
        raise _fail(source, f"{where} should be an object with a 'kind'")
    kind = raw["kind"]
    if kind not in vocabulary:
        raise _fail(source, f"{where}: unknown kind {kind!r} (one of {', '.join(vocabulary)})")
    names = vocabulary[kind][0]
    wanted = set(names) | ({"points"} if vocabulary is BONUS_KINDS else set())
    _keys(raw, wanted | {"kind", "text"}, source, where)
    params: dict[str, Any] = {}
    for name in sorted(wanted):
        if name == "scenery":
            params[name] = _word(raw.get(name), SCENERY, "Scenery", source, where)
        elif name == "material":
            params[name] = _word(raw.get(name), MATERIALS, "Material", source, where)
        else:
            params[name] = _int(raw, name, 1, 99, source, where)
    text = make_text(kind, params)
    if "text" in raw and raw["text"] != text:
        raise _fail(source, f"{where}: text {raw['text']!r} does not match its parameters ({text!r})")
    return Bonus(kind, tuple(sorted(params.items())), text)


def parse_cards(raw: Any, source: str = "built-in") -> CardSet:
    """Check a decoded card file and build the :class:`CardSet`."""
    raw = _keys(raw, {"about", "schema", "highway", "landmarks"}, source, "the top level")
    problem = schema_problem(raw)
    if problem:
        raise _fail(source, problem)
    if not isinstance(raw.get("highway"), list) or not raw["highway"]:
        raise _fail(source, "'highway' should be a list of Highway cards")
    if not isinstance(raw.get("landmarks"), list) or not raw["landmarks"]:
        raise _fail(source, "'landmarks' should be a list of Landmarks")
    if len(raw["highway"]) > MAX_HIGHWAY_CARDS:
        raise _fail(source, f"at most {MAX_HIGHWAY_CARDS} Highway cards, not {len(raw['highway'])}")
    if len(raw["landmarks"]) > MAX_LANDMARKS:
        raise _fail(source, f"at most {MAX_LANDMARKS} Landmarks, not {len(raw['landmarks'])}")
    cards = []
    card_keys = {"number", "scenery", "miles", "cost", "material", "players", "persistent", "bonus"}
    for i, c in enumerate(raw["highway"]):
        where = f"Highway card {i + 1}"
        c = _keys(c, card_keys, source, where)
        if _int(c, "number", 1, MAX_HIGHWAY_CARDS, source, where) != i + 1:
            raise _fail(source, f"{where}: cards should be numbered 1, 2, ... in order")
        scenery = c.get("scenery")
        if not isinstance(scenery, list) or len(scenery) != 2:
            raise _fail(source, f"{where}: 'scenery' should list two Scenery icons")
        icons = tuple(_word(s, SCENERY, "Scenery", source, where) for s in scenery)
        miles = _int(c, "miles", 1, 4, source, where)
        cost = c.get("cost")
        if not isinstance(cost, list) or not 1 <= len(cost) <= 3:
            raise _fail(source, f"{where}: 'cost' should list 1 to 3 Materials")
        cost_t = tuple(sorted(_word(m, MATERIALS, "Material", source, where) for m in cost))
        material = _word(c.get("material"), MATERIALS, "Material", source, where)
        players = c.get("players")
        if (not isinstance(players, list) or not players
                or any(p not in PLAYER_COUNTS or isinstance(p, bool) for p in players)
                or len(set(players)) != len(players)):
            raise _fail(source, f"{where}: 'players' should list player counts from 2, 3, 4")
        persistent = c.get("persistent")
        if miles == 1:
            persistent = _word(persistent, MATERIALS, "Material", source, where + " (persistent)")
        elif persistent is not None:
            raise _fail(source, f"{where}: only 1-mile cards have a Persistent Material")
        bonus = None
        if miles == 2:
            bonus = parse_bonus(c.get("bonus"), BONUS_KINDS, source, where + " bonus", bonus_text)
        elif c.get("bonus") is not None:
            raise _fail(source, f"{where}: only 2-mile cards have a 2-Mile Bonus")
        cards.append(HighwayCard(i + 1, icons, miles, cost_t, material, tuple(sorted(players)),
                                 persistent, bonus))
    landmarks = []
    names: dict[str, int] = {}
    for i, l in enumerate(raw["landmarks"]):
        where = f"Landmark {i + 1}"
        l = _keys(l, {"number", "name", "scenery", "ability"}, source, where)
        if _int(l, "number", 1, MAX_LANDMARKS, source, where) != i + 1:
            raise _fail(source, f"{where}: Landmarks should be numbered 1, 2, ... in order")
        name = l.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, f"{where}: 'name' should be a non-empty string")
        if name.lower().strip() in names:
            raise _fail(source, f"{where}: the name {name!r} is used twice")
        names[name.lower().strip()] = i + 1
        scenery = l.get("scenery")
        if not isinstance(scenery, list) or not 1 <= len(scenery) <= 2:
            raise _fail(source, f"{where}: 'scenery' should list one or two Scenery icons")
        icons_l = tuple(_word(s, SCENERY, "Scenery", source, where) for s in scenery)
        if len(set(icons_l)) != len(icons_l):
            raise _fail(source, f"{where}: 'scenery' lists a type twice")
        ability = parse_bonus(l.get("ability"), ABILITY_KINDS, source, where + " ability", ability_text)
        landmarks.append(Landmark(i + 1, name.strip(), icons_l, ability))
    cs = CardSet(tuple(cards), tuple(landmarks), source, names)
    for p in PLAYER_COUNTS:
        n = len(cs.deck_for(p))
        left = n - p * HAND_AT_SETUP - DEPOT_SIZE
        if left <= 0 or left % (TAKE_PER_TURN * p):
            raise _fail(source, f"the {n} cards for {p} players do not give every player "
                                "the same number of turns")
    if len(landmarks) < LANDMARK_ROW:
        raise _fail(source, f"there should be at least {LANDMARK_ROW} Landmarks")
    return cs


_DEFAULT: CardSet | None = None


def load_cards(path: str | Path | CardSet | None = None) -> CardSet:
    """Load and check a card file; ``None`` gives the built-in set."""
    global _DEFAULT
    if isinstance(path, CardSet):
        return path
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = parse_cards(builtin_json("big_sur.json"))
        return _DEFAULT
    return parse_cards(read_json(path, "card file"), str(path))
