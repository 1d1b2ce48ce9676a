"""Santa Cruz: rules (``reference``), the island data (``data``), the kernel
wrapper (``kernel``) and JSON positions (``position``); the rules in words:
``docs/rules/santa-cruz.md``.

``GAME`` is the game's record for the generic tools (:mod:`solvers.registry`).
"""

from ...registry import GameInfo, GameOption, PositionFormat

GAME = GameInfo(
    name="santacruz",
    title="Santa Cruz",
    aliases=("santa-cruz", "santa_cruz", "santa cruz"),
    min_players=2, max_players=4, default_players=2,
    options=(
        GameOption("board", (str, object), None,
                   "an island file in the format of the built-in one (default: the reconstructed "
                   "island, docs/rules/santa-cruz.md)",
                   content="solvers.games.santacruz.data:parse_island"),
    ),
    chance="explicit", information="imperfect",
    constant_sum=True, min_utility=0.0, max_utility=1.0,
    reference="solvers.games.santacruz.reference:SantaCruz",
    kernel="solvers.games.santacruz.kernel:SantaCruzKernel",
    position=PositionFormat(load="solvers.games.santacruz.position:parse_position",
                            save="solvers.games.santacruz.position:state_to_position"),
    default_budget={"time": 1.0},
    cli=None,
    renderer="solvers.cli.santacruz",
    move_reader="solvers.cli.santacruz:parse_move",
    breakdown="solvers.games.santacruz.web:breakdown",
    encoding="solvers.games.santacruz.encoding:encode",
    web="solvers.games.santacruz.web",
    # Seat records hold the seat's view as the kernel's struct (every step rebuilds).
    record_view=PositionFormat(load="solvers.record:load_kernel_view",
                               save="solvers.record:save_kernel_view"),
)
