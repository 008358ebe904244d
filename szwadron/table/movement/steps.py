"""The rules of a move as ordered, named steps (section 3, 1.3.3, 1.4.2, 4.9, 4.11, 5.9, 6.1).

:func:`~szwadron.table.movement.check_move` prepares a :class:`MoveContext` (the table, the
units, the paths, the speeds, the order of the figures) and then runs

- :data:`UNIT_STEPS_FIRST` — the refusals of the whole move (after fire, on the march, in
  panic, a combined move of units apart);
- :data:`BASE_STEPS` on each base, in the order the bases move: each step returns the
  violations of one rule by that base, and the order of the steps is the order in which a
  base's violations are reported;
- :data:`UNIT_STEPS_LAST` — coherency at the end (1.3.3).

The report lists the first group, then each base's violations in the order the figures move,
then the last group; the first of them is "the" answer (the first rule broken). A step is a
function ``(context) -> list[Violation]`` or ``(context, base) -> list[Violation]``; the base's
:class:`BaseCheck` holds what earlier steps found out about it (the terrain near its path, the
bases it meets, whether it entered the charged unit's zone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.paths import Surcharge, terrain_surcharges
from szwadron.geometry.terrain import TerrainShape, forbidden_rule
from szwadron.i18n import _, ngettext, term
from szwadron.models import TerrainKind, UnitState
from szwadron.table.audit import connected_groups, engaged_or_recorded, obstacle_zone_core
from szwadron.table.movement.plan import (
    Planned,
    coherent_groups,
    foot_of_hill,
    itemise,
    on_obstacle,
    shrunk_base,
)
from szwadron.table.movement.report import AfterFire, Violation

if TYPE_CHECKING:
    from szwadron.table.fire import FireResult

# --- what the steps share -------------------------------------------------------------------------


@dataclass
class MoveContext:
    """What a move check knows before its rules run, and what the steps record on the way:
    the contacts made with the charged unit (5.9.2), each base's terrain surcharges (3.2) and
    the notes of the report."""

    bf: Battlefield
    unit_ids: tuple[str, ...]
    unit_ks: list[int]
    side: int
    charge_ids: tuple[str, ...]
    charge_ks: set[int]
    march: bool
    method: PairMethod
    moving: npt.NDArray[np.intp]
    planned: list[Planned]
    speed: dict[int, float]
    order: list[int] | None
    after_fire: FireResult | None = None
    push_up: bool = False
    """5.6: a push-up towards the charged (``charge_ids``) unit just fought: at most push_up_cm
    whatever the terrain (5.6.7), by figures not engaged (5.6.4, 5.6.5), towards it (5.6.6)."""
    after: AfterFire | None = None
    declared_fire: set[int] = field(default_factory=set)
    fire_bands: list[tuple[str, shapely.Geometry]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    contacts: set[int] = field(default_factory=set)
    surcharges: dict[int, tuple[Surcharge, ...]] = field(default_factory=dict)
    _engaged: dict[int, bool] = field(default_factory=dict)
    _moved: dict[int, shapely.Geometry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        obstacles = [f for f in self.bf.terrain if f.crossable_obstacle]
        #: 1.4.3 — some obstacle may carry a zone across it; the widest such obstacle.
        self.obstacles = bool(obstacles)
        self.widest = max((f.width for f in obstacles), default=0.0)
        #: The bases of the moving units (battlefield indices).
        self.moving_set = set(self.moving.tolist())
        if self.order is None:  # 3.1.3 figure after figure, in file order: where each stands
            self._moved = {int(b): shapely.Polygon(self.bf.corners[b]) for b in self.moving}

    @property
    def eps(self) -> float:
        """The distance epsilon (settings)."""
        return self.bf.settings.distance_epsilon_cm

    @property
    def tol(self) -> float:
        """PD-3 — touching: the contact tolerance plus epsilon."""
        return self.bf.settings.contact_tolerance_cm + self.eps

    @property
    def shrink(self) -> float:
        """PD-3 — how far a path may press into a base or a wall: the overlap tolerance."""
        return self.bf.settings.overlap_tolerance_cm + self.eps

    def violation(self, p: Planned, rule: str, message: str) -> Violation:
        """A violation by base ``p``, its id leading the message."""
        base = self.bf.base_ids[p.base]
        return Violation(rule, _("{base}: {message}").format(base=base, message=message), (base,))

    def engaged(self, e: int) -> bool:
        """5.9.3 — enemy figure ``e`` is engaged: in contact (PD-14) with a figure of the other
        side, measured as the audit and the melee measure it (asked lazily, remembered per
        base)."""
        if e not in self._engaged:
            bf, reach = self.bf, self.bf.contact_reach_cm  # across an obstacle too (PD-4)
            if self.method == "brute":
                near = np.flatnonzero(shapely.distance(bf.polygons[e], bf.polygons) <= reach)
            else:
                near = bf.tree.query(bf.polygons[e], predicate="dwithin", distance=reach)
            near = near[bf.side[near] != bf.side[e]]
            own = np.full(near.shape, e, dtype=np.intp)
            total = float(bf.contact_lengths(own, near, method=self.method).sum())
            self._engaged[e] = total >= bf.settings.min_contact_length_cm - self.eps
        return self._engaged[e]


@dataclass
class BaseCheck:
    """One base under the per-base steps: its planned move, the terrain features its path
    meets (indices into ``bf.terrain``), the other bases its shrunk path meets, and the charged
    units whose control zone it entered, each with how far along its path (cm of its measured
    corner, PD-6) it first came into it (set by :func:`control_zones`, read by 5.9.2's step)."""

    p: Planned
    features: list[int]
    hits: list[int]
    entered: dict[int, float] = field(default_factory=dict)

    @classmethod
    def of(cls, ctx: MoveContext, p: Planned) -> BaseCheck:
        """Query the terrain near ``p``'s path and the bases it passes through."""
        bf = ctx.bf
        features: list[int] = []
        if bf.terrain:
            if ctx.method == "brute":
                t_hits = np.flatnonzero(shapely.intersects(p.sweep, bf.terrain_polygons))
            else:
                t_hits = bf.terrain_tree.query(p.sweep, predicate="intersects")
            features = sorted(t_hits.tolist())
        if ctx.method == "brute":
            b_hits = np.flatnonzero(shapely.intersects(p.core, bf.polygons))
        else:
            b_hits = bf.tree.query(p.core, predicate="intersects")
        return cls(p, features, sorted(b_hits.tolist()))

    def near(self, ctx: MoveContext) -> list[TerrainShape]:
        """The terrain features the path meets."""
        return [ctx.bf.terrain[t] for t in self.features]


def _shrunk(p: Planned, at: int, shrink: float) -> shapely.Geometry:
    """The base at pose ``at`` of its path, shrunk by ``shrink`` on every side (PD-3)."""
    return shrunk_base(p.motion.poses[at], p.motion.width, p.motion.depth, shrink)


# --- the whole move, first ------------------------------------------------------------------------


def after_fire_refusals(ctx: MoveContext) -> list[Violation]:
    """4.9.1, 4.9.3, 4.11.3, 4.11.4, 2.3 — a move after a fire that was refused, after fire on
    the march, on the march after normal fire, or a charge after fire."""
    result = ctx.after_fire
    if result is None:
        return []
    charging = bool(ctx.charge_ids)
    who = _("{shooter} fired at {target}").format(shooter=result.shooter, target=result.target)
    if not result.legal:
        why = (
            _(" ([{rule}] {message})").format(rule=result.reason.rule, message=result.reason.message)
            if result.reason
            else ""
        )
        return [
            Violation(
                "4.9.1",
                _(
                    "{shooter} could not fire at {target}{why}: there is no move after fire (check the move on its own, 4.3.6)"
                ).format(shooter=result.shooter, target=result.target, why=why),
            )
        ]
    out: list[Violation] = []
    if result.march:
        if ctx.march:
            ctx.notes.append(
                _(
                    "fire on the march (4.11.2): {who} before its half move; the whole unit may make it (there is no move after fire, 4.11.3)"
                ).format(who=who)
            )
        else:
            out.append(
                Violation(
                    "4.11.3",
                    _(
                        "{who} on the march: it may not move after fire (4.9); its only move is the half move of fire on the march, before or after the fire (4.11.2)"
                    ).format(who=who),
                )
            )
            if charging:
                out.append(Violation("4.11.4", _("{who} on the march: it may not charge").format(who=who)))
        return out
    if ctx.march:
        out.append(
            Violation(
                "2.3",
                _("{who} (4.1): it may not also move on the march; a unit takes one action").format(who=who),
            )
        )
    if charging:
        out.append(Violation("4.9.3", _("{who}: figures moved after fire may not charge").format(who=who)))
    return out


def no_charge_on_the_march(ctx: MoveContext) -> list[Violation]:
    """4.11 — fire on the march allows no charge."""
    if ctx.march and ctx.charge_ids:
        return [
            Violation(
                "4.11",
                _("fire on the march allows no melee: a unit moving at half speed to fire may not charge"),
            )
        ]
    return []


def no_artillery_on_the_march(ctx: MoveContext) -> list[Violation]:
    """7.1.2 — artillery may not fire on the march, so it makes no half move of one ("Artyleria
    nie może wykonać manewru polegającego na tym, że połowę swoich punktów ruchu przeznacza na
    wykonanie ostrzału, a drugą połowę na wykonanie ruchu")."""
    if not ctx.march:
        return []
    units = ctx.bf.scenario.units
    guns = [units[k].id for k in ctx.unit_ks if units[k].profile.kind.is_artillery]
    if not guns:
        return []
    return [
        Violation(
            "7.1.2",
            _("{units}: artillery may not fire on the march, so it makes no half move of one").format(
                units=", ".join(guns)
            ),
        )
    ]


def no_charge_in_panic(ctx: MoveContext) -> list[Violation]:
    """6.1 — a unit in panic or uncontrolled pursuit does not charge."""
    states = {ctx.bf.scenario.units[k].state for k in ctx.unit_ks}
    if ctx.charge_ids and states - {UnitState.NORMAL}:
        return [
            Violation(
                "6.1",
                _(
                    "a unit in panic or uncontrolled pursuit takes no action in the movement phase: it cannot charge"
                ),
            )
        ]
    return []


def combined_units_touch(ctx: MoveContext) -> list[Violation]:
    """3.3 — the units of a combined move touch at the start (a connected graph of touching
    units)."""
    bf, ks = ctx.bf, ctx.unit_ks
    if len(ks) < 2:
        return []
    touch_i: list[int] = []
    touch_j: list[int] = []
    for a in range(len(ks)):
        for b in range(a + 1, len(ks)):
            ca = bf.corners[bf.unit_bases(ks[a])]
            cb = bf.corners[bf.unit_bases(ks[b])]
            if bool((polygon_distance(ca[:, None], cb[None, :]) <= ctx.tol).any()):
                touch_i.append(a)
                touch_j.append(b)
    if len(set(connected_groups(len(ks), touch_i, touch_j).tolist())) > 1:
        return [
            Violation(
                "3.3",
                _(
                    "units {unit_ids} do not touch at the start of the move; only units with bases touching may move together"
                ).format(unit_ids=", ".join(ctx.unit_ids)),
            )
        ]
    return []


# --- base by base ---------------------------------------------------------------------------------


def declared_firing(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """4.9.1 — a figure declared as firing does not move after fire."""
    if st.p.base not in ctx.declared_fire:
        return []
    assert ctx.after is not None
    return [
        ctx.violation(
            st.p,
            "4.9.1",
            _(
                "was declared as firing at {target}: only the figures not declared as firing may move after fire"
            ).format(target=ctx.after.target),
        )
    ]


def closed_terrain(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.2.4, 3.2.5 — the path crosses no impassable terrain, high wall or building (or
    fortification) closed to the base's kind."""
    bf, p = ctx.bf, st.p
    kind = bf.kinds[p.base]
    out: list[Violation] = []
    for t in st.features:
        f = bf.terrain[t]
        if not shapely.intersects(p.core, f.polygon):
            continue
        rule = forbidden_rule(kind, f)
        if rule is not None:
            why = (
                _("impassable")
                if rule == "3.2.4"
                else _("closed to {kind}").format(kind=term(kind.value).replace("_", " "))
            )
            out.append(
                ctx.violation(
                    p,
                    rule,
                    _("the path crosses {f} {unit} ({why})").format(
                        f=term(f.kind.value).replace("_", " "), unit=f.id, why=why
                    ),
                )
            )
    return out


def through_other_units(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.1.3 — the path passes through no figure of another own unit (at its place)."""
    bf, moving = ctx.bf, ctx.moving_set
    return [
        ctx.violation(
            st.p, "3.1.3", _("the path passes through own figure {base}").format(base=bf.base_ids[o])
        )
        for o in st.hits
        if o not in moving and bf.side[o] == ctx.side
    ]


def through_own_unit(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.1.1, 3.1.3 — figure after figure, the path passes through no figure of the moving
    units: those not yet moved where they stand, those moved at their new places. Only when no
    order of the bases works; then in file order."""
    if ctx.order is not None:
        return []
    p = st.p
    out: list[Violation] = []
    for o, poly in ctx._moved.items():
        if o != p.base and shapely.intersects(p.core, poly):
            out.append(
                ctx.violation(
                    p,
                    "3.1.3",
                    _("the path passes through own figure {base} (moving the bases in any order)").format(
                        base=ctx.bf.base_ids[o]
                    ),
                )
            )
            break
    ctx._moved[p.base] = shapely.Polygon(p.final)
    return out


def fire_lines(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """4.9.4, PD-7 — after fire, the path enters no band of a line of fire of a figure of its
    unit that fired (a base that starts inside a band may leave it)."""
    if not ctx.fire_bands:
        return []
    p = st.p
    start_core = _shrunk(p, 0, ctx.shrink)
    for label, band in ctx.fire_bands:
        if shapely.intersects(p.core, band) and not shapely.intersects(start_core, band):
            return [
                ctx.violation(
                    p,
                    "4.9.4",
                    _(
                        "the path enters the line of fire {label} (its band, PD-7) of a figure of its unit that fired this turn"
                    ).format(label=label),
                )
            ]
    return []


def _zones_of(ctx: MoveContext, e: int) -> list[tuple[shapely.Geometry, str | None]]:
    """1.4.2, 1.4.3 — the shapes from which enemy figure ``e``'s zone is measured: its base,
    and the far side of each crossable obstacle it stands at (with the obstacle's id)."""
    bf, tol = ctx.bf, ctx.tol
    zones: list[tuple[shapely.Geometry, str | None]] = [(bf.polygons[e], None)]
    if ctx.obstacles:
        at = (
            np.flatnonzero(shapely.distance(bf.polygons[e], bf.terrain_polygons) <= tol)
            if ctx.method == "brute"
            else bf.terrain_tree.query(bf.polygons[e], predicate="dwithin", distance=tol)
        )
        for t in sorted(int(k) for k in at if bf.terrain[int(k)].crossable_obstacle):
            core = obstacle_zone_core(bf, e, t, tol)
            if not core.is_empty:
                zones.append((core, bf.terrain[t].id))
    return zones


def _entered_at(ctx: MoveContext, p: Planned, zone: shapely.Geometry, radius: float) -> float:
    """5.9.2 — how far along its path (cm of the measured corner, PD-6) base ``p`` first comes
    within ``radius`` of ``zone``: the first stretch of the move (sampled, its ends refined,
    :meth:`~szwadron.geometry.paths.BaseMotion.intervals`) in which it is inside; a graze too
    brief for the samples counts at the sample nearest the zone."""
    motion = p.motion

    def inside(s: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        return np.asarray(shapely.distance(motion.polygons_at(s), zone) < radius - ctx.eps)

    stretches = motion.intervals(inside)
    if stretches:
        at = stretches[0][0]
    else:
        s = motion.samples()
        at = float(s[int(np.argmin(shapely.distance(motion.polygons_at(s), zone)))])
    return float(motion.travelled(at))


def control_zones(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """1.4.2, 1.4.3, 5.9.3 — the path comes into no enemy control zone, except those of
    figures engaged in melee or in panic and those of a charged unit (noted for 5.9.2); a base
    that starts in a zone may not end nearer that enemy."""
    bf, p, eps = ctx.bf, st.p, ctx.eps
    radius = bf.settings.control_zone_cm
    reach = radius + ctx.widest + ctx.tol
    if ctx.method == "brute":
        z_cand = np.flatnonzero(shapely.distance(p.sweep, bf.polygons) <= reach)
    else:
        z_cand = bf.tree.query(p.sweep, predicate="dwithin", distance=reach)
    start_poly = shapely.Polygon(bf.corners[p.base])
    final_poly = shapely.Polygon(p.final)
    out: list[Violation] = []
    for e in sorted(z_cand.tolist()):
        if bf.side[e] == ctx.side or bf.panicking[bf.unit_of[e]] or ctx.engaged(e):
            continue
        charged = int(bf.unit_of[e]) in ctx.charge_ks
        for zone, via in _zones_of(ctx, e):
            dist = float(shapely.distance(p.sweep, zone))
            if dist >= radius - eps:
                continue
            start_d = float(shapely.distance(start_poly, zone))
            if start_d < radius - eps:  # already in this zone: may not come nearer
                end_d = float(shapely.distance(final_poly, zone))
                if end_d < start_d - eps and not charged:
                    out.append(
                        ctx.violation(
                            p,
                            "1.4.2",
                            _(
                                "starts in the control zone of enemy figure {base} and ends nearer it ({end_d:.2f} cm, was {start_d:.2f} cm)"
                            ).format(base=bf.base_ids[e], end_d=end_d, start_d=start_d),
                        )
                    )
                continue
            if charged:
                k = int(bf.unit_of[e])
                at = _entered_at(ctx, p, zone, radius)
                st.entered[k] = min(at, st.entered.get(k, at))
                continue
            across = _(", measured from beyond {via} (1.4.3)").format(via=via) if via else ""
            out.append(
                ctx.violation(
                    p,
                    "1.4.2",
                    _(
                        "the path enters the control zone of enemy figure {base} (comes within {dist:.2f} cm{across}); only a charge on it may enter"
                    ).format(base=bf.base_ids[e], dist=dist, across=across),
                )
            )
            break
    return out


def through_enemies(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.1.4 — the path runs through no enemy figure (other than a charged one)."""
    bf, moving = ctx.bf, ctx.moving_set
    return [
        ctx.violation(
            st.p, "3.1.4", _("the path runs through enemy figure {base}").format(base=bf.base_ids[o])
        )
        for o in st.hits
        if o not in moving and bf.side[o] != ctx.side and int(bf.unit_of[o]) not in ctx.charge_ks
    ]


def into_charged(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """5.9.2 — a charge stops at contact: the path does not run into a charged figure."""
    bf, moving = ctx.bf, ctx.moving_set
    return [
        ctx.violation(
            st.p,
            "5.9.2",
            _("the path runs into the charged figure {base}: a charge stops at contact").format(
                base=bf.base_ids[o]
            ),
        )
        for o in st.hits
        if o not in moving and bf.side[o] != ctx.side and int(bf.unit_of[o]) in ctx.charge_ks
    ]


def closes_to_contact(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """5.9.2 — a charging base that enters the charged unit's zone ends touching a charged
    figure, or in contact with one across an obstacle (PD-4: the zone of a figure at a fence is
    measured from its far side, 1.4.3, 3.2.3, and a charge on it stops at the fence); records
    the bases that end in contact.

    "Każda jednostka wchodząca we wrogą strefę kontroli musi dosunąć się do wrogiej jednostki i
    zatrzymać": the base closes to the enemy whose zone it enters and stops there. Decision
    where a charge names several units (5.2): the base ends touching the charged unit whose zone
    it came into first (or one of those it came into at the same point, within PD-3's tolerance);
    contact with another charged unit only, after passing through the first one's zone, is no
    closing to it."""
    bf, p = ctx.bf, st.p
    ks = sorted(ctx.charge_ks)
    targets = [int(o) for k in ks for o in bf.unit_bases(k)]
    if not targets:
        return []
    d_end = polygon_distance(p.final, bf.corners[targets])
    touched = {int(bf.unit_of[t]) for t, dd in zip(targets, d_end.tolist(), strict=True) if dd <= ctx.tol}
    if ctx.obstacles:
        final_poly = shapely.Polygon(p.final)
        touched |= {
            int(bf.unit_of[t])
            for t, dd in zip(targets, d_end.tolist(), strict=True)
            if ctx.tol < dd <= ctx.widest + ctx.tol
            and bf.obstacle_between(final_poly, t, dd) is not None  # as check and melee count it
        }
    if touched:
        ctx.contacts.add(p.base)
    if not st.entered:
        return []
    if not touched:
        return [
            ctx.violation(
                p,
                "5.9.2",
                _(
                    "enters the control zone of the charged unit and must close to contact and stop; it ends {d_end:.2f} cm from it"
                ).format(d_end=float(d_end.min())),
            )
        ]
    first = min(st.entered.values())
    firsts = sorted(k for k, at in st.entered.items() if at <= first + ctx.tol)
    if touched.isdisjoint(firsts):
        return [
            ctx.violation(
                p,
                "5.9.2",
                _(
                    "enters the control zone of the charged unit {unit} first and must close to it and stop; it ends in contact with {other} only"
                ).format(
                    unit=bf.unit_ids[firsts[0]],
                    other=", ".join(bf.unit_ids[k] for k in sorted(touched)),
                ),
            )
        ]
    return []


def _leaving(start: shapely.Polygon, final: shapely.Polygon, area: shapely.Geometry, tol: float) -> bool:
    """3.2.1, 3.2.2 — the base ends with less of it inside ``area`` than it started with: it is
    coming out (down a hill, out of a wood), not going in."""
    inside = shapely.area(shapely.intersection(start, area)) - shapely.area(shapely.intersection(final, area))
    return bool(inside > tol * tol)


def where_it_ends(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.2.1, 3.2.2, 3.2.3 — the base does not end straddling a hill edge or the edge of rough
    ground (forest) when it goes up or in, nor on an obstacle. A figure "wchodząc w taki teren,
    musi wejść w niego całą podstawką" (entering rough ground must enter with its whole base,
    3.2.2) and needs the move to fit on a hill to go up (3.2.1; "zejście ze wzgórza nie powoduje
    żadnych utrudnień": going down is no hindrance), so a base that ends with less of it in the
    wood or on the hill than it started with may stop astride the edge."""
    if ctx.push_up:  # 5.6.7: "bez względu na teren" — only closed ground (closed_terrain) stops it
        return []
    p, tol = st.p, ctx.tol
    fin_core = _shrunk(p, -1, ctx.shrink)
    final_poly = shapely.Polygon(p.final)
    start_poly = shapely.Polygon(ctx.bf.corners[p.base])
    out: list[Violation] = []
    for f in st.near(ctx):
        if not shapely.intersects(fin_core, f.polygon):
            continue
        covered = bool(shapely.covers(shapely.buffer(f.polygon, tol), final_poly))
        if (
            not covered
            and f.kind is not TerrainKind.OBSTACLE
            and _leaving(start_poly, final_poly, f.polygon, tol)
        ):
            continue  # the whole base is asked of a figure going in or up, not of one coming out
        if f.kind is TerrainKind.HILL and not covered:
            out.append(
                ctx.violation(
                    p,
                    "3.2.1",
                    _(
                        "ends with part of its base on hill {unit}: the whole base must fit on the hill"
                    ).format(unit=f.id),
                )
            )
        elif f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH) and not covered:
            out.append(
                ctx.violation(
                    p,
                    "3.2.2",
                    _(
                        "ends partly in {value} {unit}: a figure enters rough ground with its whole base, or stops before it"
                    ).format(value=term(f.kind.value), unit=f.id),
                )
            )
        elif on_obstacle(fin_core, f):  # 3.2.3, as reach asks it of the poses it proposes
            out.append(
                ctx.violation(
                    p, "3.2.3", _("ends on obstacle {unit}: stop touching it, or cross it").format(unit=f.id)
                )
            )
    return out


def on_the_table(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.1.4 — the path stays on the table."""
    eps, table = ctx.eps, ctx.bf.scenario.table
    minx, miny, maxx, maxy = shapely.bounds(st.p.core).tolist()
    if minx < -eps or miny < -eps or maxx > table.width + eps or maxy > table.depth + eps:
        return [ctx.violation(st.p, "3.1.4", _("the path leaves the table"))]
    return []


def within_its_move(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """3.1.5, PD-6, 3.2, 3.3, 4.11, 7.2 — the corner that travels furthest plus the terrain
    surcharges is within the base's move (3.2.1: the foot of the hill excepted); records the
    surcharges."""
    p, b = st.p, st.p.base
    near = st.near(ctx)
    # 5.6.7: a push-up "bez względu na teren" (impassable ground is refused by closed_terrain)
    ctx.surcharges[b] = (
        terrain_surcharges(p.motion, near, ctx.bf.settings) if near and not ctx.push_up else ()
    )
    total = p.motion.length + sum(x.cm for x in ctx.surcharges[b])
    allowed = ctx.speed[b]
    if total <= allowed + ctx.eps:
        return []
    hill = foot_of_hill(ctx.bf, p, near, ctx.tol)
    if hill is not None:
        ctx.notes.append(
            _(
                "{base}: foot of the hill (3.2.1): it touched hill {hill} and moves up onto its edge although the climb costs {total:.2f} cm"
            ).format(base=ctx.bf.base_ids[b], hill=hill, total=total)
        )
        return []
    return [
        ctx.violation(
            p,
            "5.6.7" if ctx.push_up else "3.1.5",
            _("moves {total:.2f} cm ({itemise}), more than its {allowed:g} cm").format(
                total=total, itemise=itemise(p.motion.length, ctx.surcharges[b]), allowed=allowed
            ),
        )
    ]


def _unmoved(ctx: MoveContext, st: BaseCheck) -> bool:
    """The base is listed at the pose it stands in: it does not move."""
    return st.p.motion.length <= ctx.eps


def pushes_up(ctx: MoveContext, st: BaseCheck) -> list[Violation]:
    """5.6.4-5.6.6 — in a push-up the figure was not engaged in melee ("niezwiązane w walce
    wręcz") and moves towards the unit just fought ("w kierunku jednostek wrogiego oddziału, z
    którym oddział właśnie stoczył walkę"): Decision, its centre ends nearer that unit's figures
    than it started. A figure listed where it stands does not move and is not asked."""
    if not ctx.push_up or _unmoved(ctx, st):
        return []
    bf, p = ctx.bf, st.p
    targets = [int(o) for k in ctx.charge_ks for o in bf.unit_bases(k)]
    out: list[Violation] = []
    if ctx.engaged(p.base):  # in contact (PD-14) with a figure of the other side
        out.append(ctx.violation(p, "5.6.4", _("it is engaged in melee: only figures not engaged push up")))
    if targets:
        # the figure's centre comes nearer the enemy's figures: from a corner touch into an edge
        # contact the gap stays 0 but the centre closes in
        foes = bf.polygons[targets]
        before = float(shapely.distance(shapely.points(bf.corners[p.base].mean(axis=0)), foes).min())
        after = float(shapely.distance(shapely.points(np.asarray(p.final).mean(axis=0)), foes).min())
        if after > before - ctx.eps:
            out.append(
                ctx.violation(
                    p,
                    "5.6.6",
                    _(
                        "its centre ends {after:.2f} cm from the enemy it fought, {before:.2f} cm before: a push-up moves towards it"
                    ).format(after=after, before=before),
                )
            )
    return out


# --- the whole move, last -------------------------------------------------------------------------


def coherent_at_the_end(ctx: MoveContext) -> list[Violation]:
    """1.3.3 — each moving unit is coherent at the end of the move (not a unit in panic or
    pursuit, 6.1); a push-up (5.6) only may not leave it in more groups than it was (1.3.2: "Oddział
    może prowadzić ostrzał oraz kontynuować walkę wręcz bez zachowanej koherencji")."""
    bf = ctx.bf
    final_corners = bf.corners.copy()
    for p in ctx.planned:
        final_corners[p.base] = p.final
    out: list[Violation] = []
    for k in ctx.unit_ks:
        unit = bf.scenario.units[k]
        if unit.state is not UnitState.NORMAL:
            continue
        members = bf.unit_bases(k)
        labels = coherent_groups(bf, final_corners[members], bf.skirmishers[members])
        groups = len(set(labels.tolist()))
        if ctx.push_up:  # 1.3.2: a melee goes on without coherency; a push-up may not split the unit more
            before = len(set(coherent_groups(bf, bf.corners[members], bf.skirmishers[members]).tolist()))
            if groups <= before:
                continue
        if groups > 1:
            main = int(np.argmax(np.bincount(labels)))
            apart = [bf.base_ids[members[i]] for i in range(len(members)) if labels[i] != main]
            out.append(
                Violation(
                    "1.3.3",
                    ngettext(
                        "unit {unit} is not coherent at the end of the move: {apart} is apart from the rest",
                        "unit {unit} is not coherent at the end of the move: {apart} are apart from the rest",
                        len(apart),
                    ).format(unit=unit.id, apart=", ".join(apart)),
                    (apart[0],),
                )
            )
    return out


def push_up_after_melee(ctx: MoveContext) -> list[Violation]:
    """5.6.1 — a push-up follows a melee in which both stood: the unit and the enemy it pushes up
    towards are engaged (recorded in ``engaged_with`` either way, or touching, 5.1.2)."""
    if not ctx.push_up:
        return []
    unit, enemy = ctx.unit_ids[0], ctx.charge_ids[0]
    if engaged_or_recorded(ctx.bf, unit, enemy):
        return []
    return [
        Violation(
            "5.6.1",
            _("{unit} is not engaged with {enemy}: a push-up follows a melee in which both stood").format(
                unit=unit, enemy=enemy
            ),
            (),
        )
    ]


UnitStep = Callable[[MoveContext], list[Violation]]
BaseStep = Callable[[MoveContext, BaseCheck], list[Violation]]

#: The refusals of the whole move, reported first, in this order.
UNIT_STEPS_FIRST: tuple[UnitStep, ...] = (
    after_fire_refusals,
    no_charge_on_the_march,
    no_artillery_on_the_march,
    no_charge_in_panic,
    combined_units_touch,
    push_up_after_melee,
)

#: The rules checked on each base, in the order its violations are reported.
BASE_STEPS: tuple[BaseStep, ...] = (
    declared_firing,
    closed_terrain,
    through_other_units,
    through_own_unit,
    fire_lines,
    control_zones,
    through_enemies,
    into_charged,
    closes_to_contact,
    where_it_ends,
    on_the_table,
    within_its_move,
    pushes_up,
)

#: The rules of the whole move checked after the bases, reported last.
UNIT_STEPS_LAST: tuple[UnitStep, ...] = (coherent_at_the_end,)


__all__ = [
    "BASE_STEPS",
    "UNIT_STEPS_FIRST",
    "UNIT_STEPS_LAST",
    "BaseCheck",
    "MoveContext",
]
