"""5.8, 6.4.1, 6.4.2, 7.6 — disengaging from melee, before the dice (``szwadron move --unit U
--disengage``).

"Oddziały związane walką wręcz mogą zamiast walki wykonać manewr oderwania" (5.8.1): a unit
engaged in melee may, instead of fighting, disengage. Its morale is tested (6.4.1, 6.2: one d6,
pass on at most M after the modifiers); passed, it moves away from the enemy up to its move R,
terrain counting (5.8.2); failed, it panics (5.8.3, 6.4.2) and flees at once (6.6.2). A unit
with automatic disengage passes the test (7.6.1). Whatever the result, each enemy unit engaged
with it tests for uncontrolled pursuit (5.8.4, 7.6.2).

:func:`disengage` answers the question for one unit: the enemies it leaves, its chance to pass,
each enemy's chance to fall into pursuit, and the move it makes when it passes — the move the
player gives, checked by :func:`~szwadron.table.movement.check_move`, or, when none is given, the
move directly away from the enemies (:func:`~szwadron.table.movement.repulse`'s way: the full
move, in formation, round what bars it, but not turned aside to leave a field of fire: that is
6.5.2's demand of a repulse, not 5.8.2's; cut short at the table's edge, as 5.8.2 allows).

Decisions where the rulebook is silent (docs/decisions.md):

- The unit disengages from every enemy unit it is engaged with (5.1.2: touching with at least
  PD-14's contact, across an obstacle too, or recorded in ``engaged_with``): 5.8 speaks of the
  unit leaving the melee, not one enemy of it.
- Its move must end out of contact with each of them and out of their control zones (5.8.2:
  "odsuwa się od nieprzyjaciela"; 1.4.2: no figure stands in an enemy's zone unless engaged);
  a move that ends nearer than ``control_zone_cm`` to one is refused under 5.8.2.
- An enemy tests for pursuit even when it lost nothing (5.8.4: "bez względu na wynik"); a
  panicking enemy takes no test, one already pursuing keeps pursuing, and artillery never
  pursues (6.7.1) — the morale machine's branches (:mod:`szwadron.odds.machine`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from szwadron.errors import IllegalActionError, InvalidArgumentError
from szwadron.geometry.battlefield import Battlefield
from szwadron.i18n import _
from szwadron.models import Ability, Scenario
from szwadron.movefile import MoveFile
from szwadron.odds.machine import EventKind, MachineState, MoraleUnit, chance, step
from szwadron.table.audit import engaged_enemies
from szwadron.table.morale_phase import morale_modifier
from szwadron.table.movement import away_direction, check_move, repulse

if TYPE_CHECKING:
    from collections.abc import Mapping

    from szwadron.table.movement import MoveReport


@dataclass(frozen=True)
class PursuitTest:
    """5.8.4, 6.3.6 — an enemy engaged with the disengaging unit, and its test for uncontrolled
    pursuit: ``branch`` is ``"test"`` (one d6, it passes on at most ``target`` and stays normal),
    ``"artillery"`` (6.7.1: never pursues), ``"already"`` (pursuing already, 6.7.7) or
    ``"no_test"`` (panicking, 6.1.3)."""

    unit: str
    branch: str
    target: int | None
    pursuit_chance: Fraction
    rule: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (the chance as a fraction string and a float)."""
        return {
            "unit": self.unit,
            "branch": self.branch,
            "target": self.target,
            "pursuit_chance": str(self.pursuit_chance),
            "pursuit_probability": float(self.pursuit_chance),
            "rule": self.rule,
        }


@dataclass(frozen=True)
class DisengageRuling:
    """5.8 — one unit's disengagement: whom it leaves, its test, the enemies' pursuit tests and
    the move it makes when it passes (``move``: None when no legal move was found)."""

    unit: str
    enemies: tuple[str, ...]
    automatic: bool
    target: int
    pass_chance: Fraction
    pursuers: tuple[PursuitTest, ...]
    move: MoveReport | None
    found: bool
    """The move was found (away from the enemies, :func:`disengage`), not given."""
    rule: str | None
    """The first rule the move breaks (None: the disengagement may be made)."""
    message: str

    @property
    def legal(self) -> bool:
        """The move may be made when the test passes."""
        return self.rule is None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "unit": self.unit,
            "enemies": list(self.enemies),
            "automatic": self.automatic,
            "target": self.target,
            "pass_chance": str(self.pass_chance),
            "pass_probability": float(self.pass_chance),
            "pursuers": [p.to_json() for p in self.pursuers],
            "legal": self.legal,
            "rule": self.rule,
            "message": self.message,
            "found": self.found,
            "move": None if self.move is None else self.move.to_json(),
        }


def _pursuit_test(unit: MoraleUnit, ident: str) -> PursuitTest:
    results = step(unit, EventKind.OPPONENT_LEFT)
    pursuit = chance(results, MachineState.PURSUIT)
    outcomes = results.outcomes()
    if {r.branch for r in outcomes} <= {"passed", "failed"}:
        return PursuitTest(ident, "test", unit.target(), pursuit, "5.8.4")
    (only,) = outcomes
    return PursuitTest(ident, only.branch, None, pursuit, only.rule)


def _still_near(bf: Battlefield, unit: str, report: MoveReport, enemies: tuple[str, ...]) -> list[str]:
    """The enemies among ``enemies`` whose control zone (1.4.1: ``control_zone_cm`` round each
    base) a base of the unit is still in after ``report``'s move, touching them or not."""
    sc = bf.scenario
    bases = list(sc.unit(unit).bases)
    for b in report.bases:
        k = int(b.base.rpartition("/")[2])
        x, y, facing = b.poses[-1]
        bases[k] = bases[k].model_copy(update={"x": float(x), "y": float(y), "facing": float(facing)})
    units = tuple(u.model_copy(update={"bases": tuple(bases)}) if u.id == unit else u for u in sc.units)
    after = Battlefield(sc.model_copy(update={"units": units}), bf.settings)
    zone = after.settings.control_zone_cm - after.settings.distance_epsilon_cm
    _, near = after.tree.query(after.polygons[after.unit_bases(unit)], predicate="dwithin", distance=zone)
    found = {after.unit_ids[int(after.unit_of[t])] for t in near.tolist()}
    return [e for e in enemies if e in found]


def _away_from_all(bf: Battlefield, unit: str, enemies: tuple[str, ...]) -> tuple[float, float] | None:
    """Away from every enemy it leaves: the sum of the ways directly away from each (6.5's
    :func:`~szwadron.table.movement.away_direction`); None when they cancel out (it is beset
    from opposite sides), and the way away from the first is taken."""
    ways = [away_direction(bf, unit, e) for e in enemies]
    x, y = sum(w[0] for w in ways), sum(w[1] for w in ways)
    norm = math.hypot(x, y)
    return None if norm < 0.2 else (x / norm, y / norm)


def _the_move(
    bf: Battlefield,
    unit: str,
    move: MoveFile | Mapping[str, Any] | None,
    enemies: tuple[str, ...],
    source: str,
) -> tuple[MoveReport | None, str | None, str]:
    """5.8.2 — the move away (given, or found away from every enemy left, up to R or the table's
    edge), the first rule it breaks (None: none) and its message."""
    if move is None:
        report = repulse(
            bf, unit, enemies[0], leave_fire=False, direction=_away_from_all(bf, unit, enemies)
        ).report
    else:
        report = check_move(bf, unit, move, source=source)
    if report is None:
        return (
            None,
            "5.8.2",
            _("no legal move takes {unit} away from {enemy}: give its move with --to").format(
                unit=unit, enemy=enemies[0]
            ),
        )
    if not report.legal:
        return report, str(report.rule), report.message
    still = _still_near(bf, unit, report, enemies)
    if still:
        return (
            report,
            "5.8.2",
            _(
                "{unit} ends still in the control zone of {enemies}: a disengaging unit moves away from the enemy (5.8.2, 1.4.2)"
            ).format(unit=unit, enemies=", ".join(still)),
        )
    return report, None, report.message


def disengage(
    scenario: Scenario | Battlefield,
    unit: str,
    move: MoveFile | Mapping[str, Any] | None = None,
    *,
    source: str = "move",
) -> DisengageRuling:
    """5.8 — may ``unit`` disengage, with what chance, and where does it go?

    Parameters
    ----------
    scenario:
        The table (a built Battlefield is reused).
    unit:
        The engaged unit's id.
    move:
        Its move away when it passes (a move file's data); None: the move found away from every
        enemy it is engaged with (:func:`_away_from_all`), as a repulse's way is found.
    source:
        The move file's name in messages.

    Raises
    ------
    IllegalActionError
        The unit is not engaged (5.8.1), or panicking or pursuing (6.1.3, 6.1.4: the morale
        machine's refusals).
    InvalidArgumentError
        An unknown unit, or a base named instead of a unit.
    """
    bf = Battlefield.of(scenario)
    if unit not in bf.unit_ids:
        bf.resolve(unit)  # a clear message for an unknown name
        raise InvalidArgumentError(
            "unit",
            _("{unit!r} is a base; give the unit id {uid!r}").format(unit=unit, uid=unit.partition("/")[0]),
        )
    sc = bf.scenario
    u = sc.unit(unit)
    me = MoraleUnit.of(u, modifier=morale_modifier(bf, bf.unit_bases(unit)))  # PD-16
    results = step(me, EventKind.DISENGAGE)  # refuses a panicking or pursuing unit (6.1)
    enemies = engaged_enemies(bf, unit)
    if not enemies:
        raise IllegalActionError(
            "5.8.1",
            _("{unit} is not engaged in melee (5.1.2): there is nothing to disengage from").format(unit=unit),
        )
    passed = chance(results, MachineState.NORMAL)
    pursuers = tuple(
        _pursuit_test(MoraleUnit.of(sc.unit(e), modifier=morale_modifier(bf, bf.unit_bases(e))), e)
        for e in enemies
    )
    report, rule, message = _the_move(bf, unit, move, enemies, source)
    return DisengageRuling(
        unit,
        enemies,
        u.has(Ability.AUTO_DISENGAGE),
        me.target(),
        passed,
        pursuers,
        report,
        move is None,
        rule,
        message,
    )


__all__ = ["DisengageRuling", "PursuitTest", "disengage", "engaged_enemies"]
