"""Run the consistency properties of issue 15 on many random legal tables (outside CI's time).

    python scripts/properties.py --tables 10000 --seed 1

Prints each failing table's seed and the properties it breaks, then a summary: tables drawn,
tables checked (draws with overlapping bases are redrawn), failures. Exit 1 when any property
fails. The tables and properties are those of ``tests/random_tables.py``.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from random_tables import check_properties, random_table


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10_000, help="legal tables to check")
    ap.add_argument("--seed", type=int, default=1, help="first seed; table i uses seed + i")
    ap.add_argument("--no-cli", action="store_true", help="skip running the commands through the CLI")
    ap.add_argument("--progress", type=int, default=0, help="print a line every N tables checked")
    args = ap.parse_args()
    checked = drawn = 0
    failing: collections.Counter[str] = collections.Counter()
    t0 = time.process_time()
    seed = args.seed
    while checked < args.tables:
        rng = random.Random(seed)
        drawn += 1
        data = random_table(rng)
        if data is not None:
            checked += 1
            for failure in check_properties(data, rng, cli=not args.no_cli):
                failing[failure.split(":")[0][:60]] += 1
                print(f"seed {seed}: {failure}", flush=True)
        seed += 1
        if args.progress and data is not None and checked % args.progress == 0:
            print(f"... {checked} tables checked, {sum(failing.values())} failures", flush=True)
    cpu = time.process_time() - t0
    print(f"{checked} tables checked ({drawn} drawn), {sum(failing.values())} failures, {cpu:.0f} s CPU")
    for what, n in failing.most_common():
        print(f"  {n:6}  {what}")
    return 1 if failing else 0


if __name__ == "__main__":
    raise SystemExit(main())
