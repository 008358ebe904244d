"""Sampling a volley, a melee exchange or a morale test from its exact distribution (issue 14).

:func:`szwadron.odds.combat.roll_volley` and :func:`szwadron.odds.combat.roll_melee` roll every
die, one ``randint`` a die, and show the faces — what a referee needs. A simulation needs only the
result, drawn with the right probability: the exact distributions of :mod:`szwadron.odds.combat`
and :mod:`szwadron.odds.morale` (4.6, 1.5.1, 5.3–5.5, 6.3) are turned once into a cumulative table
(cached by the question), and each resolution is then one ``random()`` and a bisection. The
outcomes are distributed exactly as the dice's; the dice stream differs, so a seed gives other
(equally likely) results than the per-die roller.

>>> import random
>>> t = volley_table(((6, 3),), 1, False, False, 12)
>>> removed, damaged = t.sample(random.Random(1))
>>> 0 <= removed <= 6 and (damaged or removed == 0)
True
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Generic, Literal, TypeVar

from szwadron.odds.combat import Loss, MeleeSide, _side_losses_cached, melee, volley
from szwadron.odds.morale import FireOutcome, MeleeMorale, MeleeOutcome, _sequence_weights

T = TypeVar("T")

#: The dice of the morale tests (6.2): one d6, pass on a roll ≤ the target.
_SIDES = 6


@dataclass(frozen=True)
class Table(Generic[T]):
    """Outcomes and their cumulative probabilities (the last is 1)."""

    outcomes: tuple[T, ...]
    cumulative: tuple[float, ...]

    @classmethod
    def of(cls, weighted: list[tuple[T, float]]) -> Table[T]:
        """A table of ``(outcome, weight)`` (weights need not sum to 1; zero weights dropped)."""
        kept = [(o, w) for o, w in weighted if w > 0]
        total = sum(w for _, w in kept)
        cum = [c / total for c in accumulate(w for _, w in kept)]
        cum[-1] = 1.0
        return cls(tuple(o for o, _ in kept), tuple(cum))

    def sample(self, rng: random.Random) -> T:
        """One outcome, drawn with its probability (one ``rng.random()``)."""
        return self.outcomes[bisect_right(self.cumulative, rng.random())]

    def probability(self, outcome: T) -> float:
        """The probability of ``outcome`` (0 when it cannot happen)."""
        out, prev = 0.0, 0.0
        for o, c in zip(self.outcomes, self.cumulative, strict=True):
            if o == outcome:
                out += c - prev
            prev = c
        return out


@lru_cache(maxsize=65536)
def volley_table(
    groups: tuple[tuple[int, int], ...],
    wounds: int | tuple[int, ...],
    skirmish: bool,
    march: bool,
    cap: int | None,
    die: str = "d6",
) -> Table[tuple[int, bool]] | None:
    """4.6, 1.5.1 — ``(figures removed, any die scored)`` of a volley (as :func:`volley`
    takes it); None when no die is rolled. "Any die scored" decides the morale test (4.8.1).

    >>> t = volley_table(((2, 6),), 1, False, False, None)
    >>> t.outcomes, t.cumulative
    (((2, True),), (1.0,))
    """
    odds = volley(list(groups), wounds, skirmish=skirmish, march=march, cap=cap, die=die)
    if not any(g.dice for g in odds.groups):
        return None
    weights = odds.removed_weights
    total = sum(weights)
    none = float(odds.no_damage)
    rows: list[tuple[tuple[int, bool], float]] = [((0, False), none)]
    for removed, w in enumerate(weights):
        p = w / total - (none if removed == 0 else 0.0)
        rows.append(((removed, True), max(0.0, p)))
    return Table.of(rows)


@lru_cache(maxsize=64)
def casualty_table(target: int) -> Table[FireOutcome]:
    """6.3 — the repulse test and, on a failure, the panic test, on one d6 each.

    >>> casualty_table(3).probability(FireOutcome.PANIC)
    0.25
    """
    p = min(max(target, 0), _SIDES) / _SIDES
    return Table.of(
        [(FireOutcome.PASSED, p), (FireOutcome.REPULSED, (1 - p) * p), (FireOutcome.PANIC, (1 - p) ** 2)]
    )


def test_passes(target: int, rng: random.Random) -> bool:
    """6.2 — one morale test on a d6 (pass on a roll ≤ ``target``), one ``rng.random()``."""
    return rng.random() * _SIDES < target


test_passes.__test__ = False  # type: ignore[attr-defined]  # not a pytest test


MeleeResult = tuple[int, int, MeleeOutcome, MeleeOutcome]
"""``(attacker removed, defender removed, attacker outcome, defender outcome)``."""


@lru_cache(maxsize=65536)
def melee_table(
    attacker: MeleeSide,
    defender: MeleeSide,
    first_strike: Literal["attacker", "defender"] | None,
    die: str = "d6",
) -> Table[MeleeResult]:
    """5.3–5.5, 7.7 — the joint losses and morale outcomes of one exchange (the outcomes of
    :func:`melee` kept with the losses they follow from).

    >>> a = MeleeSide.uniform(2, melee=1, skill=6, wounds=1, morale=6)
    >>> melee_table(a, a, "attacker").outcomes
    ((0, 2, <MeleeOutcome.HELD: 'held'>, <MeleeOutcome.DESTROYED: 'destroyed'>),)
    """
    odds = melee(attacker, defender, first_strike=first_strike, die=die)
    am, dm = attacker.morale, defender.morale
    total = odds.losses.total
    rows: list[tuple[MeleeResult, float]] = []
    for (ar, ah, dr, dh), w in odds.losses.items():
        seq = _sequence_weights(*_sequence_question(am, dm, ar, ah, dr, dh, dm.panicking))
        seq_total = sum(sw for _, sw in seq)
        for (ao, do), sw in seq:
            rows.append(((ar, dr, ao, do), (w / total) * (sw / seq_total)))
    return Table.of(rows)


@lru_cache(maxsize=65536)
def loss_table(
    groups: tuple[tuple[int, int, int], ...], wounds: tuple[int, ...], die: str = "d6"
) -> Table[Loss]:
    """5.3, 5.4, 1.5.1 — ``(figures removed, any die scored)`` of figures with ``wounds`` (in
    removal order) struck by the dice ``groups`` (``(dice, UW, target bonus)``,
    :meth:`szwadron.odds.combat.MeleeSide.strike_groups`).

    >>> loss_table(((2, 6, 0),), (1, 1, 1)).outcomes
    ((2, True),)
    """
    return Table.of([(loss, float(w)) for loss, w in _side_losses_cached(groups, wounds, die)])


@lru_cache(maxsize=65536)
def sequence_table(
    a_target: int,
    d_target: int,
    a_hit: bool,
    d_hit: bool,
    a_destroyed: bool,
    d_destroyed: bool,
    d_panicking: bool,
) -> Table[tuple[MeleeOutcome, MeleeOutcome]]:
    """5.5 — the (attacker, defender) morale outcomes of one realisation of the losses."""
    return Table.of(
        [
            (pair, float(w))
            for pair, w in _sequence_weights(
                a_target, d_target, a_hit, d_hit, a_destroyed, d_destroyed, d_panicking
            )
        ]
    )


def _sequence_after(
    am: MeleeMorale, dm: MeleeMorale, ar: int, ah: bool, dr: int, dh: bool
) -> Table[tuple[MeleeOutcome, MeleeOutcome]]:
    """5.5 — the morale outcomes' table after ``ar``/``dr`` figures lost (``ah``/``dh``: any die
    scored) by sides of morale ``am``/``dm``, neither panicking."""
    return sequence_table(*_sequence_question(am, dm, ar, ah, dr, dh, False))


def _sequence_question(
    am: MeleeMorale, dm: MeleeMorale, ar: int, ah: bool, dr: int, dh: bool, d_panicking: bool
) -> tuple[int, int, bool, bool, bool, bool, bool]:
    """5.5 — the arguments of :func:`sequence_table` after ``ar``/``dr`` figures lost: each side's
    morale target after its losses (0 when destroyed), whether it was hit, whether destroyed."""
    a_dest, d_dest = ar == am.strength, dr == dm.strength
    return (
        0 if a_dest else am.target_after(ar),
        0 if d_dest else dm.target_after(dr),
        ah,
        dh,
        a_dest,
        d_dest,
        d_panicking,
    )


def _wounds(side: MeleeSide) -> tuple[int, ...]:
    return tuple(f.wounds + side.wound_bonus for f in side.fighters)


def sample_melee(
    attacker: MeleeSide,
    defender: MeleeSide,
    first_strike: Literal["attacker", "defender"] | None,
    rng: random.Random,
    die: str = "d6",
) -> MeleeResult:
    """5.3–5.5, 7.7 — one exchange drawn as :func:`melee` composes it: each side's losses from
    the strikes of the other (the second striker with the figures it has left, 7.7), then the
    morale sequence (5.5) for those losses; each step one draw from a table cached by the
    question, so that the tables are shared by every exchange with the same dice and W.

    Sides whose striker panics (6.6) are drawn from :func:`melee_table`.

    >>> a = MeleeSide.uniform(2, melee=1, skill=6, wounds=1, morale=6)
    >>> sample_melee(a, a, "attacker", random.Random(0))
    (0, 2, <MeleeOutcome.HELD: 'held'>, <MeleeOutcome.DESTROYED: 'destroyed'>)
    """
    if attacker.morale.panicking or defender.morale.panicking:
        return melee_table(attacker, defender, first_strike, die).sample(rng)
    if first_strike == "attacker":
        dr, dh = loss_table(attacker.strike_groups(0), _wounds(defender), die).sample(rng)
        ar, ah = loss_table(defender.strike_groups(dr), _wounds(attacker), die).sample(rng)
    elif first_strike == "defender":
        ar, ah = loss_table(defender.strike_groups(0), _wounds(attacker), die).sample(rng)
        dr, dh = loss_table(attacker.strike_groups(ar), _wounds(defender), die).sample(rng)
    else:
        ar, ah = loss_table(defender.strike_groups(0), _wounds(attacker), die).sample(rng)
        dr, dh = loss_table(attacker.strike_groups(0), _wounds(defender), die).sample(rng)
    ao, do = _sequence_after(attacker.morale, defender.morale, ar, ah, dr, dh).sample(rng)
    return ar, dr, ao, do


class MeleePlan:
    """:func:`sample_melee` for one pair of sides, its tables looked up once (issue 14): the
    same tables drawn in the same order, so the same ``rng`` gives the same exchanges. The first
    striker's table is found at once; the second striker's depends on the first's losses (7.7)
    and the morale sequence (5.5) on both, so they are kept as they are first met. A simulation
    that meets the same sides again (a duel's lean engine) draws an exchange in about a
    microsecond.

    >>> a = MeleeSide.uniform(2, melee=1, skill=6, wounds=1, morale=6)
    >>> MeleePlan(a, a, "attacker").draw(random.Random(0)) == sample_melee(a, a, "attacker", random.Random(0))
    True
    """

    __slots__ = (
        "attacker",
        "attacker_first",
        "defender",
        "die",
        "first",
        "first_cum",
        "first_out",
        "first_strike",
        "second",
        "seq",
        "table",
    )

    def __init__(
        self,
        attacker: MeleeSide,
        defender: MeleeSide,
        first_strike: Literal["attacker", "defender"] | None,
        die: str = "d6",
    ) -> None:
        self.attacker, self.defender, self.first_strike = attacker, defender, first_strike
        self.die = die
        self.table: Table[MeleeResult] | None = None
        self.second: dict[int, Table[Loss]] = {}
        self.seq: dict[tuple[int, bool, int, bool], Table[tuple[MeleeOutcome, MeleeOutcome]]] = {}
        if attacker.morale.panicking or defender.morale.panicking:
            self.table = melee_table(attacker, defender, first_strike, die)
            self.first = loss_table((), (), die)  # not drawn from
        elif first_strike == "attacker":
            self.first = loss_table(attacker.strike_groups(0), _wounds(defender), die)
        else:  # the defender strikes first, or both at once (the attacker's losses drawn first)
            self.first = loss_table(defender.strike_groups(0), _wounds(attacker), die)
        self.first_cum, self.first_out = self.first.cumulative, self.first.outcomes
        self.attacker_first = first_strike == "attacker"

    def draw(self, rng: random.Random) -> MeleeResult:
        """One exchange: ``(attacker removed, defender removed, their outcomes)``."""
        if self.table is not None:
            t = self.table
            return t.outcomes[bisect_right(t.cumulative, rng.random())]
        x, xh = self.first_out[bisect_right(self.first_cum, rng.random())]
        s = self.second.get(x)
        if s is None:
            att, dfn, die = self.attacker, self.defender, self.die
            if self.first_strike == "attacker":
                s = loss_table(dfn.strike_groups(x), _wounds(att), die)
            elif self.first_strike == "defender":
                s = loss_table(att.strike_groups(x), _wounds(dfn), die)
            else:
                s = loss_table(att.strike_groups(0), _wounds(dfn), die)
            self.second[x] = s
        y, yh = s.outcomes[bisect_right(s.cumulative, rng.random())]
        if self.attacker_first:
            ar, ah, dr, dh = y, yh, x, xh
        else:
            ar, ah, dr, dh = x, xh, y, yh
        key = (ar, ah, dr, dh)
        q = self.seq.get(key)
        if q is None:
            q = self.seq[key] = _sequence_after(self.attacker.morale, self.defender.morale, ar, ah, dr, dh)
        ao, do = q.outcomes[bisect_right(q.cumulative, rng.random())]
        return ar, dr, ao, do


@lru_cache(maxsize=65536)
def melee_plan(
    attacker: MeleeSide,
    defender: MeleeSide,
    first_strike: Literal["attacker", "defender"] | None,
    die: str = "d6",
) -> MeleePlan:
    """The :class:`MeleePlan` of these sides, one per question (shared by every simulation that
    meets them: its tables are the same whoever draws from them)."""
    return MeleePlan(attacker, defender, first_strike, die)


def clear_caches() -> None:
    """Forget every cached table."""
    volley_table.cache_clear()
    casualty_table.cache_clear()
    melee_table.cache_clear()
    loss_table.cache_clear()
    sequence_table.cache_clear()
    melee_plan.cache_clear()


__all__ = [
    "MeleePlan",
    "MeleeResult",
    "Table",
    "casualty_table",
    "clear_caches",
    "loss_table",
    "melee_plan",
    "melee_table",
    "sample_melee",
    "sequence_table",
    "test_passes",
    "volley_table",
]
