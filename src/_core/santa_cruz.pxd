# Santa Cruz kernel: the constant tables and the fixed-size state struct.
# The rules of record are in solvers/games/santacruz/reference.py.
# Types only: santa_cruz.pyx cimports them by the plain name `santa_cruz`.
from libc.stdint cimport uint64_t, uint32_t, int8_t, int16_t, int32_t

cdef enum:
    SC_MAX_SITES = 64       # one uint64 holds a set of sites
    SC_MAX_PLAYERS = 4
    SC_MAX_TILES = 127      # tile ids fit an int8
    SC_MAX_KIND_TILES = 64  # tiles of one site kind
    SC_MAX_CARDS = 32       # scoring cards: one uint32 holds a set
    SC_MAX_SETS = 8
    SC_MAX_RIVERS = 8
    SC_MAX_BIRDS = 64       # bird tokens in the bag
    SC_MAX_ACTIONS = 128    # legal actions or chance outcomes at one node

# Steps (reference.STEPS gives their names, in this order).
cdef enum:
    SC_LAYOUT = 0
    SC_DEAL = 1
    SC_CHOOSE = 2
    SC_DRAW = 3
    SC_DISCARD = 4
    SC_LAND = 5
    SC_PLAY = 6
    SC_BUILD = 7
    SC_BIRD = 8
    SC_OVER = 9

# Scoring-card kinds (data.SCORING_KINDS, in this order).
cdef enum:
    SK_HOUSES = 0
    SK_VARIETY = 1
    SK_STREET = 2
    SK_PER_BUILDING = 3
    SK_BIRDS = 4
    SK_ERUPTION = 5
    SK_RESOURCE = 6

ctypedef struct ScParams:
    int num_players
    int num_sites
    int num_sets
    int num_cards
    int num_tiles
    int num_rivers
    int dealt_each
    # action ids (see the reference docstring)
    int set_base
    int play_ship
    int play_double
    int play_score
    int discard_base
    int tile_base
    int card_base
    int bird_base
    int num_actions
    uint64_t all_sites
    uint64_t coast
    uint64_t volcano
    uint64_t on_river
    uint64_t road[SC_MAX_SITES]          # site -> sites joined by road
    uint64_t river_nb[SC_MAX_SITES]      # site -> neighbours along a river
    uint64_t river_sites[SC_MAX_RIVERS]
    int8_t site_kind[SC_MAX_SITES]       # 0 coast, 1 land, 2 volcano
    int8_t kind_tiles[3][SC_MAX_KIND_TILES]   # tile ids of each kind, ascending
    int kind_count[3]
    int8_t tile_building[SC_MAX_TILES + 1]    # 0 house, 1 church, 2 lighthouse
    int8_t tile_points[SC_MAX_TILES + 1]
    int8_t tile_resource[SC_MAX_TILES + 1]    # bit index in data.RESOURCES, -1 none
    int8_t tile_bonus[SC_MAX_TILES + 1]
    int8_t tile_bird[SC_MAX_TILES + 1]
    int8_t supply[3]
    int8_t bird_counts[3]
    int8_t set_cards[SC_MAX_SETS][4]     # ship, road, river, double
    int8_t card_kind[SC_MAX_CARDS]
    int8_t card_points[SC_MAX_CARDS]
    int8_t card_need[SC_MAX_CARDS]
    int8_t card_one[SC_MAX_CARDS]
    int8_t card_nres[SC_MAX_CARDS]
    int8_t card_res[SC_MAX_CARDS]        # resource bit mask
    uint64_t card_where[SC_MAX_CARDS]    # per_building: the sites counted
    int8_t first_order[SC_MAX_PLAYERS]   # round one's choosing order
    int pol_site                         # playout: best-points site, out of 256
    int forget_round_one                 # re-deals treat round one's reveals as unseen (a measurement)

ctypedef struct ScState:
    uint64_t face_up
    uint64_t bmask[3]                    # sites whose laid tile asks for a house, church, lighthouse
    uint64_t seen_r1                     # tiles face up when round one ended
    uint64_t occ[SC_MAX_PLAYERS]         # sites holding a building of each seat
    uint32_t hand_score[SC_MAX_PLAYERS]  # scoring-card masks
    uint32_t played_score[SC_MAX_PLAYERS]
    uint32_t set_scoring[SC_MAX_SETS]    # played with each set in round one
    int32_t score[SC_MAX_PLAYERS]
    int32_t arrival[SC_MAX_PLAYERS]
    int32_t clock
    int8_t tile_order[3][SC_MAX_KIND_TILES]
    int8_t tile_pos[3]
    int8_t site_tile[SC_MAX_SITES]       # -1 before the layout reaches it
    int8_t deck[SC_MAX_CARDS]
    int8_t bag[SC_MAX_BIRDS]
    int8_t deck_pos
    int8_t bag_pos
    int8_t bag_len
    int8_t birds[SC_MAX_PLAYERS][3]      # tokens of value 1, 2, 3 held
    int8_t supply[SC_MAX_PLAYERS][3]
    int8_t hand_build[SC_MAX_PLAYERS][4]
    int8_t played_build[SC_MAX_PLAYERS][4]
    int8_t set_of[SC_MAX_PLAYERS]
    int8_t drawn[SC_MAX_PLAYERS]
    int8_t discarded[SC_MAX_PLAYERS]
    int8_t order[SC_MAX_PLAYERS]
    int8_t order_pos
    int8_t sets_used                     # mask of the sets played in round one
    int8_t round
    int8_t start
    int8_t privilege_used
    int8_t step
    int8_t player
    int8_t build_kind                    # 0 ship, 1 road, 2 river, -1 none
    int8_t builds_left
    int8_t double_move
    int8_t pad[5]                        # keeps the struct a whole number of words
