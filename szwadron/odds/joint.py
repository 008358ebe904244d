"""5.10 — the exact joint losses and morale of a combined melee, without the table's geometry.

Several units strike at once: every figure that fights strikes one enemy unit, the dice of all
the figures of one side striking one unit summed per UW and terrain bonus (5.10.3), each such
group rolling and removing separately along the struck unit's removal order (5.10.4); each
defending unit strikes back once (5.10.2); the morale tests follow 5.10.5's order
(:func:`combined_outcomes`); :func:`roll_combined` resolves it with dice in the same order (the
table's ``melee --apply``). :mod:`szwadron.table.combined` measures who touches whom on the
table and hands the figures to :class:`CombinedEngine`; the simulated battle
(:mod:`szwadron.armies.duel`, issue 14) hands it one unit's engagement against several.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import cast

from szwadron.odds.combat import (
    Fighter,
    GroupRoll,
    MeleeSide,
    Removed,
    RolledRemoval,
    count_removed,
    fight_losses,
    group_key,
    kept_indices,
    roll_groups,
)
from szwadron.odds.dice import Distribution
from szwadron.odds.morale import (
    MORALE_DIE_SIDES,
    MeleeMorale,
    MeleeOutcome,
    MoraleRoll,
    morale_pass_chance,
    roll_test,
)

Loss = tuple[int, bool]


@dataclass(frozen=True)
class Striker:
    """One fighting figure: its unit index, base name, the unit index it strikes, its Fighter.
    Whether it strikes first is the engine's (:meth:`CombinedEngine.strikes_first`)."""

    unit: int
    base: str
    target: int
    fighter: Fighter


@dataclass
class CombinedEngine:
    """The exact joint losses of a combined melee (5.10.3, 5.10.4, 5.7.2, 7.7, 6.6.4).

    ``wounds[u]`` are the W of unit ``u``'s figures that fight, in its removal order; its
    strikers (in ``strikers``, in the same order) are those figures. Where only part of a unit
    holds the terrain, each striker's :attr:`~szwadron.odds.combat.Fighter.part` numbers the
    separate fight it is in (5.7.2): a group of dice removes only figures of its own fight.

    ``first_strike[u]`` says unit ``u`` has first strike this round (7.7, as 7.7.2 limits it; no
    flags: nobody). First strike is counted pair by pair (7.7.1: the unit "zadaje straty zanim
    oddział przeciwnika będzie miał szansę oddać"): a figure strikes first when its unit has it
    and the unit it strikes has not; every other figure strikes after, with the figures the first
    strikes left, and removes on top of them. When one side's units all have it and the other's
    none, that side strikes first and the other back, as in the melee of one unit a side.
    """

    strikers: list[Striker]
    wounds: list[tuple[int, ...]]
    morale: list[MeleeMorale]
    skirmish: list[bool]
    na: int
    die: str
    first_strike: tuple[bool, ...] = ()

    def strikes_first(self, st: Striker) -> bool:
        """7.7 — ``st`` strikes before the unit it strikes can strike back."""
        fs = self.first_strike
        return bool(fs) and fs[st.unit] and not fs[st.target]

    @property
    def phased(self) -> bool:
        """Some figures strike first (7.7): the exchange is in two steps."""
        return any(self.strikes_first(st) for st in self.strikers)

    @property
    def parts(self) -> int:
        """How many separate fights (5.7.2) the figures span; 1 when the melee is one fight."""
        return 1 + max((st.fighter.part for st in self.strikers), default=0)

    def parts_of(self, unit: int) -> tuple[int, ...]:
        """The fight of each of ``unit``'s figures, in its removal order."""
        return tuple(st.fighter.part for st in self.strikers if st.unit == unit)

    def side_units(self, side: int) -> range:
        return range(self.na) if side == 0 else range(self.na, len(self.wounds))

    def groups(
        self, side: int, removed: Sequence[Removed], silent: frozenset[int], first: bool | None = None
    ) -> dict[int, list[tuple[int, int, int, int]]]:
        """Per struck unit: the (dice, UW, bonus, fight) groups of ``side``'s figures left
        (5.10.3, 5.7.2), each striking unit's SW halved in open skirmish order (PD-17); with
        ``first``, only the figures that strike first (True) or after (False), 7.7."""
        # the groups in the order of their first figure before any removal (the order the
        # question lists them and the dice are typed in), whichever figures are left
        per_target: dict[int, dict[tuple[int, int, int], int]] = {t: {} for t in self.side_units(1 - side)}
        mine_side = [
            st
            for st in self.strikers
            if st.unit in self.side_units(side) and (first is None or self.strikes_first(st) == first)
        ]
        for st in mine_side:
            per_target[st.target].setdefault(group_key(st.fighter), 0)
        for u in self.side_units(side):
            if u in silent:
                continue
            mine = [st for st in self.strikers if st.unit == u]
            left = [mine[i] for i in kept_indices([st.fighter.part for st in mine], removed[u])]
            if first is not None:
                left = [st for st in left if self.strikes_first(st) == first]
            for target in sorted({st.target for st in left}):
                figs = tuple(st.fighter for st in left if st.target == target)
                ms = MeleeSide(figs, self.morale[u], skirmish=self.skirmish[u])
                acc = per_target.setdefault(target, {})
                for dice, skill, b, part in ms.part_groups():
                    acc[(skill, b, part)] = acc.get((skill, b, part), 0) + dice
        # a unit whose every fighting figure is gone already (to first strikes, 7.7) is struck no
        # more: nobody rolls at it
        gone = {t for t in per_target if 0 < len(self.wounds[t]) <= count_removed(removed[t])}
        return {
            t: [(n, k, b, p) for (k, b, p), n in acc.items() if n]
            for t, acc in per_target.items()
            if t not in gone
        }

    def strike(
        self, side: int, removed: Sequence[Removed], silent: frozenset[int], first: bool | None = None
    ) -> Distribution[tuple[tuple[Removed, bool], ...]]:
        """The losses ``side``'s strikes (``first``: only those striking first, or after, 7.7)
        deal to every unit of the other side, on top of the figures ``removed`` already (counts,
        or counts per fight, 5.7.2); took damage is of these strikes. ``silent`` units strike
        not (they failed their strike-back test, 6.6)."""
        groups = self.groups(side, removed, silent, first)
        parts = self.parts
        dist: Distribution[tuple[tuple[Removed, bool], ...]] = Distribution.point(())
        for t in self.side_units(1 - side):
            mine = groups.get(t, [])
            # no dice at t: its removal so far stands (a fresh unit goes through fight_losses,
            # which writes "none removed" as the melee's parts need: a count or a count per fight)
            one = (
                fight_losses(mine, self.wounds[t], self.parts_of(t), parts, self.die, removed[t])
                if mine or not count_removed(removed[t])
                else Distribution.point((removed[t], False))
            )
            dist = dist.joint(one).map(lambda x: (*x[0], x[1]))
        return dist

    def _exchange(self, silent: frozenset[int]) -> Distribution[tuple[tuple[Removed, bool], ...]]:
        """Both sides' strikes with ``silent`` units not striking: together, or the first
        strikes (7.7) and then the rest with the figures left, removing on top of them."""
        n = len(self.wounds)
        zero: list[Removed] = [0] * n

        def both(
            removed: Sequence[Removed], first: bool | None
        ) -> Distribution[tuple[tuple[Removed, bool], ...]]:
            to_def = self.strike(0, removed, silent, first)
            to_att = self.strike(1, removed, silent, first)
            return to_att.joint(to_def).map(lambda x: (*x[0], *x[1]))

        if not self.phased:
            return both(zero, None)

        def after(hit: tuple[tuple[Removed, bool], ...]) -> Distribution[tuple[tuple[Removed, bool], ...]]:
            rest = both([r for r, _h in hit], False)
            return rest.map(lambda b: tuple((r, h or h1) for (r, h), (_r1, h1) in zip(b, hit, strict=True)))

        return both(zero, True).bind(after)

    def losses(self) -> Distribution[tuple[Loss, ...]]:
        """Joint (removed, took damage) of every unit, attackers then defenders: the strikes
        (7.7's first ones before the rest) under every outcome of the panicking units'
        strike-back tests (6.6)."""
        n = len(self.wounds)
        panicking = [u for u in range(n) if self.morale[u].panicking]
        out: list[tuple[Distribution[tuple[tuple[Removed, bool], ...]], Fraction]] = []
        for fails in product((False, True), repeat=len(panicking)):
            p = Fraction(1)
            for u, fail in zip(panicking, fails, strict=True):
                m = self.morale[u]
                chance = morale_pass_chance(m.morale, m.strength, m.initial, m.modifier)
                p *= (1 - chance) if fail else chance
            if p == 0:
                continue
            silent = frozenset(u for u, fail in zip(panicking, fails, strict=True) if fail)
            out.append((self._exchange(silent), p))
        joint = Distribution.mixture(out)
        if self.parts == 1:
            return cast(Distribution[tuple[Loss, ...]], joint)  # counts already
        return joint.map(lambda x: tuple((count_removed(r), h) for r, h in x))


def _test63(target: int) -> list[tuple[MeleeOutcome | None, Fraction]]:
    """6.3: passed (None), repulsed or panic, for a test target."""
    six = MORALE_DIE_SIDES
    t = Fraction(target, six)
    return [(None, t), (MeleeOutcome.REPULSED, (1 - t) * t), (MeleeOutcome.PANIC, (1 - t) * (1 - t))]


# long: 5.10.5 integrated over the joint losses: one loop over the loss table with each unit's test chain.
def combined_outcomes(
    losses: Distribution[tuple[Loss, ...]],
    morale: list[MeleeMorale],
    opponents: list[frozenset[int]],
    na: int,
    *,
    swap: bool,
) -> Distribution[tuple[MeleeOutcome, ...]]:
    """5.10.5 — every unit's outcome, integrated exactly over the joint losses."""
    n = len(morale)
    first = list(range(na, n)) if not swap else list(range(na))  # the side testing first (step I)
    second = [u for u in range(n) if u not in first]
    fled = (MeleeOutcome.REPULSED, MeleeOutcome.PANIC)
    acc: dict[tuple[MeleeOutcome, ...], Fraction] = {}
    grouped: dict[tuple[tuple[int, bool, bool], ...], int] = {}
    for loss, w in losses.items():
        key = tuple(
            (
                0 if r == morale[u].strength else morale[u].target_after(r),
                hit,
                r == morale[u].strength,
            )
            for u, (r, hit) in enumerate(loss)
        )
        grouped[key] = grouped.get(key, 0) + w
    total = losses.total
    for key, w in grouped.items():
        # step I: the first side's tests for repulse or flight
        options: list[list[tuple[MeleeOutcome | None, Fraction]]] = []
        for u in first:
            target, hit, dest = key[u]
            if dest:
                options.append([(MeleeOutcome.DESTROYED, Fraction(1))])
            elif morale[u].panicking:
                options.append([(MeleeOutcome.PANIC, Fraction(1))])
            elif hit:
                options.append(_test63(target))
            else:
                options.append([(None, Fraction(1))])
        for combo in product(*options):
            p1 = Fraction(1)
            res: dict[int, MeleeOutcome | None] = {}
            for u, (o, p) in zip(first, combo, strict=True):
                res[u] = o
                p1 *= p
            # steps II and III: the second side
            opts2: list[list[tuple[MeleeOutcome | None, Fraction]]] = []
            for u in second:
                target, hit, dest = key[u]
                if dest:
                    opts2.append([(MeleeOutcome.DESTROYED, Fraction(1))])
                elif all(res[v] in fled for v in opponents[u]):
                    t = Fraction(target, MORALE_DIE_SIDES)  # III: pursuit (only with losses, 6.3)
                    opts2.append(
                        [(MeleeOutcome.HELD, t), (MeleeOutcome.PURSUIT, 1 - t)]
                        if hit and morale[u].pursues  # 6.7.1: artillery never pursues
                        else [(MeleeOutcome.HELD, Fraction(1))]
                    )
                elif hit:
                    opts2.append(_test63(target))  # II: repulse or flight
                else:
                    opts2.append([(None, Fraction(1))])
            for combo2 in product(*opts2):
                p2 = p1
                res2 = dict(res)
                for u, (o, p) in zip(second, combo2, strict=True):
                    res2[u] = o
                    p2 *= p
                # step IV and the standing units' final state
                final: list[list[tuple[MeleeOutcome, Fraction]]] = []
                for u in range(n):
                    o = res2[u]
                    if o is not None:
                        final.append([(o, Fraction(1))])
                        continue
                    stays = [v for v in opponents[u] if res2[v] is None]
                    if stays:
                        final.append([(MeleeOutcome.ENGAGED, Fraction(1))])
                        continue
                    target, hit, _unused = key[u]
                    if (
                        u in first
                        and hit
                        and morale[u].pursues
                        and any(res2[v] in fled for v in opponents[u])
                    ):
                        t = Fraction(target, MORALE_DIE_SIDES)  # IV: pursuit
                        final.append([(MeleeOutcome.HELD, t), (MeleeOutcome.PURSUIT, 1 - t)])
                    else:
                        final.append([(MeleeOutcome.HELD, Fraction(1))])
                for combo3 in product(*final):
                    p3 = p2
                    for _o, p in combo3:
                        p3 *= p
                    out = tuple(o for o, _ in combo3)
                    acc[out] = acc.get(out, Fraction(0)) + p3 * Fraction(w, total)
    return Distribution.from_probabilities({k: v for k, v in acc.items() if v})


@dataclass(frozen=True)
class CombinedStrike:
    """5.10.3, 5.10.4 — one group's dice rolled against one unit, and the figures they removed."""

    side: int
    target: int
    roll: GroupRoll
    removal: RolledRemoval
    first: bool = False
    """7.7 — struck before the struck unit could strike back (the exchange's first step)."""


@dataclass(frozen=True)
class CombinedRoll:
    """5.10 — one combined melee rolled: the strike-back tests of panicking units (6.6), every
    group's dice, each unit's (removed, took damage), the morale tests in 5.10.5's order, each
    unit's outcome (attackers then defenders, as in :class:`CombinedEngine`)."""

    strike_back: tuple[tuple[int, MoraleRoll], ...]
    strikes: tuple[CombinedStrike, ...]
    losses: tuple[Loss, ...]
    tests: tuple[tuple[int, MoraleRoll], ...]
    outcomes: tuple[MeleeOutcome, ...]
    gone: tuple[Removed, ...] = ()
    """Which figures each unit lost: a count along its removal order, or a count per fight where
    the melee was split (5.7.2, :func:`~szwadron.odds.combat.kept_indices`)."""


def _roll_strikes(
    engine: CombinedEngine,
    side: int,
    removed: list[Removed],
    rng: random.Random,
    silent: frozenset[int],
    strikes: list[CombinedStrike],
    first: bool | None,
) -> dict[int, tuple[Removed, bool]]:
    """:meth:`CombinedEngine.strike` rolled: struck unit by struck unit, each group of ``side``'s
    dice (``silent`` units strike not: they failed their strike-back test, 6.6; ``first``: only
    the figures striking first, or after, 7.7) and its removal along the struck unit's order,
    among the figures of the group's own fight (5.7.2) not yet ``removed``."""
    groups = engine.groups(side, removed, silent, first)
    parts = engine.parts
    out: dict[int, tuple[Removed, bool]] = {}
    for t in engine.side_units(1 - side):
        rolled, gone, hit = roll_groups(
            groups.get(t, []), engine.wounds[t], engine.parts_of(t), parts, rng, engine.die, removed[t]
        )
        strikes.extend(CombinedStrike(side, t, g, r, first is True) for g, r in rolled)
        out[t] = (gone, hit)
    return out


def roll_exchange(
    engine: CombinedEngine, rng: random.Random, silent: frozenset[int], strikes: list[CombinedStrike]
) -> dict[int, tuple[Removed, bool]]:
    """:meth:`CombinedEngine.losses` rolled for ``silent`` units: the attackers' groups, then the
    defenders'; where some figures strike first (7.7), theirs (attackers', defenders'), then the
    rest with the figures left, removing on top of them. Each unit's (removed, took damage)."""
    n = len(engine.wounds)
    removed: list[Removed] = [0] * n
    if not engine.phased:
        hits = _roll_strikes(engine, 0, removed, rng, silent, strikes, None)
        return hits | _roll_strikes(engine, 1, removed, rng, silent, strikes, None)
    hits = _roll_strikes(engine, 0, removed, rng, silent, strikes, True)
    hits |= _roll_strikes(engine, 1, removed, rng, silent, strikes, True)
    removed = [hits[u][0] for u in range(n)]
    rest = _roll_strikes(engine, 0, removed, rng, silent, strikes, False)
    rest |= _roll_strikes(engine, 1, removed, rng, silent, strikes, False)
    return {u: (rest[u][0], rest[u][1] or hits[u][1]) for u in range(n)}


# long: 5.10.5's four steps in order, each unit's test rolled as combined_outcomes integrates it.
def roll_combined(
    engine: CombinedEngine,
    opponents: Sequence[frozenset[int]],
    rng: random.Random,
    *,
    swap: bool = False,
    chosen_pursuit: bool = False,
) -> CombinedRoll:
    """5.10, 6.6, 6.3 — a combined melee resolved with dice, as :meth:`CombinedEngine.losses` and
    :func:`combined_outcomes` count it: the figures striking first (7.7, pair by pair) roll,
    then the rest with their figures left (:func:`roll_exchange`); then the tests of
    5.10.5 — the first side's repulse or flight tests (the defenders; the attackers with
    ``swap``, 5.7.4), the other side's (a unit whose every opponent fled tests for pursuit
    instead), then the pursuit tests of the first side's units whose opponents all fled. With
    ``chosen_pursuit`` every unit that would test for pursuit, or whose opponents all fled without
    its losses (5.5.8), pursues without a roll (6.3.6); artillery never does (6.7.1)."""
    n = len(engine.wounds)
    na = engine.na
    backs: list[tuple[int, MoraleRoll]] = []
    for u in range(n):  # 6.6: a panicking unit strikes back only if it passes a test, rolled first
        m = engine.morale[u]
        if m.panicking:
            backs.append((u, roll_test("strike back (6.6)", m.target_after(0), rng)))
    silent = frozenset(u for u, test in backs if not test.passed)
    strikes: list[CombinedStrike] = []
    hits = roll_exchange(engine, rng, silent, strikes)
    losses = tuple((count_removed(hits[u][0]), hits[u][1]) for u in range(n))
    morale = engine.morale
    tests: list[tuple[int, MoraleRoll]] = []
    fled = (MeleeOutcome.REPULSED, MeleeOutcome.PANIC)

    def target(u: int) -> int:
        return morale[u].target_after(losses[u][0])

    def test63(u: int) -> MeleeOutcome | None:
        one = roll_test("repulse", target(u), rng)
        tests.append((u, one))
        if one.passed:
            return None
        two = roll_test("panic", target(u), rng)
        tests.append((u, two))
        return MeleeOutcome.REPULSED if two.passed else MeleeOutcome.PANIC

    def pursuit(u: int) -> MeleeOutcome:
        if not morale[u].pursues:  # 6.7.1
            return MeleeOutcome.HELD
        if chosen_pursuit:  # 6.3.6, 5.5.8: the player chooses pursuit, no roll
            return MeleeOutcome.PURSUIT
        if not losses[u][1]:  # 6.3.6: no losses, no test
            return MeleeOutcome.HELD
        t = roll_test("uncontrolled pursuit", target(u), rng)
        tests.append((u, t))
        return MeleeOutcome.HELD if t.passed else MeleeOutcome.PURSUIT

    first_side = list(range(na)) if swap else list(range(na, n))
    res: dict[int, MeleeOutcome | None] = {}
    for u in first_side:  # step I
        if losses[u][0] == morale[u].strength:
            res[u] = MeleeOutcome.DESTROYED
        elif morale[u].panicking:
            res[u] = MeleeOutcome.PANIC
        elif losses[u][1]:
            res[u] = test63(u)
        else:
            res[u] = None
    second = [v for v in range(n) if v not in first_side]
    beaten = {
        u for u in second if losses[u][0] < morale[u].strength and all(res[v] in fled for v in opponents[u])
    }
    for u in second:  # step II: those still fighting an opponent that did not flee
        if losses[u][0] == morale[u].strength:
            res[u] = MeleeOutcome.DESTROYED
        elif u not in beaten:
            res[u] = test63(u) if losses[u][1] else None
    for u in second:  # step III: those whose opponents all fled test for pursuit
        if u in beaten:
            res[u] = pursuit(u)
    outcomes: list[MeleeOutcome] = []
    for u in range(n):  # step IV and the units left standing
        o = res[u]
        if o is None:
            if any(res[v] is None for v in opponents[u]):
                o = MeleeOutcome.ENGAGED
            elif u in first_side and any(res[v] in fled for v in opponents[u]):
                o = pursuit(u)
            else:
                o = MeleeOutcome.HELD
        outcomes.append(o)
    gone = tuple(hits[u][0] for u in range(n))
    return CombinedRoll(tuple(backs), tuple(strikes), losses, tuple(tests), tuple(outcomes), gone)


__all__ = [
    "CombinedEngine",
    "CombinedRoll",
    "CombinedStrike",
    "Loss",
    "Striker",
    "combined_outcomes",
    "roll_combined",
    "roll_exchange",
]
