"""Section 4, 6.1, 7.1–7.4 — the fire check as its layers, each a function citing its rule, run
in order; the first rule that stops a shooting base is the one reported.

1. The unit (:data:`UNIT_CHECKS`, :func:`check_unit`): panicking or pursuing (6.1), artillery
   on the march (4.11, 7.1.2), engaged in melee (4.1.1, 5.1.2).
2. Each declared figure (:data:`FIGURE_CHECKS`, :func:`check_figures`): the ammunition it
   carries (7.1.3), fire dice (4.6), a heavy gun's prepared position (7.3), an edge to fire
   through not touched by own bases (4.4.2, 4.4.3).
3. Each (figure, target base) pair (:data:`PAIR_CHECKS`, :func:`check_pairs`): the arc of a
   usable edge and the range Z edge to edge (4.4.1–4.4.3, PD-8, 4.5.1, 4.5.2); the target figure
   not engaged in melee (4.3.4); in sight — line, band, levels, terrain (4.3, PD-7, 4.10, PD-11);
   indirect fire for a gun that sees no target figure (7.4).
4. Each figure again (:func:`check_accuracy`): its accuracy at the nearest target it may fire at
   (PD-9) after range bands (4.5.4) and indirect fire (7.4), above 0.

How far each pair got is its *stage*: a refused target base reports the refusal of the shooter
that got furthest with it (:func:`target_reason`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import shapely

from szwadron.geometry.arcs import edge_contact_lengths, fire_edges, in_arcs
from szwadron.geometry.bases import EDGE_NAMES
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.sight import Blocked, check_sight, inset_corners, segment_crosses
from szwadron.i18n import _, term
from szwadron.models import Ability, Unit, UnitState
from szwadron.rulings import Ruling
from szwadron.table.fire.engagement import engaged_units
from szwadron.table.fire.results import FireLine, ShooterReport
from szwadron.table.fire.units import Context, IntArray, Stats, figure_stats

#: Order in which the edges holding a target on a boundary ray are tried (PD-8).
EDGE_PREFERENCE: tuple[int, ...] = tuple(EDGE_NAMES.index(e) for e in ("front", "right", "left", "back"))

#: How far a refused shooter/target pair got: the furthest stage names the most useful "no".
STAGE_ARC, STAGE_RANGE, STAGE_ENGAGED, STAGE_SIGHT = 1, 2, 3, 4


# --- 1. the unit ---------------------------------------------------------------------------------


def not_in_normal_morale(ctx: Context) -> Ruling | None:
    """6.1 — a panicking or pursuing unit takes no action in the movement phase: it may not fire."""
    su = ctx.shooter
    if su.state is UnitState.NORMAL:
        return None
    state = "panic" if su.state is UnitState.PANIC else "uncontrolled pursuit"
    return Ruling(
        "6.1",
        _("{unit} is in {state}: it takes no action in the movement phase and may not fire").format(
            unit=su.id, state=term(state)
        ),
    )


def artillery_on_the_march(ctx: Context) -> Ruling | None:
    """4.11, 7.1.2 — artillery may not fire on the march."""
    bf = ctx.bf
    kinds = [ctx.shooter.base_profile(int(bf.index_in_unit[b])).kind for b in ctx.declared.tolist()]
    if ctx.march and any(k.is_artillery for k in kinds):
        return Ruling(
            "7.1.2",
            _("{unit} is artillery: it may not fire on the march (4.11, 7.1.2)").format(unit=ctx.shooter.id),
        )
    return None


def engaged_in_melee(ctx: Context) -> Ruling | None:
    """4.1.1, 5.1.2 — a unit engaged in melee may not fire."""
    engaged = engaged_units(ctx.bf, ctx.shooter_k, ctx.method)
    if not engaged:
        return None
    return Ruling(
        "4.1.1",
        _("{unit} is engaged in melee with {engaged} (5.1.2): an engaged unit may not fire").format(
            unit=ctx.shooter.id, engaged=", ".join(engaged)
        ),
    )


#: Layer 1, in order.
UNIT_CHECKS: tuple[Callable[[Context], Ruling | None], ...] = (
    not_in_normal_morale,
    artillery_on_the_march,
    engaged_in_melee,
)


def check_unit(ctx: Context) -> Ruling | None:
    """Layer 1 — the first rule of :data:`UNIT_CHECKS` that stops the whole unit, or None."""
    for check in UNIT_CHECKS:
        why = check(ctx)
        if why is not None:
            return why
    return None


# --- 2. the figures ------------------------------------------------------------------------------


@dataclass
class Figures:
    """Layer 2 — per declared base: what it fires with (``stats``), the rule that stops it
    (``early``), or the edges it may fire through (``allowed``: usable by its kind, 4.4.3, and
    not touched by own bases, 4.4.2); ``touched_by`` its edges touched by own bases."""

    stats: dict[int, Stats] = field(default_factory=dict)
    early: dict[int, Ruling] = field(default_factory=dict)
    allowed: dict[int, np.ndarray] = field(default_factory=dict)
    touched_by: dict[int, np.ndarray] = field(default_factory=dict)

    @property
    def active(self) -> IntArray:
        """The bases that passed layer 2, in table order."""
        return np.asarray(sorted(self.allowed), dtype=np.intp)


FigureCheck = Callable[[Battlefield, Unit, int, Stats, np.ndarray], Ruling | None]


def no_fire_dice(bf: Battlefield, unit: Unit, b: int, stats: Stats, touched: np.ndarray) -> Ruling | None:
    """4.6 — a figure without fire dice (SO 0) or without an edge to fire through cannot fire."""
    if stats.dice <= 0 or not fire_edges(unit.base_profile(int(bf.index_in_unit[b])).kind):
        return Ruling("4.6", _("{base} has no fire dice (SO 0): it cannot fire").format(base=bf.base_ids[b]))
    return None


def heavy_unprepared(bf: Battlefield, unit: Unit, b: int, stats: Stats, touched: np.ndarray) -> Ruling | None:
    """7.3 — heavy artillery fires only from a firing position prepared since it last moved."""
    if unit.base_profile(int(bf.index_in_unit[b])).has(Ability.HEAVY) and not unit.prepared:
        return Ruling(
            "7.3",
            _(
                "{base} is heavy artillery that has not prepared its firing position since it moved (scenario: prepared = false)"
            ).format(base=bf.base_ids[b]),
        )
    return None


def every_edge_touched(
    bf: Battlefield, unit: Unit, b: int, stats: Stats, touched: np.ndarray
) -> Ruling | None:
    """4.4.2 — an edge touched by an own base cannot fire; artillery fires through its front
    edge only (4.4.3)."""
    if _untouched_edges(bf, unit, b, touched).any():
        return None
    ident = bf.base_ids[b]
    if unit.base_profile(int(bf.index_in_unit[b])).kind.is_artillery:
        return Ruling(
            "4.4.2",
            _(
                "the front edge of {ident}, the only one artillery fires through (4.4.3), is touched by an own base"
            ).format(ident=ident),
        )
    return Ruling("4.4.2", _("all four edges of {ident} are touched by own bases").format(ident=ident))


#: Layer 2 after the ammunition (7.1.3), in order.
FIGURE_CHECKS: tuple[FigureCheck, ...] = (no_fire_dice, heavy_unprepared, every_edge_touched)


def _untouched_edges(bf: Battlefield, unit: Unit, b: int, touched: np.ndarray) -> np.ndarray:
    """4.4.2, 4.4.3 — the edges of base ``b`` it may fire through, in :data:`EDGE_NAMES` order."""
    usable = fire_edges(unit.base_profile(int(bf.index_in_unit[b])).kind)
    mask: np.ndarray = np.asarray([e in usable for e in EDGE_NAMES]) & ~touched
    return mask


def check_figures(ctx: Context, ammo: str | None) -> Figures:
    """Layer 2 — each declared base: its ammunition (7.1.3), then :data:`FIGURE_CHECKS`."""
    bf, su = ctx.bf, ctx.shooter
    out = Figures()
    touched_all = touched_edges(bf, ctx.declared, ctx.method)
    for b in ctx.declared.tolist():
        s, why = figure_stats(su, int(bf.index_in_unit[b]), ammo)
        if s is None:
            assert why is not None
            out.early[b] = why
            continue
        out.stats[b] = s
        for check in FIGURE_CHECKS:
            why = check(bf, su, b, s, touched_all[b])
            if why is not None:
                out.early[b] = why
                break
        else:
            out.touched_by[b] = touched_all[b]
            out.allowed[b] = _untouched_edges(bf, su, b, touched_all[b])
    return out


def touched_edges(bf: Battlefield, bases: IntArray, method: PairMethod) -> dict[int, np.ndarray]:
    """4.4.2 — for each base, which of its edges own bases touch (see
    :func:`~szwadron.geometry.arcs.touched_edges`), all bases at once through the tree."""
    st = bf.settings
    eps = st.distance_epsilon_cm
    reach = st.contact_tolerance_cm + eps
    if method == "brute":
        d = shapely.distance(bf.polygons[bases][:, None], bf.polygons[None, :])
        q, o = np.nonzero(d <= reach)
    else:
        q, o = bf.tree.query(bf.polygons[bases], predicate="dwithin", distance=reach)
    b = bases[q]
    keep = (bf.side[o] == bf.side[b]) & (o != b)
    b, o = b[keep], o[keep]
    out = {int(k): np.zeros(4, dtype=bool) for k in bases.tolist()}
    if b.size:
        lengths = edge_contact_lengths(bf.corners[b], bf.corners[o], st.contact_tolerance_cm + eps)
        for k, row in zip(b.tolist(), (lengths > eps).tolist(), strict=True):
            out[k] |= np.asarray(row, dtype=bool)
    return out


# --- 3. the pairs --------------------------------------------------------------------------------


class PairReasons(dict[tuple[int, int], Ruling]):
    """Why each (shooter, target) pair fails; arc and range refusals (most pairs) are worded
    only when asked for, by ``lazy``."""

    lazy: Callable[[int, int], Ruling | None] | None = None

    def get(self, key: tuple[int, int], default: Ruling | None = None) -> Ruling | None:  # type: ignore[override]
        found = super().get(key)
        if found is None and self.lazy is not None:
            found = self.lazy(*key)
        return default if found is None else found


@dataclass
class Pairs:
    """Layer 3 — every (active shooter ``a``, target base ``t``) pair: how far it got
    (``stage``), why it stopped (``reasons``), the edge it fires through (``ok_edge``, -1 when
    none), whether indirectly (7.4), the distance edge to edge and the usable edges whose arc
    holds the target (``usable_arc``, ``(a, t, 4)``)."""

    active: IntArray
    target_bases: IntArray
    stage: np.ndarray
    dist: np.ndarray
    usable_arc: np.ndarray
    ok_edge: np.ndarray
    indirect_ok: np.ndarray
    reasons: PairReasons = field(default_factory=PairReasons)

    @classmethod
    def empty(cls, active: IntArray, target_bases: IntArray) -> Pairs:
        """Every pair at stage 0, no edge, no distance yet."""
        shape = (len(active), len(target_bases))
        return cls(
            active,
            target_bases,
            np.zeros(shape, dtype=np.intp),
            np.zeros(shape),
            np.zeros((*shape, 4), dtype=bool),
            np.full(shape, -1, dtype=np.intp),
            np.zeros(shape, dtype=bool),
        )


PairCheck = Callable[[Context, Figures, Pairs], None]


def arc_and_range(ctx: Context, figs: Figures, pairs: Pairs) -> None:
    """4.4.1–4.4.3, PD-8 — the target base's centre in the arc of an edge the figure may fire
    through; 4.5.1, 4.5.2 — within its range Z, edge to edge. Pairs that pass reach
    :data:`STAGE_ENGAGED`; the refusals are worded lazily (:func:`arc_or_range_reason`)."""
    bf, active, tb = ctx.bf, pairs.active, pairs.target_bases
    centres_t = np.stack([bf.x[tb], bf.y[tb]], axis=-1)
    arcs = in_arcs(bf.corners[active][:, None], centres_t[None, :])  # (a, t, 4)
    allow = np.stack([figs.allowed[b] for b in active.tolist()])  # (a, 4)
    pairs.usable_arc = arcs & allow[:, None, :]
    pairs.dist = polygon_distance(bf.corners[active][:, None], bf.corners[tb][None, :])
    ranges = {b: figs.stats[b].range for b in active.tolist()}
    in_arc = pairs.usable_arc.any(-1)
    in_range = pairs.dist <= np.asarray(list(ranges.values()))[:, None] + bf.settings.distance_epsilon_cm
    pairs.stage[in_arc] = STAGE_RANGE
    pairs.stage[in_arc & in_range] = STAGE_ENGAGED
    pairs.stage[~in_arc] = STAGE_ARC
    pairs.reasons.lazy = functools.partial(
        arc_or_range_reason, bf, active, tb, arcs, figs.touched_by, pairs.dist, ranges
    )


def engaged_target(ctx: Context, figs: Figures, pairs: Pairs) -> None:
    """4.3.4 — a target figure engaged in melee cannot be fired at; the others reach
    :data:`STAGE_SIGHT`."""
    cand = np.argwhere(pairs.stage == STAGE_ENGAGED)
    if not cand.size:
        return
    tb, ids = pairs.target_bases, ctx.bf.base_ids
    engaged = ctx.engaged()
    for a, t in cand.tolist():
        if int(tb[t]) in engaged:
            pairs.reasons[(a, t)] = Ruling(
                "4.3.4",
                _("{base} is engaged in melee (touching {engaged}): it cannot be targeted").format(
                    base=ids[tb[t]], engaged=engaged[int(tb[t])]
                ),
            )
        else:
            pairs.stage[a, t] = STAGE_SIGHT


def in_sight(ctx: Context, figs: Figures, pairs: Pairs) -> None:
    """4.3, PD-7 (the line and the band as wide as the firing edge), 4.10 and PD-11 (levels,
    terrain): the target figure seen through one of the usable edges whose arc holds it, tried in
    the order of :data:`EDGE_PREFERENCE` (PD-8); the first clear one is the edge fired through.

    One call of :func:`~szwadron.geometry.sight.check_sight` decides line, band, levels and
    terrain together, since it names the blocker nearest the shooter whatever its kind."""
    bf, active, tb = ctx.bf, pairs.active, pairs.target_bases
    trips = [
        (a, t, e)
        for a, t in np.argwhere(pairs.stage == STAGE_SIGHT).tolist()
        for e in EDGE_PREFERENCE
        if pairs.usable_arc[a, t, e]
    ]
    if not trips:
        return
    ta, tt, te = (np.asarray(col, dtype=np.intp) for col in zip(*trips, strict=True))
    widths = np.where(te % 2 == 0, bf.width[active[ta]], bf.depth[active[ta]])
    seen = check_sight(bf, active[ta], tb[tt], widths, method=ctx.method)
    first_block: dict[tuple[int, int], Blocked] = {}
    for a, t, e, blocked in zip(ta.tolist(), tt.tolist(), te.tolist(), seen, strict=True):
        if pairs.ok_edge[a, t] >= 0:
            continue
        if blocked is None:
            pairs.ok_edge[a, t] = e
        else:
            first_block.setdefault((a, t), blocked)
    for (a, t), blocked in first_block.items():
        if pairs.ok_edge[a, t] < 0:
            pairs.reasons[(a, t)] = Ruling(blocked.rule, blocked.message)


def indirect_fire(ctx: Context, figs: Figures, pairs: Pairs) -> None:
    """7.4 — a gun with indirect fire that sees no target figure fires at every one in arc and
    range (through its first usable edge holding it), unless an own figure stands on the line of
    fire closer than 6 cm (:func:`indirect_block`)."""
    for a, b in enumerate(pairs.active.tolist()):
        if not figs.stats[b].indirect or (pairs.ok_edge[a] >= 0).any():
            continue
        for t in np.flatnonzero(pairs.stage[a] == STAGE_SIGHT).tolist():
            why = indirect_block(ctx.bf, b, int(pairs.target_bases[t]), ctx.method)
            if why is None:
                pairs.indirect_ok[a, t] = True
                pairs.ok_edge[a, t] = int(np.flatnonzero(pairs.usable_arc[a, t])[0])
            else:
                pairs.reasons[(a, t)] = why


#: Layer 3, in order.
PAIR_CHECKS: tuple[PairCheck, ...] = (arc_and_range, engaged_target, in_sight, indirect_fire)


def check_pairs(ctx: Context, figs: Figures) -> Pairs:
    """Layer 3 — :data:`PAIR_CHECKS` on every pair of an active figure and a target base."""
    pairs = Pairs.empty(figs.active, ctx.target_bases)
    if len(pairs.active):
        for check in PAIR_CHECKS:
            check(ctx, figs, pairs)
    return pairs


def arc_or_range_reason(
    bf: Battlefield,
    active: IntArray,
    tb: IntArray,
    arcs: np.ndarray,
    touched_by: dict[int, np.ndarray],
    dist: np.ndarray,
    ranges: dict[int, float],
    a: int,
    t: int,
) -> Ruling | None:
    """4.4.1–4.4.3, 4.5.1 — the wording of an arc or range refusal of pair ``(a, t)``."""
    ids = bf.base_ids
    b = int(active[a])
    target = ids[tb[t]]
    usable = [e in fire_edges(bf.kinds[b]) for e in EDGE_NAMES]
    holding = [k for k in range(4) if arcs[a, t, k]]
    if not any(usable[k] and not touched_by[b][k] for k in holding):
        blocked = [k for k in holding if usable[k] and touched_by[b][k]]
        if blocked:
            return Ruling(
                "4.4.2",
                _("{target} is in the arc of the {edge} edge of {base}, touched by an own base").format(
                    target=target, edge=term(EDGE_NAMES[blocked[0]]), base=ids[b]
                ),
            )
        if holding and bf.kinds[b].is_artillery:
            return Ruling(
                "4.4.3",
                _(
                    "{target} is in the arc of the {edge} edge of {base}, not its front: artillery fires only through its front edge"
                ).format(target=target, edge=term(EDGE_NAMES[holding[0]]), base=ids[b]),
            )
        return Ruling(
            "4.4.1", _("{target} is in no usable arc of {base}").format(target=target, base=ids[b])
        )  # pragma: no cover
    if dist[a, t] > ranges[b] + bf.settings.distance_epsilon_cm:
        return Ruling(
            "4.5.1",
            _("{target} is {dist:.2f} cm from {base}, beyond its range of {ranges:g} cm").format(
                target=target, dist=dist[a, t], base=ids[b], ranges=ranges[b]
            ),
        )
    return None


def indirect_block(bf: Battlefield, shooter: int, target: int, method: PairMethod) -> Ruling | None:
    """7.4 — an own figure on the line of fire closer than ``indirect_min_friend_cm`` (6 cm,
    edge to edge from the firing base) forbids indirect fire along it."""
    st = bf.settings
    p0 = np.asarray([bf.x[shooter], bf.y[shooter]])
    p1 = np.asarray([bf.x[target], bf.y[target]])
    line = shapely.LineString([tuple(p0), tuple(p1)])
    cand = bf.near(line, 0.0, method=method)
    cand = cand[(bf.side[cand] == bf.side[shooter]) & (cand != shooter)]
    if cand.size == 0:
        return None
    hit = np.asarray(
        segment_crosses(p0, p1, inset_corners(bf.corners[cand], st.overlap_tolerance_cm))
    ).reshape(-1)
    cand = cand[hit]
    if cand.size == 0:
        return None
    d = polygon_distance(bf.corners[shooter][None], bf.corners[cand])
    close = d < st.indirect_min_friend_cm - st.distance_epsilon_cm
    if not close.any():
        return None
    k = int(np.flatnonzero(close)[np.argmin(d[close])])
    return Ruling(
        "7.4",
        _(
            "own figure {base} stands on the line of indirect fire from {base2} to {base3}, {d:.2f} cm away (closer than {indirect_min_friend_cm:g} cm)"
        ).format(
            base=bf.base_ids[cand[k]],
            base2=bf.base_ids[shooter],
            base3=bf.base_ids[target],
            d=float(d[k]),
            indirect_min_friend_cm=st.indirect_min_friend_cm,
        ),
    )


# --- 4. each figure again: accuracy ----------------------------------------------------------------


def check_accuracy(ctx: Context, figs: Figures, pairs: Pairs) -> tuple[tuple[ShooterReport, ...], list[int]]:
    """Layer 4 — a report per declared base (in declared order) and the active positions of the
    figures that fire: those stopped in layer 2, those with no pair left after layer 3, and
    those whose accuracy falls to 0 or less (:func:`shooter_report`) do not."""
    reports: list[ShooterReport] = []
    firing: list[int] = []
    for b in ctx.declared.tolist():
        s = figs.stats.get(b)
        dice, c0 = (s.dice, s.accuracy) if s else (0, 0)
        why = figs.early.get(b)
        if why is not None:
            reports.append(
                ShooterReport(
                    ctx.bf.base_ids[b], False, why.rule, why.message, None, (), None, None, dice, c0
                )
            )
            continue
        a = int(np.searchsorted(pairs.active, b))
        report = shooter_report(ctx.bf, pairs, a, dice, c0)
        if report.can_fire:
            firing.append(a)
        reports.append(report)
    return tuple(reports), firing


def shooter_report(bf: Battlefield, pairs: Pairs, a: int, dice: int, c0: int) -> ShooterReport:
    """PD-9 — the figure's nearest target it may fire at sets its edge, distance and accuracy:
    C less one per full range band (4.5.4) and the indirect penalty (7.4); at C ≤ 0 it cannot
    fire (4.5.4). With no pair left, the refusal of the pair that got furthest (nearest first)."""
    st, ids, tb = bf.settings, bf.base_ids, pairs.target_bases
    b = int(pairs.active[a])
    ok = np.flatnonzero(pairs.ok_edge[a] >= 0)
    if ok.size == 0:
        best_stage = int(pairs.stage[a].max()) if len(tb) else 0
        at = np.flatnonzero(pairs.stage[a] == best_stage)
        t = int(at[np.argmin(pairs.dist[a, at])])
        r = pairs.reasons.get((a, t)) or Ruling("4.4.1", _("no target figure for {base}").format(base=ids[b]))
        return ShooterReport(ids[b], False, r.rule, r.message, None, (), None, None, dice, c0)
    near_t = int(ok[np.argmin(pairs.dist[a, ok])])
    d = float(pairs.dist[a, near_t])
    indirect = bool(pairs.indirect_ok[a, near_t])
    bands = math.floor((d + st.distance_epsilon_cm) / st.range_band_cm)
    acc = c0 - bands - (st.indirect_accuracy_penalty if indirect else 0)
    lines = tuple(
        FireLine(
            ids[tb[t]],
            EDGE_NAMES[int(pairs.ok_edge[a, t])],
            float(pairs.dist[a, t]),
            bool(pairs.indirect_ok[a, t]),
        )
        for t in ok[np.argsort(pairs.dist[a, ok], kind="stable")].tolist()
    )
    edge = EDGE_NAMES[int(pairs.ok_edge[a, near_t])]
    if acc <= 0:
        msg = (
            _("{base}: C {c0} − {bands} for {d:.2f} cm to its nearest target {base2}").format(
                base=ids[b], c0=c0, bands=bands, d=d, base2=ids[tb[near_t]]
            )
            + (" " + _("− 1 for indirect fire (7.4)") if indirect else "")
            + " "
            + _("= {accuracy}: a figure at C ≤ 0 cannot fire").format(accuracy=acc)
        )
        return ShooterReport(ids[b], False, "4.5.4", msg, edge, (), d, acc, dice, c0, indirect, lines)
    targets = tuple(ln.target for ln in lines)
    return ShooterReport(ids[b], True, None, None, edge, targets, d, acc, dice, c0, indirect, lines)


def target_reason(base: str, t: int, pairs: Pairs) -> Ruling:
    """Why target base ``t`` cannot be hit: the refusal of the shooter that got furthest with it
    (nearest on a tie); 4.5.3 when every shooter that could reach it was itself stopped."""
    stage, dist = pairs.stage, pairs.dist
    if stage.shape[0]:
        col = stage[:, t]
        cand = np.flatnonzero(col == col.max())
        a = int(cand[np.argmin(dist[cand, t])])
        found = pairs.reasons.get((a, t))
        if found is not None:
            return found
    return Ruling(
        "4.5.3", _("{base} is not in range, arc and sight of any figure that fires").format(base=base)
    )


__all__ = [
    "EDGE_PREFERENCE",
    "FIGURE_CHECKS",
    "PAIR_CHECKS",
    "STAGE_ARC",
    "STAGE_ENGAGED",
    "STAGE_RANGE",
    "STAGE_SIGHT",
    "UNIT_CHECKS",
    "Figures",
    "PairReasons",
    "Pairs",
    "arc_and_range",
    "arc_or_range_reason",
    "artillery_on_the_march",
    "check_accuracy",
    "check_figures",
    "check_pairs",
    "check_unit",
    "engaged_in_melee",
    "engaged_target",
    "every_edge_touched",
    "heavy_unprepared",
    "in_sight",
    "indirect_block",
    "indirect_fire",
    "no_fire_dice",
    "not_in_normal_morale",
    "shooter_report",
    "target_reason",
    "touched_edges",
]
