"""3.2, PD-11 — terrain features as geometry: areas, linear features with a width, levels, access.

An area feature is its polygon. A linear feature (obstacle, high wall, impassable — a fence, a
wall, a river) given as a centre ``line`` with a ``width`` becomes the line buffered by half the
width with flat caps and mitred joins: a strip exactly ``width`` wide that ends where the line
ends.

>>> from szwadron.models import Terrain
>>> fence = TerrainShape.of(Terrain(id="f", kind="obstacle", line=[(0, 0), (10, 0)], width=0.5))
>>> fence.polygon.bounds, fence.width
((0.0, -0.25, 10.0, 0.25), 0.5)
>>> forbidden_rule("cavalry", TerrainShape.of(Terrain(id="b", kind="building",
...     polygon=[(0, 0), (4, 0), (4, 4), (0, 4)])))
'3.2.5'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.models import Kind, Point, Terrain, TerrainKind

#: 3.2.4 — impassable for every kind of figure.
IMPASSABLE_KINDS: frozenset[TerrainKind] = frozenset({TerrainKind.IMPASSABLE, TerrainKind.HIGH_WALL})

#: 1.3.5, 1.4.3, 3.2.3 — crossable obstacles: fences, barricades, streams, low walls.
CROSSABLE_OBSTACLE_KINDS: frozenset[TerrainKind] = frozenset({TerrainKind.OBSTACLE})

#: PD-11 — features that give a level to a base whose centre they contain.
LEVEL_KINDS: frozenset[TerrainKind] = frozenset(
    {TerrainKind.HILL, TerrainKind.BUILDING, TerrainKind.FORTIFICATION}
)

#: Kinds that may not enter buildings (3.2.5). Decision: a limber (7.2, a horse team) is closed
#: out wherever cavalry or artillery is.
_NO_BUILDINGS: frozenset[Kind] = frozenset(
    {Kind.CAVALRY, Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY, Kind.LIMBER}
)


def terrain_polygon(feature: Terrain) -> shapely.Polygon:
    """3.2 — the ground a feature covers: its polygon, or its line buffered by ``width / 2``
    (flat caps, mitred joins).

    >>> from szwadron.models import Terrain
    >>> wall = Terrain(id="w", kind="high_wall", line=[(0, 0), (4, 0), (4, 3)], width=1.0)
    >>> round(terrain_polygon(wall).area, 9)   # 7 cm of centre line, 1 cm wide
    7.0
    """
    if feature.line is not None:
        assert feature.width is not None  # the model guarantees it
        poly = shapely.buffer(
            shapely.LineString(feature.line),
            feature.width / 2.0,
            cap_style="flat",
            join_style="mitre",
        )
    else:
        assert feature.polygon is not None
        poly = shapely.Polygon(feature.polygon)
    return shapely.make_valid(poly) if not shapely.is_valid(poly) else poly


def obstacle_width(feature: Terrain, polygon: shapely.Polygon | None = None) -> float:
    """PD-4, 1.4.3 — the width of a feature seen as an obstacle to cross, in cm.

    A linear feature has its ``width``. Decision: an area feature (a stream drawn as a polygon)
    is as wide as the diameter of the largest circle inside it — the width of a strip.

    >>> from szwadron.models import Terrain
    >>> obstacle_width(Terrain(id="s", kind="obstacle", polygon=[(0, 0), (20, 0), (20, 1), (0, 1)]))
    1.0
    """
    if feature.width is not None:
        return float(feature.width)
    poly = polygon if polygon is not None else terrain_polygon(feature)
    radius = shapely.length(shapely.maximum_inscribed_circle(poly, 1e-4))
    return round(2.0 * float(radius), 6)


def forbidden_rule(kind: Kind | str, feature: TerrainShape | Terrain) -> str | None:
    """3.2.4, 3.2.5 — the rule that keeps a figure of ``kind`` out of ``feature``, or ``None``.

    - 3.2.4: impassable terrain and high walls, for every kind;
    - 3.2.5: buildings, closed to cavalry and artillery; fortifications, closed to cavalry and to
      artillery unless ``large``. Decision: limbers (7.2) count as artillery here.

    >>> from szwadron.models import Terrain
    >>> fort = Terrain(id="f", kind="fortification", large=True, polygon=[(0, 0), (9, 0), (9, 9)])
    >>> forbidden_rule("foot_artillery", fort), forbidden_rule("cavalry", fort)
    (None, '3.2.5')
    """
    k = Kind(kind)
    tk = feature.kind
    if tk in IMPASSABLE_KINDS:
        return "3.2.4"
    if tk is TerrainKind.BUILDING and k in _NO_BUILDINGS:
        return "3.2.5"
    if tk is TerrainKind.FORTIFICATION:
        if k is Kind.CAVALRY:
            return "3.2.5"
        if k in _NO_BUILDINGS and not feature.large:
            return "3.2.5"
    return None


@dataclass(frozen=True)
class TerrainShape:
    """A terrain feature with its geometry: ``polygon``, obstacle ``width`` and ``level``."""

    id: str
    kind: TerrainKind
    polygon: shapely.Polygon
    width: float
    level: int
    large: bool = False

    @classmethod
    def of(cls, feature: Terrain) -> TerrainShape:
        """Geometry of a scenario's terrain feature."""
        poly = terrain_polygon(feature)
        width = obstacle_width(feature, poly) if feature.kind in CROSSABLE_OBSTACLE_KINDS else 0.0
        return cls(feature.id, feature.kind, poly, width, feature.hill_level, feature.large)

    @property
    def crossable_obstacle(self) -> bool:
        """1.3.5, 1.4.3, 3.2.3: a fence, barricade, stream or low wall."""
        return self.kind in CROSSABLE_OBSTACLE_KINDS


def _flat(parts: list[tuple[Point, ...]]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """All the points of ``parts`` in one ``(n, 2)`` array, and the part each belongs to."""
    coords = np.asarray([xy for part in parts for xy in part], dtype=np.float64).reshape(-1, 2)
    index = np.repeat(np.arange(len(parts), dtype=np.intp), [len(part) for part in parts])
    return coords, index


def terrain_polygons(features: Sequence[Terrain]) -> npt.NDArray[np.object_]:
    """:func:`terrain_polygon` of every feature, in order, built with a few vectorised calls
    (the same polygons: rings closed, lines buffered, invalid ones made valid).

    >>> from szwadron.models import Terrain
    >>> polys = terrain_polygons([
    ...     Terrain(id="w", kind="high_wall", line=[(0, 0), (4, 0), (4, 3)], width=1.0),
    ...     Terrain(id="h", kind="hill", polygon=[(0, 0), (4, 0), (4, 4)])])
    >>> [round(p.area, 9) for p in polys]
    [7.0, 8.0]
    """
    out = np.empty(len(features), dtype=object)
    areas: list[int] = []
    rings: list[tuple[Point, ...]] = []
    lines: list[int] = []
    paths: list[tuple[Point, ...]] = []
    widths: list[float] = []
    for k, f in enumerate(features):
        if f.line is not None:
            assert f.width is not None  # the model guarantees it
            lines.append(k)
            paths.append(f.line)
            widths.append(f.width)
        else:
            assert f.polygon is not None
            areas.append(k)
            rings.append(f.polygon)
    if areas:
        coords, index = _flat(rings)
        out[areas] = shapely.polygons(shapely.linearrings(coords, indices=index))
    if lines:
        coords, index = _flat(paths)
        out[lines] = shapely.buffer(
            shapely.linestrings(coords, indices=index),
            np.asarray(widths, dtype=float) / 2.0,
            cap_style="flat",
            join_style="mitre",
        )
    if len(out):
        bad = ~shapely.is_valid(out)
        if bad.any():
            out[bad] = shapely.make_valid(out[bad])
    return out


def terrain_shapes(features: Iterable[Terrain]) -> tuple[TerrainShape, ...]:
    """:meth:`TerrainShape.of` for every feature, in order (polygons from
    :func:`terrain_polygons`)."""
    feats = tuple(features)
    return tuple(
        TerrainShape(
            f.id,
            f.kind,
            poly,
            obstacle_width(f, poly) if f.kind in CROSSABLE_OBSTACLE_KINDS else 0.0,
            f.hill_level,
            f.large,
        )
        for f, poly in zip(feats, terrain_polygons(feats).tolist(), strict=True)
    )


def level_at(x: float, y: float, features: Sequence[TerrainShape]) -> int:
    """PD-11 — level of a point: the highest level among hills and tall buildings containing it
    (boundary included); ground is 0. Forests give no level (they block sight only, 4.10.2).

    >>> from szwadron.models import Terrain
    >>> hills = terrain_shapes([
    ...     Terrain(id="h1", kind="hill", polygon=[(0, 0), (10, 0), (10, 10), (0, 10)]),
    ...     Terrain(id="h2", kind="hill", level=2, polygon=[(2, 2), (5, 2), (5, 5), (2, 5)])])
    >>> level_at(3, 3, hills), level_at(8, 8, hills), level_at(20, 20, hills)
    (2, 1, 0)
    """
    p = shapely.Point(x, y)
    levels = [f.level for f in features if f.kind in LEVEL_KINDS and shapely.covers(f.polygon, p)]
    return max(levels, default=0)


__all__ = [
    "CROSSABLE_OBSTACLE_KINDS",
    "IMPASSABLE_KINDS",
    "LEVEL_KINDS",
    "TerrainShape",
    "forbidden_rule",
    "level_at",
    "obstacle_width",
    "terrain_polygon",
    "terrain_polygons",
    "terrain_shapes",
]
