"""Learned evaluation models: the file format, loading and checking.

A model is a small JSON file (``docs/learning.md`` describes every field)::

    {"format": "solvers-model", "schema": 1,
     "game": "switchbacks", "players": 2,
     "features": {"version": 1, "count": 36, "names": [...]},
     "kind": "linear", "link": "logistic", "weights": [...], "bias": 0.0,
     "value_sum": 1.0,
     "play": {"mix": 1.0, "rollout_plies": 0},
     "training": {"command": "solve train switchbacks ...", "seed": 0, ...},
     "strength": {...}}

The value of seat ``q`` at a position is ``link(bias + weights . f(q))``,
``f(q)`` the game's evaluation features for ``q`` (computed in C from what
``q`` may see: ``_core/eval_api.h``). A model of kind ``"mlp"`` has, in
place of ``weights`` and ``bias``, ``"layers": [{"w": [[...], ...], "b":
[...]}, ...]``: a small network (:mod:`solvers.learn.net`), ``w`` a list of
one row per input with one number per output, ReLU between layers, the
last layer one output, so the value is ``link(network(f(q)))``. With ``value_sum`` > 0 (a
constant-sum game) a search by seat ``s`` gives ``s`` that value (clipped to
[0, 1]) as its share of ``value_sum``, so the searcher's value depends on its
own information alone, and the other seats share the rest. ``play`` holds how a search uses the
model by default: ``mix`` is the model's weight at a leaf (1: the model
alone, no rollout; between 0 and 1: blended with a rollout's result), and
``rollout_plies`` cuts rollouts after that many actions, valued there by
the model (0: to the end). The search evaluates the model in C at every
leaf, with no Python call (:class:`solvers._core.mcts.Search`).

A model that is missing, unreadable, malformed, made for another game, seat
count or feature layout is refused with one :class:`SolversError` line.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SolversError
from .net import forward

FORMAT = "solvers-model"
SCHEMA = 1
KINDS = ("linear", "mlp")
LINKS = ("logistic", "identity")

#: Model option values that are not file paths.
DEFAULT = "default"
NONE = "none"


@dataclass
class Model:
    """A learned leaf evaluation (see the module docstring)."""

    game: str
    players: int
    feature_version: int
    feature_names: list[str]
    weights: list[float]
    bias: float = 0.0
    link: str = "logistic"
    kind: str = "linear"
    value_sum: float = 0.0
    mix: float = 1.0
    rollout_plies: int = 0
    training: dict[str, Any] = field(default_factory=dict)
    strength: dict[str, Any] = field(default_factory=dict)
    source: str = "<memory>"
    #: A network's layers (kind "mlp"), each (rows: one per input, each
    #: with one weight per output; biases: one per output); empty for "linear".
    layers: list[tuple[list[list[float]], list[float]]] = field(default_factory=list)

    @property
    def num_features(self) -> int:
        return len(self.layers[0][0]) if self.layers else len(self.weights)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT, "schema": SCHEMA, "game": self.game, "players": self.players,
            "features": {"version": self.feature_version, "count": self.num_features,
                         "names": list(self.feature_names)},
            "kind": self.kind, "link": self.link}
        if self.layers:
            out["layers"] = [{"w": [[float(v) for v in row] for row in w],
                              "b": [float(v) for v in b]} for w, b in self.layers]
        else:
            out.update({"weights": [float(w) for w in self.weights], "bias": float(self.bias)})
        return out | {
            "value_sum": float(self.value_sum),
            "play": {"mix": float(self.mix), "rollout_plies": int(self.rollout_plies)},
            "training": self.training, "strength": self.strength,
        }

    def save(self, path: str | Path) -> None:
        """Write the model as JSON (a temporary file renamed into place)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n")
            tmp.replace(path)
        except OSError as e:
            raise SolversError(f"cannot write the model {path}: {e.strerror or e}") from None

    def seat_value(self, features: list[float]) -> float:
        """One seat's value from its features (before any sharing)."""
        if self.layers:
            z = float(forward([(np.asarray(w), np.asarray(b)) for w, b in self.layers],
                              np.asarray([features], np.float64))[0, 0])
        else:
            z = self.bias + sum(w * x for w, x in zip(self.weights, features, strict=True))
        if self.link == "logistic":
            z = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
        return z

    def value(self, features: list[list[float]], seat: int) -> list[float]:
        """The value vector of a position from each seat's features, for a
        search by ``seat``, as the C search computes it (for tests and
        tools): without ``value_sum`` each seat's own value; with it,
        ``seat``'s value (clipped to [0, 1]) is its share of ``value_sum`` and
        the others share the rest in proportion to their own values."""
        if self.value_sum <= 0:
            return [self.seat_value(f) for f in features]
        out = [0.0] * len(features)
        out[seat] = min(1.0, max(0.0, self.seat_value(features[seat]))) * self.value_sum
        rest = self.value_sum - out[seat]
        others = [q for q in range(len(features)) if q != seat]
        if len(others) == 1:
            out[others[0]] = rest
            return out
        vals = {q: max(1e-9, self.seat_value(features[q])) for q in others}
        total = sum(vals.values())
        for q in others:
            out[q] = vals[q] * rest / total
        return out

    def check_game(self, game: Any) -> None:
        """SolversError unless the model fits ``game`` (a built game): its
        name, seat count and feature layout."""
        from .._core.mcts import features_info  # type: ignore[import-not-found]

        if not hasattr(game, "_features_capsule"):
            raise SolversError(f"{getattr(game, 'name', 'this game')} has no evaluation features: "
                               "a learned model cannot be used with it")
        info = features_info(game._features_capsule())
        where = f"the model {self.source}"
        if info["game"] != self.game:
            raise SolversError(f"{where} is for {self.game}, not {info['game']}")
        if game.num_players != self.players:
            raise SolversError(f"{where} is for {self.players} players, not {game.num_players}")
        if info["version"] != self.feature_version or info["num_features"] != self.num_features:
            raise SolversError(
                f"{where} reads features version {self.feature_version} ({self.num_features} "
                f"features), but this kernel has version {info['version']} "
                f"({info['num_features']}): retrain it with 'solve train {self.game}'")

    def search_options(self, game: Any) -> dict[str, Any]:
        """The keywords of :class:`solvers._core.mcts.Search` for this model."""
        options: dict[str, Any] = {"features": game._features_capsule(), "link": self.link,
                                   "value_sum": self.value_sum}
        if self.layers:
            options["layers"] = self.layers
        else:
            options.update({"weights": list(self.weights), "bias": self.bias})
        return options


def _need(d: dict[str, Any], key: str, types: type | tuple[type, ...], where: str) -> Any:
    if key not in d:
        raise SolversError(f"{where}: no {key!r} field")
    v = d[key]
    if isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise SolversError(f"{where}: {key!r} has the wrong type")
    if not isinstance(v, types):
        raise SolversError(f"{where}: {key!r} has the wrong type")
    return v


def _number(d: dict[str, Any], key: str, where: str, default: float | None = None) -> float:
    if key not in d and default is not None:
        return default
    v = _need(d, key, (int, float), where)
    if not math.isfinite(v):
        raise SolversError(f"{where}: {key!r} is not a finite number")
    return float(v)


def model_from_json(raw: Any, source: str = "<memory>") -> Model:
    """A :class:`Model` from decoded JSON; SolversError (one line) when the
    content is not a valid model."""
    where = f"model {source}"
    if not isinstance(raw, dict):
        raise SolversError(f"{where}: not a model file (a JSON object expected)")
    if raw.get("format") != FORMAT:
        raise SolversError(f"{where}: not a model file (no \"format\": \"{FORMAT}\")")
    if raw.get("schema") != SCHEMA:
        raise SolversError(f"{where}: schema {raw.get('schema')!r} is not {SCHEMA}")
    game = _need(raw, "game", str, where)
    players = _need(raw, "players", int, where)
    feats = _need(raw, "features", dict, where)
    version = _need(feats, "version", int, where)
    count = _need(feats, "count", int, where)
    names = feats.get("names", [])
    kind = _need(raw, "kind", str, where)
    if kind not in KINDS:
        raise SolversError(f"{where}: unknown kind {kind!r} (known: {', '.join(KINDS)})")
    link = _need(raw, "link", str, where)
    if link not in LINKS:
        raise SolversError(f"{where}: unknown link {link!r} (known: {', '.join(LINKS)})")
    if count < 1:
        raise SolversError(f"{where}: a model reads at least one feature, not {count}")
    layers: list[tuple[list[list[float]], list[float]]] = []
    if kind == "mlp":
        layers = _layers(raw, count, where)
        weights: list[Any] = []
    else:
        weights = _need(raw, "weights", list, where)
        if len(weights) != count:
            raise SolversError(f"{where}: {len(weights)} weights for {count} features")
        if not all(_finite(w) for w in weights):
            raise SolversError(f"{where}: the weights must be finite numbers")
    if not isinstance(names, list) or (names and len(names) != count):
        raise SolversError(f"{where}: 'names' must list one name per feature")
    play = raw.get("play", {})
    if not isinstance(play, dict):
        raise SolversError(f"{where}: 'play' has the wrong type")
    mix = _number(play, "mix", where, 1.0)
    if not 0.0 <= mix <= 1.0:
        raise SolversError(f"{where}: play mix must be between 0 and 1, not {mix}")
    plies = play.get("rollout_plies", 0)
    if isinstance(plies, bool) or not isinstance(plies, int) or plies < 0:
        raise SolversError(f"{where}: play rollout_plies must be a whole number >= 0")
    value_sum = _number(raw, "value_sum", where, 0.0)
    if value_sum < 0:
        raise SolversError(f"{where}: value_sum must be >= 0")
    training = raw.get("training", {})
    strength = raw.get("strength", {})
    if not isinstance(training, dict) or not isinstance(strength, dict):
        raise SolversError(f"{where}: 'training' and 'strength' must be objects")
    return Model(game=game, players=players, feature_version=version, feature_names=list(names),
                 weights=[float(w) for w in weights], bias=_number(raw, "bias", where, 0.0),
                 link=link, kind=kind, value_sum=value_sum, mix=mix, rollout_plies=plies,
                 training=training, strength=strength, source=source, layers=layers)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _layers(raw: dict[str, Any], count: int, where: str) -> list[tuple[list[list[float]], list[float]]]:
    """A network's layers, checked: the first reads ``count`` features, each
    next one the last's outputs, the last has one output, every number is
    finite, and there are no more layers and numbers than the C search
    takes (``MAX_NET_LAYERS``, ``MAX_NET_PARAMS``)."""
    from .._core.mcts import MAX_NET_LAYERS, MAX_NET_PARAMS  # type: ignore[import-not-found]

    spec = _need(raw, "layers", list, where)
    if not 1 <= len(spec) <= MAX_NET_LAYERS:
        raise SolversError(f"{where}: a network needs 1 to {MAX_NET_LAYERS} layers, "
                           f"not {len(spec)}")
    layers = []
    inputs, total = count, 0
    for k, layer in enumerate(spec):
        if not isinstance(layer, dict):
            raise SolversError(f"{where}: layer {k} is not an object with 'w' and 'b'")
        w = _need(layer, "w", list, f"{where}: layer {k}")
        b = _need(layer, "b", list, f"{where}: layer {k}")
        total += len(b) * (inputs + 1)
        if total > MAX_NET_PARAMS:
            raise SolversError(f"{where}: the network has more than {MAX_NET_PARAMS} numbers")
        if (len(w) != inputs or not b
                or not all(isinstance(row, list) and len(row) == len(b) for row in w)):
            raise SolversError(f"{where}: layer {k} does not read {inputs} inputs into "
                               f"{len(b)} outputs")
        if not all(_finite(v) for v in b) or not all(_finite(v) for row in w for v in row):
            raise SolversError(f"{where}: layer {k}'s numbers must be finite")
        layers.append(([[float(v) for v in row] for row in w], [float(v) for v in b]))
        inputs = len(b)
    if inputs != 1:
        raise SolversError(f"{where}: the network's last layer has {inputs} outputs, not 1")
    return layers


def load_model(path: str | Path) -> Model:
    """Read and check a model file; SolversError (one line) when it is
    missing, unreadable or not a valid model."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise SolversError(f"model file {path} not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SolversError(f"cannot read the model file {path}: {getattr(e, 'strerror', None) or e}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        raise SolversError(f"model {path}: not valid JSON (line {e.lineno}: {e.msg})") from None
    return model_from_json(raw, str(path))


def shipped_model_path(game: Any) -> Path | None:
    """The model file the package ships for ``game`` (a built game), from its
    record's ``model`` field (a ``"package:file"`` resource, ``{players}`` in
    the file name standing for the seat count); None when it ships none, or
    when the game was built from data of the user's own (``game.custom_data``:
    a card file other than the package's), which the model never saw, or is
    the pure-Python reference (no C features)."""
    from ..registry import game_info

    try:
        info = game_info(getattr(game, "name", ""))
    except SolversError:
        return None
    if getattr(game, "custom_data", False) or not hasattr(game, "_features_capsule"):
        return None     # other cards than the model saw, or the pure-Python reference
    spec = getattr(info, "model", None)
    if not spec:
        return None
    package, _, name = spec.partition(":")
    name = name.format(players=game.num_players)
    try:
        path = Path(str(resources.files(package).joinpath(name)))
    except (ModuleNotFoundError, TypeError):
        return None
    return path if path.is_file() else None


def resolve_model(spec: Any, game: Any) -> Model | None:
    """The model a ``model=`` option names for ``game``: ``"none"`` (or
    None): no model; ``"default"``: the one the package ships for the game
    and seat count (SolversError when it ships none); anything else: a file
    path. The model is checked against the game."""
    if spec is None or (isinstance(spec, str) and spec.strip().lower() == NONE):
        return None
    if isinstance(spec, Model):
        model = spec
    elif not isinstance(spec, str) or not spec.strip():
        raise SolversError(f"model must be a file, 'default' or 'none', not {spec!r}")
    elif spec.strip().lower() == DEFAULT:
        path = shipped_model_path(game)
        if path is None:
            raise SolversError(f"no model ships for {getattr(game, 'name', 'this game')} with "
                               f"{game.num_players} players: train one with 'solve train', "
                               "or play with model=none")
        model = load_model(path)
    else:
        model = load_model(spec.strip())
    model.check_game(game)
    return model


def default_model(game: Any) -> Model | None:
    """The shipped model of ``game`` when there is one (checked), else None:
    what an MCTS agent uses when its ``model`` option is not given."""
    path = shipped_model_path(game)
    if path is None:
        return None
    model = load_model(path)
    model.check_game(game)
    return model
