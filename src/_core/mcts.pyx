# cython: language_level=3
"""Monte Carlo tree search in C over any game that exports a ``GameDef``.

UCT (Kocsis and Szepesvari, "Bandit based Monte-Carlo planning", ECML 2006)
with chance nodes and 1 to 4 players: every node keeps the sum of the return
*vectors* backed up through it, and the player to move at a node picks the
child that is best for itself (max^n style backup, as in Sturtevant's
multi-player UCT). Hidden information is handled as single-observer
information-set MCTS (Cowling, Powley and Whitehouse, "Information Set Monte
Carlo Tree Search", IEEE TCIAIG 4(2), 2012):

* each iteration copies the root state into a scratch buffer and calls
  ``determinize(root_player)``, so the search only relies on what the
  searching player may know;
* children are keyed by the action *as the searching player observes it*
  (``action_observation``); hidden outcomes (another player's secret draw)
  share one node;
* UCB counts how often a child was *available* (legal in the current
  determinisation) instead of the parent's visits, since legal sets differ
  between determinisations:
  ``mean + c * sqrt(ln(availability) / visits)``;
* chance nodes draw with ``sample_chance``.

Rollouts play the game's own playout policy (``GameDef.rollout_action``) or,
without one, uniformly at random to the end (or ``rollout_plies`` actions,
after which ``GameDef.returns`` of that state is used). The loop runs without
the GIL over the function table and a preallocated, growing pool of plain C
nodes (:data:`NODE_BYTES` bytes each; one new node per iteration at most), so
a million iterations take well under 100 MB.

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> state = game.new_initial_state()
    >>> for a in (0, 3, 1, 4):          # x threatens the top row
    ...     state.apply_action(a)
    >>> search = Search(game._gamedef_capsule(), state._state_capsule(), seed=1, owner=game)
    >>> search.run(iterations=2000)["action"]
    2

A search can be stopped from another thread (``stop()``) and still returns
its best move so far; ``run`` may be called again to search on.
"""

from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from game_api cimport (GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
                       splitmix64_next, rng_below, gamedef_from, state_from)

cdef extern from *:
    """
    static inline int mcts_read_flag(int *p) { return *(volatile int *)p; }
    static inline void mcts_write_flag(int *p, int v) { *(volatile int *)p = v; }
    """
    int mcts_read_flag(int *p) nogil
    void mcts_write_flag(int *p, int v) nogil

from solvers.errors import SolversError
from mcts_tree cimport Node, MCTS_MAX_PLAYERS

NODE_BYTES = sizeof(Node)
"""Bytes of one tree node."""

DEFAULT_MAX_NODES = 8_000_000  # 8M nodes x 56 B: a timed search stays under 0.5 GB


cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int key_index(int key, int nda) noexcept nogil:
    return key if key >= 0 else nda


cdef class Search:
    """A search tree rooted at one position; the root state is copied.

    Parameters: ``gamedef`` and ``state`` capsules; ``c`` the exploration
    constant; ``seed`` for every random choice; ``rollout_plies`` (0 = play
    out to the end); ``determinize`` (re-deal hidden information before each
    iteration; on by default); ``informed_rollouts`` (use the game's
    ``rollout_action`` playout policy when it has one; on by default); ``max_nodes`` bounds the node pool (when it is
    full, the search goes on without growing the tree); ``owner`` is any
    object to keep alive with the search (the game that owns the tables).
    """

    cdef const GameDef *g
    cdef object owner                   # keeps the game (and its tables) alive
    cdef char *root
    cdef char *scratch
    cdef int root_player
    cdef int num_players
    cdef double c
    cdef uint64_t rng
    cdef int rollout_plies
    cdef bint determinize
    cdef bint informed
    cdef Node *nodes
    cdef int64_t n_nodes
    cdef int64_t capacity
    cdef int64_t max_nodes
    cdef int *actions
    cdef int *keys
    cdef int *pick
    cdef int32_t *path
    cdef int64_t *mark
    cdef int64_t *expanded
    cdef int64_t stamp
    cdef int stop_flag
    cdef bint running
    cdef readonly int64_t iterations
    cdef readonly double seconds

    def __cinit__(self, gamedef, state, *, double c=1.4, seed=0, int rollout_plies=0,
                  bint determinize=True, max_nodes=DEFAULT_MAX_NODES, owner=None,
                  bint informed_rollouts=True):
        self.nodes = NULL
        self.root = NULL
        self.scratch = NULL
        self.actions = NULL
        self.keys = NULL
        self.pick = NULL
        self.path = NULL
        self.mark = NULL
        self.expanded = NULL
        self.g = gamedef_from(gamedef)
        cdef void *st = state_from(state)
        cdef const GameDef *g = self.g
        if not 1 <= g.num_players <= MCTS_MAX_PLAYERS:
            raise SolversError(f"MCTS handles 1 to {MCTS_MAX_PLAYERS} players, not {g.num_players}")
        if not c >= 0:
            raise SolversError(f"the exploration constant must be >= 0, not {c}")
        if rollout_plies < 0:
            raise SolversError(f"rollout_plies must be >= 0, not {rollout_plies}")
        if max_nodes < 1:
            raise SolversError(f"max_nodes must be >= 1, not {max_nodes}")
        self.root_player = g.current_player(g.params, st)
        if self.root_player == GAME_TERMINAL:
            raise SolversError("the game is over: there is nothing to search")
        if self.root_player == GAME_CHANCE:
            raise SolversError("a chance node is not a decision: resolve chance first")
        self.owner = owner
        self.num_players = g.num_players
        self.c = c
        self.rng = <uint64_t> (seed & 0xFFFFFFFFFFFFFFFF)
        self.rollout_plies = rollout_plies
        self.determinize = determinize and g.determinize != NULL
        self.informed = informed_rollouts
        if g.action_observation == NULL or g.sample_chance == NULL or g.returns == NULL:
            raise SolversError(f"the game {g.name.decode()!r} leaves part of its C table empty")
        self.max_nodes = max_nodes
        self.root = <char *> malloc(g.state_size)
        self.scratch = <char *> malloc(g.state_size)
        self.actions = <int *> malloc(sizeof(int) * (g.max_actions + 1))
        self.keys = <int *> malloc(sizeof(int) * (g.max_actions + 1))
        self.pick = <int *> malloc(sizeof(int) * (g.max_actions + 1))
        self.path = <int32_t *> malloc(sizeof(int32_t) * (g.max_game_length + 2))
        self.mark = <int64_t *> malloc(sizeof(int64_t) * (g.num_distinct_actions + 1))
        self.expanded = <int64_t *> malloc(sizeof(int64_t) * (g.num_distinct_actions + 1))
        self.capacity = min(self.max_nodes, 4096)
        self.nodes = <Node *> malloc(sizeof(Node) * self.capacity)
        if (self.root == NULL or self.scratch == NULL or self.actions == NULL
                or self.keys == NULL or self.pick == NULL or self.path == NULL
                or self.mark == NULL or self.expanded == NULL or self.nodes == NULL):
            raise MemoryError()
        memcpy(self.root, st, g.state_size)
        memset(self.mark, 0, sizeof(int64_t) * (g.num_distinct_actions + 1))
        memset(self.expanded, 0, sizeof(int64_t) * (g.num_distinct_actions + 1))
        self.stamp = 0
        self.n_nodes = 0
        self.new_node(-1, GAME_HIDDEN)
        self.iterations = 0
        self.seconds = 0.0
        self.stop_flag = 0
        self.running = False

    def __dealloc__(self):
        free(self.nodes)
        free(self.root)
        free(self.scratch)
        free(self.actions)
        free(self.keys)
        free(self.pick)
        free(self.path)
        free(self.mark)
        free(self.expanded)

    @property
    def player(self) -> int:
        """The seat the search plays for (to move at the root)."""
        return self.root_player

    @property
    def nodes_used(self) -> int:
        return self.n_nodes

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the node pool."""
        return self.capacity * sizeof(Node)

    cdef int32_t new_node(self, int32_t parent, int key) noexcept nogil:
        """Append a child of ``parent`` (or the root); -1 when the pool is full."""
        cdef Node *grown
        cdef int64_t cap
        cdef Node *n
        if self.n_nodes >= self.capacity:
            if self.capacity >= self.max_nodes:
                return -1
            cap = min(self.capacity * 2, self.max_nodes)
            grown = <Node *> realloc(self.nodes, sizeof(Node) * cap)
            if grown == NULL:
                self.max_nodes = self.capacity   # out of memory: stop growing
                return -1
            self.nodes = grown
            self.capacity = cap
        cdef int32_t i = <int32_t> self.n_nodes
        self.n_nodes += 1
        n = &self.nodes[i]
        memset(n, 0, sizeof(Node))
        n.first_child = -1
        n.key = key
        n.avail = 1
        if parent >= 0:
            n.next_sibling = self.nodes[parent].first_child
            self.nodes[parent].first_child = i
        else:
            n.next_sibling = -1
        return i

    cdef int action_seen_as(self, int key, int n) noexcept nogil:
        """One of the ``n`` legal actions (in ``actions``/``keys``) that the
        searcher observes as ``key``, uniformly at random."""
        cdef int i, n_pick = 0
        for i in range(n):
            if self.keys[i] == key:
                self.pick[n_pick] = self.actions[i]
                n_pick += 1
        return self.pick[rng_below(&self.rng, n_pick) if n_pick > 1 else 0]

    cdef void iterate(self) noexcept nogil:
        cdef const GameDef *g = self.g
        cdef const void *params = g.params
        cdef void *st = self.scratch
        cdef int nda = g.num_distinct_actions
        cdef int depth = 0, p, n, i, k, a, key, n_unexp, plies
        cdef int32_t node = 0, child, best
        cdef double ucb, best_ucb, log_avail
        cdef int64_t last_avail
        cdef double ret[MCTS_MAX_PLAYERS]
        cdef Node *ch
        cdef int64_t stamp
        memcpy(st, self.root, g.state_size)
        if self.determinize:
            g.determinize(params, st, self.root_player, &self.rng)
        self.path[depth] = 0
        depth += 1
        while depth <= g.max_game_length:   # (guards the path against a wrong bound)
            p = g.current_player(params, st)
            if p == GAME_TERMINAL:
                break
            if p == GAME_CHANCE:
                a = g.sample_chance(params, st, &self.rng)
                key = g.action_observation(params, st, a, self.root_player)
                g.apply_action(params, st, a)
                child = self.nodes[node].first_child
                while child >= 0 and self.nodes[child].key != key:
                    child = self.nodes[child].next_sibling
                if child < 0:
                    child = self.new_node(node, key)
                    if child >= 0:
                        self.path[depth] = child
                        depth += 1
                    break
                self.path[depth] = child
                depth += 1
                node = child
                continue
            # A decision: group the legal actions by what the searcher sees.
            n = g.legal_actions(params, st, self.actions)
            self.stamp += 1
            stamp = self.stamp
            for i in range(n):
                key = g.action_observation(params, st, self.actions[i], self.root_player)
                self.keys[i] = key
                self.mark[key_index(key, nda)] = stamp
            # Children available in this determinisation.
            child = self.nodes[node].first_child
            while child >= 0:
                k = key_index(self.nodes[child].key, nda)
                if self.mark[k] == stamp:
                    self.expanded[k] = stamp
                    self.nodes[child].avail += 1
                child = self.nodes[child].next_sibling
            n_unexp = 0
            for i in range(n):
                k = key_index(self.keys[i], nda)
                if self.expanded[k] != stamp:
                    self.expanded[k] = stamp      # count each unexpanded key once
                    self.pick[n_unexp] = self.keys[i]
                    n_unexp += 1
            if n_unexp > 0 and self.n_nodes < self.max_nodes:
                key = self.pick[rng_below(&self.rng, n_unexp) if n_unexp > 1 else 0]
                a = self.action_seen_as(key, n)
                g.apply_action(params, st, a)
                child = self.new_node(node, key)
                if child >= 0:
                    self.path[depth] = child
                    depth += 1
                break
            # Every available child has statistics: UCB on availability.
            best = -1
            best_ucb = -1e300
            last_avail = -1
            log_avail = 0.0
            child = self.nodes[node].first_child
            while child >= 0:
                ch = &self.nodes[child]
                if self.mark[key_index(ch.key, nda)] == stamp and ch.visits > 0:
                    if ch.avail != last_avail:      # siblings mostly share it
                        last_avail = ch.avail
                        log_avail = log(<double> ch.avail)
                    ucb = (ch.value[p] / ch.visits
                           + self.c * sqrt(log_avail / ch.visits))
                    if ucb > best_ucb:
                        best_ucb = ucb
                        best = child
                child = ch.next_sibling
            if best < 0:          # the pool is full and nothing here was expanded
                a = self.actions[rng_below(&self.rng, n)]
                g.apply_action(params, st, a)
                break
            key = self.nodes[best].key
            a = self.action_seen_as(key, n)
            g.apply_action(params, st, a)
            self.path[depth] = best
            depth += 1
            node = best
        # Rollout: the game's playout policy if it has one, else uniformly random.
        plies = 0
        while self.rollout_plies == 0 or plies < self.rollout_plies:
            p = g.current_player(params, st)
            if p == GAME_TERMINAL:
                break
            if p == GAME_CHANCE:
                a = g.sample_chance(params, st, &self.rng)
            elif g.rollout_action != NULL and self.informed:
                a = g.rollout_action(params, st, &self.rng)
            else:
                n = g.legal_actions(params, st, self.actions)
                a = self.actions[rng_below(&self.rng, n) if n > 1 else 0]
            g.apply_action(params, st, a)
            plies += 1
        for i in range(MCTS_MAX_PLAYERS):
            ret[i] = 0.0
        g.returns(params, st, ret)
        for i in range(depth):
            ch = &self.nodes[self.path[i]]
            ch.visits += 1
            for k in range(self.num_players):
                ch.value[k] += ret[k]

    def run(self, iterations=None, time=None) -> dict:
        """Search for ``iterations`` more iterations and/or ``time`` seconds
        (whichever ends first; at least one must be given), or until
        :meth:`stop`. Returns :meth:`result`. Releases the GIL while it runs;
        one run at a time (``result`` too waits for the run to end). A
        ``stop()`` that comes before the run starts makes it return at once."""
        if self.running:
            raise SolversError("this search is already running")
        if iterations is None and time is None:
            raise SolversError("give a budget: iterations and/or time")
        if iterations is not None and (isinstance(iterations, bool) or not isinstance(iterations, int)
                                       or iterations < 0):
            raise SolversError(f"iterations must be a whole number >= 0, not {iterations!r}")
        if time is not None and not (isinstance(time, (int, float)) and time >= 0):
            raise SolversError(f"time must be a number of seconds >= 0, not {time!r}")
        cdef int64_t budget = -1 if iterations is None else iterations
        cdef double limit = -1.0 if time is None else float(time)
        cdef int64_t done = 0
        cdef double start, deadline
        self.running = True
        with nogil:
            start = now()
            deadline = start + limit
            while budget < 0 or done < budget:
                if mcts_read_flag(&self.stop_flag):
                    break
                if limit >= 0 and (done & 31) == 0 and now() >= deadline:
                    break
                self.iterate()
                done += 1
            self.seconds += now() - start
            mcts_write_flag(&self.stop_flag, 0)
        self.running = False
        self.iterations += done
        return self.result()

    def stop(self) -> None:
        """Ask a running :meth:`run` (in another thread) to return now."""
        mcts_write_flag(&self.stop_flag, 1)

    def result(self) -> dict:
        """The search so far: ``action`` (most visits), per root action
        ``actions``/``visits``/``values`` (mean return for the player to move)
        ranked best first, ``value_vectors`` (mean return of every seat),
        ``iterations``, ``nodes``, ``seconds``."""
        if self.running:
            raise SolversError("the search is running: stop it or wait for run() to return")
        cdef int32_t child = self.nodes[0].first_child
        cdef Node *ch
        rows = []
        while child >= 0:
            ch = &self.nodes[child]
            if ch.visits > 0 and ch.key >= 0:
                vec = [ch.value[k] / ch.visits for k in range(self.num_players)]
                rows.append((ch.key, ch.visits, vec[self.root_player], vec))
            child = ch.next_sibling
        rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
        return {
            "player": self.root_player,
            "action": rows[0][0] if rows else None,
            "actions": [r[0] for r in rows],
            "visits": [r[1] for r in rows],
            "values": [r[2] for r in rows],
            "value_vectors": [r[3] for r in rows],
            "iterations": self.iterations,
            "nodes": self.n_nodes,
            "seconds": self.seconds,
        }


def search(gamedef, state, *, iterations=None, time=None, c=1.4, seed=0,
           rollout_plies=0, determinize=True, max_nodes=DEFAULT_MAX_NODES, owner=None) -> dict:
    """One-shot :class:`Search`: build, run, return the result."""
    if max_nodes == DEFAULT_MAX_NODES and iterations is not None and time is None:
        max_nodes = min(max_nodes, iterations + 1)
    s = Search(gamedef, state, c=c, seed=seed, rollout_plies=rollout_plies,
               determinize=determinize, max_nodes=max(1, max_nodes), owner=owner)
    return s.run(iterations=iterations, time=time)


def playout_plies(gamedef, state, int samples=8, seed=0, int player=-1) -> int:
    """The most actions, chance included, that ``samples`` uniformly random
    playouts from ``state`` took to finish (after re-dealing what ``player``
    cannot see, when ``player >= 0``): a cheap estimate of the plies left."""
    cdef const GameDef *g = gamedef_from(gamedef)
    cdef void *st = state_from(state)
    cdef char *buf = <char *> malloc(g.state_size)
    cdef int *acts = <int *> malloc(sizeof(int) * (g.max_actions + 1))
    cdef uint64_t rng = <uint64_t> (seed & 0xFFFFFFFFFFFFFFFF)
    cdef int most = 0, plies, p, n, a, s
    if buf == NULL or acts == NULL:
        free(buf)
        free(acts)
        raise MemoryError()
    with nogil:
        for s in range(samples):
            memcpy(buf, st, g.state_size)
            if player >= 0:
                g.determinize(g.params, buf, player, &rng)
            plies = 0
            while True:
                p = g.current_player(g.params, buf)
                if p == GAME_TERMINAL:
                    break
                if p == GAME_CHANCE:
                    a = g.sample_chance(g.params, buf, &rng)
                else:
                    n = g.legal_actions(g.params, buf, acts)
                    a = acts[rng_below(&rng, n)]
                g.apply_action(g.params, buf, a)
                plies += 1
            if plies > most:
                most = plies
    free(buf)
    free(acts)
    return most
