"""6.2, 6.3, 5.5, PD-16, PD-18 — morale test odds, the outcome of fire, the melee sequence."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from every_face import every_face

from szwadron.errors import InvalidDataError
from szwadron.odds.combat import volley
from szwadron.odds.dice import Distribution
from szwadron.odds.morale import (
    FireOutcome,
    MeleeOutcome,
    casualty_modifier,
    casualty_test,
    fire_outcome,
    melee_sequence,
    morale_pass_chance,
    roll_melee_sequence,
)

E, H, R, P, U, X = (
    MeleeOutcome.ENGAGED,
    MeleeOutcome.HELD,
    MeleeOutcome.REPULSED,
    MeleeOutcome.PANIC,
    MeleeOutcome.PURSUIT,
    MeleeOutcome.DESTROYED,
)


# --- 6.2 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "strength,initial,expected",
    [
        (12, 12, 0),
        (10, 12, 0),
        (9, 12, -1),
        (7, 12, -1),
        (6, 12, -2),
        (4, 12, -2),
        (3, 12, -4),
        (1, 12, -4),
        (3, 4, -1),
        (2, 4, -2),
        (1, 4, -4),
        (7, 10, -1),
        (8, 10, 0),
        (5, 10, -2),
        (2, 10, -4),
        (3, 10, -2),
    ],
)
def test_6_2_4_casualty_modifier_thresholds(strength: int, initial: int, expected: int) -> None:
    """6.2.4 — "does not exceed" 3/4 → −1, 1/2 → −2, 1/4 → −4; only the largest applies."""
    assert casualty_modifier(strength, initial) == expected


def test_pd_16_pass_chance_is_clamped_target_over_six() -> None:
    """PD-16 — clamp(M + modifiers, 0, 6)/6; no automatic pass or fail on any face."""
    assert morale_pass_chance(4, 10, 10) == Fraction(4, 6)
    assert morale_pass_chance(4, 10, 10, modifier=1) == Fraction(5, 6)
    assert morale_pass_chance(6, 10, 10, modifier=2) == 1
    assert morale_pass_chance(3, 2, 10) == 0  # 3 − 4 < 0
    assert morale_pass_chance(5, 5, 10, modifier=-1) == Fraction(2, 6)


def test_6_3_casualty_test_repulse_then_panic() -> None:
    """6.3 — fail the repulse test → at once the panic test: repulsed p(1−p), panic (1−p)²."""
    t = casualty_test(3, 12, 12)
    assert (t.passed, t.repulsed, t.panic) == (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    assert t.passed + t.repulsed + t.panic == 1
    assert t.to_json() == {"pass": 0.5, "repulsed": 0.25, "panic": 0.25}


@pytest.mark.parametrize("args", [(4, 13, 12), (4, -1, 12), (4, 3, 0), ("4", 3, 4)])
def test_6_2_bad_strengths_are_invalid(args: tuple[Any, int, int]) -> None:
    """6.2.4 — strength above initial, negative strength, initial < 1, M not a number."""
    with pytest.raises(InvalidDataError):
        morale_pass_chance(*args)


# --- fire outcome --------------------------------------------------------------------------------
def brute_fire_outcome(
    dice: int, acc: int, w: int, morale: int, strength: int, initial: int
) -> dict[FireOutcome, Fraction]:
    """Enumerate the fire dice, the remainder die and the morale dice (4.8.1, 6.3, PD-18)."""
    from szwadron.odds.combat import roll_removal
    from szwadron.odds.morale import morale_target, roll_casualty_test

    def run(rng: Any) -> FireOutcome:
        faces = [rng.randint(1, 6) for _ in range(dice)]
        damage = sum(f <= acc for f in faces)
        if damage == 0:
            return FireOutcome.NO_TEST
        removed = roll_removal(damage, w, rng, cap=strength).removed
        if removed == strength:
            return FireOutcome.DESTROYED
        return roll_casualty_test(morale_target(morale, strength - removed, initial), rng)[0]

    return every_face(run)


@pytest.mark.parametrize(
    "dice,acc,w,morale,strength,initial",
    [(3, 3, 2, 4, 4, 4), (4, 4, 1, 3, 3, 6), (2, 5, 3, 5, 2, 2), (4, 2, 2, 6, 5, 8)],
)
def test_4_8_fire_outcome_equals_brute_force(
    dice: int, acc: int, w: int, morale: int, strength: int, initial: int
) -> None:
    """4.8.1, 6.3 — the outcome of fire, exactly as enumerating every die and every test."""
    v = volley([(dice, acc)], w, cap=strength)
    got = fire_outcome(v.removed, v.no_damage, morale=morale, strength=strength, initial=initial)
    brute = brute_fire_outcome(dice, acc, w, morale, strength, initial)
    assert got.probabilities() == {k: p for k, p in brute.items() if p}
    assert sum(got.probabilities().values()) == 1


def test_6_3_1_damage_without_removal_still_tests() -> None:
    """6.3.1 — a test follows damage even when no figure is removed: W 3, one die at C6."""
    v = volley([(1, 6)], 3)
    out = fire_outcome(v.removed, v.no_damage, morale=4, strength=6, initial=6)
    assert out.probability(FireOutcome.NO_TEST) == 0
    assert sum(out.probabilities().values()) == 1
    assert out.probability(FireOutcome.PASSED) > 0


def test_6_2_4_fire_tests_use_strength_after_removal() -> None:
    """6.2.4 — 12 of 12 losing exactly 4 tests at 8/12 (≤ 3/4): M 4 − 1."""
    removed = Distribution.point(4)
    out = fire_outcome(removed, Fraction(0), morale=4, strength=12, initial=12)
    assert out.probability(FireOutcome.PASSED) == Fraction(3, 6)


def test_pd_18_fire_destroying_the_unit_takes_no_test() -> None:
    """PD-18 — every figure removed: destroyed, no test."""
    out = fire_outcome(Distribution.point(3), Fraction(0), morale=4, strength=3, initial=6)
    assert out == Distribution.point(FireOutcome.DESTROYED)


def test_4_8_fire_outcome_rejects_removal_above_strength() -> None:
    """PD-10 — more figures removed than the unit has is invalid."""
    with pytest.raises(InvalidDataError):
        fire_outcome(Distribution.point(5), Fraction(0), morale=4, strength=3, initial=6)


# --- 5.5 ---------------------------------------------------------------------------------------
def test_5_5_1_no_losses_both_pass_automatically_and_stay_engaged() -> None:
    """5.5.1, 5.5.7 — no losses on either side: both pass, both stay engaged."""
    seq = melee_sequence(0, 0, attacker_hit=False, defender_hit=False)
    assert seq == Distribution.point((E, E))


def test_5_5_3_defender_repulsed_attacker_tests_pursuit() -> None:
    """5.5.2, 5.5.3, 6.3.6 — defender at 0 always panics (both tests fail); the attacker with
    losses tests pursuit: pass → held, fail → uncontrolled pursuit."""
    seq = melee_sequence(4, 0, attacker_hit=True, defender_hit=True)
    assert seq.probabilities() == {(H, P): Fraction(4, 6), (U, P): Fraction(2, 6)}


def test_5_5_3_attacker_without_losses_holds_when_defender_flees() -> None:
    """5.5.1, 6.3.6 — an attacker without losses takes no pursuit test: it holds."""
    seq = melee_sequence(1, 0, attacker_hit=False, defender_hit=True)
    assert seq == Distribution.point((H, P))


def test_5_5_4_5_5_5_defender_passes_attacker_fails_defender_tests_pursuit() -> None:
    """5.5.4, 5.5.5 — defender passes (6); attacker fails (0) → panic; defender tests pursuit."""
    seq = melee_sequence(0, 6, attacker_hit=True, defender_hit=True)
    assert seq == Distribution.point((P, H))  # the defender at 6 passes its pursuit test
    seq = melee_sequence(0, 3, attacker_hit=True, defender_hit=True)
    # defender passes 1/2 → attacker panics → defender pursuit test passes 1/2
    # defender fails 1/2 → repulsed 1/4, panic 1/4 → the attacker (target 0) fails pursuit
    assert seq.probabilities() == {
        (P, H): Fraction(1, 4),
        (P, U): Fraction(1, 4),
        (U, R): Fraction(1, 4),
        (U, P): Fraction(1, 4),
    }


def test_pd_18_destroyed_defender_no_pursuit_test_attacker_tests_repulse() -> None:
    """PD-18, 6.3.1 — a destroyed defender is neither repulsed nor panicked: no pursuit test;
    the attacker with losses takes its repulse test."""
    seq = melee_sequence(3, 0, attacker_hit=True, defender_hit=True, defender_destroyed=True)
    assert seq.probabilities() == {(H, X): Fraction(1, 2), (R, X): Fraction(1, 4), (P, X): Fraction(1, 4)}
    seq = melee_sequence(3, 0, attacker_hit=False, defender_hit=True, defender_destroyed=True)
    assert seq == Distribution.point((H, X))


def test_pd_18_destroyed_attacker_defender_takes_no_pursuit_test() -> None:
    """PD-18 — the defender tests for its losses; no pursuit test for a destroyed attacker."""
    seq = melee_sequence(0, 6, attacker_hit=True, defender_hit=True, attacker_destroyed=True)
    assert seq == Distribution.point((X, H))


def test_pd_18_both_destroyed() -> None:
    """PD-18 — both destroyed: (destroyed, destroyed), no tests."""
    seq = melee_sequence(
        0, 0, attacker_hit=True, defender_hit=True, attacker_destroyed=True, defender_destroyed=True
    )
    assert seq == Distribution.point((X, X))


def test_6_6_panicking_defender_takes_no_test_and_counts_as_panicked() -> None:
    """6.6, 5.5.3 — a panicking defender takes no test for losses; the attacker with losses
    tests pursuit."""
    seq = melee_sequence(3, 6, attacker_hit=True, defender_hit=True, defender_panicking=True)
    assert seq.probabilities() == {(H, P): Fraction(1, 2), (U, P): Fraction(1, 2)}


@pytest.mark.parametrize(
    "a_hit,d_hit,a_dest,d_dest,d_panic",
    list(itertools.product((False, True), repeat=5)),
)
def test_5_5_sequence_equals_enumerated_rolled_sequence(
    a_hit: bool, d_hit: bool, a_dest: bool, d_dest: bool, d_panic: bool
) -> None:
    """5.5 — the exact table equals enumerating every die of the rolled sequence (two separate
    implementations), for several test targets."""
    for at, dt in ((0, 6), (2, 3), (5, 1), (3, 3)):
        exact = melee_sequence(
            at,
            dt,
            attacker_hit=a_hit,
            defender_hit=d_hit,
            attacker_destroyed=a_dest,
            defender_destroyed=d_dest,
            defender_panicking=d_panic,
        )

        def run(rng: Any, at: int = at, dt: int = dt) -> tuple[MeleeOutcome, MeleeOutcome]:
            return roll_melee_sequence(
                at,
                dt,
                rng,
                attacker_hit=a_hit,
                defender_hit=d_hit,
                attacker_destroyed=a_dest,
                defender_destroyed=d_dest,
                defender_panicking=d_panic,
            )[0]

        brute = every_face(run)
        assert exact.probabilities() == {k: v for k, v in brute.items() if v}
