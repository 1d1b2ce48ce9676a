"""The one pseudo-random generator every game shares.

Reference implementations and Cython kernels must produce the same game from
the same seed, so both use SplitMix64 (Steele, Lea and Flood, "Fast
splittable pseudorandom number generators", OOPSLA 2014) and the same
Fisher-Yates shuffle. ``solvers._core.rng`` holds the C twin of this module.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
T = TypeVar("T")


class SplitMix64:
    """A tiny, fast, well-mixed 64-bit generator.

    >>> r = SplitMix64(7)
    >>> [r.below(10) for _ in range(5)]
    [7, 4, 6, 3, 4]
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (modulo reduction; the bias is below 2**-50)."""
        return self.next() % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_from(seed: int | None) -> int:
    """Turn a user's seed (or None for 'any') into a 64-bit seed."""
    if seed is None:
        import secrets

        return secrets.randbits(64)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    return seed & MASK64
