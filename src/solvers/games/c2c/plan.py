"""Plans: a whole solo itinerary as JSON, and replaying one through the rules.

A plan is ``{"setup_cross": name, "rounds": [{"cross": name, "circles":
[[card, location or None], ...]}, ...]}`` with the circles in the order they
are made; ``None`` marks a skipped card. :func:`replay_plan` plays it with
the reference engine, so every plan the optimiser reports is checked by the
rules of record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import SolversError
from .challenges import challenge_id
from .data import CoastMap, load_map
from .reference import CoastState, CoastToCoast

Plan = dict[str, Any]


def _check_plan_shape(plan: Any) -> None:
    ok = (isinstance(plan, dict) and isinstance(plan.get("setup_cross"), str)
          and isinstance(plan.get("rounds"), list)
          and all(isinstance(r, dict) and isinstance(r.get("cross"), str)
                  and isinstance(r.get("circles"), list)
                  and all(isinstance(c, (list, tuple)) and len(c) == 2 for c in r["circles"])
                  for r in plan["rounds"]))
    if not ok:
        raise SolversError('a plan is {"setup_cross": name, "rounds": '
                           '[{"cross": name, "circles": [[card, location or null], ...]}, ...]}')


def replay_plan(deal: Sequence[int], plan: Plan, challenge: str | int | None = None,
                map: CoastMap | str | None = None) -> CoastState:
    """Play ``plan`` on ``deal`` with the reference rules and return the state.

    Raises :class:`SolversError` when a move of the plan is not legal (for
    example a skipped card that could have circled something).
    """
    coast = map if isinstance(map, CoastMap) else load_map(map)
    game = CoastToCoast(players=1, challenge=challenge_id(coast, challenge), map=coast)
    state = game.state_from_deal(list(deal))
    loc = {l.name.lower(): l.id for l in coast.locations}
    n = coast.n

    def lid(name: str) -> int:
        try:
            return loc[name.lower()]
        except (KeyError, AttributeError):
            raise SolversError(f"the plan names unknown location {name!r}") from None

    def play(action: int, what: str) -> None:
        state.apply_seeded_chance()
        if action not in state.legal_actions():
            raise SolversError(f"the plan's move '{what}' is not legal in round {state.round}")
        state.apply_action(action)

    _check_plan_shape(plan)
    play(lid(plan["setup_cross"]), f"cross {plan['setup_cross']}")
    for rnd in plan["rounds"]:
        play(lid(rnd["cross"]), f"cross {rnd['cross']}")
        for card, where in rnd["circles"]:
            if where is not None:
                play(n + lid(card) * n + lid(where), f"circle {where} with {card}")
        # The round must be over now: every card left was rightly skipped.
        if not state.is_terminal() and not state.is_chance_node():
            raise SolversError(f"round {state.round} of the plan skips a card that could circle")
    return state
