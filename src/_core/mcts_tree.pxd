# The node and edge pools of the C Monte Carlo tree search (mcts.pyx), for
# modules that read a search tree. (Named apart from mcts.pyx: the build maps
# src/_core to the package solvers._core, where Cython would not find a
# same-named .pxd.)
from libc.stdint cimport int32_t, int64_t, uint64_t
from game_api cimport GameDef

# Most seats a search handles (the value vectors are fixed-size).
cdef enum:
    MCTS_MAX_PLAYERS = 4

# One node of the tree, in a flat pool that only grows (a node never moves).
# `key` is the action that leads here as the searching player observes it
# (GAME_HIDDEN when they cannot see it), so hidden outcomes share a node.
# Its children are listed by `n_children` consecutive edges from
# `first_edge` in the edge pool, oldest first.
cdef struct Node:
    int32_t first_edge                  # -1 while the node has no child
    int32_t n_children
    int32_t key
    int32_t visits
    double value[MCTS_MAX_PLAYERS]      # sum of the returns backed up through it

# The link from a node to one child, stored with its siblings so that the
# scans a visit makes (which children are available, which one has a key)
# read consecutive memory. `avail` counts the times the child was available
# for selection (legal in the current determinisation) at its parent.
cdef struct Edge:
    int32_t key
    int32_t child
    int32_t avail
