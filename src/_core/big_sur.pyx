# cython: language_level=3, embedsignature=True, embedsignature.format=clinic
"""Big Sur in C: the kernel behind
:class:`solvers.games.bigsur.kernel.BigSurKernel`.

The rules, action ids and seeded dealing are those of
``solvers.games.bigsur.reference`` (the rules of record; docs/rules/big-sur.md).
A state is the plain struct ``BsState`` (big_sur.pxd): hands, the Depot and
the used Persistent Materials as two-word card sets, the Landmark row as a
one-word set, Highways as arrays of card numbers left to right.

Paying is decided by counts, not by listing payments: for a fixed use of
Persistent Materials and Recycling, a set D of discarded cards pays the
remaining k icons exactly when |D| = 3k - 2s for some s in 0..k and at
least s cards of D can each be matched to an icon of their own Material
(those are the singles; the other 3(k - s) cards form three-for-ones). So
whether a partial choice of discards can be completed depends only on how
many cards of each Material are chosen and still available. Those counts
are packed a byte per Material in one word, and two tables filled when the
game is built answer the questions that depend only on a card's cost:
whether a hand can pay for it at all (can_build_slow's answers, by the
counts of the cost's Materials in hand and among the free supplies) and
the ways to use the free supplies (pay_plans).

Every C function below is ``noexcept nogil`` and fills the ``GameDef`` of
game_api.h.
"""

cimport cython
from libc.stdint cimport uint64_t, int8_t, uint8_t, int16_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset, memmove

from big_sur cimport *
from game_api cimport (
    GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
    splitmix64_next, rng_below, rng_below_mul,
    SOLVERS_GAMEDEF_CAPSULE, SOLVERS_STATE_CAPSULE, owned_capsule,
    action_table, solvers_action_index, solvers_int_list,
)
from eval_api cimport FeatureDef, SOLVERS_FEATURES_CAPSULE

from solvers.errors import IllegalActionError, SolversError

# The action ints legal_actions lists are made of (game_api.pxd; larger ids
# are made per call).
cdef tuple ACTION_INTS = action_table(2048)
from solvers.rng import SplitMix64

cdef extern from *:
    """
    static inline int bs_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int popcount64 "bs_popcount64"(unsigned long long x) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long x) nogil

STEP_NAMES = ("deal", "take", "draw", "build", "end", "pay", "top", "place", "reveal", "refill", "over")
#: The playout policy's default weights (build, claim) out of 256.
PLAYOUT_WEIGHTS = (230, 250)
cdef uint64_t ONE = 1


# ----- card sets ----------------------------------------------------------------
cdef inline bint has(const uint64_t *m, int c) noexcept nogil:
    return (m[(c - 1) >> 6] >> ((c - 1) & 63)) & 1

cdef inline void add(uint64_t *m, int c) noexcept nogil:
    m[(c - 1) >> 6] |= ONE << ((c - 1) & 63)

cdef inline void drop(uint64_t *m, int c) noexcept nogil:
    m[(c - 1) >> 6] &= ~(ONE << ((c - 1) & 63))

cdef inline int count2(const uint64_t *m) noexcept nogil:
    return popcount64(m[0]) + popcount64(m[1])

cdef inline int cards_of(const uint64_t *m, uint8_t *out) noexcept nogil:
    """The cards of a set, ascending; returns how many."""
    cdef int n = 0, w
    cdef uint64_t x
    for w in range(2):
        x = m[w]
        while x:
            out[n] = <uint8_t>(64 * w + ctz64(x) + 1)
            x &= x - 1
            n += 1
    return n

cdef inline void shuffle_u8(uint64_t *rng, uint8_t *items, int n) noexcept nogil:
    """Fisher-Yates from the last position down, as solvers.rng.SplitMix64.shuffle."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


# ----- setup and turn flow ------------------------------------------------------------
cdef inline void new_turn(BsState *s) noexcept nogil:
    s.taken = 0
    s.used_cards[0] = 0
    s.used_cards[1] = 0
    s.used_lms = 0
    s.recycled = 0
    s.claimed = 0
    s.building = 0
    s.end_left = -1
    s.paying_n = 0
    s.claiming = 0
    s.fin = -1


cdef void bs_new_state(const BsParams *p, BsState *s, uint64_t seed) noexcept nogil:
    """A fresh game: the Highway deck then the Landmark deck shuffled with
    SplitMix64(seed), nothing dealt."""
    cdef uint64_t rng = seed
    cdef int i
    memset(s, 0, sizeof(BsState))
    for i in range(p.deck_size):
        s.order[i] = p.deck[i]
    shuffle_u8(&rng, s.order, p.deck_size)
    for i in range(p.n_landmarks):
        s.lorder[i] = <uint8_t>(i + 1)
    shuffle_u8(&rng, s.lorder, p.n_landmarks)
    s.step = BS_DEAL
    new_turn(s)


cdef inline bint deals_landmark(const BsParams *p, const BsState *s) noexcept nogil:
    return s.step == BS_REVEAL or (s.step == BS_DEAL and s.pos == p.setup_cards)


cdef inline bint is_chance(const BsState *s) noexcept nogil:
    return s.step == BS_DEAL or s.step == BS_DRAW or s.step == BS_REVEAL or s.step == BS_REFILL


cdef int bs_current_player(const void *params, const void *st) noexcept nogil:
    cdef const BsState *s = <const BsState *>st
    if is_chance(s):
        return GAME_CHANCE
    if s.step == BS_OVER:
        return GAME_TERMINAL
    return s.player


cdef int bs_chance_outcomes(const void *params, const void *st, int *out, double *probs) noexcept nogil:
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    cdef uint64_t m[2]
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef int n, i
    cdef uint64_t lm = 0
    if not is_chance(s):
        return 0
    if deals_landmark(p, s):
        for i in range(s.lpos, p.n_landmarks):
            lm |= ONE << (s.lorder[i] - 1)
        n = 0
        while lm:
            out[n] = p.landmark_base + ctz64(lm)
            lm &= lm - 1
            n += 1
    else:
        m[0] = 0
        m[1] = 0
        for i in range(s.pos, p.deck_size):
            add(m, s.order[i])
        n = cards_of(m, buf)
        for i in range(n):
            out[i] = p.card_base + buf[i] - 1
    if probs != NULL:
        for i in range(n):
            probs[i] = 1.0 / n
    return n


cdef int bs_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    """A face-down card (or Landmark) drawn uniformly, by its place in the
    deck (a multiply-shift draw: no division, as the playout policy's)."""
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    if deals_landmark(p, s):
        return p.landmark_base + s.lorder[s.lpos + rng_below_mul(rng, p.n_landmarks - s.lpos)] - 1
    return p.card_base + s.order[s.pos + rng_below_mul(rng, p.deck_size - s.pos)] - 1


cdef inline void after_refill(const BsParams *p, BsState *s) noexcept nogil:
    if count2(s.depot) < 5 and s.pos < p.deck_size:
        return
    if s.pos == p.deck_size:
        s.step = BS_OVER
        return
    s.player = <uint8_t>(s.player + 1 if s.player + 1 < p.players else 0)
    new_turn(s)
    s.step = BS_TAKE


cdef inline void end_turn(const BsParams *p, BsState *s) noexcept nogil:
    s.turns[s.player] += 1
    s.step = BS_REFILL
    after_refill(p, s)


cdef inline void took(BsState *s) noexcept nogil:
    s.taken += 1
    s.step = BS_BUILD if s.taken == 2 else BS_TAKE


# ----- paying ----------------------------------------------------------------------------
cdef inline void persistent_counts(const BsParams *p, const BsState *s, int q, int *avail) noexcept nogil:
    cdef int i, c, l
    for i in range(BS_KINDS):
        avail[i] = 0
    for i in range(s.hw_n[q]):
        c = s.hw[q][i]
        if p.persist[c] >= 0 and not has(s.used_cards, c):
            avail[p.persist[c]] += 1
        l = s.mark_lm[q][i]
        if l and p.lm_kind[l] == 2 and not ((s.used_lms >> (l - 1)) & 1):
            avail[p.lm_arg[l]] += 1


# Packed Material counts: the count of Material m in byte m of a uint64
# (every count stays below 128, so bytes never carry into each other).
cdef uint64_t PK_HIGH = 0x8080808080ULL     # the high bit of each Material's byte


cdef inline uint64_t pk_unit(int m) noexcept nogil:
    return ONE << (8 * m)


cdef inline int pk_get(uint64_t v, int m) noexcept nogil:
    return <int>((v >> (8 * m)) & 0xFF)


cdef inline uint64_t pk_min(uint64_t a, uint64_t b) noexcept nogil:
    """Material by Material, the smaller count."""
    cdef uint64_t ge = (((a | PK_HIGH) - b) & PK_HIGH) >> 7      # 1 where a >= b
    ge *= 0xFF
    return (b & ge) | (a & ~ge)


cdef inline uint64_t pk_gap(uint64_t a, uint64_t b) noexcept nogil:
    """Material by Material, a - b where positive, else 0."""
    cdef uint64_t d = (a | PK_HIGH) - b
    return (d & ~PK_HIGH) & (((d & PK_HIGH) >> 7) * 0xFF)


cdef inline int pk_sum(uint64_t v) noexcept nogil:
    """The total of the counts (below 256)."""
    return <int>(((v * 0x0101010101ULL) >> 32) & 0xFF)


cdef inline bint completes(uint64_t cnt, int size, uint64_t more_p, int more, const PayPlan *pl,
                           int topm) noexcept nogil:
    """Can discards with Material counts ``cnt`` (packed; ``size`` cards),
    plus some of ``more`` more cards (counts ``more_p``), pay the plan's
    ``R`` (``kp`` icons) exactly, with its Recycling of Material ``r`` (-1
    none) from a pile whose top shows ``topm``?"""
    cdef int s, x, base, useful, ach, kp = pl.kp, r = pl.r
    cdef uint64_t gap
    cdef bint need_r
    # quick refusals: every choice of s discards too many or too few
    if size > 3 * kp or kp - size > more:
        return 0
    base = pk_sum(pk_min(cnt, pl.Rp))
    gap = pk_gap(pl.Rp, cnt)
    useful = pk_sum(pk_min(more_p, gap))
    need_r = r >= 0 and r != topm and pk_get(cnt, r) == 0
    if need_r and pk_get(more_p, r) == 0:
        return 0
    for s in range(kp + 1):
        x = 3 * kp - 2 * s - size
        if x < 0 or x > more:
            continue
        if need_r:
            if x == 0:
                continue
            if pk_get(gap, r) > 0:
                ach = base + (x if x < useful else useful)
            else:
                ach = base + (x - 1 if x - 1 < useful else useful)
        else:
            ach = base + (x if x < useful else useful)
        if ach >= s:
            return 1
    return 0


ctypedef struct PayCtx:
    # a payment in progress for one card: the discards chosen, the hand
    # cards that may follow them and the ways to use the free supplies
    uint64_t cnt             # Materials of the discards chosen, packed
    int n_chosen
    int topm                 # Material on top of the pile before paying, -1 none
    int nc
    uint8_t cand[BS_MAX_CARDS]           # hand cards above the last discard, ascending
    uint64_t suf[BS_MAX_CARDS + 1]       # Materials of cand[i:], packed
    int n_plans
    const PayPlan *plans     # the plans (in the table of pay_plans)


cdef inline int avail_index(const BsParams *p, int card, const int *avail) noexcept nogil:
    """The unused Persistent Materials ``avail`` of the Materials of
    ``card``'s cost, each counted up to its number in the cost, as one
    number (mixed radix, the cost's Materials in increasing order)."""
    cdef int j, nd, a, av = 0, mul = 1
    for j in range(p.cb_nk[card]):
        nd = p.cb_need[card][j]
        a = avail[p.cb_kind[card][j]]
        if a > nd:
            a = nd
        av += a * mul
        mul *= nd + 1
    return av


cdef inline const PayPlan *pay_plans(const BsParams *p, int recycled, int card, const int *avail,
                                     int *n) noexcept nogil:
    """The ways to use Persistent Materials (by Material; ``avail`` of each
    still unused, from persistent_counts) and Recycling (``recycled``: used
    already this turn) to pay ``card``, each with the icons left for
    discards: ``n`` of them, from the table fill_pay_plans filled."""
    cdef int k = 2 * (p.pp_base[card][recycled] + avail_index(p, card, avail))
    n[0] = p.pp_index[k + 1]
    return &p.pp_plans[p.pp_index[k]]


cdef int fill_pay_plans(const BsParams *p, bint recycled, int card, const int *avail, PayPlan *plans) noexcept nogil:
    """pay_plans, computed: fills ``plans`` and returns how many."""
    cdef int need[BS_KINDS]
    cdef int rest[BS_KINDS]
    cdef int kinds[3]
    cdef int ranges[3]
    cdef int use[3]
    cdef int n_kinds = 0, i, m, code, kp, ri, n_plans = 0
    cdef int u0, u1, u2
    cdef PayPlan *pl
    for m in range(BS_KINDS):
        need[m] = 0
    for i in range(p.cost_n[card]):
        need[p.cost[card][i]] += 1
    for m in range(BS_KINDS):
        if need[m]:
            kinds[n_kinds] = m
            n_kinds += 1
    for i in range(n_kinds, 3):
        kinds[i] = -1
    for i in range(3):
        if kinds[i] >= 0:
            ranges[i] = need[kinds[i]] if need[kinds[i]] < avail[kinds[i]] else avail[kinds[i]]
        else:
            ranges[i] = 0
    for u0 in range(ranges[0] + 1):
        for u1 in range(ranges[1] + 1):
            for u2 in range(ranges[2] + 1):
                use[0] = u0
                use[1] = u1
                use[2] = u2
                for m in range(BS_KINDS):
                    rest[m] = need[m]
                code = 0
                for i in range(3):
                    if kinds[i] >= 0:
                        rest[kinds[i]] -= use[i]
                # code of the Persistent counts, Material by Material
                for m in range(BS_KINDS - 1, -1, -1):
                    code = code * 4 + (need[m] - rest[m])
                for ri in range(-1, BS_KINDS):
                    if ri >= 0 and (recycled or rest[ri] == 0):
                        continue
                    pl = &plans[n_plans]
                    n_plans += 1
                    for m in range(BS_KINDS):
                        pl.R[m] = rest[m]
                    if ri >= 0:
                        pl.R[ri] -= 1
                    kp = 0
                    pl.Rp = 0
                    for m in range(BS_KINDS):
                        kp += pl.R[m]
                        pl.Rp |= (<uint64_t>pl.R[m]) << (8 * m)
                    pl.kp = kp
                    pl.r = ri
                    pl.fin = p.fin_index[code + (1024 if ri >= 0 else 0)]
    return n_plans


cdef inline int pile_top_material(const BsParams *p, const BsState *s, int q) noexcept nogil:
    return p.mat[s.pile[q][s.pile_n[q] - 1]] if s.pile_n[q] else -1


cdef void pay_context(const BsParams *p, const BsState *s, int card, const uint8_t *chosen, int n_chosen,
                      PayCtx *x) noexcept nogil:
    """Fill ``x`` for paying ``card`` after the discards ``chosen`` (ascending)."""
    cdef uint64_t hand[2]
    cdef uint8_t allc[BS_MAX_CARDS]
    cdef int avail[BS_KINDS]
    cdef int i, m, n_all, nc = 0, last
    x.cnt = 0
    for i in range(n_chosen):
        x.cnt += pk_unit(p.mat[chosen[i]])
    x.n_chosen = n_chosen
    last = chosen[n_chosen - 1] if n_chosen else 0
    hand[0] = s.hand[s.player][0]
    hand[1] = s.hand[s.player][1]
    drop(hand, card)
    n_all = cards_of(hand, allc)
    for i in range(n_all):
        if allc[i] > last:
            x.cand[nc] = allc[i]
            nc += 1
    x.nc = nc
    x.suf[nc] = 0
    for i in range(nc - 1, -1, -1):
        x.suf[i] = x.suf[i + 1] + pk_unit(p.mat[x.cand[i]])
    x.topm = pile_top_material(p, s, s.player)
    persistent_counts(p, s, s.player, avail)
    x.plans = pay_plans(p, s.recycled, card, avail, &x.n_plans)



cdef int finish_options(const PayCtx *x, uint8_t *fin_ok, bint first_only) noexcept nogil:
    """``fin_ok[k]`` set for each FINISH k that completes the payment now;
    returns how many (with ``first_only``, stops at the first)."""
    cdef int j, found = 0
    cdef const PayPlan *pl
    for j in range(BS_N_FINISH):
        fin_ok[j] = 0
    for j in range(x.n_plans):
        pl = &x.plans[j]
        if not fin_ok[pl.fin] and completes(x.cnt, x.n_chosen, 0, 0, pl, x.topm):
            fin_ok[pl.fin] = 1
            found += 1
            if first_only:
                return found
    return found


cdef inline bint discard_ok(const BsParams *p, const PayCtx *x, int i) noexcept nogil:
    """Can the payment still be completed after discarding ``x.cand[i]``?"""
    cdef uint64_t cnt2 = x.cnt + pk_unit(p.mat[x.cand[i]])
    cdef int j
    for j in range(x.n_plans):
        if completes(cnt2, x.n_chosen + 1, x.suf[i + 1], x.nc - i - 1, &x.plans[j], x.topm):
            return 1
    return 0


cdef inline bint pays_now(uint64_t cnt, int size, const PayPlan *pl, int topm) noexcept nogil:
    """completes() with no more cards to add: do discards with Material
    counts ``cnt`` (packed; ``size`` cards) pay the plan exactly as they are?"""
    cdef int s, kp = pl.kp, r = pl.r
    if r >= 0 and r != topm and pk_get(cnt, r) == 0:
        return 0                 # Recycling needs a card of its Material
    s = 3 * kp - size            # then size = 3 kp - 2 s
    if s < 0 or s & 1:
        return 0
    s >>= 1
    if s > kp:
        return 0
    return pk_sum(pk_min(cnt, pl.Rp)) >= s


cdef inline bint payable_from(const int *have, int h, const int *R, int kp, int r, int topm) noexcept nogil:
    """completes() with nothing discarded yet: can some of the cards
    ``have`` (``h`` of them, by Material) pay ``R`` exactly?"""
    cdef int m, s, x, useful = 0, ach
    cdef bint need_r = r >= 0 and r != topm
    if kp > h:
        return 0
    for m in range(BS_KINDS):
        useful += have[m] if have[m] < R[m] else R[m]
    for s in range(kp + 1):
        x = 3 * kp - 2 * s
        if x > h:
            continue
        if need_r:
            if have[r] == 0 or x == 0:
                continue
            ach = x if R[r] > 0 else x - 1
        else:
            ach = x
        if ach > useful:
            ach = useful
        if ach >= s:
            return 1
    return 0


cdef int pay_options(const BsParams *p, const BsState *s, int card, const uint8_t *chosen, int n_chosen,
                     uint8_t *disc_ok, uint8_t *fin_ok, uint8_t *cand, int *n_cand,
                     bint first_only) noexcept nogil:
    """Which next choices of a payment for ``card`` lead to an exact payment,
    the discards ``chosen`` (ascending) made so far: ``disc_ok[i]`` for the
    candidate ``cand[i]`` (hand cards above the last chosen one), and
    ``fin_ok[k]`` for FINISH k. Returns how many were found (with
    ``first_only``, stops at the first)."""
    cdef PayCtx x
    cdef int i, found
    pay_context(p, s, card, chosen, n_chosen, &x)
    n_cand[0] = x.nc
    for i in range(x.nc):
        cand[i] = x.cand[i]
        disc_ok[i] = 0
    found = finish_options(&x, fin_ok, first_only)
    if found and first_only:
        return found
    for i in range(x.nc):
        if discard_ok(p, &x, i):
            disc_ok[i] = 1
            found += 1
            if first_only:
                return found
    return found


ctypedef struct BuildCtx:
    # what every card's payment at one build step shares
    int avail[BS_KINDS]      # unused Persistent Materials
    int have[BS_KINDS]       # the hand's Materials
    int hand_n
    int topm
    bint ready               # avail, have and topm filled


cdef inline void build_context(const BsParams *p, const BsState *s, BuildCtx *b) noexcept nogil:
    cdef int q = s.player, i, m
    cdef uint64_t w
    for m in range(BS_KINDS):
        b.have[m] = 0
    b.hand_n = count2(s.hand[q])
    for i in range(2):
        w = s.hand[q][i]
        while w:
            b.have[p.mat[64 * i + ctz64(w) + 1]] += 1
            w &= w - 1
    persistent_counts(p, s, q, b.avail)
    b.topm = pile_top_material(p, s, q)
    b.ready = 1


cdef bint can_build_slow(const BsParams *p, int card, const int *have_in, int h, const PayPlan *plans,
                         int n_plans, int topm) noexcept nogil:
    """Can ``h`` hand cards other than ``card`` (by Material ``have_in``)
    pay for it, given ``plans``, its ``pay_plans`` (the ways to use the
    Persistent Materials available and Recycling if still unused), and
    ``topm`` on top of the pile? (Some plan leaves icons that discards can
    pay exactly.) can_build_in reads the answers from a table filled by
    this."""
    cdef int have[BS_KINDS]
    cdef int i, m
    # Enough other cards for a three-for-one per icon always pay.
    if h >= 3 * p.cost_n[card]:
        return 1
    for m in range(BS_KINDS):
        have[m] = have_in[m]
    # A card of the right Material for every icon always pays (all singles).
    for i in range(p.cost_n[card]):
        have[p.cost[card][i]] -= 1
    for m in range(BS_KINDS):
        if have[m] < 0:
            break
    else:
        return 1
    for i in range(p.cost_n[card]):
        have[p.cost[card][i]] += 1
    for i in range(n_plans):
        if payable_from(have, h, plans[i].R, plans[i].kp, plans[i].r, topm):
            return 1
    return 0


cdef inline int cb_index(const BsParams *p, int card, const int *have, int h, const int *avail,
                         int recycled, int topm) noexcept nogil:
    """The bit of ``cb_bits`` answering can_build_slow (``have``: the hand's
    Materials, ``card`` included; ``h`` < 3 icons per cost). Only the
    Materials of the cost matter, each counted up to its number in the cost
    (can_build_slow compares the hand's and the Persistent counts with the
    icons left to pay and asks whether a Material to recycle is in hand),
    and of the top of the pile only which of them it shows."""
    cdef int j, m, nd, v, a, hv = 0, av = 0, mul = 1, ts = 0
    for j in range(p.cb_nk[card]):
        m = p.cb_kind[card][j]
        nd = p.cb_need[card][j]
        v = have[m] - p.cb_self[card][j]
        if v > nd:
            v = nd
        a = avail[m]
        if a > nd:
            a = nd
        hv += v * mul
        av += a * mul
        mul *= nd + 1
        if topm == m:
            ts = j + 1
    return p.cb_off[card] + (((h * mul + hv) * mul + av) * 2 + recycled) * (p.cb_nk[card] + 1) + ts


cdef inline bint can_build_in(const BsParams *p, const BsState *s, int card, BuildCtx *b) noexcept nogil:
    """Can the player to move pay for ``card`` at all? (can_build_slow, from
    its table.) ``b`` is filled on first need."""
    cdef int i
    if not b.ready:
        # enough other cards for a three-for-one per icon always pay
        if count2(s.hand[s.player]) - 1 >= 3 * p.cost_n[card]:
            return 1
        build_context(p, s, b)
    elif b.hand_n - 1 >= 3 * p.cost_n[card]:
        return 1
    i = cb_index(p, card, b.have, b.hand_n - 1, b.avail, s.recycled, b.topm)
    return (p.cb_bits[i >> 3] >> (i & 7)) & 1


cdef int cost_code(BsParams *p, int c) noexcept nogil:
    """Fill the cb_ fields of card ``c`` but its table offset; returns its
    cost as a number (counts by Material in base 4)."""
    cdef int m, j, k, nk = 0, code = 0
    for m in range(BS_KINDS - 1, -1, -1):
        k = 0
        for j in range(p.cost_n[c]):
            k += p.cost[c][j] == m
        code = code * 4 + k
    for m in range(BS_KINDS):
        k = 0
        for j in range(p.cost_n[c]):
            k += p.cost[c][j] == m
        if k:
            p.cb_kind[c][nk] = m
            p.cb_need[c][nk] = k
            p.cb_self[c][nk] = p.mat[c] == m
            nk += 1
    p.cb_nk[c] = nk
    for j in range(nk, 3):
        p.cb_kind[c][j] = -1
        p.cb_need[c][j] = 0
        p.cb_self[c][j] = 0
    return code


cdef int fill_plan_table(BsParams *p, int *n_plans_out) noexcept nogil:
    """Lay out and fill pp_index and pp_plans (when allocated, else only
    count): returns the number of pp_index entries, ``n_plans_out`` the
    number of plans."""
    cdef int code[BS_MAX_CARDS + 1]
    cdef int avail[BS_KINDS]
    cdef PayPlan buf[64]
    cdef int c, d, j, m, nk, mul, rec, av, rest, n, n_index = 0, n_plans = 0
    for c in range(1, p.n_cards + 1):
        code[c] = cost_code(p, c)
        for d in range(1, c):
            if code[d] == code[c]:
                p.pp_base[c][0] = p.pp_base[d][0]
                p.pp_base[c][1] = p.pp_base[d][1]
                break
        else:
            nk = p.cb_nk[c]
            mul = 1
            for j in range(nk):
                mul *= p.cb_need[c][j] + 1
            for rec in range(2):
                p.pp_base[c][rec] = n_index
                for av in range(mul):
                    for m in range(BS_KINDS):
                        avail[m] = 0
                    rest = av
                    for j in range(nk):
                        avail[p.cb_kind[c][j]] = rest % (p.cb_need[c][j] + 1)
                        rest //= p.cb_need[c][j] + 1
                    n = fill_pay_plans(p, rec, c, avail, buf)
                    if p.pp_index != NULL:
                        p.pp_index[2 * n_index] = n_plans
                        p.pp_index[2 * n_index + 1] = n
                        for j in range(n):
                            p.pp_plans[n_plans + j] = buf[j]
                    n_index += 1
                    n_plans += n
    n_plans_out[0] = n_plans
    return n_index


cdef int fill_build_table(BsParams *p) noexcept nogil:
    """Lay out and fill ``cb_bits`` (already allocated when ``p.cb_bits`` is
    not NULL); returns its size in bits."""
    cdef int code[BS_MAX_CARDS + 1]
    cdef int have[BS_KINDS]
    cdef int avail[BS_KINDS]
    cdef PayPlan buf[64]
    cdef const PayPlan *plans
    cdef int c, d, j, m, k, nk, mul, total = 0, size, h, hv, av, rec, ts, rest, i, n_plans
    for c in range(1, p.n_cards + 1):
        code[c] = cost_code(p, c)
        nk = p.cb_nk[c]
        mul = 1
        for j in range(nk):
            mul *= p.cb_need[c][j] + 1
        for d in range(1, c):
            if code[d] == code[c]:
                p.cb_off[c] = p.cb_off[d]
                break
        else:
            p.cb_off[c] = total
            size = 3 * p.cost_n[c] * mul * mul * 2 * (nk + 1)
            total += size
            if p.cb_bits == NULL:
                continue
            for rec in range(2):
                for av in range(mul):
                    for m in range(BS_KINDS):
                        avail[m] = 0
                    rest = av
                    for j in range(nk):
                        avail[p.cb_kind[c][j]] = rest % (p.cb_need[c][j] + 1)
                        rest //= p.cb_need[c][j] + 1
                    # the plans, computed once for every hand
                    n_plans = fill_pay_plans(p, rec, c, avail, buf)
                    plans = buf
                    for h in range(3 * p.cost_n[c]):
                        for hv in range(mul):
                            for m in range(BS_KINDS):
                                have[m] = 0
                            rest = hv
                            for j in range(nk):
                                have[p.cb_kind[c][j]] = rest % (p.cb_need[c][j] + 1)
                                rest //= p.cb_need[c][j] + 1
                            for ts in range(nk + 1):
                                m = p.cb_kind[c][ts - 1] if ts else -1
                                if can_build_slow(p, c, have, h, plans, n_plans, m):
                                    for j in range(nk):
                                        have[p.cb_kind[c][j]] += p.cb_self[c][j]
                                    i = cb_index(p, c, have, h, avail, rec, m)
                                    p.cb_bits[i >> 3] |= <uint8_t>(1 << (i & 7))
                                    for j in range(nk):
                                        have[p.cb_kind[c][j]] -= p.cb_self[c][j]
    return total


cdef inline int top_materials(const BsParams *p, const BsState *s) noexcept nogil:
    """Bit mask of the Materials among the cards being discarded."""
    cdef int mask = 0, i
    for i in range(s.paying_n):
        mask |= 1 << p.mat[s.paying[i]]
    return mask


cdef void complete_build(const BsParams *p, BsState *s, int topm) noexcept nogil:
    cdef int q = s.player, m, k, i, c, l, top = 0, n
    cdef uint8_t built[BS_MAX_CARDS]
    cdef uint64_t hw_set[2]
    # Persistent Materials: built 1-mile cards by number, then Landmarks by number
    hw_set[0] = 0
    hw_set[1] = 0
    for i in range(s.hw_n[q]):
        add(hw_set, s.hw[q][i])
    n = cards_of(hw_set, built)
    for m in range(BS_KINDS):
        k = p.fin_counts[s.fin][m]
        for i in range(n):
            if k == 0:
                break
            c = built[i]
            if p.persist[c] == m and not has(s.used_cards, c):
                add(s.used_cards, c)
                k -= 1
        for l in range(1, p.n_landmarks + 1):
            if k == 0:
                break
            if p.lm_kind[l] != 2 or p.lm_arg[l] != m or (s.used_lms >> (l - 1)) & 1:
                continue
            for i in range(s.hw_n[q]):
                if s.mark_lm[q][i] == l:
                    s.used_lms |= ONE << (l - 1)
                    k -= 1
                    break
    if p.fin_recycle[s.fin]:
        s.recycled = 1
    if s.paying_n:
        for i in range(s.paying_n):
            if p.mat[s.paying[i]] == topm:
                top = s.paying[i]
                break
        for i in range(s.paying_n):
            c = s.paying[i]
            if c != top:
                s.pile[q][s.pile_n[q]] = <uint8_t>c
                s.pile_n[q] += 1
            drop(s.hand[q], c)
        s.pile[q][s.pile_n[q]] = <uint8_t>top
        s.pile_n[q] += 1
    drop(s.hand[q], s.building)
    n = s.hw_n[q]
    if s.end_left == 1:
        memmove(&s.hw[q][1], &s.hw[q][0], n)
        memmove(&s.mark_lm[q][1], &s.mark_lm[q][0], n)
        memmove(&s.mark_type[q][1], &s.mark_type[q][0], n)
        s.hw[q][0] = s.building
        s.mark_lm[q][0] = 0
        s.mark_type[q][0] = 0
    else:
        s.hw[q][n] = s.building
        s.mark_lm[q][n] = 0
        s.mark_type[q][n] = 0
    s.hw_n[q] += 1
    s.building = 0
    s.paying_n = 0
    s.fin = -1
    s.end_left = -1
    s.step = BS_BUILD


# ----- Stretches and Landmarks ----------------------------------------------------------
cdef inline int icons(const BsParams *p, int card, int t) noexcept nogil:
    return (p.sc[card][0] == t) + (p.sc[card][1] == t)


cdef int placements(const BsParams *p, const BsState *s, int landmark, int *out) noexcept nogil:
    """PLACE actions for ``landmark`` in the Highway of the player to move,
    ascending."""
    cdef int q = s.player, t, i, j, k, n = 0, ic
    cdef bint used
    for t in range(BS_KINDS):
        if not (p.lm_mask[landmark] >> t) & 1:
            continue
        i = 0
        while i < s.hw_n[q]:
            if icons(p, s.hw[q][i], t) == 0:
                i += 1
                continue
            j = i
            ic = 0
            used = 0
            while j < s.hw_n[q] and icons(p, s.hw[q][j], t):
                ic += icons(p, s.hw[q][j], t)
                if s.mark_lm[q][j] and s.mark_type[q][j] == t:
                    used = 1
                j += 1
            if ic >= 3 and not used:
                for k in range(i, j):
                    if s.mark_lm[q][k] == 0:
                        out[n] = p.place_base + t * p.max_hw + k
                        n += 1
            i = j
    return n


cdef inline int claimable_scenery(const BsParams *p, const BsState *s) noexcept nogil:
    """Bit mask of the Scenery types through which the player to move could
    place a Landmark now (:func:`claimable_of` for that seat)."""
    return claimable_of(p, s, s.player)


cdef int claimable_of(const BsParams *p, const BsState *s, int q) noexcept nogil:
    """Bit mask of the Scenery types through which seat ``q`` could place a
    Landmark on its Highway: t is set when an unused Stretch of t has a card
    holding no Landmark (the test ``placements`` makes, for every t at once,
    in one pass along the Highway)."""
    cdef int t, i, c, l, mask = 0, n = s.hw_n[q], here, ending
    cdef int ic[BS_KINDS]
    cdef int used = 0, free_card = 0, open_ = 0
    for t in range(BS_KINDS):
        ic[t] = 0
    for i in range(n + 1):
        if i < n:
            c = s.hw[q][i]
            here = (1 << p.sc[c][0]) | (1 << p.sc[c][1])
        else:
            here = 0
        ending = open_ & ~here
        while ending:
            t = ctz64(ending)
            ending &= ending - 1
            if ic[t] >= 3 and not (used >> t) & 1 and (free_card >> t) & 1:
                mask |= 1 << t
            ic[t] = 0
        used &= here
        free_card &= here
        open_ = here
        if i < n:
            ic[p.sc[c][0]] += 1
            ic[p.sc[c][1]] += 1
            l = s.mark_lm[q][i]
            if l:
                used |= 1 << s.mark_type[q][i]
            else:
                free_card |= here
    return mask


cdef int bs_score(const BsParams *p, const BsState *s, int q) noexcept nogil:
    """The points of seat ``q`` (scoring.score_highway)."""
    cdef int n = s.hw_n[q], i, t, c, l, total = 0, kind, arg, pts
    cdef int eff[BS_MAX_HW]
    cdef int type_icons[BS_KINDS]
    cdef int has_stretch[BS_KINDS]
    cdef int mats[BS_KINDS]
    cdef int n_stretch = 0, longest = 0, landmarks = 0, one_mile = 0, doubles = 0, types = 0
    cdef int run_icons[BS_KINDS]
    cdef int run_miles[BS_KINDS]
    cdef int here, ending, open_ = 0
    for t in range(BS_KINDS):
        type_icons[t] = 0
        has_stretch[t] = 0
        mats[t] = 0
    for i in range(n):
        c = s.hw[q][i]
        l = s.mark_lm[q][i]
        eff[i] = p.miles[c] + (p.lm_arg[l] if l and p.lm_kind[l] == 1 else 0)
        type_icons[p.sc[c][0]] += 1
        type_icons[p.sc[c][1]] += 1
        mats[p.mat[c]] += 1
        if p.sc[c][0] == p.sc[c][1]:
            doubles += 1
        if eff[i] == 1:
            one_mile += 1
        if l:
            landmarks += 1
            if p.lm_kind[l] == 0:
                total += p.lm_arg[l]
    for t in range(BS_KINDS):
        if type_icons[t]:
            types += 1
        run_icons[t] = 0
        run_miles[t] = 0
    # the Stretches, every type in one pass: a run of t ends where a card
    # lacks t (or at the end of the Highway)
    for i in range(n + 1):
        if i < n:
            c = s.hw[q][i]
            here = (1 << p.sc[c][0]) | (1 << p.sc[c][1])
        else:
            here = 0
        ending = open_ & ~here
        while ending:
            t = ctz64(ending)
            ending &= ending - 1
            if run_icons[t] >= 3:
                total += run_miles[t]
                n_stretch += 1
                has_stretch[t] = 1
                if run_miles[t] > longest:
                    longest = run_miles[t]
            run_icons[t] = 0
            run_miles[t] = 0
        open_ = here
        if i < n:
            run_icons[p.sc[c][0]] += 1
            run_icons[p.sc[c][1]] += 1
            run_miles[p.sc[c][0]] += eff[i]
            if p.sc[c][1] != p.sc[c][0]:
                run_miles[p.sc[c][1]] += eff[i]
    if landmarks >= 5:
        total += 8
    elif landmarks >= 3:
        total += 5
    elif landmarks >= 1:
        total += 3
    for i in range(n):
        c = s.hw[q][i]
        kind = p.bonus_kind[c]
        if kind < 0:
            continue
        pts = p.bonus_pts[c]
        arg = p.bonus_arg[c]
        if kind == 0:
            total += pts * types
        elif kind == 1:
            total += pts * type_icons[arg]
        elif kind == 2:
            total += pts * n_stretch
        elif kind == 3:
            total += pts * landmarks
        elif kind == 4:
            total += pts * one_mile
        elif kind == 5:
            total += pts * mats[arg]
        elif kind == 6:
            total += pts * doubles
        elif kind == 7:
            total += pts if longest >= arg else 0
        elif kind == 8:
            total += pts if has_stretch[arg] else 0
        elif kind == 9:
            total += pts * (n // arg)
    return total


cdef void bs_returns(const void *params, const void *st, double *out) noexcept nogil:
    """Win shares at the end (ties split), 0 before."""
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    cdef int pts[BS_MAX_PLAYERS]
    cdef int i, best, winners = 0
    if s.step != BS_OVER:
        for i in range(p.players):
            out[i] = 0.0
        return
    for i in range(p.players):
        pts[i] = bs_score(p, s, i)
    best = pts[0]
    for i in range(1, p.players):
        if pts[i] > best:
            best = pts[i]
    for i in range(p.players):
        if pts[i] == best:
            winners += 1
    for i in range(p.players):
        out[i] = 1.0 / winners if pts[i] == best else 0.0


# ----- legal actions and applying them --------------------------------------------------
cdef int bs_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef uint8_t disc_ok[BS_MAX_CARDS]
    cdef uint8_t fin_ok[BS_N_FINISH]
    cdef uint8_t cand[BS_MAX_CARDS]
    cdef int place[5 * BS_MAX_HW]
    cdef BuildCtx bctx
    cdef int n = 0, k, i, q = s.player, nc, mask
    cdef uint64_t row
    if is_chance(s):
        return bs_chance_outcomes(params, st, out, NULL)
    if s.step == BS_TAKE:
        k = cards_of(s.depot, buf)
        for i in range(k):
            out[n] = buf[i] - 1
            n += 1
        if s.pos < p.deck_size:
            out[n] = p.draw
            n += 1
        return n
    if s.step == BS_BUILD:
        bctx.ready = 0
        k = cards_of(s.hand[q], buf)
        for i in range(k):
            if can_build_in(p, s, buf[i], &bctx):
                out[n] = p.build_base + buf[i] - 1
                n += 1
        if not s.claimed and s.row:
            mask = claimable_scenery(p, s)
            row = s.row
            while row and mask:
                i = ctz64(row) + 1
                row &= row - 1
                if p.lm_mask[i] & mask:
                    out[n] = p.claim_base + i - 1
                    n += 1
        out[n] = p.end_turn
        return n + 1
    if s.step == BS_END:
        out[0] = p.left
        out[1] = p.right
        return 2
    if s.step == BS_PAY:
        pay_options(p, s, s.building, s.paying, s.paying_n, disc_ok, fin_ok, cand, &nc, 0)
        for i in range(nc):
            if disc_ok[i]:
                out[n] = p.discard_base + cand[i] - 1
                n += 1
        for i in range(BS_N_FINISH):
            if fin_ok[i]:
                out[n] = p.finish_base + i
                n += 1
        return n
    if s.step == BS_TOP:
        mask = top_materials(p, s)
        for i in range(BS_KINDS):
            if (mask >> i) & 1:
                out[n] = p.top_base + i
                n += 1
        return n
    if s.step == BS_PLACE:
        return placements(p, s, s.claiming, out)
    return 0


cdef inline void deal_card(const BsParams *p, BsState *s, int i) noexcept nogil:
    """Deal the deck's card at ``order[i]`` (i >= pos): it swaps places with
    the top face-down card and goes where the chance step sends it."""
    cdef uint8_t c = s.order[i]
    s.order[i] = s.order[s.pos]
    s.order[s.pos] = c
    s.pos += 1
    if s.step == BS_DEAL:
        if s.pos - 1 < 2 * p.players:
            add(s.hand[(s.pos - 1) % p.players], c)
        else:
            add(s.depot, c)
    elif s.step == BS_DRAW:
        add(s.hand[s.player], c)
        took(s)
    else:
        add(s.depot, c)
        after_refill(p, s)


cdef void bs_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef const BsParams *p = <const BsParams *>params
    cdef BsState *s = <BsState *>st
    cdef int i, c, k, t, pos, q = s.player, mask, n
    cdef uint8_t tmp
    if is_chance(s):
        if deals_landmark(p, s):
            c = action - p.landmark_base + 1
            i = s.lpos
            while s.lorder[i] != c:
                i += 1
            tmp = s.lorder[s.lpos]
            s.lorder[s.lpos] = s.lorder[i]
            s.lorder[i] = tmp
            s.lpos += 1
            s.row |= ONE << (c - 1)
            if s.step == BS_DEAL:
                if popcount64(s.row) == 5 or s.lpos == p.n_landmarks:
                    s.player = 0
                    new_turn(s)
                    s.step = BS_TAKE
            else:
                end_turn(p, s)
            return
        c = action - p.card_base + 1
        i = s.pos
        while s.order[i] != c:
            i += 1
        deal_card(p, s, i)
        return
    if s.step == BS_TAKE:
        if action == p.draw:
            s.step = BS_DRAW
        else:
            drop(s.depot, action + 1)
            add(s.hand[q], action + 1)
            took(s)
    elif s.step == BS_BUILD:
        if action == p.end_turn:
            end_turn(p, s)
        elif action >= p.claim_base:
            s.claiming = <uint8_t>(action - p.claim_base + 1)
            s.step = BS_PLACE
        else:
            s.building = <uint8_t>(action - p.build_base + 1)
            if s.hw_n[q] >= 2:
                s.end_left = -1
                s.step = BS_END
            else:
                s.end_left = 0
                s.step = BS_PAY
    elif s.step == BS_END:
        s.end_left = 1 if action == p.left else 0
        s.step = BS_PAY
    elif s.step == BS_PAY:
        if action < p.finish_base:
            s.paying[s.paying_n] = <uint8_t>(action - p.discard_base + 1)
            s.paying_n += 1
        else:
            s.fin = <int8_t>(action - p.finish_base)
            mask = top_materials(p, s)
            n = popcount64(mask)
            if n > 1:
                s.step = BS_TOP
            else:
                complete_build(p, s, ctz64(mask) if mask else -1)
    elif s.step == BS_TOP:
        complete_build(p, s, action - p.top_base)
    elif s.step == BS_PLACE:
        k = action - p.place_base
        t = k // p.max_hw
        pos = k - t * p.max_hw
        s.mark_lm[q][pos] = s.claiming
        s.mark_type[q][pos] = <int8_t>t
        s.row &= ~(ONE << (s.claiming - 1))
        s.claiming = 0
        s.claimed = 1
        if s.lpos < p.n_landmarks:
            s.step = BS_REVEAL
        else:
            end_turn(p, s)


# ----- hidden information ---------------------------------------------------------------
cdef int BS_REDEAL_TRIES = 64   # as reference.REDEAL_TRIES


cdef void bs_determinize(const void *params, void *st, int player, uint64_t *rng) noexcept nogil:
    """Re-deal what ``player`` cannot see, as reference.resample does: the
    other hands and piles below their tops and the deck from one ascending,
    shuffled list (keeping a card another player is building in their hand,
    redone until they can pay for it, at most BS_REDEAL_TRIES times, else
    the cards stay as they were); then the Landmark deck."""
    cdef const BsParams *p = <const BsParams *>params
    cdef BsState *s = <BsState *>st
    cdef BsState before = s[0]
    cdef uint64_t m[2]
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef uint64_t lm = 0
    cdef int n, k, q, i, size, attempt
    cdef int mover = s.player
    cdef int pending = s.building if (mover != player and s.building) else 0
    cdef bint dealt = 0
    cdef BuildCtx bctx
    m[0] = 0
    m[1] = 0
    for q in range(p.players):
        if q != player:
            m[0] |= s.hand[q][0]
            m[1] |= s.hand[q][1]
            for i in range(s.pile_n[q] - 1):
                add(m, s.pile[q][i])
    for i in range(s.pos, p.deck_size):
        add(m, s.order[i])
    if pending:
        drop(m, pending)
    for attempt in range(BS_REDEAL_TRIES):
        n = cards_of(m, buf)
        shuffle_u8(rng, buf, n)
        k = 0
        for q in range(p.players):
            if q == player:
                continue
            size = count2(before.hand[q]) - (1 if (q == mover and pending) else 0)
            s.hand[q][0] = 0
            s.hand[q][1] = 0
            for i in range(size):
                add(s.hand[q], buf[k])
                k += 1
            for i in range(s.pile_n[q] - 1):
                s.pile[q][i] = buf[k]
                k += 1
        for i in range(s.pos, p.deck_size):
            s.order[i] = buf[k]
            k += 1
        if not pending:
            dealt = 1
            break
        add(s.hand[mover], pending)
        bctx.ready = 0
        if can_build_in(p, s, pending, &bctx):
            dealt = 1
            break
    if not dealt:
        s[0] = before
    # The dealt part of the order records who got what (and, once the hands
    # are re-dealt, no longer matches them): rewrite it as the deck's cards
    # off the stack in ascending order, so it tells nothing.
    m[0] = 0
    m[1] = 0
    for i in range(p.deck_size):
        add(m, before.order[i])
    for i in range(s.pos, p.deck_size):
        drop(m, s.order[i])
    n = cards_of(m, buf)
    for i in range(n):
        s.order[i] = buf[i]
    # Past the cards in use, the payment and pile buffers keep old cards
    # (another player's last payment, say): cleared, they keep nothing.
    for i in range(s.paying_n, BS_MAX_PAY):
        s.paying[i] = 0
    for q in range(p.players):
        for i in range(s.pile_n[q], BS_MAX_CARDS):
            s.pile[q][i] = 0
    for i in range(s.lpos, p.n_landmarks):
        lm |= ONE << (s.lorder[i] - 1)
    n = 0
    while lm:
        buf[n] = <uint8_t>(ctz64(lm) + 1)
        lm &= lm - 1
        n += 1
    shuffle_u8(rng, buf, n)
    for i in range(n):
        s.lorder[s.lpos + i] = buf[i]


cdef int bs_action_observation(const void *params, const void *st, int action, int player) noexcept nogil:
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    if s.step == BS_DEAL and not deals_landmark(p, s):
        if s.pos < 2 * p.players and s.pos % p.players != player:
            return GAME_HIDDEN
    if s.step == BS_DRAW and s.player != player:
        return GAME_HIDDEN
    if s.step == BS_PAY and s.player != player and action < p.finish_base:
        return GAME_HIDDEN
    return action


cdef uint64_t bs_hash(const void *params, const void *st) noexcept nogil:
    """The struct's bytes mixed word by word with SplitMix64's finaliser."""
    cdef const uint64_t *w = <const uint64_t *>st
    cdef size_t i, n = sizeof(BsState) // 8
    cdef uint64_t h = 0x4249475355520000ULL, z
    cdef const uint8_t *tail = <const uint8_t *>st
    for i in range(n):
        z = h ^ w[i]
        h = splitmix64_next(&z)
    for i in range(n * 8, sizeof(BsState)):
        z = h ^ tail[i]
        h = splitmix64_next(&z)
    return h


cdef int pay_step(const BsParams *p, const PayCtx *x, uint64_t *rng, int *cand_index) noexcept nogil:
    """The playout policy's next paying action: a FINISH drawn uniformly when
    the discards chosen can pay, else a discard drawn uniformly from those
    that keep the payment possible (by rejection); ``cand_index`` gets the
    discard's index in ``x.cand`` (-1 for a FINISH)."""
    cdef int fins[64]
    cdef uint64_t refused[2]         # candidates found not to fit, by index
    cdef int n = 0, i, j
    cdef const PayPlan *pl
    # the distinct FINISHes that complete the payment now
    for i in range(x.n_plans):
        pl = &x.plans[i]
        if pays_now(x.cnt, x.n_chosen, pl, x.topm):
            for j in range(n):
                if fins[j] == pl.fin:
                    break
            else:
                fins[n] = pl.fin
                n += 1
    if n:
        cand_index[0] = -1
        return p.finish_base + fins[rng_below_mul(rng, n)]
    refused[0] = 0
    refused[1] = 0
    while True:
        i = rng_below_mul(rng, x.nc)
        if (refused[i >> 6] >> (i & 63)) & 1:
            continue
        if discard_ok(p, x, i):
            cand_index[0] = i
            return p.discard_base + x.cand[i] - 1
        refused[i >> 6] |= ONE << (i & 63)


cdef inline void pay_context_discard(const BsParams *p, PayCtx *x, int i) noexcept nogil:
    """``x`` after discarding ``x.cand[i]``: the plans stay, the candidates
    are the cards above it."""
    x.cnt += pk_unit(p.mat[x.cand[i]])
    x.n_chosen += 1
    x.nc -= i + 1
    memmove(x.cand, &x.cand[i + 1], x.nc)
    memmove(x.suf, &x.suf[i + 1], (x.nc + 1) * sizeof(uint64_t))


cdef int bs_rollout_action(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    """The playout policy. Build step: claim a Landmark when one can be
    placed (chance pol_claim/256), else build a payable card, tried in a
    random order (chance pol_build/256), else end the turn. Paying: finish
    as soon as the chosen discards can pay (uniformly over the ways to
    finish), else discard a card drawn uniformly from those that keep the
    payment possible (by rejection: draw among the candidates until one
    fits). Every other choice uniformly at random over the legal ones."""
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    cdef int acts[BS_MAX_ACTIONS]
    cdef int place[5 * BS_MAX_HW]
    cdef int claims[BS_MAX_LANDMARKS]
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef uint8_t fin_ok[BS_N_FINISH]
    cdef PayCtx x
    cdef BuildCtx bctx
    cdef int n, i, k, start, n_claim = 0, mask
    cdef uint64_t row, m[2]
    if s.step == BS_BUILD:
        if not s.claimed and s.row and rng_below_mul(rng, 256) < p.pol_claim:
            mask = claimable_scenery(p, s)
            row = s.row
            while row and mask:
                i = ctz64(row) + 1
                row &= row - 1
                if p.lm_mask[i] & mask:
                    claims[n_claim] = p.claim_base + i - 1
                    n_claim += 1
            if n_claim:
                return claims[rng_below_mul(rng, n_claim)]
        n = cards_of(s.hand[s.player], buf)
        if n and rng_below_mul(rng, 256) < p.pol_build:
            start = rng_below_mul(rng, n)
            bctx.ready = 0
            for k in range(n):
                i = buf[start]
                if can_build_in(p, s, i, &bctx):
                    return p.build_base + i - 1
                start += 1
                if start == n:
                    start = 0
        return p.end_turn
    if s.step == BS_TAKE:
        # the Depot's cards ascending, then the deck
        n = count2(s.depot)
        k = rng_below_mul(rng, n + (1 if s.pos < p.deck_size else 0))
        if k == n:
            return p.draw
        m[0] = s.depot[0]
        m[1] = s.depot[1]
        for i in range(k):
            if m[0]:
                m[0] &= m[0] - 1
            else:
                m[1] &= m[1] - 1
        return (ctz64(m[0]) if m[0] else 64 + ctz64(m[1]))
    if s.step == BS_PAY:
        pay_context(p, s, s.building, s.paying, s.paying_n, &x)
        return pay_step(p, &x, rng, &i)
    if s.step == BS_END:
        return p.left if rng_below_mul(rng, 2) == 0 else p.right
    if s.step == BS_TOP:
        mask = top_materials(p, s)
        k = rng_below_mul(rng, popcount64(mask))
        for i in range(k):
            mask &= mask - 1
        return p.top_base + ctz64(mask)
    n = bs_legal_actions(params, st, acts)
    return acts[rng_below_mul(rng, n)]


cdef void bs_playout(const void *params, void *st, uint64_t *rng, unsigned int policy_seats) noexcept nogil:
    """Play to the end in one call: chance by bs_sample_chance, the seats in
    ``policy_seats`` by bs_rollout_action, the others uniformly over
    bs_legal_actions (the same moves as the loop a search would make)."""
    cdef const BsParams *p = <const BsParams *>params
    cdef BsState *s = <BsState *>st
    cdef int acts[BS_MAX_ACTIONS]
    cdef PayCtx x
    cdef bint x_ready = 0           # x describes the payment under way
    cdef int a, n, i
    while s.step != BS_OVER:
        if is_chance(s):
            if not deals_landmark(p, s):
                # bs_sample_chance's draw, dealt by its place in the deck
                deal_card(p, s, s.pos + rng_below_mul(rng, p.deck_size - s.pos))
                continue
            a = bs_sample_chance(p, s, rng)
        elif (policy_seats >> s.player) & 1:
            if s.step == BS_PAY:
                # as bs_rollout_action, with the free-supply plans kept
                # from one discard to the next
                if not x_ready:
                    pay_context(p, s, s.building, s.paying, s.paying_n, &x)
                a = pay_step(p, &x, rng, &i)
                x_ready = i >= 0
                if x_ready:
                    pay_context_discard(p, &x, i)
            else:
                a = bs_rollout_action(p, s, rng)
        else:
            n = bs_legal_actions(p, s, acts)
            a = acts[rng_below(rng, n)] if n > 1 else acts[0]
            x_ready = 0
        bs_apply_action(p, s, a)


cdef int bs_is_legal(const BsParams *p, const BsState *s, int action) noexcept nogil:
    cdef int buf[BS_MAX_ACTIONS]
    cdef int n = bs_legal_actions(p, s, buf), i
    for i in range(n):
        if buf[i] == action:
            return 1
    return 0


# ----- evaluation features (eval_api.h) -------------------------------------------
# The features a learned evaluation reads (solvers.learn, mcts.pyx), for seat
# q: a block for q's Highway, a block for the other seats' (their mean), the
# same two blocks scaled by the game's progress, and a few globals. Only what
# q may see goes in: every Highway and its Landmarks, the Landmark row, hand
# sizes, turns taken, the deck's size, and q's own hand; never another hand,
# a pile below its top, another seat's payment or either deck's order
# (docs/learning.md lists the features). Bump BS_FEATURES_VERSION whenever a
# feature's meaning changes.
cdef enum:
    BS_FEATURES_VERSION = 1
    BS_BLOCK = 8             # features per block (see bs_features)
    BS_NUM_FEATURES = 4 * BS_BLOCK + 6

BS_FEATURE_NAMES = tuple(
    [f"{who}{scaled}:{name}" for scaled in ("", "*progress") for who in ("own", "others")
     for name in ("points", "cards", "landmarks", "claimable", "growing_miles", "near",
                  "persistent", "hand_size")]
    + ["progress", "to_move", "turns_left", "hand_gain", "hand_miles", "bias"])


cdef inline int eff_miles(const BsParams *p, const BsState *s, int r, int i) noexcept nogil:
    """The miles card ``i`` of seat ``r``'s Highway counts (its tag plus a
    mile_tag Landmark above it), as bs_score counts them."""
    cdef int l = s.mark_lm[r][i]
    return p.miles[s.hw[r][i]] + (p.lm_arg[l] if l and p.lm_kind[l] == 1 else 0)


cdef int end_runs(const BsParams *p, const BsState *s, int r, int *l_ic, int *l_mi,
                  int *r_ic, int *r_mi) noexcept nogil:
    """Per Scenery type, the icons and miles of the run touching the left
    end of seat ``r``'s Highway and of the one touching the right end (0
    where the end card lacks the type). Returns the mask of the types whose
    run spans the whole Highway (then both ends touch the same run)."""
    cdef int n = s.hw_n[r], t, i, k, whole = 0
    for t in range(BS_KINDS):
        l_ic[t] = 0
        l_mi[t] = 0
        r_ic[t] = 0
        r_mi[t] = 0
        i = 0
        while i < n:
            k = icons(p, s.hw[r][i], t)
            if not k:
                break
            l_ic[t] += k
            l_mi[t] += eff_miles(p, s, r, i)
            i += 1
        if n and i == n:
            whole |= 1 << t
        i = n - 1
        while i >= 0:
            k = icons(p, s.hw[r][i], t)
            if not k:
                break
            r_ic[t] += k
            r_mi[t] += eff_miles(p, s, r, i)
            i -= 1
    return whole


cdef void seat_block(const BsParams *p, const BsState *s, int r, int row_types, float *blk) noexcept nogil:
    """Adds seat ``r``'s block (the order of BS_FEATURE_NAMES) to ``blk``:
    points so far, Highway cards, Landmarks, the Scenery types through which
    a Landmark of the row could be claimed now, the miles of the Stretches
    touching an end (they can still grow), the runs touching an end one icon
    short of a Stretch, Persistent Materials (Landmarks' included), hand
    size. Everything here is public."""
    cdef int n = s.hw_n[r], i, t, c, l, whole
    cdef int landmarks = 0, persistent = 0, growing = 0, near = 0
    cdef int claim = claimable_of(p, s, r)
    cdef int l_ic[BS_KINDS]
    cdef int l_mi[BS_KINDS]
    cdef int r_ic[BS_KINDS]
    cdef int r_mi[BS_KINDS]
    # Landmarks and Persistent Materials (a Landmark may supply one)
    for i in range(n):
        c = s.hw[r][i]
        if p.persist[c] >= 0:
            persistent += 1
        l = s.mark_lm[r][i]
        if l:
            landmarks += 1
            if p.lm_kind[l] == 2:
                persistent += 1
    whole = end_runs(p, s, r, l_ic, l_mi, r_ic, r_mi)
    for t in range(BS_KINDS):
        if l_ic[t] >= 3:
            growing += l_mi[t]
        elif l_ic[t] == 2:
            near += 1
        if (whole >> t) & 1:
            continue            # the right end's run is the left end's
        if r_ic[t] >= 3:
            growing += r_mi[t]
        elif r_ic[t] == 2:
            near += 1
    blk[0] += bs_score(p, s, r)
    blk[1] += n
    blk[2] += landmarks
    blk[3] += popcount64(<uint64_t>(claim & row_types))
    blk[4] += growing
    blk[5] += near
    blk[6] += persistent
    blk[7] += count2(s.hand[r])


cdef int hand_gain(const BsParams *p, const BsState *s, int q) noexcept nogil:
    """The Stretch points seat ``q``'s hand cards would add at once, each
    built alone at the better end of ``q``'s Highway (costs ignored): per
    type a card shows, its miles when the run it joins reaches three icons,
    plus the run's own miles when that run was not a Stretch yet."""
    cdef int l_ic[BS_KINDS]
    cdef int l_mi[BS_KINDS]
    cdef int r_ic[BS_KINDS]
    cdef int r_mi[BS_KINDS]
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef int n, i, c, t, k, gl, gr, total = 0
    if s.hw_n[q] == 0:
        return 0            # one card makes no Stretch (at most two icons)
    end_runs(p, s, q, l_ic, l_mi, r_ic, r_mi)
    n = cards_of(s.hand[q], buf)
    for i in range(n):
        c = buf[i]
        gl = 0
        gr = 0
        for t in range(BS_KINDS):
            k = icons(p, c, t)
            if not k:
                continue
            if l_ic[t] + k >= 3:
                gl += p.miles[c] + (l_mi[t] if l_ic[t] < 3 else 0)
            if r_ic[t] + k >= 3:
                gr += p.miles[c] + (r_mi[t] if r_ic[t] < 3 else 0)
        total += gl if gl > gr else gr
    return total


cdef void bs_features(const void *params, const void *st, int seat, float *out) noexcept nogil:
    """``FeatureDef.features`` for Big Sur (the layout of BS_FEATURE_NAMES):
    seat's block, the others' mean block (seat_block), both scaled by the
    progress, then progress (Highway cards dealt from the deck after the
    setup, out of all), whether seat is in the middle of its turn, seat's
    turns left, hand_gain, the mile tags in seat's hand, and a constant 1."""
    cdef const BsParams *p = <const BsParams *>params
    cdef const BsState *s = <const BsState *>st
    cdef float blk[2][BS_BLOCK]
    cdef int r, j, row_types = 0, others = 0, miles = 0, n, i
    cdef uint64_t m = s.row
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef float prog
    memset(blk, 0, sizeof(blk))
    while m:
        row_types |= p.lm_mask[ctz64(m) + 1]
        m &= m - 1
    for r in range(p.players):
        if r == seat:
            seat_block(p, s, r, row_types, blk[0])
        else:
            seat_block(p, s, r, row_types, blk[1])
            others += 1
    if others > 1:
        for j in range(BS_BLOCK):
            blk[1][j] /= others
    n = p.deck_size - p.setup_cards
    prog = (s.pos - p.setup_cards) / <float>n if n > 0 else 1.0
    if prog < 0:
        prog = 0
    if prog > 1:
        prog = 1
    for j in range(BS_BLOCK):
        out[j] = blk[0][j]
        out[BS_BLOCK + j] = blk[1][j]
        out[2 * BS_BLOCK + j] = blk[0][j] * prog
        out[3 * BS_BLOCK + j] = blk[1][j] * prog
    n = cards_of(s.hand[seat], buf)
    for i in range(n):
        miles += p.miles[buf[i]]
    out[4 * BS_BLOCK] = prog
    out[4 * BS_BLOCK + 1] = 1.0 if (s.player == seat and BS_TAKE <= s.step <= BS_PLACE) else 0.0
    out[4 * BS_BLOCK + 2] = (p.deck_size - p.setup_cards) // (2 * p.players) - s.turns[seat]
    out[4 * BS_BLOCK + 3] = hand_gain(p, s, seat)
    out[4 * BS_BLOCK + 4] = miles
    out[4 * BS_BLOCK + 5] = 1.0


# ----- Python classes -------------------------------------------------------------------
cdef class BigSurCore:
    """The constant tables of one game (player count and card set) and its
    GameDef. Built by :class:`~solvers.games.bigsur.kernel.BigSurKernel` from
    plain tables; a capsule from ``gamedef_capsule()`` keeps it alive."""

    cdef BsParams *params
    cdef GameDef gamedef
    cdef FeatureDef featuredef
    cdef object __weakref__

    def __cinit__(self, dict t):
        cdef BsParams *p
        cdef GameDef *g
        cdef int i, j, c, code, m
        n, lm = t["n_cards"], t["n_landmarks"]
        if not (2 <= t["players"] <= BS_MAX_PLAYERS and 1 <= n <= BS_MAX_CARDS
                and 5 <= lm <= BS_MAX_LANDMARKS and t["max_hw"] <= BS_MAX_HW):
            raise SolversError("Big Sur kernel: the card set is too large for the kernel's tables")
        p = <BsParams *>calloc(1, sizeof(BsParams))
        if p == NULL:
            raise MemoryError()
        self.params = p
        p.players = t["players"]
        p.n_cards = n
        p.n_landmarks = lm
        p.deck_size = len(t["deck"])
        p.max_hw = t["max_hw"]
        p.setup_cards = 2 * p.players + 5
        p.draw = t["DRAW"]
        p.build_base = t["BUILD_BASE"]
        p.left = t["LEFT"]
        p.right = t["RIGHT"]
        p.discard_base = t["DISCARD_BASE"]
        p.finish_base = t["FINISH_BASE"]
        p.top_base = t["TOP_BASE"]
        p.claim_base = t["CLAIM_BASE"]
        p.place_base = t["PLACE_BASE"]
        p.end_turn = t["END_TURN"]
        p.card_base = t["CARD_BASE"]
        p.landmark_base = t["LANDMARK_BASE"]
        p.num_actions = t["num_actions"]
        p.pol_build, p.pol_claim = PLAYOUT_WEIGHTS
        for i, c in enumerate(t["deck"]):
            p.deck[i] = c
        for c, row in enumerate(t["cards"], start=1):
            p.sc[c][0], p.sc[c][1] = row["sc"]
            p.miles[c] = row["miles"]
            p.cost_n[c] = len(row["cost"])
            for j, m in enumerate(row["cost"]):
                p.cost[c][j] = m
            p.mat[c] = row["mat"]
            p.persist[c] = row["persist"]
            p.bonus_kind[c] = row["bonus_kind"]
            p.bonus_pts[c] = row["bonus_pts"]
            p.bonus_arg[c] = row["bonus_arg"]
        for c, row in enumerate(t["landmarks"], start=1):
            p.lm_mask[c] = row["mask"]
            p.lm_kind[c] = row["kind"]
            p.lm_arg[c] = row["arg"]
        for i in range(2048):
            p.fin_index[i] = -1
        for i, (counts, recycle) in enumerate(t["finish"]):
            code = 0
            for m in range(BS_KINDS - 1, -1, -1):
                code = code * 4 + counts[m]
            p.fin_index[code + 1024 * recycle] = i
            for m in range(BS_KINDS):
                p.fin_counts[i][m] = counts[m]
            p.fin_recycle[i] = recycle
        p.pp_index = NULL
        p.pp_plans = NULL
        p.cb_bits = NULL
        i = fill_plan_table(p, &j)
        p.pp_index = <int *>calloc(2 * i + 2, sizeof(int))
        p.pp_plans = <PayPlan *>calloc(j + 1, sizeof(PayPlan))
        if p.pp_index == NULL or p.pp_plans == NULL:
            raise MemoryError()
        fill_plan_table(p, &j)
        p.cb_bits = <uint8_t *>calloc(fill_build_table(p) // 8 + 1, 1)
        if p.cb_bits == NULL:
            raise MemoryError()
        fill_build_table(p)

        g = &self.gamedef
        g.name = b"bigsur"
        g.num_players = p.players
        g.max_actions = BS_MAX_ACTIONS
        g.num_distinct_actions = p.num_actions
        g.max_game_length = t["max_game_length"]
        g.state_size = sizeof(BsState)
        g.params = p
        g.current_player = bs_current_player
        g.legal_actions = bs_legal_actions
        g.apply_action = bs_apply_action
        g.chance_outcomes = bs_chance_outcomes
        g.sample_chance = bs_sample_chance
        g.returns = bs_returns
        g.determinize = bs_determinize
        g.action_observation = bs_action_observation
        g.hash = bs_hash
        g.rollout_action = bs_rollout_action
        g.playout = bs_playout
        g.public_decisions = 0         # discards to pay are hidden
        self.featuredef.game = b"bigsur"
        self.featuredef.version = BS_FEATURES_VERSION
        self.featuredef.num_features = BS_NUM_FEATURES
        self.featuredef.features = bs_features

    def __dealloc__(self):
        if self.params != NULL:
            free(self.params.cb_bits)
            free(self.params.pp_index)
            free(self.params.pp_plans)
        free(self.params)

    @property
    def playout_weights(self) -> tuple:
        """The playout policy's weights (build, claim), each out of 256; (0, 0)
        leaves only the coin flip between ending the turn and a random move."""
        return (self.params.pol_build, self.params.pol_claim)

    @playout_weights.setter
    def playout_weights(self, weights):
        try:
            build, claim = (int(w) for w in weights)
        except (TypeError, ValueError):
            raise SolversError("playout weights are two whole numbers (build, claim)") from None
        if not all(0 <= w <= 256 for w in (build, claim)):
            raise SolversError("playout weights must be between 0 and 256")
        self.params.pol_build = build
        self.params.pol_claim = claim

    @property
    def state_size(self) -> int:
        return sizeof(BsState)

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
        learned model reads (``BS_FEATURE_NAMES``)."""
        return owned_capsule(&self.featuredef, SOLVERS_FEATURES_CAPSULE, self)

    @property
    def feature_names(self) -> tuple:
        return BS_FEATURE_NAMES

    def play_random_games(self, long n, uint64_t seed):
        """Play ``n`` games in C, chance and players uniformly at random
        (with ``sample_chance`` and ``rng_below``); the mean score of each
        seat. Game ``i`` deals from the i-th draw of ``SplitMix64(seed)``."""
        cdef const BsParams *p = self.params
        cdef BsState s
        cdef int acts[BS_MAX_ACTIONS]
        cdef double totals[BS_MAX_PLAYERS]
        cdef uint64_t rng = seed
        cdef long g
        cdef int a, k, q
        if n <= 0:
            raise SolversError(f"the number of games should be positive, not {n}")
        for q in range(BS_MAX_PLAYERS):
            totals[q] = 0.0
        with nogil:
            for g in range(n):
                bs_new_state(p, &s, splitmix64_next(&rng))
                while s.step != BS_OVER:
                    if is_chance(&s):
                        a = bs_sample_chance(p, &s, &rng)
                    else:
                        k = bs_legal_actions(p, &s, acts)
                        a = acts[rng_below(&rng, k)]
                    bs_apply_action(p, &s, a)
                for q in range(p.players):
                    totals[q] += bs_score(p, &s, q)
        return [totals[q] / n for q in range(p.players)]


cdef class KernelState:
    """The Python face of one ``BsState``; the kernel wrapper subclasses it
    with the names and views shared with the reference."""

    cdef BsState st
    cdef const BsParams *p
    cdef BigSurCore core
    cdef public object game
    cdef public list history

    def _start(self, BigSurCore core, game, uint64_t seed):
        self.core = core
        self.p = core.params
        self.game = game
        self.history = []
        bs_new_state(self.p, &self.st, seed)

    # The hot methods are plain method descriptors (binding=False), the
    # kind of callable CPython calls fastest; embedsignature (line 1) keeps
    # their signatures for inspect.
    @cython.binding(False)
    def current_player(self) -> int:
        return bs_current_player(self.p, &self.st)

    @cython.binding(False)
    def is_chance_node(self) -> bool:
        return is_chance(&self.st)

    @cython.binding(False)
    def is_terminal(self) -> bool:
        return self.st.step == BS_OVER

    @cython.binding(False)
    def legal_actions(self) -> list:
        cdef int buf[BS_MAX_ACTIONS]
        cdef int n = bs_legal_actions(self.p, &self.st, buf)
        return solvers_int_list(buf, n, ACTION_INTS)

    def chance_outcomes(self) -> list:
        cdef int buf[BS_MAX_CARDS]
        cdef double probs[BS_MAX_CARDS]
        cdef int n = bs_chance_outcomes(self.p, &self.st, buf, probs), i
        return [(buf[i], probs[i]) for i in range(n)]

    @cython.binding(False)
    def seeded_outcome(self) -> int:
        if not is_chance(&self.st):
            raise SolversError("not a chance node")
        if deals_landmark(self.p, &self.st):
            return self.p.landmark_base + self.st.lorder[self.st.lpos] - 1
        return self.p.card_base + self.st.order[self.st.pos] - 1

    @cython.binding(False)
    def apply_action(self, action) -> None:
        cdef long a = solvers_action_index(action, 0)   # -1 for a non-int or a bool
        if a < 0 or a >= self.p.num_actions or not bs_is_legal(self.p, &self.st, <int>a):
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        bs_apply_action(self.p, &self.st, <int>a)

    def scores(self) -> list:
        return [bs_score(self.p, &self.st, q) for q in range(self.p.players)]

    @cython.binding(False)
    def returns(self) -> list:
        cdef double out[BS_MAX_PLAYERS]
        bs_returns(self.p, &self.st, out)
        return [out[i] for i in range(self.p.players)]

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
        """A copy in which what ``player`` cannot see is dealt afresh from
        ``SplitMix64(seed)`` or from the generator ``seed`` itself (the same
        deal as the reference's ``resample``)."""
        cdef KernelState other
        cdef uint64_t rng
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.p.players:
            raise SolversError(f"no player {player!r} in a {self.p.players}-player game")
        if (self.st.step == BS_PAY or self.st.step == BS_TOP) and self.st.player != player \
                and self.st.paying_n:
            raise SolversError("cannot resample while another player is paying")
        generator = seed if isinstance(seed, SplitMix64) else None
        if generator is not None:
            rng = generator.state
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise SolversError(f"seed should be an int or a SplitMix64, not {type(seed).__name__}")
        else:
            rng = seed & 0xFFFFFFFFFFFFFFFF
        other = self.clone()
        bs_determinize(self.p, &other.st, <int>player, &rng)
        if generator is not None:
            generator.state = rng
        return other

    def action_observation(self, int action, int player) -> int:
        return bs_action_observation(self.p, &self.st, action, player)

    def hash(self) -> int:
        return bs_hash(self.p, &self.st)

    def _state_capsule(self):
        """A PyCapsule "solvers.State" pointing at this state's struct (it
        keeps this state alive)."""
        return owned_capsule(&self.st, SOLVERS_STATE_CAPSULE, self)

    def _raw(self) -> bytes:
        return (<char *>&self.st)[:sizeof(BsState)]

    def _set_raw(self, bytes raw) -> None:
        if len(raw) != sizeof(BsState):
            raise SolversError(f"a Big Sur state has {sizeof(BsState)} bytes, not {len(raw)}")
        memcpy(&self.st, <const char *>raw, sizeof(BsState))

    def __reduce__(self):
        # The struct holds no pointer: the game (picklable), the struct's
        # bytes and the history rebuild the state in any process.
        return (_rebuild_state, (self.game, self._raw(), self.history))

    # ----- the reference's fields, read-only ----------------------------------------------
    @property
    def order(self) -> list:
        return [self.st.order[i] for i in range(self.p.deck_size)]

    @property
    def pos(self) -> int:
        return self.st.pos

    @property
    def lorder(self) -> list:
        return [self.st.lorder[i] for i in range(self.p.n_landmarks)]

    @property
    def lpos(self) -> int:
        return self.st.lpos

    @property
    def highways(self) -> list:
        return [[self.st.hw[q][i] for i in range(self.st.hw_n[q])] for q in range(self.p.players)]

    @property
    def marks(self) -> list:
        from solvers.games.bigsur.data import SCENERY
        return [{self.st.hw[q][i]: (self.st.mark_lm[q][i], SCENERY[self.st.mark_type[q][i]])
                 for i in range(self.st.hw_n[q]) if self.st.mark_lm[q][i]}
                for q in range(self.p.players)]

    @property
    def hands(self) -> list:
        return [set(_cards(self.st.hand[q])) for q in range(self.p.players)]

    @property
    def piles(self) -> list:
        return [[self.st.pile[q][i] for i in range(self.st.pile_n[q])] for q in range(self.p.players)]

    @property
    def depot(self) -> set:
        return set(_cards(self.st.depot))

    @property
    def row(self) -> set:
        cdef uint64_t m = self.st.row
        out = set()
        while m:
            out.add(ctz64(m) + 1)
            m &= m - 1
        return out

    @property
    def player(self) -> int:
        return self.st.player

    @property
    def step(self) -> str:
        return STEP_NAMES[self.st.step]

    @property
    def turns(self) -> list:
        return [self.st.turns[q] for q in range(self.p.players)]

    @property
    def taken(self) -> int:
        return self.st.taken

    @property
    def used(self) -> set:
        out = {("card", c) for c in _cards(self.st.used_cards)}
        m = self.st.used_lms
        while m:
            out.add(("landmark", ctz64(m) + 1))
            m &= m - 1
        return out

    @property
    def recycled(self) -> bool:
        return bool(self.st.recycled)

    @property
    def claimed(self) -> bool:
        return bool(self.st.claimed)

    @property
    def building(self):
        return self.st.building or None

    @property
    def end(self):
        return None if self.st.end_left < 0 else ("left" if self.st.end_left else "right")

    @property
    def paying(self) -> list:
        return [self.st.paying[i] for i in range(self.st.paying_n)]

    @property
    def pay_finish(self):
        if self.st.fin < 0:
            return None
        return (tuple(self.p.fin_counts[self.st.fin][m] for m in range(BS_KINDS)),
                self.p.fin_recycle[self.st.fin])

    @property
    def claiming(self):
        return self.st.claiming or None


cdef list _cards(const uint64_t *m):
    cdef uint8_t buf[BS_MAX_CARDS]
    cdef int n = cards_of(m, buf), i
    return [buf[i] for i in range(n)]


def load_fields(KernelState state, BigSurCore core, game, dict f):
    """Fill ``state`` from the fields of a reference state (already valid)."""
    from solvers.games.bigsur.data import MATERIALS, SCENERY
    from solvers.games.bigsur.reference import FINISH
    cdef BsState *s = &state.st
    cdef int q, i
    state.core = core
    state.p = core.params
    state.game = game
    state.history = []
    memset(s, 0, sizeof(BsState))
    for i, c in enumerate(f["order"]):
        s.order[i] = c
    s.pos = f["pos"]
    for i, l in enumerate(f["lorder"]):
        s.lorder[i] = l
    s.lpos = f["lpos"]
    for q in range(core.params.players):
        for i, c in enumerate(f["highways"][q]):
            s.hw[q][i] = c
            mark = f["marks"][q].get(c)
            if mark:
                s.mark_lm[q][i] = mark[0]
                s.mark_type[q][i] = SCENERY.index(mark[1])
        s.hw_n[q] = len(f["highways"][q])
        for c in f["hands"][q]:
            add(s.hand[q], c)
        for i, c in enumerate(f["piles"][q]):
            s.pile[q][i] = c
        s.pile_n[q] = len(f["piles"][q])
        s.turns[q] = f["turns"][q]
    for c in f["depot"]:
        add(s.depot, c)
    for l in f["row"]:
        s.row |= ONE << (l - 1)
    s.player = f["player"]
    s.step = STEP_NAMES.index(f["step"])
    s.taken = f["taken"]
    for kind, n in f["used"]:
        if kind == "card":
            add(s.used_cards, n)
        else:
            s.used_lms |= ONE << (n - 1)
    s.recycled = f["recycled"]
    s.claimed = f["claimed"]
    s.building = f["building"] or 0
    s.end_left = -1 if f["end"] is None else (1 if f["end"] == "left" else 0)
    for i, c in enumerate(f["paying"]):
        s.paying[i] = c
    s.paying_n = len(f["paying"])
    s.fin = -1 if f["pay_finish"] is None else FINISH.index(tuple(f["pay_finish"]))
    s.claiming = f["claiming"] or 0


def _rebuild_state(game, bytes raw, list history):
    """A pickled state again (see ``KernelState.__reduce__``)."""
    state = game.state_from_raw(raw)
    state.history = list(history)
    return state
