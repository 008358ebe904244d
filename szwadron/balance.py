"""Balance of two armies (issue 7): side by side, the predicted chance of each, and how to even
them.

Each side is an army list with one of its rosters (an example roster by id, or a player's roster
file). The report gives, per side: points (the profiles' stored points; the model's where a
profile stores none), units and figures, firepower and melee power (expected reference figures
removed per turn by all figures together, :func:`szwadron.points.profile_values`), durability
(wound points and the figure-weighted mean M), speed (figure-weighted mean R) and the artillery
share of the points (guns and limbers).

**Predicted chance.** ``P(A) = σ(κ_u · log(points_A / points_B))``, where ``κ_u`` is the
steepness of battles between whole armies of ``u`` units a side (the mean of the two):
``κ_u = a · u^b``, fitted by ``szwadron points calibrate`` to battles of the example rosters
against copies of themselves made larger or smaller
(:func:`szwadron.armybattles.fit_army_steepness`) — many units turn a small edge in points into
a large chance. A model without it uses the duels' steepness. The prediction does not see the
composition of the two armies; ``szwadron balance --battles N`` plays them
(:func:`szwadron.armybattles.battle_pair`).

**Evening up.** The side with more points can drop figures of a profile it fields, or the
other side can add figures of a profile it fields; the suggestions are the whole numbers of
figures that come closest to the difference.

Examples
--------
>>> from szwadron.loading import bundled_dir, load_army_list
>>> fr = load_army_list(bundled_dir("armylists") / "france.toml")
>>> report = balance(fr, fr.roster("corps-1000"), fr, fr.roster("corps-1000"))
>>> report.chance_a
0.5
>>> report.suggestions
()
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from szwadron.models import ArmyList, Kind, Roster
from szwadron.points import PointsModel, load_model, profile_values


@dataclass(frozen=True)
class SideSummary:
    """One army as fielded, in the model's terms."""

    army: str
    roster: str
    points: float
    points_limit: float | None
    units: int
    figures: int
    fire: float
    """Expected reference figures removed per volley of every figure (approach average)."""
    melee: float
    """Expected reference figures removed per melee exchange of every figure."""
    wound_points: int
    mean_morale: float
    mean_speed: float
    artillery_share: float
    """Share of the points in guns and limbers."""
    model_priced: tuple[str, ...]
    """Profiles without stored points, priced by the model."""
    fielded: tuple[tuple[str, int, float], ...]
    """``(profile, figures, points per figure)`` of every fielded profile but limbers."""
    broken: tuple[str, ...] = ()
    """The constraints of its list (or its own) that the roster breaks, in words
    (:func:`szwadron.rosters.validate_roster`): the points are only fair inside them."""

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` view of one side."""
        return {
            "army": self.army,
            "roster": self.roster,
            "points": self.points,
            "points_limit": self.points_limit,
            "units": self.units,
            "figures": self.figures,
            "fire": self.fire,
            "melee": self.melee,
            "wound_points": self.wound_points,
            "mean_morale": self.mean_morale,
            "mean_speed": self.mean_speed,
            "artillery_share": self.artillery_share,
            "model_priced": list(self.model_priced),
            "broken": list(self.broken),
        }


@dataclass(frozen=True)
class Suggestion:
    """Add or remove whole figures of one profile on one side."""

    side: str
    """"A" or "B"."""
    change: int
    """Figures added (> 0) or removed (< 0)."""
    profile: str
    points: float
    """Points added or removed (signed)."""
    difference_after: float
    """Points of A minus points of B afterwards."""

    def __str__(self) -> str:
        verb = "add" if self.change > 0 else "remove"
        return (
            f"{self.side}: {verb} {abs(self.change)} × {self.profile} ({self.points:+.1f} points);"
            f" difference then {self.difference_after:+.1f}"
        )


@dataclass(frozen=True)
class BalanceReport:
    """Both sides, the predicted chances and the suggestions to even them."""

    a: SideSummary
    b: SideSummary
    chance_a: float
    steepness: float
    suggestions: tuple[Suggestion, ...]

    @property
    def chance_b(self) -> float:
        """Predicted chance of side B."""
        return 1.0 - self.chance_a

    @property
    def difference(self) -> float:
        """Points of A minus points of B."""
        return self.a.points - self.b.points

    def as_dict(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "a": self.a.as_dict(),
            "b": self.b.as_dict(),
            "difference": self.difference,
            "chance_a": self.chance_a,
            "chance_b": self.chance_b,
            "steepness": self.steepness,
            "predicted": "logistic of the points ratio (duel calibration); see szwadron.balance",
            "suggestions": [
                {"side": s.side, "change": s.change, "profile": s.profile, "points": s.points,
                 "difference_after": s.difference_after}
                for s in self.suggestions
            ],
        }


def summarise(army: ArmyList, roster: Roster, model: PointsModel | None = None) -> SideSummary:
    """One side's totals (module notes)."""
    model = model or load_model()
    from szwadron.rosters import validate_roster

    report = validate_roster(army, roster)  # malformed rosters raise InvalidDataError
    figures: dict[str, int] = {}
    units = 0
    for entry in roster.units:
        units += entry.count
        figures[entry.profile] = figures.get(entry.profile, 0) + entry.figures * entry.count
        for att in entry.attached:
            figures[att.profile] = figures.get(att.profile, 0) + att.figures * entry.count
    points = fire = melee = morale = speed = art = 0.0
    wounds = count = 0
    priced: list[str] = []
    fielded: list[tuple[str, int, float]] = []
    for pid, n in figures.items():
        prof = army.profile(pid)
        if prof.points is None:
            price = model.points(prof)
            priced.append(pid)
        else:
            price = prof.points
        points += price * n
        if prof.kind.is_artillery or prof.kind is Kind.LIMBER:
            art += price * n
        if prof.kind is Kind.LIMBER:
            continue
        fielded.append((pid, n, price))
        v = profile_values(prof)
        fire += v.fire * n
        melee += v.melee * n
        wounds += prof.wounds * n
        morale += prof.morale * n
        speed += v.speed * n
        count += n
    return SideSummary(
        army=army.id,
        roster=roster.id,
        points=round(points, 9),
        points_limit=roster.points_limit,
        units=units,
        figures=sum(figures.values()),
        fire=fire,
        melee=melee,
        wound_points=wounds,
        mean_morale=morale / count if count else 0.0,
        mean_speed=speed / count if count else 0.0,
        artillery_share=art / points if points else 0.0,
        model_priced=tuple(sorted(priced)),
        fielded=tuple(sorted(fielded)),
        broken=tuple(str(b) for b in report.broken),
    )


def predicted_chance(points_a: float, points_b: float, steepness: float) -> float:
    """``σ(κ · log(points_A / points_B))`` (module notes).

    >>> predicted_chance(1000, 1000, 2.0), round(predicted_chance(1100, 1000, 2.0), 4)
    (0.5, 0.5475)
    """
    if points_a <= 0 or points_b <= 0:
        return 1.0 if points_a > points_b else (0.0 if points_b > points_a else 0.5)
    return 1.0 / (1.0 + math.exp(-steepness * math.log(points_a / points_b)))


def suggestions(a: SideSummary, b: SideSummary, *, limit: int = 4) -> list[Suggestion]:
    """Whole figures to add to the lighter side or remove from the heavier one, the closest to
    the difference first."""
    diff = a.points - b.points
    if abs(diff) < 1e-9:
        return []
    heavy, light = (a, b) if diff > 0 else (b, a)
    heavy_tag, light_tag = ("A", "B") if diff > 0 else ("B", "A")
    gap = abs(diff)
    out: list[Suggestion] = []
    for pid, n, price in heavy.fielded:
        k = min(n - 1, max(1, round(gap / price)))
        if k >= 1:
            after = gap - k * price
            out.append(Suggestion(heavy_tag, -k, pid, -k * price, after if diff > 0 else -after))
    for pid, _, price in light.fielded:
        k = max(1, round(gap / price))
        after = gap - k * price
        out.append(Suggestion(light_tag, k, pid, k * price, after if diff > 0 else -after))
    out.sort(key=lambda s: (abs(s.difference_after), abs(s.change), s.side, s.profile))
    return out[:limit]


def balance(
    army_a: ArmyList, roster_a: Roster, army_b: ArmyList, roster_b: Roster, model: PointsModel | None = None
) -> BalanceReport:
    """The balance report of two armies (module notes)."""
    model = model or load_model()
    a = summarise(army_a, roster_a, model)
    b = summarise(army_b, roster_b, model)
    kappa = model.steepness_for((a.units + b.units) / 2)
    chance = predicted_chance(a.points, b.points, kappa)
    return BalanceReport(a, b, chance, kappa, tuple(suggestions(a, b)))


__all__ = ["BalanceReport", "SideSummary", "Suggestion", "balance", "predicted_chance", "suggestions", "summarise"]
