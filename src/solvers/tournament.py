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
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import SolversError
from .limits import check_seed
from .rng import SplitMix64, seed_from
from .stats import mean_interval, wilson_interval

MASK64 = (1 << 64) - 1


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

    def to_json(self) -> dict[str, Any]:
        return {
            "spec": self.spec, "games": self.games, "wins": self.wins,
            "win_rate": self.win_rate, "ci95": list(self.ci95),
            "mean_score": self.mean_score, "score_ci95": list(self.score_ci95),
            "seat_wins": self.seat_wins, "seat_games": self.seat_games,
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


def play_game(job: GameJob) -> GameRecord:
    """Play one game of a tournament: chance follows the deal seed, each seat
    its agent."""
    state, moves, _ = run_game(job)
    return GameRecord(job.index, job.seating, tuple(float(x) for x in state.returns()),
                      tuple(float(x) for x in state.scores()), moves)


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
    # Games side by side share the cores: never more search threads than cores.
    from dataclasses import replace

    from .parallel import default_workers
    from .search.mcts import thread_allowance

    side_by_side = min(len(jobs), workers or default_workers())
    share = 1 if backend == "ray" else max(1, thread_allowance() // side_by_side)
    jobs = [replace(job, threads=share) for job in jobs]
    start = _time.perf_counter()
    records = []
    from .parallel import run_jobs

    for _, rec in run_jobs(play_game, jobs, workers=workers, backend=backend, address=address):
        records.append(rec)
        if progress is not None:
            progress(1)
    records.sort(key=lambda r: r.index)
    return summarise(name, players, games, seed, specs, records, _time.perf_counter() - start)


def summarise(game: str, players: int, games: int, seed: int, specs: list[str],
              records: list[GameRecord], seconds: float) -> TournamentResult:
    """Turn game records into per-agent win rates and mean scores."""
    k = len(specs)
    wins = [0.0] * k
    played = [0] * k
    scores: list[list[float]] = [[] for _ in range(k)]
    seat_wins = [[0.0] * players for _ in range(k)]
    seat_games = [[0] * players for _ in range(k)]
    draws = 0
    for rec in records:
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
        results.append(AgentResult(
            spec=spec, games=n, wins=wins[a], win_rate=wins[a] / n if n else 0.0,
            ci95=wilson_interval(wins[a], n), mean_score=mean, score_ci95=(lo, hi),
            seat_wins=seat_wins[a], seat_games=seat_games[a],
        ))
    return TournamentResult(game, players, games, seed, results, draws, seconds)


__all__ = ["run_tournament", "split_agent_list", "plan_games", "play_game", "summarise",
           "TournamentResult", "AgentResult", "GameJob", "GameRecord", "mean_interval"]
