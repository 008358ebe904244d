"""Applying results to the table (issue 17): an action's ruling becomes the next position.

Each ``apply_*`` function takes a :class:`Position` (a scenario file's text, parsed), asks the
rules (:func:`szwadron.table.movement.check_move`, :func:`szwadron.table.fire.fire`), and
returns an :class:`Applied`: the changes to the file (:mod:`szwadron.game.document`), the dice,
the ruling and the next position's text. An action the rules forbid raises
:class:`~szwadron.errors.IllegalActionError` with its rule, and nothing is changed.

The sequence of play (2) is checked when the scenario has a ``[turn]``: a unit acts in its own
side's movement phase (2.3), once (2.3: one action a phase, ``acted``), not while panicking or
pursuing (6.1). Without a ``[turn]`` only the one-action rule and the morale state are checked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.files import read_input
from szwadron.game.document import Change, ScenarioDocument, base_entry
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import _, ngettext, term
from szwadron.loading import (
    army_list_search_path,
    parse_scenario,
    parse_toml_bytes,
    parse_toml_text,
    source_name,
    validate,
)
from szwadron.models import Phase, Scenario, Turn, Unit, UnitAction, UnitState
from szwadron.movefile import MoveFile
from szwadron.odds.combat import COMBAT_DIE_SIDES, Removed, Side, roll_melee
from szwadron.odds.joint import CombinedRoll, roll_combined
from szwadron.odds.morale import MeleeOutcome, morale_target
from szwadron.odds.remainder import die_sides, remainder_roll
from szwadron.rulings import Ruling
from szwadron.table.audit import engaged_or_recorded
from szwadron.table.combined import combined_melee
from szwadron.table.disengage import disengage
from szwadron.table.fire import FireResult, fire
from szwadron.table.melee import table_melee
from szwadron.table.morale_phase import flight_ends, morale_phase
from szwadron.table.movement import check_move, reform, repulse
from szwadron.table.pursuit import pursuit_plan

if TYPE_CHECKING:
    from szwadron.table.fire import FireResult


@dataclass(frozen=True)
class Position:
    """A scenario file's text and what it says (the table at one moment of the game)."""

    text: str
    source: str
    scenario: Scenario
    folders: tuple[Path, ...] = ()


def read_position(path: str | Path) -> Position:
    """Read a scenario file as a position (its text is kept for writing the next one); ``-``:
    standard input."""

    p = Path(path)
    raw = read_input(p)  # regular files only, bounded (issue 16); stdin: read once
    data = parse_toml_bytes(raw, source=source_name(p))  # one clear message for a malformed file
    text = raw.decode("utf-8")
    folders = tuple(army_list_search_path(p))
    source = source_name(p)
    return Position(text, source, parse_scenario(data, source=source, folders=folders), folders)


def position_from_text(text: str, source: str, *, folders: Sequence[Path] = ()) -> Position:
    """A position from a scenario's text; profiles are resolved along ``folders``."""

    data = parse_toml_text(text, source=source)
    folders = tuple(folders) or tuple(army_list_search_path())
    scenario = parse_scenario(data, source=source, folders=folders)
    return Position(text, source, scenario, folders)


@dataclass(frozen=True)
class Applied:
    """An applied action: what the log records, and the next position's text."""

    action: str
    inputs: dict[str, Any]
    dice: dict[str, Any]
    ruling: dict[str, Any]
    changes: list[Change]
    text: str
    notes: tuple[str, ...] = field(default=())
    report: Any = field(default=None, compare=False)
    """The ruling's full answer (a MoveReport, a FireResult), for printing."""

    def record(self) -> dict[str, Any]:
        """The log line's content (:func:`szwadron.game.log.append`)."""
        return {
            "action": self.action,
            "inputs": self.inputs,
            "dice": self.dice,
            "ruling": self.ruling,
            "changes": self.changes,
        }


def _finish(
    pos: Position,
    action: str,
    inputs: dict[str, Any],
    dice: dict[str, Any],
    ruling: dict[str, Any],
    changes: list[Change],
    notes: Sequence[str] = (),
    report: Any = None,
) -> Applied:
    changes = _after_drops(changes)
    doc = ScenarioDocument(pos.text, source=pos.source, unit_ids=[u.id for u in pos.scenario.units])
    doc.apply(changes)
    return Applied(action, inputs, dice, ruling, changes, doc.text, tuple(notes), report)


def _after_drops(changes: list[Change]) -> list[Change]:
    """The changes without those to a unit an earlier change removed from the table (PD-18: a
    melee that destroys both units forgets each in the other, which is gone already)."""
    dropped: set[str] = set()
    kept: list[Change] = []
    for c in changes:
        if c.get("unit") in dropped:
            continue
        if c.get("op") == "drop":
            dropped.add(str(c["unit"]))
        kept.append(c)
    return kept


# --- the sequence of play -------------------------------------------------------------------------


def check_may_act(scenario: Scenario, unit: Unit, what: str, *, after: UnitAction | None = None) -> None:
    """2.3, 6.1 — may ``unit`` take an action now? ``after`` is the only action it may follow:
    its fire, for the move of its other figures after it (4.9); the other half of a fire on the
    march (4.11.2: the half move before or after the fire). A half done twice, a second move after
    the fire (3.1.1) or anything after a whole action is refused. Raises
    :class:`IllegalActionError` naming the rule.

    In a morale phase (2.2.1) a unit in uncontrolled pursuit fights its melee, in its own side's
    phase or in the enemy's (6.7.3: "walczy wręcz w swojej fazie morale lub w turze
    przeciwnika"; 2.2.1 V), and in its own side's phase a unit that reorganised in it makes its
    move to regain coherency (2.2.1 III, 6.8.5), once."""
    turn = scenario.turn
    if turn is not None:
        if turn.phase is Phase.MORALE and what == "fight" and unit.state is UnitState.PURSUIT:
            if unit.acted is UnitAction.MELEE:  # 2.3, 6.8.8: one melee, one pursuer after another
                raise IllegalActionError(
                    "2.3",
                    _("{unit} has fought its melee in this phase already: one melee a phase").format(
                        unit=unit.id
                    ),
                )
            return  # 6.7.3, 2.2.1 V: a pursuing unit fights in either side's morale phase
        if turn.side != unit.side:
            raise IllegalActionError(
                "2.3",
                _("{unit} is side {side}'s; it is side {side2}'s turn (round {round})").format(
                    unit=unit.id, side=unit.side, side2=turn.side, round=turn.round
                ),
            )
        if turn.phase is Phase.MORALE and what == "move" and unit.acted is UnitAction.REORGANISE:
            return  # 2.2.1 III, 6.8.5: the re-forming of a unit that reorganised
        if turn.phase_ended:
            raise IllegalActionError(
                "4.12.5",
                _(
                    "side {side}'s movement phase has ended: a declared fire went off at its end; go on with turn --apply"
                ).format(side=turn.side),
            )
        if turn.phase is not Phase.MOVEMENT:
            raise IllegalActionError(
                "2.2",
                _("{unit} cannot {what} in the morale phase; advance to the movement phase first").format(
                    unit=unit.id, what=term(what)
                ),
            )
    if unit.state is not UnitState.NORMAL:
        raise IllegalActionError(
            "6.1",
            _("{unit} is in {value}: it takes no action in the movement phase").format(
                unit=unit.id, value=term(unit.state.value)
            ),
        )
    if unit.acted is UnitAction.REORGANISE:
        raise IllegalActionError(
            "6.8",
            _(
                "{unit} reorganised in this turn's morale phase: it takes no action in the movement phase"
            ).format(unit=unit.id),
        )
    if what in ("move", "fire") and unit.engaged_with:  # 5.8.1: it fights, or disengages instead
        raise IllegalActionError(
            "5.8.1",
            _(
                "{unit} is engaged in melee with {enemies}: it fights (melee --apply) or disengages (move --disengage), it cannot {what}"
            ).format(unit=unit.id, enemies=", ".join(unit.engaged_with), what=term(what)),
        )
    if unit.acted is not None and unit.acted is not after:
        raise IllegalActionError(
            "2.3",
            _("{unit} has already acted in this movement phase ({value}): one action a phase").format(
                unit=unit.id, value=term(unit.acted.value)
            ),
        )


def _expand_if_formation(unit: Unit) -> list[Change]:
    """A unit given as a formation gets its bases written out before they change."""
    if unit.given_formation is None:
        return []
    bases = [
        base_entry(b.x, b.y, b.facing, None if b.profile is None else {"profile": b.profile.id})
        for b in unit.bases
    ]
    return [{"op": "expand", "unit": unit.id, "bases": bases}]


# --- move -----------------------------------------------------------------------------------------


def apply_move(
    pos: Position,
    units: str | Sequence[str],
    move: MoveFile | Mapping[str, Any],
    *,
    charge: Sequence[str] = (),
    march: bool = False,
    after_fire: FireResult | None = None,
    source: str = "move",
) -> Applied:
    """Section 3 — the move checked by :func:`~szwadron.table.movement.check_move` and, when
    legal, its final poses written (PD-6: each base at the last pose of its path). Heavy
    artillery that moves has to prepare again (7.3). Raises :class:`IllegalActionError` with
    the first rule broken."""

    ids = [units] if isinstance(units, str) else list(units)
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    sc = pos.scenario
    for u in ids:
        try:
            after = UnitAction.FIRE if after_fire is not None else (UnitAction.MARCH_FIRE if march else None)
            check_may_act(sc, sc.unit(u), "move", after=after)
        except KeyError:
            raise InvalidArgumentError(
                "units", _("{u!r}: no such unit in the scenario").format(u=u)
            ) from None
    bf = Battlefield(sc)
    report = check_move(bf, ids, move, charge=charge, march=march, after_fire=after_fire, source=source)
    if not report.legal:
        raise IllegalActionError(str(report.rule), report.message)
    changes: list[Change] = []
    for u in ids:
        unit = sc.unit(u)
        changes += _expand_if_formation(unit)
        poses = [[p.index, p.x, p.y, p.facing] for p in move.bases if (p.unit or ids[0]) == u]
        if poses:
            changes.append({"op": "move", "unit": u, "poses": poses})
        acted = UnitAction.CHARGE if charge else UnitAction.MOVE
        if march:  # 4.11.2: the half move before or after the fire on the march
            acted = UnitAction.MARCH if unit.acted is UnitAction.MARCH_FIRE else UnitAction.MARCH_MOVE
        if after_fire is not None:  # 4.9, 3.1.1: one move after the fire, and the action is done
            acted = UnitAction.FIRE_MOVE
        changes.append({"op": "set", "unit": u, "field": "acted", "value": acted.value})
        if poses and any(unit.base_profile(i).has("heavy") for i in range(unit.strength)) and unit.prepared:
            changes.append({"op": "set", "unit": u, "field": "prepared", "value": False})
    inputs: dict[str, Any] = {"units": ids, "move": move.model_dump(mode="json", exclude_none=True)}
    if charge:
        inputs["charge"] = list(charge)
    if march:
        inputs["march"] = True
    if after_fire is not None:
        inputs["after_fire"] = after_fire.target
    ruling = {
        "legal": True,
        "distances": {b.base: round(b.distance, 6) for b in report.bases},
        "contacts": list(report.contacts),
    }
    return _finish(pos, "move", inputs, {}, ruling, changes, report.notes, report)


# --- fire -----------------------------------------------------------------------------------------


@dataclass
class _Dice:
    """Dice given on the command line (used in order, all of them) or rolled."""

    name: str
    given: list[int] | None
    rng: random.Random | None
    used: list[int] = field(default_factory=list)

    def take(self, sides: int, why: str) -> int:
        if self.given is None:
            assert self.rng is not None
            face = self.rng.randint(1, sides)
        else:
            if len(self.used) >= len(self.given):
                raise InvalidArgumentError(
                    self.name,
                    ngettext(
                        "gives {given} die, but {why} needs another one",
                        "gives {given} dice, but {why} needs another one",
                        len(self.given),
                    ).format(given=len(self.given), why=why),
                )
            face = self.given[len(self.used)]
            if not 1 <= face <= sides:
                raise InvalidArgumentError(
                    self.name,
                    _("die {used} is {face}, not a face of a d{sides} (1..{sides})").format(
                        used=len(self.used) + 1, face=face, sides=sides
                    ),
                )
        self.used.append(face)
        return face

    def check_all_used(self, what: str) -> None:
        if self.given is not None and len(self.used) != len(self.given):
            raise InvalidArgumentError(
                self.name,
                ngettext(
                    "gives {given} die, {what} used {used}",
                    "gives {given} dice, {what} used {used}",
                    len(self.given),
                ).format(given=len(self.given), what=what, used=len(self.used)),
            )


def _fire_inputs(
    shooter: str, target: str, bases: Sequence[str] | None, march: bool, ammunition: str | None
) -> dict[str, Any]:
    """What a fire's log line records of its command."""
    inputs: dict[str, Any] = {"shooter": shooter, "target": target}
    if bases is not None:
        inputs["bases"] = list(bases)
    if march:
        inputs["march"] = True
    if ammunition is not None:
        inputs["ammunition"] = ammunition
    return inputs


def _out_of_range(
    pos: Position,
    shooter: str,
    target: str,
    bases: Sequence[str] | None,
    march: bool,
    ammunition: str | None,
    reason: Ruling,
    result: FireResult,
    reaction: str | None = None,
) -> Applied:
    """4.5.5 — fire declared at a target out of range: no die is rolled and the unit's action is
    lost ("Brak zasięgu do celu powoduje utratę akcji danym oddziałem"), unlike a target out of
    sight, which leaves it free to act otherwise (4.3.6); a fire declared for the opponent's turn
    is lost the same way (4.12.4), and so is the fire at a charger (4.12.6)."""
    inputs = _fire_inputs(shooter, target, bases, march, ammunition)
    changes: list[Change] = [{"op": "set", "unit": shooter, "field": "acted", "value": UnitAction.FIRE.value}]
    note = _("{unit} fired at {target} out of range: no die is rolled and its action is lost (4.5.5)").format(
        unit=shooter, target=target
    )
    if reaction is not None:
        inputs[reaction] = True
        if result.target_at:
            inputs["target_at"] = [list(p) for p in result.target_at]
        changes = [_spent(shooter, reaction), *_phase_end(pos.scenario, reaction, result.target_at)]
        note = (
            _("{unit} fired at {target} out of range: its declared fire is lost (4.12.4)")
            if reaction == "declared"
            else _("{unit} fired at {target} out of range: its fire at the charger is lost (4.5.5, 4.12.6)")
        ).format(unit=shooter, target=target)
    ruling = {"lost": "4.5.5", "reason": reason.to_json()}
    return _finish(pos, "fire", inputs, {}, ruling, changes, [note], result)


def _check_declared_fire(sc: Scenario, unit: Unit, march: bool, interrupt: bool) -> None:
    """4.12.2-4.12.5 — may ``unit`` fire the fire it declared now: it declared it and has not
    fired it (4.12.4: one move interrupted), in normal order and not engaged (6.1, 4.1.1), in the
    opponent's movement phase (when the position says whose turn it is), not on the march; an
    ``interrupt`` (4.12.3) only while the phase's moves go on (not after a fire at its end,
    4.12.5). Raises :class:`IllegalActionError` with the rule."""
    if march:
        raise InvalidArgumentError(
            "march", _("does not apply: a declared fire is fired normally, not on the march")
        )
    if not unit.declared:
        raise IllegalActionError(
            "4.12.2",
            _(
                "{unit} has no declared fire to fire: it declared none in its own turn (fire --declare), or has fired it already (one move interrupted, 4.12.4)"
            ).format(unit=unit.id),
        )
    turn = sc.turn
    if interrupt and turn is not None and turn.phase_ended:
        raise IllegalActionError(
            "4.12.5",
            _(
                "side {side}'s movement phase has ended (a declared fire went off at its end): there is no move left to interrupt"
            ).format(side=turn.side),
        )
    if turn is not None and (turn.side == unit.side or turn.phase is not Phase.MOVEMENT):
        raise IllegalActionError(
            "4.12.3",
            _(
                "{unit}'s declared fire goes off in the opponent's movement phase (it is side {side}'s {phase} phase)"
            ).format(unit=unit.id, side=turn.side, phase=term(turn.phase.value)),
        )
    if unit.state is not UnitState.NORMAL or unit.engaged_with:
        raise IllegalActionError(
            "6.1" if unit.state is not UnitState.NORMAL else "4.1.1",
            _("{unit} is in {value} or engaged: it cannot fire").format(
                unit=unit.id, value=term(unit.state.value)
            ),
        )


def _check_charged_fire(sc: Scenario, unit: Unit, target: Unit) -> None:
    """4.12.6 — before the fire: ``target`` is an enemy, and it is the opponent's turn (when the
    position says whose turn it is). The shooter's morale and engagement are refused by the fire
    question (:func:`~szwadron.table.fire.reaction.charged_fire`); having stood by :func:`_check_stood`.
    Raises with the rule."""
    turn = sc.turn
    if target.side == unit.side:
        raise InvalidArgumentError(
            "target", _("{target} is on {unit}'s side").format(target=target.id, unit=unit.id)
        )
    if turn is not None and turn.side == unit.side:
        raise IllegalActionError(
            "4.12.6",
            _("{unit} fires at a charger in the opponent's turn; it is side {side}'s own turn").format(
                unit=unit.id, side=turn.side
            ),
        )


def _check_stood(sc: Scenario, unit: Unit, target: Unit) -> None:
    """4.12.6 — for a shooter in normal order and engaged in no melee fought: with a ``[turn]`` it
    has stood (``stood``: no action and no declaration in its own last movement phase, its fire
    at a charger not yet spent), and the target's action this phase, if any, is a charge."""
    turn = sc.turn
    if turn is not None and not unit.stood:
        message = _(
            "{unit} did not stand without acting in its own movement phase (it acted or declared fire), or has fired at a charger or been attacked already: it may not fire at a charging unit"
        )
        if turn.round == 1 and turn.side == turn.first:
            message = _(
                "{unit} has had no movement phase of its own yet (round 1): it did not stand without acting, and may not fire at a charging unit"
            )
        raise IllegalActionError("4.12.6", message.format(unit=unit.id))
    if target.acted is not None and target.acted is not UnitAction.CHARGE:
        raise IllegalActionError(
            "4.12.6",
            _(
                "{target} made its action in this phase ({value}), not a charge: it is not charging {unit}"
            ).format(target=target.id, value=term(target.acted.value), unit=unit.id),
        )


def _check_reaction(
    sc: Scenario,
    su: Unit,
    tu: Unit,
    march: bool,
    declared: bool,
    charged: bool,
    target_at: MoveFile | Mapping[str, Any] | None,
) -> str | None:
    """The form of the fire (4.12.1: ``"declared"``, ``"charged"``, or None for a fire in the
    unit's own movement phase), its conditions checked; raises with the rule broken."""
    if declared and charged:
        raise InvalidArgumentError(
            "reaction",
            _("a fire in the opponent's turn is declared (4.12.2) or at a charger (4.12.6), not both"),
        )
    if declared:  # 4.12.2-4.12.5: the fire it declared, in the opponent's turn
        _check_declared_fire(sc, su, march, target_at is not None)
        return "declared"
    if charged:
        if march:
            raise InvalidArgumentError(
                "march", _("does not apply: the fire at a charger is fired normally, not on the march")
            )
        _check_charged_fire(sc, su, tu)
        return "charged"
    if target_at is not None:
        raise InvalidArgumentError(
            "target_at",
            _(
                "the target is placed elsewhere only for a fire in the opponent's turn (declared, 4.12.3, or at a charger, 4.12.6)"
            ),
        )
    check_may_act(sc, su, "fire", after=UnitAction.MARCH_MOVE if march else None)
    return None


def _every_base_if_moved(target: Unit, target_at: MoveFile | Mapping[str, Any], source: str) -> MoveFile:
    """4.12.3 — the poses the target is fired at; a target that has made its move already (it
    acted in this phase) must list every base: one not listed would be taken at the end of its
    move, where it had not come yet when the move was interrupted."""
    move = (
        target_at if isinstance(target_at, MoveFile) else validate(MoveFile, dict(target_at), source=source)
    )
    listed = {b.index for b in move.bases}
    if target.acted is not None and len(listed) < target.strength:
        raise InvalidArgumentError(
            "target_at",
            _(
                "{target} has made its move already: list all its {n} bases where it is fired at ({k} listed); one not listed would stand at the end of its move"
            ).format(target=target.id, n=target.strength, k=len(listed)),
        )
    return move


def _phase_end(sc: Scenario, reaction: str, target_at: object) -> list[Change]:
    """4.12.5 — a declared fire that interrupted no move goes off at the end of the opponent's
    movement phase: the position records that the phase has ended (its side acts no more)."""
    if reaction != "declared" or target_at or sc.turn is None:
        return []
    return [{"op": "turn", "value": {"phase_ended": True}}]


def _spent(shooter: str, reaction: str) -> Change:
    """4.12 — the shooter's fire in the opponent's turn is spent: its declaration (4.12.2) or its
    fire at the first charger (4.12.6)."""
    return {
        "op": "set",
        "unit": shooter,
        "field": "declared" if reaction == "declared" else "stood",
        "value": None,
    }


def _stopped(
    target: Unit, result: FireResult, reaction: str | None, outcome: str, turn: Turn | None
) -> list[Change]:
    """4.12.3, 4.8.2, 4.8.3 — a target fired at where its move was interrupted (``result.target_at``)
    that is repulsed or panics stops there: its listed bases written at those poses, and its move
    is its action (``charge`` for a charger, ``move`` otherwise) when it had not acted yet. A
    target that stands is left where the position has it (its move goes on)."""
    if reaction is None or not result.target_at or outcome not in ("repulsed", "panic"):
        return []
    poses = [[int(b.rpartition("/")[2]), round(x, 6), round(y, 6), f] for b, x, y, f in result.target_at]
    changes: list[Change] = [{"op": "move", "unit": target.id, "poses": poses}]
    if target.acted is None and (turn is None or turn.side == target.side):
        acted = UnitAction.CHARGE if reaction == "charged" else UnitAction.MOVE
        changes.append({"op": "set", "unit": target.id, "field": "acted", "value": acted.value})
    return changes


def apply_declare(pos: Position, shooter: str) -> Applied:
    """4.12.2 — instead of acting in its movement phase, the unit declares that it will fire in
    the opponent's turn: its action (``acted = "declare"``), and ``declared`` until it fires
    (``fire --declared --apply``) or the opponent's movement phase ends (4.12.5: then it is lost)."""
    sc = pos.scenario
    if shooter not in {u.id for u in sc.units}:
        raise InvalidArgumentError(
            "shooter", _("{ident!r}: no such unit in the scenario").format(ident=shooter)
        )
    unit = sc.unit(shooter)
    check_may_act(sc, unit, "fire")
    if not any(unit.base_profile(i).fire > 0 for i in range(unit.strength)):
        raise IllegalActionError(
            "4.1", _("{unit} has no fire (SO 0): it has nothing to declare").format(unit=shooter)
        )
    changes: list[Change] = [
        {"op": "set", "unit": shooter, "field": "acted", "value": UnitAction.DECLARE.value},
        {"op": "set", "unit": shooter, "field": "declared", "value": True},
    ]
    note = _("{unit} declares fire in the opponent's turn (4.12.2)").format(unit=shooter)
    return _finish(pos, "declare", {"shooter": shooter}, {}, {"declared": True}, changes, [note])


# long: section 4 in the order of play: dice checked, casualties (4.7), remainder (1.5.1), morale (4.8), states set, each a few lines.
def apply_fire(
    pos: Position,
    shooter: str,
    target: str,
    *,
    bases: Sequence[str] | None = None,
    march: bool = False,
    ammunition: str | None = None,
    dice: Sequence[int] | None = None,
    remainder_dice: Sequence[int] | None = None,
    morale_dice: Sequence[int] | None = None,
    seed: int | None = None,
    declared: bool = False,
    charged: bool = False,
    target_at: MoveFile | Mapping[str, Any] | None = None,
    source: str = "target_at",
) -> Applied:
    """Section 4 — fire resolved with dice: given (``dice`` the volley's d6 in the order of its
    groups, ``remainder_dice`` for the remainder roll of 1.5.1, ``morale_dice`` for the test of
    4.8.1) or rolled from ``seed``. Casualties are removed in the order of 4.7 (4.7.2-4.7.4,
    4.10.8; :func:`~szwadron.table.fire.removal_order`), damage turned into figures along that
    order (1.5.1, PD-13; skirmishers' W doubled, PD-17). A target that took damage tests (4.8.1,
    6.3): repulse test, on failure the panic test; its state is set (a repulsed unit stays
    normal, 6.5.3; the repulse and flight moves, 4.8.2, 4.8.3, are the player's next moves). A
    panicking target takes no test (6.6); a destroyed unit leaves the table (PD-18).
    The volley's dice must match its size; the dice of a test must be those it uses. A target
    out of range (4.5.1) costs the shooter its action and rolls nothing (4.5.5); any other
    refusal (no sight, no arc, ...) changes nothing and raises :class:`IllegalActionError`.

    Fire in the opponent's turn (4.12): ``declared`` fires the fire the unit declared (4.12.2),
    ``charged`` the undeclared fire at the first unit that charges it (4.12.6; only a unit that
    ``stood``, when the position says whose turn it is). ``target_at`` (a move file's poses)
    places the target where its move is interrupted (4.12.3) or where its charge is fired at:
    the fire is resolved there; a target repulsed or panicking stops there (its bases are written
    at those poses and its move is its action), one that stands goes on with its move from where
    the position has it. A target that has made its move already lists every base (those not
    listed would stand at its end). ``source`` names ``target_at`` in messages. A declared fire
    without ``target_at`` goes off at the end of the opponent's movement phase (4.12.5): the
    position records that the phase has ended (``[turn] phase_ended``)."""

    rng = random.Random(seed) if seed is not None else None
    sc = pos.scenario
    for role, ident in (("shooter", shooter), ("target", target)):
        if ident not in {u.id for u in sc.units}:
            raise InvalidArgumentError(role, _("{ident!r}: no such unit in the scenario").format(ident=ident))
    su, tu = sc.unit(shooter), sc.unit(target)
    reaction = _check_reaction(sc, su, tu, march, declared, charged, target_at)
    if reaction == "charged" and su.state is UnitState.NORMAL and not su.engaged_with:
        _check_stood(sc, su, tu)  # panic and engagement: the question's own refusals (charged_fire)
    if target_at is not None:
        target_at = _every_base_if_moved(tu, target_at, source)
    bf = Battlefield(sc)
    result = fire(
        bf,
        shooter,
        target,
        bases=bases,
        march=march,
        ammunition=ammunition,
        target_poses=target_at,
        reaction=reaction,
        source=source,
    )
    if not result.legal or result.odds is None:
        reason = result.reason
        if reason is not None and reason.rule in ("4.5.1", "4.12.4"):  # 4.5.5, 4.12.4: out of range, lost
            if dice or remainder_dice or morale_dice:
                raise InvalidArgumentError(
                    "dice",
                    _(
                        "must not be given: the target is out of range (4.5.5) and no die is rolled (--roll is fine)"
                    ),
                )
            return _out_of_range(pos, shooter, target, bases, march, ammunition, reason, result, reaction)
        raise IllegalActionError(
            reason.rule if reason else "4", reason.message if reason else _("cannot fire")
        )
    if dice is None and seed is None:
        raise InvalidArgumentError(
            "dice", _("missing: give the volley's dice in the order rolled, or a seed to roll them")
        )
    odds = result.odds
    size = sum(g.dice for g in odds.groups)
    if dice is not None and len(dice) != size:
        groups = " + ".join(_("{n} on ≤{c}").format(n=g.dice, c=g.accuracy) for g in odds.groups)
        raise InvalidArgumentError(
            "dice",
            _("gives {dice} dice; the volley rolls {size} ({groups})").format(
                dice=len(dice), size=size, groups=groups
            ),
        )
    volley = _Dice("dice", None if dice is None else list(dice), rng)
    rolled_groups = []
    damage = 0
    for g in odds.groups:
        faces = [volley.take(COMBAT_DIE_SIDES, _("the volley")) for _k in range(g.dice)]
        scored = sum(1 for f in faces if f <= g.accuracy)
        damage += scored
        rolled_groups.append({"dice": g.dice, "accuracy": g.accuracy, "faces": faces, "scored": scored})

    # 1.5.1, PD-13 — damage into figures along the removal order
    order = list(result.removal_order)
    wounds = list(odds.wounds) if not isinstance(odds.wounds, int) else [odds.wounds] * len(order)
    if odds.cap is not None:
        wounds = wounds[: odds.cap]
    left, removed = damage, 0
    while removed < len(wounds) and left >= wounds[removed]:
        left -= wounds[removed]
        removed += 1
    remainder_json: dict[str, Any] | None = None
    rem = _Dice("remainder_dice", None if remainder_dice is None else list(remainder_dice), rng)
    if removed < len(wounds) and left > 0:
        instruction = remainder_roll(left, wounds[removed], odds.die)
        if remainder_dice is None and rng is None:
            raise InvalidArgumentError(
                "remainder_dice",
                _(
                    "missing: {damage} damage leaves a remainder of {left}/{wounds} (1.5.1: {notation} on a {die}); give its die"
                ).format(
                    damage=damage,
                    left=left,
                    wounds=wounds[removed],
                    notation=instruction.notation,
                    die=odds.die,
                ),
            )
        sides = die_sides(odds.die)
        rolled: list[int] = []
        while True:
            face = rem.take(
                sides, _("the remainder roll (1.5.1, {notation})").format(notation=instruction.notation)
            )
            rolled.append(face)
            if face not in instruction.reroll:
                break
        extra = rolled[-1] <= instruction.remove_at_most
        removed += int(extra)
        remainder_json = {
            "remainder": left,
            "wounds": wounds[removed - int(extra)],
            "die": odds.die,
            "instruction": instruction.notation,
            "faces": rolled,
            "extra": extra,
        }
    rem.check_all_used(_("the removal (1.5.1)"))
    gone_ids = order[:removed]
    gone = sorted(int(b.rpartition("/")[2]) for b in gone_ids)
    strength_after = tu.strength - len(gone)

    # 4.8.1, 6.3 — the morale test
    mor = _Dice("morale_dice", None if morale_dice is None else list(morale_dice), rng)
    tests: list[dict[str, Any]] = []
    outcome = "no_test"
    state = tu.state
    if strength_after == 0:
        outcome = "destroyed"  # PD-18
    elif damage > 0 and tu.state is UnitState.PANIC:
        outcome = "no_test"  # 6.6: a panicking unit takes no morale tests for losses
    elif damage > 0:
        if morale_dice is None and rng is None:
            raise InvalidArgumentError(
                "morale_dice", _("missing: the target took damage and tests morale (4.8.1); give its dice")
            )
        aim = morale_target(
            tu.profile.morale, strength_after, tu.starting_strength, result.morale_test.modifier
        )
        first = mor.take(6, _("the repulse test (6.3)"))
        tests.append({"test": "repulse", "face": first, "target": aim, "passed": first <= aim})
        if first <= aim:
            outcome = "passed"
        else:
            second = mor.take(6, _("the panic test (6.3)"))
            tests.append({"test": "panic", "face": second, "target": aim, "passed": second <= aim})
            if second <= aim:
                outcome, state = "repulsed", UnitState.NORMAL  # 6.5.3: ends its retreat normal
            else:
                outcome, state = "panic", UnitState.PANIC
    mor.check_all_used(_("the morale test (6.3)"))

    done = UnitAction.FIRE
    if march:  # 4.11.2: the fire before or after the half move
        done = UnitAction.MARCH if su.acted is UnitAction.MARCH_MOVE else UnitAction.MARCH_FIRE
    changes: list[Change] = [{"op": "set", "unit": shooter, "field": "acted", "value": done.value}]
    if reaction is not None:  # 4.12: the fire it had in the opponent's turn is spent
        changes = [_spent(shooter, reaction), *_phase_end(sc, reaction, target_at)]
    notes: list[str] = []
    stopped = _stopped(tu, result, reaction, outcome, sc.turn) if strength_after else []
    if strength_after == 0:
        changes.append({"op": "drop", "unit": target})
        changes += _forget(sc, target)
        notes.append(_("{unit} is destroyed and leaves the table (PD-18)").format(unit=target))
    elif gone or state is not tu.state or stopped:
        changes += _expand_if_formation(tu)
        changes += stopped  # 4.12.3: where its move was interrupted, before its figures are removed
        if gone:
            changes.append({"op": "remove", "unit": target, "bases": gone})
            if tu.initial_strength is None:
                changes.append(
                    {"op": "set", "unit": target, "field": "initial_strength", "value": tu.strength}
                )
        if state is not tu.state:
            changes.append({"op": "set", "unit": target, "field": "state", "value": state.value})
            if tu.pursuing is not None:
                changes.append({"op": "set", "unit": target, "field": "pursuing", "value": None})
    if outcome == "repulsed" and tu.state is UnitState.PURSUIT:
        changes.append(_owes_pursuer_repulse(target))
        notes.append(_repulsed_pursuer(target))
    elif outcome in ("repulsed", "panic") and tu.repulsed_pursuing:  # 6.7.9: a new result, 6.5 or 6.6
        changes.append({"op": "set", "unit": target, "field": "repulsed_pursuing", "value": None})
    if outcome == "repulsed" and tu.state is not UnitState.PURSUIT:
        notes.append(
            _(
                "{target} is repulsed: its retreat out of {shooter}'s range (4.8.2, 6.5) is its next move"
            ).format(target=target, shooter=shooter)
        )
    elif outcome == "panic":
        notes.append(_("{unit} panics: its flight (4.8.3, 6.6) is its next move").format(unit=target))
    if stopped:
        notes.append(
            _("{target}'s move stops where it was fired at (4.12.3): it stands there").format(target=target)
        )
    elif target_at is not None and strength_after:
        notes.append(
            _("{target} stands the fire: its move goes on from where the position has it (4.12.3)").format(
                target=target
            )
        )
        if gone:
            notes.append(
                _(
                    "{target}'s figures are numbered again after its losses: give its move by the new numbers"
                ).format(target=target)
            )
    inputs = _fire_inputs(shooter, target, bases, march, result.ammunition)
    if reaction is not None:
        inputs[reaction] = True
    if target_at is not None:
        inputs["target_at"] = [list(p) for p in result.target_at]
    dice_json: dict[str, Any] = {"volley": rolled_groups}
    if remainder_json is not None:
        dice_json["remainder"] = remainder_json
    if tests:
        dice_json["morale"] = tests
    if seed is not None:
        dice_json["seed"] = seed
    ruling = {
        "damage": damage,
        "removed": [b for b in gone_ids],
        "strength": strength_after,
        "morale": outcome,
        "state": state.value if strength_after else None,
    }
    return _finish(pos, "fire", inputs, dice_json, ruling, changes, notes, result)


def _forget(sc: Scenario, gone: str) -> list[Change]:
    """References to a unit that left the table: its pursuers and the units engaged with it."""
    out: list[Change] = []
    for u in sc.units:
        if u.id == gone:
            continue
        if gone in u.engaged_with:
            rest = [e for e in u.engaged_with if e != gone]
            out.append({"op": "set", "unit": u.id, "field": "engaged_with", "value": rest or None})
        if u.pursuing == gone:
            out.append({"op": "set", "unit": u.id, "field": "pursuing", "value": None})
    return out


# --- melee ----------------------------------------------------------------------------------------


class _ScriptedDice(random.Random):
    """Dice given on the command line, handed out in the order a procedure rolls them; a
    procedure that asks for more than were given, or for a face out of range, is bad input."""

    def __init__(self, name: str, faces: Sequence[int], what: str) -> None:
        super().__init__(0)
        self.name = name
        self.faces = list(faces)
        self.what = what
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self.faces):
            raise InvalidArgumentError(
                self.name,
                ngettext(
                    "gives {faces} die, but {what} rolls more: die {next} (a d{b}) is wanted",
                    "gives {faces} dice, but {what} rolls more: die {next} (a d{b}) is wanted",
                    len(self.faces),
                ).format(faces=len(self.faces), what=self.what, next=self.used + 1, b=b),
            )
        face = self.faces[self.used]
        if not a <= face <= b:
            raise InvalidArgumentError(
                self.name,
                _("die {used} is {face}, not a face of a d{b} ({a}..{b})").format(
                    used=self.used + 1, face=face, b=b, a=a
                ),
            )
        self.used += 1
        return face

    def check_all_used(self) -> None:
        if self.used != len(self.faces):
            raise InvalidArgumentError(
                self.name,
                ngettext(
                    "gives {faces} die, {what} rolled {used}",
                    "gives {faces} dice, {what} rolled {used}",
                    len(self.faces),
                ).format(faces=len(self.faces), what=self.what, used=self.used),
            )


# long: 5.3-5.6 in the order of play: dice, losses, removal, the 5.5 tests, push-up; each a few lines.
def apply_melee(
    pos: Position,
    attacker: str,
    defender: str,
    *,
    continuing: bool = False,
    dice: Sequence[int] | None = None,
    seed: int | None = None,
    pursue: bool = False,
) -> Applied:
    """5.3-5.6 — one melee exchange resolved with dice, given in the order they are rolled
    (a panicking defender's strike-back test, 6.6; each side's dice group by group, each
    followed by its remainder roll, 1.5.1; then the morale tests of 5.5 in their order), or
    rolled from ``seed``. Figures are removed in the order of 5.4 (those touching most enemies
    first); states are set (5.5: repulsed ends normal, 6.5.3; panic; uncontrolled pursuit of the
    enemy, 6.7); both standing stay engaged (5.5.7), except a defender whose every figure holds an
    advantageous position, which does not count as engaged (5.7.3). ``pursue``: the side whose
    opponent is repulsed or panics chooses pursuit without its test (6.3.6, 5.5.8). The push-up of 5.6 and the retreat and
    flight moves are the players' next moves: the ruling lists who pushes up. A unit whose last
    figure is removed leaves the table (PD-18)."""

    if dice is None and seed is None:
        raise InvalidArgumentError(
            "dice", _("missing: give the melee's dice in the order rolled, or a seed to roll them")
        )
    sc = pos.scenario
    for role, ident in (("attacker", attacker), ("defender", defender)):
        if ident not in {u.id for u in sc.units}:
            raise InvalidArgumentError(role, _("{ident!r}: no such unit in the scenario").format(ident=ident))
    ua, ud = sc.unit(attacker), sc.unit(defender)
    check_may_act(sc, ua, "fight", after=UnitAction.CHARGE)  # 2.3 V: a charge, then its melee
    m = table_melee(Battlefield(sc), attacker, defender, continuing=continuing)
    assert m.sides is not None
    rng: random.Random = (
        _ScriptedDice("dice", dice, _("the melee")) if dice is not None else random.Random(seed)
    )
    # 6.3.6, 5.5.8: with ``pursue`` the side that beats its opponent chooses pursuit, no roll
    chosen = frozenset(("attacker", "defender")) if pursue else frozenset()
    roll = roll_melee(
        m.sides[0],
        m.sides[1],
        rng,
        first_strike=m.first_strike,
        die=sc.settings.remainder_die,
        chosen_pursuit=chosen,
    )
    a_out, d_out = roll.outcome
    changes: list[Change] = [
        {"op": "set", "unit": attacker, "field": "acted", "value": UnitAction.MELEE.value}
    ]
    notes: list[str] = []
    removed: dict[str, list[str]] = {}
    sides: tuple[tuple[Unit, Side, Removed, MeleeOutcome, Unit], ...] = (
        (ua, "attacker", roll.gone[0], a_out, ud),
        (ud, "defender", roll.gone[1], d_out, ua),
    )
    for unit, side, lost, out, enemy in sides:
        gone_ids = list(m.removed_bases(side, lost))
        removed[side] = gone_ids
        if out.value == "destroyed":
            changes.append({"op": "drop", "unit": unit.id})
            changes += _forget(sc, unit.id)
            notes.append(_("{unit} is destroyed and leaves the table (PD-18)").format(unit=unit.id))
            continue
        if unit.stood:  # 4.12.6: attacked in melee, its fire at the first charger is gone
            changes.append({"op": "set", "unit": unit.id, "field": "stood", "value": None})
        changes += _removal_changes(unit, gone_ids)
        holds = side == "defender" and m.all_defenders_advantaged
        changes += _melee_state(unit, out, [enemy.id], [enemy.id], enemy.id, pursue, holds, notes)
        if side == "defender":  # the attacker's action is the melee already
            changes += _repulsed_pursuer_rests(sc, unit, out)
    push = []
    if a_out.value == "engaged" and d_out.value == "engaged":
        steps = m.push_up(*roll.gone)
        push = [
            {"side": p.side, "count": p.count, "candidates": list(p.candidates), "max_cm": p.max_cm}
            for p in steps
        ]
        if steps:
            notes.append(
                _("both stood: push up (5.6, move --push-up) — {who}").format(
                    who="; ".join(f"{term(p.side)} {p.count} ({', '.join(p.candidates)})" for p in steps)
                )
            )
    # 6.6.2, 6.7.1 ("natychmiast"): a unit that panicked flees at once, then one that fell into
    # pursuit moves at once after the enemy it pursues (6.7.6: after the fleeing unit first);
    # their dice follow the melee's; a unit fled through may panic and flee in turn (6.4.3)
    after: list[dict[str, Any]] = []
    flights = _Flights(pos, rng, changes, notes, after)
    for unit, out in ((ua, a_out), (ud, d_out)):
        if (
            out.value == "panic" and unit.state is not UnitState.PANIC
        ):  # 6.6.5: one already fleeing flees on later
            flights.flee_now(unit.id, unit.side)
    flights.chain()
    for unit, out in ((ua, a_out), (ud, d_out)):
        if out.value == "pursuit":
            now, report, _mods = flights.now(unit.side)
            if unit.id in {u.id for u in report.units}:
                changes.extend(
                    _pursuit_move(
                        report.unit(unit.id), now.unit(unit.id), now, rng, after, notes, immediate=True
                    )
                )
    if isinstance(rng, _ScriptedDice):
        rng.check_all_used()
    inputs: dict[str, Any] = {"attacker": attacker, "defender": defender}
    if continuing:
        inputs["continuing"] = True
    if pursue:
        inputs["pursue"] = True
    dice_json: dict[str, Any] = {
        "strikes": [
            {
                "side": side,
                "dice": g.dice,
                "skill": g.at_most,
                "target_bonus": g.target_bonus,
                "faces": list(g.faces),
                "scored": g.scored,
                "removed": r.removed,
                "remainder_faces": list(r.faces),
                **({"fight": g.part + 1} if m.fights > 1 else {}),  # 5.7.2: fights counted from 1
            }
            for side, g, r in roll.strikes
        ],
        "tests": [
            {"test": t.kind, "face": t.face, "target": t.target, "passed": t.passed} for t in roll.tests
        ],
    }
    if roll.strike_back_test is not None:
        t = roll.strike_back_test
        dice_json["strike_back"] = {"face": t.face, "target": t.target, "passed": t.passed}
    if after:  # the flights and pursuits made at once
        dice_json["after"] = after
    if seed is not None:
        dice_json["seed"] = seed
    ruling = {
        "removed": removed,
        "outcome": {"attacker": a_out.value, "defender": d_out.value},
        "push_up": push,
    }
    return _finish(pos, "melee", inputs, dice_json, ruling, changes, notes, (m, roll))


# long: 5.10 in the order of play: units checked, the dice (5.10.3-5.10.5), each unit's removal and state, the flights and pursuits at once.
def apply_combined_melee(
    pos: Position,
    attackers: Sequence[str],
    defenders: Sequence[str],
    *,
    continuing: bool = False,
    declare_defence: bool = False,
    dice: Sequence[int] | None = None,
    seed: int | None = None,
    pursue: bool = False,
) -> Applied:
    """5.10, 5.7.4 — a combined melee of several units on a side resolved with dice, given in the
    order they are rolled (each panicking unit's strike-back test, 6.6; the side striking first,
    then the other, struck unit by struck unit, each group of 5.10.3 followed by its remainder
    roll, 1.5.1, 5.10.4; then the morale tests in the order of 5.10.5), or rolled from ``seed``
    (:func:`szwadron.odds.joint.roll_combined`, the exact odds' procedure). Each unit loses the
    figures of its removal order (5.4), its state is set (engaged with the opponents that stand
    too, 5.5.7; repulsed, 6.5.3; panic, fleeing at once, 6.6.2; uncontrolled pursuit of an
    opponent that fled, moving at once, 6.7.1); each attacker's action is the melee (2.3).
    Pushing up is done separately, pair by pair (5.10, 5.6)."""
    if dice is None and seed is None:
        raise InvalidArgumentError(
            "dice", _("missing: give the melee's dice in the order rolled, or a seed to roll them")
        )
    sc = pos.scenario
    for role, idents in (("attacker", attackers), ("defender", defenders)):
        for ident in idents:
            if ident not in {u.id for u in sc.units}:
                raise InvalidArgumentError(
                    role, _("{ident!r}: no such unit in the scenario").format(ident=ident)
                )
    for a in attackers:
        check_may_act(sc, sc.unit(a), "fight", after=UnitAction.CHARGE)  # 2.3 V: a charge, then its melee
    m = combined_melee(
        Battlefield(sc), attackers, defenders, continuing=continuing, declare_defence=declare_defence
    )
    assert m.engine is not None
    names = m.units
    at = {u: k for k, u in enumerate(names)}
    opp = [frozenset(at[v] for v in m.opponents[u]) for u in names]
    rng: random.Random = (
        _ScriptedDice("dice", dice, _("the melee")) if dice is not None else random.Random(seed)
    )
    roll = roll_combined(m.engine, opp, rng, swap=m.declared_defence, chosen_pursuit=pursue)
    changes: list[Change] = [
        {"op": "set", "unit": a, "field": "acted", "value": UnitAction.MELEE.value} for a in attackers
    ]
    notes: list[str] = []
    removed: dict[str, list[str]] = {}
    fled = (MeleeOutcome.REPULSED, MeleeOutcome.PANIC)
    for k, u in enumerate(names):
        unit, out = sc.unit(u), roll.outcomes[k]
        removed[u] = list(m.removed_bases(u, roll.gone[k]))
        if out is MeleeOutcome.DESTROYED:
            changes += [{"op": "drop", "unit": u}, *_forget(sc, u)]
            notes.append(_("{unit} is destroyed and leaves the table (PD-18)").format(unit=u))
            continue
        if unit.stood:  # 4.12.6: attacked in melee, its fire at the first charger is gone
            changes.append({"op": "set", "unit": u, "field": "stood", "value": None})
        changes += _removal_changes(unit, removed[u])
        holds = m.holds_terrain(u)  # 5.7.3: not engaged
        stay = [names[v] for v in sorted(opp[k]) if roll.outcomes[v] is MeleeOutcome.ENGAGED]
        pursued = next((names[v] for v in sorted(opp[k]) if roll.outcomes[v] in fled), None)
        changes += _melee_state(unit, out, m.opponents[u], stay, pursued, pursue, holds, notes)
        if u not in attackers:  # an attacker's action is the melee already
            changes += _repulsed_pursuer_rests(sc, unit, out)
    pairs = sorted(
        {
            (a, d)
            for a in attackers
            for d in m.opponents[a]
            if roll.outcomes[at[a]] is MeleeOutcome.ENGAGED and roll.outcomes[at[d]] is MeleeOutcome.ENGAGED
        }
    )
    if pairs:
        notes.append(
            _("both stood: push up pair by pair (5.10, 5.6, move --push-up) — {pairs}").format(
                pairs=", ".join(f"{a}/{d}" for a, d in pairs)
            )
        )
    after: list[dict[str, Any]] = []  # 6.6.2, 6.7.1: the flights, then the pursuits, at once
    flights = _Flights(pos, rng, changes, notes, after)
    for k, u in enumerate(names):
        if roll.outcomes[k] is MeleeOutcome.PANIC and sc.unit(u).state is not UnitState.PANIC:  # 6.6.5
            flights.flee_now(u, sc.unit(u).side)
    flights.chain()
    for k, u in enumerate(names):
        if roll.outcomes[k] is MeleeOutcome.PURSUIT:
            now, report, _mods = flights.now(sc.unit(u).side)
            if u in {x.id for x in report.units}:
                changes.extend(
                    _pursuit_move(report.unit(u), now.unit(u), now, rng, after, notes, immediate=True)
                )
    if isinstance(rng, _ScriptedDice):
        rng.check_all_used()
    inputs: dict[str, Any] = {"attackers": list(attackers), "defenders": list(defenders)}
    if continuing:
        inputs["continuing"] = True
    if declare_defence:
        inputs["declare_defence"] = True
    if pursue:
        inputs["pursue"] = True
    dice_json = _combined_dice(roll, names, after, seed, pairwise=m.pairwise_first_strike)
    ruling = {
        "removed": removed,
        "outcomes": {u: roll.outcomes[k].value for k, u in enumerate(names)},
        "push_up": [list(p) for p in pairs],
    }
    return _finish(pos, "melee", inputs, dice_json, ruling, changes, notes, (m, roll))


def _removal_changes(unit: Unit, gone_ids: Sequence[str]) -> list[Change]:
    """5.4 — the figures removed from a unit (its bases written out first when given as a
    formation; its starting strength kept, 6.2)."""
    if not gone_ids:
        return []
    changes = [
        *_expand_if_formation(unit),
        {"op": "remove", "unit": unit.id, "bases": sorted(int(b.rpartition("/")[2]) for b in gone_ids)},
    ]
    if unit.initial_strength is None:
        changes.append({"op": "set", "unit": unit.id, "field": "initial_strength", "value": unit.strength})
    return changes


def _combined_dice(
    roll: CombinedRoll, names: Sequence[str], after: list[dict[str, Any]], seed: int | None, *, pairwise: bool
) -> dict[str, Any]:
    """A combined melee's dice in the game log: strike-back tests, groups, tests, what followed;
    with first strike pair by pair (7.7), the first step's groups say ``first`` (one whole side
    striking first is logged as it always was)."""
    split = any(s.roll.part for s in roll.strikes)  # 5.7.2: several fights
    out: dict[str, Any] = {
        "strikes": [
            {
                "side": "attacker" if s.side == 0 else "defender",
                "target": names[s.target],
                "dice": s.roll.dice,
                "skill": s.roll.at_most,
                "target_bonus": s.roll.target_bonus,
                "faces": list(s.roll.faces),
                "scored": s.roll.scored,
                "removed": s.removal.removed,
                "remainder_faces": list(s.removal.faces),
                **({"fight": s.roll.part + 1} if split else {}),  # 5.7.2: fights counted from 1
                **({"first": True} if s.first and pairwise else {}),  # 7.7 pair by pair
            }
            for s in roll.strikes
        ],
        "tests": [
            {"unit": names[u], "test": t.kind, "face": t.face, "target": t.target, "passed": t.passed}
            for u, t in roll.tests
        ],
    }
    if roll.strike_back:
        out["strike_back"] = [
            {"unit": names[u], "face": t.face, "target": t.target, "passed": t.passed}
            for u, t in roll.strike_back
        ]
    if after:
        out["after"] = after
    if seed is not None:
        out["seed"] = seed
    return out


def _repulsed_pursuer(unit: str) -> str:
    """6.7.9 — "Oddział ruch odrzucenia wykonuje tak samo, jak ruch zbierania się po odzyskaniu
    kontroli nad oddziałem": a unit repulsed while in uncontrolled pursuit (by fire or in melee)
    makes its repulse move as the move of 6.8.5 — to regain coherency, up to R with terrain,
    into no enemy control zone, charging nobody — and not the full move away of 6.5."""
    return _(
        "{unit} is repulsed while pursuing: its repulse move is made as the move after reorganising (6.7.9, 6.8.5): it regains coherency, up to R with terrain, entering no enemy control zone and charging nobody, not the move away of 6.5"
    ).format(unit=unit)


def _owes_pursuer_repulse(unit: str) -> Change:
    """6.7.9 — the position records that ``unit``, repulsed while pursuing, owes its repulse move
    as the move of 6.8.5 (``repulsed_pursuing``), which :func:`apply_repulse` then makes."""
    return {"op": "set", "unit": unit, "field": "repulsed_pursuing", "value": True}


def _clear_pursuer_repulse(unit: Unit) -> Change:
    """6.7.9 — a new repulse (6.5) or panic (6.6) of a unit still marked as owing a pursuer's
    repulse move clears the mark (an empty change when there is none)."""
    if not unit.repulsed_pursuing:
        return {}
    return {"op": "set", "unit": unit.id, "field": "repulsed_pursuing", "value": None}


def _melee_state(
    unit: Unit,
    out: MeleeOutcome,
    fought: Sequence[str],
    stay: Sequence[str],
    pursued: str | None,
    pursue: bool,
    holds: bool,
    notes: list[str],
) -> list[Change]:
    """5.5, 5.10.5, 6.5-6.7 — a unit's state after a melee against the units ``fought``: engaged
    with those of them that ``stay`` (5.5.7; not when it holds an advantageous position with
    every figure, 5.7.3), panicking, pursuing ``pursued`` (6.7), or repulsed (normal, 6.5.3)."""
    engaged = [e for e in unit.engaged_with if e not in fought]
    state, pursuing = unit.state, unit.pursuing
    owes: list[Change] = []
    if out is MeleeOutcome.ENGAGED and holds:
        notes.append(  # 5.7.3: the attacker stays engaged with it
            _(
                "{unit} holds an advantageous position with every figure: it does not count as engaged (5.7.3)"
            ).format(unit=unit.id)
        )
    elif out is MeleeOutcome.ENGAGED:
        engaged += [e for e in stay if e not in engaged]
    elif out is MeleeOutcome.PANIC and unit.state is UnitState.PANIC:
        notes.append(  # 6.6.5: it keeps fleeing, in its own morale phase, though engaged
            _("{unit} stays in panic: it flees on in its side's morale phase (6.6.5)").format(unit=unit.id)
        )
    elif out is MeleeOutcome.PANIC:
        state, pursuing = UnitState.PANIC, None
        owes = [_clear_pursuer_repulse(unit)]
        notes.append(_("{unit} panics and flees at once (5.5.6, 6.6.2)").format(unit=unit.id))
    elif out is MeleeOutcome.PURSUIT:
        state, pursuing = UnitState.PURSUIT, pursued
        if pursue:  # no test was rolled for it
            notes.append(_("{unit} chooses pursuit without the test (6.3.6)").format(unit=unit.id))
        notes.append(
            _("{unit} falls into pursuit of {enemy} and moves at once (6.7.1)").format(
                unit=unit.id, enemy=pursued
            )
        )
    elif out is MeleeOutcome.REPULSED and unit.state is UnitState.PURSUIT:
        state, pursuing = UnitState.NORMAL, None
        owes = [_owes_pursuer_repulse(unit.id)]
        notes.append(_repulsed_pursuer(unit.id))
    elif out is MeleeOutcome.REPULSED:
        state, pursuing = UnitState.NORMAL, None
        owes = [_clear_pursuer_repulse(unit)]
        notes.append(
            _("{unit} is repulsed: it moves away from the enemy (5.5.6, 6.5) as its next move").format(
                unit=unit.id
            )
        )
    changes: list[Change] = []
    if engaged != list(unit.engaged_with):
        changes.append({"op": "set", "unit": unit.id, "field": "engaged_with", "value": engaged or None})
    if state is not unit.state:
        changes.append({"op": "set", "unit": unit.id, "field": "state", "value": state.value})
    if pursuing != unit.pursuing:
        changes.append({"op": "set", "unit": unit.id, "field": "pursuing", "value": pursuing})
    return changes + [c for c in owes if c]


def _repulsed_pursuer_rests(sc: Scenario, unit: Unit, out: MeleeOutcome) -> list[Change]:
    """6.7.9 — "Jeżeli oddział został odrzucony we własnej fazie morale, nie może wykonywać żadnej
    akcji w fazie ruchu tej samej tury": a pursuing unit repulsed in its own side's morale phase
    (a defender there, struck by an enemy pursuer, 2.2.1 V) takes no action in that movement
    phase. It fought the melee of that phase, so its ``acted`` is the melee (2.3), which the
    end of its movement phase forgets, as any unit's action. (A pursuing attacker has it already.)"""
    turn = sc.turn
    if (
        out is MeleeOutcome.REPULSED
        and unit.state is UnitState.PURSUIT
        and turn is not None
        and turn.phase is Phase.MORALE
        and turn.side == unit.side
        and unit.acted is None
    ):
        return [{"op": "set", "unit": unit.id, "field": "acted", "value": UnitAction.MELEE.value}]
    return []


def apply_repulse(pos: Position, unit: str, enemy: str) -> Applied:
    """6.5, 4.8.2, 5.5.6 — a repulsed unit's move, made at once as the result of a fire or a melee
    (not an action of its own: no turn or action is checked): the full move directly away from
    ``enemy`` in formation, round what bars it, out of its field of fire where a legal move gets
    there (:func:`szwadron.table.movement.repulse`); it ends normal (6.5.3) and no longer engaged
    with ``enemy``. When no legal move is left it panics instead (6.5.5), where it stands. A unit
    the position marks ``repulsed_pursuing`` (repulsed while pursuing, 6.7.9) makes 6.8.5's move
    instead (:func:`_apply_pursuer_repulse`)."""
    sc = pos.scenario
    for role, ident in (("unit", unit), ("enemy", enemy)):
        if ident not in {u.id for u in sc.units}:
            raise InvalidArgumentError(role, _("{ident!r}: no such unit in the scenario").format(ident=ident))
    moving = sc.unit(unit)
    if moving.side == sc.unit(enemy).side:
        raise InvalidArgumentError(
            "enemy",
            _("{enemy} is on {unit}'s side; name the enemy unit that repulsed it").format(
                enemy=enemy, unit=unit
            ),
        )
    if moving.repulsed_pursuing and moving.state is UnitState.NORMAL:
        return _apply_pursuer_repulse(pos, moving, enemy)
    r = repulse(Battlefield(sc), unit, enemy)
    changes: list[Change] = []
    notes: list[str] = []
    if r.blocked or r.report is None:
        changes.append({"op": "set", "unit": unit, "field": "state", "value": UnitState.PANIC.value})
        notes.append(_("{unit} cannot make its repulse move and panics (6.5.5)").format(unit=unit))
    else:
        poses = []
        for b in r.report.bases:
            k = int(b.base.rpartition("/")[2])
            x, y, facing = b.poses[-1]
            poses.append([k, round(float(x), 6), round(float(y), 6), float(facing)])
        changes += _expand_if_formation(moving)
        changes.append({"op": "move", "unit": unit, "poses": poses})
        if enemy in moving.engaged_with:
            rest = [e for e in moving.engaged_with if e != enemy]
            changes.append({"op": "set", "unit": unit, "field": "engaged_with", "value": rest or None})
        notes.append(
            _("{unit} is repulsed {cm:.2f} cm away from {enemy} (6.5)").format(
                unit=unit, cm=r.distance, enemy=enemy
            )
        )
    ruling = {
        "blocked": r.blocked,
        "distance": round(r.distance, 6),
        "direction": [round(r.direction[0], 9), round(r.direction[1], 9)],
        "out_of_fire": r.out_of_fire,
    }
    return _finish(pos, "repulse", {"unit": unit, "enemy": enemy}, {}, ruling, changes, notes, r)


def _apply_pursuer_repulse(pos: Position, moving: Unit, enemy: str) -> Applied:
    """6.7.9 — "Oddział ruch odrzucenia wykonuje tak samo, jak ruch zbierania się po odzyskaniu
    kontroli nad oddziałem": the repulse move of a unit repulsed while pursuing
    (``repulsed_pursuing``) is 6.8.5's, made at once whoever's turn it is (a result, not an
    action: ``acted`` is left as it is): it closes up to regain coherency, up to R with terrain,
    into no enemy control zone, charging nobody (:func:`szwadron.table.movement.reform`); a
    coherent unit stays where it stands. The record is then cleared. No legal such move: refused
    (:class:`IllegalActionError`), nothing written — 6.5.5's panic is for 6.5's move."""
    unit = moving.id
    r = reform(Battlefield(pos.scenario), unit)
    changes: list[Change] = []
    if r.needed:
        if not r.legal or r.move is None or r.report is None:
            rule = r.report.rule if r.report is not None and r.report.rule else "6.8.5"
            message = r.report.message if r.report is not None else _("no legal move makes it coherent")
            raise IllegalActionError(str(rule), message)
        poses = [[int(p["index"]), float(p["x"]), float(p["y"]), float(p["facing"])] for p in r.move["bases"]]
        changes += _expand_if_formation(moving)
        changes.append({"op": "move", "unit": unit, "poses": poses})
        notes = [
            _(
                "{unit}, repulsed while pursuing, closes up to regain coherency: its repulse move is the move after reorganising (6.7.9, 6.8.5)"
            ).format(unit=unit)
        ]
    else:
        notes = [
            _(
                "{unit}, repulsed while pursuing, is coherent: its repulse move, the move after reorganising (6.7.9, 6.8.5), leaves it where it stands"
            ).format(unit=unit)
        ]
    changes.append({"op": "set", "unit": unit, "field": "repulsed_pursuing", "value": None})
    ruling = {"reform": True, "needed": r.needed, "groups": [list(g) for g in r.groups]}
    return _finish(pos, "repulse", {"unit": unit, "enemy": enemy}, {}, ruling, changes, notes, r.report)


def check_push_up(scenario: Scenario, unit: str, enemy: str) -> None:
    """5.6.1 — may ``unit`` push up towards ``enemy`` at all: both known units, enemies, and
    engaged (recorded either way, or touching: a push-up follows a melee in which both stood), as
    :func:`~szwadron.table.movement.check_move` with ``push_up`` rules it. Raises
    :class:`InvalidArgumentError` (bad names) or :class:`IllegalActionError` (5.6.1), for a front
    end that refuses before it checks the move (the browser table)."""
    ids = {u.id for u in scenario.units}
    if unit not in ids:
        raise InvalidArgumentError("unit", _("{ident!r}: no such unit in the scenario").format(ident=unit))
    if enemy not in ids:
        raise InvalidArgumentError(
            "push_up", _("{ident!r}: no such unit in the scenario").format(ident=enemy)
        )
    mover, fought = scenario.unit(unit), scenario.unit(enemy)
    if mover.side == fought.side:
        raise InvalidArgumentError(
            "push_up", _("{enemy}: a unit pushes up towards the enemy unit it fought").format(enemy=enemy)
        )
    if not engaged_or_recorded(Battlefield(scenario), unit, enemy):  # 5.6.1
        raise IllegalActionError(
            "5.6.1",
            _("{unit} is not engaged with {enemy}: a push-up follows a melee in which both stood").format(
                unit=unit, enemy=enemy
            ),
        )


def apply_push_up(
    pos: Position, unit: str, enemy: str, move: MoveFile | Mapping[str, Any], *, source: str = "move"
) -> Applied:
    """5.6 — a push-up after a melee in which both sides stood (5.6.1: they stay engaged): the
    figures of ``unit`` not engaged move at most 4 cm whatever the terrain towards ``enemy``
    (:func:`~szwadron.table.movement.check_move` with ``push_up``); part of the melee, not an
    action (no turn or action is checked, ``acted`` is left alone). The stages and the attacker's
    count in the first one (5.6.3-5.6.5) are the players' to keep: ``melee --apply`` lists them,
    a position does not record the last melee's losses."""
    sc = pos.scenario  # the unit, the enemy and 5.6.1 are checked by check_move (push_up=)
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    report = check_move(Battlefield(sc), unit, move, push_up=enemy, source=source)
    if not report.legal:
        raise IllegalActionError(str(report.rule), report.message)
    poses = [[p.index, p.x, p.y, p.facing] for p in move.bases if (p.unit or unit) == unit]
    changes: list[Change] = [
        *_expand_if_formation(sc.unit(unit)),
        {"op": "move", "unit": unit, "poses": poses},
    ]
    ruling = {
        "legal": True,
        "distances": {b.base: round(b.distance, 6) for b in report.bases},
        "contacts": list(report.contacts),
    }
    inputs = {"unit": unit, "enemy": enemy, "move": move.model_dump(mode="json", exclude_none=True)}
    return _finish(pos, "push_up", inputs, {}, ruling, changes, report.notes, report)


# long: 5.8 in the order of play: the test, the enemies' pursuit tests, the move or the flight, the pursuits.
def apply_disengage(
    pos: Position,
    unit: str,
    move: MoveFile | Mapping[str, Any] | None = None,
    *,
    dice: Sequence[int] | None = None,
    seed: int | None = None,
    source: str = "move",
    pursue: bool = False,
) -> Applied:
    """5.8, 6.4.1, 6.4.2, 7.6 — an engaged unit disengages instead of fighting, its action in its
    movement phase (2.3): the disengagement is checked first (:func:`szwadron.table.disengage.disengage`:
    engaged, normal, a legal move away that ends out of contact; refused before any die), then the
    dice, given in the order they are rolled or rolled from ``seed``: its test (none with automatic
    disengage, 7.6.1), then each engaged enemy's test for uncontrolled pursuit, in file order
    (5.8.4: whatever the result; none for a panicking or pursuing enemy, nor for artillery, 6.7.1),
    then, when it failed, its flight at once (5.8.3, 6.6.2: 2d6, and the tests of the own units it
    passes through), then each new pursuer's move at once (6.7.1, after the flight, 6.7.6).
    Passed, the unit makes ``move`` (None: the move found away from the enemies). Either
    way it leaves the melee: no enemy stays engaged with it."""
    if dice is None and seed is None:
        raise InvalidArgumentError(
            "dice", _("missing: give the disengagement's dice in the order rolled, or a seed to roll them")
        )
    sc = pos.scenario
    if unit not in {u.id for u in sc.units}:
        disengage(Battlefield(sc), unit)  # the question's message: unknown, or a base named
    leaving = sc.unit(unit)
    check_may_act(sc, leaving, "disengage")  # its own movement phase, normal, not acted (2.3, 6.1)
    r = disengage(Battlefield(sc), unit, move, source=source)
    if not r.legal:
        raise IllegalActionError(str(r.rule), r.message)
    rng: random.Random = (
        _ScriptedDice("dice", dice, _("the disengagement")) if dice is not None else random.Random(seed)
    )
    changes: list[Change] = [
        {"op": "set", "unit": unit, "field": "acted", "value": UnitAction.DISENGAGE.value}
    ]
    notes: list[str] = []
    rolls: list[dict[str, Any]] = []
    if r.automatic:  # 7.6.1
        passed = True
        rolls.append({"unit": unit, "test": "break_off", "automatic": True, "passed": True})
    else:
        face = rng.randint(1, 6)
        passed = face <= r.target
        rolls.append({"unit": unit, "test": "break_off", "face": face, "target": r.target, "passed": passed})
    pursuers: list[str] = []
    for p in r.pursuers:  # 5.8.4: whatever the result
        if p.branch != "test" or p.target is None:
            continue
        if pursue:  # 6.3.6: the enemy's player skips the roll and chooses pursuit
            pursuers.append(p.unit)
            notes.append(_("{unit} chooses pursuit without the test (6.3.6)").format(unit=p.unit))
            continue
        face = rng.randint(1, 6)
        rolls.append(
            {
                "unit": p.unit,
                "test": "uncontrolled pursuit",
                "face": face,
                "target": p.target,
                "passed": face <= p.target,
            }
        )
        if face > p.target:
            pursuers.append(p.unit)
    # it leaves the melee: no engagement on either side (a pursuer may come back into contact)
    if leaving.engaged_with:
        changes.append({"op": "set", "unit": unit, "field": "engaged_with", "value": None})
    for e in r.enemies:
        rest = [x for x in sc.unit(e).engaged_with if x != unit]
        if rest != list(sc.unit(e).engaged_with):
            changes.append({"op": "set", "unit": e, "field": "engaged_with", "value": rest or None})
    if passed:
        assert r.move is not None
        poses = []
        for b in r.move.bases:
            x, y, facing = b.poses[-1]
            poses.append(
                [int(b.base.rpartition("/")[2]), round(float(x), 6), round(float(y), 6), float(facing)]
            )
        changes += _expand_if_formation(leaving)
        if poses:
            changes.append({"op": "move", "unit": unit, "poses": poses})
        if (
            poses
            and leaving.prepared
            and any(leaving.base_profile(i).has("heavy") for i in range(leaving.strength))
        ):
            changes.append({"op": "set", "unit": unit, "field": "prepared", "value": False})  # 7.3
        notes.append(
            _("{unit} disengages from {enemies} (5.8.2)").format(unit=unit, enemies=", ".join(r.enemies))
        )
    else:
        changes.append({"op": "set", "unit": unit, "field": "state", "value": UnitState.PANIC.value})
        notes.append(
            _("{unit} fails to disengage: it panics and flees at once (5.8.3, 6.6.2)").format(unit=unit)
        )
    for e in pursuers:
        changes.append({"op": "set", "unit": e, "field": "state", "value": UnitState.PURSUIT.value})
        changes.append({"op": "set", "unit": e, "field": "pursuing", "value": unit})
        notes.append(
            _("{unit} falls into pursuit of {enemy} and moves at once (5.8.4, 6.7.1)").format(
                unit=e, enemy=unit
            )
        )
    flights = _Flights(pos, rng, changes, notes, rolls)
    if not passed:
        flights.flee_now(unit, leaving.side)
        flights.chain()
    for e in pursuers:
        now, report, _mods = flights.now(sc.unit(e).side)
        if e in {u.id for u in report.units}:  # its target gone off the table: 6.7.10
            changes.extend(_pursuit_move(report.unit(e), now.unit(e), now, rng, rolls, notes, immediate=True))
    if isinstance(rng, _ScriptedDice):
        rng.check_all_used()
    inputs: dict[str, Any] = {"unit": unit}
    if pursue:
        inputs["pursue"] = True
    if move is not None:
        inputs["move"] = (
            move.model_dump(mode="json", exclude_none=True) if isinstance(move, MoveFile) else dict(move)
        )
    dice_json: dict[str, Any] = {"rolls": rolls}
    if seed is not None:
        dice_json["seed"] = seed
    ruling = {
        "enemies": list(r.enemies),
        "passed": passed,
        "pursuers": pursuers,
        "distances": {}
        if r.move is None or not passed
        else {b.base: round(b.distance, 6) for b in r.move.bases},
    }
    return _finish(pos, "disengage", inputs, dice_json, ruling, changes, notes, r)


# --- the morale phase -----------------------------------------------------------------------------


def _pursuit_note(
    unit: str, enemy: str, dist: float, touching: bool, immediate: bool, went_round: bool = False
) -> str:
    """6.7.1, 6.7.3, 6.7.4 — what a pursuit move did. One made at once after a melee or a
    disengagement that reaches its target fights it in the next morale phase (6.7.1: "nie
    rozgrywa się jej w tym momencie"); one made in a morale phase, in that phase (6.7.3).
    ``went_round``: some figure took the way round an own unit or closed ground (3.1.3)."""
    if went_round:
        if not touching:
            text = _(
                "{unit} pursues {enemy} {cm:g} cm round own units or closed ground (3.1.3) and does not "
                "reach it (6.7.4)"
            )
        elif immediate:
            text = _(
                "{unit} pursues {enemy} {cm:g} cm round own units or closed ground (3.1.3) and reaches it: "
                "the melee (6.7.3) is fought in the next morale phase"
            )
        else:
            text = _(
                "{unit} pursues {enemy} {cm:g} cm round own units or closed ground (3.1.3) and reaches it: "
                "the melee (6.7.3) is fought in this phase"
            )
        return text.format(unit=unit, enemy=enemy, cm=dist)
    if not touching:
        return _("{unit} pursues {enemy} {cm:g} cm and does not reach it (6.7.4)").format(
            unit=unit, enemy=enemy, cm=dist
        )
    if immediate:
        return _(
            "{unit} pursues {enemy} {cm:g} cm and reaches it: the melee (6.7.3) is fought in the next morale phase"
        ).format(unit=unit, enemy=enemy, cm=dist)
    return _(
        "{unit} pursues {enemy} {cm:g} cm and reaches it: the melee (6.7.3) is fought in this phase"
    ).format(unit=unit, enemy=enemy, cm=dist)


def _pursuit_move(
    um: Any,
    unit: Unit,
    scen: Scenario,
    rng: random.Random,
    rolls: list[dict[str, Any]],
    notes: list[str],
    *,
    immediate: bool = False,
) -> list[Change]:
    """6.7.1, 6.7.4, 6.7.5, 6.8.1 III — a pursuing unit's move in its morale phase (or at once,
    ``immediate``, after the melee or disengagement that started it): 2d6 × 2 (infantry) or × 4
    (cavalry) cm, each figure straight into contact with the nearest figure of the pursued unit,
    "najkrótszą drogą"; it stops at an enemy figure (6.7.5; the melee: ``melee --apply``, 6.7.3),
    passes through and ends on no own figure (3.1.3) and enters no ground closed to it (3.2.4,
    3.2.5): where those bar the straight way it takes the shortest way round them
    (:func:`~szwadron.table.pursuit.pursuit_plan`, 6.7.4). Facing kept; the roll pays the terrain
    surcharges on its way, and a figure goes into rough ground or onto a hill with its whole base
    or stops before it (3.2, :meth:`~szwadron.table.pursuit.PursuitPlan.step`), also where the ranks
    close up. Returns the changes."""
    p = um.pursuit
    if p is None or p.target is None or p.distance is None:
        notes.append(_("{unit} has no enemy to pursue (6.7.10)").format(unit=um.id))
        return []
    pips = [rng.randint(1, 6), rng.randint(1, 6)]
    per_pip = min(p.distance.outcomes()) // 2  # 2d6 × 2 or × 4 (pursuit_distribution)
    dist = float(sum(pips) * per_pip)
    target = scen.unit(p.target)
    plan = pursuit_plan(unit, scen, target)  # the ways the phase's odds read too
    ways = plan.ways
    ends = plan.close_up(dist)  # 3.1.3: the ranks close up, as the odds read them (PursuitPlan.reaches)
    poses = [[k, round(x, 6), round(y, 6), unit.bases[k].facing] for k, (x, y) in ends]
    # PD-14: along at least 1 cm of edge in all, as a melee needs (across a fence too, PD-4)
    touching = plan.touching(ends)
    roll: dict[str, Any] = {
        "unit": um.id,
        "test": "pursuit",
        "faces": pips,
        "cm": dist,
        "contact": bool(touching),
    }
    if ways:  # 3.1.3, 6.7.4: the figures that went round an own unit or closed ground
        roll["round"] = sorted(ways)
    rolls.append(roll)
    notes.append(_pursuit_note(um.id, p.target, dist, touching, immediate, bool(ways)))
    out: list[Change] = [*_expand_if_formation(unit), {"op": "move", "unit": um.id, "poses": poses}]
    if unit.pursuing != target.id:  # 6.7.10: after the one it pursued is gone, the next nearest
        out.append({"op": "set", "unit": um.id, "field": "pursuing", "value": target.id})
    if touching and target.state is UnitState.NORMAL:  # 5.1.2: in contact, the two are engaged
        out += _engage(unit, target)
    return out


def _engage(a: Unit, b: Unit) -> list[Change]:
    """5.1.2 — the two units recorded as engaged with each other (``engaged_with``), where not yet."""
    return [
        {"op": "set", "unit": one.id, "field": "engaged_with", "value": [*one.engaged_with, other.id]}
        for one, other in ((a, b), (b, a))
        if other.id not in one.engaged_with
    ]


@dataclass
class _Flights:
    """The flights of one applied action (6.6; a morale phase, 2.2.1 IV, or a melee's loser at
    once, 6.6.2) and the pursuits that follow them: the dice they roll and what they write."""

    pos: Position
    rng: random.Random
    changes: list[Change]
    notes: list[str]
    rolls: list[dict[str, Any]]
    panicked: set[str] = field(default_factory=set)
    """Units panicked by being fled through (6.4.3): they flee in their turn (:meth:`chain`)."""

    def now(self, side: str) -> tuple[Scenario, Any, dict[str, int]]:
        """The position with the changes so far, and ``side``'s morale phase on it."""
        sc = self.pos.scenario
        mid = ScenarioDocument(self.pos.text, source=self.pos.source, unit_ids=[u.id for u in sc.units])
        mid.apply(_after_drops(self.changes))
        now = position_from_text(mid.text, self.pos.source, folders=self.pos.folders).scenario
        report = morale_phase(Battlefield(now), side)
        return now, report, {c.id: c.modifier for c in report.casualty_tests}

    def flee_now(self, unit_id: str, side: str) -> None:
        """The flight of ``unit_id`` from the position as it stands (6.6.2: at once)."""
        now, report, mods = self.now(side)
        if unit_id in {u.id for u in now.units} and unit_id in {u.id for u in report.units}:
            self.flee(report.unit(unit_id), now.unit(unit_id), now, mods)

    def chain(self) -> None:
        """2.2.1 IV, 6.6.2 — each unit panicked by being fled through flees at once, in file order,
        from where it stands, and so on for the units its own flight passes through."""
        fled: set[str] = set()
        while self.panicked - fled:
            todo = self.panicked - fled
            order = [u for u in self.pos.scenario.units if u.id in todo]
            for u in order:
                self.flee_now(u.id, u.side)
            fled |= todo

    def flee(self, um: Any, unit: Unit, scen: Scenario, mods: Mapping[str, int]) -> None:
        """6.6.2 — a panicking unit's flight: 2d6 × its multiplier, its figures along the way
        the morale phase plans, off the table or surrendered; the tests of the own units it
        passes through (6.4.3, 6.6.11), each that fails panicking (``panicked``)."""
        if um.flight is None or um.flight.outcomes() == [0]:
            self.notes.append(_("{unit} does not flee (6.6.2: R 0)").format(unit=um.id))
            return
        pips = [self.rng.randint(1, 6), self.rng.randint(1, 6)]
        dist = sum(pips) * um.flight_multiplier
        # 6.6.12, 6.6.13, 3.1.3: the figures removed and where the others end, as the odds read it
        gone, ends = flight_ends(um, unit, scen, float(dist))
        poses = [[k, round(x, 6), round(y, 6), unit.bases[k].facing] for k, (x, y) in ends]
        flight: dict[str, Any] = {
            "unit": um.id,
            "test": "flight",
            "faces": pips,
            "cm": dist,
            "removed": len(gone),
        }
        self.rolls.append(flight)
        if len(gone) == unit.strength:
            self.changes.append({"op": "drop", "unit": um.id})
            self.changes.extend(_forget(scen, um.id))
            self.notes.append(
                _("{unit} flees {cm} cm and leaves the table (6.6)").format(unit=um.id, cm=dist)
            )
            return
        self.changes.extend(_expand_if_formation(unit))
        if poses:
            self.changes.append({"op": "move", "unit": um.id, "poses": poses})
        if gone:
            self.changes.append({"op": "remove", "unit": um.id, "bases": list(gone)})
            if unit.initial_strength is None:
                self.changes.append(
                    {"op": "set", "unit": um.id, "field": "initial_strength", "value": unit.strength}
                )
            self.notes.append(
                ngettext(
                    "{unit}: {n} figure(s) off the table or surrendered (6.6)",
                    "{unit}: {n} figure(s) off the table or surrendered (6.6)",
                    len(gone),
                ).format(unit=um.id, n=len(gone))
            )
        for pt in um.pass_through:
            if dist <= pt.from_cm + 1e-6 or pt.test_pass is None:
                continue
            other = scen.unit(pt.unit)
            target = morale_target(
                other.profile.morale, other.strength, other.starting_strength, mods.get(other.id, 0)
            )
            face = self.rng.randint(1, 6)
            self.rolls.append(
                {
                    "unit": other.id,
                    "test": "passed through",
                    "face": face,
                    "target": target,
                    "passed": face <= target,
                }
            )
            if face > target:
                self.panicked.add(other.id)
                self.changes.append(
                    {"op": "set", "unit": other.id, "field": "state", "value": UnitState.PANIC.value}
                )
                self.notes.append(
                    _("{unit} is fled through by {fleeing} and panics (6.4)").format(
                        unit=other.id, fleeing=um.id
                    )
                )


# long: 6.8 unit by unit in the order of play: reorganise, flee, surrender, units fled through.
def apply_morale(
    pos: Position,
    side: str,
    *,
    dice: Sequence[int] | None = None,
    seed: int | None = None,
) -> Applied:
    """2.2, 6.8 — one side's morale phase resolved with dice, given in the order they are
    rolled, in the order of 2.2.1: every reorganisation test of a unit that may try, in file
    order (6.8.2; II); then, in file order, the flight of each unit still in panic, 2d6, 6.6.2,
    and the test of each own unit it passes through, 6.4.3 (IV); then the flight of each unit
    those tests panicked, and the tests of the units it passes through in turn; then each
    pursuing unit's pursuit move, 2d6, 6.7.1 (6.8.1 III); then the pursuit move of each enemy unit
    pursuing one of this side's units (2.2.1 V) — or rolled from ``seed``.

    A reorganised unit is normal again (its move to regain coherency, 6.8.3, is its next move).
    A fleeing unit's figures move the flight distance towards their own table edge (the Decision
    of :func:`~szwadron.table.morale_phase.flight_direction`): straight where the way is free, else
    along the way round that the morale phase plans (6.6.7-6.6.11), facing unchanged;
    a figure that reaches the edge with distance left is removed, one stopped by enemies and
    impassable terrain with enemies within 10 cm surrenders and is removed (6.6); a unit with
    no figure left leaves the table. An own unit passed through that fails its test panics
    (6.4). A pursuing unit moves at the unit it pursues (:func:`_pursuit_move`), and fights it
    with ``melee --apply`` in this phase when it reaches it (6.7.3).
    """

    if side not in ("A", "B"):
        raise InvalidArgumentError("side", _("{side!r}; expected A or B").format(side=side))
    if dice is None and seed is None:
        raise InvalidArgumentError(
            "dice", _("missing: give the phase's dice in the order rolled, or a seed to roll them")
        )
    sc = pos.scenario
    turn = sc.turn
    if turn is not None and (turn.side != side or turn.phase is not Phase.MORALE):
        raise IllegalActionError(
            "2.2",
            _("it is side {side}'s {value} phase (round {round}), not side {side2}'s morale phase").format(
                side=turn.side, value=term(turn.phase.value), round=turn.round, side2=side
            ),
        )
    if turn is not None and turn.morale_played:  # 2.2: one morale phase a turn
        raise IllegalActionError(
            "2.2",
            _(
                "side {side}'s morale phase of round {round} has been played already; go on to the movement phase (szwadron turn --apply)"
            ).format(side=side, round=turn.round),
        )
    report = morale_phase(Battlefield(sc), side)
    rng: random.Random = (
        _ScriptedDice("dice", dice, _("the morale phase")) if dice is not None else random.Random(seed)
    )
    modifiers = {c.id: c.modifier for c in report.casualty_tests}
    changes: list[Change] = []
    notes: list[str] = []
    rolls: list[dict[str, Any]] = []
    flights = _Flights(pos, rng, changes, notes, rolls)

    # 2.2.1 I-II: every unit that may try reorganises first, in file order
    for um in report.units:
        if not um.may_reorganise:
            continue
        unit = sc.unit(um.id)
        aim = morale_target(
            unit.profile.morale, unit.strength, unit.starting_strength, modifiers.get(um.id, 0)
        )
        face = rng.randint(1, 6)
        ok = face <= aim
        rolls.append({"unit": um.id, "test": "reorganise", "face": face, "target": aim, "passed": ok})
        if ok:
            changes.append({"op": "set", "unit": um.id, "field": "state", "value": None})
            changes.append(
                {"op": "set", "unit": um.id, "field": "acted", "value": UnitAction.REORGANISE.value}
            )
            if unit.pursuing is not None:
                changes.append({"op": "set", "unit": um.id, "field": "pursuing", "value": None})
            notes.append(
                _("{unit} reorganises (6.8): it moves to regain coherency as its next move").format(
                    unit=um.id
                )
            )
    # 2.2.1 IV: the flights of the units still in panic, from the position the reorganisations
    # left (a unit that reorganised stands in normal order and tests when fled through, 6.6.11)
    now, again, mods_now = flights.now(side)
    for um in again.units:
        if now.unit(um.id).state is UnitState.PANIC:
            flights.flee(um, now.unit(um.id), now, mods_now)
    # 2.2.1 IV: "ewentualna ucieczka oddziałów, przez które prowadziła droga ucieczki" — a unit
    # panicked by being fled through flees in this phase too, at once (6.6.2), from where it
    # stands with the fleeing units gone by; its own flight may panic others in turn
    flights.chain()
    # 6.8.1 III: the pursuing units that did not reorganise move (and fight, melee --apply)
    now, again, _mods = flights.now(side)
    for um in again.units:
        if now.unit(um.id).state is UnitState.PURSUIT:
            changes.extend(_pursuit_move(um, now.unit(um.id), now, rng, rolls, notes))
    # 2.2.1 V: "Ruch i walka wręcz wrogich oddziałów ścigających własne oddziały" — the enemy's
    # units pursuing this side's units move too (6.7.3: they fight "w turze przeciwnika")
    other = "B" if side == "A" else "A"
    now, theirs, _mods = flights.now(other)
    own = {u.id for u in now.units if u.side == side}
    for um in theirs.units:
        if um.pursuit is not None and um.pursuit.target in own and now.unit(um.id).state is UnitState.PURSUIT:
            changes.extend(_pursuit_move(um, now.unit(um.id), now, rng, rolls, notes))
    if isinstance(rng, _ScriptedDice):
        rng.check_all_used()
    if turn is not None:  # 2.2: the phase is played; turn --next goes on to the movement phase
        changes.insert(0, {"op": "turn", "value": {"morale_played": True}})
    ruling = {"side": side, "units": [u.id for u in report.units]}
    dice_json: dict[str, Any] = {"rolls": rolls}
    if seed is not None:
        dice_json["seed"] = seed
    return _finish(pos, "morale", {"side": side}, dice_json, ruling, changes, notes, report)


# --- formations ------------------------------------------------------------------------------------


def expand_formations(pos: Position) -> Applied:
    """Issue 17 — every unit given as a ``formation`` written out as its ``bases`` (the
    position does not change: the same bases, in the same order)."""
    changes: list[Change] = []
    for u in pos.scenario.units:
        changes += _expand_if_formation(u)
    ruling = {"expanded": [c["unit"] for c in changes]}
    return _finish(pos, "place", {}, {}, ruling, changes)


# --- the turn -------------------------------------------------------------------------------------


def _stood(unit: Unit) -> bool:
    """4.12.6 — "nie wykonała żadnej akcji w fazie ruchu swojej tury i nie zadeklarowała ostrzału
    w turze przeciwnika": at the end of its side's movement phase, the unit took no action,
    declared none and is in normal morale, not engaged (it may then fire at the first unit that
    charges it in the opponent's turn). A unit that reorganised in the morale phase took none in
    its movement phase (6.8.6) and "od następnej tury działa ona normalnie": it has stood too."""
    return (
        unit.acted in (None, UnitAction.REORGANISE)  # 6.8.6: it takes no action in the movement phase
        and not unit.declared
        and unit.state is UnitState.NORMAL
        and not unit.engaged_with
        and not unit.stood
    )


def apply_next_phase(pos: Position) -> Applied:
    """2, 2.1 — the game moves on: a side's morale phase to its movement phase; its movement
    phase to the other side's morale phase (a new round after both sides). A scenario without
    a ``[turn]`` starts at round 1, side A's morale phase. At the end of a movement phase every
    unit's action is forgotten (2.3) and the side's heavy artillery that took no action has
    prepared its position (7.3); the side's units that took no action and declared none are
    marked ``stood`` (4.12.6: they may fire at the first unit that charges them in the
    opponent's turn), and the other side's marks and declarations of fire (4.12.5) are
    forgotten."""
    sc = pos.scenario
    turn = sc.turn
    changes: list[Change] = []
    stood: list[str] = []
    declared: list[str] = []
    if turn is None:
        nxt = Turn()
    elif turn.phase is Phase.MORALE:
        nxt = turn.model_copy(update={"phase": Phase.MOVEMENT})
    else:
        other = "B" if turn.side == "A" else "A"
        new_round = turn.round + (1 if other == turn.first else 0)
        nxt = turn.model_copy(update={"side": other, "phase": Phase.MORALE, "round": new_round})
        for u in sc.units:
            heavy = any(u.base_profile(i).has("heavy") for i in range(u.strength))
            if u.side == turn.side and heavy and not u.prepared and u.acted is None:
                changes.append({"op": "set", "unit": u.id, "field": "prepared", "value": None})
            if u.acted is not None:
                changes.append({"op": "set", "unit": u.id, "field": "acted", "value": None})
            if u.declared and u.side != turn.side:  # 4.12.5: not fired by the end of this phase, lost
                changes.append({"op": "set", "unit": u.id, "field": "declared", "value": None})
            if u.side != turn.side and u.stood:  # 4.12.6: the opponent's turn it could fire in is over
                changes.append({"op": "set", "unit": u.id, "field": "stood", "value": None})
            elif u.side == turn.side and _stood(u):  # 4.12.6: no action, no declaration
                changes.append({"op": "set", "unit": u.id, "field": "stood", "value": True})
                stood.append(u.id)
            if u.side == turn.side and u.declared:
                declared.append(u.id)
    value: dict[str, Any] = {"round": nxt.round, "side": nxt.side, "phase": nxt.phase.value}
    if nxt.first != "A":
        value["first"] = nxt.first
    # the played morale phase is forgotten with it (None: the key leaves the file)
    forget = {k: None for k in ("morale_played", "phase_ended") if getattr(nxt, k)}
    changes.insert(0, {"op": "turn", "value": {**value, **forget}})
    ruling = {"turn": value}
    notes = []
    if declared:
        notes.append(
            _("fire declared for side {side}'s movement phase (4.12.3, 4.12.5): {units}").format(
                side=nxt.side, units=", ".join(declared)
            )
        )
    if stood:
        notes.append(
            _("may fire at the first unit that charges it (4.12.6): {units}").format(units=", ".join(stood))
        )
    return _finish(pos, "turn", {}, {}, ruling, changes, notes)


__all__ = [
    "Applied",
    "Position",
    "apply_combined_melee",
    "apply_declare",
    "apply_disengage",
    "apply_fire",
    "apply_melee",
    "apply_morale",
    "apply_move",
    "apply_next_phase",
    "apply_push_up",
    "apply_repulse",
    "check_may_act",
    "check_push_up",
    "expand_formations",
    "position_from_text",
    "read_position",
]
