"""Issue 7 — the duel simulation (szwadron.armies.duel): its mechanics on hand-set situations with
known answers, and its determinism.

Dice are scripted where an exact answer is wanted (:class:`ScriptedDice` returns the faces it is
given, in order); the rule each test checks is in its name or docstring.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from szwadron.armies.duel import (
    ADVANCE_GAP_CM,
    START_DISTANCE_CM,
    Action,
    Duel,
    DuelUnit,
    Weapon,
    best_weapon,
    choose_action,
    melee_score,
    modified_accuracy,
    run_battle,
    run_duel,
    split_units,
    standard_unit_figures,
)
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import Kind


class ScriptedDice(random.Random):
    """A random source whose ``randint`` returns scripted faces (and fails when they run out)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the test scripted too few dice"
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def infantry(**kw: object) -> DuelUnit:
    """The line template (armylists/README.md) unless overridden."""
    base: dict[str, object] = dict(
        key="line",
        kind=Kind.INFANTRY,
        move_cm=12.0,
        wounds=2,
        melee=1,
        skill=3,
        morale=4,
        weapons=(Weapon("musket", 24.0, 1, 3),),
    )
    base.update(kw)
    return DuelUnit(**base)  # type: ignore[arg-type]


def cavalry(**kw: object) -> DuelUnit:
    base: dict[str, object] = dict(
        key="cav",
        kind=Kind.CAVALRY,
        move_cm=28.0,
        wounds=2,
        melee=2,
        skill=3,
        morale=4,
        weapons=(),
        depth_cm=4.0,
    )
    base.update(kw)
    return DuelUnit(**base)  # type: ignore[arg-type]


def gun(**kw: object) -> DuelUnit:
    base: dict[str, object] = dict(
        key="gun",
        kind=Kind.FOOT_ARTILLERY,
        move_cm=10.0,
        wounds=3,
        melee=1,
        skill=2,
        morale=4,
        weapons=(Weapon("roundshot", 48.0, 2, 3), Weapon("canister", 14.0, 4, 4)),
        frontage_cm=4.0,
        depth_cm=4.0,
    )
    base.update(kw)
    return DuelUnit(**base)  # type: ignore[arg-type]


def duel(
    a: DuelUnit, na: int, b: DuelUnit, nb: int, faces: Iterable[int] = (), *, distance: float = 10.0
) -> Duel:
    return Duel.start(a, na, b, nb, ScriptedDice(faces), distance_cm=distance, log=True)


# --- 4.5, 7.1.3: range and weapons ------------------------------------------------------------
def test_4_5_4_accuracy_falls_by_one_per_full_20_cm() -> None:
    assert [modified_accuracy(4, d) for d in (0.0, 19.99, 20.0, 39.9, 40.0)] == [4, 4, 3, 3, 2]


def test_7_1_3_artillery_picks_its_best_ammunition_for_the_distance() -> None:
    g, line = gun(), infantry()
    assert best_weapon(g, 10.0, line)[0].name == "canister"  # type: ignore[index]
    assert best_weapon(g, 30.0, line) == (g.weapons[0], 2)  # roundshot at C 3 − 1
    assert best_weapon(g, 48.5, line) is None  # 4.5.1: out of range


def test_4_5_4_no_fire_when_modified_accuracy_is_zero() -> None:
    militia = infantry(weapons=(Weapon("musket", 24.0, 1, 1),))
    assert best_weapon(militia, 19.0, infantry()) is not None
    assert best_weapon(militia, 21.0, infantry()) is None  # C 1 − 1 = 0


def test_limber_does_not_duel() -> None:
    army = load_army_list(bundled_dir("armylists") / "france.toml")
    with pytest.raises(InvalidDataError, match="limber"):
        DuelUnit.from_profile(army.profile("limber"))
    # 7.2: a gun fielded with its limber moves at its limbered speed
    assert DuelUnit.from_profile(army.profile("foot_artillery")).move_cm == 12.0
    assert DuelUnit.from_profile(army.profile("voltigeurs")).frontage_cm == 4.0  # 7.5 open order


# --- 4.6, 4.8, 6.3: fire and its morale test -------------------------------------------------------
def test_4_6_every_die_at_or_under_c_scores_and_w1_removes_one_figure_each() -> None:
    """4 figures with SO 1 at C 6 against W 1: 4 damage, 4 removed; the test is at M 6 − 1
    (6 of 10 left is at most 3/4, 6.2.4): a 5 passes."""
    d = duel(
        infantry(weapons=(Weapon("m", 24.0, 1, 6),)),
        4,
        infantry(wounds=1, morale=6),
        10,
        faces=[6, 6, 6, 6, 5],
    )
    assert d.fire(0)
    assert d.sides[1].strength == 6 and d.distance_cm == 10.0 and not d.finished


def test_4_8_2_repulsed_by_fire_retreats_a_full_move() -> None:
    """1 damage on W 2: remainder 1/2 (≤3 on a d6) rolled 4, none removed; the repulse test fails
    (5 > M 4), the panic test passes (2): repulsed, 12 cm further away (4.8.2, 6.5)."""
    d = duel(infantry(), 2, infantry(), 10, faces=[1, 6, 4, 5, 2])
    d.fire(0)
    assert d.sides[1].strength == 10
    assert d.distance_cm == 10.0 + 12.0
    assert not d.sides[1].broken and not d.finished


def test_6_6_panic_after_fire_loses_the_duel() -> None:
    """Both tests failed (6.3): panic; the panicking unit counts as broken (duel notes)."""
    d = duel(infantry(), 2, infantry(), 10, faces=[1, 1, 6, 6])
    d.fire(0)
    assert d.sides[1].strength == 9 and d.sides[1].broken
    assert d.finished and d.winner == 0


def test_4_8_1_no_damage_no_test() -> None:
    d = duel(infantry(), 2, infantry(morale=0), 10, faces=[6, 6])
    d.fire(0)
    assert not d.sides[1].broken and d.sides[1].strength == 10


def test_7_5_skirmishers_take_fire_at_double_w() -> None:
    """PD-17: 2 damage against W 2 skirmishers counts against W 4: no figure, remainder 2/4 = 1/2."""
    d = duel(infantry(), 2, infantry(skirmish=True, morale=6), 10, faces=[1, 1, 4, 1])
    d.fire(0)
    assert d.sides[1].strength == 10


def test_4_11_fire_on_the_march_halves_the_dice() -> None:
    """From 28 cm half a move (6 cm) would reach 22 cm; a shooter stops at its range, 24 cm, and
    fires half its SO (4 → 2 dice) at C 6 − 1 (4.5.4)."""
    d = duel(
        infantry(weapons=(Weapon("m", 24.0, 1, 6),)),
        4,
        infantry(wounds=1, morale=6),
        10,
        faces=[5, 5, 6],
        distance=28.0,
    )
    assert choose_action(d, 0) is Action.MARCH_FIRE
    d._advance(0, march=True)
    assert d.distance_cm == 24.0
    assert d.sides[1].strength == 8  # 2 dice, both score; the test at M 6 passes


# --- 5.3, 7.7: melee --------------------------------------------------------------------------
def test_5_3_figures_in_contact_face_the_other_line_then_wrap_its_flanks() -> None:
    d = duel(infantry(), 12, gun(), 3)
    assert (d.fighters(0), d.fighters(1)) == (6, 3)  # 12 cm of guns face 6 infantry bases
    d.melee_rounds = 1  # 5.6: after pushing up, one figure per 2 cm of each flank (4 cm deep)
    assert (d.fighters(0), d.fighters(1)) == (10, 3)


def test_7_7_first_strike_on_the_charge_and_in_defence() -> None:
    lancers = cavalry(first_strike_charge=True)
    guards = infantry(first_strike_defence=True)
    d = duel(lancers, 6, infantry(), 12)
    assert d.first_strike(0, charge=True) == "attacker"
    assert d.first_strike(0, charge=False) is None
    d = duel(cavalry(), 6, guards, 12)
    assert d.first_strike(0, charge=True) == "defender"
    d.melee_rounds = 1
    assert d.first_strike(0, charge=False) is None  # open ground: only the first exchange
    d = duel(lancers, 6, guards, 12)
    assert d.first_strike(0, charge=True) is None  # both: simultaneous


def test_5_5_melee_with_certain_dice_destroys_the_weaker_side() -> None:
    """6 cavalry with UW 6 strike 12 dice (6 in contact × SW 2) against 3 figures of W 1 that
    strike back with UW 0: every defender removed, no attacker (5.3, PD-18)."""
    d = duel(cavalry(skill=6), 6, infantry(wounds=1, skill=0), 3, faces=[1] * 12, distance=0.0)
    d.engaged = True
    d.melee_exchange(0, charge=True)
    assert d.sides[1].strength == 0 and d.winner == 0 and d.reason == "B destroyed"


def test_6_7_artillery_never_pursues() -> None:
    d = duel(gun(), 2, infantry(), 6)
    d._pursue(0)
    assert not d.sides[0].pursuing


# --- 2.3, 4.12: the policy and reaction fire ------------------------------------------------------
def test_4_12_shooter_declares_fire_against_cavalry_out_of_range() -> None:
    d = duel(infantry(), 12, cavalry(), 6, distance=START_DISTANCE_CM)
    assert choose_action(d, 0) is Action.DECLARE
    # the cavalry stops just out of musket range, from where it can charge next turn
    assert choose_action(d, 1) is Action.ADVANCE
    d._advance(1, march=False)
    assert d.distance_cm == 24.0 + ADVANCE_GAP_CM


def test_4_5_4_a_shooter_stops_where_its_accuracy_still_counts() -> None:
    """C 1 with Z 24: at 20 cm or more 4.5.4 leaves C 0, so the unit closes to under 20 cm
    instead of standing at its nominal range (it would never fire)."""
    militia = infantry(weapons=(Weapon("musket", 24.0, 1, 1),), wounds=1, morale=3)
    assert militia.effective_range_cm == 20.0 - ADVANCE_GAP_CM
    d = duel(militia, 12, cavalry(), 6, distance=30.0)
    d._advance(0, march=False)
    assert d.distance_cm == 20.0 - ADVANCE_GAP_CM
    assert best_weapon(militia, d.distance_cm, cavalry()) is not None


def test_4_12_declared_fire_hits_the_charge_before_contact() -> None:
    """A charge into declared fire: the volley is at distance 0 (full C); 4 cavalry of W 1 all
    removed by 4 dice at C 6: no melee."""
    d = duel(
        infantry(weapons=(Weapon("m", 24.0, 1, 6),)),
        4,
        cavalry(wounds=1),
        4,
        faces=[1, 1, 1, 1],
        distance=20.0,
    )
    d.sides[0].declared = True
    d.movement_phase(1)
    assert d.sides[1].strength == 0 and d.winner == 0
    assert any("reacts to the charge" in line for line in d.log or [])


def test_4_12_6_idle_unit_fires_at_the_first_charger() -> None:
    d = duel(
        infantry(weapons=(Weapon("m", 24.0, 1, 6),)),
        4,
        cavalry(wounds=1),
        4,
        faces=[1, 1, 1, 1],
        distance=20.0,
    )
    d.sides[0].idle = True
    d.movement_phase(1)
    assert d.winner == 0


def test_7_3_heavy_artillery_prepares_after_moving() -> None:
    heavy = gun(heavy=True)
    d = duel(heavy, 2, infantry(), 12, distance=30.0)
    d.sides[0].prepared = False
    assert choose_action(d, 0) is Action.PREPARE
    d.sides[0].prepared = True
    assert choose_action(d, 0) is Action.FIRE


def test_2_3_engaged_units_continue_or_leave_the_melee() -> None:
    d = duel(
        cavalry(auto_disengage=True, skill=1, morale=3), 2, infantry(skill=6, wounds=3), 12, distance=0.0
    )
    d.engaged = True
    assert choose_action(d, 0) is Action.DISENGAGE  # 7.6, losing odds
    assert choose_action(d, 1) is Action.MELEE


# --- whole duels --------------------------------------------------------------------------------
def test_same_seed_same_duel_and_seeds_matter() -> None:
    a, b = infantry(), cavalry()
    first = [run_duel(a, 12, b, 6, seed=f"s{i}") for i in range(20)]
    again = [run_duel(a, 12, b, 6, seed=f"s{i}") for i in range(20)]
    assert first == again
    assert len({(r.winner, r.rounds, r.strength_a, r.strength_b) for r in first}) > 1


def test_a_unit_that_cannot_hurt_loses() -> None:
    """A target with no fire and SW 0 cannot win; with M 0 its first test after damage is a panic."""
    helpless = infantry(weapons=(), melee=0, morale=0)
    results = [run_duel(infantry(), 12, helpless, 12, seed=i) for i in range(10)]
    assert all(r.winner == 0 for r in results)


def test_bigger_unit_wins_more_often() -> None:
    a = infantry()
    small = sum(run_duel(a, 8, a, 16, seed=i, first=i % 2).score_a for i in range(60)) or 0.0
    big = sum(run_duel(a, 16, a, 8, seed=i, first=i % 2).score_a for i in range(60)) or 0.0
    assert big > small + 20


def test_duel_needs_figures() -> None:
    with pytest.raises(InvalidDataError):
        run_duel(infantry(), 0, infantry(), 3, seed=1)


# --- battles: several standard units a side ------------------------------------------------------
def test_standard_units_by_kind_and_splitting() -> None:
    assert standard_unit_figures(infantry()) == 12
    assert standard_unit_figures(infantry(skirmish=True)) == 6
    assert standard_unit_figures(cavalry()) == 6
    assert standard_unit_figures(gun()) == 1
    assert split_units(80, 12) == (12, 12, 12, 11, 11, 11, 11)
    assert split_units(17, 6) == (6, 6, 5)
    assert split_units(4, 12) == (4,)
    assert split_units(3, 1) == (1, 1, 1)
    with pytest.raises(InvalidDataError):
        split_units(0, 12)


def test_battle_is_seeded_and_lost_when_every_unit_is_out() -> None:
    a, b = infantry(), cavalry()
    first = [run_battle(a, (12, 12), b, (6, 6, 6), seed=f"s{i}", first=i % 2) for i in range(10)]
    assert first == [run_battle(a, (12, 12), b, (6, 6, 6), seed=f"s{i}", first=i % 2) for i in range(10)]
    for r in first:
        assert r.duels >= 2 and r.rounds >= 1
        if r.winner == 0:
            assert r.units_b == 0 and r.units_a >= 1
        elif r.winner == 1:
            assert r.units_a == 0 and r.units_b >= 1
    helpless = infantry(weapons=(), melee=0, morale=0)
    assert all(run_battle(a, (12,), helpless, (12, 12, 12), seed=i).winner == 0 for i in range(5))


def test_battle_more_units_win_more_often() -> None:
    a = infantry()
    few = sum(run_battle(a, (12,), a, (12, 12), seed=i, first=i % 2).score_a for i in range(60))
    many = sum(run_battle(a, (12, 12), a, (12,), seed=i, first=i % 2).score_a for i in range(60))
    assert many > few + 20


def test_battle_needs_units() -> None:
    with pytest.raises(InvalidDataError):
        run_battle(infantry(), (), infantry(), (3,), seed=1)
    with pytest.raises(InvalidDataError):
        run_battle(infantry(), (3, 0), infantry(), (3,), seed=1)


def test_the_policy_counts_an_elite_company_1_1_issue_14() -> None:
    """The policy's exact odds (choose_action) see every figure in contact, the company's too."""
    from szwadron.armies.duel import Side

    weak = DuelUnit("militia", Kind.INFANTRY, 12, 1, 1, 2, 3, (Weapon("musket", 24, 1, 2),))
    elite = DuelUnit("guard", Kind.INFANTRY, 12, 3, 1, 5, 5, (Weapon("musket", 24, 1, 4),))
    enemy = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))

    def score(elite_left: int) -> tuple[float, float]:
        duel = Duel(
            (
                Side(weak, 12, 12, elite=elite if elite_left else None, elite_left=elite_left),
                Side(enemy, 12, 12),
            ),
            random.Random(0),
            distance_cm=10.0,
            exact=True,
        )
        from szwadron.armies.duel import _fire_score

        me = duel.sides[0]
        fire = _fire_score(weak, me.plain, me.elite, me.elite_left, enemy, 12, 12, None, 0, 10.0)
        return melee_score(duel, 0, charge=True), fire

    plain_melee, plain_fire = score(0)
    elite_melee, elite_fire = score(3)
    assert elite_melee > plain_melee and elite_fire > plain_fire
