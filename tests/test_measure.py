"""``szwadron measure`` and :meth:`Battlefield.measure` — 4.5.2 edge-to-edge distance (PD-3)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import SimpleNamespace

import pytest

from szwadron.cli import main
from szwadron.errors import InvalidDataError
from szwadron.geometry.battlefield import Battlefield

CASES = Path(__file__).parent / "cases" / "check"
CONTACTS = CASES / "cli" / "contacts.toml"  # a05 (10,10), b05 (11.5,12), a1 (30,10), ...


def _field(tables: SimpleNamespace) -> Battlefield:
    return Battlefield(
        tables.scenario(
            tables.unit("a", "A", tables.line(10, 10, 3)),  # x 9..15, y 9..11
            tables.unit(
                "b",
                "B",
                [
                    {"x": 20, "y": 10, "facing": 45},  # turned 45°
                    {"x": 30, "y": 10, "facing": 90},
                ],
            ),
            tables.unit("c", "B", [{"x": 12, "y": 11.5, "facing": 90}]),  # overlaps a/1
        )
    )


def test_4_5_2_base_to_base_is_edge_to_edge(tables: SimpleNamespace) -> None:
    m = _field(tables).measure("a/2", "b/1")
    assert m.distance == pytest.approx(29.0 - 15.0)
    assert (m.base_a, m.base_b) == ("a/2", "b/1")
    assert m.point_a[0] == pytest.approx(15.0) and m.point_b[0] == pytest.approx(29.0)
    assert not m.touching


def test_4_5_2_unit_to_unit_names_the_nearest_bases(tables: SimpleNamespace) -> None:
    m = _field(tables).measure("a", "b")
    # b/0 is a square turned 45°: its left corner is at x = 20 - sqrt(2)
    assert m.distance == pytest.approx(20.0 - math.sqrt(2.0) - 15.0)
    assert (m.base_a, m.base_b) == ("a/2", "b/0")
    assert m.point_b == pytest.approx((20.0 - math.sqrt(2.0), 10.0))
    assert math.dist(m.point_a, m.point_b) == pytest.approx(m.distance)


def test_pd_3_measure_reports_overlap(tables: SimpleNamespace) -> None:
    m = _field(tables).measure("c", "a")
    assert m.distance == 0.0 and m.depth == pytest.approx(0.5) and not m.touching
    assert m.base_b == "a/1"  # a/0 (corner) and a/1 both meet c/0: the deeper overlap is named


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("zz", "a", "no unit 'zz' (units: a, b, c)"),
        ("a/7", "b", "unit 'a' has 3 bases"),
        ("a", "a/1", "share base a/1"),
        ("b//1", "a", "malformed base id 'b//1'"),
    ],
)
def test_measure_bad_ids(tables: SimpleNamespace, a: str, b: str, message: str) -> None:
    with pytest.raises(InvalidDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _field(tables).measure(a, b)


def test_measure_cli_human_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["measure", str(CONTACTS), "a05/0", "a1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "a05/0 to a1: 18.00 cm"
    assert main(["measure", str(CONTACTS), "a2", "b2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["distance"] == 0.0 and doc["bases"] == ["a2/0", "b2/0"] and doc["touching"]
    assert len(doc["points"]) == 2


@pytest.mark.parametrize(
    ("ident", "text"),
    [("nope", "no unit 'nope' (units: a05, b05"), ("a1/3", "unit 'a1' has 1 base, a1/0 to a1/0")],
)
def test_measure_cli_unknown_ids_exit_2(ident: str, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["measure", str(CONTACTS), ident, "a1/0"]) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1
