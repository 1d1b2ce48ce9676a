"""Our games as OpenSpiel games, so that OpenSpiel's algorithms and bots run
on them (needs the optional extra: ``pip install ".[openspiel]"``).

Every game of :func:`solvers.game_names` is registered with
``pyspiel.register_game`` as ``solvers_<name>`` (``solvers_c2c``,
``solvers_switchbacks``, ``solvers_bigsur``, ``solvers_santacruz``), a
sequential game with explicit chance nodes and imperfect information. Its
states wrap a state of our Cython kernel (or of the pure-Python reference
with ``reference=True``)::

    >>> import pyspiel
    >>> from solvers.interop.openspiel import register_games
    >>> names = register_games()
    >>> game = pyspiel.load_game("solvers_switchbacks", {"players": 2})
    >>> state = game.new_initial_state()
    >>> state.is_chance_node()
    True

Contract with OpenSpiel:

* actions are our action ids, chance outcomes included (so
  ``max_chance_outcomes`` is ``num_distinct_actions``);
* ``information_state_string(p)`` is our ``information_state(p)`` as
  canonical JSON: what ``p`` knows now (the map, their own tiles or cards,
  the sizes of everything hidden). It is Markov, not perfect recall: two
  histories that leave a player knowing the same thing share a string,
  which is what a search keyed by information states wants;
* ``resample_from_infostate(p, sampler)`` re-deals everything ``p`` cannot
  see (our ``resample``), seeded by one draw of OpenSpiel's sampler, so the
  ISMCTS bots can play the hidden-information games. The history of the
  resampled state is the original's with the hidden chance outcomes
  rewritten (OpenSpiel only requires an equal information state);
* ``returns()`` are ours: win shares with several players (constant sum 1),
  the solo score (0 for a lost challenge) in a 1-player Coast to Coast game.

Game parameters come from the game's record (:mod:`solvers.registry`):
``players`` and ``reference`` (bool) for every game, and each option whose
type OpenSpiel can carry (Coast to Coast: ``challenge``, a card name, and
``map``, a map file; ``""`` leaves a text option unset). Player counts,
chance, information, constant-sum and utility bounds come from the record
too, so a newly registered game needs nothing here.

Which OpenSpiel bots work: the Python ISMCTS bot
(``open_spiel.python.algorithms.ismcts.ISMCTSBot``, through our
``resample_from_infostate``), the Python MCTS bot and every algorithm
written in Python over the state API. The C++ bots ``pyspiel.MCTSBot`` and
``pyspiel.ISMCTSBot`` crash (segmentation fault) on *any* Python-defined
game in open_spiel 2.0.2, OpenSpiel's own ``python_tic_tac_toe``
included, so they are not offered here. :class:`TimedISMCTSBot` is the
Python ISMCTS bot with a time budget per move, and the agent kind
``openspiel`` (registered when this module is imported) puts it in our
tournaments: ``openspiel:time=1`` or ``openspiel:simulations=500``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import solvers

from ..agents.base import Agent, register
from ..limits import MAX_ITERATIONS, check_seconds, check_whole
from ..registry import GameInfo, game_info
from ..rng import SplitMix64, seed_from

PREFIX = "solvers_"
_REGISTERED: dict[str, type] = {}


def _short(name: str) -> str:
    return PREFIX + name


def _option_params(info: GameInfo) -> dict[str, Any]:
    """The game's options that OpenSpiel can carry, with their OpenSpiel
    defaults: an option's first plain type (str, int, float, bool) and its
    default; a text option without a default is ``""``, meaning unset."""
    params: dict[str, Any] = {}
    for opt in info.options:
        kind = next((t for t in opt.types if t in (str, int, float, bool)), None)
        if kind is None:
            continue
        if opt.default is not None:
            params[opt.name] = kind(opt.default)
        elif kind is str:
            params[opt.name] = ""
    return params


def _our_game(name: str, params: dict[str, Any]) -> solvers.Game:
    info = game_info(name)
    players = int(params.get("players", 0)) or None
    reference = bool(params.get("reference", False))
    options: dict[str, Any] = {}
    for key in _option_params(info):
        if key in params and params[key] != "":
            options[key] = params[key]
    return solvers.load_game(name, players=players, reference=reference, **options)


def _game_type(name: str) -> pyspiel.GameType:
    info = game_info(name)
    params: dict[str, Any] = {"players": info.default_players, "reference": False,
                              **_option_params(info)}
    constant = info.is_constant_sum(info.min_players)
    return pyspiel.GameType(
        short_name=_short(name),
        long_name=f"solvers {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if info.chance == "explicit"
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION
                     if info.information == "imperfect"
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if constant
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=params,
    )


class SolversGame(pyspiel.Game):
    """An OpenSpiel game around one of ours; built by ``pyspiel.load_game``."""

    solvers_name = ""

    def __init__(self, params: dict[str, Any] | None = None, game: solvers.Game | None = None):
        """``pyspiel.load_game`` passes ``params``; ``game`` wraps a game we
        already built (then ``params`` only names its seats)."""
        params = dict(params or {})
        self.game = game if game is not None else _our_game(self.solvers_name, params)
        g = self.game
        record = game_info(self.solvers_name)
        n = g.num_players
        low, high = record.utility_bounds(n)
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_distinct_actions(),
            max_chance_outcomes=g.num_distinct_actions(),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=record.utility_sum if record.is_constant_sum(n) else None,
            max_game_length=record.game_length_bound(g),
        )
        super().__init__(_game_type(self.solvers_name), info, params)
        self._seed = 0

    def new_initial_state(self, seed: int | None = None) -> "SolversState":
        """A new game; ``seed`` only fixes ``seeded_outcome`` (OpenSpiel
        samples chance itself)."""
        if seed is None:
            seed = self._seed
            self._seed += 1
        return SolversState(self, self.game.new_initial_state(seed=seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "InfoObserver":
        return InfoObserver(iig_obs_type)


class _Holder:
    """Holds one of our states so that ``copy.deepcopy`` (how OpenSpiel
    clones a Python state) uses our ``clone()``, a memcpy for the kernels."""

    __slots__ = ("state",)

    def __init__(self, state: solvers.State):
        self.state = state

    def __deepcopy__(self, memo: dict) -> "_Holder":
        return _Holder(self.state.clone())


class SolversState(pyspiel.State):
    """An OpenSpiel state holding one of our states (``inner``)."""

    def __init__(self, game: SolversGame, inner: solvers.State):
        super().__init__(game)
        self._held = _Holder(inner)

    @property
    def inner(self) -> solvers.State:
        return self._held.state

    @inner.setter
    def inner(self, state: solvers.State) -> None:
        self._held = _Holder(state)

    # The OpenSpiel state API.
    def current_player(self) -> int:
        p = self.inner.current_player()
        if p == solvers.CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == solvers.TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return self.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.inner.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.inner.action_to_string(int(action)) if not self.inner.is_terminal() else str(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return [float(x) for x in self.inner.returns()]

    def __str__(self) -> str:
        return str(self.inner)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "SolversState":
        """A state with everything ``player_id`` cannot see dealt afresh."""
        draw = float(probability_sampler())
        rng = SplitMix64(int(draw * (1 << 53)))
        twin = self.clone()
        inner = self.inner
        if hasattr(inner, "resample"):
            twin.inner = inner.resample(int(player_id), rng)
        return twin


class InfoObserver:
    """Strings for ``information_state_string`` and ``observation_string``:
    our ``information_state(player)`` as canonical JSON."""

    def __init__(self, iig_obs_type: Any = None):
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SolversState, player: int) -> None:
        pass

    def string_from(self, state: SolversState, player: int) -> str:
        return json.dumps(state.inner.information_state(player), sort_keys=True, separators=(",", ":"))


def register_games() -> list[str]:
    """Register every game of the library with OpenSpiel (once); the
    OpenSpiel short names."""
    for name in solvers.game_names():
        if name in _REGISTERED:
            continue
        cls = type(f"Solvers_{name}_Game", (SolversGame,), {"solvers_name": name})
        if _short(name) not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(name), cls)
        _REGISTERED[name] = cls
    return [_short(n) for n in solvers.game_names()]


def openspiel_game(game: solvers.Game) -> SolversGame:
    """The OpenSpiel game around ``game``, one of ours already built (its
    options, whatever they are, come along)."""
    register_games()
    name = solvers.canonical_game_name(game.name)
    params = {"players": game.num_players, "reference": bool(getattr(game, "reference", False))}
    return _REGISTERED[name](params, game=game)


def load_openspiel_game(name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for one of our games by our short name.

    >>> game = load_openspiel_game("switchbacks", players=2)
    >>> game.num_players(), game.num_distinct_actions()
    (2, 1409)
    """
    register_games()
    key = solvers.canonical_game_name(name)
    return pyspiel.load_game(_short(key), params)


# ----------------------------------------------------------------- bots
def _ismcts_module() -> Any:
    from open_spiel.python.algorithms import ismcts, mcts

    return ismcts, mcts


class TimedISMCTSBot(_ismcts_module()[0].ISMCTSBot):  # type: ignore[misc]  # OpenSpiel's, loaded at import
    """OpenSpiel's Python ISMCTS bot, searching for ``seconds`` per move
    (or ``max_simulations`` simulations when ``seconds`` is None).

    The search loop is the bot's own (root resampling, ``run_simulation``,
    the final policy); only its stopping rule is ours, and :meth:`stop`
    (from another thread) ends it once the root has a visit.
    """

    def __init__(self, game: pyspiel.Game, evaluator: Any, uct_c: float, max_simulations: int,
                 seconds: float | None = None, **kwargs: Any):
        super().__init__(game, evaluator, uct_c, max_simulations, **kwargs)
        self.seconds = seconds
        self.simulations = 0          # in the last search
        self.stopping = False

    def stop(self) -> None:
        """End the running search (and every later one) once the root has a visit."""
        self.stopping = True

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        import time

        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        done = 0
        if self.seconds is None:
            # The bot's own loop of max_simulations, ended early by a stop.
            while done < self._max_simulations and not (
                    self.stopping and self._root_node.total_visits > 0):
                self.run_simulation(self.sample_root_state(state))
                done += 1
            self.simulations = done
            return self.get_final_policy(state, self._root_node)
        deadline = time.perf_counter() + self.seconds
        # The first simulation only expands the root; the final policy
        # needs a visit of it, however short the time.
        while self._root_node.total_visits <= 0 or (time.perf_counter() < deadline
                                                    and not self.stopping):
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations = done
        return self.get_final_policy(state, self._root_node)


def ismcts_bot(game: pyspiel.Game, seconds: float | None = 1.0, simulations: int = 1000,
               c: float = 1.4, seed: int | None = 0) -> TimedISMCTSBot:
    """OpenSpiel's ISMCTS bot (random rollouts, most-visited move) for one
    of our registered games, seeded."""
    ismcts, mcts = _ismcts_module()
    rs = np.random.RandomState(seed_from(seed) % (1 << 32))
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = TimedISMCTSBot(game, evaluator, c, simulations, seconds=seconds, random_state=rs,
                         final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
    # The bot re-deals the root with pyspiel's own unseeded sampler unless
    # given a resampler: ours draws from the bot's seeded generator.
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.uniform))
    return bot


@register("openspiel")
class OpenSpielISMCTSAgent(Agent):
    """OpenSpiel's (Python) ISMCTS bot as one of our agents, for tournaments
    and benchmarks. Options: ``time`` (seconds per move, default 1) or
    ``simulations``, ``c`` (default 1.4), ``seed``."""

    options = ("seed", "time", "simulations", "c")
    stoppable = True

    def __init__(self, game: solvers.Game, seed: int | None = None, time: float | None = None,
                 simulations: int | None = None, c: float = 1.4):
        super().__init__(game, seed)
        if time is None and simulations is None:
            time = 1.0
        if time is not None:
            time = check_seconds("time", time)
        if simulations is not None:
            simulations = check_whole("simulations", simulations, 1, MAX_ITERATIONS)
        self.os_game = openspiel_game(game)
        self.bot = ismcts_bot(self.os_game, seconds=time, simulations=simulations or 1000, c=c,
                              seed=self.rng.next())
        self._track(self.bot)          # its stop() ends a running search (Agent.stop)

    @property
    def last_simulations(self) -> int:
        """The simulations of the last search (what a ladder reports as the
        bot's real budget, :mod:`solvers.ladder`)."""
        return int(self.bot.simulations)

    def _wrap(self, state: solvers.State) -> SolversState:
        return SolversState(self.os_game, state.clone())

    def _step(self, state: solvers.State) -> int:
        return int(self.bot.step(self._wrap(state)))

    def _analyse(self, state: solvers.State) -> list[dict[str, Any]]:
        """The bot's final policy, most likely first (``value`` is the
        probability, ``visits`` 0)."""
        policy = self.bot.get_policy(self._wrap(state))
        policy = sorted(policy, key=lambda t: (-t[1], t[0]))
        return [self._row(state, int(a), p) for a, p in policy]
