# cython: language_level=3
"""Small games that implement the C-level game interface, for tests and benchmarks.

The search modules (:mod:`solvers._core.mcts`, :mod:`solvers._core.endgame`)
never import a real game, so these toys exercise every corner of
``game_api.h`` in a few hundred bytes of state:

* :func:`TicTacToe` - two players, perfect information, no chance.
* :func:`Pig` - the dice game with a turn limit: 1 to 4 players, a chance node
  for every roll, no hidden information.
* :func:`HighCard` - 2 or 3 players are dealt hidden hands, then play one card
  each to a trick, the highest card winning it: hidden deals
  (``action_observation`` gives ``GAME_HIDDEN``) and ``determinize``.

Every toy comes with a Python face, :class:`ToyGame` / :class:`ToyState`, that
follows :class:`solvers.game.State` (plus ``resample`` and
``action_observation`` for information-set search) and hands its C tables to
search modules as capsules::

    >>> from solvers._core.toygames import TicTacToe
    >>> state = TicTacToe().new_initial_state()
    >>> state.apply_action(4)
    >>> state.legal_actions()
    [0, 1, 2, 3, 5, 6, 7, 8]
    >>> state.action_to_string(0)
    'o at a1'
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t, int16_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset, memcmp

from game_api cimport (GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
                       splitmix64_next, rng_below, rng_shuffle_i8, no_chance_outcomes,
                       no_sample_chance, no_determinize, all_visible, win_draw_returns,
                       owned_capsule)

cdef extern from *:
    """
    static inline int toy_popcount(uint32_t x) { return __builtin_popcount(x); }
    """
    int toy_popcount(uint32_t x) nogil


# A toy adds two functions to the shared table: its points as printed
# (``scores``) and a flat integer view of what one player may know.
ctypedef void (*scores_fn)(const void *params, const void *st, int *out) noexcept nogil
ctypedef int (*observe_fn)(const void *params, const void *st, int player, int *out) noexcept nogil

cdef struct ToyDef:
    GameDef g
    scores_fn scores
    observe_fn observe
    void (*initial)(const void *params, void *st) noexcept nogil


cdef uint64_t hash_bytes(const void *st, size_t n) noexcept nogil:
    """SplitMix-style mix of the state bytes (states are fully initialised)."""
    cdef const unsigned char *p = <const unsigned char *> st
    cdef uint64_t h = 0x243F6A8885A308D3ULL
    cdef uint64_t w
    cdef size_t i
    for i in range(n):
        h = (h ^ p[i]) * 0x100000001B3ULL
    w = h
    return splitmix64_next(&w)


cdef void win_shares(int n, const int *points, double *out) noexcept nogil:
    cdef int best = -1000000, count = 0, p
    for p in range(n):
        if points[p] > best:
            best = points[p]
    for p in range(n):
        if points[p] == best:
            count += 1
    for p in range(n):
        out[p] = 1.0 / count if points[p] == best else 0.0


# ---------------------------------------------------------------- tic-tac-toe
cdef struct TTTState:
    int8_t board[9]     # -1 empty, else the seat
    int8_t to_move
    int8_t winner       # -1 none yet, 0/1, 2 = draw
    int8_t moves

cdef int TTT_LINES[24]
TTT_LINES[:] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 3, 6,
                1, 4, 7, 2, 5, 8, 0, 4, 8, 2, 4, 6]

cdef void ttt_initial(const void *params, void *st) noexcept nogil:
    cdef TTTState *s = <TTTState *> st
    memset(s, 0, sizeof(TTTState))
    memset(s.board, -1, 9)
    s.winner = -1

cdef int ttt_current_player(const void *params, const void *st) noexcept nogil:
    cdef const TTTState *s = <const TTTState *> st
    return GAME_TERMINAL if s.winner >= 0 else s.to_move

cdef int ttt_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const TTTState *s = <const TTTState *> st
    cdef int n = 0, i
    if s.winner >= 0:
        return 0
    for i in range(9):
        if s.board[i] < 0:
            out[n] = i
            n += 1
    return n

cdef void ttt_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef TTTState *s = <TTTState *> st
    cdef int k, p = s.to_move
    s.board[action] = p
    s.moves += 1
    for k in range(8):
        if (s.board[TTT_LINES[3 * k]] == p and s.board[TTT_LINES[3 * k + 1]] == p
                and s.board[TTT_LINES[3 * k + 2]] == p):
            s.winner = p
    if s.winner < 0 and s.moves == 9:
        s.winner = 2
    s.to_move = 1 - p

cdef void ttt_returns(const void *params, const void *st, double *out) noexcept nogil:
    win_draw_returns((<const TTTState *> st).winner, out)

cdef void ttt_scores(const void *params, const void *st, int *out) noexcept nogil:
    cdef const TTTState *s = <const TTTState *> st
    out[0] = 1 if s.winner == 0 else 0
    out[1] = 1 if s.winner == 1 else 0

cdef int ttt_observe(const void *params, const void *st, int player, int *out) noexcept nogil:
    cdef const TTTState *s = <const TTTState *> st
    cdef int i
    for i in range(9):
        out[i] = s.board[i]
    out[9] = s.to_move
    return 10

cdef uint64_t ttt_hash(const void *params, const void *st) noexcept nogil:
    return hash_bytes(st, sizeof(TTTState))


# ---------------------------------------------------------------------- pig
cdef struct PigParams:
    int players
    int target
    int die
    int max_turns

cdef struct PigState:
    int16_t score[4]
    int16_t turn_total
    int8_t player
    int8_t turns        # turns finished
    int8_t rolling      # 1 = a chance node: the die is in the air
    int8_t over

cdef void pig_initial(const void *params, void *st) noexcept nogil:
    memset(st, 0, sizeof(PigState))

cdef int pig_current_player(const void *params, const void *st) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    if s.over:
        return GAME_TERMINAL
    return GAME_CHANCE if s.rolling else s.player

cdef int pig_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    cdef const PigParams *q = <const PigParams *> params
    cdef int i
    if s.over:
        return 0
    if s.rolling:
        for i in range(q.die):
            out[i] = i
        return q.die
    out[0] = 0   # hold
    out[1] = 1   # roll
    return 2

cdef void pig_end_turn(const PigParams *q, PigState *s) noexcept nogil:
    s.turn_total = 0
    s.turns += 1
    s.player = (s.player + 1) % q.players
    if s.turns >= q.max_turns:
        s.over = 1

cdef void pig_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef PigState *s = <PigState *> st
    cdef const PigParams *q = <const PigParams *> params
    if s.rolling:
        s.rolling = 0
        if action == 0:               # rolled a one: the turn total is lost
            pig_end_turn(q, s)
        else:
            s.turn_total += action + 1
            if s.score[s.player] + s.turn_total >= q.target:
                s.score[s.player] += s.turn_total
                s.turn_total = 0
                s.over = 1
    elif action == 1:
        s.rolling = 1
    else:
        s.score[s.player] += s.turn_total
        pig_end_turn(q, s)

cdef int pig_chance_outcomes(const void *params, const void *st, int *out, double *probs) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    cdef const PigParams *q = <const PigParams *> params
    cdef int i
    if s.over or not s.rolling:
        return 0
    for i in range(q.die):
        out[i] = i
        probs[i] = 1.0 / q.die
    return q.die

cdef int pig_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    return rng_below(rng, (<const PigParams *> params).die)

cdef void pig_scores(const void *params, const void *st, int *out) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    cdef int p
    for p in range((<const PigParams *> params).players):
        out[p] = s.score[p]

cdef void pig_returns(const void *params, const void *st, double *out) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    cdef const PigParams *q = <const PigParams *> params
    cdef int points[4]
    cdef int p
    for p in range(q.players):
        out[p] = 0.0
    if not s.over:
        return
    if q.players == 1:
        out[0] = min(<int> s.score[0], q.target) / <double> q.target
        return
    pig_scores(params, st, points)
    win_shares(q.players, points, out)

cdef int pig_observe(const void *params, const void *st, int player, int *out) noexcept nogil:
    cdef const PigState *s = <const PigState *> st
    cdef int p
    for p in range(4):
        out[p] = s.score[p]
    out[4] = s.turn_total
    out[5] = s.player
    out[6] = s.turns
    out[7] = s.rolling
    out[8] = s.over
    return 9

cdef uint64_t pig_hash(const void *params, const void *st) noexcept nogil:
    return hash_bytes(st, sizeof(PigState))


# ---------------------------------------------------------------- high card
cdef struct HCParams:
    int players
    int hand          # cards per player
    int cards         # cards in the deck: players * hand + extra

cdef struct HCState:
    uint32_t hand[3]     # the cards each seat holds
    uint32_t played      # cards played so far (face up)
    int8_t trick[3]      # cards of the trick in play order
    int8_t trick_n
    int8_t leader
    int8_t tricks[3]
    int8_t deals         # cards dealt so far
    int8_t over

cdef void hc_initial(const void *params, void *st) noexcept nogil:
    cdef HCState *s = <HCState *> st
    memset(s, 0, sizeof(HCState))
    memset(s.trick, -1, 3)

cdef inline int hc_dealing(const HCParams *q, const HCState *s) noexcept nogil:
    return s.deals < q.players * q.hand

cdef int hc_current_player(const void *params, const void *st) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    if s.over:
        return GAME_TERMINAL
    if hc_dealing(q, s):
        return GAME_CHANCE
    return (s.leader + s.trick_n) % q.players

cdef uint32_t hc_undealt(const HCParams *q, const HCState *s) noexcept nogil:
    cdef uint32_t held = s.played
    cdef int p
    for p in range(q.players):
        held |= s.hand[p]
    return ((<uint32_t> 1 << q.cards) - 1) & ~held

cdef int mask_to_list(uint32_t m, int *out) noexcept nogil:
    cdef int n = 0, c = 0
    while m:
        if m & 1:
            out[n] = c
            n += 1
        m >>= 1
        c += 1
    return n

cdef int hc_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    if s.over:
        return 0
    if hc_dealing(q, s):
        return mask_to_list(hc_undealt(q, s), out)
    return mask_to_list(s.hand[hc_current_player(params, st)], out)

cdef void hc_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef HCState *s = <HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    cdef int p, i, best
    if hc_dealing(q, s):
        s.hand[s.deals % q.players] |= <uint32_t> 1 << action
        s.deals += 1
        return
    p = hc_current_player(params, st)
    s.hand[p] &= ~(<uint32_t> 1 << action)
    s.played |= <uint32_t> 1 << action
    s.trick[s.trick_n] = action
    s.trick_n += 1
    if s.trick_n == q.players:
        best = 0
        for i in range(1, q.players):
            if s.trick[i] > s.trick[best]:
                best = i
        s.leader = (s.leader + best) % q.players
        s.tricks[s.leader] += 1
        s.trick_n = 0
        memset(s.trick, -1, 3)
        if s.hand[0] == 0:
            s.over = 1

cdef int hc_chance_outcomes(const void *params, const void *st, int *out, double *probs) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    cdef int n, i
    if s.over or not hc_dealing(q, s):
        return 0
    n = mask_to_list(hc_undealt(q, s), out)
    for i in range(n):
        probs[i] = 1.0 / n
    return n

cdef int hc_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    cdef int cards[32]
    cdef int n = mask_to_list(hc_undealt(<const HCParams *> params, <const HCState *> st), cards)
    return cards[rng_below(rng, n)]

cdef void hc_scores(const void *params, const void *st, int *out) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef int p
    for p in range((<const HCParams *> params).players):
        out[p] = s.tricks[p]

cdef void hc_returns(const void *params, const void *st, double *out) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    cdef int points[3]
    cdef int p
    for p in range(q.players):
        out[p] = 0.0
    if s.over:
        hc_scores(params, st, points)
        win_shares(q.players, points, out)

cdef void hc_determinize(const void *params, void *st, int player, uint64_t *rng) noexcept nogil:
    """Re-deal every card ``player`` has not seen among the other hands and the stock."""
    cdef HCState *s = <HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    cdef int pool[32]
    cdef int8_t cards[32]
    cdef int counts[3]
    cdef int n, i, p, k = 0
    cdef uint32_t unseen = ((<uint32_t> 1 << q.cards) - 1) & ~s.played & ~s.hand[player]
    n = mask_to_list(unseen, pool)
    for i in range(n):
        cards[i] = <int8_t> pool[i]
    rng_shuffle_i8(rng, cards, n)
    for p in range(q.players):
        counts[p] = toy_popcount(s.hand[p])
        if p != player:
            s.hand[p] = 0
    for p in range(q.players):
        if p == player:
            continue
        for i in range(counts[p]):
            s.hand[p] |= <uint32_t> 1 << cards[k]
            k += 1

cdef int hc_action_observation(const void *params, const void *st, int action, int player) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    if hc_dealing(q, s) and s.deals % q.players != player:
        return GAME_HIDDEN
    return action

cdef int hc_observe(const void *params, const void *st, int player, int *out) noexcept nogil:
    cdef const HCState *s = <const HCState *> st
    cdef const HCParams *q = <const HCParams *> params
    cdef int p, n = 0
    out[n] = s.hand[player]; n += 1
    out[n] = s.played; n += 1
    for p in range(3):
        out[n] = s.trick[p]; n += 1
        out[n] = s.tricks[p]; n += 1
        out[n] = toy_popcount(s.hand[p]); n += 1
    out[n] = s.trick_n; n += 1
    out[n] = s.leader; n += 1
    out[n] = s.deals; n += 1
    out[n] = s.over; n += 1
    return n

cdef uint64_t hc_hash(const void *params, const void *st) noexcept nogil:
    return hash_bytes(st, sizeof(HCState))


# ------------------------------------------------------------ Python faces
from solvers.errors import IllegalActionError, SolversError
from solvers.game import CHANCE, TERMINAL, Game, State
from solvers.rng import SplitMix64, seed_from



cdef class ToyGame:
    """A toy game with its options fixed; build one with :func:`TicTacToe`,
    :func:`Pig` or :func:`HighCard`."""

    cdef ToyDef td
    cdef void *params_buf
    cdef readonly str name
    cdef readonly int num_players
    cdef readonly bint reference
    cdef object _namer
    cdef readonly dict options          # the keyword options it was built with
    cdef object __weakref__

    def __cinit__(self):
        self.params_buf = NULL
        self.reference = False

    def __dealloc__(self):
        if self.params_buf != NULL:
            free(self.params_buf)

    def new_initial_state(self, seed: int | None = None):
        """The start of a game; ``seed`` drives :meth:`ToyState.seeded_outcome`."""
        cdef ToyState s = ToyState.__new__(ToyState)
        s.game = self
        s.buf = malloc(self.td.g.state_size)
        self.td.initial(self.td.g.params, s.buf)
        s.seed = seed_from(seed)
        s.history = []
        return s

    def num_distinct_actions(self) -> int:
        return self.td.g.num_distinct_actions

    def max_game_length(self) -> int:
        return self.td.g.max_game_length

    def _gamedef_capsule(self):
        """The C table of this game for search modules (keeps the game alive)."""
        return owned_capsule(<void *> &self.td.g, b"solvers.GameDef", self)

    def __reduce__(self):
        return (_rebuild_game, (self.name, self.options))

    def __repr__(self) -> str:
        return f"{self.name}(players={self.num_players})"


cdef class ToyState:
    """A position of a toy game; the :class:`solvers.game.State` interface."""

    cdef readonly ToyGame game
    cdef void *buf
    cdef uint64_t seed
    cdef public list history
    cdef object __weakref__

    def __init__(self, *args, **kwargs):
        raise TypeError("build states with game.new_initial_state()")

    def __dealloc__(self):
        if self.buf != NULL:
            free(self.buf)

    cdef const GameDef *g(self):
        return &self.game.td.g

    def current_player(self) -> int:
        return self.g().current_player(self.g().params, self.buf)

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list[int]:
        cdef int out[64]
        if self.current_player() == TERMINAL:
            return []
        cdef int n = self.g().legal_actions(self.g().params, self.buf, out)
        return [out[i] for i in range(n)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cdef int out[64]
        cdef double probs[64]
        cdef int n = self.g().chance_outcomes(self.g().params, self.buf, out, probs)
        return [(out[i], probs[i]) for i in range(n)]

    def seeded_outcome(self) -> int:
        """The outcome this game's seed deals here."""
        if not self.is_chance_node():
            raise SolversError("not a chance node")
        cdef uint64_t r = self.seed ^ (<uint64_t> len(self.history) * 0x9E3779B97F4A7C15ULL)
        return self.g().sample_chance(self.g().params, self.buf, &r)

    def apply_seeded_chance(self) -> None:
        while self.is_chance_node():
            self.apply_action(self.seeded_outcome())

    def apply_action(self, action) -> None:
        if isinstance(action, bool) or not isinstance(action, int) or action not in self.legal_actions():
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.g().apply_action(self.g().params, self.buf, action)
        self.history.append(action)

    def returns(self) -> list[float]:
        cdef double out[4]
        self.g().returns(self.g().params, self.buf, out)
        return [out[i] for i in range(self.game.num_players)]

    def scores(self) -> list[int]:
        cdef int out[4]
        self.game.td.scores(self.g().params, self.buf, out)
        return [out[i] for i in range(self.game.num_players)]

    def clone(self):
        cdef ToyState s = ToyState.__new__(ToyState)
        s.game = self.game
        s.buf = malloc(self.g().state_size)
        memcpy(s.buf, self.buf, self.g().state_size)
        s.seed = self.seed
        s.history = list(self.history)
        return s

    def action_to_string(self, action: int) -> str:
        return self.game._namer(self, action)

    def string_to_action(self, text: str) -> int:
        return State.string_to_action(self, text)

    def information_state(self, player: int) -> dict:
        """What ``player`` may know, as a JSON-friendly dict."""
        cdef int out[64]
        if not 0 <= player < self.game.num_players:
            raise SolversError(f"no player {player} in a {self.game.num_players}-player game")
        cdef int n = self.game.td.observe(self.g().params, self.buf, player, out)
        return {"game": self.game.name, "player": player, "view": [out[i] for i in range(n)]}

    def action_observation(self, action: int, player: int) -> int:
        """``action`` as ``player`` sees it: itself, or -2 when hidden from them."""
        return self.g().action_observation(self.g().params, self.buf, action, player)

    def resample(self, player: int, rng: SplitMix64):
        """A copy with everything ``player`` cannot see re-dealt at random."""
        cdef ToyState s = self.clone()
        cdef uint64_t r = rng.next()
        self.g().determinize(self.g().params, s.buf, player, &r)
        return s

    def _state_capsule(self):
        """The state struct for search modules (the capsule keeps this state alive)."""
        return owned_capsule(self.buf, b"solvers.State", self)

    def _raw(self) -> bytes:
        return (<char *> self.buf)[:self.g().state_size]

    def __reduce__(self):
        return (_rebuild_state, (self.game, self._raw(), self.seed, self.history))

    def __eq__(self, other):
        if not isinstance(other, ToyState) or (<ToyState> other).game is not self.game:
            return NotImplemented
        return memcmp(self.buf, (<ToyState> other).buf, self.g().state_size) == 0

    __hash__ = None

    def __str__(self) -> str:
        return f"{self.game.name} after {self.history}"

    def __repr__(self) -> str:
        return f"<{self.game.name} state after {len(self.history)} actions>"


State.register(ToyState)
Game.register(ToyGame)


def _rebuild_game(str name, dict options) -> ToyGame:
    """A pickled :class:`ToyGame` again, built with its recorded options."""
    return load_toy(name, **options)


def _rebuild_state(ToyGame game, bytes raw, uint64_t seed, list history) -> ToyState:
    """A pickled :class:`ToyState` again (see ``ToyState.__reduce__``)."""
    if len(raw) != game.td.g.state_size:
        raise SolversError(f"a {game.name} state has {game.td.g.state_size} bytes, not {len(raw)}")
    cdef ToyState s = game.new_initial_state(0)
    memcpy(s.buf, <const char *> raw, game.td.g.state_size)
    s.seed = seed
    s.history = list(history)
    return s


cdef ToyGame _new_game(str name, int players, object namer, dict options):
    cdef ToyGame game = ToyGame.__new__(ToyGame)
    game.name = name
    game.num_players = players
    game._namer = namer
    game.options = options
    memset(&game.td, 0, sizeof(ToyDef))
    game.td.g.num_players = players
    return game


def _ttt_name(state, action):
    return f"{'xo'[len(state.history) % 2]} at {'abc'[action % 3]}{action // 3 + 1}"


def TicTacToe() -> ToyGame:
    """Noughts and crosses: seat 0 plays x, seat 1 plays o; cells 0-8 row by row.

    >>> game = TicTacToe()
    >>> game.num_players, game.num_distinct_actions()
    (2, 9)
    """
    cdef ToyGame game = _new_game("tictactoe", 2, _ttt_name, {})
    cdef GameDef *g = &game.td.g
    g.name = "tictactoe"
    g.max_actions = 9
    g.num_distinct_actions = 9
    g.max_game_length = 9
    g.state_size = sizeof(TTTState)
    g.params = NULL
    g.current_player = ttt_current_player
    g.legal_actions = ttt_legal_actions
    g.apply_action = ttt_apply_action
    g.chance_outcomes = no_chance_outcomes
    g.sample_chance = no_sample_chance
    g.returns = ttt_returns
    g.determinize = no_determinize
    g.action_observation = all_visible
    g.public_decisions = 1
    g.hash = ttt_hash
    game.td.scores = ttt_scores
    game.td.observe = ttt_observe
    game.td.initial = ttt_initial
    return game


def _pig_name(state, action):
    if state.is_chance_node():
        return f"roll {action + 1}"
    return "roll" if action == 1 else "hold"


def Pig(players: int = 2, target: int = 10, die: int = 4, max_turns: int = 8) -> ToyGame:
    """Pig with a turn limit. On a turn, roll (action 1) as often as you like
    and add the faces to the turn total, or hold (action 0) to bank it; a one
    loses the turn total. Reaching ``target`` ends the game at once; so does
    the end of turn ``max_turns``. Solo return: points/target (capped at 1);
    with several players: win shares. Chance outcome ``k`` is face ``k + 1``.

    >>> game = Pig(players=1, target=6, die=3, max_turns=2)
    >>> state = game.new_initial_state()
    >>> state.apply_action(1); state.chance_outcomes()
    [(0, 0.3333333333333333), (1, 0.3333333333333333), (2, 0.3333333333333333)]
    """
    if not (isinstance(players, int) and 1 <= players <= 4):
        raise SolversError(f"Pig is for 1 to 4 players, not {players!r}")
    if not (isinstance(target, int) and 2 <= target <= 100):
        raise SolversError(f"Pig target must be 2..100, not {target!r}")
    if not (isinstance(die, int) and 2 <= die <= 20):
        raise SolversError(f"Pig die must have 2..20 faces, not {die!r}")
    if not (isinstance(max_turns, int) and 1 <= max_turns <= 100):
        raise SolversError(f"Pig max_turns must be 1..100, not {max_turns!r}")
    cdef ToyGame game = _new_game("pig", players, _pig_name, dict(
        players=players, target=target, die=die, max_turns=max_turns))
    cdef PigParams *q = <PigParams *> malloc(sizeof(PigParams))
    q.players, q.target, q.die, q.max_turns = players, target, die, max_turns
    game.params_buf = q
    cdef GameDef *g = &game.td.g
    g.name = "pig"
    g.max_actions = max(2, die)
    g.num_distinct_actions = max(2, die)
    g.max_game_length = max_turns * (2 * (target // 2 + 1) + 1)
    g.state_size = sizeof(PigState)
    g.params = q
    g.current_player = pig_current_player
    g.legal_actions = pig_legal_actions
    g.apply_action = pig_apply_action
    g.chance_outcomes = pig_chance_outcomes
    g.sample_chance = pig_sample_chance
    g.returns = pig_returns
    g.determinize = no_determinize
    g.action_observation = all_visible
    g.public_decisions = 1
    g.hash = pig_hash
    game.td.scores = pig_scores
    game.td.observe = pig_observe
    game.td.initial = pig_initial
    return game


def _hc_name(state, action):
    return f"deal {action}" if state.is_chance_node() else f"play {action}"


def HighCard(players: int = 2, hand: int = 3, extra: int = 2) -> ToyGame:
    """Hidden high card. Chance deals ``hand`` cards to each seat in turn
    (the deal is seen only by its receiver) from a deck of
    ``players * hand + extra`` cards numbered from 0; ``extra`` cards stay
    unseen. Then each trick every seat plays one card, from the leader on,
    and the highest card wins the trick and leads the next. Most tricks
    wins (ties share). Actions: the card dealt or played.

    >>> game = HighCard(players=3)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> len(state.legal_actions()), state.current_player()
    (3, 0)
    """
    if not (isinstance(players, int) and 2 <= players <= 3):
        raise SolversError(f"HighCard is for 2 or 3 players, not {players!r}")
    if not (isinstance(hand, int) and 1 <= hand <= 6):
        raise SolversError(f"HighCard hands hold 1..6 cards, not {hand!r}")
    if not (isinstance(extra, int) and 0 <= extra <= 8):
        raise SolversError(f"HighCard extra cards must be 0..8, not {extra!r}")
    cdef ToyGame game = _new_game("highcard", players, _hc_name, dict(
        players=players, hand=hand, extra=extra))
    cdef HCParams *q = <HCParams *> malloc(sizeof(HCParams))
    q.players, q.hand, q.cards = players, hand, players * hand + extra
    game.params_buf = q
    cdef GameDef *g = &game.td.g
    g.name = "highcard"
    g.max_actions = q.cards
    g.num_distinct_actions = q.cards
    g.max_game_length = 2 * players * hand
    g.state_size = sizeof(HCState)
    g.params = q
    g.current_player = hc_current_player
    g.legal_actions = hc_legal_actions
    g.apply_action = hc_apply_action
    g.chance_outcomes = hc_chance_outcomes
    g.sample_chance = hc_sample_chance
    g.returns = hc_returns
    g.determinize = hc_determinize
    g.action_observation = hc_action_observation
    g.public_decisions = 1             # only the deal is hidden
    g.hash = hc_hash
    game.td.scores = hc_scores
    game.td.observe = hc_observe
    game.td.initial = hc_initial
    return game


_TOYS = {"tictactoe": TicTacToe, "pig": Pig, "highcard": HighCard}


def load_toy(name: str, **options) -> ToyGame:
    """A toy game by name: ``tictactoe``, ``pig`` or ``highcard``."""
    from solvers.errors import UnknownNameError
    if name not in _TOYS:
        raise UnknownNameError("toy game", name, sorted(_TOYS))
    return _TOYS[name](**options)
