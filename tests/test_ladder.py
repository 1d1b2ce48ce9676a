"""The rating ladder (solvers.ladder, ``solve ladder``): the Bradley-Terry
fit against hand-computed ratings and a brute-force search, the bootstrap
intervals' coverage, resume and worker counts giving the same table as one
run, and bad files refused in one line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from cli_helpers import one_error_line, run
from solvers.errors import SolversError
from solvers.ladder import ELO, Ladder, Played, fit_ratings, seating_of

GAME = "switchbacks"
PLAYERS = ["random", "greedy", "mcts:iterations=20"]


def _table_key(t):
    """What must not depend on how the games were run (no timings)."""
    return ([(r.spec, round(r.rating, 9), tuple(round(x, 9) for x in r.ci95), r.games, r.score,
              r.simulations_per_move) for r in t.rows], t.pairs)


def _results(lad):
    return {k: (r.seats, r.returns, r.scores, r.moves) for k, r in lad.results.items()}


@pytest.fixture(scope="module")
def one_run():
    lad = Ladder(GAME, PLAYERS, games=4, seed=3)
    lad.play(workers=1)
    return lad


# ------------------------------------------------------------ the fit
def test_two_players_closed_form():
    # 3 wins of 4: the odds are 3, so the gap is 400 log10(3) = 190.85 Elo.
    r = fit_ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=0)
    assert r[0] == 0 and r[1] == pytest.approx(-400 * math.log10(3), abs=1e-6)
    # One drawn virtual game: 3.5 of 5, odds 7/3.
    r = fit_ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]], prior=1)
    assert r[1] == pytest.approx(-400 * math.log10(7 / 3), abs=1e-6)
    # The anchor may be either player.
    r = fit_ratings([[0, 3], [1, 0]], [[0, 4], [4, 0]], anchor=1, prior=0)
    assert r[0] == pytest.approx(400 * math.log10(3), abs=1e-6) and r[1] == 0


def test_hand_computed_three_players():
    # A beats B 2-1, B beats C 2-1, A and C never meet: the likelihood is a
    # product of two independent pairings, so each gap is the pair's own
    # log-odds, 400 log10(2), and C sits two gaps below A.
    w = [[0, 2, 0], [1, 0, 2], [0, 1, 0]]
    n = [[0, 3, 0], [3, 0, 3], [0, 3, 0]]
    r = fit_ratings(w, n, prior=0)
    gap = 400 * math.log10(2)
    assert r == pytest.approx([0, -gap, -2 * gap], abs=1e-6)


def _loglik(ratings, w, n):
    th = np.asarray(ratings) / ELO
    d = th[..., :, None] - th[..., None, :]
    logp = -np.log1p(np.exp(-d))
    return (np.asarray(w) * logp).sum(axis=(-1, -2))


def test_fit_matches_a_grid_search():
    w = np.array([[0, 7, 9, 3], [5, 0, 6, 4], [1, 6, 0, 2], [9, 8, 10, 0]], float)
    n = w + w.T
    fit = fit_ratings(w, n, prior=0)
    # Brute force: every rating of players 1..3 on a 20-Elo grid, then finer grids around the best.
    best = None
    for step, half in ((20.0, 600.0), (2.0, 24.0), (0.25, 3.0)):
        centre = np.zeros(3) if best is None else best
        axes = [np.arange(c - half, c + half + step / 2, step) for c in centre]
        g = np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, 3)
        full = np.concatenate([np.zeros((len(g), 1)), g], axis=1)
        best = g[np.argmax(_loglik(full, w, n))]
    assert fit[1:] == pytest.approx(best, abs=0.25)
    # and no nearby point is more likely
    for delta in np.eye(4)[1:] * 0.5:
        assert _loglik(fit, w, n) >= _loglik(fit + delta, w, n)
        assert _loglik(fit, w, n) >= _loglik(fit - delta, w, n)


def test_a_clean_sweep_stays_finite_with_a_prior():
    r = fit_ratings([[0, 0], [10, 0]], [[0, 10], [10, 0]], prior=1)
    assert r[1] == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-6)
    assert math.isinf(fit_ratings([[0, 0], [10, 0]], [[0, 10], [10, 0]], prior=0)[1])


def test_fit_refuses_unlinked_players():
    with pytest.raises(SolversError, match="linking them to the anchor"):
        fit_ratings([[0, 1, 0], [1, 0, 0], [0, 0, 0]], [[0, 2, 0], [2, 0, 0], [0, 0, 0]])


def test_bootstrap_intervals_cover_the_true_ratings():
    """Synthetic ladders from known ratings (0, 100, 250): the 95% intervals
    should hold the truth about 95% of the time (a fixed seed; the
    intervals of a fit that ignores resampling would cover far less)."""
    true = {"random": 0.0, "greedy": 100.0, "mcts:iterations=20": 250.0}
    lad = Ladder(GAME, list(true), games=60, seed=0)
    wanted = lad.wanted()
    rng = np.random.default_rng(1)
    covered = {s: 0 for s in true}
    reps = 60
    for rep in range(reps):
        lad.results.clear()
        lad.seed = rep
        for pair, g in wanted:
            seats = tuple(pair[a] for a in seating_of(2, g))
            p0 = 1 / (1 + 10 ** ((true[seats[1]] - true[seats[0]]) / 400))
            won = rng.random() < p0
            lad.results[(pair, g)] = Played(pair, g, seats, (1.0, 0.0) if won else (0.0, 1.0),
                                            (0.0, 0.0), 1, ((0.0, 1, 0), (0.0, 1, 0)))
        t = lad.table(bootstraps=300)
        for r in t.rows:
            covered[r.spec] += r.ci95[0] <= true[r.spec] <= r.ci95[1]
    assert covered["random"] == reps                 # the anchor: exactly 0
    for spec in ("greedy", "mcts:iterations=20"):
        assert 0.85 <= covered[spec] / reps <= 1.0, covered


# ------------------------------------------------------------ plan and play
def test_plan_pairs_seats_and_deals():
    lad = Ladder(GAME, PLAYERS, games=4, seed=3)
    todo = lad.missing()
    assert len(todo) == 3 * 4
    assert {t.players for t in todo} == {("greedy", "mcts:iterations=20"), ("greedy", "random"),
                                         ("mcts:iterations=20", "random")}
    by = {(t.players, t.index): t.job for t in todo}
    pair = ("greedy", "random")
    assert [tuple(by[(pair, g)].specs[a] for a in by[(pair, g)].seating) for g in range(4)] == [
        ("greedy", "random"), ("random", "greedy"), ("greedy", "random"), ("random", "greedy")]
    # games 2k and 2k+1 share a deal, and every pairing gets the same deals
    deals = [by[(pair, g)].deal_seed for g in range(4)]
    assert deals[0] == deals[1] != deals[2] == deals[3]
    assert [by[(("greedy", "mcts:iterations=20"), g)].deal_seed for g in range(4)] == deals
    # the same game has the same seeds in a ladder of other players
    other = Ladder(GAME, ["greedy", "random"], games=2, seed=3).missing()
    assert other[1].job.agent_seeds == by[(pair, 1)].agent_seeds
    # played game by game across the pairings: any stretch of the plan as
    # long as the pairings meets each pairing once
    for start in range(0, len(todo), 3):
        assert {t.players for t in todo[start:start + 3]} == {t.players for t in todo}


def test_play_measures_the_budget(one_run):
    t = one_run.table(bootstraps=100)
    rows = {r.spec: r for r in t.rows}
    assert rows["mcts:iterations=20"].simulations_per_move == 20       # every search: 20 iterations
    assert rows["mcts:iterations=20"].measures == "equal budget"
    assert rows["random"].simulations_per_move == 0 and rows["random"].budget == "no search"
    assert all(r.games == 8 and r.decisions > 0 and r.seconds_per_move > 0 for r in t.rows)
    assert rows["random"].rating == 0 and rows["random"].ci95 == (0, 0)
    # the scores are the pairwise results: each pairing's shares add up
    for p in t.pairs:
        assert p["games"] == 4 and p["results"] == 4
    total = sum(r.score * 8 for r in t.rows)
    assert total == pytest.approx(12)


def test_resume_gives_the_same_table_as_one_run(one_run, tmp_path):
    path = tmp_path / "l.json"
    first = Ladder(GAME, PLAYERS[:2], games=2, seed=3)
    first.play(save=path)
    # more games and a new player: only what is missing is played
    lad = Ladder(GAME, PLAYERS, games=4, resume=path)
    assert lad.reused == 2 and len(lad.missing()) == 10
    assert lad.play(save=path) == 10
    assert _results(lad) == _results(one_run)
    assert _table_key(lad.table(bootstraps=200)) == _table_key(one_run.table(bootstraps=200))
    # and read back once more, nothing is left to play
    again = Ladder(GAME, resume=path)
    assert again.players == PLAYERS and again.games == 4 and again.missing() == []
    assert _table_key(again.table(bootstraps=200)) == _table_key(one_run.table(bootstraps=200))


def test_workers_do_not_change_the_results(one_run):
    lad = Ladder(GAME, PLAYERS, games=4, seed=3)
    lad.play(workers=2)
    assert _results(lad) == _results(one_run)
    assert _table_key(lad.table(bootstraps=200)) == _table_key(one_run.table(bootstraps=200))


def test_three_seats_give_sets_of_pairwise_results():
    lad = Ladder(GAME, ["random", "greedy"], games=2, seats=3, seed=5)
    lad.play()
    recs = [lad.results[(("greedy", "random"), g)] for g in range(2)]
    assert [r.seats for r in recs] == [("greedy", "random", "greedy"),
                                       ("random", "greedy", "random")]
    t = lad.table(bootstraps=50)
    # by hand: every seat of greedy against every seat of random, by (return, score)
    got = n = 0
    for r in recs:
        for s, a in enumerate(r.seats):
            for u, b in enumerate(r.seats):
                if a == "greedy" and b == "random":
                    ka, kb = (r.returns[s], r.scores[s]), (r.returns[u], r.scores[u])
                    got += 1 if ka > kb else 0.5 if ka == kb else 0
                    n += 1
    assert n == 4 and t.pairs[0]["results"] == 4
    pair = t.pairs[0]
    share = pair["score"] if pair["players"][0] == "greedy" else 1 - pair["score"]
    assert share == pytest.approx(got / n)


def test_solo_game_compares_the_same_deals():
    lad = Ladder("c2c", ["random", "greedy"], games=3, seed=2)
    assert lad.seats == 1
    todo = lad.missing()
    assert len(todo) == 6
    deals = {(t.players, t.index): t.job.deal_seed for t in todo}
    assert all(deals[(("random",), g)] == deals[(("greedy",), g)] for g in range(3))


def test_bad_players_and_options():
    with pytest.raises(SolversError, match="at least two players"):
        Ladder(GAME, ["random"])
    with pytest.raises(SolversError, match="listed twice"):
        Ladder(GAME, ["random", "random"])
    with pytest.raises(SolversError, match="unknown option"):
        Ladder(GAME, ["random", "mcts:speed=3"])
    with pytest.raises(SolversError, match="no games played yet"):
        Ladder(GAME, ["random", "greedy"], games=1).table()


def test_against_limits_who_meets_and_a_resume_keeps_it(one_run, tmp_path):
    path = tmp_path / "l.json"
    lad = Ladder(GAME, PLAYERS, games=4, seed=3, against="greedy")
    assert lad.pairings() == [("greedy", "mcts:iterations=20"), ("greedy", "random")]
    assert len(lad.missing()) == 2 * 4
    assert lad.play(save=path) == 8
    # the same games as in the ladder of every pair (the seeds do not depend on the plan)
    assert _results(lad) == {k: v for k, v in _results(one_run).items() if "greedy" in k[0]}
    saved = json.loads(path.read_text())
    assert saved["pairings"] == [["greedy", "mcts:iterations=20"], ["greedy", "random"]]
    assert "pairings" not in one_run.to_json()           # every pair: not listed
    # the fit of the two pairings alone, built here from the saved games
    at = {s: i for i, s in enumerate(PLAYERS)}
    w, n = np.zeros((3, 3)), np.zeros((3, 3))
    for rec in saved["results"]:
        a, b = (at[x] for x in rec["seats"])
        first = 1.0 if rec["returns"][0] > rec["returns"][1] or (
            rec["returns"][0] == rec["returns"][1] and rec["scores"][0] > rec["scores"][1]) else \
            0.5 if (rec["returns"][0], rec["scores"][0]) == (rec["returns"][1], rec["scores"][1]) \
            else 0.0
        w[a, b] += first
        w[b, a] += 1 - first
        n[a, b] += 1
        n[b, a] += 1
    assert n[at["random"], at["mcts:iterations=20"]] == 0
    expected = fit_ratings(w, n, anchor=at["random"], prior=1.0)
    got = {r.spec: r.rating for r in lad.table(bootstraps=0).rows}
    assert [got[s] for s in PLAYERS] == pytest.approx(list(expected))
    # read back: the same pairings, nothing to play
    again = Ladder(GAME, resume=path)
    assert again.pairings() == lad.pairings() and again.missing() == []
    # a new player meets every player; with against, only the pairs it allows
    new = "mcts:iterations=5"
    everyone = Ladder(GAME, PLAYERS + [new], resume=path)
    assert {t.players for t in everyone.missing()} == {
        ("greedy", new), ("mcts:iterations=20", new), (new, "random")}
    # with against, only the new player's pairs with those named (the file's
    # players do not meet anew: random v mcts:iterations=20 stays unplayed)
    limited = Ladder(GAME, PLAYERS + [new], resume=path, against=["mcts:iterations=20", "random"])
    assert {t.players for t in limited.missing()} == {
        ("mcts:iterations=20", new), (new, "random")}
    assert limited.play() == 8
    assert {frozenset(p["players"]) for p in limited.table(bootstraps=0).pairs} == {
        frozenset(p) for p in [("random", "greedy"), ("greedy", "mcts:iterations=20"),
                               ("mcts:iterations=20", new), (new, "random")]}


def test_against_refusals():
    with pytest.raises(SolversError, match="against names 'mcts', not one of the ladder's players"):
        Ladder(GAME, PLAYERS, against="mcts")
    with pytest.raises(SolversError, match="against names no player"):
        Ladder(GAME, PLAYERS, against=[])
    with pytest.raises(SolversError, match="1-seat game"):
        Ladder("c2c", ["random", "greedy"], against="greedy")


# ------------------------------------------------------------ files
def test_a_saved_file_is_checked(one_run, tmp_path):
    good = one_run.to_json()
    cases = {
        "not json": "{",
        "other format": json.dumps({**good, "format": "something"}),
        "newer version": json.dumps({**good, "version": 99}),
        "bad seed": json.dumps({**good, "seed": -1}),
        "bad returns": json.dumps({**good, "results": [{**good["results"][0], "returns": [1]}]}),
        "twice": json.dumps({**good, "results": [good["results"][0]] * 2}),
        "wrong seating": json.dumps({**good, "results": [
            {**good["results"][0], "seats": good["results"][0]["seats"][::-1]}]}),
        "pairing of a stranger": json.dumps({**good, "pairings": [["greedy", "minimax"]]}),
        "pairing unsorted": json.dumps({**good, "pairings": [["random", "greedy"]]}),
    }
    for why, text in cases.items():
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(SolversError, match="not a usable ladder file") as e:
            Ladder(GAME, resume=path)
        assert "\n" not in str(e.value), why
    path = tmp_path / "good.json"
    one_run.save(path)
    with pytest.raises(SolversError, match="of switchbacks, not bigsur"):
        Ladder("bigsur", resume=path)
    with pytest.raises(SolversError, match="has seed 3, not 4"):
        Ladder(GAME, seed=4, resume=path)
    with pytest.raises(SolversError, match="has 2 seats a game, not 3"):
        Ladder(GAME, seats=3, resume=path)
    assert Ladder(GAME, seed=3, resume=path).missing() == []


# ------------------------------------------------------------ the command
def test_cli_json_save_resume_and_plot(capsys, tmp_path):
    save = tmp_path / "l.json"
    plot = tmp_path / "l.png"
    code, out, err = run(capsys, "ladder", GAME, "--players", "random,greedy", "--games", "2",
                         "--workers", "1", "--bootstrap", "50", "--save", save, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["played"] == 2 and data["anchor"] == "random" and data["saved"] == str(save)
    ratings = [p["rating"] for p in data["players"]]
    assert sorted(p["spec"] for p in data["players"]) == ["greedy", "random"]
    assert ratings == sorted(ratings, reverse=True)
    assert json.loads(save.read_text())["table"]["players"] == data["players"]
    code, out, err = run(capsys, "ladder", GAME, "--resume", save, "--timed",
                         "mcts:iterations=10", "--times", "1", "--workers", "1",
                         "--bootstrap", "50", "--plot", plot, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert [p["spec"] for p in data["players"]].count("mcts:iterations=10,time=1") == 1
    assert data["played"] == 4 and data["reused"] == 2 and plot.stat().st_size > 1000
    assert len(json.loads(save.read_text())["results"]) == 2 + 2 * 2
    code, out, err = run(capsys, "ladder", GAME, "--resume", save)     # nothing left to play
    assert code == 0, err
    assert "Played 0 games, 6 read from the file" in out and "time 1 s" in out
    assert "own: no search" in out


def test_cli_against(capsys, tmp_path):
    save = tmp_path / "l.json"
    code, out, err = run(capsys, "ladder", GAME, "--players", "random,greedy,mcts:iterations=5",
                         "--against", "greedy", "--games", "2", "--workers", "1",
                         "--bootstrap", "0", "--save", save, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["played"] == 4
    assert sorted(sorted(p["players"]) for p in data["pairings"]) == [
        ["greedy", "mcts:iterations=5"], ["greedy", "random"]]
    assert json.loads(save.read_text())["pairings"] == [["greedy", "mcts:iterations=5"],
                                                        ["greedy", "random"]]


@pytest.mark.parametrize("argv, needle", [
    (["--resume", "{missing}"], "cannot read ladder file"),
    (["--resume", "{bad}"], "not a usable ladder file"),
    (["--players", "random,greedy", "--save", "{bad}"], "the file exists"),
    (["--players", "random"], "at least two players"),
    (["--players", "random,greedy", "--times", "0,x"], "--times"),
    (["--players", "random,greedy", "--plot", "{tmp}/x.nothing"], "--plot"),
    (["--players", "random,greedy", "--against", "mcts"], "against names 'mcts'"),
])
def test_cli_refusals_are_one_line(capsys, tmp_path, argv, needle):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    argv = [a.format(missing=tmp_path / "none.json", bad=bad, tmp=tmp_path) for a in argv]
    code, out, err = run(capsys, "ladder", GAME, *argv)
    assert code == 2
    assert needle in one_error_line(err)


def test_openspiel_reports_its_simulations():
    pytest.importorskip("pyspiel")
    lad = Ladder(GAME, ["random", "openspiel:simulations=5"], games=2, seed=1)
    lad.play()
    rows = {r.spec: r for r in lad.table(bootstraps=20).rows}
    assert rows["openspiel:simulations=5"].simulations_per_move == 5


def test_a_saved_game_holds_only_the_final_results(one_run):
    """Nothing of a game's hidden state (hands, decks, the moves) is saved:
    only what every seat sees once the game is over."""
    rec = one_run.to_json()["results"][0]
    assert set(rec) == {"players", "index", "seats", "returns", "scores", "moves", "think"}
    assert isinstance(rec["moves"], int)


@pytest.mark.slow
def test_ray_backend_gives_the_same_results(one_run, ray_instance):
    lad = Ladder(GAME, PLAYERS, games=4, seed=3)
    lad.play(workers=2, backend="ray")
    assert _results(lad) == _results(one_run)


def _hand_made_ladder(path, greedy_wins, games):
    # random v greedy, seats alternating, greedy winning the first
    # ``greedy_wins`` games; 10 decisions a seat, 0.5 ms a decision
    results = []
    for g in range(games):
        seats = ["greedy", "random"] if g % 2 == 0 else ["random", "greedy"]
        win = "greedy" if g < greedy_wins else "random"
        returns = [1.0 if s == win else -1.0 for s in seats]
        think = [[0.005, 10, 0 if s == "random" else 2000] for s in seats]
        results.append({"players": ["greedy", "random"], "index": g, "seats": seats,
                        "returns": returns, "scores": [r * 10 for r in returns], "moves": 20,
                        "think": think})
    path.write_text(json.dumps({"format": "solvers-ladder", "version": 1, "game": "switchbacks",
                                "seats": 2, "options": {}, "seed": 5,
                                "players": ["random", "greedy"], "games_per_pairing": games,
                                "results": results}))
    return path


def test_ladder_markdown_of_a_hand_made_file(tmp_path):
    from solvers.ladder import ladder_markdown, load_ladder

    # greedy wins 3 of 4; with the drawn virtual game, 3.5 of 5: odds 7/3,
    # 400 log10(7/3) = 147.2 Elo above random.
    path = _hand_made_ladder(tmp_path / "sb.json", 3, 4)
    _, table = load_ladder(path)
    text = ladder_markdown(table, "sb.json")
    lines = text.splitlines()
    assert lines[0].startswith("<sub>From ladder `sb.json`: switchbacks, 2 seats, 4 games a pairing")
    assert "seed 5" in lines[0] and "random at 0" in lines[0]
    assert lines[2].startswith("| player | measures | rating |")
    greedy, rand = lines[4], lines[5]
    assert greedy.startswith("| `greedy` |") and "| +147 |" in greedy and "| 75% | 4 |" in greedy
    assert "| 0.5 | 200 |" in greedy              # 5 ms and 2000 simulations over 10 decisions
    assert rand.startswith("| `random` |") and "| 0 |" in rand and "| 25% |" in rand
    # control: greedy winning 1 of 4 puts random on top, 147 above greedy
    _, flipped = load_ladder(_hand_made_ladder(tmp_path / "f.json", 1, 4))
    rows = ladder_markdown(flipped).splitlines()[4:6]
    assert rows[0].startswith("| `random` |") and "| -147 |" in rows[1]


def test_the_tables_write_a_second_and_more_as_whole_milliseconds():
    from solvers.tournament import _ms

    assert [_ms(x) for x in (1.4236, 1.0004, 0.2031, 0.0525, 0.0000165)] == [
        "1,424", "1,000", "203", "52.5", "0.0165"]


def test_bench_table_update_fills_a_ladder_block(tmp_path, capsys):
    _hand_made_ladder(tmp_path / "sb.json", 3, 4)
    page = tmp_path / "strength.md"
    page.write_text("# Strength\n\n<!-- bench-table ladder sb.json -->\nold text\n<!-- /bench-table -->\nend\n")
    code, out, err = run(capsys, "bench", "table", "--update", str(page))
    assert code == 0, err
    text = page.read_text()
    assert "old text" not in text and "| `greedy` |" in text and "| +147 |" in text
    assert text.endswith("<!-- /bench-table -->\nend\n")


def test_a_saved_ladder_names_the_runs_that_played_it(tmp_path):
    """Each run that adds games records its commit (from the checkout the
    library runs from; none for an installed copy) and how many it played;
    the docs' table line names them. Checked against git itself."""
    import subprocess
    from pathlib import Path

    import solvers
    from solvers.ladder import ladder_markdown, load_ladder, sessions_text

    path = tmp_path / "l.json"
    Ladder(GAME, PLAYERS[:2], games=2, seed=3).play(save=path)
    lad = Ladder(GAME, PLAYERS, games=2, resume=path)
    assert lad.play(save=path) == 4
    saved = json.loads(path.read_text())["sessions"]
    assert [s["games"] for s in saved] == [2, 4]
    src = Path(solvers.__file__).resolve().parent.parent.parent
    if (src / ".git").exists():
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=src, capture_output=True,
                              text=True).stdout.strip()
        assert saved[0]["commit"] == head
    else:
        assert saved[0]["commit"] is None and saved[0]["version"] == solvers.__version__
    again, table = load_ladder(path)
    assert again.sessions == saved
    line = ladder_markdown(table, "l.json", again.sessions, len(again.results)).splitlines()[0]
    if saved[0]["commit"]:
        assert "(2 games," in line and "(4 games," in line and "unrecorded" not in line
    else:       # an installed copy's runs cannot be told apart: one entry
        assert "(6 games in 2 runs," in line and "unrecorded" not in line
    # hand-made: a file older than the record, then one dirty commit
    text = sessions_text([{"commit": "0123456789abcdef", "dirty": True, "games": 3,
                           "date": "2026-12-04T01:00:00+00:00"}], 10)
    assert text == ("played at an unrecorded commit (7 games, before the file kept them), "
                    "`0123456789ab` with uncommitted changes (3 games, 2026-12-04)")
    # consecutive runs of an installed copy are one entry; a commit's runs stay apart
    inst = {"commit": None, "version": "0.1.0", "dirty": False}
    text = sessions_text([{**inst, "games": 26, "date": "2026-12-05T09:52:12+00:00"},
                          {**inst, "games": 7, "date": "2026-12-05T10:25:17+00:00"},
                          {**inst, "games": 98, "date": "2026-12-06T12:00:00+00:00"},
                          {"commit": "0123456789abcdef", "games": 2, "date": "2026-12-06"},
                          {"commit": "0123456789abcdef", "games": 3, "date": "2026-12-06"},
                          {**inst, "games": 4, "date": "2026-12-07"}], 140)
    assert text == ("played at an installed solvers 0.1.0 (131 games in 3 runs, 2026-12-05 to "
                    "2026-12-06), `0123456789ab` (2 games, 2026-12-06), `0123456789ab` (3 games, "
                    "2026-12-06), an installed solvers 0.1.0 (4 games, 2026-12-07)")
    # a bad record is one line, and the control: the same file with it mended reads
    data = json.loads(path.read_text())
    data["sessions"] = [{"commit": 5, "games": 2}]
    path.write_text(json.dumps(data))
    with pytest.raises(SolversError, match='"sessions" should be a list'):
        Ladder(GAME, resume=path)
    data["sessions"] = [{"commit": None, "games": 2}]
    path.write_text(json.dumps(data))
    assert Ladder(GAME, resume=path).sessions == [{"commit": None, "games": 2}]
