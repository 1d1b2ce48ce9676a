# Switchbacks kernel: the constant tables and the fixed-size state struct.
# The rules of record are in solvers/games/switchbacks/reference.py.
# Types only: switchbacks.pyx cimports them by the plain name `switchbacks`
# (setup.py names the extension solvers._core.switchbacks, so Cython does not
# pair this file with the .pyx by itself). Search code can cimport the same.
from libc.stdint cimport uint64_t, int8_t

cdef enum:
    SB_MAX = 64            # hexes and tiles: one uint64 holds a set of either
    SB_MAX_PLAYERS = 4
    SB_MAX_HIKERS = 128    # hiker counts fit an int8
    SB_MAX_HAND = 10       # tiles in a hand
    SB_MAX_ACTIONS = 640   # hand x hexes (<= 64)

# The step of a turn (reference.STEPS gives their names).
cdef enum:
    SB_DEAL = 0
    SB_EXPLORE = 1
    SB_HIKE = 2
    SB_DRAW = 3
    SB_OVER = 4

ctypedef struct SbParams:
    int num_players
    int num_hexes
    int num_tiles
    int centre              # hex of the face-up starting tile
    int set_aside           # set-aside tiles per player
    int hand_size
    int hikers              # hikers per player
    int min_run             # tiles of a complete path
    int setup_deals         # tiles dealt before the first turn
    int buddy_up            # action ids (see the reference docstring)
    int hike_solo
    int hike_buddies
    int deal_base
    int num_actions
    uint64_t all_hexes
    uint64_t neighbours[SB_MAX]               # hex -> mask of adjacent hexes
    # The playout policy's weights, out of 256 (switchbacks.pyx, policy_*)
    int pol_link            # explore next to a tile one above or below
    int pol_hike            # hike on a tile next to its number +-1
    int pol_buddy           # buddy up on a tile that is not
    # Zobrist keys
    uint64_t z_tile[SB_MAX][SB_MAX]           # tile index, hex
    uint64_t z_hiker[SB_MAX][2 * SB_MAX_PLAYERS]
    uint64_t z_hand[SB_MAX_PLAYERS][SB_MAX]
    uint64_t z_aside[SB_MAX_PLAYERS][SB_MAX]
    uint64_t z_solo[SB_MAX_PLAYERS][SB_MAX_HIKERS]
    uint64_t z_pairs[SB_MAX_PLAYERS][SB_MAX_HIKERS]
    uint64_t z_turn[SB_MAX_PLAYERS][5]
    uint64_t z_just[SB_MAX + 1]
    uint64_t z_open[SB_MAX]                   # an empty hex a path may still cross
    uint64_t z_dead_held[SB_MAX_PLAYERS][SB_MAX + 1]   # how many tiles that cannot score a seat holds
    uint64_t z_idle[SB_MAX + 1]               # how many empty hexes no path can cross
    uint64_t z_just_idle                      # the tile just explored cannot score
    uint64_t z_pool[SB_MAX]                   # a tile still to be drawn that may score

ctypedef struct SbState:
    uint64_t explored                   # hexes holding a tile
    uint64_t on_map                     # tiles on the map (bit t-1 for tile t)
    uint64_t hand[SB_MAX_PLAYERS]       # tile masks
    uint64_t set_aside[SB_MAX_PLAYERS]
    int8_t hex_tile[SB_MAX]             # tile number on a hex, 0 if empty
    int8_t tile_hex[SB_MAX]             # hex of tile t at index t-1, -1 if not on the map
    int8_t hiker_owner[SB_MAX]          # per hex, -1 without hikers
    int8_t hiker_count[SB_MAX]          # 0, 1 (solo) or 2 (buddies)
    int8_t order[SB_MAX]                # deck order; order[pos:] is the stack, top first
    int8_t solo[SB_MAX_PLAYERS]         # unplaced solo hikers
    int8_t pairs[SB_MAX_PLAYERS]        # unplaced buddy pairs
    int8_t pos                          # tiles dealt so far
    int8_t player                       # whose turn
    int8_t step                         # SB_DEAL .. SB_OVER
    int8_t just_explored                # hex explored this turn, -1 if none
