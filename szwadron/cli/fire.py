"""``szwadron fire SCENARIO --shooter UNIT --target UNIT`` — fire at the table (section 4, 7.1,
7.3, 7.4): per shooting base whether it can fire, through which edge, at which target bases, how
far, at what accuracy, with how many dice, or the first rule that stops it; per target base
whether it can be hit and its W with each cover source; the removal order; then the exact volley
and morale odds.

Fire in the opponent's turn (4.12): ``--target-at MOVEFILE`` places the target's bases at the
poses of a move file (the point at which its move is interrupted, 4.12.3) before the fire;
``--reaction declared`` applies 4.12.2-4.12.5 (out of range at the interrupt point: the fire is
lost, 4.12.4), ``--reaction charged`` the undeclared fire at a charging unit, 4.12.6 (the shooter
in normal morale and not engaged, having stood without acting in its own turn). With
``--apply`` both are rolled and written: a target fired at ``--target-at`` that is repulsed or
panics stops there; one that stands goes on with its move.

Exit codes: 0 the unit can fire, 1 it cannot (the JSON or report says which rule stops it),
2 bad input (unknown ids, an ally as target, an unknown ammunition, a move file for another
unit, ...).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.cli._common import base_list, fmt_prob, format_pmf_table, print_json
from szwadron.cli._game import add_apply_options, dice_list, morale_test_name
from szwadron.cli._pictures import add_plot_option
from szwadron.i18n import _, ngettext, term

if TYPE_CHECKING:
    from szwadron.table.fire import FireResult


def register(subparsers: Any) -> None:
    """Add the ``fire`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "fire",
        help="can this unit fire at that one, base by base, and what will the volley do",
        description=(
            "Fire at the table: arcs and blocked edges (4.4, PD-8), line of sight and band (4.3, "
            "PD-7), levels and terrain (4.10, PD-11, PD-12), range and accuracy (4.5, PD-9), "
            "cover and the removal order (4.7, 4.10.8, PD-13), then the exact volley and morale "
            "odds. Fire in the opponent's turn (4.12): --target-at places the target at the "
            "interrupt point, --reaction applies the conditions of 4.12.2-4.12.6. Exit code 1 "
            "when the unit cannot fire at the target."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("--shooter", required=True, metavar="UNIT", help="the firing unit")
    _add_target_and_declare(p)
    p.add_argument(
        "--bases",
        type=base_list,
        metavar="B1,B2",
        help="only these bases fire, as declared (4.2); the others may move after the fire (4.9): "
        "a comma list of UNIT/INDEX or INDEX; default: all",
    )
    p.add_argument(
        "--march",
        action="store_true",
        help="fire on the march: the unit also moves up to half R and each figure's SO is halved, "
        "the total rounded down (4.11; never artillery, 7.1.2)",
    )
    p.add_argument(
        "--ammo",
        metavar="NAME",
        help="the guns' ammunition, named as in their profile (roundshot, canister, ...), each with its "
        "own range, SO and C (7.1.3); default: the one expected to remove most",
    )
    _add_reaction_options(p)
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_apply_options(p, "casualties removed in the order of 4.7, the morale test of 4.8.1, states set")
    p.add_argument(
        "--dice",
        type=dice_list,
        metavar="1,4,6,...",
        help="with --apply: the volley's d6, as many as it rolls, in the order of its groups",
    )
    p.add_argument(
        "--remainder-dice",
        type=dice_list,
        metavar="F,...",
        help="with --apply --dice: the remainder roll's die (1.5.1), rerolls included",
    )
    p.add_argument(
        "--morale-dice",
        type=dice_list,
        metavar="F[,F]",
        help="with --apply --dice: the target's morale test (4.8.1, 6.3): the repulse die, "
        "then the panic die when the first fails",
    )
    p.add_argument("--roll", action="store_true", help="with --apply: roll every die (seeded by --seed)")
    p.add_argument("--seed", type=int, metavar="N", help="with --roll: the seed of the dice")
    add_plot_option(
        p,
        "a close-up of the table with the sight lines and bands, blocked ones "
        "and their blockers in red, beside the volley and morale charts",
    )
    p.set_defaults(func=run)


def _add_reaction_options(p: argparse.ArgumentParser) -> None:
    """``--target-at`` and ``--reaction``: fire in the opponent's turn (4.12)."""
    p.add_argument(
        "--target-at",
        metavar="MOVEFILE",
        help="fire at an enemy whose move you interrupt (4.12.3) or at a charger before its contact "
        "(4.12.6): first place the target's bases where you fire at it, from a move file ([[bases]] "
        "with index, x, y, facing; bases not listed stay); with --apply a target repulsed or "
        "panicking stops there, one that stands goes on with its move",
    )
    p.add_argument(
        "--reaction",
        choices=("declared", "charged"),
        help="fire in the opponent's turn (4.12): 'declared': the shooter declared it in its own "
        "turn and fires at the enemy whose move it interrupts (with --target-at; lost if out of "
        "range, 4.12.4) or at the end of the opponent's phase (4.12.5); 'charged': undeclared, "
        "at the first unit charging it, only in normal morale and not engaged (4.12.6)",
    )


def _add_target_and_declare(p: argparse.ArgumentParser) -> None:
    """``--target``, or ``--declare`` (4.12.2) instead."""
    p.add_argument("--target", metavar="UNIT", help="the enemy unit fired at (required but with --declare)")
    p.add_argument(
        "--declare",
        action="store_true",
        help="with --apply: instead of firing now, the shooter declares fire in the opponent's turn "
        "(4.12.2), its action; it fires it with --reaction declared --apply in the opponent's "
        "movement phase, or loses it at that phase's end (4.12.5)",
    )


def run(args: argparse.Namespace) -> int:
    """Load, answer, print; 0 when the unit can fire, 1 when it cannot."""
    from szwadron.cli._pictures import check_plot_option, plot_fire_answer
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.movefile import load_move_file
    from szwadron.table.fire import fire

    check_plot_option(args)
    _check_dice_options(args)
    if args.apply:
        return _apply(args)
    bf = Battlefield(load_scenario(args.scenario))
    move = None if args.target_at is None else load_move_file(args.target_at)
    result = fire(
        bf,
        args.shooter,
        args.target,
        bases=args.bases,
        march=args.march,
        ammunition=args.ammo,
        target_poses=move,
        reaction=args.reaction,
        source=str(args.target_at),
    )
    if args.json:
        print_json(result.to_json())
    else:
        text = format_result(result)
        note = (
            _may_not_act(bf, args)
            if result.legal and args.reaction is None and args.target_at is None
            else None
        )
        if note:  # under the verdict
            verdict, _nl, rest = text.partition("\n")
            text = f"{verdict}\n{note}\n{rest}"
        print(text)
    if args.plot is not None:  # on the table the answer was computed on (the target placed, 4.12.3)
        plot_fire_answer(args, bf if result.table is None else result.table, result)
    return 0 if result.legal else 1


def _may_not_act(bf: Any, args: argparse.Namespace) -> str | None:
    """2.3, 4.1.1, 6.1 — when the position says whose turn it is, why the shooter may not fire now
    (it has acted, it is not its side's movement phase, ...): the geometry still answers."""
    from szwadron.cli._game import may_not_act
    from szwadron.models import UnitAction

    return may_not_act(bf.scenario, args.shooter, "fire", UnitAction.MARCH_MOVE if args.march else None)


def _check_dice_options(args: argparse.Namespace) -> None:
    """Usage errors of the dice options, before any work."""
    from szwadron.cli._game import check_apply_options
    from szwadron.errors import InvalidDataError

    check_apply_options(args)
    given = [
        f
        for f, v in (
            ("--dice", args.dice),
            ("--remainder-dice", args.remainder_dice),
            ("--morale-dice", args.morale_dice),
            ("--roll", args.roll),
        )
        if v
    ]
    if args.declare:  # 4.12.2: an action without a target or dice
        if not args.apply:
            raise InvalidDataError(
                _("--declare: only with --apply (the declaration is written to the table)")
            )
        extra = [*given, *(f for f, v in (("--target", args.target), ("--reaction", args.reaction)) if v)]
        if extra:
            raise InvalidDataError(
                _("{flag} does not go with --declare: a declaration names no target and rolls no die").format(
                    flag=extra[0]
                )
            )
        return
    if args.target is None:
        raise InvalidDataError(_("--target: name the enemy unit fired at (or --declare, 4.12.2)"))
    if not args.apply:
        if given:
            raise InvalidDataError(
                _("{flag}: only with --apply (apply the fire to the table)").format(flag=given[0])
            )
        if args.seed is not None:
            raise InvalidDataError(_("--seed: only with --apply --roll"))
        return
    if args.roll and args.dice is not None:
        raise InvalidDataError(_("--roll: give either --dice (and its companions) or --roll, not both"))
    if args.roll and (args.remainder_dice or args.morale_dice):
        raise InvalidDataError(
            _("--roll: every die is rolled; --remainder-dice and --morale-dice go with --dice")
        )
    if args.seed is not None and not args.roll:
        raise InvalidDataError(_("--seed: only with --roll"))
    if args.roll and args.seed is None:
        raise InvalidDataError(_("--roll: give --seed N, so that the game log can tell the dice"))
    if args.target_at is not None and args.reaction is None:
        raise InvalidDataError(
            _(
                "--target-at with --apply: only for a fire in the opponent's turn (--reaction declared, "
                "4.12.3, or --reaction charged, 4.12.6)"
            )
        )


def _apply(args: argparse.Namespace) -> int:
    """``--apply``: the fire resolved with the dice and written to the next position (issue 17)."""
    from szwadron.cli._common import print_json
    from szwadron.cli._game import applied_json, format_applied, run_apply
    from szwadron.game.apply import Applied, Position, apply_declare, apply_fire
    from szwadron.movefile import load_move_file

    move = None if args.target_at is None else load_move_file(args.target_at)

    def compute(pos: Position) -> Applied:
        if args.declare:
            return apply_declare(pos, args.shooter)
        return apply_fire(
            pos,
            args.shooter,
            args.target,
            bases=args.bases,
            march=args.march,
            ammunition=args.ammo,
            dice=args.dice,
            remainder_dice=args.remainder_dice,
            morale_dice=args.morale_dice,
            seed=args.seed if args.roll else None,
            declared=args.reaction == "declared",
            charged=args.reaction == "charged",
            target_at=move,
            source=str(args.target_at),
        )

    code, applied = run_apply(args, compute)
    if applied is None:
        return code
    if args.json:
        print_json(applied_json(args, applied))
    else:
        if applied.report is not None:  # a declaration has no fire to show
            print(format_result(applied.report))
            if "lost" not in applied.ruling:  # 4.5.5: out of range, nothing rolled
                print(format_rolled(applied))
        print(format_applied(args, applied))
    return code


def format_rolled(applied: Any) -> str:
    """The dice of an applied fire and what they did."""
    dice, ruling = applied.dice, applied.ruling
    lines = ["", _("Rolled")]
    for g in dice["volley"]:
        lines.append(
            "  "
            + dice_on(g["dice"], g["accuracy"])
            + f": {' '.join(map(str, g['faces']))} — "
            + ngettext("{n} scored", "{n} scored", g["scored"]).format(n=g["scored"])
        )
    rem = dice.get("remainder")
    if rem is not None:
        verdict = _("one more figure") if rem["extra"] else _("no extra figure")
        lines.append(
            "  "
            + _("remainder {r}/{w} ({instruction} on a {die})").format(
                r=rem["remainder"], w=rem["wounds"], instruction=rem["instruction"], die=term(rem["die"])
            )
            + f": {' '.join(map(str, rem['faces']))} — {verdict} (1.5.1)"
        )
    removed = ", ".join(ruling["removed"]) or _("none")
    lines.append(
        "  " + _("damage {damage}: removed {removed} (4.7)").format(damage=ruling["damage"], removed=removed)
    )
    for t in dice.get("morale", []):
        lines.append(
            "  "
            + _("{test} test: rolled {face} vs ≤{target} — {verdict}").format(
                test=morale_test_name(t["test"]),
                face=t["face"],
                target=t["target"],
                verdict=_("pass") if t["passed"] else _("fail"),
            )
        )
    outcome = _("no test") if ruling["morale"] == "no_test" else term(ruling["morale"])
    lines.append("  " + _("morale: {outcome}").format(outcome=outcome))
    return "\n".join(lines)


def dice_on(dice: int, accuracy: int) -> str:
    """``12 d6 on ≤3``: so many six-sided dice, each scoring on the accuracy or less (4.6.3)."""
    return _("{n} d6 on ≤{c}").format(n=dice, c=accuracy)


def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))).rstrip() for r in rows]


# long: the fire report's sections in order (verdict, bases, removal order, odds, morale), each a few lines.
def format_result(r: FireResult) -> str:
    """The human report: verdict, shooting bases, target bases, removal order, odds, morale."""
    lines: list[str] = []
    ammo = " " + _("with {ammunition}").format(ammunition=r.ammunition) if r.ammunition else ""
    march = " " + _("on the march") if r.march else ""
    verdict = _("can fire") if r.legal else _("CANNOT fire")
    if r.reaction is not None and r.reaction.lost:
        verdict = _("the fire is LOST")
    turn = ""
    if r.reaction is not None:
        turn = " " + (
            _("in the opponent's turn, interrupting its move ({rule})")
            if r.reaction.rule == "4.12.3"
            else _("in the opponent's turn ({rule})")
        ).format(rule=r.reaction.rule)
    elif r.target_at:
        n = len(r.target_at)
        turn = " " + ngettext("placed at {n} given pose", "placed at {n} given poses", n).format(n=n)
    lines.append(
        _("{shooter} fires at {target}").format(shooter=r.shooter, target=r.target)
        + f"{ammo}{march}{turn}: {verdict}"
    )
    if r.reason is not None:
        lines.append(f"  [{r.reason.rule}] {r.reason.message}")
        if r.reason.rule == "4.5.1" and r.reaction is None:
            lines.append("  " + _("declared, a fire out of range costs the unit its action (4.5.5)"))
    lines.append("")
    lines.append(_("Shooting bases (4.4 arcs, 4.5 range and accuracy, PD-9)"))
    rows = [[_("base"), _("fires"), _("edge"), "cm", "C", _("dice"), _("targets / rule")]]
    yes, no = _("yes"), _("no")
    for s in r.shooters:
        what = (
            ", ".join(s.targets) + (" " + _("(indirect, 7.4)") if s.indirect else "")
            if s.can_fire
            else f"[{s.rule}] {s.message}"
        )
        rows.append(
            [
                s.base,
                yes if s.can_fire else no,
                term(s.edge) if s.edge else "-",
                "-" if s.distance is None else f"{s.distance:.2f}",
                "-" if s.accuracy is None else str(s.accuracy),
                str(s.dice),
                what,
            ]
        )
    lines += _table(rows)
    lines.append("")
    lines.append(_("Target bases (4.5.3 can be hit, W with cover 4.10)"))
    rows = [[_("base"), _("hit"), "W", _("cover / rule")]]
    for t in r.targets:
        cov = ", ".join(f"+{c.bonus} {term(c.source)} ({c.rule})" for c in t.cover)
        what = (
            cov
            if t.eligible
            else f"[{t.rule}] {t.message}" + ("; " + _("cover {cover}").format(cover=cov) if cov else "")
        )
        rows.append([t.base, yes if t.eligible else no, str(t.wounds), what])
    lines += _table(rows)
    note = "  " + _("note: {note}")
    if not r.legal or r.odds is None:
        lines += [note.format(note=text) for text in r.notes]
        return "\n".join(lines)
    lines.append("")
    lines.append(_("Removal order (4.7.2-4.7.4, 4.10.8, suggested): ") + ", ".join(r.removal_order))
    odds = r.odds
    dice_text = " + ".join(dice_on(g.dice, g.accuracy) for g in odds.groups)
    w_text = (
        f"W {odds.wounds}"
        if isinstance(odds.wounds, int)
        else _("W {wounds} in removal order").format(wounds=",".join(map(str, odds.wounds)))
    )
    lines.append("")
    lines.append(
        _("Volley: {dice} against {wounds} (remainder on a {die})").format(
            dice=dice_text, wounds=w_text, die=term(odds.die)
        )
    )
    for text in r.notes:
        lines.append(note.format(note=text))
    lines.append(
        format_pmf_table(
            {
                _("P(damage=k)"): odds.damage_pmf,
                _("P(removed=k)"): odds.removed_pmf,
                _("P(removed≥k)"): odds.at_least,
            }
        )
    )
    lines.append(
        _(
            "figures removed: mean {mean:.3f}, sd {sd:.3f}; damage: mean {damage_mean:.3f}, sd {damage_sd:.3f}"
        ).format(
            mean=odds.expected, sd=odds.sd, damage_mean=float(odds.damage.mean()), damage_sd=odds.damage.sd()
        )
    )
    m = r.morale_test
    parts = " · ".join(f"{term(k).replace('_', ' ')} {fmt_prob(v)}" for k, v in r.to_json()["morale"].items())
    lines.append(morale_heading(m.morale, m.strength, m.initial, m.modifier) + f": {parts}")
    return "\n".join(lines)


def morale_heading(morale: int, strength: int, initial: int, modifier: int) -> str:
    """``morale (M 4, 12 of 12 figures, modifier -1)`` (6.2.4)."""
    figures = ngettext("{strength} of {n} figure", "{strength} of {n} figures", initial).format(
        strength=strength, n=initial
    )
    mod = ", " + _("modifier {m:+d}").format(m=modifier) if modifier else ""
    return _("morale (M {morale}, {figures}{modifier})").format(morale=morale, figures=figures, modifier=mod)
