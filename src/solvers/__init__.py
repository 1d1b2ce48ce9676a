"""solvers: play and solve Coast to Coast, Switchbacks, Big Sur and Santa Cruz.

>>> import solvers
>>> game = solvers.load_game("c2c", players=1, challenge="Wrigley Field")
>>> state = game.new_initial_state(seed=3)

Every game comes twice behind one interface (:mod:`solvers.game`): the fast
Cython kernel (default) and the readable pure-Python reference
(``reference=True``). From the same seed both deal the same game.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from .errors import IllegalActionError, SolversError, UnknownNameError
from .game import CHANCE, TERMINAL, Game, State

__version__ = "0.1.0"

# name -> (reference "module:Class", kernel "module:Class")
_GAMES: dict[str, tuple[str, str]] = {
    "c2c": ("solvers.games.c2c.reference:CoastToCoast", "solvers.games.c2c.kernel:CoastToCoastKernel"),
    "switchbacks": ("solvers.games.switchbacks.reference:Switchbacks", "solvers.games.switchbacks.kernel:SwitchbacksKernel"),
}
_DEFAULT_PLAYERS = {"c2c": 1, "switchbacks": 2}
_ALIASES = {
    "coast-to-coast": "c2c", "coast_to_coast": "c2c", "coasttocoast": "c2c",
}


def game_names() -> list[str]:
    """The short names of the games in the library."""
    return sorted(_GAMES)


def canonical_game_name(name: str) -> str:
    key = name.lower().strip()
    key = _ALIASES.get(key, key)
    if key not in _GAMES:
        raise UnknownNameError("game", name, game_names())
    return key


def _load(path: str) -> Any:
    module, _, attr = path.partition(":")
    return getattr(import_module(module), attr)


def load_game(name: str, players: int | None = None, *, reference: bool = False,
              **options: Any) -> Game:
    """Build a game by its short name.

    ``players`` is the number of seats (default: the game's smallest, 1 for
    Coast to Coast, 2 for Switchbacks); other keyword options are the game's
    own (Coast to Coast: ``challenge``, ``map``). ``reference=True`` gives the
    pure-Python reference implementation instead of the Cython kernel.
    """
    key = canonical_game_name(name)
    ref_path, kernel_path = _GAMES[key]
    cls = _load(ref_path if reference else kernel_path)
    if players is None:
        players = _DEFAULT_PLAYERS.get(key, 1)
    return cls(players=players, **options)


def load_agent(kind: str, game: Game, **options: Any):
    """An AI player for ``game``: ``random``, ``greedy``, ``mcts`` or ``endgame``.

    >>> import solvers
    >>> game = solvers.load_game("c2c", challenge="The Alamo")
    >>> agent = solvers.load_agent("mcts", game, iterations=500, seed=1)

    ``agent.step(state)`` returns an action for the player to move;
    ``agent.analyse(state)`` ranks the legal actions. See :mod:`solvers.agents`.
    """
    from .agents import load_agent as _load_agent

    return _load_agent(kind, game, **options)


__all__ = [
    "load_agent",
    "CHANCE", "TERMINAL", "Game", "State", "SolversError", "IllegalActionError",
    "UnknownNameError", "load_game", "game_names", "canonical_game_name", "__version__",
]
