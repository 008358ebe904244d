"""Issue 14 — optional scattered cover in the simulated battle (4.10.3, 4.10.9, 7.5, PD-17).

A unit in bushes or rubble has W + 1 against fire (4.10.3) for the whole of its duels: every
volley at it (the ``Duel`` class with either sampler, the lean engine's cached tables) and the
policy's odds of firing at it. Nothing else changes: cover is against fire only, so melee and
the morale tests are those of open ground. With open order (7.5, PD-17) the bonuses add up first
(4.10.9) and the losses are then halved: W' = (W + cover) × 2 (docs/decisions.md). In a battle
each unit is in cover with probability ``cover``, drawn from dice of the battle's own (its seed
and ``:cover``), so a battle without cover plays exactly as before.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from brute import brute_removal

from szwadron.armies import battles
from szwadron.armies.battles import draw_cover, play, roster_force, run_battle_batch, validate_rosters
from szwadron.armies.duel import (
    MAX_ROUNDS,
    ArmyEntry,
    BattleConditions,
    Duel,
    DuelUnit,
    Side,
    Weapon,
    _fire_table,
    _lean_duel,
    _melee_side,
    _pair,
    best_weapon,
    run_army_battle,
)
from szwadron.armies.runs import wilson_interval
from szwadron.armies.search import held_out_validation
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import Kind
from szwadron.odds.combat import volley

LINE = DuelUnit("line", Kind.INFANTRY, 12, 1, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
JAGER = DuelUnit("jager", Kind.INFANTRY, 12, 1, 1, 3, 4, (Weapon("rifle", 30, 1, 4),), skirmish=True)
GUN = DuelUnit(
    "gun", Kind.FOOT_ARTILLERY, 10, 2, 1, 2, 4, (Weapon("roundshot", 48, 2, 3), Weapon("canister", 14, 4, 4))
)
#: Shooters that never charge (no melee dice): their duels are fire alone.
SHOOTER = DuelUnit("shooter", Kind.INFANTRY, 12, 1, 0, 1, 4, (Weapon("musket", 24, 1, 3),))


def _removed(table: object) -> dict[int, float]:
    """Figures removed → probability, from a ``(removed, damaged)`` table."""
    out: dict[int, float] = {}
    prev = 0.0
    for (removed, _), c in zip(table.outcomes, table.cumulative, strict=True):  # type: ignore[attr-defined]
        out[removed] = out.get(removed, 0.0) + c - prev
        prev = c
    return {k: v for k, v in out.items() if v > 1e-15}


def _brute_volley(dice: int, accuracy: int, wounds: int, figures: int) -> dict[int, float]:
    """Every face of every die (4.6: a die ≤ C scores 1 damage), then the removal of 1.5.1 walked
    literally (``brute_removal``) over ``figures`` figures of W ``wounds``."""
    out: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=dice):
        damage = sum(f <= accuracy for f in faces)
        for k, p in brute_removal(damage, [wounds] * figures).items():
            out[k] = out.get(k, Fraction(0)) + p / 6**dice
    return {k: float(v) for k, v in out.items() if v}


def _fire_distribution(
    shooter: DuelUnit, n: int, target: DuelUnit, figures: int, distance: float
) -> dict[int, float]:
    return _removed(_fire_table(shooter, n, None, 0, target, figures, None, 0, distance, False))


def test_4_10_3_volley_at_a_covered_target_is_the_odds_engines_for_w_plus_1() -> None:
    """4.10.3: the table a duel draws a volley at a covered target from is the odds engine's
    volley against W + 1 (4.6, 1.5.1), and brute force over every die agrees."""
    covered = LINE.in_cover(1)
    got = _fire_distribution(LINE, 4, covered, 3, 10.0)  # 4 muskets at C 3, 3 figures of W 1 + 1
    engine = volley([(4, 3)], 2, cap=3)
    assert got == pytest.approx(dict(enumerate(float(p) for p in engine.removed.pmf())), abs=1e-12)
    assert got == pytest.approx(_brute_volley(4, 3, 2, 3), abs=1e-12)
    # and not the open ground's (W 1): fewer figures removed on average
    open_ground = _fire_distribution(LINE, 4, LINE, 3, 10.0)
    assert open_ground == pytest.approx(_brute_volley(4, 3, 1, 3), abs=1e-12)
    mean = lambda d: sum(k * p for k, p in d.items())  # noqa: E731
    assert mean(got) < mean(open_ground)


def test_4_10_3_the_lean_engine_and_the_dice_roller_fire_at_w_plus_1() -> None:
    """The lean engine's cached volley (``_Pair.volley``) is the same table; the per-die roller
    (``Duel.fire``, sampler "dice") removes figures with the same distribution (20,000 volleys,
    each probability within 4 standard errors)."""
    covered = LINE.in_cover(1)
    expected = _brute_volley(4, 3, 2, 3)
    cum, outcomes = _pair(LINE, None, covered, None).volley(0, [4, 3], [0, 0], 10.0, False)
    lean = _removed(type("T", (), {"outcomes": outcomes, "cumulative": cum})())
    assert lean == pytest.approx(expected, abs=1e-12)
    rng = random.Random("cover-dice")
    n = 20_000
    seen: Counter[int] = Counter()
    for _ in range(n):
        duel = Duel((Side(LINE, 4, 4), Side(covered, 3, 3)), rng, distance_cm=10.0)
        duel.fire(0)
        seen[3 - duel.sides[1].strength] += 1
    for k, p in expected.items():
        se = (p * (1 - p) / n) ** 0.5
        assert abs(seen[k] / n - p) < 4 * se + 1e-9, (k, seen[k] / n, p)


def test_pd_17_4_10_9_covered_skirmishers_double_w_plus_cover() -> None:
    """7.5.2, PD-17 with 4.10.3 and 4.10.9: a skirmisher in cover has W' = (W + 1) × 2 against
    fire — the cover's bonus first, then the losses halved: its expected losses are exactly half
    those of the same unit in cover in close order (the reading "W × 2 + 1" would not halve them)."""
    covered = JAGER.in_cover(1)
    got = _fire_distribution(LINE, 4, covered, 4, 10.0)
    assert got == pytest.approx(_brute_volley(4, 3, 4, 4), abs=1e-12)  # (1 + 1) × 2 = 4
    close = replace(JAGER, skirmish=False)
    close_covered = _fire_distribution(LINE, 4, close.in_cover(1), 4, 10.0)
    mean = lambda d: sum(k * p for k, p in d.items())  # noqa: E731
    assert mean(got) == pytest.approx(mean(close_covered) / 2, abs=1e-12)  # no cap reached: 4 damage at most
    assert mean(got) != pytest.approx(mean(_brute_volley(4, 3, 3, 4)))  # not W × 2 + 1


def test_4_10_3_the_policy_knows_its_target_is_in_cover() -> None:
    """The policy's odds read the target's cover: a gun chooses its ammunition by the expected
    losses against W + cover (7.1.3), and its chance to repulse or break a covered target is lower."""
    from szwadron.armies.duel import _fire_score

    covered = LINE.in_cover(1)
    assert best_weapon(GUN, 12.0, covered) is not None
    open_score = _fire_score(GUN, 1, None, 0, LINE, 12, 12, None, 0, 12.0)
    cover_score = _fire_score(GUN, 1, None, 0, covered, 12, 12, None, 0, 12.0)
    assert 0 < cover_score < open_score


def test_4_10_3_cover_is_against_fire_only_melee_unchanged() -> None:
    """Cover gives nothing in melee (4.10.3 speaks of fire; 5.7's obstacles are left out): the
    melee sides are those of open ground, and a melee exchange with the same dice ends alike."""
    covered = LINE.in_cover(1)
    assert _melee_side(covered, 6, 12, 12, None, 0) == _melee_side(LINE, 6, 12, 12, None, 0)
    for seed in range(200):
        results = []
        for unit in (LINE, covered):
            duel = Duel(
                (Side(LINE, 12, 12), Side(unit, 12, 12)), random.Random(seed), distance_cm=0.0, engaged=True
            )
            duel.melee_exchange(0, charge=True)
            results.append(
                (duel.sides[0].strength, duel.sides[1].strength, duel.sides[1].broken, duel.distance_cm)
            )
        assert results[0] == results[1]


def test_4_10_3_shooters_score_less_against_cover() -> None:
    """Two units that only fire (no melee dice): against a covered enemy, side A's volleys
    remove fewer figures, and side B wins more duels (same seeds, 400 duels)."""
    covered = SHOOTER.in_cover(1)
    lost = {False: 0, True: 0}
    wins = {False: 0.0, True: 0.0}
    for k in range(400):
        for cover in (False, True):
            b = covered if cover else SHOOTER
            winner, _, s, _, _, _, _ = _lean_duel(
                _pair(SHOOTER, None, b, None),
                (12, 12),
                (12, 12),
                (0, 0),
                random.Random(f"s{k}"),
                40.0,
                k % 2,
                MAX_ROUNDS,
            )
            lost[cover] += 12 - s[1]
            wins[cover] += 0.5 if winner is None else float(winner == 1)
    assert lost[True] < 0.8 * lost[False]
    assert wins[True] > wins[False] + 40


FRANCE = load_army_list(bundled_dir("armylists") / "france.toml")


def _army(force: list[battles.ForceUnit]) -> list[ArmyEntry]:
    return [
        (
            DuelUnit.from_profile(u.profile),
            u.figures,
            DuelUnit.from_profile(u.elite) if u.elite else None,
            u.elite_figures,
        )
        for u in force
    ]


def test_4_10_3_an_army_in_cover_wins_more_than_half_of_identical_battles() -> None:
    """The same example roster on both sides, side B always in cover (every unit, ``draw_cover``
    at 1): B wins clearly more than half of 300 battles (the whole 95 % interval above 55 %),
    where on open ground the two sides are even (the interval contains 50 %)."""
    army = _army(roster_force(FRANCE, FRANCE.roster("corps-1000")))
    covered = draw_cover(army, 1.0, random.Random(0))
    assert all(e[0].cover == 1 for e in covered)
    n = 300
    open_b = sum(1.0 - run_army_battle(army, army, seed=f"c{k}", first=k % 2).score_a for k in range(n))
    cover_b = sum(1.0 - run_army_battle(army, covered, seed=f"c{k}", first=k % 2).score_a for k in range(n))
    lo, hi = wilson_interval(open_b, n)
    assert lo < 0.5 < hi
    assert wilson_interval(cover_b, n)[0] > 0.55, cover_b / n


def test_draw_cover_shares_and_determinism() -> None:
    """Each unit is in cover with probability ``cover``: about that share over many draws; none
    at 0; the same dice give the same units in cover."""
    army: list[ArmyEntry] = [(LINE, 12), (GUN, 1), (JAGER, 6, LINE, 2)]
    assert draw_cover(army, 0.0, random.Random(1)) == army
    rng = random.Random(2)
    share = sum(e[0].cover for _ in range(2000) for e in draw_cover(army, 0.25, rng)) / 6000
    assert 0.22 < share < 0.28
    assert draw_cover(army, 0.5, random.Random(3)) == draw_cover(army, 0.5, random.Random(3))
    third = draw_cover(army, 1.0, random.Random(4))[2]
    assert third[0] == JAGER.in_cover(1) and third[1:] == (6, LINE, 2)  # the elite company stays as it is


def _specs(profiles: list[dict[str, object]]) -> list[tuple[object, ...]]:
    force = ((0, 12, -1, 0), (0, 12, -1, 0), (1, 1, -1, 0), (2, 6, -1, 0))
    return [(force, force, k % 2, f"cover-batch:{k}") for k in range(60)]


@pytest.fixture(scope="module")
def france_profiles() -> list[dict[str, object]]:
    return [
        FRANCE.profile(i).model_dump(mode="json") for i in ("line_infantry", "foot_artillery", "voltigeurs")
    ]


def test_cover_0_is_byte_identical_to_no_cover(france_profiles: list[dict[str, object]]) -> None:
    """Cover 0 draws nothing: the battles are those of today, battle for battle, and so is the
    roster validation's document (but its timing)."""
    specs = _specs(france_profiles)
    plain = run_battle_batch(france_profiles, specs)  # type: ignore[arg-type]
    assert run_battle_batch(france_profiles, specs, conditions=BattleConditions(cover=0.0)) == plain  # type: ignore[arg-type]
    assert run_battle_batch(france_profiles, specs, BattleConditions("exact", 0)) == plain  # type: ignore[arg-type]
    armies = [load_army_list(bundled_dir("armylists") / f"{a}.toml") for a in ("france", "austria")]
    docs = [
        validate_rosters(armies, battles=4, workers=1, **kw).to_json()
        for kw in ({}, {"conditions": BattleConditions(cover=0.0)})
    ]  # type: ignore[arg-type]
    for d in docs:
        d.pop("seconds")
    assert docs[0] == docs[1] and docs[0]["cover"] == 0.0


def test_cover_is_deterministic_per_seed_and_changes_battles(
    france_profiles: list[dict[str, object]],
) -> None:
    """The same seeds give the same battles with cover; cover changes some of them."""
    specs = _specs(france_profiles)
    once = run_battle_batch(france_profiles, specs, conditions=BattleConditions(cover=0.5))  # type: ignore[arg-type]
    assert run_battle_batch(france_profiles, specs, conditions=BattleConditions(cover=0.5)) == once  # type: ignore[arg-type]
    assert once != run_battle_batch(france_profiles, specs)  # type: ignore[arg-type]


def test_lean_and_dice_samplers_agree_with_cover(france_profiles: list[dict[str, object]]) -> None:
    """With half the units in cover the exact sampler (lean engine) and the per-die roller play
    the same battles in distribution: side A's mean score within 4 standard errors (400 each)."""
    force_a = ((0, 12, -1, 0), (0, 12, -1, 0), (1, 1, -1, 0))
    force_b = ((0, 12, -1, 0), (2, 6, -1, 0), (2, 6, -1, 0))
    specs = [(force_a, force_b, k % 2, f"cover-samplers:{k}") for k in range(400)]
    exact = [s for s, _ in run_battle_batch(france_profiles, specs, BattleConditions("exact", 0.5))]  # type: ignore[arg-type]
    dice = [s for s, _ in run_battle_batch(france_profiles, specs, BattleConditions("dice", 0.5))]  # type: ignore[arg-type]
    me, md = sum(exact) / 400, sum(dice) / 400
    se = ((me * (1 - me) + md * (1 - md)) / 400) ** 0.5
    assert abs(me - md) < 4 * se + 0.01, (me, md)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), float("inf"), "0.5", None, True])
def test_a_share_of_cover_outside_0_to_1_is_bad_input(bad: object) -> None:
    """A share outside 0..1, NaN or not a number: one clear message (InvalidDataError)."""
    with pytest.raises(InvalidDataError, match="share of units in cover must be a number from 0 to 1"):
        play([], [], workers=1, conditions=BattleConditions(cover=bad))  # type: ignore[arg-type]
    with pytest.raises(InvalidDataError, match="share of units in cover"):
        held_out_validation([FRANCE], battles=1, workers=1, conditions=BattleConditions(cover=bad))  # type: ignore[arg-type]
