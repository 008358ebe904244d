"""Unit-size prices of the army lists (issue 14; docs/decisions.md, "The simulated battles of the points (issue 14)").

A list's ``[[size_prices]]`` multiply the points of a selected unit's own figures by
``1 + per_figure × (n − reference_figures)``, ``n`` the unit's figures as ``min_unit_figures``
counts them (its own and attached fighting figures). Every pricing of a roster — the constraint
checker's total and shares of points, each entry's cost, the simulated battles' forces, the balance
report, the random rosters and the exploit search — prices them alike; bad size prices are refused
with the field's path (tests/cases/bad_armylists/size_price_*.toml, checked by test_rosters.py).
"""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from szwadron.armies.balance import summarise
from szwadron.armies.battles import force_points, roster_force, roster_points
from szwadron.armies.rosters import entry_costs, roster_standings, unit_cost, validate_roster
from szwadron.armies.search import random_roster
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import ArmyList, Kind, Roster, SizePrice

LISTS = sorted(bundled_dir("armylists").glob("*.toml"))


def _price(**kw: object) -> SizePrice:
    return SizePrice.model_validate({"id": "s", "rule": "Bigger units cost more", **kw})


def test_the_factor_is_linear_in_the_figures_from_the_reference() -> None:
    sp = _price(abilities=["skirmish"], reference_figures=6, per_figure=0.03)
    assert [round(sp.factor(n), 9) for n in (4, 5, 6, 7, 8)] == [0.94, 0.97, 1.0, 1.03, 1.06]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"reference_figures": 6, "per_figure": 0.03}, "give a selector"),
        ({"kinds": ["cavalry"], "reference_figures": 6, "per_figure": -0.01}, "greater than or equal to 0"),
        ({"kinds": ["cavalry"], "reference_figures": 6, "per_figure": float("nan")}, "finite number"),
        ({"kinds": ["cavalry"], "reference_figures": 6, "per_figure": 0.3}, "less than or equal to 0.2"),
        ({"kinds": ["cavalry"], "reference_figures": 0, "per_figure": 0.03}, "greater than or equal to 1"),
        ({"kinds": ["infantry"], "reference_figures": 12, "per_figure": 0.1}, "one figure costing nothing"),
        ({"kinds": ["cavalry"], "per_figure": 0.03}, "Field required"),
        ({"kinds": ["cavalry"], "reference_figures": "6", "per_figure": 0.03}, "integer"),
    ],
)
def test_a_size_price_that_makes_no_sense_is_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        _price(**fields)


def _france() -> ArmyList:
    return load_army_list(bundled_dir("armylists") / "france.toml")


def test_every_list_prices_skirmish_companies_and_cavalry_regiments_from_6() -> None:
    """3 % a figure for a skirmish company, 1.5 % for a cavalry regiment; a line battalion and a
    gun pay their points per figure."""
    for path in LISTS:
        army = load_army_list(path)
        for p in army.profiles:
            n = 8
            expected = 1.06 if p.has("skirmish") else 1.03 if p.kind is Kind.CAVALRY else 1.0
            assert army.size_factor(p, n) == pytest.approx(expected), (army.id, p.id)
            assert army.size_factor(p, 6) == 1.0


def test_the_first_size_price_that_selects_a_unit_applies() -> None:
    army = _france()
    first = _price(id="guard-lancers", profiles=["lancers"], reference_figures=4, per_figure=0.1)
    army = army.model_copy(update={"size_prices": (first, *army.size_prices)})
    assert army.size_factor(army.profile("lancers"), 6) == pytest.approx(1.2)
    assert army.size_factor(army.profile("dragoons"), 6) == 1.0
    assert army.size_factor(army.profile("dragoons"), 8) == pytest.approx(1.03)


def _mixed() -> Roster:
    return Roster.model_validate(
        {
            "id": "mixed",
            "points_limit": 1000,
            "units": [
                {"profile": "line_infantry", "figures": 12, "count": 3},
                {"profile": "voltigeurs", "figures": 8},
                {"profile": "voltigeurs", "figures": 4, "count": 2},
                {"profile": "hussars", "figures": 8},
                {"profile": "dragoons", "figures": 5},
                {
                    "profile": "foot_artillery",
                    "figures": 1,
                    "attached": [{"profile": "limber", "figures": 1}],
                },
            ],
        }
    )


def test_a_roster_costs_its_units_at_their_size_prices_worked_by_hand() -> None:
    army = _france()
    p = {x.id: x.points for x in army.profiles}
    assert all(v is not None for v in p.values())
    line, volt, hus, drag, gun, limber = (
        float(p[k] or 0.0)
        for k in ("line_infantry", "voltigeurs", "hussars", "dragoons", "foot_artillery", "limber")
    )
    skirmish = volt * 8 * 1.06 + 2 * volt * 4 * 0.94
    total = 3 * 12 * line + skirmish + hus * 8 * 1.03 + drag * 5 * 0.985 + gun + limber
    report = validate_roster(army, _mixed())
    assert report.points == pytest.approx(total)
    (cap,) = [s for s in roster_standings(army, _mixed()) if s.constraint == "skirmisher-points"]
    assert cap.actual == pytest.approx(skirmish / total)
    costs = entry_costs(army, _mixed())
    assert costs is not None
    assert [c.size_factor for c in costs] == pytest.approx([1.0, 1.06, 0.94, 1.03, 0.985, 1.0])
    assert sum(c.total for c in costs) == pytest.approx(total)
    assert roster_points(army, _mixed()) == pytest.approx(total)
    assert summarise(army, _mixed()).points == pytest.approx(total)
    # the battle's forces: their fighting figures, the limber left out (7.2)
    assert force_points(roster_force(army, _mixed())) == pytest.approx(total - limber)


def test_attached_fighting_figures_count_in_the_size_and_pay_their_own_points() -> None:
    """A unit's size counts its attached fighting figures (as ``min_unit_figures`` does); the
    factor applies to its own figures only."""
    army = _france()
    cuirassiers = army.profile("cuirassiers")
    entry = Roster.model_validate(
        {
            "id": "u",
            "units": [
                {"profile": "dragoons", "figures": 6, "attached": [{"profile": "cuirassiers", "figures": 2}]}
            ],
        }
    ).units[0]
    price = {x.id: float(x.points or 0.0) for x in army.profiles}
    assert unit_cost(army, entry, price) == pytest.approx(
        6 * price["dragoons"] * 1.03 + 2 * price[cuirassiers.id]
    )


@pytest.mark.parametrize("path", LISTS, ids=lambda p: p.stem)
def test_random_rosters_spend_their_limit_at_the_size_prices(path: object) -> None:
    """The generator and the checker price alike: every random legal roster is legal and within
    its limit by the checker's count, and the battles' cost agrees with it."""
    army = load_army_list(path)  # type: ignore[arg-type]
    rng = random.Random(f"size-prices:{army.id}")
    for limit in (1000.0, 2000.0):
        for k in range(4):
            roster = random_roster(army, limit, rng, rid=f"r{k}")
            report = validate_roster(army, roster)
            assert report.ok, report.describe()
            assert report.points is not None and report.points <= limit + 1e-6
            assert roster_points(army, roster) == pytest.approx(report.points)
