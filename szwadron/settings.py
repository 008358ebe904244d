"""Rules settings: every number the rulebook leaves open, with the project decisions' defaults.

Each field cites the rule or project decision (PD-n, ``docs/decisions.md``) that fixes it.
A scenario's ``[settings]`` table and command-line flags override the defaults::

    >>> s = RulesSettings()
    >>> s.contact_tolerance_cm, s.remainder_die
    (0.05, 'd6')
    >>> s.model_copy(update={"remainder_die": "d10"}).remainder_die
    'd10'
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, model_validator

from szwadron.i18n import _
from szwadron.limits import MAX_CM

Number = Annotated[float, Strict()]
"""A number in a file: an integer or a float; ``true``/``false`` and quoted text are refused."""
WholeNumber = Annotated[int, Strict()]
"""A whole number in a file: ``2``; ``2.5``, ``true`` and quoted text are refused."""
Flag = Annotated[bool, Strict()]
"""``true`` or ``false`` in a file: ``1``, ``0`` and ``"yes"`` are refused."""

#: Largest whole-number setting (W bonuses, levels, multipliers, penalties).
MAX_INT_SETTING = 1000

Cm = Annotated[Number, Field(le=MAX_CM)]
"""A distance setting in cm: at most :data:`~szwadron.limits.MAX_CM`."""
Whole = Annotated[WholeNumber, Field(le=MAX_INT_SETTING)]
"""A whole-number setting: at most :data:`MAX_INT_SETTING`."""

RemainderDie = Literal["d6", "d10"]


class RulesSettings(BaseModel):
    """The numbers of the rules that a user may override. Distances in cm."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    # --- geometry of contact (PD-3, PD-14, 5.1.2) -------------------------------------------
    contact_tolerance_cm: Cm = Field(0.05, ge=0, description="PD-3: boundaries within this distance touch.")
    overlap_tolerance_cm: Cm = Field(
        0.05, ge=0, description="PD-3: interiors overlapping deeper than this are an illegal overlap."
    )
    distance_epsilon_cm: Cm = Field(
        1e-6, ge=0, description="PD-3: numerical epsilon for distance limits (2 cm, 4 cm, 10 cm, Z)."
    )
    min_contact_length_cm: Cm = Field(
        1.0, gt=0, description="PD-14, 5.3: boundary length touching the enemy to be in contact."
    )
    engaged_contact_length_cm: Cm = Field(
        1.0, gt=0, description="5.1.2: half an infantry base of contact makes a unit engaged."
    )
    # --- formation and zones (1.3, 1.4, 7.5) ---------------------------------------------
    control_zone_cm: Cm = Field(2.0, ge=0, description="1.4.1: control zone radius.")
    skirmish_gap_cm: Cm = Field(4.0, ge=0, description="1.3.4, 7.5: largest skirmish gap.")
    skirmish_open_order_cm: Cm = Field(
        2.0, ge=0, description="PD-17, 7.5: every nearest-neighbour gap at least this halves losses."
    )
    # --- dice (1.5.1, PD-5) ------------------------------------------------------------
    remainder_die: RemainderDie = Field("d6", description="PD-5: die for the remainder roll.")
    # --- fire (4.5, 4.10, 7.4) ------------------------------------------------------
    range_band_cm: Cm = Field(20.0, gt=0, description="4.5.4: C - 1 per full band of distance.")
    hill_fire_near_cm: Cm = Field(
        6.0, ge=0, description="4.10.1: firing up a hill, own-level figures this close block."
    )
    forest_block_height: Whole = Field(
        2, ge=0, description="4.10.2, PD-11: forests block as a hill of this level."
    )
    forest_see_into_cm: Cm = Field(
        2.0, ge=0, description="4.10.2: this much forest on the line blocks sight from/into a forest."
    )
    forest_cover_w: Whole = Field(1, ge=0, description="4.10.2: W bonus inside a forest.")
    rough_cover_w: Whole = Field(1, ge=0, description="4.10.3: W bonus inside bushes or rubble.")
    obstacle_cover_w: Whole = Field(1, ge=0, description="4.10.4, PD-12: W bonus behind an obstacle.")
    building_cover_w: Whole = Field(2, ge=0, description="4.10.5: W bonus inside a building.")
    high_wall_cover_w: Whole = Field(1, ge=0, description="4.10.6, PD-12: W bonus touching a high wall.")
    indirect_min_friend_cm: Cm = Field(
        6.0, ge=0, description="7.4: no own figure on the line of fire closer than this."
    )
    indirect_accuracy_penalty: Whole = Field(1, ge=0, description="7.4: indirect fire C - 1.")
    # --- movement (3.2) --------------------------------------------------------------
    hill_climb_cm: Cm = Field(6.0, ge=0, description="3.2.1: extra cost of going up a hill.")
    rough_cost_factor: Cm = Field(2.0, ge=1, description="3.2.2: each cm in rough ground costs this.")
    obstacle_crossing_cm: Cm = Field(4.0, ge=0, description="3.2.3: extra cost of crossing.")
    building_entry_cm: Cm = Field(4.0, ge=0, description="3.2.5: cost of entering a building.")
    building_exit_cm: Cm = Field(4.0, ge=0, description="3.2.5: cost of leaving a building.")
    push_up_cm: Cm = Field(4.0, ge=0, description="5.6: longest push-up move.")
    # --- melee terrain (PD-15) -----------------------------------------------------------
    melee_obstacle_w: Whole = Field(1, ge=0, description="PD-15: W bonus behind an obstacle in melee.")
    melee_uphill_w: Whole = Field(1, ge=0, description="PD-15: W bonus uphill of the attacker.")
    melee_building_w: Whole = Field(2, ge=0, description="PD-15: W bonus in a building/fortification.")
    # --- morale (6.2, PD-16, 6.6, 6.8) ---------------------------------------------------
    fortification_morale_bonus: WholeNumber = Field(
        1, description="PD-16: morale modifier in a fortification."
    )
    terrain_morale_bonus: WholeNumber = Field(
        1, description="PD-16: morale modifier in advantageous terrain."
    )
    reorganise_enemy_cm: Cm = Field(
        10.0, ge=0, description="6.8: no enemy within this distance to try to reorganise."
    )
    surrender_enemy_cm: Cm = Field(
        10.0, ge=0, description="6.6: blocked flight with enemies this close surrenders."
    )
    flight_multiplier_infantry: Whole = Field(2, ge=0, description="6.6: flight 2d6 x this cm.")
    flight_multiplier_cavalry: Whole = Field(4, ge=0, description="6.6: flight 2d6 x this cm.")
    flight_multiplier_foot_artillery: Whole = Field(1, ge=0, description="6.6: flight 2d6 x this cm.")
    flight_multiplier_horse_artillery: Whole = Field(3, ge=0, description="6.6: flight 2d6 x this cm.")
    pursuit_multiplier_infantry: Whole = Field(2, ge=0, description="6.7: pursuit 2d6 x this cm.")
    pursuit_multiplier_cavalry: Whole = Field(4, ge=0, description="6.7: pursuit 2d6 x this cm.")

    def flight_multiplier(self, kind: str) -> int:
        """6.6.2 — cm per pip of 2d6 a fleeing unit of ``kind`` (a :class:`szwadron.models.Kind`
        value) runs. Decision: a limber flees like horse artillery. Whether a foot battery of R 0
        flees at all is the caller's question (6.6.2: only if its R > 0).

        >>> [RulesSettings().flight_multiplier(k) for k in ("infantry", "cavalry", "foot_artillery", "limber")]
        [2, 4, 1, 3]
        """
        return {
            "infantry": self.flight_multiplier_infantry,
            "cavalry": self.flight_multiplier_cavalry,
            "foot_artillery": self.flight_multiplier_foot_artillery,
            "horse_artillery": self.flight_multiplier_horse_artillery,
            "limber": self.flight_multiplier_horse_artillery,
        }[str(kind)]

    @model_validator(mode="after")
    def _epsilon_is_small(self) -> RulesSettings:
        # a contact shorter than the epsilon would count as none (PD-14): keep it far below both
        for name in ("min_contact_length_cm", "engaged_contact_length_cm"):
            if self.distance_epsilon_cm * 10 > getattr(self, name):
                raise ValueError(
                    "distance_epsilon_cm: "
                    + _(
                        "{value} is a numerical tolerance; it must be at most a tenth of {name} ({limit})"
                    ).format(
                        value=f"{self.distance_epsilon_cm:g}", name=name, limit=f"{getattr(self, name):g}"
                    )
                )
        return self


DEFAULT_SETTINGS = RulesSettings()

__all__ = ["DEFAULT_SETTINGS", "Flag", "Number", "RemainderDie", "RulesSettings", "WholeNumber"]
