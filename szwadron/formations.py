"""Formations (issue 17): a unit's bases laid out from a few numbers instead of one pose each.

A scenario's unit may give ``formation = { kind = "line", files = 6, ranks = 2, x = 50.0,
y = 30.0, facing = 90.0 }`` instead of ``bases``; the models expand it into bases, so every
command sees bases (:class:`szwadron.models.Formation`). This module is the geometry alone:
numbers in, poses out (ground layer, standard library only).

Conventions (docs/decisions.md "Formations", "The table"): ``(x, y)`` is the middle of the formation's
front edge, ``facing`` the direction the formation faces (degrees counter-clockwise from +x);
bases are numbered front rank first, from the unit's own left to its right, then each rank
behind in the same way.

Kinds:

- ``line`` and ``column`` — ``files`` × ``ranks`` bases edge to edge (1.3.1: every base touches
  its neighbours). The rules know no formations (1.3 asks only for coherency), so the two differ
  in name only: a line is usually wide, a column deep.
- ``skirmish`` — ``files`` × ``ranks`` bases with ``gap`` cm between neighbouring bases, across
  and between ranks (1.3.4: at most 4 cm; 7.5, PD-17: a gap of 2 cm or more halves fire
  casualties and melee strength). Default gap 2 cm, the least that gives 7.5's benefit.
- ``square`` — **project decision** (the rules are silent on squares): a hollow square of
  ``files`` bases a face, the faces edge to edge and facing outwards — the front face (facing
  ``facing``) and the rear face (facing away) ``files`` bases each, the left and right faces the
  ``files - 2`` bases between them (facing left and right); ``4 × files - 4`` bases in all,
  infantry only. Numbered front face left to right, then each rank behind (its left face base,
  then its right), then the rear face from the unit's own left to its right. It is an ordinary
  arrangement for every rule (coherency, arcs: each base fires through its own outward edge);
  the rules give it no special modifier.
- ``battery`` — ``files`` guns side by side (ranks 1) and, when the formation names a
  ``limber`` profile, one limber behind each gun, edge to edge, facing as the gun (7.2); the
  limbers are numbered after the guns, left to right.

>>> [(round(x, 6), round(y, 6), f) for x, y, f in formation_poses("line", 3, 2, 50, 30, 90, 2, 2)]
[(48.0, 29.0, 90.0), (50.0, 29.0, 90.0), (52.0, 29.0, 90.0), (48.0, 27.0, 90.0), (50.0, 27.0, 90.0), (52.0, 27.0, 90.0)]
"""

from __future__ import annotations

import math
from enum import StrEnum

#: Most bases one formation expands to (a guard against a typo such as ``files = 100000``).
MAX_FORMATION_BASES = 10_000

#: 1.3.4 — the widest gap between skirmishers' bases.
MAX_SKIRMISH_GAP_CM = 4.0

#: 7.5, PD-17 — the default gap of a skirmish formation: the least that gives 7.5's benefit.
DEFAULT_SKIRMISH_GAP_CM = 2.0

_DIGITS = 6


class FormationKind(StrEnum):
    """The formations a scenario may give instead of ``bases``."""

    LINE = "line"
    COLUMN = "column"
    SKIRMISH = "skirmish"
    SQUARE = "square"
    BATTERY = "battery"


Pose = tuple[float, float, float]


def formation_size(kind: FormationKind | str, files: int, ranks: int = 1) -> int:
    """How many bases the formation has (limbers of a battery not counted).

    >>> formation_size("line", 6, 2), formation_size("square", 4), formation_size("battery", 2)
    (12, 12, 2)
    """
    k = FormationKind(kind)
    if k is FormationKind.SQUARE:
        return 4 * files - 4
    if k is FormationKind.BATTERY:
        return files
    return files * ranks


def formation_poses(
    kind: FormationKind | str,
    files: int,
    ranks: int,
    x: float,
    y: float,
    facing: float,
    width: float,
    depth: float,
    *,
    gap: float = 0.0,
    limbers: tuple[float, float] | None = None,
) -> list[Pose]:
    """The poses ``(x, y, facing)`` of a formation's bases in file order.

    ``width``/``depth`` are the frontage and depth of one base (1.2, PD-1); ``gap`` the space
    between skirmishers (7.5); ``limbers`` the (frontage, depth) of a battery's limbers, or None
    for a battery without them (7.2). Coordinates are rounded to 1e-6 cm, so that a file written
    from them reads back to the same numbers.

    >>> formation_poses("square", 3, 1, 0, 0, 90, 2, 2)[3:5]
    [(-2.0, -3.0, 180.0), (2.0, -3.0, 0.0)]
    >>> formation_poses("battery", 1, 1, 44, 98, 270, 4, 4, limbers=(4, 4))
    [(44.0, 100.0, 270.0), (44.0, 104.0, 270.0)]
    """
    k = FormationKind(kind)
    fx, fy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    rx, ry = fy, -fx  # the unit's own right

    def at(lateral: float, forward: float, turn: float = 0.0) -> Pose:
        px = x + lateral * rx + forward * fx
        py = y + lateral * ry + forward * fy
        f = (facing + turn) % 360.0 if turn else facing
        return (_round(px), _round(py), _round(f))

    step_x, step_y = width + gap, depth + gap
    poses: list[Pose] = []
    if k is FormationKind.SQUARE:
        side = files * width
        half = side / 2.0
        poses += [at(-half + width / 2 + i * width, -depth / 2) for i in range(files)]
        for j in range(1, files - 1):
            forward = -depth / 2 - j * width
            poses.append(at(-half + depth / 2, forward, 90.0))
            poses.append(at(half - depth / 2, forward, -90.0))
        back = -depth / 2 - (files - 1) * width
        poses += [at(-half + width / 2 + i * width, back, 180.0) for i in range(files)]
        return poses
    if k is FormationKind.BATTERY:
        ranks = 1
    row = files * width + (files - 1) * gap
    for r in range(ranks):
        forward = -depth / 2 - r * step_y
        poses += [at(-row / 2 + width / 2 + i * step_x, forward) for i in range(files)]
    if k is FormationKind.BATTERY and limbers is not None:
        lw, ld = limbers
        forward = -depth - ld / 2
        poses += [at(-row / 2 + width / 2 + i * step_x, forward) for i in range(files)]
        del lw
    return poses


def _round(v: float) -> float:
    out = round(float(v), _DIGITS)
    return 0.0 if out == 0 else out  # no "-0.0" in a written file


__all__ = [
    "DEFAULT_SKIRMISH_GAP_CM",
    "MAX_FORMATION_BASES",
    "MAX_SKIRMISH_GAP_CM",
    "FormationKind",
    "Pose",
    "formation_poses",
    "formation_size",
]
