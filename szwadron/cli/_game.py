"""Options and writing shared by the commands that apply a result (issue 17): ``--apply``,
``-o NEXT.toml``, ``--in-place``, ``--log GAME.jsonl``.

The next position is written whole or not at all (:func:`szwadron.files.write_atomic`), never
over the input unless ``--in-place``; the log line is appended only when the position is
written. An illegal action is refused with its rule (exit code 1) and writes nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from szwadron.i18n import _, ngettext, pgettext, term

if TYPE_CHECKING:
    from szwadron.game.apply import Applied, Position


def add_apply_options(p: argparse.ArgumentParser, what: str) -> None:
    """``--apply``, ``-o``, ``--in-place``, ``--log``."""
    p.add_argument(
        "--apply",
        action="store_true",
        help=f"apply the result ({what}) to the table: write the next position with -o or --in-place",
    )
    p.add_argument("-o", "--output", metavar="NEXT.toml", help="with --apply: the next position's file")
    p.add_argument(
        "--in-place", action="store_true", help="with --apply: overwrite SCENARIO with the next position"
    )
    p.add_argument(
        "--log",
        metavar="GAME.jsonl",
        help="with --apply: append the action to this game log (created, with the starting "
        "scenario, when it does not exist)",
    )


def check_apply_options(args: argparse.Namespace) -> None:
    """Usage errors of the apply options, before any work."""
    from szwadron.errors import InvalidDataError

    if not args.apply:
        for flag, value in (("-o", args.output), ("--in-place", args.in_place), ("--log", args.log)):
            if value:
                raise InvalidDataError(
                    _("{flag}: only with --apply (apply the result to the table)").format(flag=flag)
                )
        return
    if args.in_place and args.output:
        raise InvalidDataError(_("-o: give either -o NEXT.toml or --in-place, not both"))
    if not args.in_place and not args.output:
        raise InvalidDataError(_("--apply: give -o NEXT.toml for the next position (or --in-place)"))


def dice_list(text: str) -> list[int]:
    """An argparse type: a comma list of die faces."""
    try:
        faces = [int(p) for p in text.replace(" ", "").split(",") if p]
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected a comma list of die faces, e.g. 1,4,6")) from None
    if not faces:
        raise argparse.ArgumentTypeError(_("expected a comma list of die faces, e.g. 1,4,6"))
    return faces


def add_dice_options(p: argparse.ArgumentParser, order: str) -> None:
    """``--dice`` (every die in the order it is rolled), ``--roll``, ``--seed``."""
    p.add_argument(
        "--dice",
        type=dice_list,
        metavar="1,4,6,...",
        help=f"with --apply: every die in the order it is rolled ({order})",
    )
    p.add_argument("--roll", action="store_true", help="with --apply: roll every die (seeded by --seed)")
    p.add_argument("--seed", type=int, metavar="N", help="with --roll: the seed of the dice")


def add_pursue_option(p: argparse.ArgumentParser, who: str) -> None:
    """``--pursue``: 6.3.6's choice, pursuit without the test."""
    p.add_argument(
        "--pursue",
        action="store_true",
        help=f"with --apply: {who} skips the test for uncontrolled pursuit and pursues (6.3.6: the "
        "player may forgo the roll; 5.5.8); artillery never pursues",
    )


def check_dice_options(args: argparse.Namespace, what: str) -> None:
    """Usage errors of the apply and dice options (melee, morale), before any work."""
    from szwadron.errors import InvalidDataError

    check_apply_options(args)
    if not args.apply:
        pursue = getattr(args, "pursue", False)
        for flag, value in (
            ("--dice", args.dice),
            ("--roll", args.roll),
            ("--seed", args.seed is not None),
            ("--pursue", pursue),
        ):
            if value:
                raise InvalidDataError(
                    _("{flag}: only with --apply (apply {what} to the table)").format(flag=flag, what=what)
                )
        return
    if args.roll == (args.dice is not None):
        raise InvalidDataError(
            _("--apply: give the dice of {what} with --dice 1,4,6,... or --roll --seed N").format(what=what)
        )
    if args.roll and args.seed is None:
        raise InvalidDataError(_("--roll: give --seed N, so that the game log can tell the dice"))
    if args.seed is not None and not args.roll:
        raise InvalidDataError(_("--seed: only with --roll"))


def run_apply(args: argparse.Namespace, compute: Callable[[Position], Applied]) -> tuple[int, Applied | None]:
    """Read the position (and the log), apply, write; ``(exit code, applied or None)``."""
    from szwadron.cli._common import input_files
    from szwadron.errors import IllegalActionError, InvalidDataError
    from szwadron.files import check_output_path, write_text_atomic
    from szwadron.game.apply import read_position
    from szwadron.game.log import append, dump_log, last_position_hash, new_log, read_log, sha256_text

    scenario = Path(args.scenario)
    # never over an input: the scenario, a move file, ... (issue 16)
    others = tuple(Path(f) for f in input_files(args) if Path(f) != scenario)
    out = scenario if args.in_place else check_output_path(args.output, inputs=(scenario, *others))
    log_path = None if args.log is None else check_output_path(args.log, inputs=(scenario, out, *others))
    pos = read_position(scenario)
    if log_path is not None and log_path.exists() and log_path.stat().st_size > 0:
        log = read_log(log_path)
        here = sha256_text(pos.text)
        if last_position_hash(log) != here:
            raise InvalidDataError(
                _(
                    "the log ends at another position (line {log}, sha256 {last_position_hash}…) than {scenario} (sha256 {here}…): apply to the position the log ends at (szwadron replay), or start a new log"
                ).format(
                    log=len(log),
                    last_position_hash=last_position_hash(log)[:12],
                    scenario=scenario,
                    here=here[:12],
                ),
                source=str(log_path),
            )
    else:
        log = new_log(pos.text, str(scenario))
    try:
        applied = compute(pos)
    except IllegalActionError as exc:
        print(
            _("szwadron {command}: refused: {exc}; nothing written").format(command=args.command, exc=exc),
            file=sys.stderr,
        )
        return 1, None
    write_text_atomic(out, applied.text, inputs=() if args.in_place else (scenario,))
    if log_path is not None:
        text = dump_log(append(log, applied.record(), before=pos.text, after=applied.text))
        write_text_atomic(log_path, text, inputs=(scenario, out))
    return 0, applied


def applied_json(args: argparse.Namespace, applied: Applied) -> dict[str, Any]:
    """The ``--json`` document of an applied action."""
    return {
        **applied.record(),
        "output": str(args.scenario if args.in_place else args.output),
        "log": args.log,
        "notes": list(applied.notes),
    }


def print_refusal(args: argparse.Namespace, exc: Any, line: str) -> int:
    """A question the rules refuse (an :class:`~szwadron.errors.IllegalActionError`): ``{"error",
    "rule"}`` with ``--json`` (the rule-error document), else ``line`` on standard error; exit 1."""
    from szwadron.cli._common import print_json

    if args.json:
        print_json({"error": exc.detail, "rule": exc.rule})
    else:
        print(line, file=sys.stderr)
    return 1


def may_not_act(scenario: Any, unit: str, what: str, after: Any = None) -> str | None:
    """2.3, 5.8.1, 6.1 — the line a question adds when the position does not let ``unit`` take
    this action now (not its side's phase, it has acted, it is engaged, ...): the rules'
    answer still stands ("but not now"); None when it may."""
    from szwadron.errors import IllegalActionError
    from szwadron.game.apply import check_may_act

    try:
        check_may_act(scenario, scenario.unit(unit), what, after=after)
    except IllegalActionError as e:
        return "  " + _("but not now: {message} (rule {rule})").format(message=e.detail, rule=e.rule)
    return None


def show_applied(
    args: argparse.Namespace, code: int, applied: Applied | None, render: Callable[[Applied], str]
) -> int:
    """Print an applied action (:func:`run_apply`'s answer): its ``--json`` document, or
    ``render``'s text and what was written; ``code`` back (nothing printed when refused)."""
    from szwadron.cli._common import print_json

    if applied is None:
        return code
    if args.json:
        print_json(applied_json(args, applied))
        return code
    print(render(applied))
    print(format_applied(args, applied))
    return code


def format_applied(args: argparse.Namespace, applied: Applied) -> str:
    """The human lines after the ruling: what changed, where it was written."""
    where = str(args.scenario if args.in_place else args.output)
    lines = [
        "",
        _("Applied ({action}): next position written to {where}").format(
            action=term(applied.action), where=where
        ),
    ]
    if args.log:
        lines.append(_("  logged in {log}").format(log=args.log))
    for note in applied.notes:
        lines.append(_("  note: {note}").format(note=note))
    return "\n".join(lines)


def morale_test_name(test: str) -> str:
    """A morale test's name in a line of dice: the state's name would not say which test (6.3:
    the tests „na odrzucenie”, „na panikę”, „na niekontrolowany pościg”)."""
    if test == "uncontrolled pursuit":  # 5.8.4, 6.3.6: the test "na niekontrolowany pościg"
        return pgettext("morale test", "uncontrolled pursuit")
    if test == "repulse":  # 6.3.1
        return pgettext("morale test", "repulse")
    if test == "panic":  # 6.3.3
        return pgettext("morale test", "panic")
    return term(test).replace("_", " ")  # break_off: "break off"


def roll_lines(rolls: list[dict[str, Any]]) -> list[str]:
    """The dice of flights, pursuits and tests an applied action rolled, a line each."""
    lines: list[str] = []
    for r in rolls:
        if r["test"] == "flight":
            lines.append(
                "  "
                + ngettext(
                    "{unit} flees: {faces} → {cm} cm, {n} figure removed",
                    "{unit} flees: {faces} → {cm} cm, {n} figures removed",
                    r["removed"],
                ).format(unit=r["unit"], faces=" + ".join(map(str, r["faces"])), cm=r["cm"], n=r["removed"])
            )
        elif r["test"] == "pursuit":
            lines.append(
                "  "
                + (
                    _("{unit} pursues: {faces} → {cm:g} cm, in contact")
                    if r["contact"]
                    else _("{unit} pursues: {faces} → {cm:g} cm, not in contact")
                ).format(unit=r["unit"], faces=" + ".join(map(str, r["faces"])), cm=r["cm"])
            )
        elif r.get("automatic"):  # 7.6.1: automatic disengage rolls no die
            lines.append(
                f"  {r['unit']} "
                + _("{test} test: automatic (7.6.1) — pass").format(test=morale_test_name(r["test"]))
            )
        else:
            verdict = _("pass") if r["passed"] else _("fail")
            lines.append(
                f"  {r['unit']} "
                + _("{test} test: rolled {face} vs ≤{target} — {verdict}").format(
                    test=morale_test_name(r["test"]), face=r["face"], target=r["target"], verdict=verdict
                )
            )
    return lines


__all__ = [
    "add_apply_options",
    "add_dice_options",
    "add_pursue_option",
    "applied_json",
    "check_apply_options",
    "check_dice_options",
    "dice_list",
    "format_applied",
    "may_not_act",
    "print_refusal",
    "roll_lines",
    "run_apply",
    "show_applied",
]
