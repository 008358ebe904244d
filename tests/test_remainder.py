"""1.5.1, PD-5 — the remainder roll: the rulebook's table, the rule behind it, the fallback."""

from __future__ import annotations

import random
import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from szwadron.errors import InvalidDataError
from szwadron.odds.remainder import (
    D6_TWO_THIRDS_MISPRINT,
    remainder_chance,
    remainder_roll,
    remainder_row_json,
    remainder_table,
)

CASES = Path(__file__).parent / "cases" / "remainder"
ROWS = tomllib.loads((CASES / "rulebook.toml").read_text(encoding="utf-8"))["rows"]


def parse_notation(text: str, sides: int) -> tuple[int, tuple[int, ...]]:
    """Read the rulebook's notation: ("≤3, reroll 5–6" → (3, (5, 6))); braces ignored."""
    text = text.strip().strip("{}")
    match = re.fullmatch(r"(?:≤(\d+)|(1))(?:, reroll (\d+)(?:–(\d+))?)?", text)
    assert match, text
    at_most = int(match.group(1) or match.group(2))

    def face(s: str) -> int:
        return 10 if sides == 10 and s == "0" else int(s)

    reroll: tuple[int, ...] = ()
    if match.group(3):
        lo = face(match.group(3))
        hi = face(match.group(4)) if match.group(4) else lo
        reroll = tuple(range(lo, hi + 1))
    return at_most, reroll


def row_id(row: dict[str, object]) -> str:
    return str(row["fraction"])


@pytest.mark.parametrize("row", ROWS, ids=row_id)
@pytest.mark.parametrize("die,sides", [("d6", 6), ("d10", 10)])
def test_1_5_1_reproduces_rulebook_table_row(row: dict[str, str], die: str, sides: int) -> None:
    """1.5.1 — every printed row (both dice) is the instruction the calculator derives."""
    a, b = (int(x) for x in row["fraction"].split("/"))
    printed = row.get("expected_d6", row["d6"]) if die == "d6" else row["d10"]
    expected = parse_notation(printed, sides)
    got = remainder_roll(a, b, die)
    assert (got.remove_at_most, got.reroll) == expected, f"{row['source']}: {row['fraction']} {die}"


def test_1_5_1_d6_two_thirds_printed_entry_is_a_misprint() -> None:
    """PD-5 — the printed d6 "{1}" for 2/3 contradicts the rule: the rule gives ≤4, exactly 2/3."""
    (row,) = [r for r in ROWS if r.get("misprint")]
    printed = parse_notation(row["d6"], 6)
    got = remainder_roll(2, 3, "d6")
    assert (got.remove_at_most, got.reroll) != printed
    assert got.notation == "≤4" and got.chance == Fraction(2, 3) and got.exact
    # …and consistent with the table's own 1/3 row: the two chances add to 1.
    assert remainder_chance(1, 3) + remainder_chance(2, 3) == 1
    assert "misprint" in D6_TWO_THIRDS_MISPRINT and "≤4" in D6_TWO_THIRDS_MISPRINT


def test_1_5_1_d10_one_third_rerolls_zero() -> None:
    """1.5.1 — 1/3 on a d10: remove on ≤3, reroll the 0 (face 10)."""
    r = remainder_roll(1, 3, "d10")
    assert (r.remove_at_most, r.reroll, r.notation) == (3, (10,), "≤3, reroll 0")
    assert remainder_row_json(r)["reroll"] == [10]


@pytest.mark.parametrize("die,sides", [("d6", 6), ("d10", 10)])
def test_1_5_1_rule_is_exact_when_denominator_fits_the_die(die: str, sides: int) -> None:
    """1.5.1 — with m the largest multiple of b ≤ n, "≤ a·m/b, reroll above m" is exactly a/b."""
    for w in range(2, 41):
        for r in range(1, w):
            roll = remainder_roll(r, w, die)
            frac = Fraction(r, w)
            # enumerate the faces that are kept: each equally likely
            kept = [f for f in range(1, sides + 1) if f not in roll.reroll]
            chance = Fraction(sum(f <= roll.remove_at_most for f in kept), len(kept))
            assert chance == roll.chance
            assert roll.exact == (frac.denominator <= sides)
            if frac.denominator <= sides:
                assert chance == frac


@pytest.mark.parametrize(
    "r,w,die,at_most",
    [
        (1, 7, "d6", 1),  # n·a/b = 0.86 → 1
        (1, 13, "d6", 1),  # 0.46 → 0, at least 1
        (6, 7, "d6", 5),  # 5.14 → 5
        (11, 12, "d6", 6),  # 5.5 → halves round up → 6
        (7, 12, "d6", 4),  # 3.5 → 4
        (5, 12, "d6", 3),  # 2.5 → 3
        (3, 11, "d10", 3),  # 2.73 → 3
        (1, 20, "d10", 1),  # 0.5 → 1
    ],
)
def test_pd_5_fallback_rounds_to_nearest_halves_up_at_least_one(
    r: int, w: int, die: str, at_most: int
) -> None:
    """PD-5 — b > n: remove on ≤ round(n·a/b), halves up, at least 1; no reroll."""
    roll = remainder_roll(r, w, die)
    assert roll.remove_at_most == at_most and roll.reroll == ()
    assert not roll.exact
    assert roll.notation.startswith("{") and roll.notation.endswith("}")


def test_pd_5_one_seventh_on_d6_is_one_sixth() -> None:
    """PD-5 — the calculator reports the chance the procedure gives: 1/6, not 1/7."""
    assert remainder_chance(1, 7, "d6") == Fraction(1, 6)
    assert remainder_chance(1, 7, "d10") == Fraction(1, 7)


def test_1_5_1_table_covers_every_row_in_order() -> None:
    """1.5.1 — rows for every 1 ≤ r < W ≤ max, ordered by W then r."""
    rows = remainder_table("d10", 6)
    assert [(x.remainder, x.wounds) for x in rows] == [(r, w) for w in range(2, 7) for r in range(1, w)]
    doc = remainder_row_json(rows[-1])
    assert list(doc) == [
        "remainder",
        "wounds",
        "fraction",
        "remove_at_most",
        "reroll",
        "chance",
        "chance_fraction",
        "exact",
    ]


def test_1_5_1_json_fraction_is_reduced() -> None:
    """1.5.1 — the rule works on the reduced fraction: 2/4 is 1/2."""
    doc = remainder_row_json(remainder_roll(2, 4, "d6"))
    assert doc["fraction"] == "1/2" and doc["remove_at_most"] == 3 and doc["chance_fraction"] == "1/2"


@pytest.mark.parametrize(
    "call",
    [
        lambda: remainder_roll(0, 3),
        lambda: remainder_roll(3, 3),
        lambda: remainder_roll(1, 1),
        lambda: remainder_roll(1, 3, "d8"),
        lambda: remainder_table("d6", 1),
    ],
)
def test_pd_5_bad_input_is_invalid_data(call: object) -> None:
    """PD-5 — r outside 1..W-1, W < 2, unknown die: InvalidDataError."""
    with pytest.raises(InvalidDataError):
        call()  # type: ignore[operator]


def test_1_5_1_rolling_the_instruction_matches_its_chance() -> None:
    """1.5.1 — rolling "1, reroll 5–6" removes one time in four (seeded, 40 000 rolls)."""
    rng = random.Random(5)
    roll = remainder_roll(1, 4, "d6")
    n = 40_000
    results = [roll.roll(rng) for _ in range(n)]
    hits = sum(removed for removed, _ in results)
    assert all(faces[-1] not in (5, 6) for _, faces in results)
    assert all(all(f in (5, 6) for f in faces[:-1]) for _, faces in results)
    # 5 standard deviations
    sd = (n * 0.25 * 0.75) ** 0.5
    assert abs(hits - n / 4) < 5 * sd
