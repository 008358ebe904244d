"""Section 4, 4.12, 6.2 — what an answer to "unit S fires at unit T" holds: per shooting base
(:class:`ShooterReport`, with its :class:`FireLine` s), per target base (:class:`TargetReport`),
the morale test's numbers (:class:`MoraleTest`), how a fire in the opponent's turn was taken
(:class:`Reaction`), the whole answer (:class:`FireResult`, the ``szwadron fire --json``
document) and the ranking of ``szwadron targets`` (:class:`TargetsReport`).

The leaf of :mod:`szwadron.table.fire`: it imports none of the package's other modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from szwadron.geometry.battlefield import Battlefield
from szwadron.geometry.sight import CoverSource
from szwadron.odds.combat import VolleyOdds
from szwadron.odds.morale import FireOutcome
from szwadron.rulings import Ruling

#: Decimals of the distances and poses in the JSON documents.
DIGITS = 6

#: Why a base or a unit cannot fire: a :class:`~szwadron.rulings.Ruling` (rule and message).
Reason = Ruling


@dataclass(frozen=True)
class FireLine:
    """One target base a shooter may fire at: through which edge, how far, whether indirectly."""

    target: str
    edge: str
    distance: float
    indirect: bool = False


@dataclass(frozen=True)
class ShooterReport:
    """One declared firing base: whether it fires and, if so, where and how; if not, why.

    ``edge``, ``distance`` and ``accuracy`` are those of its nearest legal target (PD-9);
    ``accuracy`` is its C after range (4.5.4) and indirect fire (7.4); ``dice`` its SO (or its
    ammunition's), before fire on the march halves the volley (4.11).
    """

    base: str
    can_fire: bool
    rule: str | None
    message: str | None
    edge: str | None
    targets: tuple[str, ...]
    distance: float | None
    accuracy: int | None
    dice: int
    base_accuracy: int
    indirect: bool = False
    lines: tuple[FireLine, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The per-shooter entry of ``fire --json``."""
        return {
            "base": self.base,
            "can_fire": self.can_fire,
            "rule": self.rule,
            "edge": self.edge,
            "targets": list(self.targets),
            "distance": None if self.distance is None else round(self.distance, DIGITS),
            "accuracy": self.accuracy,
            "dice": self.dice,
            "message": self.message,
            "base_accuracy": self.base_accuracy,
            "indirect": self.indirect,
            "lines": [
                {
                    "target": ln.target,
                    "edge": ln.edge,
                    "distance": round(ln.distance, DIGITS),
                    "indirect": ln.indirect,
                }
                for ln in self.lines
            ],
        }


@dataclass(frozen=True)
class TargetReport:
    """One base of the target unit: can it be hit (4.5.3), its W with each cover source."""

    base: str
    eligible: bool
    wounds: int
    base_wounds: int
    cover: tuple[CoverSource, ...]
    rule: str | None = None
    message: str | None = None
    distance: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The per-target entry of ``fire --json``."""
        return {
            "base": self.base,
            "eligible": self.eligible,
            "wounds": self.wounds,
            "cover": [{"rule": c.rule, "bonus": c.bonus, "source": c.source} for c in self.cover],
            "base_wounds": self.base_wounds,
            "rule": self.rule,
            "message": self.message,
            "distance": None if self.distance is None else round(self.distance, DIGITS),
        }


@dataclass(frozen=True)
class MoraleTest:
    """6.2 — the numbers of the target's test after the fire."""

    morale: int
    strength: int
    initial: int
    modifier: int


class ReactionKind(StrEnum):
    """4.12.1 — the two forms of fire in the opponent's turn."""

    DECLARED = "declared"  # 4.12.2-4.12.5
    CHARGED = "charged"  # 4.12.6 (undeclared, at the first unit that charges it)


@dataclass(frozen=True)
class Reaction:
    """4.12 — how a fire in the opponent's turn was taken: its form, the rule it is taken under
    (4.12.3 an interrupted move, 4.12.5 the end of the opponent's movement phase, 4.12.6 at a
    charging unit), and ``lost`` when the interrupted enemy was out of range (4.12.4)."""

    kind: ReactionKind
    rule: str
    lost: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "rule", "lost"}``."""
        return {"kind": self.kind.value, "rule": self.rule, "lost": self.lost}


@dataclass(frozen=True)
class FireResult:
    """The whole answer to "``shooter`` fires at ``target``" (see :func:`fire`)."""

    shooter: str
    target: str
    legal: bool
    reason: Ruling | None
    shooters: tuple[ShooterReport, ...]
    targets: tuple[TargetReport, ...]
    removal_order: tuple[str, ...]
    odds: VolleyOdds | None
    morale: dict[FireOutcome, Fraction]
    morale_test: MoraleTest
    ammunition: str | None = None
    march: bool = False
    skirmish: bool = False
    notes: tuple[str, ...] = ()
    alternatives: tuple[tuple[str, bool, float], ...] = field(default=())
    reaction: Reaction | None = None
    target_at: tuple[tuple[str, float, float, float], ...] = ()
    #: The table the answer was computed on (with the target placed, 4.12.3), for pictures of
    #: it: not part of the answer's value nor of its JSON.
    table: Battlefield | None = field(default=None, compare=False, repr=False)

    @property
    def expected(self) -> float:
        """Expected figures removed (0 when the fire is not legal)."""
        return self.odds.expected if self.odds is not None else 0.0

    @property
    def removed_pmf(self) -> list[float]:
        """``[P(0 removed), P(1), ...]`` (``[1.0]`` when the fire is not legal)."""
        return self.odds.removed_pmf if self.odds is not None else [1.0]

    @property
    def at_least(self) -> list[float]:
        """``[P(≥0 removed), P(≥1), ...]``."""
        return self.odds.at_least if self.odds is not None else [1.0]

    def probability(self, outcome: FireOutcome | str) -> float:
        """P(morale outcome): ``no_test``, ``passed``, ``repulsed``, ``panic``, ``destroyed``."""
        return float(self.morale.get(FireOutcome(outcome), Fraction(0)))

    def to_json(self) -> dict[str, Any]:
        """The ``szwadron fire --json`` document (docs/decisions.md "The JSON documents")."""
        return {
            "legal": self.legal,
            "reason": None if self.reason is None else self.reason.to_json(),
            "shooters": [s.to_json() for s in self.shooters],
            "targets": [t.to_json() for t in self.targets],
            "removal_order": list(self.removal_order),
            "volley": [
                {"dice": g.dice, "accuracy": g.accuracy}
                for g in (self.odds.groups if self.odds is not None else ())
            ],
            "removed_pmf": self.removed_pmf,
            "expected": self.expected,
            "morale": {o.value: self.probability(o) for o in FireOutcome},
            "at_least": self.at_least,
            "shooter": self.shooter,
            "target": self.target,
            "ammunition": self.ammunition,
            "march": self.march,
            "skirmish": self.skirmish,
            "morale_test": {
                "morale": self.morale_test.morale,
                "strength": self.morale_test.strength,
                "initial": self.morale_test.initial,
                "modifier": self.morale_test.modifier,
            },
            "notes": list(self.notes),
            "alternatives": [{"ammunition": a, "legal": ok, "expected": e} for a, ok, e in self.alternatives],
            "reaction": None if self.reaction is None else self.reaction.to_json(),
            "target_at": None
            if not self.target_at
            else [
                {"base": b, "x": round(x, DIGITS), "y": round(y, DIGITS), "facing": round(f, DIGITS)}
                for b, x, y, f in self.target_at
            ],
        }


@dataclass(frozen=True)
class TargetsReport:
    """``szwadron targets``: the enemy units a unit could fire at now, best first, and the ones
    it cannot, each with its reason."""

    shooter: str
    possible: tuple[FireResult, ...]
    impossible: tuple[FireResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The ``szwadron targets --json`` document."""
        return {
            "shooter": self.shooter,
            "targets": [
                {
                    "unit": r.target,
                    "expected": r.expected,
                    "repulsed": r.probability("repulsed"),
                    "panic": r.probability("panic"),
                    "repulsed_or_panic": r.probability("repulsed") + r.probability("panic"),
                    "destroyed": r.probability("destroyed"),
                    "firing": [s.base for s in r.shooters if s.can_fire],
                    "eligible": [t.base for t in r.targets if t.eligible],
                    "ammunition": r.ammunition,
                    "removed_pmf": r.removed_pmf,
                }
                for r in self.possible
            ],
            "cannot": [
                {"unit": r.target, "reason": None if r.reason is None else r.reason.to_json()}
                for r in self.impossible
            ],
        }


__all__ = [
    "DIGITS",
    "FireLine",
    "FireResult",
    "MoraleTest",
    "Reaction",
    "ReactionKind",
    "Reason",
    "ShooterReport",
    "TargetReport",
    "TargetsReport",
]
