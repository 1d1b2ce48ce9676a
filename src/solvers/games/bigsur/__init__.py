"""Big Sur: card data (``data``), rules (``reference``), the kernel wrapper
(``kernel``), Highway scoring (``scoring``, ``highway``) and seat-view
positions (``position``). The rules as the library reads them:
``docs/rules/big-sur.md``.

``GAME`` is the game's record for the generic tools (:mod:`solvers.registry`).
"""

from ...registry import GameInfo, GameOption, PositionFormat

GAME = GameInfo(
    name="bigsur",
    title="Big Sur",
    aliases=("big-sur", "big sur", "big_sur"),
    min_players=2, max_players=4, default_players=2,
    options=(
        GameOption("cards", (str, object), None,
                   "a card file in the format of the built-in one (default: the reconstructed set)",
                   content="solvers.games.bigsur.data:parse_cards"),
    ),
    chance="explicit", information="imperfect",
    constant_sum=True, min_utility=0.0, max_utility=1.0,
    reference="solvers.games.bigsur.reference:BigSur",
    kernel="solvers.games.bigsur.kernel:BigSurKernel",
    position=PositionFormat(load="solvers.games.bigsur.position:parse_position",
                            save="solvers.games.bigsur.position:state_to_position"),
    default_budget={"time": 1.0},
    cli="solvers.cli.bigsur:bigsur",
    renderer="solvers.cli.bigsur",
    move_reader="solvers.cli.bigsur:parse_move",
    breakdown="solvers.games.bigsur.web:breakdown",
    encoding="solvers.games.bigsur.encoding:encode",
    web="solvers.games.bigsur.web",
    max_game_length=lambda game: game.max_game_length,
    model="solvers.data:bigsur-{players}p.model.json",
    record_view=PositionFormat(load="solvers.games.bigsur.record:load_view",
                               save="solvers.games.bigsur.record:save_view"),
)
