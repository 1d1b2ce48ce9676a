"""Exact endgame search over any :class:`solvers.game.State`.

:func:`solve_endgame` gives the proven value of a fully known position, the
best action and the principal line; :func:`expected_endgame` averages exact
values over sampled determinisations for a position with hidden cards
(perfect-information Monte Carlo: each sample is solved as if everything
were visible, then the action values are averaged).

Two backends: the C solver (``solvers._core.endgame``, with a transposition
table keyed by ``GameDef.hash``) when the state offers its C tables, and the
plain recursive reference below (no table) for every other state. Both use
the same rules:

* two players: alpha-beta on ``returns[0] - returns[1]`` (seat 0 maximises,
  seat 1 minimises; for constant-sum returns such as win shares this is each
  seat maximising its own return);
* one, three or four players: max^n (the player to move takes the child best
  for itself; ties go to the first action);
* chance nodes: the probability-weighted mean of the children (expectimax),
  each child searched with a full window.

    >>> from solvers._core.toygames import TicTacToe
    >>> state = TicTacToe().new_initial_state()
    >>> for a in (4, 0, 8):
    ...     state.apply_action(a)
    >>> solve_endgame(state).value
    [0.5, 0.5]
    >>> solve_endgame(state, backend="python").value
    [0.5, 0.5]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import SolversError
from ..game import State
from ..rng import SplitMix64, seed_from
from .mcts import has_kernel

INF = float("inf")
DEFAULT_MAX_NODES = 50_000_000


@dataclass
class EndgameResult:
    """An exact (or, with samples, an averaged exact) result.

    ``action_values`` lists ``(action, value vector, samples)`` ranked best
    first for ``player`` (the player to move) when per-action values were
    asked for or samples were taken. ``stopped``: a stop ended the search
    early (``samples`` counts those solved before it; with none, ``action``
    is None and the lists are empty).
    """

    player: int
    value: list[float]
    action: int | None
    line: list[int] = field(default_factory=list)
    action_values: list[tuple[int, list[float], int]] = field(default_factory=list)
    nodes: int = 0
    samples: int = 1
    backend: str = "python"
    stopped: bool = False


class _Aborted(Exception):
    pass


class _Stopped(Exception):
    pass


class ReferenceSolver:
    """The plain recursive solver (no transposition table)."""

    def __init__(self, players: int, mode: str = "auto", max_nodes: int = DEFAULT_MAX_NODES):
        _check_mode(mode, players)
        self.players = players
        self.alphabeta = players == 2 and mode != "maxn"
        self.max_nodes = max_nodes
        self.nodes = 0
        self.stopped = False

    def stop(self) -> None:
        """End a running search (from another thread) at its next node, and
        every later one (as the C solver's ``stop``)."""
        self.stopped = True

    def _utility(self, vec: list[float], player: int) -> float:
        """What ``player`` maximises: own return, minus the other's with alpha-beta."""
        return vec[player] - vec[1 - player] if self.alphabeta else vec[player]

    def _scalar(self, vec: list[float]) -> float:
        return vec[0] - vec[1] if self.alphabeta else 0.0

    def value(self, state: State, alpha: float = -INF, beta: float = INF) -> tuple[float, list[float], int | None]:
        """(scalar, vector, best action) of ``state``; exact inside (alpha, beta)."""
        if state.is_terminal():
            vec = list(state.returns())
            return self._scalar(vec), vec, None
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Aborted
        if self.stopped:
            raise _Stopped
        if state.is_chance_node():
            out = [0.0] * self.players
            for action, prob in state.chance_outcomes():
                child = state.clone()
                child.apply_action(action)
                _, vec, _ = self.value(child)
                for k in range(self.players):
                    out[k] += prob * vec[k]
            return self._scalar(out), out, None
        p = state.current_player()
        best_vec: list[float] = [0.0] * self.players
        best_a = None
        if not self.alphabeta:
            best = -INF
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                _, vec, _ = self.value(child)
                if vec[p] > best:
                    best, best_vec, best_a = vec[p], vec, action
            return 0.0, best_vec, best_a
        best = -INF if p == 0 else INF
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            v, vec, _ = self.value(child, alpha, beta)
            if (p == 0 and v > best) or (p != 0 and v < best):
                best, best_vec, best_a = v, vec, action
                if p == 0:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
                if alpha >= beta:
                    break
        return best, best_vec, best_a

    def solve(self, state: State, per_action: bool = False, line: bool = True) -> EndgameResult:
        start = self.nodes
        player = state.current_player()
        try:
            rows = []
            if per_action and player >= 0:
                for action in state.legal_actions():
                    child = state.clone()
                    child.apply_action(action)
                    rows.append((action, self.value(child)[1], 1))
                best_row = max(rows, key=lambda r: self._utility(r[1], player))   # first of the best
                best_a: int | None
                vec, best_a = best_row[1], best_row[0]
                rows.sort(key=lambda r: -self._utility(r[1], player))
            else:
                _, vec, best_a = self.value(state)
            moves = []
            if line and best_a is not None:
                st = state.clone()
                a: int | None = best_a
                while a is not None:
                    moves.append(a)
                    st.apply_action(a)
                    if st.current_player() < 0:
                        break
                    a = self.value(st)[2]
        except _Aborted:
            raise SolversError(f"endgame search gave up after {self.max_nodes} nodes: too large") from None
        return EndgameResult(player=player, value=vec, action=best_a, line=moves, action_values=rows,
                             nodes=self.nodes - start, backend="python")


def _check_mode(mode: str, players: int) -> None:
    if mode not in ("auto", "alphabeta", "maxn"):
        raise SolversError(f"unknown endgame mode {mode!r}; use 'auto', 'alphabeta' or 'maxn'")
    if mode == "alphabeta" and players != 2:
        raise SolversError("alpha-beta needs exactly two players; use 'maxn'")


def _backend(state: State, backend: str) -> str:
    if backend not in ("auto", "c", "python"):
        raise SolversError(f"unknown endgame backend {backend!r}; use 'auto', 'c' or 'python'")
    if backend == "c" and not has_kernel(state):
        raise SolversError("this state has no C tables; use backend='python'")
    return "c" if backend == "c" or (backend == "auto" and has_kernel(state)) else "python"


def _c_solver(state: State, mode: str, max_nodes: int, tt_bits: int, bounds: bool = True,
              canonical: bool = True):
    from .._core import endgame as _cend

    # A game whose every return lies in a known range (win shares: 0..1)
    # says so with ``return_bounds``; two-player searches then prune at
    # chance nodes too (Star1 windows after a cheap pass with the node's own
    # window) and stop a decision node once a move reaches the best value
    # possible.
    # ``bounds``: the game's bounds on each state's returns (where its
    # kernel has them) value a settled state at once and cut off the rest
    # outside the window.
    # ``canonical``: the game's key for exact search (where its kernel has
    # one) gives states worth the same one table entry, and children of
    # equal keys are searched once.
    return _cend.Solver(state.game._gamedef_capsule(), mode=mode, tt_bits=tt_bits,
                        max_nodes=max_nodes,
                        return_bounds=getattr(state.game, "return_bounds", None),
                        state_bounds=bounds, canonical=canonical)


def solve_endgame(state: State, *, mode: str = "auto", per_action: bool = False, line: bool = True,
                  max_nodes: int = DEFAULT_MAX_NODES, tt_bits: int = 22,
                  backend: str = "auto", bounds: bool = True, canonical: bool = True,
                  track: Callable[[Any], Any] | None = None) -> EndgameResult:
    """The exact value of ``state`` as it stands (every card in it is read:
    use :func:`expected_endgame` for a player's point of view).

    ``per_action`` also gives every legal action's exact value. Raises
    SolversError beyond ``max_nodes`` searched nodes. ``track``, when given,
    is called with the solver before the search starts: its ``nodes`` (read
    from another thread while it runs) count the nodes searched so far, for
    a progress bar, and its ``stop()`` ends the search. ``bounds=False``
    searches without the game's bounds on a state's returns, and
    ``canonical=False`` without the game's key for exact search (keyed by
    the full hash instead): the same values, for comparison.
    """
    if state.is_terminal():
        return EndgameResult(player=state.current_player(), value=list(state.returns()), action=None)
    if _backend(state, backend) == "python":
        solver = ReferenceSolver(state.game.num_players, mode, max_nodes)
        if track is not None:
            track(solver)
        return solver.solve(state, per_action, line)
    c_solver = _c_solver(state, mode, max_nodes, tt_bits, bounds, canonical)
    if track is not None:
        track(c_solver)
    r = c_solver.solve(state._state_capsule(), per_action=per_action, line=line)
    rows = []
    if per_action:
        p = r["player"]
        two = state.game.num_players == 2 and mode != "maxn"
        rows = sorted(((a, vec, 1) for a, vec in r["action_values"]),
                      key=lambda t: -(t[1][p] - t[1][1 - p] if two else t[1][p]))
    return EndgameResult(player=r["player"], value=r["value"], action=r["action"], line=r["line"],
                         action_values=rows, nodes=r["nodes"], backend="c")


def expected_endgame(state: State, player: int | None = None, samples: int = 16, seed: int | None = 0, *,
                     mode: str = "auto", max_nodes: int = DEFAULT_MAX_NODES, tt_bits: int = 22,
                     backend: str = "auto",
                     track: Callable[[Any], Any] | None = None) -> EndgameResult:
    """Exact values averaged over ``samples`` determinisations for ``player``
    (default: the player to move): each sample re-deals what ``player``
    cannot see, is solved exactly, and every root action's value vectors are
    averaged. The best action maximises the mean for the player to move.

    A Python state without ``resample`` is taken as fully visible (one
    sample is enough then). ``track``, when given, is called with the
    solver before the search starts: its ``stop()`` (from another thread)
    ends the search, and the result averages the samples solved by then
    (``stopped`` set).
    """
    mover = state.current_player()
    if mover < 0:
        raise SolversError("expected_endgame needs a decision node")
    if player is None:
        player = mover
    if not 0 <= player < state.game.num_players:
        raise SolversError(f"no player {player} in a {state.game.num_players}-player game")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise SolversError(f"samples must be a whole number >= 1, not {samples!r}")
    rng = SplitMix64(seed_from(seed))
    if _backend(state, backend) == "c":
        c_solver = _c_solver(state, mode, max_nodes, tt_bits)
        if track is not None:
            track(c_solver)
        r = c_solver.expected(state._state_capsule(), player, samples, rng.next())
        return EndgameResult(player=mover, value=r["value"], action=r["action"],
                             action_values=[tuple(row) for row in r["action_values"]],
                             nodes=r["nodes"], samples=r["samples"], backend="c",
                             stopped=r["stopped"])
    solver = ReferenceSolver(state.game.num_players, mode, max_nodes)
    if track is not None:
        track(solver)
    can_resample = hasattr(state, "resample")
    if not can_resample:
        samples = 1
    sums: dict[int, list] = {}
    done = 0
    for _ in range(samples):
        st = state.resample(player, rng) if can_resample else state
        try:
            rows = solver.solve(st, per_action=True, line=False).action_values
        except _Stopped:
            break
        done += 1
        for action, vec, _ in rows:
            acc = sums.setdefault(action, [[0.0] * len(vec), 0])
            acc[0] = [x + y for x, y in zip(acc[0], vec, strict=True)]
            acc[1] += 1
    table = [(a, [x / n for x in vec], n) for a, (vec, n) in sums.items()]
    table.sort(key=lambda r: (-r[1][mover], r[0]))
    return EndgameResult(player=mover, value=table[0][1] if table else [],
                         action=table[0][0] if table else None, action_values=table,
                         nodes=solver.nodes, samples=done, backend="python", stopped=done < samples)
