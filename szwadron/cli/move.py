"""``szwadron move SCENARIO --unit UNIT --to MOVEFILE [--charge TARGET] [--march]
[--after-fire TARGET [--fired B1,B2]] [--json]``, or ``--repulse ENEMY`` instead of ``--to``.

Is this move legal? The first violated rule and the base that breaks it, then every base's
distance by PD-6 (the path of its furthest corner) with each terrain surcharge (3.2) against its
move. ``--unit`` may be repeated for a combined move (3.3), ``--charge`` for a charge on several
units (5.2). ``--after-fire TARGET`` checks a move after fire (4.9): the unit fired at TARGET this
turn with the bases of ``--fired`` (default: those that could fire); a declared base may not
move (4.9.1), no charge (4.9.3), no path into the band of a line of fire of a figure that fired
(4.9.4); with ``--march`` the fire was on the march, before the half move (4.11.2, 4.11.3).
``--disengage`` (5.8) and ``--push-up ENEMY`` (5.6), the moves that belong to a melee
(:mod:`szwadron.cli._melee_moves`): a disengagement's odds and move, made with ``--apply`` and
the dice; a push-up's check.
``--repulse ENEMY`` finds the repulse move (6.5, 5.5.6,
:func:`szwadron.table.movement.repulse`): the full move directly away from ENEMY, keeping
formation, going round what bars the way; exit 1 when no such move is legal (6.5.5: it panics).
A unit the position marks ``repulsed_pursuing`` (repulsed while in pursuit, 6.7.9) makes instead
the move after reorganising, as ``--reform`` (6.8.5).
Exit code 0 for a legal move, 1 for an illegal one, 2 for bad input.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.cli._common import base_list
from szwadron.cli._game import add_apply_options
from szwadron.cli._melee_moves import (
    add_melee_move_options,
    check_melee_move_options,
    run_disengage,
    run_push_up,
)
from szwadron.cli._pictures import add_plot_option
from szwadron.i18n import _, pgettext, term

if TYPE_CHECKING:
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.table.fire import FireResult
    from szwadron.table.movement import MoveReport


def register(subparsers: Any) -> None:
    """Add the ``move`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "move",
        help="is this move legal: distance per base, terrain costs, zones, the first rule broken",
        description=(
            "Check a proposed move (section 3): the new pose of each base that moves (and the "
            "waypoints on its way) from a TOML move file. Bases not listed stay where they are. "
            "Exit code 0 when the move is legal, 1 when it is not, 2 for bad input."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument(
        "--unit",
        action="append",
        required=True,
        metavar="UNIT",
        help="the unit that moves; repeat it for a combined move of units touching at the start, "
        "at the slowest one's speed (3.3)",
    )
    p.add_argument(
        "--to",
        metavar="MOVEFILE",
        help="the move file (TOML): where each moving base ends, [[bases]] with index, x, y, "
        "facing and optional waypoints (scenarios/moves/hussars-advance.toml)",
    )
    p.add_argument(
        "--charge",
        action="append",
        default=[],
        metavar="TARGET",
        help="the enemy unit this move charges (5.2): its control zone may be entered, to end in "
        "contact (1.4.2, 5.9); repeatable",
    )
    p.add_argument(
        "--march",
        action="store_true",
        help="this is the move of fire on the march: at most half R, and no charge (4.11)",
    )
    p.add_argument(
        "--after-fire",
        metavar="TARGET",
        help="a move after fire: the unit fired at TARGET this turn, so only its bases that did "
        "not fire may move, never into their own unit's lines of fire, and no charge (4.9); "
        "with --march the fire was on the march and only its half move is left (4.11.2, 4.11.3)",
    )
    p.add_argument(
        "--fired",
        type=base_list,
        metavar="B1,B2",
        help="with --after-fire: the bases declared as firing, which may not move (4.2, 4.9.1): "
        "a comma list of UNIT/INDEX or INDEX; default: the bases that could fire",
    )
    p.add_argument(
        "--repulse",
        metavar="ENEMY",
        help="instead of --to: the repulse move of the unit, repulsed by ENEMY in melee or by its "
        "fire (6.5, 5.5.6): its full move directly away, keeping formation, going round what "
        "bars the way; exit 1 when it cannot move (6.5.5: it panics); with --apply, the move (or the panic) "
        "written to the next position, at once, whoever's turn it is. A unit repulsed while pursuing "
        "(6.7.9) makes instead the move after reorganising, as --reform (6.8.5)",
    )
    p.add_argument(
        "--reform",
        action="store_true",
        help="instead of --to: the move that makes the unit coherent again, after losses (1.3.2) or "
        "after reorganising (6.8.5): the largest group stays, the others close up; exit 1 when "
        "that move is not legal",
    )
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_apply_options(p, "the move's final poses")
    add_melee_move_options(p)
    add_plot_option(
        p,
        "a close-up of the table with each base's path (PD-6), its final pose "
        "ghosted and its distance; violations in red",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, check, print; 0 legal, 1 illegal."""
    from szwadron.cli._game import check_apply_options, may_not_act
    from szwadron.cli._pictures import check_plot_option
    from szwadron.errors import InvalidDataError
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.models import UnitAction
    from szwadron.table.movement import check_move, load_move_file

    check_plot_option(args)
    check_apply_options(args)
    check_melee_move_options(args)
    if args.fired is not None and args.after_fire is None:
        raise InvalidDataError(_("--fired: name the fire's target with --after-fire TARGET"))
    if args.disengage:
        return run_disengage(args)
    if args.push_up is not None:
        return run_push_up(args)
    if (args.to is not None) + (args.repulse is not None) + bool(args.reform) != 1:
        raise InvalidDataError(
            _(
                "give the move file with --to MOVEFILE, or --repulse ENEMY for a repulse (6.5), or "
                "--reform for the move that makes the unit coherent (1.3.2, 6.8.5), or --disengage "
                "(5.8): one of them"
            )
        )
    if args.repulse is not None:
        return _repulse(args)
    if args.reform:
        return _reform(args)
    if args.apply:
        return _apply(args)
    bf = Battlefield(load_scenario(args.scenario))
    move = load_move_file(args.to)
    after = None
    if args.after_fire is not None:
        after = _the_fire(bf, args)
    report = check_move(
        bf, args.unit, move, charge=args.charge, march=args.march, after_fire=after, source=str(args.to)
    )
    code = answer_move(args, report)
    if not args.json:  # 2.3, 5.8.1: the move is legal on the table, but may the unit make it now?
        acted = UnitAction.FIRE if after is not None else (UnitAction.MARCH_FIRE if args.march else None)
        for line in filter(None, (may_not_act(bf.scenario, u, "move", acted) for u in args.unit)):
            print(line)
    return code


def answer_move(args: argparse.Namespace, report: MoveReport) -> int:
    """A checked move printed (``--json`` or the report) and drawn (``--plot``); 0 legal, 1 not."""
    from szwadron.cli._common import print_json
    from szwadron.cli._pictures import plot_move_answer

    if args.json:
        print_json(report.to_json())
    else:
        print(format_report(report))
    if args.plot is not None:
        plot_move_answer(args, report)
    return 0 if report.legal else 1


def _repulse(args: argparse.Namespace) -> int:
    """``--repulse ENEMY``: 6.5 — the repulse move away from ENEMY; 1 when blocked (6.5.5)."""
    from szwadron.cli._common import print_json
    from szwadron.cli._pictures import plot_move_answer
    from szwadron.errors import InvalidDataError
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.models import UnitState
    from szwadron.table.movement import repulse

    _check_repulse_options(args)
    bf = Battlefield(load_scenario(args.scenario))
    unit = args.unit[0]
    enemy = args.repulse
    if unit not in bf.unit_ids or enemy not in bf.unit_ids:
        bf.resolve(unit), bf.resolve(enemy)  # a clear message for an unknown name
        raise InvalidDataError(_("--unit and --repulse name units, not bases"))
    if bf.scenario.unit(unit).side == bf.scenario.unit(enemy).side:
        raise InvalidDataError(
            _("--repulse: {enemy} is on {unit}'s side; name the enemy unit that repulsed it").format(
                enemy=enemy, unit=unit
            )
        )
    if args.apply:
        return _apply_repulse(args, unit, enemy)
    moving = bf.scenario.unit(unit)
    if moving.repulsed_pursuing and moving.state is UnitState.NORMAL:  # 6.7.9: 6.8.5's move
        return _pursuer_repulse(args, unit, enemy)
    r = repulse(bf, unit, enemy)
    if args.json:
        print_json(
            {
                "unit": unit,
                "enemy": enemy,
                "blocked": r.blocked,
                "outcome": "panic" if r.blocked else "normal",
                "direction": [round(r.direction[0], 9), round(r.direction[1], 9)],
                "distance": round(r.distance, 6),
                "deflection": r.deflection,
                "out_of_fire": r.out_of_fire,
                "move": r.report.to_json() if r.report is not None else None,
            }
        )
    elif r.blocked:
        print(
            _(
                "{unit}: repulse away from {enemy} — BLOCKED: no legal move directly away, nor up to "
                "60° aside (6.5.5): the unit panics"
            ).format(unit=unit, enemy=enemy)
        )
    else:
        aside = ", " + _("{deg}° aside").format(deg=f"{r.deflection:+g}") if r.deflection else ""
        print(
            _(
                "{unit}: repulse away from {enemy} — {cm:.2f} cm towards ({dx:.3f}, {dy:.3f}){aside}; it "
                "ends in the normal state (6.5.3)"
            ).format(unit=unit, enemy=enemy, cm=r.distance, dx=r.direction[0], dy=r.direction[1], aside=aside)
        )
        if r.out_of_fire:
            print(_("  it ends out of {enemy}'s field of fire (6.5.2)").format(enemy=enemy))
        else:
            print(
                _(
                    "  it ends still in {enemy}'s field of fire: no legal move up to 60° aside gets it out "
                    "(6.5.2); it moves straightest away"
                ).format(enemy=enemy)
            )
        assert r.report is not None
        print(format_report(r.report))
    if args.plot is not None and r.report is not None:
        plot_move_answer(args, r.report)
    return 1 if r.blocked else 0


def _check_repulse_options(args: argparse.Namespace) -> None:
    """``--repulse``: 6.5 — a move of its own, of one unit (bad input otherwise)."""
    from szwadron.errors import InvalidDataError

    for flag, given in (
        ("--charge", bool(args.charge)),
        ("--march", args.march),
        ("--after-fire", args.after_fire is not None),
    ):
        if given:
            raise InvalidDataError(
                _("{flag} does not go with --repulse: a repulse is a move of its own (6.5)").format(flag=flag)
            )
    if len(args.unit) != 1:
        raise InvalidDataError(_("--repulse: a repulse is the move of one unit; name one --unit"))


def _pursuer_repulse(args: argparse.Namespace, unit: str, enemy: str) -> int:
    """``--repulse ENEMY`` of a unit repulsed while pursuing (``repulsed_pursuing``): 6.7.9 — its
    repulse move is the move after reorganising (6.8.5), shown as ``--reform`` shows it."""
    from szwadron.errors import InvalidDataError

    if args.plot is not None:
        raise InvalidDataError(
            _(
                "--plot does not go with the repulse of {unit}, repulsed while pursuing: its move is "
                "the move after reorganising (6.7.9, 6.8.5)"
            ).format(unit=unit)
        )
    if not args.json:
        print(
            _(
                "{unit} was repulsed while pursuing: its repulse move is the move after reorganising "
                "(6.7.9, 6.8.5), not the move away from {enemy} (6.5)"
            ).format(unit=unit, enemy=enemy)
        )
    return _reform(args)


def _reform(args: argparse.Namespace) -> int:
    """``--reform``: 1.3.2, 6.8.5 — the move that makes the unit coherent; 1 when not legal."""
    from szwadron.cli._common import print_json
    from szwadron.errors import InvalidDataError
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.table.movement import reform

    for flag, given in (
        ("--charge", bool(args.charge)),
        ("--march", args.march),
        ("--after-fire", args.after_fire is not None),
        ("--plot", args.plot is not None),
    ):
        if given:
            raise InvalidDataError(_("{flag} does not go with --reform (6.8.5)").format(flag=flag))
    if len(args.unit) != 1:
        raise InvalidDataError(_("--reform: name one --unit"))
    if args.apply:
        return _apply_reform(args)
    r = reform(Battlefield(load_scenario(args.scenario)), args.unit[0])
    if args.json:
        print_json(r.to_json())
        return 0 if r.legal else 1
    groups = "; ".join(", ".join(g) for g in r.groups)
    if not r.needed:
        print(_("{unit}: coherent (1.3.1): no re-forming move needed").format(unit=r.unit))
        return 0
    print(_("{unit}: not coherent — groups: {groups} (1.3.2, 6.8.5)").format(unit=r.unit, groups=groups))
    assert r.move is not None and r.report is not None
    for pose in r.move["bases"]:
        print(
            "  "
            + _("close up {base} to ({x:.2f}, {y:.2f}), facing {facing}").format(
                base=f"{r.unit}/{pose['index']}", x=pose["x"], y=pose["y"], facing=f"{pose['facing']:g}"
            )
        )
    print(format_report(r.report))
    return 0 if r.legal else 1


def _apply_repulse(args: argparse.Namespace, unit: str, enemy: str) -> int:
    """``--repulse ENEMY --apply``: 6.5 — the repulse move written to the next position, made at
    once as the result of a fire or melee; blocked, the unit panics (6.5.5)."""
    from szwadron.cli._game import run_apply, show_applied
    from szwadron.game.apply import apply_repulse
    from szwadron.table.movement import MoveReport

    def render(applied: Any) -> str:
        r = applied.report
        if r is None or isinstance(r, MoveReport):  # 6.7.9: the move of 6.8.5 (none when coherent)
            return format_report(r) if r is not None else ""
        return format_report(r.report) if r.report is not None and not r.blocked else ""

    return show_applied(args, *run_apply(args, lambda pos: apply_repulse(pos, unit, enemy)), render)


def _apply_reform(args: argparse.Namespace) -> int:
    """``--reform --apply``: the re-forming move (1.3.2, 6.8.5; in the morale phase for a unit
    that reorganised in it, 2.2.1 III) written to the next position; 1 when no legal move makes
    the unit coherent, 2 when it is coherent already (nothing to apply)."""
    from szwadron.cli._game import run_apply
    from szwadron.errors import IllegalActionError, InvalidDataError
    from szwadron.game.apply import Applied, Position, apply_move
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.table.movement import reform

    unit = args.unit[0]

    def compute(pos: Position) -> Applied:
        r = reform(Battlefield(pos.scenario), unit)
        if not r.needed:
            raise InvalidDataError(_("{unit}: coherent (1.3.1): no re-forming move needed").format(unit=unit))
        if not r.legal or r.move is None:
            rule = r.report.rule if r.report is not None and r.report.rule else "6.8.5"
            message = r.report.message if r.report is not None else _("no legal move makes it coherent")
            raise IllegalActionError(str(rule), message)
        return apply_move(pos, unit, r.move, source="--reform")

    return print_applied(args, *run_apply(args, compute))


def _apply(args: argparse.Namespace) -> int:
    """``--apply``: the legal move's poses written to the next position (issue 17)."""
    from szwadron.cli._game import run_apply
    from szwadron.cli._pictures import plot_move_answer
    from szwadron.game.apply import Applied, Position, apply_move
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.table.movement import load_move_file

    move = load_move_file(args.to)

    def compute(pos: Position) -> Applied:
        after = None
        if args.after_fire is not None:
            after = _the_fire(Battlefield(pos.scenario), args)
        return apply_move(
            pos, args.unit, move, charge=args.charge, march=args.march, after_fire=after, source=str(args.to)
        )

    code, applied = run_apply(args, compute)
    print_applied(args, code, applied)
    if applied is not None and args.plot is not None:
        plot_move_answer(args, applied.report)
    return code


def print_applied(args: argparse.Namespace, code: int, applied: Any) -> int:
    """An applied move (``--apply``, ``--reform --apply``): its report and what was written."""
    from szwadron.cli._game import show_applied

    return show_applied(args, code, applied, lambda a: format_report(a.report))


def _the_fire(bf: Battlefield, args: argparse.Namespace) -> FireResult:
    """4.2, 4.9 — the fire the move follows: ``--unit`` at ``--after-fire`` with the ``--fired``
    bases, or with the bases that could fire (all declared, those refused left out)."""
    from szwadron.errors import InvalidDataError
    from szwadron.table.fire import fire

    if len(args.unit) != 1:
        raise InvalidDataError(
            _("--after-fire: a move after fire (4.9) is of the firing unit alone; name one --unit")
        )
    unit = args.unit[0]
    if args.fired is not None:
        return fire(bf, unit, args.after_fire, bases=args.fired, march=args.march)
    every = fire(bf, unit, args.after_fire, march=args.march)
    could = [s.base for s in every.shooters if s.can_fire]
    if not could or len(could) == len(every.shooters):
        return every
    return fire(bf, unit, args.after_fire, bases=could, march=args.march)


def format_report(report: MoveReport) -> str:
    """The human report: verdict, violations, then each base's distance and surcharges."""
    what = _("charge on {units}").format(units=", ".join(report.charge)) if report.charge else _("move")
    if report.push_up is not None:
        what = _("push-up towards {unit} (5.6)").format(unit=report.push_up)
    units = ", ".join(report.units)
    after = ""
    if report.after_fire is not None:
        after = " " + _("after fire at {target} (4.9)").format(target=report.after_fire.target)
    march = " " + _("(on the march)") if report.march else ""
    legal, illegal = _("LEGAL"), _("ILLEGAL")
    if report.push_up is not None:  # "dosuwanie": another word's gender in Polish
        legal, illegal = pgettext("melee move", "LEGAL"), pgettext("melee move", "ILLEGAL")
    lines = [
        f"{units}: {what}{march}{after} — "
        + (legal if report.legal else illegal + f" [{report.rule}] {report.message}")
    ]
    if len(report.violations) > 1:
        lines.append("")
        lines.append(_("Violations ({n})").format(n=len(report.violations)))
        lines += [f"  [{v.rule}] {v.message}" for v in report.violations]
    lines.append("")
    lines.append(_("Distance per base (PD-6: path of the corner that travels furthest + terrain, 3.2)"))
    for b in report.bases:
        extra = "".join(f" + {s.cm:.2f} ({s.rule} {term(s.source)})" for s in b.surcharges)
        flag = "" if b.distance <= b.allowed + 1e-6 else "  " + _("TOO FAR")
        lines.append(
            f"  {b.base}: {b.path:.2f} ({term(b.corner)}){extra} = "
            + _("{distance:.2f} of {allowed:g} cm").format(distance=b.distance, allowed=b.allowed)
            + flag
        )
    none = _("none")
    if list(report.order) != [b.base for b in report.bases]:
        lines.append(_("Order of the figures (3.1.1): {order}").format(order=", ".join(report.order)))
    if report.charge:
        lines.append(
            _("In contact with the charged unit: ")
            + (", ".join(report.contacts) if report.contacts else none)
        )
    if report.after_fire is not None:
        a = report.after_fire
        lines.append(
            _(
                "Declared as firing (may not move, 4.9.1): {declared}; fired (lines of fire closed, 4.9.4): {fired}"
            ).format(declared=", ".join(a.declared) or none, fired=", ".join(a.fired) or none)
        )
    for note in report.notes:
        lines.append(_("note: {note}").format(note=note))
    return "\n".join(lines)


__all__ = ["answer_move", "format_report", "print_applied", "register", "run"]
