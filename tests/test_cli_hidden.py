"""The terminal shows the AI's moves as the human's seat sees them: a card
dealt to, drawn by or discarded face down by an AI seat is never named.

Each AI move is recorded as it is made (the state before it and the action);
the moves that seat 0 cannot see (``action_observation(action, 0)`` hidden)
must not appear in the words of the line that announces them, while the
moves it can see appear word for word (the control: the announcements are
the moves)."""

from __future__ import annotations

import importlib

import pytest

from cli_helpers import run
from solvers.agents.base import Agent

# (game, options, what seat 0 types each time, whether the AI makes hidden moves:
# Switchbacks' only hidden events are tiles drawn, which are chance, not moves)
GAMES = [("santacruz", ["--players", "3", "--no-color"], "auto", True),
         ("bigsur", ["--players", "3", "--no-color"], "auto", True),
         ("switchbacks", ["--players", "3", "--no-color"], "auto", False),
         ("c2c", ["--players", "3"], "1", True)]


@pytest.mark.parametrize("name, extra, typed, secrets", GAMES, ids=[g[0] for g in GAMES])
def test_the_terminal_never_names_a_hidden_ai_move(capsys, monkeypatch, name, extra, typed, secrets):
    made = []
    real_step = Agent.step

    def recording_step(self, state):
        action = real_step(self, state)
        made.append((state.clone(), action))
        return action

    monkeypatch.setattr(Agent, "step", recording_step)
    # What the play loop hands its announcer is what the terminal prints
    # after "player N:" (each game's announcer adds only the seat).
    announced = []
    common = importlib.import_module("solvers.cli.common")
    loop = common.play_until_seat_zero

    def recording_loop(state, ai, announce):
        def tell(seat, move):
            announced.append(move)
            announce(seat, move)
        return loop(state, ai, tell)

    # Every game's play loop (solvers.cli.verbs) calls it through the module.
    monkeypatch.setattr(common, "play_until_seat_zero", recording_loop)
    code, out, err = run(capsys, name, "play", *extra, "--ai", "random", "--seed", "3",
                         stdin=f"{typed}\n" * 600, monkeypatch=monkeypatch)
    assert code == 0, err
    assert all(f": {move}" in out for move in announced)
    # Seat 0's own moves come through 'auto' (recorded too, announced as "you: ...").
    ai_moves = [(s, a) for s, a in made if s.current_player() != 0]
    assert len(announced) == len(ai_moves) > 0
    hidden = shown = 0
    for line, (state, action) in zip(announced, ai_moves):
        words = state.action_to_string(action)
        if state.action_observation(action, 0) == action:
            assert line == words or f"player {state.current_player()} {line}" == words, (line, words)
            shown += 1
        elif state.action_observation(action, 0) == -2:
            assert words not in line and line != words, (line, words)
            hidden += 1
    assert shown > 0 and (hidden > 0) == secrets


def test_a_switchbacks_game_saved_at_the_prompt_tells_only_what_its_seat_knows(tmp_path):
    """``save FILE`` during play writes the game through the human's eyes:
    two games that differ only in tiles that seat cannot see save the same
    file; written by the referee (the control), the files differ."""
    import json
    import sys as _sys
    from pathlib import Path

    _sys.path.insert(0, str(Path(__file__).parent))
    from test_seat_view import hidden_deal_twin, played

    from solvers.cli.verbs import Play
    from solvers.registry import game_info

    info = game_info("switchbacks")
    found = 0
    for seed in range(6):
        state = played("switchbacks", 3, seed, 0.3)
        seat = state.current_player()       # the seat whose view is saved
        twin = hidden_deal_twin(state, seed)
        if twin is None:
            continue
        files = []
        for i, s in enumerate((state, twin)):
            for viewer in (seat, None):
                session = Play(info, s.game, seed, ai=None, seat=viewer)
                session.state = s
                path = tmp_path / f"{seed}-{i}-{viewer}.json"
                session.write(str(path))
                files.append(path.read_bytes())
        assert files[0] == files[2]          # the seat's view: byte for byte the same
        assert files[1] != files[3]          # the referee's: not
        assert json.loads(files[0])["seat"] == seat
        found += 1
    assert found >= 2


def test_an_unfinished_c2c_game_is_saved_as_player_0_knows_it(capsys, monkeypatch, tmp_path):
    """A game abandoned at player 0's prompt is saved without the seed (which
    tells the cards to come) and without the other seats' private cards,
    while player 0's own cards are named (the control)."""
    import json

    import solvers

    for seed in range(3):
        path = tmp_path / f"g{seed}.json"
        code, _, err = run(capsys, "c2c", "play", "--players", "3", "--seed", seed, "--save", path,
                           stdin="", monkeypatch=monkeypatch)
        assert code == 0, err
        text = path.read_text()
        record = json.loads(text)
        assert record["seat"] == 0 and "seed" not in json.dumps(record.get("meta", {}))
        real = solvers.load_game("c2c", players=3).new_initial_state(seed=seed)
        real.apply_seeded_chance()
        names = [l.name for l in real.game.map.locations]
        moves = " | ".join(s["move"] for s in record["steps"])
        for card in real.order[0:2]:                       # player 0's private cards
            assert names[card] in moves
        for card in real.order[2:6]:                       # the others' private cards
            assert f"deal {names[card]}" not in moves
