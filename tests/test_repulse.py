"""6.5, 5.5.6 — the repulse move (szwadron.table.movement.repulse) and ``szwadron move --repulse``
(issue 15). Known-answer files in tests/cases/repulse/ (scenario + ``[check]`` + ``[expected]``)."""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from szwadron.cli import main
from szwadron.documents import document_schema
from szwadron.geometry.bases import base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import parse_scenario
from szwadron.table.movement import in_field_of_fire, repulse

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases" / "repulse"


def _scenario_path(case: Path, tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    """The case without its [check] and [expected] tables, as a scenario file."""
    text = case.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    body = text.split("\n[check]")[0]
    path = tmp_path / case.name
    path.write_text(body, encoding="utf-8")
    return path, data["check"], data["expected"]


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path, tmp_path: Path) -> None:
    assert case.read_text(encoding="utf-8").startswith("# Rule"), f"{case.name}: cite the rule"
    path, check, expected = _scenario_path(case, tmp_path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    r = repulse(parse_scenario(data, source=str(path), folders=[]), check["unit"], check["enemy"])
    assert r.blocked is expected["blocked"]
    argv = ["move", str(path), "--unit", check["unit"], "--repulse", check["enemy"], "--json"]
    code, out, err = _cli(*argv)
    assert code == (1 if expected["blocked"] else 0), err
    doc = json.loads(out)
    assert document_schema(argv) == "move-repulse.schema.json"
    schema = json.loads((REPO / "schemas" / "output" / document_schema(argv)).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    for key, want in expected.items():
        got = doc[key]
        assert (got == pytest.approx(want)) if isinstance(want, (float, list)) else got == want, key
    if not expected["blocked"]:
        assert doc["move"]["legal"] is True


def test_6_5_text_report(tmp_path: Path) -> None:
    path, _, _ = _scenario_path(CASES / "6_5_5_blocked_by_terrain.toml", tmp_path)
    code, out, _ = _cli("move", str(path), "--unit", "a", "--repulse", "e")
    assert code == 1 and "BLOCKED" in out and "6.5.5" in out and "panics" in out
    path, _, _ = _scenario_path(CASES / "6_5_straight_back.toml", tmp_path)
    code, out, _ = _cli("move", str(path), "--unit", "a", "--repulse", "e")
    assert code == 0 and "12.00 cm" in out and "LEGAL" in out


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--repulse", "e", "--to", "m.toml"], "--to MOVEFILE, or --repulse"),
        ([], "--to MOVEFILE, or --repulse"),
        (["--repulse", "e", "--charge", "e"], "--charge does not go with --repulse"),
        (["--repulse", "a"], "on a's side"),
        (["--repulse", "zz"], "zz"),
    ],
)
def test_6_5_bad_input(tmp_path: Path, extra: list[str], fragment: str) -> None:
    path, _, _ = _scenario_path(CASES / "6_5_straight_back.toml", tmp_path)
    code, out, err = _cli("move", str(path), "--unit", "a", *extra)
    assert code == 2, err
    assert fragment in err and "Traceback" not in err and out == ""


def test_6_5_2_field_of_fire_is_arc_and_range_of_figures_that_fire(tables: Any) -> None:
    """6.5.2 with 4.4.1, 4.5.1: a base is in the enemy's field of fire when its centre is in an arc
    of an edge the enemy may fire through and within its Z, edge to edge; cavalry (SO 0, Z 0)
    has none; a battery (4.4.3) only its front arc."""

    def at(x: float, y: float) -> Any:
        return base_corners(x, y, 90.0, 2.0, 2.0)[None]

    target = tables.unit("a", "A", [{"x": 50.0, "y": 80.0, "facing": 90.0}])
    for kind, cases in (
        (
            "infantry",
            [((50.0, 45.0), True), ((50.0, 46.1), False), ((30.0, 20.0), True), ((20.0, 20.0), False)],
        ),
        ("cavalry", [((50.0, 25.0), False)]),
        ("foot_artillery", [((50.0, 81.0), True), ((50.0, 84.0), False), ((80.0, 20.0), False)]),
    ):
        enemy = tables.unit("e", "B", [{"x": 50.0, "y": 20.0, "facing": 90.0}], kind=kind)
        bf = Battlefield(tables.scenario(target, enemy))
        for (x, y), want in cases:
            assert in_field_of_fire(bf, "e", at(x, y)) is want, (kind, x, y)
