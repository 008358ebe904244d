"""Bring the example rosters back to 99-100 % of their limits after a recalibration (issue 14).

``szwadron points calibrate`` rewrites every profile's points, so the example rosters (data, in
the army-list files) end a little over or under their limits; it flags them. This rebuilds each
flagged roster the way an organiser would, keeping its units and their order:

1. a unit under the list's ``min_unit_figures`` (or over ``max_unit_figures``) is brought inside;
2. too dear: the largest line unit loses a figure (never below its minimum; then skirmishers and
   cavalry; when every unit is at its smallest, the cheapest such unit leaves) — the first such
   edit that keeps every other constraint — until the roster is within its limit;
3. too cheap: the smallest line unit (then skirmishers, cavalry) gains a figure while the roster
   stays within its limit and legal, until it spends 99 %;
4. still too cheap with every unit at its largest: one more unit like one the roster fields (its
   profile, a size the list allows, its attached figures kept), the legal one that spends most
   within the limit; then step 3 again.

Each roster is checked by :func:`szwadron.armies.rosters.validate_roster` at every step; the
lists' ``units = [...]`` arrays are rewritten in place (the rest of each file is kept as it is).

Run: ``.venv/bin/python scripts/fit_rosters.py [DIR]`` (default: the bundled ``armylists/``). It
prints each roster it rebuilt, and each one it could not bring to 99 % legally (no unit can grow
and none like its own fits: a unit to change by hand) — then it exits 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from szwadron.armies.battles import profile_class
from szwadron.armies.rosters import POINTS_LIMIT_ID, RosterReport, validate_roster
from szwadron.armies.search import size_bounds
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import ArmyList, Kind, Roster, RosterEntry

#: A rebuilt roster spends at least this share of its limit.
SPEND = 0.99
#: Classes whose units change size, in the order they are changed.
ORDER = ("line", "skirmishers", "cavalry")


def bounds(army: ArmyList, entry: RosterEntry) -> tuple[int, int]:
    """Fewest and most figures of its own profile the unit may have: the list's unit-size
    constraints, which count an attached company of another fighting profile too (1.1)."""
    attached = sum(a.figures for a in entry.attached if army.profile(a.profile).kind is not Kind.LIMBER)
    low, high = size_bounds(army, army.profile(entry.profile))
    return max(1, low - attached), max(1, high - attached)


def check(army: ArmyList, roster: Roster, units: Sequence[RosterEntry]) -> tuple[float, RosterReport]:
    """The roster's points and report with ``units`` (each of count 1)."""
    report = validate_roster(army, roster.model_copy(update={"units": tuple(units)}))
    return report.points or 0.0, report


def resized(entry: RosterEntry, figures: int) -> RosterEntry:
    """``entry`` with ``figures`` (an attached limber follows its gun's figures)."""
    return entry.model_copy(update={"figures": figures})


def rebuild(army: ArmyList, roster: Roster) -> tuple[list[RosterEntry], float, RosterReport]:
    """Steps 1-3 of the module notes for one roster."""
    limit = roster.points_limit or 0.0
    units = [e.model_copy(update={"count": 1}) for e in roster.units for _ in range(e.count)]
    units = [resized(e, min(max(e.figures, bounds(army, e)[0]), bounds(army, e)[1])) for e in units]
    pts, report = check(army, roster, units)
    rank = {c: k for k, c in enumerate(ORDER)}

    def cls(i: int) -> int:
        return rank.get(profile_class(army.profile(units[i].profile)), len(ORDER))

    while pts > limit:
        trials = [  # a figure less: line first, the largest unit first
            [*units[:i], resized(units[i], units[i].figures - 1), *units[i + 1 :]]
            for i in sorted(range(len(units)), key=lambda i: (cls(i), -units[i].figures))
            if cls(i) < len(ORDER) and units[i].figures > bounds(army, units[i])[0]
        ]
        changing = [i for i in range(len(units)) if cls(i) < len(ORDER)]
        if not trials and len(changing) > 1:  # every unit at its smallest: one leaves, the cheapest first
            cheapest = sorted(changing, key=lambda i: (check(army, roster, [units[i]])[0], -i))
            trials = [[*units[:i], *units[i + 1 :]] for i in cheapest]
        if not trials:
            break
        checked = [(trial, *check(army, roster, trial)) for trial in trials]
        # the first edit that keeps every constraint but the limit, else the first edit
        legal = [c for c in checked if all(b.constraint == POINTS_LIMIT_ID for b in c[2].broken)]
        units, pts, report = (legal or checked)[0]
    while pts < SPEND * limit:
        grown = grow(army, roster, units, limit, cls)
        if grown is None:
            grown = add_unit(army, roster, units, limit)
        if grown is None:
            break
        units, pts, report = grown
    return units, pts, report


def grow(
    army: ArmyList,
    roster: Roster,
    units: list[RosterEntry],
    limit: float,
    cls: Callable[[int], int],
) -> tuple[list[RosterEntry], float, RosterReport] | None:
    """Step 3: the smallest unit of the first class that can grow gains a figure (None when none
    can, legally and within the limit)."""
    growable = [
        i for i in range(len(units)) if cls(i) < len(ORDER) and units[i].figures < bounds(army, units[i])[1]
    ]
    for i in sorted(growable, key=lambda i: (cls(i), units[i].figures)):
        trial = list(units)
        trial[i] = resized(units[i], units[i].figures + 1)
        p2, r2 = check(army, roster, trial)
        if p2 <= limit and r2.ok:
            return trial, p2, r2
    return None


def add_unit(
    army: ArmyList, roster: Roster, units: list[RosterEntry], limit: float
) -> tuple[list[RosterEntry], float, RosterReport] | None:
    """Step 4: every unit at its largest and the roster still short: one more unit like one it
    already fields (its profile, any size the list allows, its attached figures kept) — the
    legal one that spends most within the limit; None when none fits."""
    best: tuple[list[RosterEntry], float, RosterReport] | None = None
    seen: set[tuple[str, int, object]] = set()
    for e in units:
        low, high = bounds(army, e)
        for figures in range(low, high + 1):
            key = (e.profile, figures, e.attached)
            if key in seen:
                continue
            seen.add(key)
            trial = [*units, resized(e, figures)]
            p2, r2 = check(army, roster, trial)
            if p2 <= limit and r2.ok and (best is None or p2 > best[1]):
                best = (trial, p2, r2)
    return best


def toml_units(units: Sequence[RosterEntry]) -> str:
    """The ``units = [...]`` body, equal units merged in their order."""
    merged: list[list[object]] = []
    for e in units:
        for m in merged:
            if m[0] == (e.profile, e.figures, e.attached):
                m[1] = int(str(m[1])) + 1
                break
        else:
            merged.append([(e.profile, e.figures, e.attached), 1])
    lines = []
    for (profile, figures, attached), count in ((m[0], m[1]) for m in merged):  # type: ignore[misc]
        line = f'  {{ profile = "{profile}", figures = {figures}, count = {count}'
        if attached:
            line += (
                ", attached = ["
                + ", ".join(f'{{ profile = "{a.profile}", figures = {a.figures} }}' for a in attached)
                + "]"
            )
        lines.append(line + " },")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "folder", nargs="?", help="folder of army-list TOML files (default: the bundled ones)"
    )
    args = parser.parse_args()
    folder = Path(args.folder) if args.folder else bundled_dir("armylists")
    unfitted = 0
    for path in sorted(folder.glob("*.toml")):
        army = load_army_list(path)
        text = path.read_text(encoding="utf-8")
        for roster in army.rosters:
            before, _ = check(army, roster, roster.units)
            units, pts, report = rebuild(army, roster)
            limit = roster.points_limit or 0.0
            short = pts < SPEND * limit
            unfitted += short or not report.ok
            changed = [(e.profile, e.figures) for e in units] != [
                (e.profile, e.figures) for e in roster.units for _ in range(e.count)
            ]
            if changed:
                start = text.index(f'id = "{roster.id}"')
                a = text.index("units = [\n", start) + len("units = [\n")
                b = text.index("\n]", a)
                text = text[:a] + toml_units(units) + text[b:]
            elif report.ok and not short:
                continue
            verdict = (
                report.describe()
                if not report.ok
                else f"under {SPEND:.0%} of its limit: no unit can grow and none like its own fits; change a unit by hand"
                if short
                else "ok"
            )
            print(f"{path.name} {roster.id}: {before:.1f} -> {pts:.1f} of {limit:g} {verdict}")
        path.write_text(text, encoding="utf-8")
    return 1 if unfitted else 0


if __name__ == "__main__":
    raise SystemExit(main())
