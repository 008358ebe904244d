"""``szwadron morale SCENARIO --side A|B [--json]`` in-process (6.8, 6.6, 6.7; the command line
of docs/decisions.md).

The fixtures of tests/cases/morale/ carry an ``[expected]`` table that is not scenario data: each
test writes the scenario part to a temporary file first.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from szwadron.cli import COMMAND_MODULES, main

CASES = Path(__file__).parent / "cases" / "morale"
ROOT = Path(__file__).resolve().parents[1]

_UNIT_KEYS = (
    "id",
    "state",
    "may_reorganise",
    "reason",
    "reorganise_chance",
    "flight_pmf",
    "off_table_chance",
    "surrenders",
    "pass_through",
)


def _scenario_file(tmp_path: Path, case: str) -> Path:
    """The case's scenario without ``[expected]``, beside a copy of the army lists it needs."""
    text = (CASES / f"{case}.toml").read_text(encoding="utf-8")
    out = tmp_path / "scenarios" / f"{case}.toml"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text[: text.index("\n[expected")] + "\n", encoding="utf-8")
    lists = tmp_path / "armylists"
    lists.mkdir(exist_ok=True)
    for name in ("france", "austria"):
        (lists / f"{name}.toml").write_text(
            (ROOT / "armylists" / f"{name}.toml").read_text(encoding="utf-8"), encoding="utf-8"
        )
    return out


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_morale_is_a_registered_command() -> None:
    assert "morale" in COMMAND_MODULES


def test_json_document_keys_and_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario_file(tmp_path, "6_6_11_through_own_units_boxed_in")
    doc = _json(capsys, "morale", str(path), "--side", "A", "--json")
    assert list(doc) == ["schema_version", "scenario", "side", "units", "casualty_tests", "enemy_pursuits"]
    assert doc["enemy_pursuits"] == []  # 2.2.1 V: no enemy unit pursues this side
    (unit,) = doc["units"]
    assert list(unit)[: len(_UNIT_KEYS)] == list(_UNIT_KEYS)
    assert unit["id"] == "fleeing" and unit["state"] == "panic"
    assert unit["may_reorganise"] is True and "6.8.2" in unit["reason"]
    assert unit["reorganise_chance"] == pytest.approx(2 / 3)
    pmf = unit["flight_pmf"]
    assert [e["cm"] for e in pmf] == list(range(4, 25, 2))
    assert sum(e["p"] for e in pmf) == pytest.approx(1.0, abs=1e-12)
    assert pmf[5] == {"cm": 14, "p": pytest.approx(1 / 6)}
    assert unit["off_table_chance"] == 0.0 and unit["surrenders"] is False
    assert unit["pass_through"] == ["line"]
    (pt,) = unit["pass_through_tests"]
    assert (pt["chance"], pt["panic_chance"]) == (pytest.approx(5 / 18), pytest.approx(5 / 54))
    assert [c["id"] for c in doc["casualty_tests"]] == ["fleeing", "line"]
    row = doc["casualty_tests"][1]["tests"][0]
    assert set(row) >= {"lost", "strength", "target", "pass", "repulsed", "panic"}


def test_json_off_table_chance_counts_the_reorganisation_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scenario_file(tmp_path, "6_6_13_off_table_26_of_36")
    (unit,) = _json(capsys, "morale", str(path), "--side", "b", "--json")["units"]  # side is case-blind
    assert unit["off_table_chance"] == pytest.approx(26 / 36)
    assert unit["figures_lost_pmf"] == [
        {"figures": 0, "p": pytest.approx(10 / 36)},
        {"figures": 1, "p": pytest.approx(26 / 36)},
    ]


def test_json_pursuit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario_file(tmp_path, "6_7_1_pursuit_armylist")
    (unit,) = _json(capsys, "morale", str(path), "--side", "A", "--json")["units"]
    assert unit["flight_pmf"] == [] and unit["pass_through"] == []
    assert unit["pursuit"]["target"] == "running"
    assert unit["pursuit"]["gap_cm"] == pytest.approx(20.0)
    assert unit["pursuit"]["reach_chance"] == pytest.approx(5 / 18)


def test_the_other_side_has_no_unit_to_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario_file(tmp_path, "6_6_12_surrender_boxed_in")
    doc = _json(capsys, "morale", str(path), "--side", "B", "--json")
    assert doc["units"] == [] and [c["id"] for c in doc["casualty_tests"]] == ["enemy"]


def test_human_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario_file(tmp_path, "6_6_12_surrender_boxed_in")
    assert main(["morale", str(path), "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert "fleeing  panic" in out
    assert "may not" in out and "(6.8.2)" in out
    assert "must surrender" in out and "(6.6.12)" in out
    assert "Casualty tests (6.2.4, 6.3)" in out


def test_bundled_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, "morale", str(ROOT / "scenarios" / "example.toml"), "--side", "A", "--json")
    assert doc["side"] == "A" and doc["casualty_tests"]


def test_exit_2_on_unknown_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _scenario_file(tmp_path, "6_6_12_surrender_boxed_in")
    with pytest.raises(SystemExit) as info:
        main(["morale", str(path), "--side", "C"])
    assert info.value.code == 2
    assert "expected A or B" in capsys.readouterr().err


def test_exit_2_on_missing_side(tmp_path: Path) -> None:
    path = _scenario_file(tmp_path, "6_6_12_surrender_boxed_in")
    with pytest.raises(SystemExit) as info:
        main(["morale", str(path)])
    assert info.value.code == 2


def test_exit_2_on_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.toml"
    assert main(["morale", str(missing), "--side", "A"]) == 2
    err = capsys.readouterr().err
    assert "nowhere.toml" in err and "no such file" in err and "Traceback" not in err


def test_exit_2_on_bad_scenario(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    data = tomllib.loads((CASES / "6_6_12_surrender_boxed_in.toml").read_text(encoding="utf-8"))
    assert "expected" in data  # the fixture itself is not a valid scenario
    bad.write_text((CASES / "6_6_12_surrender_boxed_in.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["morale", str(bad), "--side", "A"]) == 2
    assert "expected: unknown field" in capsys.readouterr().err
