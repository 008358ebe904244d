"""The game log (issue 17): one JSON line per applied action, replayable to any position.

The first line records the starting scenario: its path, its whole text and the text's SHA-256.
Every later line is one applied action: ``action`` (``move``, ``fire``, ``turn``, ...), the
``inputs`` it was given, the ``dice`` rolled or given, the ``ruling`` (what the rules decided),
the ``changes`` it made to the scenario file (:mod:`szwadron.game.document`), and the SHA-256
of the position ``before`` and ``after`` it. Each line carries ``prev``, the hash of the line
before it, and ``hash``, the SHA-256 of its own content (the canonical JSON of the line without
``hash``), so a changed, dropped or reordered line is found and named.

:func:`replay` applies the recorded changes to the starting text in order and checks the hash
of every position on the way: the position after the N-th action is reproduced byte for byte.

>>> start = 'name = "t"\\n[table]\\nwidth = 10.0\\ndepth = 10.0\\n'
>>> log = new_log(start, "t.toml")
>>> log = append(log, {"action": "turn", "inputs": {}, "dice": {}, "ruling": {},
...     "changes": [{"op": "turn", "value": {"round": 1, "side": "A", "phase": "morale"}}]},
...     before=start, after=replay_text(log, [{"op": "turn", "value": {"round": 1, "side": "A", "phase": "morale"}}]))
>>> replay(parse_log(dump_log(log), source="g.jsonl")).endswith('phase = "morale"\\n\\n[table]\\nwidth = 10.0\\ndepth = 10.0\\n')
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.files import STDIN_NAME, check_nesting, is_stdio, read_input
from szwadron.game.document import Change, ScenarioDocument
from szwadron.i18n import _

#: The first line's ``log`` value and the format version.
LOG_KIND = "szwadron game log"
LOG_VERSION = 1

Line = dict[str, Any]


def sha256_text(text: str) -> str:
    """The SHA-256 of a text (UTF-8), hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _canonical(line: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in line.items() if k != "hash"}, sort_keys=True, ensure_ascii=False)


def _seal(line: Line) -> Line:
    line["hash"] = hashlib.sha256(_canonical(line).encode("utf-8")).hexdigest()
    return line


def new_log(text: str, path: str) -> list[Line]:
    """A log whose first line records the starting scenario ``text`` (read from ``path``)."""
    return [
        _seal(
            {
                "log": LOG_KIND,
                "version": LOG_VERSION,
                "scenario": {"path": path, "sha256": sha256_text(text), "text": text},
            }
        )
    ]


def append(log: Sequence[Line], action: Mapping[str, Any], *, before: str, after: str) -> list[Line]:
    """The log with one more action; ``before``/``after`` are the position's texts around it."""
    line: Line = {"n": len(log)}
    for key in ("action", "inputs", "dice", "ruling", "changes"):
        line[key] = action[key]
    line["before"] = sha256_text(before)
    line["after"] = sha256_text(after)
    line["prev"] = log[-1]["hash"]
    return [*log, _seal(line)]


def dump_log(log: Sequence[Line]) -> str:
    """The log as JSON lines."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in log)


def parse_log(text: str, *, source: str) -> list[Line]:
    """Read and check a log: JSON on every line, each line's own hash, the chain of ``prev``,
    the starting text's hash. Errors name the file and the line."""
    lines: list[Line] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            raise InvalidDataError(
                _("line {number}: empty line (a game log has one JSON object a line)").format(number=number),
                source=source,
            )
        check_nesting(raw, source=source, first_line=number)
        try:
            line = json.loads(raw)
        except RecursionError:
            raise InvalidDataError(
                _("line {number}: nested too deep").format(number=number), source=source
            ) from None
        except json.JSONDecodeError as exc:
            raise InvalidDataError(
                _("line {number}: not JSON ({msg}, column {colno})").format(
                    number=number, msg=exc.msg, colno=exc.colno
                ),
                source=source,
            ) from None
        if not isinstance(line, dict):
            raise InvalidDataError(
                _("line {number}: expected a JSON object").format(number=number), source=source
            )
        if line.get("hash") != hashlib.sha256(_canonical(line).encode("utf-8")).hexdigest():
            raise InvalidDataError(
                _(
                    "line {number}: the line was changed after it was written (its 'hash' does not match its content)"
                ).format(number=number),
                source=source,
            )
        if number == 1:
            _check_start(line, source)
        else:
            _check_action(line, number, lines[-1], source)
        lines.append(line)
    if not lines:
        raise InvalidDataError(_("the file is empty; expected a game log (JSON lines)"), source=source)
    return lines


def _check_start(line: Line, source: str) -> None:
    if line.get("log") != LOG_KIND:
        raise InvalidDataError(
            _('line 1: not a szwadron game log (expected "log": "{LOG_KIND}")').format(LOG_KIND=LOG_KIND),
            source=source,
        )
    if line.get("version") != LOG_VERSION:
        raise InvalidDataError(
            _("line 1.version: {line!r}; this szwadron reads version {LOG_VERSION}").format(
                line=line.get("version"), LOG_VERSION=LOG_VERSION
            ),
            source=source,
        )
    sc = line.get("scenario")
    if not isinstance(sc, dict) or not isinstance(sc.get("text"), str):
        raise InvalidDataError(
            _("line 1.scenario.text: missing (the starting scenario's text)"), source=source
        )
    if sc.get("sha256") != sha256_text(sc["text"]):
        raise InvalidDataError(
            _("line 1.scenario.sha256: the starting scenario's text does not match its hash"), source=source
        )


def _check_action(line: Line, number: int, prev: Line, source: str) -> None:
    for key, kind in (("action", str), ("changes", list), ("before", str), ("after", str)):
        if not isinstance(line.get(key), kind):
            raise InvalidDataError(
                _("line {number}.{key}: missing or not a {kind}").format(
                    number=number, key=key, kind=kind.__name__
                ),
                source=source,
            )
    if line.get("prev") != prev["hash"]:
        raise InvalidDataError(
            _(
                "line {number}.prev: does not follow line {number2} (a line was dropped, added or reordered)"
            ).format(number=number, number2=number - 1),
            source=source,
        )
    if line.get("n") != number - 1:
        raise InvalidDataError(
            _("line {number}.n: {line!r}, expected {number2}").format(
                number=number, line=line.get("n"), number2=number - 1
            ),
            source=source,
        )
    after_prev = prev["after"] if "after" in prev else prev["scenario"]["sha256"]
    if line["before"] != after_prev:
        raise InvalidDataError(
            _(
                "line {number}.before: the action was applied to another position than line {number2} left"
            ).format(number=number, number2=number - 1),
            source=source,
        )


def last_position_hash(log: Sequence[Line]) -> str:
    """The SHA-256 of the position the log ends at."""
    last = log[-1]
    return str(last["after"] if len(log) > 1 else last["scenario"]["sha256"])


def replay_text(log: Sequence[Line], changes: Sequence[Change] = ()) -> str:
    """The text of the position the log ends at, with ``changes`` applied after (no checks)."""
    doc = ScenarioDocument(log[0]["scenario"]["text"], source=str(log[0]["scenario"].get("path")))
    for line in log[1:]:
        doc.apply(line["changes"])
    doc.apply(changes)
    return doc.text


def replay(log: Sequence[Line], to: int | None = None, *, source: str = "game log") -> str:
    """The position after action ``to`` (default: the last; 0 the start), checked at every step:
    the text after each action must have the hash its line recorded."""
    actions = len(log) - 1
    if to is None:
        to = actions
    if not 0 <= to <= actions:
        raise InvalidArgumentError(
            "to",
            _("{to}: the log {source} has actions 0..{actions} (0 = the start)").format(
                to=to, source=source, actions=actions
            ),
        )
    doc = ScenarioDocument(log[0]["scenario"]["text"], source=f"{source}: line 1")
    for number, line in enumerate(log[1 : to + 1], start=2):
        try:
            doc.apply(line["changes"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise InvalidDataError(
                _("line {number}.changes: cannot be applied ({exc})").format(number=number, exc=exc),
                source=source,
            ) from None
        if sha256_text(doc.text) != line["after"]:
            raise InvalidDataError(
                _(
                    "line {number}.after: replaying the changes does not give the position recorded (the line or the scenario it starts from was changed)"
                ).format(number=number),
                source=source,
            )
    return doc.text


def read_log(path: str | Path) -> list[Line]:
    """Read and check a log file (``-``: standard input)."""

    source = STDIN_NAME if is_stdio(path) else str(path)
    raw = read_input(path)  # regular files only, bounded (issue 16)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidDataError(_("cannot read: {exc}").format(exc=exc), source=source) from None
    return parse_log(text, source=source)


__all__ = [
    "LOG_KIND",
    "LOG_VERSION",
    "Line",
    "append",
    "dump_log",
    "last_position_hash",
    "new_log",
    "parse_log",
    "read_log",
    "replay",
    "replay_text",
    "sha256_text",
]
