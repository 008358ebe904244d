"""Simulated duels (issue 7): two units meet on open ground and fight until one breaks.

The duel is the truth the points model (:mod:`szwadron.armies.points`) is fitted to, so it plays the
rules, with the dice of :mod:`szwadron.odds.combat` and :mod:`szwadron.odds.morale`:

- **Set-up.** Two units in line, fronts parallel, ``START_DISTANCE_CM`` (40 cm) apart, edge to
  edge (4.5.2), on open ground with no table edge. A round is the turns of both sides (2.1);
  who goes first is a parameter (the calibration alternates it). Every figure of a unit fires
  at the same distance (PD-9 with parallel fronts); all figures are eligible targets (PD-10).
- **Actions** (2.3), chosen by :func:`choose_action`, a simple sensible policy:

  * engaged: continue the melee (5.3), or disengage (5.8) for units with automatic disengage
    (7.6) when the exact odds of the next exchange are against them;
  * a unit in range fires (4.6) with its best ammunition (7.1.3) at the range-modified accuracy
    (4.5.4, C − 1 per full 20 cm); a unit that could also charge charges instead when the exact
    odds favour it (the chance that the enemy breaks or is repulsed, less its own);
  * a unit in charge reach (distance ≤ R, 3.1.5) with melee dice charges (V: move and melee);
    artillery never charges;
  * a shooter that the enemy must come to (the enemy has no fire, or less effective range)
    declares fire in the opponent's turn (4.12) instead of advancing;
  * otherwise it advances: a shooter stops at its effective range (within Z and short of the
    distance where 4.5.4 brings its C to 0: C × 20 cm), and when half its move brings it into
    that range it fires on the march instead (4.11, half SO); artillery may not (7.1.2); heavy
    artillery spends a turn preparing after it moved (7.3).
- **Reaction fire.** A declared unit (4.12.2) interrupts the enemy's move at the point of its
  choice: at the end of an advance, just before contact for a charge (distance 0); if not
  triggered it fires at the end of the opponent's movement phase (4.12.5). A unit that took no
  action in its own turn and declared nothing fires at the first unit that charges it (4.12.6).
- **Melee** (5.3–5.5, 7.7) by :func:`szwadron.odds.combat.roll_melee`: the figures in contact are
  those facing the other line (frontage 2 cm for infantry and cavalry, PD-1; 4 cm for artillery;
  4 cm per skirmisher in open order, 7.5), and from the second exchange on, after pushing up
  (5.6), the longer line also wraps the shorter one's flanks (one figure per side edge of the
  shorter line's base depth). First strike on the charge counts in the charge exchange, in
  defence in the first exchange the unit defends (open ground gives no terrain advantage).
  Skirmishers in open order halve their melee dice and double W against fire (7.5, PD-17).
- **Cover** (optional, issue 14): a unit may fight from scattered cover, bushes or rubble
  (4.10.3): its figures have W + :attr:`DuelUnit.cover` against fire for the whole duel — the
  volleys at it, and the policy's odds of firing at it. Cover is against fire only (4.10.3): melee
  and morale are unchanged. With open order the two add up before the halving (4.10.9, 7.5.2):
  (W + cover) doubled, as the table engine computes it (docs/decisions.md).
- **Morale.** After fire a damaged unit takes the 6.3 test (4.8.1); repulsed units retreat a
  full move away (4.8.2, 5.5.6, 6.5); a unit that panics (6.6) counts as broken and loses the
  duel, as does a destroyed one (PD-18). A side failing its pursuit test pursues (6.7): it moves
  2d6 × 2 cm (infantry) or 2d6 × 4 cm (cavalry) after the enemy, takes no action in its
  movement phase and, in its morale phase, tries to reorganise (6.8) or moves and fights again.
  Artillery never pursues. Both broken at once, or no decision within ``MAX_ROUNDS``, is a draw.

Simplifications (open ground, two units, no geometry): no table edge, no flanks beyond the
wrap-around, no choice to pursue (5.5.8), pursuers act only in their own turn. A unit may carry
an elite company of another profile (1.1, :class:`Side`): it fires as its own dice group, stands
in the front rank of a melee and is removed last; the policy's odds (:func:`choose_action`) count
every figure of the unit, the company's with its own characteristics (issue 14).

**Two engines, one duel.** :class:`Duel` states the rules step by step (the per-die roller,
logs, tests that set up a state by hand). With the exact sampler, battles and :func:`run_duel`
play on a lean engine (:func:`_lean_engine`, issue 14): the same turns on local variables, every
policy choice, volley table, morale target and melee exchange computed once per pair of units
by the functions above and then looked up. It draws the same random numbers from the same
tables in the same order, so a seed gives the same duel on either (tests/test_lean_duel.py).

**Battles** (:func:`run_battle`): equal points are spent as several units of a standard size
per kind (:data:`STANDARD_UNIT_FIGURES`, the example rosters' sizes), so that a cheap profile
fields more units — more morale tests to break, as in a real army — instead of one huge unit
that still breaks at its M per test (6.3). The units fight in pairs, reserves step in, and a
side loses when all its units are broken or destroyed. The calibration and the validation of
the points model play battles. Who meets whom is drawn by the dice (``pairing="random"``, the
calibration's), or chosen by the side moving first under a target policy
(:data:`TARGET_POLICIES`, :func:`choose_targets`: the weakest enemy, the most dangerous, the best
matchup; 2.1.4, 4.2.1, 5.2.1). With ``flight`` (:data:`BATTLE_FLIGHT`, off until the points are
fitted with it) a panicked unit flees towards its own edge instead of leaving for good, and may
reorganise and come back as a reserve (6.6, 6.8; :class:`BattleFlight`, :func:`rally_chance`).

Examples
--------
>>> from szwadron.models import Profile
>>> line = Profile.model_validate({"id": "line", "name": "Line", "kind": "infantry", "R": 12,
...     "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4})
>>> r = run_duel(DuelUnit.from_profile(line), 12, DuelUnit.from_profile(line), 12, seed="doc")
>>> r == run_duel(DuelUnit.from_profile(line), 12, DuelUnit.from_profile(line), 12, seed="doc")
True
>>> r.score_a in (0.0, 0.5, 1.0)
True
"""

from __future__ import annotations

import random
import threading
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from operator import itemgetter
from typing import Any, Literal

from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext
from szwadron.models import Ability, Kind, Profile
from szwadron.odds.combat import Fighter, MeleeSide, melee, roll_melee, roll_volley, volley
from szwadron.odds.dice import Distribution, clamp
from szwadron.odds.joint import CombinedEngine, Loss, Striker, combined_outcomes
from szwadron.odds.morale import (
    MORALE_DIE_SIDES,
    FireOutcome,
    MeleeMorale,
    MeleeOutcome,
    casualty_test,
    morale_target,
    roll_casualty_test,
    roll_test,
)
from szwadron.odds.sample import (
    MeleePlan,
    Table,
    casualty_table,
    melee_plan,
    sample_melee,
    test_passes,
    volley_table,
)
from szwadron.settings import DEFAULT_SETTINGS, RulesSettings

#: Standard set-up: the two fronts this far apart, edge to edge (4.5.2).
START_DISTANCE_CM = 40.0
#: A duel with no decision after this many rounds is a draw.
MAX_ROUNDS = 30
#: An advancing unit stops this far short of contact, or of the enemy's range (policy).
ADVANCE_GAP_CM = 0.5
#: 7.5, PD-17: skirmishers stand in open order, at least this gap beside each base.
OPEN_ORDER_GAP_CM = 2.0

Who = Literal[0, 1]
Sampler = Literal["exact", "dice"]
"""How a simulation resolves dice: ``"exact"`` draws each volley, melee exchange and morale test
from its exact distribution (:mod:`szwadron.odds.sample`, one random number each); ``"dice"``
rolls every die as a referee would (:func:`szwadron.odds.combat.roll_volley`), the reference."""
#: The sampler of battles, calibration and validation.
DEFAULT_SAMPLER: Sampler = "exact"


def _exact(sampler: str) -> bool:
    if sampler not in ("exact", "dice"):
        raise InvalidDataError(f"sampler must be 'exact' or 'dice', got {sampler!r}")
    return sampler == "exact"


class Action(StrEnum):
    """What a unit does in its movement phase (2.3)."""

    FIRE = "fire"  # II
    MARCH_FIRE = "march_fire"  # III, 4.11
    CHARGE = "charge"  # V
    ADVANCE = "advance"  # I
    DECLARE = "declare"  # VI, 4.12
    PREPARE = "prepare"  # 7.3: heavy artillery prepares its firing position
    MELEE = "melee"  # engaged I: continue the melee
    DISENGAGE = "disengage"  # engaged II, 5.8


@dataclass(frozen=True)
class Weapon:
    """A way to fire (4.6, 7.1.3): range Z (cm), firepower SO, accuracy C."""

    name: str
    range_cm: float
    fire: int
    accuracy: int


_INTERNED: dict[DuelUnit, DuelUnit] = {}


@dataclass(frozen=True, eq=False)
class DuelUnit:
    """The characteristics a duel needs of a unit's figures (1.1), derived from a profile.

    ``move_cm`` is the limbered move for guns fielded with their limber (7.2). ``cover`` is the
    W bonus of its figures against fire (4.10.3 scattered cover, adding up by 4.10.9; 0 on open
    ground): the unit's elite company (1.1) stands in the same cover.
    """

    key: str
    kind: Kind
    move_cm: float
    wounds: int
    melee: int
    skill: int
    morale: int
    weapons: tuple[Weapon, ...]
    skirmish: bool = False
    first_strike: bool = False
    first_strike_charge: bool = False
    first_strike_defence: bool = False
    auto_disengage: bool = False
    heavy: bool = False
    frontage_cm: float = 2.0
    depth_cm: float = 2.0
    cover: int = 0

    # Equality and hashing by value, the hash computed once: a unit is a key of the policy's
    # caches, looked up several times a turn.
    @cached_property
    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    @cached_property
    def _hash(self) -> int:
        return hash(self._values)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, DuelUnit)
        return self._hash == other._hash and self._values == other._values

    @classmethod
    def from_profile(cls, profile: Profile) -> DuelUnit:
        """The duel view of a profile: weapons from its ammunition (artillery, 7.1.3) or its own
        SO/Z/C; the limbered move when it has one (7.2)."""
        if profile.kind is Kind.LIMBER:
            raise InvalidDataError(f"profile {profile.id!r}: a limber does not fight a duel (7.2)")
        if profile.ammunition:
            weapons = tuple(
                Weapon(a.name, a.range, a.fire, a.accuracy) for a in profile.ammunition if a.fire > 0
            )
        elif profile.fire > 0 and profile.range > 0:
            weapons = (Weapon("musket", profile.range, profile.fire, profile.accuracy),)
        else:
            weapons = ()
        width, depth = profile.base_size
        skirmish = profile.has(Ability.SKIRMISH)
        unit = cls(
            key=profile.id,
            kind=profile.kind,
            move_cm=profile.move_limbered if profile.move_limbered is not None else profile.move,
            wounds=profile.wounds,
            melee=profile.melee,
            skill=profile.melee_skill,
            morale=profile.morale,
            weapons=weapons,
            skirmish=skirmish,
            first_strike=profile.has(Ability.FIRST_STRIKE),
            first_strike_charge=profile.has(Ability.FIRST_STRIKE_CHARGE),
            first_strike_defence=profile.has(Ability.FIRST_STRIKE_DEFENCE),
            auto_disengage=profile.has(Ability.AUTO_DISENGAGE),
            heavy=profile.has(Ability.HEAVY),
            frontage_cm=width + (OPEN_ORDER_GAP_CM if skirmish else 0.0),
            depth_cm=depth,
        )
        return _INTERNED.setdefault(unit, unit)  # one object per value: the caches hit by identity

    def in_cover(self, bonus: int) -> DuelUnit:
        """The same unit fighting from cover worth ``bonus`` W against fire (4.10.3; 0: open
        ground), interned like :meth:`from_profile`'s units.

        >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, ())
        >>> line.in_cover(1).cover, line.in_cover(1) is line.in_cover(1), line.in_cover(0) == line
        (1, True, True)
        """
        if not isinstance(bonus, int) or isinstance(bonus, bool) or bonus < 0:
            raise InvalidDataError(f"a cover bonus is a whole number of W, at least 0, got {bonus!r}")
        unit = replace(self, cover=bonus)
        return _INTERNED.setdefault(unit, unit)

    @property
    def fire_wounds(self) -> int:
        """W of its figures against fire: W + cover (4.6, 4.10.3)."""
        return self.wounds + self.cover

    @cached_property
    def is_artillery(self) -> bool:
        """Artillery: never charges, never pursues (6.7), no fire on the march (7.1.2)."""
        return self.kind.is_artillery

    @property
    def max_range_cm(self) -> float:
        """The longest range of its weapons (0 without fire)."""
        return max((w.range_cm for w in self.weapons), default=0.0)

    @cached_property
    def effective_range_cm(self) -> float:
        """The longest distance at which it can fire (0 without fire): within Z (4.5.1) and
        short of the distance where 4.5.4 brings its C to 0 (C × 20 cm), less the policy's gap.

        >>> militia = DuelUnit("m", Kind.INFANTRY, 12, 1, 1, 2, 3, (Weapon("musket", 24, 1, 1),))
        >>> militia.max_range_cm, militia.effective_range_cm
        (24, 19.5)
        """
        band = DEFAULT_SETTINGS.range_band_cm
        return max((min(w.range_cm, w.accuracy * band - ADVANCE_GAP_CM) for w in self.weapons), default=0.0)

    def pursuit_multiplier(self, settings: RulesSettings = DEFAULT_SETTINGS) -> int:
        """6.7: pursuit 2d6 × this many cm (0: never pursues)."""
        if self.kind is Kind.INFANTRY:
            return settings.pursuit_multiplier_infantry
        if self.kind is Kind.CAVALRY:
            return settings.pursuit_multiplier_cavalry
        return 0


def modified_accuracy(accuracy: int, distance_cm: float, settings: RulesSettings = DEFAULT_SETTINGS) -> int:
    """4.5.4 — C reduced by 1 for every full 20 cm of distance.

    >>> modified_accuracy(3, 19.9), modified_accuracy(3, 20.0), modified_accuracy(3, 45.0)
    (3, 2, 1)
    """
    return accuracy - int(distance_cm // settings.range_band_cm)


@lru_cache(maxsize=65536)
def _best_weapon(
    unit: DuelUnit, distance_cm: float, target_wounds: int, target_skirmish: bool
) -> tuple[Weapon, int] | None:
    best: tuple[float, Weapon, int] | None = None
    for w in unit.weapons:
        if distance_cm > w.range_cm + DEFAULT_SETTINGS.distance_epsilon_cm:  # 4.5.1
            continue
        acc = modified_accuracy(w.accuracy, distance_cm)
        if acc <= 0:  # 4.5.4: C ≤ 0 cannot fire
            continue
        value = volley([(w.fire, acc)], target_wounds, skirmish=target_skirmish).expected
        if best is None or value > best[0]:
            best = (value, w, acc)
    return None if best is None else (best[1], best[2])


def best_weapon(unit: DuelUnit, distance_cm: float, target: DuelUnit) -> tuple[Weapon, int] | None:
    """4.5, 7.1.3 — the weapon with the most expected figures removed at this distance, with its
    modified accuracy; None when no weapon reaches or every modified C is ≤ 0.

    >>> gun = DuelUnit("gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4,
    ...     (Weapon("roundshot", 48, 2, 3), Weapon("canister", 14, 4, 4)))
    >>> [best_weapon(gun, d, gun)[0].name for d in (10.0, 30.0)]
    ['canister', 'roundshot']
    >>> best_weapon(gun, 60.0, gun) is None
    True
    """
    return _best_weapon(unit, distance_cm, target.fire_wounds, target.skirmish)


@dataclass
class Side:
    """One unit's state during a duel."""

    unit: DuelUnit
    initial: int
    strength: int
    broken: bool = False
    elite: DuelUnit | None = None
    """Figures of another profile in the unit (an elite company, 1.1), removed last."""
    elite_left: int = 0
    """How many of ``strength`` are ``elite`` figures."""
    pursuing: bool = False
    prepared: bool = True
    declared: bool = False
    idle: bool = False

    @property
    def out(self) -> bool:
        """Broken (panicked) or destroyed: the duel is lost."""
        return self.broken or self.strength == 0

    @property
    def plain(self) -> int:
        """Figures of the unit's own profile left."""
        return self.strength - self.elite_left

    def lose(self, removed: int, plain_exposed: int | None = None) -> None:
        """Remove ``removed`` figures, the unit's own first (4.7, 5.4.3: the owner keeps its elite
        company), of which ``plain_exposed`` (default: all) could be removed before the elite."""
        first = self.plain if plain_exposed is None else min(plain_exposed, self.plain)
        self.elite_left = max(0, self.elite_left - max(0, removed - first))
        self.strength -= removed
        self.elite_left = min(self.elite_left, self.strength)

    def wounds(self) -> int | tuple[int, ...]:
        """W of the unit against fire, its cover included (4.6, 4.10.3): one W, or its figures' in
        removal order when it has an elite company of other W (the company shares its cover)."""
        w = self.unit.fire_wounds
        if self.elite is None or self.elite_left == 0 or self.elite.wounds == self.unit.wounds:
            return w
        return (w,) * self.plain + (self.elite.wounds + self.unit.cover,) * self.elite_left


def _fighters(me: DuelUnit, strength: int, other: DuelUnit, other_strength: int, pushed_up: bool) -> int:
    """:meth:`Duel.fighters` (5.3, 5.6, PD-14) of a unit of ``strength`` against one of
    ``other_strength``; ``pushed_up``: from the second exchange on."""
    mine = strength * me.frontage_cm
    theirs = other_strength * other.frontage_cm
    facing = min(mine, theirs)
    n = max(1, int(facing // me.frontage_cm + 1e-9))
    if pushed_up and mine > theirs:
        flank = int(other.depth_cm // me.frontage_cm + 1e-9)
        n += 2 * max(flank, 1)
    return min(n, strength)


def _first_strike(
    a_unit: DuelUnit, d_unit: DuelUnit, charge: bool, first_exchange: bool
) -> Literal["attacker", "defender"] | None:
    """:meth:`Duel.first_strike` (7.7) of ``a_unit`` attacking ``d_unit``."""
    a = a_unit.first_strike or (a_unit.first_strike_charge and charge)
    d = d_unit.first_strike or (d_unit.first_strike_defence and first_exchange)
    if a and not d:
        return "attacker"
    if d and not a:
        return "defender"
    return None


@dataclass(frozen=True)
class DuelResult:
    """How a duel ended.

    ``winner`` is 0 (side A), 1 (side B) or None (a draw); ``score_a`` is 1, 0 or 0.5.
    """

    winner: Who | None
    rounds: int
    strength_a: int
    strength_b: int
    reason: str

    @property
    def score_a(self) -> float:
        """Side A's score: 1 win, 0.5 draw, 0 loss."""
        return 0.5 if self.winner is None else (1.0 if self.winner == 0 else 0.0)


@dataclass
class Duel:
    """A duel in progress: both sides, the distance between their fronts and the dice.

    The methods are the rules' steps; :meth:`run` plays the whole duel. Tests set up
    situations by hand (distance, strengths, flags) and call the steps.
    """

    sides: tuple[Side, Side]
    rng: random.Random
    distance_cm: float = START_DISTANCE_CM
    engaged: bool = False
    melee_rounds: int = 0
    settings: RulesSettings = DEFAULT_SETTINGS
    log: list[str] | None = None
    exact: bool = False
    """Draw each volley, melee exchange and test from its exact distribution
    (:mod:`szwadron.odds.sample`: one random number each) instead of rolling every die."""
    winner: Who | None = None
    finished: bool = False
    reason: str = ""
    turns: int = 0
    """The sides' turns played by :meth:`run` (2.1.3: they alternate, so the side moving next
    is the first mover when it is even)."""
    _charge_round: bool = field(default=False, repr=False)

    @classmethod
    def start(
        cls,
        unit_a: DuelUnit,
        figures_a: int,
        unit_b: DuelUnit,
        figures_b: int,
        rng: random.Random,
        *,
        distance_cm: float = START_DISTANCE_CM,
        log: bool = False,
        sampler: Sampler = "dice",
    ) -> Duel:
        """The standard set-up: two fresh units ``distance_cm`` apart."""
        for n in (figures_a, figures_b):
            if not isinstance(n, int) or n < 1:
                raise InvalidDataError(f"a duel needs at least one figure a side, got {n!r}")
        return cls(
            (Side(unit_a, figures_a, figures_a), Side(unit_b, figures_b, figures_b)),
            rng,
            distance_cm=distance_cm,
            log=[] if log else None,
            exact=_exact(sampler),
        )

    # --- bookkeeping -------------------------------------------------------------------------
    def _note(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def _test(self, kind: str, target: int) -> bool:
        """6.2 — one morale test: passed?"""
        if self.exact:
            return test_passes(target, self.rng)
        return roll_test(kind, target, self.rng).passed

    def _check_end(self) -> bool:
        a, b = self.sides
        if a.out or b.out:
            self.finished = True
            if a.out and b.out:
                self.winner, self.reason = None, "both broke"
            else:
                loser = 0 if a.out else 1
                self.winner = 1 - loser  # type: ignore[assignment]
                side = self.sides[loser]
                self.reason = f"{'AB'[loser]} {'destroyed' if side.strength == 0 else 'panicked'}"
        return self.finished

    def _retreat(self, who: Who, why: str) -> None:
        """4.8.2, 5.5.6, 6.5 — a full move directly away from the enemy; ends normal."""
        side = self.sides[who]
        self.distance_cm += side.unit.move_cm
        self.engaged = False
        self.melee_rounds = 0
        side.pursuing = False
        if side.unit.heavy and side.unit.move_cm > 0:
            side.prepared = False  # 7.3: it moved
        if self.log is not None:
            self._note(f"{'AB'[who]} repulsed ({why}): retreats to {self.distance_cm:g} cm")

    # --- fire (4.5–4.8, 4.11) -------------------------------------------------------------------
    def fire(self, shooter: Who, *, at_cm: float | None = None, march: bool = False) -> bool:
        """4.6, 4.8, 6.3 — ``shooter`` fires at the other side at ``at_cm`` (default: the
        current distance); the target tests morale if damaged (4.8.1). Returns False when no
        weapon can reach (the action is wasted, 4.5.5)."""
        me, target = self.sides[shooter], self.sides[1 - shooter]
        distance = self.distance_cm if at_cm is None else at_cm
        if me.strength == 0:
            return False
        if self.exact and self.log is None:
            table = _fire_table(
                me.unit,
                me.plain,
                me.elite,
                me.elite_left,
                target.unit,
                target.strength,
                target.elite,
                target.elite_left,
                distance,
                march,
            )
            if table is None:
                return False
            removed, damaged = table.sample(self.rng)
            target.lose(removed)
            return self._after_fire(shooter, damaged)
        groups: list[tuple[int, int]] = []
        names: list[str] = []
        for unit, figures in ((me.unit, me.plain), (me.elite, me.elite_left)):
            choice = best_weapon(unit, distance, target.unit) if unit is not None and figures else None
            if choice is not None:
                groups.append((choice[0].fire * figures, choice[1]))
                names.append(choice[0].name)
        if not groups:
            return False
        if self.exact:
            table = volley_table(tuple(groups), target.wounds(), target.unit.skirmish, march, target.strength)
            if table is None:
                return False
            removed, damaged = table.sample(self.rng)
            target.lose(removed)
            if self.log is not None:
                self._note(f"{'AB'[shooter]} fires {'/'.join(names)} at {distance:g} cm: {removed} removed")
        else:
            odds = volley(
                groups, target.wounds(), skirmish=target.unit.skirmish, march=march, cap=target.strength
            )
            if not any(g.dice for g in odds.groups):
                return False
            roll = roll_volley(odds, self.rng)
            target.lose(roll.removed)
            removed, damaged = roll.removed, roll.damage > 0
            if self.log is not None:
                self._note(
                    f"{'AB'[shooter]} fires {'/'.join(names)} at {distance:g} cm "
                    f"({', '.join(f'{g.dice} dice ≤{g.accuracy}' for g in odds.groups)}): "
                    f"{roll.damage} damage, {roll.removed} removed"
                )
        return self._after_fire(shooter, damaged)

    def _after_fire(self, shooter: Who, damaged: bool) -> bool:
        """4.8.1 — a damaged target tests (6.3); then the end of the duel is checked."""
        target = self.sides[1 - shooter]
        if damaged and target.strength > 0:  # 4.8.1
            t = morale_target(target.unit.morale, target.strength, target.initial)
            if self.exact:
                outcome = casualty_table(t).sample(self.rng)
            else:
                outcome, _ = roll_casualty_test(t, self.rng)
            if outcome is FireOutcome.PANIC:
                target.broken = True
                if self.log is not None:
                    self._note(f"{'AB'[1 - shooter]} panics")
            elif outcome is FireOutcome.REPULSED:
                self._retreat(1 - shooter, "fire, 4.8.2")  # type: ignore[arg-type]
        self._check_end()
        return True

    def reaction_fire(self, mover: Who, at_cm: float, *, charge: bool) -> bool:
        """4.12 — the other side fires at ``mover`` during its move, when it declared fire
        (4.12.2) or, against a charge, when it idled in its own turn (4.12.6). Returns whether
        the mover is still coming on (not broken nor repulsed)."""
        other = self.sides[1 - mover]
        if other.out or self.engaged or other.pursuing:
            return True
        if not (other.declared or (charge and other.idle)):
            return True
        if best_weapon(other.unit, at_cm, self.sides[mover].unit) is None:
            return True
        other.declared = False
        other.idle = False
        before = self.distance_cm
        self.distance_cm = at_cm
        if self.log is not None:
            self._note(f"{'AB'[1 - mover]} reacts to the {'charge' if charge else 'move'} (4.12)")
        self.fire(1 - mover, at_cm=at_cm)  # type: ignore[arg-type]
        repulsed = self.distance_cm != at_cm
        if not repulsed:
            self.distance_cm = before
        return not (self.finished or repulsed)

    # --- melee (5.3–5.6, 7.7) ---------------------------------------------------------------
    def fighters(self, who: Who) -> int:
        """5.3, PD-14 — figures of ``who`` in contact: those facing the other line, and from the
        second exchange (after pushing up, 5.6) those wrapping the shorter line's flanks."""
        me, other = self.sides[who], self.sides[1 - who]
        return _fighters(me.unit, me.strength, other.unit, other.strength, self.melee_rounds >= 1)

    def _melee_key(self, who: Who) -> MeleeKey:
        """What :meth:`_melee_side` is built from."""
        me = self.sides[who]
        return (me.unit, self.fighters(who), me.strength, me.initial, me.elite, me.elite_left)

    def _melee_side(self, who: Who) -> MeleeSide:
        """5.3 — the figures of ``who`` in contact: its elite company in the front rank (the
        owner's choice), removed after the others in contact (5.4.3)."""
        return _melee_side(*self._melee_key(who))

    def _plain_in_contact(self, who: Who) -> int:
        me = self.sides[who]
        n = self.fighters(who)
        return n - min(me.elite_left, n)

    def first_strike(self, attacker: Who, *, charge: bool) -> Literal["attacker", "defender"] | None:
        """7.7 — who strikes first: unrestricted first strike (7.7.1) always; on the charge for the
        attacker, in the first exchange it defends for the defender (7.7.2); both or neither:
        simultaneous."""
        return _first_strike(
            self.sides[attacker].unit, self.sides[1 - attacker].unit, charge, self.melee_rounds == 0
        )

    def melee_exchange(self, attacker: Who, *, charge: bool = False) -> None:
        """5.3–5.5 — one exchange with ``attacker`` attacking, then the morale outcome."""
        other: Who = 1 if attacker == 0 else 0
        att, dfn = self.sides[attacker], self.sides[other]
        fs = self.first_strike(attacker, charge=charge)
        exposed = (self._plain_in_contact(attacker), self._plain_in_contact(other))
        if self.exact:
            a_removed, d_removed, a_out, d_out = sample_melee(
                self._melee_side(attacker), self._melee_side(other), fs, self.rng, self.settings.remainder_die
            )
        else:
            a_side, d_side = self._melee_side(attacker), self._melee_side(other)
            roll = roll_melee(a_side, d_side, self.rng, first_strike=fs, die=self.settings.remainder_die)
            a_removed, d_removed = roll.attacker_removed, roll.defender_removed
            a_out, d_out = roll.outcome
        att.lose(a_removed, exposed[0])
        dfn.lose(d_removed, exposed[1])
        self.melee_rounds += 1
        if self.log is not None:
            self._note(
                f"{'AB'[attacker]} attacks{' (charge)' if charge else ''}"
                f"{f', first strike {fs}' if fs else ''}: loses {a_removed}, "
                f"enemy loses {d_removed}; {a_out.value}/{d_out.value}"
            )
        for who, out in ((attacker, a_out), (1 - attacker, d_out)):
            if out is MeleeOutcome.PANIC:
                self.sides[who].broken = True
        if self._check_end():
            return
        for who, out in ((1 - attacker, d_out), (attacker, a_out)):  # the defender moves first
            if out is MeleeOutcome.REPULSED:
                self._retreat(who, "melee, 5.5.6")  # type: ignore[arg-type]
        for who, out in ((attacker, a_out), (1 - attacker, d_out)):
            if out is MeleeOutcome.PURSUIT:
                self._pursue(who)  # type: ignore[arg-type]

    def _pursue(self, who: Who) -> None:
        """6.7 — uncontrolled pursuit: at once 2d6 × 2 cm (infantry) or × 4 cm (cavalry) after
        the enemy; artillery never pursues."""
        side = self.sides[who]
        mult = side.unit.pursuit_multiplier(self.settings)
        if mult == 0:
            return
        side.pursuing = True
        self._pursuit_move(who)

    def _pursuit_move(self, who: Who) -> bool:
        """Move 2d6 × multiplier towards the enemy; True when it makes contact."""
        side = self.sides[who]
        if self.engaged:
            return True
        move = (self.rng.randint(1, 6) + self.rng.randint(1, 6)) * side.unit.pursuit_multiplier(self.settings)
        if move >= self.distance_cm:
            self.distance_cm = 0.0
            self.engaged = True
            self.melee_rounds = 0
            if self.log is not None:
                self._note(f"{'AB'[who]} pursues {move} cm: contact")
            return True
        self.distance_cm -= move
        if self.log is not None:
            self._note(f"{'AB'[who]} pursues {move} cm: {self.distance_cm:g} cm to go")
        return False

    def disengage(self, who: Who) -> None:
        """5.8, 7.6 — test (passed automatically with 7.6), move away up to R; the enemy tests
        for uncontrolled pursuit either way."""
        me, other = self.sides[who], self.sides[1 - who]
        if not me.unit.auto_disengage:
            if not self._test("disengage", morale_target(me.unit.morale, me.strength, me.initial)):
                me.broken = True
                if self.log is not None:
                    self._note(f"{'AB'[who]} fails to disengage: panic")
                self._check_end()
                return
        self._retreat(who, "disengaged, 5.8")
        if not self._test("pursuit", morale_target(other.unit.morale, other.strength, other.initial)):
            self._pursue(1 - who)  # type: ignore[arg-type]

    # --- the turn (2.2, 2.3) -------------------------------------------------------------------
    def morale_phase(self, who: Who) -> bool:
        """2.2, 6.7, 6.8 — a pursuing unit tries to reorganise (when not engaged), else moves
        and fights. Returns True when the unit may act in its movement phase."""
        me = self.sides[who]
        if not me.pursuing:
            return True
        if not self.engaged:
            t = morale_target(me.unit.morale, me.strength, me.initial)
            if self._test("reorganise", t):
                me.pursuing = False
                if self.log is not None:
                    self._note(f"{'AB'[who]} reorganises (6.8)")
                me.idle = True  # 6.8: no action this turn (so 4.12.6 may apply)
                return False
            if not self._pursuit_move(who):
                return False
        self.melee_exchange(who)
        return False

    def movement_phase(self, who: Who) -> Action | None:
        """2.3 — the unit's one action, chosen by :func:`choose_action`, carried out."""
        me = self.sides[who]
        action = choose_action(self, who)
        me.idle = False
        if action is Action.MELEE:
            self.melee_exchange(who)
        elif action is Action.DISENGAGE:
            self.disengage(who)
        elif action is Action.FIRE:
            self.fire(who)
        elif action is Action.PREPARE:
            me.prepared = True
        elif action is Action.DECLARE:
            me.declared = True
        elif action is Action.CHARGE:
            start = self.distance_cm
            if self.reaction_fire(who, 0.0, charge=True):
                self.distance_cm = 0.0
                self.engaged = True
                self.melee_rounds = 0
                if self.log is not None:
                    self._note(f"{'AB'[who]} charges {start:g} cm")
                self.melee_exchange(who, charge=True)
        elif action in (Action.ADVANCE, Action.MARCH_FIRE):
            self._advance(who, march=action is Action.MARCH_FIRE)
        return action

    def _advance(self, who: Who, *, march: bool) -> None:
        me, enemy = self.sides[who].unit, self.sides[1 - who].unit
        move = me.move_cm / 2 if march else me.move_cm
        stop = me.effective_range_cm if me.weapons else 0.0
        new = max(self.distance_cm - move, stop, ADVANCE_GAP_CM)
        reach = enemy.effective_range_cm + ADVANCE_GAP_CM
        if not me.weapons and me.melee > 0 and new < reach <= me.move_cm and reach < self.distance_cm:
            new = reach  # stop out of the enemy's range, still within charge reach next turn
        if new >= self.distance_cm:
            return
        if me.heavy:
            self.sides[who].prepared = False  # 7.3
        if self.log is not None:
            self._note(f"{'AB'[who]} {'marches' if march else 'advances'} to {new:g} cm")
        if not self.reaction_fire(who, new, charge=False):
            return
        self.distance_cm = new
        if march:
            self.fire(who, march=True)

    def turn(self, who: Who) -> None:
        """One side's turn (2.1): morale phase, then movement phase; declared fire of the
        opponent that was not triggered goes off at the end (4.12.5)."""
        me, other = self.sides[who], self.sides[1 - who]
        me.declared = False
        me.idle = False
        if self.morale_phase(who) and not self.finished:
            self.movement_phase(who)
        if not self.finished and other.declared and not self.engaged:
            other.declared = False
            if best_weapon(other.unit, self.distance_cm, me.unit) is not None:
                if self.log is not None:
                    self._note(f"{'AB'[1 - who]} fires its declared fire (4.12.5)")
                self.fire(1 - who)  # type: ignore[arg-type]

    def run(self, first: Who = 0, max_rounds: int = MAX_ROUNDS) -> DuelResult:
        """Play rounds until a side breaks or ``max_rounds`` pass (a draw)."""
        rounds = 0
        while not self.finished and rounds < max_rounds:
            rounds += 1
            for who in (first, 1 - first):
                self.turn(who)  # type: ignore[arg-type]
                self.turns += 1
                if self.finished:
                    break
        if not self.finished:
            self.reason = "no decision"
        a, b = self.sides
        return DuelResult(self.winner, rounds, a.strength, b.strength, self.reason)


@lru_cache(maxsize=65536)
def _fire_table(
    unit: DuelUnit,
    plain: int,
    elite: DuelUnit | None,
    elite_left: int,
    target: DuelUnit,
    t_strength: int,
    t_elite: DuelUnit | None,
    t_elite_left: int,
    distance: float,
    march: bool,
) -> Table[tuple[int, bool]] | None:
    """The exact table of a volley (:func:`szwadron.odds.sample.volley_table`) of ``plain``
    figures of ``unit`` and ``elite_left`` of ``elite`` at ``distance``, each with its best
    weapon (4.5, 7.1.3), at a target of ``t_strength`` figures, ``t_elite_left`` of them
    ``t_elite`` (removed last); None when nothing can fire."""
    groups: list[tuple[int, int]] = []
    for u, figures in ((unit, plain), (elite, elite_left)):
        choice = best_weapon(u, distance, target) if u is not None and figures else None
        if choice is not None:
            groups.append((choice[0].fire * figures, choice[1]))
    if not groups:
        return None
    side = Side(target, t_strength, t_strength, elite=t_elite, elite_left=t_elite_left)
    return volley_table(tuple(groups), side.wounds(), target.skirmish, march, t_strength)


@lru_cache(maxsize=65536)
def _melee_side(
    unit: DuelUnit, n: int, strength: int, initial: int, elite: DuelUnit | None, elite_left: int
) -> MeleeSide:
    """5.3 — ``n`` figures in contact of a unit of ``strength`` (``initial`` at the start), its
    ``elite_left`` figures of ``elite`` in the front rank, removed after the others (5.4.3)."""
    if elite is None or elite_left == 0:
        return MeleeSide.uniform(
            n,
            melee=unit.melee,
            skill=unit.skill,
            wounds=unit.wounds,
            morale=unit.morale,
            strength=strength,
            initial=initial,
            skirmish=unit.skirmish,
        )
    k = min(elite_left, n)
    fighters = (Fighter(unit.wounds, unit.melee, unit.skill),) * (n - k) + (
        Fighter(elite.wounds, elite.melee, elite.skill),
    ) * k
    return MeleeSide(fighters, MeleeMorale(unit.morale, strength, initial), 0, unit.skirmish)


# --- the policy ------------------------------------------------------------------------------
MeleeKey = tuple[DuelUnit, int, int, int, DuelUnit | None, int]
"""A side of a melee as :meth:`Duel._melee_key` gives it: ``(unit, figures in contact, strength,
initial strength, elite company's unit, its figures left)``."""


@lru_cache(maxsize=65536)
def _melee_score(
    attacker: MeleeKey, defender: MeleeKey, first_strike: Literal["attacker", "defender"] | None, die: str
) -> float:
    """Exact chance (5.3–5.5) that the defender leaves (repulsed, panics, destroyed) minus the
    chance the attacker does, for one exchange of the two sides with all their figures in
    contact, an elite company's too (1.1)."""
    odds = melee(_melee_side(*attacker), _melee_side(*defender), first_strike=first_strike, die=die)
    gone = (MeleeOutcome.REPULSED, MeleeOutcome.PANIC, MeleeOutcome.DESTROYED)
    score = 0.0
    total = odds.outcomes.total
    for (ao, do), w in odds.outcomes.items():
        # w / total is float(Fraction(w, total)): both are the correctly rounded quotient
        score += (w / total) * ((do in gone) - (ao in gone))
    return score


@lru_cache(maxsize=65536)
def _fire_score(
    shooter: DuelUnit,
    plain: int,
    elite: DuelUnit | None,
    elite_left: int,
    target: DuelUnit,
    t_strength: int,
    t_initial: int,
    t_elite: DuelUnit | None,
    t_elite_left: int,
    distance: float,
) -> float:
    """Exact chance (4.6, 6.3) that a volley of all the shooter's figures (its elite company's
    too, 1.1) repulses, panics or destroys the target."""
    table = _fire_table(
        shooter, plain, elite, elite_left, target, t_strength, t_elite, t_elite_left, distance, False
    )
    if table is None:
        return 0.0
    total, prev = 0.0, 0.0
    for (removed, damaged), c in zip(table.outcomes, table.cumulative, strict=True):
        p, prev = c - prev, c
        left = t_strength - removed
        if left == 0:
            total += p
        elif damaged:
            total += p * _leaves_after_fire(target.morale, left, t_initial)
    return total


@lru_cache(maxsize=4096)
def _leaves_after_fire(morale: int, strength: int, initial: int) -> float:
    """6.3 — the exact chance that the casualty test of a unit of ``strength`` (``initial`` at the
    start) after damage repulses or panics it, as a float (kept: the policy asks it of every
    outcome of every volley it weighs)."""
    test = casualty_test(morale, strength, initial)
    return float(test.repulsed + test.panic)


def melee_score(duel: Duel, who: Who, *, charge: bool) -> float:
    """The exact odds of the exchange ``who`` would attack now: P(enemy leaves) − P(it leaves)."""
    rounds = duel.melee_rounds
    if charge:
        duel.melee_rounds = 0
    try:
        mine, theirs = duel._melee_key(who), duel._melee_key(1 - who)  # type: ignore[arg-type]
        fs = duel.first_strike(who, charge=charge)
    finally:
        duel.melee_rounds = rounds
    return _melee_score(mine, theirs, fs, duel.settings.remainder_die)


def choose_action(duel: Duel, who: Who) -> Action:
    """2.3 — the policy of the duel (module notes): continue or leave a melee, fire, charge,
    declare fire, prepare, advance or fire on the march."""
    me, other = duel.sides[who], duel.sides[1 - who]
    unit, enemy = me.unit, other.unit
    d = duel.distance_cm
    if duel.engaged:
        if unit.auto_disengage and melee_score(duel, who, charge=False) < 0:
            return Action.DISENGAGE
        return Action.MELEE
    in_range = best_weapon(unit, d, enemy) is not None
    can_fire = in_range and (me.prepared or not unit.heavy)
    can_charge = not unit.is_artillery and unit.melee > 0 and d <= unit.move_cm + 1e-9
    if can_charge:
        if not can_fire:
            return Action.CHARGE
        fire = _fire_score(
            unit,
            me.plain,
            me.elite,
            me.elite_left,
            enemy,
            other.strength,
            other.initial,
            other.elite,
            other.elite_left,
            d,
        )
        if melee_score(duel, who, charge=True) > fire:
            return Action.CHARGE
    if can_fire:
        return Action.FIRE
    if in_range:
        return Action.PREPARE  # 7.3: heavy artillery after moving
    if unit.weapons and (not enemy.weapons or enemy.effective_range_cm < unit.effective_range_cm):
        return Action.DECLARE  # the enemy must come to it (4.12)
    if (
        unit.weapons
        and not unit.is_artillery
        and d - unit.move_cm / 2 <= unit.effective_range_cm
        and unit.move_cm > 0
    ):
        return Action.MARCH_FIRE  # 4.11
    return Action.ADVANCE


# --- the lean engine (issue 14): the same duel, without the per-turn objects ----------------------
_SCRATCH_RNG = random.Random(0)
_FIRE, _MELEE, _ADVANCE, _MARCH_FIRE = Action.FIRE, Action.MELEE, Action.ADVANCE, Action.MARCH_FIRE
_CHARGE, _DISENGAGE = Action.CHARGE, Action.DISENGAGE
_PANIC, _REPULSED = FireOutcome.PANIC, FireOutcome.REPULSED
_NO_FIRE = (None, None)
_UNSEEN: Any = object()  # a look-up's miss where None is an answer
_Test = tuple[int, tuple[float, ...], tuple[FireOutcome, ...]]
"""A morale test as :meth:`_Pair.test` gives it: ``(target, cumulative chances, outcomes)``."""


class _Pair:
    """What a duel between two kinds of unit (each with its elite company, if any) looks up
    turn after turn, computed once by the rules' own functions (:func:`choose_action`,
    :func:`_fire_table`, :meth:`Duel.first_strike`, :meth:`Duel._melee_side`, ...) and kept:
    the policy's choices, the volley tables, the morale targets, the melee exchanges."""

    __slots__ = (
        "advance",
        "auto",
        "by_weapons",
        "charge",
        "charge_by_weapons",
        "elites",
        "fire",
        "heavy",
        "leave",
        "melee",
        "morale",
        "morale_by",
        "move",
        "mult",
        "reach",
        "static",
        "units",
        "weapons",
    )

    def __init__(self, a: DuelUnit, ea: DuelUnit | None, b: DuelUnit, eb: DuelUnit | None) -> None:
        self.units = (a, b)
        self.elites = (ea, eb)
        self.static: dict[tuple[int, float, bool], tuple[bool, bool, Action]] = {}
        self.charge: dict[tuple[int, float, int, int, int, int, int, int], bool] = {}
        self.leave: dict[tuple[int, int, int, int, int, int, int, int], bool] = {}
        self.fire: dict[tuple[int, int, int, int, int, float, bool], tuple[Any, Any]] = {}
        self.morale: dict[tuple[int, int, int], tuple[int, tuple[float, ...], tuple[FireOutcome, ...]]] = {}
        #: :attr:`morale` by side, initial strength and strength (the lean engine's look-up, :meth:`tests`)
        self.morale_by: tuple[dict[int, dict[int, _Test]], dict[int, dict[int, _Test]]] = ({}, {})
        self.melee: dict[
            tuple[int, bool, int, int, int, int, int, int, int], tuple[MeleePlan, tuple[int, int]]
        ] = {}
        self.reach: dict[tuple[int, float], bool] = {}
        self.weapons: dict[tuple[int, float], tuple[tuple[int, int] | None, ...]] = {}
        self.by_weapons: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self.charge_by_weapons: dict[tuple[Any, ...], bool] = {}
        self.advance: dict[tuple[int, float, bool], float | None] = {}
        self.mult = (a.pursuit_multiplier(), b.pursuit_multiplier())
        self.auto = (a.auto_disengage, b.auto_disengage)
        self.move = (a.move_cm, b.move_cm)
        self.heavy = (a.heavy and a.move_cm > 0, b.heavy and b.move_cm > 0)

    def scratch(
        self,
        initial: Sequence[int],
        strength: Sequence[int],
        elite_left: Sequence[int],
        distance: float,
        **kw: Any,
    ) -> Duel:
        """A :class:`Duel` in the given state, for the rules' functions to read (never run)."""
        sides = tuple(
            Side(self.units[w], initial[w], strength[w], elite=self.elites[w], elite_left=elite_left[w])
            for w in (0, 1)
        )
        return Duel(sides, _SCRATCH_RNG, distance_cm=distance, **kw)  # type: ignore[arg-type]

    def static_choice(self, who: int, d: float, prepared: bool) -> tuple[bool, bool, Action]:
        """The part of :func:`choose_action` out of melee that does not read the odds:
        ``(can charge, can fire, the action when it does not charge)``."""
        key = (who, d, prepared)
        hit = self.static.get(key)
        if hit is None:
            unit, enemy = self.units[who], self.units[1 - who]
            in_range = best_weapon(unit, d, enemy) is not None
            can_fire = in_range and (prepared or not unit.heavy)
            can_charge = not unit.is_artillery and unit.melee > 0 and d <= unit.move_cm + 1e-9
            if can_fire:
                rest = Action.FIRE
            elif in_range:
                rest = Action.PREPARE
            elif unit.weapons and (not enemy.weapons or enemy.effective_range_cm < unit.effective_range_cm):
                rest = Action.DECLARE
            elif (
                unit.weapons
                and not unit.is_artillery
                and d - unit.move_cm / 2 <= unit.effective_range_cm
                and unit.move_cm > 0
            ):
                rest = Action.MARCH_FIRE
            else:
                rest = Action.ADVANCE
            hit = self.static[key] = (can_charge, can_fire, rest)
        return hit

    def volley(
        self, shooter: int, s: list[int], el: list[int], distance: float, march: bool
    ) -> tuple[Any, Any]:
        """``(cumulative, outcomes)`` of :func:`_fire_table` for the state; ``(None, None)``
        when nothing can fire."""
        o = 1 - shooter
        key = (shooter, s[shooter], el[shooter], s[o], el[o], distance, march)
        hit = self.fire.get(key)
        if hit is None:  # _fire_table, with the weapons chosen once per distance
            weapons = self.weapons_at(shooter, distance)
            target = self.units[o]
            # the table depends on the distance only through the weapons it chooses (4.5, 4.5.4)
            key2 = (shooter, weapons, s[shooter], el[shooter], s[o], el[o], march)
            hit = self.by_weapons.get(key2)
            if hit is None:
                groups = [
                    (w[0] * n, w[1])
                    for w, n in zip(weapons, (s[shooter] - el[shooter], el[shooter]), strict=True)
                    if w is not None and n
                ]
                t = None
                if groups:
                    t_elite, t_left = self.elites[o], el[o]
                    # Side.wounds: against fire, cover included (4.10.3); the elite removed last
                    wounds: int | tuple[int, ...] = target.fire_wounds
                    if t_elite is not None and t_left and t_elite.wounds != target.wounds:
                        wounds = (target.fire_wounds,) * (s[o] - t_left) + (
                            t_elite.wounds + target.cover,
                        ) * t_left
                    t = volley_table(tuple(groups), wounds, target.skirmish, march, s[o])
                hit = self.by_weapons[key2] = _NO_FIRE if t is None else (t.cumulative, t.outcomes)
            self.fire[key] = hit
        return hit

    def weapons_at(self, shooter: int, distance: float) -> tuple[tuple[int, int] | None, ...]:
        """``(SO, modified C)`` of the best weapon (:func:`best_weapon`: 4.5, 4.5.4, 7.1.3) of the
        shooter's own figures and of its elite company at ``distance`` (None: none reaches)."""
        key = (shooter, distance)
        hit = self.weapons.get(key)
        if hit is None:
            target = self.units[1 - shooter]
            hit = self.weapons[key] = tuple(
                None if u is None or (c := best_weapon(u, distance, target)) is None else (c[0].fire, c[1])
                for u in (self.units[shooter], self.elites[shooter])
            )
        return hit

    def charges(self, who: int, d: float, initial: tuple[int, int], s: list[int], el: list[int]) -> bool:
        """:func:`choose_action` of a unit that can both fire and charge (out of melee): do the
        charge's exact odds beat the volley's? The volley's odds depend on the distance only
        through the weapons it chooses, so the answer is kept by those."""
        key = (who, self.weapons_at(who, d), s[0], el[0], s[1], el[1], initial[0], initial[1])
        hit = self.charge_by_weapons.get(key)
        if hit is None:
            duel = self.scratch(initial, s, el, d)
            hit = self.charge_by_weapons[key] = choose_action(duel, who) is _CHARGE  # type: ignore[arg-type]
        return hit

    def test(
        self, who: int, strength: int, initial: int
    ) -> tuple[int, tuple[float, ...], tuple[FireOutcome, ...]]:
        """The morale target (6.2) of ``who`` and its casualty test's table (6.3)."""
        key = (who, strength, initial)
        hit = self.morale.get(key)
        if hit is None:
            t = morale_target(self.units[who].morale, strength, initial)
            table = casualty_table(t)
            hit = self.morale[key] = (t, table.cumulative, table.outcomes)
        return hit

    def tests(self, who: int, initial: int) -> dict[int, _Test]:
        """:meth:`test` of ``who`` at ``initial`` strength, by strength, as far as looked up (the
        lean engine fills it: one look-up by an int where :attr:`morale` needs a tuple)."""
        by_initial = self.morale_by[who]
        hit = by_initial.get(initial)
        if hit is None:
            hit = by_initial[initial] = {}
        return hit

    def in_range(self, who: int, d: float) -> bool:
        """:func:`best_weapon` of ``who`` reaches the other side at ``d``."""
        key = (who, d)
        hit = self.reach.get(key)
        if hit is None:
            hit = self.reach[key] = best_weapon(self.units[who], d, self.units[1 - who]) is not None
        return hit

    def advance_to(self, who: int, d: float, march: bool) -> float | None:
        """Where :meth:`Duel._advance` takes ``who`` from ``d`` (None: it stays)."""
        key = (who, d, march)
        if key in self.advance:
            return self.advance[key]
        me, enemy = self.units[who], self.units[1 - who]
        move = me.move_cm / 2 if march else me.move_cm
        stop = me.effective_range_cm if me.weapons else 0.0
        new = max(d - move, stop, ADVANCE_GAP_CM)
        reach = enemy.effective_range_cm + ADVANCE_GAP_CM
        if not me.weapons and me.melee > 0 and new < reach <= me.move_cm and reach < d:
            new = reach
        out = None if new >= d else new
        self.advance[key] = out
        return out


_PAIRS: dict[tuple[int, int, int, int], _Pair] = {}
#: The unit objects of each key of :data:`_PAIRS` (kept, so that their ids are not reused).
_PAIR_UNITS: dict[tuple[int, int, int, int], tuple[DuelUnit | None, ...]] = {}
#: The pairs by their units without a name (:func:`_nameless`): what :data:`_PAIRS` points to.
_NAMELESS_PAIRS: dict[tuple[DuelUnit | None, ...], _Pair] = {}
#: The lean engine forgets its looked-up pairs beyond this many (memory stays bounded).
_MAX_PAIRS = 4096


def _nameless(unit: DuelUnit | None) -> DuelUnit | None:
    """``unit`` without its name (``key``, the profile's id), interned: nothing a duel does reads
    the name, so profiles of several lists with the same characteristics play from one pair's
    tables (issue 14)."""
    if unit is None or not unit.key:
        return unit
    bare = replace(unit, key="")
    return _INTERNED.setdefault(bare, bare)


def _pair(a: DuelUnit, ea: DuelUnit | None, b: DuelUnit, eb: DuelUnit | None) -> _Pair:
    """The looked-up pair of these unit objects, by identity (the units are kept with the key,
    so their ids are not reused while it is cached; units from profiles are interned). Units
    that differ only in name share one pair (:func:`_nameless`)."""
    key = (id(a), id(ea), id(b), id(eb))
    hit = _PAIRS.get(key)
    if hit is None:
        if len(_PAIRS) >= _MAX_PAIRS:
            _PAIRS.clear()
            _PAIR_UNITS.clear()
            _NAMELESS_PAIRS.clear()
        bare = (_nameless(a), _nameless(ea), _nameless(b), _nameless(eb))
        hit = _NAMELESS_PAIRS.get(bare)
        if hit is None:
            hit = _NAMELESS_PAIRS[bare] = _Pair(*bare)  # type: ignore[arg-type]
        _PAIRS[key] = hit
        _PAIR_UNITS[key] = (a, ea, b, eb)
    return hit


#: The lean engine's reasons for a decision (Duel._check_end's), by loser and "destroyed".
_LEAN_REASONS = (("A panicked", "A destroyed"), ("B panicked", "B destroyed"))

LeanResult = tuple[Who | None, int, list[int], list[int], float, str, int]
"""``(winner, rounds, strengths, elite figures left, final distance, reason, turns played)``
(:attr:`Duel.turns`)."""


# long: Duel.run in one function on local variables (equality tested: tests/test_lean_duel.py).
def _lean_engine() -> Callable[
    [_Pair, tuple[int, int], tuple[int, int], tuple[int, int], random.Random, float, Who, int, bool],
    LeanResult,
]:
    """:meth:`Duel.run` of the exact sampler without a log (module notes; 2.1–2.3, 4.5–4.12,
    5.3–5.8, 6.2–6.8, 7.1–7.7), played on local variables with every table and policy choice
    looked up in the duel's :class:`_Pair`: the same draws from the same tables in the same
    order, so the same seed gives the same duel, turn by turn, as :class:`Duel` with
    ``exact=True``. The engine's state and helpers are made once (a thread's engine plays its
    duels one after another) and reset by ``run`` for each duel."""
    s = [0, 0]
    el = [0, 0]
    broken = [False, False]
    pursuing = [False, False]
    prepared = [True, True]
    declared = [False, False]
    idle = [False, False]
    d = 0.0
    engaged = False
    mr = 0
    finished = False
    # set by run() for each duel:
    pair: _Pair
    ini: tuple[int, int]
    rng: random.Random
    random_: Callable[[], float]
    units: tuple[DuelUnit, DuelUnit]
    fire_memo: dict[tuple[int, int, int, int, int, float, bool], tuple[Any, Any]]
    tests: tuple[dict[int, _Test], dict[int, _Test]]
    reach: dict[tuple[int, float], bool]
    static_memo: dict[tuple[int, float, bool], tuple[bool, bool, Action]]
    auto: tuple[bool, bool]

    def check_end() -> bool:  # Duel._check_end (who won is read at the end)
        nonlocal finished
        if broken[0] or broken[1] or not s[0] or not s[1]:
            finished = True
        return finished

    def retreat(who: int) -> None:  # Duel._retreat: 4.8.2, 5.5.6, 6.5
        nonlocal d, engaged, mr
        d += pair.move[who]
        engaged = False
        mr = 0
        pursuing[who] = False
        if pair.heavy[who]:
            prepared[who] = False  # 7.3

    def fire(shooter: int, distance: float, march: bool) -> bool:  # Duel.fire, Duel._after_fire
        nonlocal finished
        sh = s[shooter]
        if sh == 0:
            return False
        o = 1 - shooter
        so, eo = s[o], el[o]
        hit = fire_memo.get((shooter, sh, el[shooter], so, eo, distance, march))
        cum, outcomes = pair.volley(shooter, s, el, distance, march) if hit is None else hit
        if cum is None:
            return False
        removed, damaged = outcomes[bisect_right(cum, random_())]
        if removed:  # Side.lose: the unit's own figures first (4.7)
            over = removed - (so - eo)
            so -= removed
            if over > 0:
                eo = eo - over if eo > over else 0
            s[o], el[o] = so, eo if eo < so else so
        if damaged and so > 0:  # 4.8.1, 6.3
            t = tests[o].get(so)
            if t is None:
                t = tests[o][so] = pair.test(o, so, ini[o])
            _, tcum, touts = t
            outcome = touts[bisect_right(tcum, random_())]
            if outcome is _PANIC:
                broken[o] = True
            elif outcome is _REPULSED:
                retreat(o)
        # check_end, inline: only the side fired at changed (the shooter has figures, and a
        # broken side would have ended the duel before it fired)
        if so == 0 or broken[o]:
            finished = True
        return True

    def reaction_fire(mover: int, at: float, charge: bool) -> bool:  # Duel.reaction_fire, 4.12
        nonlocal d
        o = 1 - mover
        if broken[o] or s[o] == 0 or engaged or pursuing[o]:
            return True
        if not (declared[o] or (charge and idle[o])):
            return True
        hit = reach.get((o, at))
        if not (pair.in_range(o, at) if hit is None else hit):
            return True
        declared[o] = False
        idle[o] = False
        before = d
        d = at
        fire(o, at, False)
        repulsed = d != at
        if not repulsed:
            d = before
        return not (finished or repulsed)

    def lose(who: int, removed: int, exposed: int) -> None:  # Side.lose with plain_exposed
        if not el[who]:  # no elite figures: the rest is max(0, 0 - ...) = 0
            s[who] -= removed
            return
        first_ = min(exposed, s[who] - el[who])
        e = max(0, el[who] - max(0, removed - first_))
        s[who] -= removed
        el[who] = min(e, s[who])

    def pursuit_move(who: int) -> bool:  # Duel._pursuit_move, 6.7
        nonlocal d, engaged, mr
        if engaged:
            return True
        move = (rng.randint(1, 6) + rng.randint(1, 6)) * pair.mult[who]
        if move >= d:
            d = 0.0
            engaged = True
            mr = 0
            return True
        d -= move
        return False

    def pursue(who: int) -> None:  # Duel._pursue
        if pair.mult[who] == 0:
            return
        pursuing[who] = True
        pursuit_move(who)

    def melee_exchange(attacker: int, charge: bool) -> None:  # Duel.melee_exchange, 5.3–5.5
        nonlocal mr
        o = 1 - attacker
        mr1 = 1 if mr >= 1 else 0
        key = (attacker, charge, mr1, s[0], el[0], s[1], el[1], ini[0], ini[1])
        hit = pair.melee.get(key)
        if hit is None:  # Duel._melee_side, Duel.first_strike, Duel._plain_in_contact
            ua, uo, ea, eo = units[attacker], units[o], pair.elites[attacker], pair.elites[o]
            na = _fighters(ua, s[attacker], uo, s[o], mr1 == 1)
            no = _fighters(uo, s[o], ua, s[attacker], mr1 == 1)
            hit = pair.melee[key] = (
                melee_plan(
                    _melee_side(ua, na, s[attacker], ini[attacker], ea, el[attacker]),
                    _melee_side(uo, no, s[o], ini[o], eo, el[o]),
                    _first_strike(ua, uo, charge, mr1 == 0),
                    DEFAULT_SETTINGS.remainder_die,
                ),
                (na - min(el[attacker], na), no - min(el[o], no)),
            )
        plan, exposed = hit
        a_removed, d_removed, a_out, d_out = plan.draw(rng)
        lose(attacker, a_removed, exposed[0])
        lose(o, d_removed, exposed[1])
        mr += 1
        if a_out is MeleeOutcome.PANIC:
            broken[attacker] = True
        if d_out is MeleeOutcome.PANIC:
            broken[o] = True
        if check_end():
            return
        if d_out is MeleeOutcome.REPULSED:  # the defender moves first
            retreat(o)
        if a_out is MeleeOutcome.REPULSED:
            retreat(attacker)
        if a_out is MeleeOutcome.PURSUIT:
            pursue(attacker)
        if d_out is MeleeOutcome.PURSUIT:
            pursue(o)

    def disengage(who: int) -> None:  # Duel.disengage, 5.8, 7.6
        o = 1 - who
        if not pair.auto[who]:
            if not random_() * 6 < pair.test(who, s[who], ini[who])[0]:
                broken[who] = True
                check_end()
                return
        retreat(who)
        if not random_() * 6 < pair.test(o, s[o], ini[o])[0]:
            pursue(o)

    # long: the turns of Duel.run (2.1–2.3): morale phase, movement phase, declared fire.
    def run(
        pair_: _Pair,
        initial: tuple[int, int],
        strength: tuple[int, int],
        elite_left: tuple[int, int],
        rng_: random.Random,
        distance_cm: float,
        first: Who,
        max_rounds: int,
        waited: bool,
    ) -> LeanResult:
        nonlocal pair, ini, rng, random_, units, fire_memo, tests, reach, static_memo, auto
        nonlocal d, engaged, mr, finished
        pair, ini, rng, random_ = pair_, initial, rng_, rng_.random
        units, fire_memo, reach, static_memo, auto = pair.units, pair.fire, pair.reach, pair.static, pair.auto
        by0, by1 = pair.morale_by  # a known initial strength's tests without a call
        tests = (
            by0.get(initial[0]) or pair.tests(0, initial[0]),
            by1.get(initial[1]) or pair.tests(1, initial[1]),
        )
        s[0], s[1] = strength
        el[0], el[1] = elite_left
        broken[0] = broken[1] = pursuing[0] = pursuing[1] = False
        declared[0] = declared[1] = idle[0] = idle[1] = False
        idle[1 - first] = waited  # 4.12.6: it stood without acting in its side's last turn
        prepared[0] = prepared[1] = True
        d, engaged, mr, finished = distance_cm, False, 0, False
        rounds = 0
        who: int = first
        order = (first, 1 - first)
        while not finished and rounds < max_rounds:
            rounds += 1
            for who in order:
                o = 1 - who
                declared[who] = False
                idle[who] = False
                # Duel.morale_phase: 2.2, 6.7, 6.8
                act = True
                if pursuing[who]:
                    act = False
                    if not engaged:
                        if random_() * 6 < pair.test(who, s[who], ini[who])[0]:  # 6.8: reorganised
                            pursuing[who] = False
                            idle[who] = True
                        elif pursuit_move(who):
                            melee_exchange(who, False)
                    else:
                        melee_exchange(who, False)
                # Duel.movement_phase: 2.3, the action of choose_action (idle[who] is False:
                # set at the turn's start, and only a unit that did not act reorganised)
                if act and not finished:
                    if engaged:
                        action = _MELEE
                        if auto[who]:  # 7.6: leaves when the odds of the next exchange are against it
                            mr1 = 1 if mr >= 1 else 0
                            key = (who, mr1, s[0], el[0], s[1], el[1], ini[0], ini[1])
                            leave = pair.leave.get(key)
                            if leave is None:
                                duel = pair.scratch(ini, s, el, 0.0, engaged=True, melee_rounds=mr1)
                                leave = pair.leave[key] = choose_action(duel, who) is _DISENGAGE  # type: ignore[arg-type]
                            if leave:
                                action = _DISENGAGE
                    else:
                        st = static_memo.get((who, d, prepared[who]))
                        can_charge, can_fire, action = (
                            pair.static_choice(who, d, prepared[who]) if st is None else st
                        )
                        if can_charge:
                            if not can_fire:
                                action = _CHARGE
                            else:  # the exact odds: charge when they beat the volley's
                                ckey = (who, d, s[0], el[0], s[1], el[1], ini[0], ini[1])
                                charge = pair.charge.get(ckey)
                                if charge is None:
                                    charge = pair.charge[ckey] = pair.charges(who, d, ini, s, el)
                                if charge:
                                    action = _CHARGE
                    if action is _FIRE:
                        fire(who, d, False)
                    elif action is _MELEE:
                        melee_exchange(who, False)
                    elif action is _ADVANCE or action is _MARCH_FIRE:
                        march = action is _MARCH_FIRE
                        new = pair.advance.get((who, d, march), _UNSEEN)
                        if new is _UNSEEN:
                            new = pair.advance_to(who, d, march)
                        if new is not None:
                            if units[who].heavy:
                                prepared[who] = False  # 7.3: it moved
                            if not declared[o] or reaction_fire(who, new, False):  # undeclared: no fire
                                d = new
                                if march:
                                    fire(who, d, True)
                    elif action is _CHARGE:
                        if not (declared[o] or idle[o]) or reaction_fire(who, 0.0, True):
                            d = 0.0
                            engaged = True
                            mr = 0
                            melee_exchange(who, True)
                    elif action is _DISENGAGE:
                        disengage(who)
                    elif action is Action.PREPARE:
                        prepared[who] = True
                    elif action is Action.DECLARE:
                        declared[who] = True
                # Duel.turn: declared fire not triggered goes off at the end (4.12.5)
                if not finished and declared[o] and not engaged:
                    declared[o] = False
                    hit = reach.get((o, d))
                    if pair.in_range(o, d) if hit is None else hit:
                        fire(o, d, False)
                if finished:
                    break
        winner: Who | None = None
        reason = "no decision"
        if finished:  # Duel._check_end
            a_out, b_out = broken[0] or s[0] == 0, broken[1] or s[1] == 0
            if a_out and b_out:
                reason = "both broke"
            else:
                loser = 0 if a_out else 1
                winner = 1 - loser  # type: ignore[assignment]
                reason = _LEAN_REASONS[loser][s[loser] == 0]
        turns = 2 * rounds - (1 if finished and who == first else 0)  # Duel.turns
        return winner, rounds, [s[0], s[1]], [el[0], el[1]], d, reason, turns

    return run


_ENGINES = threading.local()


def _engine() -> Callable[
    [_Pair, tuple[int, int], tuple[int, int], tuple[int, int], random.Random, float, Who, int, bool],
    LeanResult,
]:
    """This thread's lean engine (:func:`_lean_engine`; dask may run tasks in threads)."""
    run = getattr(_ENGINES, "run", None)
    if run is None:
        run = _ENGINES.run = _lean_engine()
    return run


def _lean_duel(
    pair: _Pair,
    initial: tuple[int, int],
    strength: tuple[int, int],
    elite_left: tuple[int, int],
    rng: random.Random,
    distance_cm: float,
    first: Who,
    max_rounds: int,
    waited: bool = False,
) -> LeanResult:
    """One duel on this thread's lean engine (:func:`_lean_engine`) from the given state;
    ``waited``: the side moving second stood without acting in its last turn (4.12.6)."""
    return _engine()(pair, initial, strength, elite_left, rng, distance_cm, first, max_rounds, waited)


def run_duel(
    unit_a: DuelUnit,
    figures_a: int,
    unit_b: DuelUnit,
    figures_b: int,
    *,
    seed: int | str,
    first: int = 0,
    distance_cm: float = START_DISTANCE_CM,
    max_rounds: int = MAX_ROUNDS,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> DuelResult:
    """One seeded duel from the standard set-up (module notes); the same seed gives the same
    duel on any machine (``random.Random`` seeded with a string hashes it with SHA-512).
    ``first`` is the side that moves first, 0 (A) or 1 (B)."""
    if first not in (0, 1):
        raise InvalidDataError(f"first must be 0 (side A) or 1 (side B), got {first!r}")
    duel = Duel.start(
        unit_a,
        figures_a,
        unit_b,
        figures_b,
        random.Random(str(seed)),
        distance_cm=distance_cm,
        sampler=sampler,
    )
    if duel.exact:  # the lean engine: the same duel, faster (issue 14)
        winner, rounds, s, _, _, reason, _ = _lean_duel(
            _pair(unit_a, None, unit_b, None),
            (figures_a, figures_b),
            (figures_a, figures_b),
            (0, 0),
            duel.rng,
            distance_cm,
            1 if first else 0,
            max_rounds,
        )
        return DuelResult(winner, rounds, s[0], s[1], reason)
    return duel.run(1 if first else 0, max_rounds)


# --- battles: equal points spent as several units of a standard size ---------------------------
#: Figures of a standard unit, by kind (the example rosters' sizes: battalions of 12, skirmish
#: companies and cavalry regiments of 6, batteries of one gun).
STANDARD_UNIT_FIGURES: dict[Kind, int] = {
    Kind.INFANTRY: 12,
    Kind.CAVALRY: 6,
    Kind.FOOT_ARTILLERY: 1,
    Kind.HORSE_ARTILLERY: 1,
}
#: Skirmishers (7.5) are fielded in smaller units.
STANDARD_SKIRMISH_FIGURES = 6


#: The units of the last list of profile dicts :func:`plain_units` was given, with that list.
_PLAIN_UNITS: tuple[Sequence[dict[str, Any]], list[DuelUnit]] = ((), [])


def plain_units(profiles: Sequence[dict[str, Any]]) -> list[DuelUnit]:
    """``DuelUnit.from_profile`` of each profile dict (``Profile.model_dump(mode="json")``): the
    units a task of simulations plays with (issue 14). A run sends the same list object with
    every chunk it plays in this process, so the last list's units are kept (with the list, so
    its id is not reused) and not validated again for every chunk; the units are interned, so
    they are the very objects a fresh validation would give. Lists are compared by identity
    and length: a task must not change its profiles in place.

    >>> line = {"id": "line", "name": "Line", "kind": "infantry", "R": 12, "W": 2, "SW": 1,
    ...         "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> docs = [Profile.model_validate(line).model_dump(mode="json")]
    >>> plain_units(docs) is plain_units(docs), plain_units(docs)[0].key
    (True, 'line')
    """
    global _PLAIN_UNITS
    kept, units = _PLAIN_UNITS
    if kept is not profiles or len(units) != len(profiles):
        units = [DuelUnit.from_profile(Profile.model_validate(p)) for p in profiles]
        _PLAIN_UNITS = (profiles, units)  # one assignment: threads see the old pair or the new
    return units


def standard_unit_figures(unit: DuelUnit) -> int:
    """Figures of one standard unit of ``unit``'s kind (skirmishers: :data:`STANDARD_SKIRMISH_FIGURES`).

    >>> standard_unit_figures(DuelUnit("gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4, ()))
    1
    """
    if unit.skirmish:
        return STANDARD_SKIRMISH_FIGURES
    return STANDARD_UNIT_FIGURES.get(unit.kind, 12)


@lru_cache(maxsize=4096, typed=True)  # a pure function the duel battles ask hundreds of thousands of times
def split_units(figures: int, size: int) -> tuple[int, ...]:
    """``figures`` fielded as units of about ``size``: ``round(figures / size)`` units (at least
    one), as equal as whole figures allow, the larger first.

    >>> split_units(80, 12), split_units(12, 12), split_units(5, 12), split_units(2, 1)
    ((12, 12, 12, 11, 11, 11, 11), (12,), (5,), (1, 1))
    """
    if figures < 1 or size < 1:
        raise InvalidDataError(
            f"a force needs at least one figure and units of at least one, got {figures!r}, {size!r}"
        )
    k = max(1, min(figures, round(figures / size)))
    q, r = divmod(figures, k)
    return tuple(q + 1 if i < r else q for i in range(k))


# --- flight and rally in battles (6.6, 6.8; issue 14) ------------------------------------------
#: Flight and rally in battles (:func:`run_army_battle`'s ``flight``): off until the points are
#: fitted with it, so every seeded result and the stored points stay as they are (issue 14).
BATTLE_FLIGHT = False
#: The depth of the table a battle's flight runs on: the design's 180 × 120 cm table, the two
#: fronts centred on it, so a unit whose duel ended ``end`` cm from its enemy has
#: ``(TABLE_DEPTH_CM - end) / 2`` cm behind it to its own edge.
TABLE_DEPTH_CM = 120.0
#: With flight, rallied units come back: a battle still undecided when the lines have been
#: formed this many times is a draw (without flight every round puts a unit out, so it never is).
MAX_BATTLE_ROUNDS = 200
#: Distances within this of a limit count as at it (10 cm from the enemy, the table edge).
_FLIGHT_EPS = 1e-9

FlightStep = Literal["rallied", "fleeing", "left"]
"""What a fleeing unit's morale phase ended with: reorganised (6.8.4), still fleeing, or off the
table with flight left (6.6.13)."""


def battle_flight_multiplier(kind: Kind, move_cm: float, settings: RulesSettings = DEFAULT_SETTINGS) -> int:
    """6.6.2 — a panicking unit flees 2d6 × this many cm: infantry 2, cavalry 4, foot artillery 1
    (only if its R > 0: with R 0 it does not flee, 0), horse artillery 3 (a limber as horse
    artillery, as at the table). Unlike pursuit (6.7), artillery flees.

    >>> [battle_flight_multiplier(k, 10) for k in (Kind.INFANTRY, Kind.CAVALRY, Kind.FOOT_ARTILLERY,
    ...     Kind.HORSE_ARTILLERY)], battle_flight_multiplier(Kind.FOOT_ARTILLERY, 0)
    ([2, 4, 1, 3], 0)
    """
    if kind is Kind.FOOT_ARTILLERY and move_cm <= 0:
        return 0
    return settings.flight_multiplier(kind)


@dataclass
class BattleFlight:
    """A panicking unit of a battle on its way to its own table edge (6.6) on the battle's line of
    distance: it broke ``gap_cm`` from its duel's enemy, with ``room_cm`` behind it to its edge,
    and has fled ``fled_cm`` so far, straight back (open ground: nothing blocks it, so it never
    surrenders, 6.6.12). ``target`` is its reorganisation test (6.2: M with the casualty modifier
    from its starting strength); a fleeing unit takes no test for losses (6.6.14) and nobody
    fires at it, so the target stays.

    >>> f = BattleFlight(multiplier=2, gap_cm=0.0, room_cm=30.0, target=4)
    >>> f.may_rally, BattleFlight(2, 12.0, 30.0, 4).may_rally   # 6.8.2: no enemy within 10 cm
    (False, True)
    """

    multiplier: int
    gap_cm: float
    room_cm: float
    target: int
    fled_cm: float = 0.0

    @classmethod
    def after_duel(
        cls,
        unit: DuelUnit,
        strength: int,
        initial: int,
        end_cm: float,
        *,
        table_depth_cm: float = TABLE_DEPTH_CM,
        settings: RulesSettings = DEFAULT_SETTINGS,
    ) -> BattleFlight:
        """The flight of ``unit`` (``strength`` of ``initial`` figures left) that panicked in a
        duel that ended ``end_cm`` from its enemy, before its immediate flight (6.6.2)."""
        return cls(
            battle_flight_multiplier(unit.kind, unit.move_cm, settings),
            end_cm,
            max(0.0, (table_depth_cm - end_cm) / 2),
            morale_target(unit.morale, strength, initial),
        )

    @property
    def enemy_cm(self) -> float:
        """How far it is from where its duel's enemy stood."""
        return self.gap_cm + self.fled_cm

    @property
    def may_rally(self) -> bool:
        """6.8.2 — it may try to reorganise: no enemy within 10 cm ("do 10 cm": 10 cm is within)."""
        return self.enemy_cm > DEFAULT_SETTINGS.reorganise_enemy_cm + _FLIGHT_EPS

    def flee(self, rng: random.Random) -> bool:
        """6.6.2 (at once) or 6.6.7 (in the morale phase) — flee 2d6 × the multiplier towards its
        own edge; False when it reaches the edge with flight left: removed (6.6.13)."""
        if self.multiplier:
            self.fled_cm += (rng.randint(1, 6) + rng.randint(1, 6)) * self.multiplier
        return self.fled_cm <= self.room_cm + _FLIGHT_EPS

    def morale_phase(self, rng: random.Random, sampler: Sampler = DEFAULT_SAMPLER) -> FlightStep:
        """6.8.1 — its morale phase: a reorganisation test when it may (6.8.2, 6.8.4; the test of
        the duels' sampler), and when it does not rally, its flight (6.6.7, 6.6.13)."""
        if self.may_rally:
            if _exact(sampler):
                passed = test_passes(self.target, rng)
            else:
                passed = roll_test("reorganise", self.target, rng).passed
            if passed:
                return "rallied"
        return "fleeing" if self.flee(rng) else "left"


def rally_chance(multiplier: int, room_cm: float, gap_cm: float, target: int) -> Fraction:
    """6.6, 6.8 — the exact chance that a unit that has just panicked ``gap_cm`` from its enemy,
    with ``room_cm`` to its own edge, reorganises before it runs off the table: it flees at once
    (2d6 × ``multiplier`` cm), then each morale phase tests (pass on ``target`` of 6, 6.2) when
    no enemy is within 10 cm (6.8.2) and flees again when it does not rally; flight past the edge
    removes it (6.6.13). A dynamic programme over the distance fled (:class:`BattleFlight` plays it).

    >>> rally_chance(2, 30.0, 0.0, 6)   # passes every test it takes; lost only if never 10 cm away
    Fraction(46103, 46656)
    >>> rally_chance(4, 0.0, 0.0, 6), rally_chance(0, 30.0, 20.0, 3), rally_chance(0, 30.0, 5.0, 3)
    (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1))
    """
    if not isinstance(multiplier, int) or multiplier < 0 or room_cm < 0 or gap_cm < 0:
        raise InvalidDataError(
            f"rally_chance needs a multiplier ≥ 0 and distances ≥ 0, got {multiplier!r}, {room_cm!r}, {gap_cm!r}"
        )
    p = Fraction(clamp(target, 0, MORALE_DIE_SIDES), MORALE_DIE_SIDES)
    limit = DEFAULT_SETTINGS.reorganise_enemy_cm + _FLIGHT_EPS
    if multiplier == 0:  # it never moves: it rallies if it may test and can pass
        return Fraction(1) if gap_cm > limit and p > 0 else Fraction(0)

    @cache
    def after_flight(fled: int) -> Fraction:
        """The chance to rally from a flight that starts ``fled`` cm from where it broke."""
        total = Fraction(0)
        for pips in range(2, 13):
            moved = fled + pips * multiplier
            if moved <= room_cm + _FLIGHT_EPS:
                tested = p if gap_cm + moved > limit else Fraction(0)
                total += Fraction(6 - abs(pips - 7), 36) * (tested + (1 - tested) * after_flight(moved))
        return total

    return after_flight(0)


@dataclass(frozen=True)
class BattleResult:
    """How a battle of several units a side ended (:func:`run_battle`).

    ``winner`` is 0, 1 or None (a draw); ``units_a``/``units_b`` are the units each side still
    had in the fight; ``duels`` the unit-against-unit fights played."""

    winner: Who | None
    duels: int
    rounds: int
    units_a: int
    units_b: int
    rallied: int = 0
    """Units that reorganised after panicking and came back to their line (6.8; with flight)."""
    left_table: int = 0
    """Panicking units that ran off the table (6.6.13; with flight)."""

    @property
    def score_a(self) -> float:
        """Side A's score: 1 win, 0.5 draw, 0 loss."""
        return 0.5 if self.winner is None else (1.0 if self.winner == 0 else 0.0)


def run_battle(
    unit_a: DuelUnit,
    sizes_a: tuple[int, ...],
    unit_b: DuelUnit,
    sizes_b: tuple[int, ...],
    *,
    seed: int | str,
    first: int = 0,
    distance_cm: float = START_DISTANCE_CM,
    max_rounds: int = MAX_ROUNDS,
    sampler: Sampler = DEFAULT_SAMPLER,
    flight: bool = BATTLE_FLIGHT,
) -> BattleResult:
    """Equal points spent as several units a side (``sizes_a``, ``sizes_b``: figures of each);
    a side loses when all its units are broken or destroyed.

    The battle is a series of duels (:class:`Duel`): each side's units still in the fight are
    lined up strongest first (figures left, then order), and the first ``min(k_A, k_B)`` of each
    line fight in pairs; the side with more units keeps the rest in reserve. A unit that wins
    its duel stays in the fight with the figures it has left (its casualty modifiers, 6.2, count
    from its starting strength); the loser is out; both are out when both break at once or their
    duel ends undecided. Then the lines are formed again. The first pairs start from the
    standard set-up (``distance_cm`` apart); reserves follow their front line, so later pairs
    start where the previous ones ended (the largest of their final distances, at least
    :data:`ADVANCE_GAP_CM`): a fresh unit does not cross the whole approach under fire again.
    One ``random.Random`` seeded with ``seed`` plays the whole battle.

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    >>> r = run_battle(line, (12, 12), line, (12, 12), seed="doc")
    >>> r == run_battle(line, (12, 12), line, (12, 12), seed="doc"), r.score_a in (0.0, 0.5, 1.0)
    (True, True)
    """
    return run_army_battle(
        [(unit_a, n) for n in sizes_a],
        [(unit_b, n) for n in sizes_b],
        seed=seed,
        first=first,
        distance_cm=distance_cm,
        max_rounds=max_rounds,
        conditions=_strongest(sampler, flight),
    )


Pairing = Literal["random", "strongest", "weakest", "dangerous", "best"]
#: The target policies (issue 14): the side moving first picks, unit by unit, the enemy unit
#: its policy prefers (2.1.4, 2.3.4, 4.2.1, 5.2.1; :func:`choose_targets`).
TARGET_POLICIES: tuple[Pairing, ...] = ("weakest", "dangerous", "best")
#: Every ``pairing`` of :func:`run_army_battle`: ``"random"`` (the default) first.
PAIRINGS: tuple[Pairing, ...] = ("random", "strongest", *TARGET_POLICIES)
ArmyEntry = tuple[DuelUnit, int] | tuple[DuelUnit, int, DuelUnit | None, int]
"""A unit of an army: ``(unit, figures)``, or ``(unit, figures, elite, elite figures)`` for a
unit with a company of another profile (1.1) among its figures (``figures`` are its own)."""


def check_pairing(pairing: object) -> Pairing:
    """``pairing`` when it is one of :data:`PAIRINGS`.

    Raises
    ------
    InvalidDataError
        Any other value.
    """
    if not isinstance(pairing, str) or pairing not in PAIRINGS:
        raise InvalidDataError(
            gettext("the pairing must be one of {choices}, got {pairing}").format(
                choices=", ".join(PAIRINGS), pairing=repr(pairing)
            )
        )
    return pairing


def check_cover(cover: object) -> float:
    """``cover``, the share of units in cover, when it is a number from 0 to 1.

    Raises
    ------
    InvalidDataError
        Not a number, not a number from 0 to 1 (NaN included).
    """
    if isinstance(cover, bool) or not isinstance(cover, int | float) or not 0.0 <= cover <= 1.0:
        raise InvalidDataError(
            gettext("the share of units in cover must be a number from 0 to 1, got {cover}").format(
                cover=repr(cover)
            )
        )
    return float(cover)


def draw_cover(army: Sequence[ArmyEntry], cover: float, rng: random.Random) -> list[ArmyEntry]:
    """``army`` with each unit, in order, fighting from scattered cover (4.10.3: W +
    ``rough_cover_w`` against fire) with probability ``cover`` (one ``rng.random()`` a unit).

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, ())
    >>> [e[0].cover for e in draw_cover([(line, 12), (line, 12)], 1.0, random.Random(0))]
    [1, 1]
    """
    bonus = DEFAULT_SETTINGS.rough_cover_w
    out: list[ArmyEntry] = []
    for e in army:
        if rng.random() < cover:
            e = (e[0].in_cover(e[0].cover + bonus), *e[1:])
        out.append(e)
    return out


@dataclass(frozen=True)
class BattleConditions:
    """How a simulated battle is played (issue 14): one object carried from the CLI through
    :func:`szwadron.armies.battles.play`, the validations and the search down to
    :func:`run_army_battle`. The defaults are the calibration's: the exact sampler, open ground,
    no flight, the dice pairing the units.

    - ``sampler``: how dice are resolved (:data:`Sampler`);
    - ``cover``: the share of units (0 to 1) that fight from scattered cover (4.10.3,
      :func:`draw_cover`, drawn by dice of the battle's own: its seed and ``:cover``);
    - ``flight``: flight and rally (6.6, 6.8) instead of a panicked unit leaving for good;
    - ``pairing``: who meets whom (:data:`PAIRINGS`);
    - ``concentrate``: concentrated fire and combined melee (4.2, 4.8.1, 5.10): when a forming of
      the lines leaves one side with units over, they join the engagements instead of waiting
      (:func:`run_army_battle`, :class:`_Engagement`); played with the exact sampler only.

    The values are checked when the object is made (one message each, :class:`InvalidDataError`).

    >>> BattleConditions() == CALIBRATION_CONDITIONS, BattleConditions(cover=1).cover
    (True, 1.0)
    """

    sampler: Sampler = DEFAULT_SAMPLER
    cover: float = 0.0
    flight: bool = BATTLE_FLIGHT
    pairing: Pairing = "random"
    concentrate: bool = False

    def __post_init__(self) -> None:
        _exact(self.sampler)
        object.__setattr__(self, "cover", check_cover(self.cover))
        if not isinstance(self.flight, bool):
            raise InvalidDataError(
                gettext("flight must be true or false, got {flight}").format(flight=repr(self.flight))
            )
        check_pairing(self.pairing)
        if not isinstance(self.concentrate, bool):
            raise InvalidDataError(
                gettext("concentrate must be true or false, got {value}").format(value=repr(self.concentrate))
            )
        if self.concentrate and self.sampler != "exact":
            raise InvalidDataError(
                gettext(
                    "concentrated fire and combined melee (concentrate) are played with the exact sampler "
                    "only, got sampler {sampler}"
                ).format(sampler=repr(self.sampler))
            )


#: The conditions of the calibration (and the default of every battle): nothing optional on.
CALIBRATION_CONDITIONS = BattleConditions()


@cache
def _strongest(sampler: Sampler, flight: bool) -> BattleConditions:
    """:func:`run_battle`'s conditions (the strongest meet first), made and checked once per
    sampler and flight: the calibration plays its duel battles through it by the hundred thousand."""
    return BattleConditions(sampler=sampler, flight=flight, pairing="strongest")


#: A battle unit's figures left (``[unit, initial, strength, ...]``): the key the lines sort by.
_STRENGTH = itemgetter(2)


# long: one battle's turn loop (fire, charge, melee, morale) over shared state; each phase is a call.
def run_army_battle(
    army_a: Sequence[ArmyEntry],
    army_b: Sequence[ArmyEntry],
    *,
    seed: int | str,
    first: int = 0,
    distance_cm: float = START_DISTANCE_CM,
    max_rounds: int = MAX_ROUNDS,
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> BattleResult:
    """Two armies of units (:data:`ArmyEntry`: ``(unit, figures)`` or, with an elite company,
    ``(unit, figures, elite, elite figures)``) fight as in :func:`run_battle` until one side has
    no unit left in the fight, under ``conditions`` (:class:`BattleConditions`; the default,
    :data:`CALIBRATION_CONDITIONS`, is the calibration's). With ``conditions.cover``, each unit
    of either side, in order, fights from scattered cover with that probability
    (:func:`draw_cover`), drawn from dice of the battle's own (``f"{seed}:cover"``), so the rest
    of the battle draws exactly as without cover.

    ``conditions.pairing`` decides who meets whom each time the lines are formed again: ``"strongest"``
    lines each side up by figures left (the order breaks ties) — for armies of one profile, the
    fresh units meet first —; ``"random"`` (the default, for mixed armies such as the example
    rosters) shuffles each side's line with the battle's dice, so no kind is always matched
    against the kind it beats or loses to: a meeting engagement, not a chosen one. The target
    policies (:data:`TARGET_POLICIES`, issue 14) let the side that moves first choose:
    ``"weakest"``, ``"dangerous"`` and ``"best"`` shuffle both lines as ``"random"`` does (who
    acts first, and the ties, are left to the battle's dice), then the side moving first in this
    forming of the lines (see the turns below) picks unit by unit the enemy unit its policy
    prefers (:func:`choose_targets`: the fewest figures left, the most expected figures removed
    from it, its best exact prospects). The pairs are chosen before the duels, from exact odds
    alone, so both samplers see the same pairs from the same lines. There is no ``"nearest"``:
    on the battle's one-dimensional front every pair starts at the same distance.

    **The turns** (2.1): side ``first`` has the initiative (2.1.4) and moves first in the first
    forming of the lines; the turns then alternate for the whole battle (2.1.3). The duels of a
    forming are played side by side from its first turn, and the lines are formed again when the
    last of them is decided: when that was in the turn of the side that moved first, the other
    side moves first in the next forming. Its second mover stood without acting in the turn
    before, so in a new forming's duels it may fire at the first unit that charges it (4.12.6).

    ``conditions.flight`` (default :data:`BATTLE_FLIGHT`) plays flight and rally (6.6, 6.8) instead of
    putting a panicked unit out for good. A unit that panicked in its duel (6.3, 6.4) with figures
    left flees at once (:class:`BattleFlight`: 2d6 × 2/4/1/3 cm, 6.6.2) towards its own edge,
    ``(TABLE_DEPTH_CM - end) / 2`` cm behind it when its duel ended ``end`` cm from the enemy.
    Each time the lines are formed again — the battle's turn, one morale phase for every fleeing
    unit (6.8.1) — a fleeing unit more than 10 cm from where its enemy stood takes one
    reorganisation test (6.8.2, 6.8.4) and, when it passes, comes back to its line as a reserve,
    behind the units still fighting (6.8.6: no action in the turn it reorganises), with the
    figures it has; otherwise it flees again (6.6.7), and running past its edge with flight left
    removes it (6.6.13). Flight on open ground is never blocked, so no unit surrenders (6.6.12).
    Fleeing units are not in the fight: a side with none left in its line has lost. After
    :data:`MAX_BATTLE_ROUNDS` formings of the lines with both sides still fighting, a draw.

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    >>> hussars = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())
    >>> r = run_army_battle([(line, 12), (hussars, 6)], [(line, 12), (line, 6)], seed="doc")
    >>> r == run_army_battle([(line, 12), (hussars, 6)], [(line, 12), (line, 6)], seed="doc")
    True
    """
    if first not in (0, 1):
        raise InvalidDataError(f"first must be 0 (side A) or 1 (side B), got {first!r}")
    pairing, sampler, flight = conditions.pairing, conditions.sampler, conditions.flight
    concentrate = conditions.concentrate
    if conditions.cover:  # 4.10.3: each unit in cover with probability `cover`, the battle's own dice
        dice = random.Random(f"{seed}:cover")
        army_a, army_b = (
            draw_cover(army_a, conditions.cover, dice),
            draw_cover(army_b, conditions.cover, dice),
        )

    def entry(e: ArmyEntry) -> list[Any]:
        unit, n = e[0], e[1]
        elite, k = (e[2], e[3]) if len(e) == 4 else (None, 0)
        if (
            not isinstance(n, int)
            or not isinstance(k, int)
            or n < 0
            or k < 0
            or n + k < 1
            or (k and elite is None)
        ):
            raise InvalidDataError(f"a unit needs at least one figure, got {n!r} and {k!r} elite")
        # unit, initial, strength, elite, elite left, and the ids the lean engine's pairs are kept by
        return [unit, n + k, n + k, elite, k, (id(unit), id(elite))]

    for army in (army_a, army_b):
        if not army:
            raise InvalidDataError("a battle needs at least one unit of at least one figure a side, got none")
    exact = _exact(sampler)
    play = _engine()
    rng = random.Random(str(seed))
    order: Who = 1 if first else 0
    shuffle = rng.shuffle if pairing != "strongest" else None
    chosen = pairing in TARGET_POLICIES
    # every unit still in the fight: [unit, initial, strength, elite, elite left, ids]
    lines: tuple[list[list[Any]], list[list[Any]]] = ([entry(e) for e in army_a], [entry(e) for e in army_b])
    duels = rounds = 0
    start = distance_cm
    fleeing: list[tuple[BattleFlight, list[Any], Who]] = []  # 6.6: in the order they broke
    rallied = left = 0
    while lines[0] and lines[1] and (not flight or rounds < MAX_BATTLE_ROUNDS):
        rounds += 1
        back: tuple[list[list[Any]], list[list[Any]]] = ([], [])
        if fleeing:  # 6.8.1: the morale phase before the lines are formed
            left += _battle_morale_phase(fleeing, back, rng, sampler)
            rallied += len(back[0]) + len(back[1])
        fronts = (len(lines[0]), len(lines[1]))
        for line, reserves in zip(lines, back, strict=True):
            if shuffle is not None:
                shuffle(line)
            elif len(line) > 1:
                line.sort(key=_STRENGTH, reverse=True)  # stable (reverse too): order breaks ties
            if reserves:
                line += reserves  # 6.8.6: a rallied unit comes back behind the units fighting
        if chosen:  # 2.1.4, 4.2.1, 5.2.1: the side moving first in this forming picks
            _engage(pairing, lines, order, fronts[1 - order])
        line_a, line_b = lines
        pairs = min(len(line_a), len(line_b))
        # the winners stay, in their order, before the reserves (a draw puts both out)
        stay_a: list[list[Any]] = []
        stay_b: list[list[Any]] = []
        stays = (stay_a, stay_b)
        far = ADVANCE_GAP_CM  # the front line ends where the farthest duel ended
        last = 0  # the turns played until the forming's last duel was decided (2.1.3)
        waited = rounds > 1  # 4.12.6: a new forming's second mover stood without acting
        joins: list[list[list[Any]]] = []
        big: Who = 0
        if concentrate and pairs and len(line_a) != len(line_b):  # 4.2, 5.10: the units over join
            big = 0 if len(line_a) > len(line_b) else 1
            joins = _joins(pairing, lines[big], lines[1 - big], pairs, back[big], rng)
        for k in range(pairs):
            ua, ub = line_a[k], line_b[k]
            if joins and joins[k]:  # one unit against several (issue 14, concentrate)
                one, many = (ub, ua) if big == 0 else (ua, ub)
                end, turns, gone = _play_engagement(
                    one,
                    [many, *joins[k]],
                    1 if big == 0 else 0,
                    stays,
                    rng,
                    start,
                    order,
                    max_rounds,
                    flight,
                    fleeing,
                )
                left += gone
                far, last = max(far, end), max(last, turns)
                continue
            if exact:  # the lean engine: the same duel as Duel.run, faster (issue 14)
                pair = _PAIRS.get(ua[5] + ub[5])  # _pair's key: (id(a), id(ea), id(b), id(eb))
                won, _, s, el, end, reason, turns = play(
                    _pair(ua[0], ua[3], ub[0], ub[3]) if pair is None else pair,
                    (ua[1], ub[1]),
                    (ua[2], ub[2]),
                    (ua[4], ub[4]),
                    rng,
                    start,
                    order,
                    max_rounds,
                    waited,
                )
            else:
                duel = Duel(
                    (
                        Side(ua[0], ua[1], ua[2], elite=ua[3], elite_left=ua[4], idle=waited and order == 1),
                        Side(ub[0], ub[1], ub[2], elite=ub[3], elite_left=ub[4], idle=waited and order == 0),
                    ),
                    rng,
                    distance_cm=start,
                )
                duel.run(order, max_rounds)
                won, end, reason, turns = duel.winner, duel.distance_cm, duel.reason, duel.turns
                s = [duel.sides[0].strength, duel.sides[1].strength]
                el = [duel.sides[0].elite_left, duel.sides[1].elite_left]
            if end > far:
                far = end
            if turns > last:
                last = turns
            ua[2], ub[2] = s
            ua[4], ub[4] = el
            if flight and (won is not None or reason == "both broke"):
                for who, u in ((0, ua), (1, ub)):
                    if won != who and u[2] > 0:  # it panicked (6.3, 6.4): it flees at once (6.6.2)
                        left += _start_flight(fleeing, u, who, end, rng)  # type: ignore[arg-type]
            if won == 0:
                if s[0] > 0:
                    stay_a.append(ua)
            elif won == 1 and s[1] > 0:
                stay_b.append(ub)
        duels += pairs
        if len(line_a) > pairs or len(line_b) > pairs:  # the reserves, bar the units that joined
            joined = {id(u) for group in joins for u in group}
            stay_a += [u for u in line_a[pairs:] if u[2] > 0 and id(u) not in joined]
            stay_b += [u for u in line_b[pairs:] if u[2] > 0 and id(u) not in joined]
        line_a[:], line_b[:] = stay_a, stay_b
        start = min(distance_cm, far)  # the lines follow their front
        if last % 2:  # 2.1.3: the turns alternate; the last one was the first mover's
            order = 1 - order  # type: ignore[assignment]
    winner: Who | None = None
    if lines[0] and not lines[1]:
        winner = 0
    elif lines[1] and not lines[0]:
        winner = 1
    return BattleResult(winner, duels, rounds, len(lines[0]), len(lines[1]), rallied, left)


# --- target choice (issue 14) ----------------------------------------------------------------
BattleUnit = tuple[DuelUnit, int, int, DuelUnit | None, int]
"""A unit of a battle's line as the target policies read it: ``(unit, initial strength,
strength, elite company's unit, its figures left)``."""


def _expected_removed(table: Table[tuple[int, bool]] | None) -> float:
    """The mean of the figures removed in a volley table (0 when nothing can fire)."""
    if table is None:
        return 0.0
    total, prev = 0.0, 0.0
    for (removed, _), c in zip(table.outcomes, table.cumulative, strict=True):
        total += removed * (c - prev)
        prev = c
    return total


def _charge_keys(attacker: BattleUnit, defender: BattleUnit) -> tuple[MeleeKey, MeleeKey] | None:
    """The two sides (:data:`MeleeKey`) of ``attacker``'s charge on ``defender``: every figure in
    contact facing the other line, first exchange (5.3, PD-14); None when it cannot charge (as
    in :func:`choose_action`: artillery never charges, nor does a unit without melee dice)."""
    a, a_init, a_s, a_el, a_left = attacker
    d, d_init, d_s, d_el, d_left = defender
    if a.is_artillery or a.melee <= 0:
        return None
    return (
        (a, _fighters(a, a_s, d, d_s, False), a_s, a_init, a_el, a_left),
        (d, _fighters(d, d_s, a, a_s, False), d_s, d_init, d_el, d_left),
    )


@lru_cache(maxsize=65536)
def target_threat(enemy: BattleUnit, me: BattleUnit) -> float:
    """How dangerous ``enemy`` is to ``me`` (issue 14, the ``"dangerous"`` target policy): the
    exact expected figures of ``me`` it removes with one action (2.3.2: it fires or charges, not
    both) — the larger of a volley of all its figures at close range (4.5, 4.6, its best weapon,
    no range penalty, 7.1.3) and the first exchange of its charge (5.3, 5.4, 7.7, every figure in
    contact facing the other line). ``me``'s cover (4.10.3) and open order (7.5) count.

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    >>> f"{target_threat((line, 12, 12, None, 0), (line, 12, 12, None, 0)):.3f}"  # 12 dice, C 3, W 2
    '3.000'
    """
    e, _, e_s, e_el, e_left = enemy
    m, _, m_s, m_el, m_left = me
    fire = _expected_removed(
        _fire_table(e, e_s - e_left, e_el, e_left, m, m_s, m_el, m_left, ADVANCE_GAP_CM, False)
    )
    keys = _charge_keys(enemy, me)
    if keys is None:
        return fire
    fs = _first_strike(e, m, True, True)
    odds = melee(
        _melee_side(*keys[0]), _melee_side(*keys[1]), first_strike=fs, die=DEFAULT_SETTINGS.remainder_die
    )
    return max(fire, float(odds.defender_removed.mean()))


def _best_score(me: BattleUnit, enemy: BattleUnit) -> float:
    """:func:`choose_action`'s exact scores of ``me``'s two ways to hurt ``enemy``, the better
    one: a volley at close range (:func:`_fire_score`: the chance it repulses, panics or destroys
    the enemy) or a charge (:func:`_melee_score`: that chance less its own); 0 when it can do
    neither."""
    m, _, m_s, m_el, m_left = me
    e, e_init, e_s, e_el, e_left = enemy
    fire = _fire_score(m, m_s - m_left, m_el, m_left, e, e_s, e_init, e_el, e_left, ADVANCE_GAP_CM)
    keys = _charge_keys(me, enemy)
    if keys is None:
        return fire
    charge = _melee_score(keys[0], keys[1], _first_strike(m, e, True, True), DEFAULT_SETTINGS.remainder_die)
    return max(fire, charge)


@lru_cache(maxsize=65536)
def target_prospect(me: BattleUnit, enemy: BattleUnit) -> float:
    """``me``'s prospects against ``enemy`` (issue 14, the ``"best"`` target policy): its best
    exact score against the enemy (:func:`_best_score`: the odds :func:`choose_action` compares,
    of a volley at close range or of a charge) less the enemy's best against it. Positive: the
    matchup favours ``me``.

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    >>> target_prospect((line, 12, 12, None, 0), (line, 12, 12, None, 0))
    0.0
    """
    return _best_score(me, enemy) - _best_score(enemy, me)


def _preference(pairing: Pairing, me: BattleUnit, enemy: BattleUnit) -> float:
    """The target policy's key: the enemy unit with the lowest is picked (:func:`choose_targets`)."""
    if pairing == "weakest":
        return enemy[2]
    if pairing == "dangerous":
        return -target_threat(enemy, me)
    return -target_prospect(me, enemy)


def choose_targets(
    pairing: Pairing,
    picker: Sequence[BattleUnit],
    enemy: Sequence[BattleUnit],
    front: int | None = None,
) -> list[tuple[int, int]]:
    """Issue 14 — the pairs a target policy makes: ``(index in picker, index in enemy)``, in the
    order the picker's units choose.

    The side moving first (2.1.3, 2.1.4; ``picker``) acts unit by unit, in the order of its line
    (2.3.1, 2.3.4: the order is the player's), and each unit picks, among the enemy units not yet
    engaged, the one its policy prefers — a declared target (4.2.1, 4.2.2: one unit fires at one
    enemy unit) or the unit it attacks (5.2.1):

    - ``"weakest"``: the fewest figures left;
    - ``"dangerous"``: the one that threatens it most (:func:`target_threat`: the expected figures it
      removes from this unit with one volley or one charge exchange);
    - ``"best"``: the one against which its own prospects are best (:func:`target_prospect`).

    Ties go to the enemy unit first in its line. The first ``front`` enemy units stand in the
    front line (default: all); those behind (rallied reserves, 6.8.6) are picked only when no
    front unit is left. Once every picker unit has a target or no enemy is left, the rest wait:
    as each duel is one unit against one, every unit of the picker is engaged by then, so the
    other side's unpaired units find nothing left to pick and wait too.

    "nearest" has no meaning here: on the battle's one-dimensional front every pair starts at the
    same distance.

    >>> line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    >>> mine = [(line, 12, 12, None, 0)]
    >>> choose_targets("weakest", mine, [(line, 12, 12, None, 0), (line, 12, 5, None, 0)])
    [(0, 1)]
    """
    pairing = check_pairing(pairing)
    if pairing not in TARGET_POLICIES:
        raise InvalidDataError(
            gettext("{pairing!r} is not a target policy: one of {choices}").format(
                pairing=pairing, choices=", ".join(TARGET_POLICIES)
            )
        )
    front = len(enemy) if front is None else front
    free = list(range(len(enemy)))
    pairs: list[tuple[int, int]] = []
    for i, me in enumerate(picker):
        if not free:
            break
        tier = [j for j in free if j < front] or free
        j = min(tier, key=lambda j: (_preference(pairing, me, enemy[j]), j))
        free.remove(j)
        pairs.append((i, j))
    return pairs


def _engage(
    pairing: Pairing, lines: tuple[list[list[Any]], list[list[Any]]], picker: Who, front: int
) -> None:
    """Reorder the battle's two lines so that their first units meet as :func:`choose_targets`
    pairs them, the side ``picker`` choosing (the rest wait, in their order)."""
    mine, theirs = lines[picker], lines[1 - picker]
    pairs = choose_targets(
        pairing,
        [(u[0], u[1], u[2], u[3], u[4]) for u in mine],
        [(u[0], u[1], u[2], u[3], u[4]) for u in theirs],
        front,
    )
    taken = ({i for i, _ in pairs}, {j for _, j in pairs})
    mine[:] = [mine[i] for i, _ in pairs] + [u for i, u in enumerate(mine) if i not in taken[0]]
    theirs[:] = [theirs[j] for _, j in pairs] + [u for j, u in enumerate(theirs) if j not in taken[1]]


def _start_flight(
    fleeing: list[tuple[BattleFlight, list[Any], Who]],
    unit: list[Any],
    who: Who,
    end_cm: float,
    rng: random.Random,
) -> int:
    """6.6.2 — a battle's unit (``[unit, initial, strength, elite, elite left]``) that panicked in
    a duel ended ``end_cm`` from its enemy flees at once; it joins ``fleeing``, or leaves the
    table (6.6.13: returns 1)."""
    flight = BattleFlight.after_duel(unit[0], unit[2], unit[1], end_cm)
    if flight.flee(rng):
        fleeing.append((flight, unit, who))
        return 0
    return 1


def _battle_morale_phase(
    fleeing: list[tuple[BattleFlight, list[Any], Who]],
    back: tuple[list[list[Any]], list[list[Any]]],
    rng: random.Random,
    sampler: Sampler,
) -> int:
    """6.8.1 — every fleeing unit's morale phase, in the order they broke: the rallied go to their
    side's list in ``back``, the rest flee on; returns how many left the table (6.6.13)."""
    still: list[tuple[BattleFlight, list[Any], Who]] = []
    left = 0
    for item in fleeing:
        step = item[0].morale_phase(rng, sampler)
        if step == "rallied":
            back[item[2]].append(item[1])
        elif step == "fleeing":
            still.append(item)
        else:
            left += 1
    fleeing[:] = still
    return left


# --- concentrated fire and combined melee (issue 14; BattleConditions.concentrate) ---------------
#: The exact loss tables of the combined exchanges met so far (:func:`_draw_combined`), bounded.
_COMBINED: dict[tuple[Any, ...], tuple[list[float], list[tuple[Loss, ...]]]] = {}
#: The morale outcomes of a combined exchange given its losses (5.10.5), by the units' states.
_COMBINED_OUTCOMES: dict[tuple[Any, ...], tuple[list[float], list[tuple[MeleeOutcome, ...]]]] = {}
_MAX_COMBINED = 65536

MeleeUnit = tuple[DuelUnit, int, int, int, DuelUnit | None, int, bool]
"""A unit in a combined exchange: ``(unit, figures in contact, strength, initial strength, elite
company's unit, its figures left, first strike)``."""


def _cumulative(weights: Sequence[int]) -> list[float]:
    """The cumulative shares of integer weights (the last is 1.0)."""
    total = sum(weights)
    out, acc = [], 0
    for w in weights:
        acc += w
        out.append(acc / total)
    out[-1] = 1.0
    return out


def _exchange_sides(
    attackers: Sequence[MeleeUnit], defenders: Sequence[MeleeUnit]
) -> tuple[list[MeleeSide], tuple[bool, ...]]:
    """Every unit's side of the exchange (:func:`_melee_side`: its figures in contact, its elite
    company's last) and which units have first strike this round (7.7)."""
    units = (*attackers, *defenders)
    return [_melee_side(u[0], u[1], u[2], u[3], u[4], u[5]) for u in units], tuple(u[6] for u in units)


def _exchange_losses(
    sides: Sequence[MeleeSide], na: int, struck: Sequence[int], first: tuple[bool, ...]
) -> Distribution[tuple[Loss, ...]]:
    """The joint losses of :func:`combined_exchange` (:class:`szwadron.odds.joint.CombinedEngine`)."""
    strikers: list[Striker] = []
    for k, side in enumerate(sides):
        strikers += [Striker(k, f"{k}:{i}", struck[k], f) for i, f in enumerate(side.fighters)]
    engine = CombinedEngine(
        strikers,
        [tuple(f.wounds for f in side.fighters) for side in sides],
        [side.morale for side in sides],
        [side.skirmish for side in sides],
        na,
        DEFAULT_SETTINGS.remainder_die,
        first,
    )
    return engine.losses()


def _opponents(struck: Sequence[int]) -> list[frozenset[int]]:
    """Who fights whom: each unit and the unit it strikes are opponents."""
    opponents = [set[int]() for _ in struck]
    for k, t in enumerate(struck):
        opponents[k].add(t)
        opponents[t].add(k)
    return [frozenset(o) for o in opponents]


def combined_exchange(
    attackers: Sequence[MeleeUnit], defenders: Sequence[MeleeUnit], struck: Sequence[int]
) -> tuple[Distribution[tuple[Loss, ...]], list[MeleeMorale], list[frozenset[int]]]:
    """5.10 — the exact joint losses of one combined melee exchange of the battle: the figures
    in contact of every unit (attackers first, then defenders) strike the unit ``struck[k]``
    names (an index into attackers + defenders); their dice against one unit are summed per UW
    (5.10.3, :class:`szwadron.odds.joint.CombinedEngine`), each group rolling and removing along
    the struck unit's figures that fought (5.10.4, 5.4.2), the unit's own before its elite
    company (5.4.3, 1.1). First strike (7.7) counts pair by pair: a unit that has it strikes
    first at a unit that has not, as on the table. Returns the losses (``(removed, took damage)`` per unit), the
    units' morale profiles and their opponents, for :func:`szwadron.odds.joint.combined_outcomes`."""
    sides, first = _exchange_sides(attackers, defenders)
    losses = _exchange_losses(sides, len(attackers), struck, first)
    return losses, [side.morale for side in sides], _opponents(struck)


def _draw_combined(
    attackers: Sequence[MeleeUnit], defenders: Sequence[MeleeUnit], struck: Sequence[int], rng: random.Random
) -> tuple[tuple[Loss, ...], tuple[MeleeOutcome, ...]]:
    """One combined exchange drawn from its exact distributions (:func:`combined_exchange`): the
    joint losses with one random number, then every unit's morale outcome in 5.10.5's order
    given those losses with another. The loss tables are kept by what they depend on (every
    unit's figures that fought, open order, who strikes whom, first strike), the outcome tables
    by every unit's test target after its losses, whether it took damage or was destroyed, and
    who fights whom."""
    sides, first = _exchange_sides(attackers, defenders)
    na = len(attackers)
    key = (tuple((side.fighters, side.skirmish) for side in sides), tuple(struck), na, first)
    hit = _COMBINED.get(key)
    if hit is None:
        if len(_COMBINED) >= _MAX_COMBINED:
            _COMBINED.clear()
        items = sorted(_exchange_losses(sides, na, struck, first).items())
        hit = _COMBINED[key] = (_cumulative([w for _, w in items]), [o for o, _ in items])
    loss = hit[1][bisect_right(hit[0], rng.random())]
    morale = [side.morale for side in sides]
    state = tuple(
        (0, hit_, True) if r == m.strength else (m.target_after(r), hit_, False)
        for m, (r, hit_) in zip(morale, loss, strict=True)
    )
    okey = (state, tuple(struck), na)
    out = _COMBINED_OUTCOMES.get(okey)
    if out is None:
        if len(_COMBINED_OUTCOMES) >= _MAX_COMBINED:
            _COMBINED_OUTCOMES.clear()
        dist = combined_outcomes(Distribution.point(loss), morale, _opponents(struck), na, swap=False)
        items2 = sorted(dist.items(), key=lambda kv: tuple(o.value for o in kv[0]))
        out = _COMBINED_OUTCOMES[okey] = (_cumulative([w for _, w in items2]), [o for o, _ in items2])
    return loss, out[1][bisect_right(out[0], rng.random())]


class _Engagement:
    """Issue 14, ``concentrate`` — one unit (``one``) against several units of the other side
    (``many``), the engagement a forming of the lines makes when the side with more units sends
    its units over to join (:func:`run_army_battle`). The duel's rules and policy
    (:func:`choose_action`, looked up per pair in :class:`_Pair`) on one line of distance: the
    one unit stands at one end, each of the many at its own distance from it.

    - Fire (4.2, 4.6, 4.8.1): each unit fires its own volley at one enemy unit (4.2.2), and a
      unit that took damage tests after each volley (4.8.1: each fire is its own procedure,
      4.1.2, 2.3.1); the many all fire at the one; the one fires at its target — the first of
      the many still in the fight, the unit it was paired with while it lasts.
    - Movement (3, 4.11, 7.3): each of the many advances on the one as in a duel; the one
      advances on its target, which brings it nearer to all of them (it stops short of the
      nearest, :data:`ADVANCE_GAP_CM`). A repulse (4.8.2, 5.5.6, 6.5) moves the repulsed unit a
      full move away: the one from all of them, one of the many from the one.
    - Melee (5.10): the charges and the units already in contact of the side in its turn make
      one combined melee at the end of its movement (2.3.1's exception; the attacker chooses
      combined, 5.10.2): the many's dice against the one summed per UW (5.10.3), each group
      removing separately (5.10.4); the one strikes back once (5.10.2), every figure of it in
      contact at its target (or the first of them in contact). In its own turn the one attacks
      every unit in contact with it, striking its target, and each of them strikes back once.
      Morale in 5.10.5's order (:func:`szwadron.odds.joint.combined_outcomes`), then repulse,
      pursuit (6.7: 2d6 × 2/4 cm after the enemy; a pursuer tries to reorganise, 6.8, in its
      morale phase) as in the duel.
    - Reaction fire (4.12): a declared unit fires at the end of the enemy's move when the mover
      ends it in range (at the charging unit at contact), or at the end of the enemy's movement
      phase (4.12.5). The undeclared fire at a charger (4.12.6) and automatic disengagement
      (7.6) are not played in an engagement of several units.

    A unit that panics (6.3, 6.4) or is destroyed is out; the engagement ends when the one or
    all of the many are out, or after ``max_rounds`` rounds undecided (all its units out, as an
    undecided duel's). Every draw is from an exact distribution (:mod:`szwadron.odds.sample`,
    :func:`_draw_combined`), one random number each, from the battle's ``rng``."""

    def __init__(self, one: list[Any], many: Sequence[list[Any]], rng: random.Random, start: float) -> None:
        self.one, self.many, self.rng = one, list(many), rng
        n = len(self.many)
        self.pairs = [_pair(m[0], m[3], one[0], one[3]) for m in self.many]  # index 0: the many's unit
        self.d = [start] * n
        self.engaged = [False] * n
        self.rounds_in = [0] * n  # melee exchanges of each pair (5.6: pushed up from the second on)
        self.broken = [False] * n
        self.pursuing = [False] * n
        self.declared = [False] * n
        self.prepared = [True] * n
        self.one_broken = self.one_pursuing = self.one_declared = False
        self.one_prepared = True

    # -- state --------------------------------------------------------------------------------
    def alive(self, i: int) -> bool:
        return not self.broken[i] and self.many[i][2] > 0

    @property
    def finished(self) -> bool:
        if self.one_broken or not self.one[2]:
            return True
        broken = self.broken
        for i, m in enumerate(self.many):
            if not broken[i] and m[2] > 0:
                return False
        return True

    def target(self) -> int:
        """The one unit's target: the first of the many still in the fight."""
        return next(i for i in range(len(self.many)) if self.alive(i))

    def state(self, i: int) -> tuple[tuple[int, int], list[int], list[int]]:
        """``(initial, strengths, elite left)`` of pair ``i`` (0: the many's unit, 1: the one)."""
        m, o = self.many[i], self.one
        return (m[1], o[1]), [m[2], o[2]], [m[4], o[4]]

    # -- fire (4.6-4.8) -----------------------------------------------------------------------
    def fire(self, i: int, by_one: bool, distance: float, march: bool = False) -> None:
        """A volley between the one and ``many[i]`` (``by_one``: the one fires) and the target's
        morale test (4.8.1, 6.3)."""
        pair = self.pairs[i]
        shooter = 1 if by_one else 0
        ini, s, el = self.state(i)
        cum, outcomes = pair.volley(shooter, s, el, distance, march)
        if cum is None:
            return
        removed, damaged = outcomes[bisect_right(cum, self.rng.random())]
        victim = self.many[i] if by_one else self.one
        if removed:  # Side.lose: the unit's own figures first (4.7)
            so, eo = victim[2], victim[4]
            over = removed - (so - eo)
            so -= removed
            if over > 0:
                eo = eo - over if eo > over else 0
            victim[2], victim[4] = so, min(eo, so)
        if damaged and victim[2] > 0:
            o = 1 - shooter
            _, tcum, touts = pair.test(o, victim[2], ini[o])
            outcome = touts[bisect_right(tcum, self.rng.random())]
            if outcome is _PANIC:
                self.out(i, by_one)
            elif outcome is _REPULSED:
                if by_one:
                    self.retreat_many(i)
                else:
                    self.retreat_one()

    def out(self, i: int, many_side: bool) -> None:
        if many_side:
            self.broken[i] = True
            self.engaged[i] = False
        else:
            self.one_broken = True

    def retreat_one(self) -> None:  # 4.8.2, 5.5.6, 6.5: a full move away from all of them
        move = self.one[0].move_cm
        for i in range(len(self.many)):
            self.d[i] += move
            self.engaged[i] = False
            self.rounds_in[i] = 0
        self.one_pursuing = False
        if self.one[0].heavy and move > 0:
            self.one_prepared = False  # 7.3

    def retreat_many(self, i: int) -> None:
        unit = self.many[i][0]
        self.d[i] += unit.move_cm
        self.engaged[i] = False
        self.rounds_in[i] = 0
        self.pursuing[i] = False
        if unit.heavy and unit.move_cm > 0:
            self.prepared[i] = False

    # -- melee (5.10) -------------------------------------------------------------------------
    def melee(self, by_one: bool, charged: Sequence[int]) -> None:
        """One combined exchange: the many in contact attack the one (``by_one`` False) or the one
        attacks every unit in contact with it; ``charged``: the many (or with ``by_one``, the
        target) that charged this turn (7.7: first strike on the charge)."""
        fighting = [i for i in range(len(self.many)) if self.engaged[i] and self.alive(i)]
        if not fighting:
            return
        tgt = self.target()
        hit = tgt if tgt in fighting else fighting[0]
        o = self.one
        many_units: list[MeleeUnit] = []
        for i in fighting:
            m = self.many[i]
            pushed = self.rounds_in[i] >= 1
            fs = (
                m[0].first_strike or (m[0].first_strike_charge and i in charged)
                if not by_one
                else m[0].first_strike or (m[0].first_strike_defence and not pushed)
            )
            many_units.append((m[0], _fighters(m[0], m[2], o[0], o[2], pushed), m[2], m[1], m[3], m[4], fs))
        t = self.many[hit]
        pushed = self.rounds_in[hit] >= 1
        one_fs = (
            o[0].first_strike or (o[0].first_strike_charge and hit in charged)
            if by_one
            else o[0].first_strike or (o[0].first_strike_defence and not pushed)
        )
        one_unit: MeleeUnit = (
            o[0],
            _fighters(o[0], o[2], t[0], t[2], pushed),
            o[2],
            o[1],
            o[3],
            o[4],
            one_fs,
        )
        k = len(fighting)
        if by_one:  # the one attacks: index 0; the many defend: 1..k, each striking it back
            loss, outs = _draw_combined([one_unit], many_units, [1 + fighting.index(hit)] + [0] * k, self.rng)
            one_loss, one_out = loss[0], outs[0]
            many_loss, many_out = loss[1:], outs[1:]
        else:  # the many attack: 0..k-1; the one defends: k, striking back once at ``hit``
            loss, outs = _draw_combined(many_units, [one_unit], [k] * k + [fighting.index(hit)], self.rng)
            one_loss, one_out = loss[k], outs[k]
            many_loss, many_out = loss[:k], outs[:k]
        self.lose_melee(o, one_loss[0], one_unit[1])
        for i, (r, _hit), mu in zip(fighting, many_loss, many_units, strict=True):
            self.lose_melee(self.many[i], r, mu[1])
            self.rounds_in[i] += 1
        # panics first (out), then the retreats (the defenders first, 5.5.6), then pursuit (6.7)
        if one_out is MeleeOutcome.PANIC:
            self.one_broken = True
        for i, out in zip(fighting, many_out, strict=True):
            if out is MeleeOutcome.PANIC:
                self.out(i, True)
        if self.finished:
            return
        mine = [("many", out, i) for i, out in zip(fighting, many_out, strict=True)]
        # the defenders move first (5.5.6, as in the duel)
        order = [*mine, ("one", one_out, -1)] if by_one else [("one", one_out, -1), *mine]
        for who, out, i in order:
            if out is MeleeOutcome.REPULSED:
                if who == "one":
                    self.retreat_one()
                else:
                    self.retreat_many(i)
        for who, out, i in order:
            if out is MeleeOutcome.PURSUIT:
                if who == "one":
                    self.pursue_one()
                elif self.many[i][0].pursuit_multiplier() > 0:
                    self.pursuing[i] = True
                    self.pursuit_move(i)

    @staticmethod
    def lose_melee(u: list[Any], removed: int, fought: int) -> None:
        """``removed`` of the figures that fought (5.4.2), the unit's own first (its elite company,
        in the front rank, last: 5.4.3, 1.1)."""
        if not removed:
            return
        exposed = fought - min(u[4], fought)
        elite_lost = max(0, removed - exposed)
        u[2] -= removed
        u[4] = min(max(0, u[4] - elite_lost), u[2])

    # -- pursuit (6.7) ------------------------------------------------------------------------
    def pursuit_move(self, i: int) -> bool:
        """``many[i]`` pursues the one: 2d6 × its multiplier; contact engages it."""
        if self.engaged[i]:
            return True
        move = (self.rng.randint(1, 6) + self.rng.randint(1, 6)) * self.many[i][0].pursuit_multiplier()
        if move >= self.d[i]:
            self.d[i], self.engaged[i], self.rounds_in[i] = 0.0, True, 0
            return True
        self.d[i] -= move
        return False

    def pursue_one(self) -> None:
        if self.one[0].pursuit_multiplier() == 0:
            return
        self.one_pursuing = True
        self.one_pursuit_move()

    def one_pursuit_move(self) -> bool:
        """The one pursues towards the nearest of the many still in the fight."""
        live = [i for i in range(len(self.many)) if self.alive(i)]
        if any(self.engaged[i] for i in live):
            return True
        move = (self.rng.randint(1, 6) + self.rng.randint(1, 6)) * self.one[0].pursuit_multiplier()
        near = min(live, key=lambda i: (self.d[i], i))
        if move >= self.d[near]:
            step = self.d[near]
            for i in live:
                self.d[i] = 0.0 if i == near else max(ADVANCE_GAP_CM, self.d[i] - step)
            self.engaged[near], self.rounds_in[near] = True, 0
            return True
        for i in live:
            self.d[i] -= move
        return False

    # -- the turns ----------------------------------------------------------------------------
    def choice(self, i: int, who: int, distance: float, prepared: bool) -> Action:
        """:func:`choose_action` out of melee for side ``who`` of pair ``i`` (the lean engine's
        look-ups)."""
        pair = self.pairs[i]
        can_charge, can_fire, action = pair.static_choice(who, distance, prepared)
        if can_charge:
            if not can_fire:
                return _CHARGE
            ini, s, el = self.state(i)
            if pair.charges(who, distance, ini, s, el):
                return _CHARGE
        return action

    def turn_many(self) -> None:
        """The many's turn (2.2, 2.3): morale phase of the pursuers, then each unit's action in
        line order; the charges and the units in contact fight one combined melee (5.10)."""
        charged: list[int] = []
        for i in range(len(self.many)):
            if self.finished:
                return
            if not self.alive(i):
                continue
            self.declared[i] = False
            if self.pursuing[i]:  # 6.7, 6.8: no action; reorganise or pursue
                if not self.engaged[i]:
                    ini, s, _ = self.state(i)
                    if self.rng.random() * 6 < self.pairs[i].test(0, s[0], ini[0])[0]:
                        self.pursuing[i] = False
                else:
                    self.pursuit_move(i)  # in contact, it fights in the side's melee below
                continue
            if self.engaged[i]:
                continue
            action = self.choice(i, 0, self.d[i], self.prepared[i])
            closing = action is not _CHARGE and any(self.engaged)
            if closing:  # 4.3.4: the one is in melee
                action = self.join_melee(i)
            unit = self.many[i][0]
            if action is _FIRE:
                self.fire(i, False, self.d[i])
            elif action is _ADVANCE or action is _MARCH_FIRE:
                march = action is _MARCH_FIRE
                if closing:  # straight on towards the melee, to charge into it next turn
                    step = max(self.d[i] - unit.move_cm, ADVANCE_GAP_CM)
                    new = step if step < self.d[i] else None
                else:
                    new = self.pairs[i].advance_to(0, self.d[i], march)
                if new is not None:
                    if unit.heavy:
                        self.prepared[i] = False  # 7.3
                    if self.react_one(i, new):
                        self.d[i] = new
                        if march:
                            self.fire(i, False, new, True)
            elif action is _CHARGE:
                if self.react_one(i, 0.0):
                    self.d[i], self.engaged[i], self.rounds_in[i] = 0.0, True, 0
                    charged.append(i)
            elif action is Action.PREPARE:
                self.prepared[i] = True
            elif action is Action.DECLARE:
                self.declared[i] = True
        if not self.finished:
            self.melee(False, charged)
        if not self.finished and self.one_declared and not any(self.engaged):  # 4.12.5
            self.one_declared = False
            t = self.target()
            if self.pairs[t].in_range(1, self.d[t]):
                self.fire(t, True, self.d[t])

    def join_melee(self, i: int) -> Action:
        """4.3.4: figures engaged in melee cannot be fired at — with the one in melee, ``many[i]``
        charges into it when it can (5.2.1), advances when it cannot reach it yet, or waits."""
        can_charge, _, _ = self.pairs[i].static_choice(0, self.d[i], self.prepared[i])
        if can_charge:
            return _CHARGE
        unit = self.many[i][0]
        if not unit.is_artillery and unit.melee > 0 and unit.move_cm > 0:
            return _ADVANCE
        return Action.PREPARE if not self.prepared[i] else Action.DECLARE

    def react_one(self, i: int, at: float) -> bool:
        """4.12: the one, declared, fires at ``many[i]`` ending its move at ``at``; False when the
        mover was repulsed or broken (its move ends there)."""
        if not self.one_declared or any(self.engaged) or not self.pairs[i].in_range(1, at):
            return True
        self.one_declared = False
        before = self.d[i]
        self.d[i] = at
        self.fire(i, True, at)
        if not self.alive(i) or self.d[i] != at:
            return False
        self.d[i] = before
        return True

    def turn_one(self) -> None:
        """The one's turn: pursuit or reorganisation, then its action against its target; in
        contact it attacks every unit touching it in one combined melee (5.10)."""
        self.one_declared = False
        live = [i for i in range(len(self.many)) if self.alive(i)]
        if self.one_pursuing:
            if not any(self.engaged[i] for i in live):
                t = self.target()
                ini, s, _ = self.state(t)
                if self.rng.random() * 6 < self.pairs[t].test(1, s[1], ini[1])[0]:
                    self.one_pursuing = False
                elif self.one_pursuit_move():
                    self.melee(True, [])
            else:
                self.melee(True, [])
        elif any(self.engaged[i] for i in live):
            self.melee(True, [])
        else:
            t = self.target()
            action = self.choice(t, 1, self.d[t], self.one_prepared)
            if action is _FIRE:
                self.fire(t, True, self.d[t])
            elif action is _ADVANCE or action is _MARCH_FIRE:
                march = action is _MARCH_FIRE
                new = self.pairs[t].advance_to(1, self.d[t], march)
                if new is not None:
                    step = self.d[t] - new
                    step = min(step, min(self.d[i] for i in live) - ADVANCE_GAP_CM)
                    if step > 0:
                        if self.one[0].heavy:
                            self.one_prepared = False
                        for i in live:
                            self.d[i] -= step
                        if self.react_many(live) and march:
                            self.fire(t, True, self.d[t], True)
            elif action is _CHARGE:
                if self.react_many([t], at=0.0):
                    step = self.d[t]
                    for i in live:
                        self.d[i] = max(ADVANCE_GAP_CM, self.d[i] - step) if i != t else 0.0
                    self.engaged[t], self.rounds_in[t] = True, 0
                    self.melee(True, [t])
            elif action is Action.PREPARE:
                self.one_prepared = True
            elif action is Action.DECLARE:
                self.one_declared = True
        for i in range(len(self.many)):  # 4.12.5: the many's declared fire at the end of the turn
            if self.finished:
                return
            if self.declared[i] and self.alive(i) and not any(self.engaged):
                self.declared[i] = False
                if self.pairs[i].in_range(0, self.d[i]):
                    self.fire(i, False, self.d[i])

    def react_many(self, movers_of: Sequence[int], at: float | None = None) -> bool:
        """4.12: the declared many fire at the one ending its move in their range (at contact,
        ``at``, for a charge's target); False when it was repulsed or broke."""
        for i in movers_of:
            if self.finished:
                return False
            if not self.declared[i] or not self.alive(i) or self.engaged[i]:
                continue
            dist = self.d[i] if at is None else at
            if not self.pairs[i].in_range(0, dist):
                continue
            self.declared[i] = False
            before = list(self.d)
            self.fire(i, False, dist)
            if self.one_broken or self.one[2] == 0 or self.d != before:
                return False
        return True

    def run(self, first_is_one: bool, max_rounds: int) -> tuple[int, int, bool]:
        """Play until decided or ``max_rounds``: ``(rounds, turns played, decided)``."""
        rounds = turns = 0
        while not self.finished and rounds < max_rounds:
            rounds += 1
            for one_moves in (first_is_one, not first_is_one):
                turns += 1
                if one_moves:
                    self.turn_one()
                else:
                    self.turn_many()
                if self.finished:
                    break
        return rounds, turns, self.finished


def _joins(
    pairing: Pairing,
    bigger: list[list[Any]],
    smaller: list[list[Any]],
    pairs: int,
    rallied: Sequence[list[Any]],
    rng: random.Random,
) -> list[list[list[Any]]]:
    """Issue 14, ``concentrate`` — the engagement each unit over on the bigger side joins (4.2.1,
    5.2.1: every unit chooses the enemy unit it fires at or attacks), by index into the first
    ``pairs`` units of ``smaller``: under a target policy the unit's own preference
    (:func:`_preference`; ties: the engagement first in the line), otherwise the dice, one
    ``rng.randrange`` a unit. Units that rallied in this forming (6.8.6: no action in the turn
    they reorganise) wait behind."""
    back = {id(u) for u in rallied}
    joins: list[list[list[Any]]] = [[] for _ in range(pairs)]
    chosen = pairing in TARGET_POLICIES
    enemies = [(u[0], u[1], u[2], u[3], u[4]) for u in smaller[:pairs]]
    for u in bigger[pairs:]:
        if id(u) in back:
            continue
        if chosen:
            me = (u[0], u[1], u[2], u[3], u[4])
            k = min(range(pairs), key=lambda j: (_preference(pairing, me, enemies[j]), j))
        else:
            k = rng.randrange(pairs)
        joins[k].append(u)
    return joins


def _play_engagement(
    one: list[Any],
    many: list[list[Any]],
    one_side: Who,
    stays: tuple[list[list[Any]], list[list[Any]]],
    rng: random.Random,
    start: float,
    order: Who,
    max_rounds: int,
    flight: bool,
    fleeing: list[tuple[BattleFlight, list[Any], Who]],
) -> tuple[float, int, int]:
    """Play one unit against several (:class:`_Engagement`) in a forming of the lines: the units
    still in the fight of the winning side join ``stays`` (an undecided engagement puts all out,
    as an undecided duel does); with ``flight`` each unit that panicked with figures left flees
    (6.6.2). Returns ``(the farthest distance it ended at, turns played, units that ran off the
    table)``."""
    eng = _Engagement(one, many, rng, start)
    _, turns, decided = eng.run(order == one_side, max_rounds)
    many_side: Who = 1 - one_side  # type: ignore[assignment]
    if decided:
        one_out = eng.one_broken or one[2] == 0
        if not one_out:
            stays[one_side].append(one)
        elif any(eng.alive(i) for i in range(len(many))):
            stays[many_side].extend(m for i, m in enumerate(many) if eng.alive(i))
    left = 0
    if flight:
        if eng.one_broken and one[2] > 0:
            left += _start_flight(fleeing, one, one_side, min(eng.d), rng)
        for i, m in enumerate(many):
            if eng.broken[i] and m[2] > 0:
                left += _start_flight(fleeing, m, many_side, eng.d[i], rng)
    return max(eng.d), turns, left


__all__ = [
    "ADVANCE_GAP_CM",
    "BATTLE_FLIGHT",
    "CALIBRATION_CONDITIONS",
    "DEFAULT_SAMPLER",
    "MAX_BATTLE_ROUNDS",
    "MAX_ROUNDS",
    "OPEN_ORDER_GAP_CM",
    "PAIRINGS",
    "STANDARD_SKIRMISH_FIGURES",
    "STANDARD_UNIT_FIGURES",
    "START_DISTANCE_CM",
    "TABLE_DEPTH_CM",
    "TARGET_POLICIES",
    "Action",
    "ArmyEntry",
    "BattleConditions",
    "BattleFlight",
    "BattleResult",
    "BattleUnit",
    "Duel",
    "DuelResult",
    "DuelUnit",
    "FlightStep",
    "MeleeUnit",
    "Pairing",
    "Sampler",
    "Side",
    "Weapon",
    "battle_flight_multiplier",
    "best_weapon",
    "check_cover",
    "check_pairing",
    "choose_action",
    "choose_targets",
    "combined_exchange",
    "draw_cover",
    "melee_score",
    "modified_accuracy",
    "rally_chance",
    "run_army_battle",
    "run_battle",
    "run_duel",
    "split_units",
    "standard_unit_figures",
    "target_prospect",
    "target_threat",
]
