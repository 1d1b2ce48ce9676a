"""How near an online player comes to the best any online player could do
over the last two rounds of solo Coast to Coast, exactly.

From a round-4 position (the sheet after round 3 and round 4's four cards,
the rest of the deck unseen), the best an online player can expect is the
best, over the ends round 4 allows, of the exact expectation of round 5
over every hand of the unseen cards (:meth:`CoastKernelState.end_values`,
computed in C). A player's expected loss there is that best minus the
value of the end the player chose: zero when it chose a best end, and no
luck of the cards in it, since both sides are exact expectations over the
same last round.

The positions come from the player's own games: each seeded deal is played
by the player up to round 4, then its round-4 choice is compared with the
best. With a challenge the values are the chance of completing it (the
loss in percentage points) and the expected points (a lost challenge
scoring none); without one, the expected points.

    >>> from solvers.games.c2c.data import load_map
    >>> summary = yardstick(load_map(), None, "mcts:iterations=30", positions=2, seed=0)
    >>> summary.positions, 0 <= summary.optimal <= 2, summary.loss_points >= 0
    (2, True, True)

From round 3 (:func:`round_three_yardstick`) exactness is out of reach (a
round-3 end would need every round-4 hand, each with every round-4 end
valued exactly: minutes an end), so the best is sampled: each candidate
end is valued by the mean, over sampled round-4 hands, of the best round-4
end valued exactly; one half of the hands picks the best candidate and the
other half values it and the player's end, so the loss it reports is, in
expectation, at most the true one (see that function).

A long measurement can be saved as its positions finish (``save=``, a JSON
file, :func:`load_yardstick` reads it back) and resumed (``resume=``): the
positions already measured are kept and only the others are played, with
the same settings, so a run of hours may be spread over several sittings
and gives the answer a single run would have given.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ...errors import SolversError
from ...limits import MAX_SEED, check_seed, check_whole
from ...stats import mean_interval
from .data import CoastMap

EPS = 1e-9


@dataclass(frozen=True)
class Position:
    """One round-4 position: the best ends' values and the player's."""

    index: int
    ends: int                 # distinct ends the round allowed
    best_win: float
    best_points: float
    win: float                # the player's end
    points: float

    @property
    def optimal(self) -> bool:
        return self.win >= self.best_win - EPS and self.points >= self.best_points - EPS


@dataclass(frozen=True)
class Yardstick:
    """The summary over the positions (intervals: 95%, over positions)."""

    player: str
    challenge: str | None
    positions: int
    optimal: int              # positions where the player chose a best end
    loss_points: float
    loss_points_ci: tuple[float, float]
    loss_win: float           # chance of completing the challenge lost (0 without one)
    loss_win_ci: tuple[float, float]
    best_points: float        # the best's mean expected points
    best_win: float
    rows: tuple[Position, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "challenge": self.challenge, "positions": self.positions,
                "optimal": self.optimal, "loss_points": self.loss_points,
                "loss_points_ci95": list(self.loss_points_ci), "loss_win": self.loss_win,
                "loss_win_ci95": list(self.loss_win_ci), "best_points": self.best_points,
                "best_win": self.best_win}


def played_to(round_: int, m: CoastMap, challenge: int | None, agent_spec: str, deal: list[int],
              seed: int) -> tuple[Any, Any, Any]:
    """(game, agent, state): ``deal`` played by the agent (seeded ``seed``)
    up to the first decision of round ``round_``."""
    import solvers
    from solvers.agents import load_agent, parse_agent_spec

    game: Any = solvers.load_game("c2c", players=1, challenge=challenge, map=m)
    kind, options = parse_agent_spec(agent_spec)
    options.setdefault("seed", seed)
    agent = load_agent(kind, game, **options)
    state = game.state_from_deal(deal)
    while state.is_chance_node() or state.round < round_:
        state.apply_action(state.seeded_outcome() if state.is_chance_node() else agent.step(state))
    return game, agent, state


@dataclass(frozen=True)
class YardstickJob:
    """Play one deal with the player to round 4 and compare its round-4 end
    with the best (the job :func:`yardstick` maps over ``(index, deal,
    seed)``; picklable for :mod:`solvers.parallel`)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str

    def __call__(self, item: tuple[int, list[int], int]) -> Position:
        index, deal, seed = item
        _, agent, state = played_to(4, self.map, self.challenge, self.agent_spec, deal, seed)
        values = {end: (win, points) for end, _, win, points in state.end_values()}
        challenge = self.challenge is not None
        best = max(values.values(), key=lambda v: _rank(v[0], v[1], challenge))
        while not state.is_chance_node() and state.round == 4:
            state.apply_action(agent.step(state))
        win, points = values[_sheet_key(state)]
        return Position(index, len(values), best[0], best[1], win, points)


def yardstick(m: CoastMap, challenge: str | int | None, agent_spec: str, positions: int,
              seed: int = 0, workers: int | None = 1, backend: str = "local",
              address: str | None = None, progress: Callable[[int], None] | None = None,
              save: str | None = None, resume: SavedYardstick | None = None) -> Yardstick:
    """The player ``agent_spec``'s expected loss against the exact online
    best of the last two rounds, on the round-4 positions of ``positions``
    seeded deals (:func:`solvers.games.c2c.deal.shuffle_deals`; deal ``i``'s
    agent seeded ``seed + i``), ``workers`` at a time on ``backend``;
    ``progress(1)`` after each position. ``save``: a file written as
    positions finish; ``resume``: a saved run of the same settings, whose
    positions are kept (only the others are played)."""
    from .challenges import challenge_id
    from .online import check_agent_spec

    cid = challenge_id(m, challenge) if isinstance(challenge, str) else challenge
    check_agent_spec(m, cid, agent_spec)
    check_whole("positions", positions)
    settings = Settings(4, agent_spec, _challenge_name(m, cid), seed, map_fingerprint(m))
    return _measure(YardstickJob(m, cid, agent_spec), m, cid, settings, positions, workers,
                    backend, address, progress, save, resume)


def _sheet_key(state: Any) -> tuple[int, int, int]:
    sheet = state.sheets[0]
    return tuple(sum(1 << i for i in s) for s in (sheet.circled, sheet.crossed, sheet.exact))  # type: ignore[return-value]


def hand_seed(seed: int, j: int) -> int:
    """The seed of the ``j``-th sampled round-4 hand of a position whose
    job was seeded ``seed``: the same hands for every candidate end."""
    return (seed * 1_000_003 + 7919 * (j + 1)) % MAX_SEED


def best_next_round(after: Any, rng: random.Random, challenge: bool) -> tuple[float, float]:
    """The best a player can expect from the sheet of ``after`` (a solo
    state at the chance node after round 3) when the next round brings the
    hand ``rng`` draws from the unseen cards: the best round-4 end, each
    valued exactly over round 5 (:meth:`CoastKernelState.end_values`)."""
    from .values import deal_hand

    dealt = deal_hand(after, rng)
    return max(((w, p) for _, _, w, p in dealt.end_values()),
               key=lambda v: _rank(v[0], v[1], challenge))


def _rank(win: float, points: float, challenge: bool) -> tuple[float, float]:
    from ...agents.c2c_online import end_key

    return end_key(win, points, challenge)


@dataclass(frozen=True)
class RoundThreeJob:
    """Play one deal with the player to round 3 and compare its round-3 end
    with the best of the candidates by sampled round-4 hands (the job
    :func:`round_three_yardstick` maps over ``(index, deal, seed)``)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str
    hands: int                # sampled round-4 hands in each half
    candidates: int           # ends ranked best by the learned value
    values: str               # "default" or a value file

    def __call__(self, item: tuple[int, list[int], int]) -> Position:
        from ...agents.c2c_online import load_values
        from .values import walk_to

        index, deal, seed = item
        game, agent, state = played_to(3, self.map, self.challenge, self.agent_spec, deal, seed)
        challenge = self.challenge is not None
        start = state.clone()
        ends = [e for e, _ in start.round_ends()]
        learned = load_values(game, self.values).of_round(start, ends)
        order = sorted(range(len(ends)), reverse=True,
                       key=lambda i: _rank(learned[i][0], learned[i][1], challenge))
        candidates = [ends[i] for i in order[:self.candidates]]
        while not state.is_chance_node() and state.round == 3:
            state.apply_action(agent.step(state))
        mine = _sheet_key(state)
        if mine not in candidates:
            candidates.append(mine)
        # Every candidate meets the same hands (common random numbers): the
        # unseen cards after round 3 are the same whichever end is chosen.
        seeds = [hand_seed(seed, j) for j in range(2 * self.hands)]
        half: dict[tuple[int, int, int], tuple[tuple[float, float], tuple[float, float]]] = {}
        for end in candidates:
            after = walk_to(start, end)
            got = [best_next_round(after, random.Random(s), challenge) for s in seeds]
            a, b = got[:self.hands], got[self.hands:]
            half[end] = ((sum(w for w, _ in a) / len(a), sum(p for _, p in a) / len(a)),
                         (sum(w for w, _ in b) / len(b), sum(p for _, p in b) / len(b)))
        # The first half picks (ties: the learned order), the second values.
        best = max(candidates, key=lambda e: _rank(half[e][0][0], half[e][0][1], challenge))
        (bw, bp), (w, p) = half[best][1], half[mine][1]
        return Position(index, len(ends), bw, bp, w, p)


def round_three_yardstick(m: CoastMap, challenge: str | int | None, agent_spec: str, positions: int,
                          seed: int = 0, hands: int = 16, candidates: int = 8,
                          values: str = "default", workers: int | None = 1, backend: str = "local",
                          address: str | None = None,
                          progress: Callable[[int], None] | None = None,
                          save: str | None = None,
                          resume: SavedYardstick | None = None) -> Yardstick:
    """The player's expected loss in round 3 against the best of sampled
    online play, on the round-3 positions of ``positions`` seeded deals
    (the deals and seeds of :func:`yardstick`).

    At each position the round's ends are ranked by the learned value of a
    sheet after round 3 (``values``: the package's, or a file of ``solve
    train c2c``), and the ``candidates`` best and the player's own end are
    each valued on ``2 * hands`` sampled round-4 hands, the same for every
    end, by the best round-4 end under the exact value of round 5. The
    candidate best on the first ``hands`` is the best; the loss is its mean
    on the other ``hands`` minus the player's end's there. Valued on hands
    it was not chosen on, the best's estimate is unbiased for an end that
    is at most the true best, so in expectation the loss is at most the
    player's true loss against the best online play of the last three
    rounds (and can come out below 0 at one position). ``optimal`` counts
    the positions where the player's end was the one picked. ``save`` and
    ``resume`` as for :func:`yardstick`."""
    from .challenges import challenge_id
    from .online import check_agent_spec

    cid = challenge_id(m, challenge) if isinstance(challenge, str) else challenge
    check_agent_spec(m, cid, agent_spec)
    for name, value in (("positions", positions), ("hands", hands), ("candidates", candidates)):
        check_whole(name, value)
    import solvers

    from ...agents.c2c_online import load_values

    load_values(solvers.load_game("c2c", players=1, challenge=cid, map=m), values)  # checked now
    settings = Settings(3, agent_spec, _challenge_name(m, cid), seed, map_fingerprint(m),
                        hands, candidates, values)
    job = RoundThreeJob(m, cid, agent_spec, hands, candidates, values)
    return _measure(job, m, cid, settings, positions, workers, backend, address, progress, save,
                    resume)


def _challenge_name(m: CoastMap, cid: int | None) -> str | None:
    return None if cid is None else m.locations[cid].name


def _measure(job: Callable[[tuple[int, list[int], int]], Position], m: CoastMap,
             cid: int | None, settings: Settings, positions: int, workers: int | None,
             backend: str, address: str | None, progress: Callable[[int], None] | None,
             save: str | None, resume: SavedYardstick | None) -> Yardstick:
    """Measure the positions ``resume`` lacks, saving as they finish."""
    from ...parallel import run_jobs_saving
    from .deal import shuffle_deals

    check_seed("seed", settings.seed)
    from ...benchtrack import RunLog

    kept: dict[int, Position] = {}
    log = RunLog()
    if resume is not None:
        resume.check(settings, positions)
        kept = {p.index: p for p in resume.rows}
        log = RunLog(resume.sessions)
    if save is not None:
        from ...files import check_output_path

        check_output_path(save, "--save")
    seed = settings.seed
    deals = shuffle_deals(m, cid, positions, seed)
    items = [(i, deal, (seed + i) % MAX_SEED) for i, deal in enumerate(deals) if i not in kept]
    found = list(kept.values())

    def write() -> None:
        assert save is not None
        runs = log.runs("positions", len(found) - len(kept))
        save_yardstick(save, settings, positions, found, runs,
                       _summary(m, cid, settings.player, found) if found else None)

    run_jobs_saving(job, items, lambda _, p: found.append(p), None if save is None else write,
                    progress=progress, workers=workers, backend=backend, address=address)
    return _summary(m, cid, settings.player, found)


# ------------------------------------------------------------- saved yardsticks
FORMAT = "solvers-c2c-yardstick"
VERSION = 1


def map_fingerprint(m: CoastMap) -> str:
    """A short digest of the sheet's rules (locations, lines, points): a
    saved yardstick is resumed only on the sheet it was measured on."""
    rules = (m.locations, m.highways, m.types, sorted(m.type_points.items()), m.highway_points,
             m.region_points, m.exact_match_points, m.solid_lines, m.dashed_lines)
    return hashlib.sha256(repr(rules).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Settings:
    """What a yardstick measures; a resumed run must measure the same. The
    last three are round 3's (None for round 4)."""

    round: int
    player: str
    challenge: str | None     # the challenge card's location, or None
    seed: int
    map: str                  # map_fingerprint of the sheet
    hands: int | None = None
    candidates: int | None = None
    values: str | None = None


#: What a flag is called, for the error naming a setting a resume changes.
_FLAGS = {"round": "--round", "player": "--player", "challenge": "--challenge",
          "seed": "--seed", "map": "--data (the sheet)", "hands": "--hands",
          "candidates": "--candidates", "values": "--values"}


@dataclass
class SavedYardstick:
    """A yardstick file (``solve c2c yardstick --save``): its settings, the
    positions asked for, those measured so far and the runs that measured
    them (``sessions``: commit, version, date, positions)."""

    path: str
    settings: Settings
    positions: int
    rows: list[Position]
    sessions: list[dict[str, Any]] = field(default_factory=list)

    def check(self, settings: Settings, positions: int) -> None:
        """SolversError, naming the flag and both values, unless a run of
        ``settings`` on ``positions`` positions may continue this one."""
        for f in fields(Settings):
            mine, theirs = getattr(self.settings, f.name), getattr(settings, f.name)
            if mine != theirs:
                raise SolversError(f"{self.path}: this yardstick was measured with "
                                   f"{_FLAGS[f.name]} {_shown(mine)}, not {_shown(theirs)}")
        have = max((p.index for p in self.rows), default=-1) + 1
        if positions < have:
            raise SolversError(f"{self.path}: the file holds positions of the first {have} "
                               f"deals; ask for --positions {have} or more")


def _shown(value: Any) -> str:
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)


def save_yardstick(path: str, settings: Settings, positions: int, rows: list[Position],
                   sessions: list[dict[str, Any]], summary: Yardstick | None) -> None:
    """Write a yardstick file in one piece (a crash leaves the old one)."""
    from ...files import write_atomic

    data = {"format": FORMAT, "version": VERSION, **asdict(settings), "positions": positions,
            "rows": [asdict(p) for p in sorted(rows, key=lambda p: p.index)],
            "sessions": sessions, "result": None if summary is None else summary.to_json()}
    write_atomic(path, json.dumps(data, indent=1) + "\n", "yardstick file")


def load_yardstick(path: str) -> SavedYardstick:
    """Read a file of ``save=`` (``solve c2c yardstick --save``);
    SolversError, naming the file and the field, for anything that is not
    one."""
    from ...files import read_saved_json

    def bad(why: str) -> SolversError:
        return SolversError(f"{path}: not a yardstick file: {why}")

    data = read_saved_json(path, "yardstick file", FORMAT, VERSION, limit=16 * 1024 * 1024)

    def whole(key: str, low: int, high: int, optional: bool = False) -> Any:
        x = data.get(key)
        if optional and x is None:
            return None
        if isinstance(x, bool) or not isinstance(x, int) or not low <= x <= high:
            raise bad(f"\"{key}\" should be a whole number {low} to {high}")
        return x

    def text(key: str, optional: bool = False) -> Any:
        x = data.get(key)
        if (x is None and optional) or (isinstance(x, str) and x):
            return x
        raise bad(f"\"{key}\" should be text")

    round_ = whole("round", 3, 4)
    three = round_ == 3
    settings = Settings(round_, text("player"), text("challenge", optional=True),
                        whole("seed", 0, MAX_SEED - 1), text("map"),
                        whole("hands", 1, 10_000, not three), whole("candidates", 1, 10_000, not three),
                        text("values", optional=not three))
    if not three and (settings.hands, settings.candidates, settings.values) != (None, None, None):
        raise bad("\"hands\", \"candidates\" and \"values\" belong to round 3")
    positions = whole("positions", 1, 100_000)
    rows, sessions = data.get("rows"), data.get("sessions", [])
    if not isinstance(rows, list):
        raise bad("\"rows\" should be a list of positions")
    if not isinstance(sessions, list) or not all(isinstance(x, dict) for x in sessions):
        raise bad("\"sessions\" should be a list of objects")
    names = [f.name for f in fields(Position)]
    found: list[Position] = []
    seen: set[int] = set()
    for n, r in enumerate(rows):
        at = f"position {n} of \"rows\""
        if not isinstance(r, dict) or sorted(r) != sorted(names):
            raise bad(f"{at} should be an object of {', '.join(names)}")
        index, ends = r["index"], r["ends"]
        if any(isinstance(x, bool) or not isinstance(x, int) for x in (index, ends)) \
                or not 0 <= index < positions or ends < 1:
            raise bad(f"{at}: \"index\" should be 0 to {positions - 1}, \"ends\" at least 1")
        if index in seen:
            raise bad(f"{at}: position {index} is listed twice")
        values = [r[k] for k in ("best_win", "best_points", "win", "points")]
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) or x != x
               or abs(x) > 1e6 for x in values):
            raise bad(f"{at}: the values should be numbers")
        seen.add(index)
        found.append(Position(index, ends, *(float(x) for x in values)))
    return SavedYardstick(str(path), settings, positions, found, list(sessions))


def _summary(m: CoastMap, cid: int | None, agent_spec: str, found: list[Position]) -> Yardstick:
    rows = sorted(found, key=lambda p: p.index)
    lp, lp_lo, lp_hi = mean_interval([p.best_points - p.points for p in rows])
    lw, lw_lo, lw_hi = mean_interval([p.best_win - p.win for p in rows])
    name = m.locations[cid].name if cid is not None else None
    return Yardstick(agent_spec, name, len(rows), sum(p.optimal for p in rows), lp, (lp_lo, lp_hi),
                     lw, (lw_lo, lw_hi), sum(p.best_points for p in rows) / len(rows),
                     sum(p.best_win for p in rows) / len(rows), tuple(rows))


__all__ = ["Position", "RoundThreeJob", "SavedYardstick", "Settings", "Yardstick", "YardstickJob",
           "best_next_round", "hand_seed", "load_yardstick", "map_fingerprint", "played_to",
           "round_three_yardstick", "save_yardstick", "yardstick"]
