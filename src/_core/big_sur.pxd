# Big Sur kernel: the constant tables and the fixed-size state struct.
# The rules of record are in solvers/games/bigsur/reference.py (see
# docs/rules/big-sur.md). Types only: big_sur.pyx cimports them by the plain
# name `big_sur`.
from libc.stdint cimport uint64_t, int8_t, uint8_t, int16_t

cdef enum:
    BS_MAX_CARDS = 127       # card numbers fit an int8; a set is two uint64 words
    BS_MAX_LANDMARKS = 64    # a set of Landmarks is one uint64
    BS_MAX_PLAYERS = 4
    BS_MAX_HW = 40           # cards in one Highway
    BS_MAX_PAY = 9           # cards discarded for one build (three triples)
    BS_KINDS = 5             # Scenery types, and Materials
    BS_N_FINISH = 112        # reference.FINISH
    BS_MAX_ACTIONS = 320     # most legal actions at one node

# Steps of a turn (STEP_NAMES in big_sur.pyx gives the reference's names).
cdef enum:
    BS_DEAL = 0
    BS_TAKE = 1
    BS_DRAW = 2
    BS_BUILD = 3
    BS_END = 4
    BS_PAY = 5
    BS_TOP = 6
    BS_PLACE = 7
    BS_REVEAL = 8
    BS_REFILL = 9
    BS_OVER = 10

ctypedef struct PayPlan:
    # one way to use Persistent Materials and Recycling to pay a card, and
    # the icons it leaves for discards
    int R[BS_KINDS]          # icons left for discards, by Material
    uint64_t Rp              # the same packed, a byte per Material (see big_sur.pyx)
    int kp                   # their number
    int r                    # Material recycled, -1 none
    int fin                  # its FINISH index

ctypedef struct BsParams:
    int players
    int n_cards
    int n_landmarks
    int deck_size            # Highway cards for this player count
    int max_hw               # the most cards a Highway can hold
    int setup_cards          # cards dealt at setup (hands and Depot)
    # action ids (reference.BigSur)
    int draw
    int build_base
    int left
    int right
    int discard_base
    int finish_base
    int top_base
    int claim_base
    int place_base
    int end_turn
    int card_base
    int landmark_base
    int num_actions
    # the playout policy, out of 256: build when a card can be paid, claim
    # when a Landmark can be placed
    int pol_build
    int pol_claim
    uint8_t deck[BS_MAX_CARDS]               # the cards for this player count, ascending
    # per card number (index 0 unused)
    int8_t sc[BS_MAX_CARDS + 1][2]           # Scenery indices
    int8_t miles[BS_MAX_CARDS + 1]
    int8_t cost_n[BS_MAX_CARDS + 1]
    int8_t cost[BS_MAX_CARDS + 1][3]         # Material indices
    int8_t mat[BS_MAX_CARDS + 1]             # the back's Material
    int8_t persist[BS_MAX_CARDS + 1]         # Persistent Material, -1 none
    int8_t bonus_kind[BS_MAX_CARDS + 1]      # index in data.BONUS_KINDS, -1 none
    int8_t bonus_pts[BS_MAX_CARDS + 1]
    int8_t bonus_arg[BS_MAX_CARDS + 1]       # Scenery / Material index, miles or 'per'
    # per Landmark number
    int8_t lm_mask[BS_MAX_LANDMARKS + 1]     # bit t: shows Scenery t
    int8_t lm_kind[BS_MAX_LANDMARKS + 1]     # 0 points, 1 mile_tag, 2 material
    int8_t lm_arg[BS_MAX_LANDMARKS + 1]
    # FINISH table and its inverse (code: counts in base 4, recycle * 1024)
    int8_t fin_counts[BS_N_FINISH][BS_KINDS]
    int8_t fin_recycle[BS_N_FINISH]
    int16_t fin_index[2048]
    # pay_plans as a table: per card and Recycling used (0, 1), where the
    # entries for each count of the Persistent Materials of its cost start
    # in pp_index, which holds (first plan in pp_plans, number of plans)
    # (cards of one cost share them)
    int pp_base[BS_MAX_CARDS + 1][2]
    int *pp_index
    PayPlan *pp_plans
    # can_build_in as a table: per card, the distinct Materials of its cost
    # (-1 past the last), how many of each, whether its own back shows it,
    # and where its bits start in cb_bits (cards of one cost share them)
    int8_t cb_kind[BS_MAX_CARDS + 1][3]
    int8_t cb_need[BS_MAX_CARDS + 1][3]
    int8_t cb_self[BS_MAX_CARDS + 1][3]
    int8_t cb_nk[BS_MAX_CARDS + 1]
    int cb_off[BS_MAX_CARDS + 1]
    uint8_t *cb_bits

ctypedef struct BsState:
    uint64_t hand[BS_MAX_PLAYERS][2]         # card sets (bit c-1 for card c)
    uint64_t depot[2]
    uint64_t used_cards[2]                   # Persistent Materials used this turn
    uint64_t row                             # Landmark set (bit l-1)
    uint64_t used_lms
    uint8_t order[BS_MAX_CARDS]              # Highway deck; order[pos:] face down
    uint8_t lorder[BS_MAX_LANDMARKS]
    uint8_t hw[BS_MAX_PLAYERS][BS_MAX_HW]    # Highway cards, left to right
    uint8_t mark_lm[BS_MAX_PLAYERS][BS_MAX_HW]   # Landmark above a card, 0 none
    int8_t mark_type[BS_MAX_PLAYERS][BS_MAX_HW]  # the Scenery it was claimed through
    uint8_t pile[BS_MAX_PLAYERS][BS_MAX_CARDS]   # discard piles, bottom to top
    uint8_t paying[BS_MAX_PAY]
    uint8_t pile_n[BS_MAX_PLAYERS]
    uint8_t hw_n[BS_MAX_PLAYERS]
    uint8_t turns[BS_MAX_PLAYERS]
    uint8_t pos
    uint8_t lpos
    uint8_t player
    uint8_t step
    uint8_t taken
    uint8_t claimed
    uint8_t recycled
    uint8_t building                         # card being built, 0 none
    int8_t end_left                          # -1 not chosen, 0 right, 1 left
    uint8_t paying_n
    uint8_t claiming                         # Landmark being placed, 0 none
    int8_t fin                               # FINISH index awaiting TOP, -1 none
