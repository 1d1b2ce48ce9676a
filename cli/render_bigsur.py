"""Drawing a Big Sur table as text: cards, Highways, hands, the Depot and the
Landmark row. Presentation only; the rules live in :mod:`solvers.games.bigsur`.

>>> from solvers.games.bigsur.data import load_cards
>>> card_text(load_cards().card(1), color=False)
'#1 [Fo Fi] 2mi cost En+St back St  bonus: Score 1 point for each type of Scenery in your Highway.'
"""

from __future__ import annotations

from typing import Any

SCENERY_MARK = {"ocean": ("Oc", "blue"), "forest": ("Fo", "green"), "mountain": ("Mo", "white"),
                "flower": ("Fl", "magenta"), "field": ("Fi", "yellow")}
MATERIAL_MARK = {"stone": "St", "water": "Wa", "timber": "Ti", "engineering": "En", "steel": "Se"}


def legend() -> str:
    sc = ", ".join(f"{m} {k.capitalize()}" for k, (m, _) in SCENERY_MARK.items())
    ma = ", ".join(f"{m} {k.capitalize()}" for k, m in MATERIAL_MARK.items())
    return f"Scenery: {sc}. Materials: {ma}."


def _scenery(kind: str, color: bool) -> str:
    mark, colour = SCENERY_MARK[kind]
    return f"[{colour}]{mark}[/{colour}]" if color else mark


def card_text(card: Any, color: bool = True) -> str:
    """One Highway card: number, Scenery, miles, cost, what its back
    supplies, and its Persistent Material or 2-Mile Bonus."""
    icons = " ".join(_scenery(s, color) for s in card.scenery)
    cost = "+".join(MATERIAL_MARK[m] for m in card.cost)
    text = f"#{card.number} [{icons}] {card.miles}mi cost {cost} back {MATERIAL_MARK[card.material]}"
    if color:
        text = text.replace(f"#{card.number} [", f"#{card.number} \\[", 1)
    if card.persistent:
        text += f"  persistent {MATERIAL_MARK[card.persistent]}"
    if card.bonus:
        text += f"  bonus: {card.bonus.text}"
    return text


def highway_text(state: Any, player: int, color: bool = True) -> str:
    """A Highway left to right: each card's Scenery and miles, a Landmark
    above it as ``^name``; then the current score."""
    cards = state.game.cards
    parts = []
    for c in state.highways[player]:
        card = cards.card(c)
        icons = "".join(_scenery(s, color) for s in card.scenery)
        part = f"{c}:{icons}{card.miles}"
        mark = state.marks[player].get(c)
        if mark:
            part += f"^{cards.landmark(mark[0]).name}"
        parts.append(part)
    road = " | ".join(parts) if parts else "(nothing built yet)"
    return f"{road}   score {state.scores()[player]}"


def table_text(state: Any, viewer: int, color: bool = True) -> str:
    """Everything ``viewer`` may see, as lines of text."""
    g = state.game
    cards = g.cards
    lines = []
    for p in range(g.num_players):
        who = "you" if p == viewer else f"player {p}"
        top = state.piles[p][-1] if state.piles[p] else None
        pile = (f", discard pile {len(state.piles[p])} (top "
                f"{MATERIAL_MARK[cards.card(top).material]})" if top else "")
        lines.append(f"{who}: {highway_text(state, p, color)}  (hand {len(state.hands[p])}{pile})")
    lines.append("Depot:")
    lines += [f"  {card_text(cards.card(c), color)}" for c in sorted(state.depot)]
    lines.append("Landmarks:")
    for l in sorted(state.row):
        lm = cards.landmark(l)
        needs = " or ".join(_scenery(s, color) for s in lm.scenery)
        lines.append(f"  {lm.name} (a {needs} Stretch): {lm.ability.text}")
    lines.append(f"Your hand ({len(state.hands[viewer])}):")
    lines += [f"  {card_text(cards.card(c), color)}" for c in sorted(state.hands[viewer])]
    lines.append(f"Deck: {len(state.order) - state.pos} cards; Landmark deck: "
                 f"{len(state.lorder) - state.lpos}")
    return "\n".join(lines)
