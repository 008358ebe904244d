"""1.3.2, 6.8.5, 6.8.6 — the move that makes a unit coherent again: after losses (1.3.2: in its
first own move) and after reorganisation (6.8.5: at once, up to R with terrain, entering no enemy
control zone, charging nobody; 6.8.6: the unit then takes no action in that movement phase).

:func:`reform` proposes such a move and checks it with
:func:`~szwadron.table.movement.check_move` (which holds every move to 1.3.3: coherent at its end).

Decision (the move proposed, "as quickly as possible", 6.8.5): the largest group of touching
bases stays (on a tie, the one holding the unit's first base); every other group, nearest first,
slides rigidly, facing kept, straight towards the bases already gathered along the shortest line
between them, until it touches them (within the PD-3 contact tolerance). That is the least
movement that joins the groups one by one; a player may of course make another legal move. When
the proposal is illegal (it would cross figures, enter a zone, go beyond R), the answer says so
and the rule broken: the player must find another way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from szwadron.errors import InvalidDataError
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import _, term
from szwadron.models import Scenario, UnitState
from szwadron.table.movement.check import check_move
from szwadron.table.movement.plan import coherent_groups
from szwadron.table.movement.report import MoveReport


@dataclass(frozen=True)
class ReformResult:
    """The answer of :func:`reform`.

    ``groups`` are the unit's groups of touching bases before the move (base names); ``move`` the
    proposed move file data (``None`` when the unit is already coherent); ``report`` its check;
    ``legal`` whether it is a legal move that leaves the unit coherent."""

    unit: str
    groups: tuple[tuple[str, ...], ...]
    move: dict[str, Any] | None
    report: MoveReport | None

    @property
    def needed(self) -> bool:
        """Whether the unit is incoherent and must move to re-form."""
        return len(self.groups) > 1

    @property
    def legal(self) -> bool:
        """Already coherent, or the proposed move is legal (1.3.3 included)."""
        return not self.needed or (self.report is not None and self.report.legal)

    def to_json(self) -> dict[str, Any]:
        """The ``move --reform --json`` document."""
        return {
            "unit": self.unit,
            "needed": self.needed,
            "legal": self.legal,
            "groups": [list(g) for g in self.groups],
            "proposed": None if self.move is None else self.move["bases"],
            "move": None if self.report is None else self.report.to_json(),
        }


def reform(scenario: Scenario | Battlefield, unit: str) -> ReformResult:
    """1.3.2, 6.8.5 — the move that makes ``unit`` coherent again, proposed and checked.

    The unit is taken as it stands; a unit that has just reorganised (6.8.4) is normal again, so
    a unit still marked in panic or pursuit is refused (reorganise it first).

    Raises
    ------
    InvalidDataError
        An unknown unit, or one in panic or pursuit.

    Examples
    --------
    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
    ...     {"id": "a", "side": "A", "profile": inf, "bases": [
    ...         {"x": 10, "y": 10, "facing": 90}, {"x": 14, "y": 10, "facing": 90}]}]})
    >>> r = reform(sc, "a")          # the middle figure was lost: a/1 closes up 2 cm
    >>> r.needed, r.legal, round(r.move["bases"][0]["x"], 2)
    (True, True, 12.02)
    """
    bf = Battlefield.of(scenario)
    if unit not in bf.unit_ids:
        bf.resolve(unit)
        raise InvalidDataError(
            _("{unit} names a base; a re-forming move is of a unit").format(unit=repr(unit))
        )
    u = bf.scenario.unit(unit)
    if u.state is not UnitState.NORMAL:
        raise InvalidDataError(
            _(
                "{unit} is in {state}: it re-forms after it reorganises (6.8.4, 6.8.5); set its state to "
                "normal first"
            ).format(unit=unit, state=term(u.state.value))
        )
    members = bf.resolve(unit)
    corners = bf.corners[members].copy()
    labels = coherent_groups(bf, corners, bf.skirmishers[members])
    order = sorted(
        set(labels.tolist()), key=lambda g: (-int((labels == g).sum()), int(np.argmax(labels == g)))
    )
    groups = tuple(tuple(bf.base_ids[members[i]] for i in np.flatnonzero(labels == g)) for g in order)
    if len(order) < 2:
        return ReformResult(unit, groups, None, None)
    gap_target = bf.settings.contact_tolerance_cm * 0.4
    gathered = np.flatnonzero(labels == order[0]).tolist()
    rest = [np.flatnonzero(labels == g).tolist() for g in order[1:]]
    moved: set[int] = set()
    while rest:
        here = shapely.union_all(shapely.polygons(corners[gathered]))
        dists = [shapely.distance(shapely.union_all(shapely.polygons(corners[g])), here) for g in rest]
        g = rest.pop(int(np.argmin(dists)))
        line = shapely.shortest_line(shapely.union_all(shapely.polygons(corners[g])), here)
        (x0, y0), (x1, y1) = line.coords
        length = float(np.hypot(x1 - x0, y1 - y0))
        if length > gap_target:
            step = (length - gap_target) / length
            corners[g] += np.asarray([(x1 - x0) * step, (y1 - y0) * step])
            moved.update(g)
        gathered += g
    poses = []
    for i in sorted(moved):
        b = int(members[i])
        c = corners[i].mean(axis=0)
        poses.append(
            {
                "index": int(bf.index_in_unit[b]),
                "x": float(c[0]),
                "y": float(c[1]),
                "facing": float(bf.facing[b]),
            }
        )
    move = {"bases": poses}
    report = check_move(bf, unit, move, source="re-forming move")
    return ReformResult(unit, groups, move, report)


__all__ = ["ReformResult", "reform"]
