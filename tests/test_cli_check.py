"""``szwadron check`` end to end, in-process (docs/decisions.md "The command line"): human report, ``--json``
keys, exit codes 0 / 1 (``--strict`` with problems) / 2 (bad input)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.loading import bundled_scenario

CASES = Path(__file__).parent / "cases" / "check"
CLEAN = CASES / "cli" / "clean.toml"
PROBLEMS = CASES / "cli" / "contacts.toml"


def test_check_human_report_lists_problems_first_with_rule_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(PROBLEMS)]) == 0
    out = capsys.readouterr().out
    first, *rest = out.splitlines()
    assert "6 units, 6 bases: 2 problems" in first
    assert rest[1] == "Problems (2)"
    assert rest[2].startswith("  [1.4.2] unit a05 stands in the control zone of enemy unit b05")
    sections = [line for line in rest if line and not line.startswith(" ")]
    assert sections[0] == "Problems (2)"
    assert any(s.startswith("Units") for s in sections)
    assert "  a1 (side A): 1 base, coherent; engaged with b1" in out
    assert "  a05/0 — b05/0: 0.50 cm" in out


def test_check_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(PROBLEMS), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for key in (
        "units",
        "overlaps",
        "off_table",
        "forbidden_terrain",
        "contacts",
        "zone_intrusions",
        "problems",
    ):
        assert key in doc
    unit = doc["units"][0]
    assert set(unit) >= {"id", "side", "coherent", "groups", "engaged_with"}
    assert unit["groups"] == [["a05/0"]]
    assert set(doc["contacts"][0]) >= {"a", "b", "length"}
    assert set(doc["zone_intrusions"][0]) >= {"base", "zone_of"}
    assert set(doc["problems"][0]) >= {"rule", "message", "bases"}
    assert doc["problems"][0]["rule"] == "1.4.2"
    assert doc["contacts"][1] == {"a": "a1/0", "b": "b1/0", "length": 1.0, "distance": 0.0}


@pytest.mark.parametrize(("path", "code"), [(CLEAN, 0), (PROBLEMS, 1)])
def test_check_strict_exit_code(path: Path, code: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(path), "--strict"]) == code
    assert main(["check", str(path), "--strict", "--json"]) == code
    capsys.readouterr()


def test_check_bad_input_exits_2_with_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert "missing.toml: no such file" in err and "Traceback" not in err
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[table]\nwidth = -1\ndepth = 10\n', encoding="utf-8")
    assert main(["check", str(bad)]) == 2
    assert "table.width" in capsys.readouterr().err


def test_check_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2
    capsys.readouterr()


def test_check_bundled_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bundled_scenario()), "--json"]) in (0, 1)
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["bases"] > 0


def test_check_summary_counts_corner_only_contacts_apart(capsys: pytest.CaptureFixture[str]) -> None:
    """PD-14: a contact of length 0 (corners touching) is listed, but the summary's count of
    enemy contacts is of edges touching; the corner-only ones are counted apart."""
    assert main(["check", str(bundled_scenario())]) in (0, 1)
    out = capsys.readouterr().out
    listed = [
        line
        for line in out.splitlines()
        if line.startswith("  ")
        and " — " in line
        and (line.endswith(" cm") or line.endswith("(corners only)"))
    ]
    corners = sum(line.endswith("(corners only)") for line in listed)
    assert corners > 0  # the bundled battle has some
    summary = out.splitlines()[0]
    assert (
        f"{len(listed) - corners} enemy contact" in summary and f"(and {corners} at corners only)" in summary
    )
