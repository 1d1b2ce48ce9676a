"""Drawing a Santa Cruz island as text, with each seat's buildings in its
colour, and one line per player. Presentation only; the rules live in
:mod:`solvers.games.santacruz` (and docs/rules/santa-cruz.md).

>>> from solvers.games.santacruz.kernel import SantaCruzKernel
>>> state = SantaCruzKernel(2).new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> print(draw_board(state, color=False).splitlines()[0])
                                 L00   C01   H02   H03   H04
"""

from __future__ import annotations

from typing import Any

from solvers.games.santacruz.data import draw_island
from solvers.games.santacruz.reference import render

SEAT_LETTERS = "abcd"
SEAT_COLOURS = ("blue", "red", "green", "yellow")
LEGEND = ("a06 a building of player a on site 6 (ab6: shared); H07 / C15 / L04 a free face-up "
          "house, church or lighthouse site; ?35 a face-down tile; c00 / l06 / v16 not laid yet; "
          "- / \\ roads, ~ rivers")


def site_label(state: Any, site: int) -> str:
    """The three characters of one site (see LEGEND)."""
    isl = state.game.island
    occ = state.occupants[site]
    if occ:
        owners = "".join(SEAT_LETTERS[q] for q in occ)
        return owners + (f"{site:02d}" if len(owners) == 1 else str(site % 10))
    if state.face_up >> site & 1:
        return isl.tiles[state.site_tile[site]].building[0].upper() + f"{site:02d}"
    if state.site_tile[site] >= 0:
        return f"?{site:02d}"
    return f"{isl.sites[site].kind[0]}{site:02d}"


def draw_board(state: Any, color: bool = True) -> str:
    """The island with tiles and buildings (rich markup when ``color``)."""
    isl = state.game.island
    labels = {s: site_label(state, s) for s in range(isl.num_sites)}
    text = draw_island(isl, labels)
    if not color:
        return text
    for s, label in labels.items():
        occ = state.occupants[s]
        if occ:
            style = f"bold {SEAT_COLOURS[occ[-1]]}"
        elif label.startswith("?"):
            style = "dim"
        else:
            continue
        text = text.replace(label, f"[{style}]{label}[/{style}]", 1)
    return text


def describe_player(state: Any, player: int, viewer: int | None = None) -> str:
    """One line about a player: score and place, supply, cards, birds (their
    own secrets only when ``viewer`` is them)."""
    isl = state.game.island
    place = state.ranking().index(player) + 1
    supply = state.supply[player]
    hand = state.hand_build[player]
    cards = " ".join(f"{n} {k}" for k, n in hand.items() if n) or "-"
    text = (f"player {player} ({SEAT_LETTERS[player]}): {state.score[player]} points "
            f"(place {place}); left {supply['house']} houses, {supply['church']} churches, "
            f"{supply['lighthouse']} lighthouses; building cards {cards}")
    if state.set_of[player] >= 0:
        text += f" (set {isl.building_sets[state.set_of[player]].letter})"
    birds = state.birds[player]
    if viewer == player:
        scoring = ", ".join(isl.scoring_cards[c].name for c in sorted(state.hand_score[player])) or "-"
        text += f"; scoring cards {scoring}; bird tokens {sorted(birds) or '-'}"
    else:
        text += f"; {len(state.hand_score[player])} scoring cards; {len(birds)} bird tokens"
    played = [isl.scoring_cards[c].name for c in state.played_score[player]]
    if played:
        text += f"; played {', '.join(played)}"
    return text


__all__ = ["draw_board", "describe_player", "render", "LEGEND", "SEAT_LETTERS"]
