"""One metadata record per game, and the one list that registers them.

Every game declares a :class:`GameInfo` in its own package (for Coast to
Coast, ``GAME`` in :mod:`solvers.games.c2c`), modelled on OpenSpiel's
``GameType``: its names, player counts, options, what its returns look
like, where its classes live (``"module:Class"`` strings, imported only when
a game is built), its position format and its renderer. The generic tools
(:func:`solvers.load_game`, the engine protocol, tournaments, the OpenSpiel
adapter, the ``solve`` command) read the record and never name a game.

A game joins the library by adding its package to :data:`GAME_PACKAGES`;
:func:`register` is the same call for a game defined elsewhere (a test, a
plugin)::

    >>> from solvers.registry import GameInfo, GameOption, register, unregister
    >>> info = GameInfo(
    ...     name="pig", title="Pig", aliases=("pig-dice",),
    ...     min_players=1, max_players=4, default_players=2,
    ...     options=(GameOption("target", int, 10, "points that win"),),
    ...     reference="solvers._core.toygames:Pig", kernel="solvers._core.toygames:Pig",
    ...     chance="explicit", information="perfect", constant_sum=True,
    ...     max_game_length=200)
    >>> _ = register(info)
    >>> import solvers
    >>> solvers.load_game("pig-dice", target=6).num_players
    2
    >>> unregister("pig")

Records are read-only; :func:`games` lists them and :func:`game_info` finds
one by its name or an alias.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from .errors import SolversError, UnknownNameError

#: The packages of the library's games, each defining ``GAME = GameInfo(...)``.
#: Adding a game to the library is adding its package here.
GAME_PACKAGES: tuple[str, ...] = (
    "solvers.games.c2c",
    "solvers.games.switchbacks",
    "solvers.games.bigsur",
    "solvers.games.santacruz",
)

CHANCE_MODES = ("deterministic", "explicit")
INFORMATION = ("perfect", "imperfect")


def load_object(path: str) -> Any:
    """The object a ``"module:attribute"`` string names, imported now.

    >>> load_object("solvers.rng:SplitMix64").__name__
    'SplitMix64'
    """
    module, _, attr = path.partition(":")
    obj: Any = import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GameOption:
    """One option of a game's constructor, besides ``players``.

    ``type`` is the type (or tuple of types) a value must have; ``None`` is
    always accepted and means the default. ``check`` is an optional
    ``"module:function"`` taking ``(value, options)`` (all the options given,
    so that one option may depend on another) and raising SolversError with
    one line for a bad value; values it does not catch are still checked by
    the game's constructor. ``object`` among the types lets Python callers
    pass any object (a map object, say) while text is read as the other types.

    ``content`` marks an option that names a data file (a map, a card file):
    a ``"module:function"`` that reads the file's decoded JSON ``(raw,
    source)`` into the object the constructor takes. Such an option also
    takes the file's content itself, a JSON object, in place of a path
    (:meth:`load_content`): the engine accepts it so, and the web server
    takes nothing else (it reads no files named by a request).

    >>> GameOption("challenge", (str, int), None, "the solo challenge card").parse("The Alamo")
    'The Alamo'
    >>> GameOption("target", int, 10, "points that win").parse("12")
    12
    """

    name: str
    type: type | tuple[type, ...]
    default: Any = None
    help: str = ""
    check: str | None = None
    content: str | None = None
    # The player counts the option applies to (None: every count), e.g. a
    # solo challenge card: (1,). Given with another count it is refused.
    players: tuple[int, ...] | None = None

    @property
    def types(self) -> tuple[builtins.type, ...]:
        return self.type if isinstance(self.type, tuple) else (self.type,)

    def parse(self, text: str) -> Any:
        """A value typed on a command line (``--option NAME=TEXT``) as the
        option's type: the first of its types the text reads as."""
        for t in self.types:
            if t is object:
                continue
            if t is bool:
                low = text.strip().lower()
                if low in ("true", "yes", "1", "on"):
                    return True
                if low in ("false", "no", "0", "off"):
                    return False
                continue
            try:
                return t(text)
            except (TypeError, ValueError):
                continue
        raise SolversError(f"option {self.name!r} should be a {self.type_names()}, not {text!r}")

    @property
    def names_a_file(self) -> bool:
        """Whether the option names a data file (it has a ``content`` reader)."""
        return self.content is not None

    def load_content(self, value: Any) -> Any:
        """``value`` as the constructor takes it: a data file's content (a
        JSON object, a dict) read by the option's ``content`` function; any
        other value unchanged. SolversError (one line) for bad content."""
        if self.content is None or not isinstance(value, dict):
            return value
        return load_object(self.content)(value, "<content>")

    def type_names(self) -> str:
        return " or ".join(t.__name__ for t in self.types if t is not object)

    def applies_to(self, players: int) -> bool:
        """Whether the option may be given to a game of ``players`` seats.

        >>> GameOption("challenge", str, players=(1,)).applies_to(2)
        False
        """
        return self.players is None or players in self.players

    def validate(self, value: Any, options: dict[str, Any], game: str,
                 players: int | None = None) -> None:
        """Raise SolversError (one line) when ``value`` does not fit the
        option (or, ``players`` given, a game of that many seats)."""
        if value is None:
            return
        if players is not None and not self.applies_to(players):
            counts = " or ".join(str(n) for n in self.players or ())
            raise SolversError(f"{game} option {self.name!r} applies only with {counts} "
                               f"player{'' if counts == '1' else 's'}, not {players}")
        ok = object in self.types or any(
            isinstance(value, t) and not (isinstance(value, bool) and t is not bool)
            for t in self.types)
        if not ok and float in self.types and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise SolversError(f"{game} option {self.name!r} should be a {self.type_names()}, "
                               f"not {type(value).__name__}")
        if self.check is not None:
            load_object(self.check)(value, options)


@dataclass(frozen=True)
class PositionFormat:
    """A game's own position format: ``load`` names a function ``dict ->
    State`` (SolversError when the position fails its checks) and ``save``
    one ``State -> dict`` (SolversError at a moment it cannot express), both
    as ``"module:function"``."""

    load: str
    save: str


@dataclass(frozen=True)
class GameInfo:
    """What the generic tools know about a game (see the module docstring).

    * ``name``: the short name (``solve NAME``, ``solvers_NAME`` in
      OpenSpiel); ``title`` the name people use; ``aliases`` other spellings
      (matched case-insensitively).
    * ``min_players``, ``max_players``, ``default_players``: seat counts.
    * ``options``: the constructor's keyword options, in order.
    * ``chance``: ``"explicit"`` (chance nodes in the tree) or
      ``"deterministic"``; ``information``: ``"imperfect"`` (hidden
      information, agents see ``information_state``) or ``"perfect"``.
    * ``constant_sum``: with two or more seats the returns always sum to
      ``utility_sum`` (win shares). ``min_utility``/``max_utility`` bound a
      return with two or more seats; ``solo_max_utility`` bounds a one-seat
      game's return when that is a score (None: ``max_utility``).
    * ``reference``, ``kernel``: the two implementations as
      ``"module:Class"``; called as ``Class(players=n, **options)``.
    * ``position``: its own position format, if any (:class:`PositionFormat`).
    * ``default_budget``: the budget an AI gets when a command is given none
      (``{"time": 1.0}`` or ``{"iterations": 3000}``).
    * ``cli``: the ``solve NAME`` command group as ``"module:attribute"``,
      when the game has commands of its own besides the common verbs (play,
      analyse, endgame, score, review: :mod:`solvers.cli.verbs` adds them to
      it, or builds the whole group when ``cli`` is None).
    * ``renderer``: the module that draws its states in a terminal: it
      defines ``draw(state, seat, color) -> str`` (``seat`` None: everything;
      otherwise only what that seat may see), and may define ``intro(game,
      seat) -> str`` (shown when a game starts), ``outro(state, seat) -> str``
      (after the final scores) and ``value_words(game, value) -> str`` (what
      an AI's value means, e.g. "win share 0.62").
    * ``move_reader``: ``"module:function"`` ``(state, text) -> action id``,
      a move as a person types it, SolversError (one helpful line) for a
      move it cannot read or that is not legal.
    * ``breakdown``: ``"module:function"`` ``(state) -> list[list[dict]]``,
      each player's score as ``{"item", "points"}`` rows (``solve NAME
      score``).
    * ``max_game_length``: a bound on the actions of one game (chance
      included), used when the game object does not report one itself; an
      int, or a function of the built game.
    * ``web``: the module (``"package.module"``) that lets the browser app
      (``solve serve``) draw the game, or None. It defines ``board(game) ->
      dict``, the static, JSON-ready data the drawing needs (geometry, card
      faces) for a built game, and ``breakdown(state) -> list[list[dict]]``,
      at the end of a game each seat's score as ``{"item", "points"}`` rows.
      Its package holds ``board.js``, the ES module that draws a view
      (:mod:`solvers.web` documents its interface).
    * ``encoding``: the game's fixed-size observation vector for learning
      environments (:mod:`solvers.envs`), as ``"module:function"``: the
      function is ``encode(state, seat) -> numpy array``, computed from what
      ``seat`` may see only, and the same module defines ``shape(game)``,
      the array's shape for a built game; None when the game has none.
    * ``review_measure``: for :mod:`solvers.review`, a ``"module:function"``
      taking the built game and returning ``(label, convert)``: what a
      review's values are (``"win chance"``, ``"expected score"``) and the
      function from a search value (the game's search utility) to it; None:
      win chances with several seats, the return itself alone.
    * ``record_view``: for :mod:`solvers.record`, a position format of a
      seat's view where the game's own ``position`` cannot write one:
      ``save`` takes ``(state, seat)`` and gives a dict or None, ``load``
      takes ``(dict, game)`` and gives the state. Any game on a C kernel
      can name the generic one, ``solvers.record:save_kernel_view`` and
      ``solvers.record:load_kernel_view`` (the struct of the seat's view).
    * ``record_stand_ins``: a seat record rebuilds a step without a position
      across moves hidden from the seat by playing, in their place, the
      first legal move that reads as the seat read it (the view does not
      depend on which one: the game's positions must make that true).
    * ``review_extra``: a ``"module:function"`` adding a game's own report
      to ``solve NAME review`` (:mod:`solvers.cli.review` documents it).
    * ``model``: the learned leaf evaluation the package ships for the game
      (:mod:`solvers.learn`), as ``"package:file"``, ``{players}`` in the
      file name standing for the seat count; the MCTS agent uses it by
      default when the file for the game's seat count exists. None: none.
    * ``solo_trainer``: for a game whose solo decisions have a learned
      value of their own (solo Coast to Coast's sheets between rounds), the
      ``"module:function"`` that ``solve train GAME`` runs with one seat:
      ``function(game_options, out=, seed=, games=, workers=, resume=,
      command=, progress=, iterations=)``, returning a summary dict. None:
      none.
    """

    name: str
    title: str
    reference: str
    kernel: str
    min_players: int = 1
    max_players: int = 1
    default_players: int = 1
    aliases: tuple[str, ...] = ()
    options: tuple[GameOption, ...] = ()
    chance: str = "explicit"
    information: str = "imperfect"
    constant_sum: bool = True
    utility_sum: float = 1.0
    min_utility: float = 0.0
    max_utility: float = 1.0
    solo_max_utility: float | None = None
    position: PositionFormat | None = None
    default_budget: dict[str, float] = field(default_factory=dict)
    cli: str | None = None
    renderer: str | None = None
    move_reader: str | None = None
    breakdown: str | None = None
    max_game_length: int | Callable[[Any], int] | None = None
    web: str | None = None
    encoding: str | None = None
    record_view: PositionFormat | None = None
    review_measure: str | None = None
    review_extra: str | None = None
    record_stand_ins: bool = False
    model: str | None = None
    solo_trainer: str | None = None
    # The rules page in docs/rules (None: the title in lower case, hyphens
    # for spaces: "Coast to Coast" -> coast-to-coast.md); see rules_page.
    rules: str | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.lower().strip():
            raise ValueError(f"a game's short name is lower case: {self.name!r}")
        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            raise ValueError(f"{self.name}: need 1 <= min_players <= default_players <= max_players")
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"{self.name}: chance should be one of {CHANCE_MODES}")
        if self.information not in INFORMATION:
            raise ValueError(f"{self.name}: information should be one of {INFORMATION}")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names) or "players" in names:
            raise ValueError(f"{self.name}: option names must be distinct and not 'players'")

    # ---------------------------------------------------------- reading it
    @property
    def option_names(self) -> list[str]:
        return [o.name for o in self.options]

    def option(self, name: str) -> GameOption:
        for o in self.options:
            if o.name == name:
                return o
        raise SolversError(f"{self.name} has no option {name!r}; it takes "
                           f"{', '.join(self.option_names) or 'none'}")

    def player_counts(self) -> list[int]:
        return list(range(self.min_players, self.max_players + 1))

    def is_constant_sum(self, players: int) -> bool:
        """Whether the returns of a ``players``-seat game sum to ``utility_sum``."""
        return self.constant_sum and players >= 2

    def utility_bounds(self, players: int) -> tuple[float, float]:
        """(lowest, highest) return of a ``players``-seat game."""
        if players == 1 and self.solo_max_utility is not None:
            return (self.min_utility, self.solo_max_utility)
        return (self.min_utility, self.max_utility)

    def game_length_bound(self, game: Any) -> int:
        """A bound on the actions of one game of ``game`` (a built game): the
        game's own ``max_game_length`` (its kernel core's) when it has one,
        else the record's, else 1000."""
        for holder in (game, getattr(game, "core", None), getattr(game, "_core", None)):
            n = getattr(holder, "max_game_length", None) if holder is not None else None
            if n is not None:
                return int(n() if callable(n) else n)
        bound = self.max_game_length
        if bound is None:
            return 1000
        return int(bound(game) if callable(bound) else bound)

    def check_options(self, options: dict[str, Any], players: int | None = None) -> None:
        """Raise SolversError (one line) for an unknown option, a value of the
        wrong type, one the option's check refuses or (``players`` given) one
        that does not apply to that many seats. (The constructor checks the
        rest: a challenge card on the map, a readable map file.)"""
        for key, value in options.items():
            self.option(key).validate(value, options, self.name, players)

    @property
    def rules_page(self) -> str:
        """The file name of the game's rules page (``docs/rules/<page>``).

        >>> game_info("c2c").rules_page
        'coast-to-coast.md'
        """
        if self.rules is not None:
            return self.rules
        return "-".join(self.title.lower().split()) + ".md"

    def load_contents(self, options: dict[str, Any]) -> dict[str, Any]:
        """``options`` with every data file given as its content (a dict)
        read into the object the constructor takes (:meth:`GameOption.load_content`)."""
        return {key: self.option(key).load_content(value) for key, value in options.items()}

    @property
    def file_options(self) -> list[GameOption]:
        """The options that name a data file (a map, a card file, an island)."""
        return [o for o in self.options if o.names_a_file]

    def game_class(self, reference: bool = False) -> Any:
        return load_object(self.reference if reference else self.kernel)

    def native_format(self) -> tuple[Callable[[dict[str, Any]], Any], Callable[[Any], dict[str, Any]]] | None:
        """(load, save) of the game's own position format, or None."""
        if self.position is None:
            return None
        return load_object(self.position.load), load_object(self.position.save)


# ------------------------------------------------------------------ registry
_RECORDS: dict[str, GameInfo] = {}
_ALIASES: dict[str, str] = {}
_LOADED = False


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def register(info: GameInfo) -> GameInfo:
    """Add a game's record (its short name and aliases must be new)."""
    _ensure_loaded()
    return _add(info)


def _add(info: GameInfo) -> GameInfo:
    if not isinstance(info, GameInfo):
        raise TypeError("register() takes a GameInfo")
    names = [info.name, *(_key(a) for a in info.aliases)]
    for n in names:
        if n in _RECORDS or n in _ALIASES:
            raise ValueError(f"game name {n!r} is already registered")
    _RECORDS[info.name] = info
    for a in info.aliases:
        _ALIASES[_key(a)] = info.name
    return info


def unregister(name: str) -> None:
    """Remove a game's record (for tests and plugins)."""
    info = _RECORDS.pop(name, None)
    if info is not None:
        for a in info.aliases:
            _ALIASES.pop(_key(a), None)


def _ensure_loaded() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for package in GAME_PACKAGES:
        _add(import_module(package).GAME)


def games() -> list[GameInfo]:
    """Every registered record, by short name."""
    _ensure_loaded()
    return [_RECORDS[n] for n in sorted(_RECORDS)]


def game_info(name: str) -> GameInfo:
    """The record of a game by its short name or an alias (any case);
    UnknownNameError (a SolversError) otherwise."""
    _ensure_loaded()
    if isinstance(name, str):
        key = _key(name)
        key = _ALIASES.get(key, key)
        if key in _RECORDS:
            return _RECORDS[key]
    raise UnknownNameError("game", str(name), sorted(_RECORDS))


__all__ = ["GameInfo", "GameOption", "PositionFormat", "GAME_PACKAGES", "register", "unregister",
           "games", "game_info", "load_object"]
