"""5.3–5.5, 5.7, 5.10, 6.6, 7.5, 7.7 — melee exchanges: joint losses and the morale table."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from szwadron.errors import InvalidDataError
from szwadron.odds.combat import Fighter, MeleeSide, melee, roll_melee
from szwadron.odds.morale import MeleeMorale, MeleeOutcome, melee_sequence, morale_target
from tests.brute import brute_removal

Group = tuple[int, int, int]  # dice, UW, W bonus of the figures struck


# --- brute force ------------------------------------------------------------------------------
def brute_strike(groups: Sequence[Group], wounds: Sequence[int]) -> dict[tuple[int, bool], Fraction]:
    """Every face of every die of each group, removing separately along the order (5.10.4)."""
    state = {(0, False): Fraction(1)}
    for dice, skill, bonus in groups:
        new: dict[tuple[int, bool], Fraction] = {}
        for faces in itertools.product(range(1, 7), repeat=dice):
            dmg = sum(f <= skill for f in faces)
            for (k, hit), p in state.items():
                left = [w + bonus for w in wounds[k:]]
                for r, q in brute_removal(dmg, left).items():
                    key = (k + r, hit or dmg > 0)
                    new[key] = new.get(key, Fraction(0)) + p * q / 6**dice
        state = new
    return state


def uniform_groups(figures: int, sw: int, uw: int, skirmish: bool = False) -> list[Group]:
    dice = figures * sw
    dice = dice // 2 if skirmish else dice
    return [(dice, uw, 0)] if dice else []


CASES: list[dict[str, Any]] = [
    # name, attacker (figures, SW, UW, W), defender, first strike, skirmish, terrain
    {"a": (3, 1, 4, 2), "d": (2, 1, 3, 2), "fs": None},
    {"a": (2, 2, 3, 1), "d": (3, 1, 4, 2), "fs": "attacker"},
    {"a": (2, 1, 5, 2), "d": (2, 2, 3, 1), "fs": "defender"},
    {"a": (3, 2, 4, 2), "d": (2, 1, 3, 3), "fs": None, "a_skirmish": True},
    {"a": (2, 2, 4, 1), "d": (3, 1, 3, 1), "fs": None, "d_terrain": 1},
]


def brute_losses(case: dict[str, Any]) -> dict[tuple[int, bool, int, bool], Fraction]:
    (an, asw, auw, aw), (dn, dsw, duw, dw) = case["a"], case["d"]
    a_skirm, d_terrain = case.get("a_skirmish", False), case.get("d_terrain", 0)
    a_wounds, d_wounds = [aw] * an, [dw + d_terrain] * dn
    out: dict[tuple[int, bool, int, bool], Fraction] = {}
    if case["fs"] == "attacker":
        for (dr, dh), p in brute_strike(uniform_groups(an, asw, auw, a_skirm), d_wounds).items():
            back = brute_strike(uniform_groups(dn - dr, dsw, duw), a_wounds)
            for (ar, ah), q in back.items():
                out[(ar, ah, dr, dh)] = out.get((ar, ah, dr, dh), Fraction(0)) + p * q
    elif case["fs"] == "defender":
        for (ar, ah), p in brute_strike(uniform_groups(dn, dsw, duw), a_wounds).items():
            back = brute_strike(uniform_groups(an - ar, asw, auw, a_skirm), d_wounds)
            for (dr, dh), q in back.items():
                out[(ar, ah, dr, dh)] = out.get((ar, ah, dr, dh), Fraction(0)) + p * q
    else:
        d_side = brute_strike(uniform_groups(an, asw, auw, a_skirm), d_wounds)
        a_side = brute_strike(uniform_groups(dn, dsw, duw), a_wounds)
        for ((ar, ah), p), ((dr, dh), q) in itertools.product(a_side.items(), d_side.items()):
            out[(ar, ah, dr, dh)] = out.get((ar, ah, dr, dh), Fraction(0)) + p * q
    return out


def side_of(spec: tuple[int, int, int, int], morale: int, **kw: Any) -> MeleeSide:
    n, sw, uw, w = spec
    return MeleeSide.uniform(n, melee=sw, skill=uw, wounds=w, morale=morale, **kw)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['a']}-{c['d']}-{c['fs']}")
def test_5_3_7_7_melee_losses_equal_brute_force(case: dict[str, Any]) -> None:
    """5.3, 5.4.2, 5.7.1, 7.5, 7.7 — joint losses exactly as enumerating every die: both strike
    before removal, or the first striker removes and the enemy strikes with the survivors."""
    a = side_of(case["a"], 4, skirmish=case.get("a_skirmish", False))
    d = side_of(case["d"], 3, wound_bonus=case.get("d_terrain", 0))
    got = melee(a, d, first_strike=case["fs"])
    assert got.losses.probabilities() == {k: v for k, v in sorted(brute_losses(case).items()) if v}


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['a']}-{c['d']}-{c['fs']}")
def test_5_5_melee_outcomes_integrate_sequence_over_losses(case: dict[str, Any]) -> None:
    """5.5, 6.2.4 — the outcome table is the sequence at the strength after removal, weighted
    by the brute-force losses."""
    am, dm = MeleeMorale(4, case["a"][0], case["a"][0] + 2), MeleeMorale(3, case["d"][0], case["d"][0])
    a = MeleeSide(side_of(case["a"], 4).fighters, am, skirmish=case.get("a_skirmish", False))
    d = MeleeSide(side_of(case["d"], 3).fighters, dm, wound_bonus=case.get("d_terrain", 0))
    got = melee(a, d, first_strike=case["fs"])
    expected: dict[tuple[MeleeOutcome, MeleeOutcome], Fraction] = {}
    for (ar, ah, dr, dh), p in brute_losses(case).items():
        a_dest, d_dest = ar == am.strength, dr == dm.strength
        seq = melee_sequence(
            0 if a_dest else morale_target(4, am.strength - ar, am.initial),
            0 if d_dest else morale_target(3, dm.strength - dr, dm.initial),
            attacker_hit=ah,
            defender_hit=dh,
            attacker_destroyed=a_dest,
            defender_destroyed=d_dest,
        )
        for pair, q in seq.probabilities().items():
            expected[pair] = expected.get(pair, Fraction(0)) + p * q
    assert got.outcomes.probabilities() == {k: v for k, v in expected.items() if v}
    assert sum(got.outcomes.probabilities().values()) == 1


def test_5_10_3_combined_groups_by_uw_and_terrain_remove_separately() -> None:
    """5.10.3, 5.10.4 — attackers with UW 4 and UW 3, one striking figures behind an obstacle
    (W + 1): three groups, each rolling and removing separately along the defender's order."""
    fighters = (Fighter(1, 1, 4), Fighter(1, 1, 4, target_bonus=1), Fighter(1, 2, 3))
    a = MeleeSide(fighters, MeleeMorale(5, 3, 3))
    d = MeleeSide.uniform(3, melee=0, skill=3, wounds=2, morale=3)
    assert set(a.strike_groups()) == {(1, 4, 0), (1, 4, 1), (2, 3, 0)}
    got = melee(a, d).losses.map(lambda s: (s[2], s[3]))
    brute = brute_strike([(1, 4, 0), (1, 4, 1), (2, 3, 0)], [2, 2, 2])
    assert got.probabilities() == {k: v for k, v in sorted(brute.items()) if v}


def test_7_7_first_strike_survivors_strike_back() -> None:
    """7.7 — every attacker die kills (UW 6, W 1): the defender has no survivors to strike."""
    a = MeleeSide.uniform(3, melee=1, skill=6, wounds=1, morale=4)
    d = MeleeSide.uniform(3, melee=1, skill=6, wounds=1, morale=4)
    assert melee(a, d).joint.outcomes() == [(3, 3)]
    assert melee(a, d, first_strike="attacker").joint.outcomes() == [(0, 3)]
    assert melee(a, d, first_strike="defender").joint.outcomes() == [(3, 0)]


def test_7_5_skirmish_halves_sw_rounded_down() -> None:
    """7.5, PD-17 — halved SW = sum of SW halved, rounded down: 5 figures of SW 1 roll 2 dice."""
    s = MeleeSide.uniform(5, melee=1, skill=4, wounds=1, morale=4, skirmish=True)
    assert s.strike_groups() == ((2, 4, 0),)
    d = MeleeSide.uniform(4, melee=1, skill=3, wounds=1, morale=4)
    assert max(melee(s, d).defender_removed.outcomes()) == 2


def test_7_5_pd_17_skirmish_halves_the_sum_not_each_group() -> None:
    """7.5, PD-17 — the *sum* of SW is halved, rounded down: two figures of SW 1 with different
    UW (two groups of one die) still roll one die together, given to the better UW; three
    groups of one die roll one die."""
    morale = MeleeMorale(4, 3, 3)
    two = MeleeSide((Fighter(1, 1, 3), Fighter(1, 1, 5)), morale, skirmish=True)
    assert two.strike_groups() == ((1, 5, 0),)
    three = MeleeSide((Fighter(1, 1, 3), Fighter(1, 1, 5), Fighter(1, 1, 4)), morale, skirmish=True)
    assert sum(g[0] for g in three.strike_groups()) == 1
    mixed = MeleeSide((Fighter(1, 3, 3), Fighter(1, 3, 5)), morale, skirmish=True)  # 6 SW → 3
    assert sorted(mixed.strike_groups()) == [(1, 3, 0), (2, 5, 0)]
    d = MeleeSide.uniform(2, melee=1, skill=3, wounds=1, morale=4)
    assert max(melee(two, d).defender_removed.outcomes()) == 1  # one die, not none


def test_6_6_panicking_defender_strikes_back_only_if_it_passes() -> None:
    """6.6 — a panicking defender tests at each attack; fail → it deals no losses."""
    a = MeleeSide.uniform(2, melee=1, skill=3, wounds=1, morale=4)
    d_calm = MeleeSide.uniform(3, melee=1, skill=6, wounds=1, morale=2)
    d_panic = MeleeSide.uniform(3, melee=1, skill=6, wounds=1, morale=2, panicking=True)
    calm = melee(a, d_calm).attacker_removed
    scared = melee(a, d_panic).attacker_removed
    assert calm == melee(a, d_calm).attacker_removed
    assert scared.probability(0) == Fraction(4, 6)  # fails its test at M 2: 4/6
    assert scared.probability(2) == Fraction(2, 6)
    out = melee(a, d_panic).outcomes
    assert all(d is MeleeOutcome.PANIC or d is MeleeOutcome.DESTROYED for _, d in out.outcomes())


def test_5_4_2_only_figures_that_fought_are_removed() -> None:
    """5.4.2 — 3 of 10 figures fought: at most 3 removed; the unit is never destroyed."""
    a = MeleeSide.uniform(6, melee=2, skill=6, wounds=1, morale=4)
    d = MeleeSide.uniform(3, melee=1, skill=3, wounds=1, morale=4, strength=10)
    odds = melee(a, d)
    assert odds.defender_removed == melee(a, d).defender_removed
    assert max(odds.defender_removed.outcomes()) == 3
    assert all(dd is not MeleeOutcome.DESTROYED for _, dd in odds.outcomes.outcomes())


def test_5_5_melee_distributions_sum_to_one_and_joint_table_shape() -> None:
    """Design — joint_pmf is (attacker figures + 1) × (defender figures + 1), summing to 1."""
    a = MeleeSide.uniform(6, melee=2, skill=4, wounds=2, morale=4)
    d = MeleeSide.uniform(8, melee=1, skill=3, wounds=2, morale=3)
    odds = melee(a, d, first_strike="defender")
    table = odds.joint_pmf()
    assert len(table) == 7 and all(len(row) == 9 for row in table)
    assert abs(sum(map(sum, table)) - 1) < 1e-12
    assert abs(sum(r["p"] for r in odds.outcome_list()) - 1) < 1e-12  # type: ignore[misc]


def test_5_3_bad_melee_input_is_invalid() -> None:
    """A panicking attacker, fighters above strength, unknown first strike: InvalidDataError."""
    ok = MeleeSide.uniform(2, melee=1, skill=3, wounds=1, morale=4)
    with pytest.raises(InvalidDataError):
        melee(MeleeSide.uniform(2, melee=1, skill=3, wounds=1, morale=4, panicking=True), ok)
    with pytest.raises(InvalidDataError):
        MeleeSide.uniform(5, melee=1, skill=3, wounds=1, morale=4, strength=3)
    with pytest.raises(InvalidDataError):
        melee(ok, ok, first_strike="both")  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError):
        MeleeSide.uniform(0, melee=1, skill=3, wounds=1, morale=4)


def test_5_5_rolled_melee_agrees_with_exact_table_monte_carlo() -> None:
    """5.3–5.5 — 20 000 seeded rolled melees (dice, removal, tests) fit the exact outcome table
    (chi-square below the 1e-4 critical value, Wilson–Hilferty)."""
    a = MeleeSide.uniform(5, melee=2, skill=4, wounds=2, morale=4, initial=6)
    d = MeleeSide.uniform(6, melee=1, skill=3, wounds=2, morale=4, wound_bonus=1)
    exact = melee(a, d, first_strike="attacker").outcomes.probabilities()
    rng = random.Random(11)
    n = 20_000
    counts: dict[tuple[MeleeOutcome, MeleeOutcome], int] = {}
    for _ in range(n):
        pair = roll_melee(a, d, rng, first_strike="attacker").outcome
        counts[pair] = counts.get(pair, 0) + 1
    assert set(counts) <= set(exact)
    stat, rest_e, rest_o, bins = 0.0, 0.0, 0, 0
    for pair, p in exact.items():
        e = float(p) * n
        if e >= 5:
            stat += (counts.get(pair, 0) - e) ** 2 / e
            bins += 1
        else:
            rest_e += e
            rest_o += counts.get(pair, 0)
    if rest_e:
        stat += (rest_o - rest_e) ** 2 / rest_e
        bins += 1
    dof = bins - 1
    h = 2 / (9 * dof)
    assert stat < dof * (1 - h + 3.719 * math.sqrt(h)) ** 3


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['a']}-{c['d']}-{c['fs']}")
def test_6_7_1_a_side_that_cannot_pursue_holds_instead(case: dict[str, Any]) -> None:
    """6.7.1 — artillery never falls into uncontrolled pursuit: with ``pursues`` false a side takes
    no pursuit test (5.5.3, 5.5.5) and holds, so its table is the full table with every pursuit of
    that side read as held; the other side's chances do not move."""
    a = side_of(case["a"], 4, skirmish=case.get("a_skirmish", False))
    d = side_of(case["d"], 3, wound_bonus=case.get("d_terrain", 0))
    both = melee(a, d, first_strike=case["fs"]).outcomes.probabilities()
    for who in (0, 1):
        sides = [a, d]
        m = sides[who].morale
        sides[who] = MeleeSide(
            sides[who].fighters,
            MeleeMorale(m.morale, m.strength, m.initial, m.modifier, m.panicking, pursues=False),
            sides[who].wound_bonus,
            sides[who].skirmish,
        )
        got = melee(sides[0], sides[1], first_strike=case["fs"]).outcomes.probabilities()
        want: dict[tuple[MeleeOutcome, MeleeOutcome], Fraction] = {}
        for pair, p in both.items():
            held = tuple(
                MeleeOutcome.HELD if (k == who and o is MeleeOutcome.PURSUIT) else o
                for k, o in enumerate(pair)
            )
            want[held] = want.get(held, Fraction(0)) + p  # type: ignore[index]
        assert got == want
        assert all(pair[who] is not MeleeOutcome.PURSUIT for pair in got)


def test_6_7_1_a_rolled_battery_rolls_no_pursuit_test() -> None:
    """6.7.1 — the seeded melee of a referee (``--roll``): a battery that stood while its
    attackers broke takes no pursuit test and never pursues."""
    a = MeleeSide.uniform(2, melee=1, skill=3, wounds=1, morale=3)
    gun = MeleeSide(
        MeleeSide.uniform(1, melee=2, skill=4, wounds=2, morale=4).fighters,
        MeleeMorale(4, 1, 1, pursues=False),
    )
    rng = random.Random(3)
    seen = set()
    for _ in range(3000):
        roll = roll_melee(a, gun, rng)
        seen.add(roll.outcome[1])
        assert all("defender pursuit" != t.kind for t in roll.tests)
    assert MeleeOutcome.PURSUIT not in seen and MeleeOutcome.HELD in seen
