"""Bring an example roster nearer an even chance against the rosters players build (issue 14).

The points make armies even on average; one roster can still be a few points stronger or weaker
than its points say (this roster's mix against the field). An organiser evens a bundled roster
the way a player would change one: one unit out, one unit in, inside the list's constraints and
at 99-100 % of the limit. This script does it by measurement:

1. the field: ``--field`` random legal rosters (:func:`szwadron.armies.search.random_roster`) of
   every other list at the roster's limit, drawn from seeds of their own (``even2030:...``);
2. every neighbour of the roster (one unit fewer of one entry, one unit of any fighting profile of
   the list at any legal size from 4 to 12 more, or with ``--in N`` N such units; a gun with the
   limber the roster attaches to it) that
   :func:`szwadron.armies.rosters.validate_roster` passes and that spends 99-100 % of the limit
   plays ``--battles`` battles against each rosters of the field, half with each side first;
3. the ``--confirm`` neighbours nearest 50 % play again against a second field (seeds
   ``even2031:...``, three times the battles): the nearest to 50 % there is taken if it is nearer
   than the roster it came from, so a neighbour lucky on the first field is not taken for it;
4. at most ``--steps`` steps; the units it ends with are printed as the army-list TOML's
   ``units = [...]`` lines, to paste by hand.

The field is neither the calibration's (its seeds are its own) nor ``points validate``'s held-out
rosters (``held_out_validation`` draws with other seeds), so evening a roster this way does not
tune it to the sets the README's figures are measured on. ``--seed S`` draws the two fields
from ``evenS`` and ``evenS+1`` instead (the default, 2030, is the first evening's).

Run: ``.venv/bin/python scripts/even_roster.py LIST ROSTER [--steps 3] [--field 8] [--battles 50]
[--seed 2030] [--in 1-4] [--lists DIR]`` (LIST a list's id). Bad input: one message, exit 2.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

from szwadron.armies.battles import play, roster_force
from szwadron.armies.calibrate import army_list_paths, load_lists
from szwadron.armies.rosters import entry_costs, validate_roster
from szwadron.armies.search import random_roster, size_bounds
from szwadron.errors import InvalidDataError
from szwadron.models import ArmyList, Roster

#: A roster kept spends at least this share of its limit (the example rosters' rule).
SPEND = 0.99
Units = list[dict[str, Any]]


def field(armies: Sequence[ArmyList], army: ArmyList, limit: float, rosters: int, tag: str) -> list[Any]:
    """``rosters`` random legal rosters of every other list at ``limit``, as forces."""
    out = []
    for other in armies:
        if other.id == army.id:
            continue
        for k in range(rosters):
            rng = random.Random(f"{tag}:{other.id}:{limit:g}:{k}")
            out.append(roster_force(other, random_roster(other, limit, rng, rid=f"field-{k}")))
    return out


def rates(
    army: ArmyList, limit: float, variants: Sequence[Units], opponents: Sequence[Any], battles: int, tag: str
) -> list[float]:
    """Each variant's mean score against every opponent, ``battles`` each, the sides alternating first."""
    forces = list(opponents)
    specs = []
    for units in variants:
        idx = len(forces)
        forces.append(
            roster_force(army, Roster.model_validate({"id": "v", "points_limit": limit, "units": units}))
        )
        key = json.dumps(units, sort_keys=True)
        specs += [
            (idx, j, b % 2, f"{tag}:{key}:{j}:{b}") for j in range(len(opponents)) for b in range(battles)
        ]
    scores = play(forces, specs)
    n = len(opponents) * battles
    return [sum(s for s, _ in scores[i * n : (i + 1) * n]) / n for i in range(len(variants))]


def _key(unit: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in unit.items() if k != "count"}, sort_keys=True)


def _merge(units: Units) -> Units:
    merged: dict[str, dict[str, Any]] = {}
    for u in units:
        k = _key(u)
        if k in merged:
            merged[k]["count"] = merged[k].get("count", 1) + u.get("count", 1)
        else:
            merged[k] = dict(u)
    return [u for u in merged.values() if u.get("count", 1) > 0]


def _roster_key(units: Units) -> str:
    """The same key for the same units, whatever their order."""
    return json.dumps(sorted(_key(x) + str(x.get("count", 1)) for x in _merge(units)))


def neighbours(
    army: ArmyList, limit: float, units: Units, limbers: dict[str, Any], ins: int = 1
) -> list[tuple[str, Units]]:
    """Every legal roster one unit out and ``ins`` (1 to 4) units in, spending 99-100 % of
    ``limit``; a gun joins with ``limbers[its profile]`` attached. More than one in: a battalion
    out for batteries and squadrons, say — what a roster whose one-unit neighbours are all uneven
    needs."""
    adds = []
    for p in army.profiles:
        if p.kind.value == "limber":
            continue
        low, high = (1, 1) if p.kind.is_artillery else size_bounds(army, p, 4, 12)
        for size in range(low, high + 1):
            unit: dict[str, Any] = {"profile": p.id, "figures": size, "count": 1}
            if p.id in limbers:
                unit["attached"] = limbers[p.id]
            adds.append(unit)
    out: list[tuple[str, Units]] = []
    seen = {_roster_key(units)}  # the roster itself is no neighbour (one unit out, the same in)
    cost = _costs(army, limit, [*units, *adds])
    own_cost, add_cost = cost[: len(units)], cost[len(units) :]
    total = sum(c * u.get("count", 1) for c, u in zip(own_cost, units, strict=True))
    # the units in, unordered (the same unit more than once too); only those that can land at
    # 99-100 % of the limit are put to the checker
    ways = list(itertools.combinations_with_replacement(range(len(adds)), ins))
    for i, old in enumerate(units):
        rest = total - own_cost[i]
        for way in ways:
            if not SPEND * limit - 0.5 <= rest + sum(add_cost[k] for k in way) <= limit + 0.5:
                continue
            new_units = [copy.deepcopy(adds[k]) for k in way]
            v = copy.deepcopy(units)
            v[i]["count"] = v[i].get("count", 1) - 1
            v = _merge([*v, *new_units])
            key = _roster_key(v)
            if key in seen:
                continue
            seen.add(key)
            report = validate_roster(
                army, Roster.model_validate({"id": "v", "points_limit": limit, "units": v})
            )
            if report.ok and report.points is not None and SPEND * limit <= report.points <= limit:
                ins_text = " and ".join(f"{n['profile']} x{n['figures']}" for n in new_units)
                out.append((f"{old['profile']} x{old['figures']} out, {ins_text} in", v))
    return out


def _costs(army: ArmyList, limit: float, units: Units) -> list[float]:
    """What one unit of each entry costs at the list's points (attached figures included)."""
    merged = [dict(u, count=1) for u in units]
    costs = entry_costs(army, Roster.model_validate({"id": "v", "points_limit": limit, "units": merged}))
    if costs is None:
        raise InvalidDataError(f"{army.id}: a profile of the roster has no points")
    return [c.each for c in costs]


def toml_lines(units: Units) -> str:
    """The ``units = [...]`` array as the army lists write it (profile, figures, count, attached).

    >>> print(toml_lines([{"profile": "gun", "figures": 1, "attached": [{"profile": "limber", "figures": 1}]}]))
    units = [
      { profile = "gun", figures = 1, count = 1, attached = [{ profile = "limber", figures = 1 }] },
    ]
    """

    def value(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(table(x) for x in v) + "]"
        return json.dumps(v)

    def table(d: dict[str, Any]) -> str:
        return "{ " + ", ".join(f"{k} = {value(x)}" for k, x in d.items()) + " }"

    def ordered(u: dict[str, Any]) -> dict[str, Any]:
        head = {"profile": u["profile"], "figures": u["figures"], "count": u.get("count", 1)}
        return head | {k: v for k, v in u.items() if k not in head}

    return "\n".join(["units = [", *(f"  {table(ordered(u))}," for u in units), "]"])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("list", help="army list id (bundled) or file")
    parser.add_argument("roster", help="id of an example roster of that list")
    parser.add_argument("--lists", help="folder of army lists (default: the bundled armylists/)")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--field", type=int, default=8, help="random rosters of each other list")
    parser.add_argument("--battles", type=int, default=50, help="battles against each roster of the field")
    parser.add_argument("--confirm", type=int, default=4, help="neighbours played again on the second field")
    parser.add_argument(
        "--in",
        dest="ins",
        type=int,
        default=1,
        choices=(1, 2, 3, 4),
        help="units in for the one out at each step (default 1; more: a battalion out for smaller units)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=2030,
        help="the fields' seeds: even<SEED> for the first, even<SEED+1> for the second (default 2030)",
    )
    args = parser.parse_args(argv)
    try:
        for name in ("steps", "field", "battles", "confirm"):
            if getattr(args, name) < 1:
                raise InvalidDataError(f"--{name} must be at least 1, got {getattr(args, name)}")
        armies = load_lists(army_list_paths(args.lists))
        army = next((a for a in armies if a.id == args.list), None)
        if army is None:
            raise InvalidDataError(
                f"no army list {args.list!r}; the lists: {', '.join(a.id for a in armies)}"
            )
        roster = next((r for r in army.rosters if r.id == args.roster), None)
        if roster is None or roster.points_limit is None:
            raise InvalidDataError(
                f"{army.id}: no example roster {args.roster!r} with a points limit; "
                f"it has: {', '.join(r.id for r in army.rosters)}"
            )
    except InvalidDataError as exc:
        print(f"even_roster: {exc}", file=sys.stderr)
        return 2
    limit = float(roster.points_limit)
    tag1, tag2 = f"even{args.seed}", f"even{args.seed + 1}"
    first, second = (
        field(armies, army, limit, args.field, tag1),
        field(armies, army, limit, args.field, tag2),
    )
    units: Units = [json.loads(u.model_dump_json(exclude_defaults=True)) for u in roster.units]
    limbers = {u["profile"]: u["attached"] for u in units if u.get("attached")}
    (now,) = rates(army, limit, [units], second, 3 * args.battles, tag2)
    print(f"{army.id}:{roster.id} as it is: {100 * now:.1f} % against the second field")
    for step in range(1, args.steps + 1):
        options = neighbours(army, limit, units, limbers, args.ins)
        if not options:
            break
        first_rates = rates(army, limit, [v for _, v in options], first, args.battles, tag1)
        best = sorted(range(len(options)), key=lambda i: abs(first_rates[i] - 0.5))[: args.confirm]
        again = rates(army, limit, [options[i][1] for i in best], second, 3 * args.battles, tag2)
        k = min(range(len(best)), key=lambda i: abs(again[i] - 0.5))
        label, variant = options[best[k]]
        print(
            f"step {step}: {len(options)} neighbours; {label}: {100 * first_rates[best[k]]:.1f} %, again {100 * again[k]:.1f} %"
        )
        if abs(again[k] - 0.5) >= abs(now - 0.5):
            break
        units, now = variant, again[k]
    print(toml_lines(units))
    return 0


if __name__ == "__main__":
    sys.exit(main())
