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

from szwadron.cli._game import add_apply_options, add_dice_options, roll_lines
from szwadron.cli._pictures import add_plot_option
from szwadron.i18n import _, ngettext, term


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
    add_apply_options(
        parser, "reorganisations, flights, surrenders, the tests of units fled through and the pursuit moves"
    )
    add_dice_options(
        parser,
        "in the order of 2.2.1: every reorganisation test; then each flight's 2d6 and the tests of the own units "
        "it flees through (and the flights those tests cause); then each pursuit's 2d6, this side's pursuers first, "
        "then the enemy's pursuing this side's units",
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


# long: the morale phase report: per unit its reorganisation, flight, pursuit and the casualty-test table.
def _render(report: Any, enemy_moves: bool = False) -> str:
    lines = [
        _("Morale phase of side {side} — {scenario} (2.2, 6.8)").format(
            side=report.side, scenario=report.scenario
        )
    ]
    if not report.units and not enemy_moves:
        lines.append(_("Every unit of the side is in the normal state: nothing to do."))
    elif not report.units:  # 2.2.1 V: the enemy's pursuers move all the same
        lines.append(_("Every unit of the side is in the normal state."))
    for u in report.units:
        lines.append("")
        figures = ngettext("{n} figure", "{n} figures", u.strength).format(n=u.strength)
        lines.append(f"{u.id}  {term(u.state)}  ({term(u.kind)}, {figures})")
        if u.may_reorganise:
            lines.append(
                "  "
                + _("reorganise: may try — {reason}; chance {p} (6.8.4)").format(
                    reason=u.reason, p=_pct(u.reorganise_chance)
                )
            )
        else:
            lines.append("  " + _("reorganise: may not — {reason}").format(reason=u.reason))
        if u.pursuit is not None:
            p = u.pursuit
            if p.distance is None:
                lines.append("  " + _("pursuit: artillery never pursues (6.7.1)"))
            elif p.target is None:
                lines.append("  " + _("pursuit: no enemy unit on the table"))
            else:
                lines.append("  " + _pursuit_line(p, p.reach_chance))
                for w in p.on_the_way:
                    lines.append(
                        "    "
                        + _(
                            "on the way: {unit}, met after {cm:.2f} cm by {figures}; may be attacked: {p} (6.7.5)"
                        ).format(unit=w.unit, cm=w.from_cm, figures=", ".join(w.figures), p=_pct(w.chance))
                    )
            continue
        if u.flight_multiplier == 0:
            lines.append("  " + _("flight: does not flee (foot artillery with R = 0, 6.6.2)"))
            continue
        lo, hi = min(f.edge_cm for f in u.figures), max(f.edge_cm for f in u.figures)
        away = f"{lo:.2f}" if round(lo, 2) == round(hi, 2) else f"{lo:.2f}–{hi:.2f}"
        lines.append(
            "  "
            + _(
                "if not reorganised ({p}): flees 2d6 × {step} cm straight towards its edge, {away} cm away (6.6.2)"
            ).format(p=_pct(u.flight_chance), step=u.flight_multiplier, away=away)
        )
        lines.append(
            "  "
            + _("leaves the table: {p} (6.6.13); every figure removed: {removed}").format(
                p=_pct(u.off_table_chance), removed=_pct(u.removed_chance)
            )
        )
        exp = u.figures_lost.mean()
        lines.append(
            "  " + _("figures lost on average: {mean:.2f} of {n}").format(mean=float(exp), n=u.strength)
        )
        stopped = [f for f in u.figures if f.blocked_by is not None]
        if stopped:
            who = ", ".join(
                _("{base} by {blocker} at {cm:.2f} cm").format(
                    base=f.base, blocker=_(f.blocked_by), cm=f.blocked_cm
                )
                for f in stopped
            )
            lines.append("  " + _("blocked: {who}").format(who=who))
        verdict = (
            _("must surrender if it flees")
            if u.surrenders
            else _("chance {p}").format(p=_pct(u.surrender_chance))
        )
        lines.append("  " + _("surrender (6.6.12): {verdict}").format(verdict=verdict))
        for pt in u.pass_through:
            test = (
                _("no test (already panicking)")
                if pt.test_pass is None
                else _("test passes {p}, panics {panic}").format(
                    p=_pct(pt.test_pass), panic=_pct(pt.panic_chance)
                )
            )
            lines.append(
                "  "
                + _("passes through {unit} from {cm:.2f} cm: {p}; {test} (6.4.3)").format(
                    unit=pt.unit, cm=pt.from_cm, p=_pct(pt.chance), test=test
                )
            )
    lines.append("")
    lines.append(_("Casualty tests (6.2.4, 6.3): pass / repulsed / panic after losing figures"))
    for c in report.casualty_tests:
        head = f"{c.id} ({term(c.state)}, M {c.morale}, {c.strength}/{c.initial}"
        head += ", " + _("modifier {m:+d}").format(m=c.modifier) + ")" if c.modifier else ")"
        if not c.takes_tests:
            lines.append(f"  {head}: " + _("panicking, takes no tests for losses (6.6.14)"))
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
            parts.append(
                _("lose {lost} → {passed}/{repulsed}/{panic}").format(
                    lost=lost, passed=_pct(t.passed), repulsed=_pct(t.repulsed), panic=_pct(t.panic)
                )
            )
        lines.append(f"  {head}: " + "; ".join(parts))
    return "\n".join(lines)


def _check_dice(args: argparse.Namespace) -> None:
    from szwadron.cli._game import check_dice_options

    check_dice_options(args, _("the morale phase"))


def _apply(args: argparse.Namespace) -> int:
    """``--apply``: the phase resolved with the dice and written to the next position (issue 17)."""
    from szwadron.cli._game import run_apply, show_applied
    from szwadron.game.apply import Applied, Position, apply_morale

    def compute(pos: Position) -> Applied:
        return apply_morale(pos, args.side, dice=args.dice, seed=args.seed if args.roll else None)

    def render(applied: Applied) -> str:
        lines = [_render(applied.report), "", _("Rolled"), *roll_lines(applied.dice["rolls"])]
        if not applied.dice["rolls"]:
            lines.append("  " + _("nothing to roll"))
        return "\n".join(lines)

    return show_applied(args, *run_apply(args, compute), render)


def _pursuit_line(p: Any, reach: Any) -> str:
    """6.7.1, 6.7.4 — a pursuit's target, gap, its shortest way into contact (as the move takes
    it; 3.2, with how much of it the terrain costs; none where terrain, 3.2, or the enemy met on
    the way, 6.7.5, leaves no figure one), distance rolled and chance ``reach`` to get there."""
    step = p.distance.outcomes()[0] // 2
    if p.way_cm is None:
        return _(
            "pursuit of {target}, {cm:.2f} cm away, no way into contact (3.2, 6.7.5): 2d6 × {step} cm; "
            "reaches it: {p} (6.7.1)"
        ).format(target=p.target, cm=p.gap_cm, step=step, p=_pct(reach))
    if p.terrain_cm > 0:  # 3.2: the way's terrain surcharges, paid by the roll
        return _(
            "pursuit of {target}, {cm:.2f} cm away, {way:.2f} cm to contact ({terrain:.2f} cm of it for "
            "terrain, 3.2): 2d6 × {step} cm; reaches it: {p} (6.7.1)"
        ).format(target=p.target, cm=p.gap_cm, way=p.way_cm, terrain=p.terrain_cm, step=step, p=_pct(reach))
    return _(
        "pursuit of {target}, {cm:.2f} cm away, {way:.2f} cm to contact: 2d6 × {step} cm; reaches it: {p} (6.7.1)"
    ).format(target=p.target, cm=p.gap_cm, way=p.way_cm, step=step, p=_pct(reach))


def _enemy_pursuers(report: Any) -> list[str]:
    """2.2.1 V — the enemy's units pursuing this side's units, which move (and may fight) in this
    phase, with no reorganisation test here: each pursuit and its chance to reach its target —
    after the target's own flight where it panics (2.2.1 IV comes first)."""
    lines = []
    for u in report.enemy_pursuits:
        p = u.pursuit
        if p is None or p.distance is None or p.gap_cm is None:
            continue
        lines.append(f"  {u.id}: " + _pursuit_line(p, p.reach_chance))
        if p.flees_first is not None:
            lines.append(
                "    "
                + _(
                    "{target} flees first (2.2.1 IV) unless it reorganises: {p}; the chance to reach counts "
                    "its flight (6.6.2)"
                ).format(target=p.target, p=_pct(p.flees_first))
            )
    return lines


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
    report = morale_phase(bf, args.side, enemy_pursuits=True)
    if args.json:
        print_json(report.to_json())
    else:
        enemy = _enemy_pursuers(report)
        print(_render(report, bool(enemy)))
        if enemy:
            print()
            print(_("the enemy's units pursuing this side's units move in this phase too (2.2.1 V):"))
            print("\n".join(enemy))
    if args.plot is not None:
        plot_morale_answer(args, report)
    return 0


__all__ = ["register", "run"]
