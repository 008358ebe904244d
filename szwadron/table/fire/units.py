"""4.2, 6.2, 7.1.3, 7.5 — the two units of a fire question on the table: which unit and which of
its bases fire (4.2), what each base fires with (its profile, or the ammunition it carries,
7.1.3), whether the target is in open order (7.5, PD-17), and the numbers of the target's morale
test (6.2, PD-16). :class:`Context` holds all of it that does not depend on the ammunition.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.sight import centre_features
from szwadron.i18n import _
from szwadron.models import Ability, TerrainKind, Unit
from szwadron.rulings import Ruling
from szwadron.table.fire.engagement import engaged_target_bases
from szwadron.table.fire.results import MoraleTest

IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class Stats:
    """What one base fires with: dice, range, accuracy, whether it may fire indirectly."""

    dice: int
    range: float
    accuracy: int
    indirect: bool


@dataclass
class Context:
    """Everything about one (shooter, target) question that does not depend on the ammunition."""

    bf: Battlefield
    method: PairMethod
    shooter_k: int
    target_k: int
    shooter: Unit
    target: Unit
    declared: IntArray  # battlefield indices of the declared firing bases
    target_bases: IntArray
    march: bool

    def engaged(self) -> dict[int, str]:
        """4.3.4 — target bases engaged in melee, each with an enemy base it touches."""
        return engaged_target_bases(self.bf, self.target_k, self.method)


def unit_index(bf: Battlefield, ident: str, role: str) -> int:
    """The index of unit ``ident`` on the table (``role`` names the parameter in errors)."""
    if ident in bf.unit_ids:
        return bf.unit_ids.index(ident)
    if "/" in ident:
        bf.resolve(ident)  # raises for unknown bases
        raise InvalidArgumentError(
            role,
            _("{ident!r} is a base; give the unit id {ident2!r}").format(
                ident=ident, ident2=ident.partition("/")[0]
            ),
        )
    bf.resolve(ident)  # raises with the list of units
    raise InvalidDataError(_("no unit {ident!r}").format(ident=ident))  # pragma: no cover - resolve raised


def declared_bases(bf: Battlefield, unit_k: int, bases: Sequence[str] | None) -> IntArray:
    """4.2 — the declared firing bases: ``UNIT/INDEX`` or ``INDEX`` of the shooter; all if None."""
    members = bf.unit_bases(unit_k)
    if bases is None:
        return members
    uid = bf.unit_ids[unit_k]
    out: list[int] = []
    for raw in bases:
        b = raw.strip()
        ident = f"{uid}/{b}" if b.isdigit() else b
        idx = bf.resolve(ident)
        if len(idx) != 1 or bf.unit_of[idx[0]] != unit_k:
            raise InvalidArgumentError(
                "bases",
                _("{raw!r} is not a base of the firing unit {uid} ({uid}/0 to {uid}/{members})").format(
                    raw=raw, uid=uid, members=len(members) - 1
                ),
            )
        if int(idx[0]) not in out:
            out.append(int(idx[0]))
    if not out:
        raise InvalidArgumentError("bases", _("must name at least one base of the firing unit"))
    return np.asarray(sorted(out), dtype=np.intp)


def figure_stats(unit: Unit, index: int, ammo: str | None) -> tuple[Stats | None, Ruling | None]:
    """7.1.3 — what base ``index`` fires with (its ammunition's Z, SO, C, or its profile's); a
    gun that does not carry ``ammo`` is refused under 7.1.3."""
    prof = unit.base_profile(index)
    if prof.ammunition:
        carried = unit.bases[index].ammunition
        names = [a.name for a in prof.ammunition] if carried is None else list(carried)
        if ammo is None:
            ammo = names[0] if names else None
        if ammo is None or ammo not in names:
            what = "no ammunition" if not names else "only " + ", ".join(names)
            return None, Ruling(
                "7.1.3",
                _("{unit} does not carry {ammo} ammunition (it carries {what})").format(
                    unit=unit.base_id(index), ammo=ammo or _("any"), what=what
                ),
            )
        a = next(x for x in prof.ammunition if x.name == ammo)
        return Stats(a.fire, a.range, a.accuracy, a.indirect), None
    return Stats(
        prof.fire, prof.range, prof.accuracy, prof.has(Ability.INDIRECT) and prof.kind.is_artillery
    ), None


def ammunition_names(unit: Unit, declared_local: Sequence[int]) -> list[str]:
    """7.1.3 — the ammunition the declared bases carry, in profile order, each once."""
    names: list[str] = []
    for i in declared_local:
        prof = unit.base_profile(i)
        carried = unit.bases[i].ammunition
        for a in prof.ammunition:
            if (carried is None or a.name in carried) and a.name not in names:
                names.append(a.name)
    return names


def base_wounds(unit: Unit, bf: Battlefield, b: int) -> int:
    """4.5.3 — the W of base ``b`` of ``unit`` before cover."""
    return unit.base_profile(int(bf.index_in_unit[b])).wounds


def open_order(bf: Battlefield, unit: Unit, unit_k: int) -> bool:
    """7.5, PD-17 — skirmishers in open order: every base's nearest neighbour ≥ 2 cm away."""
    if not unit.has(Ability.SKIRMISH):
        return False
    members = bf.unit_bases(unit_k)
    if len(members) < 2:
        return True
    d = polygon_distance(bf.corners[members][:, None], bf.corners[members][None, :])
    np.fill_diagonal(d, np.inf)
    limit = bf.settings.skirmish_open_order_cm - bf.settings.distance_epsilon_cm
    return bool((d.min(axis=1) >= limit).all())


def morale_test(bf: Battlefield, target: Unit, target_bases: IntArray, method: PairMethod) -> MoraleTest:
    """6.2, PD-16 — the target's M, strength, initial strength and fortification bonus."""
    held = centre_features(bf, target_bases, method=method)
    forts = all(any(bf.terrain[f].kind is TerrainKind.FORTIFICATION for f in fs) for fs in held.values())
    modifier = bf.settings.fortification_morale_bonus if (forts and bf.terrain) else 0
    return MoraleTest(target.profile.morale, target.strength, target.starting_strength, modifier)


__all__ = [
    "Context",
    "IntArray",
    "Stats",
    "ammunition_names",
    "base_wounds",
    "declared_bases",
    "figure_stats",
    "morale_test",
    "open_order",
    "unit_index",
]
