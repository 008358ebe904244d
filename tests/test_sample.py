"""Issue 14 — drawing volleys, melee exchanges and morale tests from their exact distributions
(szwadron.odds.sample), the fast sampler of the simulations.

The tables must give every outcome the probability the dice give it: volleys are cross-checked
against brute force over every face of the dice (4.6, 1.5.1), the melee table against the exact
melee odds it is built from (5.3–5.5), the casualty test against 6.3, and whole duels played with
the table sampler against the per-die roller (the same win rates within sampling error).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from szwadron.armies.duel import BattleConditions, DuelUnit, Weapon, run_army_battle, run_duel
from szwadron.errors import InvalidDataError
from szwadron.models import Kind
from szwadron.odds.combat import MeleeSide, melee
from szwadron.odds.morale import FireOutcome, casualty_test
from szwadron.odds.sample import (
    casualty_table,
    loss_table,
    melee_table,
    sample_melee,
    sequence_table,
    test_passes,
    volley_table,
)
from tests.brute import brute_removal


def brute_volley(dice: int, accuracy: int, wounds: int, cap: int) -> dict[tuple[int, bool], Fraction]:
    """Every face of ``dice`` d6 (4.6: a die ≤ C scores 1 damage), then the removal (1.5.1)."""
    out: dict[tuple[int, bool], Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        damage = sum(f <= accuracy for f in faces)
        for removed, p in brute_removal(damage, (wounds,) * cap).items():
            key = (removed, damage > 0)
            out[key] = out.get(key, Fraction(0)) + p / 6**dice
    return out


@pytest.mark.parametrize(("dice", "accuracy", "wounds", "cap"), [(3, 3, 1, 6), (4, 2, 2, 6), (3, 5, 3, 1)])
def test_volley_table_is_the_brute_force_volley_4_6_1_5_1(
    dice: int, accuracy: int, wounds: int, cap: int
) -> None:
    table = volley_table(((dice, accuracy),), wounds, False, False, cap)
    assert table is not None
    brute = brute_volley(dice, accuracy, wounds, cap)
    assert set(table.outcomes) == {k for k, p in brute.items() if p}
    for outcome, p in brute.items():
        assert table.probability(outcome) == pytest.approx(float(p), abs=1e-12)


def test_volley_without_dice_is_none_4_11() -> None:
    # 4.11: one die on the march is halved to none.
    assert volley_table(((1, 3),), 1, False, True, 6) is None


@pytest.mark.parametrize("target", [-1, 0, 1, 3, 5, 6, 7])
def test_casualty_table_is_6_3(target: int) -> None:
    exact = casualty_test(4, 4, 4, target - 4) if 0 <= target <= 6 else None
    table = casualty_table(target)
    if exact is not None:
        assert table.probability(FireOutcome.REPULSED) == pytest.approx(float(exact.repulsed))
        assert table.probability(FireOutcome.PANIC) == pytest.approx(float(exact.panic))
    p = min(max(target, 0), 6) / 6
    assert table.probability(FireOutcome.PASSED) == pytest.approx(p)


def test_one_test_passes_with_its_chance_6_2() -> None:
    rng = random.Random("6.2")
    passed = sum(test_passes(4, rng) for _ in range(60_000))
    assert passed / 60_000 == pytest.approx(4 / 6, abs=0.01)
    assert not any(test_passes(0, rng) for _ in range(1000))
    assert all(test_passes(6, rng) for _ in range(1000))


@pytest.mark.parametrize("first_strike", [None, "attacker", "defender"])
def test_melee_table_keeps_the_exact_odds_5_3_5_5_7_7(first_strike: str | None) -> None:
    a = MeleeSide.uniform(4, melee=1, skill=3, wounds=1, morale=4, strength=8, initial=10)
    d = MeleeSide.uniform(3, melee=2, skill=4, wounds=2, morale=5, strength=6, initial=6)
    odds = melee(a, d, first_strike=first_strike)  # type: ignore[arg-type]
    table = melee_table(a, d, first_strike)  # type: ignore[arg-type]
    joint: dict[tuple[int, int], float] = {}
    outcomes: dict[tuple[object, object], float] = {}
    prev = 0.0
    for (ar, dr, ao, do), c in zip(table.outcomes, table.cumulative, strict=True):
        joint[(ar, dr)] = joint.get((ar, dr), 0.0) + c - prev
        outcomes[(ao, do)] = outcomes.get((ao, do), 0.0) + c - prev
        prev = c
    for (ar, dr), p in odds.joint.probabilities().items():
        assert joint.get((ar, dr), 0.0) == pytest.approx(float(p), abs=1e-12)
    for pair, p in odds.outcomes.probabilities().items():
        assert outcomes.get(pair, 0.0) == pytest.approx(float(p), abs=1e-12)


def test_table_samples_follow_their_probabilities() -> None:
    table = volley_table(((6, 3),), 1, False, False, 12)
    assert table is not None
    rng = random.Random("freq")
    n = 40_000
    counts: dict[tuple[int, bool], int] = {}
    for _ in range(n):
        o = table.sample(rng)
        counts[o] = counts.get(o, 0) + 1
    for o in table.outcomes:
        p = table.probability(o)
        assert counts.get(o, 0) / n == pytest.approx(p, abs=4 * (p * (1 - p) / n) ** 0.5 + 1e-9)


LINE = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
HUSSARS = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())
GUN = DuelUnit(
    "gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4, (Weapon("roundshot", 48, 2, 3), Weapon("canister", 14, 4, 4))
)


@pytest.mark.parametrize(
    ("a", "na", "b", "nb"), [(LINE, 12, HUSSARS, 8), (LINE, 12, GUN, 2), (HUSSARS, 6, GUN, 1)]
)
def test_exact_sampler_plays_duels_as_the_dice_do(a: DuelUnit, na: int, b: DuelUnit, nb: int) -> None:
    """The two samplers are the same game: their win rates agree within sampling error."""
    n = 1500
    rates = {}
    for sampler in ("dice", "exact"):
        rates[sampler] = (
            sum(run_duel(a, na, b, nb, seed=f"s:{k}", first=k % 2, sampler=sampler).score_a for k in range(n))
            / n  # type: ignore[arg-type]
        )
    p = rates["dice"]
    assert abs(rates["exact"] - p) <= 4 * (2 * max(p * (1 - p), 0.01) / n) ** 0.5


def test_exact_battles_are_seeded() -> None:
    army_a = [(LINE, 12), (HUSSARS, 6)]
    army_b = [(LINE, 12), (GUN, 1)]
    runs = [
        run_army_battle(army_a, army_b, seed="x", conditions=BattleConditions(sampler="exact"))
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_unknown_sampler_is_bad_input() -> None:
    with pytest.raises(InvalidDataError, match="sampler"):
        run_duel(LINE, 1, LINE, 1, seed=1, sampler="fast")  # type: ignore[arg-type]


def _composed(a: MeleeSide, d: MeleeSide, first_strike: str | None) -> dict[tuple[object, ...], float]:
    """The distribution :func:`sample_melee` draws from, enumerated over its tables."""

    def rows(table: object) -> list[tuple[object, float]]:
        prev, out = 0.0, []
        for o, c in zip(table.outcomes, table.cumulative, strict=True):  # type: ignore[attr-defined]
            out.append((o, c - prev))
            prev = c
        return out

    wa = tuple(f.wounds for f in a.fighters)
    wd = tuple(f.wounds for f in d.fighters)
    dist: dict[tuple[object, ...], float] = {}
    first = (a, wd) if first_strike != "defender" else (d, wa)
    for (r1, h1), p1 in rows(loss_table(first[0].strike_groups(0), first[1])):
        if first_strike == "attacker":
            second = loss_table(d.strike_groups(r1), wa)
        elif first_strike == "defender":
            second = loss_table(a.strike_groups(r1), wd)
        else:
            second = loss_table(d.strike_groups(0), wa)
        for (r2, h2), p2 in rows(second):
            if first_strike == "defender":
                ar, ah, dr, dh = r1, h1, r2, h2
            else:
                dr, dh, ar, ah = r1, h1, r2, h2
            ad, dd = ar == a.morale.strength, dr == d.morale.strength
            seq = sequence_table(
                0 if ad else a.morale.target_after(ar),
                0 if dd else d.morale.target_after(dr),
                ah,
                dh,
                ad,
                dd,
                False,
            )
            for (ao, do), p3 in rows(seq):
                key = (ar, dr, ao, do)
                dist[key] = dist.get(key, 0.0) + p1 * p2 * p3
    return dist


@pytest.mark.parametrize("first_strike", [None, "attacker", "defender"])
def test_sample_melee_draws_from_the_exact_melee_5_3_5_5_7_7(first_strike: str | None) -> None:
    """The step-by-step draw (losses of each side, then 5.5) composes to :func:`melee`'s table."""
    a = MeleeSide.uniform(5, melee=1, skill=3, wounds=2, morale=4, strength=9, initial=12)
    d = MeleeSide.uniform(4, melee=2, skill=4, wounds=1, morale=5, strength=4, initial=6)
    exact = melee_table(a, d, first_strike)  # type: ignore[arg-type]
    composed = _composed(a, d, first_strike)
    for outcome in set(exact.outcomes) | set(composed):
        assert composed.get(outcome, 0.0) == pytest.approx(exact.probability(outcome), abs=1e-12)
    rng = random.Random("melee")
    n = 20_000
    hits = sum(sample_melee(a, d, first_strike, rng)[1] == d.morale.strength for _ in range(n))  # type: ignore[arg-type]
    p = sum(pr for o, pr in composed.items() if o[1] == d.morale.strength)
    assert hits / n == pytest.approx(p, abs=4 * (p * (1 - p) / n) ** 0.5 + 1e-9)
