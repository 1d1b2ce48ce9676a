"""``solve bigsur``: the score of a Highway built at the table (``score
HIGHWAY.json``, besides any position), and what :mod:`solvers.cli.verbs`
needs of the game (its record's ``renderer`` and ``move_reader``)."""

from __future__ import annotations

from typing import Any

import click

from . import read_bigsur, render_bigsur
from .common import out, print_json

CARDS_HELP = ("A card file of the same schema as the built-in one (e.g. a transcription of "
              "the printed cards); see docs/rules/big-sur.md.")


@click.group("bigsur")
def bigsur() -> None:
    """Big Sur: score a Highway built at the table, play against the AI.

    \b
    solve bigsur score HIGHWAY.json          a Highway's score broken down
    solve bigsur score HIGHWAY.json --json   the same as JSON
    solve bigsur score game.json             every player's score in a saved game
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
@click.option("--data", "cards_file", default=None, metavar="FILE", type=click.Path(dir_okay=False),
              help=CARDS_HELP + " (also --cards)")
@click.option("--cards", "old_cards", default=None, hidden=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
def score(highway: str, cards_file: str | None, old_cards: str | None, as_json: bool) -> None:
    """The score of the Highway in HIGHWAY.json, broken down; of every
    player, item by item, when the file is a position or a saved game.

    The file is a JSON object whose "highway" lists the cards from left to
    right: a card number from the card file, or a card described inline,
    {"scenery": ["field", "ocean"], "miles": 3}, with an optional "bonus"
    (2-mile cards, e.g. {"kind": "scenery_types", "points": 1}) and an
    optional "landmark" (a number, a name, or {"scenery": [...], "ability":
    {"kind": "points", "points": 4}}). See examples/bigsur/rulebook-highway.json.

    \b
    Examples:
      solve bigsur score examples/bigsur/rulebook-highway.json
      solve bigsur score game.json --json
    """
    from solvers.data import read_json
    from solvers.games.bigsur import GAME
    from solvers.games.bigsur.data import load_cards
    from solvers.games.bigsur.highway import parse_highway

    cards_file = cards_file or old_cards
    raw = read_json(highway, "highway file")
    if isinstance(raw, dict) and "highway" not in raw and {"format", "game", "highways",
                                                             "moves"} & set(raw):
        from .verbs import load_state, score_position

        state = load_state(GAME, highway, {"cards": cards_file} if cards_file else {})
        score_position(GAME, state, as_json)
        return
    spots = parse_highway(raw, load_cards(cards_file), highway)
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


# ------------------------------------------------------------- play hooks
def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The table as ``seat`` may see it (``seat`` None: from the seat of the
    player to move, every Highway being public)."""
    return render_bigsur.draw(state, seat, color)


def value_words(game: Any, value: float) -> str:
    return f"win share {value:.3f}"


#: The game's move reader (its record's ``move_reader``): a listed move's
#: number, its words or any unambiguous short form (``take 12``, ``pay``).
parse_move = read_bigsur.read_move

#: What the reader understands, for the prompt's ``help``.
HELP = read_bigsur.HELP

#: A line standing for several moves in a row (``discard 30 12``, in any
#: order): :mod:`solvers.cli.verbs` plays them one after another.
read_plan = read_bigsur.read_plan

