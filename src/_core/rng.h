/* SplitMix64 and the Fisher-Yates shuffle: the C twin of solvers/rng.py.
 * Kernels and references share it so that one seed deals one game. */
#ifndef SOLVERS_RNG_H
#define SOLVERS_RNG_H

#include <stdint.h>

static inline uint64_t splitmix64_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number in [0, n): modulo reduction, exactly as rng.py does it. */
static inline int rng_below(uint64_t *state, int n) {
    return (int)(splitmix64_next(state) % (uint64_t)n);
}

/* A number in [0, n) from the high half of a 64x64-bit product (Lemire's
 * multiply-shift): no division, so cheaper than rng_below, but a different
 * number from the same draw. C-only (rng.py has no twin): for search
 * playouts, where nothing outside C has to deal the same. */
static inline int rng_below_mul(uint64_t *state, int n) {
    return (int)(((unsigned __int128)splitmix64_next(state) * (uint64_t)n) >> 64);
}

/* A double in [0, 1). */
static inline double rng_unit(uint64_t *state) {
    return (double)(splitmix64_next(state) >> 11) * (1.0 / 9007199254740992.0);
}

static inline void rng_shuffle_i8(uint64_t *state, int8_t *items, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(state, i + 1);
        int8_t t = items[i]; items[i] = items[j]; items[j] = t;
    }
}

#endif
