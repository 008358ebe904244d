"""4.6, 1.5.1 — volleys: exact damage and figures removed, against brute force, Monte Carlo, icepool.

Rules covered: 4.5.4 (C ≤ 0 cannot score), 4.6, 4.10.8 and PD-13 (mixed W in removal order),
4.11 (fire on the march), 7.4 (indirect C − 1), 7.5 and PD-17 (skirmish: W doubled), PD-9
(groups with their own accuracy), PD-10 (cap at the eligible figures), PD-5 (remainder die).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from szwadron.errors import InvalidDataError
from szwadron.odds.combat import removal_weights, volley
from szwadron.odds.dice import Distribution
from szwadron.odds.remainder import DIE_SIDES, remainder_roll
from tests.brute import brute_removal


# --- independent reference implementations -------------------------------------------------------
def brute_volley(
    groups: Sequence[tuple[int, int]], wounds: Sequence[int], die: str = "d6"
) -> Distribution[int]:
    """Enumerate every face of every fire die (numpy, up to 8 dice), then every remainder face."""
    accs = [acc for dice, acc in groups for _ in range(dice)]
    n = len(accs)
    faces = np.indices((6,) * n, dtype=np.int8).reshape(n, -1) + 1
    scored = (faces <= np.array(accs, dtype=np.int8)[:, None]).sum(axis=0)
    counts = np.bincount(scored, minlength=n + 1)
    probs: dict[int, Fraction] = {}
    for dmg, count in enumerate(counts.tolist()):
        if count:
            for k, p in brute_removal(dmg, wounds, die).items():
                probs[k] = probs.get(k, Fraction(0)) + p * Fraction(count, 6**n)
    return Distribution.from_probabilities(probs)


BRUTE_CASES = [
    # groups, wounds (removal order), die, cap-as-list meaning
    ([(8, 3)], [2] * 8, "d6"),
    ([(5, 3), (3, 2)], [3, 3], "d6"),  # PD-10: capped at 2 eligible figures
    ([(6, 4)], [1, 2, 3], "d6"),  # PD-13: mixed W
    ([(4, 5), (3, 1)], [2, 2, 1, 3], "d10"),
    ([(7, 2)], [7] * 3, "d6"),  # W 7 on a d6: PD-5 fallback
    ([(8, 6)], [4, 4, 4], "d10"),
]


@pytest.mark.parametrize("groups,wounds,die", BRUTE_CASES)
def test_4_6_volley_equals_brute_force_enumeration(
    groups: list[tuple[int, int]], wounds: list[int], die: str
) -> None:
    """4.6, 1.5.1, PD-13 — exact: identical to enumerating every die, up to 8 dice."""
    got = volley(groups, wounds, die=die)
    assert got.removed == brute_volley(groups, wounds, die)


def test_pd_10_cap_equals_list_of_equal_wounds() -> None:
    """PD-10 — W with a cap of F figures is the removal order of F figures of that W."""
    a = volley([(20, 3)], 2, cap=5)
    b = volley([(20, 3)], [2] * 5)
    assert a.removed == b.removed
    assert max(a.removed.outcomes()) == 5


def test_pd_10_capped_top_is_the_uncapped_tail() -> None:
    """PD-10 — extra damage is lost: P(removed = F) = P(uncapped removed ≥ F)."""
    capped = volley([(30, 4)], 2, cap=6)
    free = volley([(30, 4)], 2)
    assert capped.removed.probability(6) == free.removed.at_least(6)
    for k in range(6):
        assert capped.removed.probability(k) == free.removed.probability(k)


@pytest.mark.parametrize("die,w", [("d6", w) for w in range(1, 7)] + [("d10", w) for w in range(1, 11)])
def test_1_5_1_expected_removed_is_dice_c_over_6w_where_exact(die: str, w: int) -> None:
    """1.5.1 — with no cap, E[removed] = dice·C/(6·W) exactly where the remainder roll is exact.

    On a d6 that is every W ≤ 6 (every reduced denominator fits the die), on a d10 W ≤ 10.
    """
    for dice, acc in [(1, 3), (7, 2), (24, 5), (60, 3)]:
        v = volley([(dice, acc)], w, die=die)
        assert v.expected_fraction == Fraction(dice * acc, 6 * w)


@pytest.mark.parametrize("w", [7, 8, 9, 10, 11, 12])
def test_pd_5_expected_removed_is_biased_where_the_d6_fallback_applies(w: int) -> None:
    """PD-5 — where the d6 cannot give r/W (W ≥ 7) the mean is off dice·C/(6·W).

    One die that always scores leaves a remainder of 1: the fallback removes on a 1, 1/6, not
    1/W. A d10 is exact again up to W = 10.
    """
    v = volley([(1, 6)], w, die="d6")
    assert v.expected_fraction == Fraction(1, 6) != Fraction(1, w)
    if w <= 10:
        assert volley([(1, 6)], w, die="d10").expected_fraction == Fraction(1, w)


def test_pd_5_mean_is_the_remainder_rules_mean_and_may_cancel() -> None:
    """PD-5 — the mean is always Σ P(d)·(⌊d/W⌋ + chance(d mod W)); with rounding to the nearest
    face the errors can cancel (12 dice at C3 against W 9 happen to be exact), or not (W 7)."""
    from szwadron.odds.remainder import remainder_chance

    for w, exact in ((7, False), (9, True), (11, False)):
        v = volley([(12, 3)], w)
        rule_mean = sum(
            (p * (dmg // w + remainder_chance(dmg % w, w)) for dmg, p in v.damage.probabilities().items()),
            Fraction(0),
        )
        assert v.expected_fraction == rule_mean
        assert (v.expected_fraction == Fraction(12 * 3, 6 * w)) is exact


def test_pd_17_skirmish_doubles_w_and_halves_expected_losses() -> None:
    """7.5, PD-17 — skirmish: W doubled for this fire, expected losses exactly halved (W ≤ 3)."""
    for w in (1, 2, 3):
        normal = volley([(18, 4)], w)
        open_order = volley([(18, 4)], w, skirmish=True)
        assert open_order.removed == volley([(18, 4)], 2 * w).removed
        assert open_order.expected_fraction == normal.expected_fraction / 2
    mixed = volley([(9, 3)], [1, 2, 3], skirmish=True)
    assert mixed.wounds == (2, 4, 6)
    assert any("PD-17" in n for n in mixed.notes)


def test_4_11_march_halves_total_dice_rounded_down() -> None:
    """4.11 — fire on the march: half the SO, total rounded down."""
    v = volley([(13, 3)], 2, march=True)
    assert v.groups[0].dice == 6
    assert v.damage == volley([(6, 3)], 2).damage
    assert any("4.11" in n for n in v.notes)


def test_4_11_march_pools_half_dice_into_the_best_accuracy() -> None:
    """4.11 — 3 dice at C4 and 3 at C2: 6 SO → 3 dice; the two half dice make one at C4."""
    v = volley([(3, 4), (3, 2)], 2, march=True)
    assert sum(g.dice for g in v.groups) == 3
    assert {(g.dice, g.accuracy) for g in v.groups} == {(2, 4), (1, 2)}


def test_7_4_indirect_fire_is_c_minus_one() -> None:
    """7.4 — indirect fire: C − 1."""
    v = volley([(10, 4)], 2, indirect=True)
    assert v.groups[0].accuracy == 3
    assert v.removed == volley([(10, 3)], 2).removed


def test_4_5_4_accuracy_clamped_and_reported() -> None:
    """4.5.4 — C ≤ 0 scores nothing; C above 6 scores every die; both clamped and said so."""
    low = volley([(5, 1)], 1, indirect=True)
    assert low.damage == Distribution.point(0) and low.groups[0].accuracy == 0
    high = volley([(5, 9)], 1)
    assert high.damage == Distribution.point(5)
    assert high.notes == ("accuracy 9 clamped to 6 (0–6)",)
    neg = volley([(5, -2)], 1)
    assert "accuracy -2 clamped to 0 (0–6)" in neg.notes


def test_pd_9_groups_with_their_own_accuracy_add_hits() -> None:
    """PD-9 — groups roll separately and their hits add: damage is the convolution."""
    v = volley([(4, 3), (5, 2)], 1)
    a = volley([(4, 3)], 1).damage
    b = volley([(5, 2)], 1).damage
    assert v.damage == a + b


def test_4_10_8_cover_mix_removes_uncovered_figures_first() -> None:
    """4.10.8, PD-13 — W 2 in the open then W 3 in cover: 2 damage always removes the first."""
    dmg = [0, 0, 1]  # damage exactly 2
    weights, scale = removal_weights(dmg, [2, 3, 3])
    assert weights[1] == scale and sum(weights) == scale
    # 4 damage: one open figure (2), remainder 2 of the next W 3 → 2/3 chance of a second
    weights, scale = removal_weights([0, 0, 0, 0, 1], [2, 3, 3])
    assert Fraction(weights[2], scale) == Fraction(2, 3)


def test_4_6_distributions_sum_to_one_within_1e_12() -> None:
    """Design: floats at the edges sum to 1 within 1e-12; P(≥0) = 1."""
    v = volley([(240, 3), (120, 5)], [2, 3] * 100, die="d10")
    assert abs(sum(v.removed_pmf) - 1) < 1e-12
    assert abs(sum(v.damage_pmf) - 1) < 1e-12
    assert v.at_least[0] == 1.0


@pytest.mark.parametrize(
    "kwargs",
    [
        {"groups": [], "wounds": 2},
        {"groups": [(0, 3)], "wounds": 2},
        {"groups": [(-4, 3)], "wounds": 2},
        {"groups": [(4, 3)], "wounds": 0},
        {"groups": [(4, 3)], "wounds": [2, 0]},
        {"groups": [(4, 3)], "wounds": 2, "cap": -1},
        {"groups": [(4, 3)], "wounds": 2, "die": "d8"},
    ],
)
def test_4_6_bad_volley_input_is_invalid_data(kwargs: dict[str, object]) -> None:
    """Zero or negative dice, W < 1, negative cap, unknown die: InvalidDataError."""
    with pytest.raises(InvalidDataError):
        volley(**kwargs)  # type: ignore[arg-type]


# --- seeded Monte Carlo, chi-square ---------------------------------------------------------------
def chi2_critical(dof: int, z: float = 3.719) -> float:
    """Wilson–Hilferty: the chi-square quantile with upper tail Φ(−z) (z = 3.719: 1e-4)."""
    h = 2.0 / (9.0 * dof)
    return dof * (1.0 - h + z * math.sqrt(h)) ** 3


def chi_square(observed: np.ndarray, probs: Sequence[float], n: int) -> tuple[float, int]:
    """Chi-square over bins with expected ≥ 5; the small bins are merged into one."""
    expected = np.array(probs) * n
    obs = np.asarray(observed, dtype=float)[: len(expected)]
    big = expected >= 5
    stat = float((((obs[big] - expected[big]) ** 2) / expected[big]).sum())
    rest_e, rest_o = expected[~big].sum(), obs[~big].sum()
    bins = int(big.sum())
    if rest_e > 0:
        stat += (rest_o - rest_e) ** 2 / rest_e
        bins += 1
    return stat, bins - 1


def simulate_volley(
    groups: Sequence[tuple[int, int]], wounds: Sequence[int], die: str, n: int, seed: int
) -> np.ndarray:
    """Roll the volley n times with numpy: every die, then the remainder roll with rerolls."""
    rng = np.random.default_rng(seed)
    sides = DIE_SIDES[die]
    prefix = np.concatenate([[0], np.cumsum(wounds)])
    removed_all = []
    chunk = 100_000
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        damage = np.zeros(m, dtype=np.int64)
        for dice, acc in groups:
            damage += (rng.integers(1, 7, size=(m, dice), dtype=np.int8) <= acc).sum(axis=1)
        q = np.searchsorted(prefix, damage, side="right") - 1
        q = np.minimum(q, len(wounds))
        removed = q.copy()
        partial = q < len(wounds)
        left = damage - prefix[np.minimum(q, len(wounds))]
        w_next = np.where(partial, np.asarray([*wounds, 1])[np.minimum(q, len(wounds))], 1)
        mask = partial & (left > 0)
        for r, w in set(zip(left[mask].tolist(), w_next[mask].tolist(), strict=True)):
            roll = remainder_roll(r, w, die)
            sel = mask & (left == r) & (w_next == w)
            faces = rng.integers(1, sides + 1, size=int(sel.sum()))
            # reroll: draw again until the face is kept
            bad = np.isin(faces, roll.reroll)
            while bad.any():
                faces[bad] = rng.integers(1, sides + 1, size=int(bad.sum()))
                bad = np.isin(faces, roll.reroll)
            removed[sel] += (faces <= roll.remove_at_most).astype(np.int64)
        removed_all.append(removed)
    return np.bincount(np.concatenate(removed_all), minlength=len(wounds) + 1)


@pytest.mark.slow
def test_4_6_volley_agrees_with_seeded_monte_carlo_million_rolls() -> None:
    """4.6, PD-13 — 10⁶ simulated volleys (60 dice, two accuracies, mixed W, cap) fit the exact
    distribution: chi-square below the 1e-4 critical value (Wilson–Hilferty)."""
    groups = [(36, 3), (24, 2)]
    wounds = [2, 2, 3, 2, 3, 3, 1, 2, 3, 3, 3, 2]
    n = 1_000_000
    observed = simulate_volley(groups, wounds, "d6", n, seed=20260521)
    exact = volley(groups, wounds).removed_pmf
    stat, dof = chi_square(observed, exact, n)
    assert dof >= 5
    assert stat < chi2_critical(dof), (stat, dof)


def test_4_6_monte_carlo_detects_a_wrong_distribution() -> None:
    """The Monte Carlo check has teeth: the W 2 sample rejects the W 3 answer."""
    n = 100_000
    observed = simulate_volley([(30, 3)], [2] * 30, "d6", n, seed=7)
    right, _ = chi_square(observed, volley([(30, 3)], 2, cap=30).removed_pmf, n)
    wrong, dof = chi_square(observed, volley([(30, 3)], 3, cap=30).removed_pmf, n)
    assert right < chi2_critical(dof + 5) < wrong


# --- icepool, a grid of cases ---------------------------------------------------------------------
icepool = pytest.importorskip("icepool")


def icepool_removed(groups: Sequence[tuple[int, int]], w: int, die: str) -> dict[int, Fraction]:
    sides = DIE_SIDES[die]
    total: Any = None
    for dice, acc in groups:
        part = dice @ icepool.d6.map(lambda x, acc=acc: 1 if x <= acc else 0)
        total = part if total is None else total + part

    def remove(dmg: int) -> object:
        q, r = divmod(dmg, w)
        if r == 0:
            return q
        roll = remainder_roll(r, w, die)
        kept = sides - len(roll.reroll)
        return icepool.Die({q + 1: roll.remove_at_most, q: kept - roll.remove_at_most})

    result = total.map(remove)
    return {int(k): Fraction(result.probability(k)) for k in result.outcomes()}


@pytest.mark.parametrize("die", ["d6", "d10"])
@pytest.mark.parametrize("w", [1, 2, 3, 4, 5, 7])
@pytest.mark.parametrize("groups", [[(1, 3)], [(5, 1)], [(12, 4)], [(9, 5), (7, 2)], [(30, 3)]])
def test_4_6_volley_equals_icepool(groups: list[tuple[int, int]], w: int, die: str) -> None:
    """4.6, 1.5.1 — identical (exact Fractions) to icepool for the same question."""
    ours = volley(groups, w, die=die).removed.probabilities()
    assert ours == icepool_removed(groups, w, die)
