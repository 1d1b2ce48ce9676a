# The node pool of the C Monte Carlo tree search (mcts.pyx), for modules that
# read a search tree. (Named apart from mcts.pyx: the build maps src/_core to
# the package solvers._core, where Cython would not find a same-named .pxd.)
from libc.stdint cimport int32_t, int64_t, uint64_t
from game_api cimport GameDef

# Most seats a search handles (the value vectors are fixed-size).
cdef enum:
    MCTS_MAX_PLAYERS = 4

# One node of the tree, in a flat pool; links are pool indices (-1 = none).
# `key` is the action that leads here as the searching player observes it
# (GAME_HIDDEN when they cannot see it), so hidden outcomes share a node.
cdef struct Node:
    int32_t first_child
    int32_t next_sibling
    int32_t key
    int32_t visits
    int32_t avail                       # times the node was available for selection
    double value[MCTS_MAX_PLAYERS]      # sum of the returns backed up through it

