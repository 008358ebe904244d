"""PD-6, 3.1.4, 3.2 — a base moving between poses: corner paths, swept areas, terrain costs.

A move of one base is a sequence of poses ``(x, y, facing)``: where it starts, the declared
waypoints, where it ends. Between two consecutive poses the base moves *rigidly*:

Decision (the motion between two poses, PD-6 "straight segments between poses"): when the two
poses have the same facing the base slides along the straight segment; when the facing changes
by ``θ`` (the shorter way round, ``|θ| ≤ 180°``) the base turns about the one point of the table
that the two poses leave in place — the pivot of a wheel. A base that wheels about its front
corner, or a whole line that wheels about its end, therefore needs no waypoints: each base
traces the arc a player traces with the tape, and the outer corner's arc is what is measured.
A turn on the spot turns about the centre. Add waypoints to describe any other path (advance,
then turn).

PD-6: the distance of the move is the length of the path of the corner that travels furthest
(:attr:`BaseMotion.length`), plus the terrain surcharges (:func:`terrain_surcharges`).

Swept areas (3.1.4) are unions of convex hulls of consecutive positions of the base: exact for a
slide; for a turn, the positions are close enough that the hulls miss at most
``SWEEP_SAGITTA_CM`` (0.005 cm) of the true swept area, far below the contact tolerance (PD-3).

>>> m = BaseMotion.of([(10.0, 10.0, 90.0), (10.0, 22.0, 90.0)], 2.0, 2.0)   # 12 cm straight ahead
>>> m.length, m.measured_corner
(12.0, 'front-left')
>>> round(m.swept().area, 9)          # a 2 x 14 strip
28.0
>>> w = BaseMotion.of([(0.0, 0.0, 90.0), (0.0, 2.0, 0.0)], 2.0, 2.0)  # wheel right about (1, 1)
>>> w.legs[0].pivot, round(w.length, 6)   # the outer corner sweeps a quarter circle of radius 2√2
((1.0, 1.0), 4.442883)
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.bases import CORNER_NAMES, base_corners, polygons_from_corners
from szwadron.geometry.terrain import TerrainShape
from szwadron.models import TerrainKind
from szwadron.settings import RulesSettings

FloatArray = npt.NDArray[np.float64]

#: Largest gap between the true swept area of a turning base and its polygon, cm.
SWEEP_SAGITTA_CM = 0.005
#: Sampling step for terrain costs: no point of the base moves more than this between samples.
SAMPLE_STEP_CM = 0.25
#: Change points of terrain costs are located to within this fraction of a sampling step.
_REFINE_SPLITS = 32
_REFINE_ROUNDS = 4
#: A turn smaller than this is a slide: about a pivot ~10^11 cm away (a turn of 1e-9°), the arc's
#: points cancel to noise of 1e-5 cm; a millionth of a degree moves a base's corner 10^-7 cm.
_TURN_EPS_DEG = 1e-6


class Pose(NamedTuple):
    """A base's centre ``(x, y)`` in cm and its facing in degrees (counter-clockwise from +x)."""

    x: float
    y: float
    facing: float


def turn_between(facing_from: float, facing_to: float) -> float:
    """The signed turn (degrees, in ``(-180, 180]``) from one facing to another, the short way.

    >>> turn_between(90.0, 0.0), turn_between(350.0, 10.0), turn_between(0.0, 180.0)
    (-90.0, 20.0, 180.0)
    """
    t = math.fmod(facing_to - facing_from, 360.0)
    if t > 180.0:
        t -= 360.0
    elif t <= -180.0:
        t += 360.0
    return t + 0.0


@dataclass(frozen=True)
class Leg:
    """PD-6 — the rigid motion from ``start`` to ``end``: a slide, or a turn about ``pivot``.

    >>> Leg(Pose(0, 0, 90), Pose(0, 5, 90)).pivot is None
    True
    >>> Leg(Pose(0, 0, 90), Pose(0, 0, 180)).pivot     # a turn on the spot: about the centre
    (0.0, 0.0)
    """

    start: Pose
    end: Pose

    @cached_property
    def turn(self) -> float:
        """Signed turn in degrees (counter-clockwise positive), the shorter way round."""
        return turn_between(self.start.facing, self.end.facing)

    @cached_property
    def pivot(self) -> tuple[float, float] | None:
        """The fixed point of the turn; ``None`` for a slide."""
        if abs(self.turn) < _TURN_EPS_DEG:
            return None
        a = math.radians(self.turn)
        c, s = math.cos(a), math.sin(a)
        x0, y0 = self.start.x, self.start.y
        # c1 = P + R (c0 - P)  →  (I - R) P = c1 - R c0
        bx = self.end.x - (c * x0 - s * y0)
        by = self.end.y - (s * x0 + c * y0)
        det = (1.0 - c) ** 2 + s * s
        px = ((1.0 - c) * bx - s * by) / det
        py = (s * bx + (1.0 - c) * by) / det
        return (round(px, 12) + 0.0, round(py, 12) + 0.0)

    def poses(self, t: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Centres and facings at fractions ``t`` (0 = start, 1 = end) of the leg."""
        tt = np.asarray(t, dtype=float)
        x0, y0, f0 = self.start
        if self.pivot is None:
            # a slide; a turn under _TURN_EPS_DEG is kept as a facing change, so t = 1 is the end pose
            return (x0 + tt * (self.end.x - x0), y0 + tt * (self.end.y - y0), f0 + self.turn * tt)
        px, py = self.pivot
        a = np.radians(self.turn) * tt
        c, s = np.cos(a), np.sin(a)
        dx, dy = x0 - px, y0 - py
        x = np.where(tt == 1.0, self.end.x, px + c * dx - s * dy)
        y = np.where(tt == 1.0, self.end.y, py + s * dx + c * dy)
        return x, y, f0 + self.turn * tt

    def corner_lengths(self, width: float, depth: float) -> FloatArray:
        """PD-6 — length of the path of each corner (front-left, front-right, back-right,
        back-left): the slide's length, or the arc ``|θ| · r`` about the pivot."""
        c0 = base_corners(self.start.x, self.start.y, self.start.facing, width, depth)
        if self.pivot is None:
            c1 = base_corners(self.end.x, self.end.y, self.end.facing, width, depth)
            out: FloatArray = np.linalg.norm(c1 - c0, axis=-1)
            return out
        r = np.linalg.norm(c0 - np.asarray(self.pivot), axis=-1)
        arcs: FloatArray = abs(math.radians(self.turn)) * r
        return arcs


@dataclass(frozen=True)
class BaseMotion:
    """PD-6 — one base's move through its poses (start, waypoints, end), ``width`` × ``depth``.

    The motion is parametrised by ``s`` from 0 to ``len(legs)``: leg ``k`` runs over
    ``[k, k + 1]``.
    """

    poses: tuple[Pose, ...]
    width: float
    depth: float

    @classmethod
    def of(cls, poses: Sequence[Sequence[float]], width: float, depth: float) -> BaseMotion:
        """From ``[(x, y, facing), ...]``: at least the start and the end."""
        if len(poses) < 2:
            raise ValueError("a motion needs at least a start and an end pose")
        return cls(
            tuple(Pose(float(p[0]), float(p[1]), float(p[2])) for p in poses), float(width), float(depth)
        )

    @cached_property
    def legs(self) -> tuple[Leg, ...]:
        """The legs between consecutive poses."""
        return tuple(Leg(a, b) for a, b in zip(self.poses[:-1], self.poses[1:], strict=True))

    @cached_property
    def corner_lengths(self) -> FloatArray:
        """``(legs, 4)`` — path length of each corner on each leg."""
        return np.stack([leg.corner_lengths(self.width, self.depth) for leg in self.legs])

    @cached_property
    def corner_totals(self) -> FloatArray:
        """Total path of each corner over the whole move."""
        totals: FloatArray = self.corner_lengths.sum(axis=0)
        return totals

    @cached_property
    def measured(self) -> int:
        """PD-6 — index of the corner that travels furthest (the first one on a tie)."""
        return int(np.argmax(np.round(self.corner_totals, 9)))

    @property
    def measured_corner(self) -> str:
        """Name of the measured corner (:data:`~szwadron.geometry.bases.CORNER_NAMES`)."""
        return CORNER_NAMES[self.measured]

    @cached_property
    def length(self) -> float:
        """PD-6 — distance moved before terrain: the furthest-travelling corner's path, cm."""
        return float(self.corner_totals[self.measured])

    @property
    def moves(self) -> bool:
        """Whether any corner moves at all."""
        return bool(self.length > 0.0)

    def travelled(self, s: npt.ArrayLike) -> FloatArray:
        """Distance the measured corner has travelled at parameter ``s`` (piecewise linear)."""
        ss = np.clip(np.asarray(s, dtype=float), 0.0, len(self.legs))
        per_leg = self.corner_lengths[:, self.measured]
        cum = np.concatenate([[0.0], np.cumsum(per_leg)])
        k = np.minimum(np.floor(ss).astype(int), len(self.legs) - 1)
        out: FloatArray = cum[k] + (ss - k) * per_leg[k]
        return out

    def pose_arrays(self, s: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Centres and facings at parameters ``s`` (vectorised)."""
        ss = np.clip(np.asarray(s, dtype=float).ravel(), 0.0, len(self.legs))
        k = np.minimum(np.floor(ss).astype(int), len(self.legs) - 1)
        x, y, f = np.empty(ss.shape), np.empty(ss.shape), np.empty(ss.shape)
        for leg_k in np.unique(k).tolist():
            sel = k == leg_k
            x[sel], y[sel], f[sel] = self.legs[leg_k].poses(ss[sel] - leg_k)
        return x, y, f

    def corners_at(self, s: npt.ArrayLike, shrink: float = 0.0) -> FloatArray:
        """Corners ``(len(s), 4, 2)`` at parameters ``s``; ``shrink`` cm off every side."""
        x, y, f = self.pose_arrays(s)
        return base_corners(x, y, f, max(self.width - 2 * shrink, 1e-3), max(self.depth - 2 * shrink, 1e-3))

    def polygons_at(self, s: npt.ArrayLike, shrink: float = 0.0) -> npt.NDArray[np.object_]:
        """Base polygons at parameters ``s``."""
        return polygons_from_corners(self.corners_at(s, shrink)).reshape(-1)

    def samples(self, step_cm: float = SAMPLE_STEP_CM) -> FloatArray:
        """Parameters ``s`` (sorted, ends included) such that no point of the base moves more
        than ``step_cm`` between consecutive samples."""
        parts = []
        for k, lengths in enumerate(self.corner_lengths):
            n = max(1, math.ceil(float(lengths.max()) / step_cm))
            parts.append(k + np.arange(n) / n)
        parts.append(np.asarray([float(len(self.legs))]))
        return np.concatenate(parts)

    def _sweep_params(self) -> FloatArray:
        parts = []
        for k, leg in enumerate(self.legs):
            n = 1
            if leg.pivot is not None:
                c0 = base_corners(*leg.start, self.width, self.depth)
                r = float(np.linalg.norm(c0 - np.asarray(leg.pivot), axis=-1).max())
                if r > SWEEP_SAGITTA_CM:
                    step = 2.0 * math.acos(max(-1.0, 1.0 - SWEEP_SAGITTA_CM / r))
                    n = max(1, math.ceil(abs(math.radians(leg.turn)) / step))
            parts.append(k + np.arange(n) / n)
        parts.append(np.asarray([float(len(self.legs))]))
        return np.concatenate(parts)

    def swept(self, shrink: float = 0.0) -> shapely.Geometry:
        """3.1.4 — the area the base covers during the move (``shrink`` cm off every side).

        >>> round(BaseMotion.of([(0, 0, 90), (0, 0, 180)], 2.0, 2.0).swept().area, 1)  # disc, r √2
        6.3
        """
        corners = self.corners_at(self._sweep_params(), shrink)
        if len(corners) == 1:
            return shapely.Polygon(corners[0])
        pairs = np.concatenate([corners[:-1], corners[1:]], axis=1)  # (m - 1, 8, 2)
        hulls = shapely.convex_hull(shapely.multipoints(pairs))
        return shapely.union_all(hulls)

    # -- where along the move something holds ------------------------------------------------

    def intervals(
        self,
        predicate: Callable[[FloatArray], npt.NDArray[np.bool_]],
        step_cm: float = SAMPLE_STEP_CM,
    ) -> list[tuple[float, float]]:
        """Maximal ranges ``(s0, s1)`` of the move where ``predicate(s)`` holds (vectorised
        predicate over arrays of ``s``); ends located to a tiny fraction of ``step_cm``."""
        s = self.samples(step_cm)
        v = np.asarray(predicate(s), dtype=bool)
        changes = _refine(predicate, s, v)
        out: list[tuple[float, float]] = []
        start = 0.0 if v[0] else None
        for at, before, _after in changes:
            if not before:
                start = at
            elif start is not None:
                out.append((start, at))
                start = None
        if start is not None:
            out.append((start, float(s[-1])))
        return out

    def climbs(self, hills: Sequence[TerrainShape]) -> list[tuple[float, tuple[int, ...]]]:
        """3.2.1, PD-11 — where the centre goes up onto hills: ``(s, levels)``, the levels of
        the hills it goes onto at ``s`` that are above its level just before (PD-11: the
        highest hill under the centre). Going down or onto no higher hill is no climb.

        Decision (3.2.1: "Aby wejść na wzgórze, jednostka musi zużyć dodatkowo 6 cm ruchu"):
        the climb is paid for each hill gone onto, not for each level of its height: a hill of
        level 2 standing on the ground is one hill, climbed once. A hill drawn level by level
        (lower slopes with a crest on them) is that many hills: the crest is climbed from the
        slopes as a hill of its own, and over an edge the two share, from the ground, both are
        climbed. Two hills of one level gone onto at one point count once.
        """
        if not hills:
            return []
        tiers = sorted({h.level for h in hills})
        bit = {level: 1 << k for k, level in enumerate(tiers)}
        # a bit per level of hill under the centre (Python integers past 62 levels)
        dtype: type = np.int64 if len(tiers) < 63 else object

        def under(s: FloatArray) -> npt.NDArray[np.generic]:
            x, y, _ = self.pose_arrays(s)
            code: npt.NDArray[np.generic] = np.zeros(x.shape, dtype=dtype)
            for h in hills:
                inside = shapely.intersects_xy(h.polygon, x, y)
                code = np.where(inside, np.bitwise_or(code, bit[h.level]), code)
            return code

        def top(code: int) -> int:
            return max((level for level in tiers if code & bit[level]), default=0)

        s = self.samples()
        out: list[tuple[float, tuple[int, ...]]] = []
        for at, before, after in _refine(under, s, under(s)):
            below = top(int(before))  # type: ignore[call-overload]
            onto = tuple(level for level in tiers if level > below and int(after) & bit[level])  # type: ignore[call-overload]
            if onto:
                out.append((at, onto))
        return out


def _refine(
    fn: Callable[[FloatArray], npt.NDArray[np.generic]],
    s: FloatArray,
    v: npt.NDArray[np.generic],
) -> list[tuple[float, object, object]]:
    """Change points of a step function sampled at ``s``: ``(s, value before, value after)``."""
    out: list[tuple[float, object, object]] = []
    for i in np.flatnonzero(v[:-1] != v[1:]).tolist():
        lo, hi = float(s[i]), float(s[i + 1])
        before, after = v[i : i + 2].tolist()  # Python values, of any dtype (objects too)
        for _ in range(_REFINE_ROUNDS):
            grid = np.linspace(lo, hi, _REFINE_SPLITS + 1)
            vals = np.asarray(fn(grid[1:-1]))
            differ = np.flatnonzero(vals != before)
            if differ.size == 0:  # the change is in the last split: refine that one
                lo = float(grid[-2])
                continue
            j = int(differ[0]) + 1
            lo, hi = float(grid[j - 1]), float(grid[j])
            after = vals[differ[0] : differ[0] + 1].tolist()[0]
        out.append(((lo + hi) / 2.0, before, after))
    return out


# --- 3.2 terrain costs -------------------------------------------------------------------------


@dataclass(frozen=True)
class Surcharge:
    """3.2 — one terrain surcharge of a move: the rule, the extra cm, the feature's id."""

    rule: str
    cm: float
    source: str

    def to_json(self) -> dict[str, object]:
        """``{"rule", "cm", "source"}``."""
        return {"rule": self.rule, "cm": round(self.cm, 6), "source": self.source}


def terrain_surcharges(
    motion: BaseMotion,
    features: Sequence[TerrainShape],
    settings: RulesSettings,
    *,
    shrink: float | None = None,
) -> tuple[Surcharge, ...]:
    """3.2.1, 3.2.2, 3.2.3, 3.2.5 — the terrain surcharges of one base's move, itemised.

    ``features`` are the features to consider (those the swept area meets); ``shrink`` is how
    far a base must reach into a feature to be in it (default: the numerical epsilon — a base
    touching a feature from outside is not in it, any real overlap counts; PD-3's overlap
    tolerance is for the legality of where a base stands, not for what a move costs).

    - 3.2.1 hills: ``hill_climb_cm`` (6) for every hill the centre goes up onto, whatever its
      level (:meth:`BaseMotion.climbs`), named after that hill. Going down is free.
    - 3.2.2 rough ground: each cm counts ``rough_cost_factor`` (2) times: the surcharge is
      ``(factor − 1)`` × the distance the measured corner (PD-6) travels while any part of the
      base is in the rough ground. Decision: "inside" is "any part of the base inside", so a
      base entering a wood pays from the moment its front crosses the edge.
    - 3.2.3 obstacles: ``obstacle_crossing_cm`` (4) for every crossing, a crossing being each
      stretch of the move during which the base is over the obstacle (a base clipping the end of
      a fence crosses it too).
    - 3.2.5 buildings and fortifications: ``building_entry_cm`` (4) for each entry, and
      ``building_exit_cm`` (4) for each exit, of a base moving into or out of one.

    Examples
    --------
    >>> from szwadron.models import Terrain
    >>> fence = TerrainShape.of(Terrain(id="f", kind="obstacle", line=[(0, 5), (20, 5)], width=0.5))
    >>> wood = TerrainShape.of(Terrain(id="w", kind="forest", polygon=[(0, 10), (20, 10), (20, 30), (0, 30)]))
    >>> m = BaseMotion.of([(10, 2, 90), (10, 13, 90)], 2.0, 2.0)   # over the fence, 4 cm into the wood
    >>> [(s.rule, round(s.cm, 6), s.source) for s in terrain_surcharges(m, [fence, wood], RulesSettings())]
    [('3.2.3', 4.0, 'f'), ('3.2.2', 4.0, 'w')]
    """
    if not motion.moves:
        return ()
    sh = 0.1 * settings.distance_epsilon_cm if shrink is None else shrink
    out: list[Surcharge] = []
    end = float(len(motion.legs))

    def overlaps(feature: TerrainShape) -> Callable[[FloatArray], npt.NDArray[np.bool_]]:
        def pred(s: FloatArray) -> npt.NDArray[np.bool_]:
            return np.asarray(shapely.intersects(motion.polygons_at(s, sh), feature.polygon))

        return pred

    for f in features:
        if f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH):
            inside = motion.intervals(overlaps(f))
            cm = sum(float(motion.travelled(b) - motion.travelled(a)) for a, b in inside)
            extra = (settings.rough_cost_factor - 1.0) * cm
            if extra > 0:
                out.append(Surcharge("3.2.2", extra, f.id))
        elif f.kind is TerrainKind.OBSTACLE:
            for _ in motion.intervals(overlaps(f)):
                out.append(Surcharge("3.2.3", settings.obstacle_crossing_cm, f.id))
        elif f.kind in (TerrainKind.BUILDING, TerrainKind.FORTIFICATION):
            for a, b in motion.intervals(overlaps(f)):
                if a > 0.0:
                    out.append(Surcharge("3.2.5", settings.building_entry_cm, f.id))
                if b < end:
                    out.append(Surcharge("3.2.5", settings.building_exit_cm, f.id))
    hills = [f for f in features if f.kind is TerrainKind.HILL]
    for at, levels in motion.climbs(hills):
        x, y, _ = motion.pose_arrays([min(at + 1e-9, end)])
        point = shapely.Point(float(x[0]), float(y[0]))
        for level in levels:
            # the climb lies within a hair of the edge, on either side: the hill of this level
            # nearest it is the one climbed onto
            onto = min(
                (float(shapely.distance(h.polygon, point)), k)
                for k, h in enumerate(hills)
                if h.level == level
            )
            out.append(Surcharge("3.2.1", settings.hill_climb_cm, hills[onto[1]].id))
    return tuple(out)


#: 3.2 — the terrain that costs a move more than its length: rough ground and woods (3.2.2),
#: obstacles (3.2.3), buildings and fortifications (3.2.5), hills (3.2.1).
COSTLY_KINDS = frozenset(
    {
        TerrainKind.FOREST,
        TerrainKind.ROUGH,
        TerrainKind.OBSTACLE,
        TerrainKind.BUILDING,
        TerrainKind.FORTIFICATION,
        TerrainKind.HILL,
    }
)
#: 3.2.1, 3.2.2 — the terrain a figure goes into with its whole base or stops before it.
WHOLE_BASE_KINDS = frozenset({TerrainKind.FOREST, TerrainKind.ROUGH, TerrainKind.HILL})


@dataclass(frozen=True)
class WayCost:
    """3.2 along a way of a figure's centre (a flight's, 6.6.8, 6.6.9; a pursuit's, 6.7.5): what
    the distance moved pays to get along it.

    ``points`` is the way of the figure's centre with every point where the cost changes pace
    added; a surcharge paid at one point (an obstacle crossed, a hill climbed, a building entered
    or left) is that point twice, with the cost before and after. ``costs`` is the distance
    spent on reaching each point; ``lengths`` the way's length there. ``inside`` is the length of
    the way within terrain a flight avoids (6.6.8).

    >>> from szwadron.models import Terrain
    >>> from szwadron.settings import RulesSettings
    >>> fence = TerrainShape.of(Terrain(id="f", kind="obstacle", line=[(0, 5), (20, 5)], width=0.5))
    >>> wc = WayCost.of([(10.0, 2.0), (10.0, 12.0)], 90.0, (2.0, 2.0), [fence], RulesSettings())
    >>> [round(v, 6) for v in wc.lengths], [round(v, 6) for v in wc.costs]  # +4 at the fence
    ([0.0, 1.75, 1.75, 10.0], [0.0, 1.75, 5.75, 14.0])
    >>> [round(v, 6) for v in (wc.cost_at(1.7), wc.cost_at(3.0), wc.paid(5.0), wc.paid(7.0), wc.paid(20.0))]
    [1.7, 7.0, 1.75, 3.0, 16.0]
    """

    points: tuple[tuple[float, float], ...]
    lengths: tuple[float, ...]
    costs: tuple[float, ...]
    inside: float

    @property
    def total(self) -> float:
        """The distance spent on the whole way."""
        return self.costs[-1]

    @property
    def free(self) -> bool:
        """Costs no more than its length."""
        return self.costs[-1] <= self.lengths[-1] + 1e-9

    def cost_at(self, length: float) -> float:
        """The distance spent on reaching ``length`` cm along the way (a surcharge at that
        very point not yet paid); past the end, at 1 per cm."""
        lens, costs = self.lengths, self.costs
        if length >= lens[-1]:
            return costs[-1] + (length - lens[-1])
        i = bisect.bisect_left(lens, length)
        if i == 0:
            return 0.0
        span = lens[i] - lens[i - 1]
        frac = 0.0 if span <= 0 else (length - lens[i - 1]) / span
        return costs[i - 1] + frac * (costs[i] - costs[i - 1])

    def paid(self, spend: float) -> float:
        """How far along the way (cm) ``spend`` cm of move gets: as far as it pays for, stopping
        before a surcharge it cannot pay (as ``szwadron.table.pursuit.along`` with costs); past
        the end, at 1 per cm."""
        return paid_length(self.lengths, self.costs, spend)

    # long: the stretches of each kind of terrain along the way, then one pass cutting the way where the pace changes; moved whole from the flight (6.6), which costs its ways the same.
    @classmethod
    def of(
        cls,
        points: Sequence[tuple[float, float]],
        facing: float,
        size: tuple[float, float],
        features: Sequence[TerrainShape],
        settings: RulesSettings,
    ) -> WayCost:
        """3.2.1, 3.2.2, 3.2.3, 3.2.5 — the cost of a base of ``facing`` and ``size`` (width,
        depth) moving along ``points`` (its centre's way; translated, its facing kept), over the
        terrain ``features`` (costly ones, not closed to it). As a move is costed
        (:func:`terrain_surcharges`): rough ground counts each cm ``rough_cost_factor`` times while
        any part of the base is in it; crossing an obstacle ``obstacle_crossing_cm``; entering
        and leaving a building or fortification ``building_entry_cm`` / ``building_exit_cm``;
        going up onto a hill ``hill_climb_cm`` a hill (:meth:`BaseMotion.climbs`)."""
        pts = _distinct(points)
        lens = [0.0]
        for p, q in itertools.pairwise(pts):
            lens.append(lens[-1] + math.hypot(q[0] - p[0], q[1] - p[1]))
        if len(pts) < 2 or not features:
            return cls(tuple(pts), tuple(lens), tuple(lens), 0.0)
        s = settings
        motion = BaseMotion.of([(x, y, facing) for x, y in pts], *size)
        shrink = 0.1 * s.distance_epsilon_cm
        end = float(len(motion.legs))
        slow: list[tuple[float, float]] = []  # stretches of rough ground, cm along the way
        avoided: list[tuple[float, float]] = []
        jumps: list[tuple[float, float]] = []  # (cm along the way, surcharge)

        def along(a: float) -> float:
            return float(motion.travelled(a))

        for f in features:
            if f.kind is TerrainKind.HILL:
                continue

            def over(sv: FloatArray, poly: shapely.Geometry = f.polygon) -> npt.NDArray[np.bool_]:
                return np.asarray(shapely.intersects(motion.polygons_at(sv, shrink), poly))

            for a, e in motion.intervals(over):
                avoided.append((along(a), along(e)))
                if f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH):
                    slow.append((along(a), along(e)))
                elif f.kind is TerrainKind.OBSTACLE:
                    jumps.append((along(a), s.obstacle_crossing_cm))
                else:
                    if a > 0.0:
                        jumps.append((along(a), s.building_entry_cm))
                    if e < end:
                        jumps.append((along(e), s.building_exit_cm))
        hills = [f for f in features if f.kind is TerrainKind.HILL]
        for at, levels in motion.climbs(hills):
            jumps.append((along(at), s.hill_climb_cm * len(levels)))
        slow_u = _joined(slow)
        cuts = sorted({*lens, *(x for ab in slow_u for x in ab), *(at for at, _ in jumps)})
        cuts = [c for c in cuts if 0.0 <= c <= lens[-1]]
        out_pts: list[tuple[float, float]] = []
        out_len: list[float] = []
        out_cost: list[float] = []
        cost = 0.0
        jump_at: dict[float, float] = {}
        for at, cm in jumps:
            jump_at[at] = jump_at.get(at, 0.0) + cm
        prev = 0.0
        for c in cuts:
            mid = (prev + c) / 2.0
            factor = s.rough_cost_factor if any(a <= mid <= e for a, e in slow_u) else 1.0
            cost += (c - prev) * factor
            xy = _point_at(pts, lens, c)
            out_pts.append(xy)
            out_len.append(c)
            out_cost.append(cost)
            if c in jump_at and 0.0 < c < lens[-1]:
                cost += jump_at[c]
                out_pts.append(xy)
                out_len.append(c)
                out_cost.append(cost)
            prev = c
        inside = sum(e - a for a, e in _joined(avoided))
        return cls(tuple(out_pts), tuple(out_len), tuple(out_cost), inside)


def paid_length(lengths: Sequence[float], costs: Sequence[float], spend: float) -> float:
    """3.2 — how far (cm) along a way ``spend`` cm of move gets, the way's cumulative
    ``lengths`` and the move spent on reaching each of its points ``costs`` given (a surcharge
    paid at a point is that point twice): as far as it pays for, stopping before a surcharge it
    cannot pay; past the end, at 1 per cm.

    >>> paid_length([0.0, 2.0, 2.0, 6.0], [0.0, 2.0, 6.0, 10.0], 5.0)   # 4 cm to pay at 2 cm: stops
    2.0
    >>> paid_length([0.0, 2.0, 4.0], [0.0, 2.0, 6.0], 4.0)               # 2 cm a cm after 2 cm
    3.0
    """
    for i in range(1, len(lengths)):
        if spend <= costs[i] + 1e-9:
            l0, c0, l1, c1 = lengths[i - 1], costs[i - 1], lengths[i], costs[i]
            if l1 <= l0 or c1 <= c0:
                return l0  # a surcharge here it cannot pay: it stops before it
            return l0 + (l1 - l0) * max(0.0, (spend - c0) / (c1 - c0))
    return lengths[-1] + (spend - costs[-1])


def _distinct(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """``points`` with each point that repeats the one before it left out."""
    return [points[0]] + [q for p, q in itertools.pairwise(points) if q != p]


def whole_base_stops(
    points: Sequence[tuple[float, float]],
    facing: float,
    size: tuple[float, float],
    areas: Sequence[TerrainShape],
    settings: RulesSettings,
) -> tuple[tuple[float, float, bool], ...]:
    """3.2.1, 3.2.2 — where along ``points`` (a base of ``facing`` and ``size`` translated along
    its centre's way) it may not stop, going into the rough ground, woods or hills ``areas``
    (of :data:`WHOLE_BASE_KINDS`) with part of its base: ``(a, b, up)``, cm along the way. Between
    ``a`` (where it first reaches in, from outside it) and ``b`` (where it is wholly in; or out
    again), a base stops at ``a``, before it ("musi się przed
    nim zatrzymać"); ``b`` is ``inf`` where the way ends with the base still astride the edge (a
    pursuit's way into contact with a figure in the wood: the whole base never fits in, so it
    stops before it whatever it rolls). ``up`` where a base touching a hill's foot at the start goes up onto it: it
    may go on to ``b``, its edge on the hill's edge, whatever it pays (3.2.1, "może ona wejść na
    wzgórze tak, aby krawędź jej podstawki przylegała do krawędzi wzgórza"). A base in an area at
    the start, or coming out of one, is not stopped (going down, or out: "zejście ze wzgórza nie
    powoduje żadnych utrudnień").

    >>> from szwadron.models import Terrain
    >>> wood = TerrainShape.of(Terrain(id="w", kind="forest", polygon=[(0, 10), (20, 10), (20, 30), (0, 30)]))
    >>> [(round(a, 3), round(b, 3), up) for a, b, up in whole_base_stops(
    ...     [(10.0, 2.0), (10.0, 20.0)], 90.0, (2.0, 2.0), [wood], RulesSettings())]   # in from 7, wholly at 9
    [(7.0, 9.0, False)]
    >>> [(round(a, 3), b, up) for a, b, up in whole_base_stops(
    ...     [(10.0, 2.0), (10.0, 9.5)], 90.0, (2.0, 2.0), [wood], RulesSettings())]   # ends astride
    [(7.0, inf, False)]
    """
    pts = _distinct(points)
    if len(pts) < 2 or not areas:
        return ()
    motion = BaseMotion.of([(x, y, facing) for x, y in pts], *size)
    shrink = 0.1 * settings.distance_epsilon_cm
    tol = settings.contact_tolerance_cm + settings.distance_epsilon_cm
    start = motion.polygons_at([0.0], 0.0)[0]
    out: list[tuple[float, float, bool]] = []
    for f in areas:

        def over(sv: FloatArray, poly: shapely.Geometry = f.polygon) -> npt.NDArray[np.bool_]:
            return np.asarray(shapely.intersects(motion.polygons_at(sv, shrink), poly))

        def wholly(sv: FloatArray, poly: shapely.Geometry = f.polygon) -> npt.NDArray[np.bool_]:
            return np.asarray(shapely.covers(poly, motion.polygons_at(sv, shrink)))

        ins = motion.intervals(wholly)
        foot = f.kind is TerrainKind.HILL and float(shapely.distance(start, f.polygon)) <= tol
        for a, e in motion.intervals(over):
            if a <= 0.0 and not foot:
                continue  # in it at the start: not going in from outside
            b = min((c for c, _d in ins if a <= c <= e), default=e)
            at, to = float(motion.travelled(a)), float(motion.travelled(b))
            if b >= len(motion.legs) and not any(a <= c <= e for c, _d in ins):
                to = math.inf  # astride at the way's end: it never gets wholly in on this way
            if to > at:  # up onto the hill's edge from its foot: where it is wholly on it
                out.append((at, to, foot and at <= tol and any(a <= c <= e for c, _d in ins)))
    return tuple(out)


def _joined(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Overlapping ``(start, end)`` stretches joined, in order."""
    out: list[tuple[float, float]] = []
    for a, e in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((a, e))
    return out


def _point_at(pts: Sequence[tuple[float, float]], lens: Sequence[float], at: float) -> tuple[float, float]:
    """The point ``at`` cm along the polyline ``pts`` (cumulative lengths ``lens``)."""
    i = min(max(1, bisect.bisect_left(lens, at)), len(pts) - 1)
    span = lens[i] - lens[i - 1]
    frac = 0.0 if span <= 0 else (at - lens[i - 1]) / span
    (x0, y0), (x1, y1) = pts[i - 1], pts[i]
    return (x0 + (x1 - x0) * frac, y0 + (y1 - y0) * frac)


__all__ = [
    "COSTLY_KINDS",
    "SAMPLE_STEP_CM",
    "SWEEP_SAGITTA_CM",
    "WHOLE_BASE_KINDS",
    "BaseMotion",
    "Leg",
    "Pose",
    "Surcharge",
    "WayCost",
    "paid_length",
    "terrain_surcharges",
    "turn_between",
    "whole_base_stops",
]
