"""Paths of moving bases (szwadron.geometry.paths): PD-6 corner paths, 3.1.4 swept areas, 3.2
terrain costs, checked against closed forms and brute-force sampling."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import example, given, settings
from hypothesis import strategies as st

from szwadron.geometry.bases import base_polygons
from szwadron.geometry.paths import BaseMotion, Leg, Pose, WayCost, terrain_surcharges, turn_between
from szwadron.geometry.terrain import TerrainShape
from szwadron.models import Terrain
from szwadron.settings import RulesSettings

coord = st.floats(-20, 20, allow_nan=False)
angle = st.floats(0, 360, allow_nan=False, exclude_max=True)


@settings(max_examples=60, deadline=None)
@given(coord, coord, angle, coord, coord, angle)
@example(0.0, 0.0, 0.0, 1.0, 1.0, 1e-9)  # a turn of 1e-9°: a slide (its pivot's arc was noise)
@example(0.0, 0.0, 0.0, 0.0, 0.0, 5.960464477539063e-08)  # a slide that still ends at the end facing
def test_pd_6_leg_is_rigid_and_ends_at_the_end_pose(
    x0: float, y0: float, f0: float, x1: float, y1: float, f1: float
) -> None:
    """Every intermediate pose is the start pose moved rigidly; t = 1 is the end pose; each
    corner's path length equals the sum of many tiny steps (brute-force arc length)."""
    leg = Leg(Pose(x0, y0, f0), Pose(x1, y1, f1))
    m = BaseMotion((leg.start, leg.end), 2.0, 4.0)
    x, y, f = leg.poses([1.0])
    assert (x[0], y[0]) == pytest.approx((x1, y1), abs=1e-9)
    assert turn_between(float(f[0]), f1) == pytest.approx(0.0, abs=1e-9)
    s = np.linspace(0.0, 1.0, 4001)
    c = m.corners_at(s)
    brute = np.linalg.norm(np.diff(c, axis=0), axis=-1).sum(axis=0)
    assert brute == pytest.approx(m.corner_totals, rel=1e-5, abs=1e-6)


def test_turn_between_is_the_short_way() -> None:
    assert turn_between(10.0, 350.0) == -20.0
    assert turn_between(270.0, 90.0) == 180.0


def test_3_1_4_swept_area_covers_every_position() -> None:
    """The swept polygon of a wheel contains the base at 200 intermediate positions (within the
    documented sagitta)."""
    m = BaseMotion.of([(0.0, 0.0, 90.0), (3.0, 5.0, 10.0)], 2.0, 4.0)
    sweep = shapely.buffer(m.swept(), 0.0051)
    x, y, f = m.pose_arrays(np.linspace(0, 1, 200))
    assert all(shapely.covers(sweep, base_polygons(x, y, f, 2.0, 4.0)))


def test_3_2_costs_rough_obstacle_building_hill() -> None:
    s = RulesSettings()
    hill = TerrainShape.of(
        Terrain(id="h", kind="hill", level=2, polygon=[(0, 20), (20, 20), (20, 40), (0, 40)])
    )
    farm = TerrainShape.of(Terrain(id="b", kind="building", polygon=[(0, 8), (20, 8), (20, 12), (0, 12)]))
    m = BaseMotion.of([(10.0, 0.0, 90.0), (10.0, 25.0, 90.0)], 2.0, 2.0)
    got = [(c.rule, round(c.cm, 6), c.source) for c in terrain_surcharges(m, [hill, farm], s)]
    # through the building (in and out), then onto a hill of level 2: one hill, one climb
    # (3.2.1: "Aby wejść na wzgórze, jednostka musi zużyć dodatkowo 6 cm ruchu")
    assert got == [("3.2.5", 4.0, "b"), ("3.2.5", 4.0, "b"), ("3.2.1", 6.0, "h")]
    down = BaseMotion.of([(10.0, 25.0, 90.0), (10.0, 15.0, 90.0)], 2.0, 2.0)
    assert terrain_surcharges(down, [hill], s) == ()  # 3.2.1: going down is free


def test_3_2_1_a_hill_drawn_level_by_level_is_climbed_hill_by_hill() -> None:
    """3.2.1 — lower slopes (level 1) with a crest (level 2) on them: from the ground over the
    edge both share, both hills are gone onto (6 + 6); from the slopes onto the crest, one; two
    hills of one level gone onto at one point, one; the way cost of a flight or pursuit agrees."""
    s = RulesSettings()

    def hill(ident: str, level: int, y0: float, y1: float) -> TerrainShape:
        return TerrainShape.of(
            Terrain(id=ident, kind="hill", level=level, polygon=[(0, y0), (20, y0), (20, y1), (0, y1)])
        )

    lower, crest, twin = hill("lower", 1, 20, 60), hill("crest", 2, 20, 40), hill("twin", 1, 20, 30)
    up = BaseMotion.of([(10.0, 10.0, 90.0), (10.0, 25.0, 90.0)], 2.0, 2.0)
    got = [(c.rule, c.cm, c.source) for c in terrain_surcharges(up, [lower, crest], s)]
    assert got == [("3.2.1", 6.0, "lower"), ("3.2.1", 6.0, "crest")]
    from_slopes = BaseMotion.of([(10.0, 45.0, 270.0), (10.0, 35.0, 270.0)], 2.0, 2.0)
    assert [c.source for c in terrain_surcharges(from_slopes, [lower, crest], s)] == ["crest"]
    assert [c.cm for c in terrain_surcharges(up, [lower, twin], s)] == [6.0]
    way = WayCost.of([(10.0, 10.0), (10.0, 25.0)], 90.0, (2.0, 2.0), [lower, crest], s)
    assert way.total == pytest.approx(15.0 + 12.0)


def test_3_2_2_rough_cost_by_measured_corner_in_a_wheel() -> None:
    """A wheel entirely inside a wood: the surcharge is (2 − 1) × the outer corner's arc."""
    wood = TerrainShape.of(
        Terrain(id="w", kind="forest", polygon=[(-20, -20), (20, -20), (20, 20), (-20, 20)])
    )
    m = BaseMotion.of([(0.0, 0.0, 90.0), (0.0, 2.0, 0.0)], 2.0, 2.0)
    (c,) = terrain_surcharges(m, [wood], RulesSettings())
    assert c.cm == pytest.approx(m.length) and m.length == pytest.approx(math.pi / 2 * 2 * math.sqrt(2))


def test_3_2_2_a_stretch_ending_on_a_sample_is_located_exactly() -> None:
    """3.2.2: a 2 × 4 base moving 30 cm straight through a wood 10 cm deep is in it from 10 cm
    (its rear edge reaches the wood) to 24 cm (its front edge leaves): 14 cm, surcharge 14. The
    exit falls exactly on a sample of the motion; it was once located only to 1/256 cm."""
    m = BaseMotion.of([(50, 32, 90), (50, 2, 90)], 2.0, 4.0)
    wood = TerrainShape.of(Terrain(id="w", kind="forest", polygon=[(0, 10), (120, 10), (120, 20), (0, 20)]))
    ((a, b),) = m.intervals(lambda s: np.asarray(shapely.intersects(m.polygons_at(s, 1e-7), wood.polygon)))
    assert float(m.travelled(a)) == pytest.approx(10.0, abs=1e-5)
    assert float(m.travelled(b)) == pytest.approx(24.0, abs=1e-5)
    (cost,) = terrain_surcharges(m, [wood], RulesSettings())
    assert cost.cm == pytest.approx(14.0, abs=1e-5)
