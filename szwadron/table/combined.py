"""5.10, 5.7.4 — combined melee: several units on either side resolved at once, read off the table.

:func:`combined_melee` takes the attacking units and the defending units, measures every figure's
contact over all the enemy bases in the fight (PD-14: a base fights when it touches them along at
least 1 cm in all), and resolves the whole fight in one exchange:

- 5.10.3 — the dice of every attacking unit striking one defending unit are summed, separately
  for each UW and each terrain bonus of the figures struck (PD-15); 5.10.4: each such group rolls
  and removes separately, along the struck unit's removal order (5.4.3).
- 5.10.2 — each defending unit strikes back once: each of its figures in contact strikes the
  attacking unit of the figure it touches along the greatest length.
- 5.10.5 — morale: I. every defending unit with losses tests for repulse or flight; II. every
  attacking unit in contact with a defending unit that did not flee tests for repulse or flight;
  III. every attacking unit whose opponents all fled tests for uncontrolled pursuit; IV. every
  defending unit whose opponents all fled tests for pursuit. A unit without losses passes every
  test (5.5.1); a destroyed unit takes none and is not a fleeing opponent (PD-18).
- 5.10.6 — pushing up is done separately, as for a single melee (:meth:`TableMelee.push_up`).

The joint losses and outcomes are exact (the odds engine's :func:`szwadron.odds.combat.group_losses`
for every struck unit). With one unit a side the answer is that of
:func:`szwadron.table.melee.table_melee`.

Decisions where the rulebook is silent (docs/decisions.md, "Combined melee"):

- A figure strikes the enemy figure it touches along the greatest length (on a tie, the smaller
  terrain bonus, then file order); its dice go to that figure's unit. A figure touching less than
  1 cm in all does not fight, but may be struck; only figures that fought can be removed (5.4.2).
- Two units are opponents in the fight when a figure of one that fights touches a figure of the
  other. Every named unit must have an opponent, or there is no such melee.
- First strike (7.7) counts for a side when every one of its units has it and no enemy unit does.
- 6.3.6, 5.10.5 III-IV: an enemy unit outside the fight still engaged with a unit (touching it,
  PD-14, or recorded), not in panic, is one of its opponents that was neither repulsed nor
  panicked: that unit takes no pursuit test and holds (``held_by``).
- 6.6.4: a panicking defending unit tests once before striking back; on a failure it deals
  nothing. Its morale takes no test for losses (6.6.14).
- 5.7.4 (``declare_defence`` in a continuing melee): the attacking units, each holding an
  advantageous position against the figures they touch, declare defence: both sides then strike
  with the terrain bonus of the figures struck, and the declaring side tests as the defender
  (first, step I) while the other side tests as the attacker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import _, ngettext
from szwadron.models import Ability, Scenario, TerrainKind, Unit, UnitState
from szwadron.odds.combat import Removed, count_removed, kept_indices
from szwadron.odds.dice import Distribution
from szwadron.odds.joint import CombinedEngine, Striker, combined_outcomes
from szwadron.odds.morale import MeleeMorale, MeleeOutcome
from szwadron.table.melee import (
    _advantage,
    _contact_lengths,
    _fighter,
    _open_order,
    _removal_order,
    fight_numbers,
    other_opponents,
)

#: Most units in one combined melee (the exact joint losses multiply per unit).
MAX_COMBINED_UNITS = 6

Loss = tuple[int, bool]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class CombinedFigure:
    """5.3, PD-14 — one figure in contact: whom it touches, how long in all, whom it strikes."""

    base: str
    unit: str
    side: str
    touching: tuple[str, ...]
    contact_cm: float
    strikes: str | None
    bonus: int
    reason: str | None


@dataclass(frozen=True)
class CombinedGroup:
    """5.10.3 — the dice of one side's units against one enemy unit, one UW, one terrain bonus."""

    side: str
    target: str
    skill: int
    target_bonus: int
    dice: int
    figures: tuple[str, ...]
    fight: int = 0
    """5.7.2 — the separate fight its dice belong to (0 when the melee is one fight)."""
    first: bool = False
    """7.7 — its figures strike first: their unit has first strike and the struck unit has not."""


@dataclass(frozen=True)
class CombinedMelee:
    """The answer of :func:`combined_melee`; :meth:`to_json` is ``szwadron melee --json`` with
    several units on a side."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    figures: tuple[CombinedFigure, ...]
    groups: tuple[CombinedGroup, ...]
    opponents: dict[str, tuple[str, ...]]
    removal_order: dict[str, tuple[str, ...]]
    first_strike: str | None
    declared_defence: bool
    losses: Distribution[tuple[Loss, ...]]
    outcomes: Distribution[tuple[MeleeOutcome, ...]]
    engine: CombinedEngine | None = field(default=None, repr=False, compare=False)
    """The engine the odds were computed with: :func:`szwadron.odds.joint.roll_combined` rolls it."""
    held_by: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """6.3.6, 5.10.5 III-IV — by unit: the enemy units outside the fight still engaged with it,
    not in panic (:func:`~szwadron.table.melee.other_opponents`); any there, and it takes no
    pursuit test (not in the JSON)."""

    @property
    def units(self) -> tuple[str, ...]:
        """Attacking units, then defending units: the order of the tuples in ``losses``."""
        return self.attackers + self.defenders

    def holds_terrain(self, unit: str) -> bool:
        """5.7.3 — ``unit`` counts as the defender (a defending unit, or with 5.7.4 a declaring
        attacker) and every figure of it that fights holds an advantageous position: standing, it
        does not count as engaged."""
        defending = (unit in self.defenders) != self.declared_defence
        mine = [f for f in self.figures if f.unit == unit and f.strikes is not None]
        return defending and bool(mine) and all(f.bonus > 0 for f in mine)

    @property
    def first_strike_units(self) -> tuple[str, ...]:
        """7.7 — the units whose figures strike first at one enemy unit or more."""
        firsts = {f for g in self.groups if g.first for f in g.figures}
        return tuple(u for u in self.units if any(f.unit == u and f.base in firsts for f in self.figures))

    @property
    def pairwise_first_strike(self) -> bool:
        """7.7 counted pair by pair: some figures strike first, but not one whole side."""
        return self.first_strike is None and any(g.first for g in self.groups)

    def removed(self, unit: str) -> Distribution[int]:
        """Figures of ``unit`` removed."""
        k = self.units.index(unit)
        return self.losses.map(lambda s: s[k][0])

    def removed_bases(self, unit: str, removed: Removed) -> tuple[str, ...]:
        """5.4.3, 5.7.2 — the figures of ``unit`` that ``removed`` takes (a count along its removal
        order, or a count per fight: the first of each fight's figures in that order)."""
        order = self.removal_order[unit]
        if isinstance(removed, int) or self.engine is None:
            return order[: count_removed(removed)]
        kept = set(kept_indices(self.engine.parts_of(self.units.index(unit)), removed))
        return tuple(b for i, b in enumerate(order) if i not in kept)

    def outcome(self, unit: str) -> Distribution[MeleeOutcome]:
        """``unit``'s morale outcome (5.10.5)."""
        k = self.units.index(unit)
        return self.outcomes.map(lambda s: s[k])

    def to_json(self) -> dict[str, Any]:
        """The combined ``melee --json`` document."""
        units = []
        for u in self.units:
            rem = self.removed(u)
            n = len(self.removal_order[u])
            outs = sorted(self.outcome(u).probabilities().items(), key=lambda kv: (-kv[1], kv[0].value))
            units.append(
                {
                    "unit": u,
                    "side": "attacker" if u in self.attackers else "defender",
                    "opponents": list(self.opponents[u]),
                    "in_contact": [f.base for f in self.figures if f.unit == u and f.strikes is not None],
                    "removal_order": list(self.removal_order[u]),
                    "removed_pmf": rem.pmf(n + 1),
                    "expected_removed": float(rem.mean()),
                    "outcomes": [{"outcome": o.value, "p": float(p)} for o, p in outs],
                    "holds_terrain": self.holds_terrain(u),
                }
            )
        removed = sorted(
            self.losses.map(lambda s: tuple(r for r, _ in s)).probabilities().items(),
            key=lambda kv: (-kv[1], kv[0]),
        )
        joint = [{"removed": dict(zip(self.units, s, strict=True)), "p": float(p)} for s, p in removed]
        combos = sorted(
            self.outcomes.probabilities().items(), key=lambda kv: (-kv[1], tuple(o.value for o in kv[0]))
        )
        outcomes = [
            {"outcomes": {u: o.value for u, o in zip(self.units, s, strict=True)}, "p": float(p)}
            for s, p in combos
        ]
        return {
            "attackers": list(self.attackers),
            "defenders": list(self.defenders),
            "first_strike": self.first_strike,
            "first_strike_units": list(self.first_strike_units),
            "declared_defence": self.declared_defence,
            "figures": [
                {
                    "base": f.base,
                    "unit": f.unit,
                    "side": f.side,
                    "touching": list(f.touching),
                    "contact_cm": round(f.contact_cm, 6),
                    "fights": f.strikes is not None,
                    "strikes": f.strikes,
                    "w_bonus": f.bonus,
                    "reason": f.reason,
                }
                for f in self.figures
            ],
            "groups": [
                {
                    "side": g.side,
                    "target": g.target,
                    "uw": g.skill,
                    "target_bonus": g.target_bonus,
                    "dice": g.dice,
                    "figures": list(g.figures),
                    "fight": g.fight + 1,  # 5.7.2: fights counted from 1, as the text says them
                    "first": g.first,
                }
                for g in self.groups
            ],
            "units": units,
            "joint_removed": joint,
            "joint_outcomes": outcomes,
        }


# long: 5.10's procedure in order (units checked, PD-14 contacts, PD-15 bonuses, strike groups by UW and terrain, removal orders, exact losses, 5.10.5 outcomes), each a call or a few lines on shared arrays.
def combined_melee(
    scenario: Scenario | Battlefield,
    attackers: Sequence[str],
    defenders: Sequence[str],
    *,
    continuing: bool = False,
    declare_defence: bool = False,
) -> CombinedMelee:
    """5.10, 5.7.4, PD-14 — the combined melee of ``attackers`` against ``defenders``.

    Raises
    ------
    InvalidDataError
        A unit named twice or on both sides, units of one side on different sides of the table,
        unknown units, too many units, ``declare_defence`` outside a continuing melee.
    IllegalActionError
        A panicking attacker (6.1); a named unit with no opponent in the fight, or no figure in
        contact at all (5.3.2: no melee); 5.7.4 declared by a side holding no advantage.
    """
    bf = Battlefield.of(scenario)
    names = _check_units(bf, attackers, defenders, continuing=continuing, declare_defence=declare_defence)
    units = [bf.scenario.unit(u) for u in names]
    na = len(attackers)
    side_of = ["attacker"] * na + ["defender"] * (len(names) - na)
    bases = [bf.resolve(u) for u in names]
    ia = np.concatenate(bases[:na])
    idf = np.concatenate(bases[na:])
    owner = {int(b): k for k, bs in enumerate(bases) for b in bs.tolist()}
    lengths = _contact_lengths(bf, ia, idf)  # (attacking base, defending base)
    s = bf.settings
    eps, need = s.distance_epsilon_cm, s.min_contact_length_cm - s.distance_epsilon_cm
    a_fights = lengths.sum(axis=1) >= need
    d_fights = lengths.sum(axis=0) >= need
    if not a_fights.any() and not d_fights.any():
        raise IllegalActionError(
            "5.3",
            _(
                "no figure of {units} touches the enemy along at least {cm} cm of base edge in all "
                "(PD-14): no melee"
            ).format(units=", ".join(names), cm=f"{s.min_contact_length_cm:g}"),
        )
    # terrain bonus of every figure that may be struck (PD-15), as the defender would hold it
    bonus: dict[int, tuple[int, str | None]] = {}
    for d_k in range(len(idf)):
        foes = [int(ia[a_k]) for a_k in np.flatnonzero(lengths[:, d_k] > eps)]
        if foes:
            bonus[int(idf[d_k])] = _advantage(bf, int(idf[d_k]), foes)
    a_bonus: dict[int, tuple[int, str | None]] = {}
    if declare_defence:  # 5.7.4: both sides get the terrain bonus
        for a_k in range(len(ia)):
            foes = [int(idf[d_k]) for d_k in np.flatnonzero(lengths[a_k] > eps)]
            if foes:
                a_bonus[int(ia[a_k])] = _advantage(bf, int(ia[a_k]), foes)
        fighting_att = [int(ia[k]) for k in np.flatnonzero(a_fights)]
        if not fighting_att or not all(a_bonus[b][0] > 0 for b in fighting_att):
            raise IllegalActionError(
                "5.7.4",
                _(
                    "{units} may declare defence only holding an advantageous position with every figure "
                    "in contact"
                ).format(units=", ".join(attackers)),
            )
    ids = bf.base_ids
    links: dict[str, dict[str, float]] = {}
    strikers: list[Striker] = []
    keys: list[tuple[int, int]] = []
    figures: list[CombinedFigure] = []
    fights_of = {int(ia[k]): bool(a_fights[k]) for k in range(len(ia))}
    fights_of |= {int(idf[k]): bool(d_fights[k]) for k in range(len(idf))}
    for row, (mine, theirs, their_bonus) in enumerate(((ia, idf, bonus), (idf, ia, a_bonus))):
        mat = lengths if row == 0 else lengths.T
        for k, b in enumerate(mine.tolist()):
            touched = np.flatnonzero(mat[k] > eps).tolist()
            if not touched:
                continue
            links[ids[b]] = {ids[int(theirs[t])]: float(mat[k, t]) for t in touched}
            ranked = sorted(
                touched,
                key=lambda t: (-round(float(mat[k, t]), 9), their_bonus.get(int(theirs[t]), (0, None))[0], t),
            )
            target = int(theirs[ranked[0]])
            if row == 1:
                own_bonus = bonus.get(b, (0, None))
            else:
                own_bonus = a_bonus.get(b, (0, None))
            fights = fights_of[b]
            figures.append(
                CombinedFigure(
                    ids[b],
                    names[owner[b]],
                    side_of[owner[b]],
                    tuple(links[ids[b]]),
                    float(mat[k].sum()),
                    ids[target] if fights else None,
                    own_bonus[0],
                    own_bonus[1],
                )
            )
            if fights:
                t_bonus = their_bonus.get(target, (0, None))[0]
                strikers.append(Striker(owner[b], ids[b], owner[target], _fighter(bf, b, t_bonus)))
                # 5.7.2: the fight's terrain coefficients (attacking side's bonus, defending side's)
                keys.append((own_bonus[0], t_bonus) if row == 0 else (t_bonus, own_bonus[0]))
    fight = fight_numbers(keys)
    strikers = [
        replace(st, fighter=replace(st.fighter, part=fight[key]))
        for st, key in zip(strikers, keys, strict=True)
    ]
    opponents: dict[int, set[int]] = {k: set() for k in range(len(names))}
    for f in figures:
        if f.strikes is None:
            continue
        for other in f.touching:
            u, v = names.index(f.unit), owner[int(bf.resolve(other)[0])]
            opponents[u].add(v)
            opponents[v].add(u)
    lonely = [names[k] for k, o in opponents.items() if not o]
    if lonely:
        raise IllegalActionError(
            "5.3",
            ngettext(
                "{units} is in contact with none of the enemy units named (PD-14: at least 1 cm of base "
                "edge): no melee",
                "{units} are in contact with none of the enemy units named (PD-14: at least 1 cm of base "
                "edge): no melee",
                len(lonely),
            ).format(units=", ".join(lonely)),
        )
    orders = [
        _removal_order(bf, [b for b in bases[k].tolist() if fights_of[b]], links) for k in range(len(names))
    ]
    rank = {ids[b]: i for order in orders for i, b in enumerate(order)}
    strikers.sort(key=lambda st: (st.unit, rank[st.base]))
    # 6.3.6, 5.10.5 III ("atakujący niezwiązani walką"): an enemy unit outside the fight still
    # engaged with a unit keeps it from pursuit
    held_by = {u: other_opponents(bf, u, defenders if k < na else attackers) for k, u in enumerate(names)}
    morale = [
        _morale(bf, u, k >= na, declare_defence, orders[k], bonus, a_bonus, not held_by[u.id])
        for k, u in enumerate(units)
    ]
    skirmish = [  # 7.5, PD-17: open skirmish order, measured on the table (SW halved in odds.joint)
        u.has(Ability.SKIRMISH) and _open_order(bf, bases[k], s.skirmish_open_order_cm)
        for k, u in enumerate(units)
    ]
    wounds = [tuple(_fighter(bf, b, 0).wounds for b in orders[k]) for k in range(len(names))]
    fs = _first_strike(
        units,
        na,
        continuing=continuing,
        holds=[_holds(bonus, [orders[k]]) for k in range(na, len(units))],
        declared=declare_defence,
    )
    engine = CombinedEngine(strikers, wounds, morale, skirmish, na, s.remainder_die, fs)
    losses = engine.losses()
    opp = [frozenset(opponents[k]) for k in range(len(names))]
    defending_first = declare_defence  # 5.7.4: the declaring side tests as the defender
    outcomes = combined_outcomes(losses, morale, opp, na, swap=defending_first)
    groups = _groups(engine, names, side_of)
    return CombinedMelee(
        tuple(attackers),
        tuple(defenders),
        tuple(figures),
        groups,
        {names[k]: tuple(names[v] for v in sorted(opponents[k])) for k in range(len(names))},
        {names[k]: tuple(ids[b] for b in orders[k]) for k in range(len(names))},
        _side_first(fs, na),
        declare_defence,
        losses,
        outcomes,
        engine,
        held_by,
    )


def _check_units(
    bf: Battlefield,
    attackers: Sequence[str],
    defenders: Sequence[str],
    *,
    continuing: bool,
    declare_defence: bool,
) -> list[str]:
    """Bad input (exit 2) and the panicking attacker (6.1)."""
    names = [*attackers, *defenders]
    if not attackers or not defenders:
        raise InvalidDataError(_("a melee needs at least one attacking and one defending unit"))
    both = sorted(set(attackers) & set(defenders))
    if both:
        raise InvalidDataError(
            _("{units} cannot attack and defend in one melee").format(units=", ".join(both))
        )
    twice = sorted({u for u in names if names.count(u) > 1})
    if twice:
        raise InvalidDataError(_("{units} named twice: name each unit once").format(units=", ".join(twice)))
    if len(names) > MAX_COMBINED_UNITS:
        raise InvalidDataError(
            _("{n} units: exact combined melee odds are computed for at most {most} units").format(
                n=len(names), most=MAX_COMBINED_UNITS
            )
        )
    for u in names:
        bf.resolve(u)
        if u not in bf.unit_ids:
            raise InvalidDataError(
                _("{unit} names a base; the attackers and defenders name units").format(unit=repr(u))
            )
    sides = {bf.scenario.unit(u).side for u in attackers}
    if len(sides) > 1:
        raise InvalidDataError(
            _("the attackers {units} are not all on one side").format(units=", ".join(attackers))
        )
    for u in defenders:
        if bf.scenario.unit(u).side in sides:
            raise InvalidDataError(
                _("{unit} is on the attackers' side ({side})").format(unit=u, side=next(iter(sides)))
            )
    if len({bf.scenario.unit(u).side for u in defenders}) > 1:
        raise InvalidDataError(
            _("the defenders {units} are not all on one side").format(units=", ".join(defenders))
        )
    for u in attackers:
        if bf.scenario.unit(u).state is UnitState.PANIC:
            raise IllegalActionError("6.1", _("{attacker} is panicking and cannot attack").format(attacker=u))
    if declare_defence and not continuing:
        raise InvalidDataError(
            _("a side declares defence (5.7.4) only in a continuing melee: add --continuing")
        )
    return names


def _morale(
    bf: Battlefield,
    unit: Unit,
    defending: bool,
    declared: bool,
    order: list[int],
    bonus: dict[int, tuple[int, str | None]],
    a_bonus: dict[int, tuple[int, str | None]],
    free: bool = True,
) -> MeleeMorale:
    """5.5, PD-16 — a unit's morale profile: the terrain bonus when every figure of it in
    contact holds an advantageous position (5.7.3), the fortification bonus when each stands in
    one; a defending unit may be panicking (6.6). It may pursue unless it is artillery (6.7.1)
    or not ``free``: an enemy unit outside the fight still engages it (6.3.6)."""
    s = bf.settings
    held = bonus if defending else (a_bonus if declared else {})
    in_fort = bool(order) and all(
        any(
            f.kind is TerrainKind.FORTIFICATION
            and f.polygon.covers(_point(bf, b))  # centre in a fortification
            for f in bf.terrain
        )
        for b in order
    )
    adv = bool(order) and all(held.get(b, (0, None))[0] > 0 for b in order)
    mod = (s.terrain_morale_bonus if adv else 0) + (
        s.fortification_morale_bonus if in_fort and defending else 0
    )
    return MeleeMorale(
        unit.profile.morale,
        unit.strength,
        unit.starting_strength,
        mod,
        defending and unit.state is UnitState.PANIC,
        pursues=free and not unit.profile.kind.is_artillery,  # 6.3.6, 6.7.1
    )


def _point(bf: Battlefield, b: int) -> shapely.Point:
    return shapely.Point(float(bf.x[b]), float(bf.y[b]))


def _holds(bonus: dict[int, tuple[int, str | None]], orders: list[list[int]]) -> bool:
    """Every defending figure in contact holds an advantageous position (7.7.2 in defence)."""
    figs = [b for order in orders for b in order]
    return bool(figs) and all(bonus.get(b, (0, None))[0] > 0 for b in figs)


def _first_strike(
    units: list[Unit], na: int, *, continuing: bool, holds: Sequence[bool], declared: bool = False
) -> tuple[bool, ...]:
    """7.7 — which units have first strike this round (attackers, then defenders; ``holds``: each
    defending unit holds an advantageous position with every figure in contact). A side that
    declared defence (5.7.4, in a continuing melee, every figure holding the terrain) fights in
    defence with the terrain advantage, so first strike in defence counts for it (7.7.2 II: "w
    następnych rundach w obronie, jeżeli posiada przewagę terenu") and not for the other side,
    which attacks. :class:`~szwadron.odds.joint.CombinedEngine` counts it pair by pair."""
    if declared:
        att = [u.has(Ability.FIRST_STRIKE) or u.has(Ability.FIRST_STRIKE_DEFENCE) for u in units[:na]]
        dfn = [u.has(Ability.FIRST_STRIKE) for u in units[na:]]
    else:
        att = [
            u.has(Ability.FIRST_STRIKE) or (u.has(Ability.FIRST_STRIKE_CHARGE) and not continuing)
            for u in units[:na]
        ]
        dfn = [
            u.has(Ability.FIRST_STRIKE) or (u.has(Ability.FIRST_STRIKE_DEFENCE) and (not continuing or held))
            for u, held in zip(units[na:], holds, strict=True)
        ]
    return (*att, *dfn)


def _side_first(fs: Sequence[bool], na: int) -> str | None:
    """The side whose every unit strikes first, no enemy unit having first strike (7.7): the
    exchange of one unit a side; else None (nobody, or first strike pair by pair)."""
    att, dfn = fs[:na], fs[na:]
    if all(att) and not any(dfn):
        return "attacker"
    if all(dfn) and not any(att):
        return "defender"
    return None


def _groups(engine: CombinedEngine, names: list[str], side_of: list[str]) -> tuple[CombinedGroup, ...]:
    """5.10.3 — the dice groups of both sides before any removal, with their figures, in the
    order they are rolled: the attackers', then the defenders'; where some figures strike first
    (7.7), theirs (attackers', defenders'), then the rest's."""
    out: list[CombinedGroup] = []
    zero = [0] * len(names)
    steps: tuple[bool | None, ...] = (True, False) if engine.phased else (None,)
    for first in steps:
        for side in (0, 1):
            groups = engine.groups(side, zero, frozenset(), first)
            for target, gs in groups.items():
                for dice, skill, b, part in gs:
                    figs = tuple(
                        st.base
                        for st in engine.strikers
                        if st.target == target
                        and st.fighter.skill == skill
                        and st.fighter.target_bonus == b
                        and st.fighter.part == part
                        and (st.unit < engine.na) == (side == 0)
                        and (first is None or engine.strikes_first(st) == first)
                    )
                    out.append(
                        CombinedGroup(
                            side_of[0 if side == 0 else engine.na],
                            names[target],
                            skill,
                            b,
                            dice,
                            figs,
                            part,
                            first is True,
                        )
                    )
    return tuple(out)


__all__ = ["MAX_COMBINED_UNITS", "CombinedFigure", "CombinedGroup", "CombinedMelee", "combined_melee"]
