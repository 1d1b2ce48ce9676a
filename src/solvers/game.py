"""The one game interface every game and every algorithm in the library uses.

The method names follow OpenSpiel's ``pyspiel.State`` so that game-AI users
feel at home. A game is built by :func:`solvers.load_game`; its states are
walked with small integer actions::

    >>> import solvers
    >>> game = solvers.load_game("c2c", players=1, challenge="The Alamo")
    >>> state = game.new_initial_state(seed=1)
    >>> while state.is_chance_node():          # deal the setup cards
    ...     state.apply_action(state.seeded_outcome())
    >>> [state.action_to_string(a) for a in state.legal_actions()][:2]
    ['cross Freedom Trail', 'cross Phipps Conservatory and Botanical Gardens']

Contract (every game, reference or kernel):

* ``current_player()`` is a seat ``0..players-1``, :data:`CHANCE` at a chance
  node, :data:`TERMINAL` at the end.
* ``legal_actions()`` is a sorted list of ints; ``apply_action(a)`` raises
  :class:`~solvers.errors.IllegalActionError` and leaves the state as it was
  when ``a`` is not legal.
* At a chance node ``chance_outcomes()`` lists ``(action, probability)``.
  ``seeded_outcome()`` is the outcome that the state's seed dictates, so that
  ``new_initial_state(seed=s)`` played with seeded outcomes is the same game
  for the reference and the kernel.
* ``returns()`` is a list with one float per player: the game's result (for
  Coast to Coast solo the score, 0 for a lost challenge; with several players
  1 for the winner, shared ties split, 0 otherwise). ``scores()`` gives the
  points as printed on the score sheet.
* ``information_state(player)`` is everything that player may know, as a
  JSON-friendly dict; two states that differ only in what the player cannot
  see give equal dicts.
* ``observed_move(action, viewer)`` is ``action`` (about to be applied) in
  the words ``viewer`` may read: the full move when ``viewer`` sees it
  (``action_observation``), otherwise only its public part ("player 2
  discards a card"); ``viewer=None`` is the referee, who sees everything.
  Every screen, log and saved game shown to a person uses it.
* ``clone()`` is an independent copy.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

CHANCE = -1
TERMINAL = -4


class State(ABC):
    """A position of a game. See the module docstring for the contract."""

    game: "Game"

    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[int]: ...

    @abstractmethod
    def apply_action(self, action: int) -> None: ...

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]: ...

    @abstractmethod
    def seeded_outcome(self) -> int: ...

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> list[float]: ...

    @abstractmethod
    def scores(self) -> list[int]: ...

    @abstractmethod
    def clone(self) -> "State": ...

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def information_state(self, player: int) -> dict[str, Any]: ...

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def observed_move(self, action: int, viewer: int | None) -> str:
        """``action``, about to be applied to this state, as ``viewer`` sees
        it (:func:`observed_move`)."""
        return observed_move(self, action, viewer)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        """The public part of ``action``, which ``viewer`` does not see whole
        (``seen`` is its ``action_observation``). Games with hidden moves
        override this to say what the table sees; this fallback names only
        who moved."""
        mover = self.current_player()
        if mover == CHANCE:
            return "a hidden chance outcome"
        return f"player {mover} makes a hidden move"

    def string_to_action(self, text: str) -> int:
        """The legal action whose string form is ``text`` (case and spaces ignored)."""
        from .errors import IllegalActionError

        want = " ".join(text.lower().split())
        actions = self.chance_outcomes() if self.is_chance_node() else None
        legal = [a for a, _ in actions] if actions is not None else self.legal_actions()
        for a in legal:
            if " ".join(self.action_to_string(a).lower().split()) == want:
                return a
        raise IllegalActionError(f"{text!r} is not a legal move here")

    def apply_seeded_chance(self) -> None:
        """Resolve chance nodes with the seeded outcomes until a player must act."""
        while self.is_chance_node():
            self.apply_action(self.seeded_outcome())

    def __str__(self) -> str:  # pragma: no cover - games override
        return repr(self)


class Game(ABC):
    """A game with its options fixed. Build one with :func:`solvers.load_game`."""

    name: str
    num_players: int
    reference: bool
    #: Who plays the kernel's playout policy in MCTS rollouts unless the
    #: search is told otherwise (:func:`solvers.search.mcts.make_search`).
    default_rollout: str = "policy"
    #: The exploration constant ``c`` of MCTS's UCB (on returns from 0 to 1)
    #: unless the search or the agent spec is told otherwise; a game whose
    #: searches measured stronger with another value sets its own (the
    #: measurements so far: ``docs/benchmarks/strength.md``).
    default_c: float = 1.4
    #: MCTS with a time budget hands a position to the exact endgame search
    #: (over determinisations) when random playouts from it end within this
    #: many actions, with at most ``default_endgame_nodes`` nodes, unless the
    #: agent spec says otherwise (``mcts:endgame_plies=0``: never); 0 for a
    #: game where that was not measured to pay. An iteration budget alone
    #: keeps the plain search, so that equal-budget comparisons stay like for
    #: like.
    default_endgame_plies: int = 0
    default_endgame_nodes: int = 200_000

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State: ...

    @abstractmethod
    def num_distinct_actions(self) -> int: ...


def observed_move(state: Any, action: int, viewer: int | None) -> str:
    """``action``, about to be applied to ``state``, in the words ``viewer``
    may read: the whole move when the state's ``action_observation`` shows it
    to ``viewer``, else the state's ``hidden_move`` (what the table sees of
    it); ``viewer=None`` is the referee, who reads every move whole. Works
    for any state with ``action_to_string``, including ones that do not
    derive from :class:`State`.

    >>> import solvers
    >>> game = solvers.load_game("switchbacks", players=2)
    >>> state = game.new_initial_state(seed=1)
    >>> state.apply_action(state.seeded_outcome())   # the centre tile: public
    >>> action = state.seeded_outcome()              # a tile set aside for seat 0
    >>> observed_move(state, action, 0) == state.action_to_string(action)
    True
    >>> observed_move(state, action, 1)
    'set aside a tile for player 0'
    """
    if viewer is None:
        return state.action_to_string(action)
    observe = getattr(state, "action_observation", None)
    seen = action if observe is None else observe(action, viewer)
    if seen == action:
        return state.action_to_string(action)
    hidden = getattr(state, "hidden_move", None)
    if hidden is not None:
        return hidden(action, viewer, seen)
    return State.hidden_move(state, action, viewer, seen)
