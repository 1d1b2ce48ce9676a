# Coast to Coast kernel: the constant tables of one game and the state struct.
# The rules of record are in solvers/games/c2c/reference.py.
# Types only: c2c.pyx cimports them by the plain name `c2c` (setup.py names
# the extension solvers._core.c2c, so Cython does not pair this file with the
# .pyx by itself). Search code can cimport the same.
#
# A state is one plain struct (a few hundred bytes, no pointers), so a copy
# is a memcpy and search code can keep states in flat arrays. Boards are
# 32-bit masks over location ids; a card shows exactly one location, so card
# ids are location ids too.
from libc.stdint cimport uint32_t, int8_t

cdef enum:
    C2C_MAX_LOCATIONS = 32
    C2C_MAX_PLAYERS = 4
    C2C_ROUNDS = 5             # rounds 1..5 after the setup (round 0)
    C2C_CARDS_PER_ROUND = 4
    C2C_MAX_DEALT = 10         # setup with 4 players: 2 private each + 2 public
    C2C_MAX_ACTIONS = 96       # 3 cards x 32 locations to circle
    C2C_CROSS = 0              # the step of a player's turn
    C2C_CIRCLE = 1


ctypedef struct C2CParams:
    int n                      # locations on the sheet (<= 32)
    int num_players
    int challenge              # the solo challenge card, or -1
    int setup_cards            # cards dealt in round 0
    int deck_size
    int8_t deck[32]            # the deck before shuffling (the challenge card removed)
    uint32_t neighbours[32]    # locations joined by a line to each location
    uint32_t matches[32]       # locations a card may circle: same highway, region or type
    uint32_t required          # locations the challenge demands (0 without one)
    int num_highways           # highways with at least one location
    int highway_shift[32]      # a highway's ids are bits shift .. shift+len-1
    int highway_len[32]
    int highway_points[33]     # points for a run of k circles along one highway
    int num_regions
    uint32_t region_masks[32]
    int region_points
    int num_types              # types with at least one location
    uint32_t type_masks[32]
    int type_points[32]
    int empty_type_points      # types listed with no location are always complete
    int exact_points


ctypedef struct C2CState:
    uint32_t circled[4]        # each player's sheet
    uint32_t crossed[4]
    uint32_t exact[4]          # exact matches ever made (scored while still circled)
    uint32_t start_circled[4]  # the sheets as they stood when the round began:
    uint32_t start_crossed[4]  # what the other players may see of them
    uint32_t start_exact[4]
    uint32_t used              # cards of this round the player to move has used
    int8_t order[32]           # the deck order; order[:pos] has been dealt
    int8_t dealt[10]           # cards dealt this round, in order
    int8_t ndealt
    int8_t pos
    int8_t round               # 0 = setup, 1..5, 6 = over
    int8_t player              # whose turn it is (when no card is due)
    int8_t step                # C2C_CROSS or C2C_CIRCLE
    # The round tracker, for the plan: per player and round the location
    # crossed off and the circles in the order made, (card, location) or
    # (card, -1) for a card skipped.
    int8_t ncross[4]
    int8_t crosses[4][6]
    int8_t ncircles[4][6]
    int8_t circle_card[4][6][3]
    int8_t circle_loc[4][6][3]
