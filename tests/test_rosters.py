"""Issue 7 — roster constraints as data and roster validation.

Known-answer cases are data files:

- ``tests/cases/rosters/*.toml``: roster files, each with its expectations in comment lines:
  ``# expect-broken: ID, ID`` (or ``none``; in report order), optionally
  ``# expect-unchecked: ID, ...``, ``# expect-points: N`` and ``# expect-message: TEXT`` (text
  the report must contain). Most use ``tests/cases/armylists/testland.toml``, a small list with
  points.
- ``tests/cases/bad_rosters/*.toml`` and ``tests/cases/bad_armylists/*.toml``: malformed rosters
  and lists (impossible constraints, unknown profiles); ``# expect: TEXT`` lines give the text
  the single error message must contain after the file name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pytest

from szwadron.armies.rosters import Breach, load_roster, parse_roster, validate_roster
from szwadron.errors import InvalidDataError
from szwadron.loading import bundled_dir, load_army_list
from szwadron.models import ArmyList, Kind, Roster, RosterEntry

CASES = Path(__file__).parent / "cases"
ROSTERS = CASES / "rosters"
BAD_ROSTERS = CASES / "bad_rosters"
BAD_LISTS = CASES / "bad_armylists"
TESTLAND = CASES / "armylists" / "testland.toml"
BUNDLED = bundled_dir("armylists")


def _header(path: Path, key: str) -> list[str]:
    prefix = f"# {key}:"
    return [
        line.removeprefix(prefix).strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith(prefix)
    ]


def _ids(text: str) -> list[str]:
    return [] if text == "none" else [t.strip() for t in text.split(",")]


def _france() -> ArmyList:
    return load_army_list(BUNDLED / "france.toml")


@pytest.mark.parametrize("case", sorted(ROSTERS.glob("*.toml")), ids=lambda p: p.stem)
def test_issue7_roster_cases(case: Path) -> None:
    """Each case reports exactly its expected broken (and unchecked) constraints."""
    (broken,) = _header(case, "expect-broken")
    unchecked = _header(case, "expect-unchecked")
    army, roster = load_roster(case)
    report = validate_roster(army, roster)
    assert [b.constraint for b in report.broken] == _ids(broken), report.describe()
    assert report.ok == (not _ids(broken))
    assert [u.constraint for u in report.unchecked] == (_ids(unchecked[0]) if unchecked else [])
    for points in _header(case, "expect-points"):
        assert report.points == pytest.approx(float(points))
    text = report.describe()
    for message in _header(case, "expect-message"):
        assert message in text, f"{message!r} not in\n{text}"


def _assert_one_clear_message(case: Path, load: Callable[[Path], object]) -> None:
    """Loading ``case`` fails with one message that starts with the file and holds every
    ``# expect:`` line of its header."""
    expected = _header(case, "expect")
    assert expected, f"{case.name} has no '# expect:' line"
    with pytest.raises(InvalidDataError) as info:
        load(case)
    message = str(info.value)
    assert message.startswith(f"{case}: "), message
    for text in expected:
        assert text in message, f"{case.name}: {text!r} not in {message!r}"


@pytest.mark.parametrize("case", sorted(BAD_ROSTERS.glob("*.toml")), ids=lambda p: p.stem)
def test_issue7_bad_roster_gives_one_clear_message(case: Path) -> None:
    _assert_one_clear_message(case, load_roster)


@pytest.mark.parametrize("case", sorted(BAD_LISTS.glob("*.toml")), ids=lambda p: p.stem)
def test_issue7_impossible_constraints_rejected_with_field_path(case: Path) -> None:
    _assert_one_clear_message(case, load_army_list)


def _division() -> Roster:
    """A French division of 87 figures (the bundled corps-1000 of issue 7, its battalions of 12):
    fixed here, so the arithmetic below does not move when a recalibration rebuilds the example."""
    return Roster.model_validate(
        {
            "id": "division",
            "points_limit": 1000,
            "units": [
                {"profile": "line_infantry", "figures": 12, "count": 4},
                {"profile": "voltigeurs", "figures": 5, "count": 2},
                {"profile": "hussars", "figures": 7},
                {"profile": "hussars", "figures": 6},
                {"profile": "dragoons", "figures": 6},
                {"profile": "cuirassiers", "figures": 6},
                {
                    "profile": "foot_artillery",
                    "figures": 1,
                    "attached": [{"profile": "limber", "figures": 1}],
                },
                {"profile": "field_battery", "figures": 1},
                {"profile": "horse_artillery", "figures": 1},
            ],
        }
    )


def _flat(army: ArmyList) -> ArmyList:
    """``army`` without its unit-size prices (issue 14): every figure costs its points per figure,
    as the points maps of these tests count them."""
    return army.model_copy(update={"size_prices": ()})


def test_issue7_artillery_at_most_a_fifth() -> None:
    """The share of points is checked once points are given (here through a points map)."""
    army = _flat(_france())
    cheap = {p.id: 10.0 for p in army.profiles}
    report = validate_roster(army, _division(), points=cheap)
    assert report.ok and not report.unchecked
    # 87 figures: the 12-pdr (with its limber), a 6-pdr and a horse gun; 83 others at 8
    dear_guns = {p.id: 8.0 for p in army.profiles} | {"foot_artillery": 198.0, "horse_artillery": 122.0}
    report = validate_roster(army, _division(), points=dear_guns)
    assert report.points == 1000.0  # exactly at the roster's limit: not broken
    (breach,) = report.broken
    assert breach.constraint == "artillery-fifth" and breach.bound == "max" and breach.limit == 0.2
    # guns 198 + 122 + 8 and a limber 8, of 1000
    assert breach.actual == pytest.approx(336 / 1000)
    assert "33.6% of the points; at most 20.0% allowed" in breach.message


def test_issue7_points_limit_with_points_map() -> None:
    army = _flat(_france())
    report = validate_roster(army, _division(), points={p.id: 15.0 for p in army.profiles})
    assert report.points == 87 * 15.0  # its 87 figures, limber included
    (breach,) = report.broken
    assert (breach.constraint, breach.actual, breach.limit) == ("points_limit", 1305.0, 1000.0)
    assert "1305 points, over the limit of 1000 by 305" in str(breach)


def _france_without_points(tmp_path: Path) -> ArmyList:
    """The bundled French list with its ``points =`` lines stripped."""
    text = (bundled_dir("armylists") / "france.toml").read_text(encoding="utf-8")
    stripped = "\n".join(line for line in text.splitlines() if not line.startswith("points ="))
    path = tmp_path / "france.toml"
    path.write_text(stripped + "\n", encoding="utf-8")
    return load_army_list(path)


def test_issue7_partial_points_leave_points_checks_unchecked(tmp_path: Path) -> None:
    army = _france_without_points(tmp_path)
    assert all(p.points is None for p in army.profiles)
    report = validate_roster(army, "corps-1000", points={"line_infantry": 7.0})
    assert report.points is None and report.points_by_kind is None
    assert "lancers" in report.missing_points and "line_infantry" not in report.missing_points
    shares_of_points = [
        c.id
        for c in army.constraints
        if (c.max_share is not None or c.min_share is not None) and c.share_of.value == "points"
    ]
    assert shares_of_points  # artillery-fifth, cavalry-points: unchecked without every profile's points
    assert [u.constraint for u in report.unchecked] == ["points_limit", *shares_of_points]
    assert "no points for: cuirassiers" in str(report.unchecked[0])


def test_issue7_totals_by_kind() -> None:
    """Totals count attached figures by their own profile (1.1, 7.2)."""
    army = load_army_list(TESTLAND)
    roster = Roster(
        id="r",
        units=(
            RosterEntry.model_validate(
                {
                    "profile": "line",
                    "figures": 10,
                    "count": 2,
                    "attached": [{"profile": "skirmishers", "figures": 1}],
                }
            ),
            RosterEntry(profile="hussars", figures=4),
            RosterEntry.model_validate(
                {"profile": "gun", "figures": 1, "attached": [{"profile": "limber", "figures": 1}]}
            ),
        ),
    )
    report = validate_roster(army, roster)
    assert (report.units, report.figures) == (4, 28)
    assert report.figures_by_kind == {
        Kind.INFANTRY: 22,
        Kind.CAVALRY: 4,
        Kind.FOOT_ARTILLERY: 1,
        Kind.LIMBER: 1,
    }
    assert report.points_by_kind == {
        Kind.INFANTRY: 224.0,
        Kind.CAVALRY: 80.0,
        Kind.FOOT_ARTILLERY: 60.0,
        Kind.LIMBER: 10.0,
    }
    assert report.points == 374.0 and report.ok


def test_issue7_unknown_roster_and_unknown_profile() -> None:
    army = _france()
    with pytest.raises(
        InvalidDataError, match=r"unknown roster 'corps-3000' in army list 'france' \(it has: corps-1000"
    ):
        validate_roster(army, "corps-3000")
    stray = Roster(id="stray", units=(RosterEntry(profile="zouaves", figures=6),))
    with pytest.raises(
        InvalidDataError, match=r"roster 'stray': units\[0\]\.profile: unknown profile 'zouaves'"
    ):
        validate_roster(army, stray)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ({"zouaves": 5.0}, r"points\['zouaves'\]: unknown profile 'zouaves' in army list 'france'"),
        ({"hussars": -1.0}, r"points\['hussars'\]: expected a finite number >= 0, got -1.0"),
        ({"hussars": math.nan}, r"points\['hussars'\]: expected a finite number >= 0"),
    ],
)
def test_issue7_bad_points_map(points: dict[str, float], message: str) -> None:
    with pytest.raises(InvalidDataError, match=message):
        validate_roster(_france(), "corps-1000", points=points)


def test_issue7_roster_file_with_explicit_folders_and_broken_list(tmp_path: Path) -> None:
    """A roster's list is found in the given folders; a malformed list names its own file."""
    data = {"army": "testland", "id": "r", "units": [{"profile": "line", "figures": 12, "count": 2}]}
    army, roster = parse_roster(data, source="mem", folders=[TESTLAND.parent])
    assert army.id == "testland" and roster.army == "testland"
    assert validate_roster(army, roster).ok
    broken = tmp_path / "testland.toml"
    broken.write_text('id = "testland"\nname = "T"\nprofiles = []\n', encoding="utf-8")
    with pytest.raises(InvalidDataError) as info:
        parse_roster(data, source="mem", folders=[tmp_path])
    assert str(info.value).startswith(f"{broken}: profiles: expected at least 1 entries")


def test_issue7_breach_and_report_read_well() -> None:
    army, roster = load_roster(ROSTERS / "too_few_line.toml")
    report = validate_roster(army, roster)
    (breach,) = report.broken
    assert isinstance(breach, Breach)
    assert str(breach) == "line-core (At least two units of line infantry): 1 unit; at least 2 needed"
    lines = report.describe().splitlines()
    assert lines[0] == (
        "roster 'thin-line' of army list 'testland': 2 units, 18 figures (infantry 18); 192 points"
    )
    assert lines[1:] == ["1 broken:", f"  {breach}"]


def test_issue7_bundled_example_rosters_are_listed() -> None:
    """The roster of the docstring example in szwadron.armies.rosters stays valid."""
    report = validate_roster(_france(), "corps-2000")
    assert report.ok and report.figures_by_kind[Kind.LIMBER] == 4  # the 12-pdrs and the howitzer (7.2)


# --- issue 14: what may be attached to a unit (1.1, project decision) -------------------------
def _attached_roster(own: int, attached: int, profile: str = "grenadiers") -> object:
    from szwadron.models import Roster

    return Roster.model_validate(
        {
            "id": "attached",
            "units": [
                {
                    "profile": "line_infantry",
                    "figures": own,
                    "attached": [{"profile": profile, "figures": attached}],
                }
            ],
        }
    )


@pytest.mark.parametrize(
    ("own", "attached", "ok"), [(10, 2, True), (9, 3, True), (8, 3, False), (1, 11, False)]
)
def test_attached_figures_are_at_most_a_quarter_of_the_unit_1_1(own: int, attached: int, ok: bool) -> None:
    from szwadron.armies.rosters import ATTACHED_ID, validate_roster
    from szwadron.loading import bundled_dir, load_army_list

    france = load_army_list(bundled_dir("armylists") / "france.toml")
    report = validate_roster(france, _attached_roster(own, attached))  # type: ignore[arg-type]
    broken = [b for b in report.broken if b.constraint == ATTACHED_ID]
    assert (not broken) is ok
    if not ok:
        assert broken[0].actual == attached and broken[0].limit == (own + attached) // 4
        assert broken[0].where == ("units[0]",)


@pytest.mark.parametrize(
    ("profile", "m"), [("light_infantry", 4), ("voltigeurs", 4), ("grenadiers", 5), ("old_guard", 6)]
)
def test_issue14_no_attached_company_of_higher_morale_1_1_6_2(profile: str, m: int) -> None:
    """A unit tests morale on its own M (6.2; docs/decisions.md), so a company of higher M may not
    be attached to it (attached-morale): French line (M 4) takes light infantry or voltigeurs (M 4)
    but not grenadiers (M 5) or the Old Guard (M 6)."""
    from szwadron.armies.rosters import ATTACHED_MORALE_ID, validate_roster
    from szwadron.loading import bundled_dir, load_army_list

    france = load_army_list(bundled_dir("armylists") / "france.toml")
    report = validate_roster(france, _attached_roster(10, 2, profile))  # type: ignore[arg-type]
    broken = [b for b in report.broken if b.constraint == ATTACHED_MORALE_ID]
    if m <= france.profile("line_infantry").morale:
        assert not broken
    else:
        (b,) = broken
        assert (b.actual, b.bound, b.limit, b.where) == (m, "max", 4, ("units[0]",))
        assert f"attached '{profile}' has M {m}; at most 4 allowed" in report.describe()


def test_limbers_are_not_attached_figures_7_2() -> None:
    from szwadron.armies.rosters import ATTACHED_ID, validate_roster
    from szwadron.loading import bundled_dir, load_army_list

    france = load_army_list(bundled_dir("armylists") / "france.toml")
    report = validate_roster(france, "corps-2000")  # guns of 1 figure with 1 limber each
    assert not [b for b in report.broken if b.constraint == ATTACHED_ID]


# --- issue 14: where a roster stands on each limit of its list --------------------------------
def _all_lists() -> list[ArmyList]:
    return [load_army_list(p) for p in sorted(BUNDLED.glob("*.toml"))]


def _screen(army: ArmyList, companies: int) -> Roster:
    """Four line battalions and ``companies`` skirmish companies of 8 of the list's first
    skirmishing profile (7.5): over the skirmisher cap when there are enough of them."""
    light = next(p for p in army.profiles if p.has("skirmish"))
    line = next(p for p in army.profiles if p.kind is Kind.INFANTRY and not p.has("skirmish"))
    return Roster.model_validate(
        {
            "id": "screen",
            "units": [
                {"profile": line.id, "figures": 12, "count": 4},
                {"profile": light.id, "figures": 8, "count": companies},
            ],
        }
    )


@pytest.mark.parametrize("army", _all_lists(), ids=lambda a: a.id)
def test_issue14_standings_agree_with_the_checker(army: ArmyList) -> None:
    """Every count and share limit of the list's constraints is reported once per roster, with
    the value the checker measures: a standing is broken exactly when validate_roster reports a
    breach of that constraint, measure and bound (the example rosters, random legal rosters,
    and skirmish screens over the cap)."""
    import random

    from szwadron.armies.rosters import roster_standings
    from szwadron.armies.search import random_roster

    rng = random.Random(f"standings:{army.id}")
    rosters = [*army.rosters, *(random_roster(army, 1000.0, rng) for _ in range(3)), _screen(army, 6)]
    limits = sum(
        sum(
            x is not None
            for x in (c.min_units, c.max_units, c.min_figures, c.max_figures, c.min_share, c.max_share)
        )
        for c in army.constraints
    )
    for roster in rosters:
        report = validate_roster(army, roster)
        standings = roster_standings(army, roster)
        assert len(standings) == limits + sum(
            sum(
                x is not None
                for x in (c.min_units, c.max_units, c.min_figures, c.max_figures, c.min_share, c.max_share)
            )
            for c in roster.constraints
        )
        breaches = {(b.constraint, b.measure, b.bound): b.actual for b in report.broken if b.entry is None}
        for s in standings:
            key = (s.constraint, s.measure, s.bound)
            assert (key in breaches) == (not s.ok), (roster.id, str(s))
            if key in breaches:
                assert breaches[key] == pytest.approx(s.actual)
    (cap,) = [s for s in roster_standings(army, _screen(army, 6)) if s.constraint == "skirmisher-points"]
    assert not cap.ok and str(cap).endswith("(broken)") and "at most 25.0%" in str(cap)


def test_issue14_standing_values_by_hand() -> None:
    """The values themselves: the French division's skirmishers' share of the points, its
    infantry's share of the figures, worked out from the roster by hand."""
    from szwadron.armies.rosters import roster_standings

    army = _france()
    roster = _division()
    by = {(s.constraint, s.bound): s for s in roster_standings(army, roster)}
    price = {p.id: p.points or 0.0 for p in army.profiles}
    figures = [(army.profile(e.profile), e.figures * e.count) for e in roster.units] + [
        (army.profile(a.profile), a.figures * e.count) for e in roster.units for a in e.attached
    ]
    # the units' own figures at the list's unit-size price (issue 14): 3 % a figure from 6 for
    # skirmish companies (2 companies of 5 voltigeurs: 0.97), 1.5 % for cavalry regiments
    assert army.size_factor(army.profile("voltigeurs"), 5) == pytest.approx(0.97)
    paid = [
        (army.profile(e.profile), e.figures * e.count * army.size_factor(army.profile(e.profile), e.figures))
        for e in roster.units
    ] + [(army.profile(a.profile), a.figures * e.count) for e in roster.units for a in e.attached]
    hussars = sum(n for p, n in paid if p.id == "hussars")
    assert hussars == pytest.approx(7 * 1.015 + 6)
    total = sum(n * price[p.id] for p, n in paid)
    skirmish = sum(n * price[p.id] for p, n in paid if p.has("skirmish"))
    assert by["skirmisher-points", "max"].actual == pytest.approx(skirmish / total)
    infantry = sum(n for p, n in figures if p.kind is Kind.INFANTRY)
    assert by["infantry-half", "min"].actual == pytest.approx(infantry / sum(n for _, n in figures))
    assert by["infantry-half", "min"].measure == "share of figures" and by["infantry-half", "min"].ok


def test_issue14_standings_skip_shares_of_unknown_points() -> None:
    """A share of points is not reported while a fielded profile has no points (the checker
    lists it as not checked); shares of figures still are."""
    from szwadron.armies.rosters import roster_standings

    army = _france()
    bare = army.model_copy(
        update={"profiles": tuple(p.model_copy(update={"points": None}) for p in army.profiles)}
    )
    measures = {s.measure for s in roster_standings(bare, _division())}
    assert "share of points" not in measures and "share of figures" in measures
    assert "share of points" in {s.measure for s in roster_standings(army, _division())}
