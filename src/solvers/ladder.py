"""Rating ladders: the players meet in pairs (every pair, unless told
otherwise), and one maximum likelihood fit puts them all on one Elo scale,
``random`` at 0.

>>> from solvers.ladder import Ladder
>>> lad = Ladder("switchbacks", ["random", "greedy"], games=4, seed=1)
>>> len(lad.missing())                 # 1 pairing, 4 games
4
>>> _ = lad.play()
>>> t = lad.table(bootstraps=200)
>>> [r.spec for r in t.rows], t.rows[0].rating   # best first; random is the anchor
(['greedy', 'random'], ...)

How a ladder is laid out (``k`` players, ``P`` seats a game, ``N`` games a
pairing):

* **Several seats** (``P >= 2``): each of the ``k (k - 1) / 2`` pairs
  (or each pair ``against`` lets meet, see :class:`Ladder`) plays ``N``
  games. In game ``g`` of the pair ``(a, b)`` (the two specs in
  sorted order) seat ``s`` holds ``a`` when ``s + g`` is even, else ``b``:
  seats alternate, and every two games each player has sat in every seat.
  With more than two seats a player fills several of them, and a game
  gives a *set* of pairwise results: every seat of ``a`` against every
  seat of ``b``.
* **One seat** (``P == 1``, a solo game): every player plays the same
  ``N`` deals alone, and each deal gives one pairwise result for every pair.

A pairwise result compares two seats by their return, then by their score
(so in a game of more than two seats the non-winners are ranked by
points): the higher wins, equal is half a win each.

Deals are shared: game ``g`` of every pairing is dealt from the same seed
(``g // 2`` for several seats, so both seatings of a deal are played). Every
seed derives from the ladder seed and the game's identity (its pair of
specs, its index, the seat), never from the player list or the worker, so
a ladder extended with new players or more games plays only what is
missing, and the results are the same for any number of workers (with
iteration budgets; a time budget depends on the machine's speed).

**Ratings.** The Bradley-Terry model: ``P(i beats j) = 1 / (1 + 10 ** ((R_j
- R_i) / 400))``, fitted by maximum likelihood (Newton's method) to the
pairwise results, the anchor (``random`` when present, else the first
player) at 0. ``prior`` drawn virtual games are added to every pairing
that has played, so that a player who won every game gets a finite rating
(a shrinkage of about ``prior / N`` of the log-odds). The 95% intervals are
the 2.5 and 97.5 percentiles of the fit over ``bootstraps`` resamples of
the games: each pairing's games are drawn again, with replacement, as many
as it played (a stratified bootstrap, seeded from the ladder seed).

**What a row measures.** Each player's budget as its spec gives it (``time``
seconds a move: equal time; ``iterations``/``simulations``: equal budget;
neither: the player's own default) and as measured: the mean seconds a
decision and the mean simulations a decision (the root visits of its
ranking, or an agent's ``last_simulations`` attribute). Forced moves (one
legal action) are not decisions.

**Files.** :meth:`Ladder.save` writes the played games as JSON (with the
table, for reading); ``Ladder(..., resume=FILE)`` reads them back; a file
that is not a ladder, or one made for another game, seat count, option set
or seed, is one :class:`~solvers.errors.SolversError` line.
"""

from __future__ import annotations

import hashlib
import json
import math
import time as _time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import SolversError
from .limits import check_seed
from .tournament import (
    GameJob,
    ThinkMeter,
    _game_for,
    _make_agent,
    _ms,
    _numbers,
    _thinks,
    run_game,
    sessions_text,
    split_agent_list,
)

if TYPE_CHECKING:
    from .benchtrack import RunLog

FORMAT = "solvers-ladder"
VERSION = 1
#: Elo points per unit of natural log-odds.
ELO = 400.0 / math.log(10.0)
#: The times a move (seconds) of the default timed players.
DEFAULT_TIMES = (0.05, 0.2, 1.0, 5.0)
#: The default fixed players; OpenSpiel's ISMCTS joins where it runs.
BASE_PLAYERS = ("random", "greedy")
OPENSPIEL_PLAYER = "openspiel:time=1"
DEFAULT_GAMES = 10
MAX_PLAYERS = 64
MASK64 = (1 << 64) - 1
#: Natural log-odds beyond which a rating has no finite maximum (odds 1e13).
DRIFT = 30.0


# ------------------------------------------------------------ players
def timed_players(kinds: Iterable[str], times: Iterable[float] = DEFAULT_TIMES) -> list[str]:
    """``KIND:time=T`` for every kind and time (a kind may carry options:
    ``"mcts:c=2"`` gives ``"mcts:c=2,time=0.05"``).

    >>> timed_players(["mcts", "mcts:c=2"], [0.05, 1])
    ['mcts:time=0.05', 'mcts:time=1', 'mcts:c=2,time=0.05', 'mcts:c=2,time=1']
    """
    out = []
    for kind in kinds:
        kind = kind.strip()
        for t in times:
            text = f"{float(t):g}"
            out.append(f"{kind}{',' if ':' in kind else ':'}time={text}")
    return out


def openspiel_runs(game: str, players: int, **options: Any) -> bool:
    """Whether OpenSpiel's ISMCTS bot can play ``game`` here (OpenSpiel
    installed and the game accepted by the adapter)."""
    try:
        g = _game_for(game, players, tuple(sorted(options.items())))
        _make_agent(OPENSPIEL_PLAYER, g, 0).check_match()
    except Exception:            # a probe: any failure means it does not run here
        return False
    return True


def default_players(game: str, players: int | None = None, *, times: Iterable[float] = DEFAULT_TIMES,
                    timed: Iterable[str] = ("mcts",), **options: Any) -> list[str]:
    """The default ladder: random, greedy, OpenSpiel's ISMCTS (where it
    runs) and each of ``timed`` at each of ``times`` seconds a move."""
    from . import canonical_game_name, load_game

    name = canonical_game_name(game)
    seats = players or load_game(name, **options).num_players
    out = list(BASE_PLAYERS)
    if openspiel_runs(name, seats, **options):
        out.append(OPENSPIEL_PLAYER)
    return out + timed_players(timed, times)


def _derive(seed: int, *parts: Any) -> int:
    """A 64-bit seed from the ladder seed and a game's identity (stable
    across processes, Python versions and machines)."""
    text = json.dumps([seed, *parts], separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def seating_of(seats: int, g: int) -> tuple[int, ...]:
    """Which of a pair (0 or 1) holds each seat in the pair's game ``g``.

    >>> seating_of(2, 0), seating_of(2, 1), seating_of(3, 0), seating_of(4, 1)
    ((0, 1), (1, 0), (0, 1, 0), (1, 0, 1, 0))
    """
    return tuple((s + g) % 2 for s in range(seats))


# ------------------------------------------------------------ one game
@dataclass(frozen=True)
class Played:
    """One game of a ladder, as saved: ``players`` are the specs taking
    part (a sorted pair, or one spec for a solo game), ``seats`` the spec in
    each seat, ``think`` per seat ``(seconds, decisions, simulations)``."""

    players: tuple[str, ...]
    index: int
    seats: tuple[str, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    moves: int
    think: tuple[tuple[float, int, int], ...]

    @property
    def key(self) -> tuple[tuple[str, ...], int]:
        return self.players, self.index

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "index": self.index, "seats": list(self.seats),
                "returns": list(self.returns), "scores": list(self.scores), "moves": self.moves,
                "think": [[round(s, 6), d, n] for s, d, n in self.think]}


@dataclass(frozen=True)
class LadderJob:
    """A game to play: the tournament's job and the ladder's name for it."""

    players: tuple[str, ...]
    index: int
    job: GameJob


def play_ladder_game(job: GameJob) -> tuple[tuple[float, ...], tuple[float, ...], int,
                                            tuple[tuple[float, int, int], ...]]:
    """Play one game as :func:`solvers.tournament.play_game` does (chance
    from the deal seed, each seat its agent, the search threads capped),
    timing each seat's decisions: ``(returns, scores, moves, think)``."""
    state, moves, meters = run_game(job, wrap=ThinkMeter)
    return (tuple(float(x) for x in state.returns()), tuple(float(x) for x in state.scores()),
            moves, tuple((m.seconds, m.decisions, m.simulations) for m in meters))


# ------------------------------------------------------------ the fit
def _pairwise(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The first seat's share of a pairwise result: 1, 0.5 or 0."""
    return 1.0 if a > b else 0.5 if a == b else 0.0


def fit_ratings(wins: Any, counts: Any, anchor: int = 0, prior: float = 1.0) -> np.ndarray:
    """Bradley-Terry ratings (Elo scale) by maximum likelihood.

    ``wins[i][j]`` is what ``i`` scored against ``j`` (wins, half for a
    draw), ``counts[i][j]`` their results (symmetric); ``prior`` drawn
    virtual games are added to each pairing that has results. ``anchor``
    is rated 0. Every player must be linked to the anchor by results.

    >>> [round(float(x), 1) for x in fit_ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=0)]
    [0.0, -190.8]
    """
    w = np.asarray(wins, dtype=float)
    n = np.asarray(counts, dtype=float)
    k = w.shape[0]
    if w.shape != (k, k) or n.shape != (k, k):
        raise SolversError("fit_ratings: wins and counts are square tables of the same size")
    if not 0 <= anchor < k:
        raise SolversError(f"fit_ratings: the anchor should be a player 0 to {k - 1}")
    if not np.allclose(n, n.T) or (n < 0).any() or (w < 0).any() or (w > n + 1e-9).any():
        raise SolversError("fit_ratings: counts should be symmetric and wins between 0 and counts")
    _check_linked(n, anchor)
    return _fit_batch(w[None], n[None], anchor, prior)[0]


def _check_linked(n: np.ndarray, anchor: int) -> None:
    k = n.shape[0]
    seen = {anchor}
    todo = [anchor]
    while todo:
        i = todo.pop()
        for j in range(k):
            if n[i, j] > 0 and j not in seen:
                seen.add(j)
                todo.append(j)
    if len(seen) < k:
        raise SolversError(f"{k - len(seen)} player(s) have no results linking them to the anchor")


def _fit_batch(w: np.ndarray, n: np.ndarray, anchor: int, prior: float,
               iterations: int = 200) -> np.ndarray:
    """Fit ``B`` tables at once (``w``, ``n``: ``B x k x k``); Elo ratings ``B x k``.
    A table without a finite maximum (a player won every game and
    ``prior`` is 0) gets +-inf for the players that drift away."""
    played = n > 0
    w = w + played * (prior / 2.0)
    n = n + played * prior
    b, k, _ = n.shape
    free = [i for i in range(k) if i != anchor]
    theta = np.zeros((b, k))
    if not free:
        return theta
    eye = np.eye(len(free))[None]
    done = np.zeros(b, dtype=bool)
    for _ in range(iterations):
        diff = theta[:, :, None] - theta[:, None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (w - n * p).sum(axis=2)
        q = n * p * (1.0 - p)
        info = np.zeros_like(q)
        idx = np.arange(k)
        info[:, idx, idx] = q.sum(axis=2)
        info -= q
        sub = info[:, free][:, :, free] + 1e-12 * eye
        step = np.linalg.solve(sub, grad[:, free][:, :, None])[:, :, 0]
        size = np.abs(step).max(axis=1)
        scale = np.minimum(1.0, 2.0 / np.maximum(size, 1e-300))   # at most 2 (870 Elo) a step
        step *= scale[:, None]
        step[done] = 0.0
        theta[:, free] += step
        done |= size < 1e-10
        if done.all():
            break
    # A player who won (or lost) everything drifts off, a step of about 1 a
    # round, until the curvature vanishes: past odds of 1e13 it is infinite.
    theta = np.where(np.abs(theta) > DRIFT, np.copysign(np.inf, theta), theta)
    return theta * ELO


# ------------------------------------------------------------ results
@dataclass
class PlayerRow:
    """One player's line of the table."""

    spec: str
    rating: float
    ci95: tuple[float, float]
    games: int                   # games played in this table
    score: float                 # share of its pairwise results won
    measures: str                # "equal time", "equal budget" or "own budget"
    budget: str                  # the budget its spec gives, in words
    seconds_per_move: float      # measured, a decision
    simulations_per_move: float  # measured, a decision
    decisions: int

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "rating": self.rating, "ci95": list(self.ci95),
                "games": self.games, "score": self.score, "measures": self.measures,
                "budget": self.budget, "seconds_per_move": self.seconds_per_move,
                "simulations_per_move": self.simulations_per_move, "decisions": self.decisions}


@dataclass
class LadderTable:
    """The ratings of a ladder: rows best first, and the pairings' results."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    games: int                    # a pairing
    anchor: str
    prior: float
    bootstraps: int
    rows: list[PlayerRow]
    pairs: list[dict[str, Any]]   # {"players": [a, b], "games", "results", "score"} (a's share)
    played: int = 0               # games played by this run
    reused: int = 0               # games read from the file
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The table as JSON-ready data, floats to 6 decimals."""
        return _rounded({"game": self.game, "seats": self.seats, "options": self.options,
                "seed": self.seed, "games_per_pairing": self.games, "anchor": self.anchor,
                "prior": self.prior, "bootstraps": self.bootstraps,
                "players": [r.to_json() for r in self.rows], "pairings": self.pairs,
                "played": self.played, "reused": self.reused, "seconds": round(self.seconds, 3)})


def _rounded(data: Any, digits: int = 6) -> Any:
    """``data`` with every finite float rounded (infinite ratings become None)."""
    if isinstance(data, float):
        return round(data, digits) if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: _rounded(v, digits) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_rounded(v, digits) for v in data]
    return data


#: The options that give a player a budget in simulations a move; ``time``
#: gives it one in seconds. A ladder row's budget is read from these.
SIMULATION_OPTIONS = ("iterations", "simulations")


def describe_budget(spec: str) -> tuple[str, str]:
    """What a player's row measures and its budget in words, from its spec.

    >>> describe_budget("mcts:time=0.2"), describe_budget("mcts:iterations=500")
    (('equal time', '0.2 s a move'), ('equal budget', '500 simulations a move'))
    >>> describe_budget("greedy")
    ('own budget', 'its default')
    """
    from .agents import parse_agent_spec

    _, options = parse_agent_spec(spec)
    if options.get("time") is not None:
        return "equal time", f"{options['time']:g} s a move"
    for key in SIMULATION_OPTIONS:
        if options.get(key) is not None:
            return "equal budget", f"{options[key]} simulations a move"
    return "own budget", "its default"


# ------------------------------------------------------------ the ladder
def _bad(path: Any, why: str) -> SolversError:
    return SolversError(f"{path}: not a usable ladder file ({why})")


class Ladder:
    """A ladder of ``players`` (agent specs) at ``game``: ``games`` games a
    pairing, ``seats`` seats a game (default: the game's own), seeded.

    ``resume`` reads the games a saved ladder played (:meth:`save`); the
    game, seats, options and seed default to the file's and must match it
    when given; ``players`` and ``games`` default to the file's and may
    differ (more players, more games: :meth:`missing` lists only the games
    not in the file).

    ``against`` (specs among ``players``) limits the pairings: a new
    player (one the resumed file does not have; without a file, every
    player) meets only the players named there, so it can be rated against
    a few neighbours (say ``mcts`` at 5 s against ``mcts`` at 1 s) instead
    of against everyone. The pairings of a resumed file stay; without
    ``against`` a new player meets every other player. A file whose
    pairings are not every pair lists them (``"pairings"``).
    """

    def __init__(self, game: str, players: Sequence[str] | str | None = None,
                 games: int | None = None, *, seats: int | None = None, seed: int | None = None,
                 resume: str | Path | None = None, against: Sequence[str] | str | None = None,
                 **options: Any):
        from . import canonical_game_name, load_game

        name = canonical_game_name(game)
        self.results: dict[tuple[tuple[str, ...], int], Played] = {}
        saved: dict[str, Any] | None = None
        if resume is not None:
            saved = self._read(resume)
            if saved["game"] != name:
                raise SolversError(f"{resume}: this ladder is of {saved['game']}, not {name}")
            if seats is not None and seats != saved["seats"]:
                raise SolversError(f"{resume}: this ladder has {saved['seats']} seats a game, "
                                   f"not {seats}")
            if seed is not None and check_seed("seed", seed) != saved["seed"]:
                raise SolversError(f"{resume}: this ladder has seed {saved['seed']}, not {seed} "
                                   "(leave --seed out to use the file's)")
            if options and options != saved["options"]:
                raise SolversError(f"{resume}: this ladder has the game options "
                                   f"{saved['options'] or 'none'}, not {options}")
            options = dict(saved["options"])
            seats, seed = saved["seats"], saved["seed"]
            if players is None:
                players = saved["players"]
            if games is None:
                games = saved["games"]
        self.game = name
        g = load_game(name, players=seats, **options) if seats else load_game(name, **options)
        self.seats = g.num_players
        self.options = dict(options)
        self.seed = 0 if seed is None else check_seed("seed", seed)
        if players is None:
            players = default_players(name, self.seats, **options)
        specs = split_agent_list(players) if isinstance(players, str) else [
            str(s).strip() for s in players]
        if len(specs) < 2 or not all(specs):
            raise SolversError("a ladder needs at least two players")
        if len(specs) > MAX_PLAYERS:
            raise SolversError(f"a ladder takes at most {MAX_PLAYERS} players, not {len(specs)}")
        dup = sorted({s for s in specs if specs.count(s) > 1})
        if dup:
            raise SolversError(f"player {dup[0]!r} is listed twice")
        games = DEFAULT_GAMES if games is None else games
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise SolversError(f"the games a pairing should be a whole number >= 1, not {games!r}")
        for spec in specs:                     # fail here, at once, on a bad spec
            _make_agent(spec, g, 0).check_match()
        self.players = specs
        self.games = games
        self.schedule = self._schedule(saved, against)
        try:
            json.dumps(self.options)
        except (TypeError, ValueError):
            raise SolversError("a ladder's game options must be plain values (text, numbers) "
                               "to be saved") from None
        if saved is not None:
            for rec in saved["results"]:
                self._check_planned(rec, resume)
                self.results[rec.key] = rec
        self.reused = len(self.results)
        self.played = 0
        #: who played the file's games: one entry per run that added games
        #: ({"commit", "dirty", "version", "date", "games"}); older files have none
        self.sessions: list[dict[str, Any]] = list(saved.get("sessions") or []) if saved else []
        self._log: RunLog | None = None

    # -------------------------------------------------------- the plan
    @property
    def solo(self) -> bool:
        return self.seats == 1

    def every_pair(self) -> list[tuple[str, str]]:
        """Every pair of players, each as its two specs in sorted order."""
        ordered = sorted(self.players)
        return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1:]]

    def pairings(self) -> list[tuple[str, str]]:
        """The pairs that meet (every pair unless ``against`` limited
        them), each as its two specs in sorted order."""
        return list(self.schedule)

    def _schedule(self, saved: dict[str, Any] | None,
                  against: Sequence[str] | str | None) -> list[tuple[str, str]]:
        """The file's pairings (of the players still listed), then the new
        ones: every pair of a player the file did not have (every player,
        without a file) with a player of ``against``, or with anyone when
        ``against`` is None."""
        every = self.every_pair()
        if against is not None and self.solo:
            raise SolversError("against limits who meets whom; in a 1-seat game every player "
                               "plays the same deals, so every pair is compared")
        old_players: set[str] = set()
        old: set[tuple[str, str]] = set()
        if saved is not None:
            old_players = set(saved["players"])
            listed = saved.get("pairings")
            old = set(listed) if listed is not None else {
                (a, b) for a, b in every if a in old_players and b in old_players}
        old &= set(every)
        if against is None:
            new = {(a, b) for a, b in every if not (a in old_players and b in old_players)}
        else:
            names = split_agent_list(against) if isinstance(against, str) else [
                str(x).strip() for x in against]
            if not names:
                raise SolversError("against names no player")
            for name in names:
                if name not in self.players:
                    raise SolversError(f"against names {name!r}, not one of the ladder's players "
                                       f"({', '.join(self.players)})")
            new = {(a, b) for a, b in every
                   if (a not in old_players and b in names) or (b not in old_players and a in names)}
        return [pair for pair in every if pair in old or pair in new]

    def _planned(self, players: tuple[str, ...], g: int) -> GameJob:
        opts = tuple(sorted(self.options.items()))
        if self.solo:
            (spec,) = players
            return GameJob(0, self.game, 1, opts, _derive(self.seed, "deal", g), (0,), players,
                           (_derive(self.seed, "agent", spec, g),))
        seating = seating_of(self.seats, g)
        seeds = tuple(_derive(self.seed, "agent", list(players), g, s) for s in range(self.seats))
        return GameJob(0, self.game, self.seats, opts, _derive(self.seed, "deal", g // 2), seating,
                       players, seeds)

    def wanted(self) -> list[tuple[tuple[str, ...], int]]:
        """The games this ladder's table is made of, in a fixed order: game
        by game across the pairings (every pairing's first game, then every
        second one, ...), so that a long pairing does not all come last, the
        progress counts work about evenly, and a ladder stopped early has
        played every pairing about as much. (The order does not change a
        game: its seeds come from its pairing and number.)"""
        if self.solo:
            return [((s,), g) for g in range(self.games) for s in sorted(self.players)]
        return [(pair, g) for g in range(self.games) for pair in self.pairings()]

    def missing(self) -> list[LadderJob]:
        """The games still to play, in a fixed order."""
        out = []
        for players, g in self.wanted():
            if (players, g) not in self.results:
                out.append(LadderJob(players, g, self._planned(players, g)))
        return out

    def _check_planned(self, rec: Played, path: Any) -> None:
        if self.solo != (len(rec.players) == 1) or len(rec.seats) != self.seats:
            raise _bad(path, f"game {rec.index} of {'/'.join(rec.players)} has the wrong seats")
        job = self._planned(rec.players, rec.index)
        if tuple(job.specs[a] for a in job.seating) != rec.seats:
            raise _bad(path, f"game {rec.index} of {' v '.join(rec.players)} is not seated "
                             "as the ladder seats it")

    # -------------------------------------------------------- playing
    def play(self, *, workers: int | None = 1, backend: str = "local", address: str | None = None,
             progress: Callable[[int], None] | None = None, save: str | Path | None = None,
             save_every: float = 2.0) -> int:
        """Play the missing games (``workers`` at once, on ``backend``:
        :func:`solvers.parallel.run_jobs`), saving to ``save`` as they
        finish (at most every ``save_every`` seconds, and at the end, even
        when interrupted). The number of games played."""
        from dataclasses import replace

        from .parallel import default_workers, run_jobs_saving
        from .search.mcts import thread_allowance

        todo = self.missing()
        if save is not None:
            from .files import check_output_path

            check_output_path(save, "--save")
        if not todo:
            if save is not None:
                self.save(save)
            return 0
        side_by_side = min(len(todo), workers or default_workers())
        share = 1 if backend == "ray" else max(1, thread_allowance() // side_by_side)
        jobs = [replace(t.job, index=i, threads=share) for i, t in enumerate(todo)]
        start = _time.perf_counter()
        done = 0

        def keep(i: int, result: tuple) -> None:
            nonlocal done
            returns, scores, moves, think = result
            t = todo[i]
            seats = tuple(t.job.specs[a] for a in t.job.seating)
            rec = Played(t.players, t.index, seats, returns, scores, moves, think)
            self.results[rec.key] = rec
            done += 1
            self.played += 1

        def write() -> None:
            self.seconds = _time.perf_counter() - start
            if save is not None and done:
                self.save(save)

        run_jobs_saving(play_ladder_game, jobs, keep, write, every=save_every, progress=progress,
                        workers=workers, backend=backend, address=address)
        return done

    # -------------------------------------------------------- the table
    def table(self, prior: float = 1.0, bootstraps: int = 1000,
              anchor: str | None = None) -> LadderTable:
        """The ratings from the games played so far of this ladder's
        pairings (first ``games`` of each); see the module docstring.
        SolversError while a player has no games."""
        if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not \
                (0 <= prior <= 1000) or not math.isfinite(prior):
            raise SolversError(f"the prior should be a number of games from 0 to 1000, not {prior!r}")
        if isinstance(bootstraps, bool) or not isinstance(bootstraps, int) or \
                not 0 <= bootstraps <= 100_000:
            raise SolversError(f"bootstraps should be a whole number from 0 to 100000, "
                               f"not {bootstraps!r}")
        specs = self.players
        if anchor is None:
            anchor = next((s for s in specs if s.strip().lower() == "random"), specs[0])
        if anchor not in specs:
            raise SolversError(f"the anchor {anchor!r} is not one of the players")
        at = {s: i for i, s in enumerate(specs)}
        k = len(specs)
        # per pairing (i < j by list position): the games' (i's share, results)
        per_pair: dict[tuple[int, int], list[tuple[float, int]]] = {}
        think = [[0.0, 0, 0] for _ in range(k)]
        games_of = [0] * k
        if self.solo:
            for g in range(self.games):
                recs = {s: self.results.get(((s,), g)) for s in specs}
                for spec, one in recs.items():
                    if one is not None:
                        games_of[at[spec]] += 1
                        for x, v in enumerate(one.think[0]):
                            think[at[spec]][x] += v
                for i, first in enumerate(specs):
                    for j in range(i + 1, k):
                        ra, rb = recs[first], recs[specs[j]]
                        if ra is None or rb is None:
                            continue
                        share = _pairwise((ra.returns[0], ra.scores[0]), (rb.returns[0], rb.scores[0]))
                        per_pair.setdefault((i, j), []).append((share, 1))
        else:
            for pair in self.pairings():
                i, j = sorted((at[pair[0]], at[pair[1]]))
                for g in range(self.games):
                    rec = self.results.get((pair, g))
                    if rec is None:
                        continue
                    got, seen = 0.0, 0
                    for s, sa in enumerate(rec.seats):
                        for x, v in enumerate(rec.think[s]):
                            think[at[sa]][x] += v
                        if sa != specs[i]:
                            continue
                        for t, sb in enumerate(rec.seats):
                            if sb == specs[j]:
                                got += _pairwise((rec.returns[s], rec.scores[s]),
                                                 (rec.returns[t], rec.scores[t]))
                                seen += 1
                    games_of[i] += 1
                    games_of[j] += 1
                    per_pair.setdefault((i, j), []).append((got, seen))
        lonely = [specs[x] for x in range(k) if games_of[x] == 0]
        if lonely:
            raise SolversError(f"no games played yet for {lonely[0]!r}: play the ladder first")
        w = np.zeros((k, k))
        n = np.zeros((k, k))
        for (i, j), rows in per_pair.items():
            got = sum(r[0] for r in rows)
            m = sum(r[1] for r in rows)
            w[i, j], w[j, i], n[i, j], n[j, i] = got, m - got, m, m
        fixed = at[anchor]
        _check_linked(n, fixed)
        ratings = _fit_batch(w[None], n[None], fixed, prior)[0]
        lo, hi = ratings.copy(), ratings.copy()
        if bootstraps:
            rng = np.random.default_rng(_derive(self.seed, "bootstrap"))
            wb = np.zeros((bootstraps, k, k))
            nb = np.zeros((bootstraps, k, k))
            for (i, j), rows in sorted(per_pair.items()):
                shares = np.array([r[0] for r in rows])
                counts = np.array([r[1] for r in rows], dtype=float)
                pick = rng.integers(0, len(rows), size=(bootstraps, len(rows)))
                got, m = shares[pick].sum(axis=1), counts[pick].sum(axis=1)
                wb[:, i, j], wb[:, j, i], nb[:, i, j], nb[:, j, i] = got, m - got, m, m
            boot = _fit_batch(wb, nb, fixed, prior)
            # nearest ranks, not interpolated: an infinite rating stays one
            lo = np.percentile(boot, 2.5, axis=0, method="lower")
            hi = np.percentile(boot, 97.5, axis=0, method="higher")
        rows_out = []
        for x, spec in enumerate(specs):
            won = sum(w[x])
            total = sum(n[x])
            measures, budget = describe_budget(spec)
            secs, decisions, sims = think[x]
            if measures == "own budget" and not sims:
                budget = "no search"
            rows_out.append(PlayerRow(
                spec=spec, rating=float(ratings[x]), ci95=(float(lo[x]), float(hi[x])),
                games=games_of[x], score=float(won / total) if total else 0.0,
                measures=measures, budget=budget,
                seconds_per_move=secs / decisions if decisions else 0.0,
                simulations_per_move=sims / decisions if decisions else 0.0, decisions=int(decisions)))
        rows_out.sort(key=lambda r: (-r.rating, r.spec))
        pairs = []
        for (i, j), rows in sorted(per_pair.items()):
            pairs.append({"players": [specs[i], specs[j]], "games": len(rows),
                          "results": int(n[i, j]), "score": float(w[i, j] / n[i, j])})
        return LadderTable(self.game, self.seats, dict(self.options), self.seed, self.games, anchor,
                           float(prior), bootstraps, rows_out, pairs, self.played, self.reused,
                           getattr(self, "seconds", 0.0))

    # -------------------------------------------------------- files
    def to_json(self, table: LadderTable | None = None) -> dict[str, Any]:
        """The saved form: the ladder's settings and every game played (in
        a fixed order), with ``table`` (if given) for reading."""
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "seats": self.seats,
            "options": self.options, "seed": self.seed, "players": list(self.players),
            "games_per_pairing": self.games,
            "results": [self.results[k].to_json() for k in sorted(self.results)],
        }
        if self.schedule != self.every_pair():
            data["pairings"] = [list(pair) for pair in self.schedule]
        sessions = self.all_sessions()
        if sessions:
            data["sessions"] = sessions
        if table is not None:
            data["table"] = table.to_json()
        return data

    def all_sessions(self) -> list[dict[str, Any]]:
        """The runs that played this ladder's games: the file's, then this
        one if it played any (its commit, from the source checkout the
        library runs from; ``None`` for an installed copy)."""
        if self._log is None:
            from .benchtrack import RunLog

            self._log = RunLog(self.sessions)
        return self._log.runs("games", self.played)

    def save(self, path: str | Path, table: LadderTable | None = None) -> str:
        """Write the ladder to ``path`` at once (a temporary file renamed)."""
        from .files import write_atomic

        return write_atomic(path, json.dumps(self.to_json(table), indent=1) + "\n", "ladder file")

    @staticmethod
    def _read(path: str | Path) -> dict[str, Any]:
        from .files import read_file

        raw = read_file(path, "ladder file")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise _bad(path, f"not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise _bad(path, f"it has no \"format\": \"{FORMAT}\"")
        if data.get("version") != VERSION:
            raise _bad(path, f"version {data.get('version')!r}; this library reads {VERSION}")
        game, seats, options, seed = (data.get(k) for k in ("game", "seats", "options", "seed"))
        players, games, results = (data.get(k) for k in ("players", "games_per_pairing", "results"))
        if not isinstance(game, str):
            raise _bad(path, "\"game\" should be a game's name")
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= 16:
            raise _bad(path, "\"seats\" should be a whole number of seats")
        if not isinstance(options, dict):
            raise _bad(path, "\"options\" should be an object")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
            raise _bad(path, "\"seed\" should be a whole number 0 to 2**64 - 1")
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise _bad(path, "\"players\" should be a list of agent specs")
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise _bad(path, "\"games_per_pairing\" should be a whole number >= 1")
        if not isinstance(results, list):
            raise _bad(path, "\"results\" should be a list of games")
        recs: list[Played] = []
        seen: set = set()
        for n, r in enumerate(results):
            where = f"game {n} of \"results\""
            if not isinstance(r, dict):
                raise _bad(path, f"{where} is not an object")
            ps, idx, st = r.get("players"), r.get("index"), r.get("seats")
            if not isinstance(ps, list) or not 1 <= len(ps) <= 2 or \
                    not all(isinstance(p, str) for p in ps) or ps != sorted(set(ps)):
                raise _bad(path, f"{where}: \"players\" should be one spec or two in sorted order")
            if isinstance(idx, bool) or not isinstance(idx, int) or idx < 0:
                raise _bad(path, f"{where}: \"index\" should be a whole number >= 0")
            if not isinstance(st, list) or len(st) != seats or not all(s in ps for s in st):
                raise _bad(path, f"{where}: \"seats\" should name one of its players in each of "
                                 f"{seats} seats")
            if not _numbers(r.get("returns"), seats) or not _numbers(r.get("scores"), seats):
                raise _bad(path, f"{where}: \"returns\" and \"scores\" should be {seats} numbers")
            moves, think = r.get("moves"), r.get("think")
            if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
                raise _bad(path, f"{where}: \"moves\" should be a whole number")
            if not _thinks(think, seats):
                raise _bad(path, f"{where}: \"think\" should be [seconds, decisions, simulations] "
                                 "for each seat")
            rec = Played(tuple(ps), idx, tuple(st), tuple(float(x) for x in r["returns"]),
                         tuple(float(x) for x in r["scores"]), moves,
                         tuple((float(t[0]), int(t[1]), int(t[2])) for t in think))
            if rec.key in seen:
                raise _bad(path, f"{where} is listed twice (game {idx} of {' v '.join(ps)})")
            seen.add(rec.key)
            recs.append(rec)
        pairings = data.get("pairings")
        if pairings is not None:
            if not isinstance(pairings, list) or not all(
                    isinstance(x, list) and len(x) == 2 and all(isinstance(p, str) for p in x)
                    and x[0] < x[1] and x[0] in players and x[1] in players for x in pairings):
                raise _bad(path, "\"pairings\" should list pairs of its players, each in sorted order")
            pairings = [tuple(x) for x in pairings]
        sessions = data.get("sessions", [])
        if not isinstance(sessions, list) or not all(
                isinstance(x, dict) and (x.get("commit") is None or isinstance(x.get("commit"), str))
                and isinstance(x.get("games", 0), int) for x in sessions):
            raise _bad(path, "\"sessions\" should be a list of {\"commit\", \"games\", ...} objects")
        return {"game": game, "seats": seats, "options": options, "seed": seed,
                "players": players, "games": games, "results": recs, "sessions": sessions,
                "pairings": pairings}


def run_ladder(game: str, players: Sequence[str] | str | None = None, games: int | None = None, *,
               seats: int | None = None, seed: int | None = None, workers: int | None = 1,
               backend: str = "local", address: str | None = None,
               progress: Callable[[int], None] | None = None, resume: str | Path | None = None,
               save: str | Path | None = None, prior: float = 1.0, bootstraps: int = 1000,
               against: Sequence[str] | str | None = None, **options: Any) -> LadderTable:
    """Build a :class:`Ladder`, play its missing games and return its table
    (saved with the games to ``save``, if given)."""
    lad = Ladder(game, players, games, seats=seats, seed=seed, resume=resume, against=against,
                 **options)
    lad.play(workers=workers, backend=backend, address=address, progress=progress, save=save)
    table = lad.table(prior=prior, bootstraps=bootstraps)
    if save is not None:
        lad.save(save, table)
    return table


# ------------------------------------------------------- the docs' tables
def load_ladder(path: str | Path) -> tuple[Ladder, LadderTable]:
    """A saved ladder and its table, computed anew from the games in the
    file (the fit and the bootstrap follow the file's seed, so the same file
    gives the same table). One-line SolversError for a bad file."""
    saved = Ladder._read(path)
    ladder = Ladder(saved["game"], resume=path)
    return ladder, ladder.table()


def _signed(x: float) -> str:
    return f"{x:+.0f}" if round(x) != 0 else "0"


def ladder_markdown(table: LadderTable, source: str = "ladder.json",
                    sessions: Sequence[dict[str, Any]] = (), file_games: int | None = None) -> str:
    """``table`` as a Markdown table for the docs, with a line naming the
    file it comes from, the commits that played it (``sessions``, as
    :attr:`Ladder.sessions`) and its settings (how
    docs/benchmarks/strength.md's ladders are kept, through ``solve bench
    table --update``); ``file_games`` is how many games the file holds
    (default: the table's)."""
    if file_games is None:
        file_games = sum(p["games"] for p in table.pairs)
    options = ", ".join(f"{k}={v}" for k, v in sorted(table.options.items()))
    lines = [f"<sub>From ladder `{Path(source).name}`: {table.game}, {table.seats} seats, "
             f"{table.games} games a pairing (seats rotated), seed {table.seed}"
             f"{', ' + options if options else ''}; Elo scale by maximum likelihood, "
             f"{table.anchor} at 0, 95% intervals from {table.bootstraps} bootstrap resamples "
             f"over games; {sessions_text(sessions, file_games)}.</sub>",
             "",
             "| player | measures | rating | 95% interval | score | games | ms a move | "
             "simulations a move |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in table.rows:
        sims = f"{r.simulations_per_move:,.0f}" if r.simulations_per_move else ""
        lines.append(f"| `{r.spec}` | {r.measures} | {_signed(r.rating)} | "
                     f"{_signed(r.ci95[0])} to {_signed(r.ci95[1])} | {r.score:.0%} | {r.games} | "
                     f"{_ms(r.seconds_per_move)} | {sims} |")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------ the plot
def plot_group(spec: str) -> str:
    """The line of the plot a player joins: its kind and options, less its
    budget, the options as written (sorted).

    >>> plot_group("mcts:threads=1,model=none,time=0.2")
    'mcts:model=none,threads=1'
    >>> plot_group("mcts:iterations=100"), plot_group("greedy")
    ('mcts', 'greedy')
    """
    from .agents import parse_agent_spec

    kind, _ = parse_agent_spec(spec)           # checks the spec; values as written below
    _, _, text = spec.partition(":")
    rest = sorted(piece.strip() for piece in text.split(",") if piece.strip() and
                  piece.split("=", 1)[0].strip() not in ("time", *SIMULATION_OPTIONS))
    return kind + (":" + ",".join(rest) if rest else "")


def plot_ladder(table: LadderTable, path: str | Path) -> None:
    """Rating against measured seconds a move (log scale), with the 95%
    intervals; players of one kind are joined by a line (``.[plot]``)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib.figure import Figure
    except ImportError:
        raise SolversError('the plot needs matplotlib: pip install ".[plot]"') from None
    fig = Figure(figsize=(7, 4.5))
    ax = fig.add_subplot()
    groups: dict[str, list[PlayerRow]] = {}
    for r in table.rows:
        groups.setdefault(plot_group(r.spec), []).append(r)
    floor = min([r.seconds_per_move for r in table.rows if r.seconds_per_move > 0] or [1e-4]) / 2
    for label, rows in groups.items():
        rows = sorted(rows, key=lambda r: r.seconds_per_move)
        x = [max(r.seconds_per_move, floor) for r in rows]
        y = [r.rating for r in rows]
        err = [[max(0.0, r.rating - r.ci95[0]) for r in rows], [max(0.0, r.ci95[1] - r.rating)
                                                               for r in rows]]
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=label,
                    linestyle="-" if len(rows) > 1 else "none")
    ax.set_xscale("log")
    ax.set_xlabel("measured seconds a move")
    ax.set_ylabel(f"rating (Elo, {table.anchor} = 0)")
    ax.set_title(f"{table.game}, {table.seats} seat{'s' if table.seats != 1 else ''}, "
                 f"{table.games} games a pairing, 95% intervals")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as e:
        raise SolversError(f"cannot write the plot {path}: {e}") from None


__all__ = ["Ladder", "LadderTable", "PlayerRow", "Played", "run_ladder", "load_ladder", "ladder_markdown",
           "fit_ratings",
           "default_players", "timed_players", "describe_budget", "plot_ladder",
           "play_ladder_game", "DEFAULT_TIMES"]
