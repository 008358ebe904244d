"""Brute force over dice: every face of every die a procedure rolls, with its exact chance.

:func:`every_face` runs ``roll(rng)`` with an ``rng`` that hands out a prefix of faces and, when
the procedure asks for one more die, starts again once per face of that die. The answers are
weighed by the chance of their faces: the exact distribution of what the procedure returns, to
set beside the exact odds the question computes."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction


class _Need(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class Prefix(random.Random):
    """Hands out the faces of a prefix, then asks for one more."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        super().__init__(0)
        self.faces, self.used = faces, 0

    def randint(self, a: int, b: int) -> int:
        if self.used == len(self.faces):
            raise _Need(b)
        self.used += 1
        return self.faces[self.used - 1]


def every_face(roll: Callable[[random.Random], object]) -> dict[object, Fraction]:
    """The exact distribution of ``roll(rng)``'s answer, every die's every face tried."""
    seen: Counter[object] = Counter()
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        faces, p = stack.pop()
        try:
            answer = roll(Prefix(faces))
        except _Need as need:
            stack += [((*faces, f), p / need.sides) for f in range(1, need.sides + 1)]
            continue
        seen[answer] += p  # type: ignore[operator]
    return dict(seen)
