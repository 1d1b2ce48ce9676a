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

Rollouts play the game's own playout policy (``GameDef.rollout_action``,
or all at once through ``GameDef.playout`` when the game has it, unless
``Search(playout=False)`` asks for the move-by-move loop) for the
seats that ``rollout`` names and uniformly random moves for the others, to
the end (or ``rollout_plies`` actions, after which ``GameDef.returns`` of
that state is used). ``rollout="own"`` gives the policy to the searching
player alone: beyond the tree its opponents are modelled as playing at
random, so a rollout measures what the searcher can make of the position
by itself. (In Switchbacks that wins more often than racing opponents who
follow the same policy; the measurements are in the project's issue 3
notes.) A game that
declares its decisions public (``GameDef.public_decisions``) is spared the
``action_observation`` calls at decision nodes. The loop runs without the
GIL over the function table and two growing pools of plain C structs: nodes
(:data:`NODE_BYTES` bytes each; one new node per iteration at most; a node
never moves) and edges (:data:`EDGE_BYTES` bytes each; the children of a
node sit side by side, so a visit scans them in consecutive memory), so a
million iterations take well under 100 MB.

    >>> from solvers._core.toygames import TicTacToe
    >>> game = TicTacToe()
    >>> state = game.new_initial_state()
    >>> for a in (0, 3, 1, 4):          # x threatens the top row
    ...     state.apply_action(a)
    >>> search = Search(game._gamedef_capsule(), state._state_capsule(), seed=1)
    >>> search.run(iterations=2000)["action"]
    2

A search can be stopped from another thread (``stop()``) and still returns
its best move so far; ``run`` may be called again to search on.
"""

from libc.math cimport exp, log, sqrt
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

from eval_api cimport FeatureDef, SOLVERS_FEATURES_CAPSULE
from game_api cimport _owned_pointer

from solvers.errors import SolversError
from mcts_tree cimport Node, Edge, MCTS_MAX_PLAYERS

NODE_BYTES = sizeof(Node)
"""Bytes of one tree node (its edge from the parent is :data:`EDGE_BYTES` more)."""

EDGE_BYTES = sizeof(Edge)
"""Bytes of one parent-to-child link."""

ROLLOUTS = ("policy", "own", "random")   # who plays the playout policy (Search)
LINKS = ("logistic", "identity")          # a learned value's output function (Search)
MAX_NET_PARAMS = 1 << 22                   # the most weights and biases a network may have
MAX_NET_LAYERS = 8                         # and the most layers
DEFAULT_MAX_NODES = 8_000_000  # 8M nodes x (48 B + ~20-40 B of edges): a timed search stays under 1 GB

# Edge blocks come in size classes 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (powers
# of two and their halfway points; children are kept in the least block that
# fits them, so at most a third of a block is empty); a freed block waits in
# its class's free list for the next node that needs that size.
cdef enum:
    EDGE_CLASSES = 64
# log(availability) is remembered for this many recent counts (direct-mapped
# by the low bits): the children of a busy node have counts within a narrow
# band that moves up by one per visit, so nearly every log is a lookup.
cdef enum:
    LOG_CACHE = 1024


cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline int key_index(int key, int nda) noexcept nogil:
    return key if key >= 0 else nda


cdef inline int64_t class_size(int c) noexcept nogil:
    """Edges in a block of class c."""
    if c == 0:
        return 1
    if c & 1:
        return (<int64_t> 1) << ((c + 1) >> 1)
    return (<int64_t> 3) << ((c - 2) >> 1)


cdef inline int size_class(int64_t n) noexcept nogil:
    """The class of the least block that holds n >= 1 edges."""
    cdef int c = 0
    while class_size(c) < n:
        c += 1
    return c


cdef class Search:
    """A search tree rooted at one position; the root state is copied.

    Parameters: ``gamedef`` and ``state`` capsules; ``c`` the exploration
    constant; ``seed`` for every random choice; ``rollout_plies`` (0 = play
    out to the end); ``determinize`` (re-deal hidden information before each
    iteration; on by default); ``rollout``: who plays the game's playout
    policy in rollouts, when the game has one (``"policy"`` every seat, the
    default; ``"own"`` the searching player only; ``"random"`` nobody: the
    others move uniformly at random); ``playout`` (default True): play
    rollouts through the game's fused ``GameDef.playout`` when it has one,
    else move by move (the same moves, for measuring what the fusion gains);
    ``max_nodes`` bounds the node pool (when it is
    full, the search goes on without growing the tree). The search keeps
    the ``gamedef`` capsule, which keeps the game's tables alive, and copies
    the root state; ``owner`` is any further object to keep alive with it
    (not needed for the game).

    A learned value (``solvers.learn.model.Model.search_options`` fills these):
    ``features`` the game's feature capsule; either ``weights`` and ``bias``
    (linear) or ``layers``, a list of ``(w, b)`` with ``w`` one row per input
    (a small ReLU network, one output); ``link`` ``"logistic"`` or
    ``"identity"``; ``mix`` the model's share of a leaf's value against the
    rollout's; ``value_sum`` > 0 when the seats' values share a constant sum
    (then the searcher's value comes from its own features only).
    """

    cdef const GameDef *g
    cdef object gamedef                 # the capsule: keeps the game (and its tables) alive
    cdef object owner
    cdef char *root
    cdef char *scratch
    cdef int root_player
    cdef int num_players
    cdef double c
    cdef uint64_t rng
    cdef int rollout_plies
    cdef bint determinize
    cdef unsigned int policy_seats      # seats that play the playout policy
    cdef bint fused                     # rollouts through GameDef.playout
    cdef bint public_decisions
    cdef Node *nodes
    cdef int64_t n_nodes
    cdef int64_t capacity
    cdef int64_t max_nodes
    cdef Edge *edges
    cdef int64_t n_edges                # high-water mark of the edge pool
    cdef int64_t free_slots             # edges in the blocks of the free lists
    cdef readonly int64_t _compactions  # times the edge pool was packed (for tests)
    cdef int64_t edge_capacity
    cdef int32_t free_edges[EDGE_CLASSES]
    cdef int *actions
    cdef int *keys
    cdef int *pick
    cdef int32_t *path
    cdef int64_t *mark
    cdef int64_t *expanded
    cdef int64_t stamp
    cdef int32_t log_key[LOG_CACHE]
    cdef double log_value[LOG_CACHE]
    cdef int stop_flag
    cdef bint running
    cdef readonly int64_t iterations
    cdef readonly double seconds
    # A learned leaf evaluation (None/NULL: rollouts only); see __cinit__.
    cdef const FeatureDef *fd
    cdef object features_cap            # the capsule: keeps the kernel alive
    cdef float *weights
    cdef float *fbuf
    # A network (kind "mlp"): n_layers layers, widths[0] the features and
    # widths[l + 1] layer l's outputs; layer l's weights row-major [in][out]
    # at net + offsets[l], its biases after them; hbuf two activations.
    cdef int n_layers
    cdef int *widths
    cdef int *offsets
    cdef float *net
    cdef float *hbuf
    cdef int widest
    cdef double bias
    cdef bint logistic
    cdef double mix
    cdef double value_sum

    def __cinit__(self, gamedef, state, *, double c=1.4, seed=0, int rollout_plies=0,
                  bint determinize=True, max_nodes=DEFAULT_MAX_NODES, owner=None,
                  str rollout="policy", bint playout=True, features=None, weights=None,
                  double bias=0.0, str link="logistic", double mix=1.0, double value_sum=0.0,
                  layers=None):
        self.nodes = NULL
        self.fd = NULL
        self.weights = NULL
        self.fbuf = NULL
        self.n_layers = 0
        self.widths = NULL
        self.offsets = NULL
        self.net = NULL
        self.hbuf = NULL
        self.edges = NULL
        self.root = NULL
        self.scratch = NULL
        self.actions = NULL
        self.keys = NULL
        self.pick = NULL
        self.path = NULL
        self.mark = NULL
        self.expanded = NULL
        self.g = gamedef_from(gamedef)
        self.gamedef = gamedef
        cdef void *st = state_from(state)
        cdef const GameDef *g = self.g
        cdef int i
        if not 1 <= g.num_players <= MCTS_MAX_PLAYERS:
            raise SolversError(f"MCTS handles 1 to {MCTS_MAX_PLAYERS} players, not {g.num_players}")
        if not c >= 0:
            raise SolversError(f"the exploration constant must be >= 0, not {c}")
        if rollout_plies < 0:
            raise SolversError(f"rollout_plies must be >= 0, not {rollout_plies}")
        if rollout not in ROLLOUTS:
            raise SolversError(f"unknown rollout {rollout!r}; use one of {', '.join(ROLLOUTS)}")
        if max_nodes < 1:
            raise SolversError(f"max_nodes must be >= 1, not {max_nodes}")
        if max_nodes > 0x7FFFFFFF:
            raise SolversError(f"max_nodes must be < 2**31, not {max_nodes}")
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
        if g.rollout_action == NULL or rollout == "random":
            self.policy_seats = 0
        elif rollout == "own":
            self.policy_seats = 1u << self.root_player
        else:
            self.policy_seats = (1u << g.num_players) - 1
        self.public_decisions = g.public_decisions != 0
        self.fused = playout and g.playout != NULL
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
        self.edge_capacity = self.capacity
        self.edges = <Edge *> malloc(sizeof(Edge) * self.edge_capacity)
        if (self.root == NULL or self.scratch == NULL or self.actions == NULL
                or self.keys == NULL or self.pick == NULL or self.path == NULL
                or self.mark == NULL or self.expanded == NULL or self.nodes == NULL
                or self.edges == NULL):
            raise MemoryError()
        memcpy(self.root, st, g.state_size)
        memset(self.mark, 0, sizeof(int64_t) * (g.num_distinct_actions + 1))
        memset(self.expanded, 0, sizeof(int64_t) * (g.num_distinct_actions + 1))
        for i in range(EDGE_CLASSES):
            self.free_edges[i] = -1
        for i in range(LOG_CACHE):
            self.log_key[i] = 0             # counts are >= 1: no entry yet
            self.log_value[i] = 0.0
        self.n_edges = 0
        self.free_slots = 0
        self._compactions = 0
        self.stamp = 0
        self.n_nodes = 1                    # the root
        memset(&self.nodes[0], 0, sizeof(Node))
        self.nodes[0].first_edge = -1
        self.nodes[0].key = GAME_HIDDEN
        self.iterations = 0
        self.seconds = 0.0
        self.stop_flag = 0
        self.running = False
        if features is not None:
            self.set_model(features, weights, bias, link, mix, value_sum, layers)
        elif weights is not None or layers is not None:
            raise SolversError("a model without features: give the game's features capsule too")

    cdef set_model(self, features, weights, double bias, str link, double mix, double value_sum,
                   layers):
        cdef const FeatureDef *fd = <const FeatureDef *> _owned_pointer(
            features, b"solvers.Features", "game._features_capsule()")
        cdef int j, n = fd.num_features
        if (<bytes> fd.game) != (<bytes> self.g.name):
            raise SolversError("these features belong to another game than the search's")
        if layers is not None:
            if weights is not None:
                raise SolversError("give a model's weights or its layers, not both")
            self.set_layers(layers, n)
        elif weights is None or len(weights) != n:
            raise SolversError(f"the model needs {n} weights (one per feature), not "
                               f"{'none' if weights is None else len(weights)}")
        if link not in LINKS:
            raise SolversError(f"unknown link {link!r}; use one of {', '.join(LINKS)}")
        if not 0.0 <= mix <= 1.0:
            raise SolversError(f"mix must be between 0 and 1, not {mix}")
        if not value_sum >= 0.0:
            raise SolversError(f"value_sum must be >= 0, not {value_sum}")
        self.fbuf = <float *> malloc(sizeof(float) * n)
        if self.fbuf == NULL:
            raise MemoryError()
        if layers is None:
            self.weights = <float *> malloc(sizeof(float) * n)
            if self.weights == NULL:
                raise MemoryError()
            for j in range(n):
                self.weights[j] = <float> float(weights[j])
        self.fd = fd
        self.features_cap = features
        self.bias = bias
        self.logistic = link == "logistic"
        self.mix = mix
        self.value_sum = value_sum

    cdef set_layers(self, layers, int n):
        """Copy a network's layers, a list of ``(w, b)``: ``w`` a list of
        ``inputs`` rows of ``outputs`` numbers, ``b`` ``outputs`` numbers;
        the first layer reads the ``n`` features, each next one the last's
        outputs, and the last has one output (before the link)."""
        cdef int l, i, j, k = len(layers), total = 0, widest = n
        if not 1 <= k <= MAX_NET_LAYERS:
            raise SolversError(f"a network needs 1 to {MAX_NET_LAYERS} layers, not {k}")
        shapes = []
        inputs = n
        for l in range(k):
            w, b = layers[l]
            outputs = len(b)
            if len(w) != inputs or not all(len(row) == outputs for row in w):
                raise SolversError(f"layer {l} of the network does not read {inputs} inputs "
                                   f"into {outputs} outputs")
            if not 1 <= outputs <= 4096:
                raise SolversError(f"layer {l} of the network has {outputs} outputs (1 to 4096)")
            shapes.append((inputs, outputs))
            total += inputs * outputs + outputs
            widest = max(widest, outputs)
            inputs = outputs
        if inputs != 1:
            raise SolversError(f"the network's last layer has {inputs} outputs, not 1")
        if total > MAX_NET_PARAMS:
            raise SolversError(f"the network has {total} numbers, more than {MAX_NET_PARAMS}")
        self.widths = <int *> malloc(sizeof(int) * (k + 1))
        self.offsets = <int *> malloc(sizeof(int) * k)
        self.net = <float *> malloc(sizeof(float) * total)
        self.hbuf = <float *> malloc(sizeof(float) * 2 * widest)
        if self.widths == NULL or self.offsets == NULL or self.net == NULL or self.hbuf == NULL:
            raise MemoryError()
        self.widths[0] = n
        total = 0
        for l in range(k):
            w, b = layers[l]
            inputs, outputs = shapes[l]
            self.widths[l + 1] = outputs
            self.offsets[l] = total
            for j in range(inputs):             # one input's row of outputs at a time
                for i in range(outputs):
                    self.net[total + j * outputs + i] = <float> float(w[j][i])
            total += inputs * outputs
            for i in range(outputs):
                self.net[total + i] = <float> float(b[i])
            total += outputs
        self.widest = widest
        self.n_layers = k

    cdef double network(self) noexcept nogil:
        """The network's output for the features in ``fbuf``: ReLU after
        every layer but the last."""
        cdef int l, i, j, inputs, outputs
        cdef const float *x = self.fbuf
        cdef float *y
        cdef const float *w
        cdef const float *row
        cdef float xj
        for l in range(self.n_layers):
            inputs = self.widths[l]
            outputs = self.widths[l + 1]
            w = self.net + self.offsets[l]
            y = self.hbuf + (l & 1) * self.widest
            memcpy(y, w + inputs * outputs, sizeof(float) * outputs)    # the biases
            for j in range(inputs):             # y += x[j] * row j: no chain of sums, and
                xj = x[j]                       # the zeros (ReLU's, many features') skipped
                if xj != 0.0:
                    row = w + j * outputs
                    for i in range(outputs):
                        y[i] += xj * row[i]
            if l < self.n_layers - 1:
                for i in range(outputs):
                    if y[i] < 0.0:
                        y[i] = 0.0
            x = y
        return x[0]

    cdef double seat_value(self, const void *st, int q) noexcept nogil:
        """The model's value for seat q: the weights dotted with q's features
        (what q may see) plus the bias, or the network of those features,
        through the link."""
        cdef const GameDef *g = self.g
        cdef int j, n = self.fd.num_features
        cdef double z = self.bias
        self.fd.features(g.params, st, q, self.fbuf)
        if self.n_layers:
            z = self.network()
        else:
            for j in range(n):
                z += self.weights[j] * self.fbuf[j]
        if self.logistic:
            if z > 30.0:
                z = 30.0
            elif z < -30.0:
                z = -30.0
            z = 1.0 / (1.0 + exp(-z))
        return z

    cdef void model_value(self, const void *st, double *out) noexcept nogil:
        """The learned value of every seat at ``st`` (a finished game gets its
        returns). Without ``value_sum``, each seat's own value
        (:meth:`seat_value`). With ``value_sum`` > 0 (a constant-sum game),
        the searching seat's value, clipped to [0, 1], is its share of
        ``value_sum``, so it depends on that seat's information alone; the
        other seats share the rest in proportion to their own values (two
        seats: the other one gets all of it)."""
        cdef const GameDef *g = self.g
        cdef int q, me = self.root_player
        cdef double v, rest, total = 0.0
        if g.current_player(g.params, st) == GAME_TERMINAL:
            g.returns(g.params, st, out)
            return
        if self.value_sum <= 0.0:
            for q in range(self.num_players):
                out[q] = self.seat_value(st, q)
            return
        v = self.seat_value(st, me)
        if v < 0.0:
            v = 0.0
        elif v > 1.0:
            v = 1.0
        out[me] = v * self.value_sum
        rest = self.value_sum - out[me]
        if self.num_players == 2:
            out[1 - me] = rest
            return
        for q in range(self.num_players):
            if q != me:
                out[q] = self.seat_value(st, q)
                if out[q] < 1e-9:
                    out[q] = 1e-9
                total += out[q]
        for q in range(self.num_players):
            if q != me:
                out[q] *= rest / total

    def leaf_value(self, state) -> list:
        """The learned value vector of ``state`` (a state capsule of this
        search's game), as the search computes it at a leaf (for tests)."""
        cdef double out[MCTS_MAX_PLAYERS]
        if self.fd == NULL:
            raise SolversError("this search has no model")
        self.model_value(state_from(state), out)
        return [out[q] for q in range(self.num_players)]

    @property
    def has_model(self) -> bool:
        return self.fd != NULL

    def __dealloc__(self):
        free(self.weights)
        free(self.fbuf)
        free(self.widths)
        free(self.offsets)
        free(self.net)
        free(self.hbuf)
        free(self.nodes)
        free(self.edges)
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
        """Bytes held by the node and edge pools."""
        return self.capacity * sizeof(Node) + self.edge_capacity * sizeof(Edge)

    cdef int32_t edge_block(self, int cls) noexcept nogil:
        """A free block of class ``cls`` (its first index); -1 out of memory.
        (May compact the pool: edge indices taken before the call are stale.)"""
        cdef int32_t b = self.free_edges[cls]
        cdef int64_t size = class_size(cls), cap
        cdef Edge *grown
        if b >= 0:
            self.free_edges[cls] = self.edges[b].key      # the list's next block
            self.free_slots -= size
            return b
        if self.n_edges + size > self.edge_capacity:
            if 2 * self.free_slots >= self.n_edges:
                self.compact_edges()
            if self.n_edges + size > self.edge_capacity:
                cap = self.edge_capacity * 2
                while cap < self.n_edges + size:
                    cap *= 2
                if cap > 0x7FFFFFFF:
                    return -1
                grown = <Edge *> realloc(self.edges, sizeof(Edge) * cap)
                if grown == NULL:
                    return -1
                self.edges = grown
                self.edge_capacity = cap
        b = <int32_t> self.n_edges
        self.n_edges += size
        return b

    cdef bint compact_edges(self) noexcept nogil:
        """Copy every node's block into a fresh pool of the same capacity,
        packed in node order, and forget the free lists. Blocks freed when
        a node outgrows them pile up in the small classes once few new
        nodes get children; this returns their room. False (nothing
        changed) when the copy cannot be allocated."""
        cdef Edge *packed = <Edge *> malloc(sizeof(Edge) * self.edge_capacity)
        cdef int64_t i, used = 0
        cdef Node *nd
        cdef int c
        if packed == NULL:
            return False
        for i in range(self.n_nodes):
            nd = &self.nodes[i]
            if nd.n_children > 0:
                memcpy(&packed[used], &self.edges[nd.first_edge], sizeof(Edge) * nd.n_children)
                nd.first_edge = <int32_t> used
                used += class_size(size_class(nd.n_children))
        free(self.edges)
        self.edges = packed
        self.n_edges = used
        self.free_slots = 0
        self._compactions += 1
        for c in range(EDGE_CLASSES):
            self.free_edges[c] = -1
        return True

    cdef int32_t new_node(self, int32_t parent, int key) noexcept nogil:
        """Append a child of ``parent`` reached by ``key``; -1 when the pool
        is full. (Edge blocks of ``parent`` may move: edge pointers taken
        before this call are stale after it.)"""
        cdef Node *grown
        cdef int64_t cap
        cdef Node *n
        cdef Node *par
        cdef int32_t k, b, old
        cdef int cls
        cdef Edge *e
        if self.n_nodes >= self.max_nodes:
            return -1
        if self.n_nodes >= self.capacity:
            cap = min(self.capacity * 2, self.max_nodes)
            grown = <Node *> realloc(self.nodes, sizeof(Node) * cap)
            if grown == NULL:
                self.max_nodes = self.capacity   # out of memory: stop growing
                return -1
            self.nodes = grown
            self.capacity = cap
        par = &self.nodes[parent]
        k = par.n_children
        if k == 0 or class_size(size_class(k)) == k:    # no block yet, or it is full
            b = self.edge_block(size_class(k + 1))
            if b < 0:
                self.max_nodes = self.n_nodes    # out of memory: stop growing
                return -1
            par = &self.nodes[parent]
            if k > 0:
                old = par.first_edge
                memcpy(&self.edges[b], &self.edges[old], sizeof(Edge) * k)
                cls = size_class(k)
                self.edges[old].key = self.free_edges[cls]
                self.free_edges[cls] = old
                self.free_slots += class_size(cls)
            par.first_edge = b
        e = &self.edges[par.first_edge + k]
        par.n_children = k + 1
        cdef int32_t i = <int32_t> self.n_nodes
        self.n_nodes += 1
        e.key = key
        e.child = i
        e.avail = 1
        n = &self.nodes[i]
        memset(n, 0, sizeof(Node))
        n.first_edge = -1
        n.key = key
        return i

    cdef inline double log_count(self, int32_t a) noexcept nogil:
        """log(a) for a count a >= 1, through the cache."""
        cdef int i = a & (LOG_CACHE - 1)
        if self.log_key[i] != a:
            self.log_key[i] = a
            self.log_value[i] = log(<double> a)
        return self.log_value[i]

    cdef int action_seen_as(self, int key, int n) noexcept nogil:
        """One of the ``n`` legal actions (in ``actions``/``keys``) that the
        searcher observes as ``key``, uniformly at random."""
        cdef int i, n_pick = 0
        if self.public_decisions:
            return key
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
        cdef double ucb, best_ucb, log_avail, inv
        cdef int64_t last_avail
        cdef double ret[MCTS_MAX_PLAYERS]
        cdef Node *ch
        cdef Node *nd
        cdef Edge *e
        cdef int64_t stamp
        cdef int *keys
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
                nd = &self.nodes[node]
                child = -1
                if nd.n_children > 0:
                    e = &self.edges[nd.first_edge]
                    for i in range(nd.n_children - 1, -1, -1):
                        if e[i].key == key:
                            child = e[i].child
                            break
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
            if self.public_decisions:
                keys = self.actions
                for i in range(n):
                    self.mark[keys[i]] = stamp
            else:
                keys = self.keys
                for i in range(n):
                    key = g.action_observation(params, st, self.actions[i], self.root_player)
                    keys[i] = key
                    self.mark[key_index(key, nda)] = stamp
            # Children available in this determinisation.
            nd = &self.nodes[node]
            if nd.n_children > 0:
                e = &self.edges[nd.first_edge]
                for i in range(nd.n_children):
                    k = key_index(e[i].key, nda)
                    if self.mark[k] == stamp:
                        self.expanded[k] = stamp
                        e[i].avail += 1
            n_unexp = 0
            for i in range(n):
                k = key_index(keys[i], nda)
                if self.expanded[k] != stamp:
                    self.expanded[k] = stamp      # count each unexpanded key once
                    self.pick[n_unexp] = keys[i]
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
            if nd.n_children > 0:
                e = &self.edges[nd.first_edge]
                for i in range(nd.n_children - 1, -1, -1):     # newest first
                    if self.mark[key_index(e[i].key, nda)] != stamp:
                        continue
                    ch = &self.nodes[e[i].child]
                    if ch.visits > 0:
                        if e[i].avail != last_avail:      # siblings often share it
                            last_avail = e[i].avail
                            log_avail = self.log_count(e[i].avail)
                        inv = 1.0 / ch.visits
                        ucb = ch.value[p] * inv + self.c * sqrt(log_avail * inv)
                        if ucb > best_ucb:
                            best_ucb = ucb
                            best = e[i].child
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
        cdef double mret[MCTS_MAX_PLAYERS]
        cdef bint rollout = True
        if self.fd != NULL and self.mix > 0.0:
            # The learned value at the leaf, alone (mix 1) or mixed with a rollout.
            self.model_value(st, mret)
            rollout = self.mix < 1.0
        # Rollout: the playout policy for the seats in policy_seats, else uniformly random.
        plies = 0
        if not rollout:
            pass
        elif self.rollout_plies == 0 and self.fused:
            g.playout(params, st, &self.rng, self.policy_seats)
        while rollout and (self.rollout_plies == 0 or plies < self.rollout_plies):
            p = g.current_player(params, st)
            if p == GAME_TERMINAL:
                break
            if p == GAME_CHANCE:
                a = g.sample_chance(params, st, &self.rng)
            elif (self.policy_seats >> p) & 1:
                a = g.rollout_action(params, st, &self.rng)
            else:
                n = g.legal_actions(params, st, self.actions)
                a = self.actions[rng_below(&self.rng, n) if n > 1 else 0]
            g.apply_action(params, st, a)
            plies += 1
        for i in range(MCTS_MAX_PLAYERS):
            ret[i] = 0.0
        if not rollout:
            for k in range(self.num_players):
                ret[k] = mret[k]
        elif self.fd != NULL:
            # A rollout cut short ends in the model's value, then the mix.
            self.model_value(st, ret)
            if self.mix > 0.0:
                for k in range(self.num_players):
                    ret[k] = self.mix * mret[k] + (1.0 - self.mix) * ret[k]
        else:
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

    def _check_tree(self) -> int:
        """Walk the tree from the root and check its links (for tests): every
        node is reached once, an edge's key is its child's, children's visits
        add up to at most their parent's, edge blocks do not overlap. Returns
        the nodes reached; raises AssertionError on a broken tree."""
        cdef int64_t i, j
        cdef Node *nd
        cdef Edge *e
        seen = bytearray(self.n_nodes)
        blocks = []
        stack = [0]
        reached = 0
        while stack:
            i = stack.pop()
            assert 0 <= i < self.n_nodes and not seen[i], f"node {i} reached twice"
            seen[i] = 1
            reached += 1
            nd = &self.nodes[i]
            if nd.n_children == 0:
                assert nd.first_edge == -1
                continue
            assert 0 <= nd.first_edge and nd.first_edge + nd.n_children <= self.n_edges
            blocks.append((nd.first_edge, nd.first_edge + class_size(size_class(nd.n_children))))
            below = 0
            for j in range(nd.n_children):
                e = &self.edges[nd.first_edge + j]
                assert self.nodes[e.child].key == e.key and e.avail >= 1
                below += self.nodes[e.child].visits
                stack.append(e.child)
            assert below <= nd.visits, f"node {i}: children visited {below} > {nd.visits}"
        blocks.sort()
        for (a0, a1), (b0, b1) in zip(blocks, blocks[1:]):
            assert a1 <= b0, "edge blocks overlap"
        assert blocks == [] or blocks[len(blocks) - 1][1] <= self.n_edges
        return reached

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
        cdef Node *ch
        cdef Edge *e
        cdef int32_t i
        rows = []
        for i in range(self.nodes[0].n_children):
            e = &self.edges[self.nodes[0].first_edge + i]
            ch = &self.nodes[e.child]
            if ch.visits > 0 and ch.key >= 0:
                vec = [ch.value[k] / ch.visits for k in range(self.num_players)]
                rows.append((ch.key, ch.visits, vec[self.root_player], vec))
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


def features_of(gamedef, features, state, int seat) -> list:
    """The evaluation features of ``state`` (a state capsule) for ``seat``,
    from a game's ``_gamedef_capsule()`` and ``_features_capsule()``
    (eval_api.h): what a learned model reads at a search's leaf."""
    cdef const GameDef *g = gamedef_from(gamedef)
    cdef const FeatureDef *fd = <const FeatureDef *> _owned_pointer(
        features, b"solvers.Features", "game._features_capsule()")
    cdef void *st = state_from(state)
    cdef float buf[1024]
    cdef int j
    if (<bytes> fd.game) != (<bytes> g.name):
        raise SolversError("these features belong to another game")
    if fd.num_features > 1024:
        raise SolversError("more than 1024 features")
    if not 0 <= seat < g.num_players:
        raise SolversError(f"no seat {seat} in a {g.num_players}-player game")
    fd.features(g.params, st, seat, buf)
    return [buf[j] for j in range(fd.num_features)]


def features_info(features) -> dict:
    """``game``, ``version`` and ``num_features`` of a features capsule."""
    cdef const FeatureDef *fd = <const FeatureDef *> _owned_pointer(
        features, b"solvers.Features", "game._features_capsule()")
    return {"game": (<bytes> fd.game).decode(), "version": fd.version,
            "num_features": fd.num_features}


def gamedef_flags(gamedef) -> dict:
    """Which optional parts of its C table a game fills: ``playout``,
    ``rollout_action``, ``public_decisions``."""
    cdef const GameDef *g = gamedef_from(gamedef)
    return {"playout": g.playout != NULL, "rollout_action": g.rollout_action != NULL,
            "public_decisions": g.public_decisions != 0}


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
