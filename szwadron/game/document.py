"""A scenario file edited in place (issue 17): the changes an applied action makes, written so
that the file keeps its comments and layout.

The text is cut at its top-level table headers into segments (the root keys, each ``[table]``,
each ``[[units]]`` entry with its ``[units.*]`` sub-tables); a change touches only its unit's
segment. A unit written as the bundled scenarios write it (its ``bases`` one inline table a
line, no sub-table) is changed line by line: the moved bases' lines are written anew, removed
ones dropped, a field's line replaced or added after the unit's last line, comments kept. Any
other layout is parsed with tomlkit, changed and written back. (Parsing the whole of a
2,000-base file with tomlkit takes a quarter of a second; a unit's lines take microseconds.)
After each action every segment is text again, so that a log replayed in one document gives the
very text each action wrote from its file.

A change is a small JSON-able dict (the game log records them, :mod:`szwadron.game.log`):

- ``{"op": "expand", "unit": U, "bases": [{"x", "y", "facing", ...}, ...]}`` — a unit given
  as a ``formation`` gets these bases instead (issue 17);
- ``{"op": "move", "unit": U, "poses": [[INDEX, x, y, facing], ...]}`` — new poses of bases;
- ``{"op": "remove", "unit": U, "bases": [INDEX, ...]}`` — bases removed (casualties, 4.7);
- ``{"op": "set", "unit": U, "field": F, "value": V}`` — a field of the unit (``None`` removes
  it, so the default applies);
- ``{"op": "drop", "unit": U}`` — the unit leaves the table (destroyed, PD-18; fled, 6.6);
- ``{"op": "turn", "value": {...}}`` — the turn counter (2).

>>> doc = ScenarioDocument('name = "t"  # a comment\\n[[units]]\\nid = "a"\\nbases = [\\n'
...     '  { x = 1.0, y = 2.0, facing = 90.0 },  # left\\n]\\n')
>>> doc.apply([{"op": "move", "unit": "a", "poses": [[0, 1.0, 5.0, 90.0]]},
...            {"op": "set", "unit": "a", "field": "state", "value": "panic"}])
>>> print(doc.text, end="")
name = "t"  # a comment
[[units]]
id = "a"
bases = [
  { x = 1.0, y = 5.0, facing = 90.0 },  # left
]
state = "panic"
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Table

from szwadron.errors import InvalidDataError
from szwadron.i18n import _

Change = dict[str, Any]

#: A top-level table header on a line of its own: ``[name]``, ``[[name]]``, ``[a.b]``.
_HEADER = re.compile(
    r"""^[ \t]*(\[\[?)[ \t]*((?:[A-Za-z0-9_\-]+|"[^"\n]*"|'[^'\n]*')"""
    r"""(?:[ \t]*\.[ \t]*(?:[A-Za-z0-9_\-]+|"[^"\n]*"|'[^'\n]*'))*)[ \t]*\]\]?[ \t]*(?:#[^\n]*)?$""",
    re.MULTILINE,
)

_KEY_PART = re.compile(r"""[ \t]*(?:([A-Za-z0-9_\-]+)|"([^"\n]*)"|'([^'\n]*)')[ \t]*""")


def _header_parts(name: str) -> list[str]:
    return [m.group(1) or m.group(2) or m.group(3) or "" for m in _KEY_PART.finditer(name)]


class _Segment:
    """One piece of the text: its first header's key path (``()`` for the root keys), its text
    and, once touched, its tomlkit document (the text is written again when next asked for)."""

    __slots__ = ("_dirty", "_doc", "_text", "key")

    def __init__(self, key: tuple[str, ...], text: str) -> None:
        self.key = key
        self._text = text
        self._doc: tomlkit.TOMLDocument | None = None
        self._dirty = False

    @property
    def doc(self) -> tomlkit.TOMLDocument:
        """The segment parsed, to be changed (its text is then written anew)."""
        if self._doc is None:
            self._doc = tomlkit.parse(self._text)
        self._dirty = True
        return self._doc

    @property
    def text(self) -> str:
        if self._dirty:
            assert self._doc is not None
            self._text = tomlkit.dumps(self._doc)
            self._dirty = False
        return self._text

    def settle(self) -> None:
        """Back to text: the next change starts from the text, as it would from the file."""
        if self._doc is not None:
            _settled = self.text
            self._doc = None


class ScenarioDocument:
    """A scenario's TOML text with the changes of :mod:`szwadron.game` applied to it."""

    def __init__(self, text: str, *, source: str = "scenario", unit_ids: Sequence[str] | None = None) -> None:
        """``unit_ids``: the ids of the units in file order, when the text was parsed already
        (else it is parsed here, to check the cut)."""
        self.source = source
        ids: list[Any]
        if unit_ids is None:
            try:
                data = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise InvalidDataError(
                    _("malformed TOML: {reason}").format(reason=exc), source=source
                ) from None
            units = data.get("units", [])
            ids = [u.get("id") for u in units] if isinstance(units, list) else []
        else:
            ids = list(unit_ids)
        self._segments = _split(text)
        found = [s for s in self._segments if s.key == ("units",)]
        if len(found) != len(ids) or any(_segment_id(s) != i for s, i in zip(found, ids, strict=False)):
            # units given otherwise (inline, or headers inside strings): the whole text, one piece
            self._segments = [_Segment((), text)]
            self._whole = True
        else:
            self._whole = False

    @property
    def text(self) -> str:
        """The text with every change applied."""
        return "".join(s.text for s in self._segments)

    def apply(self, changes: Iterable[Mapping[str, Any]]) -> None:
        """Apply the changes of one action in order; an unknown unit or a malformed change is
        bad input. Afterwards every piece is text again, so that a log replayed in one document
        gives, action after action, the very text each action wrote from its file."""
        for change in changes:
            self._apply(change)
        for seg in self._segments:
            seg.settle()

    # --- units --------------------------------------------------------------------------------

    def _unit(self, unit_id: str) -> tuple[int, Table]:
        if self._whole:
            units = self._segments[0].doc.get("units")
            if isinstance(units, (AoT, Array, list)):
                for table in units:
                    if table.get("id") == unit_id:
                        return 0, table
        else:
            for k, seg in enumerate(self._segments):
                if seg.key == ("units",) and _segment_id(seg) == unit_id:
                    units = seg.doc["units"]
                    assert isinstance(units, AoT)
                    return k, units[0]
        raise InvalidDataError(
            _("no unit {unit} in the scenario").format(unit=repr(unit_id)), source=self.source
        )

    def _segment_of(self, unit_id: str) -> int:
        for k, seg in enumerate(self._segments):
            if seg.key == ("units",) and _segment_id(seg) == unit_id:
                return k
        raise InvalidDataError(
            _("no unit {unit} in the scenario").format(unit=repr(unit_id)), source=self.source
        )

    def _apply(self, change: Mapping[str, Any]) -> None:
        op = change.get("op")
        if op == "turn":
            self._set_turn(change["value"])
            return
        unit_id = str(change.get("unit"))
        if not self._whole and op in ("move", "remove", "set", "drop"):
            k = self._segment_of(unit_id)
            if op == "drop":
                del self._segments[k]
                return
            seg = self._segments[k]
            if seg._doc is None:
                edited = _fast_edit(seg._text, op, change)
                if edited is not None:
                    seg._text = edited
                    return
        k, table = self._unit(unit_id)
        if op == "expand":
            bases = _bases_array(change["bases"])
            if isinstance(table.get("formation"), InlineTable):
                table.value._replace("formation", "bases", bases)  # where the formation stood
            else:
                if "formation" in table.value:
                    table.value.remove("formation")
                table["bases"] = bases
        elif op == "move":
            bases = _bases_of(table, unit_id, self.source)
            for index, x, y, facing in change["poses"]:
                base = bases[int(index)]
                base["x"], base["y"], base["facing"] = float(x), float(y), float(facing)
        elif op == "remove":
            bases = _bases_of(table, unit_id, self.source)
            for index in sorted((int(i) for i in change["bases"]), reverse=True):
                del bases[index]
        elif op == "set":
            field, value = str(change["field"]), change["value"]
            if value is None:
                if field in table.value:
                    table.value.remove(field)
            else:
                _set_key(table, field, value)
        elif op == "drop":
            self._drop(k, unit_id)
        else:
            raise InvalidDataError(_("unknown change {op}").format(op=repr(op)), source=self.source)

    def _drop(self, k: int, unit_id: str) -> None:
        if self._whole:
            units = self._segments[0].doc["units"]
            for i, table in enumerate(units):
                if table.get("id") == unit_id:
                    del units[i]
                    return
        del self._segments[k]

    def _set_turn(self, value: Mapping[str, Any]) -> None:
        for seg in self._segments:
            if seg.key == ("turn",):
                _merge_turn(seg.doc["turn"], value)
                return
        root = self._segments[0]
        if root.key == () and "turn" in root.doc:
            _merge_turn(root.doc["turn"], value)
            return
        table = tomlkit.table()
        _merge_turn(table, value)
        fresh = tomlkit.document()
        fresh["turn"] = table
        text = tomlkit.dumps(fresh)
        at = 1 if root.key == () else 0
        if at == 1 and not root.text.endswith("\n\n"):
            root.settle()
            root._text += "\n" if root._text.endswith("\n") else "\n\n"
        self._segments.insert(at, _Segment(("turn",), text + "\n"))


def _merge_turn(turn: Any, value: Mapping[str, Any]) -> None:
    """The turn table's keys set to ``value``'s; a key set to None is removed."""
    for key, v in value.items():
        if v is None:
            if key in turn:
                del turn[key]
        else:
            turn[key] = v


# --- the fast path: a unit's bases one a line, edited as text ------------------------------------

_BASES_OPEN = re.compile(r"^bases[ \t]*=[ \t]*\[[ \t]*(?:#[^\n]*)?$")
_ARRAY_CLOSE = re.compile(r"^[ \t]*\][ \t]*(?:#[^\n]*)?$")
_ITEM = re.compile(r"^([ \t]*)(\{.*\})([ \t]*,?)([ \t]*(?:#.*)?)$")
_NOTHING = re.compile(r"^[ \t]*(?:#.*)?$")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_value(value: Any) -> str:
    return str(tomlkit.item(value).as_string())


def _inline(table: Mapping[str, Any]) -> str:
    keys = [k if _BARE_KEY.match(k) else json.dumps(k) for k in table]
    return (
        "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in zip(keys, table.values(), strict=True)) + " }"
    )


def _base_items(lines: list[str]) -> list[int] | None:
    """Indices of the lines of the ``bases`` array's items, when it is written one inline table
    a line (else None: the caller falls back to tomlkit)."""
    opens = [i for i, line in enumerate(lines) if _BASES_OPEN.match(line)]
    if len(opens) != 1:
        return None
    items: list[int] = []
    for i in range(opens[0] + 1, len(lines)):
        line = lines[i]
        if _ARRAY_CLOSE.match(line):
            block = "\n".join(lines[opens[0] : i + 1])
            try:
                count = len(tomllib.loads(block)["bases"])
            except (tomllib.TOMLDecodeError, KeyError, TypeError):
                return None
            return items if count == len(items) else None
        if _ITEM.match(line):
            items.append(i)
        elif not _NOTHING.match(line):
            return None
    return None


def _fast_edit(text: str, op: str, change: Mapping[str, Any]) -> str | None:
    """The unit's text with a ``move``, ``remove`` or ``set`` change made, or None when the
    text is laid out otherwise (sub-tables, several bases a line, a multi-line value)."""
    lines = text.split("\n")
    if any(line.lstrip().startswith("[") for line in lines[1:] if not line.startswith((" ", "\t", "{"))):
        return None  # a sub-table ([units.profile]): tomlkit's business
    if op == "set":
        return _fast_set(lines, str(change["field"]), change["value"])
    items = _base_items(lines)
    if items is None:
        return None
    if op == "move":
        for index, x, y, facing in change["poses"]:
            at = items[int(index)]
            m = _ITEM.match(lines[at])
            assert m is not None
            base = tomllib.loads("t = " + m.group(2))["t"]
            base["x"], base["y"], base["facing"] = float(x), float(y), float(facing)
            lines[at] = m.group(1) + _inline(base) + m.group(3) + m.group(4)
        return "\n".join(lines)
    if op == "remove":
        for index in sorted((int(i) for i in change["bases"]), reverse=True):
            del lines[items[index]]
        return "\n".join(lines)
    return None


def _fast_set(lines: list[str], field: str, value: Any) -> str | None:
    key = re.compile(rf"^{re.escape(field)}[ \t]*=")
    found = [i for i, line in enumerate(lines) if key.match(line)]
    if len(found) > 1:
        return None
    if found:
        line = lines[found[0]]
        try:
            tomllib.loads(line)
        except tomllib.TOMLDecodeError:
            return None  # a value over several lines
        if value is None:
            del lines[found[0]]
        else:
            comment = ""
            if "#" in line:
                head, _, tail = line.rpartition("#")
                try:
                    tomllib.loads(head)
                    comment = "  #" + tail
                except tomllib.TOMLDecodeError:
                    comment = ""
            lines[found[0]] = f"{field} = {_toml_value(value)}{comment}"
        return "\n".join(lines)
    if value is None:
        return "\n".join(lines)
    last = max(i for i, line in enumerate(lines) if not _NOTHING.match(line))
    lines.insert(last + 1, f"{field} = {_toml_value(value)}")
    return "\n".join(lines)


def _split(text: str) -> list[_Segment]:
    """Cut the text at its top-level headers; a ``[units.*]`` sub-table stays with its unit."""
    segments: list[_Segment] = []
    start, key = 0, cast(tuple[str, ...], ())
    for m in _HEADER.finditer(text):
        parts = tuple(_header_parts(m.group(2)))
        if key == ("units",) and parts[:1] == ("units",) and len(parts) > 1:
            continue  # a sub-table of the unit above
        if m.start() > start or segments or key:
            segments.append(_Segment(key, text[start : m.start()]))
        start, key = m.start(), parts
    segments.append(_Segment(key, text[start:]))
    return segments


_ID = re.compile(r"""^[ \t]*id[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)')""", re.MULTILINE)


def _segment_id(seg: _Segment) -> str | None:
    if seg._doc is not None:
        units = seg._doc.get("units")
        return str(units[0].get("id")) if units else None
    m = _ID.search(seg._text)
    return (m.group(1) if m.group(1) is not None else m.group(2)) if m else None


def _set_key(table: Table, key: str, value: Any) -> None:
    """Set a key; a new one goes right after the table's last key, before the comments and
    blank lines that lead to the next table."""
    if key in table.value:
        table.value[key] = value
        return
    last = None
    for k, item in table.value.body:
        if k is not None and not isinstance(item, (Table, AoT)):
            last = k
    if last is None:
        table[key] = value
    else:
        table.value._insert_after(last, key, tomlkit.item(value))


def _bases_of(table: Table, unit_id: str, source: str) -> Any:
    bases = table.get("bases")
    if bases is None:
        raise InvalidDataError(
            _("unit {unit} has no 'bases' to change (a formation is expanded first)").format(
                unit=repr(unit_id)
            ),
            source=source,
        )
    return bases


def _bases_array(bases: Sequence[Mapping[str, Any]]) -> Array:
    """A multi-line array of inline tables, one base a line, as the bundled scenarios write them."""
    lines = "".join(
        "  { " + ", ".join(f"{k} = {tomlkit.item(v).as_string()}" for k, v in b.items()) + " },\n"
        for b in bases
    )
    arr = tomlkit.parse(f"bases = [\n{lines}]\n")["bases"]
    assert isinstance(arr, Array)
    return arr


def base_entry(x: float, y: float, facing: float, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A base as a change carries it: ``x``, ``y``, ``facing`` then any extras (``profile``...)."""
    out: dict[str, Any] = {"x": float(x), "y": float(y), "facing": float(facing)}
    if extra:
        out.update(extra)
    return out


__all__ = ["Change", "ScenarioDocument", "base_entry"]
