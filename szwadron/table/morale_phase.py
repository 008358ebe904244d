"""2.2, 6.6, 6.7, 6.8 — the morale phase of one side at the table, with exact odds.

:func:`morale_phase` answers, for every unit of one side that is not in the normal state:
may it try to reorganise (6.8.2: no enemy figure within 10 cm; 6.8.3: no figure engaged) and
with what chance (6.8.4); if it panics and does not rally, how far it flees (6.6.2), the chance it
leaves the table (6.6.13), whether it surrenders (6.6.12) and which own units it passes through
with their test odds (6.4.3, 6.6.11); if it pursues, how far and whether it reaches the unit it
pursues (6.7.1). It also gives the casualty-test table (6.2.4, 6.3) of every unit of the side.

All chances are exact :class:`~fractions.Fraction` (2d6 gives fractions of 36, a morale test
sixths); distances come from :mod:`szwadron.geometry` (PD-3: least edge-to-edge distances).

>>> from szwadron.models import Scenario
>>> inf = {"id": "inf", "name": "Line", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
...        "Z": 24, "UW": 3, "C": 3, "M": 4}
>>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
...     {"id": "a", "side": "A", "profile": inf, "state": "panic", "bases": [
...         {"x": 10, "y": 11, "facing": 90}, {"x": 12, "y": 11, "facing": 90}]},
...     {"id": "b", "side": "B", "profile": inf, "bases": [{"x": 40, "y": 50, "facing": 270}]}]})
>>> report = morale_phase(sc, "A")
>>> u = report.units[0]
>>> u.may_reorganise, u.reorganise_chance      # 6.8.2, 6.8.4: M 4
(True, Fraction(2, 3))
>>> u.off_table_chance   # flees 2d6 × 2 cm from 10 cm: needs 2d6 ≥ 6 (26/36), if it does not rally
Fraction(13, 54)

Decisions where the rules are silent (the flight model; each is also stated where it is made):

* Decision (direction, issue 15): a fleeing figure moves straight towards its own table edge,
  perpendicular to it — side A's edge is y = 0, so its figures move in −y; side B's move in +y —
  when that straight line is free: it is the shortest way (6.6.9). The figure is translated, not
  turned. When the straight line is barred (an enemy figure or its zone, ground closed to its
  kind) or crosses an own unit, the figure takes the shortest way round
  (:class:`szwadron.table.flight.FlightField`, docs/decisions.md "Flight"), through own units only
  when there is no other way (6.6.8, 6.6.11); when enemies and closed ground leave no way at all,
  it flees straight and is stopped (6.6.12). A straight line that runs within the enemy's fire
  or move ranges is left for the way out of them when that way is exposed less (6.6.6–6.6.8;
  leaving the table ends the exposure too).
* Decision (figure by figure): 6.6.12 and 6.6.13 speak of a *jednostka* — a figure, the word of
  5.4.3 and 6.8.2 (the unit is an *oddział*) — and figures move one after another (3.1.1) and a
  panicking unit needs no coherency (6.1.3). So each figure meets the edge, or is stopped, on its
  own. A figure is removed at the edge (6.6.13) when the flight distance is *more* than its
  distance to the edge, measured from its point nearest the edge (the edge reached with flight
  left; exactly reaching the edge leaves it on the table). The whole unit leaves the table when
  every figure does, i.e. when the flight exceeds the distance of the figure *farthest* from the
  edge: that is ``off_table_chance``. ``figures_lost`` counts the figures removed.
* Decision (blocked): a figure is stopped by the first of: an enemy figure's control zone (2 cm,
  exact rounded zone; 6.6.10), the base of an enemy figure of a panicking unit (no zone, 1.4.1;
  3.1.3), terrain its kind may not enter (3.2.4, 3.2.5). A figure already standing in an enemy
  zone (it was charged) may move on out of it (6.6.5) but never through that enemy figure.
  Bases may touch and overlap by the PD-3 tolerance (0.05 cm) before they block.
* Decision (surrender, 6.6.12): a figure stopped before its edge with flight left, with an enemy
  figure within 10 cm of it where it stops, surrenders and is removed. ``surrenders`` is true
  when the unit's flight, should it flee, ends in the surrender of every figure whatever the
  dice; ``surrender_chance`` is the chance that at least one figure surrenders.
* Decision (pass-through, 6.6.11): an own figure is passed through when the straight path of a
  fleeing figure overlaps it (deeper than the PD-3 tolerance) before the flight ends, the
  figure is stopped or it leaves the table. Each such unit tests once (6.4.3) — one in panic
  only if it reorganised first (2.2.1: the reorganisations come before the flights), so its
  test is weighted by its chance to reorganise; the flight of a
  unit panicked that way is not followed here (``morale --apply`` makes it, 2.2.1 IV). Figures
  of the fleeing unit do not block each other on the way (6.1.3: no coherency needed), but none
  ends on another, nor on another unit, nor astride the edge of a wood it cannot enter whole
  (3.1.3, 3.2.2: ``szwadron.game.apply``, where the flight is applied).
* Pursuit (6.7.1, 6.7.5): a pursuing unit moves towards the enemy unit it pursues — the unit's
  ``pursuing``, which ``melee --apply`` records — whether that unit flees or was repulsed.
  Decision (6.7.10): when no pursued unit is named, or it has left the table, it pursues the
  nearest enemy unit in panic, else the nearest enemy unit. Its chance to reach it is the chance
  of the 2d6 totals with which the applied move leaves it engaged with it (5.1.2, PD-14), each
  total moved as the move makes it (:meth:`szwadron.table.pursuit.PursuitPlan.reaches`): each
  figure along its way (the straight slide into contact, or the way round own units and closed
  ground; an enemy of another unit on it stops it, 6.7.5), the roll paying the terrain surcharges
  on the way (3.2), the ranks closing up behind the figures ahead (3.1.3). ``way_cm`` is the
  shortest way into edge contact of any figure alone, ``terrain_cm`` how much of its cost is
  surcharge. The enemy units on the way (6.7.5) are those the figures meet on those ways.
  Own pursuing units move in this phase, as 6.8.1.III says; the enemy's units pursuing this
  side's units move in it too (2.2.1.V; 6.7.3 allows both), which ``morale --apply`` makes
  (``enemy_pursuits=True`` lists them). They move after this side's flights (2.2.1 IV before V):
  where the unit an enemy pursuer pursues panics, it first reorganises and stands or flees, and
  the pursuer's chance to reach it is exact over both dice — for each flight total, the
  pursuit totals that reach it where that flight leaves it (``_after_the_flight``). Decision:
  the other units of the phase are read where they stand
  (docs/decisions.md "The enemy's pursuer moves after the flight").
* Decision (modifiers, PD-16): a unit whose every base centre stands in a fortification tests
  with the fortification bonus; no other modifier is applied to the tests of the phase.
* Decision (kinds): the unit's own profile gives the flight (6.6.2): infantry × 2, cavalry × 4,
  foot artillery × 1 only if its R > 0 (else it does not flee), horse artillery × 3; a unit of
  limbers flees like horse artillery (a horse team).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.terrain import TerrainShape, forbidden_rule, terrain_shapes
from szwadron.i18n import _
from szwadron.models import Kind, Scenario, TerrainKind, Unit, UnitState
from szwadron.odds.dice import Distribution, d
from szwadron.odds.morale import (
    CasualtyTest,
    casualty_modifier,
    casualty_test,
    morale_pass_chance,
    morale_target,
)
from szwadron.settings import DEFAULT_SETTINGS, RulesSettings
from szwadron.table.audit import engaged_with_bases
from szwadron.table.flight import (
    AVOID_WEIGHT,
    AVOIDED_KINDS,
    COSTLY_KINDS,
    FLIGHT_MARGIN_CM,
    FlightField,
    FlightWalk,
    WayCost,
    enemy_ranges,
    way_cost,
)
from szwadron.table.pursuit import PursuitPlan, along, furthest_free, pursuit_plan

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

#: 6.6.2, 6.7.1: flight and pursuit are 2d6 times a number of cm.
TWO_D6: Distribution[int] = d(6) + d(6)
_INF = float("inf")
_TINY = 1e-12


# ----------------------------------------------------------------------------- distances rolled


def flight_multiplier(kind: Kind | str, settings: RulesSettings = DEFAULT_SETTINGS) -> int:
    """6.6.2 — cm per pip of 2d6 a fleeing unit of ``kind`` runs (settings ``flight_multiplier_*``).

    Decision: limbers flee like horse artillery.

    >>> [flight_multiplier(k) for k in ("infantry", "cavalry", "foot_artillery", "horse_artillery")]
    [2, 4, 1, 3]
    """
    return settings.flight_multiplier(Kind(kind))


def flight_distribution(
    kind: Kind | str, move: float, settings: RulesSettings = DEFAULT_SETTINGS
) -> Distribution[int]:
    """6.6.2 — the flight distance in cm: 2d6 × 2 (infantry), × 4 (cavalry), × 1 (foot artillery,
    only if its R > 0 — otherwise it does not flee: 0 cm), × 3 (horse artillery).

    >>> flight_distribution("cavalry", 24).probability(48)
    Fraction(1, 36)
    >>> flight_distribution("foot_artillery", 0).outcomes(), flight_distribution("foot_artillery", 4).outcomes()[:2]
    ([0], [2, 3])
    """
    k = Kind(kind)
    m = flight_multiplier(k, settings)
    if m == 0 or (k is Kind.FOOT_ARTILLERY and move <= 0):
        return Distribution.point(0)
    return TWO_D6.map(lambda pips: pips * m)


def pursuit_distribution(
    kind: Kind | str, settings: RulesSettings = DEFAULT_SETTINGS
) -> Distribution[int] | None:
    """6.7.1 — the pursuit distance in cm: 2d6 × 2 (infantry), × 4 (cavalry); ``None`` for
    artillery (and limbers), which never pursue.

    >>> pursuit_distribution("infantry").mean(), pursuit_distribution("horse_artillery")
    (Fraction(14, 1), None)
    """
    k = Kind(kind)
    if k is Kind.INFANTRY:
        m = settings.pursuit_multiplier_infantry
    elif k is Kind.CAVALRY:
        m = settings.pursuit_multiplier_cavalry
    else:
        return None
    return TWO_D6.map(lambda pips: pips * m)


def chance_more_than(dist: Distribution[int], cm: float, eps: float = 1e-6) -> Fraction:
    """P(the rolled distance is *more* than ``cm``) — edge reached with flight left (6.6.13).

    >>> chance_more_than(flight_distribution("infantry", 12), 10.0)   # 2d6 ≥ 6
    Fraction(13, 18)
    """
    return sum((dist.probability(v) for v in dist.outcomes() if v > cm + eps), Fraction(0))


def chance_at_least(dist: Distribution[int], cm: float, eps: float = 1e-6) -> Fraction:
    """P(the rolled distance is at least ``cm``) — a pursuit reaching its enemy (6.7.4).

    >>> chance_at_least(pursuit_distribution("infantry"), 24.0)    # 2d6 = 12
    Fraction(1, 36)
    """
    return sum((dist.probability(v) for v in dist.outcomes() if v + eps >= cm), Fraction(0))


def flight_direction(side: str) -> tuple[float, float]:
    """Decision (6.6.7) — the unit vector towards a side's own table edge: A is y = 0, B y = depth.

    >>> flight_direction("A"), flight_direction("B")
    ((0.0, -1.0), (0.0, 1.0))
    """
    if side == "A":
        return (0.0, -1.0)
    if side == "B":
        return (0.0, 1.0)
    raise InvalidDataError(_("side must be 'A' or 'B', got {side!r}").format(side=side))


# ------------------------------------------------------------------ first contact along a ray


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    out: FloatArray = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _outward_normals(corners: FloatArray) -> FloatArray:
    """Unit outward normals of the edges of convex polygons ``(..., k, 2)``."""
    e = np.roll(corners, -1, axis=-2) - corners
    n = np.stack([e[..., 1], -e[..., 0]], axis=-1)
    n = n / np.maximum(np.linalg.norm(n, axis=-1, keepdims=True), _TINY)
    centre = corners.mean(axis=-2, keepdims=True)
    mid = (corners + np.roll(corners, -1, axis=-2)) / 2.0
    flip = np.einsum("...j,...j->...", n, mid - centre) < 0
    out: FloatArray = np.where(flip[..., None], -n, n)
    return out


def _ray_segments(p: FloatArray, v: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """Distance along ``v`` from points ``p (..., P, 2)`` to segments ``a→b (..., S, 2)``:
    ``(..., P, S)``, ``inf`` where the ray misses (or runs parallel)."""
    e = (b - a)[..., None, :, :]
    w = a[..., None, :, :] - p[..., :, None, :]
    denom = _cross(np.broadcast_to(v, e.shape), e)
    ok = np.abs(denom) > _TINY
    safe = np.where(ok, denom, 1.0)
    t = _cross(w, e) / safe
    s = _cross(w, np.broadcast_to(v, w.shape)) / safe
    hit = ok & (t >= -1e-9) & (s >= -1e-12) & (s <= 1 + 1e-12)
    out: FloatArray = np.where(hit, np.maximum(t, 0.0), _INF)
    return out


def _ray_circles(p: FloatArray, v: FloatArray, c: FloatArray, r: FloatArray) -> FloatArray:
    """Distance along ``v`` from points ``p (..., P, 2)`` into circles ``c (..., C, 2)`` of radius
    ``r (...)``: ``(..., P, C)``; grazing (tangent) rays miss."""
    w = p[..., :, None, :] - c[..., None, :, :]
    bq = np.einsum("...j,j->...", w, v)
    rr = np.asarray(r, dtype=float)[..., None, None]
    disc = bq * bq - (np.einsum("...j,...j->...", w, w) - rr * rr)
    ok = (disc > _TINY) & (rr > 0)
    t = -bq - np.sqrt(np.where(ok, disc, 0.0))
    out: FloatArray = np.where(ok & (t >= -1e-9), np.maximum(t, 0.0), _INF)
    return out


def first_contact(
    moving: npt.ArrayLike, obstacle: npt.ArrayLike, radius: npt.ArrayLike, direction: tuple[float, float]
) -> FloatArray:
    """1.4.1, 6.6.10 — how far convex polygons ``moving (..., k, 2)`` travel along ``direction``
    before they first touch the area within ``radius`` of convex polygons ``obstacle (..., m, 2)``.

    Exact for rounded zones: contact happens at a corner of the moving polygon against an edge of
    the obstacle pushed out by the radius or against the circle around an obstacle corner, or at
    an obstacle corner against an edge of the moving polygon pushed out by the radius. The pairs
    must be apart at the start (``inf`` when they never meet; grazing does not count).

    >>> from szwadron.geometry.bases import base_corners
    >>> me = base_corners(0.0, 10.0, 90.0, 2.0, 2.0)
    >>> float(first_contact(me, base_corners(0.0, 0.0, 90.0, 2.0, 2.0), 2.0, (0.0, -1.0)))  # 8 − 2
    6.0
    >>> # 1 cm to the side: my corner (1, 9) meets the zone's rounded corner around (2, 1)
    >>> round(float(first_contact(me, base_corners(3.0, 0.0, 90.0, 2.0, 2.0), 2.0, (0.0, -1.0))), 6)
    6.267949
    """
    mv = np.asarray(moving, dtype=float)
    ob = np.asarray(obstacle, dtype=float)
    r = np.asarray(radius, dtype=float)
    lead = np.broadcast_shapes(mv.shape[:-2], ob.shape[:-2], r.shape)
    mv = np.broadcast_to(mv, lead + mv.shape[-2:])
    ob = np.broadcast_to(ob, lead + ob.shape[-2:])
    r = np.broadcast_to(r, lead)
    v = np.asarray(direction, dtype=float)
    rn = r[..., None, None]
    ob_n = _outward_normals(ob)
    oa = ob + rn * ob_n
    obb = np.roll(ob, -1, axis=-2) + rn * ob_n
    t1 = _ray_segments(mv, v, oa, obb).min(axis=(-1, -2))
    t2 = _ray_circles(mv, v, ob, r).min(axis=(-1, -2))
    mv_n = _outward_normals(mv)
    ma = mv + rn * mv_n
    mb = np.roll(mv, -1, axis=-2) + rn * mv_n
    t3 = _ray_segments(ob, -v, ma, mb).min(axis=(-1, -2))
    out: FloatArray = np.minimum(np.minimum(t1, t2), t3)
    return out


def _first_contact_segments(moving: FloatArray, segments: FloatArray, v: FloatArray) -> float:
    """How far a convex polygon ``(k, 2)`` travels along ``v`` before it meets any of the
    segments ``(S, 2, 2)`` (the outline of any polygon, holes included)."""
    if segments.size == 0:
        return _INF
    t1 = _ray_segments(moving, v, segments[:, 0], segments[:, 1]).min()
    ends = segments.reshape(-1, 2)
    t3 = _ray_segments(ends, -v, moving, np.roll(moving, -1, axis=0)).min()
    return float(min(t1, t3))


def _outline_segments(geometry: shapely.Geometry) -> FloatArray:
    """Every edge of a (multi)polygon's outline as ``(S, 2, 2)``."""
    segs: list[FloatArray] = []
    for line in shapely.get_parts(shapely.boundary(geometry)):
        c = shapely.get_coordinates(line)
        if len(c) >= 2:
            segs.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(segs) if segs else np.zeros((0, 2, 2))


# ------------------------------------------------------------------------------------ reports


@dataclass(frozen=True)
class CasualtyRow:
    """6.2.4, 6.3 — the test after losing ``lost`` figures (strength ``strength`` left)."""

    lost: int
    strength: int
    modifier: int
    target: int
    test: CasualtyTest


@dataclass(frozen=True)
class UnitCasualtyTests:
    """6.2.4 — a unit's casualty tests for every number of figures it may lose."""

    id: str
    state: str
    morale: int
    strength: int
    initial: int
    modifier: int
    takes_tests: bool
    rows: tuple[CasualtyRow, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "id": self.id,
            "state": self.state,
            "morale": self.morale,
            "strength": self.strength,
            "initial": self.initial,
            "modifier": self.modifier,
            "takes_tests": self.takes_tests,
            "tests": [
                {
                    "lost": r.lost,
                    "strength": r.strength,
                    "casualty_modifier": r.modifier,
                    "target": r.target,
                    **r.test.to_json(),
                }
                for r in self.rows
            ],
        }


@dataclass(frozen=True)
class FigureFlight:
    """One fleeing figure: distance to its edge, where it is stopped and by what."""

    base: str
    edge_cm: float
    blocked_cm: float | None
    blocked_by: str | None
    surrenders_if_blocked: bool
    way: tuple[tuple[float, float], ...] = ()
    """6.6.7-6.6.11: the way its centre takes round what bars the straight line (the points of
    the planned way, from its centre); empty when it flees straight to its own edge over ground
    that costs no more than its length."""
    way_cost: tuple[float, ...] = ()
    """3.2: the flight distance spent on reaching each point of ``way`` where terrain costs more
    than the way's length (a surcharge paid at a point: that point twice); empty otherwise."""


@dataclass(frozen=True)
class PassThrough:
    """6.4.3, 6.6.11 — an own unit on the flight path: the chance it is passed through in this
    phase (reorganisation counted first), its test and its chance to panic from it."""

    unit: str
    from_cm: float
    chance: Fraction
    test_pass: Fraction | None
    panic_chance: Fraction


@dataclass(frozen=True)
class PursuitStrike:
    """6.7.5, 6.7.6 — another enemy unit on the pursuit's way: the first of the pursuing figures
    meets it after a move of ``from_cm`` (its terrain surcharges paid, 3.2); ``chance`` that the
    pursuit gets that far (and may attack it)."""

    unit: str
    figures: tuple[str, ...]
    from_cm: float
    chance: Fraction


@dataclass(frozen=True)
class PursuitReport:
    """6.7.1 — a pursuing unit's move this phase: whom, how far away (``gap_cm``, edge to edge;
    ``way_cm``, the move its shortest way into contact costs, ``terrain_cm`` of it terrain
    surcharges, 3.2), the chance to reach it (the 2d6 totals with which the move, its ranks
    closing up, 3.1.3, engages it: where nothing closes up, the rolled distance at least
    ``way_cm``), and the other enemy units on its way (6.7.5)."""

    target: str | None
    gap_cm: float | None
    distance: Distribution[int] | None
    reach_chance: Fraction
    on_the_way: tuple[PursuitStrike, ...] = ()
    way_cm: float | None = None
    """6.7.4, PD-14 — the shortest way into edge contact of any figure, as the move takes it
    (:meth:`~szwadron.table.pursuit.PursuitPlan.into_contact_cm`): the move it costs, its terrain
    surcharges paid (3.2); None when none has one."""
    terrain_cm: float = 0.0
    """3.2 — how much of ``way_cm`` is terrain surcharge (a fence crossed, a hill climbed, rough
    ground at 2 cm a cm...); in the JSON only where it is more than 0."""
    flees_first: Fraction | None = None
    """2.2.1 IV, V — an enemy pursuer's pursued unit in panic: the chance that it flees before the
    pursuer moves (it does not reorganise, 6.8.4); ``reach_chance`` and ``on_the_way`` count its
    flight. None where the pursued unit does not flee first (gap and ways: where it stands)."""

    def to_json(self) -> dict[str, Any]:
        """The ``pursuit`` of a ``units[]`` entry of ``szwadron morale --json``."""
        return {
            "target": self.target,
            "gap_cm": None if self.gap_cm is None else round(self.gap_cm, 6),
            "way_cm": None if self.way_cm is None else round(self.way_cm, 6),
            **({"terrain_cm": round(self.terrain_cm, 6)} if round(self.terrain_cm, 6) > 0 else {}),
            "pmf": []
            if self.distance is None
            else [{"cm": cm, "p": float(q)} for cm, q in self.distance.probabilities().items()],
            "reach_chance": float(self.reach_chance),
            "on_the_way": [
                {
                    "unit": w.unit,
                    "figures": list(w.figures),
                    "from_cm": round(w.from_cm, 6),
                    "chance": float(w.chance),
                }
                for w in self.on_the_way
            ],
        }


@dataclass(frozen=True)
class UnitMorale:
    """6.8 — one unit not in the normal state, in its side's morale phase."""

    id: str
    state: str
    kind: str
    strength: int
    may_reorganise: bool
    reason: str
    reorganise_chance: Fraction
    flight: Distribution[int] | None
    flight_multiplier: int
    flight_chance: Fraction
    off_table_chance: Fraction
    removed_chance: Fraction
    surrender_chance: Fraction
    surrenders: bool
    figures_lost: Distribution[int]
    figures: tuple[FigureFlight, ...]
    pass_through: tuple[PassThrough, ...]
    pursuit: PursuitReport | None

    def to_json(self) -> dict[str, Any]:
        """The ``units[]`` entry of ``szwadron morale --json``."""
        flight = self.flight
        pursuit = None if self.pursuit is None else self.pursuit.to_json()
        return {
            "id": self.id,
            "state": self.state,
            "may_reorganise": self.may_reorganise,
            "reason": self.reason,
            "reorganise_chance": float(self.reorganise_chance),
            "flight_pmf": []
            if flight is None
            else [{"cm": cm, "p": float(q)} for cm, q in flight.probabilities().items()],
            "off_table_chance": float(self.off_table_chance),
            "surrenders": self.surrenders,
            "pass_through": [pt.unit for pt in self.pass_through],
            "kind": self.kind,
            "strength": self.strength,
            "flight_chance": float(self.flight_chance),
            "flight_multiplier": self.flight_multiplier,
            "removed_chance": float(self.removed_chance),
            "surrender_chance": float(self.surrender_chance),
            "figures_lost_pmf": [
                {"figures": k, "p": float(q)} for k, q in self.figures_lost.probabilities().items()
            ],
            "pass_through_tests": [
                {
                    "id": pt.unit,
                    "from_cm": round(pt.from_cm, 6),
                    "chance": float(pt.chance),
                    "test_pass": None if pt.test_pass is None else float(pt.test_pass),
                    "panic_chance": float(pt.panic_chance),
                }
                for pt in self.pass_through
            ],
            "figures": [
                {
                    "base": f.base,
                    "edge_cm": round(f.edge_cm, 6),
                    "blocked_cm": None if f.blocked_cm is None else round(f.blocked_cm, 6),
                    "blocked_by": f.blocked_by,
                    "surrenders_if_blocked": f.surrenders_if_blocked,
                }
                for f in self.figures
            ],
            "pursuit": pursuit,
        }


@dataclass(frozen=True)
class MoralePhaseReport:
    """2.2, 6.8 — the morale phase of one side: units not in normal state, casualty tests."""

    scenario: str
    side: str
    units: tuple[UnitMorale, ...]
    casualty_tests: tuple[UnitCasualtyTests, ...]
    table: Battlefield | None = field(default=None, repr=False, compare=False)
    """The table it was computed on (for plotting; not part of the JSON)."""
    enemy_pursuits: tuple[UnitMorale, ...] = ()
    """2.2.1 V — the enemy's units in uncontrolled pursuit of this side's units, which move (and
    may fight) in this phase too, with no reorganisation test here (``enemy_pursuits=True``),
    after the flight of the unit they pursue where it panics (2.2.1 IV)."""

    def unit(self, unit_id: str) -> UnitMorale:
        """The report of one unit; ``KeyError`` if it is normal or not on this side."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def to_json(self) -> dict[str, Any]:
        """The document of ``szwadron morale --json``."""
        return {
            "scenario": self.scenario,
            "side": self.side,
            "units": [u.to_json() for u in self.units],
            "casualty_tests": [c.to_json() for c in self.casualty_tests],
            "enemy_pursuits": [
                {"id": u.id, **u.pursuit.to_json()} for u in self.enemy_pursuits if u.pursuit is not None
            ],
        }


# ------------------------------------------------------------------------------- the phase


class _Table:
    """The battlefield with what the phase asks of it, computed once."""

    def __init__(self, bf: Battlefield, side: str) -> None:
        self.bf = bf
        self.s = bf.settings
        self.eps = self.s.distance_epsilon_cm
        self.tol = self.s.overlap_tolerance_cm + self.eps
        self.side_code = 0 if side == "A" else 1
        self.v = np.asarray(flight_direction(side))
        shrink = 2.0 * self.tol
        self.shrunk = base_corners(
            bf.x, bf.y, bf.facing, np.maximum(bf.width - shrink, 1e-3), np.maximum(bf.depth - shrink, 1e-3)
        )
        self.unit_panicking = bf.panicking
        self._terrain_segments: dict[int, FloatArray] = {}
        self._fields: dict[tuple[float, float, tuple[bool, ...]], FlightField] = {}
        fleeing = np.flatnonzero((bf.side == self.side_code) & bf.panicking[bf.unit_of])
        to_edge = bf.y[fleeing] if self.side_code == 0 else bf.scenario.table.depth - bf.y[fleeing]
        self.flight_reach = float(to_edge.max(initial=0.0)) + FLIGHT_MARGIN_CM

    # -- measurements --------------------------------------------------------------------------

    def nearest_enemy(self, corners: FloatArray, limit: float) -> tuple[float, int | None]:
        """Least distance from polygons ``corners (K, 4, 2)`` to an enemy base within ``limit``."""
        bf = self.bf
        polys = polygons_from_corners(corners).reshape(-1)
        q, t = bf.tree.query(polys, predicate="dwithin", distance=limit + self.eps)
        keep = bf.side[t] != self.side_code
        q, t = q[keep], t[keep]
        if q.size == 0:
            return _INF, None
        dist = polygon_distance(corners[q], bf.corners[t])
        k = int(np.argmin(dist))
        return float(dist[k]), int(t[k])

    def enemy_within(self, corners: FloatArray, limit: float) -> BoolArray:
        """For each polygon of ``corners (K, 4, 2)``: is an enemy base within ``limit`` (PD-3)?"""
        bf = self.bf
        polys = polygons_from_corners(corners).reshape(-1)
        q, t = bf.tree.query(polys, predicate="dwithin", distance=limit + self.eps)
        keep = bf.side[t] != self.side_code
        q, t = q[keep], t[keep]
        out: BoolArray = np.zeros(len(corners), dtype=bool)
        if q.size:
            close = polygon_distance(corners[q], bf.corners[t]) <= limit + self.eps
            out[q[close]] = True
        return out

    def engaged_with(self, bases: IntArray) -> list[str]:
        """5.1.2, PD-14 — enemy units engaged with these bases (:func:`engaged_with_bases`: across an
        obstacle too, PD-4)."""
        return engaged_with_bases(self.bf, bases)

    def modifier(self, bases: IntArray) -> int:
        """PD-16 — the fortification bonus (:func:`morale_modifier`)."""
        return morale_modifier(self.bf, bases)

    def edge_distance(self, corners: FloatArray) -> FloatArray:
        """Decision (6.6.13) — straight distance from each base's point nearest its own edge."""
        ys = corners[..., 1]
        dist = ys.min(axis=-1) if self.side_code == 0 else self.bf.scenario.table.depth - ys.max(axis=-1)
        out: FloatArray = np.maximum(dist, 0.0)
        return out

    def terrain_segments(self, t: int) -> FloatArray:
        """Outline of terrain feature ``t`` shrunk by the PD-3 tolerance."""
        if t not in self._terrain_segments:
            poly = shapely.buffer(self.bf.terrain[t].polygon, -self.tol, join_style="mitre")
            self._terrain_segments[t] = _outline_segments(poly)
        return self._terrain_segments[t]

    # -- the flight of one unit ----------------------------------------------------------------

    @cached_property
    def ranges(self) -> shapely.Geometry | None:
        """6.6.6-6.6.7 — the ground within the enemy's fire and move ranges (computed once)."""
        return enemy_ranges(self.bf, self.side_code)

    def flight_field(self, b: int) -> FlightField:
        """6.6.7-6.6.11 — the way to the edge for figures like base ``b`` (its width and the
        ground closed to its kind), computed once per kind of figure."""
        bf = self.bf
        kind = bf.kinds[b]
        closed = tuple(forbidden_rule(kind, f) is not None for f in bf.terrain)
        key = (round(float(bf.width[b]), 6), round(float(bf.depth[b]), 6), closed)
        if key not in self._fields:
            self._fields[key] = FlightField(
                bf,
                self.side_code,
                float(bf.width[b]) / 2.0,
                kind,
                self.flight_reach,
                self.ranges,
                math.hypot(float(bf.width[b]), float(bf.depth[b])) / 2.0,
            )
        return self._fields[key]

    # long: 6.6.7-6.6.12 per figure over shared arrays: straight line, what bars it, the planned way round, pass-through, surrender.
    def flight_geometry(
        self, u: int
    ) -> tuple[
        FloatArray,
        FloatArray,
        list[str | None],
        BoolArray,
        dict[int, FloatArray],
        list[tuple[tuple[float, float], ...]],
        list[tuple[float, ...]],
    ]:
        """Per figure: edge distance, blocking distance (inf), blocker, surrender flag; per own
        unit on the path: the distance at which each figure would enter it (inf if never); per
        figure its way round (the centre's points), empty when it flees straight; and the flight
        distance spent on reaching each point of the way where terrain costs more than its
        length (3.2), else empty. Distances are flight distance (cm of move, terrain counted)."""
        bf, v = self.bf, self.v
        bases = bf.unit_bases(u)
        corners = bf.corners[bases]
        kk = len(bases)
        edge = self.edge_distance(corners)
        block = np.full(kk, _INF)
        blocker: list[str | None] = [None] * kk
        enter: dict[int, FloatArray] = {}
        zone = self.s.control_zone_cm
        swept = np.concatenate([corners, corners + edge[:, None, None] * v], axis=1)
        hulls = shapely.convex_hull(shapely.multipoints(swept))
        q, t = bf.tree.query(hulls, predicate="dwithin", distance=zone + self.eps)
        other = bf.unit_of[t] != u
        q, t = q[other], t[other]
        if q.size:
            enemy = bf.side[t] != self.side_code
            d0 = polygon_distance(corners[q], bf.corners[t])
            r = np.where(enemy & ~self.unit_panicking[bf.unit_of[t]], zone, 0.0)
            in_zone = (r > 0) & (d0 < r - self.eps)
            r = np.where(in_zone, 0.0, r)  # already in its zone: may leave it, not cross the figure
            use_shrunk = r == 0
            obstacle = np.where(use_shrunk[:, None, None], self.shrunk[t], bf.corners[t])
            radius = np.where(use_shrunk, 0.0, r - self.eps)
            start_overlap = use_shrunk & (polygon_distance(corners[q], self.shrunk[t]) <= 0.0)
            hit = first_contact(corners[q], obstacle, radius, tuple(v))
            for k, j, h, en, so in zip(
                q.tolist(), t.tolist(), hit.tolist(), enemy.tolist(), start_overlap.tolist(), strict=True
            ):
                if en:
                    if not so and h < block[k]:  # overlapping enemy at the start: a set-up error
                        block[k], blocker[k] = h, bf.base_ids[j]
                else:
                    ou = int(bf.unit_of[j])
                    arr = enter.setdefault(ou, np.full(kk, _INF))
                    arr[k] = min(arr[k], 0.0 if so else h)
        avoid_hit = np.zeros(kk, dtype=bool)  # 6.6.8: the straight line meets terrain to avoid
        if bf.terrain:
            qt, tt = bf.terrain_tree.query(hulls, predicate="intersects")
            for k, ti in zip(qt.tolist(), tt.tolist(), strict=True):
                if forbidden_rule(bf.kinds[bases[k]], bf.terrain[ti]) is None:
                    avoid_hit[k] |= bf.terrain[ti].kind in AVOIDED_KINDS
                    continue
                segs = self.terrain_segments(ti)
                poly = bf.terrain[ti].polygon
                inner = shapely.buffer(poly, -self.tol, join_style="mitre")
                if shapely.intersects(bf.polygons[bases[k]], inner):
                    continue  # standing in it at the start: a set-up error (szwadron check)
                h = _first_contact_segments(corners[k], segs, v)
                if h < block[k]:
                    block[k], blocker[k] = h, bf.terrain[ti].id
        # 6.6.7-6.6.11: a figure whose straight way is barred, or crosses an own unit, takes the
        # shortest way round (through own units only when there is no other way)
        reach = np.minimum(block, edge)
        crossing = np.zeros(kk, dtype=bool)
        for arr in enter.values():
            crossing |= arr < reach - self.eps
        barred = (block < edge - self.eps) | crossing
        stops = corners + np.minimum(block, edge)[:, None, None] * v
        ways: list[tuple[tuple[float, float], ...]] = [()] * kk
        # 6.6.6-6.6.7: a straight line that runs within the enemy's fire or move ranges longer
        # than the way out of them is left for that way (exactly when the way out and on to the
        # edge is two straight legs, else on the planner's grid)
        exposure = np.zeros(kk)
        if self.ranges is not None:
            starts = np.stack([bf.x[bases], bf.y[bases]], axis=1)
            lines = shapely.linestrings(np.stack([starts, starts + reach[:, None] * v], axis=1))
            near = shapely.distance(self.ranges, lines) < bf.width[bases] / 2.0
            for k in np.flatnonzero(near).tolist():  # only lines that come near a range
                b = int(bases[k])
                exposure[k] = self.flight_field(b).exposure(
                    float(bf.x[b]), float(bf.y[b]), (float(v[0]), float(v[1])), float(reach[k])
                )
        exposed = ~barred & (exposure > self.eps)
        avoid_only = avoid_hit & ~barred & ~exposed
        for k in np.flatnonzero(barred | exposed | avoid_only).tolist():
            b = int(bases[k])
            centre_to_edge = (
                float(bf.y[b]) if self.side_code == 0 else bf.scenario.table.depth - float(bf.y[b])
            )
            field_ = self.flight_field(b)
            nearest = centre_to_edge - float(edge[k])
            way = field_.leave_ranges(float(bf.x[b]), float(bf.y[b]), u, nearest)
            if way is None:
                way = field_.walk(float(bf.x[b]), float(bf.y[b]), u, nearest)
            if not np.isfinite(way.edge):
                continue  # boxed in by enemies and closed ground: it flees straight (6.6.12)
            if exposed[k] and way.in_range >= exposure[k] - (self.eps if way.exact else 2 * way.grid_cm):
                continue  # the straight line leaves the enemy's ranges as soon as any way
            if avoid_only[k] and not self.goes_round(b, float(edge[k]), way):
                continue  # 6.6.8: the straight line is no worse for the terrain it crosses
            straight = {o for o, arr in enter.items() if arr[k] < reach[k] - self.eps}
            if (
                not exposed[k]
                and not avoid_only[k]
                and block[k] >= edge[k] - self.eps
                and set(way.enter) == straight
                and way.edge <= edge[k] + 2 * way.grid_cm
            ):
                continue  # the only way is the straight one, through the same own units: exact
            edge[k], block[k], blocker[k] = way.edge, way.block, way.blocker
            ways[k] = way.points
            stops[k] = corners[k] + np.asarray([way.stop[0] - bf.x[b], way.stop[1] - bf.y[b]])
            for arr in enter.values():
                arr[k] = _INF
            for o, at in way.enter.items():
                enter.setdefault(o, np.full(kk, _INF))[k] = at
        stopped = block < edge - self.eps
        surrender: BoolArray = np.zeros(kk, dtype=bool)
        if stopped.any():  # 6.6.12: an enemy within 10 cm of the figure where it stops
            ks = np.flatnonzero(stopped)
            surrender[ks] = self.enemy_within(stops[ks], self.s.surrender_enemy_cm)
        block = np.where(stopped, block, _INF)
        blocker = [b if s else None for b, s in zip(blocker, stopped.tolist(), strict=True)]
        costs = self.terrain_costs(bases, edge, block, enter, ways)
        return edge, block, blocker, surrender, enter, ways, costs

    def costly_features(self, b: int, points: list[tuple[float, float]]) -> list[TerrainShape]:
        """3.2 — the terrain of :data:`COSTLY_KINDS` open to base ``b``'s kind that its way
        through ``points`` (its centre's) comes near."""
        bf = self.bf
        feats = [f for f in bf.terrain if f.kind in COSTLY_KINDS and forbidden_rule(bf.kinds[b], f) is None]
        if not feats:
            return []
        reach = math.hypot(float(bf.width[b]), float(bf.depth[b])) / 2.0
        line = shapely.buffer(shapely.linestrings(points), reach) if len(points) > 1 else None
        return [f for f in feats if line is not None and shapely.intersects(line, f.polygon)]

    def way_score(self, b: int, points: list[tuple[float, float]]) -> float:
        """6.6.8, 6.6.9 — what the planner minimises, exactly: the flight distance spent along
        ``points`` plus :data:`AVOID_WEIGHT` per cm within terrain the flight avoids."""
        wc = way_cost(self.bf, b, points, self.costly_features(b, points))
        return wc.total + AVOID_WEIGHT * wc.inside

    def goes_round(self, b: int, edge: float, way: FlightWalk) -> bool:
        """6.6.8 — does the planned ``way`` beat the straight line to the edge (``edge`` cm,
        its length) for the terrain they cross? By more than the grid's error (two cells)."""
        bf, v = self.bf, self.v
        start = (float(bf.x[b]), float(bf.y[b]))
        straight = [start, (start[0] + float(v[0]) * edge, start[1] + float(v[1]) * edge)]
        planned = _extended(list(way.points), way.edge, v)
        return self.way_score(b, planned) < self.way_score(b, straight) - 2 * way.grid_cm

    def terrain_costs(
        self,
        bases: IntArray,
        edge: FloatArray,
        block: FloatArray,
        enter: dict[int, FloatArray],
        ways: list[tuple[tuple[float, float], ...]],
    ) -> list[tuple[float, ...]]:
        """3.2 on each figure's way (6.6.8, 6.6.9): the edge, blocking and entering distances,
        cm along the way, become flight distance spent; a way that costs more than its length
        gets its points where the pace changes, and their costs. In place; the costs per figure
        (empty where terrain costs nothing)."""
        bf, v = self.bf, self.v
        costs: list[tuple[float, ...]] = [()] * len(bases)
        if not any(f.kind in COSTLY_KINDS for f in bf.terrain):
            return costs
        for k, b in enumerate(bases.tolist()):
            start = (float(bf.x[b]), float(bf.y[b]))
            length = float(min(block[k], edge[k]))
            points = _extended(list(ways[k]) or [start], length, v)
            feats = self.costly_features(b, points)
            if not feats:
                continue
            wc: WayCost = way_cost(bf, b, points, feats)
            if wc.free:
                continue
            edge[k] = wc.cost_at(float(edge[k]))
            if np.isfinite(block[k]):
                block[k] = wc.cost_at(float(block[k]))
            for arr in enter.values():
                if np.isfinite(arr[k]):
                    arr[k] = wc.cost_at(float(arr[k]))
            ways[k] = wc.points
            costs[k] = wc.costs
        return costs


def morale_modifier(bf: Battlefield, bases: IntArray) -> int:
    """PD-16 — a unit's morale modifier: the fortification bonus when every base centre of
    ``bases`` stands in a fortification, else 0."""
    forts = [t.polygon for t in bf.terrain if t.kind is TerrainKind.FORTIFICATION]
    if not forts:
        return 0
    pts = shapely.points(np.stack([bf.x[bases], bf.y[bases]], axis=-1))
    inside = np.zeros(len(bases), dtype=bool)
    for poly in forts:
        inside |= shapely.covers(poly, pts)
    return bf.settings.fortification_morale_bonus if bool(inside.all()) else 0


def _casualty_tests(
    unit_id: str, state: UnitState, morale: int, strength: int, initial: int, modifier: int
) -> UnitCasualtyTests:
    rows = tuple(
        CasualtyRow(
            lost,
            strength - lost,
            casualty_modifier(strength - lost, initial),
            morale_target(morale, strength - lost, initial, modifier),
            casualty_test(morale, strength - lost, initial, modifier),
        )
        for lost in range(strength)
    )
    return UnitCasualtyTests(
        unit_id, state.value, morale, strength, initial, modifier, state is not UnitState.PANIC, rows
    )


def morale_phase(
    scenario: Scenario | Battlefield,
    side: str,
    *,
    settings: RulesSettings | None = None,
    enemy_pursuits: bool = False,
) -> MoralePhaseReport:
    """2.2, 6.8 — the morale phase of ``side``: every unit not in the normal state, with exact
    odds, and the casualty-test table (6.2.4, 6.3) of every unit of the side.

    Parameters
    ----------
    scenario:
        The set-up (or its :class:`~szwadron.geometry.battlefield.Battlefield`, built once).
    side:
        ``"A"`` or ``"B"``.
    settings:
        Overrides of the scenario's settings.
    enemy_pursuits:
        Also the enemy's units pursuing this side's units (2.2.1 V: they move in this phase;
        :attr:`MoralePhaseReport.enemy_pursuits`), each reaching with no reorganisation first,
        after the pursued unit's reorganisation or flight where it panics (2.2.1 II-IV).

    Raises
    ------
    InvalidDataError
        For a side other than A or B.

    Examples
    --------
    See the module docstring.
    """
    if side not in ("A", "B"):
        raise InvalidDataError(_("side must be 'A' or 'B', got {side!r}").format(side=side))
    bf = Battlefield.of(scenario, settings)
    table = _Table(bf, side)
    sc = bf.scenario
    units: list[UnitMorale] = []
    tests: list[UnitCasualtyTests] = []
    for u, unit in enumerate(sc.units):
        if unit.side != side:
            continue
        bases = bf.unit_bases(u)
        mod = table.modifier(bases)
        morale = unit.profile.morale
        tests.append(_casualty_tests(unit.id, unit.state, morale, unit.strength, unit.starting_strength, mod))
        if unit.state is UnitState.NORMAL:
            continue
        rally = morale_pass_chance(morale, unit.strength, unit.starting_strength, mod)
        if unit.state is UnitState.PANIC:
            units.append(_panic_report(table, u, rally))
        else:
            units.append(_pursuit_report(table, u, rally))
    enemies = _enemy_pursuits(bf, side, {u.id: u for u in units}) if enemy_pursuits else ()
    return MoralePhaseReport(sc.name, side, tuple(units), tuple(tests), bf, enemies)


def _enemy_pursuits(bf: Battlefield, side: str, own: dict[str, UnitMorale]) -> tuple[UnitMorale, ...]:
    """2.2.1 V, 6.7.3 — the enemy's units in pursuit whose target is one of ``side``'s units: they
    move in this side's phase with no reorganisation test (a reorganisation chance of 0), after
    this side's flights (2.2.1 IV): where the pursued unit panics (``own``: this side's reports),
    the chance to reach it counts its reorganisation and its flight first
    (:func:`_after_the_flight`)."""
    other = "B" if side == "A" else "A"
    ids = {unit.id for unit in bf.scenario.units if unit.side == side}
    them = _Table(bf, other)
    out = []
    for u, unit in enumerate(bf.scenario.units):
        if unit.side != other or unit.state in (UnitState.NORMAL, UnitState.PANIC):
            continue
        report = _pursuit_report(them, u, Fraction(0))
        p = report.pursuit
        if p is None or p.target not in ids:
            continue
        quarry = own.get(p.target)
        if quarry is not None and quarry.flight is not None and p.distance is not None:
            report = replace(report, pursuit=_after_the_flight(bf, unit, quarry, p))
        out.append(report)
    return tuple(out)


def _after_the_flight(bf: Battlefield, unit: Unit, quarry: UnitMorale, p: PursuitReport) -> PursuitReport:
    """2.2.1 II-V, 6.6.2, 6.7.1, 6.7.4 — an enemy pursuer's chance to reach the unit it pursues,
    in panic, which moves first in this phase: it reorganises and stands (chance
    ``quarry.reorganise_chance``, 6.8.4; its move to regain coherency, 2.2.1 III, is the player's
    and is not followed: it is read as standing where it is), else it flees (6.6.2) before the
    pursuer moves (2.2.1 IV before V). Exact over both dice: for each flight total, the pursued
    unit's figures where that flight leaves them (:func:`flight_ends`, as ``morale --apply``
    moves them: none left when it leaves the table, 6.6.13, and then nothing to reach), and on
    that position the pursuit totals with which the move reaches it
    (:meth:`~szwadron.table.pursuit.PursuitPlan.reaches`, its ways as the move takes them):

        P(reach) = P(rally) · P(reach | where it stands)
                   + (1 − P(rally)) · Σ_f P(flight f) · P(reach | after flight f).

    Decision: only the pursued unit's own flight is followed; the other units of the phase (other
    flights, the flights of units fled through, 6.4.3, this side's pursuits, 6.8.1 III, other
    enemy pursuers) are read where they stand. The enemy units on the way (6.7.5) are mixed the
    same way: each one's chance over every flight, met after the least distance at which it is
    met, by the figures that meet it after any."""
    assert p.distance is not None and quarry.flight is not None
    sc = bf.scenario
    q = sc.unit(quarry.id)
    dist = p.distance
    flees = 1 - quarry.reorganise_chance
    after: dict[object, tuple[Fraction, Scenario | None]] = {}

    def add(key: object, weight: Fraction, position: Scenario | None) -> None:
        if weight:  # the same ends from several totals (stopped, or off the table): one position
            after[key] = (after.get(key, (Fraction(0), None))[0] + weight, position)

    add("stands", 1 - flees, sc)
    for cm, chance in quarry.flight.probabilities().items():
        gone, ends = flight_ends(quarry, q, sc, float(cm))
        add((gone, ends), flees * chance, _fled(sc, q, gone, ends))
    reach = Fraction(0)
    met: dict[str, tuple[Fraction, float, set[str]]] = {}
    for weight, position in after.values():
        if position is None:  # 6.6.13: every figure left the table, nothing to reach
            continue
        plan = pursuit_plan(position.unit(unit.id), position, position.unit(q.id), max(dist.outcomes()))
        reach += weight * sum(
            (dist.probability(v) for v in dist.outcomes() if plan.reaches(float(v))), Fraction(0)
        )
        for other, (at, figs) in plan.met().items():
            was = met.get(other, (Fraction(0), _INF, set()))
            chance = weight * chance_at_least(dist, at, bf.settings.distance_epsilon_cm)
            met[other] = (was[0] + chance, min(was[1], at), was[2] | {unit.base_id(k) for k in figs})
    order = bf.unit_ids
    strikes = tuple(
        PursuitStrike(other, tuple(sorted(figs)), at, chance)
        for other, (chance, at, figs) in sorted(met.items(), key=lambda kv: (kv[1][1], order.index(kv[0])))
    )
    return replace(p, reach_chance=reach, on_the_way=strikes, flees_first=flees)


def _fled(
    sc: Scenario, unit: Unit, gone: tuple[int, ...], ends: tuple[tuple[int, tuple[float, float]], ...]
) -> Scenario | None:
    """The position after ``unit``'s flight (:func:`flight_ends`), as ``morale --apply`` writes it
    (centres to 6 decimals; the figures removed gone, the starting strength kept, 6.2.4); None when
    no figure is left (6.6.13: the unit has left the table)."""
    if len(gone) == len(unit.bases):
        return None
    at = dict(ends)
    bases = tuple(
        b.model_copy(update={"x": round(at[k][0], 6), "y": round(at[k][1], 6)})
        for k, b in enumerate(unit.bases)
        if k not in gone
    )
    update: dict[str, Any] = {"bases": bases}
    if gone and unit.initial_strength is None:
        update["initial_strength"] = unit.strength
    moved = unit.model_copy(update=update)
    return sc.model_copy(update={"units": tuple(moved if u.id == unit.id else u for u in sc.units)})


def _panic_report(table: _Table, u: int, rally: Fraction) -> UnitMorale:
    """6.6, 6.8.2 — a panicking unit: may it rally; if not, its flight."""
    bf, s = table.bf, table.s
    unit = bf.scenario.units[u]
    bases = bf.unit_bases(u)
    may, reason = _may_reorganise(table, bases)
    p_rally = rally if may else Fraction(0)
    p_flee = 1 - p_rally
    kind = unit.profile.kind
    flight = flight_distribution(kind, unit.profile.move, s)
    edge, block, blocker, surrender, enter, ways, costs = table.flight_geometry(u)
    tally = _FlightTally.of(table, flight, edge, block, surrender, enter)
    total = flight.total
    figures = tuple(
        FigureFlight(
            bf.base_ids[b],
            float(edge[k]),
            None if not np.isfinite(block[k]) else float(block[k]),
            blocker[k],
            bool(surrender[k]),
            ways[k],
            costs[k],
        )
        for k, b in enumerate(bases.tolist())
    )
    return UnitMorale(
        id=unit.id,
        state=unit.state.value,
        kind=kind.value,
        strength=unit.strength,
        may_reorganise=may,
        reason=reason,
        reorganise_chance=p_rally,
        flight=flight,
        flight_multiplier=0 if flight.outcomes() == [0] else flight_multiplier(kind, s),
        flight_chance=p_flee,
        off_table_chance=p_flee * Fraction(tally.off_all, total),
        removed_chance=p_flee * Fraction(tally.removed_all, total),
        surrender_chance=p_flee * Fraction(tally.surr_any, total),
        surrenders=tally.surr_all == total,
        figures_lost=Distribution.mixture(
            [(Distribution.point(0), p_rally), (Distribution(tally.lost_w), p_flee)]
        ),
        figures=figures,
        pass_through=_passes_through(table, tally, p_flee, total),
        pursuit=None,
    )


# ------------------------------------------------------------- where a flight leaves the figures


def flight_ends(
    um: UnitMorale, unit: Unit, scen: Scenario, dist: float
) -> tuple[tuple[int, ...], tuple[tuple[int, tuple[float, float]], ...]]:
    """6.6.2, 6.6.12, 6.6.13, 3.1.3 — where a flight of ``dist`` cm leaves the figures of the
    panicking ``unit`` (``um``: its report of this phase, on ``scen``): the figures removed (the
    edge reached with flight left, 6.6.13; stopped with flight left and an enemy near, 6.6.12) and
    where each other figure ends, ``(figure, centre)`` in figure order — along its way to its
    edge (the Decision of :func:`flight_direction`; round what bars the straight line where the
    phase plans a way, 6.6.7-6.6.11), none ending on another (:func:`_queued`). ``morale
    --apply`` (:mod:`szwadron.game.apply`) moves the unit so, and the odds of an enemy pursuer
    that moves after the flight (2.2.1 IV, V) read the same ends.

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "inf", "name": "Line", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "state": "panic", "bases": [
    ...         {"x": 10, "y": 11, "facing": 90}, {"x": 12, "y": 30, "facing": 90}]}]})
    >>> um = morale_phase(sc, "A").unit("a")
    >>> flight_ends(um, sc.unit("a"), sc, 12.0)     # a/0 is 10 cm from its edge: off the table
    ((0,), ((1, (12.0, 18.0)),))
    """
    dx, dy = flight_direction(unit.side)
    gone: list[int] = []
    steps: list[tuple[int, float]] = []
    for k, f in enumerate(um.figures):
        if f.blocked_cm is not None:
            if dist > f.blocked_cm + 1e-6 and f.surrenders_if_blocked:
                gone.append(k)
                continue
            steps.append((k, min(float(dist), f.blocked_cm)))
        else:
            if dist > f.edge_cm + 1e-6:
                gone.append(k)
                continue
            steps.append((k, float(dist)))

    def at(k: int, step: float) -> tuple[float, float]:
        b, f = unit.bases[k], um.figures[k]
        if f.way:  # 6.6.7-6.6.11: round what bars the straight line, as the phase plans it
            return along(f.way, step, beyond=(dx, dy), costs=f.way_cost)
        return (b.x + dx * step, b.y + dy * step)

    others = [
        shapely.Polygon(base_corners(b.x, b.y, b.facing, *u.base_size(i)))
        for u in scen.units
        if u.id != unit.id
        for i, b in enumerate(u.bases)
    ]
    rough = [
        t.polygon for t in terrain_shapes(scen.terrain) if t.kind in (TerrainKind.FOREST, TerrainKind.ROUGH)
    ]
    ends = _queued(unit, steps, at, scen.settings.overlap_tolerance_cm, others, rough)
    return tuple(gone), tuple(ends)


def _queued(
    unit: Unit,
    steps: Sequence[tuple[int, float]],
    at: Callable[[int, float], tuple[float, float]],
    tolerance: float,
    standing: Sequence[shapely.Polygon] = (),
    rough: Sequence[shapely.Geometry] = (),
) -> list[tuple[int, tuple[float, float]]]:
    """3.1.3, 6.1.3 — where each fleeing figure ends: ``steps`` is how far each would go along
    its way (``at``: the point that far along), but no figure ends on another of its unit
    ("Figurki nie mogą się poruszać przez inne własne figurki, nawet jeśli należą do tego samego
    oddziału"; a fleeing unit needs no coherency, not room): the figures that get furthest are
    placed first, and a figure that would end overlapping one already placed (beyond PD-3's
    tolerance) stops short, as far along its way as leaves it clear — at worst where it stood.
    ``standing``: the bases of the other units, which a flight may pass through (6.6.11) but not
    end on; ``rough``: woods and rough ground, which a figure enters with its whole base or stops
    before (3.2.2). (A pursuit's figures close up along their ways instead:
    :meth:`~szwadron.table.pursuit.PursuitPlan.close_up`.) Returns ``(figure, end point)`` in
    figure order."""
    placed: list[shapely.Polygon] = list(standing)
    ends: dict[int, tuple[float, float]] = {}

    def shape(k: int, point: tuple[float, float]) -> shapely.Polygon:
        w, d = unit.base_size(k)
        return shapely.Polygon(base_corners(point[0], point[1], unit.bases[k].facing, w, d))

    def clear(k: int, poly: shapely.Polygon) -> bool:
        small = tolerance * tolerance
        if any(poly.intersection(other).area > small for other in placed):
            return False
        start = shape(k, at(k, 0.0))
        for area in rough:  # astride the edge, more of it inside than at the start: entering
            inside = poly.intersection(area).area
            if small < inside < poly.area - small and inside > start.intersection(area).area + small:
                return False
        return True

    how_far = dict(steps)
    for k, _d in sorted(steps, key=lambda ks: (-ks[1], ks[0])):

        def free(d: float, k: int = k) -> bool:
            return clear(k, shape(k, at(k, d)))

        point = at(k, furthest_free(how_far[k], free))
        ends[k] = point
        placed.append(shape(k, point))
    return [(k, ends[k]) for k in sorted(ends)]


def _extended(points: list[tuple[float, float]], length: float, v: FloatArray) -> list[tuple[float, float]]:
    """The polyline ``points`` made ``length`` cm long by going on straight along ``v`` (a
    flight's last stretch to its edge); as it is when already that long."""
    have = sum(math.dist(p, q) for p, q in itertools.pairwise(points))
    if length > have + 1e-9:
        x, y = points[-1]
        more = length - have
        points = [*points, (x + float(v[0]) * more, y + float(v[1]) * more)]
    return points


def _may_reorganise(table: _Table, bases: npt.NDArray[np.intp]) -> tuple[bool, str]:
    """6.8.2 — a panicking unit may reorganise when no enemy figure is within the distance;
    the answer and why."""
    bf, limit = table.bf, table.s.reorganise_enemy_cm
    dist, near = table.nearest_enemy(bf.corners[bases], limit)
    if near is None or dist > limit + table.eps:
        return True, _("no enemy figure within {limit:g} cm (6.8.2)").format(limit=limit)
    return False, _("enemy {base} is {dist:.2f} cm away, within {limit:g} cm (6.8.2)").format(
        base=bf.base_ids[near], dist=dist, limit=limit
    )


@dataclass
class _FlightTally:
    """6.6 — over every flight distance (weights of the flight distribution): the figures lost
    (off the table or surrendering), whether all go off the table, any or all surrender, all are
    removed; and for each unit fled through, the distance at which it is passed (threshold) and
    the weight of the flights that pass it."""

    lost_w: dict[int, int]
    off_all: int
    surr_any: int
    surr_all: int
    removed_all: int
    thresholds: dict[int, float]
    passed_w: dict[int, int]

    @classmethod
    def of(
        cls,
        table: _Table,
        flight: Distribution[int],
        edge: FloatArray,
        block: FloatArray,
        surrender: BoolArray,
        enter: dict[int, FloatArray],
    ) -> _FlightTally:
        """Tally each flight distance against each figure's way to the edge or its blocker."""
        eps, kk = table.eps, len(edge)
        reach = np.minimum(block, edge)
        thresholds = {o: float(np.where(arr < reach - eps, arr, _INF).min()) for o, arr in enter.items()}
        out = cls({}, 0, 0, 0, 0, thresholds, dict.fromkeys(thresholds, 0))
        stopped = np.isfinite(block)
        for dist_cm, w in flight.items():
            off = ~stopped & (dist_cm > edge + eps)
            surr = stopped & (dist_cm > block + eps) & surrender
            lost = int(off.sum() + surr.sum())
            out.lost_w[lost] = out.lost_w.get(lost, 0) + w
            out.off_all += w * bool(off.all())
            out.surr_any += w * bool(surr.any())
            out.surr_all += w * bool(surr.all())
            out.removed_all += w * (lost == kk)
            for o, th in thresholds.items():
                if dist_cm > th + eps:
                    out.passed_w[o] += w
        return out


def _passes_through(
    table: _Table, tally: _FlightTally, p_flee: Fraction, total: int
) -> tuple[PassThrough, ...]:
    """6.6 — each own unit the flight may pass through: the chance, and the chance it then
    fails its morale test. A unit in panic takes none, unless it reorganised first in this phase
    (2.2.1: every reorganisation before the flights): then it stands in normal order and tests,
    so its chance to panic is weighted by its chance to have reorganised."""
    bf = table.bf
    passes: list[PassThrough] = []
    for o in sorted(o for o, w in tally.passed_w.items() if w):
        other = bf.scenario.units[o]
        chance = p_flee * Fraction(tally.passed_w[o], total)
        mod = table.modifier(bf.unit_bases(o))
        test_pass = morale_pass_chance(other.profile.morale, other.strength, other.starting_strength, mod)
        standing = Fraction(1)  # the chance it stands in normal order when the flight comes
        if other.state is UnitState.PANIC:
            may, _why = _may_reorganise(table, bf.unit_bases(o))
            standing = test_pass if may else Fraction(0)  # its reorganisation test (6.8.2)
        if not standing:  # already panicking: no test
            passes.append(PassThrough(other.id, tally.thresholds[o], chance, None, Fraction(0)))
            continue
        panic = chance * standing * (1 - test_pass)
        passes.append(PassThrough(other.id, tally.thresholds[o], chance, test_pass, panic))
    return tuple(passes)


def _on_the_way(
    table: _Table, plan: PursuitPlan, dist: Distribution[int], p_move: Fraction
) -> tuple[PursuitStrike, ...]:
    """6.7.5, 6.7.6 — other enemy units on the pursuit's way: each figure's way as the move takes
    it (:class:`~szwadron.table.pursuit.PursuitPlan`: straight into contact, or round own units
    and closed ground); an enemy figure of another unit its base meets on that way before its
    contact, and before anything else stops it (touching, PD-3), is on the way, and may be
    attacked when the pursuit gets that far."""
    bf, eps = table.bf, table.eps
    ids = [bf.base_ids[b] for b in bf.unit_bases(plan.unit.id).tolist()]
    met = plan.met()
    return tuple(
        PursuitStrike(unit, tuple(sorted(ids[k] for k in figs)), at, p_move * chance_at_least(dist, at, eps))
        for unit, (at, figs) in sorted(met.items(), key=lambda kv: (kv[1][0], bf.unit_ids.index(kv[0])))
    )


def _pursuit_report(table: _Table, u: int, rally: Fraction) -> UnitMorale:
    """6.7, 6.8.3 — a pursuing unit: may it rally; if not, its pursuit move."""
    bf, s = table.bf, table.s
    unit = bf.scenario.units[u]
    bases = bf.unit_bases(u)
    engaged = table.engaged_with(bases)
    may = not engaged
    reason = (
        _("no figure engaged in melee (6.8.3)")
        if may
        else _("engaged with {units} (6.8.3)").format(units=", ".join(engaged))
    )
    p_rally = rally if may else Fraction(0)
    p_move = 1 - p_rally
    kind = unit.profile.kind
    dist = pursuit_distribution(kind, s)
    target: str | None = None
    gap: float | None = None
    enemies = [k for k, other in enumerate(bf.scenario.units) if other.side != unit.side]
    if enemies:
        mine = shapely.multipolygons(list(bf.polygons[bases]))
        gaps = []
        for k in enemies:
            eb = bf.unit_bases(k)
            gaps.append(float(shapely.distance(mine, bf.polygons[eb]).min()))
        chased = [i for i, k in enumerate(enemies) if bf.unit_ids[k] == unit.pursuing]
        panicking = [i for i, k in enumerate(enemies) if bf.panicking[k]]
        pool = chased or panicking or list(range(len(enemies)))  # 6.7.1, 6.7.5: the unit it pursues
        best = min(pool, key=lambda i: (gaps[i], i))
        target, gap = bf.unit_ids[enemies[best]], gaps[best]
    reach = Fraction(0)
    way: float | None = None
    terrain = 0.0
    on_the_way: tuple[PursuitStrike, ...] = ()
    if dist is not None and target is not None:  # the ways the applied move takes (6.7.4, 6.7.5)
        plan = pursuit_plan(unit, bf.scenario, bf.scenario.unit(target), max(dist.outcomes()))
        # the way is reported; its least roll need be measured only as far as the rolls
        into = plan.into_contact_cm([v + table.eps for v in dist.outcomes()])
        if into is not None:  # 6.7.4: the shortest way into contact of any figure (PD-3)
            way, _least, terrain = into
        # 6.7.4, 3.1.3: each roll as the move makes it, the ranks closing up (PursuitPlan.close_up)
        reached = [v for v in dist.outcomes() if plan.reaches(float(v))]
        reach = p_move * sum((dist.probability(v) for v in reached), Fraction(0))
        on_the_way = _on_the_way(table, plan, dist, p_move)
    return UnitMorale(
        id=unit.id,
        state=unit.state.value,
        kind=kind.value,
        strength=unit.strength,
        may_reorganise=may,
        reason=reason,
        reorganise_chance=p_rally,
        flight=None,
        flight_multiplier=0,
        flight_chance=Fraction(0),
        off_table_chance=Fraction(0),
        removed_chance=Fraction(0),
        surrender_chance=Fraction(0),
        surrenders=False,
        figures_lost=Distribution.point(0),
        figures=(),
        pass_through=(),
        pursuit=PursuitReport(target, gap, dist, reach, on_the_way, way, terrain),
    )


__all__ = [
    "TWO_D6",
    "CasualtyRow",
    "FigureFlight",
    "MoralePhaseReport",
    "PassThrough",
    "PursuitReport",
    "PursuitStrike",
    "UnitCasualtyTests",
    "UnitMorale",
    "chance_at_least",
    "chance_more_than",
    "first_contact",
    "flight_direction",
    "flight_distribution",
    "flight_multiplier",
    "morale_modifier",
    "morale_phase",
    "pursuit_distribution",
]
