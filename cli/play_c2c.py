"""``solve c2c play``: a solo challenge or a game against AI players."""

from __future__ import annotations

import click

import solvers

from .common import ask_move, out, play_until_seat_zero
from .render_c2c import draw_sheet

HELP_LINE = ("Type a move's number or its words (e.g. 'cross Hollywood', "
             "'circle Chase Field with The Alamo'); 'hint' asks the AI; 'map'; 'quit'.")


def _agent(spec: str, game, seed: int):
    from solvers.agents import load_agent, parse_agent_spec

    kind, options = parse_agent_spec(spec)
    options.setdefault("seed", seed)
    return load_agent(kind, game, **options)


@click.command("play")
@click.option("--challenge", "-c", metavar="NAME", help="Play this solo challenge card.")
@click.option("--players", type=click.IntRange(1, 4), default=1, show_default=True,
              help="Seats; you are seat 0, the others are AI players.")
@click.option("--seed", type=int, default=None, help="Shuffle seed [default: random].")
@click.option("--ai", "ai_spec", default="mcts:iterations=3000", show_default=True,
              help="The AI for the other seats and for hints, as an agent spec.")
@click.option("--map", "map_file", metavar="FILE", type=click.Path(dir_okay=False),
              help="Another player sheet in the JSON schema of the built-in one.")
def play(challenge: str | None, players: int, seed: int | None, ai_spec: str,
         map_file: str | None) -> None:
    """Play Coast to Coast in the terminal, with the AI's suggestion on request.

    \b
    solve c2c play --challenge "The Alamo"     a solo challenge
    solve c2c play --players 3                 you against two AI players
    """
    import secrets

    seed = secrets.randbits(31) if seed is None else seed
    from solvers.games.c2c.data import load_map

    m = load_map(map_file)
    game = solvers.load_game("c2c", players=players, challenge=challenge, map=m)
    state = game.new_initial_state(seed=seed)
    ai = _agent(ai_spec, game, seed)
    required = game.required()
    out.print(f"Coast to Coast, seed {seed}" + (f", challenge {challenge}" if challenge else "")
              + f". {HELP_LINE}")
    shown_round = -1
    while play_until_seat_zero(state, ai, lambda seat, move: out.print(f"  player {seat}: {move}")):
        if state.round != shown_round:
            shown_round = state.round
            _show(state, m, required)
        action = _ask(state, ai)
        if action is None:
            out.print("Game abandoned.")
            return
        state.apply_action(action)
    _show(state, m, required)
    scores = state.scores()
    if players == 1:
        won = state.challenge_won()
        verdict = "" if won is None else ("Challenge won! " if won else "Challenge lost (scores 0). ")
        out.print(f"[bold]{verdict}Final score: {scores[0]}[/bold]")
    else:
        out.print("Final scores: " + ", ".join(f"player {p}: {s}" for p, s in enumerate(scores)))
        r = state.returns()
        out.print("Winner: " + " and ".join(f"player {p}" for p, x in enumerate(r) if x > 0))


def _show(state, m, required) -> None:
    info = state.information_state(0)
    names = [l.name for l in m.locations]
    title = "Setup" if state.round == 0 else f"Round {state.round}"
    if state.round <= 5:
        out.print(f"\n[bold]{title}[/bold]: your cards: " + ", ".join(names[c] for c in info["cards"]))
    sheet = info["sheet"]
    out.print(draw_sheet(m, set(sheet["circled"]), set(sheet["crossed"]), set(sheet["exact"]),
                         required, legend=state.round == 0))
    b = state.score_breakdown(0)
    out.print(f"Score so far: {b['total']} (highways {b['highways']}, types {b['types']}, "
              f"regions {b['regions']}, exact {b['exact']})")


def _ask(state, ai):
    moves = [state.action_to_string(a) for a in state.legal_actions()]

    def list_moves() -> None:
        for i, mv in enumerate(moves, start=1):
            out.print(f"  {i:>3}. {mv}")

    list_moves()
    return ask_move(state, ai, state.string_to_action, help_line=HELP_LINE,
                    commands={"map": list_moves, "moves": list_moves})
