"""Balance of two armies (issue 7): side by side, the predicted chance of each, and how to even
them.

Each side is an army list with one of its rosters (an example roster by id, or a player's roster
file). The report gives, per side: points (the profiles' stored points; the model's where a
profile stores none), units and figures, firepower and melee power (expected reference figures
removed per turn by all figures together, :func:`szwadron.armies.points.profile_values`), durability
(wound points and the figure-weighted mean M), speed (figure-weighted mean R) and the artillery
share of the points (guns and limbers).

**Predicted chance.** ``P(A) = σ(κ_u · log(points_A / points_B))``, where ``κ_u`` is the
steepness of battles between whole armies of ``u`` units a side (the mean of the two):
``κ_u = a · u^b``, fitted by ``szwadron points calibrate`` to battles of the example rosters
against copies of themselves made larger or smaller
(:func:`szwadron.armies.battles.fit_army_steepness`) — many units turn a small edge in points into
a large chance. A model without it uses the duels' steepness. The prediction does not see the
composition of the two armies; ``szwadron balance --battles N`` plays them
(:func:`szwadron.armies.battles.battle_pair`).

**Evening up.** The side with more points can drop whole units of one of its roster entries, or
figures from each unit of one; the other side can add them (:func:`suggestions`). Every
suggestion is a roster edit checked against the list's constraints — unit sizes, shares, the
points limit — so it never asks for a 24-figure battalion or a roster over its limit; the ones
that come closest to even are shown, one per roster entry.

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

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from szwadron.armies.points import PointsModel, load_model, profile_values
from szwadron.armies.rosters import size_factor, unit_cost, unit_figures, validate_roster
from szwadron.i18n import _, ngettext
from szwadron.models import ArmyList, Kind, Roster


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
    (:func:`szwadron.armies.rosters.validate_roster`): the points are only fair inside them."""

    def to_json(self) -> dict[str, Any]:
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
    """A roster edit on one side: whole units of one of its roster entries added or removed, or
    figures added to or removed from each unit of an entry. Every suggestion leaves the roster
    inside its list's constraints (unit sizes, shares, its points limit) unless it broke them
    already."""

    side: str
    """"A" or "B"."""
    change: int
    """Figures added (> 0) or removed (< 0), all units together."""
    profile: str
    """The entry's own profile."""
    points: float
    """Points added or removed (signed)."""
    difference_after: float
    """Points of A minus points of B afterwards."""
    entry: int = 0
    """Index of the roster entry (``units[i]``) it changes."""
    units: int = 0
    """Whole units added (> 0) or removed (< 0); 0 when each unit's figures change."""
    unit_figures: int = 0
    """Figures of each unit of the entry afterwards (its own and attached, as fielded)."""

    def __str__(self) -> str:
        values = {
            "profile": self.profile,
            "entry": self.entry,
            "points": f"{self.points:+.1f}",
            "after": f"{self.difference_after:+.1f}",
        }
        if self.units:
            n = abs(self.units)
            each = ngettext("{n} figure", "{n} figures", self.unit_figures).format(n=self.unit_figures)
            if self.change > 0:
                text = ngettext(
                    "add {n} unit of {profile} (units[{entry}], {each} each; {points} points); difference then {after}",
                    "add {n} units of {profile} (units[{entry}], {each} each; {points} points); difference then {after}",
                    n,
                )
            else:
                text = ngettext(
                    "remove {n} unit of {profile} (units[{entry}], {each} each; {points} points); "
                    "difference then {after}",
                    "remove {n} units of {profile} (units[{entry}], {each} each; {points} points); "
                    "difference then {after}",
                    n,
                )
            what = text.format(n=n, each=each, **values)
        elif self.change > 0:
            what = _(
                "add {n} × {profile} (units[{entry}] then of {size} figures each; {points} points); "
                "difference then {after}"
            ).format(n=abs(self.change), size=self.unit_figures, **values)
        else:
            what = _(
                "remove {n} × {profile} (units[{entry}] then of {size} figures each; {points} points); "
                "difference then {after}"
            ).format(n=abs(self.change), size=self.unit_figures, **values)
        return f"{self.side}: {what}"


@dataclass(frozen=True)
class BalanceReport:
    """Both sides, the predicted chances and the suggestions to even them."""

    a: SideSummary
    b: SideSummary
    chance_a: float
    steepness: float
    suggestions: tuple[Suggestion, ...]
    target: float = 0.0
    """The points difference A − B the suggestions aim at: 0 (even points), or from play the
    difference that evens the played chance (:func:`evened_by_play`)."""

    @property
    def chance_b(self) -> float:
        """Predicted chance of side B."""
        return 1.0 - self.chance_a

    @property
    def difference(self) -> float:
        """Points of A minus points of B."""
        return self.a.points - self.b.points

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document."""
        return {
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "difference": self.difference,
            "chance_a": self.chance_a,
            "chance_b": self.chance_b,
            "steepness": self.steepness,
            "predicted": "logistic of the points ratio (duel calibration); see szwadron.balance",  # wording frozen by the JSON snapshot (issue 13)
            "suggestions_target": self.target,
            "suggestions": [
                {
                    "side": s.side,
                    "change": s.change,
                    "profile": s.profile,
                    "points": s.points,
                    "difference_after": s.difference_after,
                    "entry": s.entry,
                    "units": s.units,
                    "unit_figures": s.unit_figures,
                }
                for s in self.suggestions
            ],
        }


def summarise(army: ArmyList, roster: Roster, model: PointsModel | None = None) -> SideSummary:
    """One side's totals (module notes)."""
    model = model or load_model()

    report = validate_roster(army, roster)  # malformed rosters raise InvalidDataError
    figures: dict[str, int] = {}
    sized: dict[str, float] = {}  # figures of each profile weighted by the list's unit-size price
    units = 0
    for entry in roster.units:
        units += entry.count
        factor = size_factor(army, entry)
        figures[entry.profile] = figures.get(entry.profile, 0) + entry.figures * entry.count
        sized[entry.profile] = sized.get(entry.profile, 0.0) + entry.figures * entry.count * factor
        for att in entry.attached:
            figures[att.profile] = figures.get(att.profile, 0) + att.figures * entry.count
            sized[att.profile] = sized.get(att.profile, 0.0) + att.figures * entry.count
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
        points += price * sized[pid]
        if prof.kind.is_artillery or prof.kind is Kind.LIMBER:
            art += price * sized[pid]
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


def _edits(
    army: ArmyList, roster: Roster, gap: float, add: bool, prices: dict[str, float]
) -> list[tuple[Roster, int, int, int, int]]:
    """Candidate edits of ``roster`` towards a change of ``gap`` points at ``prices`` (profile id
    → points per figure): ``(edited roster, entry, units changed, figures changed, figures per
    unit after)``. ``add``: more units or figures, else fewer."""

    out: list[tuple[Roster, int, int, int, int]] = []
    units = list(roster.units)
    for i, e in enumerate(units):
        size = unit_figures(army, e)
        # whole units: up to the count (removing) or a little past the gap (adding)
        price = unit_cost(army, e, prices)
        most = e.count if not add else max(1, math.ceil(gap / price) + 1 if price > 0 else 1)
        for k in range(1, min(most, MAX_UNITS_CHANGED) + 1):
            count = e.count + k if add else e.count - k
            edited = units[:i] + ([e.model_copy(update={"count": count})] if count else []) + units[i + 1 :]
            if edited:
                out.append(
                    (
                        roster.model_copy(update={"units": tuple(edited)}),
                        i,
                        k if add else -k,
                        (k if add else -k) * size,
                        size,
                    )
                )
        # figures of each unit of the entry
        for k in range(1, MAX_FIGURES_CHANGED + 1):
            figures = e.figures + k if add else e.figures - k
            if figures < 1:
                break
            edited = [*units[:i], e.model_copy(update={"figures": figures}), *units[i + 1 :]]
            delta = (k if add else -k) * e.count
            out.append(
                (roster.model_copy(update={"units": tuple(edited)}), i, 0, delta, size + (k if add else -k))
            )
    return out


#: Most whole units, and most figures a unit, one suggestion adds or removes.
MAX_UNITS_CHANGED = 6
MAX_FIGURES_CHANGED = 3


def suggestions(
    a: SideSummary,
    b: SideSummary,
    sides: tuple[tuple[ArmyList, Roster], tuple[ArmyList, Roster]] | None = None,
    *,
    model: PointsModel | None = None,
    limit: int = 4,
    target: float = 0.0,
) -> list[Suggestion]:
    """Roster edits that bring the points difference A − B to ``target`` (0: even points; from
    play, the difference that evens the played chance, :meth:`PairResult.evening`): the side
    that should field less drops whole units or figures of a unit it fields, or the other side
    adds them (:class:`Suggestion`), each checked against the roster's list
    (:func:`szwadron.armies.rosters.validate_roster`: no constraint broken that was not broken
    before, the points limit included) and closer to ``target`` than before; the closest first,
    at most one per side and entry. ``sides`` are the two ``(army, roster)`` summarised as ``a``
    and ``b`` (without them no edit can be checked, and none is suggested)."""

    diff = a.points - b.points
    toward = target - diff
    if abs(toward) < 1e-9 or sides is None:
        return []
    model = model or load_model()
    gap = abs(toward)
    out: list[Suggestion] = []
    for tag, (army, roster), summary in (("A", sides[0], a), ("B", sides[1], b)):
        add = (tag == "A") == (toward > 0)  # A adds (or B removes) to raise A − B
        prices = {p.id: (p.points if p.points is not None else model.points(p)) for p in army.profiles}
        broken = validate_roster(army, roster, points=prices).broken
        before = {(x.constraint, x.measure) for x in broken}
        flawed = {x.entry for x in broken if x.entry is not None}
        best: dict[int, Suggestion] = {}
        for edited, entry, units, figures, size in _edits(army, roster, gap, add, prices):
            if add and entry in flawed:
                continue  # no more of a unit that already breaks a constraint (its size)
            report = validate_roster(army, edited, points=prices)
            if any((x.constraint, x.measure) not in before for x in report.broken):
                continue
            assert report.points is not None
            change = report.points - summary.points
            after = diff + change if tag == "A" else diff - change
            if abs(after - target) >= abs(toward) - 1e-9:
                continue  # overshoots: further from the target than before
            cand = Suggestion(tag, figures, roster.units[entry].profile, change, after, entry, units, size)
            kept = best.get(entry)
            if kept is None or (abs(after - target), abs(figures)) < (
                abs(kept.difference_after - target),
                abs(kept.change),
            ):
                best[entry] = cand
        out += best.values()
    out.sort(key=lambda x: (abs(x.difference_after - target), abs(x.change), x.side, x.entry))
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
    edits = suggestions(a, b, ((army_a, roster_a), (army_b, roster_b)), model=model)
    return BalanceReport(a, b, chance, kappa, tuple(edits))


def evened_by_play(
    report: BalanceReport,
    even: tuple[str, float, float] | None,
    sides: tuple[tuple[ArmyList, Roster], tuple[ArmyList, Roster]],
    model: PointsModel | None = None,
) -> BalanceReport:
    """The report with its suggestions aimed at the played chance instead of the points:
    ``even`` is :meth:`szwadron.armies.battles.PairResult.evening` (the stronger side and the
    points it would field less); ``None`` — 50 % inside the played chance's 95 % interval — leaves
    nothing to even, so no edit is suggested. The points alone can point the other way (a side
    that plays better than its points), which is why play, not points, sets the target."""
    if even is None:
        return dataclasses.replace(report, suggestions=())
    tag, less, _more = even
    diff = report.difference
    target = diff - less if tag == "A" else diff + less
    edits = suggestions(report.a, report.b, sides, model=model, target=target)
    return dataclasses.replace(report, suggestions=tuple(edits), target=target)


__all__ = [
    "BalanceReport",
    "SideSummary",
    "Suggestion",
    "balance",
    "evened_by_play",
    "predicted_chance",
    "suggestions",
    "summarise",
]
