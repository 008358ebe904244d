"""Exact discrete distributions for the dice of Szwadron (1.5.1, 4.6, 5.3, 6.2).

One core type, :class:`Distribution`: an immutable mapping from outcomes to *integer* weights.
Probabilities come out as :class:`fractions.Fraction`; floats only at the edges
(:meth:`Distribution.pmf`, :meth:`Distribution.at_least_list`). icepool is the model; names read
like the game: ``d(6)``, :func:`hits` ("dice scoring on ≤ C"), :meth:`Distribution.bind` ("then").

Pure Python: no numpy is needed for exactness, and nothing heavy is imported.

Examples
--------
>>> two_d6 = d(6) + d(6)
>>> two_d6.probability(7)
Fraction(1, 6)
>>> volley = hits(4, 3)          # four d6 scoring on ≤ 3 (4.6)
>>> volley.mean(), volley.probability(4)
(Fraction(2, 1), Fraction(1, 16))
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import Generic, TypeVar, cast

from szwadron.errors import InvalidDataError

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Distribution(Generic[T]):
    """An exact finite distribution: outcomes with non-negative integer weights.

    Immutable and hashable by value. Zero weights are dropped; the weights need not be reduced
    (:meth:`reduced` divides out their common factor). Equality compares probabilities, so
    ``Distribution({1: 2}) == Distribution({1: 1})``; ``==`` always returns a ``bool``.

    Parameters
    ----------
    weights:
        A mapping, or pairs, outcome → integer weight (repeated outcomes add up).

    Raises
    ------
    InvalidDataError
        For a negative or non-integer weight, or when all weights are zero.

    Examples
    --------
    >>> coin = Distribution({"heads": 1, "tails": 1})
    >>> coin.probability("heads")
    Fraction(1, 2)
    >>> Distribution([(0, 3), (1, 1), (0, 0)])
    Distribution({0: 3, 1: 1})
    """

    __slots__ = ("_hash", "_total", "_weights")

    _weights: dict[T, int]
    _total: int

    def __init__(self, weights: Mapping[T, int] | Iterable[tuple[T, int]]) -> None:
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        acc: dict[T, int] = {}
        for outcome, w in pairs:
            if not isinstance(w, int) or isinstance(w, bool) or w < 0:
                raise InvalidDataError(f"weight of {outcome!r} must be a whole number ≥ 0, got {w!r}")
            if w:
                acc[outcome] = acc.get(outcome, 0) + w
        total = sum(acc.values())
        if total <= 0:
            raise InvalidDataError("a distribution needs at least one outcome with positive weight")
        self._weights = acc
        self._total = total
        self._hash: int | None = None

    # --- constructors -----------------------------------------------------------------------
    @classmethod
    def _trusted(cls, weights: dict[T, int]) -> Distribution[T]:
        """Internal: adopt ``weights`` (positive ints, not all zero) without checking them."""
        self = cls.__new__(cls)
        self._weights = weights
        self._total = sum(weights.values())
        self._hash = None
        return self

    @classmethod
    def _trusted_dense(cls, weights: Sequence[int]) -> Distribution[int]:
        """Internal: outcomes 0, 1, ... with non-negative int weights, not all zero."""
        return Distribution._trusted({k: w for k, w in enumerate(weights) if w})

    @classmethod
    def point(cls, outcome: T) -> Distribution[T]:
        """The certain outcome.

        >>> Distribution.point(3).probability(3)
        Fraction(1, 1)
        """
        return cls({outcome: 1})

    @classmethod
    def from_probabilities(cls, probabilities: Mapping[T, Fraction | int]) -> Distribution[T]:
        """From exact probabilities (they must be non-negative and sum to 1).

        >>> Distribution.from_probabilities({0: Fraction(1, 3), 1: Fraction(2, 3)})
        Distribution({0: 1, 1: 2})
        """
        probs = {o: Fraction(p) for o, p in probabilities.items()}
        if sum(probs.values()) != 1:
            raise InvalidDataError("probabilities must sum to exactly 1")
        den = math.lcm(*(p.denominator for p in probs.values())) if probs else 1
        return cls({o: int(p * den) for o, p in probs.items()})

    @classmethod
    def from_dense(cls, weights: Sequence[int], start: int = 0) -> Distribution[int]:
        """Integer outcomes ``start, start+1, ...`` with the given weights.

        >>> Distribution.from_dense([1, 2, 1]).probability(1)
        Fraction(1, 2)
        """
        return Distribution(zip(range(start, start + len(weights)), weights, strict=True))

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Distribution[T], Fraction | int]]) -> Distribution[T]:
        """Exact mixture: each distribution with its (non-negative) probability, summing to 1.

        >>> Distribution.mixture([(Distribution.point(0), Fraction(1, 4)), (d(2), Fraction(3, 4))])
        Distribution({0: 2, 1: 3, 2: 3})
        """
        items = [(dist, Fraction(p)) for dist, p in parts if p]
        if sum(p for _, p in items) != 1:
            raise InvalidDataError("mixture probabilities must sum to exactly 1")
        den = math.lcm(*(p.denominator * dist._total for dist, p in items))
        acc: dict[T, int] = {}
        for dist, p in items:
            scale = den // (p.denominator * dist._total) * p.numerator
            for o, w in dist._weights.items():
                acc[o] = acc.get(o, 0) + w * scale
        return cls(acc)

    # --- access --------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """The sum of the weights (the common denominator of the probabilities)."""
        return self._total

    def outcomes(self) -> list[T]:
        """The outcomes with positive weight, sorted when they are comparable.

        >>> d(3).outcomes()
        [1, 2, 3]
        """
        keys = list(self._weights)
        try:
            return sorted(keys)  # type: ignore[type-var]
        except TypeError:
            return keys

    def weight(self, outcome: T) -> int:
        """The integer weight of an outcome (0 when absent)."""
        return self._weights.get(outcome, 0)

    def items(self) -> Iterator[tuple[T, int]]:
        """(outcome, weight) pairs in :meth:`outcomes` order."""
        for o in self.outcomes():
            yield o, self._weights[o]

    def probability(self, outcome: T) -> Fraction:
        """The exact probability of one outcome."""
        return Fraction(self._weights.get(outcome, 0), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        """Every outcome's exact probability, in :meth:`outcomes` order."""
        return {o: Fraction(w, self._total) for o, w in self.items()}

    def reduced(self) -> Distribution[T]:
        """The same distribution with the weights' common factor divided out.

        >>> Distribution({0: 4, 1: 6}).reduced()
        Distribution({0: 2, 1: 3})
        """
        g = math.gcd(*self._weights.values())
        return self if g == 1 else Distribution({o: w // g for o, w in self._weights.items()})

    # --- transformations -------------------------------------------------------------------
    def map(self, func: Callable[[T], U]) -> Distribution[U]:
        """The distribution of ``func(outcome)``.

        >>> d(6).map(lambda face: face <= 2).probability(True)
        Fraction(1, 3)
        """
        acc: dict[U, int] = {}
        for o, w in self._weights.items():
            key = func(o)
            acc[key] = acc.get(key, 0) + w
        return Distribution._trusted(acc)  # sums of positive weights: nothing to check

    def bind(self, func: Callable[[T], Distribution[U]]) -> Distribution[U]:
        """ "Then": for each outcome, continue with the distribution ``func(outcome)``.

        Exact, with integer arithmetic (weights are scaled to a common denominator).

        >>> d(2).bind(lambda n: hits(n, 3)).probability(0)   # 1 or 2 dice scoring on ≤ 3
        Fraction(3, 8)
        """
        parts = [(func(o), w) for o, w in self._weights.items()]
        den = math.lcm(*(dist._total for dist, _ in parts))
        acc: dict[U, int] = {}
        for dist, w in parts:
            scale = den // dist._total * w
            for o, dw in dist._weights.items():
                acc[o] = acc.get(o, 0) + dw * scale
        return Distribution._trusted(acc)  # sums of products of positive weights: nothing to check

    def __add__(self, other: Distribution[int]) -> Distribution[int]:
        """Sum of two independent integer distributions (convolution).

        >>> (d(6) + d(6)).probability(2)
        Fraction(1, 36)
        """
        if not isinstance(other, Distribution):
            return NotImplemented
        acc: dict[int, int] = {}
        for a, wa in self._numeric().items():
            for b, wb in other._numeric().items():
                acc[a + b] = acc.get(a + b, 0) + wa * wb
        return Distribution(acc)

    def joint(self, other: Distribution[U]) -> Distribution[tuple[T, U]]:
        """The pair of two independent outcomes.

        >>> d(2).joint(d(2)).probability((1, 2))
        Fraction(1, 4)
        """
        return Distribution(
            ((a, b), wa * wb) for a, wa in self._weights.items() for b, wb in other._weights.items()
        )

    # --- statistics ---------------------------------------------------------------------
    def _numeric(self) -> dict[int, int]:
        return cast(dict[int, int], self._weights)

    def mean(self) -> Fraction:
        """The exact expected value (numeric outcomes).

        >>> d(6).mean()
        Fraction(7, 2)
        """
        return Fraction(sum(o * w for o, w in self._numeric().items()), self._total)

    def variance(self) -> Fraction:
        """The exact variance (numeric outcomes).

        >>> d(6).variance()
        Fraction(35, 12)
        """
        mu = self.mean()
        second = Fraction(sum(o * o * w for o, w in self._numeric().items()), self._total)
        return second - mu * mu

    def sd(self) -> float:
        """The standard deviation, as a float."""
        return math.sqrt(self.variance())

    def at_least(self, k: int) -> Fraction:
        """P(outcome ≥ k), exact.

        >>> hits(2, 3).at_least(1)
        Fraction(3, 4)
        """
        return Fraction(sum(w for o, w in self._numeric().items() if o >= k), self._total)

    def at_most(self, k: int) -> Fraction:
        """P(outcome ≤ k), exact."""
        return Fraction(sum(w for o, w in self._numeric().items() if o <= k), self._total)

    def pmf(self, length: int | None = None) -> list[float]:
        """``[P(0), P(1), ...]`` as floats for non-negative integer outcomes.

        ``length`` pads (or must cover) the list; by default it ends at the largest outcome.

        >>> hits(2, 3).pmf()
        [0.25, 0.5, 0.25]
        """
        weights = self._numeric()
        top = max(weights) + 1
        if min(weights) < 0:
            raise InvalidDataError("pmf() needs non-negative integer outcomes")
        n = top if length is None else max(length, top)
        pmf = [0.0] * n
        total = self._total
        for o, w in weights.items():
            pmf[o] = w / total
        return pmf

    def at_least_list(self, length: int | None = None) -> list[float]:
        """``[P(≥0), P(≥1), ...]`` as floats (each tail summed exactly, then converted).

        >>> hits(2, 3).at_least_list()
        [1.0, 0.75, 0.25]
        """
        weights = self._numeric()
        if min(weights) < 0:
            raise InvalidDataError("at_least_list() needs non-negative integer outcomes")
        n = max(weights) + 1 if length is None else max(length, max(weights) + 1)
        dense = [0] * n
        for o, w in weights.items():
            dense[o] += w
        tails = list(accumulate(reversed(dense)))[::-1]
        return [t / self._total for t in tails]

    def sample(self, rng: random.Random) -> T:
        """One outcome drawn with its exact weight (integer arithmetic, no float bias).

        >>> Distribution.point(5).sample(random.Random(1))
        5
        """
        outs = self.outcomes()
        cum = list(accumulate(self._weights[o] for o in outs))
        return outs[bisect_right(cum, rng.randrange(self._total))]

    # --- dunder ----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[T]:
        return iter(self.outcomes())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        if self._weights.keys() != other._weights.keys():
            return False
        return all(w * other._total == other._weights[o] * self._total for o, w in self._weights.items())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self.reduced()._weights.items()))
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"{o!r}: {w}" for o, w in self.items())
        return f"Distribution({{{inner}}})"


@lru_cache(maxsize=64)
def d(sides: int) -> Distribution[int]:
    """One die with faces 1..sides, each equally likely.

    >>> d(10).probability(10)
    Fraction(1, 10)
    """
    if not isinstance(sides, int) or sides < 1:
        raise InvalidDataError(f"a die needs a whole number of sides ≥ 1, got {sides!r}")
    return Distribution.from_dense([1] * sides, start=1)


@lru_cache(maxsize=4096)
def hit_weights(dice: int, at_most: int, sides: int = 6) -> tuple[int, ...]:
    """4.6, 5.3 — integer weights of the number of ``dice`` rolling ≤ ``at_most``.

    Entry k is ``C(dice, k) · a^k · b^(dice − k)`` with a : b = at_most : (sides − at_most) in
    lowest terms (smaller integers, same probabilities); the weights sum to ``(a + b) ** dice``.
    ``at_most`` is clamped to 0..sides. Cached by value.

    >>> hit_weights(2, 3), hit_weights(2, 2)
    ((1, 2, 1), (4, 4, 1))
    """
    if dice < 0:
        raise InvalidDataError(f"the number of dice must be ≥ 0, got {dice}")
    a = min(max(at_most, 0), sides)
    b = sides - a
    if a == 0 or dice == 0:
        return (1,) + (0,) * dice
    if b == 0:
        return (0,) * dice + (1,)
    g = math.gcd(a, b)
    a, b = a // g, b // g
    weights = [0] * (dice + 1)
    w = b**dice
    weights[0] = w
    for k in range(dice):
        # w_{k+1} = w_k · (n−k)/(k+1) · a/b, exact because w_{k+1} is a whole number.
        w = w * (dice - k) * a // ((k + 1) * b)
        weights[k + 1] = w
    return tuple(weights)


@lru_cache(maxsize=4096)
def hits(dice: int, at_most: int, sides: int = 6) -> Distribution[int]:
    """4.6, 5.3 — the number of ``dice`` (each one d``sides``) that roll ≤ ``at_most``.

    The fire test (4.6: each die ≤ C scores) and the melee test (5.3: each die ≤ UW scores).

    Parameters
    ----------
    dice:
        How many dice (≥ 0).
    at_most:
        The score target; clamped to 0..sides.
    sides:
        Faces of each die (6 for fire and melee).

    Examples
    --------
    >>> hits(3, 2).probability(0)
    Fraction(8, 27)
    >>> hits(0, 4)
    Distribution({0: 1})
    """
    w = hit_weights(dice, at_most, sides)
    return Distribution.from_dense(list(w)).reduced()


def clamp(value: int, lo: int, hi: int) -> int:
    """``value`` limited to lo..hi.

    >>> clamp(8, 0, 6), clamp(-1, 0, 6)
    (6, 0)
    """
    return lo if value < lo else hi if value > hi else value


__all__ = ["Distribution", "clamp", "d", "hit_weights", "hits"]
