"""Section 3, 1.3.3, 1.4, 4.11, 5.9 — is a proposed move legal, and what does it cost?

:func:`check_move` takes a scenario (or a built :class:`~szwadron.geometry.battlefield.Battlefield`),
the unit (or the units of a combined move, 3.3) and the new poses of its bases — a
:class:`MoveFile`, the ``szwadron move --to FILE`` format — and returns a :class:`MoveReport`:
legal or not, every violation with its rule and base (the first one is "the" answer), and per
base the distance moved by PD-6 with every terrain surcharge itemised.

Move file (TOML)::

    unit = "fr-hussars"            # optional: checked against --unit
    [[bases]]
    index = 0                      # the base UNIT/0; bases not listed stay where they are
    x = 15.0
    y = 40.0
    facing = 90.0
    waypoints = [[15.0, 35.0, 90.0]]   # optional poses passed on the way, in order

The rules checked, base by base in the order the bases move (the order of the file, 3.1.1):

- 3.2.4, 3.2.5 — the base's path crosses no impassable terrain, high wall, or building (or
  fortification) closed to its kind;
- 3.1.3 — it passes through no other own figure: other units' at their places, its own unit's
  where they stand when it moves (already moved ones at their new places);
- 1.4.2, 1.4.3, 5.9.3 — it comes into no enemy control zone (measured from beyond an obstacle
  the enemy stands at), except the zones of figures already engaged in melee and those of a unit
  it charges;
- 5.9.2 — a charging base that enters the charged unit's zone ends touching a charged figure,
  of the charged unit whose zone it came into first, and never overlaps one;
- 3.2.1, 3.2.2, 3.2.3 — it does not end straddling a hill edge or the edge of rough ground, nor
  on an obstacle;
- 3.1.4 — it stays on the table;
- 3.1.5, PD-6, 3.2, 3.3, 4.11, 7.2 — the corner that travels furthest, plus the surcharges, is
  within its move (the slowest unit's in a combined move, half of it on the march, the limbered
  move of a gun with its limber);

then for the unit: 1.3.3 coherent at the end (not for units in panic or pursuit, 6.1), 3.3 the
units of a combined move touch at the start, 4.11 no charge on the march.

Moving after fire (4.9, ``after_fire=`` a :class:`~szwadron.table.fire.FireResult`, ``szwadron move
--after-fire TARGET``): the figures of the firing unit not declared as firing may move, under all
the rules above (4.9.2); a declared figure may not move (4.9.1); no charge (4.9.3); no path may
enter the band (PD-7) of a line of fire of a figure that fired (4.9.4); after fire on the march,
no move after fire (4.11.3) — only the half move of fire on the march itself (4.11.2).

Decisions where the rulebook is silent:

- Bases not listed in the move file stay put (figures move one after another, 3.1.1; moving
  part of a unit is normal).
- Bases move in file order. When that order makes one base pass through another of its own
  unit (3.1.3), the check looks for an order that works (a unit wheeling about its left end
  moves its right-hand bases first) and reports the order it used.
- A base that starts inside an enemy zone (it was charged, or is disengaging) is not stopped
  by that zone, but may not end the move nearer that enemy than it started.
- A figure counts as engaged (5.9.3: its zone lets others pass) when it is in contact (PD-14)
  with a figure of the other side.
- "Room for the base" (3.1.4) and "through own figures" (3.1.3) use PD-3: the path may press
  into another base or a wall by up to the overlap tolerance. A gap 0.1 cm narrower than the
  base is therefore the exact limit of PD-3 (0.05 cm on each side) when the base goes through
  its middle; any narrower, or off centre, it is illegal.
- A declared charge in which no base reaches contact is legal (a charge that falls short); the
  report says that no base is in contact.
- Foot of the hill (3.2.1): a base that starts touching a hill from below and ends wholly on it
  with an edge on the hill's edge may make that move even when it costs more than its move.
- After fire (4.9), see :func:`check_move`: a declared figure that could not fire was still
  declared and does not move; the lines of fire are those of the answer (every target base a
  figure that fired could hit, 4.5.3), on the table as it stood when the unit fired (casualties
  not yet removed).

The package: :mod:`~szwadron.table.movement.report` (the answer),
:mod:`~szwadron.table.movement.plan` (the listed bases, their paths, speeds and order),
:mod:`~szwadron.table.movement.steps` (each rule a named step, run in the order above),
:mod:`~szwadron.table.movement.check` (:func:`check_move`, :func:`place`) and
:mod:`~szwadron.table.movement.retreat` (6.5, 6.6: away, flight, repulse) and
:mod:`~szwadron.table.movement.reform` (1.3.2, 6.8.5: the move that makes a unit coherent again).
"""

from szwadron.movefile import MoveFile, MovePose, load_move_file
from szwadron.table.movement.check import check_move, place
from szwadron.table.movement.reform import ReformResult, reform
from szwadron.table.movement.report import AfterFire, BaseMove, MoveReport, Violation
from szwadron.table.movement.retreat import (
    REPULSE_DEFLECTIONS_DEG,
    RepulseCheck,
    away_direction,
    flight_direction,
    in_field_of_fire,
    repulse,
)

__all__ = [
    "REPULSE_DEFLECTIONS_DEG",
    "AfterFire",
    "BaseMove",
    "MoveFile",
    "MovePose",
    "MoveReport",
    "ReformResult",
    "RepulseCheck",
    "Violation",
    "away_direction",
    "check_move",
    "flight_direction",
    "in_field_of_fire",
    "load_move_file",
    "place",
    "reform",
    "repulse",
]
