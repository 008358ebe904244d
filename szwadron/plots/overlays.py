"""Overlays on the table (issue 8): arcs, sight lines and bands, move paths, the reach path,
melee contacts and flight corridors, drawn onto the axes :func:`~szwadron.plots.table.plot_table`
set up.

Every overlay follows the extension point of :mod:`szwadron.plots.table`:
``overlay(scenario_or_battlefield, ax=None, answer, ...) -> dict[str, list[Artist]]``. It draws
onto ``ax`` (a new whole-table figure when ``None``), registers its key entries with
:func:`~szwadron.plots.table.legend_entry`, places its texts with
:func:`~szwadron.plots.table.place_label` (clear of bases and earlier labels) and redraws the key
when the axes already have one. The answers drawn are the library's own (:func:`szwadron.table.fire.fire`,
:func:`szwadron.table.movement.check_move`, :func:`szwadron.table.reach.reach`,
:func:`szwadron.table.melee.table_melee`, :func:`szwadron.table.morale_phase.morale_phase`): an overlay
never decides a rule itself, it only finds where to draw what the answer says.

- :func:`plot_arcs` — 4.4.1–4.4.3: each edge's arc of fire of a unit's bases, out to its range,
  and the edges touched by own bases (which cannot fire) struck through in red;
- :func:`plot_fire` — 4.3, 4.10, PD-7, PD-9: the sight lines and bands of a fire answer, clear
  ones green, blocked ones red and hatched with the blocking base or feature outlined and the
  rule written beside it; shooters out of range (4.5.1): their range limit and the distance
  beyond it; the removal order (4.7) numbered on the target bases;
- :func:`plot_move` — PD-6, 3.2: per moved base the path of its measured corner, the centre's
  path, the final pose ghosted, its distance with the terrain surcharges; violations in red;
- :func:`plot_reach` — the shortest path into contact and its length; when it cannot reach, the
  envelope of its move and where the move runs out on the path;
- :func:`plot_ruler` — 4.5.2: a dimension line between the nearest points of two bases or units,
  with its length;
- :func:`plot_melee_contacts` — 5.3, PD-14: the figures that fight ringed, who touches whom;
- :func:`plot_flight` — 6.6: the straight flight corridors of a panicking unit to its table
  edge, where figures would be stopped, the chance of leaving the table.

:func:`focus_region` gives the close-up the command line zooms to when an overlay is asked for
without ``--region``: the bounding box of what the answer is about (the units, the paths, the
arcs), grown by :data:`FOCUS_MARGIN_CM` or :data:`FOCUS_MARGIN_FRACTION` of its size, whichever
is larger, at least :data:`FOCUS_MIN_SPAN_CM` wide and deep, and never beyond the table's own
margin.

matplotlib is imported only inside the functions; nothing calls ``show()``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.arcs import fire_edges, in_arcs, touched_edges
from szwadron.geometry.bases import EDGE_NAMES, base_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.geometry.paths import BaseMotion
from szwadron.geometry.sight import Blocked, band_corners, check_sight
from szwadron.i18n import gettext
from szwadron.models import Scenario
from szwadron.plots.table import (
    SIDE_COLOURS,
    ZORDER,
    Artists,
    Region,
    _cm_per_point,
    _prepare,
    _state,
    as_battlefield,
    draw_legend,
    geometry_path,
    legend_entry,
    place_label,
    reserve_text,
    table_view,
)
from szwadron.table.morale_phase import flight_direction

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.text import Text

    from szwadron.table.fire import FireResult
    from szwadron.table.melee import TableMelee
    from szwadron.table.morale_phase import UnitMorale
    from szwadron.table.movement import MoveReport
    from szwadron.table.reach import ReachResult

# --- palette ------------------------------------------------------------------------------------

#: Arcs of fire by edge (4.4.1): front amber, sides teal, back violet.
ARC_COLOURS: dict[str, str] = {"front": "#e69f00", "right": "#009e8f", "left": "#009e8f", "back": "#8e6cc0"}
#: What may happen: clear sight, an allowed path (green).
CLEAR_COLOUR = "#1a9641"
#: What may not: blocked sight, a blocked edge, a violation (red).
BLOCKED_COLOUR = "#d7191c"
#: Paths of moves and of the reach.
PATH_COLOUR = "#1f3f99"
#: Flight corridors (6.6).
FLIGHT_COLOUR = "#8e44ad"

#: The close-up around an overlay: margin (cm, or a fraction of the size, the larger) and the
#: least width and depth shown.
FOCUS_MARGIN_CM = 5.0
FOCUS_MARGIN_FRACTION = 0.15
FOCUS_MIN_SPAN_CM = 24.0

#: Rules a blocked line of sight can cite (4.3, 4.10, PD-7): lines with these are drawn.
SIGHT_RULES: tuple[str, ...] = ("4.3.1", "4.3.2", "4.10.1", "4.10.2", "4.10.5", "4.10.6", "4.10.7", "7.4")

#: With more lines than this, the per-line texts (distance, accuracy) are left out.
MAX_LINE_LABELS = 6


# --- the close-up -------------------------------------------------------------------------------


def focus_region(
    scenario: Scenario | Battlefield,
    geometries: Iterable[shapely.Geometry],
    *,
    margin_cm: float = FOCUS_MARGIN_CM,
    margin_fraction: float = FOCUS_MARGIN_FRACTION,
    min_span_cm: float = FOCUS_MIN_SPAN_CM,
) -> Region:
    """The close-up around ``geometries``: their bounding box grown by ``margin_cm`` or
    ``margin_fraction`` of its larger side (whichever is more), each side widened about its
    centre to ``min_span_cm`` and to 0.6 of the other side (no sliver of a picture), rounded out to whole cm, kept within the whole-table view
    (:func:`~szwadron.plots.table.table_view`).

    >>> from szwadron.loading import bundled_scenario, load_scenario
    >>> sc = load_scenario(bundled_scenario())
    >>> focus_region(sc, [shapely.box(50, 28, 62, 31)])
    (44.0, 17.0, 68.0, 42.0)
    >>> focus_region(sc, [])[0] < 0      # nothing to focus on: the whole table
    True
    """
    bf = as_battlefield(scenario)
    whole = table_view(bf.scenario)
    geoms = [g for g in geometries if g is not None and not g.is_empty]
    if not geoms:
        return whole
    x0, y0, x1, y1 = shapely.union_all(geoms).bounds
    m = max(margin_cm, margin_fraction * max(x1 - x0, y1 - y0))
    x0, y0, x1, y1 = x0 - m, y0 - m, x1 + m, y1 + m
    spans = (x1 - x0, y1 - y0)
    for lo, hi, axis in ((x0, x1, 0), (y0, y1, 1)):
        least = max(min_span_cm, 0.6 * spans[1 - axis])  # no sliver of a picture
        if hi - lo < least:
            c = (lo + hi) / 2.0
            lo, hi = c - least / 2.0, c + least / 2.0
        if axis == 0:
            x0, x1 = lo, hi
        else:
            y0, y1 = lo, hi
    wx0, wy0, wx1, wy1 = whole

    def clamp(lo: float, hi: float, wlo: float, whi: float) -> tuple[float, float]:
        span = min(hi - lo, whi - wlo)
        lo = min(max(lo, wlo), whi - span)
        return lo, lo + span

    x0, x1 = clamp(math.floor(x0), math.ceil(x1), wx0, wx1)
    y0, y1 = clamp(math.floor(y0), math.ceil(y1), wy0, wy1)
    return (float(x0), float(y0), float(x1), float(y1))


def _unit_bases(bf: Battlefield, unit: str) -> np.ndarray:
    """The bases of a unit by id; an unknown id or a base id raises
    :class:`~szwadron.errors.InvalidDataError` naming the units."""
    if unit not in bf.unit_ids:
        bf.resolve(unit)  # raises for unknown ids, listing the units
        raise InvalidDataError(
            gettext("{unit} is not a unit id (units: {known})").format(
                unit=repr(unit), known=", ".join(bf.unit_ids)
            )
        )
    return bf.unit_bases(unit)


def unit_geometry(bf: Battlefield, unit: str) -> shapely.Geometry:
    """The union of a unit's bases (for :func:`focus_region`)."""
    return shapely.union_all(bf.polygons[_unit_bases(bf, unit)])


def _base_index(bf: Battlefield, base_id: str) -> int:
    return int(bf.resolve(base_id)[0])


def _finish(ax: Axes) -> None:
    """Redraw the key when the axes have one (the overlay added entries)."""
    if ax.get_legend() is not None:
        draw_legend(ax)


def _label_candidates(x: float, y: float, r: float) -> list[tuple[float, float, str]]:
    """Places around ``(x, y)`` at distance ``r`` (cm) and further out, for place_label."""
    out: list[tuple[float, float, str]] = []
    for scale in (1.0, 1.8, 2.8):
        for ang in (90, 270, 0, 180, 45, 135, 225, 315):
            a = math.radians(ang)
            out.append((x + scale * r * math.cos(a), y + scale * r * math.sin(a), "center"))
    return out


# --- arcs (4.4) ---------------------------------------------------------------------------------


def fire_range(scenario: Scenario | Battlefield, base: str, ammunition: str | None = None) -> float:
    """7.1.3, 4.5.1 — the range Z (cm) of a base: its profile's, or its ammunition's (the named
    one, else the longest it carries)."""
    bf = as_battlefield(scenario)
    k = _base_index(bf, base)
    unit = bf.scenario.units[int(bf.unit_of[k])]
    prof = unit.base_profile(int(bf.index_in_unit[k]))
    if prof.ammunition:
        ammo = [a for a in prof.ammunition if ammunition is None or a.name == ammunition]
        return float(max((a.range for a in ammo), default=prof.range))
    return float(prof.range)


def _wedge_angles(corners: np.ndarray, centre: np.ndarray, e: int) -> tuple[float, float]:
    """Matplotlib wedge angles (counter-clockwise from ``theta1`` to ``theta2``) of edge ``e``'s
    arc: corners run clockwise, edge ``e`` from corner ``e`` to corner ``e + 1``."""
    u = corners[e] - centre
    v = corners[(e + 1) % 4] - centre
    return math.degrees(math.atan2(v[1], v[0])), math.degrees(math.atan2(u[1], u[0]))


def _wedge_polygon(centre: np.ndarray, r: float, t1: float, t2: float) -> shapely.Polygon:
    """The wedge of a circle of radius ``r`` about ``centre`` from ``t1`` to ``t2`` degrees
    (counter-clockwise), as a polygon."""
    if t2 < t1:
        t2 += 360.0
    ts = np.radians(np.linspace(t1, t2, 32))
    return shapely.Polygon(np.vstack([centre, centre + r * np.stack([np.cos(ts), np.sin(ts)], axis=1)]))


def _arc_in_range(
    corners: np.ndarray, centre: np.ndarray, r: float, t1: float, t2: float
) -> shapely.Geometry:
    """4.4.1 with 4.5.1, 4.5.2 — an edge's arc of fire out to range ``r`` measured from the base's
    edge (the range is edge to edge), not from its centre: the wedge between the rays, cut by
    the base grown by ``r``."""
    reach = r + float(np.max(np.hypot(*(corners - centre).T)))
    return shapely.intersection(_wedge_polygon(centre, reach, t1, t2), shapely.Polygon(corners).buffer(r, 32))


#: The refusals of fire that are about the arcs of fire (:func:`plot_fire` draws the arcs).
ARC_RULES: frozenset[str] = frozenset({"4.4.1", "4.4.2", "4.4.3"})


def arc_geometries(
    scenario: Scenario | Battlefield, unit: str, *, radius: float | None = None
) -> dict[str, shapely.Geometry]:
    """4.4.1 — the arcs a unit may fire through, as polygons keyed ``"BASE:EDGE"``, each out to
    ``radius`` cm (default the base's range, :func:`fire_range`); edges touched by own bases
    (4.4.2) and edges artillery does not fire through (4.4.3) are left out."""
    bf = as_battlefield(scenario)
    out: dict[str, shapely.Geometry] = {}
    for k, usable, _ in _edge_states(bf, unit, fire_edges, touched_edges):
        centre = bf.corners[k].mean(axis=0)
        r = radius if radius is not None else fire_range(bf, bf.base_ids[k])
        for e in usable:
            t1, t2 = _wedge_angles(bf.corners[k], centre, e)
            out[f"{bf.base_ids[k]}:{EDGE_NAMES[e]}"] = _arc_in_range(bf.corners[k], centre, r, t1, t2)
    return out


def _edge_states(
    bf: Battlefield,
    unit: str,
    fire_edges: Any,
    touched_edges: Any,
) -> list[tuple[int, list[int], list[int]]]:
    """Per base of the unit: (base index, edges it may fire through, edges touched, 4.4.2)."""
    st = bf.settings
    side = bf.side
    out = []
    for k in _unit_bases(bf, unit).tolist():
        kinds = fire_edges(bf.kinds[k])
        own = [
            o
            for o in bf.near(bf.polygons[k], st.contact_tolerance_cm + st.distance_epsilon_cm).tolist()
            if o != k and side[o] == side[k]
        ]
        touched = touched_edges(
            bf.corners[k], bf.corners[own], st.contact_tolerance_cm, st.distance_epsilon_cm
        )
        allowed = [EDGE_NAMES.index(e) for e in kinds]
        out.append((k, [e for e in allowed if not touched[e]], [e for e in allowed if touched[e]]))
    return out


# long: a drawing: wedges, union outlines, struck edges and labels per base edge.
def plot_arcs(
    scenario: Scenario | Battlefield,
    ax: Axes | None = None,
    *,
    unit: str,
    radius: float | None = None,
    ammunition: str | None = None,
    wedges: bool = False,
) -> Artists:
    """4.4.1–4.4.3, PD-8 — the arcs of fire of ``unit``: each base fires through the wedge of
    each free edge (the rays from its centre through the edge's corners, out to its range Z or
    ``radius`` cm); the unit's wedges of one edge direction are drawn as one outline (their
    union), coloured by edge (:data:`ARC_COLOURS`), so a line of twelve bases shows four
    outlines, not sixteen nested wedges; an edge touched by an own base (4.4.2) is struck
    through in red. Artillery has its front arc only (4.4.3). ``wedges=True`` also outlines
    every base's wedge.

    Returns ``{"outlines": [one per edge direction the unit fires through: front, right, back,
    left], "arcs": [with ``wedges``: one wedge per unblocked firing edge per base], "arc_fills":
    [one shaded area per kind of arc: front, sides, back], "blocked": [one red stroke per
    touched firing edge]}``. The shading is the union of the unit's arcs of a kind, so where
    the arcs of a line overlap it does not darken.

    Raises
    ------
    InvalidDataError
        An unknown unit.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, PathPatch, Polygon

    bf, ax = _prepare(scenario, ax)
    _unit_bases(bf, unit)
    out: Artists = {"outlines": [], "arcs": [], "arc_fills": [], "blocked": []}
    z = ZORDER["zones"] - 0.2  # under the zones and the bases: never hides a figure
    artillery = False
    shown: set[str] = set()
    areas: dict[str, list[shapely.Geometry]] = {}
    directions: dict[str, list[shapely.Geometry]] = {}
    for k, usable, touched in _edge_states(bf, unit, fire_edges, touched_edges):
        centre = bf.corners[k].mean(axis=0)
        r = radius if radius is not None else fire_range(bf, bf.base_ids[k], ammunition)
        artillery |= bf.kinds[k].is_artillery
        for e in usable:
            name = EDGE_NAMES[e]
            t1, t2 = _wedge_angles(bf.corners[k], centre, e)
            colour = ARC_COLOURS[name]
            key = "side" if name in ("left", "right") else name
            shown.add(key)
            wedge = _arc_in_range(bf.corners[k], centre, r, t1, t2)
            areas.setdefault(key, []).append(wedge)
            directions.setdefault(name, []).append(wedge)
            if not wedges or wedge.is_empty:
                continue
            w = Polygon(
                shapely.get_coordinates(shapely.get_exterior_ring(wedge)),
                closed=True,
                facecolor="none",
                edgecolor=colour,
                linewidth=0.6,
                alpha=0.75,
                zorder=z + 0.01,
            )
            w.set_gid(f"arc-{bf.base_ids[k]}-{name}".replace("/", "-"))
            ax.add_patch(w)
            out["arcs"].append(w)
        for e in touched:
            a, b = bf.corners[k][e], bf.corners[k][(e + 1) % 4]
            (stroke,) = ax.plot(
                [a[0], b[0]],
                [a[1], b[1]],
                color=BLOCKED_COLOUR,
                linewidth=2.6,
                solid_capstyle="butt",
                zorder=ZORDER["contacts"] + 0.1,
            )
            out["blocked"].append(stroke)
    for key, polys in areas.items():  # one fill per kind of arc: overlaps do not darken
        c = ARC_COLOURS["right" if key == "side" else key]
        fill = PathPatch(
            geometry_path(shapely.union_all(polys)), facecolor=c, alpha=0.16, edgecolor="none", zorder=z
        )
        ax.add_patch(fill)
        out["arc_fills"].append(fill)
    for name in EDGE_NAMES:  # one outline per edge direction: the union of the unit's wedges
        if name not in directions:
            continue
        line = PathPatch(
            geometry_path(shapely.union_all(directions[name])),
            facecolor="none",
            edgecolor=ARC_COLOURS[name],
            linewidth=1.0,
            alpha=0.9,
            zorder=z + 0.02,
        )
        line.set_gid(f"arcs-{unit}-{name}")
        ax.add_patch(line)
        out["outlines"].append(line)
    labels = {"front": "front arc (4.4.1)", "side": "side arcs (4.4.1)", "back": "back arc (4.4.1)"}
    for i, key in enumerate(("front", "side", "back")):
        if key in shown:
            c = ARC_COLOURS["right" if key == "side" else key]
            legend_entry(
                ax,
                labels[key] + (", to range Z" if i == 0 else ""),
                Patch(facecolor=c, alpha=0.35, edgecolor=c),
                50.0 + i,
            )
    if out["blocked"]:
        legend_entry(
            ax, "touched edge: no fire (4.4.2)", Line2D([], [], color=BLOCKED_COLOUR, linewidth=2.6), 53.0
        )
    if artillery:
        legend_entry(
            ax,
            "artillery: front arc only (4.4.3)",
            Patch(facecolor=ARC_COLOURS["front"], alpha=0.35, edgecolor="none"),
            54.0,
        )
    _finish(ax)
    return out


# --- fire: sight lines and bands (4.3, 4.10) ----------------------------------------------------


@dataclass(frozen=True)
class SightLine:
    """One line of fire to draw: ``shooter`` base to ``target`` base through ``edge``, its band
    ``width`` (the firing edge, PD-7), the edge-to-edge ``distance``, and ``blocked`` (``None``
    when the target is in sight). ``nearest``: the shooter's nearest target (PD-9)."""

    shooter: str
    target: str
    edge: str
    width: float
    distance: float
    blocked: Blocked | None = None
    indirect: bool = False
    nearest: bool = False


def _edge_length(bf: Battlefield, k: int, edge: str) -> float:
    e = EDGE_NAMES.index(edge)
    return float(bf.width[k] if e % 2 == 0 else bf.depth[k])


def _fire_table(scenario: Scenario | Battlefield, result: FireResult) -> Battlefield:
    """The table a fire answer is drawn on: the battlefield given; for a scenario, the one the
    answer was computed on (:attr:`FireResult.table`, the target at its poses, 4.12.3), so
    that it is not built again; else one built from the scenario."""
    if isinstance(scenario, Battlefield) or result.table is None:
        return as_battlefield(scenario)
    return result.table


def sight_lines(
    scenario: Scenario | Battlefield, result: FireResult, *, every: bool = False
) -> list[SightLine]:
    """4.3, 4.10, PD-7, PD-9 — the lines of a fire answer worth drawing.

    Clear lines come from the answer (:attr:`ShooterReport.lines`). Blocked lines are asked
    of :func:`szwadron.geometry.sight.check_sight` for the pairs the answer stopped by sight: a
    target base in the arc of an edge the shooter may fire through (4.4) and within its range
    (4.5.1), not in sight.

    With ``every=False`` (what the command line draws): for each shooting base its nearest
    target in sight, or, when it sees none, its nearest target stopped by sight. With
    ``every=True``: every clear line and every blocked one.
    """
    bf = _fire_table(scenario, result)
    out: list[SightLine] = []
    target_bases = bf.unit_bases(result.target)
    usable_of = {k: u for k, u, _ in _edge_states(bf, result.shooter, fire_edges, touched_edges)}
    for s in result.shooters:
        k = _base_index(bf, s.base)
        clear = [
            SightLine(
                s.base,
                ln.target,
                ln.edge,
                _edge_length(bf, k, ln.edge),
                ln.distance,
                None,
                ln.indirect,
                i == 0,
            )
            for i, ln in enumerate(s.lines)
        ]
        if clear and not every:
            out.append(clear[0])
            continue
        out += clear
        stopped_by_unit = s.rule in ("6.1", "4.1.1", "7.1.2", "4.6", "7.3", "7.1.3")
        if stopped_by_unit or (s.can_fire and not every):
            continue
        seen = {ln.target for ln in s.lines}
        rng = fire_range(bf, s.base, result.ammunition)
        usable = usable_of.get(k, [])
        cands: list[tuple[float, int, int]] = []
        for t in target_bases.tolist():
            if bf.base_ids[t] in seen:
                continue
            arcs = in_arcs(bf.corners[k], bf.corners[t].mean(axis=0))
            edges = [e for e in (0, 1, 3, 2) if e in usable and arcs[e]]  # PD-8 preference
            dist = float(polygon_distance(bf.corners[k], bf.corners[t]))
            if edges and dist <= rng + bf.settings.distance_epsilon_cm:
                cands.append((dist, t, edges[0]))
        if not cands:
            continue
        cands.sort()
        widths = [_edge_length(bf, k, EDGE_NAMES[e]) for _, _, e in cands]
        verdicts = check_sight(bf, [k] * len(cands), [t for _, t, _ in cands], widths)
        blocked = [(c, w, v) for c, w, v in zip(cands, widths, verdicts, strict=True) if v is not None]
        for i, ((dist, t, e), w, v) in enumerate(blocked if every else blocked[:1]):
            out.append(
                SightLine(s.base, bf.base_ids[t], EDGE_NAMES[e], w, dist, v, False, i == 0 and not clear)
            )
    return out


def _blocker_geometry(bf: Battlefield, by: str | None) -> shapely.Geometry | None:
    if by is None:
        return None
    for shape in bf.terrain:
        if shape.id == by:
            return shape.polygon
    try:
        return bf.polygons[_base_index(bf, by)]
    except InvalidDataError:  # an id the battlefield does not know: nothing to outline
        return None


# long: a drawing of every layer of a fire answer (lines, bands, blockers, range limits, removal order), one after another.
def plot_fire(
    scenario: Scenario | Battlefield,
    ax: Axes | None = None,
    *,
    result: FireResult,
    every: bool = False,
    removal: bool = True,
) -> Artists:
    """4.3, 4.10, PD-7, PD-9, 4.7 — a fire answer on the table: the lines of
    :func:`sight_lines`, each with its band (as wide as the firing edge) — clear ones green,
    blocked ones red, hatched and dashed, with what blocks them outlined in red and the rule
    written beside it —, the shooting bases that cannot fire crossed, and the removal order
    numbered on the target bases.

    When shooting bases are refused for range (4.5.1, :func:`range_miss`), the limit of their
    range is outlined and a dimension line runs from the one nearest the target to the target,
    red beyond the range, with the distance and how far beyond it.

    Returns ``{"bands": [one per line], "lines": [one per line], "blockers": [one outline per
    blocking base or feature], "rules": [texts], "labels": [distance texts], "refused": [two
    strokes crossing each shooting base that cannot fire], "removal": [one number per base in
    the removal order]}``, and with a range miss ``"range": [the outline]``, ``"beyond": [the
    dimension line's parts, its ticks and its text]``; when the fire is refused for its arcs
    (4.4.1–4.4.3), ``"arcs"``: the artists of :func:`plot_arcs` for the shooter (its arcs as
    outlines, the edges touched by own bases struck through).
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, PathPatch, Polygon

    bf, ax = _prepare(_fire_table(scenario, result), ax)
    lines = sight_lines(bf, result, every=every)
    out: Artists = {
        "bands": [],
        "lines": [],
        "blockers": [],
        "rules": [],
        "labels": [],
        "refused": [],
        "removal": [],
    }
    z = ZORDER["overlays"]
    outlined: dict[str, Any] = {}
    for ln in lines:
        ks, kt = _base_index(bf, ln.shooter), _base_index(bf, ln.target)
        p0 = np.asarray([bf.x[ks], bf.y[ks]])
        p1 = np.asarray([bf.x[kt], bf.y[kt]])
        band = band_corners(p0, p1, ln.width)
        ok = ln.blocked is None
        colour = CLEAR_COLOUR if ok else BLOCKED_COLOUR
        patch = Polygon(
            band,
            closed=True,
            facecolor=colour,
            alpha=0.16 if ok else 0.12,
            edgecolor="none",
            zorder=ZORDER["zones"] + 0.1,
        )
        ax.add_patch(patch)
        rim = Polygon(
            band,
            closed=True,
            facecolor="none",
            edgecolor=colour,
            linewidth=0.6,
            hatch=None if ok else "////",
            alpha=0.7,
            zorder=ZORDER["zones"] + 0.11,
        )
        ax.add_patch(rim)
        out["bands"].append(patch)
        (line,) = ax.plot(
            [p0[0], p1[0]],
            [p0[1], p1[1]],
            color=colour,
            linewidth=1.4 if ln.nearest or not ok else 0.8,
            linestyle="-" if ok else (0, (4, 2)),
            zorder=z,
        )
        out["lines"].append(line)
        if not ok and ln.blocked is not None:
            by = ln.blocked.by
            geom = _blocker_geometry(bf, by)
            if by is not None and geom is not None and by not in outlined:
                hi = PathPatch(
                    geometry_path(geom),
                    facecolor="none",
                    edgecolor=BLOCKED_COLOUR,
                    linewidth=2.2,
                    zorder=ZORDER["contacts"] + 0.2,
                )
                ax.add_patch(hi)
                outlined[by] = hi
                out["blockers"].append(hi)
                c = (
                    geom.centroid
                    if geom.area < 40
                    else shapely.intersection(geom, shapely.LineString([p0, p1])).centroid
                )
                if c.is_empty:
                    c = geom.representative_point()
                t = place_label(
                    ax,
                    bf,
                    f"{ln.blocked.rule}: blocked by {by}",
                    _label_candidates(float(c.x), float(c.y), 1.5),
                    fontsize=7,
                    color=BLOCKED_COLOUR,
                    frame=BLOCKED_COLOUR,
                    weight="bold",
                )
                if t is not None:
                    out["rules"].append(t)
    miss = range_miss(bf, result)
    if miss is not None:
        out.update(_plot_range_miss(bf, ax, miss, result.ammunition))
    if not result.legal and result.reason is not None and result.reason.rule in ARC_RULES:
        # the "no" is the arcs (4.4.2 an edge touched by an own base, 4.4.3 artillery's front
        # only): draw the shooter's arcs, with the touched edges struck through
        out["arcs"] = [a for group in plot_arcs(bf, ax, unit=result.shooter).values() for a in group]
    # distances and accuracy of the nearest lines (PD-9), when few
    nearest = [ln for ln in lines if ln.nearest and ln.blocked is None]
    if len(nearest) <= MAX_LINE_LABELS:
        acc = {s.base: s for s in result.shooters}
        for ln in nearest:
            s = acc[ln.shooter]
            ks, kt = _base_index(bf, ln.shooter), _base_index(bf, ln.target)
            mx, my = (bf.x[ks] + bf.x[kt]) / 2.0, (bf.y[ks] + bf.y[kt]) / 2.0
            text = gettext("{cm:.1f} cm, C {c}, {n} d6").format(cm=ln.distance, c=s.accuracy, n=s.dice) + (
                " " + gettext("(indirect)") if ln.indirect else ""
            )
            t = place_label(
                ax,
                bf,
                text,
                _label_candidates(float(mx), float(my), 1.2),
                fontsize=6.5,
                color="#0f5a28",
                frame=CLEAR_COLOUR,
            )
            if t is not None:
                out["labels"].append(t)
    # shooting bases that cannot fire: a red cross
    for s in result.shooters:
        if s.can_fire:
            continue
        k = _base_index(bf, s.base)
        c = bf.corners[k]
        for a, b in ((0, 2), (1, 3)):
            (x,) = ax.plot(
                [c[a][0], c[b][0]],
                [c[a][1], c[b][1]],
                color=BLOCKED_COLOUR,
                linewidth=1.0,
                zorder=ZORDER["marks"] + 0.05,
            )
            out["refused"].append(x)
    if removal:
        for i, base in enumerate(result.removal_order, start=1):
            k = _base_index(bf, base)
            t = ax.text(
                float(bf.x[k]),
                float(bf.y[k]),
                str(i),
                ha="center",
                va="center",
                fontsize=6,
                fontweight="bold",
                color="#000000",
                zorder=ZORDER["labels"],
                bbox={
                    "boxstyle": "circle,pad=0.12",
                    "facecolor": "#ffe14d",
                    "edgecolor": "#6b5a00",
                    "linewidth": 0.5,
                },
            )
            out["removal"].append(t)
    if any(ln.blocked is None for ln in lines):
        legend_entry(
            ax,
            "in sight: line, band (4.3, PD-7)",
            Patch(facecolor=CLEAR_COLOUR, alpha=0.3, edgecolor=CLEAR_COLOUR),
            60.0,
        )
    if any(ln.blocked is not None for ln in lines):
        legend_entry(
            ax,
            "blocked sight; blocker in red",
            Patch(facecolor="#ffffff", edgecolor=BLOCKED_COLOUR, hatch="////"),
            61.0,
        )
    if any(not s.can_fire for s in result.shooters):
        legend_entry(
            ax,
            "base that cannot fire",
            Line2D([], [], color=BLOCKED_COLOUR, marker="x", linestyle="none", markersize=7),
            62.0,
        )
    if out["removal"]:
        legend_entry(
            ax,
            "removal order (4.7)",
            Line2D(
                [],
                [],
                marker="o",
                linestyle="none",
                markersize=8,
                markerfacecolor="#ffe14d",
                markeredgecolor="#6b5a00",
            ),
            63.0,
        )
    _finish(ax)
    return out


@dataclass(frozen=True)
class RangeMiss:
    """4.5.1 — shooting bases refused for range: the nearest of them to the target, ``shooter``,
    its range ``range_cm`` and ``distance`` to the nearest target base ``target`` (in a usable
    arc when one is), between the points ``near`` and ``far``; ``shooters`` every base refused
    for range."""

    shooter: str
    target: str
    distance: float
    range_cm: float
    near: tuple[float, float]
    far: tuple[float, float]
    shooters: tuple[str, ...]

    @property
    def beyond(self) -> float:
        """How far beyond the range the target is (cm)."""
        return self.distance - self.range_cm


def range_miss(scenario: Scenario | Battlefield, result: FireResult) -> RangeMiss | None:
    """4.5.1 — the shooting bases the answer refuses for range (their rule is ``4.5.1``), and
    the nearest of them to the target with the distance to draw; ``None`` when none is.

    >>> from szwadron.loading import bundled_scenario, load_scenario
    >>> from szwadron.table.fire import fire
    >>> sc = load_scenario(bundled_scenario())
    >>> m = range_miss(sc, fire(sc, "fr-line-1", "au-line-1"))
    >>> m.range_cm, round(m.distance, 2), round(m.beyond, 2)
    (24.0, 58.0, 34.0)
    """

    bf = as_battlefield(scenario)
    refused = tuple(s.base for s in result.shooters if not s.can_fire and s.rule == "4.5.1")
    if not refused:
        return None
    usable_of = {k: u for k, u, _ in _edge_states(bf, result.shooter, fire_edges, touched_edges)}
    targets = bf.unit_bases(result.target).tolist()
    best: tuple[float, int, int] | None = None
    for base in refused:
        k = _base_index(bf, base)
        in_arc = [
            t
            for t in targets
            if any(in_arcs(bf.corners[k], bf.corners[t].mean(axis=0))[e] for e in usable_of.get(k, []))
        ]
        for t in in_arc or targets:
            d = float(polygon_distance(bf.corners[k], bf.corners[t]))
            if best is None or d < best[0] - 1e-9:
                best = (d, k, t)
    assert best is not None
    d, k, t = best
    line = shapely.shortest_line(bf.polygons[k], bf.polygons[t])
    (x0, y0), (x1, y1) = shapely.get_coordinates(line).tolist()
    base = bf.base_ids[k]
    return RangeMiss(
        base, bf.base_ids[t], d, fire_range(bf, base, result.ammunition), (x0, y0), (x1, y1), refused
    )


def _plot_range_miss(bf: Battlefield, ax: Axes, miss: RangeMiss, ammunition: str | None) -> Artists:
    """The range limit of the bases refused for range, outlined as one line, and the dimension
    from the nearest of them to the target, red beyond the range."""
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import PathPatch

    reach = shapely.union_all(
        [
            shapely.buffer(bf.polygons[_base_index(bf, b)], fire_range(bf, b), quad_segs=32)
            for b in miss.shooters
        ]
    )
    limit = PathPatch(
        geometry_path(reach),
        facecolor=to_rgba(BLOCKED_COLOUR, 0.05),  # a faint fill, a plain outline
        edgecolor=BLOCKED_COLOUR,
        linewidth=1.1,
        linestyle=(0, (6, 3)),
        zorder=ZORDER["zones"] + 0.05,
    )
    ax.add_patch(limit)
    p0, p1 = np.asarray(miss.near), np.asarray(miss.far)
    cut = p0 + (p1 - p0) * (miss.range_cm / miss.distance) if miss.distance > 0 else p0
    parts: list[Any] = []
    (inside,) = ax.plot(*np.c_[p0, cut], color="#555555", linewidth=1.2, zorder=ZORDER["overlays"] + 0.2)
    (outside,) = ax.plot(
        *np.c_[cut, p1], color=BLOCKED_COLOUR, linewidth=2.0, zorder=ZORDER["overlays"] + 0.2
    )
    parts += [inside, outside, *_ticks(ax, p0, p1, (p0, cut, p1), BLOCKED_COLOUR)]
    text = gettext("4.5.1: {d:.2f} cm, {beyond:.2f} beyond range {z:g} cm").format(
        d=miss.distance, beyond=miss.beyond, z=miss.range_cm
    )
    mid = (cut + p1) / 2.0
    t = place_label(
        ax,
        bf,
        text,
        _label_candidates(float(mid[0]), float(mid[1]), 2.0),
        fontsize=7,
        color=BLOCKED_COLOUR,
        frame=BLOCKED_COLOUR,
        weight="bold",
    )
    if t is not None:
        parts.append(t)
    legend_entry(
        ax,
        "range limit, beyond it (4.5.1)",
        Line2D([], [], color=BLOCKED_COLOUR, linewidth=1.1, linestyle=(0, (6, 3))),
        61.5,
    )
    return {"range": [limit], "beyond": parts}


def _ticks(
    ax: Axes, p0: np.ndarray, p1: np.ndarray, at: Iterable[np.ndarray], colour: str, half: float = 0.8
) -> list[Any]:
    """Short strokes across the line ``p0``–``p1`` at the points ``at`` (a dimension line's ends
    and marks), ``half`` cm either side."""
    d = p1 - p0
    n = float(np.hypot(*d))
    normal = np.array([-d[1], d[0]]) / n if n > 1e-9 else np.array([0.0, 1.0])
    out = []
    for p in at:
        a, b = p - half * normal, p + half * normal
        (tick,) = ax.plot(
            [a[0], b[0]], [a[1], b[1]], color=colour, linewidth=1.2, zorder=ZORDER["overlays"] + 0.2
        )
        out.append(tick)
    return out


# --- the ruler (4.5.2) --------------------------------------------------------------------------

#: Dimension lines of the ruler.
RULER_COLOUR = "#222222"


def ruler_geometry(scenario: Scenario | Battlefield, a: str, b: str) -> list[shapely.Geometry]:
    """What a ruler picture is about: the two bases or units and the line between them."""
    bf = as_battlefield(scenario)
    m = bf.measure(a, b)
    return [
        shapely.union_all(bf.polygons[bf.resolve(a)]),
        shapely.union_all(bf.polygons[bf.resolve(b)]),
        shapely.LineString([m.point_a, m.point_b]),
    ]


def plot_ruler(scenario: Scenario | Battlefield, ax: Axes | None = None, *, a: str, b: str) -> Artists:
    """4.5.2 — a ruler laid on the table: the least edge-to-edge distance between ``a`` and
    ``b`` (bases ``UNIT/INDEX`` or units), as :meth:`Battlefield.measure` finds it, drawn as a
    dimension line between the two nearest points (ticks at both ends, arrowheads) with its
    length; the two bases that realise it outlined. Touching or overlapping bases get a dot and
    the word.

    Returns ``{"rulers": [the line], "ticks": [its end strokes], "ends": [the two bases'
    outlines], "labels": [its text]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, PathPatch

    bf, ax = _prepare(scenario, ax)
    m = bf.measure(a, b)
    out: Artists = {"rulers": [], "ticks": [], "ends": [], "labels": []}
    for base in (m.base_a, m.base_b):
        edge = PathPatch(
            geometry_path(bf.polygons[_base_index(bf, base)]),
            facecolor="none",
            edgecolor=RULER_COLOUR,
            linewidth=1.4,
            linestyle=(0, (2, 1)),
            zorder=ZORDER["contacts"] + 0.3,
        )
        ax.add_patch(edge)
        out["ends"].append(edge)
    p0, p1 = np.asarray(m.point_a), np.asarray(m.point_b)
    if m.distance > 1e-9:
        arrow = FancyArrowPatch(
            tuple(p0),
            tuple(p1),
            arrowstyle="<|-|>",
            mutation_scale=9,
            shrinkA=0,
            shrinkB=0,
            color=RULER_COLOUR,
            linewidth=1.2,
            zorder=ZORDER["overlays"] + 0.3,
        )
        ax.add_patch(arrow)
        out["rulers"].append(arrow)
        out["ticks"] += _ticks(ax, p0, p1, (p0, p1), RULER_COLOUR)
        text = f"{m.distance:.2f} cm"
    else:
        (dot,) = ax.plot(*p0, marker="o", markersize=4, color=RULER_COLOUR, zorder=ZORDER["overlays"] + 0.3)
        out["rulers"].append(dot)
        text = (
            gettext("overlapping by {cm:.2f} cm").format(cm=m.depth)
            if m.depth > 0
            else gettext("touching (0 cm)")
        )
    mid = (p0 + p1) / 2.0
    t = place_label(
        ax,
        bf,
        gettext("{a} to {b}: {text}").format(a=m.a, b=m.b, text=text),
        _label_candidates(float(mid[0]), float(mid[1]), 1.5),
        fontsize=7,
        color=RULER_COLOUR,
        frame=RULER_COLOUR,
        weight="bold",
    )
    if t is not None:
        out["labels"].append(t)
    legend_entry(
        ax,
        "ruler: edge to edge (4.5.2)",
        Line2D([], [], color=RULER_COLOUR, linewidth=1.2, marker="|", markersize=6),
        76.0,
    )
    _finish(ax)
    return out


def fire_geometries(scenario: Scenario | Battlefield, result: FireResult) -> list[shapely.Geometry]:
    """What a fire picture is about (for :func:`focus_region`): both units and every line."""
    bf = _fire_table(scenario, result)
    geoms = [unit_geometry(bf, result.shooter), unit_geometry(bf, result.target)]
    miss = range_miss(bf, result)
    if miss is not None:
        geoms.append(shapely.LineString([miss.near, miss.far]))
    for ln in sight_lines(bf, result):
        g = _blocker_geometry(bf, ln.blocked.by if ln.blocked else None)
        if g is not None and g.area < 2000:
            geoms.append(g)
    return geoms


# --- moves (PD-6, 3.2) --------------------------------------------------------------------------


def _motion(bf: Battlefield, base: str, poses: Sequence[Sequence[float]]) -> Any:

    k = _base_index(bf, base)
    pts = list(poses)
    if len(pts) < 2:
        pts = [pts[0], pts[0]]
    return BaseMotion.of(pts, float(bf.width[k]), float(bf.depth[k]))


def _ghost(
    ax: Axes, corners: np.ndarray, side: str, *, bad: bool, alpha: float = 0.45, z: float | None = None
) -> Any:
    from matplotlib.patches import Polygon

    c = SIDE_COLOURS[side]
    g = Polygon(
        corners,
        closed=True,
        facecolor=c.fill,
        alpha=alpha,
        edgecolor=BLOCKED_COLOUR if bad else c.edge,
        linewidth=1.3 if bad else 0.9,
        linestyle=(0, (2, 1.5)),
        zorder=ZORDER["overlays"] - 0.2 if z is None else z,
    )
    ax.add_patch(g)
    front = corners[:2]
    (f,) = ax.plot(
        front[:, 0],
        front[:, 1],
        color=BLOCKED_COLOUR if bad else c.front,
        linewidth=1.6,
        alpha=0.8,
        zorder=(ZORDER["overlays"] - 0.19) if z is None else z + 0.01,
    )
    return g, f


def _move_verdict(ax: Axes, report: MoveReport) -> Text:
    """The verdict and the first rules broken, in the top left corner; its box is reserved, so
    the distance labels placed after it keep clear of it."""
    x0, x1 = ax.get_xlim()
    chars = max(30, int(abs(x1 - x0) / _cm_per_point(ax) / (0.6 * 7.5)) - 4)
    if report.legal:
        verdict = gettext("legal charge") if report.charge else gettext("legal move")
        if report.push_up is not None:
            verdict = gettext("legal push-up")
    else:
        verdict = (
            gettext("ILLEGAL")
            + "\n"
            + "\n".join(_wrap(f"[{v.rule}] {v.message}", chars) for v in report.violations[:4])
        )
    t = ax.text(
        0.01,
        0.99,
        verdict,
        transform=ax.transAxes,
        ha="left",
        va="top",
        fontsize=7.5,
        fontweight="bold",
        color=CLEAR_COLOUR if report.legal else BLOCKED_COLOUR,
        zorder=ZORDER["labels"],
        bbox={
            "boxstyle": "round,pad=0.3",
            "facecolor": "#ffffff",
            "alpha": 0.9,
            "edgecolor": CLEAR_COLOUR if report.legal else BLOCKED_COLOUR,
        },
    )
    reserve_text(ax, t)
    return t


# long: a drawing of a checked move: paths, ghosts, zones entered, surcharges and the first rule broken.
def plot_move(scenario: Scenario | Battlefield, ax: Axes | None = None, *, report: MoveReport) -> Artists:
    """PD-6, 3.2, section 3 — a checked move: for every base that moves, the path of its
    measured corner (the one that travels furthest, PD-6) as a solid arrowed line, the centre's
    path dotted, waypoints as faint outlines and the final pose ghosted (dashed outline over a
    pale copy of the base); its distance with each terrain surcharge (3.2) against its move
    written beside the ghost. A base that breaks a rule, or goes too far, is ghosted in red; the
    verdict and the first rule broken are written in the top left corner.

    A path that enters an enemy figure's control zone (1.4.2) shows that zone outlined and
    hatched in red, the part of the swept area inside it filled, and the rule beside it.

    Returns ``{"paths": [one measured-corner path per moved base], "centres": [one per moved
    base], "ghosts": [one final pose per moved base], "waypoints": [...], "labels": [...],
    "verdict": [text], "zones": [one outline per zone entered], "entered": [the swept area
    inside each, and its text]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"paths": [], "centres": [], "ghosts": [], "waypoints": [], "labels": [], "verdict": []}
    out["verdict"].append(_move_verdict(ax, report))
    bad_bases = {v.base for v in report.violations if v.base}
    label_all = len(report.bases) <= MAX_LINE_LABELS
    longest = max(report.bases, key=lambda b: b.distance, default=None)
    for bm in report.bases:
        k = _base_index(bf, bm.base)
        side = "A" if bf.side[k] == 0 else "B"
        motion = _motion(bf, bm.base, bm.poses)
        s = motion.samples(0.2)
        corners = motion.corners_at(s)
        corner = corners[:, motion.measured, :]
        cx, cy, _ = motion.pose_arrays(s)
        too_far = bm.distance > bm.allowed + 1e-6
        bad = bm.base in bad_bases or too_far
        (centre,) = ax.plot(
            cx, cy, color=PATH_COLOUR, linewidth=0.8, linestyle=":", alpha=0.8, zorder=ZORDER["overlays"]
        )
        out["centres"].append(centre)
        arrow = FancyArrowPatch(
            path=_polyline_path(corner),
            arrowstyle="-|>",
            mutation_scale=9,
            color=BLOCKED_COLOUR if too_far else PATH_COLOUR,
            linewidth=1.4,
            zorder=ZORDER["overlays"] + 0.1,
        )
        ax.add_patch(arrow)
        out["paths"].append(arrow)
        for wp in bm.poses[1:-1]:
            wc = base_corners(wp[0], wp[1], wp[2], float(bf.width[k]), float(bf.depth[k]))
            g, _ = _ghost(ax, np.asarray(wc), side, bad=False, alpha=0.15)
            out["waypoints"].append(g)
        end = corners[-1]
        g, _ = _ghost(ax, end, side, bad=bad)
        out["ghosts"].append(g)
        _state(ax).boxes.append(shapely.Polygon(end))  # labels keep off the ghosts
        if label_all or bm is longest or bad:
            extra = "".join(f" + {x.cm:.1f} {x.source}" for x in bm.surcharges)
            text = (
                f"{bm.path:.1f}{extra} = "
                + gettext("{distance:.1f} of {allowed:g} cm").format(distance=bm.distance, allowed=bm.allowed)
                if extra
                else gettext("{distance:.1f} of {allowed:g} cm").format(
                    distance=bm.distance, allowed=bm.allowed
                )
            )
            text = (
                f"{bm.base}: "
                if not label_all
                else f"/{bm.base.rpartition('/')[2]}: "
                if len(report.bases) > 1
                else ""
            ) + text
            ex, ey = end.mean(axis=0)
            t = place_label(
                ax,
                bf,
                text,
                _label_candidates(float(ex), float(ey), 2.5),
                fontsize=6.5,
                color=BLOCKED_COLOUR if bad else PATH_COLOUR,
                frame=BLOCKED_COLOUR if bad else PATH_COLOUR,
            )
            if t is not None:
                out["labels"].append(t)
    out.update(_plot_zones_entered(bf, ax, report))

    if out["paths"]:
        legend_entry(
            ax,
            "measured corner's path (PD-6)",
            Line2D([], [], color=PATH_COLOUR, linewidth=1.4, marker=">", markersize=4),
            70.0,
        )
        legend_entry(
            ax, "path of the centre", Line2D([], [], color=PATH_COLOUR, linewidth=0.8, linestyle=":"), 71.0
        )
        legend_entry(
            ax, "final pose (ghost)", Patch(facecolor="#dddddd", edgecolor="#555555", linestyle="--"), 72.0
        )
    if bad_bases or any(b.distance > b.allowed + 1e-6 for b in report.bases):
        legend_entry(
            ax,
            "breaks a rule / too far",
            Patch(facecolor="#ffffff", edgecolor=BLOCKED_COLOUR, linestyle="--", linewidth=1.3),
            73.0,
        )
    _finish(ax)
    return out


#: The enemy figure a 1.4.2 violation names (szwadron.table.movement's message).
_ZONE_OF = re.compile(r"control zone of enemy figure ([^\s,()]+)")


def zones_entered(
    scenario: Scenario | Battlefield, report: MoveReport
) -> list[tuple[str, str, shapely.Geometry]]:
    """1.4.2 — ``(moving base, enemy figure, its control zone)`` for each violation of the move
    that names a control zone entered."""
    bf = as_battlefield(scenario)
    out = []
    for v in report.violations:
        m = _ZONE_OF.search(v.message)
        if not v.rule.startswith("1.4") or v.base is None or m is None or m.group(1) not in bf.base_ids:
            continue
        k = _base_index(bf, m.group(1))
        zone = shapely.buffer(bf.polygons[k], bf.settings.control_zone_cm, quad_segs=16)
        out.append((v.base, m.group(1), zone))
    return out


def _plot_zones_entered(bf: Battlefield, ax: Axes, report: MoveReport) -> Artists:
    from matplotlib.colors import to_rgba
    from matplotlib.patches import PathPatch

    out: Artists = {"zones": [], "entered": []}
    poses = {bm.base: bm.poses for bm in report.bases}
    for base, enemy, zone in zones_entered(bf, report):
        ring = PathPatch(
            geometry_path(zone),
            facecolor=to_rgba(BLOCKED_COLOUR, 0.06),
            edgecolor=BLOCKED_COLOUR,
            hatch="..",
            linewidth=1.2,
            linestyle=(0, (3, 2)),
            zorder=ZORDER["zones"] + 0.2,
        )
        ax.add_patch(ring)
        out["zones"].append(ring)
        if base in poses:
            inside = shapely.intersection(_motion(bf, base, poses[base]).swept(), zone)
            if not inside.is_empty and inside.area > 0:
                fill = PathPatch(
                    geometry_path(inside),
                    facecolor=BLOCKED_COLOUR,
                    edgecolor=BLOCKED_COLOUR,
                    linewidth=1.5,
                    alpha=0.8,
                    zorder=ZORDER["overlays"] + 0.15,
                )
                ax.add_patch(fill)
                out["entered"].append(fill)
        c = zone.centroid
        t = place_label(
            ax,
            bf,
            f"1.4.2: {base} enters the zone of {enemy}",
            _label_candidates(float(c.x), float(c.y), 3.0),
            fontsize=7,
            color=BLOCKED_COLOUR,
            frame=BLOCKED_COLOUR,
            weight="bold",
        )
        if t is not None:
            out["entered"].append(t)
    if out["zones"]:
        from matplotlib.patches import Patch

        legend_entry(
            ax,
            "control zone entered (1.4.2)",
            Patch(facecolor=to_rgba(BLOCKED_COLOUR, 0.06), edgecolor=BLOCKED_COLOUR, hatch=".."),
            71.5,
        )
    return out


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width)) or text


def _polyline_path(points: np.ndarray) -> Any:
    from matplotlib.path import Path

    pts = np.asarray(points, dtype=float)
    keep = np.concatenate([[True], np.hypot(*np.diff(pts, axis=0).T) > 1e-9])
    pts = pts[keep]
    if len(pts) < 2:
        pts = np.vstack([pts, pts + 1e-6])
    return Path(pts)


def move_geometries(scenario: Scenario | Battlefield, report: MoveReport) -> list[shapely.Geometry]:
    """What a move picture is about: the moving bases before and after, and their paths."""
    bf = as_battlefield(scenario)
    geoms: list[shapely.Geometry] = [unit_geometry(bf, u) for u in report.units]
    for bm in report.bases:
        motion = _motion(bf, bm.base, bm.poses)
        geoms.append(motion.swept())
    geoms += [unit_geometry(bf, u) for u in report.charge]
    return geoms


# --- reach --------------------------------------------------------------------------------------


def plot_reach(scenario: Scenario | Battlefield, ax: Axes | None = None, *, result: ReachResult) -> Artists:
    """The answer of :func:`szwadron.table.reach.reach`: the path of the base's centre into contact
    as an arrowed line (green when it is within the move, red when not), the base ghosted where
    it touches, and the length (PD-6 and surcharges) against the move written at the end.

    When the unit cannot reach, the envelope of its move is drawn around the base — the
    outline of every place a straight move of its ``allowed`` cm can take it, terrain aside —
    and, on a path that is too long, the point where the move runs out is crossed (placed in
    proportion: ``allowed / length`` along the path).

    Returns ``{"paths": [the path, or nothing when there is none], "ghosts": [...],
    "labels": [...], "envelope": [the outline, when it cannot reach], "stop": [the cross and its
    text, on a path too long]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"paths": [], "ghosts": [], "labels": [], "envelope": [], "stop": []}
    k = _base_index(bf, result.base)
    if not result.reachable:
        out.update(_plot_reach_miss(bf, ax, result, k))
    side = "A" if bf.side[k] == 0 else "B"
    colour = CLEAR_COLOUR if result.reachable else BLOCKED_COLOUR
    if len(result.path) >= 2 and result.cost is not None:
        pts = np.asarray(result.path, dtype=float)
        arrow = FancyArrowPatch(
            path=_polyline_path(pts),
            arrowstyle="-|>",
            mutation_scale=10,
            color=colour,
            linewidth=1.8,
            zorder=ZORDER["overlays"] + 0.1,
        )
        ax.add_patch(arrow)
        out["paths"].append(arrow)
        end = base_corners(pts[-1][0], pts[-1][1], result.facing, float(bf.width[k]), float(bf.depth[k]))
        g, _ = _ghost(ax, np.asarray(end), side, bad=not result.reachable)
        out["ghosts"].append(g)
        _state(ax).boxes.append(shapely.Polygon(end))
        extra = "".join(f" + {s.cm:.1f} {s.source}" for s in result.surcharges)
        text = (
            f"{result.path_cm:.1f}{extra} = "
            + gettext("{distance:.1f} of {allowed:g} cm").format(distance=result.cost, allowed=result.allowed)
            + ": "
            + (gettext("reaches") if result.reachable else gettext("too far"))
        )
        where = (float(pts[-1][0]), float(pts[-1][1]))
    else:
        text = gettext("no path into contact within {cm:g} cm").format(cm=1.5 * result.allowed)
        where = (float(bf.x[k]), float(bf.y[k]))
    t = place_label(
        ax,
        bf,
        f"{result.unit} → {result.target}: {text}",
        _label_candidates(*where, 3.0),
        fontsize=7,
        color=colour,
        frame=colour,
        weight="bold",
    )
    if t is not None:
        out["labels"].append(t)
    if out["paths"]:
        legend_entry(
            ax,
            gettext("path into contact (reaches)")
            if result.reachable
            else gettext("path into contact (too far)"),
            Line2D([], [], color=colour, linewidth=1.8, marker=">", markersize=4),
            74.0,
        )
    _finish(ax)
    return out


def reach_envelope(scenario: Scenario | Battlefield, result: ReachResult) -> shapely.Geometry:
    """The outline of the places a straight move of ``result.allowed`` cm can take the base
    (its outline grown by the move), terrain and other units aside: nothing beyond it is in
    reach this turn."""
    bf = as_battlefield(scenario)
    return shapely.buffer(bf.polygons[_base_index(bf, result.base)], result.allowed, quad_segs=32)


def _path_point(points: np.ndarray, fraction: float) -> np.ndarray:
    """The point ``fraction`` of the way along a polyline (by length)."""
    seg = np.hypot(*np.diff(points, axis=0).T)
    total = float(seg.sum())
    if total <= 0:
        return np.asarray(points[0], dtype=float)
    target = min(max(fraction, 0.0), 1.0) * total
    run = np.concatenate([[0.0], np.cumsum(seg)])
    i = min(int(np.searchsorted(run, target, side="right")) - 1, len(seg) - 1)
    f = (target - run[i]) / seg[i] if seg[i] > 0 else 0.0
    return np.asarray(points[i] + f * (points[i + 1] - points[i]), dtype=float)


def _plot_reach_miss(bf: Battlefield, ax: Axes, result: ReachResult, k: int) -> Artists:
    from matplotlib.colors import to_rgba
    from matplotlib.lines import Line2D
    from matplotlib.patches import PathPatch

    out: Artists = {"envelope": [], "stop": []}
    env = PathPatch(
        geometry_path(reach_envelope(bf, result)),
        facecolor=to_rgba(PATH_COLOUR, 0.05),  # a faint fill, a plain outline
        edgecolor=PATH_COLOUR,
        linewidth=1.1,
        linestyle=(0, (6, 3)),
        zorder=ZORDER["zones"] + 0.05,
    )
    ax.add_patch(env)
    out["envelope"].append(env)
    legend_entry(
        ax,
        "envelope of the move (R cm)",
        Line2D([], [], color=PATH_COLOUR, linewidth=1.1, linestyle=(0, (6, 3))),
        73.0,
    )
    if len(result.path) >= 2 and result.cost:
        pts = np.asarray(result.path, dtype=float)
        stop = _path_point(pts, result.allowed / result.cost)
        (cross,) = ax.plot(
            *stop,
            marker="X",
            markersize=9,
            markerfacecolor=BLOCKED_COLOUR,
            markeredgecolor="#ffffff",
            linestyle="none",
            zorder=ZORDER["labels"] - 0.1,
        )
        out["stop"].append(cross)
        _state(ax).boxes.append(shapely.Point(stop).buffer(1.2))  # later labels keep clear of it
        t = place_label(
            ax,
            bf,
            gettext("its {cm:g} cm run out here, {short:.1f} cm short").format(
                cm=result.allowed, short=result.cost - result.allowed
            ),
            _label_candidates(float(stop[0]), float(stop[1]), 2.0),
            fontsize=7,
            color=BLOCKED_COLOUR,
            frame=BLOCKED_COLOUR,
        )
        if t is not None:
            out["stop"].append(t)
    return out


def reach_geometries(scenario: Scenario | Battlefield, result: ReachResult) -> list[shapely.Geometry]:
    """What a reach picture is about: both units and the path (and, when it cannot reach, the
    envelope of its move)."""
    bf = as_battlefield(scenario)
    geoms = [unit_geometry(bf, result.unit), unit_geometry(bf, result.target)]
    if len(result.path) >= 2:
        geoms.append(shapely.LineString(result.path))
    if not result.reachable:
        geoms.append(reach_envelope(bf, result))
    return geoms


# --- melee contacts (5.3, PD-14) ----------------------------------------------------------------


# long: a drawing: contact segments, fighting figures ringed, removal order numbers.
def plot_melee_contacts(
    scenario: Scenario | Battlefield, ax: Axes | None = None, *, melee: TableMelee, removal: bool = True
) -> Artists:
    """5.3.2, PD-14, 5.4.3 — the figures of a melee that fight: each ringed in its side's
    colour, a thin line from each to every enemy figure it touches (with the contact length when
    there are few), and the removal order of each side numbered on its bases.

    Returns ``{"fighting": [one ring per fighting figure], "links": [one line per touching
    pair], "removal": [numbers], "labels": [...]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"fighting": [], "links": [], "removal": [], "labels": []}
    for f in melee.fighting:
        k = _base_index(bf, f.base)
        side = "A" if bf.side[k] == 0 else "B"
        ring = Polygon(
            bf.corners[k],
            closed=True,
            facecolor="none",
            edgecolor=SIDE_COLOURS[side].zone,
            linewidth=2.4,
            zorder=ZORDER["contacts"] - 0.05,
        )
        ax.add_patch(ring)
        out["fighting"].append(ring)
    seen: set[tuple[str, str]] = set()
    for f in melee.fighting:
        if f.side != "attacker":
            continue
        for other in f.touching:
            key = (f.base, other)
            if key in seen:
                continue
            seen.add(key)
            a, b = _base_index(bf, f.base), _base_index(bf, other)
            (ln,) = ax.plot(
                [bf.x[a], bf.x[b]],
                [bf.y[a], bf.y[b]],
                color="#444444",
                linewidth=0.9,
                zorder=ZORDER["overlays"],
            )
            out["links"].append(ln)
    if removal:
        for side, colour in (("attacker", "#cfe0ff"), ("defender", "#ffd6d2")):
            for i, base in enumerate(melee.removal_order.get(side, ()), start=1):
                k = _base_index(bf, base)
                t = ax.text(
                    float(bf.x[k]),
                    float(bf.y[k]),
                    str(i),
                    ha="center",
                    va="center",
                    fontsize=7,
                    fontweight="bold",
                    zorder=ZORDER["labels"],
                    bbox={
                        "boxstyle": "circle,pad=0.1",
                        "facecolor": colour,
                        "edgecolor": "#333333",
                        "linewidth": 0.4,
                    },
                )
                out["removal"].append(t)
    legend_entry(ax, "fights: in contact (5.3.2)", Line2D([], [], color="#555555", linewidth=2.4), 64.0)
    if out["removal"]:
        legend_entry(
            ax,
            "removal order (5.4.3)",
            Line2D(
                [],
                [],
                marker="o",
                linestyle="none",
                markersize=8,
                markerfacecolor="#ffffff",
                markeredgecolor="#333333",
            ),
            65.0,
        )
    _finish(ax)
    return out


# --- flight (6.6) -------------------------------------------------------------------------------


def _swept_along(corners: np.ndarray, way: Sequence[tuple[float, float]]) -> shapely.Geometry:
    """The ground a base (``corners``) covers carried along ``way`` (its centre's points, the
    first where it stands), facing kept: the hulls of each pair of consecutive positions."""
    offsets = np.asarray(way, dtype=float) - np.asarray(way[0], dtype=float)
    at = corners[None, :, :] + offsets[:, None, :]
    if len(at) < 2:
        return shapely.Polygon(corners)
    pairs = np.concatenate([at[:-1], at[1:]], axis=1)
    return shapely.union_all(shapely.convex_hull(shapely.multipoints(pairs)))


# long: a drawing: flight corridors, stops, labels and pursuit arrows per unit.
def plot_flight(scenario: Scenario | Battlefield, ax: Axes | None = None, *, unit: UnitMorale) -> Artists:
    """6.6.2, 6.6.10, 6.6.12, 6.6.13 — a panicking unit's flight (from
    :func:`szwadron.table.morale_phase.morale_phase`): per figure the corridor it sweeps fleeing
    straight to its own table edge (Decision of :mod:`szwadron.table.morale_phase`), up to the edge or
    to where it would be stopped (a red bar, with what stops it) — or, where the morale phase
    plans a way (out of the enemy's ranges, round what bars the line, over terrain, 6.6.6–6.6.11),
    the corridor along that way; the unit's chance to leave the table written beside it. A pursuing unit (6.7.1): an arrow to the unit it pursues.

    Returns ``{"corridors": [one per figure], "stops": [one per stopped figure], "labels": [...],
    "pursuit": [...]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, Patch, Polygon

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"corridors": [], "stops": [], "labels": [], "pursuit": []}
    ids = bf.unit_bases(unit.id)
    side = "A" if bf.side[ids[0]] == 0 else "B"
    if unit.pursuit is not None:
        p = unit.pursuit
        if p.target is not None:
            a = unit_geometry(bf, unit.id).centroid
            b = unit_geometry(bf, p.target).centroid
            arrow = FancyArrowPatch(
                (a.x, a.y),
                (b.x, b.y),
                arrowstyle="-|>",
                mutation_scale=12,
                color=FLIGHT_COLOUR,
                linewidth=1.6,
                linestyle="--",
                zorder=ZORDER["overlays"],
            )
            ax.add_patch(arrow)
            out["pursuit"].append(arrow)
            t = place_label(
                ax,
                bf,
                f"{unit.id} pursues {p.target}: reaches it {100 * float(p.reach_chance):.0f}%",
                _label_candidates((a.x + b.x) / 2, (a.y + b.y) / 2, 2.0),
                fontsize=7,
                color=FLIGHT_COLOUR,
                frame=FLIGHT_COLOUR,
            )
            if t is not None:
                out["labels"].append(t)
        _finish(ax)
        return out
    v = np.asarray(flight_direction(side))
    for f in unit.figures:
        k = _base_index(bf, f.base)
        c = bf.corners[k]
        if f.way:  # 6.6.6-6.6.11: the planned way, the base carried along it (facing kept)
            sweep = _swept_along(c, f.way)
        else:  # the base's outline and its copy moved straight to the edge or the stop
            length = f.edge_cm if f.blocked_cm is None else f.blocked_cm
            sweep = shapely.convex_hull(shapely.MultiPoint(np.vstack([c, c + length * v])))
        for part in getattr(sweep, "geoms", [sweep]):
            corridor = Polygon(
                np.asarray(part.exterior.coords),
                closed=True,
                facecolor=FLIGHT_COLOUR,
                alpha=0.12,
                edgecolor=FLIGHT_COLOUR,
                linewidth=0.5,
                zorder=ZORDER["zones"] + 0.05,
            )
            ax.add_patch(corridor)
            out["corridors"].append(corridor)
        if f.way:
            continue  # a stop on a planned way is where the way ends
        if f.blocked_cm is not None:
            stop = c + f.blocked_cm * v
            lead = stop[np.argsort(stop @ v)[-2:]]  # the leading edge where it stops
            (bar,) = ax.plot(
                lead[:, 0], lead[:, 1], color=BLOCKED_COLOUR, linewidth=2.5, zorder=ZORDER["overlays"]
            )
            out["stops"].append(bar)
    g = unit_geometry(bf, unit.id)
    text = gettext("{unit} flees 2d6 × {step} cm: leaves the table {p:.1f}%").format(
        unit=unit.id, step=unit.flight_multiplier, p=100 * float(unit.off_table_chance)
    )
    stopped = sorted({f.blocked_by for f in unit.figures if f.blocked_by})
    if stopped:
        text += "; " + gettext("stopped by {units}").format(units=", ".join(stopped))
    t = place_label(
        ax,
        bf,
        text,
        _label_candidates(g.centroid.x, g.centroid.y, 4.0),
        fontsize=7,
        color=FLIGHT_COLOUR,
        frame=FLIGHT_COLOUR,
        weight="bold",
    )
    if t is not None:
        out["labels"].append(t)
    legend_entry(
        ax, "flight corridor (6.6)", Patch(facecolor=FLIGHT_COLOUR, alpha=0.25, edgecolor=FLIGHT_COLOUR), 66.0
    )
    if out["stops"]:
        legend_entry(ax, "flight stopped (6.6.10)", Line2D([], [], color=BLOCKED_COLOUR, linewidth=2.5), 67.0)
    _finish(ax)
    return out


def flight_geometries(
    scenario: Scenario | Battlefield, units: Sequence[UnitMorale]
) -> list[shapely.Geometry]:
    """What a morale picture is about: the units and their corridors (or pursued units)."""

    bf = as_battlefield(scenario)
    geoms: list[shapely.Geometry] = []
    for u in units:
        g = unit_geometry(bf, u.id)
        geoms.append(g)
        if u.pursuit is not None and u.pursuit.target is not None:
            geoms.append(unit_geometry(bf, u.pursuit.target))
        elif u.figures:
            side = bf.scenario.units[bf.unit_ids.index(u.id)].side
            v = np.asarray(flight_direction(side))
            far = max(f.edge_cm if f.blocked_cm is None else f.blocked_cm for f in u.figures)
            geoms.append(shapely.affinity.translate(g, *(far * v)))
    return geoms


__all__ = [
    "ARC_COLOURS",
    "BLOCKED_COLOUR",
    "CLEAR_COLOUR",
    "FLIGHT_COLOUR",
    "FOCUS_MARGIN_CM",
    "FOCUS_MARGIN_FRACTION",
    "FOCUS_MIN_SPAN_CM",
    "PATH_COLOUR",
    "RULER_COLOUR",
    "RangeMiss",
    "SightLine",
    "arc_geometries",
    "fire_geometries",
    "fire_range",
    "flight_geometries",
    "focus_region",
    "move_geometries",
    "plot_arcs",
    "plot_fire",
    "plot_flight",
    "plot_melee_contacts",
    "plot_move",
    "plot_reach",
    "plot_ruler",
    "range_miss",
    "reach_envelope",
    "reach_geometries",
    "ruler_geometry",
    "sight_lines",
    "unit_geometry",
    "zones_entered",
]
