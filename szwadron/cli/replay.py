"""``szwadron replay GAME.jsonl -o OUT.toml [--to N] [--json]`` and ``szwadron undo GAME.jsonl
[-o OUT.toml]`` — the game log (issue 17).

``replay`` rebuilds the position after the last action (or the N-th; 0 is the start) from the
log's starting scenario and the changes of its actions, checking every line (its hash, its
place in the chain) and every position on the way (the hash each line recorded); the file is
byte for byte the one the action wrote. ``undo`` drops the last action of the log (and writes
the position before it with ``-o``).
"""

from __future__ import annotations

import argparse
from typing import Any

from szwadron.i18n import _, term


def register(subparsers: Any) -> None:
    """Add the ``replay`` and ``undo`` commands."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="rebuild the position after the last (or N-th) action of a game log",
        description=(
            "Replay a game log: the starting scenario and every action's changes, each line and "
            "each position checked against its recorded hash. A tampered or reordered line, or "
            "a log that does not match its scenario, is bad input (exit code 2), and nothing is "
            "written."
        ),
    )
    p.add_argument("log", metavar="GAME.jsonl", help="the game log")
    p.add_argument("-o", "--output", required=True, metavar="OUT.toml", help="the position written")
    p.add_argument("--to", type=int, metavar="N", help="stop after the N-th action (0: the start)")
    p.add_argument("--json", action="store_true", help="print a JSON document")
    p.set_defaults(func=run_replay)

    u: argparse.ArgumentParser = subparsers.add_parser(
        "undo",
        help="drop the last action of a game log",
        description="Drop the last action of a game log (the log is checked first).",
    )
    u.add_argument("log", metavar="GAME.jsonl", help="the game log")
    u.add_argument("-o", "--output", metavar="OUT.toml", help="write the position before the dropped action")
    u.add_argument("--json", action="store_true", help="print a JSON document")
    u.set_defaults(func=run_undo)


def run_replay(args: argparse.Namespace) -> int:
    """Replay and write."""
    from pathlib import Path

    from szwadron.cli._common import print_json
    from szwadron.files import check_output_path, write_text_atomic
    from szwadron.game.log import read_log, replay

    source = Path(args.log)
    out = check_output_path(args.output, inputs=(source,))
    log = read_log(source)
    to = len(log) - 1 if args.to is None else args.to
    text = replay(log, to, source=str(source))
    write_text_atomic(out, text, inputs=(source,))
    if args.json:
        print_json({"output": str(out), "actions": len(log) - 1, "to": to})
    else:
        print(_("{out}: the position after action {to} of {log}").format(out=out, to=to, log=len(log) - 1))
    return 0


def run_undo(args: argparse.Namespace) -> int:
    """Drop the last line; optionally write the position before it."""
    from pathlib import Path

    from szwadron.cli._common import print_json
    from szwadron.errors import InvalidDataError
    from szwadron.files import check_output_path, write_text_atomic
    from szwadron.game.log import dump_log, read_log, replay

    if args.log == "-":  # the log is rewritten in place: a file it must be
        raise InvalidDataError(_("-: undo rewrites the game log in place; give its file, not standard input"))
    source = Path(args.log)
    out = None if args.output is None else check_output_path(args.output, inputs=(source,))
    log = read_log(source)
    if len(log) < 2:
        raise InvalidDataError(
            _("no action to undo (the log holds only its starting scenario)"), source=str(source)
        )
    dropped = log[-1]
    kept = log[:-1]
    text = replay(kept, source=str(source)) if out is not None else None
    body = dump_log(kept)
    write_text_atomic(source, body)
    if out is not None and text is not None:
        write_text_atomic(out, text, inputs=(source,))
    if args.json:
        print_json(
            {
                "log": str(source),
                "dropped": dropped["n"],
                "action": dropped["action"],
                "actions": len(kept) - 1,
                "output": None if out is None else str(out),
            }
        )
    else:
        print(
            _("{source}: dropped action {n} ({action}); {kept} actions left").format(
                source=source, n=dropped["n"], action=term(dropped["action"]), kept=len(kept) - 1
            )
        )
        if out is not None:
            print(_("{out}: the position before it").format(out=out))
    return 0


__all__ = ["register", "run_replay", "run_undo"]
