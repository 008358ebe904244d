"""Benchmark of the morale phase (issue 6): the report for a side of 50 units, budget < 0.5 s.

Run: ``.venv/bin/python benchmarks/bench_morale.py [--write]``. ``--write`` records the results in
``benchmarks/RESULTS.md`` under ``## Morale phase (issue 6)`` (replacing only that section).

The battle (built in code, seeded): a 240 × 180 cm table with a river (impassable), two farms and
a fortification; side A has 50 units — 20 infantry battalions of 8 bases and 10 cavalry
regiments of 4 bases in panic, 10 infantry and 5 cavalry units in uncontrolled pursuit, 5
batteries in panic — scattered over its half, many within 10 cm of the enemy; side B has 50
normal units of 6 infantry bases, in its half and among side A's units. Every unit of side A is
reported (everything the phase computes: 10 cm checks, engagement, flight corridors, blocking,
surrender, pass-through, pursuit targets, casualty tables).

Timed: :func:`szwadron.table.morale_phase.morale_phase` from a validated :class:`Scenario` (so the
battlefield arrays and STR-trees are built inside the timing), median of repeated runs; and the
whole ``szwadron morale FILE --side A --json`` as a process.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _results import median_times, process_times, write_section  # noqa: E402

from szwadron.models import Scenario  # noqa: E402
from szwadron.table.morale_phase import morale_phase  # noqa: E402

BUDGET_S = 0.5
HEADING = "## Morale phase (issue 6)"

_STATS: dict[str, dict[str, Any]] = {
    "infantry": {"R": 12, "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4},
    "cavalry": {"R": 24, "W": 2, "SW": 2, "SO": 0, "Z": 0, "UW": 4, "C": 0, "M": 4},
    "foot_artillery": {"R": 6, "W": 3, "SW": 0, "SO": 4, "Z": 60, "UW": 1, "C": 3, "M": 4},
}
_SIZE = {"infantry": (2.0, 2.0), "cavalry": (2.0, 4.0), "foot_artillery": (4.0, 4.0)}


def _profile(kind: str) -> dict[str, Any]:
    return {"id": kind.replace("_", "-"), "name": kind, "kind": kind, **_STATS[kind]}


def _line(x: float, y: float, n: int, kind: str, facing: float) -> list[dict[str, float]]:
    w, _ = _SIZE[kind]
    a = math.radians(facing)
    rx, ry = math.sin(a), -math.cos(a)
    return [{"x": x + k * w * rx, "y": y + k * w * ry, "facing": facing} for k in range(n)]


def battle(seed: int = 6) -> dict[str, Any]:
    """The benchmark battle as scenario data (see the module docstring)."""
    rng = random.Random(seed)
    units: list[dict[str, Any]] = []
    plan = (
        [("infantry", 8, "panic")] * 20
        + [("cavalry", 4, "panic")] * 10
        + [("infantry", 8, "pursuit")] * 10
        + [("cavalry", 4, "pursuit")] * 5
        + [("foot_artillery", 1, "panic")] * 5
    )
    # side A on a grid of slots, each 24 cm wide and 16 cm deep, so no two units overlap
    slots = [(12 + 24 * i, 10 + 16 * j) for j in range(5) for i in range(9)]
    slots += [(24 + 24 * i, 92) for i in range(8)]
    rng.shuffle(slots)
    for k, (kind, n, state) in enumerate(plan):
        x, y = slots[k]
        units.append(
            {
                "id": f"a{k}",
                "side": "A",
                "state": state,
                "profile": _profile(kind),
                "bases": _line(x + rng.uniform(-1, 1), y + rng.uniform(0, 2), n, kind, 90.0),
            }
        )
    # side B: 50 battalions of 6, a third among side A's units (right behind some slots)
    b_slots = [(12 + 24 * i, 120 + 14 * j) for j in range(4) for i in range(9)]
    near = rng.sample(slots[:50], 14)
    for k in range(50):
        if k < 36:
            bx, by = float(b_slots[k][0]), float(b_slots[k][1])
        else:
            bx, by = near[k - 36][0] + 4.0, near[k - 36][1] + rng.choice([-7.0, 9.0])
        units.append(
            {
                "id": f"b{k}",
                "side": "B",
                "profile": _profile("infantry"),
                "bases": _line(bx, by, 6, "infantry", 270.0),
            }
        )
    terrain = [
        {"id": "river", "kind": "impassable", "line": [[0, 4], [60, 6], [120, 3]], "width": 1.5},
        {"id": "farm-1", "kind": "building", "polygon": [[150, 2], [160, 2], [160, 6], [150, 6]]},
        {"id": "farm-2", "kind": "building", "polygon": [[200, 30], [208, 30], [208, 35], [200, 35]]},
        {"id": "redoubt", "kind": "fortification", "polygon": [[170, 60], [190, 60], [190, 70], [170, 70]]},
    ]
    return {
        "name": "bench: 50 units a side",
        "table": {"width": 240.0, "depth": 180.0},
        "terrain": terrain,
        "units": units,
    }


def toml_of(data: dict[str, Any]) -> str:
    """A TOML text of the battle (the scenario format: schemas/scenario.schema.json)."""

    def profile(p: dict[str, Any]) -> str:
        items = ", ".join(f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in p.items())
        return "{ " + items.replace("'", '"') + " }"

    out = [
        f'name = "{data["name"]}"',
        "",
        "[table]",
        f"width = {data['table']['width']}",
        f"depth = {data['table']['depth']}",
        "",
    ]
    for t in data["terrain"]:
        out.append("[[terrain]]")
        for k, v in t.items():
            out.append(f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}")
        out.append("")
    for u in data["units"]:
        out += [
            "[[units]]",
            f'id = "{u["id"]}"',
            f'side = "{u["side"]}"',
            f'state = "{u.get("state", "normal")}"',
            f"profile = {profile(u['profile'])}",
            "bases = ["
            + ", ".join(
                f"{{ x = {b['x']:.4f}, y = {b['y']:.4f}, facing = {b['facing']} }}" for b in u["bases"]
            )
            + "]",
            "",
        ]
    return "\n".join(out)


def bench(reps: int = 21) -> dict[str, Any]:
    data = battle()
    scenario = Scenario.model_validate(data)
    report = morale_phase(scenario, "A")  # warm imports and caches of the dice
    stats = {
        "units": sum(1 for u in scenario.units if u.side == "A"),
        "bases": sum(len(u.bases) for u in scenario.units),
        "reported": len(report.units),
        "may_reorganise": sum(u.may_reorganise for u in report.units),
        "blocked": sum(any(f.blocked_by for f in u.figures) for u in report.units),
        "pass_through": sum(bool(u.pass_through) for u in report.units),
    }
    lib = median_times(lambda: morale_phase(scenario, "A"), reps)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "battle.toml"
        path.write_text(toml_of(data), encoding="utf-8")
        argv = [sys.executable, "-m", "szwadron", "morale", str(path), "--side", "A", "--json"]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        subprocess.run(argv, check=True, capture_output=True, env=env)
        cli = process_times(argv, max(5, reps // 3), env=env)
    return {**stats, "lib": lib, "cli": cli, "reps": reps}


def render(r: dict[str, Any]) -> str:
    import numpy
    import shapely

    return "\n".join(
        [
            HEADING,
            "",
            f"`benchmarks/bench_morale.py` — {dt.date.today().isoformat()}, `{platform.machine()}`, "
            f"{os.cpu_count()} cores, Python {platform.python_version()}, shapely {shapely.__version__}, "
            f"numpy {numpy.__version__}. A side of {r['units']} units (20 infantry and 10 cavalry "
            "units in panic, 15 in uncontrolled pursuit, 5 batteries in panic) against 50 enemy "
            f"battalions; {r['bases']} bases in all, a river, two farms and a redoubt. All "
            f"{r['reported']} units of side A reported: {r['may_reorganise']} may reorganise, "
            f"{r['blocked']} have a flight blocked, {r['pass_through']} pass through own units. "
            "Budget: the report for a side of 50 units under 0.5 s.",
            "",
            "Medians of wall time and of CPU time (this process's, or the child process's for the "
            "command); the machine is shared, so the ratio to the budget is of CPU time.",
            "",
            "| what | median wall | median CPU | budget | CPU / budget |",
            "|---|---:|---:|---:|---:|",
            f'| `morale_phase(scenario, "A")` in-process, battlefield built inside, median of '
            f"{r['reps']} | {r['lib'].wall * 1e3:.1f} ms | {r['lib'].cpu * 1e3:.1f} ms | "
            f"{BUDGET_S * 1e3:.0f} ms | {r['lib'].cpu / BUDGET_S:.2f} |",
            f"| `szwadron morale FILE --side A --json` as a process (start-up, TOML, validation, "
            f"JSON) | {r['cli'].wall * 1e3:.0f} ms | {r['cli'].cpu * 1e3:.0f} ms | "
            f"{BUDGET_S * 1e3:.0f} ms | {r['cli'].cpu / BUDGET_S:.2f} |",
            "",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="record in benchmarks/RESULTS.md")
    parser.add_argument("--reps", type=int, default=21, help="runs of the in-process timing")
    args = parser.parse_args()
    text = render(bench(args.reps))
    print(text)
    if args.write:
        write_section(HEADING, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
