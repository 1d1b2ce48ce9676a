"""Review a game record: the evaluation after every step, and a grade for
each decision of the recording seat.

:func:`review_record` searches every step of a record
(:mod:`solvers.record`) with the library's MCTS
(:func:`solvers.search.mcts.mcts_search`, seeded, an iteration budget by
default so that a seed gives the same review on any machine):

* A **decision** of the recording seat (of every player in a referee
  record) is judged only from what the mover could see then
  (:func:`solvers.agents.base.seat_view`; in a seat record the state is
  already that view). A search of the position picks the move it visits
  most, the ``best`` one; then the position after the move played and the
  one after ``best`` are each searched with the same seed (the same chance
  draws), and the mover's mean returns there are ``played_value`` and
  ``best_value``; ``loss`` is their difference, never below 0 (0 when the
  move played is the search's choice). A decision with a single legal move
  is not graded.
* Any other step (a chance outcome, another player's move in a seat record)
  is not graded: the seat cannot know what the mover knew. Its value is a
  search of the position after it, as the record's seat sees it.

A step's ``value`` is the evaluation after the move: for a seat record the
seat's, for a referee record a list, one per player. With two or more seats
it is a win chance in [0, 1]; in a one-seat game (solo Coast to Coast) it is
the **expected score**, and :attr:`Review.measure` says which.

Grades (:data:`GRADES`), by the loss:

============  ===============  ==========================
grade         win chance lost  expected score lost (solo)
============  ===============  ==========================
inaccuracy    >= 0.05          >= 3 points
mistake       >= 0.10          >= 6 points
blunder       >= 0.20          >= 12 points
============  ===============  ==========================

A small budget (200 iterations a search: three searches a graded decision,
one for any other step) gives a quick, noisy review: a loss below the
inaccuracy line is within the search's noise; give more iterations for a
steadier one. A step whose position the record cannot rebuild for its seat
(:meth:`solvers.record.Record.state_at`) has no value and no grade.

    >>> import solvers
    >>> from solvers.record import record_game
    >>> game = solvers.load_game("switchbacks", players=2)
    >>> state = game.new_initial_state(seed=1)
    >>> actions = []
    >>> for _ in range(12):
    ...     a = state.seeded_outcome() if state.is_chance_node() else state.legal_actions()[0]
    ...     actions.append(a); state.apply_action(a)
    >>> review = review_record(record_game(game, actions, seat=0), budget=20, seed=1)
    >>> review.measure, len(review.points), all(p.mover == 0 for p in review.graded())
    ('win chance', 12, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import SolversError
from .game import State
from .limits import check_seed, check_whole
from .record import Record, load_record
from .rng import SplitMix64, seed_from

#: The iterations each step is searched with unless told otherwise.
DEFAULT_ITERATIONS = 200
#: (grade, loss at least) best to worst, for win chances and for scores.
GRADES: dict[str, tuple[tuple[str, float], ...]] = {
    "win chance": (("inaccuracy", 0.05), ("mistake", 0.10), ("blunder", 0.20)),
    "expected score": (("inaccuracy", 3.0), ("mistake", 6.0), ("blunder", 12.0)),
}


def grade_of(loss: float, measure: str) -> str | None:
    """The grade of a ``loss`` (None: no grade).

    >>> grade_of(0.12, "win chance"), grade_of(2.0, "expected score"), grade_of(0.3, "win chance")
    ('mistake', None, 'blunder')
    """
    grade = None
    for name, least in GRADES[measure]:
        if loss >= least - 1e-9:
            grade = name
    return grade


@dataclass
class Point:
    """One step of a review (see the module docstring). ``value`` is None
    when the record does not hold that step's position for its seat."""

    step: int
    mover: int | str
    move: str
    value: float | list[float] | None
    graded: bool = False
    best: str | None = None
    best_value: float | None = None
    played_value: float | None = None
    loss: float | None = None
    grade: str | None = None

    def to_json(self) -> dict[str, Any]:
        def r(x: Any) -> Any:
            if isinstance(x, list):
                return [round(v, 4) for v in x]
            return None if x is None else round(float(x), 4)

        out: dict[str, Any] = {"step": self.step, "mover": self.mover, "move": self.move,
                               "value": r(self.value)}
        if self.graded:
            out.update(best=self.best, best_value=r(self.best_value), played_value=r(self.played_value),
                       loss=r(self.loss), grade=self.grade)
        return out


@dataclass
class Review:
    """A reviewed record: one :class:`Point` per step."""

    game: str
    players: int
    seat: int | None
    names: list[str]
    measure: str
    iterations: int
    seed: int
    points: list[Point] = field(default_factory=list)

    def graded(self) -> list[Point]:
        return [p for p in self.points if p.graded]

    def costliest(self, top: int = 5) -> list[Point]:
        """The ``top`` graded decisions that lost the most (ties: earlier first)."""
        ranked = sorted((p for p in self.graded() if (p.loss or 0) > 0),
                        key=lambda p: (-(p.loss or 0.0), p.step))
        return ranked[:top]

    def counts(self) -> dict[str, int]:
        """How many decisions got each grade."""
        return {name: sum(p.grade == name for p in self.points) for name, _ in GRADES[self.measure]}

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """The review as a JSON-ready dict (``top``: also the costliest moves)."""
        out: dict[str, Any] = {
            "game": self.game, "players": self.players, "seat": self.seat, "names": self.names,
            "measure": self.measure, "iterations": self.iterations, "seed": self.seed,
            "thresholds": {name: least for name, least in GRADES[self.measure]},
            "grades": self.counts(), "points": [p.to_json() for p in self.points],
        }
        if top is not None:
            out["worst"] = [p.step for p in self.costliest(top)]
        return out


def _budget(budget: Any) -> int:
    if budget is None:
        return DEFAULT_ITERATIONS
    if isinstance(budget, dict):
        unknown = sorted(set(budget) - {"iterations"})
        if unknown:
            raise SolversError(f"a review's budget takes 'iterations' (an exact, seeded budget), "
                               f"not {unknown[0]!r}")
        budget = budget.get("iterations", DEFAULT_ITERATIONS)
    return check_whole("iterations", budget, 1)


class _Evaluator:
    """The searches of one review, seeded from one generator."""

    def __init__(self, record: Record, iterations: int, seed: int):
        self.record = record
        self.iterations = iterations
        self.rng = SplitMix64(seed_from(seed))
        self.players = record.players
        self.label, self.convert = measure_of(record)
        self._after: dict[int, list[float] | None] = {}

    def search(self, state: State, seed: int | None = None) -> Any:
        from .search.mcts import mcts_search

        return mcts_search(state, iterations=self.iterations,
                           seed=self.rng.next() if seed is None else seed)

    def evaluate(self, state: State, seed: int | None = None) -> list[float]:
        """Every seat's value of ``state`` in the review's measure: the mean
        of an MCTS search's root (chance resolved by one seeded draw)."""
        from .search.mcts import sample_outcome

        rng = self.rng if seed is None else SplitMix64(seed_from(seed))
        state = state.clone()
        while state.is_chance_node():
            state.apply_action(sample_outcome(state, rng))
        if state.is_terminal():
            utility = getattr(state, "_search_returns", state.returns)()
            return [self.convert(float(u)) for u in utility]
        r = self.search(state, rng.next())
        total = sum(r.visits)
        if not total:
            return [self.convert(0.0)] * self.players
        return [self.convert(sum(n * vec[k] for n, vec in zip(r.visits, r.value_vectors, strict=True)) / total)
                for k in range(self.players)]

    def after(self, i: int) -> list[float] | None:
        """The evaluation of the state before step ``i`` (after step i - 1)."""
        if i not in self._after:
            try:
                state = self.record.state_at(i)
            except SolversError:
                self._after[i] = None
            else:
                self._after[i] = self.evaluate(state)
        return self._after[i]


def _identity(value: float) -> float:
    return value


def measure_of(record: Record) -> tuple[str, Callable[[float], float]]:
    """What a review's values are (``"win chance"`` or ``"expected score"``)
    and the function from a search value (the game's search utility) to it:
    the game's own (``GameInfo.review_measure``, ``"module:function"``
    taking the built game) or, by default, win chances with several seats
    and the return itself alone."""
    from .registry import load_object

    hook = getattr(record.info, "review_measure", None)
    if hook:
        label, convert = load_object(hook)(record.game_object)
        return label, convert
    label = "win chance" if record.info.is_constant_sum(record.players) else "expected score"
    return label, _identity


def review_record(record: Any, budget: Any = None, seed: int = 0,
                  progress: Callable[[int, int], None] | None = None) -> Review:
    """Review a record (a :class:`solvers.record.Record`, a path or a decoded
    dict; see the module docstring). ``budget``: iterations per search (an
    int, or ``{"iterations": N}``; default :data:`DEFAULT_ITERATIONS`);
    ``seed`` seeds every search; ``progress(done, total)`` is called after
    each step."""
    from .agents.base import seat_view

    record = load_record(record)
    iterations = _budget(budget)
    seed = check_seed("seed", seed)
    ev = _Evaluator(record, iterations, seed)
    measure = ev.label
    review = Review(record.game, record.players, record.seat, list(record.names), measure,
                    iterations, seed)
    decisions = set(record.decisions())
    total = len(record.steps)

    def pick(vec: list[float] | None) -> float | list[float] | None:
        if vec is None:
            return None
        return vec if record.seat is None else vec[record.seat]

    for i, step in enumerate(record.steps):
        point = Point(i, step.mover, step.move, None)
        state: State | None = None
        if i in decisions:
            try:
                state = record.state_at(i)
            except SolversError:
                state = None
        if state is not None and state.current_player() >= 0 and \
                len(state.legal_actions()) > 1 and step.action in state.legal_actions():
            mover = state.current_player()
            view = state if record.seat is not None else seat_view(state, mover)
            best = ev.search(view).actions[0]
            # The move played and the search's choice are each valued by a
            # search of the position after it, with the same seed (the same
            # chance draws), so that the two compare like with like.
            pair = ev.rng.next()
            vecs = {}
            for action in dict.fromkeys((step.action, best)):
                after = view.clone()
                after.apply_action(action)
                vecs[action] = ev.evaluate(after, pair)
            played_value, best_value = vecs[step.action][mover], vecs[best][mover]
            point.graded = True
            point.best = view.action_to_string(best)
            point.best_value = float(best_value)
            point.played_value = float(played_value)
            point.loss = 0.0 if step.action == best else max(0.0, best_value - played_value)
            point.grade = grade_of(point.loss, measure)
            point.value = pick(vecs[step.action])
        else:
            point.value = pick(ev.after(i + 1))
        review.points.append(point)
        if progress is not None:
            progress(i + 1, total)
    return review


# ---------------------------------------------------------------- text
CHART_HEIGHT = 8
CHART_WIDTH = 60


def _fmt(value: float | None, measure: str) -> str:
    if value is None:
        return "-"
    return f"{value:.0%}" if measure == "win chance" else f"{value:.1f}"


def chart(review: Review, width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> list[str]:
    """A small text chart of the evaluation over the game (the record's
    seat; the first player for a referee record), one column per bucket of
    steps."""
    who = 0 if review.seat is None else review.seat
    values = [p.value[who] if isinstance(p.value, list) else p.value for p in review.points]
    known = [(i, v) for i, v in enumerate(values) if v is not None]
    if not known:
        return ["(no evaluation to chart)"]
    if review.measure == "win chance":
        low, high = 0.0, 1.0
    else:
        low, high = min(v for _, v in known), max(v for _, v in known)
        if high - low < 1e-9:
            low, high = low - 1.0, high + 1.0
    n = len(values)
    cols = min(width, n)
    column: list[float | None] = []
    for c in range(cols):
        chunk = [v for v in values[c * n // cols:(c + 1) * n // cols] if v is not None]
        column.append(chunk[-1] if chunk else None)
    lines = []
    for row in range(height, 0, -1):
        level = low + (high - low) * (row - 0.5) / height
        label = _fmt(low + (high - low) * row / height, review.measure) if row in (height, 1) else ""
        if row == 1:
            label = _fmt(low, review.measure)
        cells = "".join(" " if v is None else ("#" if v >= level else " ") for v in column)
        lines.append(f"{label:>7} |{cells}")
    lines.append(" " * 8 + "+" + "-" * cols)
    lines.append(" " * 9 + f"step 0{' ' * max(1, cols - 6 - len(str(n)))}{n}")
    return lines


def _plural(name: str) -> str:
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


def format_review(review: Review, top: int = 5) -> str:
    """The review as text: a summary of the grades, a table of the ``top``
    costliest decisions with the move the search prefers, and a chart."""
    who = ("every player (referee record)" if review.seat is None
           else f"{review.names[review.seat]} (seat {review.seat})")
    lines = [f"Review of a {review.game} game, through the eyes of {who}",
             f"Values are the {review.measure} after each move; {review.iterations} MCTS iterations "
             f"a step, seed {review.seed}."]
    counts = review.counts()
    graded = review.graded()
    lines.append(f"Decisions judged: {len(graded)}; "
                 + ", ".join(f"{_plural(name)} {k}" for name, k in counts.items()) + ".")
    unknown = sum(p.value is None for p in review.points)
    if unknown:
        lines.append(f"{unknown} of {len(review.points)} steps are not judged: the record does not "
                     "hold their position for its seat (a hidden move comes before them).")
    lines.append("Grades by the loss: " + ", ".join(
        f"{name} >= {_fmt(least, review.measure) if review.measure == 'win chance' else least}"
        for name, least in GRADES[review.measure]) + ".")
    worst = review.costliest(top)
    if worst:
        lines.append("")
        lines.append(f"{'step':>5}  {'player':<12} {'played':<28} {'preferred':<28} "
                     f"{'value':>7} {'best':>7} {'loss':>7}  grade")
        for p in worst:
            name = review.names[p.mover] if isinstance(p.mover, int) else str(p.mover)
            lines.append(f"{p.step:>5}  {name[:12]:<12} {p.move[:28]:<28} {(p.best or '')[:28]:<28} "
                         f"{_fmt(p.played_value, review.measure):>7} "
                         f"{_fmt(p.best_value, review.measure):>7} "
                         f"{_fmt(p.loss, review.measure):>7}  {p.grade or '-'}")
    else:
        lines.append("No decision lost anything by the search's estimate.")
    lines.append("")
    who_chart = review.names[0] if review.seat is None else review.names[review.seat]
    lines.append(f"The {review.measure} of {who_chart} over the game:")
    lines += chart(review)
    return "\n".join(lines)


__all__ = ["DEFAULT_ITERATIONS", "GRADES", "Point", "Review", "review_record", "format_review",
           "grade_of", "chart"]
