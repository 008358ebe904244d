"""4.12.3, 4.12.6 — fire in the opponent's turn applied at the table: the declared fire that
interrupts a move (``fire --reaction declared --target-at MOVEFILE --apply``) and the undeclared
fire at the first unit that charges the shooter (``fire --reaction charged [--target-at MOVEFILE]
--apply``). The known-answer scenarios (``tests/cases/reaction_apply``) cite the Polish sentences
and were worked by hand; the move files place the target where it is fired at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.game.apply import (
    Position,
    apply_declare,
    apply_fire,
    apply_melee,
    apply_move,
    apply_next_phase,
    position_from_text,
)
from szwadron.movefile import load_move_file

CASES = Path(__file__).parent / "cases" / "reaction_apply"
MOVES = CASES / "moves"


def _pos(name: str) -> Position:
    return position_from_text((CASES / name).read_text(encoding="utf-8"), name)


def _next(pos: Position, times: int = 1) -> Position:
    for _ in range(times):
        pos = position_from_text(apply_next_phase(pos).text, "next")
    return pos


def _charged(move_first: bool = True) -> Position:
    """a stands through side A's movement phase; in side B's movement phase b charges it (into
    contact, when ``move_first``)."""
    pos = _next(_pos("4_12_6_charger.toml"), 2)  # A's movement phase ends: a stood; B's morale, movement
    if move_first:
        applied = apply_move(pos, "b", load_move_file(MOVES / "charge_contact.toml"), charge=["a"])
        pos = position_from_text(applied.text, "charged")
    return pos


def _ys(pos: Position, unit: str) -> list[float]:
    return [b.y for b in pos.scenario.unit(unit).bases]


def test_case_files_cite_the_rule() -> None:
    for path in sorted(CASES.glob("*.toml")):
        assert path.read_text(encoding="utf-8").startswith("# Rule"), f"{path.name}: cite the rule"


def test_4_12_6_a_unit_that_took_no_action_has_stood() -> None:
    """4.12.6 — at the end of its side's movement phase a unit that took no action and declared
    none is marked ``stood``; the mark is gone at the end of the opponent's movement phase."""
    start = _pos("4_12_6_charger.toml")
    assert not start.scenario.unit("a").stood
    pos = _next(start)
    assert pos.scenario.unit("a").stood and not pos.scenario.unit("b").stood
    later = _next(pos, 2)  # B's morale and movement phases end
    assert not later.scenario.unit("a").stood and later.scenario.unit("b").stood


def test_4_12_6_a_unit_that_acted_or_declared_has_not_stood() -> None:
    """4.12.6 — "nie wykonała żadnej akcji ... i nie zadeklarowała": the declaration is an action."""
    pos = position_from_text(apply_declare(_pos("4_12_6_charger.toml"), "a").text, "declared")
    pos = _next(pos, 2)  # side B's movement phase
    assert not pos.scenario.unit("a").stood
    applied = apply_move(pos, "b", load_move_file(MOVES / "charge_contact.toml"), charge=["a"])
    with pytest.raises(IllegalActionError) as err:
        apply_fire(
            position_from_text(applied.text, "c"),
            "a",
            "b",
            dice=[1, 2],
            morale_dice=[6, 6],
            charged=True,
            target_at=load_move_file(MOVES / "charge_point.toml"),
        )
    assert err.value.rule == "4.12.6"


def test_4_12_6_the_charger_hit_and_panicking_stops_where_it_was_fired_at() -> None:
    """The worked case: 1, 2 -> one figure removed; 6, 6 -> b panics and its charge stops 4 cm
    from a (y = 16); a's fire at a charger is spent."""
    pos = _charged()
    assert _ys(pos, "b") == [12.0, 12.0]
    applied = apply_fire(
        pos,
        "a",
        "b",
        dice=[1, 2],
        morale_dice=[6, 6],
        charged=True,
        target_at=load_move_file(MOVES / "charge_point.toml"),
    )
    assert applied.ruling["damage"] == 2 and applied.ruling["strength"] == 1
    assert applied.ruling["morale"] == "panic"
    assert [t["target"] for t in applied.dice["morale"]] == [2, 2]
    assert applied.inputs["charged"] is True and len(applied.inputs["target_at"]) == 2
    nxt = position_from_text(applied.text, "fired")
    b, a = nxt.scenario.unit("b"), nxt.scenario.unit("a")
    assert b.state.value == "panic" and b.strength == 1 and _ys(nxt, "b") == [16.0]
    assert b.acted is not None and b.acted.value == "charge"
    assert not a.stood and a.acted is None  # spent; a's own action is untouched (B's turn)
    assert any("4.12.3" in n for n in applied.notes)


def test_4_12_6_the_charger_unhurt_stands_in_contact() -> None:
    """4, 5 -> no damage, no test: b stays where its charge took it, in contact, for the melee."""
    pos = _charged()
    applied = apply_fire(
        pos, "a", "b", dice=[4, 5], charged=True, target_at=load_move_file(MOVES / "charge_point.toml")
    )
    assert applied.ruling["damage"] == 0 and applied.ruling["morale"] == "no_test"
    nxt = position_from_text(applied.text, "fired")
    assert _ys(nxt, "b") == [12.0, 12.0] and nxt.scenario.unit("b").state.value == "normal"
    assert any("goes on" in n for n in applied.notes)


def test_4_12_6_fired_at_before_the_charge_is_moved() -> None:
    """The fire may come before the charge is moved: b repulsed (6, then 1) stops at the point it
    was fired at, its charge spent (2.3: it cannot charge again)."""
    pos = _charged(move_first=False)
    applied = apply_fire(
        pos,
        "a",
        "b",
        dice=[1, 2],
        morale_dice=[6, 1],
        charged=True,
        target_at=load_move_file(MOVES / "charge_point.toml"),
    )
    assert applied.ruling["morale"] == "repulsed"
    nxt = position_from_text(applied.text, "fired")
    b = nxt.scenario.unit("b")
    assert b.state.value == "normal" and _ys(nxt, "b") == [16.0] and b.acted.value == "charge"  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError) as err:
        apply_move(
            nxt,
            "b",
            {"unit": "b", "bases": [{"index": 0, "x": 10.0, "y": 12.0, "facing": 270.0}]},
            charge=["a"],
        )
    assert err.value.rule == "2.3"


def test_4_12_6_only_the_first_charger_and_only_once() -> None:
    """Spent on b, a may not fire at c; nor in its own turn; nor at a charger in contact without
    being placed at a point of its charge (4.1.1: in contact a is engaged)."""
    pos = _charged()
    applied = apply_fire(
        pos, "a", "b", dice=[4, 5], charged=True, target_at=load_move_file(MOVES / "charge_point.toml")
    )
    nxt = position_from_text(applied.text, "fired")
    with pytest.raises(IllegalActionError) as err:
        apply_fire(nxt, "a", "c", dice=[1, 1], charged=True)
    assert err.value.rule == "4.12.6"
    with pytest.raises(IllegalActionError) as err:  # in contact, not placed before it
        apply_fire(pos, "a", "b", dice=[1, 1], charged=True)
    assert err.value.rule == "4.1.1"
    own = _pos("4_12_6_charger.toml")
    with pytest.raises(IllegalActionError) as err:
        apply_fire(own, "a", "b", dice=[1, 1], charged=True)
    assert err.value.rule == "4.12.6" and "own turn" in str(err.value)


def test_4_12_6_a_second_charger_while_the_first_is_in_contact() -> None:
    """4.12.6 "pierwszą jednostkę": with b in contact, c charging too is not the first: a,
    touching b, is engaged with another unit."""
    pos = _charged()
    with pytest.raises(IllegalActionError) as err:
        apply_fire(
            pos,
            "a",
            "c",
            dice=[1, 1],
            charged=True,
            target_at={"unit": "c", "bases": [{"index": 0, "x": 14.0, "y": 16.0, "facing": 270.0}]},
        )
    assert err.value.rule == "4.12.6" and "b" in str(err.value)


def _declared() -> Position:
    pos = position_from_text(apply_declare(_pos("4_12_3_interrupt.toml"), "a").text, "declared")
    return _next(pos, 2)


def test_4_12_3_the_interrupted_target_repulsed_stops_there() -> None:
    """The worked case: 1, 2 and 6, 1 -> b repulsed at y = 30, its move spent; a's declaration
    spent."""
    applied = apply_fire(
        _declared(),
        "a",
        "b",
        dice=[1, 2],
        morale_dice=[6, 1],
        declared=True,
        target_at=load_move_file(MOVES / "interrupt_point.toml"),
    )
    assert applied.ruling["morale"] == "repulsed" and applied.ruling["strength"] == 1
    nxt = position_from_text(applied.text, "fired")
    b = nxt.scenario.unit("b")
    assert _ys(nxt, "b") == [30.0] and b.acted.value == "move"  # type: ignore[union-attr]
    assert not nxt.scenario.unit("a").declared


def test_4_12_3_the_interrupted_target_that_stands_goes_on() -> None:
    applied = apply_fire(
        _declared(),
        "a",
        "b",
        dice=[5, 6],
        declared=True,
        target_at=load_move_file(MOVES / "interrupt_point.toml"),
    )
    nxt = position_from_text(applied.text, "fired")
    assert _ys(nxt, "b") == [40.0, 40.0] and nxt.scenario.unit("b").acted is None


def test_4_12_4_out_of_range_at_the_interrupt_the_fire_is_lost() -> None:
    applied = apply_fire(
        _declared(), "a", "b", declared=True, target_at=load_move_file(MOVES / "interrupt_far.toml")
    )
    assert applied.ruling["lost"] == "4.5.5" and applied.ruling["reason"]["rule"] == "4.12.4"
    assert applied.dice == {}
    nxt = position_from_text(applied.text, "lost")
    assert not nxt.scenario.unit("a").declared and _ys(nxt, "b") == [40.0, 40.0]
    with pytest.raises(InvalidArgumentError):
        apply_fire(
            _declared(),
            "a",
            "b",
            dice=[1],
            declared=True,
            target_at=load_move_file(MOVES / "interrupt_far.toml"),
        )


def test_target_at_only_for_a_fire_in_the_opponents_turn() -> None:
    with pytest.raises(InvalidArgumentError) as err:
        apply_fire(
            _pos("4_12_3_interrupt.toml"),
            "a",
            "b",
            dice=[1, 1],
            target_at=load_move_file(MOVES / "interrupt_point.toml"),
        )
    assert err.value.parameter == "target_at"


def test_cli_the_charge_and_the_fire_at_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Through the command line, with a game log: turn, turn, charge, fire at the charger; the log
    replays to the same position."""
    p0 = tmp_path / "p0.toml"
    p0.write_text((CASES / "4_12_6_charger.toml").read_text(encoding="utf-8"), encoding="utf-8")
    log = str(tmp_path / "game.jsonl")
    steps = [
        ["turn", str(p0), "--apply", "-o", str(tmp_path / "p1.toml"), "--log", log],
        ["turn", str(tmp_path / "p1.toml"), "--apply", "-o", str(tmp_path / "p2.toml"), "--log", log],
        [
            "move",
            str(tmp_path / "p2.toml"),
            "--unit",
            "b",
            "--charge",
            "a",
            "--to",
            str(MOVES / "charge_contact.toml"),
            "--apply",
            "-o",
            str(tmp_path / "p3.toml"),
            "--log",
            log,
        ],
    ]
    for argv in steps:
        assert main(argv) == 0, capsys.readouterr().err
    fire = [
        "fire",
        str(tmp_path / "p3.toml"),
        "--shooter",
        "a",
        "--target",
        "b",
        "--reaction",
        "charged",
        "--target-at",
        str(MOVES / "charge_point.toml"),
    ]
    assert main(fire) == 0  # the question: a may fire
    out = capsys.readouterr().out
    assert "4.12.6" in out
    assert (
        main(
            [
                *fire,
                "--apply",
                "-o",
                str(tmp_path / "p4.toml"),
                "--log",
                log,
                "--dice",
                "1,2",
                "--morale-dice",
                "6,6",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "panics" in out
    assert main(["replay", log, "-o", str(tmp_path / "r.toml")]) == 0
    text = (tmp_path / "p4.toml").read_text(encoding="utf-8")
    assert (tmp_path / "r.toml").read_text(encoding="utf-8") == text
    after = position_from_text(text, "p4")
    assert after.scenario.unit("b").state.value == "panic" and not after.scenario.unit("a").stood
    # spent: a second fire at the charger is refused (exit 1), nothing written
    again = [fire[0], str(tmp_path / "p4.toml"), *fire[2:]]
    assert main([*again, "--apply", "-o", str(tmp_path / "p5.toml"), "--roll", "--seed", "2059"]) == 1
    assert "4.12.6" in capsys.readouterr().err and not (tmp_path / "p5.toml").exists()


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--target-at", "MOVE", "--apply", "-o", "X", "--roll", "--seed", "1"], "--target-at with --apply"),
    ],
)
def test_cli_target_at_apply_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], needle: str
) -> None:
    scen = tmp_path / "t.toml"
    scen.write_text((CASES / "4_12_3_interrupt.toml").read_text(encoding="utf-8"), encoding="utf-8")
    args = [
        str(tmp_path / "x.toml") if a == "X" else str(MOVES / "interrupt_point.toml") if a == "MOVE" else a
        for a in extra
    ]
    assert main(["fire", str(scen), "--shooter", "a", "--target", "b", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err and not (tmp_path / "x.toml").exists()


def test_json_output_names_the_reaction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "p.toml"
    p.write_text(_charged().text, encoding="utf-8")
    code = main(
        [
            "fire",
            str(p),
            "--shooter",
            "a",
            "--target",
            "b",
            "--reaction",
            "charged",
            "--target-at",
            str(MOVES / "charge_point.toml"),
            "--json",
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["reaction"]["rule"] == "4.12.6" and doc["legal"]


def test_4_12_6_a_melee_spends_the_fire_at_the_first_charger() -> None:
    """4.12.6 "pierwszą jednostkę": once b's charge has been fought, a second charger is not the
    first, whatever came of the melee (a is no longer marked)."""
    pos = _charged()
    fought = position_from_text(apply_melee(pos, "b", "a", seed=2059).text, "fought")
    assert not fought.scenario.unit("a").stood
    if fought.scenario.unit("a").engaged_with:
        return  # still engaged: refused under 4.1.1 anyway (tested above)
    with pytest.raises(IllegalActionError) as err:
        apply_fire(
            fought,
            "a",
            "c",
            dice=[1, 1],
            charged=True,
            target_at={"unit": "c", "bases": [{"index": 0, "x": 14.0, "y": 16.0, "facing": 270.0}]},
        )
    assert err.value.rule == "4.12.6"


def test_4_12_6_a_unit_that_only_moved_is_not_a_charger() -> None:
    """The position shows c's action was a move, not a charge: no fire at it under 4.12.6."""
    pos = _charged(move_first=False)
    step = {
        "unit": "c",
        "bases": [{"index": k, "x": 40.0 + 2 * k, "y": 20.0, "facing": 270.0} for k in range(2)],
    }
    moved = position_from_text(apply_move(pos, "c", step).text, "moved")
    with pytest.raises(IllegalActionError) as err:
        apply_fire(moved, "a", "c", dice=[1, 1], charged=True)
    assert err.value.rule == "4.12.6" and "not a charge" in str(err.value)


def test_4_12_3_a_target_that_has_moved_lists_every_base() -> None:
    """The charge already moved: b/1 not listed would be taken in contact, where it had not come
    yet at the point of the fire; every base must be listed (bad input, nothing applied)."""
    one = {"unit": "b", "bases": [{"index": 0, "x": 10.0, "y": 16.0, "facing": 270.0}]}
    with pytest.raises(InvalidArgumentError) as err:
        apply_fire(_charged(), "a", "b", dice=[1, 1], charged=True, target_at=one)
    assert err.value.parameter == "target_at" and "2 bases" in str(err.value)
    # before its move, the base not listed has not moved yet: it stays at its start
    applied = apply_fire(_charged(move_first=False), "a", "b", dice=[4, 5], charged=True, target_at=one)
    assert applied.ruling["morale"] == "no_test"


def test_6_8_6_a_unit_that_reorganised_has_stood() -> None:
    """6.8.6 "nie wykonuje żadnych akcji w fazie ruchu tej tury. Od następnej tury działa ona
    normalnie": it took no action in its movement phase, so it may fire at a charger (4.12.6)."""
    text = (CASES / "4_12_6_charger.toml").read_text(encoding="utf-8")
    text = text.replace('id = "a"\nside = "A"\n', 'id = "a"\nside = "A"\nacted = "reorganise"\n')
    pos = _next(position_from_text(text, "reorganised"))
    assert pos.scenario.unit("a").stood


def test_4_12_6_round_one_the_second_side_has_not_stood() -> None:
    """Round 1, the first side's turn: the second side had no movement phase of its own yet."""
    text = (CASES / "4_12_6_charger.toml").read_text(encoding="utf-8")
    pos = position_from_text(text, "start")
    step = {
        "unit": "a",
        "bases": [{"index": k, "x": 10.0 + 2 * k, "y": 20.0, "facing": 90.0} for k in range(2)],
    }
    with pytest.raises(IllegalActionError) as err:
        apply_fire(pos, "b", "a", dice=[1, 1], charged=True, target_at=step)
    assert err.value.rule == "4.12.6" and "round 1" in str(err.value)


def test_4_12_5_a_declared_fire_at_the_phase_end_ends_the_phase() -> None:
    """4.12.5 "na koniec fazy ruchu przeciwnika": once it has gone off, side B acts no more in
    that phase (its move and a further interrupt refused) until turn --apply."""
    applied = apply_fire(_declared(), "a", "b", declared=True)  # 28 cm: out of range, lost (4.12.4)
    assert applied.ruling["lost"] == "4.5.5"
    ended = position_from_text(applied.text, "ended")
    assert ended.scenario.turn is not None and ended.scenario.turn.phase_ended
    with pytest.raises(IllegalActionError) as err:
        apply_move(ended, "b", load_move_file(MOVES / "interrupt_point.toml"))
    assert err.value.rule == "4.12.5"
    nxt = _next(ended)
    assert nxt.scenario.turn is not None and not nxt.scenario.turn.phase_ended
    assert "phase_ended" not in nxt.text


def test_march_with_a_reaction_is_bad_input() -> None:
    with pytest.raises(InvalidArgumentError) as err:
        apply_fire(_charged(), "a", "b", dice=[1], charged=True, march=True)
    assert err.value.parameter == "march"
    with pytest.raises(InvalidArgumentError) as err:
        apply_fire(_declared(), "a", "b", dice=[1], declared=True, march=True)
    assert err.value.parameter == "march"


def test_cli_polish_names_the_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """6.3: the tests „na odrzucenie” and „na panikę” by the rulebook's names."""
    p = tmp_path / "p.toml"
    p.write_text(_charged().text, encoding="utf-8")
    argv = ["--lang", "pl", "fire", str(p), "--shooter", "a", "--target", "b", "--reaction", "charged"]
    argv += ["--target-at", str(MOVES / "charge_point.toml"), "--apply", "-o", str(tmp_path / "n.toml")]
    assert main([*argv, "--dice", "1,2", "--morale-dice", "6,6"]) == 0
    out = capsys.readouterr().out
    assert "„na odrzucenie”" in out and "„na panikę”" in out
