"""Section 4, 7.1, 7.3, 7.4 — fire at the table: who can fire, through which edge, at which
target figures, how far and how accurately; the cover, the removal order, and the exact odds of
the volley and of the target's morale test.

:func:`fire` answers one question, "unit S fires at unit T", base by base, and returns a
:class:`FireResult` (frozen; :meth:`FireResult.to_json` is the ``szwadron fire --json``
document). :func:`targets` asks it for every enemy unit and ranks them (``szwadron targets``).

The layers, in the order a shooting base is refused (the first rule that stops it is reported):

1. the unit: panicking or pursuing (6.1), engaged (4.1.1), artillery on the march (4.11, 7.1.2);
2. the figure: no fire dice (4.6), heavy artillery without a prepared position (7.3), ammunition
   it does not carry (7.1.3), every edge it may fire through touched by own bases (4.4.2, 4.4.3);
3. each target base: not in the arc of a usable edge (4.4.1–4.4.3, PD-8), out of range Z edge to
   edge (4.5.1, 4.5.2), engaged in melee (4.3.4), out of sight — line, band, levels, terrain
   (4.3, 4.10, PD-7, PD-11; indirect fire without sight, 7.4);
4. the figure again: accuracy at the nearest target it may fire at (PD-9) reduced to 0 or less
   (4.5.4).

Then the target figures in sight of some firing figure can be destroyed (4.5.3, PD-10), each with
its W plus its cover (4.10, PD-12), removed nearest first, none hidden behind another figure of
its unit, evenly, the least covered first (4.7.2–4.7.4, 4.10.8, PD-13); the volley is
:func:`szwadron.odds.combat.volley` and the morale test :func:`szwadron.odds.morale.fire_outcome`.

Examples
--------
>>> from szwadron.models import Scenario
>>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
...        "Z": 24, "UW": 3, "C": 3, "M": 4}
>>> line = lambda y, f: [{"x": 10 + 2 * k, "y": y, "facing": f} for k in range(4)]
>>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
...     {"id": "a", "side": "A", "profile": inf, "bases": line(10, 90)},
...     {"id": "b", "side": "B", "profile": inf, "bases": line(30, 270)}]})
>>> r = fire(sc, "a", "b")
>>> r.legal, [(s.edge, s.distance, s.accuracy) for s in r.shooters][:2]
(True, [('front', 18.0, 3), ('front', 18.0, 3)])
>>> r.odds.groups, round(r.expected, 4)
((FireGroup(dice=4, accuracy=3),), 1.0)

Decisions (where the rules are silent; each is also stated where it is implemented):

- A refused unit (6.1, 4.1.1, 7.1.2, or no figure able to fire) is an answer, not an error:
  ``legal`` is false and ``reason`` names the rule. Bad input (unknown ids, an ally as target,
  the unit itself, an unknown ammunition name, a unit of limbers only, guns carrying no
  ammunition) raises :class:`~szwadron.errors.InvalidDataError` or
  :class:`~szwadron.errors.IllegalActionError`.
- One ammunition for the whole volley (7.1.3): guns that do not carry it cannot fire. Without a
  choice, each ammunition the unit carries is tried and the one with the most expected figures
  removed is used (ties: the first in the profile); the others are listed as alternatives.
- A gun with indirect ammunition (7.4) fires directly at the target figures it sees (no
  penalty); only when it sees none does it fire indirectly, at every figure in arc and range, at
  C − 1, unless an own figure stands on the line of fire closer than 6 cm (edge to edge).
- A target figure is engaged (4.3.4) when it touches (PD-3, a positive length) a base of an
  enemy unit its unit is engaged with (5.1.2, :func:`szwadron.table.audit.audit`).
- A target on the boundary ray of two arcs (PD-8) may be fired at through either edge; the first
  whose band is clear is used, in the order front, right, left, back.
- The morale test uses the target unit's profile M, its figures on the table and its initial
  strength, with the fortification bonus (PD-16) when every figure stands in a fortification.
- Fire in the opponent's turn (4.12, ``reaction=`` and ``target_poses=``): see :func:`fire`.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import IllegalActionError, InvalidArgumentError, InvalidDataError
from szwadron.geometry.arcs import edge_contact_lengths, fire_edges, in_arcs
from szwadron.geometry.bases import EDGE_NAMES
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import contact_length, polygon_distance
from szwadron.geometry.sight import (
    Blocked,
    CoverSource,
    check_sight,
    cover,
    inset_corners,
    segment_crosses,
)
from szwadron.models import Ability, Kind, Scenario, TerrainKind, Unit, UnitState
from szwadron.odds.combat import VolleyOdds, volley
from szwadron.odds.morale import FireOutcome, fire_outcome
from szwadron.rulings import Ruling
from szwadron.table.audit import engaged_unit_pairs

if TYPE_CHECKING:
    from szwadron.movefile import MoveFile

IntArray = npt.NDArray[np.intp]

_DIGITS = 6

#: Order in which the edges holding a target on a boundary ray are tried (PD-8).
_EDGE_PREFERENCE: tuple[int, ...] = tuple(EDGE_NAMES.index(e) for e in ("front", "right", "left", "back"))

#: How far a refused shooter/target pair got: the furthest stage names the most useful "no".
_STAGE_ARC, _STAGE_RANGE, _STAGE_ENGAGED, _STAGE_SIGHT = 1, 2, 3, 4


#: Why a base or a unit cannot fire: a :class:`~szwadron.rulings.Ruling` (rule and message).
Reason = Ruling


@dataclass(frozen=True)
class FireLine:
    """One target base a shooter may fire at: through which edge, how far, whether indirectly."""

    target: str
    edge: str
    distance: float
    indirect: bool = False


@dataclass(frozen=True)
class ShooterReport:
    """One declared firing base: whether it fires and, if so, where and how; if not, why.

    ``edge``, ``distance`` and ``accuracy`` are those of its nearest legal target (PD-9);
    ``accuracy`` is its C after range (4.5.4) and indirect fire (7.4); ``dice`` its SO (or its
    ammunition's), before fire on the march halves the volley (4.11).
    """

    base: str
    can_fire: bool
    rule: str | None
    message: str | None
    edge: str | None
    targets: tuple[str, ...]
    distance: float | None
    accuracy: int | None
    dice: int
    base_accuracy: int
    indirect: bool = False
    lines: tuple[FireLine, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The per-shooter entry of ``fire --json``."""
        return {
            "base": self.base,
            "can_fire": self.can_fire,
            "rule": self.rule,
            "edge": self.edge,
            "targets": list(self.targets),
            "distance": None if self.distance is None else round(self.distance, _DIGITS),
            "accuracy": self.accuracy,
            "dice": self.dice,
            "message": self.message,
            "base_accuracy": self.base_accuracy,
            "indirect": self.indirect,
            "lines": [
                {
                    "target": ln.target,
                    "edge": ln.edge,
                    "distance": round(ln.distance, _DIGITS),
                    "indirect": ln.indirect,
                }
                for ln in self.lines
            ],
        }


@dataclass(frozen=True)
class TargetReport:
    """One base of the target unit: can it be hit (4.5.3), its W with each cover source."""

    base: str
    eligible: bool
    wounds: int
    base_wounds: int
    cover: tuple[CoverSource, ...]
    rule: str | None = None
    message: str | None = None
    distance: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The per-target entry of ``fire --json``."""
        return {
            "base": self.base,
            "eligible": self.eligible,
            "wounds": self.wounds,
            "cover": [{"rule": c.rule, "bonus": c.bonus, "source": c.source} for c in self.cover],
            "base_wounds": self.base_wounds,
            "rule": self.rule,
            "message": self.message,
            "distance": None if self.distance is None else round(self.distance, _DIGITS),
        }


@dataclass(frozen=True)
class MoraleTest:
    """6.2 — the numbers of the target's test after the fire."""

    morale: int
    strength: int
    initial: int
    modifier: int


class ReactionKind(StrEnum):
    """4.12.1 — the two forms of fire in the opponent's turn."""

    DECLARED = "declared"  # 4.12.2-4.12.5
    CHARGED = "charged"  # 4.12.6 (undeclared, at the first unit that charges it)


@dataclass(frozen=True)
class Reaction:
    """4.12 — how a fire in the opponent's turn was taken: its form, the rule it is taken under
    (4.12.3 an interrupted move, 4.12.5 the end of the opponent's movement phase, 4.12.6 at a
    charging unit), and ``lost`` when the interrupted enemy was out of range (4.12.4)."""

    kind: ReactionKind
    rule: str
    lost: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "rule", "lost"}``."""
        return {"kind": self.kind.value, "rule": self.rule, "lost": self.lost}


@dataclass(frozen=True)
class FireResult:
    """The whole answer to "``shooter`` fires at ``target``" (see :func:`fire`)."""

    shooter: str
    target: str
    legal: bool
    reason: Reason | None
    shooters: tuple[ShooterReport, ...]
    targets: tuple[TargetReport, ...]
    removal_order: tuple[str, ...]
    odds: VolleyOdds | None
    morale: dict[FireOutcome, Fraction]
    morale_test: MoraleTest
    ammunition: str | None = None
    march: bool = False
    skirmish: bool = False
    notes: tuple[str, ...] = ()
    alternatives: tuple[tuple[str, bool, float], ...] = field(default=())
    reaction: Reaction | None = None
    target_at: tuple[tuple[str, float, float, float], ...] = ()

    @property
    def expected(self) -> float:
        """Expected figures removed (0 when the fire is not legal)."""
        return self.odds.expected if self.odds is not None else 0.0

    @property
    def removed_pmf(self) -> list[float]:
        """``[P(0 removed), P(1), ...]`` (``[1.0]`` when the fire is not legal)."""
        return self.odds.removed_pmf if self.odds is not None else [1.0]

    @property
    def at_least(self) -> list[float]:
        """``[P(≥0 removed), P(≥1), ...]``."""
        return self.odds.at_least if self.odds is not None else [1.0]

    def probability(self, outcome: FireOutcome | str) -> float:
        """P(morale outcome): ``no_test``, ``passed``, ``repulsed``, ``panic``, ``destroyed``."""
        return float(self.morale.get(FireOutcome(outcome), Fraction(0)))

    def to_json(self) -> dict[str, Any]:
        """The ``szwadron fire --json`` document (docs/decisions.md "The JSON documents")."""
        return {
            "legal": self.legal,
            "reason": None if self.reason is None else self.reason.to_json(),
            "shooters": [s.to_json() for s in self.shooters],
            "targets": [t.to_json() for t in self.targets],
            "removal_order": list(self.removal_order),
            "volley": [
                {"dice": g.dice, "accuracy": g.accuracy}
                for g in (self.odds.groups if self.odds is not None else ())
            ],
            "removed_pmf": self.removed_pmf,
            "expected": self.expected,
            "morale": {o.value: self.probability(o) for o in FireOutcome},
            "at_least": self.at_least,
            "shooter": self.shooter,
            "target": self.target,
            "ammunition": self.ammunition,
            "march": self.march,
            "skirmish": self.skirmish,
            "morale_test": {
                "morale": self.morale_test.morale,
                "strength": self.morale_test.strength,
                "initial": self.morale_test.initial,
                "modifier": self.morale_test.modifier,
            },
            "notes": list(self.notes),
            "alternatives": [{"ammunition": a, "legal": ok, "expected": e} for a, ok, e in self.alternatives],
            "reaction": None if self.reaction is None else self.reaction.to_json(),
            "target_at": None
            if not self.target_at
            else [
                {"base": b, "x": round(x, _DIGITS), "y": round(y, _DIGITS), "facing": round(f, _DIGITS)}
                for b, x, y, f in self.target_at
            ],
        }


# --- helpers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Stats:
    """What one base fires with: dice, range, accuracy, whether it may fire indirectly."""

    dice: int
    range: float
    accuracy: int
    indirect: bool


@dataclass
class _Context:
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
        return _engaged_target_bases(self.bf, self.target_k, self.method)


def _unit_index(bf: Battlefield, ident: str, role: str) -> int:
    if ident in bf.unit_ids:
        return bf.unit_ids.index(ident)
    if "/" in ident:
        bf.resolve(ident)  # raises for unknown bases
        raise InvalidArgumentError(role, f"{ident!r} is a base; give the unit id {ident.partition('/')[0]!r}")
    bf.resolve(ident)  # raises with the list of units
    raise InvalidDataError(f"no unit {ident!r}")  # pragma: no cover - resolve raised


def _declared_bases(bf: Battlefield, unit_k: int, bases: Sequence[str] | None) -> IntArray:
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
                f"{raw!r} is not a base of the firing unit {uid} ({uid}/0 to {uid}/{len(members) - 1})",
            )
        if int(idx[0]) not in out:
            out.append(int(idx[0]))
    if not out:
        raise InvalidArgumentError("bases", "must name at least one base of the firing unit")
    return np.asarray(sorted(out), dtype=np.intp)


_ENGAGEMENT_CACHE: weakref.WeakKeyDictionary[Battlefield, dict[tuple[int, str], Any]] = (
    weakref.WeakKeyDictionary()
)


def _engaged_units(bf: Battlefield, unit_k: int, method: PairMethod) -> tuple[str, ...]:
    """4.1.1, 5.1.2 — enemy units the unit is engaged with (cached per battlefield)."""
    return _unit_engagement(bf, unit_k, method)[0]


def _engaged_target_bases(bf: Battlefield, unit_k: int, method: PairMethod) -> dict[int, str]:
    """4.3.4 — the unit's bases touching (a positive length) a base of an enemy unit it is engaged
    with (5.1.2), each mapped to one such enemy base (cached per battlefield)."""
    return _unit_engagement(bf, unit_k, method)[1]


def _unit_engagement(
    bf: Battlefield, unit_k: int, method: PairMethod
) -> tuple[tuple[str, ...], dict[int, str]]:
    """5.1.2, PD-14 as :func:`szwadron.table.audit.audit` decides them, for one unit: its bases and the
    enemy bases within the contact tolerance (the audit's pairs: found within the zone radius,
    kept by the exact distance), their contact lengths, the enemy units it is engaged with and
    its bases touching them along a positive length."""
    cache = _ENGAGEMENT_CACHE.setdefault(bf, {})
    key = (unit_k, method)
    if key in cache:
        return cache[key]  # type: ignore[no-any-return]
    st = bf.settings
    eps = st.distance_epsilon_cm
    tol = st.contact_tolerance_cm
    members = bf.unit_bases(unit_k)
    reach = max(st.control_zone_cm, tol) + eps
    if method == "brute":
        d_all = shapely.distance(bf.polygons[members][:, None], bf.polygons[None, :])
        q, o = np.nonzero(d_all <= reach)
    else:
        q, o = bf.tree.query(bf.polygons[members], predicate="dwithin", distance=reach)
    b, o = members[q], o.astype(np.intp)
    enemy = bf.side[o] != bf.side[b]
    i, j = np.minimum(b, o)[enemy], np.maximum(b, o)[enemy]  # pairs i < j, as the audit has them
    order = np.lexsort((j, i))
    i, j = i[order], j[order]
    near = bf.distances(i, j) <= tol + eps
    i, j = i[near], j[near]
    lengths = (contact_length(bf.corners[i], bf.corners[j], tol + eps) if i.size else np.zeros(0)).tolist()
    engaged = engaged_unit_pairs(bf.unit_of[i].tolist(), bf.unit_of[j].tolist(), lengths, st)
    others = sorted(v for pair in engaged for v in pair if v != unit_k)
    partners = tuple(bf.unit_ids[v] for v in others)
    partner_set = set(others)
    touching: dict[int, str] = {}
    for a, c, length in zip(i.tolist(), j.tolist(), lengths, strict=True):
        if length <= eps:
            continue
        for mine, other in ((a, c), (c, a)):
            if bf.unit_of[mine] == unit_k and int(bf.unit_of[other]) in partner_set:
                touching.setdefault(mine, bf.base_ids[other])
    cache[key] = (partners, touching)
    return partners, touching


def _stats(unit: Unit, index: int, ammo: str | None) -> tuple[_Stats | None, Reason | None]:
    """7.1.3 — what base ``index`` fires with (its ammunition's Z, SO, C, or its profile's)."""
    prof = unit.base_profile(index)
    if prof.ammunition:
        carried = unit.bases[index].ammunition
        names = [a.name for a in prof.ammunition] if carried is None else list(carried)
        if ammo is None:
            ammo = names[0] if names else None
        if ammo is None or ammo not in names:
            what = "no ammunition" if not names else "only " + ", ".join(names)
            return None, Reason(
                "7.1.3",
                f"{unit.base_id(index)} does not carry {ammo or 'any'} ammunition (it carries {what})",
            )
        a = next(x for x in prof.ammunition if x.name == ammo)
        return _Stats(a.fire, a.range, a.accuracy, a.indirect), None
    return _Stats(
        prof.fire, prof.range, prof.accuracy, prof.has(Ability.INDIRECT) and prof.kind.is_artillery
    ), None


def _ammunition_names(unit: Unit, declared_local: Sequence[int]) -> list[str]:
    names: list[str] = []
    for i in declared_local:
        prof = unit.base_profile(i)
        carried = unit.bases[i].ammunition
        for a in prof.ammunition:
            if (carried is None or a.name in carried) and a.name not in names:
                names.append(a.name)
    return names


def _open_order(bf: Battlefield, unit: Unit, unit_k: int) -> bool:
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


def _morale_test(bf: Battlefield, target: Unit, target_bases: IntArray, method: PairMethod) -> MoraleTest:
    """6.2, PD-16 — the target's M, strength, initial strength and fortification bonus."""
    from szwadron.geometry.sight import centre_features

    held = centre_features(bf, target_bases, method=method)
    forts = all(any(bf.terrain[f].kind is TerrainKind.FORTIFICATION for f in fs) for fs in held.values())
    modifier = bf.settings.fortification_morale_bonus if (forts and bf.terrain) else 0
    return MoraleTest(target.profile.morale, target.strength, target.starting_strength, modifier)


# --- the question --------------------------------------------------------------------------------


def fire(
    scenario: Scenario | Battlefield,
    shooter: str,
    target: str,
    *,
    bases: Sequence[str] | None = None,
    march: bool = False,
    ammunition: str | None = None,
    target_poses: MoveFile | Mapping[str, Any] | None = None,
    reaction: ReactionKind | str | None = None,
    method: PairMethod = "index",
    source: str = "target poses",
) -> FireResult:
    """Section 4, 4.12, 7.1, 7.3, 7.4 — unit ``shooter`` fires at enemy unit ``target``.

    Parameters
    ----------
    scenario:
        The scenario, or a :class:`~szwadron.geometry.battlefield.Battlefield` built from it (reused).
    shooter, target:
        Unit ids.
    bases:
        The declared firing bases (4.2), ``UNIT/INDEX`` or ``INDEX``; all of the unit's if None.
    march:
        Fire on the march (4.11): half SO; not for artillery (7.1.2).
    ammunition:
        The ammunition name (7.1.3); if None, the best one the unit carries (see Decisions).
    target_poses:
        4.12.3 — a move file (:class:`~szwadron.movefile.MoveFile` or its data) of the target
        unit: its listed bases are placed at their final poses (the point at which its move is
        interrupted) before the fire is computed; the bases not listed stay
        (:func:`szwadron.table.movement.place`). The answer lists them in ``target_at``.
    reaction:
        Fire in the opponent's turn (4.12), ``"declared"`` or ``"charged"``:

        - ``"declared"`` (4.12.2–4.12.5): with ``target_poses``, the unit interrupts the
          target's move after its first figure moved (4.12.3: at least one listed base must
          stand elsewhere than before) and fires normally at it there; when the target is out
          of range of every declared figure (edge to edge, 4.5.1) the fire is lost (4.12.4:
          ``reason.rule == "4.12.4"``, ``reaction.lost``). Without ``target_poses``, it is
          the fire at the end of the opponent's movement phase at any enemy unit (4.12.5).
        - ``"charged"`` (4.12.6): the undeclared fire at the first unit that charges it; the
          shooter must be in normal morale and not engaged, on the table before the charge
          (refused under 4.12.6 otherwise). The target may be placed with ``target_poses``
          (the point of the charge at which it is fired at).

        Decision: the charge itself is the players' statement (``reaction="charged"`` says the
        target charges the shooter, 5.2, and is the first to do so); so is that the shooter
        took no action and did not declare (4.12.6): the table shows neither, the answer
        notes them. A charger placed in contact engages the shooter, which then cannot fire
        (4.1.1); the note says to place it before contact. Fire in the opponent's turn is
        never fire on the march (``march`` with ``reaction`` is bad input).
    method:
        ``"index"`` (STR-trees) or ``"brute"`` (every base and feature tried); same answer.
    source:
        Name of the ``target_poses`` file in error messages.

    Returns
    -------
    FireResult

    Raises
    ------
    InvalidDataError
        Unknown or malformed ids, the unit firing at itself, declared bases of another unit, an
        ammunition name the unit does not carry, ammunition for a unit without any; target
        poses for another unit, of unknown bases or off the table; an unknown ``reaction``,
        or one with ``march``.
    IllegalActionError
        The target is an ally (4.2), the unit has no gun that may fire (limbers only, 7.2,
        4.4.3) or its guns carry no ammunition (7.1.3); a declared interrupt whose target
        poses move no base (4.12.3).
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    sk = _unit_index(bf, shooter, "shooter")
    tk = _unit_index(bf, target, "target")
    if sk == tk:
        raise InvalidDataError(f"unit {shooter} cannot fire at itself: name an enemy unit as target")
    su, tu = bf.scenario.units[sk], bf.scenario.units[tk]
    if su.side == tu.side:
        raise IllegalActionError(
            "4.2", f"{target} is on side {tu.side} like {shooter}: a unit fires at an enemy unit"
        )
    if target_poses is not None or reaction is not None:
        return _in_opponents_turn(
            bf,
            shooter,
            target,
            target_poses,
            reaction,
            bases=bases,
            march=march,
            ammunition=ammunition,
            method=method,
            source=source,
        )
    declared = _declared_bases(bf, sk, bases)
    local = [int(bf.index_in_unit[b]) for b in declared.tolist()]
    kinds = [su.base_profile(i).kind for i in local]
    if all(k is Kind.LIMBER for k in kinds):
        raise IllegalActionError(
            "4.4.3",
            f"{shooter}: the declared bases are limbers (7.2); a limber has no gun and no "
            "edge to fire through",
        )
    names = _ammunition_names(su, local)
    has_ammo_profiles = any(su.base_profile(i).ammunition for i in local)
    if ammunition is not None:
        if not has_ammo_profiles:
            raise InvalidArgumentError(
                "ammunition",
                f"{ammunition}: unit {shooter} has no ammunition types (only artillery has, 7.1.3)",
            )
        known = sorted({a.name for i in local for a in su.base_profile(i).ammunition})
        if ammunition not in known:
            raise InvalidArgumentError(
                "ammunition",
                f"{ammunition!r} is not an ammunition of unit {shooter} (it has: {', '.join(known)})",
            )
    elif has_ammo_profiles and not names:
        raise IllegalActionError("7.1.3", f"{shooter}: its guns carry no ammunition")

    ctx = _Context(bf, method, sk, tk, su, tu, declared, bf.unit_bases(tk), march)
    morale_test = _morale_test(bf, tu, ctx.target_bases, method)

    refusal: Reason | None = None
    if su.state is not UnitState.NORMAL:
        refusal = Reason(
            "6.1",
            f"{shooter} is in {'panic' if su.state is UnitState.PANIC else 'uncontrolled pursuit'}: "
            "it takes no action in the movement phase and may not fire",
        )
    elif march and any(k.is_artillery for k in kinds):
        refusal = Reason("7.1.2", f"{shooter} is artillery: it may not fire on the march (4.11, 7.1.2)")
    else:
        engaged = _engaged_units(bf, sk, method)
        if engaged:
            refusal = Reason(
                "4.1.1",
                f"{shooter} is engaged in melee with {', '.join(engaged)} "
                "(5.1.2): an engaged unit may not fire",
            )
    if refusal is not None:
        return _refused(ctx, refusal, morale_test, ammunition)

    options: list[str | None] = [ammunition] if ammunition is not None else [*names] or [None]
    results = [_resolve(ctx, a, morale_test) for a in options]
    if len(results) == 1:
        return results[0]
    legal = [r for r in results if r.legal]
    best = max(legal, key=lambda r: r.expected) if legal else results[0]
    alternatives = tuple((r.ammunition or "", r.legal, r.expected) for r in results)
    note = (
        "ammunition "
        + str(best.ammunition)
        + " chosen (most figures expected; "
        + ", ".join(f"{a}: {e:.3f}" for a, _, e in alternatives)
        + ")"
    )
    return replace(best, alternatives=alternatives, notes=(*best.notes, note))


def _in_opponents_turn(
    bf: Battlefield,
    shooter: str,
    target: str,
    poses: MoveFile | Mapping[str, Any] | None,
    reaction: ReactionKind | str | None,
    *,
    bases: Sequence[str] | None,
    march: bool,
    ammunition: str | None,
    method: PairMethod,
    source: str,
) -> FireResult:
    """4.12 — :func:`fire` with the target placed at ``poses`` and the conditions of the
    reaction (see :func:`fire`)."""
    from szwadron.loading import validate
    from szwadron.movefile import MoveFile
    from szwadron.table.movement import place

    kind: ReactionKind | None = None
    if reaction is not None:
        try:
            kind = ReactionKind(reaction)
        except ValueError:
            raise InvalidArgumentError(
                "reaction", f"{reaction!r}: expected one of {', '.join(k.value for k in ReactionKind)}"
            ) from None
        if march:
            raise InvalidArgumentError(
                "march",
                "does not apply: fire in the opponent's turn (4.12) is normal fire, not fire on the march (4.11)",
            )
    at: tuple[tuple[str, float, float, float], ...] = ()
    table = bf
    moved = 0
    if poses is not None:
        move = poses if isinstance(poses, MoveFile) else validate(MoveFile, dict(poses), source=source)
        table = Battlefield(place(bf, target, move, source=source), bf.settings)
        members = bf.unit_bases(target)
        for entry in move.bases:
            b = int(members[entry.index])
            at += ((bf.base_ids[b], float(entry.x), float(entry.y), float(entry.facing)),)
            if (
                abs(entry.x - bf.x[b]) > 1e-9
                or abs(entry.y - bf.y[b]) > 1e-9
                or abs((entry.facing - bf.facing[b] + 180.0) % 360.0 - 180.0) > 1e-9
            ):
                moved += 1
        if kind is ReactionKind.DECLARED and not moved:
            raise IllegalActionError(
                "4.12.3",
                f"the poses of {target} move none of its bases: a declared fire "
                "interrupts a move after the first figure moved",
            )
    result = fire(table, shooter, target, bases=bases, march=march, ammunition=ammunition, method=method)
    notes = list(result.notes)
    if poses is not None:
        notes.append(
            f"{target} placed at the given poses ({len(at)} base"
            f"{'s' * (len(at) != 1)} listed, {moved} moved) before the fire (4.12.3)"
        )
    if kind is None:
        return replace(result, notes=tuple(notes), target_at=at)
    if kind is ReactionKind.DECLARED:
        rule = "4.12.3" if poses is not None else "4.12.5"
        if rule == "4.12.3":
            notes.append(f"4.12.4: {shooter} may interrupt the move of one enemy unit only")
        else:
            notes.append(
                f"4.12.5: {shooter} interrupted no move; it fires at the end of the opponent's movement phase"
            )
        if rule == "4.12.3" and not result.legal and not _any_in_range(table, shooter, target, result):
            reason = Reason(
                "4.12.4",
                f"{target} is out of range of every declared figure of "
                f"{shooter} at the point of its move chosen: the fire is lost",
            )
            return replace(
                result,
                reason=reason,
                notes=tuple(notes),
                target_at=at,
                reaction=Reaction(kind, rule, lost=True),
            )
        return replace(result, notes=tuple(notes), target_at=at, reaction=Reaction(kind, rule))
    su = bf.scenario.unit(shooter)
    refusal: Reason | None = None
    if su.state is not UnitState.NORMAL:
        refusal = Reason(
            "4.12.6",
            f"{shooter} is in {su.state.value}, not in normal morale: it may not fire at a charging unit",
        )
    else:
        engaged = _engaged_units(bf, bf.unit_ids.index(shooter), method)
        if engaged:
            refusal = Reason(
                "4.12.6",
                f"{shooter} is engaged in melee with {', '.join(engaged)} "
                "(5.1.2): it may not fire at a charging unit",
            )
    notes.append(
        f"4.12.6: only if {shooter} took no action in its own movement phase, did not "
        f"declare fire in the opponent's turn, and {target} is the first unit to charge it"
    )
    if refusal is not None:
        return replace(
            _refuse(result, refusal), notes=tuple(notes), target_at=at, reaction=Reaction(kind, "4.12.6")
        )
    if not result.legal and result.reason is not None and result.reason.rule == "4.1.1":
        notes.append(
            f"{target} is placed in contact with {shooter}: place it at a point of its charge before contact"
        )
    return replace(result, notes=tuple(notes), target_at=at, reaction=Reaction(kind, "4.12.6"))


def _any_in_range(bf: Battlefield, shooter: str, target: str, result: FireResult) -> bool:
    """4.5.1, 4.5.2, 4.12.4 — whether some target base is within range Z (edge to edge) of some
    declared figure (whatever its arc, sight or state)."""
    unit = bf.scenario.unit(shooter)
    tb = bf.unit_bases(target)
    eps = bf.settings.distance_epsilon_cm
    for s in result.shooters:
        k = int(bf.resolve(s.base)[0])
        stats, _ = _stats(unit, int(bf.index_in_unit[k]), result.ammunition)
        if stats is None:
            continue
        d = polygon_distance(bf.corners[k][None], bf.corners[tb])
        if bool((np.asarray(d) <= stats.range + eps).any()):
            return True
    return False


def _refuse(result: FireResult, reason: Reason) -> FireResult:
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


def _refused(ctx: _Context, reason: Reason, morale_test: MoraleTest, ammo: str | None) -> FireResult:
    bf = ctx.bf
    shooters = []
    for b in ctx.declared.tolist():
        i = int(bf.index_in_unit[b])
        stats, _ = _stats(ctx.shooter, i, ammo)
        shooters.append(
            ShooterReport(
                bf.base_ids[b],
                False,
                reason.rule,
                reason.message,
                None,
                (),
                None,
                None,
                stats.dice if stats else 0,
                stats.accuracy if stats else 0,
            )
        )
    targets = tuple(
        TargetReport(
            bf.base_ids[b],
            False,
            _w(ctx.target, bf, b),
            _w(ctx.target, bf, b),
            (),
            reason.rule,
            reason.message,
        )
        for b in ctx.target_bases.tolist()
    )
    return FireResult(
        bf.unit_ids[ctx.shooter_k],
        bf.unit_ids[ctx.target_k],
        False,
        reason,
        tuple(shooters),
        targets,
        (),
        None,
        {FireOutcome.NO_TEST: Fraction(1)},
        morale_test,
        ammo,
        ctx.march,
    )


def _touched_edges(bf: Battlefield, bases: IntArray, method: PairMethod) -> dict[int, np.ndarray]:
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


def _w(unit: Unit, bf: Battlefield, b: int) -> int:
    return unit.base_profile(int(bf.index_in_unit[b])).wounds


def _resolve(ctx: _Context, ammo: str | None, morale_test: MoraleTest) -> FireResult:
    """The fire with one ammunition choice (or none), base by base."""
    bf, method = ctx.bf, ctx.method
    st = bf.settings
    eps = st.distance_epsilon_cm
    ids = bf.base_ids
    su, tu = ctx.shooter, ctx.target
    tb = ctx.target_bases
    n_t = len(tb)
    notes: list[str] = []

    # --- 2. the figures -------------------------------------------------------------------------
    stats: dict[int, _Stats] = {}
    early: dict[int, Reason] = {}
    allowed: dict[int, np.ndarray] = {}
    touched_by: dict[int, np.ndarray] = {}
    touched_all = _touched_edges(bf, ctx.declared, method)
    for b in ctx.declared.tolist():
        i = int(bf.index_in_unit[b])
        prof = su.base_profile(i)
        s, why = _stats(su, i, ammo)
        if why is not None:
            early[b] = why
            continue
        assert s is not None
        stats[b] = s
        usable = fire_edges(prof.kind)
        if s.dice <= 0 or not usable:
            early[b] = Reason("4.6", f"{ids[b]} has no fire dice (SO 0): it cannot fire")
            continue
        if prof.has(Ability.HEAVY) and not su.prepared:
            early[b] = Reason(
                "7.3",
                f"{ids[b]} is heavy artillery that has not prepared its "
                "firing position since it moved (scenario: prepared = false)",
            )
            continue
        touched = touched_all[b]
        touched_by[b] = touched
        mask = np.asarray([e in usable for e in EDGE_NAMES]) & ~touched
        if not mask.any():
            if prof.kind.is_artillery:
                early[b] = Reason(
                    "4.4.2",
                    f"the front edge of {ids[b]}, the only one artillery "
                    "fires through (4.4.3), is touched by an own base",
                )
            else:
                early[b] = Reason("4.4.2", f"all four edges of {ids[b]} are touched by own bases")
            continue
        allowed[b] = mask

    active = np.asarray(sorted(allowed), dtype=np.intp)
    n_a = len(active)

    # --- 3. pairs ---------------------------------------------------------------------------------
    stage = np.zeros((n_a, n_t), dtype=np.intp)
    pair_reason = _PairReasons()
    ok_edge = np.full((n_a, n_t), -1, dtype=np.intp)
    indirect_ok = np.zeros((n_a, n_t), dtype=bool)
    dist = np.zeros((n_a, n_t))
    if n_a:
        centres_t = np.stack([bf.x[tb], bf.y[tb]], axis=-1)
        arcs = in_arcs(bf.corners[active][:, None], centres_t[None, :])  # (a, t, 4)
        allow = np.stack([allowed[b] for b in active.tolist()])  # (a, 4)
        usable_arc = arcs & allow[:, None, :]
        dist = polygon_distance(bf.corners[active][:, None], bf.corners[tb][None, :])
        ranges = np.asarray([stats[b].range for b in active.tolist()])
        in_arc = usable_arc.any(-1)
        in_range = dist <= ranges[:, None] + eps
        stage[in_arc] = _STAGE_RANGE
        stage[in_arc & in_range] = _STAGE_ENGAGED
        stage[~in_arc] = _STAGE_ARC
        pair_reason.lazy = functools.partial(
            _arc_or_range_reason,
            bf,
            active,
            tb,
            arcs,
            touched_by,
            dist,
            {b: stats[b].range for b in active.tolist()},
        )
        # 4.3.4 engaged target figures
        cand = np.argwhere(in_arc & in_range)
        if cand.size:
            engaged = ctx.engaged()
            for a, t in cand.tolist():
                if int(tb[t]) in engaged:
                    pair_reason[(a, t)] = Reason(
                        "4.3.4",
                        f"{ids[tb[t]]} is engaged in melee "
                        f"(touching {engaged[int(tb[t])]}): it cannot be targeted",
                    )
                else:
                    stage[a, t] = _STAGE_SIGHT
        # 4.3, 4.10 sight, per usable edge holding the target
        cand = np.argwhere(stage == _STAGE_SIGHT)
        trip_a: list[int] = []
        trip_t: list[int] = []
        trip_e: list[int] = []
        for a, t in cand.tolist():
            for e in _EDGE_PREFERENCE:
                if usable_arc[a, t, e]:
                    trip_a.append(a)
                    trip_t.append(t)
                    trip_e.append(e)
        if trip_a:
            ta = np.asarray(trip_a, dtype=np.intp)
            tt = np.asarray(trip_t, dtype=np.intp)
            te = np.asarray(trip_e, dtype=np.intp)
            widths = np.where(te % 2 == 0, bf.width[active[ta]], bf.depth[active[ta]])
            seen = check_sight(bf, active[ta], tb[tt], widths, method=method)
            first_block: dict[tuple[int, int], Blocked] = {}
            for a, t, e, blocked in zip(ta.tolist(), tt.tolist(), te.tolist(), seen, strict=True):
                if ok_edge[a, t] >= 0:
                    continue
                if blocked is None:
                    ok_edge[a, t] = e
                else:
                    first_block.setdefault((a, t), blocked)
            for (a, t), blocked in first_block.items():
                if ok_edge[a, t] < 0:
                    pair_reason[(a, t)] = Reason(blocked.rule, blocked.message)
        # 7.4 indirect fire for guns that see no target figure
        for a, b in enumerate(active.tolist()):
            if not stats[b].indirect or (ok_edge[a] >= 0).any():
                continue
            for t in np.flatnonzero(stage[a] == _STAGE_SIGHT).tolist():
                why = _indirect_block(bf, b, int(tb[t]), method)
                if why is None:
                    indirect_ok[a, t] = True
                    ok_edge[a, t] = int(np.flatnonzero(usable_arc[a, t])[0])
                else:
                    pair_reason[(a, t)] = why

    # --- 4. each firing figure ---------------------------------------------------------------
    reports: dict[int, ShooterReport] = {}
    firing: list[int] = []  # active positions
    for b in ctx.declared.tolist():
        s = stats.get(b)
        dice = s.dice if s else 0
        c0 = s.accuracy if s else 0
        if b in early:
            r = early[b]
            reports[b] = ShooterReport(ids[b], False, r.rule, r.message, None, (), None, None, dice, c0)
            continue
        a = int(np.searchsorted(active, b))
        ok = np.flatnonzero(ok_edge[a] >= 0)
        if ok.size == 0:
            best_stage = int(stage[a].max()) if n_t else 0
            at = np.flatnonzero(stage[a] == best_stage)
            t = int(at[np.argmin(dist[a, at])])
            r = pair_reason.get((a, t)) or Reason("4.4.1", f"no target figure for {ids[b]}")
            reports[b] = ShooterReport(ids[b], False, r.rule, r.message, None, (), None, None, dice, c0)
            continue
        near_t = int(ok[np.argmin(dist[a, ok])])
        d = float(dist[a, near_t])
        indirect = bool(indirect_ok[a, near_t])
        bands = math.floor((d + eps) / st.range_band_cm)
        acc = c0 - bands - (st.indirect_accuracy_penalty if indirect else 0)
        lines = tuple(
            FireLine(ids[tb[t]], EDGE_NAMES[int(ok_edge[a, t])], float(dist[a, t]), bool(indirect_ok[a, t]))
            for t in ok[np.argsort(dist[a, ok], kind="stable")].tolist()
        )
        edge = EDGE_NAMES[int(ok_edge[a, near_t])]
        targets_ = tuple(ln.target for ln in lines)
        if acc <= 0:
            msg = (
                f"{ids[b]}: C {c0} − {bands} for {d:.2f} cm to its nearest target "
                f"{ids[tb[near_t]]}"
                + (" − 1 for indirect fire (7.4)" if indirect else "")
                + f" = {acc}: a figure at C ≤ 0 cannot fire"
            )
            reports[b] = ShooterReport(
                ids[b], False, "4.5.4", msg, edge, (), d, acc, dice, c0, indirect, lines
            )
            continue
        firing.append(a)
        reports[b] = ShooterReport(
            ids[b], True, None, None, edge, targets_, d, acc, dice, c0, indirect, lines
        )
    shooter_reports = tuple(reports[b] for b in ctx.declared.tolist())

    if not firing:
        return _no_fire(ctx, shooter_reports, pair_reason, stage, dist, active, morale_test, ammo)

    # --- 5. targets, cover, removal order --------------------------------------------------------
    fa = np.asarray(firing, dtype=np.intp)
    can_hit: npt.NDArray[np.bool_] = np.asarray(ok_edge[fa] >= 0)  # (firing, t)
    eligible: npt.NDArray[np.bool_] = np.asarray(can_hit.any(axis=0))
    target_reports: list[TargetReport] = []
    wounds_of: dict[int, int] = {}
    cover_of: dict[int, int] = {}
    near_dist = np.where(can_hit, dist[fa], np.inf).min(axis=0)
    for t, b in enumerate(tb.tolist()):
        w0 = _w(tu, bf, b)
        if eligible[t]:
            firers = active[fa[can_hit[:, t]]]
            cov = cover(bf, b, firers, method=method)
            w = w0 + sum(c.bonus for c in cov)
            wounds_of[b] = w
            cover_of[b] = sum(c.bonus for c in cov)
            target_reports.append(TargetReport(ids[b], True, w, w0, cov, distance=float(near_dist[t])))
            continue
        seen_by = np.flatnonzero(stage[:, t] >= _STAGE_RANGE)
        cov = (
            cover(bf, b, active[seen_by], method=method) if seen_by.size else cover(bf, b, [], method=method)
        )
        w = w0 + sum(c.bonus for c in cov)
        r = _target_reason(ids[b], t, stage, dist, pair_reason)
        target_reports.append(TargetReport(ids[b], False, w, w0, cov, r.rule, r.message))
    order = removal_order(
        bf, [int(b) for b in tb[eligible].tolist()], active[fa].tolist(), cover_of, method=method
    )
    wounds = [wounds_of[b] for b in order]
    groups: dict[int, int] = {}
    for a in firing:
        rep = reports[int(active[a])]
        assert rep.accuracy is not None
        groups[rep.accuracy] = groups.get(rep.accuracy, 0) + rep.dice
    group_list = sorted(groups.items(), key=lambda g: -g[0])
    skirmish = _open_order(bf, tu, ctx.target_k)
    total_dice = sum(d for d, _ in ((g[1], g[0]) for g in group_list))
    if ctx.march and total_dice // 2 == 0:
        r = Reason("4.11", f"fire on the march halves {total_dice} SO to 0 dice")
        return _no_fire(ctx, shooter_reports, pair_reason, stage, dist, active, morale_test, ammo, reason=r)
    odds = volley(
        [(d, acc) for acc, d in group_list], wounds, die=st.remainder_die, skirmish=skirmish, march=ctx.march
    )
    if ctx.march:  # volley keeps the halved groups, dropping none
        odds = replace(odds, groups=tuple(g for g in odds.groups if g.dice > 0))
    notes += odds.notes
    if any(r.indirect and r.can_fire for r in shooter_reports):
        notes.append(
            f"indirect fire (7.4): C − {st.indirect_accuracy_penalty} for the figures "
            "firing without line of sight (already in their accuracy)"
        )
    morale = fire_outcome(
        odds.removed,
        odds.no_damage,
        morale=morale_test.morale,
        strength=morale_test.strength,
        initial=morale_test.initial,
        modifier=morale_test.modifier,
    )
    morale_probs = {o: morale.probability(o) for o in FireOutcome}
    return FireResult(
        bf.unit_ids[ctx.shooter_k],
        bf.unit_ids[ctx.target_k],
        True,
        None,
        shooter_reports,
        tuple(target_reports),
        tuple(ids[b] for b in order),
        odds,
        morale_probs,
        morale_test,
        ammo,
        ctx.march,
        skirmish,
        tuple(notes),
    )


def _no_fire(
    ctx: _Context,
    shooter_reports: tuple[ShooterReport, ...],
    pair_reason: _PairReasons,
    stage: np.ndarray,
    dist: np.ndarray,
    active: IntArray,
    morale_test: MoraleTest,
    ammo: str | None,
    *,
    reason: Reason | None = None,
) -> FireResult:
    """No figure can fire: the unit's reason is the rule that stops most of its figures."""
    bf = ctx.bf
    ids = bf.base_ids
    if reason is None:
        counts = Counter(r.rule for r in shooter_reports if r.rule)
        rule = max(counts, key=lambda k: (counts[k], -[r.rule for r in shooter_reports].index(k)))
        first = next(r for r in shooter_reports if r.rule == rule)
        if len(shooter_reports) == 1:
            message = first.message or ""
        else:
            parts = ", ".join(f"{n} by {k}" for k, n in counts.most_common())
            message = (
                f"no figure of {bf.unit_ids[ctx.shooter_k]} can fire at "
                f"{bf.unit_ids[ctx.target_k]} ({parts}); e.g. {first.message}"
            )
        reason = Reason(rule, message)
    targets = []
    for t, b in enumerate(ctx.target_bases.tolist()):
        w0 = _w(ctx.target, bf, b)
        r = _target_reason(ids[b], t, stage, dist, pair_reason)
        targets.append(TargetReport(ids[b], False, w0, w0, (), r.rule, r.message))
    return FireResult(
        bf.unit_ids[ctx.shooter_k],
        bf.unit_ids[ctx.target_k],
        False,
        reason,
        shooter_reports,
        tuple(targets),
        (),
        None,
        {FireOutcome.NO_TEST: Fraction(1)},
        morale_test,
        ammo,
        ctx.march,
    )


class _PairReasons(dict[tuple[int, int], Reason]):
    """Why each (shooter, target) pair fails; arc and range refusals (most pairs) are worded
    only when asked for, by ``lazy``."""

    lazy: Callable[[int, int], Reason | None] | None = None

    def get(self, key: tuple[int, int], default: Reason | None = None) -> Reason | None:  # type: ignore[override]
        found = super().get(key)
        if found is None and self.lazy is not None:
            found = self.lazy(*key)
        return default if found is None else found


def _arc_or_range_reason(
    bf: Battlefield,
    active: IntArray,
    tb: IntArray,
    arcs: np.ndarray,
    touched_by: dict[int, np.ndarray],
    dist: np.ndarray,
    ranges: dict[int, float],
    a: int,
    t: int,
) -> Reason | None:
    """4.4.1–4.4.3, 4.5.1 — the wording of an arc or range refusal of pair ``(a, t)``."""
    ids = bf.base_ids
    b = int(active[a])
    target = ids[tb[t]]
    usable = [e in fire_edges(bf.kinds[b]) for e in EDGE_NAMES]
    holding = [k for k in range(4) if arcs[a, t, k]]
    if not any(usable[k] and not touched_by[b][k] for k in holding):
        blocked = [k for k in holding if usable[k] and touched_by[b][k]]
        if blocked:
            return Reason(
                "4.4.2",
                f"{target} is in the arc of the {EDGE_NAMES[blocked[0]]} edge of "
                f"{ids[b]}, touched by an own base",
            )
        if holding and bf.kinds[b].is_artillery:
            return Reason(
                "4.4.3",
                f"{target} is in the arc of the {EDGE_NAMES[holding[0]]} edge of "
                f"{ids[b]}, not its front: artillery fires only through its front edge",
            )
        return Reason("4.4.1", f"{target} is in no usable arc of {ids[b]}")  # pragma: no cover
    if dist[a, t] > ranges[b] + bf.settings.distance_epsilon_cm:
        return Reason(
            "4.5.1", f"{target} is {dist[a, t]:.2f} cm from {ids[b]}, beyond its range of {ranges[b]:g} cm"
        )
    return None


def _target_reason(
    base: str,
    t: int,
    stage: np.ndarray,
    dist: np.ndarray,
    pair_reason: _PairReasons,
) -> Reason:
    """Why target base ``t`` cannot be hit: the refusal of the shooter that got furthest with it
    (nearest on a tie); 4.5.3 when every shooter that could reach it was itself stopped."""
    if stage.shape[0]:
        col = stage[:, t]
        cand = np.flatnonzero(col == col.max())
        a = int(cand[np.argmin(dist[cand, t])])
        found = pair_reason.get((a, t))
        if found is not None:
            return found
    return Reason("4.5.3", f"{base} is not in range, arc and sight of any figure that fires")


def _indirect_block(bf: Battlefield, shooter: int, target: int, method: PairMethod) -> Reason | None:
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
    return Reason(
        "7.4",
        f"own figure {bf.base_ids[cand[k]]} stands on the line of indirect fire from "
        f"{bf.base_ids[shooter]} to {bf.base_ids[target]}, {float(d[k]):.2f} cm away "
        f"(closer than {st.indirect_min_friend_cm:g} cm)",
    )


# --- 4.7 removal order -----------------------------------------------------------------------


def removal_order(
    bf: Battlefield,
    eligible: Sequence[int],
    firing: Sequence[int],
    cover_bonus: dict[int, int] | None = None,
    *,
    method: PairMethod = "index",
) -> list[int]:
    """4.7.2–4.7.4, 4.10.8, PD-13 — a suggested order in which the eligible target figures are
    removed (battlefield base indices).

    Repeatedly, among the figures not yet removed:

    1. 4.7.3 — keep those with no other remaining figure of their unit on the line of sight from
       the nearest firing base (if every one is hidden, keep all);
    2. 4.10.8 — keep those with the least cover;
    3. 4.7.2 — keep "the front": those at most half a base depth farther from the firing unit
       than the nearest of them (Decision: a rank, even seen obliquely, but not the rank behind);
    4. 4.7.4 — prefer the one touching the fewest figures removed already, edge to edge
       (evenly, not next to each other), then the nearest, then file order.

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "bases": [{"x": 15, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": inf, "bases": [
    ...         {"x": 10 + 2 * k, "y": 20 + 2 * r, "facing": 270} for r in range(2) for k in range(6)]}]})
    >>> bf = Battlefield(sc)
    >>> [bf.base_ids[b] for b in removal_order(bf, range(1, 13), [0])]
    ['b/2', 'b/4', 'b/0', 'b/5', 'b/3', 'b/1', 'b/8', 'b/10', 'b/6', 'b/11', 'b/9', 'b/7']
    """
    del method  # the candidate sets are small: every pair of target figures is tried
    left = [int(b) for b in eligible]
    shooters = np.asarray(list(firing), dtype=np.intp)
    cov = cover_bonus or {}
    if not left:
        return []
    st = bf.settings
    tol = st.contact_tolerance_cm + st.distance_epsilon_cm
    idx = np.asarray(left, dtype=np.intp)
    n = len(idx)
    d_fire = polygon_distance(bf.corners[idx][:, None], bf.corners[shooters][None, :])
    nearest = shooters[np.argmin(d_fire, axis=1)]
    dist = d_fire.min(axis=1)
    # hides[i, j]: j stands on the line of sight from i's nearest firing base to i (4.7.3)
    viewer = np.stack([bf.x[nearest], bf.y[nearest]], axis=-1)
    centre = np.stack([bf.x[idx], bf.y[idx]], axis=-1)
    inset = inset_corners(bf.corners[idx], st.overlap_tolerance_cm)
    hides = np.asarray(segment_crosses(viewer[:, None], centre[:, None], inset[None, :])).reshape(n, n)
    np.fill_diagonal(hides, False)
    # adjacent[i, j]: i and j touch along an edge (4.7.4)
    adjacent = (
        contact_length(bf.corners[idx][:, None], bf.corners[idx][None, :], tol) > st.distance_epsilon_cm
    )
    np.fill_diagonal(adjacent, False)
    covers = np.asarray([cov.get(b, 0) for b in left])
    depth = bf.depth[idx]
    remaining = np.ones(n, dtype=bool)
    removed = np.zeros(n, dtype=bool)
    order: list[int] = []
    for _ in range(n):
        visible = remaining & ~(hides & remaining[None, :]).any(axis=1)
        pool = visible if visible.any() else remaining.copy()
        least = covers[pool].min()
        pool &= covers == least
        front = dist[pool].min()
        pool &= dist <= front + depth / 2.0 + 1e-9
        touching = (adjacent & removed[None, :]).sum(axis=1)
        cand = np.flatnonzero(pool)
        pick = int(min(cand.tolist(), key=lambda i: (int(touching[i]), round(float(dist[i]), 9), left[i])))
        order.append(left[pick])
        remaining[pick] = False
        removed[pick] = True
    return order


# --- targets ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetsReport:
    """``szwadron targets``: the enemy units a unit could fire at now, best first, and the ones
    it cannot, each with its reason."""

    shooter: str
    possible: tuple[FireResult, ...]
    impossible: tuple[FireResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``szwadron targets --json`` document."""
        return {
            "shooter": self.shooter,
            "targets": [
                {
                    "unit": r.target,
                    "expected": r.expected,
                    "repulsed": r.probability("repulsed"),
                    "panic": r.probability("panic"),
                    "repulsed_or_panic": r.probability("repulsed") + r.probability("panic"),
                    "destroyed": r.probability("destroyed"),
                    "firing": [s.base for s in r.shooters if s.can_fire],
                    "eligible": [t.base for t in r.targets if t.eligible],
                    "ammunition": r.ammunition,
                    "removed_pmf": r.removed_pmf,
                }
                for r in self.possible
            ],
            "cannot": [
                {"unit": r.target, "reason": None if r.reason is None else r.reason.to_json()}
                for r in self.impossible
            ],
        }


def targets(
    scenario: Scenario | Battlefield,
    shooter: str,
    *,
    march: bool = False,
    ammunition: str | None = None,
    method: PairMethod = "index",
) -> TargetsReport:
    """Section 4 — every enemy unit ``shooter`` could fire at now, ranked by expected figures
    removed (then by the chance of repulse or panic, then file order), and the ones it cannot,
    each with the rule that stops it (see :func:`fire`).

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> one = lambda u, s, x, y, f: {"id": u, "side": s, "profile": inf,
    ...                              "bases": [{"x": x, "y": y, "facing": f}]}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 90, "depth": 90}, "units": [
    ...     one("a", "A", 40, 10, 90), one("near", "B", 40, 20, 270),
    ...     one("far", "B", 50, 30, 270), one("gone", "B", 40, 80, 270)]})
    >>> rep = targets(sc, "a")
    >>> [r.target for r in rep.possible], [(r.target, r.reason.rule) for r in rep.impossible]
    (['near', 'far'], [('gone', '4.5.1')])
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    sk = _unit_index(bf, shooter, "shooter")
    side = bf.scenario.units[sk].side
    results = [
        fire(bf, shooter, u.id, march=march, ammunition=ammunition, method=method)
        for u in bf.scenario.units
        if u.side != side
    ]
    possible = sorted(
        (r for r in results if r.legal),
        key=lambda r: (-r.expected, -(r.probability("repulsed") + r.probability("panic"))),
    )
    impossible = tuple(r for r in results if not r.legal)
    return TargetsReport(bf.unit_ids[sk], tuple(possible), impossible)


__all__ = [
    "FireLine",
    "FireResult",
    "MoraleTest",
    "Reaction",
    "ReactionKind",
    "Reason",
    "ShooterReport",
    "TargetReport",
    "TargetsReport",
    "fire",
    "removal_order",
    "targets",
]
