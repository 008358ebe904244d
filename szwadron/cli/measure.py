"""``szwadron measure SCENARIO A B [--json] [--plot FILE]`` — least edge-to-edge distance (4.5.2,
PD-3); ``--plot`` draws it as a ruler on a close-up of the table.

``A`` and ``B`` name a base (``UNIT/INDEX``) or a whole unit (``UNIT``). The answer gives the
distance, the two bases that realise it and the nearest points on them. Unknown or malformed ids
are bad input (exit 2) with a message naming what exists.
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.cli._pictures import add_plot_option, check_plot_option
from szwadron.i18n import _


def register(subparsers: Any) -> None:
    """Add the ``measure`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "measure",
        help="least edge-to-edge distance between two bases or units",
        description=(
            "Least edge-to-edge distance (4.5.2) between two bases (UNIT/INDEX) or two units "
            "(UNIT), which bases realise it and the two nearest points."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("a", metavar="A", help="a base (UNIT/INDEX) or a unit (UNIT)")
    p.add_argument("b", metavar="B", help="a base (UNIT/INDEX) or a unit (UNIT)")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_plot_option(p, "the two bases or units with a ruler between them")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, measure, print; 0 on success (bad ids raise InvalidDataError → exit 2)."""
    from szwadron.cli._common import print_json
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario

    check_plot_option(args)
    scenario = load_scenario(args.scenario)
    bf = Battlefield(scenario)
    m = bf.measure(args.a, args.b)
    if args.plot:
        from szwadron.cli._pictures import plot_measure_answer

        plot_measure_answer(args, bf, m)
    if args.json:
        print_json(m.to_json())
        return 0
    (xa, ya), (xb, yb) = m.point_a, m.point_b
    state = ""
    if m.depth > 0:
        state = " " + _("(overlapping by {depth:.2f} cm)").format(depth=m.depth)
    elif m.touching:
        state = " " + _("(touching, PD-3)")
    print(_("{a} to {b}: {distance:.2f} cm").format(a=m.a, b=m.b, distance=m.distance) + state)
    print(
        "  "
        + _("between {base_a} at ({xa:.2f}, {ya:.2f}) and {base_b} at ({xb:.2f}, {yb:.2f})").format(
            base_a=m.base_a, xa=xa, ya=ya, base_b=m.base_b, xb=xb, yb=yb
        )
    )
    return 0


__all__ = ["register", "run"]
