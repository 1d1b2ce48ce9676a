"""Coast to Coast's online player with several seats: each decision played
as the solo round of the seat's own sheet (``CoastKernelState.seat_as_solo``).

The projection is checked against the game itself: its sheet, cards, step
and legal moves against the multi-seat state's, its unseen cards against
the deals of the game's history as the rules reveal them to the seat, and
move by move against the multi-seat state within the seat's round. The
player is checked against a walk of every legal line of the seat's last
round; what the seat cannot see is checked with twins."""

from __future__ import annotations

import pytest

import solvers
from solvers.errors import SolversError
from solvers.games.c2c.kernel import CoastToCoastKernel
from solvers.rng import SplitMix64

SOLO = CoastToCoastKernel(players=1)


def seen_by(state, seat, deals):
    """The cards ``seat`` has seen, from ``deals`` (the cards dealt so far,
    in order): in the setup its own two private cards and the public ones;
    the other seats' private cards once the setup is over (their sheets
    show them); every card of a round."""
    n = state.game.num_players
    seen = set()
    for i, card in enumerate(deals):
        private_of = i // 2 if i < 2 * n else None
        if private_of is None or private_of == seat or state.round >= 1:
            seen.add(card)
    return seen


def random_decisions(players, seed, every=1):
    """(state, the cards dealt so far) at decisions of a random game of
    ``players`` seats."""
    game = solvers.load_game("c2c", players=players)
    state = game.new_initial_state(seed=seed)
    rng = SplitMix64(seed)
    deals = []
    k = 0
    while not state.is_terminal():
        if state.is_chance_node():
            deals.append(state.seeded_outcome())
            state.apply_action(deals[-1])
            continue
        if k % every == 0:
            yield state.clone(), list(deals)
        k += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_projection_is_the_seats_own_round(players):
    checked = 0
    for seed in range(3):
        for state, deals in random_decisions(players, seed):
            seat = state.current_player()
            solo = state.seat_as_solo(SOLO)
            sheet, mine = solo.sheets[0], state.sheets[seat]
            assert (sheet.circled, sheet.crossed, sheet.exact) == (mine.circled, mine.crossed, mine.exact)
            assert solo.round == state.round and solo.step == state.step
            assert solo.visible_cards(0) == state.visible_cards(seat)
            assert solo.used == state.used
            assert solo.legal_actions() == state.legal_actions()
            assert solo.current_player() == 0
            # the cards not seen: the whole deck less those the history shows the seat
            assert set(solo.order[solo.pos:]) == set(state.game.deck) - seen_by(state, seat, deals)
            assert solo.order[solo.pos:] == sorted(solo.order[solo.pos:])   # never the real order
            # move by move within the seat's round: the same as the solo game's
            for a in state.legal_actions():
                after, solo_after = state.clone(), solo.clone()
                after.apply_action(a)
                solo_after.apply_action(a)
                if after.current_player() == seat and after.round == state.round:
                    assert after.seat_as_solo(SOLO)._raw() == solo_after._raw()
                    checked += 1
    assert checked > 50


def test_the_unseen_cards_include_the_others_private_cards_in_the_setup():
    """A control for the unseen set: in the setup a seat has not seen the
    other seat's private cards, after it it has (and the deck shrank)."""
    game = solvers.load_game("c2c", players=2)
    state = game.new_initial_state(seed=5)
    state.apply_seeded_chance()
    private_1 = set(state.dealt[2:4])
    assert private_1 <= set(state.seat_as_solo(SOLO).order[state.seat_as_solo(SOLO).pos:])
    while state.round == 0:
        state.apply_action(state.legal_actions()[0]) if not state.is_chance_node() \
            else state.apply_action(state.seeded_outcome())
    while state.is_chance_node():
        state.apply_action(state.seeded_outcome())
    solo = state.seat_as_solo(SOLO)
    assert not private_1 & set(solo.order[solo.pos:])


@pytest.mark.parametrize("players", [2, 3])
def test_twins_give_the_same_projection(players):
    """Twins differing only in what the seat to move cannot see (the
    others' unseen cards and moves, the deck order) project alike; the
    control: the twins' decks differ."""
    differ = 0
    for seed in range(4):
        for state, _ in random_decisions(players, 20 + seed, every=5):
            seat = state.current_player()
            twin = state.resample(seat, SplitMix64(seed + 99))
            differ += twin.order[twin.pos:] != state.order[state.pos:]
            assert twin.seat_as_solo(SOLO)._raw() == state.seat_as_solo(SOLO)._raw()
    assert differ > 5


def _best_last_round(state, seat):
    """The best score ``seat`` can end its last round with: every legal line
    of its round walked move by move (the rules, not the projection)."""
    if state.is_terminal() or state.current_player() != seat:
        return state.scores()[seat]
    return max(_best_last_round(_after(state, a), seat) for a in state.legal_actions())


def _after(state, a):
    out = state.clone()
    out.apply_action(a)
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_each_seat_ends_the_last_round_with_its_best_sheet(players):
    game = solvers.load_game("c2c", players=players)
    reached = 0
    for seed in (1, 2):
        state = game.new_initial_state(seed=seed)
        rng = SplitMix64(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.seeded_outcome())
                continue
            if state.round == 5 and state.step == "cross":
                seat = state.current_player()
                best = _best_last_round(state, seat)
                agent = solvers.load_agent("online", game, early="report", seed=0)
                while not state.is_terminal() and state.current_player() == seat:
                    state.apply_action(agent.step(state))
                assert state.scores()[seat] == best
                reached += 1
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.below(len(legal))])
    assert reached == 2 * players


def test_the_learned_player_plays_every_seat():
    game = solvers.load_game("c2c", players=3)
    state = game.new_initial_state(seed=4)
    agents = [solvers.load_agent("online", game, early="report", learned=4, seed=q) for q in range(3)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        else:
            state.apply_action(agents[state.current_player()].step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_projection_refusals():
    game = solvers.load_game("c2c", players=2)
    state = game.new_initial_state(seed=1)
    with pytest.raises(SolversError, match="a seat's decision"):
        state.seat_as_solo(SOLO)                    # a deal is due
    state.apply_seeded_chance()
    for other in (CoastToCoastKernel(players=2), CoastToCoastKernel(players=1, challenge="The Alamo")):
        with pytest.raises(SolversError, match="solo kernel game without a challenge"):
            state.seat_as_solo(other)
