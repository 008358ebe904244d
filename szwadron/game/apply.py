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

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.game.document import Change, ScenarioDocument, base_entry
from szwadron.loading import army_list_search_path, parse_scenario
from szwadron.models import Phase, Scenario, Turn, Unit, UnitAction, UnitState
from szwadron.movefile import MoveFile
from szwadron.odds.combat import COMBAT_DIE_SIDES
from szwadron.odds.morale import morale_target
from szwadron.odds.remainder import die_sides, remainder_roll

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
    """Read a scenario file as a position (its text is kept for writing the next one)."""
    from szwadron.loading import read_toml

    p = Path(path)
    read_toml(p)  # one clear message for a missing, unreadable or malformed file
    text = p.read_bytes().decode("utf-8")
    return position_from_text(text, str(p), folders=tuple(army_list_search_path(p)))


def position_from_text(text: str, source: str, *, folders: Sequence[Path] = ()) -> Position:
    """A position from a scenario's text; profiles are resolved along ``folders``."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidDataError(f"malformed TOML: {exc}", source=source) from None
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
    doc = ScenarioDocument(pos.text, source=pos.source)
    doc.apply(changes)
    return Applied(action, inputs, dice, ruling, changes, doc.text, tuple(notes), report)


# --- the sequence of play -------------------------------------------------------------------------


def check_may_act(scenario: Scenario, unit: Unit, what: str, *, after: UnitAction | None = None) -> None:
    """2.3, 6.1 — may ``unit`` take an action now? ``after`` is the action it may follow (a move
    after fire, 4.9). Raises :class:`IllegalActionError` naming the rule."""
    turn = scenario.turn
    if turn is not None:
        if turn.side != unit.side:
            raise IllegalActionError(
                "2.3", f"{unit.id} is side {unit.side}'s; it is side {turn.side}'s turn (round {turn.round})"
            )
        if turn.phase is not Phase.MOVEMENT:
            raise IllegalActionError(
                "2.2", f"{unit.id} cannot {what} in the morale phase; advance to the movement phase first"
            )
    if unit.state is not UnitState.NORMAL:
        raise IllegalActionError(
            "6.1", f"{unit.id} is in {unit.state.value}: it takes no action in the movement phase"
        )
    if unit.acted is not None and unit.acted is not after:
        raise IllegalActionError(
            "2.3",
            f"{unit.id} has already acted in this movement phase ({unit.acted.value}): one action a phase",
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
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.loading import validate
    from szwadron.table.movement import check_move

    ids = [units] if isinstance(units, str) else list(units)
    if not isinstance(move, MoveFile):
        move = validate(MoveFile, dict(move), source=source)
    sc = pos.scenario
    for u in ids:
        try:
            after = UnitAction.FIRE if after_fire is not None else (UnitAction.MARCH if march else None)
            check_may_act(sc, sc.unit(u), "move", after=after)
        except KeyError:
            raise InvalidDataError(f"--unit {u}: no such unit in the scenario", source=pos.source) from None
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
        acted = UnitAction.MELEE if charge else (UnitAction.MARCH if march else UnitAction.MOVE)
        if after_fire is not None:
            acted = UnitAction.FIRE
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
                raise InvalidDataError(
                    f"{self.name}: {len(self.given)} dice given, but {why} needs another one"
                )
            face = self.given[len(self.used)]
            if not 1 <= face <= sides:
                raise InvalidDataError(
                    f"{self.name}: die {len(self.used) + 1} is {face}, not a face of a d{sides} (1..{sides})"
                )
        self.used.append(face)
        return face

    def check_all_used(self, what: str) -> None:
        if self.given is not None and len(self.used) != len(self.given):
            raise InvalidDataError(f"{self.name}: {len(self.given)} dice given, {what} used {len(self.used)}")


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
) -> Applied:
    """Section 4 — fire resolved with dice: given (``dice`` the volley's d6 in the order of its
    groups, ``remainder_dice`` for the remainder roll of 1.5.1, ``morale_dice`` for the test of
    4.8.1) or rolled from ``seed``. Casualties are removed in the order of 4.7 (4.7.2-4.7.4,
    4.10.8; :func:`~szwadron.table.fire.removal_order`), damage turned into figures along that
    order (1.5.1, PD-13; skirmishers' W doubled, PD-17). A target that took damage tests (4.8.1,
    6.3): repulse test, on failure the panic test; its state is set (a repulsed unit stays
    normal, 6.5.3; the repulse and flight moves, 4.8.2, 4.8.3, are the player's next moves). A
    panicking target takes no test (6.6); a destroyed unit leaves the table (PD-18).
    The volley's dice must match its size; the dice of a test must be those it uses."""
    from szwadron.geometry.battlefield import Battlefield
    from szwadron.table.fire import fire

    if dice is None and seed is None:
        raise InvalidDataError("--dice: give the volley's dice (--dice 1,4,6,...) or --roll --seed N")
    rng = random.Random(seed) if seed is not None else None
    sc = pos.scenario
    for role, ident in (("--shooter", shooter), ("--target", target)):
        if ident not in {u.id for u in sc.units}:
            raise InvalidDataError(f"{role} {ident}: no such unit in the scenario", source=pos.source)
    su, tu = sc.unit(shooter), sc.unit(target)
    check_may_act(sc, su, "fire", after=UnitAction.MARCH if march else None)
    bf = Battlefield(sc)
    result = fire(bf, shooter, target, bases=bases, march=march, ammunition=ammunition)
    if not result.legal or result.odds is None:
        reason = result.reason
        raise IllegalActionError(reason.rule if reason else "4", reason.message if reason else "cannot fire")
    odds = result.odds
    size = sum(g.dice for g in odds.groups)
    if dice is not None and len(dice) != size:
        groups = " + ".join(f"{g.dice} on ≤{g.accuracy}" for g in odds.groups)
        raise InvalidDataError(f"--dice: the volley rolls {size} dice ({groups}), {len(dice)} given")
    volley = _Dice("--dice", None if dice is None else list(dice), rng)
    rolled_groups = []
    damage = 0
    for g in odds.groups:
        faces = [volley.take(COMBAT_DIE_SIDES, "the volley") for _ in range(g.dice)]
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
    rem = _Dice("--remainder-dice", None if remainder_dice is None else list(remainder_dice), rng)
    if removed < len(wounds) and left > 0:
        instruction = remainder_roll(left, wounds[removed], odds.die)
        if remainder_dice is None and rng is None:
            raise InvalidDataError(
                f"--remainder-dice: {damage} damage leaves a remainder of {left}/{wounds[removed]}"
                f" (1.5.1: {instruction.notation} on a {odds.die}); give its die"
            )
        sides = die_sides(odds.die)
        rolled: list[int] = []
        while True:
            face = rem.take(sides, f"the remainder roll (1.5.1, {instruction.notation})")
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
    rem.check_all_used("the removal (1.5.1)")
    gone_ids = order[:removed]
    gone = sorted(int(b.rpartition("/")[2]) for b in gone_ids)
    strength_after = tu.strength - len(gone)

    # 4.8.1, 6.3 — the morale test
    mor = _Dice("--morale-dice", None if morale_dice is None else list(morale_dice), rng)
    tests: list[dict[str, Any]] = []
    outcome = "no_test"
    state = tu.state
    if strength_after == 0:
        outcome = "destroyed"  # PD-18
    elif damage > 0 and tu.state is UnitState.PANIC:
        outcome = "no_test"  # 6.6: a panicking unit takes no morale tests for losses
    elif damage > 0:
        if morale_dice is None and rng is None:
            raise InvalidDataError(
                "--morale-dice: the target took damage and tests morale (4.8.1); give its dice"
            )
        aim = morale_target(
            tu.profile.morale, strength_after, tu.starting_strength, result.morale_test.modifier
        )
        first = mor.take(6, "the repulse test (6.3)")
        tests.append({"test": "repulse", "face": first, "target": aim, "passed": first <= aim})
        if first <= aim:
            outcome = "passed"
        else:
            second = mor.take(6, "the panic test (6.3)")
            tests.append({"test": "panic", "face": second, "target": aim, "passed": second <= aim})
            if second <= aim:
                outcome, state = "repulsed", UnitState.NORMAL  # 6.5.3: ends its retreat normal
            else:
                outcome, state = "panic", UnitState.PANIC
    mor.check_all_used("the morale test (6.3)")

    done = UnitAction.MARCH if march else UnitAction.FIRE
    changes: list[Change] = [{"op": "set", "unit": shooter, "field": "acted", "value": done.value}]
    notes: list[str] = []
    if strength_after == 0:
        changes.append({"op": "drop", "unit": target})
        changes += _forget(sc, target)
        notes.append(f"{target} is destroyed and leaves the table (PD-18)")
    elif gone or state is not tu.state:
        changes += _expand_if_formation(tu)
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
    if outcome == "repulsed":
        notes.append(
            f"{target} is repulsed: its retreat out of {shooter}'s range (4.8.2, 6.5) is its next move"
        )
    elif outcome == "panic":
        notes.append(f"{target} panics: its flight (4.8.3, 6.6) is its next move")
    inputs: dict[str, Any] = {"shooter": shooter, "target": target}
    if bases is not None:
        inputs["bases"] = list(bases)
    if march:
        inputs["march"] = True
    if result.ammunition is not None:
        inputs["ammunition"] = result.ammunition
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


def apply_next_phase(pos: Position) -> Applied:
    """2, 2.1 — the game moves on: a side's morale phase to its movement phase; its movement
    phase to the other side's morale phase (a new round after both sides). A scenario without
    a ``[turn]`` starts at round 1, side A's morale phase. At the end of a movement phase every
    unit's action is forgotten (2.3) and the side's heavy artillery that took no action has
    prepared its position (7.3)."""
    sc = pos.scenario
    turn = sc.turn
    changes: list[Change] = []
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
    value = {"round": nxt.round, "side": nxt.side, "phase": nxt.phase.value}
    if nxt.first != "A":
        value["first"] = nxt.first
    changes.insert(0, {"op": "turn", "value": value})
    ruling = {"turn": value}
    return _finish(pos, "turn", {}, {}, ruling, changes)


__all__ = [
    "Applied",
    "Position",
    "apply_fire",
    "apply_move",
    "apply_next_phase",
    "check_may_act",
    "expand_formations",
    "position_from_text",
    "read_position",
]
