# Cython view of game_api.h and rng.h: declarations and small inline helpers,
# no runtime import.
from cpython.pycapsule cimport (PyCapsule_GetContext, PyCapsule_GetPointer, PyCapsule_IsValid,
                                PyCapsule_New, PyCapsule_SetContext)
from cpython.ref cimport PyObject, Py_INCREF, Py_XDECREF
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
        void (*state_bounds)(const void *params, const void *st, double *lo, double *hi) noexcept nogil
        uint64_t (*solver_key)(const void *params, const void *st) noexcept nogil

cdef extern from "rng.h" nogil:
    uint64_t splitmix64_next(uint64_t *state)
    int rng_below(uint64_t *state, int n)
    int rng_below_mul(uint64_t *state, int n)
    double rng_unit(uint64_t *state)
    void rng_shuffle_i8(uint64_t *state, int8_t *items, int n)

# Kernels hand their GameDef and state pointers to search modules as capsules
# with these names, made by owned_capsule() below: a capsule keeps alive the
# Python object that holds the memory it points at, so a search that keeps
# the capsule can never read freed memory, whoever else lets go of the game.
cdef extern from *:
    """
    #define SOLVERS_GAMEDEF_CAPSULE "solvers.GameDef"
    #define SOLVERS_STATE_CAPSULE "solvers.State"
    """
    const char *SOLVERS_GAMEDEF_CAPSULE
    const char *SOLVERS_STATE_CAPSULE


cdef inline void release_capsule_owner(object capsule) noexcept:
    """A capsule's destructor: let go of the owner owned_capsule() kept."""
    Py_XDECREF(<PyObject *> PyCapsule_GetContext(capsule))


cdef inline object owned_capsule(void *ptr, const char *name, object owner):
    """A capsule named ``name`` (a string literal: the capsule keeps the
    pointer) for ``ptr``, which keeps ``owner``, the object holding that
    memory, alive for as long as the capsule lives."""
    capsule = PyCapsule_New(ptr, name, release_capsule_owner)
    Py_INCREF(owner)
    PyCapsule_SetContext(capsule, <void *> owner)
    return capsule


cdef inline void *_owned_pointer(object capsule, const char *name, str made_by) except NULL:
    if not PyCapsule_IsValid(capsule, name):
        from solvers.errors import SolversError
        raise SolversError(f"expected a {name.decode()!r} capsule ({made_by})")
    if PyCapsule_GetContext(capsule) == NULL:
        from solvers.errors import SolversError
        raise SolversError(f"the {name.decode()!r} capsule does not keep its memory alive: "
                           "kernels make their capsules with owned_capsule() (game_api.pxd)")
    return PyCapsule_GetPointer(capsule, name)


cdef inline const GameDef *gamedef_from(object capsule) except NULL:
    """The GameDef behind a game's ``_gamedef_capsule()`` (keep the capsule
    while the pointer is used: it keeps the game's tables alive)."""
    return <const GameDef *> _owned_pointer(capsule, b"solvers.GameDef", "game._gamedef_capsule()")


cdef inline void *state_from(object capsule) except NULL:
    """The state struct behind a state's ``_state_capsule()`` (keep the
    capsule while the pointer is used: it keeps the state alive)."""
    return _owned_pointer(capsule, b"solvers.State", "state._state_capsule()")


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


# The Python face of the kernels (issue 29): a ply through legal_actions /
# apply_action should cost little more than the C calls. Action lists are
# built from a table of the game's action ints made once per game (no int
# is allocated per call) and an action argument that is a plain int is
# read without a Python comparison.
cdef extern from *:
    """
    static PyObject *solvers_int_list(const int *buf, int n, PyObject *table) {
        Py_ssize_t size = PyTuple_GET_SIZE(table);
        PyObject *out = PyList_New(n);
        int i;
        if (out == NULL) return NULL;
        for (i = 0; i < n; i++) {
            PyObject *x;
            if ((size_t) buf[i] < (size_t) size) {
                x = PyTuple_GET_ITEM(table, buf[i]);
                Py_INCREF(x);
            } else {
                x = PyLong_FromLong(buf[i]);
                if (x == NULL) { Py_DECREF(out); return NULL; }
            }
            PyList_SET_ITEM(out, i, x);
        }
        return out;
    }

    /* `action` as a C long when it is an int (a bool only if allow_bool),
       else -1 (also for ints out of range of a long): every caller treats
       a negative action as illegal. Never sets a Python error. */
    static long solvers_action_index(PyObject *action, int allow_bool) {
        int overflow = 0;
        long a;
        if (!PyLong_Check(action)) return -1;
        if (!allow_bool && PyBool_Check(action)) return -1;
        a = PyLong_AsLongAndOverflow(action, &overflow);
        if (overflow || (a == -1 && PyErr_Occurred())) { PyErr_Clear(); return -1; }
        return a;
    }
    """
    list solvers_int_list(const int *buf, int n, tuple table)
    long solvers_action_index(object action, int allow_bool) noexcept


cdef inline tuple action_table(int n):
    """The ints 0 .. n-1, made once per game for :func:`solvers_int_list`."""
    return tuple(range(n))
