"""Issue 14: what is an attached elite company worth? (outside CI's time)

A unit tests morale on its own M (6.2; docs/decisions.md), so a company of
higher M attached to it (grenadiers of M 5 in a line battalion of M 4, 1.1) fights with its own
UW, C and W but lends the unit nothing of its M. For every bundled list with such a profile, the
2,000-point example roster plays as fielded and again with two figures of each line battalion of
12 turned into an attached company of that profile (the same figures, dearer by the company's
points). Both play the same random legal rosters of the other lists (:func:`random_roster`, seeds
of their own) with the same seeds. If the company were worth its points, the variant would win
about as much more as its extra points buy; it wins about the same, which is why the roster check
refuses it (``attached-morale``).

Run: ``.venv/bin/python scripts/attached.py [--opponents 30] [--battles 100] [--lists DIR]``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from szwadron.armies.battles import BattleSpec, play, roster_force, roster_points
from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.search import random_roster
from szwadron.models import ArmyList, Attachment, Kind, Profile, Roster

LIMIT = 2000.0
COMPANY = 2


def _line(army: ArmyList) -> Profile:
    return army.profile("line_infantry")


def _company(army: ArmyList) -> Profile | None:
    """The list's infantry profile not in skirmish order with the lowest M above its line's (the
    first in the list's order among equals): grenadiers rather than a guard."""
    line = _line(army)
    better = [
        p
        for p in army.profiles
        if p.kind is Kind.INFANTRY and not p.has("skirmish") and p.morale > line.morale
    ]
    return min(better, key=lambda p: p.morale) if better else None


def with_companies(army: ArmyList, roster: Roster, company: Profile) -> Roster:
    """``roster`` with :data:`COMPANY` figures of every line battalion made an attached company."""
    units = tuple(
        e.model_copy(
            update={
                "figures": e.figures - COMPANY,
                "attached": (Attachment(profile=company.id, figures=COMPANY),),
            }
        )
        if e.profile == _line(army).id and not e.attached
        else e
        for e in roster.units
    )
    return roster.model_copy(update={"id": f"{roster.id}+{company.id}", "units": units})


def measure(opponents: int, battles: int, lists: str | None = None) -> list[dict[str, float | str]]:
    """One row per list with a company profile: points and win rates as fielded and with companies."""
    armies = load_lists(army_list_paths(lists))
    rows: list[dict[str, float | str]] = []
    for army in armies:
        company = _company(army)
        roster = next((r for r in army.rosters if r.points_limit == LIMIT), None)
        if company is None or roster is None:
            continue
        others = [b for b in armies if b.id != army.id]
        rng = random.Random(f"attached:{army.id}")
        field = [roster_force(b, random_roster(b, LIMIT, rng)) for b in (others * opponents)[:opponents]]
        variant = with_companies(army, roster, company)
        forces = [roster_force(army, roster), roster_force(army, variant), *field]
        specs: list[BattleSpec] = [
            (side, 2 + j, k % 2, f"attached:{army.id}:{j}:{k}")
            for side in (0, 1)
            for j in range(len(field))
            for k in range(battles)
        ]
        scores = [s for s, _ in play(forces, specs)]
        n = len(field) * battles
        rows.append(
            {
                "army": army.id,
                "company": company.id,
                "points": roster_points(army, roster),
                "points_variant": roster_points(army, variant),
                "rate": sum(scores[:n]) / n,
                "rate_variant": sum(scores[n:]) / n,
                "battles": n,
            }
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--opponents", type=int, default=30, help="random legal opponents a roster plays")
    parser.add_argument("--battles", type=int, default=100, help="battles against each opponent")
    parser.add_argument("--lists", help="directory of army lists (default: the bundled ones)")
    args = parser.parse_args()
    t0, c0 = time.perf_counter(), time.process_time()
    rows = measure(args.opponents, args.battles, args.lists)
    print(
        "| list | attached company | points as fielded → with companies | win rate as fielded | with companies |"
    )
    print("|---|---|---:|---:|---:|")
    for r in rows:
        se = 100 * math.sqrt(0.25 / float(r["battles"]))
        print(
            f"| {r['army']} | 2 × {r['company']} a battalion | {float(r['points']):.1f} → "
            f"{float(r['points_variant']):.1f} | {100 * float(r['rate']):.1f} % | "
            f"{100 * float(r['rate_variant']):.1f} % (± {se:.1f}) |"
        )
    print(
        f"\n{args.opponents} random legal opponents × {args.battles} battles a roster; "
        f"{time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.0f} s CPU in this process."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
