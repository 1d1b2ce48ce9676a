"""Agents that search: Monte Carlo tree search and exact endgame search."""

from __future__ import annotations

import math
import threading
from typing import Any

from ..errors import SolversError
from ..game import Game, State
from ..limits import MAX_NODES, check_seconds, check_whole
from ..rng import SplitMix64
from ..search.endgame import DEFAULT_MAX_NODES, expected_endgame
from ..search.mcts import DEFAULT_C, ROLLOUTS, mcts_search, playout_plies, thread_allowance
from .base import Agent, register


def _number(name: str, value: Any, minimum: float) -> float:
    if (isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= minimum
            or not math.isfinite(value)):
        raise SolversError(f"{name} must be a finite number >= {minimum}, not {value!r}")
    return float(value)


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise SolversError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


#: The ``model`` option when it is not given (None is "no model").
_NOT_GIVEN: Any = object()

#: With a time budget the exact endgame search of ``mcts:endgame_plies=N``
#: gives up (as at its node budget) after the budget or this many seconds,
#: whichever is longer: about what 300,000 nodes of Switchbacks' search take
#: on an idle machine, so that there the node budget decides, as when the
#: hand-over's strength was measured, and a loaded or slow machine still
#: answers in bounded time.
ENDGAME_SECONDS_FLOOR = 0.3
#: Random playouts whose longest decides whether a position is within
#: ``endgame_plies`` of the end (the hand-over's test).
HAND_OVER_PLAYOUTS = 8


@register("mcts")
class MCTSAgent(Agent):
    """Information-set MCTS for the player to move (C when the game offers its
    C tables, else Python; :mod:`solvers.search.mcts`).

    Options: ``iterations`` and/or ``time`` (seconds; default 1000
    iterations), ``seed``, ``c`` (exploration; default: the game's
    ``Game.default_c``, 1.4 unless the game measured better with another),
    ``rollout_plies`` (0 = random playouts to the end), ``endgame_plies``
    (when random playouts from here end within that many actions, try the
    exact endgame search first, with ``endgame_nodes`` nodes at most and
    ``samples`` determinisations, and with a ``time`` budget for no longer
    than that or :data:`ENDGAME_SECONDS_FLOOR`, whichever is longer; if it is
    too large, search with MCTS; by default the game's ``Game.default_endgame_plies`` and
    ``default_endgame_nodes`` when there is a ``time`` budget and the backend
    is not ``python``, else 0: Switchbacks with 2 seats hands over about the
    last 8 tiles),
    ``backend`` (auto, c, python), ``max_nodes`` (tree size bound),
    ``rollout``: who plays the kernel's playout policy in rollouts, where it
    has one (``policy``: every seat; ``own``: this player only, the others
    move at random; ``random``: nobody; by default the game's choice,
    ``Game.default_rollout``: ``own`` for Switchbacks, ``policy`` elsewhere),
    ``threads``: how many trees to search at once, in parallel threads, their
    root statistics merged (root parallelism,
    :class:`solvers.search.mcts.RootParallelSearch`; C backend only). By
    default a search with a time budget takes every core it is allowed
    (:func:`solvers.search.mcts.thread_allowance`) and one with only an
    iteration budget one thread, so that a seed gives the same moves on any
    machine; ``threads=1`` is the single-tree search, bit for bit, and an
    iteration budget with a given ``threads`` is reproducible too.
    ``model``: a learned leaf evaluation (:mod:`solvers.learn`; C backend
    only): a model file, ``default`` (the one the package ships for the game
    and seat count) or ``none`` (rollouts only); when the option is not
    given, the shipped model if there is one (and the backend is not
    ``python``), else none. ``mix`` (0 to 1):
    the model's weight at a leaf against a rollout's result (default: the
    model's own setting; 1 is the model alone, no rollout); with a model, a
    rollout cut by ``rollout_plies`` is valued there by the model (default
    ``rollout_plies``: the model's own setting).

    Ranking: most visits first; ``value`` is the mean return of the player to
    move after the action. :meth:`stop` ends either search early.
    """

    options = ("seed", "iterations", "time", "c", "rollout_plies", "endgame_plies", "endgame_nodes",
               "samples", "backend", "max_nodes", "rollout", "threads", "model", "mix")
    stoppable = True

    def __init__(self, game: Game, seed: int | None = None, iterations: int | None = None,
                 time: float | None = None, c: float | None = None, rollout_plies: int | None = None,
                 endgame_plies: int | None = None, endgame_nodes: int | None = None, samples: int = 8,
                 backend: str = "auto", max_nodes: int | None = None, rollout: str | None = None,
                 threads: int | None = None, model: Any = _NOT_GIVEN, mix: float | None = None):
        super().__init__(game, seed)
        if iterations is None and time is None:
            iterations = 1000
        self.iterations = None if iterations is None else check_whole("iterations", iterations, 1)
        self.time = None if time is None else check_seconds("time", time)
        self.c = float(getattr(game, "default_c", DEFAULT_C)) if c is None else _number("c", c, 0.0)
        from ..learn.model import default_model, resolve_model

        # Not given: the shipped model, if any. None (a spec's 'model=none' reads
        # as None) or "none": no model.
        if model is _NOT_GIVEN:
            self.model = None if backend == "python" else default_model(game)
        else:
            self.model = resolve_model(model, game)
        if self.model is not None and backend == "python":
            raise SolversError("a learned model runs in the C search only: use backend=c or model=none")
        if rollout_plies is None:
            rollout_plies = self.model.rollout_plies if self.model is not None else 0
        self.rollout_plies = check_whole("rollout_plies", rollout_plies, 0)
        self.mix = None if mix is None else _number("mix", mix, 0.0)
        if self.mix is not None and self.mix > 1.0:
            raise SolversError(f"mix must be between 0 and 1, not {mix!r}")
        if endgame_plies is None:
            # The game's hand-over to the exact search, for a time budget in C
            # only (an iteration budget counts simulations: see Game).
            timed_c = self.time is not None and backend != "python"
            endgame_plies = int(getattr(game, "default_endgame_plies", 0)) if timed_c else 0
        if endgame_nodes is None:
            endgame_nodes = int(getattr(game, "default_endgame_nodes", 200_000))
        self.endgame_plies = check_whole("endgame_plies", endgame_plies, 0)
        self.endgame_nodes = check_whole("endgame_nodes", endgame_nodes, 1, MAX_NODES)
        self.samples = check_whole("samples", samples, 1)
        self.backend = _choice("backend", backend, ("auto", "c", "python"))
        self.max_nodes = None if max_nodes is None else check_whole("max_nodes", max_nodes, 1, MAX_NODES)
        if rollout is None:
            rollout = getattr(game, "default_rollout", "policy")
        self.rollout = _choice("rollout", rollout, ROLLOUTS)
        self.threads = None if threads is None else check_whole("threads", threads, 1, 1024)

    def search_threads(self) -> int:
        """The trees this agent searches at once (see the class docstring)."""
        if self.threads is not None:
            return self.threads
        return thread_allowance() if self.time is not None else 1

    def _hands_over(self, state: State, seed: int) -> bool:
        return (self.endgame_plies > 0
                and playout_plies(state, HAND_OVER_PLAYOUTS, seed) <= self.endgame_plies)

    def near_end(self, state: State) -> bool:
        """Whether the next analysis of ``state`` tries the exact endgame
        search first (the seed it will draw, peeked at, not drawn)."""
        return self._hands_over(state, SplitMix64(self.rng.state).next())

    def _analyse(self, state: State) -> list[dict[str, Any]]:
        player = state.current_player()
        seed = self.rng.next()
        if self._hands_over(state, seed):
            deadline: threading.Timer | None = None
            late = threading.Event()

            def track(solver: Any) -> None:
                nonlocal deadline
                self._track(solver)
                if self.time is not None:
                    # A time budget bounds the exact search's clock too (it
                    # gives up as at its node budget).
                    def too_late() -> None:
                        late.set()
                        solver.stop()

                    deadline = threading.Timer(max(self.time, ENDGAME_SECONDS_FLOOR), too_late)
                    deadline.daemon = True
                    deadline.start()

            try:
                r = expected_endgame(state, samples=self.samples, seed=seed, max_nodes=self.endgame_nodes,
                                     backend=self.backend, track=track)
            except SolversError:
                pass   # too large after all: search with MCTS
            else:
                self._search = None     # the solver's memory goes now, not at the next move
                # (a user's stop: the re-deals solved by then; with none, MCTS stops at once too)
                if r.action_values and not (late.is_set() and r.stopped):
                    return [self._row(state, a, vec[player], n) for a, vec, n in r.action_values]
            finally:
                if deadline is not None:
                    deadline.cancel()
        found = mcts_search(state, iterations=self.iterations, time=self.time, c=self.c, seed=seed,
                        rollout_plies=self.rollout_plies, backend=self.backend, max_nodes=self.max_nodes,
                        rollout=self.rollout, threads=self.search_threads(), track=self._track,
                        model=self.model, mix=self.mix)
        self._search = None
        rows = [self._row(state, a, v, n) for a, n, v in found.rows()]
        seen = {row["action"] for row in rows}
        # Actions the budget never tried come last, unvisited.
        rows += [self._row(state, a, 0.0, 0) for a in state.legal_actions() if a not in seen]
        return rows


@register("endgame")
class EndgameAgent(Agent):
    """Exact search to the end of the game (:mod:`solvers.search.endgame`),
    averaged over ``samples`` determinisations of what the player to move
    cannot see (default 16; a fully visible game needs one).

    Options: ``seed``, ``samples``, ``max_nodes`` (give up with SolversError
    beyond it), ``mode`` (auto, alphabeta, maxn), ``backend``. ``value`` is
    the mean exact return of the player to move after the action and
    ``visits`` the number of determinisations in which it was legal.
    :meth:`stop` ends the search with the determinisations solved so far
    (none: every move unvisited, valued 0).
    """

    options = ("seed", "samples", "max_nodes", "mode", "backend")
    stoppable = True

    def __init__(self, game: Game, seed: int | None = None, samples: int = 16,
                 max_nodes: int = DEFAULT_MAX_NODES, mode: str = "auto", backend: str = "auto"):
        super().__init__(game, seed)
        self.samples = check_whole("samples", samples, 1)
        self.max_nodes = check_whole("max_nodes", max_nodes, 1, MAX_NODES)
        self.mode = _choice("mode", mode, ("auto", "alphabeta", "maxn"))
        self.backend = _choice("backend", backend, ("auto", "c", "python"))

    #: The node budget of the trial search :meth:`check_match` makes.
    probe_nodes = 500_000

    def check_match(self) -> None:
        """Refuse a whole game when the exact search cannot settle its first
        decision (one determinisation, at most :attr:`probe_nodes` nodes).

        Handing over to MCTS instead would play a different agent under this
        one's name; ``mcts:endgame_plies=N`` is that hybrid, named as such.
        """
        state = self.game.new_initial_state(seed=0)
        state.apply_seeded_chance()
        if state.is_terminal():
            return
        budget = min(self.max_nodes, self.probe_nodes)
        try:
            expected_endgame(state, samples=1, seed=0, mode=self.mode, max_nodes=budget,
                             backend=self.backend)
        except SolversError:
            raise SolversError(
                f"the endgame agent searches exactly to the end of the game, and the first "
                f"move of a {getattr(self.game, 'name', 'whole')} game needs more than "
                f"{budget:,} nodes: use it on late positions, or play "
                f"'mcts:endgame_plies=30' (MCTS, handing over to the exact search near the end)"
            ) from None

    def _analyse(self, state: State) -> list[dict[str, Any]]:
        player = state.current_player()
        r = expected_endgame(state, samples=self.samples, seed=self.rng.next(), mode=self.mode,
                             max_nodes=self.max_nodes, backend=self.backend, track=self._track)
        self._search = None
        return ([self._row(state, a, vec[player], n) for a, vec, n in r.action_values]
                or self._unsearched(state))
