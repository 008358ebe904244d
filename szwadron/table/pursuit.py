"""6.7.4, 6.7.5, 3.1.3 — the way of a pursuing figure round what bars its straight way.

An uncontrolled pursuit "must reach the enemy ... or use its whole move to close on it" (6.7.4:
"muszą dojść do nieprzyjaciela by doprowadzić do walki wręcz lub wykorzystać w pełni ruch by się
do niego zbliżyć") and goes "najkrótszą drogą" (6.7.5), but a figure moves through no own figure
(3.1.3) and into no ground closed to it (3.2.4, 3.2.5). So where an own unit or closed ground
bars the straight way, the figure takes the shortest way round it into contact with the pursued
unit (PD-14: at least 1 cm of edge), and goes as far along that way as its rolled distance
allows. :func:`pursuit_way` finds that way. :func:`pursuit_plan` gives every figure's way (straight
or round) and how far it gets with the dice rolled (an enemy figure on the way still stops it there,
6.7.5): :mod:`szwadron.game.apply` makes the move with it, and the morale phase's odds
(:mod:`szwadron.table.morale_phase`) read the same ways — the chance to reach the enemy is the
chance of the 2d6 totals with which the move, its ranks closing up (3.1.3,
:meth:`PursuitPlan.close_up`), leaves the pursuer engaged with it (:meth:`PursuitPlan.reaches`),
the shortest way into contact of any figure is :meth:`PursuitPlan.into_contact_cm`, and the enemy
units on the way are :meth:`PursuitPlan.met`.

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
- Terrain (3.2, decisions, docs/decisions.md "Terrain on a pursuit's way"): the way is the
  shortest in cm ("najkrótszą drogą", 6.7.5), straight or round what bars it, and does not turn
  aside to spare costly ground (unlike a flight, 6.6.8); the terrain on it is costed as a flight's
  way is (:class:`~szwadron.geometry.paths.WayCost`: rough ground and woods 2 cm a cm, 4 cm to
  cross a fence, 4 cm into and out of a building, 6 cm up a hill), and the rolled distance takes
  the figure only as far as it pays for (:meth:`PursuitPlan.step`). A figure that would end
  astride the edge of rough ground, a wood or a hill it goes into stops before it (3.2.1, 3.2.2,
  :func:`~szwadron.geometry.paths.whole_base_stops`; from a hill's foot it goes up onto its edge),
  and on no fence; nor where its way into contact ends astride such an edge (it never gets in
  whole: it stops before it, whatever it rolls). The ranks closing up judge it along the way too
  (:meth:`PursuitPlan.settle_back`). The odds read the rolls the same way
  (:meth:`PursuitPlan.reaches`); :meth:`PursuitPlan.into_contact_cm` is the move the way into
  contact costs, with how much of it is surcharge. Where nothing on a
  figure's way costs more than its length, the way is measured in cm, as before.

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

import dataclasses
import heapq
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import shapely
import shapely.affinity

from szwadron.geometry.bases import base_corners, facing_vectors, polygons_from_corners
from szwadron.geometry.contact import contact_length_of
from szwadron.geometry.paths import COSTLY_KINDS, WHOLE_BASE_KINDS, WayCost, paid_length, whole_base_stops
from szwadron.geometry.terrain import TerrainShape, forbidden_rule, terrain_shapes
from szwadron.models import Scenario, TerrainKind, Unit
from szwadron.settings import DEFAULT_SETTINGS, RulesSettings
from szwadron.table.reach import CLEARANCE_CM, grown_by_base, into_contact, possible_slides

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


def edge_touch(
    base: shapely.Polygon,
    figures: Sequence[shapely.Geometry],
    tol: float,
    boxes: Sequence[Sequence[float]] | None = None,
) -> float:
    """PD-14 — how many cm of ``base``'s edge touch ``figures`` (within ``tol``), measured as the
    table measures contact (:func:`touch_lengths`); ``boxes``: their bounds, where known.

    >>> a = shapely.box(0.0, 0.0, 2.0, 2.0)
    >>> edge_touch(a, [shapely.box(1.0, 2.0, 3.0, 4.0)], 0.0)    # half the top edge
    1.0
    """
    return float(sum(touch_lengths(base, figures, tol, boxes)))


def touch_lengths(
    base: shapely.Polygon,
    figures: Sequence[shapely.Geometry],
    tol: float,
    boxes: Sequence[Sequence[float]] | None = None,
) -> list[float]:
    """PD-14, PD-3 — along how many cm ``base`` touches each of ``figures`` (bases: four corners
    each), within ``tol``: edge against facing edge
    (:func:`~szwadron.geometry.contact.contact_length`, the measure of ``szwadron check`` and
    ``melee``, so that a pursuit in contact is a melee's contact), 0 for a figure further than
    ``tol`` from it; ``boxes``: their bounds, where known.

    >>> a = shapely.box(0.0, 0.0, 2.0, 2.0)
    >>> touch_lengths(a, [shapely.box(1.0, 2.04, 3.0, 4.04), shapely.box(2.0, 0.0, 4.0, 2.0)], 0.05)
    [1.0, 2.0]
    """
    # a figure further than ``tol`` from the base's box touches none of its edge (adds 0)
    lo_x, lo_y, hi_x, hi_y = shapely.bounds(base).tolist()
    if boxes is None:
        boxes = shapely.bounds(np.asarray(figures, dtype=object)).tolist() if len(figures) else []
    near = [
        i
        for i, (ax0, ay0, ax1, ay1) in enumerate(boxes)
        if ax0 - tol - 1e-6 <= hi_x
        and lo_x <= ax1 + tol + 1e-6
        and ay0 - tol - 1e-6 <= hi_y
        and lo_y <= ay1 + tol + 1e-6
    ]
    out = [0.0] * len(figures)
    if near:  # none further than ``tol`` touches (contact_length is 0 there): measured only within it
        gaps = shapely.distance(base, np.asarray([figures[i] for i in near], dtype=object)).tolist()
        near = [i for i, gap in zip(near, gaps, strict=True) if gap <= tol]
    if near:
        mine = _ring(base)
        for i in near:
            out[i] = contact_length_of(mine, _ring(figures[i]), tol)
    return out


def _ring(poly: shapely.Geometry) -> list[tuple[float, float]]:
    """A base's four corners, clockwise (as :func:`~szwadron.geometry.bases.base_corners` gives
    them: :func:`~szwadron.geometry.contact.contact_length` pairs edges by their normals)."""
    c = [(float(x), float(y)) for x, y in shapely.get_coordinates(poly)[:-1].tolist()]
    twice_area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(c, c[1:] + c[:1], strict=True))
    return c[::-1] if twice_area > 0 else c


@dataclass
class _Memo:
    """What the searches of one pursuit (:func:`pursuit_plan`) share: by the base's outline, the
    corner it stands at and the pursued figure, the slide into contact (:meth:`_Plan.slide`) and
    the slides it may take (:meth:`_Plan.any_free`)."""

    slides: dict[tuple[object, ...], tuple[float, float, bool]] = field(default_factory=dict)
    moves: dict[tuple[object, ...], list[tuple[float, float]]] = field(default_factory=dict)
    grounds: dict[tuple[object, ...], _Ground] = field(default_factory=dict)
    unions: dict[tuple[object, ...], shapely.Geometry] = field(default_factory=dict)

    def union(self, key: tuple[object, ...], parts: Callable[[], list[shapely.Geometry]]) -> shapely.Geometry:
        """``shapely.union_all(parts())``, once per ``key`` (the pursued figures, as they are or
        grown by a base)."""
        if key not in self.unions:
            self.unions[key] = shapely.union_all(parts())
        return self.unions[key]


def _union(aims: Sequence[shapely.Geometry], memo: _Memo | None) -> shapely.Geometry:
    """The pursued unit's figures in one (``shapely.union_all``), once per pursuit."""
    if memo is None:
        return shapely.union_all(list(aims))
    return memo.union(("aims", tuple(id(a) for a in aims)), lambda: list(aims))


@dataclass
class _Ground:
    """What the searches among the same blockers share, whatever their start: the grown blockers
    (prepared), the table's limits for the centre, the corners a way may turn at, the pursued
    figures grown by the base, each corner's estimate (:func:`_search`), and what was found free
    (:meth:`_Plan.free`, :meth:`_Plan.any_free`) and seen from each corner."""

    region: shapely.Geometry
    box: tuple[float, float, float, float]
    corners: FloatArray
    grown: shapely.Geometry
    h: FloatArray | None = None
    free: dict[tuple[tuple[float, float], tuple[float, float]], bool] = field(default_factory=dict)
    open_: dict[tuple[float, float, int], bool] = field(default_factory=dict)
    seen: dict[int, npt.NDArray[np.bool_]] = field(default_factory=dict)
    clear: list[shapely.Geometry] | None = None
    meets: dict[int, bool] = field(default_factory=dict)


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
    memo: _Memo = field(default_factory=lambda: _Memo())
    ground: _Ground | None = None

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
        if self.ground is not None and (a, b) in self.ground.free:
            return self.ground.free[(a, b)]
        out = self.on_table(*b) and not shapely.intersects(shapely.LineString([a, b]), self.test)
        if self.ground is not None:
            self.ground.free[(a, b)] = out
        return out

    def slide(self, here: shapely.Polygon, x: float, y: float, i: int) -> tuple[float, float, bool]:
        """The shortest straight slide of the base ``here`` (its centre at (x, y)) into edge
        contact with the ``i``-th of :attr:`edged` (:func:`~szwadron.table.reach.into_contact`),
        and whether it ends in edge contact with the pursued unit (PD-14); kept in :attr:`memo`,
        which the searches of one pursuit share (the same base at the same corner slides alike)."""
        key = (self.offsets.tobytes(), x, y, id(self.edged[i]))
        got = self.memo.slides.get(key)
        if got is None:
            mx, my = (float(v) for v in into_contact(here, [self.edged[i]], self.contact_cm))
            touching = edge_touch(_moved(here, mx, my), self.aims, self.tol) >= self.least
            got = self.memo.slides[key] = (mx, my, touching)
        return got

    def any_free(self, here: shapely.Polygon, x: float, y: float, aims: Sequence[int]) -> set[int]:
        """Of the ``aims`` (indices in :attr:`edged`), those to which any of the slides
        :meth:`slide` may take (:func:`~szwadron.table.reach.possible_slides`) is free
        (:meth:`free`): to the others, the slide it takes is not. A cheap test before it, of
        all the aims at once."""
        known = self.ground.open_ if self.ground is not None else {}
        out = {i for i in aims if known.get((x, y, id(self.edged[i])), False)}
        aims = [i for i in aims if (x, y, id(self.edged[i])) not in known]
        owners: list[int] = []
        lines: list[tuple[tuple[float, float], tuple[float, float]]] = []
        for i in aims:
            key = (self.offsets.tobytes(), x, y, id(self.edged[i]))
            moves = self.memo.moves.get(key)
            if moves is None:
                moves = self.memo.moves[key] = possible_slides(here, [self.edged[i]], self.contact_cm)
            for mx, my in moves:
                end = (x + float(mx), y + float(my))
                if self.on_table(*end):
                    owners.append(i)
                    lines.append(((x, y), end))
        hit = shapely.intersects(shapely.linestrings(lines), self.test).tolist() if lines else []
        found = {i for i, h in zip(owners, hit, strict=True) if not h}
        for i in aims:
            known[(x, y, id(self.edged[i]))] = i in found
        return out | found

    def unreachable(self) -> bool:
        """Is every pose in contact with a pursued figure inside a blocker? A way ends where the
        base touches a pursued figure (within the contact tolerance: its centre within that of
        :attr:`grown`), by a free slide, which ends outside every grown blocker; where the grown
        blockers cover all those centres (a pursued unit in closed ground), there is no way."""
        return bool(shapely.covers(self.test, self._poses()))

    def cut_off(self, start: tuple[float, float], cap: float) -> bool:
        """Is there no way from ``start`` no longer than ``cap`` (:func:`_search`)? Every point of
        such a way is within ``cap`` of the start and of its end, a pose in contact with a pursued
        figure (within :attr:`grown` grown by the contact tolerance), and the way runs clear of the
        grown blockers: where, in that room (taken a little larger: a square, mitred corners,
        1e-3 cm more), the ground clear of them that holds the start holds no such pose (a river
        between), there is none. With no ``cap`` the room is the whole table (the centre's
        limits, which hold every way: its corners and ends are inside them), and its clear ground
        is worked out once for every search among the same blockers."""
        if not math.isfinite(cap):
            return self._cut_off_anywhere(start)
        r = cap + 1e-3
        poses = self._poses()
        (sx, sy), (lo_x, lo_y, hi_x, hi_y) = start, self.box
        square = shapely.box(max(sx - r, lo_x), max(sy - r, lo_y), min(sx + r, hi_x), min(sy + r, hi_y))
        room = shapely.intersection(square, shapely.buffer(poses, r, join_style="mitre"))
        parts = self._clear(room)
        k = _holding(parts, start)
        if k is None:
            return False  # the start outside that room (off the centre's limits): no conclusion
        return not shapely.intersects(parts[k], poses)

    def _poses(self) -> shapely.Geometry:
        """The centres of the poses in contact with a pursued figure (:attr:`grown` grown by the
        contact tolerance)."""
        return shapely.buffer(self.grown, self.tol + 1e-5, join_style="mitre")

    def _cut_off_anywhere(self, start: tuple[float, float]) -> bool:
        """:meth:`cut_off` with no cap: the room is the table's limits for the centre."""
        ground = self.ground
        if ground is None:
            return False
        if ground.clear is None:
            ground.clear = self._clear(shapely.box(*self.box))
        k = _holding(ground.clear, start)
        if k is None:
            return False  # the start off the centre's limits: no conclusion
        if k not in ground.meets:
            ground.meets[k] = bool(shapely.intersects(ground.clear[k], self._poses()))
        return not ground.meets[k]

    def _clear(self, room: shapely.Geometry) -> list[shapely.Geometry]:
        """The pieces of ``room`` clear of the grown blockers (taken 1e-6 cm larger, mitred, so
        that pieces meeting at a point are one)."""
        clear = shapely.buffer(shapely.difference(room, self.test), 1e-6, join_style="mitre")
        return list(shapely.get_parts(clear).tolist())

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
        gaps = shapely.distance(here, np.asarray(self.edged, dtype=object)).tolist()
        order = sorted(range(len(gaps)), key=gaps.__getitem__)  # stable, as numpy's argsort
        okey = self.offsets.tobytes()
        # the aims whose slide is not known yet, and which of them any slide may reach free
        unknown = [
            i for i in order if gaps[i] < within and (okey, x, y, id(self.edged[i])) not in self.memo.slides
        ]
        open_ = self.any_free(here, x, y, unknown) if unknown else set()
        for i in order:
            limit = within if best is None else min(within, best[0])
            if gaps[i] >= limit:
                break  # a slide is at least as long as the gap
            if i in unknown and i not in open_:
                continue  # no slide it could take is free: not the one it takes either
            mx, my, touching = self.slide(here, x, y, i)
            length = math.hypot(mx, my)
            end = (x + mx, y + my)
            if length >= limit or not touching or not self.free((x, y), end):
                continue
            best = (length, end)
        return best


def _holding(parts: Sequence[shapely.Geometry], start: tuple[float, float]) -> int | None:
    """The index of the first of ``parts`` that holds ``start``; None when none does."""
    here = shapely.Point(*start)
    return next((k for k, part in enumerate(parts) if shapely.intersects(part, here)), None)


_PIECES: dict[tuple[int, bytes], tuple[shapely.Geometry, list[shapely.Geometry]]] = {}


def _pieces(g: shapely.Geometry, offsets: FloatArray) -> list[shapely.Geometry]:
    """:func:`~szwadron.table.reach.grown_by_base`, once per figure or ground (the same object)
    and outline: the searches of a pursuit grow the same blockers by the same base."""
    key = (id(g), offsets.tobytes())
    got = _PIECES.get(key)
    if got is None or got[0] is not g:
        if len(_PIECES) >= 16384:
            _PIECES.clear()
        got = _PIECES[key] = (g, grown_by_base(g, offsets))
    return got[1]


@dataclass(frozen=True)
class _Query:
    """One search of :func:`pursuit_way`: the figure's centre ``start``, ``facing`` and ``size``
    (width, depth), the pursued bases ``aims``, the ``blockers`` searched among, the ``table``
    (width, depth), the ``settings``, the ``memo`` the searches of one pursuit share, and ``cap``
    (no way longer than that wanted)."""

    start: tuple[float, float]
    facing: float
    size: tuple[float, float]
    aims: Sequence[shapely.Geometry]
    blockers: Sequence[shapely.Geometry]
    table: tuple[float, float]
    settings: RulesSettings
    memo: _Memo | None = None
    cap: float = math.inf


def _plan(q: _Query) -> tuple[_Plan, FloatArray] | None:
    """The shapes of :func:`pursuit_way` and the corners of the grown blockers a way may turn
    at; None when the figure stands in a blocker deeper than the overlap tolerance (PD-3), or
    when there is no way (:meth:`_Plan.unreachable`), or none within ``cap`` (:meth:`_Plan.cut_off`)."""
    start, facing, aims, table, memo = q.start, q.facing, q.aims, q.table, q.memo
    w, d = q.size
    s = q.settings
    offsets = base_corners(0.0, 0.0, facing, w, d)
    graze = base_corners(0.0, 0.0, facing, max(w - 2 * GRAZE_CM, 1e-3), max(d - 2 * GRAZE_CM, 1e-3))
    shrink = s.overlap_tolerance_cm + s.distance_epsilon_cm - GRAZE_CM
    loose = base_corners(0.0, 0.0, facing, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3))
    whole = [*q.blockers, *aims]
    # the blockers it overlaps at the start (PD-3), grown by the base shrunk by the tolerance
    grazed = [_pieces(g, graze) for g in whole]
    flat = np.asarray([p for ps in grazed for p in ps], dtype=object)
    owner = np.repeat(np.arange(len(whole)), [len(ps) for ps in grazed])
    inside = (
        np.asarray(shapely.contains_xy(flat, *start), dtype=bool) if len(flat) else np.zeros(0, dtype=bool)
    )
    loosened = tuple(np.bincount(owner[inside], minlength=len(whole)).astype(bool).tolist())
    key = (offsets.tobytes(), tuple(id(g) for g in whole), loosened, table, id(s))
    ground = memo.grounds.get(key) if memo is not None else None
    if ground is None:
        ground = _ground(offsets, graze, loose, whole, loosened, table, s, aims, memo)
        if memo is not None:
            memo.grounds[key] = ground
    region, box = ground.region, ground.box
    if shapely.contains_xy(region, *start):
        return None
    least = s.min_contact_length_cm - s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    plan = _Plan(offsets, region, box, list(aims), [], ground.grown, s.min_contact_length_cm, least, tol)
    if memo is not None:
        plan.memo = memo
    plan.ground = ground
    if plan.unreachable() or plan.cut_off(start, q.cap):
        return None  # no way (within ``cap``): the search would find none
    here = shapely.Polygon(offsets + np.asarray(start))
    plan.edged = [  # PD-14: the figures whose edges its own edges can meet, facing kept
        a
        for a in aims
        if edge_touch(_moved(here, *into_contact(here, [a], s.min_contact_length_cm)), [a], tol) >= least
    ]
    return plan, ground.corners


def _ground(
    offsets: FloatArray,
    graze: FloatArray,
    loose: FloatArray,
    whole: Sequence[shapely.Geometry],
    loosened: Sequence[bool],
    table: tuple[float, float],
    s: RulesSettings,
    aims: Sequence[shapely.Geometry],
    memo: _Memo | None = None,
) -> _Ground:
    """:class:`_Ground` of :func:`_plan`: the blockers and pursued figures ``whole`` grown by the
    base (``offsets``; by ``graze`` to test ways against, by ``loose`` where ``loosened``)."""
    full = [p for g in whole for p in _pieces(g, offsets)]
    test = [p for g, lo in zip(whole, loosened, strict=True) for p in _pieces(g, loose if lo else graze)]
    region = shapely.union_all(test) if test else shapely.Polygon()
    shapely.prepare(region)
    ext_x, ext_y = float(np.abs(offsets[:, 0]).max()), float(np.abs(offsets[:, 1]).max())
    eps = s.distance_epsilon_cm
    box = (ext_x - eps, ext_y - eps, table[0] - ext_x + eps, table[1] - ext_y + eps)
    corners = shapely.get_coordinates(shapely.boundary(shapely.union_all(full))) if full else np.empty((0, 2))
    corners = np.unique(np.round(corners, 9), axis=0)
    keep = ~np.asarray(shapely.contains_xy(region, corners[:, 0], corners[:, 1]), dtype=bool)
    keep &= (corners[:, 0] >= box[0]) & (corners[:, 0] <= box[2])
    keep &= (corners[:, 1] >= box[1]) & (corners[:, 1] <= box[3])
    key = ("grown", offsets.tobytes(), tuple(id(a) for a in aims))

    def parts() -> list[shapely.Geometry]:
        return [p for a in aims for p in _pieces(a, offsets)]

    grown = memo.union(key, parts) if memo is not None else shapely.union_all(parts())
    return _Ground(region, box, corners[keep], grown)


def pursuit_way(
    start: tuple[float, float],
    facing: float,
    size: tuple[float, float],
    aims: Sequence[shapely.Geometry],
    blockers: Sequence[shapely.Geometry],
    table: tuple[float, float],
    settings: RulesSettings = DEFAULT_SETTINGS,
    within: float | None = None,
    memo: _Memo | None = None,
) -> PursuitWay | None:
    """6.7.4, 6.7.5, 3.1.3, PD-14 — the shortest way of a pursuing figure, facing kept, from
    ``start`` (its centre) into edge contact with one of ``aims`` (the pursued unit's bases),
    round ``blockers`` (other own units' bases, ground closed to it) and the pursued bases, its
    base (``size``: width, depth) on the ``table`` (width, depth) all the way. None when there
    is no such way (see the module docstring for how it is found), or, given ``within``, when
    it is found to be longer than that. ``memo``: the slides into contact from the corners, which
    the searches of one pursuit share (:func:`pursuit_plan`).

    Examples
    --------
    A straight way is its own shortest way:

    >>> from szwadron.geometry.bases import base_corners
    >>> aim = shapely.Polygon(base_corners(50.0, 50.0, 270.0, 2.0, 2.0))
    >>> pursuit_way((50.0, 30.0), 90.0, (2.0, 2.0), [aim], [], (100.0, 100.0)).points
    ((50.0, 30.0), (50.0, 48.0))
    """
    query = _Query(start, facing, size, aims, blockers, table, settings, memo)
    if len(blockers) <= 16:
        return _search(query)
    # Only the blockers a way no longer than ``bound`` can come near are searched among: every
    # point of such a way is within ``bound`` of the start and the pursued unit together, so a
    # blocker further than that (plus the base, twice over) cannot touch it; a way found no longer
    # than ``bound`` is then the shortest among all the blockers too. Else the bound is doubled.
    arr = np.asarray(blockers, dtype=object)
    here, target = shapely.Point(start), _union(aims, memo)
    far = np.asarray(shapely.distance(arr, here) + shapely.distance(arr, target), dtype=float)
    margin = 2.0 * math.hypot(*size)
    bound = 2.0 * float(shapely.distance(here, target)) + 20.0
    while True:
        keep = far <= bound + margin
        # the last round a caller's ``within`` allows wants a way no longer than ``bound`` only
        cap = bound if within is not None and bound >= within and not keep.all() else math.inf
        way = _search(dataclasses.replace(query, blockers=list(arr[keep]), cap=cap))
        if way is None or keep.all() or way.length <= bound:
            return way  # no way among fewer blockers: none among more
        if within is not None and bound >= within:
            return None  # longer than the caller asks about
        bound *= 2.0


# long: one A* over the visibility graph (corners shared by the searches among the same blockers), its goal test and its stops (past the cap, no way at all) in one loop; split, the loop's state would be passed round.
def _search(q: _Query) -> PursuitWay | None:
    """:func:`pursuit_way` among ``q.blockers``: the visibility graph, searched with A*. None, too,
    when the way is found to be longer than ``q.cap``: every way left is at least as long as a
    corner's estimate (less the 1e-6 cm :func:`~szwadron.table.reach.into_contact` measures
    within), so the search stops at the first corner estimated further."""
    start, facing, size, memo, cap = q.start, q.facing, q.size, q.memo, q.cap
    planned = _plan(q)
    if planned is None:
        return None
    plan, corners = planned
    nodes = np.vstack([np.asarray([start], dtype=float), corners])
    n = len(nodes)
    ground = plan.ground
    assert ground is not None
    # A*'s estimate: the gap to the pursued unit, which no slide into contact is shorter than
    target = _union(plan.aims, memo)
    if ground.h is None:
        polys = polygons_from_corners(base_corners(corners[:, 0], corners[:, 1], facing, *size)).reshape(-1)
        ground.h = np.asarray(shapely.distance(polys, target), dtype=float)
    here = polygons_from_corners(base_corners(nodes[:1, 0], nodes[:1, 1], facing, *size)).reshape(-1)
    h = np.concatenate([np.asarray(shapely.distance(here, target), dtype=float), ground.h])
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
        if f > cap + 1e-5:
            return None
        done[v] = True
        x, y = float(nodes[v, 0]), float(nodes[v, 1])
        # a slide that makes the way longer than ``cap`` (+ its margin) is no answer: left untried
        slide = plan.goal(x, y, min(best, cap + 1e-5) - gv)
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
        if v == 0:
            lines = shapely.linestrings(
                np.stack([np.broadcast_to(nodes[v], (len(todo), 2)), nodes[todo]], axis=1)
            )
            seen = ~np.asarray(shapely.intersects(lines, plan.test), dtype=bool)
        else:  # from a corner, what it sees among the corners is the same for every start
            if v not in ground.seen:
                lines = shapely.linestrings(
                    np.stack([np.broadcast_to(nodes[v], (n - 1, 2)), nodes[1:]], axis=1)
                )
                ground.seen[v] = ~np.asarray(shapely.intersects(lines, plan.test), dtype=bool)
            seen = ground.seen[v][todo - 1]
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


# --- the pursuit move, figure by figure: one reading for the applied move and the phase's odds ----


def along(
    points: Sequence[tuple[float, float]],
    distance: float,
    beyond: tuple[float, float] = (0.0, 0.0),
    costs: Sequence[float] = (),
) -> tuple[float, float]:
    """The point ``distance`` cm along the polyline ``points``; past its end, on along the unit
    vector ``beyond`` (a flight's last stretch to its edge, straight towards it).

    With ``costs`` (3.2: the flight distance spent on reaching each point, a surcharge paid at a
    point being that point twice), ``distance`` is flight distance: the figure gets as far as it
    pays for, and stops before a surcharge it cannot pay.

    >>> along([(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)], 5.0)
    (3.0, 2.0)
    >>> along([(0.0, 0.0), (3.0, 4.0)], 9.0, beyond=(0.0, 1.0))
    (3.0, 8.0)
    >>> along([(0.0, 0.0), (2.0, 0.0), (2.0, 0.0), (6.0, 0.0)], 5.0, costs=[0.0, 2.0, 6.0, 10.0])
    (2.0, 0.0)
    >>> along([(0.0, 0.0), (2.0, 0.0), (4.0, 0.0)], 4.0, costs=[0.0, 2.0, 6.0])
    (3.0, 0.0)
    """
    if costs:  # the length it pays for (paid_length), then as far along the way
        lengths = [0.0]
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
        distance = paid_length(lengths, costs, distance)
    left = distance
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg > 0 and left <= seg:
            return (x0 + (x1 - x0) * left / seg, y0 + (y1 - y0) * left / seg)
        left -= seg
    x, y = points[-1]
    return (x + beyond[0] * left, y + beyond[1] * left)


def furthest_free(most: float, free: Callable[[float], bool]) -> float:
    """How far along a way (at most ``most`` cm) a figure gets while ``free`` holds: ``most`` when
    it holds there, else the bisected boundary from where it stands (0 when nothing is free).

    >>> round(furthest_free(10.0, lambda d: d <= 4.0), 6)
    4.0
    """
    if free(most):
        return most
    return _bisect(most, free)


def _bisect(most: float, free: Callable[[float], bool]) -> float:
    """:func:`furthest_free` where ``free`` does not hold at ``most``."""
    lo, hi = 0.0, most
    for _i in range(30):
        mid = (lo + hi) / 2
        if free(mid):
            lo = mid
        else:
            hi = mid
    return lo


def _moved(poly: shapely.Polygon, dx: float, dy: float) -> shapely.Polygon:
    """``poly`` (a base: no holes) slid by (``dx``, ``dy``): its corners plus the move, the
    coordinates ``shapely.affinity.translate`` gives (but for the sign of a zero)."""
    return shapely.polygons(shapely.get_coordinates(poly) + np.asarray([dx, dy]))


def _base(unit: Unit, k: int, x: float, y: float) -> shapely.Polygon:
    """Base ``k`` of ``unit`` with its centre at (x, y), its facing kept."""
    return _outline(unit.bases[k].facing, *unit.base_size(k))(x, y)


_HALVES: dict[tuple[float, float, float], tuple[float, float, float, float]] = {}


def _outline(facing: float, w: float, d: float) -> Callable[[float, float], shapely.Polygon]:
    """A base of ``facing`` and size (``w``, ``d``) by its centre: the polygon of
    :func:`~szwadron.geometry.bases.base_corners`, the same corners computed the same way (the
    centre plus and minus the half depth along the facing and the half width across it), without
    its arrays."""
    key = (facing, w, d)
    if key not in _HALVES:
        forward, right = facing_vectors(facing)
        hf, hr = forward * (d / 2.0), right * (w / 2.0)
        _HALVES[key] = (float(hf[0]), float(hf[1]), float(hr[0]), float(hr[1]))
    fx, fy, rx, ry = _HALVES[key]

    def at(x: float, y: float) -> shapely.Polygon:
        x, y = float(x), float(y)
        return shapely.Polygon(
            [
                (x + fx - rx, y + fy - ry),
                (x + fx + rx, y + fy + ry),
                (x - fx + rx, y - fy + ry),
                (x - fx - rx, y - fy - ry),
            ]
        )

    return at


def _near_line(
    polys: Sequence[shapely.Geometry], points: Sequence[tuple[float, float]], unit: Unit, k: int
) -> list[shapely.Geometry]:
    """The polygons of ``polys`` that base ``k`` of ``unit`` can meet with its centre on the broken
    line ``points`` (within its diagonal of it: ample), in their order."""
    if not polys:
        return []
    line = shapely.LineString(points) if len(set(points)) > 1 else shapely.Point(points[0])
    arr, tree = _tree(polys)
    # the same test (dwithin), of the polygons whose boxes come that near only
    near = np.sort(tree.query(line, predicate="dwithin", distance=math.hypot(*unit.base_size(k))))
    return list(arr[near])


_TREES: dict[int, tuple[Sequence[shapely.Geometry], npt.NDArray[np.object_], shapely.STRtree]] = {}


def _tree(polys: Sequence[shapely.Geometry]) -> tuple[npt.NDArray[np.object_], shapely.STRtree]:
    """An STR-tree over ``polys`` (the same list object: a pursuit's lists of figures are made
    once and tested again and again)."""
    got = _TREES.get(id(polys))
    if got is None or got[0] is not polys:
        if len(_TREES) >= 64:
            _TREES.clear()
        arr = np.asarray(polys, dtype=object)
        got = _TREES[id(polys)] = (polys, arr, shapely.STRtree(arr))
    return got[1], got[2]


def straight_until_blocked(
    unit: Unit,
    k: int,
    heading: tuple[float, float],
    most: float,
    others: Sequence[shapely.Polygon],
    small: float,
) -> float:
    """3.1.3, 6.7.5 — how far base ``k`` slides along ``heading`` (at most ``most`` cm) before its
    swept area would overlap one of ``others`` (beyond ``small`` cm²): it stops touching the first."""
    return furthest_free(most, _straight_free(unit, k, heading, most, others, small))


def _straight_free(
    unit: Unit,
    k: int,
    heading: tuple[float, float],
    most: float,
    others: Sequence[shapely.Polygon],
    small: float,
) -> Callable[[float], bool]:
    """The test :func:`straight_until_blocked` bisects: is the slide that far clear? (The further,
    the larger the swept area: once blocked, blocked further on.)"""
    b = unit.bases[k]
    here = _base(unit, k, b.x, b.y)
    others = _near_line(others, [(b.x, b.y), (b.x + heading[0] * most, b.y + heading[1] * most)], unit, k)

    def free(step: float) -> bool:
        there = _base(unit, k, b.x + heading[0] * step, b.y + heading[1] * step)
        area = shapely.convex_hull(shapely.union(here, there))
        return not others or bool(np.all(shapely.area(shapely.intersection(area, near)) <= small))

    near = np.asarray(others, dtype=object)
    return free


def along_until_blocked(
    unit: Unit,
    k: int,
    points: Sequence[tuple[float, float]],
    most: float,
    others: Sequence[shapely.Polygon],
    small: float,
) -> float:
    """6.7.5 — how far base ``k`` slides along the broken line ``points`` (its centre's way,
    facing kept; at most ``most`` cm) before its swept area would overlap one of ``others``
    (beyond ``small`` cm²): it stops touching the first, as :func:`straight_until_blocked`."""
    size = unit.base_size(k)
    reach = math.hypot(*size)  # the base reaches half its diagonal from the centre's way: ample
    line = shapely.LineString(points)
    near: list[shapely.Geometry] = []
    if len(others):
        arr, tree = _tree(others)
        cand = np.sort(tree.query(line, predicate="dwithin", distance=reach + 1e-6))
        near = [o for o in arr[cand].tolist() if shapely.distance(o, line) <= reach]
    if not near:
        return most
    near_arr = np.asarray(near, dtype=object)
    stops = [0.0]  # cm along the way at each point
    for p, q in itertools.pairwise(points):
        stops.append(stops[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))

    def free(step: float) -> bool:
        legs = [
            points[0],
            *(points[i] for i in range(1, len(points)) if stops[i] < step),
            along(points, step),
        ]
        for p, q in itertools.pairwise(legs):
            area = shapely.convex_hull(shapely.union(_base(unit, k, *p), _base(unit, k, *q)))
            if bool(np.any(shapely.area(shapely.intersection(area, near_arr)) > small)):
                return False
        return True

    return furthest_free(most, free)


def into_contact_or_at(
    here: shapely.Polygon,
    aims: Sequence[shapely.Polygon],
    contact_cm: float,
    tol: float,
    least: float,
    small: float = 0.0,
) -> tuple[tuple[float, float], bool]:
    """6.7.1, PD-14, PD-3 — a pursuing figure's straight way: the shortest straight slide into edge
    contact with any figure of the pursued unit, as a charge's
    (:func:`~szwadron.table.reach.into_contact`), and True; when no slide gives one (a corner
    only), straight at the nearest figure's centre, and False.

    A pose on a pursued figure (overlapping it by more than ``small`` cm², PD-3) is no contact,
    though its outline runs inside that figure: where the charge's slide to one figure ends on
    another (bases turned to each other, the slide to the nearest figure's corner running onto
    its neighbour), the shortest slide into contact with each figure alone that ends on none is
    taken, else the straight way at the nearest figure."""

    boxes = shapely.bounds(np.asarray(aims, dtype=object)).tolist()
    arr = np.asarray(aims, dtype=object)

    def contact(move: tuple[float, float]) -> bool:
        moved = _moved(here, *move)
        if edge_touch(moved, aims, tol, boxes) < least:
            return False
        return bool(np.all(shapely.area(shapely.intersection(moved, arr)) <= small))

    dx, dy = into_contact(here, aims, contact_cm)
    if contact((dx, dy)):
        return (dx, dy), True
    alone = [into_contact(here, [a], contact_cm) for a in aims]
    good = sorted((math.hypot(*m), i) for i, m in enumerate(alone) if contact(m))
    if good:
        return alone[good[0][1]], True
    aim = min(aims, key=lambda a: (shapely.distance(here, a), a.centroid.x, a.centroid.y))
    c = here.centroid
    return (aim.centroid.x - c.x, aim.centroid.y - c.y), False


def touch_along(
    points: Sequence[tuple[float, float]],
    facing: float,
    size: tuple[float, float],
    others: Sequence[shapely.Geometry],
) -> float:
    """6.7.5 — how far a base (``facing``, ``size``: width, depth; facing kept) slides along
    its centre's way ``points`` before it first touches one of ``others``, exactly (the Minkowski
    sum, :func:`~szwadron.table.reach.grown_by_base`); ``inf`` when it never does. A way that
    only grazes a base (no deeper than :data:`GRAZE_CM`) does not meet it.

    >>> from szwadron.geometry.bases import base_corners
    >>> touch_along([(0.0, 0.0), (0.0, 20.0)], 90.0, (2.0, 2.0), [shapely.box(-1.0, 12.0, 1.0, 14.0)])
    11.0
    >>> touch_along([(0.0, 0.0), (0.0, 20.0)], 90.0, (2.0, 2.0), [shapely.box(1.0, 12.0, 3.0, 14.0)])
    inf
    """
    return min(_Touches(points, facing, size).at(others), default=math.inf)


_OUTLINES: dict[tuple[float, tuple[float, float]], tuple[FloatArray, FloatArray]] = {}


def _outlines(facing: float, size: tuple[float, float]) -> tuple[FloatArray, FloatArray]:
    """A base's corners round its centre, and those of the base shrunk by :data:`GRAZE_CM`."""
    if (facing, size) not in _OUTLINES:
        w, d = size
        _OUTLINES[(facing, size)] = (
            base_corners(0.0, 0.0, facing, w, d),
            base_corners(0.0, 0.0, facing, max(w - 2 * GRAZE_CM, 1e-3), max(d - 2 * GRAZE_CM, 1e-3)),
        )
    return _OUTLINES[(facing, size)]


_GROWN: dict[tuple[int, bytes], tuple[shapely.Geometry, shapely.Geometry]] = {}


def _grown(poly: shapely.Geometry, offsets: FloatArray) -> shapely.Geometry:
    """``poly`` grown by the base of outline ``offsets`` (:func:`~szwadron.table.reach.grown_by_base`,
    in one piece), computed once per figure (the same object) and outline."""
    key = (id(poly), offsets.tobytes())
    got = _GROWN.get(key)
    if got is None or got[0] is not poly:
        if len(_GROWN) >= 8192:
            _GROWN.clear()
        got = _GROWN[key] = (poly, shapely.union_all(grown_by_base(poly, offsets)))
    return got[1]


class _Touches:
    """:func:`touch_along`, figure by figure: where a base sliding along its centre's way
    ``points`` first touches each of some figures (``inf`` where it never does)."""

    def __init__(
        self, points: Sequence[tuple[float, float]], facing: float, size: tuple[float, float]
    ) -> None:
        self.offsets, self.graze = _outlines(facing, size)
        self.legs = [(p, q) for p, q in itertools.pairwise(points) if p != q]
        self.line = shapely.LineString([self.legs[0][0], *(q for _p, q in self.legs)]) if self.legs else None
        self.reach = float(np.hypot(self.offsets[:, 0], self.offsets[:, 1]).max())

    def at(self, others: Sequence[shapely.Geometry]) -> list[float]:
        """How far along the way the base first touches each of ``others``."""
        if self.line is None or not len(others):
            return [math.inf] * len(others)
        gaps = shapely.distance(np.asarray(others, dtype=object), self.line).tolist()
        return [
            math.inf if gap > self.reach else self.one(poly) for poly, gap in zip(others, gaps, strict=True)
        ]

    def one(self, poly: shapely.Geometry) -> float:
        """How far along the way the base first touches ``poly`` (within reach of the way)."""
        core, full = _grown(poly, self.graze), _grown(poly, self.offsets)
        run = 0.0
        for p, q in self.legs:
            leg = shapely.LineString([p, q])
            if shapely.intersects(leg, core):
                xy = shapely.get_coordinates(shapely.intersection(leg, full))
                if len(xy):
                    return run + float(np.hypot(xy[:, 0] - p[0], xy[:, 1] - p[1]).min())
                return math.inf
            run += math.hypot(q[0] - p[0], q[1] - p[1])
        return math.inf


def _barred(
    unit: Unit,
    k: int,
    heading: tuple[float, float],
    way: tuple[float, bool],
    aims: Sequence[shapely.Polygon],
    friends: Sequence[shapely.Polygon],
    foes: Sequence[shapely.Polygon],
    small: float,
) -> bool:
    """3.1.3, 3.2.4, 3.2.5, 6.7.5 — does an own unit or closed ground (``friends``) bar the
    straight way of figure ``k`` along ``heading`` to the pursued unit, before any enemy figure
    of another unit (``foes``) stands on it? ``way``: its length and whether it ends in edge
    contact; when not (a corner only), it ends where the figure touches a pursued figure. The
    rolled distance does not matter (6.7.5: "najkrótszą drogą" is the way to the enemy)."""
    length, contact = way
    full = length if contact else straight_until_blocked(unit, k, heading, length, aims, small)
    # met = straight_until_blocked(... friends), stop = straight_until_blocked(... foes): barred
    # when met < full and stop > met + 1e-9; each bisected only where the answer needs it
    friend_free = _straight_free(unit, k, heading, full, friends, small)
    if friend_free(full):
        return False  # met = full
    foe_free = _straight_free(unit, k, heading, full, foes, small)
    clear = foe_free(full)  # stop = full
    if clear and full - 1e-7 > 0 and not friend_free(full - 1e-7):
        return True  # blocked before full - 1e-7: the bisection stays below it
    met = _bisect(full, friend_free)
    return met < full and (full if clear else _bisect(full, foe_free)) > met + 1e-9


@dataclass(frozen=True)
class _Going:
    """3.2 on one figure's way (:meth:`PursuitPlan.going`): what the move pays to get along it
    (``cost``: :class:`~szwadron.geometry.paths.WayCost`, as a flight's way is costed) and where
    it may not stop (``stops``: :func:`~szwadron.geometry.paths.whole_base_stops`)."""

    cost: WayCost
    stops: tuple[tuple[float, float, bool], ...]

    def settle(self, length: float, back: bool = False) -> float:
        """3.2.1, 3.2.2 — where a figure that would stop ``length`` cm along its way stops: before
        the rough ground or hill it would stand astride going in ("musi się przed nim
        zatrzymać"), or up on the hill's edge from its foot. ``back``: a figure stopped short by
        its own ranks (3.1.3, :meth:`PursuitPlan.close_up`) does not go on up the hill: it stops
        before it too."""
        for _i in range(len(self.stops)):
            moved = [(b if up and not back else a) for a, b, up in self.stops if a + 1e-9 < length < b - 1e-9]
            if not moved:
                break
            length = moved[0]
        return length

    def roll_for(self, length: float) -> float:
        """The least move (cm, surcharges paid) that takes the figure ``length`` cm along its way:
        where it may not stop there, to where it may (into the wood or onto the hill whole; from a
        hill's foot, any move takes it up)."""
        for _i in range(len(self.stops)):
            moved = [(a if up else b) for a, b, up in self.stops if a + 1e-9 < length < b - 1e-9]
            if not moved:
                break
            length = moved[0]
        return self.cost.cost_at(length)


class Reach(NamedTuple):
    """6.7.4, 3.2 — a pursuit's way into contact (:meth:`PursuitPlan.into_contact_cm`): ``way``,
    the move its shortest way into contact costs (cm, with its terrain surcharges); ``least``,
    the least roll with which a figure is in contact (PD-3: a little less); ``terrain``, how much
    of ``way`` is terrain surcharge (3.2: 0 where the way is measured in cm)."""

    way: float
    least: float
    terrain: float = 0.0


@dataclass
class PursuitPlan:
    """6.7.4, 6.7.5, 3.1.3 — the ways of a pursuing unit's figures, whatever the dice: the move
    ``szwadron morale --apply`` makes (:mod:`szwadron.game.apply`) and the odds ``szwadron
    morale`` gives read the same ways (:func:`pursuit_plan`).

    Per figure (index in the unit): ``heading``, the unit vector of its straight way; ``need``,
    the length of its way into contact (the straight slide, or the way round), or, where its
    edges cannot meet a pursued figure's (a corner only), the distance to that figure's centre;
    ``contact``, whether its straight way ends in edge contact (PD-14); ``ways``, the ways round
    own units and closed ground (:func:`pursuit_way`), where taken. ``aims``: the pursued unit's
    bases; ``others``: every other unit's base and the closed ground; ``others_but_target``:
    without the pursued unit; ``foes``: the enemy's other units' bases, by unit; ``obstacles``: the crossable obstacles
    (fences, low walls, streams, 3.2.3), on which no figure ends (:meth:`step`); ``costly``: the
    terrain open to the unit's kind that costs a move more than its length (3.2: rough ground,
    woods, obstacles, buildings and fortifications, hills), counted on each figure's way
    (:meth:`going`) by the ``settings``."""

    unit: Unit
    aims: list[shapely.Polygon]
    heading: dict[int, tuple[float, float]]
    need: dict[int, float]
    contact: dict[int, bool]
    ways: dict[int, PursuitWay]
    others: list[shapely.Geometry]
    others_but_target: list[shapely.Geometry]
    foes: dict[str, list[shapely.Polygon]]
    small: float
    tol: float
    least: float
    obstacles: list[TerrainShape] = field(default_factory=list)
    gaps: dict[int, float] = field(default_factory=dict)
    """Each figure's edge-to-edge gap to the pursued unit where it stands (a bound on its ways)."""
    costly: list[TerrainShape] = field(default_factory=list)
    settings: RulesSettings = DEFAULT_SETTINGS
    most: float | None = None
    """The longest roll, for the odds (:func:`pursuit_plan`)."""
    _stops: dict[int, float] = field(default_factory=dict)
    _index: _Index | None = None
    _boxes: list[list[float]] | None = None
    _goings: dict[int, _Going | None] = field(default_factory=dict)
    _surcharge: dict[int, float] = field(default_factory=dict)
    _into: dict[int, float] = field(default_factory=dict)
    _free: dict[int, Callable[[float], bool]] = field(default_factory=dict)
    _blocked: dict[int, float] = field(default_factory=dict)
    _span: dict[int, list[float]] = field(default_factory=dict)
    _free_into: dict[int, Callable[[float], bool]] = field(default_factory=dict)
    _nears: dict[int, float] = field(default_factory=dict)
    _grown: list[shapely.Geometry] | None = None
    _reached: dict[tuple[float, ...], bool] = field(default_factory=dict)

    @property
    def foe_bases(self) -> list[shapely.Polygon]:
        """The bases of every enemy unit but the pursued one (6.7.5: not gone round)."""
        return [p for ps in self.foes.values() for p in ps]

    def step(self, k: int, dist: float) -> float:
        """6.7.4, 6.7.5, 3.2.3 — how far figure ``k`` gets along its way with ``dist`` cm rolled:
        the way round as far as ``dist`` allows, stopped by an enemy figure on it; else straight
        into its contact when ``dist`` reaches it (the pursued unit's own bases do not stop it
        short at a corner on the way: 6.7.4), else its whole ``dist`` straight, short of touching
        anything. Where that would end on a crossable obstacle it stops before it, touching it
        (:meth:`off_obstacles`).

        3.2: where terrain on its way costs more than its length (:meth:`going`), ``dist`` takes
        it only as far as it pays for, surcharges counted as a flight's (it stops before a
        surcharge it cannot pay: short of a fence, a hill's crest, a building), and it ends
        astride the edge of no rough ground, wood or hill it goes into: it stops before it
        (3.2.1, 3.2.2; from a hill's foot, it goes up onto its edge)."""
        going = self.going(k)
        if going is None:
            return self.off_obstacles(k, self._step(k, dist))
        return self.off_obstacles(k, going.settle(self._step(k, going.cost.paid(dist))))

    def going(self, k: int) -> _Going | None:
        """3.2 — the terrain on figure ``k``'s way (:meth:`points`; facing kept) that costs its
        move more than its length, or that it goes into with its whole base or not at all (rough
        ground, woods, hills): None where there is none (the way is measured in cm)."""
        if not self.costly:
            return None
        if k not in self._goings:
            got: _Going | None = None
            b = self.unit.bases[k]
            facing, size = b.facing, self.unit.base_size(k)
            reach = math.hypot(*size) / 2.0 + self.tol

            # first near the straight line as long as the whole way (no shorter than the way's
            # straight part: :meth:`limit` is not measured for nothing), then near the way itself
            def near(pts: Sequence[tuple[float, float]], among: list[TerrainShape]) -> list[TerrainShape]:
                line = shapely.LineString(pts) if len(set(pts)) > 1 else shapely.Point(pts[0])
                return [t for t in among if shapely.dwithin(t.polygon, line, reach)]

            bound = self.ways[k].points if k in self.ways else ((b.x, b.y), self.at(k, self.need[k]))
            costly = near(bound, self.costly)
            pts = self.points(k) if costly else bound
            costly = near(pts, costly) if costly else costly
            if costly:
                cost = WayCost.of(pts, facing, size, costly, self.settings)
                areas = [t for t in costly if t.kind in WHOLE_BASE_KINDS]
                stops = whole_base_stops(pts, facing, size, areas, self.settings)
                if stops or not cost.free:
                    got = _Going(cost, stops)
            self._goings[k] = got
        return self._goings[k]

    def _roll(self, k: int, length: float) -> float:
        """The least roll that takes figure ``k`` ``length`` cm along its way (3.2: ``length``
        where its way costs no more than its length)."""
        going = self.going(k)
        return length if going is None else going.roll_for(length)

    def _at_foot(self, k: int) -> bool:
        """3.2.1 — does figure ``k`` stand at a hill's foot (touching it)? Any roll may then take
        it up onto the hill's edge: its way's length is no bound on the roll that reaches."""
        hills = [t.polygon for t in self.costly if t.kind is TerrainKind.HILL]
        if not hills:
            return False
        b = self.unit.bases[k]
        here = _base(self.unit, k, b.x, b.y)
        return bool(np.any(shapely.distance(here, np.asarray(hills, dtype=object)) <= self.tol))

    def on_obstacle(self, k: int, point: tuple[float, float]) -> bool:
        """3.2.3 — does figure ``k`` with its centre at ``point`` stand on a crossable obstacle
        (deeper than the PD-3 overlap tolerance)?"""
        here = _base(self.unit, k, *point)
        return any(shapely.intersection(here, o.polygon).area > self.small for o in self.obstacles)

    def off_obstacles(self, k: int, step: float) -> float:
        """3.2.3, 6.5.2 — a figure ends on no fence, low wall or stream: where ``step`` cm along
        its way would leave it on one, it stops before it, as far along as leaves it off (touching
        it). The rules let only a repulsed unit end on one (6.5.2: "Oddział może omijać przeszkody
        oraz inne oddziały, jak również wejść na przeszkodę terenową"); a pursuit crosses one only
        when its roll takes the whole base over (the crossing's 4 cm paid, 3.2.3: :meth:`step`).
        A figure already standing on one at the start is left as the move takes it."""
        if not self.obstacles or not self.on_obstacle(k, self.at(k, step)):
            return step
        if self.on_obstacle(k, self.at(k, 0.0)):
            return step
        return furthest_free(step, lambda d: not self.on_obstacle(k, self.at(k, d)))

    def across(self, k: int, point: tuple[float, float]) -> float:
        """PD-4, 1.3.5, 5.7 — how many cm of figure ``k``'s edge (centre at ``point``) touch the
        pursued unit across a crossable obstacle: a pursued figure beyond the contact tolerance,
        both within it of one obstacle and no further apart than its width plus the tolerance, is
        in contact across it (its length measured with the obstacle's width added to the
        tolerance, as :meth:`~szwadron.geometry.battlefield.Battlefield.contact_lengths` does)."""
        return float(sum(self._across_each(k, point)))

    def _across_each(self, k: int, point: tuple[float, float]) -> list[float]:
        """:meth:`across`, per pursued figure."""
        out = [0.0] * len(self.aims)
        if not self.obstacles:
            return out
        here = _base(self.unit, k, *point)
        mine = _ring(here)
        for i, aim in enumerate(self.aims):
            gap = float(shapely.distance(here, aim))
            if gap <= self.tol:
                continue  # touching directly: touch_lengths counts it
            widths = [
                o.width
                for o in self.obstacles
                if shapely.distance(here, o.polygon) <= self.tol
                and shapely.distance(aim, o.polygon) <= self.tol
                and gap <= o.width + self.tol
            ]
            if widths:
                out[i] = contact_length_of(mine, _ring(aim), self.tol + max(widths))
        return out

    def contact_cm(self, k: int, point: tuple[float, float]) -> float:
        """PD-14, PD-4 — how many cm of figure ``k``'s edge (centre at ``point``) touch the
        pursued unit: directly (:func:`touch_lengths`), or across a crossable obstacle
        (:meth:`across`)."""
        return float(sum(self.touches(k, point)))

    def touches(self, k: int, point: tuple[float, float]) -> list[float]:
        """:meth:`contact_cm`, per pursued figure (of :attr:`aims`)."""
        if self._boxes is None:
            self._boxes = shapely.bounds(np.asarray(self.aims, dtype=object)).tolist()
        direct = touch_lengths(_base(self.unit, k, *point), self.aims, self.tol, self._boxes)
        return [a + b for a, b in zip(direct, self._across_each(k, point), strict=True)]

    def _step(self, k: int, dist: float) -> float:
        """:meth:`step` before the obstacles."""
        if k in self.ways:  # round the own unit or closed ground (3.1.3, 6.7.4)
            way = self.ways[k]
            return along_until_blocked(
                self.unit, k, way.points, min(dist, way.length), self.foe_bases, self.small
            )
        norm = self.need[k]
        if self.contact[k] and norm <= dist + 1e-9:  # it reaches its contact, and stops there
            if k not in self._into:  # the same whatever it rolls
                self._into[k] = straight_until_blocked(
                    self.unit, k, self.heading[k], norm, self.others_but_target, self.small
                )
            return self._into[k]
        # short of it: as far as it rolled, or where it first meets another unit's figure or
        # closed ground (the pursued unit's too) — the same place whatever it rolls, so found
        # once, along its whole way (the slide's swept area only grows: once blocked, blocked)
        free, span = self._slide(k)
        if dist <= span[0]:
            return dist
        if dist < span[1]:
            if free(dist):
                span[0] = dist
                return dist
            span[1] = dist
        if k not in self._blocked:
            self._blocked[k] = _bisect(norm, free)
        return min(dist, self._blocked[k])

    def settle_back(self, k: int, step: float) -> float:
        """3.2.1, 3.2.2, 3.2.3 — where figure ``k``, stopped ``step`` cm along its way short of
        where its roll takes it (the ranks closing up, :meth:`close_up`), stands: before the rough
        ground, wood or hill it would stand astride going in, judged along its way as
        :meth:`step` judges the roll's end (:func:`~szwadron.geometry.paths.whole_base_stops`:
        not against where it started), and on no fence (:meth:`off_obstacles`)."""
        going = self.going(k)
        return self.off_obstacles(k, step if going is None else going.settle(step, back=True))

    def close_up(self, dist: float) -> list[tuple[int, tuple[float, float]]]:
        """3.1.3, 6.7.4 — where each figure ends with ``dist`` cm rolled: ``(figure, centre)``, in
        figure order. The figures move one after another, the nearest the enemy first
        (:meth:`order`), each as far as :meth:`step` takes it; but none ends on another of its
        unit, placed or still to move ("Figurki nie mogą się poruszać przez inne własne figurki,
        nawet jeśli należą do tego samego oddziału"): one that would stops short, as far along its
        way as leaves it clear, and there before rough ground, a wood or a hill it would stand
        astride going in and off a fence (:meth:`settle_back`). The applied move
        (:mod:`szwadron.game.apply`) and the odds (:meth:`reaches`) both read it."""
        return sorted(self._closing({k: self.step(k, dist) for k in self.order()}))

    def reaches(self, dist: float) -> bool:
        """6.7.1, 6.7.4, PD-14 — does the pursuit reach its enemy with ``dist`` cm rolled: do the
        figures, where they end as the move leaves them (:meth:`close_up`: the ranks closing up),
        engage the pursued unit (:meth:`touching`)? The odds ask it of every 2d6 total.

        Measured only as far as the answer needs (the same answer): no figure ends further along
        its way than ``dist`` cm (but one going up a hill from its foot), nor further than
        :meth:`step` takes it alone, so where every figure stands further than that from the
        pursued unit (across the widest obstacle, PD-4), or stops alone short of where its way
        first comes near it (:meth:`_short`), it does not reach it and nothing is moved; and the
        figures end where the same steps leave them, so rolls with the same steps (stopped by
        the same figure or ground, or all in contact) are closed up once."""
        if all(dist < bound for bound in self._bounds().values()):
            return False
        if all(self._short(k, dist) for k in self.order()):
            return False  # closing up only shortens a figure's move: none comes near enough
        steps = {k: self.step(k, dist) for k in self.order()}
        key = tuple(steps.values())
        if key not in self._reached:
            self._reached[key] = self.touching(self._closing(steps))
        return self._reached[key]

    def touching(self, ends: Iterable[tuple[int, tuple[float, float]]]) -> bool:
        """5.1.2, PD-14, PD-4 — do figures ending at ``ends`` (:meth:`close_up`) engage the pursued
        unit, as ``szwadron check`` reads the table (:func:`~szwadron.table.audit.engaged_unit_pairs`):
        a figure touching its figures along at least 1 cm of edge in all, or one of its figures
        touched so by the pursuers (across a fence too)? ``ends`` are read only as far as needed
        (more figures only add to the lengths)."""
        need = self.settings.engaged_contact_length_cm - self.settings.distance_epsilon_cm
        theirs = [0.0] * len(self.aims)
        for k, point in ends:
            lengths = self.touches(k, point)
            theirs = [a + b for a, b in zip(theirs, lengths, strict=True)]
            if sum(lengths) >= need or max(theirs, default=0.0) >= need:
                return True
        return False

    @property
    def _widest(self) -> float:
        """The widest obstacle's width: contact reaches across one no wider (PD-4)."""
        return max((o.width for o in self.obstacles), default=0.0)

    def _bounds(self) -> dict[int, float]:
        """Per figure, a roll it needs at least to touch the pursued unit: its edge-to-edge gap
        less the contact tolerance and the widest obstacle's width (PD-3, PD-4); none at a hill's
        foot (3.2.1: any roll may take it up onto the hill's edge)."""
        return {
            k: -math.inf if self._at_foot(k) else self._gap(k) - self.tol - self._widest - 1e-6
            for k in range(len(self.unit.bases))
        }

    def _near(self, k: int) -> float:
        """How far along its way (:meth:`points`) figure ``k`` goes before it first comes within
        the contact tolerance of the pursued unit, across the widest obstacle (PD-3, PD-4): no
        further, and measured with room to spare (the pursued figures grown square by a little
        more, :data:`GRAZE_CM` too), so that a figure stopped short of it touches none."""
        if k not in self._nears:
            grow = self.tol + self._widest + GRAZE_CM + 1e-6
            if self._gap(k) <= grow:  # near it where it stands
                self._nears[k] = -math.inf
                return self._nears[k]
            if self._grown is None:  # the same for every figure
                self._grown = list(
                    shapely.buffer(np.asarray(self.aims, dtype=object), grow, join_style="mitre")
                )
            grown = self._grown
            b = self.unit.bases[k]
            line = (
                self.ways[k].points if k in self.ways else ((b.x, b.y), self.at(k, max(self.need[k], 1e-6)))
            )
            self._nears[k] = touch_along(line, b.facing, self.unit.base_size(k), grown) - 1e-6
        return self._nears[k]

    def _short(self, k: int, dist: float) -> bool:
        """Does figure ``k``'s move with ``dist`` cm rolled (:meth:`step`) stop short of where it
        first comes near the pursued unit (:meth:`_near`)? Measured only as far as that needs:
        the move is no longer than the roll, but up a hill from its foot (3.2.1); a slide short of
        its contact, once blocked, stays blocked further on."""
        near = self._near(k)
        if near <= 0.0:
            return False  # near it where it stands
        if self.going(k) is not None:
            return self.step(k, dist) < near
        if dist < near:
            return True
        if k in self.ways:
            return self._step(k, dist) < near
        if self.contact[k] and self.need[k] <= dist + 1e-9:  # into its contact, unless blocked
            if k in self._into:
                return self._into[k] < near
            into = self._free_into.get(k)
            if into is None:
                into = self._free_into[k] = _straight_free(
                    self.unit, k, self.heading[k], self.need[k], self.others_but_target, self.small
                )
            return not into(near)
        free, span = self._slide(k)
        if span[0] < near < span[1]:
            span[0 if free(near) else 1] = near
        return span[1] <= near

    def _slide(self, k: int) -> tuple[Callable[[float], bool], list[float]]:
        """Figure ``k``'s straight slide short of its contact: is it clear that far
        (:func:`_straight_free`), and how far it is known clear and from where known blocked."""
        if k not in self._free:
            norm = self.need[k]
            free = self._free[k] = _straight_free(
                self.unit, k, self.heading[k], norm, self.others, self.small
            )
            self._span[k] = [0.0, math.inf]  # free as far as the first, blocked from the second
            if self.most is not None:  # the odds ask every roll: the longest first
                self._span[k][0 if free(min(self.most, norm)) else 1] = min(self.most, norm)
        return self._free[k], self._span[k]

    def _closing(self, steps: dict[int, float]) -> Iterator[tuple[int, tuple[float, float]]]:
        """:meth:`close_up`, figure by figure in the order they move (``steps``: how far each
        would go alone, :meth:`step`, in that order)."""
        order = list(steps)
        starts = {k: _base(self.unit, k, b.x, b.y) for k, b in enumerate(self.unit.bases)}
        placed: list[shapely.Polygon] = []
        for n, k in enumerate(order):
            near = np.asarray(placed + [starts[j] for j in order[n + 1 :]], dtype=object)

            def free(d: float, k: int = k, near: npt.NDArray[np.object_] = near) -> bool:
                if near.size == 0:
                    return True
                here = _base(self.unit, k, *self.at(k, d))
                return bool(np.all(shapely.area(shapely.intersection(here, near)) <= self.small))

            step = steps[k]
            for _i in range(8):  # stopped short, then back before what it may not stand astride
                if free(step):
                    break
                step = self.settle_back(k, _bisect(step, free))
            else:
                step = 0.0
            point = self.at(k, step)
            placed.append(_base(self.unit, k, *point))
            yield k, point

    def order(self) -> list[int]:
        """3.1.3 — the order the figures move in: the nearest to the enemy (along its way) first."""
        return sorted(self.need, key=lambda k: (self.need[k], k))

    def at(self, k: int, step: float) -> tuple[float, float]:
        """The centre of figure ``k`` ``step`` cm along its way."""
        if k in self.ways:  # its end exactly at the end of the way (no rounding error)
            way = self.ways[k]
            return way.points[-1] if step >= way.length - 1e-9 else along(way.points, step)
        b = self.unit.bases[k]
        ux, uy = self.heading[k]
        return (b.x + ux * step, b.y + uy * step)

    def points(self, k: int) -> tuple[tuple[float, float], ...]:
        """Figure ``k``'s centre's way to the pursued unit, whatever the dice: the way round, or
        the straight line into its contact (a corner only: until it touches a pursued figure)."""
        if k in self.ways:
            return self.ways[k].points
        b = self.unit.bases[k]
        return ((b.x, b.y), self.at(k, self.limit(k)))

    def limit(self, k: int) -> float:
        """How long figure ``k``'s way to the pursued unit is: :attr:`need`, or, a corner only,
        how far it goes straight until it touches a pursued figure."""
        if k in self.ways or self.contact[k]:
            return self.need[k]
        if k not in self._stops:
            b = self.unit.bases[k]
            line = ((b.x, b.y), self.at(k, self.need[k]))
            self._stops[k] = min(self.need[k], touch_along(line, b.facing, self.unit.base_size(k), self.aims))
        return self._stops[k]

    def reach_cm(self, k: int) -> tuple[float, float] | None:
        """6.7.4, PD-14, PD-4, PD-3 — where along its way figure ``k`` comes into edge contact with
        the pursued unit: ``(way, from)``. ``way`` is its way's length (:attr:`need`) when the way
        ends in edge contact and nothing else stops it first; or, where it stops before a crossable
        obstacle (:meth:`off_obstacles`) in contact with a pursued figure across it (PD-4), how far
        it goes until its base touches the obstacle. ``from`` is the least roll that leaves it in
        contact as the move measures it (:meth:`contact_cm`: within the PD-3 contact tolerance, so
        a little short of ``way``). None when it never comes into contact."""
        return self._reach(k, math.inf, -math.inf)

    def _reach(
        self, k: int, known: float, floor: float, rolls: Sequence[float] | None = None
    ) -> tuple[float, float] | None:
        """:meth:`reach_cm`, where a ``from`` no less than ``known`` need not be exact: when the
        least roll in contact cannot be less than ``known`` (it is no more than 1 cm short of the
        way, :meth:`_first_contact`, and no less than ``floor``), the way's length stands for it."""
        need = self.need[k]
        going = self.going(k)
        if going is not None:
            return self._reach_over(k, going, known, floor, rolls)
        if not self.obstacles and k not in self.ways:  # as below, the straight way's parts only
            if not self.contact[k]:
                return None  # a corner only
            free = _straight_free(self.unit, k, self.heading[k], need, self.others_but_target, self.small)
            if not free(need):  # stopped by another unit: short of its contact (by more than 1e-9)?
                if need - 1e-7 >= 0 and not free(need - 1e-7):
                    return None
                if _bisect(need, free) < need - 1e-9:
                    return None
            if max(0.0, need - 1.0, floor) >= known:
                return need, need
            return need, self._first_contact(k, need, known, rolls)
        got = self.step(k, need)
        if got >= need - 1e-9:
            if not self._ends_in_contact(k):
                return None
            if max(0.0, need - 1.0, floor) >= known:
                return need, need
            return need, self._first_contact(k, need, known, rolls)
        return self._across(k, got)

    def _reach_over(
        self, k: int, going: _Going, known: float, floor: float, rolls: Sequence[float] | None
    ) -> tuple[float, float] | None:
        """3.2 — :meth:`_reach` of a figure whose way costs more than its length, or goes into
        rough ground or a hill (:meth:`going`): the same way and contact, each measured as the
        roll that takes it there (:meth:`_Going.roll_for`); the way's surcharge kept for
        :meth:`into_contact_cm`."""
        need = self.need[k]
        full = going.roll_for(need)
        got = self.step(k, full)
        if got >= need - 1e-9:
            if not self._ends_in_contact(k):
                return None
            self._surcharge[k] = full - need
            if max(going.roll_for(max(0.0, need - 1.0)), floor) >= known:
                return full, full
            return full, self._first_contact(k, need, known, rolls, going)
        hit = self._across(k, got)
        if hit is None:
            return None
        way, cm = hit
        self._surcharge[k] = going.roll_for(way) - way
        return going.roll_for(way), going.roll_for(cm)

    def _ends_in_contact(self, k: int) -> bool:
        """PD-14 — does figure ``k``'s way end in edge contact with the pursued unit (not at a
        corner only: a way round ends touching, :func:`pursuit_way`)?"""
        if k in self.ways:
            end = _base(self.unit, k, *self.ways[k].points[-1])
            return not edge_touch(end, self.aims, self.tol) < self.least
        return self.contact[k]

    def _across(self, k: int, got: float) -> tuple[float, float] | None:
        """PD-4, 3.2.3 — figure ``k``, which gets ``got`` cm along its way and no further (short of
        its contact): is it in contact with the pursued unit across an obstacle, and from where?
        ``(way, from)``, cm along its way; None when not."""
        if not self.obstacles:
            return None
        # where it first comes within the contact tolerance of an obstacle, on its way: from
        # there on, a roll that stops it short of the obstacle leaves it in contact across it
        near = [shapely.buffer(o.polygon, 0.999 * self.tol, join_style="mitre") for o in self.obstacles]
        fs = (self.unit.bases[k].facing, self.unit.base_size(k))
        first = touch_along(self.points(k), *fs, near)
        for cm in (first, got):
            if cm <= got and self.across(k, self.at(k, cm)) >= self.least:
                way = min(got, touch_along(self.points(k), *fs, [o.polygon for o in self.obstacles]))
                return max(way, cm), cm
        return None

    def _first_contact(
        self,
        k: int,
        need: float,
        known: float = math.inf,
        rolls: Sequence[float] | None = None,
        going: _Going | None = None,
    ) -> float:
        """PD-3, PD-14 — the least roll that leaves figure ``k`` in contact (:meth:`contact_cm`)
        on its way into contact ``need`` cm long, which nothing else stops: bisected (the contact,
        once made, holds to the way's end). Where it is found to be no less than ``known``, the
        bisection stops there (with a roll no less than ``known``); given ``rolls``, where no
        roll lies between its bounds (the roll found is then at most each roll exactly when the
        least roll is: :meth:`into_contact_cm`). ``going``: the terrain on its way (3.2), where
        the rolls are the moves that take it that far (:meth:`step`)."""

        def place(d: float) -> float:
            return self.off_obstacles(k, d if going is None else going.settle(going.cost.paid(d)))

        def reached(d: float) -> bool:
            return self.contact_cm(k, self.at(k, place(d))) >= self.least

        lo, hi = max(0.0, need - 1.0), need
        if going is not None:
            lo, hi = going.roll_for(lo), going.roll_for(hi)
        if reached(lo):
            return lo
        for _i in range(40):
            if lo >= known:
                break
            if rolls is not None and not any(lo < r <= hi for r in rolls):
                break
            mid = (lo + hi) / 2
            if reached(mid):
                hi = mid
            else:
                lo = mid
        return hi

    def into_contact_cm(self, rolls: Sequence[float] | None = None) -> Reach | None:
        """6.7.1, 6.7.4, PD-14 — the shortest way into edge contact of any figure of the unit (cm,
        as the move measures it: the straight slide into contact, or the way round; before a
        fence, until it touches it, in contact across it), of the figures whose way nothing else
        stops first, and the least roll with which any figure is in contact (PD-3: within the
        contact tolerance, a little less); None when no figure has one. The pursuit reaches its
        enemy when the rolled 2d6 × 2 or × 4 cm is at least the second.

        3.2: both are the moves that take a figure there (:meth:`step`), its way's terrain
        surcharges paid (and into rough ground or onto a hill with its whole base); the
        :class:`Reach`'s third, how much of the first is surcharge.

        ``rolls``: where only which of these distances are at least the least roll matters (the
        odds), the least roll is measured only as far as that: the second is then a distance
        that each of ``rolls`` is at least exactly when it is at least the least roll."""
        # A figure in contact with a pursued figure (within the contact tolerance, or across an
        # obstacle no wider than the widest) has come at least its gap less those along its way,
        # and neither of its two lengths is shorter: the figures are measured nearest first, until
        # none left can be shorter than the shortest way found.
        # (Surcharges only add to the move; but from a hill's foot any move may take it up, 3.2.1.)
        bound = self._bounds()
        best: tuple[float, float] | None = None
        terrain = 0.0
        for k in sorted(bound, key=lambda k: (bound[k], k)):
            if best is not None and bound[k] >= best[0]:
                break
            wf = self._reach(k, math.inf if best is None else best[1], bound[k], rolls)
            if wf is not None:
                if best is None or wf[0] < best[0]:
                    terrain = self._surcharge.get(k, 0.0)
                best = wf if best is None else (min(best[0], wf[0]), min(best[1], wf[1]))
        return None if best is None else Reach(best[0], best[1], terrain)

    def _gap(self, k: int) -> float:
        """Figure ``k``'s edge-to-edge gap to the pursued unit where it stands."""
        if k not in self.gaps:
            b = self.unit.bases[k]
            self.gaps[k] = float(
                shapely.distance(_base(self.unit, k, b.x, b.y), shapely.union_all(self.aims))
            )
        return self.gaps[k]

    def met(self) -> dict[str, tuple[float, set[int]]]:
        """6.7.5, 6.7.6 — the enemy units (not the pursued one) a figure meets on its way before
        its contact, and before anything else stops it: by unit, the least roll with which a
        figure gets as far along its way as it touches it (exact, :func:`touch_along`; 3.2, its
        terrain surcharges paid: :meth:`step`), and the figures that do."""
        out: dict[str, tuple[float, set[int]]] = {}
        index = self._index
        for k in range(len(self.unit.bases)):
            fs = (self.unit.bases[k].facing, self.unit.base_size(k))
            line = self.points(k)
            limit = self.limit(k)
            # what stops it first: an enemy on a way round (own units and closed ground are gone
            # round); on a straight way, any other unit or closed ground
            stoppers = self.foe_bases if k in self.ways else self.others_but_target
            if index is None:
                stop = min(limit, touch_along(line, *fs, stoppers))
                foes = {unit_id: touch_along(line, *fs, bases) for unit_id, bases in self.foes.items()}
            else:  # the same, among the figures near the way only (the others are never touched)
                stop, foes = index.touches(_Touches(line, *fs), limit, k in self.ways)
            for unit_id in self.foes:
                at = foes.get(unit_id, math.inf)
                if at < limit - 1e-9 and at <= stop + 1e-9:
                    best, figs = out.get(unit_id, (math.inf, set()))
                    figs.add(k)
                    out[unit_id] = (min(best, self._roll(k, at)), figs)
        return out


@dataclass(frozen=True)
class _Shapes:
    """A position's shapes, built once for all its pursuits: every unit's bases (by unit id), its
    terrain, and an STR-tree over the bases then the terrain polygons (``owner``: the unit of each,
    None for terrain)."""

    bases: dict[str, list[shapely.Polygon]]
    terrain: tuple[TerrainShape, ...]
    geoms: npt.NDArray[np.object_]
    owner: list[str | None]
    tree: shapely.STRtree

    @staticmethod
    def of(scen: Scenario) -> _Shapes:
        """The shapes of ``scen`` (the bases as :func:`~szwadron.geometry.bases.base_corners` gives them)."""
        bases: dict[str, list[shapely.Polygon]] = {}
        for u in scen.units:
            if not u.bases:
                bases[u.id] = []
                continue
            sizes = [u.base_size(i) for i in range(len(u.bases))]
            corners = base_corners(
                [b.x for b in u.bases],
                [b.y for b in u.bases],
                [b.facing for b in u.bases],
                [w for w, _d in sizes],
                [d for _w, d in sizes],
            )
            bases[u.id] = list(polygons_from_corners(corners).reshape(-1))
        terrain = terrain_shapes(scen.terrain)
        owner: list[str | None] = [u.id for u in scen.units for _p in bases[u.id]]
        owner += [None] * len(terrain)
        geoms = np.asarray(
            [p for u in scen.units for p in bases[u.id]] + [t.polygon for t in terrain], dtype=object
        )
        return _Shapes(bases, terrain, geoms, owner, shapely.STRtree(geoms))


_SHAPES: dict[int, tuple[Scenario, _Shapes]] = {}


def _shapes(scen: Scenario) -> _Shapes:
    """:meth:`_Shapes.of`, once per position (scenarios are frozen): a morale phase plans the
    pursuits of many units on one position."""
    got = _SHAPES.get(id(scen))
    if got is None or got[0] is not scen:
        if len(_SHAPES) >= 8:
            _SHAPES.clear()
        got = _SHAPES[id(scen)] = (scen, _Shapes.of(scen))
    return got[1]


@dataclass(frozen=True)
class _Index:
    """The figures and closed ground one pursuit's ways may touch, looked up by where they stand
    (:attr:`_Shapes.tree`): for :meth:`PursuitPlan.met`."""

    shapes: _Shapes
    unit: str
    target: str
    foes: frozenset[str]
    closed: frozenset[int]

    def touches(self, t: _Touches, limit: float, round_: bool) -> tuple[float, dict[str, float]]:
        """6.7.5 — how far along the way ``t`` the figure first touches what stops it (an enemy
        figure on a way round, ``round_``; else any other unit's figure or closed ground), no
        further than ``limit``; and where it first touches each enemy unit but the pursued one
        (those it never touches left out)."""
        if t.line is None:
            return limit, {}
        lo_x, lo_y, hi_x, hi_y = shapely.bounds(t.line).tolist()
        r = t.reach + 1e-6  # a figure the base touches is within its reach of the way
        near = self.shapes.tree.query(shapely.box(lo_x - r, lo_y - r, hi_x + r, hi_y + r)).tolist()
        owner, ground = self.shapes.owner, len(self.shapes.owner) - len(self.shapes.terrain)
        keep = [
            i
            for i in sorted(near)
            if (owner[i] is not None and owner[i] not in (self.unit, self.target))
            or (i - ground in self.closed and owner[i] is None)
        ]
        at = t.at(list(self.shapes.geoms[keep])) if keep else []
        stop = limit
        foes: dict[str, float] = {}
        for i, cm in zip(keep, at, strict=True):
            o = owner[i]
            foe = o is not None and o in self.foes
            if foe:
                foes[o] = min(foes.get(o, math.inf), cm)
            if foe or not round_:
                stop = min(stop, cm)
        return stop, foes


def pursuit_plan(unit: Unit, scen: Scenario, target: Unit, most: float | None = None) -> PursuitPlan:
    """6.7.4, 6.7.5, 3.1.3 — the ways of ``unit``'s figures pursuing ``target`` (:class:`PursuitPlan`).

    Each figure slides straight into contact with the nearest figure of the pursued unit, or
    straight at it when it cannot reach (:func:`into_contact_or_at`). Where an own unit or ground
    closed to it (3.2.4, 3.2.5) bars that straight way into contact before any enemy figure does,
    it takes the shortest way round into contact instead (:func:`pursuit_way`), and an enemy
    figure on that way still stops it (6.7.5). Where the straight way is clear, or an enemy
    figure stands on it first, or there is no way round, it goes straight.

    ``most``: the longest roll, for the odds only: a figure whose edge-to-edge gap to the pursued
    unit is more than that reaches it with no roll, and its way round is not searched, nor a way
    round found longer than that (it goes straight in the plan; the move, which passes no
    ``most``, still takes its way round)."""
    s = scen.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    small = s.overlap_tolerance_cm**2
    least = s.min_contact_length_cm - s.distance_epsilon_cm
    shapes = _shapes(scen)
    aims = list(shapes.bases[target.id])
    shut = [i for i, t in enumerate(shapes.terrain) if forbidden_rule(unit.profile.kind, t) is not None]
    closed = [shapes.terrain[i].polygon for i in shut]
    bases = shapes.bases
    others = [p for u in scen.units if u.id != unit.id for p in bases[u.id]] + closed
    # a figure that reaches its contact goes the whole way into it (6.7.4): the pursued unit's own
    # bases do not stop it short at a corner on the way (others and closed ground do)
    others_but_target = [
        p for u in scen.units if u.id not in (unit.id, target.id) for p in bases[u.id]
    ] + closed
    friends = [p for u in scen.units if u.id != unit.id and u.side == unit.side for p in bases[u.id]] + closed
    foes = {u.id: list(bases[u.id]) for u in scen.units if u.side != unit.side and u.id != target.id}
    foe_bases = [p for ps in foes.values() for p in ps]
    table = (scen.table.width, scen.table.depth)
    heading: dict[int, tuple[float, float]] = {}
    need: dict[int, float] = {}
    contact: dict[int, bool] = {}
    ways: dict[int, PursuitWay] = {}
    mine = shapes.bases[unit.id]
    memo = _Memo()
    gaps = dict(enumerate(shapely.distance(np.asarray(mine, dtype=object), _union(aims, memo)).tolist()))
    for k, b in enumerate(unit.bases):
        here = mine[k]
        (dx, dy), contact[k] = into_contact_or_at(here, aims, s.min_contact_length_cm, tol, least, small)
        norm = math.hypot(dx, dy) or 1.0
        heading[k] = (dx / norm, dy / norm)
        need[k] = norm
        far = most is not None and gaps[k] > most + s.distance_epsilon_cm
        if not far and _barred(unit, k, heading[k], (norm, contact[k]), aims, friends, foe_bases, small):
            way = pursuit_way((b.x, b.y), b.facing, unit.base_size(k), aims, friends, table, s, most, memo)
            if way is not None:  # round the own unit or closed ground (3.1.3, 6.7.4)
                ways[k] = way
                need[k] = way.length
    obstacles = [t for t in shapes.terrain if t.crossable_obstacle]
    costly = [t for i, t in enumerate(shapes.terrain) if t.kind in COSTLY_KINDS and i not in shut]
    index = _Index(shapes, unit.id, target.id, frozenset(foes), frozenset(shut))
    return PursuitPlan(
        unit,
        aims,
        heading,
        need,
        contact,
        ways,
        others,
        others_but_target,
        foes,
        small,
        tol,
        least,
        obstacles,
        gaps,
        costly,
        s,
        most,
        _index=index,
    )


__all__ = [
    "GRAZE_CM",
    "PursuitPlan",
    "PursuitWay",
    "Reach",
    "along",
    "along_until_blocked",
    "edge_touch",
    "furthest_free",
    "into_contact_or_at",
    "pursuit_plan",
    "pursuit_way",
    "straight_until_blocked",
    "touch_along",
    "touch_lengths",
]
