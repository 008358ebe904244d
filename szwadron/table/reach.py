"""3.1, 3.2, 1.4.2, 5.9.2 — can a unit bring a base into contact with an enemy unit this turn?

:func:`reach` finds, for the unit's base nearest the target, the shortest legal path to a pose
touching a target figure: around impassable terrain and terrain closed to its kind, other
figures (own and enemy), and the control zones of enemies other than the target (zones of
engaged figures let it pass, 5.9.3), paying terrain costs (3.2: rough ground, obstacles,
buildings, hills). Its cost (PD-6 length plus surcharges) is compared with the base's move.

How the path is computed (and how far it can be from the true shortest):

Decision: the base keeps its facing along the path (it slides; PD-6 then measures the path of
its centre, since every corner travels the same path). Turning to face the enemy is left to the
player: it costs the arc of the outer corner on top.

1. Configuration space: the set of centre positions where the base (shrunk by PD-3's overlap
   tolerance) would meet a blocker is the blocker "grown" by the base (a Minkowski sum: the
   convex hull of corner differences for each convex piece). Zones are grown by the base and the
   zone radius.
2. A grid of centre positions every ``grid_cm`` (0.5 cm) round the base, 16 moves from each
   point (the 8 neighbours and the 8 knight's moves), searched with A* (the straight-line
   distance to the target as the heuristic). Edge costs: length × 2 in rough ground, + 4 for each
   obstacle entered, + 4 per building entry and exit, + 6 per hill level climbed (3.2).
3. The grid path is pulled tight: a straight shortcut replaces a stretch of it when the shortcut
   is free and costs no more (costs of a shortcut computed exactly as :func:`check_move` does).
   A last straight slide closes the gap to contact.

The grid path alone can be up to 2.7% longer than the shortest in open ground (the worst angle
between the 16 move directions) and can stay up to about one grid step away from obstacles;
pulling it tight removes the angle error in open ground. ``method="brute"`` is the reference:
the same costs on a finer grid (``grid_cm`` 0.2 by default there), 32 move directions (error
at most 1.3%), every blocker tested against every position with no spatial index, no Minkowski
sums and no pulling tight. ``benchmarks/bench_move.py`` measures the two against each other.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import contact_length, polygon_distance
from szwadron.geometry.paths import BaseMotion, Surcharge, terrain_surcharges
from szwadron.geometry.terrain import forbidden_rule
from szwadron.limits import MAX_REACH_GRID_POINTS
from szwadron.models import Scenario, TerrainKind
from szwadron.table.movement.plan import base_speeds

ReachMethod = Literal["index", "brute"]
FloatArray = npt.NDArray[np.float64]

#: Distance (cm) the path keeps from the limits of blockers and zones.
CLEARANCE_CM = 1e-4
_ZONE_QUAD_SEGS = 8
_MOVES_16 = [(1, 0), (1, 1), (2, 1)]
_MOVES_32 = [(1, 0), (1, 1), (2, 1), (3, 1), (3, 2)]


def _moves(basic: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for a, b in basic:
        for x, y in ((a, b), (b, a)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.add((sx * x, sy * y))
    return sorted(out)


@dataclass(frozen=True)
class ReachResult:
    """The answer of :func:`reach`; :meth:`to_json` is ``szwadron reach --json``."""

    unit: str
    target: str
    base: str
    reachable: bool
    cost: float | None
    path_cm: float | None
    allowed: float
    path: tuple[tuple[float, float], ...]
    facing: float
    surcharges: tuple[Surcharge, ...]
    touches: str | None
    method: str
    grid_cm: float
    how: str

    def to_json(self) -> dict[str, Any]:
        """``{"reachable", "base", "length", "allowed", "path", ...}``."""
        return {
            "reachable": self.reachable,
            "unit": self.unit,
            "target": self.target,
            "base": self.base,
            "length": None if self.cost is None else round(self.cost, 6),
            "path_cm": None if self.path_cm is None else round(self.path_cm, 6),
            "allowed": self.allowed,
            "surcharges": [s.to_json() for s in self.surcharges],
            "path": [[round(x, 4), round(y, 4)] for x, y in self.path],
            "facing": self.facing,
            "touches": self.touches,
            "method": self.method,
            "grid_cm": self.grid_cm,
            "how": self.how,
        }


def _grown(polygon: shapely.Geometry, offsets: FloatArray) -> list[shapely.Geometry]:
    """Minkowski sum of a polygon with ``-offsets`` (a convex base outline around 0), by convex
    pieces (triangles of non-convex polygons)."""
    hull = shapely.convex_hull(polygon)
    if abs(hull.area - polygon.area) <= 1e-9 * max(hull.area, 1.0):
        pieces = [polygon]
    else:
        pieces = list(shapely.get_parts(shapely.constrained_delaunay_triangles(polygon)))
    out = []
    for piece in pieces:
        v = shapely.get_coordinates(piece)
        pts = (v[:, None, :] - offsets[None, :, :]).reshape(-1, 2)
        out.append(shapely.convex_hull(shapely.multipoints(pts)))
    return out


def reach(
    scenario: Scenario | Battlefield,
    unit: str,
    target: str,
    *,
    method: ReachMethod = "index",
    grid_cm: float | None = None,
) -> ReachResult:
    """3.1, 3.2, 1.4.2, 5.9.2 — the shortest legal path of the unit's nearest base into contact
    with ``target`` (see the module docstring for how, and its error bound).

    Raises
    ------
    InvalidDataError
        Unknown units, a target of the same side, a non-positive grid step.

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> cav = {"id": "c", "name": "C", "kind": "cavalry", "R": 24, "W": 2, "SW": 2, "SO": 0,
    ...        "Z": 0, "UW": 4, "C": 0, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": cav, "bases": [{"x": 20, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": cav, "bases": [{"x": 20, "y": 30, "facing": 270}]}]})
    >>> r = reach(sc, "a", "b")
    >>> r.reachable, round(r.cost, 2)      # 20 cm apart centre to centre, 16 cm edge to edge
    (True, 16.0)
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    s = bf.settings
    eps = s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + eps
    shrink = s.overlap_tolerance_cm + eps
    radius = s.control_zone_cm
    own, foe = bf.resolve(unit), bf.resolve(target)
    if unit not in bf.unit_ids or target not in bf.unit_ids:
        raise InvalidDataError("the unit and the target name units, not bases")
    u_k, t_k = bf.unit_ids.index(unit), bf.unit_ids.index(target)
    if bf.scenario.units[u_k].side == bf.scenario.units[t_k].side:
        raise InvalidDataError(f"{target} is not an enemy of {unit}")
    h = grid_cm if grid_cm is not None else (0.5 if method == "index" else 0.2)
    if not h > 0:
        raise InvalidDataError(f"the grid step must be positive, got {h}")

    d0 = polygon_distance(bf.corners[own][:, None], bf.corners[foe][None, :]).min(axis=1)
    b = int(own[int(np.argmin(d0))])
    allowed = base_speeds(bf, u_k)[b]
    x0, y0, f0 = float(bf.x[b]), float(bf.y[b]), float(bf.facing[b])
    w, d = float(bf.width[b]), float(bf.depth[b])
    off_full = base_corners(0.0, 0.0, f0, w, d)
    # a clearance of CLEARANCE_CM keeps the path off the limits the move check applies
    off_core = base_corners(
        0.0, 0.0, f0, max(w - 2 * (shrink - CLEARANCE_CM), 1e-3), max(d - 2 * (shrink - CLEARANCE_CM), 1e-3)
    )
    cost_shrink = 0.1 * eps  # as terrain_surcharges: any real overlap with terrain costs
    off_cost = base_corners(0.0, 0.0, f0, w - 2 * cost_shrink, d - 2 * cost_shrink)
    half = allowed * 1.5 + max(w, d) + 2.0
    table = bf.scenario.table
    ext_x, ext_y = np.abs(off_full[:, 0]).max(), np.abs(off_full[:, 1]).max()
    lo_x, hi_x = max(x0 - half, ext_x), min(x0 + half, table.width - ext_x)
    lo_y, hi_y = max(y0 - half, ext_y), min(y0 + half, table.depth - ext_y)
    nx = math.floor((hi_x - lo_x) / h) + 1
    ny = math.floor((hi_y - lo_y) / h) + 1
    how = (
        f"A* on a {h:g} cm grid of centre positions, 16 directions, then pulled tight"
        if method == "index"
        else f"reference: Dijkstra-like A* on a {h:g} cm grid, 32 directions, every blocker tested"
    )
    if nx < 1 or ny < 1:  # the base cannot stand on the table anywhere within its reach
        return ReachResult(
            unit, target, bf.base_ids[b], False, None, None, allowed, (), f0, (), None, method, h, how
        )
    if nx * ny > MAX_REACH_GRID_POINTS:
        raise InvalidDataError(
            f"{bf.base_ids[b]}: a move of {allowed:g} cm needs a search grid of {nx * ny:,} positions"
            f" every {h:g} cm; at most {MAX_REACH_GRID_POINTS:,} are searched (a move of about"
            f" {math.sqrt(MAX_REACH_GRID_POINTS) * h / 3:.0f} cm)"
        )
    gx = lo_x + h * np.arange(nx)
    gy = lo_y + h * np.arange(ny)
    px, py = (a.ravel() for a in np.meshgrid(gx, gy))
    box = shapely.box(lo_x - half, lo_y - half, hi_x + half, hi_y + half)

    # --- blockers -------------------------------------------------------------------------
    blockers: list[shapely.Geometry] = []
    for f in bf.terrain:
        if forbidden_rule(bf.kinds[b], f) is not None and shapely.intersects(f.polygon, box):
            blockers.append(f.polygon)
    near = (
        np.flatnonzero(shapely.intersects(bf.polygons, box))
        if method == "brute"
        else bf.tree.query(box, predicate="intersects")
    )
    others = [int(o) for o in near.tolist() if o != b]
    blockers += [bf.polygons[o] for o in others]
    zones: list[shapely.Geometry] = []
    for o in others:
        if bf.side[o] == bf.side[b] or bf.unit_of[o] == t_k or bf.panicking[bf.unit_of[o]]:
            continue
        cand = bf.tree.query(bf.polygons[o], predicate="dwithin", distance=tol)
        cand = cand[bf.side[cand] != bf.side[o]]
        if (
            cand.size
            and float(contact_length(bf.corners[o], bf.corners[cand], tol).sum())
            >= s.min_contact_length_cm - eps
        ):
            continue  # 5.9.3: engaged, its zone lets others pass
        zones.append(bf.polygons[o])
    weighted = [
        f
        for f in bf.terrain
        if f.kind
        in (
            TerrainKind.FOREST,
            TerrainKind.ROUGH,
            TerrainKind.OBSTACLE,
            TerrainKind.BUILDING,
            TerrainKind.FORTIFICATION,
        )
        and forbidden_rule(bf.kinds[b], f) is None
        and shapely.intersects(f.polygon, box)
    ]
    hills = [f for f in bf.terrain if f.kind is TerrainKind.HILL and shapely.intersects(f.polygon, box)]
    target_union = shapely.union_all(bf.polygons[foe])

    n = px.size
    if method == "brute":
        polys = polygons_from_corners(base_corners(px, py, f0, w, d)).reshape(-1)
        cores = polygons_from_corners(
            base_corners(px, py, f0, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3))
        ).reshape(-1)
        free = np.ones(n, dtype=bool)
        for g in blockers:
            free &= ~shapely.intersects(cores, g)
        for g in zones:
            free &= ~(shapely.distance(polys, g) < radius - eps)
        costed = polygons_from_corners(
            base_corners(px, py, f0, w - 2 * cost_shrink, d - 2 * cost_shrink)
        ).reshape(-1)
        in_w = [np.asarray(shapely.intersects(costed, f.polygon)) for f in weighted]
        d_target = np.asarray(shapely.distance(polys, target_union))
        cspace_block: shapely.Geometry | None = None
    else:
        grown = [p for g in blockers for p in _grown(g, off_core)]
        # round zones drawn as polygons *around* the circle (never inside it)
        zone_r = (radius + CLEARANCE_CM) / math.cos(math.pi / (4 * _ZONE_QUAD_SEGS))
        grown += [
            shapely.buffer(p, zone_r, quad_segs=_ZONE_QUAD_SEGS) for g in zones for p in _grown(g, off_full)
        ]
        cspace_block = shapely.union_all(grown) if grown else shapely.Polygon()
        shapely.prepare(cspace_block)
        free = ~np.asarray(shapely.contains_xy(cspace_block, px, py))
        in_w = []
        for f in weighted:
            region = shapely.union_all(_grown(f.polygon, off_cost))
            shapely.prepare(region)
            in_w.append(np.asarray(shapely.contains_xy(region, px, py)))
        tgt = shapely.union_all([p for o in foe.tolist() for p in _grown(bf.polygons[o], off_full)])
        d_target = np.asarray(shapely.distance(shapely.points(px, py), tgt))
    level = np.zeros(n, dtype=np.intp)
    for hill in hills:
        level = np.where(shapely.intersects_xy(hill.polygon, px, py), np.maximum(level, hill.level), level)
    rough = np.zeros(n, dtype=bool)
    for f, inside in zip(weighted, in_w, strict=True):
        if f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH):
            rough |= inside
    entry_cost = [
        s.obstacle_crossing_cm if f.kind is TerrainKind.OBSTACLE else s.building_entry_cm for f in weighted
    ]
    exit_cost = [0.0 if f.kind is TerrainKind.OBSTACLE else s.building_exit_cm for f in weighted]
    masks = np.zeros(n, dtype=np.int64)
    for k, inside in enumerate(in_w):
        if weighted[k].kind not in (TerrainKind.FOREST, TerrainKind.ROUGH):
            masks |= inside.astype(np.int64) << k

    # --- A* over the grid ---------------------------------------------------------------------
    moves = _moves(_MOVES_32 if method == "brute" else _MOVES_16)
    factor = s.rough_cost_factor
    goal_band = 1.5 * h
    start = round((y0 - lo_y) / h) * nx + round((x0 - lo_x) / h)
    sx_i, sy_i = start % nx, start // nx
    start_gap = math.hypot(gx[min(max(sx_i, 0), nx - 1)] - x0, gy[min(max(sy_i, 0), ny - 1)] - y0)
    freel = free.tolist()
    levell = level.tolist()
    roughl = rough.tolist()
    maskl = masks.tolist()
    dtl = d_target.tolist()
    best: dict[int, float] = {start: start_gap}
    parent: dict[int, int] = {}
    heap = [(start_gap + dtl[start], start_gap, start)]
    goal = -1
    limit = allowed * 1.5 + 1e-9
    while heap:
        _, g, node = heapq.heappop(heap)
        if g > best.get(node, math.inf) + 1e-12:
            continue
        if dtl[node] <= goal_band:
            goal = node
            break
        if g > limit:
            break
        ix, iy = node % nx, node // nx
        for dx, dy in moves:
            jx, jy = ix + dx, iy + dy
            if not (0 <= jx < nx and 0 <= jy < ny):
                continue
            nb = jy * nx + jx
            if not freel[nb]:
                continue
            if (dx and dy) or abs(dx) > 1 or abs(dy) > 1:  # no cutting corners: the whole
                x_a, x_b = min(ix, jx), max(ix, jx)  # box of cells spanned must be free
                y_a, y_b = min(iy, jy), max(iy, jy)
                if not all(freel[yy * nx + xx] for yy in range(y_a, y_b + 1) for xx in range(x_a, x_b + 1)):
                    continue
            length = h * math.hypot(dx, dy)
            r = (roughl[node] + roughl[nb]) / 2.0
            cost = length * (1.0 + (factor - 1.0) * r)
            if maskl[nb] != maskl[node]:
                entered = maskl[nb] & ~maskl[node]
                left = maskl[node] & ~maskl[nb]
                for k in range(len(weighted)):
                    if entered >> k & 1:
                        cost += entry_cost[k]
                    if left >> k & 1:
                        cost += exit_cost[k]
            if levell[nb] > levell[node]:
                cost += s.hill_climb_cm * (levell[nb] - levell[node])
            ng = g + cost
            if ng < best.get(nb, math.inf) - 1e-12:
                best[nb] = ng
                parent[nb] = node
                heapq.heappush(heap, (ng + dtl[nb], ng, nb))

    base_id = bf.base_ids[b]
    if goal < 0:
        return ReachResult(
            unit, target, base_id, False, None, None, allowed, (), f0, (), None, method, h, how
        )
    chain = [goal]
    while chain[-1] in parent:
        chain.append(parent[chain[-1]])
    pts = [(x0, y0)] + [(float(px[k]), float(py[k])) for k in reversed(chain)]
    # close to contact: slide straight towards the nearest target figure
    end_poly = shapely.Polygon(base_corners(*pts[-1], f0, w, d))
    (ax, ay), (bx, by) = shapely.get_coordinates(shapely.shortest_line(end_poly, target_union)).tolist()
    gap = math.hypot(bx - ax, by - ay)
    if gap > 0:
        pts.append((pts[-1][0] + (bx - ax), pts[-1][1] + (by - ay)))
    if method == "index":
        pts = _pull_tight(pts, f0, w, d, cspace_block, weighted + hills, s)
    pts = [p for k, p in enumerate(pts) if k == 0 or p != pts[k - 1]]
    if len(pts) == 1:  # already in contact
        pts.append(pts[0])
    motion = BaseMotion.of([(x, y, f0) for x, y in pts], w, d)
    extra = terrain_surcharges(motion, weighted + hills, s) if (weighted or hills) else ()
    cost = motion.length + sum(x.cm for x in extra)
    final = base_corners(*pts[-1], f0, w, d)
    dist = polygon_distance(final, bf.corners[foe])
    touches = bf.base_ids[int(foe[int(np.argmin(dist))])]
    return ReachResult(
        unit,
        target,
        base_id,
        cost <= allowed + eps,
        cost,
        motion.length,
        allowed,
        tuple(pts),
        f0,
        extra,
        touches,
        method,
        h,
        how,
    )


def _pull_tight(
    pts: list[tuple[float, float]],
    facing: float,
    w: float,
    d: float,
    block: shapely.Geometry | None,
    costly: list[Any],
    settings: Any,
) -> list[tuple[float, float]]:
    """Replace stretches of the path by straight shortcuts that are free and cost no more."""

    def cost(a: list[tuple[float, float]]) -> float:
        m = BaseMotion.of([(x, y, facing) for x, y in a], w, d)
        return m.length + sum(x.cm for x in terrain_surcharges(m, costly, settings))

    out = [pts[0]]
    i = 0
    while i < len(pts) - 1:
        j = len(pts) - 1
        while j > i + 1:
            seg = shapely.LineString([pts[i], pts[j]])
            if block is None or not shapely.intersects(seg, block):
                if not costly or cost([pts[i], pts[j]]) <= cost(pts[i : j + 1]) + 1e-9:
                    break
            j = max(i + 1, j - max(1, (j - i) // 8)) if j - i > 16 else j - 1
        out.append(pts[j])
        i = j
    return out


__all__ = ["CLEARANCE_CM", "ReachMethod", "ReachResult", "reach"]
