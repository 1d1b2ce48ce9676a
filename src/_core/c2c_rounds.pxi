# Coast to Coast, solo: a round as one decision, and the last round exactly.
#
# Included by c2c.pyx (it uses the kernel's helpers: bit, sheet_score, the
# ctz/popcount builtins). No card is revealed within a round, so a player's
# round is a choice among the distinct sheets it can end with; these
# functions list them (with a first move that keeps each one reachable) and
# value a sheet before the last round by its exact expectation over every
# hand the unseen cards can make. The online player and its yardstick
# (solvers.games.c2c.online) are built on them; docs/rules/coast-to-coast.md
# has the rules.

cdef struct Sheet:
    uint32_t circled
    uint32_t crossed
    uint32_t exact


cdef struct RoundEnds:
    # The distinct end-of-round sheets found, each with the first move from
    # the start that leads to it (the first way found), and a visited set
    # over the round's intermediate positions (sheet and cards used).
    Sheet *ends
    int32_t *first
    int n_ends
    int cap_ends
    uint64_t *seen_key        # open addressing; 0 = empty (keys are never 0)
    uint32_t seen_mask
    int n_seen
    uint64_t *end_key
    int32_t *end_slot         # index into ends, per end_key slot
    uint32_t end_mask


cdef inline uint64_t sheet_hash(uint32_t a, uint32_t b, uint32_t c, uint32_t d) noexcept nogil:
    cdef uint64_t h = (<uint64_t> a * 0x9E3779B97F4A7C15ULL) ^ (<uint64_t> b * 0xC2B2AE3D27D4EB4FULL) \
        ^ (<uint64_t> c * 0x165667B19E3779F9ULL) ^ (<uint64_t> d * 0x27D4EB2F165667C5ULL)
    h ^= h >> 31
    return h | 1


cdef int ends_alloc(RoundEnds *E, int log2) noexcept nogil:
    """Buffers for up to 2**(log2-1) ends and intermediate positions; 0, or
    -1 when memory ran out (free with ends_free all the same)."""
    cdef int size = 1 << log2
    E.cap_ends = size // 2
    E.ends = <Sheet *> malloc(E.cap_ends * sizeof(Sheet))
    E.first = <int32_t *> malloc(E.cap_ends * sizeof(int32_t))
    E.seen_key = <uint64_t *> malloc(size * sizeof(uint64_t))
    E.end_key = <uint64_t *> malloc(size * sizeof(uint64_t))
    E.end_slot = <int32_t *> malloc(size * sizeof(int32_t))
    E.seen_mask = size - 1
    E.end_mask = size - 1
    E.n_ends = 0
    E.n_seen = 0
    if E.ends == NULL or E.first == NULL or E.seen_key == NULL or E.end_key == NULL \
            or E.end_slot == NULL:
        return -1
    memset(E.seen_key, 0, size * sizeof(uint64_t))
    memset(E.end_key, 0, size * sizeof(uint64_t))
    return 0


cdef void ends_free(RoundEnds *E) noexcept nogil:
    c_free(E.ends)
    c_free(E.first)
    c_free(E.seen_key)
    c_free(E.end_key)
    c_free(E.end_slot)
    E.ends = NULL
    E.first = NULL
    E.seen_key = NULL
    E.end_key = NULL
    E.end_slot = NULL


cdef int ends_reset(RoundEnds *E) noexcept nogil:
    memset(E.seen_key, 0, (E.seen_mask + 1) * sizeof(uint64_t))
    memset(E.end_key, 0, (E.end_mask + 1) * sizeof(uint64_t))
    E.n_ends = 0
    E.n_seen = 0
    return 0


cdef int ends_visit(RoundEnds *E, uint32_t circled, uint32_t crossed, uint32_t exact,
                    uint32_t used) noexcept nogil:
    """1 when the intermediate position is new (now marked), 0 when seen, -1
    when the table is full."""
    cdef uint64_t key = sheet_hash(circled, crossed, exact, used ^ 0x5BD1E995)
    cdef uint32_t i = <uint32_t> (key >> 17) & E.seen_mask
    while E.seen_key[i] != 0:
        if E.seen_key[i] == key:
            return 0
        i = (i + 1) & E.seen_mask
    if 2 * (E.n_seen + 1) > <int> (E.seen_mask + 1):
        return -1
    E.seen_key[i] = key
    E.n_seen += 1
    return 1


cdef int ends_add(RoundEnds *E, uint32_t circled, uint32_t crossed, uint32_t exact,
                  int first) noexcept nogil:
    """Record an end sheet (once); 0, or -1 when the buffers are full.
    Keys are 64-bit hashes of the sheet, checked against the sheet itself."""
    cdef uint64_t key = sheet_hash(circled, crossed, exact, 0)
    cdef uint32_t i = <uint32_t> (key >> 17) & E.end_mask
    cdef Sheet *e
    while E.end_key[i] != 0:
        if E.end_key[i] == key:
            e = &E.ends[E.end_slot[i]]
            if e.circled == circled and e.crossed == crossed and e.exact == exact:
                return 0
        i = (i + 1) & E.end_mask
    if E.n_ends >= E.cap_ends:
        return -1
    E.end_key[i] = key
    E.end_slot[i] = E.n_ends
    e = &E.ends[E.n_ends]
    e.circled, e.crossed, e.exact = circled, crossed, exact
    E.first[E.n_ends] = first
    E.n_ends += 1
    return 0


cdef inline uint32_t room_of(const C2CParams *P, uint32_t circled, uint32_t crossed) noexcept nogil:
    """Locations a card could circle: joined to a circle, neither circled nor crossed."""
    cdef uint32_t c = circled, reach = 0
    while c:
        reach |= P.neighbours[c2c_ctz32(c)]
        c &= c - 1
    return reach & ~circled & ~crossed


cdef int ends_circles(const C2CParams *P, RoundEnds *E, uint32_t circled, uint32_t crossed,
                      uint32_t exact, const int8_t *cards, int ncards, uint32_t used,
                      int first) noexcept nogil:
    """Every way to go on circling from one position of the round (``used``:
    bit i for the i-th of ``cards`` spent); an end is reached when no unused
    card can circle. ``first`` is the move that began this line (-1: the
    next move is the first). 0, or -1 when the buffers are full."""
    cdef int r = ends_visit(E, circled, crossed, exact, used)
    if r <= 0:
        return r
    cdef uint32_t room = room_of(P, circled, crossed), locs, b
    cdef int i, card, loc, f
    cdef bint moved = False
    for i in range(ncards):
        if used >> i & 1:
            continue
        card = cards[i]
        locs = P.matches[card] & room
        while locs:
            loc = c2c_ctz32(locs)
            locs &= locs - 1
            b = bit(loc)
            moved = True
            f = first if first >= 0 else P.n + card * P.n + loc
            if ends_circles(P, E, circled | b, crossed, exact | (b if loc == card else 0),
                            cards, ncards, used | (1u << i), f) < 0:
                return -1
    if not moved:
        return ends_add(E, circled, crossed, exact, first)
    return 0


cdef int round_ends_of(const C2CParams *P, const C2CState *s, RoundEnds *E) noexcept nogil:
    """The distinct sheets the solo player's round under way can end with,
    from a decision of that round: the setup (cross one of the four, circle
    the rest), a round's cross-off, or its circles. 0, or -1 when the
    buffers are full."""
    cdef int i, k = s.ndealt
    cdef uint32_t b, setup = 0, used = 0
    cdef const int8_t *cards = s.dealt
    ends_reset(E)
    if s.round == 0:
        for i in range(k):
            setup |= bit(cards[i])
        for i in range(k):
            b = bit(cards[i])
            if ends_add(E, (s.circled[0] | setup) & ~b, s.crossed[0] | b, s.exact[0], cards[i]) < 0:
                return -1
        return 0
    if s.step == C2C_CROSS:
        for i in range(k):
            b = bit(cards[i])
            if ends_circles(P, E, s.circled[0] & ~b, s.crossed[0] | b, s.exact[0], cards, k,
                            1u << i, cards[i]) < 0:
                return -1
        return 0
    for i in range(k):
        if s.used & bit(cards[i]):
            used |= 1u << i
    return ends_circles(P, E, s.circled[0], s.crossed[0], s.exact[0], cards, k, used, -1)


# --------------------------------------------------------------------------
# The last round, exactly
# --------------------------------------------------------------------------

cdef struct MemoSlot:
    uint32_t circled
    uint32_t crossed
    uint32_t exact
    uint32_t cards         # the cards still to circle with (a mask of card ids)
    uint32_t gen           # which evaluation wrote the slot (0: never)
    int32_t value          # won * 65536 + score: a win first, then points
    uint32_t best          # the circles of a best end


cdef struct Assign:
    # One way to play the last round's circles on a sheet: the locations
    # circled, the cards that circle them (a mask of indices into the deck
    # of unseen cards) and the sheet's value then (won * 65536 + points).
    int32_t value
    uint32_t locs
    uint32_t cards


cdef struct Memo:
    MemoSlot *slots
    uint32_t mask
    uint32_t gen
    int used
    int full               # set when an evaluation ran out of slots
    Assign *ways           # scratch of the table path (last_round_table)
    int ways_cap


cdef enum:
    WAYS_CAP = 1 << 16     # ways of one sheet's last round, at most (else the memo path)
    TABLE_MAX_CARDS = 16   # unseen cards the table path takes, at most (C(16, 4) = 1820 hands)


cdef int memo_alloc(Memo *M, int log2) noexcept nogil:
    M.mask = (1u << log2) - 1
    M.slots = <MemoSlot *> malloc((M.mask + 1) * sizeof(MemoSlot))
    M.ways = <Assign *> malloc(WAYS_CAP * sizeof(Assign))
    M.ways_cap = WAYS_CAP
    M.gen = 0
    M.used = 0
    M.full = 0
    if M.slots == NULL or M.ways == NULL:
        return -1
    memset(M.slots, 0, (M.mask + 1) * sizeof(MemoSlot))
    return 0


cdef void memo_free(Memo *M) noexcept nogil:
    c_free(M.slots)
    c_free(M.ways)
    M.slots = NULL
    M.ways = NULL


cdef inline void memo_next(Memo *M) noexcept nogil:
    """Forget every entry (a new sheet): slots of older generations read as empty."""
    M.gen += 1
    M.used = 0
    if M.gen == 0:             # wrapped: clear for real
        memset(M.slots, 0, (M.mask + 1) * sizeof(MemoSlot))
        M.gen = 1


cdef struct Gains:
    # Per location: its highway's first bit and length (len 0: none), and
    # the index of its type and region among P's masks (-1: none).
    int8_t hw_shift[32]
    int8_t hw_len[32]
    int8_t type_of[32]
    int8_t region_of[32]


cdef void gains_init(const C2CParams *P, Gains *G) noexcept nogil:
    cdef int loc, h, i
    for loc in range(32):
        G.hw_shift[loc], G.hw_len[loc], G.type_of[loc], G.region_of[loc] = 0, 0, -1, -1
    for h in range(P.num_highways):
        for loc in range(P.highway_shift[h], P.highway_shift[h] + P.highway_len[h]):
            G.hw_shift[loc] = P.highway_shift[h]
            G.hw_len[loc] = P.highway_len[h]
    for i in range(P.num_types):
        for loc in range(P.n):
            if P.type_masks[i] & bit(loc):
                G.type_of[loc] = i
    for i in range(P.num_regions):
        for loc in range(P.n):
            if P.region_masks[i] & bit(loc):
                G.region_of[loc] = i


cdef inline int circle_gain(const C2CParams *P, const Gains *G, uint32_t circled, int loc,
                            bint exact) noexcept nogil:
    """The points circling ``loc`` adds to a sheet with ``circled``: the
    highway run it joins or extends, a type or region it completes, and an
    exact match (what sheet_score(circled | loc) - sheet_score(circled)
    is, without scoring the whole sheet)."""
    cdef int gain = P.exact_points if exact else 0, left = 0, right = 0, p, shift, length, t
    cdef uint32_t now = circled | bit(loc)
    length = G.hw_len[loc]
    if length:
        shift = G.hw_shift[loc]
        p = loc - 1
        while p >= shift and circled >> p & 1:
            left += 1
            p -= 1
        p = loc + 1
        while p < shift + length and circled >> p & 1:
            right += 1
            p += 1
        gain += P.highway_points[left + right + 1] - P.highway_points[left] - P.highway_points[right]
    t = G.type_of[loc]
    if t >= 0 and P.type_masks[t] & ~now == 0:
        gain += P.type_points[t]
    t = G.region_of[loc]
    if t >= 0 and P.region_masks[t] & ~now == 0:
        gain += P.region_points
    return gain


cdef inline int32_t won_bonus(uint32_t circled, uint32_t required) noexcept nogil:
    return 65536 if circled & required == required else 0


cdef int32_t memo_circles(const C2CParams *P, const Gains *G, Memo *M, uint32_t circled,
                          uint32_t crossed, uint32_t exact, int points, uint32_t cards,
                          uint32_t required, uint32_t room, uint32_t *best) noexcept nogil:
    """The best value (won * 65536 + points: a win first) the last round's
    circles reach from a sheet scoring ``points`` with ``cards`` left (a
    mask of card ids), and in ``best`` the circled mask of such an end.
    Adding a circle never lowers a sheet's points (the map loader refuses a
    points table where it could) nor undoes a challenge, so
    the best over every reachable set of circles is the best over the ends
    the compulsory rule allows: the search need not check that a card could
    not circle before it stops. ``room`` is :func:`room_of` the sheet, kept
    up as circles are added; points too (:func:`circle_gain`). Positions
    with two cards or more left are memoised (shared between the hands that
    hold the same cards); with one left its best circle is found directly."""
    cdef uint32_t left = cards, locs, b, got_best = circled, sub
    cdef int card, loc
    cdef int32_t value = won_bonus(circled, required) + points, got
    cdef uint64_t h
    cdef uint32_t i
    cdef MemoSlot *m
    if cards & (cards - 1) == 0:              # one card (or none) left: no memo
        if cards:
            card = c2c_ctz32(cards)
            locs = P.matches[card] & room
            while locs:
                loc = c2c_ctz32(locs)
                locs &= locs - 1
                b = bit(loc)
                got = won_bonus(circled | b, required) + points + circle_gain(P, G, circled, loc,
                                                                               loc == card)
                if got > value:
                    value = got
                    got_best = circled | b
        best[0] = got_best
        return value
    h = sheet_hash(circled, crossed, exact, cards)
    i = <uint32_t> (h >> 13) & M.mask
    while M.slots[i].gen == M.gen:
        m = &M.slots[i]
        if m.circled == circled and m.crossed == crossed and m.exact == exact and m.cards == cards:
            best[0] = m.best
            return m.value
        i = (i + 1) & M.mask
    while left:
        card = c2c_ctz32(left)
        left &= left - 1
        locs = P.matches[card] & room
        while locs:
            loc = c2c_ctz32(locs)
            locs &= locs - 1
            b = bit(loc)
            got = memo_circles(P, G, M, circled | b, crossed, exact | (b if loc == card else 0),
                               points + circle_gain(P, G, circled, loc, loc == card),
                               cards & ~bit(card), required,
                               (room | P.neighbours[loc]) & ~(circled | b) & ~crossed, &sub)
            if got > value:
                value = got
                got_best = sub
    best[0] = got_best
    if 4 * (M.used + 1) > 3 * <int> (M.mask + 1):
        M.full = 1             # too full to keep more: still correct, only slower
        return value
    i = <uint32_t> (h >> 13) & M.mask
    while M.slots[i].gen == M.gen:
        i = (i + 1) & M.mask
    m = &M.slots[i]
    m.circled, m.crossed, m.exact, m.cards = circled, crossed, exact, cards
    m.gen, m.value, m.best = M.gen, value, got_best
    M.used += 1
    return value


cdef void last_round_mean(const C2CParams *P, Memo *M, Sheet s, uint32_t unseen,
                          uint32_t required, double *win, double *score) noexcept nogil:
    """The exact expectation, over every 4 cards of ``unseen`` (each hand
    equally likely), of the best end of the last round from ``s``: the
    chance of a win and the final points, a lost challenge scoring none
    (each hand's end chosen for a win first, then its points). Fewer than
    4 unseen cards: the sheet's own. By :func:`last_round_table`, or where
    it cannot (too many cards or ways) by :func:`last_round_memo`; both
    give the same numbers."""
    if last_round_table(P, M, s, unseen, required, win, score) != 0:
        last_round_memo(P, M, s, unseen, required, win, score)


cdef inline int comb2(int a, int b) noexcept nogil:
    """The rank of the pair a < b among pairs of 0, 1, 2, ... (colex order)."""
    return ((b * (b - 1)) >> 1) + a


cdef int32_t CH3[33]
cdef int32_t CH4[33]
cdef int _k
for _k in range(33):
    CH3[_k] = _k * (_k - 1) * (_k - 2) // 6
    CH4[_k] = _k * (_k - 1) * (_k - 2) * (_k - 3) // 24


cdef inline int comb3(int a, int b, int c) noexcept nogil:
    return CH3[c] + ((b * (b - 1)) >> 1) + a


cdef inline int comb4(int a, int b, int c, int d) noexcept nogil:
    return CH4[d] + CH3[c] + ((b * (b - 1)) >> 1) + a


cdef int add_ways(const C2CParams *P, uint32_t circled, uint32_t exact, uint32_t required,
                  uint32_t m, const int *locs, int k, const uint32_t *dm, const int8_t *deck,
                  Assign *out, int count, int cap) noexcept nogil:
    """Append to ``out`` (``count`` so far) every assignment of distinct
    cards to the ``k`` locations ``locs`` (mask ``m``) added to the sheet:
    ``dm[l]`` the deck indices of the cards that match location l. The new
    count, or -1 past ``cap``."""
    # Only the sheet's own exact matches count: a new circle's is the card's.
    cdef int32_t sv = won_bonus(circled | m, required) \
        + sheet_score(P, circled | m, exact & circled).total
    cdef int32_t ex = P.exact_points
    cdef uint32_t ma, mb, mc
    cdef int a, b, c
    ma = dm[locs[0]]
    while ma:
        a = c2c_ctz32(ma)
        ma &= ma - 1
        if k == 1:
            if count >= cap:
                return -1
            out[count].value = sv + (ex if deck[a] == locs[0] else 0)
            out[count].locs, out[count].cards = m, bit(a)
            count += 1
            continue
        mb = dm[locs[1]] & ~bit(a)
        while mb:
            b = c2c_ctz32(mb)
            mb &= mb - 1
            if k == 2:
                if count >= cap:
                    return -1
                out[count].value = sv + (ex if deck[a] == locs[0] else 0) \
                    + (ex if deck[b] == locs[1] else 0)
                out[count].locs, out[count].cards = m, bit(a) | bit(b)
                count += 1
                continue
            mc = dm[locs[2]] & ~bit(a) & ~bit(b)
            while mc:
                c = c2c_ctz32(mc)
                mc &= mc - 1
                if count >= cap:
                    return -1
                out[count].value = sv + (ex if deck[a] == locs[0] else 0) \
                    + (ex if deck[b] == locs[1] else 0) + (ex if deck[c] == locs[2] else 0)
                out[count].locs, out[count].cards = m, bit(a) | bit(b) | bit(c)
                count += 1
    return count


cdef int sheet_ways(const C2CParams *P, uint32_t circled, uint32_t crossed, uint32_t exact,
                    uint32_t required, const uint32_t *dm, const int8_t *deck, Assign *out,
                    int count, int cap) noexcept nogil:
    """Append to ``out`` every way the last round can circle on the sheet:
    each set of one to three locations some order of which keeps every
    circle joined to the itinerary (the compulsory rule only removes ends,
    and a circle never lowers the points: see memo_circles), with every
    assignment of distinct matching cards to it. Each set is met once, in
    its greedy order (at each step the lowest of its locations then
    joined), which exists for every such set. The new count, or -1 past
    ``cap``."""
    cdef uint32_t can = 0, r0, r1, r2, w1, w2, w3, m1, m2
    cdef int l, l1, l2, l3
    cdef int locs[3]
    for l in range(32):
        if dm[l]:
            can |= bit(l)
    r0 = room_of(P, circled, crossed) & can
    w1 = r0
    while w1:
        l1 = c2c_ctz32(w1)
        w1 &= w1 - 1
        m1 = bit(l1)
        locs[0] = l1
        count = add_ways(P, circled, exact, required, m1, locs, 1, dm, deck, out, count, cap)
        if count < 0:
            return -1
        r1 = (r0 | (P.neighbours[l1] & can)) & ~(circled | m1) & ~crossed
        w2 = r1
        while w2:
            l2 = c2c_ctz32(w2)
            w2 &= w2 - 1
            if r0 >> l2 & 1 and l2 < l1:        # not the greedy order of {l1, l2}
                continue
            m2 = m1 | bit(l2)
            locs[1] = l2
            count = add_ways(P, circled, exact, required, m2, locs, 2, dm, deck, out, count, cap)
            if count < 0:
                return -1
            r2 = (r1 | (P.neighbours[l2] & can)) & ~(circled | m2) & ~crossed
            w3 = r2
            while w3:
                l3 = c2c_ctz32(w3)
                w3 &= w3 - 1
                if (r0 >> l3 & 1 and l3 < l1) or (r1 >> l3 & 1 and l3 < l2):
                    continue
                locs[2] = l3
                count = add_ways(P, circled, exact, required, m2 | bit(l3), locs, 3, dm, deck,
                                 out, count, cap)
                if count < 0:
                    return -1
    return count


cdef enum:
    ENTRIES = TABLE_MAX_CARDS + 120 + 560     # one card, two, three (16 cards at most)


cdef inline int entry_of(uint32_t cards) noexcept nogil:
    """The table entry of a set of one to three deck indices."""
    cdef int a = c2c_ctz32(cards), b
    cards &= cards - 1
    if not cards:
        return a
    b = c2c_ctz32(cards)
    cards &= cards - 1
    if not cards:
        return TABLE_MAX_CARDS + comb2(a, b)
    return TABLE_MAX_CARDS + 120 + comb3(a, b, c2c_ctz32(cards))


cdef bint last_round_settled(const C2CParams *P, Sheet s, int n, uint32_t required,
                             double *win, double *score) noexcept nogil:
    """Set the last round's value without dealing a hand where it is known:
    fewer than 4 unseen cards (the sheet's own), or a challenge lost
    whatever comes (a crossed-off location is never circled again, and the
    last round circles three at most: every hand would score nothing)."""
    if n < 4:
        win[0] = 1.0 if s.circled & required == required else 0.0
        score[0] = win[0] * sheet_score(P, s.circled, s.exact).total
        return True
    if required & s.crossed or c2c_popcount(required & ~s.circled) > 3:
        win[0] = 0.0
        score[0] = 0.0
        return True
    return False


cdef inline int hand_rank(int i, int a, int b, int c) noexcept nogil:
    """The rank (comb4) of the hand of deck indices i and a < b < c."""
    if i < a:
        return comb4(i, a, b, c)
    if i < b:
        return comb4(a, i, b, c)
    if i < c:
        return comb4(a, b, i, c)
    return comb4(a, b, c, i)


cdef inline int32_t best_without(const int32_t *top, const uint32_t *top_locs,
                                 const int32_t (*without)[3], int a, int b, int c,
                                 uint32_t xb, int32_t floor) noexcept nogil:
    """The best way of the cards a < b < c that does not circle ``xb``
    (at least ``floor``): over the seven non-empty subsets, each one's best
    way, or where that circles xb, its best without it."""
    cdef int es[7]
    cdef int k, e
    cdef int32_t v, w = floor
    es[0], es[1], es[2] = a, b, c
    es[3] = TABLE_MAX_CARDS + comb2(a, b)
    es[4] = TABLE_MAX_CARDS + comb2(a, c)
    es[5] = TABLE_MAX_CARDS + comb2(b, c)
    es[6] = TABLE_MAX_CARDS + 120 + comb3(a, b, c)
    for k in range(7):
        e = es[k]
        if top_locs[e] & xb:
            v = without[e][c2c_popcount(top_locs[e] & (xb - 1))]
        else:
            v = top[e]
        if v > w:
            w = v
    return w


cdef bint runs_convex(const C2CParams *P) noexcept nogil:
    """Whether each circle added to a highway run is worth at least the one
    before (the printed map's 1, 3, 6, 10, ...: the points supermodular)."""
    cdef int h, k, longest = 0
    for h in range(P.num_highways):
        if P.highway_len[h] > longest:
            longest = P.highway_len[h]
    for k in range(2, longest + 1):
        if P.highway_points[k] - P.highway_points[k - 1] < \
                P.highway_points[k - 1] - P.highway_points[k - 2]:
            return False
    return True


cdef int last_round_table(const C2CParams *P, Memo *M, Sheet s, uint32_t unseen,
                          uint32_t required, double *win, double *score) noexcept nogil:
    """:func:`last_round_mean` by tables: -1 (nothing set) when the deck
    has more than TABLE_MAX_CARDS cards, a sheet more ways than the buffer
    holds, or the map's highway points are not convex (:func:`runs_convex`).

    A hand crosses off one of its cards, x, and circles with the other
    three, S. The ways of the sheet (:func:`sheet_ways`: each set of
    locations with each assignment of cards) are listed once, and each set
    of one to three cards keeps its best way, and its best way without each
    location of that one. With x not circled on the sheet, the cross off
    only forbids circling x, so S's best is the best over its subsets of
    their best ways without x. With x circled, the cross off also takes its
    circle away: that best, less what x's circle is worth on the sheet as
    it is, bounds the hand from above, and only where the bound beats the
    hand's other cross offs is it valued exactly, by memo_circles on the
    sheet without x's circle. The bound holds because the points are
    supermodular: a circle is worth at least as much on a sheet with more
    circles (beside highway runs of l and r it adds (l + 1)(r + 1), and l
    and r only grow; a type or region only nears completion; an exact
    match is worth the same), and the sheet without x allows no way the
    sheet with it does not.
    """
    cdef int8_t deck[32]
    cdef uint32_t dm[32]
    cdef int n = 0, i, j, a, b, c, k, e, count, hands
    cdef uint32_t m = unseen, xb, circled_x
    cdef int32_t p0, p0x, v, w, delta
    cdef int32_t top[ENTRIES]          # each set of cards: its best way's value,
    cdef uint32_t top_locs[ENTRIES]    # ... its locations,
    cdef int32_t without[ENTRIES][3]   # ... and its best without each of them
    cdef uint32_t l, room_x, kept
    cdef bint searched = False
    cdef Gains G
    cdef int32_t hv[1820]
    cdef long wins = 0, points = 0
    cdef Assign *ways = M.ways
    while m:
        deck[n] = c2c_ctz32(m)
        n += 1
        m &= m - 1
    if n > TABLE_MAX_CARDS or not runs_convex(P):
        return -1
    if last_round_settled(P, s, n, required, win, score):
        return 0
    for k in range(32):
        dm[k] = 0
    for i in range(n):
        m = P.matches[deck[i]]
        while m:
            k = c2c_ctz32(m)
            m &= m - 1
            dm[k] |= bit(i)
    count = sheet_ways(P, s.circled, s.crossed, s.exact, required, dm, deck, ways, 0,
                       M.ways_cap)
    if count < 0:
        return -1
    for e in range(ENTRIES):
        top[e] = -1
        top_locs[e] = 0
        without[e][0] = without[e][1] = without[e][2] = -1
    for k in range(count):
        e = entry_of(ways[k].cards)
        if ways[k].value > top[e]:
            top[e] = ways[k].value
            top_locs[e] = ways[k].locs
    for k in range(count):        # the best without each location of the best
        e = entry_of(ways[k].cards)
        l = top_locs[e] & ~ways[k].locs     # the best's locations this way avoids
        j = 0
        m = top_locs[e]
        while m:
            if m & (~m + 1) & l and ways[k].value > without[e][j]:
                without[e][j] = ways[k].value
            m &= m - 1
            j += 1
    p0 = won_bonus(s.circled, required) + sheet_score(P, s.circled, s.exact).total
    hands = CH4[n]
    for k in range(hands):
        hv[k] = 0
    # The cross offs of cards not circled on the sheet.
    for i in range(n):
        xb = bit(deck[i])
        if s.circled & xb:
            continue
        for c in range(2, n):
            if c == i:
                continue
            for b in range(1, c):
                if b == i:
                    continue
                for a in range(b):
                    if a == i:
                        continue
                    w = best_without(top, top_locs, without, a, b, c, xb, p0)
                    j = hand_rank(i, a, b, c)
                    if w > hv[j]:
                        hv[j] = w
    # The cross offs of circled cards: bounded, and valued where the bound
    # beats the hand's other cross offs (the docstring).
    for i in range(n):
        xb = bit(deck[i])
        if not s.circled & xb:
            continue
        if not searched:
            memo_next(M)
            gains_init(P, &G)
            searched = True
        circled_x = s.circled & ~xb
        p0x = sheet_score(P, circled_x, s.exact).total
        delta = sheet_score(P, s.circled, s.exact).total - p0x
        room_x = room_of(P, circled_x, s.crossed | xb)
        for c in range(2, n):
            if c == i:
                continue
            for b in range(1, c):
                if b == i:
                    continue
                for a in range(b):
                    if a == i:
                        continue
                    j = hand_rank(i, a, b, c)
                    w = best_without(top, top_locs, without, a, b, c, xb, p0)
                    if w - delta <= hv[j]:
                        continue
                    v = memo_circles(P, &G, M, circled_x, s.crossed | xb, s.exact, p0x,
                                     bit(deck[a]) | bit(deck[b]) | bit(deck[c]), required,
                                     room_x, &kept)
                    if v > hv[j]:
                        hv[j] = v
    for k in range(hands):
        if hv[k] >> 16:            # a lost challenge scores nothing
            wins += 1
            points += hv[k] & 0xFFFF
    win[0] = <double> wins / hands
    score[0] = <double> points / hands
    return 0


cdef void last_round_memo(const C2CParams *P, Memo *M, Sheet s, uint32_t unseen,
                          uint32_t required, double *win, double *score) noexcept nogil:
    """:func:`last_round_mean` by a memoised search of each hand's circles.

    Each hand crosses off one card and circles with the other three. The
    three cards' value on the sheet as it is bounds that cross-off's value
    from above, and equals it when the card crossed off is neither circled
    on the sheet nor among the circles of that best end (the end is still
    reachable). The values of the three cards on the sheet are shared by
    the nine hands that hold them. A sheet whose challenge is already out
    of reach is worth nothing without a hand dealt."""
    cdef int8_t deck[32]
    cdef int n = 0, a, b, c, d, x, i, j
    cdef int8_t hand[4]
    cdef uint32_t three, kept, xb, room
    cdef Gains G
    cdef int base_points
    cdef int32_t v, got
    cdef int32_t ceiling_x[4]
    cdef bint costly[4]
    cdef long hands = 0, wins = 0, points = 0
    cdef uint32_t m = unseen
    while m:
        deck[n] = c2c_ctz32(m)
        n += 1
        m &= m - 1
    if last_round_settled(P, s, n, required, win, score):
        return
    memo_next(M)
    room = room_of(P, s.circled, s.crossed)
    gains_init(P, &G)
    base_points = sheet_score(P, s.circled, s.exact).total
    for a in range(n - 3):
        hand[0] = deck[a]
        for b in range(a + 1, n - 2):
            hand[1] = deck[b]
            for c in range(b + 1, n - 1):
                hand[2] = deck[c]
                for d in range(c + 1, n):
                    hand[3] = deck[d]
                    # First the cross-offs that cost nothing (the three cards'
                    # value on the sheet as it is); then the others, each at
                    # most that value (a circle taken away or a location
                    # blocked only removes ends), only while they could beat
                    # the best so far.
                    v = -1
                    for x in range(4):
                        xb = bit(hand[x])
                        three = 0
                        for i in range(4):
                            if i != x:
                                three |= bit(hand[i])
                        ceiling_x[x] = memo_circles(P, &G, M, s.circled, s.crossed, s.exact,
                                                    base_points, three, required, room, &kept)
                        costly[x] = (s.circled & xb) != 0 or (kept & xb) != 0
                        if not costly[x] and ceiling_x[x] > v:
                            v = ceiling_x[x]
                    for x in range(4):
                        if costly[x] and ceiling_x[x] > v:
                            xb = bit(hand[x])
                            three = 0
                            for i in range(4):
                                if i != x:
                                    three |= bit(hand[i])
                            got = memo_circles(P, &G, M, s.circled & ~xb, s.crossed | xb, s.exact,
                                               sheet_score(P, s.circled & ~xb, s.exact).total,
                                               three, required,
                                               room_of(P, s.circled & ~xb, s.crossed | xb), &kept)
                            if got > v:
                                v = got
                    hands += 1
                    if v >> 16:                  # a lost challenge scores nothing
                        wins += 1
                        points += v & 0xFFFF
    win[0] = <double> wins / hands
    score[0] = <double> points / hands
