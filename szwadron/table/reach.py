"""3.1, 3.2, 1.4.2, 5.9.2 — can a unit bring a base into contact with an enemy unit this turn?

:func:`reach` finds, for the unit's base nearest the target, the shortest legal path to a pose
touching a target figure: around impassable terrain and terrain closed to its kind, other
figures (own and enemy), and the control zones of enemies other than the target (zones of
engaged figures let it pass, 5.9.3), paying terrain costs (3.2: rough ground, obstacles,
buildings, hills). Its cost (PD-6 length plus surcharges) is compared with the base's move.

How the path is computed (and how far it can be from the true shortest):

Decision: the base keeps its facing along the path (it slides; PD-6 then measures the path of
its centre, since every corner travels the same path). Turning to face the enemy is left to the
player: it costs the arc of the outer corner on top.

1. Configuration space: the set of centre positions where the base (shrunk by PD-3's overlap
   tolerance) would meet a blocker is the blocker "grown" by the base (a Minkowski sum: the
   convex hull of corner differences for each convex piece). Zones are grown by the base and the
   zone radius.
2. A grid of centre positions every ``grid_cm`` (0.5 cm) round the base, 16 moves from each
   point (the 8 neighbours and the 8 knight's moves), searched with A* (the straight-line
   distance to the target as the heuristic). Edge costs: length × 2 in rough ground, + 4 for each
   obstacle entered, + 4 per building entry and exit, + 6 per hill gone up onto (3.2.1).
3. The grid path is pulled tight: a straight shortcut replaces a stretch of it when the shortcut
   is free and costs no more (costs of a shortcut computed exactly as :func:`check_move` does).
   A last straight slide closes the gap to contact.
4. Beside the search, exact candidates: the base slid straight into contact along the shortest
   line to each target figure, and straight ahead (its facing) until it touches. Each is tested
   for blockers and zones on its exact swept area, as :func:`check_move` does, and costed as it
   costs a move; the cheapest legal answer of the search and the candidates is kept. So a target
   that a straight slide reaches within the move is found at its exact cost, wherever the grid
   happens to lie (rules audit, 3.2.2: the grid path alone ended half a step aside, 10.03 cm
   for a straight 10 cm through a wood).
5. Contact across an obstacle (5.9.2, 1.4.3, 3.2.3, PD-4; docs/decisions.md, "Contact across an
   obstacle is contact everywhere"): a target figure standing at a fence is reached by stopping
   flush against the fence, in contact across it, as the move, ``check`` and ``melee`` count it
   (:meth:`~szwadron.geometry.battlefield.Battlefield.obstacle_between`). The stretch of
   obstacle such a figure holds is a goal of the search beside the target's bases, and slides up
   to it are exact candidates; a pose is taken only when it is in contact across the obstacle
   along at least the least contact length and does not stand on an obstacle. Without a target
   figure at a crossable obstacle nothing of this is computed.
6. No end pose on an obstacle (3.2.3: "Przekroczenie takiej przeszkody kosztuje dodatkowo 4 cm
   ruchu" — a move crosses a fence or stops before it; only a repulse may end on one, 6.5.2):
   with obstacles in reach, an exact slide or a grid path whose end pose stands on one is not
   taken, by the move's own test (:func:`~szwadron.table.movement.plan.on_obstacle`, the base
   shrunk by the overlap tolerance). The search then goes on past such goals: a node next to
   the target is a goal only with a closing slide that ends off every obstacle and runs into no
   figure, and only once that slide's cost is paid (so the cheapest such goal is taken); its
   steps near the target are tested for clipping the target's corners. So a charger at an
   angle to a fence, or facing a defender standing back from it, is sent round to a pose the
   move accepts (beyond the fence, the crossing paid), or is out of reach with
   :attr:`ReachResult.note` naming the fence. Without obstacles in reach none of this runs.

The grid path alone can be up to 2.7% longer than the shortest in open ground (the worst angle
between the 16 move directions) and can stay up to about one grid step away from obstacles;
pulling it tight removes the angle error in open ground. ``method="brute"`` is the reference:
the same costs on a finer grid (``grid_cm`` 0.2 by default there), 32 move directions (error
at most 1.3%), every blocker tested against every position with no spatial index, no Minkowski
sums and no pulling tight. ``benchmarks/bench_move.py`` measures the two against each other.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import shapely
import shapely.affinity

from szwadron.errors import InvalidDataError
from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import contact_length, polygon_distance
from szwadron.geometry.paths import BaseMotion, Pose, Surcharge, terrain_surcharges
from szwadron.geometry.terrain import TerrainShape, forbidden_rule
from szwadron.i18n import _
from szwadron.limits import MAX_REACH_GRID_POINTS
from szwadron.models import Scenario, TerrainKind
from szwadron.settings import RulesSettings
from szwadron.table.audit import obstacle_zone_core
from szwadron.table.movement.plan import base_speeds, on_obstacle, shrunk_base

ReachMethod = Literal["index", "brute"]
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

#: Distance (cm) the path keeps from the limits of blockers and zones.
CLEARANCE_CM = 1e-4
_ZONE_QUAD_SEGS = 8
_MOVES_16 = [(1, 0), (1, 1), (2, 1)]
_MOVES_32 = [(1, 0), (1, 1), (2, 1), (3, 1), (3, 2)]
#: 3.2 — terrain whose crossing costs: rough ground (forest), obstacles, buildings, fortifications.
_COSTLY = (
    TerrainKind.FOREST,
    TerrainKind.ROUGH,
    TerrainKind.OBSTACLE,
    TerrainKind.BUILDING,
    TerrainKind.FORTIFICATION,
)


def _moves(basic: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for a, b in basic:
        for x, y in ((a, b), (b, a)):
            for sx in (1, -1):
                for sy in (1, -1):
                    out.add((sx * x, sy * y))
    return sorted(out)


@dataclass(frozen=True)
class ReachResult:
    """The answer of :func:`reach`; :meth:`to_json` is ``szwadron reach --json``."""

    unit: str
    target: str
    base: str
    reachable: bool
    cost: float | None
    path_cm: float | None
    allowed: float
    path: tuple[tuple[float, float], ...]
    facing: float
    surcharges: tuple[Surcharge, ...]
    touches: str | None
    method: str
    grid_cm: float
    how: str
    table: Battlefield | None = field(default=None, repr=False, compare=False)
    """The table it was computed on (for plotting; not part of the JSON)."""
    note: str | None = None
    """Out of reach when poses into contact were refused for standing on an obstacle (3.2.3):
    which obstacle, and why (printed by ``szwadron reach``; not part of the JSON)."""

    def to_json(self) -> dict[str, Any]:
        """``{"reachable", "base", "length", "allowed", "path", ...}``."""
        return {
            "reachable": self.reachable,
            "unit": self.unit,
            "target": self.target,
            "base": self.base,
            "length": None if self.cost is None else round(self.cost, 6),
            "path_cm": None if self.path_cm is None else round(self.path_cm, 6),
            "allowed": self.allowed,
            "surcharges": [s.to_json() for s in self.surcharges],
            "path": [[round(x, 4), round(y, 4)] for x, y in self.path],
            "facing": self.facing,
            "touches": self.touches,
            "method": self.method,
            "grid_cm": self.grid_cm,
            "how": self.how,
        }


def grown_by_base(polygon: shapely.Geometry, offsets: FloatArray) -> list[shapely.Geometry]:
    """The centres at which a base of outline ``offsets`` (convex, round 0) meets ``polygon``: the
    Minkowski sum of the polygon with ``-offsets``, by convex pieces (triangles of non-convex
    polygons). Used by :func:`reach` and the pursuit's way round (:mod:`szwadron.table.pursuit`)."""
    hull = shapely.convex_hull(polygon)
    if abs(hull.area - polygon.area) <= 1e-9 * max(hull.area, 1.0):
        pieces = [polygon]
    else:
        pieces = list(shapely.get_parts(shapely.constrained_delaunay_triangles(polygon)))
    out = []
    for piece in pieces:
        v = shapely.get_coordinates(piece)
        pts = (v[:, None, :] - offsets[None, :, :]).reshape(-1, 2)
        out.append(shapely.convex_hull(shapely.multipoints(pts)))
    return out


@dataclass
class _Grid:
    """The search grid: centre positions every ``h`` cm round the moving base (PD-6: with the
    facing kept, the centre's path is every corner's path)."""

    h: float
    lo_x: float
    lo_y: float
    hi_x: float
    hi_y: float
    nx: int
    ny: int
    half: float

    @property
    def gx(self) -> FloatArray:
        """The x of each column."""
        return np.asarray(self.lo_x + self.h * np.arange(self.nx), dtype=np.float64)

    @property
    def gy(self) -> FloatArray:
        """The y of each row."""
        return np.asarray(self.lo_y + self.h * np.arange(self.ny), dtype=np.float64)

    def points(self) -> tuple[FloatArray, FloatArray]:
        """x and y of every node, row by row (node = row * nx + column)."""
        px, py = np.meshgrid(self.gx, self.gy)
        return px.ravel(), py.ravel()

    @property
    def box(self) -> shapely.Geometry:
        """The part of the table that may matter: the grid and a reach beyond it."""
        return shapely.box(
            self.lo_x - self.half, self.lo_y - self.half, self.hi_x + self.half, self.hi_y + self.half
        )


@dataclass
class _Field:
    """What stands on the grid for the moving base: 3.1.3, 3.2.4, 3.2.5 blockers, 1.4.2 zones
    (5.9.3: not of engaged figures), 3.2 terrain that costs, and the target; ``across``: the
    stretches of crossable obstacles that target figures hold (1.4.3, 3.2.3), each with the
    figure's index, where a charge stops in contact across the obstacle (PD-4)."""

    blockers: list[shapely.Geometry]
    zones: list[shapely.Geometry]
    weighted: list[TerrainShape]
    hills: list[TerrainShape]
    targets: list[shapely.Geometry]
    across: list[tuple[shapely.Geometry, int]] = field(default_factory=list)

    @functools.cached_property
    def obstacles(self) -> list[TerrainShape]:
        """3.2.3 — the obstacles (fences, barricades, streams, low walls) in reach: no end pose
        may stand on one (:func:`_on_obstacle`)."""
        return [f for f in self.weighted if f.kind is TerrainKind.OBSTACLE]

    @property
    def target(self) -> shapely.Geometry:
        """What the search makes for: the target's bases, and the stretches of obstacles held by
        them (``across``), as one shape."""
        return shapely.union_all(self.targets + [g for g, _t in self.across])


@dataclass
class _Costs:
    """Per grid node: free or not, distance to the target, hill level, rough or not, and a
    bit mask of the costly features (obstacles, buildings) it is in (3.2); for each level of
    the hills, from the lowest, whether a hill of that level holds the node (3.2.1)."""

    free: list[bool]
    d_target: list[float]
    level: list[int]
    tiers: list[tuple[int, list[bool]]]
    rough: list[bool]
    masks: list[int]
    entry_cost: list[float]
    exit_cost: list[float]
    block: shapely.Geometry | None


def reach(
    scenario: Scenario | Battlefield,
    unit: str,
    target: str,
    *,
    method: ReachMethod = "index",
    grid_cm: float | None = None,
) -> ReachResult:
    """3.1, 3.2, 1.4.2, 5.9.2 — the shortest legal path of the unit's nearest base into contact
    with ``target`` (see the module docstring for how, and its error bound).

    Raises
    ------
    InvalidDataError
        Unknown units, a target of the same side, a non-positive grid step.

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> cav = {"id": "c", "name": "C", "kind": "cavalry", "R": 24, "W": 2, "SW": 2, "SO": 0,
    ...        "Z": 0, "UW": 4, "C": 0, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": cav, "bases": [{"x": 20, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": cav, "bases": [{"x": 20, "y": 30, "facing": 270}]}]})
    >>> r = reach(sc, "a", "b")
    >>> r.reachable, round(r.cost, 2)      # 20 cm apart centre to centre, 16 cm edge to edge
    (True, 16.0)
    """
    bf = Battlefield.of(scenario)
    u_k, t_k, foe, b = _nearest_base(bf, unit, target)
    h = grid_cm if grid_cm is not None else (0.5 if method == "index" else 0.2)
    if not h > 0:
        raise InvalidDataError(_("the grid step must be positive, got {h}").format(h=h))
    allowed = base_speeds(bf, u_k)[b]
    f0 = float(bf.facing[b])
    how = (
        _("A* on a {h:g} cm grid of centre positions, 16 directions, then pulled tight").format(h=h)
        if method == "index"
        else _("reference: Dijkstra-like A* on a {h:g} cm grid, 32 directions, every blocker tested").format(
            h=h
        )
    )
    how += _("; straight slides into contact costed exactly")
    grid = _grid(bf, b, allowed, h)
    if grid is None:  # the base cannot stand on the table anywhere within its reach
        return ReachResult(
            unit, target, bf.base_ids[b], False, None, None, allowed, (), f0, (), None, method, h, how, bf
        )
    about = (unit, target, method, how, h)
    fld = _field(bf, b, t_k, foe, grid.box, method)
    costs = _costs(bf, b, grid, fld, method)
    refused: set[str] = set()  # 3.2.3: the obstacles end poses into contact stood on
    closing = _closings(bf, b, grid, fld, costs, refused)
    clear = _step_clear(bf, b, grid, fld, costs, method) if closing is not None else None
    goal, parent = _search(bf, b, grid, costs, allowed * 1.5 + 1e-9, method, closing, clear)
    best: ReachResult | None = None
    if goal >= 0:
        pts = _path(bf, b, grid, fld, costs, goal, parent, method, closing)
        best = _answer(bf, b, foe, fld, pts, allowed, about)
    for end, length in _straight_slides(bf, b, fld, allowed * 1.5 + 1e-9):
        if best is not None and best.cost is not None and length >= best.cost:
            break  # sorted by length, and a slide costs at least its length
        if not _slide_free(bf, b, fld, end):
            continue
        if _on_obstacle(bf, b, fld, end, refused):
            continue  # 3.2.3: the move refuses that end pose
        pts = [(float(bf.x[b]), float(bf.y[b])), end]
        exact = _answer(bf, b, foe, fld, pts, allowed, about)
        if exact.cost is None or exact.cost > allowed * 1.5 + 1e-9:
            continue  # beyond the search's own bound: no shorter way was looked for
        if best is None or best.cost is None or exact.cost < best.cost + 1e-9:
            best = exact
    if best is None:
        note = _on_obstacles_note(sorted(refused), found=False)
        no = (None, None, allowed, (), f0, (), None, method, h, how, bf, note)
        return ReachResult(unit, target, bf.base_ids[b], False, *no)
    if not best.reachable and refused:
        return dataclasses.replace(best, note=_on_obstacles_note(sorted(refused), found=True))
    return best


def _on_obstacles_note(refused: list[str], *, found: bool) -> str | None:
    """3.2.3 — why a target is out of reach when poses into contact were refused for standing on
    an obstacle: every one found (``found`` false), or the nearer ones (the path found costs too
    much)."""
    if not refused:
        return None
    said = (
        _("3.2.3: nearer poses into contact stand on obstacle {ids}")
        if found
        else _("3.2.3: every pose into contact within reach stands on obstacle {ids}")
    )
    return (
        said.format(ids=", ".join(refused))
        + "; "
        + _(
            "a move crosses an obstacle or stops before it, and contact across it needs both bases flush against it (PD-4)"
        )
    )


def _nearest_base(bf: Battlefield, unit: str, target: str) -> tuple[int, int, IntArray, int]:
    """3.1 — the unit and target (units of opposite sides), the target's bases, and the base of
    the unit nearest the target (the one that reaches)."""
    own, foe = bf.resolve(unit), bf.resolve(target)
    if unit not in bf.unit_ids or target not in bf.unit_ids:
        raise InvalidDataError(_("the unit and the target name units, not bases"))
    u_k, t_k = bf.unit_ids.index(unit), bf.unit_ids.index(target)
    if bf.scenario.units[u_k].side == bf.scenario.units[t_k].side:
        raise InvalidDataError(_("{target} is not an enemy of {unit}").format(target=target, unit=unit))
    d0 = polygon_distance(bf.corners[own][:, None], bf.corners[foe][None, :]).min(axis=1)
    return u_k, t_k, foe, int(own[int(np.argmin(d0))])


def _grid(bf: Battlefield, b: int, allowed: float, h: float) -> _Grid | None:
    """3.1.4 — the grid of centre positions within 1.5 moves of base ``b`` where the base stays
    on the table; ``None`` when there is none. Too large a grid is refused (limits)."""
    x0, y0, f0 = float(bf.x[b]), float(bf.y[b]), float(bf.facing[b])
    w, d = float(bf.width[b]), float(bf.depth[b])
    off_full = base_corners(0.0, 0.0, f0, w, d)
    half = allowed * 1.5 + max(w, d) + 2.0
    table = bf.scenario.table
    ext_x, ext_y = np.abs(off_full[:, 0]).max(), np.abs(off_full[:, 1]).max()
    lo_x, hi_x = max(x0 - half, ext_x), min(x0 + half, table.width - ext_x)
    lo_y, hi_y = max(y0 - half, ext_y), min(y0 + half, table.depth - ext_y)
    nx = math.floor((hi_x - lo_x) / h) + 1
    ny = math.floor((hi_y - lo_y) / h) + 1
    if nx < 1 or ny < 1:
        return None
    if nx * ny > MAX_REACH_GRID_POINTS:
        raise InvalidDataError(
            _(
                "{base}: a move of {allowed:g} cm needs a search grid of {n:,} positions every {h:g} cm; "
                "at most {most:,} are searched (a move of about {cm:.0f} cm)"
            ).format(
                base=bf.base_ids[b],
                allowed=allowed,
                n=nx * ny,
                h=h,
                most=MAX_REACH_GRID_POINTS,
                cm=math.sqrt(MAX_REACH_GRID_POINTS) * h / 3,
            )
        )
    return _Grid(h, lo_x, lo_y, hi_x, hi_y, nx, ny, half)


def _field(
    bf: Battlefield, b: int, t_k: int, foe: IntArray, box: shapely.Geometry, method: ReachMethod
) -> _Field:
    """3.2.4, 3.2.5, 3.1.3, 1.4.2, 5.9.3, 3.2 — within ``box``: terrain closed to the base and
    other figures block; the zones of enemies other than the target (not engaged, not in
    panic) may not be entered; rough ground, obstacles, buildings and hills cost."""
    s = bf.settings
    blockers: list[shapely.Geometry] = [
        f.polygon
        for f in bf.terrain
        if forbidden_rule(bf.kinds[b], f) is not None and shapely.intersects(f.polygon, box)
    ]
    near = (
        np.flatnonzero(shapely.intersects(bf.polygons, box))
        if method == "brute"
        else bf.tree.query(box, predicate="intersects")
    )
    others = [int(o) for o in near.tolist() if o != b]
    blockers += [bf.polygons[o] for o in others]
    zones: list[shapely.Geometry] = []
    for o in others:
        if bf.side[o] == bf.side[b] or bf.unit_of[o] == t_k or bf.panicking[bf.unit_of[o]]:
            continue
        cand = bf.tree.query(bf.polygons[o], predicate="dwithin", distance=bf.contact_reach_cm)
        cand = cand[bf.side[cand] != bf.side[o]]
        if (
            cand.size
            and float(bf.contact_lengths(np.full(cand.shape, o, dtype=np.intp), cand).sum())
            >= s.min_contact_length_cm - s.distance_epsilon_cm
        ):
            continue  # 5.9.3: engaged (across an obstacle too, PD-4), its zone lets others pass
        zones.append(bf.polygons[o])
    weighted = [
        f
        for f in bf.terrain
        if f.kind in _COSTLY and forbidden_rule(bf.kinds[b], f) is None and shapely.intersects(f.polygon, box)
    ]
    hills = [f for f in bf.terrain if f.kind is TerrainKind.HILL and shapely.intersects(f.polygon, box)]
    return _Field(blockers, zones, weighted, hills, list(bf.polygons[foe]), _held(bf, foe, method))


def _held(bf: Battlefield, foe: IntArray, method: ReachMethod) -> list[tuple[shapely.Geometry, int]]:
    """1.4.3, 3.2.3, PD-4 — the stretches of crossable obstacles that the target's figures stand
    at (:func:`~szwadron.table.audit.obstacle_zone_core`, from whose far side their zones are
    measured), piece by piece, each with the figure: a charge on such a figure stops at the
    obstacle, in contact across it (5.9.2). None without such obstacles: nothing changes."""
    if not any(f.crossable_obstacle for f in bf.terrain):
        return []
    s = bf.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    out: list[tuple[shapely.Geometry, int]] = []
    for t, k, dist in zip(*(a.tolist() for a in bf.terrain_within(tol, foe, method=method)), strict=True):
        if bf.terrain[k].crossable_obstacle and dist <= tol:
            core = obstacle_zone_core(bf, t, k, tol)
            out += [(g, int(t)) for g in shapely.get_parts(core) if not g.is_empty]
    return out


def _costs(bf: Battlefield, b: int, grid: _Grid, fld: _Field, method: ReachMethod) -> _Costs:
    """PD-3, 1.4.2, 3.2 — per grid node: free of blockers and zones, its distance to the
    target, and the terrain it stands in (levels, rough ground, costly features)."""
    s = bf.settings
    px, py = grid.points()
    if method == "brute":
        free, in_w, d_target, block = _tested_each(bf, b, px, py, fld)
    else:
        free, in_w, d_target, block = _configuration_space(bf, b, px, py, fld)
    level = np.zeros(px.size, dtype=np.intp)
    held: dict[int, npt.NDArray[np.bool_]] = {}
    for hill in fld.hills:
        inside = shapely.intersects_xy(hill.polygon, px, py)
        level = np.where(inside, np.maximum(level, hill.level), level)
        held[hill.level] = held.get(hill.level, np.zeros(px.size, dtype=bool)) | inside
    rough = np.zeros(px.size, dtype=bool)
    masks = np.zeros(px.size, dtype=np.int64)
    for k, (f, inside) in enumerate(zip(fld.weighted, in_w, strict=True)):
        if f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH):
            rough |= inside
        else:
            masks |= inside.astype(np.int64) << k
    return _Costs(
        free.tolist(),
        d_target.tolist(),
        level.tolist(),
        [(lv, held[lv].tolist()) for lv in sorted(held)],
        rough.tolist(),
        masks.tolist(),
        [
            s.obstacle_crossing_cm if f.kind is TerrainKind.OBSTACLE else s.building_entry_cm
            for f in fld.weighted
        ],
        [0.0 if f.kind is TerrainKind.OBSTACLE else s.building_exit_cm for f in fld.weighted],
        block,
    )


_Layers = tuple[npt.NDArray[np.bool_], list[npt.NDArray[np.bool_]], FloatArray, shapely.Geometry | None]


def _offsets(bf: Battlefield, b: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The base's outline round its centre: whole, shrunk by the overlap tolerance less
    :data:`CLEARANCE_CM` (PD-3), and shrunk a hair for terrain costs (as terrain_surcharges)."""
    s = bf.settings
    shrink = s.overlap_tolerance_cm + s.distance_epsilon_cm
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    cost_shrink = 0.1 * s.distance_epsilon_cm  # any real overlap with terrain costs
    core_w = max(w - 2 * (shrink - CLEARANCE_CM), 1e-3)
    core_d = max(d - 2 * (shrink - CLEARANCE_CM), 1e-3)
    return (
        base_corners(0.0, 0.0, f0, w, d),
        base_corners(0.0, 0.0, f0, core_w, core_d),
        base_corners(0.0, 0.0, f0, w - 2 * cost_shrink, d - 2 * cost_shrink),
    )


def _tested_each(bf: Battlefield, b: int, px: FloatArray, py: FloatArray, fld: _Field) -> _Layers:
    """The reference: the base at every node tested against every blocker, zone and feature."""
    s = bf.settings
    eps = s.distance_epsilon_cm
    shrink = s.overlap_tolerance_cm + eps
    cost_shrink = 0.1 * eps
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    polys = polygons_from_corners(base_corners(px, py, f0, w, d)).reshape(-1)
    cores = polygons_from_corners(
        base_corners(px, py, f0, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3))
    ).reshape(-1)
    free = np.ones(px.size, dtype=bool)
    for g in fld.blockers:
        free &= ~shapely.intersects(cores, g)
    for g in fld.zones:
        free &= ~(shapely.distance(polys, g) < s.control_zone_cm - eps)
    costed = polygons_from_corners(
        base_corners(px, py, f0, w - 2 * cost_shrink, d - 2 * cost_shrink)
    ).reshape(-1)
    in_w = [np.asarray(shapely.intersects(costed, f.polygon)) for f in fld.weighted]
    # fld.target: the target's bases and the stretches of obstacle they hold (PD-4)
    return free, in_w, np.asarray(shapely.distance(polys, fld.target)), None


def _configuration_space(bf: Battlefield, b: int, px: FloatArray, py: FloatArray, fld: _Field) -> _Layers:
    """Blockers, zones, costly features and the target grown by the base (Minkowski sums), then
    each node tested as a point."""
    off_full, off_core, off_cost = _offsets(bf, b)
    radius = bf.settings.control_zone_cm
    grown = [p for g in fld.blockers for p in grown_by_base(g, off_core)]
    # round zones drawn as polygons *around* the circle (never inside it)
    zone_r = (radius + CLEARANCE_CM) / math.cos(math.pi / (4 * _ZONE_QUAD_SEGS))
    grown += [
        shapely.buffer(p, zone_r, quad_segs=_ZONE_QUAD_SEGS)
        for g in fld.zones
        for p in grown_by_base(g, off_full)
    ]
    block = shapely.union_all(grown) if grown else shapely.Polygon()
    shapely.prepare(block)
    free = ~np.asarray(shapely.contains_xy(block, px, py))
    in_w = []
    for f in fld.weighted:
        region = shapely.union_all(grown_by_base(f.polygon, off_cost))
        shapely.prepare(region)
        in_w.append(np.asarray(shapely.contains_xy(region, px, py)))
    goals = fld.targets + [g for g, _t in fld.across]  # the target, and contact across (PD-4)
    tgt = shapely.union_all([p for g in goals for p in grown_by_base(g, off_full)])
    return free, in_w, np.asarray(shapely.distance(shapely.points(px, py), tgt)), block


def _search(
    bf: Battlefield,
    b: int,
    grid: _Grid,
    costs: _Costs,
    limit: float,
    method: ReachMethod,
    closing: _Closing | None = None,
    clear: Callable[[int, int], bool] | None = None,
) -> tuple[int, dict[int, int]]:
    """PD-6, 3.2 — A* from base ``b``'s centre over the free nodes to a node next to the
    target (the straight-line distance to it as the heuristic), paying each step's length
    (doubled in rough ground), obstacle and building entries and exits, and hill climbs; no
    path longer than ``limit``. With ``closing`` (obstacles in reach), a node next to the
    target is a goal only when its closing slide ends off every obstacle (3.2.3), and only
    once the cost of the slide (its length and surcharges) is paid: the search goes on past the
    others, and makes for the goal whose path and slide cost least; and a step that passes
    within its half length of the target is taken only when ``clear`` finds it clear (the
    search goes round the target to its flank there). The goal node (-1 for none) and each
    node's parent."""
    s = bf.settings
    moves = _moves(_MOVES_32 if method == "brute" else _MOVES_16)
    h, nx, ny = grid.h, grid.nx, grid.ny
    x0, y0 = float(bf.x[b]), float(bf.y[b])
    start = round((y0 - grid.lo_y) / h) * nx + round((x0 - grid.lo_x) / h)
    sx_i, sy_i = start % nx, start // nx
    gx, gy = grid.gx, grid.gy
    start_gap = math.hypot(gx[min(max(sx_i, 0), nx - 1)] - x0, gy[min(max(sy_i, 0), ny - 1)] - y0)
    free, dtl = costs.free, costs.d_target
    best: dict[int, float] = {start: start_gap}
    parent: dict[int, int] = {}
    heap = [(start_gap + dtl[start], start_gap, start)]
    while heap:
        _, g, node = heapq.heappop(heap)
        if node < 0:  # a goal with its closing slide paid (3.2.3: ending off obstacles)
            return -node - 1, parent
        if g > best.get(node, math.inf) + 1e-12:
            continue
        if dtl[node] <= 1.5 * h:
            if closing is None:
                return node, parent
            slide = closing(node)
            if slide is not None:
                heapq.heappush(heap, (g + slide[1], g + slide[1], -node - 1))
        if g > limit:
            break
        ix, iy = node % nx, node // nx
        for dx, dy in moves:
            jx, jy = ix + dx, iy + dy
            if not (0 <= jx < nx and 0 <= jy < ny):
                continue
            nb = jy * nx + jx
            if not free[nb] or not _box_free(free, nx, ix, iy, jx, jy):
                continue
            step = h * math.hypot(dx, dy)
            if clear is not None and min(dtl[node], dtl[nb]) <= step / 2 and not clear(node, nb):
                continue  # 5.9.2: the step would clip a figure (the target) between two free nodes
            ng = g + _step_cost(s, costs, node, nb, step)
            if ng < best.get(nb, math.inf) - 1e-12:
                best[nb] = ng
                parent[nb] = node
                heapq.heappush(heap, (ng + dtl[nb], ng, nb))
    return -1, parent


def _step_clear(
    bf: Battlefield, b: int, grid: _Grid, fld: _Field, costs: _Costs, method: ReachMethod
) -> Callable[[int, int], bool]:
    """3.1.3, 5.9.2 — is a grid step from one free node to another clear of the blockers (the
    configuration space, ``"index"``; the swept base, shrunk by the overlap tolerance, against
    every blocker, ``"brute"``)? Two free nodes can have a blocker's corner between them, and
    the move refuses a path through the charged figure. Asked, with obstacles in reach, of the
    steps near the target (:func:`_search`), where the search hugs it on the way to a pose off
    the obstacle."""
    px, py = grid.points()
    if method == "index" and costs.block is not None:
        block = costs.block

        def clear(node: int, nb: int) -> bool:
            seg = shapely.LineString([(px[node], py[node]), (px[nb], py[nb])])
            return not shapely.intersects(seg, block)

        return clear
    s = bf.settings
    shrink = s.overlap_tolerance_cm + s.distance_epsilon_cm
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    core = base_corners(0.0, 0.0, f0, max(w - 2 * shrink, 1e-3), max(d - 2 * shrink, 1e-3))
    blockers = np.asarray(fld.blockers, dtype=object)

    def clear_each(node: int, nb: int) -> bool:
        # the base slid straight, facing kept: the hull of where it starts and where it ends
        ends = np.vstack([core + np.array([px[node], py[node]]), core + np.array([px[nb], py[nb]])])
        swept = shapely.convex_hull(shapely.multipoints(ends))
        return not (len(blockers) and bool(np.any(shapely.intersects(swept, blockers))))

    return clear_each


def _box_free(free: list[bool], nx: int, ix: int, iy: int, jx: int, jy: int) -> bool:
    """No cutting corners: a diagonal or knight's move needs the whole box of cells it spans
    free."""
    if not ((jx - ix) and (jy - iy)) and abs(jx - ix) <= 1 and abs(jy - iy) <= 1:
        return True
    x_a, x_b = min(ix, jx), max(ix, jx)
    y_a, y_b = min(iy, jy), max(iy, jy)
    return all(free[yy * nx + xx] for yy in range(y_a, y_b + 1) for xx in range(x_a, x_b + 1))


def _step_cost(s: RulesSettings, costs: _Costs, node: int, nb: int, length: float) -> float:
    """3.2 — one grid step: its length (times the rough-ground factor for the share in rough
    ground), plus entering or leaving obstacles and buildings, plus the hills gone up onto
    (3.2.1: one climb a hill, whatever its level, as :meth:`BaseMotion.climbs` counts them)."""
    r = (costs.rough[node] + costs.rough[nb]) / 2.0
    cost = length * (1.0 + (s.rough_cost_factor - 1.0) * r)
    a, z = costs.masks[node], costs.masks[nb]
    if z != a:
        entered, left = z & ~a, a & ~z
        for k in range(len(costs.entry_cost)):
            if entered >> k & 1:
                cost += costs.entry_cost[k]
            if left >> k & 1:
                cost += costs.exit_cost[k]
    below = costs.level[node]
    if costs.level[nb] > below:
        cost += s.hill_climb_cm * sum(1 for lv, on in costs.tiers if lv > below and on[nb])
    return cost


def _path(
    bf: Battlefield,
    b: int,
    grid: _Grid,
    fld: _Field,
    costs: _Costs,
    goal: int,
    parent: dict[int, int],
    method: ReachMethod,
    closing: _Closing | None = None,
) -> list[tuple[float, float]]:
    """5.9.2 — the grid path from the base's centre to ``goal``, a straight slide on into
    contact with the nearest target figure (or across an obstacle, :func:`_closing_slide`;
    ``closing``'s, the one off obstacles, when given), pulled tight (``"index"``)."""
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    px, py = grid.points()
    chain = [goal]
    while chain[-1] in parent:
        chain.append(parent[chain[-1]])
    pts = [(float(bf.x[b]), float(bf.y[b]))] + [(float(px[k]), float(py[k])) for k in reversed(chain)]
    slide = closing(goal) if closing is not None else None
    dx, dy = slide[0] if slide is not None else _closing_slide(bf, b, fld, pts[-1])
    if math.hypot(dx, dy) > 0:
        pts.append((pts[-1][0] + dx, pts[-1][1] + dy))
    if method == "index":
        pts = _pull_tight(pts, f0, w, d, costs.block, fld.weighted + fld.hills, bf.settings)
    pts = [p for k, p in enumerate(pts) if k == 0 or p != pts[k - 1]]
    if len(pts) == 1:  # already in contact
        pts.append(pts[0])
    return pts


def _closing_slide(bf: Battlefield, b: int, fld: _Field, end: tuple[float, float]) -> tuple[float, float]:
    """5.9.2, PD-4 — the last straight slide of a grid path ending with base ``b``'s centre at
    ``end``: into contact with a target figure (:func:`into_contact`), or, when shorter, up to
    a stretch of obstacle a target figure holds, in contact across it (:func:`_across`)."""
    dx, dy, across = _closing_slides(bf, b, fld, end)
    return across if across is not None and math.hypot(*across) < math.hypot(dx, dy) else (dx, dy)


def _closing_slides(
    bf: Battlefield, b: int, fld: _Field, end: tuple[float, float]
) -> tuple[float, float, tuple[float, float] | None]:
    """The two closing slides from ``end``: into contact with a target figure, and up to a
    stretch of obstacle a target figure holds when that ends in contact across it (else
    ``None``)."""
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    end_poly = shapely.Polygon(base_corners(*end, f0, w, d))
    least = bf.settings.min_contact_length_cm
    dx, dy = into_contact(end_poly, fld.targets, least)
    if fld.across:
        ax, ay = into_contact(end_poly, [g for g, _t in fld.across], least)
        if _across(bf, b, fld, (end[0] + ax, end[1] + ay)):
            return dx, dy, (ax, ay)
    return dx, dy, None


_Closing = Callable[[int], tuple[tuple[float, float], float] | None]


def _closings(
    bf: Battlefield, b: int, grid: _Grid, fld: _Field, costs: _Costs, refused: set[str]
) -> _Closing | None:
    """3.2.3, 5.9.2, PD-4 — with obstacles in reach, the closing slide from a grid node whose
    end pose stands on no obstacle (the move refuses one that does), with its cost: of the
    slide into contact and the slide up to a held stretch of obstacle (in contact across it),
    those that end off every obstacle and run into no figure (:func:`_slide_free`; the move
    refuses a charge through the charged figure, 5.9.2), the one that costs least (its length
    and the surcharges of terrain it enters, :func:`~szwadron.geometry.paths.terrain_surcharges`;
    not of the obstacles and buildings the node already stands in, which the search paid);
    ``None`` when none will do (the obstacles stood on are added to ``refused``). Without
    obstacles ``None``: every closing slide will do, as before."""
    if not fld.obstacles:
        return None
    px, py = grid.points()
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    costly = fld.weighted + fld.hills
    memo: dict[int, tuple[tuple[float, float], float] | None] = {}

    def cost(node: int, x: float, y: float, m: tuple[float, float]) -> float:
        motion = BaseMotion.of([(x, y, f0), (x + m[0], y + m[1], f0)], w, d)
        inside = costs.masks[node]
        near = [
            f
            for k, f in enumerate(costly)
            if not (k < len(fld.weighted) and inside >> k & 1)
            and shapely.intersects(motion.swept(), f.polygon)
        ]
        return (
            motion.length + sum(x.cm for x in terrain_surcharges(motion, near, bf.settings))
            if near
            else motion.length
        )

    def closing(node: int) -> tuple[tuple[float, float], float] | None:
        if node not in memo:
            x, y = float(px[node]), float(py[node])
            dx, dy, across = _closing_slides(bf, b, fld, (x, y))
            slides = [(dx, dy)] + ([across] if across is not None else [])
            legal = [
                (m, cost(node, x, y, m))
                for m in slides
                if not _on_obstacle(bf, b, fld, (x + m[0], y + m[1]), refused)
                and _slide_free(bf, b, fld, (x + m[0], y + m[1]), (x, y))  # 5.9.2: not through t
            ]
            memo[node] = min(legal, key=lambda e: e[1]) if legal else None
        return memo[node]

    return closing


def _on_obstacle(
    bf: Battlefield, b: int, fld: _Field, centre: tuple[float, float], refused: set[str] | None = None
) -> bool:
    """3.2.3 — base ``b`` with its centre at ``centre`` (facing kept) stands on an obstacle, as
    the move finds it (:func:`~szwadron.table.movement.plan.on_obstacle`, the base shrunk by the
    overlap tolerance, PD-3); the obstacles it stands on are added to ``refused``."""
    obstacles = fld.obstacles
    if not obstacles:
        return False
    s = bf.settings
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    core = shrunk_base(Pose(centre[0], centre[1], f0), w, d, s.overlap_tolerance_cm + s.distance_epsilon_cm)
    on = [f.id for f in obstacles if on_obstacle(core, f)]
    if refused is not None:
        refused.update(on)
    return bool(on)


def _across(bf: Battlefield, b: int, fld: _Field, centre: tuple[float, float]) -> bool:
    """5.9.2, 1.3.5, PD-4, PD-14, 3.2.3 — base ``b`` with its centre at ``centre`` (facing kept)
    is in contact with a target figure across an obstacle, as the move, ``check`` and ``melee``
    count it (:meth:`~szwadron.geometry.battlefield.Battlefield.obstacle_between`), along at
    least the least contact length (measured as
    :meth:`~szwadron.geometry.battlefield.Battlefield.contact_lengths` measures it), and stands
    on no obstacle (3.2.3: the move refuses that)."""
    s = bf.settings
    tol, eps = s.contact_tolerance_cm + s.distance_epsilon_cm, s.distance_epsilon_cm
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    corners = base_corners(*centre, f0, w, d)
    if _on_obstacle(bf, b, fld, centre):
        return False
    poly = shapely.Polygon(corners)
    for t in sorted({t for _g, t in fld.across}):
        gap = float(polygon_distance(corners[None], bf.corners[[t]])[0])
        f = bf.obstacle_between(poly, t, gap)
        if f is None:
            continue
        length = float(contact_length(corners[None], bf.corners[[t]], f.width + tol)[0])
        if length >= s.min_contact_length_cm - eps:
            return True
    return False


def slide_candidates(
    base: shapely.Polygon, targets: Sequence[shapely.Geometry], least: float
) -> list[tuple[float, float, int]]:
    """The straight slides :func:`into_contact` chooses among, ``(dx, dy, target)``, in the order
    it draws them up: target by target, the shortest line to it, then square on to each of its
    edges (and along it as little as brings ``least`` cm face to face). Its answer is one of them
    (the first is its answer when none gives contact)."""
    pts = shapely.get_coordinates(base.exterior).tolist()
    moves: list[tuple[float, float, int]] = []  # (dx, dy, target)
    for t, target in enumerate(targets):
        (ax, ay), (bx, by) = shapely.get_coordinates(shapely.shortest_line(base, target)).tolist()
        moves.append((bx - ax, by - ay, t))
        ring = (
            shapely.get_coordinates(target.exterior).tolist() if isinstance(target, shapely.Polygon) else []
        )
        for (x0, y0), (x1, y1) in itertools.pairwise(ring):
            ex, ey = x1 - x0, y1 - y0
            norm = math.hypot(ex, ey)
            if norm <= 0:
                continue
            nx, ny = ey / norm, -ex / norm  # one of the two normals; the other side's below
            ux, uy = ex / norm, ey / norm
            for sx, sy in ((nx, ny), (-nx, -ny)):
                gap = min((px - x0) * sx + (py - y0) * sy for px, py in pts)  # base's near side
                if gap >= -1e-9:  # the base stands on this side of the edge's line
                    moves.append((-sx * gap, -sy * gap, t))
                    # and slid along the edge as little as brings ``least`` cm of it face to face
                    # (a base beside the edge's end would touch it corner to corner only)
                    along = [(px - x0) * ux + (py - y0) * uy for px, py in pts]
                    lo, hi = min(along), max(along)
                    if min(hi, norm) - max(lo, 0.0) < least and least <= min(norm, hi - lo):
                        shift = min((least - hi, norm - least - lo), key=abs)  # to one end or the other
                        moves.append((-sx * gap + ux * shift, -sy * gap + uy * shift, t))
    return moves


def into_contact(
    base: shapely.Polygon, targets: Sequence[shapely.Geometry], least: float
) -> tuple[float, float]:
    """PD-14, 5.3.2 — the shortest straight slide that brings ``base`` into contact with a target
    figure along at least ``least`` cm of edge: square on to one of the figure's edges (its
    normal), or along the shortest line when that already touches along enough. A corner
    touching a corner is no contact; without any slide that gives enough, the shortest line.

    The candidate slides are tried shortest first (the first of equal ones in the order they are
    drawn up: target by target, the shortest line, then edge by edge), and the first that gives
    contact is the answer, so only the few shortest are measured. A slide that gives contact
    with a target is no shorter than the gap to it (less the 1e-6 cm it is measured within), so
    a target's slides are drawn up only once the slides tried are that long."""
    if not len(targets):
        return (0.0, 0.0)
    xy = shapely.get_coordinates(base)
    simple = shapely.get_num_interior_rings(base) == 0
    may = _may_touch(base, targets, least)
    if least > 1e-5:  # a slide in contact comes within 1e-6 of its target
        gaps = shapely.distance(base, np.asarray(targets, dtype=object)).tolist()
    else:
        gaps = [-math.inf] * len(targets)
    by_gap = sorted(range(len(targets)), key=gaps.__getitem__)
    heap: list[tuple[float, int, int, float, float]] = []  # (length, target, rank, dx, dy): its order
    drawn: dict[int, list[tuple[float, float, int]]] = {}
    nxt = 0
    while True:
        while nxt < len(by_gap) and (not heap or gaps[by_gap[nxt]] - 1e-5 <= heap[0][0]):
            t = by_gap[nxt]
            nxt += 1
            drawn[t] = slide_candidates(base, [targets[t]], least)
            for j, (mx, my, _t) in enumerate(drawn[t]):
                heapq.heappush(heap, (math.hypot(mx, my), t, j, mx, my))
        if not heap:
            break
        _length, t, _j, mx, my = heapq.heappop(heap)
        target = targets[t]
        if not may(mx, my, t):
            continue
        # the base slid by (mx, my): its corners plus the move, as shapely.affinity.translate
        moved = (
            shapely.polygons(xy + np.asarray([mx, my]))
            if simple
            else shapely.affinity.translate(base, mx, my)
        )
        touch = shapely.length(shapely.intersection(shapely.boundary(moved), buffered(target, 1e-6)))
        if touch >= least - 1e-6 and not shapely.intersection(moved, target).area > 1e-6:
            return (mx, my)
    first = drawn[0] if 0 in drawn else slide_candidates(base, [targets[0]], least)
    return (first[0][0], first[0][1])  # the shortest line to the first target


def _may_touch(
    base: shapely.Polygon, targets: Sequence[shapely.Geometry], least: float
) -> Callable[[float, float, int], bool]:
    """A cheap test a slide (``dx``, ``dy``) of ``base`` must pass to bring ``least`` cm of its edge
    within 1e-6 of target ``t`` (:func:`into_contact`): the slid outline's part that near the
    target lies in the overlap of their boxes, and a convex outline's part inside a box is no
    longer than the box's perimeter. Always passes for an outline not convex, or no ``least``."""
    if (
        least <= 1e-5  # no edge need touch at all
        or shapely.get_num_interior_rings(base) != 0
        or not _convex(shapely.get_coordinates(base.exterior).tolist())
    ):
        return lambda _dx, _dy, _t: True
    lo_x, lo_y, hi_x, hi_y = shapely.bounds(base).tolist()
    boxes = shapely.bounds(np.asarray(targets, dtype=object)).tolist()

    def may(dx: float, dy: float, t: int) -> bool:
        tx0, ty0, tx1, ty1 = boxes[t]
        w = min(hi_x + dx, tx1 + 1e-5) - max(lo_x + dx, tx0 - 1e-5)
        h = min(hi_y + dy, ty1 + 1e-5) - max(lo_y + dy, ty0 - 1e-5)
        return not (w < 0 or h < 0 or 2 * (w + h) < least - 1e-5)

    return may


def possible_slides(
    base: shapely.Polygon, targets: Sequence[shapely.Geometry], least: float
) -> list[tuple[float, float]]:
    """The slides :func:`into_contact` may answer: its candidates (:func:`slide_candidates`) that
    pass its cheap test, and the first (its answer when none gives contact)."""
    moves = slide_candidates(base, targets, least)
    may = _may_touch(base, targets, least)
    return [(mx, my) for i, (mx, my, t) in enumerate(moves) if i == 0 or may(mx, my, t)]


def _convex(ring: Sequence[Sequence[float]]) -> bool:
    """Does the closed ring (first point repeated last) turn one way only: a convex outline?"""
    turns = [
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        for a, b, c in zip(ring, ring[1:], [*ring[2:], ring[1]], strict=False)
    ]
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


_BUFFERED: dict[tuple[int, float], tuple[shapely.Geometry, shapely.Geometry]] = {}


def buffered(figure: shapely.Geometry, cm: float) -> shapely.Geometry:
    """``shapely.buffer(figure, cm)``, computed once per figure (the same object) and distance:
    the figures of a position are measured within the same tolerances again and again
    (:func:`into_contact`)."""
    key = (id(figure), cm)
    got = _BUFFERED.get(key)
    if got is None or got[0] is not figure:
        if len(_BUFFERED) >= 4096:
            _BUFFERED.clear()
        got = _BUFFERED[key] = (figure, shapely.buffer(figure, cm))
    return got[1]


def _straight_slides(
    bf: Battlefield, b: int, fld: _Field, limit: float
) -> list[tuple[tuple[float, float], float]]:
    """5.9.2, PD-6 — exact candidates: where base ``b``'s centre ends when the base slides
    straight (facing kept) into contact with a target figure, along the shortest line to each
    target figure and straight ahead, and (PD-4) the same up to each stretch of obstacle a
    target figure holds when that ends in contact across it (:func:`_across`); with the
    slide's length, shortest first, none longer than ``limit``. Each end pose touches its
    target figure or is in contact with one across an obstacle; :func:`_slide_free` refuses a
    slide that runs into another (the target's figures are among the blockers)."""
    x0, y0 = float(bf.x[b]), float(bf.y[b])
    start = shapely.Polygon(bf.corners[b])
    least = bf.settings.min_contact_length_cm
    ends: list[tuple[tuple[float, float], float]] = []
    for target in fld.targets:  # PD-14: into contact along at least the least length
        mx, my = into_contact(start, [target], least)
        ends.append(((x0 + mx, y0 + my), math.hypot(mx, my)))
    ends += _ahead(bf, b, fld.targets, limit)
    if fld.across:  # 5.9.2, PD-4: up to the obstacle a target figure holds, in contact across it
        held = [g for g, _t in fld.across]
        across = [
            ((x0 + mx, y0 + my), math.hypot(mx, my))
            for mx, my in (into_contact(start, [g], least) for g in held)
        ]
        ends += [e for e in across + _ahead(bf, b, held, limit) if _across(bf, b, fld, e[0])]
    out: list[tuple[tuple[float, float], float]] = []
    for end, length in sorted(ends, key=lambda e: e[1]):
        if length <= limit and all(math.dist(end, e) > 1e-9 for e, _ in out):
            out.append((end, length))
    return out


def _ahead(
    bf: Battlefield, b: int, shapes: list[shapely.Geometry], limit: float
) -> list[tuple[tuple[float, float], float]]:
    """Straight ahead (base ``b``'s facing): the first point of the ray from its centre on one
    of ``shapes`` grown by the base, with the run; none when the centre already is in one, or
    the ray meets none within ``limit``."""
    x0, y0, f0 = float(bf.x[b]), float(bf.y[b]), float(bf.facing[b])
    w, d = float(bf.width[b]), float(bf.depth[b])
    grown = shapely.union_all([p for g in shapes for p in grown_by_base(g, base_corners(0.0, 0.0, f0, w, d))])
    a = math.radians(f0)
    ray = shapely.LineString([(x0, y0), (x0 + limit * math.cos(a), y0 + limit * math.sin(a))])
    if shapely.contains_xy(grown, x0, y0):
        return []
    hit = shapely.get_coordinates(shapely.intersection(ray, shapely.boundary(grown)))
    if not len(hit):
        return []
    run = (hit[:, 0] - x0) * math.cos(a) + (hit[:, 1] - y0) * math.sin(a)
    k = int(np.argmin(run))
    return [((float(hit[k, 0]), float(hit[k, 1])), float(run[k]))]


def _slide_free(
    bf: Battlefield, b: int, fld: _Field, end: tuple[float, float], start: tuple[float, float] | None = None
) -> bool:
    """3.1.3, 3.1.4, 3.2.4, 3.2.5, 1.4.2 — base ``b`` slides straight from where it stands (or
    from ``start``) to ``end`` on the table, its swept area (shrunk by the overlap tolerance,
    PD-3) meeting no blocker and coming into no zone: the tests :func:`check_move` makes of a
    path, on the blockers and zones of :func:`reach`."""
    s = bf.settings
    eps = s.distance_epsilon_cm
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    x0, y0 = start if start is not None else (float(bf.x[b]), float(bf.y[b]))
    motion = BaseMotion.of([(x0, y0, f0), (end[0], end[1], f0)], w, d)
    core = motion.swept(s.overlap_tolerance_cm + eps)
    table = bf.scenario.table
    minx, miny, maxx, maxy = shapely.bounds(core).tolist()
    if minx < -eps or miny < -eps or maxx > table.width + eps or maxy > table.depth + eps:
        return False
    if fld.blockers and bool(np.any(shapely.intersects(core, np.asarray(fld.blockers, dtype=object)))):
        return False
    if fld.zones:
        near = shapely.distance(motion.swept(), np.asarray(fld.zones, dtype=object))
        if bool(np.any(near < s.control_zone_cm - eps)):
            return False
    return True


def _answer(
    bf: Battlefield,
    b: int,
    foe: IntArray,
    fld: _Field,
    pts: list[tuple[float, float]],
    allowed: float,
    about: tuple[str, str, str, str, float],
) -> ReachResult:
    """PD-6, 3.2, 3.1.5 — the path's length plus surcharges against the base's move, and the
    target figure it ends touching."""
    unit, target, method, how, h = about
    f0, w, d = float(bf.facing[b]), float(bf.width[b]), float(bf.depth[b])
    motion = BaseMotion.of([(x, y, f0) for x, y in pts], w, d)
    costly = fld.weighted + fld.hills
    if costly:  # only the features the path meets can cost (as check_move gives them)
        met = shapely.intersects(motion.swept(), np.asarray([f.polygon for f in costly], dtype=object))
        costly = [f for f, m in zip(costly, met.tolist(), strict=True) if m]
    extra = terrain_surcharges(motion, costly, bf.settings) if costly else ()
    cost = motion.length + sum(x.cm for x in extra)
    dist = polygon_distance(base_corners(*pts[-1], f0, w, d), bf.corners[foe])
    return ReachResult(
        unit,
        target,
        bf.base_ids[b],
        cost <= allowed + bf.settings.distance_epsilon_cm,
        cost,
        motion.length,
        allowed,
        tuple(pts),
        f0,
        extra,
        bf.base_ids[int(foe[int(np.argmin(dist))])],
        method,
        h,
        how,
        bf,
    )


def _pull_tight(
    pts: list[tuple[float, float]],
    facing: float,
    w: float,
    d: float,
    block: shapely.Geometry | None,
    costly: list[TerrainShape],
    settings: RulesSettings,
) -> list[tuple[float, float]]:
    """Replace stretches of the path by straight shortcuts that are free and cost no more."""

    def cost(a: list[tuple[float, float]]) -> float:
        m = BaseMotion.of([(x, y, facing) for x, y in a], w, d)
        return m.length + sum(x.cm for x in terrain_surcharges(m, costly, settings))

    out = [pts[0]]
    i = 0
    while i < len(pts) - 1:
        j = len(pts) - 1
        while j > i + 1:
            seg = shapely.LineString([pts[i], pts[j]])
            if block is None or not shapely.intersects(seg, block):
                if not costly or cost([pts[i], pts[j]]) <= cost(pts[i : j + 1]) + 1e-9:
                    break
            j = max(i + 1, j - max(1, (j - i) // 8)) if j - i > 16 else j - 1
        out.append(pts[j])
        i = j
    return out


__all__ = [
    "CLEARANCE_CM",
    "ReachMethod",
    "ReachResult",
    "buffered",
    "grown_by_base",
    "into_contact",
    "possible_slides",
    "reach",
    "slide_candidates",
]
