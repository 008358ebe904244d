"""scripts/even_roster.py (issue 14): an example roster moved one unit at a time towards an even
chance against random legal rosters of the other lists, inside its list's constraints and at
99-100 % of its limit."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from szwadron.armies.rosters import validate_roster
from szwadron.loading import load_army_list
from szwadron.models import Roster

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / "scripts" / "even_roster.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_every_step_keeps_the_roster_legal_and_spent() -> None:
    """One step on a small field: what it prints is a roster the checker passes (the list's
    constraints, 1.1 attached companies, 7.2 limbers) at 99-100 % of the limit, and at most one
    unit differs from the roster it started from."""
    done = _run("prussia", "corps-1000", "--steps", "1", "--field", "1", "--battles", "2", "--confirm", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("prussia:corps-1000 as it is: ")
    units = tomllib.loads(done.stdout[done.stdout.index("units = [") :])["units"]
    army = load_army_list(REPO / "armylists" / "prussia.toml")
    report = validate_roster(
        army, Roster.model_validate({"id": "even", "points_limit": 1000, "units": units})
    )
    assert report.ok, report.describe()
    assert report.points is not None and 990 <= report.points <= 1000
    before = army.roster("corps-1000")
    start = sum(u.count for u in before.units)
    assert abs(sum(u["count"] for u in units) - start) <= 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nowhere", "corps-1000"), "no army list 'nowhere'"),
        (("prussia", "corps-9000"), "no example roster 'corps-9000'"),
        (("prussia", "corps-1000", "--battles", "0"), "--battles must be at least 1"),
    ],
)
def test_bad_input_is_one_message_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def _script() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("even_roster", SCRIPT)
    assert spec is not None and spec.loader is not None
    even = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(even)
    return even


def test_the_roster_itself_is_no_neighbour() -> None:
    """A step changes the roster: one unit out and the same unit in is not offered (it took a
    place among the neighbours played again, and printed as a step that changed nothing)."""
    import json

    even = _script()
    army = load_army_list(REPO / "armylists" / "prussia.toml")
    units = [json.loads(u.model_dump_json(exclude_defaults=True)) for u in army.roster("corps-1000").units]
    limbers = {u["profile"]: u["attached"] for u in units if u.get("attached")}
    options = even.neighbours(army, 1000.0, units, limbers)
    assert options
    start = even._roster_key(units)
    assert all(even._roster_key(v) != start for _, v in options)
    assert len({even._roster_key(v) for _, v in options}) == len(options)


def test_two_in_for_one_out_every_neighbour_legal_and_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--in 2``: every neighbour is one unit out and two in (one unit more in all), passes the
    checker (the list's caps, 1.1, 7.2) and spends 99-100 % of the limit; the cost window that
    spares the checker drops none the checker would pass (the same neighbours as checking every
    pair). Britain's 1,000-point division as it stood before this option (2026-11-28): its
    battalions cannot go for two smaller units (the cavalry caps), but its rifle company can."""
    even = _script()
    army = load_army_list(REPO / "armylists" / "britain.toml")
    units = [
        {"profile": "line_infantry", "figures": 12, "count": 3},
        {"profile": "light_infantry", "figures": 12, "count": 1},
        {"profile": "riflemen", "figures": 6, "count": 1},
        {"profile": "light_dragoons", "figures": 4, "count": 1},
        {"profile": "foot_artillery", "figures": 1, "count": 1},
        {"profile": "light_dragoons", "figures": 6, "count": 1},
    ]
    options = even.neighbours(army, 1000.0, units, {}, 2)
    assert any(label == "riflemen x6 out, line_infantry x12 and foot_artillery x1 in" for label, _ in options)
    start = sum(u.get("count", 1) for u in units)
    for label, v in options:
        assert sum(u.get("count", 1) for u in v) == start + 1, label
        report = validate_roster(army, Roster.model_validate({"id": "v", "points_limit": 1000, "units": v}))
        assert report.ok and report.points is not None and 990 <= report.points <= 1000, label
    monkeypatch.setattr(even, "SPEND", 0.0)  # a window as wide as the limit: the checker alone decides
    every = [v for _, v in even.neighbours(army, 1000.0, units, {}, 2)]
    spent = []
    for v in every:
        report = validate_roster(army, Roster.model_validate({"id": "v", "points_limit": 1000, "units": v}))
        if report.points is not None and 990 <= report.points <= 1000:
            spent.append(even._roster_key(v))
    assert sorted(spent) == sorted(even._roster_key(v) for _, v in options)
