"""Tournaments: agents play many games of one game, seats rotated, and the
results come back with 95% intervals.

>>> from solvers.tournament import run_tournament
>>> r = run_tournament("switchbacks", ["greedy", "random"], games=4, seed=1)
>>> [a.spec for a in r.agents], r.games
(['greedy', 'random'], 4)
>>> sum(a.wins for a in r.agents)      # every game hands out one win
4.0

How a tournament is laid out (``k`` agents, ``P`` seats, ``N`` games):

* **Several seats** (``P >= 2``, ``2 <= k <= P``): game ``g`` seats agent
  ``(s + g) mod k`` in seat ``s``, so every agent plays every seat equally
  often. The deals come in blocks of ``k`` games: the ``k`` rotations of one
  block share a deal (the same shuffle), which removes much of the luck of
  the draw from the comparison. When ``k < P`` an agent fills several seats
  of a game; its result is the sum of those seats' win shares and its score
  their mean.
* **One seat** (``P == 1``, e.g. a Coast to Coast solo challenge): each agent
  plays every one of the ``N`` deals alone (the same deals for every
  agent). A game counts as a **win** when its return is above 0: the
  challenge was completed, or, without a challenge card, anything was
  scored at all.

A win is the game's return (its win share): 1 for a sole winner, ``1/m``
for a first place shared by ``m`` seats, so a shared win of two counts as
a half. ``win_rate`` is wins / games with the Wilson interval
(:func:`solvers.stats.wilson_interval`); ``mean_score`` is the mean of the
score sheet's points with a normal 95% interval.

Every random choice flows from ``seed``: the deals, and each agent's own
seed in each game (an agent spec's ``seed=`` option replaces the
tournament seed for that agent's stream). With an iteration budget (not a
time budget) a tournament replays exactly, whatever ``workers``.

A long tournament can be saved as its games finish (``save=``, a JSON
file of format ``solvers-tournament``) and resumed later
(:func:`resume_tournament`): only the games the file lacks are played,
each exactly as the uninterrupted tournament would have played it (the
file keeps every game's deal and agent seeds and is checked against the
plan), so a match of many hours may be spread over several sittings.
"""

from __future__ import annotations

import json
import time as _time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from .errors import SolversError
from .limits import check_seed
from .rng import SplitMix64, seed_from
from .stats import mean_interval, wilson_interval

MASK64 = (1 << 64) - 1
FORMAT = "solvers-tournament"
VERSION = 1


# ------------------------------------------------------------ agent lists
def split_agent_list(text: str) -> list[str]:
    """Split a comma-separated list of agent specs into specs.

    Agent options are separated by commas too, so the rule is: a piece
    **with** ``=`` that does not start ``kind:`` continues the agent before
    it (it is one of its options); any other piece starts a new agent.

    >>> split_agent_list("mcts:time=1,c=2,greedy,random")
    ['mcts:time=1,c=2', 'greedy', 'random']
    >>> split_agent_list("mcts:iterations=200,rollout=random,mcts:iterations=50")
    ['mcts:iterations=200,rollout=random', 'mcts:iterations=50']
    """
    if not isinstance(text, str) or not text.strip():
        raise SolversError("give the agents as a list such as 'mcts:time=1,greedy'")
    specs: list[str] = []
    for raw in text.split(","):
        piece = raw.strip()
        if not piece:
            continue
        head = piece.partition(":")[0]
        is_option = "=" in piece and ("=" in head or ":" not in piece)
        if is_option:
            if not specs:
                raise SolversError(f"agent option {piece!r} comes before any agent")
            sep = "," if ":" in specs[-1] else ":"
            specs[-1] += sep + piece
        else:
            specs.append(piece)
    if not specs:
        raise SolversError("give the agents as a list such as 'mcts:time=1,greedy'")
    return specs


# ------------------------------------------------------------ results
@dataclass
class AgentResult:
    """One agent's record over a tournament."""

    spec: str
    games: int
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    score_ci95: tuple[float, float]
    seat_wins: list[float] = field(default_factory=list)   # wins per seat played
    seat_games: list[int] = field(default_factory=list)
    #: its decisions (forced moves are not asked), and the mean seconds and
    #: simulations of one, over the games that metered them
    decisions: int = 0
    seconds_per_move: float | None = None
    simulations_per_move: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec, "games": self.games, "wins": self.wins,
            "win_rate": self.win_rate, "ci95": list(self.ci95),
            "mean_score": self.mean_score, "score_ci95": list(self.score_ci95),
            "seat_wins": self.seat_wins, "seat_games": self.seat_games,
            "decisions": self.decisions,
            "seconds_per_move": None if self.seconds_per_move is None else round(self.seconds_per_move, 6),
            "simulations_per_move": None if self.simulations_per_move is None
            else round(self.simulations_per_move, 1),
        }


@dataclass
class TournamentResult:
    """What :func:`run_tournament` returns; ``to_json()`` for the CLI."""

    game: str
    players: int
    games: int
    seed: int
    agents: list[AgentResult]
    draws: int          # games whose first place was shared
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
            "agents": [a.to_json() for a in self.agents], "shared_wins": self.draws,
            "seconds": round(self.seconds, 3),
        }


# ------------------------------------------------------------ one game
@dataclass(frozen=True)
class GameJob:
    """Everything a worker needs to play one game (picklable)."""

    index: int
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    deal_seed: int
    seating: tuple[int, ...]           # seat -> agent index
    specs: tuple[str, ...]
    agent_seeds: tuple[int, ...]       # one per seat
    threads: int = 0                   # the search threads a game may take (0: no limit set)


@dataclass(frozen=True)
class GameRecord:
    index: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    moves: int
    #: per seat ``(seconds, decisions, simulations)`` of its agent's thinking
    #: (None in a file saved before tournaments kept it)
    think: tuple[tuple[float, int, int], ...] | None = None


_GAME_CACHE: dict[tuple, Any] = {}


def _game_for(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Any:
    from . import load_game

    key = (name, players, options)
    if key not in _GAME_CACHE:
        _GAME_CACHE[key] = load_game(name, players=players, **dict(options))
    return _GAME_CACHE[key]


def _make_agent(spec: str, game: Any, seed: int) -> Any:
    from .agents import load_agent, parse_agent_spec

    kind, options = parse_agent_spec(spec)
    if kind == "openspiel":                 # registered by the optional interop module
        try:
            import solvers.interop.openspiel  # noqa: F401
        except ImportError:
            raise SolversError("the 'openspiel' agent needs OpenSpiel: "
                               "pip install \".[openspiel]\"") from None
    options["seed"] = seed
    return load_agent(kind, game, **options)


def _visits(rows: Any) -> int:
    try:
        return int(sum(int(r.get("visits", 0)) for r in rows))
    except (TypeError, AttributeError, ValueError):
        return 0


class ThinkMeter:
    """Wraps an agent to count its decisions, thinking time and simulations
    (the root visits of its rankings, or its ``last_simulations`` after a
    step): what a strength claim names besides the time a move."""

    def __init__(self, agent: Any):
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0
        self.simulations = 0
        self._seen = 0
        inner = agent._analyse

        def analyse(view: Any) -> Any:
            rows = inner(view)
            self._seen += _visits(rows)
            return rows

        agent._analyse = analyse          # the instance's own: step() still sees only the view

    def step(self, state: Any) -> int:
        self._seen = 0
        start = _time.perf_counter()
        action = self.agent.step(state)
        self.seconds += _time.perf_counter() - start
        self.decisions += 1
        last = getattr(self.agent, "last_simulations", None)
        self.simulations += int(last) if isinstance(last, int) and not self._seen else self._seen
        return action

    @property
    def think(self) -> tuple[float, int, int]:
        """``(seconds, decisions, simulations)`` so far."""
        return (self.seconds, self.decisions, self.simulations)


def play_game(job: GameJob) -> GameRecord:
    """Play one game of a tournament: chance follows the deal seed, each seat
    its agent, whose thinking is metered (:class:`ThinkMeter`)."""
    state, moves, meters = run_game(job, wrap=ThinkMeter)
    return GameRecord(job.index, job.seating, tuple(float(x) for x in state.returns()),
                      tuple(float(x) for x in state.scores()), moves,
                      tuple(m.think for m in meters))


def run_game(job: GameJob, wrap: Callable[[Any], Any] | None = None) -> tuple[Any, int, list[Any]]:
    """Play ``job``'s game to its end: ``(final state, moves, the seats'
    agents)``. ``wrap`` (if given) wraps each seat's agent before play (the
    ladder's think-time meter); a forced move is played without asking."""
    from .search.mcts import _ALLOWANCE, set_thread_allowance

    # The seats take turns, so each game's searches may use its share of the
    # cores; the allowance is put back after the game (this may be the caller's process).
    before = _ALLOWANCE
    if job.threads:
        set_thread_allowance(job.threads)
    try:
        game = _game_for(job.game, job.players, job.options)
        agents = [_make_agent(job.specs[a], game, job.agent_seeds[s]) for s, a in enumerate(job.seating)]
        if wrap is not None:
            agents = [wrap(agent) for agent in agents]
        state = game.new_initial_state(seed=job.deal_seed)
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            action = legal[0] if len(legal) == 1 else agents[seat].step(state)
            state.apply_action(action)
            moves += 1
        return state, moves, agents
    finally:
        set_thread_allowance(before)


# ------------------------------------------------------------ the tournament
def _check_specs(game: Any, specs: list[str]) -> None:
    """Fail early, in this process, on a bad agent spec."""
    for spec in specs:
        _make_agent(spec, game, 0).check_match()


def plan_games(game: str, players: int, specs: list[str], games: int, seed: int,
               options: tuple[tuple[str, Any], ...] = ()) -> list[GameJob]:
    """The games of a tournament, in order (see the module docstring)."""
    from .agents import parse_agent_spec

    k = len(specs)
    base = SplitMix64(seed_from(seed))
    spec_seeds: list[int | None] = []
    for spec in specs:
        own = parse_agent_spec(spec)[1].get("seed")
        spec_seeds.append(None if own is None else check_seed("seed", own))
    jobs: list[GameJob] = []
    if players == 1:
        deals = [base.next() for _ in range(games)]
        for g in range(games):
            for a in range(k):
                own = spec_seeds[a]
                stream = base.next() if own is None else SplitMix64((own + g) & MASK64).next()
                jobs.append(GameJob(len(jobs), game, players, options, deals[g], (a,), tuple(specs),
                                    (stream,)))
        return jobs
    deal = 0
    for g in range(games):
        if g % k == 0:
            deal = base.next()
        seating = tuple((s + g) % k for s in range(players))
        seeds = []
        for s, a in enumerate(seating):
            fresh, own = base.next(), spec_seeds[a]
            seeds.append(fresh if own is None else
                         SplitMix64((own + g * players + s) & MASK64).next())
        jobs.append(GameJob(g, game, players, options, deal, seating, tuple(specs), tuple(seeds)))
    return jobs


def run_tournament(game: str, agents: Iterable[str], games: int, *, players: int | None = None,
                   seed: int | None = 0, workers: int | None = 1,
                   progress: Callable[[int], None] | None = None,
                   backend: str = "local", address: str | None = None,
                   save: str | Path | None = None, resume: SavedTournament | None = None,
                   **game_options: Any) -> TournamentResult:
    """Play ``games`` games of ``game`` between ``agents`` (agent specs such
    as ``"mcts:time=1"``), seats rotated; see the module docstring.

    ``players`` defaults to the game's own default (1 for Coast to Coast, 2
    for Switchbacks), raised to the number of agents for a game of several
    seats when more agents are given. ``workers`` games are played side by
    side on ``backend`` (``local`` processes, or ``ray`` at ``address``:
    :func:`solvers.parallel.run_jobs`).
    ``progress(n)`` is called as games finish. Other keywords go to
    :func:`solvers.load_game` (``challenge=`` for Coast to Coast).

    ``save`` names a tournament file written as games finish (at most every
    two seconds, and at the end, even when interrupted); ``resume`` is a
    :class:`SavedTournament` whose games are kept and not played again
    (:func:`resume_tournament` reads one and passes its settings).
    """
    from . import canonical_game_name, load_game

    name = canonical_game_name(game)
    specs = [s.strip() for s in agents] if not isinstance(agents, str) else split_agent_list(agents)
    if not specs or not all(specs):
        raise SolversError("a tournament needs at least one agent")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SolversError(f"the number of games should be a whole number >= 1, not {games!r}")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise SolversError(f"workers should be a whole number >= 1, not {workers!r}")
    if players is None:
        players = load_game(name, **game_options).num_players
        if players >= 2 and len(specs) > players:
            players = len(specs)
    g = load_game(name, players=players, **game_options)   # validates players and options
    players = g.num_players
    if players >= 2 and not 2 <= len(specs) <= players:
        want = "2 agents" if players == 2 else f"2 to {players} agents"
        given = "1 agent was" if len(specs) == 1 else f"{len(specs)} agents were"
        raise SolversError(f"a {players}-player tournament takes {want}, but {given} given")
    _check_specs(g, specs)
    seed = seed_from(None if seed is None else check_seed("seed", seed))
    options = tuple(sorted(game_options.items()))
    jobs = plan_games(name, players, specs, games, seed, options)
    kept: dict[int, GameRecord] = {}
    if resume is not None:
        kept = resume.check_plan(name, players, specs, seed, dict(options), games, jobs)
    if save is not None:
        from .files import check_output_path

        check_output_path(save, "--save")
        try:
            json.dumps(dict(options))
        except (TypeError, ValueError):
            raise SolversError("a saved tournament's game options must be plain values (text, "
                               "numbers)") from None
    from .benchtrack import RunLog

    log = RunLog(resume.sessions if resume is not None else None)
    # Games side by side share the cores: never more search threads than cores.
    from dataclasses import replace

    from .parallel import default_workers
    from .search.mcts import thread_allowance

    todo = [job for job in jobs if job.index not in kept]
    side_by_side = max(1, min(len(todo), workers or default_workers()))
    share = 1 if backend == "ray" else max(1, thread_allowance() // side_by_side)
    todo = [replace(job, threads=share) for job in todo]
    start = _time.perf_counter()
    records = list(kept.values())
    from .parallel import run_jobs_saving

    def write() -> None:
        assert save is not None
        runs = log.runs("games", len(records) - len(kept))
        result = summarise(name, players, games, seed, specs, sorted(records, key=lambda r: r.index),
                           _time.perf_counter() - start)
        _write_file(save, name, players, dict(options), seed, specs, games, jobs, records, runs,
                    result)

    run_jobs_saving(play_game, todo, lambda _, rec: records.append(rec),
                    None if save is None else write, progress=progress, workers=workers,
                    backend=backend, address=address)
    records.sort(key=lambda r: r.index)
    return summarise(name, players, games, seed, specs, records, _time.perf_counter() - start)


# ------------------------------------------------------------ saved tournaments
def _write_file(path: str | Path, game: str, players: int, options: dict[str, Any], seed: int,
                specs: list[str], games: int, jobs: list[GameJob], records: list[GameRecord],
                sessions: list[dict[str, Any]], result: TournamentResult) -> None:
    from .files import write_atomic

    rows = []
    for rec in sorted(records, key=lambda r: r.index):
        job = jobs[rec.index]
        rows.append({"index": rec.index, "seating": list(rec.seating), "returns": list(rec.returns),
                     "scores": list(rec.scores), "moves": rec.moves, "deal": job.deal_seed,
                     "agent_seeds": list(job.agent_seeds)})
        if rec.think is not None:
            rows[-1]["think"] = [[round(t[0], 6), t[1], t[2]] for t in rec.think]
    data = {"format": FORMAT, "version": VERSION, "game": game, "players": players,
            "options": options, "seed": seed, "agents": specs, "games": games,
            "records": rows, "sessions": sessions, "result": result.to_json()}
    write_atomic(path, json.dumps(data, indent=1) + "\n", "tournament file")


@dataclass
class SavedTournament:
    """A tournament file (``solve tournament --save``): the settings, the
    games played so far with each one's deal and agent seeds, and the runs
    that played them (``sessions``: commit, version, date, games)."""

    path: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    specs: list[str]
    games: int
    records: list[GameRecord]
    seeds: dict[int, tuple[int, tuple[int, ...]]]      # index -> (deal, agent seeds)
    sessions: list[dict[str, Any]]

    def _bad(self, why: str) -> SolversError:
        return SolversError(f"{self.path}: {why}")

    def check_plan(self, game: str, players: int, specs: list[str], seed: int,
                   options: dict[str, Any], games: int, jobs: list[GameJob]) -> dict[int, GameRecord]:
        """The file's games by index, once each is found to be the game the
        plan ``jobs`` would play; SolversError naming what differs."""
        if game != self.game:
            raise self._bad(f"this tournament is of {self.game}, not {game}")
        if players != self.players:
            raise self._bad(f"this tournament has {self.players} seats a game, not {players}")
        if specs != self.specs:
            raise self._bad(f"this tournament's agents are {', '.join(self.specs)}, not "
                            f"{', '.join(specs)}")
        if seed != self.seed:
            raise self._bad(f"this tournament has seed {self.seed}, not {seed}")
        if options != self.options:
            raise self._bad(f"this tournament has the game options {self.options or 'none'}, "
                            f"not {options or 'none'}")
        size = len(jobs)
        kept: dict[int, GameRecord] = {}
        for rec in self.records:
            if rec.index >= size:
                raise self._bad(f"it holds {self.games} games; ask for at least that many, not "
                                f"{games}")
            job = jobs[rec.index]
            if (job.deal_seed, job.agent_seeds) != self.seeds[rec.index] or job.seating != rec.seating:
                if players == 1 and games != self.games:
                    raise self._bad(f"a 1-player tournament draws all its deals at once, so it "
                                    f"can be finished but not extended: ask for {self.games} games")
                raise self._bad(f"game {rec.index} is not the game this library plans for it "
                                "(a file of another version?)")
            kept[rec.index] = rec
        return kept


def _whole(x: Any, low: int = 0, high: int | None = None) -> TypeGuard[int]:
    return (isinstance(x, int) and not isinstance(x, bool) and x >= low
            and (high is None or x <= high))


def _numbers(x: Any, size: int) -> bool:
    """``x`` is a list of ``size`` finite numbers (a saved game's returns, scores, think)."""
    import math

    return isinstance(x, list) and len(x) == size and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in x)


def _thinks(x: Any, seats: int) -> TypeGuard[list[Any]]:
    """``x`` is ``[seconds, decisions, simulations]`` for each of ``seats``
    seats (a saved game's ``think``, in a tournament or a ladder file)."""
    return isinstance(x, list) and len(x) == seats and all(
        _numbers(t, 3) and t[0] >= 0 and _whole(t[1]) and _whole(t[2]) for t in x)


def load_tournament(path: str | Path) -> SavedTournament:
    """Read a tournament file written by ``save=`` (``solve tournament
    --save``); SolversError, naming the file and the field, for anything
    that is not one."""
    from . import canonical_game_name
    from .files import read_saved_json

    where = str(path)

    def bad(why: str) -> SolversError:
        return SolversError(f"{where}: not a tournament file: {why}")

    data = read_saved_json(path, "tournament file", FORMAT, VERSION, limit=64 * 1024 * 1024)
    game, players, options, seed = (data.get(k) for k in ("game", "players", "options", "seed"))
    specs, games, rows, sessions = (data.get(k) for k in ("agents", "games", "records", "sessions"))
    if not isinstance(game, str):
        raise bad("\"game\" should be a game's name")
    game = canonical_game_name(game)
    if not _whole(players, 1, 4):
        raise bad("\"players\" should be 1 to 4 seats")
    if not isinstance(options, dict):
        raise bad("\"options\" should be an object")
    if not _whole(seed, 0, MASK64):
        raise bad("\"seed\" should be a whole number 0 to 2**64 - 1")
    if not isinstance(specs, list) or not specs or not all(isinstance(x, str) and x for x in specs):
        raise bad("\"agents\" should be a list of agent specs")
    if not _whole(games, 1, 100_000):
        raise bad("\"games\" should be a whole number 1 to 100,000")
    if not isinstance(rows, list):
        raise bad("\"records\" should be a list of games")
    if sessions is None:
        sessions = []
    if not isinstance(sessions, list) or not all(
            isinstance(x, dict) and (x.get("commit") is None or isinstance(x.get("commit"), str))
            and _whole(x.get("games", 0)) for x in sessions):
        raise bad("\"sessions\" should be a list of {\"commit\", \"games\", ...} objects")
    size = int(games) * len(specs) if players == 1 else int(games)
    records: list[GameRecord] = []
    seeds: dict[int, tuple[int, tuple[int, ...]]] = {}
    r: Any
    for n, r in enumerate(rows):
        at = f"game {n} of \"records\""
        if not isinstance(r, dict):
            raise bad(f"{at} is not an object")
        index, seating, moves = r.get("index"), r.get("seating"), r.get("moves")
        deal, agent_seeds = r.get("deal"), r.get("agent_seeds")
        if not _whole(index, 0, size - 1):
            raise bad(f"{at}: \"index\" should be 0 to {size - 1}")
        if index in seeds:
            raise bad(f"{at}: game {index} is listed twice")
        if not isinstance(seating, list) or len(seating) != players or \
                not all(_whole(a, 0, len(specs) - 1) for a in seating):
            raise bad(f"{at}: \"seating\" should give an agent's number for each of "
                      f"{players} seats")
        if not _numbers(r.get("returns"), players) or not _numbers(r.get("scores"), players):
            raise bad(f"{at}: \"returns\" and \"scores\" should be {players} numbers")
        if not _whole(moves):
            raise bad(f"{at}: \"moves\" should be a whole number")
        if not _whole(deal, 0, MASK64) or not isinstance(agent_seeds, list) or \
                len(agent_seeds) != players or not all(_whole(x, 0, MASK64) for x in agent_seeds):
            raise bad(f"{at}: \"deal\" and \"agent_seeds\" should be 64-bit seeds")
        think = r.get("think")
        if think is not None and not _thinks(think, players):
            raise bad(f"{at}: \"think\" should be [seconds, decisions, simulations] for each seat")
        records.append(GameRecord(int(index), tuple(seating), tuple(float(x) for x in r["returns"]),
                                  tuple(float(x) for x in r["scores"]), int(moves),
                                  None if think is None else
                                  tuple((float(t[0]), int(t[1]), int(t[2])) for t in think)))
        seeds[int(index)] = (int(deal), tuple(int(x) for x in agent_seeds))
    return SavedTournament(where, game, int(players), dict(options), int(seed), list(specs),
                           int(games), records, seeds, list(sessions))


def resume_tournament(path: str | Path, games: int | None = None, *, workers: int | None = 1,
                      progress: Callable[[int], None] | None = None, backend: str = "local",
                      address: str | None = None, save: str | Path | None = None
                      ) -> TournamentResult:
    """Play the games a tournament file lacks (its own number of games, or
    ``games`` when more) and save them back to it (or to ``save``).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.json")
    >>> _ = run_tournament("switchbacks", ["greedy", "random"], games=2, seed=1, save=path)
    >>> r = resume_tournament(path, games=4)          # two more games
    >>> r.games, sum(a.wins for a in r.agents)
    (4, 4.0)
    """
    saved = load_tournament(path)
    return run_tournament(saved.game, saved.specs, saved.games if games is None else games,
                          players=saved.players, seed=saved.seed, workers=workers,
                          progress=progress, backend=backend, address=address,
                          save=path if save is None else save, resume=saved, **saved.options)


def sessions_text(sessions: Sequence[dict[str, Any]], games: int) -> str:
    """Which commits played a ladder or tournament file's ``games``: "played at commit
    1a2b3c4d5e6f (120 games), 9f8e7d6c5b4a with uncommitted changes (40)".
    Consecutive runs of an installed copy (no commit) of one version are
    one entry: "an installed solvers 0.1.0 (200 games in 6 runs, ...)"."""
    named, told = [], 0
    runs: list[list[Any]] = []          # [who, games, first date, last date, runs]
    for x in sessions:
        sha = x.get("commit")
        who = (f"`{sha[:12]}`" if sha else f"an installed solvers {x.get('version', '?')}") + \
            (" with uncommitted changes" if x.get("dirty") else "")
        games_here, date = int(x.get("games", 0)), str(x.get("date", ""))[:10]
        told += games_here
        if not sha and runs and runs[-1][0] == who:
            # Runs of an installed copy carry nothing to tell them apart: one entry.
            runs[-1][1] += games_here
            runs[-1][3] = date
            runs[-1][4] += 1
        else:
            runs.append([who, games_here, date, date, 1])
    for who, n, first, last, count in runs:
        when = first if first == last else f"{first} to {last}"
        named.append(f"{who} ({n} games{f' in {count} runs' if count > 1 else ''}, {when})")
    if told < games:
        named.insert(0, f"an unrecorded commit ({games - told} games, before the file kept them)")
    return "played at " + ", ".join(named)


def _ms(seconds: float) -> str:
    """Milliseconds for a docs table: three figures, whole ones from 100 on
    with thousands marked (1,420 rather than 1.42e+03)."""
    ms = seconds * 1000
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.3g}"


def tournament_markdown(saved: SavedTournament, source: str = "tournament.json") -> str:
    """A saved tournament (:func:`load_tournament`) as a Markdown table for
    the docs, with a line naming the file, its settings and the commits
    that played it; how docs/benchmarks/strength.md keeps its long matches
    (``<!-- bench-table tournament FILE -->``, ``solve bench table
    --update``). With three or four seats two columns say each agent's
    wins as a multiple of its fair share (one game in ``players``)."""
    r = summarise(saved.game, saved.players, saved.games, saved.seed, saved.specs,
                  saved.records, 0.0)
    options = ", ".join(f"{k}={v}" for k, v in sorted(saved.options.items()))
    k = len(saved.specs)
    # A solo tournament's games are deals, each played once by every agent.
    played = len(saved.records) if saved.players > 1 else len({g.index // k for g in saved.records})
    unit = "games" if saved.players > 1 else "deals"
    count = f"{played} {unit}" if played == saved.games else f"{played} of {saved.games} {unit}"
    shared = f", {r.draws} with a shared first place" if r.draws else ""
    head = ["agent", "games", "wins", "win share", "95% interval"]
    head += ["x fair share", "its 95% interval"] if saved.players > 2 else []
    head += ["mean points", "ms a move", "simulations a move"]
    lines = [f"<sub>From tournament `{Path(source).name}`: {saved.game}, {saved.players} "
             f"seat{'s' if saved.players != 1 else ''}, {count}{shared} "
             f"({'seats rotated' if saved.players > 1 else 'each played by every agent'}), "
             f"seed {saved.seed}{', ' + options if options else ''}; 95% Wilson intervals; "
             f"{sessions_text(saved.sessions, len(saved.records))}.</sub>",
             "", "| " + " | ".join(head) + " |",
             "| --- | " + " | ".join("---:" if h not in ("95% interval", "its 95% interval")
                                    else "---" for h in head[1:]) + " |"]
    for a in r.agents:
        cells = [f"`{a.spec}`", str(a.games), f"{a.wins:g}", f"{a.win_rate:.1%}",
                 f"{a.ci95[0]:.1%}-{a.ci95[1]:.1%}"]
        if saved.players > 2:
            p = saved.players
            cells += [f"{a.win_rate * p:.2f}", f"{a.ci95[0] * p:.2f}-{a.ci95[1] * p:.2f}"]
        cells += [f"{a.mean_score:.1f}",
                  "" if a.seconds_per_move is None else _ms(a.seconds_per_move),
                  "" if a.simulations_per_move is None else f"{a.simulations_per_move:,.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def summarise(game: str, players: int, games: int, seed: int, specs: list[str],
              records: list[GameRecord], seconds: float) -> TournamentResult:
    """Turn game records into per-agent win rates and mean scores."""
    k = len(specs)
    wins = [0.0] * k
    played = [0] * k
    scores: list[list[float]] = [[] for _ in range(k)]
    seat_wins = [[0.0] * players for _ in range(k)]
    seat_games = [[0] * players for _ in range(k)]
    thought = [[0.0, 0, 0] for _ in range(k)]          # seconds, decisions, simulations
    draws = 0
    for rec in records:
        for s, t in enumerate(rec.think or ()):
            a = rec.seating[s]
            thought[a][0] += t[0]
            thought[a][1] += t[1]
            thought[a][2] += t[2]
        if players == 1:
            a = rec.seating[0]
            won = 1.0 if rec.returns[0] > 0 else 0.0
            wins[a] += won
            played[a] += 1
            scores[a].append(rec.scores[0])
            seat_wins[a][0] += won
            seat_games[a][0] += 1
            continue
        if sum(1 for x in rec.returns if x > 0) > 1:
            draws += 1
        share = [0.0] * k
        own: list[list[float]] = [[] for _ in range(k)]
        for s, a in enumerate(rec.seating):
            share[a] += rec.returns[s]
            own[a].append(rec.scores[s])
            seat_wins[a][s] += rec.returns[s]
            seat_games[a][s] += 1
        for a in set(rec.seating):
            wins[a] += min(1.0, share[a])
            played[a] += 1
            scores[a].append(sum(own[a]) / len(own[a]))
    results = []
    for a, spec in enumerate(specs):
        n = played[a]
        mean, lo, hi = mean_interval(scores[a])
        secs, decided, sims = thought[a]
        results.append(AgentResult(
            spec=spec, games=n, wins=wins[a], win_rate=wins[a] / n if n else 0.0,
            ci95=wilson_interval(wins[a], n), mean_score=mean, score_ci95=(lo, hi),
            seat_wins=seat_wins[a], seat_games=seat_games[a], decisions=int(decided),
            seconds_per_move=secs / decided if decided else None,
            simulations_per_move=sims / decided if decided else None,
        ))
    return TournamentResult(game, players, games, seed, results, draws, seconds)


__all__ = ["run_tournament", "resume_tournament", "ThinkMeter", "load_tournament", "SavedTournament",
           "tournament_markdown", "sessions_text",
           "split_agent_list", "plan_games", "play_game", "summarise",
           "TournamentResult", "AgentResult", "GameJob", "GameRecord", "mean_interval"]
