"""Throughput for Python callers: many random games, or one step of many
states, in one call that runs in C without the GIL.

A ply through ``state.legal_actions()`` / ``state.apply_action()`` costs a
few hundred nanoseconds of Python on top of the kernel; a caller that needs
thousands of games (a statistic, a baseline, training data) can have them
played in C instead. Everything here works for every game with a C kernel
(it only uses the game's ``GameDef`` table, ``solvers._core.game_api``),
and every result is fixed by ``seed``.

    >>> import solvers
    >>> from solvers.batch import random_games
    >>> r = random_games("santacruz", 200, seed=1, players=2)
    >>> r.returns.shape, r.lengths.shape, bool((r.lengths > 0).all())
    ((200, 2), (200,), True)
    >>> bool((random_games("santacruz", 200, seed=1, players=2).returns == r.returns).all())
    True

:class:`StateBatch` holds many states of one game and steps them together::

    >>> game = solvers.load_game("switchbacks")
    >>> batch = StateBatch(game, [game.new_initial_state(seed=s) for s in range(8)])
    >>> while not batch.all_over():
    ...     batch.apply(batch.random_actions(seed=len(batch.history)))
    >>> batch.returns().shape
    (8, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from ._core import batch as _cbatch  # type: ignore[attr-defined]
from .errors import SolversError
from .game import Game, State
from .rng import seed_from


class RandomGames(NamedTuple):
    """What :func:`random_games` returns.

    ``returns``: float64 ``(n, players)``, each game's ``GameDef.returns``
    (the search utility, the game's result for every game but solo Coast to
    Coast, where it is the score scaled); ``lengths``: int32 ``(n,)``,
    actions per game, chance included; ``histories``: int32 ``(n,
    max_game_length)`` of the actions played, padded with -1, when asked
    for, else None.
    """

    returns: np.ndarray
    lengths: np.ndarray
    histories: np.ndarray | None


def _kernel_game(game: Game | str, options: dict[str, Any]) -> Game:
    if isinstance(game, str):
        from . import load_game

        return load_game(game, **options)
    if options:
        raise SolversError("game options go with a game name, not a loaded game")
    if not isinstance(game, Game):
        raise SolversError(f"expected a game or a game name, not {type(game).__name__}")
    if not hasattr(game, "_gamedef_capsule"):
        raise SolversError(f"{game!r} has no C kernel: batch play needs one")
    return game


def policy_mask(game: Game, policy: str | Iterable[int] | None) -> int:
    """The seats (a bit each) that follow the game's playout policy:
    ``None`` or ``"random"`` none (every move uniformly random), ``"policy"``
    all, or the seats named."""
    if policy is None or policy == "random":
        return 0
    if policy == "policy":
        return (1 << game.num_players) - 1
    if isinstance(policy, str):
        raise SolversError(f"unknown policy {policy!r}: use 'random', 'policy' or a list of seats")
    mask = 0
    for seat in policy:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
            raise SolversError(f"no seat {seat!r} in a {game.num_players}-player game")
        mask |= 1 << seat
    return mask


def _count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise SolversError(f"the number of {what} should be a whole number >= 0, not {n!r}")
    return int(n)


def random_games(game: Game | str, n: int, seed: int | None = 0, *, state: State | None = None,
                 policy: str | Iterable[int] | None = None, histories: bool = False,
                 threads: int = 1, **options: Any) -> RandomGames:
    """Play ``n`` games in C from ``state`` (default: the game's initial
    state for ``seed``) to the end and return their :class:`RandomGames`.

    ``game``: a kernel game, or a game name with its load options
    (``random_games("c2c", 1000, players=2)``). Chance is drawn with the
    game's chance distribution; the seats ``policy`` names (see
    :func:`policy_mask`) follow the game's playout policy and the others
    move uniformly at random over their legal actions. Game ``i`` draws
    from ``SplitMix64`` seeded with the ``i``-th output of
    ``SplitMix64(seed)``: the same ``seed`` gives the same games, however
    many are asked for and for any ``threads``.
    """
    game = _kernel_game(game, options)
    n = _count(n, "games")
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise SolversError(f"threads should be a whole number >= 1, not {threads!r}")
    seed64 = seed_from(seed)
    if state is None:
        state = game.new_initial_state(seed=seed64)
    else:
        _check_states(game, [state])
    mask = policy_mask(game, policy)
    rets, lengths, hist = _cbatch.random_games(game._gamedef_capsule(), state._state_capsule(), n,
                                               seed64, mask, bool(histories), threads)
    return RandomGames(rets, lengths, hist)


def _check_states(game: Game, states: Sequence[Any]) -> None:
    """Raise SolversError unless every state is a kernel state of ``game``
    (its own or one of a game with the same options: the same struct)."""
    model = game.new_initial_state(seed=0)
    for s in states:
        if s.__class__ is not model.__class__ or (getattr(s, "game", None) is not game
                                                  and repr(s.game) != repr(game)):
            raise SolversError(f"expected states of {game!r}, not {type(s).__name__}")


class StateBatch:
    """Copies of many states of one kernel game, stepped together in C.

    ``history`` lists the action arrays :meth:`apply` played, in order
    (one int32 ``(n,)`` array per call, -1 where a state was left alone).
    :meth:`state` gives one of them back as an ordinary state.
    """

    def __init__(self, game: Game, states: Sequence[State]):
        game = _kernel_game(game, {})
        states = list(states)
        _check_states(game, states)
        self.game = game
        self._array = _cbatch.StateArray(game._gamedef_capsule(), [s._state_capsule() for s in states])
        self._before = [list(s.history) for s in states]
        self.history: list[np.ndarray] = []

    def __len__(self) -> int:
        return self._array.size

    def current_players(self) -> np.ndarray:
        """int32 ``(n,)``: the seat to move in each state, -1 at a chance
        node, -4 when the game is over."""
        return self._array.current_players()

    def all_over(self) -> bool:
        """Whether every game has ended."""
        return bool((self._array.current_players() == -4).all())

    def legal_actions(self) -> tuple[np.ndarray, np.ndarray]:
        """``(actions, counts)``: int32 ``(n, max_actions)`` padded with -1
        and int32 ``(n,)`` (the chance outcomes at a chance node)."""
        return self._array.legal_actions()

    def returns(self) -> np.ndarray:
        """float64 ``(n, players)``: every state's ``GameDef.returns``."""
        return self._array.returns()

    def random_actions(self, seed: int | None = 0, policy: str | Iterable[int] | None = None) -> np.ndarray:
        """int32 ``(n,)``: one move per state as :func:`random_games` would
        make it (-1 for a finished game), from ``seed``."""
        return self._array.random_actions(seed_from(seed), policy_mask(self.game, policy))

    def apply(self, actions: Sequence[int] | np.ndarray) -> None:
        """Apply ``actions[i]`` to state ``i`` (a negative action skips it);
        all are checked first, and an illegal one raises
        IllegalActionError and changes nothing."""
        self._array.apply(actions)
        self.history.append(np.array(actions, dtype=np.int32))

    def state(self, i: int) -> State:
        """State ``i`` as an ordinary state of the game, its history the
        given state's followed by the actions applied here."""
        i = _count(i, "the state")
        if i >= len(self):
            raise SolversError(f"no state {i} in a batch of {len(self)}")
        state = self.game.state_from_raw(self._array.raw(i))
        state.history = self._before[i] + [int(a[i]) for a in self.history if a[i] >= 0]
        return state
