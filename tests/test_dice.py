"""The exact distribution type (szwadron.odds.dice): 4.6 and 5.3 dice counts, checked by brute force."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from szwadron.errors import InvalidDataError
from szwadron.odds.dice import Distribution, d, hit_weights, hits


def brute_hits(dice: int, at_most: int, sides: int = 6) -> Distribution[int]:
    """Every face of every die, counted."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, sides + 1), repeat=dice):
        k = sum(f <= at_most for f in faces)
        counts[k] = counts.get(k, 0) + 1
    return Distribution(counts)


@pytest.mark.parametrize("dice", range(0, 7))
@pytest.mark.parametrize("at_most", range(0, 7))
def test_4_6_hits_equals_brute_force_enumeration(dice: int, at_most: int) -> None:
    """4.6, 5.3 — the number of dice ≤ C, exactly as enumerating every face."""
    assert hits(dice, at_most) == brute_hits(dice, at_most)


def test_4_6_hits_equals_brute_force_at_eight_dice() -> None:
    """4.6 — eight dice (1 679 616 rolls) still agree, via one count per face pattern."""
    # brute force on the pattern "die scores or not", each with its number of faces
    counts: dict[int, int] = {}
    for pattern in itertools.product((True, False), repeat=8):
        k = sum(pattern)
        counts[k] = counts.get(k, 0) + 4**k * 2 ** (8 - k)
    assert hits(8, 4) == Distribution(counts)
    assert sum(hit_weights(8, 5)) == 6**8


def test_hit_weights_are_reduced_and_clamp() -> None:
    """4.5.4 — accuracy below 0 scores nothing, above 6 scores every die; the weights use the
    odds in lowest terms (C 3 on a d6 is 1 : 1, so the weights are binomial coefficients)."""
    assert sum(hit_weights(240, 5)) == 6**240
    assert hit_weights(10, 3) == tuple(math.comb(10, k) for k in range(11))
    assert sum(hit_weights(7, 4)) == 3**7
    assert hits(5, -2) == Distribution.point(0)
    assert hits(5, 9) == Distribution.point(5)


def test_distribution_probabilities_are_fractions_and_sum_to_one() -> None:
    """Exact inside: probabilities are Fractions summing to exactly 1."""
    dist = hits(13, 2)
    probs = dist.probabilities()
    assert all(isinstance(p, Fraction) for p in probs.values())
    assert sum(probs.values()) == 1
    assert abs(sum(dist.pmf()) - 1) < 1e-12


def test_distribution_mean_variance_of_binomial() -> None:
    """4.6 — n dice scoring on ≤ C: mean n·C/6, variance n·C/6·(1 − C/6)."""
    dist = hits(17, 5)
    p = Fraction(5, 6)
    assert dist.mean() == 17 * p
    assert dist.variance() == 17 * p * (1 - p)


def test_distribution_equality_is_by_probability_and_hash_agrees() -> None:
    """Equality compares probabilities; equal distributions hash alike; == returns bool."""
    a = Distribution({0: 2, 1: 6})
    b = Distribution({0: 1, 1: 3})
    assert (a == b) is True and hash(a) == hash(b)
    assert a != Distribution({0: 1, 1: 2})
    assert a != Distribution({0: 1, 2: 3})


def test_distribution_bind_is_exact_mixture() -> None:
    """Bind: a d2 of dice, then count ≤ 3 — the same as the explicit mixture."""
    got = d(2).bind(lambda n: hits(n, 3))
    expected = Distribution.mixture([(hits(1, 3), Fraction(1, 2)), (hits(2, 3), Fraction(1, 2))])
    assert got == expected
    assert got.probability(2) == Fraction(1, 8)


def test_distribution_sum_of_two_d6() -> None:
    """Convolution: 2d6 (used by flight and pursuit, 6.6, 6.7)."""
    two = d(6) + d(6)
    assert two.probability(7) == Fraction(6, 36)
    assert two.outcomes() == list(range(2, 13))


def test_distribution_at_least_list_matches_exact_tails() -> None:
    """P(≥k) list: each entry is the exact tail."""
    dist = hits(9, 2)
    tails = dist.at_least_list()
    for k, t in enumerate(tails):
        assert abs(t - float(dist.at_least(k))) < 1e-15


def test_distribution_rejects_bad_weights() -> None:
    """Negative, non-integer or all-zero weights are invalid data."""
    with pytest.raises(InvalidDataError):
        Distribution({0: -1, 1: 2})
    with pytest.raises(InvalidDataError):
        Distribution({0: 0.5})  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError):
        Distribution({0: 0})
    with pytest.raises(InvalidDataError):
        Distribution.from_probabilities({0: Fraction(1, 2)})
    with pytest.raises(InvalidDataError):
        hits(-1, 3)


def test_distribution_sample_is_seeded_and_follows_weights() -> None:
    """Sampling is reproducible with a seed and hits each outcome at its rate."""
    dist = Distribution({"a": 1, "b": 3})
    draws = [dist.sample(random.Random(s)) for s in range(2000)]
    assert draws == [dist.sample(random.Random(s)) for s in range(2000)]
    share = draws.count("b") / len(draws)
    assert 0.70 < share < 0.80


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=8).filter(any))
def test_distribution_reduced_keeps_probabilities(weights: list[int]) -> None:
    """Reducing the weights never changes a probability."""
    scaled = Distribution.from_dense([7 * w for w in weights])
    assert scaled.reduced() == scaled
    assert scaled.reduced().probabilities() == scaled.probabilities()
