"""``solve switchbacks``: play in the terminal, the AI's ranked moves for a
position, and the exact endgame value of a position."""

from __future__ import annotations

from typing import Any

import click

import solvers
from solvers.errors import SolversError

from .common import (agent_from_spec, analysis, ask_move, out, play_until_seat_zero, print_analysis,
                     print_json)
from .render_switchbacks import SEAT_LETTERS, describe_player, draw_map, legend

HELP_LINE = ("Explore with 'TILE HEX' (e.g. '12 5' or 'explore 12 on hex 5'); then pick a "
             "number or 'buddy up' / 'hike solo' / 'hike buddies'. 'hint' asks the AI, "
             "'auto' plays its move, 'moves' lists every move, 'map', 'quit'.")


def _load(path: str) -> Any:
    from solvers.games.switchbacks.position import load_position

    return load_position(path)


def _decision(state: Any) -> int:
    if state.is_terminal():
        raise SolversError("position: the game is over; there is no move to make")
    if state.is_chance_node():
        raise SolversError("position: the player to move has still to draw a tile; "
                           "give the position after the draw")
    return state.current_player()


@click.group("switchbacks")
def switchbacks() -> None:
    """Switchbacks: play against the AI, analyse and solve positions.

    \b
    solve switchbacks play --players 2 --ai mcts --time 1
    solve switchbacks analyse POSITION.json          the AI's ranked moves
    solve switchbacks endgame POSITION.json          proven value and best line

    A position file is JSON: the map (hex -> tile), hikers, hands, set-aside
    tiles, unplaced hikers and optionally the stack (see
    solvers.games.switchbacks.position). Hexes are numbered 0-36 row by row
    from the top; 18 is the centre.
    """


# ------------------------------------------------------------------ play
@switchbacks.command("play")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Seats; you are seat 0 (a), the others are AI players.")
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The AI for the other seats and for hints, as an agent spec (e.g. "
                   "'mcts:iterations=5000', 'greedy').")
@click.option("--time", "seconds", type=click.FloatRange(0.0), default=1.0, show_default=True,
              metavar="S", help="Seconds per AI move (an MCTS spec without a budget).")
@click.option("--seed", type=int, default=None, help="Shuffle seed [default: random].")
@click.option("--color/--no-color", default=True, show_default=True, help="Colour the map.")
def play(players: int, ai_spec: str, seconds: float, seed: int | None, color: bool) -> None:
    """Play Switchbacks in the terminal against AI players."""
    import secrets

    seed = secrets.randbits(31) if seed is None else seed
    game = solvers.load_game("switchbacks", players=players)
    state = game.new_initial_state(seed=seed)
    ai = agent_from_spec(ai_spec, game, seed, time=seconds)
    out.print(f"Switchbacks, {players} players, seed {seed}. You are player 0 ({SEAT_LETTERS[0]}).")
    out.print(legend(players))
    out.print(HELP_LINE)
    def announce(seat: int, move: str) -> None:
        out.print(f"  player {seat} ({SEAT_LETTERS[seat]}): {move}")

    while play_until_seat_zero(state, ai, announce):
        if state.step == "explore":
            _show(state, color)
        action = _ask(state, ai, color)
        if action is None:
            out.print("Game abandoned.")
            return
        out.print(f"  you: {state.action_to_string(action)}")
        state.apply_action(action)
    _show(state, color, final=True)
    scores = state.scores()
    out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(scores)))
    winners = [p for p, x in enumerate(state.returns()) if x > 0]
    if winners == [0]:
        out.print("[bold]You win![/bold]")
    else:
        out.print("Winner" + ("s" if len(winners) > 1 else "") + ": "
                  + " and ".join("you" if p == 0 else f"player {p}" for p in winners))


def _show(state: Any, color: bool, final: bool = False) -> None:
    out.print()
    out.print(draw_map(state, color=color))
    for p in range(state.game.num_players):
        out.print("  " + describe_player(state, p, viewer=0))
    if not final:
        out.print(f"  stack: {state.game.num_tiles - state.pos} tiles")


def parse_move(state: Any, text: str) -> int:
    """A move typed by a player: a shorthand ``TILE HEX`` (``12 5``,
    ``12@5``), or the words of :meth:`action_to_string`."""
    words = text.replace("@", " ").replace(",", " ").split()
    if state.step == "explore" and len(words) == 2 and all(w.isdigit() for w in words):
        tile, hex_id = int(words[0]), int(words[1])
        g = state.game
        if tile not in state.hands[state.player]:
            raise SolversError(f"tile {tile} is not in your hand")
        if not 0 <= hex_id < g.num_hexes:
            raise SolversError(f"there is no hex {hex_id} (0..{g.num_hexes - 1})")
        if hex_id in state.board:
            raise SolversError(f"hex {hex_id} is already explored")
        return g.explore_action(tile, hex_id)
    return state.string_to_action(text)


def _ask(state: Any, ai: Any, color: bool) -> int | None:
    legal = state.legal_actions()
    moves = [state.action_to_string(a) for a in legal]
    if state.step == "hike":
        out.print("  Buddy up or hike: " + "  ".join(f"{i}. {m}" for i, m in enumerate(moves, 1)))

    def list_moves() -> None:
        for i, mv in enumerate(moves, 1):
            out.print(f"  {i:>3}. {mv}")

    return ask_move(state, ai, lambda text: parse_move(state, text), help_line=HELP_LINE,
                    value_label="win share",
                    commands={"auto": lambda: ai.step(state),
                              "map": lambda: _show(state, color),
                              "moves": list_moves})


# ---------------------------------------------------------------- analyse
@switchbacks.command("analyse")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The agent that ranks the moves.")
@click.option("--time", "seconds", type=click.FloatRange(0.0), default=None, metavar="S",
              help="Seconds of search (an MCTS spec without a budget) [default: 1].")
@click.option("--iterations", type=click.IntRange(1), default=None, metavar="N",
              help="Iterations of search instead of a time (replays exactly with --seed).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--top", type=click.IntRange(1), default=10, show_default=True,
              help="How many moves to show.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
def analyse(position: str, ai_spec: str, seconds: float | None, iterations: int | None, seed: int,
            top: int, as_json: bool) -> None:
    """The AI's ranked moves for the player to move in POSITION.json.

    The AI sees only what that player may know: the other hands, the
    set-aside tiles and the stack order are re-dealt in its search.
    ``value`` is the mean win share after the move.
    """
    state = _load(position)
    player = _decision(state)
    if seconds is None and iterations is None:
        seconds = 1.0
    agent = agent_from_spec(ai_spec, state.game, seed, time=seconds, iterations=iterations)
    data = analysis("switchbacks", position, state, agent, ai_spec, seed, top)
    if as_json:
        print_json(data)
        return
    out.print(draw_map(state, color=False))
    out.print(describe_player(state, player, viewer=player))
    print_analysis(data)


# ---------------------------------------------------------------- endgame
@switchbacks.command("endgame")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--samples", type=click.IntRange(0), default=0, show_default=True, metavar="N",
              help="0: solve the position as written, every hand open (draws are chance). "
                   "N > 0: average exact values over N re-deals of what the player to move "
                   "cannot see.")
@click.option("--max-nodes", type=click.IntRange(1), default=20_000_000, show_default=True,
              metavar="N", help="Give up (one error line) beyond this many searched nodes.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the re-deals.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def endgame(position: str, samples: int, max_nodes: int, seed: int, as_json: bool) -> None:
    """The proven value of POSITION.json and the best line of play.

    Values are win shares (1 a win, 0.5 a shared first place of two); with
    every hand open and the draws still random, the value is the expected
    share under best play by everybody.
    """
    import time

    from solvers.search import expected_endgame, solve_endgame

    state = _load(position)
    players = state.game.num_players
    if state.is_terminal():
        data = {"game": "switchbacks", "position": position, "value": list(state.returns()),
                "scores": state.scores(), "best": None, "line": [], "moves": [], "nodes": 0}
        _endgame_out(data, state, as_json)
        return
    player = _decision(state)
    start = time.perf_counter()
    if samples == 0:
        r = solve_endgame(state, per_action=True, line=True, max_nodes=max_nodes)
        line, st = [], state.clone()
        for a in r.line:
            line.append(st.action_to_string(a))
            st.apply_action(a)
        final = st.scores() if st.is_terminal() else None
    else:
        r = expected_endgame(state, samples=samples, seed=seed, max_nodes=max_nodes)
        line, final = ([state.action_to_string(r.action)] if r.action is not None else []), None
    data = {
        "game": "switchbacks", "position": position, "to_move": player, "players": players,
        "exact": samples == 0, "samples": samples,
        "value": [round(v, 6) for v in r.value],
        "best": None if r.action is None else state.action_to_string(r.action),
        "line": line, "line_scores": final,
        "moves": [{"move": state.action_to_string(a), "action": a,
                   "value": [round(v, 6) for v in vec], "samples": n}
                  for a, vec, n in r.action_values],
        "nodes": r.nodes, "seconds": round(time.perf_counter() - start, 3),
    }
    _endgame_out(data, state, as_json)


def _endgame_out(data: dict[str, Any], state: Any, as_json: bool) -> None:
    if as_json:
        print_json(data)
        return
    out.print(draw_map(state, color=False))
    if data["best"] is None:
        out.print(f"The game is over: scores {data['scores']}, win shares {data['value']}.")
        return
    how = ("proven, every hand open" if data["exact"]
           else f"mean of exact values over {data['samples']} re-deals")
    shares = ", ".join(f"player {p}: {v:.3f}" for p, v in enumerate(data["value"]))
    out.print(f"Value ({how}): {shares}")
    out.print(f"Best move for player {data['to_move']}: [bold]{data['best']}[/bold]")
    if len(data["line"]) > 1:
        out.print("Best line: " + "; ".join(data["line"])
                  + ("" if data["line_scores"] is None else f"  -> scores {data['line_scores']}"))
    for row in data["moves"][:10]:
        out.print(f"  {row['move']:<24} {row['value'][data['to_move']]:.3f}")
    out.print(f"{data['nodes']} nodes, {data['seconds']:.2f} s")
