# cython: language_level=3, annotation_typing=False, embedsignature=True, embedsignature.format=clinic
"""Coast to Coast on 32-bit boards: the Cython kernel.

The rules of record are :mod:`solvers.games.c2c.reference`; this module plays
exactly the same game (same action ids, same dealing, same chance order, so
one seed deals one game in both) on plain C structs:

* a sheet is three ``uint32`` masks (circled, crossed off, exact matches);
* the locations a card may circle are
  ``matches[card] & ~circled & ~crossed & neighbours(circled)``;
* highway runs are runs of set bits, since one highway's ids are
  consecutive bits (see :mod:`solvers.games.c2c.data`).

The C functions below fill a :c:type:`GameDef` (``game_api.h``) so the search
modules can play the game without the GIL; :class:`CoastKernelState` is the
Python face with the same methods as the reference ``CoastState``. Most users
reach it through :func:`solvers.load_game`::

    >>> import solvers
    >>> state = solvers.load_game("c2c").new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> len(state.legal_actions())      # cross off one of the 4 setup cards
    4

The search utility ``GameDef.returns`` differs from the rulebook
``returns()`` on purpose (see :mod:`solvers.games.c2c.kernel`). Hidden
information, for information-set search: with several players each seat's
2 setup cards are dealt face down to the others (``action_observation``
gives ``GAME_HIDDEN``) until the sheets show them after the setup;
``determinize`` re-deals exactly those cards and the undealt deck.
"""

cimport cython
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int8_t, int32_t, int64_t
from libc.stdlib cimport malloc, qsort, free as c_free
from libc.string cimport memcpy, memset

from c2c cimport *
from game_api cimport (GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
                       rng_below, rng_shuffle_i8, rng_unit, owned_capsule,
                       action_table, solvers_action_index, solvers_int_list)

# The action ints legal_actions lists are made of (game_api.pxd; larger ids
# are made per call).
cdef tuple ACTION_INTS = action_table(2048)

import operator

import numpy as np

from solvers.errors import IllegalActionError, SolversError
from solvers.game import State
from solvers.rng import seed_from

cdef extern from *:
    """
    static inline int c2c_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int c2c_ctz32(unsigned int x) { return __builtin_ctz(x); }
    /* Bits set in x, by adding neighbouring bit fields (the wheels are built
       without -mpopcnt, where __builtin_popcount is a library call). */
    static inline int c2c_popcount(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        x = (x + (x >> 4)) & 0x0F0F0F0Fu;
        return (int)((x * 0x01010101u) >> 24);
    }
    static inline int c2c_read_flag(const unsigned char *p) { return *(const volatile unsigned char *)p; }
    """
    int c2c_ctz64(unsigned long long x) nogil
    int c2c_ctz32(unsigned int x) nogil
    int c2c_popcount(unsigned int x) nogil
    int c2c_read_flag(const unsigned char *p) nogil


# --------------------------------------------------------------------------
# Small helpers over the struct
# --------------------------------------------------------------------------

cdef inline uint32_t bit(int i) noexcept nogil:
    return (<uint32_t> 1) << i


cdef inline int cards_needed(const C2CParams *P, const C2CState *s) noexcept nogil:
    return P.setup_cards if s.round == 0 else C2C_CARDS_PER_ROUND


cdef inline int visible_cards(const C2CParams *P, const C2CState *s, int p,
                              int8_t *out) noexcept nogil:
    """The cards ``p`` uses this round, in the order dealt (setup with
    several players: their 2 private cards, then the 2 public ones)."""
    cdef int k = 0, i, lo, hi
    if s.round == 0 and P.num_players > 1:
        lo = 2 * p
        hi = lo + 2 if lo + 2 < s.ndealt else s.ndealt
        for i in range(lo, hi):
            out[k] = s.dealt[i]
            k += 1
        lo = 2 * P.num_players
        hi = lo + 2 if lo + 2 < s.ndealt else s.ndealt
        for i in range(lo, hi):
            out[k] = s.dealt[i]
            k += 1
        return k
    for i in range(s.ndealt):
        out[i] = s.dealt[i]
    return s.ndealt


cdef inline uint32_t visible_mask(const C2CParams *P, const C2CState *s, int p) noexcept nogil:
    cdef int8_t cards[C2C_MAX_DEALT]
    cdef int k = visible_cards(P, s, p, cards), i
    cdef uint32_t m = 0
    for i in range(k):
        m |= bit(cards[i])
    return m


cdef inline uint32_t free_mask(const C2CParams *P, const C2CState *s, int p) noexcept nogil:
    """Locations ``p`` may circle: joined to a circle, neither circled nor crossed."""
    cdef uint32_t c = s.circled[p], reach = 0
    while c:
        reach |= P.neighbours[c2c_ctz32(c)]
        c &= c - 1
    return reach & ~s.circled[p] & ~s.crossed[p]


cdef inline uint32_t unused_cards(const C2CState *s) noexcept nogil:
    cdef uint32_t m = 0
    cdef int i
    for i in range(s.ndealt):
        m |= bit(s.dealt[i])
    return m & ~s.used


cdef inline bint can_circle(const C2CParams *P, const C2CState *s, int p) noexcept nogil:
    if s.round == 0:
        return False        # the setup circles come with the cross-off
    cdef uint32_t cards = unused_cards(s), reach = 0
    while cards:
        reach |= P.matches[c2c_ctz32(cards)]
        cards &= cards - 1
    return (reach & free_mask(P, s, p)) != 0


cdef inline int circle_actions(const C2CParams *P, const C2CState *s, int p,
                               int *out) noexcept nogil:
    """Circle actions ``n + card * n + location``, sorted (by card, then location)."""
    if s.round == 0:
        return 0
    cdef uint32_t cards = unused_cards(s), free = free_mask(P, s, p), locs
    cdef int k = 0, card, base
    while cards:
        card = c2c_ctz32(cards)
        cards &= cards - 1
        base = P.n + card * P.n
        locs = P.matches[card] & free
        while locs:
            out[k] = base + c2c_ctz32(locs)
            k += 1
            locs &= locs - 1
    return k


cdef inline uint32_t undealt_mask(const C2CParams *P, const C2CState *s) noexcept nogil:
    cdef uint32_t m = 0
    cdef int i
    for i in range(s.pos, P.deck_size):
        m |= bit(s.order[i])
    return m


cdef inline int mask_to_list(uint32_t m, int *out) noexcept nogil:
    cdef int k = 0
    while m:
        out[k] = c2c_ctz32(m)
        k += 1
        m &= m - 1
    return k


cdef inline void track_circle(C2CState *s, int p, int card, int loc) noexcept nogil:
    cdef int r = s.round, k = s.ncircles[p][r]
    s.circle_card[p][r][k] = card
    s.circle_loc[p][r][k] = loc
    s.ncircles[p][r] = k + 1


# --------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------

cdef inline int highway_score(const C2CParams *P, uint32_t circled) noexcept nogil:
    """Points for the runs of circles along each highway (runs of set bits)."""
    cdef int total = 0, h, run
    cdef unsigned long long bits
    for h in range(P.num_highways):
        bits = (<unsigned long long> circled >> P.highway_shift[h]) & \
               ((1ULL << P.highway_len[h]) - 1)
        while bits:
            bits >>= c2c_ctz64(bits)
            run = c2c_ctz64(~bits)
            total += P.highway_points[run]
            bits >>= run
    return total


cdef struct Breakdown:
    int highways
    int types
    int regions
    int exact
    int total


cdef inline Breakdown score_of(const C2CParams *P, const C2CState *s, int p) noexcept nogil:
    return sheet_score(P, s.circled[p], s.exact[p])


cdef inline Breakdown sheet_score(const C2CParams *P, uint32_t mask, uint32_t exact) noexcept nogil:
    """The score of a sheet with ``mask`` circled (exact matches in ``exact``)."""
    cdef Breakdown b
    cdef int i
    b.highways = highway_score(P, mask)
    b.types = P.empty_type_points
    for i in range(P.num_types):
        if P.type_masks[i] & ~mask == 0:
            b.types += P.type_points[i]
    b.regions = 0
    for i in range(P.num_regions):
        if P.region_masks[i] & ~mask == 0:
            b.regions += P.region_points
    b.exact = P.exact_points * c2c_popcount(exact & mask)
    b.total = b.highways + b.types + b.regions + b.exact
    return b


# --------------------------------------------------------------------------
# The GameDef functions (all noexcept nogil; actions are assumed legal)
# --------------------------------------------------------------------------

cdef int c2c_current_player(const void *params, const void *st) noexcept nogil:
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    if s.round > C2C_ROUNDS:
        return GAME_TERMINAL
    if s.ndealt < cards_needed(P, s):
        return GAME_CHANCE
    return s.player


cdef int c2c_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    cdef int player = c2c_current_player(params, st)
    if player == GAME_TERMINAL:
        return 0
    if player == GAME_CHANCE:
        return mask_to_list(undealt_mask(P, s), out)
    if s.step == C2C_CROSS:
        return mask_to_list(visible_mask(P, s, player), out)
    return circle_actions(P, s, player, out)


cdef bint c2c_is_legal(const C2CParams *P, const C2CState *s, int action) noexcept nogil:
    """Whether ``action`` is in ``legal_actions``, without listing them."""
    cdef int player = c2c_current_player(P, s), card, loc
    if player == GAME_TERMINAL or action < 0 or action >= P.n + P.n * P.n:
        return False
    if player == GAME_CHANCE:
        return action < P.n and (undealt_mask(P, s) & bit(action)) != 0
    if s.step == C2C_CROSS:
        return action < P.n and (visible_mask(P, s, player) & bit(action)) != 0
    if action < P.n or s.round == 0:
        return False
    card = (action - P.n) // P.n
    loc = (action - P.n) % P.n
    return (unused_cards(s) & bit(card)) != 0 and \
        (P.matches[card] & free_mask(P, s, player) & bit(loc)) != 0


cdef void settle(const C2CParams *P, C2CState *s) noexcept nogil:
    """Move on while the player to move has nothing left to circle: the
    unused cards are skipped, the turn passes, the round may end."""
    cdef int8_t cards[C2C_MAX_DEALT]
    cdef int k, i, p
    while (s.round <= C2C_ROUNDS and s.ndealt >= cards_needed(P, s)
           and s.step == C2C_CIRCLE and not can_circle(P, s, s.player)):
        p = s.player
        k = visible_cards(P, s, p, cards)
        for i in range(k):
            if not s.used & bit(cards[i]):
                track_circle(s, p, cards[i], -1)
        s.step = C2C_CROSS
        s.used = 0
        s.player += 1
        if s.player == P.num_players:
            s.player = 0
            s.round += 1
            s.ndealt = 0
            memcpy(s.start_circled, s.circled, sizeof(s.circled))
            memcpy(s.start_crossed, s.crossed, sizeof(s.crossed))
            memcpy(s.start_exact, s.exact, sizeof(s.exact))


cdef void c2c_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef const C2CParams *P = <const C2CParams *> params
    cdef C2CState *s = <C2CState *> st
    cdef int8_t cards[C2C_MAX_DEALT]
    cdef int i, k, p, r, card, loc
    cdef int8_t t
    if s.ndealt < cards_needed(P, s):
        # A deal: swap the card into place in the deck order.
        for i in range(s.pos, P.deck_size):
            if s.order[i] == action:
                t = s.order[s.pos]
                s.order[s.pos] = s.order[i]
                s.order[i] = t
                break
        s.pos += 1
        s.dealt[s.ndealt] = <int8_t> action
        s.ndealt += 1
    elif s.step == C2C_CROSS:
        p = s.player
        r = s.round
        s.crossed[p] |= bit(action)
        s.circled[p] &= ~bit(action)
        s.crosses[p][r] = <int8_t> action
        s.ncross[p] = r + 1
        s.ncircles[p][r] = 0
        s.used = bit(action)
        if r == 0:
            # The other setup cards become the starting circles.
            k = visible_cards(P, s, p, cards)
            for i in range(k):
                if cards[i] != action:
                    s.circled[p] |= bit(cards[i])
                    track_circle(s, p, cards[i], cards[i])
                s.used |= bit(cards[i])
        s.step = C2C_CIRCLE
    else:
        p = s.player
        card = (action - P.n) // P.n
        loc = (action - P.n) % P.n
        s.circled[p] |= bit(loc)
        if card == loc:
            s.exact[p] |= bit(loc)
        track_circle(s, p, card, loc)
        s.used |= bit(card)
    settle(P, s)


cdef int c2c_chance_outcomes(const void *params, const void *st, int *out,
                             double *probs) noexcept nogil:
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    if c2c_current_player(params, st) != GAME_CHANCE:
        return 0
    cdef int k = mask_to_list(undealt_mask(P, s), out), i
    for i in range(k):
        probs[i] = 1.0 / k
    return k


cdef int c2c_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    """A card drawn uniformly from the rest of the deck."""
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    return s.order[s.pos + rng_below(rng, P.deck_size - s.pos)]


cdef void c2c_returns(const void *params, const void *st, double *out) noexcept nogil:
    """The *search utility*, one double per seat.

    Solo with a challenge: 0 for a lost challenge, else 1 + score / 1000, so
    that winning comes first and the score breaks ties between wins. Solo
    without a challenge: score / 100 (about 0..2). Several players: the win
    shares of the Python ``returns()`` (highway points break ties, then the
    winners share). The Python ``returns()`` stays the rulebook result.

    Before the end the same formula is applied to the sheets as they stand
    (the challenge counts as lost until it is complete), a plain estimate for
    searches that cut their rollouts short; the Python ``returns()`` is all
    zeros there.
    """
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    cdef int p, winners = 0, best_total = -2147483647, best_hw = -2147483647
    cdef Breakdown b[C2C_MAX_PLAYERS]
    for p in range(P.num_players):
        out[p] = 0.0
    if P.num_players == 1:
        b[0] = score_of(P, s, 0)
        if P.challenge >= 0:
            out[0] = 0.0 if P.required & ~s.circled[0] else 1.0 + b[0].total / 1000.0
        else:
            out[0] = b[0].total / 100.0
        return
    for p in range(P.num_players):
        b[p] = score_of(P, s, p)
        if b[p].total > best_total or (b[p].total == best_total and b[p].highways > best_hw):
            best_total = b[p].total
            best_hw = b[p].highways
    for p in range(P.num_players):
        if b[p].total == best_total and b[p].highways == best_hw:
            winners += 1
    for p in range(P.num_players):
        if b[p].total == best_total and b[p].highways == best_hw:
            out[p] = 1.0 / winners


cdef void replay_seat(const C2CParams *P, C2CState *s, int q, uint64_t *rng) noexcept nogil:
    """Seat ``q``'s moves of this round made afresh by the playout policy,
    from its sheet as the round began (the round tracker follows)."""
    cdef C2CState t
    cdef int r = s.round, guard = 0
    s.circled[q] = s.start_circled[q]
    s.crossed[q] = s.start_crossed[q]
    s.exact[q] = s.start_exact[q]
    s.ncross[q] = r
    s.ncircles[q][r] = 0
    memcpy(&t, s, sizeof(C2CState))
    t.player = q
    t.step = C2C_CROSS
    t.used = 0
    while t.player == q and t.round == r and guard < 8:
        c2c_apply_action(P, &t, c2c_rollout_action(P, &t, rng))
        guard += 1
    s.circled[q] = t.circled[q]
    s.crossed[q] = t.crossed[q]
    s.exact[q] = t.exact[q]
    s.ncross[q] = t.ncross[q]
    s.crosses[q][r] = t.crosses[q][r]
    s.ncircles[q][r] = t.ncircles[q][r]
    memcpy(s.circle_card[q][r], t.circle_card[q][r], sizeof(t.circle_card[q][r]))
    memcpy(s.circle_loc[q][r], t.circle_loc[q][r], sizeof(t.circle_loc[q][r]))


cdef void c2c_determinize(const void *params, void *st, int player,
                          uint64_t *rng) noexcept nogil:
    """Re-deal every card ``player`` has not seen, keeping all they saw.

    Unseen are the undealt deck and, during the setup with several players,
    the private cards of the other seats. The cards are shuffled from a
    canonical (sorted) order, so two states ``player`` cannot tell apart
    re-deal identically from one seed.

    A round is simultaneous on paper: the other seats' moves of the current
    round are unseen by ``player``. The seats that have finished their turn
    make their moves afresh with the playout policy, from their sheets as
    the round began and on the re-dealt cards (:func:`replay_seat`), so
    nothing of the real choices reaches a search (which re-deals for the
    seat to move). A seat in the middle of its turn, when ``player`` is
    another, keeps its moves so far: its step is part of everyone's view.
    """
    cdef const C2CParams *P = <const C2CParams *> params
    cdef C2CState *s = <C2CState *> st
    cdef int8_t slots[C2C_MAX_LOCATIONS + C2C_MAX_DEALT]
    cdef int8_t cards[C2C_MAX_LOCATIONS + C2C_MAX_DEALT]
    cdef int k = 0, nprivate, q, i, j, hi, c
    if s.round == 0 and P.num_players > 1:
        for q in range(P.num_players):
            if q == player:
                continue
            hi = 2 * q + 2 if 2 * q + 2 < s.ndealt else s.ndealt
            for i in range(2 * q, hi):
                slots[k] = i
                cards[k] = s.order[i]
                k += 1
    nprivate = k
    for i in range(s.pos, P.deck_size):
        slots[k] = i
        cards[k] = s.order[i]
        k += 1
    for i in range(1, k):
        c = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > c:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = c
    rng_shuffle_i8(rng, cards, k)
    for j in range(nprivate):
        s.dealt[slots[j]] = cards[j]      # in the setup dealt[i] == order[i]
    for j in range(k):
        s.order[slots[j]] = cards[j]
    if P.num_players > 1 and s.round <= C2C_ROUNDS and s.ndealt >= cards_needed(P, s):
        for q in range(s.player):
            if q != player:
                replay_seat(P, s, q, rng)


cdef int c2c_action_observation(const void *params, const void *st, int action,
                                int player) noexcept nogil:
    """What ``player`` learns from ``action``: two actions get the same key
    exactly when they leave ``player``'s information state the same.

    * A deal: another seat's private setup card is dealt face down
      (``GAME_HIDDEN``); every other card is seen.
    * The seat to move sees its own move.
    * Another seat's move is hidden until the round ends (a round is
      simultaneous on paper); the others only see whether that seat's turn
      goes on (``GAME_HIDDEN``) or passes (key :func:`turn_passed_key`). The
      move that ends the round shows its sheet: the location crossed off or
      circled and whether the circle is an exact match, not which card made
      it (key :func:`sheet_key`).
    """
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    cdef C2CState after
    if s.ndealt < cards_needed(P, s):
        if (s.round == 0 and P.num_players > 1 and s.ndealt < 2 * P.num_players
                and s.ndealt // 2 != player):
            return GAME_HIDDEN
        return action
    if s.player == player:
        return action
    memcpy(&after, s, sizeof(C2CState))
    c2c_apply_action(P, &after, action)
    if after.round != s.round:
        return sheet_key(P, s.step, action)
    if after.player != s.player:
        return turn_passed_key(P, s.step)
    return GAME_HIDDEN


cdef inline int turn_passed_key(const C2CParams *P, int step) noexcept nogil:
    """The key for "that seat's turn passed": an action id of the other step
    (a circle at a cross-off, a cross-off at a circle), so it never equals a
    key :func:`sheet_key` gives at the same step."""
    return P.n if step == C2C_CROSS else 0


cdef inline int sheet_key(const C2CParams *P, int step, int action) noexcept nogil:
    """The key of a round-ending move as the sheet shows it: a cross-off is
    itself; a circle is the exact match itself, any other card one fixed
    non-matching card on the same location."""
    cdef int card, loc
    if step == C2C_CROSS:
        return action
    card = (action - P.n) // P.n
    loc = (action - P.n) % P.n
    if card == loc:
        return action
    return P.n + (1 if loc == 0 else 0) * P.n + loc


cdef int c2c_rollout_action(const void *params, const void *st,
                            uint64_t *rng) noexcept nogil:
    """The playout policy search uses (``GameDef.rollout_action``): a light,
    randomised greedy player, not a rule.

    Crossing off: the card whose location hurts least (never a required
    location if avoidable, then not a circled one, then not one that could be
    circled now). Circling: a required location first, then an exact match,
    then one next to required locations still missing, then a location that
    extends a highway run; random among equals, and one
    move in ten uniformly random so that playouts stay varied.
    """
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    cdef int8_t cards[C2C_MAX_DEALT]
    cdef int acts[3 * C2C_MAX_LOCATIONS + 4]
    cdef int p = s.player, k, i, n, best = 0, card, loc, h
    cdef uint32_t goal = P.required if P.num_players == 1 else 0
    cdef uint32_t free = free_mask(P, s, p), hw
    cdef double w, best_w = -1e300
    if s.step == C2C_CROSS:
        k = visible_cards(P, s, p, cards)
        for i in range(k):
            loc = cards[i]
            w = rng_unit(rng)
            if goal & bit(loc):
                w -= 100.0
            if s.circled[p] & bit(loc):
                w -= 20.0
            if free & bit(loc):
                w -= 2.0
            if w > best_w:
                best_w = w
                best = loc
        return best
    n = circle_actions(P, s, p, acts)
    if n == 1:
        return acts[0]
    if rng_unit(rng) < 0.1:
        return acts[rng_below(rng, n)]
    for i in range(n):
        card = (acts[i] - P.n) // P.n
        loc = (acts[i] - P.n) % P.n
        w = rng_unit(rng)
        if goal & bit(loc):
            w += 10.0
        # a step towards required locations not yet circled
        w += 2.0 * c2c_popcount(P.neighbours[loc] & goal & ~s.circled[p] & ~s.crossed[p])
        if card == loc:
            w += 4.0
        for h in range(P.num_highways):
            if P.highway_shift[h] <= loc < P.highway_shift[h] + P.highway_len[h]:
                hw = <uint32_t> (((<uint64_t> 1 << P.highway_len[h]) - 1) << P.highway_shift[h])
                w += 1.5 * c2c_popcount(P.neighbours[loc] & hw & s.circled[p])
                break
        if w > best_w:
            best_w = w
            best = acts[i]
    return best


cdef inline uint64_t mix(uint64_t h, uint64_t x) noexcept nogil:
    h ^= x
    h *= 0xFF51AFD7ED558CCDULL
    return h ^ (h >> 33)


cdef uint64_t c2c_hash(const void *params, const void *st) noexcept nogil:
    """A hash of everything that shapes the rest of the game: the sheets (and
    their round-start view), whose turn, the cards of the round (as a set,
    except for the private setup deal) and the set (not the order) of
    undealt cards. The round tracker is left out."""
    cdef const C2CParams *P = <const C2CParams *> params
    cdef const C2CState *s = <const C2CState *> st
    cdef uint64_t h = 0x243F6A8885A308D3ULL, w = 0
    cdef int p, i
    for p in range(P.num_players):
        h = mix(h, (<uint64_t> s.circled[p] << 32) | s.crossed[p])
        h = mix(h, (<uint64_t> s.exact[p] << 32) | s.start_exact[p])
        h = mix(h, (<uint64_t> s.start_circled[p] << 32) | s.start_crossed[p])
    if s.round == 0 and P.num_players > 1:
        # Who holds which private card matters: hash the deal in order.
        for i in range(s.ndealt):
            w = (w << 6) ^ <uint64_t> (s.dealt[i] + 1)
            if i % 8 == 7:
                h = mix(h, w)
                w = 0
        h = mix(h, w)
    else:
        # A round's cards are used by identity, so their order is irrelevant:
        # hashing the set merges the orders chance could deal them in.
        for i in range(s.ndealt):
            w |= bit(s.dealt[i])
        h = mix(h, w | (<uint64_t> 1 << 40))
    h = mix(h, (<uint64_t> undealt_mask(P, s) << 32) | s.used)
    h = mix(h, (<uint64_t> <uint8_t> s.round) | (<uint64_t> <uint8_t> s.player) << 8
            | (<uint64_t> <uint8_t> s.step) << 16 | (<uint64_t> <uint8_t> s.ndealt) << 24
            | (<uint64_t> <uint8_t> s.pos) << 32)
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    return h ^ (h >> 33)



# --------------------------------------------------------------------------
# Setting a state up
# --------------------------------------------------------------------------

cdef void init_state(const C2CParams *P, C2CState *s, uint64_t seed) noexcept nogil:
    """A new game, the deck shuffled by ``seed`` as the reference shuffles it."""
    memset(s, 0, sizeof(C2CState))
    memcpy(s.order, P.deck, P.deck_size)
    rng_shuffle_i8(&seed, s.order, P.deck_size)
    s.step = C2C_CROSS


cdef class GameCore:
    """The constant tables of one Coast to Coast game and its ``GameDef``.

    Built by :class:`solvers.games.c2c.kernel.CoastToCoastKernel` from a
    :class:`~solvers.games.c2c.data.CoastMap`, a seat count, the challenge
    card (or None) and the deck.
    """

    cdef C2CParams params
    cdef GameDef gamedef
    cdef bytes _name
    cdef object __weakref__

    def __init__(self, cmap, int players, challenge, deck):
        cdef C2CParams *P = &self.params
        cdef int i, n = cmap.n
        memset(P, 0, sizeof(C2CParams))
        if not 2 <= n <= C2C_MAX_LOCATIONS:
            raise SolversError(f"the kernel plays maps of 2 to 32 locations, not {n}")
        if not 1 <= players <= C2C_MAX_PLAYERS:
            raise SolversError(f"Coast to Coast is for 1 to 4 players, not {players}")
        P.n = n
        P.num_players = players
        P.challenge = -1 if challenge is None else challenge
        P.setup_cards = 4 if players == 1 else 2 * players + 2
        P.deck_size = len(deck)
        for i, c in enumerate(deck):
            P.deck[i] = c
        for i in range(n):
            P.neighbours[i] = cmap.neighbours[i]
            P.matches[i] = cmap.matches[i]
        P.required = 0 if challenge is None else cmap.matches[challenge]
        for hw in cmap.highways:
            mask = cmap.highway_masks[hw]
            if not mask:
                continue
            shift = (mask & -mask).bit_length() - 1
            length = bin(mask).count("1")
            if mask >> shift != (1 << length) - 1:
                raise SolversError(f"map {cmap.source}: the ids of highway {hw} are not consecutive")
            P.highway_shift[P.num_highways] = shift
            P.highway_len[P.num_highways] = length
            P.num_highways += 1
        for i, pts in enumerate(cmap.highway_points[:C2C_MAX_LOCATIONS + 1]):
            P.highway_points[i] = pts
        for r in cmap.regions:
            P.region_masks[P.num_regions] = cmap.region_masks[r]
            P.num_regions += 1
        P.region_points = cmap.region_points
        for t in cmap.types:
            if cmap.type_masks[t]:
                P.type_masks[P.num_types] = cmap.type_masks[t]
                P.type_points[P.num_types] = cmap.type_points[t]
                P.num_types += 1
            else:
                P.empty_type_points += cmap.type_points[t]
        P.exact_points = cmap.exact_match_points

        self._name = b"c2c"
        cdef GameDef *g = &self.gamedef
        g.name = self._name
        g.num_players = players
        g.max_actions = max(3 * n, P.deck_size, C2C_CARDS_PER_ROUND)
        g.num_distinct_actions = n + n * n
        g.max_game_length = P.setup_cards + players + C2C_ROUNDS * (C2C_CARDS_PER_ROUND + 4 * players)
        g.state_size = sizeof(C2CState)
        g.params = P
        g.current_player = c2c_current_player
        g.legal_actions = c2c_legal_actions
        g.apply_action = c2c_apply_action
        g.chance_outcomes = c2c_chance_outcomes
        g.sample_chance = c2c_sample_chance
        g.returns = c2c_returns
        g.rollout_action = c2c_rollout_action
        g.determinize = c2c_determinize
        g.action_observation = c2c_action_observation
        # Solo, every move is seen; with several players the others' moves
        # of a round are hidden until it ends (c2c_action_observation).
        g.public_decisions = 1 if players == 1 else 0
        g.hash = c2c_hash

    @property
    def max_actions(self) -> int:
        return self.gamedef.max_actions

    @property
    def max_game_length(self) -> int:
        return self.gamedef.max_game_length

    @property
    def state_size(self) -> int:
        return self.gamedef.state_size

    def gamedef_capsule(self):
        """A PyCapsule "solvers.GameDef" to this game's table (keeps it alive)."""
        return owned_capsule(&self.gamedef, b"solvers.GameDef", self)

    def new_state(self, game, seed: int):
        """A fresh state whose deck is shuffled by ``seed`` (a 64-bit int)."""
        cdef CoastKernelState st = CoastKernelState.__new__(CoastKernelState)
        st.P = &self.params
        st.core = self
        st.game = game
        st.history = []
        init_state(&self.params, &st.s, <uint64_t> seed)
        return st

    def random_scores(self, int n, seed: int) -> np.ndarray:
        """Scores of ``n`` random games, shape ``(n, players)``.

        Chance deals uniformly from the rest of the deck and every player
        picks uniformly among their legal actions, all in C from one
        SplitMix64 stream seeded by ``seed``.
        """
        if n < 0:
            raise SolversError(f"the number of games must be >= 0, not {n}")
        out = np.zeros((n, self.params.num_players), dtype=np.int32)
        cdef int32_t[:, ::1] view = out
        cdef uint64_t rng = <uint64_t> seed_from(seed)
        with nogil:
            play_random(&self.params, n, &rng, view)
        return out

    def hindsight_beam(self, cards, int rounds=C2C_ROUNDS, width=256, uint32_t required=0,
                       int hope=4, int partial=0):
        """A good plan for a known solo deal, found by beam search (not proven best).

        ``cards``: the 4 setup cards, then 4 per round; ``required``: the
        locations a challenge demands (a mask). Returns ``(score, plan)``, or
        None when no sheet the beam kept circles every required location.
        ``plan`` lists per round (the setup first) the card crossed off and
        the circles in the order made, ``(card, location)``, then each
        skipped card as ``(card, -1)``; the setup has no circles listed.
        """
        if not 0 <= rounds <= C2C_ROUNDS:
            raise SolversError(f"rounds should be 0 to {C2C_ROUNDS}, not {rounds}")
        cdef int64_t widest = beam_max_width(self.params.n, rounds)
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= widest:
            raise SolversError(f"the beam width must be a whole number from 1 to {widest:,} "
                               f"(the beam counts its sheets in 32 bits), not {width!r}")
        cards = list(cards)
        if len(cards) != 4 + 4 * rounds or len(set(cards)) != len(cards) or \
                not all(0 <= c < self.params.n for c in cards):
            raise SolversError(f"a deal of {rounds} rounds lists {4 + 4 * rounds} different cards")
        cdef int8_t deal[4 + 4 * C2C_ROUNDS]
        cdef int i, j, best, n = self.params.n
        for i, c in enumerate(cards):
            deal[i] = c
        cdef Beam B
        B.required = required
        B.hope = hope
        B.partial = partial
        try:
            if beam_alloc(&B, &self.params, width, rounds) < 0:
                raise SolversError(beam_memory_error(width, self.params.n, rounds))
            with nogil:
                best = beam_run(&B, deal, rounds)
            if best < 0:
                return None
            score = sheet_score(&self.params, B.hist[best].circled, B.hist[best].exact).total
            moves = []
            j = best
            while j >= 0:
                moves.append((B.hist[j].card, B.hist[j].loc))
                j = B.hist[j].parent
        finally:
            beam_free(&B)
        moves.reverse()
        plan = []
        for card, loc in moves:
            if loc == BEAM_CROSS:
                plan.append((card, []))
            elif loc >= 0:
                plan[len(plan) - 1][1].append((card, loc))
        for r, (cross, circles) in enumerate(plan):
            if r > 0:
                used = {cross} | {c for c, _ in circles}
                circles.extend((c, -1) for c in cards[4 * r:4 * r + 4] if c not in used)
        return score, plan


cdef void play_random(const C2CParams *P, int games, uint64_t *rng,
                      int32_t[:, ::1] out) noexcept nogil:
    cdef C2CState s
    cdef int actions[C2C_MAX_ACTIONS]
    cdef int g, k, p, player
    for g in range(games):
        init_state(P, &s, 0)            # chance below deals uniformly anyway
        while True:
            player = c2c_current_player(P, &s)
            if player == GAME_TERMINAL:
                break
            if player == GAME_CHANCE:
                c2c_apply_action(P, &s, c2c_sample_chance(P, &s, rng))
            else:
                k = c2c_legal_actions(P, &s, actions)
                c2c_apply_action(P, &s, actions[rng_below(rng, k)])
        for p in range(P.num_players):
            out[g, p] = score_of(P, &s, p).total


# --------------------------------------------------------------------------
# Hindsight beam search: a good plan (not a proven one) for a known solo deal
# --------------------------------------------------------------------------
# The CP-SAT model in solvers.optimize.c2c proves the best plan; it gets
# there much sooner when it starts from a good one. This search plays the
# known deal forwards one move at a time (a cross-off, then up to three
# circles per round), keeps the `width` best sheets after every move, and
# merges sheets that reached the same position by different routes.

cdef struct BeamEntry:
    uint32_t circled
    uint32_t crossed
    uint32_t exact
    int32_t parent        # index in the history of the entry before (-1: none)
    int32_t value         # what the beam ranks by
    int8_t card           # the card of the move that led here (-1: none)
    int8_t loc            # the location circled, BEAM_CROSS or BEAM_PASS
    uint8_t used          # the round's cards used so far (bit i: the i-th card)


cdef enum:
    INT32_MAX_BEAM = 0x7FFFFFFF   # the most entries the beam's int32 indexes reach
    BEAM_CROSS = -2       # BeamEntry.loc of a cross-off
    BEAM_PASS = -1        # no card is left that can circle: the round is over
    BEAM_REQUIRED = 40    # value of each required location circled (challenges)


cdef struct Beam:
    const C2CParams *P
    uint32_t required
    uint32_t future       # the cards of the rounds still to come
    int hope              # value (quarter points) of a future card's location still free
    int partial           # weight (quarter points) of part-done types and regions
    int width
    BeamEntry *hist       # every kept entry, layer after layer
    int n_hist
    BeamEntry *kids       # the children of the current layer
    int n_kids
    int32_t *table        # open addressing over kids (-1: empty)
    uint32_t table_mask
    uint32_t *slot        # where each kid sits in the table (to empty it again)
    int64_t *rank         # kids ranked for keeping (see beam_keep)


cdef inline int32_t beam_value(const Beam *B, uint32_t circled, uint32_t crossed,
                               uint32_t exact) noexcept nogil:
    """In quarter points: the score so far, each required location circled,
    and the hope of an exact match for each card to come whose location is
    still free."""
    cdef const C2CParams *P = B.P
    cdef int i, have, size
    cdef uint32_t group
    cdef int32_t v = (4 * sheet_score(P, circled, exact).total
                      + 4 * BEAM_REQUIRED * c2c_popcount(circled & B.required)
                      + B.hope * c2c_popcount(B.future & ~circled & ~crossed))
    if B.partial:
        for i in range(P.num_types + P.num_regions):
            group = P.type_masks[i] if i < P.num_types else P.region_masks[i - P.num_types]
            if group & crossed or group & ~circled == 0:
                continue
            size = c2c_popcount(group)
            have = c2c_popcount(group & circled)
            v += (B.partial * (P.type_points[i] if i < P.num_types else P.region_points)
                  * have * have) // (size * size)
    return v


cdef void beam_offer(Beam *B, uint32_t circled, uint32_t crossed, uint32_t exact,
                     uint8_t used, int32_t parent, int card, int loc) noexcept nogil:
    """A child for the next layer; of the children with the same position
    (circled, crossed, cards used) only the best is kept."""
    cdef uint64_t h = ((<uint64_t> circled * 0x9E3779B97F4A7C15ULL)
                       ^ (<uint64_t> crossed * 0xC2B2AE3D27D4EB4FULL) ^ used)
    cdef uint32_t i = <uint32_t> (h ^ (h >> 29)) & B.table_mask
    cdef int32_t v = beam_value(B, circled, crossed, exact), k
    cdef BeamEntry *e
    while B.table[i] >= 0:
        e = &B.kids[B.table[i]]
        if e.circled == circled and e.crossed == crossed and e.used == used:
            if v > e.value:
                e.exact, e.value, e.parent, e.card, e.loc = exact, v, parent, card, loc
            return
        i = (i + 1) & B.table_mask
    k = B.n_kids
    B.n_kids += 1
    B.table[i] = k
    B.slot[k] = i
    e = &B.kids[k]
    e.circled, e.crossed, e.exact, e.used = circled, crossed, exact, used
    e.value, e.parent, e.card, e.loc = v, parent, card, loc


cdef int64_t beam_max_width(int n, int rounds) noexcept:
    """The widest beam over ``n`` locations and ``rounds`` rounds whose
    children (``width * (3n + 4)``) and history (``width * (1 + 4 rounds) +
    4``) can be counted in an int32 (the beam's indexes); such a beam
    already needs over 70 GiB."""
    return min(<int64_t> INT32_MAX_BEAM // (3 * n + 4),
               (<int64_t> INT32_MAX_BEAM - 4) // (1 + 4 * rounds))


cdef int beam_rank_desc(const void *a, const void *b) noexcept nogil:
    cdef int64_t x = (<const int64_t *> a)[0], y = (<const int64_t *> b)[0]
    return (x < y) - (x > y)


cdef int beam_keep(Beam *B) noexcept nogil:
    """Move the best `width` children into the history; returns where the
    new layer starts, and clears the children."""
    cdef int i, start = B.n_hist, n = B.n_kids
    cdef int64_t low = ((<int64_t> 1) << 32) - 1
    # Best value first, ties in the order the children were made: the rank
    # is the value above 32 bits that put the earlier child first.
    for i in range(n):
        B.rank[i] = <int64_t> B.kids[i].value * (low + 1) + (low - i)
    qsort(B.rank, n, sizeof(int64_t), beam_rank_desc)
    if n > B.width:
        n = B.width
    for i in range(n):
        B.hist[B.n_hist] = B.kids[low - (B.rank[i] & low)]
        B.n_hist += 1
    for i in range(B.n_kids):
        B.table[B.slot[i]] = -1
    B.n_kids = 0
    return start


cdef int beam_cross_layer(Beam *B, int start, int end, const int8_t *cards) noexcept nogil:
    """Each sheet of ``[start, end)`` crosses off one of a round's 4 cards;
    returns where the kept layer starts."""
    cdef int j, slot
    cdef uint32_t b
    cdef BeamEntry e
    for slot in range(4):
        B.future &= ~bit(cards[slot])
    for j in range(start, end):
        e = B.hist[j]
        for slot in range(4):
            b = bit(cards[slot])
            beam_offer(B, e.circled & ~b, e.crossed | b, e.exact, 1 << slot, j, cards[slot],
                       BEAM_CROSS)
    return beam_keep(B)


cdef int beam_circle_layers(Beam *B, int start, int end, const int8_t *cards) noexcept nogil:
    """The circles of a round with the 4 ``cards`` (a sheet's ``used`` bits
    say which are spent): three layers of one circle each, a sheet that can
    circle nothing passing; returns where the last kept layer starts."""
    cdef const C2CParams *P = B.P
    cdef int j, step, slot, loc, card
    cdef uint32_t reach, room, locs, c, b
    cdef bint moved
    cdef BeamEntry e
    for step in range(3):
        for j in range(start, end):
            e = B.hist[j]
            reach = 0
            c = e.circled
            while c:
                reach |= P.neighbours[c2c_ctz32(c)]
                c &= c - 1
            room = reach & ~e.circled & ~e.crossed
            moved = False
            for slot in range(4):
                if e.used >> slot & 1:
                    continue
                card = cards[slot]
                locs = P.matches[card] & room
                while locs:
                    loc = c2c_ctz32(locs)
                    locs &= locs - 1
                    b = bit(loc)
                    beam_offer(B, e.circled | b, e.crossed, e.exact | (b if loc == card else 0),
                               e.used | (1 << slot), j, card, loc)
                    moved = True
            if not moved:
                beam_offer(B, e.circled, e.crossed, e.exact, 0xF, j, -1, BEAM_PASS)
        start = beam_keep(B)
        end = B.n_hist
    return start


cdef int beam_best(Beam *B, int start, int end) noexcept nogil:
    """The history index of the best-scoring sheet of ``[start, end)`` that
    circles every required location, or -1."""
    cdef int j, t, best = -1, best_score = -1
    for j in range(start, end):
        if B.hist[j].circled & B.required != B.required:
            continue
        t = sheet_score(B.P, B.hist[j].circled, B.hist[j].exact).total
        if t > best_score:
            best_score = t
            best = j
    return best


cdef int beam_run(Beam *B, const int8_t *cards, int rounds) noexcept nogil:
    """The whole search; returns the history index of the best final sheet
    (one that circles every required location), or -1."""
    cdef int start, end, i, r
    cdef uint32_t setup = 0, b
    for i in range(4):
        setup |= bit(cards[i])
    B.future = 0
    for i in range(4, 4 + 4 * rounds):
        B.future |= bit(cards[i])
    for i in range(4):
        b = bit(cards[i])
        beam_offer(B, setup & ~b, b, 0, 0, -1, cards[i], BEAM_CROSS)
    start = beam_keep(B)
    end = B.n_hist
    for r in range(1, rounds + 1):
        start = beam_cross_layer(B, start, end, cards + 4 * r)
        end = B.n_hist
        start = beam_circle_layers(B, start, end, cards + 4 * r)
        end = B.n_hist
    return beam_best(B, start, end)


cdef int beam_settle(Beam *B, int start, int end) noexcept nogil:
    """The one sheet a player who does not know the next cards keeps at the
    end of a round: the best valued of ``[start, end)`` (the first of equals)."""
    cdef int j, best = start
    for j in range(start + 1, end):
        if B.hist[j].value > B.hist[best].value:
            best = j
    return best


cdef int beam_from(Beam *B, const BeamEntry *root, const int8_t *current, const int8_t *future,
                   int rounds, bint by_round, uint32_t unseen) noexcept nogil:
    """The search from one sheet: first the circles still due with the
    round's ``current`` cards (NULL: the turn is over), then ``rounds``
    whole rounds of ``future`` cards. The best final score (every required
    location circled), or minus the fewest required locations a final sheet
    misses.

    Without ``by_round``: hindsight, every future card known. With it, a player
    who sees one round at a time: within a round it searches the round's
    cards (the beam), at the round's end it keeps the one sheet it values
    best, hoping for the ``unseen`` cards (the deck not yet dealt) rather
    than for the ones that will come."""
    cdef int start = 0, end, i, r, best, t, missing
    B.n_hist = 1
    B.n_kids = 0
    B.hist[0] = root[0]
    B.hist[0].parent = -1
    B.future = unseen if by_round else 0
    if not by_round:
        for i in range(4 * rounds):
            B.future |= bit(future[i])
    end = 1
    if current != NULL:
        start = beam_circle_layers(B, start, end, current)
        end = B.n_hist
    for r in range(rounds):
        if by_round and end > start + 1:
            start = beam_settle(B, start, end)
            end = start + 1
        start = beam_cross_layer(B, start, end, future + 4 * r)
        end = B.n_hist
        start = beam_circle_layers(B, start, end, future + 4 * r)
        end = B.n_hist
    best = beam_best(B, start, end)
    if best >= 0:
        return sheet_score(B.P, B.hist[best].circled, B.hist[best].exact).total
    # No final sheet circles every required location: how close the best came.
    missing = 32
    for i in range(start, end):
        t = c2c_popcount(B.required & ~B.hist[i].circled)
        if t < missing:
            missing = t
    return -missing


cdef int beam_alloc(Beam *B, const C2CParams *P, int width, int rounds) noexcept nogil:
    """The buffers of a beam of ``width`` over ``rounds`` rounds; 0, or -1
    when memory ran out (the buffers allocated so far are to be freed by
    :func:`beam_free` all the same)."""
    # Sizes in 64 bits: width * (3n + 4) and the history stay below 2**31
    # for widths up to beam_max_width, the table below 2**32 entries.
    cdef int64_t kids = <int64_t> width * (3 * P.n + 4), table = 1
    cdef int64_t n_hist = <int64_t> width * (1 + 4 * rounds) + 4
    while table < 2 * kids:
        table <<= 1
    B.P = P
    B.width = width
    B.n_hist = B.n_kids = 0
    B.table_mask = <uint32_t> (table - 1)
    B.hist = <BeamEntry *> malloc(sizeof(BeamEntry) * <size_t> n_hist)
    B.kids = <BeamEntry *> malloc(sizeof(BeamEntry) * <size_t> kids)
    B.table = <int32_t *> malloc(sizeof(int32_t) * <size_t> table)
    B.rank = <int64_t *> malloc(sizeof(int64_t) * <size_t> kids)
    B.slot = <uint32_t *> malloc(sizeof(uint32_t) * <size_t> kids)
    if B.hist == NULL or B.kids == NULL or B.table == NULL or B.rank == NULL or B.slot == NULL:
        return -1
    memset(B.table, 0xFF, sizeof(int32_t) * table)
    return 0


def beam_memory_error(width, n, rounds):
    """The one-line message for a beam whose buffers could not be allocated."""
    kids = width * (3 * n + 4)
    table = 1
    while table < 2 * kids:
        table <<= 1
    need = (sizeof(BeamEntry) * (width * (1 + 4 * rounds) + 4 + kids) + sizeof(int32_t) * table
            + (sizeof(int64_t) + sizeof(uint32_t)) * kids)
    return f"not enough memory for a beam of width {width:,} ({need / 2**30:.1f} GiB)"


cdef void beam_free(Beam *B) noexcept nogil:
    c_free(B.hist)
    c_free(B.kids)
    c_free(B.table)
    c_free(B.rank)
    c_free(B.slot)


cdef int sampled_outcome(const C2CParams *P, const C2CState *s, int p, int action,
                         Beam *B, bint by_round) noexcept nogil:
    """Seat ``p``'s final score when it plays ``action`` in ``s`` (whose
    future deck order is taken as known) and then the beam's plan; when no
    plan the beam kept circles every required location, minus the fewest
    required locations missed."""
    cdef C2CState u
    cdef int8_t current[4]
    cdef int i, r = s.round, rounds
    cdef uint32_t unseen = 0
    cdef BeamEntry root
    memcpy(&u, s, sizeof(C2CState))
    c2c_apply_action(P, &u, action)
    if by_round:
        unseen = undealt_mask(P, &u)
    root.circled, root.crossed, root.exact = u.circled[p], u.crossed[p], u.exact[p]
    root.value, root.card, root.loc, root.used = 0, -1, BEAM_PASS, 0
    rounds = C2C_ROUNDS - r
    if u.pos + 4 * rounds > P.deck_size:
        rounds = (P.deck_size - u.pos) // 4
    if u.round == r and u.player == p and u.step == C2C_CIRCLE and r > 0:
        for i in range(4):
            current[i] = u.dealt[i]
            if u.used & bit(u.dealt[i]):
                root.used |= <uint8_t> (1 << i)
        return beam_from(B, &root, current, &u.order[u.pos], rounds, by_round, unseen)
    return beam_from(B, &root, NULL, &u.order[u.pos], rounds, by_round, unseen)


include "c2c_rounds.pxi"


# --------------------------------------------------------------------------
# The Python face
# --------------------------------------------------------------------------

_STEPS = ("cross", "circle")


cdef object as_index(object value):
    """``value`` as a Python int (an int, a numpy integer), or None."""
    try:
        return operator.index(value)
    except TypeError:
        return None


def _bits(uint32_t m) -> list:
    cdef list out = []
    while m:
        out.append(c2c_ctz32(m))
        m &= m - 1
    return out


cdef class CoastKernelState:
    """A position of Coast to Coast (Cython kernel).

    The same methods as the reference ``CoastState`` (see
    :mod:`solvers.game` for the contract), over one C struct::

        >>> import solvers
        >>> game = solvers.load_game("c2c", players=2)
        >>> state = game.new_initial_state(seed=7)
        >>> state.apply_seeded_chance()
        >>> state.current_player(), len(state.legal_actions())
        (0, 4)
        >>> clone = state.clone(); clone.apply_action(clone.legal_actions()[0])
        >>> len(state.history) < len(clone.history)
        True
    """

    cdef C2CState s
    cdef const C2CParams *P
    cdef GameCore core
    cdef readonly object game
    cdef public list history
    cdef object __weakref__

    def __init__(self, *args, **kwargs):
        raise TypeError("states come from game.new_initial_state() or game.state_from_deal()")

    # ----- the State interface -------------------------------------------
    # The hot methods are plain method descriptors (binding=False), the
    # kind of callable CPython calls fastest; embedsignature (line 1) keeps
    # their signatures for inspect.
    @cython.binding(False)
    def current_player(self) -> int:
        return c2c_current_player(self.P, &self.s)

    @cython.binding(False)
    def is_chance_node(self) -> bool:
        return c2c_current_player(self.P, &self.s) == GAME_CHANCE

    @cython.binding(False)
    def is_terminal(self) -> bool:
        return self.s.round > C2C_ROUNDS

    @cython.binding(False)
    def legal_actions(self) -> list:
        cdef int out[C2C_MAX_ACTIONS]
        cdef int k = c2c_legal_actions(self.P, &self.s, out)
        return solvers_int_list(out, k, ACTION_INTS)

    def chance_outcomes(self) -> list:
        cdef int out[C2C_MAX_ACTIONS]
        cdef double probs[C2C_MAX_ACTIONS]
        cdef int k = c2c_chance_outcomes(self.P, &self.s, out, probs)
        return [(out[i], probs[i]) for i in range(k)]

    @cython.binding(False)
    def seeded_outcome(self) -> int:
        """The card the state's seeded deck order deals next."""
        if c2c_current_player(self.P, &self.s) != GAME_CHANCE:
            raise SolversError("not a chance node")
        return self.s.order[self.s.pos]

    def apply_seeded_chance(self) -> None:
        """Resolve chance nodes with the seeded outcomes until a player must act."""
        while c2c_current_player(self.P, &self.s) == GAME_CHANCE:
            self.history.append(self.s.order[self.s.pos])
            c2c_apply_action(self.P, &self.s, self.s.order[self.s.pos])

    cdef bint _is_legal(self, object action):
        action = as_index(action)
        if action is None or not 0 <= action < self.P.n + self.P.n * self.P.n:
            return False
        return c2c_is_legal(self.P, &self.s, <int> action)

    @cython.binding(False)
    def apply_action(self, action) -> None:
        """Play ``action``; an illegal one raises IllegalActionError and changes nothing."""
        cdef long a
        if type(action) is int:        # the common case, read in C
            a = solvers_action_index(action, 1)
            if a < 0 or a >= self.P.n + self.P.n * self.P.n or not c2c_is_legal(self.P, &self.s, <int>a):
                raise IllegalActionError(f"action {action!r} is not legal here")
            self.history.append(action)
            c2c_apply_action(self.P, &self.s, <int>a)
            return
        if not self._is_legal(action):
            raise IllegalActionError(f"action {action!r} is not legal here")
        action = operator.index(action)
        self.history.append(action)
        c2c_apply_action(self.P, &self.s, <int> action)

    @cython.binding(False)
    def returns(self) -> list:
        """The rulebook result: solo the score (0 for a lost challenge);
        several players 1 for the winner, tied winners share."""
        cdef int p, np_ = self.P.num_players
        if self.s.round <= C2C_ROUNDS:
            return [0.0] * np_
        if np_ == 1:
            return [0.0 if self.challenge_won() is False else float(score_of(self.P, &self.s, 0).total)]
        keys = [(score_of(self.P, &self.s, p).total, score_of(self.P, &self.s, p).highways)
                for p in range(np_)]
        best = max(keys)
        winners = [p for p, key in enumerate(keys) if key == best]
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(np_)]

    def scores(self) -> list:
        return [score_of(self.P, &self.s, p).total for p in range(self.P.num_players)]

    def score_breakdown(self, player: int = 0) -> dict:
        """Points by category for ``player``'s itinerary as it stands."""
        cdef Breakdown b = score_of(self.P, &self.s, self._check_player(player))
        return {"highways": b.highways, "types": b.types, "regions": b.regions,
                "exact": b.exact, "total": b.total}

    def challenge_won(self):
        """Whether the solo challenge is complete (None without a challenge)."""
        if self.P.challenge < 0:
            return None
        return self.P.required & ~self.s.circled[0] == 0

    @cython.binding(False)
    def clone(self):
        cdef CoastKernelState other = CoastKernelState.__new__(CoastKernelState)
        other.s = self.s
        other.P = self.P
        other.core = self.core
        other.game = self.game
        other.history = list(self.history)
        return other

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    # ----- names and views -------------------------------------------------
    def observed_move(self, action: int, viewer) -> str:
        """``action`` as ``viewer`` sees it (:func:`solvers.game.observed_move`)."""
        from solvers.game import observed_move
        return observed_move(self, action, viewer)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        """The public part of a move ``viewer`` does not see whole."""
        from solvers.games.c2c.reference import describe_hidden
        return describe_hidden(self, action, viewer, seen)

    def action_to_string(self, action: int) -> str:
        cdef int n = self.P.n
        action = as_index(action)
        if action is None or not 0 <= action < n + n * n:
            raise SolversError(f"{action!r} is not a Coast to Coast action")
        names = self.game.map.locations
        if c2c_current_player(self.P, &self.s) == GAME_CHANCE:
            if action >= n:
                raise SolversError(f"{action!r} is not a card")
            return f"deal {names[action].name}"
        if action < n:
            return f"cross {names[action].name}"
        card, loc = divmod(action - n, n)
        return f"circle {names[loc].name} with {names[card].name}"

    def string_to_action(self, text: str) -> int:
        """The legal action whose string form is ``text`` (case and spaces ignored)."""
        want = " ".join(text.lower().split())
        for a in self.legal_actions():
            if " ".join(self.action_to_string(a).lower().split()) == want:
                return a
        raise IllegalActionError(f"{text!r} is not a legal move here")

    cdef int _check_player(self, player) except -1:
        seat = as_index(player)
        if seat is None or not 0 <= seat < self.P.num_players:
            raise SolversError(f"no player {player!r} in a {self.P.num_players}-player game")
        return seat

    def information_state(self, player: int) -> dict:
        """What ``player`` knows: the public cards, their own private cards,
        their own sheet, and the other sheets as they stood at the start of
        the round. Equal to the reference's dict."""
        cdef int p = self._check_player(player)
        cdef int8_t cards[C2C_MAX_DEALT]
        cdef int k = visible_cards(self.P, &self.s, p, cards) if self.s.round <= C2C_ROUNDS else 0
        others = {
            str(q): {"circled": _bits(self.s.start_circled[q]),
                     "crossed": _bits(self.s.start_crossed[q]),
                     "exact": _bits(self.s.start_exact[q])}
            for q in range(self.P.num_players) if q != p
        }
        return {
            "game": "c2c",
            "player": player,
            "challenge": self.game.challenge,
            "round": self.s.round,
            "to_move": c2c_current_player(self.P, &self.s),
            "step": _STEPS[self.s.step],
            "cards": sorted([cards[i] for i in range(k)]),
            "used": _bits(self.s.used) if self.s.player == p else [],
            "sheet": {"circled": _bits(self.s.circled[p]), "crossed": _bits(self.s.crossed[p]),
                      "exact": _bits(self.s.exact[p])},
            "others": others,
        }

    def plan(self, player: int = 0) -> dict:
        """The player's sheet as the JSON plan of the command line."""
        cdef int p = self._check_player(player), r, e
        names = [l.name for l in self.game.map.locations]
        rounds = []
        for r in range(1, self.s.ncross[p]):
            rounds.append({
                "cross": names[self.s.crosses[p][r]],
                "circles": [[names[self.s.circle_card[p][r][e]],
                             None if self.s.circle_loc[p][r][e] < 0 else names[self.s.circle_loc[p][r][e]]]
                            for e in range(self.s.ncircles[p][r])],
            })
        return {"setup_cross": names[self.s.crosses[p][0]] if self.s.ncross[p] else None,
                "rounds": rounds}

    def __str__(self) -> str:
        names = [l.name for l in self.game.map.locations]
        lines = [f"round {self.s.round}, to move {self.current_player()}, dealt: "
                 + ", ".join(names[self.s.dealt[i]] for i in range(self.s.ndealt))]
        for p in range(self.P.num_players):
            lines.append(f"player {p}: circled {_bits(self.s.circled[p])} crossed {_bits(self.s.crossed[p])}"
                         f" exact {_bits(self.s.exact[p])} score {score_of(self.P, &self.s, p).total}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<CoastKernelState round {self.s.round} after {len(self.history)} actions>"

    # ----- the reference's attributes, read-only ---------------------------
    @property
    def map(self):
        return self.game.map

    @property
    def round(self) -> int:
        """0 = setup, 1..5, 6 = the game is over."""
        return self.s.round

    @property
    def pos(self) -> int:
        return self.s.pos

    @property
    def player(self) -> int:
        return self.s.player

    @property
    def step(self) -> str:
        return _STEPS[self.s.step]

    @property
    def order(self) -> list:
        return [self.s.order[i] for i in range(self.P.deck_size)]

    @property
    def dealt(self) -> list:
        return [self.s.dealt[i] for i in range(self.s.ndealt)]

    @property
    def used(self) -> set:
        return set(_bits(self.s.used))

    def cards_needed(self) -> int:
        return cards_needed(self.P, &self.s)

    def visible_cards(self, player: int) -> list:
        """The cards ``player`` uses this round (setup: own private + public)."""
        cdef int8_t cards[C2C_MAX_DEALT]
        cdef int k = visible_cards(self.P, &self.s, self._check_player(player), cards)
        return [cards[i] for i in range(k)]

    def _sheet(self, int p, bint start):
        from solvers.games.c2c.reference import Sheet
        cdef int r, e, rounds = self.s.ncross[p]
        if start:
            rounds = min(rounds, self.s.round)
            circled, crossed, exact = self.s.start_circled[p], self.s.start_crossed[p], self.s.start_exact[p]
        else:
            circled, crossed, exact = self.s.circled[p], self.s.crossed[p], self.s.exact[p]
        return Sheet(
            set(_bits(circled)), set(_bits(crossed)), set(_bits(exact)),
            [self.s.crosses[p][r] for r in range(rounds)],
            [[(self.s.circle_card[p][r][e], None if self.s.circle_loc[p][r][e] < 0 else self.s.circle_loc[p][r][e])
              for e in range(self.s.ncircles[p][r])] for r in range(rounds)],
        )

    @property
    def sheets(self) -> list:
        """Snapshots of the sheets as reference ``Sheet`` objects (editing them
        does not change the state)."""
        return [self._sheet(p, False) for p in range(self.P.num_players)]

    @property
    def round_start(self) -> list:
        """Snapshots of the sheets as the round began (what others may see)."""
        return [self._sheet(p, True) for p in range(self.P.num_players)]

    def set_deal(self, deal) -> None:
        """Put ``deal`` at the top of the deck order (before any card is dealt)."""
        deck = self.game.deck
        if len(set(deal)) != len(deal) or any(c not in deck for c in deal):
            raise SolversError("a deal must list distinct cards of the deck")
        if self.s.pos:
            raise SolversError("a deal can only be set before the first card is dealt")
        chosen = set(deal)
        order = list(deal) + [c for c in self.order if c not in chosen]
        for i, c in enumerate(order):
            self.s.order[i] = c

    def seat_as_solo(self, solo_game) -> CoastKernelState:
        """The decision of the seat to move, as a solo game sees it: a state
        of ``solo_game`` (solo, no challenge, the same sheet) holding that
        seat's sheet, the cards it uses this round (setup: its 2 private and
        the 2 public ones), the round, the step and the cards of the round
        already used, with every card the seat has not seen still undealt.

        The sheets never interact, so a seat's own round is a solo round:
        the solo players (the online player and its learned values) can
        play it. Only what the seat may see goes in: its own sheet, its
        cards, and the set of cards it has not seen (the undealt deck and,
        during the setup, the other seats' private cards), dealt in
        ascending order, never in their real order.

            >>> import solvers
            >>> from solvers.games.c2c.kernel import CoastToCoastKernel
            >>> game = CoastToCoastKernel(players=2)
            >>> state = game.new_initial_state(seed=7)
            >>> state.apply_seeded_chance()
            >>> solo = state.seat_as_solo(CoastToCoastKernel(players=1))
            >>> solo.legal_actions() == state.legal_actions()
            True
        """
        cdef int p = c2c_current_player(self.P, &self.s), q, i, k, n
        cdef int8_t cards[C2C_MAX_DEALT]
        cdef uint32_t unseen, seen, m
        cdef CoastKernelState out
        if p < 0:
            raise SolversError("seat_as_solo needs a seat's decision, not a deal or the end")
        if (getattr(solo_game, "num_players", None) != 1 or getattr(solo_game, "challenge", 0) is not None
                or getattr(solo_game, "reference", False) or solo_game.map != self.game.map):
            raise SolversError("seat_as_solo needs the solo kernel game without a challenge on "
                               "the same sheet")
        out = solo_game.new_initial_state(seed=0)
        if out.P.deck_size != self.P.deck_size:
            raise SolversError("seat_as_solo: the two decks differ")
        unseen = undealt_mask(self.P, &self.s)
        if self.s.round == 0:
            for q in range(self.P.num_players):
                if q != p:
                    for i in range(2 * q, min(2 * q + 2, self.s.ndealt)):
                        unseen |= bit(self.s.dealt[i])
        seen = 0
        for i in range(self.P.deck_size):
            seen |= bit(self.P.deck[i])
        seen &= ~unseen
        memset(&out.s, 0, sizeof(C2CState))
        n = 0
        m = seen
        while m:                            # the seen cards first, then the unseen
            out.s.order[n] = <int8_t> c2c_ctz32(m)
            n += 1
            m &= m - 1
        m = unseen
        while m:
            out.s.order[n] = <int8_t> c2c_ctz32(m)
            n += 1
            m &= m - 1
        out.s.pos = <int8_t> c2c_popcount(seen)
        k = visible_cards(self.P, &self.s, p, cards)
        for i in range(k):
            out.s.dealt[i] = cards[i]
        out.s.ndealt = <int8_t> k
        out.s.used = self.s.used
        out.s.round = self.s.round
        out.s.player = 0
        out.s.step = self.s.step
        out.s.circled[0] = self.s.circled[p]
        out.s.crossed[0] = self.s.crossed[p]
        out.s.exact[0] = self.s.exact[p]
        out.s.start_circled[0] = self.s.start_circled[p]
        out.s.start_crossed[0] = self.s.start_crossed[p]
        out.s.start_exact[0] = self.s.start_exact[p]
        out.s.ncross[0] = self.s.ncross[p]
        memcpy(out.s.crosses[0], self.s.crosses[p], sizeof(self.s.crosses[p]))
        memcpy(out.s.ncircles[0], self.s.ncircles[p], sizeof(self.s.ncircles[p]))
        memcpy(out.s.circle_card[0], self.s.circle_card[p], sizeof(self.s.circle_card[p]))
        memcpy(out.s.circle_loc[0], self.s.circle_loc[p], sizeof(self.s.circle_loc[p]))
        out.history = []
        return out

    # ----- for search modules ------------------------------------------------
    def action_observation(self, action: int, player: int) -> int:
        """``action`` as ``player`` sees it (:func:`c2c_action_observation`):
        two actions give the same key exactly when they leave ``player``'s
        :meth:`information_state` the same. -2 (GAME_HIDDEN) is a card dealt
        face down to another seat, or another seat's move within a round
        after which that seat is still to move."""
        return c2c_action_observation(self.P, &self.s, action, player)

    def resample(self, player: int, rng):
        """A copy with every card ``player`` has not seen re-dealt at random
        (``rng`` is a :class:`solvers.rng.SplitMix64`)."""
        other = self.clone()
        other._determinize(player, rng.next())
        return other

    def _determinize(self, int player, seed: int) -> None:
        """Re-deal in place what ``player`` cannot see (``GameDef.determinize``)."""
        cdef uint64_t r = <uint64_t> seed_from(seed)
        c2c_determinize(self.P, &self.s, player, &r)

    def sampled_outcomes(self, actions, int samples, int width, seed: int, int hope=4,
                         int partial=0, bint by_round=False, stop=None):
        """What each of ``actions`` leads to over ``samples`` re-dealt futures.

        For the seat to move: each sample re-deals every card it has not
        seen (as ``resample`` does, one seed stream for all samples), then
        for each action the hindsight beam search (``width`` sheets) plays
        the seat's own sheet to the end on that future. Returns an int32
        array ``[len(actions), samples]`` of final scores; where no sheet
        the beam kept circles every required location, minus the fewest
        such locations a sheet misses (-1, -2, ...). The same samples serve
        every action, so their differences are not noise of the dealing.
        ``by_round``: the seat plays on seeing one round at a time (the beam
        searches each round's cards, then keeps its best valued sheet) instead
        of with hindsight of the whole future. ``stop``: a writable uint8
        array whose first byte another thread may set to end the work
        early; the array then holds the samples finished before it (fewer
        columns, maybe none).

            >>> import solvers
            >>> state = solvers.load_game("c2c").new_initial_state(seed=2)
            >>> state.apply_seeded_chance()
            >>> state.sampled_outcomes(state.legal_actions(), 3, 16, seed=1).shape
            (4, 3)
        """
        cdef int p = c2c_current_player(self.P, &self.s)
        if p < 0:
            raise SolversError("sampled outcomes are for a player's decision")
        if samples < 1 or width < 1:
            raise SolversError("samples and width should be at least 1")
        cdef int64_t widest = beam_max_width(self.P.n, C2C_ROUNDS + 1)
        if width > widest:
            raise SolversError(f"the beam width must be a whole number from 1 to {widest:,} "
                               f"(the beam counts its sheets in 32 bits), not {width!r}")
        acts = [as_index(a) for a in actions]
        for a in acts:
            if a is None or not self._is_legal(a):
                raise IllegalActionError(f"{a!r} is not a legal action here")
        cdef int na = len(acts), i, k
        out = np.empty((na, samples), dtype=np.int32)
        if na == 0:
            return out
        cdef int32_t[:, ::1] view = out
        cdef int[::1] act = np.asarray(acts, dtype=np.intc)
        cdef uint64_t r = <uint64_t> seed_from(seed)
        cdef unsigned char never = 0
        cdef unsigned char[::1] flag
        cdef const unsigned char *stop_at = &never
        if stop is not None:
            flag = stop
            if flag.shape[0] < 1:
                raise SolversError("stop should be a uint8 array of at least one byte")
            stop_at = &flag[0]
        cdef int done = 0
        cdef C2CState t
        cdef Beam B
        B.required = self.P.required if self.P.num_players == 1 else 0
        B.hope = hope
        B.partial = partial
        try:
            if beam_alloc(&B, self.P, width, C2C_ROUNDS + 1) < 0:
                raise SolversError(beam_memory_error(width, self.P.n, C2C_ROUNDS + 1))
            with nogil:
                for k in range(samples):
                    if c2c_read_flag(stop_at):
                        break
                    memcpy(&t, &self.s, sizeof(C2CState))
                    c2c_determinize(self.P, &t, p, &r)
                    for i in range(na):
                        view[i, k] = sampled_outcome(self.P, &t, p, act[i], &B, by_round)
                    done = k + 1
        finally:
            beam_free(&B)
        return out if done == samples else out[:, :done].copy()

    cdef int _solo_decision(self, what) except -1:
        if self.P.num_players != 1:
            raise SolversError(f"{what} is for solo games (players 1)")
        if c2c_current_player(self.P, &self.s) < 0:
            raise SolversError(f"{what} starts from a player's decision")
        return 0

    def round_ends(self) -> list:
        """Every distinct sheet the solo round under way can end with, from
        a decision of that round: ``[((circled, crossed, exact), action)]``
        (masks over location ids), sorted, each with a legal move from here
        that keeps that end reachable (the first found in action order).
        No card is revealed within a round, so these are the round's real
        choices; :func:`solvers.games.c2c.review.round_ends` is the plain
        reference walk over legal moves that this must equal.

            >>> import solvers
            >>> state = solvers.load_game("c2c").new_initial_state(seed=2)
            >>> state.apply_seeded_chance()
            >>> len(state.round_ends())     # the setup: cross off one of four
            4
        """
        self._solo_decision("round_ends")
        cdef RoundEnds E
        cdef int rc = -1, i, log2 = 12
        while rc < 0:
            try:
                if ends_alloc(&E, log2) < 0:
                    raise MemoryError()
                with nogil:
                    rc = round_ends_of(self.P, &self.s, &E)
                if rc == 0:
                    out = [((E.ends[i].circled, E.ends[i].crossed, E.ends[i].exact), E.first[i])
                           for i in range(E.n_ends)]
            finally:
                ends_free(&E)
            log2 += 2
            if rc < 0 and log2 > 22:
                raise SolversError("round_ends: over a million ends or positions in one round")
        out.sort()
        return out

    def end_values(self) -> list:
        """Every end of the solo round under way (as :meth:`round_ends`)
        with its exact value when at most one round follows it:
        ``[((circled, crossed, exact), action, win, points)]``, the points
        being the rulebook's (a lost challenge scores none). In the last
        round the value is the end's own; in the round before, the exact expectation of the last
        round from that end over every hand of the cards not seen yet
        (:meth:`last_round_value`). Earlier rounds raise SolversError: their
        ends need a learned value.

            >>> import solvers
            >>> from solvers.games.c2c.deal import shuffle_deals
            >>> game = solvers.load_game("c2c")
            >>> state = game.new_initial_state(seed=4)
            >>> while state.is_chance_node() or state.round < 4:
            ...     state.apply_action(state.seeded_outcome() if state.is_chance_node()
            ...                        else state.legal_actions()[0])
            >>> best = max(state.end_values(), key=lambda e: (e[2], e[3]))
            >>> best[1] in state.legal_actions()
            True
        """
        self._solo_decision("end_values")
        if self.s.round < C2C_ROUNDS - 1:
            raise SolversError(f"exact end values are for the last two rounds, not round "
                               f"{self.s.round}")
        ends = self.round_ends()
        cdef uint32_t u = undealt_mask(self.P, &self.s), req = self.P.required
        cdef bint last = self.s.round == C2C_ROUNDS
        cdef Sheet sh
        cdef Memo M
        cdef double win, score
        out = []
        try:
            if memo_alloc(&M, 14) < 0:
                raise MemoryError()
            for (c, x, e), action in ends:
                sh.circled, sh.crossed, sh.exact = c, x, e
                if last:
                    win = 1.0 if sh.circled & req == req else 0.0
                    score = win * sheet_score(self.P, sh.circled, sh.exact).total
                else:
                    with nogil:
                        last_round_mean(self.P, &M, sh, u, req, &win, &score)
                out.append(((c, x, e), action, win, score))
        finally:
            memo_free(&M)
        return out

    def last_round_value(self, sheet, unseen=None, method="auto") -> tuple:
        """The exact expectation of the last round from ``sheet`` (``(circled,
        crossed, exact)`` masks; default: the player's own) over every hand of
        4 cards from ``unseen`` (a mask; default: the cards this solo player
        has not seen): ``(chance of completing the challenge, mean final
        points)``, a lost challenge scoring none, playing each hand as well
        as it can be played (a win first). Without a challenge the chance is 1.
        ``method`` picks the algorithm, for tests: ``"auto"`` (tables, else
        the memoised search), ``"memo"`` or ``"table"`` (None where the
        tables cannot: more than 16 cards, or a sheet with too many ways).

            >>> import solvers
            >>> state = solvers.load_game("c2c").new_initial_state(seed=2)
            >>> state.apply_seeded_chance()
            >>> state.apply_action(state.legal_actions()[0])   # the setup: 3 circles
            >>> win, points = state.last_round_value(None)      # as if one round were left
            >>> win, 3 < points < 60
            (1.0, True)
        """
        if self.P.num_players != 1:
            raise SolversError("last_round_value is for solo games (players 1)")
        cdef Sheet sh
        if sheet is None:
            sh.circled, sh.crossed, sh.exact = self.s.circled[0], self.s.crossed[0], self.s.exact[0]
        else:
            sh.circled, sh.crossed, sh.exact = (int(x) for x in sheet)
        cdef uint32_t u = undealt_mask(self.P, &self.s) if unseen is None else int(unseen)
        cdef double win, score
        cdef uint32_t req = self.P.required
        cdef Memo M
        cdef int how = {"auto": 0, "memo": 1, "table": 2}.get(method, -1), failed = 0
        if how < 0:
            raise SolversError(f"method should be 'auto', 'memo' or 'table', not {method!r}")
        try:
            if memo_alloc(&M, 14) < 0:
                raise MemoryError()
            with nogil:
                if how == 0:
                    last_round_mean(self.P, &M, sh, u, req, &win, &score)
                elif how == 1:
                    last_round_memo(self.P, &M, sh, u, req, &win, &score)
                else:
                    failed = last_round_table(self.P, &M, sh, u, req, &win, &score)
        finally:
            memo_free(&M)
        return None if failed else (win, score)

    def _search_returns(self) -> list:
        """``GameDef.returns``: the search utility (see :func:`c2c_returns`)."""
        cdef double out[C2C_MAX_PLAYERS]
        c2c_returns(self.P, &self.s, out)
        return [out[p] for p in range(self.P.num_players)]

    def _hash(self) -> int:
        return c2c_hash(self.P, &self.s)

    def _sample_chance(self, seed: int) -> int:
        if c2c_current_player(self.P, &self.s) != GAME_CHANCE:
            raise SolversError("not a chance node")
        cdef uint64_t r = <uint64_t> seed_from(seed)
        return c2c_sample_chance(self.P, &self.s, &r)

    def _state_capsule(self):
        """A PyCapsule "solvers.State" to this state's struct (keeps the state alive)."""
        return owned_capsule(&self.s, b"solvers.State", self)

    def _raw(self) -> bytes:
        """The state struct as bytes (``GameDef.state_size`` of them)."""
        return (<char *> &self.s)[:sizeof(C2CState)]

    def _from_raw(self, raw: bytes, history=None) -> None:
        """Overwrite this state with a struct from :meth:`_raw` (or from a
        search module). The history is ``history`` (default: unknown, empty)."""
        cdef const unsigned char[::1] view = raw
        if view.shape[0] != sizeof(C2CState):
            raise SolversError(f"a Coast to Coast state is {sizeof(C2CState)} bytes, not {view.shape[0]}")
        memcpy(&self.s, &view[0], sizeof(C2CState))
        self.history = [] if history is None else list(history)

    def __reduce__(self):
        return (_rebuild_state, (self.game, self._raw(), self.history))


def _rebuild_state(game, raw, history):
    state = game.new_initial_state(seed=0)
    state._from_raw(raw, history)
    return state


State.register(CoastKernelState)
