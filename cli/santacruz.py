"""``solve santacruz``: play in the terminal against the AI, and the AI's
ranked moves for a position."""

from __future__ import annotations

from typing import Any

import click

from solvers.errors import SolversError

from .common import (ITERATIONS, SEED, analysis, ask_move, make_agent, out, play_until_seat_zero,
                     print_analysis, print_json, seconds_type)
from .render_santacruz import LEGEND, SEAT_LETTERS, describe_player, draw_board

HELP_LINE = ("Type a move's number, its words ('play road', 'build on site 14', 'choose set A "
             "(River)'), or a site number when building. 'hint' asks the AI, 'auto' plays its "
             "move, 'moves' lists every move, 'board' redraws the island, 'quit'.")


def _game(players: int, board: str | None) -> Any:
    from solvers.games.santacruz.kernel import SantaCruzKernel

    return SantaCruzKernel(players=players, board=board)


@click.group("santacruz")
def santacruz() -> None:
    """Santa Cruz: play both rounds against the AI, analyse positions.

    \b
    solve santacruz play --players 2 --ai mcts --time 1
    solve santacruz analyse POSITION.json          the AI's ranked moves

    A position file is JSON: players, seed, optionally an island file
    ("board") and the moves so far (see solvers.games.santacruz.position
    and docs/rules/santa-cruz.md).
    """


def parse_move(state: Any, text: str) -> int:
    """A typed move: a bare site number while landing or building, else the
    words of :meth:`action_to_string`."""
    word = text.strip()
    if state.step in ("land", "build") and word.isdigit():
        site = int(word)
        if site not in state.legal_actions():
            raise SolversError(f"you cannot build on site {site} now")
        return site
    return state.string_to_action(text)


@santacruz.command("play")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Seats; you are seat 0 (a), the others are AI players.")
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The AI for the other seats and for hints (e.g. 'mcts:iterations=5000', 'greedy').")
@click.option("--time", "seconds", type=seconds_type(), default=1.0, show_default=True,
              metavar="S", help="Seconds per AI move (an MCTS spec without a budget).")
@click.option("--seed", type=SEED, default=None, help="Shuffle seed [default: random].")
@click.option("--board", type=click.Path(dir_okay=False), default=None,
              help="An island file (default: the reconstructed island).")
@click.option("--color/--no-color", default=True, show_default=True, help="Colour the island.")
def play(players: int, ai_spec: str, seconds: float, seed: int | None, board: str | None,
         color: bool) -> None:
    """Play Santa Cruz (both rounds) in the terminal against AI players."""
    import secrets

    seed = secrets.randbits(31) if seed is None else seed
    game = _game(players, board)
    state = game.new_initial_state(seed=seed)
    ai = make_agent(ai_spec, game, seed, time=seconds)
    out.print(f"Santa Cruz, {players} players, seed {seed}. You are player 0 ({SEAT_LETTERS[0]}).")
    out.print(LEGEND)
    out.print(HELP_LINE)

    def announce(seat: int, move: str) -> None:
        out.print(f"  player {seat} ({SEAT_LETTERS[seat]}): {move}")

    while play_until_seat_zero(state, ai, announce):
        if state.step in ("land", "play", "choose", "discard"):
            _show(state, color)
        moves = [state.action_to_string(a) for a in state.legal_actions()]
        out.print(f"  {state.step}: " + "  ".join(f"{i}. {m}" for i, m in enumerate(moves, 1)))
        action = ask_move(state, ai, lambda text: parse_move(state, text), help_line=HELP_LINE,
                          value_label="win share",
                          commands={"auto": lambda _: ai.step(state),
                                    "board": lambda _: _show(state, color),
                                    "moves": lambda _: _list(moves)})
        if action is None:
            out.print("Game abandoned.")
            return
        out.print(f"  you: {state.action_to_string(action)}")
        state.apply_action(action)
    _show(state, color)
    out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(state.scores())))
    winner = state.returns().index(1.0)
    out.print("[bold]You win![/bold]" if winner == 0 else f"Winner: player {winner}")


def _list(moves: list[str]) -> None:
    for i, mv in enumerate(moves, 1):
        out.print(f"  {i:>3}. {mv}")


def _show(state: Any, color: bool) -> None:
    out.print()
    out.print(draw_board(state, color=color))
    out.print(f"  round {state.round}; scoring pile {len(state.deck) - state.deck_pos}; "
              f"bird tokens left {len(state.bag) - state.bag_pos}")
    for p in range(state.game.num_players):
        out.print("  " + describe_player(state, p, viewer=0))


@santacruz.command("analyse")
@click.argument("position", metavar="POSITION.json", type=click.Path(dir_okay=False))
@click.option("--ai", "ai_spec", default="mcts", show_default=True, metavar="SPEC",
              help="The agent that ranks the moves.")
@click.option("--time", "seconds", type=seconds_type(), default=None, metavar="S",
              help="Seconds of search (an MCTS spec without a budget) [default: 1].")
@click.option("--iterations", type=ITERATIONS, default=None, metavar="N",
              help="Iterations of search instead of a time (replays exactly with --seed).")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--top", type=click.IntRange(1), default=10, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
def analyse(position: str, ai_spec: str, seconds: float | None, iterations: int | None, seed: int,
            top: int, as_json: bool) -> None:
    """The AI's ranked moves for the player to move in POSITION.json.

    The AI sees only what that player may know: face-down tiles, the other
    hands, bird tokens and the pile are re-dealt in its search. ``value`` is
    the mean win share after the move.
    """
    from solvers.games.santacruz.position import load_position

    state = load_position(position)
    if state.is_terminal():
        raise SolversError("position: the game is over; there is no move to make")
    player = state.current_player()
    if seconds is None and iterations is None:
        seconds = 1.0
    agent = make_agent(ai_spec, state.game, seed, time=seconds, iterations=iterations)
    data = analysis("santacruz", position, state, agent, ai_spec, seed, top)
    if as_json:
        print_json(data)
        return
    out.print(draw_board(state, color=False))
    out.print(describe_player(state, player, viewer=player))
    print_analysis(data)
