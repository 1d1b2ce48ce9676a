"""Games played at random for tests: the moves from a seeded stream, chance
as the state's own seeded outcome."""

from __future__ import annotations

import solvers
from solvers.rng import SplitMix64


def random_game(name: str, players: int, seed: int = 3, plies: int | None = None,
                **options) -> tuple[list[int], object]:
    """The actions of a game played at random (at most ``plies`` of them),
    and the state they reach."""
    state = solvers.load_game(name, players, **options).new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    actions: list[int] = []
    while not state.is_terminal() and (plies is None or len(actions) < plies):
        legal = state.legal_actions()
        a = state.seeded_outcome() if state.is_chance_node() else legal[rng.below(len(legal))]
        actions.append(a)
        state.apply_action(a)
    return actions, state
