"""1.5.1, PD-5 — the remainder roll: turning the leftover damage r < W into one more removed figure.

Damage ÷ W, integer part, removes figures; the remainder r (0 < r < W) removes one more with
chance r/W, decided by one d6 (the default, :mod:`szwadron.settings`) or one d10. The rulebook
prints a table of roll instructions; they all follow one rule (1.5.1):

    for the reduced fraction a/b on an n-sided die, let m be the largest multiple of b with
    m ≤ n; remove on a roll ≤ a·m/b, reroll rolls above m. The chance is then exactly a/b.

When b > n there is no such m and the procedure falls back (PD-5) to "remove on a roll ≤ the
nearest whole number to n·a/b, halves rounded up, at least 1" — a chance of k/n that is not
exactly a/b (1/6 instead of 1/7 on a d6).

The printed d6 entry for 2/3 ("{1}") contradicts that rule, which gives "≤4", and the table's own
1/3 row; the calculator follows the rule and says so wherever it prints the table
(:data:`D6_TWO_THIRDS_MISPRINT`).

Examples
--------
>>> roll = remainder_roll(1, 3, "d10")
>>> roll.notation, roll.chance, roll.exact
('≤3, reroll 0', Fraction(1, 3), True)
>>> remainder_roll(1, 7).notation, remainder_roll(1, 7).chance
('{1}', Fraction(1, 6))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal, get_args

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.i18n import N_, gettext

DieName = Literal["d6", "d10"]

#: Sides of the dice the remainder roll may use (1.5.1).
DIE_SIDES: dict[str, int] = {"d6": 6, "d10": 10}

#: What the calculator says where it prints the table (PD-5).
D6_TWO_THIRDS_MISPRINT = N_(
    "The rulebook prints '{1}' for 2/3 on a d6; that contradicts its own rule (1.5.1) and its "
    "1/3 row, and is treated as a misprint (PD-5): the rule gives '≤4', exactly 2/3."
)


def die_sides(die: str) -> int:
    """PD-5 — the number of sides of a remainder die name ("d6" or "d10").

    Raises
    ------
    InvalidDataError
        For any other name; the message lists the valid choices.

    Examples
    --------
    >>> die_sides("d10")
    10
    """
    try:
        return DIE_SIDES[die]
    except (KeyError, TypeError):
        choices = ", ".join(get_args(DieName))
        raise InvalidDataError(
            gettext("unknown die {die}: expected one of {choices}").format(die=repr(die), choices=choices)
        ) from None


@dataclass(frozen=True)
class RemainderRoll:
    """1.5.1, PD-5 — the roll instruction for one remainder r of W on one die.

    Attributes
    ----------
    remainder, wounds:
        r and W as given (0 < r < W).
    die:
        "d6" or "d10".
    fraction:
        r/W reduced (a/b).
    remove_at_most:
        Remove the extra figure on a roll ≤ this face.
    reroll:
        Faces rolled again (the d10's "0" is face 10).
    chance:
        The exact chance the procedure removes the figure.
    """

    remainder: int
    wounds: int
    die: DieName
    fraction: Fraction
    remove_at_most: int
    reroll: tuple[int, ...]

    @property
    def sides(self) -> int:
        """Faces of the die."""
        return DIE_SIDES[self.die]

    @property
    def chance(self) -> Fraction:
        """The exact chance to remove the extra figure: k / (faces not rerolled)."""
        return Fraction(self.remove_at_most, self.sides - len(self.reroll))

    @property
    def exact(self) -> bool:
        """True when the procedure gives exactly r/W (1.5.1); False for PD-5's fallback."""
        return self.chance == self.fraction

    @property
    def notation(self) -> str:
        """The instruction in the rulebook's notation: "≤3", "1, reroll 5–6", "≤3, reroll 0".

        A fallback row (b > n, not exact) is written in braces, like the printed "{1}".
        """
        k = self.remove_at_most
        text = "1" if k == 1 else f"≤{k}"
        if self.reroll:
            text += f", reroll {_face_range(self.reroll, self.sides)}"
        return text if self.exact else "{" + text + "}"

    def roll(self, rng: random.Random) -> tuple[bool, tuple[int, ...]]:
        """1.5.1 — roll the instruction once: (extra figure removed?, faces rolled in order).

        Examples
        --------
        >>> removed, faces = remainder_roll(1, 4).roll(random.Random(3))
        >>> faces[-1] not in (5, 6) and removed == (faces[-1] == 1)
        True
        """
        faces: list[int] = []
        while True:
            face = rng.randint(1, self.sides)
            faces.append(face)
            if face not in self.reroll:
                return face <= self.remove_at_most, tuple(faces)


def _face_name(face: int, sides: int) -> str:
    return "0" if sides == 10 and face == 10 else str(face)


def _face_range(faces: tuple[int, ...], sides: int) -> str:
    lo, hi = faces[0], faces[-1]
    if lo == hi:
        return _face_name(lo, sides)
    return f"{_face_name(lo, sides)}–{_face_name(hi, sides)}"


@lru_cache(maxsize=4096)
def remainder_roll(remainder: int, wounds: int, die: str = "d6") -> RemainderRoll:
    """1.5.1, PD-5 — the roll instruction and its exact chance for remainder r of W.

    Parameters
    ----------
    remainder:
        The leftover damage r, 0 < r < W.
    wounds:
        The W the damage was divided by (≥ 2).
    die:
        "d6" (default, the rulebook's main column) or "d10".

    Returns
    -------
    RemainderRoll
        Cached by value; immutable.

    Raises
    ------
    InvalidDataError
        For r outside 1..W-1, W < 2 or an unknown die.

    Examples
    --------
    >>> r = remainder_roll(3, 4)
    >>> r.notation, r.remove_at_most, r.reroll, r.chance
    ('≤3, reroll 5–6', 3, (5, 6), Fraction(3, 4))
    >>> remainder_roll(2, 3).notation  # the rulebook's "{1}" is a misprint
    '≤4'
    >>> remainder_roll(6, 7).notation, remainder_roll(6, 7).chance  # PD-5 fallback
    ('{≤5}', Fraction(5, 6))
    """
    n = die_sides(die)
    if not isinstance(wounds, int) or wounds < 2:
        raise InvalidDataError(
            gettext("wounds must be a whole number ≥ 2 for a remainder, got {value}").format(
                value=repr(wounds)
            )
        )
    if not isinstance(remainder, int) or not 0 < remainder < wounds:
        raise InvalidDataError(
            gettext("remainder must be a whole number with 0 < r < W = {wounds}, got {value}").format(
                wounds=wounds, value=repr(remainder)
            )
        )
    frac = Fraction(remainder, wounds)
    a, b = frac.numerator, frac.denominator
    if b <= n:
        m = (n // b) * b
        at_most = a * m // b
        reroll = tuple(range(m + 1, n + 1))
    else:
        # PD-5: nearest whole number to n·a/b, halves rounded up, at least 1.
        at_most = max(1, (2 * n * a + b) // (2 * b))
        reroll = ()
    return RemainderRoll(remainder, wounds, die, frac, at_most, reroll)  # type: ignore[arg-type]


def remainder_chance(remainder: int, wounds: int, die: str = "d6") -> Fraction:
    """1.5.1, PD-5 — the exact chance the remainder roll removes one more figure (0 when r = 0).

    Examples
    --------
    >>> remainder_chance(0, 3), remainder_chance(1, 3), remainder_chance(1, 8, "d6")
    (Fraction(0, 1), Fraction(1, 3), Fraction(1, 6))
    """
    if remainder == 0:
        return Fraction(0)
    return remainder_roll(remainder, wounds, die).chance


def remainder_table(die: str = "d6", max_wounds: int = 10) -> list[RemainderRoll]:
    """1.5.1, PD-5 — every row 1 ≤ r < W ≤ ``max_wounds``, ordered by W then r.

    Raises
    ------
    InvalidDataError
        For ``max_wounds`` < 2 or an unknown die.

    Examples
    --------
    >>> [r.notation for r in remainder_table("d6", 3)]
    ['≤3', '≤2', '≤4']
    """
    die_sides(die)
    if not isinstance(max_wounds, int) or max_wounds < 2:
        raise InvalidArgumentError(
            "max_wounds", gettext("must be a whole number ≥ 2, got {value}").format(value=repr(max_wounds))
        )
    return [remainder_roll(r, w, die) for w in range(2, max_wounds + 1) for r in range(1, w)]


def remainder_row_json(row: RemainderRoll) -> dict[str, object]:
    """The JSON row of ``szwadron remainder --json`` (the d10's 0 is written 10).

    Examples
    --------
    >>> remainder_row_json(remainder_roll(1, 3, "d10"))["reroll"]
    [10]
    """
    return {
        "remainder": row.remainder,
        "wounds": row.wounds,
        "fraction": f"{row.fraction.numerator}/{row.fraction.denominator}",
        "remove_at_most": row.remove_at_most,
        "reroll": list(row.reroll),
        "chance": float(row.chance),
        "chance_fraction": f"{row.chance.numerator}/{row.chance.denominator}",
        "exact": row.exact,
    }


__all__ = [
    "D6_TWO_THIRDS_MISPRINT",
    "DIE_SIDES",
    "DieName",
    "RemainderRoll",
    "die_sides",
    "remainder_chance",
    "remainder_roll",
    "remainder_row_json",
    "remainder_table",
]
