"""Shared by the benchmark scripts: time a call, record a section of ``benchmarks/RESULTS.md``.

Each script owns one ``## ...`` section; writing it replaces that section and leaves the others.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


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


def median_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)
