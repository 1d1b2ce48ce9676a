"""CP-SAT models for Coast to Coast against exhaustive search and the reference rules."""

from __future__ import annotations

import pytest

from solvers.errors import SolversError
from solvers.games.c2c.data import load_map
from solvers.games.c2c.reference import CoastToCoast
from solvers.optimize.c2c import (
    _required_cards_missing, _Sheet, Deal, ShuffleJob,
)
from solvers.optimize.c2c import (
    beam_plan, best_over_shuffles, ceiling, hindsight_optimum, obviously_lost, replay_plan,
    shuffle_deal, shuffle_seeds, wilson_interval,
)

MAP = load_map()
ID = {l.name: l.id for l in MAP.locations}


# ---------------------------------------------------------------------------
# Two exhaustive searches: one walks the reference engine's legal actions,
# the other the same rules on bit masks (fast enough for two rounds). The
# first checks the second on one-round games; the second checks the model.
# ---------------------------------------------------------------------------

def engine_brute_force(deal, challenge=None, rounds=1):
    """Best score over every legal line of play (None when no line wins)."""
    game = CoastToCoast(players=1, challenge=challenge)
    need = frozenset(game.required())
    memo = {}

    def value(state):
        state.apply_seeded_chance()
        sheet = state.sheets[0]
        if state.round > rounds:
            if not need <= sheet.circled:
                return None
            b = state.score_breakdown()
            return b["total"] - b["exact"]          # exact points are added on the way
        key = (state.round, state.step, frozenset(sheet.circled), frozenset(sheet.crossed),
               frozenset(state.used))
        if key not in memo:
            best = None
            for a in state.legal_actions():
                child = state.clone()
                child.apply_action(a)
                gain = MAP.exact_match_points * (len(child.sheets[0].exact) - len(sheet.exact))
                v = value(child)
                if v is not None and (best is None or v + gain > best):
                    best = v + gain
            memo[key] = best
        return memo[key]

    return value(game.state_from_deal(list(deal)))


def _points(mask):
    total = MAP.highway_score(mask)
    total += sum(MAP.type_points[t] for t in MAP.types if MAP.type_masks[t] & ~mask == 0)
    total += MAP.region_points * sum(1 for g in MAP.regions if MAP.region_masks[g] & ~mask == 0)
    return total


def _bits(mask):
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_brute_force(deal, challenge=None, rounds=2, setup_cross=None, round_one=None):
    """The same search on bit masks: cross off, then circle while any card can
    (the setup's cross-off ``setup_cross`` when given, and round 1's moves
    ``round_one``, ``(cross-off, {(card, location), ...})``, when given:
    other moves of that round are not tried)."""
    need = MAP.required_mask(ID[challenge]) if challenge else 0
    cards = [deal[:4]] + [deal[4 + 4 * r: 8 + 4 * r] for r in range(rounds)]
    memo = {}

    def touching(circled):
        out = 0
        for m in _bits(circled):
            out |= MAP.neighbours[m]
        return out

    def round_value(r, circled, crossed):
        if r > rounds:
            return _points(circled) if need & ~circled == 0 else None
        best = None
        for k in cards[r]:
            if r == 0 and setup_cross is not None and k != setup_cross:
                continue
            if r == 1 and round_one is not None and k != round_one[0]:
                continue
            if r == 0:
                start = sum(1 << c for c in cards[0] if c != k)
                v = round_value(1, start, 1 << k)
            else:
                v = circle_value(r, circled & ~(1 << k), crossed | 1 << k, 1 << k)
            if v is not None and (best is None or v > best):
                best = v
        return best

    def circle_value(r, circled, crossed, used):
        key = (r, circled, crossed, used)
        if key in memo:
            return memo[key]
        free = touching(circled) & ~circled & ~crossed
        best, moved = None, False
        for c in cards[r]:
            if used >> c & 1:
                continue
            options = MAP.matches[c] & free
            for l in _bits(options):
                if r == 1 and round_one is not None and (c, l) not in round_one[1]:
                    continue
                moved = True
                v = circle_value(r, circled | 1 << l, crossed, used | 1 << c)
                if v is not None:
                    v += MAP.exact_match_points * (c == l)
                    if best is None or v > best:
                        best = v
        if not moved:
            best = round_value(r + 1, circled, crossed)
        memo[key] = best
        return best

    return round_value(0, 0, 0)


def check_replay(deal, result, challenge=None):
    state = replay_plan(deal, result.plan, challenge)
    assert state.score_breakdown()["total"] == result.score
    if challenge is not None:
        assert state.challenge_won()
    return state


# ---------------------------------------------------------------------------
# Hindsight optimum
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_one_round_matches_both_exhaustive_searches(seed):
    deal = shuffle_deal(None, seed)[:8]
    best = engine_brute_force(deal, rounds=1)
    assert mask_brute_force(deal, rounds=1) == best
    result = hindsight_optimum(deal, rounds=1)
    assert (result.status, result.score) == ("optimal", best)
    check_replay(deal, result)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_two_rounds_match_exhaustive_search(seed):
    deal = shuffle_deal(None, seed)[:12]
    result = hindsight_optimum(deal, rounds=2)
    assert (result.status, result.score) == ("optimal", mask_brute_force(deal, rounds=2))
    assert result.bound == result.score
    check_replay(deal, result)


# Empire State Building needs 9 locations; two rounds make exactly 9 circles.
ESB = "Empire State Building"
ESB_DEAL = [ID[n] for n in (
    "Gateway Arch", "Space Needle", "Little League World Series", "Hollywood",      # setup
    "Golden Gate Bridge", "Great Salt Lake", "College World Series", "Chase Field",  # round 1
    "Mall of America", "Freedom Trail", "The Alamo", "Disney World",                 # round 2
)]


def test_winnable_short_challenge_matches_exhaustive_search():
    best = mask_brute_force(ESB_DEAL, ESB, rounds=2)
    assert best is not None
    result = hindsight_optimum(ESB_DEAL, challenge=ESB, rounds=2)
    assert (result.status, result.score, result.won) == ("optimal", best, True)
    check_replay(ESB_DEAL, result, ESB)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_short_challenge_matches_exhaustive_search(seed):
    deal = shuffle_deal(ESB, seed)[:12]
    best = mask_brute_force(deal, ESB, rounds=2)
    result = hindsight_optimum(deal, challenge=ESB, rounds=2)
    if best is None:
        assert (result.status, result.won, result.plan) == ("infeasible", False, None)
    else:
        assert (result.status, result.score) == ("optimal", best)
        check_replay(deal, result, ESB)


@pytest.mark.parametrize("deal", [ESB_DEAL, shuffle_deal(ESB, 1)[:12], shuffle_deal(ESB, 4)[:12]])
def test_a_forced_setup_cross_off_matches_exhaustive_search(deal):
    results = []
    for k in deal[:4]:
        best = mask_brute_force(deal, ESB, rounds=2, setup_cross=k)
        result = hindsight_optimum(deal, challenge=ESB, rounds=2, cross_off=[k])
        if best is None:
            assert (result.status, result.won) == ("infeasible", False)
        else:
            assert (result.status, result.score) == ("optimal", best)
            assert check_replay(deal, result, ESB).sheets[0].crossed >= {k}
            assert result.plan["setup_cross"] == MAP.locations[k].name
        results.append(best)
    # The free optimum is the best of the four forced ones.
    free = hindsight_optimum(deal, challenge=ESB, rounds=2)
    scores = [b for b in results if b is not None]
    assert free.score == (max(scores) if scores else None)


def _random_first_round(deal, challenge, seed):
    """A legal setup and round 1 on ``deal`` (random moves, reference rules):
    the plan so far and round 1's moves as (cross-off, {(card, location)})."""
    import random

    from solvers.games.c2c.reference import CoastToCoast

    state = CoastToCoast(players=1, challenge=ID[challenge] if challenge else None,
                         map=MAP).state_from_deal(list(deal))
    rng = random.Random(seed)
    while state.round <= 1:
        if state.is_chance_node():
            state.apply_seeded_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    plan = state.plan()
    one = plan["rounds"][0]
    return plan, (ID[one["cross"]], {(ID[c], ID[w]) for c, w in one["circles"] if w})


@pytest.mark.parametrize("challenge,deal", [
    (None, shuffle_deal(None, 2)[:12]), (None, shuffle_deal(None, 9)[:12]),
    (ESB, ESB_DEAL), (ESB, shuffle_deal(ESB, 1)[:12]), (ESB, shuffle_deal(ESB, 4)[:12])])
def test_moves_already_played_match_exhaustive_search(challenge, deal):
    for seed in range(3):
        plan, one = _random_first_round(deal, challenge, seed)
        best = mask_brute_force(deal, challenge, rounds=2, setup_cross=ID[plan["setup_cross"]],
                                round_one=one)
        result = hindsight_optimum(deal, challenge=challenge, rounds=2, played=plan)
        if best is None:
            assert (result.status, result.won) == ("infeasible", False)
        else:
            assert (result.status, result.score) == ("optimal", best)
            replayed = check_replay(deal, result, challenge)
            got = result.plan["rounds"][0]          # the same moves, in any order
            assert got["cross"] == plan["rounds"][0]["cross"]
            assert sorted(map(tuple, got["circles"])) == sorted(map(tuple, plan["rounds"][0]["circles"]))
            assert replayed.sheets[0].crossed >= {ID[plan["setup_cross"]], one[0]}


def test_played_must_fit_the_deal():
    plan, _ = _random_first_round(ESB_DEAL, ESB, 0)
    other = next(MAP.locations[k].name for k in range(MAP.n) if k not in ESB_DEAL)
    for bad, why in [({**plan, "setup_cross": other}, "not a card of the setup"),
                     ({"setup_cross": plan["setup_cross"],
                       "rounds": [{**plan["rounds"][0], "cross": other}]}, "not a card of round 1"),
                     ({"setup_cross": plan["setup_cross"], "rounds": plan["rounds"] * 3},
                      "3 rounds; the deal has 2"),
                     ("round one", "should be a plan")]:
        with pytest.raises(SolversError, match=why):
            hindsight_optimum(ESB_DEAL, challenge=ESB, rounds=2, played=bad)


def test_cross_off_must_name_one_dealt_card_a_round():
    with pytest.raises(SolversError, match="cards of the deal"):
        hindsight_optimum(ESB_DEAL, challenge=ESB, rounds=2, cross_off=[ID[ESB]])
    with pytest.raises(SolversError, match="one card a round"):
        hindsight_optimum(ESB_DEAL, challenge=ESB, rounds=2, cross_off=ESB_DEAL[:2])


# ---------------------------------------------------------------------------
# The beam search that gives the solver its first plan
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("challenge", [None, "The Alamo", "Wrigley Field"])
def test_beam_plans_are_legal_and_score_what_they_claim(seed, challenge):
    deal = shuffle_deal(challenge, seed)
    found = beam_plan(deal, challenge, width=256)
    if found is None:
        assert challenge is not None       # without a challenge some plan always exists
        return
    score, plan = found
    state = replay_plan(deal, plan, challenge)        # raises on an illegal move
    assert state.score_breakdown()["total"] == score
    if challenge is not None:
        assert state.challenge_won()


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_beam_never_beats_exhaustive_search_and_wide_beams_reach_it(seed):
    deal = shuffle_deal(None, seed)[:12]
    best = mask_brute_force(deal, rounds=2)
    narrow, _ = beam_plan(deal, rounds=2, width=1)
    wide, _ = beam_plan(deal, rounds=2, width=100_000)
    assert narrow <= wide <= best
    # Two rounds keep few enough sheets that a very wide beam drops none.
    assert wide == best


def test_the_optimum_does_not_depend_on_the_starting_plan():
    deal = shuffle_deal(None, 21)
    warm = hindsight_optimum(deal)
    cold = hindsight_optimum(deal, beam_width=0)
    assert warm.status == cold.status == "optimal"
    assert warm.score == cold.score
    check_replay(deal, warm)


def test_a_winning_beam_plan_settles_feasibility_without_the_solver():
    deal = shuffle_deal("The Alamo", 3)
    quick = hindsight_optimum(deal, challenge="The Alamo", objective=False)
    solver = hindsight_optimum(deal, challenge="The Alamo", objective=False, beam_width=0)
    assert quick.status == solver.status
    if quick.status == "feasible":
        check_replay(deal, quick, "The Alamo")


def test_bad_beam_requests_are_refused():
    core = load_game_core()
    with pytest.raises(SolversError, match="beam width"):
        core.hindsight_beam(list(range(24)), width=0)
    with pytest.raises(SolversError, match="different cards"):
        core.hindsight_beam([0] * 24)
    with pytest.raises(SolversError, match="rounds"):
        core.hindsight_beam(list(range(28)), rounds=6)
    with pytest.raises(SolversError, match="beam_width"):
        hindsight_optimum(shuffle_deal(None, 1), beam_width=-1)


# Widths whose sheet counts overflow 32 bits: the history alone
# (width * 21 + 4) passes 2**31 from 102,261,127 on, the children (width *
# (3n + 4)) sooner; and widths no C int holds at all.
@pytest.mark.parametrize("width", [102_261_127, 2**31, 2**40, 10**30, 2.5, True])
def test_beam_widths_the_kernel_cannot_count_are_one_clear_error(width):
    deal = shuffle_deal(None, 1)
    with pytest.raises(SolversError, match="beam width must be a whole number from 1 to") as err:
        beam_plan(deal, width=width)
    assert "\n" not in str(err.value)
    core = load_game_core()
    widest = int(str(err.value).split(" to ")[1].split(" ")[0].replace(",", ""))
    n = load_map().n        # children: up to 3n + 4 per sheet; history: 21 per sheet + 4

    def countable(w):
        return w * (3 * n + 4) < 2**31 and w * 21 + 4 < 2**31
    assert countable(widest) and not countable(widest + 1)
    with pytest.raises(SolversError, match="beam width"):
        core.hindsight_beam(deal, width=widest + 1)


def test_hindsight_optimum_refuses_an_impossible_beam_width_in_one_line():
    with pytest.raises(SolversError, match="beam width") as err:
        hindsight_optimum(shuffle_deal(None, 1), beam_width=2**40)
    assert "\n" not in str(err.value)


def load_game_core():
    import solvers
    return solvers.load_game("c2c")._core


def test_a_round_of_required_cards_cannot_be_won():
    need = [l for l in range(MAP.n) if MAP.required_mask(ID[ESB]) >> l & 1 and l != ID[ESB]]
    others = [l for l in range(MAP.n) if l not in need and l != ID[ESB]]
    # Round 1 shows four required locations: one of them must be crossed off.
    deal = others[:4] + need[:4] + others[4:20]
    assert obviously_lost(deal, ESB)
    result = hindsight_optimum(deal, challenge=ESB, time_limit=20)
    assert (result.status, result.won) == ("infeasible", False)


def test_full_game_plan_replays_to_its_score():
    deal = shuffle_deal(None, 4)
    result = hindsight_optimum(deal, time_limit=5)
    assert result.status in ("optimal", "feasible")
    check_replay(deal, result)
    assert result.score <= result.bound
    assert len(result.plan["rounds"]) == 5
    for rnd in result.plan["rounds"]:
        assert len(rnd["circles"]) == 3


def four_required_cards_at_once(deal, challenge):
    """The first round (or the setup) whose four cards all show locations
    the challenge requires, or None. One of the four must be crossed off,
    so such a deal cannot win."""
    need = MAP.required_mask(ID[challenge])
    for start in range(0, len(deal), 4):
        if all(need >> c & 1 for c in deal[start:start + 4]):
            return start // 4
    return None


@pytest.mark.parametrize("seed, winnable", [(1, True), (74, False)])
def test_full_game_challenge_feasibility(seed, winnable):
    # Shuffle 1 of The Alamo can be won (the plan found replays to a win);
    # shuffle 74 cannot: its setup deals four required locations.
    deal = shuffle_deal("The Alamo", seed)
    result = hindsight_optimum(deal, challenge="The Alamo", objective=False, time_limit=20)
    if winnable:
        assert (result.status, result.won) == ("feasible", True)
        check_replay(deal, result, "The Alamo")
    else:
        assert four_required_cards_at_once(deal, "The Alamo") == 0
        assert (result.status, result.won) == ("infeasible", False)


def test_hint_is_accepted_and_answer_unchanged():
    deal = shuffle_deal(None, 8)[:12]
    first = hindsight_optimum(deal, rounds=2)
    again = hindsight_optimum(deal, rounds=2, hint=first.plan)
    assert again.score == first.score


def test_replay_rejects_a_skip_that_circling_forbids():
    deal = shuffle_deal(None, 3)[:8]
    result = hindsight_optimum(deal, rounds=1)
    circles = result.plan["rounds"][0]["circles"]
    made = [c for c in circles if c[1] is not None]
    assert made, "this deal circles something in round 1"
    # Drop the last circle: its card could still circle, so the round cannot end.
    bad = {"setup_cross": result.plan["setup_cross"],
           "rounds": [{"cross": result.plan["rounds"][0]["cross"],
                       "circles": made[:-1] + [[made[-1][0], None]]}]}
    with pytest.raises(SolversError):
        replay_plan(deal, bad)


def test_skipped_cards_appear_last_with_no_location():
    # Start in the north-east corner; only the Niagara Falls card can reach
    # anything, the three city cards must be skipped (one is crossed off).
    deal = [ID[n] for n in ("Freedom Trail", "Empire State Building", "Baseball Hall of Fame",
                            "Little League World Series", "Niagara Falls", "Las Vegas Strip",
                            "Beale Street", "Bourbon Street")]
    result = hindsight_optimum(deal, rounds=1)
    assert result.score == mask_brute_force(deal, rounds=1)
    circles = result.plan["rounds"][0]["circles"]
    assert circles[0] == ["Niagara Falls", "Niagara Falls"]
    assert [where for _, where in circles[1:]] == [None, None]
    check_replay(deal, result)


@pytest.mark.parametrize("bad", [
    dict(deal=[0, 1, 2]),
    dict(deal=[0, 0, 1, 2, 3, 4, 5, 6], rounds=1),
    dict(deal=list(range(8)), rounds=1, challenge="Space Needle"),
    dict(deal=list(range(8)), rounds=1, challenge="Space Needdle"),
    dict(deal=list(range(8)), rounds=7),
    dict(deal=list(range(8)), rounds=1, time_limit=0),
])
def test_bad_input_raises_solvers_error(bad):
    with pytest.raises(SolversError):
        hindsight_optimum(**bad)


# ---------------------------------------------------------------------------
# Over all shuffles, and the ceiling
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("challenge", ["Wrigley Field", "Empire State Building"])
def test_best_over_shuffles_plan_wins_on_replay(challenge):
    best = best_over_shuffles(challenge, time_limit=30)
    assert best.feasible is True and best.status == "optimal"
    assert best.score == best.bound
    state = replay_plan(best.deal, best.plan, challenge)
    assert state.challenge_won() and state.is_terminal()
    assert state.score_breakdown()["total"] == best.score
    assert len(best.deal) == 24 and ID[challenge] not in best.deal


def test_best_over_shuffles_beats_or_equals_a_known_deal():
    # The best shuffle is at least as good as any one shuffle's best play:
    # here a shuffle whose optimum is 107 (proven; the plan replays to it).
    deal = shuffle_deal(ESB, 2)
    known = hindsight_optimum(deal, challenge=ESB, time_limit=30)
    assert (known.status, known.won, known.score) == ("optimal", True, 107)
    check_replay(deal, known, ESB)
    best = best_over_shuffles(ESB, time_limit=30)
    assert best.score >= known.score


def test_best_over_shuffles_does_not_depend_on_the_solution_found_first(monkeypatch):
    """Many shuffles reach the best score and CP-SAT returns whichever it
    meets first (issue 27): here three randomised searches start from
    different optimal solutions, and the deal and plan reported are the
    same, canonical one."""
    import solvers.optimize.c2c_shuffles as cs

    real_solver, real_canonical = cs._solver, cs._canonical
    found_first = []

    def canonical(model, v, objective, solver, time_limit):
        found_first.append(tuple(l for l in sorted(v.ever) if solver.value(v.ever[l]))
                           + tuple(l for l in sorted(v.start) if solver.value(v.start[l])))
        return real_canonical(model, v, objective, solver, time_limit)

    monkeypatch.setattr(cs, "_canonical", canonical)
    results = set()
    for seed in (1, 2, 3):
        def randomised(time_limit, workers, seed=seed):
            solver = real_solver(time_limit, workers)
            solver.parameters.random_seed = seed
            solver.parameters.randomize_search = True
            return solver

        monkeypatch.setattr(cs, "_solver", randomised)
        best = best_over_shuffles("Gateway Arch")
        assert best.canonical and best.status == "optimal" and best.score == 115
        results.add((tuple(best.deal), repr(best.plan)))
    assert len(set(found_first)) > 1          # the searches did differ
    assert len(results) == 1


def test_best_over_shuffles_is_the_same_with_one_worker_and_with_two():
    one = best_over_shuffles("Gateway Arch", workers=1)
    two = best_over_shuffles("Gateway Arch", workers=2)
    assert one.canonical and two.canonical
    assert (one.score, one.deal, one.plan) == (two.score, two.deal, two.plan)
    state = replay_plan(two.deal, two.plan, "Gateway Arch")
    assert state.challenge_won() and state.score_breakdown()["total"] == two.score


def test_shuffle_deal_is_the_reference_deck():
    game = CoastToCoast(players=1, challenge="The Alamo")
    state = game.new_initial_state(seed=77)
    dealt = []
    while not state.is_terminal():
        if state.is_chance_node():
            dealt.append(state.seeded_outcome())
            state.apply_action(dealt[-1])
        else:
            state.apply_action(state.legal_actions()[0])
    assert shuffle_deal("The Alamo", 77) == dealt == shuffle_deal(game, 77)


def test_ceiling_counts_and_reports_progress():
    seen = []
    result = ceiling("Wrigley Field", shuffles=6, seed=5, workers=2,
                     progress=lambda done, total, o: seen.append((done, total, o.index)))
    assert [d for d, _, _ in seen] == list(range(1, 7))
    assert sorted(i for _, _, i in seen) == list(range(6))
    assert result.won + result.lost + result.unknown == 6
    assert result.low <= result.rate <= result.high
    seeds = shuffle_seeds(5, 6)
    for o in result.outcomes:
        assert o.deal == shuffle_deal("Wrigley Field", seeds[o.index])
        if o.won is False and o.how == "precheck":
            assert obviously_lost(o.deal, "Wrigley Field")
    same = ceiling("Wrigley Field", shuffles=6, seed=5, workers=1)
    assert [o.won for o in same.outcomes] == [o.won for o in result.outcomes]


def test_precheck_never_contradicts_the_model():
    for seed in shuffle_seeds(9, 12):
        deal = shuffle_deal("Cedar Point", seed)
        if obviously_lost(deal, "Cedar Point"):
            res = hindsight_optimum(deal, "Cedar Point", objective=False, time_limit=20)
            assert res.status == "infeasible"


def _older_prechecks(deal, challenge, rounds=5):
    """The two tests obviously_lost had before the flow: a round of four
    required cards, or more required locations than circles."""
    need = MAP.required_mask(ID[challenge])
    rounds_of = [deal[i:i + 4] for i in range(0, len(deal), 4)]
    return (any(all(need >> k & 1 for k in cs) for cs in rounds_of)
            or bin(need).count("1") > 3 + 3 * rounds)


def test_flow_precheck_matches_exhaustive_search_on_short_games():
    # Two rounds of Empire State Building: nine required locations for
    # exactly nine circles. The winnable deal uses every card, so a flow
    # that lent a round one card too few would call it lost.
    assert mask_brute_force(ESB_DEAL, ESB, rounds=2) is not None
    assert not obviously_lost(ESB_DEAL, ESB, rounds=2)
    caught = 0
    for seed in (0, 3):
        deal = shuffle_deal(ESB, seed)[:12]
        if obviously_lost(deal, ESB, rounds=2) and not _older_prechecks(deal, ESB, rounds=2):
            caught += 1
            assert mask_brute_force(deal, ESB, rounds=2) is None
    assert caught == 2


def test_flow_precheck_hand_made_case():
    # Freedom Trail is required and not in the setup; every card that could
    # circle it is kept out of the two rounds, so no play wins.
    ft = ID["Freedom Trail"]
    need = MAP.required_mask(ID[ESB])
    helpers = {k for k in range(MAP.n) if MAP.matches[k] >> ft & 1} | {ID[ESB]}
    free = [k for k in range(MAP.n) if k not in helpers]
    plain = [k for k in free if not need >> k & 1]
    wanted = [k for k in free if need >> k & 1]
    setup, plain = plain[:4], plain[4:]
    deal = setup + wanted[:2] + plain[:2] + wanted[2:4] + plain[2:4]   # two rounds of 2 + 2
    assert not _older_prechecks(deal, ESB, rounds=2)
    d = Deal.of(deal, rounds=2, challenge=ID[ESB])
    assert _required_cards_missing(_Sheet(MAP, d, need))
    assert obviously_lost(deal, ESB, rounds=2)
    assert mask_brute_force(deal, ESB, rounds=2) is None


@pytest.mark.parametrize("challenge", ["Wrigley Field", "Space Needle", "Golden Gate Bridge"])
def test_feasibility_fast_path_agrees_with_cp_sat_alone(challenge):
    # The precheck and the narrow beams first, against the model solved
    # from nothing on every shuffle (no precheck, no beam).
    kinds = set()
    for i, seed in enumerate(shuffle_seeds(3, 8)):
        outcome = ShuffleJob(ID[challenge], MAP, 30.0)((i, seed))
        alone = hindsight_optimum(outcome.deal, challenge, objective=False, beam_width=0,
                                  time_limit=30)
        assert alone.status in ("feasible", "infeasible")
        assert outcome.won is (alone.status == "feasible")
        kinds.add((outcome.won, outcome.how))
    assert (True, "model") in kinds


def test_a_work_limit_stops_the_solver_the_same_way_twice():
    deal = shuffle_deal(None, 2026)
    runs = [hindsight_optimum(deal, work_limit=0.05, time_limit=60)
            for _ in range(2)]
    assert runs[0].status == "feasible"          # stopped by the limit, not proven
    assert runs[0].deterministic_time <= 0.1
    assert (runs[0].score, runs[0].plan) == (runs[1].score, runs[1].plan)
    check_replay(deal, runs[0])


@pytest.mark.parametrize("bad", [0, -1.0, "1", True])
def test_a_bad_work_limit_is_one_clear_error(bad):
    with pytest.raises(SolversError, match="work_limit"):
        hindsight_optimum(shuffle_deal(None, 1)[:12], rounds=2, work_limit=bad)


def test_wilson_interval_known_values():
    low, high = wilson_interval(5, 10)
    assert abs(low - 0.2366) < 1e-3 and abs(high - 0.7634) < 1e-3
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and abs(high - 0.1611) < 1e-3


def test_malformed_plans_and_options_raise_solvers_error():
    deal = shuffle_deal(None, 1)
    with pytest.raises(SolversError):
        replay_plan(deal, {"rounds": 3})
    with pytest.raises(SolversError):
        replay_plan(deal, {"setup_cross": "Atlantis", "rounds": []})
    with pytest.raises(SolversError):
        ceiling("Wrigley Field", shuffles=-1)
    with pytest.raises(SolversError):
        ceiling(None, shuffles=1)
    with pytest.raises(SolversError):
        best_over_shuffles("Wrigley Feld")


# ---------------------------------------------------------------------------
# The setup relaxation: the setup's cross-off chosen on its four cards alone
# ---------------------------------------------------------------------------

WRIGLEY = MAP.location("Wrigley Field").id
# Shuffle 2 of seed 0: its setup's four cross-offs win different futures.
RELAX_SEED = shuffle_seeds(0, 3)[2]


def test_winnable_cross_offs_match_one_solve_per_cross_off():
    from solvers.optimize.c2c_relaxation import _winnable_crosses, future_deals

    setup = shuffle_deal(WRIGLEY, RELAX_SEED)[:4]
    seen = set()
    for deal in future_deals(setup, WRIGLEY, MAP, 6, RELAX_SEED):
        assert deal[:4] == setup and len(set(deal)) == 24 and WRIGLEY not in deal
        # Independently: each cross-off solved on its own, no beam, no shortcut.
        direct = {k for k in setup
                  if hindsight_optimum(deal, WRIGLEY, objective=False, beam_width=0,
                                       cross_off=[k]).status == "feasible"}
        assert _winnable_crosses(deal, WRIGLEY, MAP, 30.0) == direct
        seen.add(frozenset(direct))
    assert len(seen) > 1          # the futures do not all agree on the cross-off


def test_setup_relaxation_lies_between_its_parts_and_repeats_for_a_seed():
    from solvers.optimize.c2c_relaxation import setup_relaxation

    def run():
        r = setup_relaxation("Wrigley Field", shuffles=2, futures=3, seed=0)
        d = r.as_dict()
        d.pop("wall_time")
        for o in d["outcomes"]:
            o.pop("wall_time")
        return r, d

    r, first = run()
    assert first == run()[1]
    for o in r.outcomes:
        assert max(o.wins.values()) <= o.any_wins <= o.futures
        assert sum(o.wins.values()) >= o.any_wins
    assert 0 <= r.bound <= r.ceiling <= 1
    assert r.ratio == (r.bound / r.ceiling if r.ceiling else 0.0)


@pytest.mark.parametrize("kwargs,message", [
    ({"challenge": None}, "name one"),
    ({"challenge": "Wrigley Field", "shuffles": 0}, "shuffles"),
    ({"challenge": "Wrigley Field", "futures": 1.5}, "futures"),
])
def test_setup_relaxation_refuses_bad_requests(kwargs, message):
    from solvers.optimize.c2c_relaxation import setup_relaxation

    with pytest.raises(SolversError, match=message):
        setup_relaxation(**kwargs)
