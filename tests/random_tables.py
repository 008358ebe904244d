"""Random legal tables for the consistency properties (issue 15), and the properties themselves.

:func:`random_table` draws a table from a :class:`random.Random`: two sides of units in line,
column or skirmish order (1.3), cavalry, a battery, at random positions and facings, with enemy
units often placed in contact with a random sideways offset (ranks at a real table are rarely
aligned: a base then straddles two enemy bases), and sometimes a wood, a hill or a fence. Tables
with overlapping bases are refused (PD-3: a set-up must not overlap), so every table is legal.

:func:`check_properties` runs the rulings on one table and returns the properties that fail:

- no internal error from any command (exit 3);
- ``check`` says two units are engaged (5.1.2, PD-14) exactly when ``melee`` between them finds
  figures in contact, whichever attacks;
- a unit engaged with several enemy units is resolved as one combined melee (5.10) whose every
  unit's outcomes add up to 1, and with one enemy unit it answers as the single melee;
- a legal ``move`` ends in a position ``check`` accepts: it adds no problem of the moved unit;
- the morale phase of each side answers with probabilities, and no fleeing figure's way to its
  edge is shorter than the straight line (6.6.9); some units are drawn in panic;
- ``fire`` is unchanged by a unit far from the band (4.3);
- every answer is unchanged when the table is mirrored (x → width − x, facing → 180° − facing).

Used by ``tests/test_properties.py`` (a few hundred tables) and ``scripts/properties.py`` (10,000
and more, outside CI's time).
"""

from __future__ import annotations

import contextlib
import io
import math
import random
import tempfile
from pathlib import Path
from typing import Any

from szwadron.errors import IllegalActionError, SzwadronError
from szwadron.geometry.battlefield import Battlefield
from szwadron.models import DEFAULT_BASE_SIZE_CM, Kind, Scenario, UnitState
from szwadron.table.audit import AuditReport, audit
from szwadron.table.combined import combined_melee
from szwadron.table.fire import fire
from szwadron.table.melee import table_melee
from szwadron.table.movement import check_move, place

WIDTH, DEPTH = 120.0, 120.0

_STATS: dict[str, dict[str, Any]] = {
    "infantry": {"R": 12, "W": 2, "SW": 1, "SO": 1, "Z": 24, "UW": 3, "C": 3, "M": 4},
    "cavalry": {"R": 24, "W": 2, "SW": 2, "SO": 0, "Z": 0, "UW": 4, "C": 0, "M": 4},
    "foot_artillery": {"R": 6, "W": 3, "SW": 0, "SO": 4, "Z": 60, "UW": 1, "C": 3, "M": 4},
}


def _profile(kind: str, skirmish: bool) -> dict[str, Any]:
    return {
        "id": kind + ("-sk" if skirmish else ""),
        "name": kind,
        "kind": kind,
        **_STATS[kind],
        "abilities": ["skirmish"] if skirmish else [],
    }


def _formation(
    x: float, y: float, facing: float, kind: str, files: int, ranks: int, gap: float
) -> list[dict[str, float]]:
    """Bases of ``files`` × ``ranks`` with (x, y) the middle of the front edge (1.3)."""
    w, d = DEFAULT_BASE_SIZE_CM[Kind(kind)]
    a = math.radians(facing)
    fwd = (math.cos(a), math.sin(a))
    right = (math.sin(a), -math.cos(a))
    span = files * w + (files - 1) * gap
    out = []
    for r in range(ranks):
        for f in range(files):
            lateral = -span / 2 + w / 2 + f * (w + gap)
            back = d / 2 + r * (d + gap)
            out.append(
                {
                    "x": round(x + lateral * right[0] - back * fwd[0], 6),
                    "y": round(y + lateral * right[1] - back * fwd[1], 6),
                    "facing": facing % 360,
                }
            )
    return out


def _unit_spec(rng: random.Random) -> tuple[str, bool, int, int, float]:
    """kind, skirmish, files, ranks, gap."""
    roll = rng.random()
    if roll < 0.45:
        return "infantry", False, rng.randint(2, 6), rng.choice([1, 2, 2, 3]), 0.0
    if roll < 0.6:
        return "infantry", True, rng.randint(2, 5), 1, rng.choice([1.0, 2.0, 3.0])
    if roll < 0.9:
        return "cavalry", False, rng.randint(2, 4), rng.choice([1, 1, 2]), 0.0
    return "foot_artillery", False, 1, 1, 0.0


def random_table(rng: random.Random) -> dict[str, Any] | None:
    """A random legal table as scenario data, or None when the draw overlaps (PD-3)."""
    units: list[dict[str, Any]] = []
    fronts: list[tuple[float, float, float]] = []
    for side in ("A", "B"):
        for k in range(rng.randint(1, 4)):
            kind, skirmish, files, ranks, gap = _unit_spec(rng)
            if side == "B" and fronts and rng.random() < 0.6:
                # in contact with an enemy front, offset sideways by a random amount
                fx, fy, ff = rng.choice(fronts)
                a = math.radians(ff)
                offset = rng.uniform(-4.0, 4.0)
                x = fx + offset * math.sin(a)
                y = fy - offset * math.cos(a)
                facing = (ff + 180.0) % 360
            else:
                x, y = rng.uniform(15, WIDTH - 15), rng.uniform(15, DEPTH - 15)
                base = 90.0 if side == "A" else 270.0
                facing = (base + rng.choice([0.0, 0.0, rng.uniform(-40, 40)])) % 360
            bases = _formation(x, y, facing, kind, files, ranks, gap)
            units.append(
                {
                    "id": f"{side.lower()}{k}",
                    "side": side,
                    "profile": _profile(kind, skirmish),
                    "bases": bases,
                    **({"state": "panic"} if rng.random() < 0.15 else {}),
                }
            )
            if side == "A":
                fronts.append((x, y, facing))
    terrain: list[dict[str, Any]] = []
    if rng.random() < 0.3:
        x0, y0 = rng.uniform(0, WIDTH - 20), rng.uniform(0, DEPTH - 20)
        terrain.append(
            {
                "id": "wood",
                "kind": rng.choice(["forest", "hill"]),
                "polygon": [[x0, y0], [x0 + 15, y0], [x0 + 15, y0 + 10], [x0, y0 + 10]],
                **({"level": 1} if rng.random() < 0.5 else {}),
            }
        )
        if terrain[0]["kind"] == "forest":
            terrain[0].pop("level", None)
    data = {"name": "random", "table": {"width": WIDTH, "depth": DEPTH}, "terrain": terrain, "units": units}
    try:
        sc = Scenario.model_validate(data)
    except ValueError:
        return None
    report = audit(Battlefield(sc))
    if report.overlaps or report.off_table or report.forbidden_terrain:
        return None
    return data


def mirrored(data: dict[str, Any]) -> dict[str, Any]:
    """The table reflected in its middle line x = width / 2 (facing → 180° − facing)."""
    w = data["table"]["width"]
    out = {**data, "units": [], "terrain": []}
    for t in data["terrain"]:
        out["terrain"].append({**t, "polygon": [[w - x, y] for x, y in reversed(t["polygon"])]})
    for u in data["units"]:
        bases = [{"x": w - b["x"], "y": b["y"], "facing": (180.0 - b["facing"]) % 360} for b in u["bases"]]
        out["units"].append({**u, "bases": bases})
    return out


def _engaged(report: AuditReport) -> set[frozenset[str]]:
    return {frozenset((u.id, e)) for u in report.units for e in u.engaged_with}


def _melee_in_contact(bf: Battlefield, a: str, b: str) -> bool | None:
    """Whether ``melee`` finds figures of both in contact; None when the rules refuse the melee
    for another reason than contact (a panicking attacker, 6.1)."""
    try:
        m = table_melee(bf, a, b)
    except IllegalActionError as exc:
        return False if exc.rule == "5.3" else None
    return bool(m.attacker_in_contact or m.defender_in_contact)  # PD-14: one side may fight alone


def _fire_answer(bf: Battlefield, shooter: str, target: str) -> tuple[Any, ...]:
    try:
        r = fire(bf, shooter, target)
    except SzwadronError as exc:
        return ("refused", type(exc).__name__)
    return (r.legal, round(r.expected, 9), tuple(s.can_fire for s in r.shooters))


def _answers(sc: Scenario) -> dict[str, Any]:
    """Everything the mirror property compares: engaged pairs, problems' rules, melee contacts
    and fire answers of every pair of enemy units."""
    bf = Battlefield(sc)
    report = audit(bf)
    ids = [u.id for u in sc.units]
    side = {u.id: u.side for u in sc.units}
    pairs = [(a, b) for a in ids for b in ids if side[a] == "A" and side[b] == "B"]
    return {
        "engaged": _engaged(report),
        "problems": sorted((p.rule, p.where) for p in report.problems),
        "melee": {(a, b): _melee_in_contact(bf, a, b) for a, b in pairs},
        "fire": {(a, b): _fire_answer(bf, a, b) for a, b in pairs + [(b, a) for a, b in pairs]},
    }


def _far_bystander(sc: Scenario, data: dict[str, Any]) -> dict[str, Any] | None:
    """The table with one more side-B base far (≥ 30 cm) from every base, or None."""
    bf = Battlefield(sc)
    xs = [float(p.centroid.x) for p in bf.polygons]
    ys = [float(p.centroid.y) for p in bf.polygons]
    for cx, cy in ((5.0, 5.0), (WIDTH - 5, 5.0), (5.0, DEPTH - 5), (WIDTH - 5, DEPTH - 5)):
        if all(math.hypot(cx - x, cy - y) >= 30.0 for x, y in zip(xs, ys, strict=True)):
            extra = {
                "id": "far",
                "side": "B",
                "profile": _profile("infantry", False),
                "bases": [{"x": cx, "y": cy, "facing": 270.0}],
            }
            if any(t for t in data["terrain"]):
                return None  # a far base could still stand on terrain; keep the check simple
            return {**data, "units": [*data["units"], extra]}
    return None


def _morale_property(bf: Battlefield) -> list[str]:
    """6.6, 6.8: the morale phase of each side answers, every chance is a probability, a unit
    that surely surrenders has a surrender chance of its whole flight chance, and a figure's
    way round is never shorter than the straight line (6.6.9: the straight line is shortest)."""
    from szwadron.table.morale_phase import morale_phase

    failures: list[str] = []
    for side in ("A", "B"):
        for u in morale_phase(bf, side).units:
            for name in ("reorganise_chance", "flight_chance", "off_table_chance", "surrender_chance"):
                p = getattr(u, name)
                if not 0 <= p <= 1:
                    failures.append(f"morale {u.id}: {name} {p} is not a probability")
            if u.surrenders and u.surrender_chance != u.flight_chance:
                failures.append(f"morale {u.id}: surrenders whatever the dice, but with {u.surrender_chance}")
            for f in u.figures:
                b = int(bf.resolve(f.base)[0])
                ys = bf.corners[b][:, 1]
                straight = float(ys.min()) if side == "A" else bf.scenario.table.depth - float(ys.max())
                if f.blocked_cm is None and f.edge_cm < max(straight, 0.0) - 1e-6:
                    failures.append(
                        f"morale {f.base}: way {f.edge_cm:.2f} cm shorter than straight {straight:.2f}"
                    )
    return failures


def _combined_property(bf: Battlefield, engaged: set[frozenset[str]]) -> list[str]:
    """5.10: a side-A unit engaged with several enemy units (or several with one) resolved as
    one combined melee answers (no internal error), every unit's outcome probabilities add up to
    1, and with one unit a side the answer is the single melee's."""
    failures: list[str] = []
    sc = bf.scenario
    for u in sc.units:
        if u.side != "A" or u.state is UnitState.PANIC:
            continue
        foes = sorted(e for pair in engaged if u.id in pair for e in pair if e != u.id)
        if not foes:
            continue
        try:
            m = combined_melee(bf, [u.id], foes)
        except IllegalActionError as exc:
            failures.append(f"combined melee {u.id} against {', '.join(foes)} refused: {exc}")
            continue
        for name in m.units:
            if sum(m.outcome(name).probabilities().values()) != 1:
                failures.append(f"combined melee {u.id}: outcomes of {name} do not add up to 1")
        if len(foes) == 1:
            single = table_melee(bf, u.id, foes[0])
            if m.outcomes != single.odds.outcomes:
                failures.append(f"combined melee {u.id} against {foes[0]} differs from the single melee")
    return failures


def _problem_key(p: Any) -> tuple[str, tuple[str, ...]]:
    return p.rule, tuple(sorted({str(w).split("/")[0] for w in p.where}))


def _move_property(sc: Scenario, rng: random.Random) -> list[str]:
    """A unit moved straight ahead: when the move is legal, the new table has no problem of
    that unit that the old one lacked."""
    unit = rng.choice(sc.units)
    if unit.profile.kind is Kind.FOOT_ARTILLERY:
        return []
    step = rng.uniform(0.5, unit.profile.move)
    poses = []
    for i, b in enumerate(unit.bases):
        a = math.radians(b.facing)
        poses.append(
            {"index": i, "x": b.x + step * math.cos(a), "y": b.y + step * math.sin(a), "facing": b.facing}
        )
    move = {"bases": poses}
    bf = Battlefield(sc)
    # a problem is the rule and the units it names: a unit already standing in an enemy zone
    # (1.4.2) that moves and still stands in it adds no problem, though the closest pair changes
    before = {_problem_key(p) for p in audit(bf).problems}
    try:
        report = check_move(bf, unit.id, move)
    except SzwadronError:
        return []
    if not report.legal:
        return []
    after_sc = place(bf, unit.id, move)
    prefix = unit.id + "/"
    new = [
        p
        for p in audit(Battlefield(after_sc)).problems
        if _problem_key(p) not in before and any(w.startswith(prefix) for w in p.where)
    ]
    return [f"legal move of {unit.id} by {step:.2f} cm ends with [{p.rule}] {p.message}" for p in new]


def _cli_exit_codes(data: dict[str, Any]) -> list[str]:
    """Every command run through the CLI on the table: no exit 3."""
    from szwadron.cli import main

    toml = _to_toml(data)
    ids = [u["id"] for u in data["units"]]
    a = next(u["id"] for u in data["units"] if u["side"] == "A")
    b = next((u["id"] for u in data["units"] if u["side"] == "B"), a)
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.toml"
        path.write_text(toml, encoding="utf-8")
        f = str(path)
        commands = [
            ["check", f, "--json"],
            ["measure", f, ids[0], ids[-1]],
            ["fire", f, "--shooter", a, "--target", b],
            ["targets", f, "--shooter", a],
            ["melee", f, "--attacker", a, "--defender", b],
            [
                "melee",
                f,
                "--attacker",
                *[u["id"] for u in data["units"] if u["side"] == "A"],
                "--defender",
                b,
            ],
            [
                "melee",
                f,
                "--attacker",
                a,
                "--defender",
                *[u["id"] for u in data["units"] if u["side"] == "B"],
            ],
            ["morale", f, "--side", "A"],
            ["reach", f, "--unit", a, "--target", b],
        ]
        for argv in commands:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
                code = main(argv)
            if code == 3:
                failures.append(
                    f"exit 3 from {' '.join(argv[:1] + argv[2:])}: {err.getvalue().strip()[:200]}"
                )
    return failures


def _to_toml(data: dict[str, Any]) -> str:
    def val(v: Any) -> str:
        if isinstance(v, str):
            return '"' + v + '"'
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{k} = {val(x)}" for k, x in v.items()) + " }"
        return repr(float(v)) if isinstance(v, float) else str(v)

    out = [f"name = {val(data['name'])}", "[table]", f"width = {val(data['table']['width'])}"]
    out.append(f"depth = {val(data['table']['depth'])}")
    for t in data["terrain"]:
        out.append("[[terrain]]")
        out += [f"{k} = {val(v)}" for k, v in t.items()]
    for u in data["units"]:
        out.append("[[units]]")
        out += [f"{k} = {val(v)}" for k, v in u.items()]
    return "\n".join(out) + "\n"


def check_properties(data: dict[str, Any], rng: random.Random, *, cli: bool = True) -> list[str]:
    """The properties of the module docstring that fail on this table (empty: all hold); an
    exception other than a deliberate refusal is a failure too (internal error)."""
    try:
        return _check_properties(data, rng, cli=cli)
    except SzwadronError as exc:
        return [f"internal error: the library refused a legal table: {exc}"]
    except Exception as exc:  # the property is "no internal error"
        return [f"internal error: {type(exc).__name__}: {exc}"]


def _check_properties(data: dict[str, Any], rng: random.Random, *, cli: bool) -> list[str]:
    failures: list[str] = []
    sc = Scenario.model_validate(data)
    bf = Battlefield(sc)
    report = audit(bf)
    engaged = _engaged(report)
    side = {u.id: u.side for u in sc.units}
    for a in side:
        for b in side:
            if side[a] != "A" or side[b] != "B":
                continue
            for att, dfn in ((a, b), (b, a)):
                contact = _melee_in_contact(bf, att, dfn)
                if contact is None:
                    continue
                if contact != (frozenset((a, b)) in engaged):
                    failures.append(
                        f"check says {a} and {b} are {'' if frozenset((a, b)) in engaged else 'not '}engaged; "
                        f"melee {att} against {dfn} finds {'figures' if contact else 'no figure'} in contact"
                    )
    failures += _combined_property(bf, engaged)
    failures += _move_property(sc, rng)
    failures += _morale_property(bf)
    far = _far_bystander(sc, data)
    if far is not None:
        sc_far = Scenario.model_validate(far)
        bf_far = Battlefield(sc_far)
        for a in side:
            for b in side:
                if side[a] != side[b] and _fire_answer(bf, a, b) != _fire_answer(bf_far, a, b):
                    failures.append(f"fire {a} at {b} changes when a unit is added far from the band")
    mine, theirs = _answers(sc), _answers(Scenario.model_validate(mirrored(data)))
    for key in mine:
        if mine[key] != theirs[key]:
            diff = (
                {k: (mine[key][k], theirs[key][k]) for k in mine[key] if mine[key][k] != theirs[key][k]}
                if isinstance(mine[key], dict)
                else (mine[key], theirs[key])
            )
            failures.append(f"mirrored table answers {key} differently: {str(diff)[:300]}")
    if cli:
        failures += _cli_exit_codes(data)
    return failures
