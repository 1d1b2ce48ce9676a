"""The agent interface, the registry and the ``kind:option=value`` specs."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Callable

from ..errors import SolversError, UnknownNameError
from ..game import CHANCE, TERMINAL, Game, State
from ..limits import check_seed
from ..rng import SplitMix64, seed_from


class Agent(ABC):
    """A player: ``step(state)`` chooses an action for the player to move;
    ``analyse(state)`` ranks the legal actions, best first, as dicts
    ``{"action", "move", "value", "visits"}``.

    An agent reads a state only through what the player to move may know:
    searches re-deal everything hidden from that player before looking.
    Every random choice flows from the ``seed`` option (each call draws a
    fresh sub-seed, so a game replays identically from the same seed).
    """

    kind: str = ""
    options: tuple[str, ...] = ("seed",)

    def __init__(self, game: Game, seed: int | None = None):
        self.game = game
        self.seed = None if seed is None else check_seed("seed", seed)
        self.rng = SplitMix64(seed_from(seed))

    def _check(self, state: State) -> int:
        player = state.current_player()
        if player == CHANCE:
            raise SolversError("a chance node is not a decision: resolve chance first")
        if player == TERMINAL:
            raise SolversError("the game is over: there is no move to make")
        return player

    @staticmethod
    def _row(state: State, action: int, value: float, visits: int = 0) -> dict[str, Any]:
        return {"action": action, "move": state.action_to_string(action), "value": float(value),
                "visits": int(visits)}

    @abstractmethod
    def analyse(self, state: State) -> list[dict[str, Any]]: ...

    def step(self, state: State) -> int:
        """The action this agent plays in ``state``."""
        return self.analyse(state)[0]["action"]

    def check_match(self) -> None:
        """Raise SolversError when this agent cannot play whole games of its
        game (called before a match starts, so that it fails at once with the
        reason rather than at the first move). Most agents can."""

    def __repr__(self) -> str:
        return f"<{self.kind} agent>"


_REGISTRY: dict[str, Callable[..., Agent]] = {}


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
