"""``solve switchbacks``: play in the terminal, the AI's ranked moves for a
position, and the exact endgame value of a position."""

from __future__ import annotations

from typing import Any

import click

import solvers
from solvers.errors import SolversError
from solvers.limits import MAX_NODES

from .common import (ITERATIONS, SEED, ask_move, make_agent as _agent, out, play_until_seat_zero,
                     plural, print_json, seconds_option)
from .render_switchbacks import SEAT_LETTERS, describe_player, draw_map, legend

HELP_LINE = ("Explore with 'TILE HEX' (e.g. '12 5' or 'explore 12 on hex 5'); then pick a "
             "number or 'buddy up' / 'hike solo' / 'hike buddies'. 'hint' asks the AI, "
             "'auto' plays its move, 'moves' lists every move, 'map', 'save [FILE]' writes "
             "the position for 'solve switchbacks analyse', 'help', 'quit'.")
MAX_SAMPLES = 100_000


def _load(path: str, map_file: str | None = None) -> Any:
    from solvers.games.switchbacks.position import load_position

    return load_position(path, map=map_file)


MAP_HELP = "Another map in the JSON schema of the built-in one (solvers/data/switchbacks.json)."
VALUE_NOTE = ("win share: the AI's estimate of your share of first place after the move "
              "(1 a sure win, 0.5 a first place shared by two, 0 a sure loss)")


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
@seconds_option(1.0, "Seconds per AI move (an MCTS spec without a budget).", show_default=True)
@click.option("--seed", type=SEED, default=None, help="Shuffle seed [default: random].")
@click.option("--color/--no-color", default=True, show_default=True, help="Colour the map.")
@click.option("--map", "map_file", metavar="FILE", type=click.Path(dir_okay=False), help=MAP_HELP)
def play(players: int, ai_spec: str, seconds: float, seed: int | None, color: bool,
         map_file: str | None) -> None:
    """Play Switchbacks in the terminal against AI players.

    Type 'save FILE' at any prompt to write the position as JSON; 'solve
    switchbacks analyse FILE' then ranks your moves there.
    """
    import secrets

    seed = secrets.randbits(31) if seed is None else seed
    game = solvers.load_game("switchbacks", players=players, map=map_file)
    state = game.new_initial_state(seed=seed)
    ai = _agent(ai_spec, game, seed, time=seconds)
    ai.check_match()
    out.print(f"Switchbacks, {players} players, seed {seed}. You are player 0 ({SEAT_LETTERS[0]}).")
    out.print(legend(players))
    out.print(HELP_LINE)
    def announce(seat: int, move: str) -> None:
        out.print(f"  player {seat} ({SEAT_LETTERS[seat]}): {move}")

    saved: set[str] = set()       # the files 'save' wrote in this game
    while play_until_seat_zero(state, ai, announce):
        if state.step == "explore":
            _show(state, color)
        action = _ask(state, ai, color, seed, saved)
        if action is None:
            out.print("Game abandoned.")
            return
        out.print(f"  you: {state.action_to_string(action)}")
        state.apply_action(action)
        if state.is_chance_node() and state.step == "draw":
            before = set(state.hands[0])
            state.apply_seeded_chance()
            drawn = sorted(set(state.hands[0]) - before)
            out.print(f"  you draw tile {drawn[0]}" if drawn else "")
        elif state.step == "explore" and state.current_player() != 0 and not state.is_terminal():
            out.print("  the stack is empty: no tile to draw")
    _show(state, color, final=True)
    scores = state.scores()
    out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(scores)))
    winners = [p for p, x in enumerate(state.returns()) if x > 0]
    if winners == [0]:
        out.print("[bold]You win![/bold]")
    else:
        out.print("Winner" + ("s" if len(winners) > 1 else "") + ": "
                  + " and ".join("you" if p == 0 else f"player {p}" for p in winners))


def _show(state: Any, color: bool, final: bool = False, viewer: int | None = 0) -> None:
    out.print()
    out.print(draw_map(state, color=color))
    for p in range(state.game.num_players):
        out.print("  " + describe_player(state, p, viewer=p if viewer is None else viewer))
    if not final:
        out.print(f"  stack: {plural(state.game.num_tiles - state.pos, 'tile')}")


def save_position(state: Any, path: str, viewer: int | None = 0) -> str:
    """Write ``state``'s position as JSON (the format of
    :mod:`solvers.games.switchbacks.position`, which ``analyse`` reads) as
    ``viewer`` may know it: the tiles that seat cannot see (the other hands
    and set-aside piles, the stack's order) are a re-deal of the unseen
    tiles (:func:`solvers.agents.base.seat_view`), so the file tells nothing
    the seat did not know and an analysis for it is unchanged; ``viewer=None``
    writes the real position. Written all at once
    (:func:`solvers.files.write_atomic`); the path written."""
    import json

    from solvers.agents.base import seat_view
    from solvers.files import write_atomic
    from solvers.games.switchbacks.position import state_to_position

    shown = state if viewer is None else seat_view(state, viewer)
    return write_atomic(path, json.dumps(state_to_position(shown), indent=1) + "\n",
                        "position file")


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


def hike_prompt(state: Any, legal: list[int]) -> str:
    """The question of a hike step, naming only the kinds of move offered:
    "Buddy up or hike", "Hike" or "Buddy up"."""
    g = state.game
    buddy = g.BUDDY_UP in legal
    hike = any(a in (g.HIKE_SOLO, g.HIKE_BUDDIES) for a in legal)
    return "Buddy up or hike" if buddy and hike else ("Buddy up" if buddy else "Hike")


def _ask(state: Any, ai: Any, color: bool, seed: int = 0,
         saved: set[str] | None = None) -> int | None:
    """One move of the player; ``saved`` holds the files this game wrote
    (``save`` replaces them without asking)."""
    saved = set() if saved is None else saved
    legal = state.legal_actions()
    moves = [state.action_to_string(a) for a in legal]
    if state.step == "hike":
        out.print(f"  {hike_prompt(state, legal)}: "
                  + "  ".join(f"{i}. {m}" for i, m in enumerate(moves, 1)))

    def list_moves(_: str = "") -> None:
        for i, mv in enumerate(moves, 1):
            out.print(f"  {i:>3}. {mv}")

    def save(arg: str) -> None:
        """``save [FILE]``: checked first; a file this game did not write is
        replaced only when the player says yes."""
        import os

        from solvers.files import check_output_path

        path = arg or f"switchbacks-{seed}-{len(state.board)}.json"
        try:
            target = check_output_path(path, "save")
            if (os.path.exists(target) and target not in saved
                    and not click.confirm(f"  {path} exists: replace it?", default=False)):
                out.print("  Not saved.")
                return
            where = save_position(state, path)
        except SolversError as e:
            out.print(f"  {e}")
            return
        except (click.exceptions.Abort, EOFError):
            out.print("  Not saved.")
            return
        saved.add(where)
        out.print(f"  Position saved to {where} as you see it (the tiles you cannot see are "
                  f"re-dealt); 'solve switchbacks analyse {path}' ranks the moves.")

    return ask_move(state, ai, lambda text: parse_move(state, text), help_line=HELP_LINE,
                    value_label="win share", value_note=VALUE_NOTE,
                    commands={"auto": lambda _: ai.step(state),
                              "map": lambda _: _show(state, color),
                              "moves": list_moves, "save": save})


# ---------------------------------------------------------------- analyse
@switchbacks.command("analyse")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The agent that ranks the moves.")
@seconds_option(None, "Seconds of search (an MCTS spec without a budget) [default: 1].")
@click.option("--iterations", type=ITERATIONS, default=None, metavar="N",
              help="Iterations of search instead of a time (replays exactly with --seed).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--top", type=click.IntRange(1), default=10, show_default=True,
              help="How many moves to show.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
@click.option("--map", "map_file", metavar="FILE", type=click.Path(dir_okay=False), help=MAP_HELP)
def analyse(position: str, ai_spec: str, seconds: float | None, iterations: int | None, seed: int,
            top: int, as_json: bool, map_file: str | None) -> None:
    """The AI's ranked moves for the player to move in POSITION.json.

    The AI sees only what that player may know: the other hands, the
    set-aside tiles and the stack order are re-dealt in its search.
    The win share of a move is the mean share of first place after it (1 a
    win, 0.5 a first place shared by two).
    """
    state = _load(position, map_file)
    player = _decision(state)
    if seconds is None and iterations is None:
        seconds = 1.0
    agent = _agent(ai_spec, state.game, seed, time=seconds, iterations=iterations)
    rows = agent.analyse(state)
    data = {
        "game": "switchbacks", "position": position, "to_move": player, "step": state.step,
        "agent": ai_spec, "seed": seed,
        "moves": [{"rank": i, "move": r["move"], "action": r["action"], "value": round(r["value"], 4),
                   "visits": r["visits"]} for i, r in enumerate(rows[:top], 1)],
        "legal_moves": len(rows),
    }
    if as_json:
        print_json(data)
        return
    _board(state, viewer=player)
    from rich.table import Table

    t = Table(title=f"Player {player} to move ({state.step}), {ai_spec}: best {min(top, len(rows))} "
                    f"of {len(rows)} moves")
    for col in ("#", "move", "win share", "visits"):
        t.add_column(col, justify="left" if col == "move" else "right")
    for r in data["moves"]:
        t.add_row(str(r["rank"]), r["move"], f"{r['value']:.3f}", str(r["visits"]))
    out.print(t)
    out.print(VALUE_NOTE.replace("your", f"player {player}'s"))


def _board(state: Any, viewer: int | None) -> None:
    """The map, its legend and every player (hands shown to ``viewer``, or
    to everybody when None)."""
    out.print(draw_map(state, color=False))
    out.print(legend(state.game.num_players, you=None))
    for p in range(state.game.num_players):
        out.print("  " + describe_player(state, p, viewer=p if viewer is None else viewer))
    if not state.is_terminal():
        out.print(f"  stack: {plural(state.game.num_tiles - state.pos, 'tile')}")


# ---------------------------------------------------------------- endgame
@switchbacks.command("endgame")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--samples", type=click.IntRange(0, MAX_SAMPLES), default=0, show_default=True, metavar="N",
              help="0: solve the position as written, every hand open (draws are chance). "
                   "N > 0: average exact values over N re-deals of what the player to move "
                   "cannot see.")
@click.option("--max-nodes", type=click.IntRange(1, MAX_NODES), default=20_000_000, show_default=True,
              metavar="N", help="Give up (one error line) beyond this many searched nodes.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the re-deals.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--map", "map_file", metavar="FILE", type=click.Path(dir_okay=False), help=MAP_HELP)
def endgame(position: str, samples: int, max_nodes: int, seed: int, as_json: bool,
            map_file: str | None) -> None:
    """The proven value of POSITION.json and the best line of play.

    Values are win shares (1 a win, 0.5 a shared first place of two); with
    every hand open and the draws still random, the value is the expected
    share under best play by everybody.
    """
    import time

    from solvers.search import expected_endgame, solve_endgame

    state = _load(position, map_file)
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
    _board(state, viewer=None if data.get("exact", True) else data.get("to_move"))
    if data["best"] is None:
        out.print(f"The game is over: scores {data['scores']}, win shares {data['value']}.")
        return
    how = ("proven, every hand open" if data["exact"]
           else f"mean of exact values over {data['samples']} re-deals")
    shares = ", ".join(f"player {p}: {v:.3f}" for p, v in enumerate(data["value"]))
    out.print(f"Value ({how}; a win share: 1 a win, 0.5 a first place shared by two): {shares}")
    out.print(f"Best move for player {data['to_move']}: [bold]{data['best']}[/bold]")
    if data["line"]:
        out.print("Best line: " + "; ".join(data["line"])
                  + ("" if data["line_scores"] is None else f"  -> scores {data['line_scores']}"))
        if data["line_scores"] is None:
            out.print("  (the line stops at the next tile drawn: best play after it depends on "
                      "the tile, and the value averages over every tile the stack may give)"
                      if data["exact"] else
                      "  (with re-deals, only the first move is common to every sample)")
    for row in data["moves"][:10]:
        out.print(f"  {row['move']:<24} {row['value'][data['to_move']]:.3f}")
    out.print(f"{data['nodes']} nodes, {data['seconds']:.2f} s")
