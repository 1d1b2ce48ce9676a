# cython: language_level=3
"""Exact endgame search in C over any game that exports a ``GameDef``.

The search reads the whole state (perfect information); for a position with
hidden cards, solve determinisations (:func:`expected_endgame`).

* **Two players**: alpha-beta (Knuth and Moore, "An analysis of alpha-beta
  pruning", 1975) on ``returns[0] - returns[1]``; seat 0 maximises it and
  seat 1 minimises it. For constant-sum returns (win shares) this is each
  seat maximising its own return; for other returns it is "maximise my
  return minus yours".
* **One, three or four players**: max^n (Luckhardt and Irani, 1986): the
  player to move picks the child whose value vector is best for itself;
  one player is plain expectimax. Ties go to the first action searched.
* **Chance nodes**: the probability-weighted mean of the children's vectors
  (expectimax, Michie 1966). With two players and ``return_bounds=(low,
  high)`` (every seat's return lies in that range, e.g. (0, 1) for win
  shares), chance nodes are pruned with Star1 (Ballard, "The *-minimax
  search procedure for trees containing chance nodes", AIJ 21, 1983);
  without bounds their children are searched with a full window, so every
  chance node's value is exact.
* **Transposition table** keyed by ``GameDef.hash`` (replace-always, the full
  64-bit key stored), with exact/lower/upper flags and the best action, used
  for move ordering.

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> state = game.new_initial_state()
    >>> r = solve(game._gamedef_capsule(), state._state_capsule())
    >>> r["value"]                  # perfect play draws
    [0.5, 0.5]
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

from game_api cimport GameDef, GAME_CHANCE, GAME_TERMINAL, gamedef_from, state_from

from solvers.errors import SolversError

cdef enum:
    EG_MAX_PLAYERS = 4
    FLAG_EMPTY = 0
    FLAG_EXACT = 1
    FLAG_LOWER = 2
    FLAG_UPPER = 3

cdef double INF = 1e300

cdef struct Entry:
    uint64_t key
    double score
    double vec[EG_MAX_PLAYERS]
    int32_t best
    int8_t flag

DEFAULT_MAX_NODES = 50_000_000
ENTRY_BYTES = sizeof(Entry)
"""Bytes of one transposition-table entry."""


cdef class Solver:
    """An exact solver with its transposition table; reusable across positions
    of one game. ``mode``: ``"auto"`` (alpha-beta for two players, max^n
    otherwise), ``"alphabeta"`` or ``"maxn"``. ``tt_bits``: the table grows
    (doubling when half full) up to ``2**tt_bits`` entries of
    :data:`ENTRY_BYTES` bytes; it starts small so that small endgames stay
    cheap. ``max_nodes``: give up (SolversError) beyond it."""

    cdef const GameDef *g
    cdef object owner
    cdef int nplayers
    cdef bint alphabeta
    cdef char *states
    cdef int *actions
    cdef double *probs
    cdef Entry *tt
    cdef uint64_t mask
    cdef int bits
    cdef int max_bits
    cdef int64_t filled
    cdef int64_t max_nodes
    cdef readonly int64_t nodes
    cdef bint aborted
    cdef bint overlong
    cdef bint star                      # Star1 pruning at chance nodes
    cdef double lo, hi                  # bounds of the searched scalar

    def __cinit__(self, gamedef, *, str mode="auto", int tt_bits=22,
                  max_nodes=DEFAULT_MAX_NODES, owner=None, return_bounds=None):
        self.states = NULL
        self.actions = NULL
        self.probs = NULL
        self.tt = NULL
        self.g = gamedef_from(gamedef)
        cdef const GameDef *g = self.g
        if not 1 <= g.num_players <= EG_MAX_PLAYERS:
            raise SolversError(f"endgame search handles 1 to {EG_MAX_PLAYERS} players")
        if mode not in ("auto", "alphabeta", "maxn"):
            raise SolversError(f"unknown endgame mode {mode!r}; use 'auto', 'alphabeta' or 'maxn'")
        if mode == "alphabeta" and g.num_players != 2:
            raise SolversError("alpha-beta needs exactly two players; use 'maxn'")
        if not 4 <= tt_bits <= 30:
            raise SolversError(f"tt_bits must be 4..30, not {tt_bits}")
        if max_nodes < 1:
            raise SolversError(f"max_nodes must be >= 1, not {max_nodes}")
        if g.hash == NULL or g.chance_outcomes == NULL or g.returns == NULL:
            raise SolversError(f"the game {g.name.decode()!r} leaves part of its C table empty")
        self.owner = owner
        self.nplayers = g.num_players
        self.alphabeta = g.num_players == 2 and mode != "maxn"
        self.star = False
        if return_bounds is not None:
            rlo, rhi = (float(x) for x in return_bounds)
            if not rlo < rhi:
                raise SolversError(f"return_bounds must be (low, high) with low < high, not {return_bounds!r}")
            if self.alphabeta:          # the scalar is returns[0] - returns[1]
                self.star, self.lo, self.hi = True, rlo - rhi, rhi - rlo
        cdef int levels = g.max_game_length + 2
        self.states = <char *> malloc(g.state_size * levels)
        self.actions = <int *> malloc(sizeof(int) * (g.max_actions + 1) * levels)
        self.probs = <double *> malloc(sizeof(double) * (g.max_actions + 1) * levels)
        self.max_bits = tt_bits
        self.bits = min(tt_bits, 12)
        self.tt = <Entry *> calloc(<size_t> 1 << self.bits, sizeof(Entry))
        if self.states == NULL or self.actions == NULL or self.probs == NULL or self.tt == NULL:
            raise MemoryError()
        self.mask = (<uint64_t> 1 << self.bits) - 1
        self.filled = 0
        self.max_nodes = max_nodes
        self.nodes = 0

    def __dealloc__(self):
        free(self.states)
        free(self.actions)
        free(self.probs)
        free(self.tt)

    cdef double scalar(self, const double *vec, int player) noexcept nogil:
        if self.alphabeta:
            return vec[0] - vec[1]
        return vec[player] if player >= 0 else 0.0

    @property
    def table_entries(self) -> int:
        """Entries the transposition table holds now."""
        return self.mask + 1

    cdef void grow(self) noexcept nogil:
        """Double the table and move every entry over."""
        cdef uint64_t size = self.mask + 1, i
        cdef uint64_t new_mask = 2 * size - 1
        cdef Entry *fresh = <Entry *> calloc(2 * size, sizeof(Entry))
        if fresh == NULL:
            self.max_bits = self.bits            # out of memory: stay this size
            return
        for i in range(size):
            if self.tt[i].flag != FLAG_EMPTY:
                fresh[self.tt[i].key & new_mask] = self.tt[i]
        free(self.tt)
        self.tt = fresh
        self.mask = new_mask
        self.bits += 1

    cdef void store(self, uint64_t h, double score, const double *vec, int best, int flag) noexcept nogil:
        cdef Entry *e = &self.tt[h & self.mask]
        if e.flag == FLAG_EMPTY:
            self.filled += 1
            if self.bits < self.max_bits and <uint64_t> self.filled * 2 > self.mask:
                self.grow()
                e = &self.tt[h & self.mask]
        e.key = h
        e.score = score
        memcpy(e.vec, vec, sizeof(double) * EG_MAX_PLAYERS)
        e.best = best
        e.flag = <int8_t> flag

    cdef double value(self, int depth, double alpha, double beta, double *out) noexcept nogil:
        """The value of the state at ``depth`` (exact when it lies inside
        (alpha, beta)); its vector in ``out``."""
        cdef const GameDef *g = self.g
        cdef const void *params = g.params
        cdef char *st = self.states + depth * g.state_size
        cdef char *child = st + g.state_size
        cdef int m = g.max_actions + 1
        cdef int *acts = self.actions + depth * m
        cdef double *probs = self.probs + depth * m
        cdef int p = g.current_player(params, st)
        cdef int n, i, k, a, hint = -1, best_a = -1, flag
        cdef double cv[EG_MAX_PLAYERS]
        cdef double bv[EG_MAX_PLAYERS]
        cdef double v, best, alpha0 = alpha, beta0 = beta
        cdef uint64_t h
        cdef Entry *e
        for k in range(EG_MAX_PLAYERS):
            out[k] = 0.0
            bv[k] = 0.0
        if p == GAME_TERMINAL:
            g.returns(params, st, out)
            return self.scalar(out, 0)
        if self.aborted:
            return 0.0
        if depth > g.max_game_length:       # the game's bound is wrong: stop safely
            self.aborted = True
            self.overlong = True
            return 0.0
        h = g.hash(params, st)
        e = &self.tt[h & self.mask]
        if e.flag != FLAG_EMPTY and e.key == h:
            if e.flag == FLAG_EXACT:
                memcpy(out, e.vec, sizeof(double) * EG_MAX_PLAYERS)
                return e.score
            if e.flag == FLAG_LOWER and e.score >= beta:
                return e.score
            if e.flag == FLAG_UPPER and e.score <= alpha:
                return e.score
            hint = e.best
        self.nodes += 1
        if self.nodes > self.max_nodes:
            self.aborted = True
            return 0.0
        if p == GAME_CHANCE:
            n = g.chance_outcomes(params, st, acts, probs)
            if self.star:
                return self.chance_star1(depth, n, acts, probs, h, alpha, beta, out)
            for i in range(n):
                memcpy(child, st, g.state_size)
                g.apply_action(params, child, acts[i])
                self.value(depth + 1, -INF, INF, cv)
                for k in range(self.nplayers):
                    out[k] += probs[i] * cv[k]
            v = self.scalar(out, 0)
            if not self.aborted:
                self.store(h, v, out, -1, FLAG_EXACT)
            return v
        n = g.legal_actions(params, st, acts)
        if hint >= 0:               # try the table's best move first
            for i in range(n):
                if acts[i] == hint:
                    acts[i] = acts[0]
                    acts[0] = hint
                    break
        if not self.alphabeta:
            best = -INF
            for i in range(n):
                memcpy(child, st, g.state_size)
                g.apply_action(params, child, acts[i])
                self.value(depth + 1, -INF, INF, cv)
                if cv[p] > best:
                    best = cv[p]
                    best_a = acts[i]
                    memcpy(bv, cv, sizeof(double) * EG_MAX_PLAYERS)
            memcpy(out, bv, sizeof(double) * EG_MAX_PLAYERS)
            v = self.scalar(out, 0)
            if not self.aborted:
                self.store(h, v, out, best_a, FLAG_EXACT)
            return v
        best = -INF if p == 0 else INF
        for i in range(n):
            memcpy(child, st, g.state_size)
            g.apply_action(params, child, acts[i])
            v = self.value(depth + 1, alpha, beta, cv)
            if (p == 0 and v > best) or (p != 0 and v < best):
                best = v
                best_a = acts[i]
                memcpy(bv, cv, sizeof(double) * EG_MAX_PLAYERS)
                if p == 0 and best > alpha:
                    alpha = best
                elif p != 0 and best < beta:
                    beta = best
                if alpha >= beta:
                    break
        memcpy(out, bv, sizeof(double) * EG_MAX_PLAYERS)
        if best <= alpha0:
            flag = FLAG_UPPER
        elif best >= beta0:
            flag = FLAG_LOWER
        else:
            flag = FLAG_EXACT
        if not self.aborted:
            self.store(h, best, out, best_a, flag)
        return best

    cdef double chance_star1(self, int depth, int n, const int *acts, const double *probs,
                             uint64_t h, double alpha, double beta, double *out) noexcept nogil:
        """A chance node searched with Ballard's Star1 (1983): with the scalar
        known to lie in [lo, hi], each outcome gets the window that could
        still move the mean across (alpha, beta), and the node fails low or
        high as soon as the outcomes searched decide it."""
        cdef const GameDef *g = self.g
        cdef char *st = self.states + depth * g.state_size
        cdef char *child = st + g.state_size
        cdef double cv[EG_MAX_PLAYERS]
        cdef double done = 0.0, rest = 1.0, a_i, b_i, v, bound
        cdef int i, k
        for i in range(n):
            rest -= probs[i]
            if rest < 0.0:
                rest = 0.0
            a_i = (alpha - done - self.hi * rest) / probs[i]
            b_i = (beta - done - self.lo * rest) / probs[i]
            memcpy(child, st, g.state_size)
            g.apply_action(g.params, child, acts[i])
            v = self.value(depth + 1, a_i if a_i > self.lo else self.lo - 1.0,
                           b_i if b_i < self.hi else self.hi + 1.0, cv)
            if self.aborted:
                return 0.0
            if v <= a_i:            # the mean cannot rise above alpha
                bound = done + probs[i] * v + self.hi * rest
                self.store(h, bound, out, -1, FLAG_UPPER)
                return bound
            if v >= b_i:            # the mean cannot fall below beta
                bound = done + probs[i] * v + self.lo * rest
                self.store(h, bound, out, -1, FLAG_LOWER)
                return bound
            done += probs[i] * v
            for k in range(self.nplayers):
                out[k] += probs[i] * cv[k]
        self.store(h, done, out, -1, FLAG_EXACT)
        return done

    cdef raise_if_aborted(self):
        if self.overlong:
            raise SolversError(f"the game ran past its max_game_length ({self.g.max_game_length})")
        if self.aborted:
            raise SolversError(f"endgame search gave up after {self.max_nodes} nodes: too large")

    cdef list _solve_buffer(self, bint per_action):
        """Solve the state in ``states[0]``: [vector, best action, per-action rows]."""
        cdef const GameDef *g = self.g
        cdef double out[EG_MAX_PLAYERS]
        cdef double cv[EG_MAX_PLAYERS]
        cdef int p = g.current_player(g.params, self.states)
        cdef int n, i, best_a = -1
        cdef double best, v
        cdef Entry *e
        rows = []
        self.aborted = False
        self.overlong = False
        if not per_action or p < 0:
            with nogil:
                self.value(0, -INF, INF, out)
            self.raise_if_aborted()
            vec = [out[k] for k in range(self.nplayers)]
            if p >= 0:
                e = &self.tt[g.hash(g.params, self.states) & self.mask]
                best_a = e.best
            return [vec, best_a if best_a >= 0 else None, rows]
        # Every root action exactly: each child with a full window.
        n = g.legal_actions(g.params, self.states, self.actions)
        acts = [self.actions[i] for i in range(n)]
        best = -INF
        vec = None
        for a in acts:
            memcpy(self.states + g.state_size, self.states, g.state_size)
            g.apply_action(g.params, self.states + g.state_size, a)
            with nogil:
                self.value(1, -INF, INF, cv)
            self.raise_if_aborted()
            row = [cv[k] for k in range(self.nplayers)]
            rows.append((a, row))
            v = row[p] - row[1 - p] if self.alphabeta else row[p]
            if v > best:
                best = v
                best_a = a
                vec = row
        return [vec, best_a, rows]

    def solve(self, state, *, bint per_action=False, bint line=True) -> dict:
        """The exact value of ``state`` (a 'solvers.State' capsule).

        Returns ``value`` (one float per seat), ``action`` (best for the player
        to move; None at a chance node or the end), ``line`` (the principal
        line up to the next chance node or the end), ``nodes`` searched and,
        with ``per_action``, ``action_values``: (action, vector) for every
        legal action.
        """
        cdef const GameDef *g = self.g
        cdef void *st = state_from(state)
        memcpy(self.states, st, g.state_size)
        start = self.nodes
        vec, best_a, rows = self._solve_buffer(per_action)
        result = {"value": vec, "action": best_a, "line": [],
                  "player": g.current_player(g.params, st)}
        if per_action:
            result["action_values"] = rows
        if line and best_a is not None:
            # Follow the best moves; each step re-solves (cheap with the table).
            memcpy(self.states, st, g.state_size)
            a = best_a
            while a is not None:
                result["line"].append(a)
                g.apply_action(g.params, self.states, a)
                if g.current_player(g.params, self.states) < 0:
                    break
                _, a, _ = self._solve_buffer(False)
        result["nodes"] = self.nodes - start
        return result

    def expected(self, state, int player, int samples, seed=0) -> dict:
        """Mean exact values over ``samples`` determinisations of ``state``
        for ``player`` (everything they cannot see is re-dealt each time).

        Returns ``action_values``: (action, mean vector, times legal) ranked
        best first for the player to move, ``action``, ``value`` (the best
        row's vector), ``samples`` and ``nodes``."""
        cdef const GameDef *g = self.g
        cdef void *st = state_from(state)
        cdef uint64_t rng = <uint64_t> (seed & 0xFFFFFFFFFFFFFFFF)
        cdef int mover = g.current_player(g.params, st)
        if mover < 0:
            raise SolversError("expected_endgame needs a decision node")
        if not 0 <= player < self.nplayers:
            raise SolversError(f"no player {player} in a {self.nplayers}-player game")
        if samples < 1:
            raise SolversError(f"samples must be >= 1, not {samples}")
        start = self.nodes
        sums: dict[int, list] = {}
        for _ in range(samples):
            memcpy(self.states, st, g.state_size)
            if g.determinize != NULL:
                g.determinize(g.params, self.states, player, &rng)
            _, _, rows = self._solve_buffer(True)
            for a, row in rows:
                acc = sums.setdefault(a, [[0.0] * self.nplayers, 0])
                for k in range(self.nplayers):
                    acc[0][k] += row[k]
                acc[1] += 1
        table = [(a, [x / cnt for x in vec], cnt) for a, (vec, cnt) in sums.items()]
        table.sort(key=lambda r: (-r[1][mover], r[0]))
        return {"action": table[0][0], "value": table[0][1], "action_values": table,
                "samples": samples, "player": mover, "nodes": self.nodes - start}


def solve(gamedef, state, *, str mode="auto", int tt_bits=22, max_nodes=DEFAULT_MAX_NODES,
          bint per_action=False, bint line=True, owner=None, return_bounds=None) -> dict:
    """One-shot :meth:`Solver.solve`."""
    return Solver(gamedef, mode=mode, tt_bits=tt_bits, max_nodes=max_nodes, owner=owner,
                  return_bounds=return_bounds).solve(state, per_action=per_action, line=line)


def expected_endgame(gamedef, state, int player, int samples=16, seed=0, *, str mode="auto",
                     int tt_bits=22, max_nodes=DEFAULT_MAX_NODES, owner=None) -> dict:
    """One-shot :meth:`Solver.expected`."""
    return Solver(gamedef, mode=mode, tt_bits=tt_bits, max_nodes=max_nodes,
                  owner=owner).expected(state, player, samples, seed)
