"""The move check (szwadron.table.movement), grouped by rule; known-answer files in tests/cases/move/.

Each case file is a scenario plus ``[check]`` (the unit or units, ``charge``, ``march``), ``[move]``
(the move file) and ``[expected]``; the three tables are stripped before ``parse_scenario``.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from szwadron.errors import InvalidDataError
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import parse_scenario
from szwadron.table.movement import (
    MoveFile,
    away_direction,
    check_move,
    flight_direction,
    load_move_file,
    repulse,
)

CASES = Path(__file__).parent / "cases" / "move"


def _load_case(path: Path) -> tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    check = data.pop("check")
    move = data.pop("move")
    return parse_scenario(data, source=str(path), folders=[]), check, move, expected


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path) -> None:
    """Each file cites its rule in a comment and stores the answer in ``[expected]``."""
    scenario, check, move, expected = _load_case(case)
    units = check.get("units", check.get("unit"))
    for method in ("index", "brute"):
        report = check_move(
            scenario,
            units,
            move,
            charge=check.get("charge", ()),
            march=check.get("march", False),
            method=method,
            source=case.name,
        )
        assert expected, f"{case.name}: empty [expected]"
        assert_move_expected(report, expected, f"{case.name} ({method})")


def assert_move_expected(report: Any, expected: dict[str, Any], label: str) -> None:
    """Compare a move report with a case file's ``[expected]`` table, key by key."""
    doc = report.to_json()
    bases = {b["base"]: b for b in doc["bases"]}
    for key, want in expected.items():
        if key == "rule":
            got: Any = doc["rule"] or ""
        elif key == "base":
            got = report.violations[0].base if report.violations else None
        elif key in ("distance", "allowed"):
            got = {b: round(bases[b][key], 6) for b in want}
        elif key == "corner":
            got = {b: bases[b]["corner"] for b in want}
        elif key == "surcharges":
            got = {
                b: [[s["rule"], round(s["cm"], 6), s["source"]] for s in bases[b]["surcharges"]] for b in want
            }
        else:
            got = doc[key]
        assert got == want, f"{label}: [expected].{key}; message: {doc['message']}"


# ------------------------------------------------------------------------------- 3.1.5, PD-6


def _one(
    tables: SimpleNamespace,
    *extra: dict[str, Any],
    kind: str = "infantry",
    terrain: tuple[dict[str, Any], ...] = (),
    **settings: Any,
) -> Any:
    return tables.scenario(
        tables.unit("a", "A", [{"x": 50.0, "y": 20.0, "facing": 90.0}], kind=kind),
        *extra,
        terrain=terrain,
        width=100,
        depth=100,
        **settings,
    )


def _to(x: float, y: float, facing: float = 90.0, *waypoints: tuple[float, float, float]) -> dict[str, Any]:
    return {
        "bases": [{"index": 0, "x": x, "y": y, "facing": facing, "waypoints": [list(w) for w in waypoints]}]
    }


@pytest.mark.parametrize(("dy", "legal"), [(12.0, True), (12.0 + 1e-7, True), (12.001, False)])
def test_3_1_5_distance_limit_compares_with_epsilon_only(
    tables: SimpleNamespace, dy: float, legal: bool
) -> None:
    """PD-3: limits compare the exact distance with a 1e-6 cm epsilon, not the contact tolerance."""
    assert check_move(_one(tables), "a", _to(50, 20 + dy)).legal is legal


def test_pd_6_waypoints_add_up(tables: SimpleNamespace) -> None:
    """An L-shaped path through a waypoint: 6 north then 6 east = 12, legal; 6 + 6.5 is not."""
    sc = _one(tables)
    r = check_move(sc, "a", _to(56, 26, 90, (50, 26, 90)))
    assert r.legal and r.bases[0].distance == pytest.approx(12.0)
    assert check_move(sc, "a", _to(56.5, 26, 90, (50, 26, 90))).rule == "3.1.5"


def test_pd_6_turn_on_the_spot_costs_the_corner_arc(tables: SimpleNamespace) -> None:
    """A 180° about-face of an infantry base: every corner runs half a circle of radius √2."""
    r = check_move(_one(tables), "a", _to(50, 20, 270))
    assert r.bases[0].distance == pytest.approx(math.pi * math.sqrt(2))


def test_3_1_4_rotation_is_swept(tables: SimpleNamespace) -> None:
    """A cavalry base turning on the spot sweeps a disc of radius √5: an own base standing 1.5 cm
    beside it (inside the disc, outside the base) is hit by the turn."""
    friend = tables.unit("f", "A", [{"x": 53.0, "y": 20.0, "facing": 90.0}])
    sc = _one(tables, friend, kind="cavalry")
    r = check_move(sc, "a", _to(50, 20, 0))
    assert r.rule == "3.1.3"
    assert "f/0" in r.message


# ------------------------------------------------------------------------------- 3.1.3 order


def test_3_1_1_order_is_found_when_the_listed_one_fails(tables: SimpleNamespace) -> None:
    """A line sidesteps right by 2 cm: base 0 listed first would walk into base 1's place. The
    bases can move right-hand first: legal, with that order."""
    sc = tables.scenario(tables.unit("a", "A", tables.line(10, 10, 3)), width=100, depth=100)
    move = {"bases": [{"index": k, "x": 12.0 + 2 * k, "y": 10.0, "facing": 90.0} for k in range(3)]}
    r = check_move(sc, "a", move)
    assert r.legal
    assert r.order == ("a/2", "a/1", "a/0")


# ---------------------------------------------------------------------------- 1.4.3, 5.9.3


def test_1_4_3_zone_measured_from_beyond_the_fence(tables: SimpleNamespace) -> None:
    """An enemy touching a fence (0.5 cm wide) projects its zone from the fence's far side: a
    base passing 2.25 cm from the enemy (1.75 cm from the fence's far side) enters the zone."""
    fence = {"id": "fence", "kind": "obstacle", "line": [[0, 30], [100, 30]], "width": 0.5}
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 31.25, "facing": 270.0}])  # y 30.25..32.25
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 40.0, "y": 27.0, "facing": 0.0}]),
        enemy,
        terrain=[fence],
        width=100,
        depth=100,
    )
    r = check_move(sc, "a", _to(60, 27.0, 0.0))  # a at y 26..28; the fence 29.75..30.25
    assert r.rule == "1.4.2"
    assert "beyond fence" in r.message


def test_5_9_3_engaged_figures_let_others_pass(tables: SimpleNamespace) -> None:
    """An enemy base in contact with one of our units has its zone neutralised: our other unit
    may pass 1 cm from it."""
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 52.0, "facing": 270.0}])
    holder = tables.unit("h", "A", [{"x": 50.0, "y": 54.0, "facing": 90.0}])  # touches e (2 cm)
    mover = tables.unit("a", "A", [{"x": 46.0, "y": 40.0, "facing": 90.0}])
    sc = tables.scenario(mover, enemy, holder, width=100, depth=100)
    assert check_move(sc, "a", _to(46, 51)).legal  # 1 cm beside e (x 45..47 vs 49..51: 2 cm)
    sc2 = tables.scenario(mover, enemy, width=100, depth=100)
    assert check_move(sc2, "a", _to(47.5, 51)).rule == "1.4.2"


def test_1_4_2_a_base_in_a_zone_may_leave_it(tables: SimpleNamespace) -> None:
    """A base starting 1 cm from an enemy may back away, but not move nearer."""
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 23.0, "facing": 270.0}])
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 50.0, "y": 20.0, "facing": 90.0}]), enemy, width=100, depth=100
    )
    assert check_move(sc, "a", _to(50, 12)).legal
    assert check_move(sc, "a", _to(50, 20.5)).rule == "1.4.2"


def test_panicking_enemies_have_no_zone(tables: SimpleNamespace) -> None:
    enemy = tables.unit("e", "B", [{"x": 53.5, "y": 30.0, "facing": 270.0}], state="panic")
    assert check_move(_one(tables, enemy), "a", _to(50, 32)).legal


# ------------------------------------------------------------------------------- 4.11, 3.3, 7.2


def test_4_11_no_charge_on_the_march(tables: SimpleNamespace) -> None:
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 25.0, "facing": 270.0}])
    r = check_move(_one(tables, enemy), "a", _to(50, 22), charge=["e"], march=True)
    assert r.rule == "4.11"


def test_3_3_units_must_touch(tables: SimpleNamespace) -> None:
    other = tables.unit("b", "A", [{"x": 60.0, "y": 20.0, "facing": 90.0}])
    move = {
        "bases": [
            {"unit": "a", "index": 0, "x": 50.0, "y": 22.0, "facing": 90.0},
            {"unit": "b", "index": 0, "x": 60.0, "y": 22.0, "facing": 90.0},
        ]
    }
    assert check_move(_one(tables, other), ["a", "b"], move).rule == "3.3"


def test_7_2_limbered_gun_moves_at_its_limbered_speed(tables: SimpleNamespace) -> None:
    gun = dict(tables.profile("foot_artillery"), move_limbered=10)
    limber = tables.profile("limber")
    unit = {
        "id": "g",
        "side": "A",
        "profile": gun,
        "bases": [
            {"x": 50.0, "y": 20.0, "facing": 90.0},
            {"x": 50.0, "y": 16.0, "facing": 90.0, "profile": limber},
        ],
    }
    sc = tables.scenario(unit, width=100, depth=100)
    move = {
        "bases": [
            {"index": 0, "x": 50.0, "y": 30.0, "facing": 90.0},
            {"index": 1, "x": 50.0, "y": 26.0, "facing": 90.0},
        ]
    }
    r = check_move(sc, "g", move)
    assert r.legal, r.message
    assert [b.allowed for b in r.bases] == [10.0, 10.0]


# ------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("move", "fragment"),
    [
        (
            {"bases": [{"index": 3, "x": 50.0, "y": 22.0, "facing": 90.0}]},
            "bases[0].index: unit 'a' has no base 3",
        ),
        (
            {
                "bases": [
                    {"index": 0, "x": 50.0, "y": 22.0, "facing": 90.0},
                    {"index": 0, "x": 50.0, "y": 24.0, "facing": 90.0},
                ]
            },
            "bases[1].index",
        ),
        (
            {"bases": [{"index": 0, "x": float("nan"), "y": 22.0, "facing": 90.0}]},
            "bases[0].x: expected a finite",
        ),
        (
            {"bases": [{"index": 0, "x": 99.5, "y": 22.0, "facing": 90.0}]},
            "bases[0]: the new pose is off the table",
        ),
        (
            {"bases": [{"index": 0, "x": 50.0, "y": 22.0, "facing": 90.0, "waypoints": [[50.0, 21.0]]}]},
            "bases[0].waypoints: waypoint 0: expected 3 numbers",
        ),
        (
            {
                "bases": [
                    {"index": 0, "x": 50.0, "y": 22.0, "facing": 90.0, "waypoints": [[50.0, -5.0, 90.0]]}
                ]
            },
            "bases[0].waypoints[0]: off the table",
        ),
        ({"bases": []}, "bases: list at least one base"),
        (
            {"bases": [{"index": 0, "x": 50.0, "y": 22.0, "facing": 90.0, "speed": 3}]},
            "bases[0].speed: unknown field",
        ),
        (
            {"unit": "zz", "bases": [{"index": 0, "x": 50.0, "y": 22.0, "facing": 90.0}]},
            "unit: the move file is for unit 'zz'",
        ),
    ],
)
def test_bad_move_files_name_the_file_and_field(
    tables: SimpleNamespace, move: dict[str, Any], fragment: str
) -> None:
    with pytest.raises(InvalidDataError) as err:
        check_move(_one(tables), "a", move, source="m.toml")
    assert str(err.value).startswith("m.toml: ")
    assert fragment in str(err.value)


def test_load_move_file_errors(tmp_path: Path) -> None:
    p = tmp_path / "m.toml"
    p.write_text("[[bases]]\nindex = 0\nx = nan\ny = 1.0\nfacing = 0.0\n", encoding="utf-8")
    with pytest.raises(InvalidDataError, match=r"m.toml: bases\[0\].x: expected a finite number"):
        load_move_file(p)
    p.write_text("[[bases]]\nindex = 0\nx = 1.0\ny = 1.0\nfacing = 0.0\n", encoding="utf-8")
    assert isinstance(load_move_file(p), MoveFile)


def test_charge_on_a_friend_is_bad_input(tables: SimpleNamespace) -> None:
    friend = tables.unit("f", "A", [{"x": 60.0, "y": 20.0, "facing": 90.0}])
    with pytest.raises(InvalidDataError, match="charges enemy units only"):
        check_move(_one(tables, friend), "a", _to(50, 22), charge=["f"])


# ------------------------------------------------------------------------------- 6.5, 6.6


def test_6_5_repulse_away_and_blocked(tables: SimpleNamespace) -> None:
    """Repulsed straight away from the enemy; a unit with high walls behind and on both sides
    (beyond 60°) is blocked and panics (6.5.5)."""
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 23.0, "facing": 270.0}])
    sc = _one(tables, enemy)
    bf = Battlefield(sc)
    assert away_direction(bf, "a", "e") == (0.0, -1.0)
    assert flight_direction(bf, "a") == (0.0, -1.0)
    free = repulse(bf, "a", "e")
    assert not free.blocked and free.distance == pytest.approx(12.0) and free.deflection == 0.0
    box = {"id": "box", "kind": "high_wall", "width": 0.5, "line": [[44, 26], [44, 16], [56, 16], [56, 26]]}
    walled = _one(tables, enemy, terrain=(box,))
    assert repulse(walled, "a", "e").blocked
