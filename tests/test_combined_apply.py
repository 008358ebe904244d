"""5.10 — the combined melee applied at the table (``melee --attacker A --attacker B --defender D
--apply``): the dice in the order they are rolled, each unit's removal and state, the game log.
The rolled procedure (:func:`szwadron.odds.joint.roll_combined`) is checked against the exact
odds by brute force over every face of every die; the known-answer scenario
(``tests/cases/melee_combined``) cites the Polish text and was worked by hand."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from every_face import every_face

from szwadron.cli import main
from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.game.apply import apply_combined_melee, position_from_text
from szwadron.geometry.battlefield import Battlefield
from szwadron.odds.joint import CombinedRoll, roll_combined
from szwadron.table.combined import CombinedMelee, combined_melee

CASE = Path(__file__).parent / "cases" / "melee_combined" / "5_10_two_attackers_one_defender.toml"


def _text() -> str:
    """The case without its [check]/[expected] tables (a plain position)."""
    text = CASE.read_text(encoding="utf-8")
    return text[: text.index("[check]")]


def _every_roll(m: CombinedMelee) -> tuple[dict[object, Fraction], dict[object, Fraction]]:
    """The exact distributions of the rolled losses and outcomes, every die's every face tried."""
    assert m.engine is not None
    engine = m.engine
    at = {u: k for k, u in enumerate(m.units)}
    opp = [frozenset(at[v] for v in m.opponents[u]) for u in m.units]
    both = every_face(lambda rng: roll_combined(engine, opp, rng, swap=m.declared_defence))
    losses: dict[object, Fraction] = {}
    outcomes: dict[object, Fraction] = {}
    for r, p in both.items():
        assert isinstance(r, CombinedRoll)
        losses[r.losses] = losses.get(r.losses, Fraction(0)) + p
        outcomes[r.outcomes] = outcomes.get(r.outcomes, Fraction(0)) + p
    return losses, outcomes


def test_5_10_the_rolled_melee_is_the_exact_one_brute_force() -> None:
    """Every face of every die: the rolled losses and outcomes have exactly the odds of the
    question (odds.joint), which the case file's hand-worked fractions pin."""
    m = combined_melee(position_from_text(_text(), "case").scenario, ["a", "b"], ["d"])
    losses, outcomes = _every_roll(m)
    assert losses == m.losses.probabilities()
    assert outcomes == m.outcomes.probabilities()
    assert sum(p for o, p in outcomes.items() if o[2].value == "engaged") == Fraction(1, 4)  # type: ignore[index]


def test_5_10_worked_case_both_stand() -> None:
    """Dice 1, 5 (a's die hits d/0, b's misses), 4, 2 (d/0 misses a, d/1 destroys b), 2 (d, one of
    two left, tests on 4 - 2 = 2 and passes): a and d stay engaged, b is gone."""
    pos = position_from_text(_text(), "case")
    applied = apply_combined_melee(pos, ["a", "b"], ["d"], dice=[1, 5, 4, 2, 2])
    assert applied.ruling["outcomes"] == {"a": "engaged", "b": "destroyed", "d": "engaged"}
    assert applied.ruling["removed"] == {"a": [], "b": ["b/0"], "d": ["d/0"]}
    assert [t["target"] for t in applied.dice["tests"]] == [2]
    nxt = position_from_text(applied.text, "next")
    assert nxt.scenario.unit("a").engaged_with == ("d",) and nxt.scenario.unit("d").engaged_with == ("a",)
    assert "b" not in {u.id for u in nxt.scenario.units} and nxt.scenario.unit("d").strength == 1
    assert nxt.scenario.unit("a").acted is not None and nxt.scenario.unit("a").acted.value == "melee"
    assert any("5.10" in n and "a/d" in n for n in applied.notes)


def test_5_10_worked_case_defender_destroyed() -> None:
    """1, 1: both attackers hit, d loses both figures; 6, 6: it misses both. d is destroyed, no
    test is rolled; a and b, without losses, hold (no pursuit test, 6.3)."""
    applied = apply_combined_melee(position_from_text(_text(), "case"), ["a", "b"], ["d"], dice=[1, 1, 6, 6])
    assert applied.ruling["outcomes"] == {"a": "held", "b": "held", "d": "destroyed"}
    assert applied.dice["tests"] == []


def test_5_10_dice_must_match() -> None:
    pos = position_from_text(_text(), "case")
    with pytest.raises(InvalidArgumentError) as err:
        apply_combined_melee(pos, ["a", "b"], ["d"], dice=[1, 5, 4])
    assert err.value.parameter == "dice"
    with pytest.raises(InvalidArgumentError):
        apply_combined_melee(pos, ["a", "b"], ["d"], dice=[1, 5, 4, 2, 2, 3])
    with pytest.raises(InvalidArgumentError):
        apply_combined_melee(pos, ["a", "b"], ["d"])


def test_5_10_a_unit_not_in_contact_is_refused() -> None:
    text = _text().replace("x = 11.0, y = 10.0, facing = 90.0", "x = 41.0, y = 10.0, facing = 90.0")
    with pytest.raises(IllegalActionError) as err:
        apply_combined_melee(position_from_text(text, "far"), ["a", "b"], ["d"], dice=[1])
    assert err.value.rule == "5.3"


def test_5_10_seeded_rolls_are_the_procedure() -> None:
    """--roll: the same seed, the same melee; the log records the seed."""
    pos = position_from_text(_text(), "case")
    one = apply_combined_melee(pos, ["a", "b"], ["d"], seed=2060)
    two = apply_combined_melee(pos, ["a", "b"], ["d"], seed=2060)
    assert one.text == two.text and one.dice["seed"] == 2060


def test_cli_combined_apply_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p0 = tmp_path / "p0.toml"
    p0.write_text(_text(), encoding="utf-8")
    log = str(tmp_path / "g.jsonl")
    argv = ["melee", str(p0), "--attacker", "a", "--attacker", "b", "--defender", "d"]  # repeated: extended
    assert main([*argv, "--apply", "-o", str(tmp_path / "p1.toml"), "--log", log, "--dice", "1,5,4,2,2"]) == 0
    out = capsys.readouterr().out
    assert "Rolled" in out and "d: repulse test: rolled 2 vs ≤2 — pass" in out
    assert "outcome: a engaged, b destroyed, d engaged" in out
    assert main(["replay", log, "-o", str(tmp_path / "r.toml")]) == 0
    assert (tmp_path / "r.toml").read_text(encoding="utf-8") == (tmp_path / "p1.toml").read_text(
        encoding="utf-8"
    )
    capsys.readouterr()
    # too few dice: one message, exit 2, nothing written
    assert main([*argv, "--apply", "-o", str(tmp_path / "p2.toml"), "--dice", "1,5"]) == 2
    err = capsys.readouterr().err
    assert "--dice" in err and "Traceback" not in err and not (tmp_path / "p2.toml").exists()
    # Polish
    assert (
        main(["--lang", "pl", *argv, "--apply", "-o", str(tmp_path / "p3.toml"), "--dice", "1,5,4,2,2"]) == 0
    )
    assert "„na odrzucenie”" in capsys.readouterr().out


def test_5_10_battlefield_answer_unchanged_by_the_engine_field() -> None:
    """The question's document is the same (the engine kept for the roll is not part of it)."""
    bf = Battlefield(position_from_text(_text(), "case").scenario)
    m = combined_melee(bf, ["a", "b"], ["d"])
    assert "engine" not in m.to_json()


APPLY_CASES = Path(__file__).parent / "cases" / "melee_combined_apply"


def test_case_files_cite_the_rule() -> None:
    for path in sorted(APPLY_CASES.glob("*.toml")):
        assert path.read_text(encoding="utf-8").startswith("# Rule"), f"{path.name}: cite the rule"


def test_5_10_5_step_two_before_step_three() -> None:
    """5.10.5 II before III: a2 (fighting d2, which did not flee) tests before a1, named first,
    tests for pursuit."""
    text = (APPLY_CASES / "5_10_5_order_of_tests.toml").read_text(encoding="utf-8")
    dice = [1, 5, 2, 2, 6, 2, 6, 1, 6, 5, 3, 2, 4, 5, 3, 3]
    for attackers in (["a1", "a2"],):
        applied = apply_combined_melee(position_from_text(text, "case"), attackers, ["d1", "d2"], dice=dice)
        tests = [(t["unit"], t["test"], t["face"]) for t in applied.dice["tests"]]
        assert tests == [
            ("d1", "repulse", 3),
            ("d1", "panic", 2),
            ("a2", "repulse", 4),
            ("a1", "uncontrolled pursuit", 5),
        ]
        assert applied.ruling["outcomes"] == {
            **{a: o for a, o in (("a1", "pursuit"), ("a2", "engaged"))},
            "d1": "repulsed",
            "d2": "engaged",
        }


def test_6_6_5_a_unit_already_panicking_does_not_flee_again_at_once() -> None:
    """6.6.5: d2, panicking before the melee, passes its strike-back test (2 vs 4), is not hurt and
    does not flee at once (no flight dice follow the melee's); it stays in panic."""
    text = (APPLY_CASES / "6_6_5_already_panicking.toml").read_text(encoding="utf-8")
    applied = apply_combined_melee(
        position_from_text(text, "case"), ["a1", "a2"], ["d1", "d2"], dice=[2, 6, 6, 6, 6, 6, 6]
    )
    assert applied.dice["strike_back"] == [{"unit": "d2", "face": 2, "target": 4, "passed": True}]
    assert "after" not in applied.dice and applied.ruling["outcomes"]["d2"] == "panic"
    nxt = position_from_text(applied.text, "next")
    assert [b.x for b in nxt.scenario.unit("d2").bases] == [11.0]
    assert any("6.6.5" in n for n in applied.notes)


def test_5_7_3_the_declaring_side_holding_the_terrain_is_not_engaged() -> None:
    """5.7.4: the side declaring defence counts as the defender, so 5.7.3 frees it, not d."""
    text = (APPLY_CASES / "5_7_4_declared_defence_holds.toml").read_text(encoding="utf-8")
    applied = apply_combined_melee(
        position_from_text(text, "case"),
        ["a1", "a2"],
        ["d"],
        continuing=True,
        declare_defence=True,
        dice=[1, 2, 2, 3, 3, 4, 5, 3],
    )
    assert applied.ruling["outcomes"] == {"a1": "destroyed", "a2": "engaged", "d": "engaged"}
    nxt = position_from_text(applied.text, "next")
    assert nxt.scenario.unit("a2").engaged_with == () and nxt.scenario.unit("d").engaged_with == ("a2",)
