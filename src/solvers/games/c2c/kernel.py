"""Coast to Coast on the Cython kernel: the fast twin of the reference.

:class:`CoastToCoastKernel` takes the same options as the reference
:class:`~solvers.games.c2c.reference.CoastToCoast` and deals the same game
from the same seed; its states (:class:`solvers._core.c2c.CoastKernelState`)
keep the whole position in one C struct::

    >>> game = CoastToCoastKernel(players=1, challenge="The Alamo")
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_seeded_chance()
    >>> twin = game.reference_game().new_initial_state(seed=1)
    >>> twin.apply_seeded_chance()
    >>> state.legal_actions() == twin.legal_actions()
    True
    >>> mean = play_random_games(game, 100, seed=3)   # 100 random games in C
    >>> 0 < mean < 200
    True

Search modules take the C interface from :meth:`CoastToCoastKernel._gamedef_capsule`
and :meth:`CoastKernelState._state_capsule`. There, ``GameDef.returns`` is the
search utility, not the rulebook result:

* solo with a challenge: 0 if the challenge is lost, else ``1 + score / 1000``
  (winning first, then the score);
* solo without a challenge: ``score / 100``;
* several players: the win shares of :meth:`returns`.

Before the end it applies the same formula to the sheets as they stand (an
estimate for searches that cut rollouts short), where the Python
``returns()`` gives zeros.
"""

from __future__ import annotations

import operator
from typing import Any

from ..._core.c2c import CoastKernelState, GameCore
from ...errors import SolversError
from ...game import Game
from ...rng import seed_from
from .data import CoastMap
from .reference import CoastToCoast


class CoastToCoastKernel(Game):
    """Coast to Coast with its options fixed, played by the Cython kernel.

    ``players`` 1 to 4; ``challenge`` a location name or id (solo only);
    ``map`` a :class:`~solvers.games.c2c.data.CoastMap`, a map file path or
    None for the built-in sheet.

    >>> CoastToCoastKernel(players=2).setup_cards()
    6
    """

    name = "c2c"
    reference = False

    @property
    def return_bounds(self) -> tuple[float, float] | None:
        """The range of every seat's ``GameDef.returns`` (win shares with
        several players), used to prune chance nodes in endgame search."""
        return (0.0, 1.0) if self.num_players > 1 else None

    def __init__(self, players: int = 1, challenge: str | int | None = None,
                 map: CoastMap | str | None = None):
        ref = CoastToCoast(players=players, challenge=challenge, map=map)  # checks the options
        if ref.challenge is not None:
            # The reference takes any int as a card id; the kernel needs a real one.
            try:
                card = None if isinstance(ref.challenge, bool) else operator.index(ref.challenge)
            except TypeError:
                card = None
            if card is None or not 0 <= card < ref.map.n:
                raise SolversError(f"challenge {challenge!r} is not a location of the map")
            ref = CoastToCoast(players=players, challenge=card, map=ref.map)
        self._reference = ref
        self.map: CoastMap = ref.map
        self.num_players: int = players
        self.challenge: int | None = ref.challenge
        self.deck: list[int] = list(ref.deck)
        self._core = GameCore(self.map, players, self.challenge, self.deck)

    # ----- the Game interface ---------------------------------------------
    def new_initial_state(self, seed: int | None = None) -> CoastKernelState:
        """A new game whose deck is shuffled by ``seed`` exactly as the reference does."""
        return self._core.new_state(self, seed_from(seed))

    def state_from_deal(self, deal: list[int]) -> CoastKernelState:
        """A state whose seeded outcomes deal ``deal`` first (setup, then rounds)."""
        state = self._core.new_state(self, 0)
        state.set_deal(deal)
        return state

    def num_distinct_actions(self) -> int:
        return self.map.n + self.map.n * self.map.n

    def setup_cards(self) -> int:
        return 4 if self.num_players == 1 else 2 * self.num_players + 2

    def required(self) -> set[int]:
        """The locations the challenge demands (empty without a challenge)."""
        return self._reference.required()

    def max_game_length(self) -> int:
        """Most actions, chance included, in one game."""
        return self._core.max_game_length

    def max_actions(self) -> int:
        """Most legal actions (or chance outcomes) at one node."""
        return self._core.max_actions

    def reference_game(self) -> CoastToCoast:
        """The reference game with the same options."""
        return self._reference

    # ----- for search modules ------------------------------------------------
    def _gamedef_capsule(self) -> Any:
        """A PyCapsule "solvers.GameDef" (the capsule keeps the tables alive)."""
        return self._core.gamedef_capsule()

    def _state_from_raw(self, raw: bytes, history: list[int] | None = None) -> CoastKernelState:
        """A Python state from a struct a search module produced."""
        state = self._core.new_state(self, 0)
        state._from_raw(raw, history)
        return state

    def state_from_raw(self, raw: bytes) -> CoastKernelState:
        """A state rebuilt from a struct saved with ``state._raw()`` (as
        :class:`solvers.games.kernel_game.KernelGame` names it); its history
        is empty."""
        return self._state_from_raw(raw)

    def __reduce__(self):
        return (CoastToCoastKernel, (self.num_players, self.challenge, self.map))

    def __repr__(self) -> str:
        ch = "" if self.challenge is None else f", challenge={self.map.locations[self.challenge].name!r}"
        return f"CoastToCoastKernel(players={self.num_players}{ch})"


def random_scores(game: CoastToCoastKernel, n: int, seed: int | None = None):
    """Scores of ``n`` random games played in C: an int32 array ``(n, players)``.

    Chance deals uniformly from the rest of the deck; every player picks
    uniformly among the legal actions. One ``seed`` gives one set of games.
    """
    return game._core.random_scores(n, seed_from(seed))


def play_random_games(game: CoastToCoastKernel, n: int, seed: int | None = None) -> float:
    """The mean score (over games and players) of ``n`` random games played in C.

    >>> play_random_games(CoastToCoastKernel(), 10, seed=1) == play_random_games(CoastToCoastKernel(), 10, seed=1)
    True
    """
    if n <= 0:
        raise SolversError(f"the number of games must be positive, not {n}")
    return float(random_scores(game, n, seed).mean())
