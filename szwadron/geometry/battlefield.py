"""The battlefield as geometry: every base and terrain feature of a scenario, indexed once.

A :class:`Battlefield` holds the bases of a scenario as arrays (centre, facing, size, corners,
polygons; one row per base, units in file order, bases in file order inside each unit) and
STR-trees over the bases and over the terrain. Every all-pairs question ("which bases are within
2 cm of each other?") goes through the tree: :meth:`Battlefield.pairs_within` returns candidate
pairs in O(n log n + k), and the exact distances come from
:func:`szwadron.geometry.contact.polygon_distance` on whole arrays of pairs.

>>> from szwadron.models import Scenario
>>> inf = {"id": "inf", "name": "Line", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
...        "Z": 24, "UW": 3, "C": 3, "M": 4}
>>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 40}, "units": [
...     {"id": "a", "side": "A", "profile": inf, "bases": [
...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]},
...     {"id": "b", "side": "B", "profile": inf, "bases": [{"x": 11, "y": 13, "facing": 270}]}]})
>>> bf = Battlefield(sc)
>>> bf.base_ids
('a/0', 'a/1', 'b/0')
>>> i, j = bf.pairs_within(2.0)
>>> [(bf.base_ids[p], bf.base_ids[q]) for p, q in zip(i, j)]
[('a/0', 'a/1'), ('a/0', 'b/0'), ('a/1', 'b/0')]
>>> bf.distances(i, j).tolist()
[0.0, 1.0, 1.0]
>>> bf.resolve("a").tolist(), bf.resolve("b/0").tolist()
([0, 1], [2])
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import BaseShape, base_corners, control_zones, polygons_from_corners
from szwadron.geometry.contact import contact_length, penetration_depth, polygon_distance
from szwadron.geometry.terrain import LEVEL_KINDS, TerrainShape, terrain_shapes
from szwadron.i18n import _, ngettext
from szwadron.models import Ability, Kind, Scenario, UnitState
from szwadron.settings import RulesSettings

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
PairMethod = Literal["index", "brute"]

#: Up to this many pairs of bases, :meth:`Battlefield.measure` tests them all.
_MEASURE_ALL_PAIRS = 4096

_BASE_ID = re.compile(r"^(?P<unit>[^/]+)/(?P<index>\d+)$")


@dataclass(frozen=True)
class Measurement:
    """4.5.2 — the least edge-to-edge distance between two sets of bases, and where it lies.

    ``a`` and ``b`` are the ids asked about (a base ``UNIT/INDEX`` or a unit ``UNIT``);
    ``base_a``/``base_b`` the two bases that realise the distance and ``point_a``/``point_b`` the
    nearest points on them. ``depth`` is the overlap of the two bases (PD-3), 0 when apart.
    """

    a: str
    b: str
    distance: float
    base_a: str
    base_b: str
    point_a: tuple[float, float]
    point_b: tuple[float, float]
    depth: float
    touching: bool

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict (``szwadron measure --json``)."""
        return {
            "a": self.a,
            "b": self.b,
            "distance": round(self.distance, 6),
            "bases": [self.base_a, self.base_b],
            "points": [[round(v, 6) for v in self.point_a], [round(v, 6) for v in self.point_b]],
            "touching": self.touching,
            "overlap_depth": round(self.depth, 6),
        }


class Battlefield:
    """Bases and terrain of a scenario as arrays and spatial indexes (built once, read-only).

    Attributes (one row per base): ``base_ids``, ``unit_of`` (index into ``scenario.units``),
    ``index_in_unit``, ``side`` (0 for A, 1 for B), ``kinds``, ``x``, ``y``, ``facing``,
    ``width``, ``depth``, ``corners`` (``(n, 4, 2)``, see
    :func:`~szwadron.geometry.bases.base_corners`), ``polygons``; per unit: ``unit_ids``,
    ``unit_slices``, ``panicking``; ``terrain`` (:class:`TerrainShape` per feature).
    """

    def __init__(self, scenario: Scenario, settings: RulesSettings | None = None) -> None:
        self.scenario = scenario
        self.settings = settings if settings is not None else scenario.settings
        ids: list[str] = []
        kinds: list[Kind] = []
        rows: list[tuple[float, float, float]] = []
        sizes: list[tuple[float, float]] = []
        counts: list[int] = []
        for unit in scenario.units:
            bases = unit.bases
            n = len(bases)
            uid = unit.id
            ids += [f"{uid}/{b_i}" for b_i in range(n)]
            rows += [(pose.x, pose.y, pose.facing) for pose in bases]
            counts.append(n)
            if all(pose.profile is None and not pose.width and not pose.depth for pose in bases):
                # every base has the unit's profile and its default size (the usual case)
                kinds += [unit.profile.kind] * n
                sizes += [unit.profile.base_size] * n
            else:
                kinds += [unit.base_profile(b_i).kind for b_i in range(n)]
                sizes += [unit.base_size(b_i) for b_i in range(n)]
        per_unit = np.asarray(counts, dtype=np.intp)
        stops = np.cumsum(per_unit)
        starts = stops - per_unit
        self.base_ids: tuple[str, ...] = tuple(ids)
        self.unit_ids: tuple[str, ...] = tuple(u.id for u in scenario.units)
        self.unit_slices: tuple[slice, ...] = tuple(
            slice(a, b) for a, b in zip(starts.tolist(), stops.tolist(), strict=True)
        )
        self.unit_of: IntArray = np.repeat(np.arange(len(counts), dtype=np.intp), per_unit)
        self.index_in_unit: IntArray = (
            np.arange(len(ids), dtype=np.intp) - np.repeat(starts, per_unit)
        ).astype(np.intp)
        self.kinds: tuple[Kind, ...] = tuple(kinds)
        unit_side = np.asarray([0 if u.side == "A" else 1 for u in scenario.units], dtype=np.intp)
        self.side: IntArray = unit_side[self.unit_of] if len(ids) else np.zeros(0, np.intp)
        self.panicking: BoolArray = np.asarray(
            [u.state is UnitState.PANIC for u in scenario.units], dtype=bool
        )
        pose = np.asarray(rows, dtype=float).reshape(-1, 3)
        size = np.asarray(sizes, dtype=float).reshape(-1, 2)
        self.x, self.y, self.facing = (pose[:, k] for k in range(3))
        self.width, self.depth = size[:, 0], size[:, 1]
        self.corners: FloatArray = base_corners(self.x, self.y, self.facing, self.width, self.depth)
        self.polygons: npt.NDArray[np.object_] = polygons_from_corners(self.corners).reshape(-1)
        self.terrain: tuple[TerrainShape, ...] = terrain_shapes(scenario.terrain)

    @classmethod
    def of(cls, table: Scenario | Battlefield, settings: RulesSettings | None = None) -> Battlefield:
        """The table as a Battlefield: ``table`` itself when it is one (and ``settings`` is
        ``None`` or its own), else one built from the scenario — the one place where the rules'
        entry points turn a scenario into a Battlefield, so a command builds it once."""
        if isinstance(table, Battlefield):
            if settings is None or settings is table.settings:
                return table
            return cls(table.scenario, settings)
        return cls(table, settings)

    @cached_property
    def _index_of(self) -> dict[str, int]:
        return {b: k for k, b in enumerate(self.base_ids)}

    # -- sizes and lookups ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.base_ids)

    def __repr__(self) -> str:
        return (
            f"<Battlefield {self.scenario.name!r}: {len(self.unit_ids)} units, {len(self)} bases, "
            f"{len(self.terrain)} terrain features>"
        )

    def shape(self, index: int) -> BaseShape:
        """The :class:`BaseShape` of base ``index``."""
        return BaseShape(
            float(self.x[index]),
            float(self.y[index]),
            float(self.facing[index]),
            float(self.width[index]),
            float(self.depth[index]),
        )

    def unit_bases(self, unit: int | str) -> IntArray:
        """Indices of the bases of a unit (by position in the scenario or by id)."""
        k = self.unit_ids.index(unit) if isinstance(unit, str) else unit
        s = self.unit_slices[k]
        return np.arange(s.start, s.stop, dtype=np.intp)

    def resolve(self, ident: str) -> IntArray:
        """Base indices named by ``UNIT`` (all its bases) or ``UNIT/INDEX`` (one base).

        Raises :class:`~szwadron.errors.InvalidDataError` naming what exists when ``ident`` is
        malformed or unknown.
        """
        if ident in self._index_of:
            return np.asarray([self._index_of[ident]], dtype=np.intp)
        if ident in self.unit_ids:
            return self.unit_bases(ident)
        m = _BASE_ID.match(ident)
        if m and m["unit"] in self.unit_ids:
            n = len(self.unit_bases(m["unit"]))
            raise InvalidDataError(
                ngettext(
                    "no base {ident!r}: unit {unit!r} has {n} base, {unit}/0 to {unit}/{last}",
                    "no base {ident!r}: unit {unit!r} has {n} bases, {unit}/0 to {unit}/{last}",
                    n,
                ).format(ident=ident, unit=m["unit"], n=n, last=n - 1)
            )
        if "/" in ident and not m:
            raise InvalidDataError(
                _("malformed base id {ident!r}: expected UNIT/INDEX, e.g. {example}").format(
                    ident=ident, example=self.base_ids[0] if self.base_ids else "fr-1/0"
                )
            )
        units = ", ".join(self.unit_ids) or _("none")
        raise InvalidDataError(
            _("no unit {unit!r} (units: {units})").format(unit=ident.partition("/")[0], units=units)
        )

    @cached_property
    def skirmishers(self) -> BoolArray:
        """1.3.4, 7.5.1 — whether each base's figure has the skirmish ability (its own profile,
        1.1, or its unit's): "Jednostki oraz oddziały posiadające zdolność walka w rozproszeniu
        mogą oddalić się od innych jednostek w oddziale na odległość nie większą niż 4 cm"."""
        return np.asarray(
            [
                unit.base_profile(i).has(Ability.SKIRMISH)
                for unit in self.scenario.units
                for i in range(len(unit.bases))
            ],
            dtype=bool,
        ).reshape(-1)

    @cached_property
    def levels(self) -> IntArray:
        """PD-11 — level of each base: the highest hill or tall building containing its centre."""
        out = np.zeros(len(self), dtype=np.intp)
        if not self.terrain or not len(self):
            return out
        centres = shapely.points(np.stack([self.x, self.y], axis=-1))
        b, t = self.terrain_tree.query(centres, predicate="intersects")
        feature_level = np.asarray(
            [f.level if f.kind in LEVEL_KINDS else 0 for f in self.terrain], dtype=np.intp
        )
        np.maximum.at(out, b, feature_level[t])
        return out

    # -- spatial indexes -----------------------------------------------------------------

    @cached_property
    def tree(self) -> shapely.STRtree:
        """STR-tree over the base polygons (tree index = base index)."""
        return shapely.STRtree(self.polygons)

    @cached_property
    def terrain_polygons(self) -> npt.NDArray[np.object_]:
        """Terrain polygons, one per feature, in scenario order."""
        return np.asarray([f.polygon for f in self.terrain], dtype=object)

    @cached_property
    def terrain_tree(self) -> shapely.STRtree:
        """STR-tree over the terrain polygons (tree index = terrain index)."""
        return shapely.STRtree(self.terrain_polygons)

    def zones(self, radius_cm: float | None = None) -> npt.NDArray[np.object_]:
        """1.4.1 — control-zone polygons of every base (for drawing and sweeping)."""
        r = self.settings.control_zone_cm if radius_cm is None else radius_cm
        return np.asarray(control_zones(self.polygons, r))

    # -- pair queries -----------------------------------------------------------------------

    def pairs_within(
        self,
        distance_cm: float,
        among: npt.ArrayLike | None = None,
        *,
        method: PairMethod = "index",
    ) -> tuple[IntArray, IntArray]:
        """Pairs of bases ``i < j`` whose polygons are within ``distance_cm`` of each other.

        ``among`` restricts both bases to a set of base indices. ``method="index"`` asks the
        STR-tree (``dwithin``); ``method="brute"`` tries every pair one by one — the naive
        reference the index is tested and benchmarked against. Pairs come sorted by ``(i, j)``.
        Callers compare the exact distance (:meth:`distances`) with their limit afterwards.
        """
        subset = (
            np.arange(len(self), dtype=np.intp)
            if among is None
            else np.unique(np.asarray(among, dtype=np.intp))
        )
        if method == "brute":
            return self._pairs_brute(distance_cm, subset)
        if len(subset) < 2:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        q, t = self.tree.query(self.polygons[subset], predicate="dwithin", distance=distance_cm)
        i = subset[q]
        j = t.astype(np.intp)
        keep = i < j
        if among is not None:
            member = np.zeros(len(self), dtype=bool)
            member[subset] = True
            keep &= member[j]
        i, j = i[keep], j[keep]
        order = np.lexsort((j, i))
        return i[order], j[order]

    def _pairs_brute(self, distance_cm: float, subset: IntArray) -> tuple[IntArray, IntArray]:
        out_i: list[int] = []
        out_j: list[int] = []
        polys = self.polygons
        for a_k, a in enumerate(subset):
            pa = polys[a]
            for b in subset[a_k + 1 :]:
                if shapely.distance(pa, polys[b]) <= distance_cm:
                    out_i.append(int(a))
                    out_j.append(int(b))
        return np.asarray(out_i, dtype=np.intp), np.asarray(out_j, dtype=np.intp)

    def near(
        self, geometry: shapely.Geometry, distance_cm: float, *, method: PairMethod = "index"
    ) -> IntArray:
        """Indices of bases within ``distance_cm`` of any geometry (sorted)."""
        if method == "brute":
            d = shapely.distance(geometry, self.polygons)
            return np.flatnonzero(d <= distance_cm).astype(np.intp)
        return np.sort(self.tree.query(geometry, predicate="dwithin", distance=distance_cm))

    def distances(self, i: npt.ArrayLike, j: npt.ArrayLike) -> FloatArray:
        """PD-3, 4.5.2 — exact least edge-to-edge distances between bases ``i`` and ``j``."""
        ii = np.asarray(i, dtype=np.intp)
        jj = np.asarray(j, dtype=np.intp)
        if ii.size == 0:
            return np.zeros(ii.shape)
        return polygon_distance(self.corners[ii], self.corners[jj])

    @cached_property
    def contact_reach_cm(self) -> float:
        """PD-3, PD-4 — the farthest apart two bases can stand and still be in contact (see
        :meth:`contact_lengths`): the contact tolerance and the numerical epsilon, plus the width
        of the widest crossable obstacle (none: plus 0)."""
        s = self.settings
        widest = max((f.width for f in self.terrain if f.crossable_obstacle), default=0.0)
        return s.contact_tolerance_cm + s.distance_epsilon_cm + widest

    def contact_lengths(
        self,
        i: npt.ArrayLike,
        j: npt.ArrayLike,
        distances: npt.ArrayLike | None = None,
        *,
        method: PairMethod = "index",
    ) -> FloatArray:
        """PD-14, 1.3.5, PD-4, 5.7 — the contact length of each pair of bases ``(i[k], j[k])``.

        Two bases within the contact tolerance (PD-3) touch along
        :func:`~szwadron.geometry.contact.contact_length`. Decision (contact across an obstacle):
        two bases further apart, each within the contact tolerance of one crossable obstacle and
        no further apart than its width plus the tolerance, are in contact across it; their
        length is measured with the obstacle's width (the widest such) added to the tolerance.
        Any other pair: 0. ``distances`` are the pairs' exact distances when the caller has them
        (:meth:`distances`). The obstacles are looked up (terrain tree; ``method`` as in
        :meth:`pairs_within`) only for the bases of pairs beyond the tolerance but within
        :attr:`contact_reach_cm`. The melee (``szwadron melee``) and the audit
        (``szwadron check``) both measure contact here.
        """
        s = self.settings
        tol = s.contact_tolerance_cm + s.distance_epsilon_cm
        ii = np.asarray(i, dtype=np.intp)
        jj = np.asarray(j, dtype=np.intp)
        d = self.distances(ii, jj) if distances is None else np.asarray(distances, dtype=float)
        out = np.zeros(ii.shape)
        near = d <= tol
        if near.any():
            out[near] = contact_length(self.corners[ii[near]], self.corners[jj[near]], tol)
        far = np.flatnonzero(~near & (d <= self.contact_reach_cm))
        if far.size == 0:
            return out
        tb, tt, td = self.terrain_within(tol, np.unique(np.concatenate([ii[far], jj[far]])), method=method)
        at: dict[int, set[int]] = defaultdict(set)  # base -> crossable obstacles it touches
        for b, t, dist in zip(tb.tolist(), tt.tolist(), td.tolist(), strict=True):
            if self.terrain[t].crossable_obstacle and dist <= tol:
                at[b].add(t)
        widths = np.asarray(
            [
                max(
                    (self.terrain[t].width for t in at[a] & at[b] if gap <= self.terrain[t].width + tol),
                    default=-1.0,
                )
                for a, b, gap in zip(ii[far].tolist(), jj[far].tolist(), d[far].tolist(), strict=True)
            ]
        )
        for width in np.unique(widths[widths >= 0.0]).tolist():
            k = far[widths == width]
            out[k] = contact_length(self.corners[ii[k]], self.corners[jj[k]], width + tol)
        return out

    def obstacle_between(self, shape: shapely.Geometry, base: int, gap: float) -> TerrainShape | None:
        """1.3.5, PD-4, 5.7 — the crossable obstacle across which ``shape`` (a base where it
        would stand) and base ``base``, ``gap`` cm apart, are in contact, as
        :meth:`contact_lengths` counts it: both within the contact tolerance of it and no further
        apart than its width plus the tolerance (the widest such); ``None`` when there is none.
        The move (5.9.2: a charge closes to contact) and ``reach`` (the poses it aims for) ask
        it of a pose not yet on the table."""
        tol = self.settings.contact_tolerance_cm + self.settings.distance_epsilon_cm
        return max(
            (
                f
                for f in self.terrain
                if f.crossable_obstacle
                and gap <= f.width + tol
                and float(shapely.distance(shape, f.polygon)) <= tol
                and float(shapely.distance(self.polygons[base], f.polygon)) <= tol
            ),
            key=lambda f: f.width,
            default=None,
        )

    def measure(self, a: str, b: str) -> Measurement:
        """4.5.2 — least edge-to-edge distance between two bases or units (ids as in
        :meth:`resolve`), the bases that realise it (the first pair in file order on a tie; among
        bases that meet, the deepest overlap) and the two nearest points. Raises :class:`~szwadron.errors.InvalidDataError` for unknown or
        malformed ids, or when the two share a base.

        >>> from szwadron.models import Scenario
        >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
        ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
        >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 40},
        ...     "units": [{"id": "a", "side": "A", "profile": inf, "bases": [
        ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]},
        ...     {"id": "b", "side": "B", "profile": inf, "bases": [{"x": 20, "y": 13, "facing": 270}]}]})
        >>> m = Battlefield(sc).measure("a", "b")
        >>> round(m.distance, 6), m.base_a, m.base_b, m.point_a, m.point_b   # corner to corner
        (6.082763, 'a/1', 'b/0', (13.0, 11.0), (19.0, 12.0))
        """
        ia, ib = self.resolve(a), self.resolve(b)
        shared = np.intersect1d(ia, ib)
        if shared.size:
            raise InvalidDataError(
                _("{a!r} and {b!r} share base {base}: measure between two different bases or units").format(
                    a=a, b=b, base=self.base_ids[shared[0]]
                )
            )
        ka, kb = self._measure_candidates(ia, ib)
        dist = polygon_distance(self.corners[ia[ka]], self.corners[ib[kb]])
        k = int(np.argmin(dist))
        d = float(dist[k])
        depth = 0.0
        if d == 0.0:  # several pairs may meet: name the deepest overlap
            tied = np.flatnonzero(dist == 0.0)
            depths = penetration_depth(self.corners[ia[ka[tied]]], self.corners[ib[kb[tied]]])
            k = int(tied[np.argmax(depths)])
            depth = float(depths.max())
        pa, pb = int(ia[ka[k]]), int(ib[kb[k]])
        line = shapely.shortest_line(self.polygons[pa], self.polygons[pb])
        (x0, y0), (x1, y1) = shapely.get_coordinates(line).tolist()
        s = self.settings
        eps = s.distance_epsilon_cm
        return Measurement(
            a,
            b,
            d,
            self.base_ids[pa],
            self.base_ids[pb],
            (x0, y0),
            (x1, y1),
            depth,
            d <= s.contact_tolerance_cm + eps and depth <= s.overlap_tolerance_cm + eps,
        )

    def _measure_candidates(self, ia: IntArray, ib: IntArray) -> tuple[IntArray, IntArray]:
        """Pairs ``(i, j)`` (positions in ``ia`` and ``ib``, in file order) that may realise the
        least distance: every pair for small units; for large ones only the pairs within the
        least distance (found with a spatial index), so that two units of thousands of bases
        do not take minutes and gigabytes."""
        na, nb = len(ia), len(ib)
        if na * nb <= _MEASURE_ALL_PAIRS:
            return np.repeat(np.arange(na), nb), np.tile(np.arange(nb), na)
        polys_a, polys_b = self.polygons[ia], self.polygons[ib]
        tree = shapely.STRtree(polys_b)
        qa, qb = tree.query_nearest(polys_a, all_matches=True)
        least = float(shapely.distance(polys_a[qa], polys_b[qb]).min())
        ka, kb = tree.query(polys_a, predicate="dwithin", distance=least + 1e-6)
        order = np.lexsort((kb, ka))
        return ka[order].astype(np.intp), kb[order].astype(np.intp)

    def terrain_within(
        self,
        distance_cm: float,
        bases: npt.ArrayLike | None = None,
        *,
        method: PairMethod = "index",
    ) -> tuple[IntArray, IntArray, FloatArray]:
        """``(base, terrain, distance)`` for every base within ``distance_cm`` of a feature."""
        subset = np.arange(len(self), dtype=np.intp) if bases is None else np.asarray(bases, dtype=np.intp)
        if not self.terrain or subset.size == 0:
            empty = np.zeros(0, np.intp)
            return empty, empty, np.zeros(0)
        if method == "brute":
            d_all = shapely.distance(self.polygons[subset][:, None], self.terrain_polygons[None, :])
            q, t = np.nonzero(d_all <= distance_cm)
        else:
            q, t = self.terrain_tree.query(self.polygons[subset], predicate="dwithin", distance=distance_cm)
        b = subset[q]
        d = shapely.distance(self.polygons[b], self.terrain_polygons[t])
        order = np.lexsort((t, b))
        return b[order], t[order].astype(np.intp), np.asarray(d, dtype=float)[order]


__all__ = ["Battlefield", "Measurement", "PairMethod"]
