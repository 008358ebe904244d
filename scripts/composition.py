"""Issue 14 diagnosis: at equal points, which roster composition wins? (outside CI's time)

Random legal rosters of every bundled list and limit (:func:`szwadron.armies.search.random_roster`,
seeds of their own: held-out rosters) each play every other list's example rosters at the same
limit; the roster's mean win rate is regressed (least squares) on the share of its points in
skirmishers, cavalry and artillery (line infantry the rest) and on its number of units. A points
model fair on armies it was not fitted to would leave no slope.

Run: ``.venv/bin/python scripts/composition.py [--rosters 8] [--battles 300] [--lists DIR]``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from szwadron.armies.battles import battle_pair, profile_class, roster_force
from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.search import random_roster

CLASSES = ("skirmishers", "cavalry", "artillery")


def measure(rosters: int, battles: int, lists: str | None = None) -> list[dict[str, float | str]]:
    """One row per random roster: list, limit, mean win rate against the field, class shares."""
    armies = load_lists(army_list_paths(lists))
    rows: list[dict[str, float | str]] = []
    for a in armies:
        for limit in sorted({r.points_limit for r in a.rosters if r.points_limit is not None}):
            rng = random.Random(f"composition:{a.id}:{limit:g}")
            for _ in range(rosters):
                roster = random_roster(a, limit, rng, rid="composition")
                force = roster_force(a, roster)
                total = sum(u.cost() for u in force)
                shares = {
                    c: sum(u.cost() for u in force if profile_class(u.profile) == c) / total for c in CLASSES
                }
                rates = [
                    battle_pair(a, roster, b, rb, battles=battles, seed=11).rate
                    for b in armies
                    if b.id != a.id
                    for rb in b.rosters
                    if rb.points_limit == limit
                ]
                rows.append(
                    {
                        "army": a.id,
                        "limit": limit,
                        "rate": float(np.mean(rates)),
                        "units": len(force),
                        **shares,
                    }
                )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rosters", type=int, default=8, help="random rosters per list and limit")
    parser.add_argument("--battles", type=int, default=300, help="battles against each example roster")
    parser.add_argument("--lists", metavar="DIR", help="army lists to measure (default: the bundled ones)")
    args = parser.parse_args()
    c0, t0 = time.process_time(), time.perf_counter()
    rows = measure(args.rosters, args.battles, args.lists)
    rate = np.asarray([float(r["rate"]) for r in rows]) - 0.5
    x = np.asarray([[1.0, *(float(r[c]) for c in CLASSES), float(r["units"]) / 20.0] for r in rows])
    beta = np.linalg.lstsq(x, rate, rcond=None)[0]
    fitted = x @ beta
    r2 = 1.0 - float(((rate - fitted) ** 2).sum() / ((rate - rate.mean()) ** 2).sum())
    print(
        f"{len(rows)} random legal rosters, {args.battles} battles against each example roster of the field"
    )
    print(
        f"within 50 ± 5 %: {np.mean(np.abs(rate) <= 0.05):.1%}; RMS from 50 %: {np.sqrt((rate**2).mean()):.1%}"
    )
    print("win rate − 50 % by least squares on the share of the roster's points (line infantry the rest):")
    for name, b in zip(("intercept", *CLASSES, "units / 20"), beta, strict=True):
        print(f"  {name:12s} {b:+.3f}")
    print(f"  R² {r2:.2f}")
    for army in sorted({str(r["army"]) for r in rows}):
        mine = [float(r["rate"]) for r in rows if r["army"] == army]
        print(f"  {army:8s} mean {np.mean(mine):.1%} over {len(mine)} rosters")
    print(f"{time.process_time() - c0:.1f} s CPU (this process), {time.perf_counter() - t0:.1f} s wall")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
