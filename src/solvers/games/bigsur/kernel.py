"""Big Sur on the Cython kernel: the rules, action ids and seeded dealing of
:mod:`.reference`, in C (``solvers._core.big_sur``).

>>> game = BigSurKernel(players=2)
>>> state = game.new_initial_state(seed=3)
>>> state.apply_seeded_chance()
>>> state.current_player(), len(state.hands[0]), len(state.depot), len(state.row)
(0, 2, 5, 5)
>>> len(game.play_random_games(100, seed=1))   # mean score per seat, played in C
2

The C level: ``game._gamedef_capsule()`` is a PyCapsule "solvers.GameDef"
for search modules (keep ``game`` alive while it is used) and
``state._state_capsule()`` a PyCapsule "solvers.State".
"""

from __future__ import annotations

from typing import Any

from ..._core.big_sur import BigSurCore, KernelState, load_fields  # type: ignore[import-not-found]
from ...game import State
from ..kernel_game import KernelGame
from .data import BONUS_KINDS, MATERIALS, SCENERY, CardSet, load_cards
from .reference import (
    FINISH,
    BigSur,
    describe_action,
    describe_hidden,
    information_view,
    render,
)
from .scoring import Spot

_ABILITIES = ("points", "mile_tag", "material")
#: The fields a reference state and a kernel state share.
STATE_FIELDS = ("order", "pos", "lorder", "lpos", "highways", "marks", "hands", "piles", "depot", "row",
                "player", "step", "turns", "taken", "used", "recycled", "claimed", "building", "end",
                "paying", "pay_finish", "claiming")
_ACTION_BASES = ("DRAW", "BUILD_BASE", "LEFT", "RIGHT", "DISCARD_BASE", "FINISH_BASE", "TOP_BASE",
                 "CLAIM_BASE", "PLACE_BASE", "END_TURN", "CARD_BASE", "LANDMARK_BASE")


def kernel_tables(rules: BigSur) -> dict[str, Any]:
    """The plain tables :class:`BigSurCore` is built from."""
    cards = rules.cards
    rows = []
    for c in cards.highway:
        kind, pts, arg = -1, 0, 0
        if c.bonus is not None:
            kind = list(BONUS_KINDS).index(c.bonus.kind)
            pts = c.bonus.get("points")
            for key in ("scenery", "material", "miles", "per"):
                value = c.bonus.get(key)
                if value is not None:
                    arg = SCENERY.index(value) if key == "scenery" else (
                        MATERIALS.index(value) if key == "material" else value)
        rows.append({
            "sc": [SCENERY.index(s) for s in c.scenery], "miles": c.miles,
            "cost": [MATERIALS.index(m) for m in c.cost], "mat": MATERIALS.index(c.material),
            "persist": MATERIALS.index(c.persistent) if c.persistent else -1,
            "bonus_kind": kind, "bonus_pts": pts, "bonus_arg": arg,
        })
    landmarks = []
    for l in cards.landmarks:
        a = l.ability
        arg = {"points": a.get("points"), "mile_tag": a.get("miles"),
               "material": MATERIALS.index(a.get("material")) if a.kind == "material" else 0}[a.kind]
        landmarks.append({"mask": sum(1 << SCENERY.index(s) for s in l.scenery),
                          "kind": _ABILITIES.index(a.kind), "arg": arg})
    p = rules.num_players
    t: dict[str, Any] = {
        "players": p, "n_cards": rules.num_cards, "n_landmarks": rules.num_landmarks,
        "deck": sorted(rules.deck), "max_hw": rules.max_highway, "cards": rows,
        "landmarks": landmarks, "finish": FINISH,
        "num_actions": rules.num_distinct_actions(),
        "max_game_length": rules.max_game_length,
    }
    for name in _ACTION_BASES:
        t[name] = getattr(rules, name)
    return t


class BigSurKernel(KernelGame):
    """Big Sur on the C kernel; built like :class:`.reference.BigSur`."""

    name = "bigsur"
    return_bounds = (0.0, 1.0)     # GameDef.returns are win shares

    def __init__(self, players: int = 2, cards: CardSet | str | None = None):
        rules = BigSur(players=players, cards=cards)  # validates the options
        self.rules = rules
        self.cards = rules.cards
        #: Built from a card file other than the package's own (the shipped
        #: model, trained on the package's cards, is then not used by default).
        self.custom_data = cards is not None and rules.cards.to_json() != load_cards(None).to_json()
        self.num_players = rules.num_players
        for attr in ("deck", "turns_each", "num_cards", "num_landmarks", "max_highway",
                     "BUILD_BASE", *_ACTION_BASES):
            setattr(self, attr, getattr(rules, attr))
        self.core = BigSurCore(kernel_tables(rules))

    def _features_capsule(self) -> Any:
        """A PyCapsule "solvers.Features" (eval_api.h): the evaluation
        features a learned model reads inside the C search, each computed from
        what one seat may see (names: :attr:`feature_names`; docs/learning.md)."""
        return self.core.features_capsule()

    @property
    def feature_names(self) -> tuple[str, ...]:
        """The names of the evaluation features, in order."""
        return self.core.feature_names

    def place_action(self, scenery: str, position: int) -> int:
        return self.rules.place_action(scenery, position)

    def finish_action(self, persistent: dict[str, int] | None = None, recycle: bool = False) -> int:
        return self.rules.finish_action(persistent, recycle)

    def from_reference(self, ref: Any) -> "BigSurKernelState":
        """The kernel state with the same fields as a reference state (its
        history is not copied)."""
        state = self.state_class.__new__(self.state_class)
        load_fields(state, self.core, self, {f: getattr(ref, f) for f in STATE_FIELDS})
        return state

    def __reduce__(self):
        return (BigSurKernel, (self.num_players, self.cards))


class BigSurKernelState(KernelState, State):
    """A position of Big Sur held in a C struct; the interface and field names
    of :class:`.reference.BigSurState`."""

    game: BigSurKernel

    def action_to_string(self, action: int) -> str:
        return describe_action(self, action)

    def hidden_move(self, action: int, viewer: int, seen: int) -> str:
        return describe_hidden(self, action, viewer, seen)

    def information_state(self, player: int) -> dict[str, Any]:
        return information_view(self, player)

    def spots(self, player: int) -> list[Spot]:
        cards = self.game.cards
        marks = self.marks[player]
        return [Spot(cards.card(c), cards.landmark(marks[c][0]), marks[c][1]) if c in marks
                else Spot(cards.card(c)) for c in self.highways[player]]

    def __str__(self) -> str:
        return render(self)


BigSurKernel.state_class = BigSurKernelState
