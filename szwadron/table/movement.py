"""Section 3, 1.3.3, 1.4, 4.11, 5.9 — is a proposed move legal, and what does it cost?

:func:`check_move` takes a scenario (or a built :class:`~szwadron.geometry.battlefield.Battlefield`),
the unit (or the units of a combined move, 3.3) and the new poses of its bases — a
:class:`MoveFile`, the ``szwadron move --to FILE`` format — and returns a :class:`MoveReport`:
legal or not, every violation with its rule and base (the first one is "the" answer), and per
base the distance moved by PD-6 with every terrain surcharge itemised.

Move file (TOML)::

    unit = "fr-hussars"            # optional: checked against --unit
    [[bases]]
    index = 0                      # the base UNIT/0; bases not listed stay where they are
    x = 15.0
    y = 40.0
    facing = 90.0
    waypoints = [[15.0, 35.0, 90.0]]   # optional poses passed on the way, in order

The rules checked, base by base in the order the bases move (the order of the file, 3.1.1):

- 3.2.4, 3.2.5 — the base's path crosses no impassable terrain, high wall, or building (or
  fortification) closed to its kind;
- 3.1.3 — it passes through no other own figure: other units' at their places, its own unit's
  where they stand when it moves (already moved ones at their new places);
- 1.4.2, 1.4.3, 5.9.3 — it comes into no enemy control zone (measured from beyond an obstacle
  the enemy stands at), except the zones of figures already engaged in melee and those of a unit
  it charges;
- 5.9.2 — a charging base that enters the charged unit's zone ends touching a charged figure,
  and never overlaps one;
- 3.2.1, 3.2.2, 3.2.3 — it does not end straddling a hill edge or the edge of rough ground, nor
  on an obstacle;
- 3.1.4 — it stays on the table;
- 3.1.5, PD-6, 3.2, 3.3, 4.11, 7.2 — the corner that travels furthest, plus the surcharges, is
  within its move (the slowest unit's in a combined move, half of it on the march, the limbered
  move of a gun with its limber);

then for the unit: 1.3.3 coherent at the end (not for units in panic or pursuit, 6.1), 3.3 the
units of a combined move touch at the start, 4.11 no charge on the march.

Moving after fire (4.9, ``after_fire=`` a :class:`~szwadron.table.fire.FireResult`, ``szwadron move
--after-fire TARGET``): the figures of the firing unit not declared as firing may move, under all
the rules above (4.9.2); a declared figure may not move (4.9.1); no charge (4.9.3); no path may
enter the band (PD-7) of a line of fire of a figure that fired (4.9.4); after fire on the march,
no move after fire (4.11.3) — only the half move of fire on the march itself (4.11.2).

Decisions where the rulebook is silent:

- Bases not listed in the move file stay put (figures move one after another, 3.1.1; moving
  part of a unit is normal).
- Bases move in file order. When that order makes one base pass through another of its own
  unit (3.1.3), the check looks for an order that works (a unit wheeling about its left end
  moves its right-hand bases first) and reports the order it used.
- A base that starts inside an enemy zone (it was charged, or is disengaging) is not stopped
  by that zone, but may not end the move nearer that enemy than it started.
- A figure counts as engaged (5.9.3: its zone lets others pass) when it is in contact (PD-14)
  with a figure of the other side.
- "Room for the base" (3.1.4) and "through own figures" (3.1.3) use PD-3: the path may press
  into another base or a wall by up to the overlap tolerance. A gap 0.1 cm narrower than the
  base is therefore the exact limit of PD-3 (0.05 cm on each side) when the base goes through
  its middle; any narrower, or off centre, it is illegal.
- A declared charge in which no base reaches contact is legal (a charge that falls short); the
  report says that no base is in contact.
- Foot of the hill (3.2.1): a base that starts touching a hill from below and ends wholly on it
  with an edge on the hill's edge may make that move even when it costs more than its move.
- After fire (4.9), see :func:`check_move`: a declared figure that could not fire was still
  declared and does not move; the lines of fire are those of the answer (every target base a
  figure that fired could hit, 4.5.3), on the table as it stood when the unit fired (casualties
  not yet removed).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

from szwadron.errors import InvalidArgumentError, InvalidDataError
from szwadron.geometry.bases import base_corners, polygons_from_corners
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import contact_length, polygon_distance
from szwadron.geometry.paths import BaseMotion, Pose, Surcharge, terrain_surcharges
from szwadron.geometry.terrain import forbidden_rule
from szwadron.loading import validate
from szwadron.models import Ability, Kind, Scenario, TerrainKind, UnitState
from szwadron.movefile import MoveFile, MovePose, load_move_file
from szwadron.rulings import Ruling
from szwadron.table.audit import connected_groups, obstacle_zone_core

if TYPE_CHECKING:
    from szwadron.table.fire import FireResult

FloatArray = npt.NDArray[np.float64]

_DIGITS = 6


# --- the report -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation(Ruling):
    """A rule the move breaks; ``where`` holds the base that breaks it (empty for the whole unit)."""

    @property
    def base(self) -> str | None:
        """The base that breaks the rule, or ``None`` for the whole unit."""
        return self.where[0] if self.where else None

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "message", "base"}``."""
        return {"rule": self.rule, "message": self.message, "base": self.base}


@dataclass(frozen=True)
class BaseMove:
    """PD-6 — one base's move: path of its furthest corner, surcharges, total against allowed."""

    base: str
    path: float
    corner: str
    surcharges: tuple[Surcharge, ...]
    allowed: float
    poses: tuple[Pose, ...]

    @property
    def distance(self) -> float:
        """Path plus surcharges (PD-6)."""
        return self.path + sum(s.cm for s in self.surcharges)

    def to_json(self) -> dict[str, Any]:
        """``{"base", "distance", "allowed", "surcharges", "path", "corner", "poses"}``."""
        return {
            "base": self.base,
            "distance": round(self.distance, _DIGITS),
            "allowed": round(self.allowed, _DIGITS),
            "surcharges": [s.to_json() for s in self.surcharges],
            "path": round(self.path, _DIGITS),
            "corner": self.corner,
            "poses": [[round(v, _DIGITS) for v in p] for p in self.poses],
        }


@dataclass(frozen=True)
class AfterFire:
    """4.9 — the fire a move after fire follows: the target, the declared firing bases (which may
    not move, 4.9.1), those that fired (whose lines of fire may not be entered, 4.9.4), and
    whether it was fire on the march (4.11.3)."""

    target: str
    declared: tuple[str, ...]
    fired: tuple[str, ...]
    march: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"target", "declared", "fired", "march"}``."""
        return {
            "target": self.target,
            "declared": list(self.declared),
            "fired": list(self.fired),
            "march": self.march,
        }


@dataclass(frozen=True)
class MoveReport:
    """The answer of :func:`check_move`; :meth:`to_json` is ``szwadron move --json``."""

    units: tuple[str, ...]
    charge: tuple[str, ...]
    march: bool
    violations: tuple[Violation, ...]
    bases: tuple[BaseMove, ...]
    order: tuple[str, ...]
    contacts: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    after_fire: AfterFire | None = None

    @property
    def legal(self) -> bool:
        """No rule broken."""
        return not self.violations

    @property
    def rule(self) -> str | None:
        """The first rule broken, or ``None``."""
        return self.violations[0].rule if self.violations else None

    @property
    def message(self) -> str:
        """The first violation in words, or a one-line summary of a legal move."""
        if self.violations:
            return self.violations[0].message
        most = max(self.bases, key=lambda b: b.distance / b.allowed if b.allowed else 0.0, default=None)
        what = "charge" if self.charge else "move"
        if most is None:
            return f"legal {what}: no base moves"
        return (
            f"legal {what}: {len(self.bases)} base{'s' * (len(self.bases) != 1)}, the "
            f"longest {most.base} {most.distance:.2f} of {most.allowed:g} cm"
        )

    def to_json(self) -> dict[str, Any]:
        """``{"legal", "rule", "message", "bases", "violations", "order", ...}``."""
        return {
            "legal": self.legal,
            "rule": self.rule,
            "message": self.message,
            "bases": [b.to_json() for b in self.bases],
            "violations": [v.to_json() for v in self.violations],
            "units": list(self.units),
            "charge": list(self.charge),
            "march": self.march,
            "order": list(self.order),
            "contacts": list(self.contacts),
            "notes": list(self.notes),
            "after_fire": None if self.after_fire is None else self.after_fire.to_json(),
        }


# --- checking -------------------------------------------------------------------------------------


@dataclass
class _Planned:
    entry: int  # index in the move file
    base: int  # index in the battlefield
    motion: BaseMotion
    sweep: shapely.Geometry
    core: shapely.Geometry
    final: FloatArray  # corners (4, 2)


def _where(entry: int, bf: Battlefield, b: int) -> str:
    return f"bases[{entry}] (base {bf.base_ids[b]})"


def _pose_off_table(corners: FloatArray, width: float, depth: float, lim: float) -> str | None:
    cx, cy = corners[:, 0], corners[:, 1]
    if (cx < -lim).any() or (cy < -lim).any() or (cx > width + lim).any() or (cy > depth + lim).any():
        k = int(np.argmax(np.maximum.reduce([-cx, -cy, cx - width, cy - depth])))
        return (
            f"off the table: corner ({cx[k]:.2f}, {cy[k]:.2f}) lies outside the "
            f"{width:g} × {depth:g} cm table"
        )
    return None


def _resolve(
    bf: Battlefield,
    units: tuple[str, ...],
    move: MoveFile,
    source: str,
) -> list[tuple[int, int, list[Pose]]]:
    """``(entry, base index, poses)`` per listed base; bad references raise InvalidDataError."""
    s = bf.settings
    lim = s.overlap_tolerance_cm + s.distance_epsilon_cm
    table = bf.scenario.table
    if move.unit is not None and move.unit not in units:
        raise InvalidDataError(
            f"unit: the move file is for unit {move.unit!r}, but the move is of {', '.join(units)}",
            source=source,
        )
    seen: dict[int, int] = {}
    out: list[tuple[int, int, list[Pose]]] = []
    for k, entry in enumerate(move.bases):
        at = f"bases[{k}]"
        if entry.unit is None:
            if len(units) > 1:
                raise InvalidDataError(
                    f"{at}.unit: a combined move (3.3) names the unit of each base ({', '.join(units)})",
                    source=source,
                )
            uid = units[0]
        else:
            uid = entry.unit
            if uid not in units:
                raise InvalidDataError(
                    f"{at}.unit: {uid!r} is not a unit of this move ({', '.join(units)})", source=source
                )
        members = bf.unit_bases(uid)
        if entry.index >= len(members):
            n = len(members)
            raise InvalidDataError(
                f"{at}.index: unit {uid!r} has no base {entry.index}; it has {n} "
                f"base{'s' * (n != 1)}, 0 to {n - 1}",
                source=source,
            )
        b = int(members[entry.index])
        if b in seen:
            raise InvalidDataError(
                f"{at}.index: base {bf.base_ids[b]} is already moved by bases[{seen[b]}]; list "
                "each base once (put intermediate poses in its waypoints)",
                source=source,
            )
        seen[b] = k
        w, d = float(bf.width[b]), float(bf.depth[b])
        poses = [Pose(float(bf.x[b]), float(bf.y[b]), float(bf.facing[b]))]
        for j, wp in enumerate(entry.waypoints):
            pose = Pose(*wp)
            off = _pose_off_table(base_corners(*pose, w, d), table.width, table.depth, lim)
            if off:
                raise InvalidDataError(f"{at}.waypoints[{j}]: {off}", source=source)
            poses.append(pose)
        final = Pose(entry.x, entry.y, entry.facing)
        off = _pose_off_table(base_corners(*final, w, d), table.width, table.depth, lim)
        if off:
            raise InvalidDataError(f"{at}: the new pose is {off}", source=source)
        poses.append(final)
        out.append((k, b, poses))
    return out


def _speed(bf: Battlefield, unit_k: int) -> dict[int, float]:
    """3.1.5, 7.2 — the move of each base of a unit: its own R, or the gun's limbered move
    while the gun touches its limber at the start. Decision: the limber then moves at the
    gun's limbered move too."""
    unit = bf.scenario.units[unit_k]
    members = bf.unit_bases(unit_k).tolist()
    s = bf.settings
    tol = s.contact_tolerance_cm + s.distance_epsilon_cm
    limbers = [b for b in members if bf.kinds[b] is Kind.LIMBER]
    out: dict[int, float] = {}
    limbered: float | None = None
    for b in members:
        prof = unit.base_profile(int(bf.index_in_unit[b]))
        out[b] = float(prof.move)
        if prof.kind.is_artillery and prof.move_limbered is not None and limbers:
            d = polygon_distance(bf.corners[b], bf.corners[limbers])
            if bool((d <= tol).any()):
                out[b] = float(prof.move_limbered)
                limbered = float(prof.move_limbered)
    if limbered is not None:
        for b in limbers:
            out[b] = limbered
    return out


def _coherent(
    bf: Battlefield,
    corners: FloatArray,
    skirmish: bool,
) -> npt.NDArray[np.intp]:
    """1.3.1, 1.3.4, 1.3.5, PD-2, PD-4 — group labels of a unit's bases at the given corners."""
    s = bf.settings
    eps = s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + eps
    n = len(corners)
    if n < 2:
        return np.zeros(n, dtype=np.intp)
    i, j = np.triu_indices(n, 1)
    d = polygon_distance(corners[i], corners[j])
    link = d <= (s.skirmish_gap_cm + eps if skirmish else tol)
    polys = polygons_from_corners(corners).reshape(-1)
    obstacles = [t for t in bf.terrain if t.crossable_obstacle]
    if obstacles:
        at = np.stack([shapely.distance(polys, t.polygon) <= tol for t in obstacles])  # (t, n)
        for t_k, t in enumerate(obstacles):
            both = at[t_k][i] & at[t_k][j] & (d <= t.width + tol)
            link |= both
    return connected_groups(n, i[link], j[link])


def check_move(
    scenario: Scenario | Battlefield,
    units: str | Sequence[str],
    move: MoveFile | Mapping[str, Any],
    *,
    charge: Sequence[str] = (),
    march: bool = False,
    after_fire: FireResult | None = None,
    method: PairMethod = "index",
    source: str = "move",
) -> MoveReport:
    """Section 3, 1.3.3, 1.4.2, 4.9, 4.11, 5.9 — check a proposed move (see the module docstring).

    Parameters
    ----------
    scenario:
        The table before the move (a built Battlefield is reused).
    units:
        The moving unit's id, or the ids of a combined move (3.3).
    move:
        The new poses (:class:`MoveFile` or its data).
    charge:
        Ids of the enemy units charged (5.2: one attack on any number of units).
    march:
        Fire on the march (4.11): half the move, no charge.
    after_fire:
        4.9 — the move follows this fire of the moving unit (:func:`szwadron.table.fire.fire` on the
        same table, its ``bases`` the declared ones). Then: 4.9.1 a declared base may not move;
        4.9.2 every other rule applies (full move); 4.9.3 no charge; 4.9.4 no path may enter the
        band (PD-7) of a line of fire of a figure that fired — the band as the fire answer has
        it (as wide as the firing edge, less the firing and target bases), entered when the
        swept base reaches into it by more than the overlap tolerance (PD-3). A fire that was
        not legal gives no move after fire (4.9.1). After fire on the march (``after_fire.march``)
        only the half move of fire on the march itself is allowed (``march=True``, 4.11.2);
        any other move is a move after fire, refused by 4.11.3 (a charge by 4.11.4).
        Decision: a base that starts inside a band may leave it (it does not enter it); a
        declared base that could not fire was declared all the same (4.9.1 speaks of the
        declaration) and does not move, but has no line of fire; a unit that fired normally
        may not then move on the march (2.3: one action), refused under rule 2.3.
    method:
        ``"index"`` finds what a path meets with the STR-trees; ``"brute"`` tries every base
        and feature (the naive reference; same answer).
    source:
        Name of the move file in error messages.

    Raises
    ------
    InvalidDataError
        Unknown units or bases, a base listed twice, a pose off the table, a charge on a
        friend, an ``after_fire`` of another unit than the one moving (or a combined move);
        the message names ``source`` and the field path.

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60},
    ...     "units": [{"id": "a", "side": "A", "profile": inf, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]}]})
    >>> ahead = lambda dy: {"bases": [{"index": k, "x": 10 + 2 * k, "y": 10 + dy, "facing": 90}
    ...                               for k in range(2)]}
    >>> check_move(sc, "a", ahead(12.0)).legal
    True
    >>> r = check_move(sc, "a", ahead(12.1))
    >>> r.rule, r.violations[0].base
    ('3.1.5', 'a/0')
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    sc = bf.scenario
    s = bf.settings
    eps = s.distance_epsilon_cm
    tol = s.contact_tolerance_cm + eps
    shrink = s.overlap_tolerance_cm + eps
    radius = s.control_zone_cm
    unit_ids = (units,) if isinstance(units, str) else tuple(units)
    if not unit_ids:
        raise InvalidDataError("name the unit that moves")
    for uid in unit_ids:
        bf.resolve(uid)  # unknown → InvalidDataError listing the units
        if uid not in bf.unit_ids:
            raise InvalidArgumentError(
                "unit", f"{uid!r} is a base; give the unit id {uid.partition('/')[0]!r}"
            )
        if unit_ids.count(uid) > 1:
            raise InvalidDataError(f"unit {uid!r} is named twice")
    unit_ks = [bf.unit_ids.index(u) for u in unit_ids]
    sides = {sc.units[k].side for k in unit_ks}
    if len(sides) > 1:
        raise InvalidDataError(
            f"units {', '.join(unit_ids)} are on different sides; a combined "
            "move (3.3) is of one side's units"
        )
    side = 0 if sides == {"A"} else 1
    charge_ids = tuple(charge)
    charge_ks: set[int] = set()
    for cid in charge_ids:
        bf.resolve(cid)
        if cid not in bf.unit_ids:
            raise InvalidArgumentError(
                "charge", f"{cid!r} is a base; give the unit id {cid.partition('/')[0]!r}"
            )
        ck = bf.unit_ids.index(cid)
        if ck in unit_ks or sc.units[ck].side == sc.units[unit_ks[0]].side:
            raise InvalidArgumentError("charge", f"{cid}: a unit charges enemy units only")
        charge_ks.add(ck)
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    resolved = _resolve(bf, unit_ids, move, source)

    unit_violations: list[Violation] = []
    notes: list[str] = []
    declared_fire: set[int] = set()
    fire_bands: list[tuple[str, shapely.Geometry]] = []
    after: AfterFire | None = None
    if after_fire is not None:
        after, declared_fire, fire_bands = _after_fire(
            bf,
            unit_ids,
            after_fire,
            march=march,
            charging=bool(charge_ids),
            violations=unit_violations,
            notes=notes,
        )
    states = {sc.units[k].state for k in unit_ks}
    if march and charge_ids:
        unit_violations.append(
            Violation(
                "4.11",
                "fire on the march allows no melee: a unit moving at half speed to fire may not charge",
            )
        )
    if charge_ids and states - {UnitState.NORMAL}:
        unit_violations.append(
            Violation(
                "6.1",
                "a unit in panic or uncontrolled pursuit takes no action in the movement "
                "phase: it cannot charge",
            )
        )
    moving_all = np.concatenate([bf.unit_bases(k) for k in unit_ks])
    if len(unit_ks) > 1:  # 3.3: the units touch (a connected graph of touching units)
        touch_i: list[int] = []
        touch_j: list[int] = []
        for a in range(len(unit_ks)):
            for b in range(a + 1, len(unit_ks)):
                ca = bf.corners[bf.unit_bases(unit_ks[a])]
                cb = bf.corners[bf.unit_bases(unit_ks[b])]
                if bool((polygon_distance(ca[:, None], cb[None, :]) <= tol).any()):
                    touch_i.append(a)
                    touch_j.append(b)
        if len(set(connected_groups(len(unit_ks), touch_i, touch_j).tolist())) > 1:
            unit_violations.append(
                Violation(
                    "3.3",
                    f"units {', '.join(unit_ids)} do not touch at the start of the move; only "
                    "units with bases touching may move together",
                )
            )

    # --- speeds (3.1.5, 3.3, 4.11, 7.2) ------------------------------------------------------
    speed: dict[int, float] = {}
    for k in unit_ks:
        speed.update(_speed(bf, k))
    if len(unit_ks) > 1:
        slowest = min(speed.values())
        speed = dict.fromkeys(speed, slowest)
        notes.append(f"combined move (3.3): every figure moves at the slowest speed, {slowest:g} cm")
    if march:
        speed = {b: v / 2.0 for b, v in speed.items()}
        notes.append("fire on the march (4.11): half the move")

    # --- the paths ----------------------------------------------------------------------------
    planned: list[_Planned] = []
    for entry, b, poses in resolved:
        motion = BaseMotion.of(poses, float(bf.width[b]), float(bf.depth[b]))
        planned.append(
            _Planned(
                entry,
                b,
                motion,
                motion.swept(),
                motion.swept(shrink),
                base_corners(*poses[-1], float(bf.width[b]), float(bf.depth[b])),
            )
        )
    moving_set = set(moving_all.tolist())
    found: dict[int, list[tuple[int, Violation]]] = {p.base: [] for p in planned}

    def add(p: _Planned, rank: int, rule: str, message: str) -> None:
        found[p.base].append(
            (rank, Violation(rule, f"{bf.base_ids[p.base]}: {message}", (bf.base_ids[p.base],)))
        )

    # which enemy figures are engaged (5.9.3) — asked lazily, per enemy base
    engaged_cache: dict[int, bool] = {}

    def engaged(e: int) -> bool:
        if e not in engaged_cache:
            if method == "brute":
                near = np.flatnonzero(shapely.distance(bf.polygons[e], bf.polygons) <= tol)
            else:
                near = bf.tree.query(bf.polygons[e], predicate="dwithin", distance=tol)
            near = near[bf.side[near] != bf.side[e]]
            total = float(contact_length(bf.corners[e], bf.corners[near], tol).sum()) if near.size else 0.0
            engaged_cache[e] = total >= s.min_contact_length_cm - eps
        return engaged_cache[e]

    obstacle_ks = [t for t, f in enumerate(bf.terrain) if f.crossable_obstacle]
    widest = max((bf.terrain[t].width for t in obstacle_ks), default=0.0)
    contacts: set[int] = set()
    surcharges: dict[int, tuple[Surcharge, ...]] = {}
    features_near: dict[int, list[int]] = {}

    for p in planned:
        b = p.base
        kind = bf.kinds[b]
        # --- moving after fire (4.9.1, 4.9.4) ------------------------------------------------
        if b in declared_fire:
            assert after is not None
            add(
                p,
                -1,
                "4.9.1",
                f"was declared as firing at {after.target}: only the figures not "
                "declared as firing may move after fire",
            )
        if fire_bands:
            start_core = shapely.Polygon(
                base_corners(
                    *p.motion.poses[0],
                    max(p.motion.width - 2 * shrink, 1e-3),
                    max(p.motion.depth - 2 * shrink, 1e-3),
                )
            )
            for label, band in fire_bands:
                if shapely.intersects(p.core, band) and not shapely.intersects(start_core, band):
                    add(
                        p,
                        2,
                        "4.9.4",
                        f"the path enters the line of fire {label} (its band, PD-7) "
                        "of a figure of its unit that fired this turn",
                    )
                    break
        # --- terrain the path meets --------------------------------------------------------
        if bf.terrain:
            if method == "brute":
                t_hits = np.flatnonzero(shapely.intersects(p.sweep, bf.terrain_polygons))
            else:
                t_hits = bf.terrain_tree.query(p.sweep, predicate="intersects")
            features_near[b] = sorted(t_hits.tolist())
            core_hits = [t for t in features_near[b] if shapely.intersects(p.core, bf.terrain[t].polygon)]
            for t in core_hits:
                rule = forbidden_rule(kind, bf.terrain[t])
                if rule is not None:
                    f = bf.terrain[t]
                    why = "impassable" if rule == "3.2.4" else f"closed to {kind.value.replace('_', ' ')}"
                    add(p, 0, rule, f"the path crosses {f.kind.value.replace('_', ' ')} {f.id} ({why})")
        else:
            features_near[b] = []
        # --- other bases the path passes through ---------------------------------------------
        if method == "brute":
            b_hits = np.flatnonzero(shapely.intersects(p.core, bf.polygons))
        else:
            b_hits = bf.tree.query(p.core, predicate="intersects")
        for o in sorted(b_hits.tolist()):
            if o in moving_set:
                continue
            if bf.side[o] == side:
                add(p, 1, "3.1.3", f"the path passes through own figure {bf.base_ids[o]}")
            elif int(bf.unit_of[o]) in charge_ks:
                add(
                    p,
                    4,
                    "5.9.2",
                    f"the path runs into the charged figure {bf.base_ids[o]}: a charge stops at contact",
                )
            else:
                add(p, 3, "3.1.4", f"the path runs through enemy figure {bf.base_ids[o]}")
        # --- enemy control zones (1.4.2, 1.4.3, 5.9.2, 5.9.3) ---------------------------------
        reach = radius + widest + tol
        if method == "brute":
            z_cand = np.flatnonzero(shapely.distance(p.sweep, bf.polygons) <= reach)
        else:
            z_cand = bf.tree.query(p.sweep, predicate="dwithin", distance=reach)
        start_poly = shapely.Polygon(bf.corners[b])
        final_poly = shapely.Polygon(p.final)
        entered_target = False
        for e in sorted(z_cand.tolist()):
            if bf.side[e] == side or bf.panicking[bf.unit_of[e]] or engaged(e):
                continue
            zones: list[tuple[shapely.Geometry, str | None]] = [(bf.polygons[e], None)]
            if obstacle_ks:
                at = (
                    np.flatnonzero(shapely.distance(bf.polygons[e], bf.terrain_polygons) <= tol)
                    if method == "brute"
                    else bf.terrain_tree.query(bf.polygons[e], predicate="dwithin", distance=tol)
                )
                for t in sorted(int(k) for k in at if bf.terrain[int(k)].crossable_obstacle):
                    core = obstacle_zone_core(bf, e, t, tol)
                    if not core.is_empty:
                        zones.append((core, bf.terrain[t].id))
            for zone, via in zones:
                dist = float(shapely.distance(p.sweep, zone))
                if dist >= radius - eps:
                    continue
                start_d = float(shapely.distance(start_poly, zone))
                if start_d < radius - eps:  # already in this zone: may not come nearer
                    end_d = float(shapely.distance(final_poly, zone))
                    if end_d < start_d - eps and int(bf.unit_of[e]) not in charge_ks:
                        add(
                            p,
                            2,
                            "1.4.2",
                            f"starts in the control zone of enemy figure "
                            f"{bf.base_ids[e]} and ends nearer it ({end_d:.2f} cm, was "
                            f"{start_d:.2f} cm)",
                        )
                    continue
                if int(bf.unit_of[e]) in charge_ks:
                    entered_target = True
                    continue
                across = f", measured from beyond {via} (1.4.3)" if via else ""
                add(
                    p,
                    2,
                    "1.4.2",
                    f"the path enters the control zone of enemy figure "
                    f"{bf.base_ids[e]} (comes within {dist:.2f} cm{across}); only a charge on "
                    "it may enter",
                )
                break
        target_bases = [int(o) for k in charge_ks for o in bf.unit_bases(k)]
        if target_bases:
            d_end = polygon_distance(p.final, bf.corners[target_bases])
            touching = [o for o, dd in zip(target_bases, d_end.tolist(), strict=True) if dd <= tol]
            contacts.update([b] if touching else [])
            if entered_target and not touching:
                add(
                    p,
                    5,
                    "5.9.2",
                    "enters the control zone of the charged unit and must close "
                    f"to contact and stop; it ends {float(d_end.min()):.2f} cm from it",
                )
        # --- where it ends: hills, rough ground, obstacles (3.2.1-3.2.3) ------------------------
        near = [bf.terrain[t] for t in features_near[b]]
        fin_core = shapely.Polygon(
            base_corners(
                *p.motion.poses[-1],
                max(p.motion.width - 2 * shrink, 1e-3),
                max(p.motion.depth - 2 * shrink, 1e-3),
            )
        )
        for f in near:
            if not shapely.intersects(fin_core, f.polygon):
                continue
            covered = bool(shapely.covers(shapely.buffer(f.polygon, tol), final_poly))
            if f.kind is TerrainKind.HILL and not covered:
                add(
                    p,
                    6,
                    "3.2.1",
                    f"ends with part of its base on hill {f.id}: the whole base must fit on the hill",
                )
            elif f.kind in (TerrainKind.FOREST, TerrainKind.ROUGH) and not covered:
                add(
                    p,
                    6,
                    "3.2.2",
                    f"ends partly in {f.kind.value} {f.id}: a figure enters rough "
                    "ground with its whole base, or stops before it",
                )
            elif f.kind is TerrainKind.OBSTACLE:
                add(p, 6, "3.2.3", f"ends on obstacle {f.id}: stop touching it, or cross it")
        # --- the table ------------------------------------------------------------------------
        minx, miny, maxx, maxy = shapely.bounds(p.core).tolist()
        if minx < -eps or miny < -eps or maxx > sc.table.width + eps or maxy > sc.table.depth + eps:
            add(p, 7, "3.1.4", "the path leaves the table")
        # --- distance (3.1.5, PD-6, 3.2) ------------------------------------------------------
        surcharges[b] = terrain_surcharges(p.motion, near, s) if near else ()
        total = p.motion.length + sum(x.cm for x in surcharges[b])
        if total > speed[b] + eps:
            hill = _foot_of_hill(bf, p, near, tol)
            if hill is not None:
                notes.append(
                    f"{bf.base_ids[b]}: foot of the hill (3.2.1): it touched hill {hill} "
                    f"and moves up onto its edge although the climb costs {total:.2f} cm"
                )
            else:
                add(
                    p,
                    8,
                    "3.1.5",
                    f"moves {total:.2f} cm ({_itemise(p.motion.length, surcharges[b])})"
                    f", more than its {speed[b]:g} cm",
                )

    # --- 3.1.3 own unit, figure after figure ----------------------------------------------------
    order = _order(bf, planned, moving_all)
    if order is None:
        order = list(range(len(planned)))
        current = {int(b): shapely.Polygon(bf.corners[b]) for b in moving_all}
        for k in order:
            p = planned[k]
            for o, poly in current.items():
                if o != p.base and shapely.intersects(p.core, poly):
                    add(
                        p,
                        1,
                        "3.1.3",
                        f"the path passes through own figure {bf.base_ids[o]} (moving "
                        "the bases in any order)",
                    )
                    break
            current[p.base] = shapely.Polygon(p.final)
    elif order != sorted(order):
        notes.append(
            "3.1.1: the bases cannot move in the order listed without passing through "
            "each other; they can in the order given as 'order'"
        )

    # --- 1.3.3 coherency at the end ---------------------------------------------------------------
    final_corners = bf.corners.copy()
    for p in planned:
        final_corners[p.base] = p.final
    for k in unit_ks:
        unit = sc.units[k]
        if unit.state is not UnitState.NORMAL:
            continue
        members = bf.unit_bases(k)
        labels = _coherent(bf, final_corners[members], unit.has(Ability.SKIRMISH))
        if len(set(labels.tolist())) > 1:
            sizes = np.bincount(labels)
            main = int(np.argmax(sizes))
            apart = [bf.base_ids[members[i]] for i in range(len(members)) if labels[i] != main]
            unit_violations.append(
                Violation(
                    "1.3.3",
                    f"unit {unit.id} is not coherent at the end of the move: "
                    f"{', '.join(apart)} {'is' if len(apart) == 1 else 'are'} apart from the rest",
                    (apart[0],),
                )
            )

    first = ("4.9.1", "4.9.3", "4.11.3", "4.11.4", "2.3", "4.11", "6.1", "3.3")
    head = [v for v in unit_violations if v.rule in first]
    tail = [v for v in unit_violations if v.rule not in first]
    per_base = [v for k in order for _, v in sorted(found[planned[k].base], key=lambda rv: rv[0])]
    violations = tuple(head + per_base + tail)
    if charge_ids and not contacts:
        notes.append("no base ends in contact with the charged unit: the charge falls short")
    return MoveReport(
        units=unit_ids,
        charge=charge_ids,
        march=march,
        violations=violations,
        bases=tuple(
            BaseMove(
                bf.base_ids[p.base],
                p.motion.length,
                p.motion.measured_corner,
                surcharges[p.base],
                speed[p.base],
                p.motion.poses,
            )
            for p in planned
        ),
        order=tuple(bf.base_ids[planned[k].base] for k in order),
        contacts=tuple(bf.base_ids[b] for b in sorted(contacts)),
        notes=tuple(notes),
        after_fire=after,
    )


def _after_fire(
    bf: Battlefield,
    unit_ids: tuple[str, ...],
    result: FireResult,
    *,
    march: bool,
    charging: bool,
    violations: list[Violation],
    notes: list[str],
) -> tuple[AfterFire, set[int], list[tuple[str, shapely.Geometry]]]:
    """4.9, 4.11.3, 4.11.4 — the unit-level refusals of a move after ``result``, the declared
    bases (battlefield indices) and the bands of the lines of fire of the figures that fired."""
    from szwadron.geometry.bases import EDGE_NAMES
    from szwadron.geometry.sight import band_corners

    if unit_ids != (result.shooter,):
        raise InvalidArgumentError(
            "after_fire",
            f"{result.shooter}: that unit fired; a move after fire (4.9) moves it alone, not {', '.join(unit_ids)}",
        )
    declared = {int(bf.resolve(s.base)[0]) for s in result.shooters}
    fired = tuple(s.base for s in result.shooters if s.can_fire)
    after = AfterFire(
        result.target, tuple(s.base for s in result.shooters), fired if result.legal else (), result.march
    )
    who = f"{result.shooter} fired at {result.target}"
    if not result.legal:
        why = f" ([{result.reason.rule}] {result.reason.message})" if result.reason else ""
        violations.append(
            Violation(
                "4.9.1",
                f"{result.shooter} could not fire at {result.target}{why}: there is no move "
                "after fire (check the move on its own, 4.3.6)",
            )
        )
        return after, set(), []
    if result.march:
        if march:
            notes.append(
                f"fire on the march (4.11.2): {who} before its half move; the whole unit "
                "may make it (there is no move after fire, 4.11.3)"
            )
        else:
            violations.append(
                Violation(
                    "4.11.3",
                    f"{who} on the march: it may not move after fire (4.9); its only move is "
                    "the half move of fire on the march, before or after the fire (4.11.2)",
                )
            )
            if charging:
                violations.append(Violation("4.11.4", f"{who} on the march: it may not charge"))
        return after, set(), []
    if march:
        violations.append(
            Violation("2.3", f"{who} (4.1): it may not also move on the march; a unit takes one action")
        )
    if charging:
        violations.append(Violation("4.9.3", f"{who}: figures moved after fire may not charge"))
    bands: list[tuple[str, shapely.Geometry]] = []
    for s in result.shooters:
        if not s.can_fire:
            continue
        k = int(bf.resolve(s.base)[0])
        for ln in s.lines:
            t = int(bf.resolve(ln.target)[0])
            e = EDGE_NAMES.index(ln.edge)
            width = float(bf.width[k] if e % 2 == 0 else bf.depth[k])
            band = shapely.Polygon(band_corners([bf.x[k], bf.y[k]], [bf.x[t], bf.y[t]], width))
            band = shapely.difference(band, shapely.union(bf.polygons[k], bf.polygons[t]))
            if not band.is_empty:
                bands.append((f"{s.base} → {ln.target}", band))
    return after, declared, bands


def place(
    scenario: Scenario | Battlefield,
    unit: str,
    move: MoveFile | Mapping[str, Any],
    *,
    source: str = "move",
) -> Scenario:
    """4.12.3 — the scenario with ``unit``'s bases at the final poses of a move file (the point
    at which a move is interrupted; both players place the enemy there). Bases not listed stay.

    The move itself is not checked against the rules (:func:`check_move` does that); the file
    is, like ``szwadron move --to``: its ``unit`` must be ``unit``, each index a base of it,
    listed once, each pose on the table (:class:`~szwadron.errors.InvalidDataError` otherwise,
    naming ``source``).

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60},
    ...     "units": [{"id": "a", "side": "A", "profile": inf, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 12, "y": 10, "facing": 90}]}]})
    >>> moved = place(sc, "a", {"bases": [{"index": 1, "x": 12, "y": 20, "facing": 90}]})
    >>> [(b.x, b.y) for b in moved.unit("a").bases]
    [(10.0, 10.0), (12.0, 20.0)]
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    bf.resolve(unit)
    if unit not in bf.unit_ids:
        raise InvalidDataError(f"{unit!r} is a base; give the unit id {unit.partition('/')[0]!r}")
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    resolved = _resolve(bf, (unit,), move, source)
    k = bf.unit_ids.index(unit)
    sc = bf.scenario
    bases = list(sc.units[k].bases)
    for _, b, poses in resolved:
        i = int(bf.index_in_unit[b])
        end = poses[-1]
        bases[i] = bases[i].model_copy(update={"x": end.x, "y": end.y, "facing": end.facing})
    units = list(sc.units)
    units[k] = units[k].model_copy(update={"bases": tuple(bases)})
    return sc.model_copy(update={"units": tuple(units)})


def _itemise(path: float, extra: tuple[Surcharge, ...]) -> str:
    parts = [f"path {path:.2f}"] + [f"{x.rule} {x.source} +{x.cm:.2f}" for x in extra]
    return ", ".join(parts)


def _order(bf: Battlefield, planned: list[_Planned], moving: npt.NDArray[np.intp]) -> list[int] | None:
    """3.1.1, 3.1.3 — an order in which the planned bases can move one after another without
    passing through each other: the file order when it works, else a greedy search; ``None``
    when none was found."""
    current = {int(b): shapely.Polygon(bf.corners[b]) for b in moving}
    left = list(range(len(planned)))
    out: list[int] = []
    while left:
        for k in left:
            p = planned[k]
            others = [poly for o, poly in current.items() if o != p.base]
            if not others or not bool(np.any(shapely.intersects(p.core, others))):
                out.append(k)
                left.remove(k)
                current[p.base] = shapely.Polygon(p.final)
                break
        else:
            return None
    return out


def _foot_of_hill(bf: Battlefield, p: _Planned, near: list[Any], tol: float) -> str | None:
    """3.2.1 — the foot-of-the-hill exception: the base touched the hill from below at the
    start and ends wholly on it with an edge on its edge. The hill's id, or None."""
    start = shapely.Polygon(bf.corners[p.base])
    final = shapely.Polygon(p.final)
    inner = polygons_from_corners(
        base_corners(
            *p.motion.poses[0], max(p.motion.width - 2 * tol, 1e-3), max(p.motion.depth - 2 * tol, 1e-3)
        )
    ).item()
    for f in near:
        if f.kind is not TerrainKind.HILL:
            continue
        touched = shapely.distance(start, f.polygon) <= tol and not shapely.intersects(inner, f.polygon)
        on_edge = (
            bool(shapely.covers(shapely.buffer(f.polygon, tol), final))
            and float(shapely.distance(final.exterior, f.polygon.exterior)) <= tol
        )
        if touched and on_edge:
            return str(f.id)
    return None


# --- flight and repulse (6.5, 6.6) --------------------------------------------------------------


def away_direction(bf: Battlefield, unit: str, enemy: str) -> tuple[float, float]:
    """6.5, 5.5.6 — the unit vector "directly away" from an enemy unit.

    Decision: from the centre of the enemy unit's bases to the centre of this unit's bases;
    if they coincide, straight back from this unit's facing.

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "bases": [{"x": 10, "y": 10, "facing": 90}]},
    ...     {"id": "b", "side": "B", "profile": inf, "bases": [{"x": 10, "y": 12, "facing": 270}]}]})
    >>> away_direction(Battlefield(sc), "a", "b")
    (0.0, -1.0)
    """
    own = bf.resolve(unit)
    foe = bf.resolve(enemy)
    dx = float(bf.x[own].mean() - bf.x[foe].mean())
    dy = float(bf.y[own].mean() - bf.y[foe].mean())
    norm = math.hypot(dx, dy)
    if norm < 1e-9:
        a = math.radians(float(bf.facing[own[0]]))
        return (-math.cos(a) + 0.0, -math.sin(a) + 0.0)
    return (dx / norm + 0.0, dy / norm + 0.0)


def flight_direction(bf: Battlefield, unit: str) -> tuple[float, float]:
    """6.6 — the direction of the unit's own table edge: side A's edge is y = 0, B's y = depth.

    Decision: the straight line to the own edge; avoiding fire and move ranges is the morale
    phase's job (it calls :func:`check_move` on each candidate flight).
    """
    u = bf.scenario.unit(unit)
    return (0.0, -1.0) if u.side == "A" else (0.0, 1.0)


@dataclass(frozen=True)
class RepulseCheck:
    """6.5 — a repulse move away from an enemy: whether it is blocked, where it goes."""

    blocked: bool
    direction: tuple[float, float]
    distance: float
    deflection: float
    report: MoveReport | None


#: Deflections (degrees) from straight away tried by :func:`repulse`, in order.
REPULSE_DEFLECTIONS_DEG: tuple[float, ...] = (0.0, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0)


def repulse(
    scenario: Scenario | Battlefield,
    unit: str,
    enemy: str,
    *,
    distance: float | None = None,
) -> RepulseCheck:
    """6.5 — a repulse: the full move directly away from ``enemy``, keeping formation and facing.

    Decision: the unit backs away in formation (every base moved by the same vector) by its
    move (``distance`` overrides it); when the straight line is not legal it tries going round
    (:data:`REPULSE_DEFLECTIONS_DEG`, up to 60° either side). Where terrain costs make the full
    distance too long, it goes as far as its move pays for. Blocked (6.5.5, the unit panics) when
    no direction gives a legal move. Zones of the enemy it starts in do not stop it.
    """
    bf = scenario if isinstance(scenario, Battlefield) else Battlefield(scenario)
    u_k = bf.unit_ids.index(unit)
    members = bf.unit_bases(u_k)
    full = distance if distance is not None else min(_speed(bf, u_k).values())
    ux, uy = away_direction(bf, unit, enemy)

    def attempt(dx: float, dy: float, length: float) -> MoveReport:
        poses = [
            {
                "index": int(bf.index_in_unit[b]),
                "x": float(bf.x[b]) + dx * length,
                "y": float(bf.y[b]) + dy * length,
                "facing": float(bf.facing[b]),
            }
            for b in members
        ]
        return check_move(bf, unit, {"bases": poses})

    for deflection in REPULSE_DEFLECTIONS_DEG:
        a = math.radians(deflection)
        dx = ux * math.cos(a) - uy * math.sin(a)
        dy = ux * math.sin(a) + uy * math.cos(a)
        try:
            report = attempt(dx, dy, full)
        except InvalidDataError:  # off the table
            continue
        if report.legal:
            return RepulseCheck(False, (dx, dy), full, deflection, report)
        if {v.rule for v in report.violations} == {"3.1.5"}:
            lo, hi = 0.0, full
            best: MoveReport | None = None
            for _ in range(20):
                mid = (lo + hi) / 2.0
                r = attempt(dx, dy, mid)
                if r.legal:
                    lo, best = mid, r
                else:
                    hi = mid
            if best is not None:
                return RepulseCheck(False, (dx, dy), lo, deflection, best)
    return RepulseCheck(True, (ux, uy), 0.0, 0.0, None)


__all__ = [
    "REPULSE_DEFLECTIONS_DEG",
    "AfterFire",
    "BaseMove",
    "MoveFile",
    "MovePose",
    "MoveReport",
    "RepulseCheck",
    "Violation",
    "away_direction",
    "check_move",
    "flight_direction",
    "load_move_file",
    "place",
    "repulse",
]
