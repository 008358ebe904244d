"""Section 4, 7.1, 7.3, 7.4 — fire at the table: who can fire, through which edge, at which
target figures, how far and how accurately; the cover, the removal order, and the exact odds of
the volley and of the target's morale test; fire in the opponent's turn (4.12).

:func:`fire` answers one question, "unit S fires at unit T", base by base, and returns a
:class:`FireResult` (frozen; :meth:`FireResult.to_json` is the ``szwadron fire --json``
document). :func:`targets` asks it for every enemy unit and ranks them (``szwadron targets``).

The modules, each importing only those above it:

- :mod:`~szwadron.table.fire.results` — the answers (:class:`FireResult`, :class:`ShooterReport`,
  :class:`TargetReport`, :class:`MoraleTest`, :class:`Reaction`, :class:`TargetsReport`);
- :mod:`~szwadron.table.fire.engagement` — who is engaged with whom (4.1.1, 4.3.4, 5.1.2);
- :mod:`~szwadron.table.fire.units` — the declared bases (4.2), what each fires with (7.1.3);
- :mod:`~szwadron.table.fire.checks` — the fire check as its layers, below, run in order;
- :mod:`~szwadron.table.fire.removal` — the removal order (4.7, 4.10.8, PD-13);
- :mod:`~szwadron.table.fire.outcome` — target figures and cover, the volley and morale odds;
- :mod:`~szwadron.table.fire.resolve` — one fire on a given table, ammunition by ammunition;
- :mod:`~szwadron.table.fire.reaction` — fire in the opponent's turn (4.12), a caller of it;
- :mod:`~szwadron.table.fire.question` — :func:`fire`, the entry point;
- :mod:`~szwadron.table.fire.ranking` — :func:`targets`, the ranking of the enemy units.

The layers, in the order a shooting base is refused (the first rule that stops it is reported):

1. the unit: panicking or pursuing (6.1), engaged (4.1.1), artillery on the march (4.11, 7.1.2);
2. the figure: no fire dice (4.6), heavy artillery without a prepared position (7.3), ammunition
   it does not carry (7.1.3), every edge it may fire through touched by own bases (4.4.2, 4.4.3);
3. each target base: not in the arc of a usable edge (4.4.1–4.4.3, PD-8), out of range Z edge to
   edge (4.5.1, 4.5.2), engaged in melee (4.3.4), out of sight — line, band, levels, terrain
   (4.3, 4.10, PD-7, PD-11; indirect fire without sight, 7.4);
4. the figure again: accuracy at the nearest target it may fire at (PD-9) reduced to 0 or less
   (4.5.4).

Then the target figures in sight of some firing figure can be destroyed (4.5.3, PD-10), each with
its W plus its cover (4.10, PD-12), removed nearest first, none hidden behind another figure of
its unit, evenly, the least covered first (4.7.2–4.7.4, 4.10.8, PD-13); the volley is
:func:`szwadron.odds.combat.volley` and the morale test :func:`szwadron.odds.morale.fire_outcome`.

Examples
--------
>>> from szwadron.models import Scenario
>>> inf = {"id": "i", "name": "I", "kind": "infantry", "R": 12, "W": 2, "SW": 1, "SO": 1,
...        "Z": 24, "UW": 3, "C": 3, "M": 4}
>>> line = lambda y, f: [{"x": 10 + 2 * k, "y": y, "facing": f} for k in range(4)]
>>> sc = Scenario.model_validate({"name": "t", "table": {"width": 60, "depth": 60}, "units": [
...     {"id": "a", "side": "A", "profile": inf, "bases": line(10, 90)},
...     {"id": "b", "side": "B", "profile": inf, "bases": line(30, 270)}]})
>>> r = fire(sc, "a", "b")
>>> r.legal, [(s.edge, s.distance, s.accuracy) for s in r.shooters][:2]
(True, [('front', 18.0, 3), ('front', 18.0, 3)])
>>> r.odds.groups, round(r.expected, 4)
((FireGroup(dice=4, accuracy=3),), 1.0)

Decisions (where the rules are silent; each is also stated where it is implemented):

- A refused unit (6.1, 4.1.1, 7.1.2, or no figure able to fire) is an answer, not an error:
  ``legal`` is false and ``reason`` names the rule. Bad input (unknown ids, an ally as target,
  the unit itself, an unknown ammunition name, a unit of limbers only, guns carrying no
  ammunition) raises :class:`~szwadron.errors.InvalidDataError` or
  :class:`~szwadron.errors.IllegalActionError`.
- One ammunition for the whole volley (7.1.3): guns that do not carry it cannot fire. Without a
  choice, each ammunition the unit carries is tried and the one with the most expected figures
  removed is used (ties: the first in the profile); the others are listed as alternatives.
- A gun with indirect ammunition (7.4) fires directly at the target figures it sees (no
  penalty); only when it sees none does it fire indirectly, at every figure in arc and range, at
  C − 1, unless an own figure stands on the line of fire closer than 6 cm (edge to edge).
- A target figure is engaged (4.3.4) when it touches (PD-3, a positive length) a base of an
  enemy unit its unit is engaged with (5.1.2, :func:`szwadron.table.audit.audit`).
- A target on the boundary ray of two arcs (PD-8) may be fired at through either edge; the first
  whose band is clear is used, in the order front, right, left, back.
- The morale test uses the target unit's profile M, its figures on the table and its initial
  strength, with the fortification bonus (PD-16) when every figure stands in a fortification.
- Fire in the opponent's turn (4.12, ``reaction=`` and ``target_poses=``): see
  :mod:`szwadron.table.fire.reaction`.
"""

from __future__ import annotations

from szwadron.table.fire.question import fire
from szwadron.table.fire.ranking import targets
from szwadron.table.fire.removal import removal_order
from szwadron.table.fire.results import (
    FireLine,
    FireResult,
    MoraleTest,
    Reaction,
    ReactionKind,
    Reason,
    ShooterReport,
    TargetReport,
    TargetsReport,
)

__all__ = [
    "FireLine",
    "FireResult",
    "MoraleTest",
    "Reaction",
    "ReactionKind",
    "Reason",
    "ShooterReport",
    "TargetReport",
    "TargetsReport",
    "fire",
    "removal_order",
    "targets",
]
