"""szwadron — the table, the odds and the points of the Szwadron Napoleonic miniatures rules.

The package is layered by concern, and imports run one way (``lint-imports`` checks it in CI;
docs/decisions.md "Layers")::

    cli                                    the command line: parses, calls the library, prints
    plots                                  pictures of every answer (matplotlib)
    table/        armies/                  rulings at the table | army lists, points, battles
    geometry/     odds/                    bases, contact, arcs, sight | exact dice distributions
    movefile, loading, models              files in, validated data models
    settings, files, limits, errors,       the ground: rules settings, atomic writes, bounds, errors,
    rulings                                the one type of every "no" (rule, message, where)

Every public name of the library is re-exported here, flat (``from szwadron import Battlefield,
fire, volley``). They are loaded lazily on first use, so ``import szwadron`` and the command line
start fast; ``szwadron.MODULE`` still works for the modules themselves.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: The one place the version is written: pyproject.toml reads it ([tool.hatch.version]).
__version__ = "0.1.0"

#: Version of the layout of every ``--json`` document (its first key, ``"schema_version"``): it
#: grows when a key is removed or renamed or changes meaning, not when one is added. The documents'
#: JSON Schemas are in ``schemas/output/`` (:mod:`szwadron.documents`).
SCHEMA_VERSION = 1

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    "AmbiguousSituationError": "szwadron.errors",
    "IllegalActionError": "szwadron.errors",
    "InvalidArgumentError": "szwadron.errors",
    "InvalidDataError": "szwadron.errors",
    "Ruling": "szwadron.rulings",
    "ToJson": "szwadron.rulings",
    "SzwadronError": "szwadron.errors",
    "MAX_CM": "szwadron.limits",
    "MAX_DICE": "szwadron.limits",
    "MAX_DICE_PER_FIGURE": "szwadron.limits",
    "MAX_LEVEL": "szwadron.limits",
    "MAX_MELEE_FIGURES": "szwadron.limits",
    "MAX_REACH_GRID_POINTS": "szwadron.limits",
    "MAX_TABLE_CM": "szwadron.limits",
    "MAX_WOUNDS": "szwadron.limits",
    "DEFAULT_SETTINGS": "szwadron.settings",
    "RemainderDie": "szwadron.settings",
    "RulesSettings": "szwadron.settings",
    "check_output_path": "szwadron.files",
    "write_atomic": "szwadron.files",
    "AMMUNITION_CODES": "szwadron.models",
    "Ability": "szwadron.models",
    "Ammunition": "szwadron.models",
    "ArmyList": "szwadron.models",
    "Attachment": "szwadron.models",
    "BasePose": "szwadron.models",
    "DEFAULT_BASE_SIZE_CM": "szwadron.models",
    "Kind": "szwadron.models",
    "PROFILE_CODES": "szwadron.models",
    "Profile": "szwadron.models",
    "Roster": "szwadron.models",
    "RosterConstraint": "szwadron.models",
    "RosterEntry": "szwadron.models",
    "RosterFile": "szwadron.models",
    "Scenario": "szwadron.models",
    "ShareOf": "szwadron.models",
    "Table": "szwadron.models",
    "Terrain": "szwadron.models",
    "TerrainKind": "szwadron.models",
    "Unit": "szwadron.models",
    "UnitState": "szwadron.models",
    "ProfileResolver": "szwadron.loading",
    "army_list_search_path": "szwadron.loading",
    "bundled_dir": "szwadron.loading",
    "bundled_scenario": "szwadron.loading",
    "find_army_list": "szwadron.loading",
    "format_location": "szwadron.loading",
    "load_army_list": "szwadron.loading",
    "load_scenario": "szwadron.loading",
    "open_army_list": "szwadron.loading",
    "parse_scenario": "szwadron.loading",
    "read_toml": "szwadron.loading",
    "validation_message": "szwadron.loading",
    "MoveFile": "szwadron.movefile",
    "MovePose": "szwadron.movefile",
    "load_move_file": "szwadron.movefile",
    "BalanceReport": "szwadron.armies.balance",
    "SideSummary": "szwadron.armies.balance",
    "Suggestion": "szwadron.armies.balance",
    "balance": "szwadron.armies.balance",
    "predicted_chance": "szwadron.armies.balance",
    "suggestions": "szwadron.armies.balance",
    "summarise": "szwadron.armies.balance",
    "ArmySteepness": "szwadron.armies.battles",
    "BATTLE_TASK_SIZE": "szwadron.armies.battles",
    "BattleSpec": "szwadron.armies.battles",
    "DEFAULT_BATTLES": "szwadron.armies.battles",
    "Force": "szwadron.armies.battles",
    "ForceUnit": "szwadron.armies.battles",
    "PairResult": "szwadron.armies.battles",
    "PlainForce": "szwadron.armies.battles",
    "PointsFn": "szwadron.armies.battles",
    "RANDOM_ARMY_SHARES": "szwadron.armies.battles",
    "RANDOM_UNIT_FIGURES": "szwadron.armies.battles",
    "RosterCell": "szwadron.armies.battles",
    "RosterSide": "szwadron.armies.battles",
    "RosterValidation": "szwadron.armies.battles",
    "SHARE_CONCENTRATION": "szwadron.armies.battles",
    "SIZE_CHECK": "szwadron.armies.battles",
    "STEEPNESS_EXPONENTS": "szwadron.armies.battles",
    "STEEPNESS_SCALES": "szwadron.armies.battles",
    "SizeEffect": "szwadron.armies.battles",
    "battle_pair": "szwadron.armies.battles",
    "fit_army_steepness": "szwadron.armies.battles",
    "force_points": "szwadron.armies.battles",
    "mixed_battle_design": "szwadron.armies.battles",
    "play": "szwadron.armies.battles",
    "profile_class": "szwadron.armies.battles",
    "random_force": "szwadron.armies.battles",
    "resampled_force": "szwadron.armies.battles",
    "resized_force": "szwadron.armies.battles",
    "roster_force": "szwadron.armies.battles",
    "roster_points": "szwadron.armies.battles",
    "run_battle_batch": "szwadron.armies.battles",
    "size_check_cases": "szwadron.armies.battles",
    "unit_size_effect": "szwadron.armies.battles",
    "validate_rosters": "szwadron.armies.battles",
    "ArmyObservation": "szwadron.armies.calibrate",
    "BAND": "szwadron.armies.calibrate",
    "BUDGET_FIGURES": "szwadron.armies.calibrate",
    "CORRECTION_RIDGE": "szwadron.armies.calibrate",
    "CalibrationConfig": "szwadron.armies.calibrate",
    "CalibrationResult": "szwadron.armies.calibrate",
    "Cell": "szwadron.armies.calibrate",
    "DuelProfile": "szwadron.armies.calibrate",
    "FEATURES": "szwadron.armies.calibrate",
    "FITTED_KIND_TERMS": "szwadron.armies.calibrate",
    "Fit": "szwadron.armies.calibrate",
    "INITIAL_MODEL": "szwadron.armies.calibrate",
    "Intransitivity": "szwadron.armies.calibrate",
    "MELEE_WEIGHT_GRID": "szwadron.armies.calibrate",
    "Observation": "szwadron.armies.calibrate",
    "Regenerated": "szwadron.armies.calibrate",
    "UNMEASURED_ABILITIES": "szwadron.armies.calibrate",
    "Validation": "szwadron.armies.calibrate",
    "army_list_paths": "szwadron.armies.calibrate",
    "calibrate": "szwadron.armies.calibrate",
    "design": "szwadron.armies.calibrate",
    "duel_profiles": "szwadron.armies.calibrate",
    "feature_vector": "szwadron.armies.calibrate",
    "features": "szwadron.armies.calibrate",
    "fit_corrections": "szwadron.armies.calibrate",
    "fit_logistic": "szwadron.armies.calibrate",
    "fit_model": "szwadron.armies.calibrate",
    "load_lists": "szwadron.armies.calibrate",
    "regenerate": "szwadron.armies.calibrate",
    "roster_costs": "szwadron.armies.calibrate",
    "run_duel_batch": "szwadron.armies.calibrate",
    "run_duels": "szwadron.armies.calibrate",
    "ADVANCE_GAP_CM": "szwadron.armies.duel",
    "BATTLE_FLIGHT": "szwadron.armies.duel",
    "MAX_BATTLE_ROUNDS": "szwadron.armies.duel",
    "TABLE_DEPTH_CM": "szwadron.armies.duel",
    "Action": "szwadron.armies.duel",
    "ArmyEntry": "szwadron.armies.duel",
    "BattleConditions": "szwadron.armies.duel",
    "CALIBRATION_CONDITIONS": "szwadron.armies.duel",
    "BattleFlight": "szwadron.armies.duel",
    "BattleResult": "szwadron.armies.duel",
    "Duel": "szwadron.armies.duel",
    "DuelResult": "szwadron.armies.duel",
    "DuelUnit": "szwadron.armies.duel",
    "MAX_ROUNDS": "szwadron.armies.duel",
    "OPEN_ORDER_GAP_CM": "szwadron.armies.duel",
    "Pairing": "szwadron.armies.duel",
    "PAIRINGS": "szwadron.armies.duel",
    "TARGET_POLICIES": "szwadron.armies.duel",
    "BattleUnit": "szwadron.armies.duel",
    "check_pairing": "szwadron.armies.duel",
    "choose_targets": "szwadron.armies.duel",
    "target_prospect": "szwadron.armies.duel",
    "target_threat": "szwadron.armies.duel",
    "STANDARD_SKIRMISH_FIGURES": "szwadron.armies.duel",
    "STANDARD_UNIT_FIGURES": "szwadron.armies.duel",
    "START_DISTANCE_CM": "szwadron.armies.duel",
    "Side": "szwadron.armies.duel",
    "Weapon": "szwadron.armies.duel",
    "battle_flight_multiplier": "szwadron.armies.duel",
    "best_weapon": "szwadron.armies.duel",
    "choose_action": "szwadron.armies.duel",
    "melee_score": "szwadron.armies.duel",
    "modified_accuracy": "szwadron.armies.duel",
    "rally_chance": "szwadron.armies.duel",
    "run_army_battle": "szwadron.armies.duel",
    "run_battle": "szwadron.armies.duel",
    "run_duel": "szwadron.armies.duel",
    "split_units": "szwadron.armies.duel",
    "standard_unit_figures": "szwadron.armies.duel",
    "ABILITY_TERMS": "szwadron.armies.points",
    "CONTINUOUS_TERMS": "szwadron.armies.points",
    "FIRE_DISTANCES_CM": "szwadron.armies.points",
    "KIND_TERMS": "szwadron.armies.points",
    "MAX_CORRECTION": "szwadron.armies.points",
    "MEASURED_TERM": "szwadron.armies.points",
    "MODEL_PATH": "szwadron.armies.points",
    "PointsBreakdown": "szwadron.armies.points",
    "PointsModel": "szwadron.armies.points",
    "ProfileValues": "szwadron.armies.points",
    "REFERENCE_POINTS": "szwadron.armies.points",
    "REFERENCE_PROFILE": "szwadron.armies.points",
    "StalePoints": "szwadron.armies.points",
    "Term": "szwadron.armies.points",
    "format_points": "szwadron.armies.points",
    "load_model": "szwadron.armies.points",
    "model_from_mapping": "szwadron.armies.points",
    "model_points": "szwadron.armies.points",
    "price_army": "szwadron.armies.points",
    "price_profile": "szwadron.armies.points",
    "profile_key": "szwadron.armies.points",
    "profile_values": "szwadron.armies.points",
    "set_points_in_text": "szwadron.armies.points",
    "stale_points": "szwadron.armies.points",
    "write_points": "szwadron.armies.points",
    "Breach": "szwadron.armies.rosters",
    "LIMBERS_ID": "szwadron.armies.rosters",
    "LIMBERS_RULE": "szwadron.armies.rosters",
    "POINTS_LIMIT_ID": "szwadron.armies.rosters",
    "RosterReport": "szwadron.armies.rosters",
    "Unchecked": "szwadron.armies.rosters",
    "load_roster": "szwadron.armies.rosters",
    "parse_roster": "szwadron.armies.rosters",
    "validate_roster": "szwadron.armies.rosters",
    "ProgressFn": "szwadron.armies.runs",
    "TASK_SIZE": "szwadron.armies.runs",
    "Tally": "szwadron.armies.runs",
    "default_workers": "szwadron.armies.runs",
    "run_tasks": "szwadron.armies.runs",
    "wilson_interval": "szwadron.armies.runs",
    "ARC_RELATIVE_EPSILON": "szwadron.geometry.arcs",
    "FRONT": "szwadron.geometry.arcs",
    "arc_angles": "szwadron.geometry.arcs",
    "arc_of": "szwadron.geometry.arcs",
    "edge_contact_lengths": "szwadron.geometry.arcs",
    "fire_edges": "szwadron.geometry.arcs",
    "in_arcs": "szwadron.geometry.arcs",
    "touched_edges": "szwadron.geometry.arcs",
    "BaseShape": "szwadron.geometry.bases",
    "CORNER_NAMES": "szwadron.geometry.bases",
    "EDGE_NAMES": "szwadron.geometry.bases",
    "Edge": "szwadron.geometry.bases",
    "ZONE_QUAD_SEGS": "szwadron.geometry.bases",
    "base_corners": "szwadron.geometry.bases",
    "base_polygons": "szwadron.geometry.bases",
    "control_zones": "szwadron.geometry.bases",
    "edge_normals": "szwadron.geometry.bases",
    "edge_segments": "szwadron.geometry.bases",
    "facing_vectors": "szwadron.geometry.bases",
    "polygons_from_corners": "szwadron.geometry.bases",
    "Battlefield": "szwadron.geometry.battlefield",
    "Measurement": "szwadron.geometry.battlefield",
    "PairMethod": "szwadron.geometry.battlefield",
    "CONTACT_TOLERANCE_CM": "szwadron.geometry.contact",
    "DISTANCE_EPSILON_CM": "szwadron.geometry.contact",
    "OVERLAP_TOLERANCE_CM": "szwadron.geometry.contact",
    "contact_length": "szwadron.geometry.contact",
    "penetration_depth": "szwadron.geometry.contact",
    "polygon_distance": "szwadron.geometry.contact",
    "touching": "szwadron.geometry.contact",
    "BaseMotion": "szwadron.geometry.paths",
    "Leg": "szwadron.geometry.paths",
    "Pose": "szwadron.geometry.paths",
    "SAMPLE_STEP_CM": "szwadron.geometry.paths",
    "SWEEP_SAGITTA_CM": "szwadron.geometry.paths",
    "Surcharge": "szwadron.geometry.paths",
    "terrain_surcharges": "szwadron.geometry.paths",
    "turn_between": "szwadron.geometry.paths",
    "BLOCK_RULE": "szwadron.geometry.sight",
    "Blocked": "szwadron.geometry.sight",
    "CoverSource": "szwadron.geometry.sight",
    "SIGHT_BLOCKING_KINDS": "szwadron.geometry.sight",
    "TerrainSight": "szwadron.geometry.sight",
    "band_corners": "szwadron.geometry.sight",
    "centre_features": "szwadron.geometry.sight",
    "check_sight": "szwadron.geometry.sight",
    "cover": "szwadron.geometry.sight",
    "figure_blocks": "szwadron.geometry.sight",
    "hidden_by_own_unit": "szwadron.geometry.sight",
    "inset_corners": "szwadron.geometry.sight",
    "lines_one": "szwadron.geometry.sight",
    "segment_clip": "szwadron.geometry.sight",
    "segment_crosses": "szwadron.geometry.sight",
    "terrain_blocks": "szwadron.geometry.sight",
    "CROSSABLE_OBSTACLE_KINDS": "szwadron.geometry.terrain",
    "IMPASSABLE_KINDS": "szwadron.geometry.terrain",
    "LEVEL_KINDS": "szwadron.geometry.terrain",
    "TerrainShape": "szwadron.geometry.terrain",
    "forbidden_rule": "szwadron.geometry.terrain",
    "level_at": "szwadron.geometry.terrain",
    "obstacle_width": "szwadron.geometry.terrain",
    "terrain_polygon": "szwadron.geometry.terrain",
    "terrain_polygons": "szwadron.geometry.terrain",
    "terrain_shapes": "szwadron.geometry.terrain",
    "COMBAT_DIE_SIDES": "szwadron.odds.combat",
    "Fighter": "szwadron.odds.combat",
    "FireGroup": "szwadron.odds.combat",
    "GroupRoll": "szwadron.odds.combat",
    "MeleeOdds": "szwadron.odds.combat",
    "MeleeRoll": "szwadron.odds.combat",
    "MeleeSide": "szwadron.odds.combat",
    "RolledRemoval": "szwadron.odds.combat",
    "VolleyOdds": "szwadron.odds.combat",
    "VolleyRoll": "szwadron.odds.combat",
    "clear_caches": "szwadron.odds.combat",
    "melee": "szwadron.odds.combat",
    "removal_weights": "szwadron.odds.combat",
    "roll_dice": "szwadron.odds.combat",
    "roll_melee": "szwadron.odds.combat",
    "roll_removal": "szwadron.odds.combat",
    "roll_volley": "szwadron.odds.combat",
    "volley": "szwadron.odds.combat",
    "Distribution": "szwadron.odds.dice",
    "clamp": "szwadron.odds.dice",
    "d": "szwadron.odds.dice",
    "hit_weights": "szwadron.odds.dice",
    "hits": "szwadron.odds.dice",
    "Event": "szwadron.odds.machine",
    "EventKind": "szwadron.odds.machine",
    "MACHINE": "szwadron.odds.machine",
    "MachineState": "szwadron.odds.machine",
    "MoraleUnit": "szwadron.odds.machine",
    "Refusal": "szwadron.odds.machine",
    "Result": "szwadron.odds.machine",
    "StateMachine": "szwadron.odds.machine",
    "Transition": "szwadron.odds.machine",
    "chance": "szwadron.odds.machine",
    "melee_step": "szwadron.odds.machine",
    "state_distribution": "szwadron.odds.machine",
    "step": "szwadron.odds.machine",
    "CasualtyTest": "szwadron.odds.morale",
    "FireOutcome": "szwadron.odds.morale",
    "MORALE_DIE_SIDES": "szwadron.odds.morale",
    "MeleeMorale": "szwadron.odds.morale",
    "MeleeOutcome": "szwadron.odds.morale",
    "MoraleRoll": "szwadron.odds.morale",
    "casualty_modifier": "szwadron.odds.morale",
    "casualty_test": "szwadron.odds.morale",
    "fire_outcome": "szwadron.odds.morale",
    "melee_outcomes": "szwadron.odds.morale",
    "melee_sequence": "szwadron.odds.morale",
    "morale_pass_chance": "szwadron.odds.morale",
    "morale_target": "szwadron.odds.morale",
    "roll_casualty_test": "szwadron.odds.morale",
    "roll_melee_sequence": "szwadron.odds.morale",
    "roll_test": "szwadron.odds.morale",
    "D6_TWO_THIRDS_MISPRINT": "szwadron.odds.remainder",
    "DIE_SIDES": "szwadron.odds.remainder",
    "DieName": "szwadron.odds.remainder",
    "RemainderRoll": "szwadron.odds.remainder",
    "die_sides": "szwadron.odds.remainder",
    "remainder_chance": "szwadron.odds.remainder",
    "remainder_roll": "szwadron.odds.remainder",
    "remainder_row_json": "szwadron.odds.remainder",
    "remainder_table": "szwadron.odds.remainder",
    "EVENT_SHORT": "szwadron.plots.machine",
    "NODE_COLOURS": "szwadron.plots.machine",
    "NODE_POSITIONS": "szwadron.plots.machine",
    "UnitBranches": "szwadron.plots.machine",
    "plot_morale_machine": "szwadron.plots.machine",
    "unit_branches": "szwadron.plots.machine",
    "OUTCOME_COLOURS": "szwadron.plots.odds",
    "melee_side_outcomes": "szwadron.plots.odds",
    "plot_distribution": "szwadron.plots.odds",
    "plot_flight_chances": "szwadron.plots.odds",
    "plot_joint_losses": "szwadron.plots.odds",
    "plot_melee": "szwadron.plots.odds",
    "plot_melee_outcomes": "szwadron.plots.odds",
    "plot_morale_outcomes": "szwadron.plots.odds",
    "plot_volley": "szwadron.plots.odds",
    "trim_pmf": "szwadron.plots.odds",
    "volley_title": "szwadron.plots.odds",
    "ARC_COLOURS": "szwadron.plots.overlays",
    "BLOCKED_COLOUR": "szwadron.plots.overlays",
    "CLEAR_COLOUR": "szwadron.plots.overlays",
    "FLIGHT_COLOUR": "szwadron.plots.overlays",
    "FOCUS_MARGIN_CM": "szwadron.plots.overlays",
    "FOCUS_MARGIN_FRACTION": "szwadron.plots.overlays",
    "FOCUS_MIN_SPAN_CM": "szwadron.plots.overlays",
    "PATH_COLOUR": "szwadron.plots.overlays",
    "SightLine": "szwadron.plots.overlays",
    "arc_geometries": "szwadron.plots.overlays",
    "fire_geometries": "szwadron.plots.overlays",
    "fire_range": "szwadron.plots.overlays",
    "flight_geometries": "szwadron.plots.overlays",
    "focus_region": "szwadron.plots.overlays",
    "move_geometries": "szwadron.plots.overlays",
    "plot_arcs": "szwadron.plots.overlays",
    "plot_fire": "szwadron.plots.overlays",
    "plot_flight": "szwadron.plots.overlays",
    "plot_melee_contacts": "szwadron.plots.overlays",
    "plot_move": "szwadron.plots.overlays",
    "plot_reach": "szwadron.plots.overlays",
    "reach_geometries": "szwadron.plots.overlays",
    "sight_lines": "szwadron.plots.overlays",
    "unit_geometry": "szwadron.plots.overlays",
    "TERM_COLOURS": "szwadron.plots.points",
    "plot_breakdown": "szwadron.plots.points",
    "plot_breakdown_file": "szwadron.plots.points",
    "plot_matrix": "szwadron.plots.points",
    "plot_matrix_file": "szwadron.plots.points",
    "plot_roster_matrix": "szwadron.plots.points",
    "Region": "szwadron.plots.table",
    "SIDE_COLOURS": "szwadron.plots.table",
    "SideColours": "szwadron.plots.table",
    "TerrainStyle": "szwadron.plots.table",
    "ZORDER": "szwadron.plots.table",
    "as_battlefield": "szwadron.plots.table",
    "contact_geometry": "szwadron.plots.table",
    "draw_legend": "szwadron.plots.table",
    "geometry_path": "szwadron.plots.table",
    "hill_colour": "szwadron.plots.table",
    "legend_entry": "szwadron.plots.table",
    "parse_region": "szwadron.plots.table",
    "place_label": "szwadron.plots.table",
    "plot_bases": "szwadron.plots.table",
    "plot_contacts": "szwadron.plots.table",
    "plot_labels": "szwadron.plots.table",
    "plot_scale_bar": "szwadron.plots.table",
    "plot_table": "szwadron.plots.table",
    "plot_terrain": "szwadron.plots.table",
    "plot_zones": "szwadron.plots.table",
    "setup_table_axes": "szwadron.plots.table",
    "table_figsize": "szwadron.plots.table",
    "table_view": "szwadron.plots.table",
    "terrain_style": "szwadron.plots.table",
    "unit_zone": "szwadron.plots.table",
    "AuditReport": "szwadron.table.audit",
    "Contact": "szwadron.table.audit",
    "ForbiddenTerrain": "szwadron.table.audit",
    "Overlap": "szwadron.table.audit",
    "Problem": "szwadron.table.audit",
    "UnitReport": "szwadron.table.audit",
    "ZoneIntrusion": "szwadron.table.audit",
    "audit": "szwadron.table.audit",
    "connected_groups": "szwadron.table.audit",
    "engaged_unit_pairs": "szwadron.table.audit",
    "obstacle_zone_core": "szwadron.table.audit",
    "FireLine": "szwadron.table.fire.results",
    "FireResult": "szwadron.table.fire.results",
    "MoraleTest": "szwadron.table.fire.results",
    "Reaction": "szwadron.table.fire.results",
    "ReactionKind": "szwadron.table.fire.results",
    "Reason": "szwadron.table.fire.results",
    "ShooterReport": "szwadron.table.fire.results",
    "TargetReport": "szwadron.table.fire.results",
    "TargetsReport": "szwadron.table.fire.results",
    "fire": "szwadron.table.fire.question",
    "removal_order": "szwadron.table.fire.removal",
    "targets": "szwadron.table.fire.ranking",
    "Fighting": "szwadron.table.melee",
    "PushStep": "szwadron.table.melee",
    "StrikeGroup": "szwadron.table.melee",
    "TableMelee": "szwadron.table.melee",
    "table_melee": "szwadron.table.melee",
    "CasualtyRow": "szwadron.table.morale_phase",
    "FigureFlight": "szwadron.table.morale_phase",
    "MoralePhaseReport": "szwadron.table.morale_phase",
    "PassThrough": "szwadron.table.morale_phase",
    "PursuitReport": "szwadron.table.morale_phase",
    "TWO_D6": "szwadron.table.morale_phase",
    "UnitCasualtyTests": "szwadron.table.morale_phase",
    "UnitMorale": "szwadron.table.morale_phase",
    "chance_at_least": "szwadron.table.morale_phase",
    "chance_more_than": "szwadron.table.morale_phase",
    "first_contact": "szwadron.table.morale_phase",
    "flight_distribution": "szwadron.table.morale_phase",
    "flight_multiplier": "szwadron.table.morale_phase",
    "morale_phase": "szwadron.table.morale_phase",
    "pursuit_distribution": "szwadron.table.morale_phase",
    "AfterFire": "szwadron.table.movement",
    "BaseMove": "szwadron.table.movement",
    "MoveReport": "szwadron.table.movement",
    "REPULSE_DEFLECTIONS_DEG": "szwadron.table.movement",
    "RepulseCheck": "szwadron.table.movement",
    "Violation": "szwadron.table.movement",
    "away_direction": "szwadron.table.movement",
    "check_move": "szwadron.table.movement",
    "place": "szwadron.table.movement",
    "repulse": "szwadron.table.movement",
    "PursuitWay": "szwadron.table.pursuit",
    "pursuit_way": "szwadron.table.pursuit",
    "CLEARANCE_CM": "szwadron.table.reach",
    "ReachMethod": "szwadron.table.reach",
    "ReachResult": "szwadron.table.reach",
    "reach": "szwadron.table.reach",
    # the game from turn to turn (issue 17)
    "Formation": "szwadron.models",
    "Phase": "szwadron.models",
    "Turn": "szwadron.models",
    "UnitAction": "szwadron.models",
    "FormationKind": "szwadron.formations",
    "formation_poses": "szwadron.formations",
    "formation_size": "szwadron.formations",
    "write_text_atomic": "szwadron.files",
    "Applied": "szwadron.game.apply",
    "Position": "szwadron.game.apply",
    "apply_fire": "szwadron.game.apply",
    "apply_melee": "szwadron.game.apply",
    "apply_morale": "szwadron.game.apply",
    "apply_move": "szwadron.game.apply",
    "apply_next_phase": "szwadron.game.apply",
    "expand_formations": "szwadron.game.apply",
    "position_from_text": "szwadron.game.apply",
    "read_position": "szwadron.game.apply",
    "ScenarioDocument": "szwadron.game.document",
    "dump_log": "szwadron.game.log",
    "new_log": "szwadron.game.log",
    "parse_log": "szwadron.game.log",
    "read_log": "szwadron.game.log",
    "replay": "szwadron.game.log",
    "sha256_text": "szwadron.game.log",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'szwadron' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


__all__ = ["SCHEMA_VERSION", "__version__", *_EXPORTS]

if TYPE_CHECKING:
    from szwadron.armies.balance import (
        BalanceReport as BalanceReport,
    )
    from szwadron.armies.balance import (
        SideSummary as SideSummary,
    )
    from szwadron.armies.balance import (
        Suggestion as Suggestion,
    )
    from szwadron.armies.balance import (
        balance as balance,
    )
    from szwadron.armies.balance import (
        predicted_chance as predicted_chance,
    )
    from szwadron.armies.balance import (
        suggestions as suggestions,
    )
    from szwadron.armies.balance import (
        summarise as summarise,
    )
    from szwadron.armies.battles import (
        BATTLE_TASK_SIZE as BATTLE_TASK_SIZE,
    )
    from szwadron.armies.battles import (
        DEFAULT_BATTLES as DEFAULT_BATTLES,
    )
    from szwadron.armies.battles import (
        RANDOM_ARMY_SHARES as RANDOM_ARMY_SHARES,
    )
    from szwadron.armies.battles import (
        RANDOM_UNIT_FIGURES as RANDOM_UNIT_FIGURES,
    )
    from szwadron.armies.battles import (
        SHARE_CONCENTRATION as SHARE_CONCENTRATION,
    )
    from szwadron.armies.battles import (
        SIZE_CHECK as SIZE_CHECK,
    )
    from szwadron.armies.battles import (
        STEEPNESS_EXPONENTS as STEEPNESS_EXPONENTS,
    )
    from szwadron.armies.battles import (
        STEEPNESS_SCALES as STEEPNESS_SCALES,
    )
    from szwadron.armies.battles import (
        ArmySteepness as ArmySteepness,
    )
    from szwadron.armies.battles import (
        BattleSpec as BattleSpec,
    )
    from szwadron.armies.battles import (
        Force as Force,
    )
    from szwadron.armies.battles import (
        ForceUnit as ForceUnit,
    )
    from szwadron.armies.battles import (
        PairResult as PairResult,
    )
    from szwadron.armies.battles import (
        PlainForce as PlainForce,
    )
    from szwadron.armies.battles import (
        PointsFn as PointsFn,
    )
    from szwadron.armies.battles import (
        RosterCell as RosterCell,
    )
    from szwadron.armies.battles import (
        RosterSide as RosterSide,
    )
    from szwadron.armies.battles import (
        RosterValidation as RosterValidation,
    )
    from szwadron.armies.battles import (
        SizeEffect as SizeEffect,
    )
    from szwadron.armies.battles import (
        battle_pair as battle_pair,
    )
    from szwadron.armies.battles import (
        fit_army_steepness as fit_army_steepness,
    )
    from szwadron.armies.battles import (
        force_points as force_points,
    )
    from szwadron.armies.battles import (
        mixed_battle_design as mixed_battle_design,
    )
    from szwadron.armies.battles import (
        play as play,
    )
    from szwadron.armies.battles import (
        profile_class as profile_class,
    )
    from szwadron.armies.battles import (
        random_force as random_force,
    )
    from szwadron.armies.battles import (
        resampled_force as resampled_force,
    )
    from szwadron.armies.battles import (
        resized_force as resized_force,
    )
    from szwadron.armies.battles import (
        roster_force as roster_force,
    )
    from szwadron.armies.battles import (
        roster_points as roster_points,
    )
    from szwadron.armies.battles import (
        run_battle_batch as run_battle_batch,
    )
    from szwadron.armies.battles import (
        size_check_cases as size_check_cases,
    )
    from szwadron.armies.battles import (
        unit_size_effect as unit_size_effect,
    )
    from szwadron.armies.battles import (
        validate_rosters as validate_rosters,
    )
    from szwadron.armies.calibrate import (
        BAND as BAND,
    )
    from szwadron.armies.calibrate import (
        BUDGET_FIGURES as BUDGET_FIGURES,
    )
    from szwadron.armies.calibrate import (
        CORRECTION_RIDGE as CORRECTION_RIDGE,
    )
    from szwadron.armies.calibrate import (
        FEATURES as FEATURES,
    )
    from szwadron.armies.calibrate import (
        FITTED_KIND_TERMS as FITTED_KIND_TERMS,
    )
    from szwadron.armies.calibrate import (
        INITIAL_MODEL as INITIAL_MODEL,
    )
    from szwadron.armies.calibrate import (
        MELEE_WEIGHT_GRID as MELEE_WEIGHT_GRID,
    )
    from szwadron.armies.calibrate import (
        UNMEASURED_ABILITIES as UNMEASURED_ABILITIES,
    )
    from szwadron.armies.calibrate import (
        ArmyObservation as ArmyObservation,
    )
    from szwadron.armies.calibrate import (
        CalibrationConfig as CalibrationConfig,
    )
    from szwadron.armies.calibrate import (
        CalibrationResult as CalibrationResult,
    )
    from szwadron.armies.calibrate import (
        Cell as Cell,
    )
    from szwadron.armies.calibrate import (
        DuelProfile as DuelProfile,
    )
    from szwadron.armies.calibrate import (
        Fit as Fit,
    )
    from szwadron.armies.calibrate import (
        Intransitivity as Intransitivity,
    )
    from szwadron.armies.calibrate import (
        Observation as Observation,
    )
    from szwadron.armies.calibrate import (
        Regenerated as Regenerated,
    )
    from szwadron.armies.calibrate import (
        Validation as Validation,
    )
    from szwadron.armies.calibrate import (
        army_list_paths as army_list_paths,
    )
    from szwadron.armies.calibrate import (
        calibrate as calibrate,
    )
    from szwadron.armies.calibrate import (
        design as design,
    )
    from szwadron.armies.calibrate import (
        duel_profiles as duel_profiles,
    )
    from szwadron.armies.calibrate import (
        feature_vector as feature_vector,
    )
    from szwadron.armies.calibrate import (
        features as features,
    )
    from szwadron.armies.calibrate import (
        fit_corrections as fit_corrections,
    )
    from szwadron.armies.calibrate import (
        fit_logistic as fit_logistic,
    )
    from szwadron.armies.calibrate import (
        fit_model as fit_model,
    )
    from szwadron.armies.calibrate import (
        load_lists as load_lists,
    )
    from szwadron.armies.calibrate import (
        regenerate as regenerate,
    )
    from szwadron.armies.calibrate import (
        roster_costs as roster_costs,
    )
    from szwadron.armies.calibrate import (
        run_duel_batch as run_duel_batch,
    )
    from szwadron.armies.calibrate import (
        run_duels as run_duels,
    )
    from szwadron.armies.duel import (
        ADVANCE_GAP_CM as ADVANCE_GAP_CM,
    )
    from szwadron.armies.duel import (
        BATTLE_FLIGHT as BATTLE_FLIGHT,
    )
    from szwadron.armies.duel import (
        CALIBRATION_CONDITIONS as CALIBRATION_CONDITIONS,
    )
    from szwadron.armies.duel import (
        MAX_BATTLE_ROUNDS as MAX_BATTLE_ROUNDS,
    )
    from szwadron.armies.duel import (
        MAX_ROUNDS as MAX_ROUNDS,
    )
    from szwadron.armies.duel import (
        OPEN_ORDER_GAP_CM as OPEN_ORDER_GAP_CM,
    )
    from szwadron.armies.duel import (
        PAIRINGS as PAIRINGS,
    )
    from szwadron.armies.duel import (
        STANDARD_SKIRMISH_FIGURES as STANDARD_SKIRMISH_FIGURES,
    )
    from szwadron.armies.duel import (
        STANDARD_UNIT_FIGURES as STANDARD_UNIT_FIGURES,
    )
    from szwadron.armies.duel import (
        START_DISTANCE_CM as START_DISTANCE_CM,
    )
    from szwadron.armies.duel import (
        TABLE_DEPTH_CM as TABLE_DEPTH_CM,
    )
    from szwadron.armies.duel import (
        TARGET_POLICIES as TARGET_POLICIES,
    )
    from szwadron.armies.duel import (
        Action as Action,
    )
    from szwadron.armies.duel import (
        ArmyEntry as ArmyEntry,
    )
    from szwadron.armies.duel import (
        BattleConditions as BattleConditions,
    )
    from szwadron.armies.duel import (
        BattleFlight as BattleFlight,
    )
    from szwadron.armies.duel import (
        BattleResult as BattleResult,
    )
    from szwadron.armies.duel import (
        BattleUnit as BattleUnit,
    )
    from szwadron.armies.duel import (
        Duel as Duel,
    )
    from szwadron.armies.duel import (
        DuelResult as DuelResult,
    )
    from szwadron.armies.duel import (
        DuelUnit as DuelUnit,
    )
    from szwadron.armies.duel import (
        Pairing as Pairing,
    )
    from szwadron.armies.duel import (
        Side as Side,
    )
    from szwadron.armies.duel import (
        Weapon as Weapon,
    )
    from szwadron.armies.duel import (
        battle_flight_multiplier as battle_flight_multiplier,
    )
    from szwadron.armies.duel import (
        best_weapon as best_weapon,
    )
    from szwadron.armies.duel import (
        check_pairing as check_pairing,
    )
    from szwadron.armies.duel import (
        choose_action as choose_action,
    )
    from szwadron.armies.duel import (
        choose_targets as choose_targets,
    )
    from szwadron.armies.duel import (
        melee_score as melee_score,
    )
    from szwadron.armies.duel import (
        modified_accuracy as modified_accuracy,
    )
    from szwadron.armies.duel import (
        rally_chance as rally_chance,
    )
    from szwadron.armies.duel import (
        run_army_battle as run_army_battle,
    )
    from szwadron.armies.duel import (
        run_battle as run_battle,
    )
    from szwadron.armies.duel import (
        run_duel as run_duel,
    )
    from szwadron.armies.duel import (
        split_units as split_units,
    )
    from szwadron.armies.duel import (
        standard_unit_figures as standard_unit_figures,
    )
    from szwadron.armies.duel import (
        target_prospect as target_prospect,
    )
    from szwadron.armies.duel import (
        target_threat as target_threat,
    )
    from szwadron.armies.points import (
        ABILITY_TERMS as ABILITY_TERMS,
    )
    from szwadron.armies.points import (
        CONTINUOUS_TERMS as CONTINUOUS_TERMS,
    )
    from szwadron.armies.points import (
        FIRE_DISTANCES_CM as FIRE_DISTANCES_CM,
    )
    from szwadron.armies.points import (
        KIND_TERMS as KIND_TERMS,
    )
    from szwadron.armies.points import (
        MAX_CORRECTION as MAX_CORRECTION,
    )
    from szwadron.armies.points import (
        MEASURED_TERM as MEASURED_TERM,
    )
    from szwadron.armies.points import (
        MODEL_PATH as MODEL_PATH,
    )
    from szwadron.armies.points import (
        REFERENCE_POINTS as REFERENCE_POINTS,
    )
    from szwadron.armies.points import (
        REFERENCE_PROFILE as REFERENCE_PROFILE,
    )
    from szwadron.armies.points import (
        PointsBreakdown as PointsBreakdown,
    )
    from szwadron.armies.points import (
        PointsModel as PointsModel,
    )
    from szwadron.armies.points import (
        ProfileValues as ProfileValues,
    )
    from szwadron.armies.points import (
        StalePoints as StalePoints,
    )
    from szwadron.armies.points import (
        Term as Term,
    )
    from szwadron.armies.points import (
        format_points as format_points,
    )
    from szwadron.armies.points import (
        load_model as load_model,
    )
    from szwadron.armies.points import (
        model_from_mapping as model_from_mapping,
    )
    from szwadron.armies.points import (
        model_points as model_points,
    )
    from szwadron.armies.points import (
        price_army as price_army,
    )
    from szwadron.armies.points import (
        price_profile as price_profile,
    )
    from szwadron.armies.points import (
        profile_key as profile_key,
    )
    from szwadron.armies.points import (
        profile_values as profile_values,
    )
    from szwadron.armies.points import (
        set_points_in_text as set_points_in_text,
    )
    from szwadron.armies.points import (
        stale_points as stale_points,
    )
    from szwadron.armies.points import (
        write_points as write_points,
    )
    from szwadron.armies.rosters import (
        LIMBERS_ID as LIMBERS_ID,
    )
    from szwadron.armies.rosters import (
        LIMBERS_RULE as LIMBERS_RULE,
    )
    from szwadron.armies.rosters import (
        POINTS_LIMIT_ID as POINTS_LIMIT_ID,
    )
    from szwadron.armies.rosters import (
        Breach as Breach,
    )
    from szwadron.armies.rosters import (
        RosterReport as RosterReport,
    )
    from szwadron.armies.rosters import (
        Unchecked as Unchecked,
    )
    from szwadron.armies.rosters import (
        load_roster as load_roster,
    )
    from szwadron.armies.rosters import (
        parse_roster as parse_roster,
    )
    from szwadron.armies.rosters import (
        validate_roster as validate_roster,
    )
    from szwadron.armies.runs import (
        TASK_SIZE as TASK_SIZE,
    )
    from szwadron.armies.runs import (
        ProgressFn as ProgressFn,
    )
    from szwadron.armies.runs import (
        Tally as Tally,
    )
    from szwadron.armies.runs import (
        default_workers as default_workers,
    )
    from szwadron.armies.runs import (
        run_tasks as run_tasks,
    )
    from szwadron.armies.runs import (
        wilson_interval as wilson_interval,
    )
    from szwadron.errors import (
        AmbiguousSituationError as AmbiguousSituationError,
    )
    from szwadron.errors import (
        IllegalActionError as IllegalActionError,
    )
    from szwadron.errors import (
        InvalidArgumentError as InvalidArgumentError,
    )
    from szwadron.errors import (
        InvalidDataError as InvalidDataError,
    )
    from szwadron.errors import (
        SzwadronError as SzwadronError,
    )
    from szwadron.files import (
        check_output_path as check_output_path,
    )
    from szwadron.files import (
        write_atomic as write_atomic,
    )
    from szwadron.files import (
        write_text_atomic as write_text_atomic,
    )
    from szwadron.formations import (
        FormationKind as FormationKind,
    )
    from szwadron.formations import (
        formation_poses as formation_poses,
    )
    from szwadron.formations import (
        formation_size as formation_size,
    )
    from szwadron.game.apply import (
        Applied as Applied,
    )
    from szwadron.game.apply import (
        Position as Position,
    )
    from szwadron.game.apply import (
        apply_fire as apply_fire,
    )
    from szwadron.game.apply import (
        apply_melee as apply_melee,
    )
    from szwadron.game.apply import (
        apply_morale as apply_morale,
    )
    from szwadron.game.apply import (
        apply_move as apply_move,
    )
    from szwadron.game.apply import (
        apply_next_phase as apply_next_phase,
    )
    from szwadron.game.apply import (
        expand_formations as expand_formations,
    )
    from szwadron.game.apply import (
        position_from_text as position_from_text,
    )
    from szwadron.game.apply import (
        read_position as read_position,
    )
    from szwadron.game.document import (
        ScenarioDocument as ScenarioDocument,
    )
    from szwadron.game.log import (
        dump_log as dump_log,
    )
    from szwadron.game.log import (
        new_log as new_log,
    )
    from szwadron.game.log import (
        parse_log as parse_log,
    )
    from szwadron.game.log import (
        read_log as read_log,
    )
    from szwadron.game.log import (
        replay as replay,
    )
    from szwadron.game.log import (
        sha256_text as sha256_text,
    )
    from szwadron.geometry.arcs import (
        ARC_RELATIVE_EPSILON as ARC_RELATIVE_EPSILON,
    )
    from szwadron.geometry.arcs import (
        FRONT as FRONT,
    )
    from szwadron.geometry.arcs import (
        arc_angles as arc_angles,
    )
    from szwadron.geometry.arcs import (
        arc_of as arc_of,
    )
    from szwadron.geometry.arcs import (
        edge_contact_lengths as edge_contact_lengths,
    )
    from szwadron.geometry.arcs import (
        fire_edges as fire_edges,
    )
    from szwadron.geometry.arcs import (
        in_arcs as in_arcs,
    )
    from szwadron.geometry.arcs import (
        touched_edges as touched_edges,
    )
    from szwadron.geometry.bases import (
        CORNER_NAMES as CORNER_NAMES,
    )
    from szwadron.geometry.bases import (
        EDGE_NAMES as EDGE_NAMES,
    )
    from szwadron.geometry.bases import (
        ZONE_QUAD_SEGS as ZONE_QUAD_SEGS,
    )
    from szwadron.geometry.bases import (
        BaseShape as BaseShape,
    )
    from szwadron.geometry.bases import (
        Edge as Edge,
    )
    from szwadron.geometry.bases import (
        base_corners as base_corners,
    )
    from szwadron.geometry.bases import (
        base_polygons as base_polygons,
    )
    from szwadron.geometry.bases import (
        control_zones as control_zones,
    )
    from szwadron.geometry.bases import (
        edge_normals as edge_normals,
    )
    from szwadron.geometry.bases import (
        edge_segments as edge_segments,
    )
    from szwadron.geometry.bases import (
        facing_vectors as facing_vectors,
    )
    from szwadron.geometry.bases import (
        polygons_from_corners as polygons_from_corners,
    )
    from szwadron.geometry.battlefield import (
        Battlefield as Battlefield,
    )
    from szwadron.geometry.battlefield import (
        Measurement as Measurement,
    )
    from szwadron.geometry.battlefield import (
        PairMethod as PairMethod,
    )
    from szwadron.geometry.contact import (
        CONTACT_TOLERANCE_CM as CONTACT_TOLERANCE_CM,
    )
    from szwadron.geometry.contact import (
        DISTANCE_EPSILON_CM as DISTANCE_EPSILON_CM,
    )
    from szwadron.geometry.contact import (
        OVERLAP_TOLERANCE_CM as OVERLAP_TOLERANCE_CM,
    )
    from szwadron.geometry.contact import (
        contact_length as contact_length,
    )
    from szwadron.geometry.contact import (
        penetration_depth as penetration_depth,
    )
    from szwadron.geometry.contact import (
        polygon_distance as polygon_distance,
    )
    from szwadron.geometry.contact import (
        touching as touching,
    )
    from szwadron.geometry.paths import (
        SAMPLE_STEP_CM as SAMPLE_STEP_CM,
    )
    from szwadron.geometry.paths import (
        SWEEP_SAGITTA_CM as SWEEP_SAGITTA_CM,
    )
    from szwadron.geometry.paths import (
        BaseMotion as BaseMotion,
    )
    from szwadron.geometry.paths import (
        Leg as Leg,
    )
    from szwadron.geometry.paths import (
        Pose as Pose,
    )
    from szwadron.geometry.paths import (
        Surcharge as Surcharge,
    )
    from szwadron.geometry.paths import (
        terrain_surcharges as terrain_surcharges,
    )
    from szwadron.geometry.paths import (
        turn_between as turn_between,
    )
    from szwadron.geometry.sight import (
        BLOCK_RULE as BLOCK_RULE,
    )
    from szwadron.geometry.sight import (
        SIGHT_BLOCKING_KINDS as SIGHT_BLOCKING_KINDS,
    )
    from szwadron.geometry.sight import (
        Blocked as Blocked,
    )
    from szwadron.geometry.sight import (
        CoverSource as CoverSource,
    )
    from szwadron.geometry.sight import (
        TerrainSight as TerrainSight,
    )
    from szwadron.geometry.sight import (
        band_corners as band_corners,
    )
    from szwadron.geometry.sight import (
        centre_features as centre_features,
    )
    from szwadron.geometry.sight import (
        check_sight as check_sight,
    )
    from szwadron.geometry.sight import (
        cover as cover,
    )
    from szwadron.geometry.sight import (
        figure_blocks as figure_blocks,
    )
    from szwadron.geometry.sight import (
        hidden_by_own_unit as hidden_by_own_unit,
    )
    from szwadron.geometry.sight import (
        inset_corners as inset_corners,
    )
    from szwadron.geometry.sight import (
        lines_one as lines_one,
    )
    from szwadron.geometry.sight import (
        segment_clip as segment_clip,
    )
    from szwadron.geometry.sight import (
        segment_crosses as segment_crosses,
    )
    from szwadron.geometry.sight import (
        terrain_blocks as terrain_blocks,
    )
    from szwadron.geometry.terrain import (
        CROSSABLE_OBSTACLE_KINDS as CROSSABLE_OBSTACLE_KINDS,
    )
    from szwadron.geometry.terrain import (
        IMPASSABLE_KINDS as IMPASSABLE_KINDS,
    )
    from szwadron.geometry.terrain import (
        LEVEL_KINDS as LEVEL_KINDS,
    )
    from szwadron.geometry.terrain import (
        TerrainShape as TerrainShape,
    )
    from szwadron.geometry.terrain import (
        forbidden_rule as forbidden_rule,
    )
    from szwadron.geometry.terrain import (
        level_at as level_at,
    )
    from szwadron.geometry.terrain import (
        obstacle_width as obstacle_width,
    )
    from szwadron.geometry.terrain import (
        terrain_polygon as terrain_polygon,
    )
    from szwadron.geometry.terrain import (
        terrain_polygons as terrain_polygons,
    )
    from szwadron.geometry.terrain import (
        terrain_shapes as terrain_shapes,
    )
    from szwadron.limits import (
        MAX_CM as MAX_CM,
    )
    from szwadron.limits import (
        MAX_DICE as MAX_DICE,
    )
    from szwadron.limits import (
        MAX_DICE_PER_FIGURE as MAX_DICE_PER_FIGURE,
    )
    from szwadron.limits import (
        MAX_LEVEL as MAX_LEVEL,
    )
    from szwadron.limits import (
        MAX_MELEE_FIGURES as MAX_MELEE_FIGURES,
    )
    from szwadron.limits import (
        MAX_REACH_GRID_POINTS as MAX_REACH_GRID_POINTS,
    )
    from szwadron.limits import (
        MAX_TABLE_CM as MAX_TABLE_CM,
    )
    from szwadron.limits import (
        MAX_WOUNDS as MAX_WOUNDS,
    )
    from szwadron.loading import (
        ProfileResolver as ProfileResolver,
    )
    from szwadron.loading import (
        army_list_search_path as army_list_search_path,
    )
    from szwadron.loading import (
        bundled_dir as bundled_dir,
    )
    from szwadron.loading import (
        bundled_scenario as bundled_scenario,
    )
    from szwadron.loading import (
        find_army_list as find_army_list,
    )
    from szwadron.loading import (
        format_location as format_location,
    )
    from szwadron.loading import (
        load_army_list as load_army_list,
    )
    from szwadron.loading import (
        load_scenario as load_scenario,
    )
    from szwadron.loading import (
        open_army_list as open_army_list,
    )
    from szwadron.loading import (
        parse_scenario as parse_scenario,
    )
    from szwadron.loading import (
        read_toml as read_toml,
    )
    from szwadron.loading import (
        validation_message as validation_message,
    )
    from szwadron.models import (
        AMMUNITION_CODES as AMMUNITION_CODES,
    )
    from szwadron.models import (
        DEFAULT_BASE_SIZE_CM as DEFAULT_BASE_SIZE_CM,
    )
    from szwadron.models import (
        PROFILE_CODES as PROFILE_CODES,
    )
    from szwadron.models import (
        Ability as Ability,
    )
    from szwadron.models import (
        Ammunition as Ammunition,
    )
    from szwadron.models import (
        ArmyList as ArmyList,
    )
    from szwadron.models import (
        Attachment as Attachment,
    )
    from szwadron.models import (
        BasePose as BasePose,
    )
    from szwadron.models import (
        Formation as Formation,
    )
    from szwadron.models import (
        Kind as Kind,
    )
    from szwadron.models import (
        Phase as Phase,
    )
    from szwadron.models import (
        Profile as Profile,
    )
    from szwadron.models import (
        Roster as Roster,
    )
    from szwadron.models import (
        RosterConstraint as RosterConstraint,
    )
    from szwadron.models import (
        RosterEntry as RosterEntry,
    )
    from szwadron.models import (
        RosterFile as RosterFile,
    )
    from szwadron.models import (
        Scenario as Scenario,
    )
    from szwadron.models import (
        ShareOf as ShareOf,
    )
    from szwadron.models import (
        Table as Table,
    )
    from szwadron.models import (
        Terrain as Terrain,
    )
    from szwadron.models import (
        TerrainKind as TerrainKind,
    )
    from szwadron.models import (
        Turn as Turn,
    )
    from szwadron.models import (
        Unit as Unit,
    )
    from szwadron.models import (
        UnitAction as UnitAction,
    )
    from szwadron.models import (
        UnitState as UnitState,
    )
    from szwadron.movefile import (
        MoveFile as MoveFile,
    )
    from szwadron.movefile import (
        MovePose as MovePose,
    )
    from szwadron.movefile import (
        load_move_file as load_move_file,
    )
    from szwadron.odds.combat import (
        COMBAT_DIE_SIDES as COMBAT_DIE_SIDES,
    )
    from szwadron.odds.combat import (
        Fighter as Fighter,
    )
    from szwadron.odds.combat import (
        FireGroup as FireGroup,
    )
    from szwadron.odds.combat import (
        GroupRoll as GroupRoll,
    )
    from szwadron.odds.combat import (
        MeleeOdds as MeleeOdds,
    )
    from szwadron.odds.combat import (
        MeleeRoll as MeleeRoll,
    )
    from szwadron.odds.combat import (
        MeleeSide as MeleeSide,
    )
    from szwadron.odds.combat import (
        RolledRemoval as RolledRemoval,
    )
    from szwadron.odds.combat import (
        VolleyOdds as VolleyOdds,
    )
    from szwadron.odds.combat import (
        VolleyRoll as VolleyRoll,
    )
    from szwadron.odds.combat import (
        clear_caches as clear_caches,
    )
    from szwadron.odds.combat import (
        melee as melee,
    )
    from szwadron.odds.combat import (
        removal_weights as removal_weights,
    )
    from szwadron.odds.combat import (
        roll_dice as roll_dice,
    )
    from szwadron.odds.combat import (
        roll_melee as roll_melee,
    )
    from szwadron.odds.combat import (
        roll_removal as roll_removal,
    )
    from szwadron.odds.combat import (
        roll_volley as roll_volley,
    )
    from szwadron.odds.combat import (
        volley as volley,
    )
    from szwadron.odds.dice import (
        Distribution as Distribution,
    )
    from szwadron.odds.dice import (
        clamp as clamp,
    )
    from szwadron.odds.dice import (
        d as d,
    )
    from szwadron.odds.dice import (
        hit_weights as hit_weights,
    )
    from szwadron.odds.dice import (
        hits as hits,
    )
    from szwadron.odds.machine import (
        MACHINE as MACHINE,
    )
    from szwadron.odds.machine import (
        Event as Event,
    )
    from szwadron.odds.machine import (
        EventKind as EventKind,
    )
    from szwadron.odds.machine import (
        MachineState as MachineState,
    )
    from szwadron.odds.machine import (
        MoraleUnit as MoraleUnit,
    )
    from szwadron.odds.machine import (
        Refusal as Refusal,
    )
    from szwadron.odds.machine import (
        Result as Result,
    )
    from szwadron.odds.machine import (
        StateMachine as StateMachine,
    )
    from szwadron.odds.machine import (
        Transition as Transition,
    )
    from szwadron.odds.machine import (
        chance as chance,
    )
    from szwadron.odds.machine import (
        melee_step as melee_step,
    )
    from szwadron.odds.machine import (
        state_distribution as state_distribution,
    )
    from szwadron.odds.machine import (
        step as step,
    )
    from szwadron.odds.morale import (
        MORALE_DIE_SIDES as MORALE_DIE_SIDES,
    )
    from szwadron.odds.morale import (
        CasualtyTest as CasualtyTest,
    )
    from szwadron.odds.morale import (
        FireOutcome as FireOutcome,
    )
    from szwadron.odds.morale import (
        MeleeMorale as MeleeMorale,
    )
    from szwadron.odds.morale import (
        MeleeOutcome as MeleeOutcome,
    )
    from szwadron.odds.morale import (
        MoraleRoll as MoraleRoll,
    )
    from szwadron.odds.morale import (
        casualty_modifier as casualty_modifier,
    )
    from szwadron.odds.morale import (
        casualty_test as casualty_test,
    )
    from szwadron.odds.morale import (
        fire_outcome as fire_outcome,
    )
    from szwadron.odds.morale import (
        melee_outcomes as melee_outcomes,
    )
    from szwadron.odds.morale import (
        melee_sequence as melee_sequence,
    )
    from szwadron.odds.morale import (
        morale_pass_chance as morale_pass_chance,
    )
    from szwadron.odds.morale import (
        morale_target as morale_target,
    )
    from szwadron.odds.morale import (
        roll_casualty_test as roll_casualty_test,
    )
    from szwadron.odds.morale import (
        roll_melee_sequence as roll_melee_sequence,
    )
    from szwadron.odds.morale import (
        roll_test as roll_test,
    )
    from szwadron.odds.remainder import (
        D6_TWO_THIRDS_MISPRINT as D6_TWO_THIRDS_MISPRINT,
    )
    from szwadron.odds.remainder import (
        DIE_SIDES as DIE_SIDES,
    )
    from szwadron.odds.remainder import (
        DieName as DieName,
    )
    from szwadron.odds.remainder import (
        RemainderRoll as RemainderRoll,
    )
    from szwadron.odds.remainder import (
        die_sides as die_sides,
    )
    from szwadron.odds.remainder import (
        remainder_chance as remainder_chance,
    )
    from szwadron.odds.remainder import (
        remainder_roll as remainder_roll,
    )
    from szwadron.odds.remainder import (
        remainder_row_json as remainder_row_json,
    )
    from szwadron.odds.remainder import (
        remainder_table as remainder_table,
    )
    from szwadron.plots.machine import (
        EVENT_SHORT as EVENT_SHORT,
    )
    from szwadron.plots.machine import (
        NODE_COLOURS as NODE_COLOURS,
    )
    from szwadron.plots.machine import (
        NODE_POSITIONS as NODE_POSITIONS,
    )
    from szwadron.plots.machine import (
        UnitBranches as UnitBranches,
    )
    from szwadron.plots.machine import (
        plot_morale_machine as plot_morale_machine,
    )
    from szwadron.plots.machine import (
        unit_branches as unit_branches,
    )
    from szwadron.plots.odds import (
        OUTCOME_COLOURS as OUTCOME_COLOURS,
    )
    from szwadron.plots.odds import (
        melee_side_outcomes as melee_side_outcomes,
    )
    from szwadron.plots.odds import (
        plot_distribution as plot_distribution,
    )
    from szwadron.plots.odds import (
        plot_flight_chances as plot_flight_chances,
    )
    from szwadron.plots.odds import (
        plot_joint_losses as plot_joint_losses,
    )
    from szwadron.plots.odds import (
        plot_melee as plot_melee,
    )
    from szwadron.plots.odds import (
        plot_melee_outcomes as plot_melee_outcomes,
    )
    from szwadron.plots.odds import (
        plot_morale_outcomes as plot_morale_outcomes,
    )
    from szwadron.plots.odds import (
        plot_volley as plot_volley,
    )
    from szwadron.plots.odds import (
        trim_pmf as trim_pmf,
    )
    from szwadron.plots.odds import (
        volley_title as volley_title,
    )
    from szwadron.plots.overlays import (
        ARC_COLOURS as ARC_COLOURS,
    )
    from szwadron.plots.overlays import (
        BLOCKED_COLOUR as BLOCKED_COLOUR,
    )
    from szwadron.plots.overlays import (
        CLEAR_COLOUR as CLEAR_COLOUR,
    )
    from szwadron.plots.overlays import (
        FLIGHT_COLOUR as FLIGHT_COLOUR,
    )
    from szwadron.plots.overlays import (
        FOCUS_MARGIN_CM as FOCUS_MARGIN_CM,
    )
    from szwadron.plots.overlays import (
        FOCUS_MARGIN_FRACTION as FOCUS_MARGIN_FRACTION,
    )
    from szwadron.plots.overlays import (
        FOCUS_MIN_SPAN_CM as FOCUS_MIN_SPAN_CM,
    )
    from szwadron.plots.overlays import (
        PATH_COLOUR as PATH_COLOUR,
    )
    from szwadron.plots.overlays import (
        SightLine as SightLine,
    )
    from szwadron.plots.overlays import (
        arc_geometries as arc_geometries,
    )
    from szwadron.plots.overlays import (
        fire_geometries as fire_geometries,
    )
    from szwadron.plots.overlays import (
        fire_range as fire_range,
    )
    from szwadron.plots.overlays import (
        flight_geometries as flight_geometries,
    )
    from szwadron.plots.overlays import (
        focus_region as focus_region,
    )
    from szwadron.plots.overlays import (
        move_geometries as move_geometries,
    )
    from szwadron.plots.overlays import (
        plot_arcs as plot_arcs,
    )
    from szwadron.plots.overlays import (
        plot_fire as plot_fire,
    )
    from szwadron.plots.overlays import (
        plot_flight as plot_flight,
    )
    from szwadron.plots.overlays import (
        plot_melee_contacts as plot_melee_contacts,
    )
    from szwadron.plots.overlays import (
        plot_move as plot_move,
    )
    from szwadron.plots.overlays import (
        plot_reach as plot_reach,
    )
    from szwadron.plots.overlays import (
        reach_geometries as reach_geometries,
    )
    from szwadron.plots.overlays import (
        sight_lines as sight_lines,
    )
    from szwadron.plots.overlays import (
        unit_geometry as unit_geometry,
    )
    from szwadron.plots.points import (
        TERM_COLOURS as TERM_COLOURS,
    )
    from szwadron.plots.points import (
        plot_breakdown as plot_breakdown,
    )
    from szwadron.plots.points import (
        plot_breakdown_file as plot_breakdown_file,
    )
    from szwadron.plots.points import (
        plot_matrix as plot_matrix,
    )
    from szwadron.plots.points import (
        plot_matrix_file as plot_matrix_file,
    )
    from szwadron.plots.points import (
        plot_roster_matrix as plot_roster_matrix,
    )
    from szwadron.plots.table import (
        SIDE_COLOURS as SIDE_COLOURS,
    )
    from szwadron.plots.table import (
        ZORDER as ZORDER,
    )
    from szwadron.plots.table import (
        Region as Region,
    )
    from szwadron.plots.table import (
        SideColours as SideColours,
    )
    from szwadron.plots.table import (
        TerrainStyle as TerrainStyle,
    )
    from szwadron.plots.table import (
        as_battlefield as as_battlefield,
    )
    from szwadron.plots.table import (
        contact_geometry as contact_geometry,
    )
    from szwadron.plots.table import (
        draw_legend as draw_legend,
    )
    from szwadron.plots.table import (
        geometry_path as geometry_path,
    )
    from szwadron.plots.table import (
        hill_colour as hill_colour,
    )
    from szwadron.plots.table import (
        legend_entry as legend_entry,
    )
    from szwadron.plots.table import (
        parse_region as parse_region,
    )
    from szwadron.plots.table import (
        place_label as place_label,
    )
    from szwadron.plots.table import (
        plot_bases as plot_bases,
    )
    from szwadron.plots.table import (
        plot_contacts as plot_contacts,
    )
    from szwadron.plots.table import (
        plot_labels as plot_labels,
    )
    from szwadron.plots.table import (
        plot_scale_bar as plot_scale_bar,
    )
    from szwadron.plots.table import (
        plot_table as plot_table,
    )
    from szwadron.plots.table import (
        plot_terrain as plot_terrain,
    )
    from szwadron.plots.table import (
        plot_zones as plot_zones,
    )
    from szwadron.plots.table import (
        setup_table_axes as setup_table_axes,
    )
    from szwadron.plots.table import (
        table_figsize as table_figsize,
    )
    from szwadron.plots.table import (
        table_view as table_view,
    )
    from szwadron.plots.table import (
        terrain_style as terrain_style,
    )
    from szwadron.plots.table import (
        unit_zone as unit_zone,
    )
    from szwadron.rulings import (
        Ruling as Ruling,
    )
    from szwadron.rulings import (
        ToJson as ToJson,
    )
    from szwadron.settings import (
        DEFAULT_SETTINGS as DEFAULT_SETTINGS,
    )
    from szwadron.settings import (
        RemainderDie as RemainderDie,
    )
    from szwadron.settings import (
        RulesSettings as RulesSettings,
    )
    from szwadron.table.audit import (
        AuditReport as AuditReport,
    )
    from szwadron.table.audit import (
        Contact as Contact,
    )
    from szwadron.table.audit import (
        ForbiddenTerrain as ForbiddenTerrain,
    )
    from szwadron.table.audit import (
        Overlap as Overlap,
    )
    from szwadron.table.audit import (
        Problem as Problem,
    )
    from szwadron.table.audit import (
        UnitReport as UnitReport,
    )
    from szwadron.table.audit import (
        ZoneIntrusion as ZoneIntrusion,
    )
    from szwadron.table.audit import (
        audit as audit,
    )
    from szwadron.table.audit import (
        connected_groups as connected_groups,
    )
    from szwadron.table.audit import (
        engaged_unit_pairs as engaged_unit_pairs,
    )
    from szwadron.table.audit import (
        obstacle_zone_core as obstacle_zone_core,
    )
    from szwadron.table.fire.question import (
        fire as fire,
    )
    from szwadron.table.fire.ranking import (
        targets as targets,
    )
    from szwadron.table.fire.removal import (
        removal_order as removal_order,
    )
    from szwadron.table.fire.results import (
        FireLine as FireLine,
    )
    from szwadron.table.fire.results import (
        FireResult as FireResult,
    )
    from szwadron.table.fire.results import (
        MoraleTest as MoraleTest,
    )
    from szwadron.table.fire.results import (
        Reaction as Reaction,
    )
    from szwadron.table.fire.results import (
        ReactionKind as ReactionKind,
    )
    from szwadron.table.fire.results import (
        Reason as Reason,
    )
    from szwadron.table.fire.results import (
        ShooterReport as ShooterReport,
    )
    from szwadron.table.fire.results import (
        TargetReport as TargetReport,
    )
    from szwadron.table.fire.results import (
        TargetsReport as TargetsReport,
    )
    from szwadron.table.melee import (
        Fighting as Fighting,
    )
    from szwadron.table.melee import (
        PushStep as PushStep,
    )
    from szwadron.table.melee import (
        StrikeGroup as StrikeGroup,
    )
    from szwadron.table.melee import (
        TableMelee as TableMelee,
    )
    from szwadron.table.melee import (
        table_melee as table_melee,
    )
    from szwadron.table.morale_phase import (
        TWO_D6 as TWO_D6,
    )
    from szwadron.table.morale_phase import (
        CasualtyRow as CasualtyRow,
    )
    from szwadron.table.morale_phase import (
        FigureFlight as FigureFlight,
    )
    from szwadron.table.morale_phase import (
        MoralePhaseReport as MoralePhaseReport,
    )
    from szwadron.table.morale_phase import (
        PassThrough as PassThrough,
    )
    from szwadron.table.morale_phase import (
        PursuitReport as PursuitReport,
    )
    from szwadron.table.morale_phase import (
        UnitCasualtyTests as UnitCasualtyTests,
    )
    from szwadron.table.morale_phase import (
        UnitMorale as UnitMorale,
    )
    from szwadron.table.morale_phase import (
        chance_at_least as chance_at_least,
    )
    from szwadron.table.morale_phase import (
        chance_more_than as chance_more_than,
    )
    from szwadron.table.morale_phase import (
        first_contact as first_contact,
    )
    from szwadron.table.morale_phase import (
        flight_distribution as flight_distribution,
    )
    from szwadron.table.morale_phase import (
        flight_multiplier as flight_multiplier,
    )
    from szwadron.table.morale_phase import (
        morale_phase as morale_phase,
    )
    from szwadron.table.morale_phase import (
        pursuit_distribution as pursuit_distribution,
    )
    from szwadron.table.movement import (
        REPULSE_DEFLECTIONS_DEG as REPULSE_DEFLECTIONS_DEG,
    )
    from szwadron.table.movement import (
        AfterFire as AfterFire,
    )
    from szwadron.table.movement import (
        BaseMove as BaseMove,
    )
    from szwadron.table.movement import (
        MoveReport as MoveReport,
    )
    from szwadron.table.movement import (
        RepulseCheck as RepulseCheck,
    )
    from szwadron.table.movement import (
        Violation as Violation,
    )
    from szwadron.table.movement import (
        away_direction as away_direction,
    )
    from szwadron.table.movement import (
        check_move as check_move,
    )
    from szwadron.table.movement import (
        place as place,
    )
    from szwadron.table.movement import (
        repulse as repulse,
    )
    from szwadron.table.pursuit import (
        PursuitWay as PursuitWay,
    )
    from szwadron.table.pursuit import (
        pursuit_way as pursuit_way,
    )
    from szwadron.table.reach import (
        CLEARANCE_CM as CLEARANCE_CM,
    )
    from szwadron.table.reach import (
        ReachMethod as ReachMethod,
    )
    from szwadron.table.reach import (
        ReachResult as ReachResult,
    )
    from szwadron.table.reach import (
        reach as reach,
    )
