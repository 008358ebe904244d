"""Geometry core (szwadron.geometry): bases (1.2, PD-1), terrain (3.2, PD-11), contact (PD-3,
PD-14) and the battlefield index — known answers and properties against shapely."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import (
    EDGE_NAMES,
    BaseShape,
    base_corners,
    base_polygons,
    edge_normals,
    edge_segments,
)
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import (
    contact_length,
    contact_length_of,
    penetration_depth,
    polygon_distance,
    touching,
)
from szwadron.geometry.terrain import (
    TerrainShape,
    forbidden_rule,
    level_at,
    obstacle_width,
    terrain_polygon,
)
from szwadron.models import Terrain

# ------------------------------------------------------------------------------- 1.2, PD-1 bases


def test_1_2_pd_1_cavalry_front_is_the_2_cm_side() -> None:
    """PD-1: a cavalry base is 2 cm across the front and 4 cm deep, whatever its facing."""
    for facing in (0.0, 90.0, 33.0, 270.0):
        b = BaseShape(5.0, 5.0, facing, 2.0, 4.0)
        assert b.edge("front").length == pytest.approx(2.0)
        assert b.edge("back").length == pytest.approx(2.0)
        assert b.edge("left").length == pytest.approx(4.0)
        assert b.edge("right").length == pytest.approx(4.0)
        assert b.polygon.area == pytest.approx(8.0)


def test_1_2_named_edges_face_the_right_way() -> None:
    """1.2: front edge lies ahead along the facing, right edge on the figure's right hand."""
    b = BaseShape(0.0, 0.0, 90.0, 2.0, 4.0)  # faces side B (+y): right hand is +x
    assert b.edge("front").centroid.coords[0] == pytest.approx((0.0, 2.0))
    assert b.edge("back").centroid.coords[0] == pytest.approx((0.0, -2.0))
    assert b.edge("right").centroid.coords[0] == pytest.approx((1.0, 0.0))
    assert b.edge("left").centroid.coords[0] == pytest.approx((-1.0, 0.0))
    assert b.normal("right") == pytest.approx((1.0, 0.0))


@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 360), st.floats(0.5, 5), st.floats(0.5, 5))
def test_1_2_edge_normals_point_out_of_each_edge(x: float, y: float, f: float, w: float, d: float) -> None:
    """Outward normal of every named edge points from the centre through that edge's middle."""
    c = base_corners(x, y, f, w, d)
    segs = edge_segments(c)
    normals = edge_normals(f)
    half = {"front": d / 2, "back": d / 2, "left": w / 2, "right": w / 2}
    for k, name in enumerate(EDGE_NAMES):
        mid = segs[k].mean(axis=0)
        assert np.dot(mid - (x, y), normals[k]) == pytest.approx(half[name], abs=1e-9)


def test_vectorised_polygons_match_one_by_one() -> None:
    xs, ys, fs = [0.0, 10.0, 20.0], [0.0, 5.0, 7.0], [0.0, 45.0, 100.0]
    polys = base_polygons(xs, ys, fs, 2.0, [2.0, 4.0, 4.0])
    for p, x, y, f, d in zip(polys, xs, ys, fs, [2.0, 4.0, 4.0], strict=True):
        assert shapely.equals_exact(p, BaseShape(x, y, f, 2.0, d).polygon, 1e-12)


def test_1_4_1_control_zone_is_a_rounded_rectangle() -> None:
    zone = BaseShape(0.0, 0.0, 0.0, 2.0, 2.0).control_zone(2.0)
    assert zone.bounds == pytest.approx((-3.0, -3.0, 3.0, 3.0))
    assert zone.area == pytest.approx(4 + 4 * 4 + math.pi * 4, rel=2e-3)


# ------------------------------------------------------------------------------- 3.2 terrain


def test_3_2_3_fence_line_is_a_strip_with_flat_caps() -> None:
    fence = Terrain(id="f", kind="obstacle", line=[(0, 0), (10, 0)], width=0.5)
    poly = terrain_polygon(fence)
    assert poly.bounds == pytest.approx((0.0, -0.25, 10.0, 0.25))
    assert poly.area == pytest.approx(5.0)


def test_pd_4_polygon_obstacle_width_is_its_inscribed_diameter() -> None:
    stream = Terrain(id="s", kind="obstacle", polygon=[(0, 0), (30, 0), (30, 1.5), (0, 1.5)])
    assert obstacle_width(stream) == pytest.approx(1.5, abs=1e-3)
    assert TerrainShape.of(stream).width == pytest.approx(1.5, abs=1e-3)


def test_pd_11_levels_take_the_highest_hill_and_ignore_forests() -> None:
    shapes = [
        TerrainShape.of(t)
        for t in (
            Terrain(id="h", kind="hill", polygon=[(0, 0), (20, 0), (20, 20), (0, 20)]),
            Terrain(id="c", kind="hill", level=2, polygon=[(5, 5), (10, 5), (10, 10), (5, 10)]),
            Terrain(id="w", kind="forest", polygon=[(30, 0), (40, 0), (40, 10)]),
            Terrain(id="t", kind="building", level=3, polygon=[(50, 0), (54, 0), (54, 4), (50, 4)]),
        )
    ]
    assert level_at(1, 1, shapes) == 1
    assert level_at(7, 7, shapes) == 2
    assert level_at(39, 1, shapes) == 0
    assert level_at(52, 2, shapes) == 3
    assert level_at(20, 10, shapes) == 1  # on the outline: on the hill


@pytest.mark.parametrize(
    ("terrain_kind", "large", "unit_kind", "rule"),
    [
        ("impassable", False, "infantry", "3.2.4"),
        ("high_wall", False, "infantry", "3.2.4"),
        ("building", False, "infantry", None),
        ("building", False, "cavalry", "3.2.5"),
        ("building", False, "foot_artillery", "3.2.5"),
        ("building", False, "limber", "3.2.5"),
        ("fortification", False, "infantry", None),
        ("fortification", False, "horse_artillery", "3.2.5"),
        ("fortification", True, "foot_artillery", None),
        ("fortification", True, "cavalry", "3.2.5"),
        ("forest", False, "cavalry", None),
        ("obstacle", False, "cavalry", None),
    ],
)
def test_3_2_4_3_2_5_who_may_stand_where(
    terrain_kind: str, large: bool, unit_kind: str, rule: str | None
) -> None:
    t = Terrain(id="t", kind=terrain_kind, large=large, polygon=[(0, 0), (9, 0), (9, 9), (0, 9)])
    assert forbidden_rule(unit_kind, TerrainShape.of(t)) == rule


# ------------------------------------------------------------------------------- PD-3 contact

SQUARE = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)


@pytest.mark.parametrize(
    ("gap", "touches"),
    [(0.0, True), (0.04, True), (0.049, True), (0.05, True), (0.051, False), (0.1, False), (1.0, False)],
)
def test_pd_3_tolerance_boundary_both_sides(gap: float, touches: bool) -> None:
    """PD-3: boundaries within 0.05 cm (0.5 mm) touch. A 0.4 mm gap touches; a 1 mm gap does
    NOT with the default tolerance (a wider tolerance is a setting)."""
    other = base_corners(2.0 + gap, 0.0, 90.0, 2.0, 2.0)
    assert polygon_distance(SQUARE, other) == pytest.approx(gap, abs=1e-12)
    assert bool(touching(SQUARE, other)) is touches
    assert bool(touching(SQUARE, other, contact_tolerance_cm=0.15)) is (gap <= 0.15)


@pytest.mark.parametrize(("overlap", "touches"), [(0.03, True), (0.05, True), (0.06, False), (0.5, False)])
def test_pd_3_overlap_tolerance(overlap: float, touches: bool) -> None:
    other = base_corners(2.0 - overlap, 0.0, 90.0, 2.0, 2.0)
    assert penetration_depth(SQUARE, other) == pytest.approx(overlap)
    assert polygon_distance(SQUARE, other) == 0.0
    assert bool(touching(SQUARE, other)) is touches


def test_pd_3_penetration_depth_of_a_rotated_corner() -> None:
    """SAT: a square turned 45° whose corner pokes 0.3 cm into the right edge of another."""
    half_diag = math.sqrt(2.0)
    other = base_corners(1.0 + half_diag - 0.3, 0.0, 45.0, 2.0, 2.0)
    assert penetration_depth(SQUARE, other) == pytest.approx(0.3)


rect = st.tuples(
    st.floats(-6, 6),
    st.floats(-6, 6),
    st.floats(0, 360),
    st.sampled_from([2.0, 4.0]),
    st.sampled_from([2.0, 4.0]),
)


@given(rect, rect)
def test_pd_3_distance_matches_shapely_and_is_symmetric(a: tuple[float, ...], b: tuple[float, ...]) -> None:
    ca, cb = base_corners(*a), base_corners(*b)
    expected = shapely.distance(shapely.Polygon(ca), shapely.Polygon(cb))
    assert polygon_distance(ca, cb) == pytest.approx(expected, abs=1e-9)
    assert polygon_distance(cb, ca) == pytest.approx(expected, abs=1e-9)
    assert penetration_depth(ca, cb) == pytest.approx(penetration_depth(cb, ca), abs=1e-12)
    if penetration_depth(ca, cb) > 1e-9:
        inter = shapely.intersection(shapely.Polygon(ca), shapely.Polygon(cb))
        assert inter.area > 0


@given(rect, rect, st.sampled_from([0.05, 0.2]))
def test_pd_14_contact_is_symmetric(a: tuple[float, ...], b: tuple[float, ...], tol: float) -> None:
    ca, cb = base_corners(*a), base_corners(*b)
    assert contact_length(ca, cb, tol) == pytest.approx(contact_length(cb, ca, tol), abs=1e-9)
    assert bool(touching(ca, cb, tol)) == bool(touching(cb, ca, tol))


@given(rect, rect, st.sampled_from([0.0, 0.05, 0.2]))
def test_pd_14_contact_length_of_one_pair_is_contact_length(
    a: tuple[float, ...], b: tuple[float, ...], tol: float
) -> None:
    """The one-pair measure in floats (the pursuit's) is the array measure, bit for bit."""
    ca, cb = base_corners(*a), base_corners(*b)
    assert contact_length_of(ca, cb, tol) == float(contact_length(ca, cb, tol))


def test_pd_14_contact_length_of_one_pair_on_bases_nearly_touching() -> None:
    """The same on 5,000 seeded pairs near contact (face to face, askew, side on; about a third
    touching), where random rectangles seldom come."""
    rng = random.Random(14)
    touching_pairs = 0
    for _i in range(5000):
        f = rng.choice([90.0, 270.0, rng.uniform(0.0, 360.0)])
        g = f + 180.0 + rng.choice([0.0, 0.0, rng.uniform(-3.0, 3.0), rng.uniform(-90.0, 90.0)])
        r, t = rng.uniform(1.9, 3.2), rng.uniform(0.0, 2 * math.pi)
        ca = base_corners(0.0, 0.0, f, 2.0, rng.choice([2.0, 4.0]))
        cb = base_corners(r * math.cos(t), r * math.sin(t), g, 2.0, 2.0)
        tol = rng.choice([0.0, 0.05, 0.3])
        want = float(contact_length(ca, cb, tol))
        assert contact_length_of(ca, cb, tol) == want
        touching_pairs += want > 0
    assert touching_pairs > 1000


@pytest.mark.parametrize(
    ("shift", "length"), [(0.0, 2.0), (0.5, 1.5), (1.0, 1.0), (1.5, 0.5), (2.0, 0.0), (2.5, 0.0)]
)
def test_pd_14_contact_length_of_flush_edges(shift: float, length: float) -> None:
    """PD-14: flush edges overlapping by L touch along exactly L (no corner slivers)."""
    front = base_corners(shift, 2.0, 270.0, 2.0, 2.0)  # face to face
    assert contact_length(SQUARE, front) == pytest.approx(length, abs=1e-12)


def test_pd_14_contact_length_side_by_side_and_cavalry() -> None:
    """Side edges of a 4 cm deep cavalry base touch a neighbour along 4 cm (PD-1)."""
    a = base_corners(0.0, 0.0, 90.0, 2.0, 4.0)
    b = base_corners(2.0, 0.0, 90.0, 2.0, 4.0)
    assert contact_length(a, b) == pytest.approx(4.0)
    head_on = base_corners(0.0, 4.0, 270.0, 2.0, 4.0)
    assert contact_length(a, head_on) == pytest.approx(2.0)


def test_pd_14_misaligned_by_2_degrees_touches_along_tol_over_sin() -> None:
    """A base turned 2° with its back corner on the other's front corner touches along the part
    within 0.05 cm: 0.05 / sin 2° = 1.43 cm."""
    f = np.radians(88.0)
    forward = np.array([math.cos(f), math.sin(f)])
    right = np.array([math.sin(f), -math.cos(f)])
    centre = np.array([1.0, 1.0]) + forward - right  # back-right corner at (1, 1)
    other = base_corners(centre[0], centre[1], 88.0, 2.0, 2.0)
    assert other[2] == pytest.approx([1.0, 1.0])
    assert contact_length(SQUARE, other) == pytest.approx(0.05 / math.sin(math.radians(2.0)))


# ------------------------------------------------------------------------------- Battlefield


def _field(tables: SimpleNamespace) -> Battlefield:
    return Battlefield(
        tables.scenario(
            tables.unit("a", "A", tables.line(10, 10, 4)),
            tables.unit("b", "B", tables.line(10, 14.5, 3, facing=270)),
            tables.unit("c", "B", tables.column(40, 40, 3, kind="cavalry"), kind="cavalry"),
            terrain=[{"id": "h", "kind": "hill", "polygon": [[35, 30], [50, 30], [50, 50], [35, 50]]}],
        )
    )


def test_battlefield_pairs_index_equals_brute(tables: SimpleNamespace) -> None:
    bf = _field(tables)
    for dist in (0.0, 0.05, 2.0, 4.0, 50.0):
        i1, j1 = bf.pairs_within(dist)
        i2, j2 = bf.pairs_within(dist, method="brute")
        assert i1.tolist() == i2.tolist() and j1.tolist() == j2.tolist()
    among = bf.unit_bases("b")
    i, j = bf.pairs_within(3.0, among)
    assert set(i.tolist()) | set(j.tolist()) <= set(among.tolist())


def test_battlefield_levels_and_ids(tables: SimpleNamespace) -> None:
    bf = _field(tables)
    assert bf.levels.tolist() == [0] * 7 + [1, 1, 1]
    assert bf.base_ids[7:] == ("c/0", "c/1", "c/2")
    assert bf.resolve("c/2").tolist() == [9]


@pytest.mark.parametrize(
    ("ident", "message"),
    [
        ("zz", "no unit 'zz' (units: a, b, c)"),
        ("a/9", "unit 'a' has 4 bases, a/0 to a/3"),
        ("a/x", "malformed base id 'a/x'"),
        ("zz/0", "no unit 'zz'"),
    ],
)
def test_battlefield_resolve_names_what_exists(tables: SimpleNamespace, ident: str, message: str) -> None:
    with pytest.raises(InvalidDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _field(tables).resolve(ident)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 30), st.floats(0, 30), st.floats(0, 360)), min_size=2, max_size=25),
    st.floats(0, 5),
)
def test_pairs_within_finds_every_pair_the_brute_force_finds(
    tables: SimpleNamespace, poses: list[tuple[float, float, float]], dist: float
) -> None:
    sc = tables.scenario(tables.unit("u", "A", [{"x": x, "y": y, "facing": f} for x, y, f in poses]))
    bf = Battlefield(sc)
    i1, j1 = bf.pairs_within(dist)
    i2, j2 = bf.pairs_within(dist, method="brute")
    assert list(zip(i1.tolist(), j1.tolist(), strict=True)) == list(
        zip(i2.tolist(), j2.tolist(), strict=True)
    )
