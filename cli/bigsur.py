"""``solve bigsur``: score a Highway built at the table; play against the AI."""

from __future__ import annotations

from typing import Any

import click

from .common import ITERATIONS, SEED, out, print_json, seconds_type

CARDS_HELP = ("A card file of the same schema as the built-in one (e.g. a transcription of "
              "the printed cards); see docs/rules/big-sur.md.")


@click.group("bigsur")
def bigsur() -> None:
    """Big Sur: score a Highway built at the table, play against the AI.

    \b
    solve bigsur score HIGHWAY.json          the score broken down
    solve bigsur score HIGHWAY.json --json   the same as JSON
    solve bigsur play --players 2            play in the terminal; 'hint' asks the AI

    The rules as the library reads them, and the reconstructed card set:
    docs/rules/big-sur.md.
    """


def score_report(spots: list[Any]) -> dict[str, Any]:
    """The itemised score of a Highway as a JSON-friendly dict (positions 1-based)."""
    from solvers.games.bigsur.scoring import score_highway

    b = score_highway(spots)

    def card_name(pos: int) -> str:
        number = spots[pos].card.number
        return f"#{number}" if number else f"card {pos + 1}"

    return {
        "total": b.total,
        "stretches": [
            {"scenery": s.scenery, "miles": s.miles, "icons": s.icons,
             "positions": [k + 1 for k in s.positions],
             "card_miles": [spots[k].miles() for k in s.positions]}
            for s in sorted(b.stretches, key=lambda s: (s.first, s.scenery))
        ],
        "not_stretches": sorted({k for spot in spots for k in spot.card.scenery}
                                - {s.scenery for s in b.stretches}),
        "bonuses": [{"position": pos + 1, "card": card_name(pos), "text": text, "points": points}
                    for pos, text, points in b.bonuses],
        "landmarks": {
            "count": b.landmarks, "points": b.landmark_count_points,
            "placed": [{"position": pos + 1, "name": spot.landmark.name, "stretch": spot.claimed,
                        "ability": spot.landmark.ability.text}
                       for pos, spot in enumerate(spots) if spot.landmark is not None],
            "abilities": [{"position": pos + 1, "name": spots[pos].landmark.name, "text": text,
                           "points": points} for pos, text, points in b.abilities],
        },
    }


@bigsur.command("score")
@click.argument("highway", metavar="HIGHWAY.json", type=click.Path(dir_okay=False))
@click.option("--cards", "cards_file", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help=CARDS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
def score(highway: str, cards_file: str | None, as_json: bool) -> None:
    """The score of the Highway in HIGHWAY.json, broken down.

    The file is a JSON object whose "highway" lists the cards from left to
    right: a card number from the card file, or a card described inline,
    {"scenery": ["field", "ocean"], "miles": 3}, with an optional "bonus"
    (2-mile cards, e.g. {"kind": "scenery_types", "points": 1}) and an
    optional "landmark" (a number, a name, or {"scenery": [...], "ability":
    {"kind": "points", "points": 4}}). See examples/bigsur/rulebook-highway.json.
    """
    from solvers.games.bigsur.data import load_cards
    from solvers.games.bigsur.highway import load_highway

    spots = load_highway(highway, load_cards(cards_file))
    data = score_report(spots)
    if as_json:
        print_json(data)
        return
    width = 66
    out.print("[bold]Stretches[/bold]")
    for s in data["stretches"]:
        cards = ", ".join(str(p) for p in s["positions"])
        sums = " + ".join(str(m) for m in s["card_miles"])
        text = f"  {s['scenery'].capitalize()} (cards {cards}: {sums} = {s['miles']} miles)"
        out.print(f"{text:<{width}}{s['miles']:>4}")
    for kind in data["not_stretches"]:
        out.print(f"  {kind.capitalize()}: no Stretch (fewer than 3 icons side by side)")
    if not data["stretches"]:
        out.print("  (none)")
    out.print("[bold]2-Mile Bonuses[/bold]")
    for b in data["bonuses"]:
        text = f"  {b['card']}: {b['text']}"
        out.print(f"{text:<{width}}{b['points']:>4}")
    if not data["bonuses"]:
        out.print("  (none)")
    out.print("[bold]Landmarks[/bold]")
    lm = data["landmarks"]
    text = f"  {lm['count']} Landmark{'s' if lm['count'] != 1 else ''} in the Highway"
    out.print(f"{text:<{width}}{lm['points']:>4}")
    for a in lm["abilities"]:
        text = f"  {a['name']} (card {a['position']}): {a['text']}"
        out.print(f"{text:<{width}}{a['points']:>4}")
    for p in lm["placed"]:
        if p["ability"] not in {a["text"] for a in lm["abilities"] if a["position"] == p["position"]}:
            out.print(f"  {p['name']} (card {p['position']}, {p['stretch']} Stretch): {p['ability']}")
    out.print(f"{'[bold]Total[/bold]':<{width + 13}}{data['total']:>4}")


# ------------------------------------------------------------------ play
HELP_LINE = ("Type a move's number or its words ('take 12', 'draw', 'build 12', 'left', 'discard 12', "
             "'pay', 'claim McWay Falls', 'end'). 'hint' asks the AI, 'auto' plays its move, "
             "'moves' lists every move, 'table' redraws, 'quit'.")
SHORT = {"draw": "draw from the deck", "left": "at the left end", "right": "at the right end",
         "end": "end turn"}


def parse_move(state: Any, text: str) -> int:
    """A move typed by a player: the words of ``action_to_string`` or a short form."""
    words = " ".join(text.lower().split())
    return state.string_to_action(SHORT.get(words, words))


def _game(players: int, cards_file: str | None, reference: bool = False) -> Any:
    from solvers.games.bigsur.data import load_cards

    cards = load_cards(cards_file)
    if reference:
        from solvers.games.bigsur.reference import BigSur

        return BigSur(players, cards)
    from solvers.games.bigsur.kernel import BigSurKernel

    return BigSurKernel(players, cards)


@bigsur.command("play")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Seats; you are seat 0, the others are AI players.")
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The AI for the other seats and for hints, as an agent spec.")
@click.option("--time", "seconds", type=seconds_type(), default=1.0, show_default=True,
              metavar="S", help="Seconds per AI decision (an MCTS spec without a budget).")
@click.option("--seed", type=SEED, default=None, help="Shuffle seed [default: random].")
@click.option("--cards", "cards_file", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help=CARDS_HELP)
@click.option("--color/--no-color", default=True, show_default=True, help="Colour the cards.")
def play(players: int, ai_spec: str, seconds: float, seed: int | None, cards_file: str | None,
         color: bool) -> None:
    """Play Big Sur in the terminal against AI players."""
    import secrets

    from .common import ask_move, play_until_seat_zero
    from .render_bigsur import legend, table_text
    from .switchbacks import _agent

    seed = secrets.randbits(31) if seed is None else seed
    game = _game(players, cards_file)
    state = game.new_initial_state(seed=seed)
    ai = _agent(ai_spec, game, seed, time=seconds)
    out.print(f"Big Sur, {players} players, seed {seed}. You are player 0.")
    out.print(legend())
    out.print(HELP_LINE)

    def announce(seat: int, move: str) -> None:
        out.print(f"  player {seat}: {move}")

    shown_turn = None
    while play_until_seat_zero(state, ai, announce):
        if (state.step, state.taken) == ("take", 0) and shown_turn != len(state.history):
            shown_turn = len(state.history)
            out.print()
            out.print(table_text(state, 0, color))
        legal = state.legal_actions()
        moves = [state.action_to_string(a) for a in legal]
        out.print("  Moves: " + "  ".join(f"{i}. {m}" for i, m in enumerate(moves[:12], 1))
                  + ("  ..." if len(moves) > 12 else ""))

        def list_moves(_: str = "") -> None:
            for i, mv in enumerate(moves, 1):
                out.print(f"  {i:>3}. {mv}")

        action = ask_move(state, ai, lambda text: parse_move(state, text), help_line=HELP_LINE,
                          value_label="win share",
                          commands={"auto": lambda _: ai.step(state),
                                    "table": lambda _: out.print(table_text(state, 0, color)),
                                    "moves": list_moves})
        if action is None:
            out.print("Game abandoned.")
            return
        out.print(f"  you: {state.action_to_string(action)}")
        state.apply_action(action)
    out.print()
    out.print(table_text(state, 0, color))
    scores = state.scores()
    out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(scores)))
    winners = [p for p, x in enumerate(state.returns()) if x > 0]
    if winners == [0]:
        out.print("[bold]You win![/bold]")
    else:
        out.print("Winner" + ("s" if len(winners) > 1 else "") + ": "
                  + " and ".join("you" if p == 0 else f"player {p}" for p in winners))


# ---------------------------------------------------------------- analyse
@bigsur.command("analyse")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The agent that ranks the moves.")
@click.option("--time", "seconds", type=seconds_type(), default=None, metavar="S",
              help="Seconds of search (an MCTS spec without a budget) [default: 1].")
@click.option("--iterations", type=ITERATIONS, default=None, metavar="N",
              help="Iterations of search instead of a time (replays exactly with --seed).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--top", type=click.IntRange(1), default=10, show_default=True,
              help="How many moves to show.")
@click.option("--cards", "cards_file", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help=CARDS_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
def analyse(position: str, ai_spec: str, seconds: float | None, iterations: int | None, seed: int,
            top: int, cards_file: str | None, as_json: bool) -> None:
    """The AI's ranked moves for the player to move in POSITION.json.

    The file describes the table from the seat of the player to move (see
    solvers.games.bigsur.position): every Highway, their hand, every hand
    size, each discard pile's size and top card, the Depot and the Landmark
    row. The AI sees only what that player may know: everything else is
    re-dealt in its search. ``value`` is the mean win share after the move.
    """
    from solvers.games.bigsur.position import load_position

    from .render_bigsur import table_text
    from .switchbacks import _agent

    state = load_position(position, cards_file)
    player = state.current_player()
    if seconds is None and iterations is None:
        seconds = 1.0
    agent = _agent(ai_spec, state.game, seed, time=seconds, iterations=iterations)
    rows = agent.analyse(state)
    data = {
        "game": "bigsur", "position": position, "to_move": player, "step": state.step,
        "agent": ai_spec, "seed": seed,
        "moves": [{"rank": i, "move": r["move"], "action": r["action"], "value": round(r["value"], 4),
                   "visits": r["visits"]} for i, r in enumerate(rows[:top], 1)],
        "legal_moves": len(rows),
    }
    if as_json:
        print_json(data)
        return
    out.print(table_text(state, player, color=False))
    from rich.table import Table

    t = Table(title=f"Player {player} to move ({state.step}), {ai_spec}: best {min(top, len(rows))} "
                    f"of {len(rows)} moves")
    for col in ("#", "move", "win share", "visits"):
        t.add_column(col, justify="left" if col == "move" else "right")
    for r in data["moves"]:
        t.add_row(str(r["rank"]), r["move"], f"{r['value']:.3f}", str(r["visits"]))
    out.print(t)
