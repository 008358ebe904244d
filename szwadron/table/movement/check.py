"""Section 3, 1.3.3, 1.4, 4.9, 4.11, 5.9 — :func:`check_move` runs the steps of
:mod:`szwadron.table.movement.steps` on a proposed move; :func:`place` puts a unit at the end of
one (4.12.3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.geometry.bases import EDGE_NAMES
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.sight import band_corners
from szwadron.i18n import _
from szwadron.loading import validate
from szwadron.models import Scenario
from szwadron.movefile import MoveFile
from szwadron.table.movement.plan import base_speeds, figure_order, plan_paths, resolve_poses
from szwadron.table.movement.report import AfterFire, BaseMove, MoveReport, Violation
from szwadron.table.movement.steps import (
    BASE_STEPS,
    UNIT_STEPS_FIRST,
    UNIT_STEPS_LAST,
    BaseCheck,
    MoveContext,
)

if TYPE_CHECKING:
    from szwadron.table.fire import FireResult


# long: the docstring is the reference of every parameter, with examples; the body is a dozen lines.
def check_move(
    scenario: Scenario | Battlefield,
    units: str | Sequence[str],
    move: MoveFile | Mapping[str, Any],
    *,
    charge: Sequence[str] = (),
    march: bool = False,
    after_fire: FireResult | None = None,
    method: PairMethod = "index",
    source: str = "move",
    push_up: str | None = None,
) -> MoveReport:
    """Section 3, 1.3.3, 1.4.2, 4.9, 4.11, 5.6, 5.9 — check a proposed move (see :mod:`szwadron.table.movement`).

    Parameters
    ----------
    scenario:
        The table before the move (a built Battlefield is reused).
    units:
        The moving unit's id, or the ids of a combined move (3.3).
    move:
        The new poses (:class:`MoveFile` or its data).
    charge:
        Ids of the enemy units charged (5.2: one attack on any number of units).
    march:
        Fire on the march (4.11): half the move, no charge.
    after_fire:
        4.9 — the move follows this fire of the moving unit (:func:`szwadron.table.fire.fire` on the
        same table, its ``bases`` the declared ones). Then: 4.9.1 a declared base may not move;
        4.9.2 every other rule applies (full move); 4.9.3 no charge; 4.9.4 no path may enter the
        band (PD-7) of a line of fire of a figure that fired — the band as the fire answer has
        it (as wide as the firing edge, less the firing and target bases), entered when the
        swept base reaches into it by more than the overlap tolerance (PD-3). A fire that was
        not legal gives no move after fire (4.9.1). After fire on the march (``after_fire.march``)
        only the half move of fire on the march itself is allowed (``march=True``, 4.11.2);
        any other move is a move after fire, refused by 4.11.3 (a charge by 4.11.4).
        Decision: a base that starts inside a band may leave it (it does not enter it); a
        declared base that could not fire was declared all the same (4.9.1 speaks of the
        declaration) and does not move, but has no line of fire; a unit that fired normally
        may not then move on the march (2.3: one action), refused under rule 2.3.
    method:
        ``"index"`` finds what a path meets with the STR-trees; ``"brute"`` tries every base
        and feature (the naive reference; same answer).
    source:
        Name of the move file in error messages.
    push_up:
        5.6 — the move is a push-up towards this enemy unit, just fought with both standing:
        every base at most ``push_up_cm`` (4) whatever the terrain but not into impassable
        ground (5.6.7), only figures not engaged (5.6.4, 5.6.5), each ending no further from
        that unit (5.6.6); its zone may be entered, to end in contact (5.9.2), as a charge's.

    Raises
    ------
    InvalidDataError
        Unknown units or bases, a base listed twice, a pose off the table, a charge on a
        friend, an ``after_fire`` of another unit than the one moving (or a combined move);
        the message names ``source`` and the field path.

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60},
    ...     "units": [{"id": "a", "side": "A", "profile": inf, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]}]})
    >>> ahead = lambda dy: {"bases": [{"index": k, "x": 10 + 2 * k, "y": 10 + dy, "facing": 90}
    ...                               for k in range(2)]}
    >>> check_move(sc, "a", ahead(12.0)).legal
    True
    >>> r = check_move(sc, "a", ahead(12.1))
    >>> r.rule, r.violations[0].base
    ('3.1.5', 'a/0')
    """
    # the work: _context (what is known before the rules), _run (the steps, in order)
    bf = Battlefield.of(scenario)
    if push_up is not None:
        _check_push_up_enemy(bf, units, push_up)
        if charge or march or after_fire is not None:
            raise InvalidDataError(
                _("a push-up (5.6) is a move of its own: no charge, march or move after fire")
            )
        charge = (push_up,)
    ctx, speed_notes = _context(bf, units, move, charge, march=march, method=method, source=source)
    if push_up is not None:
        speed_notes = _as_push_up(ctx)
    if after_fire is not None:
        ctx.after_fire = after_fire
        ctx.after, ctx.declared_fire, ctx.fire_bands = _after_fire_lines(bf, ctx.unit_ids, after_fire)
    return _run(ctx, speed_notes)


def _check_push_up_enemy(bf: Battlefield, units: str | Sequence[str], enemy: str) -> None:
    """5.6 — the unit a push-up moves towards is a known enemy unit (not a base, not a friend)."""
    bf.resolve(enemy)  # unknown: a message listing the units
    if enemy not in bf.unit_ids:
        raise InvalidArgumentError(
            "push_up",
            _("{cid!r} is a base; give the unit id {cid2!r}").format(cid=enemy, cid2=enemy.partition("/")[0]),
        )
    first = units if isinstance(units, str) else units[0]
    if first in bf.unit_ids and bf.scenario.unit(first).side == bf.scenario.unit(enemy).side:
        raise InvalidArgumentError(
            "push_up", _("{enemy}: a unit pushes up towards the enemy unit it fought").format(enemy=enemy)
        )


def _as_push_up(ctx: MoveContext) -> list[str]:
    """5.6.7 — the move is a push-up: at most ``push_up_cm`` whatever the terrain; its note."""
    ctx.push_up = True
    cm = ctx.bf.settings.push_up_cm
    ctx.speed = dict.fromkeys(ctx.speed, cm)
    return [_("push-up (5.6.7): at most {cm:g} cm whatever the terrain").format(cm=cm)]


def _context(
    bf: Battlefield,
    units: str | Sequence[str],
    move: MoveFile | Mapping[str, Any],
    charge: Sequence[str],
    *,
    march: bool,
    method: PairMethod,
    source: str,
) -> tuple[MoveContext, list[str]]:
    """3.1.1, 3.1.5, 3.3, 5.2, PD-6 — the moving and charged units (checked), the listed bases
    and their paths, speeds and order; and the notes on the speeds (reported after the refusals
    of the whole move)."""
    unit_ids, unit_ks = _moving_units(bf, units)
    charge_ids, charge_ks = _charged_units(bf, unit_ks, charge)
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    resolved = resolve_poses(bf, unit_ids, move, source)
    planned = plan_paths(bf, resolved, bf.settings.overlap_tolerance_cm + bf.settings.distance_epsilon_cm)
    moving = np.concatenate([bf.unit_bases(k) for k in unit_ks])
    speed, speed_notes = _speeds(bf, unit_ks, march)
    ctx = MoveContext(
        bf,
        unit_ids,
        unit_ks,
        0 if bf.scenario.units[unit_ks[0]].side == "A" else 1,
        charge_ids,
        charge_ks,
        march,
        method,
        moving,
        planned,
        speed,
        figure_order(bf, planned, moving),
    )
    return ctx, speed_notes


def _run(ctx: MoveContext, speed_notes: list[str]) -> MoveReport:
    """Run the steps in order: the refusals of the whole move, each base's rules (reported in
    the order the figures move), coherency at the end; then the report."""
    bf, planned = ctx.bf, ctx.planned
    head = [v for step in UNIT_STEPS_FIRST for v in step(ctx)]
    ctx.notes += speed_notes
    found: dict[int, list[Violation]] = {}
    for p in planned:
        st = BaseCheck.of(ctx, p)
        found[p.base] = [v for step in BASE_STEPS for v in step(ctx, st)]
    order = ctx.order if ctx.order is not None else list(range(len(planned)))
    if ctx.order is not None and ctx.order != sorted(ctx.order):
        ctx.notes.append(
            _(
                "3.1.1: the bases cannot move in the order listed without passing through "
                "each other; they can in the order given as 'order'"
            )
        )
    tail = [v for step in UNIT_STEPS_LAST for v in step(ctx)]
    per_base = [v for k in order for v in found[planned[k].base]]
    if ctx.charge_ids and not ctx.contacts and not ctx.push_up:
        ctx.notes.append(_("no base ends in contact with the charged unit: the charge falls short"))
    return MoveReport(
        units=ctx.unit_ids,
        charge=() if ctx.push_up else ctx.charge_ids,
        march=ctx.march,
        violations=tuple(head + per_base + tail),
        bases=tuple(
            BaseMove(
                bf.base_ids[p.base],
                p.motion.length,
                p.motion.measured_corner,
                ctx.surcharges[p.base],
                ctx.speed[p.base],
                p.motion.poses,
            )
            for p in planned
        ),
        order=tuple(bf.base_ids[planned[k].base] for k in order),
        contacts=tuple(bf.base_ids[b] for b in sorted(ctx.contacts)),
        notes=tuple(ctx.notes),
        after_fire=ctx.after,
        push_up=ctx.charge_ids[0] if ctx.push_up else None,
        table=bf,
    )


def _moving_units(bf: Battlefield, units: str | Sequence[str]) -> tuple[tuple[str, ...], list[int]]:
    """3.3 — the ids and unit indices of the moving units: known, units (not bases), each
    named once, of one side."""
    unit_ids = (units,) if isinstance(units, str) else tuple(units)
    if not unit_ids:
        raise InvalidDataError(_("name the unit that moves"))
    for uid in unit_ids:
        bf.resolve(uid)  # unknown → InvalidDataError listing the units
        if uid not in bf.unit_ids:
            raise InvalidArgumentError(
                "unit",
                _("{uid!r} is a base; give the unit id {uid2!r}").format(uid=uid, uid2=uid.partition("/")[0]),
            )
        if unit_ids.count(uid) > 1:
            raise InvalidDataError(_("unit {uid!r} is named twice").format(uid=uid))
    unit_ks = [bf.unit_ids.index(u) for u in unit_ids]
    sides = {bf.scenario.units[k].side for k in unit_ks}
    if len(sides) > 1:
        raise InvalidDataError(
            _("units {unit_ids} are on different sides; a combined move (3.3) is of one side's units").format(
                unit_ids=", ".join(unit_ids)
            )
        )
    return unit_ids, unit_ks


def _charged_units(
    bf: Battlefield, unit_ks: list[int], charge: Sequence[str]
) -> tuple[tuple[str, ...], set[int]]:
    """5.2 — the ids and unit indices of the charged units: known enemy units."""
    sc = bf.scenario
    charge_ids = tuple(charge)
    charge_ks: set[int] = set()
    for cid in charge_ids:
        bf.resolve(cid)
        if cid not in bf.unit_ids:
            raise InvalidArgumentError(
                "charge",
                _("{cid!r} is a base; give the unit id {cid2!r}").format(cid=cid, cid2=cid.partition("/")[0]),
            )
        ck = bf.unit_ids.index(cid)
        if ck in unit_ks or sc.units[ck].side == sc.units[unit_ks[0]].side:
            raise InvalidArgumentError("charge", _("{cid}: a unit charges enemy units only").format(cid=cid))
        charge_ks.add(ck)
    return charge_ids, charge_ks


def _speeds(bf: Battlefield, unit_ks: list[int], march: bool) -> tuple[dict[int, float], list[str]]:
    """3.1.5, 3.3, 4.11, 7.2 — each moving base's allowed move (the slowest unit's in a combined
    move, half on the march) and the notes that say so."""
    speed: dict[int, float] = {}
    notes: list[str] = []
    for k in unit_ks:
        speed.update(base_speeds(bf, k))
    if len(unit_ks) > 1:
        slowest = min(speed.values())
        speed = dict.fromkeys(speed, slowest)
        notes.append(
            _("combined move (3.3): every figure moves at the slowest speed, {slowest:g} cm").format(
                slowest=slowest
            )
        )
    if march:
        speed = {b: v / 2.0 for b, v in speed.items()}
        notes.append(_("fire on the march (4.11): half the move"))
    return speed, notes


def _after_fire_lines(
    bf: Battlefield, unit_ids: tuple[str, ...], result: FireResult
) -> tuple[AfterFire, set[int], list[tuple[str, shapely.Geometry]]]:
    """4.9.1, 4.9.4, PD-7 — the fire a move follows: its summary, the declared bases
    (battlefield indices; they may not move) and the bands of the lines of fire of the figures
    that fired (no path may enter them). None of either after a refused fire or fire on the
    march (there is no move after it, 4.9.1, 4.11.3)."""
    if unit_ids != (result.shooter,):
        raise InvalidArgumentError(
            "after_fire",
            _("{shooter}: that unit fired; a move after fire (4.9) moves it alone, not {unit_ids}").format(
                shooter=result.shooter, unit_ids=", ".join(unit_ids)
            ),
        )
    fired = tuple(s.base for s in result.shooters if s.can_fire)
    after = AfterFire(
        result.target, tuple(s.base for s in result.shooters), fired if result.legal else (), result.march
    )
    if not result.legal or result.march:
        return after, set(), []
    declared = {int(bf.resolve(s.base)[0]) for s in result.shooters}
    bands: list[tuple[str, shapely.Geometry]] = []
    for s in result.shooters:
        if not s.can_fire:
            continue
        k = int(bf.resolve(s.base)[0])
        for ln in s.lines:
            t = int(bf.resolve(ln.target)[0])
            e = EDGE_NAMES.index(ln.edge)
            width = float(bf.width[k] if e % 2 == 0 else bf.depth[k])
            band = shapely.Polygon(band_corners([bf.x[k], bf.y[k]], [bf.x[t], bf.y[t]], width))
            band = shapely.difference(band, shapely.union(bf.polygons[k], bf.polygons[t]))
            if not band.is_empty:
                bands.append((f"{s.base} → {ln.target}", band))
    return after, declared, bands


def place(
    scenario: Scenario | Battlefield,
    unit: str,
    move: MoveFile | Mapping[str, Any],
    *,
    source: str = "move",
) -> Scenario:
    """4.12.3 — the scenario with ``unit``'s bases at the final poses of a move file (the point
    at which a move is interrupted; both players place the enemy there). Bases not listed stay.

    The move itself is not checked against the rules (:func:`check_move` does that); the file
    is, like ``szwadron move --to``: its ``unit`` must be ``unit``, each index a base of it,
    listed once, each pose on the table (:class:`~szwadron.errors.InvalidDataError` otherwise,
    naming ``source``).

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60},
    ...     "units": [{"id": "a", "side": "A", "profile": inf, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]}]})
    >>> moved = place(sc, "a", {"bases": [{"index": 1, "x": 12, "y": 20, "facing": 90}]})
    >>> [(b.x, b.y) for b in moved.unit("a").bases]
    [(10.0, 10.0), (12.0, 20.0)]
    """
    bf = Battlefield.of(scenario)
    bf.resolve(unit)
    if unit not in bf.unit_ids:
        raise InvalidDataError(
            _("{unit!r} is a base; give the unit id {unit2!r}").format(
                unit=unit, unit2=unit.partition("/")[0]
            )
        )
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    resolved = resolve_poses(bf, (unit,), move, source)
    k = bf.unit_ids.index(unit)
    sc = bf.scenario
    bases = list(sc.units[k].bases)
    for _k, b, poses in resolved:
        i = int(bf.index_in_unit[b])
        end = poses[-1]
        bases[i] = bases[i].model_copy(update={"x": end.x, "y": end.y, "facing": end.facing})
    units = list(sc.units)
    units[k] = units[k].model_copy(update={"bases": tuple(bases)})
    return sc.model_copy(update={"units": tuple(units)})


__all__ = ["check_move", "place"]
