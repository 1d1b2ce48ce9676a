"""Terminal play (issue 11, items 11-12): `map` draws the sheet, `help`, the
reason a move is refused, locations' characteristics, private and public
setup cards, the end screen (missed locations, hindsight best), saving a
game or a position; Switchbacks announces the tile drawn, asks the right
question, explains its values, and its boards carry a legend and every
player."""

from __future__ import annotations

import json
import re

import pytest

import solvers
from cli_helpers import run
from solvers.games.c2c.data import load_map
from solvers.games.c2c.deal import shuffle_deal
from solvers.games.c2c.reference import CoastToCoast

MAP = load_map()
NAMES = [l.name for l in MAP.locations]


def c2c_play(capsys, monkeypatch, script, *args):
    return run(capsys, "c2c", "play", *args, stdin=script, monkeypatch=monkeypatch)


def first_moves_game(challenge, seed):
    """The reference game played with the first legal move throughout, as
    the scripted '1' answers do; returns the final state."""
    state = CoastToCoast(players=1, challenge=challenge).new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(state.legal_actions()[0])
    return state


# ------------------------------------------------------- Coast to Coast
def test_map_draws_the_sheet_and_moves_lists_the_moves(capsys, monkeypatch):
    code, out, err = c2c_play(capsys, monkeypatch, "map\nquit\n", "--seed", "2", "--ai", "greedy")
    assert code == 0, err
    after = out.split("Your move:")[1]              # what 'map' printed
    for hw in MAP.highways:
        assert re.search(rf"^{re.escape(hw)}\s", after, re.M), hw
    assert "[ABC] circled" in after
    assert "1. cross" not in after                  # not the move list


def test_help_and_info(capsys, monkeypatch):
    code, out, _ = c2c_play(capsys, monkeypatch, "help\ninfo Space Needle\ninfo spn\nquit\n",
                            "--seed", "2", "--ai", "greedy")
    assert code == 0
    replies = out.split("Your move:")[1:4]
    assert "hint, ?" in replies[0] and "the AI's three best moves" in replies[0]
    assert "undo" in replies[0] and "save [FILE]" in replies[0]
    sn = MAP.locations[0]
    for reply in replies[1:3]:
        assert f"{sn.name} ({MAP.codes[0]}): highway {sn.highway}, region {sn.region}" in reply
        assert MAP.type_labels[sn.type] in reply


def test_cards_are_shown_with_their_characteristics(capsys, monkeypatch):
    code, out, _ = c2c_play(capsys, monkeypatch, "quit\n", "--seed", "5", "--ai", "greedy")
    deal = shuffle_deal(None, seed=5)
    for c in deal[:4]:
        loc = MAP.locations[c]
        assert f"{loc.name} ({MAP.codes[c]}): highway {loc.highway}, region {loc.region}" in out


def test_an_illegal_move_gets_its_reason(capsys, monkeypatch):
    seed = 5
    deal = shuffle_deal(None, seed=seed)
    outsider = next(c for c in range(MAP.n) if c not in deal[:4])
    # Setup: cross a card that is not dealt; circle before crossing.
    script = (f"cross {NAMES[outsider]}\ncircle {NAMES[deal[0]]}\n42\n"
              f"cross {NAMES[deal[0]]}\n")
    # Round 1: cross the first card, then circle a location that shares
    # nothing with the second card (found from the data, by hand).
    r1 = deal[4:8]
    card = r1[1]
    c = MAP.locations[card]
    stranger = next(l for l in MAP.locations if l.highway != c.highway and l.region != c.region
                    and l.type != c.type and l.id not in deal[:5])
    script += f"cross {NAMES[r1[0]]}\ncircle {stranger.name} with {c.name}\nquit\n"
    code, out, _ = c2c_play(capsys, monkeypatch, script, "--seed", str(seed), "--ai", "greedy")
    assert code == 0
    assert f"{NAMES[outsider]} is not one of your cards this round" in out
    assert "first cross off one of this round's cards" in out
    assert "There is no move 42" in out
    assert f"{stranger.name} shares no highway, region or type with {c.name}" in out
    assert "is not a legal move here. " not in out


def test_three_players_see_private_and_public_setup_cards(capsys, monkeypatch):
    code, out, _ = c2c_play(capsys, monkeypatch, "quit\n", "--players", "3", "--seed", "8",
                            "--ai", "random")
    assert code == 0
    order = CoastToCoast(players=3).new_initial_state(seed=8).order   # the seeded deck
    private, public = order[0:2], order[6:8]                          # 2 each, then 2 public
    text = out.split("your private cards")[1]
    mine, shared = text.split("public cards")
    shared = "\n".join(shared.splitlines()[1:3])                      # the two card lines
    for c in private:
        assert NAMES[c] in mine and NAMES[c] not in shared
    for c in public:
        assert NAMES[c] in shared and NAMES[c] not in mine
    for c in order[2:6]:                                              # the others' private cards
        assert f"    {NAMES[c]} (" not in out


def test_end_screen_names_the_missed_locations_and_the_hindsight_best(capsys, monkeypatch, tmp_path):
    from solvers.optimize.c2c import hindsight_optimum

    seed, challenge = 4, "The Alamo"
    saved = tmp_path / "game.json"
    code, out, err = c2c_play(capsys, monkeypatch, "hint\n" + "1\n" * 40, "--challenge", challenge,
                              "--seed", str(seed), "--ai", "mcts:iterations=30", "--save", saved)
    assert code == 0, err
    final = first_moves_game(challenge, seed)
    missed = sorted(final.game.required() - final.sheets[0].circled)
    if missed:
        line = next(l for l in out.splitlines() if l.startswith("Required locations not circled"))
        assert sorted(line.split(": ", 1)[1].split(", ")) == sorted(NAMES[c] for c in missed)
    assert "chance to win the challenge" in out                        # the hint explained
    best = hindsight_optimum(shuffle_deal(challenge, seed), challenge=challenge)
    if best.status == "infeasible":
        assert "no play of this deal wins the challenge" in out
    else:
        assert f"best possible score: {best.score}" in out
    # The saved game replays to the same final sheet.
    from solvers.record import load_record

    record = json.loads(saved.read_text())
    assert record["options"] == {"challenge": challenge} and record["seat"] == 0
    assert [s["move"] for s in record["steps"] if s["mover"] == "chance"] == \
        [f"deal {NAMES[c]}" for c in shuffle_deal(challenge, seed)]
    loaded = load_record(record)
    state = loaded.state_at(len(loaded.steps))
    assert state.is_terminal() and state.scores() == final.scores()
    assert f"Game saved to {saved}" in out


def test_no_save_offer_without_a_terminal(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, _ = c2c_play(capsys, monkeypatch, "1\n" * 40, "--seed", "6", "--ai", "greedy")
    assert code == 0
    assert "Save this game" not in out and list(tmp_path.iterdir()) == []


def test_a_multiplayer_end_screen_shows_hindsight_for_your_cards(capsys, monkeypatch):
    code, out, err = c2c_play(capsys, monkeypatch, "1\n" * 40, "--players", "2", "--seed", "3",
                              "--ai", "random")
    assert code == 0, err
    assert "Winner" in out and "best possible score" in out


# ----------------------------------------------------------- Switchbacks
def sb_play(capsys, monkeypatch, script, *args):
    return run(capsys, "switchbacks", "play", "--no-color", *args, stdin=script,
               monkeypatch=monkeypatch)


def test_the_tile_drawn_is_announced(capsys, monkeypatch):
    seed = 4
    code, out, _ = sb_play(capsys, monkeypatch, "auto\nauto\nquit\n", "--ai", "greedy",
                           "--seed", str(seed))
    assert code == 0
    # Replay the same two moves on the reference game: the tile player 0 draws.
    game = solvers.load_game("switchbacks", 2, reference=True)
    state = game.new_initial_state(seed=seed)
    state.apply_seeded_chance()
    agent = solvers.load_agent("greedy", game, seed=seed)
    for _ in range(2):
        if state.current_player() == 0 and not state.is_chance_node():
            state.apply_action(agent.step(state))
    assert state.is_chance_node() and state.step == "draw"
    drawn = state.order[state.pos]
    assert f"chance: player 0 draws {drawn}" in out


def test_hike_prompt_names_only_what_is_offered():
    from solvers.cli.switchbacks import hike_prompt

    game = solvers.load_game("switchbacks", 2)
    seen = set()
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        state.apply_seeded_chance()
        while not state.is_terminal() and len(seen) < 3:
            if state.is_chance_node():
                state.apply_seeded_chance()
                continue
            legal = state.legal_actions()
            if state.step == "hike":
                buddy = game.BUDDY_UP in legal
                hike = game.HIKE_SOLO in legal or game.HIKE_BUDDIES in legal
                want = {(True, True): "Buddy up or hike", (True, False): "Buddy up",
                        (False, True): "Hike"}[(buddy, hike)]
                assert hike_prompt(state, legal) == want
                seen.add(want)
            state.apply_action(legal[(seed + len(state.board)) % len(legal)])
    assert "Hike" in seen and "Buddy up or hike" in seen


def test_hint_explains_the_win_share_and_save_writes_a_position(capsys, monkeypatch, tmp_path):
    pos = tmp_path / "mid.json"
    code, out, _ = sb_play(capsys, monkeypatch, f"hint\nhint\nsave {pos}\nquit\n",
                           "--ai", "mcts:iterations=50", "--seed", "7")
    assert code == 0
    assert out.count("win share: the AI's estimate") == 1
    assert f"Saved to {pos}" in out
    code, out, err = run(capsys, "switchbacks", "analyse", pos, "--iterations", "50", "--json")
    assert code == 0, err
    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=7)
    state.apply_seeded_chance()
    data = json.loads(out)
    assert data["to_move"] == 0 and data["legal_moves"] == len(state.legal_actions())


@pytest.mark.parametrize("command", ["analyse", "endgame"])
def test_boards_have_a_legend_and_every_player(capsys, tmp_path, command):
    from test_cli_switchbacks import near_end
    from solvers.games.switchbacks.position import state_to_position

    state = near_end(2, seed=3)
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(state_to_position(state)))
    extra = ["--iterations", "30"] if command == "analyse" else []
    code, out, err = run(capsys, "switchbacks", command, p, *extra)
    assert code == 0, err
    assert "tile 23 with a solo hiker" in out
    for q in range(2):
        assert f"player {q} ({'ab'[q]}): score" in out
    assert "tiles in hand" not in out or "1 tiles" not in out
    if command == "endgame":
        assert "Best line:" in out and "-> scores" in out    # no draws left: to the end


def test_one_tile_is_singular(capsys, tmp_path):
    from solvers.cli.render_switchbacks import describe_player

    state = solvers.load_game("switchbacks", 2, reference=True).new_initial_state(seed=1)
    state.apply_seeded_chance()
    state.hands[1] = {state.hands[1].pop()}
    assert describe_player(state, 1, viewer=0).endswith("; 1 tile in hand")


def test_endgame_says_why_its_line_stops(capsys):
    from solvers.cli.verbs import print_endgame
    from solvers.registry import game_info

    state = solvers.load_game("switchbacks", 2).new_initial_state(seed=1)
    state.apply_seeded_chance()
    data = {"exact": True, "samples": 0, "to_move": 0, "value": [0.6, 0.4],
            "best": "explore 3 on hex 17", "line": ["explore 3 on hex 17"], "line_scores": None,
            "moves": [], "nodes": 5, "seconds": 0.1}
    print_endgame(game_info("switchbacks"), data, state)
    out = capsys.readouterr().out
    assert "Best line: explore 3 on hex 17" in out
    assert "stops at the next chance event" in out


@pytest.mark.parametrize("ai,needle,absent", [
    ("greedy", "score after: your score once the move is made", "win share"),
    ("random", "the random AI has no preference", "win share"),
    ("mcts:iterations=40", "win share: the AI's estimate", "0 visits"),
])
def test_a_hint_says_what_its_number_means_for_each_ai(capsys, monkeypatch, ai, needle, absent):
    code, out, _ = sb_play(capsys, monkeypatch, "hint\nquit\n", "--ai", ai, "--seed", "3")
    assert code == 0
    assert needle in out and absent not in out.split("Your move:", 1)[1]
