"""4.9 moving after fire, 4.11.3 no move after fire on the march, 4.12 fire in the opponent's
turn (szwadron.table.movement.check_move ``after_fire=``, szwadron.table.fire.fire ``target_poses=`` and
``reaction=``, ``szwadron move --after-fire``, ``szwadron fire --target-at --reaction``).

Known-answer files: ``tests/cases/move/after_fire/`` (a move case whose ``[check]`` carries
``after_fire = {target, fired, march}``: the fire of the moving unit the move follows) and
``tests/cases/fire/reaction/`` (a fire case whose ``[expected]`` also carries the question keys
``reaction`` and ``target_at`` — a move file — and the answers ``reaction_rule`` and ``lost``).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from szwadron.cli import main
from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.loading import parse_scenario
from szwadron.table.fire import FireResult, fire
from szwadron.table.movement import check_move, place
from tests.test_fire import _check_case
from tests.test_movement import assert_move_expected

CASES = Path(__file__).parent / "cases"
MOVE_CASES = CASES / "move" / "after_fire"
FIRE_CASES = CASES / "fire" / "reaction"


# ------------------------------------------------------------------------------ known answers


@pytest.mark.parametrize("case", sorted(MOVE_CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_after_fire_known_answer_cases(case: Path) -> None:
    """4.9, 4.11.3 — each file cites its rule; the fire is computed, then the move checked."""
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    expected, check, move = data.pop("expected"), data.pop("check"), data.pop("move")
    scenario = parse_scenario(data, source=str(case), folders=[])
    spec = check["after_fire"]
    for method in ("index", "brute"):
        shot = fire(
            scenario,
            check["unit"],
            spec["target"],
            bases=spec.get("fired"),
            march=spec.get("march", False),
            method=method,
        )  # type: ignore[arg-type]
        report = check_move(
            scenario,
            check["unit"],
            move,
            charge=check.get("charge", ()),
            march=check.get("march", False),
            after_fire=shot,
            method=method,  # type: ignore[arg-type]
            source=case.name,
        )
        assert_move_expected(report, expected, f"{case.name} ({method})")


def _ask_reaction(path: Path, method: str = "index") -> tuple[FireResult, dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    scenario = parse_scenario(data, source=str(path), folders=[])
    r = fire(
        scenario,
        expected["shooter"],
        expected["target"],
        bases=expected.get("bases"),
        target_poses=expected.get("target_at"),
        reaction=expected.get("reaction"),
        method=method,
        source=path.name,
    )  # type: ignore[arg-type]
    return r, expected


@pytest.mark.parametrize("case", sorted(FIRE_CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_reaction_known_answer_cases(case: Path) -> None:
    """4.12.2–4.12.5 — the target placed at the interrupt point, then the fire's answer."""
    r, expected = _ask_reaction(case)
    rest = dict(expected)
    for key in ("reaction", "target_at"):
        rest.pop(key, None)
    if "reaction_rule" in rest:
        assert r.reaction is not None and r.reaction.rule == rest.pop("reaction_rule"), case.name
    if "lost" in rest:
        assert r.reaction is not None and r.reaction.lost is rest.pop("lost"), case.name
    _check_case(case.name, r, rest)
    assert _ask_reaction(case, "brute")[0].to_json() == r.to_json()


def test_known_answer_cases_are_there() -> None:
    assert len(list(MOVE_CASES.glob("*.toml"))) >= 5
    assert len(list(FIRE_CASES.glob("*.toml"))) >= 2


# ------------------------------------------------------------------------------ 4.9 in code


def _pair(tables: SimpleNamespace, a_state: str = "normal", *extra: dict[str, Any]) -> Any:
    return tables.scenario(
        tables.unit("a", "A", tables.line(10, 10, 2), state=a_state),
        tables.unit("b", "B", tables.line(10, 30, 2, facing=270.0)),
        *extra,
        width=60,
        depth=80,
    )


def test_4_9_1_declared_but_unable_base_may_not_move_either(tables: SimpleNamespace) -> None:
    """4.9.1 speaks of the declaration: a declared base that could not fire still stays."""
    sc = tables.scenario(
        tables.unit(
            "a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}, {"x": 30.0, "y": 10.0, "facing": 270.0}]
        ),
        tables.unit("b", "B", tables.line(10, 30, 2, facing=270.0)),
        width=60,
        depth=80,
    )
    shot = fire(sc, "a", "b")
    assert [s.can_fire for s in shot.shooters] == [True, False]
    r = check_move(sc, "a", {"bases": [{"index": 1, "x": 30.0, "y": 8.0, "facing": 270.0}]}, after_fire=shot)
    assert r.rule == "4.9.1" and r.violations[0].base == "a/1"
    assert r.after_fire is not None and r.after_fire.fired == ("a/0",)


def test_4_9_1_no_move_after_a_fire_that_was_not_legal(tables: SimpleNamespace) -> None:
    sc = tables.scenario(
        tables.unit("a", "A", tables.line(10, 10, 2)),
        tables.unit("b", "B", tables.line(10, 70, 2, facing=270.0)),
        width=60,
        depth=80,
    )
    shot = fire(sc, "a", "b", bases=["0"])
    assert not shot.legal
    r = check_move(sc, "a", {"bases": [{"index": 1, "x": 12.0, "y": 8.0, "facing": 90.0}]}, after_fire=shot)
    assert r.rule == "4.9.1" and "could not fire" in r.message


def test_4_9_4_a_base_already_in_a_band_may_leave_it(tables: SimpleNamespace) -> None:
    """Decision: a base that starts inside a band (own figures do not close it, PD-7) does not
    enter it: it may step back out; the other figure may not step into it."""
    sc = tables.scenario(
        tables.unit(
            "a",
            "A",
            [
                {"x": 10.0, "y": 10.0, "facing": 90.0},
                {"x": 12.0, "y": 11.5, "facing": 90.0},
                {"x": 8.0, "y": 10.0, "facing": 90.0},
            ],
        ),
        tables.unit("b", "B", tables.line(10, 30, 2, facing=270.0)),
        width=60,
        depth=80,
    )
    shot = fire(sc, "a", "b", bases=["0"])
    assert "b/1" in _lines(shot, "a/0")
    back = check_move(
        sc, "a", {"bases": [{"index": 1, "x": 12.0, "y": 10.0, "facing": 90.0}]}, after_fire=shot
    )
    assert back.legal, back.message
    ahead = check_move(
        sc,
        "a",
        {"bases": [{"index": 2, "x": 9.5, "y": 12.0, "facing": 90.0, "waypoints": [[8.0, 12.0, 90.0]]}]},
        after_fire=shot,
    )
    assert ahead.rule == "4.9.4", ahead.message


def _lines(r: FireResult, base: str) -> list[str]:
    return [ln.target for s in r.shooters if s.base == base for ln in s.lines]


def test_4_11_2_march_move_after_fire_on_the_march_is_the_half_move(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    shot = fire(sc, "a", "b", march=True)
    ok = check_move(
        sc,
        "a",
        {"bases": [{"index": k, "x": 10.0 + 2 * k, "y": 4.0, "facing": 90.0} for k in range(2)]},
        march=True,
        after_fire=shot,
    )
    assert ok.legal, ok.message
    assert ok.to_json()["after_fire"] == {
        "target": "b",
        "declared": ["a/0", "a/1"],
        "fired": ["a/0", "a/1"],
        "march": True,
    }
    plain = fire(sc, "a", "b", bases=["0"])
    twice = check_move(
        sc, "a", {"bases": [{"index": 1, "x": 12.0, "y": 8.0, "facing": 90.0}]}, march=True, after_fire=plain
    )
    assert twice.rule == "2.3"


def test_4_9_after_fire_of_another_unit_is_bad_input(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    shot = fire(sc, "b", "a")
    with pytest.raises(InvalidDataError, match="after fire"):
        check_move(sc, "a", {"bases": [{"index": 1, "x": 12.0, "y": 8.0, "facing": 90.0}]}, after_fire=shot)


# ------------------------------------------------------------------------------ 4.12 in code


def test_4_12_place_moves_listed_bases_only(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    moved = place(sc, "b", {"bases": [{"index": 1, "x": 12.0, "y": 40.0, "facing": 270.0}]})
    assert [(p.x, p.y) for p in moved.unit("b").bases] == [(10.0, 30.0), (12.0, 40.0)]
    assert sc.unit("b").bases[1].y == 30.0  # the scenario itself is unchanged
    with pytest.raises(InvalidDataError, match="is for unit 'a'"):
        place(sc, "b", {"unit": "a", "bases": [{"index": 0, "x": 1.0, "y": 1.0, "facing": 0.0}]})
    with pytest.raises(InvalidDataError, match="has no base 5"):
        place(sc, "b", {"bases": [{"index": 5, "x": 1.0, "y": 1.0, "facing": 0.0}]})


def test_4_12_3_declared_interrupt_needs_a_moved_figure(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    still = {"bases": [{"index": 0, "x": 10.0, "y": 30.0, "facing": 270.0}]}
    with pytest.raises(IllegalActionError) as err:
        fire(sc, "a", "b", target_poses=still, reaction="declared")
    assert err.value.rule == "4.12.3"


def test_4_12_5_declared_without_interrupt_fires_at_the_end_of_the_phase(tables: SimpleNamespace) -> None:
    r = fire(_pair(tables), "a", "b", reaction="declared")
    assert r.legal and r.reaction is not None and r.reaction.rule == "4.12.5"
    assert r.to_json()["target_at"] is None


@pytest.mark.parametrize("state", ["panic", "pursuit"])
def test_4_12_6_charged_refused_when_not_normal(tables: SimpleNamespace, state: str) -> None:
    r = fire(_pair(tables, state), "a", "b", reaction="charged")
    assert not r.legal and r.reason is not None and r.reason.rule == "4.12.6"
    assert r.reaction is not None and r.reaction.rule == "4.12.6"
    assert all(not s.can_fire for s in r.shooters) and r.odds is None


def test_4_12_6_charged_refused_when_engaged(tables: SimpleNamespace) -> None:
    sc = _pair(
        tables, "normal", tables.unit("c", "B", tables.line(10, 8, 2, facing=90.0))
    )  # touching a's back
    r = fire(sc, "a", "b", reaction="charged")
    assert not r.legal and r.reason is not None and r.reason.rule == "4.12.6"
    assert "engaged" in r.reason.message


def test_4_12_6_charged_fires_at_the_charger(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    at = {"bases": [{"index": k, "x": 10.0 + 2 * k, "y": 20.0, "facing": 270.0} for k in range(2)]}
    r = fire(sc, "a", "b", target_poses=at, reaction="charged")
    assert r.legal and r.reaction is not None and r.reaction.rule == "4.12.6"
    assert [s.distance for s in r.shooters] == [8.0, 8.0]
    doc = r.to_json()
    assert doc["reaction"] == {"kind": "charged", "rule": "4.12.6", "lost": False}
    assert doc["target_at"][0] == {"base": "b/0", "x": 10.0, "y": 20.0, "facing": 270.0}


def test_4_12_reaction_bad_input(tables: SimpleNamespace) -> None:
    sc = _pair(tables)
    with pytest.raises(InvalidDataError, match="expected one of declared, charged"):
        fire(sc, "a", "b", reaction="sneaky")
    with pytest.raises(InvalidDataError, match="not fire on the march"):
        fire(sc, "a", "b", reaction="declared", march=True)


# ------------------------------------------------------------------------------ the CLI


def _write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _scenario_file(tmp_path: Path, case: Path) -> str:
    """The scenario part of a case file (without its [check], [move], [expected])."""
    data = tomllib.loads(case.read_text(encoding="utf-8"))
    lines = [line for line in case.read_text(encoding="utf-8").splitlines()]
    cut = next(i for i, line in enumerate(lines) if line.startswith(("[check]", "[expected]", "[[move")))
    assert data["units"]
    return _write(tmp_path, "s.toml", "\n".join(lines[:cut]) + "\n")


def _poses(*bases: tuple[int, float, float, float], unit: str | None = None) -> str:
    head = f'unit = "{unit}"\n' if unit else ""
    return head + "".join(f"[[bases]]\nindex = {i}\nx = {x}\ny = {y}\nfacing = {f}\n" for i, x, y, f in bases)


def test_cli_move_after_fire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = MOVE_CASES / "4_9_1_not_declared_moves.toml"
    sc = _scenario_file(tmp_path, case)
    back = _write(tmp_path, "m.toml", _poses((1, 12.0, 8.0, 90.0)))
    assert main(["move", sc, "--unit", "a", "--to", back, "--after-fire", "b", "--fired", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["legal"] is True and doc["after_fire"]["declared"] == ["a/0"]
    # default: the bases that could fire (both): a/1 fired and may not move (4.9.1)
    assert main(["move", sc, "--unit", "a", "--to", back, "--after-fire", "b"]) == 1
    out = capsys.readouterr().out
    assert "after fire at b (4.9) — ILLEGAL [4.9.1]" in out
    assert (
        main(["move", sc, "--unit", "a", "--to", back, "--after-fire", "b", "--fired", "0", "--charge", "b"])
        == 1
    )
    assert "[4.9.3]" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--after-fire", "b", "--fired", "a/7"], "no base 'a/7'"),
        (["--after-fire", "b", "--fired", "b/0"], "is not a base of the firing unit"),
        (["--after-fire", "nobody"], "nobody"),
        (["--fired", "0"], "--fired: name the fire's target"),
    ],
)
def test_cli_move_after_fire_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], fragment: str
) -> None:
    sc = _scenario_file(tmp_path, MOVE_CASES / "4_9_1_not_declared_moves.toml")
    back = _write(tmp_path, "m.toml", _poses((1, 12.0, 8.0, 90.0)))
    assert main(["move", sc, "--unit", "a", "--to", back, *extra]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_cli_fire_target_at_in_range_and_lost(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = _scenario_file(tmp_path, FIRE_CASES / "4_12_3_interrupt_in_range.toml")
    near = _write(tmp_path, "near.toml", _poses((0, 10.0, 30.0, 270.0), (1, 12.0, 30.0, 270.0)))
    assert (
        main(
            [
                "fire",
                sc,
                "--shooter",
                "a",
                "--target",
                "b",
                "--target-at",
                near,
                "--reaction",
                "declared",
                "--json",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["reaction"] == {"kind": "declared", "rule": "4.12.3", "lost": False}
    assert [p["base"] for p in doc["target_at"]] == ["b/0", "b/1"]
    assert doc["volley"] == [{"dice": 2, "accuracy": 3}]
    far = _write(tmp_path, "far.toml", _poses((0, 10.0, 50.0, 270.0)))
    assert (
        main(["fire", sc, "--shooter", "a", "--target", "b", "--target-at", far, "--reaction", "declared"])
        == 1
    )
    out = capsys.readouterr().out
    assert "interrupting its move (4.12.3): the fire is LOST" in out
    assert "[4.12.4]" in out


def test_cli_fire_reaction_charged_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (FIRE_CASES / "4_12_3_interrupt_in_range.toml").read_text(encoding="utf-8")
    text = text.replace('id = "a"\nside = "A"\n', 'id = "a"\nside = "A"\nstate = "panic"\n')
    sc = _scenario_file(tmp_path, Path(_write(tmp_path, "case.toml", text)))
    assert main(["fire", sc, "--shooter", "a", "--target", "b", "--reaction", "charged", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["reason"]["rule"] == "4.12.6" and doc["reaction"]["kind"] == "charged"


@pytest.mark.parametrize(
    ("poses", "fragment"),
    [
        (_poses((0, 10.0, 30.0, 270.0), unit="a"), "the move file is for unit 'a'"),
        (_poses((4, 10.0, 30.0, 270.0)), "bases[0].index: unit 'b' has no base 4"),
        (_poses((0, 10.0, 60.0, 270.0)), "move none of its bases"),
        ("bases = 3\n", "bases"),
    ],
)
def test_cli_fire_target_at_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], poses: str, fragment: str
) -> None:
    sc = _scenario_file(tmp_path, FIRE_CASES / "4_12_3_interrupt_in_range.toml")
    at = _write(tmp_path, "at.toml", poses)
    assert (
        main(["fire", sc, "--shooter", "a", "--target", "b", "--target-at", at, "--reaction", "declared"])
        == 2
    )
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err
