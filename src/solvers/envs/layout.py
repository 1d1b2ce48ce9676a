"""The blocks of an observation vector: a small builder the games' encodings share.

A game's encoding (``solvers/games/<game>/encoding.py``) describes its vector
as named blocks, each with a size and a one-line meaning (:class:`Layout`),
and fills a fresh :class:`Vector` block by block. Every value lies in
``[0, 1]``: bits, one-hot blocks and counts divided by their largest value::

    >>> layout = Layout().block("seat", 2, "one-hot: whose view").block("score", 1, "points / 100")
    >>> v = layout.new()
    >>> _ = v.onehot("seat", 1).scalar("score", 30, 100)
    >>> v.array.tolist()
    [0.0, 1.0, 0.30000001192092896]
    >>> layout.size, layout.offset("score")
    (3, 2)

This module needs numpy only (no environment library), so encodings can be
used and tested without PettingZoo or Gymnasium.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Block:
    """One block of a layout: ``size`` values at ``offset`` that mean ``meaning``."""

    name: str
    offset: int
    size: int
    meaning: str


@dataclass
class Layout:
    """The named blocks of an observation vector, in order."""

    blocks: list[Block] = field(default_factory=list)

    def block(self, name: str, size: int, meaning: str) -> "Layout":
        """Append a block (names are unique; sizes at least 1); returns the layout."""
        if any(b.name == name for b in self.blocks):
            raise ValueError(f"block {name!r} is already in the layout")
        if size < 1:
            raise ValueError(f"block {name!r} needs a size of at least 1")
        self.blocks.append(Block(name, self.size, int(size), meaning))
        return self

    def seat_blocks(self, players: int, turn_of: bool = True) -> "Layout":
        """Add the blocks every seat's vector opens with: ``seat`` (one-hot),
        ``to_move`` and, for games with turns, ``turn_of`` (whose turn,
        counted from this seat). :meth:`Vector.seat_blocks` fills them."""
        self.block("seat", players, "one-hot: the seat whose view this is")
        self.block("to_move", 1, "1 when this seat is the one to act")
        if turn_of:
            self.block("turn_of", players,
                       "one-hot: whose turn it is, counted from this seat (0 = this seat)")
        return self

    @property
    def size(self) -> int:
        """The length of the vector."""
        return sum(b.size for b in self.blocks)

    def get(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise KeyError(f"no block {name!r} in the layout")

    def offset(self, name: str) -> int:
        return self.get(name).offset

    def spans(self) -> dict[str, tuple[int, int]]:
        """Each block's (offset, size) by name (kept once the layout is used)."""
        spans = self.__dict__.get("_spans")
        if spans is None or len(spans) != len(self.blocks):
            spans = self.__dict__["_spans"] = {b.name: (b.offset, b.size) for b in self.blocks}
        return spans

    def new(self) -> "Vector":
        """A vector of zeros to fill."""
        return Vector(self)

    def describe(self) -> list[tuple[str, int, int, str]]:
        """Each block as (name, offset, size, meaning): the table of docs/envs.md."""
        return [(b.name, b.offset, b.size, b.meaning) for b in self.blocks]


class Vector:
    """A vector being filled by block name; ``array`` is the float32 result.

    Indices are checked against the block: writing past a block's end is a
    bug in an encoding, and raises IndexError rather than spilling into the
    next block."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.array = np.zeros(layout.size, dtype=np.float32)
        self._blocks = layout.spans()

    def _span(self, name: str, index: int) -> int:
        offset, size = self._blocks[name]
        if not 0 <= index < size:
            raise IndexError(f"index {index} is outside block {name!r} of size {size}")
        return offset + index

    def set(self, name: str, index: int, value: float = 1.0) -> "Vector":
        """Write ``value`` (clipped to [0, 1]) at ``index`` of a block."""
        self.array[self._span(name, index)] = 0.0 if value < 0 else 1.0 if value > 1 else value
        return self

    def onehot(self, name: str, index: int | None) -> "Vector":
        """Set one bit of a block (``None``: leave the block all zeros)."""
        if index is not None:
            self.set(name, index)
        return self

    def bits(self, name: str, indices: Iterable[int]) -> "Vector":
        """Set the bits at ``indices`` of a block."""
        offset, size = self._blocks[name]
        array = self.array
        for i in indices:
            if not 0 <= i < size:
                raise IndexError(f"index {i} is outside block {name!r} of size {size}")
            array[offset + i] = 1.0
        return self

    def seat_blocks(self, seat: int, info: dict, steps: Sequence[str] = ()) -> "Vector":
        """Fill the blocks :meth:`Layout.seat_blocks` added from an
        information state's ``to_move`` and ``turn_of`` (when the layout has
        that block), and the ``step`` block from ``info["step"]``'s place in
        ``steps`` (when the layout has one)."""
        players = self._blocks["seat"][1]
        self.onehot("seat", seat)
        self.set("to_move", 0, 1.0 if info["to_move"] == seat else 0.0)
        if "turn_of" in self._blocks and 0 <= info["turn_of"] < players:
            self.onehot("turn_of", relative(seat, info["turn_of"], players))
        if "step" in self._blocks and info["step"] in steps:
            self.onehot("step", list(steps).index(info["step"]))
        return self

    def scalar(self, name: str, value: float, top: float, index: int = 0) -> "Vector":
        """Write ``value / top`` (clipped to [0, 1]) at ``index`` of a block."""
        return self.set(name, index, float(value) / top if top else 0.0)


def per_game(build: Callable[[Any], Layout]) -> Callable[[Any], Layout]:
    """Decorate a ``layout(game)`` function so that each game object builds
    its layout once (a game's layout never changes)."""
    cache: "weakref.WeakKeyDictionary[Any, Layout]" = weakref.WeakKeyDictionary()

    @wraps(build)
    def layout(game: Any) -> Layout:
        try:
            return cache[game]
        except KeyError:
            pass
        except TypeError:          # a game that cannot be weakly referenced
            return build(game)
        out = cache[game] = build(game)
        return out

    return layout


def relative(seat: int, player: int, players: int) -> int:
    """``player``'s place counted from ``seat`` (``seat`` itself is 0, the
    next seat 1, ...): blocks about every seat list the viewer first.

    >>> [relative(2, p, 4) for p in range(4)]
    [2, 3, 0, 1]
    """
    return (player - seat) % players


__all__ = ["Block", "Layout", "Vector", "per_game", "relative"]
