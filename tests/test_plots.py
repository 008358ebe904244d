"""Pictures (issue 8): the table drawn to scale and the charts of the odds, as a library.

Overlay functions are checked by counting the artists they draw against the scenario (one patch
per base, one zone per non-panicking unit — 1.4.1 —, one stroke per contact — PD-14) and by
where they draw them (front edges, zones across an obstacle — 1.4.3 —, labels clear of bases).
The Agg backend is used throughout; nothing is shown.
"""

from __future__ import annotations

import struct
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import shapely
from matplotlib.colors import to_rgb

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import bundled_scenario, load_scenario
from szwadron.models import Scenario, UnitState
from szwadron.odds.combat import MeleeSide, melee, volley
from szwadron.odds.morale import casualty_test, fire_outcome
from szwadron.plots import odds as podds
from szwadron.plots import table as ptable
from szwadron.plots._io import figure_format, new_figure, pixel_size, save_figure
from szwadron.table.audit import audit


@pytest.fixture(scope="module")
def example() -> Scenario:
    return load_scenario(bundled_scenario())


def new_ax(width: float = 12.3, height: float = 7.3) -> Any:
    return new_figure(width, height).add_subplot()


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def panic_scenario(tables: SimpleNamespace) -> Scenario:
    """Two A units (one panicking), one B unit 1 cm in front of the normal one (in its zone)."""
    return tables.scenario(
        tables.unit("a", "A", tables.line(20, 20, 3)),
        tables.unit("p", "A", tables.line(60, 20, 2), state="panic"),
        tables.unit("b", "B", tables.line(20, 23, 2, facing=270)),
        width=100,
        depth=60,
    )


# --- bases (1.2) --------------------------------------------------------------------------------
def test_1_2_one_rectangle_per_base_at_its_corners(example: Scenario) -> None:
    """1.2 — one rectangle per base, in battlefield order, exactly at the base's corners; all
    in one collection (issue 16: 50,000 bases draw in seconds)."""
    bf = Battlefield(example)
    art = ptable.plot_bases(bf, new_ax())
    (bases,) = art["bases"]
    paths = bases.get_paths()
    assert len(paths) == sum(len(u.bases) for u in example.units) == len(bf)
    for k in (0, 40, len(bf) - 1):
        verts = paths[k].vertices[:4]
        assert np.allclose(verts, bf.corners[k])
    assert bases.get_gid() == "bases"


def test_1_2_facing_mark_is_the_front_edge_of_every_base(tables: SimpleNamespace) -> None:
    """1.2 — the facing mark is the front edge: a segment between the two front corners, for a
    base turned any way (facing 30° here)."""
    sc = tables.scenario(tables.unit("c", "A", [{"x": 50, "y": 40, "facing": 30}], kind="cavalry"))
    art = ptable.plot_bases(sc, new_ax())
    (fronts,) = art["fronts"]
    (seg,) = fronts.get_segments()
    corners = base_corners(50, 40, 30, 2, 4)
    assert np.allclose(seg, corners[:2])
    mid = seg.mean(axis=0)  # 2 cm ahead of the centre along the facing (PD-1: 4 cm deep)
    assert np.allclose(mid, [50 + 2 * np.cos(np.radians(30)), 40 + 2 * np.sin(np.radians(30))])


def test_1_1_per_figure_profiles_and_guns_are_marked(example: Scenario) -> None:
    """1.1 — a dot on every figure with a profile of its own (2 grenadiers, 1 limber in the
    example); 4.4.3 — a barrel line on every gun."""
    art = ptable.plot_bases(example, new_ax())
    own = [
        (u.id, i)
        for u in example.units
        for i, b in enumerate(u.bases)
        if b.profile is not None and b.profile != u.profile
    ]
    assert own  # the grenadier company and the howitzers' limber
    (dots,) = art["profiles"]
    assert len(dots.get_offsets()) == len(own)
    guns = sum(u.base_profile(i).kind.is_artillery for u in example.units for i in range(len(u.bases)))
    (barrels,) = art["barrels"]
    assert len(barrels.get_segments()) == guns > 0


def test_side_colours_differ_and_follow_the_palette(tables: SimpleNamespace) -> None:
    """Side A bases blue, side B white (the palette), so the two sides never look alike."""
    sc = panic_scenario(tables)
    art = ptable.plot_bases(sc, new_ax())
    (bases,) = art["bases"]
    a_fill = bases.get_facecolor()[0][:3]
    b_fill = bases.get_facecolor()[-1][:3]
    assert np.allclose(a_fill, to_rgb(ptable.SIDE_COLOURS["A"].fill))
    assert np.allclose(b_fill, to_rgb(ptable.SIDE_COLOURS["B"].fill))
    assert a_fill[2] > a_fill[0] + 0.2  # blue-ish
    assert min(b_fill) > 0.9  # white-ish


def test_6_1_panicking_bases_hatched(tables: SimpleNamespace) -> None:
    """6.1 — each base of a panicking unit carries a hatch; no other base does."""
    sc = panic_scenario(tables)
    art = ptable.plot_bases(sc, new_ax())
    (hatch,) = art["panic"]
    assert len(hatch.get_paths()) == 2 and hatch.get_hatch()
    corners = Battlefield(sc).corners  # a's 3 bases, then p's 2
    assert all(np.allclose(path.vertices[:4], corners[3 + i]) for i, path in enumerate(hatch.get_paths()))


# --- zones (1.4) --------------------------------------------------------------------------------
def test_1_4_1_one_zone_per_non_panicking_unit_of_the_right_area(tables: SimpleNamespace) -> None:
    """1.4.1 — a panicking unit has no zone; each other unit's zone is the 2 cm round buffer of
    its bases (the patch encloses exactly that area)."""
    sc = panic_scenario(tables)
    bf = Battlefield(sc)
    art = ptable.plot_zones(bf, new_ax())
    assert len(art["zones"]) == sum(u.state is not UnitState.PANIC for u in sc.units) == 2
    for patch, uid in zip(art["zones"], ["a", "b"], strict=True):
        want = shapely.union_all(shapely.buffer(bf.polygons[bf.unit_bases(uid)], 2.0))
        poly = shapely.Polygon(patch.get_path().vertices)
        assert poly.area == pytest.approx(want.area, rel=2e-3)
        assert patch.get_zorder() < ptable.ZORDER["bases"]  # zones never hide bases


def test_1_4_intruding_bases_ringed(tables: SimpleNamespace) -> None:
    """1.4 — the bases standing in an enemy zone (audit.zone_intrusions) are ringed, once each:
    here a/0, a/1 and b/0, b/1 stand 1 cm apart."""
    sc = panic_scenario(tables)
    report = audit(sc)
    intruders = {z.base for z in report.zone_intrusions}
    assert intruders == {"a/0", "a/1", "b/0", "b/1"}
    art = ptable.plot_zones(sc, new_ax(), report=report)
    assert len(art["intrusions"]) == 4
    assert ptable.plot_zones(sc, new_ax(), intrusions=False)["intrusions"] == []


def test_1_4_3_zone_measured_from_the_far_side_of_a_fence(tables: SimpleNamespace) -> None:
    """1.4.3 — a base touching a 1 cm fence has its zone measured from the fence's far side: it
    reaches 2 cm beyond the fence opposite the base, not sideways along it."""
    fence = {"id": "f", "kind": "obstacle", "line": [[0, 50], [40, 50]], "width": 1.0}
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 20, "y": 48.5, "facing": 90}]), terrain=[fence], width=60, depth=80
    )
    (patch,) = ptable.plot_zones(sc, new_ax(), intrusions=False)["zones"]
    path = patch.get_path()
    assert path.contains_point((20, 52.3))  # 1.8 cm beyond the fence's far side (50.5)
    assert not path.contains_point((20, 52.7))
    assert not path.contains_point((24.5, 51.0))  # beside the base's frontage, beyond 2 cm


# --- contacts (PD-14) ---------------------------------------------------------------------------
def test_pd_14_one_mark_per_contact_along_the_touching_edge(example: Scenario) -> None:
    """PD-3, PD-14 — one mark per enemy contact of the audit; a full contact is a stroke along
    the 2 cm shared edge (fr-cuirassiers/0 — au-chevaulegers/0 at y = 27)."""
    report = audit(example)
    art = ptable.plot_contacts(example, new_ax(), report=report)
    full = [c for c in report.contacts if c.length > 0.05]
    assert len(art["contacts"]) == len(full) > 0
    assert art["corners"] == []  # the corner touches all belong to bases in edge contact
    first = next(a for a in art["contacts"] if a.get_gid() == "contact-fr-cuirassiers-0-au-chevaulegers-0")
    ext = first.get_path().get_extents()
    assert (ext.x0, ext.x1) == pytest.approx((150.0, 152.0), abs=0.06)
    assert ext.y0 == pytest.approx(27.0, abs=0.06) and ext.y1 == pytest.approx(27.0, abs=0.06)


def test_pd_14_lone_corner_contact_is_a_dot(tables: SimpleNamespace) -> None:
    """PD-14 — two enemy bases touching only at a corner (contact length 0): one dot there."""
    sc = tables.scenario(
        tables.unit("a", "A", [{"x": 10, "y": 10, "facing": 90}]),
        tables.unit("b", "B", [{"x": 12, "y": 12, "facing": 270}]),
        width=40,
        depth=40,
    )
    report = audit(sc)
    assert [(c.a, c.b, c.length) for c in report.contacts] == [("a/0", "b/0", 0.0)]
    art = ptable.plot_contacts(sc, new_ax(), report=report)
    assert art["contacts"] == [] and len(art["corners"]) == 1
    assert art["corners"][0].center == pytest.approx((11.0, 11.0), abs=0.05)


# --- terrain (3.2) ------------------------------------------------------------------------------
def test_3_2_terrain_one_patch_per_feature_in_its_style(example: Scenario) -> None:
    """3.2 — one patch per feature in scenario order; forests and rough ground textured; the
    key names each kind present."""
    ax = new_ax()
    art = ptable.plot_terrain(example, ax)
    assert [p.get_gid() for p in art["terrain"]] == [f"terrain-{t.id}" for t in example.terrain]
    textured = [t for t in example.terrain if ptable.terrain_style(t.kind).hatch]
    assert len(art["hatches"]) == len(textured) > 0  # the wood and the marsh
    legend = ptable.draw_legend(ax)
    labels = [t.get_text() for t in legend.get_texts()]
    for want in (
        "hill, level 1",
        "hill, level 2",
        "forest",
        "rough ground",
        "obstacle (fence, stream)",
        "building",
    ):
        assert want in labels


def test_3_2_higher_hills_are_darker() -> None:
    """3.2.1 — the shade of a hill darkens with its level."""
    lum = [sum(to_rgb(ptable.hill_colour(level))) for level in range(1, 6)]
    assert lum == sorted(lum, reverse=True) and len(set(lum)) == 5


def test_geometry_path_keeps_holes() -> None:
    """A polygon with a hole (a zone ring around a square of bases) stays hollow."""
    from matplotlib.patches import PathPatch

    ring = shapely.box(0, 0, 10, 10).difference(shapely.box(3, 3, 7, 7))
    fig = new_figure(1, 1)
    fig.set_layout_engine(None)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 10)
    ax.set_axis_off()
    ax.add_patch(PathPatch(ptable.geometry_path(ring), facecolor="#000000", edgecolor="none"))
    fig.canvas.draw()
    canvas: Any = fig.canvas
    pixels = np.asarray(canvas.buffer_rgba())[..., :3]  # 100 × 100, row 0 at the top
    assert pixels[50, 50].tolist() == [255, 255, 255]  # the hole, (5, 5)
    assert pixels[90, 10].tolist() == [0, 0, 0]  # the ring, (1, 1)


# --- the whole table --------------------------------------------------------------------------
def test_plot_table_draws_every_layer_and_labels_clear_of_bases(example: Scenario) -> None:
    """The whole table: one label per unit, none covering a base (measured on the drawn text),
    the view the table plus a margin, equal scale, a 10 cm scale bar."""
    fig = new_figure(*ptable.table_figsize(ptable.table_view(example)))
    ax = fig.add_subplot()
    art = ptable.plot_table(example, ax, zones=True)
    assert len(art["labels"]) == len(example.units)
    assert len(art["zones"]) == sum(u.state is not UnitState.PANIC for u in example.units)
    panicking = sum(len(u.bases) for u in example.units if u.state is UnitState.PANIC)
    assert sum(len(c.get_paths()) for c in art["panic"]) == panicking
    assert ax.get_xlim()[0] < 0 < example.table.width < ax.get_xlim()[1]
    assert ax.get_aspect() == 1.0
    assert art["scale_bar"][-1].get_text() == "10 cm"
    assert len(art["legend"]) == 1
    fig.canvas.draw()
    bf = Battlefield(example)
    inv = ax.transData.inverted()
    for text in art["labels"]:
        (x0, y0), (x1, y1) = inv.transform(text.get_window_extent())
        box = shapely.box(x0, y0, x1, y1)
        assert not shapely.intersects(box, bf.polygons).any(), text.get_text()
    # nothing falls off the figure (the key, the axis labels, the title)
    canvas: Any = fig.canvas
    tight = fig.get_tightbbox(canvas.get_renderer())
    w, h = fig.get_size_inches()
    assert tight.x0 >= -0.01 and tight.y0 >= -0.01 and tight.x1 <= w + 0.01 and tight.y1 <= h + 0.01


@pytest.mark.parametrize("region", ["105,15,170,60", "0,0,30,120", "0,0,180,20"])
def test_region_close_up_fits_its_figure(example: Scenario, region: str) -> None:
    """--region: the view is exactly the region; tall, wide and square close-ups all fit."""
    r = ptable.parse_region(region)
    fig = new_figure(*ptable.table_figsize(ptable.table_view(example, r)))
    ax = fig.add_subplot()
    ptable.plot_table(example, ax, region=r, zones=True)
    assert ax.get_xlim() == (r[0], r[2]) and ax.get_ylim() == (r[1], r[3])
    fig.canvas.draw()
    canvas: Any = fig.canvas
    tight = fig.get_tightbbox(canvas.get_renderer())
    w, h = fig.get_size_inches()
    assert tight.x0 >= -0.01 and tight.y0 >= -0.01 and tight.x1 <= w + 0.01 and tight.y1 <= h + 0.01


@pytest.mark.parametrize("text", ["1,2,3", "a,b,c,d", "0,0,0,10", "1,2,3,nan"])
def test_parse_region_rejects_bad_regions(text: str) -> None:
    with pytest.raises(InvalidDataError, match="region"):
        ptable.parse_region(text)


def test_ax_none_makes_a_new_figure(example: Scenario) -> None:
    """The convention: no axes given → a new pyplot figure sized for the view."""
    import matplotlib.pyplot as plt

    try:
        art = ptable.plot_table(example, labels=False)
        fig: Any = art["bases"][0].get_figure()
        assert tuple(fig.get_size_inches()) == ptable.table_figsize(ptable.table_view(example))
        dist = podds.plot_distribution([0.5, 0.5])
        assert len(dist["bars"]) == 2
    finally:
        plt.close("all")


# --- odds charts --------------------------------------------------------------------------------
def test_4_6_volley_chart_bars_curve_and_mean() -> None:
    """4.6 — bars are P(= k) in percent, the curve P(≥ k), the line at the exact mean."""
    odds = volley([(12, 3), (8, 2)], 2)
    art = podds.plot_volley(odds, new_ax(7, 4))
    heights = [b.get_height() for b in art["bars"]]
    shown = podds.trim_pmf(odds.removed_pmf)
    assert len(heights) == len(shown)
    assert np.allclose(heights, [100 * p for p in shown])
    (curve,) = art["at_least"]
    assert np.allclose(curve.get_ydata(), [100 * p for p in odds.at_least[: len(shown)]])
    assert art["mean"][0].get_xdata()[0] == pytest.approx(odds.expected)
    assert "12 d6 on ≤3 + 8 d6 on ≤2" in art["bars"][0].axes.get_title()


def test_distribution_without_curve_and_trimmed_tail() -> None:
    art = podds.plot_distribution([0.5, 0.49998, 1e-5, 1e-5], new_ax(6, 4), at_least=False)
    assert len(art["bars"]) == 2 and art["at_least"] == [] and art["twin"] is None
    assert art["mean"][0].get_xdata()[0] == pytest.approx(0.50003)


def test_6_3_morale_outcome_bars_in_outcome_colours() -> None:
    """6.3 — pass, repulsed, panic bars with their exact chances; 4.8 — a fire's morale outcome
    from its distribution, outcomes of probability 0 left out."""
    art = podds.plot_morale_outcomes(casualty_test(4, 12, 12), new_ax(6, 4))
    assert [round(b.get_height(), 6) for b in art["bars"]] == [
        round(100 * 2 / 3, 6),
        round(100 * 2 / 9, 6),
        round(100 / 9, 6),
    ]
    assert np.allclose(art["bars"][2].get_facecolor()[:3], to_rgb(podds.OUTCOME_COLOURS["panic"]))
    odds = volley([(6, 3)], 1, cap=4)
    out = fire_outcome(odds.removed, odds.no_damage, morale=4, strength=4, initial=4)
    art = podds.plot_morale_outcomes(out, new_ax(6, 4))
    names = [t.get_text() for t in art["bars"][0].axes.get_xticklabels()]
    assert len(art["bars"]) == sum(p > 0 for p in out.probabilities().values()) == len(names)
    assert sum(b.get_height() for b in art["bars"]) == pytest.approx(100.0)


def test_5_5_melee_heatmap_beside_outcome_bars() -> None:
    """5.3–5.5 — the heatmap is the joint pmf (rows: attacker removed) in percent; each side's
    outcome bars add up to 100%."""
    att = MeleeSide.uniform(6, melee=2, skill=4, wounds=2, morale=4)
    dfd = MeleeSide.uniform(8, melee=1, skill=3, wounds=2, morale=3)
    odds = melee(att, dfd, first_strike="attacker")
    fig = new_figure(12, 5)
    left, right = fig.subplots(1, 2)
    art = podds.plot_melee(odds, (left, right), title="t")
    image = np.asarray(art["image"].get_array())
    joint = np.asarray(odds.joint_pmf()) * 100
    assert np.allclose(image, joint[: image.shape[0], : image.shape[1]])
    assert image.sum() == pytest.approx(100.0, abs=0.01)
    table = podds.melee_side_outcomes(odds)
    assert len(art["attacker"]) == len(art["defender"]) == len(table)
    assert sum(b.get_height() for b in art["attacker"]) == pytest.approx(100.0)
    assert sum(b.get_height() for b in art["defender"]) == pytest.approx(100.0)
    assert [m.get_xdata()[0] for m in art["means"][:1]] == [
        pytest.approx(float(odds.defender_removed.mean()))
    ]
    assert len(art["colorbar"]) == 1


# --- files --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("suffix", "magic"), [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".PDF", b"%PDF-")])
def test_save_figure_writes_the_format_of_the_suffix(tmp_path: Path, suffix: str, magic: bytes) -> None:
    fig = new_figure(4, 3)
    podds.plot_distribution([0.25, 0.5, 0.25], fig.add_subplot())
    out = save_figure(fig, tmp_path / f"d{suffix}")
    data = out.read_bytes()
    assert data.startswith(magic) and len(data) > 1000
    if suffix == ".png":
        assert png_size(out) == pixel_size(fig) == (400, 300)
    assert [p.name for p in tmp_path.iterdir()] == [f"d{suffix}"]


def test_save_figure_refuses_bad_suffix_and_input_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidDataError, match=r"expected \.png, \.svg or \.pdf"):
        figure_format(tmp_path / "x.jpg")
    src = tmp_path / "input.svg"
    src.write_text("keep me")
    with pytest.raises(InvalidDataError, match="input file"):
        save_figure(new_figure(2, 2), src, inputs=[src])
    assert src.read_text() == "keep me"


def test_failing_write_leaves_no_partial_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write that fails half-way (disk full) leaves neither the file nor a temporary one."""
    fig = new_figure(3, 2)

    def broken(path: Any, **kwargs: Any) -> None:
        Path(path).write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fig, "savefig", broken)
    with pytest.raises(InvalidDataError, match="No space left"):
        save_figure(fig, tmp_path / "t.png")
    assert list(tmp_path.iterdir()) == []
