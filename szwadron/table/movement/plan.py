"""The planning of a move before its rules are checked: the listed bases and their poses, each
base's allowed move (3.1.5, 7.2), their paths (PD-6), coherency groups (1.3) and the order the
figures move in (3.1.1, 3.1.3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.paths import BaseMotion, Pose, Surcharge
from szwadron.geometry.terrain import TerrainShape
from szwadron.i18n import _, ngettext, term
from szwadron.models import Kind, TerrainKind
from szwadron.movefile import MoveFile
from szwadron.table.audit import connected_groups

FloatArray = npt.NDArray[np.float64]


@dataclass
class Planned:
    """One listed base's move: its path (PD-6), the area it sweeps, that area shrunk by the
    overlap tolerance (PD-3, what "passes through" tests) and its final corners."""

    entry: int  # index in the move file
    base: int  # index in the battlefield
    motion: BaseMotion
    sweep: shapely.Geometry
    core: shapely.Geometry
    final: FloatArray  # corners (4, 2)


def pose_off_table(corners: FloatArray, width: float, depth: float, lim: float) -> str | None:
    """3.1.4 — why a pose's corners lie off the table (beyond ``lim``), or ``None``."""
    cx, cy = corners[:, 0], corners[:, 1]
    if (cx < -lim).any() or (cy < -lim).any() or (cx > width + lim).any() or (cy > depth + lim).any():
        k = int(np.argmax(np.maximum.reduce([-cx, -cy, cx - width, cy - depth])))
        return _(
            "off the table: corner ({cx:.2f}, {cy:.2f}) lies outside the {width:g} × {depth:g} cm table"
        ).format(cx=cx[k], cy=cy[k], width=width, depth=depth)
    return None


def resolve_poses(
    bf: Battlefield,
    units: tuple[str, ...],
    move: MoveFile,
    source: str,
) -> list[tuple[int, int, list[Pose]]]:
    """``(entry, base index, poses)`` per listed base; bad references raise InvalidDataError."""
    s = bf.settings
    lim = s.overlap_tolerance_cm + s.distance_epsilon_cm
    table = bf.scenario.table
    if move.unit is not None and move.unit not in units:
        raise InvalidDataError(
            _("unit: the move file is for unit {unit!r}, but the move is of {units}").format(
                unit=move.unit, units=", ".join(units)
            ),
            source=source,
        )
    seen: dict[int, int] = {}
    out: list[tuple[int, int, list[Pose]]] = []
    for k, entry in enumerate(move.bases):
        at = f"bases[{k}]"
        if entry.unit is None:
            if len(units) > 1:
                raise InvalidDataError(
                    _("{at}.unit: a combined move (3.3) names the unit of each base ({units})").format(
                        at=at, units=", ".join(units)
                    ),
                    source=source,
                )
            uid = units[0]
        else:
            uid = entry.unit
            if uid not in units:
                raise InvalidDataError(
                    _("{at}.unit: {uid!r} is not a unit of this move ({units})").format(
                        at=at, uid=uid, units=", ".join(units)
                    ),
                    source=source,
                )
        members = bf.unit_bases(uid)
        if entry.index >= len(members):
            n = len(members)
            raise InvalidDataError(
                ngettext(
                    "{at}.index: unit {uid!r} has no base {index}; it has {n} base, 0 to {last}",
                    "{at}.index: unit {uid!r} has no base {index}; it has {n} bases, 0 to {last}",
                    n,
                ).format(at=at, uid=uid, index=entry.index, n=n, last=n - 1),
                source=source,
            )
        b = int(members[entry.index])
        if b in seen:
            raise InvalidDataError(
                _(
                    "{at}.index: base {base} is already moved by bases[{seen}]; list each base once (put intermediate poses in its waypoints)"
                ).format(at=at, base=bf.base_ids[b], seen=seen[b]),
                source=source,
            )
        seen[b] = k
        w, d = float(bf.width[b]), float(bf.depth[b])
        poses = [Pose(float(bf.x[b]), float(bf.y[b]), float(bf.facing[b]))]
        for j, wp in enumerate(entry.waypoints):
            pose = Pose(*wp)
            off = pose_off_table(base_corners(*pose, w, d), table.width, table.depth, lim)
            if off:
                raise InvalidDataError(
                    _("{at}.waypoints[{j}]: {off}").format(at=at, j=j, off=off), source=source
                )
            poses.append(pose)
        final = Pose(entry.x, entry.y, entry.facing)
        off = pose_off_table(base_corners(*final, w, d), table.width, table.depth, lim)
        if off:
            raise InvalidDataError(_("{at}: the new pose is {off}").format(at=at, off=off), source=source)
        poses.append(final)
        out.append((k, b, poses))
    return out


def base_speeds(bf: Battlefield, unit_k: int) -> dict[int, float]:
    """3.1.5, 7.2 — the move of each base of a unit: its own R, or the gun's limbered move
    while the gun touches its limber at the start. Decision: the limber then moves at the
    gun's limbered move too."""
    unit = bf.scenario.units[unit_k]
    members = bf.unit_bases(unit_k).tolist()
    s = bf.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    limbers = [b for b in members if bf.kinds[b] is Kind.LIMBER]
    out: dict[int, float] = {}
    limbered: float | None = None
    for b in members:
        prof = unit.base_profile(int(bf.index_in_unit[b]))
        out[b] = float(prof.move)
        if prof.kind.is_artillery and prof.move_limbered is not None and limbers:
            d = polygon_distance(bf.corners[b], bf.corners[limbers])
            if bool((d <= tol).any()):
                out[b] = float(prof.move_limbered)
                limbered = float(prof.move_limbered)
    if limbered is not None:
        for b in limbers:
            out[b] = limbered
    return out


def coherent_groups(
    bf: Battlefield,
    corners: FloatArray,
    skirmish: npt.NDArray[np.bool_],
) -> npt.NDArray[np.intp]:
    """1.3.1, 1.3.4, 1.3.5, 7.5.1, PD-2, PD-4 — group labels of a unit's bases at the given
    corners; ``skirmish`` says, base by base, which figures have the skirmish ability
    (:attr:`Battlefield.skirmishers`). Two bases are linked when they touch, or when one of
    them is a skirmisher and the gap is at most ``skirmish_gap_cm`` (4 cm): 1.3.4 lets such a
    figure stand apart from the other figures of its unit, and 7.5.1 asks it to keep within
    4 cm of "resztą oddziału", the rest of the unit, so a company in skirmish order attached to a
    line battalion links to the battalion across gaps of up to 4 cm, while the battalion's own
    figures touch."""
    s = bf.settings
    eps = s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + eps
    n = len(corners)
    if n < 2:
        return np.zeros(n, dtype=np.intp)
    i, j = np.triu_indices(n, 1)
    d = polygon_distance(corners[i], corners[j])
    link = (d <= tol) | ((skirmish[i] | skirmish[j]) & (d <= s.skirmish_gap_cm + eps))
    polys = polygons_from_corners(corners).reshape(-1)
    obstacles = [t for t in bf.terrain if t.crossable_obstacle]
    if obstacles:
        at = np.stack([shapely.distance(polys, t.polygon) <= tol for t in obstacles])  # (t, n)
        for t_k, t in enumerate(obstacles):
            both = at[t_k][i] & at[t_k][j] & (d <= t.width + tol)
            link |= both
    return connected_groups(n, i[link], j[link])


def plan_paths(bf: Battlefield, resolved: list[tuple[int, int, list[Pose]]], shrink: float) -> list[Planned]:
    """PD-6, PD-3 — the path of each listed base, its swept area, that area shrunk by
    ``shrink`` (the overlap tolerance) and its final corners, in file order."""
    planned: list[Planned] = []
    for entry, b, poses in resolved:
        w, d = float(bf.width[b]), float(bf.depth[b])
        motion = BaseMotion.of(poses, w, d)
        planned.append(
            Planned(entry, b, motion, motion.swept(), motion.swept(shrink), base_corners(*poses[-1], w, d))
        )
    return planned


def shrunk_base(pose: Pose, w: float, d: float, shrink: float) -> shapely.Polygon:
    """A base ``w`` × ``d`` cm at ``pose`` (x, y, facing), shrunk by ``shrink`` on every side
    (PD-3: the overlap tolerance)."""
    return shapely.Polygon(base_corners(*pose, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3)))


def on_obstacle(core: shapely.Geometry, feature: TerrainShape) -> bool:
    """3.2.3 — a base whose outline shrunk by the overlap tolerance (:func:`shrunk_base`, PD-3)
    is ``core`` stands on ``feature``, an obstacle (fence, barricade, stream, low wall). A move
    crosses such an obstacle ("Przekroczenie takiej przeszkody kosztuje dodatkowo 4 cm ruchu")
    or stops before it; only a repulse may end on one (6.5.2). The one test of "on an obstacle"
    of :func:`~szwadron.table.movement.check_move` (where a base ends) and of the end poses
    :func:`~szwadron.table.reach.reach` proposes."""
    return feature.kind is TerrainKind.OBSTACLE and bool(shapely.intersects(core, feature.polygon))


def itemise(path: float, extra: tuple[Surcharge, ...]) -> str:
    """PD-6, 3.2 — "path 12.00, 3.2.2 wood +1.00" for a message."""
    parts = [_("path {path:.2f}").format(path=path)] + [
        f"{x.rule} {term(x.source)} +{x.cm:.2f}" for x in extra
    ]
    return ", ".join(parts)


def figure_order(bf: Battlefield, planned: list[Planned], moving: npt.NDArray[np.intp]) -> list[int] | None:
    """3.1.1, 3.1.3 — an order in which the planned bases can move one after another without
    passing through each other: the file order when it works, else a greedy search; ``None``
    when none was found."""
    current = {int(b): shapely.Polygon(bf.corners[b]) for b in moving}
    left = list(range(len(planned)))
    out: list[int] = []
    while left:
        for k in left:
            p = planned[k]
            others = [poly for o, poly in current.items() if o != p.base]
            if not others or not bool(np.any(shapely.intersects(p.core, others))):
                out.append(k)
                left.remove(k)
                current[p.base] = shapely.Polygon(p.final)
                break
        else:
            return None
    return out


def foot_of_hill(bf: Battlefield, p: Planned, near: list[Any], tol: float) -> str | None:
    """3.2.1 — the foot-of-the-hill exception: the base touched the hill from below at the
    start and ends wholly on it with an edge on its edge. The hill's id, or None."""
    start = shapely.Polygon(bf.corners[p.base])
    final = shapely.Polygon(p.final)
    inner = polygons_from_corners(
        base_corners(
            *p.motion.poses[0], max(p.motion.width - 2 * tol, 1e-3), max(p.motion.depth - 2 * tol, 1e-3)
        )
    ).item()
    for f in near:
        if f.kind is not TerrainKind.HILL:
            continue
        touched = shapely.distance(start, f.polygon) <= tol and not shapely.intersects(inner, f.polygon)
        on_edge = (
            bool(shapely.covers(shapely.buffer(f.polygon, tol), final))
            and float(shapely.distance(final.exterior, f.polygon.exterior)) <= tol
        )
        if touched and on_edge:
            return str(f.id)
    return None


__all__ = [
    "Planned",
    "base_speeds",
    "coherent_groups",
    "figure_order",
    "foot_of_hill",
    "itemise",
    "on_obstacle",
    "plan_paths",
    "pose_off_table",
    "resolve_poses",
    "shrunk_base",
]
