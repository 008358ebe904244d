"""4.4 arcs of fire (szwadron.geometry.arcs): arcs per edge for every base shape (PD-1, PD-8),
edges blocked by touching own bases (4.4.2), artillery's single edge (4.4.3, 7.1.1)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from szwadron.geometry.arcs import arc_angles, arc_of, fire_edges, in_arcs, touched_edges
from szwadron.geometry.bases import EDGE_NAMES, base_corners

SIZES = {"infantry": (2.0, 2.0), "cavalry": (2.0, 4.0), "artillery": (4.0, 4.0)}


@pytest.mark.parametrize(
    ("size", "front", "side"),
    [((2.0, 2.0), 90.0, 90.0), ((2.0, 4.0), 53.130102, 126.869898), ((4.0, 4.0), 90.0, 90.0)],
)
def test_4_4_1_arc_angles_by_base_shape(size: tuple[float, float], front: float, side: float) -> None:
    """4.4.1: a 2 × 2 base has four arcs of 90°; a 2 × 4 cavalry base (PD-1) 53.13° front and back,
    126.87° at the sides; the four always make a full turn."""
    angles = arc_angles(*size)
    assert angles == pytest.approx((front, side, front, side), abs=1e-6)
    assert sum(angles) == pytest.approx(360.0)


def _reference_arcs(x: float, y: float, facing: float, w: float, d: float, px: float, py: float) -> set[str]:
    """The arc by angles: the bearing of the point from the centre against the corner bearings."""
    half_front = math.degrees(math.atan2(w / 2, d / 2))
    bearing = math.degrees(math.atan2(py - y, px - x)) - facing
    off = (bearing + 180.0) % 360.0 - 180.0  # −180..180, positive = to the left
    a = abs(off)
    if a < half_front:
        return {"front"}
    if a > 180.0 - half_front:
        return {"back"}
    return {"left"} if off > 0 else {"right"}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SIZES)), st.floats(0, 360), st.floats(-50, 50), st.floats(-50, 50))
def test_pd_8_arcs_match_bearings_for_rotated_bases(kind: str, facing: float, px: float, py: float) -> None:
    """Away from the boundary rays, the point lies in exactly the arc its bearing says, for every
    base shape and facing; the four arcs cover the whole table."""
    w, d = SIZES[kind]
    c = base_corners(3.0, -2.0, facing, w, d)
    mask = in_arcs(c, [px, py])
    assert mask.any()
    half_front = math.degrees(math.atan2(w / 2, d / 2))
    bearing = math.degrees(math.atan2(py + 2.0, px - 3.0)) - facing
    off = abs((bearing + 180.0) % 360.0 - 180.0)
    if (
        min(abs(off - half_front), abs(off - (180.0 - half_front))) > 1e-6
        and math.hypot(px - 3, py + 2) > 1e-3
    ):
        got = {EDGE_NAMES[k] for k in np.flatnonzero(mask)}
        assert got == _reference_arcs(3.0, -2.0, facing, w, d, px, py)


def test_pd_8_boundary_rays_are_in_both_arcs() -> None:
    inf = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)
    assert arc_of(inf, (5.0, 5.0)) == ("front", "right")
    assert arc_of(inf, (-5.0, -5.0)) == ("back", "left")
    cav = base_corners(0.0, 0.0, 0.0, 2.0, 4.0)  # front corners at (2, ±1): the ray y = x / 2
    assert arc_of(cav, (10.0, 5.0)) == ("front", "left")
    assert arc_of(cav, (10.0, 5.01)) == ("left",)
    assert arc_of(cav, (10.0, 4.99)) == ("front",)


def test_in_arcs_broadcasts_over_bases_and_points() -> None:
    bases = base_corners([0.0, 10.0], 0.0, [90.0, 270.0], 2.0, 2.0)  # (2, 4, 2)
    pts = np.asarray([[0.0, 10.0], [10.0, -10.0]])
    mask = in_arcs(bases[:, None], pts[None, :])
    assert mask.shape == (2, 2, 4)
    assert mask[0, 0, 0] and mask[1, 1, 0]  # each sees its own point ahead


# ------------------------------------------------------------------------------ 4.4.2


def test_4_4_2_line_neighbours_touch_the_side_edges() -> None:
    line = base_corners([0.0, 2.0, 4.0], 0.0, 90.0, 2.0, 2.0)
    assert touched_edges(line[1], line[[0, 2]]).tolist() == [False, True, False, True]
    assert touched_edges(line[0], line[[1, 2]]).tolist() == [False, True, False, False]


def test_4_4_2_corner_contact_does_not_touch_an_edge() -> None:
    """Decision: the diagonal neighbour in a block meets only a corner."""
    me = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)
    diag = base_corners(2.0, 2.0, 90.0, 2.0, 2.0)
    assert not touched_edges(me, diag).any()


@pytest.mark.parametrize(
    ("gap", "touched"), [(0.0, True), (0.04, True), (0.05, True), (0.06, False), (-0.03, True)]
)
def test_4_4_2_pd_3_touching_within_the_tolerance(gap: float, touched: bool) -> None:
    me = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)
    front = base_corners(0.0, 2.0 + gap, 90.0, 2.0, 2.0)
    assert bool(touched_edges(me, front)[0]) is touched


def test_4_4_2_partial_and_rotated_contact() -> None:
    """A base half across the front still touches it; a cavalry base's long side touched by a
    neighbour set at 2° still counts (PD-3 within 0.05 cm)."""
    me = base_corners(0.0, 0.0, 90.0, 2.0, 2.0)
    assert touched_edges(me, base_corners(1.5, 2.0, 90.0, 2.0, 2.0)).tolist() == [True, False, False, False]
    cav = base_corners(0.0, 0.0, 90.0, 2.0, 4.0)
    tilted = base_corners(2.0, 0.0, 91.0, 2.0, 4.0)
    assert touched_edges(cav, tilted).tolist() == [False, True, False, False]


def test_4_4_3_artillery_fires_through_its_front_only() -> None:
    assert fire_edges("foot_artillery") == ("front",)
    assert fire_edges("horse_artillery") == ("front",)
    assert fire_edges("infantry") == EDGE_NAMES
    assert fire_edges("limber") == ()
