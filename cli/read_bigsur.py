"""Reading a Big Sur move typed in the terminal: pure functions of the state
and the text, for the play loop (``read_move(state, text) -> action id``).

What a player may type (case and extra spaces ignored):

* ``#3`` or ``move 3``: the 3rd move in the list the prompt shows (a bare
  ``3`` too: Big Sur has no board positions to type);
* a legal move's words (``take 12 from the Depot``) or any unambiguous short
  form of them: each typed word must begin a word of the move, in order, and
  a typed number must equal a number of the move (``take 12``, ``draw``,
  ``deck``, ``build 12``, ``left``, ``r``, ``pay``, ``pay rec``, ``claim
  mcway``, ``place 17``, ``stone``, ``end``). When several moves fit, one
  whose every word that matters is typed wins (``pay`` is the payment
  with nothing extra when that one is legal); otherwise the line is refused
  and the candidates are named;
* ``discard 30 12`` (several cards, any order, commas allowed): the cards
  are discarded together; the rules take discards in increasing card
  number, so :func:`read_plan` gives the whole series of actions and
  :func:`read_move` its first one (a loop that plays only one action per
  line should use :func:`read_plan`).

A refused line raises :class:`~solvers.errors.SolversError` with one line
that says why and what would do.

>>> import solvers
>>> state = solvers.load_game("bigsur", players=2).new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> card = sorted(state.depot)[0]
>>> state.action_to_string(read_move(state, f"take {card}")) == f"take {card} from the Depot"
True
>>> state.action_to_string(read_move(state, "draw"))
'draw from the deck'
"""

from __future__ import annotations

import re
from typing import Any

from solvers.errors import SolversError

#: Words of Big Sur's moves that only link the ones that matter.
FILLER = frozenset({"from", "the", "depot", "deck", "with", "at", "end", "above", "position", "on",
                    "top", "stretch", "persistent"})


def tokens(text: str) -> list[str]:
    """The words of ``text``, lower case, punctuation dropped.

    >>> tokens("Place above 17 (position 2, Ocean Stretch)")
    ['place', 'above', '17', 'position', '2', 'ocean', 'stretch']
    """
    return re.findall(r"[a-z0-9]+", text.lower())


def _word_fits(typed: str, word: str) -> bool:
    if typed.isdigit() or word.isdigit():
        return typed == word
    return word.startswith(typed)


def _covers(typed: list[str], words: list[str]) -> set[int] | None:
    """The positions of ``words`` matched by ``typed`` in order (each typed
    word begins a word of the move; numbers equal), or None."""
    used: set[int] = set()
    i = 0
    for t in typed:
        while i < len(words) and not _word_fits(t, words[i]):
            i += 1
        if i == len(words):
            return None
        used.add(i)
        i += 1
    return used


def match_words(state: Any, text: str, legal: list[int], filler: frozenset[str]) -> int:
    """The one legal move ``text`` names (its words or a short form of them,
    see the module doc); SolversError when none or several fit."""
    typed = tokens(text)
    if not typed:
        raise SolversError("type a move")
    names = {a: state.action_to_string(a) for a in legal}
    exact = [a for a, name in names.items() if tokens(name) == typed]
    if len(exact) == 1:
        return exact[0]
    fits = []
    whole = []
    same: dict[int, int] = {}
    for a, name in names.items():
        words = tokens(name)
        used = _covers(typed, words)
        if used is None:
            continue
        fits.append(a)
        same[a] = len(set(typed) & set(words))
        if all(k in used or w in filler for k, w in enumerate(words)):
            whole.append(a)
    if len(fits) == 1:
        return fits[0]
    if len(whole) == 1:
        return whole[0]
    best = max(same.values(), default=0)
    if best and sum(v == best for a, v in same.items() if a in (whole or fits)) == 1:
        return next(a for a in (whole or fits) if same[a] == best)
    if not fits:
        raise SolversError(f"{text.strip()!r} is not a legal move here")
    shown = ", ".join(f"'{names[a]}'" for a in (whole or fits)[:6])
    more = " ..." if len(whole or fits) > 6 else ""
    raise SolversError(f"{text.strip()!r} could be {shown}{more}: type more of it")


def listed_move(state: Any, text: str) -> int | None:
    """The action of ``#N`` / ``move N`` / ``N`` (the N-th listed move), or
    None when ``text`` is not of that form."""
    m = re.fullmatch(r"\s*(?:#|move\s+)?\s*(\d+)\s*", text.lower())
    if not m:
        return None
    legal = state.legal_actions()
    n = int(m.group(1))
    if not 1 <= n <= len(legal):
        raise SolversError(f"there is no move {n}: the moves are numbered 1 to {len(legal)}")
    return legal[n - 1]


def _discards(state: Any, text: str) -> list[int] | None:
    """The cards of ``discard A B ...`` when it names more than one, or None."""
    words = tokens(text)
    if len(words) < 3 or not "discard".startswith(words[0]) or not all(w.isdigit() for w in words[1:]):
        return None
    return [int(w) for w in words[1:]]


def _discard_plan(state: Any, cards: list[int]) -> list[int]:
    """The discard actions for ``cards`` (any order) in the order the rules
    take them, checked on a copy of the state."""
    g = state.game
    if state.step != "pay":
        raise SolversError("there is nothing to pay for now: discards come after 'build N'")
    if len(set(cards)) != len(cards):
        raise SolversError("a card can be discarded once")
    hand = set(state.hands[state.player])
    missing = [c for c in cards if c not in hand or c == state.building]
    if missing:
        raise SolversError(f"card {missing[0]} is not in your hand to discard")
    done = set(state.paying)
    todo = sorted(c for c in cards if c not in done)
    if state.paying and todo and todo[0] < max(state.paying):
        low = ", ".join(str(c) for c in sorted(done | set(todo)))
        raise SolversError(f"you have discarded {', '.join(map(str, state.paying))} already; "
                           f"to discard {low} go back with a new build (the discards are one set)")
    trial = state.clone()
    plan = []
    for c in todo:
        action = g.DISCARD_BASE + c - 1
        if action not in trial.legal_actions():
            named = ", ".join(map(str, sorted(done | set(todo))))
            raise SolversError(f"no way to pay for {state.building} discards exactly {named}; "
                               "name every card you discard in one line, in any order "
                               f"('discard {' '.join(map(str, reversed(todo)))} ...')")
        trial.apply_action(action)
        plan.append(action)
    return plan


def read_plan(state: Any, text: str) -> list[int]:
    """The actions ``text`` stands for, in order (one action, or several
    discards): see the module doc. SolversError (one line) when refused."""
    cards = _discards(state, text)
    if cards is not None:
        return _discard_plan(state, cards)
    listed = listed_move(state, text)
    if listed is not None:
        return [listed]
    legal = state.legal_actions()
    words = tokens(text)
    g = state.game
    if words and "take".startswith(words[0]) and len(words) == 2 and words[1].isdigit() \
            and state.step == "take" and int(words[1]) not in state.depot:
        depot = ", ".join(str(c) for c in sorted(state.depot))
        raise SolversError(f"card {words[1]} is not in the Depot (it holds {depot})")
    if words and "discard".startswith(words[0]) and len(words) == 2 and words[1].isdigit() \
            and state.step == "pay" and g.DISCARD_BASE + int(words[1]) - 1 not in legal:
        return _discard_plan(state, [int(words[1])])
    if words and words[0] == "pay" and state.step == "pay" \
            and not any(g.FINISH_BASE <= a < g.TOP_BASE for a in legal):
        raise SolversError(f"{state.building} is not paid for yet: discard first ('moves' lists "
                           "the discards that can lead to a payment)")
    return [match_words(state, text, legal, FILLER)]


def read_move(state: Any, text: str) -> int:
    """The action ``text`` names (the first of :func:`read_plan`)."""
    return read_plan(state, text)[0]


#: What the help shows for this reader.
HELP = ("Type a move's number ('3' or '#3'), its words or any unambiguous start of them: "
        "'take 12', 'draw', 'build 12', 'left' / 'right', 'discard 30 12' (any order), 'pay', "
        "'pay rec' (with recycling), 'claim McWay', 'place 17', 'stone' (on top), 'end'.")

__all__ = ["read_move", "read_plan", "match_words", "listed_move", "tokens", "HELP"]
