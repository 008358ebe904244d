"""4.3, 4.10, PD-7, PD-11, PD-12, 7.4 — line of sight, the band, levels, terrain and cover.

The question "does base S see base T?" is answered in layers, vectorised over many pairs at once
(:func:`check_sight`):

1. 4.3.1 — the **line**: the segment between the two base centres passes through no other base
   (own or enemy, the firing unit's own neighbours included) and no terrain that blocks sight;
   the target unit's own bases never block (4.3.5).
2. 4.3.2, 4.3.3, PD-7 — the **band**: the rectangle along the line, as wide as the firing edge,
   minus the firing and target bases, overlaps no blocking terrain and no base of a unit other
   than the firing and target units.
3. 4.10 — **levels and terrain** decide what blocks (:func:`figure_blocks`,
   :func:`terrain_blocks`): figures below a shooter on a hill do not block it; firing up a hill,
   own-level figures block only within 6 cm; hills block sight between figures below their
   level; forests block as a hill of height 2, and from or into a forest 2 cm of forest on the
   line blocks; buildings and high walls block figures at or below their level; figures at the
   foot of a hill crossed by fire from another hill are hidden (4.10.7).

Overlaps are decided like contact (PD-3): the line or band must reach deeper than the overlap
tolerance (0.05 cm) into a base or a feature to be blocked by it — a line grazing a corner, or
running along the join of two bases, passes. :func:`cover` lists the cover bonuses of a target
base (4.10.2–4.10.6, 4.10.9, PD-12).

Every function taking a :class:`~szwadron.geometry.battlefield.Battlefield` finds its candidates
through the battlefield's STR-trees (``method="index"``) or by trying every base and feature
(``method="brute"``, the reference for tests and benchmarks); both give the same answer.

>>> from szwadron.geometry.bases import base_corners
>>> blocker = inset_corners(base_corners(5.0, 0.0, 90.0, 2.0, 2.0), 0.05)
>>> segment_crosses([0.0, 0.0], [10.0, 0.0], blocker).item()
True
>>> segment_crosses([0.0, 0.98], [10.0, 0.98], blocker).item()     # 0.02 cm inside: grazes
False
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import penetration_depth, polygon_distance
from szwadron.i18n import _, term
from szwadron.models import TerrainKind

if TYPE_CHECKING:
    from szwadron.settings import RulesSettings

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

_TINY = 1e-12

#: Kinds that may block sight (4.10.1, 4.10.2, 4.10.5, 4.10.6); rough ground, obstacles and
#: impassable ground (rivers, cliffs drawn flat) do not (4.10.3, 4.10.4).
SIGHT_BLOCKING_KINDS: frozenset[TerrainKind] = frozenset(
    {
        TerrainKind.HILL,
        TerrainKind.FOREST,
        TerrainKind.BUILDING,
        TerrainKind.FORTIFICATION,
        TerrainKind.HIGH_WALL,
    }
)

#: Rule that a blocking feature of each kind cites.
BLOCK_RULE: dict[TerrainKind, str] = {
    TerrainKind.HILL: "4.10.1",
    TerrainKind.FOREST: "4.10.2",
    TerrainKind.BUILDING: "4.10.5",
    TerrainKind.FORTIFICATION: "4.10.5",
    TerrainKind.HIGH_WALL: "4.10.6",
}


# --- segments, bands and convex polygons ---------------------------------------------------------


def inset_corners(corners: npt.ArrayLike, by: float) -> FloatArray:
    """Rectangles ``(..., 4, 2)`` shrunk by ``by`` on every side (never below a 1e-6 cm sliver).

    A segment reaches deeper than ``by`` into a rectangle exactly when it meets the inset one.

    >>> from szwadron.geometry.bases import base_corners
    >>> inset_corners(base_corners(0.0, 0.0, 90.0, 2.0, 2.0), 0.5).tolist()
    [[[-0.5, 0.5], [0.5, 0.5], [0.5, -0.5], [-0.5, -0.5]]]
    """
    c = np.asarray(corners, dtype=float)
    e0 = c[..., 1, :] - c[..., 0, :]  # along the front, to the right
    e1 = c[..., 2, :] - c[..., 1, :]  # along the right edge, backwards
    l0 = np.linalg.norm(e0, axis=-1, keepdims=True)
    l1 = np.linalg.norm(e1, axis=-1, keepdims=True)
    s0 = np.minimum(by, np.maximum(l0 / 2.0 - 1e-6, 0.0))
    s1 = np.minimum(by, np.maximum(l1 / 2.0 - 1e-6, 0.0))
    u0 = e0 / np.where(l0 > 0, l0, 1.0) * s0
    u1 = e1 / np.where(l1 > 0, l1, 1.0) * s1
    out: FloatArray = np.stack(
        [c[..., 0, :] + u0 + u1, c[..., 1, :] - u0 + u1, c[..., 2, :] - u0 - u1, c[..., 3, :] + u0 - u1],
        axis=-2,
    )
    return out.reshape((-1, 4, 2)) if out.ndim == 2 else out


def segment_clip(
    p0: npt.ArrayLike, p1: npt.ArrayLike, corners: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Parameters ``(t_in, t_out)`` of the part of segment ``p0 → p1`` inside convex polygons
    (Cyrus–Beck); empty when ``t_out <= t_in``; a segment running along an edge is outside.
    Vectorised over the leading axes.

    >>> from szwadron.geometry.bases import base_corners
    >>> lo, hi = segment_clip([0.0, 0.0], [10.0, 0.0], base_corners(5.0, 0.0, 90.0, 2.0, 2.0))
    >>> float(lo), float(hi)
    (0.4, 0.6)
    """
    a = np.asarray(p0, dtype=float)
    b = np.asarray(p1, dtype=float)
    c = np.asarray(corners, dtype=float)
    d = b - a
    e = np.roll(c, -1, axis=-2) - c  # edges
    # inward normal of a clockwise ring: rotate the edge by +90°
    n = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    orient = np.sign(_area2(c))[..., None]  # +1 counter-clockwise, -1 clockwise
    n = n * orient[..., None] * 1.0
    num = np.einsum("...kj,...kj->...k", c - a[..., None, :], n)  # n · (c_k - a)
    den = np.einsum("...j,...kj->...k", d, n)  # n · d
    # inside: n · (a + t d - c_k) >= 0  ⇔  t·den >= num
    with np.errstate(divide="ignore", invalid="ignore"):
        t = num / np.where(np.abs(den) > _TINY, den, 1.0)
    enter = np.where(den > _TINY, t, -np.inf)
    leave = np.where(den < -_TINY, t, np.inf)
    # parallel to an edge and on it or outside: no interior point (the boundary is not inside)
    parallel_out = (np.abs(den) <= _TINY) & (num >= -_TINY)
    lo = np.maximum(enter.max(axis=-1), 0.0)
    hi = np.minimum(leave.min(axis=-1), 1.0)
    hi = np.where(parallel_out.any(axis=-1), -np.inf, hi)
    return lo, hi


def _area2(c: FloatArray) -> FloatArray:
    nxt = np.roll(c, -1, axis=-2)
    out: FloatArray = (c[..., 0] * nxt[..., 1] - nxt[..., 0] * c[..., 1]).sum(axis=-1)
    return out


def segment_crosses(p0: npt.ArrayLike, p1: npt.ArrayLike, corners: npt.ArrayLike) -> BoolArray:
    """Whether segments ``p0 → p1`` pass through the interiors of convex polygons ``corners``
    (a positive length inside; touching a corner or an edge does not count).

    >>> from szwadron.geometry.bases import base_corners
    >>> sq = base_corners(5.0, 0.0, 90.0, 2.0, 2.0)
    >>> segment_crosses([0.0, 1.0], [10.0, 1.0], sq).item()   # along the edge
    False
    """
    lo, hi = segment_clip(p0, p1, corners)
    a = np.asarray(p0, dtype=float)
    b = np.asarray(p1, dtype=float)
    length = np.linalg.norm(b - a, axis=-1)
    out: BoolArray = np.where(hi > lo, hi - lo, 0.0) * length > 1e-9
    return out


def band_corners(p0: npt.ArrayLike, p1: npt.ArrayLike, width: npt.ArrayLike) -> FloatArray:
    """4.3.2, 4.3.3, PD-7 — the band: a rectangle ``(..., 4, 2)`` centred on ``p0 → p1``, as wide
    as ``width`` (the firing edge).

    >>> band_corners([0.0, 0.0], [10.0, 0.0], 2.0).tolist()
    [[0.0, 1.0], [10.0, 1.0], [10.0, -1.0], [0.0, -1.0]]
    """
    a = np.asarray(p0, dtype=float)
    b = np.asarray(p1, dtype=float)
    w = np.asarray(width, dtype=float)
    d = b - a
    length = np.linalg.norm(d, axis=-1, keepdims=True)
    u = d / np.where(length > 0, length, 1.0)
    left = np.stack([-u[..., 1], u[..., 0]], axis=-1) * (w / 2.0)[..., None]
    out: FloatArray = np.stack([a + left, b + left, b - left, a - left], axis=-2) + 0.0
    return out


# --- levels (4.10.1, PD-11) ------------------------------------------------------------------------


def figure_blocks(
    shooter_level: npt.ArrayLike,
    target_level: npt.ArrayLike,
    blocker_level: npt.ArrayLike,
    blocker_distance: npt.ArrayLike,
    near_cm: float = 6.0,
    epsilon_cm: float = 1e-6,
) -> BoolArray:
    """4.10.1, PD-11 — whether a figure on the line or in the band blocks, by levels.

    - Figures on levels below the shooter's never block it (firing from a hill).
    - Firing up (the target higher than the shooter): *only* figures on the shooter's level
      within ``near_cm`` (6 cm, "nie większej niż 6 cm": at most) of the firing base, edge to
      edge, block — the original's "blokują jedynie": figures on the hill, whatever their level,
      do not (hills themselves still block by :func:`terrain_blocks`).
    - Otherwise (same level, or firing down) figures on the shooter's level or higher block.

    >>> figure_blocks([0, 0, 0, 1, 1, 0], [1, 1, 0, 1, 0, 1], [0, 0, 0, 0, 1, 1],
    ...               [5.0, 7.0, 30.0, 1.0, 1.0, 3.0]).tolist()
    [True, False, True, False, True, False]
    """
    ls = np.asarray(shooter_level)
    lt = np.asarray(target_level)
    lb = np.asarray(blocker_level)
    dist = np.asarray(blocker_distance, dtype=float)
    up = lt > ls
    near = dist <= near_cm + epsilon_cm
    out: BoolArray = np.where(
        lb < ls,
        False,
        np.where(up, (lb == ls) & near, True),
    )
    return out


class TerrainSight:
    """What each terrain feature of a battlefield does to sight (one per battlefield, cached).

    :meth:`shrunk` gives each polygon shrunk by the overlap tolerance (PD-3; a feature thinner
    than twice the tolerance keeps its polygon, so a thin wall still blocks); :meth:`ground` the
    level of the ground under a wall or low building (the highest hill under it, PD-11). Both are
    computed per feature on first use: most features never lie on a line of fire.
    """

    def __init__(self, bf: Battlefield) -> None:
        self.bf = bf
        self.kinds: tuple[TerrainKind, ...] = tuple(f.kind for f in bf.terrain)
        self.levels: IntArray = np.asarray([f.level for f in bf.terrain], dtype=np.intp)
        self.blocking: BoolArray = np.asarray([k in SIGHT_BLOCKING_KINDS for k in self.kinds], dtype=bool)
        self._shrunk: dict[int, shapely.Geometry] = {}
        self._ground: dict[int, int] = {}

    @classmethod
    def of(cls, bf: Battlefield) -> TerrainSight:
        """The sight data of ``bf``'s terrain (built once per battlefield)."""
        cached = _SIGHT_CACHE.get(bf)
        if cached is None:
            cached = _SIGHT_CACHE[bf] = cls(bf)
        return cached

    def shrunk(self, features: npt.ArrayLike) -> npt.NDArray[np.object_]:
        """The polygons of ``features`` (indices) shrunk by the overlap tolerance (PD-3)."""
        idx = np.asarray(features, dtype=np.intp).reshape(-1)
        tol = self.bf.settings.overlap_tolerance_cm
        for f in set(idx.tolist()) - self._shrunk.keys():
            poly = self.bf.terrain[f].polygon
            small = shapely.buffer(poly, -tol, join_style="mitre") if tol > 0 else poly
            self._shrunk[f] = poly if small.is_empty else small
        out = np.empty(len(idx), dtype=object)
        out[:] = [self._shrunk[f] for f in idx.tolist()]
        return out

    def ground(self, feature: int) -> int:
        """PD-11 — the level of the ground under a wall, building or fortification."""
        if feature not in self._ground:
            p = shapely.point_on_surface(self.bf.terrain[feature].polygon)
            self._ground[feature] = max(
                (
                    h.level
                    for h in self.bf.terrain
                    if h.kind is TerrainKind.HILL and shapely.covers(h.polygon, p)
                ),
                default=0,
            )
        return self._ground[feature]


_SIGHT_CACHE: weakref.WeakKeyDictionary[Battlefield, TerrainSight] = weakref.WeakKeyDictionary()


def terrain_blocks(
    kind: TerrainKind,
    level: int,
    ground: int,
    shooter_level: int,
    target_level: int,
    settings: RulesSettings,
) -> bool:
    """4.10.1, 4.10.2, 4.10.5, 4.10.6, PD-11 — whether a feature crossed by the line or the band
    blocks sight between figures on these levels (features containing neither end; see
    :func:`check_sight` for those that contain one).

    - hill of level h (and a tall building or fortification, 4.10.5): blocks when both figures
      are below h;
    - forest: blocks as a hill of height ``forest_block_height`` (2);
    - high wall, low building or fortification: blocks when both figures are on the level of the
      ground under it or lower ("as walls do", 4.10.6). Decision: a figure above the wall (on a
      hill) sees over it, whichever end it is;
    - anything else: never.

    >>> from szwadron.settings import RulesSettings
    >>> s = RulesSettings()
    >>> [terrain_blocks(TerrainKind.HILL, 1, 0, a, b, s) for a, b in ((0, 0), (1, 0), (0, 1))]
    [True, False, False]
    >>> terrain_blocks(TerrainKind.FOREST, 0, 0, 1, 1, s), terrain_blocks(TerrainKind.FOREST, 0, 0, 2, 0, s)
    (True, False)
    """
    top = max(shooter_level, target_level)
    if kind is TerrainKind.HILL:
        return top < level
    if kind is TerrainKind.FOREST:
        return top < settings.forest_block_height
    if kind in (TerrainKind.BUILDING, TerrainKind.FORTIFICATION):
        return top < level if level > 0 else top <= ground
    if kind is TerrainKind.HIGH_WALL:
        return top <= ground
    return False


# --- the sight question for many pairs --------------------------------------------------------


@dataclass(frozen=True)
class Blocked:
    """Why one line of sight fails: the rule, a message, and what blocks (a base or feature id)."""

    rule: str
    message: str
    by: str | None = None


def _centres(bf: Battlefield, idx: IntArray) -> FloatArray:
    return np.stack([bf.x[idx], bf.y[idx]], axis=-1)


def _every_pair(
    queries: npt.NDArray[np.object_], geoms: npt.NDArray[np.object_]
) -> tuple[IntArray, IntArray]:
    """``(query, geometry)`` index pairs that intersect, trying every pair (the reference for the
    STR-tree query, which answers the same with ``predicate="intersects"``), in chunks."""
    out_q: list[IntArray] = []
    out_g: list[IntArray] = []
    step = max(1, 200_000 // max(len(geoms), 1))
    for start in range(0, len(queries), step):
        hit = shapely.intersects(queries[start : start + step, None], geoms[None, :])
        q, g = np.nonzero(hit)
        out_q.append(q.astype(np.intp) + start)
        out_g.append(g.astype(np.intp))
    if not out_q:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    return np.concatenate(out_q), np.concatenate(out_g)


def centre_features(
    bf: Battlefield, bases: IntArray, *, method: PairMethod = "index"
) -> dict[int, list[int]]:
    """PD-11 — terrain features containing each base's centre (boundary included), in file order."""
    out: dict[int, list[int]] = {int(b): [] for b in bases.tolist()}
    if not bf.terrain or bases.size == 0:
        return out
    pts = shapely.points(_centres(bf, bases))
    if method == "brute":
        hit = shapely.intersects(pts[:, None], bf.terrain_polygons[None, :])
        q, t = np.nonzero(hit)
    else:
        q, t = bf.terrain_tree.query(pts, predicate="intersects")
    for qi, ti in sorted(zip(q.tolist(), t.tolist(), strict=True)):
        out[int(bases[qi])].append(int(ti))
    return out


def check_sight(
    bf: Battlefield,
    shooters: npt.ArrayLike,
    targets: npt.ArrayLike,
    band_widths: npt.ArrayLike,
    *,
    method: PairMethod = "index",
) -> list[Blocked | None]:
    """4.3, 4.10, PD-7, PD-11 — line of sight from each shooter base to its target base.

    Parameters
    ----------
    bf:
        The battlefield.
    shooters, targets:
        Base indices, one pair per position (same length).
    band_widths:
        The length of the firing edge of each pair (4.3.3): the width of its band.
    method:
        ``"index"`` (STR-trees) or ``"brute"`` (every base and feature tried).

    Returns
    -------
    list
        ``None`` where the target base is in sight, else a :class:`Blocked` naming the rule
        and the blocker nearest the shooter.

    Notes
    -----
    Bases excluded: the shooter itself and the whole target unit (4.3.5) from the line; the
    whole firing unit as well from the band (PD-7). A feature containing one end's centre does
    not block that line as a whole: a hill or tall building that holds the figure gives it its
    level (PD-11); a low building or fortification holding it is where it fires from or is
    fired at (Decision); a forest holding either end blocks when the line runs through at least
    ``forest_see_into_cm`` (2 cm) of it (4.10.2; Decision: the length on the centre-to-centre
    line, over the forests holding either end; a forest holding neither end blocks as a hill
    of height 2). 4.10.7 (Decision): a target whose base touches a hill — one holding neither
    centre, higher than the target — crossed by the line of a shooter on a hill is hidden.
    """
    q = _SightQuery.of(bf, shooters, targets, band_widths, method)
    if q.n == 0:
        return []
    _figures_in_the_way(q)
    if bf.terrain:
        _terrain_in_the_way(q)
    return [None if cur is None else cur[2] for cur in q.best]


@dataclass
class _SightQuery:
    """Many sight questions at once: the pairs, their lines (centre to centre) and bands
    (PD-7), the levels of each end (PD-11), and for each pair the blocker found nearest the
    shooter so far."""

    bf: Battlefield
    s: IntArray
    t: IntArray
    widths: FloatArray
    p0: FloatArray
    p1: FloatArray
    length: FloatArray
    bands: FloatArray
    band_polys: npt.NDArray[np.object_]
    ls: IntArray
    lt: IntArray
    method: PairMethod
    best: list[tuple[float, int, Blocked] | None]

    @classmethod
    def of(
        cls,
        bf: Battlefield,
        shooters: npt.ArrayLike,
        targets: npt.ArrayLike,
        band_widths: npt.ArrayLike,
        method: PairMethod,
    ) -> _SightQuery:
        """The lines and bands of each shooter–target pair."""
        s = np.asarray(shooters, dtype=np.intp).reshape(-1)
        t = np.asarray(targets, dtype=np.intp).reshape(-1)
        widths = np.broadcast_to(np.asarray(band_widths, dtype=float), s.shape)
        p0, p1 = _centres(bf, s), _centres(bf, t)
        bands = band_corners(p0, p1, widths) if len(s) else np.zeros((0, 4, 2))
        levels = bf.levels
        return cls(
            bf,
            s,
            t,
            widths,
            p0,
            p1,
            np.linalg.norm(p1 - p0, axis=-1),
            bands,
            shapely.polygons(bands),
            levels[s],
            levels[t],
            method,
            [None] * len(s),
        )

    @property
    def n(self) -> int:
        """The number of pairs."""
        return len(self.s)

    def offer(self, k: int, where: float, order: int, blocked: Blocked) -> None:
        """Keep the blocker nearest the shooter (ties: bases in file order, then features)."""
        key = (round(where, 9), order)
        cur = self.best[k]
        if cur is None or key < (cur[0], cur[1]):
            self.best[k] = (key[0], key[1], blocked)

    def offer_feature(self, k: int, where: float, f: int, blocked: Blocked) -> None:
        """:meth:`offer` a terrain feature (ranked after the bases)."""
        self.offer(k, where, len(self.bf) + f, blocked)


def _figures_in_the_way(q: _SightQuery) -> None:
    """4.3.1, 4.3.2, 4.3.5, 4.10.1 — other figures on the line (any figure but the shooter and
    the target unit) or in the band (any figure of another unit than the firing and target
    units), as the levels let them block."""
    bf, st = q.bf, q.bf.settings
    tol, eps = st.overlap_tolerance_cm, st.distance_epsilon_cm
    if q.method == "brute":
        kk, jj = _every_pair(q.band_polys, bf.polygons)
    else:
        kk, jj = bf.tree.query(q.band_polys, predicate="intersects")
        kk = kk.astype(np.intp)
        jj = jj.astype(np.intp)
    keep = (jj != q.s[kk]) & (bf.unit_of[jj] != bf.unit_of[q.t][kk])
    kk, jj = kk[keep], jj[keep]
    if kk.size:
        dist = polygon_distance(bf.corners[q.s[kk]], bf.corners[jj])
        lv = figure_blocks(q.ls[kk], q.lt[kk], bf.levels[jj], dist, st.hill_fire_near_cm, eps)
        kk, jj = kk[lv], jj[lv]
    if not kk.size:
        return
    lo, hi = segment_clip(q.p0[kk], q.p1[kk], inset_corners(bf.corners[jj], tol))
    on_line = np.where(hi > lo, hi - lo, 0.0) * q.length[kk] > 1e-9
    in_band = (bf.unit_of[jj] != bf.unit_of[q.s][kk]) & (
        penetration_depth(q.bands[kk], bf.corners[jj]) > tol + eps
    )
    for k, j, line_hit, band_hit, where in zip(
        kk.tolist(), jj.tolist(), on_line.tolist(), in_band.tolist(), lo.tolist(), strict=True
    ):
        if line_hit:
            q.offer(k, where, j, _figure_on_line(q, k, j))
        elif band_hit:
            proj = float(
                np.dot(_centres(bf, np.asarray([j]))[0] - q.p0[k], q.p1[k] - q.p0[k])
                / max(q.length[k] ** 2, _TINY)
            )
            ids = bf.base_ids
            q.offer(
                k,
                min(max(proj, 0.0), 1.0),
                j,
                Blocked(
                    "4.3.2",
                    _(
                        "the band of fire from {base} to {base2} ({q:g} cm wide, PD-7) is closed by {base3}"
                    ).format(base=ids[q.s[k]], base2=ids[q.t[k]], q=q.widths[k], base3=ids[j]),
                    ids[j],
                ),
            )


def _figure_on_line(q: _SightQuery, k: int, j: int) -> Blocked:
    """4.3.1, 4.10.1 — figure ``j`` on the line of pair ``k``: firing up a hill, a figure on
    the shooter's level (within the near distance) blocks under 4.10.1."""
    ids, st = q.bf.base_ids, q.bf.settings
    if q.ls[k] < q.lt[k] and q.bf.levels[j] == q.ls[k]:  # firing up, 4.10.1
        return Blocked(
            "4.10.1",
            _(
                "firing up the hill from {base} to {base2}, the line passes through {base3} on the shooter's level, within {hill_fire_near_cm:g} cm"
            ).format(
                base=ids[q.s[k]], base2=ids[q.t[k]], base3=ids[j], hill_fire_near_cm=st.hill_fire_near_cm
            ),
            ids[j],
        )
    return Blocked(
        "4.3.1",
        _("the line of sight from {base} to {base2} passes through {base3}").format(
            base=ids[q.s[k]], base2=ids[q.t[k]], base3=ids[j]
        ),
        ids[j],
    )


def _terrain_in_the_way(q: _SightQuery) -> None:
    """4.10 — sight-blocking features on the line or in the band: 4.10.7 dead ground at the
    foot of a hill, features blocking as the levels say (:func:`terrain_blocks`), and 4.10.2
    forest seen into or out of (see :func:`check_sight`)."""
    bf = q.bf
    ts = TerrainSight.of(bf)
    if q.method == "brute":
        kk, ff = _every_pair(q.band_polys, bf.terrain_polygons)
    else:
        kk, ff = bf.terrain_tree.query(q.band_polys, predicate="intersects")
        kk = kk.astype(np.intp)
        ff = ff.astype(np.intp)
    relevant = ts.blocking[ff]
    kk, ff = kk[relevant], ff[relevant]
    if kk.size == 0:
        return
    ends = np.unique(np.concatenate([q.s[kk], q.t[kk]]))
    holds = {b: set(v) for b, v in centre_features(bf, ends, method=q.method).items()}
    lines = shapely.linestrings(np.stack([q.p0[kk], q.p1[kk]], axis=-2))
    line_hit = shapely.intersects(lines, ts.shrunk(ff))
    see_into: dict[int, float] = {}
    see_into_forests: dict[int, list[str]] = {}
    band_cache: dict[int, shapely.Geometry] = {}
    for k, f, hit in zip(kk.tolist(), ff.tolist(), line_hit.tolist(), strict=True):
        feature = bf.terrain[f]
        in_s, in_t = f in holds[int(q.s[k])], f in holds[int(q.t[k])]
        if ts.kinds[f] is TerrainKind.FOREST and (in_s or in_t):  # 4.10.2: from or into a forest
            inside = float(shapely.length(shapely.intersection(lines_one(q.p0[k], q.p1[k]), feature.polygon)))
            see_into[k] = see_into.get(k, 0.0) + inside
            see_into_forests.setdefault(k, []).append(feature.id)
            continue
        if _dead_ground(q, ts, k, f, hit, in_s or in_t):
            continue
        if in_s or in_t:
            continue  # the feature holding a figure gives its level, or is where it stands
        _feature_blocks(q, ts, k, f, hit, band_cache)
    for k, inside in see_into.items():
        _forest_see_into(q, k, inside, see_into_forests[k])


def _dead_ground(q: _SightQuery, ts: TerrainSight, k: int, f: int, hit: bool, holds_an_end: bool) -> bool:
    """4.10.7 — a target touching hill ``f`` (higher than the target, holding neither end)
    that the line of a shooter on a hill crosses is hidden; offered, and ``True``, if so."""
    bf, st = q.bf, q.bf.settings
    feature = bf.terrain[f]
    sk, tk = int(q.s[k]), int(q.t[k])
    if not (
        ts.kinds[f] is TerrainKind.HILL
        and q.ls[k] > 0
        and not holds_an_end
        and q.lt[k] < ts.levels[f]
        and hit
        and float(shapely.distance(bf.polygons[tk], feature.polygon))
        <= st.contact_tolerance_cm + st.distance_epsilon_cm
    ):
        return False
    q.offer_feature(
        k,
        1.0,
        f,
        Blocked(
            "4.10.7",
            _(
                "{base} stands at the foot of hill {unit}, in dead ground for fire from the hill of {base2}"
            ).format(base=bf.base_ids[tk], unit=feature.id, base2=bf.base_ids[sk]),
            feature.id,
        ),
    )
    return True


def _feature_blocks(
    q: _SightQuery, ts: TerrainSight, k: int, f: int, hit: bool, band_cache: dict[int, shapely.Geometry]
) -> None:
    """4.10.1, 4.10.2, 4.10.5, 4.10.6, PD-7 — feature ``f`` blocks pair ``k`` when the levels
    let it (:func:`terrain_blocks`) and it is on the line, or in the band less the two bases."""
    bf, st = q.bf, q.bf.settings
    feature, kind = bf.terrain[f], ts.kinds[f]
    sk, tk = int(q.s[k]), int(q.t[k])
    if not terrain_blocks(kind, int(ts.levels[f]), ts.ground(f), int(q.ls[k]), int(q.lt[k]), st):
        return
    rule = BLOCK_RULE[kind]
    who = _("{base} to {base2}").format(base=bf.base_ids[sk], base2=bf.base_ids[tk])
    where = float(shapely.distance(shapely.Point(*q.p0[k]), feature.polygon)) / max(float(q.length[k]), _TINY)
    if hit:
        q.offer_feature(
            k,
            where,
            f,
            Blocked(
                rule,
                _("the line of sight from {who} crosses {value} {unit}").format(
                    who=who, value=term(kind.value), unit=feature.id
                ),
                feature.id,
            ),
        )
        return
    band = band_cache.get(k)
    if band is None:
        band = shapely.difference(q.band_polys[k], shapely.union(bf.polygons[sk], bf.polygons[tk]))
        band_cache[k] = band
    if shapely.intersects(band, ts.shrunk([f])[0]):
        q.offer_feature(
            k,
            where,
            f,
            Blocked(
                rule,
                _("the band of fire from {who} (PD-7) overlaps {value} {unit}").format(
                    who=who, value=term(kind.value), unit=feature.id
                ),
                feature.id,
            ),
        )


def _forest_see_into(q: _SightQuery, k: int, inside: float, forests: list[str]) -> None:
    """4.10.2 — from or into a forest: ``forest_see_into_cm`` or more of forest on the line
    blocks."""
    st, ids = q.bf.settings, q.bf.base_ids
    if inside < st.forest_see_into_cm - st.distance_epsilon_cm:
        return
    names = ", ".join(dict.fromkeys(forests))
    q.offer_feature(
        k,
        0.0,
        -1,
        Blocked(
            "4.10.2",
            _(
                "{inside:.2f} cm of forest ({names}) on the line from {base} to {base2}: {forest_see_into_cm:g} cm or more blocks sight into or out of a forest"
            ).format(
                inside=inside,
                names=names,
                base=ids[q.s[k]],
                base2=ids[q.t[k]],
                forest_see_into_cm=st.forest_see_into_cm,
            ),
            names,
        ),
    )


def lines_one(a: npt.ArrayLike, b: npt.ArrayLike) -> shapely.LineString:
    """The segment from ``a`` to ``b``."""
    return shapely.LineString([tuple(np.asarray(a, dtype=float)), tuple(np.asarray(b, dtype=float))])


# --- cover (4.10.2–4.10.6, 4.10.9, PD-12) ------------------------------------------------------


@dataclass(frozen=True)
class CoverSource:
    """One cover bonus of a target base: the rule, the W bonus and the feature giving it."""

    rule: str
    bonus: int
    source: str


def cover(
    bf: Battlefield,
    target: int,
    shooters: npt.ArrayLike,
    *,
    method: PairMethod = "index",
) -> tuple[CoverSource, ...]:
    """4.10.2–4.10.6, 4.10.9, PD-12 — the cover bonuses to W of one target base against fire
    from ``shooters`` (base indices); they add up (4.10.9).

    - 4.10.2 forest, 4.10.3 rough ground, 4.10.5 building or fortification: the base's centre
      lies in the feature (Decision, as PD-11);
    - 4.10.4 obstacle, 4.10.6 high wall: the base touches it (PD-3) and (PD-12; Decision: for
      high walls too) the line of sight of every shooter crosses it; with no shooter given, the
      base is not covered by them.

    Decision: each kind of cover counts once (two overlapping woods are one wood); different kinds
    add up. The first feature of a kind in file order is named.
    """
    st = bf.settings
    eps = st.distance_epsilon_cm
    sh = np.asarray(shooters, dtype=np.intp).reshape(-1)
    if not bf.terrain:
        return ()
    poly = bf.polygons[target]
    if method == "brute":
        near = np.flatnonzero(shapely.distance(poly, bf.terrain_polygons) <= st.contact_tolerance_cm + eps)
    else:
        near = np.sort(
            bf.terrain_tree.query(poly, predicate="dwithin", distance=st.contact_tolerance_cm + eps)
        )
    centre = shapely.Point(float(bf.x[target]), float(bf.y[target]))
    lines: npt.NDArray[np.object_] | None = None  # the lines of sight, made when needed
    found: dict[str, CoverSource] = {}
    bonus = {
        TerrainKind.FOREST: ("4.10.2", st.forest_cover_w),
        TerrainKind.ROUGH: ("4.10.3", st.rough_cover_w),
        TerrainKind.BUILDING: ("4.10.5", st.building_cover_w),
        TerrainKind.FORTIFICATION: ("4.10.5", st.building_cover_w),
        TerrainKind.OBSTACLE: ("4.10.4", st.obstacle_cover_w),
        TerrainKind.HIGH_WALL: ("4.10.6", st.high_wall_cover_w),
    }
    for f in near.tolist():
        feature = bf.terrain[f]
        kind = feature.kind
        if kind not in bonus:
            continue
        rule, w = bonus[kind]
        if kind in (TerrainKind.OBSTACLE, TerrainKind.HIGH_WALL):
            if float(shapely.distance(poly, feature.polygon)) > st.contact_tolerance_cm + eps:
                continue
            if sh.size == 0:
                continue
            if lines is None:
                ends = np.stack(
                    [
                        np.stack([bf.x[sh], bf.y[sh]], axis=-1),
                        np.broadcast_to([bf.x[target], bf.y[target]], (len(sh), 2)),
                    ],
                    axis=-2,
                )
                lines = shapely.linestrings(ends)
            if not (shapely.length(shapely.intersection(lines, feature.polygon)) > 1e-9).all():
                continue
        elif not shapely.covers(feature.polygon, centre):
            continue
        key = "4.10.5" if rule == "4.10.5" else kind.value
        if key not in found and w:
            found[key] = CoverSource(rule, int(w), feature.id)
    return tuple(found.values())


def hidden_by_own_unit(
    bf: Battlefield, viewer: npt.ArrayLike, target: int, others: npt.ArrayLike
) -> list[int]:
    """4.7.3 — the bases among ``others`` (of the target's unit) that stand on the line of sight
    from ``viewer`` (a point) to base ``target``: the line passes through them deeper than the
    overlap tolerance (PD-3).

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 40}, "units": [
    ...     {"id": "b", "side": "B", "profile": inf, "bases": [
    ...         {"x": 10, "y": 20, "facing": 270}, {"x": 10, "y": 22, "facing": 270}]}]})
    >>> hidden_by_own_unit(Battlefield(sc), (10.0, 0.0), 1, [0])
    [0]
    """
    o = np.asarray(others, dtype=np.intp).reshape(-1)
    if o.size == 0:
        return []
    v = np.asarray(viewer, dtype=float)
    end = np.asarray([bf.x[target], bf.y[target]], dtype=float)
    hit = segment_crosses(v, end, inset_corners(bf.corners[o], bf.settings.overlap_tolerance_cm))
    return [int(b) for b in o[np.asarray(hit).reshape(-1)].tolist()]


__all__ = [
    "BLOCK_RULE",
    "SIGHT_BLOCKING_KINDS",
    "Blocked",
    "CoverSource",
    "TerrainSight",
    "band_corners",
    "centre_features",
    "check_sight",
    "cover",
    "figure_blocks",
    "hidden_by_own_unit",
    "inset_corners",
    "lines_one",
    "segment_clip",
    "segment_crosses",
    "terrain_blocks",
]
