"""Reach (szwadron.table.reach): 3.1, 3.2, 1.4.2, 5.9.2 — shortest legal path into contact, checked
against the brute-force fine-grid reference (``method="brute"``); known-answer files in
tests/cases/reach/.

Each case file is a scenario plus ``[reach]`` (``unit``, ``target``) and ``[expected]``
(``reachable``, and any of ``cost``, ``path_cm``, ``surcharges``, ``path``, ``end`` (the centre's
last point), ``touches``); the two tables are stripped before ``parse_scenario``.
"""

from __future__ import annotations

import math
import random
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from szwadron.errors import InvalidDataError
from szwadron.loading import parse_scenario
from szwadron.table.movement import check_move
from szwadron.table.reach import ReachMethod, reach

WOOD = [[40, 18], [62, 18], [58, 30], [44, 31]]
CASES = Path(__file__).parent / "cases" / "reach"


def _load_case(path: Path) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    about = data.pop("reach")
    return parse_scenario(data, source=str(path), folders=[]), about, expected


@pytest.mark.parametrize("method", ["index", "brute"])
@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path, method: ReachMethod) -> None:
    """Each file cites its rule and source in a comment and stores the answer in ``[expected]``."""
    scenario, about, expected = _load_case(case)
    r = reach(scenario, about["unit"], about["target"], method=method)
    label = f"{case.name} ({method})"
    assert expected, f"{label}: empty [expected]"
    assert r.reachable == expected["reachable"], label
    if "cost" in expected:
        assert r.cost == pytest.approx(expected["cost"], abs=1e-6), label
    if "path_cm" in expected:
        assert r.path_cm == pytest.approx(expected["path_cm"], abs=1e-6), label
    if "surcharges" in expected:
        assert len(r.surcharges) == len(expected["surcharges"]), label
        for sc_got, (rule, cm, source) in zip(r.surcharges, expected["surcharges"], strict=True):
            assert (sc_got.rule, sc_got.source) == (rule, source), label
            assert sc_got.cm == pytest.approx(cm, abs=1e-6), label
    if "path" in expected:
        assert len(r.path) == len(expected["path"]), label
        for point, (x, y) in zip(r.path, expected["path"], strict=True):
            assert point == pytest.approx((x, y), abs=1e-6), label
    if "end" in expected:  # where the base's centre ends, whatever the path's waypoints
        assert r.path[-1] == pytest.approx(tuple(expected["end"]), abs=1e-6), label
    if "touches" in expected:
        assert r.touches == expected["touches"], label


def _move_along(sc: Any, r: Any, charge: str) -> Any:
    """The move check of base a/0 going along ``r``'s path (its waypoints, kept facing) as a
    charge on ``charge``: what `move` says of the way `reach` proposes."""
    (end_x, end_y), facing = r.path[-1], r.facing
    move = {
        "bases": [
            {
                "index": 0,
                "x": end_x,
                "y": end_y,
                "facing": facing,
                "waypoints": [[x, y, facing] for x, y in r.path[1:-1]],
            }
        ]
    }
    return check_move(sc, "a", move, charge=[charge])


def _table(tables: SimpleNamespace, kind: str | None, *extra: dict[str, Any]) -> Any:
    cav = dict(tables.profile("cavalry"), R=40)
    a = {
        "id": "a",
        "side": "A",
        "profile": cav,
        "state": "normal",
        "bases": [{"x": 50.0, "y": 10.0, "facing": 90.0}],
    }
    b = tables.unit(
        "b", "B", [{"x": 50.0, "y": 40.0, "facing": 270.0}, {"x": 52.0, "y": 40.0, "facing": 270.0}]
    )
    terrain = [{"id": "wood", "kind": kind, "polygon": WOOD}] if kind else []
    return tables.scenario(a, b, *extra, terrain=terrain, width=100, depth=100)


def test_straight_charge_costs_the_gap(tables: SimpleNamespace) -> None:
    r = reach(_table(tables, None), "a", "b")
    assert r.reachable and r.cost == pytest.approx(27.0, abs=1e-6)  # 30 - 2 (PD-1 depth / 2) - 1
    assert r.touches == "b/0"


@pytest.mark.parametrize("kind", ["forest", "impassable"])
def test_reach_around_a_wood_matches_the_fine_grid(tables: SimpleNamespace, kind: str) -> None:
    """Around (impassable) or partly through (forest, ×2) a wood in the way: the fast path is
    within 2% of the brute-force reference on a 0.2 cm grid with 32 directions, and the path it
    returns is a legal move (a charge) by the move check."""
    sc = _table(tables, kind)
    fast = reach(sc, "a", "b")
    ref = reach(sc, "a", "b", method="brute")
    assert fast.cost is not None and ref.cost is not None
    assert abs(fast.cost - ref.cost) <= 0.02 * ref.cost
    assert fast.cost > 27.0  # it had to go round: longer than straight ahead
    report = _move_along(sc, fast, charge="b")
    assert report.legal, report.message
    assert report.bases[0].distance == pytest.approx(fast.cost)


def test_3_2_2_straight_charge_through_a_wood_at_exactly_r() -> None:
    """3.2.2 (each cm of rough ground costs 2 cm), 3.1.5 — a target exactly within the move
    through a wood is found, at the exact cost the move check gives the same path (rules audit:
    the grid path alone ended half a grid step aside, 10.03 cm > R 10, "cannot reach")."""
    sc, about, _ = _load_case(CASES / "3_2_2_straight_through_wood.toml")
    r = reach(sc, about["unit"], about["target"])
    assert r.reachable, r
    assert r.cost == pytest.approx(10.0, abs=1e-6)
    report = _move_along(sc, r, charge="t")
    assert report.legal, report.message
    assert report.bases[0].distance == pytest.approx(r.cost)


@pytest.mark.parametrize("method", ["index", "brute"])
def test_5_9_2_a_charge_reaches_a_defender_behind_a_fence_as_the_move_finds_it(method: ReachMethod) -> None:
    """5.9.2, 3.2.3, PD-4 — reach and move agree at a fence: the defender stands flush behind
    it, and the pose reach ends in (flush against the fence, 8.75 cm, in contact across it) is a
    legal charge for the move check at the same cost, with the base in contact (it used to say
    "cannot reach", 13.25 cm, ending on the fence, which the move refuses: 3.2.3)."""
    sc, about, _ = _load_case(CASES / "5_9_2_charge_stops_at_the_fence.toml")
    r = reach(sc, about["unit"], about["target"], method=method)
    assert r.reachable and r.cost == pytest.approx(8.75, abs=1e-6), r
    report = _move_along(sc, r, charge="t")
    assert report.legal, report.message
    assert report.bases[0].distance == pytest.approx(r.cost)
    assert report.contacts == ("a/0",)


def test_3_2_4_straight_slide_through_impassable_ground_is_refused(tables: SimpleNamespace) -> None:
    """3.2.4, 5.9.2 — a straight slide into contact that crosses impassable ground is not taken:
    the answer goes round, as the grid search finds it."""
    sc = _table(tables, "impassable")
    r = reach(sc, "a", "b")
    assert r.reachable and r.cost is not None and r.cost > 27.0 + 1e-3
    assert len(r.path) > 2


def test_1_4_2_other_enemies_zones_are_avoided(tables: SimpleNamespace) -> None:
    """A second enemy unit stands just beside the straight line: the path bends round its zone."""
    other = tables.unit("c", "B", [{"x": 53.5, "y": 25.0, "facing": 270.0}])
    r = reach(_table(tables, None, other), "a", "b")
    assert r.cost is not None and r.cost > 27.0 + 1e-3
    xs = [x for x, _ in r.path]
    assert min(xs) < 50.0 - 0.4 - 1e-3  # swung left, away from c: x 49..51 vs 52.5


def test_out_of_reach_and_bad_input(tables: SimpleNamespace) -> None:
    sc = _table(tables, None)
    slow = sc.model_copy(
        update={
            "units": (
                sc.units[0].model_copy(
                    update={"profile": sc.units[0].profile.model_copy(update={"move": 10.0})}
                ),
                *sc.units[1:],
            )
        }
    )
    r = reach(slow, "a", "b")
    assert not r.reachable
    with pytest.raises(InvalidDataError, match="not an enemy"):
        reach(sc, "a", "a")
    with pytest.raises(InvalidDataError, match="grid step"):
        reach(sc, "a", "b", grid_cm=0.0)


@pytest.mark.parametrize("method", ["index", "brute"])
def test_pd_14_a_reached_target_is_touched_along_an_edge_not_at_a_corner(method: ReachMethod) -> None:
    """PD-14, 5.3.2 — the pictures' case (tests/cases/plot/reach_around_wood.toml): the hussars'
    path used to end corner to corner with line/0, which is no contact (`check` counts it at
    corners only, `melee` finds none). The end pose now touches a target figure along at least
    1 cm of edge, and the move that gets there is legal at the cost reported."""
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import load_scenario

    sc = load_scenario(Path(__file__).parent / "cases" / "plot" / "reach_around_wood.toml")
    r = reach(sc, "hussars", "line", method=method)
    assert r.reachable and r.path
    x, y = r.path[-1]
    moved = sc.model_copy(
        update={
            "units": tuple(
                u.model_copy(update={"bases": (u.bases[0].model_copy(update={"x": x, "y": y}), *u.bases[1:])})
                if u.id == "hussars"
                else u
                for u in sc.units
            )
        }
    )
    bf = Battlefield(moved)
    mover = bf.base_ids.index("hussars/0")
    targets = [k for k, b in enumerate(bf.base_ids) if b.startswith("line/")]
    import numpy as np

    lengths = bf.contact_lengths(
        np.full(len(targets), mover, dtype=np.intp), np.asarray(targets, dtype=np.intp)
    )
    assert float(lengths.max()) >= 1.0 - 1e-6


_INF = {
    "id": "inf",
    "name": "Line",
    "kind": "infantry",
    "R": 12,
    "W": 2,
    "SW": 1,
    "SO": 1,
    "Z": 24,
    "UW": 3,
    "C": 3,
    "M": 4,
}


def _fence_position(seed: int) -> Any:
    """A charger below a fence running the table's width and a defender behind it, drawn from
    ``seed``: the fence 0.5 or 1 cm wide, the defender flush against it (its lowest corner at
    the fence) or up to 1.5 cm back, square to the fence or turned up to 20°; the charger
    (R 12, 16 or 20) 1.5 to 9 cm short of the fence, up to 3 cm aside, square or up to 35° off."""
    rng = random.Random(seed)
    w = rng.choice([0.5, 0.5, 1.0])
    off = 0.0 if rng.random() < 0.5 else rng.uniform(0.05, 1.5)
    turn = 0.0 if rng.random() < 0.35 else rng.uniform(-35, 35)
    dist, aside, r = rng.uniform(1.5, 9.0), rng.uniform(-3.0, 3.0), rng.choice([12, 16, 20])
    tf = 270.0 if rng.random() < 0.7 else 270 + rng.uniform(-20, 20)
    th = math.radians(tf - 270.0)
    data = {
        "name": f"fence {seed}",
        "table": {"width": 80.0, "depth": 60.0},
        "terrain": [{"id": "fence", "kind": "obstacle", "line": [[0, 20], [80, 20]], "width": w}],
        "units": [
            {
                "id": "a",
                "side": "A",
                "profile": dict(_INF, R=r),
                "bases": [{"x": 40.0 + aside, "y": 20 - w / 2 - dist, "facing": 90.0 + turn}],
            },
            {
                "id": "t",
                "side": "B",
                "profile": _INF,
                "bases": [
                    {"x": 40.0, "y": 20 + w / 2 + abs(math.cos(th)) + abs(math.sin(th)) + off, "facing": tf}
                ],
            },
        ],
    }
    return parse_scenario(data, source=f"fence {seed}", folders=[])


@pytest.mark.parametrize(
    ("method", "seed"), [("index", k) for k in range(12)] + [("brute", k) for k in (23, 44)]
)
def test_3_2_3_every_reached_pose_at_a_fence_is_a_legal_move(method: ReachMethod, seed: int) -> None:
    """3.2.3, 5.9.2, PD-4 — on seeded random positions at a fence (the charger square or at an
    angle, the defender flush behind it or standing back), whatever reach answers "can reach"
    is a charge the move check finds legal at the same cost: it never ends on the fence (3.2.3,
    "ends on obstacle"), which it used to in most of them (a corner on the defender, or face on
    to a defender standing back)."""
    sc = _fence_position(seed)
    r = reach(sc, "a", "t", method=method)
    if not r.reachable:
        return
    report = _move_along(sc, r, charge="t")
    assert report.legal, (seed, method, report.message)
    assert report.bases[0].distance == pytest.approx(r.cost, abs=1e-6)


def test_3_2_3_out_of_reach_says_the_poses_stood_on_the_fence() -> None:
    """3.2.3 — a defender standing 1 cm back from the fence: touching it face on stands on the
    fence (it used to be "can reach", 14.25 cm); the flank beyond the fence is 15.37 cm or more,
    over the move of 15. The answer says why: the nearer poses stood on the fence."""
    sc, about, _ = _load_case(CASES / "3_2_3_defender_back_from_the_fence.toml")
    r = reach(sc, about["unit"], about["target"])
    assert not r.reachable and r.cost is not None and r.cost >= 15.37 - 1e-2
    assert r.note is not None and r.note.startswith("3.2.3") and "fence" in r.note
