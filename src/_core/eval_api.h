/* The C-level interface of a game's hand-made evaluation features, for a
 * learned evaluation inside a search (mcts.pyx) with no Python call per leaf.
 *
 * A kernel that offers features fills one FeatureDef beside its GameDef and
 * hands it out as a capsule named "solvers.Features" (owned_capsule() of
 * game_api.pxd, keeping the kernel's tables alive). `features` writes
 * `num_features` floats describing state `st` as seat `seat` knows it: the
 * function reads only what that seat may see (its own hand, the public board,
 * the sizes of the others' hidden holdings), never a card hidden from it, so
 * two states that differ only in what `seat` cannot see give the same floats.
 * `version` names the feature layout: a model trained on one version is
 * refused by a kernel with another.
 */
#ifndef SOLVERS_EVAL_API_H
#define SOLVERS_EVAL_API_H

typedef struct FeatureDef {
    const char *game;         /* the GameDef's name */
    int version;              /* bumped whenever the meaning of a feature changes */
    int num_features;
    /* the features of `st` for `seat` (any seat, not only the one to move) */
    void (*features)(const void *params, const void *st, int seat, float *out);
} FeatureDef;

#endif
