"""Fuzz szwadron's input files (issue 16), many more cases than the suite runs.

    python scripts/fuzz.py --cases 10000 --seed 1

Mutates the bundled scenario, an army list, a roster and a move file (``tests/fuzzing.py``), runs
a command on each, in-process, and checks the contract: exit 0, 1 or 2 (never 3), no input
changed, an output whole or absent, an answer within ``--limit`` seconds. Prints every breach
(with its seed, so ``--seed N --cases 1`` replays it) and a summary: runs by file kind and exit
code, the slowest run, breaches. Exit 1 when anything breaks the contract.
"""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import cases, inside, prepare, run_case

from szwadron.cli import main as szwadron


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=10_000, help="cases to run")
    ap.add_argument("--seed", type=int, default=1, help="first seed; case i uses seed + i")
    ap.add_argument("--limit", type=int, default=30, help="seconds a run may take before it counts as a hang")
    args = ap.parse_args()
    codes: collections.Counter[tuple[str, int | None]] = collections.Counter()
    edits: collections.Counter[str] = collections.Counter()
    breaches = 0
    slowest = (0.0, "")
    t0, c0 = time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory(prefix="szwadron-fuzz-") as tmp:
        folder = Path(tmp)
        prepare(folder)
        with inside(folder):
            for i, case in enumerate(cases(args.cases, args.seed)):
                outcome = run_case(case, folder, szwadron, limit_s=args.limit)
                codes[(case.kind, outcome.code)] += 1
                edits.update(case.edits)
                if outcome.seconds > slowest[0]:
                    slowest = (outcome.seconds, f"seed {args.seed + i} ({case.kind}, {'+'.join(case.edits)})")
                if outcome.problems:
                    breaches += 1
                    print(f"seed {args.seed + i} ({case.kind}, {'+'.join(case.edits)}): {outcome.problems}")
                if (i + 1) % 1000 == 0:
                    print(f"... {i + 1} runs, {breaches} breaches", file=sys.stderr)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    total = sum(codes.values())
    print(
        f"runs: {total} (seeds {args.seed}..{args.seed + args.cases - 1}) in {wall:.0f} s (CPU {cpu:.0f} s)"
    )
    for kind in sorted({k for k, _ in codes}):
        by_code = {c: n for (k, c), n in codes.items() if k == kind}
        shown = ", ".join(
            f"exit {c}: {n}" for c, n in sorted(by_code.items(), key=lambda x: (x[0] is None, x[0]))
        )
        print(f"  {kind}: {sum(by_code.values())} runs; {shown}")
    overall = collections.Counter()
    for (_, c), n in codes.items():
        overall[c] += n
    print(
        "exit codes: "
        + ", ".join(f"{c}: {n}" for c, n in sorted(overall.items(), key=lambda x: (x[0] is None, x[0])))
    )
    print(f"exit 3: {overall.get(3, 0)}; hangs (over {args.limit} s): {overall.get(None, 0)}")
    print(f"slowest run: {slowest[0]:.2f} s, {slowest[1]}")
    print("edits: " + ", ".join(f"{e} {n}" for e, n in sorted(edits.items())))
    print(f"breaches of the contract: {breaches}")
    return 1 if breaches else 0


if __name__ == "__main__":
    raise SystemExit(main())
