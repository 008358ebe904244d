"""``szwadron serve [SCENARIO] [--host 127.0.0.1] [--port N] [--open]`` — the table in the browser.

A local web server showing the scenario (default: the bundled example) on a page: drag and turn
units, live checks, the ruler, arcs, targets, sight and odds, moves, reach, melee and morale, and
saving the scenario back to its folder. It listens on the loopback unless ``--host`` says
otherwise; beyond it, it warns and puts a random token in the URL. See :mod:`szwadron.web`.
Exit code 0 when stopped (Ctrl-C), 2 for bad input (the scenario, a port in use).
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.i18n import _


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("expected a port number, got {text}").format(text=repr(text))
        ) from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("expected a port from 0 to 65535, got {port}").format(port=port))
    return port


def register(subparsers: Any) -> None:
    """Add the ``serve`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="the table in the browser: drag units, live checks, ruler, fire, moves, odds",
        description=(
            "Serve the scenario on a local web page: the table to scale, drag and turn units, "
            "live checks (overlaps, coherency, contacts, control zones), the ruler, arcs and "
            "targets, sight lines and odds, moves, reach, melee and morale; save the scenario "
            "into its folder. Listens on 127.0.0.1 unless --host says otherwise."
        ),
    )
    p.add_argument(
        "scenario", metavar="SCENARIO", nargs="?", help="scenario file (TOML); default the example"
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 for a free one)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load the scenario and serve until interrupted."""
    from szwadron.errors import InvalidDataError
    from szwadron.loading import bundled_scenario
    from szwadron.web import serve

    scenario = args.scenario if args.scenario is not None else str(bundled_scenario())
    if scenario == "-":  # the page saves the scenario back to its file: a file it must be
        raise InvalidDataError(
            _("-: serve saves the scenario back to its file; give a file, not standard input")
        )
    try:
        serve(scenario, host=args.host, port=args.port, open_browser=args.open)
    except OSError as exc:
        if exc.filename is None:
            raise InvalidDataError(
                f"--host {args.host} --port {args.port}: cannot listen: {exc.strerror or exc}"
            ) from None
        raise
    return 0


__all__ = ["register", "run"]
