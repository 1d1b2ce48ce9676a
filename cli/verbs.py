"""The commands every game has, written once: ``play``, ``analyse``,
``endgame``, ``score`` and ``review``.

:func:`game_group` builds ``solve NAME`` from the game's record
(:class:`solvers.registry.GameInfo`), adding to the game's own group (its
``cli``, for commands only that game has) every verb the group lacks. What
a verb needs of a game comes from the record:

* ``renderer``: a module with ``draw(state, seat, color) -> str`` (``seat``
  None draws everything, otherwise only what that seat may see), and
  optionally ``intro(game, seat)``, ``outro(state, seat)`` (text shown when
  a game starts and after its final scores), ``value_words(game, value)``
  (what an AI's value means in this game), ``value_note(game)`` (that
  explained once, with the first hint), ``seat_label(seat)`` (how the board
  names a seat), ``default_ai(game)`` (the AI spec without --ai) and
  ``commands(state, seat)`` (a dict of extra words understood at the
  prompt, each ``rest -> text``, its docstring the help line),
  ``READS_NUMBERS`` (True: a bare number typed is handed to the move reader,
  as a Santa Cruz site; otherwise it is the listed move of that number) and
  ``read_plan(state, text) -> [action, ...]`` (a line naming several moves
  in a row, played one after another: Big Sur's discards) and ``HELP``
  (a line on what the move reader understands, shown by ``help``);
* ``move_reader``: ``"module:function"`` ``(state, text) -> action``,
  SolversError (one line) for a move it cannot read;
* ``breakdown``: ``"module:function"`` ``(state) -> rows per player``;
* the options: a game option that names a data file is ``--data FILE``
  (its old name stays as a hidden alias), every other one ``--NAME``.

A position (``analyse``, ``endgame``, ``score``) is a JSON file: a saved
game (``solvers.record``; its last position), the engine's history
position (``{"game": ..., "moves": [...]}``) or the game's own format.
"""

from __future__ import annotations

import os
import sys
import time as _time
from collections.abc import Callable
from types import ModuleType
from typing import Any

import click

import solvers
from solvers.errors import SolversError
from solvers.limits import MAX_NODES
from solvers.registry import GameInfo, GameOption, load_object

from . import common
from .common import (
    ITERATIONS,
    SEED,
    make_agent,
    model_option,
    out,
    plural,
    print_analysis,
    print_json,
    seconds_type,
)

#: The moves listed under the board before each decision (all: 'moves').
SHOWN_MOVES = 12


# ------------------------------------------------------------ the record
def renderer(info: GameInfo) -> ModuleType | None:
    """The game's terminal renderer module, or None."""
    return None if info.renderer is None else load_object(info.renderer)


def _hook(info: GameInfo, name: str) -> Callable[..., Any] | None:
    module = renderer(info)
    return getattr(module, name, None) if module is not None else None


def draw(info: GameInfo, state: Any, seat: int | None, color: bool = False) -> str:
    """``state`` drawn for ``seat`` by the game's renderer (a line naming the
    player to move when the game has none)."""
    fn = _hook(info, "draw")
    if fn is None:
        return f"{info.title}, move {len(state.history)}"
    return fn(state, seat, color)


def read_move(info: GameInfo, state: Any, text: str) -> int:
    """The action ``text`` names in ``state``, by the game's move reader
    (the words of ``action_to_string`` when it has none)."""
    if info.move_reader is not None:
        return load_object(info.move_reader)(state, text)
    return state.string_to_action(text)


def value_words(info: GameInfo, game: Any, value: float) -> str:
    """An AI's value in this game's words: the renderer's ``value_words``,
    else a win share (several players) or a plain value."""
    fn = _hook(info, "value_words")
    if fn is not None:
        return fn(game, value)
    if game.num_players > 1:
        return f"win share {value:.2f}"
    return f"value {value:.3f}"


def row_value_words(info: GameInfo, game: Any, row: dict[str, Any]) -> str:
    """A ranked move's value in words: as its ``value_kind`` says (an
    expected final score, a chance of completing the challenge), else as
    the game's search utility (:func:`value_words`)."""
    kind = row.get("value_kind")
    if kind == "points":
        return f"expected final score {row['value']:.1f}"
    if kind == "chance":
        return f"chance to complete the challenge {100 * row['value']:.0f}%"
    return value_words(info, game, row["value"])


def data_option(info: GameInfo) -> GameOption | None:
    """The game's option naming a data file (a map, a card file), if any."""
    files = info.file_options
    return files[0] if files else None


def options_from(info: GameInfo, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The game options among a command's parameters (``--data`` or its old
    name, ``--NAME``), read as their types; the parameters are removed."""
    options: dict[str, Any] = {}
    fo = data_option(info)
    if fo is not None:
        data, old = kwargs.pop("data_file", None), kwargs.pop("old_data_file", None)
        if data and old and data != old:
            raise click.UsageError(f"--data and --{fo.name} name two files: give one")
        if data or old:
            options[fo.name] = data or old
    for o in info.options:
        if o.names_a_file:
            continue
        value = kwargs.pop(f"opt_{o.name}", None)
        if value is not None:
            options[o.name] = o.parse(value)
    return options


def with_options(info: GameInfo, data: bool = True, others: bool = True) -> Callable:
    """Decorate a command with the game's options (see the module docstring)."""
    def wrap(command: Callable) -> Callable:
        fo = data_option(info)
        if others:
            for o in reversed([o for o in info.options if not o.names_a_file]):
                command = click.option(f"--{o.name}", f"opt_{o.name}", metavar="VALUE",
                                       help=o.help[:1].upper() + o.help[1:] + ".")(command)
        if data and fo is not None:
            command = click.option(f"--{fo.name}", "old_data_file", hidden=True,
                                   type=click.Path(dir_okay=False))(command)
            command = click.option("--data", "data_file", metavar="FILE",
                                   type=click.Path(dir_okay=False),
                                   help=fo.help[:1].upper() + fo.help[1:]
                                   + f" (also --{fo.name}).")(command)
        return command
    return wrap


def load_state(info: GameInfo, path: str, options: dict[str, Any] | None = None) -> Any:
    """The state a position file holds (module docstring): SolversError, one
    line, for a file that is none of the formats or of another game."""
    from solvers.data import read_json

    raw = read_json(path, "position file")
    if not isinstance(raw, dict):
        raise SolversError(f"{path}: a position is a JSON object")
    if raw.get("format") == "solvers-record":
        from solvers.record import load_record

        record = load_record(raw)
        if solvers.canonical_game_name(record.game) != info.name:
            raise SolversError(f"{path}: a saved game of {record.game}, not a {info.title} game")
        try:
            return record.state_at(len(record.steps))
        except SolversError as e:
            if "holds no position" not in str(e):
                raise
            raise SolversError(f"{path}: the last position of this saved game cannot be rebuilt "
                               "from what its seat saw (the hidden moves before it leave no "
                               f"position); 'solve {info.name} review' still reads it") from None
    if "game" in raw:
        name = raw["game"]
        if isinstance(name, str):
            try:
                name = solvers.canonical_game_name(name)
            except SolversError:
                pass
        if name != info.name:
            raise SolversError(f"{path}: a position of {name}, not a {info.title} position")
        from solvers.engine.positions import load_position

        return load_position(raw)[1]
    if info.position is None:
        raise SolversError(f"{path}: a {info.title} position names its game and lists its moves "
                           '({"game": "' + info.name + '", "moves": [...]}), or is a saved game')
    load = load_object(info.position.load)
    extra = {k: v for k, v in (options or {}).items() if info.option(k).names_a_file}
    try:
        return load(raw, **extra)
    except TypeError:
        raise SolversError(f"{path}: this position format carries its own "
                           f"{', '.join(extra)} file; drop --data") from None


def _to_move(state: Any) -> int:
    if state.is_terminal():
        raise SolversError("position: the game is over; there is no move to make")
    if state.is_chance_node():
        raise SolversError("position: chance is to move (a card or tile still to be dealt or "
                           "drawn); give the position after it")
    return state.current_player()


def _examples(info: GameInfo, verb: str) -> str:
    """The example lines of a verb's help."""
    n = info.name
    fo = data_option(info)
    lines = {
        "play": [f"solve {n} play" + ("" if info.min_players == info.max_players
                                      else f" --players {max(2, info.default_players)}"),
                 f"solve {n} play --ai mcts:iterations=2000 --seed 4 --save game.json"],
        "analyse": [f"solve {n} analyse game.json --iterations 2000",
                    f"solve {n} analyse position.json --time 5 --json"],
        "endgame": [f"solve {n} endgame position.json --max-nodes 1000000"],
        "score": [f"solve {n} score game.json", f"solve {n} score game.json --json"],
    }[verb]
    if fo is not None and verb == "play":
        lines.append(f"solve {n} play --data my-{fo.name}.json")
    return "\n\n\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


# ------------------------------------------------------------------ play
HELP_WORDS = [
    ("NUMBER or the move's words", "play that move ('moves' lists them)"),
    ("#NUMBER", "the listed move of that number, in every game (a bare number is a site in "
                "some games)"),
    ("hint, ?", "the AI's three best moves"),
    ("auto", "let the AI choose your move"),
    ("undo", "take back your last move (to your previous decision)"),
    ("moves", "every legal move, numbered"),
    ("board", "draw the game again"),
    ("save [FILE]", "save the game so far (as you see it)"),
    ("help", "this list"),
    ("quit", "stop (you are offered to save)"),
]


class Quit(Exception):
    """The player typed quit (``code`` None) or ended the input (EOF: exit
    1; Ctrl-C: exit 130)."""

    def __init__(self, code: int | None = None):
        super().__init__(code)
        self.code = code


def read_line(prompt: str) -> str:
    """One line typed at ``prompt``. End of input and Ctrl-C print a
    newline (the cursor leaves the prompt) and raise :class:`Quit` with exit
    status 1 and 130."""
    try:
        # Inside the try: a Ctrl-C that lands while the prompt is written,
        # before the read begins, is the same Ctrl-C.
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
    except KeyboardInterrupt:
        sys.stdout.write("\n")
        raise Quit(130) from None
    if not line:
        sys.stdout.write("\n")
        raise Quit(1)
    return line.rstrip("\r\n")


class Play:
    """One game in the terminal: the human at ``seat``, ``ai`` at every
    other seat (and for hints), chance from the seed."""

    def __init__(self, info: GameInfo, game: Any, seed: int, ai: Any, seat: int = 0,
                 color: bool = True, options: dict[str, Any] | None = None):
        self.info, self.game, self.seed, self.ai, self.seat = info, game, seed, ai, seat
        self.color = color
        self.options = dict(options or {})
        self.state = game.new_initial_state(seed=seed)
        self.undo_stack: list[Any] = []        # the state at each decision the human made
        self.saved: set[str] = set()           # files written by this game
        self.noted = False
        self.shown = ""
        self.pending: list[int] = []           # the rest of a line that named several moves

    # --------------------------------------------------------- the loop
    def run(self) -> bool:
        """Play to the end (True) or until the player quits (False)."""
        while True:
            if not common.play_until_seat_zero(self.state, self.ai, self.announce):
                return True
            action: int | None
            if self.pending and self.pending[0] in self.state.legal_actions():
                action = self.pending.pop(0)
            else:
                self.pending = []
                action = self.decide()
            if action is None:
                return False
            out.print(f"  you: {self.state.action_to_string(action)}")
            self.undo_stack.append(self.state.clone())
            self.state.apply_action(action)
            self.tell_chance()

    def announce(self, seat: int, move: str) -> None:
        label = _hook(self.info, "seat_label")
        out.print(f"  {label(seat) if label is not None else f'player {seat}'}: {move}")

    def tell_chance(self) -> None:
        """Chance right after the human's move, told as the human sees it
        (a card drawn into their hand is named, one drawn by another seat is not)."""
        while self.state.is_chance_node():
            a = self.state.seeded_outcome()
            seen = self.state.observed_move(a, self.seat)
            if seen == self.state.action_to_string(a):
                out.print(f"  chance: {seen}")
            self.state.apply_action(a)

    def show(self, force: bool = False) -> None:
        text = draw(self.info, self.state, self.seat, self.color)
        if force or text != self.shown:
            out.print()
            out.print(text)
            self.shown = text

    def moves(self) -> list[str]:
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def list_moves(self, limit: int | None = None) -> None:
        moves = self.moves()
        shown = moves if limit is None else moves[:limit]
        mark = "#" if _hook(self.info, "READS_NUMBERS") else ""   # a bare number is a site there
        if limit is None:
            for i, m in enumerate(shown, 1):
                out.print(f"  {mark}{i:>3}. {m}")
        else:
            out.print("  Moves: " + "  ".join(f"{mark}{i}. {m}" for i, m in enumerate(shown, 1))
                      + (f"  ... ({len(moves)} in all: 'moves')" if len(moves) > len(shown) else ""))

    def decide(self) -> int | None:
        """The human's move: the prompt's commands until one names a move;
        None when they quit."""
        self.show()
        self.list_moves(SHOWN_MOVES)
        extra_fn = _hook(self.info, "commands")
        extra = extra_fn(self.state, self.seat) if extra_fn is not None else {}
        while True:
            try:
                text = read_line("Your move: ").strip()
            except Quit as q:
                if q.code == 130:
                    raise
                return None
            if not text:
                continue
            low = " ".join(text.lower().split())
            word, _, rest = text.partition(" ")
            word = word.lower()
            legal = self.state.legal_actions()
            if low in ("quit", "exit", "q"):
                return None
            if low in ("help", "h"):
                self.help(extra)
            elif low in ("hint", "?"):
                self.hint()
            elif low == "auto":
                return self.ai.step(self.state)
            elif low == "undo":
                if not self.undo_stack:
                    out.print("  Nothing to undo: this is your first decision.")
                    continue
                self.state = self.undo_stack.pop()
                self.pending = []
                out.print("  Taken back: your previous decision again.")
                return self.decide()
            elif low == "moves":
                self.list_moves()
            elif low in ("board", "map", "table", "sheet"):
                self.show(force=True)
            elif word == "save":
                self.save_now(rest.strip())
            elif word in extra:
                text_out = extra[word](rest.strip())
                if text_out:
                    out.print(text_out)
            elif (low.isdigit() and not _hook(self.info, "READS_NUMBERS")) or (
                    low[:1] == "#" and low[1:].isdigit()):
                number = int(low.lstrip("#"))
                if 1 <= number <= len(legal):
                    return legal[number - 1]
                out.print(f"  There is no move {number}: the moves are numbered 1 to {len(legal)} "
                          "('moves' lists them).")
            else:
                try:
                    plan_fn = _hook(self.info, "read_plan")
                    if plan_fn is None:
                        return read_move(self.info, self.state, text)
                    plan = list(plan_fn(self.state, text))
                    self.pending = plan[1:]
                    return plan[0]
                except SolversError as e:
                    out.print(f"  {e}. Type 'help' for what you can type.")

    def help(self, extra: dict[str, Any]) -> None:
        rows = list(HELP_WORDS)
        for word, fn in extra.items():
            rows.insert(-2, (word, (fn.__doc__ or "").strip().split("\n")[0]))
        width = max(len(w) for w, _ in rows)
        for w, what in rows:
            out.print(f"  {w:<{width}}  {what}")
        note = _hook(self.info, "HELP")      # how the game's move reader reads a line
        if isinstance(note, str):
            out.print(f"  {note}")

    def hint(self) -> None:
        kind = getattr(self.ai, "kind", "")
        try:
            rows = self.ai.analyse(self.state)
        except (SolversError, MemoryError) as e:
            out.print(f"  No hint: the AI failed ({e or type(e).__name__}). Your move.")
            return
        for row in rows[:3]:
            if kind == "random":
                out.print(f"  AI suggests: {row['move']}  (a random choice: the random AI "
                          "has no preference)")
                continue
            visits = f", {plural(row['visits'], 'visit')}" if row["visits"] else ""
            if kind == "greedy":
                words = f"score after {row['value']:g}"
            elif kind == "pimc" and self.game.num_players > 1:
                words = f"your expected final score {row['value']:.1f}"
            else:
                words = row_value_words(self.info, self.game, row)
            out.print(f"  AI suggests: {row['move']}  ({words}{visits})")
        if not self.noted and kind not in ("random",):
            self.noted = True
            if kind == "greedy":
                out.print("  (score after: your score once the move is made; the greedy AI "
                          "looks no further)")
            elif kind in ("pimc", "online") and self.game.num_players > 1:
                out.print("  (this AI plays its own sheet and does not weigh the others')")
            else:
                note = _hook(self.info, "value_note")
                if note is not None:
                    out.print(f"  ({note(self.game)})")

    # ------------------------------------------------------------- save
    def default_name(self) -> str:
        return f"{self.info.name}-{self.seed}.json"

    def record(self) -> dict[str, Any]:
        """The game so far as a game record through the human's eyes
        (:mod:`solvers.record`): what their seat may not see stays out."""
        from solvers.record import record_game

        names = ["you" if p == self.seat else f"AI {p}" for p in range(self.game.num_players)]
        options = {k: (os.path.abspath(v) if self.info.option(k).names_a_file and isinstance(v, str)
                       else v) for k, v in self.options.items()}
        return record_game(self.game, list(self.state.history), seat=self.seat, names=names,
                           options=options, seed=self.seed)

    def write(self, path: str, keep: bool = False) -> str:
        """Save the record to ``path``; with ``keep``, an existing file is
        kept and the game goes next to it (:func:`side_name`). The absolute
        path written."""
        from solvers.record import save_record

        if keep and os.path.exists(path):
            path = side_name(path)
        where = save_record(path, self.record())
        self.saved.add(os.path.realpath(where))
        return where

    def save_now(self, arg: str) -> None:
        """``save [FILE]`` at the prompt: a file this game did not write is
        replaced only when the player says yes."""
        from solvers.files import check_output_path

        path = arg or self.default_name()
        try:
            target = check_output_path(path, "save")
            if os.path.exists(target) and os.path.realpath(target) not in self.saved:
                if read_line(f"  {path} exists: replace it? [y/N] ").strip().lower() not in ("y", "yes"):
                    out.print("  Not saved.")
                    return
            where = self.write(path)
        except SolversError as e:
            out.print(f"  {e}")
            return
        except Quit as q:
            if q.code == 130:
                raise
            out.print("  Not saved.")
            return
        out.print(f"  Saved to {where} (as you see the game); 'solve {self.info.name} review "
                  f"{path}' reviews it.")

    def offer_save(self, save_file: str | None) -> None:
        """At the end: with --save, save there; on a terminal, ask (Enter:
        the default name, 'no' skips). Piped input is never asked. Ctrl-C or
        end of input at the question exits (130, 1) after a newline."""
        if save_file is not None:
            # A finished game replaces the file; an unfinished one never does.
            where = self.write(save_file, keep=not self.state.is_terminal())
            if where != os.path.realpath(save_file):
                out.print(f"{save_file} exists and this game is unfinished, so that file is kept.")
            out.print(f"Game saved to {where} (as you saw it; 'solve {self.info.name} review' "
                      "reads it).")
            return
        if not sys.stdin.isatty():
            return
        from solvers.files import check_output_path

        name = self.default_name()
        while True:
            path = read_line(f"Save this game for review? File name [{name}], or 'no': ").strip()
            if path.lower() in ("no", "n"):
                return
            path = path or name
            try:
                target = check_output_path(path, "save")
            except SolversError as e:
                out.print(f"  {e}")
                continue
            if (os.path.exists(target) and os.path.realpath(target) not in self.saved
                    and read_line(f"{path} exists: replace it? [y/N] ").strip().lower()
                    not in ("y", "yes")):
                continue
            out.print(f"Game saved to {self.write(path)} ('solve {self.info.name} review "
                      f"{path}' reviews it).")
            return

    # -------------------------------------------------------------- end
    def end_screen(self) -> None:
        state = self.state
        out.print()
        out.print(draw(self.info, state, self.seat, self.color))
        scores = state.scores()
        rows = breakdown_rows(self.info, state)
        if rows is not None:
            print_breakdown(rows, [("you" if p == self.seat else f"player {p}")
                                   for p in range(len(rows))])
        out.print("Final scores: " + ", ".join(
            f"{'you' if p == self.seat else f'player {p}'}: {plural(s, 'point')}"
            for p, s in enumerate(scores)))
        if self.game.num_players > 1:
            winners = [p for p, x in enumerate(state.returns()) if x > 0]
            if winners == [self.seat]:
                out.print("[bold]You win![/bold]")
            else:
                out.print(("Winners: " if len(winners) > 1 else "Winner: ")
                          + " and ".join("you" if p == self.seat else f"player {p}"
                                         for p in winners))
        outro = _hook(self.info, "outro")
        if outro is not None:
            text = outro(state, self.seat)
            if text:
                out.print(text)


#: Names tried for an unfinished game that may not replace an existing file.
MAX_SIDE_NAMES = 100


def side_name(path: str) -> str:
    """The first free ``NAME-unfinished.json`` (``-unfinished-2``, ...) next
    to ``path``, so that an abandoned game never replaces a file (which may
    hold a finished game)."""
    stem, ending = os.path.splitext(path)
    for k in range(1, MAX_SIDE_NAMES + 1):
        name = f"{stem}-unfinished{'' if k == 1 else f'-{k}'}{ending or '.json'}"
        if not os.path.exists(name):
            return name
    raise SolversError(f"cannot save the unfinished game next to {path}: "
                       f"{stem}-unfinished.json to -unfinished-{MAX_SIDE_NAMES} all exist")


def breakdown_rows(info: GameInfo, state: Any) -> list[list[dict[str, Any]]] | None:
    """Each player's score item by item (the game's ``breakdown``), or None."""
    if info.breakdown is None:
        return None
    return load_object(info.breakdown)(state)


def print_breakdown(rows: list[list[dict[str, Any]]], names: list[str]) -> None:
    """The score items of every player as one table, a total row last."""
    from rich.table import Table

    items: list[str] = []
    for seat in rows:
        for r in seat:
            if r["item"] not in items:
                items.append(r["item"])
    t = Table(title="Score")
    t.add_column("item")
    for n in names:
        t.add_column(n, justify="right")
    for item in items:
        t.add_row(item, *[str(sum(r["points"] for r in seat if r["item"] == item)) for seat in rows])
    t.add_row("[bold]total[/bold]", *[f"[bold]{sum(r['points'] for r in seat)}[/bold]" for seat in rows])
    out.print(t)


def make_play(info: GameInfo) -> click.Command:
    """``solve NAME play``."""
    budget = info.default_budget
    default_time = budget.get("time", 1.0)

    @click.command("play", help=f"Play {info.title} in the terminal"
                   + (" against AI players" if info.max_players > 1 else "")
                   + ", with the AI's hints on request. Type 'help' at the prompt for "
                   "what you can type (hint, undo, save [FILE], moves, board, quit)."
                   + _examples(info, "play"))
    @click.option("--players", type=click.IntRange(info.min_players, info.max_players),
                  default=info.default_players, show_default=True,
                  help="Seats; you are seat 0, the others are AI players.")
    @click.option("--ai", "ai_spec", default=None, metavar="SPEC",
                  help="The AI for the other seats and for hints, as an agent spec (e.g. "
                       "'mcts:iterations=5000', 'greedy') [default: the game's].")
    @click.option("--time", "seconds", type=seconds_type(), default=None, metavar="S",
                  help=f"Seconds per AI move (an MCTS spec without a budget) "
                       f"[default: {default_time:g}, or the game's iterations].")
    @model_option()
    @click.option("--seed", type=SEED, default=None, help="Shuffle seed [default: random].")
    @click.option("--color/--no-color", default=True, show_default=True, help="Colour the board.")
    @click.option("--save", "save_file", metavar="FILE.json", type=click.Path(dir_okay=False),
                  help="Save the game to FILE.json at its end, or when you quit (checked before "
                       "the game starts).")
    @with_options(info)
    def play(players: int, ai_spec: str | None, seconds: float | None, model: str | None,
             seed: int | None, color: bool, save_file: str | None, **kwargs: Any) -> None:
        import secrets

        from solvers.files import check_output_path

        options = options_from(info, kwargs)
        if save_file is not None:
            check_output_path(save_file, "--save")
        seed = secrets.randbits(31) if seed is None else seed
        game = solvers.load_game(info.name, players=players, **options)
        spec = ai_spec
        default_spec = _hook(info, "default_ai")
        if spec is None and default_spec is not None:
            spec = default_spec(game)
        spec = spec or "mcts"
        count = budget.get("iterations") if seconds is None and "time" not in budget else None
        iterations = None if count is None else int(count)   # a record's budget holds numbers
        ai = make_agent(spec, game, seed, time=seconds if seconds is not None else
                        (None if iterations else default_time), iterations=iterations, model=model)
        ai.check_match()
        session = Play(info, game, seed, ai, seat=0, color=color, options=options)
        out.print(f"{info.title}, {plural(players, 'player')}, seed {seed}. You are player 0. "
                  "Type 'help' for what you can type.")
        intro = _hook(info, "intro")
        if intro is not None:
            text = intro(game, 0)
            if text:
                out.print(text)
        try:
            finished = session.run()
        except BaseException as e:
            # Ctrl-C, an error: with --save, the game so far is kept first.
            if save_file is not None:
                try:
                    session.offer_save(save_file)
                except Exception:
                    pass
            if isinstance(e, Quit):
                raise click.exceptions.Exit(e.code or 1) from None
            raise
        if finished:
            session.end_screen()
        else:
            out.print("Game abandoned.")
        try:
            session.offer_save(save_file)
        except Quit as q:
            raise click.exceptions.Exit(q.code or 1) from None

    return play


# ---------------------------------------------------------------- analyse
def make_analyse(info: GameInfo) -> click.Command:
    """``solve NAME analyse POSITION``."""
    @click.command("analyse", help=f"The AI's ranked moves for the player to move in a "
                   f"{info.title} position (a saved game: its last position). The AI sees "
                   "only what that player may know: everything else is re-dealt in its search."
                   + _examples(info, "analyse"))
    @click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
    @click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
                  help="The agent that ranks the moves.")
    @click.option("--time", "seconds", type=seconds_type(), default=None, metavar="S",
                  help="Seconds of search (an MCTS spec without a budget) [default: 1].")
    @click.option("--iterations", type=ITERATIONS, default=None, metavar="N",
                  help="Iterations of search instead of a time (replays exactly with --seed).")
    @model_option()
    @click.option("--seed", type=SEED, default=0, show_default=True)
    @click.option("--top", type=click.IntRange(1), default=10, show_default=True,
                  help="How many moves to show.")
    @click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
    @with_options(info, others=False)
    def analyse(position: str, ai_spec: str, seconds: float | None, iterations: int | None,
                model: str | None, seed: int, top: int, as_json: bool, **kwargs: Any) -> None:
        state = load_state(info, position, options_from(info, kwargs))
        player = _to_move(state)
        if seconds is None and iterations is None:
            seconds = 1.0
        agent = make_agent(ai_spec, state.game, seed, time=seconds, iterations=iterations,
                           model=model)
        if model is not None:
            ai_spec += ("," if ":" in ai_spec else ":") + f"model={model}"
        data = common.analysis(info.name, position, state, agent, ai_spec, seed, top)
        if as_json:
            print_json(data)
            return
        out.print(draw(info, state, player, color=False))
        label = "win share" if state.game.num_players > 1 else "value"
        print_analysis(data, label)
        if data["moves"]:
            out.print(f"(best: {row_value_words(info, state.game, data['moves'][0])}, "
                      f"for player {player})")

    return analyse


# ---------------------------------------------------------------- endgame
def make_endgame(info: GameInfo) -> click.Command:
    """``solve NAME endgame POSITION``."""
    @click.command("endgame", help=f"The exact value of a {info.title} position and the best "
                   "line, every hand open (draws stay chance), or averaged over re-deals of "
                   "what the player to move cannot see (--samples). A position too large for "
                   "--max-nodes is one line and exit status 2."
                   + _examples(info, "endgame"))
    @click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
    @click.option("--samples", type=click.IntRange(0, 100_000), default=0, show_default=True,
                  metavar="N", help="0: solve the position as written, every hand open. N > 0: "
                                    "average exact values over N re-deals of what the player "
                                    "to move cannot see.")
    @click.option("--max-nodes", type=click.IntRange(1, MAX_NODES), default=20_000_000,
                  show_default=True, metavar="N",
                  help="Give up (one error line) beyond this many searched nodes.")
    @click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the re-deals.")
    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    @with_options(info, others=False)
    def endgame(position: str, samples: int, max_nodes: int, seed: int, as_json: bool,
                **kwargs: Any) -> None:
        state = load_state(info, position, options_from(info, kwargs))
        data = endgame_data(info, position, state, samples, max_nodes, seed)
        if as_json:
            print_json(data)
        else:
            print_endgame(info, data, state)

    return endgame


def endgame_data(info: GameInfo, position: str, state: Any, samples: int, max_nodes: int,
                 seed: int) -> dict[str, Any]:
    """What ``endgame`` reports, as JSON; SolversError "too large: N nodes
    searched" when the solver gives up."""
    from solvers.search import expected_endgame, solve_endgame

    if state.is_terminal():
        return {"game": info.name, "position": position, "value": list(state.returns()),
                "scores": state.scores(), "best": None, "line": [], "moves": [], "nodes": 0}
    player = _to_move(state)
    start = _time.perf_counter()
    try:
        if samples == 0:
            r = with_node_progress(lambda track: solve_endgame(
                state, per_action=True, line=True, max_nodes=max_nodes, track=track),
                "endgame search, nodes", max_nodes)
            line, st = [], state.clone()
            for a in r.line:
                line.append(st.action_to_string(a))
                st.apply_action(a)
            final = st.scores() if st.is_terminal() else None
        else:
            r = with_node_progress(lambda track: expected_endgame(
                state, samples=samples, seed=seed, max_nodes=max_nodes, track=track),
                "endgame search, nodes", max_nodes)
            line, final = ([state.action_to_string(r.action)] if r.action is not None else []), None
    except SolversError as e:
        if "node" in str(e).lower():
            raise SolversError(f"too large: {max_nodes} nodes searched and the position is "
                               "not solved (raise --max-nodes, or use 'analyse')") from None
        raise
    return {
        "game": info.name, "position": position, "to_move": player,
        "players": state.game.num_players, "exact": samples == 0, "samples": samples,
        "value": [round(v, 6) for v in r.value],
        "best": None if r.action is None else state.action_to_string(r.action),
        "line": line, "line_scores": final,
        "moves": [{"move": state.action_to_string(a), "action": a,
                   "value": [round(v, 6) for v in vec], "samples": n}
                  for a, vec, n in r.action_values],
        "nodes": r.nodes, "seconds": round(_time.perf_counter() - start, 3),
    }


PROGRESS_AFTER = 0.5
"""Seconds a search runs before :func:`with_node_progress` shows its bar."""


def with_node_progress(run: Callable[[Callable[[Any], Any]], Any], label: str, budget: int,
                       show: bool | None = None) -> Any:
    """``run(track)`` (a search that calls ``track(solver)`` before it starts),
    with a progress bar on stderr of the solver's ``nodes`` against
    ``budget`` when stderr is a terminal (or ``show``) and the search lasts
    beyond :data:`PROGRESS_AFTER` seconds. The search runs in a worker
    thread (the C solver releases the GIL); Ctrl-C stops it."""
    import threading

    if show is None:
        show = common.err.is_terminal
    if not show:
        return run(lambda solver: None)
    holder: dict[str, Any] = {}
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["value"] = run(lambda solver: holder.setdefault("solver", solver))
        except BaseException as e:      # handed to the caller's thread
            result["error"] = e

    worker = threading.Thread(target=work, name="endgame-search", daemon=True)
    worker.start()
    try:
        worker.join(PROGRESS_AFTER)
        if worker.is_alive():
            with common.progress(label, budget, force=show) as advance:
                done = 0
                while worker.is_alive():
                    worker.join(0.1)
                    solver = holder.get("solver")
                    nodes = min(budget, int(solver.nodes)) if solver is not None else 0
                    advance(nodes - done)
                    done = nodes
    except BaseException:
        if "solver" in holder:
            holder["solver"].stop()
        worker.join()
        raise
    if "error" in result:
        raise result["error"]
    return result["value"]


MOVES_SHOWN = 10
"""Moves an ``endgame`` report lists (``--json`` gives every one)."""


def print_endgame(info: GameInfo, data: dict[str, Any], state: Any) -> None:
    """The text of an :func:`endgame_data` report."""
    out.print(draw(info, state, None if data.get("exact", True) else data.get("to_move"), False))
    if data["best"] is None:
        out.print(f"The game is over: scores {data['scores']}, values {data['value']}.")
        return
    how = ("proven, every hand open" if data["exact"]
           else f"mean of exact values over {plural(data['samples'], 're-deal')}")
    values = ", ".join(f"player {p}: {value_words(info, state.game, v)}"
                       for p, v in enumerate(data["value"]))
    out.print(f"Value ({how}): {values}")
    out.print(f"Best move for player {data['to_move']}: [bold]{data['best']}[/bold]")
    if data["line"]:
        out.print("Best line: " + "; ".join(data["line"])
                  + ("" if data["line_scores"] is None else f"  -> scores {data['line_scores']}"))
        if data["line_scores"] is None:
            out.print("  (the line stops at the next chance event: best play after it depends on "
                      "the outcome, and the value averages over every outcome)"
                      if data["exact"] else
                      "  (with re-deals, only the first move is common to every sample)")
    moves, to_move = data["moves"], data["to_move"]
    worth = [row["value"][to_move] for row in moves]
    best = max(worth, default=0.0)
    if len(moves) > 1 and best - min(worth) < 1e-9:
        out.print(f"All {len(moves)} moves have this value: any of them is as good as the best.")
    elif moves:
        ties = sum(1 for v in worth if best - v < 1e-9)
        out.print(f"Each move's value for player {to_move}, best first"
                  + (f" ({ties} moves share the best value)" if ties > 1 else "") + ":")
        for row in moves[:MOVES_SHOWN]:
            out.print(f"  {row['move']:<24} {row['value'][to_move]:.3f}")
        if len(moves) > MOVES_SHOWN:
            out.print(f"  ... and {plural(len(moves) - MOVES_SHOWN, 'more move')} "
                      "(--json lists every one)")
    out.print(f"{plural(data['nodes'], 'node')}, {data['seconds']:.2f} s")


# ----------------------------------------------------------------- score
def make_score(info: GameInfo) -> click.Command:
    """``solve NAME score POSITION``."""
    @click.command("score", help=f"The score of a {info.title} position item by item, for "
                   "every player (a finished game's final score; in a game still going, the "
                   "score as it stands)." + _examples(info, "score"))
    @click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
    @click.option("--json", "as_json", is_flag=True, help="Print the items as JSON.")
    @with_options(info, others=False)
    def score(position: str, as_json: bool, **kwargs: Any) -> None:
        state = load_state(info, position, options_from(info, kwargs))
        score_position(info, state, as_json)

    return score


def score_position(info: GameInfo, state: Any, as_json: bool) -> None:
    """Print ``state``'s score breakdown (``score``'s report)."""
    rows = breakdown_rows(info, state)
    if rows is None:
        rows = [[{"item": "score", "points": s}] for s in state.scores()]
    if as_json:
        print_json({"game": info.name, "finished": state.is_terminal(),
                    "players": [{"player": p, "items": r, "total": sum(x["points"] for x in r)}
                                for p, r in enumerate(rows)]})
        return
    print_breakdown(rows, [f"player {p}" for p in range(len(rows))])
    if not state.is_terminal():
        out.print("(the game is not over: the score as it stands)")


# ----------------------------------------------------------------- group
def make_review(info: GameInfo) -> click.Command | None:
    """``solve NAME review GAME.json`` (:mod:`solvers.cli.review`), or None
    while that module is missing."""
    try:
        from .review import make_review as build
    except ImportError:
        return None
    return build(info)


VERBS: tuple[Callable[[GameInfo], click.Command | None], ...] = (
    make_play, make_analyse, make_endgame, make_score, make_review)


def game_group(info: GameInfo, group: click.Group | None = None) -> click.Group:
    """``solve NAME``: the game's own group (or a new one) with every verb
    it does not define itself."""
    if group is None:
        group = click.Group(info.name, help=f"{info.title}: play against the AI, analyse and "
                            "solve positions, score and review games.\n\n\b\nExamples:\n"
                            f"  solve {info.name} play\n  solve {info.name} analyse game.json\n"
                            f"  solve {info.name} score game.json\n"
                            f"  solve {info.name} review game.json")
    for make in VERBS:
        command = make(info)
        if command is not None and command.name not in group.commands:
            group.add_command(command)
    return group


__all__ = ["game_group", "load_state", "draw", "read_move", "Play", "make_play", "make_analyse",
           "make_endgame", "make_score", "make_review"]
