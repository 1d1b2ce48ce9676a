"""Drawing a Big Sur table as text: cards, Highways, hands, the Depot and the
Landmark row. Presentation only; the rules live in :mod:`solvers.games.bigsur`.

:func:`draw` is the whole screen for one seat (``seat=None``: everything):
every Highway with its Stretches marked, the Depot, the Landmark row, the
hand (a card just drawn from the deck marked), which Persistent Materials
and Recycling the player to move has still unused this turn, a build in
progress, and at the end each score item by item. It reads only what
``seat`` may see, so two states that differ in nothing else draw alike.

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
    above it as ``^name``; then the current score and the Stretches
    (:func:`stretches_text`)."""
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
    text = f"{road}   score {state.scores()[player]}"
    marks = stretches_text(state, player, color)
    return f"{text}   Stretches: {marks}" if marks else text


def stretches_text(state: Any, player: int, color: bool = True) -> str:
    """The Stretches of ``player``'s Highway: Scenery, the cards from left to
    right, miles, and whether a Landmark was claimed through it
    (``Oc 12-7-30 6mi used``); empty when there is none."""
    from solvers.games.bigsur.scoring import find_stretches, stretch_used

    spots = state.spots(player)
    highway = state.highways[player]
    out = []
    for st in sorted(find_stretches(spots), key=lambda st: (st.first, st.scenery)):
        cards = "-".join(str(highway[k]) for k in st.positions)
        used = "used" if stretch_used(spots, st) else "unused"
        out.append(f"{_scenery(st.scenery, color)} {cards} {st.miles}mi {used}")
    return "; ".join(out)


def table_text(state: Any, viewer: int | None, color: bool = True) -> str:
    """Everything ``viewer`` may see (None: everything), as lines of text."""
    g = state.game
    cards = g.cards
    lines = []
    for p in range(g.num_players):
        who = "you" if p == viewer else f"player {p}"
        if viewer is None and p == state.player and not state.is_terminal():
            who += " (to move)"
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
    drawn = just_drawn(state, viewer)
    for p in (range(g.num_players) if viewer is None else [viewer]):
        who = "Your hand" if p == viewer else f"Hand of player {p}"
        lines.append(f"{who} ({len(state.hands[p])}):")
        lines += [f"  {card_text(cards.card(c), color)}" + ("   <- just drawn" if c == drawn and
                                                            p == state.player else "")
                  for c in sorted(state.hands[p])]
    lines.append(f"Deck: {len(state.order) - state.pos} cards; Landmark deck: "
                 f"{len(state.lorder) - state.lpos}")
    return "\n".join(lines)


# ----------------------------------------------------------------- the screen
def just_drawn(state: Any, seat: int | None) -> int | None:
    """The card the player to move has just drawn from the deck, when
    ``seat`` may see it (it is theirs, or ``seat`` is None), else None.
    Read from the state's history (empty in a seat's view: then None)."""
    g = state.game
    history = getattr(state, "history", None) or []
    if len(history) < 2 or history[-2] != g.DRAW or state.step not in ("take", "build"):
        return None
    if seat is not None and seat != state.player:
        return None
    card = history[-1] - g.CARD_BASE + 1
    return card if card in state.hands[state.player] else None


def drawn_line(state: Any, seat: int | None, color: bool = True) -> str | None:
    """``You drew #12 ...`` after a draw from the deck that ``seat`` may
    see (:func:`just_drawn`), else None."""
    drawn = just_drawn(state, seat)
    if drawn is None:
        return None
    who = "You" if state.player == seat else f"Player {state.player}"
    return f"{who} drew {card_text(state.game.cards.card(drawn), color)}"


def _unused_sources(state: Any, player: int) -> list[tuple[str, str]]:
    """The Persistent Materials ``player`` has not used this turn: (what
    supplies it, Material), 1-mile cards in card order, then Landmarks."""
    cards = state.game.cards
    used = {tuple(u) for u in state.used}
    out = []
    for c in sorted(state.highways[player]):
        m = cards.card(c).persistent
        if m and ("card", c) not in used:
            out.append((f"#{c}", m))
    for l, _ in sorted(state.marks[player].values()):
        ability = cards.landmark(l).ability
        if ability.kind == "material" and ("landmark", l) not in used:
            out.append((cards.landmark(l).name, ability.get("material")))
    return out


def supplies_text(state: Any) -> str:
    """What the player to move may still use this turn besides their hand:
    the unused Persistent Materials and whether Recycling is left (public
    information)."""
    cards = state.game.cards
    p = state.player
    free = ", ".join(f"{MATERIAL_MARK[m]} ({src})" for src, m in _unused_sources(state, p)) or "none"
    top = state.piles[p][-1] if state.piles[p] else None
    if state.recycled:
        rec = "used"
    elif top is None:
        rec = "nothing to recycle (empty discard pile)"
    else:
        rec = f"unused ({MATERIAL_MARK[cards.card(top).material]} on top of the pile)"
    return f"Unused this turn: persistent {free}; Recycling {rec}"


def building_text(state: Any, seat: int | None) -> str | None:
    """A build in progress: the card, the end, the discards so far (the
    cards only for their owner or ``seat`` None)."""
    if state.building is None or state.step not in ("end", "pay", "top"):
        return None
    text = f"Building {state.building}"
    if state.end:
        text += f" at the {state.end} end"
    if state.paying:
        if seat is None or seat == state.player:
            text += "; discarded so far " + ", ".join(str(c) for c in state.paying)
        else:
            text += f"; {len(state.paying)} cards discarded so far"
    return text


def breakdown_lines(state: Any, player: int) -> list[str]:
    """``player``'s score item by item: each Stretch (its cards' miles), each
    2-Mile Bonus, the Landmark count and each Landmark's points, and the
    total (which equals ``state.scores()[player]``)."""
    from solvers.games.bigsur.scoring import score_highway

    spots = state.spots(player)
    highway = state.highways[player]
    b = score_highway(spots)
    rows: list[tuple[str, int]] = []
    for st in sorted(b.stretches, key=lambda st: (st.first, st.scenery)):
        sums = " + ".join(str(spots[k].miles()) for k in st.positions)
        cards = ", ".join(str(highway[k]) for k in st.positions)
        rows.append((f"{st.scenery.capitalize()} Stretch (cards {cards}: {sums})", st.miles))
    for pos, text, points in b.bonuses:
        rows.append((f"2-Mile Bonus of {highway[pos]}: {text}", points))
    if b.landmarks:
        rows.append((f"{b.landmarks} Landmark{'s' if b.landmarks != 1 else ''}", b.landmark_count_points))
    for pos, text, points in b.abilities:
        rows.append((f"{spots[pos].landmark.name} (above {highway[pos]}): {text}", points))
    lines = [f"  {points:>4}  {item}" for item, points in rows] or ["        (nothing scores)"]
    lines.append(f"  {b.total:>4}  total")
    return lines


def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The screen for ``seat`` (None: everything visible): :func:`table_text`,
    then the player to move's unused supplies and a build in progress, or at
    the end every score item by item. Rich markup when ``color``."""
    lines = [table_text(state, seat, color)]
    if state.is_terminal():
        for p in range(state.game.num_players):
            who = "You" if p == seat else f"Player {p}"
            lines.append(f"{who}: {state.scores()[p]} points")
            lines += breakdown_lines(state, p)
        return "\n".join(lines)
    if state.step in ("take", "build", "end", "pay", "top", "place"):
        who = "you" if state.player == seat else f"player {state.player}"
        lines.append(f"To move: {who}. {supplies_text(state)}")
    drawn = drawn_line(state, seat, color)
    if drawn:
        lines.append(drawn)
    building = building_text(state, seat)
    if building:
        lines.append(building)
    return "\n".join(lines)
