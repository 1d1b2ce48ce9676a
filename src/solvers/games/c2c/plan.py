"""Plans: a whole solo itinerary as JSON, and replaying one through the rules.

A plan is ``{"setup_cross": name, "rounds": [{"cross": name, "circles":
[[card, location or None], ...]}, ...]}`` with the circles in the order they
are made; ``None`` marks a skipped card. :func:`replay_plan` applies it to
the reference engine, so every plan the optimiser reports is checked by the
rules of record.
"""

from __future__ import annotations

from typing import Any

from ...errors import SolversError
from .data import CoastMap
from .reference import CoastState, CoastToCoast


def plan_actions(m: CoastMap, plan: dict[str, Any]) -> list[tuple[int, ...]]:
    """The plan as ("cross", loc) / ("circle", card, loc) steps, skips dropped."""
    steps: list[tuple[int, ...]] = [(m.location(plan["setup_cross"]).id,)]
    for rnd in plan["rounds"]:
        steps.append((m.location(rnd["cross"]).id,))
        for card, loc in rnd["circles"]:
            if loc is not None:
                steps.append((m.location(card).id, m.location(loc).id))
    return steps


def replay_plan(m: CoastMap, deal: list[int], plan: dict[str, Any],
                challenge: int | None = None) -> CoastState:
    """Play ``plan`` on ``deal`` with the reference rules; the final state.

    Raises SolversError naming the first step the rules refuse, or when the
    plan skips a card the rules would not let it skip.
    """
    game = CoastToCoast(1, challenge=challenge, map=m)
    state = game.state_from_deal(deal)
    n = m.n
    for step in plan_actions(m, plan):
        state.apply_seeded_chance()
        action = step[0] if len(step) == 1 else n + step[0] * n + step[1]
        if action not in state.legal_actions():
            raise SolversError(
                f"plan step {state.action_to_string(action)!r} is illegal in round {state.round}"
            )
        state.apply_action(action)
    if state.is_chance_node() and state.round <= 5:
        state.apply_seeded_chance()
    if not state.is_terminal():
        raise SolversError(f"plan ends early, in round {state.round} (a card was skipped that could be used)")
    if _normalised(state.plan()) != _normalised(plan):
        raise SolversError("plan's skipped cards do not match the rules' (compulsory circling)")
    return state


def _normalised(plan: dict[str, Any]) -> dict[str, Any]:
    """The plan with its skipped cards in a canonical order (skips come last)."""
    rounds = []
    for rnd in plan["rounds"]:
        made = [list(c) for c in rnd["circles"] if c[1] is not None]
        skipped = sorted(c[0] for c in rnd["circles"] if c[1] is None)
        rounds.append({"cross": rnd["cross"], "circles": made, "skipped": skipped})
    return {"setup_cross": plan["setup_cross"], "rounds": rounds}
