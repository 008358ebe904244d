"""The game and the set-up on the page (issue 18, after issue 17): apply and undo actions, place
units from army lists in formations, draw and edit terrain.

**Actions** (move, fire, melee, push-up, disengagement, morale phase, next phase) go through the
functions the command line's ``--apply`` calls (:mod:`szwadron.game.apply`): the session's
scenario text becomes the action's next position (changed in place by
:mod:`szwadron.game.document`, comments kept) and the action is appended to the session's game log (:mod:`szwadron.game.log`); *undo* drops the log's
last line and goes back to the position before it (the log's replay). An action the rules forbid
raises :class:`~szwadron.errors.IllegalActionError` with its rule and changes nothing.

**Set-up edits** (a unit placed, a terrain feature added, changed or deleted, units dragged
freely) change the starting position: they are made before the first action, and the game log
starts again from the edited position. Once the log holds an action they are refused (409):
the log replays only the changes of actions (project decision; undo the actions first).

Every edit is written into the text with tomlkit (comments and layout kept) and the new text is
read back with the scenario loader before it is kept: bad input is the loader's one message.
"""

from __future__ import annotations

from typing import Any

from szwadron.errors import InvalidDataError
from szwadron.i18n import _
from szwadron.models import Point, TerrainKind
from szwadron.web.requests import (
    ApplyFireRequest,
    ApplyMeleeRequest,
    ApplyMoraleRequest,
    ApplyMoveRequest,
    NextPhaseRequest,
    PlaceRequest,
    TerrainAddRequest,
    TerrainDeleteRequest,
    TerrainEditRequest,
    UndoRequest,
)


def _number(v: float) -> float | int:
    """A coordinate as a file writes it: whole numbers as integers, others to 1e-4 cm."""
    r = round(float(v), 4)
    return int(r) if r == int(r) else r


def _points(points: tuple[Point, ...]) -> Any:
    import tomlkit

    arr = tomlkit.array()
    for x, y in points:
        arr.append([_number(x), _number(y)])
    return arr


def add_terrain(text: str, req: TerrainAddRequest, ids: list[str]) -> tuple[str, str]:
    """The text with one more ``[[terrain]]`` table (after the others); ``(text, id)``."""
    import tomlkit

    tid = req.id or fresh_id(str(req.kind), ids)
    if tid in ids:
        raise _invalid(_("id: a terrain feature {tid!r} exists already").format(tid=tid))
    doc = tomlkit.parse(text)
    table = tomlkit.table()
    table["id"] = tid
    if req.name:
        table["name"] = req.name
    table["kind"] = str(req.kind)
    if req.level is not None:
        if req.level == 0 and req.kind is TerrainKind.HILL:
            raise _invalid(_("level: a hill is of level 1 or higher (1 to 10)"))
        if req.level > 0:  # a building's or a fortification's level 0: not tall (no level)
            table["level"] = req.level
    if req.polygon is not None:
        table["polygon"] = _points(req.polygon)
    if req.line is not None:
        table["line"] = _points(req.line)
    if req.width is not None:
        table["width"] = _number(req.width)
    terrain = doc.get("terrain")
    if terrain is None:
        aot = tomlkit.aot()
        aot.append(table)
        doc.append("terrain", aot)
    else:
        terrain.append(table)
    return tomlkit.dumps(doc), tid


def edit_terrain(text: str, req: TerrainEditRequest) -> str:
    """The text with a feature's ``polygon`` (or ``line``) replaced."""
    import tomlkit

    doc = tomlkit.parse(text)
    table = _terrain_table(doc, req.id)
    for key, value in (("polygon", req.polygon), ("line", req.line)):
        if value is not None:
            if key not in table:
                raise _invalid(_("{key}: terrain {tid!r} has no {key} to change").format(key=key, tid=req.id))
            table[key] = _points(value)
    if req.polygon is None and req.line is None:
        raise _invalid(_("give the feature's new 'polygon' or 'line'"))
    return tomlkit.dumps(doc)


def delete_terrain(text: str, req: TerrainDeleteRequest) -> str:
    """The text without a terrain feature."""
    import tomlkit

    doc = tomlkit.parse(text)
    terrain = doc.get("terrain")
    _terrain_table(doc, req.id)
    assert terrain is not None
    for k, table in enumerate(terrain):
        if table.get("id") == req.id:
            del terrain[k]
            break
    if not len(terrain):
        del doc["terrain"]
    return tomlkit.dumps(doc)


def _terrain_table(doc: Any, tid: str) -> Any:
    terrain = doc.get("terrain")
    for table in terrain or []:
        if table.get("id") == tid:
            return table
    known = ", ".join(str(t.get("id")) for t in terrain or []) or _("none")
    raise _invalid(_("id: no terrain feature {tid!r} (features: {known})").format(tid=tid, known=known))


def unit_block(uid: str, req: PlaceRequest, bases: list[tuple[float, float, float, str | None]]) -> str:
    """A ``[[units]]`` table for a placed unit, its bases one a line (the layout
    :mod:`szwadron.game.document` edits line by line)."""
    import tomlkit

    def value(v: Any) -> str:
        return str(tomlkit.item(v).as_string())

    lines = ["", "[[units]]", f"id = {value(uid)}", f"side = {value(req.side)}"]
    if req.name:
        lines.append(f"name = {value(req.name)}")
    lines.append(f"profile = {value(req.army + ':' + req.profile)}")
    lines.append("bases = [")
    for x, y, f, profile in bases:
        extra = "" if profile is None else f", profile = {value(profile)}"
        lines.append(
            f"  {{ x = {value(float(round(x, 4)))}, y = {value(float(round(y, 4)))}, "
            f"facing = {value(float(round(f, 4)))}{extra} }},"
        )
    lines.append("]")
    return "\n".join(lines) + "\n"


def formation_entry(req: PlaceRequest) -> dict[str, Any]:
    """The ``formation`` table of a placed unit, as a scenario file would give it."""
    out: dict[str, Any] = {
        "kind": str(req.kind),
        "files": req.files,
        "ranks": req.ranks,
        "x": req.x,
        "y": req.y,
        "facing": req.facing,
    }
    if req.gap is not None:
        out["gap"] = req.gap
    if req.limber is not None:
        out["limber"] = f"{req.army}:{req.limber}"
    return out


def fresh_id(stem: str, ids: list[str]) -> str:
    """An id not yet taken: ``STEM-N``, the smallest N.

    >>> fresh_id("line_infantry", ["line-infantry-1"])
    'line-infantry-2'
    """
    stem = stem.replace("_", "-")
    n = 1
    while f"{stem}-{n}" in ids:
        n += 1
    return f"{stem}-{n}"


def _invalid(message: str) -> Exception:

    return InvalidDataError(message, source="request")


__all__ = [
    "ApplyFireRequest",
    "ApplyMeleeRequest",
    "ApplyMoraleRequest",
    "ApplyMoveRequest",
    "NextPhaseRequest",
    "PlaceRequest",
    "TerrainAddRequest",
    "TerrainDeleteRequest",
    "TerrainEditRequest",
    "UndoRequest",
    "add_terrain",
    "delete_terrain",
    "edit_terrain",
    "formation_entry",
    "fresh_id",
    "unit_block",
]
