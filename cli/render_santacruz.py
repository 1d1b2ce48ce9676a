"""Drawing a Santa Cruz island as text, with each seat's buildings in its
colour, and one line per player. Presentation only; the rules live in
:mod:`solvers.games.santacruz` (and docs/rules/santa-cruz.md).

:func:`draw` is the whole screen for one seat (``seat=None``: everything):
the island, what every face-up tile shows, the sites the sharing privilege
may use, the players, and what the step needs (round two's sets with the
scoring cards they bring and the card just drawn, the second build of a
double move, every bird token once they are scored at the end). It reads
only what ``seat`` may see, so two states that differ in nothing else draw
alike.

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

from .common import plural

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


def describe_player(state: Any, player: int, viewer: int | None = None,
                    everything: bool = False) -> str:
    """One line about a player: score and place, supply, cards, birds (their
    own secrets only when ``viewer`` is them, or when ``everything``; every
    bird token once the game is over, when they have been scored)."""
    isl = state.game.island
    place = state.ranking().index(player) + 1
    supply = state.supply[player]
    hand = state.hand_build[player]
    cards = " ".join(f"{n} {k}" for k, n in hand.items() if n) or "-"
    text = (f"player {player} ({SEAT_LETTERS[player]}): {plural(state.score[player], 'point')} "
            f"(place {place}); left {plural(supply['house'], 'house')}, "
            f"{plural(supply['church'], 'church', 'churches')}, "
            f"{plural(supply['lighthouse'], 'lighthouse')}; building cards {cards}")
    if state.set_of[player] >= 0:
        text += f" (set {isl.building_sets[state.set_of[player]].letter})"
    birds = state.birds[player]
    if viewer == player or everything:
        scoring = ", ".join(isl.scoring_cards[c].name for c in sorted(state.hand_score[player])) or "-"
        text += f"; scoring cards {scoring}; bird tokens {sorted(birds) or '-'}"
        if state.step == "over":
            text += f" (scored {sum(birds)})"
    else:
        text += f"; {len(state.hand_score[player])} scoring cards; "
        text += (f"bird tokens {sorted(birds) or '-'} (scored {sum(birds)})" if state.step == "over"
                 else f"{len(birds)} bird tokens")
    played = [isl.scoring_cards[c].name for c in state.played_score[player]]
    if played:
        text += f"; played {', '.join(played)}"
    return text




# ----------------------------------------------------------------- the screen
def tile_text(tile: Any) -> str:
    """What a face-up tile shows, short: building letter and points, the
    resource (fish with its "+" bonus) and ``bird``.

    >>> from solvers.games.santacruz.data import Tile
    >>> tile_text(Tile("coast", "lighthouse", 3, "fish", 1, True))
    'L3 fish+1 bird'
    """
    words = [f"{tile.building[0].upper()}{tile.points}"]
    if tile.resource:
        words.append(tile.resource + (f"+{tile.fish_bonus}" if tile.fish_bonus else ""))
    if tile.bird:
        words.append("bird")
    return " ".join(words)


def sharing_sites(state: Any) -> list[int]:
    """The sites the sharing privilege may still use this round: a free
    place beside exactly one other player's building, on a face-up tile
    whose building the privileged player still has (whether a card reaches
    it is another matter). Empty once the privilege is used."""
    if state.step in ("over", "layout", "deal", "choose", "draw", "discard") or state.privilege_used:
        return []
    isl = state.game.island
    q = state.last_seat()
    out = []
    for s, occ in enumerate(state.occupants):
        if len(occ) == 1 and occ[0] != q and state.face_up >> s & 1 \
                and state.supply[q][isl.tiles[state.site_tile[s]].building] > 0:
            out.append(s)
    return out


def tiles_lines(state: Any, width: int = 100, reveal: bool = False) -> list[str]:
    """Every face-up site and what its tile shows (``07 L3 fish+1 bird``),
    wrapped to ``width``; occupied sites carry their owners' letters. With
    ``reveal`` (the referee's view), face-down tiles too (``38? H0 wood``)."""
    isl = state.game.island
    items = []
    for s in range(isl.num_sites):
        if not state.face_up >> s & 1:
            if reveal and state.site_tile[s] >= 0:
                items.append(f"{s:02d}? {tile_text(isl.tiles[state.site_tile[s]])}")
            continue
        occ = "".join(SEAT_LETTERS[q] for q in state.occupants[s])
        items.append(f"{s:02d}{'(' + occ + ')' if occ else ''} {tile_text(isl.tiles[state.site_tile[s]])}")
    lines, line = [], "  tiles:"
    for item in items:
        if len(line) + len(item) + 3 > width:
            lines.append(line)
            line = "        "
        line += f"  {item};"
    if items:
        lines.append(line.rstrip(";"))
    return lines


def _card_name(state: Any, card: int) -> str:
    from solvers.games.santacruz.web import card_text

    c = state.game.island.scoring_cards[card]
    return f"{c.name} ({card_text(c)})"


def step_lines(state: Any, seat: int | None) -> list[str]:
    """What the step in progress needs to be seen: round two's sets and the
    scoring cards each brings, the card just drawn (the viewer's own), the
    second build of a double move, the winner at the end."""
    g, isl = state.game, state.game.island
    lines = []
    if state.round == 2 and state.step in ("choose", "discard"):
        taken = {k: q for q, k in enumerate(state.set_of) if k >= 0}
        for k in sorted(state.set_scoring):
            b = isl.building_sets[k]
            cards = ", ".join(_card_name(state, c) for c in state.set_scoring[k]) or "no scoring card"
            owner = f" (taken by {SEAT_LETTERS[taken[k]]})" if k in taken else ""
            lines.append(f"  set {b.letter} ({b.name}) brings {cards}{owner}")
        seats = range(g.num_players) if seat is None else [seat]
        for q in seats:
            drawn, gone = state.drawn[q], state.discarded[q]
            if drawn >= 0 and gone < 0:
                who = "you" if q == seat else f"player {q} ({SEAT_LETTERS[q]})"
                lines.append(f"  {who} drew {_card_name(state, drawn)}: it joins the set's cards, "
                             "then one scoring card is discarded")
    if state.step == "build" and state.double:
        first = "first" if state.builds_left == 2 else "second"
        lines.append(f"  player {state.player} ({SEAT_LETTERS[state.player]}): the {first} build "
                     f"of a double {state.build_kind}")
    if state.step == "over":
        winner = state.ranking()[0]
        lines.append(f"  game over: player {winner} ({SEAT_LETTERS[winner]}) wins")
    return lines


def draw(state: Any, seat: int | None, color: bool = True) -> str:
    """The screen for ``seat`` (None: everything visible): the island, the
    face-up tiles, the sharing privilege, the players, then the step's
    details (:func:`step_lines`). Rich markup when ``color``."""
    g = state.game
    share = sharing_sites(state)
    board = draw_board(state, color=color)
    if color:
        for s in share:
            label = site_label(state, s)
            style = f"bold {SEAT_COLOURS[state.occupants[s][-1]]}"
            board = board.replace(f"[{style}]{label}[/{style}]",
                                  f"[{style} underline]{label}[/{style} underline]", 1)
    lines = [board, *tiles_lines(state, reveal=seat is None)]
    if share:
        q = state.last_seat()
        lines.append(f"  sharing privilege (player {q}, {SEAT_LETTERS[q]}, unused): may also build "
                     "beside " + ", ".join(site_label(state, s) for s in share)
                     + (" (underlined)" if color else ""))
    lines.append(f"  round {state.round}; scoring pile {len(state.deck) - state.deck_pos}; "
                 f"bird tokens left {len(state.bag) - state.bag_pos}")
    for p in range(g.num_players):
        lines.append("  " + describe_player(state, p, viewer=seat, everything=seat is None))
    lines += step_lines(state, seat)
    return "\n".join(lines)


__all__ = ["draw", "draw_board", "describe_player", "render", "sharing_sites", "tile_text",
           "LEGEND", "SEAT_LETTERS"]
