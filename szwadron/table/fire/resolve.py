"""Section 4, 7.1 — one fire on a given table, in the order of the rules: what was declared
(4.2, 4.4.3 limbers, 7.1.3 ammunition), the unit (layer 1), then for each ammunition the unit
could use the figures, the pairs and the accuracy (layers 2–4 of
:mod:`szwadron.table.fire.checks`) and the answer (:mod:`szwadron.table.fire.outcome`).

Decision: one ammunition for the whole volley (7.1.3). Without a choice, each ammunition the
unit carries is tried and the one with the most expected figures removed is used (ties: the first
in the profile); the others are listed as alternatives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.i18n import _
from szwadron.models import Kind, Unit
from szwadron.table.fire.checks import check_accuracy, check_figures, check_pairs, check_unit
from szwadron.table.fire.outcome import fire_answer, no_fire, refused
from szwadron.table.fire.results import FireResult, MoraleTest
from szwadron.table.fire.units import Context, ammunition_names, declared_bases, morale_test


def resolve_fire(
    bf: Battlefield,
    shooter_k: int,
    target_k: int,
    *,
    bases: Sequence[str] | None,
    march: bool,
    ammunition: str | None,
    method: PairMethod,
) -> FireResult:
    """Unit ``shooter_k`` fires at enemy unit ``target_k`` on ``bf`` (indices checked by the
    caller): the declared bases (4.2), what they may fire (:func:`ammunition_options`), the unit
    (layer 1), then each ammunition in turn (:func:`fire_with`) and the best of them."""
    su, tu = bf.scenario.units[shooter_k], bf.scenario.units[target_k]
    declared = declared_bases(bf, shooter_k, bases)
    local = [int(bf.index_in_unit[b]) for b in declared.tolist()]
    options = ammunition_options(su, local, ammunition)
    ctx = Context(bf, method, shooter_k, target_k, su, tu, declared, bf.unit_bases(target_k), march)
    test = morale_test(bf, tu, ctx.target_bases, method)
    refusal = check_unit(ctx)
    if refusal is not None:
        return refused(ctx, refusal, test, ammunition)
    return best_ammunition([fire_with(ctx, a, test) for a in options])


def ammunition_options(unit: Unit, local: Sequence[int], ammunition: str | None) -> list[str | None]:
    """4.4.3, 7.1.3 — the ammunition choices to try for the declared bases (``local``, indices in
    the unit): the one named, else each they carry, else ``[None]`` (no ammunition types).

    Raises
    ------
    IllegalActionError
        4.4.3: the declared bases are limbers only; 7.1.3: the guns carry no ammunition.
    InvalidArgumentError
        ``ammunition`` for a unit without ammunition types, or a name it does not have.
    """
    if all(unit.base_profile(i).kind is Kind.LIMBER for i in local):
        raise IllegalActionError(
            "4.4.3",
            _(
                "{unit}: the declared bases are limbers (7.2); a limber has no gun and no edge to fire through"
            ).format(unit=unit.id),
        )
    names = ammunition_names(unit, local)
    has_ammo_profiles = any(unit.base_profile(i).ammunition for i in local)
    if ammunition is None:
        if has_ammo_profiles and not names:
            raise IllegalActionError("7.1.3", _("{unit}: its guns carry no ammunition").format(unit=unit.id))
        return [*names] or [None]
    if not has_ammo_profiles:
        raise InvalidArgumentError(
            "ammunition",
            _("{ammunition}: unit {unit} has no ammunition types (only artillery has, 7.1.3)").format(
                ammunition=ammunition, unit=unit.id
            ),
        )
    known = sorted({a.name for i in local for a in unit.base_profile(i).ammunition})
    if ammunition not in known:
        raise InvalidArgumentError(
            "ammunition",
            _("{ammunition!r} is not an ammunition of unit {unit} (it has: {known})").format(
                ammunition=ammunition, unit=unit.id, known=", ".join(known)
            ),
        )
    return [ammunition]


def fire_with(ctx: Context, ammo: str | None, test: MoraleTest) -> FireResult:
    """The fire with one ammunition choice (or none), base by base: layers 2–4 of
    :mod:`szwadron.table.fire.checks` in order, then the answer."""
    figures = check_figures(ctx, ammo)
    pairs = check_pairs(ctx, figures)
    shooters, firing = check_accuracy(ctx, figures, pairs)
    if not firing:
        return no_fire(ctx, shooters, pairs, test, ammo)
    return fire_answer(ctx, shooters, pairs, firing, test, ammo)


def best_ammunition(results: list[FireResult]) -> FireResult:
    """7.1.3 (Decision) — of the answers with each ammunition, the legal one expected to remove
    the most figures (ties: the first), noting the others as alternatives."""
    if len(results) == 1:
        return results[0]
    legal = [r for r in results if r.legal]
    best = max(legal, key=lambda r: r.expected) if legal else results[0]
    alternatives = tuple((r.ammunition or "", r.legal, r.expected) for r in results)
    chosen = ", ".join(f"{a}: {e:.3f}" for a, _, e in alternatives)
    note = _("ammunition {ammunition} chosen (most figures expected; {chosen})").format(
        ammunition=best.ammunition, chosen=chosen
    )
    return replace(best, alternatives=alternatives, notes=(*best.notes, note))


__all__ = ["ammunition_options", "best_ammunition", "fire_with", "resolve_fire"]
