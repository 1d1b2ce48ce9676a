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
  shares), chance nodes are pruned as in Star1 (Ballard, "The *-minimax
  search procedure for trees containing chance nodes", AIJ 21, 1983), with
  a cheap first pass (see :meth:`Solver.chance`), and a decision node stops
  as soon as a move reaches the best value possible; without bounds chance
  children are searched with a full window, so every chance node's value is
  exact.
* **Transposition table** keyed by ``GameDef.hash`` (replace-always, the full
  64-bit key stored), with exact/lower/upper flags and the best action; by
  the game's ``GameDef.solver_key`` where it has one, a canonical form
  under which states worth the same share a key (Switchbacks: the tiles
  that can no longer score, and the empty hexes no path can cross, made
  anonymous). Then children with equal keys
  are searched once: a decision's duplicates are skipped, a chance node's
  merged with their probabilities added. ``canonical=False`` keys by the
  hash.
* **The game's bounds** (optional ``GameDef.state_bounds``): a state whose
  bounds on every return meet is valued at once, and with two players one
  whose bounds lie outside the window is cut off, before any move is
  generated (Switchbacks: points already made and points still reachable).
  ``state_bounds=False`` searches without them.
* **Move ordering** (alpha-beta): the table's best move first, then the
  history heuristic (Schaeffer, "The history heuristic and alpha-beta search
  enhancements in practice", 1989): each player's actions ranked by the
  nodes of the subtrees they cut off or won, over the whole life of the
  solver.

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

cdef extern from *:
    """
    static inline int eg_read_flag(int *p) { return *(volatile int *)p; }
    static inline void eg_write_flag(int *p, int v) { *(volatile int *)p = v; }
    """
    int eg_read_flag(int *p) nogil
    void eg_write_flag(int *p, int v) nogil


class Stopped(Exception):
    """A search that :meth:`Solver.stop` ended before it had an answer (not
    a user's error: whoever stopped it expects it)."""

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
    cheap. ``max_nodes``: give up (SolversError) beyond it. ``state_bounds``:
    use the game's bounds on a state's returns where it has them;
    ``canonical``: key the table by the game's ``solver_key`` where it has
    one (else by its hash), searching children of equal keys once. :meth:`stop`
    (from another thread) ends a running search within a node, for good: a
    stopped solver searches no more. The solver keeps
    the ``gamedef`` capsule, which keeps the game's tables alive; ``owner``
    is any further object to keep alive with it (not needed for the game)."""

    cdef const GameDef *g
    cdef object gamedef                 # the capsule: keeps the game (and its tables) alive
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
    cdef int stop_flag                  # set by stop(), read by the search (volatile)
    cdef bint use_bounds                # ask the game for bounds on each state's returns
    cdef bint canonical                 # key by GameDef.solver_key: merge equal children
    cdef uint64_t (*key_of)(const void *params, const void *st) noexcept nogil
    cdef uint64_t *ckeys                # children's keys, a row per depth
    cdef uint64_t *given                # the key of the state at each depth, when known
    cdef char *has_given
    cdef bint star                      # the scalar is bounded: prune at chance nodes
    cdef double lo, hi                  # bounds of the searched scalar
    cdef double *hist                   # history scores, [player][action]
    cdef double *keys                   # ordering scratch, a row per depth
    cdef double *lb                     # chance outcomes' known bounds, a row per depth
    cdef double *ub
    cdef char *exact                    # ... and whether each is searched exactly

    def __cinit__(self, gamedef, *, str mode="auto", int tt_bits=22,
                  max_nodes=DEFAULT_MAX_NODES, owner=None, return_bounds=None,
                  bint state_bounds=True, bint canonical=True):
        self.states = NULL
        self.ckeys = NULL
        self.given = NULL
        self.has_given = NULL
        self.actions = NULL
        self.probs = NULL
        self.tt = NULL
        self.hist = NULL
        self.keys = NULL
        self.lb = NULL
        self.ub = NULL
        self.exact = NULL
        self.g = gamedef_from(gamedef)
        self.gamedef = gamedef
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
        self.use_bounds = state_bounds and g.state_bounds != NULL
        self.canonical = canonical and g.solver_key != NULL
        self.key_of = g.solver_key if self.canonical else g.hash
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
        self.keys = <double *> malloc(sizeof(double) * (g.max_actions + 1) * levels)
        self.lb = <double *> malloc(sizeof(double) * (g.max_actions + 1) * levels)
        self.ub = <double *> malloc(sizeof(double) * (g.max_actions + 1) * levels)
        self.exact = <char *> malloc((g.max_actions + 1) * levels)
        self.ckeys = <uint64_t *> malloc(sizeof(uint64_t) * (g.max_actions + 1) * levels)
        self.given = <uint64_t *> malloc(sizeof(uint64_t) * levels)
        self.has_given = <char *> calloc(levels, 1)
        self.hist = <double *> calloc(<size_t> max(1, g.num_players * g.num_distinct_actions), sizeof(double))
        if (self.keys == NULL or self.lb == NULL or self.ub == NULL or self.exact == NULL
                or self.hist == NULL or self.ckeys == NULL or self.given == NULL
                or self.has_given == NULL):
            raise MemoryError()
        self.max_bits = tt_bits
        self.bits = min(tt_bits, 12)
        self.tt = <Entry *> calloc(<size_t> 1 << self.bits, sizeof(Entry))
        if self.states == NULL or self.actions == NULL or self.probs == NULL or self.tt == NULL:
            raise MemoryError()
        self.mask = (<uint64_t> 1 << self.bits) - 1
        self.filled = 0
        self.max_nodes = max_nodes
        self.nodes = 0
        self.stop_flag = 0

    def __dealloc__(self):
        free(self.states)
        free(self.actions)
        free(self.probs)
        free(self.tt)
        free(self.hist)
        free(self.keys)
        free(self.lb)
        free(self.ub)
        free(self.exact)
        free(self.ckeys)
        free(self.given)
        free(self.has_given)

    cdef inline void credit(self, int p, int action, double weight) noexcept nogil:
        """History heuristic: ``action`` of player ``p`` cut off or won a
        subtree of ``weight`` nodes."""
        if 0 <= action < self.g.num_distinct_actions:
            self.hist[p * self.g.num_distinct_actions + action] += weight

    cdef void order(self, int p, int n, int *acts, double *keys, int hint) noexcept nogil:
        """The table's move first, then the others by history score, highest
        first (stable: ties keep the game's order)."""
        cdef int nd = self.g.num_distinct_actions
        cdef const double *row = self.hist + p * nd
        cdef int i, j, a, start = 0
        cdef double k
        if hint >= 0:
            for i in range(n):
                if acts[i] == hint:
                    for j in range(i, 0, -1):
                        acts[j] = acts[j - 1]
                    acts[0] = hint
                    start = 1
                    break
        for i in range(start, n):
            keys[i] = row[acts[i]] if 0 <= acts[i] < nd else 0.0
        for i in range(start + 1, n):        # insertion sort: n is small
            a = acts[i]
            k = keys[i]
            j = i
            while j > start and keys[j - 1] < k:
                acts[j] = acts[j - 1]
                keys[j] = keys[j - 1]
                j -= 1
            acts[j] = a
            keys[j] = k

    cdef double scalar(self, const double *vec, int player) noexcept nogil:
        if self.alphabeta:
            return vec[0] - vec[1]
        return vec[player] if player >= 0 else 0.0

    @property
    def table_entries(self) -> int:
        """Entries the transposition table holds now."""
        return self.mask + 1

    cdef bint grow(self) noexcept nogil:
        """Double the table and move every entry over; False when it stays
        as it is (out of memory, or a :meth:`stop` came during the move)."""
        cdef uint64_t size = self.mask + 1, i
        cdef uint64_t new_mask = 2 * size - 1
        cdef Entry *fresh = <Entry *> calloc(2 * size, sizeof(Entry))
        if fresh == NULL:
            self.max_bits = self.bits            # out of memory: stay this size
            return False
        for i in range(size):
            # The move touches every page of the new table (a 2^22 one is
            # hundreds of megabytes, tenths of a second): a stop cannot wait.
            if i & 0xFFFF == 0 and eg_read_flag(&self.stop_flag):
                free(fresh)
                self.aborted = True
                return False
            if self.tt[i].flag != FLAG_EMPTY:
                fresh[self.tt[i].key & new_mask] = self.tt[i]
        free(self.tt)
        self.tt = fresh
        self.mask = new_mask
        self.bits += 1
        return True

    def _grow(self) -> bool:
        """Double the table now (for tests); whether it grew."""
        cdef bint grown
        with nogil:
            grown = self.grow()
        return grown

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

    cdef inline void give_key(self, int depth, const uint64_t *keys, int i) noexcept nogil:
        """The state at ``depth`` has key ``keys[i]`` (already computed)."""
        if self.canonical:
            self.given[depth] = keys[i]
            self.has_given[depth] = 1

    cdef bint seen_before(self, int depth, uint64_t *keys, int *nk) noexcept nogil:
        """Whether the child at ``depth + 1`` has the key of a sibling
        searched before (listed in ``keys[:nk]``); if not, its key joins
        the list and goes to the child's search."""
        cdef uint64_t k = self.key_of(self.g.params, self.states + (depth + 1) * self.g.state_size)
        cdef int j
        for j in range(nk[0]):
            if keys[j] == k:
                return True
        keys[nk[0]] = k
        nk[0] += 1
        self.given[depth + 1] = k
        self.has_given[depth + 1] = 1
        return False

    cdef int merge_outcomes(self, int depth, int n, int *acts, double *probs) noexcept nogil:
        """Merge the chance outcomes at ``depth`` whose children share a
        key (their probabilities added, the first one kept); the new count.
        The kept outcomes' keys are left in the depth's row of ``ckeys``."""
        cdef const GameDef *g = self.g
        cdef char *st = self.states + depth * g.state_size
        cdef char *child = st + g.state_size
        cdef uint64_t *ck = self.ckeys + depth * (g.max_actions + 1)
        cdef uint64_t k
        cdef int i, j, kept = 0
        cdef bint merged
        for i in range(n):
            memcpy(child, st, g.state_size)
            g.apply_action(g.params, child, acts[i])
            k = self.key_of(g.params, child)
            merged = False
            for j in range(kept):
                if ck[j] == k:
                    probs[j] += probs[i]
                    merged = True
                    break
            if not merged:
                ck[kept] = k
                acts[kept] = acts[i]
                probs[kept] = probs[i]
                kept += 1
        return kept

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
        cdef bint settled
        cdef uint64_t h
        cdef int64_t sub, best_sub = 0
        cdef Entry *e
        cdef bint known = self.has_given[depth]     # the caller computed this state's key
        cdef uint64_t *ck = self.ckeys + depth * m
        cdef int nk = 0, j
        self.has_given[depth] = 0
        for k in range(EG_MAX_PLAYERS):
            out[k] = 0.0
            bv[k] = 0.0
        if p == GAME_TERMINAL:
            g.returns(params, st, out)
            return self.scalar(out, 0)
        if self.aborted:
            return 0.0
        if eg_read_flag(&self.stop_flag):  # stop() from another thread
            self.aborted = True
            return 0.0
        if depth > g.max_game_length:       # the game's bound is wrong: stop safely
            self.aborted = True
            self.overlong = True
            return 0.0
        if self.star:                       # the scalar lies in [lo, hi]
            if alpha >= self.hi:            # it cannot rise above alpha
                return self.hi
            if beta <= self.lo:             # it cannot fall below beta
                return self.lo
        h = self.given[depth] if known else self.key_of(params, st)
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
        if self.use_bounds:
            # The game's bounds on every return from here (cv: least, bv: most)
            g.state_bounds(params, st, cv, bv)
            settled = True
            for k in range(self.nplayers):
                if cv[k] != bv[k]:
                    settled = False
                    break
            if settled:                     # the result is known, whatever is played
                memcpy(out, cv, sizeof(double) * self.nplayers)
                v = self.scalar(out, 0)
                self.store(h, v, out, -1, FLAG_EXACT)   # a revisit is a table hit
                return v
            if self.alphabeta:
                v = bv[0] - cv[1]           # the most the scalar can reach
                if v <= alpha:
                    memcpy(out, bv, sizeof(double) * self.nplayers)
                    return v
                v = cv[0] - bv[1]           # the least
                if v >= beta:
                    memcpy(out, cv, sizeof(double) * self.nplayers)
                    return v
            for k in range(EG_MAX_PLAYERS):
                cv[k] = 0.0
                bv[k] = 0.0
        if p == GAME_CHANCE:
            n = g.chance_outcomes(params, st, acts, probs)
            if self.canonical:
                n = self.merge_outcomes(depth, n, acts, probs)
            if self.star:
                return self.chance(depth, n, acts, probs, h, alpha, beta, out)
            for i in range(n):
                memcpy(child, st, g.state_size)
                g.apply_action(params, child, acts[i])
                self.give_key(depth + 1, ck, i)
                self.value(depth + 1, -INF, INF, cv)
                for k in range(self.nplayers):
                    out[k] += probs[i] * cv[k]
            v = self.scalar(out, 0)
            if not self.aborted:
                self.store(h, v, out, -1, FLAG_EXACT)
            return v
        n = g.legal_actions(params, st, acts)
        if not self.alphabeta:
            if hint >= 0:               # try the table's best move first
                for i in range(n):
                    if acts[i] == hint:
                        acts[i] = acts[0]
                        acts[0] = hint
                        break
            best = -INF
            for i in range(n):
                memcpy(child, st, g.state_size)
                g.apply_action(params, child, acts[i])
                if self.canonical and self.seen_before(depth, ck, &nk):
                    continue                # worth what an earlier child is worth
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
        self.order(p, n, acts, self.keys + depth * m, hint)
        best = -INF if p == 0 else INF
        for i in range(n):
            memcpy(child, st, g.state_size)
            g.apply_action(params, child, acts[i])
            if self.canonical and self.seen_before(depth, ck, &nk):
                continue                    # worth what an earlier child is worth
            sub = self.nodes
            v = self.value(depth + 1, alpha, beta, cv)
            if (p == 0 and v > best) or (p != 0 and v < best):
                best = v
                best_a = acts[i]
                best_sub = self.nodes - sub
                memcpy(bv, cv, sizeof(double) * EG_MAX_PLAYERS)
                if p == 0 and best > alpha:
                    alpha = best
                elif p != 0 and best < beta:
                    beta = best
                if alpha >= beta or (self.star and (best >= self.hi if p == 0 else best <= self.lo)):
                    break               # a cutoff, or nothing better can exist
        if best_a >= 0 and (best > alpha0 if p == 0 else best < beta0):
            # the move that cut off (or won) the node: rank it up
            self.credit(p, best_a, 1.0 + best_sub)
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

    cdef double chance(self, int depth, int n, const int *acts, const double *probs,
                       uint64_t h, double alpha, double beta, double *out) noexcept nogil:
        """A chance node of a bounded two-player search, fail-soft.

        Each outcome i keeps bounds [lb_i, ub_i] on its value ([lo, hi] at
        first); the node fails low once sum(p_i ub_i) <= alpha and high once
        sum(p_i lb_i) >= beta. Outcome i can only matter inside its Star1
        window (A_i, B_i) (Ballard 1983, here with the other outcomes' known
        bounds in place of lo and hi): at or below A_i the node fails low,
        at or above B_i it fails high.

        Two passes. The first searches each outcome with the node's own
        window where that is narrower than (A_i, B_i): a node asked "is the
        mean <= alpha?" first asks each outcome "is your value <= alpha?",
        which is cheap (one side of a proof), and often decides the node
        alone; Star1 would search the first outcome with a far wider window,
        usually for its exact value. The second pass re-searches each
        outcome not yet exact with its full (A_i, B_i): it either decides
        the node or makes the outcome exact, so after it the node is exact.
        """
        cdef const GameDef *g = self.g
        cdef char *st = self.states + depth * g.state_size
        cdef char *child = st + g.state_size
        cdef int m = g.max_actions + 1
        cdef double *lb = self.lb + depth * m
        cdef double *ub = self.ub + depth * m
        cdef char *ex = self.exact + depth * m
        cdef double cv[EG_MAX_PLAYERS]
        cdef double L = 0.0, U = 0.0, a, b, v, pi
        cdef double lo = self.lo, hi = self.hi
        cdef int i, k, second
        for i in range(n):
            lb[i] = lo
            ub[i] = hi
            ex[i] = 0
            L += probs[i] * lo
            U += probs[i] * hi
        for second in range(2):
            for i in range(n):
                if ex[i]:
                    continue
                pi = probs[i]
                a = (alpha - (U - pi * ub[i])) / pi         # A_i
                b = (beta - (L - pi * lb[i])) / pi          # B_i
                if not second and a < beta and b > alpha:   # else the windows do not meet
                    if a < alpha:
                        a = alpha
                    if b > beta:
                        b = beta
                if a <= lo:
                    a = lo - 1.0
                if b >= hi:
                    b = hi + 1.0
                memcpy(child, st, g.state_size)
                g.apply_action(g.params, child, acts[i])
                self.give_key(depth + 1, self.ckeys + depth * m, i)
                v = self.value(depth + 1, a, b, cv)
                if self.aborted:
                    return 0.0
                if v <= a:                  # an upper bound on outcome i
                    if v < ub[i]:
                        U += pi * (v - ub[i])
                        ub[i] = v
                    # in the second pass a <= A_i: the node fails low (up to rounding)
                    if U <= alpha or second:
                        if U > alpha:
                            U = alpha
                        self.store(h, U, out, -1, FLAG_UPPER)
                        return U
                elif v >= b:                # a lower bound on outcome i
                    if v > lb[i]:
                        L += pi * (v - lb[i])
                        lb[i] = v
                    if L >= beta or second:
                        if L < beta:
                            L = beta
                        self.store(h, L, out, -1, FLAG_LOWER)
                        return L
                else:                       # exact: its vector counts
                    L += pi * (v - lb[i])
                    U += pi * (v - ub[i])
                    lb[i] = v
                    ub[i] = v
                    ex[i] = 1
                    for k in range(self.nplayers):
                        out[k] += pi * cv[k]
                    if U <= alpha:
                        self.store(h, U, out, -1, FLAG_UPPER)
                        return U
                    if L >= beta:
                        self.store(h, L, out, -1, FLAG_LOWER)
                        return L
        v = 0.0                             # every outcome exact
        for i in range(n):
            v += probs[i] * lb[i]
        self.store(h, v, out, -1, FLAG_EXACT)
        return v

    def stop(self) -> None:
        """End a running search (in another thread) now, and every later one:
        it raises :class:`Stopped`, and :meth:`expected` returns the
        determinisations solved before the stop."""
        eg_write_flag(&self.stop_flag, 1)

    @property
    def stopped(self) -> bool:
        """Whether :meth:`stop` was called."""
        return eg_read_flag(&self.stop_flag) != 0

    cdef raise_if_aborted(self):
        if eg_read_flag(&self.stop_flag):
            raise Stopped("the endgame search was stopped")
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
        cdef uint64_t h
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
                h = self.key_of(g.params, self.states)
                e = &self.tt[h & self.mask]
                n = g.legal_actions(g.params, self.states, self.actions)
                if e.flag != FLAG_EMPTY and e.key == h and e.best >= 0:
                    best_a = e.best
                    for i in range(n):
                        if self.actions[i] == best_a:
                            break
                    else:
                        # The entry came from another state of the same
                        # key (a canonical one): its move may not be
                        # legal here; take a move the table shows as good.
                        best_a = self.best_from_table(out, n)
                else:
                    # Not searched (or no move stored): the game's bounds
                    # settled the root, so every move is worth the same;
                    # the first is a best one.
                    best_a = self.actions[0] if n > 0 else -1
            return [vec, best_a if best_a >= 0 else None, rows]
        # Every root action exactly: each child with a full window.
        n = g.legal_actions(g.params, self.states, self.actions)
        acts = [self.actions[i] for i in range(n)]
        best = -INF
        vec = None
        done = {}                       # a child's key -> its row (canonical keys)
        for a in acts:
            memcpy(self.states + g.state_size, self.states, g.state_size)
            g.apply_action(g.params, self.states + g.state_size, a)
            if self.canonical:
                h = self.key_of(g.params, self.states + g.state_size)
                if h in done:           # worth what an earlier move is worth
                    rows.append((a, list(done[h])))
                    continue
            with nogil:
                self.value(1, -INF, INF, cv)
            self.raise_if_aborted()
            row = [cv[k] for k in range(self.nplayers)]
            if self.canonical:
                done[h] = row
            rows.append((a, row))
            v = row[p] - row[1 - p] if self.alphabeta else row[p]
            if v > best:
                best = v
                best_a = a
                vec = row
        return [vec, best_a, rows]

    cdef int best_from_table(self, const double *out, int n):
        """A legal move of the root (``actions[:n]``) whose child the table
        shows to reach the root's value ``out``; else the best of every
        move's value."""
        cdef const GameDef *g = self.g
        cdef char *child = self.states + g.state_size
        cdef int p = g.current_player(g.params, self.states), i
        cdef double target = self.scalar(out, 0)
        cdef uint64_t h
        cdef Entry *e
        for i in range(n):
            memcpy(child, self.states, g.state_size)
            g.apply_action(g.params, child, self.actions[i])
            h = self.key_of(g.params, child)
            e = &self.tt[h & self.mask]
            if e.flag == FLAG_EMPTY or e.key != h:
                continue
            if not self.alphabeta:
                if e.flag == FLAG_EXACT and e.vec[p] == out[p]:
                    return self.actions[i]
            elif (e.flag == FLAG_EXACT and e.score == target) or (
                    p == 0 and e.flag == FLAG_LOWER and e.score >= target) or (
                    p != 0 and e.flag == FLAG_UPPER and e.score <= target):
                return self.actions[i]
        return self._solve_buffer(True)[1]

    def probe(self, state, double alpha, double beta) -> tuple:
        """The search of ``state`` (a 'solvers.State' capsule) with the window
        (alpha, beta), as the search runs it inside (fail-soft): ``(v,
        vector)``, where v <= alpha is an upper bound on the value, v >= beta
        a lower bound, and otherwise v and the vector are exact. For tests
        of the pruning; the table is kept as for :meth:`solve`."""
        cdef const GameDef *g = self.g
        cdef double out[EG_MAX_PLAYERS]
        cdef double v
        if not alpha < beta:
            raise SolversError(f"the window needs alpha < beta, not ({alpha}, {beta})")
        memcpy(self.states, state_from(state), g.state_size)
        self.aborted = False
        self.overlong = False
        with nogil:
            v = self.value(0, alpha, beta, out)
        self.raise_if_aborted()
        return v, [out[k] for k in range(self.nplayers)]

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
        row's vector), ``samples`` (solved), ``stopped`` and ``nodes``. After
        a :meth:`stop` the means cover the samples solved before it; with
        none, ``action`` is None and ``value`` and ``action_values`` are empty."""
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
        done = 0
        for _ in range(samples):
            memcpy(self.states, st, g.state_size)
            if g.determinize != NULL:
                g.determinize(g.params, self.states, player, &rng)
            try:
                _, _, rows = self._solve_buffer(True)
            except Stopped:
                break
            done += 1
            for a, row in rows:
                acc = sums.setdefault(a, [[0.0] * self.nplayers, 0])
                for k in range(self.nplayers):
                    acc[0][k] += row[k]
                acc[1] += 1
        table = [(a, [x / cnt for x in vec], cnt) for a, (vec, cnt) in sums.items()]
        table.sort(key=lambda r: (-r[1][mover], r[0]))
        return {"action": table[0][0] if table else None, "value": table[0][1] if table else [],
                "action_values": table, "samples": done, "stopped": done < samples,
                "player": mover, "nodes": self.nodes - start}


def solve(gamedef, state, *, str mode="auto", int tt_bits=22, max_nodes=DEFAULT_MAX_NODES,
          bint per_action=False, bint line=True, owner=None, return_bounds=None,
          bint state_bounds=True, bint canonical=True) -> dict:
    """One-shot :meth:`Solver.solve`."""
    return Solver(gamedef, mode=mode, tt_bits=tt_bits, max_nodes=max_nodes, owner=owner,
                  return_bounds=return_bounds, state_bounds=state_bounds,
                  canonical=canonical).solve(
                      state, per_action=per_action, line=line)


def expected_endgame(gamedef, state, int player, int samples=16, seed=0, *, str mode="auto",
                     int tt_bits=22, max_nodes=DEFAULT_MAX_NODES, owner=None) -> dict:
    """One-shot :meth:`Solver.expected`."""
    return Solver(gamedef, mode=mode, tt_bits=tt_bits, max_nodes=max_nodes,
                  owner=owner).expected(state, player, samples, seed)
