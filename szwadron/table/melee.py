"""5.3–5.7, PD-14, PD-15 — a melee read off the table: who fights, with what, and the odds.

:func:`table_melee` finds the figures of both units in contact (5.3.2, PD-14: at least 1 cm of
base edge touching the enemy unit), each defender's advantageous position (5.7, PD-15: behind
an obstacle, uphill of the attacker, in a building or fortification), groups the dice by UW and
terrain bonus (5.10.3), orders the figures for removal (5.4.3) and hands everything to the odds
engine (:func:`szwadron.odds.combat.melee`) for the exact joint losses and the 5.5 morale table. Only
figures that fought can be removed (5.4.2). :meth:`TableMelee.push_up` says, for given losses,
which figures may then push up and how far (5.6).

Decisions where the rulebook is silent:

- Contact across an obstacle (5.7, 1.3.5, PD-4): an attacker and a defender on either side of a
  crossable obstacle, each touching it, are in contact across it; their contact length is
  measured with the obstacle's width added to the contact tolerance. One measure for the melee
  and the audit (``szwadron check``): :meth:`~szwadron.geometry.battlefield.Battlefield.contact_lengths`.
- A defender's bonus is the largest that applies to it (PD-15 bonuses do not add up): W + 2 when
  its centre is in a building or fortification, W + 1 when it touches an obstacle that lies
  between it and every attacker figure it touches (the line between the centres crosses it), or
  when its level (PD-11) is higher than that of every attacker figure it touches.
- An attacker figure touching defenders with different bonuses strikes the one it touches along
  the greater length (on a tie, the smaller bonus); its dice join that group (5.10.3).
- Where only part of the defender holds the terrain, each terrain coefficient is a fight of its
  own (5.7.2, :func:`fight_numbers`): an attacker figure fights in the fight of the defender it
  strikes, a defender figure in that of its own bonus. Each fight's dice remove only figures of
  that fight (5.4.2: "tylko te jednostki, które uczestniczyły w tej walce"), along the removal
  order; a defender figure strikes back once, in its own fight; morale is settled once for the
  whole melee.
- Morale modifiers (PD-16): the defender adds the terrain bonus when every defender figure in
  contact holds an advantageous position (5.7.3), and the fortification bonus when every one is
  in a fortification.
- The exchange is the first round (a charge) unless ``continuing``: first strike on the charge
  (7.7) then counts for the attacker; first strike in defence counts for the defender in the
  first round, and in later rounds when it holds the advantage.
- Removal order (5.4.3): figures touching the most enemy figures first; among equals, one not
  next to (touching) a figure already chosen, then file order.
- The pursuit test (6.3.6: "Jeżeli oddział poniósł starty w walce wręcz, a wszyscy jego
  przeciwnicy zostali odrzuceni lub wpadli w panikę, to oddział taki wykonuje test „na
  niekontrolowany pościg”"): a unit's opponents are every enemy unit engaged with it (5.1.2:
  touching by PD-14, across an obstacle too, or recorded in its ``engaged_with``), not only the one
  named in this melee. While another of them stands (not in panic), not all were repulsed or
  panicked: the unit takes no pursuit test, nor may its player choose pursuit instead (6.3.6,
  5.5.8), and it holds (:func:`other_opponents`; the combined melee reads it so for opponents
  outside the fight).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import IllegalActionError, InvalidArgumentError, InvalidDataError
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.i18n import _, term
from szwadron.models import Ability, Scenario, TerrainKind, Unit, UnitState
from szwadron.odds.combat import Fighter, MeleeOdds, MeleeSide, Removed, count_removed, kept_indices, melee
from szwadron.odds.morale import MeleeMorale
from szwadron.table.audit import engaged_enemies

Side = Literal["attacker", "defender"]
IntArray = npt.NDArray[np.intp]


@dataclass(frozen=True)
class Fighting:
    """5.3, 5.7 — one figure in contact: the enemy figures it touches, its W bonus and why."""

    base: str
    side: Side
    touching: tuple[str, ...]
    contact_cm: float
    bonus: int = 0
    reason: str | None = None


@dataclass(frozen=True)
class StrikeGroup:
    """5.10.3 — the dice of one side with one UW against one terrain bonus."""

    side: Side
    skill: int
    target_bonus: int
    dice: int
    figures: tuple[str, ...]
    fight: int = 0
    """5.7.2 — the separate fight its dice belong to (0 when the melee is one fight)."""


@dataclass(frozen=True)
class PushStep:
    """5.6 — one step of pushing up: ``count`` of the ``candidates`` move up to ``max_cm``."""

    side: Side
    count: int
    candidates: tuple[str, ...]
    max_cm: float


@dataclass(frozen=True)
class TableMelee:
    """The answer of :func:`table_melee`; :meth:`to_json` is ``szwadron melee --json``."""

    attacker: str
    defender: str
    fighting: tuple[Fighting, ...]
    groups: tuple[StrikeGroup, ...]
    all_defenders_advantaged: bool
    first_strike: Side | None
    removal_order: dict[str, tuple[str, ...]]
    odds: MeleeOdds
    push_cm: float
    links: dict[str, dict[str, float]]
    idle: dict[str, tuple[str, ...]]
    table: Battlefield | None = field(default=None, repr=False, compare=False)
    """The table it was computed on (for plotting; not part of the JSON)."""
    sides: tuple[MeleeSide, MeleeSide] | None = field(default=None, repr=False, compare=False)
    """The two sides as the odds engine takes them (for one resolution with dice, issue 17)."""
    held_by: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    """6.3.6 — for ``"attacker"`` and ``"defender"``: the other enemy units engaged with it, not in
    panic (:func:`other_opponents`); any there, and it takes no pursuit test (not in the JSON)."""

    @property
    def attacker_in_contact(self) -> tuple[str, ...]:
        """Attacking figures that fight (5.3.2, PD-14), in file order."""
        return tuple(f.base for f in self.fighting if f.side == "attacker")

    @property
    def defender_in_contact(self) -> tuple[str, ...]:
        """Defending figures that fight, in file order."""
        return tuple(f.base for f in self.fighting if f.side == "defender")

    @property
    def fights(self) -> int:
        """5.7.2 — how many separate fights the melee is split into (1: one fight)."""
        return 1 if self.sides is None else max(side.parts for side in self.sides)

    def removed_bases(self, side: Side, removed: Removed) -> tuple[str, ...]:
        """5.4.3, 5.7.2 — the figures of ``side`` that ``removed`` takes (a count along its
        removal order, or a count per fight: the first of each fight's figures in that order)."""
        order = self.removal_order[side]
        if isinstance(removed, int) or self.sides is None:
            return order[: count_removed(removed)]
        parts = [f.part for f in self.sides[0 if side == "attacker" else 1].fighters]
        kept = set(kept_indices(parts, removed))
        return tuple(b for i, b in enumerate(order) if i not in kept)

    def push_up(self, attacker_removed: Removed, defender_removed: Removed) -> tuple[PushStep, ...]:
        """5.6 — when both sides stood: who pushes up after these losses, in order.

        ``links`` maps each fighting figure to the enemy figures it touches (contact cm);
        ``idle`` lists each side's figures that did not fight.

        The attacker first pushes as many figures as the difference in losses when the defender
        lost more; then the defender moves all its figures no longer engaged; then the attacker
        moves the rest. Each moves at most ``push_up_cm`` (4) towards the enemy just fought,
        whatever the terrain, but not into impassable terrain. Removed figures are the first of
        each removal order (of each fight's figures in it, 5.7.2: :meth:`removed_bases`).
        Decision: a figure may push up when after the removal it touches no enemy figure that is
        left.
        """
        gone = set(self.removed_bases("attacker", attacker_removed)) | set(
            self.removed_bases("defender", defender_removed)
        )
        attacker_removed, defender_removed = count_removed(attacker_removed), count_removed(defender_removed)
        free: dict[Side, list[str]] = {"attacker": [], "defender": []}
        for f in self.fighting:
            if f.base in gone:
                continue
            if not any(o not in gone for o in self.links[f.base]):
                free[f.side].append(f.base)
        free["attacker"] += self.idle["attacker"]  # figures that did not fight push up too
        free["defender"] += self.idle["defender"]
        steps: list[PushStep] = []
        first = 0
        if defender_removed > attacker_removed and free["attacker"]:
            first = min(defender_removed - attacker_removed, len(free["attacker"]))
            steps.append(PushStep("attacker", first, tuple(free["attacker"]), self.push_cm))
        if free["defender"]:
            steps.append(PushStep("defender", len(free["defender"]), tuple(free["defender"]), self.push_cm))
        rest = len(free["attacker"]) - first
        if rest > 0:
            steps.append(PushStep("attacker", rest, tuple(free["attacker"]), self.push_cm))
        return tuple(steps)

    def removal_chances(self) -> list[tuple[tuple[Removed, Removed], float]]:
        """5.4, 5.7.2 — every (attacker removed, defender removed) with its chance: counts along
        the removal orders, or counts per fight where the melee is split (which figures go)."""
        if self.odds.by_fight is not None:
            return [(k, float(p)) for k, p in self.odds.by_fight.probabilities().items()]
        joint = self.odds.joint_pmf()
        return [
            ((i, j), p)
            for i, row in enumerate(joint)
            for j, p in enumerate(row)
            if p > 0 and i < self.odds.attacker_figures + 1 and j < self.odds.defender_figures + 1
        ]

    def to_json(self) -> dict[str, Any]:
        """The ``melee --json`` document (odds keys as in ``odds melee``)."""
        a_rem, d_rem = self.odds.attacker_removed, self.odds.defender_removed
        push = [
            {
                "attacker_removed": count_removed(i),
                "defender_removed": count_removed(j),
                "p": p,
                "steps": [
                    {
                        "side": s.side,
                        "count": s.count,
                        "candidates": list(s.candidates),
                        "max_cm": s.max_cm,
                    }
                    for s in self.push_up(i, j)
                ],
            }
            for (i, j), p in self.removal_chances()
        ]
        return {
            "attacker_in_contact": list(self.attacker_in_contact),
            "defender_in_contact": list(self.defender_in_contact),
            "groups": [
                {
                    "side": g.side,
                    "uw": g.skill,
                    "target_bonus": g.target_bonus,
                    "dice": g.dice,
                    "figures": list(g.figures),
                    "fight": g.fight + 1,  # 5.7.2: fights counted from 1, as the text says them
                }
                for g in self.groups
            ],
            "joint_pmf": self.odds.joint_pmf(),
            "attacker_removed_pmf": a_rem.pmf(self.odds.attacker_figures + 1),
            "defender_removed_pmf": d_rem.pmf(self.odds.defender_figures + 1),
            "outcomes": self.odds.outcome_list(),
            "removal_order": {k: list(v) for k, v in self.removal_order.items()},
            "attacker": self.attacker,
            "defender": self.defender,
            "figures": [
                {
                    "base": f.base,
                    "side": f.side,
                    "touching": list(f.touching),
                    "contact_cm": round(f.contact_cm, 6),
                    "w_bonus": f.bonus,
                    "reason": f.reason,
                }
                for f in self.fighting
            ],
            "all_defenders_advantaged": self.all_defenders_advantaged,
            "first_strike": self.first_strike,
            "push_up": push,
        }


def _open_order(bf: Battlefield, members: np.ndarray, gap_cm: float) -> bool:
    """PD-17 — every base's nearest neighbour in the unit at least ``gap_cm`` away."""
    if len(members) < 2:
        return True
    c = bf.corners[members]
    d = polygon_distance(c[:, None], c[None, :])
    np.fill_diagonal(d, np.inf)
    return bool((d.min(axis=1) >= gap_cm - bf.settings.distance_epsilon_cm).all())


def table_melee(
    scenario: Scenario | Battlefield,
    attacker: str,
    defender: str,
    *,
    continuing: bool = False,
) -> TableMelee:
    """5.3–5.7, PD-14, PD-15 — the melee between two units as they stand on the table.

    Raises
    ------
    InvalidDataError
        Unknown units, or two units of one side.
    IllegalActionError
        No figure of one side is in contact (5.3.2), or the attacker panics (6.1).

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> cav = {"id": "c", "name": "C", "kind": "cavalry", "R": 24, "W": 2, "SW": 2, "SO": 0,
    ...        "Z": 0, "UW": 4, "C": 0, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": cav, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": cav, "bases": [
    ...         {"x": 11, "y": 14, "facing": 270}, {"x": 15, "y": 14, "facing": 270}]}]})
    >>> m = table_melee(sc, "a", "b")
    >>> m.attacker_in_contact, m.defender_in_contact   # b/1 touches a/1 along 0 cm: no fight
    (('a/0', 'a/1'), ('b/0',))
    >>> m.removal_order["attacker"]
    ('a/0', 'a/1')
    """
    bf = Battlefield.of(scenario)
    c = _Contacts.of(bf, attacker, defender)
    bonus = _defender_bonuses(bf, c)
    judged = [int(c.idf[k]) for k in c.d_in] or list(bonus)  # in contact; else those struck
    all_adv = all(bonus[b][0] > 0 for b in judged)
    links = _links(bf, c)
    a_order = _removal_order(bf, [int(c.ia[k]) for k in c.a_in], links)
    d_order = _removal_order(bf, [int(c.idf[k]) for k in c.d_in], links)
    a_struck = [_strikes_at(bf, b, links, bonus) for b in a_order]
    d_own = [bonus[b][0] for b in d_order]
    fight = fight_numbers([(0, t) for t in a_struck] + [(0, o) for o in d_own])
    a_fighters = tuple(_fighter(bf, b, t, fight[(0, t)]) for b, t in zip(a_order, a_struck, strict=True))
    d_fighters = tuple(_fighter(bf, b, 0, fight[(0, o)]) for b, o in zip(d_order, d_own, strict=True))
    ua, ud = bf.scenario.unit(attacker), bf.scenario.unit(defender)
    held_by = {
        "attacker": other_opponents(bf, attacker, [defender]),
        "defender": other_opponents(bf, defender, [attacker]),
    }
    a_side, d_side = _sides(
        bf, (ua, ud), (a_fighters, d_fighters), all_adv, _in_fortification(bf, judged), held_by
    )
    first = _first_strike(ua, ud, continuing=continuing, all_adv=all_adv)
    odds = melee(a_side, d_side, first_strike=first, die=bf.settings.remainder_die)
    strike_groups = _strike_groups(bf, (a_order, d_order), (a_side, d_side))
    return TableMelee(
        attacker,
        defender,
        _fighting(bf, c, links, bonus),
        strike_groups,
        all_adv,
        first,
        {
            "attacker": tuple(bf.base_ids[b] for b in a_order),
            "defender": tuple(bf.base_ids[b] for b in d_order),
        },
        odds,
        bf.settings.push_up_cm,
        links,
        {
            "attacker": tuple(bf.base_ids[b] for b in c.ia.tolist() if bf.base_ids[b] not in links),
            "defender": tuple(bf.base_ids[b] for b in c.idf.tolist() if bf.base_ids[b] not in links),
        },
        bf,
        sides=(a_side, d_side),
        held_by=held_by,
    )


def other_opponents(bf: Battlefield, unit: str, fought: Iterable[str]) -> tuple[str, ...]:
    """6.3.6 — the enemy units engaged with ``unit`` besides those it fights in this melee
    (``fought``) that are not in panic, in file order: its opponents (5.1.2, touching by PD-14 or
    recorded, :func:`~szwadron.table.audit.engaged_enemies`) that were not repulsed and did not
    panic. While any stands, "wszyscy jego przeciwnicy zostali odrzuceni lub wpadli w panikę" is
    not so, and ``unit`` takes no pursuit test.

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "bases": [{"x": 10, "y": 10, "facing": 90}]},
    ...     {"id": "d", "side": "B", "profile": inf, "bases": [{"x": 10, "y": 12, "facing": 270}]},
    ...     {"id": "e", "side": "B", "profile": inf, "bases": [{"x": 12, "y": 10, "facing": 180}]}]})
    >>> other_opponents(Battlefield(sc), "a", ["d"])     # e touches a's flank
    ('e',)
    """
    skip = set(fought)
    return tuple(
        e
        for e in engaged_enemies(bf, unit)
        if e not in skip and bf.scenario.unit(e).state is not UnitState.PANIC
    )


@dataclass(frozen=True)
class _Contacts:
    """5.3.2, PD-14 — the bases of both units, the contact length of every attacker–defender
    pair, and the figures of each side in contact (at least the minimum length in all)."""

    ia: IntArray
    idf: IntArray
    lengths: npt.NDArray[np.float64]  # (attacker base, defender base)
    a_in: IntArray
    d_in: IntArray

    @classmethod
    def of(cls, bf: Battlefield, attacker: str, defender: str) -> _Contacts:
        """Check the two units (6.1: a panicking unit does not attack) and measure."""
        s = bf.settings
        ia, idf = bf.resolve(attacker), bf.resolve(defender)
        for role, ident in (("attacker", attacker), ("defender", defender)):
            if ident not in bf.unit_ids:
                raise InvalidArgumentError(
                    role,
                    _("{ident!r} is a base; give the unit id {uid!r}").format(
                        ident=ident, uid=ident.partition("/")[0]
                    ),
                )
        ua, ud = bf.scenario.unit(attacker), bf.scenario.unit(defender)
        if attacker == defender:
            raise InvalidDataError(_("{units} cannot attack and defend in one melee").format(units=attacker))
        if ua.side == ud.side:
            raise InvalidDataError(
                _("{attacker} and {defender} are on the same side").format(
                    attacker=attacker, defender=defender
                )
            )
        if ua.state is UnitState.PANIC:
            raise IllegalActionError(
                "6.1", _("{attacker} is panicking and cannot attack").format(attacker=attacker)
            )
        lengths = _contact_lengths(bf, ia, idf)
        need = s.min_contact_length_cm - s.distance_epsilon_cm
        a_in = np.flatnonzero(lengths.sum(axis=1) >= need)
        d_in = np.flatnonzero(lengths.sum(axis=0) >= need)
        if a_in.size == 0 and d_in.size == 0:
            raise IllegalActionError(
                "5.3",
                _(
                    "no figure of {attacker} or {defender} touches the other unit along at least {min_contact_length_cm:g} cm of base edge in all (PD-14): no melee"
                ).format(attacker=attacker, defender=defender, min_contact_length_cm=s.min_contact_length_cm),
            )
        return cls(ia, idf, lengths, a_in, d_in)


def _contact_lengths(bf: Battlefield, ia: IntArray, idf: IntArray) -> npt.NDArray[np.float64]:
    """PD-14, 1.3.5, PD-4 — the contact length of each attacker–defender pair of bases; across
    a crossable obstacle both touch, measured with the obstacle's width added to the tolerance
    (:meth:`Battlefield.contact_lengths`, the audit's measure too)."""
    dist = polygon_distance(bf.corners[ia][:, None], bf.corners[idf][None, :])  # (na, nd)
    lengths = np.zeros(dist.shape)
    a_k, d_k = np.nonzero(dist <= bf.contact_reach_cm)
    if a_k.size:
        lengths[a_k, d_k] = bf.contact_lengths(ia[a_k], idf[d_k], dist[a_k, d_k])
    return lengths


def _defender_bonuses(bf: Battlefield, c: _Contacts) -> dict[int, tuple[int, str | None]]:
    """5.7, PD-15 — each defender in contact: its W bonus and why (the largest that applies)."""
    eps = bf.settings.distance_epsilon_cm
    struck = np.flatnonzero(c.lengths[c.a_in].sum(axis=0) > eps) if c.a_in.size else np.zeros(0, np.intp)
    bonus: dict[int, tuple[int, str | None]] = {}
    for d_k in sorted(set(c.d_in.tolist()) | set(struck.tolist())):
        foes = [int(c.ia[a_k]) for a_k in np.flatnonzero(c.lengths[:, d_k] > eps)]
        bonus[int(c.idf[d_k])] = _advantage(bf, int(c.idf[d_k]), foes)
    return bonus


def _advantage(bf: Battlefield, b: int, foes: list[int]) -> tuple[int, str | None]:
    """5.7, PD-15 — defender ``b``'s advantageous position against the attacker figures it
    touches: in a building or fortification, behind an obstacle, or uphill of every one."""
    s = bf.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    best: tuple[int, str | None] = (0, None)
    centre = shapely.Point(float(bf.x[b]), float(bf.y[b]))
    for f in bf.terrain:
        if f.kind in (TerrainKind.BUILDING, TerrainKind.FORTIFICATION) and shapely.covers(f.polygon, centre):
            best = max(
                best,
                (s.melee_building_w, _("in {value} {unit}").format(value=term(f.kind.value), unit=f.id)),
                key=lambda x: x[0],
            )
    for f in bf.terrain:
        if not f.crossable_obstacle or shapely.distance(bf.polygons[b], f.polygon) > tol:
            continue
        if foes and all(
            shapely.intersects(shapely.LineString([(bf.x[b], bf.y[b]), (bf.x[o], bf.y[o])]), f.polygon)
            for o in foes
        ):
            best = max(
                best, (s.melee_obstacle_w, _("behind obstacle {unit}").format(unit=f.id)), key=lambda x: x[0]
            )
    levels = bf.levels
    if foes and all(levels[b] > levels[o] for o in foes):
        best = max(
            best,
            (s.melee_uphill_w, _("uphill (level {levels})").format(levels=levels[b])),
            key=lambda x: x[0],
        )
    return best


def _in_fortification(bf: Battlefield, bases: Iterable[int]) -> bool:
    """PD-16 — every defender in contact stands (its centre) in a fortification."""
    return all(
        any(
            f.kind is TerrainKind.FORTIFICATION
            and shapely.covers(f.polygon, shapely.Point(float(bf.x[b]), float(bf.y[b])))
            for f in bf.terrain
        )
        for b in bases
    )


def _links(bf: Battlefield, c: _Contacts) -> dict[str, dict[str, float]]:
    """5.3, PD-14 — each fighting figure: the enemy figures it touches and along how long."""
    eps, ids = bf.settings.distance_epsilon_cm, bf.base_ids
    links: dict[str, dict[str, float]] = {}
    for a_k in c.a_in.tolist():
        links[ids[c.ia[a_k]]] = {
            ids[c.idf[d_k]]: float(c.lengths[a_k, d_k])
            for d_k in np.flatnonzero(c.lengths[a_k] > eps).tolist()
        }
    for d_k in c.d_in.tolist():
        links[ids[c.idf[d_k]]] = {
            ids[c.ia[a_k]]: float(c.lengths[a_k, d_k])
            for a_k in np.flatnonzero(c.lengths[:, d_k] > eps).tolist()
        }
    return links


def _removal_order(bf: Battlefield, bases: list[int], links: dict[str, dict[str, float]]) -> list[int]:
    """5.4.3 — figures touching the most enemy figures first; among equals, one not touching a
    figure already chosen, then file order."""
    tol = bf.settings.contact_tolerance_cm + bf.settings.distance_epsilon_cm
    left = list(bases)
    chosen: list[int] = []
    while left:
        most = max(len(links[bf.base_ids[b]]) for b in left)
        top = [b for b in left if len(links[bf.base_ids[b]]) == most]
        apart = [
            b
            for b in top
            if not chosen or bool((polygon_distance(bf.corners[b], bf.corners[chosen]) > tol).all())
        ]
        pick = (apart or top)[0]
        chosen.append(pick)
        left.remove(pick)
    return chosen


def _strikes_at(
    bf: Battlefield, b: int, links: dict[str, dict[str, float]], bonus: dict[int, tuple[int, str | None]]
) -> int:
    """5.10.3, PD-15 — the W bonus of the defender attacker figure ``b`` strikes: the one it
    touches along the greater length (on a tie, the smaller bonus)."""
    targets = links[bf.base_ids[b]]
    if not targets:  # in contact only by slivers each shorter than the epsilon
        return 0
    ranked = sorted(targets.items(), key=lambda kv: (-round(kv[1], 9), bonus[bf.resolve(kv[0])[0]][0]))
    return bonus[int(bf.resolve(ranked[0][0])[0])][0]


def _fighter(bf: Battlefield, unit_base: int, target_bonus: int, part: int = 0) -> Fighter:
    """5.3 — a figure's wounds, melee dice and UW, against a defender's W bonus, in fight
    ``part`` (5.7.2)."""
    unit = bf.scenario.units[int(bf.unit_of[unit_base])]
    p = unit.base_profile(int(bf.index_in_unit[unit_base]))
    return Fighter(p.wounds, p.melee, p.melee_skill, target_bonus, part)


def fight_numbers(keys: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """5.7.2 — the separate fights of a melee where only part of a unit holds the terrain
    ("rozgrywa się osobno każdą walkę dla jednostek walczących z różnymi współczynnikami
    terenu"), numbered 0, 1, ... by their terrain coefficients ``(W bonus of the attacking side's
    figure, W bonus of the defending side's figure)`` of each pair of figures that fight, smallest
    first. One coefficient (the whole unit holds the terrain, or none of it does): one fight, 0.

    >>> fight_numbers([(0, 1), (0, 0), (0, 1)])
    {(0, 0): 0, (0, 1): 1}
    """
    return {k: i for i, k in enumerate(sorted(set(keys)))}


def _sides(
    bf: Battlefield,
    units: tuple[Unit, Unit],
    fighters: tuple[tuple[Fighter, ...], tuple[Fighter, ...]],
    all_adv: bool,
    in_fort: bool,
    held_by: dict[str, tuple[str, ...]],
) -> tuple[MeleeSide, MeleeSide]:
    """5.5, PD-16, PD-17 — both sides for the odds engine: the fighters, morale (the defender's
    terrain and fortification bonuses; no pursuit for artillery, 6.7.1, nor for a unit another
    opponent of which stands, 6.3.6: ``held_by``) and skirmishers in open order."""
    s = bf.settings
    ua, ud = units
    a_side = MeleeSide(
        fighters[0],
        MeleeMorale(
            ua.profile.morale,
            ua.strength,
            ua.starting_strength,
            0,
            pursues=not ua.profile.kind.is_artillery and not held_by["attacker"],  # 6.7.1, 6.3.6
        ),
        skirmish=ua.has(Ability.SKIRMISH) and _open_order(bf, bf.resolve(ua.id), s.skirmish_open_order_cm),
    )
    d_mod = (s.terrain_morale_bonus if all_adv else 0) + (s.fortification_morale_bonus if in_fort else 0)
    d_side = MeleeSide(
        fighters[1],
        MeleeMorale(
            ud.profile.morale,
            ud.strength,
            ud.starting_strength,
            d_mod,
            ud.state is UnitState.PANIC,
            pursues=not ud.profile.kind.is_artillery and not held_by["defender"],  # 6.7.1, 6.3.6
        ),
        skirmish=ud.has(Ability.SKIRMISH) and _open_order(bf, bf.resolve(ud.id), s.skirmish_open_order_cm),
    )
    return a_side, d_side


def _first_strike(ua: Unit, ud: Unit, *, continuing: bool, all_adv: bool) -> Side | None:
    """7.7 — who strikes first: 7.7.1 unrestricted first strike counts in every round; 7.7.2
    the limited kinds on the charge (first round, attacking) or in defence (first round, or
    holding the terrain); none when both or neither have it."""
    a_first = ua.has(Ability.FIRST_STRIKE) or (ua.has(Ability.FIRST_STRIKE_CHARGE) and not continuing)
    d_first = ud.has(Ability.FIRST_STRIKE) or (
        ud.has(Ability.FIRST_STRIKE_DEFENCE) and (not continuing or all_adv)
    )
    return "attacker" if a_first and not d_first else ("defender" if d_first and not a_first else None)


def _strike_groups(
    bf: Battlefield, orders: tuple[list[int], list[int]], sides: tuple[MeleeSide, MeleeSide]
) -> tuple[StrikeGroup, ...]:
    """5.10.3, 5.7.2, 7.5, PD-17 — each side's figures grouped by UW, target bonus and fight, with
    the dice each group rolls as the odds engine counts them (halved sum pooled); groups that roll
    no dice are left out."""
    groups: dict[tuple[Side, int, int, int], list[str]] = {}
    names: tuple[Side, Side] = ("attacker", "defender")
    for side_name, bases, side in zip(names, orders, sides, strict=True):
        for b, fig in zip(bases, side.fighters, strict=True):
            groups.setdefault((side_name, fig.skill, fig.target_bonus, fig.part), []).append(bf.base_ids[b])
    rolled = {
        (side_name, skill, bonus, part): n
        for side_name, side in zip(names, sides, strict=True)
        for n, skill, bonus, part in side.part_groups()
    }
    # a group that rolls no dice (SW 0, or halved to nothing in open order) is no group (5.10.3):
    # it is not listed, as the combined melee lists none (its figures are in contact all the same)
    return tuple(
        StrikeGroup(k[0], k[1], k[2], rolled[k], tuple(v), k[3])
        for k, v in groups.items()
        if rolled.get(k, 0)
    )


def _fighting(
    bf: Battlefield,
    c: _Contacts,
    links: dict[str, dict[str, float]],
    bonus: dict[int, tuple[int, str | None]],
) -> tuple[Fighting, ...]:
    """5.3, 5.7 — each figure in contact, attackers then defenders in file order."""
    ids = bf.base_ids
    fighting = [
        Fighting(ids[int(c.ia[k])], "attacker", tuple(links[ids[int(c.ia[k])]]), float(c.lengths[k].sum()))
        for k in c.a_in
    ]
    fighting += [
        Fighting(
            ids[int(c.idf[k])],
            "defender",
            tuple(links[ids[int(c.idf[k])]]),
            float(c.lengths[:, k].sum()),
            *bonus[int(c.idf[k])],
        )
        for k in c.d_in
    ]
    return tuple(fighting)


__all__ = ["Fighting", "PushStep", "StrikeGroup", "TableMelee", "other_opponents", "table_melee"]
