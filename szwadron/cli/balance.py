"""``szwadron balance LIST_A[:ROSTER] LIST_B[:ROSTER] [--json]`` — two armies side by side
(issue 7): points, fire, melee, durability, speed, artillery share, the predicted chance of each
side and what to add or remove to even them (:mod:`szwadron.armies.balance`).

Each side is ``LIST`` or ``LIST:ROSTER``: an army-list id or TOML file, and one of its example
rosters (default: the list's first); or a player's roster file (a TOML file with ``army = ...``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

#: Most battles ``--battles`` plays.
MAX_BATTLES = 100_000
#: Battles played by default to predict the chance (szwadron.armies.battles.DEFAULT_BATTLES; not
#: imported here, so that ``--help`` stays light).
DEFAULT_BATTLES = 200


def register(subparsers: Any) -> None:
    """Add the ``balance`` command."""
    parser = subparsers.add_parser(
        "balance",
        help="compare two armies: points, strengths, predicted chances, how to even them",
        description="Two armies side by side, the predicted chance of each, and how to even them.",
    )
    parser.add_argument(
        "side_a", metavar="LIST_A[:ROSTER]", help="army list (id or file) and roster, or a roster file"
    )
    parser.add_argument("side_b", metavar="LIST_B[:ROSTER]", help="the other side")
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    parser.add_argument(
        "--battles",
        type=int,
        metavar="N",
        help=f"battles played, army against army, to predict the chance (default {DEFAULT_BATTLES}; "
        f"0: predict from the points alone; at most {MAX_BATTLES})",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=2026,
        metavar="N",
        help="seed of the dice of the battles: the same seed, the same battles (default 2026)",
    )
    parser.set_defaults(func=run)


def resolve_side(spec: str) -> tuple[Any, Any, str]:
    """``(army list, roster, note)`` of a side given as ``LIST[:ROSTER]`` or a roster file."""
    from szwadron.armies.rosters import load_roster
    from szwadron.errors import InvalidDataError
    from szwadron.files import is_stdio
    from szwadron.loading import open_army_list, read_toml, source_name

    name, sep, roster_id = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if not sep:
        name = spec
    if not name:
        raise InvalidDataError(f"side {spec!r}: expected LIST or LIST:ROSTER")
    path = Path(name)
    file = is_stdio(name) or (path.suffix.lower() == ".toml" and path.exists())
    if file and "army" in read_toml(name):
        if sep:
            raise InvalidDataError(f"{name}: a roster file names its own army; drop ':{roster_id}'")
        army, roster = load_roster(name)
        return army, roster, f"roster file {source_name(name)}"
    army = open_army_list(name)
    if not sep:
        if not army.rosters:
            raise InvalidDataError(
                f"army list {army.id!r} has no example rosters; give LIST:ROSTER or a roster file"
            )
        return army, army.rosters[0], f"first roster of {army.id}"
    try:
        return army, army.roster(roster_id), ""
    except KeyError:
        known = ", ".join(r.id for r in army.rosters) or "none"
        raise InvalidDataError(
            f"unknown roster {roster_id!r} in army list {army.id!r} (it has: {known})"
        ) from None


def run(args: argparse.Namespace) -> int:
    """Run ``szwadron balance``."""
    from szwadron.armies.balance import balance
    from szwadron.armies.points import load_model
    from szwadron.cli._common import fmt_prob, print_json
    from szwadron.errors import InvalidDataError

    battles = DEFAULT_BATTLES if args.battles is None else args.battles
    if not 0 <= battles <= MAX_BATTLES:
        raise InvalidDataError(f"--battles must be between 0 and {MAX_BATTLES}, got {battles}")
    army_a, roster_a, note_a = resolve_side(args.side_a)
    army_b, roster_b, note_b = resolve_side(args.side_b)
    report = balance(army_a, roster_a, army_b, roster_b, load_model())
    played = None
    if battles:
        from szwadron.armies.battles import battle_pair

        played = battle_pair(army_a, roster_a, army_b, roster_b, battles=battles, seed=args.seed)
    if args.json:
        doc = report.to_json()
        if played is not None:
            even = played.evening(report.a.points, report.b.points, report.steepness)
            part = played.to_json()
            del part["seconds"]  # the same seed, the same document
            doc["battles"] = {
                "seed": args.seed,
                **part,
                "to_even": None
                if even is None
                else {"stronger": even[0], "fewer_points": even[1], "more_points": even[2]},
            }
        print_json(doc)
        return 0
    a, b = report.a, report.b

    def pts(x: float | None) -> str:
        return "-" if x is None else f"{x:g}"

    rows = [
        ("", f"A: {a.army}:{a.roster}", f"B: {b.army}:{b.roster}"),
        ("points", f"{a.points:.1f}", f"{b.points:.1f}"),
        ("points limit", pts(a.points_limit), pts(b.points_limit)),
        ("units / figures", f"{a.units} / {a.figures}", f"{b.units} / {b.figures}"),
        ("fire (figures removed a volley)", f"{a.fire:.1f}", f"{b.fire:.1f}"),
        ("melee (figures removed an exchange)", f"{a.melee:.1f}", f"{b.melee:.1f}"),
        (
            "durability (wound points, mean M)",
            f"{a.wound_points}, M {a.mean_morale:.2f}",
            f"{b.wound_points}, M {b.mean_morale:.2f}",
        ),
        ("speed (mean R, cm)", f"{a.mean_speed:.1f}", f"{b.mean_speed:.1f}"),
        ("artillery share of points", f"{a.artillery_share:.1%}", f"{b.artillery_share:.1%}"),
    ]
    if played is not None:
        lo, hi = played.interval
        rows += [
            (
                f"predicted chance ({played.battles} battles)",
                f"{fmt_prob(played.rate)} [{fmt_prob(lo)}–{fmt_prob(hi)}]",
                f"{fmt_prob(1 - played.rate)} [{fmt_prob(1 - hi)}–{fmt_prob(1 - lo)}]",
            ),
            ("points alone predict", fmt_prob(report.chance_a), fmt_prob(report.chance_b)),
        ]
    else:
        rows.append(("predicted chance (points alone)", fmt_prob(report.chance_a), fmt_prob(report.chance_b)))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    for r in rows:
        print(f"{r[0]:<{w0}}  {r[1]:>{w1}}  {r[2]:>}")
    for note in (note_a, note_b):
        if note:
            print(f"({note})")
    for tag, side in (("A", a), ("B", b)):
        for breach in side.broken:
            print(f"{tag} ({side.army}:{side.roster}) breaks {breach}")
    for side in (a, b):
        if side.model_priced:
            print(
                f"(points of {', '.join(side.model_priced)} in {side.army} from the model: the list stores none)"
            )
    if played is not None:
        lo, hi = played.interval
        draws = f"{played.draws} draw{'' if played.draws == 1 else 's'} counted half"
        print(
            f"predicted by play: A won {fmt_prob(played.rate)} of {played.battles} seeded battles, army against army"
            f" (95% interval {fmt_prob(lo)}–{fmt_prob(hi)}; {draws}; seed {args.seed}, {played.seconds:.1f} s)"
        )
    print(
        f"points alone: the points ratio with the steepness of army battles κ = {report.steepness:.2f}"
        f" ({(a.units + b.units) / 2:g} units a side), blind to the armies' composition"
    )
    if played is not None:
        even = played.evening(a.points, b.points, report.steepness)
        if even is not None:
            tag, less, more = even
            strong = a if tag == "A" else b
            print(
                f"  to even the played chance: {tag} ({strong.army}:{strong.roster}) fields about {less:.0f}"
                f" points less, or the other side about {more:.0f} points more"
            )
    if abs(report.difference) < 1e-9:
        print("the two armies are even in points")
    elif not report.suggestions:
        print(
            f"{report.difference:+.1f} points (A − B): no single roster edit inside the lists' constraints"
            " brings them closer"
        )
    else:
        print(f"to even them ({report.difference:+.1f} points, A − B), for example:")
        for s in report.suggestions:
            print(f"  {s}")
    return 0


__all__ = ["register", "resolve_side", "run"]
