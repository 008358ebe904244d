"""6.6.7–6.6.12 — the way a fleeing figure takes to its own table edge when the straight line is
barred: round enemy figures and their control zones, impassable ground and terrain closed to its
kind, and round own units, through them only when there is no other way.

:class:`FlightField` is computed once per side and kind of figure (cached on the table of the
morale phase) and answers every figure of that side: :meth:`FlightField.walk` follows the
shortest way from a figure's centre to the edge and says how long it is, where it is stopped
(entering an enemy control zone, 6.6.10, when no way avoids one), and at which distance it
enters each own unit (6.6.11).

How the way is found (decisions, docs/decisions.md "Flight"):

- The figure is a disc of radius half its base's width (the narrow side): a fleeing figure may
  turn to slip through a gap (6.1.3: no formation). Its centre moves on a grid of cells every
  ``FLIGHT_GRID_CM`` (1 cm; coarser on large tables, so that the grid has at most
  ``FLIGHT_GRID_CELLS`` cells), between the edge and ``FLIGHT_MARGIN_CM`` beyond the fleeing
  figure farthest from it, with 16 moves from each cell (8 neighbours and 8 knight's moves;
  the way is at most 2.7 % longer than the straight one at the worst angle).
- Cells where the disc meets an enemy base or ground closed to its kind are solid. Cells where it
  enters an enemy control zone (not of a panicking unit, 1.4.1) cost ``ZONE_WEIGHT`` per cm;
  cells where it is within an enemy figure's fire or move range (Z of a figure that fires, R; edge
  to edge, 6.6.6-6.6.7) cost ``RANGE_WEIGHT`` per cm more; cells where it meets an own base cost
  ``OWN_WEIGHT`` per cm more; other cells 1 per cm. So the way avoids zones whenever it can
  (6.6.10); it leaves the enemy's ranges by the shortest way out and does not enter them again
  where it can (6.6.6, 6.6.7), even when that means going through own units (6.6.8: own units are
  avoided unless that leads into the enemy's ranges); it avoids own units whenever it can (6.6.8,
  6.6.11), and otherwise is the shortest (6.6.9). A figure standing in a zone at the start may leave it
  (6.6.5); entering a zone afterwards stops it there.
- Terrain the flight should avoid (6.6.8: rough ground, obstacles, buildings and fortifications
  open to it) costs ``AVOID_WEIGHT`` per cm more, plus rough ground's own extra cost (3.2.2), and
  is kept half the base's diagonal from the centre. What the chosen way costs in flight distance
  is counted exactly as a move's terrain costs (:func:`way_cost`, 3.2.1-3.2.5).
- The costs are spread from the edge by repeated relaxation over the whole grid (numpy); each
  figure then follows the cheapest neighbour down to the edge. Where a figure is within a range
  and the shortest way out (straight to the nearest point of the ranges' rim) and on straight to
  the edge is clear, that way is measured exactly instead (:meth:`FlightField.leave_ranges`).

A range is measured from a figure's base whatever its arcs (the rules say "the range of its fire
and move", 6.6.6). Hills are not gone round to save the climb (they are no obstacle).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.paths import COSTLY_KINDS, WayCost
from szwadron.geometry.terrain import TerrainShape, forbidden_rule
from szwadron.i18n import N_
from szwadron.models import Kind, TerrainKind

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

#: Grid step of the flight planner, cm (the least; larger on large tables).
FLIGHT_GRID_CM = 1.0
#: Most cells in the flight planner's grid (the step grows to keep below it).
FLIGHT_GRID_CELLS = 10_000
#: The grid reaches this far beyond the fleeing figure farthest from the edge, cm.
FLIGHT_MARGIN_CM = 30.0
#: Cost per cm within an enemy figure's fire or move range (6.6.6-6.6.7): more than through own
#: units (6.6.8 avoids them unless that leads into the enemy's ranges), less than a zone (6.6.10).
RANGE_WEIGHT = 1.0e4
#: Cost per cm inside an enemy control zone (6.6.10: only when no other way).
ZONE_WEIGHT = 1.0e6
#: Cost per cm over an own base (6.6.8, 6.6.11: only when no other way).
OWN_WEIGHT = 1.0e3
#: Cost per cm within terrain the flight should avoid (6.6.8 "unikać przeszkód terenowych"), on
#: top of what moving through it costs (3.2): a way round is taken when it is less than about ten
#: times as long as the stretch inside.
AVOID_WEIGHT = 10.0
#: 6.6.8 — the terrain a flight avoids where it can (rough ground, obstacles, buildings and
#: fortifications it may enter; ground closed to it is solid).
AVOIDED_KINDS = frozenset(
    {
        TerrainKind.FOREST,
        TerrainKind.ROUGH,
        TerrainKind.OBSTACLE,
        TerrainKind.BUILDING,
        TerrainKind.FORTIFICATION,
    }
)
# COSTLY_KINDS, the terrain that costs a flight more than its length (the avoided kinds and hills,
# 3.2), is the geometry's: szwadron.geometry.paths, where a way's costs are counted.

_MOVES = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
_MOVES += [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)]
_STEP_LENGTH = {(dx, dy): math.hypot(dx, dy) for dx, dy in _MOVES}


@dataclass(frozen=True)
class FlightWalk:
    """One figure's way: ``edge`` its length to the edge (inf: none), ``block`` where it is
    stopped (inf: never), ``blocker`` what stops it, ``stop`` the centre where it stops, and
    ``enter`` the distance at which it enters each own unit (by unit index)."""

    edge: float
    block: float
    blocker: str | None
    stop: tuple[float, float]
    enter: dict[int, float]
    points: tuple[tuple[float, float], ...]
    grid_cm: float = FLIGHT_GRID_CM
    in_range: float = 0.0
    """cm of the way within the enemy's fire or move ranges (6.6.6-6.6.7)."""
    exact: bool = False
    """Measured exactly (two straight legs, :meth:`FlightField.leave_ranges`), not on the grid."""


@dataclass
class FlightField:
    """The cost of the way to ``side``'s edge from every cell, for a disc of ``radius``."""

    bf: Battlefield
    side_code: int
    radius: float
    kind: Kind
    reach: float = math.inf
    """How far from the edge the grid extends, cm (the fleeing figures and a margin)."""
    ranges: shapely.Geometry | None = None
    """6.6.6-6.6.7: the ground within the enemy's fire and move ranges (:func:`enemy_ranges`)."""
    corner: float = 0.0
    """Half the base's diagonal: how far terrain the flight avoids is kept from the centre, so
    that no corner of the base, whichever way it faces, clips it (default: the disc's radius)."""
    step: float = field(init=False)
    y0: float = field(init=False)
    nx: int = field(init=False)
    ny: int = field(init=False)
    solid: BoolArray = field(init=False)
    zone: BoolArray = field(init=False)
    own: IntArray = field(init=False)  # own unit index per cell, -1 none
    in_range: BoolArray = field(init=False)  # within the enemy's fire or move ranges (6.6.6)
    avoid: BoolArray = field(init=False)  # within terrain the flight avoids (6.6.8)
    rough: BoolArray = field(init=False)  # within rough ground (3.2.2)
    exposed: shapely.Geometry | None = field(init=False)  # centres whose disc reaches a range
    cost: FloatArray = field(init=False)
    _as_lists: tuple[list[list[int]], list[list[bool]], list[list[bool]]] | None = field(
        init=False, default=None, repr=False
    )
    succ: IntArray = field(init=False)  # the move index taken from each cell (-1 at the edge)

    def __post_init__(self) -> None:
        t = self.bf.scenario.table
        extent = min(t.depth, self.reach)
        self.y0 = 0.0 if self.side_code == 0 else t.depth - extent
        self.step = max(FLIGHT_GRID_CM, math.sqrt(t.width * extent / FLIGHT_GRID_CELLS))
        self.nx = max(2, math.ceil(t.width / self.step))
        self.ny = max(2, math.ceil(extent / self.step))
        self._classify()
        self._spread()

    # -- grid ---------------------------------------------------------------------------------
    def centre(self, ix: int, iy: int) -> tuple[float, float]:
        """The centre of cell (ix, iy)."""
        return ((ix + 0.5) * self.step, self.y0 + (iy + 0.5) * self.step)

    def cell(self, x: float, y: float) -> tuple[int, int]:
        """The cell holding point (x, y)."""
        ix = min(self.nx - 1, max(0, int(x // self.step)))
        iy = min(self.ny - 1, max(0, int((y - self.y0) // self.step)))
        return ix, iy

    def _classify(self) -> None:
        bf, r = self.bf, self.radius
        s = bf.settings
        xs = (np.arange(self.nx) + 0.5) * self.step
        ys = self.y0 + (np.arange(self.ny) + 0.5) * self.step
        gx, gy = np.meshgrid(xs, ys)  # (ny, nx)
        pts = shapely.points(gx.ravel(), gy.ravel())
        n = pts.size
        solid = np.zeros(n, dtype=bool)
        zone = np.zeros(n, dtype=bool)
        own = np.full(n, -1, dtype=np.intp)
        zone_r = s.control_zone_cm
        q, b = bf.tree.query(pts, predicate="dwithin", distance=r + zone_r)
        if q.size:
            d = shapely.distance(pts[q], bf.polygons[b])
            enemy = bf.side[b] != self.side_code
            tol = s.overlap_tolerance_cm
            touch = d < r - tol
            solid[q[enemy & touch]] = True
            live = enemy & ~bf.panicking[bf.unit_of[b]]
            zone[q[live & (d < r + zone_r - s.distance_epsilon_cm)]] = True
            mine = ~enemy & touch
            own[q[mine]] = bf.unit_of[b[mine]]
        closed = [f for f in bf.terrain if forbidden_rule(self.kind, f) is not None]
        for f in closed:
            grown = shapely.buffer(f.polygon, r - s.overlap_tolerance_cm)
            solid |= shapely.contains_xy(grown, gx.ravel(), gy.ravel())
        # 6.6.8, 3.2.2: terrain the way avoids, and rough ground that costs more per cm
        self.avoid = np.zeros((self.ny, self.nx), dtype=bool)
        self.rough = np.zeros((self.ny, self.nx), dtype=bool)
        for f in bf.terrain:
            if f.kind not in AVOIDED_KINDS or forbidden_rule(self.kind, f) is not None:
                continue
            grown = shapely.buffer(f.polygon, max(r, self.corner))
            inside = shapely.contains_xy(grown, gx.ravel(), gy.ravel())
            self.avoid |= inside.reshape(self.ny, self.nx)
            if f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH):
                self.rough |= inside.reshape(self.ny, self.nx)
        self.solid = solid.reshape(self.ny, self.nx)
        self.zone = zone.reshape(self.ny, self.nx) & ~self.solid
        self.own = own.reshape(self.ny, self.nx)
        if self.ranges is None or self.ranges.is_empty:
            self.in_range = np.zeros((self.ny, self.nx), dtype=bool)
            self.exposed = None
        else:
            self.exposed = shapely.buffer(self.ranges, r, quad_segs=16)  # the disc reaches a range
            shapely.prepare(self.exposed)
            near = shapely.contains_xy(self.exposed, gx.ravel(), gy.ravel())
            self.in_range = near.reshape(self.ny, self.nx) & ~self.solid

    def _spread(self) -> None:
        """Relax the cost to the edge over the grid until nothing changes."""
        ny, nx, h = self.ny, self.nx, self.step
        weight = 1.0 + np.where(self.own >= 0, OWN_WEIGHT, 0.0) + np.where(self.in_range, RANGE_WEIGHT, 0.0)
        weight += np.where(self.avoid, AVOID_WEIGHT, 0.0)
        weight += np.where(self.rough, self.bf.settings.rough_cost_factor - 1.0, 0.0)
        weight = np.where(self.zone, ZONE_WEIGHT, weight)
        weight = np.where(self.solid, np.inf, weight)
        cost = np.full((ny, nx), np.inf)
        ys = self.y0 + (np.arange(ny) + 0.5) * h
        to_edge = ys if self.side_code == 0 else self.bf.scenario.table.depth - ys
        row = 0 if self.side_code == 0 else ny - 1
        seed = to_edge[row] * weight[row]
        cost[row] = np.where(np.isfinite(seed), seed, np.inf)
        succ = np.full((ny, nx), -1, dtype=np.intp)
        # per move: the cells it leads from and to (views), and the cost of the step (the mean
        # of the weights met, over the length)
        views = []
        for m, (dx, dy) in enumerate(_MOVES):
            length = h * math.hypot(dx, dy)
            w_there = _shift(weight, dx, dy, np.inf)
            if abs(dx) == 2 or abs(dy) == 2:  # a knight's move passes over two more cells
                sx, sy = int(np.sign(dx)), int(np.sign(dy))
                mids = [(sx, 0), (sx, dy)] if abs(dx) == 2 else [(0, sy), (dx, sy)]
                for mx, my in mids:
                    w_there = np.maximum(w_there, _shift(weight, mx, my, np.inf))
            step_cost = length * 0.5 * (weight + w_there)
            to = (slice(max(0, -dy), min(ny, ny - dy)), slice(max(0, -dx), min(nx, nx - dx)))
            frm = (slice(max(0, dy), min(ny, ny + dy)), slice(max(0, dx), min(nx, nx + dx)))
            views.append((m, cost[to], cost[frm], succ[to], np.ascontiguousarray(step_cost[to])))
        for _ in range(4 * (nx + ny)):
            changed = False
            for m, here, there, succ_here, c in views:
                cand = there + c
                better = cand < here - 1e-9
                if better.any():
                    np.copyto(here, cand, where=better)
                    succ_here[better] = m
                    changed = True
            if not changed:
                break
        self.cost = cost
        self.succ = succ

    # -- one figure ---------------------------------------------------------------------------
    def walk(self, x: float, y: float, own_unit: int, nearest: float) -> FlightWalk:
        """The way of a figure of unit ``own_unit`` whose centre is (x, y) and whose point
        nearest the edge is ``nearest`` cm nearer the edge than its centre. Its own unit does
        not bar its way (6.1.3): it leaves it by the way that is cheapest in all."""
        bf = self.bf
        ix, iy = self.cell(x, y)
        route = self._leave_own(ix, iy, own_unit)
        if route is None:
            return FlightWalk(math.inf, 0.0, N_("no way to the edge"), (x, y), {}, ((x, y),), self.step)
        ix, iy = route[-1]
        while (m := int(self.succ[iy, ix])) >= 0:
            dx, dy = _MOVES[m]
            ix, iy = ix + dx, iy + dy
            route.append((ix, iy))
        dist, (px, py) = 0.0, (x, y)
        points = [(x, y)]
        enter: dict[int, float] = {}
        left_zone = False
        block, blocker = math.inf, None
        in_range = 0.0
        for ix, iy in route:
            cx, cy = self.centre(ix, iy)
            seg = math.hypot(cx - px, cy - py)
            dist += seg
            if self.in_range[iy, ix]:
                in_range += seg
            px, py = cx, cy
            points.append((cx, cy))
            if not self.zone[iy, ix] and not self.solid[iy, ix]:  # (the start may snap into a solid cell)
                left_zone = True
            elif left_zone:  # 6.6.10: a zone entered after leaving the one it stood in
                block, blocker = dist, N_("an enemy control zone")
                break
            o = int(self.own[iy, ix])
            if o >= 0 and o != own_unit and o not in enter:
                enter[o] = dist
        if math.isfinite(block):
            return FlightWalk(math.inf, block, blocker, (px, py), enter, tuple(points), self.step, in_range)
        ys = py if self.side_code == 0 else bf.scenario.table.depth - py
        edge = max(0.0, dist + ys - nearest)
        return FlightWalk(edge, math.inf, None, (px, py), enter, tuple(points), self.step, in_range)

    def exposure(self, x: float, y: float, v: tuple[float, float], length: float) -> float:
        """cm of the straight line of the centre from (x, y) along ``v`` for ``length`` cm within
        the enemy's ranges (6.6.6), measured exactly (not on the grid)."""
        if self.exposed is None or length <= 0:
            return 0.0
        line = shapely.linestrings([(x, y), (x + v[0] * length, y + v[1] * length)])
        return float(shapely.length(shapely.intersection(line, self.exposed)))

    def leave_ranges(self, x: float, y: float, own_unit: int, nearest: float) -> FlightWalk | None:
        """6.6.6-6.6.7 exactly, where the grid is not needed: the figure whose centre is (x, y),
        within the enemy's ranges, leaves them by the shortest way out (straight to the nearest
        point of their rim), then flees straight to its edge. ``None`` when it is not within a
        range, or when either leg meets anything (an enemy base or zone, closed ground, an own
        unit other than its own — sampled on the grid every half cell) or the second leg enters a
        range again: then the planner's grid finds the way."""
        if self.exposed is None:
            return None
        start = shapely.points(x, y)
        if not shapely.contains(self.exposed, start):
            return None
        line = shapely.shortest_line(start, shapely.boundary(self.exposed))  # holes' rims too
        ex, ey = (float(c) for c in shapely.get_coordinates(line)[1])
        out = math.hypot(ex - x, ey - y)
        if out <= 0:
            return None
        # a hair beyond the rim, so the second leg starts outside the range
        ex, ey = ex + (ex - x) / out * 1e-6, ey + (ey - y) / out * 1e-6
        t = self.bf.scenario.table
        # on straight until the base's point nearest the edge reaches it
        down = max(0.0, (ey if self.side_code == 0 else t.depth - ey) - nearest)
        v = (0.0, -1.0) if self.side_code == 0 else (0.0, 1.0)
        if self.exposure(ex, ey, v, down) > self.bf.settings.distance_epsilon_cm:
            return None  # straight down would enter a range again: the grid goes round it
        end = (ex + v[0] * down, ey + v[1] * down)
        if not self._clear(((x, y), (ex, ey), end), own_unit):
            return None
        edge = out + down
        return FlightWalk(edge, math.inf, None, end, {}, ((x, y), (ex, ey), end), self.step, out, exact=True)

    def _clear(self, points: tuple[tuple[float, float], ...], own_unit: int) -> bool:
        """Does the broken line through ``points`` keep off enemy bases, closed ground, enemy
        zones (once out of the one it may stand in, 6.6.5) and other own units? Sampled every
        half cell of the grid."""
        left_zone = False
        for (ax, ay), (bx, by) in itertools.pairwise(points):
            length = math.hypot(bx - ax, by - ay)
            n = max(1, math.ceil(length / (self.step / 2)))
            for i in range(n + 1):
                ix, iy = self.cell(ax + (bx - ax) * i / n, ay + (by - ay) * i / n)
                if self.solid[iy, ix]:
                    return False
                if not self.zone[iy, ix]:
                    left_zone = True
                elif left_zone:
                    return False
                o = int(self.own[iy, ix])
                if o >= 0 and o != own_unit:
                    return False
        return True

    def _lists(self) -> tuple[list[list[int]], list[list[bool]], list[list[bool]]]:
        """The own-unit, solid and in-range grids as nested lists (fast to index one by one)."""
        if self._as_lists is None:
            self._as_lists = (self.own.tolist(), self.solid.tolist(), self.in_range.tolist())
        return self._as_lists

    def _leave_own(self, ix: int, iy: int, own_unit: int) -> list[tuple[int, int]] | None:
        """Cells from (ix, iy) out of the figure's own unit (costed as free ground: the field
        charges it as an own unit — but within the enemy's ranges at their cost, 6.6.6), to the
        cell where the rest of the way is cheapest; None when there is no way at all."""
        if self.own[iy, ix] != own_unit:
            return [(ix, iy)] if math.isfinite(float(self.cost[iy, ix])) else None
        h = self.step
        own, solid, in_range = self._lists()
        best, best_cell = math.inf, None
        seen: dict[tuple[int, int], float] = {(ix, iy): 0.0}
        prev: dict[tuple[int, int], tuple[int, int]] = {}
        heap = [(0.0, ix, iy)]
        while heap:
            d, cx, cy = heapq.heappop(heap)
            if d > seen.get((cx, cy), math.inf) or d >= best:
                continue
            for dx, dy in _MOVES[:8]:
                nx_, ny_ = cx + dx, cy + dy
                if not (0 <= nx_ < self.nx and 0 <= ny_ < self.ny) or solid[ny_][nx_]:
                    continue
                exposed = 0.5 * (in_range[cy][cx] + in_range[ny_][nx_]) * RANGE_WEIGHT
                nd = d + h * _STEP_LENGTH[dx, dy] * (1.0 + exposed)
                if nd >= seen.get((nx_, ny_), math.inf):
                    continue
                seen[(nx_, ny_)] = nd
                prev[(nx_, ny_)] = (cx, cy)
                if own[ny_][nx_] == own_unit:
                    heapq.heappush(heap, (nd, nx_, ny_))
                elif nd + float(self.cost[ny_, nx_]) < best:
                    best, best_cell = nd + float(self.cost[ny_, nx_]), (nx_, ny_)
        if best_cell is None:
            return None
        route = [best_cell]
        while route[-1] in prev:
            route.append(prev[route[-1]])
        return route[::-1]


def _shift(a: FloatArray, dx: int, dy: int, fill: float) -> FloatArray:
    """``out[y, x] = a[y + dy, x + dx]`` (the neighbour's value), ``fill`` off the grid."""
    out = np.full_like(a, fill)
    ny, nx = a.shape
    ys_to = slice(max(0, -dy), min(ny, ny - dy))
    xs_to = slice(max(0, -dx), min(nx, nx - dx))
    ys_from = slice(max(0, dy), min(ny, ny + dy))
    xs_from = slice(max(0, dx), min(nx, nx + dx))
    out[ys_to, xs_to] = a[ys_from, xs_from]
    return out


def enemy_ranges(bf: Battlefield, side_code: int) -> shapely.Geometry | None:
    """6.6.6-6.6.7 — the ground within the fire range (Z, 4.5.1, of a figure that fires) or the
    move range (R, 3.1) of any enemy figure not in panic (a panicking unit threatens no one,
    6.1.3), measured edge to edge from its base: each enemy unit's bases grown by the longest of
    its figures' reaches, joined. ``None`` when no enemy reaches anywhere."""
    parts = []
    for k, unit in enumerate(bf.scenario.units):
        if (0 if unit.side == "A" else 1) == side_code or bf.panicking[k]:
            continue
        bases = bf.unit_bases(k)
        reach = 0.0
        for i in range(len(bases)):
            prof = unit.base_profile(i)
            reach = max(reach, float(prof.move), float(prof.range) if prof.fire > 0 else 0.0)
        if reach > 0 and len(bases):
            parts.append(shapely.buffer(shapely.union_all(bf.polygons[bases]), reach, quad_segs=8))
    return shapely.union_all(parts) if parts else None


def way_cost(
    bf: Battlefield, b: int, points: Sequence[tuple[float, float]], features: Sequence[TerrainShape]
) -> WayCost:
    """3.2.1, 3.2.2, 3.2.3, 3.2.5 — the cost of base ``b``'s flight along ``points`` (its
    centre's way; the figure is translated, its facing kept, 6.6), over the terrain
    ``features`` (of :data:`COSTLY_KINDS`, not closed to it): :meth:`WayCost.of
    <szwadron.geometry.paths.WayCost.of>`, as a move is costed, and a pursuit's way (6.7)."""
    size = (float(bf.width[b]), float(bf.depth[b]))
    return WayCost.of(points, float(bf.facing[b]), size, features, bf.settings)


__all__ = [
    "AVOIDED_KINDS",
    "AVOID_WEIGHT",
    "COSTLY_KINDS",
    "FLIGHT_GRID_CELLS",
    "FLIGHT_GRID_CM",
    "FLIGHT_MARGIN_CM",
    "OWN_WEIGHT",
    "RANGE_WEIGHT",
    "ZONE_WEIGHT",
    "FlightField",
    "FlightWalk",
    "WayCost",
    "enemy_ranges",
    "way_cost",
]
