# cython: language_level=3, embedsignature=True, embedsignature.format=clinic
"""Switchbacks on 64-bit boards: the C kernel behind
:class:`solvers.games.switchbacks.kernel.SwitchbacksKernel`.

The rules, action ids and seeded dealing are those of
``solvers.games.switchbacks.reference`` (the rules of record). A state is the
plain struct ``SbState`` (switchbacks.pxd): the explored hexes and the tiles
on the map as 64-bit masks, hands and set-aside piles as tile masks, and
hex-to-tile / tile-to-hex arrays. Scoring follows consecutive numbers through
the precomputed neighbour masks: bit ``i`` of ``links`` says tiles ``i+1`` and
``i+2`` lie on adjacent hexes, and a complete path of 4 tiles is 3 links in a
row, found with shifts and ANDs.

Every C function below is ``noexcept nogil`` and fills the ``GameDef`` of
game_api.h, so search code drives the game through function pointers
without touching a Python object.
"""

cimport cython
from libc.stdint cimport uint64_t, int8_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from switchbacks cimport *
from game_api cimport (
    GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
    splitmix64_next, rng_below, rng_below_mul, rng_shuffle_i8,
    SOLVERS_GAMEDEF_CAPSULE, SOLVERS_STATE_CAPSULE, owned_capsule,
    action_table, solvers_action_index, solvers_int_list,
)
from eval_api cimport FeatureDef, SOLVERS_FEATURES_CAPSULE

from solvers.errors import IllegalActionError, SolversError
from solvers.rng import SplitMix64

cdef extern from *:
    """
    /* Bits set in x, by adding neighbouring bit fields (the wheels are built
       without -mpopcnt, where __builtin_popcountll is a library call). */
    static inline int sb_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int popcount64 "sb_popcount64"(unsigned long long x) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long x) nogil

STEP_NAMES = ("deal", "explore", "hike", "draw", "over")
# The playout policy's default weights (link, hike, buddy) out of 256, tuned
# by MCTS matches against the random and greedy agents (issue 3 notes).
PLAYOUT_WEIGHTS = (230, 240, 200)
cdef uint64_t ONE = 1


# ----- the rules, in C --------------------------------------------------------
cdef void sb_new_state(const SbParams *p, SbState *s, uint64_t seed) noexcept nogil:
    """A fresh game: the deck shuffled with SplitMix64(seed), nothing dealt."""
    cdef int i
    cdef uint64_t rng = seed
    memset(s, 0, sizeof(SbState))
    memset(s.tile_hex, -1, SB_MAX)
    memset(s.hiker_owner, -1, SB_MAX)
    for i in range(p.num_tiles):
        s.order[i] = <int8_t>(i + 1)
    rng_shuffle_i8(&rng, s.order, p.num_tiles)
    for i in range(p.num_players):
        s.solo[i] = <int8_t>p.hikers
    s.step = SB_DEAL
    s.player = 0
    s.just_explored = -1


cdef inline uint64_t stack_mask(const SbParams *p, const SbState *s) noexcept nogil:
    cdef uint64_t m = 0
    cdef int i
    for i in range(s.pos, p.num_tiles):
        m |= ONE << (s.order[i] - 1)
    return m


cdef inline int deal_seat(const SbParams *p, int k) noexcept nogil:
    """Seat receiving the k-th setup tile (-1 for the centre tile)."""
    if k == 0:
        return -1
    k -= 1
    if k < p.num_players * p.set_aside:
        return k % p.num_players
    return (k - p.num_players * p.set_aside) % p.num_players


cdef int sb_current_player(const void *params, const void *st) noexcept nogil:
    cdef const SbState *s = <const SbState *>st
    if s.step == SB_DEAL or s.step == SB_DRAW:
        return GAME_CHANCE
    if s.step == SB_OVER:
        return GAME_TERMINAL
    return s.player


cdef int sb_chance_outcomes(const void *params, const void *st, int *out, double *probs) noexcept nogil:
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int n = 0, t
    cdef double prob
    if s.step != SB_DEAL and s.step != SB_DRAW:
        return 0
    cdef uint64_t m = stack_mask(p, s)
    prob = 1.0 / (p.num_tiles - s.pos)
    while m:
        t = ctz64(m)
        m &= m - 1
        out[n] = p.deal_base + t
        if probs != NULL:
            probs[n] = prob
        n += 1
    return n


cdef inline int hike_options(const SbParams *p, const SbState *s, int *out) noexcept nogil:
    cdef int n = 0
    if s.solo[s.player] >= 2:
        out[n] = p.buddy_up
        n += 1
    if s.solo[s.player] >= 1:
        out[n] = p.hike_solo
        n += 1
    if s.pairs[s.player] >= 1:
        out[n] = p.hike_buddies
        n += 1
    return n


cdef int sb_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef uint64_t hand, empty, e
    cdef int n = 0, t, base
    if s.step == SB_DEAL or s.step == SB_DRAW:
        return sb_chance_outcomes(params, st, out, NULL)
    if s.step == SB_EXPLORE:
        hand = s.hand[s.player]
        empty = p.all_hexes & ~s.explored
        while hand:
            t = ctz64(hand)
            hand &= hand - 1
            base = t * p.num_hexes
            e = empty
            while e:
                out[n] = base + ctz64(e)
                e &= e - 1
                n += 1
        return n
    if s.step == SB_HIKE:
        return hike_options(p, s, out)
    return 0


cdef inline void end_turn(const SbParams *p, SbState *s) noexcept nogil:
    """Pass to the next seat that still holds tiles; the game ends when none does."""
    cdef int i, seat
    s.just_explored = -1
    for i in range(1, p.num_players + 1):
        seat = (s.player + i) % p.num_players
        if s.hand[seat]:
            s.player = <int8_t>seat
            s.step = SB_EXPLORE
            return
    s.step = SB_OVER


cdef inline void after_hike(const SbParams *p, SbState *s) noexcept nogil:
    if s.pos < p.num_tiles:
        s.step = SB_DRAW
    else:
        end_turn(p, s)


cdef inline void do_hike(const SbParams *p, SbState *s, int action) noexcept nogil:
    cdef int here = s.just_explored
    if action == p.buddy_up:
        s.solo[s.player] -= 2
        s.pairs[s.player] += 1
    elif action == p.hike_solo:
        s.solo[s.player] -= 1
        s.hiker_owner[here] = s.player
        s.hiker_count[here] = 1
    else:
        s.pairs[s.player] -= 1
        s.hiker_owner[here] = s.player
        s.hiker_count[here] = 2
    after_hike(p, s)


cdef inline void place_tile(SbState *s, int tile, int hex_id) noexcept nogil:
    s.hex_tile[hex_id] = <int8_t>tile
    s.tile_hex[tile - 1] = <int8_t>hex_id
    s.explored |= ONE << hex_id
    s.on_map |= ONE << (tile - 1)


cdef void sb_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef const SbParams *p = <const SbParams *>params
    cdef SbState *s = <SbState *>st
    cdef int tile, hex_id, i, seat, n
    cdef int8_t tmp
    cdef int opts[3]
    if s.step == SB_DEAL or s.step == SB_DRAW:
        tile = action - p.deal_base + 1
        i = s.pos
        while s.order[i] != tile:
            i += 1
        tmp = s.order[s.pos]
        s.order[s.pos] = s.order[i]
        s.order[i] = tmp
        s.pos += 1
        if s.step == SB_DRAW:
            s.hand[s.player] |= ONE << (tile - 1)
            end_turn(p, s)
            return
        seat = deal_seat(p, s.pos - 1)
        if seat < 0:
            place_tile(s, tile, p.centre)
        elif s.pos - 1 <= p.num_players * p.set_aside:
            s.set_aside[seat] |= ONE << (tile - 1)
        else:
            s.hand[seat] |= ONE << (tile - 1)
        if s.pos == p.setup_deals:
            s.player = <int8_t>(p.num_players - 1)
            end_turn(p, s)
    elif s.step == SB_EXPLORE:
        tile = action // p.num_hexes
        hex_id = action - tile * p.num_hexes
        s.hand[s.player] &= ~(ONE << tile)
        place_tile(s, tile + 1, hex_id)
        s.just_explored = <int8_t>hex_id
        s.step = SB_HIKE
        n = hike_options(p, s, opts)
        if n == 1:
            do_hike(p, s, opts[0])
        elif n == 0:
            after_hike(p, s)
    elif s.step == SB_HIKE:
        do_hike(p, s, action)


cdef int sb_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int i = s.pos + rng_below(rng, p.num_tiles - s.pos)
    return p.deal_base + s.order[i] - 1


cdef inline uint64_t runs_of(const SbParams *p, uint64_t links) noexcept nogil:
    """The tiles (bit t-1 for tile t) of every run of at least min_run
    consecutive numbers whose every two neighbours in the run are linked
    (bit i of ``links``: tiles i+1 and i+2)."""
    cdef uint64_t starts = links, covered
    cdef int j
    for j in range(1, p.min_run - 1):
        starts &= links >> j
    covered = starts
    for j in range(1, p.min_run):
        covered |= starts << j
    return covered


cdef inline uint64_t complete_tiles(const SbParams *p, const SbState *s) noexcept nogil:
    """The tiles on a complete hiking path now."""
    cdef uint64_t cand, links = 0
    cdef int i
    # tiles i+1 and i+2 both on the map, then adjacent: link bit i
    cand = s.on_map & (s.on_map >> 1)
    while cand:
        i = ctz64(cand)
        cand &= cand - 1
        if (p.neighbours[s.tile_hex[i]] >> s.tile_hex[i + 1]) & 1:
            links |= ONE << i
    return runs_of(p, links) & s.on_map


cdef inline void add_hikers(const SbState *s, uint64_t tiles, int *out) noexcept nogil:
    """Add to each seat's count its hikers on ``tiles`` (on the map)."""
    cdef int i, h
    while tiles:
        i = ctz64(tiles)
        tiles &= tiles - 1
        h = s.tile_hex[i]
        if s.hiker_count[h]:
            out[s.hiker_owner[h]] += s.hiker_count[h]


cdef void sb_scores(const SbParams *p, const SbState *s, int *out) noexcept nogil:
    """Points per player: hikers on tiles whose run of consecutive, adjacent
    numbers has at least min_run tiles."""
    cdef int i
    for i in range(p.num_players):
        out[i] = 0
    add_hikers(s, complete_tiles(p, s), out)


cdef inline bint two_step(const SbParams *p, uint64_t empty, int a, int b) noexcept nogil:
    """Whether two empty hexes x, y with x beside hex ``a``, y beside x and
    y beside hex ``b`` exist (two tiles could join the tiles on a and b)."""
    cdef uint64_t xs = p.neighbours[a] & empty, ys = p.neighbours[b] & empty
    cdef int x
    while xs:
        x = ctz64(xs)
        xs &= xs - 1
        if p.neighbours[x] & ys & ~(ONE << x):
            return True
    return False


cdef uint64_t live_tiles(const SbParams *p, const SbState *s) noexcept nogil:
    """The tiles that may still end on a complete path, whatever is played:
    a tile is in some run of min_run consecutive numbers none of which is
    set aside, where every two consecutive numbers can still be neighbours
    (both on the map and adjacent, or one on the map with an empty hex
    beside it, or neither on the map yet), a number missing between two on
    the map has an empty hex beside both, and two missing between two on
    the map have two neighbouring empty hexes joining them. (A necessary
    condition: tiles never move and empty hexes only fill up.)"""
    cdef uint64_t playable = ((ONE << p.num_tiles) - 1), possible = 0, cand, bad = 0, starts
    cdef uint64_t empty = p.all_hexes & ~s.explored, off = ~s.on_map
    cdef int i, j, q, a, b
    cdef bint ok
    for q in range(p.num_players):
        playable &= ~s.set_aside[q]
    cand = playable & (playable >> 1)
    while cand:
        i = ctz64(cand)
        cand &= cand - 1
        a = s.tile_hex[i]
        b = s.tile_hex[i + 1]
        if a >= 0 and b >= 0:
            ok = (p.neighbours[a] >> b) & 1
        elif a >= 0:
            ok = (p.neighbours[a] & empty) != 0
        elif b >= 0:
            ok = (p.neighbours[b] & empty) != 0
        else:
            ok = True
        if ok:
            possible |= ONE << i
    # One number missing between two on the map (bit i: tiles i+1 and i+3
    # on the map, i+2 not): a run through them needs an empty hex beside both.
    cand = s.on_map & (off >> 1) & (s.on_map >> 2)
    while cand:
        i = ctz64(cand)
        cand &= cand - 1
        if not (p.neighbours[s.tile_hex[i]] & p.neighbours[s.tile_hex[i + 2]] & empty):
            bad |= ONE << i
    starts = possible
    for j in range(1, p.min_run - 1):
        starts &= possible >> j
    # (a run over such a gap, both its links, is out)
    for j in range(0, p.min_run - 2):
        starts &= ~(bad >> j)
    # Two missing between two on the map (bit i: tiles i+1 and i+4 on the map).
    cand = s.on_map & (off >> 1) & (off >> 2) & (s.on_map >> 3)
    while cand:
        i = ctz64(cand)
        cand &= cand - 1
        if not two_step(p, empty, s.tile_hex[i], s.tile_hex[i + 3]):
            for j in range(0, p.min_run - 3):
                if i >= j:
                    starts &= ~(ONE << (i - j))
    cand = starts
    for j in range(1, p.min_run):
        cand |= starts << j
    return cand & playable


cdef void future_turns(const SbParams *p, const SbState *s, int *turns) noexcept nogil:
    """The tiles each seat will still explore: the turns ahead played out on
    hand sizes alone (each turn explores one tile and draws one while the
    stack lasts; a turn goes to the next seat holding tiles). In the setup
    deal, a bound: the tiles a seat holds plus every tile not yet dealt."""
    cdef int held[SB_MAX_PLAYERS]
    cdef int q, i, seat, cur = s.player, stack = p.num_tiles - s.pos
    for q in range(p.num_players):
        held[q] = popcount64(s.hand[q])
        turns[q] = 0
    if s.step == SB_DEAL:
        for q in range(p.num_players):
            turns[q] = held[q] + stack
        return
    if s.step == SB_OVER:
        return
    if s.step == SB_HIKE or s.step == SB_DRAW:      # this turn explored already: its draw
        if stack > 0:
            held[cur] += 1
            stack -= 1
    else:                                           # SB_EXPLORE: this turn first
        cur = (cur + p.num_players - 1) % p.num_players
    while True:
        seat = -1
        for i in range(1, p.num_players + 1):
            if held[(cur + i) % p.num_players]:
                seat = (cur + i) % p.num_players
                break
        if seat < 0:
            return
        turns[seat] += 1
        held[seat] -= 1
        if stack > 0:
            held[seat] += 1
            stack -= 1
        cur = seat


cdef void sb_score_bounds(const SbParams *p, const SbState *s, int *lo, int *hi) noexcept nogil:
    """Bounds on each seat's final points from ``s``, whatever is played or
    drawn (docs/rules/switchbacks.md#end-and-scoring): at least the points
    made (a complete path stays complete), at most those plus every hiker
    on a live tile (:func:`live_tiles`) not yet scoring, plus the hikers it
    can still put on live tiles: one placement for each live tile it may
    still hike on (one it holds or one still in the stack, or the tile it
    has just explored), no more than its turns left (:func:`future_turns`),
    a pair (2) while it has pairs or turns to spare for buddying up, else a
    solo (1) while it has solos."""
    cdef uint64_t live = live_tiles(p, s), undealt = stack_mask(p, s)
    cdef uint64_t complete = complete_tiles(p, s)
    cdef int turns[SB_MAX_PLAYERS]
    cdef int q, spots, places, pairs, pending
    for q in range(p.num_players):
        lo[q] = 0
    add_hikers(s, complete, lo)                         # the points made (sb_scores)
    for q in range(p.num_players):
        hi[q] = lo[q]
    add_hikers(s, live & s.on_map & ~complete, hi)      # not scoring yet
    future_turns(p, s, turns)
    for q in range(p.num_players):
        pending = 0
        if s.step == SB_HIKE and s.player == q and s.just_explored >= 0 \
                and (live >> (s.hex_tile[s.just_explored] - 1)) & 1:
            pending = 1
        spots = popcount64(live & (s.hand[q] | undealt))
        places = turns[q] if turns[q] < spots else spots
        # A pair placed counts 2, a solo 1; new pairs take a turn of their
        # own (a buddy-up places nothing), at best one on a tile that cannot
        # score anyway.
        pairs = s.pairs[q] + min(s.solo[q] // 2, turns[q] - places)
        places += pending
        if places <= pairs:
            hi[q] += 2 * places
        else:
            hi[q] += 2 * pairs + min(places - pairs, s.solo[q] - 2 * (pairs - s.pairs[q]))


cdef void sb_state_bounds(const void *params, const void *st, double *lo, double *hi) noexcept nogil:
    """Bounds on every seat's win share (GameDef.state_bounds) from the
    bounds on the points (:func:`sb_score_bounds`): a seat whose least
    points beat every other's most wins outright; one whose most points
    another's least beats gets nothing; a seat sure to be among the best
    shares with at most the seats that can reach its least points; when
    every seat's points are settled the bounds are the returns."""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int plo[SB_MAX_PLAYERS]
    cdef int phi[SB_MAX_PLAYERS]
    cdef int q, r, reach, level
    cdef bint top, beaten
    if s.step == SB_OVER:
        sb_returns(params, st, lo)
        for q in range(p.num_players):
            hi[q] = lo[q]
        return
    sb_score_bounds(p, s, plo, phi)
    for q in range(p.num_players):
        top = True
        beaten = False
        reach = 1               # seats that can score at least q's least, q included
        level = 0               # other seats sure to score at least q's most
        for r in range(p.num_players):
            if r == q:
                continue
            if phi[r] > plo[q]:
                top = False
            if phi[r] >= plo[q]:
                reach += 1
            if plo[r] > phi[q]:
                beaten = True
            if plo[r] >= phi[q]:
                level += 1
        lo[q] = 1.0 / reach if top else 0.0
        hi[q] = 0.0 if beaten else 1.0 / (1 + level)


cdef void sb_returns(const void *params, const void *st, double *out) noexcept nogil:
    """Win shares at the end (1 for the sole winner, ties split), 0 before."""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int pts[SB_MAX_PLAYERS]
    cdef int i, best, winners = 0
    if s.step != SB_OVER:
        for i in range(p.num_players):
            out[i] = 0.0
        return
    sb_scores(p, s, pts)
    best = pts[0]
    for i in range(1, p.num_players):
        if pts[i] > best:
            best = pts[i]
    for i in range(p.num_players):
        if pts[i] == best:
            winners += 1
    for i in range(p.num_players):
        out[i] = 1.0 / winners if pts[i] == best else 0.0


cdef void sb_determinize(const void *params, void *st, int player, uint64_t *rng) noexcept nogil:
    """Re-deal the other hands, the other set-aside piles and the stack order,
    keeping every size (exactly as reference.resample does)."""
    cdef const SbParams *p = <const SbParams *>params
    cdef SbState *s = <SbState *>st
    cdef int8_t buf[SB_MAX]
    cdef int n = 0, k = 0, q, i, cnt
    cdef uint64_t m = stack_mask(p, s)
    for q in range(p.num_players):
        if q != player:
            m |= s.hand[q] | s.set_aside[q]
    # Shuffle from the sorted list (the bits in ascending order), so two
    # states the player cannot tell apart re-deal identically from one seed
    # (nothing hidden leaks).
    while m:
        buf[n] = <int8_t>(ctz64(m) + 1)
        m &= m - 1
        n += 1
    rng_shuffle_i8(rng, buf, n)
    for q in range(p.num_players):
        if q == player:
            continue
        cnt = popcount64(s.hand[q])
        m = 0
        for i in range(cnt):
            m |= ONE << (buf[k] - 1)
            k += 1
        s.hand[q] = m
        cnt = popcount64(s.set_aside[q])
        m = 0
        for i in range(cnt):
            m |= ONE << (buf[k] - 1)
            k += 1
        s.set_aside[q] = m
    for i in range(s.pos, p.num_tiles):
        s.order[i] = buf[k]
        k += 1
    # The dealt part of the order records who got what: rewrite it as the
    # tiles off the stack in ascending order, so it tells nothing either.
    m = 0
    for i in range(s.pos, p.num_tiles):
        m |= ONE << (s.order[i] - 1)
    k = 0
    for i in range(p.num_tiles):
        if not (m >> i) & 1:
            s.order[k] = <int8_t>(i + 1)
            k += 1


cdef inline int nth_bit(uint64_t m, int k) noexcept nogil:
    """The index of the k-th set bit of m (k from 0)."""
    while k > 0:
        m &= m - 1
        k -= 1
    return ctz64(m)


cdef inline uint64_t link_spots(const SbParams *p, const SbState *s, int t) noexcept nogil:
    """Empty hexes next to tile t-1 or t+1 (t a tile index, from 0)."""
    cdef uint64_t m = 0
    if t >= 1 and s.tile_hex[t - 1] >= 0:
        m |= p.neighbours[s.tile_hex[t - 1]]
    if t + 1 < p.num_tiles and s.tile_hex[t + 1] >= 0:
        m |= p.neighbours[s.tile_hex[t + 1]]
    return m & p.all_hexes & ~s.explored


cdef inline int policy_explore(const SbParams *p, const SbState *s, uint64_t hand, int in_hand,
                               const int8_t *empties, int n_empty, const uint64_t *near,
                               uint64_t *r, int *tile, bint informed) noexcept nogil:
    """A playout's explore. Informed (the playout policy): with chance
    pol_link/256, a tile of the hand on an empty hex next to its number +-1
    (uniformly over such pairs) when there is one. Otherwise, and always when
    not informed: a random tile of the hand on a random empty hex (from the
    array ``empties`` when given, else from the map), which is uniform over
    the tile x hex pairs that ``legal_actions`` lists. ``near``, when
    given, holds for each tile index the hexes next to its numbers +-1 on
    the map (kept up to date by ``sb_playout``). Returns the hex and sets
    ``tile`` (an index)."""
    cdef uint64_t spots[SB_MAX_HAND]
    cdef int tiles[SB_MAX_HAND]
    cdef int counts[SB_MAX_HAND]
    cdef uint64_t h
    cdef int n = 0, total = 0, t, k, i
    if informed and p.pol_link > 0 and rng_below_mul(r, 256) < p.pol_link:
        h = hand
        while h:
            t = ctz64(h)
            h &= h - 1
            if near != NULL:
                spots[n] = near[t] & ~s.explored
            else:
                spots[n] = link_spots(p, s, t)
            if spots[n]:
                tiles[n] = t
                counts[n] = popcount64(spots[n])
                total += counts[n]
                n += 1
        if total > 0:
            k = rng_below_mul(r, total)
            for i in range(n):
                if k < counts[i]:
                    tile[0] = tiles[i]
                    return nth_bit(spots[i], k)
                k -= counts[i]
    tile[0] = nth_bit(hand, rng_below_mul(r, in_hand))
    if empties != NULL:
        return empties[rng_below_mul(r, n_empty)]
    return nth_bit(p.all_hexes & ~s.explored, rng_below_mul(r, n_empty))


cdef inline int policy_hike(const SbParams *p, const SbState *s, int q, int hex_id,
                            uint64_t *r, bint informed) noexcept nogil:
    """A playout's hike for seat q after exploring ``hex_id``: 0 buddy up,
    1 one solo hiker, 2 a buddy pair, -1 nothing to do. Informed: on a tile
    next to its number +-1 hike (a pair first) with chance pol_hike/256, on
    any other tile buddy up with chance pol_buddy/256. Otherwise a random
    option."""
    cdef int solo = s.solo[q], pairs = s.pairs[q], n, a, t
    cdef uint64_t near
    n = (solo >= 2) + (solo >= 1) + (pairs >= 1)
    if n == 0:
        return -1
    if informed and n > 1:
        t = s.hex_tile[hex_id] - 1
        near = 0
        if t >= 1 and s.tile_hex[t - 1] >= 0:
            near |= ONE << s.tile_hex[t - 1]
        if t + 1 < p.num_tiles and s.tile_hex[t + 1] >= 0:
            near |= ONE << s.tile_hex[t + 1]
        if near & p.neighbours[hex_id]:
            if rng_below_mul(r, 256) < p.pol_hike:
                return 2 if pairs >= 1 else 1
        elif solo >= 2 and rng_below_mul(r, 256) < p.pol_buddy:
            return 0
    a = rng_below_mul(r, n) if n > 1 else 0
    if solo < 2:
        a += 1                  # no buddy-up option
    if solo < 1:
        a += 1                  # nor a solo one
    return a


cdef inline int playout_move(const SbParams *p, const SbState *s, uint64_t *rng,
                             bint informed) noexcept nogil:
    """A playout's move for the player to move at an explore or hike step."""
    cdef uint64_t hand
    cdef int t, h
    if s.step == SB_EXPLORE:
        hand = s.hand[s.player]
        h = policy_explore(p, s, hand, popcount64(hand), NULL, popcount64(p.all_hexes & ~s.explored),
                           NULL, rng, &t, informed)
        return t * p.num_hexes + h
    return p.buddy_up + policy_hike(p, s, s.player, s.just_explored, rng, informed)


cdef int sb_rollout_action(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    """``GameDef.rollout_action``: the playout policy's move (``policy_explore``
    and ``policy_hike``), drawn without listing the moves. A few rules of
    thumb, each followed most of the time (the weights): put a tile next to
    its number +-1, where a path can grow; hike on such a tile (a buddy pair
    first); buddy up rather than hike on a tile that starts nothing."""
    return playout_move(<const SbParams *>params, <const SbState *>st, rng, True)


cdef void sb_playout(const void *params, void *st, uint64_t *rng, unsigned int policy_seats) noexcept nogil:
    """``GameDef.playout``: the moves of ``sb_rollout_action`` for the seats in
    ``policy_seats`` and uniformly random moves for the others (chance as
    ``sb_sample_chance`` draws it: uniformly from the stack), played to the
    end in one call. Whole turns run in a tight loop on the struct: explore,
    hike, draw a random tile of the stack, pass to the next seat with tiles.
    The empty hexes are kept in an array (``slot`` says where each is, so any
    one is removed in O(1)), so the moves follow the same distribution as the
    move-by-move loop but not the same draws."""
    cdef const SbParams *p = <const SbParams *>params
    cdef SbState *s = <SbState *>st
    cdef int8_t empties[SB_MAX]
    cdef int8_t slot[SB_MAX]
    cdef uint64_t near[SB_MAX + 1]      # tile index -> hexes next to its numbers +-1
    cdef int in_hand[SB_MAX_PLAYERS]
    cdef int q, t, h, n, i, a, ne, seat, np = p.num_players
    cdef int num_tiles = p.num_tiles, pos
    cdef bint informed
    cdef int8_t tmp
    cdef uint64_t m
    cdef uint64_t r                     # the generator, in a register: the int8
                                        # stores below may alias *rng
    # Finish a turn begun elsewhere (the setup deal, a pending hike or draw).
    while s.step != SB_EXPLORE:
        if s.step == SB_OVER:
            return
        if s.step == SB_DEAL or s.step == SB_DRAW:
            a = sb_sample_chance(params, st, rng)
        else:
            a = playout_move(p, s, rng, (policy_seats >> s.player) & 1)
        sb_apply_action(params, st, a)
    ne = 0
    m = p.all_hexes & ~s.explored
    while m:
        h = ctz64(m)
        m &= m - 1
        empties[ne] = <int8_t>h
        slot[h] = <int8_t>ne
        ne += 1
    if policy_seats:
        memset(near, 0, sizeof(uint64_t) * (num_tiles + 1))
        m = s.on_map
        while m:
            t = ctz64(m)
            m &= m - 1
            if t >= 1:
                near[t - 1] |= p.neighbours[s.tile_hex[t]]
            near[t + 1] |= p.neighbours[s.tile_hex[t]]
    for q in range(np):
        n = 0
        m = s.hand[q]
        while m:
            m &= m - 1
            n += 1
        in_hand[q] = n
    q = s.player
    r = rng[0]
    pos = s.pos
    while True:
        informed = (policy_seats >> q) & 1
        # explore
        h = policy_explore(p, s, s.hand[q], in_hand[q], empties, ne, near, &r, &t, informed)
        s.hand[q] &= ~(ONE << t)
        in_hand[q] -= 1
        ne -= 1
        i = slot[h]
        empties[i] = empties[ne]
        slot[empties[i]] = <int8_t>i
        place_tile(s, t + 1, h)
        if policy_seats:
            if t >= 1:
                near[t - 1] |= p.neighbours[h]
            near[t + 1] |= p.neighbours[h]
        # hike
        a = policy_hike(p, s, q, h, &r, informed)
        if a == 0:
            s.solo[q] -= 2
            s.pairs[q] += 1
        elif a == 1:
            s.solo[q] -= 1
            s.hiker_owner[h] = <int8_t>q
            s.hiker_count[h] = 1
        elif a == 2:
            s.pairs[q] -= 1
            s.hiker_owner[h] = <int8_t>q
            s.hiker_count[h] = 2
        # draw
        if pos < num_tiles:
            i = pos + rng_below_mul(&r, num_tiles - pos)
            tmp = s.order[i]
            s.order[i] = s.order[pos]
            s.order[pos] = tmp
            pos += 1
            s.hand[q] |= ONE << (tmp - 1)
            in_hand[q] += 1
        # the next seat that still holds tiles
        seat = q
        for i in range(np):
            seat += 1
            if seat == np:
                seat = 0
            if in_hand[seat]:
                break
        if not in_hand[seat]:
            s.player = <int8_t>q
            s.pos = <int8_t>pos
            s.just_explored = -1
            s.step = SB_OVER
            rng[0] = r
            return
        q = seat
        s.player = <int8_t>q


cdef int sb_action_observation(const void *params, const void *st, int action, int player) noexcept nogil:
    """A tile dealt or drawn into another player's hand or set-aside pile is hidden."""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int seat
    if s.step == SB_DEAL:
        seat = deal_seat(p, s.pos)
        if seat >= 0 and seat != player:
            return GAME_HIDDEN
    elif s.step == SB_DRAW and s.player != player:
        return GAME_HIDDEN
    return action


cdef inline uint64_t zobrist_of(uint64_t members, const uint64_t *keys) noexcept nogil:
    """The Zobrist keys of a set (bit i: ``keys[i]``), XORed together."""
    cdef uint64_t h = 0
    while members:
        h ^= keys[ctz64(members)]
        members &= members - 1
    return h


cdef uint64_t sb_hash(const void *params, const void *st) noexcept nogil:
    """Zobrist hash of the map, hikers, hands, set-aside piles, unplaced
    hikers and whose step it is. The stack order is left out: chance draws
    uniformly from it, so it does not change the value of a position."""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef uint64_t h, m
    cdef int q, x
    h = p.z_turn[s.player][s.step] ^ p.z_just[s.just_explored + 1]
    m = s.explored
    while m:
        x = ctz64(m)
        m &= m - 1
        h ^= p.z_tile[s.hex_tile[x] - 1][x]
        if s.hiker_count[x]:
            h ^= p.z_hiker[x][2 * s.hiker_owner[x] + s.hiker_count[x] - 1]
    for q in range(p.num_players):
        h ^= zobrist_of(s.hand[q], p.z_hand[q]) ^ zobrist_of(s.set_aside[q], p.z_aside[q])
        h ^= p.z_solo[q][s.solo[q]] ^ p.z_pairs[q][s.pairs[q]]
    return h


cdef inline uint64_t spread(const SbParams *p, uint64_t from_, uint64_t empty, int steps) noexcept nogil:
    """The empty hexes within ``steps`` steps of the hexes ``from_``, going
    through empty hexes only."""
    cdef uint64_t reach = 0, frontier = from_, nxt, m
    cdef int i
    for i in range(steps):
        nxt = 0
        m = frontier
        while m:
            nxt |= p.neighbours[ctz64(m)]
            m &= m - 1
        frontier = nxt & empty & ~reach
        reach |= frontier
        if not frontier:
            break
    return reach


cdef uint64_t open_hexes(const SbParams *p, const SbState *s, uint64_t live) noexcept nogil:
    """The empty hexes a complete path may still cross: where some tile of
    ``live`` not yet on the map may lie on one. A tile t on a path lies in
    a run of min_run consecutive numbers, all in ``live``; in such a run,
    the nearest number below t already on the map (u, with the numbers
    between still to come) needs t within t - u steps of u's hex through
    empty hexes, and likewise the nearest above. A run with nothing on the
    map leaves every empty hex open. (A necessary condition: tiles never
    move and empty hexes only fill up.)"""
    cdef uint64_t empty = p.all_hexes & ~s.explored, out = 0, cand, here
    cdef uint64_t window = (ONE << p.min_run) - 1
    cdef int t, a, u, lo, hi
    cand = live & ~s.on_map
    while cand:
        t = ctz64(cand)                     # tile index (number - 1)
        cand &= cand - 1
        for a in range(t - p.min_run + 1, t + 1):
            if a < 0 or a + p.min_run > p.num_tiles or ((live >> a) & window) != window:
                continue
            lo = -1
            for u in range(t - 1, a - 1, -1):
                if (s.on_map >> u) & 1:
                    lo = u
                    break
            hi = -1
            for u in range(t + 1, a + p.min_run):
                if (s.on_map >> u) & 1:
                    hi = u
                    break
            if lo < 0 and hi < 0:
                return empty
            here = empty
            if lo >= 0:
                here &= spread(p, ONE << s.tile_hex[lo], empty, t - lo)
            if hi >= 0:
                here &= spread(p, ONE << s.tile_hex[hi], empty, hi - t)
            out |= here
    return out


cdef uint64_t sb_solver_key(const void *params, const void *st) noexcept nogil:
    """The exact search's key (GameDef.solver_key): :func:`sb_hash` with
    what can no longer matter left out. A tile outside :func:`live_tiles`
    can no longer end on a complete path, and an empty hex outside
    :func:`open_hexes` can never be crossed by one: such a tile's number
    never matters again (in a hand or the stack only how many there are;
    hikers on it never score), nor does such a hex's place (only how many
    are empty; a tile put there can no longer score). Every other tile is
    named where it is, the stack's too (the plain hash leaves the stack
    out, as what is left; here what is left is only counted). Two positions
    with one key are worth the same: they name the same tiles that may
    still score, so exchanging the others' numbers, and the hexes left
    out, maps every continuation of one onto a continuation of the other
    with the same complete paths. (In the setup deal, the plain hash.)"""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef uint64_t h, m, live, dead, empty, open_, pool
    cdef int q, x, t
    if s.step == SB_DEAL:
        return sb_hash(params, st)
    live = live_tiles(p, s)
    dead = ~live
    empty = p.all_hexes & ~s.explored
    open_ = open_hexes(p, s, live)
    h = p.z_turn[s.player][s.step]
    if s.just_explored >= 0 and (dead >> (s.hex_tile[s.just_explored] - 1)) & 1:
        h ^= p.z_just_idle
    else:
        h ^= p.z_just[s.just_explored + 1]
    m = s.explored
    while m:
        x = ctz64(m)
        m &= m - 1
        t = s.hex_tile[x] - 1
        if (dead >> t) & 1:
            continue                        # only how many: implied by the rest
        h ^= p.z_tile[t][x]
        if s.hiker_count[x]:
            h ^= p.z_hiker[x][2 * s.hiker_owner[x] + s.hiker_count[x] - 1]
    h ^= zobrist_of(open_, p.z_open) ^ p.z_idle[popcount64(empty & ~open_)]
    pool = live & ~s.on_map                 # the stack's tiles that may score
    for q in range(p.num_players):
        pool &= ~s.hand[q] & ~s.set_aside[q]
    h ^= zobrist_of(pool, p.z_pool)
    for q in range(p.num_players):
        h ^= zobrist_of(s.hand[q] & live, p.z_hand[q]) ^ p.z_dead_held[q][popcount64(s.hand[q] & dead)]
        h ^= zobrist_of(s.set_aside[q], p.z_aside[q])
        h ^= p.z_solo[q][s.solo[q]] ^ p.z_pairs[q][s.pairs[q]]
    return h


cdef int sb_is_legal(const SbParams *p, const SbState *s, int action) noexcept nogil:
    cdef int buf[SB_MAX_ACTIONS]
    cdef int n = sb_legal_actions(p, s, buf), i
    for i in range(n):
        if buf[i] == action:
            return 1
    return 0


# ----- evaluation features (eval_api.h) -------------------------------------------
# The features a learned evaluation reads (solvers.learn, mcts.pyx), for seat
# q: a block for q's hikers, a block for the other seats' hikers (their mean),
# the same two blocks scaled by the game's progress, and a few globals. Only
# what q may see goes in: the map, every hiker, the unplaced hikers, q's own
# hand and set-aside pile; never another hand, another pile or the stack order.
# Bump SB_FEATURES_VERSION whenever a feature's meaning changes.
cdef enum:
    SB_FEATURES_VERSION = 1
    SB_BLOCK = 8             # features per block (see sb_features)
    SB_NUM_FEATURES = 4 * SB_BLOCK + 4

SB_FEATURE_NAMES = tuple(
    [f"{who}{scaled}:{name}" for scaled in ("", "*progress") for who in ("own", "others")
     for name in ("points", "need1_held", "need1_open", "need2_alive", "need3_alive",
                  "dead", "unplaced", "pairs_waiting")]
    + ["progress", "to_move", "hand_links", "bias"])


cdef inline int end_status(const SbParams *p, const SbState *s, int seat, int end,
                           int run_tile) noexcept nogil:
    """How the tile index ``end`` (the next number beyond a run whose end is
    tile index ``run_tile``) looks to ``seat``: 2 held (in seat's hand, with an
    empty hex beside the run's end), 1 open (unseen by seat: another hand or
    pile or the stack, with an empty hex beside), 0 dead (off the tile range,
    on the map elsewhere, in seat's set-aside pile, or no empty hex beside)."""
    cdef uint64_t bit
    if end < 0 or end >= p.num_tiles:
        return 0
    bit = ONE << end
    if (s.on_map & bit) or (s.set_aside[seat] & bit):
        return 0
    if not (p.neighbours[s.tile_hex[run_tile]] & p.all_hexes & ~s.explored):
        return 0
    return 2 if s.hand[seat] & bit else 1


cdef void sb_features(const void *params, const void *st, int seat, float *out) noexcept nogil:
    """``FeatureDef.features`` for Switchbacks (the layout of SB_FEATURE_NAMES).

    Per block, counting hikers (a pair is 2) of that block's seats: on a
    complete path (points); on a run one tile short with an end held by
    ``seat`` / open; two short and alive (an end held or open); three short
    and alive; on a run that can no longer grow (dead); then unplaced hikers
    and waiting pairs. Globals: progress (tiles explored out of those in play),
    whether ``seat`` is to move, the tiles of ``seat``'s hand that would
    extend a run on the map, and a constant 1."""
    cdef const SbParams *p = <const SbParams *>params
    cdef const SbState *s = <const SbState *>st
    cdef int run_lo[SB_MAX]
    cdef int run_hi[SB_MAX]
    cdef float blk[2][SB_BLOCK]
    cdef int i, j, lo, hi, length, need, h, owner, b, st_lo, st_hi, others, links
    cdef int in_play, placed
    cdef uint64_t m
    cdef float prog, w
    memset(blk, 0, sizeof(blk))
    # runs of consecutive numbers on adjacent hexes
    lo = -1
    for i in range(p.num_tiles):
        if not (s.on_map >> i) & 1:
            lo = -1
            continue
        if lo < 0 or not ((p.neighbours[s.tile_hex[i - 1]] >> s.tile_hex[i]) & 1):
            lo = i
        run_lo[i] = lo
    hi = -1
    for i in range(p.num_tiles - 1, -1, -1):
        if not (s.on_map >> i) & 1:
            hi = -1
            continue
        if hi < 0 or run_lo[i + 1] != run_lo[i]:
            hi = i
        run_hi[i] = hi
    m = s.explored
    while m:
        h = ctz64(m)
        m &= m - 1
        if not s.hiker_count[h]:
            continue
        owner = s.hiker_owner[h]
        b = 0 if owner == seat else 1
        w = s.hiker_count[h]
        i = s.hex_tile[h] - 1
        lo = run_lo[i]
        hi = run_hi[i]
        length = hi - lo + 1
        need = p.min_run - length
        if need <= 0:
            blk[b][0] += w
            continue
        st_lo = end_status(p, s, seat, lo - 1, lo)
        st_hi = end_status(p, s, seat, hi + 1, hi)
        if st_lo == 0 and st_hi == 0:
            blk[b][5] += w
        elif need == 1:
            if st_lo == 2 or st_hi == 2:
                blk[b][1] += w
            else:
                blk[b][2] += w
        elif need == 2:
            blk[b][3] += w
        else:
            blk[b][4] += w
    others = 0
    for i in range(p.num_players):
        b = 0 if i == seat else 1
        blk[b][6] += s.solo[i] + 2 * s.pairs[i]
        blk[b][7] += s.pairs[i]
        if i != seat:
            others += 1
    if others > 1:
        for j in range(SB_BLOCK):
            blk[1][j] /= others
    in_play = p.num_tiles - p.num_players * p.set_aside
    placed = popcount64(s.on_map)
    prog = (placed - 1.0) / (in_play - 1.0) if in_play > 1 else 1.0
    if prog < 0:
        prog = 0
    if prog > 1:
        prog = 1
    for j in range(SB_BLOCK):
        out[j] = blk[0][j]
        out[SB_BLOCK + j] = blk[1][j]
        out[2 * SB_BLOCK + j] = blk[0][j] * prog
        out[3 * SB_BLOCK + j] = blk[1][j] * prog
    links = 0
    m = s.hand[seat]
    while m:
        i = ctz64(m)
        m &= m - 1
        if ((i >= 1 and s.tile_hex[i - 1] >= 0
                and p.neighbours[s.tile_hex[i - 1]] & p.all_hexes & ~s.explored)
                or (i + 1 < p.num_tiles and s.tile_hex[i + 1] >= 0
                    and p.neighbours[s.tile_hex[i + 1]] & p.all_hexes & ~s.explored)):
            links += 1
    out[4 * SB_BLOCK] = prog
    out[4 * SB_BLOCK + 1] = 1.0 if (s.player == seat and s.step != SB_OVER) else 0.0
    out[4 * SB_BLOCK + 2] = links
    out[4 * SB_BLOCK + 3] = 1.0


# ----- Python objects -----------------------------------------------------------
cdef class SwitchbacksCore:
    """The constant tables of one game (player count and map) and its GameDef.

    Built by :class:`~solvers.games.switchbacks.kernel.SwitchbacksKernel`;
    a capsule from ``gamedef_capsule()`` keeps this object alive.
    """

    cdef SbParams *params
    cdef GameDef gamedef
    cdef FeatureDef featuredef
    cdef tuple action_ints             # 0 .. num_actions-1, for legal_actions lists
    cdef object __weakref__

    def __cinit__(self, int players, int num_hexes, int num_tiles, int centre, int set_aside,
                  int hand_size, int hikers, int min_run, neighbours):
        cdef SbParams *p
        cdef uint64_t rng = 0x5357495443484241ULL  # fixed Zobrist seed
        cdef int i, j
        cdef GameDef *g
        if not (2 <= players <= SB_MAX_PLAYERS and 1 <= num_hexes <= SB_MAX
                and 1 <= num_tiles <= SB_MAX and 1 <= hand_size <= SB_MAX_HAND
                and 0 < hikers < SB_MAX_HIKERS and len(neighbours) == num_hexes):
            raise SolversError("Switchbacks kernel: tables out of range")
        p = <SbParams *>calloc(1, sizeof(SbParams))
        if p == NULL:
            raise MemoryError()
        self.params = p
        p.num_players = players
        p.num_hexes = num_hexes
        p.num_tiles = num_tiles
        p.centre = centre
        p.set_aside = set_aside
        p.hand_size = hand_size
        p.hikers = hikers
        p.min_run = min_run
        p.setup_deals = 1 + players * set_aside + players * hand_size
        p.buddy_up = num_tiles * num_hexes
        p.hike_solo = p.buddy_up + 1
        p.hike_buddies = p.buddy_up + 2
        p.deal_base = p.buddy_up + 3
        p.num_actions = p.deal_base + num_tiles
        p.all_hexes = (ONE << num_hexes) - 1 if num_hexes < 64 else ~(<uint64_t>0)
        for i in range(num_hexes):
            p.neighbours[i] = <uint64_t>neighbours[i]
        p.pol_link, p.pol_hike, p.pol_buddy = PLAYOUT_WEIGHTS
        for i in range(SB_MAX):
            for j in range(SB_MAX):
                p.z_tile[i][j] = splitmix64_next(&rng)
            for j in range(2 * SB_MAX_PLAYERS):
                p.z_hiker[i][j] = splitmix64_next(&rng)
        for i in range(SB_MAX_PLAYERS):
            for j in range(SB_MAX):
                p.z_hand[i][j] = splitmix64_next(&rng)
                p.z_aside[i][j] = splitmix64_next(&rng)
            for j in range(SB_MAX_HIKERS):
                p.z_solo[i][j] = splitmix64_next(&rng)
                p.z_pairs[i][j] = splitmix64_next(&rng)
            for j in range(5):
                p.z_turn[i][j] = splitmix64_next(&rng)
        for i in range(SB_MAX + 1):
            p.z_just[i] = splitmix64_next(&rng)
        for i in range(SB_MAX):
            p.z_open[i] = splitmix64_next(&rng)
        for i in range(SB_MAX_PLAYERS):
            for j in range(SB_MAX + 1):
                p.z_dead_held[i][j] = splitmix64_next(&rng)
        for i in range(SB_MAX + 1):
            p.z_idle[i] = splitmix64_next(&rng)
        p.z_just_idle = splitmix64_next(&rng)
        for i in range(SB_MAX):
            p.z_pool[i] = splitmix64_next(&rng)

        g = &self.gamedef
        g.name = b"switchbacks"
        g.num_players = players
        g.max_actions = hand_size * num_hexes if hand_size * num_hexes > num_tiles else num_tiles
        g.num_distinct_actions = p.num_actions
        # every tile is dealt once (chance) and explored at most once with one
        # hike decision
        g.max_game_length = 3 * num_tiles
        g.state_size = sizeof(SbState)
        g.params = p
        g.current_player = sb_current_player
        g.legal_actions = sb_legal_actions
        g.apply_action = sb_apply_action
        g.chance_outcomes = sb_chance_outcomes
        g.sample_chance = sb_sample_chance
        g.returns = sb_returns
        g.determinize = sb_determinize
        g.action_observation = sb_action_observation
        g.hash = sb_hash
        g.solver_key = sb_solver_key
        g.rollout_action = sb_rollout_action
        g.playout = sb_playout
        g.public_decisions = 1         # only deals and draws are hidden
        g.state_bounds = sb_state_bounds
        self.featuredef.game = b"switchbacks"
        self.featuredef.version = SB_FEATURES_VERSION
        self.featuredef.num_features = SB_NUM_FEATURES
        self.featuredef.features = sb_features
        self.action_ints = action_table(p.num_actions)

    def __dealloc__(self):
        free(self.params)

    @property
    def playout_weights(self) -> tuple:
        """The playout policy's weights (link, hike, buddy), each out of 256:
        how often a playout move follows each rule of thumb of
        ``sb_rollout_action``. Settable; (0, 0, 0) makes the policy uniformly
        random."""
        return (self.params.pol_link, self.params.pol_hike, self.params.pol_buddy)

    @playout_weights.setter
    def playout_weights(self, weights):
        try:
            link, hike, buddy = (int(w) for w in weights)
        except (TypeError, ValueError):
            raise SolversError("playout weights are three whole numbers (link, hike, buddy)") from None
        if not all(0 <= w <= 256 for w in (link, hike, buddy)):
            raise SolversError("playout weights must be between 0 and 256")
        self.params.pol_link = link
        self.params.pol_hike = hike
        self.params.pol_buddy = buddy

    @property
    def state_size(self) -> int:
        return sizeof(SbState)

    @property
    def max_actions(self) -> int:
        return self.gamedef.max_actions

    @property
    def max_game_length(self) -> int:
        return self.gamedef.max_game_length

    def gamedef_capsule(self):
        """A PyCapsule "solvers.GameDef" pointing at this game's GameDef
        (it keeps this object, and so the tables, alive)."""
        return owned_capsule(&self.gamedef, SOLVERS_GAMEDEF_CAPSULE, self)

    def features_capsule(self):
        """A PyCapsule "solvers.Features" pointing at this game's FeatureDef
        (eval_api.h; it keeps this object alive): the evaluation features a
        learned model reads (``SB_FEATURE_NAMES``)."""
        return owned_capsule(&self.featuredef, SOLVERS_FEATURES_CAPSULE, self)

    @property
    def feature_names(self) -> tuple:
        return SB_FEATURE_NAMES

    def play_random_games(self, long n, uint64_t seed):
        """Play ``n`` games in C, chance and players uniformly at random;
        return the mean score of each player.

        Game ``i`` deals from a deck shuffled with the i-th draw of
        ``SplitMix64(seed)``; chance and moves use the same generator.
        """
        cdef const SbParams *p = self.params
        cdef SbState s
        cdef int acts[SB_MAX_ACTIONS]
        cdef int pts[SB_MAX_PLAYERS]
        cdef double totals[SB_MAX_PLAYERS]
        cdef uint64_t rng = seed
        cdef long g
        cdef int a, k, q
        if n <= 0:
            raise SolversError(f"the number of games should be positive, not {n}")
        for q in range(SB_MAX_PLAYERS):
            totals[q] = 0.0
        with nogil:
            for g in range(n):
                sb_new_state(p, &s, splitmix64_next(&rng))
                while s.step != SB_OVER:
                    if s.step == SB_DEAL or s.step == SB_DRAW:
                        a = sb_sample_chance(p, &s, &rng)
                    else:
                        k = sb_legal_actions(p, &s, acts)
                        a = acts[rng_below(&rng, k)]
                    sb_apply_action(p, &s, a)
                sb_scores(p, &s, pts)
                for q in range(p.num_players):
                    totals[q] += pts[q]
        return [totals[q] / n for q in range(p.num_players)]


cdef class KernelState:
    """The Python face of one ``SbState``. The kernel wrapper subclasses it
    (adding names and views shared with the reference)."""

    cdef SbState st
    cdef const SbParams *p
    cdef SwitchbacksCore core
    cdef public object game
    cdef public list history

    def _start(self, SwitchbacksCore core, game, uint64_t seed):
        self.core = core
        self.p = core.params
        self.game = game
        self.history = []
        sb_new_state(self.p, &self.st, seed)

    # ----- the State interface ------------------------------------------------
    # The hot methods are plain method descriptors (binding=False), the
    # kind of callable CPython calls fastest; embedsignature (line 1) keeps
    # their signatures for inspect.
    @cython.binding(False)
    def current_player(self) -> int:
        return sb_current_player(self.p, &self.st)

    @cython.binding(False)
    def is_chance_node(self) -> bool:
        return self.st.step == SB_DEAL or self.st.step == SB_DRAW

    @cython.binding(False)
    def is_terminal(self) -> bool:
        return self.st.step == SB_OVER

    @cython.binding(False)
    def legal_actions(self) -> list:
        cdef int buf[SB_MAX_ACTIONS]
        cdef int n = sb_legal_actions(self.p, &self.st, buf)
        return solvers_int_list(buf, n, self.core.action_ints)

    def chance_outcomes(self) -> list:
        cdef int buf[SB_MAX]
        cdef double probs[SB_MAX]
        cdef int n = sb_chance_outcomes(self.p, &self.st, buf, probs), i
        return [(buf[i], probs[i]) for i in range(n)]

    @cython.binding(False)
    def seeded_outcome(self) -> int:
        if not (self.st.step == SB_DEAL or self.st.step == SB_DRAW):
            raise SolversError("not a chance node")
        return self.p.deal_base + self.st.order[self.st.pos] - 1

    @cython.binding(False)
    def apply_action(self, action) -> None:
        cdef long a = solvers_action_index(action, 1)   # -1 for a non-int
        if a < 0 or a >= self.p.num_actions or not sb_is_legal(self.p, &self.st, <int>a):
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        sb_apply_action(self.p, &self.st, <int>a)

    def scores(self) -> list:
        cdef int pts[SB_MAX_PLAYERS]
        sb_scores(self.p, &self.st, pts)
        return [pts[i] for i in range(self.p.num_players)]

    def score_bounds(self) -> tuple:
        """``(least, most)``: per seat, bounds on the points it ends the game
        with from here, whatever is played (what the exact search prunes
        with, ``GameDef.state_bounds``)."""
        cdef int lo[SB_MAX_PLAYERS]
        cdef int hi[SB_MAX_PLAYERS]
        sb_score_bounds(self.p, &self.st, lo, hi)
        return ([lo[i] for i in range(self.p.num_players)],
                [hi[i] for i in range(self.p.num_players)])

    def live_tiles(self) -> list:
        """The tiles that may still end on a complete path (ascending)."""
        return _tiles(live_tiles(self.p, &self.st))

    def open_hexes(self) -> list:
        """The empty hexes a complete path may still cross (ascending)."""
        cdef uint64_t m = open_hexes(self.p, &self.st, live_tiles(self.p, &self.st))
        out = []
        while m:
            out.append(ctz64(m))
            m &= m - 1
        return out

    def solver_key(self) -> int:
        """The exact search's key of this position (``GameDef.solver_key``):
        equal for positions that differ only in where the tiles outside
        :meth:`live_tiles` lie, and in which empty hexes outside
        :meth:`open_hexes` they fill."""
        return sb_solver_key(self.p, &self.st)

    def return_bounds(self) -> tuple:
        """``(least, most)``: per seat, bounds on its win share from here."""
        cdef double lo[SB_MAX_PLAYERS]
        cdef double hi[SB_MAX_PLAYERS]
        sb_state_bounds(self.p, &self.st, lo, hi)
        return ([lo[i] for i in range(self.p.num_players)],
                [hi[i] for i in range(self.p.num_players)])

    @cython.binding(False)
    def returns(self) -> list:
        cdef double out[SB_MAX_PLAYERS]
        sb_returns(self.p, &self.st, out)
        return [out[i] for i in range(self.p.num_players)]

    @cython.binding(False)
    def clone(self):
        cdef KernelState other = KernelState.__new__(type(self))
        other.st = self.st
        other.p = self.p
        other.core = self.core
        other.game = self.game
        other.history = list(self.history)
        return other

    def resample(self, player, seed):
        """A copy in which the other hands, the other set-aside piles and the
        stack order are dealt afresh from ``SplitMix64(seed)``, or from the
        generator ``seed`` itself, which advances (the same deal as the
        reference's ``resample``)."""
        cdef KernelState other
        cdef uint64_t rng
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.p.num_players:
            raise SolversError(f"no player {player!r} in a {self.p.num_players}-player game")
        generator = seed if isinstance(seed, SplitMix64) else None
        if generator is not None:
            rng = generator.state
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise SolversError(f"seed should be an int or a SplitMix64, not {type(seed).__name__}")
        else:
            rng = seed & 0xFFFFFFFFFFFFFFFF
        other = self.clone()
        sb_determinize(self.p, &other.st, <int>player, &rng)
        if generator is not None:
            generator.state = rng
        return other

    def action_observation(self, int action, int player) -> int:
        """What ``player`` sees of ``action``: the action, or -2 when hidden."""
        return sb_action_observation(self.p, &self.st, action, player)

    def hash(self) -> int:
        """The Zobrist hash of the position (see ``sb_hash``)."""
        return sb_hash(self.p, &self.st)

    def _state_capsule(self):
        """A PyCapsule "solvers.State" pointing at this state's struct
        (it keeps this state alive)."""
        return owned_capsule(&self.st, SOLVERS_STATE_CAPSULE, self)

    def _raw(self) -> bytes:
        """The state struct as bytes (for a search that stored one)."""
        return (<char *>&self.st)[:sizeof(SbState)]

    def _set_raw(self, bytes raw) -> None:
        if len(raw) != sizeof(SbState):
            raise SolversError(f"a Switchbacks state has {sizeof(SbState)} bytes, not {len(raw)}")
        memcpy(&self.st, <const char *>raw, sizeof(SbState))

    def __reduce__(self):
        # The struct holds no pointer: the game (picklable), the struct's
        # bytes and the history rebuild the state in any process.
        return (_rebuild_state, (self.game, self._raw(), self.history))

    # ----- fields, named as in the reference state -------------------------
    @property
    def order(self) -> list:
        return [self.st.order[i] for i in range(self.p.num_tiles)]

    @property
    def pos(self) -> int:
        return self.st.pos

    @property
    def board(self) -> dict:
        return {h: self.st.hex_tile[h] for h in range(self.p.num_hexes) if self.st.hex_tile[h]}

    @property
    def hikers(self) -> dict:
        return {h: (self.st.hiker_owner[h], self.st.hiker_count[h])
                for h in range(self.p.num_hexes) if self.st.hiker_count[h]}

    @property
    def hands(self) -> list:
        return [set(_tiles(self.st.hand[q])) for q in range(self.p.num_players)]

    @property
    def set_aside(self) -> list:
        return [set(_tiles(self.st.set_aside[q])) for q in range(self.p.num_players)]

    @property
    def solo(self) -> list:
        return [self.st.solo[q] for q in range(self.p.num_players)]

    @property
    def buddies(self) -> list:
        return [self.st.pairs[q] for q in range(self.p.num_players)]

    @property
    def player(self) -> int:
        return self.st.player

    @property
    def step(self) -> str:
        return STEP_NAMES[self.st.step]

    @property
    def just_explored(self):
        return None if self.st.just_explored < 0 else self.st.just_explored

    def _load(self, SwitchbacksCore core, game, order, int pos, board, hikers, hands, set_aside,
              solo, buddies, int player, str step, just_explored) -> None:
        """Fill the struct from reference-style fields (already validated)."""
        cdef SbState *s = &self.st
        cdef int q
        self.core = core
        self.p = core.params
        self.game = game
        self.history = []
        memset(s, 0, sizeof(SbState))
        memset(s.tile_hex, -1, SB_MAX)
        memset(s.hiker_owner, -1, SB_MAX)
        for i, t in enumerate(order):
            s.order[i] = t
        s.pos = pos
        for h, t in board.items():
            place_tile(s, t, h)
        for h, (owner, count) in hikers.items():
            s.hiker_owner[h] = owner
            s.hiker_count[h] = count
        for q in range(self.p.num_players):
            for t in hands[q]:
                s.hand[q] |= ONE << (t - 1)
            for t in set_aside[q]:
                s.set_aside[q] |= ONE << (t - 1)
            s.solo[q] = solo[q]
            s.pairs[q] = buddies[q]
        s.player = player
        s.step = STEP_NAMES.index(step)
        s.just_explored = -1 if just_explored is None else just_explored


def _rebuild_state(game, bytes raw, list history):
    """A pickled state again (see ``KernelState.__reduce__``)."""
    state = game.state_from_raw(raw)
    state.history = list(history)
    return state


cdef list _tiles(uint64_t m):
    cdef list out = []
    while m:
        out.append(ctz64(m) + 1)
        m &= m - 1
    return out
