"""Switchbacks: rules (``reference``), data (``data``), the kernel wrapper
(``kernel``), JSON positions (``position``) and the browser drawing (``web``,
``board.js``).

``GAME`` is the game's record for the generic tools (:mod:`solvers.registry`).
"""

from ...registry import GameInfo, GameOption, PositionFormat

GAME = GameInfo(
    name="switchbacks",
    title="Switchbacks",
    min_players=2, max_players=4, default_players=2,
    options=(
        GameOption("map", (str, object), None,
                   "a map file in the format of the built-in one (default: the printed map)",
                   content="solvers.games.switchbacks.data:parse_map"),
    ),
    chance="explicit", information="imperfect",
    constant_sum=True, min_utility=0.0, max_utility=1.0,
    reference="solvers.games.switchbacks.reference:Switchbacks",
    kernel="solvers.games.switchbacks.kernel:SwitchbacksKernel",
    position=PositionFormat(load="solvers.games.switchbacks.position:parse_position",
                            save="solvers.games.switchbacks.position:state_to_position"),
    default_budget={"time": 1.0},
    cli=None,
    renderer="solvers.cli.switchbacks",
    move_reader="solvers.cli.switchbacks:parse_move",
    breakdown="solvers.games.switchbacks.web:breakdown",
    encoding="solvers.games.switchbacks.encoding:encode",
    web="solvers.games.switchbacks.web",
    # Every tile is dealt once and placed once, with a hiker decision each.
    max_game_length=lambda game: 3 * game.num_tiles,
)
