"""``solve serve``: the local web app (Play, Solve, Atlas) in a browser.

Needs the ``[web]`` extra (Starlette, uvicorn, websockets); without it the
command says what to install and exits with status 2.
"""

from __future__ import annotations

import socket
import sys

import click

from solvers.errors import SolversError


def ipaddress_is_loopback(address: str) -> bool:
    """Whether a bound address only takes connections from this machine.

    >>> ipaddress_is_loopback("127.0.0.1"), ipaddress_is_loopback("0.0.0.0")
    (True, False)
    """
    import ipaddress

    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect to 127.0.0.1; "
                   "another address lets other machines play on this one.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on; 0 picks a free one (printed).")
@click.option("--open/--no-open", "open_browser", default=False, show_default=True,
              help="Open the Play page in the default browser.")
@click.option("--searches", type=click.IntRange(1, 1024), default=None,
              help="AI searches run at once (default: one per core); twice as many more "
                   "wait their turn, and a search beyond those is refused as busy.")
def serve(host: str, port: int, open_browser: bool, searches: int | None) -> None:
    """Play and solve in the browser: a local web app over the engine protocol.

    \b
    Pages:  /        Play any game against the AI (hints, undo, stop)
            /solve   Coast to Coast: the proven best play of a shuffle
            /atlas   Coast to Coast: the challenges' win rates as a chart
    Example:
      solve serve --port 8000      then open http://127.0.0.1:8000/

    The server answers only requests addressed to this machine's loopback
    names or to the address it listens on, runs sockets and jobs only for
    its own pages, and reads no file that a request names: a custom map or
    card file is uploaded from the page.
    """
    from solvers.web import WEB_EXTRA, missing_dependencies

    missing = missing_dependencies()
    if missing is not None:
        raise SolversError(f"solve serve needs {missing}: {WEB_EXTRA}")
    import uvicorn

    from solvers.web.app import create_app

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise SolversError(f"cannot listen on {host!r}: {e.strerror}") from None
    family = infos[0][0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(infos[0][4])
        sock.listen(128)           # connections wait in the backlog until uvicorn runs
    except OSError as e:
        sock.close()
        raise SolversError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    real_port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{real_port}/"
    click.echo(f"Serving on {url} (Ctrl-C to stop)")
    if not ipaddress_is_loopback(sock.getsockname()[0]):
        click.echo(f"solve serve: listening on {host}: other machines can reach this server "
                   "and run searches on it", err=True)
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    # Concurrent searches share the cores: each takes its part by default.
    from solvers.parallel import default_workers
    from solvers.search.mcts import set_thread_allowance

    set_thread_allowance(max(1, default_workers() // (searches or default_workers())))
    app = create_app(host=(host, sock.getsockname()[0]), port=real_port, searches=searches)
    config = uvicorn.Config(app, log_level="warning", ws_max_size=2 << 20,
                            lifespan="off")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
