"""Issue 14 — the duel's lean engine plays exactly the duel of :class:`szwadron.armies.duel.Duel`.

Battles, the calibration and the validation play their duels with the exact sampler on a lean
engine (``_lean_duel``: local variables, every table and policy choice looked up once per pair
of units). It must be the same game turn by turn: from the same state and the same seed, it
draws from the same tables in the same order as ``Duel.run`` with ``exact=True``, so the winner,
the rounds, both strengths, the elite companies left, the final distance and the reason agree
exactly. The states cover every fighting profile of the bundled lists (line, skirmishers 7.5,
cavalry with first strike 7.7 and automatic disengage 7.6, foot, heavy 7.3 and horse artillery),
elite companies (1.1), worn units (6.2.4 counts from the initial strength), units in cover
(4.10.3: W + 1 against fire, + 2 where cover adds up, 4.10.9; skirmishers in cover, PD-17) and
the distances a battle's later pairs start at.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from szwadron.armies import duel as duel_module
from szwadron.armies.calibrate import army_list_paths, duel_profiles, load_lists
from szwadron.armies.duel import (
    MAX_ROUNDS,
    START_DISTANCE_CM,
    BattleConditions,
    Duel,
    DuelUnit,
    Side,
    Weapon,
    _lean_duel,
    _pair,
    run_army_battle,
    run_duel,
)
from szwadron.models import Kind
from szwadron.odds.combat import MeleeSide
from szwadron.odds.sample import MeleePlan, sample_melee

UNITS = [DuelUnit.from_profile(e.profile) for e in duel_profiles(load_lists(army_list_paths()))]


def _state(rng: random.Random) -> tuple[DuelUnit, DuelUnit | None, int, int, int, float]:
    """A random side: its unit, elite company, initial strength, strength, elite figures left."""
    unit = rng.choice(UNITS)
    initial = 1 if unit.kind.is_artillery else rng.randint(2, 16)
    strength = rng.randint(max(1, initial // 3), initial)
    elite = None
    elite_left = 0
    if not unit.kind.is_artillery and strength > 2 and rng.random() < 0.3:
        elite = rng.choice([u for u in UNITS if not u.kind.is_artillery])
        elite_left = rng.randint(1, strength - 1)
    return unit, elite, initial, strength, elite_left, 0.0


CASES = 3000


def _covered(
    side: tuple[DuelUnit, DuelUnit | None, int, int, int, float], rng: random.Random
) -> tuple[DuelUnit, DuelUnit | None, int, int, int, float]:
    """The side, its unit in cover (4.10.3, 4.10.9: W + 1 or + 2 against fire) one time in three."""
    if rng.random() < 1 / 3:
        return (side[0].in_cover(rng.choice((1, 1, 2))), *side[1:])
    return side


def _cases() -> list[tuple[object, ...]]:
    rng = random.Random("lean-duel-cases")
    in_cover = random.Random("lean-duel-cover")  # its own dice: the other draws stay as they were
    out = []
    heavy = [u for u in UNITS if u.heavy]
    assert heavy, "the bundled lists have heavy artillery (7.3)"
    for k in range(CASES):
        a, b = _state(rng), _state(rng)
        if k % 10 == 0:  # heavy guns (7.3), far enough that they move first
            a = (rng.choice(heavy), None, 1, 1, 0, 0.0)
        a, b = (_covered(a, in_cover), _covered(b, in_cover))
        distance = rng.choice([START_DISTANCE_CM, START_DISTANCE_CM, 30.0, 18.5, 9.0, 2.0, 0.5, 70.0])
        out.append((a, b, distance, k % 2, f"lean:{k}"))
    return out


def test_lean_engine_plays_the_duel_of_duel_run_2_1_to_7_7() -> None:
    """Same seed, same state: the lean engine and ``Duel.run(exact)`` end every duel alike."""
    reasons: Counter[str] = Counter()
    for k, ((ua, ea, ia, sa, la, _), (ub, eb, ib, sb, lb, _), distance, first, seed) in enumerate(_cases()):
        waited = k % 2 == 1  # 4.12.6: half the cases start with the second mover idle
        duel = Duel(
            (
                Side(ua, ia, sa, elite=ea, elite_left=la, idle=waited and first == 1),
                Side(ub, ib, sb, elite=eb, elite_left=lb, idle=waited and first == 0),
            ),
            random.Random(seed),
            distance_cm=distance,
            exact=True,
        )
        ref = duel.run(first, MAX_ROUNDS)  # type: ignore[arg-type]
        lean = _lean_duel(
            _pair(ua, ea, ub, eb),
            (ia, ib),
            (sa, sb),
            (la, lb),
            random.Random(seed),
            distance,
            first,
            MAX_ROUNDS,
            waited,
        )  # type: ignore[arg-type]
        winner, rounds, s, el, end, reason, turns = lean
        assert (winner, rounds, s, el, end, reason, turns) == (
            ref.winner,
            ref.rounds,
            [duel.sides[0].strength, duel.sides[1].strength],
            [duel.sides[0].elite_left, duel.sides[1].elite_left],
            duel.distance_cm,
            ref.reason,
            duel.turns,
        ), (ua.key, ea and ea.key, ia, sa, la, ub.key, eb and eb.key, ib, sb, lb, distance, first, seed)
        reasons[reason.split()[-1]] += 1
    # The cases reach every ending: destroyed, panicked, both broken or no decision.
    assert {"destroyed", "panicked"} <= set(reasons)


def test_lean_cases_include_covered_units_4_10_3() -> None:
    """The equality above covers units in cover: shooters and skirmishers (7.5), with and
    without an elite company, at every bonus drawn."""
    sides = [side for a, b, *_ in _cases() for side in (a, b)]
    covered = [s for s in sides if s[0].cover]
    assert len(covered) > 1000
    assert {s[0].cover for s in covered} == {1, 2}
    assert any(s[0].skirmish for s in covered) and any(s[1] is not None for s in covered)
    assert any(s[0].kind.is_artillery for s in covered)


def test_lean_engine_meets_every_action_2_3() -> None:
    """The equality above is only worth what its cases play: every action of the policy
    (fire, fire on the march 4.11, charge, advance, declared fire 4.12, preparing heavy guns 7.3,
    continuing the melee, disengaging 5.8), pursuit (6.7) and the reaction of a unit that stood
    idle to a charge (4.12.6) happen in them."""

    seen: Counter[str] = Counter()
    original = duel_module.choose_action
    original_pursue = Duel._pursue
    original_reaction = Duel.reaction_fire

    def counting(duel: Duel, who: int) -> duel_module.Action:
        action = original(duel, who)  # type: ignore[arg-type]
        seen[action.value] += 1
        return action

    def pursue(self: Duel, who: int) -> None:
        seen["pursuit"] += 1
        original_pursue(self, who)  # type: ignore[arg-type]

    def reaction(self: Duel, mover: int, at_cm: float, *, charge: bool) -> bool:
        other = self.sides[1 - mover]
        if charge and other.idle and not other.declared and not other.out and not self.engaged:
            seen["4.12.6"] += 1  # the idle unit fires at the charger
        return original_reaction(self, mover, at_cm, charge=charge)  # type: ignore[arg-type]

    duel_module.choose_action = counting  # type: ignore[assignment]
    Duel._pursue = pursue  # type: ignore[method-assign]
    Duel.reaction_fire = reaction  # type: ignore[method-assign]
    try:
        for (ua, ea, ia, sa, la, _), (ub, eb, ib, sb, lb, _), distance, first, seed in _cases():
            Duel(
                (Side(ua, ia, sa, elite=ea, elite_left=la), Side(ub, ib, sb, elite=eb, elite_left=lb)),
                random.Random(seed),
                distance_cm=distance,
                exact=True,
            ).run(first, MAX_ROUNDS)  # type: ignore[arg-type]
    finally:
        duel_module.choose_action = original
        Duel._pursue = original_pursue  # type: ignore[method-assign]
        Duel.reaction_fire = original_reaction  # type: ignore[method-assign]
    assert set(seen) >= {a.value for a in duel_module.Action} | {"pursuit", "4.12.6"}, seen


def test_lean_engine_state_is_not_shared_between_duels() -> None:
    """A pair's looked-up tables are shared, its duels are not: replaying a duel after others
    of the same pair gives it again."""
    line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    hussars = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, ())
    first = [run_duel(line, 12, hussars, 6, seed=f"x{k}") for k in range(30)]
    again = [run_duel(line, 12, hussars, 6, seed=f"x{k}") for k in range(30)]
    assert first == again
    assert run_duel(line, 12, hussars, 6, seed="x1", sampler="exact") == first[1]


def test_exact_battles_are_the_duel_engines_battles() -> None:
    """A battle's duels on the lean engine end as ``Duel.run`` ends them: a battle replayed
    pair by pair with :class:`Duel` objects gives the same result (the lines of
    :func:`run_army_battle`: strongest first, survivors keep their figures, later pairs start
    where the previous ones ended; the turns alternate across formings, 2.1.3, and a new
    forming's second mover counts as having stood idle, 4.12.6)."""
    line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    gun = DuelUnit("gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4, (Weapon("roundshot", 48, 2, 3),))
    for k in range(40):
        army_a: list[list[object]] = [[line, 12, 12], [line, 12, 12], [gun, 1, 1]]
        army_b: list[list[object]] = [[line, 12, 12], [line, 10, 10], [line, 8, 8]]
        result = run_army_battle(
            [(u, n) for u, n, _ in army_a],  # type: ignore[misc]
            [(u, n) for u, n, _ in army_b],  # type: ignore[misc]
            seed=f"b{k}",
            conditions=BattleConditions(pairing="strongest", sampler="exact"),
        )
        rng = random.Random(f"b{k}")
        lines = (army_a, army_b)
        duels = 0
        start = START_DISTANCE_CM
        order, waited = 0, False
        while lines[0] and lines[1]:
            last = 0
            for line_ in lines:
                line_.sort(key=lambda u: -u[2])  # type: ignore[operator]
            ends = []
            out: tuple[set[int], set[int]] = (set(), set())
            for j in range(min(len(army_a), len(army_b))):
                ua, ub = lines[0][j], lines[1][j]
                duel = Duel(
                    (
                        Side(ua[0], ua[1], ua[2], idle=waited and order == 1),  # type: ignore[arg-type]
                        Side(ub[0], ub[1], ub[2], idle=waited and order == 0),  # type: ignore[arg-type]
                    ),
                    rng,
                    distance_cm=start,
                    exact=True,
                )
                duel.run(order, MAX_ROUNDS)  # type: ignore[arg-type]
                last = max(last, duel.turns)
                duels += 1
                ends.append(duel.distance_cm)
                ua[2], ub[2] = duel.sides[0].strength, duel.sides[1].strength
                if duel.winner != 1:
                    out[1].add(j)
                if duel.winner != 0:
                    out[0].add(j)
            for who in (0, 1):
                lines[who][:] = [u for j, u in enumerate(lines[who]) if j not in out[who] and u[2] > 0]  # type: ignore[operator]
            start = min(START_DISTANCE_CM, max(0.5, *ends))
            order, waited = (1 - order if last % 2 else order), True
        winner = 0 if army_a and not army_b else 1 if army_b and not army_a else None
        assert (result.winner, result.duels, result.units_a, result.units_b) == (
            winner,
            duels,
            len(army_a),
            len(army_b),
        )


@pytest.mark.parametrize("first_strike", ["attacker", "defender", None])
def test_melee_plan_draws_as_sample_melee_5_3_to_5_5_7_7(first_strike: str | None) -> None:
    """:class:`MeleePlan` is :func:`sample_melee` with its tables kept: the same draws."""
    a = MeleeSide.uniform(6, melee=2, skill=4, wounds=1, morale=4, strength=10, initial=12)
    d = MeleeSide.uniform(4, melee=1, skill=3, wounds=2, morale=3, strength=6, initial=8)
    plan = MeleePlan(a, d, first_strike)  # type: ignore[arg-type]
    r1, r2 = random.Random(5), random.Random(5)
    for _ in range(2000):
        assert plan.draw(r1) == sample_melee(a, d, first_strike, r2)  # type: ignore[arg-type]


def test_units_differing_only_in_name_share_one_pair_and_play_alike() -> None:
    """Nothing a duel does reads a unit's name (its profile's id), so the lean engine plays
    units that differ only in name from one pair's tables: the pair is the same object, and a
    battle of renamed units ends exactly as the battle of the originals (same seed)."""
    from dataclasses import replace

    from szwadron.armies.duel import _pair

    for a in UNITS[:6]:
        for b in UNITS[-6:]:
            a2, b2 = replace(a, key=a.key + "-copy"), replace(b, key="other")
            assert _pair(a, None, b, None) is _pair(a2, None, b2, None)
            for k in range(5):
                sizes = (1,) if a.kind.is_artillery else (12, 8)
                army_a = [(a, n) for n in sizes]
                army_b = [(b, 6), (b, 6)]
                renamed_a = [(a2, n) for n in sizes]
                renamed_b = [(b2, 6), (b2, 6)]
                assert run_army_battle(army_a, army_b, seed=f"n{k}") == run_army_battle(
                    renamed_a, renamed_b, seed=f"n{k}"
                )


def test_plain_units_are_a_fresh_validations_units() -> None:
    """A task's units (``plain_units``) are kept for the same list of profile dicts, and are the
    very units a fresh validation gives; another list gets its own."""
    from szwadron.armies.duel import plain_units
    from szwadron.models import Profile

    profiles = [e.profile for e in duel_profiles(load_lists(army_list_paths()))]
    docs = [p.model_dump(mode="json") for p in profiles]
    fresh = [DuelUnit.from_profile(Profile.model_validate(d)) for d in docs]
    kept = plain_units(docs)
    assert kept == fresh and all(x is y for x, y in zip(kept, fresh, strict=True))
    assert plain_units(docs) is kept
    other = docs[::-1]
    assert plain_units(other) == fresh[::-1]


def test_policy_casualty_chance_is_the_exact_tests_6_3() -> None:
    """The policy's kept chance that a casualty test repulses or panics a unit is the float of
    the exact chance (6.2, 6.3), for every M, strength and initial strength a unit can have."""
    from szwadron.armies.duel import _leaves_after_fire
    from szwadron.odds.morale import casualty_test

    for morale in range(0, 8):
        for initial in range(1, 25):
            for strength in range(1, initial + 1):
                test = casualty_test(morale, strength, initial)
                assert _leaves_after_fire(morale, strength, initial) == float(test.repulsed + test.panic)


def test_the_turns_alternate_across_the_formings_of_the_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """2.1.3 ("Po zakończeniu tury jednej ze stron walczących następuje tura drugiej strony"), 4.12.6
    — when the last duel of a forming is decided in the first mover's own turn (an odd number of
    turns played), the next forming starts with the other side, and its second mover counts as
    having stood idle; decided in the other side's turn (even), the first mover moves next again.
    Worked by hand: forming 1 has two duels, decided after 3 and 2 turns; the later, the 3rd
    turn, is A's, so forming 2 starts with B, A's unit having waited."""
    line = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
    calls: list[tuple[int, bool]] = []
    script = iter(
        [
            (1, [0, 12], 3),  # forming 1: a0 destroyed by b0, decided in turn 3 (A's)
            (0, [12, 0], 2),  # forming 1: a1 destroys b1 in turn 2
            (0, [12, 12], 2),  # forming 2: b0 panics
        ]
    )

    def fake_engine() -> Any:
        def play(
            pair: Any,
            initial: Any,
            strength: Any,
            elite: Any,
            rng: Any,
            d: float,
            first: int,
            mr: int,
            waited: bool,
        ) -> Any:
            calls.append((first, waited))
            won, s, turns = next(script)
            return won, 1, s, [0, 0], 20.0, "B panicked" if won == 0 else "A destroyed", turns

        return play

    monkeypatch.setattr(duel_module, "_engine", fake_engine)
    result = run_army_battle(
        [(line, 12)] * 3, [(line, 12)] * 2, seed="turns", conditions=BattleConditions(pairing="strongest")
    )
    assert calls == [(0, False), (0, False), (1, True)]
    assert result.winner == 0
