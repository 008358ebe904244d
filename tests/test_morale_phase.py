"""The morale phase at the table (szwadron.table.morale_phase), by rule: 6.6, 6.7, 6.8, 6.4.3, 6.2.4.

Known-answer files in tests/cases/morale/ (each cites its rule; answers in ``[expected]``).
Scenarios built in code use the inline profiles of conftest.py: infantry M 4 on 2 × 2 cm bases,
side A's table edge at y = 0 (docs/decisions.md "The table"). Chances are exact fractions.
"""

from __future__ import annotations

import itertools
import random
import tomllib
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners
from szwadron.loading import parse_scenario
from szwadron.models import Scenario
from szwadron.table.morale_phase import (
    MoralePhaseReport,
    UnitMorale,
    chance_more_than,
    first_contact,
    flight_distribution,
    morale_phase,
    pursuit_distribution,
)

ROOT = Path(__file__).resolve().parents[1]
CASES = Path(__file__).parent / "cases" / "morale"

_MULT = {"infantry": 2, "cavalry": 4, "foot_artillery": 1, "horse_artillery": 3}


def _brute_more_than(mult: int, cm: float) -> Fraction:
    """P(2d6 × mult > cm) by listing the 36 rolls."""
    return Fraction(
        sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if (a + b) * mult > cm + 1e-6), 36
    )


def _phase(sc: Scenario, side: str = "A") -> MoralePhaseReport:
    return morale_phase(sc, side)


def _bystander(tables: SimpleNamespace, x: float, y: float, side: str = "B") -> dict[str, Any]:
    """An enemy figure a few cm to the side of the fleeing one: within 10 cm (6.8.2 forbids the
    attempt) but not on its path, and in panic itself, so it has no zone (1.4.1) and threatens
    no one with fire or a move (6.6.3): the flight is not turned aside by its ranges (6.6.6),
    which the 6.6.6 cases test on their own."""
    return tables.unit("enemy", side, [{"x": x, "y": y, "facing": 270.0}], state="panic")


# ------------------------------------------------------------------- known-answer files


def _load_case(path: Path) -> tuple[Scenario, dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    return parse_scenario(data, source=str(path), folders=[ROOT / "armylists"]), expected


def _value(u: UnitMorale, key: str) -> Any:
    if key in ("state", "may_reorganise", "surrenders"):
        return getattr(u, key)
    if key in ("reorganise_chance", "off_table_chance", "removed_chance", "surrender_chance"):
        return getattr(u, key)
    if key == "pass_through":
        return [pt.unit for pt in u.pass_through]
    if key == "pass_through_chance":
        return [pt.chance for pt in u.pass_through]
    if key == "pass_through_panic_chance":
        return [pt.panic_chance for pt in u.pass_through]
    if key == "pursuit_target":
        return None if u.pursuit is None else u.pursuit.target
    if key == "reach_chance":
        return None if u.pursuit is None else u.pursuit.reach_chance
    if key == "flees_first":  # 2.2.1 IV, V: an enemy pursuer's quarry flees before it moves
        return None if u.pursuit is None else u.pursuit.flees_first
    if key == "way_cm":  # the shortest way into contact, as the move takes it (6.7.4); "none"
        way = None if u.pursuit is None else u.pursuit.way_cm
        return "none" if way is None else round(way, 6)
    if key == "flight_pmf":
        return None if u.flight is None else [[cm, p] for cm, p in u.flight.probabilities().items()]
    if key == "on_the_way":
        return [] if u.pursuit is None else [w.unit for w in u.pursuit.on_the_way]
    if key == "on_the_way_from_cm":
        return [] if u.pursuit is None else [round(w.from_cm, 6) for w in u.pursuit.on_the_way]
    if key == "on_the_way_chance":
        return [] if u.pursuit is None else [w.chance for w in u.pursuit.on_the_way]
    raise AssertionError(f"unknown [expected] key {key!r}")


def _want(key: str, value: Any) -> Any:
    if key == "on_the_way_chance":
        return [Fraction(v) for v in value]
    if key.endswith("_chance") and key.startswith("pass_through"):
        return [Fraction(value)]
    if key.endswith("_chance") or key == "flees_first":
        return Fraction(value)
    if key == "flight_pmf":
        return [[cm, Fraction(p)] for cm, p in value]
    return value


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path) -> None:
    """Each file comments the rule it tests and holds its answer in ``[expected]``."""
    assert case.read_text(encoding="utf-8").startswith("# Rule"), f"{case.name}: cite the rule"
    scenario, expected = _load_case(case)
    enemy = expected.get("enemy_pursuits", {})  # 2.2.1 V: the enemy's pursuers, by id
    report = morale_phase(scenario, expected["side"], enemy_pursuits=bool(enemy))
    assert expected["units"], f"{case.name}: empty [expected]"
    theirs = {u.id: u for u in report.enemy_pursuits}
    assert set(enemy) <= set(theirs), f"{case.name}: [expected.enemy_pursuits] names no enemy pursuer"
    for uid, wants in [*expected["units"].items(), *enemy.items()]:
        u = theirs[uid] if uid in enemy else report.unit(uid)
        for key, value in wants.items():
            if key == "edge_cm_within":  # every figure's way to its edge, cm: [least, most]
                low, high = value
                assert all(low <= f.edge_cm <= high for f in u.figures), f"{case.name}: {uid} edge_cm"
                continue
            table = "enemy_pursuits" if uid in enemy else "units"
            assert _value(u, key) == _want(key, value), f"{case.name}: [expected.{table}.{uid}].{key}"


# ------------------------------------------------------------------------- 6.8.2, 6.8.3


@pytest.mark.parametrize(("gap", "may"), [(9.9, False), (10.0, False), (10.1, True), (25.0, True)])
def test_6_8_2_no_enemy_within_10_cm(tables: SimpleNamespace, gap: float, may: bool) -> None:
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], state="panic"),
        tables.unit("b", "B", [{"x": 52.0 + gap, "y": 50.0, "facing": 270.0}]),
    )
    u = _phase(sc).unit("a")
    assert u.may_reorganise is may
    assert u.reorganise_chance == (Fraction(2, 3) if may else 0)
    assert "6.8.2" in u.reason
    assert u.flight_chance == 1 - u.reorganise_chance


def test_6_8_2_the_limit_is_a_setting(tables: SimpleNamespace) -> None:
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], state="panic"),
        tables.unit("b", "B", [{"x": 60.0, "y": 50.0, "facing": 270.0}]),  # 8 cm away
        reorganise_enemy_cm=6.0,
    )
    assert _phase(sc).unit("a").may_reorganise


def test_6_8_2_a_diagonal_enemy_is_measured_edge_to_edge(tables: SimpleNamespace) -> None:
    # corner to corner: (51, 51) to (58, 58): 7·√2 ≈ 9.9 cm — within 10 cm
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], state="panic"),
        tables.unit("b", "B", [{"x": 59.0, "y": 59.0, "facing": 270.0}]),
    )
    assert not _phase(sc).unit("a").may_reorganise


@pytest.mark.parametrize(
    ("dx", "dy", "engaged"), [(1.0, 0.0, True), (3.0, 0.0, True), (3.5, 0.0, False), (1.0, 0.5, False)]
)
def test_6_8_3_pursuing_unit_may_reorganise_unless_engaged(
    tables: SimpleNamespace, dx: float, dy: float, engaged: bool
) -> None:
    """5.1.2, PD-14: the pursuer's front spans x 29..33 at y = 51; an enemy base centred at
    (30 + dx, 52 + dy) touches it along 2 cm (dx 1), 1 cm (dx 3: engaged), 0.5 cm (dx 3.5: not
    engaged) or not at all (0.5 cm apart)."""
    pursuer = tables.unit("p", "A", tables.line(30.0, 50.0, 2), state="pursuit")
    enemy = tables.unit("e", "B", [{"x": 30.0 + dx, "y": 52.0 + dy, "facing": 270.0}])
    u = _phase(tables.scenario(pursuer, enemy)).unit("p")
    assert u.may_reorganise is (not engaged)
    assert "6.8.3" in u.reason
    assert u.reorganise_chance == (0 if engaged else Fraction(2, 3))


# ------------------------------------------------------------------------- 6.6.2, 6.6.13


@pytest.mark.parametrize("kind", ["infantry", "cavalry", "horse_artillery", "foot_artillery"])
def test_6_6_2_flight_distances_by_kind(kind: str) -> None:
    dist = flight_distribution(kind, 6.0)
    m = _MULT[kind]
    assert dist.outcomes() == [m * s for s in range(2, 13)]
    assert dist.probability(7 * m) == Fraction(1, 6)


def test_6_6_2_foot_artillery_flees_only_if_r_above_0() -> None:
    assert flight_distribution("foot_artillery", 0.0).outcomes() == [0]
    assert flight_distribution("foot_artillery", 0.5).mean() == 7
    assert flight_distribution("horse_artillery", 0.0).mean() == 21  # the R > 0 rule is foot only


def test_6_7_1_pursuit_distances() -> None:
    inf, cav = pursuit_distribution("infantry"), pursuit_distribution("cavalry")
    assert inf is not None and cav is not None
    assert (inf.mean(), cav.mean()) == (14, 28)
    assert pursuit_distribution("foot_artillery") is None
    assert pursuit_distribution("horse_artillery") is None


@pytest.mark.parametrize("kind", ["infantry", "cavalry", "horse_artillery", "foot_artillery"])
@pytest.mark.parametrize("edge", [0.5, 3.0, 4.0, 9.0, 10.0, 17.5, 24.0, 36.0, 48.0])
def test_6_6_13_off_table_chance_is_a_fraction_of_36(tables: SimpleNamespace, kind: str, edge: float) -> None:
    w, d = (4.0, 4.0) if "artillery" in kind else ((2.0, 4.0) if kind == "cavalry" else (2.0, 2.0))
    y = edge + d / 2.0
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": y, "facing": 90.0}], kind=kind, state="panic")
    enemy = _bystander(tables, 50.0 + w / 2.0 + 5.0, y)
    u = _phase(tables.scenario(fleeing, enemy)).unit("a")
    assert not u.may_reorganise
    assert u.figures[0].edge_cm == pytest.approx(edge)
    want = _brute_more_than(_MULT[kind], edge)
    assert u.off_table_chance == want
    assert u.off_table_chance.denominator in (1, 2, 3, 4, 6, 9, 12, 18, 36)


def test_6_6_13_exact_boundaries(tables: SimpleNamespace) -> None:
    """0, 1 and in between: 24 cm is never left behind by 2d6 × 2 (at most 24 = no flight left),
    3.9 cm always is, 10 cm needs 2d6 ≥ 6 (26/36)."""
    for edge, want in ((24.0, Fraction(0)), (3.9, Fraction(1)), (10.0, Fraction(26, 36))):
        fleeing = tables.unit("a", "A", [{"x": 50.0, "y": edge + 1.0, "facing": 90.0}], state="panic")
        u = _phase(tables.scenario(fleeing, _bystander(tables, 56.0, edge + 1.0))).unit("a")
        assert u.off_table_chance == want, edge


def test_6_8_reorganisation_is_counted_before_the_flight(tables: SimpleNamespace) -> None:
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 11.0, "facing": 90.0}], state="panic")
    far = tables.unit("b", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    u = _phase(tables.scenario(fleeing, far)).unit("a")
    assert u.reorganise_chance == Fraction(2, 3)
    assert u.off_table_chance == Fraction(1, 3) * Fraction(26, 36)
    assert u.figures_lost.probability(0) == Fraction(2, 3) + Fraction(1, 3) * Fraction(10, 36)


def test_6_6_13_side_b_flees_towards_y_depth(tables: SimpleNamespace) -> None:
    fleeing = tables.unit("b", "B", [{"x": 50.0, "y": 189.0, "facing": 270.0}], state="panic")
    u = _phase(tables.scenario(fleeing, _bystander(tables, 56.0, 189.0, side="A")), "B").unit("b")
    assert u.figures[0].edge_cm == pytest.approx(10.0)
    assert u.off_table_chance == Fraction(26, 36)


def test_6_6_13_figure_by_figure_a_column_leaves_rank_by_rank(tables: SimpleNamespace) -> None:
    """A column facing its own edge: ranks 1, 3 and 5 cm from it. The unit leaves the table when
    the flight exceeds 5 cm (the farthest figure); a flight of 4 cm takes two figures off."""
    col = tables.column(50.0, 2.0, 3, facing=270.0)  # first base at y 1..3, then 3..5, 5..7
    fleeing = tables.unit("a", "A", col, state="panic")
    u = _phase(tables.scenario(fleeing, _bystander(tables, 56.0, 4.0))).unit("a")
    assert sorted(f.edge_cm for f in u.figures) == pytest.approx([1.0, 3.0, 5.0])
    assert u.off_table_chance == Fraction(35, 36)  # 2d6 × 2 > 5 unless double one
    assert u.figures_lost.probabilities() == {2: Fraction(1, 36), 3: Fraction(35, 36)}


def test_6_6_13_rotated_base_measures_from_its_lowest_corner(tables: SimpleNamespace) -> None:
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 11.0, "facing": 45.0}], state="panic")
    u = _phase(tables.scenario(fleeing, _bystander(tables, 58.0, 11.0))).unit("a")
    assert u.figures[0].edge_cm == pytest.approx(11.0 - 2**0.5)
    assert u.off_table_chance == _brute_more_than(2, 11.0 - 2**0.5)


def test_6_6_2_foot_artillery_with_r_0_never_leaves(tables: SimpleNamespace) -> None:
    sc = tables.scenario(
        {
            **tables.unit(
                "gun", "A", [{"x": 50.0, "y": 3.0, "facing": 90.0}], kind="foot_artillery", state="panic"
            ),
            "profile": {**tables.profile("foot_artillery"), "R": 0},
        },
        _bystander(tables, 58.0, 3.0),
    )
    u = _phase(sc).unit("gun")
    assert u.flight is not None and u.flight.outcomes() == [0]
    assert (u.off_table_chance, u.flight_multiplier) == (0, 0)


# ------------------------------------------------------------------------------ 6.6.12


def test_6_6_9_flight_goes_round_an_enemy_line_behind(tables: SimpleNamespace) -> None:
    """6.6.6, 6.6.7, 6.6.9, 6.6.10, 6.6.12 (issue 15): an enemy line (x 19..23, y 24..26) 3 cm
    behind on an open table does not box the unit in, and it never surrenders. Its figures are
    within the line's fire range (Z 24 + the figure's half width: centres within 25 cm of the
    line), so each first moves away from it out of that range — 21 cm north at the least, to
    y 51 — and then goes round the range to its edge: it comes down beside the range's east side
    (x 23 + 25 = 48), never west of the table. By hand, the way keeping exactly to the range's
    rim is 21 + 3 + 25·π/2 + 2 + 23 = 88.3 cm (from x 20); the planner may cut the corner of
    the range by a grid cell or two (1.09 cm here), and its way along the curved rim is longer."""
    fleeing = tables.unit("a", "A", tables.line(20.0, 30.0, 2), state="panic")
    enemy = tables.unit("e", "B", tables.line(20.0, 25.0, 2))
    u = _phase(tables.scenario(fleeing, enemy)).unit("a")
    assert all(f.blocked_by is None for f in u.figures)
    for f in u.figures:
        assert 70.0 < f.edge_cm < 88.3 * 1.06, f.base  # the grid's way along a curved rim: ≤ 6 % longer
        assert max(y for _, y in f.way) > 48.0, f.base  # out of the range first, to y ≥ 51 (6.6.6)
        assert f.way[-1][0] > 47.0, f.base  # down outside the range's east side (6.6.7)
    assert not u.surrenders and u.surrender_chance == 0


def test_6_6_12_impassable_terrain_without_enemies_blocks_but_no_surrender(
    tables: SimpleNamespace,
) -> None:
    # the river runs across the whole table: no way round (6.6.12), the figure flees straight
    river = {"id": "river", "kind": "impassable", "line": [[0, 20], [200, 20]], "width": 2.0}
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    far = tables.unit("e", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    u = _phase(tables.scenario(fleeing, far, terrain=[river])).unit("a")
    f = u.figures[0]
    assert f.blocked_by == "river"
    assert f.blocked_cm == pytest.approx(29.0 - 21.0 + 0.05, abs=1e-5)  # PD-3 tolerance
    assert not f.surrenders_if_blocked
    assert (u.surrenders, u.surrender_chance, u.off_table_chance) == (False, 0, 0)
    assert u.figures_lost.outcomes() == [0]


def test_6_6_12_impassable_terrain_with_an_enemy_near_surrenders_on_a_long_flight(
    tables: SimpleNamespace,
) -> None:
    river = {"id": "river", "kind": "impassable", "line": [[0, 20], [200, 20]], "width": 2.0}
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    enemy = tables.unit("e", "B", [{"x": 60.0, "y": 23.0, "facing": 90.0}])  # 7 cm from the stop
    u = _phase(tables.scenario(fleeing, enemy, terrain=[river])).unit("a")
    assert u.figures[0].surrenders_if_blocked
    # stopped after 8.05 cm: surrenders when 2d6 × 2 > 8.05, 2d6 ≥ 5 (30/36); no rally (enemy
    # 8 cm away at the start)
    assert not u.may_reorganise
    assert u.surrender_chance == Fraction(30, 36)
    assert not u.surrenders


def test_6_6_8_a_building_is_gone_round_closed_or_not(tables: SimpleNamespace) -> None:
    """3.2.5, 6.6.8: a farm (x 40..60, y 10..20) in the straight way. Closed to cavalry, the
    cavalry figure goes round it. Open to infantry, the infantry figure goes round it too — the
    flight avoids terrain obstacles (6.6.8) — rather than straight through, which would cost
    39 cm + 4 in + 4 out (3.2.5) = 47. By hand the shortest way round for its 2 × 2 base passes
    the farm's corner with its own corner, at (39, 21): √(11² + 19²) + 20 = 41.95 cm; the grid
    keeps the centre half a diagonal (1.41 cm) from terrain it avoids and is at most 2.7 %
    longer."""
    farm = {"id": "farm", "kind": "building", "polygon": [[40, 10], [60, 10], [60, 20], [40, 20]]}
    far = tables.unit("e", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    ways = {}
    for kind in ("infantry", "cavalry"):
        fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 40.0, "facing": 90.0}], kind=kind, state="panic")
        f = _phase(tables.scenario(fleeing, far, terrain=[farm])).unit("a").figures[0]
        assert f.blocked_by is None, kind
        ways[kind] = f.edge_cm
        assert f.way and not f.way_cost, kind  # round it: nothing on the way costs extra
    assert 41.95 <= ways["infantry"] < 41.95 * 1.027 + 0.5
    assert 40.0 < ways["cavalry"] < 44.0  # the cavalry base faces along its long side (PD-1)


def test_3_2_5_a_fortification_across_the_table_is_crossed_at_its_cost(tables: SimpleNamespace) -> None:
    """3.2.5, 6.6.8, 6.6.9: a fortification across the whole table (y 10..14) cannot be gone
    round: the infantry figure (centre y 30) flees straight through it, paying 4 cm to enter and
    4 to leave: 29 + 8 = 37 cm of flight to its edge."""
    works = {"id": "works", "kind": "fortification", "polygon": [[0, 10], [200, 10], [200, 14], [0, 14]]}
    far = tables.unit("e", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    f = _phase(tables.scenario(fleeing, far, terrain=[works])).unit("a").figures[0]
    assert f.edge_cm == pytest.approx(37.0, abs=0.01)
    assert [round(x, 1) for x, _ in f.way] == [50.0] * len(f.way)  # straight down
    assert f.way_cost[-1] == pytest.approx(37.0, abs=0.01)  # the way runs until the base reaches the edge


def test_6_6_5_charged_figure_flees_out_of_the_zone_but_not_through_the_enemy(
    tables: SimpleNamespace,
) -> None:
    # enemy touching the front (engaged): the flight runs away from it, unblocked
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 40.0, "facing": 90.0}], state="panic")
    front = tables.unit("e", "B", [{"x": 50.0, "y": 42.0, "facing": 270.0}])
    u = _phase(tables.scenario(fleeing, front)).unit("a")
    assert u.figures[0].blocked_by is None and not u.may_reorganise
    # enemy touching its back: it leaves the zone sideways (6.6.5) and goes round (issue 15)
    back = tables.unit("e", "B", [{"x": 50.0, "y": 38.0, "facing": 90.0}])
    u = _phase(tables.scenario(fleeing, back)).unit("a")
    assert u.figures[0].blocked_by is None and u.figures[0].edge_cm > 39.0
    assert not u.surrenders and u.surrender_chance == 0


def test_1_4_1_flight_round_a_lone_enemy_base_its_zone_only_when_not_panicking(
    tables: SimpleNamespace,
) -> None:
    """Issue 15, 6.6.6, 6.6.9, 6.6.10, 1.4.1: a lone enemy base (x 49..51, y 29..31) in the
    straight way is gone round (no surrender, 6.6.12). When it panics it has no zone and
    threatens no one: the way is round its base alone, a little over the straight 39 cm. When it
    is normal the figure is within its fire range (Z 24): it first flees away from it, 16 cm
    north to where its centre is 25 cm from the base, then round the range to the edge — by
    hand 16 + 1 + 25·π/2 + 2 + 29 = 87.3 cm (the grid's way at most 2.7 % longer)."""
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 40.0, "facing": 90.0}], state="panic")
    ways = {}
    for state in ("normal", "panic"):
        enemy = tables.unit("e", "B", [{"x": 50.0, "y": 30.0, "facing": 270.0}], state=state)
        u = _phase(tables.scenario(fleeing, enemy)).unit("a")
        assert u.figures[0].blocked_by is None and u.surrender_chance == 0, state
        ways[state] = u.figures[0].edge_cm
    assert 39.0 < ways["panic"] < 43.0
    assert 87.27 - 0.5 < ways["normal"] < 87.27 * 1.027


def _still(tables: SimpleNamespace, x: float, y: float) -> dict[str, Any]:
    """An enemy base that neither moves nor shoots (R 0, Z 0): a control zone (1.4.1) and no
    fire or move range (6.6.6)."""
    return {
        **tables.unit("e", "B", [{"x": x, "y": y, "facing": 270.0}]),
        "profile": {**tables.profile("infantry"), "R": 0, "Z": 0},
    }


def test_1_4_1_zone_rim_to_the_side_does_not_block(tables: SimpleNamespace) -> None:
    # an enemy exactly 2 cm to the side: the flight slides along the rim of its zone
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 40.0, "facing": 90.0}], state="panic")
    enemy = _still(tables, 54.0, 30.0)
    assert _phase(tables.scenario(fleeing, enemy)).unit("a").figures[0].blocked_by is None
    assert _phase(tables.scenario(fleeing, enemy)).unit("a").figures[0].edge_cm == pytest.approx(39.0)
    # 0.1 cm closer: the straight way grazes the zone; the flight bends round it
    closer = _still(tables, 53.9, 30.0)
    f = _phase(tables.scenario(fleeing, closer)).unit("a").figures[0]
    assert f.blocked_by is None and 39.0 < f.edge_cm < 41.0


# ------------------------------------------------------------------------- 6.4.3, 6.6.11


def test_6_6_11_a_unit_beside_the_path_is_not_passed_through(tables: SimpleNamespace) -> None:
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    beside = tables.unit("own", "A", [{"x": 52.0, "y": 20.0, "facing": 90.0}])  # flush, x 51..53
    u = _phase(tables.scenario(fleeing, beside, _bystander(tables, 40.0, 30.0))).unit("a")
    assert u.pass_through == ()


def test_6_6_8_flight_goes_round_a_lone_own_base(tables: SimpleNamespace) -> None:
    """Issue 15, 6.6.8, 6.6.11: a lone own base in the straight way is gone round, not passed
    through (there is another way)."""
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    own = tables.unit("own", "A", [{"x": 50.0, "y": 6.0, "facing": 90.0}], state="panic")
    u = _phase(tables.scenario(fleeing, own, _bystander(tables, 56.0, 30.0))).unit("a")
    assert u.pass_through == ()
    assert 29.0 < u.figures[0].edge_cm < 31.0


def test_6_6_11_pass_through_needs_the_flight_to_reach_it(tables: SimpleNamespace) -> None:
    """6.6.11: the own base fills the only gap in a river across the table: the flight passes
    through it, entering it after 29 − 7 + 0.05 = 22.05 cm: only 2d6 × 2 = 24 gets there."""
    rivers = [
        {"id": "r1", "kind": "impassable", "line": [[0, 6], [48.9, 6]], "width": 2.0},
        {"id": "r2", "kind": "impassable", "line": [[51.1, 6], [200, 6]], "width": 2.0},
    ]
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    own = tables.unit("own", "A", [{"x": 50.0, "y": 6.0, "facing": 90.0}], state="panic")
    u = _phase(tables.scenario(fleeing, own, _bystander(tables, 56.0, 30.0), terrain=rivers)).unit("a")
    (pt,) = u.pass_through
    assert pt.from_cm == pytest.approx(22.05, abs=1e-5)
    assert pt.chance == Fraction(1, 36)
    # 2.2.1 II before IV: the own unit in panic may reorganise first (M 4: 2/3, no enemy within
    # 10 cm); standing in order, it tests when fled through (passes 2/3): it panics with
    # 1/36 × 2/3 × 1/3 = 1/162 (the rules audit of 2026-11-27, by hand)
    assert (pt.test_pass, pt.panic_chance) == (Fraction(2, 3), Fraction(1, 162))
    # with an enemy within 10 cm of it, it cannot reorganise (6.8.2): still in panic, no test
    near = tables.unit("near", "B", [{"x": 58.0, "y": 12.0, "facing": 270.0}], state="panic")
    u = _phase(tables.scenario(fleeing, own, _bystander(tables, 56.0, 30.0), near, terrain=rivers)).unit("a")
    (pt,) = u.pass_through
    assert (pt.test_pass, pt.panic_chance) == (None, 0)


def test_6_6_11_no_pass_through_behind_a_blocker(tables: SimpleNamespace) -> None:
    """An enemy base and an own base one behind the other in the straight way: the flight goes
    round both, passes through neither and is not stopped."""
    fleeing = tables.unit("a", "A", [{"x": 50.0, "y": 30.0, "facing": 90.0}], state="panic")
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 22.0, "facing": 270.0}])
    own = tables.unit("own", "A", [{"x": 50.0, "y": 12.0, "facing": 90.0}])
    u = _phase(tables.scenario(fleeing, enemy, own)).unit("a")
    assert u.pass_through == ()
    assert u.figures[0].blocked_by is None
    assert (u.surrenders, u.surrender_chance) == (False, 0)


def test_6_6_12_boxed_in_by_an_enemy_line_and_a_river_still_stops_and_surrenders(
    tables: SimpleNamespace,
) -> None:
    """6.6.12: a river across the table but for a gap, an enemy line whose zone seals the gap:
    no way to the edge, so the figure flees straight and is stopped 1 cm on by the zone; the
    enemy is near: it surrenders on every roll."""
    rivers = [
        {"id": "r1", "kind": "impassable", "line": [[0, 20], [18, 20]], "width": 2.0},
        {"id": "r2", "kind": "impassable", "line": [[24, 20], [200, 20]], "width": 2.0},
    ]
    fleeing = tables.unit("a", "A", tables.line(20.0, 30.0, 2), state="panic")
    enemy = tables.unit("e", "B", tables.line(20.0, 25.0, 2))
    u = _phase(tables.scenario(fleeing, enemy, terrain=rivers)).unit("a")
    assert [f.blocked_cm for f in u.figures] == pytest.approx([1.0, 1.0], abs=1e-5)
    assert u.surrenders and u.surrender_chance == 1 and u.removed_chance == 1


# ----------------------------------------------------------------------------------- 6.7


def test_6_7_1_artillery_in_pursuit_state_does_not_move(tables: SimpleNamespace) -> None:
    gun = tables.unit(
        "g", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], kind="horse_artillery", state="pursuit"
    )
    enemy = tables.unit("e", "B", [{"x": 50.0, "y": 60.0, "facing": 270.0}], state="panic")
    u = _phase(tables.scenario(gun, enemy)).unit("g")
    assert u.pursuit is not None and u.pursuit.distance is None and u.pursuit.reach_chance == 0


def test_6_7_10_without_panicking_enemies_the_nearest_enemy(tables: SimpleNamespace) -> None:
    pursuer = tables.unit("p", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], state="pursuit")
    near = tables.unit("near", "B", [{"x": 50.0, "y": 64.0, "facing": 270.0}])  # 12 cm
    far = tables.unit("far", "B", [{"x": 80.0, "y": 50.0, "facing": 270.0}])
    u = _phase(tables.scenario(pursuer, far, near)).unit("p")
    assert u.pursuit is not None
    assert (u.pursuit.target, u.pursuit.gap_cm) == ("near", pytest.approx(12.0))
    # reaches it on 2d6 × 2 ≥ 12: 2d6 ≥ 6 (26/36), after a failed reorganisation (1/3)
    assert u.pursuit.reach_chance == Fraction(1, 3) * Fraction(26, 36)


@pytest.mark.parametrize(
    ("pursuer", "quarry", "gap", "edge"),
    [
        ("cavalry", "infantry", 17.0, 49.0),  # the audit's example: 30/36 read standing, 11/16
        ("infantry", "infantry", 3.0, 49.0),  # 6.8.2: the pursuer within 10 cm, no reorganisation
        ("cavalry", "cavalry", 12.0, 20.0),  # 6.6.13: off the table on 2d6 × 4 > 20, not reached
        ("infantry", "cavalry", 11.0, 40.0),
    ],
)
def test_2_2_1_v_the_enemys_pursuer_reaches_after_the_flight_every_face_of_the_dice(
    tables: SimpleNamespace, pursuer: str, quarry: str, gap: float, edge: float
) -> None:
    """2.2.1 II, IV before V, 6.6.2, 6.6.13, 6.7.1, 6.7.4 — in side A's morale phase B's pursuer
    stands ``gap`` cm straight behind A's panicking unit, whose flight runs straight away from it
    to A's edge, ``edge`` cm away. Brute force over all 6⁵ faces: the quarry's reorganisation die
    (M 4; only with no enemy within 10 cm, 6.8.2: then it stands), its flight's two dice (2d6 ×
    2 or × 4; more than ``edge`` leaves the table, and there is nothing to reach) and the
    pursuer's two (2d6 × 2 or × 4 must cover the gap and the flight). The odds are the same
    fraction, exactly."""
    mult = {"infantry": 2, "cavalry": 4}
    depth = {"infantry": 2.0, "cavalry": 4.0}
    y_q = edge + depth[quarry] / 2
    y_p = y_q + depth[quarry] / 2 + gap + depth[pursuer] / 2
    sc = tables.scenario(
        tables.unit("q", "A", [{"x": 60.0, "y": y_q, "facing": 90.0}], kind=quarry, state="panic"),
        {
            **tables.unit("p", "B", [{"x": 60.0, "y": y_p, "facing": 270.0}], kind=pursuer, state="pursuit"),
            "pursuing": "q",
        },
    )
    may = gap > 10.0
    hits = 0
    for r, f1, f2, p1, p2 in itertools.product(range(1, 7), repeat=5):
        reach = mult[pursuer] * (p1 + p2)
        if may and r <= 4:  # 6.8.4: it reorganises and stands
            hits += reach >= gap
        elif mult[quarry] * (f1 + f2) <= edge:  # 6.6.13: still on the table
            hits += reach >= gap + mult[quarry] * (f1 + f2)
    report = morale_phase(sc, "A", enemy_pursuits=True)
    (them,) = report.enemy_pursuits
    assert them.pursuit is not None and them.pursuit.target == "q"
    assert them.pursuit.reach_chance == Fraction(hits, 6**5)
    assert them.pursuit.flees_first == (Fraction(1, 3) if may else 1)
    assert report.unit("q").may_reorganise is may


def test_2_2_1_v_a_repulsed_quarry_does_not_move_first(tables: SimpleNamespace) -> None:
    """2.2.1, 6.5.3 — a repulsed unit stands in normal order: it neither reorganises nor flees in
    its morale phase, so the enemy's pursuer reaches it as it stands (14 cm: 2d6 × 2 ≥ 14, 21/36)."""
    rep = tables.unit("rep", "A", [{"x": 60.0, "y": 50.0, "facing": 90.0}])
    pursuer = {
        **tables.unit("p", "B", [{"x": 60.0, "y": 66.0, "facing": 270.0}], state="pursuit"),
        "pursuing": "rep",
    }
    (them,) = morale_phase(tables.scenario(rep, pursuer), "A", enemy_pursuits=True).enemy_pursuits
    assert them.pursuit is not None
    assert (them.pursuit.reach_chance, them.pursuit.flees_first) == (Fraction(21, 36), None)


# ------------------------------------------------------------------------------- 6.2.4


def test_6_2_4_casualty_tests_for_every_unit_of_the_side(tables: SimpleNamespace) -> None:
    a = {**tables.unit("a", "A", tables.line(10.0, 50.0, 12)), "initial_strength": 12}
    b = tables.unit("b", "A", tables.line(10.0, 80.0, 5), state="panic")
    enemy = tables.unit("e", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    report = _phase(tables.scenario(a, b, enemy))
    assert [c.id for c in report.casualty_tests] == ["a", "b"]
    rows = report.casualty_tests[0].rows
    assert [r.modifier for r in rows] == [0, 0, 0, -1, -1, -1, -2, -2, -2, -4, -4, -4]
    assert rows[3].test.passed == Fraction(1, 2)
    assert report.casualty_tests[1].takes_tests is False  # 6.6.14
    assert [u.id for u in report.units] == ["b"]  # a is normal


def test_pd_16_fortification_bonus(tables: SimpleNamespace) -> None:
    fort = {"id": "fort", "kind": "fortification", "polygon": [[40, 40], [60, 40], [60, 60], [40, 60]]}
    unit = tables.unit("a", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}], state="panic")
    far = tables.unit("e", "B", [{"x": 150.0, "y": 150.0, "facing": 270.0}])
    u = _phase(tables.scenario(unit, far, terrain=[fort])).unit("a")
    assert u.reorganise_chance == Fraction(5, 6)


def test_unknown_side_is_invalid(tables: SimpleNamespace) -> None:
    sc = tables.scenario(tables.unit("a", "A", [{"x": 50.0, "y": 50.0, "facing": 90.0}]))
    with pytest.raises(InvalidDataError, match="side"):
        morale_phase(sc, "C")


def test_chance_more_than_is_strict() -> None:
    inf = flight_distribution("infantry", 12)
    assert chance_more_than(inf, 24.0) == 0
    assert chance_more_than(inf, 23.999) == Fraction(1, 36)


# -------------------------------------------------------------- first contact, brute force


def _brute_contact(moving: np.ndarray, obstacle: np.ndarray, radius: float, reach: float) -> float:
    """Bisection on shapely's exact distance: the first t with distance ≤ radius (monotone up to
    the closest approach, found by a fine scan first)."""
    mv, ob = shapely.Polygon(moving), shapely.Polygon(obstacle)

    def dist(t: float) -> float:
        return float(shapely.distance(shapely.affinity.translate(mv, 0.0, -t), ob))

    ts = np.linspace(0.0, reach, 2001)
    ds = np.array([dist(t) for t in ts])
    inside = np.flatnonzero(ds <= radius + 1e-12)
    if inside.size == 0:
        return float("inf")
    hi = float(ts[inside[0]])
    lo = float(ts[inside[0] - 1]) if inside[0] > 0 else 0.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (lo, mid) if dist(mid) <= radius else (mid, hi)
    return hi


@pytest.mark.parametrize("seed", range(40))
def test_first_contact_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    moving = base_corners(
        rng.uniform(-3, 3),
        rng.uniform(8, 14),
        rng.uniform(0, 360),
        rng.choice([2.0, 4.0]),
        rng.choice([2.0, 4.0]),
    )
    obstacle = base_corners(
        rng.uniform(-4, 4),
        rng.uniform(-4, 2),
        rng.uniform(0, 360),
        rng.choice([2.0, 4.0]),
        rng.choice([2.0, 4.0]),
    )
    radius = rng.choice([0.0, 2.0])
    if shapely.distance(shapely.Polygon(moving), shapely.Polygon(obstacle)) <= radius:
        pytest.skip("overlapping at the start")
    got = float(first_contact(moving, obstacle, radius, (0.0, -1.0)))
    mirrored = float(first_contact(moving * [1, -1], obstacle * [1, -1], radius, (0.0, 1.0)))
    assert mirrored == pytest.approx(got, abs=1e-9)  # side B, and the other ring orientation
    want = _brute_contact(moving, obstacle, radius, 30.0)
    if np.isinf(want):
        assert np.isinf(got) or got > 30.0
    else:
        assert got == pytest.approx(want, abs=1e-6)
