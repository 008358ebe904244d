"""``szwadron targets SCENARIO --shooter UNIT`` — every enemy unit the unit could fire at now,
ranked by expected figures removed, with the chance of repulse or panic (4.8, 6.3); then the ones
it cannot, each with the rule that stops it (see ``szwadron fire``). Exit code 0, 2 bad input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.cli._common import fmt_prob, print_json
from szwadron.i18n import _

if TYPE_CHECKING:
    from szwadron.table.fire import TargetsReport


def register(subparsers: Any) -> None:
    """Add the ``targets`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "targets",
        help="every enemy unit this unit could fire at, best first, and why not the others",
        description=(
            "Every enemy unit the shooter could fire at now (section 4), ranked by the expected "
            "figures removed, with the chance of repulse or panic (6.3); then the units it "
            "cannot fire at, each with its rule."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("--shooter", required=True, metavar="UNIT", help="the firing unit")
    p.add_argument(
        "--march",
        action="store_true",
        help="fire on the march: the unit also moves up to half R and each figure's SO is halved, "
        "the total rounded down (4.11; never artillery, 7.1.2)",
    )
    p.add_argument(
        "--ammo",
        metavar="NAME",
        help="the guns' ammunition, named as in their profile (roundshot, canister, ...) (7.1.3); "
        "default: the best against each target",
    )
    p.add_argument("--json", action="store_true", help="print a JSON document")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, rank, print."""
    from szwadron.loading import load_scenario
    from szwadron.table.fire import targets

    report = targets(load_scenario(args.scenario), args.shooter, march=args.march, ammunition=args.ammo)
    if args.json:
        print_json(report.to_json())
    else:
        print(format_report(report))
    return 0


def format_report(report: TargetsReport) -> str:
    """The human report: a ranked table, then the units it cannot fire at."""
    lines = [_("Targets of {shooter}").format(shooter=report.shooter)]
    if report.possible:
        rows = [
            ["#", _("unit"), _("expected"), _("repulse or panic"), _("panic"), _("firing"), _("ammunition")]
        ]
        for k, r in enumerate(report.possible, 1):
            rep, pan = r.probability("repulsed"), r.probability("panic")
            firing = sum(s.can_fire for s in r.shooters)
            rows.append(
                [
                    str(k),
                    r.target,
                    f"{r.expected:.3f}",
                    fmt_prob(rep + pan),
                    fmt_prob(pan),
                    _("{n} of {total}").format(n=firing, total=len(r.shooters)),
                    r.ammunition or "-",
                ]
            )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines += [
            ("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
        ]
    else:
        lines.append("  " + _("none: it cannot fire at any enemy unit now"))
    lines.append("")
    lines.append(_("Cannot fire at ({n})").format(n=len(report.impossible)))
    for r in report.impossible:
        assert r.reason is not None
        lines.append(f"  {r.target}: [{r.reason.rule}] {r.reason.message}")
    return "\n".join(lines)
