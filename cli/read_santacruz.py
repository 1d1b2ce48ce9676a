"""Reading a Santa Cruz move typed in the terminal: a pure function of the
state and the text, for the play loop (``read_move(state, text) -> action id``).

What a player may type (case and extra spaces ignored):

* ``5`` (or ``site 5``): site 5, when landing or building. A bare number
  is always a site, never a place in the list of moves; at a step that
  picks no site it is refused with a pointer to ``#N``;
* ``#3`` or ``move 3``: the 3rd move in the list the prompt shows;
* a legal move's words (``play double road``, ``choose set A (River)``,
  ``score Coast``) or any unambiguous short form of them: each typed word
  must begin a word of the move, in order, and a typed number must equal
  a number of the move (``ship``, ``double road``, ``set a``, ``coast``,
  ``discard birds``). When several moves fit, one whose every word that
  matters is typed wins (``ship`` is ``play ship``, not ``play double
  ship``), then the one with the most words typed whole (``set b`` is set
  B, not set D, Balanced); otherwise the line is refused and the
  candidates are named.

A refused line raises :class:`~solvers.errors.SolversError` with one line.

>>> from solvers.games.santacruz.kernel import SantaCruzKernel
>>> state = SantaCruzKernel(2).new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> state.action_to_string(read_move(state, "set b"))
'choose set B (Road)'
>>> state.action_to_string(read_move(state, "#1"))
'choose set A (River)'
"""

from __future__ import annotations

import re
from typing import Any

from solvers.errors import SolversError

from .read_bigsur import match_words

#: Words of Santa Cruz's moves that only link the ones that matter.
FILLER = frozenset({"play", "choose", "set", "on", "site", "build", "land", "score", "discard"})
SITE_STEPS = ("land", "build")


def _sites_text(legal: list[int]) -> str:
    return ", ".join(str(s) for s in sorted(legal))


def read_move(state: Any, text: str) -> int:
    """The action ``text`` names in ``state`` (see the module doc);
    SolversError (one line) when it names none or several."""
    low = " ".join(text.lower().split())
    legal = state.legal_actions()
    m = re.fullmatch(r"(?:#\s*|move\s+)(\d+)", low)
    if m:
        n = int(m.group(1))
        if not 1 <= n <= len(legal):
            raise SolversError(f"there is no move #{n}: the moves are numbered #1 to #{len(legal)}")
        return legal[n - 1]
    m = re.fullmatch(r"(?:(?:build|land)(?: on)? )?(?:site )?(\d+)", low)
    if m:
        site = int(m.group(1))
        if state.step not in SITE_STEPS:
            raise SolversError(f"a number is a site, and there is no site to choose now; "
                               f"type '#{min(site, len(legal)) or 1}' for a move of the list")
        if site not in legal:
            why = "there is no site" if site >= state.game.num_sites else "you cannot build on site"
            verb = "land" if state.step == "land" else "build"
            raise SolversError(f"{why} {site} now: you may {verb} on site {_sites_text(legal)}")
        return site
    return match_words(state, text, legal, FILLER)


#: What the help and the prompt say about this reader.
HELP = ("Type a site number to land or build there ('14'), '#3' or 'move 3' for the 3rd move of "
        "the list, or a move's words or their unambiguous start: 'ship', 'double road', "
        "'set A', 'score coast', 'discard birds'.")

__all__ = ["read_move", "HELP"]
