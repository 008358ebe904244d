"""Independent brute-force references shared by the odds tests: exact results are cross-checked
against brute force for small cases (docs/decisions.md "The JSON documents")."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from szwadron.odds.remainder import DIE_SIDES, remainder_roll


def brute_removal(damage: int, wounds: Sequence[int], die: str = "d6") -> dict[int, Fraction]:
    """Walk the removal order literally; enumerate the remainder die's kept faces (1.5.1)."""
    left, q = damage, 0
    while q < len(wounds) and left >= wounds[q]:
        left -= wounds[q]
        q += 1
    if q == len(wounds) or left == 0:
        return {q: Fraction(1)}
    roll = remainder_roll(left, wounds[q], die)
    kept = [f for f in range(1, DIE_SIDES[die] + 1) if f not in roll.reroll]
    out: dict[int, Fraction] = {}
    for face in kept:
        key = q + 1 if face <= roll.remove_at_most else q
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(kept))
    return out
