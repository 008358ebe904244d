"""6.7.4, 6.7.5, 3.1.3 — the way of a pursuing figure round what bars its straight way.

An uncontrolled pursuit "must reach the enemy ... or use its whole move to close on it" (6.7.4:
"muszą dojść do nieprzyjaciela by doprowadzić do walki wręcz lub wykorzystać w pełni ruch by się
do niego zbliżyć") and goes "najkrótszą drogą" (6.7.5), but a figure moves through no own figure
(3.1.3) and into no ground closed to it (3.2.4, 3.2.5). So where an own unit or closed ground
bars the straight way, the figure takes the shortest way round it into contact with the pursued
unit (PD-14: at least 1 cm of edge), and goes as far along that way as its rolled distance
allows. :func:`pursuit_way` finds that way; :mod:`szwadron.game.apply` makes the move (an enemy
figure on the way still stops it there, 6.7.5).

How the way is found (decisions, docs/decisions.md "Pursuit round own units"):

- The figure keeps its facing (it slides, as in the straight pursuit and in
  :func:`~szwadron.table.reach.reach`): its centre's way is every corner's way (PD-6), and the
  centres at which the base would meet a blocker are the blocker grown by the base (a Minkowski
  sum, :func:`~szwadron.table.reach.grown_by_base`). The shortest way of a point among polygons
  runs straight from corner to corner of them, so the planner is a visibility graph: the start
  and the corners of the grown blockers, joined where the straight line between them keeps out
  of every grown blocker, searched with A* (the edge-to-edge gap to the pursued unit as the
  heuristic). Exact, no grid: a way round a corner is as long as a hand measures it.
- From each corner reached, the last stretch is the shortest straight slide into edge contact
  with each figure of the pursued unit (:func:`~szwadron.table.reach.into_contact`, as the
  straight pursuit and a charge slide), where it is free; the shortest way in all is kept. A
  figure whose edges cannot meet a pursued figure's with its facing kept (not parallel: the
  straight pursuit then stops at a corner) takes the shortest way until its base touches one.
- Blockers: the bases of the other own units, ground closed to the figure's kind and the pursued
  unit's own bases (the way runs round them to the side it makes contact on). Enemy units are not
  gone round: the shortest way is the way (6.7.5), and an enemy figure on it stops the figure
  (the caller tests that). The figure's own unit is not a blocker here: its figures move one
  after another and close up (3.1.3, ``szwadron.game.apply``).
- The grown blockers the way is tested against are grown by the base shrunk by
  :data:`GRAZE_CM` all round, so a way along a blocker's limit (touching it, PD-3) is free; a
  blocker the figure already overlaps at its start within the overlap tolerance (PD-3) is grown by
  the base shrunk by that tolerance, so the figure may leave it. The base's centre stays on the
  table.
- Terrain costs are not counted (as in the straight pursuit); the way is measured in cm.

>>> from szwadron.geometry.bases import base_corners
>>> aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 2.0, 2.0))    # the pursued figure
>>> line = shapely.box(46.0, 37.0, 54.0, 39.0)                          # an own line across the way
>>> way = pursuit_way((49.0, 30.0), 90.0, (2.0, 2.0), [aim], [line], (100.0, 100.0))
>>> [(round(x, 3), round(y, 3)) for x, y in way.points]   # round the line's left end, up into contact
[(49.0, 30.0), (45.0, 36.0), (45.0, 40.0), (49.0, 48.0)]
>>> round(way.length, 4)      # √(4² + 6²) + 4 + √(4² + 8²)
20.1554
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
import shapely.affinity

from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.settings import DEFAULT_SETTINGS, RulesSettings
from szwadron.table.reach import CLEARANCE_CM, grown_by_base, into_contact

FloatArray = npt.NDArray[np.float64]

#: How deep a way may graze a blocker's limit, cm (far inside the PD-3 overlap tolerance): the
#: grown blockers a way is tested against are grown by the base shrunk by this much all round.
GRAZE_CM = CLEARANCE_CM


@dataclass(frozen=True)
class PursuitWay:
    """A pursuing figure's way: its centre's ``points`` (where it stands, the corners it goes
    round, the pose in edge contact with the pursued unit) and the way's ``length`` in cm."""

    points: tuple[tuple[float, float], ...]
    length: float


def edge_touch(base: shapely.Polygon, figures: Sequence[shapely.Geometry], tol: float) -> float:
    """PD-14 — how many cm of ``base``'s edge touch ``figures`` (within ``tol``).

    >>> a = shapely.box(0.0, 0.0, 2.0, 2.0)
    >>> edge_touch(a, [shapely.box(1.0, 2.0, 3.0, 4.0)], 0.0)    # half the top edge
    1.0
    """
    return float(
        sum(
            shapely.length(shapely.intersection(shapely.boundary(base), shapely.buffer(a, tol)))
            for a in figures
        )
    )


@dataclass
class _Plan:
    """The planner's shapes for one figure: the base's outline round its centre, the grown
    blockers to test ways against (prepared), the centres where the base may stand on the table,
    the pursued figures it can meet edge to edge with its facing kept (``edged``), the pursued
    figures grown by the base (``grown``), and the tolerances."""

    offsets: FloatArray
    test: shapely.Geometry
    box: tuple[float, float, float, float]
    aims: list[shapely.Geometry]
    edged: list[shapely.Geometry]
    grown: shapely.Geometry
    contact_cm: float
    least: float
    tol: float

    def base_at(self, x: float, y: float) -> shapely.Polygon:
        """The base with its centre at (x, y)."""
        return shapely.Polygon(self.offsets + np.asarray([x, y]))

    def on_table(self, x: float, y: float) -> bool:
        """Does the base's centre stand where the whole base is on the table?"""
        lo_x, lo_y, hi_x, hi_y = self.box
        return lo_x <= x <= hi_x and lo_y <= y <= hi_y

    def free(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """3.1.3, 3.2.4, 3.2.5 — does the base slide straight from ``a`` to ``b`` clear of every
        blocker (within :data:`GRAZE_CM`) and end on the table?"""
        return self.on_table(*b) and not shapely.intersects(shapely.LineString([a, b]), self.test)

    def goal(self, x: float, y: float, within: float) -> tuple[float, tuple[float, float]] | None:
        """PD-14, 5.3.2 — the shortest free straight slide from (x, y) into edge contact with a
        pursued figure, no longer than ``within``: its length and end; None when there is none.
        Where no pursued figure can be met edge to edge with the facing kept (their edges are
        not parallel to the base's), the shortest free straight slide until the base touches one
        (the straight pursuit, too, then stops at a corner)."""
        if not self.edged:
            q = shapely.get_coordinates(shapely.shortest_line(shapely.Point(x, y), self.grown))[1]
            end = (float(q[0]), float(q[1]))
            length = math.hypot(end[0] - x, end[1] - y)
            return (length, end) if length < within and self.free((x, y), end) else None
        here = self.base_at(x, y)
        best: tuple[float, tuple[float, float]] | None = None
        gaps = shapely.distance(here, np.asarray(self.edged, dtype=object))
        for i in np.argsort(gaps, kind="stable").tolist():
            limit = within if best is None else min(within, best[0])
            if float(gaps[i]) >= limit:
                break  # a slide is at least as long as the gap
            mx, my = (float(v) for v in into_contact(here, [self.edged[i]], self.contact_cm))
            length = math.hypot(mx, my)
            end = (x + mx, y + my)
            if length >= limit or not self.free((x, y), end):
                continue
            if edge_touch(shapely.affinity.translate(here, mx, my), self.aims, self.tol) >= self.least:
                best = (length, end)
        return best


def _plan(
    start: tuple[float, float],
    facing: float,
    size: tuple[float, float],
    aims: Sequence[shapely.Geometry],
    blockers: Sequence[shapely.Geometry],
    table: tuple[float, float],
    settings: RulesSettings,
) -> tuple[_Plan, FloatArray] | None:
    """The shapes of :func:`pursuit_way` and the corners of the grown blockers a way may turn
    at; None when the figure stands in a blocker deeper than the overlap tolerance (PD-3)."""
    w, d = size
    s = settings
    offsets = base_corners(0.0, 0.0, facing, w, d)
    graze = base_corners(0.0, 0.0, facing, max(w - 2 * GRAZE_CM, 1e-3), max(d - 2 * GRAZE_CM, 1e-3))
    shrink = s.overlap_tolerance_cm + s.distance_epsilon_cm - GRAZE_CM
    loose = base_corners(0.0, 0.0, facing, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3))
    whole = [*blockers, *aims]
    full = [p for g in whole for p in grown_by_base(g, offsets)]
    test = []
    for g in whole:
        pieces = grown_by_base(g, graze)
        if any(shapely.contains_xy(p, *start) for p in pieces):  # overlapping it at the start (PD-3)
            pieces = grown_by_base(g, loose)
        test += pieces
    region = shapely.union_all(test) if test else shapely.Polygon()
    shapely.prepare(region)
    if shapely.contains_xy(region, *start):
        return None
    ext_x, ext_y = float(np.abs(offsets[:, 0]).max()), float(np.abs(offsets[:, 1]).max())
    eps = s.distance_epsilon_cm
    box = (ext_x - eps, ext_y - eps, table[0] - ext_x + eps, table[1] - ext_y + eps)
    corners = shapely.get_coordinates(shapely.boundary(shapely.union_all(full))) if full else np.empty((0, 2))
    corners = np.unique(np.round(corners, 9), axis=0)
    keep = ~np.asarray(shapely.contains_xy(region, corners[:, 0], corners[:, 1]), dtype=bool)
    keep &= (corners[:, 0] >= box[0]) & (corners[:, 0] <= box[2])
    keep &= (corners[:, 1] >= box[1]) & (corners[:, 1] <= box[3])
    least = s.min_contact_length_cm - s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    here = shapely.Polygon(offsets + np.asarray(start))
    edged = [  # PD-14: the figures whose edges its own edges can meet, facing kept
        a
        for a in aims
        if edge_touch(
            shapely.affinity.translate(here, *into_contact(here, [a], s.min_contact_length_cm)), [a], tol
        )
        >= least
    ]
    grown = shapely.union_all([p for a in aims for p in grown_by_base(a, offsets)])
    plan = _Plan(offsets, region, box, list(aims), edged, grown, s.min_contact_length_cm, least, tol)
    return plan, corners[keep]


def pursuit_way(
    start: tuple[float, float],
    facing: float,
    size: tuple[float, float],
    aims: Sequence[shapely.Geometry],
    blockers: Sequence[shapely.Geometry],
    table: tuple[float, float],
    settings: RulesSettings = DEFAULT_SETTINGS,
) -> PursuitWay | None:
    """6.7.4, 6.7.5, 3.1.3, PD-14 — the shortest way of a pursuing figure, facing kept, from
    ``start`` (its centre) into edge contact with one of ``aims`` (the pursued unit's bases),
    round ``blockers`` (other own units' bases, ground closed to it) and the pursued bases, its
    base (``size``: width, depth) on the ``table`` (width, depth) all the way. None when there
    is no such way (see the module docstring for how it is found).

    Examples
    --------
    A straight way is its own shortest way:

    >>> from szwadron.geometry.bases import base_corners
    >>> aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 2.0, 2.0))
    >>> pursuit_way((50.0, 30.0), 90.0, (2.0, 2.0), [aim], [], (100.0, 100.0)).points
    ((50.0, 30.0), (50.0, 48.0))
    """
    planned = _plan(start, facing, size, aims, blockers, table, settings)
    if planned is None:
        return None
    plan, corners = planned
    nodes = np.vstack([np.asarray([start], dtype=float), corners])
    n = len(nodes)
    polys = polygons_from_corners(base_corners(nodes[:, 0], nodes[:, 1], facing, *size)).reshape(-1)
    # A*'s estimate: the gap to the pursued unit, which no slide into contact is shorter than
    h = np.asarray(shapely.distance(polys, shapely.union_all(plan.aims)), dtype=float)
    g = np.full(n, math.inf)
    g[0] = 0.0
    prev = np.full(n, -1, dtype=np.intp)
    done = np.zeros(n, dtype=bool)
    best, best_at, best_end = math.inf, -1, (0.0, 0.0)
    heap = [(float(h[0]), 0.0, 0)]
    while heap:
        f, gv, v = heapq.heappop(heap)
        if done[v] or gv > g[v]:
            continue
        if f >= best - 1e-12:
            break
        done[v] = True
        x, y = float(nodes[v, 0]), float(nodes[v, 1])
        slide = plan.goal(x, y, best - gv)
        if slide is not None and gv + slide[0] < best:
            best, best_at, best_end = gv + slide[0], v, slide[1]
        todo = np.flatnonzero(~done)
        if not todo.size:
            continue
        steps = np.hypot(nodes[todo, 0] - x, nodes[todo, 1] - y)
        better = gv + steps < g[todo] - 1e-12
        todo, steps = todo[better], steps[better]
        if not todo.size:
            continue
        lines = shapely.linestrings(
            np.stack([np.broadcast_to(nodes[v], (len(todo), 2)), nodes[todo]], axis=1)
        )
        seen = ~np.asarray(shapely.intersects(lines, plan.test), dtype=bool)
        for u, step in zip(todo[seen].tolist(), steps[seen].tolist(), strict=True):
            gu = gv + step
            g[u] = gu
            prev[u] = v
            heapq.heappush(heap, (gu + float(h[u]), gu, u))
    if best_at < 0:
        return None
    chain = [best_at]
    while prev[chain[-1]] >= 0:
        chain.append(int(prev[chain[-1]]))
    points = [(float(nodes[k, 0]), float(nodes[k, 1])) for k in reversed(chain)]
    points.append(best_end)
    return PursuitWay(tuple(points), best)


__all__ = ["GRAZE_CM", "PursuitWay", "edge_touch", "pursuit_way"]
