"""``szwadron turn SCENARIO [--apply -o NEXT.toml|--in-place] [--log GAME.jsonl] [--json]`` —
where the game stands (2: round, side, phase) and, with ``--apply``, the next phase (issue 17).

A side's morale phase (2.2) is followed by its movement phase (2.3), its movement phase by the
other side's morale phase; after both sides a new round starts. At the end of a movement phase
every unit's action (``acted``) is forgotten, and the side's heavy artillery that stood still
has prepared its position (7.3).
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.cli._game import add_apply_options
from szwadron.i18n import _, term


def register(subparsers: Any) -> None:
    """Add the ``turn`` command."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "turn",
        help="the game's round, side and phase; with --apply, the next phase",
        description=(
            "Print the scenario's turn counter (2: round, side, phase). With --apply, write the "
            "position at the next phase (a scenario without a turn starts at round 1, side A's "
            "morale phase)."
        ),
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (TOML)")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    add_apply_options(p, "the next phase")
    p.set_defaults(func=run)


def _describe(turn: Any) -> str:
    if turn is None:
        return _("no game in progress (no [turn]): a set-up")
    where = _("round {round}, side {side}, {phase} phase").format(
        round=turn.round, side=turn.side, phase=term(turn.phase.value)
    )
    if turn.phase_ended:  # 4.12.5: a declared fire went off at the phase's end
        return where + " " + _("(ended by a declared fire, 4.12.5: go on with turn --apply)")
    return where + (" " + _("(played: go on with turn --apply)") if turn.morale_played else "")


def run(args: argparse.Namespace) -> int:
    """Print or advance the turn."""
    from szwadron.cli._common import print_json
    from szwadron.cli._game import applied_json, check_apply_options, format_applied, run_apply
    from szwadron.game.apply import apply_next_phase, read_position

    check_apply_options(args)
    if not args.apply:
        turn = read_position(args.scenario).scenario.turn
        if args.json:
            print_json({"turn": None if turn is None else turn.model_dump(mode="json")})
        else:
            print(f"{args.scenario}: {_describe(turn)}")
        return 0
    code, applied = run_apply(args, apply_next_phase)
    if applied is None:
        return code
    if args.json:
        print_json(applied_json(args, applied))
    else:
        t = applied.ruling["turn"]
        print(
            _("now: round {round}, side {side}, {phase} phase").format(
                round=t["round"], side=t["side"], phase=term(t["phase"])
            )
        )
        print(format_applied(args, applied))
    return code


__all__ = ["register", "run"]
