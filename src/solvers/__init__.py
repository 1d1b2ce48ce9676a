"""solvers: play and solve Coast to Coast, Switchbacks, Big Sur and Santa Cruz.

>>> import solvers
>>> game = solvers.load_game("c2c", players=1, challenge="Wrigley Field")
>>> state = game.new_initial_state(seed=3)

Every game comes twice behind one interface (:mod:`solvers.game`): the fast
Cython kernel (default) and the readable pure-Python reference
(``reference=True``). From the same seed both deal the same game.
"""

from __future__ import annotations

from typing import Any

from .errors import IllegalActionError, SolversError, UnknownNameError
from .game import CHANCE, TERMINAL, Game, State

__version__ = "0.1.0"

def game_names() -> list[str]:
    """The short names of the games in the library (their records, :mod:`solvers.registry`)."""
    from .registry import games

    return [g.name for g in games()]


def canonical_game_name(name: str) -> str:
    """A game's short name from its name or an alias, any case.

    >>> canonical_game_name("Coast-to-Coast")
    'c2c'
    """
    from .registry import game_info

    return game_info(name).name


def load_game(name: str, players: int | None = None, *, reference: bool = False,
              **options: Any) -> Game:
    """Build a game by its short name (or an alias).

    ``players`` is the number of seats (default: the game's record's
    ``default_players``, 1 for Coast to Coast, 2 for Switchbacks); other
    keyword options are the game's own, as its record lists them (Coast to
    Coast: ``challenge``, ``map``). An option that names a data file (a
    map, a card file) takes a path or the file's content, the decoded JSON
    object. ``reference=True`` gives the pure-Python reference
    implementation instead of the Cython kernel.
    """
    from .registry import game_info

    info = game_info(name)
    if players is None:
        players = info.default_players
    info.check_options(options, players)
    options = info.load_contents(options)
    cls = info.game_class(reference)
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
