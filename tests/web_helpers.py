"""Helpers shared by the browser tests: play a game out in Python, drive
the Play page in Chromium (wait for a condition, open a game, start one,
wait for a human's turn), and serve the app in a thread of the test's own
process (whose search threads a test can watch)."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from collections.abc import Iterator


def play_out(game, seed: int, policy=None):
    """A finished game: chance by the state's seeded outcome, decisions by
    ``policy(state, rng)`` (uniformly random when None)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.seeded_outcome())
        elif policy is None:
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply_action(policy(state, rng))
    return state


def wait(driver, condition: str, timeout: float = 60, what: str = "") -> object:
    """Wait until the JavaScript expression ``condition`` is truthy; its value."""
    deadline = time.time() + timeout
    while True:
        value = driver.execute_script(f"return ({condition});")
        if value:
            return value
        if time.time() > deadline:
            error = driver.execute_script("return document.getElementById('error')?.textContent")
            raise AssertionError(f"timed out waiting for {what or condition} (page error: {error!r})")
        time.sleep(0.03)


def open_play(driver, url: str, game: str) -> None:
    driver.get(f"{url}/?game={game}")
    wait(driver, "document.getElementById('game').options.length > 0 && "
                 f"document.getElementById('game').value === '{game}'", what="the game list")


def set_value(driver, element_id: str, value) -> None:
    driver.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                          "e.dispatchEvent(new Event('change'));", element_id, str(value))


def start_game(driver, game: str, players: int, seats: list[str], seed: int,
               budget: tuple[str, float], options: dict | None = None) -> None:
    set_value(driver, "players", players)
    for seat, kind in enumerate(seats):
        set_value(driver, f"seat-{seat}", kind)
    set_value(driver, "seed", seed)
    set_value(driver, "budget-kind", budget[0])
    set_value(driver, "budget", budget[1])
    for key, value in (options or {}).items():
        box = driver.find_element("id", f"opt-{key}")
        if box.get_attribute("type") == "file":      # a data file: the path of a local file to upload
            box.send_keys(str(value))
        else:
            set_value(driver, f"opt-{key}", value)
    before = driver.execute_script("return window.solversPlay.draws")
    driver.find_element("id", "new").click()
    wait(driver, f"window.solversPlay.draws > {before}", what="the first drawing")


def settled(driver) -> str:
    """Wait until a human must move or the game is over; which one."""
    return wait(driver, "!window.solversPlay.state.busy && "
                        "['human', 'over'].includes(document.body.dataset.turn) && "
                        "document.body.dataset.turn", what="a human's turn")


@contextlib.contextmanager
def serve_in_thread(**app_options) -> Iterator[str]:
    """The app (``create_app(**app_options)``) served by uvicorn in a thread
    of this process; yields its address (``http://127.0.0.1:PORT``)."""
    import uvicorn

    from solvers.web.app import create_app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    app = create_app(host="127.0.0.1", port=port, **app_options)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def search_threads() -> int:
    """The web server's search threads alive in this process."""
    return sum(t.name == "solvers-web-go" and t.is_alive() for t in threading.enumerate())
