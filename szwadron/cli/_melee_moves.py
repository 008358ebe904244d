"""The moves that belong to a melee, options of ``szwadron move``:

- ``--push-up ENEMY --to MOVEFILE`` — 5.6: after a melee in which both stood, figures not engaged
  move at most 4 cm towards the enemy just fought, whatever the terrain; with ``--apply``
  written (:func:`szwadron.game.apply.apply_push_up`);
- ``--disengage [--to MOVEFILE]`` — 5.8: may the engaged unit disengage, with what chance, and
  where does it go; with ``--apply`` and the dice (``--dice`` or ``--roll --seed``), the
  disengagement made (:func:`szwadron.game.apply.apply_disengage`).

Exit code 0 when the move may be made (or was), 1 when the rules refuse it, 2 for bad input."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from szwadron.i18n import _, pgettext

if TYPE_CHECKING:
    from szwadron.table.disengage import DisengageRuling, PursuitTest

DISENGAGE_DICE = (
    "with --disengage: the unit's test (none with automatic disengage, 7.6), each engaged "
    "enemy's test for uncontrolled pursuit in file order (5.8.4), then the flight's 2d6 when it "
    "failed (and the tests of the own units it passes through), then each pursuer's 2d6"
)


def add_melee_move_options(p: argparse.ArgumentParser) -> None:
    """``--push-up ENEMY``, ``--disengage`` and its dice (``--dice``, ``--roll``, ``--seed``)."""
    from szwadron.cli._game import add_dice_options, add_pursue_option

    p.add_argument(
        "--push-up",
        metavar="ENEMY",
        help="with --to: a push-up after a melee in which both stood (5.6): figures not engaged move "
        "at most 4 cm whatever the terrain, towards ENEMY, the unit just fought; not an action",
    )
    p.add_argument(
        "--disengage",
        action="store_true",
        help="the unit, engaged in melee, disengages instead of fighting (5.8): its test, each enemy's "
        "pursuit test (5.8.4) and its move away (--to, or without it directly away from the enemy); "
        "with --apply and the dice, made",
    )
    add_dice_options(p, DISENGAGE_DICE)
    add_pursue_option(p, "with --disengage: each engaged enemy that may pursue")


def _other_moves(args: argparse.Namespace) -> list[str]:
    """The options of another kind of move that were given (each names a move of its own)."""
    given = (
        ("--charge", bool(args.charge)),
        ("--march", args.march),
        ("--after-fire", args.after_fire is not None),
        ("--repulse", args.repulse is not None),
        ("--reform", args.reform),
        ("--disengage", args.disengage),
        ("--push-up", args.push_up is not None),
    )
    return [flag for flag, on in given if on]


def check_melee_move_options(args: argparse.Namespace) -> None:
    """Usage errors of ``--push-up``, ``--disengage`` and the dice options, before any work."""
    from szwadron.cli._game import check_dice_options
    from szwadron.errors import InvalidDataError

    if args.push_up is not None:
        for flag in _other_moves(args):
            if flag != "--push-up":
                raise InvalidDataError(
                    _("{flag} does not go with --push-up: a push-up is a move of its own (5.6)").format(
                        flag=flag
                    )
                )
        if args.to is None:
            raise InvalidDataError(_("--push-up: give the pushed-up figures' poses with --to MOVEFILE"))
        if len(args.unit) != 1:
            raise InvalidDataError(_("--push-up: a push-up is the move of one unit; name one --unit"))
    if not args.disengage:
        for flag, value in (
            ("--dice", args.dice),
            ("--roll", args.roll),
            ("--seed", args.seed is not None),
            ("--pursue", args.pursue),
        ):
            if value:
                raise InvalidDataError(
                    _("{flag}: only with --disengage (the dice of a disengagement, 5.8)").format(flag=flag)
                )
        return
    for flag in _other_moves(args):
        if flag != "--disengage":
            raise InvalidDataError(
                _("{flag} does not go with --disengage: disengaging is a move of its own (5.8)").format(
                    flag=flag
                )
            )
    if len(args.unit) != 1:
        raise InvalidDataError(_("--disengage: a disengagement is the move of one unit; name one --unit"))
    check_dice_options(args, _("the disengagement"))


def run_push_up(args: argparse.Namespace) -> int:
    """``--push-up ENEMY``: the check, or ``--apply``."""
    from szwadron.cli.move import answer_move
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.table.movement import check_move, load_move_file

    move = load_move_file(args.to)
    unit, enemy = args.unit[0], args.push_up
    if args.apply:
        return _apply_push_up(args, unit, enemy, move)
    bf = Battlefield(load_scenario(args.scenario))
    bf.resolve(enemy)  # a clear message for an unknown name
    return answer_move(args, check_move(bf, unit, move, push_up=enemy, source=str(args.to)))


def _apply_push_up(args: argparse.Namespace, unit: str, enemy: str, move: Any) -> int:
    """``--push-up ENEMY --apply``: the push-up written to the next position."""
    from szwadron.cli._game import run_apply
    from szwadron.cli.move import print_applied
    from szwadron.game.apply import apply_push_up

    code, applied = run_apply(args, lambda pos: apply_push_up(pos, unit, enemy, move, source=str(args.to)))
    return print_applied(args, code, applied)


def run_disengage(args: argparse.Namespace) -> int:
    """The question (odds and the move), or ``--apply``; 1 when the rules refuse it."""
    from szwadron.cli._common import print_json
    from szwadron.cli._game import print_refusal
    from szwadron.cli._pictures import plot_move_answer
    from szwadron.errors import IllegalActionError
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario
    from szwadron.table.disengage import disengage
    from szwadron.table.movement import load_move_file

    move = None if args.to is None else load_move_file(args.to)
    if args.apply:
        return _apply(args, move)
    bf = Battlefield(load_scenario(args.scenario))
    try:
        r = disengage(bf, args.unit[0], move, source=str(args.to or "move"))
    except IllegalActionError as exc:  # not engaged, panicking, pursuing: the rules refuse it
        return print_refusal(args, exc, _("no disengagement: {reason}").format(reason=exc))
    if args.json:
        print_json(r.to_json())
    else:
        print(format_disengage(r))
        later = _not_now(bf, args.unit[0])
        if later is not None:
            print(later)
    if args.plot is not None and r.move is not None:
        named = _("disengage from {enemies} (5.8)").format(enemies=", ".join(r.enemies))
        plot_move_answer(args, r.move, named)
    return 0 if r.legal else 1


def _not_now(bf: Any, unit: str) -> str | None:
    """2.3, 6.1 — when the position says whose turn it is, why the unit may not disengage now
    (not its side's movement phase, it has acted): the odds still answer (as ``fire``'s)."""
    from szwadron.cli._game import may_not_act

    return may_not_act(bf.scenario, unit, "disengage")


def _pursuit_line(p: PursuitTest) -> str:
    from szwadron.cli._common import fmt_prob

    if p.branch == "test":
        return _(
            "{unit} tests for uncontrolled pursuit (5.8.4): it stays on 1–{target} of a d6, pursues on a higher roll — {p}"
        ).format(unit=p.unit, target=p.target, p=fmt_prob(float(p.pursuit_chance)))
    why = {
        "artillery": _("artillery never pursues (6.7.1)"),
        "already": _("pursuing already: it keeps pursuing (6.7.7)"),
        "no_test": _("panicking (6.1.3)"),
    }[p.branch]
    return _("{unit}: no pursuit test — {why}").format(unit=p.unit, why=why)


def format_disengage(r: DisengageRuling) -> str:
    """The human answer: verdict, the test, the enemies' pursuit tests, then the move."""
    from szwadron.cli._common import fmt_prob
    from szwadron.cli.move import format_report

    verdict = (
        pgettext("melee move", "LEGAL")
        if r.legal
        else pgettext("melee move", "ILLEGAL") + f" [{r.rule}] {r.message}"
    )
    lines = [
        _("{unit}: disengage from {enemies} (5.8) — {verdict}").format(
            unit=r.unit, enemies=", ".join(r.enemies), verdict=verdict
        )
    ]
    if r.automatic:
        lines.append("  " + _("automatic disengage (7.6.1): it passes its test"))
    else:
        lines.append(
            "  "
            + _(
                "its test (6.4.1): passes on 1–{target} of a d6 — {p}; failed, it panics and flees at once (5.8.3, 6.6.2)"
            ).format(target=r.target, p=fmt_prob(float(r.pass_chance)))
        )
    lines += ["  " + _pursuit_line(p) for p in r.pursuers]
    if r.move is not None:
        lines.append("")
        if r.found:
            lines.append(
                _("Its move when it passes: away from {enemies} (no --to given)").format(
                    enemies=", ".join(r.enemies)
                )
            )
        lines.append(format_report(r.move))
    return "\n".join(lines)


def _apply(args: argparse.Namespace, move: Any) -> int:
    """``--disengage --apply``: the test and the move (or the panic), written to the next position."""
    from szwadron.cli._game import roll_lines, run_apply, show_applied
    from szwadron.game.apply import Applied, Position, apply_disengage

    def compute(pos: Position) -> Applied:
        return apply_disengage(
            pos,
            args.unit[0],
            move,
            dice=args.dice,
            seed=args.seed,
            source=str(args.to or "move"),
            pursue=args.pursue,
        )

    def render(applied: Applied) -> str:
        return "\n".join(
            [format_disengage(applied.report), "", _("Rolled"), *roll_lines(applied.dice["rolls"])]
        )

    return show_applied(args, *run_apply(args, compute), render)


__all__ = [
    "DISENGAGE_DICE",
    "add_melee_move_options",
    "check_melee_move_options",
    "format_disengage",
    "run_disengage",
]
