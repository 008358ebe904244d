"""Where the spread of win rates at equal points comes from (issue 14).

A pair of rosters at equal points is off 50 % for three reasons, and only one of them is the
points' to mend:

- **how strong a roster is against the whole field** — the part a price could move: one strength
  per roster, a pair's distance from 50 % read as the difference of its two strengths, fitted by
  least squares among the pairs of each group (a points limit, a held-out set);
- **matchups** — this roster against that one, beyond their strengths (kinds beating one another
  in a circle): what is left of the fit, corrected for its degrees of freedom; no price per roster
  can move it;
- **the dice** — a pair's win rate over ``battles`` battles varies by r(1 − r)/battles (binomial).

Each part is a share of the mean square of (win rate − 50 %); the three add up to 1 (a part the
noise makes negative counts 0 and the others are scaled to add up).

>>> cells = [("1000", "a", "b", 0.6), ("1000", "b", "c", 0.6), ("1000", "a", "c", 0.7)]
>>> s = spread_of(cells, battles=10**9)
>>> round(s.roster, 3), round(s.matchups, 3), round(s.dice, 3)
(1.0, 0.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Spread:
    """Shares of the mean square of (win rate − 50 %) over the pairs (module notes)."""

    roster: float
    """How strong a roster is against the whole field (a price could move it)."""
    matchups: float
    """This roster against that one, beyond their strengths (no price per roster can)."""
    dice: float
    """The battles' own binomial noise."""
    rms: float
    """Root mean square of (win rate − 50 %) over the pairs."""
    pairs: int

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` part."""
        return asdict(self)


def spread_of(cells: Sequence[tuple[Hashable, str, str, float]], battles: int) -> Spread | None:
    """The three parts of the spread of ``cells`` (``(group, roster a, roster b, win rate of a)``;
    strengths are fitted within each group: a points limit, a held-out set), each pair played
    ``battles`` battles. None when the fit leaves no degree of freedom (every pair could be fitted
    exactly) or there is no spread at all.

    >>> circle = [("g", "a", "b", 0.6), ("g", "b", "c", 0.6), ("g", "c", "a", 0.6)]
    >>> s = spread_of(circle, battles=10**9)  # a circle: no roster stronger than another
    >>> round(s.roster, 3), round(s.matchups, 3)
    (0.0, 1.0)
    """
    if battles < 1:
        raise ValueError(f"battles must be at least 1, got {battles}")
    groups: dict[Hashable, list[tuple[str, str, float]]] = {}
    for g, a, b, rate in cells:
        groups.setdefault(g, []).append((a, b, rate))
    square = residual = dice = 0.0
    dof = 0
    for pairs in groups.values():
        names = sorted({a for a, _, _ in pairs} | {b for _, b, _ in pairs})
        index = {name: k for k, name in enumerate(names)}
        x = np.zeros((len(pairs), len(names)))
        y = np.array([rate - 0.5 for _, _, rate in pairs])
        for row, (a, b, _) in enumerate(pairs):
            x[row, index[a]] += 1.0
            x[row, index[b]] -= 1.0
        strengths, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual += float(np.sum((y - x @ strengths) ** 2))
        dof += len(pairs) - int(np.linalg.matrix_rank(x))
        square += float(np.sum(y**2))
        dice += sum(rate * (1.0 - rate) for _, _, rate in pairs) / battles
    n = len(cells)
    if dof <= 0 or square <= 0.0:
        return None
    total = square / n  # the mean square of (rate − 50 %)
    left = residual / dof  # matchups and dice, per pair
    noise = dice / n
    parts = np.clip(np.array([total - left, left - noise, noise]), 0.0, None)
    parts = parts / parts.sum()
    return Spread(float(parts[0]), float(parts[1]), float(parts[2]), float(np.sqrt(total)), n)


#: Most share of the mean square of (win rate − 50 %) the dice may make for :func:`share_without_dice`
#: to estimate the chances' share in the band (at 200 battles a pair the project's held-out sets
#: are near one half, at 1,000 near a sixth).
MOST_DICE = 2.0 / 3.0
#: Fewest battles a pair for :func:`share_without_dice`.
FEWEST_BATTLES = 100


def share_without_dice(
    rates: Sequence[float], battles: int, band: tuple[float, float] = (0.45, 0.55)
) -> float | None:
    """Share of the pairs whose *chance* — not their measured win rate — is within ``band``,
    estimated from ``rates`` (each a pair's win rate over ``battles`` battles); None without pairs.

    A measured rate is the pair's chance plus the dice's binomial noise, r(1 − r)/battles in
    mean square, so the measured rates spread wider than the chances and fewer of them fall in
    the band: at 200 battles a pair the dice move a rate near 50 % by 3.5 points (one standard
    deviation), so that chances spread normally by 3.5 points around 50 % (85 % of them in the
    band) give rates spread by 4.9 points, 69 % in the band. The estimate takes the noise out of the spread and keeps its shape:
    every pair's distance from 50 % is shrunk by the same factor √(1 − noise / mean square), so the
    shrunk distances have the mean square of the chances (the mean square less the noise), then
    counted in the band. None too when the dice make more than :data:`MOST_DICE` of the mean
    square: the chances' spread would then be the small difference of two near-equal numbers, and
    only more battles a pair can tell it; and None under :data:`FEWEST_BATTLES` battles a pair,
    where a rate's noise is too lumpy to be read from its mean square (two battles a pair give
    rates of 0, ½ and 1).

    >>> share_without_dice([0.44, 0.56, 0.5, 0.5], battles=10**9)  # no dice: the rates as measured
    0.5
    >>> share_without_dice([0.44, 0.56, 0.5, 0.5], battles=200) is None  # the dice are most of it
    True
    """
    if battles < 1:
        raise ValueError(f"battles must be at least 1, got {battles}")
    if not rates or battles < FEWEST_BATTLES:
        return None
    square = sum((r - 0.5) ** 2 for r in rates) / len(rates)
    noise = sum(r * (1.0 - r) for r in rates) / len(rates) / battles
    if noise > MOST_DICE * square:
        return None
    shrink = float(np.sqrt(1.0 - noise / square))
    lo, hi = band
    return sum(lo <= 0.5 + shrink * (r - 0.5) <= hi for r in rates) / len(rates)


__all__ = ["FEWEST_BATTLES", "MOST_DICE", "Spread", "share_without_dice", "spread_of"]
