"""CLI ``szwadron move``, ``szwadron melee``, ``szwadron reach`` run in-process: JSON keys, exit
codes (0 yes, 1 no, 2 bad input), one-line errors naming the file and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from szwadron.cli import main
from szwadron.loading import bundled_scenario

EXAMPLE = str(bundled_scenario())
MOVE_CASES = Path(__file__).parent / "cases" / "move"


def _write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "m.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def _hussars(dy: float) -> str:
    return "".join(
        f"[[bases]]\nindex = {k}\nx = {15.0 + 2 * k}\ny = {30.0 + dy}\nfacing = 90.0\n" for k in range(4)
    )


def test_move_json_keys_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok = _write(tmp_path, _hussars(28.0))
    assert main(["move", EXAMPLE, "--unit", "fr-hussars", "--to", ok, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert list(doc)[:5] == ["schema_version", "legal", "rule", "message", "bases"]
    assert doc["legal"] is True and doc["rule"] is None
    assert set(doc["bases"][0]) >= {"base", "distance", "allowed", "surcharges"}
    assert doc["bases"][0]["distance"] == 28.0 and doc["bases"][0]["allowed"] == 28.0
    far = _write(tmp_path, _hussars(28.1))
    assert main(["move", EXAMPLE, "--unit", "fr-hussars", "--to", far]) == 1
    out = capsys.readouterr().out
    assert "ILLEGAL [3.1.5]" in out and "fr-hussars/0" in out


def test_move_fence_surcharge_in_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The example's 2/17e stands at the fence: 8 cm forward costs 12 (3.2.3) for its front rank."""
    text = "".join(
        f"[[bases]]\nindex = {k}\nx = {121.0 + 2 * (k % 6)}\ny = {(42.75 if k < 6 else 40.75) + 8}"
        "\nfacing = 90.0\n"
        for k in range(12)
    )
    assert main(["move", EXAMPLE, "--unit", "fr-line-2", "--to", _write(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    assert "+ 4.00 (3.2.3 fence) = 12.00 of 12 cm" in out


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            "[[bases]]\nindex = 9\nx = 1.0\ny = 1.0\nfacing = 0.0\n",
            "bases[0].index: unit 'fr-hussars' has no base 9",
        ),
        ("[[bases]]\nindex = 0\nx = nan\ny = 30.0\nfacing = 90.0\n", "bases[0].x: expected a finite number"),
        (
            "[[bases]]\nindex = 0\nx = 500.0\ny = 30.0\nfacing = 90.0\n",
            "bases[0]: the new pose is off the table",
        ),
        (
            "[[bases]]\nindex = 0\nx = 15.0\ny = 31.0\nfacing = 90.0\nwaypoints = [[15.0, 30.5]]\n",
            "bases[0].waypoints: waypoint 0: expected 3 numbers",
        ),
        ("bases = 3\n", "bases"),
    ],
)
def test_move_bad_input_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fragment: str
) -> None:
    path = _write(tmp_path, text)
    assert main(["move", EXAMPLE, "--unit", "fr-hussars", "--to", path]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert path in err and fragment in err


def test_move_unknown_unit_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["move", EXAMPLE, "--unit", "nobody", "--to", _write(tmp_path, _hussars(1))]) == 2
    assert "no unit 'nobody'" in capsys.readouterr().err


def test_move_charge_case_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A known-answer case run through the CLI: the charge that closes (5.9.2)."""
    import tomllib

    data = tomllib.loads((MOVE_CASES / "5_9_2_charge_closes.toml").read_text(encoding="utf-8"))
    move = data.pop("move")
    data.pop("expected")
    data.pop("check")
    scen = tmp_path / "s.toml"
    lines = ["name = 'charge'", "[table]", "width = 100.0", "depth = 100.0"]
    for u in data["units"]:
        p = u["profile"]
        prof = ", ".join(f"{k} = {json.dumps(v)}" for k, v in p.items())
        bases = ", ".join(f"{{ x = {b['x']}, y = {b['y']}, facing = {b['facing']} }}" for b in u["bases"])
        lines += [
            "[[units]]",
            f"id = '{u['id']}'",
            f"side = '{u['side']}'",
            f"profile = {{ {prof} }}",
            f"bases = [{bases}]",
        ]
    scen.write_text("\n".join(lines) + "\n", encoding="utf-8")
    b = move["bases"][0]
    mv = _write(tmp_path, f"[[bases]]\nindex = 0\nx = {b['x']}\ny = {b['y']}\nfacing = {b['facing']}\n")
    assert main(["move", str(scen), "--unit", "h", "--to", mv, "--charge", "e", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["contacts"] == ["h/0"]
    assert main(["move", str(scen), "--unit", "h", "--to", mv]) == 1  # no charge: 1.4.2
    assert "[1.4.2]" in capsys.readouterr().out


def test_melee_json_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["melee", EXAMPLE, "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers", "--json"])
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert list(doc)[:10] == [
        "schema_version",
        "attacker_in_contact",
        "defender_in_contact",
        "groups",
        "joint_pmf",
        "attacker_removed_pmf",
        "defender_removed_pmf",
        "outcomes",
        "removal_order",
        "attacker",
    ]
    assert sum(map(sum, doc["joint_pmf"])) == pytest.approx(1.0, abs=1e-12)
    assert main(["melee", EXAMPLE, "--attacker", "fr-cuirassiers", "--defender", "au-chevaulegers"]) == 0
    assert "Removal order (5.4.3" in capsys.readouterr().out
    assert main(["melee", EXAMPLE, "--attacker", "fr-hussars", "--defender", "au-grenzer"]) == 1
    assert "no melee" in capsys.readouterr().err
    assert main(["melee", EXAMPLE, "--attacker", "fr-hussars", "--defender", "fr-line-1"]) == 2
    assert "same side" in capsys.readouterr().err


def test_reach_json_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["reach", EXAMPLE, "--unit", "au-cuirassiers", "--target", "fr-battery", "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert {"reachable", "base", "length", "allowed", "path", "how"} <= set(doc)
    assert doc["reachable"] is False
    # the example's cuirassiers already touch the chevaulegers: reachable at no cost
    assert main(["reach", EXAMPLE, "--unit", "fr-cuirassiers", "--target", "au-chevaulegers"]) == 0
    out = capsys.readouterr().out
    assert "CAN reach" in out and "= 0.00 cm" in out and "method: A* on a 0.5 cm grid" in out
    assert main(["reach", EXAMPLE, "--unit", "fr-volt", "--target", "fr-line-1"]) == 2
