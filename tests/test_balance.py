"""Issue 7 — the balance report of two armies (szwadron.armies.balance)."""

from __future__ import annotations

from pathlib import Path

import pytest

from szwadron.armies.balance import balance, predicted_chance, suggestions, summarise
from szwadron.armies.points import load_model
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import Roster, RosterEntry

BUNDLED = bundled_dir("armylists")
TESTLAND = Path(__file__).parent / "cases" / "armylists" / "testland.toml"


def _army(name: str):  # type: ignore[no-untyped-def]
    return load_army_list(BUNDLED / f"{name}.toml")


def test_equal_armies_are_even() -> None:
    fr = _army("france")
    report = balance(fr, fr.roster("corps-2000"), fr, fr.roster("corps-2000"))
    assert report.chance_a == report.chance_b == 0.5
    assert report.difference == 0 and report.suggestions == ()


def test_side_totals_by_hand() -> None:
    """Totals of a small roster: points, figures, wound points, means, artillery share."""
    army = load_army_list(TESTLAND)  # line 10, gun 60, limber 10 points (its header)
    roster = Roster(
        id="t",
        units=(
            RosterEntry(profile="line", figures=10, count=2),
            RosterEntry(profile="gun", figures=1, attached=({"profile": "limber", "figures": 1},)),  # type: ignore[arg-type]
        ),
    )
    side = summarise(army, roster, load_model())
    line, gun = army.profile("line"), army.profile("gun")
    assert side.points == 20 * 10 + 60 + 10
    assert side.figures == 22 and side.units == 3
    assert side.wound_points == 20 * line.wounds + gun.wounds  # limbers do not fight (7.2)
    assert side.artillery_share == pytest.approx(70 / 270)
    assert side.mean_morale == pytest.approx((20 * line.morale + gun.morale) / 21)


def test_more_points_more_chance_and_suggestions_even_it() -> None:
    fr = _army("france")
    report = balance(fr, fr.roster("corps-2000"), fr, fr.roster("corps-1000"))
    assert report.difference > 0 and report.chance_a > 0.5
    assert report.chance_a == pytest.approx(
        predicted_chance(report.a.points, report.b.points, report.steepness)
    )
    best = report.suggestions[0]
    assert abs(best.difference_after) < abs(report.difference)
    assert {s.side for s in report.suggestions} <= {"A", "B"}
    for s in report.suggestions:
        assert (s.side == "A") == (s.change < 0)  # A is heavier: A removes, B adds


def test_issue7_suggestions_are_legal_roster_edits() -> None:
    """Each suggestion is a roster edit inside the list's constraints (unit sizes, shares, the
    points limit) whose points difference is what it says; none adds to a unit that already
    breaks a size cap."""
    from szwadron.armies.rosters import validate_roster

    ru, fr = _army("russia"), _army("france")

    def lighter(roster: Roster) -> Roster:
        """The roster less one unit of its first entry of several (a clear gap to even, whatever
        the points of the day)."""
        k = next(i for i, e in enumerate(roster.units) if e.count > 1)
        units = list(roster.units)
        units[k] = units[k].model_copy(update={"count": units[k].count - 1})
        return roster.model_copy(update={"units": tuple(units)})

    for (army_a, roster_a), (army_b, roster_b) in [
        ((fr, fr.roster("corps-2000")), (ru, lighter(ru.roster("corps-2000")))),
        ((ru, lighter(ru.roster("corps-1000"))), (fr, fr.roster("corps-1000"))),
    ]:
        report = balance(army_a, roster_a, army_b, roster_b)
        assert report.suggestions
        assert abs(report.suggestions[0].difference_after) < abs(report.difference)
        for s in report.suggestions:
            army, roster = (army_a, roster_a) if s.side == "A" else (army_b, roster_b)
            entry = roster.units[s.entry]
            assert entry.profile == s.profile
            if s.units:
                edited = entry.model_copy(update={"count": entry.count + s.units})
                assert s.change == s.units * s.unit_figures
            else:
                per = s.change // entry.count
                assert per * entry.count == s.change
                edited = entry.model_copy(update={"figures": entry.figures + per})
            units = [
                *roster.units[: s.entry],
                *([edited] if edited.count else []),
                *roster.units[s.entry + 1 :],
            ]
            after = validate_roster(army, roster.model_copy(update={"units": tuple(units)}))
            assert after.ok, after.describe()
            before = validate_roster(army, roster)
            assert after.points is not None and before.points is not None
            assert after.points - before.points == pytest.approx(s.points)
            assert report.difference + (s.points if s.side == "A" else -s.points) == pytest.approx(
                s.difference_after
            )
    big = Roster.model_validate(
        {
            "id": "big",
            "points_limit": 1000,
            "units": [
                {"profile": "line_infantry", "figures": 24, "count": 2},
                {"profile": "hussars", "figures": 6},
            ],
        }
    )
    report = balance(ru, big, ru, ru.roster("corps-1000"))
    assert report.a.broken and all(s.entry != 0 for s in report.suggestions if s.side == "A" and s.change > 0)


def test_predicted_chance_is_symmetric_and_monotone() -> None:
    assert predicted_chance(1200, 1000, 2.0) == pytest.approx(1 - predicted_chance(1000, 1200, 2.0))
    assert predicted_chance(1000, 900, 2.0) < predicted_chance(1000, 800, 2.0)
    assert predicted_chance(0, 0, 2.0) == 0.5


def test_profiles_without_points_are_priced_by_the_model(tmp_path: Path) -> None:
    text = (BUNDLED / "france.toml").read_text(encoding="utf-8")
    stripped = "\n".join(ln for ln in text.splitlines() if not ln.startswith("points = ")) + "\n"
    (tmp_path / "france.toml").write_text(stripped, encoding="utf-8")
    bare = load_army_list(tmp_path / "france.toml")
    stored = _army("france")
    a = summarise(bare, bare.roster("corps-1000"))
    b = summarise(stored, stored.roster("corps-1000"))
    assert a.points == pytest.approx(b.points)  # stored points are the model's
    assert "line_infantry" in a.model_priced and not b.model_priced


def test_malformed_roster_is_invalid_data() -> None:
    fr = _army("france")
    bad = Roster(id="bad", units=(RosterEntry(profile="zouaves", figures=3),))
    with pytest.raises(InvalidDataError, match="zouaves"):
        balance(fr, bad, fr, fr.roster("corps-1000"))


def test_no_suggestion_when_even() -> None:
    fr = _army("france")
    side = summarise(fr, fr.roster("corps-1000"))
    assert suggestions(side, side, ((fr, fr.roster("corps-1000")),) * 2) == []
