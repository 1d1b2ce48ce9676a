"""Game records: a played game as JSON, written through one seat's eyes.

A **game record** holds every step of a game (each player's move and each
chance outcome) as the recording ``seat`` saw it (``seat`` null: the
referee, who sees everything)::

    {"format": "solvers-record", "version": 1, "game": "switchbacks",
     "players": 2, "options": {}, "seat": 0, "names": ["you", "mcts"],
     "steps": [{"mover": "chance", "move": "...", "action": 12, "position": {...}}, ...],
     "final": {"position": {...}, "returns": [1.0, 0.0]}}

Each step holds who moved (a player index or ``"chance"``), the move as the
seat reads it (:func:`solvers.game.observed_move`: a card dealt to another
hand reads "deal a card to player 1"), its action id (null when the seat does
not see the move whole) and the position before the move: the game's own
position format (:class:`solvers.registry.PositionFormat`) of
:func:`solvers.agents.base.seat_view` of the state, or of the state itself
for a referee record; null when the game has no format of its own or the
format cannot express that moment. A game can name its own seat-view format
(``GameInfo.record_view``); any kernel game can name the generic one,
:func:`save_kernel_view` / :func:`load_kernel_view`, the compressed struct
of the view (Coast to Coast and Santa Cruz do). ``final`` is the position
after the last step and, when the game ended, its ``returns``. An optional
``meta`` object carries what the writer adds (the date, the AI's spec); it
must hold nothing the seat may not see.

Nothing in a seat's record depends on what the seat cannot see: two games
that differ only there give byte-identical files (:func:`dumps`).

:meth:`Record.state_at` rebuilds the state before any step: a referee
record replays the actions from the start (exact); a seat record loads the
step's position, or replays the seat's visible actions from the last step
it can rebuild, and gives the seat's view. A game whose
``GameInfo.record_stand_ins`` is set replays a move hidden from the seat on
the way with a stand-in: the first legal move the seat reads in the same
words.

    >>> import solvers
    >>> game = solvers.load_game("santacruz", players=2)
    >>> state = game.new_initial_state(seed=3)
    >>> rec = Recorder(game, state, seat=0, names=["you", "AI"])
    >>> for _ in range(6):
    ...     a = state.seeded_outcome() if state.is_chance_node() else state.legal_actions()[0]
    ...     rec.step(state, a); state.apply_action(a)
    >>> record = load_record(rec.to_json(state))
    >>> record.game, len(record.steps), record.seat
    ('santacruz', 6, 0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from .errors import SolversError
from .game import CHANCE, Game, State, observed_move

FORMAT = "solvers-record"
VERSION = 1
#: Most steps a record may hold (far above any game of the library).
MAX_STEPS = 20_000
KEYS = ("format", "version", "game", "players", "options", "seat", "names", "steps", "final", "meta")
STEP_KEYS = ("mover", "move", "action", "position")


def _is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _info(name: str) -> Any:
    from .registry import game_info

    return game_info(name)


def _view(state: State, seat: int | None) -> State:
    from .agents.base import seat_view

    return state.clone() if seat is None else seat_view(state, seat)


def _save_position(name: str, state: State, seat: int | None) -> dict[str, Any] | None:
    """The game's own position of ``seat``'s view of ``state`` (of the state
    for a referee), or None: no format, or none at this moment."""
    info = _info(name)
    if info.record_view is not None:
        from .registry import load_object

        return load_object(info.record_view.save)(state, seat)
    native = info.native_format()
    if native is None:
        return None
    try:
        return native[1](_view(state, seat))
    except SolversError:        # a moment the format (or the view) cannot express
        return None


#: The ``view`` tag of a kernel-raw position (:func:`save_kernel_view`).
KERNEL_VIEW = "kernel-raw"
KERNEL_VIEW_KEYS = ("view", "bytes", "data", "check")
#: Most bytes a kernel view's struct may have (far above any kernel's).
MAX_VIEW_BYTES = 1 << 20


def record_key() -> bytes:
    """This installation's secret for kernel views: 32 random bytes kept in
    ``record-key`` under ``$SOLVERS_CONFIG_DIR`` (default
    ``$XDG_CONFIG_HOME/solvers``, else ``~/.config/solvers``), made on first
    use, readable by its owner only. Where that folder cannot be written the
    key lives as long as the process.

    A kernel reads a raw struct without checking its fields, so a forged one
    could make it read or write outside its arrays. A kernel view is
    therefore loaded only when its ``check`` is this key's HMAC of the
    struct: records this installation wrote (in the terminal, the web app or
    the Python API) replay their views; a view from elsewhere, or edited, is
    refused in one line and never reaches the kernel.
    """
    global _KEY
    if _KEY is not None:
        return _KEY
    import os
    import secrets

    folder = os.environ.get("SOLVERS_CONFIG_DIR") or os.path.join(
        os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config"), "solvers")
    path = os.path.join(folder, "record-key")
    try:
        with open(path, encoding="ascii") as f:
            key = bytes.fromhex(f.read().strip())
        if len(key) < 16:
            raise ValueError("short key")
    except (OSError, ValueError):
        key = secrets.token_bytes(32)
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd = os.open(path + ".tmp", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(key.hex() + "\n")
            os.replace(path + ".tmp", path)
        except OSError:
            pass                      # a key for this process only
    _KEY = key
    return key


_KEY: bytes | None = None


def _digest(blob: bytes) -> str:
    """The ``check`` of a kernel view: this installation's HMAC-SHA256 of
    the struct (:func:`record_key`), its first 32 hex digits."""
    import hashlib
    import hmac

    return hmac.new(record_key(), blob, hashlib.sha256).hexdigest()[:32]


def save_kernel_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """A ``GameInfo.record_view`` save for any game on a C kernel: the
    struct of ``seat``'s view (:func:`solvers.agents.base.seat_view`),
    zlib-compressed in base64, its length and a ``check``, this
    installation's HMAC of it (:func:`record_key`); a referee record (``seat`` None) keeps the
    game's own position format (or none), as without the hook.

    The view re-deals everything the seat cannot see from a fixed seed and
    has no history, so its struct holds nothing the seat may not know, and
    two games the seat cannot tell apart give the same bytes.

        >>> import solvers
        >>> game = solvers.load_game("c2c", players=2)
        >>> state = game.new_initial_state(seed=1)
        >>> state.apply_seeded_chance()
        >>> pos = save_kernel_view(state, 0)
        >>> pos["view"], pos["bytes"] == len(state._raw())
        ('kernel-raw', True)
        >>> back = load_kernel_view(pos, game)
        >>> back.information_state(0) == state.information_state(0)
        True
    """
    if seat is None:
        native = _info(state.game.name).native_format()
        if native is None:
            return None
        try:
            return native[1](state.clone())
        except SolversError:
            return None
    import base64
    import zlib

    blob = bytes(_view(state, seat)._raw())
    return {"view": KERNEL_VIEW, "bytes": len(blob),
            "data": base64.b64encode(zlib.compress(blob, 9)).decode("ascii"), "check": _digest(blob)}


def load_kernel_view(raw: dict[str, Any], game: Game) -> State:
    """The state of a position :func:`save_kernel_view` wrote (a game's own
    position, without the ``view`` tag, is read by the game's format), on
    ``game`` (the record's built game: the kernel's ``state_from_raw``).
    SolversError, one line, for a blob that is not one of this game's
    structs (wrong length, not base64, checksum off)."""
    if raw.get("view") is None:
        native = _info(game.name).native_format()
        if native is None:
            raise SolversError("the game has no position format of its own")
        return native[0](raw)
    import base64
    import binascii
    import zlib

    if raw.get("view") != KERNEL_VIEW:
        raise SolversError(f"unknown view {raw.get('view')!r} (this version reads {KERNEL_VIEW!r})")
    bad = [k for k in raw if k not in KERNEL_VIEW_KEYS]
    if bad:
        raise SolversError(f"unknown key {bad[0]!r} in a kernel view")
    data, size, check = raw.get("data"), raw.get("bytes"), raw.get("check")
    if not isinstance(data, str) or not _is_int(size) or not isinstance(check, str):
        raise SolversError("a kernel view has 'data' (base64), 'bytes' (its length) and 'check'")
    try:
        packed = base64.b64decode(data.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise SolversError("the kernel view's 'data' is not base64") from None
    if not 0 < size <= MAX_VIEW_BYTES:
        raise SolversError(f"a kernel view of {size} bytes is not one of a game's states")
    try:
        blob = zlib.decompressobj().decompress(packed, size + 1)
    except zlib.error:
        raise SolversError("the kernel view's 'data' is not a compressed state") from None
    if len(blob) != size:
        raise SolversError(f"the kernel view holds {len(blob)} bytes, not {size}")
    import hmac

    if not hmac.compare_digest(_digest(blob), check):
        raise SolversError("the kernel view's 'data' does not match its 'check': the file was "
                           "changed, or written by another installation (kernel views are read "
                           "only from records this one wrote)")
    from_raw = getattr(game, "state_from_raw", None)
    if from_raw is None:
        raise SolversError(f"{game.name} is not on a kernel that reads raw states")
    state = from_raw(blob)
    if isinstance(getattr(state, "history", None), list):
        state.history = []
    if hasattr(state, "seed"):
        try:
            state.seed = None
        except (AttributeError, TypeError):
            pass
    return state


def _json_ready(value: Any, what: str) -> Any:
    """``value`` after a JSON round trip (SolversError if it has no JSON form)."""
    try:
        return json.loads(json.dumps(value, allow_nan=False))
    except (TypeError, ValueError) as e:
        raise SolversError(f"record: {what} is not JSON ({str(e).splitlines()[0]})") from None


def _clean_options(options: dict[str, Any] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in (options or {}).items():
        if value is None:
            continue
        if not isinstance(value, (str, int, float, bool, dict)):
            raise SolversError(f"record: option {key!r} should be a path, a value or a file's content "
                               f"(not a {type(value).__name__})")
        out[key] = value
    return _json_ready(out, "options")


class Recorder:
    """Writes a record as a game is played.

    ``game`` is the built game, ``state`` its state at the start (before the
    first step); ``seat`` whose eyes the record is written through (None:
    the referee), ``names`` one name per player, ``meta`` extra JSON the
    writer keeps, ``options`` the game's options as :func:`solvers.load_game`
    took them (JSON values or a data file's path; needed to rebuild the
    game). Call :meth:`step` before each action is applied, then
    :meth:`to_json` with the state reached.
    """

    def __init__(self, game: Game, state: State, seat: int | None = None,
                 names: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
                 options: dict[str, Any] | None = None):
        self.game = game
        self.name = _info(game.name).name
        players = game.num_players
        if seat is not None and not (_is_int(seat) and 0 <= seat < players):
            raise SolversError(f"record: seat should be a player index 0-{players - 1} or None")
        self.seat = seat
        if names is None:
            names = [f"player {p}" for p in range(players)]
        names = [str(n) for n in names]
        if len(names) != players:
            raise SolversError(f"record: {players} names needed, not {len(names)}")
        self.names = names
        self.meta = None if meta is None else _json_ready(meta, "meta")
        self.options = _clean_options(options)
        self.steps: list[dict[str, Any]] = []
        self._start = _save_position(self.name, state, seat)

    def step(self, state: State, action: int) -> None:
        """Record ``action``, about to be applied to ``state``."""
        if len(self.steps) >= MAX_STEPS:
            raise SolversError(f"record: more than {MAX_STEPS} steps")
        player = state.current_player()
        mover: int | str = "chance" if player == CHANCE else int(player)
        seen = self.seat is None or _sees(state, action, self.seat)
        position = (self._start if not self.steps and self._start is not None
                    else _save_position(self.name, state, self.seat))
        self.steps.append({
            "mover": mover,
            "move": observed_move(state, action, self.seat),
            "action": int(action) if seen else None,
            "position": position,
        })

    def to_json(self, state: State) -> dict[str, Any]:
        """The record, as a JSON-ready dict, with ``state`` the position reached."""
        final: dict[str, Any] = {"position": _save_position(self.name, state, self.seat)}
        if state.is_terminal():
            final["returns"] = [float(r) for r in state.returns()]
        record: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.name,
            "players": self.game.num_players, "options": self.options, "seat": self.seat,
            "names": list(self.names), "steps": [dict(s) for s in self.steps], "final": final,
        }
        if self.meta is not None:
            record["meta"] = self.meta
        return record


def _sees(state: State, action: int, seat: int) -> bool:
    observe = getattr(state, "action_observation", None)
    return observe is None or observe(action, seat) == action


def record_game(game: Game, actions: Sequence[int], seat: int | None = None,
                names: Sequence[str] | None = None, meta: dict[str, Any] | None = None,
                options: dict[str, Any] | None = None, seed: int | None = 0) -> dict[str, Any]:
    """The record (a dict) of the game ``actions`` play from the start of
    ``game`` (``new_initial_state(seed)``), chance outcomes included.
    SolversError (one line) naming the first illegal action."""
    state = game.new_initial_state(seed=seed)
    rec = Recorder(game, state, seat=seat, names=names, meta=meta, options=options)
    for i, action in enumerate(actions):
        _check_legal(state, action, f"record: step {i}")
        rec.step(state, action)
        state.apply_action(action)
    return rec.to_json(state)


def _legal(state: State) -> list[int]:
    if state.is_terminal():
        return []
    if state.is_chance_node():
        return [a for a, _ in state.chance_outcomes()]
    return list(state.legal_actions())


def _words(text: str) -> str:
    return " ".join(text.lower().split())


def _stand_in(state: State, move: str, seat: int) -> int | None:
    """The first legal move (or chance outcome) of ``state`` that ``seat``
    reads as ``move``, or None."""
    if state.is_terminal():
        return None
    want = _words(move)
    for action in _legal(state):
        if _words(observed_move(state, action, seat)) == want:
            return action
    return None


def _check_legal(state: State, action: Any, where: str) -> None:
    if state.is_terminal():
        raise SolversError(f"{where}: the game is already over")
    if not _is_int(action) or action not in _legal(state):
        raise SolversError(f"{where}: action {action!r} is not legal there")


def dumps(record: dict[str, Any]) -> str:
    """A record's text as :func:`save_record` writes it (stable: the same
    record gives the same bytes)."""
    return json.dumps(record, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def save_record(path: str | Path, record: Any) -> str:
    """Write a record (a dict or :class:`Record`) to ``path`` all at once (a
    failure leaves no half a file); the absolute path written. SolversError
    (one line) when it cannot be written."""
    from .files import write_atomic

    if isinstance(record, Record):
        record = record.to_json()
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise SolversError("save_record takes a game record (Recorder.to_json)")
    try:
        text = dumps(record)
    except (TypeError, ValueError) as e:
        raise SolversError(f"record: not JSON ({str(e).splitlines()[0]})") from None
    return write_atomic(path, text, "game record")


@dataclass(frozen=True)
class Step:
    """One step of a record (see the module docstring)."""

    mover: int | str
    move: str
    action: int | None
    position: dict[str, Any] | None

    @property
    def is_chance(self) -> bool:
        return self.mover == "chance"

    def to_json(self) -> dict[str, Any]:
        return {"mover": self.mover, "move": self.move, "action": self.action, "position": self.position}


class Record:
    """A loaded, checked record (:func:`load_record`).

    ``game`` is the game's short name, ``players``, ``options``, ``seat``,
    ``names``, ``steps`` (:class:`Step`), ``final``, ``meta`` as in the
    file; :attr:`game_object` the built game. :meth:`state_at` gives the
    state before a step, :meth:`decisions` the steps a review judges.
    """

    def __init__(self, raw: dict[str, Any], source: str = "record"):
        self.source = source
        self.game: str = raw["game"]
        self.players: int = raw["players"]
        self.options: dict[str, Any] = raw["options"]
        self.seat: int | None = raw["seat"]
        self.names: list[str] = raw["names"]
        self.steps: list[Step] = [Step(**s) for s in raw["steps"]]
        self.final: dict[str, Any] = raw["final"]
        self.meta: dict[str, Any] | None = raw.get("meta")
        self.info = _info(self.game)
        self._game: Game | None = None
        self._states: dict[int, State] = {}

    # ------------------------------------------------------------ reading
    @property
    def game_object(self) -> Game:
        """The built (kernel) game of the record's options."""
        if self._game is None:
            import solvers

            try:
                self._game = solvers.load_game(self.game, self.players, **self.options)
            except TypeError as e:
                raise SolversError(f"{self.source}: bad options ({str(e).splitlines()[0]})") from None
        return self._game

    @property
    def returns(self) -> list[float] | None:
        """The final returns, or None when the game did not end."""
        return self.final.get("returns")

    def decisions(self) -> list[int]:
        """The indices of the steps that are decisions of the recording seat
        (every player's for a referee record) with the action known."""
        return [i for i, s in enumerate(self.steps)
                if not s.is_chance and s.action is not None and (self.seat is None or s.mover == self.seat)]

    def state_at(self, i: int) -> State:
        """The state before step ``i`` (``i == len(steps)``: after the last),
        a fresh copy: the whole state for a referee record, the seat's view
        (:func:`solvers.agents.base.seat_view`) for a seat record.
        SolversError when a seat record holds neither the step's position
        nor the moves that lead there from one it can rebuild."""
        if not _is_int(i) or not 0 <= i <= len(self.steps):
            raise SolversError(f"{self.source}: no step {i!r} (the record has {len(self.steps)})")
        return _view(self._rebuild(i), self.seat)

    def _position(self, i: int) -> dict[str, Any] | None:
        return self.final.get("position") if i == len(self.steps) else self.steps[i].position

    def _loader(self) -> Any:
        """``dict -> State`` for the record's positions, or None."""
        view = self.info.record_view
        if view is not None:
            from .registry import load_object

            load = load_object(view.load)
            return lambda raw: load(raw, self.game_object)
        native = self.info.native_format()
        return None if native is None else native[0]

    def _rebuild(self, i: int) -> State:
        """A state whose view (or itself, for a referee) is the state before step i."""
        if i in self._states:
            return self._states[i]
        native = self._loader()
        base: State | None = None
        j = i
        if self.seat is not None:
            # Back to the nearest step with a position, or the start, with
            # every action on the way known (or a stand-in for it).
            stand_ins = self.info.record_stand_ins
            while j > 0 and self._position(j) is None and j not in self._states \
                    and (stand_ins or self.steps[j - 1].action is not None):
                j -= 1
            if j in self._states:
                base = self._states[j]
            elif self._position(j) is not None and native is not None:
                try:
                    base = native(self._position(j))
                except SolversError as e:
                    raise SolversError(f"{self.source}: step {j}: bad position ({e})") from None
                except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
                    raise SolversError(f"{self.source}: step {j}: bad position "
                                       f"({type(e).__name__})") from None
            elif j == 0:
                base = self.game_object.new_initial_state(seed=0)
            else:
                raise SolversError(f"{self.source}: step {i}: the record holds no position there, "
                                   f"and a hidden move comes before it")
        else:
            while j > 0 and j not in self._states:
                j -= 1
            base = self._states[j] if j in self._states else self.game_object.new_initial_state(seed=0)
        state = base.clone()
        self._states.setdefault(j, base)
        for k in range(j, i):
            action = self.steps[k].action
            if action is None and self.seat is not None and self.info.record_stand_ins:
                action = _stand_in(state, self.steps[k].move, self.seat)
                if action is None:
                    raise SolversError(f"{self.source}: step {i}: the record holds no position there, "
                                       f"and no move reads as step {k}'s {self.steps[k].move!r}")
            if action is None:
                raise SolversError(f"{self.source}: step {k}: the move is hidden, so step {i} "
                                   "cannot be rebuilt")
            if self.seat is None:
                _check_legal(state, action, f"{self.source}: step {k}")
            elif state.is_terminal() or action not in _legal(state):
                raise SolversError(f"{self.source}: step {i}: the record holds no position there, and "
                                   f"step {k} cannot be replayed on the seat's view")
            state.apply_action(action)
            self._states[k + 1] = state.clone()
        return state

    def check(self) -> None:
        """Replay the record and raise SolversError (one line) at the first
        step that does not fit: an illegal action, a move whose words are
        not the action's, who moves, the final returns."""
        for i, step in enumerate(self.steps):
            try:
                state = self._rebuild(i)
            except SolversError:
                if self.seat is not None:
                    continue          # a seat record may not rebuild every step
                raise
            where = f"{self.source}: step {i}"
            if state.is_terminal():
                raise SolversError(f"{where}: the game is already over")
            player = state.current_player()
            mover = "chance" if player == CHANCE else player
            if self.seat is None or step.action is not None:
                if step.mover != mover:
                    raise SolversError(f"{where}: the mover is {mover!r}, not {step.mover!r}")
            # In a seat record only the seat's own moves are checked: the
            # view re-deals the other hands and the stack the others draw from.
            if step.action is not None and (self.seat is None or step.mover == self.seat):
                _check_legal(state, step.action, where)
                text = observed_move(state, step.action, self.seat)
                if _words(text) != _words(step.move):
                    raise SolversError(f"{where}: move {step.move!r} is not action {step.action} "
                                       f"({text!r})")
        if self.seat is None:
            end = self._rebuild(len(self.steps))
            if end.is_terminal() and self.returns is not None:
                if [round(float(r), 6) for r in end.returns()] != [round(float(r), 6) for r in self.returns]:
                    raise SolversError(f"{self.source}: the final returns are not the game's")

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (as the file holds it)."""
        record: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "players": self.players,
            "options": self.options, "seat": self.seat, "names": list(self.names),
            "steps": [s.to_json() for s in self.steps], "final": self.final,
        }
        if self.meta is not None:
            record["meta"] = self.meta
        return record

    def __len__(self) -> int:
        return len(self.steps)

    def __repr__(self) -> str:
        return f"<Record {self.game} players={self.players} seat={self.seat} steps={len(self.steps)}>"


# ---------------------------------------------------------------- loading
def _validate(raw: Any, source: str) -> dict[str, Any]:
    def fail(what: str) -> SolversError:
        return SolversError(f"{source}: {what}")

    if not isinstance(raw, dict):
        raise fail("a game record is a JSON object")
    if raw.get("format") != FORMAT:
        raise fail(f"not a game record ('format' should be {FORMAT!r})")
    if raw.get("version") != VERSION:
        raise fail(f"record version {raw.get('version')!r} is not known (this version reads {VERSION})")
    unknown = [k for k in raw if k not in KEYS]
    if unknown:
        raise fail(f"unknown key {unknown[0]!r}")
    for key in ("game", "players", "steps", "final"):
        if key not in raw:
            raise fail(f"missing key {key!r}")
    if not isinstance(raw["game"], str):
        raise fail("'game' should be a game name")
    info = _info(raw["game"])
    players = raw["players"]
    if not _is_int(players) or not info.min_players <= players <= info.max_players:
        raise fail(f"'players' should be {info.min_players}-{info.max_players} for {info.name}")
    options = raw.get("options") or {}
    if not isinstance(options, dict):
        raise fail("'options' should be an object")
    try:
        info.check_options(options)
    except SolversError as e:
        raise fail(str(e)) from None
    seat = raw.get("seat")
    if seat is not None and not (_is_int(seat) and 0 <= seat < players):
        raise fail(f"'seat' should be null or a player index 0-{players - 1}")
    names = raw.get("names")
    if names is None:
        names = [f"player {p}" for p in range(players)]
    if not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names):
        raise fail(f"'names' should be a list of {players} strings")
    steps = raw["steps"]
    if not isinstance(steps, list):
        raise fail("'steps' should be a list")
    if len(steps) > MAX_STEPS:
        raise fail(f"more than {MAX_STEPS} steps")
    clean = []
    for i, s in enumerate(steps):
        if not isinstance(s, dict):
            raise fail(f"step {i} should be an object")
        bad = [k for k in s if k not in STEP_KEYS]
        if bad:
            raise fail(f"step {i}: unknown key {bad[0]!r}")
        mover = s.get("mover")
        if not (mover == "chance" or (_is_int(mover) and 0 <= mover < players)):
            raise fail(f"step {i}: 'mover' should be 'chance' or a player index")
        if not isinstance(s.get("move"), str):
            raise fail(f"step {i}: 'move' should be a string")
        action = s.get("action")
        if action is not None and not _is_int(action):
            raise fail(f"step {i}: 'action' should be an action id or null")
        if seat is None and action is None:
            raise fail(f"step {i}: a referee record (seat null) knows every action")
        position = s.get("position")
        if position is not None and not isinstance(position, dict):
            raise fail(f"step {i}: 'position' should be an object or null")
        clean.append({"mover": mover, "move": s["move"], "action": action, "position": position})
    final = raw["final"]
    if not isinstance(final, dict):
        raise fail("'final' should be an object")
    if final.get("position") is not None and not isinstance(final["position"], dict):
        raise fail("'final': 'position' should be an object or null")
    returns = final.get("returns")
    if returns is not None and (not isinstance(returns, list) or len(returns) != players
                                or not all(isinstance(r, (int, float)) and not isinstance(r, bool)
                                           for r in returns)):
        raise fail(f"'final': 'returns' should be {players} numbers")
    meta = raw.get("meta")
    if meta is not None and not isinstance(meta, dict):
        raise fail("'meta' should be an object")
    out = {"game": info.name, "players": players, "options": dict(options), "seat": seat,
           "names": list(names), "steps": clean, "final": dict(final)}
    if meta is not None:
        out["meta"] = meta
    return out


def is_history_position(raw: Any) -> bool:
    """Whether ``raw`` is an engine history position (``game`` and
    ``moves``: the format ``solve c2c play --save`` wrote before records)."""
    return isinstance(raw, dict) and "format" not in raw and "moves" in raw and "game" in raw


def from_history_position(raw: dict[str, Any]) -> dict[str, Any]:
    """The referee record of an engine history position (its moves replayed
    from its seed; :mod:`solvers.engine.positions`)."""
    from .engine.positions import load_position

    setup, state, _ = load_position(raw)
    if "start" in setup:
        raise SolversError("a position with a 'start' is not a played game: it has no record")
    history = list(state.history)
    game = state.game
    return record_game(game, history, seat=None, options=setup["options"], seed=setup["seed"])


def load_record(path_or_dict: str | Path | dict[str, Any] | Record, check: bool = True) -> Record:
    """A record from a file or a decoded dict, checked (``check``: replayed
    too, :meth:`Record.check`). An engine history position (the old saved
    game format) is converted. SolversError, one line, for anything wrong."""
    if isinstance(path_or_dict, Record):
        return path_or_dict
    if isinstance(path_or_dict, dict):
        raw, source = path_or_dict, "record"
    elif isinstance(path_or_dict, (str, Path)):
        from .data import read_json

        source = str(path_or_dict)
        raw = read_json(path_or_dict, "game record")
    else:
        raise SolversError("load_record takes a path or a decoded record")
    try:
        if is_history_position(raw):
            try:
                raw = from_history_position(raw)
            except SolversError as e:
                raise SolversError(f"{source}: {e}") from None
        record = Record(_validate(raw, source), source)
        if check:
            record.check()
    except RecursionError:
        raise SolversError(f"{source}: nested too deeply to read") from None
    return record


__all__ = ["FORMAT", "VERSION", "KERNEL_VIEW", "save_kernel_view", "load_kernel_view", "Recorder",
           "Record", "Step", "record_game", "save_record", "load_record", "dumps",
           "from_history_position", "is_history_position"]
