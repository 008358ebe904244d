"""Rulings a second reader of the Polish rulebook worked by hand (the rules audit of 2026-11-27):
melee and its results applied to the position — 5.7.3 (a defender holding an advantageous position
with every figure is not engaged) and 6.7.1 (artillery never pursues). The scenarios are the
known-answer files of tests/cases/melee/, which cite their rules and source."""

from __future__ import annotations

import json
import math
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from szwadron.cli import main
from szwadron.loading import load_scenario
from szwadron.table.combined import combined_melee

CASES = Path(__file__).parent / "cases" / "melee"


def _position(tmp_path: Path, case: str) -> Path:
    """The case's scenario without its [check] and [expected] tables, as a player's file."""
    text = (CASES / case).read_text(encoding="utf-8")
    keep = text[: text.index("[check]")]
    tomllib.loads(keep)  # still a whole TOML document
    path = tmp_path / "position.toml"
    path.write_text(keep, encoding="utf-8")
    return path


def test_5_7_3_a_defender_behind_a_fence_is_not_engaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5.7.3 — both stand (the attackers score nothing, the defenders one damage and no figure;
    the attackers pass their repulse test): the attackers stay engaged (5.5.7), the defender, every
    figure behind the fence (PD-15), does not count as engaged. Dice in the order rolled: the
    attackers' 4 d6 on ≤4 (5 5 5 5), the defenders' 2 d6 on ≤3 (1 6) and the remainder roll of 1
    damage against W 2 (6: none removed), the attackers' repulse test (1 on ≤5: pass)."""
    pos = _position(tmp_path, "5_7_behind_fence.toml")
    out = tmp_path / "next.toml"
    argv = ["melee", str(pos), "--attacker", "a", "--defender", "d", "--apply", "--dice", "5,5,5,5,1,6,6,1"]
    assert main([*argv, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "outcome: attacker engaged, defender stands, not engaged (5.7.3)" in text
    after = load_scenario(out)
    assert after.unit("a").engaged_with == ("d",)
    assert after.unit("d").engaged_with == ()
    # the odds say the same: no outcome reads "engaged" for the defender in words
    assert main(["melee", str(pos), "--attacker", "a", "--defender", "d"]) == 0
    table = capsys.readouterr().out
    assert "engaged / stands, not engaged (5.7.3)" in table and "engaged / engaged" not in table


def test_5_5_7_a_defender_partly_uphill_is_engaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5.5.7, 5.7.3 — only part of the defenders hold the hill: both standing, both are engaged."""
    pos = _position(tmp_path, "5_7_part_uphill.toml")
    assert main(["melee", str(pos), "--attacker", "a", "--defender", "d"]) == 0
    table = capsys.readouterr().out
    assert "engaged / engaged" in table and "5.7.3)" not in table.split("outcomes")[1]


@pytest.mark.parametrize("seed", range(12))
def test_6_7_1_an_applied_melee_never_puts_a_battery_in_pursuit(tmp_path: Path, seed: int) -> None:
    """6.7.1 — whatever the dice, a battery that stood its ground is not pursuing afterwards."""
    pos = _position(tmp_path, "6_7_1_artillery_never_pursues.toml")
    out = tmp_path / "next.toml"
    argv = [*_battery_melee(pos), "--roll", "--seed", str(seed)]
    assert main([*argv, "-o", str(out), "--json"]) == 0
    gun = [u for u in load_scenario(out).units if u.id == "gun"]
    assert not gun or (gun[0].state.value != "pursuit" and gun[0].pursuing is None)


def test_6_7_1_a_battery_rolls_no_pursuit_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """6.7.1, 5.5.5 — the attackers score 1 damage (1 6; remainder roll 6 against W 2: none
    removed), the gun 1 against W 1 (1 6: a/0 removed); the gun passes its repulse test (1 on ≤4),
    the attackers fail repulse and panic (6, 6 on ≤1): they panic. A line unit would now test for
    pursuit (5.5.5); the battery takes no test — eight dice are the melee — and holds. The
    attackers flee at once (6.6.2): two dice more, 1 + 1 = 4 cm."""
    pos = _position(tmp_path, "6_7_1_artillery_never_pursues.toml")
    out = tmp_path / "next.toml"
    argv = [*_battery_melee(pos), "--dice", "1,6,6,1,6,1,6,6,1,1"]
    assert main([*argv, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "outcome: attacker panic, defender held" in text and "pursuit test" not in text
    assert "a flees: 1 + 1 → 4 cm" in text
    gun = load_scenario(out).unit("gun")
    assert gun.state.value == "normal" and gun.pursuing is None
    # a die more than the melee and the flight roll is one too many: nothing is written
    again = tmp_path / "again.toml"
    assert main([*argv[:-1], "1,6,6,1,6,1,6,6,1,1,6", "-o", str(again)]) == 2
    assert not again.exists()


FIRE = Path(__file__).parent / "cases" / "fire"


def _fire_position(tmp_path: Path, case: str, **moved: tuple[float, float]) -> Path:
    """A fire case's scenario without its [expected] table; ``moved`` puts a unit's one base at (x, y)."""
    data = tomllib.loads((FIRE / case).read_text(encoding="utf-8"))
    data.pop("expected")
    for unit in data["units"]:
        if unit["id"] in moved:
            unit["bases"][0]["x"], unit["bases"][0]["y"] = moved[unit["id"]]
    lines = [f"name = {data['name']!r}", "[table]", "width = 100.0", "depth = 80.0"]
    for u in data["units"]:
        prof = ", ".join(
            f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in u["profile"].items()
        )
        b = u["bases"][0]
        lines += [
            "[[units]]",
            f"id = {u['id']!r}",
            f"side = {u['side']!r}",
            f"profile = {{ {prof} }}",
            f"bases = [ {{ x = {b['x']}, y = {b['y']}, facing = {b['facing']} }} ]",
        ]
    path = tmp_path / "position.toml"
    path.write_text("\n".join(lines).replace("'", '"') + "\n", encoding="utf-8")
    return path


def test_4_5_5_fire_out_of_range_loses_the_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """4.5.5 — declared at a target 28 cm away with Z 24, the fire rolls nothing and the shooter's
    action is spent: the next position has it acted (a second action is refused, 2.3), the target
    unchanged, and the log's line says why."""
    pos = _fire_position(tmp_path, "4_5_5_out_of_range_loses_the_action.toml")
    out = tmp_path / "next.toml"
    argv = ["fire", str(pos), "--shooter", "s", "--target", "b", "--apply", "--roll", "--seed", "1"]
    assert main([*argv, "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "action is lost (4.5.5)" in text and "Rolled" not in text
    after = load_scenario(out)
    assert after.unit("s").acted is not None and after.unit("s").acted.value == "fire"
    assert after.unit("b").strength == 1 and after.unit("b").state.value == "normal"
    # spent: it may not fire again (2.3: a refusal, exit 1)
    again = ["fire", str(out), "--shooter", "s", "--target", "b", "--apply", "--roll", "--seed", "2"]
    assert main([*again, "-o", str(tmp_path / "x.toml")]) == 1
    assert "already acted" in capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()


def test_4_3_6_fire_out_of_sight_keeps_the_action(tmp_path: Path) -> None:
    """4.3.6 — a target in range but behind an own unit (4.3.2: no line of sight) is refused
    without a cost: nothing is written and the unit may still act."""
    pos = _fire_position(tmp_path, "4_5_5_out_of_range_loses_the_action.toml", b=(50.0, 25.0))
    friend = (
        '[[units]]\nid = "f"\nside = "A"\nprofile = { id = "inf", name = "Line", kind = "infantry", R = 12, '
        "W = 2, SW = 1, SO = 1, Z = 24, UW = 3, C = 3, M = 4 }\nbases = [ { x = 50.0, y = 17.0, facing = 90.0 } ]\n"
    )
    pos.write_text(pos.read_text(encoding="utf-8") + friend, encoding="utf-8")
    out = tmp_path / "next.toml"
    argv = ["fire", str(pos), "--shooter", "s", "--target", "b", "--apply", "--roll", "--seed", "1"]
    assert main([*argv, "-o", str(out)]) == 1
    assert not out.exists()


def test_5_6_the_push_up_shown_is_for_losses_both_sides_survive(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """5.6 — pushing up happens only when both sides stood; `melee` shows it after the likeliest
    losses that leave both with figures (1 and 1: 3/16), not after the likeliest losses overall
    (2 and 1, which destroy the attacker)."""
    pos = _position(tmp_path, "5_6_push_up_only_when_both_stand.toml")
    assert main(["melee", str(pos), "--attacker", "a", "--defender", "d"]) == 0
    text = capsys.readouterr().out
    assert "after the likeliest losses (1 attacker, 1 defender, 18.8%)" in text


def test_7_7_2_a_side_that_declares_defence_strikes_first_in_defence() -> None:
    """5.7.4, 7.7.2 II — guards with first strike in defence declare defence behind a fence in a
    continuing melee: they strike first (the Austrians lose one 4/9 of the time, the guards 7/36,
    not 1/4 as when both strike at once); the same guards defending an Austrian attack in that
    round, holding the fence, strike first too, and only the defender's W has the bonus: the
    Austrians lose one 4/9 × 1/2 + 4/9 = 2/3 of the time, the guards 1/3 × 1/4 + 2/3 × 1/8 = 1/6."""
    sc = load_scenario(
        Path(__file__).parent / "cases" / "melee_special" / "5_7_4_declared_defence_strikes_first.toml"
    )
    declared = combined_melee(sc, ["gd"], ["au"], continuing=True, declare_defence=True)
    assert declared.first_strike == "attacker"  # the declaring side, listed as the attackers
    assert declared.removed("gd").probabilities() == {0: Fraction(29, 36), 1: Fraction(7, 36)}
    assert declared.removed("au").probabilities() == {0: Fraction(5, 9), 1: Fraction(4, 9)}
    defended = combined_melee(sc, ["au"], ["gd"], continuing=True)
    assert defended.first_strike == "defender"
    assert defended.removed("au").probabilities() == {0: Fraction(1, 3), 1: Fraction(2, 3)}
    assert defended.removed("gd").probabilities() == {0: Fraction(5, 6), 1: Fraction(1, 6)}


SEQ = Path(__file__).parent / "cases" / "game_sequence"


def _step(tmp_path: Path, argv: list[str], before: str, after: str) -> int:
    """One command of the game on position ``before``; writes ``after`` when it is applied. A
    refusal (exit 1) must be the one-action rule's (2.3), not any other."""
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main([argv[0], str(tmp_path / before), *argv[1:], "--apply", "-o", str(tmp_path / after)])
    assert code != 1 or "(rule 2.3)" in err.getvalue(), err.getvalue()
    return code


@pytest.mark.parametrize("fire_first", [False, True])
def test_4_11_2_fire_on_the_march_is_one_half_move_and_one_fire(tmp_path: Path, fire_first: bool) -> None:
    """4.11.1-4.11.2, 3.1.1 — the half move and the fire, in either order, each once: a second
    half move or a second fire on the march is refused (2.3), and nothing is written."""
    (tmp_path / "p0.toml").write_text((SEQ / "one_action.toml").read_text(encoding="utf-8"), encoding="utf-8")
    half = ["move", "--unit", "a", "--march", "--to", str(SEQ / "half_move.toml")]
    again = ["move", "--unit", "a", "--march", "--to", str(SEQ / "half_move_again.toml")]
    fire = ["fire", "--shooter", "a", "--target", "e", "--march", "--roll", "--seed", "1"]
    first, second = (fire, half) if fire_first else (half, fire)
    assert _step(tmp_path, first, "p0.toml", "p1.toml") == 0
    assert load_scenario(tmp_path / "p1.toml").unit("a").acted.value == (
        "march_fire" if fire_first else "march_move"
    )  # type: ignore[union-attr]
    repeat = fire if fire_first else again
    assert _step(tmp_path, repeat, "p1.toml", "bad.toml") == 1 and not (tmp_path / "bad.toml").exists()
    assert _step(tmp_path, second, "p1.toml", "p2.toml") == 0
    assert load_scenario(tmp_path / "p2.toml").unit("a").acted.value == "march"  # type: ignore[union-attr]
    for more in (fire, again):
        assert _step(tmp_path, more, "p2.toml", "bad.toml") == 1 and not (tmp_path / "bad.toml").exists()


def test_4_9_the_figures_that_did_not_fire_move_once_after_the_fire(tmp_path: Path) -> None:
    """4.9.1, 3.1.1 — a/0 fires; a/1, which did not, steps back after the fire; stepping back a
    second time in the same turn is refused (2.3), and nothing is written."""
    (tmp_path / "p0.toml").write_text((SEQ / "one_action.toml").read_text(encoding="utf-8"), encoding="utf-8")
    fire = ["fire", "--shooter", "a", "--target", "e", "--bases", "a/0", "--roll", "--seed", "2"]
    assert _step(tmp_path, fire, "p0.toml", "p1.toml") == 0
    back = ["move", "--unit", "a", "--after-fire", "e", "--fired", "a/0", "--to", str(SEQ / "step_back.toml")]
    assert _step(tmp_path, back, "p1.toml", "p2.toml") == 0
    assert load_scenario(tmp_path / "p2.toml").unit("a").acted.value == "fire_move"  # type: ignore[union-attr]
    again = [*back[:-1], str(SEQ / "step_back_again.toml")]
    assert _step(tmp_path, again, "p2.toml", "bad.toml") == 1 and not (tmp_path / "bad.toml").exists()


def test_2_3_the_fire_question_says_a_unit_that_moved_may_not_fire_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.3, 4.1.1 — `fire` answers the geometry, and under its verdict says when the position
    does not let the shooter fire now: after its move this turn."""
    (tmp_path / "p0.toml").write_text((SEQ / "one_action.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert (
        _step(tmp_path, ["move", "--unit", "a", "--to", str(SEQ / "half_move.toml")], "p0.toml", "p1.toml")
        == 0
    )
    capsys.readouterr()
    assert main(["fire", str(tmp_path / "p0.toml"), "--shooter", "a", "--target", "e"]) == 0
    assert "but not now" not in capsys.readouterr().out
    assert main(["fire", str(tmp_path / "p1.toml"), "--shooter", "a", "--target", "e"]) == 0
    verdict, note = capsys.readouterr().out.splitlines()[:2]
    assert verdict.endswith("can fire") and "but not now" in note and "(rule 2.3)" in note


def test_7_1_2_artillery_makes_no_march_move(capsys: pytest.CaptureFixture[str]) -> None:
    """7.1.2 — a horse battery's 10 cm move is legal, on the march it is refused (its fire on the
    march was refused already: half its move for a fire it may not make)."""
    argv = ["move", str(SEQ / "guns.toml"), "--unit", "hb", "--to", str(SEQ / "horse_battery_10cm.toml")]
    assert main(argv) == 0
    capsys.readouterr()
    assert main([*argv, "--march"]) == 1
    assert "ILLEGAL [7.1.2]" in capsys.readouterr().out


MORALE = Path(__file__).parent / "cases" / "morale_apply"


def _morale(tmp_path: Path, case: str, dice: str) -> tuple[int, Path, str]:
    """``morale --side A --apply --dice DICE`` on a case; the next position and the report."""
    import contextlib
    import io

    out, text = tmp_path / "next.toml", io.StringIO()
    argv = ["morale", str(MORALE / case), "--side", "A", "--apply", "--dice", dice, "-o", str(out)]
    with contextlib.redirect_stdout(text):
        code = main(argv)
    return code, out, text.getvalue()


def _overlaps(path: Path) -> list[str]:
    from szwadron.table.audit import audit

    return [str(p) for p in audit(load_scenario(path)).problems if "PD-3" in str(p) and "overlap" in str(p)]


def test_2_2_1_iv_a_unit_panicked_by_being_fled_through_flees_in_the_same_phase(tmp_path: Path) -> None:
    """2.2.1 IV, 6.6.2 — the dice in the order rolled: `fleeing` fails its reorganisation (6 on
    ≤4) and flees 6 + 6 = 24 cm through both lines; line1 fails its test (6 on ≤4) and panics,
    line2 passes (1); then line1 flees at once, 1 + 1 = 2 × 2 = 4 cm, towards its edge. No figure
    ends on another (3.1.3)."""
    code, out, text = _morale(tmp_path, "through_two_own.toml", "6,6,6,6,1,1,1")
    assert code == 0
    assert "line1 flees: 1 + 1 → 4 cm" in text
    after = load_scenario(out)
    assert after.unit("line1").state.value == "panic" and after.unit("line2").state.value == "normal"
    assert max(b.y for b in after.unit("line1").bases) < 32.0  # it has moved towards its edge (y = 0)
    assert not _overlaps(out)
    # one die fewer: the chained flight's dice are missing — refused, nothing written
    out.unlink()
    code, out, _ = _morale(tmp_path, "through_two_own.toml", "6,6,6,6,1,1")
    assert code == 2 and not out.exists()


def test_6_6_11_a_flight_does_not_end_on_the_own_unit_it_passes(tmp_path: Path) -> None:
    """6.6.11, 3.1.4 — after a failed reorganisation (6), 2 + 3 = 5 × 2 = 10 cm would take
    `fleeing` from y 42 to y 32, onto line1's middle figure; it may pass through line1 but not end
    on it, so it stops in front of it, touching it (y 34)."""
    code, out, _text = _morale(tmp_path, "through_two_own.toml", "6,2,3,1")
    assert code == 0 and not _overlaps(out)
    (base,) = load_scenario(out).unit("fleeing").bases
    assert base.y == pytest.approx(34.0, abs=0.01)


def test_3_1_3_fleeing_figures_do_not_end_on_each_other(tmp_path: Path) -> None:
    """3.1.3, 6.6.8 — after a failed reorganisation (6), two cavalry figures flee 4 + 4 = 8 × 4 =
    32 cm round a wood: they end one behind the other, touching (4 cm deep bases), not stacked."""
    code, out, _text = _morale(tmp_path, "cavalry_round_wood.toml", "6,4,4")
    assert code == 0 and not _overlaps(out)
    a, b = load_scenario(out).unit("fleeing").bases
    assert abs(a.y - b.y) == pytest.approx(4.0, abs=0.01) and a.x == b.x


@pytest.mark.parametrize("dice", ["6,2,3", "6,3,3"])
def test_3_2_2_a_flight_stops_before_a_wood_it_cannot_enter_whole(tmp_path: Path, dice: str) -> None:
    """3.2.2 — 10 or 12 cm of flight reach the wood (9 cm away) but cannot take the whole base in
    (each cm inside costs 2): the figure stops before it, its base touching the edge (y 20)."""
    code, out, _text = _morale(tmp_path, "wood_across.toml", dice)
    assert code == 0
    (base,) = load_scenario(out).unit("fleeing").bases
    assert base.y == pytest.approx(21.0, abs=0.01)


def test_6_7_3_a_pursuing_unit_fights_in_its_own_morale_phase(tmp_path: Path) -> None:
    """6.7.3, 2.2.1 V — in side A's morale phase its pursuing hussars, in contact with the line
    figure they pursue, fight their melee (applied, exit 0); an ordinary unit may not (2.2)."""
    (tmp_path / "p0.toml").write_text(
        (SEQ / "pursuer_fights.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    melee = ["melee", "--attacker", "pursuer", "--defender", "e", "--roll", "--seed", "1"]
    assert _step(tmp_path, melee, "p0.toml", "p1.toml") == 0
    text = (
        (tmp_path / "p0.toml").read_text(encoding="utf-8").replace('state = "pursuit"\npursuing = "e"\n', "")
    )
    (tmp_path / "q0.toml").write_text(text, encoding="utf-8")
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(
            ["melee", str(tmp_path / "q0.toml"), *melee[1:], "--apply", "-o", str(tmp_path / "q1.toml")]
        )
    assert code == 1 and "(rule 2.2)" in err.getvalue()


def test_2_2_1_iii_a_reorganised_unit_re_forms_in_the_morale_phase(tmp_path: Path) -> None:
    """2.2.1 III, 6.8.5 — the unit rallies (2 on ≤2), then `move --reform --apply` closes it up
    in the same phase: coherent, written; a second re-forming has nothing to do (exit 2), and the
    unit still in panic, before its test, cannot re-form (exit 2)."""
    (tmp_path / "p0.toml").write_text(
        (SEQ / "reorganise_then_reform.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert _step(tmp_path, ["morale", "--side", "A", "--dice", "2"], "p0.toml", "p1.toml") == 0
    assert load_scenario(tmp_path / "p1.toml").unit("scattered").acted.value == "reorganise"  # type: ignore[union-attr]
    reform = ["move", "--unit", "scattered", "--reform"]
    assert _step(tmp_path, reform, "p1.toml", "p2.toml") == 0
    from szwadron.table.audit import audit

    (report,) = [u for u in audit(load_scenario(tmp_path / "p2.toml")).units if u.id == "scattered"]
    assert report.coherent
    assert _step(tmp_path, reform, "p2.toml", "p3.toml") == 2 and not (tmp_path / "p3.toml").exists()
    assert _step(tmp_path, reform, "p0.toml", "p4.toml") == 2  # still in panic: it reorganises first


@pytest.mark.parametrize(("dice", "y", "contact"), [("5,3,4", 64.0, True), ("5,1,1", 54.0, False)])
def test_6_7_4_the_pursuit_move_is_made_in_the_morale_phase(
    tmp_path: Path, dice: str, y: float, contact: bool
) -> None:
    """6.7.1, 6.7.4, 6.8.1 III — the pursuer moves straight at the unit it pursues by 2d6 × 2 cm
    and stops in contact; then, in contact, it fights that unit in the same phase (6.7.3)."""
    code, out, text = _morale(tmp_path, "pursuit_move.toml", dice)
    assert code == 0
    (base,) = load_scenario(out).unit("pursuer").bases
    assert (base.x, base.y) == pytest.approx((60.0, y))
    assert ("in contact" in text) and (("not in contact" in text) != contact)
    melee = _pursuer_melee(out, 3)
    assert _cli_code([*melee, "-o", str(tmp_path / "after.toml")]) == (0 if contact else 1)


def _cli_code(argv: list[str]) -> int:
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main(argv)


def test_2_2_1_every_reorganisation_comes_before_the_flights(tmp_path: Path) -> None:
    """2.2.1 II before IV — `line2` reorganises (1 on ≤4) before `fleeing` flees through it, so it
    tests when fled through (6.4.3): passing (1) it stays normal; failing (6) it panics and flees
    at once, 1 + 1 = 4 cm (2.2.1 IV, 6.6.2)."""
    code, out, text = _morale(tmp_path, "reorganised_then_fled_through.toml", "6,1,6,6,1")
    assert code == 0
    assert (
        text.index("line2 reorganise test")
        < text.index("fleeing flees")
        < text.index("line2 passed through test")
    )
    assert load_scenario(out).unit("line2").state.value == "normal"
    out.unlink()
    code, out, text = _morale(tmp_path, "reorganised_then_fled_through.toml", "6,1,6,6,6,1,1")
    assert code == 0 and "line2 flees: 1 + 1 → 4 cm" in text
    assert load_scenario(out).unit("line2").state.value == "panic" and not _overlaps(out)


def test_2_2_1_v_the_enemys_pursuer_moves_and_fights_in_this_sides_phase(tmp_path: Path) -> None:
    """2.2.1 V, 6.7.3 — in side A's morale phase, after A's own flight (`pan`, 1 + 1 = 4 cm), B's
    unit pursuing A's `rep` moves 3 + 4 = 14 cm into contact (no reorganisation test in A's phase)
    and may fight there; a melee that destroys both units leaves a clean position (PD-18)."""
    code, out, text = _morale(tmp_path, "enemy_pursuer.toml", "1,1,3,4")
    assert code == 0 and "pursuer pursues: 3 + 4 → 14 cm, in contact" in text
    (base,) = load_scenario(out).unit("pursuer").bases
    assert (base.x, base.y) == pytest.approx((60.0, 64.0))
    melee = _pursuer_melee(out, 2)
    after = tmp_path / "after.toml"
    assert _cli_code([*melee, "-o", str(after)]) == 0
    from szwadron.table.audit import audit

    left = load_scenario(after)
    assert {u.id for u in left.units} == {"pan"} and not audit(left).problems  # both destroyed (seed 2)


def test_2_3_a_pursuer_fights_one_melee_a_phase(tmp_path: Path) -> None:
    """2.3, 6.8.8 — a pursuing unit fights in the morale phase (6.7.3), once: with seed 11 the
    hussars hold and the line figure panics, both stay on the table; the same melee applied again
    to the position it wrote is refused under 2.3 (exit 1), nothing written."""
    (tmp_path / "p0.toml").write_text(
        (SEQ / "pursuer_fights.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    melee = ["melee", "--attacker", "pursuer", "--defender", "e", "--roll", "--seed", "11"]
    assert _step(tmp_path, melee, "p0.toml", "p1.toml") == 0
    after = load_scenario(tmp_path / "p1.toml")
    assert after.unit("pursuer").state.value == "pursuit" and after.unit("e").state.value == "panic"
    assert _step(tmp_path, melee, "p1.toml", "p2.toml") == 1
    assert not (tmp_path / "p2.toml").exists()


def test_6_7_9_a_pursuer_repulsed_in_its_own_morale_phase_takes_no_action(tmp_path: Path) -> None:
    """6.7.9 — "Jeżeli oddział został odrzucony we własnej fazie morale, nie może wykonywać żadnej
    akcji w fazie ruchu tej samej tury": side A's pursuing line x, struck in A's morale phase by
    B's pursuing hussars (2.2.1 V), is repulsed (dice worked in the case file) and normal; its
    action is spent (the melee), so in A's movement phase its move is refused (2.3), nothing
    written. Repulsed in the opponent's (B's) morale phase instead, its action is not spent."""
    case = (SEQ / "pursuer_repulsed_in_own_phase.toml").read_text(encoding="utf-8")
    (tmp_path / "p0.toml").write_text(case, encoding="utf-8")
    melee = ["melee", "--attacker", "bp", "--defender", "x", "--dice", "1,6,6,1"]
    assert _step(tmp_path, melee, "p0.toml", "p1.toml") == 0
    x = load_scenario(tmp_path / "p1.toml").unit("x")
    assert x.state.value == "normal" and x.acted is not None and x.acted.value == "melee"
    assert load_scenario(tmp_path / "p1.toml").unit("bp").state.value == "pursuit"
    assert _step(tmp_path, ["turn"], "p1.toml", "p2.toml") == 0
    step = ["move", "--unit", "x", "--to", str(SEQ / "repulsed_pursuer_steps_back.toml")]
    assert _step(tmp_path, step, "p2.toml", "bad.toml") == 1 and not (tmp_path / "bad.toml").exists()
    (tmp_path / "q0.toml").write_text(
        case.replace('side = "A"\nphase', 'side = "B"\nphase'), encoding="utf-8"
    )
    assert _step(tmp_path, melee, "q0.toml", "q1.toml") == 0
    x = load_scenario(tmp_path / "q1.toml").unit("x")
    assert x.state.value == "normal" and x.acted is None


_SHOOTER = """[[units]]
id = "s"
side = "B"
profile = { id = "inf", name = "Line", kind = "infantry", R = 12, W = 1, SW = 1, SO = 1, Z = 24, UW = 3, C = 3, M = 4 }
bases = [ { x = 51.0, y = 40.0, facing = 90.0 } ]
"""


@pytest.mark.parametrize("by", ["melee", "fire"])
@pytest.mark.parametrize("pursuing", [True, False])
def test_6_7_9_a_repulsed_pursuer_makes_the_move_after_reorganising(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], by: str, pursuing: bool
) -> None:
    """6.7.9 — "Oddział ruch odrzucenia wykonuje tak samo, jak ruch zbierania się po odzyskaniu
    kontroli nad oddziałem": x, repulsed while pursuing (the dice of
    pursuer_repulsed_in_own_phase.toml: in melee struck by bp; or hit once by s's fire in B's
    movement phase, 1 d6 on <= 3: 1, then repulse test 6 fails and panic test 1 passes), is told
    to make the move of 6.8.5 (regain coherency, up to R, no zone, no charge); the tool used to
    tell it, as any repulsed unit, to move away from the enemy (6.5). A unit that was not
    pursuing still gets 6.5's move."""
    case = (SEQ / "pursuer_repulsed_in_own_phase.toml").read_text(encoding="utf-8")
    if not pursuing:
        case = case.replace(
            'state = "pursuit"\npursuing = "y"\nprofile = { id = "inf"', 'profile = { id = "inf"', 1
        )
    if by == "fire":
        case = case.replace('side = "A"\nphase = "morale"', 'side = "B"\nphase = "movement"') + _SHOOTER
        argv = ["fire", "--shooter", "s", "--target", "x", "--dice", "1", "--morale-dice", "6,1"]
    else:
        argv = ["melee", "--attacker", "bp", "--defender", "x", "--dice", "1,6,6,1"]
    (tmp_path / "p0.toml").write_text(case, encoding="utf-8")
    assert load_scenario(tmp_path / "p0.toml").unit("x").state.value == ("pursuit" if pursuing else "normal")
    capsys.readouterr()
    assert (
        main([argv[0], str(tmp_path / "p0.toml"), *argv[1:], "--apply", "-o", str(tmp_path / "p1.toml")]) == 0
    )
    out = capsys.readouterr().out
    x = load_scenario(tmp_path / "p1.toml").unit("x")
    assert x.state.value == "normal" and x.repulsed_pursuing is pursuing  # recorded for its move
    assert ("repulsed while pursuing" in out and "(6.7.9, 6.8.5)" in out) is pursuing, out
    assert (", 6.5) is its next move" in out or ", 6.5) as its next move" in out) is not pursuing, out


@pytest.mark.parametrize("pursuing", [True, False])
def test_6_7_9_the_repulsed_pursuers_move_is_applied_as_the_move_after_reorganising(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pursuing: bool
) -> None:
    """6.7.9 — "Oddział ruch odrzucenia wykonuje tak samo, jak ruch zbierania się po odzyskaniu
    kontroli nad oddziałem" (6.8.5). The dice of pursuer_repulsed_in_own_phase.toml: x, pursuing,
    struck by bp in its own morale phase, loses x/0 and is repulsed; the position records it
    (``repulsed_pursuing``). Its repulse move, ``move --repulse bp --apply``, is then 6.8.5's,
    made at once in the morale phase though its action is the melee (it used to be refused, or
    offered 6.5's move away): x/1 alone is coherent, so it stays at (52, 50), ``acted`` stays
    the melee and the record is cleared. A unit that was not pursuing (here with a stale mark,
    which its new repulse clears) still makes 6.5's move away from bp: x/1 leaves (52, 50)."""
    case = (SEQ / "pursuer_repulsed_in_own_phase.toml").read_text(encoding="utf-8")
    if not pursuing:
        case = case.replace(
            'state = "pursuit"\npursuing = "y"\nprofile = { id = "inf"',
            'repulsed_pursuing = true\nprofile = { id = "inf"',
            1,
        )
    (tmp_path / "p0.toml").write_text(case, encoding="utf-8")
    melee = ["melee", "--attacker", "bp", "--defender", "x", "--dice", "1,6,6,1"]
    assert _step(tmp_path, melee, "p0.toml", "p1.toml") == 0
    x = load_scenario(tmp_path / "p1.toml").unit("x")
    assert x.state.value == "normal" and x.repulsed_pursuing is pursuing
    capsys.readouterr()
    argv = ["move", str(tmp_path / "p1.toml"), "--unit", "x", "--repulse", "bp"]
    assert main([*argv, "--apply", "-o", str(tmp_path / "p2.toml")]) == 0
    out = capsys.readouterr().out
    x = load_scenario(tmp_path / "p2.toml").unit("x")
    assert x.state.value == "normal" and not x.repulsed_pursuing
    ((bx, by),) = [(b.x, b.y) for b in x.bases]
    assert ((bx, by) == pytest.approx((52.0, 50.0))) is pursuing
    assert ("(6.7.9, 6.8.5)" in out) is pursuing and ("(6.5)" in out) is not pursuing, out
    if pursuing:
        assert x.acted is not None and x.acted.value == "melee"
        assert "repulsed_pursuing" not in (tmp_path / "p2.toml").read_text(encoding="utf-8")


def test_6_7_9_a_repulsed_pursuer_closes_up_in_its_repulse_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """6.7.9, 6.8.5 — a unit recorded repulsed while pursuing whose figures lie apart: x/0 at
    (50, 50) and x/1 at (54, 50), a 2 cm gap between the 2 cm bases. Its repulse move is the
    re-forming move (the group holding the first base stays, the other closes up, as ``--reform``:
    x/1 to x = 52.02, 0.4 of the 0.05 cm contact tolerance short of touching), not a move away
    from bp; asked without ``--apply`` it says so; with ``--plot`` it is refused (exit 2, one
    message), nothing written."""
    case = (SEQ / "pursuer_repulsed_in_own_phase.toml").read_text(encoding="utf-8")
    case = case.replace(
        'state = "pursuit"\npursuing = "y"\nprofile = { id = "inf"',
        'repulsed_pursuing = true\nacted = "melee"\nprofile = { id = "inf"',
        1,
    ).replace("{ x = 52.0, y = 50.0, facing = 90.0 }", "{ x = 54.0, y = 50.0, facing = 90.0 }", 1)
    case = case.replace(
        "bases = [ { x = 50.0, y = 53.0, facing = 270.0 } ]",
        "bases = [ { x = 50.0, y = 80.0, facing = 270.0 } ]",
    )
    (tmp_path / "p0.toml").write_text(case, encoding="utf-8")
    argv = ["move", str(tmp_path / "p0.toml"), "--unit", "x", "--repulse", "bp"]
    capsys.readouterr()
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "repulsed while pursuing" in out and "close up x/1 to (52.0" in out, out
    assert main([*argv, "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("--plot does not go with the repulse of x") == 1 and not (tmp_path / "x.png").exists()
    assert main([*argv, "--apply", "-o", str(tmp_path / "p1.toml")]) == 0
    x = load_scenario(tmp_path / "p1.toml").unit("x")
    assert [(round(b.x, 2), b.y) for b in x.bases] == [(50.0, 50.0), (52.02, 50.0)]
    assert not x.repulsed_pursuing and x.acted is not None and x.acted.value == "melee"


def test_6_7_9_a_repulsed_pursuers_move_into_an_enemy_zone_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """6.7.9, 6.8.5 ("Żadna z jednostek nie może w tym ruchu wejść w strefę kontroli
    nieprzyjaciela"), 1.4.2 — x, recorded repulsed while pursuing, lies apart: x/0 at (50, 50),
    x/1 at (56, 50); bp's base at (53, 53.5). Closing x/1 up to x = 52.02 takes it from 1.12 cm to
    0.50 cm of bp/0, within its zone: refused (exit 1, rule 1.4.2), nothing written; no panic
    (6.5.5 is 6.5's)."""
    case = (SEQ / "pursuer_repulsed_in_own_phase.toml").read_text(encoding="utf-8")
    case = (
        case.replace(
            'state = "pursuit"\npursuing = "y"\nprofile = { id = "inf"',
            'repulsed_pursuing = true\nacted = "melee"\nprofile = { id = "inf"',
            1,
        )
        .replace("{ x = 52.0, y = 50.0, facing = 90.0 }", "{ x = 56.0, y = 50.0, facing = 90.0 }", 1)
        .replace("{ x = 50.0, y = 53.0, facing = 270.0 }", "{ x = 53.0, y = 53.5, facing = 270.0 }", 1)
    )
    (tmp_path / "p0.toml").write_text(case, encoding="utf-8")
    capsys.readouterr()
    argv = ["move", str(tmp_path / "p0.toml"), "--unit", "x", "--repulse", "bp"]
    assert main([*argv, "--apply", "-o", str(tmp_path / "p1.toml")]) == 1
    err = capsys.readouterr().err
    assert "(rule 1.4.2)" in err and "control zone of enemy figure bp/0" in err, err
    assert not (tmp_path / "p1.toml").exists()


def test_3_2_4_a_pursuit_move_goes_round_impassable_ground(tmp_path: Path) -> None:
    """3.2.4, 6.7.4, 6.7.5 — impassable ground across the pursuer's way (x 40..80, y 56..58): it
    used to stop the pursuer at its edge (centre y 55); now the pursuer goes round it
    (docs/decisions.md "Pursuit round own units"). Worked by hand: the ground grown by the base is
    the box of centres x 39..81, y 55..59; the two ends are equally far, sqrt(21² + 5²) cm to the
    corner (39, 55) or (81, 55), and the way round the west end is taken (the first found; round
    the east end `pan` would stop it). Its 3 + 4 = 14 cm take it 14 cm towards that corner, short
    of the ground, not reaching `rep`."""
    text = (MORALE / "pursuit_move.toml").read_text(encoding="utf-8")
    text = text.replace(
        "[[units]]",
        '[[terrain]]\nid = "cliff"\nkind = "impassable"\npolygon = [[40, 56], [80, 56], [80, 58], [40, 58]]\n\n[[units]]',
        1,
    )
    case = tmp_path / "cliff.toml"
    case.write_text(text, encoding="utf-8")
    out = tmp_path / "next.toml"
    assert _cli_code(["morale", str(case), "--side", "A", "--apply", "--dice", "5,3,4", "-o", str(out)]) == 0
    (base,) = load_scenario(out).unit("pursuer").bases
    leg = math.hypot(21.0, 5.0)
    assert (base.x, base.y) == pytest.approx((60.0 - 14.0 * 21.0 / leg, 50.0 + 14.0 * 5.0 / leg), abs=1e-5)


def test_2_2_1_v_the_phase_question_lists_the_enemys_pursuers(capsys: pytest.CaptureFixture[str]) -> None:
    """2.2.1 V — `morale --side A` shows B's unit pursuing A's `rep`: 14 cm, reached on 2d6 ≥ 7
    (21/36 = 58.3 %, no reorganisation test in A's phase)."""
    assert main(["morale", str(MORALE / "enemy_pursuer.toml"), "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert (
        "pursuer: pursuit of rep, 14.00 cm away, 14.00 cm to contact: 2d6 × 2 cm; reaches it: 58.3% (6.7.1)"
        in out
    )


def test_2_2_1_v_the_enemys_pursuer_reaches_after_the_flight(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.2.1 IV before V — `morale --side A` of the audit's example: B's hussars 17 cm behind A's
    panicking `pan`, which reorganises and stands (2/3) or first flees 2d6 × 2 cm: the hussars'
    2d6 × 4 cm reach it 11/16 = 68.8 % of the time (it said 83.3 %, as if `pan` stood still), and
    the text says why; the JSON keeps its fields (tests/cases/morale/, worked by hand there)."""
    text = (
        Path(__file__).parent / "cases" / "morale" / "2_2_1_v_the_enemy_pursuer_moves_after_the_flight.toml"
    ).read_text(encoding="utf-8")
    case = tmp_path / "flight_first.toml"
    case.write_text(text[: text.index("\n[expected]")] + "\n", encoding="utf-8")
    assert main(["morale", str(case), "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert (
        "hussars: pursuit of pan, 17.00 cm away, 17.00 cm to contact: 2d6 × 4 cm; reaches it: 68.8% (6.7.1)"
        in out
    )
    assert (
        "pan flees first (2.2.1 IV) unless it reorganises: 33.3%; the chance to reach counts its flight"
        in out
    )
    assert main(["morale", str(case), "--side", "A", "--json"]) == 0
    (them,) = json.loads(capsys.readouterr().out)["enemy_pursuits"]
    assert them["reach_chance"] == pytest.approx(11 / 16) and "flees_first" not in them


def test_2_2_1_v_the_enemys_pursuer_reaches_within_the_contact_tolerance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.2.1 V, 6.7.4, PD-3 — `rep` 0.03 cm further than 14 cm: a roll of 14 cm leaves the pursuer
    within the contact tolerance (0.05 cm), so it reaches on 2d6 ≥ 7 (58.3 %) in A's phase, as B's
    own report counts it (there, 1/3 that it moves rather than reorganises: 7/36)."""
    text = (MORALE / "enemy_pursuer.toml").read_text(encoding="utf-8")
    case = tmp_path / "near.toml"
    case.write_text(text.replace("x = 60.0, y = 66.0,", "x = 60.0, y = 66.03,"), encoding="utf-8")
    assert main(["morale", str(case), "--side", "A"]) == 0
    assert "14.03 cm to contact: 2d6 × 2 cm; reaches it: 58.3% (6.7.1)" in capsys.readouterr().out
    assert main(["morale", str(case), "--side", "B", "--json"]) == 0
    (unit,) = json.loads(capsys.readouterr().out)["units"]
    assert unit["pursuit"]["reach_chance"] == pytest.approx(7 / 36)


def test_4_5_5_out_of_range_needs_no_dice_and_takes_none(tmp_path: Path) -> None:
    """4.5.5 — applied out of range without dice: the action is lost (exit 0); with dice: refused
    (exit 2: no die is rolled), nothing written."""
    pos = _fire_position(tmp_path, "4_5_5_out_of_range_loses_the_action.toml")
    argv = ["fire", str(pos), "--shooter", "s", "--target", "b", "--apply"]
    assert _cli_code([*argv, "-o", str(tmp_path / "a.toml")]) == 0
    assert _cli_code([*argv, "--dice", "1", "-o", str(tmp_path / "b.toml")]) == 2
    assert not (tmp_path / "b.toml").exists()


def _pursuer_melee(position: Path, seed: int) -> list[str]:
    """``melee --apply --roll``: the pursuer attacks `rep` on ``position``."""
    return [
        "melee",
        str(position),
        "--attacker",
        "pursuer",
        "--defender",
        "rep",
        "--apply",
        "--roll",
        "--seed",
        str(seed),
    ]


def test_6_6_2_6_7_1_after_a_melee_the_loser_flees_and_the_winner_pursues_at_once(tmp_path: Path) -> None:
    """6.6.2, 6.7.1 ("natychmiast") — the bundled cavalry melee with seed 10: the chevaulegers
    panic and flee at once (2d6 × 4), then the cuirassiers, failing their pursuit test, move at
    once after them (2d6 × 4) — the dice after the melee's. The position written has no problem
    (a pursuer next to the unit it pursues is not a zone intrusion, 6.7.4), and the log replays."""
    from szwadron.loading import bundled_scenario
    from szwadron.table.audit import audit

    start = tmp_path / "start.toml"
    start.write_text(Path(bundled_scenario()).read_text(encoding="utf-8"), encoding="utf-8")
    out, log = tmp_path / "next.toml", tmp_path / "game.jsonl"
    argv = ["melee", str(start), "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers"]
    import contextlib
    import io

    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        code = main([*argv, "--apply", "--roll", "--seed", "10", "-o", str(out), "--log", str(log)])
    assert code == 0
    said = text.getvalue()
    assert "outcome: attacker pursuit, defender panic" in said
    assert "au-chevaulegers flees: 3 + 1 → 16 cm" in said and "fr-cuirassiers pursues: 4 + 2 → 24 cm" in said
    before = {b.y for b in load_scenario(start).unit("au-chevaulegers").bases}
    after = load_scenario(out)
    assert {b.y for b in after.unit("au-chevaulegers").bases} != before
    assert not audit(after).problems
    replayed = tmp_path / "replayed.toml"
    assert _cli_code(["replay", str(log), "-o", str(replayed)]) == 0
    assert replayed.read_bytes() == out.read_bytes()


REPULSE = Path(__file__).parent / "cases" / "repulse"


def _repulse_position(tmp_path: Path, case: str) -> tuple[Path, dict[str, Any]]:
    """A repulse case's scenario as a player's file, and its [check]."""
    data = tomllib.loads((REPULSE / case).read_text(encoding="utf-8"))
    check, _expected = data.pop("check"), data.pop("expected")
    text = (REPULSE / case).read_text(encoding="utf-8")
    path = tmp_path / "position.toml"
    path.write_text(text[: text.index("[check]")], encoding="utf-8")
    return path, check


def test_6_5_the_repulse_move_is_applied_at_once(tmp_path: Path) -> None:
    """6.5.2, 6.5.3 — `move --repulse ENEMY --apply` writes the repulse move (here 9.75 cm back
    to the fence, the case worked by hand), whoever's turn it is, and the log replays it."""
    pos, check = _repulse_position(tmp_path, "6_5_2_onto_a_fence_not_blocked.toml")
    out, log = tmp_path / "next.toml", tmp_path / "game.jsonl"
    argv = ["move", str(pos), "--unit", check["unit"], "--repulse", check["enemy"], "--apply"]
    assert _cli_code([*argv, "-o", str(out), "--log", str(log)]) == 0
    ys = sorted(b.y for b in load_scenario(out).unit(check["unit"]).bases)
    assert ys == pytest.approx([20.0 - 9.75, 20.0 - 9.75])
    replayed = tmp_path / "replayed.toml"
    assert (
        _cli_code(["replay", str(log), "-o", str(replayed)]) == 0
        and replayed.read_bytes() == out.read_bytes()
    )


def test_6_5_5_a_blocked_repulse_applied_panics(tmp_path: Path) -> None:
    """6.5.5 — no legal move away: applied, the unit stays where it is and panics."""
    pos, check = _repulse_position(tmp_path, "6_5_5_blocked_by_terrain.toml")
    out = tmp_path / "next.toml"
    before = [(b.x, b.y) for b in load_scenario(pos).unit(check["unit"]).bases]
    argv = ["move", str(pos), "--unit", check["unit"], "--repulse", check["enemy"], "--apply", "-o", str(out)]
    assert _cli_code(argv) == 0
    after = load_scenario(out).unit(check["unit"])
    assert after.state.value == "panic" and [(b.x, b.y) for b in after.bases] == before


def _battery_melee(position: Path) -> list[str]:
    """``melee --apply``: the line attacks the battery on ``position`` (dice to follow)."""
    return ["melee", str(position), "--attacker", "a", "--defender", "gun", "--apply"]


def test_6_3_6_applied_a_second_opponent_keeps_the_attacker_from_pursuit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """6.3.6 — `melee --apply` of the known-answer case: the dice are a's (1), d's (1), d's repulse
    and panic tests (6, 6: both fail against 0), then d's flight at once (3 + 3, 6.6.2): `a` rolls
    no pursuit test, since `e` still engages it, and stays normal (before, a fifth die was its
    pursuit test); with `--pursue` (6.3.6, 5.5.8: the player's choice instead of the roll) too:
    there is no test to forgo."""
    pos = _position(tmp_path, "6_3_6_a_second_opponent_keeps_the_attacker_from_pursuit.toml")
    for extra in ([], ["--pursue"]):
        out = tmp_path / f"next{len(extra)}.toml"
        argv = [
            "melee",
            str(pos),
            "--attacker",
            "a",
            "--defender",
            "d",
            "--apply",
            "--dice",
            "1,1,6,6,3,3",
            *extra,
        ]
        assert main([*argv, "-o", str(out)]) == 0
        text = capsys.readouterr().out
        assert (
            "a takes no pursuit test: e still engaged with it, neither repulsed nor in panic (6.3.6)" in text
        )
        after = load_scenario(out)
        assert after.unit("a").state.value == "normal" and after.unit("a").pursuing is None
        assert after.unit("d").state.value == "panic"


def test_2_1_4_the_side_with_the_initiative_plays_first(tmp_path: Path) -> None:
    """2.1.1-2.1.4 — a ``[turn]`` giving side B the initiative and naming no side to play starts
    at B's morale phase; the phases follow as 2.1.2-2.1.3 order them, and round 2 opens with B."""
    position = tmp_path / "p.toml"
    position.write_text((SEQ / "initiative_b.toml").read_text(encoding="utf-8"), encoding="utf-8")
    seen = []
    for _ in range(5):
        turn = load_scenario(position).turn
        assert turn is not None
        seen.append((turn.round, turn.side, turn.phase.value))
        assert main(["turn", str(position), "--apply", "--in-place"]) == 0
    assert seen == [
        (1, "B", "morale"),
        (1, "B", "movement"),
        (1, "A", "morale"),
        (1, "A", "movement"),
        (2, "B", "morale"),
    ]
