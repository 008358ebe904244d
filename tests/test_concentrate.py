"""Issue 14 — concentrated fire and combined melee in the simulated battle (``concentrate``).

When a forming of the lines leaves one side with units over, they join the engagements instead of
waiting: several units fire at one target, each its own volley with the target's test after each
(4.2.2, 4.8.1), and their melee is one combined melee (5.10: the SW of all attackers against the
one unit summed per UW, each group rolling and removing separately, the defender striking back
once, morale in 5.10.5's order). Off by default and in the calibration.

Known answers: tests/cases/concentrate/combined_exchanges.toml (worked by hand from the Polish
text); brute force over every die face for a small exchange, with and without first strike; with
one unit a side the exchange is the single melee's (:func:`szwadron.odds.combat.melee`).
"""

from __future__ import annotations

import tomllib
from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from szwadron.armies import duel as duel_module
from szwadron.armies.battles import play, roster_force
from szwadron.armies.duel import (
    BattleConditions,
    DuelUnit,
    MeleeUnit,
    Weapon,
    combined_exchange,
    run_army_battle,
)
from szwadron.cli import main
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import Kind
from szwadron.odds.combat import MeleeSide, melee
from szwadron.odds.dice import Distribution
from szwadron.odds.joint import combined_outcomes
from szwadron.odds.morale import MeleeOutcome
from szwadron.settings import DEFAULT_SETTINGS

CASES = Path(__file__).parent / "cases" / "concentrate"
LINE = DuelUnit("line", Kind.INFANTRY, 12, 2, 1, 3, 4, (Weapon("musket", 24, 1, 3),))
HUSSARS = DuelUnit("hus", Kind.CAVALRY, 24, 2, 2, 4, 4, (), first_strike_charge=True)
GUN = DuelUnit("gun", Kind.FOOT_ARTILLERY, 10, 3, 1, 2, 4, (Weapon("roundshot", 48, 2, 3),))


def _unit(spec: dict[str, Any]) -> MeleeUnit:
    """A case's unit: (DuelUnit, figures in contact, strength, initial, no elite, 0, no first strike)."""
    u = DuelUnit("u", Kind.INFANTRY, 12, spec["W"], spec["SW"], spec["UW"], spec["M"], ())
    return (u, spec["fighters"], spec["strength"], spec["strength"], None, 0, spec.get("first_strike", False))


def _marginal(losses: Distribution[tuple[tuple[int, bool], ...]], k: int) -> list[Fraction]:
    probs: dict[int, Fraction] = {}
    for loss, p in losses.probabilities().items():
        probs[loss[k][0]] = probs.get(loss[k][0], Fraction(0)) + Fraction(p)
    return [probs.get(r, Fraction(0)) for r in range(max(probs) + 1)]


CASE_DATA = tomllib.loads((CASES / "combined_exchanges.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASE_DATA["case"], ids=[c["name"] for c in CASE_DATA["case"]])
def test_5_10_combined_exchange_known_answers(case: dict[str, Any]) -> None:
    """5.10.2, 5.10.3, 5.10.4: the removed figures of every unit, exact, as worked by hand."""
    losses, _, _ = combined_exchange(
        [_unit(a) for a in case["attackers"]], [_unit(d) for d in case["defenders"]], case["struck"]
    )
    for k, want in enumerate(case["removed"]):
        assert _marginal(losses, k) == [Fraction(x) for x in want], (case["name"], k)


@pytest.mark.parametrize("case", CASE_DATA["morale"], ids=[c["name"] for c in CASE_DATA["morale"]])
def test_5_10_5_morale_order_known_answer(case: dict[str, Any]) -> None:
    """5.10.5 I-III given the losses: the defender tests first; the attackers in contact with a
    defender that stood test for repulse or flight, those whose opponent fled for pursuit."""
    attackers = [_unit(a) for a in case["attackers"]]
    _, morale, opponents = combined_exchange(attackers, [_unit(d) for d in case["defenders"]], case["struck"])
    loss = tuple((r, hit) for r, hit in case["loss"])
    got = combined_outcomes(Distribution.point(loss), morale, opponents, len(attackers), swap=False)
    want = {tuple(MeleeOutcome(o) for o in outs): Fraction(p) for outs, p in case["outcomes"]}
    assert {k: Fraction(v) for k, v in got.probabilities().items()} == want


def _brute(
    attackers: list[tuple[int, int, int]], defender: tuple[int, int], first: str | None
) -> dict[tuple[int, int, int], Fraction]:
    """Every die face of one exchange, W 1 everywhere: attackers ``(fighters, SW, UW)`` all strike
    the defender ``(fighters, UW)`` (SW 1), which strikes back at the first attacker. ``first``:
    'attackers' or 'defender' strike first (7.7), the struck side's removed figures (the first in
    removal order) then strike no more. Returns P(removed of A1, A2, D)."""
    d_fig, d_uw = defender
    a_dice = [(uw, f * sw) for f, sw, uw in attackers]
    n_a = sum(n for _, n in a_dice)
    out: Counter[tuple[int, int, int]] = Counter()
    faces = range(1, 7)
    for rolls in product(faces, repeat=n_a + d_fig):
        it = iter(rolls[:n_a])
        hits_a = sum(1 for uw, n in a_dice for _ in range(n) if next(it) <= uw)
        d_rolls = rolls[n_a:]
        if first == "attackers":
            d_removed = min(hits_a, d_fig)
            hits_d = sum(1 for r in d_rolls[d_removed:] if r <= d_uw)  # the removed strike no more
            a1_removed = min(hits_d, attackers[0][0])
        elif first == "defender":
            hits_d = sum(1 for r in d_rolls if r <= d_uw)
            a1_removed = min(hits_d, attackers[0][0])
            it = iter(rolls[:n_a])
            hits_a = 0
            for k, (f, sw, uw) in enumerate(attackers):
                for fig in range(f):
                    for _ in range(sw):
                        roll = next(it)
                        if (k > 0 or fig >= a1_removed) and roll <= uw:
                            hits_a += 1
            d_removed = min(hits_a, d_fig)
        else:
            hits_d = sum(1 for r in d_rolls if r <= d_uw)
            d_removed, a1_removed = min(hits_a, d_fig), min(hits_d, attackers[0][0])
        out[(a1_removed, 0, d_removed)] += 1
    total = sum(out.values())
    return {k: Fraction(v, total) for k, v in out.items()}


@pytest.mark.parametrize("first", [None, "attackers", "defender"])
def test_combined_exchange_matches_brute_force(first: str | None) -> None:
    """Exact against every die face (6^6 rolls): A1 2 figures SW 1 UW 3, A2 1 figure SW 2 UW 4 on
    D (2 figures, SW 1 UW 4), which strikes back at A1; first strike (7.7) for a side when each
    of its units has it and no enemy unit does."""
    a_fs, d_fs = first == "attackers", first == "defender"
    att = [
        (*_unit({"SW": 1, "UW": 3, "W": 1, "M": 4, "strength": 3, "fighters": 2})[:6], a_fs),
        (*_unit({"SW": 2, "UW": 4, "W": 1, "M": 4, "strength": 3, "fighters": 1})[:6], a_fs),
    ]
    dfn = [(*_unit({"SW": 1, "UW": 4, "W": 1, "M": 4, "strength": 3, "fighters": 2})[:6], d_fs)]
    losses, _, _ = combined_exchange(att, dfn, [2, 2, 0])  # type: ignore[arg-type]
    got: dict[tuple[int, int, int], Fraction] = {}
    for loss, p in losses.probabilities().items():
        key = (loss[0][0], loss[1][0], loss[2][0])
        got[key] = got.get(key, Fraction(0)) + Fraction(p)
    assert got == _brute([(2, 1, 3), (1, 2, 4)], (2, 4), first)


def test_one_unit_a_side_is_the_single_melee() -> None:
    """With one attacker the combined exchange is the single melee of 5.3-5.5 (the joint removed
    figures and the morale outcomes), with first strike on the charge too (7.7)."""
    for fs in (False, True):
        a = (HUSSARS, 4, 6, 6, None, 0, fs)
        d = (LINE, 6, 12, 12, None, 0, False)
        losses, morale, opponents = combined_exchange([a], [d], [1, 0])
        single = melee(
            MeleeSide.uniform(4, melee=2, skill=4, wounds=2, morale=4, strength=6, initial=6),
            MeleeSide.uniform(6, melee=1, skill=3, wounds=2, morale=4, strength=12, initial=12),
            first_strike="attacker" if fs else None,
            die=DEFAULT_SETTINGS.remainder_die,
        )
        joint = losses.map(lambda ls: (ls[0][0], ls[1][0])).probabilities()
        assert joint == single.joint.probabilities()
        outs = combined_outcomes(losses, morale, opponents, 1, swap=False)
        assert {k: Fraction(v) for k, v in outs.probabilities().items()} == {
            k: Fraction(v) for k, v in single.outcomes.probabilities().items()
        }


# --- the battle ----------------------------------------------------------------------------------
class _Recorder:
    """Records every engagement of several units the battle plays (its units when it starts)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[tuple[str, int], list[tuple[str, int]]]] = []
        real = duel_module._Engagement
        recorder = self

        class Spy(real):  # type: ignore[misc, valid-type]
            def __init__(self, one: list[Any], many: list[list[Any]], *args: Any) -> None:
                recorder.seen.append(((one[0].key, one[2]), [(m[0].key, m[2]) for m in many]))
                super().__init__(one, many, *args)

        monkeypatch.setattr(duel_module, "_Engagement", Spy)


def test_a_unit_over_joins_an_engagement(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two lines against one: with concentrate the second line joins the first's engagement of the
    enemy line (one against two) instead of waiting; without it, nothing of the kind is played."""
    rec = _Recorder(monkeypatch)
    a, b = [(LINE, 12), (LINE, 10)], [(HUSSARS, 6)]
    run_army_battle(a, b, seed="join", conditions=BattleConditions(pairing="strongest"))
    assert rec.seen == []
    run_army_battle(a, b, seed="join", conditions=BattleConditions(pairing="strongest", concentrate=True))
    assert rec.seen[0] == (("hus", 6), [("line", 12), ("line", 10)])


def test_under_a_target_policy_the_unit_over_joins_by_the_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """4.2.1, 5.2.1: under 'weakest' the unit over joins the engagement of the enemy unit with the
    fewest figures left (the side moving first paired its first two units already)."""
    rec = _Recorder(monkeypatch)
    a = [(LINE, 12), (LINE, 12), (LINE, 8)]
    b = [(LINE, 12), (LINE, 5)]
    for k in range(8):
        rec.seen.clear()
        run_army_battle(
            a, b, seed=f"w{k}", first=0, conditions=BattleConditions(pairing="weakest", concentrate=True)
        )
        assert rec.seen[0][0] == ("line", 5) and len(rec.seen[0][1]) == 2


def test_the_dice_choose_where_a_unit_over_joins(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under 'random' the dice choose: over many seeds the unit over joins either engagement."""
    rec = _Recorder(monkeypatch)
    a = [(LINE, 12), (LINE, 12), (LINE, 8)]
    b = [(LINE, 12), (HUSSARS, 6)]
    for k in range(30):
        run_army_battle(a, b, seed=f"r{k}", conditions=BattleConditions(concentrate=True))
    first_ones = Counter(one for one, _ in rec.seen)
    assert first_ones[("line", 12)] > 0 and first_ones[("hus", 6)] > 0


def test_equal_lines_play_as_without(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no unit over, concentrate changes nothing: the same duels from the same dice."""
    for k in range(20):
        a, b = [(LINE, 12)], [(HUSSARS, 6)]
        assert run_army_battle(
            a, b, seed=k, conditions=BattleConditions(concentrate=True)
        ) == run_army_battle(a, b, seed=k)


def test_concentrate_is_seeded_and_helps_the_bigger_side() -> None:
    """The same seed, the same battle (with flight and a target policy too); two lines against one
    win more when they fight it together than one after the other."""
    a, b = [(LINE, 12), (LINE, 12), (GUN, 1)], [(LINE, 12), (HUSSARS, 6)]
    for c in (
        BattleConditions(concentrate=True),
        BattleConditions(concentrate=True, flight=True, pairing="dangerous", cover=0.5),
    ):
        runs = [run_army_battle(a, b, seed=k, first=k % 2, conditions=c) for k in range(30)]
        assert runs == [run_army_battle(a, b, seed=k, first=k % 2, conditions=c) for k in range(30)]
    pair = [(LINE, 12), (LINE, 12)], [(LINE, 12)]
    on = sum(
        run_army_battle(*pair, seed=k, conditions=BattleConditions(concentrate=True)).score_a
        for k in range(200)
    )
    off = sum(run_army_battle(*pair, seed=k).score_a for k in range(200))
    assert on > off


def test_serial_and_process_pool_agree() -> None:
    """The results do not depend on the executor (one process, a pool of two)."""
    army = load_army_list(bundled_dir("armylists") / "france.toml")
    other = load_army_list(bundled_dir("armylists") / "austria.toml")
    forces = [roster_force(army, army.rosters[0]), roster_force(other, other.rosters[0])]
    specs = [(0, 1, k % 2, f"conc:{k}") for k in range(8)]
    c = BattleConditions(concentrate=True)
    one = play(forces, specs, workers=1, conditions=c)
    assert play(forces, specs, workers=2, conditions=c) == one
    assert one != play(forces, specs, workers=1)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"concentrate": "yes"}, "concentrate must be true or false"),
        ({"concentrate": True, "sampler": "dice"}, "played with the exact sampler only"),
    ],
)
def test_bad_conditions(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidDataError, match=message):
        BattleConditions(**kw)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own usage errors exit 2 with its message
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("points", "validate", "--concentrate=yes"), "--concentrate: ignored explicit argument 'yes'"),
        (("points", "calibrate", "--concentrate"), "--concentrate does not apply to 'points calibrate'"),
        (("points", "france", "--concentrate"), "--concentrate does not apply to 'points ARMYLIST'"),
    ],
)
def test_concentrate_flag_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    """A value given to the flag, or the flag on another form: one message, exit 2."""
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


# --- the engagement's turns, scripted ------------------------------------------------------------
SHOOTER = DuelUnit("shooter", Kind.INFANTRY, 12, 1, 0, 1, 4, (Weapon("musket", 24, 1, 6),))
TARGET = DuelUnit("target", Kind.INFANTRY, 12, 1, 0, 1, 6, ())


class _Dice:
    """A stand-in for the battle's ``random.Random`` that plays back fixed numbers and counts them."""

    def __init__(self, values: list[float]) -> None:
        self.values, self.used = list(values), 0

    def random(self) -> float:
        self.used += 1
        return self.values.pop(0)

    def randint(self, a: int, b: int) -> int:  # pragma: no cover - no pursuit in these scripts
        raise AssertionError("no pursuit expected")


def _engagement(many: list[list[Any]], one: list[Any], dice: _Dice, distance: float) -> Any:
    return duel_module._Engagement(one, many, dice, distance)  # type: ignore[arg-type]


def test_4_2_2_4_8_1_each_volley_its_own_and_a_test_after_each() -> None:
    """Two shooters (C 6 at 10 cm: every die scores) fire in turn at one unit (W 1): each its own
    volley of 12 dice (4.2.2), and the target tests after each volley that damaged it (4.8.1,
    6.3): volley, test, volley, test. A target destroyed by the second volley takes no test
    (PD-18): volley, test, volley."""
    for figures, numbers, left in ((36, 4, 12), (24, 3, 0)):
        many = [[SHOOTER, 12, 12, None, 0, ()], [SHOOTER, 12, 12, None, 0, ()]]
        one = [TARGET, figures, figures, None, 0, ()]
        dice = _Dice([0.5, 0.0, 0.5, 0.0])  # a volley: its only outcome; a test: passed (6.3)
        _engagement(many, one, dice, 10.0).turn_many()
        assert (dice.used, one[2]) == (numbers, left)


def test_4_3_4_a_unit_in_melee_is_not_fired_at() -> None:
    """With the one unit in melee with the first of the many, the second — a shooter that cannot
    charge (no melee dice) — does not fire at it (4.3.4): no volley is drawn, only the melee's
    two numbers (losses, outcomes)."""
    fighter = DuelUnit("fighter", Kind.INFANTRY, 12, 1, 1, 3, 4, ())
    many = [[fighter, 6, 6, None, 0, ()], [SHOOTER, 12, 12, None, 0, ()]]
    one = [TARGET, 12, 12, None, 0, ()]
    eng = _engagement(many, one, _Dice([0.0, 0.0]), 10.0)
    eng.d[0], eng.engaged[0] = 0.0, True
    fired: list[int] = []
    real = eng.fire
    eng.fire = lambda i, *a: (fired.append(i), real(i, *a))  # type: ignore[method-assign]
    eng.turn_many()
    assert fired == [] and eng.rng.used == 2
