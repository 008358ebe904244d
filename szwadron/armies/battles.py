"""Battles between whole rosters (issue 7): equal points, equal chances, army against army.

The round-robin of :func:`szwadron.armies.calibrate.validate` sets one profile against another; no
per-figure price can make every such cell even, because the kinds beat one another in a circle
(skirmishers outshoot a line, cavalry rides down skirmishers, canister stops cavalry, a line
overruns a battery). Armies are mixed, and what an organiser needs is that two *rosters* of
equal points are even. This module plays them:

- **Forces** (:func:`roster_force`): every unit of the roster, ``count`` times, fights as a unit
  of its own profile (:class:`szwadron.armies.duel.DuelUnit`). An attached company of another fighting
  profile (an elite company, 1.1) fights inside it with its own characteristics: its own dice
  group in a volley, its own fighters in the front rank of a melee, removed after the unit's
  own figures (:class:`szwadron.armies.duel.Side`); the unit's M and strength are the whole unit's. A
  limber adds no figure — what it gives, the limbered move (7.2), is in the gun's speed.
- **Battles** (:func:`szwadron.armies.duel.run_army_battle`, random pairing): the units meet in pairs
  drawn by the dice, reserves step in, and a side loses when none of its units is left in the
  fight — a meeting engagement on open ground, with no choice of who fights whom.
- **The check** (:func:`validate_rosters`): every pair of example rosters of different armies
  with the same points limit plays ``battles`` seeded battles (the side moving first
  alternating), and each pair's win rate is reported with its Wilson interval and whether it is
  within 50 ± 5 %, beside the chance :mod:`szwadron.armies.balance` predicts from the points.
- **Conditions** (issue 14): the optional ones below are the fields of one
  :class:`szwadron.armies.duel.BattleConditions` (with the sampler), carried from ``points
  validate`` through :func:`validate_rosters`, :func:`play` and :func:`run_battle_batch` down to
  :func:`szwadron.armies.duel.run_army_battle`; its defaults are the calibration's.
- **Cover** (optional, issue 14; ``cover``, the share of units): in each battle every unit of
  either side fights from scattered cover (bushes, rubble: W + 1 against fire, 4.10.3) with
  probability ``cover``, drawn by :func:`draw_cover` from dice of the battle's own (its seed and
  ``:cover``), so that a battle without cover plays exactly as before. The calibration plays on
  open ground.
- **Flight and rally** (optional, issue 14; ``flight``): :func:`validate_rosters` plays its
  battles with flight and rally (6.6, 6.8, :func:`szwadron.armies.duel.run_army_battle`) when
  ``flight`` is true; off by default, as in the calibration (:data:`BATTLE_FLIGHT`).
- **Targets** (optional, issue 14; ``pairing``): instead of the dice pairing the units
  (``"random"``, the default and the calibration's), the side with the initiative picks each
  unit's enemy by a policy (``"weakest"``, ``"dangerous"``, ``"best"``:
  :func:`szwadron.armies.duel.choose_targets`; 2.1.4, 4.2.1, 5.2.1).

Tasks go to a :class:`concurrent.futures.Executor` exactly as the duels of the calibration do
(:func:`szwadron.armies.calibrate.run_tasks`): the results do not depend on the executor.

Examples
--------
>>> from szwadron.loading import bundled_dir, load_army_list
>>> france = load_army_list(bundled_dir("armylists") / "france.toml")
>>> force = roster_force(france, france.roster("corps-1000"))
>>> sorted({u.profile.id for u in force}) == sorted({e.profile for e in france.roster("corps-1000").units})
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, NamedTuple

from szwadron.armies.balance import predicted_chance
from szwadron.armies.duel import (
    CALIBRATION_CONDITIONS,
    DEFAULT_SAMPLER,
    ArmyEntry,
    BattleConditions,
    Sampler,
    check_cover,
    draw_cover,
    plain_units,
    run_army_battle,
    split_units,
)
from szwadron.armies.points import PointsModel, load_model
from szwadron.armies.rosters import size_factor
from szwadron.armies.runs import BAND, ProgressFn, Tally, fewer_collections, run_tasks
from szwadron.armies.spread import share_without_dice
from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext
from szwadron.models import ArmyList, Kind, Profile, Roster

#: Battles per pair of rosters (``points validate``, ``balance --battles``).
DEFAULT_BATTLES = 200
#: Battles per task submitted to the executor (an army battle is ~10 duels).
BATTLE_TASK_SIZE = 50


PointsFn = Callable[[Profile], float]
"""Points per figure of a profile (default: the stored ``points``)."""


def _stored(profile: Profile) -> float:
    if profile.points is None:
        raise InvalidDataError(
            gettext("profile {id!r} has no points; run 'szwadron points calibrate'").format(id=profile.id)
        )
    return profile.points


class ForceUnit(NamedTuple):
    """A fighting unit of a force: its own profile and figures, and an elite company of another
    profile among its figures (1.1), if any."""

    profile: Profile
    figures: int
    elite: Profile | None = None
    elite_figures: int = 0
    size_factor: float = 1.0
    """The list's unit-size price of its own figures (:meth:`szwadron.models.ArmyList.size_factor`)."""

    def cost(self, points: PointsFn = _stored) -> float:
        """Points of its fighting figures (its own at the list's unit-size price)."""
        return points(self.profile) * self.figures * self.size_factor + (
            points(self.elite) * self.elite_figures if self.elite else 0.0
        )

    def key(self) -> tuple[str, int, str, int]:
        """What makes two units the same kind of unit."""
        return (self.profile.id, self.figures, self.elite.id if self.elite else "", self.elite_figures)


Force = list[ForceUnit]


def roster_force(army: ArmyList, roster: Roster, points: PointsFn = _stored) -> Force:
    """The fighting units of ``roster`` (module notes), each ``count`` times.

    An attached company of another fighting profile fights inside its unit with its own
    characteristics (:class:`szwadron.armies.duel.Side`: removed last, in the front rank in melee);
    limbers add nothing (7.2). A unit with attachments of two other fighting profiles counts the
    second as figures of the first of equal points (``points``; default: the stored ones).
    """
    out: Force = []
    for k, entry in enumerate(roster.units):
        profile = army.profile(entry.profile)
        if profile.kind is Kind.LIMBER:
            raise InvalidDataError(
                gettext(
                    "roster {id!r}: units[{k}]: a limber is not a fighting unit (7.2); attach it to its gun"
                ).format(id=roster.id, k=k)
            )
        fighting = [(army.profile(a.profile), a.figures) for a in entry.attached]
        fighting = [(p, n) for p, n in fighting if p.kind is not Kind.LIMBER]
        size = size_factor(army, entry, profile)
        unit = ForceUnit(profile, entry.figures, size_factor=size)
        if fighting:
            elite = fighting[0][0]
            extra = sum(n * points(p) for p, n in fighting) / points(elite)
            unit = ForceUnit(profile, entry.figures, elite, max(1, round(extra)), size)
        out += [unit] * entry.count
    return out


def roster_points(army: ArmyList, roster: Roster, points: PointsFn = _stored) -> float:
    """What ``roster`` costs (every figure, limbers included) at ``points`` (default: stored)."""
    total = 0.0
    for entry in roster.units:
        size = size_factor(army, entry)
        for pid, figures in (
            (entry.profile, entry.figures * size),
            *((a.profile, a.figures) for a in entry.attached),
        ):
            profile = army.profile(pid)
            total += (
                (0.0 if profile.kind is Kind.LIMBER and profile.points is None else points(profile))
                * figures
                * entry.count
            )
    return total


def force_points(force: Sequence[ForceUnit], points: PointsFn = _stored) -> float:
    """What the fighting figures of a force cost."""
    return sum(u.cost(points) for u in force)


# --- running battles on an executor ---------------------------------------------------------------
BattleSpec = tuple[int, int, int, str]
"""``(force index A, force index B, first, seed)``."""


PlainForce = tuple[tuple[int, int, int, int], ...]
"""A force as plain data: ``(profile index, figures, elite profile index or -1, elite figures)``
per unit."""


def run_battle_batch(
    profiles: Sequence[dict[str, Any]],
    specs: Sequence[tuple[PlainForce, PlainForce, int, str]],
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> list[tuple[float, int]]:
    """Play a batch of army battles (a task for an executor: top-level, plain arguments).

    ``profiles`` are profile dicts; each spec is ``(force A, force B, first, seed)`` with the
    forces as ``(profile index, figures)`` per unit; every battle is played under
    ``conditions`` (:class:`szwadron.armies.duel.BattleConditions`: the sampler, the share of
    units in cover, flight and rally, who meets whom; module notes).
    Returns ``(score of A, duels played)`` per battle, in order."""

    units = plain_units(profiles)  # kept across the chunks of a run (issue 14)

    def army(force: PlainForce) -> list[ArmyEntry]:
        return [(units[i], n, units[e] if e >= 0 else None, k) for i, n, e, k in force]

    out: list[tuple[float, int]] = []
    with fewer_collections():
        for force_a, force_b, first, seed in specs:
            r = run_army_battle(
                army(force_a), army(force_b), seed=seed, first=1 if first else 0, conditions=conditions
            )
            out.append((r.score_a, r.duels))
    return out


def play(
    forces: Sequence[Sequence[ForceUnit]],
    specs: Sequence[BattleSpec],
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    label: str = "roster battles",
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> list[tuple[float, int]]:
    """Play ``specs`` between ``forces`` (default: a process pool, one worker per core;
    ``workers=1`` in this process) under ``conditions`` (:class:`szwadron.armies.duel.BattleConditions`:
    the sampler, the share of units in cover, flight and rally, who meets whom;
    :func:`szwadron.armies.duel.run_army_battle`). Results are in the order of ``specs``."""
    profiles: list[dict[str, Any]] = []
    by_object: dict[int, int] = {}
    by_doc: dict[str, int] = {}
    plain_forces: list[PlainForce] = []

    def index(profile: Profile) -> int:
        found = by_object.get(id(profile))
        if found is None:
            doc = profile.model_dump(mode="json")
            key = repr(sorted(doc.items()))
            if key not in by_doc:
                by_doc[key] = len(profiles)
                profiles.append(doc)
            found = by_object[id(profile)] = by_doc[key]
        return found

    known = by_object.get  # issue 14: a look-up per unit, index() only for a profile not met yet
    for force in forces:
        plain: list[tuple[int, int, int, int]] = []
        for u in force:
            i = known(id(u.profile))
            e = -1
            if u.elite is not None:
                found = known(id(u.elite))
                e = index(u.elite) if found is None else found
            plain.append((index(u.profile) if i is None else i, u.figures, e, u.elite_figures))
        plain_forces.append(tuple(plain))
    jobs = [(plain_forces[a], plain_forces[b], first, seed) for a, b, first, seed in specs]
    return run_tasks(
        run_battle_batch,
        (profiles,),
        jobs,
        (conditions,),
        executor=executor,
        workers=workers,
        progress=progress,
        label=label,
        task_size=BATTLE_TASK_SIZE,
    )


# --- random mixed armies (the calibration's army battles) -------------------------------------------
#: Shares of the points a random army spends on each class: the mean of the twelve example
#: rosters of the six bundled lists (line 62 %, skirmishers 13 %, cavalry 18 %, artillery 7 %).
RANDOM_ARMY_SHARES: dict[str, float] = {"line": 0.62, "skirmishers": 0.13, "cavalry": 0.18, "artillery": 0.07}
#: How closely a :func:`resampled_force`'s shares follow :data:`RANDOM_ARMY_SHARES`: the
#: concentration of the Dirichlet they are drawn from (4: a share of 18 % is 18 ± 17 %), so
#: the fit sees armies much heavier and lighter in each class — as players field them. At 20
#: (18 ± 8 %) the fit never saw a roster with half its points in skirmishers, and random legal
#: rosters won 4 points more per 10 % of their points in skirmishers (``scripts/composition.py``,
#: benchmarks/RESULTS.md); fitted at 4, 57 % of them are within 50 ± 5 % against the field
#: instead of 45 %.
SHARE_CONCENTRATION = 4.0
#: Figures of a random army's units by class: (fewest, most); guns are one figure a unit.
RANDOM_UNIT_FIGURES: dict[str, tuple[int, int]] = {
    "line": (8, 14),
    "skirmishers": (4, 8),
    "cavalry": (4, 8),
    "artillery": (1, 1),
}


def profile_class(profile: Profile) -> str:
    """``line``, ``skirmishers`` (7.5), ``cavalry`` or ``artillery``."""
    if profile.kind.is_artillery:
        return "artillery"
    if profile.kind is Kind.CAVALRY:
        return "cavalry"
    return "skirmishers" if profile.has("skirmish") else "line"


def random_force(army: ArmyList, budget: float, rng: random.Random, points: PointsFn = _stored) -> Force:
    """A random mixed army of ``army``'s fighting profiles costing at most ``budget``: units of
    random classes (weights :data:`RANDOM_ARMY_SHARES`, among the classes the list has), random
    profiles of the class and random sizes (:data:`RANDOM_UNIT_FIGURES`), until the budget is
    spent; the last unit is cut to fit, and one too small to stand is left out."""
    by_class: dict[str, list[Profile]] = {}
    for p in army.profiles:
        if p.kind is not Kind.LIMBER:
            by_class.setdefault(profile_class(p), []).append(p)
    if not by_class:
        raise InvalidDataError(gettext("army list {id!r} has no fighting profiles").format(id=army.id))
    classes = sorted(by_class)
    weights = [RANDOM_ARMY_SHARES.get(c, 0.1) for c in classes]
    force: Force = []
    spent = 0.0
    misses = 0
    while misses < 4:
        cls = rng.choices(classes, weights)[0]
        profile = rng.choice(by_class[cls])
        low, high = RANDOM_UNIT_FIGURES[cls]
        price = points(profile)
        n = min(rng.randint(low, high), int((budget - spent) / price + 1e-9))
        if n < max(1, low // 2):
            misses += 1
            continue
        force.append(ForceUnit(profile, n))
        spent += n * price
    if not force:
        cheapest = min((p for ps in by_class.values() for p in ps), key=points)
        force.append(ForceUnit(cheapest, 1))
    return force


def priced(army: ArmyList, points: PointsFn) -> ArmyList:
    """``army`` with every fighting profile's points set by ``points`` (limbers keep theirs)."""
    profiles = tuple(
        p if p.kind is Kind.LIMBER else p.model_copy(update={"points": points(p)}) for p in army.profiles
    )
    return army.model_copy(update={"profiles": profiles})


def memo_points(points: PointsFn) -> PointsFn:
    """``points`` remembered per profile object (issue 14): the designs below price the same
    few profiles hundreds of thousands of times, and a model's price is a pure function.

    >>> calls = []
    >>> f = memo_points(lambda p: calls.append(p) or 10.0)
    >>> from szwadron.armies.points import REFERENCE_PROFILE as ref
    >>> f(ref), f(ref), len(calls)
    (10.0, 10.0, 1)
    """
    cache: dict[int, tuple[Profile, float]] = {}

    def cached(profile: Profile) -> float:
        hit = cache.get(id(profile))
        if hit is None or hit[0] is not profile:  # the profile is kept, so its id is not reused
            hit = cache[id(profile)] = (profile, points(profile))
        return hit[1]

    return cached


def roster_pools(army: ArmyList, points: PointsFn = _stored) -> dict[str, Force]:
    """The distinct units (:meth:`ForceUnit.key`) the example rosters of ``army`` field, by
    class (:func:`profile_class`), each class sorted by key (the rosters' order must not matter):
    what :func:`resampled_force` draws from."""
    pools: dict[str, Force] = {}
    seen: set[tuple[str, int, str, int]] = set()
    for roster in army.rosters:
        for unit in roster_force(army, roster, points):
            if unit.key() not in seen:
                seen.add(unit.key())
                pools.setdefault(profile_class(unit.profile), []).append(unit)
    for cls in pools:
        pools[cls].sort(key=ForceUnit.key)
    return pools


def pool_costs(pools: dict[str, Force], points: PointsFn = _stored) -> dict[str, list[float]]:
    """The points of every unit of :func:`roster_pools`, in the pools' order (issue 14: the
    designs draw from the same pools tens of thousands of times)."""
    return {cls: [u.cost(points) for u in pool] for cls, pool in pools.items()}


def resampled_force(
    army: ArmyList,
    budget: float,
    rng: random.Random,
    points: PointsFn = _stored,
    *,
    pools: dict[str, Force] | None = None,
    costs: dict[str, list[float]] | None = None,
) -> Force:
    """A random army made of the kinds of unit the list's example rosters field (each distinct
    ``(profile, figures, elite)`` of :func:`roster_force`), in the proportions armies are
    fielded in: the budget is split between the classes (:func:`profile_class`) by shares drawn
    around :data:`RANDOM_ARMY_SHARES` (a Dirichlet of concentration
    :data:`SHARE_CONCENTRATION`, over the classes the rosters field), and each class's share is
    spent on its units drawn with replacement, equally likely. Neither the example rosters'
    counts nor their order matter, so changing a roster's counts does not move the calibration;
    and a list whose rosters offer many kinds of cavalry still gets armies that are mostly
    line, as fielded. A list without rosters gets a :func:`random_force`. ``pools``: the
    list's :func:`roster_pools` at ``points``, when the caller has them already; ``costs``: their
    :func:`pool_costs`."""
    if pools is None:
        pools = roster_pools(army, points)
    if not pools:
        return random_force(army, budget, rng, points)
    if costs is None:
        costs = pool_costs(pools, points)
    classes = sorted(pools)
    draws = [rng.gammavariate(SHARE_CONCENTRATION * RANDOM_ARMY_SHARES.get(c, 0.1), 1.0) for c in classes]
    total = sum(draws)
    force: Force = []
    choice = rng.choice
    for cls, draw in zip(classes, draws, strict=True):
        share, spent, misses = budget * draw / total, 0.0, 0
        pool, priced = pools[cls], costs[cls]
        which = range(len(pool))  # choice(range(n)) draws the index choice(pool) would
        while misses < 4:
            i = choice(which)
            cost = priced[i]
            if spent + cost > share:
                misses += 1
                continue
            force.append(pool[i])
            spent += cost
    if not force:
        force.append(min((u for pool in pools.values() for u in pool), key=lambda u: u.cost(points)))
    return force


def mixed_battle_design(
    armies: Sequence[ArmyList],
    *,
    points: PointsFn = _stored,
    battles: int,
    budgets: Sequence[float] = (1000.0, 2000.0),
    jitter: float = 0.2,
    seed: int = 2026,
    round_index: int = 0,
    resample: bool = True,
) -> tuple[list[Force], list[BattleSpec]]:
    """Battles between random armies (:func:`resampled_force`, or :func:`random_force` with
    ``resample=False``) of every pair of lists (a list
    against itself too): ``battles`` per pair and budget, each side's budget jittered by
    ``e^{±u/2}``, ``u`` uniform in ±``jitter`` (so the fit sees what points more are worth).
    Returns the forces and the specs."""
    points = memo_points(points)
    pools = [roster_pools(army, points) for army in armies] if resample else []
    costs = [pool_costs(p, points) for p in pools]

    def make(i: int, budget: float, rng: random.Random) -> Force:
        if resample:
            return resampled_force(armies[i], budget, rng, points, pools=pools[i], costs=costs[i])
        return random_force(armies[i], budget, rng, points)

    forces: list[Force] = []
    specs: list[BattleSpec] = []
    for i in range(len(armies)):
        for j in range(i, len(armies)):
            for budget in budgets:
                for k in range(battles):
                    tag = f"mixed:{seed}:{round_index}:{armies[i].id}:{armies[j].id}:{budget:g}:{k}"
                    rng = random.Random(tag)
                    u = rng.uniform(-jitter, jitter)
                    a = make(i, budget * math.exp(u / 2), rng)
                    b = make(j, budget * math.exp(-u / 2), rng)
                    specs.append((len(forces), len(forces) + 1, k % 2, tag))
                    forces += [a, b]
    return forces, specs


# --- unit size -----------------------------------------------------------------------------------
def resized_force(force: Sequence[ForceUnit], cls: str, size: int) -> Force:
    """``force`` with the units of class ``cls`` (:func:`profile_class`) that carry no company of
    another profile regrouped, profile by profile, into units of about ``size`` figures
    (:func:`szwadron.armies.duel.split_units`); everything else as it was. The same figures, so the same
    points: what the units' size alone is worth.

    >>> from szwadron.models import Profile
    >>> line = Profile.model_validate({"id": "line", "name": "Line", "kind": "infantry", "R": 12,
    ...     "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4, "points": 10})
    >>> [u.figures for u in resized_force([ForceUnit(line, 12)] * 4, "line", 24)]
    [24, 24]
    """

    if not isinstance(size, int) or size < 1:
        raise InvalidDataError(
            gettext("a unit size must be a whole number of figures >= 1, got {size!r}").format(size=size)
        )
    kept: Force = []
    pools: dict[str, list[ForceUnit]] = {}
    for unit in force:
        if profile_class(unit.profile) == cls and unit.elite is None:
            pools.setdefault(unit.profile.id, []).append(unit)
        else:
            kept.append(unit)
    for units in pools.values():
        kept += [units[0]._replace(figures=n) for n in split_units(sum(u.figures for u in units), size)]
    return kept


#: Unit sizes ``points validate`` tries on each list's largest roster: line battalions of 8 and 16
#: (the rosters field 12, the lists cap them at 12), skirmish companies of 4 and 8 (fielded: 6;
#: cap 8; issue 14), cavalry of 4 and 12 (fielded: 6; cap 8).
SIZE_CHECK: dict[str, tuple[int, ...]] = {"line": (8, 16), "skirmishers": (4, 8), "cavalry": (4, 12)}


@dataclass(frozen=True)
class SizeEffect(Tally):
    """:func:`unit_size_effect`: ``roster`` of ``army`` with its ``cls`` units regrouped at
    ``size`` figures against itself as fielded; the regrouped army's score (draws half)."""

    army: str
    roster: str
    cls: str
    size: int
    units_before: int
    units_after: int
    battles: int
    wins: float

    def games(self) -> int:
        """Battles played."""
        return self.battles

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` view."""
        return {
            "army": self.army,
            "roster": self.roster,
            "class": self.cls,
            "size": self.size,
            "units_before": self.units_before,
            "units_after": self.units_after,
            "battles": self.battles,
            **self.summary(),
        }


def unit_size_effect(
    cases: Sequence[tuple[ArmyList, Roster, str, int]],
    *,
    battles: int = DEFAULT_BATTLES,
    seed: int = 2026,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> list[SizeEffect]:
    """What the size of units is worth at equal points: for each ``(army, roster, class, size)``,
    ``battles`` battles of the roster with its units of that class regrouped at that size
    (:func:`resized_force`: the same figures and points) against the roster as fielded, the side
    moving first alternating. Points per figure cannot see the difference; the lists cap unit
    sizes (``max_unit_figures``) because bigger battalions win more than their points say. A
    case whose roster has no such unit (without an elite company) is left out."""
    if battles < 1:
        raise InvalidDataError(gettext("battles must be at least 1, got {battles}").format(battles=battles))
    forces: list[Force] = []
    specs: list[BattleSpec] = []
    kept: list[tuple[ArmyList, Roster, str, int, int, int]] = []
    for army, roster, cls, size in cases:
        base = roster_force(army, roster)
        before = sum(1 for u in base if profile_class(u.profile) == cls and u.elite is None)
        if not before:
            continue
        variant = resized_force(base, cls, size)
        kept.append((army, roster, cls, size, before, len(variant) - (len(base) - before)))
        forces += [variant, base]
        tag = f"size:{seed}:{army.id}:{roster.id}:{cls}:{size}"
        specs += [(len(forces) - 2, len(forces) - 1, k % 2, f"{tag}:{k}") for k in range(battles)]
    scores = play(
        forces,
        specs,
        executor=executor,
        workers=workers,
        progress=progress,
        label="unit-size battles",
        conditions=BattleConditions(sampler=sampler),
    )
    return [
        SizeEffect(
            army.id,
            roster.id,
            cls,
            size,
            before,
            after,
            battles,
            sum(sc for sc, _ in scores[k * battles : (k + 1) * battles]),
        )
        for k, (army, roster, cls, size, before, after) in enumerate(kept)
    ]


def size_check_cases(
    armies: Sequence[ArmyList], sizes: dict[str, tuple[int, ...]] = SIZE_CHECK
) -> list[tuple[ArmyList, Roster, str, int]]:
    """The cases of ``points validate``'s unit-size check: each list's roster with the largest
    points limit (the first, when none has one), with each class and size of ``sizes``."""
    out: list[tuple[ArmyList, Roster, str, int]] = []
    for army in armies:
        if not army.rosters:
            continue
        roster = max(army.rosters, key=lambda r: r.points_limit or 0.0)
        out += [(army, roster, cls, n) for cls, options in sizes.items() for n in options]
    return out


# --- who moved first (2.1.4) -----------------------------------------------------------------------
@dataclass(frozen=True)
class InitiativeTally(Tally):
    """The battles of a pair of armies in which one side moved first (it had the initiative,
    2.1.4: the scenario sets it for the whole game): side A's score over them (draws half)."""

    first: str
    """The side that moved first: ``"A"`` or ``"B"``."""
    battles: int
    wins: float
    """Side A's score (draws half)."""
    draws: int

    def games(self) -> int:
        """Battles played with this side first."""
        return self.battles

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part: side A's chance when :attr:`first` moved first."""
        return {
            "battles": self.battles,
            "chance_a": self.rate,
            "interval_a": list(self.interval),
            "draws": self.draws,
        }


def initiative_tallies(
    specs: Sequence[BattleSpec], scores: Sequence[tuple[float, int]]
) -> tuple[InitiativeTally, InitiativeTally]:
    """Side A's (each spec's first force's) score split by who moved first (2.1.4): ``(A first,
    B first)``, from the same battles (they add up to the whole).

    >>> a, b = initiative_tallies([(0, 1, 0, "x"), (0, 1, 1, "y"), (0, 1, 0, "z")], [(1.0, 0), (0.5, 0), (0.0, 0)])
    >>> (a.battles, a.wins, a.draws), (b.battles, b.wins, b.draws)
    ((2, 1.0, 0), (1, 0.5, 1))
    """
    counts = [[0, 0.0, 0], [0, 0.0, 0]]
    for spec, (score, _) in zip(specs, scores, strict=True):
        c = counts[1 if spec[2] else 0]
        c[0] += 1
        c[1] += score
        c[2] += score == 0.5
    return (
        InitiativeTally("A", int(counts[0][0]), float(counts[0][1]), int(counts[0][2])),
        InitiativeTally("B", int(counts[1][0]), float(counts[1][1]), int(counts[1][2])),
    )


def initiative_differs(a_first: Tally, b_first: Tally) -> bool:
    """Who moves first changes side A's chance by more than chance allows: the two 95 % (Wilson)
    intervals do not overlap (no verdict while either side never moved first).

    >>> initiative_differs(InitiativeTally("A", 100, 65.0, 0), InitiativeTally("B", 100, 25.0, 0))
    True
    >>> initiative_differs(InitiativeTally("A", 100, 55.0, 0), InitiativeTally("B", 100, 45.0, 0))
    False
    """
    if not a_first.games() or not b_first.games():
        return False
    lo_a, hi_a = a_first.interval
    lo_b, hi_b = b_first.interval
    return hi_b < lo_a or hi_a < lo_b


# --- the check ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RosterSide:
    """One roster of the check."""

    army: str
    roster: str
    points: float
    points_limit: float | None
    units: int

    @property
    def label(self) -> str:
        """``army:roster``."""
        return f"{self.army}:{self.roster}"


@dataclass(frozen=True)
class RosterCell(Tally):
    """One pair of rosters: the first one's win rate over ``battles`` (draws half)."""

    a: int
    b: int
    battles: int
    wins: float
    predicted: float
    """The chance of ``a`` that :func:`szwadron.armies.balance.predicted_chance` gives from the points."""
    a_first: InitiativeTally | None = None
    """``a``'s battles moving first (2.1.4)."""
    b_first: InitiativeTally | None = None
    """``a``'s battles with ``b`` moving first."""

    def games(self) -> int:
        """Battles played."""
        return self.battles

    @property
    def first_mover(self) -> float | None:
        """The mean score of the side moving first over the pair's battles; ``None`` without the
        split."""
        if self.a_first is None or self.b_first is None or not self.battles:
            return None
        return (self.a_first.wins + self.b_first.battles - self.b_first.wins) / self.battles


@dataclass(frozen=True)
class FirstMoverScore(Tally):
    """The side moving first (the initiative, 2.1.4) over every pair of a check: its mean score
    (draws half) over all the battles, and the lowest and highest of the pairs' means."""

    battles: int
    wins: float
    """The first mover's score summed over the battles."""
    low: float
    high: float

    def games(self) -> int:
        """Battles played."""
        return self.battles

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part."""
        return {
            "battles": self.battles,
            "score": self.rate,
            "interval": list(self.interval),
            "pair_low": self.low,
            "pair_high": self.high,
        }


@dataclass(frozen=True)
class RosterValidation:
    """Every pair of example rosters of equal limits, army against army (module notes)."""

    sides: list[RosterSide]
    cells: list[RosterCell]
    battles: int
    seconds: float
    seed: int
    conditions: BattleConditions = CALIBRATION_CONDITIONS
    """How the battles were played: the share of units in cover (4.10.3, :func:`draw_cover`),
    flight and rally (6.6, 6.8), who met whom (:data:`szwadron.armies.duel.PAIRINGS`)."""

    @property
    def share_in_band(self) -> float:
        """Share of the pairs whose win rate is within 50 ± 5 %."""
        return sum(c.in_band for c in self.cells) / len(self.cells) if self.cells else 1.0

    @property
    def share_without_dice(self) -> float | None:
        """Share of the pairs whose chance is within 50 ± 5 %, the dice's noise taken out of the
        measured rates (:func:`szwadron.armies.spread.share_without_dice`); None without pairs, under
        its fewest battles a pair or where the dice make most of the spread."""
        if not self.cells:
            return None
        return share_without_dice([c.rate for c in self.cells], self.cells[0].battles, BAND)

    @property
    def share_ci_in_band(self) -> float:
        """Share of the pairs whose whole 95 % interval is within 50 ± 5 %."""
        if not self.cells:
            return 1.0
        return sum(BAND[0] <= c.interval[0] and c.interval[1] <= BAND[1] for c in self.cells) / len(
            self.cells
        )

    @property
    def rms(self) -> float:
        """Root mean square of (win rate − 50 %)."""
        if not self.cells:
            return 0.0
        return math.sqrt(sum((c.rate - 0.5) ** 2 for c in self.cells) / len(self.cells))

    def worst(self, k: int = 5) -> list[RosterCell]:
        """The ``k`` pairs furthest from even."""
        return sorted(self.cells, key=lambda c: -abs(c.rate - 0.5))[:k]

    @property
    def first_mover(self) -> FirstMoverScore | None:
        """The side moving first over every pair (:class:`FirstMoverScore`); ``None`` without
        pairs or without the split by who moved first."""
        means = [c.first_mover for c in self.cells]
        if not self.cells or any(m is None for m in means):
            return None
        wins = sum(c.first_mover * c.battles for c in self.cells if c.first_mover is not None)
        known = [m for m in means if m is not None]
        return FirstMoverScore(sum(c.battles for c in self.cells), wins, min(known), max(known))

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "seed": self.seed,
            "battles": self.battles,
            "seconds": self.seconds,
            "cover": self.conditions.cover,
            "flight": self.conditions.flight,
            "pairing": self.conditions.pairing,
            "concentrate": self.conditions.concentrate,
            "band": list(BAND),
            "share_in_band": self.share_in_band,
            "share_in_band_without_dice": self.share_without_dice,
            "share_interval_in_band": self.share_ci_in_band,
            "rms": self.rms,
            "rosters": [
                {"roster": s.label, "points": s.points, "points_limit": s.points_limit, "units": s.units}
                for s in self.sides
            ],
            "cells": [
                {
                    "a": self.sides[c.a].label,
                    "b": self.sides[c.b].label,
                    "battles": c.battles,
                    **c.summary(),
                    "predicted": c.predicted,
                }
                for c in self.cells
            ],
            **({} if (first := self.first_mover) is None else {"initiative": first.to_json()}),
        }


#: Sizes of the copies in :func:`fit_army_steepness`: each unit's figures times these.
STEEPNESS_SCALES: tuple[float, ...] = (0.85, 0.9, 0.95, 1.05, 1.1, 1.15)
#: Exponents ``b`` searched by :func:`fit_army_steepness`.
STEEPNESS_EXPONENTS: tuple[float, ...] = tuple(round(0.05 * k, 2) for k in range(31))


@dataclass(frozen=True)
class ArmySteepness:
    """:func:`fit_army_steepness`: ``κ_u = a · u^b`` and what it was fitted on."""

    a: float
    b: float
    battles: int
    seconds: float
    loglik: float

    def kappa(self, units: float) -> float:
        """κ for ``units`` units a side."""
        return float(self.a * units**self.b)


def _fit_kappa(x: Any, y: Any, iterations: int = 60) -> tuple[float, float]:
    """1-D logistic regression through the origin, ``P = σ(k x)``: ``(k, log-likelihood)``."""
    import numpy as np

    k = 1.0
    for _ in range(iterations):
        p = 0.5 * (1.0 + np.tanh(0.5 * k * x))  # σ(kx) without overflow
        h = float(np.sum(p * (1 - p) * x * x))
        if h <= 0:
            break
        step = float(np.sum((y - p) * x)) / h
        k += step
        if abs(step) < 1e-10:
            break
    z = k * x
    loglik = float(np.sum(y * -np.logaddexp(0, -z) + (1 - y) * -np.logaddexp(0, z)))
    return k, loglik


# long: the mirror battles' design and the fit of a · u^b share their arrays; split, they would pass them all along.
def fit_army_steepness(
    armies: Sequence[ArmyList],
    *,
    points: PointsFn = _stored,
    battles: int = 40,
    budgets: Sequence[float] = (1000.0, 2000.0),
    armies_per_budget: int = 2,
    seed: int = 2026,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    sampler: Sampler = DEFAULT_SAMPLER,
    draw: Callable[[ArmyList, float, random.Random], Force] | None = None,
) -> ArmySteepness:
    """How steeply the chance of a whole army rises with its points (the model's
    ``army_steepness``): ``armies_per_budget`` random armies of each list and budget
    (``draw(army, budget, rng)``, by default :func:`resampled_force`: the units its example
    rosters field) each fight ``battles``
    battles against each of their copies with every unit's figures scaled by
    :data:`STEEPNESS_SCALES` (guns stay one figure), at ``points``; then ``P(roster wins) = σ(a · u^b · log(points / points of the copy))`` with
    ``u`` the mean units a side is fitted: ``b`` on :data:`STEEPNESS_EXPONENTS` by the
    likelihood, ``a`` by logistic regression. Mirror battles carry no composition effect, so
    they measure the steepness alone."""
    import numpy as np

    if battles < 1:
        raise InvalidDataError(gettext("battles must be at least 1, got {battles}").format(battles=battles))
    t0, points = time.perf_counter(), memo_points(points)  # the same prices, each computed once
    forces: list[Force] = []
    specs: list[BattleSpec] = []
    xs: list[float] = []
    units: list[float] = []
    for army in armies:
        pools = roster_pools(army, points) if draw is None else {}
        for budget in budgets:
            for r in range(armies_per_budget):
                rng = random.Random(f"steepness:{seed}:{army.id}:{budget:g}:{r}")
                base = (
                    draw(army, budget, rng)
                    if draw
                    else resampled_force(army, budget, rng, points, pools=pools)
                )
                for scale in STEEPNESS_SCALES:
                    copy = [
                        u
                        if u.profile.kind.is_artillery
                        else u._replace(figures=max(1, round(u.figures * scale)))
                        for u in base
                    ]
                    ratio = math.log(force_points(base, points) / force_points(copy, points))
                    if ratio == 0.0:
                        continue
                    ia = len(forces)
                    forces += [base, copy]
                    for k in range(battles):
                        specs.append(
                            (ia, ia + 1, k % 2, f"steepness:{seed}:{army.id}:{budget:g}:{r}:{scale}:{k}")
                        )
                        xs.append(ratio)
                        units.append(float(len(base)))
    if not specs:
        raise InvalidDataError(gettext("no armies to measure the army steepness on"))
    scores = play(
        forces,
        specs,
        executor=executor,
        workers=workers,
        progress=progress,
        label="army steepness battles",
        conditions=BattleConditions(sampler=sampler),
    )
    y = np.array([sc for sc, _ in scores])
    x = np.array(xs)
    u = np.array(units)
    best: tuple[float, float, float] | None = None
    for b in STEEPNESS_EXPONENTS:
        a, loglik = _fit_kappa(x * u**b, y)
        if best is None or loglik > best[2]:
            best = (a, b, loglik)
    assert best is not None
    a, b, loglik = best
    if a <= 0:
        raise InvalidDataError(
            gettext("the battles do not show that more points win more often; cannot fit the army steepness")
        )
    return ArmySteepness(a, b, len(specs), time.perf_counter() - t0, loglik)


def _split_by_pair(
    pairs: Sequence[tuple[int, int]],
    specs: Sequence[BattleSpec],
    scores: Sequence[tuple[float, int]],
    battles: int,
) -> dict[tuple[int, int], tuple[InitiativeTally, InitiativeTally]]:
    """Each pair's battles split by who moved first (:func:`initiative_tallies`); a pair's
    ``battles`` specs are consecutive, in the order of ``pairs``."""
    return {
        pair: initiative_tallies(
            specs[n * battles : (n + 1) * battles], scores[n * battles : (n + 1) * battles]
        )
        for n, pair in enumerate(pairs)
    }


def validate_rosters(
    armies: Sequence[ArmyList],
    *,
    battles: int = DEFAULT_BATTLES,
    seed: int = 2026,
    model: PointsModel | None = None,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> RosterValidation:
    """Every pair of example rosters of different armies with the same points limit plays
    ``battles`` battles at the lists' stored points (module notes), under ``conditions``
    (:class:`szwadron.armies.duel.BattleConditions`: a share of the units in cover, 4.10.3,
    :func:`draw_cover`; flight and rally, 6.6, 6.8; who meets whom; module notes)."""

    if battles < 1:
        raise InvalidDataError(
            gettext("battles per pair must be at least 1, got {battles}").format(battles=battles)
        )
    t0 = time.perf_counter()
    model = model or load_model()
    sides: list[RosterSide] = []
    forces: list[Force] = []
    for army in armies:
        for roster in army.rosters:
            force = roster_force(army, roster)
            sides.append(
                RosterSide(army.id, roster.id, roster_points(army, roster), roster.points_limit, len(force))
            )
            forces.append(force)
    pairs = [
        (i, j)
        for i in range(len(sides))
        for j in range(i + 1, len(sides))
        if sides[i].army != sides[j].army and sides[i].points_limit == sides[j].points_limit
    ]
    specs: list[BattleSpec] = [
        (i, j, k % 2, f"rosters:{seed}:{sides[i].label}:{sides[j].label}:{k}")
        for i, j in pairs
        for k in range(battles)
    ]
    scores = play(
        forces,
        specs,
        executor=executor,
        workers=workers,
        progress=progress,
        conditions=conditions,
    )
    wins: dict[tuple[int, int], float] = {}
    for (i, j, _, _), (score, _) in zip(specs, scores, strict=True):
        wins[(i, j)] = wins.get((i, j), 0.0) + score
    split = _split_by_pair(pairs, specs, scores, battles)
    cells = [
        RosterCell(
            i,
            j,
            battles,
            wins.get((i, j), 0.0),
            predicted_chance(
                sides[i].points, sides[j].points, model.steepness_for((sides[i].units + sides[j].units) / 2)
            ),
            *split[(i, j)],
        )
        for i, j in pairs
    ]
    return RosterValidation(sides, cells, len(specs), time.perf_counter() - t0, seed, conditions)


@dataclass(frozen=True)
class PairResult(Tally):
    """``balance --battles``: two rosters' battles, the first one's score (draws half), and the
    same battles split by who moved first (:class:`InitiativeTally`; ``None`` only when built
    without them)."""

    battles: int
    wins: float
    draws: int
    seconds: float
    a_first: InitiativeTally | None = None
    """The battles in which A moved first (2.1.4)."""
    b_first: InitiativeTally | None = None
    """The battles in which B moved first."""

    @property
    def initiative_differs(self) -> bool:
        """A's chance moving first and moving second differ by more than their 95 % intervals
        allow (:func:`initiative_differs`)."""
        if self.a_first is None or self.b_first is None:
            return False
        return initiative_differs(self.a_first, self.b_first)

    @property
    def initiative_swing(self) -> float | None:
        """What moving first adds to a side's chance, on average over the two sides: half of A's
        chance moving first less A's chance moving second; ``None`` without both tallies."""
        if (
            self.a_first is None
            or self.b_first is None
            or not self.a_first.battles
            or not self.b_first.battles
        ):
            return None
        return (self.a_first.rate - self.b_first.rate) / 2

    @property
    def initiative_outweighs(self) -> bool:
        """Who moves first matters (:attr:`initiative_differs`) and weighs more than the
        difference between the two armies: :attr:`initiative_swing` is further from 0 than the
        played chance is from 50 %."""
        swing = self.initiative_swing
        return self.initiative_differs and swing is not None and abs(swing) > abs(self.rate - 0.5)

    def games(self) -> int:
        """Battles played."""
        return self.battles

    def evening(self, points_a: float, points_b: float, steepness: float) -> tuple[str, float, float] | None:
        """What would make the played chance even, at the army steepness ``steepness``:
        ``(stronger side "A" or "B", points it would field less, points the other would field
        more)``; ``None`` when 50 % is inside the 95 % interval (or one side always won: no
        logit to invert).

        >>> side, less, more = PairResult(100, 70.0, 0, 0.0).evening(1000, 1000, 8.0)
        >>> side, round(less), round(more)  # logit(0.7) / 8 = 0.106: 10 % of A, 11 % of B
        ('A', 100, 112)
        >>> PairResult(100, 52.0, 0, 0.0).evening(1000, 1000, 8.0) is None
        True
        """
        lo, hi = self.interval
        if lo <= 0.5 <= hi or not 0.0 < self.rate < 1.0:
            return None
        gap = math.log(self.rate / (1 - self.rate)) / steepness
        strong, weak = (points_a, points_b) if gap > 0 else (points_b, points_a)
        return ("A" if gap > 0 else "B", strong * (1 - math.exp(-abs(gap))), weak * (math.exp(abs(gap)) - 1))

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part."""
        return {
            "battles": self.battles,
            "chance_a": self.rate,
            "interval_a": list(self.interval),
            "draws": self.draws,
            "seconds": self.seconds,
            **(
                {}
                if self.a_first is None or self.b_first is None
                else {
                    "initiative": {
                        "a_first": self.a_first.to_json(),
                        "b_first": self.b_first.to_json(),
                        "differs": self.initiative_differs,
                        "swing": self.initiative_swing,
                        "outweighs": self.initiative_outweighs,
                    }
                }
            ),
        }


def battle_pair(
    army_a: ArmyList,
    roster_a: Roster,
    army_b: ArmyList,
    roster_b: Roster,
    *,
    battles: int = DEFAULT_BATTLES,
    seed: int = 2026,
    executor: Executor | None = None,
    workers: int | None = None,
    sampler: Sampler = DEFAULT_SAMPLER,
) -> PairResult:
    """Play ``battles`` seeded army battles of ``roster_a`` against ``roster_b`` (module notes),
    the side moving first alternating (A in the even battles, B in the odd ones), with A's score
    split by who moved first (:attr:`PairResult.a_first`, :attr:`PairResult.b_first`)."""
    if battles < 1:
        raise InvalidDataError(gettext("battles must be at least 1, got {battles}").format(battles=battles))
    t0 = time.perf_counter()
    forces = [roster_force(army_a, roster_a), roster_force(army_b, roster_b)]
    tag = f"{army_a.id}:{roster_a.id}:{army_b.id}:{roster_b.id}"
    specs: list[BattleSpec] = [(0, 1, k % 2, f"pair:{seed}:{tag}:{k}") for k in range(battles)]
    if workers is None and executor is None and battles <= 4 * BATTLE_TASK_SIZE:
        workers = 1  # a pool costs more than it saves on a few hundred battles
    scores = play(
        forces, specs, executor=executor, workers=workers, conditions=BattleConditions(sampler=sampler)
    )
    wins = sum(sc for sc, _ in scores)
    draws = sum(1 for sc, _ in scores if sc == 0.5)
    a_first, b_first = initiative_tallies(specs, scores)
    return PairResult(battles, wins, draws, time.perf_counter() - t0, a_first, b_first)


__all__ = [
    "BATTLE_TASK_SIZE",
    "DEFAULT_BATTLES",
    "RANDOM_ARMY_SHARES",
    "RANDOM_UNIT_FIGURES",
    "SHARE_CONCENTRATION",
    "SIZE_CHECK",
    "STEEPNESS_EXPONENTS",
    "STEEPNESS_SCALES",
    "ArmySteepness",
    "BattleSpec",
    "FirstMoverScore",
    "Force",
    "ForceUnit",
    "InitiativeTally",
    "PairResult",
    "PlainForce",
    "PointsFn",
    "RosterCell",
    "RosterSide",
    "RosterValidation",
    "SizeEffect",
    "battle_pair",
    "check_cover",
    "draw_cover",
    "fit_army_steepness",
    "force_points",
    "initiative_differs",
    "initiative_tallies",
    "memo_points",
    "mixed_battle_design",
    "play",
    "pool_costs",
    "profile_class",
    "random_force",
    "resampled_force",
    "resized_force",
    "roster_force",
    "roster_points",
    "roster_pools",
    "run_battle_batch",
    "size_check_cases",
    "unit_size_effect",
    "validate_rosters",
]
