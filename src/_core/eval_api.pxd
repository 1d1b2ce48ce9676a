# Cython view of eval_api.h: a game's evaluation features for learned leaf
# values (mcts.pyx). No runtime import.
cdef extern from "eval_api.h" nogil:
    ctypedef struct FeatureDef:
        const char *game
        int version
        int num_features
        void (*features)(const void *params, const void *st, int seat, float *out) noexcept nogil

cdef extern from *:
    """
    #define SOLVERS_FEATURES_CAPSULE "solvers.Features"
    """
    const char *SOLVERS_FEATURES_CAPSULE
