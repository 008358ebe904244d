"""Rosters (issue 7): checking an army as fielded against its list's constraints and limits.

A roster is a list of units, each ``count`` times ``figures`` figures of one profile, optionally
with ``attached`` figures of other profiles (an elite company, 1.1; a gun's limber, 7.2). Rosters
live in two places:

- as examples inside an army list (``[[rosters]]``), checked by id:
  ``validate_roster(army, "corps-1000")``;
- in a player's own roster file, which names its list and may add constraints of its own::

      army = "france"                # army list id, looked up like a scenario's lists
      id = "my-corps"
      points_limit = 1000            # optional
      [[units]]
      profile = "line_infantry"
      figures = 10
      count = 3
      attached = [{ profile = "grenadiers", figures = 2 }]

  read with :func:`load_roster`.

The constraints (``[[constraints]]`` of the list and of the roster, see
:class:`~szwadron.models.RosterConstraint`) are data: a selector (profiles, kinds, abilities) and
limits on the units, figures or share of points, figures or units it selects. Three checks are
built in: the roster's ``points_limit``, rule 7.2 (a gun whose profile has a limbered move is
fielded with one limber per gun figure) and what may be attached to a unit: figures of other
profiles at most a quarter of its fighting figures (:data:`ATTACHED_MAX_SHARE`), none with a higher
M than the unit's own (:data:`ATTACHED_MORALE_ID`; issue 14).

Points are per figure. Until the points model sets them, profiles carry none: then the structure
(counts, shares of figures and units, 7.2) is checked and the points limit and shares of points
are reported as *unchecked*, not as broken. A ``points`` map (profile id → points per figure)
supplies or overrides the profiles' points.

Malformed input (an unknown profile or roster, an impossible constraint, a bad points map)
raises :class:`~szwadron.errors.InvalidDataError`; a well-formed roster that breaks a constraint
gives a :class:`RosterReport` whose ``broken`` lists every breach.

>>> from szwadron.loading import bundled_dir, load_army_list
>>> army = load_army_list(bundled_dir("armylists") / "france.toml")
>>> report = validate_roster(army, "corps-1000")
>>> report.ok, report.points <= 1000, report.unchecked
(True, True, ())
>>> cheaper = validate_roster(army, "corps-1000", points={"line_infantry": 7.0})
>>> line = sum(e.figures * e.count for e in army.roster("corps-1000").units if e.profile == "line_infantry")
>>> round(cheaper.points - report.points, 1) == round(line * (7.0 - army.profile("line_infantry").points), 1)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from szwadron.errors import InvalidDataError
from szwadron.i18n import N_, _, ngettext, pgettext, term
from szwadron.loading import ProfileResolver, army_list_search_path, read_toml, source_name, validate
from szwadron.models import (
    ArmyList,
    Kind,
    Profile,
    Roster,
    RosterConstraint,
    RosterEntry,
    RosterFile,
    ShareOf,
)
from szwadron.rulings import Ruling

#: Id under which a broken points limit is reported.
POINTS_LIMIT_ID = "points_limit"
#: Id under which rule 7.2 (limbers) is reported.
LIMBERS_ID = "limbers"
LIMBERS_RULE = N_("7.2: a gun that moves with its limber is fielded with one limber per gun figure")
#: Id under which the attached figures' share of a unit is reported (issue 14).
ATTACHED_ID = "attached-share"
#: Most share of a unit's fighting figures that may be attached figures of other profiles.
ATTACHED_MAX_SHARE = 0.25
ATTACHED_RULE = N_(
    "1.1: figures of other profiles attached to a unit (an elite company) are at most a quarter of "
    "its fighting figures (project decision: the rules are silent)"
)
#: Id under which an attached company of higher morale than its unit is reported (issue 14).
ATTACHED_MORALE_ID = "attached-morale"
ATTACHED_MORALE_RULE = N_(
    "1.1, 6.2: a unit tests morale on its own M, so figures attached to it may not have a higher M than its "
    "own (their M would be paid for and never used; project decision: the rules are silent)"
)
#: Shares are compared with this tolerance (floating-point points).
SHARE_EPSILON = 1e-9

Bound = Literal["min", "max"]


def _num(x: float) -> str:
    """A count or points value as written by a person: ``12``, ``12.5``."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _plural(n: float, word: str) -> str:
    """``n`` of ``word`` (``unit``, ``figure``, ``attached figure``, ``gun figure``, ``limber``)."""
    k = int(n) if float(n).is_integer() else 2
    if word == "unit":
        text = ngettext("{n} unit", "{n} units", k)
    elif word == "figure":
        text = ngettext("{n} figure", "{n} figures", k)
    elif word == "attached figure":
        text = ngettext("{n} attached figure", "{n} attached figures", k)
    elif word == "gun figure":
        text = ngettext("{n} gun figure", "{n} gun figures", k)
    else:
        text = ngettext("{n} limber", "{n} limbers", k)
    return text.format(n=_num(n))


def _bound_text(bound: Bound, limit: str) -> str:
    """``at least 3 needed`` / ``at most 3 allowed``."""
    if bound == "min":
        return _("at least {limit} needed").format(limit=limit)
    return _("at most {limit} allowed").format(limit=limit)


def _share_of_text(of: ShareOf) -> str:
    """``the points`` / ``the figures`` / ``the units`` (what a share is of)."""
    if of is ShareOf.POINTS:
        return pgettext("share of", "the points")
    if of is ShareOf.FIGURES:
        return pgettext("share of", "the figures")
    return pgettext("share of", "the units")


@dataclass(frozen=True)
class Breach(Ruling):
    """One broken constraint: a :class:`~szwadron.rulings.Ruling` whose ``rule`` is the
    constraint in words and whose ``message`` says what was found (``3 units; at most 2
    allowed``), with what was measured, its value and the limit it broke. ``where`` names the
    roster entry (``units[i]``) for the checks of one entry (unit sizes, limbers)."""

    constraint: str = field(kw_only=True)
    """Id of the constraint (``points_limit`` and ``limbers`` for the built-in checks)."""
    measure: str = field(kw_only=True)
    """What was measured: ``units``, ``figures``, ``points``, ``share of points``, ..."""
    actual: float = field(kw_only=True)
    bound: Bound = field(kw_only=True)
    limit: float = field(kw_only=True)
    entry: int | None = field(default=None, kw_only=True)
    """The roster entry (``units[i]``) it is about, for the checks of one entry (unit sizes,
    limbers); None for the roster as a whole."""

    @classmethod
    def of(
        cls,
        constraint: str,
        rule: str,
        measure: str,
        actual: float,
        bound: Bound,
        limit: float,
        message: str,
        entry: int | None = None,
    ) -> Breach:
        """A breach of constraint ``constraint`` (``rule`` in words): ``measure`` was ``actual``,
        beyond its ``bound`` ``limit``."""
        where = (f"units[{entry}]",) if entry is not None else ()
        return cls(
            rule,
            message,
            where,
            constraint=constraint,
            measure=measure,
            actual=actual,
            bound=bound,
            limit=limit,
            entry=entry,
        )

    def __str__(self) -> str:
        return f"{self.constraint} ({self.rule}): {self.message}"


@dataclass(frozen=True)
class Unchecked:
    """A constraint that could not be checked, and why (points not known yet)."""

    constraint: str
    rule: str
    reason: str

    def __str__(self) -> str:
        return _("{constraint} ({rule}): not checked, {reason}").format(
            constraint=self.constraint, rule=self.rule, reason=self.reason
        )


@dataclass(frozen=True)
class RosterReport:
    """The totals of a roster and every constraint it breaks or that could not be checked."""

    army: str
    roster: str
    units: int
    figures: int
    figures_by_kind: dict[Kind, int]
    points: float | None
    """Total points, or None when some fielded profile has no points."""
    points_by_kind: dict[Kind, float] | None
    points_limit: float | None
    broken: tuple[Breach, ...] = ()
    unchecked: tuple[Unchecked, ...] = ()
    missing_points: tuple[str, ...] = ()
    """Fielded profiles without points (sorted ids)."""

    @property
    def ok(self) -> bool:
        """No constraint is broken (unchecked ones do not count: see ``unchecked``)."""
        return not self.broken

    def describe(self) -> str:
        """A few lines for people: totals, then each breach and each unchecked constraint."""
        kinds = ", ".join(f"{term(k.value)} {n}" for k, n in self.figures_by_kind.items())
        pts = (
            _("points unknown")
            if self.points is None
            else _("{points} points").format(points=_num(self.points))
        )
        if self.points_limit is not None:
            pts += " " + _("(limit {limit})").format(limit=_num(self.points_limit))
        lines = [
            _("roster {roster!r} of army list {army!r}: {units}, {figures} ({kinds}); {points}").format(
                roster=self.roster,
                army=self.army,
                units=ngettext("{n} unit", "{n} units", self.units).format(n=self.units),
                figures=ngettext("{n} figure", "{n} figures", self.figures).format(n=self.figures),
                kinds=kinds,
                points=pts,
            ),
            "OK" if self.ok else _("{n} broken:").format(n=len(self.broken)),
        ]
        lines += [f"  {b}" for b in self.broken]
        if self.unchecked:
            lines.append(_("{n} not checked:").format(n=len(self.unchecked)))
            lines += [f"  {u}" for u in self.unchecked]
        return "\n".join(lines)


@dataclass(frozen=True)
class Standing:
    """Where a roster stands against one limit of one constraint (issue 14): what the constraint
    measures, its value and the limit, kept or not. A player building a roster sees the room each
    cap leaves (skirmishers at 21.3 % of the points, at most 25 %), not only the caps it breaks."""

    constraint: str
    rule: str
    measure: str
    """``units``, ``figures`` or ``share of points`` / ``share of figures`` / ``share of units``."""
    actual: float
    bound: Bound
    limit: float

    @property
    def of(self) -> ShareOf | None:
        """What a share is of; None for a count of units or figures."""
        return next((of for of, measure in _SHARE_MEASURES.items() if measure == self.measure), None)

    @property
    def ok(self) -> bool:
        """The limit is kept (shares with the checker's tolerance, :data:`SHARE_EPSILON`)."""
        return _within(self.bound, self.actual, self.limit, 0.0 if self.of is None else SHARE_EPSILON)

    def __str__(self) -> str:
        of = self.of
        if of is None:
            value = _plural(self.actual, "unit" if self.measure == "units" else "figure")
            limit = _num(self.limit)
        else:
            value = _("{share} of {what}").format(share=f"{self.actual:.1%}", what=_share_of_text(of))
            limit = f"{self.limit:.1%}"
        bound = (_("at least {limit}") if self.bound == "min" else _("at most {limit}")).format(limit=limit)
        text = f"{self.constraint}: {value}; {bound}"
        return text if self.ok else text + " " + _("(broken)")

    def to_json(self) -> dict[str, Any]:
        """The standing as JSON: its fields but the rule's words, and whether it is kept."""
        return {k: v for k, v in asdict(self).items() if k != "rule"} | {"ok": self.ok}


def roster_standings(
    army: ArmyList, roster: Roster, points: Mapping[str, float] | None = None
) -> tuple[Standing, ...]:
    """Where ``roster`` (one :func:`validate_roster` accepts) stands against every count and
    share limit of its list's constraints and its own, in their order: units and figures
    selected, and shares of points (when every fielded profile has points), figures or units.
    Unit sizes are per unit and stay with :func:`validate_roster`'s breaches. ``points`` as in
    :func:`validate_roster`."""
    fielded = _fielded(army, roster)
    price, _missing = _prices(army, fielded, points)
    *_, totals = _totals(fielded, price)
    out: list[Standing] = []
    for c in (*army.constraints, *roster.constraints):
        chosen, units, figures = _chosen(fielded, _selected(c, army.profiles))
        limits, _unchecked = _limits(c, chosen, units, figures, price, totals)
        out += [Standing(c.id, c.rule, *limit) for limit in limits]
    return tuple(out)


@dataclass(frozen=True)
class EntryCost:
    """What one entry of a roster costs (``units[entry]``): ``count`` units of ``figures`` of
    ``profile`` with their ``attached`` figures, ``each`` points a unit, ``total`` in all — what an
    organiser checks a submitted roster against, line by line."""

    entry: int
    profile: str
    count: int
    figures: int
    attached: tuple[tuple[str, int], ...]
    each: float
    total: float
    size_factor: float = 1.0
    """The list's unit-size price of its own figures (:meth:`szwadron.models.ArmyList.size_factor`)."""

    def __str__(self) -> str:
        extra = "".join(f" + {n} {pid}" for pid, n in self.attached)
        line = _(
            "units[{entry}]: {count} × {profile} of {figures}{extra}: {each} points each, {total} in all"
        ).format(
            entry=self.entry,
            count=self.count,
            profile=self.profile,
            figures=self.figures,
            extra=extra,
            each=_num(self.each),
            total=_num(self.total),
        )
        if self.size_factor != 1.0:
            line += " " + _("(unit-size price ×{factor})").format(factor=f"{self.size_factor:.3f}")
        return line

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry."""
        return {
            "entry": self.entry,
            "profile": self.profile,
            "count": self.count,
            "figures": self.figures,
            "attached": [{"profile": pid, "figures": n} for pid, n in self.attached],
            "each": self.each,
            "total": self.total,
            "size_factor": self.size_factor,
        }


def entry_costs(
    army: ArmyList, roster: Roster, points: Mapping[str, float] | None = None
) -> tuple[EntryCost, ...] | None:
    """Each entry's cost at the list's points (``points`` as in :func:`validate_roster`); None
    when a fielded profile has no points."""
    price, missing = _prices(army, _fielded(army, roster), points)
    if price is None or missing:
        return None
    out = []
    for k, e in enumerate(roster.units):
        each = unit_cost(army, e, price)
        attached = tuple((a.profile, a.figures) for a in e.attached)
        size = size_factor(army, e)
        out.append(
            EntryCost(
                k,
                e.profile,
                e.count,
                e.figures,
                attached,
                round(each, 9),
                round(each * e.count, 9),
                round(size, 9),
            )
        )
    return tuple(out)


def caps_on_points(army: ArmyList, roster: Roster) -> list[Standing]:
    """:func:`roster_standings`' caps on shares of the points (the guns, the horse, the
    skirmishers: issue 14), the nearest its cap first: for an exploit search's find, the cap an
    organiser would tighten if it wins too much."""
    caps = [x for x in roster_standings(army, roster) if x.bound == "max" and x.of is ShareOf.POINTS]
    return sorted(caps, key=lambda x: -x.actual / x.limit if x.limit else 0.0)


@dataclass(frozen=True)
class _Fielded:
    """Figures of one profile in one roster entry (all its units together)."""

    profile: Profile
    figures: int
    units: int
    """Units counted for this profile: the entry's count for its own profile, 0 for attached."""
    factor: float = 1.0
    """The list's unit-size price of these figures (:meth:`szwadron.models.ArmyList.size_factor`):
    what they pay per point of their points (their units' own figures only; 1 for attached)."""

    def cost(self, price: Mapping[str, float]) -> float:
        """Their points at ``price`` (points per figure), the size price included."""
        return self.figures * price[self.profile.id] * self.factor


def _fielded(army: ArmyList, roster: Roster) -> list[_Fielded]:
    out: list[_Fielded] = []
    for entry in roster.units:
        profile = army.profile(entry.profile)
        factor = size_factor(army, entry, profile)
        out.append(_Fielded(profile, entry.figures * entry.count, entry.count, factor))
        for att in entry.attached:
            out.append(_Fielded(army.profile(att.profile), att.figures * entry.count, 0))
    return out


def _check_points_map(army: ArmyList, points: Mapping[str, float]) -> None:
    known = {p.id for p in army.profiles}
    for pid, value in points.items():
        if pid not in known:
            raise InvalidDataError(
                _("points[{pid!r}]: unknown profile {pid!r} in army list {army!r} (it has: {known})").format(
                    pid=pid, army=army.id, known=", ".join(sorted(known))
                )
            )
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
            or value < 0
        ):
            raise InvalidDataError(
                _("points[{pid!r}]: expected a finite number >= 0, got {value!r}").format(
                    pid=pid, value=value
                )
            )


def _within(bound: Bound, actual: float, limit: float, tolerance: float) -> bool:
    """``actual`` keeps its ``bound`` (``min``: at least, ``max``: at most) ``limit``."""
    return actual >= limit - tolerance if bound == "min" else actual <= limit + tolerance


def _limit_breach(
    c: RosterConstraint, measure: str, actual: float, bound: Bound, limit: float | None, unit: str
) -> Breach | None:
    if limit is None or _within(bound, actual, limit, 0.0):
        return None
    return Breach.of(
        c.id,
        c.rule,
        measure,
        actual,
        bound,
        limit,
        f"{_plural(actual, unit)}; {_bound_text(bound, _num(limit))}",
    )


def _share_breach(c: RosterConstraint, share: float, bound: Bound, limit: float | None) -> Breach | None:
    if limit is None or _within(bound, share, limit, SHARE_EPSILON):
        return None
    measure = _SHARE_MEASURES[c.share_of]
    return Breach.of(
        c.id,
        c.rule,
        measure,
        share,
        bound,
        limit,
        _("{share} of {what}; {bound}").format(
            share=f"{share:.1%}", what=_share_of_text(c.share_of), bound=_bound_text(bound, f"{limit:.1%}")
        ),
    )


def _total_of(of: ShareOf) -> str:
    """``points`` / ``figures`` / ``units`` (what a roster's total is of)."""
    if of is ShareOf.POINTS:
        return pgettext("roster total of", "points")
    if of is ShareOf.FIGURES:
        return pgettext("roster total of", "figures")
    return pgettext("roster total of", "units")


#: :func:`_selected` so far, by the ids of the constraint and of the profiles (both kept, so
#: their ids are not reused).
_SELECTED: dict[tuple[int, int], tuple[RosterConstraint, tuple[Profile, ...], frozenset[str]]] = {}
#: Entries :data:`_SELECTED` keeps before it starts afresh.
_SELECTED_KEPT = 1024


def _selected(c: RosterConstraint, profiles: tuple[Profile, ...]) -> frozenset[str]:
    """Ids of the ``profiles`` (a list's, ids unique) that ``c`` selects, worked out once (issue
    14: drawing the calibration's random legal rosters checks tens of thousands of rosters)."""
    key = (id(c), id(profiles))
    hit = _SELECTED.get(key)
    if hit is None or hit[0] is not c or hit[1] is not profiles:
        if len(_SELECTED) >= _SELECTED_KEPT:
            _SELECTED.clear()
        hit = _SELECTED[key] = (c, profiles, frozenset(p.id for p in profiles if c.selects(p)))
    return hit[2]


def _chosen(fielded: Sequence[_Fielded], selected: frozenset[str]) -> tuple[list[_Fielded], int, int]:
    """The fielded figures a constraint selects (``selected``: the ids of the profiles it
    selects), with their units and figures."""
    chosen = [f for f in fielded if f.profile.id in selected]
    return chosen, sum(f.units for f in chosen), sum(f.figures for f in chosen)


def _part(
    of: ShareOf, chosen: Sequence[_Fielded], units: int, figures: int, price: Mapping[str, float] | None
) -> float:
    """The selected figures' part of what a share is of: their points (``price`` known), units or
    figures."""
    if of is ShareOf.POINTS:
        assert price is not None
        return sum(f.cost(price) for f in chosen)
    return units if of is ShareOf.UNITS else figures


#: The measure of a share of points, figures or units (:attr:`Breach.measure`, :attr:`Standing.measure`).
_SHARE_MEASURES = {of: f"share of {of.value}" for of in ShareOf}
_SHARE_MEASURE_SET = frozenset(_SHARE_MEASURES.values())


def _limits(
    c: RosterConstraint,
    chosen: Sequence[_Fielded],
    units: int,
    figures: int,
    price: Mapping[str, float] | None,
    totals: dict[ShareOf, float | None],
) -> tuple[list[tuple[str, float, Bound, float]], Unchecked | None]:
    """Every count and share limit of ``c`` with the roster's value — ``(measure, actual, bound,
    limit)``, kept or not — for the selected figures (``chosen``, their ``units`` and ``figures``);
    and why its shares could not be measured (points not known, a total of 0), if so. The one
    measurement behind :func:`validate_roster`'s breaches and :func:`roster_standings`."""
    limits: list[tuple[str, float, Bound, float]] = []
    if c.min_units is not None:
        limits.append(("units", units, "min", c.min_units))
    if c.max_units is not None:
        limits.append(("units", units, "max", c.max_units))
    if c.min_figures is not None:
        limits.append(("figures", figures, "min", c.min_figures))
    if c.max_figures is not None:
        limits.append(("figures", figures, "max", c.max_figures))
    if c.min_share is None and c.max_share is None:
        return limits, None
    total = totals[c.share_of]
    if c.share_of is ShareOf.POINTS and (price is None or total is None):
        return limits, Unchecked(c.id, c.rule, _("the roster's points are not known"))
    if not total:
        return limits, Unchecked(
            c.id, c.rule, _("the roster's total {what} are 0").format(what=_total_of(c.share_of))
        )
    share = _part(c.share_of, chosen, units, figures, price) / total
    measure = _SHARE_MEASURES[c.share_of]
    if c.min_share is not None:
        limits.append((measure, share, "min", c.min_share))
    if c.max_share is not None:
        limits.append((measure, share, "max", c.max_share))
    return limits, None


def _check_constraint(
    c: RosterConstraint,
    fielded: Sequence[_Fielded],
    price: Mapping[str, float] | None,
    totals: dict[ShareOf, float | None],
    selected: frozenset[str],
) -> tuple[list[Breach], Unchecked | None]:
    """The breaches of ``c``; ``selected``: the ids of the list's profiles it selects."""
    chosen, units, figures = _chosen(fielded, selected)
    limits, unchecked = _limits(c, chosen, units, figures, price, totals)
    breaches: list[Breach] = []
    for measure, actual, bound, limit in limits:
        share = measure in _SHARE_MEASURE_SET
        if _within(bound, actual, limit, SHARE_EPSILON if share else 0.0):
            continue
        b = (
            _share_breach(c, actual, bound, limit)
            if share
            else _limit_breach(c, measure, actual, bound, limit, "unit" if measure == "units" else "figure")
        )
        if b is not None:
            breaches.append(b)
    return breaches, unchecked


def unit_cost(army: ArmyList, entry: RosterEntry, price: Mapping[str, float]) -> float:
    """What one unit of ``entry`` costs at ``price`` (points per figure of every profile it
    fields): its own figures times their points and the list's unit-size price
    (:meth:`szwadron.models.ArmyList.size_factor`, of :func:`unit_figures`), and its attached
    figures at theirs."""
    own = price[entry.profile] * entry.figures * size_factor(army, entry)
    return own + sum(price[a.profile] * a.figures for a in entry.attached)


def size_factor(army: ArmyList, entry: RosterEntry, profile: Profile | None = None) -> float:
    """What a unit of ``entry`` pays for its own figures, per point of their points: the list's
    unit-size price (:meth:`szwadron.models.ArmyList.size_factor`) of :func:`unit_figures`; 1 when
    the list has none. ``profile``: the entry's own, when the caller has looked it up already."""
    if not army.size_prices:
        return 1.0
    figures = entry.figures if not entry.attached else unit_figures(army, entry)
    return army.size_factor(profile or army.profile(entry.profile), figures)


def unit_figures(army: ArmyList, entry: RosterEntry) -> int:
    """Figures of one unit of ``entry``: its own and its attached fighting figures (an elite
    company, 1.1); a limber is not a fighting figure (7.2)."""
    return entry.figures + sum(
        a.figures for a in entry.attached if army.profile(a.profile).kind is not Kind.LIMBER
    )


def _unit_size_breaches(
    army: ArmyList, roster: Roster, c: RosterConstraint, selected: frozenset[str]
) -> list[Breach]:
    """``min_unit_figures``/``max_unit_figures``: one breach per roster entry whose units are too
    small or too large (``selected``: the ids of the list's profiles ``c`` selects)."""
    out: list[Breach] = []
    if c.min_unit_figures is None and c.max_unit_figures is None:
        return out
    for i, entry in enumerate(roster.units):
        if entry.profile not in selected:
            continue
        size = unit_figures(army, entry)
        bounds: tuple[tuple[Bound, int | None], ...] = (
            ("min", c.min_unit_figures),
            ("max", c.max_unit_figures),
        )
        for bound, limit in bounds:
            if limit is None or (size >= limit if bound == "min" else size <= limit):
                continue
            out.append(
                Breach.of(
                    c.id,
                    c.rule,
                    f"figures in units[{i}] ({entry.profile})",
                    size,
                    bound,
                    limit,
                    _("units[{i}] ({profile!r}): {count} in each unit; {bound}").format(
                        i=i,
                        profile=entry.profile,
                        count=_plural(size, "figure"),
                        bound=_bound_text(bound, _num(limit)),
                    ),
                    i,
                )
            )
    return out


def _attached_breaches(army: ArmyList, roster: Roster) -> list[Breach]:
    """1.1 — attached fighting figures of other profiles (an elite company; limbers do not count,
    7.2) are at most :data:`ATTACHED_MAX_SHARE` of each unit's fighting figures, so a unit fights
    as its own profile (a line figure with eleven militia attached is a militia unit); and none of
    them has a higher M than the unit's own: the unit tests on its own M (6.2), so a grenadier
    company's M 5 in a line battalion of M 4 would be paid for and never used."""
    out: list[Breach] = []
    for i, entry in enumerate(roster.units):
        own = army.profile(entry.profile)
        for a in entry.attached:
            extra = army.profile(a.profile)
            if extra.kind is Kind.LIMBER or extra.morale <= own.morale:
                continue
            out.append(
                Breach.of(
                    ATTACHED_MORALE_ID,
                    _(ATTACHED_MORALE_RULE),
                    f"morale of attached {a.profile} in units[{i}] ({entry.profile})",
                    extra.morale,
                    "max",
                    own.morale,
                    _("units[{i}] ({profile!r}): attached {attached!r} has M {m}; {bound}").format(
                        i=i,
                        profile=entry.profile,
                        attached=a.profile,
                        m=extra.morale,
                        bound=_bound_text("max", _num(own.morale)),
                    ),
                    i,
                )
            )
        attached = sum(a.figures for a in entry.attached if army.profile(a.profile).kind is not Kind.LIMBER)
        total = entry.figures + attached
        if attached <= ATTACHED_MAX_SHARE * total + SHARE_EPSILON:
            continue
        most = math.floor(ATTACHED_MAX_SHARE * total + SHARE_EPSILON)
        out.append(
            Breach.of(
                ATTACHED_ID,
                _(ATTACHED_RULE),
                f"attached figures in units[{i}] ({entry.profile})",
                attached,
                "max",
                most,
                _("units[{i}] ({profile!r}): {count} of {total} in each unit; {bound}").format(
                    i=i,
                    profile=entry.profile,
                    count=_plural(attached, "attached figure"),
                    total=total,
                    bound=_bound_text("max", _num(most)),
                ),
                i,
            )
        )
    return out


def _limber_breaches(army: ArmyList, roster: Roster) -> list[Breach]:
    """7.2 — a gun whose profile has a limbered move is fielded with one limber per gun figure."""
    out: list[Breach] = []
    for i, entry in enumerate(roster.units):
        if army.profile(entry.profile).move_limbered is None:
            continue
        limbers = sum(a.figures for a in entry.attached if army.profile(a.profile).kind is Kind.LIMBER)
        if limbers == entry.figures:
            continue
        bound: Bound = "min" if limbers < entry.figures else "max"
        out.append(
            Breach.of(
                LIMBERS_ID,
                _(LIMBERS_RULE),
                f"limber figures in units[{i}] ({entry.profile})",
                limbers,
                bound,
                entry.figures,
                _("units[{i}] ({profile!r}): {guns} with {limbers} in each unit; {n} needed").format(
                    i=i,
                    profile=entry.profile,
                    guns=_plural(entry.figures, "gun figure"),
                    limbers=_plural(limbers, "limber"),
                    n=_num(entry.figures),
                ),
                i,
            )
        )
    return out


def _prices(
    army: ArmyList, fielded: Sequence[_Fielded], points: Mapping[str, float] | None
) -> tuple[Mapping[str, float] | None, tuple[str, ...]]:
    """Points per figure of the list's profiles, ``points`` supplying or overriding them (None when
    a fielded profile has none), and the fielded profiles without points (sorted ids)."""
    prices: dict[str, float] = {p.id: p.points for p in army.profiles if p.points is not None} | dict(
        points or {}
    )
    missing = tuple(sorted({f.profile.id for f in fielded} - prices.keys()))
    return (None if missing else prices), missing


def _totals(
    fielded: Sequence[_Fielded], price: Mapping[str, float] | None
) -> tuple[dict[Kind, int], dict[Kind, float] | None, int, int, dict[ShareOf, float | None]]:
    """Figures and points (None without ``price``) by kind, the roster's units and figures, and
    its totals of points, figures and units (what a share is of)."""
    figures_by_kind: dict[Kind, int] = {}
    points_by_kind: dict[Kind, float] | None = None if price is None else {}
    for f in fielded:
        figures_by_kind[f.profile.kind] = figures_by_kind.get(f.profile.kind, 0) + f.figures
        if points_by_kind is not None and price is not None:
            kind = f.profile.kind
            points_by_kind[kind] = points_by_kind.get(kind, 0.0) + f.cost(price)
    units = sum(f.units for f in fielded)
    figures = sum(f.figures for f in fielded)
    totals: dict[ShareOf, float | None] = {
        ShareOf.POINTS: None if points_by_kind is None else sum(points_by_kind.values()),
        ShareOf.FIGURES: figures,
        ShareOf.UNITS: units,
    }
    return figures_by_kind, points_by_kind, units, figures, totals


# long: one check per roster rule (1.1 limits, list and roster constraints), each a few lines, in the rulebook's order.
def validate_roster(
    army: ArmyList, roster: Roster | str, points: Mapping[str, float] | None = None
) -> RosterReport:
    """Check a roster against its list's constraints, its own constraints, its points limit and
    rule 7.2 (limbers); return the totals and every breach.

    ``roster`` is a :class:`~szwadron.models.Roster` (for example from :func:`load_roster`) or
    the id of one of the list's example rosters. ``points`` maps profile ids to points per figure,
    supplying or overriding the profiles' ``points``; the points limit and shares of points are
    checked only when every fielded profile has points, and are otherwise listed in
    ``unchecked``.

    Raises :class:`~szwadron.errors.InvalidDataError` for an unknown roster id, a roster that
    names profiles the list does not have (or is otherwise malformed for this list, see
    :meth:`~szwadron.models.ArmyList.roster_problems`) and a bad points map.
    """
    if isinstance(roster, str):
        try:
            roster = army.roster(roster)
        except KeyError:
            known = ", ".join(r.id for r in army.rosters) or _("none")
            raise InvalidDataError(
                _("unknown roster {roster!r} in army list {army!r} (it has: {known})").format(
                    roster=roster, army=army.id, known=known
                )
            ) from None
    problems = army.roster_problems(roster)
    if problems:
        raise InvalidDataError(_("roster {roster!r}: ").format(roster=roster.id) + "\n  ".join(problems[:5]))
    if points is not None:
        _check_points_map(army, points)
    fielded = _fielded(army, roster)
    price, missing = _prices(army, fielded, points)

    figures_by_kind, points_by_kind, units, figures, totals = _totals(fielded, price)
    total_points = totals[ShareOf.POINTS]

    broken: list[Breach] = []
    unchecked: list[Unchecked] = []
    if roster.points_limit is not None:
        rule = _("roster {roster!r} costs at most {limit} points").format(
            roster=roster.id, limit=_num(roster.points_limit)
        )
        if total_points is None:
            unchecked.append(
                Unchecked(POINTS_LIMIT_ID, rule, _("no points for: {ids}").format(ids=", ".join(missing)))
            )
        elif total_points > roster.points_limit:
            over = total_points - roster.points_limit
            broken.append(
                Breach.of(
                    POINTS_LIMIT_ID,
                    rule,
                    "points",
                    total_points,
                    "max",
                    roster.points_limit,
                    _("{points} points, over the limit of {limit} by {over}").format(
                        points=_num(total_points), limit=_num(roster.points_limit), over=_num(over)
                    ),
                )
            )
    for c in (*army.constraints, *roster.constraints):
        selected = _selected(c, army.profiles)
        found, skipped = _check_constraint(c, fielded, price, totals, selected)
        broken += found + _unit_size_breaches(army, roster, c, selected)
        if skipped is not None:
            unchecked.append(skipped)
    broken += _limber_breaches(army, roster) + _attached_breaches(army, roster)
    return RosterReport(
        army=army.id,
        roster=roster.id,
        units=units,
        figures=figures,
        figures_by_kind=figures_by_kind,
        points=total_points,
        points_by_kind=points_by_kind,
        points_limit=roster.points_limit,
        broken=tuple(broken),
        unchecked=tuple(unchecked),
        missing_points=missing,
    )


def parse_roster(
    data: dict[str, Any], *, source: str, folders: Sequence[Path]
) -> tuple[ArmyList, RosterFile]:
    """Validate a roster file's data and find its army list in ``folders``; return both.

    Raises :class:`~szwadron.errors.InvalidDataError` naming ``source`` and the field path for a
    malformed roster, an unknown army list, unknown profiles and impossible constraints.
    """
    roster = validate(RosterFile, data, source=source)
    try:
        army = ProfileResolver(folders).army_list(roster.army)
    except ValueError as exc:
        if isinstance(exc, InvalidDataError):
            raise
        raise InvalidDataError(_("army: {reason}").format(reason=exc), source=source) from None
    problems = army.roster_problems(roster)
    if problems:
        raise InvalidDataError("\n  ".join(problems[:5]), source=source)
    return army, roster


def load_roster(path: str | Path, folders: Sequence[Path] | None = None) -> tuple[ArmyList, RosterFile]:
    """Read a player's roster file and its army list.

    The list is looked up in ``folders``, by default as for a scenario: the roster's folder, its
    parent's ``armylists/``, the current directory's ``armylists/``, then the bundled lists
    (docs/decisions.md "Files"); ``-`` (standard input) as a file in the current directory.
    """
    search = list(folders) if folders is not None else army_list_search_path(path)
    return parse_roster(read_toml(path), source=source_name(path), folders=search)


__all__ = [
    "ATTACHED_ID",
    "ATTACHED_MAX_SHARE",
    "ATTACHED_MORALE_ID",
    "ATTACHED_MORALE_RULE",
    "ATTACHED_RULE",
    "LIMBERS_ID",
    "LIMBERS_RULE",
    "POINTS_LIMIT_ID",
    "Breach",
    "EntryCost",
    "RosterReport",
    "Standing",
    "Unchecked",
    "caps_on_points",
    "entry_costs",
    "load_roster",
    "parse_roster",
    "roster_standings",
    "size_factor",
    "unit_cost",
    "unit_figures",
    "validate_roster",
]
