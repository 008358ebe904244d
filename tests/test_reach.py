"""Reach (szwadron.table.reach): 3.1, 3.2, 1.4.2, 5.9.2 — shortest legal path into contact, checked
against the brute-force fine-grid reference (``method="brute"``)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from szwadron.errors import InvalidDataError
from szwadron.table.movement import check_move
from szwadron.table.reach import reach

WOOD = [[40, 18], [62, 18], [58, 30], [44, 31]]


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
    move = {
        "bases": [
            {
                "index": 0,
                "x": fast.path[-1][0],
                "y": fast.path[-1][1],
                "facing": 90.0,
                "waypoints": [[x, y, 90.0] for x, y in fast.path[1:-1]],
            }
        ]
    }
    report = check_move(sc, "a", move, charge=["b"])
    assert report.legal, report.message
    assert report.bases[0].distance == pytest.approx(fast.cost)


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
