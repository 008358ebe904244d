"""6.5, 6.6 — which way is away, and a repulse: the full move directly away from an enemy,
checked by :func:`~szwadron.table.movement.check_move`."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from szwadron.errors import InvalidDataError
from szwadron.geometry.arcs import fire_edges, in_arcs, touched_edges
from szwadron.geometry.bases import EDGE_NAMES
from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.contact import polygon_distance
from szwadron.models import Scenario
from szwadron.table.movement.check import check_move
from szwadron.table.movement.plan import base_speeds
from szwadron.table.movement.report import MoveReport

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


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
    """6.5 — a repulse move away from an enemy: whether it is blocked, where it goes, and
    whether it ends out of the enemy's field of fire (6.5.2)."""

    blocked: bool
    direction: tuple[float, float]
    distance: float
    deflection: float
    report: MoveReport | None
    out_of_fire: bool = True


def fire_fields(bf: Battlefield, enemy: str) -> list[tuple[FloatArray, BoolArray, float]]:
    """4.4.1-4.4.3, 4.5.1 — for each figure of the enemy unit that fires: its corners, the edges
    it may fire through (its kind's edges, 4.4.3, not touched by an own base, 4.4.2) and its Z.
    A figure that does not fire (SO 0 or Z 0) has no field of fire."""
    k = bf.unit_ids.index(enemy)
    unit = bf.scenario.units[k]
    mine = bf.unit_bases(k)
    own_side = np.flatnonzero(bf.side == bf.side[mine[0]])
    out: list[tuple[FloatArray, BoolArray, float]] = []
    for b in mine.tolist():
        prof = unit.base_profile(int(bf.index_in_unit[b]))
        if prof.fire <= 0 or prof.range <= 0:
            continue
        kinds = fire_edges(prof.kind)
        others = bf.corners[own_side[own_side != b]]
        usable = np.asarray([e in kinds for e in EDGE_NAMES]) & ~touched_edges(bf.corners[b], others)
        out.append((bf.corners[b], usable, float(prof.range)))
    return out


def in_field_of_fire(
    bf: Battlefield,
    enemy: str,
    corners: npt.ArrayLike,
    fields: list[tuple[FloatArray, BoolArray, float]] | None = None,
) -> bool:
    """6.5.2, 4.4.1-4.4.3, 4.5.1 — is any of the bases ``corners (K, 4, 2)`` in the enemy unit's
    field of fire ("pole ostrzału"): its centre in the arc of an edge a figure of the enemy may
    fire through and within that figure's range Z, edge to edge — the test the fire check makes of
    a target (4.5.3). ``fields``: :func:`fire_fields` of the enemy, when already known.

    Decision: the enemy's bases where they stand (a repulse moves only the repulsed unit)."""
    c = np.asarray(corners, dtype=float).reshape(-1, 4, 2)
    centres = c.mean(axis=1)
    eps = bf.settings.distance_epsilon_cm
    for own, usable, reach in fire_fields(bf, enemy) if fields is None else fields:
        in_arc = (in_arcs(own[None], centres) & usable).any(axis=-1)
        near = polygon_distance(own[None], c) <= reach + eps
        if bool((in_arc & near).any()):
            return True
    return False


#: Deflections (degrees) from straight away tried by :func:`repulse`, in order.
REPULSE_DEFLECTIONS_DEG: tuple[float, ...] = (0.0, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0)


def _onto_obstacles(report: MoveReport) -> MoveReport:
    """6.5.2 — a repulsed unit "może ... wejść na przeszkodę terenową" (may go onto a terrain
    obstacle): ending on a fence or a low wall (3.2.3) does not stop its move; the report keeps it
    as a note."""
    on = [v for v in report.violations if v.rule == "3.2.3"]
    if not on:
        return report
    kept = tuple(v for v in report.violations if v.rule != "3.2.3")
    notes = tuple(f"6.5.2: {v.message} (a repulsed unit may go onto an obstacle)" for v in on)
    return replace(report, violations=kept, notes=report.notes + notes)


def _furthest_legal(attempt: Callable[[float], MoveReport], full: float) -> tuple[float, MoveReport] | None:
    """The longest legal move of ``attempt`` (a length, bisected: terrain costs or the table's
    edge cut it short), or None; a pose off the table is not legal."""
    lo, hi = 0.0, full
    best: MoveReport | None = None
    for _ in range(20):
        mid = (lo + hi) / 2.0
        try:
            r = attempt(mid)
        except InvalidDataError:
            r = None
        if r is not None and r.legal:
            lo, best = mid, r
        else:
            hi = mid
    return None if best is None else (lo, best)


def repulse(
    scenario: Scenario | Battlefield,
    unit: str,
    enemy: str,
    *,
    distance: float | None = None,
    leave_fire: bool = True,
    direction: tuple[float, float] | None = None,
) -> RepulseCheck:
    """6.5 — a repulse: the full move directly away from ``enemy``, keeping formation and facing.

    Decision: the unit backs away in formation (every base moved by the same vector) by its
    move (``distance`` overrides it); when the straight line is not legal it tries going round
    (:data:`REPULSE_DEFLECTIONS_DEG`, up to 60° either side). Where terrain costs make the full
    distance too long, it goes as far as its move pays for. Blocked (6.5.5, the unit panics) when
    no direction gives a legal move. Zones of the enemy it starts in do not stop it.

    6.5.2: the move must also take it out of the enemy's field of fire (:func:`in_field_of_fire`).
    Decision: of the legal moves in the order of :data:`REPULSE_DEFLECTIONS_DEG`, the first that
    ends out of it; when none does (the move is too short to leave it), the first legal move,
    with ``out_of_fire`` false — it still moves (6.5.5 makes it panic only when it cannot move);
    ``leave_fire=False``: the first legal move, as far as it goes up to the table's edge too (a
    disengagement, 5.8.2, only moves away, up to R); ``direction`` replaces "away from ``enemy``"."""
    bf = Battlefield.of(scenario)
    u_k = bf.unit_ids.index(unit)
    members = bf.unit_bases(u_k)
    full = distance if distance is not None else min(base_speeds(bf, u_k).values())
    ux, uy = direction if direction is not None else away_direction(bf, unit, enemy)

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
        return _onto_obstacles(check_move(bf, unit, {"bases": poses}))

    fields = fire_fields(bf, enemy)

    def ends_out_of_fire(dx: float, dy: float, length: float) -> bool:
        return not in_field_of_fire(bf, enemy, bf.corners[members] + np.asarray([dx, dy]) * length, fields)

    first: RepulseCheck | None = None
    for deflection in REPULSE_DEFLECTIONS_DEG:
        a = math.radians(deflection)
        dx = ux * math.cos(a) - uy * math.sin(a)
        dy = ux * math.sin(a) + uy * math.cos(a)
        report: MoveReport | None = None
        try:
            report = attempt(dx, dy, full)
        except InvalidDataError:  # off the table: a repulse cannot; a disengagement goes less far
            if leave_fire:
                continue
        found: RepulseCheck | None = None
        if report is not None and report.legal:
            found = RepulseCheck(False, (dx, dy), full, deflection, report)
        elif report is None or {v.rule for v in report.violations} == {"3.1.5"}:
            best = _furthest_legal(functools.partial(attempt, dx, dy), full)
            if best is not None:
                found = RepulseCheck(False, (dx, dy), best[0], deflection, best[1])
        if found is None:
            continue
        if not leave_fire:
            return replace(found, out_of_fire=ends_out_of_fire(dx, dy, found.distance))
        if ends_out_of_fire(dx, dy, found.distance):
            return found
        if first is None:
            first = found
    if first is not None:
        return replace(first, out_of_fire=False)
    return RepulseCheck(True, (ux, uy), 0.0, 0.0, None)


__all__ = [
    "REPULSE_DEFLECTIONS_DEG",
    "RepulseCheck",
    "away_direction",
    "fire_fields",
    "flight_direction",
    "in_field_of_fire",
    "repulse",
]
