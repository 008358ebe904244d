"""The ``--json`` documents of the command line, as data models: their JSON Schemas are generated
from these models (:mod:`szwadron.schemas`, ``schemas/output/``) as the input formats' are.

Every document is a JSON object whose first key is ``"schema_version"``
(:data:`szwadron.SCHEMA_VERSION`, an integer): it grows by one when a key is removed or renamed,
or changes its meaning or type; a new key does not change it. The command line adds it
(``szwadron.cli._common.print_json``); the library's ``to_json`` methods return the rest.

The models describe the documents, they do not produce them: objects the models list field by
field forbid other keys, so a key added to a document without its schema fails the test that
validates the README examples' documents against their schemas (tests/test_output_schemas.py).
Where a part is itself an open-ended record (the calibration's fitted model, the round-robin of
``points validate``), it is an object of any keys.

Nothing here is imported by the command line at run time.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from szwadron.models import Turn

#: Probabilities, indexed by a count: ``"removed_pmf": [p0, p1, ...]``.
Pmf = list[float]


class _Part(BaseModel):
    """An object of the document: exactly these keys."""

    model_config = ConfigDict(extra="forbid")


class _Document(_Part):
    """A whole ``--json`` document. (Its version is written here as a literal, not imported from
    :mod:`szwadron`, which re-exports every layer; a test checks the two agree.)"""

    schema_version: Literal[1] = Field(
        description="Version of the document's layout (szwadron.SCHEMA_VERSION): it grows when a key is "
        "removed or renamed or changes meaning; a new key does not change it."
    )


class Reason(_Part):
    """The rule that says no, and why."""

    rule: str
    message: str


# --- check --------------------------------------------------------------------------------------


class CheckUnit(_Part):
    id: str
    side: str
    coherent: bool = Field(description="1.3")
    groups: list[list[str]] = Field(description="coherency groups (1.3), bases as UNIT/INDEX")
    engaged_with: list[str] = Field(description="5.1.2")
    recorded_engaged: list[str] = Field(
        description="5.1.2, 5.6: enemy units recorded as engaged with it (engaged_with) that none of its "
        "figures touches now: a push-up is pending"
    )
    state: str
    skirmish: bool


class Contact(_Part):
    a: str
    b: str
    length: float = Field(description="cm of touching edge")
    distance: float


class ZoneIntrusion(_Part):
    base: str
    zone_of: str
    distance: float
    across: bool


class Problem(_Part):
    rule: str
    message: str
    bases: list[str]


class CheckSummary(_Part):
    units: int
    bases: int
    problems: int
    ok: bool


class CheckDocument(_Document):
    """``szwadron check SCENARIO --json``."""

    units: list[CheckUnit]
    overlaps: list[list[str]] = Field(description="pairs of bases overlapping")
    off_table: list[str]
    forbidden_terrain: list[list[str]] = Field(description="[base, terrain feature] (3.2.4, 3.2.5)")
    contacts: list[Contact]
    zone_intrusions: list[ZoneIntrusion] = Field(description="1.4")
    problems: list[Problem]
    scenario: str
    summary: CheckSummary
    overlap_depths: list[float] = Field(description="cm, in the order of overlaps")
    bases_in_contact: list[str]


# --- measure ------------------------------------------------------------------------------------


class MeasureDocument(_Document):
    """``szwadron measure SCENARIO A B --json``."""

    a: str
    b: str
    distance: float = Field(description="least edge-to-edge distance, cm")
    bases: list[str] = Field(min_length=2, max_length=2)
    points: list[list[float]] = Field(min_length=2, max_length=2, description="[[x, y], [x, y]]")
    touching: bool
    overlap_depth: float


# --- remainder ----------------------------------------------------------------------------------


class RemainderRow(_Part):
    remainder: int
    wounds: int
    fraction: str = Field(description="r/W reduced, e.g. '2/3'")
    remove_at_most: int | None
    reroll: list[int]
    chance: float
    chance_fraction: str = Field(description="the chance as an exact fraction")
    exact: bool = Field(description="whether the chance is exactly r/W")


class RemainderDocument(_Document):
    """``szwadron remainder --json`` (1.5.1)."""

    die: Literal["d6", "d10"]
    rows: list[RemainderRow]


# --- fire and targets ---------------------------------------------------------------------------


class FireLine(_Part):
    target: str
    edge: str
    distance: float
    indirect: bool


class Shooter(_Part):
    base: str
    can_fire: bool
    rule: str | None
    edge: str | None
    targets: list[str]
    distance: float | None
    accuracy: int | None
    dice: int
    message: str | None
    base_accuracy: int
    indirect: bool
    lines: list[FireLine]


class Cover(_Part):
    rule: str
    bonus: int
    source: str


class TargetBase(_Part):
    base: str
    eligible: bool
    wounds: int
    cover: list[Cover]
    base_wounds: int
    rule: str | None
    message: str | None
    distance: float | None


class VolleyGroup(_Part):
    dice: int
    accuracy: int


class MoraleOutcomes(_Part):
    """The target's morale after a fire (6.2, 6.3)."""

    no_test: float
    passed: float
    repulsed: float
    panic: float
    destroyed: float


class MoraleTest(_Part):
    morale: int
    strength: int
    initial: int
    modifier: int


class Alternative(_Part):
    ammunition: str
    legal: bool
    expected: float


class Reaction(_Part):
    kind: Literal["declared", "charged"]
    rule: str
    lost: bool


class PlacedBase(_Part):
    base: str
    x: float
    y: float
    facing: float


class FireDocument(_Document):
    """``szwadron fire SCENARIO --shooter U --target U --json``."""

    legal: bool
    reason: Reason | None
    shooters: list[Shooter]
    targets: list[TargetBase]
    removal_order: list[str] = Field(description="4.7")
    volley: list[VolleyGroup]
    removed_pmf: Pmf
    expected: float
    morale: MoraleOutcomes
    at_least: Pmf
    shooter: str
    target: str
    ammunition: str | None
    march: bool
    skirmish: bool
    morale_test: MoraleTest
    notes: list[str]
    alternatives: list[Alternative]
    reaction: Reaction | None
    target_at: list[PlacedBase] | None


class PossibleTarget(_Part):
    unit: str
    expected: float
    repulsed: float
    panic: float
    repulsed_or_panic: float
    destroyed: float
    firing: list[str]
    eligible: list[str]
    ammunition: str | None
    removed_pmf: Pmf


class ImpossibleTarget(_Part):
    unit: str
    reason: Reason | None


class TargetsDocument(_Document):
    """``szwadron targets SCENARIO --shooter U --json``."""

    shooter: str
    targets: list[PossibleTarget]
    cannot: list[ImpossibleTarget]


# --- move and reach -----------------------------------------------------------------------------


class Surcharge(_Part):
    rule: str
    cm: float
    source: str


class BaseMove(_Part):
    base: str
    distance: float
    allowed: float
    surcharges: list[Surcharge]
    path: float
    corner: str
    poses: list[list[float]] = Field(description="[x, y, facing] along the path")


class Violation(_Part):
    rule: str
    message: str
    base: str | None


class AfterFire(_Part):
    target: str
    declared: list[str]
    fired: list[str]
    march: bool


class MoveDocument(_Document):
    """``szwadron move SCENARIO --unit U --to MOVEFILE --json``."""

    legal: bool
    rule: str | None
    message: str
    bases: list[BaseMove]
    violations: list[Violation]
    units: list[str]
    charge: list[str]
    march: bool
    order: list[str]
    contacts: list[str]
    notes: list[str]
    after_fire: AfterFire | None
    push_up: str | None = None
    """5.6: ``--push-up ENEMY``, the unit the push-up moves towards (only then)."""


class MovePart(_Part):
    legal: bool
    rule: str | None
    message: str
    bases: list[BaseMove]
    violations: list[Violation]
    units: list[str]
    charge: list[str]
    march: bool
    order: list[str]
    contacts: list[str]
    notes: list[str]
    after_fire: AfterFire | None
    push_up: str | None = None


class RepulseDocument(_Document):
    """``szwadron move SCENARIO --unit U --repulse ENEMY --json`` (6.5)."""

    unit: str
    enemy: str
    blocked: bool
    outcome: str
    direction: list[float]
    distance: float
    deflection: float
    out_of_fire: bool
    move: MovePart | None


class PursuitTestPart(_Part):
    unit: str
    branch: str
    target: int | None
    pursuit_chance: str
    pursuit_probability: float
    rule: str


class DisengageDocument(_Document):
    """``szwadron move SCENARIO --unit U --disengage [--to MOVEFILE] --json`` (5.8)."""

    unit: str
    enemies: list[str]
    automatic: bool
    target: int
    pass_chance: str
    pass_probability: float
    pursuers: list[PursuitTestPart]
    legal: bool
    rule: str | None
    message: str
    found: bool
    move: MovePart | None


class ProposedPose(_Part):
    index: int
    x: float
    y: float
    facing: float


class ReformDocument(_Document):
    """``szwadron move SCENARIO --unit U --reform --json`` (1.3.2, 6.8.5)."""

    unit: str
    needed: bool
    legal: bool
    groups: list[list[str]]
    proposed: list[ProposedPose] | None
    move: MovePart | None


class ReachDocument(_Document):
    """``szwadron reach SCENARIO --unit U --target U --json``."""

    reachable: bool
    unit: str
    target: str
    base: str
    length: float | None
    path_cm: float | None
    allowed: float
    surcharges: list[Surcharge]
    path: list[list[float]] = Field(description="[x, y] of the moving base's centre")
    facing: float
    touches: str | None
    method: str
    grid_cm: float
    how: str


# --- melee --------------------------------------------------------------------------------------


class MeleeGroup(_Part):
    side: str
    uw: int
    target_bonus: int
    dice: int
    figures: list[str]
    fight: int = Field(
        description="5.7.2: the separate fight the dice belong to, from 1 (1 when the melee is one fight)"
    )


class MeleeOutcome(_Part):
    attacker: str
    defender: str
    p: float


class RemovalOrder(_Part):
    attacker: list[str]
    defender: list[str]


class FightingFigure(_Part):
    base: str
    side: str
    touching: list[str]
    contact_cm: float
    w_bonus: int
    reason: str | None


class PushStep(_Part):
    side: str
    count: int
    candidates: list[str]
    max_cm: float


class PushUp(_Part):
    attacker_removed: int
    defender_removed: int
    p: float
    steps: list[PushStep]


class MeleeDocument(_Document):
    """``szwadron melee SCENARIO --attacker U --defender U --json``."""

    attacker_in_contact: list[str]
    defender_in_contact: list[str]
    groups: list[MeleeGroup]
    joint_pmf: list[Pmf]
    attacker_removed_pmf: Pmf
    defender_removed_pmf: Pmf
    outcomes: list[MeleeOutcome]
    removal_order: RemovalOrder
    attacker: str
    defender: str
    figures: list[FightingFigure]
    all_defenders_advantaged: bool
    first_strike: str | None
    push_up: list[PushUp]


class CombinedFigure(_Part):
    base: str
    unit: str
    side: str
    touching: list[str]
    contact_cm: float
    fights: bool
    strikes: str | None
    w_bonus: int
    reason: str | None


class CombinedGroup(_Part):
    side: str
    target: str
    uw: int
    target_bonus: int
    dice: int
    figures: list[str]
    fight: int = Field(
        description="5.7.2: the separate fight the dice belong to, from 1 (1 when the melee is one fight)"
    )
    first: bool = Field(
        description="7.7: the figures strike first (their unit has first strike, the struck unit not); "
        "the other groups strike after, with the figures left"
    )


class OutcomeChance(_Part):
    outcome: str
    p: float


class CombinedUnit(_Part):
    unit: str
    side: str
    opponents: list[str]
    in_contact: list[str]
    removal_order: list[str]
    removed_pmf: Pmf
    expected_removed: float
    outcomes: list[OutcomeChance]
    holds_terrain: bool = Field(
        description="5.7.3: counts as the defender and every figure that fights holds an advantageous "
        "position: standing, it does not count as engaged ('engaged' in its outcomes means it stands)"
    )


class JointRemoved(_Part):
    removed: dict[str, int]
    p: float


class JointOutcomes(_Part):
    outcomes: dict[str, str]
    p: float


class CombinedMeleeDocument(_Document):
    """``szwadron melee SCENARIO --attacker U [U ...] --defender U [U ...] --json`` with several
    units on a side (5.10), or ``--declare-defence`` (5.7.4)."""

    attackers: list[str]
    defenders: list[str]
    first_strike: str | None = Field(
        description="7.7: the side whose every unit strikes first, no enemy unit having first strike; "
        "null otherwise (see first_strike_units)"
    )
    first_strike_units: list[str] = Field(
        description="7.7: the units that strike first at one enemy unit or more (pair by pair: a unit "
        "with first strike against a unit without it)"
    )
    declared_defence: bool
    figures: list[CombinedFigure]
    groups: list[CombinedGroup]
    units: list[CombinedUnit]
    joint_removed: list[JointRemoved]
    joint_outcomes: list[JointOutcomes]


class RuleErrorDocument(_Document):
    """``szwadron melee --json`` when the rules forbid the melee (exit 1)."""

    error: str
    rule: str


# --- morale -------------------------------------------------------------------------------------


class CentimetresChance(_Part):
    cm: int
    p: float


class FiguresChance(_Part):
    figures: int
    p: float


class PassThroughTest(_Part):
    id: str
    from_cm: float
    chance: float
    test_pass: float | None
    panic_chance: float


class FleeingFigure(_Part):
    base: str
    edge_cm: float
    blocked_cm: float | None
    blocked_by: str | None
    surrenders_if_blocked: bool


class PursuitStrike(_Part):
    unit: str
    figures: list[str]
    from_cm: float
    chance: float


class Pursuit(_Part):
    target: str
    gap_cm: float | None
    way_cm: float | None
    terrain_cm: float = Field(
        0.0,
        description="3.2: how many cm of way_cm (the move the way into contact costs) are terrain surcharges "
        "(present only where more than 0)",
    )
    pmf: list[CentimetresChance]
    reach_chance: float
    on_the_way: list[PursuitStrike]


class EnemyPursuit(Pursuit):
    """2.2.1 V: an enemy unit pursuing one of this side's units; it moves in this phase, with no
    reorganisation test here."""

    id: str


class UnitMorale(_Part):
    id: str
    state: str
    may_reorganise: bool
    reason: str
    reorganise_chance: float
    flight_pmf: list[CentimetresChance]
    off_table_chance: float
    surrenders: bool
    pass_through: list[str]
    kind: str
    strength: int
    flight_chance: float
    flight_multiplier: int
    removed_chance: float
    surrender_chance: float
    figures_lost_pmf: list[FiguresChance]
    pass_through_tests: list[PassThroughTest]
    figures: list[FleeingFigure]
    pursuit: Pursuit | None


class CasualtyRow(_Part):
    lost: int
    strength: int
    casualty_modifier: int
    target: int
    # the 6.3 outcomes (szwadron.odds.morale.CasualtyTest.as_dict)
    pass_: float = Field(alias="pass")
    repulsed: float
    panic: float


class CasualtyTests(_Part):
    id: str
    state: str
    morale: int
    strength: int
    initial: int
    modifier: int
    takes_tests: bool
    tests: list[CasualtyRow]


class MoraleDocument(_Document):
    """``szwadron morale SCENARIO --side A|B --json`` (6.8)."""

    scenario: str
    side: str
    units: list[UnitMorale]
    casualty_tests: list[CasualtyTests]
    enemy_pursuits: list[EnemyPursuit]


# --- odds ---------------------------------------------------------------------------------------


class OddsFireDocument(_Document):
    """``szwadron odds fire ... --json``; ``morale`` with ``--morale``."""

    damage_pmf: Pmf
    removed_pmf: Pmf
    expected: float
    at_least: Pmf
    morale: MoraleOutcomes | None = None


class RolledGroup(_Part):
    dice: int
    at_most: int
    faces: list[int]
    scored: int


class RolledTest(_Part):
    kind: str
    face: int
    target: int


class RolledMorale(_Part):
    tests: list[RolledTest]
    outcome: str


class OddsFireRollDocument(_Document):
    """``szwadron odds fire ... --roll --json``."""

    seed: int
    groups: list[RolledGroup]
    damage: int
    removed: int
    remainder_faces: list[int]
    morale: RolledMorale | None = None


class OddsMoraleDocument(_Document):
    """``szwadron odds morale ... --json`` (6.3)."""

    pass_: float = Field(alias="pass")
    repulsed: float
    panic: float


class OddsMoraleRollDocument(_Document):
    """``szwadron odds morale ... --roll --json``."""

    seed: int
    tests: list[RolledTest]
    outcome: str


class OddsMeleeDocument(_Document):
    """``szwadron odds melee ... --json``."""

    joint_pmf: list[Pmf]
    attacker_removed_pmf: Pmf
    defender_removed_pmf: Pmf
    outcomes: list[MeleeOutcome]


class StrikeBackTest(_Part):
    face: int
    target: int


class Strike(_Part):
    side: str
    dice: int
    at_most: int
    faces: list[int]
    scored: int
    removed: int
    remainder_faces: list[int]


class BothOutcomes(_Part):
    attacker: str
    defender: str


class OddsMeleeRollDocument(_Document):
    """``szwadron odds melee ... --roll --json``."""

    seed: int
    strike_back_test: StrikeBackTest | None
    strikes: list[Strike]
    attacker_removed: int
    defender_removed: int
    tests: list[RolledTest]
    outcome: BothOutcomes


# --- points and balance -------------------------------------------------------------------------


class ModelVersion(_Part):
    version: str | None
    reference_points: float
    step: float


class Term(_Part):
    name: str
    factor: float
    points: float


class ProfileValues(_Part):
    fire: float
    melee: float
    wounds: int
    morale: float
    speed: float


class PricedProfile(_Part):
    profile: str
    kind: str
    points: float
    raw: float
    base: float
    terms: list[Term]
    rounding: float
    values: ProfileValues | None
    stored: float | None = Field(description="the points the army list stores")
    stale: bool = Field(description="the stored points differ from the model's")
    name: str


class Standing(_Part):
    """Where the roster stands against one limit of one constraint of its list (issue 14)."""

    constraint: str
    measure: Literal["units", "figures", "share of points", "share of figures", "share of units"]
    actual: float
    bound: Literal["min", "max"]
    limit: float
    ok: bool


class AttachedFigures(_Part):
    profile: str
    figures: int


class EntryCost(_Part):
    """What one entry of the roster costs: ``count`` units of ``figures`` of ``profile`` (with
    ``attached`` figures), ``each`` points a unit, ``total`` in all."""

    entry: int
    profile: str
    count: int
    figures: int
    attached: list[AttachedFigures]
    each: float
    total: float
    size_factor: float = Field(
        1.0,
        description="the list's unit-size price of the unit's own figures: what they pay per point "
        "of their points (issue 14)",
    )


class RosterTotals(_Part):
    id: str
    units: int
    figures: int
    points: float
    points_limit: float | None
    ok: bool
    broken: list[str]
    unchecked: list[str]
    standings: list[Standing] = Field(
        default_factory=list,
        description="Every count and share limit of the list's constraints and the roster's own, "
        "with the roster's value (issue 14)",
    )
    entries: list[EntryCost] | None = Field(
        default=None, description="each roster entry's cost; null when a fielded profile has no points"
    )


class SizePriceEntry(_Part):
    """A unit-size price of the list (issue 14): a selected unit's own figures pay
    ``1 + per_figure × (figures − reference_figures)`` times their points."""

    id: str
    rule: str
    profiles: list[str]
    kinds: list[str]
    abilities: list[str]
    reference_figures: int
    per_figure: float


class PointsDocument(_Document):
    """``szwadron points ARMYLIST [--roster ID|FILE] --json``."""

    army: str
    model: ModelVersion
    profiles: list[PricedProfile]
    size_prices: list[SizePriceEntry] = Field(
        default_factory=list, description="the list's unit-size prices, in the order they apply (issue 14)"
    )
    roster: RosterTotals | None = None


class CalibrateDocument(_Document):
    """``szwadron points calibrate --json``: the fitted model and the calibration's measures."""

    model_config = ConfigDict(extra="allow")

    model: dict[str, Any]


class ValidateDocument(_Document):
    """``szwadron points validate --json``: the round-robin at equal points, the example rosters'
    battles and the unit-size cases."""

    model_config = ConfigDict(extra="allow")

    rosters: dict[str, Any] | None
    unit_sizes: list[dict[str, Any]]


class Side(_Part):
    army: str
    roster: str
    points: float
    points_limit: float | None
    units: int
    figures: int
    fire: float
    melee: float
    wound_points: int
    mean_morale: float
    mean_speed: float
    artillery_share: float
    model_priced: list[str]
    broken: list[str]


class Suggestion(_Part):
    side: Literal["A", "B"]
    change: int
    profile: str
    points: float
    difference_after: float
    entry: int
    units: int
    unit_figures: int


class BalanceDocument(_Document):
    """``szwadron balance LIST_A LIST_B --json``; ``battles`` with ``--battles N``."""

    a: Side
    b: Side
    difference: float
    chance_a: float
    chance_b: float
    steepness: float
    predicted: str
    suggestions_target: float = Field(
        description="the points difference A − B the suggestions aim at: 0 (even points) or, with battles, the "
        "difference that evens the played chance"
    )
    suggestions: list[Suggestion]
    battles: dict[str, Any] | None = None


# --- the game ------------------------------------------------------------------------------------


class PlaceDocument(_Document):
    """``szwadron place SCENARIO -o OUT --json``."""

    output: str
    expanded: list[str] = Field(description="units given as a formation, written base by base")


class TurnDocument(_Document):
    """``szwadron turn SCENARIO --json`` (2, 2.1): none for a set-up."""

    turn: Turn | None


class AppliedDocument(_Document):
    """``szwadron fire|move|melee|morale|turn ... --apply --json``: the game log's record of the
    action and where the next position went."""

    action: str
    inputs: dict[str, Any]
    dice: dict[str, Any]
    ruling: dict[str, Any]
    changes: list[dict[str, Any]]
    output: str
    log: str | None
    notes: list[str]


class ReplayDocument(_Document):
    """``szwadron replay GAME.jsonl -o OUT --json``."""

    output: str
    actions: int = Field(description="actions in the log")
    to: int = Field(description="the action the position is after (0: the start)")


class UndoDocument(_Document):
    """``szwadron undo GAME.jsonl --json``."""

    log: str
    dropped: int = Field(description="the number of the action dropped")
    action: str
    actions: int = Field(description="actions left")
    output: str | None


#: schema file (under ``schemas/output/``) → document model
DOCUMENT_MODELS: dict[str, type[BaseModel]] = {
    "check.schema.json": CheckDocument,
    "measure.schema.json": MeasureDocument,
    "remainder.schema.json": RemainderDocument,
    "fire.schema.json": FireDocument,
    "targets.schema.json": TargetsDocument,
    "move.schema.json": MoveDocument,
    "reach.schema.json": ReachDocument,
    "melee.schema.json": MeleeDocument,
    "melee-combined.schema.json": CombinedMeleeDocument,
    "move-repulse.schema.json": RepulseDocument,
    "move-disengage.schema.json": DisengageDocument,
    "move-reform.schema.json": ReformDocument,
    "rule-error.schema.json": RuleErrorDocument,
    "morale.schema.json": MoraleDocument,
    "odds-fire.schema.json": OddsFireDocument,
    "odds-fire-roll.schema.json": OddsFireRollDocument,
    "odds-morale.schema.json": OddsMoraleDocument,
    "odds-morale-roll.schema.json": OddsMoraleRollDocument,
    "odds-melee.schema.json": OddsMeleeDocument,
    "odds-melee-roll.schema.json": OddsMeleeRollDocument,
    "points.schema.json": PointsDocument,
    "points-calibrate.schema.json": CalibrateDocument,
    "points-validate.schema.json": ValidateDocument,
    "balance.schema.json": BalanceDocument,
    "place.schema.json": PlaceDocument,
    "turn.schema.json": TurnDocument,
    "applied.schema.json": AppliedDocument,
    "replay.schema.json": ReplayDocument,
    "undo.schema.json": UndoDocument,
}


def document_schema(command: list[str]) -> str:
    """The schema file of the document a command line prints with ``--json``.

    >>> document_schema(["odds", "fire", "--fire", "12@3", "--roll", "--json"])
    'odds-fire-roll.schema.json'
    >>> document_schema(["points", "france", "--json"])
    'points.schema.json'
    >>> document_schema(["fire", "s.toml", "--apply", "-o", "next.toml", "--json"])
    'applied.schema.json'
    """
    words = [w for w in command if not w.startswith("-")]
    name = words[0]
    if name == "melee" and _several_units(command):
        name = "melee-combined"
    elif name == "move" and "--repulse" in command:
        name = "move-repulse"
    elif name == "move" and "--reform" in command:
        name = "move-reform"
    elif name == "move" and "--disengage" in command:
        name = "move-disengage"
    if "--apply" in command:
        name = "applied"
    elif name == "odds":
        name = f"odds-{words[1]}" + ("-roll" if "--roll" in command else "")
    elif name == "points" and len(words) > 1 and words[1] in ("calibrate", "validate"):
        name = f"points-{words[1]}"
    return f"{name}.schema.json"


def _several_units(command: list[str]) -> bool:
    """5.10, 5.7.4 — several units after ``--attacker`` or ``--defender``, or defence declared.

    >>> _several_units(["melee", "s.toml", "--attacker", "a", "b", "--defender", "d", "--json"])
    True
    """
    if "--declare-defence" in command:
        return True
    for flag in ("--attacker", "--defender"):
        if flag in command:
            i = command.index(flag) + 1
            n = 0
            while i < len(command) and not command[i].startswith("-"):
                n, i = n + 1, i + 1
            if n > 1:
                return True
    return False


__all__ = ["DOCUMENT_MODELS", "document_schema"]
