"""Rosters nobody fitted the points to (issue 14): random legal rosters and an exploit search.

The example rosters are what the calibration is fitted on, so their win rates say little about a
roster an organiser has never seen. This module makes others, every one checked by the list's own
constraint checker (:func:`szwadron.armies.rosters.validate_roster`) and spending most of its
limit (at least :data:`MIN_SPEND` of it):

- :func:`random_roster` — units of random profiles (limbers attached to the guns that need them,
  7.2), random sizes within the list's unit-size caps, sometimes a company of another infantry
  profile attached (1.1), until the limit is spent; redrawn until legal.
- :func:`exploit_search` — a black-box search over legal rosters for the one with the highest
  win rate against a field of rosters (the example rosters of the other lists at the same limit).
  A roster's rate over a hundred battles is noisy (± 5 points) beside what separates two rosters
  (random legal rosters spread ± 3.5 points, a roster and its neighbour about one), so the search
  first *races* half its budget of random legal rosters: all play the field on the same dice
  (common random numbers), the best quarter plays again at twice the battles, and so on until one
  is left, its rate the mean of all its battles. Then it *climbs* from the winner: each step
  changes one unit (its size, its profile, its count, an attached company; removes it or adds a
  new one), refills the limit, keeps the roster only when the checker passes it, and plays a few
  such neighbours beside the best roster so far, all on the same dice, keeping whichever wins
  most. The best so far plays again every step: a rate it was kept for is the luckiest of
  several, and a climb that compared newcomers with it would stall behind its luck. The budget is
  the number of rosters played (raced or climbed to). The best find is played again with fresh
  seeds.

Everything is seeded: the same seed, the same rosters and numbers on any executor.

>>> import random
>>> from szwadron.loading import bundled_dir, load_army_list
>>> france = load_army_list(bundled_dir("armylists") / "france.toml")
>>> r = random_roster(france, 1000.0, random.Random("doc"))
>>> from szwadron.armies.rosters import validate_roster
>>> report = validate_roster(france, r)
>>> report.ok and 970 <= report.points <= 1000
True
"""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from szwadron.armies.battles import (
    BattleSpec,
    Force,
    PointsFn,
    play,
    priced,
    profile_class,
    roster_force,
    roster_points,
)
from szwadron.armies.duel import CALIBRATION_CONDITIONS, BattleConditions
from szwadron.armies.rosters import validate_roster
from szwadron.armies.runs import BAND, ProgressFn, wilson_interval
from szwadron.armies.spread import Spread, share_without_dice, spread_of
from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext
from szwadron.models import ArmyList, Attachment, Kind, Profile, Roster, RosterConstraint, RosterEntry

#: A generated roster spends at least this share of its limit (the example rosters spend 99–100 %).
MIN_SPEND = 0.97
#: Draws before :func:`random_roster` gives up.
MAX_DRAWS = 400
#: Steps :func:`random_roster` takes to mend a draw that breaks constraints (:func:`_repair`).
REPAIR_STEPS = 12
#: Figures of a random unit by class when the list sets no cap: (fewest, most).
UNIT_FIGURES: dict[str, tuple[int, int]] = {
    "line": (6, 12),
    "skirmishers": (4, 8),
    "cavalry": (4, 8),
    "artillery": (1, 1),
}
#: Chance that a random infantry unit carries a company of another infantry profile (1.1).
ATTACH_CHANCE = 0.15
#: Battles per opponent of the field for one roster of the search.
SEARCH_BATTLES = 20
#: The share of the exploit search's race that plays again each lap (1 in 4), at twice the battles.
RACE_KEEP = 4
#: Battles per opponent when the search's best find is played again.
CONFIRM_BATTLES = 100


def _fighting(army: ArmyList) -> list[Profile]:
    return [p for p in army.profiles if p.kind is not Kind.LIMBER]


def size_bounds(army: ArmyList, profile: Profile, low: int = 1, high: int = 12) -> tuple[int, int]:
    """The figures a unit of ``profile`` may have, an attached company included: the list's
    ``min/max_unit_figures`` of the constraints that select it, within ``low``–``high``."""
    for c in army.constraints:
        if c.selects(profile):
            if c.max_unit_figures is not None:
                high = min(high, c.max_unit_figures)
            if c.min_unit_figures is not None:
                low = max(low, c.min_unit_figures)
    return min(low, high), high


class _Facts:
    """What the drawing functions below ask of one army list again and again, worked out once
    (issue 14: drawing the calibration's random legal rosters asked the constraints for a unit's
    size bounds 1.4 million times and priced the same few units 1.7 million times): the fighting
    profiles, the limber, the profiles by id, each profile's size bounds, which profiles a
    constraint selects, and the units built and priced so far. Everything is a pure function of
    the (frozen) list, so the answers are the ones the functions would compute."""

    def __init__(self, army: ArmyList) -> None:
        self.army = army
        self.fighting = _fighting(army)
        self.limber = next((p for p in army.profiles if p.kind is Kind.LIMBER), None)
        self.by_id = {p.id: p for p in army.profiles}
        self.bounds: dict[str, tuple[int, int]] = {}
        self.selected: dict[int, tuple[RosterConstraint, list[Profile], frozenset[str]]] = {}
        self.entries: dict[tuple[str, int, tuple[Attachment, ...]], RosterEntry] = {}
        self.costs: dict[int, tuple[RosterEntry, float]] = {}
        self.attachments: dict[tuple[str, int], Attachment] = {}
        self.plain: dict[str, bool] = {}

    def size_bounds(self, profile: Profile) -> tuple[int, int]:
        """:func:`size_bounds` within :data:`UNIT_FIGURES` of the profile's class."""
        hit = self.bounds.get(profile.id)
        if hit is None:
            hit = self.bounds[profile.id] = size_bounds(
                self.army, profile, *UNIT_FIGURES[profile_class(profile)]
            )
        return hit

    def selects(self, c: RosterConstraint) -> tuple[list[Profile], frozenset[str]]:
        """The fighting profiles ``c`` (one of the list's constraints) selects, and the ids of
        every profile it selects."""
        hit = self.selected.get(id(c))
        if hit is None or hit[0] is not c:  # the list keeps ``c``, so its id is not reused
            chosen = frozenset(p.id for p in self.army.profiles if c.selects(p))
            hit = self.selected[id(c)] = (c, [p for p in self.fighting if p.id in chosen], chosen)
        return hit[1], hit[2]

    def plain_infantry(self, profile: Profile) -> bool:
        """Infantry without skirmish: a unit that may carry a company of another profile (1.1)."""
        hit = self.plain.get(profile.id)
        if hit is None:
            hit = self.plain[profile.id] = profile.kind is Kind.INFANTRY and not profile.has("skirmish")
        return hit

    def attachment(self, profile_id: str, figures: int) -> Attachment:
        """``figures`` figures of ``profile_id`` attached to a unit."""
        hit = self.attachments.get((profile_id, figures))
        if hit is None:
            hit = self.attachments[profile_id, figures] = Attachment(profile=profile_id, figures=figures)
        return hit

    def entry(self, profile: Profile, figures: int, attached: tuple[Attachment, ...] = ()) -> RosterEntry:
        """:func:`_entry`: a unit of ``profile``; a gun with a limbered move gets its limber (7.2)."""
        key = (profile.id, figures, attached)
        hit = self.entries.get(key)
        if hit is None:
            limber = self.limber
            if profile.move_limbered is not None and limber is not None:
                attached = (self.attachment(limber.id, figures),)
            hit = self.entries[key] = RosterEntry(profile=profile.id, figures=figures, attached=attached)
        return hit

    def cost(self, entry: RosterEntry) -> float:
        """:func:`_unit_cost`: what one unit of ``entry`` costs at the list's points."""
        hit = self.costs.get(id(entry))
        if hit is None or hit[0] is not entry:  # kept here, so its id is not reused
            if len(self.costs) >= _COSTS_KEPT:  # the search's copies of units would pile up
                self.costs.clear()
            hit = self.costs[id(entry)] = (entry, roster_points(self.army, Roster(id="unit", units=(entry,))))
        return hit[1]

    def attached_figures(self, entry: RosterEntry) -> int:
        """Fighting figures attached to each unit of ``entry`` (a limber is not one, 7.2)."""
        return sum(a.figures for a in entry.attached if self.by_id[a.profile].kind is not Kind.LIMBER)


#: Unit costs a :class:`_Facts` keeps before it starts afresh.
_COSTS_KEPT = 1 << 16
#: :class:`_Facts` of the lists drawn from lately, by ``id`` (the list is kept, so its id is not reused).
_FACTS: dict[int, _Facts] = {}
#: Lists :data:`_FACTS` keeps before it starts afresh.
_FACTS_KEPT = 32


def _facts(army: ArmyList) -> _Facts:
    hit = _FACTS.get(id(army))
    if hit is None or hit.army is not army:
        if len(_FACTS) >= _FACTS_KEPT:
            _FACTS.clear()
        hit = _FACTS[id(army)] = _Facts(army)
    return hit


def _size_bounds(army: ArmyList, profile: Profile) -> tuple[int, int]:
    """:func:`size_bounds` within :data:`UNIT_FIGURES` of the profile's class."""
    return _facts(army).size_bounds(profile)


def _limber(army: ArmyList) -> Profile | None:
    return _facts(army).limber


def _entry(
    army: ArmyList, profile: Profile, figures: int, attached: tuple[Attachment, ...] = ()
) -> RosterEntry:
    """A unit of ``profile``; a gun with a limbered move gets its limber (7.2)."""
    return _facts(army).entry(profile, figures, attached)


def _unit_cost(army: ArmyList, entry: RosterEntry) -> float:
    return _facts(army).cost(entry)


def _merge(entries: Sequence[RosterEntry]) -> tuple[RosterEntry, ...]:
    """Equal units as one entry with a count, in a stable order."""
    counts: dict[tuple[str, int, tuple[Attachment, ...]], int] = {}
    for e in entries:
        key = (e.profile, e.figures, e.attached)
        counts[key] = counts.get(key, 0) + e.count
    return tuple(
        RosterEntry(profile=p, figures=f, count=n, attached=a)
        for (p, f, a), n in sorted(counts.items(), key=lambda kv: (kv[0][0], -kv[0][1], repr(kv[0][2])))
    )


def _units(roster: Roster) -> list[RosterEntry]:
    """One entry per unit (count 1)."""
    return [e.model_copy(update={"count": 1}) for e in roster.units for _ in range(e.count)]


def _random_unit(
    army: ArmyList, rng: random.Random, room: float, among: Sequence[Profile] | None = None
) -> RosterEntry | None:
    """A random unit costing at most ``room`` (None when none fits), of one of the profiles
    ``among`` (default: every fighting profile)."""
    facts = _facts(army)
    profiles = list(among) if among else facts.fighting
    for _ in range(8):
        profile = rng.choice(profiles)
        low, high = facts.size_bounds(profile)
        figures = rng.randint(low, high)
        attached: tuple[Attachment, ...] = ()
        if facts.plain_infantry(profile) and rng.random() < ATTACH_CHANCE:
            others = [
                p
                for p in profiles
                if p.kind is Kind.INFANTRY
                and p.id != profile.id
                and not p.has("skirmish")
                and p.morale <= profile.morale  # attached-morale
            ]
            if others and figures > 2:
                k = rng.randint(1, 2)
                attached = (facts.attachment(rng.choice(others).id, k),)
                figures -= k
        entry = facts.entry(profile, figures, attached)
        if facts.cost(entry) <= room + 1e-9:
            return entry
    return None


def _fill(army: ArmyList, units: list[RosterEntry], limit: float, rng: random.Random) -> list[RosterEntry]:
    """Add random units while they fit, then grow units one figure at a time (within their caps)
    until the limit is spent as far as it can be."""
    facts = _facts(army)
    spent = sum(facts.cost(e) for e in units)
    misses = 0
    while misses < 6:
        unit = _random_unit(army, rng, limit - spent)
        if unit is None:
            misses += 1
            continue
        units.append(unit)
        spent += facts.cost(unit)
    order = list(range(len(units)))
    rng.shuffle(order)
    for i in order:
        e = units[i]
        profile = facts.by_id[e.profile]
        _, high = facts.size_bounds(profile)
        while e.figures + facts.attached_figures(e) < high:
            bigger = facts.entry(profile, e.figures + 1, e.attached)
            extra = facts.cost(bigger) - facts.cost(e)
            if spent + extra > limit + 1e-9:
                break
            units[i], e = bigger, bigger
            spent += extra
    return units


def _legal(army: ArmyList, units: Sequence[RosterEntry], limit: float, rid: str) -> Roster | None:
    if not units:
        return None
    roster = Roster(id=rid, points_limit=limit, units=_merge(units))
    report = validate_roster(army, roster)
    if not report.ok or report.points is None or report.points < MIN_SPEND * limit:
        return None
    return roster


def random_roster(army: ArmyList, limit: float, rng: random.Random, rid: str = "random") -> Roster:
    """A random legal roster of ``army`` spending at least :data:`MIN_SPEND` of ``limit`` at the
    stored points (module notes).

    Raises
    ------
    InvalidDataError
        No legal roster found in :data:`MAX_DRAWS` draws (constraints that random units cannot
        meet), or a profile without points.
    """
    for _ in range(MAX_DRAWS):
        units = _fill(army, [], limit, rng)
        roster = _legal(army, units, limit, rid) or _repair(army, units, limit, rng, rid)
        if roster is not None:
            return roster
    raise InvalidDataError(
        gettext(
            "army list {id!r}: no legal random roster of {limit:g} points found in {MAX_DRAWS} draws"
        ).format(id=army.id, limit=limit, MAX_DRAWS=MAX_DRAWS)
    )


def _repair(
    army: ArmyList, units: list[RosterEntry], limit: float, rng: random.Random, rid: str
) -> Roster | None:
    """Mend a random roster that breaks constraints, a few steps at most (None when it stays
    illegal): each step takes one broken constraint at random — over a maximum, or a unit too
    big or with too many attached figures: a unit it counts leaves; under a minimum: a unit it
    does not count leaves and one it counts comes in — and refills the limit. Without it a list
    with several share constraints (Warsaw at 2,000 points: cavalry at most a third, infantry at
    least half, few krakusi) drew a legal roster once in 150 tries, and ``points validate
    --held-out`` could fail on an unlucky seed."""
    units = list(units)
    facts = _facts(army)
    for _ in range(REPAIR_STEPS):
        if not units:
            return None
        roster = Roster(id=rid, points_limit=limit, units=_merge(units))
        report = validate_roster(army, roster)
        if report.ok:
            enough = report.points is not None and report.points >= MIN_SPEND * limit
            return roster if enough else None
        breach = rng.choice(report.broken)
        c = next((c for c in army.constraints if c.id == breach.constraint), None)
        among, chosen = facts.selects(c) if c is not None else ([], frozenset())
        counted = [i for i, e in enumerate(units) if c is None or e.profile in chosen]
        if breach.entry is not None or breach.bound == "max" or c is None:
            if breach.entry is not None:
                bad = roster.units[breach.entry]
                counted = [
                    i
                    for i, e in enumerate(units)
                    if (e.profile, e.figures, e.attached) == (bad.profile, bad.figures, bad.attached)
                ]
            if not counted:
                return None
            units.pop(rng.choice(counted))
        else:
            others = [i for i in range(len(units)) if i not in counted]
            if others:
                units.pop(rng.choice(others))
            spent = sum(facts.cost(e) for e in units)
            add = _random_unit(army, rng, limit - spent, among)
            if add is not None:
                units.append(add)
        units = _fill(army, units, limit, rng)
    return _legal(army, units, limit, rid)


def _neighbour(army: ArmyList, roster: Roster, rng: random.Random, rid: str) -> Roster | None:
    """One step of the climb: change one unit, refill the limit; None when not legal."""
    limit = roster.points_limit or 0.0
    units = _units(roster)
    move = rng.choice(("size", "size", "profile", "remove", "add", "attach", "clone"))
    i = rng.randrange(len(units))
    e = units[i]
    profile = army.profile(e.profile)
    if move == "size":
        low, high = _size_bounds(army, profile)
        own = e.figures + rng.choice((-2, -1, 1, 2))
        if (
            not 1 <= own
            or own + sum(a.figures for a in e.attached if army.profile(a.profile).kind is not Kind.LIMBER)
            > high
        ):
            return None
        if profile.move_limbered is None and own < low and not e.attached:
            return None
        units[i] = _entry(army, profile, own, e.attached)
    elif move == "profile":
        same = [
            p for p in _fighting(army) if profile_class(p) == profile_class(profile) and p.id != profile.id
        ]
        if not same:
            return None
        new = rng.choice(same)
        low, high = _size_bounds(army, new)
        units[i] = _entry(army, new, min(max(e.figures, low), high))
    elif move == "remove":
        if len(units) < 2:
            return None
        del units[i]
    elif move == "attach":
        if profile.kind is not Kind.INFANTRY or profile.has("skirmish"):
            return None
        others = [
            p
            for p in _fighting(army)
            if p.kind is Kind.INFANTRY and p.id != profile.id and p.morale <= profile.morale
        ]
        if not others:
            return None
        k = rng.randint(1, max(1, e.figures - 1))
        if e.figures - k < 1:
            return None
        units[i] = _entry(
            army, profile, e.figures - k, (Attachment(profile=rng.choice(others).id, figures=k),)
        )
    elif move == "clone":
        units.append(e)
        del units[rng.randrange(len(units))]
    # "add" and every other move: refill what is left of the limit
    return _legal(army, _fill(army, units, limit, rng), limit, rid)


@dataclass(frozen=True)
class SearchResult:
    """The best roster :func:`exploit_search` found against its field."""

    army: str
    limit: float
    roster: Roster
    rate: float
    """Its win rate (draws half) in the search: over the battles of the climb's last step, or of
    the race when there was no climb (biased upwards: the best of several)."""
    confirmed: float
    """Its win rate over :data:`CONFIRM_BATTLES` fresh battles a field roster."""
    evaluated: int
    """Rosters played."""
    battles: int = 0
    """The fresh battles of :attr:`confirmed` (:data:`CONFIRM_BATTLES` a field roster)."""

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of :attr:`confirmed` (Wilson, draws half): about ± 4 points over
        five field rosters. A fair measure of this find; the highest of many finds'
        confirmations is biased upwards, and only a find played again with fresh seeds
        (:func:`field_rates`) tells what it wins (issue 14)."""
        return wilson_interval(self.confirmed * self.battles, self.battles)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part."""
        return {
            "army": self.army,
            "points_limit": self.limit,
            "rate_in_search": self.rate,
            "win_rate": self.confirmed,
            "interval": list(self.interval),
            "battles": self.battles,
            "evaluated": self.evaluated,
            "roster": self.roster.model_dump(mode="json", exclude_defaults=True),
        }


def field_rates(
    army: ArmyList,
    rosters: Sequence[Roster],
    field: Sequence[tuple[ArmyList, Roster]],
    battles: int,
    tag: str,
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
    same_dice: bool = False,
) -> list[float]:
    """Each roster's mean score (draws half) against every field roster, ``battles`` battles
    each, half with each side first, under ``conditions``
    (:func:`szwadron.armies.duel.run_army_battle`), seeded by ``tag`` (the same tag, the same
    battles); with ``same_dice`` every roster's battles against a field roster are seeded alike
    (common random numbers). The exploit search plays its rosters with it, and a find can be
    played again with more battles and a fresh tag: the best of several rates is biased upwards,
    a fresh one is not (issue 14)."""
    forces: list[Force] = [roster_force(a, r) for a, r in field]
    specs: list[BattleSpec] = []
    for k, roster in enumerate(rosters):
        forces.append(roster_force(army, roster))
        me = len(forces) - 1
        for j, (fa, fr) in enumerate(field):
            mine = tag if same_dice else f"{tag}:{k}"
            specs += [(me, j, b % 2, f"{mine}:{fa.id}:{fr.id}:{b}") for b in range(battles)]
    scores = play(
        forces,
        specs,
        executor=executor,
        workers=workers,
        label="exploit search",
        conditions=conditions,
    )
    per = len(field) * battles
    return [sum(s for s, _ in scores[k * per : (k + 1) * per]) / per for k in range(len(rosters))]


def _race(
    starts: Sequence[Roster], run: Callable[..., list[float]], battles: int, tag: str
) -> tuple[Roster, float]:
    """The exploit search's race: ``starts`` all play the field on the same dice, ``battles``
    battles a field roster; the best :data:`RACE_KEEP`-th (at least one) plays again at twice the
    battles, and so on until one is left. Returns it and its rate over all its battles (ties: the
    earlier start)."""
    racing = list(range(len(starts)))
    won = [0.0] * len(starts)  # battles won (draws half) a field roster, over the race
    played = [0] * len(starts)
    n, lap = battles, 0
    while True:
        lap += 1
        rates = run([starts[k] for k in racing], n, f"{tag}:race{lap}", same_dice=True)
        for k, rate in zip(racing, rates, strict=True):
            won[k] += rate * n
            played[k] += n
        racing.sort(key=lambda k: (-won[k] / played[k], k))
        if len(racing) == 1:
            return starts[racing[0]], won[racing[0]] / played[racing[0]]
        racing = racing[: -(-len(racing) // RACE_KEEP)]
        n *= 2


def _climb(
    army: ArmyList,
    start: tuple[Roster, float],
    rng: random.Random,
    run: Callable[..., list[float]],
    spent: tuple[int, int],
    batch: int,
    battles: int,
    tag: str,
    progress: ProgressFn | None,
    label: str,
) -> tuple[Roster, float, int]:
    """The exploit search's climb from ``start`` (a roster and its rate) while rosters played
    (``spent``: so far, the budget) are left: ``batch`` neighbours a step, played beside the best
    so far on the same dice, ``battles`` a field roster; the best so far plays again each step (its
    rate was the luckiest of several; ``progress`` is told under ``label``). Returns the best, its
    rate in its last step and the rosters played."""
    best, best_rate = start
    evaluated, budget = spent
    step = 0
    while evaluated < budget:
        candidates: list[Roster] = []
        tries = 0
        while len(candidates) < min(batch, budget - evaluated) and tries < 200:
            tries += 1
            found = _neighbour(army, best, rng, best.id)
            if found is not None and found != best and found not in candidates:
                candidates.append(found)
        if not candidates:
            break
        step += 1
        rates = run([best, *candidates], battles, f"{tag}:step{step}", same_dice=True)
        evaluated += len(candidates)
        k = max(range(len(rates)), key=lambda i: (rates[i], -i))
        best, best_rate = ([best, *candidates][k], rates[k])
        if progress is not None:
            progress(evaluated, budget, label)
    return best, best_rate, evaluated


def exploit_search(
    army: ArmyList,
    limit: float,
    field: Sequence[tuple[ArmyList, Roster]],
    *,
    budget: int,
    seed: int | str = 2026,
    battles: int = SEARCH_BATTLES,
    batch: int = 4,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> SearchResult:
    """Search the legal rosters of ``army`` at ``limit`` for the highest win rate against
    ``field`` (module notes): ``budget`` rosters played — half of them (rounded up) random legal
    rosters raced against one another, ``battles`` battles against each field roster in the first
    lap, the best :data:`RACE_KEEP`-th again at twice the battles each lap; the rest neighbours
    of the race's winner, ``batch`` at a time beside the best so far, ``battles`` each; every lap
    and step on the same dice (common random numbers, so the rosters compared are compared like
    with like; the rosters of a lap or step go to the executor together). The best is then played
    :data:`CONFIRM_BATTLES` battles a field roster with fresh seeds. Every battle is played under
    ``conditions`` (:class:`szwadron.armies.duel.BattleConditions`: the share of units in cover,
    4.10.3; flight and rally, 6.6, 6.8; who meets whom, :data:`szwadron.armies.duel.PAIRINGS`).

    Raises
    ------
    InvalidDataError
        A budget below 1 or an empty field.
    """
    if budget < 1:
        raise InvalidDataError(
            gettext("the search budget must be at least 1 roster, got {budget}").format(budget=budget)
        )
    if not field:
        raise InvalidDataError(
            gettext("no field to search against for {id!r} at {limit:g} points").format(
                id=army.id, limit=limit
            )
        )
    rng = random.Random(f"search:{seed}:{army.id}:{limit:g}")
    tag = f"search:{seed}:{army.id}:{limit:g}"

    def run(rosters: Sequence[Roster], n: int, seeds: str, same_dice: bool = False) -> list[float]:
        return field_rates(
            army,
            rosters,
            field,
            n,
            seeds,
            executor=executor,
            workers=workers,
            conditions=conditions,
            same_dice=same_dice,
        )

    # 1. the race of random legal rosters; 2. the climb from its winner
    starts = [
        random_roster(army, limit, rng, rid=f"search-{army.id}-{limit:g}")
        for _ in range(max(1, (budget + 1) // 2))
    ]
    evaluated = len(starts)
    best, best_rate = _race(starts, run, battles, tag)
    label = f"exploit search {army.id} {limit:g}"
    if progress is not None:
        progress(evaluated, budget, label)
    best, best_rate, evaluated = _climb(
        army, (best, best_rate), rng, run, (evaluated, budget), batch, battles, tag, progress, label
    )
    confirmed = run([best], CONFIRM_BATTLES, f"{tag}:confirm")[0]
    return SearchResult(army.id, limit, best, best_rate, confirmed, evaluated, CONFIRM_BATTLES * len(field))


# --- held-out validation ---------------------------------------------------------------------
@dataclass(frozen=True)
class HeldOutRoster:
    """A roster of the held-out set: where it came from and how it did against its field."""

    army: str
    roster: Roster
    source: str
    """``random`` (a random legal draw), ``search`` (the exploit search's best find) or, in
    :attr:`HeldOutValidation.examples`, ``example`` (an example roster of the lists)."""
    points: float
    field_rate: float
    """Its mean win rate against every roster of another list at its limit (the field)."""

    @property
    def label(self) -> str:
        """``army:roster``."""
        return f"{self.army}:{self.roster.id}"


@dataclass(frozen=True)
class HeldOutValidation:
    """:func:`held_out_validation`: rosters never used in fitting, against one another and the
    example rosters of the other lists at the same limit."""

    rosters: list[HeldOutRoster]
    pairs: list[tuple[str, str, float]]
    """``(roster a, roster b, win rate of a)`` of every pair with a held-out roster in it."""
    battles: int
    """Battles a pair."""
    searches: list[SearchResult]
    seconds: float
    seed: int
    conditions: BattleConditions = CALIBRATION_CONDITIONS
    """How every battle, the search's too, was played: the share of units in cover (4.10.3),
    flight and rally (6.6, 6.8), who met whom (:data:`szwadron.armies.duel.PAIRINGS`)."""
    examples: list[HeldOutRoster] = dataclasses.field(default_factory=list)
    """The example rosters (source ``example``), each with its mean win rate against the held-out
    rosters of the other lists at its limit: one the points leave weak or strong against the rosters
    players build (``scripts/even_roster.py`` evens it)."""
    limits: list[float] = dataclasses.field(default_factory=list)
    """The points limit of each pair of :attr:`pairs` (the same order)."""

    @property
    def spread(self) -> Spread | None:
        """Where the pairs' spread comes from (:func:`szwadron.armies.spread.spread_of`, strengths
        fitted per points limit): how strong a roster is against the whole field, matchups, dice."""
        if len(self.limits) != len(self.pairs):
            return None
        cells = [(limit, a, b, rate) for limit, (a, b, rate) in zip(self.limits, self.pairs, strict=True)]
        return spread_of(cells, self.battles)

    @property
    def ceiling(self) -> float | None:
        """Share of the pairs within 50 ± 5 % were every roster exactly even against its field:
        each pair's rate less the two rosters' own distances from 50 % (their rates against the
        field, :attr:`HeldOutRoster.field_rate`) — what the matchups and the dice leave, whatever
        the points. None without the pairs' limits or a rate for each roster."""
        if not self.pairs or len(self.limits) != len(self.pairs):
            return None
        own = {(r.roster.points_limit, r.label): r.field_rate - 0.5 for r in [*self.rosters, *self.examples]}
        lo, hi = BAND
        inside = 0
        for limit, (a, b, rate) in zip(self.limits, self.pairs, strict=True):
            if (limit, a) not in own or (limit, b) not in own:
                return None
            inside += lo <= rate - own[(limit, a)] + own[(limit, b)] <= hi
        return inside / len(self.pairs)

    @property
    def share_in_band(self) -> float:
        """Share of the pairs within 50 ± 5 %."""
        lo, hi = BAND
        return sum(lo <= r <= hi for _, _, r in self.pairs) / len(self.pairs) if self.pairs else 1.0

    @property
    def share_without_dice(self) -> float | None:
        """Share of the pairs whose chance is within 50 ± 5 %, the dice's noise taken out of the
        measured rates (:func:`szwadron.armies.spread.share_without_dice`); None without pairs, under
        its fewest battles a pair or where the dice make most of the spread."""
        return share_without_dice([r for *_, r in self.pairs], self.battles, BAND)

    @property
    def rms(self) -> float:
        """Root mean square of (win rate − 50 %) over the pairs."""
        if not self.pairs:
            return 0.0
        return math.sqrt(sum((r - 0.5) ** 2 for _, _, r in self.pairs) / len(self.pairs))

    @property
    def worst(self) -> HeldOutRoster | None:
        """The held-out roster with the highest win rate against its field."""
        return max(self.rosters, key=lambda r: r.field_rate, default=None)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part; each cell names its points limit (the labels of the held-out
        rosters repeat from one limit to the next)."""
        worst = self.worst
        limits: list[float | None] = (
            list(self.limits) if len(self.limits) == len(self.pairs) else [None] * len(self.pairs)
        )
        return {
            "seed": self.seed,
            "battles": self.battles,
            "seconds": self.seconds,
            "cover": self.conditions.cover,
            "flight": self.conditions.flight,
            "pairing": self.conditions.pairing,
            "concentrate": self.conditions.concentrate,
            "band": list(BAND),
            "pairs": len(self.pairs),
            "share_in_band": self.share_in_band,
            "share_in_band_without_dice": self.share_without_dice,
            "rms": self.rms,
            "worst": None if worst is None else {"roster": worst.label, "field_rate": worst.field_rate},
            "spread": None if (spread := self.spread) is None else spread.to_json(),
            "ceiling": self.ceiling,
            "rosters": [
                {
                    "roster": r.label,
                    "source": r.source,
                    "points": r.points,
                    "points_limit": r.roster.points_limit,
                    "field_rate": r.field_rate,
                    "units": [e.model_dump(mode="json", exclude_defaults=True) for e in r.roster.units],
                }
                for r in self.rosters
            ],
            "cells": [
                {"a": a, "b": b, "win_rate": rate, **({"points_limit": lim} if lim is not None else {})}
                for (a, b, rate), lim in zip(self.pairs, limits, strict=True)
            ],
            "searches": [s.to_json() for s in self.searches],
            "examples": [
                {"roster": r.label, "points_limit": r.roster.points_limit, "field_rate": r.field_rate}
                for r in self.examples
            ],
        }


# long: the held-out check's steps in order (draw rosters, run the search, play every pair, tally band, RMS and the strongest), each a call or a few lines.
def held_out_validation(
    armies: Sequence[ArmyList],
    *,
    random_rosters: int = 2,
    search: int = 0,
    battles: int = 200,
    seed: int = 2026,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    conditions: BattleConditions = CALIBRATION_CONDITIONS,
) -> HeldOutValidation:
    """The held-out check of ``points validate``: for every list and every points limit of the
    example rosters, ``random_rosters`` random legal rosters (:func:`random_roster`) and, with
    ``search`` > 0, the exploit search's best find (:func:`exploit_search` with a budget of
    ``search`` rosters, against the example rosters of the other lists) — rosters the
    calibration never saw (its seeds are its own). Every pair of rosters of different lists at
    the same limit with a held-out roster in it plays ``battles`` battles; each held-out
    roster's mean against all of its pairs is its rate against the field. Every battle, the
    search's too, is played under ``conditions`` (:class:`szwadron.armies.duel.BattleConditions`;
    the default is the calibration's: open ground, no flight, the dice pairing the units): a
    share of units in cover (4.10.3, :func:`szwadron.armies.duel.draw_cover`), flight and rally
    (6.6, 6.8), who meets whom (the dice or a target policy of the side with the initiative:
    :func:`szwadron.armies.duel.choose_targets`)."""

    if battles < 1:
        raise InvalidDataError(
            gettext("battles per pair must be at least 1, got {battles}").format(battles=battles)
        )
    if random_rosters < 0 or search < 0:
        raise InvalidDataError(gettext("the held-out rosters and the search budget cannot be negative"))
    t0 = time.perf_counter()
    limits = sorted({r.points_limit for a in armies for r in a.rosters if r.points_limit is not None})
    entries: list[tuple[ArmyList, Roster, str]] = []  # held-out
    searches: list[SearchResult] = []
    for limit in limits:
        examples = [(a, r) for a in armies for r in a.rosters if r.points_limit == limit]
        for army in armies:
            rng = random.Random(f"heldout:{seed}:{army.id}:{limit:g}")
            for k in range(random_rosters):
                entries.append((army, random_roster(army, limit, rng, rid=f"random-{k + 1}"), "random"))
            field = [(a, r) for a, r in examples if a.id != army.id]
            if search and field:
                found = exploit_search(
                    army,
                    limit,
                    field,
                    budget=search,
                    seed=f"heldout:{seed}",
                    executor=executor,
                    workers=workers,
                    progress=progress,
                    conditions=conditions,
                )
                searches.append(found)
                entries.append((army, found.roster.model_copy(update={"id": "search"}), "search"))
    everyone: list[tuple[ArmyList, Roster, str]] = entries + [
        (a, r, "example") for a in armies for r in a.rosters if r.points_limit in limits
    ]
    forces = [roster_force(a, r) for a, r, _ in everyone]
    pairs = [
        (i, j)
        for i in range(len(everyone))
        for j in range(i + 1, len(everyone))
        if everyone[i][0].id != everyone[j][0].id
        and everyone[i][1].points_limit == everyone[j][1].points_limit
        and (everyone[i][2] != "example" or everyone[j][2] != "example")
    ]

    def label(k: int) -> str:
        return f"{everyone[k][0].id}:{everyone[k][1].id}"

    specs: list[BattleSpec] = [
        (i, j, b % 2, f"heldout:{seed}:{label(i)}:{label(j)}:{everyone[i][1].points_limit:g}:{b}")
        for i, j in pairs
        for b in range(battles)
    ]
    scores = play(
        forces,
        specs,
        executor=executor,
        workers=workers,
        progress=progress,
        label="held-out battles",
        conditions=conditions,
    )
    rates: list[tuple[str, str, float]] = []
    mine: dict[int, list[float]] = {k: [] for k in range(len(entries))}
    for n, (i, j) in enumerate(pairs):
        rate = sum(s for s, _ in scores[n * battles : (n + 1) * battles]) / battles
        rates.append((label(i), label(j), rate))
        if i in mine:
            mine[i].append(rate)
        if j in mine:
            mine[j].append(1.0 - rate)
    held = [
        HeldOutRoster(
            a.id,
            r,
            src,
            roster_points(a, r),
            sum(mine[k]) / len(mine[k]) if mine[k] else 0.5,
        )
        for k, (a, r, src) in enumerate(entries)
    ]
    theirs: dict[int, list[float]] = {}
    for (_, j), (_, _, rate) in zip(pairs, rates, strict=True):
        if j >= len(entries):  # an example roster comes after every held-out one
            theirs.setdefault(j, []).append(1.0 - rate)
    shown = [
        HeldOutRoster(a.id, r, src, roster_points(a, r), sum(theirs[k]) / len(theirs[k]))
        for k, (a, r, src) in enumerate(everyone)
        if k in theirs
    ]
    return HeldOutValidation(
        held,
        rates,
        battles,
        searches,
        time.perf_counter() - t0,
        seed,
        conditions,
        examples=shown,
        limits=[everyone[i][1].points_limit or 0.0 for i, _ in pairs],
    )


__all__ = [
    "ATTACH_CHANCE",
    "CONFIRM_BATTLES",
    "MAX_DRAWS",
    "MIN_SPEND",
    "RACE_KEEP",
    "SEARCH_BATTLES",
    "SEARCH_COPIES",
    "UNIT_FIGURES",
    "HeldOutRoster",
    "HeldOutValidation",
    "SearchResult",
    "exploit_search",
    "field_rates",
    "held_out_validation",
    "random_roster",
]


# --- the calibration's armies: random legal rosters --------------------------------------------
#: Random legal rosters drawn per list, points limit and round of :func:`legal_battle_design`.
LEGAL_POOL = 32
#: Share of :func:`legal_battle_design`'s battles fought against an example roster (the rest
#: against another random legal roster). 0: the calibration never sees the example rosters, so
#: they are held out too, rebuilding them after a calibration does not move the points, and
#: ``points calibrate`` reproduces the stored model from the stored lists (measured beside 0.5
#: and 1: held-out pairs within 50 ± 5 % 69 %, 66 %, 55 % at 200 battles a pair).
FIELD_SHARE = 0.0
#: How many times an exploit search's find (a roster ``search-LIMIT`` of a list, added by
#: ``points calibrate --search N``) stands in its list's pool of :func:`legal_battle_design`
#: beside the :data:`LEGAL_POOL` random rosters: 8 in 40, so about a fifth of the list's battles at
#: that limit are the find's (issue 14: the search's winners join the fitting pool).
SEARCH_COPIES = 8


def legal_army(army: ArmyList, budget: float, rng: random.Random, *, points: PointsFn) -> Force:
    """One random legal roster of ``army`` at ``points`` spending ``budget``, as a force (the
    calibration's armies whose steepness is measured, :func:`szwadron.armies.battles.fit_army_steepness`)."""
    at = priced(army, points)
    return roster_force(at, random_roster(at, budget, rng, rid="steepness"), points)


def legal_pool(
    army: ArmyList, budget: float, size: int, rng: random.Random, jitter: float = 0.2
) -> list[Roster]:
    """``size`` random legal rosters of ``army`` at its stored points (:func:`random_roster`), each
    at a limit ``budget · e^{u/2}``, ``u`` uniform in ±``jitter`` (so the fit sees what points
    more are worth); fewer when the list cannot field a legal roster at some limit."""
    pool: list[Roster] = []
    for k in range(size):
        limit = budget * math.exp(rng.uniform(-jitter, jitter) / 2)
        try:
            pool.append(random_roster(army, limit, rng, rid=f"legal-{k + 1}"))
        except InvalidDataError:
            break  # the list cannot field a legal roster here
    return pool


# long: one loop over the lists, limits and battles of the design; the pools and the field are its only state.
def legal_battle_design(
    armies: Sequence[ArmyList],
    *,
    points: PointsFn,
    battles: int,
    budgets: Sequence[float] = (1000.0, 2000.0),
    jitter: float = 0.2,
    seed: int = 2026,
    round_index: int = 0,
) -> tuple[list[Force], list[BattleSpec]]:
    """The calibration's mixed-army battles drawn as an organiser's rosters are (issue 14): for
    every list and budget, :data:`LEGAL_POOL` random legal rosters (:func:`legal_pool`: at the
    points ``points``, each limit jittered; fewer in a design of fewer battles); then,
    for every ordered pair of different lists and every budget, battles of a roster of the first
    list's pool against an example roster of the second list at that limit (the field; a share
    :data:`FIELD_SHARE`) or a roster of its pool — a list's exploit-search find (a roster
    ``search-LIMIT``, ``points calibrate --search N``) stands in its pool :data:`SEARCH_COPIES`
    times — about ``battles`` per unordered pair of lists
    and budget, as :func:`szwadron.armies.battles.mixed_battle_design` plays. Sides and the side
    moving first alternate. Held-out rosters are drawn with other seeds, so none of them is
    fitted on. A list none of whose rosters can be drawn legal at a limit plays no battles
    there. Returns the forces and the specs."""
    n = len(armies)
    per = max(1, round(battles * (n + 1) / (2 * max(1, n - 1))))
    size = min(LEGAL_POOL, max(2, per))  # a cut-down design draws no more rosters than it plays
    priced_armies = [priced(a, points) for a in armies]
    forces: list[Force] = []
    pools: dict[tuple[int, float], list[int]] = {}
    field: dict[tuple[int, float], list[int]] = {}
    for i, army in enumerate(priced_armies):
        for budget in budgets:
            rng = random.Random(f"legal:{seed}:{round_index}:{army.id}:{budget:g}")
            pools[i, budget] = []
            for roster in legal_pool(army, budget, size, rng, jitter):
                pools[i, budget].append(len(forces))
                forces.append(roster_force(army, roster, points))
            field[i, budget] = []
            for roster in army.rosters:
                if roster.points_limit == budget:
                    field[i, budget].append(len(forces))
                    forces.append(roster_force(army, roster, points))
                    if roster.id.startswith("search-"):  # the exploit search's find joins the pool
                        pools[i, budget] += [len(forces) - 1] * SEARCH_COPIES
    specs: list[BattleSpec] = []
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            for budget in budgets:
                mine, theirs, pool = pools[i, budget], field[j, budget], pools[j, budget]
                if not mine or not (theirs or pool):
                    continue
                for k in range(per):
                    tag = f"legal:{seed}:{round_index}:{armies[i].id}:{armies[j].id}:{budget:g}:{k}"
                    rng = random.Random(tag)
                    a = rng.choice(mine)
                    b = rng.choice(theirs if theirs and (not pool or rng.random() < FIELD_SHARE) else pool)
                    specs.append((a, b, k % 2, tag) if (k // 2) % 2 == 0 else (b, a, k % 2, tag))
    return forces, specs
