"""The challenge side of the learned Coast to Coast values (feature version
2): the rule that a sheet can no longer complete its challenge against the
kernel's exact values, the hypergeometric odds against an enumeration of
every draw, the training samples kept to sheets still alive, and files of
feature version 1 still read and played as they were made."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import solvers
from solvers.games.c2c import values as V

WRIGLEY = "Wrigley Field"


def _mask(locations):
    return sum(1 << int(i) for i in locations)


def _decisions(game, round_, seeds):
    """The first decision of ``round_`` (its four cards dealt) in random
    games of ``seeds``."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state(seed=seed)
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.seeded_outcome())
                continue
            if s.round == round_:
                out.append(s)
                break
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    return out


@pytest.fixture(scope="module")
def wrigley():
    game = solvers.load_game("c2c", challenge=WRIGLEY)
    m = game.map
    return game, V.SheetFeatures(m, m.required_mask(game.challenge))


def test_a_sheet_called_lost_is_worth_nothing_by_the_exact_values(wrigley):
    """Every end of round 4 the rule calls lost is worth (0, 0) by the
    kernel's exact last round (every hand of round 5); control: the rule
    calls many ends lost, and many it leaves are worth something, so it
    neither calls nothing lost nor everything."""
    game, f = wrigley
    lost_n = live_worth = 0
    # played by the reports' search, so that many sheets are still alive
    for _, s in V.sample_positions(game, "mcts:iterations=300", range(12), 4):
        rows = s.end_values()
        e = np.array([r[0] for r in rows], np.uint32)
        lost = f.lost(e[:, 0], e[:, 1], np.full(len(e), V.unseen_cards(s), np.uint32))
        worth = np.array([r[2] > 0 or r[3] > 0 for r in rows])
        assert not (lost & worth).any()
        lost_n += int(lost.sum())
        live_worth += int((~lost & worth).sum())
    assert lost_n > 100 and live_worth > 20


def test_each_way_of_losing_is_seen_and_one_circle_short_is_not_lost(wrigley):
    """The three clauses by hand after round 3 (two rounds, six circles
    left): a demanded location crossed off; seven demanded locations to
    circle; one no unseen card can circle. Six to circle with takers for
    each is not lost."""
    game, f = wrigley
    m = game.map
    rq = m.required_mask(game.challenge)
    demanded = [i for i in range(m.n) if rq >> i & 1]
    # after round 3: 15 unseen cards, 8 still to be dealt
    unseen = _mask(sorted(random.Random(0).sample([c for c in range(m.n) if c != game.challenge],
                                                  15)))
    def lost(circled, crossed, u=unseen):
        return bool(f.lost(*(np.array([v], np.uint32) for v in (circled, crossed, u)))[0])

    six = rq & ~_mask(demanded[:6])
    seven = rq & ~_mask(demanded[:7])
    assert not lost(six, 0) and lost(seven, 0)
    assert lost(rq & ~_mask(demanded[:1]), _mask(demanded[:1]))
    assert lost(rq, _mask(demanded[:1]))                     # crossed after being circled
    j = demanded[0]
    others = [c for c in range(m.n) if c != game.challenge and not m.matches[c] >> j & 1]
    no_taker = _mask(others[:15])
    one_taker = _mask(others[:14]) | 1 << next(c for c in range(m.n) if c != game.challenge
                                               and m.matches[c] >> j & 1)
    assert lost(rq & ~(1 << j), 0, no_taker) and not lost(rq & ~(1 << j), 0, one_taker)


def test_the_odds_of_a_demanded_location_match_every_draw_enumerated(wrigley):
    """The chance that the cards still to be dealt hold one able to circle
    a demanded location, against the count over every set of that many
    cards drawn from the unseen ones (15 choose 8 after round 3); the
    least and the product of those chances; the locations no card can
    reach."""
    game, f = wrigley
    m = game.map
    rq = m.required_mask(game.challenge)
    checked = 0
    for s in _decisions(game, 3, seeds=range(6)):
        unseen = V.unseen_cards(s)
        cards = [c for c in range(m.n) if unseen >> c & 1]
        assert len(cards) == 15
        draws = list(itertools.combinations(cards, 8))
        sh = s.sheets[0]
        circled = _mask(sh.circled)
        missing = [j for j in range(m.n) if rq >> j & 1 and not circled >> j & 1]
        chances = [sum(any(m.matches[c] >> j & 1 for c in d) for d in draws) / len(draws)
                   for j in missing]
        zero = np.zeros(1, np.uint32)
        odds = f.challenge_odds(np.array([circled], np.uint32), np.array([unseen], np.uint32),
                                zero, zero, zero)[0]
        assert odds[0] == pytest.approx(np.prod(chances))
        assert odds[1] == pytest.approx(min(chances, default=1.0))
        assert odds[2] == pytest.approx(sum(c == 0 for c in chances) / 4)
        checked += min(chances, default=1.0) < 1.0
    assert checked >= 2     # control: some location was not sure to be reachable


def test_training_samples_only_sheets_still_alive(wrigley):
    """With a challenge every sampled end can still complete it; control:
    those positions have lost ends too, and without a challenge the lost
    rule keeps every end."""
    game, f = wrigley
    positions = list(V.sample_positions(game, "mcts:iterations=50", range(4), 2))
    smp = V.sample_values(game, 2, positions, 30, _zero_value, hands=1)
    assert len(smp) > 0
    assert not f.lost(smp.circled, smp.crossed, smp.unseen).any()
    lost_ends = 0
    for _, s in positions:
        e = np.array([end for end, _ in s.round_ends()], np.uint32)
        lost_ends += int(f.lost(e[:, 0], e[:, 1], np.full(len(e), V.unseen_cards(s),
                                                          np.uint32)).sum())
    assert lost_ends > 0
    plain = V.SheetFeatures(game.map)
    assert not plain.lost(e[:, 0], e[:, 1], np.zeros(len(e), np.uint32)).any()


def _zero_value(state, ends):
    return [(0.5, 10.0)] * len(ends)


def test_a_version_1_file_reads_and_values_as_it_was_made(tmp_path, wrigley):
    """A value file of feature version 1 (337 features with a challenge)
    loads with those features and no lost rule; version 2 adds the odds
    and values a lost sheet at (0, 0)."""
    game, f = wrigley
    m = game.map
    rng = np.random.default_rng(0)
    nets = {}
    for version in (1, 2):
        count = V.SheetFeatures(m, m.required_mask(game.challenge), version).count
        net = V.ValueNet.fresh(count, (4,), rng, np.zeros(count, np.float32),
                               np.ones(count, np.float32))
        net.layers[-1][1][...] = [0.5, 0.3]       # every sheet: 0.5 and 30 points
        values = V.SheetValues(m, game.challenge, {r: net for r in V.LEARNED},
                               feature_version=version)
        path = tmp_path / f"v{version}.npz"
        values.save(str(path))
        nets[version] = V.SheetValues.load(str(path), m)
    assert nets[1].features.count == 337 and nets[2].features.count == 337 + 8
    rq = m.required_mask(game.challenge)
    first = rq & -rq
    lost_sheet = (rq & ~first, first, 0)
    live_sheet = (rq, 0, 0)
    unseen = (1 << m.n) - 1 & ~(1 << game.challenge) & ~rq & 0xFFFFFFFF
    for version, expect in ((1, 0.5), (2, 0.0)):
        out = nets[version].values(3, [lost_sheet, live_sheet], unseen)
        assert out[0, 0] == pytest.approx(expect, abs=0.05)
        assert out[1, 0] > 0.3           # control: the live sheet keeps its value


def test_the_round_3_look_ahead_takes_the_best_end_on_the_hands_it_drew(wrigley):
    """``exact_hands``: at round 3's first decision the agent heads for the
    end, among the ``keep`` best by the learned value, of the best mean
    over its hands (drawn from its own seeded stream, the same for each
    end) of the best round-4 end; found here by the reference walk over
    the ends and a replay of the stream; later decisions of the round keep
    to that end without drawing again."""
    from solvers.agents.c2c_online import end_key
    from solvers.games.c2c.review import round_ends as reference_round_ends
    from solvers.rng import SplitMix64, seed_from

    game, _ = wrigley
    keep, hands = 3, 4
    differs = checked = 0
    # positions of the learned player itself: more of them still alive
    for seed, s in V.sample_positions(game, "online:early=report,learned=4", range(3, 15), 3):
        start = s.clone()
        agent = solvers.load_agent("online", game, early="report", learned=1, seed=seed,
                                   keep=keep, exact_hands=hands)
        values = agent.values
        ends = [tuple(_mask(part) for part in key) for key in reference_round_ends(s)]
        learned = values.values(3, ends, V.unseen_cards(s))
        order = sorted(range(len(ends)), key=lambda i: end_key(*learned[i], True), reverse=True)
        top = [end_key(*learned[i], True) for i in order[:keep + 1]]
        if len(set(top)) < len(top):
            continue        # equal values at the top (lost ends): the order among them is free
        checked += 1
        stream = SplitMix64(seed_from(seed))
        seeds = [stream.next() for _ in range(hands)]
        means = {}
        for i in order[:keep]:
            after = V.walk_to(s, ends[i])
            best = [max(((w, p) for _, _, w, p in V.deal_hand(after, random.Random(k)).end_values()),
                        key=lambda wp: end_key(*wp, True)) for k in seeds]
            means[ends[i]] = (np.mean([b[0] for b in best]), np.mean([b[1] for b in best]))
        while not s.is_chance_node():
            s.apply_action(agent.step(s))
        sh = s.sheets[0]
        chosen = (_mask(sh.circled), _mask(sh.crossed), _mask(sh.exact))
        assert chosen in means
        assert means[chosen] == pytest.approx(max(means.values()))
        differs += chosen != ends[order[0]]
        assert agent.rng.next() == stream.next()      # no hands drawn after the first decision
        # one end kept: the learned best, whatever the hands
        one = solvers.load_agent("online", game, early="report", learned=1, seed=seed, keep=1,
                                 exact_hands=2)
        t = start.clone()
        while not t.is_chance_node():
            t.apply_action(one.step(t))
        sh = t.sheets[0]
        alone = (_mask(sh.circled), _mask(sh.crossed), _mask(sh.exact))
        assert end_key(*learned[ends.index(alone)], True) == end_key(*learned[order[0]], True)
    assert checked >= 3
    assert differs >= 1    # control: the look ahead changed the learned choice somewhere


def test_the_odds_after_the_setup_count_every_draw_of_twenty(wrigley):
    """After the setup 27 cards are unseen and 20 still to be dealt (counts
    past 2**63 on the way): each location's chance against the exact
    fraction of the draws of 20 that miss all its takers."""
    from fractions import Fraction
    from math import comb

    game, f = wrigley
    m = game.map
    rq = m.required_mask(game.challenge)
    for s in _decisions(game, 0, seeds=range(3)):
        unseen = V.unseen_cards(s)
        u = bin(unseen).count("1")
        assert (u, u - f.never_dealt) == (27, 20)
        circled = _mask(s.sheets[0].circled)
        chances = []
        for j in range(m.n):
            if rq >> j & 1 and not circled >> j & 1:
                t = bin(unseen & m.matches[j]).count("1")
                chances.append(float(1 - Fraction(comb(u - t, 20), comb(u, 20))))
        zero = np.zeros(1, np.uint32)
        odds = f.challenge_odds(np.array([circled], np.uint32), np.array([unseen], np.uint32),
                                zero, zero, zero)[0]
        assert odds[0] == pytest.approx(np.prod(chances), rel=1e-9, abs=1e-12)
        assert odds[1] == pytest.approx(min(chances), rel=1e-9)


@pytest.mark.parametrize("players", [1, 2])
def test_the_round_3_look_ahead_ignores_the_order_of_the_deck(players):
    """Twins at a round-3 decision with the same history on another seed
    (another order of the cards to come, which no seat sees): the look
    ahead draws its round-4 hands from the unseen cards, so both twins get
    the same move and the same analysis; control: their next deals differ."""
    from test_seat_view import deck_twin, sees_difference

    options = {"challenge": WRIGLEY} if players == 1 else {"players": players}
    game = solvers.load_game("c2c", **options)
    (s,) = _decisions(game, 3, seeds=[21])
    twin = deck_twin(s, 21)
    assert sees_difference(s, twin)
    spec = {"early": "report", "learned": 4, "exact_hands": 2, "keep": 3}
    moves = [solvers.load_agent("online", game, seed=5, **spec).step(t) for t in (s, twin)]
    rows = [solvers.load_agent("online", game, seed=5, **spec).analyse(t) for t in (s, twin)]
    assert moves[0] == moves[1] and rows[0] == rows[1]


def test_every_shipped_value_file_is_the_game_its_name_says():
    """Each c2c-values*.npz in the package is read by builtin_values for the
    game its name stands for (no challenge, or the card of the three-letter
    code), was made for that game (its own record, not the name: a file
    under another's name is an error) with every learned boundary, and
    values a fresh sheet of that game; the hints play with it in a
    challenge."""
    from importlib import resources

    from solvers.games.c2c.online import LEARNED_ONLINE, game_hint_player

    m = solvers.load_game("c2c").map
    by_code = {code.lower(): i for i, code in m.codes.items()}
    names = sorted(f.name for f in resources.files("solvers.data").iterdir()
                   if f.name.startswith("c2c-values") and f.name.endswith(".npz"))
    assert "c2c-values.npz" in names and len(names) >= 3
    for name in names:
        code = name[len("c2c-values-"):-len(".npz")] if name != "c2c-values.npz" else None
        challenge = None if code is None else by_code[code]
        values = V.builtin_values(m, challenge)
        assert values is not None and values.challenge == challenge, name
        assert all(r in values.nets for r in V.LEARNED), name
        made_for = values.training["command"]
        assert (challenge is None) == ("--challenge" not in made_for), name
        if challenge is not None:
            assert repr(m.locations[challenge].name) in made_for \
                or f'"{m.locations[challenge].name}"' in made_for, name
            game = solvers.load_game("c2c", challenge=challenge)
            assert game_hint_player(game) == LEARNED_ONLINE
        state = solvers.load_game("c2c", challenge=challenge).new_initial_state(seed=1)
        state.apply_seeded_chance()
        ends = [e for e, _ in state.round_ends()]
        got = values.of_round(state, ends)
        assert len(got) == len(ends) and all(0.0 <= w <= 1.0 and p >= 0.0 for w, p in got)
