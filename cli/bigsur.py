"""``solve bigsur``: score a Highway built at the table."""

from __future__ import annotations

from typing import Any

import click

from .common import out, print_json

CARDS_HELP = ("A card file of the same schema as the built-in one (e.g. a transcription of "
              "the printed cards); see docs/rules/big-sur.md.")


@click.group("bigsur")
def bigsur() -> None:
    """Big Sur: score a Highway built at the table.

    \b
    solve bigsur score HIGHWAY.json          the score broken down
    solve bigsur score HIGHWAY.json --json   the same as JSON

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
