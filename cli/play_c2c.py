"""Coast to Coast in the terminal: what :mod:`solvers.cli.verbs` needs of
the game (its record's ``renderer`` and ``move_reader``): the sheet and the
cards drawn for a seat, a typed move read (``cross NAME``, ``circle NAME
with CARD``, 3-letter codes), what an AI's value means, and the end screen's
hindsight best (the best play of the cards the seat saw, every card known
in advance, proven with CP-SAT)."""

from __future__ import annotations

from typing import Any

from solvers.errors import SolversError
from solvers.games.c2c.data import CoastMap
from solvers.games.c2c.online import game_hint_player

from .common import plural

#: Seconds for the hindsight best on the end screen.
HINDSIGHT_SECONDS = 10.0


def _required(game: Any) -> set[int]:
    return set(game.required())


def default_ai(game: Any) -> str:
    """The AI of ``solve c2c play`` without --ai: the strong online player
    (solo, the online agent: the last two rounds exactly; in a challenge
    whose learned values ship, the learned player)."""
    return game_hint_player(game)


def intro(game: Any, seat: int) -> str:
    required = _required(game)
    text = ("Moves: 'cross Hollywood', 'circle Chase Field with The Alamo' (names or the "
            "sheet's 3-letter codes, any case); 'info NAME' shows a location.")
    if required:
        text += (f"\nCircle all {plural(len(required), 'location')} marked '!' on the sheet to "
                 "win the challenge; a lost challenge scores 0.")
    return text


def value_words(game: Any, value: float) -> str:
    """An MCTS value of this game in words. Its search utility
    (:mod:`solvers.games.c2c.kernel`) is, solo with a challenge, 0 for a
    lost challenge and 1 + score/1000 for a won one, so a mean below 1 is
    about the chance of winning it; solo without one, score/100; with
    several players, the win share."""
    if game.num_players > 1:
        return f"win share {value:.2f}"
    if game.challenge is not None:
        if value >= 1:
            return f"challenge won, expected score {1000 * (value - 1):.0f}"
        return f"win chance about {100 * value:.0f}% (value {value:.2f})"
    return f"expected score {100 * value:.0f}"


def value_note(game: Any) -> str:
    if game.num_players > 1:
        return ("win share: the AI's estimate of your share of first place after the move "
                "(1 a sure win, 0.5 a first place shared by two)")
    if game.challenge is not None:
        return ("value: the AI's mean of 0 for a lost challenge and 1 + score/1000 for a won one "
                "after the move, so below 1 it is about your chance to win the challenge")
    return "expected score: the AI's estimate of your final score after the move"


def commands(state: Any, seat: int) -> dict[str, Any]:
    """``info [NAME]``: a location's highway, region and type (every
    location without a name)."""
    m = state.game.map

    def info(arg: str) -> str:
        """a location's highway, region and type ('info NAME'; all without a name)"""
        if not arg:
            return "\n".join(f"  {describe_location(m, loc.id)}" for loc in m.locations)
        try:
            return f"  {describe_location(m, m.location(arg).id)}"
        except SolversError as e:
            return f"  {e}"

    return {"info": info}


def read_move(state: Any, text: str) -> int:
    """The move ``text`` names for the player to move (:func:`parse_c2c_move`)."""
    return parse_c2c_move(state, state.game.map, text)


def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The cards ``seat`` holds this round and its sheet, with its score so
    far (``seat`` None: every sheet). Only what ``seat`` may see: its own
    cards, and in the setup of a game of several players its private
    cards and the public ones."""
    if seat is None:
        return "\n".join(_draw_seat(state, p, True) for p in range(state.game.num_players))
    return _draw_seat(state, seat, color)


def _draw_seat(state: Any, seat: int, color: bool) -> str:
    from .render_c2c import draw_sheet

    m = state.game.map
    required = _required(state.game)
    info = state.information_state(seat)
    rnd = info["round"]
    lines = []
    players = state.game.num_players
    if state.game.num_players > 1:
        lines.append(f"[bold]Player {seat}[/bold]")
    if rnd <= 5 and not state.is_terminal():
        title = "Setup" if rnd == 0 else f"Round {rnd}"
        if rnd == 0 and players > 1:
            dealt = _chance_cards(state)
            private = dealt[2 * seat: 2 * seat + 2]
            public = dealt[2 * players: 2 * players + 2]
            lines.append(f"[bold]{title}[/bold]: cross off one of your 4 cards; the other 3 are "
                         "your starting circles.")
            lines.append("  your private cards (only you see them):")
            lines += [f"    {describe_location(m, c)}" for c in private]
            lines.append("  public cards (every player uses them):")
            lines += [f"    {describe_location(m, c)}" for c in public]
        else:
            lines.append(f"[bold]{title}[/bold]: your cards:")
            lines += [f"    {describe_location(m, c)}" for c in info["cards"]]
    sheet = info["sheet"]
    lines.append(draw_sheet(m, set(sheet["circled"]), set(sheet["crossed"]), set(sheet["exact"]),
                            required, legend=rnd == 0))
    b = state.score_breakdown(seat)
    lines.append(f"Score so far: {plural(b['total'], 'point')} (highways {b['highways']}, types "
                 f"{b['types']}, regions {b['regions']}, exact {b['exact']})")
    return "\n".join(lines)


def outro(state: Any, seat: int) -> str:
    """The end screen's verdict: the challenge won or lost and the required
    locations missed, then the hindsight best of ``seat``'s cards."""
    from .common import out

    m = state.game.map
    lines = []
    if state.game.num_players == 1:
        won = state.challenge_won()
        if won is not None:
            lines.append("[bold]Challenge won![/bold]" if won else
                         "[bold]Challenge lost (scores 0).[/bold]")
        circled = set(state.information_state(0)["sheet"]["circled"])
        missed = sorted(_required(state.game) - circled)
        if missed:
            lines.append("Required locations not circled: "
                         + ", ".join(m.locations[c].name for c in missed))
    out.print("\n".join(lines))
    challenge = None
    if state.game.num_players == 1 and state.game.challenge is not None:
        challenge = m.locations[state.game.challenge].name
    _hindsight(state, m, challenge, HINDSIGHT_SECONDS, seat)
    return ""


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


def parse_c2c_move(state: Any, m: CoastMap, text: str) -> int:
    """The action a player typed (``cross NAME``, ``circle NAME with CARD``,
    ``circle NAME`` when one card fits), or a SolversError giving the reason
    the move is not legal here."""
    legal = state.legal_actions()
    n = m.n
    info = state.information_state(state.current_player())
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


def _hindsight(state: Any, m: CoastMap, challenge: str | None, time_limit: float,
               seat: int = 0) -> None:
    """The best play of the cards player 0 saw, with every card known in advance."""
    from solvers.optimize.c2c import hindsight_optimum

    from .c2c import print_plan
    from .common import out

    players = state.game.num_players
    dealt = _chance_cards(state)
    setup = 2 * players + 2 if players > 1 else 4
    deal = (dealt[2 * seat: 2 * seat + 2] + dealt[2 * players: setup] if players > 1
            else dealt[:4]) + dealt[setup:]
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
        out.print(f"  no plan found within {time_limit:g} s.")
        return
    proven = "proven best" if result.status == "optimal" else f"best found; at most {result.bound}"
    out.print(f"  best possible score: [bold]{result.score}[/bold] ({proven}); you scored "
              f"{state.scores()[seat]}.")
    print_plan(m, result.plan, deal, ch)
