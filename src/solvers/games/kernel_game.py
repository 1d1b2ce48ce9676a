"""What the games on a C kernel share on their Python face.

Each kernel game (:class:`solvers.games.bigsur.kernel.BigSurKernel`, say)
keeps its rules object in ``rules``, its compiled tables in ``core`` (whose
``gamedef_capsule()`` and ``play_random_games(n, seed)`` are the kernel's)
and names its state class in ``state_class``; this base adds the methods
that read the same for all of them.

    >>> import solvers
    >>> game = solvers.load_game("santacruz", players=3)
    >>> state = game.new_initial_state(seed=1)
    >>> game.state_from_raw(state._raw()).legal_actions() == state.legal_actions()
    True
"""

from __future__ import annotations

from typing import Any

from ..errors import SolversError
from ..game import Game
from ..rng import seed_from


class KernelGame(Game):
    """A game played on a C kernel (see the module docstring)."""

    reference = False
    state_class: Any
    rules: Any
    core: Any

    def num_distinct_actions(self) -> int:
        return self.rules.num_distinct_actions()

    def new_initial_state(self, seed: int | None = None) -> Any:
        state = self.state_class.__new__(self.state_class)
        state._start(self.core, self, seed_from(seed))
        return state

    def play_random_games(self, n: int, seed: int = 0) -> list[float]:
        """Play ``n`` uniformly random games in C; the mean score of each seat."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise SolversError(f"the number of games should be an int, not {type(n).__name__}")
        return self.core.play_random_games(n, seed_from(seed))

    def state_from_raw(self, raw: bytes) -> Any:
        """A state rebuilt from a struct saved with ``state._raw()`` (by a
        search, say); its history is empty."""
        state = self.new_initial_state(0)
        state._set_raw(raw)
        return state

    def _gamedef_capsule(self) -> Any:
        return self.core.gamedef_capsule()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.num_players})"
