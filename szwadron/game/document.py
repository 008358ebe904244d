"""A scenario file edited in place (issue 17): the changes an applied action makes, written so
that the file keeps its comments and layout.

The text is cut at its top-level table headers into segments (the root keys, each ``[table]``,
each ``[[units]]`` entry with its ``[units.*]`` sub-tables); a change parses only the segment
it touches, with tomlkit, and writes it back. Parsing the whole of a 2,000-base file with
tomlkit takes a quarter of a second; a unit's segment takes a few milliseconds.

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

import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Table

from szwadron.errors import InvalidDataError

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
                raise InvalidDataError(f"malformed TOML: {exc}", source=source) from None
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
        """Apply changes in order; an unknown unit or a malformed change is bad input."""
        for change in changes:
            self._apply(change)

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
        raise InvalidDataError(f"no unit {unit_id!r} in the scenario", source=self.source)

    def _apply(self, change: Mapping[str, Any]) -> None:
        op = change.get("op")
        if op == "turn":
            self._set_turn(change["value"])
            return
        unit_id = str(change.get("unit"))
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
            raise InvalidDataError(f"unknown change {op!r}", source=self.source)

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
                turn = seg.doc["turn"]
                for key, v in value.items():
                    turn[key] = v
                return
        root = self._segments[0]
        if root.key == () and "turn" in root.doc:
            turn = root.doc["turn"]
            for key, v in value.items():
                turn[key] = v
            return
        table = tomlkit.table()
        for key, v in value.items():
            table[key] = v
        fresh = tomlkit.document()
        fresh["turn"] = table
        text = tomlkit.dumps(fresh)
        at = 1 if root.key == () else 0
        if at == 1 and not root.text.endswith("\n\n"):
            text = "\n" + text
        self._segments.insert(at, _Segment(("turn",), text + "\n"))


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
            f"unit {unit_id!r} has no 'bases' to change (a formation is expanded first)", source=source
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
