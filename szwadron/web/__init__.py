"""``szwadron serve``: the table in the browser (design layer, beside the plots).

A local web server (Starlette on uvicorn) shows a scenario on a page shipped in the package
(``szwadron/web/static``: HTML, JavaScript and SVG, no build step, nothing fetched from the
network). The page sends the positions of the bases it has moved with each request; every answer
comes from the library functions the command line calls (:mod:`szwadron.web.session`). The
guards — loopback by default, a token beyond it, no cross-origin requests, bounded bodies, files
only in the scenario's folder — are in :mod:`szwadron.web.app`.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
import sys
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from szwadron.i18n import _
from szwadron.web.app import create_app, host_names

#: Hosts that keep the server on this machine.
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def is_loopback(host: str) -> bool:
    """Whether ``host`` is the loopback (only this machine can connect).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0"), is_loopback("localhost")
    (True, True, False, True)
    """
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` (port 0: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


class Running:
    """A server started by :func:`start`: its ``url`` and :meth:`stop`."""

    def __init__(self, server: Any, thread: threading.Thread | None, url: str) -> None:
        self.server = server
        self.thread = thread
        self.url = url

    def stop(self) -> None:
        """Stop serving and wait for the thread."""
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=10)


def _configure(
    scenario: str | Path, host: str, port: int, token: str | None
) -> tuple[Any, socket.socket, str]:
    import uvicorn

    loopback = is_loopback(host)
    if not loopback and token is None:
        token = secrets.token_urlsafe(24)
    sock = bind(host, port)
    actual = sock.getsockname()[1]
    app = create_app(scenario, hosts=host_names(host, actual) if loopback else None, token=token)
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = socket.gethostname()
    url = f"http://{shown}:{actual}/" + (f"?token={token}" if token else "")
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    return uvicorn.Server(config), sock, url


def start(
    scenario: str | Path, *, host: str = "127.0.0.1", port: int = 0, token: str | None = None
) -> Running:
    """Serve in a background thread (tests, benchmarks); the scenario is loaded first, so bad
    input raises here."""
    server, sock, url = _configure(scenario, host, port, token)
    server.install_signal_handlers = lambda: None
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _attempt in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    return Running(server, thread, url)


def _say(text: str) -> None:
    print(text, flush=True)


def serve(
    scenario: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    open_browser: bool = False,
    say: Callable[[str], None] | None = None,
) -> None:
    """Serve until interrupted (``szwadron serve``). Beyond the loopback, a warning and a random
    token in the URL."""
    server, sock, url = _configure(scenario, host, port, None)
    if not is_loopback(host):
        print(
            _(
                "warning: serving on {host}, reachable from other machines; anyone with the URL (it holds a "
                "token) can read the scenario and write files in its folder"
            ).format(host=host),
            file=sys.stderr,
        )
    (say or _say)(f"szwadron serve: {Path(scenario).name} at {url}  (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])


__all__ = ["LOOPBACK", "Running", "bind", "is_loopback", "serve", "start"]
