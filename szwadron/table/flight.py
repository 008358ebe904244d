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
  cells where it meets an own base cost ``OWN_WEIGHT`` per cm; other cells 1 per cm. So the way
  avoids zones whenever it can (6.6.10) and own units whenever it can (6.6.8, 6.6.11), and
  otherwise is the shortest (6.6.9). A figure standing in a zone at the start may leave it
  (6.6.5); entering a zone afterwards stops it there.
- The costs are spread from the edge by repeated relaxation over the whole grid (numpy); each
  figure then follows the cheapest neighbour down to the edge.

What is not modelled (left for a later issue): avoiding the enemy's fire and move ranges
(6.6.6–6.6.7) — the way is the shortest legal one, not the one farthest from the enemy; terrain
costs on the way (rough ground, obstacles) other than closed ground.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.terrain import forbidden_rule
from szwadron.i18n import N_
from szwadron.models import Kind

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

#: Grid step of the flight planner, cm (the least; larger on large tables).
FLIGHT_GRID_CM = 1.0
#: Most cells in the flight planner's grid (the step grows to keep below it).
FLIGHT_GRID_CELLS = 10_000
#: The grid reaches this far beyond the fleeing figure farthest from the edge, cm.
FLIGHT_MARGIN_CM = 30.0
#: Cost per cm inside an enemy control zone (6.6.10: only when no other way).
ZONE_WEIGHT = 1.0e6
#: Cost per cm over an own base (6.6.8, 6.6.11: only when no other way).
OWN_WEIGHT = 1.0e3

_MOVES = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
_MOVES += [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)]


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


@dataclass
class FlightField:
    """The cost of the way to ``side``'s edge from every cell, for a disc of ``radius``."""

    bf: Battlefield
    side_code: int
    radius: float
    kind: Kind
    reach: float = math.inf
    """How far from the edge the grid extends, cm (the fleeing figures and a margin)."""
    step: float = field(init=False)
    y0: float = field(init=False)
    nx: int = field(init=False)
    ny: int = field(init=False)
    solid: BoolArray = field(init=False)
    zone: BoolArray = field(init=False)
    own: IntArray = field(init=False)  # own unit index per cell, -1 none
    cost: FloatArray = field(init=False)
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
        self.solid = solid.reshape(self.ny, self.nx)
        self.zone = zone.reshape(self.ny, self.nx) & ~self.solid
        self.own = own.reshape(self.ny, self.nx)

    def _spread(self) -> None:
        """Relax the cost to the edge over the grid until nothing changes."""
        ny, nx, h = self.ny, self.nx, self.step
        weight = np.where(self.zone, ZONE_WEIGHT, np.where(self.own >= 0, OWN_WEIGHT, 1.0))
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
        for ix, iy in route:
            cx, cy = self.centre(ix, iy)
            dist += math.hypot(cx - px, cy - py)
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
            return FlightWalk(math.inf, block, blocker, (px, py), enter, tuple(points), self.step)
        ys = py if self.side_code == 0 else bf.scenario.table.depth - py
        edge = max(0.0, dist + ys - nearest)
        return FlightWalk(edge, math.inf, None, (px, py), enter, tuple(points), self.step)

    def _leave_own(self, ix: int, iy: int, own_unit: int) -> list[tuple[int, int]] | None:
        """Cells from (ix, iy) out of the figure's own unit (costed as free ground: the field
        charges it as an own unit), to the cell where the rest of the way is cheapest; None
        when there is no way at all."""
        if self.own[iy, ix] != own_unit:
            return [(ix, iy)] if math.isfinite(float(self.cost[iy, ix])) else None
        h = self.step
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
                if not (0 <= nx_ < self.nx and 0 <= ny_ < self.ny) or self.solid[ny_, nx_]:
                    continue
                nd = d + h * math.hypot(dx, dy)
                if nd >= seen.get((nx_, ny_), math.inf):
                    continue
                seen[(nx_, ny_)] = nd
                prev[(nx_, ny_)] = (cx, cy)
                if self.own[ny_, nx_] == own_unit:
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


__all__ = [
    "FLIGHT_GRID_CELLS",
    "FLIGHT_GRID_CM",
    "FLIGHT_MARGIN_CM",
    "OWN_WEIGHT",
    "ZONE_WEIGHT",
    "FlightField",
    "FlightWalk",
]
