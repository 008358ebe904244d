"""How much does moving first weigh in the simulated army battle? (issue 14, "balance from play")

Run: ``.venv/bin/python benchmarks/bench_initiative.py [--battles N] [--write]``. ``--write``
records the result in ``benchmarks/RESULTS.md`` under ``## Balance: the initiative's weight
(issue 14)`` (replacing only that section).

What is measured: every pair of example rosters of different lists at the same points limit
(the 30 pairs of ``szwadron points validate``'s example-roster matrix) plays ``N`` seeded battles
(1,000 by default) at the stored points, the side moving first alternating (A in the even
battles, B in the odd ones: ``N/2`` each way), exactly the battles ``points validate --roster-battles
N`` plays (:func:`szwadron.armies.battles.validate_rosters`, the same seeds), in this process
(``workers=1``, so the CPU time is this process's). Per pair: A's chance moving first and moving
second (2.1.4: the scenario sets who moves first), each with its Wilson 95 % interval; the
first mover's mean score; whether the two intervals overlap (``balance`` prints its warning when
they do not); whether moving first weighs more than the difference between the armies (half the
gap between A's two chances against the distance of the whole pair's chance from 50 %). The
split costs nothing extra: it is counted from the same battles, and timed beside them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _results import cpu_model, write_section  # noqa: E402

from szwadron.armies.battles import (  # noqa: E402
    RosterCell,
    battle_pair,
    initiative_differs,
    validate_rosters,
)
from szwadron.armies.calibrate import army_list_paths, load_lists  # noqa: E402
from szwadron.cli.balance import DEFAULT_BATTLES  # noqa: E402

HEADING = "## Balance: the initiative's weight (issue 14)"
SEED = 2026


class Row(NamedTuple):
    """One pair of example rosters."""

    pair: str
    rate: float
    a_first: float
    a_first_ci: tuple[float, float]
    b_first: float
    b_first_ci: tuple[float, float]
    first_mover: float
    differs: bool
    outweighs: bool


def _row(cell: RosterCell, label_a: str, label_b: str) -> Row:
    assert cell.a_first is not None and cell.b_first is not None and cell.first_mover is not None
    swing = (cell.a_first.rate - cell.b_first.rate) / 2
    differs = initiative_differs(cell.a_first, cell.b_first)
    return Row(
        f"{label_a} v {label_b}",
        cell.rate,
        cell.a_first.rate,
        cell.a_first.interval,
        cell.b_first.rate,
        cell.b_first.interval,
        cell.first_mover,
        differs,
        differs and abs(swing) > abs(cell.rate - 0.5),  # as PairResult.initiative_outweighs
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=1000)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    armies = load_lists(army_list_paths())
    c0, t0 = time.process_time(), time.perf_counter()
    check = validate_rosters(armies, battles=args.battles, seed=SEED, workers=1)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    first = check.first_mover
    assert first is not None
    # what `szwadron balance A B` itself shows at its default battles, for each pair
    sides = {(a.id, r.id): (a, r) for a in armies for r in a.rosters}
    c1, t1 = time.process_time(), time.perf_counter()
    played = [
        battle_pair(
            *sides[(check.sides[c.a].army, check.sides[c.a].roster)],
            *sides[(check.sides[c.b].army, check.sides[c.b].roster)],
            battles=DEFAULT_BATTLES,
        )
        for c in check.cells
    ]
    cpu_balance, wall_balance = time.process_time() - c1, time.perf_counter() - t1
    warned = sum(p.initiative_differs for p in played)
    outweighed = sum(p.initiative_outweighs for p in played)
    rows = [_row(c, check.sides[c.a].label, check.sides[c.b].label) for c in check.cells]
    movers = [r.first_mover for r in rows]
    gaps = [r.a_first - r.b_first for r in rows]
    differs = sum(r.differs for r in rows)
    outweighs = sum(r.outweighs for r in rows)
    print(
        f"{len(rows)} pairs, {check.battles} battles: the side moving first scores {first.rate:.1%} "
        f"[{first.interval[0]:.1%}–{first.interval[1]:.1%}], pairs {first.low:.1%}–{first.high:.1%}; "
        f"A first − B first: mean {statistics.mean(gaps):+.1%}, {min(gaps):+.1%} to {max(gaps):+.1%}; "
        f"intervals apart in {differs} of {len(rows)}; moving first outweighs the armies' difference in "
        f"{outweighs}; {wall:.1f} s wall, {cpu:.1f} s CPU"
    )
    print(
        f"balance at {DEFAULT_BATTLES} battles a pair: warns in {warned} of {len(played)}, says it outweighs the "
        f"armies in {outweighed}; {wall_balance:.1f} s wall, {cpu_balance:.1f} s CPU"
    )
    for r in rows:
        print(
            f"  {r.pair}: {r.rate:.1%}; A first {r.a_first:.1%}, B first {r.b_first:.1%}; "
            f"first mover {r.first_mover:.1%}{' (apart)' if r.differs else ''}"
            f"{' (outweighs)' if r.outweighs else ''}"
        )
    if not args.write:
        return
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_initiative.py --battles {args.battles}` — {dt.date.today().isoformat()}, "
        f"{platform.machine()} ({cpu_model()}), 2 cores shared with other agents' work, Python "
        f"{platform.python_version()}; one process (`workers=1`): **{wall:.0f} s wall, {cpu:.0f} s CPU** "
        f"for {check.battles:,} battles. The example rosters' 30 pairs (`points validate`'s matrix, its seeds, "
        f"seed {SEED}) at the stored points, {args.battles:,} battles a pair, the side moving first alternating "
        f"({args.battles // 2} battles each way). `szwadron balance` splits its battles the same way "
        "(`PairResult.a_first`, `b_first`), counted from the same battles: no battle is added and the "
        "overall chance is unchanged.",
        "",
        f"- The side moving first (the initiative, 2.1.4) scores **{first.rate:.1%}** of the {first.battles:,} "
        f"battles (95 % interval {first.interval[0]:.1%}–{first.interval[1]:.1%}); per pair "
        f"**{first.low:.1%}–{first.high:.1%}** (median {statistics.median(movers):.1%}).",
        f"- A's chance moving first less A's chance moving second: mean {statistics.mean(gaps):+.1%}, "
        f"from {min(gaps):+.1%} to {max(gaps):+.1%}.",
        f"- The two 95 % intervals are apart (`balance` warns) in **{differs} of {len(rows)}** pairs; in "
        f"**{outweighs}** of them moving first also weighs more than the difference between the two armies "
        "(half the gap against the pair's distance from 50 %: `balance` says so).",
        f"- `szwadron balance A B` itself, at its default {DEFAULT_BATTLES} battles (its own seeds, seed 2026), on "
        f"the same 30 pairs: the two rows' intervals are apart, and it prints its sentence, in **{warned} of "
        f"{len(played)}**; it says moving first weighs more than the armies' difference in **{outweighed}** "
        f"({wall_balance:.0f} s wall, {cpu_balance:.0f} s CPU for the 30 calls).",
        "",
        "| pair | A's chance | A first | B first | first mover |",
        "|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        (lo_a, hi_a), (lo_b, hi_b) = r.a_first_ci, r.b_first_ci
        lines.append(
            f"| {r.pair} | {r.rate:.1%} | {r.a_first:.1%} [{lo_a:.1%}–{hi_a:.1%}] | "
            f"{r.b_first:.1%} [{lo_b:.1%}–{hi_b:.1%}] | {r.first_mover:.1%} |"
        )
    write_section(HEADING, "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
