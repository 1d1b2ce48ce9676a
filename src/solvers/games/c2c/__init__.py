"""Coast to Coast: rules (``reference``), data (``data``) and the kernel wrapper.

``GAME`` is the game's record for the generic tools (:mod:`solvers.registry`).
"""

from ...registry import GameInfo, GameOption, PositionFormat

GAME = GameInfo(
    name="c2c",
    title="Coast to Coast",
    aliases=("coast-to-coast", "coast_to_coast", "coasttocoast", "coast to coast"),
    min_players=1, max_players=4, default_players=1,
    options=(
        GameOption("challenge", (str, int), None,
                   "the solo challenge card: a location's name or id (1 player only)",
                   players=(1,)),
        GameOption("map", (str, object), None,
                   "a map file in the format of the built-in one (default: the printed map)",
                   content="solvers.games.c2c.data:parse_map"),
    ),
    chance="explicit", information="imperfect",
    # Several seats: win shares that sum to 1. One seat: the score, 0 for a
    # lost challenge; the bound is far above any score sheet.
    constant_sum=True, min_utility=0.0, max_utility=1.0, solo_max_utility=1000.0,
    reference="solvers.games.c2c.reference:CoastToCoast",
    kernel="solvers.games.c2c.kernel:CoastToCoastKernel",
    default_budget={"iterations": 3000},
    cli="solvers.cli.c2c:c2c",
    renderer="solvers.cli.play_c2c",
    move_reader="solvers.cli.play_c2c:read_move",
    breakdown="solvers.games.c2c.web:breakdown",
    encoding="solvers.games.c2c.encoding:encode",
    web="solvers.games.c2c.web",
    review_measure="solvers.games.c2c.record:review_measure",
    # Seat records hold the seat's view as the kernel's struct, except while
    # another seat plays its turn (rebuilt with stand-in moves).
    record_view=PositionFormat(load="solvers.record:load_kernel_view",
                               save="solvers.games.c2c.record:save_view"),
    record_stand_ins=True,
    review_extra="solvers.cli.review_c2c:EXTRA",
    solo_trainer="solvers.games.c2c.values:train_solo",
)
