"""``szwadron morale SCENARIO --side A|B`` — the morale phase of one side (2.2, 6.8) with exact odds.

For every unit of the side not in the normal state: may it try to reorganise (6.8.2, 6.8.3) and
its chance (6.8.4); for a panicking unit, its flight (6.6.2), the chance it leaves the table
(6.6.13), surrender (6.6.12) and the own units it passes through (6.4.3, 6.6.11); for a pursuing
unit, its pursuit (6.7.1). Then the casualty-test table (6.2.4, 6.3) of every unit of the side.
The flight model and its decisions: :mod:`szwadron.table.morale_phase`.
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.cli._game import add_apply_options, add_dice_options
from szwadron.cli._pictures import add_plot_option


def _side(text: str) -> str:
    side = text.strip().upper()
    if side not in ("A", "B"):
        raise argparse.ArgumentTypeError(f"expected A or B, got {text!r}")
    return side


def register(subparsers: Any) -> None:
    """Add the ``morale`` command."""
    parser = subparsers.add_parser(
        "morale",
        help="the morale phase of one side: reorganisation, flight, pursuit, with exact odds",
        description=(
            "The morale phase (2.2, 6.8) of one side: for every unit in panic or uncontrolled "
            "pursuit, whether it may reorganise and its chance, how far it flees, the chance it "
            "leaves the table or surrenders and whom it passes through; the pursuit of pursuing "
            "units; and the casualty-test table (6.2.4) of every unit of the side."
        ),
    )
    parser.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    parser.add_argument(
        "--side",
        type=_side,
        required=True,
        metavar="A|B",
        help="the side whose morale phase it is, A or B as in the scenario (2.2, 6.8)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    add_apply_options(parser, "reorganisations, flights, surrenders and the tests of units fled through")
    add_dice_options(
        parser,
        "unit by unit: its reorganisation test, then its 2d6 flight and the tests of own units it flees through",
    )
    add_plot_option(
        parser,
        "a close-up of the flight corridors beside each fleeing unit's "
        "flight distances and chance to leave the table",
    )
    parser.set_defaults(func=run)


def _pct(p: Any) -> str:
    from szwadron.cli._common import fmt_prob

    return fmt_prob(float(p))


def _render(report: Any) -> str:
    lines = [f"Morale phase of side {report.side} — {report.scenario} (2.2, 6.8)"]
    if not report.units:
        lines.append("Every unit of the side is in the normal state: nothing to do.")
    for u in report.units:
        lines.append("")
        plural = "s" if u.strength != 1 else ""
        lines.append(f"{u.id}  {u.state}  ({u.kind}, {u.strength} figure{plural})")
        if u.may_reorganise:
            lines.append(f"  reorganise: may try — {u.reason}; chance {_pct(u.reorganise_chance)} (6.8.4)")
        else:
            lines.append(f"  reorganise: may not — {u.reason}")
        if u.pursuit is not None:
            p = u.pursuit
            if p.distance is None:
                lines.append("  pursuit: artillery never pursues (6.7.1)")
            elif p.target is None:
                lines.append("  pursuit: no enemy unit on the table")
            else:
                lines.append(
                    f"  pursuit of {p.target}, {p.gap_cm:.2f} cm away: 2d6 × "
                    f"{p.distance.outcomes()[0] // 2} cm; reaches it: {_pct(p.reach_chance)} (6.7.1)"
                )
                for w in p.on_the_way:
                    lines.append(
                        f"    on the way: {w.unit}, met after {w.from_cm:.2f} cm by {', '.join(w.figures)}; "
                        f"may be attacked: {_pct(w.chance)} (6.7.5)"
                    )
            continue
        if u.flight_multiplier == 0:
            lines.append("  flight: does not flee (foot artillery with R = 0, 6.6.2)")
            continue
        lo, hi = min(f.edge_cm for f in u.figures), max(f.edge_cm for f in u.figures)
        away = f"{lo:.2f}" if round(lo, 2) == round(hi, 2) else f"{lo:.2f}–{hi:.2f}"
        lines.append(
            f"  if not reorganised ({_pct(u.flight_chance)}): flees 2d6 × {u.flight_multiplier} cm "
            f"straight towards its edge, {away} cm away (6.6.2)"
        )
        lines.append(
            f"  leaves the table: {_pct(u.off_table_chance)} (6.6.13); "
            f"every figure removed: {_pct(u.removed_chance)}"
        )
        exp = u.figures_lost.mean()
        lines.append(f"  figures lost on average: {float(exp):.2f} of {u.strength}")
        stopped = [f for f in u.figures if f.blocked_by is not None]
        if stopped:
            who = ", ".join(f"{f.base} by {f.blocked_by} at {f.blocked_cm:.2f} cm" for f in stopped)
            lines.append(f"  blocked: {who}")
        verdict = "must surrender if it flees" if u.surrenders else f"chance {_pct(u.surrender_chance)}"
        lines.append(f"  surrender (6.6.12): {verdict}")
        for pt in u.pass_through:
            test = (
                "no test (already panicking)"
                if pt.test_pass is None
                else f"test passes {_pct(pt.test_pass)}, panics {_pct(pt.panic_chance)}"
            )
            lines.append(
                f"  passes through {pt.unit} from {pt.from_cm:.2f} cm: {_pct(pt.chance)}; {test} (6.4.3)"
            )
    lines.append("")
    lines.append("Casualty tests (6.2.4, 6.3): pass / repulsed / panic after losing figures")
    for c in report.casualty_tests:
        head = f"{c.id} ({c.state}, M {c.morale}, {c.strength}/{c.initial}"
        head += f", modifier {c.modifier:+d})" if c.modifier else ")"
        if not c.takes_tests:
            lines.append(f"  {head}: panicking, takes no tests for losses (6.6.14)")
            continue
        groups: list[list[Any]] = []
        for row in c.rows:  # rows where the target does not change print as one range
            if groups and groups[-1][-1].target == row.target:
                groups[-1].append(row)
            else:
                groups.append([row])
        parts = []
        for group in groups:
            first, last = group[0].lost, group[-1].lost
            lost = f"{first}" if first == last else f"{first}–{last}"
            t = group[0].test
            parts.append(f"lose {lost} → {_pct(t.passed)}/{_pct(t.repulsed)}/{_pct(t.panic)}")
        lines.append(f"  {head}: " + "; ".join(parts))
    return "\n".join(lines)


def _check_dice(args: argparse.Namespace) -> None:
    from szwadron.cli._game import check_dice_options

    check_dice_options(args, "the morale phase")


def _apply(args: argparse.Namespace) -> int:
    """``--apply``: the phase resolved with the dice and written to the next position (issue 17)."""
    from szwadron.cli._common import print_json
    from szwadron.cli._game import applied_json, format_applied, run_apply
    from szwadron.game.apply import Applied, Position, apply_morale

    def compute(pos: Position) -> Applied:
        return apply_morale(pos, args.side, dice=args.dice, seed=args.seed if args.roll else None)

    code, applied = run_apply(args, compute)
    if applied is None:
        return code
    if args.json:
        print_json(applied_json(args, applied))
        return code
    print(_render(applied.report))
    lines = ["", "Rolled"]
    for r in applied.dice["rolls"]:
        if r["test"] == "flight":
            lines.append(
                f"  {r['unit']} flees: {' + '.join(map(str, r['faces']))} → {r['cm']} cm, {r['removed']} figure(s) removed"
            )
        else:
            verdict = "pass" if r["passed"] else "fail"
            lines.append(f"  {r['unit']} {r['test']} test: rolled {r['face']} vs ≤{r['target']} — {verdict}")
    if not applied.dice["rolls"]:
        lines.append("  nothing to roll")
    print("\n".join(lines))
    print(format_applied(args, applied))
    return code


def run(args: argparse.Namespace) -> int:
    """Load the scenario, compute the phase, print it."""
    from szwadron.cli._common import print_json
    from szwadron.cli._pictures import check_plot_option, plot_morale_answer
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.table.morale_phase import morale_phase

    check_plot_option(args)
    _check_dice(args)
    if args.apply:
        return _apply(args)
    bf = Battlefield(load_scenario(args.scenario))
    report = morale_phase(bf, args.side)
    if args.json:
        print_json(report.to_json())
    else:
        print(_render(report))
    if args.plot is not None:
        plot_morale_answer(args, report)
    return 0


__all__ = ["register", "run"]
