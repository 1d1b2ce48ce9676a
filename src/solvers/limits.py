"""The bounds on what a user may ask for, in one place.

Every entry point checks seeds and search budgets with these functions: the
agents their own options (so the Python API refuses too), the command line
its options, the engine its requests. So each refuses the same values with
the same one-line :class:`~solvers.errors.SolversError`, and before any
work starts: a budget of ``1e12`` seconds is a typo rather than a wish, and
an infinite one never returns::

    >>> check_seconds("time", 2.5)
    2.5
    >>> check_seconds("time", float("inf"))
    Traceback (most recent call last):
    ...
    solvers.errors.SolversError: time should be seconds, more than 0 and at most 86400, not inf
    >>> check_seed("seed", -1)
    Traceback (most recent call last):
    ...
    solvers.errors.SolversError: seed should be a whole number from 0 to 2**64 - 1, not -1
"""

from __future__ import annotations

import math
from typing import Any

from .errors import SolversError

#: Seeds are 0 to 2**64 - 1, the states of the 64-bit generator
#: (:mod:`solvers.rng`): a larger or negative one would only be another
#: name for one of those.
MAX_SEED = 2**64
#: A search budget of at most a day.
MAX_SECONDS = 86_400.0
#: Iterations of a search, and any other count of repetitions (samples,
#: beam widths): more than a billion is a typo (it would run for days).
MAX_ITERATIONS = 1_000_000_000
#: Nodes of a search tree: the kernels number them with 32-bit integers.
MAX_NODES = 2**31 - 1


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_whole(name: str, value: Any, minimum: int = 1, maximum: int = MAX_ITERATIONS) -> int:
    """``value`` if it is a whole number from ``minimum`` to ``maximum``
    (``name`` says what it is in the error).

    >>> check_whole("samples", 0, minimum=1)
    Traceback (most recent call last):
    ...
    solvers.errors.SolversError: samples should be a whole number from 1 to 1000000000, not 0
    """
    if not (isinstance(value, int) and not isinstance(value, bool) and minimum <= value <= maximum):
        raise SolversError(f"{name} should be a whole number from {minimum} to {maximum}, "
                           f"not {_shown(value)}")
    return value


def check_seconds(name: str, value: Any, maximum: float = MAX_SECONDS,
                  minimum: float | None = None) -> float:
    """``value`` as a float if it is a number of seconds above 0 (and at
    least ``minimum``, when given) and at most ``maximum``: never 0, a
    negative number, NaN or infinity."""
    low = "more than 0" if minimum is None else f"at least {minimum:g}"
    if not (_is_number(value) and math.isfinite(value) and 0 < value <= maximum
            and (minimum is None or value >= minimum)):
        raise SolversError(f"{name} should be seconds, {low} and at most {maximum:g}, "
                           f"not {_shown(value)}")
    return float(value)


def check_seed(name: str, value: Any) -> int:
    """``value`` if it is a seed: a whole number from 0 to 2**64 - 1."""
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_SEED):
        raise SolversError(f"{name} should be a whole number from 0 to 2**64 - 1, not {_shown(value)}")
    return value


__all__ = ["MAX_SEED", "MAX_SECONDS", "MAX_ITERATIONS", "MAX_NODES", "check_whole",
           "check_seconds", "check_seed"]
