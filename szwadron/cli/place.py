"""``szwadron place SCENARIO -o OUT.toml [--json]`` — the scenario with every formation written
out as its bases (issue 17), comments and layout kept.

A unit may give ``formation = { kind = "line", files = 6, ranks = 2, x = 50.0, y = 30.0,
facing = 90.0 }`` instead of ``bases`` (kinds line, column, skirmish, square, battery; see
:mod:`szwadron.formations`). Every command expands it when it reads the file; ``place`` writes
the expansion down, so the bases can be edited one by one.
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.i18n import _


def register(subparsers: Any) -> None:
    """Add the ``place`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "place",
        help="write a scenario with every formation expanded into its bases",
        description=(
            "Write SCENARIO to OUT with every unit given as a formation (line, column, skirmish, "
            "square, battery) written out as its bases, front rank first from the unit's own "
            "left; comments and layout are kept. A formation that does not fit the table is bad "
            "input (exit code 2)."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.toml", help="the file written")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read, expand, write."""
    from pathlib import Path

    from szwadron.cli._common import print_json
    from szwadron.files import check_output_path, write_text_atomic
    from szwadron.game.apply import expand_formations, read_position

    scenario = Path(args.scenario)
    out = check_output_path(args.output, inputs=(scenario,))
    applied = expand_formations(read_position(scenario))
    write_text_atomic(out, applied.text, inputs=(scenario,))
    units = applied.ruling["expanded"]
    if args.json:
        print_json({"output": str(out), "expanded": units})
    else:
        what = ", ".join(units) if units else _("no unit is given as a formation")
        print(_("{out}: written; formations expanded: {what}").format(out=out, what=what))
    return 0


__all__ = ["register", "run"]
