"""``solve c2c play``: a solo challenge or a game against AI players.

At the end the game can be saved as JSON (``--save FILE``, or the offer on
a terminal) in the engine's history-position format
(``docs/engine-protocol.md``), so that the deal and every move can be
replayed and reviewed later::

    {"game": "c2c", "players": 1, "options": {"challenge": "The Alamo"},
     "seed": 12, "moves": ["deal Hollywood", "deal Chase Field", ...,
                           "cross Hollywood", "circle Grand Canyon with Chase Field", ...]}

``moves`` lists every action from the start as its words: the cards dealt
(``deal NAME``, in deal order: in a game of several players, 2 private cards
for each seat in turn, then 2 public ones, then 4 per round) and each
player's moves. ``options`` holds the game options (``challenge``, and
``map`` when a ``--map`` file was used); ``seed`` is the shuffle's seed.
:func:`solvers.engine.positions.load_position` reads it back.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

import solvers
from solvers.errors import SolversError
from solvers.files import check_output_path, write_atomic
from solvers.games.c2c.data import CoastMap
from solvers.games.c2c.online import STRONG_CHALLENGE_ONLINE, STRONG_ONLINE, strong_online

from .common import SEED, ask_move, make_agent, out, play_until_seat_zero, seconds_type

HELP_LINE = ("Type a move's number or its words: 'cross Hollywood', 'circle Chase Field with "
             "The Alamo' (names or the sheet's 3-letter codes, any case: 'circle CHF with ALA'). "
             "'hint' asks the AI, 'moves' lists the moves, 'map' draws your sheet, "
             "'info NAME' shows a location's highway, region and type, 'help', 'quit'.")
VALUE_SOLO = ("value: the AI's estimate of your final score after the move, counting 0 for "
              "a lost challenge")
VALUE_MULTI = ("value: the AI's estimate of your share of first place after the move "
               "(1 a sure win, 0.5 a first place shared by two)")


@click.command("play")
@click.option("--challenge", "-c", metavar="NAME", help="Play this solo challenge card.")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Seats; you are seat 0, the others are AI players.")
@click.option("--seed", type=SEED, default=None, help="Shuffle seed [default: random].")
@click.option("--ai", "ai_spec", default=None, metavar="SPEC",
              help=f"The AI for the other seats and for hints, as an agent spec "
                   f"[default: {STRONG_CHALLENGE_ONLINE} in a solo challenge, else "
                   f"{STRONG_ONLINE}].")
@click.option("--map", "map_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Another player sheet in the JSON schema of the built-in one.")
@click.option("--save", "save_file", metavar="FILE.json", type=click.Path(dir_okay=False),
              help="Save the game (deal and moves) to FILE.json at the end (checked before "
                   "the game starts); a game abandoned before its end never replaces an "
                   "existing file but goes to FILE-unfinished.json. On a terminal the end "
                   "screen offers to save too.")
@click.option("--time-limit", type=seconds_type(0.1, 600), default=10.0, show_default=True,
              metavar="S", help="Seconds for the hindsight best of the deal, on the end screen.")
def play(challenge: str | None, players: int, seed: int | None, ai_spec: str | None,
         map_file: str | None, save_file: str | None, time_limit: float) -> None:
    """Play Coast to Coast in the terminal, with the AI's suggestion on request.

    \b
    solve c2c play --challenge "The Alamo"     a solo challenge
    solve c2c play --players 3                 you against two AI players
    solve c2c play --seed 4 --save game.json   keep the deal and the moves

    The end screen names the required locations you missed and the best
    score your cards allowed (proven with hindsight, every card known).
    """
    import secrets

    seed = secrets.randbits(31) if seed is None else seed
    from solvers.games.c2c.data import load_map

    if save_file is not None:
        check_output_path(save_file, "--save")     # before the game, not at its end

    m = load_map(map_file)
    game = solvers.load_game("c2c", players=players, challenge=challenge, map=m)
    state = game.new_initial_state(seed=seed)
    ai = make_agent(ai_spec or strong_online(challenge is not None and players == 1), game, seed)
    ai.check_match()
    required = game.required()
    out.print(f"Coast to Coast, seed {seed}" + (f", challenge {challenge}" if challenge else "")
              + f". {HELP_LINE}")
    if required:
        out.print(f"Circle all {len(required)} locations marked '!' on the sheet to win the "
                  "challenge; a lost challenge scores 0.")
    try:
        if _play_out(state, ai, m, required):
            _show(state, m, required)
            _end_screen(state, m, required, players, challenge, time_limit)
        else:
            out.print("Game abandoned.")
    except BaseException:
        # An error or Ctrl-C in the middle: with --save, the game so far is
        # kept (under the rule of _offer_save) before the error is shown.
        if save_file is not None:
            try:
                _offer_save(state, challenge, map_file, seed, save_file)
            except Exception:
                pass
        raise
    _offer_save(state, challenge, map_file, seed, save_file)


def _play_out(state: Any, ai: Any, m: CoastMap, required: set[int]) -> bool:
    """The game from ``state`` on, the AI moving every seat but 0 and the
    player typing seat 0's moves: True at its end, False when the player quits."""
    shown_round = -1
    while play_until_seat_zero(state, ai, lambda seat, move: out.print(f"  player {seat}: {move}")):
        info = state.information_state(0)
        if info["round"] != shown_round:
            shown_round = info["round"]
            _show(state, m, required)
        action = _ask(state, ai, m, required)
        if action is None:
            return False
        state.apply_action(action)
    return True


def describe_location(m: CoastMap, loc_id: int) -> str:
    """A location with its code and the three characteristics a card can share.

    >>> from solvers.games.c2c.data import load_map
    >>> describe_location(load_map(), 28)
    'The Alamo (ALA): highway I-10, region 3, type Monument (blue)'
    """
    loc = m.locations[loc_id]
    label = m.type_labels.get(loc.type, loc.type)
    return (f"{loc.name} ({m.codes[loc_id]}): highway {loc.highway}, region {loc.region}, "
            f"type {label}")


def _chance_cards(state: Any) -> list[int]:
    """The cards dealt so far, in deal order (the chance actions of the history)."""
    replay = state.game.new_initial_state(seed=0)
    dealt = []
    for a in state.history:
        if replay.is_chance_node():
            dealt.append(a)
        replay.apply_action(a)
    return dealt


def _show(state: Any, m: CoastMap, required: set[int]) -> None:
    from .render_c2c import draw_sheet

    info = state.information_state(0)
    rnd = info["round"]
    if rnd <= 5:
        title = "Setup" if rnd == 0 else f"Round {rnd}"
        players = state.game.num_players
        if rnd == 0 and players > 1:
            dealt = _chance_cards(state)
            private, public = dealt[0:2], dealt[2 * players: 2 * players + 2]
            out.print(f"\n[bold]{title}[/bold]: cross off one of your 4 cards; the other 3 are "
                      "your starting circles.")
            out.print("  your private cards (only you see them):")
            for c in private:
                out.print(f"    {describe_location(m, c)}")
            out.print("  public cards (every player uses them):")
            for c in public:
                out.print(f"    {describe_location(m, c)}")
        else:
            out.print(f"\n[bold]{title}[/bold]: your cards:")
            for c in info["cards"]:
                out.print(f"    {describe_location(m, c)}")
    sheet = info["sheet"]
    out.print(draw_sheet(m, set(sheet["circled"]), set(sheet["crossed"]), set(sheet["exact"]),
                         required, legend=rnd == 0))
    b = state.score_breakdown(0)
    out.print(f"Score so far: {b['total']} (highways {b['highways']}, types {b['types']}, "
              f"regions {b['regions']}, exact {b['exact']})")


def parse_c2c_move(state: Any, m: CoastMap, text: str) -> int:
    """The action a player typed (``cross NAME``, ``circle NAME with CARD``,
    ``circle NAME`` when one card fits), or a SolversError giving the reason
    the move is not legal here."""
    legal = state.legal_actions()
    n = m.n
    info = state.information_state(0)
    cards, used = info["cards"], set(info["used"])
    circled, crossed = set(info["sheet"]["circled"]), set(info["sheet"]["crossed"])
    words = text.strip()
    verb, _, rest = words.partition(" ")
    verb = verb.lower()
    card_names = ", ".join(m.locations[c].name for c in cards)
    if verb in ("cross", "x"):
        if info["step"] != "cross":
            raise SolversError("you have crossed off a location this round; now circle with "
                               "your other cards")
        loc = m.location(rest.strip()).id
        if loc not in cards:
            raise SolversError(f"{m.locations[loc].name} is not one of your cards this round "
                               f"({card_names})")
        if loc in legal:
            return loc
        raise SolversError(f"'cross {m.locations[loc].name}' is not a legal move here")
    if verb == "circle":
        if info["step"] == "cross":
            raise SolversError(f"first cross off one of this round's cards ({card_names})")
        place, sep, with_card = rest.partition(" with ")
        loc = m.location(place.strip()).id
        if sep:
            options = [m.location(with_card.strip()).id]
        else:
            options = [k for k in cards if k not in used and n + k * n + loc in legal]
            if not options:
                options = [k for k in cards if k not in used][:1]
            if len(options) > 1:
                raise SolversError("more than one card can circle " + m.locations[loc].name
                                   + "; say which: 'circle NAME with CARD'")
        if not options:
            raise SolversError("every card of this round is used")
        card = options[0]
        if n + card * n + loc in legal:
            return n + card * n + loc
        raise SolversError(_why_not(m, loc, card, cards, used, circled, crossed))
    raise SolversError(f"{text!r} is not a move here")


def _why_not(m: CoastMap, loc: int, card: int, cards: list[int], used: set[int],
             circled: set[int], crossed: set[int]) -> str:
    """The reason circling ``loc`` with ``card`` is refused."""
    name, card_name = m.locations[loc].name, m.locations[card].name
    if card not in cards:
        return f"{card_name} is not one of your cards this round"
    if card in used:
        return f"{card_name} is already used this round"
    if loc in circled:
        return f"{name} is already circled"
    if loc in crossed:
        return f"{name} is crossed off"
    if not m.matches[card] >> loc & 1:
        return (f"{name} shares no highway, region or type with {card_name} "
                f"({describe_location(m, loc)}; {describe_location(m, card)})")
    if not any(m.neighbours[c] >> loc & 1 for c in circled):
        return f"{name} is not joined by a line to any location you have circled"
    return f"'circle {name} with {card_name}' is not a legal move here"


def _ask(state: Any, ai: Any, m: CoastMap, required: set[int]):
    from .render_c2c import draw_sheet

    moves = [state.action_to_string(a) for a in state.legal_actions()]

    def list_moves(_: str = "") -> None:
        for i, mv in enumerate(moves, start=1):
            out.print(f"  {i:>3}. {mv}")

    def draw(_: str = "") -> None:
        sheet = state.information_state(0)["sheet"]
        out.print(draw_sheet(m, set(sheet["circled"]), set(sheet["crossed"]), set(sheet["exact"]),
                             required, legend=True))

    def info(arg: str) -> None:
        if not arg:
            for loc in m.locations:
                out.print(f"  {describe_location(m, loc.id)}")
            return
        try:
            out.print(f"  {describe_location(m, m.location(arg).id)}")
        except SolversError as e:
            out.print(f"  {e}")

    list_moves()
    note = VALUE_SOLO if state.game.num_players == 1 else VALUE_MULTI
    return ask_move(state, ai, lambda text: parse_c2c_move(state, m, text), help_line=HELP_LINE,
                    value_note=note,
                    commands={"map": draw, "sheet": draw, "moves": list_moves, "info": info})


def _end_screen(state: Any, m: CoastMap, required: set[int], players: int,
                challenge: str | None, time_limit: float) -> None:
    scores = state.scores()
    names = [l.name for l in m.locations]
    if players == 1:
        won = state.challenge_won()
        verdict = "" if won is None else ("Challenge won! " if won else "Challenge lost (scores 0). ")
        out.print(f"[bold]{verdict}Final score: {scores[0]}[/bold]")
        circled = set(state.information_state(0)["sheet"]["circled"])
        missed = sorted(required - circled)
        if missed:
            out.print("Required locations not circled: " + ", ".join(names[c] for c in missed))
    else:
        out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(scores)))
        r = state.returns()
        out.print("Winner: " + " and ".join(f"player {p}" for p, x in enumerate(r) if x > 0))
    _hindsight(state, m, challenge if players == 1 else None, time_limit)


def _hindsight(state: Any, m: CoastMap, challenge: str | None, time_limit: float) -> None:
    """The best play of the cards player 0 saw, with every card known in advance."""
    from solvers.optimize.c2c import hindsight_optimum

    from .c2c import print_plan

    players = state.game.num_players
    dealt = _chance_cards(state)
    setup = 2 * players + 2 if players > 1 else 4
    deal = (dealt[0:2] + dealt[2 * players: setup] if players > 1 else dealt[:4]) + dealt[setup:]
    ch = None if challenge is None else m.location(challenge).id
    out.print("\n[bold]With hindsight[/bold] (your cards, every one known in advance):")
    try:
        result = hindsight_optimum(deal, challenge=ch, map=m, time_limit=time_limit)
    except SolversError as e:
        out.print(f"  not computed: {e}")
        return
    if result.status == "infeasible":
        out.print("  no play of this deal wins the challenge (proven): the shuffle was against you.")
        return
    if result.plan is None:
        out.print(f"  no plan found within {time_limit:g} s (--time-limit).")
        return
    proven = "proven best" if result.status == "optimal" else f"best found; at most {result.bound}"
    out.print(f"  best possible score: [bold]{result.score}[/bold] ({proven}); you scored "
              f"{state.scores()[0]}.")
    print_plan(m, result.plan, deal, ch)


def game_record(state: Any, challenge: str | None, map_file: str | None, seed: int) -> dict:
    """The game so far in the engine's history-position format (module docstring).

    A finished game is recorded whole. An unfinished one is recorded as
    player 0 knows it (it is saved at player 0's prompt): without the seed,
    which would tell the cards still to come ("seed": null; every card dealt
    so far is a move of the record, so it replays all the same), and, in the
    setup of a game with several players, with the other seats' private
    cards re-dealt from the cards player 0 has not seen
    (:func:`solvers.agents.base.seat_view`)."""
    history = list(state.history)
    if not state.is_terminal() and state.game.num_players > 1 and state.round == 0:
        from solvers.agents.base import seat_view

        view = seat_view(state, 0)
        dealt = view.order[:view.pos]
        history = dealt + history[len(dealt):]
    replay = state.game.new_initial_state(seed=seed)
    moves = []
    for a in history:
        moves.append(replay.action_to_string(a))
        replay.apply_action(a)
    options: dict[str, Any] = {}
    if challenge is not None:
        options["challenge"] = state.game.map.locations[state.game.map.location(challenge).id].name
    if map_file is not None:
        options["map"] = os.path.abspath(map_file)
    return {"game": "c2c", "players": state.game.num_players, "options": options,
            "seed": seed if state.is_terminal() else None, "moves": moves}


def _record_text(record: dict) -> str:
    return json.dumps(record, indent=1) + "\n"


def save_game(record: dict, path: str) -> str:
    """Write a game record as JSON, all at once (:func:`solvers.files.write_atomic`:
    a failure leaves no half a file); the absolute path written."""
    return write_atomic(path, _record_text(record), "game file")


#: Names tried for an unfinished game that may not replace an existing file.
MAX_SIDE_NAMES = 100


def save_unfinished(record: dict, path: str) -> str:
    """Write an unfinished game to ``path`` only if no file is there; else
    next to it as ``NAME-unfinished.json`` (``-unfinished-2``, ...: the first
    free name), so that a game abandoned early never replaces a file, which
    may hold a finished game. The absolute path written."""
    stem, ending = os.path.splitext(path)
    names = [path] + [f"{stem}-unfinished{'' if k == 1 else f'-{k}'}{ending or '.json'}"
                      for k in range(1, MAX_SIDE_NAMES + 1)]
    for name in names:
        try:
            return write_atomic(name, _record_text(record), "game file", replace=False)
        except FileExistsError:
            continue
    raise SolversError(f"cannot save the unfinished game next to {path}: "
                       f"{names[1]} to {names[-1]} all exist")


def _offer_save(state: Any, challenge: str | None, map_file: str | None, seed: int,
                save_file: str | None) -> None:
    """Save with --save; on a terminal without it, offer to (Enter skips).
    Piped input is never asked, so a script cannot hang here.

    The rule, so that nothing is lost: a finished game replaces the --save
    file; an unfinished (abandoned) one never replaces an existing file and
    goes next to it instead (:func:`save_unfinished`), the message says
    where. A name typed at the offer that exists is replaced only when the
    player says yes."""
    record = game_record(state, challenge, map_file, seed)
    finished = state.is_terminal()
    if save_file is not None:
        where = save_game(record, save_file) if finished else save_unfinished(record, save_file)
        if where != os.path.realpath(save_file):
            out.print(f"{save_file} exists and this game is unfinished, so that file is kept.")
        out.print(f"Game saved to {where} (the deal and every move, JSON).")
        return
    if not sys.stdin.isatty():
        return
    while True:
        try:
            path = click.prompt("Save this game for review? File name (Enter: no)", default="",
                                show_default=False).strip()
            if not path:
                return
            try:
                check_output_path(path, "save")
            except SolversError as e:
                out.print(f"  {e}")
                continue
            if os.path.exists(path) and not click.confirm(f"{path} exists: replace it?",
                                                          default=False):
                continue
        except (click.exceptions.Abort, EOFError):
            return
        out.print(f"Game saved to {save_game(record, path)} (the deal and every move, JSON).")
        return
