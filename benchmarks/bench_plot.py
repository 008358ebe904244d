"""Benchmark of drawing a big table (issue 16): ``szwadron plot`` of 5,000 and 50,000 bases.

The tables are those of ``bench_check.make_table`` (realistic units in rows on both halves of a
table that grows with the number of bases, terrain, front lines partly in contact). Each run
builds the battlefield, draws the whole table (:func:`szwadron.plots.table.plot_table`: terrain,
bases, labels, contacts, key) and writes a PNG, in a child process of its own, so that the
reference can run the same way from another checkout:

- this branch: the bases as one ``PolyCollection``, the labels placed by scoring every candidate
  box at once (vectorised clipping, an index of the placed labels);
- the reference (``--reference DIR``: a checkout of the commit before issue 16, e.g. made with
  ``git worktree add ../before 7493364``): the same script with the package of that checkout
  first on ``sys.path`` — a patch per base, every label candidate tried against every earlier
  label. It is run only up to ``--reference-limit`` bases
  (it took 37 s at 5,000 bases and did not finish 50,000 in ten minutes, issue 16).

Both pictures of the same table are compared pixel by pixel (they must look the same).

Run:  .venv/bin/python benchmarks/bench_plot.py [--sizes 5000 50000] [--write]
(``--write`` replaces the "## Plotting at scale (issue 16)" section of benchmarks/RESULTS.md.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from _results import write_section

REPO = Path(__file__).resolve().parent.parent
HEADING = "## Plotting at scale (issue 16)"

#: Run in a child: build the table, draw it, write the PNG; print the times as JSON.
_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])            # the package under test first
sys.path.insert(1, sys.argv[2])            # this branch's benchmarks/ (the table generator)
import matplotlib
matplotlib.use("Agg")
from bench_check import make_table
from szwadron.geometry.battlefield import Battlefield
from szwadron.plots._io import new_figure, save_figure
from szwadron.plots.table import plot_table, table_figsize, table_view
import szwadron
scenario = make_table(int(sys.argv[3]) // 2)
c0, t0 = time.process_time(), time.perf_counter()
bf = Battlefield(scenario)
fig = new_figure(*table_figsize(table_view(scenario)))
plot_table(bf, fig.add_subplot())
save_figure(fig, sys.argv[4])
print(json.dumps({"cpu": time.process_time() - c0, "wall": time.perf_counter() - t0,
                  "bases": len(bf), "units": len(scenario.units), "package": szwadron.__file__}))
"""


def draw(package_root: Path, bases: int, png: Path, timeout_s: float) -> dict[str, Any] | None:
    """Time one drawing in a child process; ``None`` when it ran out of time."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(package_root), str(REPO / "benchmarks"), str(bases), str(png)],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def compare(a: Path, b: Path) -> dict[str, Any]:
    """How two PNGs differ: size, pixels that differ at all, largest difference (0..255)."""
    import matplotlib.image as mpimg
    import numpy as np

    x, y = mpimg.imread(a), mpimg.imread(b)
    if x.shape != y.shape:
        return {"same_size": False}
    d = np.abs(x.astype(float) - y.astype(float)).max(axis=-1)
    return {
        "same_size": True,
        "pixels": int(d.size),
        "differing": int((d > 0).sum()),
        "max_diff": round(float(d.max()) * 255),
    }


def run(
    sizes: list[int], repeats: int, reference: Path | None, reference_limit: int, timeout_s: float
) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-plot-") as tmp:
        for n in sizes:
            mine = Path(tmp) / f"branch-{n}.png"
            runs = [draw(REPO, n, mine, timeout_s) for _ in range(repeats if n <= 10_000 else 1)]
            done = [r for r in runs if r is not None]
            if not done:
                raise SystemExit(f"{n} bases: no drawing finished within {timeout_s:.0f} s")
            row: dict[str, Any] = {
                "size": n,
                "bases": done[0]["bases"],
                "units": done[0]["units"],
                "runs": len(done),
                "cpu": statistics.median(r["cpu"] for r in done),
                "wall": statistics.median(r["wall"] for r in done),
                "ref_cpu": None,
                "ref_wall": None,
                "same": None,
            }
            if reference is not None and n <= reference_limit:
                theirs = Path(tmp) / f"reference-{n}.png"
                ref = draw(reference, n, theirs, timeout_s)
                if ref is not None:
                    row["ref_cpu"], row["ref_wall"] = ref["cpu"], ref["wall"]
                    row["same"] = compare(theirs, mine)
            rows.append(row)
            ref_text = (
                f"; reference {row['ref_cpu']:.2f} s CPU ({row['ref_wall']:.2f} s wall), "
                f"{row['ref_cpu'] / row['cpu']:.0f}× faster; pictures {row['same']}"
                if row["ref_cpu"] is not None
                else ""
            )
            print(
                f"{row['bases']:,} bases, {row['units']} units: {row['cpu']:.2f} s CPU ({row['wall']:.2f} s wall){ref_text}"
            )
    return rows


def _section(rows: list[dict[str, Any]], reference: Path | None, repeats: int) -> str:
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_plot.py` — {dt.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores (shared), Python {platform.python_version()}, matplotlib "
        f"{__import__('matplotlib').__version__}. The whole table drawn and written as a PNG "
        "(battlefield, terrain, bases, labels, contacts, key), each run in a child process; median "
        f"of {repeats} runs up to 10,000 bases, one run above. Reference: the same script run on "
        "the package of the commit before issue 16 (7493364: a patch per base, each label candidate "
        "tried against every earlier label), one run. Budget (issue 16): 5,000 bases in a few seconds, 50,000 in under "
        "a minute. CPU time of the child; ratios of CPU times. Pictures: pixels of the two PNGs "
        "that differ at all, and the largest difference (0..255).",
        "",
        "| bases | units | CPU (s) | wall (s) | reference CPU (s) | reference wall (s) | reference / this | pictures |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        if r["ref_cpu"] is None:
            ref = ("not run (issue 16: over 10 minutes)", "—", "—", "—")
        else:
            same = r["same"]
            pics = (
                f"{same['differing']:,} of {same['pixels']:,} pixels differ, by at most {same['max_diff']}"
                if same and same.get("same_size")
                else "sizes differ"
            )
            ref = (f"{r['ref_cpu']:.2f}", f"{r['ref_wall']:.2f}", f"{r['ref_cpu'] / r['cpu']:.0f}×", pics)
        lines.append(
            f"| {r['bases']:,} | {r['units']:,} | {r['cpu']:.2f} | {r['wall']:.2f} | {ref[0]} | {ref[1]} | {ref[2]} | {ref[3]} |"
        )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5000, 50000])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--reference",
        type=Path,
        help="a checkout whose package is the reference (the commit before issue 16); default: none",
    )
    ap.add_argument("--reference-limit", type=int, default=5000, help="largest table drawn by the reference")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds before a drawing is given up")
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = ap.parse_args()
    rows = run(args.sizes, args.repeats, args.reference, args.reference_limit, args.timeout)
    if args.write:
        write_section(HEADING, _section(rows, args.reference, args.repeats))


if __name__ == "__main__":
    main()
