"""``szwadron check SCENARIO [--json] [--strict]`` — the geometry audit of a set-up.

Overlaps (PD-3), bases off the table, bases in terrain closed to them (3.2.4, 3.2.5), coherency
(1.3), contacts and engagements (PD-14, 5.1.2) and control-zone intrusions (1.4, 5.9). Exit code
0, or 1 with ``--strict`` when any problem is found, 2 for bad input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.i18n import _, ngettext, term

if TYPE_CHECKING:
    from szwadron.table.audit import AuditReport


def register(subparsers: Any) -> None:
    """Add the ``check`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "check",
        help="audit a scenario: overlaps, coherency, contacts, control zones, terrain, table edges",
        description=(
            "Audit the positions of a scenario's bases: illegal overlaps (PD-3), bases off the "
            "table, bases in terrain closed to them (3.2.4, 3.2.5), coherency of each unit (1.3), "
            "contacts between enemy bases and engaged units (PD-14, 5.1.2), and bases standing in "
            "an enemy control zone without being engaged (1.4, 5.9)."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    p.add_argument(
        "--strict",
        action="store_true",
        help="exit with code 1 when any problem is found (overlaps, bases off the table or in "
        "closed terrain, broken coherency, zone intrusions), for scripts",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, audit, print; the exit code (0, or 1 under ``--strict`` with problems)."""
    from szwadron.cli._common import print_json
    from szwadron.loading import load_scenario, source_name
    from szwadron.table.audit import audit

    scenario = load_scenario(args.scenario)
    report = audit(scenario)
    if args.json:
        print_json(report.to_json())
    else:
        print(format_report(report, source_name(args.scenario)))
    return 1 if args.strict and not report.ok else 0


#: A contact shorter than this (it prints as 0.00 cm) touches at corners only: listed, but not
#: counted among the summary's contacts.
CORNER_ONLY_CM = 0.005


# long: the check report's sections in order (summary, problems, units, contacts, zones), each a few lines.
def format_report(report: AuditReport, source: str) -> str:
    """The human report: a summary line, problems (with rule numbers), then each section."""
    lines: list[str] = []
    engaged_pairs = sum(len(u.engaged_with) + len(u.recorded_engaged) for u in report.units) // 2
    corners = sum(1 for c in report.contacts if c.length < CORNER_ONLY_CM)
    none = "  " + _("none")
    n_units, n_bases, n_contacts = len(report.units), report.base_count, len(report.contacts) - corners
    lines.append(
        f"{source}: {report.scenario!r} — "
        + ngettext("{n} unit", "{n} units", n_units).format(n=n_units)
        + ", "
        + ngettext("{n} base", "{n} bases", n_bases).format(n=n_bases)
        + ": "
        + (
            _("no problems")
            if report.ok
            else ngettext("{n} problem", "{n} problems", len(report.problems)).format(n=len(report.problems))
        )
        + "; "
        + ngettext("{n} enemy contact", "{n} enemy contacts", n_contacts).format(n=n_contacts)
        + (" " + _("(and {n} at corners only)").format(n=corners) if corners else "")
        + ", "
        + ngettext("{n} engaged pair", "{n} engaged pairs", engaged_pairs).format(n=engaged_pairs)
    )
    lines.append("")
    lines.append(_("Problems ({n})").format(n=len(report.problems)))
    lines += [f"  [{p.rule}] {p.message}" for p in report.problems] or [none]

    lines.append("")
    lines.append(_("Units (1.3 coherency, 5.1.2 engagement)"))
    for u in report.units:
        state = "" if u.state == "normal" else f", {term(u.state)}"
        skirm = ", " + _("skirmish order") if u.skirmish else ""
        coh = (
            _("coherent")
            if u.coherent
            else _("NOT coherent ({n} groups: {groups})").format(
                n=len(u.groups), groups=" | ".join(", ".join(g) for g in u.groups)
            )
        )
        eng = (
            "; " + _("engaged with {units}").format(units=", ".join(u.engaged_with)) if u.engaged_with else ""
        ) + (
            "; "
            + _("recorded as engaged with {units}, not touching: a push-up is pending (5.6)").format(
                units=", ".join(u.recorded_engaged)
            )
            if u.recorded_engaged
            else ""
        )
        size = sum(len(g) for g in u.groups)
        side = _("side {side}").format(side=u.side)
        bases = ngettext("{n} base", "{n} bases", size).format(n=size)
        lines.append(f"  {u.id} ({side}{state}{skirm}): {bases}, {coh}{eng}")

    lines.append("")
    lines.append(_("Contacts between enemy bases (PD-3 touching; PD-14 length of touching edge)"))
    lines += [
        f"  {c.a} — {c.b}: {c.length:.2f} cm"
        + (" " + _("(corners only)") if c.length < CORNER_ONLY_CM else "")
        for c in report.contacts
    ] or [none]
    lines.append("")
    lines.append(_("Bases in contact (PD-14: at least 1 cm of edge touching enemy bases)"))
    lines += [f"  {', '.join(report.bases_in_contact)}"] if report.bases_in_contact else [none]

    lines.append("")
    lines.append(_("Control-zone intrusions (1.4)"))
    lines += [
        "  "
        + (
            _("{base} in the zone of {unit} ({cm:.2f} cm, measured from beyond {across})")
            if z.across
            else _("{base} in the zone of {unit} ({cm:.2f} cm)")
        ).format(base=z.base, unit=z.zone_of, cm=z.distance, across=z.across)
        for z in report.zone_intrusions
    ] or [none]

    lines.append("")
    lines.append(_("Overlaps (PD-3)"))
    lines += [
        "  " + _("{a} / {b}: {cm:.2f} cm deep").format(a=o.a, b=o.b, cm=o.depth) for o in report.overlaps
    ] or [none]
    lines.append("")
    lines.append(_("Off the table"))
    lines += [f"  {b}" for b in report.off_table] or [none]
    lines.append("")
    lines.append(_("In forbidden terrain (3.2.4, 3.2.5)"))
    lines += [
        "  " + _("{base} in {terrain}").format(base=f.base, terrain=f.terrain) + f" [{f.rule}]"
        for f in report.forbidden_terrain
    ] or [none]
    return "\n".join(lines)


__all__ = ["format_report", "register", "run"]
