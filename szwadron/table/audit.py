"""The table audit (``szwadron check``): overlaps, table edges, terrain, coherency, contacts,
engagement and control zones of a scenario, answered from the positions of the bases.

:func:`audit` returns an :class:`AuditReport` (frozen dataclasses); :meth:`AuditReport.to_json`
gives the stable JSON document of ``szwadron check --json``. Every all-pairs question goes
through the battlefield's STR-tree (:class:`~szwadron.geometry.battlefield.Battlefield`), distances are
exact and vectorised, and connected groups come from a union-find.

>>> from szwadron.models import Scenario
>>> inf = {"id": "inf", "name": "Line", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
...        "Z": 24, "UW": 3, "C": 3, "M": 4}
>>> line = [{"x": 10 + 2 * k, "y": 10, "facing": 90} for k in range(3)]
>>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 40}, "units": [
...     {"id": "a", "side": "A", "profile": inf, "bases": line},
...     {"id": "b", "side": "B", "profile": inf, "bases": [{"x": 11, "y": 12, "facing": 270}]}]})
>>> report = audit(sc)
>>> report.units[0].coherent, report.units[0].engaged_with
(True, ('b',))
>>> [(c.a, c.b, round(c.length, 6)) for c in report.contacts]
[('a/0', 'b/0', 1.0), ('a/1', 'b/0', 1.0)]
>>> report.ok
True

Decisions where the rulebook is silent (each also stated where it is implemented):

- Touching (PD-2, PD-3) includes bases that overlap: an overlap deeper than the tolerance is
  reported as an overlap, and the two bases still count as touching for coherency.
- A base is off the table when a corner lies beyond an edge by more than the overlap tolerance
  (PD-3): a base set flush with the edge, measured with millimetre errors, is on the table.
- A base stands in a feature when the feature reaches more than the overlap tolerance into it
  (the base shrunk by the tolerance on every side still meets the feature): touching a wall or
  a building from outside is allowed, standing in it is not (3.2.4, 3.2.5).
- Coherency is not a problem for units in panic or uncontrolled pursuit (6.1: they need none);
  it is still reported.
- Coherency across an obstacle (1.3.5, PD-4) applies to crossable obstacles (fences,
  barricades, streams, low walls: kind ``obstacle``). The model draws a hill as its outline,
  with no slope: its edge has zero width, so PD-4 across a hill edge is plain touching.
- Engagement (5.1.2): two enemy units are engaged when the contact lengths (PD-14) of one base
  of either with the bases of the other add up to at least ``engaged_contact_length_cm`` (half an
  infantry base): exactly when ``melee`` between them finds a figure in contact (issue 15).
  Contact lengths are the melee's own measure
  (:meth:`~szwadron.geometry.battlefield.Battlefield.contact_lengths`), so two enemy bases on
  either side of a crossable obstacle, both touching it, are in contact across it (5.7, 1.3.5,
  PD-4): a unit charged across a fence is engaged, not an intruder in the zone (1.4.2).
- In a control zone (1.4.1): a base stands in an enemy base's zone when its least distance is
  *less* than the zone radius (by more than the numerical epsilon); a base exactly 2 cm away
  touches the zone's rim and is not in it. Bases of panicking units have no zone but can stand in
  zones. Intrusions between units engaged with each other are allowed (5.9), and the zone of
  a figure in contact with the enemy (PD-14, as :mod:`szwadron.table.movement` counts it) is
  neutralised: it lets other figures pass and stand in it (5.9.3); so is the whole zone of a unit
  recorded as engaged with an enemy it no longer touches (a push-up pending, 5.6).
- Zones across obstacles (1.4.3, 3.2.3): see :func:`obstacle_zone_core`. Zones from the foot of a
  hill (3.2.1): a hill's outline is its foot, so a figure "on the edge of a hill" (on the hill,
  its base within the contact tolerance of the outline) already measures its zone from the foot;
  a figure further up the slope measures from its own base, not from the foot.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.bases import (
    base_corners,
    edge_normals,
    edge_segments,
    polygons_from_corners,
)
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import penetration_depth
from szwadron.geometry.terrain import forbidden_rule
from szwadron.i18n import _, ngettext, term
from szwadron.models import Ability, Scenario, Unit, UnitState
from szwadron.rulings import Ruling
from szwadron.settings import RulesSettings

IntArray = npt.NDArray[np.intp]

_DIGITS = 6
_MIN_AREA_CM2 = 1e-9


@dataclass(frozen=True)
class Problem(Ruling):
    """Something the rules forbid in this set-up, with the rule that forbids it; ``where`` holds
    the bases concerned."""

    @property
    def bases(self) -> tuple[str, ...]:
        """The bases concerned."""
        return self.where

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "message", "bases"}``."""
        return {"rule": self.rule, "message": self.message, "bases": list(self.where)}


@dataclass(frozen=True)
class UnitReport:
    """1.3, 5.1.2 — a unit's coherency (its connected groups of bases) and engagements."""

    id: str
    side: str
    state: str
    skirmish: bool
    coherent: bool
    groups: tuple[tuple[str, ...], ...]
    engaged_with: tuple[str, ...]
    recorded_engaged: tuple[str, ...] = ()
    """5.1.2, 5.6 — enemy units the game records as engaged with it (``engaged_with``, written by
    ``melee --apply``) that no figure of it touches now: a push-up is pending."""


@dataclass(frozen=True)
class Overlap:
    """PD-3 — two bases whose interiors overlap deeper than the tolerance."""

    a: str
    b: str
    depth: float


@dataclass(frozen=True)
class ForbiddenTerrain:
    """3.2.4, 3.2.5 — a base standing in terrain its kind may not enter."""

    base: str
    terrain: str
    rule: str


@dataclass(frozen=True)
class Contact:
    """PD-3, PD-14 — two enemy bases touching, with the length of boundary they touch along."""

    a: str
    b: str
    length: float
    distance: float


@dataclass(frozen=True)
class ZoneIntrusion:
    """1.4 — ``base`` stands in the control zone of the enemy base ``zone_of``.

    ``across`` names the obstacle when the zone reaches the base only because it is measured
    from the far side of that obstacle (1.4.3).
    """

    base: str
    zone_of: str
    distance: float
    across: str | None = None


@dataclass(frozen=True)
class AuditReport:
    """The result of :func:`audit`; :meth:`to_json` is the ``check --json`` document."""

    scenario: str
    base_count: int
    units: tuple[UnitReport, ...]
    overlaps: tuple[Overlap, ...]
    off_table: tuple[str, ...]
    forbidden_terrain: tuple[ForbiddenTerrain, ...]
    contacts: tuple[Contact, ...]
    bases_in_contact: tuple[str, ...]
    zone_intrusions: tuple[ZoneIntrusion, ...]
    problems: tuple[Problem, ...] = field(default=())
    table: Battlefield | None = field(default=None, repr=False, compare=False)
    """The table it was computed on (for plotting; not part of the JSON)."""

    @property
    def ok(self) -> bool:
        """No problem found."""
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``json.dumps`` it): the ``check --json`` document (docs/decisions.md
        "The JSON documents")."""
        return {
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "coherent": u.coherent,
                    "groups": [list(g) for g in u.groups],
                    "engaged_with": list(u.engaged_with),
                    "recorded_engaged": list(u.recorded_engaged),
                    "state": u.state,
                    "skirmish": u.skirmish,
                }
                for u in self.units
            ],
            "overlaps": [[o.a, o.b] for o in self.overlaps],
            "off_table": list(self.off_table),
            "forbidden_terrain": [[f.base, f.terrain] for f in self.forbidden_terrain],
            "contacts": [
                {
                    "a": c.a,
                    "b": c.b,
                    "length": round(c.length, _DIGITS),
                    "distance": round(c.distance, _DIGITS),
                }
                for c in self.contacts
            ],
            "zone_intrusions": [
                {
                    "base": z.base,
                    "zone_of": z.zone_of,
                    "distance": round(z.distance, _DIGITS),
                    "across": z.across,
                }
                for z in self.zone_intrusions
            ],
            "problems": [p.to_json() for p in self.problems],
            "scenario": self.scenario,
            "summary": {
                "units": len(self.units),
                "bases": self.base_count,
                "problems": len(self.problems),
                "ok": self.ok,
            },
            "overlap_depths": [round(o.depth, _DIGITS) for o in self.overlaps],
            "bases_in_contact": list(self.bases_in_contact),
        }


# ---------------------------------------------------------------------------------------------


def connected_groups(n: int, i: npt.ArrayLike, j: npt.ArrayLike) -> IntArray:
    """PD-2 — connected components of the graph on ``n`` nodes with edges ``(i[k], j[k])``.

    Union-find; each node's label is the smallest node of its component.

    >>> connected_groups(5, [0, 3], [1, 4]).tolist()
    [0, 0, 2, 3, 3]
    """
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for a, b in zip(np.asarray(i).tolist(), np.asarray(j).tolist(), strict=True):
        ra, rb = find(a), find(b)
        if ra != rb:
            if ra < rb:
                parent[rb] = ra
            else:
                parent[ra] = rb
    return np.asarray([find(a) for a in range(n)], dtype=np.intp)


def obstacle_zone_core(
    bf: Battlefield, base: int, terrain: int, contact_tolerance_cm: float
) -> shapely.Geometry:
    """1.4.3, 3.2.3 — the stretch of an obstacle from whose far side a base's zone is measured.

    Decision (precise geometry of "measured from the far side"): a base stands at a crossable
    obstacle when it is within the contact tolerance of it (PD-3). Each edge of the base within
    the tolerance of the obstacle is swept along its outward normal by the obstacle's width plus
    the tolerance; the part of the obstacle inside those sweeps (areas only: an edge meeting the
    obstacle end-on does not count) is the stretch the figure holds (for a base flush against a straight fence: the fence exactly opposite the base, through to
    its far side). The base's control zone is then everything within the zone radius of the base
    *or of that stretch*: beyond the obstacle the zone starts at the obstacle's far side, and it
    does not spread sideways along the obstacle beyond the base's own frontage.
    """
    feature = bf.terrain[terrain]
    segs = edge_segments(bf.corners[base])
    normals = edge_normals(bf.facing[base])
    lines = shapely.linestrings(segs)
    near = shapely.distance(lines, feature.polygon) <= contact_tolerance_cm
    reach = feature.width + contact_tolerance_cm
    pieces: list[shapely.Geometry] = []
    for seg, n, ok in zip(segs, normals, near, strict=True):
        if not ok:
            continue
        sweep = shapely.Polygon([seg[0], seg[1], seg[1] + n * reach, seg[0] + n * reach])
        # only areas count: an edge perpendicular to the obstacle, touching it with its end,
        # sweeps along the obstacle's edge and meets it in a line, not across it
        pieces += [
            g
            for g in shapely.get_parts(shapely.intersection(feature.polygon, sweep))
            if g.area > _MIN_AREA_CM2
        ]
    return shapely.union_all(pieces) if pieces else shapely.Polygon()


def engaged_unit_pairs(
    units_a: Sequence[int],
    units_b: Sequence[int],
    lengths: Sequence[float],
    settings: RulesSettings,
    bases_a: Sequence[int],
    bases_b: Sequence[int],
) -> set[tuple[int, int]]:
    """5.1.2, PD-14 — pairs of units ``(lower, higher)`` engaged in melee: a base of one touches
    the bases of the other along at least the engaged contact length in all. One ``(unit of a,
    unit of b, length, base a, base b)`` per pair of enemy bases within the contact tolerance.

    Decision (issue 15): the length is summed per base, as PD-14 counts it for a figure in
    melee, so that two units are engaged exactly when ``melee`` between them finds a figure in
    contact. A base touching two enemy bases along 0.6 cm each engages its unit; two pairs of
    bases apart, each touching along 0.6 cm, do not.

    >>> from szwadron.settings import RulesSettings
    >>> sorted(engaged_unit_pairs([0, 0, 2], [1, 1, 3], [0.6, 0.6, 0.1], RulesSettings(), [0, 0, 5], [1, 2, 6]))
    [(0, 1)]
    >>> engaged_unit_pairs([0, 0], [1, 1], [0.6, 0.6], RulesSettings(), [0, 3], [1, 2])
    set()
    """
    eps = settings.distance_epsilon_cm
    per_base: dict[tuple[int, int, int], float] = defaultdict(float)  # (base, its unit, enemy unit)
    for ua, ub, length, ba, bb in zip(units_a, units_b, lengths, bases_a, bases_b, strict=True):
        per_base[(ba, ua, ub)] += length
        per_base[(bb, ub, ua)] += length
    need = settings.engaged_contact_length_cm - eps
    return {(min(u, v), max(u, v)) for (_, u, v), total in per_base.items() if total >= need}


def engaged_with_bases(bf: Battlefield, bases: IntArray) -> list[str]:
    """5.1.2, PD-14 — the enemy units engaged with these bases of one unit (contact lengths summed
    per base, :func:`engaged_unit_pairs`; across a crossable obstacle too, PD-4), in file order."""
    if len(bases) == 0:
        return []
    own = int(bf.unit_of[bases[0]])
    q, t = bf.tree.query(bf.polygons[bases], predicate="dwithin", distance=bf.contact_reach_cm)
    keep = bf.side[t] != bf.side[bases[0]]
    b, t = bases[q[keep]], t[keep]
    if b.size == 0:
        return []
    lengths = bf.contact_lengths(b, t)
    units = bf.unit_of[t].tolist()
    pairs = engaged_unit_pairs(
        [own] * len(units), units, lengths.tolist(), bf.settings, b.tolist(), t.tolist()
    )
    return [bf.unit_ids[u] for u in sorted(v for pair in pairs for v in pair if v != own)]


def _recorded(a: Unit, b: Unit) -> bool:
    """5.1.2 — the game records ``a`` and ``b`` as engaged (``engaged_with``, either way)."""
    return b.id in a.engaged_with or a.id in b.engaged_with


def engaged_enemies(bf: Battlefield, unit: str) -> tuple[str, ...]:
    """5.1.2 — the enemy units ``unit`` is engaged with, in file order: those it touches
    (:func:`engaged_with_bases`) and those its ``engaged_with`` records."""
    touching = set(engaged_with_bases(bf, bf.unit_bases(unit)))
    recorded = set(bf.scenario.unit(unit).engaged_with)
    return tuple(u.id for u in bf.scenario.units if u.id in touching | recorded)


def engaged_or_recorded(bf: Battlefield, unit: str, enemy: str) -> bool:
    """5.1.2 — ``unit`` and ``enemy`` are engaged: the game records it (``engaged_with``, either
    way) or they touch (:func:`engaged_with_bases`)."""
    sc = bf.scenario
    if _recorded(sc.unit(unit), sc.unit(enemy)):
        return True
    return enemy in engaged_with_bases(bf, bf.unit_bases(unit))


def audit(
    scenario: Scenario | Battlefield,
    *,
    settings: RulesSettings | None = None,
    method: PairMethod = "index",
) -> AuditReport:
    """Audit a set-up: 1.3 coherency, 1.4 control zones, 3.2.4-3.2.5 terrain, 5.1.2 engagement,
    PD-3 overlaps and contact, PD-14 contact lengths, bases off the table.

    ``scenario`` may be an already built :class:`Battlefield` (reused as is). ``settings``
    overrides the scenario's own. ``method="brute"`` finds candidate pairs by trying
    every pair (the naive reference, for tests and benchmarks); the answer is the same.
    """
    bf = Battlefield.of(scenario, settings)
    pairs = _Pairs.of(bf, method)
    overlaps = _overlaps(bf, pairs)
    off_table = _off_table(bf)
    forbidden = _forbidden_terrain(bf, method)
    at_obstacle = _at_obstacles(bf, method)
    across = _across_pairs(bf, at_obstacle, method)
    labels = _coherency_groups(bf, pairs, at_obstacle, across, method)
    touch = _Touching.of(bf, pairs, across, method)
    zone_intrusions = _zone_intrusions(bf, pairs, touch, at_obstacle, method)
    unit_reports = _unit_reports(bf, labels, touch.engaged)
    problems = (
        _overlap_problems(bf, overlaps)
        + [
            Problem(
                "6.6", _("base {base} is off the table (figures leaving it are removed)").format(base=b), (b,)
            )
            for b in off_table
        ]
        + _terrain_problems(bf, forbidden)
        + _coherency_problems(bf, unit_reports)
        + _zone_problems(zone_intrusions)
    )
    return AuditReport(
        scenario=bf.scenario.name,
        base_count=len(bf),
        units=tuple(unit_reports),
        overlaps=overlaps,
        off_table=off_table,
        forbidden_terrain=tuple(forbidden),
        contacts=touch.contacts,
        bases_in_contact=touch.in_contact,
        zone_intrusions=zone_intrusions,
        problems=tuple(problems),
        table=bf,
    )


@dataclass(frozen=True)
class _Pairs:
    """PD-3 — every pair of bases near enough to matter (one tree query): their distances,
    which touch, how deep they overlap, and whether they are of one unit or enemies."""

    i: IntArray
    j: IntArray
    d: npt.NDArray[np.float64]
    near: npt.NDArray[np.bool_]
    depth: npt.NDArray[np.float64]
    same_unit: npt.NDArray[np.bool_]
    enemy: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, bf: Battlefield, method: PairMethod) -> _Pairs:
        """The pairs within the larger of the zone radius and the contact tolerance."""
        s = bf.settings
        eps, tol = s.distance_epsilon_cm, s.contact_tolerance_cm
        i, j = bf.pairs_within(max(s.control_zone_cm, tol) + eps, method=method)
        d = bf.distances(i, j)
        near = d <= tol + eps
        depth = np.zeros(len(i))
        if near.any():
            depth[near] = penetration_depth(bf.corners[i[near]], bf.corners[j[near]])
        return cls(i, j, d, near, depth, bf.unit_of[i] == bf.unit_of[j], bf.side[i] != bf.side[j])


def _overlaps(bf: Battlefield, pairs: _Pairs) -> tuple[Overlap, ...]:
    """PD-3 — pairs of bases overlapping deeper than the overlap tolerance."""
    s = bf.settings
    ov = np.flatnonzero(pairs.depth > s.overlap_tolerance_cm + s.distance_epsilon_cm)
    ids = bf.base_ids
    return tuple(Overlap(ids[pairs.i[k]], ids[pairs.j[k]], float(pairs.depth[k])) for k in ov)


def _off_table(bf: Battlefield) -> tuple[str, ...]:
    """3.1.4, 6.6, PD-3 — bases with a corner beyond a table edge by more than the overlap
    tolerance."""
    if not len(bf):
        return ()
    table = bf.scenario.table
    cx, cy = bf.corners[..., 0], bf.corners[..., 1]
    lim = bf.settings.overlap_tolerance_cm + bf.settings.distance_epsilon_cm
    off = ((cx < -lim) | (cy < -lim) | (cx > table.width + lim) | (cy > table.depth + lim)).any(axis=-1)
    return tuple(bf.base_ids[k] for k in np.flatnonzero(off))


def _forbidden_terrain(bf: Battlefield, method: PairMethod) -> list[ForbiddenTerrain]:
    """3.2.4, 3.2.5 — bases standing (by more than the overlap tolerance) in terrain closed to
    their kind."""
    if not bf.terrain or not len(bf):
        return []
    s = bf.settings
    shrink = 2.0 * (s.overlap_tolerance_cm + s.distance_epsilon_cm)
    inner = polygons_from_corners(
        base_corners(
            bf.x,
            bf.y,
            bf.facing,
            np.maximum(bf.width - shrink, 1e-3),
            np.maximum(bf.depth - shrink, 1e-3),
        )
    ).reshape(-1)
    if method == "brute":
        qb, qt = np.nonzero(shapely.intersects(inner[:, None], bf.terrain_polygons[None, :]))
    else:
        qb, qt = bf.terrain_tree.query(inner, predicate="intersects")
    forbidden: list[ForbiddenTerrain] = []
    for b, t in sorted(zip(qb.tolist(), qt.tolist(), strict=True)):
        rule = forbidden_rule(bf.kinds[b], bf.terrain[t])
        if rule is not None:
            forbidden.append(ForbiddenTerrain(bf.base_ids[b], bf.terrain[t].id, rule))
    return forbidden


def _at_obstacles(bf: Battlefield, method: PairMethod) -> dict[int, list[int]]:
    """1.3.5, 1.4.3, PD-3 — the crossable obstacles each base touches (base → obstacles)."""
    at_obstacle: dict[int, list[int]] = defaultdict(list)
    if not any(f.crossable_obstacle for f in bf.terrain) or not len(bf):
        return at_obstacle
    reach = bf.settings.contact_tolerance_cm + bf.settings.distance_epsilon_cm
    tb, tt, td = bf.terrain_within(reach, method=method)
    for b, t, dist in zip(tb.tolist(), tt.tolist(), td.tolist(), strict=True):
        if bf.terrain[t].crossable_obstacle and dist <= reach:
            at_obstacle[b].append(t)
    return at_obstacle


def _across_pairs(
    bf: Battlefield, at_obstacle: dict[int, list[int]], method: PairMethod
) -> tuple[IntArray, IntArray, npt.NDArray[np.float64]]:
    """1.3.5, PD-4 — pairs of bases that both touch a crossable obstacle and stand within
    :attr:`~szwadron.geometry.battlefield.Battlefield.contact_reach_cm` (the tolerance plus the
    widest obstacle) of each other, with their distances: the only pairs that may touch across an
    obstacle. Only bases at an obstacle are queried."""
    if not at_obstacle:
        empty = np.zeros(0, np.intp)
        return empty, empty, np.zeros(0)
    touching_bases = np.asarray(sorted(at_obstacle), dtype=np.intp)
    oi, oj = bf.pairs_within(bf.contact_reach_cm, touching_bases, method=method)
    return oi, oj, bf.distances(oi, oj)


def _coherency_groups(
    bf: Battlefield,
    pairs: _Pairs,
    at_obstacle: dict[int, list[int]],
    across: tuple[IntArray, IntArray, npt.NDArray[np.float64]],
    method: PairMethod,
) -> IntArray:
    """1.3.1, 1.3.4, 1.3.5, 7.5.1, PD-2, PD-4 — each base's group label: bases of a unit are
    linked when they touch, when one of them is a skirmisher (the figure's own ability, 1.3.4:
    "Jednostki oraz oddziały") within the skirmish gap of the other (7.5.1: "pomiędzy sobą oraz
    resztą oddziału"), or when both touch an obstacle between them."""
    s = bf.settings
    eps, tol = s.distance_epsilon_cm, s.contact_tolerance_cm
    unit_of = bf.unit_of
    link_i = [pairs.i[pairs.near & pairs.same_unit]]
    link_j = [pairs.j[pairs.near & pairs.same_unit]]
    skirmish = bf.skirmishers
    with_skirmishers = np.unique(unit_of[skirmish])
    candidates: IntArray = np.flatnonzero(np.isin(unit_of, with_skirmishers))
    if len(candidates) > 1:  # 1.3.4: gaps up to 4 cm, from a skirmisher
        si, sj = bf.pairs_within(s.skirmish_gap_cm + eps, candidates, method=method)
        keep = (
            (unit_of[si] == unit_of[sj])
            & (skirmish[si] | skirmish[sj])
            & (bf.distances(si, sj) <= s.skirmish_gap_cm + eps)
        )
        link_i.append(si[keep])
        link_j.append(sj[keep])
    if at_obstacle:  # 1.3.5, PD-4: linked across an obstacle both touch
        oi, oj, od = across
        keep_pd4 = []
        for a, b, dist in zip(oi.tolist(), oj.tolist(), od.tolist(), strict=True):
            if unit_of[a] != unit_of[b]:
                continue
            shared = set(at_obstacle[a]) & set(at_obstacle[b])
            keep_pd4.append(any(dist <= bf.terrain[t].width + tol + eps for t in shared))
        mask = np.asarray(keep_pd4, dtype=bool)
        oi, oj = oi[unit_of[oi] == unit_of[oj]], oj[unit_of[oi] == unit_of[oj]]
        link_i.append(oi[mask])
        link_j.append(oj[mask])
    return connected_groups(len(bf), np.concatenate(link_i), np.concatenate(link_j))


@dataclass(frozen=True)
class _Touching:
    """PD-14, 5.1.2 — contacts between enemy bases, each base's total contact length, the bases
    in contact and the engaged pairs of units."""

    contacts: tuple[Contact, ...]
    per_base: npt.NDArray[np.float64]
    in_contact: tuple[str, ...]
    engaged: set[tuple[int, int]]

    @classmethod
    def of(
        cls,
        bf: Battlefield,
        pairs: _Pairs,
        across: tuple[IntArray, IntArray, npt.NDArray[np.float64]],
        method: PairMethod,
    ) -> _Touching:
        """Measure the contacts of the enemy pairs within the contact tolerance and of those
        that may touch across an obstacle (:func:`_across_pairs`), with the melee's measure
        (:meth:`~szwadron.geometry.battlefield.Battlefield.contact_lengths`); a pair across an
        obstacle is a contact when that measure puts it in contact across it."""
        s = bf.settings
        eps, tol, ids = s.distance_epsilon_cm, s.contact_tolerance_cm, bf.base_ids
        near = np.flatnonzero(pairs.near & pairs.enemy)
        oi, oj, od = across
        far = np.flatnonzero((bf.side[oi] != bf.side[oj]) & (od > tol + eps))
        i = np.concatenate([pairs.i[near], oi[far]])
        j = np.concatenate([pairs.j[near], oj[far]])
        d = np.concatenate([pairs.d[near], od[far]])
        lengths = bf.contact_lengths(i, j, d, method=method)
        # within the tolerance: touching (PD-3), corner to corner too; across an obstacle: along
        # a positive length (as the melee's links count a foe)
        keep = (np.arange(len(i)) < near.size) | (lengths > eps)
        order = np.lexsort((j, i))
        order = order[keep[order]]
        i, j, d, lengths = i[order], j[order], d[order], lengths[order]
        contacts = tuple(
            Contact(ids[a], ids[b], float(length), float(dist))
            for a, b, length, dist in zip(i.tolist(), j.tolist(), lengths.tolist(), d.tolist(), strict=True)
        )
        per_base = np.zeros(len(bf))
        np.add.at(per_base, i, lengths)
        np.add.at(per_base, j, lengths)
        in_contact = tuple(ids[k] for k in np.flatnonzero(per_base >= s.min_contact_length_cm - eps))
        unit_of = bf.unit_of
        engaged = engaged_unit_pairs(
            unit_of[i].tolist(), unit_of[j].tolist(), lengths.tolist(), s, i.tolist(), j.tolist()
        )
        return cls(contacts, per_base, in_contact, engaged)


def _zone_intrusions(
    bf: Battlefield,
    pairs: _Pairs,
    touch: _Touching,
    at_obstacle: dict[int, list[int]],
    method: PairMethod,
) -> tuple[ZoneIntrusion, ...]:
    """1.4.1, 1.4.3, 5.9, 5.9.3 — bases standing in an enemy base's control zone: measured from
    the base, or from the far side of an obstacle it stands at; none for a unit in panic, none
    between units engaged with each other (touching, or recorded as engaged: between a melee that
    removed the figures in contact and its push-up, 5.6), none in the zone of a figure in contact,
    none in the zone of a unit recorded as engaged with an enemy it no longer touches (5.9.3: "strefy
    kontroli takich jednostek [...] pozwalają innym jednostkom przejść dalej"; the figures that
    touched, whose zones were neutral, may be the ones the melee removed)."""
    s = bf.settings
    eps, tol, radius = s.distance_epsilon_cm, s.contact_tolerance_cm, s.control_zone_cm
    unit_of = bf.unit_of
    intrusions: dict[tuple[int, int], ZoneIntrusion] = {}
    zone_neutral = touch.per_base >= s.min_contact_length_cm - eps  # 5.9.3: engaged figures

    units = bf.scenario.units
    index = {u.id: k for k, u in enumerate(units)}
    pending: set[int] = set()  # 5.6, 5.9.3: recorded as engaged, not touching: the push-up is to come
    for k, u in enumerate(units):
        for m in (index[v] for v in u.engaged_with if v in index):
            if (min(k, m), max(k, m)) not in touch.engaged:
                pending.update((k, m))

    def consider(intruder: int, owner: int, dist: float, across: str | None) -> None:
        ui, uo = int(unit_of[intruder]), int(unit_of[owner])
        if bf.panicking[uo] or (min(ui, uo), max(ui, uo)) in touch.engaged:
            return  # 1.4.1: no zone; 5.9: engaged with each other
        if _recorded(units[ui], units[uo]):
            return  # 5.9, 5.1.2: engaged as the game records it (after a melee's losses, before its push-up)
        if units[uo].pursuing == units[ui].id or units[ui].pursuing == units[uo].id:
            return  # 6.7.1, 6.7.4: a pursuer runs at the unit it pursues, into contact as a charge does
        if zone_neutral[owner] or uo in pending:
            return  # 5.9.3: an engaged figure's zone is neutralised and lets others pass
        key = (intruder, owner)
        old = intrusions.get(key)
        if old is None or (old.across is not None and across is None):
            intrusions[key] = ZoneIntrusion(bf.base_ids[intruder], bf.base_ids[owner], dist, across)

    for k in np.flatnonzero(pairs.enemy & (pairs.d < radius - eps)).tolist():
        a, b, dist = int(pairs.i[k]), int(pairs.j[k]), float(pairs.d[k])
        consider(a, b, dist, None)
        consider(b, a, dist, None)
    for owner, touched in sorted(at_obstacle.items()):  # 1.4.3: from the obstacle's far side
        if bf.panicking[unit_of[owner]]:
            continue
        for t in touched:
            core = obstacle_zone_core(bf, owner, t, tol + eps)
            if core.is_empty:
                continue
            cand = bf.near(core, radius, method=method)
            cand = cand[bf.side[cand] != bf.side[owner]]
            if cand.size == 0:
                continue
            dc = shapely.distance(core, bf.polygons[cand])
            direct = bf.distances(cand, np.full(cand.shape, owner))
            for e, dist_core, dist_direct in zip(cand.tolist(), dc.tolist(), direct.tolist(), strict=True):
                if dist_core < radius - eps and dist_direct >= radius - eps:
                    consider(e, owner, float(dist_direct), bf.terrain[t].id)
    return tuple(intrusions[k] for k in sorted(intrusions))


def _unit_reports(bf: Battlefield, labels: IntArray, engaged: set[tuple[int, int]]) -> list[UnitReport]:
    """1.3, 5.1.2 — per unit: its groups of linked bases and the units it is engaged with."""
    sc, ids = bf.scenario, bf.base_ids
    engaged_with: dict[int, set[int]] = defaultdict(set)
    for ua, ub in engaged:
        engaged_with[ua].add(ub)
        engaged_with[ub].add(ua)
    out: list[UnitReport] = []
    for u_k, unit in enumerate(sc.units):
        groups_by_label: dict[int, list[str]] = defaultdict(list)
        for b in bf.unit_bases(u_k).tolist():
            groups_by_label[int(labels[b])].append(ids[b])
        groups = tuple(tuple(groups_by_label[lab]) for lab in sorted(groups_by_label))
        partners = tuple(sc.units[v].id for v in sorted(engaged_with.get(u_k, ())))
        out.append(
            UnitReport(
                unit.id,
                unit.side,
                unit.state.value,
                unit.has(Ability.SKIRMISH),
                len(groups) == 1,
                groups,
                partners,
                tuple(v.id for v in sc.units if _recorded(unit, v) and v.id not in partners),
            )
        )
    return out


# --- the problems, in order: overlaps, table, terrain, coherency, zones --------------------------


def _overlap_problems(bf: Battlefield, overlaps: tuple[Overlap, ...]) -> list[Problem]:
    """PD-3 — an overlap deeper than the tolerance."""
    otol = bf.settings.overlap_tolerance_cm
    return [
        Problem(
            "PD-3",
            _(
                "bases {a} and {b} overlap by {depth:.2f} cm (more than the {tolerance:g} cm tolerance)"
            ).format(a=o.a, b=o.b, depth=o.depth, tolerance=otol),
            (o.a, o.b),
        )
        for o in overlaps
    ]


def _terrain_problems(bf: Battlefield, forbidden: list[ForbiddenTerrain]) -> list[Problem]:
    """3.2.4, 3.2.5 — a base in terrain closed to it."""
    return [
        Problem(
            f.rule,
            _("base {base} ({kind}) stands in {terrain} {id}, closed to it").format(
                base=f.base,
                kind=term(bf.kinds[bf.resolve(f.base)[0]].value),
                terrain=term(bf.scenario.terrain_feature(f.terrain).kind.value),
                id=f.terrain,
            ),
            (f.base,),
        )
        for f in forbidden
    ]


def _coherency_problems(bf: Battlefield, units: list[UnitReport]) -> list[Problem]:
    """1.3.1, 1.3.4 — a unit in more than one group (6.1: not for a unit in panic or pursuit)."""
    out: list[Problem] = []
    for u, unit in zip(units, bf.scenario.units, strict=True):
        if u.coherent or unit.state is not UnitState.NORMAL:
            continue
        main = max(u.groups, key=len)
        apart = tuple(b for g in u.groups if g is not main for b in g)
        rule = "1.3.4" if u.skirmish else "1.3.1"
        how = (
            _("gaps over {gap:g} cm").format(gap=bf.settings.skirmish_gap_cm)
            if u.skirmish
            else _("bases not touching")
        )
        out.append(
            Problem(
                rule,
                _("unit {unit} is not coherent: {n} groups ({how}): {groups}").format(
                    unit=unit.id, n=len(u.groups), how=how, groups=" | ".join(_span(g) for g in u.groups)
                ),
                apart,
            )
        )
    return out


def _zone_problems(zone_intrusions: tuple[ZoneIntrusion, ...]) -> list[Problem]:
    """1.4.2 — a unit standing in an enemy unit's zone without being engaged with it (one
    problem per pair of units)."""
    by_units: dict[tuple[str, str], list[ZoneIntrusion]] = defaultdict(list)
    for z in zone_intrusions:
        by_units[(z.base.partition("/")[0], z.zone_of.partition("/")[0])].append(z)
    out: list[Problem] = []
    for (intruder_unit, owner_unit), items in by_units.items():
        closest = min(items, key=lambda z: round(z.distance, 9))  # ties: first in file order
        across = sorted({z.across for z in items if z.across})
        via = _(", measured from beyond {via} (1.4.3)").format(via=", ".join(across)) if across else ""
        out.append(
            Problem(
                "1.4.2",
                ngettext(
                    "unit {unit} stands in the control zone of enemy unit {owner} without being engaged with "
                    "it: {n} base pair, closest {base} to {zone_of} at {cm:.2f} cm{via}",
                    "unit {unit} stands in the control zone of enemy unit {owner} without being engaged with "
                    "it: {n} base pairs, closest {base} to {zone_of} at {cm:.2f} cm{via}",
                    len(items),
                ).format(
                    unit=intruder_unit,
                    owner=owner_unit,
                    n=len(items),
                    base=closest.base,
                    zone_of=closest.zone_of,
                    cm=closest.distance,
                    via=via,
                ),
                tuple(dict.fromkeys(z.base for z in items)),
            )
        )
    return out


def _span(group: tuple[str, ...]) -> str:
    """``a/0, a/1, a/2`` → ``a/0-2`` when consecutive; else the ids joined by commas."""
    idx = [int(b.rpartition("/")[2]) for b in group]
    unit = group[0].rpartition("/")[0]
    if len(group) > 2 and idx == list(range(idx[0], idx[0] + len(idx))):
        return f"{unit}/{idx[0]}-{idx[-1]}"
    return ", ".join(group)


__all__ = [
    "AuditReport",
    "Contact",
    "ForbiddenTerrain",
    "Overlap",
    "Problem",
    "UnitReport",
    "ZoneIntrusion",
    "audit",
    "connected_groups",
    "engaged_enemies",
    "engaged_or_recorded",
    "engaged_unit_pairs",
    "engaged_with_bases",
    "obstacle_zone_core",
]
