"""Issue 14 — where the spread of win rates at equal points comes from (szwadron.armies.spread):
how strong a roster is against the whole field (what the points could move), matchups, the dice."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from szwadron.armies.spread import FEWEST_BATTLES, MOST_DICE, share_without_dice, spread_of

NAMES = "abcdef"


def _brute(cells: list[tuple[str, str, str, float]], battles: int) -> tuple[float, float, float]:
    """The same three parts by the projection matrix written out: a pair's rate − 50 % taken
    apart into the column space of the strengths' design (per group) and what is orthogonal to it."""
    total = left_sum = dice = 0.0
    dof = 0
    for g in sorted({c[0] for c in cells}):
        mine = [c for c in cells if c[0] == g]
        names = sorted({c[1] for c in mine} | {c[2] for c in mine})
        x = np.array([[(n == a) - (n == b) for n in names] for _, a, b, _ in mine], dtype=float)
        y = np.array([r - 0.5 for *_, r in mine])
        hat = x @ np.linalg.pinv(x)  # the orthogonal projection onto the strengths' column space
        left = y - hat @ y
        left_sum += float(left @ left)
        dof += len(mine) - round(float(np.trace(hat)))
        total += float(y @ y)
        dice += sum(r * (1 - r) for *_, r in mine) / battles
    n = len(cells)
    parts = np.clip([total / n - left_sum / dof, left_sum / dof - dice / n, dice / n], 0, None)
    return tuple(float(v) for v in parts / parts.sum())  # type: ignore[return-value]


def test_strengths_alone_are_all_roster_strength() -> None:
    """Rates that are exactly the difference of two strengths: the points could even every pair."""
    strength = dict(zip(NAMES, (0.06, 0.03, 0.0, -0.01, -0.03, -0.05), strict=True))
    cells = [("1000", a, b, 0.5 + strength[a] - strength[b]) for a, b in itertools.combinations(NAMES, 2)]
    s = spread_of(cells, battles=10**9)
    assert s is not None and s.roster == pytest.approx(1.0) and s.matchups == pytest.approx(0.0, abs=1e-9)
    assert s.pairs == 15 and s.rms == pytest.approx(np.sqrt(np.mean([(r - 0.5) ** 2 for *_, r in cells])))


def test_a_circle_is_all_matchups() -> None:
    """a beats b, b beats c, c beats a by the same margin: no roster is stronger than another."""
    cells = [("g", "a", "b", 0.6), ("g", "b", "c", 0.6), ("g", "c", "a", 0.6)]
    s = spread_of(cells, battles=10**9)
    assert s is not None and s.roster == pytest.approx(0.0) and s.matchups == pytest.approx(1.0)


def test_strengths_are_fitted_per_group() -> None:
    """The same rosters in two groups (two points limits) with opposite strengths: fitted per group,
    both are pure strength; put in one group, they contradict each other and become matchups."""
    up = [("1000", "a", "b", 0.6), ("1000", "b", "c", 0.6), ("1000", "a", "c", 0.7)]
    down = [("2000", "a", "b", 0.4), ("2000", "b", "c", 0.4), ("2000", "a", "c", 0.3)]
    apart = spread_of(up + down, battles=10**9)
    together = spread_of([("all", *c[1:]) for c in up + down], battles=10**9)
    assert apart is not None and apart.roster == pytest.approx(1.0)
    assert together is not None and together.matchups == pytest.approx(1.0)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_the_projection_written_out(seed: int) -> None:
    rng = random.Random(seed)
    strength = {n: rng.gauss(0, 0.03) for n in NAMES}
    cells = [
        (g, a, b, min(0.99, max(0.01, 0.5 + strength[a] - strength[b] + rng.gauss(0, 0.03))))
        for g in ("1000", "2000")
        for a, b in itertools.combinations(NAMES, 2)
        if rng.random() < 0.8
    ]
    s = spread_of(cells, battles=200)
    assert s is not None
    assert (s.roster, s.matchups, s.dice) == pytest.approx(_brute(cells, 200))
    assert s.roster + s.matchups + s.dice == pytest.approx(1.0)


def test_the_dice_alone() -> None:
    """Pairs of even rosters off 50 % only by their few battles: the fit finds neither strength nor
    matchups beyond what r(1 − r)/battles allows, so the dice are the spread."""
    rng = random.Random(7)
    battles = 20
    cells = [
        ("g", a, b, sum(rng.random() < 0.5 for _ in range(battles)) / battles)
        for a, b in itertools.combinations(NAMES, 2)
        for _ in range(4)
    ]
    s = spread_of(cells, battles=battles)
    assert s is not None and s.dice > 0.6


def test_no_spread_or_no_degree_of_freedom_is_none() -> None:
    assert spread_of([("g", "a", "b", 0.5), ("g", "b", "c", 0.5), ("g", "a", "c", 0.5)], 100) is None
    assert spread_of([("g", "a", "b", 0.6), ("g", "b", "c", 0.55)], 100) is None  # fitted exactly


def _chances(n: int, sd: float, seed: int) -> list[float]:
    """``n`` pairs' chances, spread around 50 % as the held-out sets' are (a normal draw, seeded)."""
    rng = random.Random(seed)
    return [min(0.95, max(0.05, rng.gauss(0.5, sd))) for _ in range(n)]


@pytest.mark.parametrize(("battles", "tolerance"), [(1000, 0.015), (200, 0.03)])
def test_share_without_dice_recovers_the_chances_share_in_the_band(battles: int, tolerance: float) -> None:
    """Issue 14: pairs whose chances are known, each measured over ``battles`` binomial battles.
    The measured share in 50 ± 5 % understates the chances' share (the dice push pairs near the
    edge out); the estimate with the dice taken out finds the chances' share, on average over
    draws of the dice, within ``tolerance``."""
    rng = np.random.default_rng(14)
    truth, measured, estimated = [], [], []
    for seed in range(12):
        chances = _chances(240, 0.035, seed)
        truth.append(np.mean([0.45 <= c <= 0.55 for c in chances]))
        rates = [int(w) / battles for w in rng.binomial(battles, chances)]
        measured.append(np.mean([0.45 <= r <= 0.55 for r in rates]))
        share = share_without_dice(rates, battles)
        assert share is not None
        estimated.append(share)
    assert np.mean(measured) < np.mean(truth) - 0.025  # what the dice cost the measured share
    assert abs(np.mean(estimated) - np.mean(truth)) < tolerance


def test_share_without_dice_shrinks_every_distance_by_one_factor() -> None:
    """The shrunk distances' mean square is the measured one less the dice's r(1 − r)/battles:
    found by hand here for four rates, the factor bisected until exactly one pair crosses 55 %."""
    rates, battles = [0.40, 0.57, 0.53, 0.5], 100
    square = sum((r - 0.5) ** 2 for r in rates) / 4
    noise = sum(r * (1 - r) for r in rates) / 4 / battles
    shrink = (1 - noise / square) ** 0.5  # 0.683…: 0.57 → 0.548 (in), 0.40 → 0.432 (out)
    assert 0.05 / 0.07 > shrink > 0.05 / 0.10 and noise < MOST_DICE * square
    assert share_without_dice(rates, battles) == 0.75
    assert share_without_dice(rates, 10**9) == 0.5  # without dice: 0.53 and 0.5 in, as measured


def test_share_without_dice_needs_pairs_and_a_spread_beyond_the_dice() -> None:
    assert share_without_dice([], 1000) is None
    with pytest.raises(ValueError, match="battles must be at least 1"):
        share_without_dice([0.5], 0)
    # the dice's share of the mean square either side of MOST_DICE
    rates = [0.5 + 0.05, 0.5 - 0.05]  # mean square 0.0025; noise 0.2475 / battles
    assert 0.2475 / 148.5 == pytest.approx(MOST_DICE * 0.0025)  # at 148.5 battles exactly MOST_DICE
    assert share_without_dice(rates, 148) is None
    assert share_without_dice(rates, 149) == 1.0  # shrunk by √(1 − 0.2475/0.3725) = 0.58: 2.9 points off
    assert share_without_dice(rates, 10**9) == 1.0
    # too few battles a pair to read the dice from the rates: two battles give 0, ½ or 1
    assert share_without_dice([0.0, 1.0, 0.5, 1.0], 2) is None
    assert share_without_dice([0.5, 0.5], FEWEST_BATTLES - 1) is None
