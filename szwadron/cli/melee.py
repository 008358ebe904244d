"""``szwadron melee SCENARIO --attacker UNIT [UNIT ...] --defender UNIT [UNIT ...] [--continuing] [--json]``.

The figures in contact on both sides (5.3.2, PD-14), their dice grouped by UW and terrain bonus
(5.7, 5.10.3, PD-15), whether every defender holds an advantageous position (5.7.3), the exact
joint losses and 5.5 morale outcomes (as ``odds melee``), the removal order (5.4.3) and, for the
likeliest losses, who pushes up (5.6). With several units on a side, the combined melee of 5.10
(:func:`szwadron.table.combined.combined_melee`): every unit's figures in contact, the dice of
each side against each enemy unit by UW and terrain bonus, every unit's removal order, exact
losses and morale outcome; ``--declare-defence`` in a continuing melee is 5.7.4. Exit code 0; 1
when no figure is in contact; 2 for bad input (a unit named twice or on both sides).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.cli._game import add_apply_options, add_dice_options, add_pursue_option
from szwadron.cli._pictures import add_plot_option
from szwadron.i18n import _, ngettext, term

if TYPE_CHECKING:
    from szwadron.game.apply import Applied
    from szwadron.table.combined import CombinedMelee
    from szwadron.table.melee import TableMelee


def register(subparsers: Any) -> None:
    """Add the ``melee`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "melee",
        help="a melee at the table: figures in contact, dice groups, exact losses and morale",
        description=(
            "Read a melee off the table: which figures of the two units are in contact (at "
            "least 1 cm of base edge, PD-14), their melee dice grouped by UW and the defenders' "
            "terrain advantage (PD-15), then the exact joint losses and morale outcomes (5.3-5.5). "
            "Exit code 0; 1 when no figure is in contact; 2 for bad input."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument(
        "--attacker",
        required=True,
        nargs="+",
        action="extend",
        metavar="UNIT",
        help="the attacking unit; several (--attacker A B, or the option repeated): a combined melee (5.10)",
    )
    p.add_argument(
        "--defender",
        required=True,
        nargs="+",
        action="extend",
        metavar="UNIT",
        help="the defending unit; several (--defender A B, or the option repeated): a combined melee (5.10)",
    )
    p.add_argument(
        "--continuing",
        action="store_true",
        help="a later round of a melee already under way, not the charge: first strike 'on the "
        "charge' no longer counts, 'in defence' only with the terrain advantage (7.7)",
    )
    p.add_argument(
        "--declare-defence",
        action="store_true",
        help="with --continuing: the attackers, holding an advantageous position, declare defence "
        "instead of attack (5.7.4): both sides get the terrain bonus, the attackers test as defenders",
    )
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_apply_options(p, "figures removed (5.4), morale states set (5.5), engagement recorded")
    add_dice_options(
        p,
        "a panicking defender's strike-back test; each side's groups, each with its remainder "
        "roll; the 5.5 morale tests",
    )
    add_pursue_option(p, "the side whose opponent is repulsed or panics")
    add_plot_option(
        p,
        "a close-up of the figures in contact beside the joint-loss heatmap and "
        "the outcome bars (not written when no figure is in contact)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, read the melee, print; 1 when there is no contact."""
    from szwadron.cli._pictures import check_plot_option
    from szwadron.table.combined import combined_melee
    from szwadron.table.melee import table_melee

    check_plot_option(args)
    combined = len(args.attacker) > 1 or len(args.defender) > 1 or args.declare_defence
    if combined:
        _one_a_side_only(args)
    _check_dice(args)
    if combined and args.apply:
        return _apply_combined(args)
    if combined:  # 5.10, 5.7.4 — several units on a side (or defence declared)
        return _answer(
            args,
            lambda bf: combined_melee(
                bf,
                args.attacker,
                args.defender,
                continuing=args.continuing,
                declare_defence=args.declare_defence,
            ),
            format_combined,
        )
    args.attacker, args.defender = args.attacker[0], args.defender[0]
    if args.apply:
        return _apply(args)
    return _answer(
        args,
        lambda bf: table_melee(bf, args.attacker, args.defender, continuing=args.continuing),
        format_report,
    )


def _answer(args: argparse.Namespace, ask: Any, fmt: Any) -> int:
    """The melee on the scenario's table (``ask``), printed by ``fmt`` or as JSON, and its
    picture with ``--plot``; no melee (no figure in contact, 5.3.2) is exit 1 with its reason."""
    from szwadron.cli._common import print_json
    from szwadron.cli._game import print_refusal
    from szwadron.cli._pictures import plot_melee_answer
    from szwadron.errors import IllegalActionError
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario

    bf = Battlefield(load_scenario(args.scenario))
    try:
        m = ask(bf)
    except IllegalActionError as exc:
        if exc.rule == "5.3":  # no figure in contact: the reason already ends "no melee"
            return print_refusal(args, exc, str(exc))
        return print_refusal(args, exc, _("no melee: {reason}").format(reason=exc))
    if args.json:
        print_json(m.to_json())
    else:
        print(fmt(m))
    if args.plot is not None:  # one unit a side only (_one_a_side_only)
        plot_melee_answer(args, m)
    return 0


def _one_a_side_only(args: argparse.Namespace) -> None:
    """--plot answers one attacking and one defending unit (exit 2 otherwise)."""
    from szwadron.errors import InvalidDataError

    if getattr(args, "plot", None):
        raise InvalidDataError(
            _(
                "--{option} takes one attacking and one defending unit; a combined melee (5.10) is "
                "answered without it"
            ).format(option="plot"),
            parameter="--attacker/--defender",
        )


def format_combined(m: CombinedMelee) -> str:
    """Figures in contact, dice groups, each unit's losses and outcome, the likeliest outcomes."""
    from szwadron.cli._common import fmt_prob

    doc = m.to_json()
    lines = [
        _("Combined melee (5.10): {attackers} attack {defenders}").format(
            attackers=", ".join(m.attackers), defenders=", ".join(m.defenders)
        )
        + (", " + _("first strike: {side}").format(side=term(m.first_strike)) if m.first_strike else "")
        + (
            ", " + _("first strike: {units}").format(units=", ".join(m.first_strike_units))
            if m.pairwise_first_strike
            else ""
        )
        + (", " + _("defence declared by the attackers (5.7.4)") if m.declared_defence else "")
    ]
    lines += ["", _("Figures touching the enemy (PD-14: at least 1 cm in all to fight)")]
    width = max([8, *(len(term(f.side)) for f in m.figures)])
    for f in m.figures:
        adv = f", W +{f.bonus} ({f.reason})" if f.bonus else ""
        act = _("strikes {bases}").format(bases=f.strikes) if f.strikes else _("does not fight")
        lines.append(
            f"  {term(f.side):{width}} {f.base}: "
            + _("{cm:.2f} cm, touching {bases}").format(cm=f.contact_cm, bases=", ".join(f.touching))
            + f"; {act}{adv}"
        )
    lines += ["", _("Dice (5.10.3: summed against each unit, one group per UW and terrain bonus)")]
    split = any(g.fight for g in m.groups)
    if split:
        lines.append("  " + _fights_apart())
    if m.pairwise_first_strike:
        lines.append("  " + _pairwise_first())
    width = max([8, *(len(term(g.side)) for g in m.groups)])
    for g in m.groups:
        bonus = " " + _("against W +{bonus}").format(bonus=g.target_bonus) if g.target_bonus else ""
        lines.append(
            f"  {term(g.side):{width}} "
            + _("{n} d6 on ≤{c}").format(n=g.dice, c=g.skill)
            + " "
            + _("at {unit}").format(unit=g.target)
            + f"{bonus}{_fight_label(g.fight, split)}{_first_label(g.first, m.pairwise_first_strike)}"
            + f": {', '.join(g.figures)}"
        )
    lines += ["", _("Each unit (removal order 5.4.3; outcome 5.10.5)")]
    width = max([8, *(len(term(u["side"])) for u in doc["units"])])
    for u in doc["units"]:
        pmf = ", ".join(f"{k}: {fmt_prob(p)}" for k, p in enumerate(u["removed_pmf"]))
        outs = ", ".join(
            f"{_combined_outcome(m, u['unit'], o['outcome'])} {fmt_prob(o['p'])}" for o in u["outcomes"]
        )
        lines.append(
            f"  {term(u['side']):{width}} {u['unit']} "
            + _("(against {units})").format(units=", ".join(u["opponents"]))
        )
        order = ", ".join(u["removal_order"]) or _("none (no figure fought)")
        lines.append("    " + _("removal order: {bases}").format(bases=order))
        lines.append(
            "    " + _("removed: {pmf}; expected {mean:.3f}").format(pmf=pmf, mean=u["expected_removed"])
        )
        lines.append("    " + _("outcome: {outcomes}").format(outcomes=outs))
        if m.held_by.get(u["unit"]):
            lines.append("    " + _held_line(u["unit"], m.held_by[u["unit"]]))
    lines += ["", _("Likeliest outcomes together")]
    for row in doc["joint_outcomes"][:5]:
        lines.append(
            f"  {fmt_prob(row['p']):>7}  "
            + ", ".join(f"{u} {_combined_outcome(m, u, o)}" for u, o in row["outcomes"].items())
        )
    return "\n".join(lines)


def _held_line(unit: str, others: tuple[str, ...]) -> str:
    """6.3.6 — why ``unit`` takes no pursuit test: other enemy units still engage it."""
    return _(
        "{unit} takes no pursuit test: {units} still engaged with it, neither repulsed nor in panic (6.3.6)"
    ).format(unit=unit, units=", ".join(others))


def _check_dice(args: argparse.Namespace) -> None:
    from szwadron.cli._game import check_dice_options

    check_dice_options(args, _("the melee"))


def _apply(args: argparse.Namespace) -> int:
    """``--apply``: the melee resolved with the dice and written to the next position (issue 17)."""
    from szwadron.cli._game import run_apply, show_applied
    from szwadron.game.apply import Position, apply_melee

    def compute(pos: Position) -> Applied:
        return apply_melee(
            pos,
            args.attacker,
            args.defender,
            continuing=args.continuing,
            dice=args.dice,
            seed=args.seed if args.roll else None,
            pursue=args.pursue,
        )

    return show_applied(args, *run_apply(args, compute), _render_applied)


def _apply_combined(args: argparse.Namespace) -> int:
    """``--apply`` with several units on a side: the combined melee (5.10) resolved with the dice
    and written to the next position."""
    from szwadron.cli._game import run_apply, show_applied
    from szwadron.game.apply import Position, apply_combined_melee

    def compute(pos: Position) -> Applied:
        return apply_combined_melee(
            pos,
            args.attacker,
            args.defender,
            continuing=args.continuing,
            declare_defence=args.declare_defence,
            dice=args.dice,
            seed=args.seed if args.roll else None,
            pursue=args.pursue,
        )

    return show_applied(args, *run_apply(args, compute), _render_combined_applied)


def _render_combined_applied(applied: Applied) -> str:
    """An applied combined melee: the question's answer, then every die and what it did."""
    from szwadron.cli._game import morale_test_name, roll_lines

    m, _roll = applied.report
    lines = [format_combined(m), "", _("Rolled")]
    for t in applied.dice.get("strike_back", []):
        lines.append("  " + _test_line(t, _("{unit}: strike back (6.6)").format(unit=t["unit"])))
    for s in applied.dice["strikes"]:
        lines.append(f"  {term(s['side'])} → {s['target']}: " + _strike_text(s))
    for t in applied.dice["tests"]:
        name = _("{test} test").format(test=morale_test_name(t["test"]))
        lines.append("  " + _test_line(t, f"{t['unit']}: {name}"))
    removed = ", ".join(b for bases in applied.ruling["removed"].values() for b in bases)
    lines.append("  " + _("removed: {bases}").format(bases=removed or _("none")))
    outcomes = ", ".join(f"{u} {_combined_outcome(m, u, o)}" for u, o in applied.ruling["outcomes"].items())
    lines.append("  " + _("outcome: {outcomes}").format(outcomes=outcomes))
    lines += roll_lines(applied.dice.get("after", []))  # 6.6.2, 6.7.1: the flights and pursuits at once
    return "\n".join(lines)


def _combined_outcome(m: CombinedMelee, unit: str, outcome: str) -> str:
    """A unit's outcome in words, as in the melee of one unit a side (:func:`_outcome_words`)."""
    return _outcome_words(outcome, m.holds_terrain(unit))


def _outcome_words(outcome: str, holds: bool) -> str:
    """An outcome in words; a defender that stands holding the terrain with every figure does
    not count as engaged (5.7.3)."""
    return _("stands, not engaged (5.7.3)") if outcome == "engaged" and holds else term(outcome)


def _fight_label(fight: int, split: bool) -> str:
    """5.7.2 — ", fight N" after a dice group when the melee is split into fights (else "")."""
    return ", " + _("fight {n}").format(n=fight + 1) if split else ""


def _fights_apart() -> str:
    """5.7.2 — the line said once above the dice of a melee split into fights."""
    return _(
        "figures fight with different terrain coefficients: each fight is played apart, its dice "
        "remove only figures of that fight (5.7.2, 5.4.2); morale once for the whole melee"
    )


def _pairwise_first() -> str:
    """7.7 — the line said once above the dice when first strike counts pair by pair."""
    return _(
        "first strike pair by pair (7.7): the groups marked first strike before the units they "
        "strike can strike back; the rest strike after, with the figures left, and not at a unit "
        "the first strikes left with no figure"
    )


def _first_label(first: bool, pairwise: bool) -> str:
    """7.7 — ", first" after a dice group that strikes first when first strike counts pair by pair."""
    return ", " + _("first") if first and pairwise else ""


def _strike_text(s: dict[str, Any]) -> str:
    """One group's dice: how many on what, the faces, the hits, the remainder roll, the removed."""
    rem = (
        ", " + _("remainder roll {faces}").format(faces=" ".join(map(str, s["remainder_faces"])))
        if s["remainder_faces"]
        else ""
    )
    return (
        _("{n} d6 on ≤{c}").format(n=s["dice"], c=s["skill"])
        + _fight_label(s.get("fight", 1) - 1, "fight" in s)
        + _first_label(s.get("first", False), True)
        + f": {' '.join(map(str, s['faces']))} — "
        + ngettext("{n} scored", "{n} scored", s["scored"]).format(n=s["scored"])
        + rem
        + "; "
        + _("{n} removed").format(n=s["removed"])
    )


def _test_line(t: dict[str, Any], name: str) -> str:
    """One test: its name, the face against the target, pass or fail."""
    return _("{name}: rolled {face} vs ≤{target} — {verdict}").format(
        name=name, face=t["face"], target=t["target"], verdict=_("pass") if t["passed"] else _("fail")
    )


def _render_applied(applied: Applied) -> str:
    """An applied melee: the question's answer, then the dice rolled and what they did."""
    from szwadron.cli._game import roll_lines

    m, _outcome = applied.report
    lines = [format_report(m), "", _("Rolled")]
    if "strike_back" in applied.dice:  # 6.6: the panicking defender's test, rolled first
        lines.append(
            "  "
            + _test_line(applied.dice["strike_back"], _("{unit}: strike back (6.6)").format(unit=m.defender))
        )
    for s in applied.dice["strikes"]:
        lines.append(f"  {term(s['side'])}: " + _strike_text(s))
    for t in applied.dice["tests"]:
        lines.append(
            "  "
            + _("{test} test: rolled {face} vs ≤{target} — {verdict}").format(
                test=term(t["test"]),
                face=t["face"],
                target=t["target"],
                verdict=_("pass") if t["passed"] else _("fail"),
            )
        )
    out = applied.ruling["outcome"]
    removed = ", ".join(applied.ruling["removed"]["attacker"] + applied.ruling["removed"]["defender"])
    lines.append("  " + _("removed: {bases}").format(bases=removed or _("none")))
    lines.append(
        "  "
        + _("outcome: attacker {attacker}, defender {defender}").format(
            attacker=term(out["attacker"]), defender=_defender_outcome(m, out["defender"])
        )
    )
    lines += roll_lines(applied.dice.get("after", []))  # 6.6.2, 6.7.1: the flights and pursuits at once
    return "\n".join(lines)


def _defender_outcome(m: TableMelee, outcome: str) -> str:
    """The defender's outcome in words; both standing, a defender whose every figure holds an
    advantageous position does not count as engaged (5.7.3)."""
    return _outcome_words(outcome, m.all_defenders_advantaged)


def format_report(m: TableMelee) -> str:
    """Contact, groups, odds table, outcomes, removal order, push-up for the likeliest losses."""
    from szwadron.cli._common import fmt_prob, format_pmf_table

    lines = [
        _("Melee: {attacker} attacks {defender}").format(attacker=m.attacker, defender=m.defender)
        + (", " + _("first strike: {side}").format(side=term(m.first_strike)) if m.first_strike else "")
    ]
    lines.append("")
    lines.append(_("Figures in contact (PD-14: at least 1 cm of edge touching the enemy)"))
    width = max((len(term(f.side)) for f in m.fighting), default=8)
    for f in m.fighting:
        adv = f", W +{f.bonus} ({f.reason})" if f.bonus else ""
        lines.append(
            f"  {term(f.side):{width}} {f.base}: "
            + _("{cm:.2f} cm, touching {bases}").format(cm=f.contact_cm, bases=", ".join(f.touching))
            + adv
        )
    if m.all_defenders_advantaged:
        lines.append(
            "  "
            + _(
                "every defender holds an advantageous position (5.7.3): the defender does not count as engaged"
            )
        )
    lines.append("")
    lines.append(_("Dice (5.10.3: one group per UW and terrain bonus)"))
    split = m.fights > 1
    if split:
        lines.append("  " + _fights_apart())
    width = max((len(term(g.side)) for g in m.groups), default=8)
    for g in m.groups:
        bonus = " " + _("against W +{bonus}").format(bonus=g.target_bonus) if g.target_bonus else ""
        lines.append(
            f"  {term(g.side):{width}} "
            + _("{n} d6 on ≤{c}").format(n=g.dice, c=g.skill)
            + f"{bonus}{_fight_label(g.fight, split)}: {', '.join(g.figures)}"
        )
    a_rem, d_rem = m.odds.attacker_removed, m.odds.defender_removed
    lines.append("")
    lines.append(
        format_pmf_table(
            {
                _("P(att=k)"): a_rem.pmf(),
                _("P(att≥k)"): a_rem.at_least_list(),
                _("P(def=k)"): d_rem.pmf(),
                _("P(def≥k)"): d_rem.at_least_list(),
            },
            index=_("removed"),
        )
    )
    lines.append(_("outcomes (5.5), attacker / defender:"))
    for row in m.odds.outcome_list():
        d_out = _defender_outcome(m, str(row["defender"]))
        lines.append(f"  {fmt_prob(float(row['p'])):>7}  {term(str(row['attacker']))} / {d_out}")
    for unit, side in ((m.attacker, "attacker"), (m.defender, "defender")):
        if m.held_by.get(side):
            lines.append("  " + _held_line(unit, m.held_by[side]))
    lines.append("")
    lines.append(_("Removal order (5.4.3: most enemies touched first, not side by side)"))
    lines.append("  " + _("attacker: {bases}").format(bases=", ".join(m.removal_order["attacker"])))
    lines.append("  " + _("defender: {bases}").format(bases=", ".join(m.removal_order["defender"])))
    return "\n".join(lines + _push_lines(m))


def _push_lines(m: TableMelee) -> list[str]:
    """5.6 — who pushes up if both stand, after the likeliest losses that leave both standing
    (which figures, per fight where the melee is split, 5.7.2)."""
    from szwadron.cli._common import fmt_prob
    from szwadron.odds.combat import count_removed

    a_left, d_left = (s.morale.strength for s in m.sides) if m.sides else (1 << 30, 1 << 30)
    standing = [  # 5.6: losses that leave both standing
        (ij, p)
        for ij, p in m.removal_chances()
        if p > 0 and count_removed(ij[0]) < a_left and count_removed(ij[1]) < d_left
    ]
    if not standing:
        return []
    (i, j), p = max(standing, key=lambda kv: kv[1])  # the likeliest losses both survive
    if m.fights > 1:  # 5.7.2: the likeliest figures removed, fight by fight
        head = _(
            "Pushing up (5.6) if both stand, after the likeliest losses (attacker: {attacker}; defender: {defender}; {p}):"
        ).format(
            attacker=", ".join(m.removed_bases("attacker", i)) or _("none"),
            defender=", ".join(m.removed_bases("defender", j)) or _("none"),
            p=fmt_prob(p),
        )
    else:
        head = _(
            "Pushing up (5.6) if both stand, after the likeliest losses ({attacker} attacker, {defender} defender, {p}):"
        ).format(attacker=count_removed(i), defender=count_removed(j), p=fmt_prob(p))
    steps = [
        f"  {term(s.side)}: "
        + _("{n} of {bases}, up to {cm:g} cm").format(n=s.count, bases=", ".join(s.candidates), cm=s.max_cm)
        for s in m.push_up(i, j)
    ]
    return ["", head, *(steps or ["  " + _("nobody: every figure left is still in contact")])]


__all__ = ["format_combined", "format_report", "register", "run"]
