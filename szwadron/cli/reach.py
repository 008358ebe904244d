"""``szwadron reach SCENARIO --unit UNIT --target UNIT [--json]`` — can this unit reach that one?

The shortest legal path of the unit's base nearest the target into contact with a target figure
(3.1, 3.2, 1.4.2, 5.9.2): around impassable terrain, other figures and other enemies' zones,
paying terrain costs; its length (PD-6 plus surcharges) against the base's move, and the path.
How the path is found and how far it can be from the true shortest: see ``szwadron.table.reach``.
Exit code 0 when the target can be reached, 1 when not, 2 for bad input.
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.cli._pictures import add_plot_option
from szwadron.i18n import _, term


def register(subparsers: Any) -> None:
    """Add the ``reach`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "reach",
        help="can this unit bring a base into contact with the target this turn, and by what path",
        description=(
            "The shortest legal path of the unit's nearest base into contact with the target "
            "(around impassable terrain, other figures and other enemies' control zones, paying "
            "terrain costs), its length against the move, and the path. The path is found on a "
            "0.5 cm grid of centre positions (16 directions) and pulled tight, and the straight "
            "slides into contact are costed exactly beside it; the base keeps its facing. Exit "
            "code 0 when reachable, 1 when not, 2 for bad input."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("--unit", required=True, metavar="UNIT", help="the unit that would charge")
    p.add_argument("--target", required=True, metavar="UNIT", help="the enemy unit to reach")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_plot_option(p, "a close-up of the table with the path and its length")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, search, print; 0 reachable, 1 not."""
    from szwadron.cli._common import print_json
    from szwadron.cli._pictures import check_plot_option, plot_reach_answer
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.table.reach import reach

    check_plot_option(args)
    bf = Battlefield(load_scenario(args.scenario))
    r = reach(bf, args.unit, args.target)
    if args.plot is not None:
        plot_reach_answer(args, r)
    if args.json:
        print_json(r.to_json())
        return 0 if r.reachable else 1
    said = (
        _("{unit} CAN reach {target} this turn (base {base}, move {allowed:g} cm)")
        if r.reachable
        else _("{unit} cannot reach {target} this turn (base {base}, move {allowed:g} cm)")
    )
    print(said.format(unit=r.unit, target=r.target, base=r.base, allowed=r.allowed))
    if r.cost is None:
        print("  " + _("no legal path into contact within {cm:g} cm of travel").format(cm=1.5 * r.allowed))
    else:
        extra = "".join(f" + {s.cm:.2f} ({s.rule} {term(s.source)})" for s in r.surcharges)
        print(
            "  "
            + _("shortest path: {path:.2f} cm{extra} = {cost:.2f} cm, touching {touches}").format(
                path=r.path_cm, extra=extra, cost=r.cost, touches=r.touches
            )
        )
        print(
            "  "
            + _("path (centre of the base, facing kept at {facing:g}°): ").format(facing=r.facing)
            + " → ".join(f"({x:.1f}, {y:.1f})" for x, y in r.path)
        )
    if r.note:  # 3.2.3: the poses into contact nearer stood on an obstacle
        print("  " + r.note)
    print("  " + _("method: {how}; see szwadron.table.reach for the error bound").format(how=r.how))
    return 0 if r.reachable else 1


__all__ = ["register", "run"]
