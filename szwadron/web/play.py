"""The game and the set-up on the page (issue 18, after issue 17): apply and undo actions, place
units from army lists in formations, draw and edit terrain.

**Actions** (move, fire, melee, morale phase, next phase) go through the functions the command
line's ``--apply`` calls (:mod:`szwadron.game.apply`): the session's scenario text becomes the
action's next position (changed in place by :mod:`szwadron.game.document`, comments kept) and the
action is appended to the session's game log (:mod:`szwadron.game.log`); *undo* drops the log's
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

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from szwadron.formations import FormationKind
from szwadron.models import Coordinate, FiniteFloat, Identifier, Point, TerrainKind
from szwadron.web.session import FireRequest, MeleeRequest, MoraleRequest, MoveRequest, _Request

#: Most dice a request may give for one action.
MAX_DICE = 2000

Die = int


class _Dice(BaseModel):
    """Dice typed in (in the order they are rolled) or rolled from a seed."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ApplyMoveRequest(MoveRequest):
    """Apply a move (section 3): ``positions`` the table before it, ``to`` the unit's poses."""


class ApplyFireRequest(FireRequest):
    """Apply a volley (section 4): the volley's d6 in the order of its groups, the remainder
    roll's die (1.5.1) and the morale test's dice (4.8.1), or a seed that rolls them all."""

    dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    remainder_dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    morale_dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ApplyMeleeRequest(MeleeRequest, _Dice):
    """Apply a melee (5.3-5.6): its dice in the order rolled, or a seed."""


class ApplyMoraleRequest(MoraleRequest, _Dice):
    """Apply a side's morale phase (6.8): its dice in the order rolled, or a seed."""


class NextPhaseRequest(_Request):
    """The game moves on to the next phase (2)."""


class UndoRequest(BaseModel):
    """Drop the last action of the game log."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class PlaceRequest(_Request):
    """A unit from an army list placed in a formation (issue 17's formations): ``(x, y)`` is the
    middle of its front edge."""

    army: Identifier
    profile: Identifier
    side: Literal["A", "B"]
    kind: FormationKind
    files: int = Field(ge=1, le=200)
    ranks: int = Field(1, ge=1, le=50)
    x: Coordinate
    y: Coordinate
    facing: FiniteFloat = 90.0
    gap: float | None = Field(None, ge=0, allow_inf_nan=False)
    limber: Identifier | None = None
    id: Identifier | None = None
    name: str | None = Field(None, max_length=200)


class TerrainAddRequest(_Request):
    """A terrain feature drawn on the page: an area (``polygon``) or a linear one (``line`` and
    ``width``)."""

    kind: TerrainKind
    id: Identifier | None = None
    name: str | None = Field(None, max_length=200)
    level: int | None = Field(None, ge=0, le=10)
    polygon: tuple[Point, ...] | None = Field(None, max_length=500)
    line: tuple[Point, ...] | None = Field(None, max_length=500)
    width: float | None = Field(None, gt=0, le=100, allow_inf_nan=False)


class TerrainEditRequest(_Request):
    """A terrain feature's corners moved: its new ``polygon`` or ``line``."""

    id: Identifier
    polygon: tuple[Point, ...] | None = Field(None, max_length=500)
    line: tuple[Point, ...] | None = Field(None, max_length=500)


class TerrainDeleteRequest(_Request):
    """A terrain feature removed."""

    id: Identifier


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
        raise _invalid(f"id: a terrain feature {tid!r} exists already")
    doc = tomlkit.parse(text)
    table = tomlkit.table()
    table["id"] = tid
    if req.name:
        table["name"] = req.name
    table["kind"] = str(req.kind)
    if req.level is not None:
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
                raise _invalid(f"{key}: terrain {req.id!r} has no {key} to change")
            table[key] = _points(value)
    if req.polygon is None and req.line is None:
        raise _invalid("give the feature's new 'polygon' or 'line'")
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
    known = ", ".join(str(t.get("id")) for t in terrain or []) or "none"
    raise _invalid(f"id: no terrain feature {tid!r} (features: {known})")


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
    from szwadron.errors import InvalidDataError

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
