"""Benchmark of fire at the table (issue 4): ``szwadron.table.fire.fire`` and ``szwadron.table.fire.targets``.

A table of 1,200 × 800 cm with 2 × 1,000 other bases (50 infantry battalions of 20 bases a side,
in line or in column, spread over both halves) and 200 terrain features (hills of levels 1 and 2,
woods, rubble, fences, high walls, farms) — plus a 24-base battalion (two ranks of 12) firing at
a 24-base battalion 16 cm in front of it, with a fence along the target's front, a patch of
rubble under part of it, a wood and a hill nearby and a few bystanders beside the lines of fire.

Timed in-process, median of many runs:

- ``fire(bf, "shooter", "target")`` on a battlefield already built (the trees, arrays, terrain
  data and engagements of a session at the table; arcs, sight, cover, removal order, odds and
  morale inside), and cold: a fresh battlefield every run, every cached distribution cleared;
- ``targets(bf, "shooter")`` over the 51 enemy units;
- the same with ``method="brute"``: every base and feature tried without the spatial index;
  the answers are checked identical (the JSON documents are equal).

Budgets: ``fire`` under 30 ms, ``targets`` over 50 enemy units under 1 s.

Run:  .venv/bin/python benchmarks/bench_fire.py [--write]
(``--write`` replaces the "## Fire (issue 4)" section of benchmarks/RESULTS.md.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import sys
from pathlib import Path
from typing import Any

import shapely
from _results import Timing, median_times, write_section

from szwadron.geometry.battlefield import Battlefield
from szwadron.models import Scenario
from szwadron.odds.combat import clear_caches
from szwadron.table.fire import fire, targets

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "RESULTS.md"
HEADING = "## Fire (issue 4)"

WIDTH, DEPTH = 1200.0, 800.0
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


def _block(x: float, y: float, n: int, files: int, facing: float) -> list[dict[str, Any]]:
    back = -2.0 if facing == 90.0 else 2.0
    return [{"x": x + 2.0 * (k % files), "y": y + back * (k // files), "facing": facing} for k in range(n)]


def build(seed: int = 4) -> Scenario:
    """The benchmark table (deterministic for a seed)."""
    rng = random.Random(seed)
    units: list[dict[str, Any]] = [
        {"id": "shooter", "side": "A", "profile": INF, "bases": _block(600, 400, 24, 12, 90.0)},
        {
            "id": "target",
            "side": "B",
            "profile": INF,
            "bases": _block(602, 416, 24, 12, 270.0),
            "initial_strength": 30,
        },
        # bystanders beside the lines of fire
        {"id": "friend", "side": "A", "profile": INF, "bases": _block(580, 405, 4, 2, 90.0)},
        {"id": "enemy-left", "side": "B", "profile": INF, "bases": _block(588, 420, 4, 2, 270.0)},
    ]
    terrain: list[dict[str, Any]] = [
        {"id": "fence", "kind": "obstacle", "line": [[595, 414.75], [630, 414.75]], "width": 0.5},
        {"id": "rubble", "kind": "rough", "polygon": [[613, 414], [630, 414], [630, 420], [613, 420]]},
        {"id": "near-wood", "kind": "forest", "polygon": [[560, 410], [575, 410], [575, 430], [560, 430]]},
        {
            "id": "near-hill",
            "kind": "hill",
            "level": 1,
            "polygon": [[640, 395], [660, 395], [660, 425], [640, 425]],
        },
    ]
    # 2 × 50 battalions of 20 in a grid of slots away from the firing zone
    slots = [(x, y) for x in range(40, int(WIDTH) - 60, 60) for y in range(40, int(DEPTH) - 40, 45)]
    rng.shuffle(slots)
    taken = 0
    for side in ("A", "B"):
        placed = 0
        while placed < 50:
            x, y = slots[taken]
            taken += 1
            if abs(x - 600) < 90 and abs(y - 400) < 70:
                continue
            facing = 90.0 if side == "A" else 270.0
            files = rng.choice([10, 5, 4])
            units.append(
                {
                    "id": f"{side}{placed}",
                    "side": side,
                    "profile": INF,
                    "bases": _block(x + rng.uniform(0, 10), y + rng.uniform(0, 6), 20, files, facing),
                }
            )
            placed += 1
    # 196 more features at random, away from the firing zone
    kinds = ["hill", "forest", "rough", "obstacle", "high_wall", "building"]
    while len(terrain) < 200:
        kind = rng.choice(kinds)
        fx, fy = rng.uniform(20, WIDTH - 40), rng.uniform(20, DEPTH - 40)
        if abs(fx - 600) < 80 and abs(fy - 400) < 60:
            continue
        k = len(terrain)
        if kind in ("obstacle", "high_wall"):
            terrain.append(
                {
                    "id": f"t{k}",
                    "kind": kind,
                    "width": 0.5,
                    "line": [[fx, fy], [fx + rng.uniform(5, 25), fy + rng.uniform(-5, 5)]],
                }
            )
            continue
        w, h = rng.uniform(4, 30), rng.uniform(4, 25)
        feat: dict[str, Any] = {
            "id": f"t{k}",
            "kind": kind,
            "polygon": [[fx, fy], [fx + w, fy], [fx + w, fy + h], [fx, fy + h]],
        }
        if kind == "hill":
            feat["level"] = rng.choice([1, 1, 2])
        terrain.append(feat)
    return Scenario.model_validate(
        {"name": "bench-fire", "table": {"width": WIDTH, "depth": DEPTH}, "terrain": terrain, "units": units}
    )


def _median_ms(fn: Any, runs: int) -> tuple[Timing, Any]:
    """Median wall and CPU times of ``runs`` calls, and the last answer."""
    out: list[Any] = [None]

    def call() -> None:
        out[0] = fn()

    return median_times(call, runs), out[0]


def _cell(t: Timing, digits: int = 1) -> str:
    return f"{1e3 * t.wall:.{digits}f} / {1e3 * t.cpu:.{digits}f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="record the results in RESULTS.md")
    ap.add_argument("--runs", type=int, default=31)
    args = ap.parse_args()

    sc = build()
    bf = Battlefield(sc)
    n_bases = len(bf)
    n_enemy = sum(u.side == "B" for u in sc.units)

    def cold_fire(method: str = "index") -> Any:
        clear_caches()  # the volley distributions too
        return fire(Battlefield(sc), "shooter", "target", method=method)  # type: ignore[arg-type]

    cold_fire()  # imports and first-use costs of the process
    cold_t, cold = _median_ms(cold_fire, max(5, args.runs // 3))
    fire(bf, "shooter", "target")  # warm the trees and terrain data of bf
    fire_t, result = _median_ms(lambda: fire(bf, "shooter", "target"), args.runs)
    brute_t, brute = _median_ms(lambda: fire(bf, "shooter", "target", method="brute"), 3)
    assert brute.to_json() == result.to_json() == cold.to_json(), "fire: answers differ"
    cold_brute_t, _ = _median_ms(lambda: cold_fire("brute"), 3)

    targets(bf, "shooter")
    tg_t, rep = _median_ms(lambda: targets(bf, "shooter"), max(3, args.runs // 6))
    tg_brute_t, rep_brute = _median_ms(lambda: targets(bf, "shooter", method="brute"), 1)
    assert rep_brute.to_json() == rep.to_json(), "targets: index and brute answers differ"

    firing = sum(s.can_fire for s in result.shooters)
    eligible = sum(t.eligible for t in result.targets)
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_fire.py` — {dt.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, shapely {shapely.__version__}. "
        f"A table of {WIDTH:,.0f} × {DEPTH:,.0f} cm with {n_bases:,} bases ({len(sc.units)} units: "
        f"the 24-base shooter and target, 2 × 50 battalions of 20, two small bystander units beside "
        f"the lines of fire) and {len(sc.terrain)} terrain features (hills of levels 1-2, woods, "
        "rubble, fences, high walls, farms; a fence, rubble, a wood and a hill at the target). "
        f"The answer: {firing} of 24 shooting bases fire (the rear rank's fronts are touched, 4.4.2), "
        f"{eligible} of 24 target bases can be hit, expected {result.expected:.3f} figures removed. "
        'Index = STR-trees over bases and terrain (`method="index"`); brute = every base and '
        'feature tried without the index (`method="brute"`); both answers checked identical '
        "(equal JSON documents).",
        "",
        "Times are medians of wall time and of this process's CPU time (the machine is shared: "
        "wall time swings with other load); the ratio is of CPU times.",
        "",
        "| question | index wall / CPU (ms) | brute wall / CPU (ms) | brute / index (CPU) | budget |",
        "|---|---:|---:|---:|---:|",
        f"| `fire` 24 v 24 bases on a battlefield already built, as at the table (trees, terrain "
        f"data and engagements cached on it; median of {args.runs}) | {_cell(fire_t)} | "
        f"{_cell(brute_t)} | {brute_t.cpu / fire_t.cpu:.0f}× | 30 ms |",
        f"| `fire` cold: a fresh battlefield each run (arrays, trees, terrain data, engagement "
        f"audit) and no cached distribution (median of {max(5, args.runs // 3)}) | {_cell(cold_t)} | "
        f"{_cell(cold_brute_t)} | {cold_brute_t.cpu / cold_t.cpu:.0f}× | — |",
        f"| `targets` over {n_enemy} enemy units | {_cell(tg_t, 0)} | {_cell(tg_brute_t, 0)} | "
        f"{tg_brute_t.cpu / tg_t.cpu:.0f}× | 1,000 ms |",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        write_section(HEADING, text)
        print(f"wrote {RESULTS}", file=sys.stderr)


if __name__ == "__main__":
    main()
