/* The C-level game interface every kernel exports and every search uses.
 *
 * A kernel fills one GameDef per game object (its tables live behind
 * `params`) and keeps each state in a fixed-size plain struct of
 * `state_size` bytes, so cloning is a memcpy and a search can keep many
 * states in one array. Search code (MCTS, endgame) includes only this header
 * and never a particular game. Function pointers cost a few nanoseconds per
 * call; none of them touches a Python object, so all run without the GIL.
 *
 * Conventions shared with the Python interface (solvers/game.py):
 *   current_player: a seat >= 0, GAME_CHANCE or GAME_TERMINAL;
 *   legal_actions: sorted ascending; at a chance node, the outcomes;
 *   returns: one double per seat, the game's result.
 */
#ifndef SOLVERS_GAME_API_H
#define SOLVERS_GAME_API_H

#include <stddef.h>
#include <stdint.h>

#define GAME_CHANCE (-1)
#define GAME_TERMINAL (-4)
/* action_observation() result for an action the observer cannot see */
#define GAME_HIDDEN (-2)

typedef struct GameDef {
    const char *name;
    int num_players;
    int max_actions;          /* most legal actions (or chance outcomes) at one node */
    int num_distinct_actions; /* actions are 0 .. num_distinct_actions-1 */
    int max_game_length;      /* most actions, chance included, in one game */
    size_t state_size;        /* bytes of one state struct */
    const void *params;       /* the game's constant tables */

    int (*current_player)(const void *params, const void *st);
    int (*legal_actions)(const void *params, const void *st, int *out);
    void (*apply_action)(const void *params, void *st, int action);
    /* outcomes and their probabilities at a chance node; returns the count */
    int (*chance_outcomes)(const void *params, const void *st, int *out, double *probs);
    /* one outcome drawn with the caller's generator */
    int (*sample_chance)(const void *params, const void *st, uint64_t *rng);
    void (*returns)(const void *params, const void *st, double *out);
    /* re-deal everything `player` cannot see, consistently with what they saw */
    void (*determinize)(const void *params, void *st, int player, uint64_t *rng);
    /* what `player` learns when `action` is applied in `st`: the action itself
       or GAME_HIDDEN (another player's secret draw, say) */
    int (*action_observation)(const void *params, const void *st, int action, int player);
    /* a hash of the full state (Zobrist or mixed), for transposition tables */
    uint64_t (*hash)(const void *params, const void *st);
    /* optional (NULL: uniformly random): the move a playout makes for the
       player to move. Game knowledge for search lives here, so MCTS stays
       game-agnostic; it is a policy, not a rule. */
    int (*rollout_action)(const void *params, const void *st, uint64_t *rng);
    /* optional (NULL: a search loops over rollout_action / sample_chance):
       play from `st` to the end of the game, in place, chance drawn with
       sample_chance's distribution; seat q moves by the playout policy
       (rollout_action's distribution) when bit q of `policy_seats` is set,
       else uniformly at random over its legal actions. The same moves as
       that loop, done in one call so the kernel can keep its own
       bookkeeping between moves. */
    void (*playout)(const void *params, void *st, uint64_t *rng, unsigned int policy_seats);
    /* optional (0: unknown): nonzero when every player sees every decision
       (non-chance) action as itself, i.e. action_observation(st, a, q) == a
       at every decision node, so a search may skip those calls there. */
    int public_decisions;
    /* optional (NULL: none): bounds on every seat's return from `st`,
       whatever anyone plays or draws from here on: lo[q] <= returns[q] <=
       hi[q] at every end reachable from `st`. An exact search may stop at a
       state whose bounds meet (lo == hi for every seat) or lie outside its
       window. Game knowledge for exact search, as rollout_action is for
       MCTS: the search itself stays game-agnostic. */
    void (*state_bounds)(const void *params, const void *st, double *lo, double *hi);
    /* optional (NULL: hash): a key for exact search that may be equal for
       different states when they are worth the same whatever is played, a
       canonical form (pieces that can no longer matter made
       interchangeable, say). Equal keys must mean equal returns under every
       continuation, move for move; the exact search keys its table by it
       and searches children with equal keys once (chance outcomes merged,
       their probabilities added). */
    uint64_t (*solver_key)(const void *params, const void *st);
} GameDef;

#endif
