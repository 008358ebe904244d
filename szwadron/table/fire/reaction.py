"""4.12 — fire in the opponent's turn: a caller of the fire check
(:func:`~szwadron.table.fire.resolve.resolve_fire`), which it runs on the table with the target
placed at the point of its move (4.12.3), then applies the conditions of the reaction.

- ``declared`` (4.12.2–4.12.5): with target poses, the unit interrupts the target's move after
  its first figure moved (4.12.3: at least one listed base must stand elsewhere than before) and
  fires normally at it there; when the target is out of range of every declared figure (edge to
  edge, 4.5.1) the fire is lost (4.12.4: ``reason.rule == "4.12.4"``, ``reaction.lost``).
  Without poses, it is the fire at the end of the opponent's movement phase at any enemy unit
  (4.12.5).
- ``charged`` (4.12.6): the undeclared fire at the first unit that charges it; the shooter must
  be in normal morale and not engaged, on the table before the charge (refused under 4.12.6
  otherwise). The target may be placed with poses (the point of the charge at which it is fired
  at).

Decision: the charge itself is the players' statement (``reaction="charged"`` says the target
charges the shooter, 5.2, and is the first to do so). That the shooter took no action and did
not declare (4.12.6) is the position's ``stood`` mark when it records whose turn it is (the note
says so), the players' statement otherwise. The charger's own contact with the shooter is its
charge, not an engagement before it; a melee already fought (``engaged_with``) is. A charger
placed in contact engages the shooter, which then cannot fire (4.1.1); the note says to place it
at a point of its charge before contact. Fire in the opponent's turn is never fire on the march (``march`` with a reaction is bad
input).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.geometry.contact import polygon_distance
from szwadron.i18n import _, ngettext, term
from szwadron.loading import validate
from szwadron.models import UnitState
from szwadron.movefile import MoveFile
from szwadron.rulings import Ruling
from szwadron.table.fire.engagement import engaged_units
from szwadron.table.fire.outcome import refuse
from szwadron.table.fire.resolve import resolve_fire
from szwadron.table.fire.results import FireResult, Reaction, ReactionKind
from szwadron.table.fire.units import figure_stats
from szwadron.table.movement import place


@dataclass(frozen=True)
class Placed:
    """4.12.3 — the table with the target at its given poses, the poses listed and how many of
    them moved a base."""

    table: Battlefield
    at: tuple[tuple[str, float, float, float], ...]
    moved: int


def fire_in_opponents_turn(
    bf: Battlefield,
    shooter_k: int,
    target_k: int,
    poses: MoveFile | Mapping[str, Any] | None,
    reaction: ReactionKind | str | None,
    *,
    bases: Sequence[str] | None,
    march: bool,
    ammunition: str | None,
    method: PairMethod,
    source: str,
) -> FireResult:
    """4.12 — the fire with the target placed at ``poses`` (:func:`place_target`) and the
    conditions of ``reaction`` (see the module); without a reaction, only the placing."""
    kind = reaction_kind(reaction, march)
    placed = Placed(bf, (), 0) if poses is None else place_target(bf, target_k, poses, kind, source)
    result = resolve_fire(
        placed.table, shooter_k, target_k, bases=bases, march=march, ammunition=ammunition, method=method
    )
    notes = list(result.notes)
    if poses is not None:
        n = len(placed.at)
        notes.append(
            ngettext(
                "{unit} placed at the given poses ({n} base listed, {moved} moved) before the fire (4.12.3)",
                "{unit} placed at the given poses ({n} bases listed, {moved} moved) before the fire (4.12.3)",
                n,
            ).format(unit=bf.unit_ids[target_k], n=n, moved=placed.moved)
        )
    result = replace(result, notes=tuple(notes), target_at=placed.at)
    if kind is None:
        return result
    if kind is ReactionKind.DECLARED:
        return declared_fire(placed.table, result, interrupted=poses is not None)
    return charged_fire(bf, shooter_k, result, method)


def reaction_kind(reaction: ReactionKind | str | None, march: bool) -> ReactionKind | None:
    """4.12.1 — the form of the reaction; fire in the opponent's turn is never on the march."""
    if reaction is None:
        return None
    try:
        kind = ReactionKind(reaction)
    except ValueError:
        raise InvalidArgumentError(
            "reaction",
            _("{reaction!r}: expected one of {kinds}").format(
                reaction=reaction, kinds=", ".join(k.value for k in ReactionKind)
            ),
        ) from None
    if march:
        raise InvalidArgumentError(
            "march",
            _(
                "does not apply: fire in the opponent's turn (4.12) is normal fire, not fire on the march (4.11)"
            ),
        )
    return kind


def place_target(
    bf: Battlefield,
    target_k: int,
    poses: MoveFile | Mapping[str, Any],
    kind: ReactionKind | None,
    source: str,
) -> Placed:
    """4.12.3 — the table with the target's listed bases at their poses
    (:func:`szwadron.table.movement.place`, run once, the table built once); a declared
    interrupt must move at least one base."""
    target = bf.unit_ids[target_k]
    move = poses if isinstance(poses, MoveFile) else validate(MoveFile, dict(poses), source=source)
    table = Battlefield(place(bf, target, move, source=source), bf.settings)
    members = bf.unit_bases(target_k)
    at: tuple[tuple[str, float, float, float], ...] = ()
    moved = 0
    for entry in move.bases:
        b = int(members[entry.index])
        at += ((bf.base_ids[b], float(entry.x), float(entry.y), float(entry.facing)),)
        if (
            abs(entry.x - bf.x[b]) > 1e-9
            or abs(entry.y - bf.y[b]) > 1e-9
            or abs((entry.facing - bf.facing[b] + 180.0) % 360.0 - 180.0) > 1e-9
        ):
            moved += 1
    if kind is ReactionKind.DECLARED and not moved:
        raise IllegalActionError(
            "4.12.3",
            _(
                "the poses of {target} move none of its bases: a declared fire interrupts a move after the first figure moved"
            ).format(target=target),
        )
    return Placed(table, at, moved)


def declared_fire(table: Battlefield, result: FireResult, *, interrupted: bool) -> FireResult:
    """4.12.3–4.12.5 — a declared fire: interrupting the target's move (4.12.3; lost when the
    target is out of range of every declared figure there, 4.12.4), or at the end of the
    opponent's movement phase (4.12.5)."""
    shooter, target = result.shooter, result.target
    notes = list(result.notes)
    if not interrupted:
        notes.append(
            _(
                "4.12.5: {shooter} interrupted no move; it fires at the end of the opponent's movement phase"
            ).format(shooter=shooter)
        )
        return replace(result, notes=tuple(notes), reaction=Reaction(ReactionKind.DECLARED, "4.12.5"))
    notes.append(_("4.12.4: {shooter} may interrupt the move of one enemy unit only").format(shooter=shooter))
    if not result.legal and not any_in_range(table, result):
        reason = Ruling(
            "4.12.4",
            _(
                "{target} is out of range of every declared figure of {shooter} at the point of its move chosen: the fire is lost"
            ).format(target=target, shooter=shooter),
        )
        reaction = Reaction(ReactionKind.DECLARED, "4.12.3", lost=True)
        return replace(result, reason=reason, notes=tuple(notes), reaction=reaction)
    return replace(result, notes=tuple(notes), reaction=Reaction(ReactionKind.DECLARED, "4.12.3"))


def charged_fire(before: Battlefield, shooter_k: int, result: FireResult, method: PairMethod) -> FireResult:
    """4.12.6 — the undeclared fire at the first unit charging the shooter: only in normal
    morale and not engaged, on the table ``before`` the charge."""
    shooter, target = result.shooter, result.target
    su = before.scenario.units[shooter_k]
    refusal: Ruling | None = None
    if su.state is not UnitState.NORMAL:
        refusal = Ruling(
            "4.12.6",
            _("{shooter} is in {value}, not in normal morale: it may not fire at a charging unit").format(
                shooter=shooter, value=term(su.state.value)
            ),
        )
    elif engaged := _engaged_before(before, shooter_k, target, method):
        refusal = Ruling(
            "4.12.6",
            _(
                "{shooter} is engaged in melee with {engaged} (5.1.2): it may not fire at a charging unit"
            ).format(shooter=shooter, engaged=", ".join(engaged)),
        )
    notes = [*result.notes]
    if before.scenario.turn is None or not su.stood:
        notes.append(
            _(
                "4.12.6: only if {shooter} took no action in its own movement phase, did not declare fire in the opponent's turn, and {target} is the first unit to charge it"
            ).format(shooter=shooter, target=target)
        )
    else:
        notes.append(
            _(
                "4.12.6: {shooter} stood without acting in its own movement phase; {target} must be the first unit to charge it"
            ).format(shooter=shooter, target=target)
        )
    reaction = Reaction(ReactionKind.CHARGED, "4.12.6")
    if refusal is not None:
        return replace(refuse(result, refusal), notes=tuple(notes), reaction=reaction)
    if not result.legal and result.reason is not None and result.reason.rule == "4.1.1":
        notes.append(
            _(
                "{target} is placed in contact with {shooter}: place it at a point of its charge before contact"
            ).format(target=target, shooter=shooter)
        )
    return replace(result, notes=tuple(notes), reaction=reaction)


def _engaged_before(before: Battlefield, shooter_k: int, charger: str, method: PairMethod) -> tuple[str, ...]:
    """4.12.6 — the enemy units the shooter is engaged with before the charge: those it touches
    (5.1.2, PD-14) but the charger, whose contact is the charge itself, and those the position
    records from a melee already fought (``engaged_with``), the charger too."""
    recorded = before.scenario.units[shooter_k].engaged_with
    touching = [u for u in engaged_units(before, shooter_k, method) if u != charger]
    return tuple(sorted({*touching, *recorded}))


def any_in_range(bf: Battlefield, result: FireResult) -> bool:
    """4.5.1, 4.5.2, 4.12.4 — whether some target base is within range Z (edge to edge) of some
    declared figure (whatever its arc, sight or state)."""
    unit = bf.scenario.unit(result.shooter)
    tb = bf.unit_bases(result.target)
    eps = bf.settings.distance_epsilon_cm
    for s in result.shooters:
        k = int(bf.resolve(s.base)[0])
        stats, _ = figure_stats(unit, int(bf.index_in_unit[k]), result.ammunition)
        if stats is None:
            continue
        d = polygon_distance(bf.corners[k][None], bf.corners[tb])
        if bool((np.asarray(d) <= stats.range + eps).any()):
            return True
    return False


__all__ = [
    "Placed",
    "any_in_range",
    "charged_fire",
    "declared_fire",
    "fire_in_opponents_turn",
    "place_target",
    "reaction_kind",
]
