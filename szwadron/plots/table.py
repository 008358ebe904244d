"""The table drawn to scale (issue 8, ``szwadron plot``): terrain, bases, zones, contacts.

Coordinates are the table's, in cm (docs/decisions.md "The table"): x along side A's edge
(y = 0), side B's edge at y = depth, so side A sits at the bottom of the picture and side B at the
top. One cm is the same length along both axes.

:func:`plot_table` draws the whole picture; the pieces are public and each draws onto a given
axes (or a new figure when ``ax`` is ``None``) and returns the artists it added:

- :func:`plot_terrain` — hills shaded by level (darker = higher), forests green with a tree
  hatch, rough ground stippled, obstacles as brown strips, high walls dark grey, buildings and
  fortifications dark red-brown, impassable ground black-hatched;
- :func:`plot_bases` — every base as its rectangle with a thick front edge (the facing), side A
  blue, side B white with red edges, artillery with a barrel line, figures with their own
  profile (1.1) dotted, panicking units hatched;
- :func:`plot_labels` — unit ids placed beside their units where they cover no base;
- :func:`plot_zones` — the 2 cm control zones of non-panicking units (1.4.1), measured from the
  far side of a crossable obstacle a base stands at (1.4.3), and bases standing in enemy zones;
- :func:`plot_contacts` — enemy contacts (PD-3, PD-14) as thick strokes along the touching
  edges;
- :func:`plot_scale_bar`, :func:`draw_legend` — a scale bar and the key.

Extension point: an overlay (arcs, sight bands, paths) is a function
``overlay(scenario_or_battlefield, ax, ...) -> dict[str, list[Artist]]`` drawing onto the axes
:func:`plot_table` returned; it calls :func:`legend_entry` for its key entries and
:func:`place_label` for its texts (which then avoid bases and earlier labels), and the key is
redrawn by :func:`draw_legend`. :data:`ZORDER` gives the layers.

matplotlib is imported only inside the functions; nothing calls ``show()``.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry.polygon import orient

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.geometry.bases import ZONE_QUAD_SEGS
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import gettext, term
from szwadron.models import Scenario, TerrainKind, UnitState
from szwadron.table.audit import audit, obstacle_zone_core

if TYPE_CHECKING:
    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.path import Path as MplPath
    from matplotlib.text import Text

    from szwadron.table.audit import AuditReport

Artists = dict[str, list[Any]]  # layer → the artists drawn (patches, collections, texts)
Region = tuple[float, float, float, float]

# --- palette ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideColours:
    """Colours of one side: base fill and edge, facing mark, control zone, label frame."""

    fill: str
    edge: str
    front: str
    zone: str


#: Side A blue, side B white with red edges (one palette for every picture).
SIDE_COLOURS: dict[str, SideColours] = {
    "A": SideColours(fill="#5b8ad6", edge="#1c3a6e", front="#0a1a3c", zone="#2463c4"),
    "B": SideColours(fill="#fbf8f0", edge="#a3241c", front="#c8150c", zone="#d0342c"),
}

#: The table cloth and the page around it.
TABLE_COLOUR = "#f0efdf"
MARGIN_COLOUR = "#ffffff"
#: Enemy contacts (PD-14) and bases standing in an enemy zone (1.4).
CONTACT_COLOUR = "#ff8c00"
INTRUSION_COLOUR = "#d01cc4"
#: Figures with their own profile (1.1).
PROFILE_MARK_COLOUR = "#f5c518"

#: Drawing layers (matplotlib zorder): the table under the terrain under the grid under the
#: zones under the bases; marks, contacts, scale bar and labels on top.
ZORDER: dict[str, float] = {
    "table": 0.3,
    "terrain": 0.6,  # + up to 0.4 by kind and level
    "grid": 1.5,  # matplotlib's grid with set_axisbelow("line")
    "zones": 2.0,
    "bases": 3.0,
    "panic": 3.1,
    "fronts": 3.2,
    "marks": 3.3,
    "intrusions": 3.4,
    "contacts": 3.5,
    "overlays": 4.0,
    "scale_bar": 4.5,
    "labels": 5.0,
}


@dataclass(frozen=True)
class TerrainStyle:
    """How a terrain kind is drawn; ``hatch`` is drawn in ``hatch_colour`` over the fill."""

    label: str
    face: str
    edge: str
    linewidth: float = 0.8
    hatch: str | None = None
    hatch_colour: str = "#000000"
    layer: float = 0.0  # added to ZORDER["terrain"]


_TERRAIN_STYLES: dict[TerrainKind, TerrainStyle] = {
    TerrainKind.ROUGH: TerrainStyle("rough ground", "#e6dcc2", "#a08f68", 0.6, "..", "#8a7a55", 0.10),
    TerrainKind.FOREST: TerrainStyle("forest", "#a9cf94", "#2f6b2a", 0.9, "oo", "#3f7f36", 0.15),
    TerrainKind.OBSTACLE: TerrainStyle("obstacle (fence, stream)", "#8b5a2b", "#5c3a1a", 0.4, layer=0.30),
    TerrainKind.HIGH_WALL: TerrainStyle("high wall", "#4a4a4a", "#222222", 0.4, layer=0.31),
    TerrainKind.BUILDING: TerrainStyle("building", "#7b3427", "#3f1610", 0.8, layer=0.32),
    TerrainKind.FORTIFICATION: TerrainStyle(
        "fortification", "#7b3427", "#140604", 2.0, "xx", "#b9806f", 0.33
    ),
    TerrainKind.IMPASSABLE: TerrainStyle("impassable", "#cfcfcf", "#000000", 0.8, "////", "#000000", 0.20),
}


def hill_colour(level: int) -> str:
    """Fill of a hill of this level: light tan at level 1, darker brown higher up.

    >>> hill_colour(1), hill_colour(2)
    ('#e9d7ac', '#d2b57b')
    """
    shades = ("#e9d7ac", "#d2b57b", "#b8935a", "#9a7440", "#7d592d")
    return shades[min(max(level, 1), len(shades)) - 1]


def terrain_style(kind: TerrainKind | str, level: int = 0) -> TerrainStyle:
    """The :class:`TerrainStyle` of a feature (hills by level).

    >>> terrain_style("forest").hatch, terrain_style("hill", 2).label
    ('oo', 'hill, level 2')
    """
    k = TerrainKind(kind)
    if k is TerrainKind.HILL:
        lv = max(level, 1)
        return TerrainStyle(
            gettext("hill, level {level}").format(level=lv), hill_colour(lv), "#8c6d3f", 0.7, layer=0.02 * lv
        )
    return _TERRAIN_STYLES[k]


def box_overlap_areas(polygons: np.ndarray, boxes: Any) -> np.ndarray:
    """Areas of simple polygons ``(n, m, 2)`` (no closing vertex) inside axis-aligned boxes
    ``(x0, y0, x1, y1)`` (one box for all, or one a polygon, ``(n, 4)``): Sutherland–Hodgman
    clipping of all of them at once, a vertex that clipping drops repeating the one before it
    (which adds no area). The areas :func:`shapely.intersection` then :func:`shapely.area` give,
    without a GEOS call per pair: placing thousands of labels tries every candidate box against
    the bases and labels under it (issue 16).

    >>> square = np.array([[[2.0, 3.0], [4.0, 3.0], [4.0, 5.0], [2.0, 5.0]]] * 2)
    >>> box_overlap_areas(square, [(3.0, 4.0, 10.0, 10.0), (4, 5, 6, 7)]).tolist()
    [1.0, 0.0]
    """
    v = np.asarray(polygons, dtype=float)
    if not len(v):
        return np.zeros(0)
    return _Shapes.of(v).overlaps(np.arange(len(v)), boxes)


@dataclass(frozen=True)
class _Shapes:
    """Polygons ``(n, m, 2)`` with what :func:`box_overlap_areas` needs of each, computed once:
    bounding box, area, whether it is an axis-aligned rectangle."""

    outlines: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    own: np.ndarray
    rect: np.ndarray

    @classmethod
    def of(cls, v: np.ndarray) -> _Shapes:
        lo, hi = v.min(axis=1), v.max(axis=1)
        own = _shoelace(v)
        # an axis-aligned rectangle fills its bounding box
        rect = np.isclose(own, (hi - lo).prod(axis=1), rtol=1e-12, atol=1e-12)
        return cls(v, lo, hi, own, rect)

    def overlaps(self, index: np.ndarray, boxes: Any) -> np.ndarray:
        """The areas of polygons ``index`` inside the boxes (one for all, or one each)."""
        if not len(index):
            return np.zeros(0)
        b = np.broadcast_to(np.asarray(boxes, dtype=float), (len(index), 4))
        return _overlaps(
            self.lo[index], self.hi[index], self.own[index], self.rect[index], self.outlines, index, b
        )


def _overlaps(
    lo: np.ndarray,
    hi: np.ndarray,
    own: np.ndarray,
    rect: np.ndarray,
    v: np.ndarray,
    index: np.ndarray,
    b: np.ndarray,
) -> np.ndarray:
    w = np.clip(np.minimum(hi[:, 0], b[:, 2]) - np.maximum(lo[:, 0], b[:, 0]), 0.0, None)
    h = np.clip(np.minimum(hi[:, 1], b[:, 3]) - np.maximum(lo[:, 1], b[:, 1]), 0.0, None)
    # the common cases without clipping: an axis-aligned rectangle (it fills its bounding box),
    # a polygon wholly inside the box, or one whose bounding box misses it
    inside = (lo[:, 0] >= b[:, 0]) & (lo[:, 1] >= b[:, 1]) & (hi[:, 0] <= b[:, 2]) & (hi[:, 1] <= b[:, 3])
    areas = np.where(rect, w * h, np.where(inside, own, 0.0))
    clip = ~rect & ~inside & (w > 0) & (h > 0)
    if clip.any():
        areas[clip] = _clipped_areas(v[index[clip]], b[clip])
    return np.asarray(areas)


def _shoelace(v: np.ndarray) -> np.ndarray:
    """Areas of polygons ``(n, m, 2)`` (either orientation)."""
    xs, ys = v[..., 0], v[..., 1]
    return np.asarray(np.abs(0.5 * (xs * np.roll(ys, -1, axis=1) - np.roll(xs, -1, axis=1) * ys).sum(axis=1)))


def _clipped_areas(v: np.ndarray, b: np.ndarray) -> np.ndarray:
    """:func:`box_overlap_areas` by clipping (Sutherland–Hodgman), one box a polygon."""
    for axis, col, keep_low in ((0, 0, False), (0, 2, True), (1, 1, False), (1, 3, True)):
        bound = b[:, col : col + 1]
        c = v[..., axis]
        inside = c <= bound if keep_low else c >= bound
        nxt = np.roll(v, -1, axis=1)
        cross = inside != np.roll(inside, -1, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(cross, (bound - c) / np.where(cross, nxt[..., axis] - c, 1.0), 0.0)
        hit = v + t[..., None] * (nxt - v)
        hit[..., axis] = np.where(cross, bound, hit[..., axis])
        pts = np.stack([v, hit], axis=2).reshape(len(v), -1, 2)
        ok = np.stack([inside, cross], axis=2).reshape(len(v), -1)
        kept = ok.sum(axis=1)
        width = max(int(kept.max()), 1)  # the kept corners first, in order; no more columns
        order = np.argsort(~ok, axis=1, kind="stable")[:, :width]
        idx = np.minimum(np.arange(width)[None, :], np.maximum(kept - 1, 0)[:, None])
        v = np.take_along_axis(np.take_along_axis(pts, order[..., None], axis=1), idx[..., None], axis=1)
        v = np.where((kept == 0)[:, None, None], 0.0, v)
    return _shoelace(v)


def _outlines(geoms: Sequence[shapely.Geometry]) -> tuple[np.ndarray, np.ndarray]:
    """The outlines of polygons without holes, padded to one length by repeating their last
    corner, ``(n, m, 2)``, and which geometries they are (the others: ``False``)."""
    simple = np.array(
        [isinstance(g, shapely.Polygon) and not g.interiors and not g.is_empty for g in geoms], dtype=bool
    )
    rings = [np.asarray(g.exterior.coords)[:-1] for g, s in zip(geoms, simple, strict=True) if s]
    m = max((len(r) for r in rings), default=0)
    out = np.zeros((len(geoms), max(m, 1), 2))
    k = 0
    for i, s in enumerate(simple):
        if s:
            r = rings[k]
            k += 1
            out[i, : len(r)] = r
            out[i, len(r) :] = r[-1]
    return out, simple


def _pad(outlines: np.ndarray, width: int) -> np.ndarray:
    """Outlines ``(n, m, 2)`` padded to ``width`` corners by repeating their last one."""
    if outlines.shape[1] >= width:
        return outlines
    last = outlines[:, -1:, :]
    return np.concatenate([outlines, np.repeat(last, width - outlines.shape[1], axis=1)], axis=1)


# --- per-axes state: key entries and occupied label boxes --------------------------------------


@dataclass
class _AxesState:
    legend: dict[str, tuple[float, Artist]] = field(default_factory=dict)
    boxes: list[shapely.Polygon] = field(default_factory=list)
    tree: shapely.STRtree | None = None
    """An index of ``boxes[:indexed]`` (rebuilt as boxes are added): thousands of labels are
    placed without trying each against every earlier one (issue 16)."""
    indexed: int = 0
    outlines: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 2)))
    simple: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    shapes: _Shapes | None = None
    """The indexed boxes' outlines, measured once."""
    bases: tuple[Any, _Shapes] | None = None
    """The bases of the battlefield last labelled here, measured once."""

    def base_shapes(self, bf: Battlefield) -> _Shapes:
        if self.bases is None or self.bases[0] is not bf:
            self.bases = (bf, _Shapes.of(np.asarray(bf.corners, dtype=float)))
        return self.bases[1]

    def covered(self, boxes: Sequence[shapely.Polygon], bounds: np.ndarray) -> np.ndarray:
        """For each axis-aligned box (``bounds``: their ``(x0, y0, x1, y1)``), the area that
        the occupied boxes cover, each overlap counted."""
        if len(self.boxes) - self.indexed > 64:
            new, simple = _outlines(self.boxes[len(self.simple) :])  # only the boxes added since
            width = max(self.outlines.shape[1], new.shape[1])
            self.outlines = np.concatenate([_pad(self.outlines, width), _pad(new, width)])
            self.simple = np.concatenate([self.simple, simple])
            self.shapes = _Shapes.of(self.outlines)
            self.tree = shapely.STRtree(self.boxes)
            self.indexed = len(self.boxes)
        pairs = np.zeros((2, 0), dtype=int)
        if self.tree is not None:
            pairs = np.asarray(self.tree.query(boxes, predicate="intersects"), dtype=int)
        recent = np.arange(self.indexed, len(self.boxes))
        if len(recent):
            mesh = np.stack(np.meshgrid(np.arange(len(boxes)), recent, indexing="ij")).reshape(2, -1)
            pairs = np.concatenate([pairs, mesh], axis=1)
        ci, gi = pairs
        areas = np.zeros(len(ci))
        old = gi < self.indexed
        fast = np.zeros(len(ci), dtype=bool)
        fast[old] = self.simple[gi[old]]
        if self.shapes is not None and fast.any():
            areas[fast] = self.shapes.overlaps(gi[fast], bounds[ci[fast]])
        if len(recent):  # the boxes added since the index was built
            outlines, simple = _outlines(self.boxes[self.indexed :])
            new = np.flatnonzero(~old)
            quick = new[simple[gi[new] - self.indexed]]
            areas[quick] = box_overlap_areas(outlines[gi[quick] - self.indexed], bounds[ci[quick]])
            fast[quick] = True
        slow = np.flatnonzero(~fast)
        if len(slow):
            others = np.empty(len(slow), dtype=object)
            others[:] = [self.boxes[i] for i in gi[slow].tolist()]
            mine = np.empty(len(slow), dtype=object)
            mine[:] = [boxes[i] for i in ci[slow].tolist()]
            areas[slow] = shapely.area(shapely.intersection(mine, others))
        return np.bincount(ci, weights=areas, minlength=len(boxes))


_STATE: weakref.WeakKeyDictionary[Any, _AxesState] = weakref.WeakKeyDictionary()


def _state(ax: Axes) -> _AxesState:
    st = _STATE.get(ax)
    if st is None:
        st = _AxesState()
        _STATE[ax] = st
    return st


def reserve_text(ax: Axes, text: Text) -> None:
    """Remember the box of ``text`` (drawn already, in any coordinates) so that labels placed
    later by :func:`place_label` avoid it: a verdict written in a corner of the axes covers no
    distance label."""
    fig = ax.figure
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    # the text's own extent (its frame is laid out only when drawn), widened by a frame's pad
    pad = (float(text.get_fontsize()) * 0.5 + 2.0) * fig.dpi / 72.0
    extent = text.get_window_extent(renderer=renderer).padded(pad)
    (x0, y0), (x1, y1) = ax.transData.inverted().transform([[extent.x0, extent.y0], [extent.x1, extent.y1]])
    _state(ax).boxes.append(shapely.box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))


def legend_entry(ax: Axes, label: str, handle: Artist, order: float = 50.0) -> None:
    """Add an entry to the key of ``ax`` (drawn by :func:`draw_legend`), once per label;
    entries are sorted by ``order`` (sides 0–9, bases 10–19, terrain 20–39, overlays 40+)."""
    st = _state(ax)
    if label not in st.legend:
        st.legend[label] = (order, handle)


def draw_legend(ax: Axes, *, fontsize: float = 8.0) -> Any:
    """Draw (or redraw) the key of ``ax`` beside the table, from the entries added so far.

    Returns the :class:`~matplotlib.legend.Legend`, or ``None`` when there is nothing to key.
    """
    entries = sorted(_state(ax).legend.items(), key=lambda kv: kv[1][0])
    if not entries:
        return None
    return ax.legend(
        [h for _, (_, h) in entries],
        [lab for lab, _ in entries],
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        fontsize=fontsize,
        frameon=False,
        title="Key",
        title_fontsize=fontsize + 1,
        alignment="left",
        handlelength=2.2,
        handleheight=1.3,
        borderaxespad=0.0,
    )


# --- inputs and the view ------------------------------------------------------------------------


def as_battlefield(scenario: Scenario | Battlefield) -> Battlefield:
    """A :class:`Battlefield` for a scenario (built once) or the one given
    (:meth:`Battlefield.of <szwadron.geometry.battlefield.Battlefield.of>`)."""
    return Battlefield.of(scenario)


#: The smallest region drawn (cm each way): half an infantry base; smaller ones have no room
#: for the scale bar and the labels (issue 16: matplotlib gave up on a 0.001 cm region).
MIN_REGION_CM = 1.0


def parse_region(text: str) -> Region:
    """``"x0,y0,x1,y1"`` (cm) → a region of the table, corners in any order.

    Raises
    ------
    InvalidDataError
        Not four finite numbers, or a region of no width or depth.

    >>> parse_region("40, 20, 70,45")
    (40.0, 20.0, 70.0, 45.0)
    >>> parse_region("70,45,40,20")
    (40.0, 20.0, 70.0, 45.0)
    """
    parts = [p.strip() for p in text.split(",")]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise InvalidArgumentError(
            "region", gettext("must be x0,y0,x1,y1 in cm (four numbers), got {text}").format(text=repr(text))
        )
    x0, y0, x1, y1 = values
    if x0 == x1 or y0 == y1:
        raise InvalidArgumentError(
            "region", gettext("{text}: the region has no width or no depth").format(text=repr(text))
        )
    if abs(x1 - x0) < MIN_REGION_CM or abs(y1 - y0) < MIN_REGION_CM:
        raise InvalidArgumentError(
            "region",
            gettext(
                "{text}: the region is {width} by {depth} cm; a picture shows at least {least} cm each "
                "way (half a base)"
            ).format(
                text=repr(text),
                width=f"{abs(x1 - x0):g}",
                depth=f"{abs(y1 - y0):g}",
                least=f"{MIN_REGION_CM:g}",
            ),
        )
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def table_view(scenario: Scenario, region: Region | None = None) -> Region:
    """The part of the table to show: ``region``, or the whole table with a margin around it
    (room for the side labels and the scale bar)."""
    w, d = scenario.table.width, scenario.table.depth
    if region is not None:
        x0, y0, x1, y1 = region
        if not (x0 < x1 and y0 < y1):
            raise InvalidDataError(
                gettext("region {region}: expected x0 < x1 and y0 < y1").format(region=region)
            )
        # Decision: a view shows the table; it may reach past an edge by the table's own size
        # (room enough for anything placed off the table), no further
        if x0 < -w or y0 < -d or x1 > 2 * w or y1 > 2 * d or x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= d:
            raise InvalidArgumentError(
                "region",
                gettext(
                    "{region} must overlap the table (0,0 to {w},{d}) and reach no further than {w} cm across "
                    "and {d} cm along beyond its edges"
                ).format(region=f"{x0:g},{y0:g},{x1:g},{y1:g}", w=f"{w:g}", d=f"{d:g}"),
            )
        return (float(x0), float(y0), float(x1), float(y1))
    m = max(3.0, 0.05 * max(w, d))
    return (-m, -m, w + m, d + m)


def table_figsize(view: Region, *, legend: bool = True) -> tuple[float, float]:
    """Figure size in inches for a view of the table: the table area at most 8.8 × 8 in, plus
    room for the key (``legend``), the ticks and the title, at least 7 × 3.8 in; rounded to
    0.1 in (whole pixels at any dpi that is a multiple of 10).

    >>> table_figsize((-9, -9, 189, 129))
    (12.3, 7.3)
    """
    w, d = view[2] - view[0], view[3] - view[1]
    scale = min(8.8 / w, 8.0 / d)
    width = max(w * scale + (3.5 if legend else 0.9), 7.0)
    height = max(d * scale + 1.2, 3.8)
    return (round(width, 1), round(height, 1))


def _new_axes(view: Region, legend: bool = True) -> Axes:
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=table_figsize(view, legend=legend), layout="constrained")
    return fig.add_subplot()


def _grid_steps(span_cm: float) -> tuple[float, float]:
    """Major and minor grid steps for a view ``span_cm`` wide: the finest major step giving at
    most 20 lines; a 1 cm minor grid in close-ups.

    >>> _grid_steps(198), _grid_steps(65), _grid_steps(12), _grid_steps(30000)
    ((10.0, 5.0), (5.0, 1.0), (1.0, 0.5), (2000.0, 1000.0))
    """
    for major, minor in ((1.0, 0.5), (2.0, 1.0), (5.0, 1.0), (10.0, 5.0), (20.0, 10.0), (50.0, 10.0)):
        if span_cm / major <= 20:
            return major, minor
    # beyond: the next 1-2-5 step giving at most 20 lines, however large the view
    power = 10.0 ** math.floor(math.log10(span_cm / 20.0))
    major = next(m * power for m in (1.0, 2.0, 5.0, 10.0) if span_cm / (m * power) <= 20)
    return major, major / 2


def setup_table_axes(ax: Axes, scenario: Scenario, view: Region, *, grid: bool = True) -> Artists:
    """Limits, equal scale, cm ticks and grid, the table cloth and its outline, side labels.

    Returns ``{"table": [cloth, *side labels]}``.
    """
    from matplotlib.patches import Rectangle
    from matplotlib.ticker import MultipleLocator

    x0, y0, x1, y1 = view
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("equal", adjustable="box")
    ax.set_facecolor(MARGIN_COLOUR)
    ax.set_xlabel("x (cm)", fontsize=8)
    ax.set_ylabel("y (cm)", fontsize=8)
    ax.tick_params(labelsize=7)
    major, minor = _grid_steps(max(x1 - x0, y1 - y0))
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MultipleLocator(major))
        axis.set_minor_locator(MultipleLocator(minor))
    if grid:
        ax.set_axisbelow("line")
        ax.grid(True, which="major", color="#8f8f80", linewidth=0.5, alpha=0.45)
        ax.grid(True, which="minor", color="#8f8f80", linewidth=0.3, alpha=0.2)
    w, d = scenario.table.width, scenario.table.depth
    cloth = Rectangle(
        (0.0, 0.0), w, d, facecolor=TABLE_COLOUR, edgecolor="#4d4d4d", linewidth=1.4, zorder=ZORDER["table"]
    )
    cloth.set_gid("table")
    ax.add_patch(cloth)
    out: list[Artist] = [cloth]
    pad = 0.012 * max(x1 - x0, y1 - y0)
    for side, y, va in (("A", 0.0, "top"), ("B", d, "bottom")):
        if not (y0 <= y <= y1):
            continue
        yy = y - pad if side == "A" else y + pad
        if not (y0 <= yy <= y1):  # no margin: write it just inside the edge
            yy, va = (y + pad, "bottom") if side == "A" else (y - pad, "top")
        xs = (max(x0, 0.0) + min(x1, w)) / 2.0
        txt = ax.text(
            xs,
            yy,
            gettext("side {side} edge").format(side=side),
            ha="center",
            va=va,
            fontsize=8,
            fontweight="bold",
            color=SIDE_COLOURS[side].edge,
            zorder=ZORDER["labels"],
        )
        out.append(txt)
        _state(ax).boxes.append(
            _text_box(ax, gettext("side {side} edge").format(side=side), 8.0, xs, yy, va=va)
        )
    return {"table": out}


def _view_box(ax: Axes) -> shapely.Polygon | None:
    """The part of the table the axes show, or ``None`` while their limits are automatic
    (axes not set up by :func:`setup_table_axes`: everything counts as shown)."""
    if ax.get_autoscalex_on() or ax.get_autoscaley_on():
        return None
    x0, x1 = sorted(ax.get_xlim())
    y0, y1 = sorted(ax.get_ylim())
    return shapely.box(x0, y0, x1, y1)


def _prepare(scenario: Scenario | Battlefield, ax: Axes | None) -> tuple[Battlefield, Axes]:
    bf = as_battlefield(scenario)
    if ax is None:
        view = table_view(bf.scenario)
        ax = _new_axes(view, legend=False)
        setup_table_axes(ax, bf.scenario, view)
    return bf, ax


# --- geometry → matplotlib paths ----------------------------------------------------------------


def _rings(geom: shapely.Geometry) -> list[tuple[np.ndarray, bool]]:
    """The rings (closed) and lines (open) of a geometry, as ``(coords, closed)``."""
    out: list[tuple[np.ndarray, bool]] = []
    for part in shapely.get_parts(geom):
        if isinstance(part, shapely.Polygon):
            part = orient(part, sign=1.0)  # outline anticlockwise, holes clockwise: holes stay holes
            out.append((np.asarray(part.exterior.coords)[:, :2], True))
            out += [(np.asarray(h.coords)[:, :2], True) for h in part.interiors]
        elif isinstance(part, shapely.LinearRing):
            out.append((np.asarray(part.coords)[:, :2], True))
        elif isinstance(part, shapely.LineString):
            out.append((np.asarray(part.coords)[:, :2], False))
        elif isinstance(part, shapely.GeometryCollection):
            out += _rings(part)
    return [(c, closed) for c, closed in out if len(c) >= 2]


def geometry_path(geom: shapely.Geometry) -> MplPath:
    """A matplotlib path for a shapely (multi)polygon with holes, or (multi)linestring (points
    are left out).

    >>> geometry_path(shapely.box(0, 0, 2, 1)).get_extents().bounds == (0, 0, 2, 1)
    True
    """
    from matplotlib.path import Path

    rings = _rings(geom)
    if not rings:
        return Path(np.zeros((0, 2)))
    verts = np.concatenate([c for c, _ in rings])
    codes: list[int] = []
    for c, closed in rings:
        codes += [int(Path.MOVETO)] + [int(Path.LINETO)] * (len(c) - 1)
        if closed:
            codes[-1] = int(Path.CLOSEPOLY)
    return Path(verts, np.asarray(codes, dtype=np.uint8))


# --- terrain ------------------------------------------------------------------------------------


def plot_terrain(scenario: Scenario | Battlefield, ax: Axes | None = None, *, names: bool = True) -> Artists:
    """3.2 — the terrain features, each in the style of its kind (:func:`terrain_style`), with
    its name (or id) beside or inside it when ``names``.

    Returns ``{"terrain": [one patch per feature, in scenario order], "hatches": [the texture
    patches of hatched kinds], "names": [texts]}``.
    """
    from matplotlib.patches import Patch, PathPatch

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"terrain": [], "hatches": [], "names": []}
    view = _view_box(ax)
    for feature, shape in zip(bf.scenario.terrain, bf.terrain, strict=True):
        style = terrain_style(shape.kind, shape.level)
        z = ZORDER["terrain"] + style.layer
        path = geometry_path(shape.polygon)
        patch = PathPatch(
            path, facecolor=style.face, edgecolor=style.edge, linewidth=style.linewidth, zorder=z
        )
        patch.set_gid(f"terrain-{feature.id}")
        ax.add_patch(patch)
        out["terrain"].append(patch)
        order = 20.0 + (
            shape.level * 0.1 if shape.kind is TerrainKind.HILL else 2.0 + list(TerrainKind).index(shape.kind)
        )
        label = style.label
        handle = Patch(facecolor=style.face, edgecolor=style.edge, linewidth=style.linewidth)
        if style.hatch:
            hatch = PathPatch(
                path,
                facecolor="none",
                edgecolor=style.hatch_colour,
                linewidth=0.0,
                hatch=style.hatch,
                zorder=z + 0.001,
            )
            ax.add_patch(hatch)
            out["hatches"].append(hatch)
            handle = Patch(
                facecolor=style.face, edgecolor=style.hatch_colour, hatch=style.hatch, linewidth=0.0
            )
        if view is None or shapely.intersects(view, shape.polygon):  # key what is shown
            legend_entry(ax, label, handle, order)
        if names:
            t = _name_terrain(ax, bf, shape.polygon, _terrain_text(feature, shape.level))
            if t is not None:
                out["names"].append(t)
    return out


def _name_terrain(ax: Axes, bf: Battlefield, poly: shapely.Geometry, text: str) -> Text | None:
    """A terrain name in small grey italics: above the feature, below it, or inside it —
    wherever it covers no base and no earlier label."""
    x0, y0, x1, y1 = poly.bounds
    cx = (x0 + x1) / 2.0
    inside = poly.representative_point()
    pad = 0.4
    candidates = [
        (cx, y1 + pad, "bottom"),
        (cx, y0 - pad, "top"),
        (float(inside.x), float(inside.y), "center"),
    ]
    return place_label(ax, bf, text, candidates, fontsize=6.5, style="italic", color="#4f4a3c", frame=False)


# --- bases --------------------------------------------------------------------------------------


def _front_segments(bf: Battlefield) -> np.ndarray:
    return np.stack([bf.corners[:, 0], bf.corners[:, 1]], axis=1)  # front-left → front-right


# long: a drawing: base rectangles, front edges, states and labels, batched per kind.
def plot_bases(scenario: Scenario | Battlefield, ax: Axes | None = None) -> Artists:
    """1.2 — every base as its rectangle to scale, with a thick front edge (its facing).

    Side A is blue, side B white with red edges (:data:`SIDE_COLOURS`). Artillery gets a
    barrel line from its centre through its front (4.4.3); a figure with a profile of its own
    (1.1 — an elite company, a limber) gets a gold dot; bases of panicking units (6.1) are
    hatched.

    Returns ``{"bases": [one PolyCollection, a rectangle per base in battlefield order, gid
    "bases"], "fronts": [one LineCollection, a segment per base], "barrels": [LineCollection, a
    segment per gun], "profiles": [scatter, a point per figure with its own profile], "panic":
    [one hatched PolyCollection, a rectangle per panicking base]}`` (empty lists where there is
    nothing to draw). Collections, not a patch per base (issue 16): 50,000 bases draw in
    seconds, in the same order and colours.
    """
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    bf, ax = _prepare(scenario, ax)
    out: Artists = {"bases": [], "fronts": [], "barrels": [], "profiles": [], "panic": []}
    sides = ["A" if s == 0 else "B" for s in bf.side.tolist()]
    if len(bf):
        bases = PolyCollection(
            list(bf.corners),
            closed=True,
            facecolors=[SIDE_COLOURS[s].fill for s in sides],
            edgecolors=[SIDE_COLOURS[s].edge for s in sides],
            linewidths=0.6,
            zorder=ZORDER["bases"],
        )
        bases.set_gid("bases")
        ax.add_collection(bases, autolim=False)
        out["bases"].append(bases)
        panicking = np.asarray(bf.panicking, dtype=bool)[np.asarray(bf.unit_of, dtype=int)]
        if panicking.any():
            hatch = PolyCollection(
                list(bf.corners[panicking]),
                closed=True,
                facecolors="none",
                edgecolors="#000000",
                linewidths=0.0,
                hatch="xxxx",
                zorder=ZORDER["panic"],
            )
            hatch.set_gid("panic")
            ax.add_collection(hatch, autolim=False)
            out["panic"].append(hatch)
    if len(bf):
        fronts = LineCollection(
            list(_front_segments(bf)),
            colors=[SIDE_COLOURS[s].front for s in sides],
            linewidths=2.2,
            capstyle="butt",
            zorder=ZORDER["fronts"],
        )
        ax.add_collection(fronts, autolim=False)
        out["fronts"].append(fronts)
    guns = [k for k, kind in enumerate(bf.kinds) if kind.is_artillery]
    if guns:
        g = np.asarray(guns)
        mid = (bf.corners[g, 0] + bf.corners[g, 1]) / 2.0
        centre = np.stack([bf.x[g], bf.y[g]], axis=-1)
        start = centre - (mid - centre) * 0.4
        barrels = LineCollection(
            list(np.stack([start, mid], axis=1)),
            colors=[SIDE_COLOURS[sides[k]].front for k in guns],
            linewidths=2.4,
            capstyle="round",
            zorder=ZORDER["marks"],
        )
        ax.add_collection(barrels, autolim=False)
        out["barrels"].append(barrels)
    own = [k for k in range(len(bf)) if _own_profile(bf, k)]
    if own:
        o = np.asarray(own)
        dots = ax.scatter(
            bf.x[o],
            bf.y[o],
            s=14,
            c=PROFILE_MARK_COLOUR,
            edgecolors="#3a2e00",
            linewidths=0.5,
            zorder=ZORDER["marks"],
        )
        out["profiles"].append(dots)
    # the key lists only what the view shows
    view = _view_box(ax)
    shown = (
        np.ones(len(bf), dtype=bool)
        if view is None
        else np.asarray(shapely.intersects(view, bf.polygons), dtype=bool)
    )
    for side, order in (("A", 0.0), ("B", 1.0)):
        if any(s == side and v for s, v in zip(sides, shown, strict=True)):
            c = SIDE_COLOURS[side]
            legend_entry(
                ax,
                gettext("side {side} (thick edge = front)").format(side=side),
                Patch(facecolor=c.fill, edgecolor=c.front, linewidth=1.6),
                order,
            )
    if any(shown[k] for k in own):
        legend_entry(
            ax,
            "figure with its own profile (1.1)",
            Line2D(
                [],
                [],
                linestyle="none",
                marker="o",
                markersize=5,
                markerfacecolor=PROFILE_MARK_COLOUR,
                markeredgecolor="#3a2e00",
            ),
            10.0,
        )
    if any(shown[k] for k in guns):
        legend_entry(ax, "artillery (line = barrel)", Line2D([], [], color="#333333", linewidth=2.4), 11.0)
    if any(shown[k] and bf.panicking[bf.unit_of[k]] for k in range(len(bf))):
        legend_entry(
            ax,
            "panicking unit (6.1)",
            Patch(facecolor="#ffffff", edgecolor="#000000", hatch="xxxx", linewidth=0.6),
            12.0,
        )
    return out


def _own_profile(bf: Battlefield, k: int) -> bool:
    unit = bf.scenario.units[int(bf.unit_of[k])]
    pose = unit.bases[int(bf.index_in_unit[k])]
    return pose.profile is not None and pose.profile != unit.profile


# --- labels -------------------------------------------------------------------------------------


def _cm_per_point(ax: Axes) -> float:
    """Length in cm of one typographic point on this axes (equal scale; estimated from the
    axes' box before layout, which errs on the large side)."""
    root: Any = ax.get_figure()
    while not hasattr(root, "get_size_inches"):  # a subfigure: its root figure has the size
        root = root.figure
    fw, fh = root.get_size_inches()
    pos = ax.get_position()
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    inch_per_cm = min(pos.width * fw / abs(x1 - x0), pos.height * fh / abs(y1 - y0))
    return float(1.0 / (72.0 * inch_per_cm))


def _text_box(
    ax: Axes,
    text: str,
    fontsize: float,
    x: float,
    y: float,
    *,
    ha: str = "center",
    va: str = "center",
    pad_pt: float = 2.0,
    cpp: float | None = None,
) -> shapely.Polygon:
    """Estimated box of a one-line text at ``(x, y)``, in cm (``cpp``: cm per point, when the
    caller knows it)."""
    cpp = _cm_per_point(ax) if cpp is None else cpp
    w = (0.58 * fontsize * len(text) + 2 * pad_pt) * cpp
    h = (1.25 * fontsize + 2 * pad_pt) * cpp
    left = {"left": x, "right": x - w}.get(ha, x - w / 2.0)
    bottom = {"bottom": y, "top": y - h}.get(va, y - h / 2.0)
    return shapely.box(left, bottom, left + w, bottom + h)


def place_label(
    ax: Axes,
    scenario: Scenario | Battlefield,
    text: str,
    candidates: Iterable[tuple[float, float, str]],
    *,
    fontsize: float = 7.0,
    color: str = "#000000",
    frame: bool | str = True,
    style: str = "normal",
    weight: str = "normal",
) -> Text | None:
    """Write ``text`` at the first candidate ``(x, y, va)`` where it covers no base, no earlier
    label and stays in view; if every candidate covers something, at the one covering least.

    ``frame`` draws a white box behind the text (a colour string gives its edge colour). The
    label's box is remembered, so later labels avoid it. Returns the text, or ``None`` when
    there are no candidates.
    """
    bf = as_battlefield(scenario)
    st = _state(ax)
    view = _view_box(ax)
    cands = list(candidates)
    cpp = _cm_per_point(ax)  # the same for every candidate: nothing is drawn meanwhile
    boxes = [
        _text_box(ax, text, fontsize, x, y, va=va, pad_pt=3.0 if frame else 1.0, cpp=cpp)
        for x, y, va in cands
    ]
    # every candidate scored at once (issue 16): bases and labels it covers, the part out of view
    bounds = np.asarray([b.bounds for b in boxes], dtype=float).reshape(-1, 4)
    cost: np.ndarray = np.zeros(len(boxes))
    if boxes:
        ci, bi = np.asarray(bf.tree.query(boxes, predicate="intersects"), dtype=int)
        covered = st.base_shapes(bf).overlaps(bi, bounds[ci])
        cost = np.bincount(ci, weights=covered, minlength=len(boxes)) * 10.0
        cost += st.covered(boxes, bounds)
        if view is not None:
            vx0, vy0, vx1, vy1 = view.bounds
            w = np.clip(np.minimum(bounds[:, 2], vx1) - np.maximum(bounds[:, 0], vx0), 0.0, None)
            h = np.clip(np.minimum(bounds[:, 3], vy1) - np.maximum(bounds[:, 1], vy0), 0.0, None)
            area = (bounds[:, 2] - bounds[:, 0]) * (bounds[:, 3] - bounds[:, 1])
            cost += (area - w * h) * 5.0
    best: tuple[float, int, tuple[float, float, str], shapely.Polygon] | None = None
    for rank, (c, box) in enumerate(zip(cost.tolist(), boxes, strict=True)):
        if best is None or c < best[0] - 1e-9:
            best = (c, rank, cands[rank], box)
        if c <= 1e-9:
            break
    if best is None:
        return None
    _, _, (x, y, va), box = best
    st.boxes.append(box)
    bbox = None
    if frame:
        edge = frame if isinstance(frame, str) else "#777777"
        bbox = {
            "boxstyle": "round,pad=0.2",
            "facecolor": "#ffffff",
            "edgecolor": edge,
            "linewidth": 0.6,
            "alpha": 0.88,
        }
    return ax.text(
        x,
        y,
        text,
        ha="center",
        va=va,
        fontsize=fontsize,
        color=color,
        bbox=bbox,
        fontstyle=style,
        fontweight=weight,
        zorder=ZORDER["labels"],
        clip_on=True,
    )


def _unit_frame(bf: Battlefield, u: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre, forward and right unit vectors of a unit (mean facing of its bases)."""
    idx = bf.unit_bases(u)
    a = np.radians(bf.facing[idx])
    f = np.asarray([np.cos(a).mean(), np.sin(a).mean()])
    if np.hypot(*f) < 1e-9:
        f = np.asarray([0.0, 1.0])
    f = f / np.hypot(*f)
    r = np.asarray([f[1], -f[0]])
    pts = bf.corners[idx].reshape(-1, 2)
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2.0
    return centre, f, r


def plot_labels(
    scenario: Scenario | Battlefield,
    ax: Axes | None = None,
    *,
    fontsize: float = 7.0,
    names: bool = False,
) -> list[Text]:
    """Unit labels: each unit's id (its name with ``names``; "panic" or "pursuit" added for
    those states, 6.1), placed behind the unit, in front of it or beside it — the first place
    where the label covers no base and no earlier label (:func:`place_label`). One text per
    unit with a base in view, in scenario order."""
    bf, ax = _prepare(scenario, ax)
    view = _view_box(ax)
    cpp = _cm_per_point(ax)
    out: list[Text] = []
    for u, unit in enumerate(bf.scenario.units):
        idx = bf.unit_bases(u)
        if not len(idx) or (view is not None and not shapely.intersects(view, bf.polygons[idx]).any()):
            continue
        text = (unit.name or unit.id) if names else unit.id
        if unit.state is not UnitState.NORMAL:
            text += f" ({term(unit.state.value)})"
        centre, f, r = _unit_frame(bf, u)
        pts = bf.corners[idx].reshape(-1, 2) - centre
        w = (0.58 * fontsize * len(text) + 6.0) * cpp
        h = (1.25 * fontsize + 6.0) * cpp
        gap = 0.5
        cands: list[tuple[float, float, str]] = []
        for scale in (1.0, 2.5, 4.5):
            for d in (-f, f, -r, r, -f - r, -f + r, f - r, f + r):
                u_vec = d / np.hypot(*d)
                reach = float((pts @ u_vec).max())
                half = abs(u_vec[0]) * w / 2.0 + abs(u_vec[1]) * h / 2.0
                c = centre + u_vec * (reach + gap * scale + half)
                cands.append((float(c[0]), float(c[1]), "center"))
        t = place_label(
            ax,
            bf,
            text,
            cands,
            fontsize=fontsize,
            color=SIDE_COLOURS[unit.side].edge,
            frame=SIDE_COLOURS[unit.side].edge,
            weight="bold",
        )
        if t is not None:
            t.set_gid(f"label-{unit.id}")
            out.append(t)
    return out


# --- control zones ------------------------------------------------------------------------------


def unit_zone(bf: Battlefield, unit: int | str) -> shapely.Geometry:
    """1.4.1, 1.4.3 — the area of a unit's control zones: everything within the zone radius of
    its bases, and of the stretch of a crossable obstacle a base stands at (measured from the
    obstacle's far side, :func:`szwadron.table.audit.obstacle_zone_core`). Empty for a panicking unit.
    """

    u = bf.unit_ids.index(unit) if isinstance(unit, str) else unit
    if bf.panicking[u]:
        return shapely.Polygon()
    s = bf.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    idx = bf.unit_bases(u)
    parts: list[shapely.Geometry] = list(bf.polygons[idx])
    if any(t.crossable_obstacle for t in bf.terrain):
        tb, tt, td = bf.terrain_within(tol, idx)
        for b, t, dist in zip(tb.tolist(), tt.tolist(), td.tolist(), strict=True):
            if bf.terrain[t].crossable_obstacle and dist <= tol:
                core = obstacle_zone_core(bf, b, t, tol)
                if not core.is_empty:
                    parts.append(core)
    return shapely.buffer(
        shapely.union_all(parts), s.control_zone_cm, quad_segs=ZONE_QUAD_SEGS, join_style="round"
    )


def plot_zones(
    scenario: Scenario | Battlefield,
    ax: Axes | None = None,
    *,
    report: AuditReport | None = None,
    intrusions: bool = True,
) -> Artists:
    """1.4 — the control zones of every non-panicking unit (:func:`unit_zone`), translucent in
    the side's colour under the bases; with ``intrusions``, bases standing in an enemy zone
    outside an engagement (1.4, 5.9, from :func:`szwadron.table.audit.audit`) ringed in magenta.

    Returns ``{"zones": [one patch per non-panicking unit], "intrusions": [one patch per
    intruding base]}``. Zones of one unit are drawn merged, so that their overlaps do not
    darken.
    """
    from matplotlib.patches import Patch, PathPatch, Polygon

    bf, ax = _prepare(scenario, ax)
    view = _view_box(ax)
    out: Artists = {"zones": [], "intrusions": []}
    for u, unit in enumerate(bf.scenario.units):
        if bf.panicking[u]:
            continue
        c = SIDE_COLOURS[unit.side]
        zone = unit_zone(bf, u)
        patch = PathPatch(
            geometry_path(zone), facecolor=c.zone, alpha=0.13, edgecolor="none", zorder=ZORDER["zones"]
        )
        rim = PathPatch(
            patch.get_path(),
            facecolor="none",
            edgecolor=c.zone,
            linewidth=0.7,
            linestyle=(0, (3, 2)),
            alpha=0.8,
            zorder=ZORDER["zones"] + 0.01,
        )
        patch.set_gid(f"zone-{unit.id}")
        ax.add_patch(patch)
        ax.add_patch(rim)
        out["zones"].append(patch)
        if view is None or shapely.intersects(view, zone):
            legend_entry(
                ax,
                gettext("side {side} control zone (1.4)").format(side=unit.side),
                Patch(facecolor=c.zone, alpha=0.25, edgecolor=c.zone, linestyle="--"),
                40.0 + (unit.side == "B"),
            )
    if intrusions:
        if report is None:
            report = audit(bf)
        seen: set[str] = set()
        for z in report.zone_intrusions:
            if z.base in seen:
                continue
            seen.add(z.base)
            k = int(bf.resolve(z.base)[0])
            ring = Polygon(
                bf.corners[k],
                closed=True,
                facecolor="none",
                edgecolor=INTRUSION_COLOUR,
                linewidth=2.0,
                zorder=ZORDER["intrusions"],
            )
            ax.add_patch(ring)
            out["intrusions"].append(ring)
        if out["intrusions"]:
            legend_entry(
                ax,
                "base in an enemy zone (1.4)",
                Patch(facecolor="none", edgecolor=INTRUSION_COLOUR, linewidth=2.0),
                42.0,
            )
    if out["zones"] and ax.get_legend() is not None:
        draw_legend(ax)
    return out


# --- contacts -----------------------------------------------------------------------------------


def contact_geometry(bf: Battlefield, a: str, b: str) -> shapely.Geometry:
    """PD-3, PD-14 — where two touching bases touch: the part of ``a``'s outline within the
    contact tolerance of ``b`` (a segment, or a point at a corner)."""
    s = bf.settings
    ka, kb = int(bf.resolve(a)[0]), int(bf.resolve(b)[0])
    near = shapely.buffer(bf.polygons[kb], s.contact_tolerance_cm + s.distance_epsilon_cm)
    return shapely.intersection(shapely.boundary(bf.polygons[ka]), near)


def plot_contacts(
    scenario: Scenario | Battlefield, ax: Axes | None = None, *, report: AuditReport | None = None
) -> Artists:
    """PD-3, PD-14 — enemy contacts (from :func:`szwadron.table.audit.audit`): a thick orange stroke
    along each touching stretch; a dot where two bases touch only at a corner (PD-14 length 0),
    drawn only when neither base has a contact along an edge (in a line of bases locked in
    melee, the corner touches of neighbours would only clutter the stroke).

    Returns ``{"contacts": [one stroke per contact of positive length], "corners": [one dot
    per lone corner contact]}``.
    """
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, PathPatch

    bf, ax = _prepare(scenario, ax)
    if report is None:
        report = audit(bf)
    out: Artists = {"contacts": [], "corners": []}
    drawn: list[shapely.Geometry] = []  # where the marks are, for the key
    min_len = 0.05
    along_edge = {b for c in report.contacts if c.length > min_len for b in (c.a, c.b)}
    for c in report.contacts:
        geom = contact_geometry(bf, c.a, c.b)
        gid = f"contact-{c.a}-{c.b}".replace("/", "-")
        if c.length > min_len:
            stroke = PathPatch(
                geometry_path(geom),
                facecolor="none",
                edgecolor=CONTACT_COLOUR,
                linewidth=3.0,
                capstyle="butt",
                zorder=ZORDER["contacts"],
            )
            stroke.set_gid(gid)
            ax.add_patch(stroke)
            out["contacts"].append(stroke)
            drawn.append(geom)
        elif c.a not in along_edge and c.b not in along_edge:
            p = (
                shapely.centroid(geom)
                if not geom.is_empty
                else shapely.centroid(
                    shapely.shortest_line(
                        bf.polygons[int(bf.resolve(c.a)[0])], bf.polygons[int(bf.resolve(c.b)[0])]
                    )
                )
            )
            dot = Circle(
                (float(p.x), float(p.y)),
                0.35,
                facecolor=CONTACT_COLOUR,
                edgecolor="none",
                zorder=ZORDER["contacts"],
            )
            dot.set_gid(gid)
            ax.add_patch(dot)
            out["corners"].append(dot)
            drawn.append(p)
    view = _view_box(ax)
    if drawn and (view is None or any(shapely.intersects(view, g) for g in drawn)):
        legend_entry(ax, "enemy contact (PD-14)", Line2D([], [], color=CONTACT_COLOUR, linewidth=3.0), 45.0)
    return out


# --- scale bar ----------------------------------------------------------------------------------


def plot_scale_bar(ax: Axes, length_cm: float | None = None) -> list[Artist]:
    """A scale bar in the lower right corner of the view: ``length_cm`` long (default 10 cm, or
    the largest of 5, 2, 1 cm that fits a narrow view), halves black and white, labelled.

    Returns its artists: the backing box, two half bars and the label.
    """
    from matplotlib.patches import Rectangle

    x0, x1 = sorted(ax.get_xlim())
    y0, y1 = sorted(ax.get_ylim())
    span = x1 - x0
    if length_cm is None:
        length_cm = next((v for v in (10.0, 5.0, 2.0, 1.0) if v <= 0.25 * span), 0.5)
    cpp = _cm_per_point(ax)
    h = 4.0 * cpp
    inset = 0.012 * max(span, y1 - y0)
    right = x1 - inset
    left = right - length_cm
    bottom = y0 + inset + 9.0 * cpp
    z = ZORDER["scale_bar"]
    back = Rectangle(
        (left - 4 * cpp, bottom - 12.0 * cpp),
        length_cm + 8 * cpp,
        h + 16.0 * cpp,
        facecolor="#ffffff",
        edgecolor="none",
        alpha=0.8,
        zorder=z,
    )
    dark = Rectangle(
        (left, bottom),
        length_cm / 2.0,
        h,
        facecolor="#000000",
        edgecolor="#000000",
        linewidth=0.6,
        zorder=z + 0.01,
    )
    light = Rectangle(
        (left + length_cm / 2.0, bottom),
        length_cm / 2.0,
        h,
        facecolor="#ffffff",
        edgecolor="#000000",
        linewidth=0.6,
        zorder=z + 0.01,
    )
    for p in (back, dark, light):
        ax.add_patch(p)
    label = ax.text(
        left + length_cm / 2.0,
        bottom - 2.0 * cpp,
        f"{length_cm:g} cm",
        ha="center",
        va="top",
        fontsize=7,
        zorder=z + 0.02,
    )
    _state(ax).boxes.append(
        shapely.box(left - 4 * cpp, bottom - 12 * cpp, right + 4 * cpp, bottom + h + 4 * cpp)
    )
    return [back, dark, light, label]


# --- the whole table ----------------------------------------------------------------------------


# long: the picture's layers in order (cloth, terrain, bases, labels, contacts, overlays), each a call.
def plot_table(
    scenario: Scenario | Battlefield,
    ax: Axes | None = None,
    *,
    region: Region | None = None,
    zones: bool = False,
    contacts: bool = True,
    labels: bool = True,
    grid: bool = True,
    legend: bool = True,
    names: bool = True,
    title: str | None = None,
) -> Artists:
    """The table to scale: cloth, grid, terrain, bases with facings, unit labels, contacts,
    control zones (``zones``), scale bar, side labels and the key.

    Parameters
    ----------
    scenario:
        The set-up, or its :class:`~szwadron.geometry.battlefield.Battlefield`.
    ax:
        Axes to draw on; ``None`` makes a new pyplot figure sized for the view
        (:func:`table_figsize`).
    region:
        ``(x0, y0, x1, y1)`` in cm: draw only this part of the table (a close-up); default
        the whole table with a margin.
    zones:
        Draw control zones (1.4) and ring bases standing in enemy zones.
    contacts:
        Mark enemy contacts (PD-14).
    labels:
        Unit labels; ``names`` labels the terrain features.
    grid:
        A grid in cm (10 cm lines on the whole table, finer in a close-up).
    legend:
        The key beside the table.
    title:
        Default: the scenario's name (and the region).

    Returns
    -------
    dict
        Artists by layer: ``table``, ``terrain``, ``hatches``, ``names``, ``zones``,
        ``intrusions``, ``bases``, ``fronts``, ``barrels``, ``profiles``, ``panic``,
        ``contacts``, ``corners``, ``labels``, ``scale_bar``, ``legend`` (see the piece functions).

    Examples
    --------
    >>> import matplotlib; matplotlib.use("Agg")
    >>> from szwadron.loading import bundled_scenario, load_scenario
    >>> from szwadron.plots._io import new_figure
    >>> sc = load_scenario(bundled_scenario())
    >>> art = plot_table(sc, new_figure(12.1, 7.2).add_subplot(), zones=True)
    >>> len(art["bases"][0].get_paths()) == sum(len(u.bases) for u in sc.units)
    True
    >>> len(art["zones"]) == sum(u.state != "panic" for u in sc.units)   # 1.4.1
    True
    """
    bf = as_battlefield(scenario)
    view = table_view(bf.scenario, region)
    if ax is None:
        ax = _new_axes(view, legend=legend)
    out: Artists = {}
    out.update(setup_table_axes(ax, bf.scenario, view, grid=grid))
    report = None
    if zones or contacts:
        report = audit(bf)
    out["scale_bar"] = plot_scale_bar(ax)
    out.update(plot_terrain(bf, ax, names=False))
    if zones:
        out.update(plot_zones(bf, ax, report=report))
    out.update(plot_bases(bf, ax))
    if contacts:
        out.update(plot_contacts(bf, ax, report=report))
    out["labels"] = list(plot_labels(bf, ax)) if labels else []
    if names:  # after the units: unit labels have the first pick of places
        out["names"] = [
            t
            for t in (
                _name_terrain(ax, bf, s.polygon, _terrain_text(f, s.level))
                for f, s in zip(bf.scenario.terrain, bf.terrain, strict=True)
            )
            if t is not None
        ]
    if title is None:
        title = bf.scenario.name
        if region is not None:
            title += "\n" + gettext("x {x0:g} to {x1:g} cm, y {y0:g} to {y1:g} cm").format(
                x0=view[0], x1=view[2], y0=view[1], y1=view[3]
            )
    ax.set_title(title, fontsize=10)
    lg = None
    if legend:
        ax.set_anchor("W")  # the key takes the room on the right
        lg = draw_legend(ax)
    out["legend"] = [lg] if lg is not None else []
    return out


def _terrain_text(feature: Any, level: int) -> str:
    text = str(feature.name or feature.id)
    if feature.kind in (TerrainKind.BUILDING, TerrainKind.FORTIFICATION) and level:
        text += f" (tall, level {level})"
    return text


__all__ = [
    "SIDE_COLOURS",
    "ZORDER",
    "Region",
    "SideColours",
    "TerrainStyle",
    "as_battlefield",
    "contact_geometry",
    "draw_legend",
    "geometry_path",
    "hill_colour",
    "legend_entry",
    "parse_region",
    "place_label",
    "plot_bases",
    "plot_contacts",
    "plot_labels",
    "plot_scale_bar",
    "plot_table",
    "plot_terrain",
    "plot_zones",
    "reserve_text",
    "setup_table_axes",
    "table_figsize",
    "table_view",
    "terrain_style",
    "unit_zone",
]
