"""The move file (``szwadron move --to FILE``): the new poses of the bases that move.

A TOML file of ``[[bases]]`` tables, each the new pose of one base of the moving unit (by its
``index`` in the unit, ``UNIT/INDEX``), with optional ``waypoints`` passed on the way (PD-6).
Bases not listed stay where they are. A combined move (3.3) names each base's ``unit``.

>>> m = MoveFile.model_validate({"bases": [{"index": 0, "x": 15, "y": 40, "facing": 90,
...                                         "waypoints": [[15, 35, 90]]}]})
>>> m.bases[0].waypoints
((15.0, 35.0, 90.0),)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from szwadron.i18n import _
from szwadron.loading import read_toml, source_name, validate
from szwadron.models import Coordinate, FiniteFloat, Identifier
from szwadron.settings import WholeNumber


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class MovePose(_Frozen):
    """The new pose of one base (by its index in the unit), with optional waypoints."""

    index: WholeNumber = Field(ge=0, description="Index of the base in its unit (UNIT/INDEX).")
    unit: Identifier | None = Field(
        None, description="Unit of the base; needed only in a combined move (3.3)."
    )
    x: Coordinate = Field(description="New centre x, cm.")
    y: Coordinate = Field(description="New centre y, cm.")
    facing: FiniteFloat = Field(description="New facing, degrees counter-clockwise from +x.")
    waypoints: tuple[tuple[Coordinate, Coordinate, FiniteFloat], ...] = Field(
        (), description="Poses [x, y, facing] passed on the way, in order (PD-6)."
    )

    @field_validator("waypoints", mode="before")
    @classmethod
    def _triples(cls, v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            for j, wp in enumerate(v):
                if isinstance(wp, (list, tuple)) and len(wp) != 3:
                    raise ValueError(
                        _("waypoint {j}: expected 3 numbers [x, y, facing], got {n}").format(j=j, n=len(wp))
                    )
        return v


class MoveFile(_Frozen):
    """A proposed move: the new poses of the bases that move (at least one)."""

    unit: Identifier | None = Field(None, description="The unit moving (checked against --unit).")
    description: str | None = None
    bases: tuple[MovePose, ...] = Field(description="The bases that move (at least one).")

    @field_validator("bases")
    @classmethod
    def _some(cls, v: tuple[MovePose, ...]) -> tuple[MovePose, ...]:
        if not v:
            raise ValueError(_("list at least one base that moves"))
        return v


def load_move_file(path: str | Path) -> MoveFile:
    """Read and validate a move file (``-``: standard input); errors name the file and the field
    path."""
    return validate(MoveFile, read_toml(path), source=source_name(path))


__all__ = ["MoveFile", "MovePose", "load_move_file"]
