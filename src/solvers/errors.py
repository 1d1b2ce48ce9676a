"""Errors that the library raises for bad input.

Every error a user can cause (an unknown name, a malformed file, an illegal
move) is a :class:`SolversError`. The command line and the engine protocol
turn it into one line of text; nothing else is caught there, so a bug still
shows its traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def _rebuild(cls: "type[SolversError]", message: str, attributes: dict) -> "SolversError":
    """Unpickle a :class:`SolversError` of any subclass without calling its
    ``__init__`` (whose arguments may differ from the message)."""
    error = cls.__new__(cls)
    ValueError.__init__(error, message)
    error.__dict__.update(attributes)
    return error


class SolversError(ValueError):
    """Bad input from a user, a file or a frontend. The message is one line.

    Every subclass survives pickling (a worker process can raise it), with
    its type, message and attributes::

        >>> import pickle
        >>> e = pickle.loads(pickle.dumps(UnknownNameError("agent", "mcst", ["mcts"])))
        >>> type(e).__name__, str(e), e.name
        ('UnknownNameError', "unknown agent 'mcst'; did you mean 'mcts'?", 'mcst')
    """

    def __reduce__(self) -> tuple:
        return _rebuild, (type(self), str(self), dict(self.__dict__))


class IllegalActionError(SolversError):
    """An action that is not legal in the current state. The state is unchanged."""


class UnknownNameError(SolversError):
    """A name (location, challenge, game, agent) that is not known.

    The message names the closest known names, so a typo is easy to fix.
    """

    def __init__(self, kind: str, name: str, known: Iterable[str]):
        self.kind = kind
        self.name = name
        known = list(known)
        lowered = {k.lower(): k for k in known}
        close = difflib.get_close_matches(name.lower(), list(lowered), n=3, cutoff=0.5)
        if not close:
            # Fall back to names that contain one of the words typed.
            words = [w for w in name.lower().split() if len(w) > 2]
            close = [k for k in lowered if any(w in k for w in words)][:3]
        hint = ""
        if close:
            hint = "; did you mean " + " or ".join(repr(lowered[c]) for c in close) + "?"
        elif 0 < len(known) <= 8:
            hint = "; known: " + ", ".join(sorted(known))
        super().__init__(f"unknown {kind} {name!r}{hint}")
