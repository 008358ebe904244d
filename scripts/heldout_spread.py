"""Issue 14 diagnosis: what keeps held-out pairs out of 50 ± 5 %, read from held-out sets.

Reads one or more held-out sets — the JSON of ``szwadron points validate --json`` (its
``held_out``) or of :meth:`szwadron.armies.search.HeldOutValidation.to_json` — and prints:

1. the pairs within 50 ± 5 % and their RMS, pooled;
2. the **ceiling**: the share in band were every roster exactly even against its field (each
   pair's rate less the two rosters' own distances from 50 %, their rates against the field) —
   what the matchups and the dice leave whatever the points; and the share with the dice taken
   out (:func:`szwadron.armies.spread.share_without_dice`, when every set played the same battles
   a pair);
3. how much of the held-out rosters' own strength (their rate against the field) prices can see,
   fitted on all the sets but one and tested on that one in turn (ridge regression, the best of a
   few penalties): on the share of the limit spent on each profile (what a change of per-figure
   points could do), and on the roster's make-up (units per 1,000 points by class, the mean size of
   a class's units, units with an attached company, figures per 1,000 points, the characteristics
   weighted by points, the list and the limit);
4. among the random rosters, within the same list and limit, the correlation of a few make-up terms
   with the rate and its slope (points of win rate per unit of the term).

Run: ``.venv/bin/python scripts/heldout_spread.py FILE [FILE ...] [--lists DIR]``. The lists must be
the ones the sets were played with (profiles' points and kinds). With fewer than three sets the
cross-validation is skipped. Older files whose cells do not name their points limit are read in
their order (the limits ascending, as :func:`~szwadron.armies.search.held_out_validation` plays them).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.spread import share_without_dice
from szwadron.models import ArmyList, Kind, RosterEntry

BAND = (0.45, 0.55)
PENALTIES = (0.3, 1.0, 3.0, 10.0, 30.0)
#: The make-up terms of step 4.
TERMS = ("size_skirmishers", "size_cavalry", "units_cavalry", "units_infantry", "units_guns", "attached")
CHARACTERISTICS = ("move", "wounds", "melee", "fire", "range", "melee_skill", "accuracy", "morale")


def load_set(path: Path) -> dict[str, Any]:
    """A held-out set from ``path``, each cell with its points limit."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        fail(f"{path}: cannot read it ({e.strerror})")
    except json.JSONDecodeError as e:
        fail(f"{path}: line {e.lineno}: not JSON ({e.msg})")
    held = doc.get("held_out", doc) if isinstance(doc, dict) else None
    if not isinstance(held, dict) or "cells" not in held or "rosters" not in held:
        fail(f"{path}: not a held-out set (expected 'cells' and 'rosters', or 'held_out' holding them)")
    cells = held["cells"]
    if cells and "points_limit" not in cells[0]:
        _limits_by_order(held, path)
    return held


def fail(message: str) -> NoReturn:
    """One line on stderr and exit 2 (bad input)."""
    print(f"heldout_spread: error: {message}", file=sys.stderr)
    raise SystemExit(2)


def _limits_by_order(held: dict[str, Any], path: Path) -> None:
    """Name each cell's limit from the order the pairs are played in: per limit, every held-out
    roster against the other lists' example rosters and the other lists' held-out rosters."""
    by_limit: dict[float, list[str]] = defaultdict(list)
    for r in held["rosters"]:
        by_limit[float(r["points_limit"])].append(r["roster"])
    examples: dict[float, list[str]] = defaultdict(list)
    for e in held.get("examples", []):
        examples[float(e["points_limit"])].append(e["roster"])
    start = 0
    for limit in sorted(by_limit):
        mine = by_limit[limit]
        army = lambda label: label.split(":")[0]  # noqa: E731
        n = sum(1 for h in mine for e in examples[limit] if army(e) != army(h))
        n += sum(1 for i, h in enumerate(mine) for g in mine[i + 1 :] if army(g) != army(h))
        for cell in held["cells"][start : start + n]:
            cell["points_limit"] = limit
        start += n
    if start != len(held["cells"]):
        fail(f"{path}: cells without points limits, and their count is not the pairs' ({start})")


def _entries(units: Sequence[dict[str, Any]]) -> list[RosterEntry]:
    return [RosterEntry.model_validate(u) for u in units]


def make_up(army: ArmyList, units: Sequence[RosterEntry], limit: float) -> dict[str, float]:
    """The roster's make-up terms (module notes, step 3)."""
    out: dict[str, float] = defaultdict(float)
    figures_of: dict[str, int] = defaultdict(int)
    per = 1000.0 / limit
    for e in units:
        main = army.profile(e.profile)
        cls = (
            "skirmishers"
            if main.has("skirmish")
            else "guns"
            if main.kind in (Kind.FOOT_ARTILLERY, Kind.HORSE_ARTILLERY)
            else main.kind.value
        )
        out[f"units_{cls}"] += e.count * per
        figures_of[cls] += e.count * e.figures
        if any(army.profile(a.profile).kind is not Kind.LIMBER for a in e.attached):
            out["attached"] += e.count * per
        for pid, n in [(e.profile, e.figures), *((a.profile, a.figures) for a in e.attached)]:
            p = army.profile(pid)
            share = (p.points or 0.0) * n * e.count / limit
            out["figures"] += n * e.count * per
            for c in CHARACTERISTICS:
                out[f"weighted_{c}"] += share * getattr(p, c)
    for cls, figures in figures_of.items():
        out[f"size_{cls}"] = figures / (out[f"units_{cls}"] / per)
    return dict(out)


def profile_shares(army: ArmyList, units: Sequence[RosterEntry], limit: float) -> dict[str, float]:
    """The share of the limit spent on each profile (``army/profile``)."""
    out: dict[str, float] = defaultdict(float)
    for e in units:
        for pid, n in [(e.profile, e.figures), *((a.profile, a.figures) for a in e.attached)]:
            out[f"{army.id}/{pid}"] += (army.profile(pid).points or 0.0) * n * e.count / limit
    return dict(out)


def cross_validated(rows: list[tuple[int, dict[str, float], float]]) -> float:
    """R² out of sample of a ridge fit of the rates on the terms, one set left out at a time, the
    best of :data:`PENALTIES` (terms standardised; a term a roster lacks is 0)."""
    keys = sorted({k for _, terms, _ in rows for k in terms})
    x = np.asarray([[terms.get(k, 0.0) for k in keys] for _, terms, _ in rows], dtype=float)
    y = np.asarray([rate for *_, rate in rows], dtype=float)
    groups = np.asarray([g for g, _, _ in rows])
    z = (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-12)
    best = -math.inf
    for penalty in PENALTIES:
        predicted = np.zeros_like(y)
        for g in np.unique(groups):
            test, train = groups == g, groups != g
            mean = y[train].mean()
            a = z[train]
            coef = np.linalg.solve(a.T @ a + penalty * np.eye(len(keys)), a.T @ (y[train] - mean))
            predicted[test] = z[test] @ coef + mean
        best = max(best, 1.0 - float(np.var(y - predicted) / np.var(y)))
    return best


# long: the four readings of the module notes in order, each a few lines over the same rows.
def report(sets: Sequence[dict[str, Any]], armies: Sequence[ArmyList]) -> list[str]:
    """The lines printed (module notes)."""
    by_id = {a.id: a for a in armies}
    rates: list[float] = []
    even: list[float] = []
    rows_profiles: list[tuple[int, dict[str, float], float]] = []
    rows_make_up: list[tuple[int, dict[str, float], float]] = []
    random_rows: list[tuple[tuple[str, float], dict[str, float], float]] = []
    for g, held in enumerate(sets):
        own = {
            (float(r["points_limit"]), r["roster"]): r["field_rate"] - 0.5
            for r in [*held["rosters"], *held.get("examples", [])]
        }
        for c in held["cells"]:
            limit = float(c["points_limit"])
            rates.append(c["win_rate"])
            even.append(c["win_rate"] - own[(limit, c["a"])] + own[(limit, c["b"])])
        for r in held["rosters"]:
            army, limit = by_id[r["roster"].split(":")[0]], float(r["points_limit"])
            units = _entries(r["units"])
            terms = make_up(army, units, limit)
            rows_profiles.append((g, profile_shares(army, units, limit), r["field_rate"]))
            rows_make_up.append(
                (g, {**terms, f"list_{army.id}": 1.0, "limit": limit / 1000.0}, r["field_rate"])
            )
            if r["source"] == "random":
                random_rows.append(((army.id, limit), terms, r["field_rate"]))
    inside = np.mean([BAND[0] <= r <= BAND[1] for r in rates])
    rms = math.sqrt(float(np.mean([(r - 0.5) ** 2 for r in rates])))
    lines = [
        f"{len(sets)} held-out set(s), {len(rates)} pairs: {100 * inside:.1f} % within 50 ± 5 %, RMS {100 * rms:.2f} %",
        f"every roster even against its field: {100 * np.mean([abs(e - 0.5) <= 0.05 for e in even]):.1f} % within",
    ]
    battles = {int(held.get("battles", 0)) for held in sets}
    without = share_without_dice(rates, battles.pop(), BAND) if len(battles) == 1 else None
    if without is not None:
        lines.append(
            f"with the dice taken out (an estimate of the chances' share): {100 * without:.1f} % within"
        )
    if len(sets) >= 3:
        lines.append(
            f"rosters' own strength explained out of sample (R², {len(rows_profiles)} rosters): "
            f"by the share of each profile {100 * cross_validated(rows_profiles):.0f} %, "
            f"by the make-up {100 * cross_validated(rows_make_up):.0f} %"
        )
    lines.append("random rosters, within their list and limit: term, rosters, correlation, slope (points)")
    for term in TERMS:
        cells = [(group, terms[term], rate) for group, terms, rate in random_rows if term in terms]
        means: dict[tuple[str, float], tuple[float, float]] = {}
        for group in {c[0] for c in cells}:
            mine = [(x, y) for gr, x, y in cells if gr == group]
            means[group] = (float(np.mean([x for x, _ in mine])), float(np.mean([y for _, y in mine])))
        x = np.asarray([v - means[gr][0] for gr, v, _ in cells])
        y = np.asarray([r - means[gr][1] for gr, _, r in cells])
        if len(cells) < 3 or not x.std() or not y.std():
            lines.append(f"  {term}: {len(cells)} rosters, too few to read")
            continue
        corr = float(np.corrcoef(x, y)[0, 1])
        slope = float(np.polyfit(x, y, 1)[0])
        lines.append(f"  {term}: {len(cells)}, {corr:+.2f}, {100 * slope:+.2f}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="+", type=Path, help="held-out sets (JSON)")
    parser.add_argument("--lists", metavar="DIR", help="the army lists the sets were played with")
    args = parser.parse_args(argv)
    armies = load_lists(army_list_paths(args.lists))
    print("\n".join(report([load_set(p) for p in args.files], armies)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
