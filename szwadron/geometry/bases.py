"""1.2, PD-1 — bases as rectangles: corners, named edges, normals, polygons and control zones.

A base is a rectangle given by its centre ``(x, y)``, its facing (degrees counter-clockwise from
+x; 90 faces side B), its ``width`` (frontage, across the facing) and its ``depth`` (along the
facing). Cavalry stands 2 cm wide and 4 cm deep (PD-1).

Corners are always listed in the order ``front-left, front-right, back-right, back-left`` (a
clockwise ring), and edge ``k`` runs from corner ``k`` to corner ``k + 1``, so the edges come in
the order of :data:`EDGE_NAMES`: front, right, back, left. "Left" and "right" are as seen by the
figure looking along its facing.

Every function takes scalars or numpy arrays and broadcasts, in the style of shapely 2:

>>> c = base_corners(10.0, 5.0, 90.0, 2.0, 4.0)   # a cavalry base facing side B
>>> c.round(6).tolist()
[[9.0, 7.0], [11.0, 7.0], [11.0, 3.0], [9.0, 3.0]]
>>> edge_segments(c)[EDGE_NAMES.index("front")].round(6).tolist()
[[9.0, 7.0], [11.0, 7.0]]
>>> BaseShape(0, 0, 0, 2, 4).edge("front").length   # facing +x: the front is the 2 cm side
2.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

if TYPE_CHECKING:
    from szwadron.models import Unit

FloatArray = npt.NDArray[np.float64]
ArrayLike = float | npt.ArrayLike


class Edge(StrEnum):
    """The four named edges of a base (1.2), in corner-ring order."""

    FRONT = "front"
    RIGHT = "right"
    BACK = "back"
    LEFT = "left"


#: Edge names in the order of :func:`edge_segments` and :func:`edge_normals`.
EDGE_NAMES: tuple[str, ...] = tuple(e.value for e in Edge)

#: Corner names in the order of :func:`base_corners`.
CORNER_NAMES: tuple[str, ...] = ("front-left", "front-right", "back-right", "back-left")

#: Segments drawn per quarter circle when buffering with round joins (zones, 1.4.1).
ZONE_QUAD_SEGS = 16


def facing_vectors(facing_deg: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """1.2 — unit vectors ``forward`` (along the facing) and ``right`` (the figure's right hand).

    Returns two arrays of shape ``shape(facing) + (2,)``.

    >>> f, r = facing_vectors(90.0)
    >>> f.tolist(), r.tolist()
    ([0.0, 1.0], [1.0, 0.0])
    """
    a = np.radians(np.asarray(facing_deg, dtype=float))
    c, s = np.cos(a), np.sin(a)
    # exact quarter turns: cos(90°) is 6e-17 in floating point; make it 0 so that axis-aligned
    # bases have exact corners (a flush contact of 1 cm measures 1.0, not 0.9999999999999999)
    c = np.where(np.abs(c) < 1e-15, 0.0, c)
    s = np.where(np.abs(s) < 1e-15, 0.0, s)
    forward = np.stack([c, s], axis=-1) + 0.0  # + 0.0 turns -0.0 into 0.0
    right = np.stack([s, -c], axis=-1) + 0.0
    return forward, right


def base_corners(
    x: ArrayLike, y: ArrayLike, facing: ArrayLike, width: ArrayLike, depth: ArrayLike
) -> FloatArray:
    """1.2, PD-1 — corners of bases, shape ``broadcast(...) + (4, 2)``.

    Order: front-left, front-right, back-right, back-left (:data:`CORNER_NAMES`). ``width`` is the
    frontage (across the facing), ``depth`` runs along the facing.

    >>> base_corners([0.0, 0.0], 0.0, [0.0, 90.0], 2.0, 2.0).shape
    (2, 4, 2)
    """
    xa, ya, fa, wa, da = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (x, y, facing, width, depth))
    )
    forward, right = facing_vectors(fa)
    centre = np.stack([xa, ya], axis=-1)
    hf = forward * (da / 2.0)[..., None]
    hr = right * (wa / 2.0)[..., None]
    return np.stack([centre + hf - hr, centre + hf + hr, centre - hf + hr, centre - hf - hr], axis=-2)


def edge_segments(corners: npt.ArrayLike) -> FloatArray:
    """Edges as segments, shape ``(..., 4, 2, 2)``: front, right, back, left (:data:`EDGE_NAMES`).

    Works for any polygon given as ``(..., k, 2)`` corners: edge ``i`` joins corners ``i`` and
    ``i + 1``.

    >>> edge_segments(base_corners(0.0, 0.0, 0.0, 2.0, 2.0))[0].tolist()   # front of a base facing +x
    [[1.0, 1.0], [1.0, -1.0]]
    """
    c = np.asarray(corners, dtype=float)
    return np.stack([c, np.roll(c, -1, axis=-2)], axis=-2)


def edge_normals(facing_deg: ArrayLike) -> FloatArray:
    """Outward unit normals of the four edges, shape ``(..., 4, 2)``, in :data:`EDGE_NAMES` order.

    >>> edge_normals(0.0).tolist()
    [[1.0, 0.0], [0.0, -1.0], [-1.0, -0.0], [-0.0, 1.0]]
    """
    forward, right = facing_vectors(facing_deg)
    return np.stack([forward, right, -forward, -right], axis=-2)


def polygons_from_corners(corners: npt.ArrayLike) -> npt.NDArray[np.object_]:
    """shapely polygons from corner arrays ``(..., k, 2)``, built in one vectorised call.

    >>> polygons_from_corners(base_corners([0.0, 5.0], 0.0, 0.0, 2.0, 2.0)).tolist()[1].area
    4.0
    """
    c = np.asarray(corners, dtype=float)
    return np.asarray(shapely.polygons(c))


def base_polygons(
    x: ArrayLike, y: ArrayLike, facing: ArrayLike, width: ArrayLike, depth: ArrayLike
) -> npt.NDArray[np.object_]:
    """1.2 — base rectangles as shapely polygons (vectorised, see :func:`base_corners`).

    >>> [round(p.area, 9) for p in base_polygons([0, 10], [0, 0], [0, 45], [2, 2], [2, 4])]
    [4.0, 8.0]
    """
    return polygons_from_corners(base_corners(x, y, facing, width, depth))


def control_zones(geometries: Any, radius_cm: float) -> Any:
    """1.4.1 — control zones: the area within ``radius_cm`` of each geometry (round joins).

    The polygon approximates the rounded corners with :data:`ZONE_QUAD_SEGS` segments per quarter
    circle; it is for drawing and sweeping. Whether a base stands in a zone is decided by the
    exact least distance (PD-3), not by this polygon.

    >>> z = control_zones(base_polygons(0, 0, 0, 2, 2), 2.0)
    >>> round(float(z.area), 2)   # 2 x 2 square + four 2 x 2 sides + a circle of radius 2
    32.55
    """
    return shapely.buffer(geometries, radius_cm, quad_segs=ZONE_QUAD_SEGS, join_style="round")


@dataclass(frozen=True)
class BaseShape:
    """1.2 — one base as geometry: centre, facing (degrees), width (frontage) and depth, in cm.

    >>> b = BaseShape(0.0, 0.0, 90.0, 2.0, 4.0)
    >>> b.edge("left").length, b.edge(Edge.FRONT).length
    (4.0, 2.0)
    >>> b.polygon.bounds
    (-1.0, -2.0, 1.0, 2.0)
    """

    x: float
    y: float
    facing: float
    width: float
    depth: float

    @classmethod
    def of(cls, unit: Unit, index: int) -> BaseShape:
        """The shape of base ``index`` of ``unit`` (its size by kind, 1.2, PD-1, or overridden)."""
        pose = unit.bases[index]
        w, d = unit.base_size(index)
        return cls(pose.x, pose.y, pose.facing, w, d)

    @property
    def centre(self) -> shapely.Point:
        """The centre of the base."""
        return shapely.Point(self.x, self.y)

    @property
    def corners(self) -> FloatArray:
        """Corners, ``(4, 2)``: front-left, front-right, back-right, back-left."""
        return base_corners(self.x, self.y, self.facing, self.width, self.depth)

    @property
    def polygon(self) -> shapely.Polygon:
        """The base rectangle."""
        return shapely.Polygon(self.corners)

    def edge(self, name: Edge | str) -> shapely.LineString:
        """The named edge (front, right, back, left) as a segment from corner to corner."""
        k = EDGE_NAMES.index(Edge(name).value)
        return shapely.LineString(edge_segments(self.corners)[k])

    def normal(self, name: Edge | str) -> tuple[float, float]:
        """Outward unit normal of the named edge."""
        k = EDGE_NAMES.index(Edge(name).value)
        n = edge_normals(self.facing)[k]
        return (float(n[0]), float(n[1]))

    def control_zone(self, radius_cm: float = 2.0) -> shapely.Polygon:
        """1.4.1 — the area within ``radius_cm`` of the base (round joins)."""
        zone: shapely.Polygon = control_zones(self.polygon, radius_cm)
        return zone

    def moved(self, dx: float = 0.0, dy: float = 0.0, turn: float = 0.0) -> BaseShape:
        """The same base translated by ``(dx, dy)`` and turned by ``turn`` degrees in place."""
        return BaseShape(
            self.x + dx, self.y + dy, math.fmod(self.facing + turn, 360.0), self.width, self.depth
        )


__all__ = [
    "CORNER_NAMES",
    "EDGE_NAMES",
    "ZONE_QUAD_SEGS",
    "BaseShape",
    "Edge",
    "base_corners",
    "base_polygons",
    "control_zones",
    "edge_normals",
    "edge_segments",
    "facing_vectors",
    "polygons_from_corners",
]
