"""The ``szwadron`` command line: it parses, calls the library, prints.

Each command lives in its own module ``szwadron.cli.<name>`` exposing ``register(subparsers)``,
which adds the command's parser and sets ``func`` to a ``run(args) -> int`` function. Command
modules import only the standard library at import time; the library (shapely, numpy, ...) is
imported inside ``run`` so that ``szwadron --help`` and light commands start fast.

Exit codes (design.md): 0 success, 1 the answer is "no" where a command says so, 2 bad input.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from szwadron import __version__
from szwadron.errors import SzwadronError

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "check",
    "measure",
    "remainder",
    "odds",
    "fire",
    "targets",
    "move",
    "melee",
    "reach",
    "morale",
    "plot",
    "points",
    "balance",
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every command registered."""
    parser = _Parser(
        prog="szwadron",
        description="Table geometry, exact odds and army-list points for the Szwadron rules.",
    )
    parser.add_argument("--version", action="version", version=f"szwadron {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"szwadron.cli.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except SzwadronError as exc:
        print(f"szwadron {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("szwadron: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


__all__ = ["COMMAND_MODULES", "build_parser", "main"]
