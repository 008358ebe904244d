"""``szwadron remainder`` — the remainder table of 1.5.1 (PD-5) for a die and a range of W."""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.i18n import _, term
from szwadron.limits import MAX_WOUNDS

_DIES = ("d6", "d10")


def register(subparsers: Any) -> None:
    """Add the ``remainder`` command."""
    parser = subparsers.add_parser(
        "remainder",
        help="the remainder-roll table (1.5.1, PD-5)",
        description=(
            "Print, for every remainder r and W (1 ≤ r < W ≤ --max-wounds), the roll that removes "
            "one more figure with chance r/W (1.5.1), the exact chance it gives, and whether it is "
            "exactly r/W (PD-5)."
        ),
    )
    parser.add_argument(
        "--die",
        choices=_DIES,
        default="d6",
        help="the die of the remainder roll: d6 (default) or d10 (1.5.1, PD-5)",
    )
    parser.add_argument(
        "--max-wounds",
        type=int,
        default=10,
        metavar="N",
        help=f"the largest W in the table (default 10, at most {MAX_WOUNDS}) (1.5.1)",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON document (its rows)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the table; return the exit code."""
    from szwadron.cli._common import print_json
    from szwadron.errors import InvalidDataError
    from szwadron.odds.remainder import D6_TWO_THIRDS_MISPRINT, remainder_row_json, remainder_table

    if args.max_wounds > MAX_WOUNDS:
        raise InvalidDataError(
            _("--max-wounds must be at most {most}, got {value}").format(
                most=MAX_WOUNDS, value=args.max_wounds
            )
        )
    rows = remainder_table(args.die, args.max_wounds)
    if args.json:
        print_json({"die": args.die, "rows": [remainder_row_json(r) for r in rows]})
        return 0
    header = ("r/W", _("reduced"), _("{die} roll").format(die=term(args.die)), _("chance"), _("exact"))
    body = []
    for r in rows:
        mark = " *" if args.die == "d6" and (r.fraction.numerator, r.fraction.denominator) == (2, 3) else ""
        body.append(
            (
                f"{r.remainder}/{r.wounds}",
                f"{r.fraction.numerator}/{r.fraction.denominator}",
                r.notation.replace("reroll", _("reroll")) + mark,
                f"{r.chance.numerator}/{r.chance.denominator}",
                _("yes") if r.exact else _("no"),
            )
        )
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    print(
        _(
            "Remainder roll (1.5.1, PD-5) on a {die}; '≤k' removes on k or less, "
            "'reroll' rolls again, {{…}} is not exactly r/W."
        ).format(die=term(args.die))
    )
    for row in (header, *body):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if any(r.wounds % 3 == 0 for r in rows):
        print()
        print(("* " if args.die == "d6" else "") + _(D6_TWO_THIRDS_MISPRINT))
    return 0
