"""Benchmark of the table audit (issue 2): ``szwadron.table.audit.audit`` on generated tables.

Tables of 2 × 100, 2 × 1,000 and 2 × 10,000 bases in realistic units — infantry battalions in
line (8-24 bases) or in column/block, cavalry regiments (4-8 bases, 2 × 4 cm, PD-1), skirmisher
screens, batteries with limbers — deployed in rows on both halves of a table whose area grows
with the number of bases, the two front lines partly in contact, partly within 2 cm, partly
apart, with hills, woods, fences, farms and a river. Each audit is timed whole (battlefield
arrays, trees, every section of the report), median of several runs, beside the naive version
(``method="brute"``: every pair of bases tried one by one) on the same data, up to the size where
the naive one takes about a minute. Both must give the same report.

Also times ``szwadron check scenarios/example.toml`` as a whole process and checks that it does
not import matplotlib.

Run:  .venv/bin/python benchmarks/bench_check.py [--write]
(``--write`` replaces the "## Table audit (issue 2)" section of benchmarks/RESULTS.md.)
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
from pathlib import Path
from typing import Any

from _results import Timing, median_times, process_times, write_section

from szwadron.models import Scenario
from szwadron.table.audit import audit

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "RESULTS.md"
HEADING = "## Table audit (issue 2)"

_STATS: dict[str, dict[str, Any]] = {
    "infantry": {"R": 12, "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4},
    "cavalry": {"R": 24, "W": 2, "SW": 2, "SO": 0, "Z": 0, "UW": 4, "C": 0, "M": 4},
    "foot_artillery": {"R": 6, "W": 3, "SW": 0, "SO": 4, "Z": 60, "UW": 1, "C": 3, "M": 4},
    "limber": {"R": 12, "W": 2, "SW": 0, "SO": 0, "Z": 0, "UW": 1, "C": 0, "M": 4},
}
_SIZE = {"infantry": (2.0, 2.0), "cavalry": (2.0, 4.0), "foot_artillery": (4.0, 4.0), "limber": (4.0, 4.0)}


def _profile(kind: str, skirmish: bool = False) -> dict[str, Any]:
    return {
        "id": kind.replace("_", "-") + ("-sk" if skirmish else ""),
        "name": kind,
        "kind": kind,
        **_STATS[kind],
        "abilities": ["skirmish"] if skirmish else [],
    }


def _unit_bases(
    kind: str, n: int, x: float, y: float, facing: float, files: int, gap: float
) -> list[dict[str, Any]]:
    """``n`` bases in ``files`` columns, front row centred on ``(x, y)`` facing ±y."""
    w, d = _SIZE[kind]
    back = -1.0 if facing == 90.0 else 1.0
    side = 1.0 if facing == 90.0 else -1.0
    return [
        {"x": x + side * (k % files) * (w + gap), "y": y + back * (k // files) * (d + gap), "facing": facing}
        for k in range(n)
    ]


def make_table(per_side: int, seed: int = 1) -> Scenario:
    """A generated battle with about ``per_side`` bases on each side."""
    rng = random.Random(seed)
    scale = math.sqrt(per_side / 100.0)
    width, depth = 180.0 * scale, 120.0 * scale
    mid = depth / 2.0
    units: list[dict[str, Any]] = []
    terrain: list[dict[str, Any]] = []
    for t in range(max(3, per_side // 60)):
        cx, cy = rng.uniform(10, width - 10), rng.uniform(10, depth - 10)
        kind = rng.choice(["hill", "forest", "rough", "obstacle", "building"])
        if kind == "obstacle":
            terrain.append(
                {
                    "id": f"t{t}",
                    "kind": kind,
                    "width": 0.5,
                    "line": [[cx - 15, cy], [cx + 15, cy + rng.uniform(-3, 3)]],
                }
            )
        else:
            r = rng.uniform(3, 12) if kind != "building" else 3.0
            terrain.append(
                {
                    "id": f"t{t}",
                    "kind": kind,
                    "polygon": [
                        [cx - r, cy - r],
                        [cx + r, cy - r * 0.8],
                        [cx + r * 1.1, cy + r],
                        [cx - r, cy + r],
                    ],
                }
            )
    for side, facing, sign in (("A", 90.0, -1.0), ("B", 270.0, 1.0)):
        count = 0
        row = 0
        offset = 0.0  # distance of this row's front edge behind the centre line
        while count < per_side:
            row_front = mid + sign * (offset + rng.uniform(0.0, 1.0))
            if abs(row_front - mid) > depth / 2 - 5:
                raise ValueError("table too small for the requested number of bases")
            deepest = 0.0
            x = 5.0 + rng.uniform(0, 4)
            while count < per_side:
                if row == 0:  # the front lines meet: touching, 1.5 cm apart or 6 cm apart
                    y_front = mid + sign * (rng.choice([0.0, 0.0, 1.5, 6.0]) / 2.0)
                else:
                    y_front = row_front
                roll = rng.random()
                gap, skirmish = 0.0, False
                if roll < 0.55:
                    kind, n = "infantry", rng.randint(8, 24)
                    files = n if rng.random() < 0.6 else rng.choice([4, 6, 8])
                elif roll < 0.65:
                    kind, n, skirmish = "infantry", rng.randint(4, 8), True
                    files, gap = n, rng.uniform(1.0, 3.5)
                elif roll < 0.88:
                    kind, n = "cavalry", rng.randint(4, 8)
                    files = n if rng.random() < 0.7 else 2
                else:
                    kind, n = "foot_artillery", rng.randint(1, 3)
                    files = n
                w, d = _SIZE[kind]
                if x + files * (w + gap) > width - 3.0:
                    break
                y_centre = y_front + sign * (d / 2.0)  # front edge on y_front
                x_centre = x + w / 2.0 if facing == 90.0 else x + (files - 0.5) * (w + gap)
                bases = _unit_bases(kind, n, x_centre, y_centre, facing, files, gap)
                units.append(
                    {
                        "id": f"{side}{len(units)}",
                        "side": side,
                        "profile": _profile(kind, skirmish),
                        "bases": bases,
                    }
                )
                ranks = math.ceil(n / files)
                deepest = max(deepest, ranks * (d + gap))
                if kind == "foot_artillery":  # limbers 4 cm behind the guns
                    limbers = [{**b, "y": b["y"] + sign * 8.0} for b in bases]
                    units.append(
                        {
                            "id": f"{side}{len(units)}",
                            "side": side,
                            "profile": _profile("limber"),
                            "bases": limbers,
                        }
                    )
                    deepest = max(deepest, 12.0)
                    n *= 2
                count += n
                x += files * (w + gap) + rng.uniform(2.0, 8.0)
            offset = abs(y_front - mid) + deepest + 6.0
            row += 1
    return Scenario.model_validate(
        {
            "name": f"bench {per_side} per side",
            "table": {"width": width, "depth": depth},
            "terrain": terrain,
            "units": units,
        }
    )


def run(sizes: list[int], repeats: int, naive_limit_s: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    naive_ok = True
    for per_side in sizes:
        sc = make_table(per_side)
        n = sum(len(u.bases) for u in sc.units)
        report = audit(sc)
        timing = median_times(lambda sc=sc: audit(sc), repeats)
        t_index = timing.cpu
        t_naive: float | None = None
        if naive_ok:
            reports: list[Any] = []
            naive = median_times(lambda sc=sc, out=reports: out.append(audit(sc, method="brute")), 1)
            t_naive = naive.cpu
            assert reports[0] == report, "naive and indexed audits disagree"
            # the next size has ~10x the bases: ~100x the pairs
            naive_ok = naive.wall * 100 <= naive_limit_s
        rows.append(
            {
                "per_side": per_side,
                "bases": n,
                "units": len(sc.units),
                "index_s": t_index,
                "index_wall_s": timing.wall,
                "naive_s": t_naive,
                "per_nlogn_us": 1e6 * t_index / (n * math.log2(n)),
                "contacts": len(report.contacts),
                "intrusions": len(report.zone_intrusions),
                "problems": len(report.problems),
            }
        )
        naive = f"{t_naive:8.3f} s" if t_naive is not None else "  skipped"
        ratio = f"{t_naive / t_index:6.1f}x" if t_naive is not None else "     -"
        print(
            f"2 x {per_side:>6}: {n:6} bases, {len(sc.units):4} units | audit {t_index:8.4f} s"
            f" | naive {naive} | {ratio} | {rows[-1]['per_nlogn_us']:.3f} us/(n log2 n)"
            f" | {len(report.contacts)} contacts, {len(report.zone_intrusions)} intrusions",
            flush=True,
        )
    return rows


def whole_process(repeats: int = 5) -> tuple[Timing, bool]:
    """Median wall and CPU time of ``szwadron check`` on the example; whether matplotlib got
    imported."""
    example = REPO / "scenarios" / "example.toml"
    cmd = [sys.executable, "-m", "szwadron", "check", str(example)]
    timing = process_times(cmd, repeats)
    imp = subprocess.run(
        [sys.executable, "-X", "importtime", *cmd[1:]], capture_output=True, text=True, check=False
    )
    return timing, "matplotlib" in imp.stderr


def _section(rows: list[dict[str, Any]], proc: Timing, mpl: bool, repeats: int) -> str:
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_check.py` — {dt.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, shapely "
        f"{__import__('shapely').__version__}. Median of {repeats} runs of the whole audit "
        "(`szwadron.table.audit.audit`: arrays, STR-trees, every section); naive = the same audit "
        'with every pair of bases tried one by one (`method="brute"`), one run, same report '
        "checked equal. Budget: 2 × 1,000 bases under 0.3 s and at least 20× the naive speed. "
        "Times are CPU time of this process (the machine is shared; wall time beside the "
        "audit's), ratios of CPU times.",
        "",
        "| bases | units | audit CPU (s) | audit wall (s) | naive CPU (s) | naive / audit | "
        "µs per n·log2 n | contacts | zone intrusions |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        naive = f"{r['naive_s']:.3f}" if r["naive_s"] is not None else "skipped"
        ratio = f"{r['naive_s'] / r['index_s']:.0f}×" if r["naive_s"] is not None else "—"
        lines.append(
            f"| 2 × {r['per_side']:,} ({r['bases']:,}) | {r['units']} | "
            f"{r['index_s']:.4f} | {r['index_wall_s']:.4f} | {naive} | {ratio} | {r['per_nlogn_us']:.3f} | "
            f"{r['contacts']} | {r['intrusions']} |"
        )
    lines += [
        "",
        f"`szwadron check scenarios/example.toml` as a whole process: {proc.s(2)} median "
        f"(budget 1 s); matplotlib imported: {'yes' if mpl else 'no'}.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument(
        "--naive-limit",
        type=float,
        default=60.0,
        help="skip the naive version where it would take longer than this (s)",
    )
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = ap.parse_args()
    rows = run(args.sizes, args.repeats, args.naive_limit)
    proc, mpl = whole_process()
    print(f"szwadron check example.toml: {proc.s()} whole process; matplotlib imported: {mpl}")
    if args.write:
        write_section(HEADING, _section(rows, proc, mpl, args.repeats))


if __name__ == "__main__":
    main()
