"""Data models: profiles, army lists and rosters with their constraints (issue 7), scenarios
(docs/decisions.md "Files"; the schemas in ``schemas/``).

Pydantic 2 models, frozen, ``extra="forbid"``; the rulebook's codes (R, W, SW, SO, Z, UW, C, M —
rule 1.1) are accepted as aliases of the long field names. Numbers must be finite (no NaN or
infinity). Profile references inside a scenario (``"france:line_infantry"``) are resolved while
validating, through a resolver passed in the validation context (see :mod:`szwadron.loading`).

>>> p = Profile.model_validate({"id": "line", "name": "Line", "kind": "infantry", "R": 12,
...     "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4})
>>> p.move, p.wounds, p.melee_skill
(12.0, 2, 3)
>>> p.base_size
(2.0, 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from szwadron.formations import (
    DEFAULT_SKIRMISH_GAP_CM,
    MAX_FORMATION_BASES,
    MAX_SKIRMISH_GAP_CM,
    FormationKind,
    formation_poses,
    formation_size,
)
from szwadron.i18n import _, term
from szwadron.limits import MAX_CM, MAX_DICE_PER_FIGURE, MAX_LEVEL, MAX_TABLE_CM, MAX_WOUNDS
from szwadron.settings import Flag, Number, RulesSettings, WholeNumber

Identifier = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]*$",
        description="Letters, digits, '_', '.', '-'; no '/' or ':' (they separate base and list ids).",
    ),
]
FiniteFloat = Annotated[Number, Field(allow_inf_nan=False)]
Coordinate = Annotated[Number, Field(allow_inf_nan=False, ge=-MAX_CM, le=MAX_CM)]
"""A position in cm: finite, at most :data:`~szwadron.limits.MAX_CM` (1 km) either way."""
Point = tuple[Coordinate, Coordinate]


class Kind(StrEnum):
    """Kinds of figure (1.2, 6.6)."""

    INFANTRY = "infantry"
    CAVALRY = "cavalry"
    FOOT_ARTILLERY = "foot_artillery"
    HORSE_ARTILLERY = "horse_artillery"
    LIMBER = "limber"

    @property
    def is_artillery(self) -> bool:
        return self in (Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY)


#: Default base sizes (frontage, depth) in cm by kind — 1.2 and PD-1 (cavalry: 2 cm front, 4 deep).
DEFAULT_BASE_SIZE_CM: dict[Kind, tuple[float, float]] = {
    Kind.INFANTRY: (2.0, 2.0),
    Kind.CAVALRY: (2.0, 4.0),
    Kind.FOOT_ARTILLERY: (4.0, 4.0),
    Kind.HORSE_ARTILLERY: (4.0, 4.0),
    Kind.LIMBER: (4.0, 4.0),
}


class Ability(StrEnum):
    """Special abilities (section 7)."""

    SKIRMISH = "skirmish"  # 1.3.4, 7.5
    AUTO_DISENGAGE = "auto_disengage"  # 7.6
    FIRST_STRIKE = "first_strike"  # 7.7.1, in every melee round, attacking or defending
    FIRST_STRIKE_CHARGE = "first_strike_charge"  # 7.7.2, on the charge
    FIRST_STRIKE_DEFENCE = "first_strike_defence"  # 7.7.2, in defence
    HEAVY = "heavy"  # 7.3, heavy artillery
    INDIRECT = "indirect"  # 7.4


class TerrainKind(StrEnum):
    """Terrain kinds (3.2, 4.10)."""

    HILL = "hill"
    FOREST = "forest"
    ROUGH = "rough"
    OBSTACLE = "obstacle"
    HIGH_WALL = "high_wall"
    BUILDING = "building"
    FORTIFICATION = "fortification"
    IMPASSABLE = "impassable"

    @property
    def may_be_linear(self) -> bool:
        """Linear features (a fence, a wall, a river) may be given as a line with a width."""
        return self in (TerrainKind.OBSTACLE, TerrainKind.HIGH_WALL, TerrainKind.IMPASSABLE)


class UnitState(StrEnum):
    """Morale states (6.1); a repulse ends in the normal state (6.5.3)."""

    NORMAL = "normal"
    PANIC = "panic"
    PURSUIT = "pursuit"


class UnitAction(StrEnum):
    """2.3 — the one action a unit takes in its movement phase, as the game records it."""

    MOVE = "move"
    FIRE = "fire"
    MARCH = "march"  # fire on the march (4.11) made whole: the half move and the fire, in either order
    MARCH_MOVE = "march_move"  # 4.11: the half move made; the fire on the march may follow (4.11.2)
    MARCH_FIRE = "march_fire"  # 4.11: fired on the march; the half move may follow (4.11.2)
    FIRE_MOVE = "fire_move"  # 4.9: fired, and the figures that did not fire moved after it
    CHARGE = "charge"  # the move of a charge (2.3 V); its melee follows
    MELEE = "melee"
    DISENGAGE = "disengage"  # 5.8: instead of fighting, the unit tried to break off from the melee
    DECLARE = "declare"  # 4.12.2: instead of acting, it declared fire in the opponent's turn
    REORGANISE = "reorganise"  # 6.8: reorganised in the morale phase, no action in the movement phase


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, populate_by_name=True)


def _aliases(mapping: dict[str, str]) -> Callable[[Any], Any]:
    """A before-validator accepting rulebook codes as aliases; both spellings at once is an error."""

    def convert(data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        out = dict(data)
        for code, name in mapping.items():
            if code in out:
                if name in out:
                    raise ValueError(
                        _("give either {name} or its rulebook code {code}, not both").format(
                            name=repr(name), code=repr(code)
                        )
                    )
                out[name] = out.pop(code)
        return out

    return convert


#: Rulebook codes (1.1) accepted as aliases of the long field names.
PROFILE_CODES: dict[str, str] = {
    "R": "move",
    "W": "wounds",
    "SW": "melee",
    "SO": "fire",
    "Z": "range",
    "UW": "melee_skill",
    "C": "accuracy",
    "M": "morale",
}
AMMUNITION_CODES: dict[str, str] = {"Z": "range", "SO": "fire", "C": "accuracy"}


class Ammunition(_Frozen):
    """An artillery ammunition type (7.1.3) with its own range, firepower and accuracy."""

    name: Identifier = Field(description="Ammunition name, e.g. 'roundshot', 'canister'.")
    range: Number = Field(gt=0, le=MAX_CM, allow_inf_nan=False, description="Z: range in cm.")
    fire: WholeNumber = Field(ge=0, le=MAX_DICE_PER_FIGURE, description="SO: dice per figure.")
    accuracy: WholeNumber = Field(ge=0, le=6, description="C: a die scores on a roll <= C.")
    indirect: Flag = Field(False, description="7.4: allows indirect fire.")

    @model_validator(mode="before")
    @classmethod
    def _codes(cls, data: Any) -> Any:
        return _aliases(AMMUNITION_CODES)(data)


class Profile(_Frozen):
    """A figure's characteristics (1.1) with its kind, abilities and points."""

    id: Identifier
    name: str = Field(min_length=1)
    kind: Kind
    move: Number = Field(ge=0, le=MAX_CM, allow_inf_nan=False, description="R: cm moved on open ground.")
    wounds: WholeNumber = Field(ge=1, le=MAX_WOUNDS, description="W: damage to destroy one figure.")
    melee: WholeNumber = Field(ge=0, le=MAX_DICE_PER_FIGURE, description="SW: melee dice per figure.")
    fire: WholeNumber = Field(ge=0, le=MAX_DICE_PER_FIGURE, description="SO: fire dice per figure.")
    range: Number = Field(ge=0, le=MAX_CM, allow_inf_nan=False, description="Z: range in cm.")
    melee_skill: WholeNumber = Field(ge=0, le=6, description="UW: a melee die scores on <= UW.")
    accuracy: WholeNumber = Field(ge=0, le=6, description="C: a fire die scores on <= C.")
    morale: WholeNumber = Field(ge=0, le=6, description="M: a morale test passes on <= M.")
    abilities: tuple[Ability, ...] = ()
    points: Number | None = Field(None, ge=0, allow_inf_nan=False, description="Points per figure.")
    move_limbered: Number | None = Field(
        None, ge=0, le=MAX_CM, allow_inf_nan=False, description="7.2: R while coherent with the limber."
    )
    ammunition: tuple[Ammunition, ...] = ()
    note: str | None = Field(None, description="One line justifying the characteristics.")

    @model_validator(mode="before")
    @classmethod
    def _codes(cls, data: Any) -> Any:
        return _aliases(PROFILE_CODES)(data)

    @model_validator(mode="after")
    def _check(self) -> Profile:
        if len(set(self.abilities)) != len(self.abilities):
            raise ValueError("abilities: " + _("an ability is listed twice"))
        if self.ammunition and not self.kind.is_artillery:
            raise ValueError("ammunition: " + _("only artillery profiles carry ammunition (7.1)"))
        names = [a.name for a in self.ammunition]
        if len(set(names)) != len(names):
            raise ValueError("ammunition: " + _("two entries share a name"))
        return self

    @property
    def base_size(self) -> tuple[float, float]:
        """Default (frontage, depth) in cm for this kind (1.2, PD-1)."""
        return DEFAULT_BASE_SIZE_CM[self.kind]

    def has(self, ability: Ability | str) -> bool:
        """Whether the profile has a special ability (section 7)."""
        return Ability(ability) in self.abilities


class Attachment(_Frozen):
    """Figures of another profile inside a roster unit: an elite company (1.1) or, for a gun that
    moves with its limber, the limber (7.2)."""

    profile: Identifier = Field(description="Profile id in the same army list.")
    figures: WholeNumber = Field(ge=1, description="Number of figures of this profile in each unit.")


class RosterEntry(_Frozen):
    """``count`` units, each of ``figures`` figures of ``profile`` plus the ``attached`` figures."""

    profile: Identifier = Field(description="Profile id of the unit (its kind is the unit's kind).")
    figures: WholeNumber = Field(ge=1, description="Figures of the unit's own profile in each unit.")
    count: WholeNumber = Field(1, ge=1, description="How many such units.")
    attached: tuple[Attachment, ...] = Field(
        (), description="Other figures in each unit: an elite company (1.1) or a limber (7.2)."
    )


class ShareOf(StrEnum):
    """What a share constraint measures."""

    POINTS = "points"
    FIGURES = "figures"
    UNITS = "units"


class RosterConstraint(_Frozen):
    """A roster constraint (issue 7): a selector and the limits on what it selects.

    The selector is the union of ``profiles``, ``kinds`` and ``abilities``: a figure is selected
    when its profile is listed, its kind is listed, or it has one of the abilities; with all
    three empty, everything is selected. Units are counted by their own profile (an elite company
    or a limber attached to a unit does not make it a unit of that profile); figures and points
    are counted figure by figure, each by its own profile. Shares are of the roster's total
    points, figures or units (``share_of``); a share of points is checked only when points are
    known. ``min_unit_figures``/``max_unit_figures`` bound the size of every selected unit (a unit
    selected by its own profile; its figures are its own and its attached fighting figures, not a
    limber, 7.2): the points are per figure, and the same figures in bigger battalions are worth
    more than their points (``benchmarks/RESULTS.md``), so the lists cap the sizes.
    """

    id: Identifier
    rule: str = Field(min_length=1, description="The constraint in words, quoted when it is broken.")
    profiles: tuple[Identifier, ...] = Field((), description="Selects these profile ids.")
    kinds: tuple[Kind, ...] = Field((), description="Selects figures of these kinds.")
    abilities: tuple[Ability, ...] = Field((), description="Selects figures with any of these abilities.")
    min_units: WholeNumber | None = Field(None, ge=0, description="At least this many selected units.")
    max_units: WholeNumber | None = Field(None, ge=0, description="At most this many selected units.")
    min_figures: WholeNumber | None = Field(None, ge=0, description="At least this many selected figures.")
    max_figures: WholeNumber | None = Field(None, ge=0, description="At most this many selected figures.")
    min_share: Number | None = Field(
        None, ge=0, le=1, allow_inf_nan=False, description="Selected share (0..1) at least this."
    )
    max_share: Number | None = Field(
        None, ge=0, le=1, allow_inf_nan=False, description="Selected share (0..1) at most this."
    )
    share_of: ShareOf = Field(
        ShareOf.POINTS, description="What min_share/max_share measure: points, figures or units."
    )
    min_unit_figures: WholeNumber | None = Field(
        None, ge=1, description="Every selected unit has at least this many figures (limbers not counted)."
    )
    max_unit_figures: WholeNumber | None = Field(
        None, ge=1, description="Every selected unit has at most this many figures (limbers not counted)."
    )

    @model_validator(mode="after")
    def _check(self) -> RosterConstraint:
        limits = (
            self.min_units,
            self.max_units,
            self.min_figures,
            self.max_figures,
            self.min_share,
            self.max_share,
            self.min_unit_figures,
            self.max_unit_figures,
        )
        if all(v is None for v in limits):
            raise ValueError(
                _(
                    "give at least one limit: min_units, max_units, min_figures, max_figures,"
                    " min_share, max_share, min_unit_figures or max_unit_figures"
                )
            )
        for low, high, name in (
            (self.min_units, self.max_units, "units"),
            (self.min_figures, self.max_figures, "figures"),
            (self.min_share, self.max_share, "share"),
            (self.min_unit_figures, self.max_unit_figures, "unit_figures"),
        ):
            if low is not None and high is not None and low > high:
                raise ValueError(
                    f"min_{name}: "
                    + _("{low} is more than max_{name} {high}; no roster can meet it").format(
                        low=low, name=name, high=high
                    )
                )
        return self

    @property
    def selects_everything(self) -> bool:
        """No selector given: the constraint is on the whole roster."""
        return not (self.profiles or self.kinds or self.abilities)

    @property
    def needs_some(self) -> bool:
        """Whether the constraint requires at least one selected figure."""
        return bool(self.min_units or self.min_figures or self.min_share)

    def selects(self, profile: Profile) -> bool:
        """Whether a figure of this profile is selected."""
        return self.selects_everything or _selected(profile, self.profiles, self.kinds, self.abilities)


def _selected(
    profile: Profile, profiles: tuple[str, ...], kinds: tuple[Kind, ...], abilities: tuple[Ability, ...]
) -> bool:
    """A selector of a constraint or a size price: the profile is listed, its kind is, or it has
    one of the abilities."""
    return profile.id in profiles or profile.kind in kinds or any(a in profile.abilities for a in abilities)


class SizePrice(_Frozen):
    """A unit-size price of an army list (issue 14): the points of a selected unit's own figures
    are multiplied by ``1 + per_figure × (n − reference_figures)``, ``n`` the unit's figures (its
    own and attached fighting figures, as ``min_unit_figures`` counts them). Points are per
    figure, and the same figures in bigger skirmish companies or cavalry regiments win more than
    their points say (``benchmarks/RESULTS.md``), so the lists price the size. The selector is a
    constraint's (``profiles``, ``kinds``, ``abilities``; at least one): a unit is selected by its
    own profile, and the first size price that selects it applies."""

    id: Identifier
    rule: str = Field(min_length=1, description="The price in words, shown with a roster's costs.")
    profiles: tuple[Identifier, ...] = Field((), description="Selects units of these profile ids.")
    kinds: tuple[Kind, ...] = Field((), description="Selects units of these kinds.")
    abilities: tuple[Ability, ...] = Field((), description="Selects units with any of these abilities.")
    reference_figures: WholeNumber = Field(
        ge=1, le=24, description="The size whose figures cost their points per figure."
    )
    per_figure: Number = Field(
        ge=0,
        le=0.2,
        allow_inf_nan=False,
        description="Share added to the figures' points for each figure above the reference size "
        "(taken off for each below).",
    )

    @model_validator(mode="after")
    def _check(self) -> SizePrice:
        if not (self.profiles or self.kinds or self.abilities):
            raise ValueError(_("give a selector: profiles, kinds or abilities"))
        if self.per_figure * (self.reference_figures - 1) >= 1:
            raise ValueError(
                "per_figure: "
                + _(
                    "{per} a figure below {ref} figures leaves a unit of one figure costing nothing;"
                    " it must be below {most} with this reference size"
                ).format(
                    per=self.per_figure,
                    ref=self.reference_figures,
                    most=f"{1 / (self.reference_figures - 1):.4g}",
                )
            )
        return self

    def selects(self, profile: Profile) -> bool:
        """Whether a unit of this (own) profile is selected."""
        return _selected(profile, self.profiles, self.kinds, self.abilities)

    def factor(self, figures: int) -> float:
        """What a selected unit of ``figures`` pays for its own figures, per point of their points."""
        return 1.0 + self.per_figure * (figures - self.reference_figures)


class Roster(_Frozen):
    """An army as fielded: its units, an optional points limit and its own constraints (on top of
    those of its army list)."""

    id: Identifier
    name: str | None = None
    points_limit: Number | None = Field(
        None, gt=0, allow_inf_nan=False, description="Most points the roster may cost (checked when known)."
    )
    units: tuple[RosterEntry, ...] = Field(min_length=1)
    constraints: tuple[RosterConstraint, ...] = Field(
        (), description="Constraints of this roster only, checked with the list's."
    )


class RosterFile(Roster):
    """A player's roster in its own file, fielding profiles of the army list ``army``."""

    army: Identifier = Field(description="Id of the army list (found like a scenario's lists).")


class ArmyList(_Frozen):
    """An army list file: one nation and period, its profiles, constraints and example rosters."""

    id: Identifier
    name: str = Field(min_length=1)
    points_version: str | None = None
    description: str | None = None
    profiles: tuple[Profile, ...] = Field(min_length=1)
    constraints: tuple[RosterConstraint, ...] = Field(
        (), description="Constraints every roster of this list must meet."
    )
    size_prices: tuple[SizePrice, ...] = Field(
        (), description="Unit-size prices: bigger units of what they select cost more per figure (issue 14)."
    )
    rosters: tuple[Roster, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> ArmyList:
        ids = [p.id for p in self.profiles]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError("profiles: " + _("duplicate profile id {id}").format(id=repr(dup[0])))
        problems = self.constraint_problems(self.constraints, "constraints")
        problems += self._size_price_problems()
        roster_ids: set[str] = set()
        for r_i, roster in enumerate(self.rosters):
            at = f"rosters[{r_i}]"
            if roster.id in roster_ids:
                problems.append(f"{at}.id: " + _("duplicate roster id {id}").format(id=repr(roster.id)))
            roster_ids.add(roster.id)
            problems += self.roster_problems(roster, f"{at}.")
        if problems:
            raise ValueError(problems[0])
        return self

    def profile(self, profile_id: str) -> Profile:
        """The profile with this id; ``KeyError`` if there is none."""
        for p in self.profiles:
            if p.id == profile_id:
                return p
        raise KeyError(profile_id)

    def roster(self, roster_id: str) -> Roster:
        """The example roster with this id; ``KeyError`` if there is none."""
        for r in self.rosters:
            if r.id == roster_id:
                return r
        raise KeyError(roster_id)

    def _unknown(self, profile_id: str) -> str:
        known = ", ".join(sorted(p.id for p in self.profiles))
        return _("unknown profile {profile} in army list {army} (it has: {known})").format(
            profile=repr(profile_id), army=repr(self.id), known=known
        )

    def constraint_problems(
        self,
        constraints: tuple[RosterConstraint, ...],
        where: str,
        *,
        taken: frozenset[str] = frozenset(),
    ) -> list[str]:
        """What makes these constraints impossible with this list, each as ``field.path: problem``:
        unknown profiles in a selector, an id repeated (or already in ``taken``), a minimum that
        nothing in the list can meet."""
        problems: list[str] = []
        known = {p.id for p in self.profiles}
        seen = set(taken)
        for c_i, c in enumerate(constraints):
            at = f"{where}[{c_i}]"
            if c.id in seen:
                problems.append(f"{at}.id: " + _("duplicate constraint id {id}").format(id=repr(c.id)))
            seen.add(c.id)
            problems += self._unknown_selected(at, c.profiles, known)
            if c.needs_some and not any(c.selects(p) for p in self.profiles):
                problems.append(
                    f"{at}: "
                    + _(
                        "constraint {id} asks for at least some figures but selects no profile of army list "
                        "{army}; no roster can meet it"
                    ).format(id=repr(c.id), army=repr(self.id))
                )
        return problems

    def _size_price_problems(self) -> list[str]:
        """Unknown profiles in a size price's selector, and an id repeated."""
        problems: list[str] = []
        known = {p.id for p in self.profiles}
        seen: set[str] = set()
        for s_i, sp in enumerate(self.size_prices):
            at = f"size_prices[{s_i}]"
            if sp.id in seen:
                problems.append(f"{at}.id: " + _("duplicate size price id {id}").format(id=repr(sp.id)))
            seen.add(sp.id)
            problems += self._unknown_selected(at, sp.profiles, known)
        return problems

    def _unknown_selected(self, at: str, profiles: tuple[str, ...], known: set[str]) -> list[str]:
        """``at.profiles[i]: unknown profile ...`` for each profile id of a selector not in the list."""
        return [
            f"{at}.profiles[{p_i}]: {self._unknown(pid)}"
            for p_i, pid in enumerate(profiles)
            if pid not in known
        ]

    def size_price(self, profile: Profile) -> SizePrice | None:
        """The first size price that selects units of ``profile``, if any."""
        return next((sp for sp in self.size_prices if sp.selects(profile)), None)

    def size_factor(self, profile: Profile, figures: int) -> float:
        """What a unit of ``profile`` with ``figures`` (its own and attached fighting figures) pays
        for its own figures, per point of their points (1 when no size price selects it)."""
        for sp in self.size_prices:  # size_price, inlined: the roster checks ask it of every entry
            if sp.selects(profile):
                return sp.factor(figures)
        return 1.0

    def roster_problems(self, roster: Roster, prefix: str = "") -> list[str]:
        """What is malformed in a roster of this list, each as ``field.path: problem``: unknown
        profiles, attachments of another kind, limbers fielded alone or with a gun that has no
        limbered move (7.2), impossible constraints. (Breaking a constraint is not malformed: see
        :func:`szwadron.armies.rosters.validate_roster`.)"""
        problems: list[str] = []
        by_id = {p.id: p for p in self.profiles}
        for e_i, entry in enumerate(roster.units):
            at = f"{prefix}units[{e_i}]"
            main = by_id.get(entry.profile)
            if main is None:
                problems.append(f"{at}.profile: {self._unknown(entry.profile)}")
                continue
            if main.kind is Kind.LIMBER:
                problems.append(
                    f"{at}.profile: "
                    + _("{id} is a limber; field it attached to its gun (7.2)").format(id=repr(main.id))
                )
            for a_i, att in enumerate(entry.attached):
                extra = by_id.get(att.profile)
                where = f"{at}.attached[{a_i}].profile"
                if extra is None:
                    problems.append(f"{where}: {self._unknown(att.profile)}")
                elif extra.kind is Kind.LIMBER:
                    if main.move_limbered is None:
                        problems.append(
                            f"{where}: "
                            + _(
                                "a limber goes only with a gun whose profile has move_limbered (7.2); {id} has none"
                            ).format(id=repr(main.id))
                        )
                elif extra.kind is not main.kind:
                    problems.append(
                        f"{where}: "
                        + _(
                            "{kind} figures ({id}) cannot join a unit of {main_kind} ({main}); figures of one "
                            "unit differ only in characteristics (1.1)"
                        ).format(
                            kind=term(extra.kind.value),
                            id=repr(extra.id),
                            main_kind=term(main.kind.value),
                            main=repr(main.id),
                        )
                    )
        problems += self.constraint_problems(
            roster.constraints, f"{prefix}constraints", taken=frozenset(c.id for c in self.constraints)
        )
        return problems


# --------------------------------------------------------------------------------------------
# Scenario
# --------------------------------------------------------------------------------------------

ProfileResolverFn = Callable[[str, "str | None"], Profile]
"""``resolver(reference, default_list_id) -> Profile``; raises ``ValueError`` when unknown."""


def _resolve_profile(value: Any, info: ValidationInfo) -> Any:
    """Turn a profile reference ``LIST:PROFILE`` (or ``PROFILE`` within the unit's list) into a
    :class:`Profile`, through the resolver in the validation context."""
    if not isinstance(value, str):
        return value
    ctx = info.context or {}
    resolver: ProfileResolverFn | None = ctx.get("resolve_profile")
    if resolver is None:
        raise ValueError(
            _("profile reference {reference} cannot be resolved without army lists").format(
                reference=repr(value)
            )
        )
    return resolver(value, ctx.get("default_list"))


ProfileRef = Annotated[
    Profile,
    BeforeValidator(_resolve_profile, json_schema_input_type=str | Profile),
]


class Table(_Frozen):
    """The table: x along side A's edge (y = 0), side B's edge at y = depth."""

    width: Number = Field(gt=0, le=MAX_TABLE_CM, allow_inf_nan=False, description="cm along x")
    depth: Number = Field(gt=0, le=MAX_TABLE_CM, allow_inf_nan=False, description="cm along y")


class Terrain(_Frozen):
    """A terrain feature: an area (``polygon``) or, for linear kinds, a ``line`` with a ``width``."""

    id: Identifier
    kind: TerrainKind
    name: str | None = None
    level: WholeNumber | None = Field(
        None,
        ge=1,
        le=MAX_LEVEL,
        description="Hill level (default 1); buildings/fortifications: makes them tall.",
    )
    polygon: tuple[Point, ...] | None = Field(None, description="Outline, at least 3 points.")
    line: tuple[Point, ...] | None = Field(None, description="Centre line of a linear feature.")
    width: Number | None = Field(
        None, gt=0, le=MAX_CM, allow_inf_nan=False, description="Width of a line, cm."
    )
    large: Flag = Field(False, description="3.2.5: a large fortification admits artillery.")

    @model_validator(mode="after")
    def _check(self) -> Terrain:
        if self.polygon is None and self.line is None:
            raise ValueError(_("give a 'polygon' (or, for obstacle/high_wall/impassable, a 'line')"))
        if self.polygon is not None and self.line is not None:
            raise ValueError(_("give either 'polygon' or 'line', not both"))
        if self.level is not None and self.kind not in (
            TerrainKind.HILL,
            TerrainKind.BUILDING,
            TerrainKind.FORTIFICATION,
        ):
            raise ValueError(
                "level: "
                + _("only hills, buildings and fortifications have a level, not {kind}").format(
                    kind=term(self.kind)
                )
            )
        if self.line is not None:
            if not self.kind.may_be_linear:
                raise ValueError(
                    "line: " + _("a {kind} is an area; give a 'polygon'").format(kind=term(self.kind))
                )
            if self.width is None:
                raise ValueError("width: " + _("a linear feature needs its width in cm"))
            _check_line(self.line)
        else:
            if self.width is not None:
                raise ValueError("width: " + _("only a 'line' takes a width"))
            assert self.polygon is not None
            _check_polygon(self.polygon)
        return self

    @property
    def hill_level(self) -> int:
        """Level of a hill (default 1), of a tall building/fortification (PD-11), else 0."""
        if self.kind is TerrainKind.HILL:
            return self.level or 1
        if self.kind in (TerrainKind.BUILDING, TerrainKind.FORTIFICATION):
            return self.level or 0
        return 0


def _check_line(points: tuple[Point, ...]) -> None:
    if len(points) < 2:
        raise ValueError("line: " + _("needs at least 2 points"))
    if all(math.isclose(p[0], points[0][0]) and math.isclose(p[1], points[0][1]) for p in points):
        raise ValueError("line: " + _("all points are the same (zero length)"))


def _check_polygon(points: tuple[Point, ...]) -> None:
    """A polygon must be simple, of positive area; the closing point may be repeated or not."""
    import shapely

    pts = list(points)
    if len(pts) >= 2 and pts[0] == pts[-1]:
        pts = pts[:-1]
    if len(pts) < 3:
        raise ValueError("polygon: " + _("needs at least 3 distinct corners, got {n}").format(n=len(pts)))
    poly = shapely.Polygon(pts)
    if poly.length <= 0 or abs(shapely.area(shapely.make_valid(poly))) <= 1e-9:
        raise ValueError("polygon: " + _("degenerate (zero area; are the corners on one line?)"))
    if not shapely.is_valid(poly):
        reason = shapely.is_valid_reason(poly)
        raise ValueError(
            "polygon: "
            + _("not a simple polygon ({reason}); the corners must go round the outline once").format(
                reason=reason
            )
        )


class BasePose(_Frozen):
    """One figure's base: centre, facing (degrees counter-clockwise from +x) and optional extras."""

    x: Coordinate
    y: Coordinate
    facing: FiniteFloat = Field(description="degrees counter-clockwise from +x; 90 faces side B")
    profile: ProfileRef | None = Field(None, description="1.1: this figure's own profile.")
    ammunition: tuple[Identifier, ...] | None = Field(
        None, description="7.1.3: ammunition names this gun carries (default: all of its profile's)."
    )
    width: Number | None = Field(
        None, gt=0, le=MAX_CM, allow_inf_nan=False, description="frontage override, cm"
    )
    depth: Number | None = Field(None, gt=0, le=MAX_CM, allow_inf_nan=False, description="depth override, cm")

    @field_validator("ammunition", mode="before")
    @classmethod
    def _one_or_many(cls, v: Any) -> Any:
        return (v,) if isinstance(v, str) else v


class Formation(_Frozen):
    """A unit's bases given as a formation (issue 17, :mod:`szwadron.formations`): ``(x, y)`` is
    the middle of its front edge; bases are numbered front rank first, from the unit's own left
    to its right, then each rank behind."""

    kind: FormationKind = Field(description="line | column | skirmish | square | battery")
    files: WholeNumber = Field(
        ge=1,
        le=MAX_FORMATION_BASES,
        description="Bases side by side (a square: bases a face; a battery: guns).",
    )
    ranks: WholeNumber = Field(1, ge=1, le=MAX_FORMATION_BASES, description="Ranks one behind the other.")
    x: Coordinate = Field(description="Middle of the front edge, cm.")
    y: Coordinate = Field(description="Middle of the front edge, cm.")
    facing: FiniteFloat = Field(description="degrees counter-clockwise from +x; 90 faces side B")
    gap: Number | None = Field(
        None,
        ge=0,
        le=MAX_SKIRMISH_GAP_CM,
        allow_inf_nan=False,
        description="skirmish only: cm between neighbouring bases (1.3.4: at most 4; 7.5: 2 or more halves "
        "fire casualties and melee strength); default 2",
    )
    limber: ProfileRef | None = Field(
        None, description="battery only: the limbers' profile; one limber behind each gun (7.2)."
    )

    @model_validator(mode="after")
    def _check(self) -> Formation:
        k = self.kind
        if self.gap is not None and k is not FormationKind.SKIRMISH:
            raise ValueError(
                "gap: "
                + _("only a skirmish formation takes a gap (7.5), not a {kind}").format(kind=term(k.value))
            )
        if self.limber is not None:
            if k is not FormationKind.BATTERY:
                raise ValueError(
                    "limber: "
                    + _("only a battery has limbers (7.2), not a {kind}").format(kind=term(k.value))
                )
            if self.limber.kind is not Kind.LIMBER:
                raise ValueError(
                    "limber: "
                    + _("profile {profile} is {kind}, not a limber").format(
                        profile=repr(self.limber.id), kind=term(self.limber.kind.value)
                    )
                )
        if k in (FormationKind.SQUARE, FormationKind.BATTERY) and self.ranks != 1:
            raise ValueError(
                "ranks: " + _("a {kind} has no ranks (give files only)").format(kind=term(k.value))
            )
        if k is FormationKind.SQUARE and self.files < 2:
            raise ValueError("files: " + _("a square has at least 2 bases a face"))
        size = formation_size(k, self.files, self.ranks) * (2 if self.limber is not None else 1)
        if size > MAX_FORMATION_BASES:
            raise ValueError(
                "files: "
                + _("the formation has {n} bases, more than {most}").format(n=size, most=MAX_FORMATION_BASES)
            )
        return self


def _expand(formation: Formation, profile: Profile) -> tuple[BasePose, ...]:
    """The bases of a formation, in file order (limbers last, with their own profile)."""
    w, d = profile.base_size
    gap = 0.0
    if formation.kind is FormationKind.SKIRMISH:
        gap = DEFAULT_SKIRMISH_GAP_CM if formation.gap is None else formation.gap
    limber = formation.limber
    poses = formation_poses(
        formation.kind,
        formation.files,
        formation.ranks,
        formation.x,
        formation.y,
        formation.facing,
        w,
        d,
        gap=gap,
        limbers=None if limber is None else limber.base_size,
    )
    guns = formation_size(formation.kind, formation.files, formation.ranks)
    return tuple(
        BasePose(x=px, y=py, facing=f, profile=limber if i >= guns else None)
        for i, (px, py, f) in enumerate(poses)
    )


class Unit(_Frozen):
    """A unit (oddział) on the table: its side, profile, state in the game and bases in file order.

    The bases are given one by one (``bases``) or as a ``formation``, expanded into bases here
    (:mod:`szwadron.formations`). The state of the game: the morale ``state`` (6.1), the unit it
    is ``pursuing`` (6.7), the enemy units it is ``engaged_with`` in melee (5.1.2), the action it
    took in this movement phase (``acted``, 2.3), a fire it ``declared`` for the opponent's turn
    (4.12.2) or, having ``stood`` without acting, its fire at a charger still to come (4.12.6),
    figures lost (``initial_strength`` less the bases on the table, 6.2).
    """

    id: Identifier
    side: Literal["A", "B"]
    name: str | None = None
    profile: ProfileRef
    initial_strength: WholeNumber | None = Field(None, ge=1, description="Starting figures (default: bases).")
    state: UnitState = UnitState.NORMAL
    prepared: Flag = Field(True, description="7.3: heavy artillery has prepared its firing position.")
    declared: Flag = Field(
        False, description="4.12.2: it declared fire in the opponent's turn and has not fired it yet."
    )
    stood: Flag = Field(
        False,
        description="4.12.6: it took no action in its side's last movement phase and declared no fire; "
        "until the end of the opponent's movement phase it may fire at the first unit that charges it.",
    )
    repulsed_pursuing: Flag = Field(
        False,
        description="6.7.9: it was repulsed while in uncontrolled pursuit and has not made its repulse "
        "move yet, which is the move after reorganising (6.8.5), not the move away of 6.5.",
    )
    pursuing: Identifier | None = Field(
        None, description="6.7: the enemy unit this unit pursues (state 'pursuit' only)."
    )
    engaged_with: tuple[Identifier, ...] = Field(
        (), description="5.1.2: the enemy units this unit is engaged with in melee."
    )
    acted: UnitAction | None = Field(
        None, description="2.3: the action the unit took in this movement phase (one a phase)."
    )
    formation: Formation | None = Field(
        None, description="The bases as a formation instead of 'bases' (issue 17)."
    )
    bases: tuple[BasePose, ...] = Field((), description="The bases in file order (or give 'formation').")

    _formation: Formation | None = PrivateAttr(None)

    @model_validator(mode="after")
    def _check(self) -> Unit:
        form = self.formation
        if form is not None:
            if self.bases:
                raise ValueError("formation: " + _("give either 'bases' or 'formation', not both"))
            if form.kind is FormationKind.SKIRMISH and not self.profile.has(Ability.SKIRMISH):
                raise ValueError(
                    "formation.kind: "
                    + _(
                        "skirmish order needs the skirmish ability (1.3.4, 7.5); profile {profile} has none"
                    ).format(profile=repr(self.profile.id))
                )
            if form.kind is FormationKind.SQUARE and self.profile.kind is not Kind.INFANTRY:
                raise ValueError(
                    "formation.kind: "
                    + _("a square is infantry's, not {kind}'s").format(kind=term(self.profile.kind.value))
                )
            if form.kind is FormationKind.BATTERY and not self.profile.kind.is_artillery:
                raise ValueError(
                    "formation.kind: "
                    + _("a battery is artillery, not {kind}").format(kind=term(self.profile.kind.value))
                )
            # every command sees bases: the formation is expanded and kept aside
            object.__setattr__(self, "bases", _expand(form, self.profile))
            object.__setattr__(self, "formation", None)
            self._formation = form
        elif not self.bases:
            raise ValueError("bases: " + _("give the unit's bases (at least one) or its 'formation'"))
        if self.pursuing is not None and self.state is not UnitState.PURSUIT:
            raise ValueError(
                "pursuing: "
                + _("only a unit in pursuit (6.7) pursues; this one is {state}").format(
                    state=term(self.state.value)
                )
            )
        if len(set(self.engaged_with)) != len(self.engaged_with):
            raise ValueError("engaged_with: " + _("a unit is listed twice"))
        if self.initial_strength is not None and self.initial_strength < len(self.bases):
            raise ValueError(
                "initial_strength: "
                + _("{initial} is less than the {n} bases on the table").format(
                    initial=self.initial_strength, n=len(self.bases)
                )
            )
        for i, b in enumerate(self.bases):
            prof = b.profile or self.profile
            if b.ammunition is not None:
                known = {a.name for a in prof.ammunition}
                for name in b.ammunition:
                    if name not in known:
                        raise ValueError(
                            f"bases[{i}].ammunition: "
                            + _("{name} is not an ammunition of profile {profile} (it has: {known})").format(
                                name=repr(name),
                                profile=repr(prof.id),
                                known=", ".join(sorted(known)) or _("none"),
                            )
                        )
        return self

    @property
    def strength(self) -> int:
        """Figures now on the table."""
        return len(self.bases)

    @property
    def given_formation(self) -> Formation | None:
        """The formation the unit's bases were expanded from, if the file gave one."""
        return self._formation

    @property
    def figures_lost(self) -> int:
        """Figures lost since the start (6.2): the starting strength less the bases on the table."""
        return self.starting_strength - len(self.bases)

    @property
    def starting_strength(self) -> int:
        """Initial strength (6.2 casualty modifiers), defaulting to the bases on the table."""
        return self.initial_strength if self.initial_strength is not None else len(self.bases)

    def base_profile(self, index: int) -> Profile:
        """Profile of base ``index`` (its own, 1.1, or the unit's)."""
        return self.bases[index].profile or self.profile

    def base_id(self, index: int) -> str:
        """``UNIT/INDEX`` (docs/decisions.md "Bases")."""
        return f"{self.id}/{index}"

    def base_size(self, index: int) -> tuple[float, float]:
        """(frontage, depth) of base ``index`` in cm."""
        b = self.bases[index]
        w, d = self.base_profile(index).base_size
        return (b.width or w, b.depth or d)

    def has(self, ability: Ability | str) -> bool:
        """Whether every figure of the unit has the ability."""
        return all(self.base_profile(i).has(ability) for i in range(len(self.bases)))


class Phase(StrEnum):
    """2.1 — the phases of a side's turn."""

    MORALE = "morale"
    MOVEMENT = "movement"


class Turn(_Frozen):
    """Where the game stands (2, 2.1): the round, whose turn it is and in which phase."""

    round: WholeNumber = Field(1, ge=1, description="The round: every side's turn once, in order.")
    side: Literal["A", "B"] = Field(
        "A", description="The side whose turn it is (when not given: the side that moves first, 2.1.4)."
    )
    phase: Phase = Field(Phase.MORALE, description="morale (2.2) or movement (2.3).")
    first: Literal["A", "B"] = Field(
        "A", description="The side that moves first in every round (initiative)."
    )
    morale_played: bool = Field(
        False,
        description="The side's morale phase has been played (morale --apply): it is not played twice (2.2).",
    )
    phase_ended: bool = Field(
        False,
        description="4.12.5: a declared fire at the end of the movement phase has been fired: the side "
        "whose phase it is acts no more in it.",
    )

    @model_validator(mode="before")
    @classmethod
    def _first_side_first(cls, data: Any) -> Any:
        """2.1.4 — "Kolejność wykonywania tur przez strony walczące określona jest poprzez
        ustalenie inicjatywy": a ``[turn]`` that names the side with the initiative and no side
        to play is at that side's turn, not side A's."""
        if isinstance(data, dict) and "side" not in data and data.get("first") in ("A", "B"):
            return {**data, "side": data["first"]}
        return data


class Scenario(_Frozen):
    """A battle set-up (or a position in a game): table, settings, terrain, units and, in a game,
    the turn counter."""

    name: str = Field(min_length=1)
    description: str | None = None
    table: Table
    settings: RulesSettings = Field(default_factory=RulesSettings)
    turn: Turn | None = Field(None, description="The game's round, side and phase (2); none for a set-up.")
    terrain: tuple[Terrain, ...] = ()
    units: tuple[Unit, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> Scenario:
        for label, ids in (("units", [u.id for u in self.units]), ("terrain", [t.id for t in self.terrain])):
            seen: set[str] = set()
            for i, ident in enumerate(ids):
                if ident in seen:
                    raise ValueError(f"{label}[{i}].id: " + _("duplicate id {id}").format(id=repr(ident)))
                seen.add(ident)
        sides = {u.id: u.side for u in self.units}
        for i, u in enumerate(self.units):
            if u.given_formation is not None:
                self._check_fits(i, u)
            others = [("pursuing", u.pursuing)] if u.pursuing is not None else []
            others += [(f"engaged_with[{j}]", e) for j, e in enumerate(u.engaged_with)]
            for where, other in others:
                if other not in sides:
                    raise ValueError(
                        f"units[{i}].{where}: " + _("no unit {unit} in the scenario").format(unit=repr(other))
                    )
                if sides[other] == u.side:
                    raise ValueError(
                        f"units[{i}].{where}: "
                        + _("{unit} is a unit of the same side, not an enemy").format(unit=repr(other))
                    )
        return self

    def _check_fits(self, i: int, u: Unit) -> None:
        """A formation whose bases reach past the table's edge is refused, naming the field."""
        w, d = self.table.width, self.table.depth
        for k, b in enumerate(u.bases):
            bw, bd = u.base_size(k)
            fx, fy = math.cos(math.radians(b.facing)), math.sin(math.radians(b.facing))
            xs = [b.x + sa * bd / 2 * fx + sb * bw / 2 * fy for sa in (-1, 1) for sb in (-1, 1)]
            ys = [b.y + sa * bd / 2 * fy - sb * bw / 2 * fx for sa in (-1, 1) for sb in (-1, 1)]
            lo, hi = (min(xs), min(ys)), (max(xs), max(ys))
            eps = 1e-6
            if lo[0] < -eps or lo[1] < -eps or hi[0] > w + eps or hi[1] > d + eps:
                raise ValueError(
                    f"units[{i}].formation: "
                    + _(
                        "the formation of unit {unit} does not fit the table (0..{w} × 0..{d} cm): its base "
                        "{k} reaches x {x0:.2f}..{x1:.2f}, y {y0:.2f}..{y1:.2f}"
                    ).format(
                        unit=repr(u.id), w=f"{w:g}", d=f"{d:g}", k=k, x0=lo[0], x1=hi[0], y0=lo[1], y1=hi[1]
                    )
                )

    def unit(self, unit_id: str) -> Unit:
        """The unit with this id; ``KeyError`` if none."""
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def terrain_feature(self, terrain_id: str) -> Terrain:
        """The terrain feature with this id; ``KeyError`` if none."""
        for t in self.terrain:
            if t.id == terrain_id:
                return t
        raise KeyError(terrain_id)


__all__ = [
    "AMMUNITION_CODES",
    "DEFAULT_BASE_SIZE_CM",
    "PROFILE_CODES",
    "Ability",
    "Ammunition",
    "ArmyList",
    "Attachment",
    "BasePose",
    "Formation",
    "FormationKind",
    "Kind",
    "Phase",
    "Profile",
    "Roster",
    "RosterConstraint",
    "RosterEntry",
    "RosterFile",
    "Scenario",
    "ShareOf",
    "Table",
    "Terrain",
    "TerrainKind",
    "Turn",
    "Unit",
    "UnitAction",
    "UnitState",
]
