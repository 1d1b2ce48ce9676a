"""Monte Carlo tree search over any :class:`solvers.game.State`.

Two backends behind one call, :func:`mcts_search`:

* **C** (``solvers._core.mcts``) when the state hands out its C tables
  (``state.game._gamedef_capsule()`` and ``state._state_capsule()``): the
  whole loop runs without the GIL, about a million iterations a second on a
  small game.
* **Python** (:class:`MCTS` here) for every other state, the pure-Python
  reference games included. It follows the same algorithm, written
  OpenSpiel-style as a :class:`SearchNode` tree plus an evaluator
  (:class:`RandomRolloutEvaluator`).

The algorithm: UCT (Kocsis and Szepesvari, ECML 2006) with chance nodes and
max^n backup of the return vectors (the player to move at a node maximises
its own mean return), and single-observer information-set MCTS (Cowling,
Powley and Whitehouse, IEEE TCIAIG 2012) for hidden information: each
iteration searches a fresh determinisation of the root (``resample`` in
Python, ``determinize`` in C), children are keyed by the action as the
searching player observes it, and UCB uses availability counts (its
exploration constant ``c``: the caller's, else the game's ``default_c``,
:func:`exploration`). A Python
state without ``resample`` is treated as fully visible; chance outcomes are
always drawn from ``chance_outcomes()``, never from the state's seed.

    >>> from solvers._core.toygames import TicTacToe
    >>> state = TicTacToe().new_initial_state()
    >>> for a in (0, 3, 1, 4):
    ...     state.apply_action(a)
    >>> mcts_search(state, iterations=2000, seed=1).action          # C
    2
    >>> mcts_search(state, iterations=2000, seed=1, backend="python").action
    2
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import SolversError
from ..game import State
from ..limits import MAX_ITERATIONS, MAX_NODES, check_seconds, check_whole
from ..rng import SplitMix64, seed_from

#: Who plays a kernel's playout policy in C rollouts (see :func:`make_search`).
ROLLOUTS = ("policy", "own", "random")
#: UCB's exploration constant where neither the caller nor the game
#: (``Game.default_c``) names one; returns run from 0 to 1.
DEFAULT_C = 1.4

HIDDEN = -2  # an action the searching player cannot see (GAME_HIDDEN in C)


@dataclass
class SearchResult:
    """What a search found, root actions ranked best first (most visits)."""

    player: int
    action: int | None
    actions: list[int]
    visits: list[int]
    values: list[float]               # mean return of ``player`` after each action
    value_vectors: list[list[float]]  # mean return of every seat
    iterations: int
    nodes: int
    seconds: float
    backend: str

    @classmethod
    def from_dict(cls, d: dict[str, Any], backend: str) -> "SearchResult":
        keys = ("player", "action", "actions", "visits", "values", "value_vectors",
                "iterations", "nodes", "seconds")
        return cls(**{k: d[k] for k in keys}, backend=backend)

    def rows(self) -> list[tuple[int, int, float]]:
        """(action, visits, value) best first."""
        return list(zip(self.actions, self.visits, self.values, strict=True))


def has_kernel(state: State) -> bool:
    """Whether ``state`` offers the C tables the C searches need."""
    return hasattr(state, "_state_capsule") and hasattr(getattr(state, "game", None), "_gamedef_capsule")


def _check_budget(iterations: int | None, time: float | None) -> None:
    if iterations is None and time is None:
        raise SolversError("give a budget: iterations and/or time")
    if iterations is not None:
        check_whole("iterations", iterations, 0, MAX_ITERATIONS)
    if time is not None:
        check_seconds("time", time)


def _check_root(state: State) -> int:
    if state.is_terminal():
        raise SolversError("the game is over: there is nothing to search")
    if state.is_chance_node():
        raise SolversError("a chance node is not a decision: resolve chance first")
    return state.current_player()


def sample_outcome(state: State, rng: SplitMix64) -> int:
    """A chance outcome drawn with its probability."""
    outcomes = state.chance_outcomes()
    u = (rng.next() >> 11) * (1.0 / 9007199254740992.0)
    acc = 0.0
    for action, prob in outcomes:
        acc += prob
        if u < acc:
            return action
    return outcomes[-1][0]


class Evaluator(Protocol):
    def evaluate(self, state: State, rng: SplitMix64) -> list[float]: ...


class RandomRolloutEvaluator:
    """The value of a state: the returns after uniformly random play to the
    end (or ``rollout_plies`` actions; 0 means no cap).

    >>> from solvers._core.toygames import Pig
    >>> state = Pig(players=1, target=4, die=2, max_turns=1).new_initial_state()
    >>> RandomRolloutEvaluator().evaluate(state, SplitMix64(3))
    [0.0]
    """

    def __init__(self, rollout_plies: int = 0):
        self.rollout_plies = rollout_plies

    def evaluate(self, state: State, rng: SplitMix64) -> list[float]:
        plies = 0
        while not state.is_terminal() and (self.rollout_plies == 0 or plies < self.rollout_plies):
            if state.is_chance_node():
                state.apply_action(sample_outcome(state, rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))] if len(legal) > 1 else legal[0])
            plies += 1
        return list(state.returns())


class SearchNode:
    """A node of the Python tree: visits, availability and the sum of the
    return vectors backed up through it; children keyed by observed action."""

    __slots__ = ("key", "visits", "avail", "total", "children")

    def __init__(self, key: int, players: int):
        self.key = key
        self.visits = 0
        self.avail = 1
        self.total = [0.0] * players
        self.children: dict[int, SearchNode] = {}

    def ucb(self, player: int, c: float) -> float:
        return self.total[player] / self.visits + c * math.sqrt(math.log(self.avail) / self.visits)


class MCTS:
    """The Python search: the same algorithm and result as the C one.

    ``run(iterations=..., time=...)`` may be called again to search on;
    ``stop()`` (from another thread) ends a running search early (a stop
    that comes before ``run`` makes it return at once).
    """

    def __init__(self, state: State, *, c: float | None = None, seed: int | None = 0,
                 rollout_plies: int = 0, determinize: bool = True,
                 evaluator: Evaluator | None = None, max_nodes: int | None = None):
        self.player = _check_root(state)
        c = exploration(state, c)
        if max_nodes is not None:
            check_whole("max_nodes", max_nodes, 1, MAX_NODES)
        self.max_nodes = max_nodes
        if not c >= 0:
            raise SolversError(f"the exploration constant must be >= 0, not {c}")
        if rollout_plies < 0:
            raise SolversError(f"rollout_plies must be >= 0, not {rollout_plies}")
        self.root_state = state.clone()
        self.players = state.game.num_players
        self.c = c
        self.rng = SplitMix64(seed_from(seed))
        self.evaluator = evaluator or RandomRolloutEvaluator(rollout_plies)
        self.resample = determinize and hasattr(state, "resample")
        self.observe = hasattr(state, "action_observation")
        self.root = SearchNode(HIDDEN, self.players)
        self.nodes = 1
        self.iterations = 0
        self.seconds = 0.0
        self._stop = False

    def _key(self, state: State, action: int) -> int:
        return state.action_observation(action, self.player) if self.observe else action

    def _full(self) -> bool:
        return self.max_nodes is not None and self.nodes >= self.max_nodes

    def iterate(self) -> None:
        rng = self.rng
        st = self.root_state.resample(self.player, rng) if self.resample else self.root_state.clone()
        node = self.root
        path = [node]
        while not st.is_terminal():
            if st.is_chance_node():
                a = sample_outcome(st, rng)
                key = self._key(st, a)
                st.apply_action(a)
                child = node.children.get(key)
                if child is None:
                    if not self._full():
                        child = node.children[key] = SearchNode(key, self.players)
                        self.nodes += 1
                        path.append(child)
                    break
                path.append(child)
                node = child
                continue
            p = st.current_player()
            groups: dict[int, list[int]] = {}
            for a in st.legal_actions():
                groups.setdefault(self._key(st, a), []).append(a)
            unexpanded = []
            for key in groups:
                child = node.children.get(key)
                if child is None:
                    unexpanded.append(key)
                else:
                    child.avail += 1
            if unexpanded and not self._full():
                key = unexpanded[rng.below(len(unexpanded))] if len(unexpanded) > 1 else unexpanded[0]
                acts = groups[key]
                st.apply_action(acts[rng.below(len(acts))] if len(acts) > 1 else acts[0])
                child = node.children[key] = SearchNode(key, self.players)
                self.nodes += 1
                path.append(child)
                break
            available = [node.children[k] for k in groups if k in node.children]
            if not available:            # the tree is full and nothing here was expanded
                legal = st.legal_actions()
                st.apply_action(legal[rng.below(len(legal))])
                break
            best = max(available, key=lambda ch: ch.ucb(p, self.c))
            acts = groups[best.key]
            st.apply_action(acts[rng.below(len(acts))] if len(acts) > 1 else acts[0])
            path.append(best)
            node = best
        value = self.evaluator.evaluate(st, rng)
        for n in path:
            n.visits += 1
            for k in range(self.players):
                n.total[k] += value[k]

    def run(self, iterations: int | None = None, time: float | None = None) -> SearchResult:
        _check_budget(iterations, time)
        start = _time.perf_counter()
        done = 0
        while (iterations is None or done < iterations) and not self._stop:
            if time is not None and _time.perf_counter() - start >= time:
                break
            self.iterate()
            done += 1
        self._stop = False
        self.iterations += done
        self.seconds += _time.perf_counter() - start
        return self.result()

    def stop(self) -> None:
        self._stop = True

    def result(self) -> SearchResult:
        rows = []
        for key, ch in self.root.children.items():
            if ch.visits > 0 and key >= 0:
                vec = [t / ch.visits for t in ch.total]
                rows.append((key, ch.visits, vec[self.player], vec))
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return SearchResult(
            player=self.player, action=rows[0][0] if rows else None,
            actions=[r[0] for r in rows], visits=[r[1] for r in rows],
            values=[r[2] for r in rows], value_vectors=[r[3] for r in rows],
            iterations=self.iterations, nodes=self.nodes, seconds=self.seconds, backend="python",
        )


class CSearch:
    """The C search (``solvers._core.mcts.Search``) with the Python result type."""

    def __init__(self, state: State, *, c: float | None = None, seed: int | None = 0,
                 rollout_plies: int = 0, determinize: bool = True, max_nodes: int | None = None,
                 rollout: str | None = None, model: Any = None, mix: float | None = None):
        from .._core import mcts as _cmcts

        _check_root(state)
        c = exploration(state, c)
        kwargs: dict[str, Any] = {}
        if max_nodes is not None:
            kwargs["max_nodes"] = max_nodes
        if model is not None:
            # A learned leaf value (solvers.learn.model), evaluated in C at every leaf.
            kwargs.update(model.search_options(state.game))
            kwargs["mix"] = model.mix if mix is None else mix
        self._search = _cmcts.Search(
            state.game._gamedef_capsule(), state._state_capsule(), c=c, seed=seed_from(seed),
            rollout_plies=rollout_plies, determinize=determinize,
            rollout=rollout or getattr(state.game, "default_rollout", "policy"), **kwargs,
        )
        self.player = self._search.player

    def run(self, iterations: int | None = None, time: float | None = None) -> SearchResult:
        _check_budget(iterations, time)
        return SearchResult.from_dict(self._search.run(iterations=iterations, time=time), "c")

    def stop(self) -> None:
        self._search.stop()

    def result(self) -> SearchResult:
        return SearchResult.from_dict(self._search.result(), "c")

    @property
    def memory_bytes(self) -> int:
        return self._search.memory_bytes


def thread_seed(seed: int | None, index: int) -> int | None:
    """The seed of root search ``index`` of a parallel search: the search's
    own seed for the first (so that one thread is today's search, bit for
    bit), a fixed mix of it and ``index`` for the others."""
    if index == 0 or seed is None:
        return seed
    return SplitMix64(seed_from(seed) ^ (0x9E3779B97F4A7C15 * index & (2**64 - 1))).next()


def merge_results(results: list[SearchResult], seconds: float) -> SearchResult:
    """One result from independent searches of the same root (root
    parallelism): per root action the visits summed and the mean returns
    weighted by visits; ranked by visits, then value, then action (a fixed
    order, so that the merge does not depend on which search ended first)."""
    first = results[0]
    visits: dict[int, int] = {}
    totals: dict[int, list[float]] = {}
    for r in results:
        for a, n, vec in zip(r.actions, r.visits, r.value_vectors, strict=True):
            visits[a] = visits.get(a, 0) + n
            acc = totals.setdefault(a, [0.0] * len(vec))
            for k, v in enumerate(vec):
                acc[k] += v * n
    rows = []
    for a, n in visits.items():
        vec = [t / n for t in totals[a]] if n else totals[a]
        rows.append((a, n, vec[first.player], vec))
    rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
    return SearchResult(
        player=first.player, action=rows[0][0] if rows else None,
        actions=[r[0] for r in rows], visits=[r[1] for r in rows], values=[r[2] for r in rows],
        value_vectors=[r[3] for r in rows], iterations=sum(r.iterations for r in results),
        nodes=sum(r.nodes for r in results), seconds=seconds, backend=first.backend)


class RootParallelSearch:
    """Root parallelism (Chaslot, Winands and van den Herik, "Parallel
    Monte-Carlo Tree Search", Computers and Games 2008; for hidden
    information Cazenave and Jouandeau's single-run parallelisation):
    ``len(searches)`` independent trees of the same root, each in its own
    thread (the C loop runs without the GIL), their root statistics merged
    (:func:`merge_results`). An iteration budget is split between the trees
    in a fixed way and each tree has its own seed (:func:`thread_seed`), so
    the result for a seed depends on the number of trees, never on timing.
    ``stop()`` stops every tree."""

    def __init__(self, searches: list[Any]):
        if not searches:
            raise ValueError("a parallel search needs at least one search")
        self.searches = searches
        self.player = searches[0].player

    def stop(self) -> None:
        for s in self.searches:
            s.stop()

    def run(self, iterations: int | None = None, time: float | None = None) -> SearchResult:
        import threading

        _check_budget(iterations, time)
        n = len(self.searches)
        shares: list[int | None] = ([None] * n if iterations is None
                                    else [iterations // n + (1 if i < iterations % n else 0) for i in range(n)])
        results: list[SearchResult | None] = [None] * n
        errors: list[BaseException] = []

        def work(i: int) -> None:
            try:
                results[i] = self.searches[i].run(iterations=shares[i], time=time)
            except BaseException as e:  # re-raised in the calling thread below
                errors.append(e)

        start = _time.perf_counter()
        threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(1, n)]
        for t in threads:
            t.start()
        work(0)
        for t in threads:
            t.join()
        if errors:
            raise errors[0]
        return merge_results([r for r in results if r is not None], _time.perf_counter() - start)

    def result(self) -> SearchResult:
        return merge_results([s.result() for s in self.searches], 0.0)

    @property
    def memory_bytes(self) -> int:
        return sum(getattr(s, "memory_bytes", 0) for s in self.searches)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    tells it, else the machine's count)."""
    import os

    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


#: The threads a search may take when its caller does not say
#: (:func:`thread_allowance`); None: every core available.
_ALLOWANCE: int | None = None


def set_thread_allowance(threads: int | None) -> None:
    """Limit the threads of searches that take the default (an MCTS agent
    with a time budget and no ``threads`` option): a tournament playing
    ``w`` games at once gives each game ``cores // w``, ``solve serve``
    divides the cores between its concurrent searches. None: no limit."""
    global _ALLOWANCE
    _ALLOWANCE = None if threads is None else check_whole("threads", threads, 1, 1024)


def thread_allowance() -> int:
    """The threads a search takes by default: the allowance set by
    :func:`set_thread_allowance`, else every core available."""
    return _ALLOWANCE if _ALLOWANCE is not None else available_cores()


def make_parallel_search(state: State, *, threads: int = 1, iterations: int | None = None,
                         time: float | None = None, seed: int | None = 0,
                         max_nodes: int | None = None, **options: Any) -> Any:
    """A search of ``state`` over ``threads`` trees (:class:`RootParallelSearch`;
    one tree is the plain search of :func:`make_search`, which also takes
    ``options``), sized for its budget: a tree never has more nodes than its
    share of an iteration budget needs. The Python backend always has one tree."""
    threads = check_whole("threads", threads, 1, 1024)
    if iterations is not None:
        threads = max(1, min(threads, iterations))
    share = None if iterations is None else -(-iterations // threads)
    if max_nodes is None and share is not None and time is None:
        max_nodes = share + 1
    search: Any = make_search(state, seed=seed, max_nodes=max_nodes, **options)
    if threads > 1 and isinstance(search, CSearch):
        search = RootParallelSearch([search] + [
            make_search(state, seed=thread_seed(seed, i), max_nodes=max_nodes, **options)
            for i in range(1, threads)])
    return search


def exploration(state: State, c: float | None) -> float:
    """The exploration constant a search of ``state`` uses: ``c``, or when
    it is None the game's own (``Game.default_c``, 1.4 unless the game
    measured better with another)."""
    if c is None:
        return float(getattr(getattr(state, "game", None), "default_c", DEFAULT_C))
    if isinstance(c, bool) or not isinstance(c, (int, float)):
        raise SolversError(f"the exploration constant must be a number, not {c!r}")
    return c


def make_search(state: State, *, backend: str = "auto", c: float | None = None, seed: int | None = 0,
                rollout_plies: int = 0, determinize: bool = True,
                max_nodes: int | None = None, rollout: str | None = None,
                model: Any = None, mix: float | None = None) -> MCTS | CSearch:
    """A search object rooted at ``state`` (``run``/``stop``/``result``).

    ``backend``: ``"auto"`` (C when the state offers its tables), ``"c"`` or
    ``"python"``. ``rollout`` (C only; Python rollouts are uniformly random):
    who plays the kernel's own playout policy in rollouts when it has one:
    ``"policy"`` every seat, ``"own"`` the searching player only (the others
    move uniformly at random), ``"random"`` nobody; ``None`` takes the
    game's ``default_rollout``. ``model`` (C only): a learned leaf value
    (:class:`solvers.learn.model.Model`), weighted ``mix`` against rollouts
    (None: the model's own ``play`` setting); rollouts cut by
    ``rollout_plies`` are valued there by the model.
    """
    if backend not in ("auto", "c", "python"):
        raise SolversError(f"unknown search backend {backend!r}; use 'auto', 'c' or 'python'")
    if rollout is not None and rollout not in ROLLOUTS:
        raise SolversError(f"unknown rollout {rollout!r}; use {', '.join(map(repr, ROLLOUTS))}")
    if isinstance(rollout_plies, bool) or not isinstance(rollout_plies, int):
        raise SolversError(f"rollout_plies must be a whole number, not {rollout_plies!r}")
    c = exploration(state, c)
    if backend == "c" and not has_kernel(state):
        raise SolversError("this state has no C tables; use backend='python'")
    if model is not None and (backend == "python" or not has_kernel(state)):
        raise SolversError("a learned model runs in the C search only: use backend='c' (or model=none)")
    if backend == "python" or (backend == "auto" and not has_kernel(state)):
        return MCTS(state, c=c, seed=seed, rollout_plies=rollout_plies, determinize=determinize,
                    max_nodes=max_nodes)
    return CSearch(state, c=c, seed=seed, rollout_plies=rollout_plies, determinize=determinize,
                   max_nodes=max_nodes, rollout=rollout, model=model, mix=mix)


def mcts_search(state: State, *, iterations: int | None = None, time: float | None = None,
                c: float | None = None, seed: int | None = 0, rollout_plies: int = 0,
                determinize: bool = True, backend: str = "auto", max_nodes: int | None = None,
                rollout: str | None = None, threads: int = 1,
                track: Callable[[Any], Any] | None = None, model: Any = None,
                mix: float | None = None) -> SearchResult:
    """Search from ``state`` for the player to move and return the result.

    Budget: ``iterations`` and/or ``time`` seconds (the first reached ends
    the search). The same seed gives the same result for an iteration budget
    and the same ``threads``. ``threads`` > 1 searches that many trees in
    parallel threads and merges their root statistics
    (:class:`RootParallelSearch`; the C backend only: the Python search
    holds the GIL, so it always runs one tree). ``track``, when given, is
    called with the search before it runs: its ``stop()`` (from another
    thread) ends it with the result so far. ``model`` and ``mix``: a learned
    leaf value (:func:`make_search`).
    """
    _check_budget(iterations, time)
    search = make_parallel_search(state, threads=threads, iterations=iterations, time=time,
                                  backend=backend, c=c, seed=seed, rollout_plies=rollout_plies,
                                  determinize=determinize, max_nodes=max_nodes, rollout=rollout,
                                  model=model, mix=mix)
    if track is not None:
        track(search)
    return search.run(iterations=iterations, time=time)


def playout_plies(state: State, samples: int = 8, seed: int | None = 0) -> int:
    """The most actions that ``samples`` random playouts from ``state`` took
    (after re-dealing what the player to move cannot see): a cheap estimate
    of how many plies are left."""
    rng = SplitMix64(seed_from(seed))
    player = state.current_player()
    if has_kernel(state):
        from .._core import mcts as _cmcts

        return _cmcts.playout_plies(state.game._gamedef_capsule(), state._state_capsule(),
                                    samples, rng.next(), player if player >= 0 else -1)
    most = 0
    for _ in range(samples):
        st = state.resample(player, rng) if player >= 0 and hasattr(state, "resample") else state.clone()
        plies = 0
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(sample_outcome(st, rng))
            else:
                legal = st.legal_actions()
                st.apply_action(legal[rng.below(len(legal))])
            plies += 1
        most = max(most, plies)
    return most
