"""The table audit (szwadron.table.audit), grouped by rule; known-answer files in tests/cases/check/.

Scenarios are built in code with inline profiles (see conftest.py) so they do not depend on the
army lists. Distances in cm; PD-3's default tolerance is 0.05 cm (half a millimetre).
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from szwadron.loading import parse_scenario
from szwadron.models import Scenario
from szwadron.table.audit import AuditReport, audit, connected_groups
from szwadron.table.fire.engagement import engaged_units
from szwadron.table.melee import table_melee

CASES = Path(__file__).parent / "cases" / "check"
FENCE = {"id": "fence", "kind": "obstacle", "line": [[0, 10], [60, 10]], "width": 0.5}


def _unit(report: AuditReport, uid: str) -> Any:
    return next(u for u in report.units if u.id == uid)


def _rules(report: AuditReport) -> list[str]:
    return [p.rule for p in report.problems]


def _intrusions(report: AuditReport) -> set[tuple[str, str]]:
    return {(z.base, z.zone_of) for z in report.zone_intrusions}


# ------------------------------------------------------------------------------ 1.3.1, PD-2


@pytest.mark.parametrize("facing", [90.0, 0.0, 37.0, 211.5])
def test_1_3_1_line_is_coherent(tables: SimpleNamespace, facing: float) -> None:
    """A line of 8 touching bases, also rotated (37°, 211.5°), is one connected group."""
    r = audit(tables.scenario(tables.unit("a", "A", tables.line(50, 50, 8, facing=facing))))
    assert _unit(r, "a").coherent
    assert _unit(r, "a").groups == (tuple(f"a/{k}" for k in range(8)),)
    assert r.ok


def test_1_3_1_column_and_block_are_coherent(tables: SimpleNamespace) -> None:
    block = [b for row in range(3) for b in tables.line(20, 50 - 2 * row, 4, facing=90)]
    r = audit(
        tables.scenario(
            tables.unit("col", "A", tables.column(50, 50, 6, facing=33.0)),
            tables.unit("blk", "A", block),
            tables.unit("cav", "A", tables.column(80, 50, 4, kind="cavalry"), kind="cavalry"),
        )
    )
    assert all(u.coherent for u in r.units)
    assert r.ok


@pytest.mark.parametrize(
    ("gap", "coherent"), [(0.04, True), (0.05, True), (0.06, False), (0.1, False), (1.0, False)]
)
def test_1_3_1_pd_3_gap_tolerance_boundary(tables: SimpleNamespace, gap: float, coherent: bool) -> None:
    """PD-3 tolerance is 0.05 cm = 0.5 mm: a 0.4 mm gap touches, a 1 mm gap does NOT (nor does a
    1 cm gap) with the default setting."""
    r = audit(tables.scenario(tables.unit("a", "A", tables.line(50, 50, 4, gap=gap))))
    assert _unit(r, "a").coherent is coherent
    assert _rules(r) == ([] if coherent else ["1.3.1"])


def test_pd_3_wider_contact_tolerance_setting_admits_a_1_mm_gap(tables: SimpleNamespace) -> None:
    sc = tables.scenario(tables.unit("a", "A", tables.line(50, 50, 4, gap=0.1)), contact_tolerance_cm=0.15)
    assert _unit(audit(sc), "a").coherent


def test_1_3_1_one_centimetre_gap_splits_the_unit(tables: SimpleNamespace) -> None:
    bases = tables.line(50, 50, 3) + tables.line(57, 50, 2)  # 1 cm between a/2 and a/3
    r = audit(tables.scenario(tables.unit("a", "A", bases)))
    u = _unit(r, "a")
    assert not u.coherent
    assert u.groups == (("a/0", "a/1", "a/2"), ("a/3", "a/4"))
    (p,) = r.problems
    assert p.rule == "1.3.1" and p.bases == ("a/3", "a/4")
    assert "2 groups" in p.message


def test_1_3_1_corner_to_corner_is_touching(tables: SimpleNamespace) -> None:
    """PD-2: bases meeting at a corner (echelon) touch — their boundaries are 0 apart."""
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 12, "facing": 90}])
        )
    )
    assert _unit(r, "a").coherent


def test_6_1_panicking_unit_needs_no_coherency(tables: SimpleNamespace) -> None:
    bases = tables.line(50, 50, 2) + tables.line(60, 50, 2)
    r = audit(tables.scenario(tables.unit("a", "A", bases, state="panic")))
    assert not _unit(r, "a").coherent
    assert r.ok


# ------------------------------------------------------------------------------ 1.3.4 skirmish


@pytest.mark.parametrize(("gap", "coherent"), [(3.9, True), (4.0, True), (4.1, False)])
def test_1_3_4_skirmish_gaps(tables: SimpleNamespace, gap: float, coherent: bool) -> None:
    bases = tables.line(30, 50, 4, gap=gap, facing=20.0)
    r = audit(tables.scenario(tables.unit("sk", "A", bases, abilities=("skirmish",))))
    assert _unit(r, "sk").skirmish
    assert _unit(r, "sk").coherent is coherent
    assert _rules(r) == ([] if coherent else ["1.3.4"])


def test_1_3_4_the_skirmish_gap_is_a_figures_ability(tables: SimpleNamespace) -> None:
    """1.3.4 ("Jednostki oraz oddziały posiadające zdolność walka w rozproszeniu mogą oddalić się
    od innych jednostek w oddziale na odległość nie większą niż 4 centymetry"), 7.5.1 — a line of
    three 3 cm apart whose middle figure keeps close order: each skirmisher may stand 3 cm from
    it, so the unit is coherent, though not wholly in skirmish order. Two close-order figures
    3 cm apart are not linked: the unit falls apart (1.3.1)."""
    bases = tables.line(30, 50, 3, gap=3.0)
    bases[1] = {**bases[1], "profile": tables.profile("infantry")}
    r = audit(tables.scenario(tables.unit("sk", "A", bases, abilities=("skirmish",))))
    assert not _unit(r, "sk").skirmish
    assert _unit(r, "sk").coherent and _rules(r) == []
    bases = tables.line(30, 50, 3, gap=3.0)
    bases[2] = {**bases[2], "profile": tables.profile("infantry")}
    bases[0] = {**bases[0], "profile": tables.profile("infantry")}
    r = audit(tables.scenario(tables.unit("sk", "A", bases, abilities=("skirmish",))))
    assert _unit(r, "sk").coherent  # both close-order figures link through the skirmisher
    bases = tables.line(30, 50, 3, gap=3.0)
    r = audit(tables.scenario(tables.unit("cl", "A", bases)))
    assert not _unit(r, "cl").coherent and _rules(r) == ["1.3.1"]


# ------------------------------------------------------------------------------ 1.3.5, PD-4


def _halves(tables: SimpleNamespace, south_y: float, north_y: float, **kw: Any) -> Scenario:
    """A line of 4 split by the fence (y 9.75 to 10.25): two bases south, two north."""
    bases = tables.line(20, south_y, 2) + tables.line(24, north_y, 2)
    return tables.scenario(tables.unit("a", "A", bases), **kw)


def test_1_3_5_pd_4_fence_between_two_halves_links_them(tables: SimpleNamespace) -> None:
    """Both halves touch the 0.5 cm fence from either side; their gap (0.5) is ≤ width + tol."""
    assert _unit(audit(_halves(tables, 8.75, 11.25, terrain=[FENCE])), "a").coherent


def test_1_3_5_pd_4_without_the_fence_the_gap_breaks_the_unit(tables: SimpleNamespace) -> None:
    r = audit(_halves(tables, 8.75, 11.25))
    assert not _unit(r, "a").coherent
    assert _rules(r) == ["1.3.1"]


def test_1_3_5_pd_4_a_half_standing_back_from_the_fence_is_not_linked(tables: SimpleNamespace) -> None:
    r = audit(_halves(tables, 8.45, 11.25, terrain=[FENCE]))  # south half 0.3 cm short
    assert _unit(r, "a").groups == (("a/0", "a/1"), ("a/2", "a/3"))


# ------------------------------------------------------------------------------ PD-3 overlaps, table


def test_pd_3_overlap_is_reported_with_its_depth(tables: SimpleNamespace) -> None:
    r = audit(
        tables.scenario(
            tables.unit("a", "A", tables.line(50, 50, 2)),
            tables.unit("b", "A", [{"x": 51.0, "y": 51.7, "facing": 90}]),  # 0.3 into a/0 and a/1
        )
    )
    assert [(o.a, o.b) for o in r.overlaps] == [("a/0", "b/0"), ("a/1", "b/0")]
    assert [o.depth for o in r.overlaps] == pytest.approx([0.3, 0.3])
    assert _rules(r) == ["PD-3", "PD-3"]
    assert r.to_json()["overlaps"] == [["a/0", "b/0"], ["a/1", "b/0"]]


def test_pd_3_shallow_overlap_is_touching_not_overlap(tables: SimpleNamespace) -> None:
    r = audit(tables.scenario(tables.unit("a", "A", tables.line(50, 50, 3, gap=-0.04))))
    assert r.overlaps == () and _unit(r, "a").coherent


@pytest.mark.parametrize(("x", "off"), [(1.0, False), (0.97, False), (0.9, True), (-5.0, True)])
def test_base_off_the_edge(tables: SimpleNamespace, x: float, off: bool) -> None:
    """A base flush with the table edge (x = 1) is on; over by 0.3 mm (tolerance) still on; by
    1 mm off. Off-table is a problem (6.6: figures that leave the table are removed)."""
    r = audit(tables.scenario(tables.unit("a", "A", [{"x": x, "y": 50, "facing": 90}])))
    assert r.off_table == (("a/0",) if off else ())
    assert _rules(r) == (["6.6"] if off else [])


def test_base_off_the_far_edges(tables: SimpleNamespace) -> None:
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 199.5, "y": 50, "facing": 90}, {"x": 50, "y": 200, "facing": 0}]),
        )
    )
    assert r.off_table == ("a/0", "a/1")


# ------------------------------------------------------------------------------ 3.2.4, 3.2.5


def test_3_2_4_3_2_5_forbidden_terrain(tables: SimpleNamespace) -> None:
    terrain = [
        {"id": "farm", "kind": "building", "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]},
        {"id": "wall", "kind": "high_wall", "line": [[40, 0], [40, 30]], "width": 0.5},
        {
            "id": "fort",
            "kind": "fortification",
            "large": True,
            "polygon": [[60, 10], [80, 10], [80, 30], [60, 30]],
        },
        {"id": "marsh", "kind": "impassable", "polygon": [[100, 10], [110, 10], [110, 20]]},
    ]
    r = audit(
        tables.scenario(
            tables.unit(
                "inf",
                "A",
                [
                    {"x": 15, "y": 15, "facing": 90},
                    {"x": 40, "y": 20, "facing": 0},
                    {"x": 107, "y": 13, "facing": 0},
                ],
            ),
            tables.unit(
                "cav",
                "A",
                [{"x": 12, "y": 12.5, "facing": 90}, {"x": 70, "y": 20, "facing": 90}],
                kind="cavalry",
            ),
            tables.unit(
                "gun",
                "A",
                [{"x": 70, "y": 15, "facing": 90}, {"x": 22, "y": 15, "facing": 90}],
                kind="foot_artillery",
            ),
            terrain=terrain,
        )
    )
    got = [(f.base, f.terrain, f.rule) for f in r.forbidden_terrain]
    assert got == [
        ("inf/1", "wall", "3.2.4"),
        ("inf/2", "marsh", "3.2.4"),
        ("cav/0", "farm", "3.2.5"),
        ("cav/1", "fort", "3.2.5"),
    ]  # infantry in the farm, the gun in the large fort and the gun touching the farm are fine
    assert r.to_json()["forbidden_terrain"][0] == ["inf/1", "wall"]


def test_3_2_5_touching_a_building_from_outside_is_allowed(tables: SimpleNamespace) -> None:
    farm = {"id": "farm", "kind": "building", "polygon": [[10, 10], [20, 10], [20, 20], [10, 20]]}
    for y in (8.0, 8.04):  # flush, and 0.4 mm inside (within the tolerance)
        r = audit(
            tables.scenario(
                tables.unit("cav", "A", [{"x": 15, "y": y, "facing": 90}], kind="cavalry"), terrain=[farm]
            )
        )
        assert r.forbidden_terrain == ()


# ------------------------------------------------------------------------------ PD-14, 5.1.2, 5.3


@pytest.mark.parametrize(("overlap", "engaged"), [(0.5, False), (0.95, False), (1.0, True), (2.0, True)])
def test_5_1_2_pd_14_contact_lengths(tables: SimpleNamespace, overlap: float, engaged: bool) -> None:
    """Face to face, offset so that the front edges overlap by 0.5, 0.95, 1 or 2 cm: contact
    at least 1 cm (half a base) makes the base in contact and the units engaged."""
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 50, "y": 50, "facing": 90}]),
            tables.unit("b", "B", [{"x": 50 + 2 - overlap, "y": 52, "facing": 270}]),
        )
    )
    (c,) = r.contacts
    assert (c.a, c.b) == ("a/0", "b/0")
    assert c.length == pytest.approx(overlap)
    assert _unit(r, "a").engaged_with == (("b",) if engaged else ())
    assert _unit(r, "b").engaged_with == (("a",) if engaged else ())
    assert r.bases_in_contact == (("a/0", "b/0") if engaged else ())
    # not engaged but touching: each stands in the other's zone (1.4.2)
    assert _intrusions(r) == (set() if engaged else {("a/0", "b/0"), ("b/0", "a/0")})


def test_5_1_2_contact_adds_up_over_enemy_bases(tables: SimpleNamespace) -> None:
    """PD-14: a base touching two enemy bases along 0.6 cm each is in contact (1.2 cm)."""
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 50, "y": 50, "facing": 90}]),
            tables.unit("b", "B", tables.line(51.4, 52, 2, facing=270, gap=0.8)),  # a/0 sees both
        )
    )
    assert sorted(c.length for c in r.contacts) == pytest.approx([0.6, 0.6])
    assert "a/0" in r.bases_in_contact and "b/0" not in r.bases_in_contact
    assert _unit(r, "a").engaged_with == ("b",)


def test_pd_14_corner_to_corner_is_touching_but_no_contact(tables: SimpleNamespace) -> None:
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 50, "y": 50, "facing": 90}]),
            tables.unit("b", "B", [{"x": 52, "y": 52, "facing": 270}]),
        )
    )
    assert [c.length for c in r.contacts] == [0.0]
    assert _unit(r, "a").engaged_with == ()


# ------------------------------------------------------------------------------ 1.4 control zones


@pytest.mark.parametrize(("gap", "inside"), [(1.9, True), (1.999, True), (2.0, False), (2.1, False)])
def test_1_4_1_zone_is_2_cm_from_the_base(tables: SimpleNamespace, gap: float, inside: bool) -> None:
    """Decision: inside means nearer than 2 cm; exactly 2 cm touches the rim and is outside."""
    r = audit(
        tables.scenario(
            tables.unit("a", "A", tables.line(50, 50, 3)),
            tables.unit("b", "B", [{"x": 52, "y": 52 + gap, "facing": 270}]),
        )
    )
    both_ways = {p for k in range(3) for p in (("b/0", f"a/{k}"), (f"a/{k}", "b/0"))}
    assert _intrusions(r) == (both_ways if inside else set())  # b/0 faces a/1, corners a/0, a/2
    assert _rules(r) == (["1.4.2", "1.4.2"] if inside else [])


def test_1_4_1_panicking_unit_has_no_zone(tables: SimpleNamespace) -> None:
    r = audit(
        tables.scenario(
            tables.unit("a", "A", [{"x": 50, "y": 50, "facing": 90}], state="panic"),
            tables.unit("b", "B", [{"x": 50, "y": 53, "facing": 270}]),
        )
    )
    assert _intrusions(r) == {("a/0", "b/0")}  # a is in b's zone; a has none


def test_5_9_engaged_units_do_not_intrude_but_others_do(tables: SimpleNamespace) -> None:
    r = audit(
        tables.scenario(
            tables.unit("a", "A", tables.line(50, 50, 2)),
            tables.unit("b", "B", tables.line(52, 52, 2, facing=270)),  # flush: engaged
            tables.unit("c", "B", [{"x": 55.5, "y": 50, "facing": 180}]),  # 1.5 cm from a/1 only
        )
    )
    assert _unit(r, "a").engaged_with == ("b",)
    # a/1 stands in c's zone (c is not engaged); a/1 is engaged, so its zone is neutralised
    # and c may stand in it (5.9.3)
    assert _intrusions(r) == {("a/1", "c/0")}


def test_1_4_2_pd_4_charged_across_a_fence_as_melee_measures_it() -> None:
    """1.4.2 ("chyba że atakują te jednostki"), 1.3.5, PD-4 — the known-answer case
    1_4_2_charged_across_a_fence: the audit's contacts across the fence are exactly the links
    ``szwadron melee`` fights with, and the fire check's engagement (4.1.1) agrees."""
    scenario, _ = _load_case(CASES / "1_4_2_charged_across_a_fence.toml")
    report = audit(scenario)
    links = table_melee(scenario, "a", "d").links
    assert {(c.a, c.b): c.length for c in report.contacts if c.a[0] == "a"} == {
        (a, d): length for a, foes in links.items() if a[0] == "a" for d, length in foes.items()
    }
    assert report.bases_in_contact[:4] == ("a/0", "a/1", "d/0", "d/1")
    assert not [z for z in report.zone_intrusions if z.base[0] in "ad"]
    bf = report.table
    assert bf is not None
    assert engaged_units(bf, bf.unit_ids.index("a"), "index") == ("d",)
    assert engaged_units(bf, bf.unit_ids.index("g"), "index") == ()


def test_5_9_3_engaged_figure_zone_lets_others_pass(tables: SimpleNamespace) -> None:
    """5.9.3: the zone of a figure engaged in melee is neutralised and lets other figures pass,
    as the move check counts it; a figure of a third unit next to it is no intrusion. The same
    figure not engaged (the enemy 0.5 cm away, not touching) keeps its zone."""

    def setup(gap: float) -> AuditReport:
        return audit(
            tables.scenario(
                tables.unit("a", "A", [{"x": 50, "y": 50, "facing": 90}]),
                tables.unit("b", "B", [{"x": 50, "y": 52 + gap, "facing": 270}]),  # flush in front
                tables.unit("c", "B", [{"x": 53.5, "y": 50, "facing": 90}]),  # 1.5 cm right of a/0
            )
        )

    engaged = setup(0.0)
    assert _unit(engaged, "a").engaged_with == ("b",)
    assert ("c/0", "a/0") not in _intrusions(engaged)
    assert ("a/0", "c/0") in _intrusions(engaged)  # c is not engaged: its zone holds
    apart = setup(0.5)
    assert _unit(apart, "a").engaged_with == ()
    assert ("c/0", "a/0") in _intrusions(apart)


@pytest.mark.parametrize(("facing", "inside"), [(90.0, False), (0.0, True)])
def test_pd_1_cavalry_orientation_changes_what_is_in_its_zone(
    tables: SimpleNamespace, facing: float, inside: bool
) -> None:
    """PD-1: a cavalry base facing +y is 2 cm wide along x, so an enemy 3.5 cm to the right of
    its centre is 2.5 cm away; turned to face +x it is 4 cm long along x and 1.5 cm away."""
    r = audit(
        tables.scenario(
            tables.unit("cav", "A", [{"x": 50, "y": 50, "facing": facing}], kind="cavalry"),
            tables.unit("b", "B", [{"x": 54.5, "y": 50, "facing": 270}]),
        )
    )
    assert (("b/0", "cav/0") in _intrusions(r)) is inside


def test_1_4_3_enemy_behind_a_fence_is_in_the_zone(tables: SimpleNamespace) -> None:
    """a/0 stands at the fence (flush, south); b/0 is 2.7 cm from a/0 but only 1.7 cm beyond the
    1 cm fence: measured from the far side of the fence it is inside a's zone."""
    fence = {"id": "fence", "kind": "obstacle", "line": [[0, 10], [60, 10]], "width": 1.0}
    a = tables.unit("a", "A", [{"x": 20, "y": 8.5, "facing": 90}])  # front edge on y = 9.5
    b = tables.unit("b", "B", [{"x": 20, "y": 13.2, "facing": 270}])  # back edge y = 12.2
    r = audit(tables.scenario(a, b, terrain=[fence]))
    (z,) = r.zone_intrusions
    assert (z.base, z.zone_of, z.across) == ("b/0", "a/0", "fence")
    assert z.distance == pytest.approx(2.7)
    assert "1.4.3" in r.problems[0].message
    assert audit(tables.scenario(a, b)).zone_intrusions == ()  # no fence: 2.7 cm is outside


def test_1_4_3_zone_beyond_the_fence_does_not_spread_sideways(tables: SimpleNamespace) -> None:
    fence = {"id": "fence", "kind": "obstacle", "line": [[0, 10], [60, 10]], "width": 1.0}
    a = tables.unit("a", "A", [{"x": 20, "y": 8.5, "facing": 90}])
    side = tables.unit("b", "B", [{"x": 24.2, "y": 11.5, "facing": 270}])  # beyond, 2.2 cm aside
    assert audit(tables.scenario(a, side, terrain=[fence])).zone_intrusions == ()


def test_1_4_3_a_base_back_from_the_fence_keeps_its_own_zone(tables: SimpleNamespace) -> None:
    fence = {"id": "fence", "kind": "obstacle", "line": [[0, 10], [60, 10]], "width": 1.0}
    a = tables.unit("a", "A", [{"x": 20, "y": 8.2, "facing": 90}])  # 0.3 cm short of the fence
    b = tables.unit("b", "B", [{"x": 20, "y": 13.2, "facing": 270}])  # 3.0 cm from a
    assert audit(tables.scenario(a, b, terrain=[fence])).zone_intrusions == ()


def test_3_2_1_zone_from_the_foot_of_the_hill(tables: SimpleNamespace) -> None:
    """Decision: the hill's outline is its foot. A figure on the edge (flush with the outline)
    reaches 2 cm beyond the foot; one standing 1 cm up the hill measures from its own base."""
    hill = {"id": "hill", "kind": "hill", "polygon": [[0, 0], [60, 0], [60, 10], [0, 10]]}
    below = tables.unit("b", "B", [{"x": 20, "y": 12.9, "facing": 270}])  # 1.9 cm off the foot
    edge = tables.unit("a", "A", [{"x": 20, "y": 9, "facing": 90}])
    up = tables.unit("a", "A", [{"x": 20, "y": 8, "facing": 90}])
    assert ("b/0", "a/0") in _intrusions(audit(tables.scenario(edge, below, terrain=[hill])))
    assert audit(tables.scenario(up, below, terrain=[hill])).zone_intrusions == ()


# ------------------------------------------------------------------------------ union-find


def test_pd_2_connected_groups() -> None:
    assert connected_groups(6, [5, 1, 2], [4, 2, 0]).tolist() == [0, 0, 0, 3, 4, 4]
    assert connected_groups(0, [], []).tolist() == []


# ------------------------------------------------------------------------------ known answers


def _load_case(path: Path) -> tuple[Scenario, dict[str, Any]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    expected = data.pop("expected")
    return parse_scenario(data, source=str(path), folders=[]), expected


def _view(report: AuditReport, key: str) -> Any:
    doc = report.to_json()
    if key == "problem_rules":
        return sorted(p["rule"] for p in doc["problems"])
    if key == "incoherent":
        return [u["id"] for u in doc["units"] if not u["coherent"]]
    if key == "groups":
        return {u["id"]: u["groups"] for u in doc["units"]}
    if key == "engaged":
        return sorted(sorted([u["id"], v]) for u in doc["units"] for v in u["engaged_with"] if u["id"] < v)
    if key == "contacts":
        return [[c["a"], c["b"], round(c["length"], 3)] for c in doc["contacts"]]
    if key == "zone_intrusions":
        return sorted([z["base"], z["zone_of"]] for z in doc["zone_intrusions"])
    return doc[key]


@pytest.mark.parametrize("case", sorted(CASES.glob("*.toml")), ids=lambda p: p.stem)
def test_known_answer_cases(case: Path) -> None:
    """Each file cites its rule in a comment and stores the expected answer in ``[expected]``."""
    scenario, expected = _load_case(case)
    report = audit(scenario)
    assert expected, f"{case.name}: empty [expected]"
    for key, want in expected.items():
        got = _view(report, key)
        if key == "groups":
            got = {k: v for k, v in got.items() if k in want}
        assert got == want, f"{case.name}: [expected].{key}"
    assert audit(scenario, method="brute") == report


# ------------------------------------------------------------------------------ properties


def _transform(
    doc: dict[str, Any], dx: float, dy: float, turn: float, cx: float, cy: float
) -> dict[str, Any]:
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)

    def pt(p: list[float]) -> list[float]:
        x, y = p[0] - cx, p[1] - cy
        return [cx + c * x - s * y + dx, cy + s * x + c * y + dy]

    out = {**doc, "units": [], "terrain": []}
    for u in doc["units"]:
        bases = []
        for b in u["bases"]:
            x, y = pt([b["x"], b["y"]])
            bases.append({**b, "x": x, "y": y, "facing": (b["facing"] + turn) % 360.0})
        out["units"].append({**u, "bases": bases})
    for t in doc["terrain"]:
        key = "line" if "line" in t else "polygon"
        out["terrain"].append({**t, key: [pt(p) for p in t[key]]})
    return out


@st.composite
def tables_docs(draw: st.DrawFn) -> dict[str, Any]:
    """Small random set-ups: pairs of enemy units facing each other at chosen gaps and offsets
    (touching, within the tolerance, at the 2 cm rim, ...), sometimes with a fence along the
    front, plus stray units and terrain — on a 0.1 cm grid, hitting the PD-3 boundaries on
    purpose."""
    from conftest import column, line, unit

    units: list[dict[str, Any]] = []
    terrain: list[dict[str, Any]] = []

    def formation(x: float, y: float, facing: float, kind: str, skirmish: bool) -> list[Any]:
        gap = (
            draw(st.sampled_from([0.0, 0.03, 0.05, 0.2, 1.0, 3.0]))
            if skirmish
            else draw(st.sampled_from([0.0, 0.0, 0.04, -0.03, 0.5]))
        )
        shape = draw(st.sampled_from([line, column]))
        return shape(x, y, draw(st.integers(1, 4)), facing, gap, kind)  # type: ignore[no-any-return]

    def add(side: str, bases: list[Any], kind: str, skirmish: bool) -> None:
        state = draw(st.sampled_from(["normal", "normal", "normal", "panic"]))
        units.append(
            unit(
                f"u{len(units)}",
                side,
                bases,
                kind=kind,
                abilities=("skirmish",) if skirmish else (),
                state=state,
            )
        )

    kinds = st.sampled_from(["infantry", "infantry", "cavalry", "foot_artillery"])
    for pair in range(draw(st.integers(1, 2))):
        kind_a, kind_b = draw(kinds), draw(kinds)
        skirmish = kind_a == "infantry" and draw(st.booleans())
        x = draw(st.integers(1900, 2100)) / 10
        y = 190.0 + 12.0 * pair
        facing = draw(st.sampled_from([0.0, 90.0, 180.0, 30.0, 45.0]))
        a = math.radians(facing)
        fwd, right = (math.cos(a), math.sin(a)), (math.sin(a), -math.cos(a))
        depth_a = 4.0 if kind_a != "infantry" else 2.0
        depth_b = 4.0 if kind_b != "infantry" else 2.0
        gap = draw(st.sampled_from([0.0, 0.0, 0.04, 0.5, 1.0, 1.5, 1.9, 2.0, 2.5]))
        shift = draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0]))
        ahead = depth_a / 2 + gap + depth_b / 2
        bx, by = x + ahead * fwd[0] + shift * right[0], y + ahead * fwd[1] + shift * right[1]
        add("A", formation(x, y, facing, kind_a, skirmish), kind_a, skirmish)
        add("B", formation(bx, by, facing + 180.0, kind_b, False), kind_b, False)
        if draw(st.booleans()):  # a fence along A's front, touching it or 0.3 cm ahead
            width = draw(st.sampled_from([0.5, 1.0]))
            off = depth_a / 2 + width / 2 + draw(st.sampled_from([0.0, 0.3]))
            cx, cy = x + off * fwd[0], y + off * fwd[1]
            terrain.append(
                {
                    "id": f"fence{pair}",
                    "kind": "obstacle",
                    "width": width,
                    "line": [
                        [cx - 12 * right[0], cy - 12 * right[1]],
                        [cx + 12 * right[0], cy + 12 * right[1]],
                    ],
                }
            )
    if draw(st.booleans()):
        kind = draw(kinds)
        add(
            draw(st.sampled_from("AB")),
            formation(
                draw(st.integers(1850, 2150)) / 10,
                draw(st.integers(1850, 2150)) / 10,
                draw(st.sampled_from([0.0, 90.0, 45.0])),
                kind,
                False,
            ),
            kind,
            False,
        )
    if draw(st.booleans()):
        x0, y0 = draw(st.integers(1850, 2150)) / 10, draw(st.integers(1850, 2150)) / 10
        terrain.append(
            {
                "id": "farm",
                "kind": draw(st.sampled_from(["building", "impassable"])),
                "polygon": [[x0, y0], [x0 + 6, y0], [x0 + 6, y0 + 4], [x0, y0 + 4]],
            }
        )
    return {"name": "random", "table": {"width": 400, "depth": 400}, "units": units, "terrain": terrain}


def _comparable(report: AuditReport) -> dict[str, Any]:
    doc = report.to_json()
    for c in doc["contacts"]:
        c["length"] = round(c["length"], 4)
        c["distance"] = round(c["distance"], 4)
    for z in doc["zone_intrusions"]:
        z["distance"] = round(z["distance"], 4)
    doc["overlap_depths"] = [round(v, 4) for v in doc["overlap_depths"]]
    return doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_docs(), st.floats(-150, 150), st.floats(-150, 150), st.floats(0, 360))
def test_audit_is_unchanged_by_moving_or_turning_the_whole_table(
    doc: dict[str, Any], dx: float, dy: float, turn: float
) -> None:
    """Translating and rotating every base and terrain feature about a point changes nothing
    (the table is 400 × 400 and the action within 30 cm of its centre, so nothing goes off)."""
    before = audit(Scenario.model_validate(doc))
    moved = _transform(doc, dx, dy, turn, 200.0, 200.0)
    after = audit(Scenario.model_validate(moved))
    assert _comparable(after) == _comparable(before)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_docs())
def test_audit_with_the_index_equals_the_brute_force(doc: dict[str, Any]) -> None:
    sc = Scenario.model_validate(doc)
    assert audit(sc) == audit(sc, method="brute")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables_docs())
def test_pd_14_contacts_and_engagement_are_symmetric(doc: dict[str, Any]) -> None:
    """Swapping the order of the units changes neither contact lengths nor engagements."""
    r1 = audit(Scenario.model_validate(doc))
    r2 = audit(Scenario.model_validate({**doc, "units": doc["units"][::-1]}))
    c1 = {frozenset((c.a, c.b)): round(c.length, 9) for c in r1.contacts}
    c2 = {frozenset((c.a, c.b)): round(c.length, 9) for c in r2.contacts}
    assert c1 == c2
    e1 = {u.id: set(u.engaged_with) for u in r1.units}
    e2 = {u.id: set(u.engaged_with) for u in r2.units}
    assert e1 == e2
    for uid, partners in e1.items():
        for v in partners:
            assert uid in e1[v]


def _recorded(tables: SimpleNamespace, engaged: bool) -> Scenario:
    """a and d 1 cm apart (inside each other's 2 cm zone, not touching): a melee's losses took the
    figures that touched, and the push-up (5.6) has not yet closed the gap."""
    a = tables.unit("a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}])
    d = tables.unit("d", "B", [{"x": 10.0, "y": 13.0, "facing": 270.0}])
    if engaged:
        a["engaged_with"], d["engaged_with"] = ["d"], ["a"]
    return tables.scenario(a, d, width=50.0, depth=50.0)


def test_5_9_units_recorded_as_engaged_are_no_intruders(tables: SimpleNamespace) -> None:
    """5.9, 5.1.2 — units the game records as engaged (``melee --apply`` writes ``engaged_with``)
    may stand in each other's zones though their figures no longer touch; unengaged, the same
    position is an intrusion (1.4.1)."""
    assert audit(_recorded(tables, engaged=False)).zone_intrusions
    report = audit(_recorded(tables, engaged=True))
    assert report.zone_intrusions == ()
    # the engagement the game records is reported, though the figures no longer touch
    assert {u.id: (u.engaged_with, u.recorded_engaged) for u in report.units} == {
        "a": ((), ("d",)),
        "d": ((), ("a",)),
    }
    from szwadron.cli.check import format_report

    text = format_report(report, "t.toml")
    assert "1 engaged pair" in text.splitlines()[0]
    assert "recorded as engaged with d, not touching: a push-up is pending (5.6)" in text


def test_5_9_3_a_unit_recorded_as_engaged_lets_a_third_unit_stand_in_its_zone(
    tables: SimpleNamespace,
) -> None:
    """5.9.3 — "Strefy kontroli takich jednostek neutralizują się nawzajem i pozwalają innym
    jednostkom przejść dalej": a melee's losses took the figures of a and d that touched (and
    neutralised d's zone where c stands); until the push-up (5.6), d is engaged as the game
    records it, so c, a's friend 1 cm beside d, is no intruder. Unrecorded, c intrudes (1.4.1), and
    c is still an intruder in the zone of e, an enemy unit engaged with nobody."""
    a = tables.unit("a", "A", [{"x": 10.0, "y": 10.0, "facing": 90.0}])
    c = tables.unit("c", "A", [{"x": 15.0, "y": 13.0, "facing": 90.0}])
    e = tables.unit("e", "B", [{"x": 30.0, "y": 13.0, "facing": 270.0}])
    f = tables.unit("f", "A", [{"x": 30.0, "y": 16.0, "facing": 90.0}])

    def scenario(engaged: bool) -> Scenario:
        d = tables.unit("d", "B", [{"x": 12.0, "y": 13.0, "facing": 270.0}])
        if engaged:
            d["engaged_with"] = ["a"]
        return tables.scenario(a, c, d, e, f, width=50.0, depth=50.0)

    def intruders(sc: Scenario) -> set[tuple[str, str]]:
        return {(z.base, z.zone_of) for z in audit(sc).zone_intrusions}

    assert ("c/0", "d/0") in intruders(scenario(engaged=False))
    got = intruders(scenario(engaged=True))
    assert ("c/0", "d/0") not in got and ("a/0", "d/0") not in got
    assert ("f/0", "e/0") in got
