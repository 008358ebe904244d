"""4.5.3, 4.7, 4.10, 4.11, 6.2, 7.5 — from the checks to the answer: which target figures can be
hit and with what cover (4.5.3, 4.10, PD-12), the removal order (4.7), the volley (dice grouped by
accuracy, halved on the march, 4.11; skirmishers in open order, 7.5) and the target's morale test
(6.2); and the answers that say no: a unit refused as a whole, no figure able to fire, and a
result turned into a refusal (4.12.6).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from szwadron.geometry.sight import cover
from szwadron.i18n import _
from szwadron.odds.combat import VolleyOdds, volley
from szwadron.odds.morale import FireOutcome, fire_outcome
from szwadron.rulings import Ruling
from szwadron.table.fire.checks import STAGE_RANGE, Pairs, target_reason
from szwadron.table.fire.removal import removal_order
from szwadron.table.fire.results import FireResult, MoraleTest, ShooterReport, TargetReport
from szwadron.table.fire.units import Context, base_wounds, figure_stats, open_order


@dataclass(frozen=True)
class Hit:
    """4.5.3, 4.10 — the target bases' reports, and of the eligible ones (base index → value)
    their W with cover and their cover bonus alone."""

    reports: tuple[TargetReport, ...]
    wounds: dict[int, int]
    cover: dict[int, int]


def target_figures(ctx: Context, pairs: Pairs, firing: list[int]) -> Hit:
    """4.5.3 — a target figure in arc, range and sight of some firing figure can be hit, with its
    W plus its cover from those figures (4.10, PD-12); the others are reported with the rule
    that stops them and the cover they would have from the figures that reach them."""
    bf, method, ids = ctx.bf, ctx.method, ctx.bf.base_ids
    fa = np.asarray(firing, dtype=np.intp)
    can_hit: npt.NDArray[np.bool_] = np.asarray(pairs.ok_edge[fa] >= 0)  # (firing, t)
    eligible: npt.NDArray[np.bool_] = np.asarray(can_hit.any(axis=0))
    near_dist = np.where(can_hit, pairs.dist[fa], np.inf).min(axis=0)
    reports: list[TargetReport] = []
    wounds: dict[int, int] = {}
    covers: dict[int, int] = {}
    for t, b in enumerate(ctx.target_bases.tolist()):
        w0 = base_wounds(ctx.target, bf, b)
        if eligible[t]:
            cov = cover(bf, b, pairs.active[fa[can_hit[:, t]]], method=method)
            covers[b] = sum(c.bonus for c in cov)
            wounds[b] = w0 + covers[b]
            reports.append(TargetReport(ids[b], True, wounds[b], w0, cov, distance=float(near_dist[t])))
            continue
        seen_by = np.flatnonzero(pairs.stage[:, t] >= STAGE_RANGE)
        cov = cover(bf, b, pairs.active[seen_by] if seen_by.size else [], method=method)
        r = target_reason(ids[b], t, pairs)
        reports.append(
            TargetReport(ids[b], False, w0 + sum(c.bonus for c in cov), w0, cov, r.rule, r.message)
        )
    return Hit(tuple(reports), wounds, covers)


def volley_groups(shooters: tuple[ShooterReport, ...]) -> list[tuple[int, int]]:
    """4.5 — the dice of the firing figures grouped by accuracy, ``(dice, accuracy)``, the most
    accurate first."""
    groups: dict[int, int] = {}
    for rep in shooters:
        if rep.can_fire:
            assert rep.accuracy is not None
            groups[rep.accuracy] = groups.get(rep.accuracy, 0) + rep.dice
    return [(d, acc) for acc, d in sorted(groups.items(), key=lambda g: -g[0])]


def fire_answer(
    ctx: Context,
    shooters: tuple[ShooterReport, ...],
    pairs: Pairs,
    firing: list[int],
    morale_test: MoraleTest,
    ammo: str | None,
) -> FireResult:
    """The figures in ``firing`` fire: the target figures they can hit (:func:`target_figures`),
    removed in :func:`~szwadron.table.fire.removal.removal_order`, the volley
    (:func:`szwadron.odds.combat.volley`; on the march half the dice, 4.11, none left is no fire)
    and the morale test (:func:`szwadron.odds.morale.fire_outcome`, 6.2)."""
    bf, st = ctx.bf, ctx.bf.settings
    hit = target_figures(ctx, pairs, firing)
    eligible = [int(b) for b, r in zip(ctx.target_bases.tolist(), hit.reports, strict=True) if r.eligible]
    firing_bases = pairs.active[np.asarray(firing, dtype=np.intp)].tolist()
    order = removal_order(bf, eligible, firing_bases, hit.cover, method=ctx.method)
    groups = volley_groups(shooters)
    total_dice = sum(d for d, _ in groups)
    if ctx.march and total_dice // 2 == 0:
        r = Ruling(
            "4.11", _("fire on the march halves {total_dice} SO to 0 dice").format(total_dice=total_dice)
        )
        return no_fire(ctx, shooters, pairs, morale_test, ammo, reason=r)
    skirmish = open_order(bf, ctx.target, ctx.target_k)
    odds = volley(
        groups, [hit.wounds[b] for b in order], die=st.remainder_die, skirmish=skirmish, march=ctx.march
    )
    if ctx.march:  # volley keeps the halved groups, dropping none
        odds = replace(odds, groups=tuple(g for g in odds.groups if g.dice > 0))
    notes = list(odds.notes)
    if any(r.indirect and r.can_fire for r in shooters):
        notes.append(
            _(
                "indirect fire (7.4): C − {indirect_accuracy_penalty} for the figures firing without line of sight (already in their accuracy)"
            ).format(indirect_accuracy_penalty=st.indirect_accuracy_penalty)
        )
    return FireResult(
        bf.unit_ids[ctx.shooter_k],
        bf.unit_ids[ctx.target_k],
        True,
        None,
        shooters,
        hit.reports,
        tuple(bf.base_ids[b] for b in order),
        odds,
        morale_odds(odds, morale_test),
        morale_test,
        ammo,
        ctx.march,
        skirmish,
        tuple(notes),
        table=bf,
    )


def morale_odds(odds: VolleyOdds, test: MoraleTest) -> dict[FireOutcome, Fraction]:
    """6.2 — the chance of each outcome of the target's morale test after the volley."""
    morale = fire_outcome(
        odds.removed,
        odds.no_damage,
        morale=test.morale,
        strength=test.strength,
        initial=test.initial,
        modifier=test.modifier,
    )
    return {o: morale.probability(o) for o in FireOutcome}


def no_fire(
    ctx: Context,
    shooters: tuple[ShooterReport, ...],
    pairs: Pairs,
    morale_test: MoraleTest,
    ammo: str | None,
    *,
    reason: Ruling | None = None,
) -> FireResult:
    """No figure can fire: the unit's reason is the rule that stops most of its figures (the
    first such figure's message), each target base with the rule that stops it."""
    bf = ctx.bf
    ids = bf.base_ids
    if reason is None:
        reason = _commonest_reason(ctx, shooters)
    targets = []
    for t, b in enumerate(ctx.target_bases.tolist()):
        w0 = base_wounds(ctx.target, bf, b)
        r = target_reason(ids[b], t, pairs)
        targets.append(TargetReport(ids[b], False, w0, w0, (), r.rule, r.message))
    return _no(ctx, reason, shooters, tuple(targets), morale_test, ammo)


def _commonest_reason(ctx: Context, shooters: tuple[ShooterReport, ...]) -> Ruling:
    """The rule that stops most figures (ties: the first figure's); with one figure its message,
    with more a count per rule and the first such figure's message."""
    counts = Counter(r.rule for r in shooters if r.rule)
    rules = [r.rule for r in shooters]
    rule = max(counts, key=lambda k: (counts[k], -rules.index(k)))
    first = next(r for r in shooters if r.rule == rule)
    if len(shooters) == 1:
        return Ruling(rule, first.message or "")
    parts = ", ".join(_("{n} by {rule}").format(n=n, rule=k) for k, n in counts.most_common())
    unit, target = ctx.bf.unit_ids[ctx.shooter_k], ctx.bf.unit_ids[ctx.target_k]
    return Ruling(
        rule,
        _("no figure of {unit} can fire at {target} ({parts}); e.g. {message}").format(
            unit=unit, target=target, parts=parts, message=first.message
        ),
    )


def refused(ctx: Context, reason: Ruling, morale_test: MoraleTest, ammo: str | None) -> FireResult:
    """The whole unit is refused (layer 1): every declared base and every target base carry
    ``reason``."""
    bf = ctx.bf
    shooters = []
    for b in ctx.declared.tolist():
        stats, _ = figure_stats(ctx.shooter, int(bf.index_in_unit[b]), ammo)
        dice, c0 = (stats.dice, stats.accuracy) if stats else (0, 0)
        shooters.append(
            ShooterReport(bf.base_ids[b], False, reason.rule, reason.message, None, (), None, None, dice, c0)
        )
    targets = []
    for b in ctx.target_bases.tolist():
        w0 = base_wounds(ctx.target, bf, b)
        targets.append(TargetReport(bf.base_ids[b], False, w0, w0, (), reason.rule, reason.message))
    return _no(ctx, reason, tuple(shooters), tuple(targets), morale_test, ammo)


def _no(
    ctx: Context,
    reason: Ruling,
    shooters: tuple[ShooterReport, ...],
    targets: tuple[TargetReport, ...],
    morale_test: MoraleTest,
    ammo: str | None,
) -> FireResult:
    bf = ctx.bf
    return FireResult(
        bf.unit_ids[ctx.shooter_k],
        bf.unit_ids[ctx.target_k],
        False,
        reason,
        shooters,
        targets,
        (),
        None,
        {FireOutcome.NO_TEST: Fraction(1)},
        morale_test,
        ammo,
        ctx.march,
        table=bf,
    )


def refuse(result: FireResult, reason: Ruling) -> FireResult:
    """``result`` turned into a refusal for ``reason`` (no figure fires, no target hit)."""
    shooters = tuple(
        replace(
            s,
            can_fire=False,
            rule=reason.rule,
            message=reason.message,
            edge=None,
            targets=(),
            distance=None,
            accuracy=None,
            indirect=False,
            lines=(),
        )
        for s in result.shooters
    )
    targets = tuple(
        replace(
            t,
            eligible=False,
            wounds=t.base_wounds,
            cover=(),
            rule=reason.rule,
            message=reason.message,
            distance=None,
        )
        for t in result.targets
    )
    return replace(
        result,
        legal=False,
        reason=reason,
        shooters=shooters,
        targets=targets,
        removal_order=(),
        odds=None,
        morale={FireOutcome.NO_TEST: Fraction(1)},
        alternatives=(),
    )


__all__ = [
    "Hit",
    "fire_answer",
    "morale_odds",
    "no_fire",
    "refuse",
    "refused",
    "target_figures",
    "volley_groups",
]
