"""Issue 14 — flight and rally in the simulated battle (6.6, 6.8; szwadron.armies.duel).

A unit that panics in its duel flees 2d6 × 2/4/1/3 cm towards its own edge (6.6.2), leaves the
table when its flight runs past the edge (6.6.13), and, each time the lines are formed again, takes
one reorganisation test when no enemy is within 10 cm (6.8.2, 6.8.4): a pass brings it back to its
line as a reserve, with the figures it has. The exact chance to rally (:func:`rally_chance`) is
checked against cases worked by hand (tests/cases/battle_flight), against brute force over every
2d6 of every flight, and against the seeded flight itself; the two samplers play the same battles.
"""

from __future__ import annotations

import inspect
import itertools
import random
import tomllib
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import szwadron.armies.duel as duel_module
from szwadron.armies.battles import play, run_battle_batch
from szwadron.armies.duel import (
    BATTLE_FLIGHT,
    MAX_BATTLE_ROUNDS,
    TABLE_DEPTH_CM,
    BattleConditions,
    BattleFlight,
    BattleResult,
    DuelUnit,
    Kind,
    Weapon,
    _battle_morale_phase,
    _start_flight,
    battle_flight_multiplier,
    rally_chance,
    run_army_battle,
    run_battle,
)
from szwadron.errors import InvalidDataError
from szwadron.odds.morale import morale_target

CASES = Path(__file__).parent / "cases" / "battle_flight"


def line(key: str = "line") -> DuelUnit:
    return DuelUnit(key, Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))


def hussars(key: str = "hussars") -> DuelUnit:
    return DuelUnit(key, Kind.CAVALRY, 24, 2, 2, 4, 4, ())


GUN = DuelUnit(
    "gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4, (Weapon("roundshot", 48, 2, 3), Weapon("canister", 14, 4, 4))
)
ARMY_A = [(line("a1"), 12), (line("a2"), 10), (hussars("a3"), 6)]
ARMY_B = [(line("b1"), 11), (line("b2"), 9), (hussars("b3"), 5), (GUN, 1)]


class Dice(random.Random):
    """A stub of the battle's ``random.Random``: the faces of ``randint`` and the numbers of
    ``random`` it must give, in order; one call more than that fails the test."""

    def __init__(self, faces: list[int] | None = None, numbers: list[float] | None = None) -> None:
        super().__init__(0)
        self.faces = list(faces or [])
        self.numbers = list(numbers or [])

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)

    def random(self) -> float:
        return self.numbers.pop(0)


# --- 6.6.2: how far it flees -----------------------------------------------------------------------
def test_flight_multipliers_by_kind_6_6_2() -> None:
    """6.6.2 — infantry 2K6 × 2, cavalry × 4, foot artillery × 1 (only with R > 0), horse
    artillery × 3; artillery flees though it never pursues (6.7.1)."""
    assert battle_flight_multiplier(Kind.INFANTRY, 12) == 2
    assert battle_flight_multiplier(Kind.CAVALRY, 24) == 4
    assert battle_flight_multiplier(Kind.FOOT_ARTILLERY, 10) == 1
    assert battle_flight_multiplier(Kind.FOOT_ARTILLERY, 0) == 0
    assert battle_flight_multiplier(Kind.HORSE_ARTILLERY, 20) == 3
    assert GUN.pursuit_multiplier() == 0 and BattleFlight.after_duel(GUN, 1, 1, 10.0).multiplier == 1
    assert BattleFlight.after_duel(hussars(), 6, 6, 0.0).multiplier == 4


def test_room_to_the_own_edge_on_a_table_120_cm_deep_6_6_13() -> None:
    """The fronts are centred on the table: a duel that ended ``end`` cm apart leaves each side
    (120 − end) / 2 cm to its own edge; the reorganisation target counts the casualties (6.2)."""
    f = BattleFlight.after_duel(line(), 5, 12, 40.0)
    assert TABLE_DEPTH_CM == 120.0
    assert (f.gap_cm, f.room_cm, f.fled_cm) == (40.0, 40.0, 0.0)
    assert f.target == morale_target(4, 5, 12) == 2


def test_first_flight_past_the_edge_removes_the_unit_6_6_13() -> None:
    """6.6.13 — a unit whose immediate flight reaches its edge with flight left is removed; one
    that reaches the edge exactly has no flight left and stays."""
    fleeing: list[Any] = []
    unit = [line(), 12, 7, None, 0]
    # ended 100 cm apart: 10 cm of room; 2K6 = 5 → 10 cm stays; 2K6 = 6 → 12 cm is removed
    assert _start_flight(fleeing, unit, 0, 100.0, Dice([2, 3])) == 0
    assert len(fleeing) == 1 and fleeing[0][0].fled_cm == 10.0
    assert _start_flight(fleeing, unit, 1, 100.0, Dice([3, 3])) == 1
    assert len(fleeing) == 1
    cavalry = BattleFlight.after_duel(hussars(), 6, 6, 72.0)  # 24 cm of room: 2K6 = 6 → 24 cm
    assert cavalry.flee(Dice([1, 5])) and not cavalry.flee(Dice([1, 1]))  # then 32 cm: off


# --- 6.8: reorganisation -----------------------------------------------------------------------
def test_within_10_cm_no_test_it_flees_on_6_8_2() -> None:
    """6.8.2 — "do 10 cm": a unit 10 cm or less from where its enemy stood takes no test (no
    random number is drawn) and flees on; a little more than 10 cm and it tests."""
    near = BattleFlight(multiplier=2, gap_cm=2.0, room_cm=50.0, target=6, fled_cm=8.0)  # 10 cm
    assert not near.may_rally
    rng = Dice([1, 2])  # 2K6 = 3: 6 cm more; no number for a test
    assert near.morale_phase(rng, "exact") == "fleeing" and near.fled_cm == 14.0
    assert rng.faces == [] and rng.numbers == []
    far = BattleFlight(multiplier=2, gap_cm=2.5, room_cm=50.0, target=6, fled_cm=8.0)  # 10.5 cm
    assert far.may_rally and far.morale_phase(Dice(numbers=[0.99]), "exact") == "rallied"


@pytest.mark.parametrize("sampler", ["exact", "dice"])
def test_reorganisation_test_pass_and_fail_6_8_4(sampler: str) -> None:
    """6.8.4 — pass: back under control; fail: it stays in panic and flees again (6.6.7), and
    running past the edge removes it (6.6.13). Target 4: a 4 passes, a 5 fails (6.2)."""
    passes = Dice([4]) if sampler == "dice" else Dice(numbers=[3.9 / 6])
    fails = Dice([5, 3, 4]) if sampler == "dice" else Dice([3, 4], numbers=[4.1 / 6])
    f = BattleFlight(2, 12.0, 30.0, 4)
    assert f.morale_phase(passes, sampler) == "rallied"  # type: ignore[arg-type]
    assert f.morale_phase(fails, sampler) == "fleeing" and f.fled_cm == 14.0  # type: ignore[arg-type]
    off = Dice([6, 6, 6]) if sampler == "dice" else Dice([6, 6], numbers=[0.99])
    assert f.morale_phase(off, sampler) == "left"  # type: ignore[arg-type]  # 38 cm > 30


def test_rallied_unit_comes_back_with_its_figures_6_8() -> None:
    """6.8 — the morale phase gives back the battle's own entry of a rallied unit, to its side:
    its strength, starting strength and elite figures as they were; the others flee on."""
    grenadiers = line("grenadiers")
    rallies = [line(), 12, 7, grenadiers, 2]
    stays = [hussars(), 6, 3, None, 0]
    fleeing: list[Any] = [
        (BattleFlight(2, 20.0, 40.0, 6), rallies, 1),
        (BattleFlight(4, 0.0, 40.0, 6), stays, 0),  # in contact: no test
    ]
    back: tuple[list[Any], list[Any]] = ([], [])
    left = _battle_morale_phase(fleeing, back, Dice([1, 1], numbers=[0.0]), "exact")
    assert left == 0 and back[0] == [] and back[1][0] is rallies
    assert rallies == [line(), 12, 7, grenadiers, 2]
    assert [item[1] for item in fleeing] == [stays] and fleeing[0][0].fled_cm == 8.0


class _Recorder:
    """Records every duel of a battle played with the per-die roller: each side's unit, starting
    strength and strength before and after, and the winner."""

    def __init__(self) -> None:
        self.duels: list[tuple[list[tuple[str, int, int, int]], int | None]] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        recorder = self

        class Recording(duel_module.Duel):
            def run(self, first: Any = 0, max_rounds: int = duel_module.MAX_ROUNDS) -> Any:
                before = [s.strength for s in self.sides]
                result = super().run(first, max_rounds)
                recorder.duels.append(
                    (
                        [
                            (s.unit.key, s.initial, b, s.strength)
                            for s, b in zip(self.sides, before, strict=True)
                        ],
                        result.winner,
                    )
                )
                return result

        monkeypatch.setattr(duel_module, "Duel", Recording)

    def histories(self) -> Iterator[list[tuple[int, int, int, bool]]]:
        """Each unit's duels in order: (initial, strength before, after, lost)."""
        by_key: dict[str, list[tuple[int, int, int, bool]]] = {}
        for sides, winner in self.duels:
            for who, (key, initial, before, after) in enumerate(sides):
                by_key.setdefault(key, []).append((initial, before, after, winner != who))
        return iter(by_key.values())


def test_rallied_unit_fights_again_with_its_strength_and_starting_strength_6_8(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """6.8 — in a battle with flight, a unit that lost its duel with figures left (it panicked)
    and rallied fights a later duel with the figures it had and its starting strength (the
    casualty modifiers of 6.2 count from it); without flight a loser never fights again."""
    sizes = {u.key: n for u, n in [*ARMY_A, *ARMY_B]}
    came_back = 0
    for seed in range(60):
        rec = _Recorder()
        with monkeypatch.context() as m:
            rec.install(m)
            r = run_army_battle(
                ARMY_A, ARMY_B, seed=f"rally:{seed}", conditions=BattleConditions(sampler="dice", flight=True)
            )
        for history in rec.histories():
            for (initial, _, after, lost), (initial2, before2, _, _) in itertools.pairwise(history):
                assert initial == initial2 and before2 == after  # the figures it had
                came_back += lost
        for sides, _ in rec.duels:
            assert all(initial == sizes[key] for key, initial, _, _ in sides)  # starting strength
        assert r.rallied >= 0 and r.left_table >= 0
    assert came_back > 0  # rallied units did fight again
    for seed in range(20):
        rec = _Recorder()
        with monkeypatch.context() as m:
            rec.install(m)
            run_army_battle(
                ARMY_A,
                ARMY_B,
                seed=f"rally:{seed}",
                conditions=BattleConditions(sampler="dice", flight=False),
            )
        for history in rec.histories():
            assert not any(lost for _, _, _, lost in history[:-1])


# --- the battle ----------------------------------------------------------------------------------
def test_flight_is_off_by_default_and_every_seeded_battle_stays() -> None:
    """Issue 14: flight is in the code but off (BATTLE_FLIGHT) until the points are fitted with
    it; ``run_battle`` takes the same default, and ``run_army_battle``, ``run_battle_batch`` and
    ``play`` the calibration's conditions (BattleConditions), whose flight it is."""
    assert BATTLE_FLIGHT is False
    assert inspect.signature(run_battle).parameters["flight"].default is BATTLE_FLIGHT
    assert BattleConditions().flight is BATTLE_FLIGHT
    for fn in (run_army_battle, run_battle_batch, play):
        assert inspect.signature(fn).parameters["conditions"].default == BattleConditions()
    for seed in range(10):
        off = run_army_battle(ARMY_A, ARMY_B, seed=seed)
        assert off == run_army_battle(ARMY_A, ARMY_B, seed=seed, conditions=BattleConditions(flight=False))
        assert (off.rallied, off.left_table) == (0, 0)


@pytest.mark.parametrize("sampler", ["exact", "dice"])
def test_battles_with_flight_are_seeded(sampler: str) -> None:
    runs = [
        run_army_battle(
            ARMY_A, ARMY_B, seed=f"s:{k}", conditions=BattleConditions(sampler=sampler, flight=True)
        )  # type: ignore[arg-type]
        for k in range(30)
        for _ in range(2)
    ]
    assert all(a == b for a, b in zip(runs[::2], runs[1::2], strict=True))
    assert sum(r.rallied for r in runs) > 0 and sum(r.left_table for r in runs) > 0
    assert all(r.rounds <= MAX_BATTLE_ROUNDS for r in runs)
    sized = [
        run_battle(line(), (12, 12), hussars(), (6, 6, 6), seed=k, sampler=sampler, flight=True)  # type: ignore[arg-type]
        for k in range(5)
    ]
    assert sized == [
        run_battle(line(), (12, 12), hussars(), (6, 6, 6), seed=k, sampler=sampler, flight=True)  # type: ignore[arg-type]
        for k in range(5)
    ]


def test_a_side_without_fighting_units_loses_though_its_units_flee_6_6() -> None:
    """Fleeing units are not in the fight: one unit a side, the loser's panic ends the battle at
    once, with the same winner, duel and rounds as without flight, and nobody rallies."""
    for seed in range(40):
        on = run_army_battle(
            [(line(), 12)], [(hussars(), 6)], seed=seed, conditions=BattleConditions(flight=True)
        )
        off = run_army_battle(
            [(line(), 12)], [(hussars(), 6)], seed=seed, conditions=BattleConditions(flight=False)
        )
        assert (on.winner, on.duels, on.rounds, on.units_a, on.units_b) == (
            off.winner,
            off.duels,
            off.rounds,
            off.units_a,
            off.units_b,
        )
        assert on.rallied == 0


def test_samplers_agree_on_battles_with_flight() -> None:
    """The exact sampler and the per-die roller play the same battles with flight: win rates and
    rallies a battle agree within sampling error (800 battles each)."""
    n = 800
    stats: dict[str, tuple[float, float, float]] = {}
    for sampler in ("exact", "dice"):
        rs = [
            run_army_battle(
                ARMY_A,
                ARMY_B,
                seed=f"agree:{k}",
                first=k % 2,
                conditions=BattleConditions(sampler=sampler, flight=True),
            )  # type: ignore[arg-type]
            for k in range(n)
        ]
        stats[sampler] = (
            sum(r.score_a for r in rs) / n,
            sum(r.rallied for r in rs) / n,
            sum(r.left_table for r in rs) / n,
        )
    (pe, re_, le), (pd, rd, ld) = stats["exact"], stats["dice"]
    assert abs(pe - pd) <= 4 * (2 * max(pd * (1 - pd), 0.01) / n) ** 0.5
    assert rd > 0.2 and ld > 0.2  # flight happens in these battles
    assert abs(re_ - rd) <= 4 * (2 * max(rd, 0.5) / n) ** 0.5  # Poisson-like counts
    assert abs(le - ld) <= 4 * (2 * max(ld, 0.5) / n) ** 0.5


# --- the exact chance to rally (6.6, 6.8) ---------------------------------------------------------
def _cases() -> list[Path]:
    return sorted(CASES.glob("*.toml"))


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.stem)
def test_rally_chance_known_answers_6_8(path: Path) -> None:
    """Cases worked by hand from 6.6.2, 6.6.13 and 6.8.2 (the comments of each file)."""
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    got = rally_chance(case["multiplier"], case["room_cm"], case["gap_cm"], case["target"])
    assert got == Fraction(case["rally_chance"])


def brute_rally(multiplier: int, room_cm: float, gap_cm: float, target: int) -> Fraction:
    """Every 2d6 of every flight, die by die (36 faces a flight), the test passing target/6
    (6.2): the chance a unit that has just panicked rallies before it leaves the table."""
    p = Fraction(target, 6)

    def flee(fled: int) -> Fraction:
        total = Fraction(0)
        for a in range(1, 7):
            for b in range(1, 7):
                moved = fled + (a + b) * multiplier
                if moved > room_cm:  # 6.6.13: off the table
                    continue
                if gap_cm + moved > 10:  # 6.8.2: it may test
                    total += Fraction(1, 36) * (p + (1 - p) * flee(moved))
                else:
                    total += Fraction(1, 36) * flee(moved)
        return total

    return flee(0)


@pytest.mark.parametrize(
    ("multiplier", "room", "gap", "target"), [(2, 30.0, 0.0, 3), (4, 40.0, 2.0, 4), (1, 12.0, 5.0, 2)]
)
def test_rally_chance_is_the_brute_force_and_the_seeded_flight(
    multiplier: int, room: float, gap: float, target: int
) -> None:
    """The dynamic programme equals brute force over every 2d6 sequence, and the seeded flight
    (:class:`BattleFlight`, both samplers) rallies that often within sampling error."""
    exact = rally_chance(multiplier, room, gap, target)
    assert exact == brute_rally(multiplier, room, gap, target)
    assert 0 < exact < 1
    n = 6000
    for sampler in ("exact", "dice"):
        rng = random.Random(f"rally:{sampler}")
        rallied = 0
        for _ in range(n):
            f = BattleFlight(multiplier, gap, room, target)
            step = "fleeing" if f.flee(rng) else "left"
            while step == "fleeing":
                step = f.morale_phase(rng, sampler)  # type: ignore[arg-type]
            rallied += step == "rallied"
        p = float(exact)
        assert abs(rallied / n - p) <= 4 * (p * (1 - p) / n) ** 0.5


def test_rally_chance_bad_input() -> None:
    with pytest.raises(InvalidDataError, match="multiplier"):
        rally_chance(-1, 30.0, 0.0, 3)
    with pytest.raises(InvalidDataError, match="distances"):
        rally_chance(2, -1.0, 0.0, 3)


def test_battle_result_keeps_its_old_fields() -> None:
    """The new counts have defaults: results built as before still compare as before."""
    assert BattleResult(0, 1, 1, 1, 0) == BattleResult(0, 1, 1, 1, 0, 0, 0)


def test_a_battle_still_undecided_after_max_battle_rounds_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """With flight rallied units come back, so the battle stops after MAX_BATTLE_ROUNDS formings
    of the lines: both sides still fighting is a draw."""
    monkeypatch.setattr(duel_module, "MAX_BATTLE_ROUNDS", 1)
    results = [
        run_army_battle(ARMY_A, ARMY_B, seed=k, conditions=BattleConditions(flight=True)) for k in range(20)
    ]
    assert all(r.rounds == 1 for r in results)
    undecided = [r for r in results if r.units_a and r.units_b]
    assert undecided and all(r.winner is None for r in undecided)
    for r in results:
        if bool(r.units_a) != bool(r.units_b):
            assert r.winner == (0 if r.units_a else 1)
