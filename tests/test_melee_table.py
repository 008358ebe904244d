"""Melee at the table (szwadron.table.melee): 5.3, 5.4, 5.6, 5.7, PD-14, PD-15; known-answer
files in tests/cases/melee/ (scenario + ``[check]`` + ``[expected]``)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.loading import bundled_scenario, load_scenario, parse_scenario
from szwadron.odds.combat import MeleeSide, melee
from szwadron.odds.morale import MeleeOutcome, melee_outcomes
from szwadron.table.melee import table_melee

CASES = Path(__file__).parent / "cases" / "melee"


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path) -> None:
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    check = data.pop("check")
    sc = parse_scenario(data, source=str(case), folders=[])
    m = table_melee(sc, check["attacker"], check["defender"])
    doc = m.to_json()
    figures = {f["base"]: f for f in doc["figures"]}
    for key, want in expected.items():
        if key == "groups":
            cols = len(want[0]) if want else 4  # a fifth column, where given: the fight (5.7.2)
            got: Any = [
                [g["side"], g["uw"], g["target_bonus"], g["dice"], g["fight"]][:cols] for g in doc["groups"]
            ]
        elif key == "contact":
            got = {b: round(figures[b]["contact_cm"], 6) for b in want}
        elif key == "w_bonus":
            got = {b: figures[b]["w_bonus"] for b in want}
        else:
            got = doc[key]
        assert got == want, f"{case.name}: [expected].{key}"


def test_5_3_odds_match_the_engine_for_the_example() -> None:
    """The bundled example's cavalry melee: 4 cuirassiers (SW 2, UW 4, W 4, M 5) against 4
    chevaulegers, all in full contact: the same numbers as ``odds melee`` with those figures."""
    sc = load_scenario(bundled_scenario())
    m = table_melee(sc, "fr-cuirassiers", "au-chevaulegers")
    a, d = sc.unit("fr-cuirassiers").profile, sc.unit("au-chevaulegers").profile
    ref = melee(
        MeleeSide.uniform(4, melee=a.melee, skill=a.melee_skill, wounds=a.wounds, morale=a.morale),
        MeleeSide.uniform(4, melee=d.melee, skill=d.melee_skill, wounds=d.wounds, morale=d.morale),
        die=sc.settings.remainder_die,
    )
    doc = m.to_json()
    assert doc["joint_pmf"] == ref.joint_pmf()
    assert doc["outcomes"] == ref.outcome_list()
    assert len(doc["attacker_removed_pmf"]) == 5  # only the 4 that fought can go (5.4.2)


def test_5_4_2_only_figures_that_fought_can_be_removed(tables: SimpleNamespace) -> None:
    """A line of 6 touches one enemy with 1 base: at most 1 attacker can be removed."""
    sc = tables.scenario(
        tables.unit("a", "A", tables.line(10, 10, 6)),
        tables.unit("b", "B", [{"x": 10.0, "y": 12.0, "facing": 270.0}]),
    )
    m = table_melee(sc, "a", "b")
    assert m.attacker_in_contact == ("a/0",)
    assert len(m.to_json()["attacker_removed_pmf"]) == 2


def test_5_4_3_removal_order_most_touched_first_and_apart(tables: SimpleNamespace) -> None:
    """Defender d/0 touches two attackers (half a base each), d/1 (beside d/0) and d/2 (apart)
    touch one each. d/0 is removed first; then d/2, which does not stand next to d/0; then d/1."""
    attackers = [{"x": x, "y": 10.0, "facing": 90.0} for x in (10.0, 12.0, 16.0, 18.0)]
    defenders = [
        {"x": 11.0, "y": 12.0, "facing": 270.0},
        {"x": 13.0, "y": 12.0, "facing": 270.0},
        {"x": 16.0, "y": 12.0, "facing": 270.0},
    ]
    sc = tables.scenario(tables.unit("a", "A", attackers), tables.unit("d", "B", defenders))
    m = table_melee(sc, "a", "d")
    assert m.removal_order["defender"] == ("d/0", "d/2", "d/1")


def test_5_6_push_up(tables: SimpleNamespace) -> None:
    """Two pairs in contact and one idle attacker. Defender loses 2, attacker 0: both defenders
    gone, the attacker pushes 2 figures first, then moves the rest (its idle figure)."""
    sc = tables.scenario(
        tables.unit("a", "A", tables.line(10, 10, 3)),
        tables.unit("d", "B", tables.line(12, 12, 2, facing=270)),
    )
    m = table_melee(sc, "a", "d")
    steps = m.push_up(0, 2)
    assert [(s.side, s.count) for s in steps] == [("attacker", 2), ("attacker", 1)]
    assert all(s.max_cm == 4.0 for s in steps)
    # nobody removed: the fighting figures stay engaged; only the idle a/2 may push up
    assert [(s.side, s.count, s.candidates) for s in m.push_up(0, 0)] == [("attacker", 1, ("a/2",))]


def test_no_contact_and_bad_units(tables: SimpleNamespace) -> None:
    sc = tables.scenario(
        tables.unit("a", "A", tables.line(10, 10, 2)),
        tables.unit("b", "B", [{"x": 30.0, "y": 30.0, "facing": 270.0}]),
        tables.unit("c", "A", [{"x": 50.0, "y": 30.0, "facing": 270.0}]),
    )
    with pytest.raises(IllegalActionError, match="PD-14"):
        table_melee(sc, "a", "b")
    with pytest.raises(InvalidDataError, match="same side"):
        table_melee(sc, "a", "c")
    with pytest.raises(InvalidDataError, match="no unit"):
        table_melee(sc, "a", "zz")


def test_7_7_first_strike_on_the_charge_only_in_the_first_round(tables: SimpleNamespace) -> None:
    a = tables.unit("a", "A", tables.line(10, 10, 2), abilities=("first_strike_charge",))
    sc = tables.scenario(a, tables.unit("d", "B", tables.line(12, 12, 1, facing=270)))
    assert table_melee(sc, "a", "d").first_strike == "attacker"
    assert table_melee(sc, "a", "d", continuing=True).first_strike is None


def test_7_7_1_unrestricted_first_strike_counts_in_every_round(tables: SimpleNamespace) -> None:
    """7.7.1 — first strike with no limit: attacking or defending, first round or later."""
    a = tables.unit("a", "A", tables.line(10, 10, 2), abilities=("first_strike",))
    sc = tables.scenario(a, tables.unit("d", "B", tables.line(12, 12, 1, facing=270)))
    assert table_melee(sc, "a", "d").first_strike == "attacker"
    assert table_melee(sc, "a", "d", continuing=True).first_strike == "attacker"
    assert table_melee(sc, "d", "a", continuing=True).first_strike == "defender"


@pytest.mark.parametrize("case", sorted(CASES.glob("pd_14_straddle_*.toml")), ids=lambda p: p.stem)
def test_pd_14_check_and_melee_agree_on_a_straddling_base(case: Path) -> None:
    """Issue 15, 5.1.2, PD-14: ``check`` calls the units engaged exactly when ``melee`` finds a
    figure in contact, both ways round (no KeyError, no "no melee")."""
    from szwadron.table.audit import audit

    data = tomllib.loads(case.read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    sc = parse_scenario(data, source=str(case), folders=[])
    assert audit(sc).units[0].engaged_with == ("d",)
    back = table_melee(sc, "d", "a")  # the defender attacking: a/0 still fights, as defender
    assert back.defender_in_contact == ("a/0",)
    assert [f.base for f in back.fighting if f.side == "attacker"] == (["d/0"] if "1_2" in case.stem else [])


def test_pd_14_two_pairs_apart_each_short_are_not_engaged(tables: SimpleNamespace) -> None:
    """Issue 15, 5.1.2, PD-14: two pairs of bases far apart, each touching along 0.6 cm, make no
    figure in contact: not engaged, and no melee (exit 1 in the CLI)."""
    from szwadron.table.audit import audit

    sc = tables.scenario(
        tables.unit(
            "a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}, {"x": 30.0, "y": 10.0, "facing": 90.0}]
        ),
        tables.unit(
            "d", "B", [{"x": 8.6, "y": 12.0, "facing": 270.0}, {"x": 31.4, "y": 12.0, "facing": 270.0}]
        ),
    )
    assert audit(sc).units[0].engaged_with == ()
    with pytest.raises(IllegalActionError, match="PD-14"):
        table_melee(sc, "a", "d")


def test_6_7_1_a_battery_in_melee_never_pursues() -> None:
    """6.7.1 — a foot battery that stands while its attackers break holds: no outcome of the
    table has it pursue, and the chance that the same figures would pursue if they could (a
    pursuit test at M 4, 5.5.5) is added to its holding; the attackers' outcomes keep theirs."""
    data = tomllib.loads((CASES / "6_7_1_artillery_never_pursues.toml").read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    m = table_melee(parse_scenario(data, source="6_7_1", folders=[]), "a", "gun")
    outcomes = m.odds.outcomes.probabilities()
    assert all(d is not MeleeOutcome.PURSUIT for _, d in outcomes)
    assert m.sides is not None and not m.sides[1].morale.pursues and m.sides[0].morale.pursues
    could = melee_outcomes(m.odds.losses, m.sides[0].morale, replace(m.sides[1].morale, pursues=True))
    pursued = sum(p for (_, d), p in could.probabilities().items() if d is MeleeOutcome.PURSUIT)
    assert pursued > Fraction(1, 100)
    for (a, d), p in could.probabilities().items():
        if d is MeleeOutcome.PURSUIT:
            assert outcomes[(a, MeleeOutcome.HELD)] >= p
    held = {a: p for (a, d), p in outcomes.items() if d is MeleeOutcome.HELD}
    for a in held:
        assert held[a] == sum(
            p
            for (a2, d), p in could.probabilities().items()
            if a2 is a and d in (MeleeOutcome.HELD, MeleeOutcome.PURSUIT)
        )


def _cli_case(tmp_path: Path, *argv: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    from szwadron.cli import main

    text = (CASES / "5_7_part_uphill.toml").read_text(encoding="utf-8")
    f = tmp_path / "t.toml"
    f.write_text(text[: text.index("[check]")], encoding="utf-8")
    code = main(["melee", str(f), *argv])
    return code, capsys.readouterr().err


def test_5_2_one_unit_named_as_both_sides_is_one_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A unit cannot attack itself: bad input (exit 2), said as the combined melee says it."""
    code, err = _cli_case(tmp_path, "--attacker", "a", "--defender", "a", capsys=capsys)
    assert code == 2
    assert "a cannot attack and defend in one melee" in err and "same side" not in err


def test_5_3_no_contact_says_no_melee_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (CASES / "5_7_part_uphill.toml").read_text(encoding="utf-8")
    far = (
        text[: text.index("[check]")]
        .replace("{ x = 10.0, y = 13.0,", "{ x = 60.0, y = 63.0,")
        .replace("{ x = 12.0, y = 13.0,", "{ x = 62.0, y = 63.0,")
    )
    f = tmp_path / "far.toml"
    f.write_text(far, encoding="utf-8")
    from szwadron.cli import main

    assert main(["melee", str(f), "--attacker", "a", "--defender", "d"]) == 1
    err = capsys.readouterr().err
    assert err.count("no melee") == 1 and "(rule 5.3)" in err, err


def test_5_3_a_figure_of_sw_0_rolls_no_group() -> None:
    """5.3, 5.10.3 — a figure with SW 0 in contact fights with no dice: no "0 d6" group is listed
    (the combined melee lists none either); it is in contact all the same, and the odds are those
    of the other side striking alone."""
    from szwadron.cli.melee import format_report

    case = CASES / "6_7_1_artillery_never_pursues.toml"
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    data.pop("check"), data.pop("expected")
    data["units"][1]["profile"]["SW"] = 0
    sc = parse_scenario(data, source="sw0", folders=[])
    m = table_melee(sc, "a", "gun")
    assert [(g.side, g.dice) for g in m.groups] == [("attacker", 2)]
    assert "gun/0" in m.defender_in_contact
    assert m.odds.attacker_removed.probabilities() == {0: Fraction(1)}
    assert "0 d6" not in format_report(m)


SECOND_OPPONENT = CASES / "6_3_6_a_second_opponent_keeps_the_attacker_from_pursuit.toml"


def _second_opponent(drop: str | None = None, **state: str) -> Any:
    """The 6.3.6 case's position, without unit ``drop``, with units' states set (``unit=state``)."""
    data = tomllib.loads(SECOND_OPPONENT.read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    data["units"] = [u for u in data["units"] if u["id"] != drop]
    for u in data["units"]:
        if u["id"] in state:
            u["state"] = state[u["id"]]
    return parse_scenario(data, source="6.3.6", folders=[])


def _outcomes(m: Any) -> dict[tuple[str, str], Fraction]:
    return {(a.value, d.value): p for (a, d), p in m.odds.outcomes.probabilities().items()}


def test_6_3_6_the_attacker_tests_when_its_only_opponent_panicked() -> None:
    """6.3.6, 5.5.3 — the known-answer case without `e`: `d` is `a`'s only opponent and panics, so
    `a` (losses taken, M 4 - 1) tests for pursuit: holds on 1-3, pursues on 4-6."""
    m = table_melee(_second_opponent(drop="e"), "a", "d")
    assert m.held_by == {"attacker": (), "defender": ()}
    assert _outcomes(m) == {("held", "panic"): Fraction(1, 2), ("pursuit", "panic"): Fraction(1, 2)}


def test_6_3_6_a_second_opponent_in_panic_does_not_hold_it() -> None:
    """6.3.6 ("zostali odrzuceni lub wpadli w panikę") — `e` in panic already counts among the
    opponents that panicked: `a` tests as if `d` were its only opponent."""
    m = table_melee(_second_opponent(e="panic"), "a", "d")
    assert m.held_by["attacker"] == ()
    assert _outcomes(m)[("pursuit", "panic")] == Fraction(1, 2)


def test_6_3_6_a_second_opponent_recorded_engaged_holds_it_too() -> None:
    """5.1.2, 6.3.6 — `e` moved 1 cm off a/0's flank but recorded as engaged with `a`
    (``engaged_with``): still one of its opponents, it still holds `a` from pursuit."""
    data = tomllib.loads(SECOND_OPPONENT.read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    for u in data["units"]:
        if u["id"] == "e":
            u["bases"][0]["x"] = 13.0
        if u["id"] == "a":
            u["engaged_with"] = ["e"]
    m = table_melee(parse_scenario(data, source="6.3.6", folders=[]), "a", "d")
    assert m.held_by["attacker"] == ("e",)
    assert _outcomes(m) == {("held", "panic"): Fraction(1)}


def test_6_3_6_a_second_opponent_of_the_defender_holds_it() -> None:
    """6.3.6, 5.5.5 — the defender's side: the case's column `a` (made M 1) attacks `d` (made M 6)
    while `a2`, a unit of the column's side not in this melee, touches d/0's flank. Every die
    scores. `d` (1 of 2 left, target 4) stands on 1-4 (4/6), else is repulsed (2/6 × 4/6) or
    panics (2/6 × 2/6), and then `a` (3 of 4 left, target 0) fails its pursuit test; when `d`
    stands, `a` panics, and `d`, with losses, would test for pursuit (5.5.5) and pursue on 5-6:
    4/6 × 2/6 = 2/9 without `a2`. With `a2` standing engaged with it, not all its opponents
    broke: no test, it holds. (`a`'s own opponents are `d` alone: it pursues as before.)"""
    data = tomllib.loads(SECOND_OPPONENT.read_text(encoding="utf-8"))
    data.pop("expected"), data.pop("check")
    col, shaky, e = data["units"]
    col = {**col, "profile": {**col["profile"], "M": 1}}
    shaky = {**shaky, "profile": {**shaky["profile"], "M": 6}}
    flank = {**e, "id": "a2", "side": "A", "bases": [{"x": 12.0, "y": 12.0, "facing": 180.0}]}
    held = table_melee(
        parse_scenario({**data, "units": [col, shaky, flank]}, source="6.3.6", folders=[]), "a", "d"
    )
    free = table_melee(parse_scenario({**data, "units": [col, shaky]}, source="6.3.6", folders=[]), "a", "d")
    assert free.held_by == {"attacker": (), "defender": ()}
    broke = {("pursuit", "repulsed"): Fraction(2, 9), ("pursuit", "panic"): Fraction(1, 9)}
    assert _outcomes(free) == {
        **broke,
        ("panic", "held"): Fraction(4, 9),
        ("panic", "pursuit"): Fraction(2, 9),
    }
    assert held.held_by == {"attacker": (), "defender": ("a2",)}
    assert _outcomes(held) == {**broke, ("panic", "held"): Fraction(2, 3)}
