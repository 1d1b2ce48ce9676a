# cython: language_level=3, embedsignature=True, embedsignature.format=clinic
"""Santa Cruz on 64-bit boards: the C kernel behind
:class:`solvers.games.santacruz.kernel.SantaCruzKernel`.

The rules, action ids and seeded chance are those of
``solvers.games.santacruz.reference`` (the rules of record; in words in
``docs/rules/santa-cruz.md``). A state is the plain struct ``ScState``
(santa_cruz.pxd): the 49 sites as 64-bit masks (face-up tiles, each seat's
buildings), with road, river and coast neighbour masks in the parameters;
hands and played scoring cards as 32-bit card masks. Where may I build is a
few ANDs and ORs of those masks.

Every C function below is ``noexcept nogil`` and fills the ``GameDef`` of
game_api.h, so search code drives the game through function pointers
without touching a Python object.
"""

cimport cython
from libc.stdint cimport uint64_t, uint32_t, int8_t, int32_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from santa_cruz cimport *
from game_api cimport (
    GameDef, GAME_CHANCE, GAME_TERMINAL, GAME_HIDDEN,
    splitmix64_next, rng_below, rng_below_mul, rng_shuffle_i8,
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
    static inline int sc_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int popcount64 "sc_popcount64"(unsigned long long x) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long x) nogil

STEP_NAMES = ("layout", "deal", "choose", "draw", "discard", "land", "play", "build", "bird", "over")
CARD_KIND_NAMES = ("ship", "road", "river", "double")
# The playout policy: how often (out of 256) a playout build takes the
# reachable site with the most points rather than a random one.
PLAYOUT_SITE_WEIGHT = 192
cdef uint64_t ONE = 1
cdef uint32_t ONE32 = 1


cdef inline bint is_chance(int step) noexcept nogil:
    return step == SC_LAYOUT or step == SC_DEAL or step == SC_DRAW or step == SC_BIRD


cdef inline int layout_site(const ScState *s) noexcept nogil:
    return s.tile_pos[0] + s.tile_pos[1] + s.tile_pos[2]


cdef inline int last_seat(const ScParams *p, const ScState *s) noexcept nogil:
    return (s.start + p.num_players - 1) % p.num_players


# ----- setup -----------------------------------------------------------------
cdef void sc_new_state(const ScParams *p, ScState *s, uint64_t seed) noexcept nogil:
    """A fresh game: the tiles of each kind, the scoring cards and the bird
    bag shuffled with SplitMix64(seed) in that order, nothing laid."""
    cdef uint64_t rng = seed
    cdef int k, i, v, n
    memset(s, 0, sizeof(ScState))
    for k in range(3):
        for i in range(p.kind_count[k]):
            s.tile_order[k][i] = p.kind_tiles[k][i]
        rng_shuffle_i8(&rng, s.tile_order[k], p.kind_count[k])
    for i in range(p.num_cards):
        s.deck[i] = <int8_t>i
    rng_shuffle_i8(&rng, s.deck, p.num_cards)
    n = 0
    for v in range(3):
        for i in range(p.bird_counts[v]):
            s.bag[n] = <int8_t>(v + 1)
            n += 1
    s.bag_len = <int8_t>n
    rng_shuffle_i8(&rng, s.bag, n)
    memset(s.site_tile, -1, SC_MAX_SITES)
    for i in range(p.num_players):
        for k in range(3):
            s.supply[i][k] = p.supply[k]
        s.set_of[i] = -1
        s.drawn[i] = -1
        s.discarded[i] = -1
    s.round = 1
    s.build_kind = -1
    s.step = SC_LAYOUT
    if p.num_sites == 0:
        s.step = SC_DEAL


cdef inline int free_sets(const ScParams *p, const ScState *s) noexcept nogil:
    """The sets still to be taken, as a mask."""
    cdef int m = 0, k, q
    for k in range(p.num_sets):
        if s.round == 1 or (s.sets_used >> k) & 1:
            m |= 1 << k
    for q in range(p.num_players):
        if s.set_of[q] >= 0:
            m &= ~(1 << s.set_of[q])
    return m


cdef void ranking(const ScParams *p, const ScState *s, int *out) noexcept nogil:
    """Seats from the front of the track to the back."""
    cdef int i, j, q
    for i in range(p.num_players):
        out[i] = i
    for i in range(1, p.num_players):
        q = out[i]
        j = i - 1
        while j >= 0 and (s.score[out[j]] < s.score[q] or
                          (s.score[out[j]] == s.score[q] and s.arrival[out[j]] > s.arrival[q])):
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = q


cdef inline void move_marker(ScState *s, int q, int points) noexcept nogil:
    if points == 0:
        return
    s.score[q] += points
    if s.score[q] < 0:
        s.score[q] = 0
    s.arrival[q] = s.clock
    s.clock += 1


# ----- where a card may build --------------------------------------------------
cdef uint64_t targets(const ScParams *p, const ScState *s, int kind) noexcept nogil:
    """The sites the player to move may build on with a ``kind`` build (0 ship,
    also landing; 1 road; 2 river)."""
    cdef int q = s.player, r, a, b
    cdef uint64_t mine = s.occ[q], reach = 0, m, any_occ = 0, two = 0, lacking = 0
    if kind == 0:
        reach = p.coast
    elif kind == 1:
        m = mine
        while m:
            reach |= p.road[ctz64(m)]
            m &= m - 1
    else:
        for r in range(p.num_rivers):
            if p.river_sites[r] & mine:
                reach |= p.river_sites[r]
    m = reach & ~mine
    if not m:
        return 0
    if q == last_seat(p, s) and not s.privilege_used:
        for a in range(p.num_players):
            two |= any_occ & s.occ[a]
            any_occ |= s.occ[a]
        m &= ~two
    else:
        for a in range(p.num_players):
            any_occ |= s.occ[a]
        m &= ~any_occ
    for b in range(3):
        if s.supply[q][b] == 0:
            lacking |= s.bmask[b]
    if kind == 2:
        return m & ~(s.face_up & lacking)
    return m & s.face_up & ~lacking


cdef inline void set_bmasks(const ScParams *p, ScState *s) noexcept nogil:
    """The building masks from the laid tiles."""
    cdef int x
    s.bmask[0] = 0
    s.bmask[1] = 0
    s.bmask[2] = 0
    for x in range(p.num_sites):
        if s.site_tile[x] >= 0:
            s.bmask[p.tile_building[s.site_tile[x]]] |= ONE << x


# ----- scoring -------------------------------------------------------------------
cdef int largest_group(const ScParams *p, uint64_t sites) noexcept nogil:
    cdef uint64_t left = sites, group, frontier, grow, m
    cdef int best = 0, n
    while left:
        group = left & (~left + 1)
        frontier = group
        while frontier:
            grow = 0
            m = frontier
            while m:
                grow |= p.road[ctz64(m)]
                m &= m - 1
            frontier = grow & sites & ~group
            group |= frontier
        left &= ~group
        n = popcount64(group)
        if n > best:
            best = n
    return best


cdef int card_points(const ScParams *p, const ScState *s, int card, int q) noexcept nogil:
    cdef uint64_t mine = s.occ[q], m
    cdef int kind = p.card_kind[card], houses = 0, types = 0, res = 0, bonus = 0, t, have, pts
    if kind == SK_PER_BUILDING:
        return p.card_points[card] * popcount64(mine & p.card_where[card])
    if kind == SK_BIRDS:
        return p.card_points[card] * (s.birds[q][0] + s.birds[q][1] + s.birds[q][2])
    if kind == SK_ERUPTION:
        return -p.card_points[card] * popcount64(mine & p.volcano)
    if kind == SK_STREET:
        return p.card_points[card] if largest_group(p, mine) >= p.card_need[card] else 0
    m = mine
    while m:
        t = s.site_tile[ctz64(m)]
        m &= m - 1
        types |= 1 << p.tile_building[t]
        if p.tile_building[t] == 0:
            houses += 1
        if p.tile_resource[t] >= 0:
            res |= 1 << p.tile_resource[t]
            if p.tile_resource[t] == 0:
                bonus += p.tile_bonus[t]
    if kind == SK_HOUSES:
        return p.card_points[card] if houses >= p.card_need[card] else 0
    if kind == SK_VARIETY:
        return p.card_points[card] if types == 7 else 0
    have = popcount64(<uint64_t>(res & p.card_res[card]))
    if have == p.card_nres[card]:
        pts = p.card_points[card]
    elif have:
        pts = p.card_one[card]
    else:
        pts = 0
    if p.card_res[card] & 1:                    # fish: the "+" bonuses
        pts += bonus
    return pts


cdef void score_card(const ScParams *p, ScState *s, int card) noexcept nogil:
    cdef int i, q
    for i in range(p.num_players):
        q = (s.player + i) % p.num_players
        move_marker(s, q, card_points(p, s, card, q))
    if p.card_kind[card] == SK_ERUPTION:
        for q in range(p.num_players):
            s.occ[q] &= ~p.volcano


# ----- turns and rounds ------------------------------------------------------------
cdef inline bint hand_empty(const ScState *s, int q) noexcept nogil:
    return s.hand_score[q] == 0 and s.hand_build[q][0] == 0 and s.hand_build[q][1] == 0 \
        and s.hand_build[q][2] == 0 and s.hand_build[q][3] == 0


cdef void end_round(const ScParams *p, ScState *s) noexcept nogil:
    cdef int q, i, k
    cdef int rank[SC_MAX_PLAYERS]
    if s.round == 2:
        for i in range(p.num_players):
            q = (last_seat(p, s) + i) % p.num_players
            move_marker(s, q, s.birds[q][0] + 2 * s.birds[q][1] + 3 * s.birds[q][2])
        s.step = SC_OVER
        return
    s.seen_r1 = s.face_up
    for q in range(p.num_players):
        s.set_scoring[s.set_of[q]] = s.played_score[q]
        s.sets_used |= 1 << s.set_of[q]
    s.round = 2
    for q in range(p.num_players):
        s.occ[q] = 0
        for k in range(3):
            s.supply[q][k] = p.supply[k]
        for k in range(4):
            s.played_build[q][k] = 0
        s.played_score[q] = 0
        s.set_of[q] = -1
    ranking(p, s, rank)
    for i in range(p.num_players):
        s.order[i] = <int8_t>rank[p.num_players - 1 - i]
    s.order_pos = 0
    s.step = SC_DRAW
    s.player = 0


cdef void end_turn(const ScParams *p, ScState *s) noexcept nogil:
    s.builds_left = 0
    s.build_kind = -1
    s.double_move = 0
    if s.player == last_seat(p, s) and hand_empty(s, s.player):
        end_round(p, s)
        return
    s.step = SC_PLAY
    s.player = (s.player + 1) % p.num_players


cdef inline void next_build(const ScParams *p, ScState *s) noexcept nogil:
    if s.builds_left and targets(p, s, s.build_kind):
        s.step = SC_BUILD
    else:
        end_turn(p, s)


cdef void next_lander(const ScParams *p, ScState *s) noexcept nogil:
    s.order_pos += 1
    if s.order_pos < p.num_players:
        s.player = s.order[s.order_pos]
    else:
        s.step = SC_PLAY
        s.player = s.start


cdef void settle_land(const ScParams *p, ScState *s) noexcept nogil:
    while s.step == SC_LAND and not targets(p, s, 0):
        next_lander(p, s)


cdef void start_landing(const ScParams *p, ScState *s) noexcept nogil:
    cdef int i
    for i in range(p.num_players):
        s.order[i] = <int8_t>((s.start + i) % p.num_players)
    s.order_pos = 0
    s.privilege_used = 0
    s.step = SC_LAND
    s.player = s.start
    settle_land(p, s)


cdef inline void take_set(const ScParams *p, ScState *s, int k) noexcept nogil:
    cdef int q = s.player, i
    s.set_of[q] = <int8_t>k
    for i in range(4):
        s.hand_build[q][i] = p.set_cards[k][i]
    if s.round == 2:
        s.hand_score[q] = s.set_scoring[k]
    s.order_pos += 1


cdef void next_chooser(const ScParams *p, ScState *s) noexcept nogil:
    """The next seat to choose a set (the last set is taken without a
    choice), or, once all are taken, the start of the round (round one) or
    the discards (round two)."""
    cdef int q, i, free
    while True:
        if s.order_pos == p.num_players:
            if s.round == 1:
                s.start = s.order[p.num_players - 1]
                for i in range(p.num_players):
                    q = (s.start + i) % p.num_players
                    s.score[q] = i
                    s.arrival[q] = s.clock
                    s.clock += 1
                start_landing(p, s)
            else:
                s.order_pos = 0
                s.step = SC_DISCARD
                s.player = s.order[0]
            return
        s.step = SC_CHOOSE
        s.player = s.order[s.order_pos]
        free = free_sets(p, s)
        if not (free and not (free & (free - 1))):
            return
        take_set(p, s, ctz64(<uint64_t>free))


cdef void choose_set(const ScParams *p, ScState *s, int k) noexcept nogil:
    take_set(p, s, k)
    next_chooser(p, s)


cdef inline void after_build(const ScParams *p, ScState *s, bint landing) noexcept nogil:
    if landing:
        s.step = SC_LAND
        next_lander(p, s)
        settle_land(p, s)
    else:
        next_build(p, s)


cdef void build(const ScParams *p, ScState *s, int site) noexcept nogil:
    cdef int q = s.player, t = s.site_tile[site], b, a
    cdef bint landing = s.step == SC_LAND
    cdef bint was_down = not ((s.face_up >> site) & 1)
    cdef uint64_t bit = ONE << site
    s.face_up |= bit
    b = p.tile_building[t]
    if not landing:
        s.builds_left -= 1
    if was_down and s.supply[q][b] == 0:
        if s.build_kind == 2:
            next_build(p, s)              # the two-river exception
        else:
            s.builds_left = 0
            end_turn(p, s)
        return
    for a in range(p.num_players):
        if s.occ[a] & bit:
            s.privilege_used = 1
    s.occ[q] |= bit
    s.supply[q][b] -= 1
    move_marker(s, q, p.tile_points[t])
    s.face_up |= p.road[site] | p.river_nb[site]
    if p.tile_bird[t] and s.bag_pos < s.bag_len:
        s.step = SC_BIRD
        return
    after_build(p, s, landing)


cdef void play_card(const ScParams *p, ScState *s, int action) noexcept nogil:
    cdef int q = s.player, card, kind
    if action >= p.play_score:
        card = action - p.play_score
        s.hand_score[q] &= ~(ONE32 << card)
        s.played_score[q] |= ONE32 << card
        score_card(p, s, card)
        end_turn(p, s)
        return
    if action >= p.play_double:
        s.hand_build[q][3] -= 1
        s.played_build[q][3] += 1
        s.build_kind = <int8_t>(action - p.play_double)
        s.builds_left = 2
        s.double_move = 1
    else:
        kind = action - p.play_ship
        s.hand_build[q][kind] -= 1
        s.played_build[q][kind] += 1
        s.build_kind = <int8_t>kind
        s.builds_left = 1
        s.double_move = 0
    next_build(p, s)


# ----- the C table ---------------------------------------------------------------
cdef int sc_current_player(const void *params, const void *st) noexcept nogil:
    cdef const ScState *s = <const ScState *>st
    if is_chance(s.step):
        return GAME_CHANCE
    if s.step == SC_OVER:
        return GAME_TERMINAL
    return s.player


cdef int chance_pile(const ScParams *p, const ScState *s, const int8_t **pile, int *pos, int *end) noexcept nogil:
    """The pile the next chance outcome comes from; returns the action base."""
    cdef int k
    if s.step == SC_LAYOUT:
        k = p.site_kind[layout_site(s)]
        pile[0] = s.tile_order[k]
        pos[0] = s.tile_pos[k]
        end[0] = p.kind_count[k]
        return p.tile_base
    if s.step == SC_DEAL or s.step == SC_DRAW:
        pile[0] = s.deck
        pos[0] = s.deck_pos
        end[0] = p.num_cards
        return p.card_base
    pile[0] = s.bag
    pos[0] = s.bag_pos
    end[0] = s.bag_len
    return p.bird_base - 1


cdef int sc_chance_outcomes(const void *params, const void *st, int *out, double *probs) noexcept nogil:
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef const int8_t *pile
    cdef int pos, end, base, i, n = 0
    cdef int counts[SC_MAX_TILES + 1]
    if not is_chance(s.step):
        return 0
    base = chance_pile(p, s, &pile, &pos, &end)
    memset(counts, 0, sizeof(counts))
    for i in range(pos, end):
        counts[pile[i]] += 1
    for i in range(SC_MAX_TILES + 1):
        if counts[i]:
            out[n] = base + i
            if probs != NULL:
                probs[n] = <double>counts[i] / (end - pos)
            n += 1
    return n


cdef int sc_legal_actions(const void *params, const void *st, int *out) noexcept nogil:
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef int n = 0, k, q = s.player
    cdef uint64_t m
    cdef uint32_t c
    if is_chance(s.step):
        return sc_chance_outcomes(params, st, out, NULL)
    if s.step == SC_CHOOSE:
        k = free_sets(p, s)
        while k:
            out[n] = p.set_base + ctz64(<uint64_t>k)
            k &= k - 1
            n += 1
        return n
    if s.step == SC_DISCARD:
        c = s.hand_score[q] | (ONE32 << s.drawn[q])
        while c:
            out[n] = p.discard_base + ctz64(<uint64_t>c)
            c &= c - 1
            n += 1
        return n
    if s.step == SC_LAND or s.step == SC_BUILD:
        m = targets(p, s, 0 if s.step == SC_LAND else s.build_kind)
        while m:
            out[n] = ctz64(m)
            m &= m - 1
            n += 1
        return n
    if s.step == SC_PLAY:
        for k in range(3):
            if s.hand_build[q][k]:
                out[n] = p.play_ship + k
                n += 1
        if s.hand_build[q][3]:
            for k in range(3):
                out[n] = p.play_double + k
                n += 1
        c = s.hand_score[q]
        while c:
            out[n] = p.play_score + ctz64(<uint64_t>c)
            c &= c - 1
            n += 1
        return n
    return 0


cdef void sc_apply_action(const void *params, void *st, int action) noexcept nogil:
    cdef const ScParams *p = <const ScParams *>params
    cdef ScState *s = <ScState *>st
    cdef const int8_t *cpile
    cdef int8_t *pile
    cdef int pos, end, base, item, i, site, kind, q
    cdef int8_t tmp
    if is_chance(s.step):
        base = chance_pile(p, s, &cpile, &pos, &end)
        pile = <int8_t *>cpile
        item = action - base
        i = pos
        while pile[i] != item:
            i += 1
        tmp = pile[pos]
        pile[pos] = pile[i]
        pile[i] = tmp
        if s.step == SC_LAYOUT:
            site = layout_site(s)
            kind = p.site_kind[site]
            s.tile_pos[kind] += 1
            s.site_tile[site] = <int8_t>item
            s.bmask[p.tile_building[item]] |= ONE << site
            if kind == 0:
                s.face_up |= ONE << site
            if layout_site(s) == p.num_sites:
                s.step = SC_DEAL
        elif s.step == SC_DEAL:
            s.hand_score[s.deck_pos % p.num_players] |= ONE32 << item
            s.deck_pos += 1
            if s.deck_pos == p.num_players * p.dealt_each:
                for i in range(p.num_players):
                    s.order[i] = p.first_order[i]
                s.order_pos = 0
                next_chooser(p, s)
        elif s.step == SC_DRAW:
            s.drawn[s.player] = <int8_t>item
            s.deck_pos += 1
            if s.player + 1 < p.num_players:
                s.player += 1
            else:
                next_chooser(p, s)
        else:
            s.birds[s.player][item - 1] += 1
            s.bag_pos += 1
            after_build(p, s, s.build_kind < 0)
    elif s.step == SC_CHOOSE:
        choose_set(p, s, action - p.set_base)
    elif s.step == SC_DISCARD:
        q = s.player
        s.hand_score[q] |= ONE32 << s.drawn[q]
        s.hand_score[q] &= ~(ONE32 << (action - p.discard_base))
        s.discarded[q] = <int8_t>(action - p.discard_base)
        s.order_pos += 1
        if s.order_pos < p.num_players:
            s.player = s.order[s.order_pos]
        else:
            s.start = s.order[0]
            start_landing(p, s)
    elif s.step == SC_LAND or s.step == SC_BUILD:
        build(p, s, action)
    else:
        play_card(p, s, action)


cdef int sc_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef const int8_t *pile
    cdef int pos, end, base
    base = chance_pile(p, s, &pile, &pos, &end)
    return base + pile[pos + rng_below(rng, end - pos)]


cdef void sc_returns(const void *params, const void *st, double *out) noexcept nogil:
    """1 for the player furthest ahead at the end (no ties), 0 otherwise."""
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef int rank[SC_MAX_PLAYERS]
    cdef int i
    for i in range(p.num_players):
        out[i] = 0.0
    if s.step == SC_OVER:
        ranking(p, s, rank)
        out[rank[0]] = 1.0


cdef void sc_determinize(const void *params, void *st, int player, uint64_t *rng) noexcept nogil:
    """``GameDef.determinize``: :func:`redeal`, forgetting round one's tiles
    when the core is set to (``forget_round_one``, a measurement)."""
    cdef const ScParams *p = <const ScParams *>params
    redeal(p, <ScState *>st, player, rng, p.forget_round_one)


cdef void redeal(const ScParams *p, ScState *s, int player, uint64_t *rng, bint forget) noexcept nogil:
    """Re-deal everything ``player`` cannot see, exactly as reference.redeal
    does: per site kind the face-down and unlaid tiles; the other seats' bird
    tokens and the bag; the other seats' scoring cards (round two: their
    secret draws and discards) and the pile. Each pool is gathered in
    ascending order, shuffled and dealt back with every size kept. With
    ``forget``, in round two the free inland tiles revealed in round one
    count as unseen too."""
    cdef int8_t buf[SC_MAX_TILES + SC_MAX_BIRDS]
    cdef int8_t down[SC_MAX_SITES]
    cdef int k, i, n, nd, pos, q, v, c, j, x, laid
    cdef uint32_t known, options, secret = 0
    cdef int counts[SC_MAX_TILES + 1]
    cdef uint64_t unseen = ~s.face_up, occupied = 0
    if forget and s.round == 2:
        # the measurement of round one's knowledge: free tiles revealed in
        # round one count as unseen (coastal tiles were face up from the start)
        for q in range(p.num_players):
            occupied |= s.occ[q]
        unseen |= s.seen_r1 & ~p.coast & ~occupied
        if s.step == SC_LAND or s.step == SC_BUILD:
            # keep the sites the move may go to, so the legal moves stay as they are
            unseen &= ~targets(p, s, 0 if s.step == SC_LAND else s.build_kind) | ~s.face_up
    # tiles
    for k in range(3):
        pos = s.tile_pos[k]
        memset(counts, 0, sizeof(counts))
        nd = 0
        laid = 0
        for x in range(p.num_sites):
            if p.site_kind[x] == k and s.site_tile[x] >= 0:
                laid += 1
                if (unseen >> x) & 1:
                    down[nd] = <int8_t>x
                    nd += 1
                    counts[s.site_tile[x]] += 1
        for i in range(pos, p.kind_count[k]):
            counts[s.tile_order[k][i]] += 1
        n = 0
        for i in range(SC_MAX_TILES + 1):
            for j in range(counts[i]):
                buf[n] = <int8_t>i
                n += 1
        rng_shuffle_i8(rng, buf, n)
        for i in range(nd):
            s.site_tile[down[i]] = buf[i]
        for i in range(pos, p.kind_count[k]):
            s.tile_order[k][i] = buf[nd + i - pos]
        j = 0
        for x in range(p.num_sites):
            if p.site_kind[x] == k and j < pos:
                s.tile_order[k][j] = s.site_tile[x]
                j += 1
    set_bmasks(p, s)
    # bird tokens
    n = 0
    for v in range(3):
        c = 0
        for q in range(p.num_players):
            if q != player:
                c += s.birds[q][v]
        for i in range(s.bag_pos, s.bag_len):
            if s.bag[i] == v + 1:
                c += 1
        for i in range(c):
            buf[n] = <int8_t>(v + 1)
            n += 1
    rng_shuffle_i8(rng, buf, n)
    j = 0
    for q in range(p.num_players):
        if q == player:
            continue
        c = s.birds[q][0] + s.birds[q][1] + s.birds[q][2]
        s.birds[q][0] = 0
        s.birds[q][1] = 0
        s.birds[q][2] = 0
        for i in range(c):
            s.birds[q][buf[j] - 1] += 1
            j += 1
    for i in range(s.bag_pos, s.bag_len):
        s.bag[i] = buf[j]
        j += 1
    # scoring cards
    known = 0
    for q in range(p.num_players):
        if q == player:
            continue
        if s.round == 1:
            known |= s.hand_score[q]
        elif s.drawn[q] >= 0 and not (s.played_score[q] >> s.drawn[q]) & 1:
            secret |= ONE32 << q
            known |= ONE32 << s.drawn[q]
    for i in range(s.deck_pos, p.num_cards):
        known |= ONE32 << s.deck[i]
    n = 0
    while known:
        buf[n] = <int8_t>ctz64(<uint64_t>known)
        known &= known - 1
        n += 1
    rng_shuffle_i8(rng, buf, n)
    j = 0
    for q in range(p.num_players):
        if q == player:
            continue
        if s.round == 1:
            c = popcount64(<uint64_t>s.hand_score[q])
            s.hand_score[q] = 0
            for i in range(c):
                s.hand_score[q] |= ONE32 << buf[j]
                j += 1
        else:
            if (secret >> q) & 1:
                s.drawn[q] = buf[j]
                j += 1
            if s.discarded[q] >= 0:
                options = (s.set_scoring[s.set_of[q]] | (ONE32 << s.drawn[q])) & ~s.played_score[q]
                i = rng_below(rng, popcount64(<uint64_t>options))
                known = options
                while i > 0:
                    known &= known - 1
                    i -= 1
                c = ctz64(<uint64_t>known)
                s.discarded[q] = <int8_t>c
                s.hand_score[q] = options & ~(ONE32 << c)
    for i in range(s.deck_pos, p.num_cards):
        s.deck[i] = buf[j]
        j += 1
    # The dealt parts of the pile and the bag record who got what (and, once
    # the hidden cards and tokens are re-dealt, no longer match them):
    # rewritten as what is off the pile and out of the bag, ascending, they
    # tell nothing (reference.redeal does the same).
    off_pile_and_bag(p, s)


cdef inline void off_pile_and_bag(const ScParams *p, ScState *s) noexcept nogil:
    """Rewrite ``deck[:deck_pos]`` as the cards not in ``deck[deck_pos:]``
    and ``bag[:bag_pos]`` as the token values not in ``bag[bag_pos:]``
    (the bag's starting counts per value less what is left), both ascending."""
    cdef uint32_t left = 0
    cdef int counts[4]
    cdef int i, k = 0, v
    for i in range(s.deck_pos, p.num_cards):
        left |= ONE32 << s.deck[i]
    for i in range(p.num_cards):
        if not (left >> i) & 1:
            s.deck[k] = <int8_t>i
            k += 1
    counts[0] = 0
    for v in range(3):
        counts[v + 1] = p.bird_counts[v]
    for i in range(s.bag_pos, s.bag_len):
        counts[s.bag[i]] -= 1
    k = 0
    for v in range(1, 4):
        for i in range(counts[v]):
            s.bag[k] = <int8_t>v
            k += 1


cdef int sc_action_observation(const void *params, const void *st, int action, int player) noexcept nogil:
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    if s.step == SC_LAYOUT:
        return action if p.site_kind[layout_site(s)] == 0 else GAME_HIDDEN
    if s.step == SC_DEAL:
        return action if s.deck_pos % p.num_players == player else GAME_HIDDEN
    if s.step == SC_DRAW or s.step == SC_BIRD or s.step == SC_DISCARD:
        return action if s.player == player else GAME_HIDDEN
    cdef int k
    if s.step == SC_PLAY and p.play_double <= action < p.play_score \
            and not targets(p, s, action - p.play_double):
        # a double move with nothing to build ends at once: every such kind
        # leaves the same position, so all see it as the first of them
        for k in range(3):
            if not targets(p, s, k):
                return p.play_double + k
    return action


cdef uint64_t sc_hash(const void *params, const void *st) noexcept nogil:
    """A mixed hash of the whole struct (always zero-filled, so padding is
    stable)."""
    cdef const uint64_t *w = <const uint64_t *>st
    cdef uint64_t h = 0x53414E5441435255ULL, z
    cdef size_t i
    for i in range(sizeof(ScState) // 8):
        z = h ^ w[i]
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        h = z ^ (z >> 31)
    return h


cdef int sc_rollout_action(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    """``GameDef.rollout_action``: at a landing or build, most of the time
    (pol_site/256) the reachable site whose face-up tile scores most (a
    face-down tile counts as 2), ties to the lowest id; otherwise, and at
    every other step, a uniformly random legal action."""
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef int acts[SC_MAX_ACTIONS]
    cdef int n, best = -1, best_pts = -1, x, pts
    cdef uint64_t m
    if (s.step == SC_LAND or s.step == SC_BUILD) and rng_below_mul(rng, 256) < p.pol_site:
        m = targets(p, s, 0 if s.step == SC_LAND else s.build_kind)
        while m:
            x = ctz64(m)
            m &= m - 1
            pts = p.tile_points[s.site_tile[x]] if (s.face_up >> x) & 1 else 2
            if pts > best_pts:
                best_pts = pts
                best = x
        if best >= 0:
            return best
    n = sc_legal_actions(params, st, acts)
    return acts[rng_below_mul(rng, n)]


cdef int sc_is_legal(const ScParams *p, const ScState *s, int action) noexcept nogil:
    cdef int buf[SC_MAX_ACTIONS]
    cdef int n = sc_legal_actions(p, s, buf), i
    for i in range(n):
        if buf[i] == action:
            return 1
    return 0


# ----- evaluation features (eval_api.h) -------------------------------------------
# The features a learned evaluation reads (solvers.learn, mcts.pyx), for seat
# q: a block for q, a block for the other seats (their mean), the same two
# blocks scaled by the game's progress, and a few globals. Only what q may see
# goes in: the island's face-up tiles and every building, the track, every
# seat's building cards (the sets and the plays are public), the number of
# scoring cards and bird tokens each seat holds, and q's own scoring cards and
# bird-token values; never another seat's scoring cards or token values, a
# face-down tile, the pile or the bag. Bump SC_FEATURES_VERSION whenever a
# feature's meaning changes (docs/learning.md has the table).
cdef enum:
    SC_FEATURES_VERSION = 1
    SC_BLOCK = 8             # features per block (see sc_features)
    SC_NUM_FEATURES = 4 * SC_BLOCK + 7

FEATURE_NAMES = tuple(
    [f"{who}{scaled}:{name}" for scaled in ("", "*progress") for who in ("own", "others")
     for name in ("score", "birds", "bird_tokens", "buildings", "my_cards_pay", "cards_held",
                  "build_cards", "reach_best")]
    + ["progress", "to_move", "round_two", "lead", "ahead", "ahead*progress", "bias"])


cdef int reach_best(const ScParams *p, const ScState *s, int x, uint64_t any_occ) noexcept nogil:
    """The most points of a free face-up site that seat ``x``'s building cards
    reach (a ship or double move: the coast; a road or double: the sites a
    road joins to x's buildings; a river or double: the rivers x is on), for a
    building x still has; 0 when none. Face-down tiles are not read."""
    cdef uint64_t mine = s.occ[x], reach = 0, m
    cdef int r, best = 0, t, dbl = s.hand_build[x][3]
    if s.hand_build[x][0] or dbl:
        reach |= p.coast
    if s.hand_build[x][1] or dbl:
        m = mine
        while m:
            reach |= p.road[ctz64(m)]
            m &= m - 1
    if s.hand_build[x][2] or dbl:
        for r in range(p.num_rivers):
            if p.river_sites[r] & mine:
                reach |= p.river_sites[r]
    m = reach & s.face_up & ~any_occ & p.all_sites
    while m:
        t = s.site_tile[ctz64(m)]
        m &= m - 1
        if t >= 0 and s.supply[x][p.tile_building[t]] > 0 and p.tile_points[t] > best:
            best = p.tile_points[t]
    return best


cdef void sc_features(const void *params, const void *st, int seat, float *out) noexcept nogil:
    """``FeatureDef.features`` for Santa Cruz (the layout of FEATURE_NAMES).

    Per block, for that block's seats: the score on the track; bird tokens'
    value (``seat``'s own: the real values; another seat's: its count times
    the mean value of the tokens ``seat`` has not seen); the number of bird
    tokens; buildings on the island; what ``seat``'s own scoring cards would
    pay that seat if played now (my_cards_pay); scoring cards held (a count);
    building cards left (a double move counts 2); the best points a building
    card of that seat reaches (reach_best). Globals: progress (cards played
    over both rounds), whether ``seat`` is to move, round two, the lead
    (``seat``'s score and birds less the best other seat's; the birds left
    out once the game is over, as they are on the track), ahead (1, 0.5 on a
    tie, 0) and ahead scaled by progress, and a constant 1."""
    cdef const ScParams *p = <const ScParams *>params
    cdef const ScState *s = <const ScState *>st
    cdef float blk[2][SC_BLOCK]
    cdef int q, b, others = 0, own_n, own_val, total_n = 0, total_val = 0, v, played = 0, hand
    cdef int cards, c, k
    cdef uint64_t any_occ = 0
    cdef uint32_t mine_cards = s.hand_score[seat], cm
    cdef float ev, prog, total, own_total = 0, best_other = -1e9
    memset(blk, 0, sizeof(blk))
    for q in range(p.num_players):
        any_occ |= s.occ[q]
    for v in range(3):
        total_n += p.bird_counts[v]
        total_val += (v + 1) * p.bird_counts[v]
    own_n = s.birds[seat][0] + s.birds[seat][1] + s.birds[seat][2]
    own_val = s.birds[seat][0] + 2 * s.birds[seat][1] + 3 * s.birds[seat][2]
    ev = <float>(total_val - own_val) / (total_n - own_n) if total_n > own_n else 0.0
    for q in range(p.num_players):
        b = 0 if q == seat else 1
        if b:
            others += 1
        cards = s.birds[q][0] + s.birds[q][1] + s.birds[q][2]
        blk[b][0] += s.score[q]
        blk[b][1] += own_val if q == seat else cards * ev
        blk[b][2] += cards
        blk[b][3] += popcount64(s.occ[q])
        cm = mine_cards
        while cm:
            c = ctz64(<uint64_t>cm)
            cm &= cm - 1
            blk[b][4] += card_points(p, s, c, q)
        blk[b][5] += popcount64(<uint64_t>s.hand_score[q])
        blk[b][6] += s.hand_build[q][0] + s.hand_build[q][1] + s.hand_build[q][2] \
            + 2 * s.hand_build[q][3]
        blk[b][7] += reach_best(p, s, q, any_occ)
        # after round two the tokens are on the track already
        total = s.score[q] + (0 if s.step == SC_OVER else (own_val if q == seat else cards * ev))
        if q == seat:
            own_total = total
        elif total > best_other:
            best_other = total
        for k in range(4):
            played += s.played_build[q][k]
        played += popcount64(<uint64_t>s.played_score[q])
    if others > 1:
        for k in range(SC_BLOCK):
            blk[1][k] /= others
    # progress: the cards played over both rounds (the landings not counted)
    hand = p.dealt_each
    for k in range(4):
        hand += p.set_cards[0][k]
    if s.step == SC_OVER:
        prog = 1.0
    elif s.step <= SC_DEAL or hand <= 0:
        prog = 0.0
    else:
        prog = ((s.round - 1) * p.num_players * hand + played) / (2.0 * p.num_players * hand)
        if prog > 1:
            prog = 1
    for k in range(SC_BLOCK):
        out[k] = blk[0][k]
        out[SC_BLOCK + k] = blk[1][k]
        out[2 * SC_BLOCK + k] = blk[0][k] * prog
        out[3 * SC_BLOCK + k] = blk[1][k] * prog
    k = 4 * SC_BLOCK
    out[k] = prog
    out[k + 1] = 1.0 if sc_current_player(params, st) == seat else 0.0
    out[k + 2] = 1.0 if s.round == 2 else 0.0
    out[k + 3] = own_total - best_other
    out[k + 4] = 1.0 if own_total > best_other else (0.5 if own_total == best_other else 0.0)
    out[k + 5] = out[k + 4] * prog
    out[k + 6] = 1.0


# ----- Python objects ------------------------------------------------------------
cdef class SantaCruzCore:
    """The constant tables of one game (player count and island) and its
    GameDef. Built by :class:`~solvers.games.santacruz.kernel.SantaCruzKernel`
    from the reference game (``rules``); a capsule from ``gamedef_capsule()``
    keeps it alive."""

    cdef ScParams *params
    cdef GameDef gamedef
    cdef FeatureDef featuredef
    cdef object __weakref__

    def __cinit__(self, rules):
        from solvers.games.santacruz.data import BUILDINGS, CARD_KINDS, RESOURCES, SCORING_KINDS, SITE_KINDS
        cdef ScParams *p
        cdef GameDef *g
        cdef int i, k, n
        isl = rules.island
        n = rules.num_players
        kinds = {name: isl.tiles_of(name) for name in SITE_KINDS}
        if not (2 <= n <= SC_MAX_PLAYERS and isl.num_sites <= SC_MAX_SITES
                and len(isl.tiles) <= SC_MAX_TILES and len(isl.scoring_cards) <= SC_MAX_CARDS
                and len(isl.building_sets) <= SC_MAX_SETS and len(isl.rivers) <= SC_MAX_RIVERS
                and sum(isl.bird_tokens.values()) <= SC_MAX_BIRDS
                and all(len(v) <= SC_MAX_KIND_TILES for v in kinds.values())):
            raise SolversError("Santa Cruz kernel: the island is larger than the kernel's tables")
        p = <ScParams *>calloc(1, sizeof(ScParams))
        if p == NULL:
            raise MemoryError()
        self.params = p
        p.num_players = n
        p.num_sites = isl.num_sites
        p.num_sets = len(isl.building_sets)
        p.num_cards = len(isl.scoring_cards)
        p.num_tiles = len(isl.tiles)
        p.num_rivers = len(isl.rivers)
        p.dealt_each = rules.dealt_each
        p.set_base = rules.SET
        p.play_ship = rules.PLAY_SHIP
        p.play_double = rules.PLAY_DOUBLE
        p.play_score = rules.PLAY_SCORE
        p.discard_base = rules.DISCARD
        p.tile_base = rules.TILE
        p.card_base = rules.CARD
        p.bird_base = rules.BIRD
        p.num_actions = rules.num_distinct_actions()
        p.all_sites = (ONE << p.num_sites) - 1 if p.num_sites < 64 else ~(<uint64_t>0)
        p.coast = rules.coast
        p.volcano = rules.volcano
        p.on_river = rules.on_river
        for i in range(p.num_sites):
            p.road[i] = isl.road_masks[i]
            p.river_nb[i] = isl.river_masks[i]
            p.site_kind[i] = SITE_KINDS.index(isl.sites[i].kind)
        for i in range(p.num_rivers):
            p.river_sites[i] = isl.river_sites[i]
        for k in range(3):
            tiles = kinds[SITE_KINDS[k]]
            p.kind_count[k] = len(tiles)
            for i, t in enumerate(tiles):
                p.kind_tiles[k][i] = t
        for i, t in enumerate(isl.tiles):
            p.tile_building[i] = BUILDINGS.index(t.building)
            p.tile_points[i] = t.points
            p.tile_resource[i] = -1 if t.resource is None else RESOURCES.index(t.resource)
            p.tile_bonus[i] = t.fish_bonus
            p.tile_bird[i] = t.bird
        for k in range(3):
            p.supply[k] = isl.supply[BUILDINGS[k]]
            p.bird_counts[k] = isl.bird_tokens[k + 1]
        for i, b in enumerate(isl.building_sets):
            for k in range(4):
                p.set_cards[i][k] = b.cards.get(CARD_KINDS[k], 0)
        where = {"coast": rules.coast, "river": rules.on_river, "volcano": rules.volcano}
        for i, c in enumerate(isl.scoring_cards):
            p.card_kind[i] = SCORING_KINDS.index(c.kind)
            p.card_points[i] = c.points
            p.card_need[i] = c.need
            p.card_one[i] = c.one
            p.card_nres[i] = len(c.resources)
            p.card_res[i] = sum(1 << RESOURCES.index(r) for r in c.resources)
            p.card_where[i] = where.get(c.where, 0)
        for i, q in enumerate(rules.first_choice_order):
            p.first_order[i] = q
        p.pol_site = PLAYOUT_SITE_WEIGHT
        p.forget_round_one = 0

        g = &self.gamedef
        g.name = b"santacruz"
        g.num_players = n
        g.max_actions = SC_MAX_ACTIONS
        g.num_distinct_actions = p.num_actions
        hand = isl.hand_size(n)
        # layout, deals, choices, draws and discards, then per round and seat
        # a landing and its bird, and per card a play and two builds with birds
        g.max_game_length = p.num_sites + p.num_cards + 4 * n + 2 * n * (2 + 5 * hand)
        g.state_size = sizeof(ScState)
        g.params = p
        g.current_player = sc_current_player
        g.legal_actions = sc_legal_actions
        g.apply_action = sc_apply_action
        g.chance_outcomes = sc_chance_outcomes
        g.sample_chance = sc_sample_chance
        g.returns = sc_returns
        g.determinize = sc_determinize
        g.action_observation = sc_action_observation
        g.hash = sc_hash
        g.rollout_action = sc_rollout_action
        g.playout = NULL
        g.public_decisions = 0         # round-two discards are secret
        self.featuredef.game = b"santacruz"
        self.featuredef.version = SC_FEATURES_VERSION
        self.featuredef.num_features = SC_NUM_FEATURES
        self.featuredef.features = sc_features

    def __dealloc__(self):
        free(self.params)

    @property
    def forget_round_one(self) -> bool:
        """For measuring what round one teaches: when set, the searches'
        re-deals (``GameDef.determinize``) in round two also shuffle the free
        inland tiles revealed in round one, as if the searching seat had not
        seen them; ``resample`` (and so an agent's view of the seat) never
        does. Off by default; the rules are unchanged either way."""
        return bool(self.params.forget_round_one)

    @forget_round_one.setter
    def forget_round_one(self, value) -> None:
        self.params.forget_round_one = 1 if value else 0

    @property
    def state_size(self) -> int:
        return sizeof(ScState)

    @property
    def max_game_length(self) -> int:
        return self.gamedef.max_game_length

    def gamedef_capsule(self):
        """A PyCapsule "solvers.GameDef" pointing at this game's GameDef."""
        return owned_capsule(&self.gamedef, SOLVERS_GAMEDEF_CAPSULE, self)

    def features_capsule(self):
        """A PyCapsule "solvers.Features" pointing at this game's FeatureDef
        (eval_api.h; it keeps this object alive): the evaluation features a
        learned model reads (``FEATURE_NAMES``)."""
        return owned_capsule(&self.featuredef, SOLVERS_FEATURES_CAPSULE, self)

    @property
    def feature_names(self) -> tuple:
        return FEATURE_NAMES

    def play_random_games(self, long n, uint64_t seed):
        """Play ``n`` games in C, chance and players uniformly at random;
        return the mean score of each player. Game ``i`` is dealt from the
        i-th draw of ``SplitMix64(seed)``; chance and moves use the same
        generator."""
        cdef const ScParams *p = self.params
        cdef ScState s
        cdef int acts[SC_MAX_ACTIONS]
        cdef double totals[SC_MAX_PLAYERS]
        cdef uint64_t rng = seed
        cdef long g
        cdef int a, k, q
        if n <= 0:
            raise SolversError(f"the number of games should be positive, not {n}")
        for q in range(SC_MAX_PLAYERS):
            totals[q] = 0.0
        with nogil:
            for g in range(n):
                sc_new_state(p, &s, splitmix64_next(&rng))
                while s.step != SC_OVER:
                    if is_chance(s.step):
                        a = sc_sample_chance(p, &s, &rng)
                    else:
                        k = sc_legal_actions(p, &s, acts)
                        a = acts[rng_below(&rng, k)]
                    sc_apply_action(p, &s, a)
                for q in range(p.num_players):
                    totals[q] += s.score[q]
        return [totals[q] / n for q in range(p.num_players)]


cdef class KernelState:
    """The Python face of one ``ScState``; the kernel wrapper subclasses it
    (adding names and views shared with the reference). Fields read as the
    reference state's do."""

    cdef ScState st
    cdef const ScParams *p
    cdef SantaCruzCore core
    cdef public object game
    cdef object __weakref__
    cdef public list history
    cdef public object seed             # the game's seed (None for a loaded position)

    def _start(self, SantaCruzCore core, game, uint64_t seed):
        self.core = core
        self.p = core.params
        self.game = game
        self.history = []
        self.seed = seed
        sc_new_state(self.p, &self.st, seed)

    # ----- the State interface ------------------------------------------------
    # The hot methods are plain method descriptors (binding=False), the
    # kind of callable CPython calls fastest; embedsignature (line 1) keeps
    # their signatures for inspect.
    @cython.binding(False)
    def current_player(self) -> int:
        return sc_current_player(self.p, &self.st)

    @cython.binding(False)
    def is_chance_node(self) -> bool:
        return is_chance(self.st.step)

    @cython.binding(False)
    def is_terminal(self) -> bool:
        return self.st.step == SC_OVER

    @cython.binding(False)
    def legal_actions(self) -> list:
        cdef int buf[SC_MAX_ACTIONS]
        cdef int n = sc_legal_actions(self.p, &self.st, buf)
        return solvers_int_list(buf, n, ACTION_INTS)

    def chance_outcomes(self) -> list:
        cdef int buf[SC_MAX_ACTIONS]
        cdef double probs[SC_MAX_ACTIONS]
        cdef int n = sc_chance_outcomes(self.p, &self.st, buf, probs), i
        return [(buf[i], probs[i]) for i in range(n)]

    @cython.binding(False)
    def seeded_outcome(self) -> int:
        cdef const int8_t *pile
        cdef int pos, end, base
        if not is_chance(self.st.step):
            raise SolversError("not a chance node")
        base = chance_pile(self.p, &self.st, &pile, &pos, &end)
        return base + pile[pos]

    @cython.binding(False)
    def apply_action(self, action) -> None:
        cdef long a = solvers_action_index(action, 0)   # -1 for a non-int or a bool
        if a < 0 or a >= self.p.num_actions or not sc_is_legal(self.p, &self.st, <int>a):
            raise IllegalActionError(f"action {action!r} is not legal here")
        self.history.append(action)
        sc_apply_action(self.p, &self.st, <int>a)

    def scores(self) -> list:
        return [self.st.score[i] for i in range(self.p.num_players)]

    @cython.binding(False)
    def returns(self) -> list:
        cdef double out[SC_MAX_PLAYERS]
        sc_returns(self.p, &self.st, out)
        return [out[i] for i in range(self.p.num_players)]

    @cython.binding(False)
    def clone(self):
        cdef KernelState other = KernelState.__new__(type(self))
        other.st = self.st
        other.p = self.p
        other.core = self.core
        other.game = self.game
        other.history = list(self.history)
        other.seed = self.seed
        return other

    def resample(self, player, seed):
        """A copy in which everything ``player`` cannot see is dealt afresh
        from ``SplitMix64(seed)`` or the generator ``seed`` itself (which
        advances): the same deal as the reference's ``resample``."""
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
        # The rules' re-deal: what the seat really knows (a search set to
        # forget round one does so in its own determinize, not here).
        redeal(self.p, &other.st, <int>player, &rng, 0)
        if generator is not None:
            generator.state = rng
        return other

    def action_observation(self, int action, int player) -> int:
        return sc_action_observation(self.p, &self.st, action, player)

    def hash(self) -> int:
        return sc_hash(self.p, &self.st)

    def targets(self, kind: str) -> int:
        return targets(self.p, &self.st, ("ship", "road", "river").index(kind))

    def card_points(self, int card, int q) -> int:
        return card_points(self.p, &self.st, card, q)

    def ranking(self) -> list:
        cdef int rank[SC_MAX_PLAYERS]
        ranking(self.p, &self.st, rank)
        return [rank[i] for i in range(self.p.num_players)]

    def layout_site(self) -> int:
        return layout_site(&self.st)

    def last_seat(self) -> int:
        return last_seat(self.p, &self.st)

    def free_sets(self) -> list:
        cdef int m = free_sets(self.p, &self.st)
        return [k for k in range(self.p.num_sets) if m >> k & 1]

    def _state_capsule(self):
        return owned_capsule(&self.st, SOLVERS_STATE_CAPSULE, self)

    def _raw(self) -> bytes:
        return (<char *>&self.st)[:sizeof(ScState)]

    def _set_raw(self, bytes raw) -> None:
        if len(raw) != sizeof(ScState):
            raise SolversError(f"a Santa Cruz state has {sizeof(ScState)} bytes, not {len(raw)}")
        memcpy(&self.st, <const char *>raw, sizeof(ScState))

    def __reduce__(self):
        # The struct holds no pointer: the game (picklable), the struct's
        # bytes and the history rebuild the state in any process.
        return (_rebuild_state, (self.game, self._raw(), self.history))

    # ----- fields, named as in the reference state -------------------------
    @property
    def tile_order(self) -> dict:
        kinds = ("coast", "land", "volcano")
        return {kinds[k]: [self.st.tile_order[k][i] for i in range(self.p.kind_count[k])] for k in range(3)}

    @property
    def tile_pos(self) -> dict:
        kinds = ("coast", "land", "volcano")
        return {kinds[k]: self.st.tile_pos[k] for k in range(3)}

    @property
    def site_tile(self) -> list:
        return [self.st.site_tile[i] for i in range(self.p.num_sites)]

    @property
    def face_up(self) -> int:
        return self.st.face_up

    @property
    def occupants(self) -> list:
        """Seats on each site in arrival order (on a shared site the seat with
        the sharing privilege came second)."""
        last = last_seat(self.p, &self.st)
        out = []
        for x in range(self.p.num_sites):
            occ = [q for q in range(self.p.num_players) if self.st.occ[q] >> x & 1]
            if len(occ) == 2 and occ[0] == last:
                occ.reverse()
            out.append(occ)
        return out

    @property
    def supply(self) -> list:
        return [{"house": self.st.supply[q][0], "church": self.st.supply[q][1],
                 "lighthouse": self.st.supply[q][2]} for q in range(self.p.num_players)]

    @property
    def deck(self) -> list:
        return [self.st.deck[i] for i in range(self.p.num_cards)]

    @property
    def deck_pos(self) -> int:
        return self.st.deck_pos

    @property
    def bag(self) -> list:
        return [self.st.bag[i] for i in range(self.st.bag_len)]

    @property
    def bag_pos(self) -> int:
        return self.st.bag_pos

    @property
    def birds(self) -> list:
        """Each seat's bird-token values, ascending."""
        return [[v + 1 for v in range(3) for _ in range(self.st.birds[q][v])]
                for q in range(self.p.num_players)]

    @property
    def hand_build(self) -> list:
        return [{CARD_KIND_NAMES[k]: self.st.hand_build[q][k] for k in range(4)}
                for q in range(self.p.num_players)]

    @property
    def played_build(self) -> list:
        """Each seat's building cards played this round, by kind."""
        return [[CARD_KIND_NAMES[k] for k in range(4) for _ in range(self.st.played_build[q][k])]
                for q in range(self.p.num_players)]

    @property
    def hand_score(self) -> list:
        return [set(_cards(self.st.hand_score[q])) for q in range(self.p.num_players)]

    @property
    def played_score(self) -> list:
        return [_cards(self.st.played_score[q]) for q in range(self.p.num_players)]

    @property
    def set_of(self) -> list:
        return [self.st.set_of[q] for q in range(self.p.num_players)]

    @property
    def set_scoring(self) -> dict:
        return {k: _cards(self.st.set_scoring[k]) for k in range(self.p.num_sets)
                if self.st.sets_used >> k & 1}

    @property
    def score(self) -> list:
        return [self.st.score[q] for q in range(self.p.num_players)]

    @property
    def arrival(self) -> list:
        return [self.st.arrival[q] for q in range(self.p.num_players)]

    @property
    def clock(self) -> int:
        return self.st.clock

    @property
    def round(self) -> int:
        return self.st.round

    @property
    def start(self) -> int:
        return self.st.start

    @property
    def privilege_used(self) -> bool:
        return bool(self.st.privilege_used)

    @property
    def step(self) -> str:
        return STEP_NAMES[self.st.step]

    @property
    def player(self) -> int:
        return self.st.player

    @property
    def order(self) -> list:
        return [self.st.order[i] for i in range(self.p.num_players)] if self.st.step >= SC_CHOOSE else []

    @property
    def order_pos(self) -> int:
        return self.st.order_pos

    @property
    def drawn(self) -> list:
        return [self.st.drawn[q] for q in range(self.p.num_players)]

    @property
    def discarded(self) -> list:
        return [self.st.discarded[q] for q in range(self.p.num_players)]

    @property
    def build_kind(self) -> str:
        return "" if self.st.build_kind < 0 else CARD_KIND_NAMES[self.st.build_kind]

    @property
    def builds_left(self) -> int:
        return self.st.builds_left

    @property
    def double(self) -> bool:
        return bool(self.st.double_move)

    def _load(self, SantaCruzCore core, game, ref) -> None:
        """Fill the struct from a reference state's fields."""
        cdef ScState *s = &self.st
        cdef int q, k, i
        kinds = ("coast", "land", "volcano")
        self.core = core
        self.p = core.params
        self.game = game
        self.history = []
        self.seed = None
        memset(s, 0, sizeof(ScState))
        for k in range(3):
            for i, t in enumerate(ref.tile_order[kinds[k]]):
                s.tile_order[k][i] = t
            s.tile_pos[k] = ref.tile_pos[kinds[k]]
        for i, t in enumerate(ref.site_tile):
            s.site_tile[i] = t
        s.face_up = ref.face_up
        for x, occ in enumerate(ref.occupants):
            for q in occ:
                s.occ[q] |= ONE << x
        for i, c in enumerate(ref.deck):
            s.deck[i] = c
        s.deck_pos = ref.deck_pos
        for i, v in enumerate(ref.bag):
            s.bag[i] = v
        s.bag_len = len(ref.bag)
        s.bag_pos = ref.bag_pos
        for q in range(self.p.num_players):
            for v in ref.birds[q]:
                s.birds[q][v - 1] += 1
            for k in range(3):
                s.supply[q][k] = ref.supply[q][("house", "church", "lighthouse")[k]]
            for k in range(4):
                s.hand_build[q][k] = ref.hand_build[q][CARD_KIND_NAMES[k]]
                s.played_build[q][k] = ref.played_build[q].count(CARD_KIND_NAMES[k])
            for c in ref.hand_score[q]:
                s.hand_score[q] |= ONE32 << c
            for c in ref.played_score[q]:
                s.played_score[q] |= ONE32 << c
            s.set_of[q] = ref.set_of[q]
            s.score[q] = ref.score[q]
            s.arrival[q] = ref.arrival[q]
            s.drawn[q] = ref.drawn[q]
            s.discarded[q] = ref.discarded[q]
        for k, cards in ref.set_scoring.items():
            s.sets_used |= 1 << k
            for c in cards:
                s.set_scoring[k] |= ONE32 << c
        s.clock = ref.clock
        for i, q in enumerate(ref.order):
            s.order[i] = q
        s.order_pos = ref.order_pos
        s.round = ref.round
        s.start = ref.start
        s.privilege_used = ref.privilege_used
        s.step = STEP_NAMES.index(ref.step)
        s.player = ref.player
        s.build_kind = -1 if not ref.build_kind else ("ship", "road", "river").index(ref.build_kind)
        s.builds_left = ref.builds_left
        s.double_move = ref.double
        set_bmasks(self.p, s)
        # the reference keeps no record of round one's reveals (only the
        # forget_round_one measurement reads it): take today's face-up tiles
        s.seen_r1 = s.face_up if s.round == 2 else 0


cdef list _cards(uint32_t m):
    cdef list out = []
    while m:
        out.append(ctz64(<uint64_t>m))
        m &= m - 1
    return out


def _rebuild_state(game, bytes raw, list history):
    """A pickled state again (see ``KernelState.__reduce__``)."""
    state = game.state_from_raw(raw)
    state.history = list(history)
    return state
