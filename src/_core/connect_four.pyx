# cython: language_level=3
"""Connect Four on bitboards: a game that OpenSpiel implements too, so that
searches can be raced on the same rules.

Two seats take turns dropping a stone into one of 7 columns of a grid 6
rows high; the stone falls to the lowest empty cell of its column. Four of
one seat's stones in a line (across, up, or along either diagonal) win at
once; a full grid without such a line is a draw. Seat 0 plays ``x`` and
moves first, seat 1 plays ``o``. Action ``c`` drops a stone in column ``c``
(0 is the leftmost) and reads ``x3`` or ``o3`` after the player to move.
Action ids, their strings and the picture of the board (top row first,
``.`` for an empty cell) are those of OpenSpiel's ``connect_four``, so the
two implementations can be compared move by move. Returns follow this
library's convention: 1 to the winner, 0 to the loser, 0.5 each for a draw
(OpenSpiel gives +1, -1 and 0).

Layout: each seat's stones are one 64-bit word, bit ``7 * column + row``
with row 0 at the bottom. The seventh bit of every column (row 6) is a
sentinel that stays empty, so shifting a word by 1 (up), 7 (across), 6 or
8 (the diagonals) never carries a line from one column into the next:
``m = b & (b >> d)`` marks two in a row along ``d`` and ``m & (m >> 2 * d)``
four.

The game's C table (``game_api.h``) fills the optional ``rollout_action``, a
playout policy (take a winning cell, else block the opponent's, else a
column uniformly at random), and, unless the game is built with
``ConnectFour(playout=False)``, ``playout``: a whole playout in one call,
with the two words in registers. Without it a search plays its rollouts
move by move through the table.

    >>> game = ConnectFour()
    >>> state = game.new_initial_state()
    >>> for column in (3, 3, 4):
    ...     state.apply_action(column)
    >>> state.action_to_string(5), state.current_player()
    ('o5', 1)
    >>> str(state).splitlines()[-2:]
    ['...o...', '...xx..']
"""

from libc.stdint cimport uint64_t, int8_t
from libc.string cimport memcmp, memset

from game_api cimport (GameDef, GAME_TERMINAL, splitmix64_next, rng_below_mul,
                       SOLVERS_GAMEDEF_CAPSULE, SOLVERS_STATE_CAPSULE, no_chance_outcomes,
                       no_sample_chance, no_determinize, all_visible, win_draw_returns,
                       owned_capsule)

cdef extern from *:
    """
    static inline int c4_popcount(uint64_t x) { return __builtin_popcountll(x); }
    static inline int c4_ctz(uint64_t x) { return __builtin_ctzll(x); }
    """
    int c4_popcount(uint64_t x) nogil
    int c4_ctz(uint64_t x) nogil

cdef enum:
    COLUMNS = 7
    ROWS = 6
    STRIDE = 7          # bits per column: the rows and the sentinel
    CELLS = 42

# The lowest cell of every column, every playable cell, the top cell of every column.
cdef uint64_t BOTTOM = 0x0040810204081ULL
cdef uint64_t BOARD = BOTTOM * 0x3FULL
cdef uint64_t TOP = BOTTOM << (ROWS - 1)

# For each set of open columns (7 bits): how many, and the k-th of them.
cdef int8_t OPEN_COUNT[128]
cdef int8_t OPEN_NTH[128][COLUMNS]


cdef void fill_open_tables() noexcept:
    cdef int m, c, n
    for m in range(128):
        n = 0
        for c in range(COLUMNS):
            OPEN_NTH[m][c] = -1
        for c in range(COLUMNS):
            if (m >> c) & 1:
                OPEN_NTH[m][n] = c
                n += 1
        OPEN_COUNT[m] = n


fill_open_tables()


cdef struct C4State:
    uint64_t stones[2]  # each seat's stones, bit 7 * column + row
    int8_t to_move
    int8_t winner       # -1 while the game goes on, else the seat, 2 for a draw
    int8_t moves        # stones on the board


cdef inline bint four_in_a_row(uint64_t b) noexcept nogil:
    cdef uint64_t m = b & (b >> STRIDE)                  # across
    if m & (m >> (2 * STRIDE)):
        return True
    m = b & (b >> (STRIDE - 1))                          # down to the right
    if m & (m >> (2 * (STRIDE - 1))):
        return True
    m = b & (b >> (STRIDE + 1))                          # up to the right
    if m & (m >> (2 * (STRIDE + 1))):
        return True
    m = b & (b >> 1)                                     # up
    return (m & (m >> 2)) != 0


cdef inline uint64_t winning_cells(uint64_t b, uint64_t filled) noexcept nogil:
    """The empty cells that would give ``b`` four in a row (playable or not)."""
    cdef uint64_t r = (b << 1) & (b << 2) & (b << 3)    # three below
    cdef uint64_t p
    cdef int d
    for d in range(STRIDE - 1, STRIDE + 2):
        p = (b << d) & (b << (2 * d))
        r |= p & (b << (3 * d))                         # three before
        r |= p & (b >> d)                               # two before, one after
        p = (b >> d) & (b >> (2 * d))
        r |= p & (b << d)                               # one before, two after
        r |= p & (b >> (3 * d))                         # three after
    return r & BOARD & ~filled


cdef inline int open_columns(uint64_t filled) noexcept nogil:
    """The columns with room for a stone, as 7 bits."""
    cdef int c, m = 0
    for c in range(COLUMNS):
        if not (filled >> (STRIDE * c + ROWS - 1)) & 1:
            m |= 1 << c
    return m


cdef inline int random_column(int open, uint64_t *rng) noexcept nogil:
    return OPEN_NTH[open][rng_below_mul(rng, OPEN_COUNT[open])]


cdef inline int policy_column(uint64_t mine, uint64_t theirs, int open, uint64_t *rng) noexcept nogil:
    """The playout policy: a cell that wins now, else one that stops the
    opponent winning next move (uniformly among them), else any open column
    uniformly."""
    cdef uint64_t filled = mine | theirs
    cdef uint64_t playable = (filled + BOTTOM) & BOARD
    cdef uint64_t w = winning_cells(mine, filled) & playable
    cdef int k
    if w == 0:
        w = winning_cells(theirs, filled) & playable
    if w == 0:
        return random_column(open, rng)
    if w & (w - 1):                                     # several: pick one
        k = rng_below_mul(rng, c4_popcount(w))
        while k > 0:
            w &= w - 1
            k -= 1
    return c4_ctz(w) // STRIDE


cdef inline void drop(C4State *s, int column) noexcept nogil:
    cdef int p = s.to_move
    cdef uint64_t filled = s.stones[0] | s.stones[1]
    cdef uint64_t cell = (filled + (<uint64_t> 1 << (STRIDE * column))) & (<uint64_t> 0x3F << (STRIDE * column))
    s.stones[p] |= cell
    s.moves += 1
    if four_in_a_row(s.stones[p]):
        s.winner = p
    elif s.moves == CELLS:
        s.winner = 2
    s.to_move = 1 - p


# ------------------------------------------------------------- the C table
cdef int c4_current_player(const void *params, const void *st) noexcept nogil:
    cdef const C4State *s = <const C4State *> st
    return GAME_TERMINAL if s.winner >= 0 else s.to_move

cdef int c4_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const C4State *s = <const C4State *> st
    cdef uint64_t filled = s.stones[0] | s.stones[1]
    cdef int c, n = 0
    if s.winner >= 0:
        return 0
    for c in range(COLUMNS):
        if not (filled >> (STRIDE * c + ROWS - 1)) & 1:
            out[n] = c
            n += 1
    return n

cdef void c4_apply_action(const void *params, void *st, int action) noexcept nogil:
    drop(<C4State *> st, action)

cdef void c4_returns(const void *params, const void *st, double *out) noexcept nogil:
    win_draw_returns((<const C4State *> st).winner, out)

cdef uint64_t c4_hash(const void *params, const void *st) noexcept nogil:
    cdef const C4State *s = <const C4State *> st
    cdef uint64_t w = s.stones[0]
    cdef uint64_t h = splitmix64_next(&w) ^ s.stones[1]
    return splitmix64_next(&h)

cdef int c4_rollout_action(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    cdef const C4State *s = <const C4State *> st
    cdef uint64_t filled = s.stones[0] | s.stones[1]
    return policy_column(s.stones[s.to_move], s.stones[1 - s.to_move], open_columns(filled), rng)

cdef void c4_playout(const void *params, void *st, uint64_t *rng, unsigned int policy_seats) noexcept nogil:
    """The moves of the search's move-by-move loop (``c4_rollout_action`` for
    the seats in ``policy_seats``, a uniformly random open column for the
    other) to the end, with the stones kept in local words."""
    cdef C4State *s = <C4State *> st
    cdef int p = s.to_move, moves = s.moves, winner = -1, column
    cdef uint64_t mine = s.stones[p], theirs = s.stones[1 - p], filled, cell, t
    cdef int open
    if s.winner >= 0:
        return
    filled = mine | theirs
    open = open_columns(filled)
    while True:
        if (policy_seats >> p) & 1:
            column = policy_column(mine, theirs, open, rng)
        else:
            column = random_column(open, rng)
        cell = (filled + (<uint64_t> 1 << (STRIDE * column))) & (<uint64_t> 0x3F << (STRIDE * column))
        mine |= cell
        filled |= cell
        moves += 1
        if cell & TOP:
            open &= ~(1 << column)
        if four_in_a_row(mine):
            winner = p
            break
        if moves == CELLS:
            winner = 2
            break
        t = mine
        mine = theirs
        theirs = t
        p = 1 - p
    s.stones[p] = mine
    s.stones[1 - p] = theirs
    s.moves = moves
    s.winner = winner
    s.to_move = 1 - p


# ------------------------------------------------------------ Python face
from solvers.errors import IllegalActionError, SolversError
from solvers.game import CHANCE, TERMINAL, Game, State

MARKS = "xo"


cdef class ConnectFour:
    """Connect Four, 7 columns by 6 rows, 2 players.

    ``playout`` (default True) fills ``GameDef.playout`` with the fused
    playout; ``False`` leaves it empty, so a search plays its rollouts move
    by move through ``rollout_action`` and ``legal_actions``. The two
    tables play the same game.

    >>> game = ConnectFour(playout=False)
    >>> game.num_players, game.num_distinct_actions(), game.max_game_length()
    (2, 7, 42)
    """

    cdef GameDef gamedef
    cdef readonly bint fused_playout
    cdef readonly str name
    cdef readonly int num_players
    cdef readonly bint reference
    cdef readonly str default_rollout
    cdef object __weakref__

    def __cinit__(self, playout: bool = True):
        cdef GameDef *g = &self.gamedef
        self.fused_playout = bool(playout)
        self.name = "connect_four"
        self.num_players = 2
        self.reference = False
        self.default_rollout = "policy"
        memset(g, 0, sizeof(GameDef))
        g.name = b"connect_four"
        g.num_players = 2
        g.max_actions = COLUMNS
        g.num_distinct_actions = COLUMNS
        g.max_game_length = CELLS
        g.state_size = sizeof(C4State)
        g.params = NULL
        g.current_player = c4_current_player
        g.legal_actions = c4_legal_actions
        g.apply_action = c4_apply_action
        g.chance_outcomes = no_chance_outcomes
        g.sample_chance = no_sample_chance
        g.returns = c4_returns
        g.determinize = no_determinize              # nothing is hidden
        g.action_observation = all_visible
        g.hash = c4_hash
        g.rollout_action = c4_rollout_action
        if self.fused_playout:
            g.playout = c4_playout
        g.public_decisions = 1

    def new_initial_state(self, seed: int | None = None):
        """The empty grid, ``x`` to move (``seed`` is accepted and unused:
        the game has no chance)."""
        cdef ConnectFourState s = ConnectFourState.__new__(ConnectFourState)
        s.game = self
        memset(&s.st, 0, sizeof(C4State))
        s.st.winner = -1
        s.history = []
        return s

    def num_distinct_actions(self) -> int:
        return COLUMNS

    def max_game_length(self) -> int:
        return CELLS

    def _gamedef_capsule(self):
        """The C table of this game for search modules (the capsule keeps the game alive)."""
        return owned_capsule(<void *> &self.gamedef, SOLVERS_GAMEDEF_CAPSULE, self)

    def __reduce__(self):
        return (ConnectFour, (self.fused_playout,))

    def __repr__(self) -> str:
        return f"ConnectFour(playout={self.fused_playout})"


cdef class ConnectFourState:
    """A position of :class:`ConnectFour`; the :class:`solvers.game.State`
    interface (plus ``action_observation`` and ``resample`` for searches
    that ask every game for them)."""

    cdef C4State st
    cdef readonly ConnectFour game
    cdef public list history
    cdef object __weakref__

    def __init__(self, *args, **kwargs):
        raise TypeError("build states with ConnectFour().new_initial_state()")

    def current_player(self) -> int:
        return c4_current_player(NULL, &self.st)

    def is_chance_node(self) -> bool:
        return False

    def is_terminal(self) -> bool:
        return self.st.winner >= 0

    def legal_actions(self) -> list[int]:
        cdef int out[COLUMNS]
        cdef int n = c4_legal_actions(NULL, &self.st, out)
        return [out[i] for i in range(n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def seeded_outcome(self) -> int:
        raise SolversError("not a chance node: Connect Four has no chance")

    def apply_seeded_chance(self) -> None:
        pass

    def apply_action(self, action) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        drop(&self.st, action)
        self.history.append(action)

    def returns(self) -> list[float]:
        cdef double out[2]
        c4_returns(NULL, &self.st, out)
        return [out[0], out[1]]

    def scores(self) -> list[int]:
        """1 for four in a row, else 0."""
        return [int(self.st.winner == 0), int(self.st.winner == 1)]

    def clone(self):
        cdef ConnectFourState s = ConnectFourState.__new__(ConnectFourState)
        s.game = self.game
        s.st = self.st
        s.history = list(self.history)
        return s

    def action_to_string(self, action: int) -> str:
        """``x3``: the mark of the player to move and the column."""
        return f"{MARKS[self.st.to_move]}{action}"

    def string_to_action(self, text: str) -> int:
        return State.string_to_action(self, text)

    def cell(self, int column, int row) -> str:
        """``x``, ``o`` or ``.`` at ``column`` (0-6, left to right) and
        ``row`` (0-5, bottom up)."""
        if not (0 <= column < COLUMNS and 0 <= row < ROWS):
            raise SolversError(f"no cell at column {column}, row {row}")
        cdef int bit = STRIDE * column + row
        for p in range(2):
            if (self.st.stones[p] >> bit) & 1:
                return MARKS[p]
        return "."

    def information_state(self, player: int) -> dict:
        """The whole position (nothing is hidden): the grid, top row first."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < 2:
            raise SolversError(f"no player {player!r} in a 2-player game")
        return {"game": "connect_four", "player": player, "board": str(self).splitlines(),
                "to_move": self.current_player()}

    def action_observation(self, action: int, player: int) -> int:
        return action

    def resample(self, player: int, rng=None):
        """A copy: there is nothing hidden to re-deal."""
        return self.clone()

    def hash(self) -> int:
        return c4_hash(NULL, &self.st)

    def _state_capsule(self):
        """The state struct for search modules (the capsule keeps this state alive)."""
        return owned_capsule(<void *> &self.st, SOLVERS_STATE_CAPSULE, self)

    def _raw(self) -> bytes:
        return (<char *> &self.st)[:sizeof(C4State)]

    def __reduce__(self):
        return (_replay, (self.game, list(self.history)))

    def __eq__(self, other):
        if not isinstance(other, ConnectFourState):
            return NotImplemented
        return memcmp(&self.st, &(<ConnectFourState> other).st, sizeof(C4State)) == 0

    __hash__ = None

    def __str__(self) -> str:
        """The grid as OpenSpiel prints it: top row first, one line a row."""
        return "".join("".join(self.cell(c, r) for c in range(COLUMNS)) + "\n"
                       for r in range(ROWS - 1, -1, -1))

    def __repr__(self) -> str:
        return f"<connect_four state after {self.history}>"


def _replay(game: ConnectFour, history: list) -> ConnectFourState:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


State.register(ConnectFourState)
Game.register(ConnectFour)
