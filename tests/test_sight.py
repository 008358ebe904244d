"""4.3 line of sight and band, 4.10 levels, terrain and cover (szwadron.geometry.sight): the
vectorised segment and band tests against shapely, the level rules (4.10.1, PD-11), terrain
blocking (4.10.2, 4.10.5, 4.10.6), cover (4.10.2-4.10.6, 4.10.9, PD-12), index vs brute."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from szwadron.geometry.bases import base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.sight import (
    band_corners,
    check_sight,
    cover,
    figure_blocks,
    hidden_by_own_unit,
    inset_corners,
    segment_clip,
    segment_crosses,
    terrain_blocks,
)
from szwadron.models import Scenario, TerrainKind
from szwadron.settings import RulesSettings

_c = st.floats(-20, 20, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(_c, _c, _c, _c, _c, _c, st.floats(0, 360), st.floats(0.5, 6), st.floats(0.5, 6))
def test_segment_clip_matches_shapely(
    x0: float, y0: float, x1: float, y1: float, cx: float, cy: float, facing: float, w: float, d: float
) -> None:
    """The Cyrus–Beck clip gives the length shapely measures inside a rotated rectangle (a segment
    running along an edge is outside: only the interior counts)."""
    c = base_corners(cx, cy, facing, w, d)
    lo, hi = segment_clip([x0, y0], [x1, y1], c)
    length = float(np.hypot(x1 - x0, y1 - y0))
    mine = max(float(hi - lo), 0.0) * length
    segment = shapely.LineString([(x0, y0), (x1, y1)])
    # the boundary is out: the length lies between the inside of a slightly shrunk rectangle and
    # the closed rectangle's (a segment grazing an edge at a shallow angle tells them apart)
    interior = shapely.buffer(shapely.Polygon(c), -1e-9, join_style="mitre")
    inner = shapely.intersection(segment, interior).length
    closed = shapely.intersection(segment, shapely.Polygon(c)).length
    assert inner - 1e-7 <= mine <= closed + 1e-7


def test_segment_crosses_needs_a_positive_length_inside() -> None:
    sq = base_corners(0.0, 0.0, 0.0, 2.0, 2.0)
    assert segment_crosses([-5.0, 0.0], [5.0, 0.0], sq).item()
    assert not segment_crosses([-1.0, -3.0], [3.0, 1.0], sq).item()  # through the corner (1, -1)
    assert not segment_crosses([-5.0, 1.0], [5.0, 1.0], sq).item()  # along an edge


def test_inset_is_the_pd_3_tolerance() -> None:
    """A line 0.04 cm inside a base (less than the 0.05 tolerance) passes; 0.06 cm blocks."""
    inner = inset_corners(base_corners(0.0, 0.0, 30.0, 2.0, 2.0), 0.05)
    assert shapely.Polygon(inner[0]).area == pytest.approx(1.9 * 1.9)
    edge_y = 1.0
    sq = inset_corners(base_corners(0.0, 0.0, 0.0, 2.0, 2.0), 0.05)
    assert not segment_crosses([-5, edge_y - 0.04], [5, edge_y - 0.04], sq).item()
    assert segment_crosses([-5, edge_y - 0.06], [5, edge_y - 0.06], sq).item()


def test_4_3_3_band_is_as_wide_as_the_edge() -> None:
    band = band_corners([0.0, 0.0], [3.0, 4.0], 4.0)
    poly = shapely.Polygon(band)
    assert poly.area == pytest.approx(5.0 * 4.0)
    assert poly.contains(shapely.LineString([(0.1, 0.1), (2.9, 3.9)]))


def test_4_10_1_figure_blocks_by_levels() -> None:
    ls = [0, 0, 0, 0, 1, 1, 1, 0, 0]
    lt = [0, 0, 1, 1, 1, 0, 0, 2, 2]
    lb = [0, 1, 0, 0, 0, 0, 1, 1, 2]
    dist = [50.0, 50.0, 6.0, 6.1, 3.0, 3.0, 3.0, 3.0, 3.0]
    assert figure_blocks(ls, lt, lb, dist).tolist() == [
        True,  # same level, ground
        True,  # a figure on a hill between ground figures
        True,  # firing up: own level within 6 cm (6.0 included)
        False,  # firing up: own level beyond 6 cm
        False,  # hill to hill over lower troops
        False,  # firing down from the hill over lower troops
        True,  # firing down: a figure on the shooter's hill blocks
        False,  # firing up to level 2 over a level-1 figure
        False,  # firing up: only own-level figures within 6 cm block ("blokują jedynie"),
        # not a figure on the target's level
    ]


def test_4_10_terrain_blocks_by_kind_and_level() -> None:
    s = RulesSettings()
    assert terrain_blocks(TerrainKind.HILL, 2, 0, 1, 1, s)
    assert not terrain_blocks(TerrainKind.HILL, 2, 0, 2, 0, s)
    assert terrain_blocks(TerrainKind.BUILDING, 0, 0, 0, 0, s)  # low building: as a wall
    assert not terrain_blocks(TerrainKind.BUILDING, 0, 0, 1, 0, s)
    assert terrain_blocks(TerrainKind.FORTIFICATION, 2, 0, 1, 0, s)  # tall: as a hill of 2
    assert terrain_blocks(TerrainKind.HIGH_WALL, 0, 1, 1, 0, s)  # a wall on a level-1 hill
    assert not terrain_blocks(TerrainKind.ROUGH, 0, 0, 0, 0, s)
    assert not terrain_blocks(TerrainKind.OBSTACLE, 0, 0, 0, 0, s)


# ------------------------------------------------------------------------------ battlefields


def _inf() -> dict[str, Any]:
    return {
        "id": "i",
        "name": "I",
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


def _sc(
    units: list[tuple[str, str, list[tuple[float, float, float]]]],
    terrain: list[dict[str, Any]] | None = None,
) -> Scenario:
    return Scenario.model_validate(
        {
            "name": "t",
            "table": {"width": 100, "depth": 100},
            "terrain": terrain or [],
            "units": [
                {
                    "id": u,
                    "side": s,
                    "profile": _inf(),
                    "bases": [{"x": x, "y": y, "facing": f} for x, y, f in b],
                }
                for u, s, b in units
            ],
        }
    )


def test_4_3_5_target_unit_never_blocks_but_other_units_do() -> None:
    bf = Battlefield(
        _sc(
            [
                ("a", "A", [(10, 10, 90)]),
                ("b", "B", [(10, 20, 270), (10, 30, 270)]),
                ("e", "B", [(30, 20, 270)]),
            ]
        )
    )
    assert check_sight(bf, [0, 0], [1, 2], [2.0, 2.0]) == [None, None]
    bf = Battlefield(
        _sc([("a", "A", [(10, 10, 90)]), ("e", "B", [(10, 20, 270)]), ("b", "B", [(10, 30, 270)])])
    )
    (blocked,) = check_sight(bf, [0], [2], [2.0])
    assert blocked is not None and blocked.rule == "4.3.1" and blocked.by == "e/0"


def test_pd_7_firing_units_own_neighbours_do_not_close_the_band() -> None:
    """The base beside the shooter overlaps its band near the start: PD-7 ignores the firing
    unit in the band (the line does not pass through it)."""
    bf = Battlefield(_sc([("a", "A", [(10, 10, 90), (12, 10, 90)]), ("b", "B", [(14, 30, 270)])]))
    assert check_sight(bf, [0], [2], [2.0]) == [None]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(4, 90), st.integers(4, 90), st.sampled_from([0, 90, 45])),
        min_size=3,
        max_size=14,
    ),
    st.booleans(),
)
def test_index_and_brute_agree(points: list[tuple[int, int, int]], terrain: bool) -> None:
    """The STR-tree candidates and the every-base reference give the same blockers."""
    units = [
        (f"u{k}", "A" if k % 2 else "B", [(float(x), float(y), float(f))])
        for k, (x, y, f) in enumerate(points)
    ]
    feats: list[dict[str, Any]] = (
        [
            {"id": "h", "kind": "hill", "polygon": [[20, 20], [50, 20], [50, 40], [20, 40]]},
            {"id": "w", "kind": "forest", "polygon": [[50, 50], [80, 50], [70, 80]]},
            {"id": "wall", "kind": "high_wall", "line": [[10, 60], [40, 70]], "width": 0.5},
        ]
        if terrain
        else []
    )
    bf = Battlefield(_sc(units, feats))
    n = len(bf)
    s = np.repeat(np.arange(n), n)
    t = np.tile(np.arange(n), n)
    keep = bf.unit_of[s] != bf.unit_of[t]
    s, t = s[keep], t[keep]
    widths = np.full(len(s), 2.0)
    assert check_sight(bf, s, t, widths) == check_sight(bf, s, t, widths, method="brute")


def test_cover_sources_add_up_once_per_kind() -> None:
    """4.10.9: forest + rough + fence; a second overlapping wood adds nothing (Decision)."""
    terrain: list[dict[str, Any]] = [
        {"id": "w1", "kind": "forest", "polygon": [[0, 20], [40, 20], [40, 40], [0, 40]]},
        {"id": "w2", "kind": "forest", "polygon": [[5, 25], [15, 25], [15, 35], [5, 35]]},
        {"id": "r", "kind": "rough", "polygon": [[5, 25], [15, 25], [15, 35], [5, 35]]},
        {"id": "f", "kind": "obstacle", "line": [[0, 28.75], [40, 28.75]], "width": 0.5},
    ]
    bf = Battlefield(_sc([("a", "A", [(10, 10, 90)]), ("b", "B", [(10, 30, 270)])], terrain))
    got = cover(bf, 1, [0])
    assert [(c.rule, c.bonus, c.source) for c in got] == [
        ("4.10.2", 1, "w1"),
        ("4.10.3", 1, "r"),
        ("4.10.4", 1, "f"),
    ]
    assert cover(bf, 1, [0], method="brute") == got
    assert [c.rule for c in cover(bf, 1, [])] == ["4.10.2", "4.10.3"]  # PD-12: no line, no fence


def test_4_7_3_hidden_behind_own_unit() -> None:
    bf = Battlefield(_sc([("b", "B", [(10, 20, 270), (10, 22, 270), (13, 22, 270)])]))
    assert hidden_by_own_unit(bf, (10.0, 0.0), 1, [0, 2]) == [0]
    assert hidden_by_own_unit(bf, (10.0, 0.0), 2, [0, 1]) == []
