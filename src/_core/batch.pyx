# cython: language_level=3
"""Many games or many states in one call, in C without the GIL, over any
game that exports a ``GameDef`` (game_api.h): the throughput face of the
kernels for Python callers (:mod:`solvers.batch` wraps it).

* :func:`random_games` plays ``n`` games from one state to the end: chance
  drawn with ``sample_chance``, the seats in ``policy_seats`` on the game's
  playout policy (``rollout_action``), the others uniformly at random over
  their legal actions -- the loop MCTS rollouts use (mcts.pyx). Game ``i``
  draws from its own generator, seeded with the ``i``-th output of
  ``SplitMix64(seed)``, so a game does not depend on ``n``, on the order the
  games are played in, or on how many threads play them.
* :class:`StateArray` keeps ``n`` state structs side by side and answers
  ``current_player`` / ``legal_actions`` / ``returns`` for all of them, or
  applies one action to each, in one call.

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> start = game.new_initial_state()
    >>> r = random_games(game._gamedef_capsule(), start._state_capsule(), 4, 7, 0, False)
    >>> r[0].shape, r[1].shape, r[2] is None
    ((4, 2), (4,), True)
"""

cimport numpy as cnp
import numpy as np
from libc.stdint cimport int32_t, uint64_t, uint8_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from game_api cimport (GameDef, GAME_CHANCE, GAME_TERMINAL, splitmix64_next, rng_below,
                       gamedef_from, state_from)

from solvers.errors import IllegalActionError, SolversError

cnp.import_array()

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL


cdef inline uint64_t nth_seed(uint64_t seed, long i) noexcept nogil:
    """The ``i``-th output (from 0) of ``SplitMix64(seed)``, without the
    ``i`` draws before it (the generator's state only adds a constant)."""
    cdef uint64_t r = seed + <uint64_t>i * GOLDEN
    return splitmix64_next(&r)


cdef long play_range(const GameDef *g, const void *start, char *st, int *acts, long lo, long hi,
                     uint64_t seed, unsigned int policy_seats, double *rets, int32_t *lengths,
                     int32_t *hist, int hist_len) noexcept nogil:
    """Games ``lo`` .. ``hi``-1 (see the module docstring); returns the
    number of the first game that ran past ``max_game_length`` (its record
    is cut there; the game still ends), or -1."""
    cdef long i, bad = -1
    cdef int p, n, a, plies, q
    cdef uint64_t rng
    cdef double ret[64]
    for i in range(lo, hi):
        memcpy(st, start, g.state_size)
        rng = nth_seed(seed, i)
        plies = 0
        while True:
            p = g.current_player(g.params, st)
            if p == GAME_TERMINAL:
                break
            if p == GAME_CHANCE:
                a = g.sample_chance(g.params, st, &rng)
            elif (policy_seats >> p) & 1:
                a = g.rollout_action(g.params, st, &rng)
            else:
                n = g.legal_actions(g.params, st, acts)
                a = acts[rng_below(&rng, n) if n > 1 else 0]
            if hist != NULL:
                if plies < hist_len:
                    hist[i * hist_len + plies] = a
                elif bad < 0:
                    bad = i
            g.apply_action(g.params, st, a)
            plies += 1
        lengths[i] = plies
        g.returns(g.params, st, ret)
        for q in range(g.num_players):
            rets[i * g.num_players + q] = ret[q]
    return bad


def random_games(gamedef, state, long n, uint64_t seed, unsigned int policy_seats, bint record,
                 int threads=1):
    """``n`` games from ``state`` (a "solvers.State" capsule) of the game
    behind ``gamedef`` (a "solvers.GameDef" capsule); see the module
    docstring. Returns ``(returns, lengths, histories)``: float64 ``(n,
    players)`` of ``GameDef.returns``, int32 ``(n,)`` actions per game
    (chance included), and when ``record`` the actions, int32 ``(n,
    max_game_length)`` padded with -1 (else None). ``threads`` > 1 splits the
    games between that many threads (the same games)."""
    cdef const GameDef *g = gamedef_from(gamedef)
    cdef const void *start = state_from(state)
    cdef int hist_len = g.max_game_length if record else 0
    cdef cnp.ndarray rets, lengths, hist = None
    cdef double *rp
    cdef int32_t *lp
    cdef int32_t *hp = NULL
    if n < 0:
        raise SolversError(f"the number of games should be >= 0, not {n}")
    if g.num_players > 64:
        raise SolversError("at most 64 players")
    if policy_seats and g.rollout_action == NULL:
        raise SolversError(f"{g.name.decode()} has no playout policy (GameDef.rollout_action)")
    rets = np.zeros((n, g.num_players), dtype=np.float64)
    lengths = np.zeros(n, dtype=np.int32)
    if record:
        hist = np.full((n, hist_len), -1, dtype=np.int32)
        hp = <int32_t *> hist.data
    rp = <double *> rets.data
    lp = <int32_t *> lengths.data
    addresses = (<size_t>rp, <size_t>lp, <size_t>hp)
    if threads <= 1 or n < 2 * threads:
        bad = _play_chunk(gamedef, state, 0, n, seed, policy_seats, *addresses, hist_len)
    else:
        from concurrent.futures import ThreadPoolExecutor
        bounds = [n * k // threads for k in range(threads + 1)]
        with ThreadPoolExecutor(threads) as pool:
            found = list(pool.map(lambda k: _play_chunk(gamedef, state, bounds[k], bounds[k + 1], seed,
                                                        policy_seats, *addresses, hist_len),
                                  range(threads)))
        bad = next((b for b in found if b >= 0), -1)
    if bad >= 0:
        raise SolversError(f"game {bad} took more than max_game_length = {hist_len} actions "
                           f"({g.name.decode()}): a kernel bug")
    return rets, lengths, hist


def _play_chunk(gamedef, state, long lo, long hi, uint64_t seed, unsigned int policy_seats,
                size_t rets, size_t lengths, size_t hist, int hist_len) -> int:
    """Games ``lo`` .. ``hi``-1 into the arrays at those addresses (one
    thread's share of :func:`random_games`), the GIL released."""
    cdef const GameDef *g = gamedef_from(gamedef)
    cdef const void *start = state_from(state)
    cdef char *st = <char *> malloc(g.state_size)
    cdef int *acts = <int *> malloc(sizeof(int) * (g.max_actions + 1))
    cdef long bad
    if st == NULL or acts == NULL:
        free(st)
        free(acts)
        raise MemoryError()
    with nogil:
        bad = play_range(g, start, st, acts, lo, hi, seed, policy_seats, <double *>rets,
                         <int32_t *>lengths, <int32_t *>hist, hist_len)
    free(st)
    free(acts)
    return bad


cdef class StateArray:
    """``n`` states of one game as plain structs side by side (copies of
    the states given; the game's ``GameDef`` capsule keeps its tables
    alive). Every method works on all of them in one call, in C."""

    cdef object gamedef
    cdef const GameDef *g
    cdef char *data
    cdef readonly long size
    cdef int *acts

    def __cinit__(self, gamedef, states):
        cdef long i
        self.gamedef = gamedef
        self.g = gamedef_from(gamedef)
        states = list(states)
        self.size = len(states)
        self.data = <char *> malloc(max(1, self.size) * self.g.state_size)
        self.acts = <int *> malloc(sizeof(int) * (self.g.max_actions + 1))
        if self.data == NULL or self.acts == NULL:
            raise MemoryError()
        for i in range(self.size):
            memcpy(self.data + i * self.g.state_size, state_from(states[i]), self.g.state_size)

    def __dealloc__(self):
        free(self.data)
        free(self.acts)

    cdef inline void *at(self, long i) noexcept nogil:
        return self.data + i * self.g.state_size

    def raw(self, long i) -> bytes:
        """State ``i``'s struct as bytes (``game.state_from_raw`` rebuilds it)."""
        if not 0 <= i < self.size:
            raise SolversError(f"no state {i} in an array of {self.size}")
        return (<char *> self.at(i))[:self.g.state_size]

    def current_players(self):
        """int32 ``(n,)``: each state's ``current_player`` (-1 chance, -4 over)."""
        cdef cnp.ndarray out = np.empty(self.size, dtype=np.int32)
        cdef int32_t *o = <int32_t *> out.data
        cdef long i
        with nogil:
            for i in range(self.size):
                o[i] = self.g.current_player(self.g.params, self.at(i))
        return out

    def legal_actions(self):
        """``(actions, counts)``: int32 ``(n, max_actions)`` padded with -1
        and int32 ``(n,)``; row ``i`` lists state ``i``'s legal actions (its
        chance outcomes at a chance node), ascending."""
        cdef int m = self.g.max_actions
        cdef cnp.ndarray acts = np.full((self.size, m), -1, dtype=np.int32)
        cdef cnp.ndarray counts = np.zeros(self.size, dtype=np.int32)
        cdef int32_t *a = <int32_t *> acts.data
        cdef int32_t *c = <int32_t *> counts.data
        cdef long i
        cdef int k, j
        with nogil:
            for i in range(self.size):
                k = self.g.legal_actions(self.g.params, self.at(i), self.acts)
                c[i] = k
                for j in range(k):
                    a[i * m + j] = self.acts[j]
        return acts, counts

    def returns(self):
        """float64 ``(n, players)``: each state's ``GameDef.returns``."""
        cdef int np_ = self.g.num_players
        cdef cnp.ndarray out = np.zeros((self.size, np_), dtype=np.float64)
        cdef double *o = <double *> out.data
        cdef double ret[64]
        cdef long i
        cdef int q
        with nogil:
            for i in range(self.size):
                self.g.returns(self.g.params, self.at(i), ret)
                for q in range(np_):
                    o[i * np_ + q] = ret[q]
        return out

    def apply(self, actions) -> None:
        """Apply ``actions[i]`` to state ``i`` for every ``i`` whose action is
        not negative (a negative one leaves its state as it is). All are
        checked first: an illegal action raises IllegalActionError naming the
        state and changes nothing."""
        cdef cnp.ndarray arr
        cdef const int32_t *a
        cdef long i, bad = -1
        cdef int k, j, found
        try:
            arr = np.ascontiguousarray(actions, dtype=np.int32)
        except (TypeError, ValueError, OverflowError):
            raise SolversError("actions should be a sequence of ints") from None
        if arr.ndim != 1 or arr.shape[0] != self.size:
            raise SolversError(f"expected {self.size} actions, got an array of shape {np.shape(actions)}")
        a = <const int32_t *> arr.data
        with nogil:
            for i in range(self.size):
                if a[i] < 0:
                    continue
                k = self.g.legal_actions(self.g.params, self.at(i), self.acts)
                found = 0
                for j in range(k):
                    if self.acts[j] == a[i]:
                        found = 1
                        break
                if not found:
                    bad = i
                    break
            if bad < 0:
                for i in range(self.size):
                    if a[i] >= 0:
                        self.g.apply_action(self.g.params, self.at(i), a[i])
        if bad >= 0:
            raise IllegalActionError(f"action {a[bad]} is not legal in state {bad}")

    def random_actions(self, uint64_t seed, unsigned int policy_seats=0):
        """int32 ``(n,)``: a move for each state as :func:`random_games`
        makes it (chance by ``sample_chance``, the seats of ``policy_seats``
        by the playout policy, others uniformly), state ``i`` drawing from
        the ``i``-th output of ``SplitMix64(seed)``; -1 for a finished game.
        ``apply`` plays them."""
        cdef cnp.ndarray out = np.empty(self.size, dtype=np.int32)
        cdef int32_t *o = <int32_t *> out.data
        cdef long i
        cdef int p, k
        cdef uint64_t rng
        if policy_seats and self.g.rollout_action == NULL:
            raise SolversError(f"{self.g.name.decode()} has no playout policy (GameDef.rollout_action)")
        with nogil:
            for i in range(self.size):
                rng = nth_seed(seed, i)
                p = self.g.current_player(self.g.params, self.at(i))
                if p == GAME_TERMINAL:
                    o[i] = -1
                elif p == GAME_CHANCE:
                    o[i] = self.g.sample_chance(self.g.params, self.at(i), &rng)
                elif (policy_seats >> p) & 1:
                    o[i] = self.g.rollout_action(self.g.params, self.at(i), &rng)
                else:
                    k = self.g.legal_actions(self.g.params, self.at(i), self.acts)
                    o[i] = self.acts[rng_below(&rng, k) if k > 1 else 0]
        return out
