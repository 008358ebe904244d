"""Section 4, 4.12, 7.1, 7.3, 7.4 — the question "unit S fires at unit T" (:func:`fire`): the
ids checked once (4.2), then the fire in one's own turn
(:func:`~szwadron.table.fire.resolve.resolve_fire`) or in the opponent's
(:func:`~szwadron.table.fire.reaction.fire_in_opponents_turn`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.geometry.battlefield import Battlefield, PairMethod
from szwadron.i18n import _
from szwadron.models import Scenario
from szwadron.movefile import MoveFile
from szwadron.table.fire.reaction import fire_in_opponents_turn
from szwadron.table.fire.resolve import resolve_fire
from szwadron.table.fire.results import FireResult, ReactionKind
from szwadron.table.fire.units import unit_index


def fire(
    scenario: Scenario | Battlefield,
    shooter: str,
    target: str,
    *,
    bases: Sequence[str] | None = None,
    march: bool = False,
    ammunition: str | None = None,
    target_poses: MoveFile | Mapping[str, Any] | None = None,
    reaction: ReactionKind | str | None = None,
    method: PairMethod = "index",
    source: str = "target poses",
) -> FireResult:
    """Section 4, 4.12, 7.1, 7.3, 7.4 — unit ``shooter`` fires at enemy unit ``target``.

    Parameters
    ----------
    scenario:
        A :class:`~szwadron.geometry.battlefield.Battlefield` (used as it is), or a scenario
        (its battlefield is built once, here).
    shooter, target:
        Unit ids.
    bases:
        The declared firing bases (4.2), ``UNIT/INDEX`` or ``INDEX``; all of the unit's if None.
    march:
        Fire on the march (4.11): half SO; not for artillery (7.1.2).
    ammunition:
        The ammunition name (7.1.3); if None, the best one the unit carries
        (:mod:`szwadron.table.fire.resolve`).
    target_poses:
        4.12.3 — a move file (:class:`~szwadron.movefile.MoveFile` or its data) of the target
        unit: its listed bases are placed at their final poses (the point at which its move is
        interrupted) before the fire is computed; the bases not listed stay
        (:func:`szwadron.table.movement.place`). The answer lists them in ``target_at``.
    reaction:
        Fire in the opponent's turn (4.12), ``"declared"`` (4.12.2–4.12.5: an interrupted move
        with ``target_poses``, lost out of range, 4.12.4; else the end of the opponent's
        movement phase, 4.12.5) or ``"charged"`` (4.12.6: at the first unit charging it): see
        :mod:`szwadron.table.fire.reaction`.
    method:
        ``"index"`` (STR-trees) or ``"brute"`` (every base and feature tried); same answer.
    source:
        Name of the ``target_poses`` file in error messages.

    Returns
    -------
    FireResult
        With the table it was computed on as ``table`` (the target placed, 4.12.3).

    Raises
    ------
    InvalidDataError
        Unknown or malformed ids, the unit firing at itself, declared bases of another unit, an
        ammunition name the unit does not carry, ammunition for a unit without any; target
        poses for another unit, of unknown bases or off the table; an unknown ``reaction``,
        or one with ``march``.
    IllegalActionError
        The target is an ally (4.2), the unit has no gun that may fire (limbers only, 7.2,
        4.4.3) or its guns carry no ammunition (7.1.3); a declared interrupt whose target
        poses move no base (4.12.3).
    """
    bf = Battlefield.of(scenario)
    sk, tk = enemy_units(bf, shooter, target)
    if target_poses is not None or reaction is not None:
        return fire_in_opponents_turn(
            bf,
            sk,
            tk,
            target_poses,
            reaction,
            bases=bases,
            march=march,
            ammunition=ammunition,
            method=method,
            source=source,
        )
    return resolve_fire(bf, sk, tk, bases=bases, march=march, ammunition=ammunition, method=method)


def enemy_units(bf: Battlefield, shooter: str, target: str) -> tuple[int, int]:
    """4.2 — the indices of the firing unit and of its target, an enemy unit."""
    sk = unit_index(bf, shooter, "shooter")
    tk = unit_index(bf, target, "target")
    if sk == tk:
        raise InvalidDataError(
            _("unit {shooter} cannot fire at itself: name an enemy unit as target").format(shooter=shooter)
        )
    su, tu = bf.scenario.units[sk], bf.scenario.units[tk]
    if su.side == tu.side:
        raise IllegalActionError(
            "4.2",
            _("{target} is on side {side} like {shooter}: a unit fires at an enemy unit").format(
                target=target, side=tu.side, shooter=shooter
            ),
        )
    return sk, tk


__all__ = ["enemy_units", "fire"]
