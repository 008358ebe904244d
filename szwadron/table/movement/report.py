"""The answer of a move check (3, 4.9): a :class:`MoveReport` of :class:`Violation` rulings and
per-base :class:`BaseMove` distances (PD-6), with the :class:`AfterFire` it followed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.paths import Pose, Surcharge
from szwadron.i18n import _, ngettext
from szwadron.rulings import Ruling

_DIGITS = 6


@dataclass(frozen=True)
class Violation(Ruling):
    """A rule the move breaks; ``where`` holds the base that breaks it (empty for the whole unit)."""

    @property
    def base(self) -> str | None:
        """The base that breaks the rule, or ``None`` for the whole unit."""
        return self.where[0] if self.where else None

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "message", "base"}``."""
        return {"rule": self.rule, "message": self.message, "base": self.base}


@dataclass(frozen=True)
class BaseMove:
    """PD-6 — one base's move: path of its furthest corner, surcharges, total against allowed."""

    base: str
    path: float
    corner: str
    surcharges: tuple[Surcharge, ...]
    allowed: float
    poses: tuple[Pose, ...]

    @property
    def distance(self) -> float:
        """Path plus surcharges (PD-6)."""
        return self.path + sum(s.cm for s in self.surcharges)

    def to_json(self) -> dict[str, Any]:
        """``{"base", "distance", "allowed", "surcharges", "path", "corner", "poses"}``."""
        return {
            "base": self.base,
            "distance": round(self.distance, _DIGITS),
            "allowed": round(self.allowed, _DIGITS),
            "surcharges": [s.to_json() for s in self.surcharges],
            "path": round(self.path, _DIGITS),
            "corner": self.corner,
            "poses": [[round(v, _DIGITS) for v in p] for p in self.poses],
        }


@dataclass(frozen=True)
class AfterFire:
    """4.9 — the fire a move after fire follows: the target, the declared firing bases (which may
    not move, 4.9.1), those that fired (whose lines of fire may not be entered, 4.9.4), and
    whether it was fire on the march (4.11.3)."""

    target: str
    declared: tuple[str, ...]
    fired: tuple[str, ...]
    march: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"target", "declared", "fired", "march"}``."""
        return {
            "target": self.target,
            "declared": list(self.declared),
            "fired": list(self.fired),
            "march": self.march,
        }


@dataclass(frozen=True)
class MoveReport:
    """The answer of :func:`check_move`; :meth:`to_json` is ``szwadron move --json``."""

    units: tuple[str, ...]
    charge: tuple[str, ...]
    march: bool
    violations: tuple[Violation, ...]
    bases: tuple[BaseMove, ...]
    order: tuple[str, ...]
    contacts: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    after_fire: AfterFire | None = None
    push_up: str | None = None
    """5.6: the move is a push-up towards this unit (``charge`` is then empty)."""
    table: Battlefield | None = field(default=None, repr=False, compare=False)
    """The table it was computed on (for plotting; not part of the JSON)."""

    @property
    def legal(self) -> bool:
        """No rule broken."""
        return not self.violations

    @property
    def rule(self) -> str | None:
        """The first rule broken, or ``None``."""
        return self.violations[0].rule if self.violations else None

    @property
    def message(self) -> str:
        """The first violation in words, or a one-line summary of a legal move."""
        if self.violations:
            return self.violations[0].message
        most = max(self.bases, key=lambda b: b.distance / b.allowed if b.allowed else 0.0, default=None)
        if most is None:
            return _("legal charge: no base moves") if self.charge else _("legal move: no base moves")
        n = len(self.bases)
        if self.push_up is not None:
            return ngettext(
                "legal push-up: {n} base, the longest {base} {distance:.2f} of {allowed:g} cm",
                "legal push-up: {n} bases, the longest {base} {distance:.2f} of {allowed:g} cm",
                n,
            ).format(n=n, base=most.base, distance=most.distance, allowed=most.allowed)
        return (
            ngettext(
                "legal charge: {n} base, the longest {base} {distance:.2f} of {allowed:g} cm",
                "legal charge: {n} bases, the longest {base} {distance:.2f} of {allowed:g} cm",
                n,
            )
            if self.charge
            else ngettext(
                "legal move: {n} base, the longest {base} {distance:.2f} of {allowed:g} cm",
                "legal move: {n} bases, the longest {base} {distance:.2f} of {allowed:g} cm",
                n,
            )
        ).format(n=n, base=most.base, distance=most.distance, allowed=most.allowed)

    def to_json(self) -> dict[str, Any]:
        """``{"legal", "rule", "message", "bases", "violations", "order", ...}`` (``push_up`` only
        for a push-up)."""
        doc = {
            "legal": self.legal,
            "rule": self.rule,
            "message": self.message,
            "bases": [b.to_json() for b in self.bases],
            "violations": [v.to_json() for v in self.violations],
            "units": list(self.units),
            "charge": list(self.charge),
            "march": self.march,
            "order": list(self.order),
            "contacts": list(self.contacts),
            "notes": list(self.notes),
            "after_fire": None if self.after_fire is None else self.after_fire.to_json(),
        }
        if self.push_up is not None:
            doc["push_up"] = self.push_up
        return doc


__all__ = ["AfterFire", "BaseMove", "MoveReport", "Violation"]
