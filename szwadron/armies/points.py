"""The points model (issue 7): points per figure from a profile, by the exact odds engine.

Method
------
1. **Values from the exact odds engine.** For every profile :func:`profile_values` measures,
   against the reference figure of the scale (the ``line`` template of ``armylists/README.md``:
   W 2, SW 1, UW 3, M 4):

   - ``fire`` — expected reference figures removed per firing figure and volley (4.6, 1.5.1;
     :func:`szwadron.odds.combat.volley`), with its best weapon (7.1.3) at each distance of the
     duel's approach, 0, 5, …, 40 cm (4.5.4: C − 1 per full 20 cm; 0 out of range), averaged;
   - ``melee`` — expected reference figures removed per figure and melee exchange (5.3;
     :func:`szwadron.odds.combat.melee`, 12 against 12, skirmishers halved, 7.5);
   - ``wounds`` — W;
   - ``morale`` — expected 6.3 tests passed before the first failure by a 12-figure unit that
     loses one figure per test (:func:`szwadron.odds.morale.morale_pass_chance`, with 6.2.4's
     casualty modifiers);
   - ``speed`` — R, or the limbered move of a gun fielded with its limber (7.2).

2. **Formula** (Lanchester: a unit's strength is its size times what each figure deals times
   how long it lasts, so the value per figure is a product):

   .. math::

      \\text{points} = P_{\\text{ref}}\\;
        \\Big(\\frac{F + \\mu M}{F_r + \\mu M_r}\\Big)^{\\alpha}
        \\Big(\\frac{W}{W_r}\\Big)^{\\beta}
        \\Big(\\frac{m}{m_r}\\Big)^{\\gamma}
        \\Big(\\frac{R}{R_r}\\Big)^{\\delta}
        \\; e^{\\sum_k c_k [\\text{kind } k]} \\; e^{\\sum_a s_a [\\text{ability } a]}

   where ``F`` is fire, ``M`` melee, ``m`` morale, ``R`` speed, and the ``_r`` values are the
   reference figure's; ``P_ref`` is the reference figure's points. The result is rounded to the
   model's ``step`` (a tenth of a point). Limbers are 0: they cannot fight, and what they add (the
   limbered move, 7.2) is in the gun's speed.

3. **Coefficients** (μ, α, β, γ, δ, the artillery and ability terms) are fitted to simulated
   battles at equal points, several standard units a side (:func:`szwadron.armies.duel.run_battle`,
   :mod:`szwadron.armies.calibrate`) and stored in
   ``szwadron/data/points_model.toml``; ``P_ref`` is :data:`REFERENCE_POINTS` (10): the scale
   is fixed, and the example rosters are built to spend their limits. The stored ``points`` of the army lists are this
   formula's output; :func:`stale_points` finds the ones that differ. Cavalry has no kind
   term (it stays 0): its value is in its melee (μ), W, M and speed, so the breakdown shows
   where it comes from. Artillery keeps one: a battery is a one-gun unit that breaks at its
   first failed test, which no per-figure value measures.

4. **Duel corrections.** What the formula's few terms cannot tell apart — the long range of
   rifles against muskets, a low M on a cheap figure, first strike against high W, what a kind
   of figure is worth inside a mixed army — the battles still measure: with the coefficients
   fixed, one log-factor per fighting profile (by :func:`profile_key`) is fitted to the duels
   and to battles between random legal rosters of the lists (issue 14; never the example
   rosters: :func:`szwadron.armies.calibrate.fit_corrections`), shrunk towards 0 (a ridge, so a profile
   measured by few battles keeps its formula price) and taken relative to the reference figure.
   A profile that :func:`dominates` another (as good in every characteristic, better in one) is
   then raised to at least the other's value
   (:func:`szwadron.armies.calibrate.floor_dominated`): a better figure never costs less.
   It appears in the breakdown as the ``measured`` term. A profile the calibration has not seen
   (a new list) is priced by the formula alone; ``szwadron points calibrate --lists DIR``
   measures it.

Examples
--------
>>> model = load_model()
>>> from szwadron.loading import bundled_dir, load_army_list
>>> army = load_army_list(bundled_dir("armylists") / "france.toml")
>>> line = price_profile(army.profile("line_infantry"), model)
>>> line.points == model.reference_points
True
>>> round(sum(t.points for t in line.terms), 9) == round(line.points - line.base, 9)
True
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from szwadron.armies.duel import DuelUnit, modified_accuracy
from szwadron.errors import InvalidDataError
from szwadron.files import read_input, write_atomic
from szwadron.i18n import gettext
from szwadron.loading import read_toml
from szwadron.models import Ability, ArmyList, Kind, Profile
from szwadron.odds.combat import MeleeSide, melee, volley
from szwadron.odds.morale import morale_pass_chance

#: The coefficients file shipped with the package.
MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "points_model.toml"

#: Distances (cm) over which the fire value is averaged: the duel's approach (4.5.4).
FIRE_DISTANCES_CM: tuple[float, ...] = tuple(float(d) for d in range(0, 41, 5))
#: Figures a side in the melee and morale measurements.
VALUATION_FIGURES = 12

#: The reference figure of the scale: the ``line`` template (armylists/README.md).
REFERENCE_PROFILE = Profile.model_validate(
    {
        "id": "reference_line",
        "name": "Reference line infantry (the scale's template)",
        "kind": "infantry",
        "R": 12,
        "W": 2,
        "SW": 1,
        "SO": 1,
        "Z": 24,
        "UW": 3,
        "C": 3,
        "M": 4,
    }
)

#: Kind terms of the formula (infantry is the baseline).
KIND_TERMS: dict[str, tuple[Kind, ...]] = {
    "cavalry": (Kind.CAVALRY,),
    "artillery": (Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY),
}
#: Ability terms of the formula, in the order of the breakdown.
ABILITY_TERMS: tuple[Ability, ...] = (
    Ability.SKIRMISH,
    Ability.FIRST_STRIKE_CHARGE,
    Ability.FIRST_STRIKE_DEFENCE,
    Ability.AUTO_DISENGAGE,
    Ability.HEAVY,
    Ability.INDIRECT,
)
#: Points of the reference figure: the scale of every army list.
REFERENCE_POINTS = 10.0
#: Names of the continuous terms, in the order of the breakdown.
CONTINUOUS_TERMS: tuple[str, ...] = ("offence", "wounds", "morale", "speed")
#: Name of the duel correction's term (module notes, step 4), the last of the breakdown.
MEASURED_TERM = "measured"
#: Largest duel correction a model may hold, as a log-factor (e^±1: × 2.7 or ÷ 2.7).
MAX_CORRECTION = 1.0


# --- values from the exact odds engine ------------------------------------------------------
@dataclass(frozen=True)
class ProfileValues:
    """What a figure is worth in the rules' own terms (module notes, step 1)."""

    fire: float
    """Expected reference figures removed per figure and volley, averaged over the approach."""
    melee: float
    """Expected reference figures removed per figure and melee exchange."""
    wounds: int
    morale: float
    """Expected 6.3 tests passed before the first failure (12 figures, one lost per test)."""
    speed: float
    """R in cm (the limbered move for guns with a limber, 7.2)."""
    kind: Kind
    abilities: tuple[Ability, ...]
    key: str = ""
    """:func:`profile_key`: the characteristics the duel correction is stored under."""

    def offence(self, melee_weight: float) -> float:
        """``fire + μ · melee``."""
        return self.fire + melee_weight * self.melee


def _signature(profile: Profile) -> tuple[Any, ...]:
    ammo = tuple((a.name, a.range, a.fire, a.accuracy, a.indirect) for a in profile.ammunition)
    return (
        profile.kind,
        profile.move,
        profile.move_limbered,
        profile.wounds,
        profile.melee,
        profile.fire,
        profile.range,
        profile.melee_skill,
        profile.accuracy,
        profile.morale,
        tuple(sorted(profile.abilities)),
        ammo,
    )


def profile_key(profile: Profile) -> str:
    """The fighting characteristics of ``profile`` as one line: what the duels measure, and the
    key of the model's duel corrections (ids, names and points do not count).

    >>> profile_key(REFERENCE_PROFILE)
    'infantry R12 W2 SW1 SO1 Z24 UW3 C3 M4'
    """
    move = f"R{profile.move:g}" + (f"/{profile.move_limbered:g}" if profile.move_limbered is not None else "")
    parts = [
        profile.kind.value,
        move,
        f"W{profile.wounds}",
        f"SW{profile.melee}",
        f"SO{profile.fire}",
        f"Z{profile.range:g}",
        f"UW{profile.melee_skill}",
        f"C{profile.accuracy}",
        f"M{profile.morale}",
    ]
    parts += sorted(a.value for a in profile.abilities)
    parts += [
        f"{a.name}:Z{a.range:g}/SO{a.fire}/C{a.accuracy}" + ("/indirect" if a.indirect else "")
        for a in profile.ammunition
    ]
    return " ".join(parts)


#: The characteristics a profile is the better for having more of: R (2.3), W (4.7), SW and UW
#: (5.3), SO, Z and C (4.5), M (6.2: a test passes on M or less).
BETTER_WHEN_HIGHER: tuple[str, ...] = (
    "move",
    "wounds",
    "melee",
    "fire",
    "range",
    "melee_skill",
    "accuracy",
    "morale",
)


def dominates(better: Profile, worse: Profile) -> bool:
    """``better`` is as good as ``worse`` in every fighting characteristic (:data:`BETTER_WHEN_HIGHER`,
    and the limbered move, 7.2) and better in at least one, with the same abilities and ammunition
    and of the same kind — or horse artillery against foot artillery, which moves with the cavalry
    and flees and pursues further (6.6.2, 6.7). A figure like that never costs less than the one it
    dominates (issue 14; docs/decisions.md).

    >>> gun = REFERENCE_PROFILE.model_copy(update={"kind": Kind.FOOT_ARTILLERY, "move": 10})
    >>> horse = gun.model_copy(update={"kind": Kind.HORSE_ARTILLERY, "move": 20})
    >>> dominates(horse, gun), dominates(gun, horse), dominates(gun, gun)
    (True, False, False)
    """
    same_kind = better.kind is worse.kind or (
        better.kind is Kind.HORSE_ARTILLERY and worse.kind is Kind.FOOT_ARTILLERY
    )
    if (
        not same_kind
        or set(better.abilities) != set(worse.abilities)
        or better.ammunition != worse.ammunition
    ):
        return False
    if (better.move_limbered is None) != (worse.move_limbered is None):
        return False
    pairs = [(getattr(better, name), getattr(worse, name)) for name in BETTER_WHEN_HIGHER]
    if better.move_limbered is not None and worse.move_limbered is not None:
        pairs.append((better.move_limbered, worse.move_limbered))
    return all(b >= w for b, w in pairs) and (any(b > w for b, w in pairs) or better.kind is not worse.kind)


def profile_values(profile: Profile) -> ProfileValues:
    """Step 1 of the method: the profile's fire, melee, W, morale and speed values.

    Examples
    --------
    >>> v = profile_values(REFERENCE_PROFILE)
    >>> round(v.melee, 6), v.wounds, v.speed      # 1 die ≤ 3 against W 2: 1/4 figure
    (0.25, 2, 12.0)
    """
    return _values(_signature(profile), profile)


_VALUES: dict[tuple[Any, ...], ProfileValues] = {}


def _values(sig: tuple[Any, ...], profile: Profile) -> ProfileValues:
    """Values by the profile's characteristics (its id and name do not matter)."""
    hit = _VALUES.get(sig)
    if hit is None:
        hit = _VALUES[sig] = _compute_values(profile)
    return hit


def _fire_value(profile: Profile) -> float:

    if profile.kind is Kind.LIMBER:
        return 0.0
    unit = DuelUnit.from_profile(profile)
    ref_w = REFERENCE_PROFILE.wounds
    total = 0.0
    for d in FIRE_DISTANCES_CM:
        best = 0.0
        for w in unit.weapons:
            acc = modified_accuracy(w.accuracy, d)
            if d <= w.range_cm and acc > 0:
                best = max(best, volley([(w.fire, acc)], ref_w).expected)
        total += best
    return total / len(FIRE_DISTANCES_CM)


def _melee_value(profile: Profile) -> float:

    if profile.melee == 0:
        return 0.0
    n = VALUATION_FIGURES
    ref = REFERENCE_PROFILE
    side = MeleeSide.uniform(
        n,
        melee=profile.melee,
        skill=profile.melee_skill,
        wounds=profile.wounds,
        morale=profile.morale,
        skirmish=profile.has(Ability.SKIRMISH),
    )
    target = MeleeSide.uniform(
        n, melee=ref.melee, skill=ref.melee_skill, wounds=ref.wounds, morale=ref.morale
    )
    return float(melee(side, target).defender_removed.mean()) / n


def _morale_value(morale: int) -> float:

    n = VALUATION_FIGURES
    expected, alive = 0.0, 1.0
    for lost in range(1, n):
        alive *= float(morale_pass_chance(morale, n - lost, n))
        expected += alive
    return expected


def _compute_values(profile: Profile) -> ProfileValues:
    speed = profile.move_limbered if profile.move_limbered is not None else profile.move
    return ProfileValues(
        fire=_fire_value(profile),
        melee=_melee_value(profile),
        wounds=profile.wounds,
        morale=_morale_value(profile.morale),
        speed=float(speed),
        kind=profile.kind,
        abilities=tuple(profile.abilities),
        key=profile_key(profile),
    )


# --- the model -------------------------------------------------------------------------------
@dataclass(frozen=True)
class PointsModel:
    """The fitted coefficients (module notes, step 2) and the scale.

    Attributes
    ----------
    melee_weight:
        μ: one reference figure removed in melee is worth μ removed by fire.
    exponents:
        α, β, γ, δ of offence, wounds, morale, speed.
    kinds:
        Log-factors of the kind terms (``cavalry``, ``artillery``; infantry 0).
    abilities:
        Log-factors of the ability terms (0 for an ability the duel cannot measure).
    reference_points:
        Points of the reference figure.
    step:
        Points are rounded to a multiple of this (default 0.1: cheap figures cost 1–3 points,
        where whole points would be too coarse).
    steepness:
        κ of the duel fit: P(A wins) = logistic(κ · log(value A / value B)), value = figures ×
        points. Used by :mod:`szwadron.armies.balance` for the predicted chance.
    """

    melee_weight: float
    exponents: dict[str, float]
    kinds: dict[str, float]
    abilities: dict[str, float]
    reference_points: float
    step: float = 0.1
    steepness: float = 1.0
    version: str = ""
    notes: dict[str, Any] = field(default_factory=dict)
    army_steepness: tuple[float, float] | None = None
    """``(a, b)``: battles of whole armies of ``u`` units a side (the mean of the two) follow
    ``σ(κ_u · log(points A / points B))`` with ``κ_u = a · u^b`` — many units make a small
    edge in points decisive (:func:`szwadron.armies.battles.fit_army_steepness`)."""
    corrections: dict[str, float] = field(default_factory=dict)
    """The duel corrections (module notes, step 4): a log-factor by :func:`profile_key`."""
    correction_members: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The ``army:profile`` labels each correction was measured for (documentation)."""

    def __post_init__(self) -> None:
        for name in CONTINUOUS_TERMS:
            if name not in self.exponents:
                raise InvalidDataError(gettext("points model: exponents.{name}: missing").format(name=name))
        for name, value in (
            ("melee_weight", self.melee_weight),
            ("reference_points", self.reference_points),
            ("step", self.step),
            ("steepness", self.steepness),
        ):
            if not math.isfinite(value) or value <= 0:
                raise InvalidDataError(
                    gettext("points model: {name}: expected a finite number > 0, got {value!r}").format(
                        name=name, value=value
                    )
                )
        for key in self.kinds:
            if key not in KIND_TERMS:
                raise InvalidDataError(
                    gettext("points model: kinds.{key}: unknown kind term").format(key=key)
                )
        for key in self.abilities:
            if key not in {a.value for a in ABILITY_TERMS}:
                raise InvalidDataError(
                    gettext("points model: abilities.{key}: unknown ability").format(key=key)
                )
        if self.army_steepness is not None:
            a, b = self.army_steepness
            if not (math.isfinite(a) and a > 0 and math.isfinite(b) and 0 <= b <= 2):
                raise InvalidDataError(
                    gettext(
                        "points model: army_steepness: expected [a > 0, b in 0..2], got {value!r}"
                    ).format(value=list(self.army_steepness))
                )
        for key, value in self.corrections.items():
            if not math.isfinite(value) or abs(value) > MAX_CORRECTION:
                raise InvalidDataError(
                    gettext(
                        "points model: corrections ({key!r}): expected a log-factor within ±{MAX_CORRECTION:g}, got {value!r}"
                    ).format(key=key, MAX_CORRECTION=MAX_CORRECTION, value=value)
                )

    def log_terms(self, values: ProfileValues) -> dict[str, float]:
        """Each term's log-factor relative to the reference figure (module notes, step 2)."""
        ref = profile_values(REFERENCE_PROFILE)
        if values.kind is Kind.LIMBER:
            raise InvalidDataError(gettext("a limber has no combat value; its points are 0 (7.2)"))
        off = values.offence(self.melee_weight)
        if off <= 0:
            raise InvalidDataError(gettext("a figure that deals no damage in fire or melee cannot be priced"))
        ratios = {
            "offence": off / ref.offence(self.melee_weight),
            "wounds": values.wounds / ref.wounds,
            "morale": max(values.morale, 1e-3) / ref.morale,
            "speed": max(values.speed, 1.0) / ref.speed,
        }
        terms = {name: self.exponents[name] * math.log(r) for name, r in ratios.items()}
        for name, kinds in KIND_TERMS.items():
            terms[name] = self.kinds.get(name, 0.0) if values.kind in kinds else 0.0
        held = set(values.abilities)
        if Ability.FIRST_STRIKE in held:  # 7.7.1 unrestricted: priced as both limited kinds
            held |= {Ability.FIRST_STRIKE_CHARGE, Ability.FIRST_STRIKE_DEFENCE}
        for ability in ABILITY_TERMS:
            terms[ability.value] = self.abilities.get(ability.value, 0.0) if ability in held else 0.0
        terms[MEASURED_TERM] = self.corrections.get(values.key, 0.0)
        return terms

    def raw_value(self, profile: Profile) -> float:
        """Unrounded points of ``profile`` (0 for a limber)."""
        if profile.kind is Kind.LIMBER:
            return 0.0
        return self.reference_points * math.exp(sum(self.log_terms(profile_values(profile)).values()))

    def round(self, value: float) -> float:
        """Round to the model's step (a tenth of a point), never below one step for a fighting figure."""
        if value <= 0:
            return 0.0
        return round(max(1, round(value / self.step)) * self.step, 9)

    def points(self, profile: Profile) -> float:
        """Points per figure of ``profile`` (rounded)."""
        return self.round(self.raw_value(profile))

    def steepness_for(self, units: float) -> float:
        """κ of a battle of ``units`` fighting units a side (the mean of the two sides): the
        army steepness when the model has one, else the duels' :attr:`steepness`.

        >>> from dataclasses import replace
        >>> m = replace(load_model(), army_steepness=(1.5, 0.5))
        >>> m.steepness_for(4.0)
        3.0
        """
        if self.army_steepness is None or units <= 0:
            return self.steepness
        a, b = self.army_steepness
        return float(a * units**b)

    def to_toml(self) -> str:
        """The coefficients file's text."""

        def num(x: float) -> str:
            return repr(float(x))

        lines = [
            "# Points model (issue 7): coefficients fitted to simulated duels by `szwadron points calibrate`.",
            "# points = reference_points * (offence/offence_ref)^offence * (W/W_ref)^wounds",
            "#          * (morale/morale_ref)^morale * (R/R_ref)^speed * exp(kind + abilities + measured)",
            "# offence = fire + melee_weight * melee (values from the exact odds engine; see szwadron.armies.points).",
            f'version = "{self.version}"',
            f"reference_points = {num(self.reference_points)}",
            f"step = {num(self.step)}",
            f"melee_weight = {num(self.melee_weight)}",
            f"steepness = {num(self.steepness)}",
            *(
                [f"army_steepness = [{num(self.army_steepness[0])}, {num(self.army_steepness[1])}]"]
                if self.army_steepness is not None
                else []
            ),
            "",
            "[exponents]",
            *(f"{k} = {num(self.exponents[k])}" for k in CONTINUOUS_TERMS),
            "",
            "[kinds]",
            *(f"{k} = {num(v)}" for k, v in self.kinds.items()),
            "",
            "[abilities]",
            *(f"{k} = {num(v)}" for k, v in self.abilities.items()),
        ]
        if self.notes:
            lines += ["", "[notes]"]
            for k, v in self.notes.items():
                lines.append(f"{k} = {_toml_value(v)}")
        if self.corrections:
            lines += [
                "",
                "# Duel corrections (step 4 of the method): what the duels measured of each fighting",
                "# profile beyond the formula, a log-factor on its points; `members` are the profiles measured.",
            ]
            for key, value in self.corrections.items():
                lines += [
                    "",
                    "[[corrections]]",
                    f"profile = {_toml_value(key)}",
                    f"log_factor = {num(value)}",
                    f"members = {_toml_value(list(self.correction_members.get(key, ())))}",
                ]
        return "\n".join(lines) + "\n"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v) if isinstance(v, int) else repr(float(v))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def model_from_mapping(data: Mapping[str, Any], *, source: str = "points model") -> PointsModel:
    """Build a :class:`PointsModel` from parsed TOML; errors name the field."""

    def number(key: str, table: Mapping[str, Any], where: str) -> float:
        value = table.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            message = gettext("expected a number, got {value!r}").format(value=value)
            raise InvalidDataError(f"{where}{key}: {message}", source=source)
        return float(value)

    def table(key: str) -> dict[str, float]:
        raw = data.get(key, {})
        if not isinstance(raw, dict):
            raise InvalidDataError(f"{key}: " + gettext("expected a table"), source=source)
        return {k: number(k, raw, f"{key}.") for k in raw}

    corrections: dict[str, float] = {}
    members: dict[str, tuple[str, ...]] = {}
    raw_corrections = data.get("corrections", [])
    if not isinstance(raw_corrections, list):
        raise InvalidDataError(
            gettext("corrections: expected an array of tables ([[corrections]])"), source=source
        )
    for k, entry in enumerate(raw_corrections):
        where = f"corrections[{k}]."
        if not isinstance(entry, dict):
            raise InvalidDataError(f"corrections[{k}]: " + gettext("expected a table"), source=source)
        key = entry.get("profile")
        if not isinstance(key, str) or not key:
            message = gettext("expected the profile's characteristics as text")
            raise InvalidDataError(f"{where}profile: {message}", source=source)
        if key in corrections:
            message = gettext("{key!r} has a correction already").format(key=key)
            raise InvalidDataError(f"{where}profile: {message}", source=source)
        corrections[key] = number("log_factor", entry, where)
        labels = entry.get("members", [])
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            message = gettext("expected a list of 'army:profile' texts")
            raise InvalidDataError(f"{where}members: {message}", source=source)
        members[key] = tuple(labels)
    army: tuple[float, float] | None = None
    if "army_steepness" in data:
        raw = data["army_steepness"]
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in raw)
        ):
            raise InvalidDataError(
                gettext("army_steepness: expected two numbers [a, b], got {raw!r}").format(raw=raw),
                source=source,
            )
        army = (float(raw[0]), float(raw[1]))
    try:
        return PointsModel(
            melee_weight=number("melee_weight", data, ""),
            exponents=table("exponents"),
            kinds=table("kinds"),
            abilities=table("abilities"),
            reference_points=number("reference_points", data, ""),
            step=number("step", data, "") if "step" in data else 0.1,
            steepness=number("steepness", data, "") if "steepness" in data else 1.0,
            version=str(data.get("version", "")),
            notes=dict(data.get("notes", {})),
            army_steepness=army,
            corrections=corrections,
            correction_members=members,
        )
    except InvalidDataError as exc:
        if exc.source:
            raise
        raise InvalidDataError(exc.detail, source=source) from None


def load_model(path: str | Path | None = None) -> PointsModel:
    """Read the coefficients file (default: the one shipped with the package)."""

    p = Path(path) if path is not None else MODEL_PATH
    return model_from_mapping(read_toml(p), source=str(p))


# --- prices and breakdowns ---------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One step of a breakdown: its factor on the points and the points it adds (or takes)."""

    name: str
    factor: float
    points: float


@dataclass(frozen=True)
class PointsBreakdown:
    """A profile's points: the reference points, each term's step, the rounding, the total.

    The steps are applied in order (offence, wounds, morale, speed, kinds, abilities); each
    ``Term.points`` is what its factor adds to the running total, so
    ``base + Σ terms + rounding == points``.
    """

    profile: str
    kind: Kind
    points: float
    raw: float
    base: float
    terms: tuple[Term, ...]
    values: ProfileValues | None

    @property
    def rounding(self) -> float:
        """What rounding to the step added."""
        return self.points - self.raw

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document of one profile."""
        v = self.values
        return {
            "profile": self.profile,
            "kind": self.kind.value,
            "points": self.points,
            "raw": self.raw,
            "base": self.base,
            "terms": [{"name": t.name, "factor": t.factor, "points": t.points} for t in self.terms],
            "rounding": self.rounding,
            "values": None
            if v is None
            else {"fire": v.fire, "melee": v.melee, "wounds": v.wounds, "morale": v.morale, "speed": v.speed},
        }


def price_profile(profile: Profile, model: PointsModel) -> PointsBreakdown:
    """The points of ``profile`` with their breakdown (module notes, step 2)."""
    if profile.kind is Kind.LIMBER:
        return PointsBreakdown(profile.id, profile.kind, 0.0, 0.0, 0.0, (), None)
    values = profile_values(profile)
    logs = model.log_terms(values)
    running = model.reference_points
    terms: list[Term] = []
    for name, lf in logs.items():
        if lf == 0.0 and name not in CONTINUOUS_TERMS:
            continue
        new = running * math.exp(lf)
        terms.append(Term(name, math.exp(lf), new - running))
        running = new
    return PointsBreakdown(
        profile.id, profile.kind, model.round(running), running, model.reference_points, tuple(terms), values
    )


def price_army(army: ArmyList, model: PointsModel) -> dict[str, PointsBreakdown]:
    """Every profile of an army list, priced."""
    return {p.id: price_profile(p, model) for p in army.profiles}


@dataclass(frozen=True)
class StalePoints:
    """A profile whose stored points differ from the model's."""

    army: str
    profile: str
    stored: float | None
    computed: float

    def __str__(self) -> str:
        return f"{self.army}:{self.profile}: stored {self.stored}, the model gives {self.computed:g}"


def stale_points(army: ArmyList, model: PointsModel) -> list[StalePoints]:
    """Profiles whose stored ``points`` are missing or differ from the model (cheap: no duels)."""
    out = []
    for p in army.profiles:
        computed = model.points(p)
        if p.points is None or abs(p.points - computed) > 1e-9:
            out.append(StalePoints(army.id, p.id, p.points, computed))
    return out


# --- writing points into army-list files --------------------------------------------------
_HEADER = re.compile(r"^\s*\[")
_PROFILE_HEADER = re.compile(r"^\[\[profiles\]\]\s*(#.*)?$")
_ID_LINE = re.compile(r'^id\s*=\s*"([^"]*)"\s*(#.*)?$')
_POINTS_LINE = re.compile(r"^points\s*=\s*([^#\s]+)(\s*)(#.*)?$")
_MORALE_LINE = re.compile(r"^(morale|M)\s*=\s*[^#]*?(\s*)(#.*)?$")
#: Column of the comments after ``key = value`` in the army lists.
COMMENT_COLUMN = 24


def format_points(value: float) -> str:
    """``14`` or ``14.5``: whole numbers without a decimal point.

    >>> format_points(14.0), format_points(14.5)
    ('14', '14.5')
    """
    return str(int(value)) if float(value).is_integer() else repr(float(value))


# long: a line-by-line TOML editor keeping comments; its cases (table header, key, inline table) share the cursor.
def set_points_in_text(text: str, points: Mapping[str, float]) -> str:
    """Set ``points = N`` of the listed profiles in an army list's TOML text, line by line.

    Only the ``points`` lines of ``[[profiles]]`` tables change: an existing line keeps its
    comment; a missing one is added after the profile's ``morale`` line (or after its ``id``),
    aligned like the characteristics. Everything else — comments, order, spacing, rosters —
    stays byte for byte. The result is parsed again and checked: only those points changed.

    Raises
    ------
    InvalidDataError
        A profile in ``points`` is not in the text, or the edited text does not parse back to
        the same data with the new points.

    Examples
    --------
    >>> text = '[[profiles]]\\nid = "a"\\nmorale = 4              # M\\n'
    >>> print(set_points_in_text(text, {"a": 7}), end="")
    [[profiles]]
    id = "a"
    morale = 4              # M
    points = 7              # per figure: szwadron points calibrate
    """
    lines = text.splitlines(keepends=True)
    # find each [[profiles]] block: from its header to the next table header
    blocks: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if _PROFILE_HEADER.match(lines[i].rstrip("\r\n")):
            j = i + 1
            while j < len(lines) and not _HEADER.match(lines[j]):
                j += 1
            blocks.append((i, j))
            i = j
        else:
            i += 1
    edits: dict[int, str] = {}
    inserts: dict[int, str] = {}
    found: set[str] = set()
    for start, end in blocks:
        pid = None
        points_at = morale_at = None
        for k in range(start + 1, end):
            line = lines[k].rstrip("\r\n")
            if m := _ID_LINE.match(line):
                pid = m.group(1)
                id_at = k
            elif _POINTS_LINE.match(line):
                points_at = k
            elif _MORALE_LINE.match(line):
                morale_at = k
        if pid is None or pid not in points:
            continue
        found.add(pid)
        value = format_points(points[pid])
        newline = "\r\n" if lines[start].endswith("\r\n") else "\n"
        if points_at is not None:
            line = lines[points_at].rstrip("\r\n")
            m = _POINTS_LINE.match(line)
            assert m is not None
            comment = m.group(3)
            head = f"points = {value}"
            edits[points_at] = (head.ljust(COMMENT_COLUMN) + comment if comment else head) + newline
        else:
            head = f"points = {value}"
            new = head.ljust(COMMENT_COLUMN) + "# per figure: szwadron points calibrate" + newline
            after = morale_at if morale_at is not None else id_at
            inserts[after] = new
    missing = sorted(set(points) - found)
    if missing:
        raise InvalidDataError(
            gettext("no [[profiles]] table with id {missing!r} in the army list").format(missing=missing[0])
        )
    out: list[str] = []
    for k, line in enumerate(lines):
        out.append(edits.get(k, line))
        if k in inserts:
            if not line.endswith(("\n", "\r\n")):
                out[-1] = line + "\n"
            out.append(inserts[k])
    result = "".join(out)
    _check_edit(text, result, points)
    return result


def _check_edit(before: str, after: str, points: Mapping[str, float]) -> None:
    try:
        old = tomllib.loads(before)
        new = tomllib.loads(after)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidDataError(gettext("editing the points broke the TOML: {exc}").format(exc=exc)) from None
    for prof in old.get("profiles", []):
        if prof.get("id") in points:
            prof["points"] = points[prof["id"]]
    for prof in new.get("profiles", []):
        if prof.get("id") in points and prof.get("points") != points[prof["id"]]:
            raise InvalidDataError(
                gettext("profile {value!r}: points not written").format(value=prof.get("id"))
            )
    if old != new:
        raise InvalidDataError(
            gettext("editing the points changed other data of the army list; nothing written")
        )


def write_points(path: str | Path, points: Mapping[str, float], *, to: str | Path | None = None) -> bool:
    """Set the points of an army-list file (:func:`set_points_in_text`), atomically: in place, or
    into the file ``to`` (the list with its new points). Returns whether the points changed."""

    p = Path(path)
    text = read_input(p).decode("utf-8")  # regular files only, bounded (issue 16)
    new = set_points_in_text(text, points)

    def write(tmp: Path) -> None:
        tmp.write_text(new, encoding="utf-8")

    if to is not None:
        write_atomic(to, write, inputs=(p,))
        return new != text
    if new == text:
        return False
    write_atomic(p, write)
    return True


def model_points(armies: Sequence[ArmyList], model: PointsModel) -> dict[str, dict[str, float]]:
    """``{army id: {profile id: points}}`` from the model."""
    return {a.id: {p.id: model.points(p) for p in a.profiles} for a in armies}


__all__ = [
    "ABILITY_TERMS",
    "BETTER_WHEN_HIGHER",
    "CONTINUOUS_TERMS",
    "FIRE_DISTANCES_CM",
    "KIND_TERMS",
    "MAX_CORRECTION",
    "MEASURED_TERM",
    "MODEL_PATH",
    "REFERENCE_POINTS",
    "REFERENCE_PROFILE",
    "PointsBreakdown",
    "PointsModel",
    "ProfileValues",
    "StalePoints",
    "Term",
    "dominates",
    "format_points",
    "load_model",
    "model_from_mapping",
    "model_points",
    "price_army",
    "price_profile",
    "profile_key",
    "profile_values",
    "set_points_in_text",
    "stale_points",
    "write_points",
]
