"""6.2, 6.3, 5.5 — the odds of morale tests: one test, the test after fire, the melee sequence.

This module is about *chances*; a later morale state machine calls it. Every function is exact
(:class:`fractions.Fraction` or :class:`szwadron.odds.dice.Distribution` with integer weights).

- :func:`casualty_modifier` — 6.2.4's −1/−2/−4 for a unit at ≤ 3/4, ≤ 1/2, ≤ 1/4 of its start.
- :func:`morale_pass_chance` — 6.2, PD-16: clamp(M + modifiers, 0, 6) / 6.
- :func:`casualty_test` — 6.3: the "repulse" test, then at once the "panic" test.
- :func:`fire_outcome` — 4.8, 6.3: no test / passed / repulsed / panic / destroyed after a volley.
- :func:`melee_sequence` and :func:`melee_outcomes` — 5.5: the order of the tests of both sides.

Decisions where the rules are silent (all follow the text of 5.5, 6.3 and PD-18):

* "Losses" in 5.5.1 and 6.3.6 mean *damage* (at least one scoring die), as 6.3.1 says a test is
  due "even if no figure was removed"; a unit whose enemy scored nothing passes every test.
* The pursuit test (5.5.3, 5.5.5, 6.3.6) is taken only by a unit that took losses; a unit without
  losses passes it automatically and holds (5.5.8 lets it *choose* to pursue — a choice, not a
  chance, so it is not in the odds). The player may also skip the roll and choose pursuit
  (6.3.6); the odds assume the roll is made.
* A destroyed unit takes no test (PD-18) and is neither repulsed nor panicked, so its opponent
  takes no pursuit test for it. An opponent with losses still takes 6.3.1's repulse test when the
  defender was destroyed (neither 5.5.3 nor 5.5.4 applies, 6.3.1 does); one whose attacker was
  destroyed has already tested as the defender.
* A panicking defender takes no morale test for losses (6.6); for 5.5.3 it counts as panicked,
  so an attacker with losses tests for pursuit.
* Both destroyed: the outcome is (destroyed, destroyed).
* All tests of one melee use the strength after this melee's removals (6.2.4).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from szwadron.errors import InvalidDataError
from szwadron.i18n import _, term
from szwadron.odds.dice import Distribution, clamp

#: 6.2: a test is one d6.
MORALE_DIE_SIDES = 6
#: 5.5: the longest chain of tests in one melee (defender, attacker twice, defender pursuit).
_MELEE_SEQUENCE_DENOMINATOR = MORALE_DIE_SIDES**4


def _check_strength(strength: int, initial: int) -> None:
    if not isinstance(strength, int) or strength < 0:
        raise InvalidDataError(
            _("strength must be a whole number ≥ 0, got {value}").format(value=repr(strength))
        )
    if not isinstance(initial, int) or initial < 1:
        raise InvalidDataError(
            _("initial strength must be a whole number ≥ 1, got {value}").format(value=repr(initial))
        )
    if strength > initial:
        raise InvalidDataError(
            _("strength {strength} is above the initial strength {initial} (6.2.4 compares them)").format(
                strength=strength, initial=initial
            )
        )


def casualty_modifier(strength: int, initial: int) -> int:
    """6.2.4 — the casualty modifier: strength ≤ 3/4 of the start −1, ≤ 1/2 −2, ≤ 1/4 −4.

    Only the largest applies; comparisons are exact ("does not exceed").

    Raises
    ------
    InvalidDataError
        For strength above initial, negative strength or initial < 1.

    Examples
    --------
    >>> [casualty_modifier(s, 12) for s in (12, 10, 9, 6, 4, 3, 0)]
    [0, 0, -1, -2, -2, -4, -4]
    """
    _check_strength(strength, initial)
    if 4 * strength <= initial:
        return -4
    if 2 * strength <= initial:
        return -2
    if 4 * strength <= 3 * initial:
        return -1
    return 0


def morale_target(morale: int, strength: int, initial: int, modifier: int = 0) -> int:
    """6.2, PD-16 — the face a test must not exceed: clamp(M + casualties + modifier, 0, 6).

    ``modifier`` is the sum of the other modifiers (fortification +1, advantageous terrain +1,
    PD-16; :mod:`szwadron.settings`).

    Examples
    --------
    >>> morale_target(4, 6, 12), morale_target(6, 12, 12, modifier=2)
    (2, 6)
    """
    if not isinstance(morale, int):
        raise InvalidDataError(_("morale must be a whole number, got {value}").format(value=repr(morale)))
    return clamp(morale + casualty_modifier(strength, initial) + modifier, 0, MORALE_DIE_SIDES)


def morale_pass_chance(morale: int, strength: int, initial: int, modifier: int = 0) -> Fraction:
    """6.2, PD-16 — the chance one morale test passes: clamp(M + modifiers, 0, 6) / 6.

    No face passes or fails automatically (PD-16).

    Parameters
    ----------
    morale:
        M of the unit.
    strength:
        Figures in the unit when it tests (after removal of the losses that caused the test).
    initial:
        Its starting strength (6.2.4).
    modifier:
        Other modifiers added together (fortification, terrain: PD-16).

    Examples
    --------
    >>> morale_pass_chance(4, 12, 12), morale_pass_chance(4, 5, 12), morale_pass_chance(1, 2, 12)
    (Fraction(2, 3), Fraction(1, 3), Fraction(0, 1))
    """
    return Fraction(morale_target(morale, strength, initial, modifier), MORALE_DIE_SIDES)


@dataclass(frozen=True)
class CasualtyTest:
    """6.3 — the chances of the test after damage: passed, repulsed (failed then passed), panic."""

    passed: Fraction
    repulsed: Fraction
    panic: Fraction

    def to_json(self) -> dict[str, float]:
        """``{"pass", "repulsed", "panic"}`` as floats (the ``odds morale --json`` document)."""
        return {"pass": float(self.passed), "repulsed": float(self.repulsed), "panic": float(self.panic)}


def casualty_test(morale: int, strength: int, initial: int, modifier: int = 0) -> CasualtyTest:
    """6.3 — the "repulse" test, and on failure at once the "panic" test, with the same target.

    Examples
    --------
    >>> t = casualty_test(4, 12, 12)
    >>> t.passed, t.repulsed, t.panic
    (Fraction(2, 3), Fraction(2, 9), Fraction(1, 9))
    """
    p = morale_pass_chance(morale, strength, initial, modifier)
    return CasualtyTest(p, (1 - p) * p, (1 - p) ** 2)


class FireOutcome(StrEnum):
    """4.8, 6.3 — what a volley does to the target's morale."""

    NO_TEST = "no_test"
    """No damage at all: no test (4.8.1)."""
    PASSED = "passed"
    REPULSED = "repulsed"
    PANIC = "panic"
    DESTROYED = "destroyed"
    """Every figure removed (PD-18: no test)."""


def fire_outcome(
    removed: Distribution[int],
    no_damage: Fraction,
    *,
    morale: int,
    strength: int,
    initial: int,
    modifier: int = 0,
) -> Distribution[FireOutcome]:
    """4.8.1, 6.3 — the morale outcome of a fire, integrated exactly over the figures removed.

    Each number of figures removed is followed by the 6.3 test at the strength *after* removal.

    Parameters
    ----------
    removed:
        Figures removed by the fire (each ≤ ``strength``).
    no_damage:
        P(no die scored): no test at all. Must be ≤ P(removed = 0).
    morale, strength, initial, modifier:
        As :func:`morale_pass_chance`; ``strength`` is before the fire.

    Examples
    --------
    >>> from szwadron.odds.dice import hits
    >>> out = fire_outcome(hits(2, 3), Fraction(1, 4), morale=4, strength=2, initial=2)
    >>> out.probability(FireOutcome.DESTROYED), out.probability(FireOutcome.NO_TEST)
    (Fraction(1, 4), Fraction(1, 4))
    """
    _check_strength(strength, initial)
    if not 0 <= no_damage <= removed.probability(0):
        raise InvalidDataError("P(no damage) must lie between 0 and P(0 figures removed)")
    total = removed.total
    acc: dict[FireOutcome, Fraction] = {FireOutcome.NO_TEST: Fraction(no_damage)}
    for r, w in removed.items():
        if r > strength:
            raise InvalidDataError(
                _("{n} figures removed from a unit of {strength}").format(n=r, strength=strength)
            )
        p_r = Fraction(w, total) - (no_damage if r == 0 else 0)
        if r == strength:
            acc[FireOutcome.DESTROYED] = acc.get(FireOutcome.DESTROYED, Fraction(0)) + p_r
            continue
        test = casualty_test(morale, strength - r, initial, modifier)
        for key, q in (
            (FireOutcome.PASSED, test.passed),
            (FireOutcome.REPULSED, test.repulsed),
            (FireOutcome.PANIC, test.panic),
        ):
            acc[key] = acc.get(key, Fraction(0)) + p_r * q
    for key in FireOutcome:
        acc.setdefault(key, Fraction(0))
    return _from_fractions(acc)


def _from_fractions(probs: Mapping[FireOutcome, Fraction]) -> Distribution[FireOutcome]:
    positive = {k: v for k, v in probs.items() if v}
    return Distribution.from_probabilities(positive)


class MeleeOutcome(StrEnum):
    """5.5, 6.1 — where one side of a melee ends after the morale sequence."""

    ENGAGED = "engaged"
    """Both sides stood: they stay engaged (5.5.7)."""
    HELD = "held"
    """Stood (passed, or had no losses) while the enemy left or was destroyed."""
    REPULSED = "repulsed"
    PANIC = "panic"
    PURSUIT = "pursuit"
    """Failed the pursuit test: uncontrolled pursuit (6.3.8)."""
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class MeleeMorale:
    """5.5, 6.2 — what one side's morale tests depend on.

    Attributes
    ----------
    morale:
        M.
    strength:
        Figures in the unit before the melee.
    initial:
        Starting strength (6.2.4).
    modifier:
        Other modifiers (fortification, advantageous terrain: PD-16).
    panicking:
        Already panicking (6.6: takes no tests for losses; only a defender can be).
    pursues:
        Can fall into uncontrolled pursuit; artillery cannot (6.7.1), nor a unit another opponent
        of which, outside this melee, stands (6.3.6: "wszyscy jego przeciwnicy zostali odrzuceni
        lub wpadli w panikę"; :func:`szwadron.table.melee.other_opponents`): its pursuit test is
        no test, no choice of pursuit either, and it holds.
    """

    morale: int
    strength: int
    initial: int
    modifier: int = 0
    panicking: bool = False
    pursues: bool = True

    def __post_init__(self) -> None:
        _check_strength(self.strength, self.initial)
        if self.strength < 1:
            raise InvalidDataError("a unit in melee needs at least one figure")

    def target_after(self, removed: int) -> int:
        """The test target (0..6) at the strength left after ``removed`` figures."""
        return morale_target(self.morale, self.strength - removed, self.initial, self.modifier)


Pair = tuple[MeleeOutcome, MeleeOutcome]


@lru_cache(maxsize=8192)
def _sequence_weights(
    a_target: int,
    d_target: int,
    a_hit: bool,
    d_hit: bool,
    a_destroyed: bool,
    d_destroyed: bool,
    d_panicking: bool,
    a_pursues: bool = True,
    d_pursues: bool = True,
) -> tuple[tuple[Pair, int], ...]:
    """5.5 for one realisation of the losses: (attacker, defender) outcomes, weights over 6⁴; a
    side that cannot pursue (artillery, 6.7.1) rolls no pursuit test and holds."""
    six = MORALE_DIE_SIDES
    E, H, R, P, U, X = (
        MeleeOutcome.ENGAGED,
        MeleeOutcome.HELD,
        MeleeOutcome.REPULSED,
        MeleeOutcome.PANIC,
        MeleeOutcome.PURSUIT,
        MeleeOutcome.DESTROYED,
    )

    def test63(target: int) -> list[tuple[MeleeOutcome | None, int, int]]:
        # 6.3: (None = passed, weight, dice used)
        return [(None, target, 1), (R, (six - target) * target, 2), (P, (six - target) ** 2, 2)]

    out: dict[Pair, int] = {}

    def add(pair: Pair, weight: int, dice: int) -> None:
        if weight:
            out[pair] = out.get(pair, 0) + weight * six ** (4 - dice)

    # 5.5.2 — the defender first.
    if d_destroyed:
        defender: list[tuple[MeleeOutcome | None, int, int]] = [(X, 1, 0)]
    elif d_panicking:
        defender = [(P, 1, 0)]  # 6.6: no test for losses, keeps fleeing
    elif d_hit:
        defender = test63(d_target)
    else:
        defender = [(None, 1, 0)]  # 5.5.1: no losses, passes automatically

    for d_res, dw, dn in defender:
        if a_destroyed:
            add((X, H if d_res is None else d_res), dw, dn)  # PD-18: no pursuit test
            continue
        if d_res in (R, P):
            # 5.5.3 — the attacker tests for uncontrolled pursuit (only with losses, 6.3.6).
            if a_hit and a_pursues:
                add((H, d_res), dw * a_target, dn + 1)
                add((U, d_res), dw * (six - a_target), dn + 1)
            else:
                add((H, d_res), dw, dn)
            continue
        # Defender passed (5.5.4) or was destroyed (6.3.1): the attacker tests if it has losses.
        attacker = test63(a_target) if a_hit else [(None, 1, 0)]
        for a_res, aw, an in attacker:
            w, n = dw * aw, dn + an
            if d_res is X:
                add((H if a_res is None else a_res, X), w, n)
            elif a_res is None:
                add((E, E), w, n)  # 5.5.7
            elif d_hit and d_pursues:
                # 5.5.5 — the defender tests for pursuit.
                add((a_res, H), w * d_target, n + 1)
                add((a_res, U), w * (six - d_target), n + 1)
            else:
                add((a_res, H), w, n)
    return tuple(out.items())


def melee_sequence(
    attacker_target: int,
    defender_target: int,
    *,
    attacker_hit: bool,
    defender_hit: bool,
    attacker_destroyed: bool = False,
    defender_destroyed: bool = False,
    defender_panicking: bool = False,
    attacker_pursues: bool = True,
    defender_pursues: bool = True,
) -> Distribution[Pair]:
    """5.5, 6.3, PD-18 — the (attacker, defender) outcome of the melee morale tests.

    For one realisation of the losses: which sides took losses (``*_hit``: damage > 0), which
    were destroyed, and each side's test target (0..6, :func:`morale_target` after removal).
    Order: the defender tests (5.5.2); if repulsed or panicked the attacker tests for pursuit
    (5.5.3), otherwise it tests for repulse/panic (5.5.4) and if it fails the defender tests for
    pursuit (5.5.5); both standing stay engaged (5.5.7). A side that cannot pursue
    (``*_pursues`` false: artillery, 6.7.1) takes no pursuit test and holds. See the module notes
    for decisions.

    Examples
    --------
    >>> seq = melee_sequence(3, 3, attacker_hit=True, defender_hit=True)
    >>> seq.probability((MeleeOutcome.ENGAGED, MeleeOutcome.ENGAGED))   # both pass: 1/2 · 1/2
    Fraction(1, 4)
    >>> melee_sequence(3, 3, attacker_hit=False, defender_hit=False).outcomes()
    [(<MeleeOutcome.ENGAGED: 'engaged'>, <MeleeOutcome.ENGAGED: 'engaged'>)]
    """
    for t in (attacker_target, defender_target):
        if not 0 <= t <= MORALE_DIE_SIDES:
            raise InvalidDataError(_("a test target must be 0..6, got {value}").format(value=t))
    return Distribution(
        dict(
            _sequence_weights(
                attacker_target,
                defender_target,
                attacker_hit,
                defender_hit,
                attacker_destroyed,
                defender_destroyed,
                defender_panicking,
                attacker_pursues,
                defender_pursues,
            )
        )
    )


def melee_outcomes(
    losses: Distribution[tuple[int, bool, int, bool]],
    attacker: MeleeMorale,
    defender: MeleeMorale,
) -> Distribution[Pair]:
    """5.5 — the joint outcome table, integrated exactly over the melee's losses.

    Parameters
    ----------
    losses:
        Outcomes ``(attacker removed, attacker took damage, defender removed, defender took
        damage)`` — :attr:`szwadron.odds.combat.MeleeOdds.losses`.
    attacker, defender:
        Morale profiles; tests use the strength after removal.

    Examples
    --------
    >>> losses = Distribution({(0, False, 1, True): 1, (0, False, 0, False): 1})
    >>> side = MeleeMorale(morale=4, strength=4, initial=4)
    >>> out = melee_outcomes(losses, side, side)
    >>> # no losses: engaged; 1 of 4 lost: the defender tests at M 4 − 1 (6.2.4), passes 1/2
    >>> out.probability((MeleeOutcome.ENGAGED, MeleeOutcome.ENGAGED))
    Fraction(3, 4)
    """
    if attacker.panicking:
        raise InvalidDataError("a panicking unit cannot attack (6.1)")
    grouped: dict[tuple[int, int, bool, bool, bool, bool], int] = {}
    a_targets: dict[int, int] = {}  # each side's target after so many removed, computed once
    d_targets: dict[int, int] = {}
    for (ar, ah, dr, dh), w in losses.items():
        if ar > attacker.strength or dr > defender.strength:
            raise InvalidDataError("more figures removed than the unit has")
        a_dest, d_dest = ar == attacker.strength, dr == defender.strength
        if not a_dest and ar not in a_targets:
            a_targets[ar] = attacker.target_after(ar)
        if not d_dest and dr not in d_targets:
            d_targets[dr] = defender.target_after(dr)
        key = (
            0 if a_dest else a_targets[ar],
            0 if d_dest else d_targets[dr],
            ah,
            dh,
            a_dest,
            d_dest,
        )
        grouped[key] = grouped.get(key, 0) + w
    acc: dict[Pair, int] = {}
    for (at, dt, ah, dh, a_dest, d_dest), w in grouped.items():
        for pair, sw in _sequence_weights(
            at, dt, ah, dh, a_dest, d_dest, defender.panicking, attacker.pursues, defender.pursues
        ):
            acc[pair] = acc.get(pair, 0) + w * sw
    return Distribution(acc)


# --- one seeded resolution -------------------------------------------------------------------
@dataclass(frozen=True)
class MoraleRoll:
    """One morale test rolled: the face, the target, passed?"""

    kind: str
    face: int
    target: int

    @property
    def passed(self) -> bool:
        """6.2: pass on a roll ≤ the target."""
        return self.face <= self.target

    def __str__(self) -> str:
        verdict = _("pass") if self.passed else _("fail")
        return _("{test} test: rolled {face} vs ≤{target} — {verdict}").format(
            test=term(self.kind), face=self.face, target=self.target, verdict=verdict
        )


def roll_test(kind: str, target: int, rng: random.Random) -> MoraleRoll:
    """6.2 — roll one morale test (one d6 against ``target``).

    >>> roll_test("repulse", 6, random.Random(0)).passed
    True
    """
    return MoraleRoll(kind, rng.randint(1, MORALE_DIE_SIDES), target)


def roll_casualty_test(target: int, rng: random.Random) -> tuple[FireOutcome, list[MoraleRoll]]:
    """6.3 — roll the repulse test and, on failure, the panic test.

    >>> roll_casualty_test(0, random.Random(0))[0]
    <FireOutcome.PANIC: 'panic'>
    """
    first = roll_test("repulse", target, rng)
    if first.passed:
        return FireOutcome.PASSED, [first]
    second = roll_test("panic", target, rng)
    return (FireOutcome.REPULSED if second.passed else FireOutcome.PANIC), [first, second]


def roll_melee_sequence(
    attacker_target: int,
    defender_target: int,
    rng: random.Random,
    *,
    attacker_hit: bool,
    defender_hit: bool,
    attacker_destroyed: bool = False,
    defender_destroyed: bool = False,
    defender_panicking: bool = False,
    attacker_pursues: bool = True,
    defender_pursues: bool = True,
    chosen_pursuit: frozenset[str] = frozenset(),
) -> tuple[Pair, list[MoraleRoll]]:
    """5.5 — roll the melee morale sequence once, with the same rules as :func:`melee_sequence`.
    A side in ``chosen_pursuit`` (``"attacker"``, ``"defender"``) whose opponent is repulsed or
    panics pursues without a roll: its player skips the test and chooses pursuit (6.3.6: "Gracz
    może zaniechać tego rzutu i zdecydować, że oddział wpada w niekontrolowany pościg"; 5.5.8,
    a side without losses may choose to pursue too); artillery never pursues (6.7.1).

    Returns the (attacker, defender) outcome and the tests rolled, in order.

    >>> pair, rolls = roll_melee_sequence(6, 6, random.Random(0), attacker_hit=True, defender_hit=True)
    >>> pair, len(rolls)
    ((<MeleeOutcome.ENGAGED: 'engaged'>, <MeleeOutcome.ENGAGED: 'engaged'>), 2)
    """
    rolls: list[MoraleRoll] = []

    def test63(who: str, target: int) -> MeleeOutcome | None:
        first = roll_test(f"{who} repulse", target, rng)
        rolls.append(first)
        if first.passed:
            return None
        second = roll_test(f"{who} panic", target, rng)
        rolls.append(second)
        return MeleeOutcome.REPULSED if second.passed else MeleeOutcome.PANIC

    def pursuit(who: str, target: int, hit: bool, pursues: bool) -> MeleeOutcome:
        if pursues and who in chosen_pursuit:  # 6.3.6, 5.5.8: the player chooses pursuit, no roll
            return MeleeOutcome.PURSUIT
        if not hit or not pursues:  # 6.3.6: no losses, no test; 6.7.1: artillery never pursues
            return MeleeOutcome.HELD
        test = roll_test(f"{who} pursuit", target, rng)
        rolls.append(test)
        return MeleeOutcome.HELD if test.passed else MeleeOutcome.PURSUIT

    d_res: MeleeOutcome | None
    if defender_destroyed:
        d_res = MeleeOutcome.DESTROYED
    elif defender_panicking:
        d_res = MeleeOutcome.PANIC
    elif defender_hit:
        d_res = test63("defender", defender_target)
    else:
        d_res = None
    if attacker_destroyed:
        return (MeleeOutcome.DESTROYED, d_res or MeleeOutcome.HELD), rolls
    if d_res in (MeleeOutcome.REPULSED, MeleeOutcome.PANIC):
        return (pursuit("attacker", attacker_target, attacker_hit, attacker_pursues), d_res), rolls
    a_res = test63("attacker", attacker_target) if attacker_hit else None
    if d_res is MeleeOutcome.DESTROYED:
        return (a_res or MeleeOutcome.HELD, d_res), rolls
    if a_res is None:
        return (MeleeOutcome.ENGAGED, MeleeOutcome.ENGAGED), rolls
    return (a_res, pursuit("defender", defender_target, defender_hit, defender_pursues)), rolls


__all__ = [
    "MORALE_DIE_SIDES",
    "CasualtyTest",
    "FireOutcome",
    "MeleeMorale",
    "MeleeOutcome",
    "MoraleRoll",
    "casualty_modifier",
    "casualty_test",
    "fire_outcome",
    "melee_outcomes",
    "melee_sequence",
    "morale_pass_chance",
    "morale_target",
    "roll_casualty_test",
    "roll_melee_sequence",
    "roll_test",
]
