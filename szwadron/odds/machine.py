"""6.1–6.8, 5.5, 5.8, 7.6 — morale as an explicit state machine, with the odds of every branch.

The machine is data (:data:`MACHINE`): its states, its events, the transitions between them
(each with the branch that takes it and the rule that says so) and the refusals (an event the
rules forbid in a state, with the rule that forbids it). One engine, :func:`step`, applies an
event to a unit and returns an exact :class:`~szwadron.odds.dice.Distribution` over :class:`Result`
(new state, branch, rule); :func:`melee_step` does the same for the two units of a melee, through
:func:`szwadron.odds.morale.melee_sequence`. The engine computes the chance of each *branch* with the
odds engine (:mod:`szwadron.odds.morale`) and then reads the target state and the rule from
:data:`MACHINE`, so the table is the one source of truth that a plot can draw
(``MACHINE.transitions``).

States (6.1.1): ``normal``, ``panic``, ``pursuit`` (uncontrolled pursuit), plus two that the
rulebook describes but does not name as states: ``repulsed`` — the retreat move, which ends in
the normal state (6.5.3) or in panic when the unit cannot move (6.5.5) — and ``removed``, the
end of a unit destroyed (PD-18), surrendered (6.6.12) or fled off the table (6.6.13).

>>> unit = MoraleUnit(morale=4, strength=12, initial=12)
>>> out = step(unit, Event.fire(removed=1))
>>> [(r.state.value, r.branch, str(out.probability(r))) for r in out.outcomes()]
[('normal', 'passed', '2/3'), ('panic', 'panic', '1/9'), ('repulsed', 'repulsed', '2/9')]
>>> step(MoraleUnit(state="panic"), Event.order("fire"))
Traceback (most recent call last):
...
szwadron.errors.IllegalActionError: a panicking unit obeys no orders: it cannot be ordered to fire (rule 6.1.3)

Decisions where the rules are silent (each also stated where it is implemented):

* Decision: a pursuing unit that passes a test after losses keeps pursuing (6.7.8 "takes its
  tests on the general rules"; 6.3.2's "stays normal" is read as "its state does not change").
* Decision: the enemy of a disengaging unit tests for pursuit whether or not it took losses
  (5.8.4 says "regardless of the result", unlike 6.3.6); artillery never pursues (6.7.1), so
  for artillery that test is no test and it stays normal — also in :func:`melee_step`.
* Decision: a panicking unit passed through by a fleeing one takes no test (it already panics;
  6.4.3 only sends units *into* panic).
* Decision: whether the guards of reorganisation (6.8.2: no enemy within 10 cm; 6.8.3: not
  engaged), of surrender (6.6.12) and of the retreat (6.5.5) hold is measured on the table by
  :mod:`szwadron.table.morale_phase`; here the event carries the answer (:class:`Event`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.i18n import N_, _, term
from szwadron.models import Ability, Kind, Unit
from szwadron.odds.dice import Distribution
from szwadron.odds.morale import MORALE_DIE_SIDES, MeleeOutcome, melee_sequence, morale_target
from szwadron.rulings import Ruling


class MachineState(StrEnum):
    """6.1.1 — morale states, with the retreat move and the end of the unit made explicit."""

    NORMAL = "normal"
    """6.1.2: the player commands the unit."""
    PANIC = "panic"
    """6.1.3: flees, obeys no orders, acts in the morale phase."""
    PURSUIT = "pursuit"
    """6.1.4: uncontrolled pursuit; obeys no orders, acts in the morale phase."""
    REPULSED = "repulsed"
    """6.5: making the retreat move; it ends normal (6.5.3) or, unable to move, in panic (6.5.5)."""
    REMOVED = "removed"
    """Destroyed (PD-18), surrendered (6.6.12) or fled off the table (6.6.13): terminal."""


class EventKind(StrEnum):
    """What can happen to a unit's morale (sections 5, 6, 7.6)."""

    FIRE_CASUALTIES = "fire_casualties"
    """4.8.1, 6.3.1: damage from fire (even if no figure was removed)."""
    MELEE_CASUALTIES = "melee_casualties"
    """5.5: the morale tests after a round of melee (two units: :func:`melee_step`)."""
    CHARGED = "charged"
    """6.6.4: attacked in melee — a panicking unit tests whether it strikes back."""
    DISENGAGE = "disengage"
    """5.8, 6.4.1, 7.6: the unit tries to disengage from melee."""
    OPPONENT_LEFT = "opponent_left"
    """5.8.4, 6.3.6: the enemy engaged with the unit disengaged: test for pursuit."""
    PASSED_THROUGH = "passed_through"
    """6.4.3, 6.6.11: a fleeing own unit passes through this unit's ranks."""
    REORGANISE = "reorganise"
    """6.8.2–6.8.4: a reorganisation attempt in the morale phase."""
    REPULSE = "repulse"
    """6.3.4, 6.7.9: the unit is repulsed (a result decided elsewhere, e.g. a rolled test)."""
    RETREAT = "retreat"
    """6.5: the repulsed unit's retreat move."""
    TABLE_EDGE = "table_edge"
    """6.6.13: a fleeing unit reaches its table edge with flight distance left."""
    SURRENDER = "surrender"
    """6.6.12: a flight blocked by enemies and impassable terrain, enemies within 10 cm."""
    PURSUED_DESTROYED = "pursued_destroyed"
    """6.7.10: the unit being pursued is destroyed."""
    ORDER = "order"
    """2.3, 6.1.2: an order in the movement phase (move, fire, charge, ...)."""


@dataclass(frozen=True)
class Transition:
    """One arrow of the machine: in ``source``, ``event`` with outcome ``branch`` leads to
    ``target``, by ``rule``; ``note`` says when the branch is taken (its guard, in words)."""

    source: MachineState
    event: EventKind
    branch: str
    target: MachineState
    rule: str
    note: str


@dataclass(frozen=True)
class Refusal(Ruling):
    """An event the rules forbid in a state: a :class:`~szwadron.rulings.Ruling` (``rule``
    forbids it, ``message`` says why) with the ``state`` and the ``event``."""

    state: MachineState = field(kw_only=True)
    event: EventKind = field(kw_only=True)


@dataclass(frozen=True, order=True)
class Result:
    """Where one branch of an event leaves the unit: new ``state``, the ``branch`` taken and the
    ``rule`` behind it."""

    state: MachineState
    branch: str
    rule: str


N, P, U, R, X = (
    MachineState.NORMAL,
    MachineState.PANIC,
    MachineState.PURSUIT,
    MachineState.REPULSED,
    MachineState.REMOVED,
)
E = EventKind

# (source, event, branch, target, rule, note)
_TRANSITIONS: tuple[tuple[MachineState, EventKind, str, MachineState, str, str], ...] = (
    # --- 4.8, 6.3: casualties from fire --------------------------------------------------------
    (N, E.FIRE_CASUALTIES, "passed", N, "6.3.2", "passed the repulse test"),
    (N, E.FIRE_CASUALTIES, "repulsed", R, "6.3.4", "failed the repulse test, passed the panic test (4.8.2)"),
    (N, E.FIRE_CASUALTIES, "panic", P, "6.3.5", "failed both tests (4.8.3)"),
    (N, E.FIRE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed: no test"),
    (U, E.FIRE_CASUALTIES, "passed", U, "6.7.8", "passed the repulse test: keeps pursuing"),
    (U, E.FIRE_CASUALTIES, "repulsed", R, "6.7.9", "repulsed while pursuing: ends normal"),
    (U, E.FIRE_CASUALTIES, "panic", P, "6.7.8", "failed both tests (6.3.5)"),
    (U, E.FIRE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed: no test"),
    (P, E.FIRE_CASUALTIES, "no_test", P, "6.6.14", "a panicking unit takes no test for losses"),
    (P, E.FIRE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed"),
    # --- 5.5: casualties in melee (melee_step) -------------------------------------------------
    (N, E.MELEE_CASUALTIES, "engaged", N, "5.5.7", "both sides stood: they stay engaged"),
    (N, E.MELEE_CASUALTIES, "held", N, "5.5.8", "stood (passed, or no losses: 5.5.1) while the enemy left"),
    (N, E.MELEE_CASUALTIES, "repulsed", R, "5.5.6", "repulsed: moves away as far as it can (6.3.4)"),
    (N, E.MELEE_CASUALTIES, "panic", P, "5.5.6", "panicked (6.3.5)"),
    (N, E.MELEE_CASUALTIES, "pursuit", U, "6.3.8", "failed the pursuit test (5.5.3, 5.5.5)"),
    (N, E.MELEE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed: no test"),
    (U, E.MELEE_CASUALTIES, "engaged", U, "6.7.3", "both sides stood: still pursuing, engaged"),
    (U, E.MELEE_CASUALTIES, "held", U, "6.7.8", "stood while the enemy left: keeps pursuing"),
    (U, E.MELEE_CASUALTIES, "repulsed", R, "6.7.9", "repulsed while pursuing: ends normal"),
    (U, E.MELEE_CASUALTIES, "panic", P, "6.7.8", "panicked (6.3.5)"),
    (U, E.MELEE_CASUALTIES, "pursuit", U, "6.7.7", "failed the pursuit test: pursues this enemy too"),
    (U, E.MELEE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed: no test"),
    (P, E.MELEE_CASUALTIES, "panic", P, "6.6.14", "attacked while panicking: no test, keeps fleeing (6.6.5)"),
    (P, E.MELEE_CASUALTIES, "destroyed", X, "PD-18", "every figure removed"),
    # --- 6.6.4: attacked while panicking --------------------------------------------------------
    (N, E.CHARGED, "fights_back", N, "5.3", "strikes back normally"),
    (U, E.CHARGED, "fights_back", U, "6.7.3", "strikes back normally"),
    (P, E.CHARGED, "strikes_back", P, "6.6.4", "passed the test: strikes back normally"),
    (P, E.CHARGED, "no_losses", P, "6.6.4", "failed the test: deals no losses"),
    # --- 5.8, 6.4, 7.6: disengaging --------------------------------------------------------------
    (N, E.DISENGAGE, "passed", N, "5.8.2", "passed: moves away up to R (6.4.1)"),
    (N, E.DISENGAGE, "failed", P, "5.8.3", "failed the disengage test (6.4.2)"),
    (N, E.DISENGAGE, "automatic", N, "7.6", "automatic disengage: passes every disengage test"),
    (N, E.OPPONENT_LEFT, "passed", N, "6.3.7", "passed the pursuit test (5.8.4)"),
    (N, E.OPPONENT_LEFT, "failed", U, "6.3.8", "failed the pursuit test (5.8.4)"),
    (N, E.OPPONENT_LEFT, "artillery", N, "6.7.1", "artillery never pursues"),
    (U, E.OPPONENT_LEFT, "already", U, "6.7.7", "already pursuing"),
    (P, E.OPPONENT_LEFT, "no_test", P, "6.1.3", "a panicking unit does not pursue"),
    # --- 6.4.3, 6.6.11: a fleeing unit passes through ---------------------------------------------
    (N, E.PASSED_THROUGH, "passed", N, "6.4.3", "passed the test"),
    (N, E.PASSED_THROUGH, "failed", P, "6.4.3", "failed the test: panics at once (6.6.11)"),
    (U, E.PASSED_THROUGH, "passed", U, "6.4.3", "passed the test"),
    (U, E.PASSED_THROUGH, "failed", P, "6.4.3", "failed the test: panics at once (6.6.11)"),
    (P, E.PASSED_THROUGH, "no_test", P, "6.4.3", "already panicking: no test"),
    # --- 6.8: reorganisation ----------------------------------------------------------------------
    (P, E.REORGANISE, "passed", N, "6.8.4", "passed: back under command (no enemy within 10 cm, 6.8.2)"),
    (P, E.REORGANISE, "failed", P, "6.8.4", "failed: keeps fleeing (6.8.7)"),
    (U, E.REORGANISE, "passed", N, "6.8.4", "passed: back under command (not engaged, 6.8.3)"),
    (U, E.REORGANISE, "failed", U, "6.8.4", "failed: keeps pursuing"),
    # --- 6.5, 6.7.9: repulse and the retreat move ------------------------------------------------------
    (N, E.REPULSE, "repulsed", R, "6.3.4", "repulsed: makes the retreat move (6.5.1)"),
    (U, E.REPULSE, "repulsed", R, "6.7.9", "repulsed while pursuing: ends normal"),
    (R, E.RETREAT, "retreated", N, "6.5.3", "full move away, keeps formation, ends normal"),
    (R, E.RETREAT, "cannot_move", P, "6.5.5", "blocked by obstacles or units: panics"),
    # --- 6.6.12, 6.6.13: the end of a flight ------------------------------------------------------------
    (P, E.TABLE_EDGE, "fled", X, "6.6.13", "reached its table edge with flight left: removed"),
    (P, E.SURRENDER, "surrendered", X, "6.6.12", "flight blocked, enemy within 10 cm: removed"),
    # --- 6.7.10 --------------------------------------------------------------------------------------------
    (U, E.PURSUED_DESTROYED, "next_target", U, "6.7.10", "attacks the next nearest enemy unit"),
    # --- 2.3, 6.1.2 --------------------------------------------------------------------------------------
    (N, E.ORDER, "obeys", N, "6.1.2", "the player commands it in the movement phase"),
)

_REMOVED_RULE = "PD-18, 6.6.12, 6.6.13"

# (state, event) -> (rule, message); states not listed for an event with no transition refuse it.
_REFUSALS: dict[tuple[MachineState, EventKind], tuple[str, str]] = {
    (P, E.ORDER): ("6.1.3", N_("a panicking unit obeys no orders: it cannot be ordered to {action}")),
    (U, E.ORDER): (
        "6.1.4",
        N_("a unit in uncontrolled pursuit obeys no orders: it cannot be ordered to {action}"),
    ),
    (R, E.ORDER): (
        "6.7.9",
        N_("a repulsed unit makes its retreat move and takes no action this movement phase"),
    ),
    (P, E.DISENGAGE): (
        "6.1.3",
        N_("a panicking unit obeys no orders; it keeps fleeing even when engaged (6.6.5)"),
    ),
    (U, E.DISENGAGE): (
        "6.1.4",
        N_("a unit in uncontrolled pursuit takes no action in the movement phase (6.7.2)"),
    ),
    (N, E.REORGANISE): ("6.8.1", N_("only panicking or pursuing units reorganise")),
    (P, E.REPULSE): (
        "6.6.14",
        N_("a panicking unit takes no morale tests for losses: it cannot be repulsed"),
    ),
    (N, E.TABLE_EDGE): ("6.6.13", N_("only a fleeing (panicking) unit is removed at its table edge")),
    (U, E.TABLE_EDGE): ("6.6.13", N_("only a fleeing (panicking) unit is removed at its table edge")),
    (N, E.SURRENDER): ("6.6.12", N_("only a panicking unit whose flight is blocked surrenders")),
    (U, E.SURRENDER): ("6.6.12", N_("only a panicking unit whose flight is blocked surrenders")),
    (N, E.PURSUED_DESTROYED): ("6.7.10", N_("only a unit in uncontrolled pursuit has a pursued unit")),
    (P, E.PURSUED_DESTROYED): ("6.7.10", N_("only a unit in uncontrolled pursuit has a pursued unit")),
    (N, E.RETREAT): ("6.5.1", N_("only a repulsed unit makes a retreat move")),
    (P, E.RETREAT): ("6.5.1", N_("only a repulsed unit makes a retreat move")),
    (U, E.RETREAT): ("6.5.1", N_("only a repulsed unit makes a retreat move")),
}
for _event in EventKind:
    if _event is not E.RETREAT:
        _REFUSALS.setdefault(
            (R, _event),
            ("6.5.3", N_("a repulsed unit makes its retreat move at once (it then is normal, 6.5.3)")),
        )
    _REFUSALS[(X, _event)] = (_REMOVED_RULE, N_("the unit has been removed from the table"))


@dataclass(frozen=True)
class StateMachine:
    """The morale machine as data: ``states``, ``events``, ``transitions``, ``refusals``.

    >>> len(MACHINE.states), MACHINE.target(MachineState.PANIC, EventKind.REORGANISE, "passed")
    (5, <MachineState.NORMAL: 'normal'>)
    >>> sorted(e.value for e in MACHINE.events_in(MachineState.PURSUIT))[:3]
    ['charged', 'fire_casualties', 'melee_casualties']
    """

    states: tuple[MachineState, ...]
    events: tuple[EventKind, ...]
    transitions: tuple[Transition, ...]
    refusals: tuple[Refusal, ...]

    def __iter__(self) -> Iterator[Transition]:
        return iter(self.transitions)

    def transition(self, source: MachineState, event: EventKind, branch: str) -> Transition:
        """The transition taken in ``source`` by ``event`` with outcome ``branch``.

        Raises ``KeyError`` when the machine has no such arrow.
        """
        for t in self.transitions:
            if t.source is source and t.event is event and t.branch == branch:
                return t
        raise KeyError((source, event, branch))

    def target(self, source: MachineState, event: EventKind, branch: str) -> MachineState:
        """Where that branch leads."""
        return self.transition(source, event, branch).target

    def from_state(self, source: MachineState) -> tuple[Transition, ...]:
        """Every transition leaving ``source``."""
        return tuple(t for t in self.transitions if t.source is source)

    def events_in(self, state: MachineState) -> frozenset[EventKind]:
        """The events the rules allow in ``state``."""
        return frozenset(t.event for t in self.from_state(state))

    def refusal(self, state: MachineState, event: EventKind) -> Refusal | None:
        """The refusal of ``event`` in ``state``, or ``None`` when it is allowed."""
        for r in self.refusals:
            if r.state is state and r.event is event:
                return r
        return None


#: The morale machine of section 6 (with 5.5, 5.8, 7.6): draw it from ``MACHINE.transitions``.
MACHINE = StateMachine(
    states=tuple(MachineState),
    events=tuple(EventKind),
    transitions=tuple(Transition(*row) for row in _TRANSITIONS),
    refusals=tuple(Refusal(rule, msg, state=s, event=e) for (s, e), (rule, msg) in _REFUSALS.items()),
)


@dataclass(frozen=True)
class MoraleUnit:
    """What a unit's morale depends on: its state, M, strength, start strength (6.2.4), other
    modifiers (PD-16), kind (6.7.1: artillery never pursues) and automatic disengage (7.6).

    >>> MoraleUnit(morale=4, strength=5, initial=12).target()
    2
    """

    state: MachineState = MachineState.NORMAL
    morale: int = 4
    strength: int = 1
    initial: int | None = None
    modifier: int = 0
    kind: Kind = Kind.INFANTRY
    auto_disengage: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "state", MachineState(self.state))
        object.__setattr__(self, "kind", Kind(self.kind))
        if self.initial is None:
            object.__setattr__(self, "initial", self.strength)
        if self.strength < 1:
            raise InvalidDataError(f"a unit on the table has at least one figure, got {self.strength}")

    @classmethod
    def of(cls, unit: Unit, *, modifier: int = 0) -> MoraleUnit:
        """From a scenario unit: its state, the unit profile's M and kind, its strength.

        Decision: the unit's own profile (not a per-figure one, 1.1) gives M and the kind.
        """
        return cls(
            state=MachineState(unit.state.value),
            morale=unit.profile.morale,
            strength=unit.strength,
            initial=unit.starting_strength,
            modifier=modifier,
            kind=unit.profile.kind,
            auto_disengage=unit.has(Ability.AUTO_DISENGAGE),
        )

    def target(self, removed: int = 0) -> int:
        """6.2, PD-16 — the face a test must not exceed after ``removed`` figures are lost."""
        assert self.initial is not None
        return morale_target(self.morale, self.strength - removed, self.initial, self.modifier)


@dataclass(frozen=True)
class Event:
    """An event with what the engine needs to know about it.

    ``removed``: figures removed by the fire (tests use the strength after removal, 6.2.4);
    ``action``: the order given (for the message of a refusal); ``enemy_within``: an enemy figure
    within 10 cm (6.8.2 forbids reorganising; 6.6.12 needs it to surrender); ``engaged``: a figure
    engaged in melee (6.8.3); ``blocked``: the flight (6.6.12) or the retreat (6.5.5) is blocked.
    """

    kind: EventKind
    removed: int = 0
    action: str = "act"
    enemy_within: bool = False
    engaged: bool = False
    blocked: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", EventKind(self.kind))
        if self.removed < 0:
            raise InvalidDataError(f"removed must be ≥ 0, got {self.removed}")

    @classmethod
    def fire(cls, removed: int = 0) -> Event:
        """4.8.1, 6.3.1 — damage from fire, ``removed`` figures removed (0: damage only)."""
        return cls(EventKind.FIRE_CASUALTIES, removed=removed)

    @classmethod
    def order(cls, action: str = "move") -> Event:
        """2.3 — an order in the movement phase: ``"move"``, ``"fire"``, ``"charge"``, ..."""
        return cls(EventKind.ORDER, action=action)

    @classmethod
    def reorganise(cls, *, enemy_within: bool = False, engaged: bool = False) -> Event:
        """6.8.2–6.8.4 — a reorganisation attempt, with what the table says about its guards."""
        return cls(EventKind.REORGANISE, enemy_within=enemy_within, engaged=engaged)

    @classmethod
    def surrender(cls, *, blocked: bool = True, enemy_within: bool = True) -> Event:
        """6.6.12 — surrender: needs a blocked flight and an enemy within 10 cm."""
        return cls(EventKind.SURRENDER, blocked=blocked, enemy_within=enemy_within)

    @classmethod
    def retreat(cls, *, blocked: bool = False) -> Event:
        """6.5 — the retreat move of a repulsed unit; ``blocked`` when it cannot move (6.5.5)."""
        return cls(EventKind.RETREAT, blocked=blocked)


def _refuse(unit_state: MachineState, event: Event) -> None:
    refusal = MACHINE.refusal(unit_state, event.kind)
    if refusal is not None:
        raise IllegalActionError(refusal.rule, _(refusal.message).format(action=term(event.action)))


def _results(source: MachineState, event: EventKind, weights: dict[str, int]) -> Distribution[Result]:
    out: dict[Result, int] = {}
    for branch, w in weights.items():
        if w:
            t = MACHINE.transition(source, event, branch)
            key = Result(t.target, branch, t.rule)
            out[key] = out.get(key, 0) + w
    return Distribution(out)


def _test(target: int, passed: str, failed: str) -> dict[str, int]:
    """6.2: one d6, pass on ≤ target (weights over 6)."""
    return {passed: target, failed: MORALE_DIE_SIDES - target}


def step(unit: MoraleUnit, event: Event | EventKind) -> Distribution[Result]:
    """6.1–6.8 — apply ``event`` to ``unit``: the exact distribution of where it ends.

    Parameters
    ----------
    unit:
        The unit's state and what its tests depend on.
    event:
        The event (an :class:`EventKind` alone means the event with default details).

    Returns
    -------
    Distribution[Result]
        Each branch with its new state and rule; probabilities are exact Fractions.

    Raises
    ------
    IllegalActionError
        When the rules forbid the event in the unit's state (:data:`MACHINE` ``.refusals``) or a
        guard fails (6.8.2 enemy within 10 cm, 6.8.3 engaged, 6.6.12 flight not blocked or no
        enemy near), with the rule's number.
    InvalidDataError
        For melee casualties (two units: use :func:`melee_step`) or more figures removed than the
        unit has.

    Examples
    --------
    >>> panic = MoraleUnit(state="panic", morale=4, strength=6, initial=12)
    >>> out = step(panic, Event.reorganise())          # 6.8.4 at M 4 − 2 (6.2.4)
    >>> out.probability(Result(MachineState.NORMAL, "passed", "6.8.4"))
    Fraction(1, 3)
    >>> step(panic, Event.reorganise(enemy_within=True))
    Traceback (most recent call last):
    ...
    szwadron.errors.IllegalActionError: an enemy figure is within 10 cm: a panicking unit may not try to reorganise (rule 6.8.2)
    """
    ev = event if isinstance(event, Event) else Event(EventKind(event))
    _refuse(unit.state, ev)
    if ev.removed > unit.strength:
        raise InvalidDataError(
            _("{n} figures removed from a unit of {strength}").format(n=ev.removed, strength=unit.strength)
        )
    return _results(unit.state, ev.kind, _BRANCHES[ev.kind](unit, ev))


# --- the branches of each event: weights of the named outcomes, before the machine's moves -------


def _fire_casualties(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """4.8.1, 6.3.1 — the casualty test after fire; 6.6.14 a panicking unit takes none; PD-18 a
    unit losing its last figure is destroyed."""
    if ev.removed == unit.strength:
        return {"destroyed": 1}  # PD-18
    if unit.state is P:
        return {"no_test": 1}  # 6.6.14
    t = unit.target(ev.removed)
    six = MORALE_DIE_SIDES
    return {"passed": t * six, "repulsed": (six - t) * t, "panic": (six - t) ** 2}


def _melee_casualties(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """5.5 — melee casualties involve both units (:func:`melee_step`)."""
    raise InvalidDataError("casualties in melee involve both units: use melee_step(attacker, defender)")


def _charged(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """6.6.4 — a charged panicking unit tests whether it strikes back; any other fights back."""
    return _test(unit.target(), "strikes_back", "no_losses") if unit.state is P else {"fights_back": 1}


def _disengage(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """5.8, 6.4.1 — the disengage test; 7.6 automatic disengage passes it."""
    return {"automatic": 1} if unit.auto_disengage else _test(unit.target(), "passed", "failed")


def _opponent_left(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """5.8.4, 6.3.6 — the test for pursuit when the opponent disengages (6.7.1: artillery
    does not pursue)."""
    if unit.state is P:
        return {"no_test": 1}
    if unit.state is U:
        return {"already": 1}
    if unit.kind.is_artillery:
        return {"artillery": 1}  # 6.7.1, Decision: no test
    return _test(unit.target(), "passed", "failed")  # 5.8.4, Decision: even without losses


def _passed_through(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """6.4.3, 6.6.11 — a unit a fleeing own unit passes through tests (a panicking one does
    not)."""
    return {"no_test": 1} if unit.state is P else _test(unit.target(), "passed", "failed")


def _reorganise(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """6.8.2–6.8.4 — the reorganisation test, refused with an enemy within 10 cm (6.8.2) or a
    pursuing unit engaged (6.8.3)."""
    if unit.state is P and ev.enemy_within:
        raise IllegalActionError(
            "6.8.2", _("an enemy figure is within 10 cm: a panicking unit may not try to reorganise")
        )
    if unit.state is U and ev.engaged:
        raise IllegalActionError(
            "6.8.3", _("a figure is engaged in melee: a pursuing unit may not try to reorganise")
        )
    return _test(unit.target(), "passed", "failed")


def _surrender(unit: MoraleUnit, ev: Event) -> dict[str, int]:
    """6.6.12 — a panicking unit surrenders only when its flight is blocked and an enemy is near."""
    if not (ev.blocked and ev.enemy_within):
        raise IllegalActionError(
            "6.6.12",
            _("a panicking unit surrenders only when its flight is blocked and an enemy is within 10 cm"),
        )
    return {"surrendered": 1}


def _certain(branch: str) -> Callable[[MoraleUnit, Event], dict[str, int]]:
    """An event with one outcome."""
    return lambda unit, ev: {branch: 1}


#: Each event's branches (section 6), one small function each.
_BRANCHES: dict[EventKind, Callable[[MoraleUnit, Event], dict[str, int]]] = {
    E.FIRE_CASUALTIES: _fire_casualties,
    E.MELEE_CASUALTIES: _melee_casualties,
    E.CHARGED: _charged,
    E.DISENGAGE: _disengage,
    E.OPPONENT_LEFT: _opponent_left,
    E.PASSED_THROUGH: _passed_through,
    E.REORGANISE: _reorganise,
    E.REPULSE: _certain("repulsed"),
    E.RETREAT: lambda unit, ev: {"cannot_move": 1} if ev.blocked else {"retreated": 1},
    E.TABLE_EDGE: _certain("fled"),
    E.SURRENDER: _surrender,
    E.PURSUED_DESTROYED: _certain("next_target"),
    E.ORDER: _certain("obeys"),
}


_MELEE_BRANCH: dict[MeleeOutcome, str] = {o: o.value for o in MeleeOutcome}


def melee_step(
    attacker: MoraleUnit,
    defender: MoraleUnit,
    *,
    attacker_removed: int = 0,
    defender_removed: int = 0,
    attacker_hit: bool | None = None,
    defender_hit: bool | None = None,
) -> Distribution[tuple[Result, Result]]:
    """5.5, 6.3, 6.6.14, 6.7, PD-18 — the two units after the morale tests of one melee round.

    The order of the tests is :func:`szwadron.odds.morale.melee_sequence`'s (defender first, 5.5.2;
    the attacker tests for pursuit or for repulse, 5.5.3–5.5.4; the defender for pursuit, 5.5.5;
    a unit without losses passes every test, 5.5.1; a destroyed unit takes none, PD-18); each
    side's outcome is then mapped through :data:`MACHINE` from that unit's state.

    Parameters
    ----------
    attacker, defender:
        The units, strengths *before* this round's removals.
    attacker_removed, defender_removed:
        Figures each side lost.
    attacker_hit, defender_hit:
        Whether each side took damage (5.5.1 "losses"; default: it lost a figure).

    Raises
    ------
    IllegalActionError
        A panicking attacker (6.1.3); a unit repulsed or removed (6.5.3, PD-18).

    Examples
    --------
    >>> a = MoraleUnit(morale=3, strength=4)
    >>> out = melee_step(a, a, attacker_hit=True, defender_hit=True)
    >>> both_stand = (Result(MachineState.NORMAL, "engaged", "5.5.7"),) * 2
    >>> out.probability(both_stand)
    Fraction(1, 4)
    """
    if attacker.state is P:
        raise IllegalActionError("6.1.3", _("a panicking unit obeys no orders: it cannot attack in melee"))
    for unit in (attacker, defender):
        _refuse(unit.state, Event(E.MELEE_CASUALTIES))
    for unit, removed in ((attacker, attacker_removed), (defender, defender_removed)):
        if not 0 <= removed <= unit.strength:
            raise InvalidDataError(
                _("{n} figures removed from a unit of {strength}").format(n=removed, strength=unit.strength)
            )
    a_hit = attacker_removed > 0 if attacker_hit is None else attacker_hit
    d_hit = defender_removed > 0 if defender_hit is None else defender_hit
    if (attacker_removed and not a_hit) or (defender_removed and not d_hit):
        raise InvalidDataError("a side that lost figures took damage: *_hit cannot be False")
    a_dest = attacker_removed == attacker.strength
    d_dest = defender_removed == defender.strength
    seq = melee_sequence(
        0 if a_dest else attacker.target(attacker_removed),
        0 if d_dest else defender.target(defender_removed),
        attacker_hit=a_hit,
        defender_hit=d_hit,
        attacker_destroyed=a_dest,
        defender_destroyed=d_dest,
        defender_panicking=defender.state is P,
    )

    def result(unit: MoraleUnit, outcome: MeleeOutcome) -> Result:
        if outcome is MeleeOutcome.PURSUIT and unit.kind.is_artillery:
            outcome = MeleeOutcome.HELD  # 6.7.1: artillery never pursues (Decision)
        t = MACHINE.transition(unit.state, E.MELEE_CASUALTIES, _MELEE_BRANCH[outcome])
        return Result(t.target, t.branch, t.rule)

    out: dict[tuple[Result, Result], int] = {}
    for (a_out, d_out), w in seq.items():
        key = (result(attacker, a_out), result(defender, d_out))
        out[key] = out.get(key, 0) + w
    return Distribution(out)


def state_distribution(results: Distribution[Result]) -> Distribution[MachineState]:
    """The distribution of the new state alone (branches merged).

    >>> state_distribution(step(MoraleUnit(morale=6, strength=2), Event.fire())).outcomes()
    [<MachineState.NORMAL: 'normal'>]
    """
    return results.map(lambda r: r.state)


def chance(results: Distribution[Result], state: MachineState | str) -> Fraction:
    """P(the unit ends in ``state``).

    >>> chance(step(MoraleUnit(morale=3, strength=2), Event.fire()), "panic")
    Fraction(1, 4)
    """
    target = MachineState(state)
    return sum((results.probability(r) for r in results.outcomes() if r.state is target), Fraction(0))


__all__ = [
    "MACHINE",
    "Event",
    "EventKind",
    "MachineState",
    "MoraleUnit",
    "Refusal",
    "Result",
    "StateMachine",
    "Transition",
    "chance",
    "melee_step",
    "state_distribution",
    "step",
]
