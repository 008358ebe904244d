"""Every command fed malformed input (docs/decisions.md "The command line"): one clear message naming the
file, the field path or line (or the flag) and what was expected, exit code 2, never a traceback
and never a half-written output file. Extreme but valid input still answers (0 or 1). An
unexpected internal error (a bug) is one line too, exit code 3, and ``--debug`` shows the
traceback.

The table :data:`BAD` is data: ``(command line, files to create, exit code, message fragments)``.
In the command line and the fragments, ``{d}`` is the temporary folder holding the files; a file
is TOML text (a ``dict`` is written as TOML), raw bytes, or ``None`` for a folder.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from szwadron.cli import EXIT_INTERNAL_ERROR, main
from szwadron.limits import MAX_DICE, MAX_MELEE_FIGURES, MAX_TABLE_CM, MAX_WOUNDS

REPO = Path(__file__).resolve().parent.parent


# --- writing the files --------------------------------------------------------------------------
def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(type(v))


def toml(document: dict[str, Any]) -> str:
    """A TOML text of ``document`` (inline tables and arrays; NaN and infinity as TOML has them)."""
    return "".join(f"{json.dumps(k)} = {_value(v)}\n" for k, v in document.items())


INF = {
    "id": "line",
    "name": "Line",
    "kind": "infantry",
    "R": 12,
    "W": 2,
    "SW": 1,
    "SO": 1,
    "Z": 24,
    "UW": 3,
    "C": 3,
    "M": 4,
}
CAV = {
    "id": "hussars",
    "name": "Hussars",
    "kind": "cavalry",
    "R": 24,
    "W": 2,
    "SW": 2,
    "SO": 0,
    "Z": 0,
    "UW": 4,
    "C": 0,
    "M": 4,
}


def _line(x: float, y: float, n: int, facing: float = 90.0) -> list[dict[str, float]]:
    return [{"x": x + 2.0 * k, "y": y, "facing": facing} for k in range(n)]


def scenario(**change: Any) -> dict[str, Any]:
    """A small valid table: a and a2 (side A, infantry), b (side B, infantry) and c (side B,
    cavalry in contact with a); ``change`` replaces top-level keys or, as ``unit_<id>``, updates
    one unit (``profile_<id>`` updates its profile, ``base_<id>`` its first base)."""
    units = {
        "a": {"id": "a", "side": "A", "profile": dict(INF), "bases": _line(40, 40, 4)},
        "a2": {"id": "a2", "side": "A", "profile": dict(INF), "bases": _line(10, 10, 3)},
        "b": {"id": "b", "side": "B", "profile": dict(INF), "bases": _line(40, 55, 4, 270.0)},
        "c": {"id": "c", "side": "B", "profile": dict(CAV), "bases": _line(40, 43, 2, 270.0)},
    }
    doc: dict[str, Any] = {
        "name": "bad input",
        "table": {"width": 100.0, "depth": 100.0},
        "terrain": [{"id": "hill", "kind": "hill", "polygon": [[70, 70], [90, 70], [90, 90], [70, 90]]}],
    }
    for key, value in change.items():
        kind, _, uid = key.partition("_")
        if kind == "unit":
            units[uid].update(value)
        elif kind == "profile":
            units[uid]["profile"].update(value)
        elif kind == "base":
            units[uid]["bases"][0].update(value)
        else:
            doc[key] = value
    doc["units"] = list(units.values())
    return doc


GOOD = {"s.toml": scenario(), "m.toml": {"bases": [{"index": 0, "x": 10.0, "y": 12.0, "facing": 90.0}]}}
ROSTER = {"army": "france", "id": "mine", "units": [{"profile": "line_infantry", "figures": 12}]}
NAN, INFINITY = float("nan"), float("inf")

#: ``(file name, contents)`` of broken files every file-reading command must refuse cleanly.
BROKEN_FILES: list[tuple[str, Any, str]] = [
    ("missing", "<missing>", "x.toml: no such file"),
    ("folder", None, "x.toml: is a folder"),
    ("empty", "", "x.toml: the file is empty"),
    ("comments-only", "# nothing\n# here\n", "x.toml: the file holds no data"),
    ("latin-1", 'name = "Kürassiere"\n'.encode("latin-1"), "x.toml: line 1: not UTF-8 text"),
    ("malformed", 'name = "x\n[table\n', "x.toml: malformed TOML"),
]

#: Command lines reading ``{d}/x.toml`` where it is the broken file.
READERS: list[tuple[str, list[str]]] = [
    ("check", ["check", "{d}/x.toml"]),
    ("measure", ["measure", "{d}/x.toml", "a", "b"]),
    ("fire", ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"]),
    ("targets", ["targets", "{d}/x.toml", "--shooter", "a"]),
    ("move-scenario", ["move", "{d}/x.toml", "--unit", "a2", "--to", "{d}/m.toml"]),
    ("move-file", ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"]),
    ("reach", ["reach", "{d}/x.toml", "--unit", "c", "--target", "a2"]),
    ("melee", ["melee", "{d}/x.toml", "--attacker", "c", "--defender", "a"]),
    ("morale", ["morale", "{d}/x.toml", "--side", "A"]),
    ("plot", ["plot", "{d}/x.toml", "-o", "{d}/out.png"]),
    ("points", ["points", "{d}/x.toml"]),
    ("points-roster", ["points", "france", "--roster", "{d}/x.toml"]),
    ("balance", ["balance", "{d}/x.toml", "austria"]),
]

P = pytest.param
BAD: list[Any] = [
    P(argv, {**GOOD, "x.toml": content}, 2, [fragment], id=f"{reader}-{kind}")
    for reader, argv in READERS
    for kind, content, fragment in BROKEN_FILES
] + [
    # --- scenario contents: the field path and what was expected ------------------------------
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(table={"width": "big", "depth": 10.0})},
        2,
        ["{d}/x.toml: table.width: expected a number"],
        id="wrong-type",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": {"name": "t", "units": []}},
        2,
        ["{d}/x.toml: table: missing (required field)"],
        id="missing-field",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(base_a={"x": NAN})},
        2,
        ["units[0] (id 'a').bases[0].x: expected a finite number"],
        id="nan-coordinate",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(table={"width": INFINITY, "depth": 10.0})},
        2,
        ["table.width: expected a finite number"],
        id="infinite-table",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(table={"width": 0.0, "depth": 10.0})},
        2,
        ["table.width: expected a number greater than 0"],
        id="zero-table",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(base_a={"width": -2.0})},
        2,
        ["units[0] (id 'a').bases[0].width: expected a number greater than 0"],
        id="negative-base",
    ),
    P(
        ["check", "{d}/x.toml"],
        {
            "x.toml": scenario(
                terrain=[{"id": "h", "kind": "hill", "polygon": [[0, 0], [9, 9], [9, 0], [0, 9]]}]
            )
        },
        2,
        ["terrain[0] (id 'h').polygon: not a simple polygon"],
        id="self-intersecting-polygon",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(terrain=[{"id": "h", "kind": "hill", "polygon": [[0, 0], [5, 5], [9, 9]]}])},
        2,
        ["terrain[0] (id 'h').polygon: degenerate"],
        id="degenerate-polygon",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(unit_a={"profile": "nowhere:line"})},
        2,
        ["units[0] (id 'a').profile: unknown army list 'nowhere'"],
        id="unknown-army-list",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(unit_a={"profile": "france:ninjas"})},
        2,
        ["units[0] (id 'a').profile: unknown profile 'ninjas' in army list 'france'"],
        id="unknown-profile",
    ),
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(unit_b={"id": "a"})},
        2,
        ["units[2].id: duplicate id 'a'"],
        id="duplicate-unit-id",
    ),
    # the limits (szwadron.limits): beyond them, refused before any work
    P(
        ["check", "{d}/x.toml"],
        {"x.toml": scenario(table={"width": MAX_TABLE_CM * 10, "depth": 100.0})},
        2,
        ["table.width: expected a number of at most 10000"],
        id="table-beyond-limit",
    ),
    P(
        ["measure", "{d}/x.toml", "a", "b"],
        {"x.toml": scenario(base_a={"x": 1e300})},
        2,
        ["units[0] (id 'a').bases[0].x: expected a number of at most 100000"],
        id="coordinate-beyond-limit",
    ),
    P(
        ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"],
        {"x.toml": scenario(profile_b={"W": 10**30})},
        2,
        ["units[2] (id 'b').profile.wounds: expected a number of at most 1000"],
        id="wounds-beyond-limit",
    ),
    P(
        ["targets", "{d}/x.toml", "--shooter", "a"],
        {"x.toml": scenario(profile_a={"SO": 10**9})},
        2,
        ["units[0] (id 'a').profile.fire: expected a number of at most 100"],
        id="fire-dice-beyond-limit",
    ),
    P(
        ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"],
        {
            "x.toml": scenario(
                terrain=[
                    {"id": "h", "kind": "hill", "level": 10**30, "polygon": [[70, 70], [90, 70], [90, 90]]}
                ]
            )
        },
        2,
        ["terrain[0] (id 'h').level: expected a number of at most 100"],
        id="level-beyond-limit",
    ),
    P(
        ["melee", "{d}/x.toml", "--attacker", "c", "--defender", "a"],
        {"x.toml": scenario(settings={"distance_epsilon_cm": 1.0})},
        2,
        ["settings.distance_epsilon_cm: 1 is a numerical tolerance"],
        id="settings-epsilon",
    ),
    P(
        ["reach", "{d}/x.toml", "--unit", "c", "--target", "a2"],
        {"x.toml": scenario(settings={"control_zone_cm": 1e300})},
        2,
        ["settings.control_zone_cm: expected a number of at most 100000"],
        id="settings-zone",
    ),
    P(
        ["reach", "{d}/x.toml", "--unit", "c", "--target", "a2"],
        {"x.toml": scenario(table={"width": 10000.0, "depth": 10000.0}, profile_c={"R": 3000.0})},
        2,
        ["c/", "at most 4,000,000 are searched"],
        id="reach-grid-beyond-limit",
    ),
    # --- unit and base ids ---------------------------------------------------------------------
    P(
        ["measure", "{d}/s.toml", "a/99", "b"],
        GOOD,
        2,
        ["no base 'a/99': unit 'a' has 4 bases"],
        id="base-index-unknown",
    ),
    P(
        ["measure", "{d}/s.toml", "a/x", "b"],
        GOOD,
        2,
        ["malformed base id 'a/x': expected UNIT/INDEX"],
        id="base-index-malformed",
    ),
    P(["measure", "{d}/s.toml", "/0", "b"], GOOD, 2, ["malformed base id '/0'"], id="base-no-unit"),
    P(
        ["measure", "{d}/s.toml", "zz", "b"],
        GOOD,
        2,
        ["no unit 'zz' (units: a, a2, b, c)"],
        id="unit-unknown",
    ),
    P(
        ["fire", "{d}/s.toml", "--shooter", "a", "--target", "a"],
        GOOD,
        2,
        ["cannot fire at itself"],
        id="fire-at-itself",
    ),
    P(
        ["fire", "{d}/s.toml", "--shooter", "a", "--target", "a2"],
        GOOD,
        2,
        ["a2 is on side A like a"],
        id="fire-at-ally",
    ),
    P(
        ["fire", "{d}/s.toml", "--shooter", "a/0", "--target", "b"],
        GOOD,
        2,
        ["--shooter 'a/0' is a base"],
        id="fire-base-as-shooter",
    ),
    P(
        ["fire", "{d}/s.toml", "--shooter", "a", "--target", "b", "--bases", "b/0"],
        GOOD,
        2,
        ["--bases 'b/0' is not a base of the firing unit a"],
        id="fire-bases-of-enemy",
    ),
    P(
        ["melee", "{d}/s.toml", "--attacker", "c", "--defender", "b"],
        GOOD,
        2,
        ["c and b are on the same side"],
        id="melee-allies",
    ),
    P(
        ["reach", "{d}/s.toml", "--unit", "c", "--target", "a/0"],
        GOOD,
        2,
        ["name units, not bases"],
        id="reach-base-as-target",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2/0", "--to", "{d}/m.toml"],
        GOOD,
        2,
        ["--unit 'a2/0' is a base; give the unit id 'a2'"],
        id="move-base-as-unit",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/m.toml", "--charge", "b/0"],
        GOOD,
        2,
        ["--charge 'b/0' is a base; give the unit id 'b'"],
        id="move-base-as-charge",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/m.toml", "--charge", "a"],
        GOOD,
        2,
        ["--charge a: a unit charges enemy units only"],
        id="move-charge-ally",
    ),
    P(
        ["morale", "{d}/s.toml", "--side", "C"],
        GOOD,
        2,
        ["argument --side: expected A or B"],
        id="morale-side",
    ),
    # --- move files ----------------------------------------------------------------------------
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {**GOOD, "x.toml": {"bases": [{"index": 7, "x": 10.0, "y": 12.0, "facing": 90.0}]}},
        2,
        ["{d}/x.toml: bases[0].index: unit 'a2' has no base 7"],
        id="move-base-unknown",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {
            **GOOD,
            "x.toml": {
                "bases": [
                    {"index": 0, "x": 10.0, "y": 12.0, "facing": 90.0, "waypoints": [[10.0, NAN, 90.0]]}
                ]
            },
        },
        2,
        ["{d}/x.toml: bases[0].waypoints[0][1]: expected a finite number"],
        id="move-waypoint-nan",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {
            **GOOD,
            "x.toml": {
                "bases": [{"index": 0, "x": 10.0, "y": 12.0, "facing": 90.0, "waypoints": [[10.0, 11.0]]}]
            },
        },
        2,
        ["bases[0].waypoints: waypoint 0: expected 3 numbers [x, y, facing], got 2"],
        id="move-waypoint-arity",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {**GOOD, "x.toml": {"unit": "b", "bases": [{"index": 0, "x": 10.0, "y": 12.0, "facing": 90.0}]}},
        2,
        ["{d}/x.toml: unit: the move file is for unit 'b'"],
        id="move-file-other-unit",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {**GOOD, "x.toml": {"bases": [{"index": 0, "x": -1e300, "y": 12.0, "facing": 90.0}]}},
        2,
        ["{d}/x.toml: bases[0].x: expected a number of at least -100000"],
        id="move-pose-far-off",
    ),
    P(
        ["move", "{d}/s.toml", "--unit", "a2", "--to", "{d}/x.toml"],
        {**GOOD, "x.toml": {"bases": [{"index": 0, "x": -50.0, "y": 12.0, "facing": 90.0}]}},
        2,
        ["{d}/x.toml: bases[0]: the new pose is off the table"],
        id="move-pose-off-table",
    ),
    # --- odds ----------------------------------------------------------------------------------
    P(
        ["odds", "fire", "--fire", "0@3", "--wounds", "2"],
        {},
        2,
        ["--fire #1: the number of dice must be ≥ 1"],
        id="odds-zero-dice",
    ),
    P(
        ["odds", "fire", "--fire=-3@3", "--wounds", "2"],
        {},
        2,
        ["the number of dice must be ≥ 1, got -3"],
        id="odds-negative-dice",
    ),
    P(
        ["odds", "fire", "--fire", "100000000@3", "--wounds", "2"],
        {},
        2,
        [f"rolls 100000000 dice; exact odds are computed for at most {MAX_DICE} dice"],
        id="odds-dice-beyond-limit",
    ),
    P(
        [
            "odds",
            "fire",
            *["--fire", "300@2", "--fire", "300@3", "--fire", "300@4", "--fire", "300@5"],
            "--wounds",
            "2",
        ],
        {},
        2,
        ["rolls 1200 dice"],
        id="odds-groups-beyond-limit",
    ),
    P(
        ["odds", "fire", "--fire", "x", "--wounds", "2"],
        {},
        2,
        ["argument --fire: expected N or N@C"],
        id="odds-fire-malformed",
    ),
    P(
        ["odds", "fire", "--fire", "3", "--wounds", "2"],
        {},
        2,
        ["give its accuracy as N@C or --accuracy C"],
        id="odds-no-accuracy",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "0"],
        {},
        2,
        ["W must be a whole number ≥ 1, got 0"],
        id="odds-wounds-zero",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "2,1000000000000"],
        {},
        2,
        [f"wounds[1]: W must be at most {MAX_WOUNDS}"],
        id="odds-wounds-beyond-limit",
    ),
    P(
        [
            "odds",
            "fire",
            "--fire",
            "3@3",
            "--wounds",
            "2",
            "--morale",
            "4",
            "--strength",
            "13",
            "--initial",
            "12",
        ],
        {},
        2,
        ["--strength 13 is above --initial 12"],
        id="odds-strength-above-initial",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "2", "--die", "d7"],
        {},
        2,
        ["argument --die: invalid choice: 'd7'"],
        id="odds-unknown-die",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "2", "--roll", "--seed", "x"],
        {},
        2,
        ["argument --seed: invalid int value: 'x'"],
        id="odds-seed-not-integer",
    ),
    P(
        ["odds", "morale", "--morale", "4", "--strength", "13", "--initial", "12"],
        {},
        2,
        ["strength 13 is above the initial strength 12"],
        id="odds-morale-strength-above-initial",
    ),
    P(
        ["odds", "melee", "--attacker", "figures=", "--defender", "figures=2 SW=1 UW=3 W=1 M=4"],
        {},
        2,
        ["--attacker: figures must be a whole number, got ''"],
        id="melee-spec-empty-value",
    ),
    P(
        ["odds", "melee", "--attacker", "SW=2", "--defender", "figures=2 SW=1 UW=3 W=1 M=4"],
        {},
        2,
        ["--attacker: missing figures, UW, W, M"],
        id="melee-spec-missing-keys",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=x SW=1 UW=3 W=1 M=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        ["--attacker: figures must be a whole number, got 'x'"],
        id="melee-spec-not-a-number",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=2 figures=3 SW=1 UW=3 W=1 M=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        ["--attacker: figures given twice"],
        id="melee-spec-duplicate-key",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=2 SW=1 UW=3 W=1 M=4 colour=red",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        ["--attacker: unknown key 'colour'"],
        id="melee-spec-unknown-key",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=2 SW=1 UW=3 W=1 M=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=0 M=4",
        ],
        {},
        2,
        ["--defender: wounds must be ≥ 1, got 0"],
        id="melee-spec-wounds-zero",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=2 SW=1 UW=3 W=1 M=4 strength=5 initial=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        ["--attacker: strength 5 is above the initial strength 4"],
        id="melee-spec-strength-above-initial",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=100000000 SW=1 UW=3 W=1 M=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        [f"--attacker: figures must be at most {MAX_MELEE_FIGURES}"],
        id="melee-figures-beyond-limit",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=20 SW=100 UW=3 W=1 M=4",
            "--defender",
            "figures=2 SW=1 UW=3 W=1 M=4",
        ],
        {},
        2,
        ["--attacker: a melee side rolls 2000 dice"],
        id="melee-dice-beyond-limit",
    ),
    P(
        ["remainder", "--max-wounds", "0"],
        {},
        2,
        ["--max-wounds must be a whole number ≥ 2"],
        id="remainder-zero",
    ),
    P(
        ["remainder", "--max-wounds", "100000000"],
        {},
        2,
        [f"--max-wounds must be at most {MAX_WOUNDS}"],
        id="remainder-beyond-limit",
    ),
    # --- output files --------------------------------------------------------------------------
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/no/such/folder/t.png"],
        GOOD,
        2,
        ["the folder {d}/no/such/folder does not exist"],
        id="plot-output-folder-missing",
    ),
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/t.gif"],
        GOOD,
        2,
        ["unknown picture format '.gif'"],
        id="plot-output-suffix",
    ),
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/s.toml"],
        GOOD,
        2,
        ["unknown picture format '.toml'"],
        id="plot-output-is-input",
    ),
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/taken.png"],
        {**GOOD, "taken.png": None},
        2,
        ["{d}/taken.png: cannot write"],
        id="plot-output-is-a-folder",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "2", "--plot", "{d}/taken.svg"],
        {"taken.svg": None},
        2,
        ["{d}/taken.svg: cannot write"],
        id="odds-plot-output-is-a-folder",
    ),
    P(
        ["odds", "fire", "--fire", "3@3", "--wounds", "2", "--plot", "{d}/no/t.png"],
        {},
        2,
        ["the folder {d}/no does not exist"],
        id="odds-plot-folder-missing",
    ),
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/t.png", "--region=-1e6,-1e6,1e6,1e6"],
        GOOD,
        2,
        ["must overlap the table"],
        id="plot-region-far-beyond-the-table",
    ),
    P(
        ["plot", "{d}/s.toml", "-o", "{d}/t.png", "--region", "500,500,600,600"],
        GOOD,
        2,
        ["must overlap the table"],
        id="plot-region-off-the-table",
    ),
    P(
        ["fire", "{d}/s.toml", "--shooter", "a", "--target", "b", "--plot", "{d}/no/t.png"],
        GOOD,
        2,
        ["the folder {d}/no does not exist"],
        id="fire-plot-folder-missing-before-any-answer",
    ),
    # --- points and balance --------------------------------------------------------------------
    P(["points", "narnia"], {}, 2, ["unknown army list 'narnia'"], id="points-unknown-list"),
    P(
        ["points", "france", "--roster", "nope"],
        {},
        2,
        ["unknown roster 'nope' in army list 'france'"],
        id="points-unknown-roster",
    ),
    P(
        ["points", "france", "--roster", "{d}/x.toml"],
        {"x.toml": {**ROSTER, "units": [{"profile": "line_infantry", "figures": 0}]}},
        2,
        ["{d}/x.toml: units[0].figures: expected a number of at least 1"],
        id="roster-zero-figures",
    ),
    P(
        ["points", "france", "--roster", "{d}/x.toml"],
        {"x.toml": {**ROSTER, "army": "narnia"}},
        2,
        ["{d}/x.toml: army: unknown army list 'narnia'"],
        id="roster-unknown-list",
    ),
    P(
        ["points", "france", "--roster", "{d}/x.toml"],
        {"x.toml": {**ROSTER, "units": [{"profile": "ninjas", "figures": 3}]}},
        2,
        ["{d}/x.toml: units[0].profile: unknown profile 'ninjas'"],
        id="roster-unknown-profile",
    ),
    P(
        ["points", "austria", "--roster", "{d}/x.toml"],
        {"x.toml": ROSTER},
        2,
        ["roster 'mine' is of army list 'france', not 'austria'"],
        id="roster-of-another-list",
    ),
    P(
        ["points", "{d}/x.toml"],
        {"x.toml": ROSTER},
        2,
        ["{d}/x.toml: a roster file (of army list 'france'), not an army list"],
        id="roster-given-as-list",
    ),
    P(
        ["points", "france", "--plot", "{d}/x.gif"],
        {},
        2,
        ["{d}/x.gif: unknown picture format '.gif'"],
        id="points-plot-suffix",
    ),
    P(
        ["points", "validate", "--plot", "{d}/no/m.png"],
        {},
        2,
        ["the folder {d}/no does not exist"],
        id="points-validate-plot-folder-missing",
    ),
    P(
        ["points", "validate", "--duels", "1000000000000"],
        {},
        2,
        ["--duels must be at most 100000"],
        id="points-duels-beyond-limit",
    ),
    P(
        ["points", "validate", "--workers", "100000"],
        {},
        2,
        ["--workers must be at most"],
        id="points-workers-beyond-limit",
    ),
    P(
        ["points", "calibrate", "--duels", "0"],
        {},
        2,
        ["--duels must be at least 1, got 0"],
        id="points-duels-zero",
    ),
    P(
        ["balance", "france:UNKNOWN_ROSTER", "austria"],
        {},
        2,
        ["unknown roster 'UNKNOWN_ROSTER' in army list 'france'"],
        id="balance-unknown-roster",
    ),
    P(["balance", "france", "narnia"], {}, 2, ["unknown army list 'narnia'"], id="balance-unknown-list"),
    P(
        ["balance", ":", "austria"],
        {},
        2,
        ["side ':': expected LIST or LIST:ROSTER"],
        id="balance-empty-side",
    ),
    P(
        ["balance", "{d}/x.toml:corps-1000", "austria"],
        {"x.toml": ROSTER},
        2,
        ["{d}/x.toml: a roster file names its own army"],
        id="balance-roster-file-with-roster",
    ),
    # --- usage ---------------------------------------------------------------------------------
    P(["check"], {}, 2, ["the following arguments are required: SCENARIO"], id="usage-missing-argument"),
    P(["nope"], {}, 2, ["argument COMMAND: invalid choice: 'nope'"], id="usage-unknown-command"),
]


def _make(folder: Path, files: dict[str, Any]) -> None:
    for name, content in files.items():
        path = folder / name
        if content == "<missing>":
            continue
        if content is None:
            path.mkdir(parents=True)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, dict):
            path.write_text(toml(content), encoding="utf-8")
        else:
            path.write_text(content, encoding="utf-8")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``szwadron ARGV`` in-process: (exit code, stdout, stderr); usage errors exit inside argparse."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("argv", "files", "code", "fragments"), BAD)
def test_bad_input_gives_one_message_and_exit_2(
    argv: list[str],
    files: dict[str, Any],
    code: int,
    fragments: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Exit code 2, one ``szwadron COMMAND: error:`` line (continued by indented lines only),
    each fragment in it, no traceback, nothing on stdout, no output or temporary file left."""
    monkeypatch.chdir(tmp_path)
    _make(tmp_path, files)
    before = set(tmp_path.rglob("*"))
    d = str(tmp_path)
    got, out, err = run([a.replace("{d}", d) for a in argv], capsys)
    assert got == code, err
    assert "Traceback" not in err
    assert out == ""
    errors = [line for line in err.splitlines() if re.match(r"^szwadron[\w ]*: error: ", line)]
    assert len(errors) == 1, err
    after_error = err.split(errors[0], 1)[1].splitlines()[1:]
    assert all(line.startswith("  ") for line in after_error), err
    for fragment in fragments:
        assert fragment.replace("{d}", d) in err
    assert set(tmp_path.rglob("*")) == before, "an output or temporary file was left behind"


# --- extreme but valid: an answer, not an error ------------------------------------------------
def _overlapping() -> dict[str, Any]:
    return scenario(unit_b={"bases": _line(40, 41, 4, 270.0)})


EXTREME: list[Any] = [
    P(["check", "{d}/x.toml"], scenario(table={"width": 10000.0, "depth": 10000.0}), 0, id="10000-cm-table"),
    P(
        ["reach", "{d}/x.toml", "--unit", "c", "--target", "a2"],
        scenario(table={"width": 10000.0, "depth": 10000.0}),
        1,
        id="reach-on-10000-cm-table",
    ),
    P(
        ["reach", "{d}/x.toml", "--unit", "c", "--target", "a2"],
        scenario(unit_c={"bases": _line(3000, 43, 2, 270.0)}),
        1,
        id="reach-from-off-the-table",
    ),
    P(
        ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"],
        scenario(unit_a={"bases": _line(40, 40, 1)}, unit_c={"bases": _line(80, 10, 2, 270.0)}),
        0,
        id="unit-of-one-base",
    ),
    P(
        ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"],
        scenario(profile_a={"SO": 0}, unit_c={"bases": _line(80, 10, 2, 270.0)}),
        1,
        id="unit-with-no-fire",
    ),
    P(
        ["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"],
        scenario(profile_a={"W": 50}, profile_b={"W": 50}, unit_c={"bases": _line(80, 10, 2, 270.0)}),
        0,
        id="wounds-50",
    ),
    P(["check", "{d}/x.toml"], _overlapping(), 0, id="check-reports-overlaps"),
    P(["fire", "{d}/x.toml", "--shooter", "a", "--target", "b"], _overlapping(), 1, id="fire-on-overlaps"),
    P(
        ["melee", "{d}/x.toml", "--attacker", "c", "--defender", "a"],
        _overlapping(),
        0,
        id="melee-on-overlaps",
    ),
    P(["move", "{d}/x.toml", "--unit", "a2", "--to", "{d}/m.toml"], _overlapping(), 0, id="move-on-overlaps"),
    P(
        ["measure", "{d}/x.toml", "a", "b"],
        scenario(
            table={"width": 1000.0, "depth": 1000.0},
            unit_a={"bases": [p for r in range(10) for p in _line(100, 100 + 2 * r, 20)]},
            unit_b={"bases": [p for r in range(10) for p in _line(100, 300 + 2 * r, 20, 270.0)]},
        ),
        0,
        id="measure-two-units-of-200-bases",
    ),
    P(["odds", "fire", "--fire", "500@3", "--wounds", "2"], None, 0, id="odds-500-dice"),
    P(
        ["odds", "fire", "--fire", f"{MAX_DICE}@3", "--wounds", "50", "--figures", "1000000000"],
        None,
        0,
        id="odds-1000-dice-W50-huge-cap",
    ),
    P(
        [
            "odds",
            "fire",
            "--fire",
            "30@3",
            "--wounds",
            "2",
            "--morale",
            "4",
            "--strength",
            "1000000000",
            "--initial",
            "1000000000",
        ],
        None,
        0,
        id="odds-huge-strength",
    ),
    P(
        [
            "odds",
            "melee",
            "--attacker",
            "figures=250 SW=2 UW=3 W=50 M=4",
            "--defender",
            "figures=250 SW=2 UW=3 W=50 M=4",
        ],
        None,
        0,
        id="odds-melee-500-dice-a-side-W50",
    ),
    P(
        ["odds", "morale", "--morale", "4", "--strength", "1", "--initial", "1000000000"],
        None,
        0,
        id="odds-morale-huge-initial",
    ),
]


@pytest.mark.parametrize(("argv", "file", "code"), EXTREME)
def test_extreme_but_valid_input_answers(
    argv: list[str],
    file: dict[str, Any] | None,
    code: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _make(tmp_path, {"m.toml": GOOD["m.toml"], **({"x.toml": file} if file is not None else {})})
    got, out, err = run([a.replace("{d}", str(tmp_path)) for a in argv], capsys)
    assert got == code, err
    assert out and "Traceback" not in err and "error" not in err


def test_check_lists_overlaps_and_strict_says_no(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PD-3: overlapping bases are problems check reports (exit 0; 1 with --strict), not a crash."""
    _make(tmp_path, {"x.toml": _overlapping()})
    code, out, _ = run(["check", str(tmp_path / "x.toml"), "--json"], capsys)
    assert code == 0 and json.loads(out)["overlaps"]
    assert run(["check", str(tmp_path / "x.toml"), "--strict"], capsys)[0] == 1


# --- an internal error (a bug): one line, exit 3; --debug shows the traceback -----------------
def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("boom\nsecond line")


def test_internal_error_is_one_line_and_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("szwadron.odds.remainder.remainder_table", _boom)
    code, out, err = run(["remainder"], capsys)
    assert code == EXIT_INTERNAL_ERROR == 3
    assert out == "" and "Traceback" not in err and "second line" not in err
    assert err.startswith("szwadron remainder: internal error: RuntimeError: boom\n")
    assert "a bug in szwadron, not in your input" in err and "--debug" in err
    for argv in (["--debug", "remainder"], ["remainder", "--debug"]):
        with pytest.raises(RuntimeError, match="boom"):
            main(argv)
    capsys.readouterr()


def test_os_error_is_one_message_and_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file the command cannot read or write (no permission, a full disk) is the environment's
    fault, not a bug: one message naming the file, exit 2."""

    def denied(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", "/root/secret.toml")

    monkeypatch.setattr("szwadron.odds.remainder.remainder_table", denied)
    code, _, err = run(["remainder"], capsys)
    assert code == 2 and err == "szwadron remainder: error: /root/secret.toml: Permission denied\n"


def test_odds_errors_name_the_question(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["odds", "fire", "--fire", "0@3", "--wounds", "2"], capsys)
    assert code == 2 and err.startswith("szwadron odds fire: error: ")


def test_no_traceback_reaches_the_terminal(tmp_path: Path) -> None:
    """``python -m szwadron``, with a bug planted at start-up (``sitecustomize``): one line and
    exit code 3 on the terminal; ``--debug`` shows the traceback (proving the bug was hit)."""
    (tmp_path / "sitecustomize.py").write_text(
        "import szwadron.odds.remainder\n"
        "def _boom(*args, **kwargs):\n"
        "    raise ZeroDivisionError('planted bug')\n"
        "szwadron.odds.remainder.remainder_table = _boom\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)])}
    plain = subprocess.run(
        [sys.executable, "-m", "szwadron", "remainder"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert plain.returncode == 3, plain.stderr
    assert plain.stdout == "" and "Traceback" not in plain.stderr
    assert "szwadron remainder: internal error: ZeroDivisionError: planted bug" in plain.stderr
    debug = subprocess.run(
        [sys.executable, "-m", "szwadron", "remainder", "--debug"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "planted bug" in debug.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "szwadron", "check", str(tmp_path / "missing.toml")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert (
        bad.returncode == 2 and "Traceback" not in bad.stderr and "missing.toml: no such file" in bad.stderr
    )
