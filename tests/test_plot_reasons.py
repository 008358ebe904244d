"""Pictures that show why (issue 20): every "no" draws its reason, and the ruler.

The artists are tested, not only the files: a fire out of range (4.5.1) outlines the range limit
R from the shooting bases and a dimension line red beyond it; a reach that cannot reach draws the
envelope of the move and crosses the point where the move runs out; the ruler (4.5.2) runs between
the two nearest points :meth:`Battlefield.measure` finds; the morale machine writes a unit's
chances on the arrows leaving its state (6.1-6.8). Agg backend; nothing is shown.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
import shapely

from szwadron.cli import main
from szwadron.geometry.battlefield import Battlefield
from szwadron.loading import bundled_scenario, load_scenario, parse_scenario, read_toml
from szwadron.plots import machine as pmachine
from szwadron.plots import overlays as ov
from szwadron.plots._io import new_figure
from szwadron.plots.table import plot_table
from szwadron.table.fire import fire
from szwadron.table.reach import reach

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "tests" / "cases" / "plot"
EXAMPLE = str(REPO / "scenarios" / "example.toml")


@pytest.fixture(scope="module")
def example() -> Battlefield:
    return Battlefield(load_scenario(bundled_scenario()))


def table_ax(bf: Battlefield) -> Any:
    ax = new_figure(12.3, 7.3).add_subplot()
    plot_table(bf, ax)
    return ax


def _outline_points(patch: Any) -> np.ndarray:
    verts = patch.get_path().vertices
    return np.asarray(verts[np.isfinite(verts).all(axis=1)])


# --- 4.5.1 fire out of range ----------------------------------------------------------------------
def test_4_5_1_out_of_range_draws_the_range_limit_and_the_distance_beyond(example: Battlefield) -> None:
    """fr-line-1 (Z 24) at au-line-1, 58 cm off: the limit lies 24 cm from the bases refused for
    range; the dimension line runs 58 cm, its last 34 cm red, and says so."""
    result = fire(example, "fr-line-1", "au-line-1")
    miss = ov.range_miss(example, result)
    assert miss is not None and not result.legal
    assert set(miss.shooters) == {s.base for s in result.shooters if s.rule == "4.5.1"}
    assert (miss.range_cm, round(miss.distance, 2), round(miss.beyond, 2)) == (24.0, 58.0, 34.0)
    art = ov.plot_fire(example, table_ax(example), result=result)
    (limit,) = art["range"]
    shooters = shapely.union_all([example.polygons[example.resolve(b)[0]] for b in miss.shooters])
    d = shapely.distance(shapely.points(_outline_points(limit)), shooters)
    assert d == pytest.approx(np.full(d.shape, 24.0), abs=0.05)
    inside, outside = art["beyond"][:2]
    assert np.hypot(*np.diff(np.c_[inside.get_data()].T, axis=0).ravel()) == pytest.approx(24.0)
    out_x, out_y = outside.get_data()
    assert np.hypot(out_x[1] - out_x[0], out_y[1] - out_y[0]) == pytest.approx(34.0)
    assert outside.get_color() == ov.BLOCKED_COLOUR
    text = art["beyond"][-1].get_text()
    assert text == "4.5.1: 58.00 cm, 34.00 beyond range 24 cm"


def test_a_fire_in_range_draws_no_range_limit(example: Battlefield) -> None:
    result = fire(example, "fr-battery", "au-battery")
    assert result.legal and ov.range_miss(example, result) is None
    art = ov.plot_fire(example, table_ax(example), result=result)
    assert "range" not in art and "beyond" not in art


# --- reach that cannot reach ----------------------------------------------------------------------
def test_reach_too_far_draws_the_envelope_and_where_the_move_runs_out() -> None:
    """33 cm to go with R 28: the envelope lies 28 cm round the base; the centre path runs from
    y 14 to 47, so the move runs out 28/33 of the way, at y 42."""
    bf = Battlefield(load_scenario(CASES / "reach_too_far.toml"))
    r = reach(bf, "hussars", "line")
    assert not r.reachable and r.cost == pytest.approx(33.0, abs=0.05)
    art = ov.plot_reach(bf, table_ax(bf), result=r)
    (env,) = art["envelope"]
    base = bf.polygons[bf.resolve(r.base)[0]]
    d = shapely.distance(shapely.points(_outline_points(env)), base)
    assert d == pytest.approx(np.full(d.shape, 28.0), abs=0.05)
    cross, words = art["stop"]
    x, y = (float(v[0]) for v in cross.get_data())
    assert (x, y) == pytest.approx((r.path[0][0], r.path[0][1] + 28.0 * (len_path(r) / r.cost)), abs=0.05)
    assert "5.0 cm short" in words.get_text()
    assert art["paths"][0].get_edgecolor()[:3] == pytest.approx(matplotlib.colors.to_rgb(ov.BLOCKED_COLOUR))


def len_path(r: Any) -> float:
    return float(shapely.LineString(r.path).length)


def test_reach_with_no_path_still_draws_the_envelope(example: Battlefield) -> None:
    r = reach(example, "fr-hussars", "au-grenzer")
    assert not r.reachable and not r.path
    art = ov.plot_reach(example, table_ax(example), result=r)
    assert len(art["envelope"]) == 1 and art["stop"] == [] and art["paths"] == []
    assert "no path into contact" in art["labels"][0].get_text()


def test_reach_that_reaches_draws_no_envelope() -> None:
    bf = Battlefield(load_scenario(CASES / "reach_around_wood.toml"))
    art = ov.plot_reach(bf, table_ax(bf), result=reach(bf, "hussars", "line"))
    assert art["envelope"] == [] and art["stop"] == []


# --- 4.5.2 the ruler --------------------------------------------------------------------------------
def test_4_5_2_ruler_between_the_nearest_points(example: Battlefield) -> None:
    m = example.measure("fr-line-1", "au-line-1")
    art = ov.plot_ruler(example, table_ax(example), a="fr-line-1", b="au-line-1")
    (line,) = art["rulers"]
    ends = np.asarray(line._posA_posB)
    assert ends == pytest.approx(np.asarray([m.point_a, m.point_b]))
    assert len(art["ticks"]) == 2 and len(art["ends"]) == 2
    assert art["labels"][0].get_text() == "fr-line-1 to au-line-1: 58.00 cm"


def test_4_5_2_ruler_of_touching_bases_says_so(example: Battlefield) -> None:
    art = ov.plot_ruler(example, table_ax(example), a="fr-cuirassiers/0", b="au-chevaulegers/0")
    assert art["ticks"] == [] and "touching" in art["labels"][0].get_text()


# --- 6 the morale machine's arrows -----------------------------------------------------------------
def test_6_chances_on_the_arrows_leaving_the_units_state(example: Battlefield) -> None:
    """au-cuirassiers panics: reorganise 2/3 on the arrow to normal (6.8.4), table edge and
    surrender on the arrow to removed (6.6.12, 6.6.13); no other arrow carries a chance."""
    ub = pmachine.unit_branches(example.scenario, "au-cuirassiers")
    art = pmachine.plot_morale_machine(new_figure(13, 7.6).add_subplot(), unit=ub)
    texts = sorted(t.get_text() for t in art["chances"])
    assert texts == ["reorganise 66.7%", "table edge 100%\nsurrender 100%"]
    assert pmachine.plot_morale_machine(new_figure(13, 7.6).add_subplot())["chances"] == []


# --- the command line -------------------------------------------------------------------------------
def test_measure_plot_and_plot_ruler_write_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.png"
    assert main(["measure", EXAMPLE, "fr-line-1", "au-line-1", "--plot", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert "58.00 cm" in capsys.readouterr().out
    svg = tmp_path / "r.svg"
    assert main(["plot", EXAMPLE, "-o", str(svg), "--ruler", "fr-battery", "au-battery"]) == 0
    assert "fr-battery to au-battery: 27.00 cm" in svg.read_text(encoding="utf-8")


def test_ruler_of_an_unknown_unit_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.png"
    assert main(["plot", EXAMPLE, "-o", str(out), "--ruler", "fr-battery", "nobody"]) == 2
    assert "nobody" in capsys.readouterr().err and not out.exists()
    assert main(["plot", "morale", "-o", str(out), "--ruler", "a", "b"]) == 2
    assert "--ruler" in capsys.readouterr().err


# --- 1.4.2 the zone entered -----------------------------------------------------------------------
def _zone_case() -> tuple[Battlefield, Any]:
    import tomllib

    from szwadron.loading import parse_scenario
    from szwadron.table.movement import check_move

    path = REPO / "tests" / "cases" / "move" / "1_4_2_entering_zone.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    data.pop("expected")
    check, move = data.pop("check"), data.pop("move")
    bf = Battlefield(parse_scenario(data, source=str(path), folders=[]))
    return bf, check_move(bf, check["unit"], move)


def test_1_4_2_the_zone_entered_is_outlined_and_the_swept_part_filled() -> None:
    """The hussar's path grazes the 2 cm zone of e/0 by 0.1 cm: that zone is outlined, the part
    of the swept area inside it filled red, and the rule written."""
    bf, report = _zone_case()
    assert not report.legal and report.rule == "1.4.2"
    [(base, enemy, zone)] = ov.zones_entered(bf, report)
    assert (base, enemy) == ("h/0", "e/0")
    assert shapely.distance(zone.exterior, bf.polygons[bf.resolve("e/0")[0]]) == pytest.approx(
        bf.settings.control_zone_cm, abs=0.01
    )
    art = ov.plot_move(bf, table_ax(bf), report=report)
    (ring,) = art["zones"]
    assert ring.get_edgecolor()[:3] == pytest.approx(matplotlib.colors.to_rgb(ov.BLOCKED_COLOUR))
    fill, words = art["entered"]
    inside = shapely.Polygon(fill.get_path().vertices)
    assert inside.area > 0 and zone.buffer(1e-6).contains(inside)
    assert words.get_text() == "1.4.2: h/0 enters the zone of e/0"


def test_a_legal_move_draws_no_zone(example: Battlefield) -> None:
    from szwadron.table.movement import check_move, load_move_file

    report = check_move(
        example, "fr-hussars", load_move_file(REPO / "scenarios" / "moves" / "hussars-advance.toml")
    )
    art = ov.plot_move(example, table_ax(example), report=report)
    assert report.legal and art["zones"] == [] and art["entered"] == []


def test_4_4_3_a_refusal_for_the_arcs_draws_the_shooters_arcs() -> None:
    """4.4.3 — a battery whose target stands just outside its front arc: the picture of the "no"
    draws the battery's arc (its front only), so the reader sees the target outside it."""
    case = Path(__file__).parent / "cases" / "fire" / "4_4_3_battery_target_just_outside_arc.toml"
    data = read_toml(case)
    data.pop("expected")  # the case's known answer, read by tests/test_fire.py
    sc = parse_scenario(data, source=str(case), folders=[])
    result = fire(sc, "g", "b")
    assert not result.legal and result.reason is not None and result.reason.rule == "4.4.3"
    out = ov.plot_fire(sc, result=result)
    assert out["arcs"], "the battery's arc is drawn"
    target_centre = shapely.Point(70.1, 30.0)
    assert [a for a in out["arcs"] if hasattr(a, "get_path")]
    front = ov.arc_geometries(sc, "g")
    assert list(front) == ["g/0:front"] and not front["g/0:front"].contains(target_centre)


def test_a_refusal_for_range_draws_no_arcs(example: Battlefield) -> None:
    """4.5.1 — the arcs are drawn only when they are the reason."""
    result = fire(example, "fr-volt", "au-battery")
    assert result.reason is not None and result.reason.rule == "4.5.1"
    assert "arcs" not in ov.plot_fire(example, result=result)
