"""Shared by the benchmark scripts: time a call, record a section of ``benchmarks/RESULTS.md``.

Each script owns one ``## ...`` section; writing it replaces that section and leaves the others.

These machines are shared: wall time swings 3–8× with other load, so every timing is taken twice,
as wall time and as CPU time (of this process, or of the child processes for whole-command runs),
and reported side by side (:class:`Timing`); ratios are taken on CPU time where both sides run in
this process.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def cpu_model() -> str:
    """The processor's model name (Linux's /proc/cpuinfo), else what :mod:`platform` knows."""
    info = Path("/proc/cpuinfo")
    lines = info.read_text(encoding="utf-8").splitlines() if info.is_file() else []
    names = [line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")]
    return names[0] if names else platform.processor() or platform.machine()


@dataclass(frozen=True)
class Timing:
    """Median wall time and median CPU time of repeated runs, in seconds."""

    wall: float
    cpu: float

    def ms(self, digits: int = 2) -> str:
        """``12.30 ms (CPU 11.90 ms)``."""
        return f"{1e3 * self.wall:.{digits}f} ms (CPU {1e3 * self.cpu:.{digits}f} ms)"

    def s(self, digits: int = 3) -> str:
        """``1.234 s (CPU 1.201 s)``."""
        return f"{self.wall:.{digits}f} s (CPU {self.cpu:.{digits}f} s)"


def write_section(heading: str, text: str, path: Path = RESULTS) -> None:
    """Add or replace the section that starts with the line ``heading``."""
    body = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    lines = body.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    except StopIteration:
        new = body.rstrip("\n") + "\n\n" + text
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        new = "\n".join([*lines[:start], *text.rstrip("\n").splitlines(), "", *lines[end:]])
    path.write_text(new.rstrip("\n") + "\n", encoding="utf-8")


def median_times(fn: Callable[[], object], repeats: int) -> Timing:
    """Median wall time and median CPU time (``time.process_time``, this process) of
    ``repeats`` calls of ``fn``."""
    walls, cpus = [], []
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return Timing(statistics.median(walls), statistics.median(cpus))


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``fn``, in seconds."""
    return median_times(fn, repeats).wall


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_times(
    argv: Sequence[str], repeats: int, *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> Timing:
    """Median wall time and median CPU time (user + system of the child) of running ``argv``
    as a whole process ``repeats`` times; the output is discarded."""
    walls, cpus = [], []
    for _ in range(repeats):
        c0, t0 = _children_cpu(), time.perf_counter()
        subprocess.run(list(argv), check=False, capture_output=True, env=env or dict(os.environ), cwd=cwd)
        walls.append(time.perf_counter() - t0)
        cpus.append(_children_cpu() - c0)
    return Timing(statistics.median(walls), statistics.median(cpus))
