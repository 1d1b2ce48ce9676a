"""Learned values of a solo Coast to Coast sheet between rounds (fitted
value iteration).

A solo round is one decision among the sheets its four cards allow to end
with (:meth:`CoastKernelState.round_ends`). From round 4 on the value of an
end is exact (:meth:`CoastKernelState.end_values`); before it, this module
learns one by backward induction, the approach of fitted value iteration
(Bellman and Dreyfus 1959; Munos and Szepesvári, "Finite-time bounds for
fitted value iteration", JMLR 2008):

- ``V[3]``, the value of a sheet after round 3 (and the cards not seen),
  is fitted to samples of the best of round 4 for one random hand, each end
  of it valued exactly;
- ``V[r]`` for r = 2, 1, 0 (0: after the setup) is fitted to samples of
  the best end of round r+1 for one random hand under ``V[r+1]``.

Each sample is unbiased for the value it stands for (a hand drawn uniformly
from the unseen cards, the best end for that hand), so the noise of one
hand averages out in the fit. The sheets come from real positions: every
round's decision in games of a cheap player, and random ends of it, so the
fit sees the ends a decision has to rank. The value is the expected final
points without a challenge; with one, the chance of completing it and the
expected points (a lost challenge scoring none), ranked in that order.

Nothing here reads a card the player has not seen: a sheet's features are
the sheet and the set of cards not seen yet.
"""

from __future__ import annotations

import io
import json
import math
import random
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import SolversError
from ...learn.net import adam_fit, forward, fresh_layers, one_blas_thread

#: Rounds of a solo game: 0 is the setup, 1..5 the rounds.
LAST_ROUND = 5
#: The boundaries with a learned value: after the setup and rounds 1-3.
LEARNED = (0, 1, 2, 3)


def walk_to(state: Any, end: tuple[int, int, int]) -> Any:
    """A copy of ``state`` played on to the end of its round with ``end``
    (one of its :meth:`round_ends`), each move one that keeps ``end``
    reachable."""
    s = state.clone()
    r = s.round
    while not s.is_chance_node() and not s.is_terminal() and s.round == r:
        moves = dict(s.round_ends())
        if end not in moves:
            raise SolversError(f"{end} is not an end of this round")
        s.apply_action(moves[end])
    return s


def deal_hand(state: Any, rng: random.Random) -> Any:
    """A copy of ``state`` (at a chance node) with the next cards drawn
    uniformly from those not seen yet, by ``rng``, up to the next decision."""
    s = state.clone()
    while s.is_chance_node():
        outcomes = s.chance_outcomes()
        s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return s


@dataclass
class Samples:
    """Sheets after round ``boundary`` with one sampled value each."""

    boundary: int
    circled: np.ndarray
    crossed: np.ndarray
    exact: np.ndarray
    unseen: np.ndarray
    win: np.ndarray
    points: np.ndarray

    def __len__(self) -> int:
        return len(self.win)

    @classmethod
    def join(cls, parts: Iterable[Samples]) -> Samples:
        parts = list(parts)
        if not parts:
            raise SolversError("no samples to join")
        return cls(parts[0].boundary, *(np.concatenate([getattr(p, f) for p in parts])
                                        for f in ("circled", "crossed", "exact", "unseen",
                                                  "win", "points")))

    def save(self, path: str) -> None:
        np.savez(path, boundary=self.boundary, circled=self.circled, crossed=self.crossed,
                 exact=self.exact, unseen=self.unseen, win=self.win, points=self.points)

    @classmethod
    def load(cls, path: str) -> Samples:
        with np.load(path) as f:
            return cls(int(f["boundary"]), *(f[k] for k in ("circled", "crossed", "exact",
                                                            "unseen", "win", "points")))


def best_of_round(state: Any, value: Callable[[Any, list], list] | None) -> tuple[float, float]:
    """The best ``(win, points)`` over the ends of the round under way at a
    decision: exact from round 4 on (``value`` None), else by ``value``
    (``value(state, ends) -> [(win, points)]`` for the round's ends)."""
    from ...agents.c2c_online import end_key

    challenge = state.game.challenge is not None
    if value is None:
        vals = [(w, p) for _, _, w, p in state.end_values()]
    else:
        vals = value(state, [e for e, _ in state.round_ends()])
    return max(vals, key=lambda wp: end_key(wp[0], wp[1], challenge))


def sample_positions(game: Any, player: str, games: Iterable[int],
                     boundary: int) -> Iterable[Any]:
    """The first decision of round ``boundary`` in each seeded game of
    ``player`` (an agent spec), dealt from the game's seed."""
    from ...agents.base import load_agent, parse_agent_spec

    kind, options = parse_agent_spec(player)
    for seed in games:
        agent = load_agent(kind, game, seed=seed, **options)
        s = game.new_initial_state(seed=seed)
        while s.is_chance_node() or s.round < boundary:
            s.apply_action(s.seeded_outcome() if s.is_chance_node() else agent.step(s))
        yield seed, s


def sample_values(game: Any, boundary: int, positions: Iterable[tuple[int, Any]],
                  ends_per_position: int,
                  value: Callable[[Any, list], list] | None, hands: int = 1) -> Samples:
    """For each position (the first decision of round ``boundary``), up to
    ``ends_per_position`` of its round's ends drawn at random, each valued
    by the mean over ``hands`` random hands of the best of the next round
    (a random stream fixed by the position's seed and the boundary). More
    hands make a target less noisy at the cost of a round's ends a hand."""
    rows: list[tuple[int, int, int, int, float, float]] = []
    required = game.map.required_mask(game.challenge) if game.challenge is not None else 0
    features = SheetFeatures(game.map, required)
    for seed, s in positions:
        rng = random.Random(seed * 8 + boundary)
        ends = [e for e, _ in s.round_ends()]
        if required:
            # Lost sheets are worth (0, 0) by rule (SheetFeatures.lost): the
            # samples go to the sheets still alive.
            e = np.array(ends, dtype=np.uint32).reshape(-1, 3)
            after_unseen = np.full(len(e), unseen_cards(s), np.uint32)
            ends = [end for end, gone in zip(ends, features.lost(e[:, 0], e[:, 1], after_unseen),
                                             strict=True) if not gone]
        for end in rng.sample(ends, min(ends_per_position, len(ends))):
            after = walk_to(s, end)
            unseen = unseen_cards(after)
            win = points = 0.0
            for _ in range(hands):
                w, p = best_of_round(deal_hand(after, rng), value)
                win += w
                points += p
            rows.append((*end, unseen, win / hands, points / hands))
    a = np.array(rows, dtype=np.float64).reshape(-1, 6)
    circled, crossed, exact, unseen_ = (a[:, k].astype(np.uint32) for k in range(4))
    return Samples(boundary, circled, crossed, exact, unseen_, a[:, 4].copy(), a[:, 5].copy())


def unseen_cards(state: Any) -> int:
    """The cards the solo player has not seen (the undealt ones), as a mask:
    a set the player knows, never their order."""
    m = 0
    for c in state.order[state.pos:]:
        m |= 1 << int(c)
    return m


# --- Features of a sheet (vectorised over many sheets) ----------------------

class SheetFeatures:
    """The features of sheets after a round, from the sheet and the cards
    not seen yet: the circled, crossed-off and exactly matched locations;
    the locations a card could circle next, and those two and three lines
    away through free locations; the unseen cards, and for each free
    location how many of them could circle it; the points the sheet scores
    now (highways, complete types and regions, exact matches); per type and
    region how many locations are circled and whether one is crossed off
    (it can no longer complete); per highway the circles and the longest
    run; and, in a challenge, the demanded locations still to circle and
    whether one is crossed off.

        >>> from solvers.games.c2c.data import load_map
        >>> f = SheetFeatures(load_map())
        >>> x = f(np.array([0b111], np.uint32), np.array([0], np.uint32),
        ...       np.array([0], np.uint32), np.array([0xFFFFFFF0], np.uint32))
        >>> x.shape == (1, f.count), f.score(np.array([0b111], np.uint32),
        ...                                  np.array([0], np.uint32)).tolist()
        (True, [6])
    """

    def __init__(self, m: Any, required: int = 0, version: int | None = None):
        self.m = m
        self.n = m.n
        self.required = int(required)
        self.version = FEATURE_VERSION if version is None else int(version)
        if self.version not in FEATURE_VERSIONS:
            raise SolversError(f"no sheet features of version {self.version}")
        # The cards never dealt in a solo game: the deck (less the challenge
        # card) after the setup's 4 and the five rounds' 4 each.
        self.never_dealt = m.n - (1 if self.required else 0) - 4 - 4 * LAST_ROUND
        self.nb = np.array(m.neighbours, dtype=np.uint32)
        self.matches = np.array(m.matches, dtype=np.uint32)
        self.highways = [m.highway_masks[h] for h in m.highways]
        self.hw_points = np.array(m.highway_points, dtype=np.int64)
        self.types = [(m.type_masks[t], m.type_points[t]) for t in m.types]
        self.regions = [(m.region_masks[r], m.region_points) for r in m.regions]
        self.exact_points = m.exact_match_points
        self.count = len(self(np.zeros(1, np.uint32), np.zeros(1, np.uint32),
                              np.zeros(1, np.uint32), np.zeros(1, np.uint32))[0])

    def bits(self, v: np.ndarray) -> np.ndarray:
        return ((v[:, None] >> np.arange(self.n, dtype=np.uint32)) & 1).astype(np.float32)

    def dilate(self, v: np.ndarray) -> np.ndarray:
        """The locations joined by a line to one of ``v``."""
        out = np.zeros_like(v)
        for i in range(self.n):
            out |= np.where((v >> np.uint32(i)) & 1, self.nb[i], np.uint32(0))
        return out

    def highway_runs(self, circled: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The highway points of each sheet, and per highway its longest run."""
        total = np.zeros(len(circled), np.int64)
        longest = []
        for mask in self.highways:
            run = np.zeros(len(circled), np.int64)
            best = np.zeros(len(circled), np.int64)
            for i in range(self.n):
                if not mask >> i & 1:
                    continue
                on = ((circled >> np.uint32(i)) & 1).astype(bool)
                total += np.where(on, 0, self.hw_points[run])
                run = np.where(on, run + 1, 0)
                best = np.maximum(best, run)
            total += self.hw_points[run]
            longest.append(best)
        return total, longest

    def score(self, circled: np.ndarray, exact: np.ndarray) -> np.ndarray:
        """The rulebook's points of each sheet as it is (an independent
        count; the kernel's ``score_breakdown`` is the reference)."""
        return self._score(circled, exact)[0]

    def _score(self, circled: np.ndarray, exact: np.ndarray) -> tuple[Any, ...]:
        hw, longest = self.highway_runs(circled)
        typ = sum(np.where(circled & np.uint32(t) == t, p, 0) for t, p in self.types)
        reg = sum(np.where(circled & np.uint32(r) == r, p, 0) for r, p in self.regions)
        ex = self.exact_points * _popcount(circled & exact)
        return hw + typ + reg + ex, hw, typ, reg, ex, longest

    def __call__(self, circled: np.ndarray, crossed: np.ndarray, exact: np.ndarray,
                 unseen: np.ndarray) -> np.ndarray:
        circled, crossed, exact, unseen = (np.asarray(a, dtype=np.uint32)
                                           for a in (circled, crossed, exact, unseen))
        full = np.uint32((1 << self.n) - 1)
        free = ~(circled | crossed) & full
        d1 = self.dilate(circled) & free
        d2 = self.dilate(circled | d1) & free
        d3 = self.dilate(circled | d2) & free
        ub = self.bits(unseen)
        # For each free location, the unseen cards that could circle it.
        takers = (self.bits(free) * (ub @ self.bits(self.matches).T)) / 16.0
        total, hw, typ, reg, ex, longest = self._score(circled, exact)
        cols = [self.bits(circled), self.bits(crossed), self.bits(circled & exact),
                self.bits(d1), self.bits(d2), self.bits(d3), ub, takers,
                np.stack([total, hw, typ, reg, ex], axis=1) / 50.0,
                _popcount(unseen)[:, None] / 16.0]
        for mask, _ in self.types + self.regions:
            mk = np.uint32(mask)
            cols.append(np.stack([_popcount(circled & mk) / _popcount(np.array([mask]))[0],
                                  (crossed & mk) != 0], axis=1))
        for mask, best in zip(self.highways, longest, strict=True):
            cols.append(np.stack([_popcount(circled & np.uint32(mask)) / 9.0, best / 9.0], axis=1))
        if self.required:
            rq = np.uint32(self.required)
            cols.append(np.stack([_popcount(rq & ~circled) / 9.0, (crossed & rq) != 0,
                                  _popcount(rq & ~circled & ~d1) / 9.0], axis=1))
            cols.append(self.bits(rq & ~circled & full))
            if self.version >= 2:
                cols.append(self.challenge_odds(circled, unseen, d1, d2, d3))
        return np.hstack([c.astype(np.float32) for c in cols])

    def lost(self, circled: np.ndarray, crossed: np.ndarray, unseen: np.ndarray) -> np.ndarray:
        """Which sheets can no longer complete the challenge, whatever the
        cards still to come (all False without one): a demanded location
        crossed off; more demanded locations still to circle than the
        rounds left can circle (three a round); or one that no unseen card
        can circle. Such a sheet is worth nothing (a lost challenge scores
        0), which is known, not learned.

            >>> from solvers.games.c2c.data import load_map
            >>> m = load_map()
            >>> f = SheetFeatures(m, required=m.required_mask(4))
            >>> rq = m.required_mask(4)
            >>> f.lost(*(np.array([v], np.uint32) for v in (rq, 0, 0xFFFF))).tolist()
            [False]
            >>> one = rq & -rq                  # the first demanded location
            >>> f.lost(*(np.array([v], np.uint32) for v in (rq & ~one, one, 0xFFFF))).tolist()
            [True]
        """
        circled, crossed, unseen = (np.asarray(a, dtype=np.uint32) for a in (circled, crossed, unseen))
        if not self.required:
            return np.zeros(len(circled), bool)
        rq = np.uint32(self.required)
        missing = rq & ~circled
        draws = np.maximum(_popcount(unseen) - self.never_dealt, 0)
        out = ((crossed & rq) != 0) | (_popcount(missing) > 3 * (draws // 4))
        for j in range(self.n):
            if self.required >> j & 1:
                out |= (((missing >> np.uint32(j)) & 1) != 0) & ((unseen & self.matches[j]) == 0)
        return out

    def challenge_odds(self, circled: np.ndarray, unseen: np.ndarray, d1: np.ndarray,
                       d2: np.ndarray, d3: np.ndarray) -> np.ndarray:
        """Version 2's counts of a challenge's risks, each from the sheet
        and the set of unseen cards (``[n, 8]``). With ``D`` the cards still
        to be dealt and ``U`` those unseen: for each demanded location
        still to circle, the chance that at least one of ``D`` cards drawn
        from ``U`` can circle it (hypergeometric), their product and their
        least; how many have no unseen card able to circle them; how many
        are not one, two or three lines from the itinerary; the circles
        the rounds left allow beyond the demanded ones; and the chance that
        some round left deals four demanded locations (one of them must
        then be crossed off: the challenge is lost).

            >>> from solvers.games.c2c.data import load_map
            >>> m = load_map()
            >>> f = SheetFeatures(m, required=m.required_mask(4))
            >>> odds = f.challenge_odds(*(np.array([v], np.uint32) for v in
            ...                           (m.required_mask(4), 0xFFFF, 0, 0, 0)))
            >>> odds[0, :3].tolist()            # nothing left to circle
            [1.0, 1.0, 0.0]
        """
        n = len(circled)
        rq = np.uint32(self.required)
        missing = rq & ~circled
        u = _popcount(unseen).astype(np.int64)
        draws = np.maximum(u - self.never_dealt, 0)
        rounds_left = draws // 4
        total = _COMB[u, draws]
        prod = np.ones(n)
        least = np.ones(n)
        hopeless = np.zeros(n)
        for j in range(self.n):
            if not self.required >> j & 1:
                continue
            open_j = ((missing >> np.uint32(j)) & 1).astype(bool)
            takers = _popcount(unseen & self.matches[j]).astype(np.int64)
            p = 1.0 - _COMB[u - takers, draws] / np.maximum(total, 1.0)
            p = np.where(open_j, p, 1.0)
            prod *= p
            least = np.minimum(least, p)
            hopeless += open_j & (takers == 0)
        near1, near2, near3 = (_popcount(missing & ~d) for d in (d1, d1 | d2, d1 | d2 | d3))
        slack = 3 * rounds_left - _popcount(missing)
        demanded = _popcount(unseen & rq).astype(np.int64)   # cards showing a demanded location
        four = _COMB[demanded, 4] / np.maximum(_COMB[u, 4], 1.0)
        doomed = 1.0 - (1.0 - four) ** rounds_left
        return np.stack([prod, least, hopeless / 4.0, near1 / 8.0, near2 / 8.0, near3 / 8.0,
                         slack / 12.0, doomed], axis=1)


#: Binomial coefficients C(a, b) for a, b up to 32, as floats (0 where b > a).
_COMB = np.array([[float(math.comb(a, b)) for b in range(33)] for a in range(33)])

_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _popcount(v: np.ndarray) -> np.ndarray:
    """Set bits of each 32-bit mask."""
    v = np.asarray(v, dtype=np.uint32)
    return (_POP8[v & 255] + _POP8[(v >> 8) & 255] + _POP8[(v >> 16) & 255]
            + _POP8[v >> 24])


# --- The model: a small network, fitted and evaluated in numpy --------------

class ValueNet:
    """A two-layer perceptron from features to (chance of completing the
    challenge, expected points / 100), ReLU hidden units, fitted by Adam
    (Kingma and Ba 2015) to the squared error of both outputs, with the
    epoch of least error on held-out samples kept (early stopping)."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], mean: np.ndarray,
                 scale: np.ndarray):
        self.layers = layers
        self.mean = mean
        self.scale = scale

    @classmethod
    def fresh(cls, inputs: int, hidden: tuple[int, ...], rng: np.random.Generator,
              mean: np.ndarray, scale: np.ndarray) -> ValueNet:
        # He initialisation, the output layer near zero: the fit starts from
        # the targets' mean (set by fit_net), not from noise.
        layers = fresh_layers((inputs, *hidden, 2), rng, last_scale=0.01)
        return cls(layers, mean, scale)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """``[n, 2]``: the chance and the points (not scaled)."""
        return forward(self.layers, (x - self.mean) / self.scale) * np.array([1.0, 100.0],
                                                                             np.float32)

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "layers": [{"w": w.tolist(), "b": b.tolist()} for w, b in self.layers]}

    @classmethod
    def from_json(cls, d: dict[str, Any], inputs: int) -> ValueNet:
        try:
            layers = [(np.array(layer["w"], np.float32), np.array(layer["b"], np.float32))
                      for layer in d["layers"]]
            mean = np.array(d["mean"], np.float32)
            scale = np.array(d["scale"], np.float32)
        except (KeyError, TypeError, ValueError) as e:
            raise SolversError(f"a malformed value network ({e})") from None
        shape_ok = (len(layers) >= 1 and mean.shape == (inputs,) and scale.shape == (inputs,)
                    and layers[0][0].shape[0] == inputs and layers[-1][0].shape[1] == 2
                    and all(w.ndim == 2 and b.shape == (w.shape[1],) for w, b in layers)
                    and all(a[0].shape[1] == b[0].shape[0]
                        for a, b in zip(layers, layers[1:], strict=False)))
        if not shape_ok or not all(np.isfinite(w).all() and np.isfinite(b).all()
                                   for w, b in layers) or not (scale > 0).all():
            raise SolversError(f"a value network that does not fit {inputs} features")
        return cls(layers, mean, scale)


def fit_net(x: np.ndarray, y: np.ndarray, *, seed: int, hidden: tuple[int, ...] = (128, 64),
            epochs: int = 60, batch: int = 256, lr: float = 1e-3, decay: float = 1e-4,
            holdout: float = 0.1, progress: Callable[[int, float], None] | None = None
            ) -> tuple[ValueNet, dict[str, float]]:
    """Fit a :class:`ValueNet` to features ``x`` and targets ``y`` (``[n, 2]``:
    chance, points), all randomness from ``seed``. Returns the network and
    its held-out error (the root mean squared error of the points and of
    the chance, and the error of a constant prediction, for scale)."""
    rng = np.random.default_rng(seed)
    n = len(x)
    order = rng.permutation(n)
    n_test = max(1, int(n * holdout))
    test, train = order[:n_test], order[n_test:]
    mean = x[train].mean(axis=0)
    sd = x[train].std(axis=0)
    scale = np.where(sd < 0.05, 1.0, sd)     # a feature (nearly) constant in training stays as it is
    target = (y / np.array([1.0, 100.0])).astype(np.float32)
    net = ValueNet.fresh(x.shape[1], hidden, rng, mean.astype(np.float32),
                         scale.astype(np.float32))
    net.layers[-1][1][...] = target[train].mean(axis=0)
    xs = ((x - mean) / scale).astype(np.float32)

    def held_out() -> float:
        err = net.predict(x[test]) / np.array([1.0, 100.0]) - target[test]
        return float((err ** 2).mean())

    adam_fit(net.layers, xs, target, train, rng=rng, held_out=held_out,
             loss_grad=lambda out, t: 2 * (out - t) / len(t), epochs=epochs, batch=batch,
             lr=lr, decay=decay, progress=progress)
    pred = net.predict(x[test])
    report = {"rmse_points": float(np.sqrt(((pred[:, 1] - y[test, 1]) ** 2).mean())),
              "rmse_chance": float(np.sqrt(((pred[:, 0] - y[test, 0]) ** 2).mean())),
              "sd_points": float(y[test, 1].std()), "sd_chance": float(y[test, 0].std()),
              "train": len(train), "held_out": n_test}
    return net, report


# --- A set of values, one per boundary, and its file -------------------------

FORMAT = "solvers-c2c-values"
SCHEMA = 1
#: The features training makes (2: version 1 and, with a challenge, the
#: counts of :meth:`SheetFeatures.challenge_odds`); the versions a file
#: may have been made with.
FEATURE_VERSION = 2
FEATURE_VERSIONS = (1, 2)
#: The most a value file may unpack to.
MAX_UNPACKED = 64 * 2**20


class SheetValues:
    """The learned values of one solo game (no challenge, or one challenge
    card): a :class:`ValueNet` per boundary of :data:`LEARNED` that has one,
    and how they were made (``training``: command, seed, sizes, errors)."""

    def __init__(self, m: Any, challenge: int | None, nets: dict[int, ValueNet],
                 training: dict[str, Any] | None = None, feature_version: int | None = None):
        self.map = m
        self.challenge = challenge
        self.features = SheetFeatures(m, m.required_mask(challenge) if challenge is not None
                                      else 0, feature_version)
        self.nets = dict(nets)
        self.training = dict(training or {})

    def values(self, boundary: int, sheets: list[tuple[int, int, int]],
               unseen: int) -> np.ndarray:
        """``[n, 2]``: the chance of completing the challenge (1 without
        one) and the expected final points of each sheet after round
        ``boundary``, ``unseen`` the cards not seen then."""
        net = self.nets.get(boundary)
        if net is None:
            raise SolversError(f"no learned value after round {boundary}")
        a = np.array(sheets, dtype=np.uint32).reshape(-1, 3)
        with one_blas_thread():
            x = self.features(a[:, 0], a[:, 1], a[:, 2], np.full(len(a), unseen, np.uint32))
            out = net.predict(x)
        if self.challenge is None:
            out[:, 0] = 1.0
        else:
            np.clip(out[:, 0], 0.0, 1.0, out=out[:, 0])
            if self.features.version >= 2:
                # Known, not learned (version 2 is fitted to live sheets only).
                out[self.features.lost(a[:, 0], a[:, 1], np.full(len(a), unseen, np.uint32))] = 0.0
        return out

    def of_round(self, state: Any, ends: list[tuple[int, int, int]]) -> list[tuple[float, float]]:
        """The values of ``ends``, ends of the round under way in ``state``
        (the cards not seen are those not dealt: the round's four are seen)."""
        out = self.values(state.round, ends, unseen_cards(state))
        return [(float(w), float(p)) for w, p in out]

    def save(self, path: Any) -> None:
        meta = {"format": FORMAT, "schema": SCHEMA, "feature_version": self.features.version,
                "features": self.features.count,
                "challenge": None if self.challenge is None
                else self.map.locations[self.challenge].name,
                "boundaries": sorted(self.nets), "training": self.training}
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta))}
        for r, net in self.nets.items():
            arrays[f"r{r}_mean"], arrays[f"r{r}_scale"] = net.mean, net.scale
            for i, (w, b) in enumerate(net.layers):
                arrays[f"r{r}_w{i}"], arrays[f"r{r}_b{i}"] = w, b
        if hasattr(path, "write"):
            np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
            return
        with open(path, "wb") as f:
            np.savez_compressed(f, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Any, m: Any) -> SheetValues:
        """Read a file of :meth:`save` (a path, or a file of the package's
        data); anything wrong is one SolversError."""
        from ...files import read_file

        name = str(path)
        data = path.read_bytes() if hasattr(path, "read_bytes") else read_file(path, "value file")
        return cls.from_bytes(data, m, name)

    @classmethod
    def from_bytes(cls, data: bytes, m: Any, name: str) -> SheetValues:
        from .challenges import challenge_id

        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                # Each array is read whole: refuse one that would unpack to
                # more than the file limit (a small file may hide a huge one).
                if sum(i.file_size for i in z.infolist()) > MAX_UNPACKED:
                    raise SolversError(f"the value file {name} unpacks to over "
                                       f"{MAX_UNPACKED // 2**20} MB")
            with np.load(io.BytesIO(data), allow_pickle=False) as f:
                meta = json.loads(str(f["meta"]))
                arrays = {k: f[k] for k in f.files}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as e:
            raise SolversError(f"cannot read the value file {name}: {e}") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise SolversError(f"{name} is not a Coast to Coast value file")
        if meta.get("schema") != SCHEMA or meta.get("feature_version") not in FEATURE_VERSIONS:
            raise SolversError(f"{name} is of another version (schema {meta.get('schema')}, "
                               f"features {meta.get('feature_version')}); retrain it with "
                               "solve train c2c")
        challenge = challenge_id(m, meta.get("challenge"))
        values = cls(m, challenge, {}, meta.get("training"), meta["feature_version"])
        for r in meta.get("boundaries", []):
            if r not in LEARNED:
                raise SolversError(f"{name}: no learned value belongs after round {r}")
            layers, i = [], 0
            while f"r{r}_w{i}" in arrays:
                layers.append((arrays[f"r{r}_w{i}"], arrays[f"r{r}_b{i}"]))
                i += 1
            d = {"mean": arrays.get(f"r{r}_mean"), "scale": arrays.get(f"r{r}_scale"),
                 "layers": [{"w": w, "b": b} for w, b in layers]}
            if d["mean"] is None or d["scale"] is None:
                raise SolversError(f"{name}: the value after round {r} is incomplete")
            values.nets[r] = ValueNet.from_json(d, values.features.count)
        return values


def builtin_values(m: Any, challenge: int | None) -> SheetValues | None:
    """The values shipped in the package for this game (the built-in map,
    no challenge or a challenge card that has its own), or None."""
    from importlib import resources

    name = builtin_file(m, challenge)
    if name is None:
        return None
    data = resources.files("solvers.data").joinpath(name).read_bytes()
    values = SheetValues.from_bytes(data, m, f"the package's {name}")
    if values.challenge != challenge:
        raise SolversError(f"the package's {name} was made for another game: reinstall solvers")
    return values


def builtin_file(m: Any, challenge: int | None) -> str | None:
    """The package data file of this game's shipped values
    (:func:`builtin_name`), or None when none ships (another map, or a
    challenge without its own)."""
    from importlib import resources

    if m.source != "built-in":
        return None
    name = builtin_name(m, challenge)
    return name if resources.files("solvers.data").joinpath(name).is_file() else None


def builtin_name(m: Any, challenge: int | None) -> str:
    """The package data file of a game's values: ``c2c-values.npz`` without
    a challenge, ``c2c-values-<card>.npz`` (the card's three-letter code)
    with one."""
    return "c2c-values.npz" if challenge is None else f"c2c-values-{m.codes[challenge].lower()}.npz"


# --- Training: backward from round 3 to the setup ----------------------------

#: The cheap player whose games give the positions (the challenge reports').
POSITION_PLAYER = "mcts:iterations=2000"


@dataclass(frozen=True)
class SampleJob:
    """One batch of positions of one boundary (picklable, for run_jobs):
    the games ``first .. first + count - 1`` of the training seed."""

    challenge: int | None
    boundary: int
    seed: int
    first: int
    count: int
    player: str
    ends: int
    values: bytes | None      # the file of the values fitted so far (None at round 3)
    hands: int = 1            # hands a target averages where the next value is learned


def position_seed(seed: int, boundary: int, index: int) -> int:
    """The deal and agent seed of training game ``index`` of a boundary."""
    from ...learn.train import game_seeds
    from ...limits import MAX_SEED

    return game_seeds(seed * 8 + boundary, index)[0] % MAX_SEED


def run_sample_job(job: SampleJob) -> Samples:
    from ... import load_game

    game: Any = load_game("c2c") if job.challenge is None else load_game("c2c", challenge=job.challenge)
    value = None
    if job.values is not None:
        value = SheetValues.from_bytes(job.values, game.map, "the values so far").of_round
    seeds = [position_seed(job.seed, job.boundary, i) for i in range(job.first, job.first + job.count)]
    return sample_values(game, job.boundary,
                         sample_positions(game, job.player, seeds, job.boundary), job.ends, value,
                         hands=1 if value is None else job.hands)


def train(challenge: int | None, *, out: str, seed: int = 0, positions: int = 4000,
          ends: int = 6, player: str = POSITION_PLAYER, hidden: tuple[int, ...] = (128, 64),
          epochs: int = 40, workers: int | None = 1, backend: str = "local",
          resume: bool = False, command: str = "", hands: int = 1,
          keep_checkpoint: bool = False,
          progress: Callable[[str, int, int], None] | None = None) -> SheetValues:
    """Fit the values after rounds 3, 2, 1 and the setup, in that order
    (the module docstring), and save them at ``out``. Each boundary plays
    ``positions`` games of ``player`` to its round and samples ``ends`` of
    its ends, each valued by the mean of ``hands`` hands of the next round
    where that round's value is learned (after the setup and rounds 1-2;
    after round 3 one hand: there each hand costs the exact values of round
    4's ends). The samples of each boundary are kept in ``out``'s checkpoint
    (``OUT.ckpt.npz``) as they are made, so a stopped run goes on with
    ``resume`` (the record's ``seconds`` then add up the sittings, each to
    its last checkpoint, and ``sittings`` counts them); every random choice
    follows ``seed``, so the result does not depend on the workers or the
    backend. A checkpoint of other ``positions`` (the same settings
    otherwise) gives ``resume`` the samples after round 3 of the positions
    both share, the dearest part of a run (each of their targets values a
    round's ends exactly): with ``keep_checkpoint`` a finished run leaves
    its checkpoint, so that a later run with more positions grows from it.
    ``progress(stage, done, total)`` follows the batches."""
    import time

    from ... import load_game
    from ...parallel import run_jobs

    game: Any = load_game("c2c") if challenge is None else load_game("c2c", challenge=challenge)
    m = game.map
    values = SheetValues(m, challenge, {})
    features = values.features
    config = {"challenge": challenge, "seed": seed, "positions": positions, "ends": ends,
              "player": player, "hidden": list(hidden), "epochs": epochs,
              "feature_version": FEATURE_VERSION, "hands": hands}
    ckpt = out + ".ckpt.npz"
    done: dict[str, np.ndarray] = {}
    # The sittings before this one: their time counts in the record (up to
    # each one's last checkpoint), so a resumed file says what it cost.
    before, sittings, grown_from = 0.0, 1, 0
    if resume:
        done, before, earlier, grown_from = _read_checkpoint(ckpt, config)
        sittings += earlier
    batch = POSITIONS_A_JOB
    report: dict[str, Any] = {}
    start = time.perf_counter()

    def save_checkpoint() -> None:
        _write_checkpoint(ckpt, config, {**done, "sittings": np.array(sittings),
                                         "seconds": np.array(before + time.perf_counter() - start),
                                         "grown_from": np.array(grown_from)})
    for boundary in sorted(LEARNED, reverse=True):
        stage = f"after round {boundary}" if boundary else "after the setup"
        key = f"b{boundary}"
        blob = None
        if values.nets:
            buf = io.BytesIO()
            values.save(buf)
            blob = buf.getvalue()
        jobs = [SampleJob(challenge, boundary, seed, i, min(batch, positions - i), player, ends,
                          blob, hands) for i in range(0, positions, batch)]
        parts = {i: _part(done, key, i, boundary) for i in range(len(jobs))
                 if f"{key}j{i}_win" in done}
        todo = [i for i in range(len(jobs)) if i not in parts]
        if progress is not None:
            progress(stage, len(parts), len(jobs))
        for n, (k, part) in enumerate(run_jobs(run_sample_job, [jobs[i] for i in todo],
                                               workers=workers, backend=backend)):
            parts[todo[k]] = part
            for f in FIELDS:
                done[f"{key}j{todo[k]}_{f}"] = getattr(part, f)
            if (n + 1) % 8 == 0 or n + 1 == len(todo):
                save_checkpoint()
            if progress is not None:
                progress(stage, len(parts), len(jobs))
        smp = Samples.join(parts[i] for i in range(len(jobs)))
        if len(smp) < 2:
            alive = "could still complete the challenge" if challenge is not None \
                else "were sampled"
            raise SolversError(f"{stage}: {len(smp)} sheet(s) of {positions} position(s) "
                               f"{alive}, too few to fit a value: play more positions "
                               "(--games) or with a stronger player")
        x = features(smp.circled, smp.crossed, smp.exact, smp.unseen)
        y = np.stack([smp.win, smp.points], axis=1)
        net, fit = fit_net(x, y, seed=seed + boundary, hidden=hidden, epochs=epochs)
        values.nets[boundary] = net
        report[str(boundary)] = {"samples": len(smp), **{k: round(v, 4) if isinstance(v, float)
                                                         else v for k, v in fit.items()}}
    values.training = {"command": command, "seed": seed, "positions": positions, "ends": ends,
                       "hands": hands, "player": player, "hidden": list(hidden), "epochs": epochs,
                       "features": features.count, "fit": report,
                       "seconds": round(before + time.perf_counter() - start, 1),
                       "sittings": sittings}
    if grown_from:
        values.training["grown_from"] = grown_from
    tmp = out + ".tmp"
    values.save(tmp)
    import os

    os.replace(tmp, out)
    if keep_checkpoint:
        save_checkpoint()
    elif os.path.exists(ckpt):
        os.unlink(ckpt)
    return values


FIELDS = ("circled", "crossed", "exact", "unseen", "win", "points")
POSITIONS_A_JOB = 50    # a boundary's positions are played in jobs of this many


def _part(arrays: dict[str, np.ndarray], key: str, i: int, boundary: int) -> Samples:
    return Samples(boundary, *(arrays[f"{key}j{i}_{f}"] for f in FIELDS))


def _write_checkpoint(path: str, config: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    import os

    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, config=np.array(json.dumps(config, sort_keys=True)),
                            **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)


def _read_checkpoint(path: str, config: dict[str, Any]
                     ) -> tuple[dict[str, np.ndarray], float, int, int]:
    """The samples of a checkpoint, the seconds and sittings of the runs
    that made it (none: empty, 0 and 0; so in a checkpoint written before
    they were kept), and the positions of the run it grew from (0: none;
    the checkpoint's own if they are not ``config``'s, see
    :func:`_first_samples`)."""
    import os

    if not os.path.exists(path):
        return {}, 0.0, 0, 0
    try:
        with np.load(path, allow_pickle=False) as f:
            saved = json.loads(str(f["config"]))
            arrays = {k: f[k] for k in f.files if k != "config"}
        seconds = float(arrays.pop("seconds", 0.0))
        sittings = int(arrays.pop("sittings", 0))
        grown_from = int(arrays.pop("grown_from", 0))
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile) as e:
        raise SolversError(f"cannot resume from {path}: not a readable checkpoint ({e})") from None
    wanted = json.loads(json.dumps(config, sort_keys=True))
    if saved != wanted:
        if not isinstance(saved, dict) or {**saved, "positions": None} != \
                {**wanted, "positions": None}:
            raise SolversError(f"cannot resume from {path}: it was made with other settings "
                               "(use the same options, or drop --resume)")
        made = saved.get("positions")
        if not isinstance(made, int) or made < 1:
            raise SolversError(f"cannot resume from {path}: its positions are not a count")
        arrays, grown_from = _first_samples(arrays, made, wanted["positions"]), made
    return arrays, seconds, sittings, grown_from


def _first_samples(arrays: dict[str, np.ndarray], made: int, wanted: int
                   ) -> dict[str, np.ndarray]:
    """Of a checkpoint made with ``made`` positions a boundary, what a run
    of ``wanted`` can keep: the first boundary's jobs (after round 3, whose
    targets use no learned value) that both runs cut alike. Every job's
    games follow the seed and its index alone, so those samples are the
    ones this run would make; the later boundaries' samples were valued by
    a fit of other samples, and are made again."""
    batch, key = POSITIONS_A_JOB, f"b{max(LEARNED)}"
    same = [i for i in range(0, min(made, wanted), batch)
            if min(batch, made - i) == min(batch, wanted - i)]
    keep = {f"{key}j{i // batch}_{f}" for i in same for f in FIELDS}
    return {k: v for k, v in arrays.items() if k in keep}


def train_solo(game_options: dict[str, Any], *, out: str | None, seed: int, games: int,
               workers: int | None = 1, resume: bool = False, command: str = "",
               progress: Callable[[str, int, int], None] | None = None,
               iterations: int | None = None, hands: int = 1,
               player: str | None = None, keep_checkpoint: bool = False) -> dict[str, Any]:
    """``solve train c2c`` with one seat (the registry's ``solo_trainer``):
    :func:`train` with ``games`` positions a boundary, played by
    ``mcts:iterations=ITERATIONS`` (default: :data:`POSITION_PLAYER`) or by
    ``player`` (any agent spec for the game, for example the learned player
    of an earlier file, ``online:early=report,learned=4,values=FILE``: a
    second pass of value iteration on the positions that player meets), each
    target before round 3 the mean of ``hands`` hands; the summary printed."""
    from ... import load_game

    unknown = set(game_options) - {"challenge"}
    if unknown:
        raise SolversError(f"solo values are trained on the built-in map, with or without a "
                           f"challenge; not with {', '.join(sorted(unknown))}")
    game: Any = load_game("c2c", **game_options)
    challenge = game.challenge
    path = out or builtin_name(game.map, challenge)
    if player is not None and iterations is not None:
        raise SolversError("--player and --iterations both name the positions' player: "
                           "give one")
    if player is None:
        player = POSITION_PLAYER if iterations is None else f"mcts:iterations={iterations}"
    else:
        from ...agents.base import load_agent, parse_agent_spec

        kind, options = parse_agent_spec(player)
        load_agent(kind, game, seed=0, **options)        # a bad spec: one error, now
    values = train(challenge, out=path, seed=seed, positions=games, player=player,
                   workers=workers, resume=resume, command=command, progress=progress,
                   hands=hands, keep_checkpoint=keep_checkpoint)
    return {"file": path, "challenge": None if challenge is None
            else game.map.locations[challenge].name, **values.training}
