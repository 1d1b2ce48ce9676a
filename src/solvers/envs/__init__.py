"""The games as reinforcement-learning environments: PettingZoo and Gymnasium.

    >>> import solvers.envs
    >>> env = solvers.envs.env("bigsur", players=3)          # doctest: +SKIP
    >>> env.reset(seed=1)                                     # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = env.last() # doctest: +SKIP
    >>> sorted(obs)                                           # doctest: +SKIP
    ['action_mask', 'observation']

* :func:`env` / :func:`raw_env`: any game, any player count, as a
  PettingZoo AEC environment in the ``classic`` family's style
  (:mod:`solvers.envs.aec`).
* :func:`solo_env`: a one-seat game (solo Coast to Coast, with an optional
  challenge) as a Gymnasium environment (:mod:`solvers.envs.solo`);
  :func:`register_gymnasium` makes it ``gymnasium.make("solvers/c2c-solo-v0")``.

Observations are each game's own encoding (its record's ``encoding``,
``solvers/games/<game>/encoding.py``; ``docs/envs.md`` lists the blocks),
computed from what the observing seat may see only. PettingZoo and
Gymnasium are imported when an environment is built, never by ``import
solvers``; install them with ``pip install 'solvers[envs]'``.
"""

from __future__ import annotations

from typing import Any

from ..errors import SolversError

INSTALL_HINT = "pip install 'solvers[envs]'"


def _need(module: str) -> None:
    try:
        __import__(module)
    except ImportError:
        raise SolversError(f"solvers.envs needs {module}: {INSTALL_HINT}") from None


def _build(name: str, players: int | None, reference: bool, options: dict[str, Any]) -> tuple[Any, Any]:
    import solvers

    from ..registry import game_info

    info = game_info(name)
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)
                                or not info.min_players <= players <= info.max_players):
        raise SolversError(f"{info.name} takes {info.min_players} to {info.max_players} players, "
                           f"not {players!r}")
    return solvers.load_game(info.name, players, reference=reference, **options), info


def raw_env(name: str, players: int | None = None, *, render_mode: str | None = None,
            render_seat: int | None = None, reference: bool = False, **options: Any) -> Any:
    """The unwrapped AEC environment of a game (:class:`~solvers.envs.aec.SolversAECEnv`).

    ``players`` and ``options`` are those of :func:`solvers.load_game`;
    ``render_mode`` is ``"ansi"`` (``render()`` returns the text) or
    ``"human"`` (it prints it); the drawing is for ``render_seat``, or for
    the agent to act when None, and shows only what that seat may see."""
    _need("pettingzoo")
    from .aec import SolversAECEnv

    game, info = _build(name, players, reference, options)
    return SolversAECEnv(game, info, render_mode=render_mode, render_seat=render_seat)


def env(name: str, players: int | None = None, *, render_mode: str | None = None,
        render_seat: int | None = None, illegal_reward: float = -1.0, reference: bool = False,
        **options: Any) -> Any:
    """A game as a PettingZoo AEC environment, wrapped as PettingZoo's
    classic environments are: an illegal action ends the game with
    ``illegal_reward`` for the player who made it, out-of-range actions
    and calls out of order are refused. See :func:`raw_env` for the rest."""
    _need("pettingzoo")
    from pettingzoo.utils import wrappers

    e = raw_env(name, players, render_mode=render_mode, render_seat=render_seat,
                reference=reference, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def solo_env(name: str, *, render_mode: str | None = None, illegal_reward: float = -1.0,
             reference: bool = False, **options: Any) -> Any:
    """A one-seat game as a Gymnasium environment (:class:`~solvers.envs.solo.SoloEnv`);
    ``options`` are the game's (Coast to Coast: ``challenge``, ``map``)."""
    _need("gymnasium")
    from .solo import SoloEnv

    game, info = _build(name, 1, reference, options)
    return SoloEnv(game, info, render_mode=render_mode, illegal_reward=illegal_reward)


def register_gymnasium() -> list[str]:
    """Register every one-seat game with Gymnasium as ``solvers/NAME-solo-v0``
    (``gymnasium.make("solvers/c2c-solo-v0", challenge="The Alamo")``); the
    ids registered. Calling it again is harmless."""
    _need("gymnasium")
    import gymnasium

    from ..registry import games

    ids = []
    for info in games():
        if info.min_players != 1:
            continue
        env_id = f"solvers/{info.name}-solo-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="solvers.envs:solo_env", kwargs={"name": info.name})
        ids.append(env_id)
    return ids


__all__ = ["env", "raw_env", "solo_env", "register_gymnasium", "INSTALL_HINT"]
