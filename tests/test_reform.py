"""1.3.2, 6.8.5 — the move that makes a unit coherent again (szwadron.table.movement.reform) and
``szwadron move --reform`` (issue 15). Known-answer files in tests/cases/reform/."""

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
from szwadron.errors import InvalidDataError
from szwadron.loading import parse_scenario
from szwadron.table.movement import check_move, reform

REPO = Path(__file__).resolve().parent.parent
CASES = Path(__file__).parent / "cases" / "reform"


def _case(case: Path, tmp_path: Path) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    text = case.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    path = tmp_path / case.name
    path.write_text(text.split("\n[check]")[0], encoding="utf-8")
    return path, data["check"], data["expected"]


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path, tmp_path: Path) -> None:
    assert case.read_text(encoding="utf-8").startswith("# Rule"), f"{case.name}: cite the rule"
    path, check, expected = _case(case, tmp_path)
    argv = ["move", str(path), "--unit", check["unit"], "--reform", "--json"]
    code, out, err = _cli(*argv)
    assert code == (0 if expected["legal"] else 1), err
    doc = json.loads(out)
    schema = json.loads((REPO / "schemas" / "output" / document_schema(argv)).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(doc)
    for key in ("needed", "legal", "groups"):
        assert doc[key] == expected[key], key
    assert doc["proposed"] == [pytest.approx(p) for p in expected["proposed"]]
    if "rule" in expected:
        assert doc["move"]["rule"] == expected["rule"]


def test_1_3_3_the_proposed_move_leaves_the_unit_coherent(tmp_path: Path) -> None:
    """The proposal is an ordinary move: check_move (which holds 1.3.3) finds it legal, and the
    same unit left where it stands is refused nothing — the re-forming is what makes it whole."""
    path, _, _ = _case(CASES / "1_3_2_gap_after_losses.toml", tmp_path)
    sc = parse_scenario(tomllib.loads(path.read_text(encoding="utf-8")), source=str(path), folders=[])
    r = reform(sc, "a")
    assert r.move is not None
    assert check_move(sc, "a", r.move).legal
    # moving a/1 only half the way leaves the unit apart: 1.3.3
    half = {"bases": [{"index": 1, "x": 13.0, "y": 10.0, "facing": 90.0}]}
    assert check_move(sc, "a", half).rule == "1.3.3"


def test_coherent_unit_needs_no_move_and_panicking_unit_is_refused(tables: Any) -> None:
    sc = tables.scenario(
        tables.unit("a", "A", tables.line(10.0, 10.0, 3)),
        tables.unit("p", "A", [{"x": 50.0, "y": 10.0, "facing": 90.0}], state="panic"),
    )
    r = reform(sc, "a")
    assert (r.needed, r.legal, r.move) == (False, True, None)
    with pytest.raises(InvalidDataError, match="reorganises"):
        reform(sc, "p")


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--reform", "--to", "m.toml"], "one of them"),
        (["--reform", "--charge", "e"], "--charge does not go with --reform"),
    ],
)
def test_reform_bad_input(tmp_path: Path, extra: list[str], fragment: str) -> None:
    path, _, _ = _case(CASES / "6_8_5_zone_in_the_way.toml", tmp_path)
    code, out, err = _cli("move", str(path), "--unit", "a", *extra)
    assert code == 2 and fragment in err and out == "" and "Traceback" not in err


def test_reform_text(tmp_path: Path) -> None:
    path, _, _ = _case(CASES / "6_8_5_zone_in_the_way.toml", tmp_path)
    code, out, _ = _cli("move", str(path), "--unit", "a", "--reform")
    assert code == 1 and "not coherent" in out and "ILLEGAL [1.4.2]" in out
