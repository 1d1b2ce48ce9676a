"""solvers.parallel: the same results on every backend and worker count, and
the faults (a failing job, a dead worker, a bad address, no Ray, Ctrl-C).

The Ray tests share one local Ray instance (2 CPUs, no dashboard), started
by the first of them through the ``ray_instance`` fixture and stopped after
the last (conftest.py); they skip when Ray is not installed. The baseline of every comparison is one worker, which runs
the jobs one after the other in this process, with no pool at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from solvers import parallel
from solvers.errors import SolversError
from solvers.parallel import JobError, map_jobs, run_jobs

from cli_helpers import one_error_line, own_session, run

ROOT = Path(__file__).resolve().parents[1]


BACKENDS = [("local", 1), ("local", 2), ("ray", 2)]


def _backend(request, backend):
    if backend == "ray":
        request.getfixturevalue("ray_by_value")


# ------------------------------------------------------------ jobs for the tests
def _square(x: int) -> int:
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError(f"three is not allowed (got {x})")
    return x


def _die_once(item: tuple[int, str]) -> int:
    """Kills its own worker process the first time it sees item 2."""
    i, marker = item
    if i == 2 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os._exit(3)
    return i * 10


def _interval(x: int) -> tuple[float, float]:
    """When this job ran (it takes a tenth of a second)."""
    start = time.time()
    time.sleep(0.1)
    return start, time.time()


def _always_die(x: int) -> int:
    os._exit(4)


# ------------------------------------------------------------ same results everywhere
@pytest.mark.parametrize("backend,workers", BACKENDS)
def test_results_and_progress(request, backend, workers):
    _backend(request, backend)
    seen = []
    got = dict(run_jobs(_square, range(20), workers=workers, backend=backend,
                        progress=lambda done, total: seen.append((done, total))))
    assert got == {i: i * i for i in range(20)}
    assert seen == [(k, 20) for k in range(1, 21)]         # progress reaches 100%


@pytest.mark.parametrize("backend,workers", BACKENDS[1:])
def test_ceiling_is_the_same_on_every_backend(request, backend, workers):
    from solvers.optimize.c2c import ceiling

    _backend(request, backend)

    def outcomes(**kw):
        r = ceiling("Wrigley Field", shuffles=6, seed=11, time_limit=20.0, **kw)
        return (r.won, r.lost, r.unknown,
                [(o.index, o.seed, o.deal, o.won, o.how) for o in r.outcomes])

    assert outcomes(workers=workers, backend=backend) == outcomes(workers=1)


@pytest.mark.parametrize("backend,workers", BACKENDS[1:])
def test_online_run_is_the_same_on_every_backend(request, backend, workers):
    from solvers.games.c2c.data import load_map
    from solvers.games.c2c.online import online_results

    _backend(request, backend)
    m = load_map()
    ch = m.location("The Alamo").id

    def record(**kw):
        r = online_results(m, ch, shuffles=4, seed=5, agent_spec="mcts:iterations=30", **kw)
        return r.wins, r.scores, r.won

    assert record(workers=workers, backend=backend) == record(workers=1)


@pytest.mark.parametrize("backend,workers", BACKENDS[1:])
def test_tournament_json_is_the_same_on_every_backend(request, capsys, backend, workers):
    _backend(request, backend)

    def result(*extra):
        code, out, err = run(capsys, "tournament", "switchbacks", "--agents",
                             "mcts:iterations=20,greedy", "--games", "4", "--seed", "3",
                             "--json", *extra)
        assert code == 0, err
        data = json.loads(out)
        data.pop("seconds")
        for agent in data["agents"]:             # thinking time varies; simulations do not
            assert agent.pop("seconds_per_move") >= 0
        return data

    assert result("--workers", str(workers), "--backend", backend) == result("--workers", "1")


@pytest.mark.parametrize("backend,workers", BACKENDS[1:])
def test_challenge_json_is_the_same_on_every_backend(request, capsys, backend, workers):
    """The whole report, the best shuffle and its plan included (CP-SAT with
    several workers may find any of the equally good ones first)."""
    _backend(request, backend)

    def report(*extra):
        code, out, err = run(capsys, "c2c", "--challenge", "Gateway Arch", "--shuffles", "2",
                             "--seed", "31337", "--online", "mcts:iterations=50", "--json", *extra)
        assert code == 0, err
        return json.loads(out)

    alone = report("--workers", "1")
    assert alone["best_score"] == 115
    assert report("--workers", str(workers), "--backend", backend) == alone


# ------------------------------------------------------------ faults
@pytest.mark.parametrize("backend,workers", BACKENDS)
def test_a_failing_job_is_reported_with_its_item(request, backend, workers):
    _backend(request, backend)
    with pytest.raises(JobError) as e:
        map_jobs(_fail_on_three, range(8), workers=workers, backend=backend)
    assert e.value.index == 3 and e.value.item == 3
    assert str(e.value) == "job 3 (3) failed: ValueError: three is not allowed (got 3)"


def _fail_on_150(x: int) -> int:
    if x == 150:
        raise ValueError("one hundred and fifty")
    return x


def test_a_failing_job_among_many_short_ones_is_reported_with_its_item(ray_by_value):
    # Short jobs travel to Ray's workers in batches: the error still names its
    # own item, and every result yielded before it is right.
    got = []
    with pytest.raises(JobError) as e:
        for index, value in run_jobs(_fail_on_150, range(400), workers=2, backend="ray"):
            got.append((index, value))
    assert (e.value.index, e.value.item) == (150, 150)
    assert all(i == v and i != 150 for i, v in got) and len(set(got)) == len(got)


NICENESS_ON_EACH_BACKEND = textwrap.dedent("""
    import json, os
    from solvers import parallel
    local = parallel.map_jobs(os.nice, [0, 0], backend="local", workers=2)
    parallel.ray_connect(workers=2)
    ray = parallel.map_jobs(os.nice, [0, 0, 0, 0], backend="ray", workers=2)
    parallel.ray_shutdown()
    print(json.dumps({"mine": os.nice(0), "local": local, "ray": ray}))
""")


def test_a_local_ray_instance_runs_its_workers_at_the_callers_priority():
    # Ray's default runs its workers 15 steps nicer than the driver, which
    # on a busy machine starved them (see parallel.LOCAL_RAY_CONFIG). Started
    # by the library, the instance's workers run at the caller's priority,
    # as the local backend's do (the control). A process of its own started
    # at niceness 3, so that "the caller's" is not simply 0.
    pytest.importorskip("ray")
    # In a session of its own: a signal Ray's shutdown sends to its process
    # group cannot reach the test's own worker (a rare crash of the pytest
    # worker during this test was seen once in CI).
    proc = subprocess.run(["nice", "-n", "3", sys.executable, "-c", NICENESS_ON_EACH_BACKEND],
                          capture_output=True, text=True, timeout=180, cwd=ROOT,
                          env={**os.environ, "RAY_ADDRESS": ""}, start_new_session=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    seen = json.loads(proc.stdout)
    assert seen["mine"] == os.nice(0) + 3
    assert seen["local"] == [seen["mine"]] * 2
    assert seen["ray"] == [seen["mine"]] * 4


def test_the_ray_tests_are_one_xdist_group(request):
    """Under ``--dist loadgroup`` (the README's command) each Ray test's id
    carries the group 'ray', which is what keeps them on one worker, one
    after another (conftest.py marks them before xdist reads the marks)."""
    if not request.config.getoption("loadgroup", default=False):
        pytest.skip("not run under pytest-xdist's --dist loadgroup")
    assert request.node.nodeid.endswith("@ray"), request.node.nodeid


def test_ray_runs_one_job_at_a_time_with_one_worker(ray_by_value):
    # The session's instance has 2 CPUs: a run asking for one worker uses one.
    spans = sorted(map_jobs(_interval, range(8), backend="ray", workers=1))
    at_once = max(sum(1 for s, e in spans if s < t + 1e-3 < e) for t, _ in spans)
    assert at_once == 1, spans


def test_a_failing_job_exits_1_with_one_line(capsys, monkeypatch):
    import solvers.tournament

    def broken(job):
        raise RuntimeError("the board caught fire")

    monkeypatch.setattr(solvers.tournament, "play_game", broken)
    code, _, err = run(capsys, "tournament", "switchbacks", "--agents", "greedy,random",
                       "--games", "3", "--workers", "2")
    assert code == 1
    line = one_error_line(err)
    assert line.startswith("solve: error: job ") and "(GameJob(index=" in line
    assert line.endswith("failed: RuntimeError: the board caught fire")


@pytest.mark.parametrize("backend", ["local", "ray"])
def test_a_dead_worker_is_retried(request, tmp_path, backend):
    _backend(request, backend)
    marker = str(tmp_path / f"died-{backend}")
    got = map_jobs(_die_once, [(i, marker) for i in range(6)], workers=2, backend=backend)
    assert got == [0, 10, 20, 30, 40, 50]
    assert Path(marker).exists()             # the worker really died once


def _count_runs(item: tuple[int, str]) -> int:
    """Notes each run of item ``i`` in a file of its own; item 0 kills its
    worker on its first run (item 1 waits behind it in the same worker)."""
    i, folder = item
    runs = Path(folder) / f"{i}-{time.perf_counter_ns()}"
    runs.write_text("ran")
    if i == 0 and len(list(Path(folder).glob("0-*"))) == 1:
        os._exit(3)
    return i


def test_a_job_waiting_behind_a_dead_one_runs_once(tmp_path):
    got = map_jobs(_count_runs, [(i, str(tmp_path)) for i in range(8)], workers=2, retries=1)
    assert got == list(range(8))
    runs = sorted(int(p.name.split("-")[0]) for p in tmp_path.iterdir())
    assert runs == [0, 0, 1, 2, 3, 4, 5, 6, 7]     # only the dead job ran twice


def _pid_interval(x: int) -> tuple[int, float, float]:
    start = time.time()
    time.sleep(0.05)
    return os.getpid(), start, time.time()


def test_a_local_worker_starts_its_next_job_without_waiting_for_this_process():
    """The next job waits in the worker's pipe: a slow reader of the results
    (0.3 s a result here) does not hold the workers up."""
    by_worker: dict[int, list[tuple[float, float]]] = {}
    for _, (pid, start, end) in run_jobs(_pid_interval, range(12), workers=2):
        by_worker.setdefault(pid, []).append((start, end))
        time.sleep(0.3)
    gaps = [b[0] - a[1] for runs in by_worker.values()
            for a, b in zip(sorted(runs), sorted(runs)[1:])]
    assert min(gaps) < 0.1


def test_a_worker_that_always_dies_stops_the_run():
    with pytest.raises(JobError, match=r"job [01] \([01]\) failed: its worker process died 3 times \(exit code 4\)"):
        map_jobs(_always_die, [0, 1], workers=2, retries=2)


def test_no_worker_process_is_left_after_a_run():
    import multiprocessing as mp

    pids = set(map_jobs(_getpid, range(12), workers=2))
    assert os.getpid() not in pids and len(pids) >= 1
    assert mp.active_children() == []
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists()


def _getpid(_: int) -> int:
    return os.getpid()


def test_ray_backend_without_ray_is_one_line_before_any_work(capsys, monkeypatch):
    import solvers.tournament

    monkeypatch.setitem(sys.modules, "ray", None)        # import ray fails
    monkeypatch.setattr(solvers.tournament, "play_game", _fail_on_three)  # never reached
    code, _, err = run(capsys, "tournament", "switchbacks", "--agents", "greedy,random",
                       "--backend", "ray")
    assert code == 2
    assert one_error_line(err) == "solve: error: the ray backend needs Ray: pip install 'solvers[ray]'"
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--backend", "ray")
    assert code == 2 and "pip install 'solvers[ray]'" in one_error_line(err)
    with pytest.raises(SolversError, match="needs Ray"):
        map_jobs(_square, [1], backend="ray")


def test_bad_backend_and_address_are_refused(capsys):
    with pytest.raises(SolversError, match="unknown backend"):
        map_jobs(_square, [1], backend="spark")
    with pytest.raises(SolversError, match="--address is for the ray backend"):
        map_jobs(_square, [1], address="auto")


def test_a_bad_ray_address_fails_fast_with_one_line():
    pytest.importorskip("ray")
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "solvers.cli.main", "tournament", "switchbacks",
         "--agents", "greedy,random", "--backend", "ray", "--address", "127.0.0.1:9"],
        capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert time.monotonic() - start < 15
    assert proc.returncode == 2
    line = one_error_line(proc.stderr)
    assert line.startswith("solve: error: no Ray cluster answers at 127.0.0.1:9")


DIES_ONCE_IN_A_RAY_RUN = textwrap.dedent("""
    import os, sys
    from pathlib import Path
    import ray
    import solvers.tournament
    from solvers.cli.main import main

    real = solvers.tournament.play_game
    marker = sys.argv[1]              # read here: a Ray worker has argv of its own

    def dies_once(job):
        if job.index == 1 and not os.path.exists(marker):
            Path(marker).write_text("died")
            os._exit(3)
        return real(job)

    ray.cloudpickle.register_pickle_by_value(sys.modules["__main__"])
    solvers.tournament.play_game = dies_once
    sys.exit(main(["tournament", "switchbacks", "--agents", "greedy,random", "--games", "4",
                   "--workers", "2", "--backend", "ray", "--json"]))
""")


def test_a_dead_ray_worker_leaves_stdout_to_the_report(tmp_path):
    """Ray's driver prints its warnings (a worker died, the task is retried)
    on stdout from threads of its own: they go to stderr, and stdout is the
    JSON report alone."""
    pytest.importorskip("ray")
    marker = tmp_path / "died"
    proc = subprocess.run([sys.executable, "-c", DIES_ONCE_IN_A_RAY_RUN, str(marker)],
                          capture_output=True, text=True, timeout=180, cwd=ROOT,
                          env={**os.environ, "RAY_ADDRESS": ""})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert marker.exists()                   # the worker really died
    report = json.loads(proc.stdout)         # nothing but the report
    assert report["games"] == 4 and "(raylet)" not in proc.stdout


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def _ray_head(tmp_path: Path, *args: str, env: dict | None = None):
    """A real Ray head on 127.0.0.1 (``ray start --head`` with ``args``, a
    home of its own and no RAY_ variables but those in ``env``) for the
    block: yields (address, the environment of a client of the same home)."""
    import shutil
    import tempfile

    home = tmp_path / "home"
    home.mkdir()
    # Short: Ray's socket paths live under it and must stay below 108 bytes.
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    port = _free_port()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
         f"--port={port}", "--node-ip-address=127.0.0.1", "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        env={**clean, "HOME": str(home), **(env or {})})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and head.poll() is None:
            try:
                _probe_quietly(f"127.0.0.1:{port}")
                break
            except SolversError:
                time.sleep(0.5)
        else:
            pytest.fail("the Ray head did not start within 60 s")
        yield f"127.0.0.1:{port}", {**clean, "HOME": str(home)}
    finally:
        os.killpg(head.pid, signal.SIGTERM)        # the head and the daemons it started
        try:
            head.wait(1)                           # (it seldom stops within 5 s: a test's time)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(10)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def ray_head_with_token(tmp_path):
    """A real Ray head that wants an authentication token: yields (address,
    token, the environment of a client without the token). Skips when this
    Ray has no token authentication."""
    ray = pytest.importorskip("ray")
    if not hasattr(ray.exceptions, "AuthenticationError"):
        pytest.skip(f"Ray {ray.__version__} has no token authentication")
    token = "0123456789abcdef" * 2
    with _ray_head(tmp_path, "--num-cpus=1",
                   env={"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}) as (address, env):
        yield address, token, env


def _probe_quietly(address: str) -> None:
    from solvers.parallel import _probe

    _probe(address)


def test_a_cluster_that_wants_a_token_is_one_line_at_once(ray_head_with_token):
    address, token, env = ray_head_with_token
    argv = [sys.executable, "-m", "solvers.cli.main", "tournament", "switchbacks",
            "--agents", "greedy,random", "--games", "2", "--backend", "ray", "--address", address]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert time.monotonic() - start < 10
    assert proc.returncode == 2
    line = one_error_line(proc.stderr)
    assert line.startswith(f"solve: error: the Ray cluster at {address} needs an "
                           "authentication token: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN")
    wrong = {**env, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": "f" * 32}
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT, env=wrong)
    assert proc.returncode == 2
    assert "refused this process's authentication token" in one_error_line(proc.stderr)
    right = {**env, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    proc = subprocess.run(argv + ["--json"], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=right)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["games"] == 2


def test_a_ray_cluster_without_a_cpu_is_noted_and_ctrl_c_stops_the_wait(tmp_path):
    """A head started with --num-cpus=0 and no other node can run no job:
    the command says so at once on stderr (the jobs wait: an autoscaling
    cluster adds nodes for them) and Ctrl-C ends the wait."""
    pytest.importorskip("ray")
    with _ray_head(tmp_path, "--num-cpus=0") as (address, env):
        import select

        argv = [sys.executable, "-m", "solvers.cli.main", "tournament", "switchbacks", "--agents",
                "greedy,random", "--games", "2", "--backend", "ray", "--address", address]
        with own_session(argv, cwd=ROOT, env=env) as proc:
            ready, _, _ = select.select([proc.stderr], [], [], 60)
            assert ready, "nothing on stderr within 60 s"
            note = proc.stderr.readline()        # before any job could run
            assert note.startswith(f"solve: note: the Ray cluster at {address} has no CPU: "
                                   "the jobs wait"), note
            time.sleep(1.0)
            assert proc.poll() is None           # waiting, not failed
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err


def test_sigterm_of_a_ray_run_saves_its_games_and_says_so(tmp_path):
    """``kill PID`` of a tournament on Ray ends it as on the local backend:
    the games finished so far saved, one line, status 143. (Ray's driver
    puts in a SIGTERM handler of its own that writes a stack and ends the
    process before anything is saved; the command keeps its own.)"""
    pytest.importorskip("ray")
    path = tmp_path / "t.json"
    argv = [sys.executable, "-m", "solvers.cli.main", "tournament", "switchbacks", "--agents",
            "greedy,random", "--games", "100000", "--workers", "2", "--backend", "ray",
            "--save", str(path)]
    with own_session(argv, cwd=ROOT, env={**os.environ, "RAY_ADDRESS": ""}) as proc:
        deadline = time.monotonic() + 120
        while not path.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert path.exists(), proc.stderr.read() if proc.poll() is not None else "nothing saved"
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    # the whole of stderr on failure: a Ray stack's start says which thread got the signal
    assert proc.returncode == 143, f"status {proc.returncode}; stderr:\n{err}"
    assert [line for line in err.splitlines() if line.strip()][-1] == "solve: terminated"
    assert "SIGTERM received" not in err
    saved = json.loads(path.read_text())
    assert saved["records"] and saved["sessions"][-1]["games"] == len(saved["records"])


# ------------------------------------------------------------ Ctrl-C
INTERRUPTED = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from solvers.parallel import map_jobs

    def nap(item):
        i, where = item
        Path(where, str(os.getpid())).write_text("")
        time.sleep(60)
        return i

    if sys.argv[2] == "ray":
        import ray
        ray.cloudpickle.register_pickle_by_value(sys.modules["__main__"])
    map_jobs(nap, [(i, sys.argv[1]) for i in range(8)], workers=2, backend=sys.argv[2])
""")


def _pid_alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize("backend", ["local", "ray"])
def test_ctrl_c_leaves_no_worker_process(tmp_path, backend):
    if backend == "ray":
        pytest.importorskip("ray")
    proc = subprocess.Popen([sys.executable, "-c", INTERRUPTED, str(tmp_path), backend],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "RAY_ADDRESS": ""})
    deadline = time.monotonic() + 120
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    pids = [int(p.name) for p in tmp_path.iterdir()]
    assert len(pids) >= 2, proc.stderr.read() if proc.poll() is not None else "no workers started"
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    end = time.monotonic() + 10
    while any(_pid_alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.2)
    assert not [p for p in pids if _pid_alive(p)]


# ------------------------------------------------------------ kill -9
KILLED = textwrap.dedent("""
    import sys, time
    import solvers.parallel as parallel

    if sys.argv[1] == "poll":         # no prctl: the portable watch alone
        def no_libc(*args, **kwargs):
            raise OSError("no prctl on this system")
        parallel.ctypes.CDLL = no_libc
    parallel.map_jobs(time.sleep, [60] * 4, workers=2)
""")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return kids


def _kill_9_leaves_no_worker(argv: list[str], within: float) -> None:
    """Start ``argv``, wait for its two workers, ``kill -9`` it, and check
    that the workers are gone within ``within`` seconds. Workers still
    there (the unfixed code) are killed at the end, so none outlives the test."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            workers = _children(proc.pid)
        assert len(workers) >= 2, proc.stderr.read() if proc.poll() is not None else "no workers"
        proc.kill()
        proc.wait(timeout=10)
        end = time.monotonic() + within
        while any(_pid_alive(p) for p in workers) and time.monotonic() < end:
            time.sleep(0.05)
        assert not [p for p in workers if _pid_alive(p)], "workers outlived their parent"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in workers:
            if _pid_alive(p):
                os.kill(p, signal.SIGKILL)
        proc.stderr.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("watch", ["prctl", "poll"])
def test_kill_9_of_a_run_ends_its_workers(watch):
    _kill_9_leaves_no_worker([sys.executable, "-c", KILLED, watch], within=5.0)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_kill_9_of_a_solve_command_ends_its_workers():
    _kill_9_leaves_no_worker([sys.executable, "-m", "solvers.cli.main", "tournament", "c2c",
                              "--agents", "mcts:time=5,mcts:time=5", "--games", "40",
                              "--workers", "2"], within=5.0)


def test_a_foreign_server_is_not_taken_for_a_ray_cluster():
    import http.server
    import threading

    from solvers.parallel import _probe

    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        with pytest.raises(SolversError, match=f"no Ray cluster answers at {address} "
                                               r"\(something else listens there\)"):
            _probe(address)
    finally:
        server.shutdown()
    with pytest.raises(SolversError, match="'auto' or HOST:PORT"):
        _probe("nowhere")


def test_self_play_for_training_on_ray_gives_each_games_samples_in_order(ray_instance, tmp_path):
    """``solve train``'s self-play on Ray: the samples of each game, in game
    order, as when each game is played here on its own."""
    import numpy as np

    import solvers
    from solvers.learn.train import TrainConfig, _self_play, game_seeds, self_play_game

    config = TrainConfig(game="switchbacks", players=2, seed=9, games=3, iterations=10)
    xs: list = []
    ys: list = []
    done = _self_play(config, 0, xs, ys, tmp_path / "m.ckpt.npz", 36, 0.0, None,
                      workers=2, backend="ray")
    game = solvers.load_game("switchbacks")
    assert done == 3 and len(xs) == 3
    for i, (x, y) in enumerate(zip(xs, ys)):
        want_x, want_y = self_play_game(game, 10, *game_seeds(9, i))
        assert np.array_equal(x, want_x) and np.array_equal(y, want_y)
