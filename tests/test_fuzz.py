"""Issue 16: a seeded fuzz of the input files, in-process (``tests/fuzzing.py``).

A few hundred mutations of the bundled scenario, an army list, a roster and a move file (bit
flips, deleted and doubled lines, values of other types, deep nesting, huge numbers, NaN, cuts,
stray bytes), each run through a command that reads it: exit 0, 1 or 2 (never 3), inputs
unchanged, an output whole or absent. ``scripts/fuzz.py`` runs ten thousand and more.
"""

from __future__ import annotations

import collections
from pathlib import Path

from fuzzing import cases, inside, prepare, run_case

from szwadron.cli import main

CASES = 240
SEED = 16


def test_fuzzed_inputs_keep_the_contract(tmp_path: Path) -> None:
    prepare(tmp_path)
    failures: list[str] = []
    codes: collections.Counter[int | None] = collections.Counter()
    with inside(tmp_path):
        for i, case in enumerate(cases(CASES, SEED)):
            outcome = run_case(case, tmp_path, main)
            codes[outcome.code] += 1
            if outcome.problems:
                failures.append(f"case {SEED + i} ({case.kind}, {'+'.join(case.edits)}): {outcome.problems}")
    assert not failures, "\n".join(failures[:10])
    assert sum(codes.values()) == CASES
    assert codes[2] > CASES // 4  # most mutations are bad input ...
    assert codes[0] > 10  # ... and some are harmless (a comment, a value still in range)
