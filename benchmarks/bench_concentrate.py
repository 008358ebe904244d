"""Concentrated fire and combined melee in the simulated battle: the points' balance and the cost
(issue 14, ``concentrate``).

Run: ``.venv/bin/python benchmarks/bench_concentrate.py [--seed N] [--battles N] [--search N]
[--repeats N] [--write]``. ``--write`` records the result in ``benchmarks/RESULTS.md`` under
``## Battle: concentrated fire and combined melee (issue 14)`` (replacing only that section).

What is measured: the held-out check of ``szwadron points validate`` (:func:`held_out_validation`:
one random legal roster per list and points limit, with ``--search`` the exploit search's find,
against the example rosters of the other lists; ``--battles`` battles a pair; the held-out seed
``--seed``, 2030 by default) played twice on the same seeds: the calibration's battle (``concentrate``
off, the reference) and the battle with concentrated fire and combined melee
(``BattleConditions(concentrate=True)``, ``points validate --concentrate``). Per side: the pairs
within 50 ± 5 %, the RMS distance from 50 %, the strongest held-out roster, each held-out roster's
rate beside its number of units; and the cost, in this
process (``workers=1``, so the CPU time is this process's): battles per CPU second, the median of
``--repeats`` runs of each, alternated (the first run of each fills the exact tables' caches; the
answers of the repeats are checked equal).
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _results import cpu_model, write_section  # noqa: E402

from szwadron.armies.battles import roster_force  # noqa: E402
from szwadron.armies.calibrate import army_list_paths, load_lists  # noqa: E402
from szwadron.armies.duel import BattleConditions  # noqa: E402
from szwadron.armies.search import held_out_validation  # noqa: E402

HEADING = "## Battle: concentrated fire and combined melee (issue 14)"


def _run(
    armies: list[Any], conditions: BattleConditions, args: argparse.Namespace
) -> tuple[Any, float, float]:
    c0, t0 = time.process_time(), time.perf_counter()
    held = held_out_validation(
        armies,
        random_rosters=1,
        search=args.search,
        battles=args.battles,
        seed=args.seed,
        workers=1,
        conditions=conditions,
    )
    return held, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=2030)
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--search", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()

    armies = load_lists(army_list_paths())
    sides = {"off": BattleConditions(), "on": BattleConditions(concentrate=True)}
    held: dict[str, Any] = {}
    walls: dict[str, list[float]] = {k: [] for k in sides}
    cpus: dict[str, list[float]] = {k: [] for k in sides}
    for _ in range(args.repeats):
        for name, c in sides.items():
            h, wall, cpu = _run(armies, c, args)
            if name in held:
                assert h.pairs == held[name].pairs, "the same seeds gave other answers"
            held[name] = h
            walls[name].append(wall)
            cpus[name].append(cpu)
            print(f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
    rows = []
    for name in sides:
        h = held[name]
        games = len(h.pairs) * h.battles  # the held-out pairs' battles (the search's not counted)
        cpu, wall = statistics.median(cpus[name]), statistics.median(walls[name])
        worst = h.worst
        rows.append(
            (
                name,
                h.share_in_band,
                len(h.pairs),
                h.rms,
                f"{worst.label} ({worst.source}) {worst.field_rate:.1%}" if worst else "-",
                games,
                wall,
                cpu,
                games / cpu,
            )
        )
    base = rows[0][8]
    for r in rows:
        print(
            f"concentrate {r[0]}: {r[1]:.1%} of {r[2]} pairs within 50 ± 5 %, RMS {r[3]:.1%}, strongest {r[4]}; "
            f"{r[5]:,} battles, median {r[6]:.1f} s wall, {r[7]:.1f} s CPU: {r[8]:,.0f} battles per CPU second "
            f"({r[8] / base:.2f}× off)"
        )
    if not args.write:
        return
    lines = [
        HEADING,
        "",
        f"`benchmarks/bench_concentrate.py --seed {args.seed} --battles {args.battles} --search {args.search} "
        f"--repeats {args.repeats}` — {dt.date.today().isoformat()}, {platform.machine()} ({cpu_model()}), "
        f"2 cores shared with another agent's work (wall times swing; CPU time is this process's, "
        f"`workers=1`), Python {platform.python_version()}; the stored points (fitted without "
        "`concentrate`), the exact sampler, the dice pairing the units. The held-out check of `points "
        f"validate` (`held_out_validation`: one random legal roster per list and limit, search {args.search}, "
        f"{args.battles} battles a pair, held-out seed {args.seed}) played on the same seeds without "
        "`concentrate` (the calibration's battle, the reference) and with it (`points validate "
        "--concentrate`: a side's units over join the engagements, several units fire at one target and "
        "fight one combined melee, 4.2.2, 4.8.1, 5.10). Times: the median of "
        f"{args.repeats} runs of each, alternated (the answers of the repeats are equal). At 200 battles a "
        "perfectly fair pair is within 50 ± 5 % only 84 % of the time (binomial noise alone gives an RMS "
        "of 3.5 %).",
        "",
        "| concentrate | held-out pairs within 50 ± 5 % | RMS | strongest held-out roster | battles | "
        "time (median wall; CPU) | battles per CPU second |",
        "|---|---:|---:|---|---:|---|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r[0]} | {r[1]:.1%} of {r[2]} | {r[3]:.1%} | {r[4]} | {r[5]:,} | {r[6]:.1f} s; {r[7]:.1f} s CPU | "
            f"{r[8]:,.0f} ({r[8] / base:.2f}× off) |"
        )
    per = _per_roster(armies, held["off"], held["on"])
    lines += [
        "",
        "Each held-out roster against the field (its mean over its pairs), beside its number of units; the "
        "correlation of units and rate within each points limit: "
        + ", ".join(f"{limit:g} points {r:+.2f} off, {q:+.2f} on" for limit, r, q in _correlations(per))
        + ". With concentrated fire and combined melee the side with more units wins more than its points "
        "say: the points are fitted to battles where a side's units over wait, and do not price the number of "
        "units; fitting them with `concentrate` on is a refit (the lead's call).",
        "",
        "| held-out roster | limit | units | against the field, off | on |",
        "|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {lab} | {limit:g} | {n} | {off:.1%} | {on:.1%} |" for lab, limit, n, off, on in per]
    for lab, limit, n, off, on in per:
        print(f"  {lab} at {limit:g}: {n} units, {off:.1%} off, {on:.1%} on")
    write_section(HEADING, "\n".join(lines) + "\n")


def _per_roster(armies: list[Any], off: Any, on: Any) -> list[tuple[str, float, int, float, float]]:
    """``(roster, limit, units, rate without, rate with)`` of every held-out roster."""
    by_id = {a.id: a for a in armies}
    rates = {(r.label, r.roster.points_limit): r.field_rate for r in on.rosters}
    return [
        (
            r.label,
            r.roster.points_limit,
            len(roster_force(by_id[r.army], r.roster)),
            r.field_rate,
            rates[(r.label, r.roster.points_limit)],
        )
        for r in off.rosters
    ]


def _correlations(per: list[tuple[str, float, int, float, float]]) -> list[tuple[float, float, float]]:
    """Per points limit: the correlation of units with the rate without and with ``concentrate``."""
    out = []
    for limit in sorted({p[1] for p in per}):
        rows = [p for p in per if p[1] == limit]
        units = [float(p[2]) for p in rows]
        out.append(
            (
                limit,
                statistics.correlation(units, [p[3] for p in rows]),
                statistics.correlation(units, [p[4] for p in rows]),
            )
        )
    return out


if __name__ == "__main__":
    main()
