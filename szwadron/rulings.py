"""One type for every "no" the rules give, and one way results become JSON.

Every answer that refuses something — a base that cannot fire (4.x), a move that breaks a rule
(section 3), a problem in a set-up (1.3, 1.4, PD-3), an event the morale machine forbids
(section 6), a roster constraint broken — is a :class:`Ruling`: the rule that decides it, a
message for a person, and where it applies (the bases, units or roster entries concerned). The
kinds of ruling that carry more (a roster breach's measured value and limit, a machine refusal's
state and event) are subclasses, so a caller may treat them all alike::

    >>> r = Ruling("4.4.2", "an edge touched by an own base cannot fire", ("fr-line-1/3",))
    >>> r.to_json()
    {'rule': '4.4.2', 'message': 'an edge touched by an own base cannot fire', 'where': ['fr-line-1/3']}
    >>> str(r)
    '[4.4.2] an edge touched by an own base cannot fire'

Results serialise through one protocol, :class:`ToJson`: a ``to_json()`` method returning a
JSON-ready dict whose key order is part of the machine contract.

Ground module: imports nothing of szwadron.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class ToJson(Protocol):
    """A result that knows its ``--json`` document (key order is part of the contract)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready document."""
        ...  # pragma: no cover - a protocol


@dataclass(frozen=True)
class Ruling:
    """Why something cannot be done: the ``rule`` that decides it (a rule number such as
    ``"4.4.2"``, or a project decision ``"PD-14"``), a ``message`` for a person, and ``where`` it
    applies (base ids ``UNIT/INDEX``, unit ids or roster entries; empty for the whole request)."""

    rule: str
    message: str
    where: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "message"}``, and ``"where"`` when it names anything."""
        doc: dict[str, Any] = {"rule": self.rule, "message": self.message}
        if self.where:
            doc["where"] = list(self.where)
        return doc


__all__ = ["Ruling", "ToJson"]
