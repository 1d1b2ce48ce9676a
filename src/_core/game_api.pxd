# Cython view of game_api.h and rng.h: declarations and small inline helpers,
# no runtime import.
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from libc.stdint cimport uint64_t, int8_t

cdef extern from "game_api.h" nogil:
    enum:
        GAME_CHANCE
        GAME_TERMINAL
        GAME_HIDDEN

    ctypedef struct GameDef:
        const char *name
        int num_players
        int max_actions
        int num_distinct_actions
        int max_game_length
        size_t state_size
        const void *params
        int (*current_player)(const void *params, const void *st) noexcept nogil
        int (*legal_actions)(const void *params, const void *st, int *out) noexcept nogil
        void (*apply_action)(const void *params, void *st, int action) noexcept nogil
        int (*chance_outcomes)(const void *params, const void *st, int *out, double *probs) noexcept nogil
        int (*sample_chance)(const void *params, const void *st, uint64_t *rng) noexcept nogil
        void (*returns)(const void *params, const void *st, double *out) noexcept nogil
        void (*determinize)(const void *params, void *st, int player, uint64_t *rng) noexcept nogil
        int (*action_observation)(const void *params, const void *st, int action, int player) noexcept nogil
        uint64_t (*hash)(const void *params, const void *st) noexcept nogil
        int (*rollout_action)(const void *params, const void *st, uint64_t *rng) noexcept nogil
        void (*playout)(const void *params, void *st, uint64_t *rng, unsigned int policy_seats) noexcept nogil
        int public_decisions

cdef extern from "rng.h" nogil:
    uint64_t splitmix64_next(uint64_t *state)
    int rng_below(uint64_t *state, int n)
    int rng_below_mul(uint64_t *state, int n)
    double rng_unit(uint64_t *state)
    void rng_shuffle_i8(uint64_t *state, int8_t *items, int n)

# Kernels hand their GameDef and state pointers to search modules as capsules
# with these names (PyCapsule_New / PyCapsule_GetPointer).
cdef extern from *:
    """
    #define SOLVERS_GAMEDEF_CAPSULE "solvers.GameDef"
    #define SOLVERS_STATE_CAPSULE "solvers.State"
    """
    const char *SOLVERS_GAMEDEF_CAPSULE
    const char *SOLVERS_STATE_CAPSULE


cdef inline const GameDef *gamedef_from(object capsule) except NULL:
    """The GameDef behind a game's ``_gamedef_capsule()``."""
    if not PyCapsule_IsValid(capsule, b"solvers.GameDef"):
        from solvers.errors import SolversError
        raise SolversError("expected a 'solvers.GameDef' capsule (game._gamedef_capsule())")
    return <const GameDef *> PyCapsule_GetPointer(capsule, b"solvers.GameDef")


cdef inline void *state_from(object capsule) except NULL:
    """The state struct behind a state's ``_state_capsule()``."""
    if not PyCapsule_IsValid(capsule, b"solvers.State"):
        from solvers.errors import SolversError
        raise SolversError("expected a 'solvers.State' capsule (state._state_capsule())")
    return PyCapsule_GetPointer(capsule, b"solvers.State")


# Table entries shared by games without chance or hidden information, and the
# returns of a two-player game won, lost or drawn.
cdef inline int no_chance_outcomes(const void *params, const void *st, int *out,
                                   double *probs) noexcept nogil:
    return 0


cdef inline int no_sample_chance(const void *params, const void *st, uint64_t *rng) noexcept nogil:
    return -1


cdef inline void no_determinize(const void *params, void *st, int player, uint64_t *rng) noexcept nogil:
    pass


cdef inline int all_visible(const void *params, const void *st, int action, int player) noexcept nogil:
    return action


cdef inline void win_draw_returns(int winner, double *out) noexcept nogil:
    """1 to ``winner`` (seat 0 or 1) and 0 to the other; 0.5 each when
    ``winner`` is 2 (a draw); 0 each while it is negative (still playing)."""
    out[0] = 0.0
    out[1] = 0.0
    if winner == 2:
        out[0] = 0.5
        out[1] = 0.5
    elif winner >= 0:
        out[winner] = 1.0
