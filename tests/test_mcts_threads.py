"""Root-parallel MCTS (``threads``): one thread is the plain search bit for
bit, several trees give what the same trees searched one after another and
merged by hand give (so the threads share nothing they should not), a stop
ends every tree, and the defaults divide the cores without changing what a
seed means for an iteration budget."""

from __future__ import annotations

import threading
import time

import pytest

import solvers
from solvers.agents import load_agent
from solvers.errors import SolversError
from solvers.search import mcts as M


def opening(name: str, players: int = 2, seed: int = 3):
    game = solvers.load_game(name, players=players)
    state = game.new_initial_state(seed=seed)
    state.apply_seeded_chance()
    return state


def plain(state, iterations: int, seed: int):
    """The single-tree C search, built directly (the pre-threads path)."""
    return M.make_search(state, seed=seed, max_nodes=iterations + 1).run(iterations=iterations)


@pytest.mark.parametrize("name", ["switchbacks", "bigsur", "santacruz"])
def test_one_thread_is_the_plain_search(name):
    state = opening(name)
    a = M.mcts_search(state, iterations=3000, seed=11, threads=1)
    b = plain(state, 3000, 11)
    assert (a.actions, a.visits, a.values) == (b.actions, b.visits, b.values)


@pytest.mark.parametrize("name", ["switchbacks", "santacruz"])
def test_two_threads_equal_two_trees_searched_in_turn_and_merged(name):
    state = opening(name)
    n, seed = 4001, 7
    got = M.mcts_search(state, iterations=n, seed=seed, threads=2)
    # The same two trees one after the other: 2001 and 2000 iterations, the
    # second with the derived seed; merged here, independently of merge_results.
    first = M.make_search(state, seed=seed, max_nodes=2002).run(iterations=2001)
    second = M.make_search(state, seed=M.thread_seed(seed, 1), max_nodes=2002).run(iterations=2000)
    visits, total = {}, {}
    for r in (first, second):
        for a, v, val in zip(r.actions, r.visits, r.values):
            visits[a] = visits.get(a, 0) + v
            total[a] = total.get(a, 0.0) + v * val
    assert got.iterations == n and sum(got.visits) == sum(visits.values())
    assert dict(zip(got.actions, got.visits)) == visits
    for a, value in zip(got.actions, got.values):
        assert value == pytest.approx(total[a] / visits[a])
    assert got.visits == sorted(got.visits, reverse=True)
    # and a second run of the same parallel search is the same result
    again = M.mcts_search(state, iterations=n, seed=seed, threads=2)
    assert (again.actions, again.visits) == (got.actions, got.visits)
    # a control: the second tree is not the first one again
    assert (first.actions, first.visits) != (second.actions, second.visits)


def test_stop_ends_every_tree():
    state = opening("switchbacks")
    search = M.make_parallel_search(state, threads=3, time=3600.0, seed=1)
    assert isinstance(search, M.RootParallelSearch) and len(search.searches) == 3
    out = {}
    t = threading.Thread(target=lambda: out.update(r=search.run(time=3600.0)))
    t.start()
    time.sleep(0.3)
    start = time.perf_counter()
    search.stop()
    t.join(10)
    assert not t.is_alive() and time.perf_counter() - start < 2
    assert out["r"].iterations > 0 and sum(out["r"].visits) <= out["r"].iterations


def test_default_threads_follow_the_budget_and_the_allowance():
    game = solvers.load_game("switchbacks", players=2)
    assert load_agent("mcts", game, iterations=100).search_threads() == 1
    assert load_agent("mcts", game, iterations=100, threads=2).search_threads() == 2
    try:
        M.set_thread_allowance(3)
        assert load_agent("mcts", game, time=0.1).search_threads() == 3
        assert load_agent("mcts", game, time=0.1, threads=1).search_threads() == 1
    finally:
        M.set_thread_allowance(None)
    assert load_agent("mcts", game, time=0.1).search_threads() == M.available_cores()
    with pytest.raises(SolversError, match="threads"):
        load_agent("mcts", game, threads=0)
    # an iteration budget smaller than the threads: one tree per iteration at most
    r = M.mcts_search(opening("switchbacks"), iterations=2, seed=1, threads=8)
    assert r.iterations == 2


def test_a_tournament_divides_the_cores_between_its_games(monkeypatch):
    from solvers import tournament as T

    jobs_seen, allowances, playing = [], [], []
    real_run, real_make = T.run_game, T._make_agent

    def run_spy(job, *args, **kwargs):
        jobs_seen.append(job.threads)
        playing.append(job)
        try:
            return real_run(job, *args, **kwargs)
        finally:
            playing.pop()

    def make_spy(*args):          # the seats' agents are made under the game's allowance
        if playing:
            allowances.append(M.thread_allowance())
        return real_make(*args)

    monkeypatch.setattr(T, "run_game", run_spy)
    monkeypatch.setattr(T, "_make_agent", make_spy)
    monkeypatch.setattr(M, "available_cores", lambda: 8)
    T.run_tournament("switchbacks", ["random", "random"], games=2, players=2, seed=1, workers=1)
    # one game at a time: every core
    assert jobs_seen and all(t == 8 for t in jobs_seen) and allowances and all(a == 8 for a in allowances)
    assert M._ALLOWANCE is None                          # put back after each game
    jobs = T.plan_games("switchbacks", 2, ["random", "random"], 4, 1)
    assert all(j.threads == 0 for j in jobs)
