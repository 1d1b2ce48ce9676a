"""The Big Sur terminal reader and screen (cli/read_bigsur.py,
cli/render_bigsur.py): short forms of the moves, discards in any order, the
card just drawn, unused Persistent Materials and Recycling, Stretches on the
Highway line, the final breakdown; the seat's view on twin positions; and
one game in a pseudo-terminal typing the help's short forms."""

from __future__ import annotations

import json
import random
import re
from importlib import resources

import pytest

from cli_helpers import run_in_terminal
from seat_twins import assert_twins_draw_alike
from solvers.cli.read_bigsur import read_move, read_plan
from solvers.cli.render_bigsur import breakdown_lines, draw, highway_text
from solvers.errors import SolversError
from solvers.games.bigsur.reference import BigSur

GAME = BigSur(players=2)
CARDS = {c["number"]: c for c in
         json.loads(resources.files("solvers.data").joinpath("big_sur.json").read_text())["highway"]}
MARK = {"stone": "St", "water": "Wa", "timber": "Ti", "engineering": "En", "steel": "Se"}


def start(seed: int = 3):
    state = GAME.new_initial_state(seed=seed)
    state.apply_seeded_chance()
    return state


def first_position(seed: int, test) -> object:
    """The first decision of a game played at random (seeded) at which
    ``test(state)`` holds."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
            continue
        if test(state):
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such position")


def names(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


# ------------------------------------------------------------------ reading
def test_the_short_forms_of_the_help():
    state = start()
    card = sorted(state.depot)[1]
    assert read_move(state, f"take {card}") == card - 1          # "take 12 from the Depot"
    assert read_move(state, f"TAKE  {card}") == card - 1
    assert read_move(state, "draw") == GAME.DRAW
    assert read_move(state, "deck") == GAME.DRAW
    assert read_move(state, "#1") == state.legal_actions()[0]
    assert read_move(state, "2") == state.legal_actions()[1]
    with pytest.raises(SolversError, match=r"card 99 is not in the Depot \(it holds "):
        read_move(state, "take 99")
    # a number is the whole number: 'take 1' is not 'take 12'
    prefix = next(c for c in state.depot if c >= 10)
    if prefix // 10 not in state.depot:
        with pytest.raises(SolversError, match="not in the Depot"):
            read_move(state, f"take {prefix // 10}")


def test_pay_alone_names_the_one_way_to_finish_and_refuses_a_choice():
    one = first_position(0, lambda s: s.step == "pay" and names(s) == ["pay with recycling"])
    assert read_move(one, "pay") == one.legal_actions()[0]
    assert read_move(one, "pay rec") == one.legal_actions()[0]
    two = first_position(0, lambda s: s.step == "pay" and sum(n.startswith("pay") for n in names(s)) >= 2
                         and "pay" not in names(s))
    with pytest.raises(SolversError, match="could be 'pay with"):
        read_move(two, "pay")
    chosen = next(a for a in two.legal_actions() if "recycling" in two.action_to_string(a))
    assert read_move(two, "pay with recycling") == chosen
    assert read_move(two, "pay recyc") == chosen
    # a payment not complete yet: discard first
    early = first_position(0, lambda s: s.step == "pay" and not any(n.startswith("pay") for n in names(s)))
    with pytest.raises(SolversError, match="not paid for yet: discard first"):
        read_move(early, "pay")


def test_left_right_end_and_claim_by_a_word():
    end = first_position(1, lambda s: s.step == "end")
    assert read_move(end, "left") == GAME.LEFT
    assert read_move(end, "r") == GAME.RIGHT
    build = first_position(1, lambda s: s.step == "build" and len(s.legal_actions()) > 1)
    assert read_move(build, "end") == GAME.END_TURN
    # a typed number is the whole number: 'build 1' is not 'build 14'
    def long_card(s):
        cards = [a - GAME.BUILD_BASE + 1 for a in s.legal_actions() if GAME.BUILD_BASE <= a < GAME.LEFT]
        return s.step == "build" and any(c >= 10 and c // 10 not in cards for c in cards)
    state = first_position(1, long_card)
    cards = [a - GAME.BUILD_BASE + 1 for a in state.legal_actions() if GAME.BUILD_BASE <= a < GAME.LEFT]
    card = next(c for c in cards if c >= 10 and c // 10 not in cards)
    assert read_move(state, f"build {card}") == GAME.BUILD_BASE + card - 1
    with pytest.raises(SolversError, match="not a legal move"):
        read_move(state, f"build {card // 10}")


def _several_discards(state) -> bool:
    return (state.step == "pay" and not state.paying
            and any(len(d) >= 2 for d, _, _ in state.payments(state.building)))


def test_discards_in_any_order():
    state = first_position(0, _several_discards)
    discards = next(d for d, _, _ in state.payments(state.building) if len(d) >= 2)
    typed = "discard " + ", ".join(str(c) for c in reversed(discards))
    plan = read_plan(state, typed)
    assert plan == [GAME.DISCARD_BASE + c - 1 for c in sorted(discards)]
    assert read_move(state, typed) == plan[0]
    for action in plan:
        state.apply_action(action)
    assert state.paying == sorted(discards)


def test_a_discard_out_of_order_says_to_name_them_together():
    state = first_position(0, lambda s: _several_discards(s) and any(
        GAME.DISCARD_BASE + max(d) - 1 not in s.legal_actions()
        for d, _, _ in s.payments(s.building) if len(d) >= 2))
    discards = next(d for d, _, _ in state.payments(state.building)
                    if len(d) >= 2 and GAME.DISCARD_BASE + max(d) - 1 not in state.legal_actions())
    with pytest.raises(SolversError, match="in one line, in any order"):
        read_move(state, f"discard {max(discards)}")
    hand = state.hands[state.player]
    stranger = next(c for c in range(1, 70) if c not in hand)
    with pytest.raises(SolversError, match=f"card {stranger} is not in your hand"):
        read_plan(state, f"discard {stranger} {min(discards)}")


# ------------------------------------------------------------------ drawing
def hand_built():
    """Seat 0 at the build step with a Highway of three cards showing Ocean
    and a 1-mile card with a Persistent Material in it."""
    state = start()
    ocean = [n for n, c in CARDS.items() if "ocean" in c["scenery"] and 2 in c["players"]]
    persistent = next(n for n in ocean if CARDS[n].get("persistent"))
    road = [persistent] + [n for n in ocean if n != persistent][:2]
    for c in road:
        for pile in (state.depot, *state.hands[1:]):
            pile.discard(c)
    state.highways[0] = road
    state.step, state.taken = "build", 2
    return state, road, persistent


def test_stretches_are_marked_on_the_highway_line():
    state, road, _ = hand_built()
    miles = sum(CARDS[c]["miles"] for c in road)      # three Ocean icons or more: one Stretch
    line = highway_text(state, 0, color=False)
    assert f"Stretches: Oc {'-'.join(map(str, road))} {miles}mi unused" in line
    state.highways[0] = road[:1]                       # one card: no Stretch
    assert "Stretches" not in highway_text(state, 0, color=False)


def test_unused_persistent_materials_and_recycling_are_shown():
    state, road, persistent = hand_built()
    mat = MARK[CARDS[persistent]["persistent"]]
    assert f"Unused this turn: persistent {mat} (#{persistent});" in draw(state, 0, color=False)
    assert "Recycling nothing to recycle" in draw(state, 0, color=False)
    top = next(iter(state.hands[0]))
    state.piles[0] = [top]
    state.hands[0].discard(top)
    assert f"Recycling unused ({MARK[CARDS[top]['material']]} on top" in draw(state, 0, color=False)
    state.used = {("card", persistent)}
    state.recycled = True
    screen = draw(state, 0, color=False)
    assert "Unused this turn: persistent none; Recycling used" in screen


def test_a_card_just_drawn_is_shown_to_its_drawer_only():
    state = start()
    state.apply_action(GAME.DRAW)
    card = state.seeded_outcome() - GAME.CARD_BASE + 1
    state.apply_seeded_chance()
    mine = draw(state, 0, color=False)
    assert f"You drew #{card} " in mine
    assert re.search(rf"  #{card} .*<- just drawn", mine)
    theirs = draw(state, 1, color=False)
    assert "drew" not in theirs and "just drawn" not in theirs and f"#{card} " not in theirs
    state.apply_action(sorted(state.depot)[0] - 1)     # a take after it: no longer "just"
    assert "drew" not in draw(state, 0, color=False)


def test_the_final_screen_itemises_every_score():
    rng = random.Random(4)
    state = GAME.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply_action(state.seeded_outcome() if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    screen = draw(state, 0, color=False)
    for p in range(2):
        lines = breakdown_lines(state, p)
        items = [int(l.split()[0]) for l in lines[:-1] if l.split()[0].lstrip("-").isdigit()]
        assert lines[-1].split() == [str(state.scores()[p]), "total"]
        assert sum(items) == state.scores()[p]
        assert all(l in screen for l in lines)
    # a hand-built Highway: the Stretch's miles card by card
    built, road, _ = hand_built()
    built.step = "over"
    miles = [CARDS[c]["miles"] for c in road]
    assert any(f"{sum(miles):>4}  Ocean Stretch (cards {', '.join(map(str, road))}: "
               f"{' + '.join(map(str, miles))})" in l for l in breakdown_lines(built, 0))


@pytest.mark.parametrize("players", [3])     # (2 players: the twins take 10 s to find)
def test_a_seat_sees_the_same_screen_on_twin_positions(players):
    assert_twins_draw_alike("bigsur", players, draw)


# ------------------------------------------------------------------ terminal
def test_the_short_forms_work_in_the_terminal():
    state = start(5)
    card = sorted(state.depot)[0]
    text = run_in_terminal(
        ["bigsur", "play", "--players", "2", "--ai", "random", "--seed", "5", "--no-color"],
        [(r"Your move", "help"), (r"'take 12'", f"take {card}"), (r"you: take", "draw"),
         (r"you: draw", "quit"),
         (r"or 'no'", "no")])
    assert f"you: take {card} from the Depot" in text, text[-3000:]
    assert "you: draw from the deck" in text
    assert re.search(r"You drew #\d+ ", text)
    assert "'take 12'" in text and "Game abandoned" in text


def test_a_line_of_discards_is_played_in_full_by_the_loop(capsys, monkeypatch):
    from cli_helpers import run

    state = start(1)
    for _ in range(2):                         # the loop's "1": take the first Depot card
        state.apply_action(state.legal_actions()[0])
        state.apply_seeded_chance()
    card, discards = next((c, d) for c in sorted(state.hands[0])
                          for d, _, _ in state.payments(c) if len(d) >= 2)
    typed = "discard " + " ".join(str(c) for c in reversed(discards))
    end = "left\n" if len(state.highways[0]) >= 2 else ""
    code, out, _ = run(capsys, "bigsur", "play", "--ai", "random", "--seed", "1", "--no-color",
                       stdin=f"1\n1\nbuild {card}\n{end}{typed}\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    played = re.findall(r"you: discard (\d+)", out)
    assert played == [str(c) for c in sorted(discards)], out[-2000:]
