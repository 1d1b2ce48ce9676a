"""The Santa Cruz terminal screen and move reader (cli/render_santacruz.py,
cli/read_santacruz.py): pure functions tried on hand-built positions of the
reference rules, the seat's view on twin positions, and one game in a
pseudo-terminal where a typed site number builds there."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from cli_helpers import run_in_terminal
from seat_twins import assert_twins_draw_alike
from solvers.cli.read_santacruz import read_move
from solvers.cli.render_santacruz import draw, sharing_sites
from solvers.errors import SolversError
from solvers.games.santacruz.reference import SantaCruz

GAME = SantaCruz(players=2)
ISLAND = json.loads(resources.files("solvers.data").joinpath("santa_cruz.json").read_text())


def at_landing(seed: int = 11):
    """A reference game of seed ``seed`` at seat 1's landing (seat 0 chose
    set A, seat 1 set C)."""
    state = GAME.new_initial_state(seed=seed)
    state.apply_seeded_chance()
    state.apply_action(GAME.SET + 0)
    state.apply_action(GAME.SET + 2)
    state.apply_seeded_chance()
    assert state.step == "land" and state.player == 1
    return state


def at_play(seed: int = 11):
    """The same game once both players have landed (seat 1 plays first)."""
    state = at_landing(seed)
    while state.step == "land":
        state.apply_action(state.legal_actions()[0])
        state.apply_seeded_chance()
    assert state.step == "play"
    return state


# ------------------------------------------------------------------ reading
def test_a_bare_number_is_a_site_and_hash_n_a_listed_move():
    state = at_landing()
    legal = state.legal_actions()
    site = legal[-1]                       # a site whose number is no move number
    assert site > len(legal)
    assert read_move(state, str(site)) == site
    assert read_move(state, f"site {site}") == site
    assert read_move(state, f"land on site {site}") == site
    # the number that used to be read as a move number: site 5, not the 5th move
    assert 5 in legal and legal[4] != 5
    assert read_move(state, "5") == 5
    assert read_move(state, "#5") == legal[4]
    assert read_move(state, "move 5") == legal[4]


def test_a_site_that_cannot_be_built_on_is_one_helpful_line():
    state = at_landing()
    inland = next(s for s in range(GAME.num_sites) if s not in state.legal_actions())
    with pytest.raises(SolversError, match=rf"cannot build on site {inland} now: you may land on"):
        read_move(state, str(inland))
    with pytest.raises(SolversError, match="there is no site 99"):
        read_move(state, "99")
    with pytest.raises(SolversError, match="no move #40"):
        read_move(state, "#40")


def test_a_number_where_no_site_is_chosen_points_to_hash():
    state = GAME.new_initial_state(seed=11)
    state.apply_seeded_chance()
    assert state.step == "choose"
    with pytest.raises(SolversError, match="no site to choose now; type '#"):
        read_move(state, "2")
    assert read_move(state, "#2") == GAME.SET + 1


def test_short_forms_of_the_words():
    state = at_play()
    assert read_move(state, "ship") == GAME.PLAY_SHIP            # not "play double ship"
    assert read_move(state, "double road") == GAME.PLAY_DOUBLE + 1
    assert read_move(state, "play double river") == GAME.PLAY_DOUBLE + 2
    first = GAME.new_initial_state(seed=11)
    first.apply_seeded_chance()
    assert read_move(first, "set d") == GAME.SET + 3
    assert read_move(first, "set b") == GAME.SET + 1            # not set D (Balanced)
    assert read_move(first, "balanced") == GAME.SET + 3
    with pytest.raises(SolversError, match="could be 'choose set A"):
        read_move(first, "set r")                               # River or Road
    with pytest.raises(SolversError, match="not a legal move"):
        read_move(first, "fly")


# ------------------------------------------------------------------ drawing
def test_face_up_tiles_show_points_resource_fish_bonus_and_bird():
    state = at_landing()
    screen = draw(state, 0, color=False)
    tiles = ISLAND["tiles"]
    for site in (0, 1, 5):                 # coastal: face up from the layout
        t = tiles[state.site_tile[site]]
        words = [t["building"][0].upper() + str(t["points"])]
        if t.get("resource"):
            words.append(t["resource"] + (f"+{t['fish_bonus']}" if t.get("fish_bonus") else ""))
        if t.get("bird"):
            words.append("bird")
        assert f"{site:02d} {' '.join(words)};" in screen.replace("\n", " ") + ";"
    # a face-down tile shows nothing of itself
    down = next(s for s in range(GAME.num_sites) if state.site_tile[s] >= 0
                and not state.face_up >> s & 1)
    assert f" {down:02d} " not in screen.split("tiles:")[1].split("round")[0]


def test_the_sites_the_sharing_privilege_may_use_are_marked():
    state = at_landing()
    holder = state.last_seat()
    other = 1 - holder
    site = 5
    state.occupants[site] = [other]
    assert sharing_sites(state) == [site]
    line = next(l for l in draw(state, 0, color=False).splitlines() if "sharing privilege" in l)
    assert f"player {holder}" in line and f"{'ab'[other]}05" in line
    assert "underline" in draw(state, 0, color=True)
    # the holder's own building, a full site, a used privilege: nothing to mark
    state.occupants[site] = [holder]
    assert sharing_sites(state) == []
    state.occupants[site] = [other, holder]
    assert sharing_sites(state) == []
    state.occupants[site] = [other]
    state.privilege_used = True
    assert sharing_sites(state) == []
    assert "sharing privilege" not in draw(state, 0, color=False)


def test_the_second_build_of_a_double_move_is_shown():
    state = at_play()
    state.apply_action(GAME.PLAY_DOUBLE + 0)           # seat 1: double ship
    assert state.step == "build" and state.builds_left == 2
    assert "the first build of a double ship" in draw(state, None, color=False)
    state.apply_action(state.legal_actions()[0])
    state.apply_seeded_chance()
    assert state.step == "build" and state.builds_left == 1
    assert "the second build of a double ship" in draw(state, 1, color=False)


def round_two():
    """A reference game played at random up to seat 0's round-two choice
    (the first seed from 11 at which seat 0 is behind and chooses)."""
    import random

    for seed in range(11, 60):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed=seed)
        while not (state.round == 2 and state.step in ("choose", "discard")):
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.step == "choose" and state.player == 0:
            return state
    raise AssertionError("no game in which seat 0 chooses in round two")


def test_round_two_shows_each_sets_cards_and_the_card_just_drawn():
    state = round_two()
    screen = draw(state, 0, color=False)
    cards = ISLAND["scoring_cards"]
    for k, played in state.set_scoring.items():
        b = ISLAND["building_sets"][k]
        line = next(l for l in screen.splitlines() if f"set {b['letter']} ({b['name']}) brings" in l)
        for c in played:
            assert cards[c]["name"] in line
        if not played:
            assert "no scoring card" in line
    mine = cards[state.drawn[0]]["name"]
    assert f"you drew {mine} (" in screen
    # the other seat's draw is its secret
    assert "player 1 (b) drew" not in screen
    assert "player 1 (b) drew" in draw(state, None, color=False)


def test_the_birds_of_every_player_are_shown_only_once_scored():
    import random

    rng = random.Random(2)
    state = GAME.new_initial_state(seed=2)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        before = state.clone()
        state.apply_action(rng.choice(state.legal_actions()))
    seen = draw(before, 0, color=False)
    assert re.search(r"player 1 \(b\).*; \d+ bird tokens", seen)
    final = draw(state, 0, color=False)
    line = next(l for l in final.splitlines() if l.startswith("  player 1 (b)"))
    assert f"bird tokens {sorted(state.birds[1]) or '-'} (scored {sum(state.birds[1])})" in line
    assert "game over" in final


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_sees_the_same_screen_on_twin_positions(players):
    assert_twins_draw_alike("santacruz", players, draw)


# ------------------------------------------------------------------ terminal
def test_a_typed_site_number_lands_there_in_the_terminal():
    text = run_in_terminal(
        ["santacruz", "play", "--players", "2", "--ai", "mcts:iterations=300", "--seed", "11",
         "--no-color"],
        [("Your move: ", "help"), (r"'#3' or 'move 3'", "set a"), (r"#1\. land on site", "5"),
         (r"you: land on site \d+", "quit"),
         (r"or 'no'", "no")])
    assert "you: land on site 5" in text, text[-3000:]
    assert "'#3' or 'move 3'" in text              # the help says how to pick a listed move
    assert "Game abandoned" in text
