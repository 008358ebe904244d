"""Section 4 — ``szwadron targets``: every enemy unit a unit could fire at now, ranked, and the
ones it cannot, each with the rule that stops it.
"""

from __future__ import annotations

from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.models import Scenario
from szwadron.table.fire.resolve import resolve_fire
from szwadron.table.fire.results import TargetsReport
from szwadron.table.fire.units import unit_index


def targets(
    scenario: Scenario | Battlefield,
    shooter: str,
    *,
    march: bool = False,
    ammunition: str | None = None,
    method: PairMethod = "index",
) -> TargetsReport:
    """Section 4 — every enemy unit ``shooter`` could fire at now, ranked by expected figures
    removed (then by the chance of repulse or panic, then file order), and the ones it cannot,
    each with the rule that stops it (see :func:`~szwadron.table.fire.fire`).

    >>> from szwadron.models import Scenario
    >>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
    ...        "Z": 24, "UW": 3, "C": 3, "M": 4}
    >>> one = lambda u, s, x, y, f: {"id": u, "side": s, "profile": inf,
    ...                              "bases": [{"x": x, "y": y, "facing": f}]}
    >>> sc = Scenario.model_validate({"name": "t", "table": {"width": 90, "depth": 90}, "units": [
    ...     one("a", "A", 40, 10, 90), one("near", "B", 40, 20, 270),
    ...     one("far", "B", 50, 30, 270), one("gone", "B", 40, 80, 270)]})
    >>> rep = targets(sc, "a")
    >>> [r.target for r in rep.possible], [(r.target, r.reason.rule) for r in rep.impossible]
    (['near', 'far'], [('gone', '4.5.1')])
    """
    bf = Battlefield.of(scenario)
    sk = unit_index(bf, shooter, "shooter")
    side = bf.scenario.units[sk].side
    results = [
        resolve_fire(bf, sk, k, bases=None, march=march, ammunition=ammunition, method=method)
        for k, u in enumerate(bf.scenario.units)
        if u.side != side
    ]
    possible = sorted(
        (r for r in results if r.legal),
        key=lambda r: (-r.expected, -(r.probability("repulsed") + r.probability("panic"))),
    )
    impossible = tuple(r for r in results if not r.legal)
    return TargetsReport(bf.unit_ids[sk], tuple(possible), impossible)


__all__ = ["targets"]
