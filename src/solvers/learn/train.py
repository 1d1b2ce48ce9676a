"""Training a learned leaf evaluation by self-play (``solve train GAME``).

The recipe, for any game whose kernel offers evaluation features
(``game._features_capsule()``, ``_core/eval_api.h``):

1. **Self-play.** ``games`` games of plain MCTS (``iterations`` a move,
   rollouts only, one thread) against itself. Game ``i`` deals and plays from
   seeds drawn from ``(seed, i)`` alone, so a run interrupted and resumed
   plays exactly the games an uninterrupted one would.
2. **Samples.** At every position from the first decision on (chance nodes
   included: a search's leaves are of every kind), each seat's features,
   computed in C from what that seat may see; its target is the seat's final
   return (Monte Carlo targets).
3. **Fit.** Logistic regression of the targets (win shares in [0, 1]) on the
   features, by Newton's method with a small ridge (numpy only; no learning
   framework): deterministic for given samples. With ``hidden`` widths, a
   small network instead (:func:`fit_network`, Adam on the cross-entropy,
   the last tenth of the games held out), deterministic for given samples
   and seed.
4. **Strength.** A match of ``eval_games`` games, seats rotated
   (:func:`solvers.tournament.run_tournament`), of MCTS with the model
   against plain MCTS at the same iteration budget: one seat with the model
   and every other seat a copy of plain MCTS, so with 3 or 4 seats its fair
   share of the wins is a third or a quarter.

Self-play games run side by side on ``workers`` processes (or Ray); each
game's seeds belong to its index, so the samples, and the model, are the
same on any worker count and backend. Samples are kept in a checkpoint
(``OUT.ckpt.npz``) about every ``checkpoint_seconds`` of wall time and when
the run stops (Ctrl-C included), so ``resume=True`` goes on from there; a
finished run leaves the model at ``OUT`` with its training command, seed,
sizes, strength and time in it (``self_play_seconds`` adds up the
sittings of a resumed run, each to its last checkpoint; ``sittings``
counts them).
"""

from __future__ import annotations

import hashlib
import json
import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SolversError
from ..rng import SplitMix64, seed_from
from .model import Model

MASK64 = (1 << 64) - 1


@dataclass
class TrainConfig:
    """What a training run depends on (a resumed run must match it)."""

    game: str
    players: int
    seed: int
    games: int
    iterations: int
    ridge: float = 1e-3
    mix: float = 0.0
    rollout_plies: int = 10
    #: The model the self-play searches use (its JSON text; None: plain MCTS).
    self_play_model: str | None = None

    def key(self) -> dict[str, Any]:
        """The fields a checkpoint must share to be resumed (not ``games``:
        a resumed run may ask for more)."""
        key: dict[str, Any] = {"game": self.game, "players": self.players, "seed": self.seed,
                               "iterations": self.iterations}
        if self.self_play_model is not None:
            key["self_play_model"] = hashlib.sha256(self.self_play_model.encode()).hexdigest()[:16]
        return key


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """(deal seed, agent seed) of self-play game ``index``."""
    rng = SplitMix64((seed_from(seed) ^ (0x9E3779B97F4A7C15 * (index + 1))) & MASK64)
    return rng.next(), rng.next()


def self_play_game(game: Any, iterations: int, deal_seed: int, agent_seed: int,
                   model: Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One self-play game; (features, targets): a row per seat per position
    from the first decision on."""
    from .._core.mcts import features_of  # type: ignore[import-not-found]
    from ..agents.searching import MCTSAgent

    agent = MCTSAgent(game, seed=agent_seed, iterations=iterations, threads=1,
                      model="none" if model is None else model)
    gamedef = game._gamedef_capsule()
    feats = game._features_capsule()
    state = game.new_initial_state(seed=deal_seed)
    rows: list[list[float]] = []
    seats: list[int] = []
    started = False
    while not state.is_terminal():
        if not state.is_chance_node():
            started = True
        if started:
            cap = state._state_capsule()
            for q in range(game.num_players):
                rows.append(features_of(gamedef, feats, cap, q))
                seats.append(q)
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        legal = state.legal_actions()
        state.apply_action(legal[0] if len(legal) == 1 else agent.step(state))
    returns = state.returns()
    x = np.asarray(rows, dtype=np.float32).reshape(len(rows), -1)
    y = np.asarray([returns[q] for q in seats], dtype=np.float64)
    return x, y


class SelfPlayJob:
    """Self-play game ``index`` of a training run (picklable: it travels to
    worker processes, which load the game once)."""

    def __init__(self, config: TrainConfig):
        self.config = config
        self._game: Any = None
        self._model: Model | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.config = state["config"]
        self._game = None
        self._model = None

    def __call__(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        if self._game is None:
            from .. import load_game
            from .model import model_from_json
            self._game = load_game(self.config.game, players=self.config.players)
            text = self.config.self_play_model
            self._model = None if text is None else model_from_json(json.loads(text))
        deal, agent = game_seeds(self.config.seed, index)
        return self_play_game(self._game, self.config.iterations, deal, agent, model=self._model)


def _self_play(config: TrainConfig, done: int, xs: list[np.ndarray], ys: list[np.ndarray],
               ckpt: Path, width: int, checkpoint_seconds: float,
               progress: Callable[[str, int, int], None] | None, before: float = 0.0,
               sittings: int = 1, **where: Any) -> int:
    """Play self-play games ``done`` to ``config.games - 1``, appending their
    samples to ``xs``/``ys`` in game order (games that finish early wait for
    the ones before them); checkpoints as :func:`train` says (with the
    self-play seconds of this sitting added to ``before``, the earlier
    sittings'). Returns the games done."""
    from ..parallel import run_jobs

    waiting: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    start = saved_at = _time.perf_counter()
    saved_done = done

    def save() -> None:
        nonlocal saved_at, saved_done
        if done > saved_done:
            _save_checkpoint(ckpt, config, done, xs, ys, width,
                             before + _time.perf_counter() - start, sittings)
            saved_at, saved_done = _time.perf_counter(), done

    first = done
    try:
        for index, sample in run_jobs(SelfPlayJob(config), range(first, config.games), **where):
            waiting[first + index] = sample
            while done in waiting:
                x, y = waiting.pop(done)
                xs.append(x)
                ys.append(y)
                done += 1
                if progress is not None:
                    progress("self-play", done, config.games)
            if _time.perf_counter() - saved_at >= checkpoint_seconds:
                save()
    finally:
        save()
    return done


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Weights ``w`` minimising the cross-entropy of ``sigmoid(x @ w)``
    against targets ``y`` in [0, 1], plus ``ridge * n * |w|^2 / 2``, by
    Newton's method (the features hold a constant column for the bias).

    >>> x = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
    >>> w = fit_logistic(x, np.array([0.0, 0.0, 1.0, 1.0]), ridge=1e-2)
    >>> bool(w[1] > 0)
    True
    """
    n, d = x.shape
    if n == 0:
        raise SolversError("no training samples")
    x64 = x.astype(np.float64)
    w = np.zeros(d)
    lam = ridge * n
    for _ in range(steps):
        z = np.clip(x64 @ w, -30, 30)
        p = 1.0 / (1.0 + np.exp(-z))
        grad = x64.T @ (p - y) + lam * w
        h = (x64 * (p * (1 - p))[:, None]).T @ x64 + lam * np.eye(d)
        step = np.linalg.solve(h, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return w


def fit_network(x: np.ndarray, y: np.ndarray, hidden: tuple[int, ...], *, seed: int,
                epochs: int = 40, batch: int = 1024, lr: float = 1e-3, decay: float = 1e-6,
                holdout: float = 0.1, patience: int = 4,
                progress: Callable[[str, int, int], None] | None = None
                ) -> tuple[list[tuple[np.ndarray, np.ndarray]], dict[str, float]]:
    """A network (:mod:`.net`: ``hidden`` ReLU layers, one logistic output)
    fitted to targets ``y`` in [0, 1] by Adam on the cross-entropy, all
    randomness from ``seed``. The last ``holdout`` of the samples (the last
    games played: the rows of one game share a result, so a random split
    would hold out near-copies of training rows) measure each epoch; the
    best epoch is kept, and the fit stops after ``patience`` epochs
    without a better one. The inputs are standardised for the fit and the
    standardisation folded into the first layer, so the network reads the
    raw features. Returns the layers and the held-out and training losses."""
    from .net import adam_fit, forward, fresh_layers

    n, d = x.shape
    n_test = int(n * holdout)
    if n - n_test < 1 or n_test < 1:
        raise SolversError(f"too few samples to fit a network ({n})")
    train, test = np.arange(n - n_test), np.arange(n - n_test, n)
    mean = x[train].astype(np.float64).mean(axis=0)
    sd = x[train].astype(np.float64).std(axis=0)
    scale = np.where(sd < 1e-6, 1.0, sd)    # a constant feature stays as it is
    xs = ((x - mean) / scale).astype(np.float32)
    target = y.astype(np.float32)[:, None]
    rng = np.random.default_rng(seed)
    layers = fresh_layers((d, *hidden, 1), rng)
    p0 = float(np.clip(target[train].mean(), 1e-6, 1 - 1e-6))
    layers[-1][1][...] = np.log(p0 / (1 - p0))      # start from the mean result

    def loss(rows: np.ndarray) -> float:
        z = forward(layers, xs[rows])[:, 0].astype(np.float64)
        return _cross_entropy(z, y[rows])

    def grad(out: np.ndarray, t: np.ndarray) -> np.ndarray:
        return (1.0 / (1.0 + np.exp(-np.clip(out, -30, 30))) - t) / len(t)

    adam_fit(layers, xs, target, train.copy(), rng=rng, loss_grad=grad,
             held_out=lambda: loss(test), epochs=epochs, batch=batch, lr=lr, decay=decay,
             patience=patience,
             progress=None if progress is None else lambda e, _err: progress("fit", e, epochs))
    report = {"held_out_log_loss": loss(test), "train_log_loss": loss(train),
              "held_out": int(n_test)}
    w0, b0 = layers[0]
    layers[0] = ((w0 / scale[:, None]).astype(np.float32),
                 (b0 - (mean / scale) @ w0).astype(np.float32))
    return layers, report


def _cross_entropy(z: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-np.clip(z, -30, 30))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """Mean cross-entropy of the model on (x, y)."""
    return _cross_entropy(x.astype(np.float64) @ w, y)


def _checkpoint_path(out: Path) -> Path:
    return out.with_name(out.name + ".ckpt.npz")


def _load_checkpoint(path: Path, config: TrainConfig
                     ) -> tuple[int, list[np.ndarray], list[np.ndarray], float, int]:
    """The games done, their samples, and the self-play seconds and
    sittings so far (0 and 0 in a checkpoint written before they were kept)."""
    try:
        with np.load(path, allow_pickle=False) as data:
            saved = json.loads(str(data["config"]))
            done = int(data["games_done"])
            x, y = data["x"], data["y"]
            seconds = float(data["seconds"]) if "seconds" in data.files else 0.0
            sittings = int(data["sittings"]) if "sittings" in data.files else 0
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SolversError(f"cannot resume from {path}: not a readable checkpoint ({e})") from None
    if saved != config.key():
        raise SolversError(f"cannot resume from {path}: it was made with {saved}, "
                           f"not {config.key()} (use the same options, or drop --resume)")
    return done, [x], [y], seconds, sittings


def _save_checkpoint(path: Path, config: TrainConfig, done: int, xs: list[np.ndarray],
                     ys: list[np.ndarray], width: int, seconds: float = 0.0,
                     sittings: int = 1) -> None:
    x = np.concatenate(xs) if xs else np.zeros((0, width), np.float32)
    y = np.concatenate(ys) if ys else np.zeros(0)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, config=json.dumps(config.key()), games_done=done, x=x, y=y,
                        seconds=seconds, sittings=sittings)
    tmp.replace(path)


def train(game_name: str, *, out: str | Path, seed: int = 0, games: int = 200, iterations: int = 300,
          players: int | None = None, resume: bool = False, eval_games: int = 40,
          eval_iterations: int | None = None, command: str = "",
          mix: float = 0.0, rollout_plies: int = 10,
          progress: Callable[[str, int, int], None] | None = None,
          checkpoint_seconds: float = 60.0, workers: int | None = 1,
          backend: str = "local", address: str | None = None,
          self_play_model: str | Path | None = None, hidden: tuple[int, ...] = ()) -> Model:
    """Train a model for ``game_name`` (see the module docstring) and save it
    at ``out``; returns it. ``progress(stage, done, total)`` is called as
    games finish (stage ``"self-play"``, then ``"strength"``). ``mix`` and
    ``rollout_plies`` are the play settings written in the model (how a
    search uses it unless told otherwise: :mod:`.model`); the defaults, a
    10-ply rollout valued by the model, measured best on Switchbacks
    (docs/learning.md). ``workers``, ``backend`` and ``address`` say where
    the self-play games and the strength match run
    (:func:`solvers.parallel.run_jobs`; None: every core); they change the
    wall time only. ``self_play_model``: a model file the self-play searches
    use, with its own play settings (a second generation: positions and
    returns from stronger play); None: plain MCTS. ``hidden``: the widths
    of a network's hidden layers (:func:`fit_network`, a model of kind
    ``"mlp"``); empty: a logistic regression (kind ``"linear"``). A checkpoint is written
    when ``checkpoint_seconds`` have passed since the last one (0: after
    every game), at the end of self-play, and when the run is stopped."""
    from .. import canonical_game_name, load_game
    from .._core.mcts import features_info  # type: ignore[import-not-found]
    from ..registry import game_info

    name = canonical_game_name(game_name)
    game = load_game(name) if players is None else load_game(name, players=players)
    if not hasattr(game, "_features_capsule"):
        raise SolversError(f"{name} has no evaluation features yet: 'solve train' needs a kernel "
                           "that offers them (_core/eval_api.h)")
    info = features_info(game._features_capsule())
    if not 0.0 <= mix <= 1.0:
        raise SolversError(f"mix must be between 0 and 1, not {mix}")
    if isinstance(rollout_plies, bool) or not isinstance(rollout_plies, int) or rollout_plies < 0:
        raise SolversError(f"rollout_plies must be a whole number >= 0, not {rollout_plies!r}")
    text = None
    if self_play_model is not None:
        from .model import load_model

        earlier = load_model(self_play_model)
        earlier.check_game(game)
        text = json.dumps(earlier.to_json(), sort_keys=True)
    config = TrainConfig(game=name, players=game.num_players, seed=int(seed), games=int(games),
                         iterations=int(iterations), mix=float(mix), rollout_plies=rollout_plies,
                         self_play_model=text)
    out = Path(out)
    ckpt = _checkpoint_path(out)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    done = 0
    before, sittings = 0.0, 0      # the self-play seconds and sittings of earlier runs
    if resume and ckpt.exists():
        done, xs, ys, before, sittings = _load_checkpoint(ckpt, config)
    elif not resume and ckpt.exists():
        ckpt.unlink()
    sittings += 1
    start = _time.perf_counter()
    if progress is not None:
        progress("self-play", min(done, games), games)
    if done < games:
        done = _self_play(config, done, xs, ys, ckpt, info["num_features"], checkpoint_seconds,
                          progress, before=before, sittings=sittings, workers=workers,
                          backend=backend, address=address)
    played = _time.perf_counter() - start
    x = np.concatenate(xs) if xs else np.zeros((0, info["num_features"]), np.float32)
    y = np.concatenate(ys) if ys else np.zeros(0)
    hidden = tuple(int(h) for h in hidden)
    if any(h < 1 for h in hidden) or len(hidden) > 7:
        raise SolversError(f"hidden layers: 1 to 7 widths of at least 1, not {list(hidden)}")
    fit: dict[str, Any] = {}
    if hidden:
        layers, fit = fit_network(x, y, hidden, seed=int(seed), progress=progress)
        weights: list[float] = []
        loss = fit["held_out_log_loss"]
    else:
        w = fit_logistic(x, y, config.ridge)
        weights, layers, loss = [float(v) for v in w], [], log_loss(x, y, w)
    names = list(getattr(game, "feature_names", ()))
    record = game_info(name)
    model = Model(
        game=name, players=game.num_players, feature_version=info["version"],
        feature_names=names, weights=weights, bias=0.0, link="logistic",
        kind="mlp" if hidden else "linear",
        layers=[(w_.tolist(), b_.tolist()) for w_, b_ in layers],
        value_sum=record.utility_sum if record.is_constant_sum(game.num_players) else 0.0,
        mix=config.mix, rollout_plies=config.rollout_plies,
        training={"command": command or f"solve train {name} --seed {seed} --games {games} "
                                        f"--iterations {iterations}",
                  "seed": int(seed), "games": int(games), "iterations": int(iterations),
                  "samples": len(y), "features": int(info["num_features"]),
                  "log_loss": round(loss, 5),
                  "self_play_seconds": round(before + played, 1), "sittings": sittings,
                  "fit_seconds": round(_time.perf_counter() - start - played, 1)},
        source=str(out))
    if hidden:
        model.training.update({"hidden": list(hidden),
                               "log_loss_is": "held out: the last tenth of the games",
                               "train_log_loss": round(fit["train_log_loss"], 5)})
    if config.self_play_model is not None:
        model.training["self_play_model"] = {"file": str(self_play_model),
                                             "sha256": config.key()["self_play_model"]}
    model.save(out)
    if eval_games > 0:
        model.strength = measure_strength(model, out, eval_games, seed,
                                          eval_iterations or iterations, progress,
                                          workers=workers, backend=backend, address=address)
        model.save(out)
    ckpt.unlink(missing_ok=True)
    return model


def measure_strength(model: Model, path: Path, games: int, seed: int, iterations: int,
                     progress: Callable[[str, int, int], None] | None = None,
                     **where: Any) -> dict[str, Any]:
    """MCTS with the model (its own play settings) in one seat against plain
    MCTS in every other seat, all at ``iterations`` a move, ``games`` games
    with seats rotated; the model's wins (a shared first place is half a
    win) with a 95% Wilson interval and its fair share (1 / seats)."""
    from ..tournament import run_tournament

    plain = f"mcts:iterations={iterations},threads=1,model=none"
    specs = [f"mcts:iterations={iterations},threads=1,model={path}"]
    specs += [plain] * (model.players - 1)
    count = [0]

    def tick(n: int = 1) -> None:
        count[0] += n
        if progress is not None:
            progress("strength", count[0], games)

    where.setdefault("workers", 1)
    r = run_tournament(model.game, specs, games, players=model.players, seed=seed + 1, **where,
                       progress=tick)
    a = r.agents[0]
    return {"opponent": plain, "opponents": model.players - 1,
            "fair_share": round(1 / model.players, 4),
            "player": specs[0].replace(str(path), "MODEL"), "games": a.games, "wins": a.wins,
            "win_rate": round(a.win_rate, 4),
            "ci95": [round(v, 4) for v in a.ci95], "seed": seed + 1}
