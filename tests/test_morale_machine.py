"""The morale state machine (szwadron.odds.machine), by rule: 6.1–6.8, 5.5, 5.8, 7.6, PD-18.

Every transition of :data:`MACHINE` must be produced by the engine and nothing else; every
refusal must raise with its rule; the 5.5 melee sequence goes through :func:`melee_step` and is
checked against hand-computed answers and against an enumeration of every roll of the
*rolled* sequence (:func:`szwadron.odds.morale.roll_melee_sequence`, a separate implementation).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.models import Kind
from szwadron.odds.dice import Distribution
from szwadron.odds.machine import (
    MACHINE,
    Event,
    EventKind,
    MachineState,
    MoraleUnit,
    Result,
    chance,
    melee_step,
    step,
)
from szwadron.odds.morale import MeleeOutcome, casualty_test, roll_melee_sequence

N, P, U, R, X = (
    MachineState.NORMAL,
    MachineState.PANIC,
    MachineState.PURSUIT,
    MachineState.REPULSED,
    MachineState.REMOVED,
)
E = EventKind


def _unit(state: MachineState = N, morale: int = 3, strength: int = 4, **kw: object) -> MoraleUnit:
    return MoraleUnit(state=state, morale=morale, strength=strength, **kw)  # type: ignore[arg-type]


def _branches(out: Distribution[Result]) -> dict[str, Fraction]:
    return {r.branch: out.probability(r) for r in out.outcomes()}


# ------------------------------------------------------------------- the machine as data


def test_every_state_event_pair_is_either_allowed_or_refused() -> None:
    for state in MACHINE.states:
        for event in MACHINE.events:
            allowed = event in MACHINE.events_in(state)
            refused = MACHINE.refusal(state, event) is not None
            assert allowed != refused, (state, event)


def test_transitions_are_unique_and_cite_rules() -> None:
    keys = [(t.source, t.event, t.branch) for t in MACHINE.transitions]
    assert len(keys) == len(set(keys))
    for t in MACHINE.transitions:
        assert t.rule and (t.rule[0].isdigit() or t.rule.startswith("PD-")), t
        assert t.note


def test_6_1_removed_is_terminal_and_repulsed_only_retreats() -> None:
    assert MACHINE.from_state(X) == ()
    assert MACHINE.events_in(R) == frozenset({E.RETREAT})
    # every state but the terminal one can be left or reached
    targets = {t.target for t in MACHINE.transitions}
    assert targets == set(MachineState)


def _produced() -> dict[tuple[MachineState, EventKind, str], set[Result]]:
    """Run the engine over inputs that cover every branch; collect what it produced."""
    seen: dict[tuple[MachineState, EventKind, str], set[Result]] = {}

    def record(source: MachineState, event: EventKind, out: Distribution[Result]) -> None:
        for r in out.outcomes():
            seen.setdefault((source, event, r.branch), set()).add(r)

    for state in (N, U, P):
        unit = _unit(state)
        record(state, E.FIRE_CASUALTIES, step(unit, Event.fire(removed=1)))
        record(state, E.FIRE_CASUALTIES, step(unit, Event.fire(removed=4)))
        record(state, E.CHARGED, step(unit, E.CHARGED))
        record(state, E.PASSED_THROUGH, step(unit, E.PASSED_THROUGH))
        record(state, E.OPPONENT_LEFT, step(unit, E.OPPONENT_LEFT))
    record(N, E.OPPONENT_LEFT, step(_unit(kind=Kind.HORSE_ARTILLERY), E.OPPONENT_LEFT))
    record(N, E.DISENGAGE, step(_unit(), E.DISENGAGE))
    record(N, E.DISENGAGE, step(_unit(auto_disengage=True), E.DISENGAGE))
    for state in (P, U):
        record(state, E.REORGANISE, step(_unit(state), Event.reorganise()))
    for state in (N, U):
        record(state, E.REPULSE, step(_unit(state), E.REPULSE))
    record(R, E.RETREAT, step(_unit(R), Event.retreat()))
    record(R, E.RETREAT, step(_unit(R), Event.retreat(blocked=True)))
    record(P, E.TABLE_EDGE, step(_unit(P), E.TABLE_EDGE))
    record(P, E.SURRENDER, step(_unit(P), Event.surrender()))
    record(U, E.PURSUED_DESTROYED, step(_unit(U), E.PURSUED_DESTROYED))
    record(N, E.ORDER, step(_unit(), Event.order("fire")))
    # 5.5 through melee_step: attacker normal or pursuing, defender of every state
    for a_state, d_state in itertools.product((N, U), (N, U, P)):
        for a_rem, d_rem, a_hit, d_hit in itertools.product(
            (0, 1, 4), (0, 1, 4), (False, True), (False, True)
        ):
            if (a_rem and not a_hit) or (d_rem and not d_hit):
                continue
            out = melee_step(
                _unit(a_state),
                _unit(d_state),
                attacker_removed=a_rem,
                defender_removed=d_rem,
                attacker_hit=a_hit,
                defender_hit=d_hit,
            )
            for ra, rd in out.outcomes():
                seen.setdefault((a_state, E.MELEE_CASUALTIES, ra.branch), set()).add(ra)
                seen.setdefault((d_state, E.MELEE_CASUALTIES, rd.branch), set()).add(rd)
    return seen


def test_every_transition_is_produced_by_the_engine_and_nothing_else() -> None:
    seen = _produced()
    listed = {(t.source, t.event, t.branch): t for t in MACHINE.transitions}
    assert set(seen) == set(listed)
    for key, results in seen.items():
        t = listed[key]
        assert results == {Result(t.target, t.branch, t.rule)}, key


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize("refusal", MACHINE.refusals, ids=lambda r: f"{r.state}-{r.event}")
def test_every_refusal_raises_with_its_rule(refusal: object) -> None:
    from szwadron.odds.machine import Refusal

    assert isinstance(refusal, Refusal)
    unit = _unit(refusal.state)
    with pytest.raises(IllegalActionError) as info:
        if refusal.event is E.MELEE_CASUALTIES:
            melee_step(_unit(), unit, defender_hit=True)
        else:
            step(unit, Event(refusal.event, action="fire"))
    assert info.value.rule == refusal.rule


def test_6_1_3_panicking_unit_cannot_be_ordered_to_fire() -> None:
    with pytest.raises(IllegalActionError, match="cannot be ordered to fire") as info:
        step(_unit(P), Event.order("fire"))
    assert info.value.rule == "6.1.3"


def test_6_1_4_pursuing_unit_cannot_be_ordered_to_move() -> None:
    with pytest.raises(IllegalActionError, match="ordered to move") as info:
        step(_unit(U), Event.order("move"))
    assert info.value.rule == "6.1.4"


def test_6_1_3_panicking_unit_cannot_attack() -> None:
    with pytest.raises(IllegalActionError) as info:
        melee_step(_unit(P), _unit(), defender_hit=True)
    assert info.value.rule == "6.1.3"


def test_6_8_2_6_8_3_reorganisation_guards() -> None:
    with pytest.raises(IllegalActionError) as info:
        step(_unit(P), Event.reorganise(enemy_within=True))
    assert info.value.rule == "6.8.2"
    with pytest.raises(IllegalActionError) as info:
        step(_unit(U), Event.reorganise(engaged=True))
    assert info.value.rule == "6.8.3"
    # the other guard does not concern the other state
    assert chance(step(_unit(P), Event.reorganise(engaged=True)), N) == Fraction(1, 2)
    assert chance(step(_unit(U), Event.reorganise(enemy_within=True)), N) == Fraction(1, 2)


@pytest.mark.parametrize(("blocked", "enemy_within"), [(False, True), (True, False), (False, False)])
def test_6_6_12_surrender_needs_a_blocked_flight_and_an_enemy_near(blocked: bool, enemy_within: bool) -> None:
    with pytest.raises(IllegalActionError) as info:
        step(_unit(P), Event.surrender(blocked=blocked, enemy_within=enemy_within))
    assert info.value.rule == "6.6.12"


def test_melee_casualties_need_both_units() -> None:
    with pytest.raises(InvalidDataError, match="melee_step"):
        step(_unit(), E.MELEE_CASUALTIES)


def test_more_figures_removed_than_the_unit_has() -> None:
    with pytest.raises(InvalidDataError):
        step(_unit(strength=2), Event.fire(removed=3))
    with pytest.raises(InvalidDataError):
        melee_step(_unit(strength=2), _unit(), attacker_removed=3)
    with pytest.raises(InvalidDataError, match="took damage"):
        melee_step(_unit(), _unit(), defender_removed=1, defender_hit=False)


# -------------------------------------------------------------------------- fire, 6.3


@pytest.mark.parametrize(
    ("strength", "initial", "removed", "morale"), [(12, 12, 0, 4), (12, 12, 4, 4), (4, 4, 1, 6), (4, 8, 1, 2)]
)
def test_6_3_fire_branches_are_the_casualty_test(
    strength: int, initial: int, removed: int, morale: int
) -> None:
    unit = MoraleUnit(morale=morale, strength=strength, initial=initial)
    test = casualty_test(morale, strength - removed, initial)
    want = {"passed": test.passed, "repulsed": test.repulsed, "panic": test.panic}
    assert _branches(step(unit, Event.fire(removed=removed))) == {k: v for k, v in want.items() if v}


def test_6_3_known_answer_m4_one_of_twelve_lost() -> None:
    out = step(MoraleUnit(morale=4, strength=12, initial=12), Event.fire(removed=1))
    assert chance(out, N) == Fraction(2, 3)
    assert chance(out, R) == Fraction(2, 9)
    assert chance(out, P) == Fraction(1, 9)


def test_6_7_8_6_7_9_pursuing_unit_under_fire() -> None:
    out = step(_unit(U, morale=3), Event.fire())
    assert chance(out, U) == Fraction(1, 2)  # passes: keeps pursuing
    assert chance(out, R) == Fraction(1, 4)  # repulsed while pursuing (ends normal)
    assert chance(out, P) == Fraction(1, 4)
    assert {r.rule for r in out.outcomes() if r.state is R} == {"6.7.9"}


def test_6_6_14_panicking_unit_takes_no_test_pd_18_destroyed() -> None:
    assert _branches(step(_unit(P), Event.fire(removed=3))) == {"no_test": 1}
    assert _branches(step(_unit(P), Event.fire(removed=4))) == {"destroyed": 1}
    assert chance(step(_unit(N), Event.fire(removed=4)), X) == 1


# ------------------------------------------------------------- disengage, pursuit tests


def test_5_8_disengage_and_7_6_automatic() -> None:
    assert _branches(step(_unit(morale=2), E.DISENGAGE)) == {
        "passed": Fraction(1, 3),
        "failed": Fraction(2, 3),
    }
    assert chance(step(_unit(morale=2), E.DISENGAGE), P) == Fraction(2, 3)  # 5.8.3, 6.4.2
    assert _branches(step(_unit(morale=0, auto_disengage=True), E.DISENGAGE)) == {"automatic": 1}


def test_5_8_4_the_enemy_tests_for_pursuit_but_artillery_never_pursues() -> None:
    assert chance(step(_unit(morale=5), E.OPPONENT_LEFT), U) == Fraction(1, 6)
    for kind in (Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY):
        assert chance(step(_unit(morale=0, kind=kind), E.OPPONENT_LEFT), N) == 1


def test_6_4_3_passed_through_unit_tests_and_may_panic() -> None:
    out = step(MoraleUnit(morale=4, strength=3, initial=12), E.PASSED_THROUGH)  # M 4 − 4 = 0
    assert chance(out, P) == 1
    assert chance(step(_unit(P), E.PASSED_THROUGH), P) == 1


def test_6_8_4_reorganisation_uses_the_casualty_modifier() -> None:
    out = step(MoraleUnit(state=P, morale=4, strength=6, initial=12), Event.reorganise())
    assert chance(out, N) == Fraction(1, 3)
    out = step(MoraleUnit(state=U, morale=4, strength=12, modifier=1), Event.reorganise())
    assert chance(out, N) == Fraction(5, 6)


def test_6_5_retreat_ends_normal_or_in_panic_when_blocked() -> None:
    assert step(_unit(R), Event.retreat()).outcomes() == [Result(N, "retreated", "6.5.3")]
    assert step(_unit(R), Event.retreat(blocked=True)).outcomes() == [Result(P, "cannot_move", "6.5.5")]


def test_6_6_4_charged_while_panicking_tests_to_strike_back() -> None:
    out = step(MoraleUnit(state=P, morale=4, strength=2, initial=8), E.CHARGED)  # M 4 − 4
    assert _branches(out) == {"no_losses": 1}


# ---------------------------------------------------------------------- melee, 5.5


def _pair(out: Distribution[tuple[Result, Result]]) -> dict[tuple[str, str], Fraction]:
    acc: dict[tuple[str, str], Fraction] = {}
    for a, d in out.outcomes():
        key = (f"{a.state}/{a.branch}", f"{d.state}/{d.branch}")
        acc[key] = acc.get(key, Fraction(0)) + out.probability((a, d))
    return acc


def test_5_5_1_no_losses_both_stay_engaged() -> None:
    out = melee_step(_unit(morale=0), _unit(morale=0))
    assert _pair(out) == {("normal/engaged", "normal/engaged"): 1}


def test_5_5_1_only_the_defender_lost_the_attacker_passes_automatically() -> None:
    out = melee_step(_unit(morale=0), _unit(morale=3), defender_hit=True)
    assert _pair(out) == {
        ("normal/engaged", "normal/engaged"): Fraction(1, 2),
        ("normal/held", "repulsed/repulsed"): Fraction(1, 4),  # no pursuit test without losses
        ("normal/held", "panic/panic"): Fraction(1, 4),
    }


def test_5_5_3_defender_broken_attacker_tests_for_pursuit() -> None:
    out = melee_step(_unit(morale=3), _unit(morale=0), attacker_hit=True, defender_hit=True)
    assert _pair(out) == {
        ("normal/held", "panic/panic"): Fraction(1, 2),
        ("pursuit/pursuit", "panic/panic"): Fraction(1, 2),
    }


def test_5_5_4_5_5_5_defender_holds_attacker_tests_then_defender_pursuit_test() -> None:
    out = melee_step(_unit(morale=3), _unit(morale=6), attacker_hit=True, defender_hit=True)
    # defender passes (6); attacker: pass 1/2, repulsed 1/4, panic 1/4; defender pursuit: passes
    assert _pair(out) == {
        ("normal/engaged", "normal/engaged"): Fraction(1, 2),
        ("repulsed/repulsed", "normal/held"): Fraction(1, 4),
        ("panic/panic", "normal/held"): Fraction(1, 4),
    }
    out = melee_step(_unit(morale=0), _unit(morale=6), attacker_hit=True, defender_hit=False)
    # attacker fails both; the defender had no losses: no pursuit test (6.3.6, 5.5.1)
    assert _pair(out) == {("panic/panic", "normal/held"): 1}


def test_pd_18_destroyed_units_take_no_test() -> None:
    out = melee_step(_unit(morale=3), _unit(morale=3), attacker_hit=True, defender_removed=4)
    # defender destroyed: the attacker takes 6.3.1's test, no pursuit test (PD-18)
    assert _pair(out) == {
        ("normal/held", "removed/destroyed"): Fraction(1, 2),
        ("repulsed/repulsed", "removed/destroyed"): Fraction(1, 4),
        ("panic/panic", "removed/destroyed"): Fraction(1, 4),
    }
    both = melee_step(_unit(), _unit(), attacker_removed=4, defender_removed=4)
    assert _pair(both) == {("removed/destroyed", "removed/destroyed"): 1}


def test_6_6_14_panicking_defender_takes_no_test() -> None:
    out = melee_step(_unit(morale=3), _unit(P, morale=6), attacker_hit=True, defender_hit=True)
    assert _pair(out) == {
        ("normal/held", "panic/panic"): Fraction(1, 2),
        ("pursuit/pursuit", "panic/panic"): Fraction(1, 2),
    }


def test_6_7_pursuing_attacker_keeps_pursuing_and_is_normal_after_a_repulse() -> None:
    out = melee_step(_unit(U, morale=3), _unit(morale=6), attacker_hit=True, defender_hit=True)
    pairs = _pair(out)
    assert pairs[("pursuit/engaged", "normal/engaged")] == Fraction(1, 2)
    assert pairs[("repulsed/repulsed", "normal/held")] == Fraction(1, 4)


def test_6_7_1_artillery_never_pursues_in_melee() -> None:
    out = melee_step(
        _unit(morale=0, kind=Kind.HORSE_ARTILLERY), _unit(morale=0), attacker_hit=True, defender_hit=True
    )
    assert all(a.state is N for a, _ in out.outcomes())


class _Faces:
    """A stand-in for random.Random that returns the faces given, in order."""

    def __init__(self, faces: tuple[int, ...]) -> None:
        self.faces = list(faces)
        self.used = 0

    def randint(self, lo: int, hi: int) -> int:
        self.used += 1
        return self.faces.pop(0)


_OUTCOME_BRANCH = {o: o.value for o in MeleeOutcome}


@pytest.mark.parametrize(("a_target", "d_target"), [(0, 6), (3, 3), (2, 5), (6, 1)])
@pytest.mark.parametrize(("a_hit", "d_hit"), [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("d_state", [N, P])
def test_5_5_melee_step_matches_every_roll_of_the_rolled_sequence(
    a_target: int, d_target: int, a_hit: bool, d_hit: bool, d_state: MachineState
) -> None:
    """Brute force: every sequence of four d6 faces through roll_melee_sequence, each with
    weight 1/6 per die actually used, mapped through the machine, equals melee_step."""
    attacker = MoraleUnit(morale=a_target, strength=6)
    defender = MoraleUnit(state=d_state, morale=d_target, strength=6)
    acc: dict[tuple[MachineState, str], Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=4):
        rng = _Faces(faces)
        (a_out, d_out), _ = roll_melee_sequence(
            a_target,
            d_target,
            rng,
            attacker_hit=a_hit,
            defender_hit=d_hit,  # type: ignore[arg-type]
            defender_panicking=d_state is P,
        )
        key = (
            MACHINE.target(N, E.MELEE_CASUALTIES, _OUTCOME_BRANCH[a_out]),
            _OUTCOME_BRANCH[a_out] + "|" + _OUTCOME_BRANCH[d_out],
        )
        acc[key] = acc.get(key, Fraction(0)) + Fraction(1, 6**4)
    out = melee_step(attacker, defender, attacker_hit=a_hit, defender_hit=d_hit)
    got: dict[tuple[MachineState, str], Fraction] = {}
    for a, dd in out.outcomes():
        key = (a.state, a.branch + "|" + dd.branch)
        got[key] = got.get(key, Fraction(0)) + out.probability((a, dd))
    assert got == acc
