"""The online player's record: play solo challenges seeing only the revealed
cards, on the same shuffles as the hindsight ceiling, so the gap is visible.

The player is any agent (``solvers.load_agent``). The challenge reports'
default (:func:`report_player`) is the learned player where the package
ships values for the challenge, elsewhere ``EXACT_REPORT_ONLINE``: until
round 4 ``REPORT_ONLINE``, MCTS over the kernel, which re-deals the unseen
cards in every iteration and so never reads the future of the deck, then
the last two rounds exactly.
The strong search (:func:`strong_online`) is the perfect-information Monte
Carlo player (:mod:`solvers.agents.c2c_pimc`), which re-deals them for every
look ahead, except in a solo challenge, where MCTS with more iterations wins
more. The player ``play`` asks for hints (:func:`hint_player`) is, solo, the
online agent (:mod:`solvers.agents.c2c_online`): that search until round 4,
then the last two rounds exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...limits import MAX_SEED
from ...stats import wilson_interval
from .data import CoastMap

# The strong online players (under 1 s a decision on one core) and the cheap
# player of the challenge reports (a few milliseconds a decision). Measured
# on 200 shuffles of Wrigley Field and of Cedar Point (seed 0; README):
# pimc won 92 and 66 of the 129 and 104 that hindsight wins, MCTS with
# 20,000 iterations 92 and 79 at a quarter of pimc's time (100,000 won no
# more); without a challenge pimc keeps 0.92 of the hindsight mean score,
# MCTS 0.87, and with several players pimc is the stronger.
STRONG_ONLINE = "pimc:samples=32,width=64,refine=64,keep=4"
STRONG_CHALLENGE_ONLINE = "mcts:iterations=20000"
REPORT_ONLINE = "mcts:iterations=2000"
#: The challenge reports' player where no learned values ship: the reports'
#: search until round 4, then the last two rounds exactly (a few
#: milliseconds a decision, as the search alone; docs/benchmarks/strength.md).
EXACT_REPORT_ONLINE = "online:early=report"


#: The solo player of the hints: the strong search until round 4, then the
#: last two rounds exactly (solvers.agents.c2c_online), which no online
#: player can better over those rounds.
SOLO_ONLINE = "online:early=strong"


def strong_online(challenge: bool) -> str:
    """The strong search's agent spec for a solo challenge or for any other
    game (no challenge, or several players): what the solo player of the
    hints (:func:`hint_player`) plays until round 4.

    >>> strong_online(True)
    'mcts:iterations=20000'
    """
    return STRONG_CHALLENGE_ONLINE if challenge else STRONG_ONLINE


#: The solo challenge player where the package ships learned values for
#: the challenge. Each file was measured before it shipped, on 200
#: shuffles (seed 0) and 1,000 others (seed 12345): on the 200 the learned
#: player won as many as the strong search or more, at 1-3 ms a decision
#: against 31-33 (docs/learning.md, "The value files that ship").
LEARNED_ONLINE = "online:early=report,learned=4"


#: The ``--online`` of the challenge reports that picks, challenge by
#: challenge, :func:`report_player`.
AUTO = "auto"


def report_player(m: CoastMap, challenge: int | None) -> str:
    """The online player of a challenge's report (``--online auto``, the
    default): the learned player (:data:`LEARNED_ONLINE`) where the package
    ships values for the challenge on this map, the reports' search with
    the last two rounds exact (:data:`EXACT_REPORT_ONLINE`) elsewhere. Both
    take a few milliseconds a decision.

    >>> import solvers
    >>> from solvers.games.c2c.challenges import challenge_id
    >>> m = solvers.load_game("c2c").map
    >>> report_player(m, challenge_id(m, "Cedar Point")), report_player(m, challenge_id(m, "The Alamo"))
    ('online:early=report,learned=4', 'online:early=report')
    """
    from .values import builtin_file

    if challenge is not None and builtin_file(m, challenge) is not None:
        return LEARNED_ONLINE
    return EXACT_REPORT_ONLINE


def game_hint_player(game: Any) -> str:
    """The AI ``solve c2c play`` hints with for ``game``: in a solo
    challenge whose learned values ship, the learned player
    (:data:`LEARNED_ONLINE`); otherwise :func:`hint_player`.

    >>> import solvers
    >>> game_hint_player(solvers.load_game("c2c", challenge="Wrigley Field"))
    'online:early=report,learned=4'
    >>> game_hint_player(solvers.load_game("c2c"))
    'online:early=strong'
    """
    challenge = getattr(game, "challenge", None)
    if game.num_players == 1 and report_player(game.map, challenge) == LEARNED_ONLINE:
        return LEARNED_ONLINE
    return hint_player(game.num_players, challenge is not None)


def hint_player(players: int, challenge: bool) -> str:
    """The AI ``solve c2c play`` hints with and plays against: solo, the
    online agent over the strong search; with several players, pimc.

    >>> hint_player(1, True), hint_player(3, False)
    ('online:early=strong', 'pimc:samples=32,width=64,refine=64,keep=4')
    """
    return SOLO_ONLINE if players == 1 else strong_online(challenge)


@dataclass
class OnlineResult:
    wins: int
    n: int
    ci95: tuple[float, float]
    scores: list[int] = field(default_factory=list)   # 0 for a lost game
    won: list[bool] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def mean_winning_score(self) -> float | None:
        wins = [s for s, w in zip(self.scores, self.won, strict=True) if w]
        return sum(wins) / len(wins) if wins else None


def play_deal(m: CoastMap, challenge: int | None, deal: list[int], agent_spec: str,
              seed: int) -> tuple[bool | None, int]:
    """Play one shuffle with a fresh agent; (challenge won, rulebook score)."""
    import solvers
    from solvers.agents import load_agent, parse_agent_spec

    game: Any = solvers.load_game("c2c", players=1, challenge=challenge, map=m)   # a kernel game
    kind, options = parse_agent_spec(agent_spec)
    options.setdefault("seed", seed)
    agent = load_agent(kind, game, **options)
    state = game.state_from_deal(deal)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(agent.step(state))
    return state.challenge_won(), int(state.returns()[0])


def check_agent_spec(m: CoastMap, challenge: int | None, agent_spec: str) -> None:
    """Build the online player once, so that a bad spec (unknown kind or
    option, a bad value) is one SolversError before any work starts."""
    import solvers
    from solvers.agents import load_agent, parse_agent_spec

    if agent_spec == AUTO:
        agent_spec = report_player(m, challenge)

    game: Any = solvers.load_game("c2c", players=1, challenge=challenge, map=m)   # a kernel game
    kind, options = parse_agent_spec(agent_spec)
    load_agent(kind, game, **options).check_match()


@dataclass(frozen=True)
class OnlineJob:
    """Play one shuffle with the online player: the job
    :func:`online_results` maps over ``(index, deal, seed)`` items
    (picklable, for :mod:`solvers.parallel`)."""

    map: CoastMap
    challenge: int | None
    agent_spec: str

    def __call__(self, item: tuple[int, list[int], int]) -> tuple[bool | None, int]:
        _, deal, seed = item
        return play_deal(self.map, self.challenge, deal, self.agent_spec, seed)


def online_results(m: CoastMap, challenge: int, shuffles: int, seed: int, workers: int | None,
                   agent_spec: str, progress: Callable[[int], None] | None = None,
                   backend: str = "local", address: str | None = None) -> OnlineResult:
    """Play the ``shuffles`` seeded shuffles of the ceiling with the online
    player, ``workers`` at a time on ``backend`` (``local`` or ``ray`` at
    ``address``, :func:`solvers.parallel.run_jobs`); ``progress(1)`` after
    each game. Shuffle ``i``'s agent is seeded ``seed + i`` (modulo 2**64).
    ``agent_spec`` :data:`AUTO` is :func:`report_player`'s for the challenge."""
    from ...parallel import run_jobs
    from .deal import shuffle_deals

    if agent_spec == AUTO:
        agent_spec = report_player(m, challenge)

    check_agent_spec(m, challenge, agent_spec)     # a bad spec fails here, not in a worker
    deals = shuffle_deals(m, challenge, shuffles, seed)
    items = [(i, deal, (seed + i) % MAX_SEED) for i, deal in enumerate(deals)]
    won: list[bool] = [False] * shuffles
    scores = [0] * shuffles
    for i, (w, s) in run_jobs(OnlineJob(m, challenge, agent_spec), items, workers=workers,
                              backend=backend, address=address):
        won[i], scores[i] = bool(w), s
        if progress:
            progress(1)
    wins = sum(won)
    return OnlineResult(wins, shuffles, wilson_interval(wins, shuffles), scores, won)
