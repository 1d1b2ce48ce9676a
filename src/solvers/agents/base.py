"""The agent interface, the registry and the ``kind:option=value`` specs."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from ..errors import SolversError, UnknownNameError
from ..game import CHANCE, TERMINAL, Game, State
from ..limits import check_seed
from ..rng import SplitMix64, seed_from

#: The seed of the re-deal that turns a state into its seat's view (any
#: fixed number would do: what matters is that it never depends on the state).
VIEW_SEED = 0x5EA7_0F_5EA7


def seat_view(state: State, seat: int) -> State:
    """What ``seat`` may know of ``state``, as a state an agent can search.

    Everything ``seat`` cannot see is dealt afresh (the game's ``resample``)
    with a fixed seed, and the record of how the position came about (the
    ``history``, which holds the cards dealt to other hands) and the deal's
    seed are dropped. Because every game's ``resample`` gathers the hidden
    cards in a canonical order before shuffling them, two states that differ
    only in what ``seat`` cannot see give the same view, so nothing an agent
    does with it can depend on hidden information. A game without
    ``resample`` is fully visible and its view is a copy.

        >>> import solvers
        >>> game = solvers.load_game("santacruz", players=2)
        >>> state = game.new_initial_state(seed=4)
        >>> state.apply_seeded_chance()
        >>> view = seat_view(state, state.current_player())
        >>> view.information_state(0) == state.information_state(0), view.history
        (True, [])
    """
    view: Any = state.resample(seat, SplitMix64(VIEW_SEED)) if hasattr(state, "resample") else state.clone()
    if isinstance(getattr(view, "history", None), list):
        view.history = []
    if hasattr(view, "seed"):
        try:
            view.seed = None
        except (AttributeError, TypeError):  # a state whose seed is read-only
            pass
    return view


class Agent(ABC):
    """A player: ``step(state)`` chooses an action for the player to move;
    ``analyse(state)`` ranks the legal actions, best first, as dicts
    ``{"action", "move", "value", "visits"}``.

    An agent sees a state only through :func:`seat_view`: ``step`` and
    ``analyse`` (defined here, once for every agent) hand the agent's own
    ``_step`` and ``_analyse`` the view of the player to move, never the
    state itself, so no agent can use what that player cannot see. A
    subclass implements ``_analyse`` (and ``_step`` when choosing is cheaper
    than ranking); defining ``step`` or ``analyse`` itself is refused.
    Every random choice flows from the ``seed`` option (each call draws a
    fresh sub-seed, so a game replays identically from the same seed).

    :meth:`stop` (from another thread) ends a running ``analyse`` of an
    agent that searches (``stoppable``) with what it has found so far.
    """

    kind: str = ""
    options: tuple[str, ...] = ("seed",)
    #: Whether :meth:`stop` cuts ``analyse`` short (the others' work is short).
    stoppable: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("step", "analyse"):
            if name in cls.__dict__:
                raise TypeError(f"{cls.__name__} defines {name}(): an agent implements _{name}(view) "
                                f"instead, so that it only ever sees the view of the player to move")

    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self.seed = None if seed is None else check_seed("seed", seed)
        self.rng = SplitMix64(seed_from(seed))
        self._stopped = False
        self._search: Any = None

    def stop(self) -> None:
        """End the running search now (it answers with what it has) and every
        later one of this agent: a stopped agent is done (make a new one)."""
        self._stopped = True
        search = self._search
        if search is not None:
            search.stop()

    def _track(self, search: Any) -> Any:
        """Make ``search`` (anything with ``stop()``) the one :meth:`stop`
        ends; stopped at once when the stop came first. Returns it."""
        self._search = search
        if self._stopped:            # read after the write: a stop in between still reaches it
            search.stop()
        return search

    @staticmethod
    def _unsearched(state: State) -> list[dict[str, Any]]:
        """Every legal action, unvisited and valued 0, in the game's order:
        the answer of a search stopped before it learnt anything."""
        return [Agent._row(state, a, 0.0, 0) for a in state.legal_actions()]

    def _check(self, state: State) -> int:
        player = state.current_player()
        if player == CHANCE:
            raise SolversError("a chance node is not a decision: resolve chance first")
        if player == TERMINAL:
            raise SolversError("the game is over: there is no move to make")
        return player

    @staticmethod
    def _row(state: State, action: int, value: float, visits: int = 0,
             kind: str | None = None) -> dict[str, Any]:
        """One ranked move. ``kind`` says what ``value`` is when it is not
        the game's search utility (what ``mcts`` estimates): ``"points"``
        (an expected final score, a lost challenge scoring 0) or
        ``"chance"`` (of completing a solo challenge)."""
        row = {"action": action, "move": state.action_to_string(action), "value": float(value),
               "visits": int(visits)}
        if kind is not None:
            row["value_kind"] = kind
        return row

    def analyse(self, state: State) -> list[dict[str, Any]]:
        """The legal actions of the player to move, best first (see the class)."""
        player = self._check(state)
        return self._analyse(seat_view(state, player))

    def step(self, state: State) -> int:
        """The action this agent plays in ``state``."""
        player = self._check(state)
        return self._step(seat_view(state, player))

    @abstractmethod
    def _analyse(self, view: State) -> list[dict[str, Any]]:
        """Rank the legal actions of ``view`` (the mover's :func:`seat_view`)."""

    def _step(self, view: State) -> int:
        """The action to play in ``view``: by default the best of :meth:`_analyse`."""
        return self._analyse(view)[0]["action"]

    def check_match(self) -> None:  # noqa: B027 (a hook: empty by default, not abstract)
        """Raise SolversError when this agent cannot play whole games of its
        game (called before a match starts, so that it fails at once with the
        reason rather than at the first move). Most agents can."""

    def __repr__(self) -> str:
        return f"<{self.kind} agent>"


_REGISTRY: dict[str, type[Agent]] = {}


def register(kind: str) -> Callable[[type[Agent]], type[Agent]]:
    def wrap(cls: type[Agent]) -> type[Agent]:
        cls.kind = kind
        _REGISTRY[kind] = cls
        return cls
    return wrap


# Kinds whose module needs an optional extra: registered when first asked for.
_LAZY = {"openspiel": "solvers.interop.openspiel"}


def agent_names() -> list[str]:
    """The kinds :func:`load_agent` knows (``openspiel`` needs the extra)."""
    return sorted(set(_REGISTRY) | set(_LAZY))


def agent_class(kind: str) -> type[Agent]:
    """The class behind an agent kind, importing an optional one on demand."""
    key = kind.lower().strip() if isinstance(kind, str) else ""
    if key not in _REGISTRY and key in _LAZY:
        from importlib import import_module

        try:
            import_module(_LAZY[key])
        except ImportError:
            raise SolversError(f"the {key} agent needs OpenSpiel: pip install \".[openspiel]\"") from None
    if key not in _REGISTRY:
        raise UnknownNameError("agent", str(kind), agent_names())
    return _REGISTRY[key]


def load_agent(kind: str, game: Game, **options: Any) -> Agent:
    """An agent of ``kind`` (``random``, ``greedy``, ``mcts``, ``endgame``)
    for ``game``, with its options::

        >>> from solvers._core.toygames import TicTacToe
        >>> agent = load_agent("mcts", TicTacToe(), iterations=500, seed=1)
        >>> agent.step(TicTacToe().new_initial_state()) in range(9)
        True
    """
    cls = agent_class(kind)
    unknown = sorted(set(options) - set(cls.options))
    if unknown:
        raise SolversError(f"unknown option {unknown[0]!r} for a {cls.kind} agent; "
                           f"it takes {', '.join(cls.options)}")
    return cls(game, **options)


def _parse_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", ""):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a command-line agent spec into its kind and options.

    >>> parse_agent_spec("mcts:time=1,c=1.4")
    ('mcts', {'time': 1, 'c': 1.4})
    >>> parse_agent_spec("greedy")
    ('greedy', {})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise SolversError("an agent spec looks like 'mcts:time=1,c=1.4'")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    if not kind:
        raise SolversError(f"agent spec {spec!r} has no kind before ':'")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq or not key:
            raise SolversError(f"agent option {part!r} should read name=value")
        if key in options:
            raise SolversError(f"agent option {key!r} is given twice")
        options[key] = _parse_value(value.strip())
    return kind, options
