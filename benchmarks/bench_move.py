"""Benchmark of moves and reach (issue 5): ``check_move`` and ``reach`` on a big generated table.

The table is ``bench_check.make_table(1000)`` (2 × 1,000 bases in realistic units) with extra
terrain up to 200 features (woods, rough ground, hills, fences, farms, impassable rocks). Timed:

- the move check of a 24-base infantry unit (a straight step back and a 20° wheel), with the
  STR-trees (``method="index"``) and with every base and feature tried (``method="brute"``),
  same answer required;
- ``reach`` of a cavalry unit towards an enemy unit, and its path length against the
  brute-force reference (``method="brute"``: a 0.2 cm grid, 32 directions, no index).

Run:  .venv/bin/python benchmarks/bench_move.py [--write]
(``--write`` replaces the "## Moves and reach (issue 5)" section of benchmarks/RESULTS.md.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import median_times, write_section
from bench_check import make_table

from szwadron.geometry.battlefield import Battlefield
from szwadron.models import Scenario
from szwadron.table.movement import check_move
from szwadron.table.reach import reach

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "RESULTS.md"
HEADING = "## Moves and reach (issue 5)"


def big_table(features: int = 200, seed: int = 5) -> Scenario:
    """The issue-2 table of 2 × 1,000 bases with terrain added up to ``features`` features."""
    sc = make_table(1000)
    rng = random.Random(seed)
    terrain = [t.model_dump(exclude_none=True) for t in sc.terrain]
    w, d = sc.table.width, sc.table.depth
    k = 0
    while len(terrain) < features:
        cx, cy, r = rng.uniform(5, w - 5), rng.uniform(5, d - 5), rng.uniform(1.5, 5)
        kind = rng.choice(["forest", "rough", "hill", "obstacle", "building", "impassable"])
        if kind == "obstacle":
            terrain.append(
                {
                    "id": f"x{k}",
                    "kind": kind,
                    "width": 0.5,
                    "line": [[cx - r, cy], [cx + r, cy + rng.uniform(-1, 1)]],
                }
            )
        else:
            terrain.append(
                {
                    "id": f"x{k}",
                    "kind": kind,
                    "polygon": [
                        [cx - r, cy - r],
                        [cx + r, cy - 0.8 * r],
                        [cx + 1.1 * r, cy + r],
                        [cx - r, cy + r],
                    ],
                }
            )
        k += 1
    data = sc.model_dump(exclude_none=True)
    data["terrain"] = terrain
    return Scenario.model_validate(data)


def _moves(bf: Battlefield, uid: str) -> dict[str, dict[str, Any]]:
    members = bf.unit_bases(uid)
    back = -1.0 if bf.scenario.unit(uid).side == "A" else 1.0
    step = [
        {
            "index": int(bf.index_in_unit[b]),
            "x": float(bf.x[b]),
            "y": float(bf.y[b]) + 5.0 * back,
            "facing": float(bf.facing[b]),
        }
        for b in members
    ]
    # a 20° wheel about the front-left corner of base 0
    a = math.radians(20.0 if back < 0 else -20.0)
    b0 = int(members[0])
    px, py = bf.corners[b0][0]
    wheel = []
    for b in reversed(members.tolist()):
        dx, dy = float(bf.x[b]) - px, float(bf.y[b]) - py
        wheel.append(
            {
                "index": int(bf.index_in_unit[b]),
                "x": px + dx * math.cos(a) - dy * math.sin(a),
                "y": py + dx * math.sin(a) + dy * math.cos(a),
                "facing": float(bf.facing[b]) + math.degrees(a),
            }
        )
    return {"step back 5 cm": {"bases": step}, "wheel 20°": {"bases": wheel}}


def run(repeats: int) -> dict[str, Any]:
    sc = big_table()
    bf = Battlefield(sc)
    _ = bf.tree, bf.terrain_tree  # built once per table, as the CLI does
    n = len(bf)
    sizes = {u.id: len(u.bases) for u in sc.units if u.profile.kind.value == "infantry"}
    uid = next((u for u, k in sizes.items() if k == 24), max(sizes, key=lambda u: sizes[u]))
    out: dict[str, Any] = {
        "bases": n,
        "features": len(sc.terrain),
        "unit": uid,
        "unit_bases": sizes[uid],
        "moves": [],
    }
    for name, move in _moves(bf, uid).items():
        r_index = check_move(bf, uid, move)
        r_brute = check_move(bf, uid, move, method="brute")
        assert r_index == r_brute, "index and brute move checks disagree"
        ti = median_times(lambda m=move: check_move(bf, uid, m), repeats)
        tb = median_times(lambda m=move: check_move(bf, uid, m, method="brute"), max(3, repeats // 4))
        t_i, t_b = ti.cpu, tb.cpu
        out["moves"].append(
            {
                "move": name,
                "index_ms": 1e3 * t_i,
                "index_wall_ms": 1e3 * ti.wall,
                "brute_ms": 1e3 * t_b,
                "brute_wall_ms": 1e3 * tb.wall,
                "legal": r_index.legal,
                "rule": r_index.rule,
            }
        )
        print(
            f"move {name:16}: index {1e3 * t_i:7.2f} ms | brute {1e3 * t_b:8.2f} ms | "
            f"{t_b / t_i:5.1f}x | legal {r_index.legal} {r_index.rule or ''}",
            flush=True,
        )
    # reach: the first cavalry unit of side A (file order) that reaches its nearest enemy
    # unit with a path that is not straight ahead
    for u in sc.units:
        if u.side != "A" or u.profile.kind.value != "cavalry":
            continue
        own = bf.resolve(u.id)
        enemies = [v for v in sc.units if v.side == "B"]
        dist = {
            v.id: float(
                bf.distances(
                    own[:, None].repeat(len(v.bases), 1).ravel(),
                    __import__("numpy").tile(bf.resolve(v.id), len(own)),
                ).min()
            )
            for v in enemies
        }
        target = min((v for v in dist if dist[v] > 1.0), key=lambda v: dist[v])
        r = reach(bf, u.id, target)
        if r.cost is None or not r.reachable or r.cost <= dist[target] + 2.0:
            continue
        t_reach = median_times(lambda u=u, t=target: reach(bf, u.id, t), max(3, repeats // 4)).cpu
        c0 = time.process_time()
        ref = reach(bf, u.id, target, method="brute")
        t_ref = time.process_time() - c0
        assert ref.cost is not None
        out["reach"] = {
            "unit": u.id,
            "target": target,
            "gap": dist[target],
            "cost": r.cost,
            "ref_cost": ref.cost,
            "reach_s": t_reach,
            "ref_s": t_ref,
            "error": (r.cost - ref.cost) / ref.cost,
        }
        print(
            f"reach {u.id} -> {target}: {r.cost:.3f} cm in {t_reach:.3f} s | reference "
            f"{ref.cost:.3f} cm in {t_ref:.2f} s | {100 * (r.cost - ref.cost) / ref.cost:+.2f}%",
            flush=True,
        )
        break
    return out


def reach_around_wood() -> dict[str, Any]:
    """Cavalry (R 40) charging infantry 30 cm away behind a wood (forest ×2, then impassable):
    the fast path against the brute-force reference on a 0.1 cm grid."""
    cav = {
        "id": "c",
        "name": "C",
        "kind": "cavalry",
        "R": 40,
        "W": 2,
        "SW": 2,
        "SO": 0,
        "Z": 0,
        "UW": 4,
        "C": 0,
        "M": 4,
    }
    inf = {
        "id": "i",
        "name": "I",
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
    rows = {}
    for kind in ("forest", "impassable"):
        sc = Scenario.model_validate(
            {
                "name": "wood",
                "table": {"width": 100, "depth": 100},
                "terrain": [
                    {"id": "wood", "kind": kind, "polygon": [[40, 18], [62, 18], [58, 30], [44, 31]]}
                ],
                "units": [
                    {"id": "a", "side": "A", "profile": cav, "bases": [{"x": 50, "y": 10, "facing": 90}]},
                    {
                        "id": "b",
                        "side": "B",
                        "profile": inf,
                        "bases": [{"x": 50, "y": 40, "facing": 270}, {"x": 52, "y": 40, "facing": 270}],
                    },
                ],
            }
        )
        t_fast = median_times(lambda sc=sc: reach(sc, "a", "b"), 5).cpu
        fast = reach(sc, "a", "b")
        c0 = time.process_time()
        ref = reach(sc, "a", "b", method="brute", grid_cm=0.1)
        t_ref = time.process_time() - c0
        assert fast.cost is not None and ref.cost is not None
        rows[kind] = {
            "cost": fast.cost,
            "s": t_fast,
            "ref": ref.cost,
            "ref_s": t_ref,
            "error": (fast.cost - ref.cost) / ref.cost,
        }
        print(
            f"reach round a {kind} wood: {fast.cost:.3f} cm in {t_fast:.3f} s | reference "
            f"{ref.cost:.3f} cm in {t_ref:.1f} s | {100 * rows[kind]['error']:+.2f}%",
            flush=True,
        )
    return rows


def _section(res: dict[str, Any], repeats: int) -> str:
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_move.py` — {dt.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, shapely "
        f"{__import__('shapely').__version__}. Table: the issue-2 generator's 2 × 1,000 bases "
        f"({res['bases']} bases) with {res['features']} terrain features; the Battlefield (arrays, "
        "STR-trees) is built once. Move check of a "
        f"{res['unit_bases']}-base infantry unit ({res['unit']}), median of {repeats} runs; "
        'brute = the same check with every base and feature tried (`method="brute"`), same '
        "report. Budget: under 50 ms. Times are medians of this process's CPU time, wall time "
        "beside them (the machine is shared: wall time swings with other load); ratios and "
        "the reach timings below are CPU time.",
        "",
        "| move | check CPU (ms) | check wall (ms) | brute CPU (ms) | brute / check | legal |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for m in res["moves"]:
        lines.append(
            f"| {m['move']} | {m['index_ms']:.1f} | {m['index_wall_ms']:.1f} | {m['brute_ms']:.1f} | "
            f"{m['brute_ms'] / m['index_ms']:.1f}× | {m['legal']} {m['rule'] or ''} |"
        )
    r = res.get("reach")
    if r:
        lines += [
            "",
            f"Reach: {r['unit']} (cavalry) to {r['target']} ({r['gap']:.2f} cm edge to "
            f"edge, not straight ahead): path cost {r['cost']:.3f} cm in {r['reach_s']:.3f} s "
            f"(median; budget 1 s). Brute-force reference (0.2 cm grid, 32 directions, no "
            f"index, {r['ref_s']:.1f} s): {r['ref_cost']:.3f} cm. Difference "
            f"{100 * r['error']:+.2f}% (budget ±2%).",
        ]
    lines += [
        "",
        "Reach round a wood (the test case of `tests/test_reach.py`, cavalry R 40 to "
        "infantry 30 cm away behind a wood), against the reference on a 0.1 cm grid:",
        "",
        "| wood | reach (cm) | CPU time (s) | reference (cm) | reference CPU (s) | difference |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind, w in res["wood"].items():
        lines.append(
            f"| {kind} | {w['cost']:.3f} | {w['s']:.3f} | {w['ref']:.3f} | "
            f"{w['ref_s']:.1f} | {100 * w['error']:+.2f}% |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    res = run(args.repeats)
    res["wood"] = reach_around_wood()
    if args.write:
        write_section(HEADING, _section(res, args.repeats))
        print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
