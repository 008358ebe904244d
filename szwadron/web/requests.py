"""The requests the page sends (issue 18): one pydantic model per endpoint, validated with one
message naming the field (:func:`parse_request`). The questions (``check``, ``fire``, ``move`` ...)
are answered by :mod:`szwadron.web.session`; the actions of the game (``apply/*``, ``place``,
``terrain``) by :mod:`szwadron.web.play` and the session.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from szwadron.errors import InvalidDataError
from szwadron.formations import FormationKind
from szwadron.loading import validation_message
from szwadron.models import Coordinate, FiniteFloat, Identifier, Point, TerrainKind
from szwadron.table.combined import MAX_COMBINED_UNITS

#: A pose as the page sends it: ``[x, y, facing]`` (cm, cm, degrees counter-clockwise from +x).
Pose = tuple[Coordinate, Coordinate, FiniteFloat]

#: Digits kept of a coordinate the page sends (0.0001 cm): what is checked is what is saved.
POSE_DIGITS = 4


class _Request(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    positions: dict[Identifier, tuple[Pose, ...]] = Field(
        default_factory=dict, description="Units the page has moved: every base's [x, y, facing]."
    )


class CheckRequest(_Request):
    """``check``: the audit of the table as the page shows it."""


class MeasureRequest(_Request):
    """``measure``: edge to edge between two bases or units (4.5.2)."""

    a: str = Field(min_length=1, max_length=200)
    b: str = Field(min_length=1, max_length=200)


class TargetsRequest(_Request):
    """``targets``: every enemy unit the shooter could fire at, and the arcs of its bases."""

    shooter: str = Field(min_length=1, max_length=200)
    march: bool = False
    ammo: str | None = Field(None, max_length=200)


class FireRequest(TargetsRequest):
    """``fire``: the shooter at one target; ``declared``: the fire it declared in its own turn,
    in the opponent's movement phase (4.12.2-4.12.5, ``fire --reaction declared``); ``charged``:
    the fire at the first unit charging it (4.12.6, ``fire --reaction charged``); ``target_at``:
    the target's bases where it is fired at, a point of its move (4.12.3) or of its charge
    (``--target-at``)."""

    target: str = Field(min_length=1, max_length=200)
    declared: bool = False
    charged: bool = False
    target_at: tuple[Pose, ...] | None = Field(
        None,
        min_length=1,
        description="The target where it is fired at (4.12.3, 4.12.6): every base's [x, y, facing].",
    )


class MoveRequest(_Request):
    """``move``: ``positions`` is the table before the move, ``to`` the unit's new poses."""

    unit: str = Field(min_length=1, max_length=200)
    to: tuple[Pose, ...] = Field(min_length=1)
    charge: tuple[str, ...] = ()
    march: bool = False
    push_up: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="A push-up (5.6, ``move --push-up``) towards this enemy, the unit just fought.",
    )


class DisengageRequest(_Request):
    """``disengage`` (``move --disengage``, 5.8): ``positions`` is the table before the move,
    ``to`` the unit's poses the player dragged (none: the move found directly away from the
    enemy)."""

    unit: str = Field(min_length=1, max_length=200)
    to: tuple[Pose, ...] | None = Field(None, min_length=1)


class ReachRequest(_Request):
    """``reach``: can the unit bring a base into contact with the target this turn."""

    unit: str = Field(min_length=1, max_length=200)
    target: str = Field(min_length=1, max_length=200)


class MeleeRequest(_Request):
    """``melee``: the melee between two units in contact."""

    attacker: str = Field(min_length=1, max_length=200)
    defender: str = Field(min_length=1, max_length=200)
    continuing: bool = False


#: A unit's id as a request names it.
UnitName = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class CombinedMeleeRequest(_Request):
    """``melee-combined``: the combined melee of several units on a side (5.10, ``melee
    --attacker A B --defender D``); ``declare_defence``: the attackers declare defence in a
    continuing melee (5.7.4)."""

    attackers: tuple[UnitName, ...] = Field(min_length=1, max_length=MAX_COMBINED_UNITS)
    defenders: tuple[UnitName, ...] = Field(min_length=1, max_length=MAX_COMBINED_UNITS)
    continuing: bool = False
    declare_defence: bool = False


class MoraleRequest(_Request):
    """``morale``: the morale phase of one side."""

    side: Literal["A", "B"]


class SaveRequest(_Request):
    """Save the table as a scenario file in the scenario's folder."""

    name: str = Field(min_length=1, max_length=200)
    overwrite: bool = False


class OpenRequest(BaseModel):
    """Open another scenario file of the same folder."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=200)


_R = TypeVar("_R", bound=BaseModel)


def parse_request(model: type[_R], data: Any) -> _R:
    """Validate a request body; one message naming the field on failure."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise InvalidDataError(validation_message(exc, data), source="request") from None


#: Most dice a request may give for one action.
MAX_DICE = 2000

Die = int


class _Dice(BaseModel):
    """Dice typed in (in the order they are rolled) or rolled from a seed."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ApplyMoveRequest(MoveRequest):
    """Apply a move (section 3): ``positions`` the table before it, ``to`` the unit's poses; with
    ``push_up``, the push-up after a melee both stood (5.6), not an action."""


class ApplyFireRequest(FireRequest):
    """Apply a volley (section 4): the volley's d6 in the order of its groups, the remainder
    roll's die (1.5.1) and the morale test's dice (4.8.1), or a seed that rolls them all."""

    dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    remainder_dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    morale_dice: tuple[Die, ...] | None = Field(None, max_length=MAX_DICE)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ApplyDeclareRequest(_Request):
    """Declare fire in the opponent's turn (4.12.2, ``fire --declare --apply``): the unit's
    action in its own movement phase."""

    shooter: str = Field(min_length=1, max_length=200)


class ApplyMeleeRequest(MeleeRequest, _Dice):
    """Apply a melee (5.3-5.6): its dice in the order rolled, or a seed; ``pursue``: the side
    whose opponent is repulsed or panics chooses pursuit, no test (6.3.6, 5.5.8)."""

    pursue: bool = False


class ApplyCombinedMeleeRequest(CombinedMeleeRequest, _Dice):
    """Apply a combined melee (5.10, ``melee --attacker A B --defender D --apply``): its dice in
    the order rolled (``dice_order`` of the ``melee-combined`` answer), or a seed; ``pursue`` as
    in :class:`ApplyMeleeRequest`."""

    pursue: bool = False


class ApplyDisengageRequest(DisengageRequest, _Dice):
    """Apply a disengagement (5.8): its dice in the order rolled (the unit's test, each enemy's
    pursuit test, the flight's and each pursuit's 2d6), or a seed."""


class ApplyMoraleRequest(MoraleRequest, _Dice):
    """Apply a side's morale phase (6.8): its dice in the order rolled, or a seed."""


class NextPhaseRequest(_Request):
    """The game moves on to the next phase (2)."""


class UndoRequest(BaseModel):
    """Drop the last action of the game log."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class PlaceRequest(_Request):
    """A unit from an army list placed in a formation (issue 17's formations): ``(x, y)`` is the
    middle of its front edge."""

    army: Identifier
    profile: Identifier
    side: Literal["A", "B"]
    kind: FormationKind
    files: int = Field(ge=1, le=200)
    ranks: int = Field(1, ge=1, le=50)
    x: Coordinate
    y: Coordinate
    facing: FiniteFloat = 90.0
    gap: float | None = Field(None, ge=0, allow_inf_nan=False)
    limber: Identifier | None = None
    id: Identifier | None = None
    name: str | None = Field(None, max_length=200)


class TerrainAddRequest(_Request):
    """A terrain feature drawn on the page: an area (``polygon``) or a linear one (``line`` and
    ``width``)."""

    kind: TerrainKind
    id: Identifier | None = None
    name: str | None = Field(None, max_length=200)
    level: int | None = Field(None, ge=0, le=10)
    polygon: tuple[Point, ...] | None = Field(None, max_length=500)
    line: tuple[Point, ...] | None = Field(None, max_length=500)
    width: float | None = Field(None, gt=0, le=100, allow_inf_nan=False)


class TerrainEditRequest(_Request):
    """A terrain feature's corners moved: its new ``polygon`` or ``line``."""

    id: Identifier
    polygon: tuple[Point, ...] | None = Field(None, max_length=500)
    line: tuple[Point, ...] | None = Field(None, max_length=500)


class TerrainDeleteRequest(_Request):
    """A terrain feature removed."""

    id: Identifier
